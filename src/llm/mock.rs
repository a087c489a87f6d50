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

/// How the stand-in household LLM plays the actors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Several steps a reply and "done" in the same reply.
    Sensible,
    /// One step a call, an invented id first, "done" in a call of its own.
    Stepwise,
}

/// What the stand-in household knows of the scene.
struct Household {
    style: Style,
    humans: Vec<String>,
    robot: String,
    place: String,
    kinds: Vec<Value>,
    targets: Vec<Value>,
}

/// A step in the actor reply's shape, every unused field null.
fn step(skill: &str, set: Value) -> Value {
    let mut s = json!({"skill": skill, "target": null, "object": null, "relation": null,
        "device": null, "field": null, "value": null, "to": null, "text": null, "seconds": null});
    for (k, v) in set.as_object().expect("fields") {
        s[k] = v.clone();
    }
    s
}

fn actor_reply(steps: Vec<Value>, then: &str) -> Value {
    json!({"steps": steps, "then": then, "reason": null})
}

/// The text after `label` up to `end`, in `text`.
fn between<'a>(text: &'a str, label: &str, end: &str) -> &'a str {
    text.split(label)
        .nth(1)
        .and_then(|r| r.split(end).next())
        .unwrap_or("")
}

impl Household {
    fn new(scene: &crate::scene::Scene, style: Style) -> Self {
        use crate::generation::{MemoryTarget, ProjectType};
        Household {
            style,
            humans: scene
                .actors
                .iter()
                .filter(|a| a.kind == crate::scene::ActorKind::Human)
                .map(|a| a.id.to_string())
                .collect(),
            robot: scene
                .robots()
                .first()
                .map(|r| r.to_string())
                .unwrap_or_default(),
            place: scene
                .furniture
                .first()
                .map(|f| f.id.to_string())
                .unwrap_or_default(),
            kinds: ProjectType::ALL
                .iter()
                .map(|k| serde_json::to_value(k).expect("enum"))
                .collect(),
            targets: MemoryTarget::ALL
                .iter()
                .map(|k| serde_json::to_value(k).expect("enum"))
                .collect(),
        }
    }

