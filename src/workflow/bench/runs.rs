//! Generation, procedural scenes, batches, playback and evaluation rates.

use std::hint::black_box;
use std::time::{Duration, Instant};

use super::options::{BenchOptions, Lines, failed, ms};
use crate::catalogue;
use crate::eval::agents::{BUILT_IN, BuiltIn, Strategy};
use crate::eval::{Agent, evaluate, observations};
use crate::generation::{self, scripted::Scripted};
use crate::jobs::batch::{self as jobs_batch, BatchSpec};
use crate::playback::Playback;
use crate::procgen::{self as scenes, SceneSpec};
use crate::samples::{self, Index, Sample};
use crate::scene;
use crate::workflow::error::WorkflowError;

/// Opening a 30-day trace for playback (one checked replay, keyframes) and
/// seeking to random events.
pub fn playback(out: Lines) -> Result<(), WorkflowError> {
    let s = scene::parse("family_apartment", scene::default_source()).map_err(failed)?;
    let mut events = Vec::new();
    let mut backend = Scripted::new(&s, 0);
    generation::generate(&s, 30, &mut backend, &mut |e| {
        events.push(e.clone());
        Ok(())
    })
    .map_err(failed)?;
    let n = events.len();
    let t0 = Instant::now();
    let pb = Playback::new(s, events).map_err(failed)?;
    let open = t0.elapsed();
    // A fixed pseudo-random walk over the trace (no RNG needed for timing).
    let seeks = 2000u64;
    let (mut worst, mut total) = (Duration::ZERO, Duration::ZERO);
    for i in 0..seeks {
        let at = (i.wrapping_mul(2_654_435_761) % (n as u64 + 1)) as usize;
        let t0 = Instant::now();
        black_box(pb.state_at(at));
        black_box(pb.beliefs_at(at));
        let d = t0.elapsed();
        worst = worst.max(d);
        total += d;
    }
    out(format!(
        "playback of a 30-day family-apartment trace ({n} events):\n  open {:>8.1} ms   seek (state + robot's view) mean {:.3} ms, worst {:.3} ms",
        ms(open),
        ms(total) / seeks as f64,
        ms(worst)
    ));
    Ok(())
}

/// Each built-in agent on a 7-day family-apartment trace: events ingested
/// per second, and questions answered per second (each at its cutoff).
pub fn eval(args: &BenchOptions, out: Lines) -> Result<(), WorkflowError> {
    let s = scene::parse("family_apartment", scene::default_source()).map_err(failed)?;
    let mut events = Vec::new();
    let mut backend = Scripted::new(&s, 0);
    generation::generate(&s, args.days, &mut backend, &mut |e| {
        events.push(e.clone());
        Ok(())
    })
    .map_err(failed)?;
    let ix = Index::new(&s, &events);
    let qa: Vec<Sample> = samples::mine(&s, &events, 0)
        .into_iter()
        .filter(|x| matches!(x, Sample::Qa(_)))
        .collect();
    let seen = observations(&ix, 1, u64::MAX);
    out(format!(
        "agents on a {}-day family-apartment trace ({} perceived events, {} questions):",
        args.days,
        seen.len(),
        qa.len()
    ));
    for name in BUILT_IN {
        let mut agent = BuiltIn::new(Strategy::parse(name).expect("built in"));
        let t0 = Instant::now();
        agent.reset(&s).map_err(failed)?;
        for o in &seen {
            agent.observe(o).map_err(failed)?;
        }
        let ingest = t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        let (results, _) = evaluate(&ix, &qa, &mut agent);
        // evaluate() ingests again; answering is what is left.
        let answering = (t0.elapsed().as_secs_f64() - ingest).max(1e-9);
        out(format!(
            "  {name:<8} {:>12.0} events/s ingested  {:>10.0} answers/s  ({} answered)",
            seen.len() as f64 / ingest.max(1e-9),
            results.len() as f64 / answering,
            results.len()
        ));
    }
    Ok(())
}

