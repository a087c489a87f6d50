//! Questions asked blind, as a release's test split asks them: what an
//! agent receives (the questions and tasks without their answers, in the
//! order [`super::evaluate_all`] asks them), its answers kept as data (a
//! predictions file), and an agent that gives those answers back, so that
//! answers made elsewhere are scored exactly as the agent would be in
//! process.

use std::collections::BTreeMap;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::samples::Index;
use crate::samples::model::Sample;
use crate::scene::Scene;
use crate::trace::request::Request;

use super::agent::{Agent, AgentError, GoalIn, Observation, QuestionIn, Reply, TaskIn};
use super::run::{opaque_id, opaque_salt, schedule};

/// A question or a planning task as an agent receives it, with the parsed
/// query (`QuestionIn::query`, a goal's `from`) an agent that asks for it
/// is given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Asked {
    Question(Box<QuestionIn>),
    Task(TaskIn),
}

impl Asked {
    /// The first event the agent may not see when this is asked.
    pub fn cutoff(&self) -> u64 {
        match self {
            Asked::Question(q) => q.cutoff.event,
            Asked::Task(t) => t.cutoff.event,
        }
    }

    pub fn id(&self) -> &str {
        match self {
            Asked::Question(q) => &q.id,
            Asked::Task(t) => &t.id,
        }
    }

    /// As an agent that reads the words only receives it: no parsed query.
    fn in_words(&self) -> Asked {
        match self {
            Asked::Question(q) => Asked::Question(Box::new(QuestionIn {
                query: None,
                ..(**q).clone()
            })),
            Asked::Task(t) => Asked::Task(TaskIn {
                goals: t
                    .goals
                    .iter()
                    .map(|g| match g {
                        GoalIn::Remember { entity, attr, .. } => GoalIn::Remember {
                            entity: entity.clone(),
                            attr: attr.clone(),
                            from: None,
                        },
                        known => known.clone(),
                    })
                    .collect(),
                ..t.clone()
            }),
        }
    }
}

/// Every question and task of `samples`, as asked, in the order asked.
pub fn asked(ix: &Index, samples: &[Sample]) -> Vec<Asked> {
    let salt = opaque_salt(ix);
    schedule(ix, samples)
        .into_values()
        .flatten()
        .map(|s| match s {
            Sample::Qa(q) => Asked::Question(Box::new(QuestionIn {
                id: opaque_id(salt, &q.id),
                question: q.question.clone(),
                options: q.options.clone(),
                query: Some(q.query.clone()),
                cutoff: q.cutoff.clone(),
            })),
            Sample::Plan(t) => Asked::Task(TaskIn::of(t, true)),
        })
        .collect()
}

/// An agent's answer to one question or task, as a predictions file
/// keeps it: the reply or the plan, or why there is none, and how long it
/// took (wall clock, milliseconds).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answered {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<Reply>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<Vec<Request>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Failed>,
    #[serde(default)]
    pub ms: f64,
}

/// An [`AgentError`] as data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "message", rename_all = "snake_case")]
pub enum Failed {
    Crashed(String),
    Garbage(String),
    Timeout(u64),
    Other(String),
}

impl From<AgentError> for Failed {
    fn from(e: AgentError) -> Self {
        match e {
            AgentError::Crashed(m) => Failed::Crashed(m),
            AgentError::Garbage(m) => Failed::Garbage(m),
            AgentError::Timeout(s) => Failed::Timeout(s),
            AgentError::Other(m) => Failed::Other(m),
        }
    }
}

impl From<Failed> for AgentError {
    fn from(e: Failed) -> Self {
        match e {
            Failed::Crashed(m) => AgentError::Crashed(m),
            Failed::Garbage(m) => AgentError::Garbage(m),
            Failed::Timeout(s) => AgentError::Timeout(s),
            Failed::Other(m) => AgentError::Other(m),
        }
    }
}

