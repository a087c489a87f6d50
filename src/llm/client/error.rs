//! What can go wrong between a call and its reply.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum LlmError {
    #[error(
        "no recorded exchange for stage {stage} (key {key}) in {cache}: record it first with --backend openai --llm-cache {cache}"
    )]
    Replay {
        stage: String,
        key: String,
        cache: String,
    },
    #[error("replay needs --llm-cache")]
    NoCache,
    #[error("{url} answered {status}: {body}")]
    Http {
        url: String,
        status: u16,
        body: String,
    },
    /// The server refused the prompt as longer than its context: handled
    /// like a reply with nothing usable (the stage's fallback), never fatal.
    #[error("{url} refused the prompt as longer than the model's context: {body}")]
    Context { url: String, body: String },
    #[error("cannot reach {url}: {why}")]
    Transport { url: String, why: String },
    #[error("stage {stage}: no valid reply after {tries} tries; last: {why}")]
    Invalid {
        stage: String,
        tries: u32,
        why: String,
    },
    #[error(
        "the token budget of {budget} is spent ({spent} tokens in this run); run again with the same --llm-cache to resume from the recorded exchanges"
    )]
    Budget { budget: u64, spent: u64 },
    #[error("LLM cache {path}: {why}")]
    Cache { path: String, why: String },
    #[error("cannot start the LLM client: {0}")]
    Setup(String),
}

impl LlmError {
    /// Whether this ends a whole run rather than the one call: a spent
    /// budget, a broken cache, a client that cannot run. A reply that
    /// stayed unusable, a refusal or an unreachable server fail the call.
    pub fn ends_the_run(&self) -> bool {
        matches!(
            self,
            LlmError::Budget { .. }
                | LlmError::Cache { .. }
                | LlmError::NoCache
                | LlmError::Setup(_)
        )
    }
}
