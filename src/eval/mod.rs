//! Memory agents and the evaluation harness (WorldLines §4–5). An agent
//! ingests, in order, what the robot perceived before a cutoff, then answers
//! questions (a structured answer, words, and up to five evidence events)
//! or returns a plan. Answers are scored exactly against the sample's
//! structured answer; plans are executed in the simulator from the cutoff
//! state.

pub mod agent;
pub mod agents;
mod audit;
pub mod blind;
pub mod bm25;
pub mod external;
pub mod kg;
pub mod llm;
pub mod planner;
pub mod predictions;
mod run;
mod score;
pub mod words;

pub use crate::samples::answer::{Certainty, calibrated, certainty, same_answer};
pub use agent::{
    Agent, AgentError, GoalIn, Observation, QuestionIn, Reply, TaskIn, abstain, observations,
};
pub use audit::{JudgeAudit, Probe};
pub use run::{asked_id, evaluate, evaluate_all};
pub use score::{
    PlanResult, PlanScores, QaResult, QaScores, Report, execute_plan, gives_trap, score,
};
