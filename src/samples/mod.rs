//! Evidence-linked samples mined from a trace (WorldLines §3.3): Memory-QA
//! questions and planning tasks, each with a cutoff, a structured reference
//! answer computed from the trace's indexes, and the robot-observed events
//! that support it. An LLM may only rephrase a question.

pub mod answer;
pub mod index;
pub mod model;
pub mod text;
pub mod unanswerable;

pub use index::Index;
pub use model::*;
pub mod mine;
pub mod plan;
mod standing;
pub mod validate;
pub mod world;

use crate::scene::Scene;
use crate::trace::Event;

/// Mines every QA sample and planning task of a trace.
pub fn mine(scene: &Scene, events: &[Event], seed: u64) -> Vec<Sample> {
    let ix = Index::new(scene, events);
    let qa = mine::mine_qa(&ix, seed);
    let tasks = plan::mine_tasks(&ix, seed, 1);
    qa.into_iter()
        .map(Sample::Qa)
        .chain(tasks.into_iter().map(Sample::Plan))
        .collect()
}
pub mod export;
pub mod narrate;
pub mod phrasing;
