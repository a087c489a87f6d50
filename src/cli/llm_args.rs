//! The `--llm-*` flags shared by `generate`, `batch` and `mine`, and the
//! backend they select. The API key comes only from the environment.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::Args;

use hearth::workflow::generate::BackendSpec;
use hearth::workflow::llm::{Dialect, LlmClient, LlmConfig, recorded_model};

#[derive(Args, Clone)]
pub struct LlmArgs {
    /// OpenAI-compatible base URL (`/chat/completions` is appended). Give it
    /// several times (or comma-separated) to spread calls over servers.
    #[arg(
        long,
        env = "HEARTH_LLM_URL",
        value_delimiter = ',',
        default_value = "http://127.0.0.1:8080/v1"
    )]
    pub llm_url: Vec<String>,
    /// Model name sent to the endpoint (and part of every cache key)
    /// [default: `default`; a replay: the model the cache recorded].
    #[arg(long, env = "HEARTH_LLM_MODEL")]
    pub llm_model: Option<String>,
    /// Record/replay cache of LLM exchanges, shared by every trace.
    #[arg(long, default_value = "llm-cache")]
    pub llm_cache: PathBuf,
    /// LLM requests in flight at once: a number (1 to 256), or `auto`:
    /// learn how many the servers serve at once (what llama.cpp reports at
    /// `/props`, else from reply times, `429` and `503` answers and
    /// timeouts) and keep no more than that in flight, up to 8 per server,
    /// so requests do not time out queued behind each other.
    #[arg(long, default_value = "auto", value_parser = concurrency)]
    pub llm_concurrency: Concurrency,
    /// Seconds before a request times out (connecting: at most 10).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub llm_timeout: u64,
    /// Retries after 408/409/429/5xx and connection errors.
    #[arg(long, default_value_t = 5)]
    pub llm_retries: u32,
    /// Stop once this many tokens (prompt + completion) are spent in this
    /// run; running again with the same cache resumes.
    #[arg(long)]
    pub llm_budget_tokens: Option<u64>,
    /// Replies a trace may go on without (a skipped session, turn, day's
    /// beats or notes) before it fails.
    #[arg(long, default_value_t = 25)]
    pub max_skipped: u32,
    /// What fills a stage the model gives nothing usable for after its
    /// re-asks: `script` (the offline script writes that slot, so the trace
    /// completes), `skip` (go on without it; no projects or no sessions
    /// for a day fail the trace) or `fail`.
    #[arg(long, default_value = "script", value_parser = ["script", "skip", "fail"])]
    pub fallback: String,
    /// Once --llm-budget-tokens are spent: `stop` (resumably: run again
    /// with the same cache) or `script` (the script completes the trace).
    /// A batch launches no more traces either way.
    #[arg(long, default_value = "stop", value_parser = ["stop", "script"])]
    pub on_budget: String,
    /// The model's context in tokens: every generation prompt and its
    /// reply are fitted into it, trimmed by priority (recent events and
    /// open plans before old notes). Default: what the servers report
    /// (llama.cpp's `/props`, vLLM's `max_model_len`), else 4096; never
    /// more than a server reports. A replay uses the recorded one.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1024..))]
    pub llm_context: Option<u32>,
    /// How the servers take the reply schema: `auto` (ask each server once
    /// what it is), `openai` (`response_format` `json_schema`), `llama-cpp`
    /// (`json_object` with `schema`), `ollama` (its `/api/chat` with
    /// `format`), `vllm` (`structured_outputs`) or `prompt` (the schema in
    /// the prompt only). A server that refuses its dialect moves down one.
    #[arg(long, default_value = "auto", value_parser = dialect)]
    pub llm_dialect: DialectChoice,
}

/// `--llm-dialect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialectChoice {
    Auto,
    Fixed(Dialect),
}

fn dialect(s: &str) -> Result<DialectChoice, String> {
    match s {
        "auto" => Ok(DialectChoice::Auto),
        _ => s.parse().map(DialectChoice::Fixed),
    }
}

