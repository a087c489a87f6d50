//! The endpoint pool: calls go to the endpoint with the fewest in flight,
//! a failing one is set aside for a while, and each endpoint keeps the
//! structured-output form it accepts.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

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

/// The schema form of each endpoint that refused the default one.
pub type Modes = HashMap<String, SchemaMode>;

struct Endpoint {
    url: String,
    in_flight: usize,
    aside_until: Option<Instant>,
}

pub struct Pool {
    /// The endpoints, and where the next tie-break starts (so sequential
    /// calls alternate instead of all going to the first).
    endpoints: Mutex<(Vec<Endpoint>, usize)>,
    modes: Mutex<Modes>,
    /// How long an endpoint that failed is left out while others answer.
    set_aside: Duration,
}

impl Pool {
    pub fn new(urls: &[String], modes: Modes, set_aside: Duration) -> Self {
        let endpoints = urls
            .iter()
            .map(|u| Endpoint {
                url: u.clone(),
                in_flight: 0,
                aside_until: None,
            })
            .collect();
        Pool {
            endpoints: Mutex::new((endpoints, 0)),
            modes: Mutex::new(modes),
            set_aside,
        }
    }

    /// The endpoint for the next request: the fewest in flight among those
    /// not set aside (ties in turn), else the one back soonest.
    pub fn pick(&self) -> (usize, String) {
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
    /// answer. Returns whether it was set aside, and whether another
    /// endpoint is ready now.
    pub fn release(&self, i: usize, failed: bool) -> (bool, bool) {
        let now = Instant::now();
        let mut g = self.endpoints.lock().expect("endpoints lock");
        let eps = &mut g.0;
        eps[i].in_flight -= 1;
        if !failed {
            eps[i].aside_until = None;
            return (false, false);
        }
        let aside = eps.len() > 1;
        if aside {
            eps[i].aside_until = Some(now + self.set_aside);
        }
        let other_ready = eps
            .iter()
            .enumerate()
            .any(|(j, e)| j != i && e.aside_until.is_none_or(|t| t <= now));
        (aside, other_ready)
    }

    pub fn mode(&self, url: &str) -> SchemaMode {
        *self
            .modes
            .lock()
            .expect("modes lock")
            .get(url)
            .unwrap_or(&SchemaMode::JsonSchema)
    }

    /// Moves `url` one form down from `from` (never back up: a late refusal
    /// must not undo a later fallback). On a change, `changed` gets the new
    /// form and every endpoint's, still under the lock, so what it writes
    /// down is never overtaken by an older change.
    pub fn downgrade(&self, url: &str, from: SchemaMode, changed: impl FnOnce(SchemaMode, &Modes)) {
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
        modes.insert(url.to_string(), to);
        changed(to, &modes);
    }
}
