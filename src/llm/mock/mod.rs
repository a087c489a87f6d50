//! A small OpenAI-compatible server on 127.0.0.1 with scripted replies and
//! fault injection (status codes, `Retry-After`, delays, broken bodies, and
//! the [`Fault`]s small models and real servers show), for the test suite
//! and `hearth bench`. Plain HTTP/1.1, a thread per connection, optionally
//! a bound on requests served at once (a server's slots).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};

mod decode;
mod faults;
mod household;

pub use decode::decode;
pub use faults::{Fault, unusable, with_fault};
pub use household::{constrained, grammar, household, stepwise};

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
    fn into_ollama(mut self) -> Self {
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

type Handler = dyn Fn(&MockRequest) -> MockReply + Send + Sync;

/// The paths whose requests the handler answers; any other is a page.
const CHAT_PATHS: [&str; 2] = ["/v1/chat/completions", "/api/chat"];

pub struct MockServer {
    pub url: String,
    log: Arc<Mutex<Vec<MockRequest>>>,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

impl MockServer {
    /// Starts a server on a free port; `handler` answers every request.
    pub fn start(handler: impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static) -> Self {
        Self::with_slots(0, handler)
    }

    /// The same, answering at most `slots` requests at once (0: no bound),
    /// as a server with that many parallel sequences does.
    pub fn with_slots(
        slots: usize,
        handler: impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static,
    ) -> Self {
        Self::serving(slots, &[], handler)
    }

    /// The general form: `pages` are what the server publishes beside its
    /// chat endpoint (`/props`, `/v1/models`, Ollama's `/api/version` and
    /// `/api/show`), answered whatever the method and never logged; any
    /// other path is a 404. Chat requests go to `handler`; a reply to
    /// Ollama's `/api/chat` is put in Ollama's shape.
    pub fn serving(
        slots: usize,
        pages: &[(&str, Value)],
        handler: impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static,
    ) -> Self {
        let pages: Arc<Vec<(String, String)>> = Arc::new(
            pages
                .iter()
                .map(|(p, v)| (p.to_string(), v.to_string()))
                .collect(),
        );
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free local port");
        listener.set_nonblocking(true).expect("non-blocking accept");
        let url = format!("http://{}/v1", listener.local_addr().expect("bound"));
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let count = Arc::new(AtomicUsize::new(0));
        let slots = Arc::new(Slots {
            free: Mutex::new(slots),
            bounded: slots > 0,
            freed: Condvar::new(),
        });
        let (log2, stop2) = (Arc::clone(&log), Arc::clone(&stop));
        let accept = std::thread::spawn(move || {
            while !stop2.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let (h, l, c, s, p) = (
                            Arc::clone(&handler),
                            Arc::clone(&log2),
                            Arc::clone(&count),
                            Arc::clone(&slots),
                            Arc::clone(&pages),
                        );
                        std::thread::spawn(move || serve(stream, &*h, &l, &c, &s, &p));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(2)),
                }
            }
        });
        MockServer {
            url,
            log,
            stop,
            accept: Some(accept),
        }
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<MockRequest> {
        self.log.lock().expect("log lock").clone()
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

/// A counting semaphore for the server's slots.
struct Slots {
    free: Mutex<usize>,
    bounded: bool,
    freed: Condvar,
}

impl Slots {
    fn run<T>(&self, f: impl FnOnce() -> T) -> T {
        if !self.bounded {
            return f();
        }
        let mut free = self.free.lock().expect("slots lock");
        while *free == 0 {
            free = self.freed.wait(free).expect("slots lock");
        }
        *free -= 1;
        drop(free);
        let out = f();
        *self.free.lock().expect("slots lock") += 1;
        self.freed.notify_one();
        out
    }
}

fn serve(
    stream: TcpStream,
    handler: &Handler,
    log: &Mutex<Vec<MockRequest>>,
    count: &AtomicUsize,
    slots: &Slots,
    pages: &[(String, String)],
) {
    let _ = stream.set_nonblocking(false);
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut writer = stream;
    // Keep-alive: serve requests on this connection until it closes.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut headers = Vec::new();
        let mut len = 0usize;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    len = v.trim().parse().unwrap_or(0);
                }
                headers.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        let mut body = vec![0; len];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
        let reply = if CHAT_PATHS.contains(&path.as_str()) {
            let req = MockRequest {
                n: count.fetch_add(1, Ordering::SeqCst),
                path,
                headers,
                body: serde_json::from_slice(&body).unwrap_or(Value::Null),
            };
            log.lock().expect("log lock").push(req.clone());
            let reply = slots.run(|| {
                let reply = handler(&req);
                std::thread::sleep(reply.delay);
                reply
            });
            if req.path == "/api/chat" {
                reply.into_ollama()
            } else {
                reply
            }
        } else {
            match pages.iter().find(|(p, _)| *p == path) {
                Some((_, page)) => MockReply::status(200, page),
                None => MockReply::status(404, "{\"error\":\"not found\"}"),
            }
        };
        let mut out = format!(
            "HTTP/1.1 {} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
            reply.status,
            reply.body.len()
        );
        for (k, v) in &reply.headers {
            out.push_str(&format!("{k}: {v}\r\n"));
        }
        out.push_str("\r\n");
        out.push_str(&reply.body);
        if writer.write_all(out.as_bytes()).is_err() {
            return;
        }
    }
}
