//! The OpenAI-compatible chat-completions client: a tokio runtime with
//! reqwest, a bound on requests in flight, timeouts, retries with jittered
//! exponential backoff (honouring `Retry-After`), calls spread over several
//! endpoints (least in flight; a failing one set aside for a while), the
//! structured-output fallback per endpoint, local repair of almost-JSON,
//! re-asks on replies that still break the schema, token accounting and a
//! token budget, and the record/replay cache. The API key goes only into the
//! `Authorization` header: never into the cache, the trace or a log line.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use thiserror::Error;

use super::repair;
use super::schema::{self, validate};

/// How to reach the model.
#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// Base URLs, e.g. `http://127.0.0.1:8080/v1`; `/chat/completions` is
    /// appended. Calls go to the one with the fewest in flight.
    pub urls: Vec<String>,
    pub model: String,
    pub key: Option<String>,
    /// Requests in flight at once, across every trace using this client.
    pub concurrency: usize,
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
}

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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn system(c: impl Into<String>) -> Self {
        Message {
            role: "system".into(),
            content: c.into(),
        }
    }
    pub fn user(c: impl Into<String>) -> Self {
        Message {
            role: "user".into(),
            content: c.into(),
        }
    }
}

/// One structured call: the reply must be JSON matching `schema`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Call {
    /// The generation stage, for errors and the cache.
    pub stage: String,
    pub messages: Vec<Message>,
    pub schema_name: String,
    pub schema: Value,
    pub seed: u64,
    /// A bound on the reply's length, sized to the items the stage asks for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
}

/// How an endpoint takes the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchemaMode {
    /// `{"type":"json_schema","json_schema":{"name","schema","strict":true}}`
    /// (OpenAI, vLLM, llama.cpp server, Ollama).
    JsonSchema,
    /// `{"type":"json_object","schema":...}` (older llama.cpp servers and
    /// others that refuse the nested form).
    JsonObject,
    /// No `response_format`: the schema is only in the prompt.
    PromptOnly,
}

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

/// What one call cost over all its requests. Recorded with the exchange,
/// so a replay reports the same figures as the run that recorded it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cost {
    pub requests: u64,
    /// From the reply's `usage`; estimated as characters / 4 when absent.
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Replies made valid JSON locally (fence, prose, control characters,
    /// trailing commas).
    pub repairs: u64,
    /// Replies re-asked because they were not usable.
    pub reasks: u64,
    /// Values brought into the schema (see [`schema::repair`]).
    #[serde(default)]
    pub fixed: u64,
    /// Items dropped from a reply whose other items were kept.
    #[serde(default)]
    pub dropped: u64,
}

impl std::ops::AddAssign for Cost {
    fn add_assign(&mut self, o: Cost) {
        self.requests += o.requests;
        self.prompt_tokens += o.prompt_tokens;
        self.completion_tokens += o.completion_tokens;
        self.repairs += o.repairs;
        self.reasks += o.reasks;
        self.fixed += o.fixed;
        self.dropped += o.dropped;
    }
}

/// A finished call: the validated reply, or why no reply was usable after
/// the re-asks (an expected outcome, recorded and replayed like a reply).
#[derive(Debug, Clone)]
pub struct Reply {
    pub value: Result<Value, String>,
    pub cost: Cost,
    /// What was dropped from the reply to make it fit, with paths.
    pub dropped: Vec<String>,
}

impl Reply {
    /// The value, or an [`LlmError::Invalid`] naming `stage`.
    pub fn into_value(self, stage: &str) -> Result<Value, LlmError> {
        let tries = self.cost.reasks as u32 + 1;
        self.value.map_err(|why| LlmError::Invalid {
            stage: stage.into(),
            tries,
            why,
        })
    }
}

/// Counters for the summary and the benchmark (this run only: cache hits
/// cost nothing here).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Stats {
    pub calls: u64,
    pub cache_hits: u64,
    pub requests: u64,
    pub retries: u64,
    pub reasks: u64,
    pub repairs: u64,
    pub fixed: u64,
    pub dropped: u64,
    pub fallbacks: u64,
    /// Times an endpoint was set aside after a failure.
    pub set_aside: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

