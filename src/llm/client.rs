//! The OpenAI-compatible chat-completions client: a tokio runtime with
//! reqwest, a bound on requests in flight, timeouts, retries with jittered
//! exponential backoff (honouring `Retry-After`), the structured-output
//! fallback per endpoint, re-asks on replies that break the schema, and the
//! record/replay cache. The API key goes only into the `Authorization`
//! header: never into the cache, the trace or a log line.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use thiserror::Error;

use super::schema::validate;

/// How to reach the model.
#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// Base URL, e.g. `http://127.0.0.1:8080/v1`; `/chat/completions` is appended.
    pub url: String,
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
}

impl LlmConfig {
    pub fn new(url: &str, model: &str) -> Self {
        LlmConfig {
            url: url.trim_end_matches('/').to_string(),
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
        }
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
    #[error("LLM cache {path}: {why}")]
    Cache { path: String, why: String },
    #[error("cannot start the LLM client: {0}")]
    Setup(String),
}

/// Counters for the summary and the benchmark.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Stats {
    pub calls: u64,
    pub cache_hits: u64,
    pub requests: u64,
    pub retries: u64,
    pub reasks: u64,
    pub fallbacks: u64,
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
    stats: Mutex<Stats>,
}

/// What the cache stores for one exchange (no credentials, no URL).
#[derive(Debug, Serialize, Deserialize)]
struct Recorded {
    stage: String,
    model: String,
    call: Call,
    reply: Value,
}

/// The cache key of a call to `model`: SHA-256 of the canonical request.
pub fn key_of(model: &str, call: &Call) -> String {
    let canonical = json!({
        "model": model,
        "messages": call.messages,
        "schema_name": call.schema_name,
        "schema": call.schema,
        "seed": call.seed,
    });
    let bytes = serde_json::to_vec(&canonical).expect("calls serialize");
    format!("{:x}", Sha256::digest(bytes))
}

