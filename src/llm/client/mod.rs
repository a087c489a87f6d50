//! The OpenAI-compatible chat-completions client: a tokio runtime with
//! reqwest, a bound on requests in flight, timeouts, retries, calls spread
//! over several endpoints ([`pool`]) with the structured-output fallback
//! per endpoint, local repair of almost-JSON, re-asks on replies that still
//! break the schema, token accounting and a token budget (`http.rs`), and
//! the record/replay cache ([`cache`]). The API key goes only into the
//! `Authorization` header: never into the cache, the trace or a log line.

pub mod cache;
pub mod call;
pub mod config;
pub mod error;
mod http;
pub mod limit;
pub mod pool;
pub mod probe;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::Value;

use crate::llm::repair;
use crate::llm::schema::{self, validate};
use crate::trace::StageCost;

use self::call::{Call, Message, Reply};
use self::config::{DEFAULT_CONTEXT, LlmConfig};
use self::error::LlmError;
use self::limit::Limiter;
use self::pool::{Dialect, Modes, Pool};

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
    /// Requests that timed out (each also a retry).
    pub timeouts: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

pub struct LlmClient {
    config: LlmConfig,
    /// `Option` only so that `Drop` can shut it down without blocking (the
    /// last handle may be dropped on one of its own workers).
    runtime: Option<tokio::runtime::Runtime>,
    /// One lock per cache key, so identical calls in flight ask once.
    inflight: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// Keys a replay has read, so each recorded exchange spends the
    /// budget once, as it did when recorded.
    replayed: Mutex<std::collections::HashSet<String>>,
    http: reqwest::Client,
    limit: Limiter,
    /// Whether the servers were asked about their slots (`auto` only).
    probed: tokio::sync::OnceCell<()>,
    pool: Pool,
    /// The context every prompt is fitted into (see [`LlmConfig::context`]).
    context: u32,
    /// Tokens spent at the endpoints in this run, for the budget.
    spent: AtomicU64,
    stats: Mutex<Stats>,
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
        let (modes, context) = servers(&config, &runtime, &http)?;
        let pool = Pool::new(&config.urls, modes, config.set_aside);
        Ok(Arc::new(LlmClient {
            limit: Limiter::new(config.auto_concurrency, config.concurrency, config.timeout),
            probed: tokio::sync::OnceCell::new(),
            config,
            runtime: Some(runtime),
            inflight: Mutex::new(HashMap::new()),
            replayed: Mutex::new(Default::default()),
            http,
            pool,
            context,
            spent: AtomicU64::new(0),
            stats: Mutex::new(Stats::default()),
        }))
    }

    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// The context in tokens every prompt is fitted into: `--llm-context`,
    /// or what the servers report, or what the replayed cache recorded.
    pub fn context(&self) -> u32 {
        self.context
    }

    /// Whether the token budget (if any) is spent: a batch launches no
    /// more traces then.
    pub fn budget_spent(&self) -> bool {
        self.config
            .budget_tokens
            .is_some_and(|b| self.spent.load(Ordering::SeqCst) >= b)
    }

    /// Requests allowed in flight now (what `auto` has learned so far).
    pub fn concurrency(&self) -> usize {
        self.limit.limit()
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
        let key = cache::key_of(&self.config.model, &call);
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
            // A replay spends the budget as the recorded run did: an
            // exchange first read costs what it cost then, and once the
            // budget is spent a new one fails as it did, so a trace the
            // budget cut short (`--on-budget script`) replays the same.
            let first = self.config.replay
                && self
                    .replayed
                    .lock()
                    .expect("replayed lock")
                    .insert(key.clone());
            if first && let Some(budget) = self.config.budget_tokens {
                let spent = self.spent.load(Ordering::SeqCst);
                if spent >= budget {
                    return Err(LlmError::Budget { budget, spent });
                }
            }
            let hit = || self.count(|s| s.cache_hits += 1);
            if let Some(reply) = cache::read(dir, &key, &call, hit) {
                if first && let Ok(r) = &reply {
                    self.spent.fetch_add(
                        r.cost.prompt_tokens + r.cost.completion_tokens,
                        Ordering::SeqCst,
                    );
                }
                return reply;
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
        let mut cost = StageCost::default();
        let mut last = String::new();
        for ask in 0..=self.config.reasks {
            if ask > 0 {
                cost.reasks += 1;
                self.count(|s| s.reasks += 1);
            }
            let chat = match self.chat(&call, &messages, &mut cost).await {
                // Like a reply with nothing usable, and recorded as one, so
                // the stage falls back the same way in a replay.
                Err(e @ LlmError::Context { .. }) => {
                    let reply = Reply {
                        value: Err(e.to_string()),
                        cost,
                        dropped: vec![],
                    };
                    return self.record(&key, &call, reply);
                }
                r => r?,
            };
            let (content, parsed) = match chat {
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
                        return self.record(
                            &key,
                            &call,
                            Reply {
                                value: Ok(v),
                                cost,
                                dropped: fixed.dropped,
                            },
                        );
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
        self.record(
            &key,
            &call,
            Reply {
                value: Err(last),
                cost,
                dropped: vec![],
            },
        )
    }

    /// Records `reply` in the cache, if there is one, and hands it back.
    fn record(&self, key: &str, call: &Call, reply: Reply) -> Result<Reply, LlmError> {
        if let Some(dir) = &self.config.cache {
            cache::record(dir, key, &self.config.model, call, &reply)?;
        }
        Ok(reply)
    }

    /// Moves `url` one dialect down from `from` and remembers it in the
    /// cache.
    fn downgrade(&self, url: &str, from: Dialect) {
        self.pool.downgrade(url, from, |to, modes| {
            tracing::warn!("{url} refused the {from} dialect; using {to} from now on");
            self.count(|s| s.fallbacks += 1);
            if let Some(dir) = &self.config.cache
                && let Err(e) = cache::write_servers(dir, &self.recorded(modes))
            {
                tracing::warn!("{e}");
            }
        });
    }

    /// What the cache keeps of the servers: the context and `modes`.
    fn recorded(&self, modes: &Modes) -> cache::Servers {
        cache::Servers {
            model: Some(self.config.model.clone()),
            context: Some(self.context),
            dialects: modes.iter().map(|(u, d)| (u.clone(), *d)).collect(),
        }
    }
}

/// Each endpoint's dialect and the context, settled once per client: a
/// replay takes them from its cache (so its prompts are the recorded
/// ones); a live run takes `--llm-dialect` or else the dialect the cache
/// recorded (a server that refused one before) or else what a probe finds,
/// and the context from [`probe::resolve_context`]. A live run with a
/// cache writes the context down for its replay.
fn servers(
    config: &LlmConfig,
    runtime: &tokio::runtime::Runtime,
    http: &reqwest::Client,
) -> Result<(Modes, u32), LlmError> {
    let recorded = config
        .cache
        .as_deref()
        .and_then(cache::read_servers)
        .unwrap_or_default();
    if config.replay {
        let context = match (config.context, recorded.context) {
            (Some(g), Some(r)) if g != r => {
                tracing::warn!(
                    "--llm-context {g} is not the {r} this cache was recorded with; replaying with {r}"
                );
                r
            }
            (g, r) => r.or(g).unwrap_or(DEFAULT_CONTEXT),
        };
        return Ok((recorded.dialects.into_iter().collect(), context));
    }
    let mut modes = Modes::new();
    let mut probed = vec![];
    for url in &config.urls {
        let known = config
            .dialect
            .or_else(|| recorded.dialects.get(url).copied());
        let found = (known.is_none() || config.context.is_none()).then(|| {
            runtime.block_on(probe::probe(
                http,
                config.key.as_deref(),
                &config.model,
                url,
            ))
        });
        let dialect = known
            .or(found.map(|p| p.dialect))
            .unwrap_or(Dialect::Openai);
        if let Some(p) = found {
            tracing::info!(
                "{url}: the {} dialect{}",
                dialect,
                p.context
                    .map_or(String::new(), |c| format!(", a context of {c} tokens"))
            );
            probed.push((url.clone(), probe::Probed { dialect, ..p }));
        }
        modes.insert(url.clone(), dialect);
    }
    let (context, shrunk) = probe::resolve_context(config.context, &probed, DEFAULT_CONTEXT);
    if let Some(w) = shrunk {
        tracing::warn!("{w}");
    }
    if let Some(dir) = &config.cache {
        let servers = cache::Servers {
            model: Some(config.model.clone()),
            context: Some(context),
            dialects: recorded.dialects,
        };
        cache::write_servers(dir, &servers)?;
    }
    Ok((modes, context))
}

impl Drop for LlmClient {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}
