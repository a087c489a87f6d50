//! Evidence-linked samples mined from a trace (WorldLines §3.3): Memory-QA
//! questions and planning tasks, each with a cutoff, a structured reference
//! answer computed from the trace's indexes, and the robot-observed events
//! that support it. An LLM may only rephrase a question.

pub mod act;
pub mod answer;
pub mod answered;
mod asked;
pub mod candidates;
pub mod cutoff;
pub mod export;
pub mod families;
mod freshness;
pub mod index;
pub mod mine;
pub mod model;
pub mod narrate;
pub mod phrasing;
pub mod plan;
pub mod replay;
mod standing;
pub mod stockroom;
mod sweep;
pub mod text;
pub mod validate;
pub mod wording;
pub mod world;

pub use index::Index;
pub use model::*;
pub use sweep::{mine, mine_asking, mine_checked};
pub use text::{plural, says_time};
