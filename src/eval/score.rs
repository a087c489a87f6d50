//! Scoring: a reply against its sample (calibrated, world accuracy,
//! hallucination, retrieval), a plan by running it, and an agent's
//! results aggregated into its [`Report`].

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::samples::Index;
use crate::samples::answer::{Certainty, calibrated, certainty, same_answer};
use crate::samples::model::*;
use crate::samples::plan::holds;
use crate::samples::world;
use crate::sim::Simulation;
use crate::trace::request::{Action, Request};

use super::agent::{AgentError, Reply};
use super::audit::JudgeAudit;

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
    pub judge_audit: Option<JudgeAudit>,
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