struct Endpoint {
    url: String,
    in_flight: usize,
    aside_until: Option<Instant>,
}

pub struct LlmClient {
    config: LlmConfig,
    /// `Option` only so that `Drop` can shut it down without blocking (the
    /// last handle may be dropped on one of its own workers).
    runtime: Option<tokio::runtime::Runtime>,
    /// One lock per cache key, so identical calls in flight ask once.
    inflight: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    http: reqwest::Client,
    permits: Arc<tokio::sync::Semaphore>,
    modes: Mutex<HashMap<String, SchemaMode>>,
    /// The endpoints, and where the next tie-break starts (so sequential
    /// calls alternate instead of all going to the first).
    endpoints: Mutex<(Vec<Endpoint>, usize)>,
    /// Tokens spent at the endpoints in this run, for the budget.
    spent: AtomicU64,
    stats: Mutex<Stats>,
}

/// What the cache stores for one exchange (no credentials, no URL).
#[derive(Debug, Serialize, Deserialize)]
struct Recorded {
    stage: String,
    model: String,
    call: Call,
    reply: Value,
    /// Set when no reply was usable: replayed as the same failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    failure: Option<String>,
    #[serde(default)]
    cost: Cost,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    dropped: Vec<String>,
}

/// The cache key of a call to `model`: SHA-256 of the canonical request.
pub fn key_of(model: &str, call: &Call) -> String {
    let mut canonical = json!({
        "model": model,
        "messages": call.messages,
        "schema_name": call.schema_name,
        "schema": call.schema,
        "seed": call.seed,
    });
    if let Some(n) = call.max_tokens {
        canonical["max_tokens"] = json!(n);
    }
    let bytes = serde_json::to_vec(&canonical).expect("calls serialize");
    format!("{:x}", Sha256::digest(bytes))
}

/// Whether an error body is about the structured-output form, whatever its
/// status (servers answer 400, 422 or 500 for it).
fn names_format(body: &str) -> bool {
    let b = body.to_lowercase();
    ["response_format", "response format", "schema"]
        .iter()
        .any(|w| b.contains(w))
}

/// Seconds from a `Retry-After` header (the delay form; dates are ignored).
fn retry_after(h: &reqwest::header::HeaderMap) -> Option<Duration> {
    let s = h.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(120.0)))
}

/// Backoff before retry `n` (from 1): the base, doubling, capped, with
/// jitter in [0.5, 1.5) from a hash of the call (so calls that failed
/// together do not retry together; no clock or OS randomness needed).
fn backoff(base: Duration, n: u32, salt: &str) -> Duration {
    let d = base
        .saturating_mul(1 << n.saturating_sub(1).min(6))
        .min(Duration::from_secs(30));
    let h = Sha256::digest(format!("{salt}:{n}"));
    let jitter = 0.5 + f64::from(h[0]) / 256.0;
    d.mul_f64(jitter)
}

/// Writes `bytes` to `dir/name` through a temporary file and a rename, so
/// a reader never sees half a file.
fn write_atomic(dir: &std::path::Path, name: &str, bytes: &[u8]) -> Result<(), LlmError> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let err = |e: std::io::Error| LlmError::Cache {
        path: dir.display().to_string(),
        why: e.to_string(),
    };
    std::fs::create_dir_all(dir).map_err(err)?;
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.tmp-{}-{n}", std::process::id()));
    std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, dir.join(name)))
        .map_err(err)
}

fn tokens(chars: usize) -> u64 {
    chars.div_ceil(4) as u64
}

enum Attempt {
    Reply(String),
    /// Empty or cut off (`finish_reason: length`): re-asked like bad JSON.
    Unusable(String),
    /// The endpoint refused the structured-output form.
    Refused,
}

enum Failure {
    /// 408/409/429/5xx, timeouts, connection errors: wait and try again.
    Retry(LlmError, Option<Duration>),
    /// Anything else (401, 404, ...): trying again will not help.
    Fatal(LlmError),
}