    fn answer(&self, req: &MockRequest) -> MockReply {
        let text = req.text();
        let (robot, place) = (&self.robot, &self.place);
        let h0 = self.humans.first().unwrap_or(robot);
        // As many items as the schema allows, within what the stage has.
        let most = |name: &str| {
            req.bound(name, "maxItems")
                .and_then(Value::as_u64)
                .map_or(usize::MAX, |n| n as usize)
        };
        let reply = match req.stage().as_str() {
            "projects" => {
                let last = req
                    .bound("end_day", "maximum")
                    .cloned()
                    .unwrap_or(json!(30));
                json!({"projects": self.kinds.iter().zip(&self.targets).take(most("projects")).enumerate().map(|(i, (k, t))| json!({
                "id": format!("p{}", i + 1), "kind": k, "title": format!("thread {}", i + 1),
                "participants": [h0, robot], "entities": [place], "memory_targets": [t],
                "start_day": 1, "end_day": last, "constraints": []
            })).collect::<Vec<_>>()})
            }
            "day_beats" => {
                let active: Vec<Value> = match req.bound("project", "enum") {
                    Some(Value::Array(ids)) => ids.clone(),
                    _ => (1..=8).map(|i| json!(format!("p{i}"))).collect(),
                };
                json!({"beats": active.iter().map(|p| json!({
                    "project": p, "beat": "continued", "summary": "goes on"
                })).collect::<Vec<_>>()})
            }
            "sessions" if self.style == Style::Stepwise => json!({"sessions": [
                {"start": "08:00", "kind": "breakfast", "project": "p1", "intent": "breakfast", "participants": [h0, robot]},
                {"start": "12:30", "kind": "lunch", "project": null, "intent": "lunch", "participants": [h0]},
                {"start": "19:00", "kind": "evening", "project": "p8", "intent": "an evening in", "participants": [h0, robot]}
            ]}),
            "sessions" => {
                let day = [
                    ("07:30", "wake_up"),
                    ("08:15", "breakfast"),
                    ("10:00", "tidy"),
                    ("12:30", "lunch"),
                    ("16:00", "work"),
                    ("19:00", "evening"),
                ];
                // The projects in turn, as many as there are.
                let projects: Vec<Value> = match req.bound("project", "enum") {
                    Some(Value::Array(ids)) => {
                        ids.iter().filter(|p| p.is_string()).cloned().collect()
                    }
                    _ => (1..=6).map(|i| json!(format!("p{i}"))).collect(),
                };
                let sessions: Vec<Value> = day
                    .iter()
                    .enumerate()
                    .map(|(i, (at, kind))| {
                        let project = projects.get(i % projects.len().max(1)).cloned();
                        json!({"start": at, "kind": kind, "project": project,
                            "intent": format!("the household's {kind}"), "participants": [h0, robot]})
                    })
                    .collect();
                json!({ "sessions": sessions })
            }
            "director" => {
                let mut turns = vec![
                    json!({"actor": h0, "intention": format!("walk over to {place}")}),
                    json!({"actor": robot, "intention": format!("go to {place} and say hello")}),
                ];
                if self.style == Style::Stepwise && !req.is_reask() {
                    turns.push(
                        json!({"actor": "nobody_7", "intention": "an actor the scene does not have"}),
                    );
                }
                json!({ "turns": turns })
            }
            "actor" => {
                // The prompt as first sent: a re-ask appends the reply itself.
                let prompt = req.body["messages"][1]["content"].as_str().unwrap_or("");
                self.actor(prompt, req.is_reask())
            }
            "notes" => {
                json!({"preferences": [format!("{h0} likes a quiet morning")], "open_plans": [], "summary": "A quiet day."})
            }
            "answer" => {
                let first = text
                    .split("Records:")
                    .nth(1)
                    .and_then(|r| r.trim().lines().next())
                    .unwrap_or("nothing");
                json!({"answer": format!("From the records: {first}")})
            }
            "judge" => {
                let field = |name: &str| {
                    text.split(name)
                        .nth(1)
                        .and_then(|r| r.lines().next())
                        .unwrap_or("")
                        .trim()
                        .trim_end_matches('.')
                        .to_lowercase()
                };
                let (reference, answer) = (field("Reference answer:"), field("Answer to grade:"));
                let score = if !reference.is_empty() && answer.contains(&reference) {
                    3
                } else if answer.is_empty() {
                    0
                } else {
                    1
                };
                json!({"score": score, "reason": "compared with the reference"})
            }
            "rephrase" => {
                let q = text
                    .split("Question: ")
                    .nth(1)
                    .and_then(|r| r.lines().next())
                    .unwrap_or("");
                json!({"question": format!("Robot, {}", q.trim())})
            }
            other => return MockReply::status(400, &format!("unknown stage {other:?}")),
        };
        MockReply::json_for(req, &reply)
    }

    fn actor(&self, text: &str, reask: bool) -> Value {
        let (robot, place) = (&self.robot, &self.place);
        let me = text
            .rsplit("You play ")
            .next()
            .and_then(|r| r.split('.').next())
            .unwrap_or("");
        let history = between(text, "What you have done this turn:", "\n\n");
        let go = step("navigate_to", json!({ "target": place }));
        let hello = step("say", json!({"text": "Hello!", "to": []}));
        if self.style == Style::Sensible {
            if text.contains("Your last step was rejected") || history.contains(" say ") {
                return actor_reply(vec![], "done");
            }
            let mut steps = vec![];
            if !text.contains(&format!("near {place}.")) {
                steps.push(go);
            }
            steps.push(hello);
            steps.push(step("wait", json!({"seconds": 60})));
            return actor_reply(steps, "done");
        }
        let walked = history.contains("navigate_to") || text.contains("rejected (already_there)");
        if reask && !walked {
            actor_reply(vec![go], "continue")
        } else if walked && me == robot && !history.contains(" say ") {
            actor_reply(vec![hello], "continue")
        } else if walked {
            actor_reply(vec![], "done")
        } else {
            actor_reply(
                vec![step("navigate_to", json!({"target": "kitchen_table_9"}))],
                "continue",
            )
        }
    }
}