/// Runs `agent` over one household asked blind: `observations` (the
/// robot's, in order) fed up to each cutoff, then what is asked there, as
/// [`super::evaluate_all`] does; an agent that fails to take the scene or
/// an observation answers nothing after.
pub fn answer_blind(
    scene: &Scene,
    observations: &[Observation],
    asked: &[Asked],
    agent: &mut dyn Agent,
) -> Vec<Answered> {
    let mut broken = agent.reset(scene).err();
    let parsed = agent.parsed_query();
    let (mut fed, mut at) = (0, None);
    let mut out = Vec::with_capacity(asked.len());
    for a in asked {
        let cutoff = a.cutoff();
        if at != Some(cutoff) && broken.is_none() {
            let upto = fed + observations[fed..].partition_point(|o| o.event.id < cutoff);
            broken = observations[fed..upto]
                .iter()
                .find_map(|o| agent.observe(o).err());
            fed = upto;
        }
        at = Some(cutoff);
        let a = if parsed { a.clone() } else { a.in_words() };
        let start = Instant::now();
        let (reply, plan) = match (&broken, &a) {
            (Some(e), _) => (Err(e.clone()), None),
            (None, Asked::Question(q)) => (agent.answer(q), None),
            (None, Asked::Task(t)) => match agent.plan(t) {
                Ok(p) => (Ok(Reply::default()), Some(p)),
                Err(e) => (Err(e), None),
            },
        };
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let task = matches!(a, Asked::Task(_));
        out.push(match reply {
            Ok(r) => Answered {
                id: a.id().to_string(),
                reply: (!task).then_some(r),
                plan,
                error: None,
                ms,
            },
            Err(e) => Answered {
                id: a.id().to_string(),
                reply: None,
                plan: None,
                error: Some(e.into()),
                ms,
            },
        });
    }
    out
}

/// An agent that gives back the answers of a predictions file, household
/// by household in the order they are evaluated (each `reset` moves to the
/// next); a question it has no answer to is answered with an error that
/// says so.
pub struct Replayed {
    name: String,
    households: Vec<(String, BTreeMap<String, Answered>)>,
    next: usize,
    /// Wall-clock milliseconds of the answers given back, in order.
    pub ms: Vec<f64>,
}

impl Replayed {
    /// `households`: each household's name and its answers.
    pub fn new(name: &str, households: Vec<(String, Vec<Answered>)>) -> Self {
        Replayed {
            name: name.to_string(),
            households: households
                .into_iter()
                .map(|(h, a)| (h, a.into_iter().map(|a| (a.id.clone(), a)).collect()))
                .collect(),
            next: 0,
            ms: Vec::new(),
        }
    }

    fn current(&mut self, id: &str) -> Result<Answered, AgentError> {
        let (household, answers) = self
            .next
            .checked_sub(1)
            .and_then(|i| self.households.get(i))
            .ok_or_else(|| AgentError::Other("asked before a household began".into()))?;
        let a = answers.get(id).cloned().ok_or_else(|| {
            AgentError::Other(format!(
                "no answer to {id} of {household} in the predictions"
            ))
        })?;
        self.ms.push(a.ms);
        match a.error {
            Some(e) => Err(e.into()),
            None => Ok(a),
        }
    }
}

impl Agent for Replayed {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn reset(&mut self, _scene: &Scene) -> Result<(), AgentError> {
        self.next += 1;
        Ok(())
    }
    fn observe(&mut self, _o: &Observation) -> Result<(), AgentError> {
        Ok(())
    }
    fn answer(&mut self, q: &QuestionIn) -> Result<Reply, AgentError> {
        self.current(&q.id).map(|a| a.reply.unwrap_or_default())
    }
    fn plan(&mut self, t: &TaskIn) -> Result<Vec<Request>, AgentError> {
        self.current(&t.id).map(|a| a.plan.unwrap_or_default())
    }
}
