//! What `hearth bench` measures with, the one unit its figures print in,
//! and how a failed run is reported.

use std::time::Duration;

use crate::workflow::error::WorkflowError;

/// The settings of the figures (the flags of `hearth bench`).
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Requests to execute in the executor benchmark.
    pub requests: usize,
    /// Built-in scene for the executor benchmark.
    pub scene: String,
    /// Seed of the random request mix.
    pub seed: u64,
    /// Traces per run in the generation and batch benchmarks.
    pub traces: u64,
    /// Simulated days per generated trace.
    pub days: u32,
    /// How long the mock LLM server takes per reply, in milliseconds.
    pub llm_delay_ms: u64,
    /// Horizons, in days, of the cost-against-horizon benchmark.
    pub horizons: Vec<u32>,
}

/// Where the figures go, a line at a time, as each is measured.
pub type Lines<'a> = &'a mut dyn FnMut(String);

/// Milliseconds, as every figure prints them.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// A benchmark run that went wrong, as a workflow error.
pub(super) fn failed(e: impl std::fmt::Display) -> WorkflowError {
    WorkflowError::Bench {
        what: e.to_string(),
    }
}