impl LlmClient {
    pub fn new(config: LlmConfig) -> Result<Arc<Self>, LlmError> {
        if config.replay && config.cache.is_none() {
            return Err(LlmError::NoCache);
        }
        if config.urls.is_empty() {
            return Err(LlmError::Setup("no endpoint URL".into()));
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| LlmError::Setup(e.to_string()))?;
        let http = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .timeout(config.timeout)
            .build()
            .map_err(|e| LlmError::Setup(e.to_string()))?;
        let modes = config
            .cache
            .as_ref()
            .and_then(|d| std::fs::read(d.join("endpoints.json")).ok())
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        let endpoints = config
            .urls
            .iter()
            .map(|u| Endpoint {
                url: u.clone(),
                in_flight: 0,
                aside_until: None,
            })
            .collect();
        Ok(Arc::new(LlmClient {
            permits: Arc::new(tokio::sync::Semaphore::new(config.concurrency.max(1))),
            config,
            runtime: Some(runtime),
            inflight: Mutex::new(HashMap::new()),
            http,
            modes: Mutex::new(modes),
            endpoints: Mutex::new((endpoints, 0)),
            spent: AtomicU64::new(0),
            stats: Mutex::new(Stats::default()),
        }))
    }

    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// Whether the token budget (if any) is spent: a batch launches no
    /// more traces then.
    pub fn budget_spent(&self) -> bool {
        self.config
            .budget_tokens
            .is_some_and(|b| self.spent.load(Ordering::SeqCst) >= b)
    }

    pub fn stats(&self) -> Stats {
        self.stats.lock().expect("stats lock").clone()
    }

    fn count(&self, f: impl FnOnce(&mut Stats)) {
        f(&mut self.stats.lock().expect("stats lock"));
    }

    /// Runs `call` on the client's runtime; `done` gets the reply.
    pub fn spawn(
        self: &Arc<Self>,
        call: Call,
        done: impl FnOnce(Result<Reply, LlmError>) + Send + 'static,
    ) {
        /// Calls `done` exactly once: with the reply, or with an error if the
        /// task dies first (a panic must not leave a caller waiting forever).
        struct Once<F: FnOnce(Result<Reply, LlmError>)>(Option<F>);
        impl<F: FnOnce(Result<Reply, LlmError>)> Drop for Once<F> {
            fn drop(&mut self) {
                if let Some(f) = self.0.take() {
                    f(Err(LlmError::Setup("the LLM task stopped".into())));
                }
            }
        }
        let me = Arc::clone(self);
        let mut once = Once(Some(done));
        self.runtime().spawn(async move {
            let r = me.exchange(call).await;
            // The last handle on the client may be this one: let it go
            // before the reply wakes the caller.
            drop(me);
            if let Some(f) = once.0.take() {
                f(r);
            }
        });
    }

    fn runtime(&self) -> &tokio::runtime::Runtime {
        self.runtime
            .as_ref()
            .expect("the runtime lives as long as the client")
    }

    /// Completes `call` and waits for it (for callers outside the ECS).
    pub fn complete_blocking(self: &Arc<Self>, call: Call) -> Result<Value, LlmError> {
        let (tx, rx) = crossbeam_channel::bounded(1);
        let stage = call.stage.clone();
        self.spawn(call, move |r| {
            let _ = tx.send(r);
        });
        rx.recv()
            .unwrap_or_else(|_| Err(LlmError::Setup("the LLM runtime stopped".into())))
            .and_then(|r| r.into_value(&stage))
    }

    /// The validated value of `call`, or [`LlmError::Invalid`].
    pub async fn complete(&self, call: Call) -> Result<Value, LlmError> {
        let stage = call.stage.clone();
        self.exchange(call).await?.into_value(&stage)
    }