/// A stand-in household LLM that answers sensibly: valid replies built
/// from the scene, each actor's turn in one reply (walk over, say hello,
/// wait, done), decoded as a constrained server would ([`constrained`]
/// with no poor choices). For the tests, the benchmark and trying the LLM
/// path offline.
pub fn household(
    scene: &crate::scene::Scene,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    constrained(scene, 0, 0.0)
}

/// A stand-in for a model behind a server that constrains decoding to the
/// schema it is sent (llama.cpp's grammar, vLLM, OpenAI's strict mode):
/// what the sensible household would say, decoded through the schema, so
/// every value is one the schema allows (its enums, patterns, lengths,
/// bounds and item counts), never a near miss; and at every value, with
/// the seeded chance `poor`, a valid but semantically poor choice instead
/// (any option, an empty sentence, a random time, fewer items), as a small
/// model makes. A request without a schema gets the household's reply.
pub fn constrained(
    scene: &crate::scene::Scene,
    seed: u64,
    poor: f64,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    use rand::SeedableRng;
    use sha2::{Digest, Sha256};
    let h = Household::new(scene, Style::Sensible);
    move |req: &MockRequest| {
        let schema = req.schema().clone();
        let reply = h.answer(req);
        if schema.is_null() || reply.status != 200 {
            return reply;
        }
        // Seeded by the request, so the same call decodes the same way.
        let digest = Sha256::digest(format!("{seed}:{}", req.body));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(u64::from_le_bytes(
            digest[..8].try_into().expect("8 bytes"),
        ));
        let content = reply.body_content();
        let want = serde_json::from_str::<Value>(&content).ok();
        MockReply::json_for(req, &decode(&schema, want.as_ref(), &mut rng, poor))
    }
}

