//! The performance figures of `hearth bench`, each part measured here and
//! handed to the caller a line at a time: the executor's request rate,
//! scripted generation, procedural scenes, batches to disk, playback, the
//! built-in agents, the cost against horizon, the LLM client against mock
//! servers and the editor's validation per edit. Wall clock, by nature:
//! nothing here reaches a trace or a result.

mod editor;
mod executor;
mod horizon;
mod llm;
mod options;
mod runs;

pub use editor::editor;
pub use executor::executor;
pub use horizon::horizon;
pub use llm::llm;
pub use options::{BenchOptions, Lines, ms};
pub use runs::{batch, eval, generation, playback, procgen};
