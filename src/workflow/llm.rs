//! The LLM client a front end configures from its flags (`--llm-url`,
//! `--llm-model`, `--llm-cache`, ...) for generation, rephrasing,
//! answering and judging.

use std::path::Path;

use super::error::WorkflowError;

pub use crate::llm::{Dialect, LlmClient, LlmConfig};

/// The model a recorded cache (`--llm-cache`) was written with, for
/// `--backend replay` without `--llm-model`.
pub fn recorded_model(cache: &Path) -> Result<Option<String>, WorkflowError> {
    crate::llm::client::cache::recorded_model(cache).map_err(|source| WorkflowError::Llm {
        what: "reading the LLM cache",
        source,
    })
}