/// The scripted pipeline in memory, each event serialized as JSON, on
/// the scene as `hearth generate` lives it (the shops' stock added).
pub fn generation(args: &BenchOptions, out: Lines) -> Result<(), WorkflowError> {
    let s = scene::parse("family_apartment", scene::default_source()).map_err(failed)?;
    let s = generation::scripted::provision(&s, args.days, catalogue::builtin());
    let (mut events, mut bytes) = (0u64, 0usize);
    let mut line = Vec::with_capacity(4096);
    let t0 = Instant::now();
    for seed in 0..args.traces {
        let mut backend = Scripted::new(&s, seed);
        generation::generate(&s, args.days, &mut backend, &mut |e| {
            line.clear();
            serde_json::to_writer(&mut line, e).map_err(|e| e.to_string())?;
            bytes += line.len() + 1;
            events += 1;
            Ok(())
        })
        .map_err(failed)?;
    }
    let spent = t0.elapsed().as_secs_f64();
    out(format!(
        "generation, scripted backend on family_apartment ({} traces x {} days, {} events, {:.1} MB of JSON):\n  {:>10.0} events/s  {:>8.2} ms/trace",
        args.traces,
        args.days,
        events,
        bytes as f64 / 1e6,
        events as f64 / spent,
        spent * 1e3 / args.traces as f64,
    ));
    Ok(())
}

/// Procedural households: time per scene (generation including its
/// validation) and the sizes they come in, over `seeds` seeds per kind.
pub fn procgen(seeds: u64, out: Lines) -> Result<(), WorkflowError> {
    let cat = catalogue::builtin();
    out(format!(
        "scene generate ({seeds} seeds per kind, validation included):"
    ));
    for kind in cat.household_kinds() {
        let mut stats = Vec::new();
        let t0 = Instant::now();
        for seed in 0..seeds {
            let s = scenes::generate(&SceneSpec::new(kind, seed), cat).map_err(failed)?;
            stats.push(scene::stats(&s));
        }
        let per = t0.elapsed() / seeds as u32;
        let range = |f: &dyn Fn(&scene::SceneStats) -> usize| {
            let v: Vec<usize> = stats.iter().map(f).collect();
            let mean = v.iter().sum::<usize>() as f64 / v.len() as f64;
            format!(
                "{}..{} (mean {mean:.1})",
                v.iter().min().unwrap_or(&0),
                v.iter().max().unwrap_or(&0)
            )
        };
        out(format!(
            "  {kind:<10} {:>7.3} ms/scene; rooms {}, objects {}, people {}, look-alike groups {}, closed doors {}",
            ms(per),
            range(&|s| s.rooms),
            range(&|s| s.objects),
            range(&|s| s.people),
            range(&|s| s.look_alike_groups),
            range(&|s| s.closed_doors),
        ));
    }
    Ok(())
}

/// `batch` to a temporary directory with one and with two jobs.
pub fn batch(args: &BenchOptions, out: Lines) -> Result<(), WorkflowError> {
    let root = std::env::temp_dir().join(format!("hearth-bench-{}", std::process::id()));
    let mut times = Vec::new();
    for jobs in [1, 2] {
        let out = root.join(format!("jobs{jobs}"));
        let t0 = Instant::now();
        let spec = BatchSpec {
            seeds: Some(format!("0..{}", args.traces)),
            days: args.days,
            jobs,
            ..BatchSpec::new(&out)
        };
        let o = jobs_batch::execute(&spec, &|_| ());
        times.push(t0.elapsed().as_secs_f64());
        let o = o
            .inspect_err(|_| {
                let _ = std::fs::remove_dir_all(&root);
            })
            .map_err(failed)?;
        if !o.failures.is_empty() {
            return Err(failed(format!("batch failed: {:?}", o.failures)));
        }
    }
    std::fs::remove_dir_all(&root).map_err(failed)?;
    out(format!(
        "batch to disk ({} traces x {} days, {} cores):\n  --jobs 1 {:>7.2} s  --jobs 2 {:>7.2} s  speed-up {:.2}x",
        args.traces,
        args.days,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        times[0],
        times[1],
        times[0] / times[1],
    ));
    Ok(())
}
