//! Memory agents and the evaluation harness (WorldLines §4–5). An agent
//! ingests, in order, what the robot perceived before a cutoff, then answers
//! questions (a structured answer, words, and up to five evidence events)
//! or returns a plan. Answers are scored exactly against the sample's
//! structured answer; plans are executed in the simulator from the cutoff
//! state.

pub mod agents;
pub mod bm25;
pub mod external;
pub mod kg;
pub mod llm;
pub mod planner;
pub mod predictions;
pub mod words;

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::Id;
use crate::samples::Index;
use crate::samples::model::*;
use crate::samples::narrate::narrate;
use crate::samples::plan::holds;
use crate::samples::replay::Replay;
use crate::samples::text::Namer;
use crate::samples::world;
use crate::scene::Scene;
use crate::sim::Simulation;
use crate::trace::Event;
use crate::trace::request::{Action, Request};

/// One event as the robot perceived it: what it revealed only if the robot
/// saw that, and the event in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub event: Event,
    pub text: String,
}

/// The robot-perceived events of `ix` before `cutoff`, rejections included.
pub fn observations(ix: &Index, from: u64, cutoff: u64) -> Vec<Observation> {
    let n = Namer::new(ix.scene);
    let events = ix.events;
    events[events.partition_point(|e| e.id < from)..events.partition_point(|e| e.id < cutoff)]
        .iter()
        .filter(|e| ix.robot_saw(e))
        .map(|e| {
            let mut event = e.clone();
            if !e.revealed_to.contains(&ix.robot) {
                event.reveals.clear();
                event.revealed_to.clear();
            }
            // Someone else's failure is seen, not its reasons (the executor's
            // message can name where things really are).
            if e.actor != ix.robot
                && let crate::trace::Outcome::Rejected(r) = &mut event.outcome
            {
                r.message.clear();
                r.hint.clear();
            }
            Observation {
                text: narrate(&n, &event, &ix.robot),
                event,
            }
        })
        .collect()
}

/// A question as an agent receives it: the words and options, and only
/// for agents that take it ([`Agent::parsed_query`]) the same question as
/// data, what a perfect semantic parser would give (the upper bound).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuestionIn {
    pub id: String,
    pub question: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<Query>,
    pub cutoff: Cutoff,
}

/// An agent's answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Reply {
    #[serde(default)]
    pub answer: Option<Answer>,
    #[serde(default)]
    pub text: String,
    /// Event ids it used, most relevant first; the first five count.
    #[serde(default)]
    pub evidence: Vec<u64>,
}

/// The reply of a reader whose memory does not settle a question: the
/// canonical abstention ([`UNKNOWN_TEXT`], which LoCoMo's and
/// LongMemEval's scorers accept), or on a two-way choice a blind guess
/// of "A".
pub fn abstain(options: &[String], evidence: Vec<u64>) -> Reply {
    match options.first() {
        Some(a) => Reply {
            answer: Some(Answer::Choice { option: "A".into() }),
            text: format!("(A) {a}."),
            evidence,
        },
        None => Reply {
            answer: Some(Answer::Unknown),
            text: UNKNOWN_TEXT.into(),
            evidence,
        },
    }
}

/// A goal as an agent receives it: known, or to be completed from memory
/// (the value of `entity.attr` is what the instruction alludes to; `from`,
/// the allusion as a query, only for agents given the parsed query).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "goal", rename_all = "snake_case")]
pub enum GoalIn {
    Known {
        prop: Prop,
    },
    Remember {
        entity: Id,
        attr: Id,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<Box<Query>>,
    },
}

/// A planning task as an agent receives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskIn {
    pub id: String,
    pub instruction: String,
    pub actor: Id,
    pub cutoff: Cutoff,
    pub goals: Vec<GoalIn>,
}

impl TaskIn {
    /// The task as an agent receives it; `parsed` adds the recall queries.
    pub fn of(t: &PlanTask, parsed: bool) -> Self {
        let goals = t
            .goals
            .iter()
            .enumerate()
            .map(|(i, p)| match (&t.remember, i, p) {
                // The acquisition instruction states the knowledge: nothing to recall.
                (Some(q), 0, p)
                    if t.pair
                        .as_ref()
                        .is_none_or(|x| x.role != PairRole::Acquisition) =>
                {
                    let (entity, attr) = match p {
                        Prop::IsOn { object, .. }
                        | Prop::IsIn { object, .. }
                        | Prop::HeldBy { object, .. } => (object.clone(), Id::new("location")),
                        Prop::Field { device, field, .. } => (device.clone(), field.clone()),
                    };
                    GoalIn::Remember {
                        entity,
                        attr,
                        from: parsed.then(|| Box::new(q.clone())),
                    }
                }
                _ => GoalIn::Known { prop: p.clone() },
            })
            .collect();
        TaskIn {
            id: t.id.clone(),
            instruction: t.instruction.clone(),
            actor: t.actor.clone(),
            cutoff: t.cutoff.clone(),
            goals,
        }
    }
}

