//! The flags of `hearth bench`, and the one unit its figures print in.

use std::time::Duration;

use clap::Args;

#[derive(Args)]
pub struct BenchArgs {
    /// Requests to execute in the executor benchmark.
    #[arg(long, default_value_t = 300_000)]
    pub(super) requests: usize,
    /// Built-in scene for the executor benchmark.
    #[arg(long, default_value = "large_house")]
    pub(super) scene: String,
    /// Seed of the random request mix.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Traces per run in the generation and batch benchmarks.
    #[arg(long, default_value_t = 40)]
    pub(super) traces: u64,
    /// Simulated days per generated trace.
    #[arg(long, default_value_t = 7)]
    pub(super) days: u32,
    /// How long the mock LLM server takes per reply, in the LLM benchmark.
    #[arg(long, default_value_t = 200)]
    pub(super) llm_delay_ms: u64,
    /// Only the LLM benchmark (mock servers, no executor or generation runs).
    #[arg(long)]
    pub(super) llm_only: bool,
    /// Only the editor's figures (validation per edit; with the gui feature,
    /// CPU time per frame while dragging).
    #[arg(long)]
    pub(super) editor_only: bool,
    /// Only the cost against horizon: generation, mining, evaluation and
    /// export of one family-apartment trace at each of `--horizons` days.
    #[arg(long)]
    pub(super) horizon_only: bool,
    /// Only the scripted generation benchmark (`--traces` x `--days` of the
    /// family apartment), for profiling and before/after figures.
    #[arg(long)]
    pub(super) generation_only: bool,
    /// Only the built-in agents' ingest and answer rates on one trace of
    /// `--days` days.
    #[arg(long)]
    pub(super) eval_only: bool,
    /// Horizons, in days, of the cost-against-horizon benchmark.
    #[arg(long, value_delimiter = ',', default_value = "7,14,28,56")]
    pub(super) horizons: Vec<u32>,
}

/// Milliseconds, as every figure prints them.
pub(super) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
