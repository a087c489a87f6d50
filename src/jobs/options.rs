//! What a trace job takes and gives: the backend, the options, the
//! summary, and why it failed.

use std::sync::Arc;

use thiserror::Error;

use crate::generation::GenError;
use crate::llm::LlmClient;
use crate::trace::Difficulty;

use crate::store::StoreError;
use crate::trace::Counts;

/// Backends that can generate a trace.
pub const BACKENDS: &[&str] = &["scripted", "openai", "replay"];

/// A backend ready to generate: the scripted one, or an LLM client (live
/// and recording, or replaying its cache).
#[derive(Clone)]
pub enum BackendSpec {
    Scripted,
    Llm(Arc<LlmClient>),
}

#[derive(Debug, Error)]
pub enum JobError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Gen(#[from] GenError),
    #[error("days must be between 1 and 365, not {0}")]
    Days(u32),
    #[error(
        "--robot-away and --moves need the scripted backend; the LLM backend plans its own days"
    )]
    DifficultyBackend,
    #[error("scene {scene} is invalid: {problems} problems")]
    InvalidScene { scene: String, problems: usize },
}

/// What one generated trace holds.
#[derive(Debug, Clone)]
pub struct Summary {
    pub days: u32,
    pub sessions: usize,
    pub counts: Counts,
    pub skipped_turns: usize,
    /// LLM cost and skips (LLM backends).
    pub llm: Option<crate::trace::LlmReport>,
}

/// How to generate one trace: `days` with `seed` by `backend`; `replace`
/// an existing trace directory; `compress` the events (`events.jsonl.zst`).
#[derive(Clone)]
pub struct TraceOptions {
    pub days: u32,
    pub seed: u64,
    pub backend: BackendSpec,
    pub replace: bool,
    pub compress: bool,
    /// The difficulty axes (the default: an ordinary trace).
    pub difficulty: Difficulty,
}

impl TraceOptions {
    /// `days` with `seed` by `backend`, refusing to replace a trace,
    /// uncompressed.
    pub fn new(days: u32, seed: u64, backend: BackendSpec) -> Self {
        TraceOptions {
            days,
            seed,
            backend,
            replace: false,
            compress: false,
            difficulty: Difficulty::default(),
        }
    }

    /// [`Self::new`] with the scripted backend.
    pub fn scripted(days: u32, seed: u64) -> Self {
        Self::new(days, seed, BackendSpec::Scripted)
    }
}