    /// From the cache, or from an endpoint (then recorded, a reply that
    /// stayed unusable included); always validated against the call's
    /// schema. `Err` only when the exchange itself failed (unreachable,
    /// refused, budget spent).
    pub async fn exchange(&self, call: Call) -> Result<Reply, LlmError> {
        self.count(|s| s.calls += 1);
        let key = key_of(&self.config.model, &call);
        // Identical calls in flight wait for the first and read its record,
        // so the cache holds the one reply every caller used.
        let lock = Arc::clone(
            self.inflight
                .lock()
                .expect("inflight lock")
                .entry(key.clone())
                .or_default(),
        );
        let _guard = lock.lock().await;
        if let Some(dir) = &self.config.cache {
            let path = dir.join(format!("{key}.json"));
            if let Ok(bytes) = std::fs::read(&path) {
                let bad = |why: String| LlmError::Cache {
                    path: path.display().to_string(),
                    why,
                };
                let rec: Recorded =
                    serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?;
                self.count(|s| s.cache_hits += 1);
                if let Some(why) = rec.failure {
                    return Ok(Reply {
                        value: Err(why),
                        cost: rec.cost,
                        dropped: rec.dropped,
                    });
                }
                let problems = validate(&call.schema, &rec.reply);
                if !problems.is_empty() {
                    return Err(bad(format!(
                        "recorded reply breaks the schema: {}",
                        problems.join("; ")
                    )));
                }
                return Ok(Reply {
                    value: Ok(rec.reply),
                    cost: rec.cost,
                    dropped: rec.dropped,
                });
            }
            if self.config.replay {
                return Err(LlmError::Replay {
                    stage: call.stage.clone(),
                    key,
                    cache: dir.display().to_string(),
                });
            }
        }
        let mut messages = call.messages.clone();
        let mut cost = Cost::default();
        let mut last = String::new();
        for ask in 0..=self.config.reasks {
            if ask > 0 {
                cost.reasks += 1;
                self.count(|s| s.reasks += 1);
            }
            let (content, parsed) = match self.chat(&call, &messages, &mut cost).await? {
                Ok(c) => {
                    let p = repair::parse(&c).map(|(v, repaired)| {
                        if repaired {
                            cost.repairs += 1;
                            self.count(|s| s.repairs += 1);
                        }
                        v
                    });
                    (c, p)
                }
                Err(why) => (String::new(), Err(why)),
            };
            let problem = match parsed {
                Ok(v) => {
                    // Item by item: what can be made to fit is kept; only a
                    // reply with nothing usable left is asked again.
                    let fixed = schema::repair(&call.schema, &v);
                    if let Some(v) = fixed.value {
                        cost.fixed += fixed.fixed;
                        cost.dropped += fixed.dropped.len() as u64;
                        self.count(|s| {
                            s.fixed += fixed.fixed;
                            s.dropped += fixed.dropped.len() as u64;
                        });
                        self.record(&key, &call, Ok(&v), cost, &fixed.dropped)?;
                        return Ok(Reply {
                            value: Ok(v),
                            cost,
                            dropped: fixed.dropped,
                        });
                    }
                    validate(&call.schema, &v).join("; ")
                }
                Err(e) => e,
            };
            last = problem.clone();
            messages.push(Message {
                role: "assistant".into(),
                content,
            });
            messages.push(Message::user(format!(
                "That reply is not valid: {problem}. Reply again with only a JSON object matching the schema."
            )));
        }
        self.record(&key, &call, Err(&last), cost, &[])?;
        Ok(Reply {
            value: Err(last),
            cost,
            dropped: vec![],
        })
    }

    fn record(
        &self,
        key: &str,
        call: &Call,
        reply: Result<&Value, &String>,
        cost: Cost,
        dropped: &[String],
    ) -> Result<(), LlmError> {
        let Some(dir) = &self.config.cache else {
            return Ok(());
        };
        let rec = Recorded {
            stage: call.stage.clone(),
            model: self.config.model.clone(),
            call: call.clone(),
            reply: reply.ok().cloned().unwrap_or(Value::Null),
            failure: reply.err().cloned(),
            cost,
            dropped: dropped.to_vec(),
        };
        let bytes = serde_json::to_vec_pretty(&rec).expect("records serialize");
        write_atomic(dir, &format!("{key}.json"), &bytes)
    }

