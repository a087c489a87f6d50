//! The endpoint pool: calls go to the endpoint with the fewest in flight,
//! a failing one is set aside for a while, and each endpoint keeps the
//! structured-output dialect it takes.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// How a server takes the reply schema: its structured-output dialect.
/// Chosen per server by `--llm-dialect`, or by probing it once
/// ([`super::probe`]); a server that refuses its dialect moves down one
/// ([`Dialect::fallback`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// `response_format: {"type":"json_schema","json_schema":{"name",
    /// "schema","strict":true}}` (OpenAI, llama.cpp's server, vLLM, Ollama's
    /// `/v1`).
    #[serde(alias = "json_schema")]
    Openai,
    /// `response_format: {"type":"json_object","schema":...}`
    /// (llama-cpp-python's server, older llama.cpp servers).
    #[serde(alias = "json_object")]
    LlamaCpp,
    /// Ollama's own `/api/chat` with `format: <schema>` and the context
    /// asked for in `options.num_ctx` (Ollama's `/v1` silently keeps its
    /// default context).
    Ollama,
    /// vLLM's `structured_outputs: {"json": <schema>}` (vLLM 0.10.2 and
    /// later; `guided_json` before).
    Vllm,
    /// No constraint: the schema is only in the prompt.
    #[serde(alias = "prompt_only")]
    Prompt,
}

impl Dialect {
    pub const ALL: [Dialect; 5] = [
        Dialect::Openai,
        Dialect::LlamaCpp,
        Dialect::Ollama,
        Dialect::Vllm,
        Dialect::Prompt,
    ];

    /// The name `--llm-dialect` takes and `endpoints.json` stores.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Openai => "openai",
            Dialect::LlamaCpp => "llama_cpp",
            Dialect::Ollama => "ollama",
            Dialect::Vllm => "vllm",
            Dialect::Prompt => "prompt",
        }
    }

    /// What to try after a refusal of this dialect's form (`None`: nothing
    /// is left to drop).
    pub fn fallback(self) -> Option<Dialect> {
        match self {
            Dialect::Vllm => Some(Dialect::Openai),
            Dialect::Openai => Some(Dialect::LlamaCpp),
            Dialect::LlamaCpp | Dialect::Ollama => Some(Dialect::Prompt),
            Dialect::Prompt => None,
        }
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Dialect {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.replace('-', "_");
        Dialect::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| {
                format!("a dialect is auto, openai, llama-cpp, ollama, vllm or prompt, not {s:?}")
            })
    }
}

/// The dialect of each endpoint that does not take the default one.
pub type Modes = HashMap<String, Dialect>;

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

    pub fn mode(&self, url: &str) -> Dialect {
        *self
            .modes
            .lock()
            .expect("modes lock")
            .get(url)
            .unwrap_or(&Dialect::Openai)
    }

    /// Moves `url` one dialect down from `from`, if `from` is still its
    /// dialect (a late refusal must not undo a later fallback). On a
    /// change, `changed` gets the new dialect and every endpoint's, still
    /// under the lock, so what it writes down is never overtaken by an
    /// older change.
    pub fn downgrade(&self, url: &str, from: Dialect, changed: impl FnOnce(Dialect, &Modes)) {
        let mut modes = self.modes.lock().expect("modes lock");
        let current = *modes.get(url).unwrap_or(&Dialect::Openai);
        let Some(to) = from.fallback().filter(|_| current == from) else {
            return;
        };
        modes.insert(url.to_string(), to);
        changed(to, &modes);
    }
}
