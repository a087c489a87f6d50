//! Scene loading and the executor's request rate.

use std::hint::black_box;
use std::time::{Duration, Instant};

use super::options::{BenchOptions, Lines, failed, ms};
use crate::scene;
use crate::sim::Simulation;
use crate::sim::stress::RandomRequests;
use crate::workflow::error::WorkflowError;

/// Parse and spawn times of the built-in scenes, then `requests` random
/// requests through the executor on `scene`.
pub fn executor(o: &BenchOptions, out: Lines) -> Result<(), WorkflowError> {
    let spawn =
        |s: scene::Scene| Simulation::new(s).map_err(|p| failed(format!("{} problems", p.len())));
    out("scene load (parse + validate), spawn into the ECS world:".into());
    for (id, src) in scene::BUILTIN {
        let reps = 50;
        let t0 = Instant::now();
        for _ in 0..reps {
            black_box(scene::parse(id, src).map_err(failed)?);
        }
        let parse = t0.elapsed() / reps;
        let s = scene::parse(id, src).map_err(failed)?;
        let t0 = Instant::now();
        for _ in 0..reps {
            black_box(spawn(s.clone())?);
        }
        let spawned = t0.elapsed() / reps;
        out(format!(
            "  {id:<18} {:>8.2} ms parse  {:>8.2} ms spawn",
            ms(parse),
            ms(spawned)
        ));
    }

    let src = scene::BUILTIN
        .iter()
        .find(|(id, _)| *id == o.scene)
        .ok_or_else(|| failed(format!("no built-in scene {}", o.scene)))?
        .1;
    let mut sim = spawn(scene::parse(&o.scene, src).map_err(failed)?)?;
    let mut requests = RandomRequests::new(&sim, o.seed);
    let mut spent = Duration::ZERO;
    let (mut accepted, mut bytes) = (0usize, 0usize);
    let mut line = Vec::with_capacity(4096);
    for _ in 0..o.requests {
        let req = requests.next(&sim);
        let t0 = Instant::now();
        let event = sim.execute(req);
        line.clear();
        serde_json::to_writer(&mut line, &event).map_err(failed)?;
        spent += t0.elapsed();
        bytes += line.len() + 1;
        accepted += usize::from(event.outcome.is_ok());
    }
    let per_sec = o.requests as f64 / spent.as_secs_f64();
    out(format!(
        "executor on {} ({} requests, {:.0}% accepted; validate + apply + perceive + record as JSON):\n  {:>10.0} requests/s  {:>6.2} us/request  {:.0} bytes/event",
        o.scene,
        o.requests,
        100.0 * accepted as f64 / o.requests as f64,
        per_sec,
        1e6 / per_sec,
        bytes as f64 / o.requests as f64,
    ));
    Ok(())
}
