//! The server itself: a listener on a free port, a thread per
//! connection, an optional bound on requests served at once (slots), the
//! log of what it received.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::Value;

use super::messages::{MockReply, MockRequest};

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
