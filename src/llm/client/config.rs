//! How to reach the model, and what fills in for it.

use std::path::PathBuf;
use std::time::Duration;

use super::pool::Dialect;

/// How to reach the model.
#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// Base URLs, e.g. `http://127.0.0.1:8080/v1`; `/chat/completions` is
    /// appended. Calls go to the one with the fewest in flight.
    pub urls: Vec<String>,
    pub model: String,
    pub key: Option<String>,
    /// Requests in flight at once, across every trace using this client;
    /// with `auto_concurrency`, the most it may learn to keep.
    pub concurrency: usize,
    /// Learn how many requests the servers serve at once and keep no more
    /// in flight (see [`super::limit`]).
    pub auto_concurrency: bool,
    pub connect_timeout: Duration,
    /// The whole request, reply included.
    pub timeout: Duration,
    /// Attempts after the first on 408/409/429/5xx and connection errors.
    pub retries: u32,
    /// First backoff; doubled per attempt, jittered, capped at 30 s.
    pub backoff: Duration,
    /// Re-asks after a reply that is not JSON or breaks the schema.
    pub reasks: u32,
    /// Record/replay directory.
    pub cache: Option<PathBuf>,
    /// Replay only: every exchange must come from the cache.
    pub replay: bool,
    /// How long an endpoint that failed is left out while others answer.
    pub set_aside: Duration,
    /// Stop (resumably) once this many tokens have been spent in this run.
    pub budget_tokens: Option<u64>,
    /// Replies a generated trace may skip before it fails.
    pub max_skipped: u32,
    /// What fills a stage that stays unusable after its re-asks.
    pub fallback: Fallback,
    /// What happens once `budget_tokens` are spent.
    pub on_budget: OnBudget,
    /// The model's context in tokens: every generation prompt, with room
    /// for its reply, is trimmed to fit it. `None`: what the servers
    /// report (the smallest), else what a replay's cache recorded, else
    /// [`DEFAULT_CONTEXT`].
    pub context: Option<u32>,
    /// How every server takes the schema; `None`: ask each server once
    /// what it is (a dialect recorded in the cache is kept).
    pub dialect: Option<Dialect>,
}

/// The context assumed when none is given: what most local servers
/// (llama.cpp, Ollama) give a small model at least.
pub const DEFAULT_CONTEXT: u32 = 4096;

/// What fills a generation stage the model gave nothing usable for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fallback {
    /// The offline script writes that slot: projects, a day's beats or
    /// sessions, a session's turns, an actor's steps, the notes.
    #[default]
    Script,
    /// Go on without it (a trace without projects or a day's sessions fails).
    Skip,
    /// The trace fails.
    Fail,
}

/// What happens when the token budget is spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnBudget {
    /// Stop; running again with the same cache resumes.
    #[default]
    Stop,
    /// The script completes the trace.
    Script,
}

impl std::str::FromStr for Fallback {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "script" => Ok(Fallback::Script),
            "skip" => Ok(Fallback::Skip),
            "fail" => Ok(Fallback::Fail),
            _ => Err(format!("--fallback is script, skip or fail, not {s:?}")),
        }
    }
}

impl std::str::FromStr for OnBudget {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "stop" => Ok(OnBudget::Stop),
            "script" => Ok(OnBudget::Script),
            _ => Err(format!("--on-budget is stop or script, not {s:?}")),
        }
    }
}

impl LlmConfig {
    pub fn new(url: &str, model: &str) -> Self {
        LlmConfig {
            urls: vec![url.trim_end_matches('/').to_string()],
            model: model.to_string(),
            key: None,
            concurrency: 4,
            auto_concurrency: false,
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(120),
            retries: 5,
            backoff: Duration::from_millis(500),
            reasks: 2,
            cache: None,
            replay: false,
            set_aside: Duration::from_secs(30),
            budget_tokens: None,
            max_skipped: 25,
            fallback: Fallback::Script,
            on_budget: OnBudget::Stop,
            context: Some(DEFAULT_CONTEXT),
            dialect: Some(Dialect::Openai),
        }
    }

    /// The same, over several endpoints.
    pub fn with_urls(urls: &[String], model: &str) -> Self {
        let mut c = Self::new(urls.first().map_or("", String::as_str), model);
        c.urls = urls
            .iter()
            .map(|u| u.trim_end_matches('/').to_string())
            .collect();
        c
    }
}