/// A value `schema` allows: `want` where the schema allows it, else (and
/// with the chance `poor` anyway) one drawn from what it allows. Covers
/// the keywords hearth's schemas use (`crate::llm::schema::KEYWORDS`).
pub fn decode(schema: &Value, want: Option<&Value>, rng: &mut impl rand::Rng, poor: f64) -> Value {
    use crate::llm::schema::{Pattern, validate};
    let want = if rng.random_bool(poor) { None } else { want };
    if let Some(forms) = schema.get("anyOf").and_then(Value::as_array) {
        let form = match want.and_then(|w| forms.iter().find(|f| validate(f, w).is_empty())) {
            Some(f) => f,
            None => &forms[rng.random_range(0..forms.len())],
        };
        return decode(form, want, rng, poor);
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        return match want {
            Some(w) if options.contains(w) => w.clone(),
            _ => options[rng.random_range(0..options.len())].clone(),
        };
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => vec!["null"],
    };
    let kind_of = |v: &Value| match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let ty = match want.map(kind_of) {
        Some(k) if types.contains(&k) => k,
        Some("integer") if types.contains(&"number") => "number",
        _ => types[rng.random_range(0..types.len())],
    };
    let want = want.filter(
        |w| matches!((kind_of(w), ty), (a, b) if a == b || (a == "integer" && b == "number")),
    );
    let bound = |k: &str| schema.get(k).and_then(Value::as_f64);
    match ty {
        "null" => Value::Null,
        "boolean" => want
            .cloned()
            .unwrap_or_else(|| Value::Bool(rng.random_bool(0.5))),
        "integer" | "number" => {
            let lo = bound("minimum").unwrap_or(0.0);
            let hi = bound("maximum").unwrap_or(lo + 3600.0).min(lo + 3600.0);
            let n = want.and_then(Value::as_f64).map_or_else(
                || rng.random_range(lo as i64..=hi as i64) as f64,
                |n| n.clamp(lo, hi),
            );
            if ty == "integer" || n.fract() == 0.0 {
                json!(n as i64)
            } else {
                json!(n)
            }
        }
        "string" => {
            let pattern = schema
                .get("pattern")
                .and_then(Value::as_str)
                .and_then(Pattern::of);
            let text = match (want.and_then(Value::as_str), pattern) {
                (Some(w), Some(p)) if p.matches(w) => w.to_string(),
                (_, Some(p)) => p.sample(rng),
                (Some(w), None) => w.to_string(),
                (None, None) => {
                    ["", "ok", "something", "the thing, later"][rng.random_range(0..4)].to_string()
                }
            };
            let max = schema
                .get("maxLength")
                .and_then(Value::as_u64)
                .unwrap_or(u64::MAX);
            Value::String(text.chars().take(max as usize).collect())
        }
        "array" => {
            let items = schema.get("items").cloned().unwrap_or(Value::Null);
            let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let max = schema.get("maxItems").and_then(Value::as_u64).unwrap_or(8) as usize;
            let mut out: Vec<Value> = match want.and_then(Value::as_array) {
                Some(a) => a
                    .iter()
                    .map(|x| decode(&items, Some(x), rng, poor))
                    .collect(),
                None => {
                    let n = rng.random_range(min..=max.min(min + 3).max(min));
                    (0..n).map(|_| decode(&items, None, rng, poor)).collect()
                }
            };
            while out.len() < min {
                out.push(decode(&items, None, rng, poor));
            }
            out.truncate(max);
            Value::Array(out)
        }
        _ => {
            let props = schema.get("properties").and_then(Value::as_object);
            Value::Object(
                props
                    .into_iter()
                    .flatten()
                    .map(|(k, s)| (k.clone(), decode(s, want.and_then(|w| w.get(k)), rng, poor)))
                    .collect(),
            )
        }
    }
}

/// A stand-in household LLM that injects errors: one step per call, each
/// actor first naming an id that does not exist, the director an actor
/// the scene does not have, and "done" in a call of its own; so every turn
/// exercises re-asks and the closed loop.
pub fn stepwise(
    scene: &crate::scene::Scene,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    let h = Household::new(scene, Style::Stepwise);
    move |req: &MockRequest| h.answer(req)
}

/// A stand-in for a small model behind a grammar-constrained server
/// (llama.cpp, Ollama): the household's replies, always well-formed, but
/// in every item the numbers out of bounds (days 0 and 99, waits of 0 s)
/// and the names slightly off (`Alice`, `P1`, `Meal Preparation`,
/// `sofa_1_area`), on re-asks too. Everything in them is usable after
/// repair.
pub fn grammar(
    scene: &crate::scene::Scene,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    let h = Household::new(scene, Style::Sensible);
    move |req: &MockRequest| {
        h.answer(req).map_content(|c| {
            let Ok(mut v) = serde_json::from_str::<Value>(c) else {
                return c.to_string();
            };
            off_by_a_little(&mut v, "");
            v.to_string()
        })
    }
}

/// `Meal Preparation` for `meal_preparation`, `Alice` for `alice`.
fn title_case(s: &str) -> String {
    s.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Puts every number and name of a reply slightly out of the schema.
fn off_by_a_little(v: &mut Value, key: &str) {
    match v {
        Value::Object(o) => o.iter_mut().for_each(|(k, x)| off_by_a_little(x, k)),
        Value::Array(a) => a.iter_mut().for_each(|x| off_by_a_little(x, key)),
        Value::Number(_) => {
            *v = match key {
                "start_day" | "seconds" => json!(0),
                "end_day" => json!(99),
                _ => v.clone(),
            }
        }
        Value::String(s) => {
            *v = json!(match key {
                "kind" | "memory_targets" | "participants" | "actor" | "to" | "beat" | "skill" => {
                    title_case(s)
                }
                "project" => s.to_uppercase(),
                "target" | "entities" | "object" | "device" => format!("{s}_area"),
                _ => return,
            })
        }
        _ => {}
    }
}

/// A stand-in for a model that never answers usably: prose, whatever it
/// is asked.
pub fn unusable() -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    |_: &MockRequest| MockReply::content("I am sorry, I cannot help with that.")
}

