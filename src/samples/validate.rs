//! The validity checks every sample passes: evidence before the cutoff and
//! perceived by the robot; the reference answer is what the indexes give at
//! the cutoff, also when everything after the cutoff is cut off; state
//! answers agree with the simulator's own record of the robot's beliefs,
//! and their world answers with its state
//! (and an unanswerable state question has none, not even from the
//! robot's first view of the house); a
//! planning task is unsatisfied at its cutoff and its reference plan reaches
//! the goals through the executor.

use std::cell::OnceCell;
use std::collections::BTreeMap;

use crate::catalogue::Belongs;
use crate::sim::Simulation;

use super::answer::answer;
use super::cutoff::evidence_age;
use super::families::unanswerable::looks_like;
use super::families::{CheckAt, owner};
use super::index::Index;
use super::model::*;
use super::plan::{holds, reference_plan};
use super::replay::Replay;

/// A sample that fails a check.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    pub sample: String,
    pub why: String,
}

/// Checks every sample against the full trace in `ix`.
pub fn check(ix: &Index, samples: &[Sample]) -> Vec<Invalid> {
    // Samples by cutoff, so one running replay serves them all.
    let mut by_cutoff: BTreeMap<u64, Vec<&Sample>> = BTreeMap::new();
    for s in samples {
        by_cutoff.entry(s.cutoff().event).or_default().push(s);
    }
    let Ok(mut replay) = Replay::new(ix.scene.clone(), ix.events) else {
        return vec![Invalid {
            sample: String::new(),
            why: "the scene does not load".into(),
        }];
    };
    let mut checker = Checker::new(ix);
    for (&c, group) in &by_cutoff {
        // A cutoff not in the trace fails its samples; nothing to replay to.
        if ix.event(c).is_none() {
            checker.group(c, group, replay.sim());
            continue;
        }
        match replay.to(c) {
            Ok(sim) => checker.group(c, group, sim),
            Err(e) => {
                group.iter().for_each(|s| checker.fail(s, e.to_string()));
                return checker.bad;
            }
        }
    }
    checker.bad
}

/// The checks of the samples of one cutoff after another, given a replay
/// the caller keeps (see [`check`]; mining with its checks shares one).
pub struct Checker<'a> {
    ix: &'a Index<'a>,
    /// The trace as an agent at the current cutoff may know it: nothing
    /// after. It grows with the cutoffs.
    past: Index<'a>,
    /// Plans run on this spare, put in the cutoff's state each time.
    spare: Option<Simulation>,
    /// What an observer of every event knows, made for the first question
    /// the robot missed.
    all: OnceCell<Index<'a>>,
    /// Where things go, for the reference plans: made for the first.
    belongs: OnceCell<Belongs>,
    pub bad: Vec<Invalid>,
}

impl<'a> Checker<'a> {
    pub fn new(ix: &'a Index<'a>) -> Self {
        Checker {
            ix,
            past: Index::with_initial(ix.scene, &[], ix.tables.initial.clone()),
            spare: None,
            all: OnceCell::new(),
            belongs: OnceCell::new(),
            bad: Vec::new(),
        }
    }

    pub fn fail(&mut self, s: &Sample, why: String) {
        self.bad.push(Invalid {
            sample: s.id().to_string(),
            why,
        })
    }

