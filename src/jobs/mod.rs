//! Generating a trace into a directory: the pipeline, the scripted backend
//! and the atomic trace writer put together ([`generate_trace`]), and
//! batches of them ([`batch`]). Used by `generate`, `batch`, `bench` and the
//! editor's "Try it".

pub mod batch;
mod one;
mod options;

pub use one::{generate_trace, run_script};
pub use options::{BACKENDS, BackendSpec, JobError, Summary, TraceOptions};