/// What real servers and small models do, injected into a handler's
/// replies by [`with_fault`]. Faults in content apply to first asks only:
/// a re-ask gets the handler's own reply.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fault {
    /// `json_schema` refused with this status (500, 422, ...), the body
    /// naming the response format.
    RefuseSchema(u16),
    /// Raw newlines and tabs inside the reply's strings.
    ControlChars,
    /// The JSON in a code fence, with prose around it and trailing commas.
    Fenced,
    /// Sessions name a person the home does not have, the director's
    /// intention a thing it does not have, actors an invented target.
    InventedIds,
    /// A session with no participants, and one starting at 25:30.
    EmptyParticipants,
    /// Every `every`-th request waits `delay` before answering.
    Stall { every: usize, delay: Duration },
    /// `stage` never answers with JSON.
    Garbage(&'static str),
}

/// `handler` with `fault` injected.
pub fn with_fault(
    handler: impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static,
    fault: Fault,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    move |req: &MockRequest| {
        let stage = req.stage();
        match fault {
            Fault::RefuseSchema(status) if req.format() == "json_schema" => {
                return MockReply::status(
                    status,
                    "{\"error\":{\"message\":\"response_format: json_schema is not supported by this server\"}}",
                );
            }
            Fault::Garbage(s) if s == stage => {
                return MockReply::content("I am sorry, I cannot help with that.");
            }
            Fault::Stall { every, delay } if every > 0 && req.n % every == every - 1 => {
                return handler(req).after(delay);
            }
            _ => {}
        }
        let reply = handler(req);
        if req.is_reask() {
            return reply;
        }
        reply.map_content(|c| {
            let Ok(mut v) = serde_json::from_str::<Value>(c) else {
                return c.to_string();
            };
            match fault {
                Fault::ControlChars => {
                    for k in ["summary", "intent", "title", "intention", "text"] {
                        strings_named(&mut v, k, &mut |s| {
                            *s = format!("{s}\nsecond line\twith a tab")
                        });
                    }
                    // Serialized escapes become the raw characters a small
                    // model writes.
                    return v.to_string().replace("\\n", "\n").replace("\\t", "\t");
                }
                Fault::Fenced => {
                    let body = v.to_string().replacen('}', ",}", 1).replacen(']', ",]", 1);
                    return format!("Sure! Here is the JSON:\n```json\n{body}\n```\nLet me know.");
                }
                Fault::InventedIds => match stage.as_str() {
                    "sessions" => v["sessions"][0]["participants"][0] = json!("grandma_9"),
                    "director" => {
                        v["turns"][0]["intention"] = json!("bring the cake_tin_4 over here")
                    }
                    "actor" => {
                        if let Some(s) = v["steps"].get_mut(0) {
                            s["target"] = json!("sofa_9");
                            s["skill"] = json!("navigate_to");
                        }
                    }
                    _ => {}
                },
                Fault::EmptyParticipants if stage == "sessions" => {
                    v["sessions"][1]["participants"] = json!([]);
                    v["sessions"][2]["start"] = json!("25:30");
                }
                _ => {}
            }
            v.to_string()
        })
    }
}

/// Applies `f` to every string under a key named `key`, at any depth.
fn strings_named(v: &mut Value, key: &str, f: &mut dyn FnMut(&mut String)) {
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                match x {
                    Value::String(s) if k == key => f(s),
                    x => strings_named(x, key, f),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| strings_named(x, key, f)),
        _ => {}
    }
}