    /// Checks the samples of cutoff `c`, with `sim` in the state just
    /// before it (every event before `c` replayed); cutoffs come in order.
    pub fn group(&mut self, c: u64, group: &[&Sample], sim: &Simulation) {
        let ix = self.ix;
        let mut bad = Vec::new();
        let mut fail = |s: &Sample, why: String| {
            bad.push(Invalid {
                sample: s.id().to_string(),
                why,
            })
        };
        let Some(at) = ix.event(c) else {
            group
                .iter()
                .for_each(|s| fail(s, format!("cutoff event {c} is not in the trace")));
            self.bad.extend(bad);
            return;
        };
        let replayed = (c as usize).saturating_sub(1).min(ix.events.len());
        self.past.extend(&ix.events[..replayed]);
        let (past, spare, all) = (&self.past, &mut self.spare, &self.all);
        for s in group {
            let cut = s.cutoff();
            if (cut.t, cut.day) != (at.t, at.day) {
                fail(s, format!("cutoff {c} time does not match its event"));
            }
            // Only an unanswerable question has no evidence: nothing bears on it.
            let unknown = matches!(s, Sample::Qa(q) if q.answer == Answer::Unknown);
            if s.evidence().is_empty() != unknown {
                fail(
                    s,
                    if unknown {
                        "an unanswerable question with evidence".into()
                    } else {
                        "no evidence".into()
                    },
                );
            }
            for id in s.evidence() {
                match ix.event(*id) {
                    Some(e) if e.id >= c => {
                        fail(s, format!("evidence {id} is not before the cutoff {c}"))
                    }
                    Some(e) if !ix.robot_saw(e) => {
                        fail(s, format!("the robot did not perceive evidence {id}"))
                    }
                    Some(_) => {}
                    None => fail(s, format!("evidence {id} is not in the trace")),
                }
            }
            match s {
                Sample::Qa(q) => {
                    let full = answer(ix, cut, &q.query);
                    let cut_short = answer(past, cut, &q.query);
                    if full != cut_short {
                        fail(
                            s,
                            "the answer changes when the trace after the cutoff is removed".into(),
                        );
                    }
                    // Asked of the household about what the robot missed:
                    // nothing it perceived answers it, what was true does.
                    let missed = unknown && !q.is_unanswerable();
                    if q.is_unanswerable() && q.family != looks_like(&q.query) {
                        fail(
                            s,
                            format!("a false premise filed under {}", q.family.name()),
                        );
                    }
                    if missed && q.world.is_none() {
                        fail(s, "not known to the robot, yet no world answer".into());
                    }
                    if unknown != q.id.ends_with("_abs") {
                        fail(
                            s,
                            "an `_abs` id is for, and only for, unknown answers".into(),
                        );
                    }
                    if missed {
                        check_missed(q, &mut fail);
                    }
                    match full {
                        Some(a) if a.answer == q.answer && a.evidence == q.evidence => {}
                        Some(a) => fail(
                            s,
                            format!(
                                "recomputed answer {:?} with evidence {:?}",
                                a.answer, a.evidence
                            ),
                        ),
                        None => fail(s, "the query has no answer at its cutoff".into()),
                    }
                    if q.evidence_age != evidence_age(ix, &q.evidence, cut) {
                        fail(
                            s,
                            format!("evidence age {:?} is not the evidence's", q.evidence_age),
                        );
                    }
                    // Only a question about the household can be missed:
                    // not one about where the robot learnt something.
                    if missed && !super::world::asks_the_world(q.family) {
                        fail(
                            s,
                            format!("a {} question answered {:?}", q.family.name(), q.answer),
                        );
                    }
                    let own = CheckAt { ix, sim };
                    let world_checked = owner(&q.query)
                        .entry
                        .check(q, &own, &mut |why| fail(s, why));
                    if missed && !world_checked {
                        check_world(ix, all, q, &mut fail);
                    }
                }
                Sample::Plan(p) => {
                    if p.goals.iter().all(|g| holds(sim, g)) {
                        fail(s, "the goals already hold at the cutoff".into());
                    }
                    let fresh = sim.fork_into(spare);
                    for (i, req) in p.reference_plan.iter().enumerate() {
                        let e = fresh.execute(req.clone());
                        if let Some(r) = e.outcome.rejection() {
                            fail(s, format!("reference step {} rejected: {}", i + 1, r.code));
                            break;
                        }
                    }
                    if !p.goals.iter().all(|g| holds(fresh, g)) {
                        fail(s, "the reference plan does not reach the goals".into());
                    }
                    // The reference plan is reproducible from the cutoff.
                    let belongs = (self.belongs)
                        .get_or_init(|| Belongs::new(ix.scene, crate::catalogue::builtin()));
                    if reference_plan(sim.fork_into(spare), belongs, &p.actor, &p.goals).as_ref()
                        != Some(&p.reference_plan)
                    {
                        fail(s, "the reference plan is not what the planner gives".into());
                    }
                }
            }
        }
        self.bad.extend(bad);
    }
}

/// The checks of a question asked of the household about something the
/// robot missed: no choice, and the hedge and trap it is given.
fn check_missed(q: &QaSample, fail: &mut impl FnMut(&Sample, String)) {
    let s = &Sample::Qa(q.clone());
    if !q.options.is_empty() {
        fail(s, "a two-way choice asked as not known".into());
    }
    if q.hedge.as_deref() != Some(super::wording::MISSED) || q.adversarial_answer.is_none() {
        fail(
            s,
            "not known to the robot, without its hedge or trap".into(),
        );
    }
}

/// Its world answer is the one an observer of every event gives at its
/// cutoff (where its family's own checks do not check it otherwise).
fn check_world<'a>(
    ix: &'a Index<'a>,
    all: &OnceCell<Index<'a>>,
    q: &QaSample,
    fail: &mut impl FnMut(&Sample, String),
) {
    let all = all.get_or_init(|| Index::all_seeing(ix.scene, ix.events, ix.tables.initial.clone()));
    let world = owner(&q.query).entry.world(all, &q.cutoff, &q.query);
    if world != q.world {
        fail(
            &Sample::Qa(q.clone()),
            format!(
                "world answer {:?}, but every event gives {world:?}",
                q.world
            ),
        );
    }
}
