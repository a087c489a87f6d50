//! Workflows: what a front end asks of hearth, end to end, over trace
//! directories, and the one door the front ends go through. Scenes
//! (listed, checked, generated, edited by script), one trace generated
//! from a scene named any way, batches, mining a trace and writing its
//! samples, exports for other memory tools, evaluating agents named by
//! spec or built by the caller (with the LLM answerer and judge and what
//! they cost), results across a batch, predictions for other projects'
//! scorers, lint and time-use reports, what the viewer opens, and the
//! performance figures of `hearth bench`. The `hearth` binary only parses
//! arguments, calls these and prints; the Python package's bindings call
//! the same functions. Neither imports any other module of the library:
//! the types their arguments and results are made of are re-exported here
//! and in the modules below (`tests/layers.rs` checks it).

pub mod audit;
pub mod batch;
pub mod bench;
pub mod check;
mod error;
pub mod evaluate;
pub mod export;
pub mod generate;
pub mod llm;
pub mod mine;
pub mod predictions;
pub mod protocol;
pub mod release;
pub mod replay;
pub mod scenes;
pub mod study;
pub mod traces;

pub use error::WorkflowError;

pub use crate::ids::Id;
pub use crate::jobs::JobError;
pub use crate::samples::{Asking, Family, Sample};
pub use crate::store::StoreError;
pub use crate::trace::DAY;
