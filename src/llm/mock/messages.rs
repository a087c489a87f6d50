//! What the mock server receives and what it replies: a request with its
//! body and what a handler reads of it, and a reply (a status, headers, a
//! body, a delay).

use std::time::Duration;

use serde_json::{Value, json};

/// A request the server received.
#[derive(Debug, Clone)]
pub struct MockRequest {
    /// 0-based arrival number.
    pub n: usize,
    /// `/v1/chat/completions`, or Ollama's `/api/chat`.
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

impl MockRequest {
    /// The text of every message, joined.
    pub fn text(&self) -> String {
        self.body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["content"].as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The stage, from the system message hearth sends ("Stage: actor.").
    pub fn stage(&self) -> String {
        let t = self.text();
        t.split("Stage: ")
            .nth(1)
            .and_then(|r| r.split('.').next())
            .unwrap_or_default()
            .to_string()
    }

    /// Whether this is a re-ask: hearth sends two messages, then appends
    /// the reply and what was wrong with it.
    pub fn is_reask(&self) -> bool {
        self.body["messages"]
            .as_array()
            .is_some_and(|m| m.len() > 2)
    }

    /// The `response_format` type asked for (`json_schema`, `json_object`),
    /// `ollama` (its `format`), `vllm` (its `structured_outputs`), or `none`.
    pub fn format(&self) -> &str {
        if !self.body["format"].is_null() {
            return "ollama";
        }
        if !self.body["structured_outputs"].is_null() {
            return "vllm";
        }
        self.body["response_format"]["type"]
            .as_str()
            .unwrap_or("none")
    }

    /// The reply schema sent, in any dialect, or null.
    pub fn schema(&self) -> &Value {
        let f = &self.body["response_format"];
        match self.format() {
            "json_schema" => &f["json_schema"]["schema"],
            "ollama" => &self.body["format"],
            "vllm" => &self.body["structured_outputs"]["json"],
            _ => &f["schema"],
        }
    }

    /// `key` (`maxItems`, `maximum`, `enum`) of the property `name`, found
    /// anywhere in the reply schema: what a grammar-constrained server
    /// would hold a reply to.
    pub fn bound(&self, name: &str, key: &str) -> Option<&Value> {
        fn find<'a>(v: &'a Value, name: &str, key: &str) -> Option<&'a Value> {
            match v {
                Value::Object(o) => o
                    .get("properties")
                    .and_then(|p| p.get(name))
                    .and_then(|p| p.get(key).or_else(|| p.get("items")?.get(key)))
                    .or_else(|| o.values().find_map(|x| find(x, name, key))),
                Value::Array(a) => a.iter().find_map(|x| find(x, name, key)),
                _ => None,
            }
        }
        find(self.schema(), name, key)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the server answers.
#[derive(Debug, Clone)]
pub struct MockReply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// Wait this long before answering (a slow or stalled server).
    pub delay: Duration,
}

impl MockReply {
    /// A chat completion whose message content is `content`.
    pub fn content(content: &str) -> Self {
        Self::finished(content, "stop")
    }

    /// A chat completion with a JSON value as its content.
    pub fn json(v: &Value) -> Self {
        Self::content(&v.to_string())
    }

    /// A JSON reply to `req` with `usage` as a server reports it (about
    /// four characters a token).
    pub fn json_for(req: &MockRequest, v: &Value) -> Self {
        let content = v.to_string();
        let mut r = Self::content(&content);
        let mut body: Value = serde_json::from_str(&r.body).expect("a completion");
        body["usage"] = json!({
            "prompt_tokens": req.text().len().div_ceil(4),
            "completion_tokens": content.len().div_ceil(4),
        });
        r.body = body.to_string();
        r
    }

    /// The message content of a chat completion ("" if it has none).
    pub fn body_content(&self) -> String {
        serde_json::from_str::<Value>(&self.body)
            .ok()
            .and_then(|b| {
                b["choices"][0]["message"]["content"]
                    .as_str()
                    .map(String::from)
            })
            .unwrap_or_default()
    }

    /// The message content of a chat completion, changed by `f`.
    pub fn map_content(mut self, f: impl FnOnce(&str) -> String) -> Self {
        let Ok(mut body) = serde_json::from_str::<Value>(&self.body) else {
            return self;
        };
        let Some(c) = body["choices"][0]["message"]["content"].as_str() else {
            return self;
        };
        body["choices"][0]["message"]["content"] = Value::String(f(c));
        self.body = body.to_string();
        self
    }

    pub fn finished(content: &str, reason: &str) -> Self {
        MockReply {
            status: 200,
            headers: vec![],
            body: json!({
                "id": "mock",
                "object": "chat.completion",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": reason}]
            })
            .to_string(),
            delay: Duration::ZERO,
        }
    }

    pub fn status(status: u16, body: &str) -> Self {
        MockReply {
            status,
            headers: vec![],
            body: body.into(),
            delay: Duration::ZERO,
        }
    }

    /// This reply as Ollama's `/api/chat` gives it: the message, `done`,
    /// `done_reason` and the token counts under Ollama's names.
    pub(super) fn into_ollama(mut self) -> Self {
        let Ok(b) = serde_json::from_str::<Value>(&self.body) else {
            return self;
        };
        if self.status != 200 || b["choices"].is_null() {
            return self;
        }
        let c = &b["choices"][0];
        self.body = json!({
            "model": "mock",
            "message": c["message"],
            "done": true,
            "done_reason": c["finish_reason"],
            "prompt_eval_count": b["usage"]["prompt_tokens"],
            "eval_count": b["usage"]["completion_tokens"],
        })
        .to_string();
        self
    }

    pub fn with_header(mut self, k: &str, v: &str) -> Self {
        self.headers.push((k.into(), v.into()));
        self
    }

    pub fn after(mut self, d: Duration) -> Self {
        self.delay = d;
        self
    }
}
