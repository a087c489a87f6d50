//! One chat completion over HTTP: the request in the endpoint's schema
//! form, retries with jittered exponential backoff (honouring
//! `Retry-After`, or at once on another endpoint that is ready), the token
//! budget, and token accounting from the reply's `usage`.

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::trace::StageCost;

use super::LlmClient;
use super::cache::key_of;
use super::call::{Call, Message};
use super::error::LlmError;
use super::limit::Outcome;
use super::pool::Dialect;

/// Whether an error body is about the structured-output form, whatever its
/// status (servers answer 400, 422 or 500 for it).
fn names_format(body: &str) -> bool {
    let b = body.to_lowercase();
    ["response_format", "response format", "schema"]
        .iter()
        .any(|w| b.contains(w))
}

/// Whether an error answer says the prompt is longer than the model's
/// context (OpenAI's and llama.cpp's `context_length_exceeded`, vLLM's
/// "maximum context length", Ollama's and others' wordings).
fn refuses_length(status: u16, body: &str) -> bool {
    let b = body.to_lowercase();
    matches!(status, 400 | 413 | 422)
        && [
            "context_length_exceeded",
            "context length",
            "context window",
            "exceeds the available context",
            "too many tokens",
        ]
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

/// The slots a llama.cpp server reports at `/props` (beside `/v1`).
fn reported_slots(props: &Value) -> Option<usize> {
    props["total_slots"]
        .as_u64()
        .filter(|n| *n > 0)
        .map(|n| n as usize)
}

impl LlmClient {
    /// Asks every endpoint how many requests it serves at once; if all
    /// say, `auto` concurrency starts at (and keeps under) their sum.
    async fn probe_slots(&self) {
        let mut total = 0;
        for base in &self.config.urls {
            let root = base.strip_suffix("/v1").unwrap_or(base);
            let mut req = self
                .http
                .get(format!("{root}/props"))
                .timeout(Duration::from_secs(5));
            if let Some(k) = &self.config.key {
                req = req.bearer_auth(k);
            }
            let slots = match req.send().await {
                Ok(r) if r.status().is_success() => r.text().await.ok(),
                _ => None,
            }
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .as_ref()
            .and_then(reported_slots);
            match slots {
                Some(n) => total += n,
                None => return,
            }
        }
        tracing::debug!("the LLM servers report {total} slots");
        self.limit.slots(total);
    }

    /// One chat completion's content, with transport retries (on another
    /// endpoint at once if one is ready) and the structured-output fallback.
    pub(super) async fn chat(
        &self,
        call: &Call,
        messages: &[Message],
        cost: &mut StageCost,
    ) -> Result<Result<String, String>, LlmError> {
        if self.config.auto_concurrency {
            self.probed.get_or_init(|| self.probe_slots()).await;
        }
        let mut attempt = 0;
        loop {
            let ticket = self.limit.acquire().await;
            let (i, url) = self.pool.pick();
            let mode = self.pool.mode(&url);
            let r = self.attempt(call, messages, &url, mode, cost).await;
            let (aside, other_ready) = self.pool.release(i, matches!(r, Err(Failure::Retry(..))));
            if aside {
                self.count(|s| s.set_aside += 1);
            }
            let outcome = match &r {
                Ok(Attempt::Reply(_) | Attempt::Unusable(_)) => Outcome::Served,
                Err(Failure::Retry(
                    LlmError::Http {
                        status: 429 | 503, ..
                    },
                    _,
                )) => Outcome::Busy,
                Err(Failure::Retry(LlmError::Transport { why, .. }, _)) if why == TIMED_OUT => {
                    // The server may well have done the work: it counts
                    // against the token budget as if it had.
                    let est = tokens(messages.iter().map(|m| m.content.len()).sum())
                        + u64::from(call.max_tokens.unwrap_or(0));
                    self.spent.fetch_add(est, Ordering::SeqCst);
                    self.count(|s| s.timeouts += 1);
                    Outcome::TimedOut
                }
                _ => Outcome::Other,
            };
            self.limit.release(ticket, outcome);
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
        mode: Dialect,
        cost: &mut StageCost,
    ) -> Result<Attempt, Failure> {
        if let Some(budget) = self.config.budget_tokens {
            let spent = self.spent.load(Ordering::SeqCst);
            if spent >= budget {
                return Err(Failure::Fatal(LlmError::Budget { budget, spent }));
            }
        }
        let (url, body) = self.request(call, messages, base, mode);
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
            if refuses_length(status, &text) {
                return Err(Failure::Fatal(LlmError::Context {
                    url: url.clone(),
                    body: text.chars().take(300).collect(),
                }));
            }
            if mode != Dialect::Prompt && names_format(&text) {
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
        let (content, cut, reported) = read_reply(mode, &v);
        let prompt = reported
            .0
            .unwrap_or_else(|| tokens(messages.iter().map(|m| m.content.len()).sum()));
        let completion = reported.1.unwrap_or_else(|| tokens(content.len()));
        cost.prompt_tokens += prompt;
        cost.completion_tokens += completion;
        self.spent.fetch_add(prompt + completion, Ordering::SeqCst);
        self.count(|s| {
            s.prompt_tokens += prompt;
            s.completion_tokens += completion;
        });
        if cut {
            return Ok(Attempt::Unusable(
                "the reply was cut off (finish_reason: length); answer more briefly".into(),
            ));
        }
        if content.trim().is_empty() {
            return Ok(Attempt::Unusable("the reply was empty".into()));
        }
        Ok(Attempt::Reply(content.to_string()))
    }

    /// The URL and body of one chat request in `mode`'s dialect.
    fn request(
        &self,
        call: &Call,
        messages: &[Message],
        base: &str,
        mode: Dialect,
    ) -> (String, Value) {
        if mode == Dialect::Ollama {
            let root = base.strip_suffix("/v1").unwrap_or(base);
            let mut options = json!({"temperature": 0, "seed": call.seed, "num_ctx": self.context});
            if let Some(n) = call.max_tokens {
                options["num_predict"] = json!(n);
            }
            let body = json!({
                "model": self.config.model,
                "messages": messages,
                "stream": false,
                "format": call.schema,
                "options": options,
            });
            return (format!("{root}/api/chat"), body);
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
            Dialect::Openai => {
                body["response_format"] = json!({
                    "type": "json_schema",
                    "json_schema": {"name": call.schema_name, "schema": call.schema, "strict": true}
                })
            }
            Dialect::LlamaCpp => {
                body["response_format"] = json!({"type": "json_object", "schema": call.schema})
            }
            Dialect::Vllm => body["structured_outputs"] = json!({"json": call.schema}),
            Dialect::Ollama | Dialect::Prompt => {}
        }
        (format!("{base}/chat/completions"), body)
    }
}

/// A reply's content, whether it was cut off at its token cap, and the
/// prompt and completion tokens the server counted, in `mode`'s dialect.
fn read_reply(mode: Dialect, v: &Value) -> (&str, bool, (Option<u64>, Option<u64>)) {
    if mode == Dialect::Ollama {
        return (
            v["message"]["content"].as_str().unwrap_or_default(),
            v["done_reason"] == "length",
            (v["prompt_eval_count"].as_u64(), v["eval_count"].as_u64()),
        );
    }
    let choice = &v["choices"][0];
    (
        choice["message"]["content"].as_str().unwrap_or_default(),
        choice["finish_reason"] == "length",
        (
            v["usage"]["prompt_tokens"].as_u64(),
            v["usage"]["completion_tokens"].as_u64(),
        ),
    )
}

const TIMED_OUT: &str = "timed out";

fn describe(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        TIMED_OUT.into()
    } else if e.is_connect() {
        "connection failed".into()
    } else {
        e.to_string()
    }
}
