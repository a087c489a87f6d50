//! Cost against horizon: generation, mining, evaluation and export of one
//! trace at each horizon, and the fitted exponent of each.

use std::hint::black_box;
use std::time::Instant;

use super::options::{Lines, failed};
use crate::eval::agents::{BuiltIn, Strategy};
use crate::eval::{self, Agent};
use crate::generation::{self, scripted::Scripted};
use crate::samples::export::{Haystack, locomo_records, longmemeval_records};
use crate::samples::{self, Asking, Index, QaSample, Sample};
use crate::scene;
use crate::trace::Event;
use crate::workflow::error::WorkflowError;

/// The agents `hearth eval` is timed with in the horizon benchmark: the
/// built-ins that remember something.
const HORIZON_AGENTS: [&str; 5] = ["oracle", "recent", "bm25", "obsmem", "kg"];

/// Generation, mining (with every check, as `hearth mine`), evaluation by
/// five built-in agents and the LongMemEval `s` and `m` and LoCoMo exports
/// (serialized, not written) of the family apartment, seed 1, at each horizon, and each
/// one's fitted exponent: the slope of log time against log days.
pub fn horizon(horizons: &[u32], out: Lines) -> Result<(), WorkflowError> {
    let base = scene::parse("family_apartment", scene::default_source()).map_err(failed)?;
    out(format!(
        "cost against horizon, family apartment seed 1, one thread (s; generate, mine and eval the best of {ROUNDS} rounds over the horizons, each run at least {ROUND_SECONDS} s a round; agents: {}):",
        HORIZON_AGENTS.join(", ")
    ));
    out(format!(
        "  {:>5} {:>7} {:>7} {:>9} {:>8} {:>8} {:>9} {:>9} {:>9} {:>11}",
        "days",
        "events",
        "samples",
        "generate",
        "mine",
        "eval",
        "export-s",
        "export-m",
        "locomo-s",
        "locomo-full"
    ));
    // As `hearth generate` lives it: the shops' stock for the days.
    let scenes: Vec<_> = (horizons.iter())
        .map(|&days| {
            crate::generation::scripted::provision(&base, days, crate::catalogue::builtin())
        })
        .collect();
    let generate = |s: &scene::Scene, days: u32| -> Result<Vec<Event>, WorkflowError> {
        let mut events = Vec::new();
        let mut backend = Scripted::new(s, 1);
        generation::generate(s, days, &mut backend, &mut |e| {
            events.push(e.clone());
            Ok(())
        })
        .map_err(failed)?;
        Ok(events)
    };
    // As `hearth mine` and `hearth eval` do it.
    let mine = |s: &scene::Scene, events: &[Event]| -> Result<Vec<Sample>, WorkflowError> {
        let ix = Index::new(s, events);
        let (m, invalid) = samples::mine_checked(&ix, 0, Asking::Robot);
        if !invalid.is_empty() {
            return Err(failed(format!("{} invalid samples", invalid.len())));
        }
        Ok(m)
    };
    let eval = |ix: &Index, mined: &[Sample]| -> Result<(), WorkflowError> {
        let mut agents: Vec<BuiltIn> = HORIZON_AGENTS
            .iter()
            .map(|name| BuiltIn::new(Strategy::parse(name).expect("built in")))
            .collect();
        let mut each: Vec<&mut dyn Agent> =
            agents.iter_mut().map(|a| a as &mut dyn Agent).collect();
        black_box(eval::evaluate_all(ix, mined, &mut each));
        Ok(())
    };
    let mut traces = Vec::new();
    for (s, &days) in scenes.iter().zip(horizons) {
        let events = generate(s, days)?;
        let mined = mine(s, &events)?;
        traces.push((events, mined));
    }
    let ixs: Vec<Index> = (scenes.iter().zip(&traces))
        .map(|(s, (events, _))| Index::new(s, events))
        .collect();
    // Generation, mining and evaluation, each the fastest of its runs.
    let mut best = vec![[f64::INFINITY; 3]; horizons.len()];
    for _ in 0..ROUNDS {
        for (h, (s, &days)) in scenes.iter().zip(horizons).enumerate() {
            let (events, mined) = &traces[h];
            let runs: [&mut dyn FnMut() -> Result<(), WorkflowError>; 3] = [
                &mut || generate(s, days).map(drop),
                &mut || mine(s, events).map(drop),
                &mut || eval(&ixs[h], mined),
            ];
            for (b, run) in best[h].iter_mut().zip(runs) {
                *b = b.min(fastest_in_a_round(run)?);
            }
        }
    }
    let mut rows: Vec<[f64; 8]> = Vec::new();
    for (h, &days) in horizons.iter().enumerate() {
        let (events, mined) = &traces[h];
        let ix = &ixs[h];
        let [generate, mine, eval] = best[h];
        let qa: Vec<&QaSample> = mined
            .iter()
            .filter_map(|x| match x {
                Sample::Qa(q) => Some(q),
                Sample::Plan(_) => None,
            })
            .collect();
        // Serialized, not written: the cost of making them.
        let mut sink = std::io::sink();
        let mut lme = |size| -> Result<f64, WorkflowError> {
            let t0 = Instant::now();
            for r in longmemeval_records(ix, "bench", &qa, size, 0) {
                serde_json::to_writer(&mut sink, &r).map_err(failed)?;
            }
            Ok(t0.elapsed().as_secs_f64())
        };
        let (export_s, export_m) = (lme(Haystack::S)?, lme(Haystack::M)?);
        let mut locomo = |size| -> Result<f64, WorkflowError> {
            let t0 = Instant::now();
            for r in locomo_records(ix, "bench", &qa, size, 0) {
                serde_json::to_writer(&mut sink, &r).map_err(failed)?;
            }
            Ok(t0.elapsed().as_secs_f64())
        };
        let (locomo_s, locomo_full) = (locomo(Haystack::S)?, locomo(Haystack::Full)?);
        out(format!(
            "  {days:>5} {:>7} {:>7} {generate:>9.3} {mine:>8.3} {eval:>8.3} {export_s:>9.3} {export_m:>9.3} {locomo_s:>9.3} {locomo_full:>11.3}",
            events.len(),
            mined.len()
        ));
        rows.push([
            f64::from(days),
            generate,
            mine,
            eval,
            export_s,
            export_m,
            locomo_s,
            locomo_full,
        ]);
    }
    if rows.len() >= 2 {
        let slope = |col: usize| {
            let pts: Vec<(f64, f64)> = rows.iter().map(|r| (r[0].ln(), r[col].ln())).collect();
            fitted_exponent(&pts)
        };
        out(format!(
            "  exponent (target <= 1.1): generate {:.2}, mine {:.2}, eval {:.2}, export-s {:.2}, export-m {:.2}, locomo-s {:.2}, locomo-full {:.2}",
            slope(1),
            slope(2),
            slope(3),
            slope(4),
            slope(5),
            slope(6),
            slope(7)
        ));
        out("  (`locomo-full` repeats the whole past at every cutoff, and `m` up to 500 sessions per question: their output, and so their cost, grows faster than the days; the `s` forms, the default, hold at most 45 sessions a record)".into());
    }
    Ok(())
}

