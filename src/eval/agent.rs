//! What an agent is and what it is given: the perceived events as
//! observations, questions and planning tasks as they are asked, and the
//! reply it gives.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::Id;
use crate::samples::Index;
use crate::samples::model::*;
use crate::samples::narrate::narrate;
use crate::samples::text::Namer;
use crate::scene::Scene;
use crate::trace::Event;
use crate::trace::request::Request;

/// One event as the robot perceived it: what it revealed only if the robot
/// saw that, and the event in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub event: Event,
    pub text: String,
}

/// The robot-perceived events of `ix` before `cutoff`, rejections included.
pub fn observations(ix: &Index, from: u64, cutoff: u64) -> Vec<Observation> {
    observations_named(&Namer::new(ix.scene), ix, from, cutoff)
}

/// [`observations`], in the words of `n`, a namer of `ix`'s scene made
/// once by a caller who asks again and again (its tables grow with the
/// months' stock in the scene).
pub fn observations_named(n: &Namer, ix: &Index, from: u64, cutoff: u64) -> Vec<Observation> {
    let events = ix.events;
    events[events.partition_point(|e| e.id < from)..events.partition_point(|e| e.id < cutoff)]
        .iter()
        .filter(|e| ix.robot_saw(e))
        .map(|e| {
            let mut event = e.clone();
            // Heard through a wall: who went, not what they carried.
            event.changes.retain(|c| !e.heard_only(&ix.robot, c));
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
                text: narrate(n, &event, &ix.robot),
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