#[derive(Debug, Clone, Error, PartialEq)]
pub enum AgentError {
    #[error("the agent exited: {0}")]
    Crashed(String),
    #[error("the agent's reply is not valid: {0}")]
    Garbage(String),
    #[error("no reply within {0} s")]
    Timeout(u64),
    #[error("{0}")]
    Other(String),
}

/// A memory agent.
pub trait Agent {
    fn name(&self) -> String;
    /// Whether it is given each question as data (`QuestionIn::query`, and
    /// plan goals' `from`) besides its words: an LLM agent faces words only.
    fn parsed_query(&self) -> bool {
        false
    }
    /// Forget everything: a new trace starts.
    fn reset(&mut self, scene: &Scene) -> Result<(), AgentError>;
    /// The next perceived event, in order.
    fn observe(&mut self, o: &Observation) -> Result<(), AgentError>;
    fn answer(&mut self, q: &QuestionIn) -> Result<Reply, AgentError>;
    /// Requests for the robot, executed from the cutoff state.
    fn plan(&mut self, t: &TaskIn) -> Result<Vec<Request>, AgentError>;
}

pub use crate::samples::answer::{Certainty, calibrated, certainty, same_answer};

/// One question's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QaResult {
    pub id: String,
    pub family: Family,
    pub calibrated: bool,
    /// Whether the answer is what was true (the sample's world answer; see
    /// [`crate::samples::world`]): none for questions about the robot's
    /// own knowledge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub world: Option<bool>,
    /// For a question whose calibrated answer is "not known" or "possibly
    /// changed": whether the agent answered as if it knew (a current
    /// value, a time, a name), or gave the trap answer in words. None for
    /// other questions, and for replies without a structured answer that
    /// do not give the trap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hallucinated: Option<bool>,
    pub session_any5: bool,
    pub event_r5: f64,
    /// The agent's answer in words, and the evidence that counted.
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub evidence: Vec<u64>,
    /// The LLM judge's 0–3 score of `text`, when judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One planning task's result, by execution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanResult {
    pub id: String,
    pub family: Family,
    pub steps: usize,
    /// Steps the executor accepted, as a share of all steps (0 for no plan).
    pub validity: f64,
    /// Goals that hold after the plan, as a share.
    pub complete: f64,
    pub success: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Averages over a set of questions (Session Any@5 and Event R@5 over
/// those with evidence: none for the unanswerable family).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct QaScores {
    pub n: usize,
    pub calibrated: f64,
    /// World accuracy: the share of questions about the household answered
    /// as things were, not as the robot could know them (none without any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub world: Option<f64>,
    /// Hallucination rate: the share of the questions whose calibrated
    /// answer is "not known" or "possibly changed" answered as if known
    /// (lower is better; none without any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hallucination: Option<f64>,
    pub session_any5: f64,
    pub event_r5: f64,
    /// Mean judge score over 3, and the share scored 3 (judged runs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perfect: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlanScores {
    pub n: usize,
    pub success: f64,
    pub complete: f64,
    pub validity: f64,
    pub steps: f64,
}

/// What `hearth eval` reports for one agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub agent: String,
    pub traces: Vec<String>,
    pub qa: QaScores,
    pub by_family: BTreeMap<Family, QaScores>,
    pub plan: PlanScores,
    pub errors: usize,
    /// What each LLM pass (`answer`, `judge`) cost over the agent's
    /// questions, as recorded with the exchanges (so a replay reports the
    /// same): calls, requests, tokens, and `skipped`, the calls that failed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub llm: BTreeMap<String, crate::trace::StageCost>,
    /// How the judge that scored these answers did on answers whose
    /// verdict is known (judged runs only; the same for every agent of a
    /// run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_audit: Option<llm::JudgeAudit>,
    pub questions: Vec<QaResult>,
    pub tasks: Vec<PlanResult>,
}