    fn mode(&self, url: &str) -> SchemaMode {
        *self
            .modes
            .lock()
            .expect("modes lock")
            .get(url)
            .unwrap_or(&SchemaMode::JsonSchema)
    }

    /// Moves `url` one form down from `from` (never back up: a late refusal
    /// must not undo a later fallback) and remembers it in the cache.
    fn downgrade(&self, url: &str, from: SchemaMode) {
        let to = match from {
            SchemaMode::JsonSchema => SchemaMode::JsonObject,
            _ => SchemaMode::PromptOnly,
        };
        let rank = |m: SchemaMode| m as u8;
        let mut modes = self.modes.lock().expect("modes lock");
        let current = *modes.get(url).unwrap_or(&SchemaMode::JsonSchema);
        if rank(current) >= rank(to) {
            return;
        }
        tracing::warn!("{url} refused response_format {from:?}; using {to:?} from now on");
        self.count(|s| s.fallbacks += 1);
        modes.insert(url.to_string(), to);
        if let Some(dir) = &self.config.cache {
            let bytes = serde_json::to_vec_pretty(&*modes).expect("modes serialize");
            if let Err(e) = write_atomic(dir, "endpoints.json", &bytes) {
                tracing::warn!("{e}");
            }
        }
    }

    /// The endpoint for the next request: the fewest in flight among those
    /// not set aside (ties in turn), else the one back soonest.
    fn pick(&self) -> (usize, String) {
        let now = Instant::now();
        let mut g = self.endpoints.lock().expect("endpoints lock");
        let (eps, turn) = &mut *g;
        let n = eps.len();
        let start = *turn;
        *turn = (start + 1) % n;
        let best = (0..n)
            .map(|k| (start + k) % n)
            .min_by_key(|&i| {
                let aside = eps[i]
                    .aside_until
                    .map_or(Duration::ZERO, |t| t.saturating_duration_since(now));
                (aside, eps[i].in_flight)
            })
            .expect("at least one endpoint");
        eps[best].in_flight += 1;
        (best, eps[best].url.clone())
    }

    /// Done with endpoint `i`; a failed one is set aside if others can
    /// answer. Returns whether another endpoint is ready now.
    fn release(&self, i: usize, failed: bool) -> bool {
        let now = Instant::now();
        let mut g = self.endpoints.lock().expect("endpoints lock");
        let eps = &mut g.0;
        eps[i].in_flight -= 1;
        if !failed {
            eps[i].aside_until = None;
            return false;
        }
        if eps.len() > 1 {
            eps[i].aside_until = Some(now + self.config.set_aside);
            self.count(|s| s.set_aside += 1);
        }
        eps.iter()
            .enumerate()
            .any(|(j, e)| j != i && e.aside_until.is_none_or(|t| t <= now))
    }

