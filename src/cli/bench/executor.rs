//! Scene loading and the executor's request rate.

use std::hint::black_box;
use std::time::{Duration, Instant};

use anyhow::Result;

use hearth::scene;
use hearth::sim::Simulation;
use hearth::sim::stress::RandomRequests;

use super::args::{BenchArgs, ms};

/// Parse and spawn times of the built-in scenes, then `--requests` random
/// requests through the executor on `--scene`.
pub(super) fn bench_executor(args: &BenchArgs) -> Result<()> {
    println!("scene load (parse + validate), spawn into the ECS world:");
    for (id, src) in scene::BUILTIN {
        let reps = 50;
        let t0 = Instant::now();
        for _ in 0..reps {
            black_box(scene::parse(id, src)?);
        }
        let parse = t0.elapsed() / reps;
        let s = scene::parse(id, src)?;
        let t0 = Instant::now();
        for _ in 0..reps {
            black_box(
                Simulation::new(s.clone()).map_err(|p| anyhow::anyhow!("{} problems", p.len()))?,
            );
        }
        let spawn = t0.elapsed() / reps;
        println!(
            "  {id:<18} {:>8.2} ms parse  {:>8.2} ms spawn",
            ms(parse),
            ms(spawn)
        );
    }

    let src = scene::BUILTIN
        .iter()
        .find(|(id, _)| *id == args.scene)
        .ok_or_else(|| anyhow::anyhow!("no built-in scene {}", args.scene))?
        .1;
    let mut sim = Simulation::new(scene::parse(&args.scene, src)?)
        .map_err(|p| anyhow::anyhow!("{} problems", p.len()))?;
    let mut requests = RandomRequests::new(&sim, args.seed);
    let mut spent = Duration::ZERO;
    let (mut accepted, mut bytes) = (0usize, 0usize);
    let mut line = Vec::with_capacity(4096);
    for _ in 0..args.requests {
        let req = requests.next(&sim);
        let t0 = Instant::now();
        let event = sim.execute(req);
        line.clear();
        serde_json::to_writer(&mut line, &event)?;
        spent += t0.elapsed();
        bytes += line.len() + 1;
        accepted += usize::from(event.outcome.is_ok());
    }
    let per_sec = args.requests as f64 / spent.as_secs_f64();
    println!(
        "executor on {} ({} requests, {:.0}% accepted; validate + apply + perceive + record as JSON):\n  {:>10.0} requests/s  {:>6.2} us/request  {:.0} bytes/event",
        args.scene,
        args.requests,
        100.0 * accepted as f64 / args.requests as f64,
        per_sec,
        1e6 / per_sec,
        bytes as f64 / args.requests as f64,
    );
    Ok(())
}