impl Report {
    /// Aggregates per-sample results.
    pub fn new(
        agent: String,
        traces: Vec<String>,
        questions: Vec<QaResult>,
        tasks: Vec<PlanResult>,
    ) -> Self {
        let scores = |rs: &[&QaResult]| {
            let n = rs.len().max(1) as f64;
            // Retrieval is scored on questions with evidence to find: not
            // on abstention ones, unanswerable or missed by the robot (as
            // LongMemEval leaves out `_abs`).
            let found: Vec<&&QaResult> = rs.iter().filter(|r| !r.id.ends_with("_abs")).collect();
            let m = found.len().max(1) as f64;
            let judged: Vec<u8> = rs.iter().filter_map(|r| r.judge).collect();
            let j = judged.len() as f64;
            let world: Vec<bool> = rs.iter().filter_map(|r| r.world).collect();
            let unsure: Vec<bool> = rs.iter().filter_map(|r| r.hallucinated).collect();
            QaScores {
                n: rs.len(),
                calibrated: rs.iter().filter(|r| r.calibrated).count() as f64 / n,
                world: (!world.is_empty())
                    .then(|| world.iter().filter(|w| **w).count() as f64 / world.len() as f64),
                hallucination: (!unsure.is_empty())
                    .then(|| unsure.iter().filter(|h| **h).count() as f64 / unsure.len() as f64),
                session_any5: found.iter().filter(|r| r.session_any5).count() as f64 / m,
                event_r5: found.iter().map(|r| r.event_r5).sum::<f64>() / m,
                judge: (!judged.is_empty())
                    .then(|| judged.iter().map(|s| f64::from(*s) / 3.0).sum::<f64>() / j),
                perfect: (!judged.is_empty())
                    .then(|| judged.iter().filter(|s| **s == 3).count() as f64 / j),
            }
        };
        let all: Vec<&QaResult> = questions.iter().collect();
        let by_family = Family::ALL
            .iter()
            .filter_map(|f| {
                let rs: Vec<&QaResult> = questions.iter().filter(|r| r.family == *f).collect();
                (!rs.is_empty()).then(|| (*f, scores(&rs)))
            })
            .collect();
        let n = tasks.len().max(1) as f64;
        let plan = PlanScores {
            n: tasks.len(),
            success: tasks.iter().filter(|t| t.success).count() as f64 / n,
            complete: tasks.iter().map(|t| t.complete).sum::<f64>() / n,
            validity: tasks.iter().map(|t| t.validity).sum::<f64>() / n,
            steps: tasks.iter().map(|t| t.steps as f64).sum::<f64>() / n,
        };
        let errors = questions.iter().filter(|q| q.error.is_some()).count()
            + tasks.iter().filter(|t| t.error.is_some()).count();
        Report {
            agent,
            traces,
            qa: scores(&all),
            by_family,
            plan,
            errors,
            llm: BTreeMap::new(),
            judge_audit: None,
            questions,
            tasks,
        }
    }
}

/// Scores one reply against its sample.
pub fn score(ix: &Index, q: &QaSample, r: Result<Reply, AgentError>) -> QaResult {
    let mut out = QaResult {
        id: q.id.clone(),
        family: q.family,
        calibrated: false,
        world: world::asks_the_world(q.family).then_some(false),
        hallucinated: None,
        session_any5: false,
        event_r5: 0.0,
        text: String::new(),
        evidence: vec![],
        judge: None,
        error: None,
    };
    match r {
        Err(e) => out.error = Some(e.to_string()),
        Ok(reply) => {
            out.calibrated = reply
                .answer
                .as_ref()
                .is_some_and(|a| calibrated(a, &q.answer));
            if certainty(&q.answer) != Certainty::Sure {
                let trap = gives_trap(q, &reply.text);
                out.hallucinated = match &reply.answer {
                    Some(a) => Some(trap || certainty(a) == Certainty::Sure),
                    None => trap.then_some(true),
                };
            }
            let truth = q.world.as_ref().unwrap_or(&q.answer);
            out.world = out
                .world
                .map(|_| reply.answer.as_ref().is_some_and(|a| same_answer(a, truth)));
            // The first five distinct ids before the cutoff count.
            let mut top: Vec<u64> = Vec::new();
            for e in reply.evidence.iter().filter(|e| **e < q.cutoff.event) {
                if !top.contains(e) {
                    top.push(*e);
                }
                if top.len() == 5 {
                    break;
                }
            }
            out.text = reply.text.clone();
            out.evidence = top.clone();
            let gold: BTreeSet<u64> = q.evidence.iter().copied().collect();
            let hit = top.iter().filter(|e| gold.contains(e)).count();
            // Recall within the top five, of at most five gold events.
            out.event_r5 = hit as f64 / gold.len().clamp(1, 5) as f64;
            out.event_r5 = out.event_r5.min(1.0);
            out.session_any5 = top.iter().any(|e| {
                ix.session_of(*e)
                    .is_some_and(|s| q.sessions.iter().any(|g| g == s))
            });
        }
    }
    out
}