/// The JSON inside a reply, tolerating a Markdown code fence around it.
fn parse_content(content: &str) -> Result<Value, String> {
    let t = content.trim();
    let t = t
        .strip_prefix("```json")
        .or_else(|| t.strip_prefix("```"))
        .and_then(|r| r.strip_suffix("```"))
        .unwrap_or(t);
    serde_json::from_str(t.trim()).map_err(|e| format!("not JSON ({e})"))
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
        Ok(Arc::new(LlmClient {
            permits: Arc::new(tokio::sync::Semaphore::new(config.concurrency.max(1))),
            config,
            runtime: Some(runtime),
            inflight: Mutex::new(HashMap::new()),
            http,
            modes: Mutex::new(modes),
            stats: Mutex::new(Stats::default()),
        }))
    }

    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    pub fn stats(&self) -> Stats {
        self.stats.lock().expect("stats lock").clone()
    }

    fn count(&self, f: impl FnOnce(&mut Stats)) {
        f(&mut self.stats.lock().expect("stats lock"));
    }

    /// Runs `call` on the client's runtime; `done` gets the validated reply.
    pub fn spawn(
        self: &Arc<Self>,
        call: Call,
        done: impl FnOnce(Result<Value, LlmError>) + Send + 'static,
    ) {
        /// Calls `done` exactly once: with the reply, or with an error if the
        /// task dies first (a panic must not leave a caller waiting forever).
        struct Once<F: FnOnce(Result<Value, LlmError>)>(Option<F>);
        impl<F: FnOnce(Result<Value, LlmError>)> Drop for Once<F> {
            fn drop(&mut self) {
                if let Some(f) = self.0.take() {
                    f(Err(LlmError::Setup("the LLM task stopped".into())));
                }
            }
        }
        let me = Arc::clone(self);
        let mut once = Once(Some(done));
        self.runtime().spawn(async move {
            let r = me.complete(call).await;
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
        self.spawn(call, move |r| {
            let _ = tx.send(r);
        });
        rx.recv()
            .unwrap_or_else(|_| Err(LlmError::Setup("the LLM runtime stopped".into())))
    }

    /// From the cache, or from the endpoint (then recorded); always
    /// validated against the call's schema.
    pub async fn complete(&self, call: Call) -> Result<Value, LlmError> {
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
                let rec: Recorded =
                    serde_json::from_slice(&bytes).map_err(|e| LlmError::Cache {
                        path: path.display().to_string(),
                        why: e.to_string(),
                    })?;
                let problems = validate(&call.schema, &rec.reply);
                if problems.is_empty() {
                    self.count(|s| s.cache_hits += 1);
                    return Ok(rec.reply);
                }
                return Err(LlmError::Cache {
                    path: path.display().to_string(),
                    why: format!("recorded reply breaks the schema: {}", problems.join("; ")),
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
        let mut last = String::new();
        for ask in 0..=self.config.reasks {
            if ask > 0 {
                self.count(|s| s.reasks += 1);
            }
            let (content, parsed) = match self.chat(&call, &messages).await? {
                Ok(c) => {
                    let p = parse_content(&c);
                    (c, p)
                }
                Err(why) => (String::new(), Err(why)),
            };
            let problem = match parsed {
                Ok(v) => {
                    let problems = validate(&call.schema, &v);
                    if problems.is_empty() {
                        self.record(&key, &call, &v)?;
                        return Ok(v);
                    }
                    problems.join("; ")
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
        Err(LlmError::Invalid {
            stage: call.stage,
            tries: self.config.reasks + 1,
            why: last,
        })
    }

    fn record(&self, key: &str, call: &Call, reply: &Value) -> Result<(), LlmError> {
        let Some(dir) = &self.config.cache else {
            return Ok(());
        };
        let err = |e: std::io::Error| LlmError::Cache {
            path: dir.display().to_string(),
            why: e.to_string(),
        };
        std::fs::create_dir_all(dir).map_err(err)?;
        let rec = Recorded {
            stage: call.stage.clone(),
            model: self.config.model.clone(),
            call: call.clone(),
            reply: reply.clone(),
        };
        let path = dir.join(format!("{key}.json"));
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(".{key}.tmp-{}-{n}", std::process::id()));
        std::fs::write(
            &tmp,
            serde_json::to_vec_pretty(&rec).expect("records serialize"),
        )
        .and_then(|_| std::fs::rename(&tmp, &path))
        .map_err(err)
    }

    fn mode(&self) -> SchemaMode {
        *self
            .modes
            .lock()
            .expect("modes lock")
            .get(&self.config.url)
            .unwrap_or(&SchemaMode::JsonSchema)
    }

    fn downgrade(&self, from: SchemaMode) -> SchemaMode {
        let to = match from {
            SchemaMode::JsonSchema => SchemaMode::JsonObject,
            _ => SchemaMode::PromptOnly,
        };
        tracing::warn!(
            "{} refused response_format {from:?}; using {to:?} from now on",
            self.config.url
        );
        self.count(|s| s.fallbacks += 1);
        let mut modes = self.modes.lock().expect("modes lock");
        // Only ever lower: a late refusal must not undo a later fallback.
        let rank = |m: SchemaMode| match m {
            SchemaMode::JsonSchema => 0,
            SchemaMode::JsonObject => 1,
            SchemaMode::PromptOnly => 2,
        };
        let current = *modes
            .get(&self.config.url)
            .unwrap_or(&SchemaMode::JsonSchema);
        let to = if rank(current) > rank(to) {
            current
        } else {
            to
        };
        modes.insert(self.config.url.clone(), to);
        if let Some(dir) = &self.config.cache {
            let _ = std::fs::create_dir_all(dir);
            let _ = std::fs::write(
                dir.join("endpoints.json"),
                serde_json::to_vec_pretty(&*modes).expect("modes serialize"),
            );
        }
        to
    }

    /// One chat completion's content, with transport retries and the
    /// structured-output fallback.
    async fn chat(
        &self,
        call: &Call,
        messages: &[Message],
    ) -> Result<Result<String, String>, LlmError> {
        let mut mode = self.mode();
        let mut attempt = 0;
        loop {
            match self.attempt(call, messages, mode).await {
                Ok(Attempt::Reply(c)) => return Ok(Ok(c)),
                Ok(Attempt::Unusable(why)) => return Ok(Err(why)),
                Ok(Attempt::Refused) if mode != SchemaMode::PromptOnly => {
                    mode = self.downgrade(mode);
                }
                Ok(Attempt::Refused) => {
                    return Err(LlmError::Http {
                        url: self.config.url.clone(),
                        status: 400,
                        body: "the endpoint refuses every structured-output form".into(),
                    });
                }
                Err(Failure::Fatal(e)) => return Err(e),
                Err(Failure::Retry(e, wait)) => {
                    attempt += 1;
                    if attempt > self.config.retries {
                        return Err(e);
                    }
                    self.count(|s| s.retries += 1);
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
        mode: SchemaMode,
    ) -> Result<Attempt, Failure> {
        let mut body = json!({
            "model": self.config.model,
            "messages": messages,
            "temperature": 0,
            "seed": call.seed,
        });
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
        let url = format!("{}/chat/completions", self.config.url);
        let transport = |why: String| {
            Failure::Retry(
                LlmError::Transport {
                    url: url.clone(),
                    why,
                },
                None,
            )
        };
        let _permit = self
            .permits
            .acquire()
            .await
            .expect("the semaphore is never closed");
        self.count(|s| s.requests += 1);
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
        if status == 400 {
            let lower = text.to_lowercase();
            if mode != SchemaMode::PromptOnly
                && (lower.contains("response_format") || lower.contains("json_schema"))
            {
                return Ok(Attempt::Refused);
            }
        }
        if !(200..300).contains(&status) {
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
        if choice["finish_reason"] == "length" {
            return Ok(Attempt::Unusable(
                "the reply was cut off (finish_reason: length); answer more briefly".into(),
            ));
        }
        match choice["message"]["content"].as_str() {
            Some(c) if !c.trim().is_empty() => Ok(Attempt::Reply(c.to_string())),
            _ => Ok(Attempt::Unusable("the reply was empty".into())),
        }
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
