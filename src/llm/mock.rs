//! A small OpenAI-compatible server on 127.0.0.1 with scripted replies and
//! fault injection (status codes, `Retry-After`, delays, broken bodies),
//! for the test suite and `hearth bench`. Plain HTTP/1.1, a thread per
//! connection.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};

/// A request the server received.
#[derive(Debug, Clone)]
pub struct MockRequest {
    /// 0-based arrival number.
    pub n: usize,
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

pub struct MockServer {
    pub url: String,
    log: Arc<Mutex<Vec<MockRequest>>>,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

impl MockServer {
    /// Starts a server on a free port; `handler` answers every request.
    pub fn start(handler: impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free local port");
        listener.set_nonblocking(true).expect("non-blocking accept");
        let url = format!("http://{}/v1", listener.local_addr().expect("bound"));
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let count = Arc::new(AtomicUsize::new(0));
        let (log2, stop2) = (Arc::clone(&log), Arc::clone(&stop));
        let accept = std::thread::spawn(move || {
            while !stop2.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let (h, l, c) =
                            (Arc::clone(&handler), Arc::clone(&log2), Arc::clone(&count));
                        std::thread::spawn(move || serve(stream, &*h, &l, &c));
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

fn serve(stream: TcpStream, handler: &Handler, log: &Mutex<Vec<MockRequest>>, count: &AtomicUsize) {
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
        let req = MockRequest {
            n: count.fetch_add(1, Ordering::SeqCst),
            headers,
            body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        };
        log.lock().expect("log lock").push(req.clone());
        let reply = handler(&req);
        std::thread::sleep(reply.delay);
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

/// A stand-in household LLM: answers every generation stage with small,
/// valid replies built from the scene, for the tests, the benchmark and
/// trying the LLM path offline. Each actor first names an id that does not
/// exist, learns a real one from the executor's hint, walks there, and is
/// done; so every turn exercises the closed loop.
pub fn household(
    scene: &crate::scene::Scene,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    use crate::generation::{MemoryTarget, ProjectType};
    let humans: Vec<String> = scene
        .actors
        .iter()
        .filter(|a| a.kind == crate::scene::ActorKind::Human)
        .map(|a| a.id.to_string())
        .collect();
    let robot = scene
        .robots()
        .first()
        .map(|r| r.to_string())
        .unwrap_or_default();
    let place = scene
        .furniture
        .first()
        .map(|f| f.id.to_string())
        .unwrap_or_default();
    let kinds: Vec<Value> = ProjectType::ALL
        .iter()
        .map(|k| serde_json::to_value(k).expect("enum"))
        .collect();
    let targets: Vec<Value> = MemoryTarget::ALL
        .iter()
        .map(|k| serde_json::to_value(k).expect("enum"))
        .collect();
    move |req: &MockRequest| {
        let text = req.text();
        let h0 = humans.first().cloned().unwrap_or_else(|| robot.clone());
        let reply = match req.stage().as_str() {
            "projects" => {
                json!({"projects": kinds.iter().zip(&targets).enumerate().map(|(i, (k, t))| json!({
                "id": format!("p{}", i + 1), "kind": k, "title": format!("thread {}", i + 1),
                "participants": [h0, robot], "entities": [place], "memory_targets": [t],
                "start_day": 1, "end_day": 30, "constraints": []
            })).collect::<Vec<_>>()})
            }
            "day_beats" => json!({"beats": (1..=8).map(|i| json!({
                "project": format!("p{i}"), "beat": "continued", "summary": "goes on"
            })).collect::<Vec<_>>()}),
            "sessions" => json!({"sessions": [
                {"start": "08:00", "kind": "breakfast", "project": "p1", "intent": "breakfast", "participants": [h0, robot]},
                {"start": "12:30", "kind": "lunch", "project": null, "intent": "lunch", "participants": [h0]},
                {"start": "19:00", "kind": "evening", "project": "p8", "intent": "an evening in", "participants": [h0, robot]}
            ]}),
            "director" => json!({"turns": [
                {"actor": h0, "intention": format!("walk over to {place}")},
                {"actor": robot, "intention": format!("go to {place} and say hello")},
                {"actor": "nobody_7", "intention": "an actor the scene does not have"}
            ]}),
            "actor" => {
                let history = text
                    .split("What you have done this turn:")
                    .nth(1)
                    .and_then(|r| r.split("Choose your next step").next())
                    .unwrap_or("");
                let walked =
                    history.contains("navigate_to") || text.contains("rejected (already_there)");
                let me = text
                    .split("You are ")
                    .nth(1)
                    .and_then(|r| r.split(' ').next())
                    .unwrap_or("");
                if text.contains("rejected (unknown_entity)") && !walked {
                    json!({"action": "act", "skill": "navigate_to", "target": place, "object": null, "relation": null,
                        "device": null, "field": null, "value": null, "to": null, "text": null, "seconds": null, "reason": null})
                } else if walked && me == robot && !history.contains("\"say\"") {
                    json!({"action": "act", "skill": "say", "target": null, "object": null, "relation": null,
                        "device": null, "field": null, "value": null, "to": [], "text": "Hello!", "seconds": null, "reason": null})
                } else if walked {
                    json!({"action": "done", "skill": null, "target": null, "object": null, "relation": null,
                        "device": null, "field": null, "value": null, "to": null, "text": null, "seconds": null, "reason": null})
                } else {
                    json!({"action": "act", "skill": "navigate_to", "target": "kitchen_table_9", "object": null, "relation": null,
                        "device": null, "field": null, "value": null, "to": null, "text": null, "seconds": null, "reason": null})
                }
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
        MockReply::json(&reply)
    }
}
