//! Running agents over a trace's samples: observations fed in order, each
//! cutoff's questions asked (by opaque ids) and tasks planned when the
//! agents have seen exactly the events before it.

use std::collections::BTreeMap;

use crate::samples::Index;
use crate::samples::model::*;
use crate::samples::replay::Replay;
use crate::samples::text::Namer;
use crate::sim::Simulation;

use super::agent::{Agent, AgentError, QuestionIn, TaskIn, observations_named};
use super::score::{PlanResult, QaResult, execute_plan, score};

/// The key of a trace's opaque question ids: its scene and length, so the
/// ids differ from trace to trace and stay the same on a rerun.
pub(super) fn opaque_salt(ix: &Index) -> u64 {
    crate::ids::fnv1a(format!("{}#{}", ix.scene.id, ix.events.len()).as_bytes())
}

/// The opaque id the question with sample id `id` of the trace `ix` is
/// asked by (for a tool that maps an agent's log back).
pub fn asked_id(ix: &Index, id: &str) -> String {
    opaque_id(opaque_salt(ix), id)
}

/// The id an agent is asked a question by: a keyed hash of the sample id,
/// which says nothing of the question's family or answerability (sample
/// ids do: `u0003_abs`). Reports carry the sample ids.
pub(super) fn opaque_id(salt: u64, id: &str) -> String {
    // FNV-1a mixes its last bytes poorly into its high bits (and "_abs"
    // ends an id), so the hash goes through a finalizer (MurmurHash3's).
    let mut h = crate::ids::fnv1a(id.as_bytes()) ^ salt;
    for (shift, mul) in [(33, 0xff51_afd7_ed55_8ccdu64), (33, 0xc4ce_b9fe_1a85_ec53)] {
        h = (h ^ (h >> shift)).wrapping_mul(mul);
    }
    format!("q{:016x}", h ^ (h >> 33))
}

/// The samples of a trace by cutoff, in the order they are asked there:
/// questions in the order of their opaque ids (the order mining made them
/// in, unanswerable ones last, says nothing), then tasks.
pub(super) fn schedule<'a>(ix: &Index, samples: &'a [Sample]) -> BTreeMap<u64, Vec<&'a Sample>> {
    let salt = opaque_salt(ix);
    let mut by_cutoff: BTreeMap<u64, Vec<&Sample>> = BTreeMap::new();
    for s in samples {
        by_cutoff.entry(s.cutoff().event).or_default().push(s);
    }
    for group in by_cutoff.values_mut() {
        group.sort_by_cached_key(|s| match s {
            Sample::Qa(q) => (0, opaque_id(salt, &q.id)),
            Sample::Plan(t) => (1, t.id.clone()),
        });
    }
    by_cutoff
}

/// Runs `agent` over the samples of one trace: observations in order, the
/// questions and tasks of each cutoff asked when the agent has seen exactly
/// the events before it.
pub fn evaluate(
    ix: &Index,
    samples: &[Sample],
    agent: &mut dyn Agent,
) -> (Vec<QaResult>, Vec<PlanResult>) {
    evaluate_all(ix, samples, &mut [agent]).remove(0)
}

/// [`evaluate`] for several agents at once, each with the results it
/// would have alone: what they all take is made once for them (the
/// observations narrated, the replay to each plan's cutoff), and every
/// plan runs on one spare simulation put in the cutoff's state.
pub fn evaluate_all(
    ix: &Index,
    samples: &[Sample],
    agents: &mut [&mut dyn Agent],
) -> Vec<(Vec<QaResult>, Vec<PlanResult>)> {
    let salt = opaque_salt(ix);
    let by_cutoff = schedule(ix, samples);
    let mut out: Vec<(Vec<QaResult>, Vec<PlanResult>)> =
        agents.iter().map(|_| (Vec::new(), Vec::new())).collect();
    let mut broken: Vec<Option<AgentError>> =
        agents.iter_mut().map(|a| a.reset(ix.scene).err()).collect();
    let parsed: Vec<bool> = agents.iter().map(|a| a.parsed_query()).collect();
    let mut fed = 1;
    // One running replay: plans run from its state at their cutoff.
    let mut replay = Replay::new(ix.scene.clone(), ix.events);
    let mut spare: Option<Simulation> = None;
    let namer = Namer::new(ix.scene);
    for (cutoff, group) in by_cutoff {
        if broken.iter().any(Option::is_none) {
            let seen = observations_named(&namer, ix, fed, cutoff);
            for (agent, broken) in agents.iter_mut().zip(&mut broken) {
                if broken.is_none()
                    && let Some(e) = seen.iter().find_map(|o| agent.observe(o).err())
                {
                    *broken = Some(e);
                }
            }
            fed = cutoff;
        }
        for s in group {
            match s {
                Sample::Qa(q) => {
                    for (a, agent) in agents.iter_mut().enumerate() {
                        let reply = match &broken[a] {
                            Some(e) => Err(e.clone()),
                            None => agent.answer(&QuestionIn {
                                id: opaque_id(salt, &q.id),
                                question: q.question.clone(),
                                options: q.options.clone(),
                                query: parsed[a].then(|| q.query.clone()),
                                cutoff: q.cutoff.clone(),
                            }),
                        };
                        out[a].0.push(score(ix, q, reply));
                    }
                }
                Sample::Plan(t) => {
                    if let Some(e) = replay.as_mut().ok().and_then(|r| r.to(cutoff).err()) {
                        replay = Err(e);
                    }
                    for (a, agent) in agents.iter_mut().enumerate() {
                        let plan = match &broken[a] {
                            Some(e) => Err(e.clone()),
                            None => agent.plan(&TaskIn::of(t, parsed[a])),
                        };
                        let at_cutoff = match &replay {
                            Ok(r) => Ok(r.sim().fork_into(&mut spare)),
                            Err(e) => Err(e.to_string()),
                        };
                        out[a].1.push(execute_plan(at_cutoff, t, plan));
                    }
                }
            }
        }
    }
    // Results in sample order, as asked or not.
    let order: BTreeMap<&str, usize> = samples
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Sample::Qa(q) => Some((q.id.as_str(), i)),
            Sample::Plan(_) => None,
        })
        .collect();
    for (qa, _) in &mut out {
        qa.sort_by_cached_key(|r| order.get(r.id.as_str()).copied());
    }
    out
}