/// Whether `text` is the trap answer of `q` (its adversarial answer, up
/// to case and surrounding space): a hallucination in words.
pub fn gives_trap(q: &QaSample, text: &str) -> bool {
    q.adversarial_answer
        .as_deref()
        .is_some_and(|t| !t.is_empty() && text.trim().eq_ignore_ascii_case(t.trim()))
}

/// Executes `plan` from `at_cutoff`, the state just before the task's
/// cutoff (or why there is none); the simulation is left where the plan
/// took it.
pub fn execute_plan(
    at_cutoff: Result<&mut Simulation, String>,
    t: &PlanTask,
    plan: Result<Vec<Request>, AgentError>,
) -> PlanResult {
    let mut out = PlanResult {
        id: t.id.clone(),
        family: t.family,
        steps: 0,
        validity: 0.0,
        complete: 0.0,
        success: false,
        error: None,
    };
    let plan = match plan {
        Ok(p) => p,
        Err(e) => {
            out.error = Some(e.to_string());
            return out;
        }
    };
    let sim = match at_cutoff {
        Ok(s) => s,
        Err(e) => {
            out.error = Some(e);
            return out;
        }
    };
    let mut accepted = 0;
    for req in &plan {
        // Only the robot's own steps run; a step for anyone else is invalid.
        if req.actor != t.actor {
            continue;
        }
        // The robot's walking opens closed doors on the way (not plan steps).
        if let Action::NavigateTo { target } = &req.action {
            sim.open_way(req.actor.as_str(), target.as_str());
        }
        let e = sim.execute(Request {
            at: None,
            ..req.clone()
        });
        if e.outcome.is_ok() {
            accepted += 1;
        }
    }
    out.steps = plan.len();
    out.validity = if plan.is_empty() {
        0.0
    } else {
        accepted as f64 / plan.len() as f64
    };
    let held = t.goals.iter().filter(|g| holds(sim, g)).count();
    out.complete = held as f64 / t.goals.len().max(1) as f64;
    out.success = held == t.goals.len();
    out
}

/// The key of a trace's opaque question ids: its scene and length, so the
/// ids differ from trace to trace and stay the same on a rerun.
fn opaque_salt(ix: &Index) -> u64 {
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
fn opaque_id(salt: u64, id: &str) -> String {
    // FNV-1a mixes its last bytes poorly into its high bits (and "_abs"
    // ends an id), so the hash goes through a finalizer (MurmurHash3's).
    let mut h = crate::ids::fnv1a(id.as_bytes()) ^ salt;
    for (shift, mul) in [(33, 0xff51_afd7_ed55_8ccdu64), (33, 0xc4ce_b9fe_1a85_ec53)] {
        h = (h ^ (h >> shift)).wrapping_mul(mul);
    }
    format!("q{:016x}", h ^ (h >> 33))
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
    let mut by_cutoff: BTreeMap<u64, Vec<&Sample>> = BTreeMap::new();
    for s in samples {
        by_cutoff.entry(s.cutoff().event).or_default().push(s);
    }
    // Within a cutoff, questions go in the order of their opaque ids: the
    // order mining made them in (unanswerable ones last) says nothing.
    for group in by_cutoff.values_mut() {
        group.sort_by_cached_key(|s| match s {
            Sample::Qa(q) => (0, opaque_id(salt, &q.id)),
            Sample::Plan(t) => (1, t.id.clone()),
        });
    }
    let mut out: Vec<(Vec<QaResult>, Vec<PlanResult>)> =
        agents.iter().map(|_| (Vec::new(), Vec::new())).collect();
    let mut broken: Vec<Option<AgentError>> =
        agents.iter_mut().map(|a| a.reset(ix.scene).err()).collect();
    let parsed: Vec<bool> = agents.iter().map(|a| a.parsed_query()).collect();
    let mut fed = 1;
    // One running replay: plans run from its state at their cutoff.
    let mut replay = Replay::new(ix.scene.clone(), ix.events);
    let mut spare: Option<Simulation> = None;
    for (cutoff, group) in by_cutoff {
        if broken.iter().any(Option::is_none) {
            let seen = observations(ix, fed, cutoff);
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
        qa.sort_by_key(|r| order.get(r.id.as_str()).copied());
    }
    out
}