    /// One chat completion's content, with transport retries (on another
    /// endpoint at once if one is ready) and the structured-output fallback.
    async fn chat(
        &self,
        call: &Call,
        messages: &[Message],
        cost: &mut Cost,
    ) -> Result<Result<String, String>, LlmError> {
        let mut attempt = 0;
        loop {
            let permit = self
                .permits
                .acquire()
                .await
                .expect("the semaphore is never closed");
            let (i, url) = self.pick();
            let mode = self.mode(&url);
            let r = self.attempt(call, messages, &url, mode, cost).await;
            let other_ready = self.release(i, matches!(r, Err(Failure::Retry(..))));
            drop(permit);
            match r {
                Ok(Attempt::Reply(c)) => return Ok(Ok(c)),
                Ok(Attempt::Unusable(why)) => return Ok(Err(why)),
                Ok(Attempt::Refused) => self.downgrade(&url, mode),
                Err(Failure::Fatal(e)) => return Err(e),
                Err(Failure::Retry(e, wait)) => {
                    attempt += 1;
                    if attempt > self.config.retries {
                        return Err(e);
                    }
                    self.count(|s| s.retries += 1);
                    if other_ready {
                        tracing::debug!("{}: {e}; retrying on another endpoint", call.stage);
                        continue;
                    }
                    let wait = wait.unwrap_or_else(|| {
                        backoff(
                            self.config.backoff,
                            attempt,
                            &key_of(&self.config.model, call),
                        )
                    });
                    tracing::debug!("{}: {e}; retry {attempt} in {wait:?}", call.stage);
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }

    /// One HTTP request. A retryable failure comes back with the wait the
    /// server asked for, if any.
    async fn attempt(
        &self,
        call: &Call,
        messages: &[Message],
        base: &str,
        mode: SchemaMode,
        cost: &mut Cost,
    ) -> Result<Attempt, Failure> {
        if let Some(budget) = self.config.budget_tokens {
            let spent = self.spent.load(Ordering::SeqCst);
            if spent >= budget {
                return Err(Failure::Fatal(LlmError::Budget { budget, spent }));
            }
        }
        let mut body = json!({
            "model": self.config.model,
            "messages": messages,
            "temperature": 0,
            "seed": call.seed,
        });
        if let Some(n) = call.max_tokens {
            body["max_tokens"] = json!(n);
        }
        match mode {
            SchemaMode::JsonSchema => {
                body["response_format"] = json!({
                    "type": "json_schema",
                    "json_schema": {"name": call.schema_name, "schema": call.schema, "strict": true}
                })
            }
            SchemaMode::JsonObject => {
                body["response_format"] = json!({"type": "json_object", "schema": call.schema})
            }
            SchemaMode::PromptOnly => {}
        }
        let url = format!("{base}/chat/completions");
        let transport = |why: String| {
            Failure::Retry(
                LlmError::Transport {
                    url: url.clone(),
                    why,
                },
                None,
            )
        };
        self.count(|s| s.requests += 1);
        cost.requests += 1;
        let mut req = self
            .http
            .post(&url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(serde_json::to_vec(&body).expect("bodies serialize"));
        if let Some(k) = &self.config.key {
            req = req.bearer_auth(k);
        }
        let resp = req.send().await.map_err(|e| transport(describe(&e)))?;
        let status = resp.status().as_u16();
        let wait = retry_after(resp.headers());
        let text = resp.text().await.map_err(|e| transport(describe(&e)))?;
        if !(200..300).contains(&status) {
            if mode != SchemaMode::PromptOnly && names_format(&text) {
                return Ok(Attempt::Refused);
            }
            let err = LlmError::Http {
                url: url.clone(),
                status,
                body: text.chars().take(300).collect(),
            };
            return Err(if matches!(status, 408 | 409 | 429) || status >= 500 {
                Failure::Retry(err, wait)
            } else {
                Failure::Fatal(err)
            });
        }
        let Ok(v) = serde_json::from_str::<Value>(&text) else {
            return Ok(Attempt::Unusable("the response body is not JSON".into()));
        };
        let choice = &v["choices"][0];
        let content = choice["message"]["content"].as_str().unwrap_or_default();
        let usage = |k: &str| v["usage"][k].as_u64();
        let prompt = usage("prompt_tokens")
            .unwrap_or_else(|| tokens(messages.iter().map(|m| m.content.len()).sum()));
        let completion = usage("completion_tokens").unwrap_or_else(|| tokens(content.len()));
        cost.prompt_tokens += prompt;
        cost.completion_tokens += completion;
        self.spent.fetch_add(prompt + completion, Ordering::SeqCst);
        self.count(|s| {
            s.prompt_tokens += prompt;
            s.completion_tokens += completion;
        });
        if choice["finish_reason"] == "length" {
            return Ok(Attempt::Unusable(
                "the reply was cut off (finish_reason: length); answer more briefly".into(),
            ));
        }
        if content.trim().is_empty() {
            return Ok(Attempt::Unusable("the reply was empty".into()));
        }
        Ok(Attempt::Reply(content.to_string()))
    }
}

fn describe(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "timed out".into()
    } else if e.is_connect() {
        "connection failed".into()
    } else {
        e.to_string()
    }
}

impl Drop for LlmClient {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}
