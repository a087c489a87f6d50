//! One sweep through a trace: its QA samples and planning tasks, and with
//! the checks run as each cutoff passes, one replay serving both.

use super::index::Index;
use super::mine::mine_qa;
use super::model::{Asking, Sample};
use super::{plan, validate};
use crate::scene::Scene;
use crate::trace::Event;

use super::cutoff::cutoffs;
use super::replay::Replay;

/// Mines every QA sample and planning task of a trace, asking about the
/// household ([`Asking::default`]).
pub fn mine(scene: &Scene, events: &[Event], seed: u64) -> Vec<Sample> {
    mine_asking(scene, events, seed, Asking::default())
}

/// [`mine`], with the questions drawn from `ask`.
pub fn mine_asking(scene: &Scene, events: &[Event], seed: u64, ask: Asking) -> Vec<Sample> {
    let ix = Index::new(scene, events);
    let qa = mine_qa(&ix, seed, ask);
    let tasks = plan::mine_tasks(&ix, seed, 1);
    qa.into_iter()
        .map(Sample::Qa)
        .chain(tasks.into_iter().map(Sample::Plan))
        .collect()
}

/// [`mine`] over `ix` with [`validate::check`] run as each cutoff passes:
/// the same samples and findings, with one replay of the trace serving
/// both the planning tasks and the checks.
pub fn mine_checked(ix: &Index, seed: u64, ask: Asking) -> (Vec<Sample>, Vec<validate::Invalid>) {
    let qa = mine_qa(ix, seed, ask);
    let cuts = cutoffs(ix);
    let n = qa.len();
    // One list for all, with room for the tasks (a pair at most a
    // cutoff): each sample is moved once, not again as the tasks join
    // (a QA sample is some 700 bytes; at 56 days they are megabytes,
    // far past the cache).
    let mut all: Vec<Sample> = Vec::with_capacity(n + 2 * cuts.len());
    all.extend(qa.into_iter().map(Sample::Qa));
    let Ok(mut replay) = Replay::new(ix.scene.clone(), ix.events) else {
        let why = "the scene does not load".to_string();
        let sample = String::new();
        return (all, vec![validate::Invalid { sample, why }]);
    };
    let mut miner = plan::TaskMiner::new(ix, seed, 1);
    let mut checker = validate::Checker::new(ix);
    let mut next = 0;
    for cutoff in &cuts {
        let from = next;
        while next < n && all[next].cutoff().event == cutoff.event {
            next += 1;
        }
        let sim = match replay.to(cutoff.event) {
            Ok(sim) => sim,
            Err(e) => {
                // What is left cannot be checked (nor planned).
                all[from..n]
                    .iter()
                    .for_each(|s| checker.fail(s, e.to_string()));
                return (all, checker.bad);
            }
        };
        let made: Vec<Sample> = miner
            .at(cutoff, sim)
            .into_iter()
            .map(Sample::Plan)
            .collect();
        let group: Vec<&Sample> = all[from..next].iter().chain(&made).collect();
        if !group.is_empty() {
            checker.group(cutoff.event, &group, sim);
        }
        all.extend(made);
    }
    // Every question is asked at a cutoff: none is left unchecked.
    for s in &all[next..n] {
        checker.fail(s, "its cutoff is not a cutoff of the trace".into());
    }
    (all, checker.bad)
}

/// Four days of the family apartment (seed 3), for the tests that check
/// what is kept across cutoffs against what is worked out at each.
#[cfg(test)]
pub(crate) fn four_days() -> (Scene, Vec<Event>) {
    let src = crate::scene::BUILTIN
        .iter()
        .find(|(i, _)| *i == "family_apartment")
        .expect("a built-in scene")
        .1;
    let scene = crate::scene::parse("family_apartment", src).expect("it parses");
    let events = lived(&scene, 4, 3);
    (scene, events)
}

/// `days` of `scene` lived by the script with `seed`.
#[cfg(test)]
pub(crate) fn lived(scene: &Scene, days: u32, seed: u64) -> Vec<Event> {
    let mut events = Vec::new();
    let mut backend = crate::generation::scripted::Scripted::new(scene, seed);
    crate::generation::generate(scene, days, &mut backend, &mut |e| {
        events.push(e.clone());
        Ok(())
    })
    .expect("it generates");
    events
}
