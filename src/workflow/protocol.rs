//! The external-agent protocol for a front end that feeds agents of its
//! own (the Python package's agent objects): the [`Agent`] trait, what an
//! agent is given and replies, and the very messages and parsers an
//! external program's are, so an agent scores the same either way.

pub use crate::eval::external::{
    observe_message, parse_plan, parse_reply, plan_message, question_message, reset_message,
};
pub use crate::eval::{Agent, AgentError, Observation, QuestionIn, Reply, TaskIn};
pub use crate::scene::Scene;
pub use crate::trace::request::Request;