/// Rounds over the horizons, each timing generation, mining and
/// evaluation at every horizon; each keeps its fastest run of all rounds.
/// Interleaved, so that a busy spell of a shared host (one that moved an
/// identical build's 56-day mine by 40% between runs) falls on every
/// horizon alike, not on the few runs of the longest, one after the other.
const ROUNDS: usize = 5;

/// In a round, a measurement runs again until its runs took this long (as
/// hyperfine's minimum time): a 7-day mine is 0.07 s, and one run is the
/// one a busy moment spoils.
const ROUND_SECONDS: f64 = 0.2;

/// The fastest of one or more runs of `f` that took [`ROUND_SECONDS`]
/// together, in seconds.
fn fastest_in_a_round(
    f: &mut dyn FnMut() -> Result<(), WorkflowError>,
) -> Result<f64, WorkflowError> {
    let (mut best, mut spent) = (f64::INFINITY, 0.0);
    while spent < ROUND_SECONDS {
        let t0 = Instant::now();
        f()?;
        let took = t0.elapsed().as_secs_f64();
        (best, spent) = (best.min(took), spent + took);
    }
    Ok(best)
}

/// The least-squares slope of `y` against `x`.
fn fitted_exponent(pts: &[(f64, f64)]) -> f64 {
    let n = pts.len() as f64;
    let (mx, my) = (
        pts.iter().map(|p| p.0).sum::<f64>() / n,
        pts.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let sxy: f64 = pts.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = pts.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    sxy / sxx
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_fitted_exponent_is_the_power() {
        let pts: Vec<(f64, f64)> = [7.0f64, 14.0, 28.0, 56.0]
            .iter()
            .map(|d| (d.ln(), (0.02 * d.powf(1.5)).ln()))
            .collect();
        assert!((super::fitted_exponent(&pts) - 1.5).abs() < 1e-9);
        let flat = [(1.0f64.ln(), 2.0), (3.0f64.ln(), 2.0)];
        assert!(super::fitted_exponent(&flat).abs() < 1e-12);
    }
}