/// `--llm-concurrency`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Concurrency {
    Auto,
    Fixed(usize),
}

fn concurrency(s: &str) -> Result<Concurrency, String> {
    if s == "auto" {
        return Ok(Concurrency::Auto);
    }
    match s.parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(Concurrency::Fixed(n)),
        _ => Err(format!(
            "--llm-concurrency is `auto` or a number from 1 to 256, not {s:?}"
        )),
    }
}

impl LlmArgs {
    /// The client for `backend` (`openai` or `replay`), or `None` for the
    /// scripted backend.
    pub fn client(&self, backend: &str) -> Result<Option<std::sync::Arc<LlmClient>>> {
        if backend == "scripted" {
            return Ok(None);
        }
        if !matches!(backend, "openai" | "replay") {
            bail!("unknown backend {backend:?}");
        }
        let replay = backend == "replay";
        if replay && !self.llm_cache.is_dir() {
            bail!(
                "--backend replay reads recorded exchanges from {}, which does not exist; record them with --backend openai --llm-cache {}",
                self.llm_cache.display(),
                self.llm_cache.display()
            );
        }
        // A replay asks for what was recorded: the model from the cache
        // (as the context and dialects are), unless one is given.
        let model = match (&self.llm_model, replay) {
            (Some(m), _) => m.clone(),
            (None, true) => recorded_model(&self.llm_cache)?.unwrap_or_else(|| "default".into()),
            (None, false) => "default".into(),
        };
        let mut c = LlmConfig::with_urls(&self.llm_url, &model);
        c.key = std::env::var("HEARTH_LLM_API_KEY")
            .or_else(|_| std::env::var("OPENAI_API_KEY"))
            .ok()
            .filter(|k| !k.is_empty());
        match self.llm_concurrency {
            Concurrency::Fixed(n) => c.concurrency = n,
            Concurrency::Auto => {
                c.auto_concurrency = true;
                c.concurrency = 8 * self.llm_url.len().max(1);
            }
        }
        c.timeout = Duration::from_secs(self.llm_timeout);
        c.connect_timeout = c.timeout.min(Duration::from_secs(10));
        c.retries = self.llm_retries;
        c.budget_tokens = self.llm_budget_tokens;
        c.max_skipped = self.max_skipped;
        c.fallback = self.fallback.parse().map_err(anyhow::Error::msg)?;
        c.on_budget = self.on_budget.parse().map_err(anyhow::Error::msg)?;
        c.context = self.llm_context;
        c.dialect = match self.llm_dialect {
            DialectChoice::Auto => None,
            DialectChoice::Fixed(d) => Some(d),
        };
        c.cache = Some(self.llm_cache.clone());
        c.replay = replay;
        Ok(Some(LlmClient::new(c)?))
    }

    pub fn spec(&self, backend: &str) -> Result<BackendSpec> {
        Ok(match self.client(backend)? {
            None => BackendSpec::Scripted,
            Some(c) => BackendSpec::Llm(c),
        })
    }
}

/// While `work` runs, shows what the LLM client has done so far on `bar`
/// (calls, tokens, requests allowed in flight), after `prefix`.
pub fn with_llm_progress<T>(
    bar: &indicatif::ProgressBar,
    client: Option<&std::sync::Arc<LlmClient>>,
    prefix: &str,
    work: impl FnOnce() -> T,
) -> T {
    let Some(client) = client else {
        return work();
    };
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let st = client.stats();
                let sep = if prefix.is_empty() { "" } else { ": " };
                bar.set_message(format!(
                    "{prefix}{sep}{} LLM calls ({} from the cache), {} tokens, {} in flight at most",
                    st.calls,
                    st.cache_hits,
                    st.prompt_tokens + st.completion_tokens,
                    client.concurrency()
                ));
                std::thread::sleep(Duration::from_millis(250));
            }
        });
        let out = work();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        out
    })
}
