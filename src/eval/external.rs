//! External agents over JSON lines on stdin/stdout (`--agent cmd:"..."`).
//!
//! hearth writes one JSON object per line: `{"type":"reset","scene":...}`,
//! then `{"type":"observe","observation":{...}}` per perceived event, and
//! `{"type":"question",...}` (words and options; the parsed `query` only
//! with `--give-query`) or `{"type":"plan",...}`, to which the agent
//! answers with one line: `{"answer":...,"text":...,"evidence":[...]}` or
//! `{"plan":[requests]}`. A crash, a garbled reply or a timeout fails that
//! sample only: the agent is restarted and fed its history again.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError};
use serde::Deserialize;
use serde_json::json;

use crate::scene::Scene;
use crate::trace::request::Request;

use super::agent::{Agent, AgentError, Observation, QuestionIn, Reply, TaskIn};

pub struct External {
    command: String,
    timeout: Duration,
    proc: Option<(Child, ChildStdin, Receiver<String>)>,
    /// Everything sent since the last reset, to bring a restarted agent back.
    history: Vec<String>,
    /// Whether questions carry the parsed query (`--give-query`).
    give_query: bool,
}

#[derive(Deserialize)]
struct PlanReply {
    plan: Vec<serde_json::Value>,
}

impl External {
    pub fn new(command: &str, timeout: Duration) -> Self {
        External {
            command: command.into(),
            timeout,
            proc: None,
            history: vec![],
            give_query: false,
        }
    }

    /// Also sends each question as data (`query`, and plan goals' `from`):
    /// the upper bound of perfect parsing. By default an agent gets words.
    pub fn with_query(mut self) -> Self {
        self.give_query = true;
        self
    }

    fn start(&mut self) -> Result<(), AgentError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| AgentError::Crashed(format!("cannot start {:?}: {e}", self.command)))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = crossbeam_channel::unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.proc = Some((child, stdin, rx));
        let lines = std::mem::take(&mut self.history);
        for l in &lines {
            self.write(l)?;
        }
        self.history = lines;
        Ok(())
    }

    fn stop(&mut self) {
        if let Some((mut child, _, _)) = self.proc.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn write(&mut self, line: &str) -> Result<(), AgentError> {
        if self.proc.is_none() {
            self.start()?;
        }
        let (_, stdin, _) = self.proc.as_mut().expect("started");
        if stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .is_err()
        {
            let why = self.exit_status();
            self.stop();
            return Err(AgentError::Crashed(why));
        }
        Ok(())
    }

    fn exit_status(&mut self) -> String {
        match self.proc.as_mut().map(|(c, _, _)| c.try_wait()) {
            Some(Ok(Some(status))) => status.to_string(),
            _ => "its input closed".into(),
        }
    }

    /// Sends a request line and waits for one reply line.
    fn ask(&mut self, line: String) -> Result<String, AgentError> {
        // Lines printed out of turn would answer the wrong question.
        if let Some((_, _, rx)) = &self.proc {
            while rx.try_recv().is_ok() {}
        }
        self.write(&line)?;
        let rx = self.proc.as_ref().expect("started").2.clone();
        match rx.recv_timeout(self.timeout) {
            Ok(reply) => Ok(reply),
            Err(RecvTimeoutError::Timeout) => {
                // A late reply would answer the wrong question: start over.
                self.stop();
                Err(AgentError::Timeout(self.timeout.as_secs()))
            }
            Err(RecvTimeoutError::Disconnected) => {
                std::thread::sleep(Duration::from_millis(20));
                let why = self.exit_status();
                self.stop();
                Err(AgentError::Crashed(why))
            }
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.stop();
    }
}

fn garbage(line: &str, e: impl std::fmt::Display) -> AgentError {
    let shown: String = line.chars().take(120).collect();
    AgentError::Garbage(format!("{e} in {shown:?}"))
}

// The protocol's messages, one function each, so that every way of
// feeding an agent (a program over pipes, an object in the same process)
// sends the same JSON.

/// `{"type":"reset","scene":id,"scene_ron":text}`: a new trace starts.
/// The scene is the house as the robot knows it before it looks: rooms,
/// doors, furniture, devices and people, without the objects, which it
/// learns by seeing them (the list would say which things the house lacks,
/// so which questions have no answer, and where each thing began).
pub fn reset_message(scene: &Scene) -> serde_json::Value {
    let known = Scene {
        objects: vec![],
        ..scene.clone()
    };
    json!({"type": "reset", "scene": scene.id, "scene_ron": crate::scene::to_ron(&known)})
}

/// `{"type":"observe","observation":{...}}`: the next perceived event.
pub fn observe_message(o: &Observation) -> serde_json::Value {
    json!({"type": "observe", "observation": o})
}

/// The question with `"type":"question"`.
pub fn question_message(q: &QuestionIn) -> serde_json::Value {
    let mut v = serde_json::to_value(q).expect("questions serialize");
    v["type"] = json!("question");
    v
}

/// The task with `"type":"plan"`.
pub fn plan_message(t: &TaskIn) -> serde_json::Value {
    let mut v = serde_json::to_value(t).expect("tasks serialize");
    v["type"] = json!("plan");
    v
}

/// An answer line: `{"answer":...,"text":...,"evidence":[...]}`.
pub fn parse_reply(line: &str) -> Result<Reply, AgentError> {
    serde_json::from_str(line).map_err(|e| garbage(line, e))
}

/// A plan line: `{"plan":[requests]}`.
pub fn parse_plan(line: &str) -> Result<Vec<Request>, AgentError> {
    let reply: PlanReply = serde_json::from_str(line).map_err(|e| garbage(line, e))?;
    reply
        .plan
        .iter()
        .map(|r| Request::from_json(&r.to_string()).map_err(|e| garbage(line, e)))
        .collect()
}

impl Agent for External {
    fn name(&self) -> String {
        format!("cmd:{}", self.command)
    }

    fn parsed_query(&self) -> bool {
        self.give_query
    }

    fn reset(&mut self, scene: &Scene) -> Result<(), AgentError> {
        self.stop();
        self.history.clear();
        let line = reset_message(scene).to_string();
        self.write(&line)?;
        self.history.push(line);
        Ok(())
    }

    fn observe(&mut self, o: &Observation) -> Result<(), AgentError> {
        let line = observe_message(o).to_string();
        self.history.push(line.clone());
        // A crash here shows at the next question, which restarts the agent
        // with its history: only that question fails.
        if self.proc.is_some() && self.write(&line).is_err() {
            tracing::debug!("{}: the agent died while observing", self.command);
        }
        Ok(())
    }

    fn answer(&mut self, q: &QuestionIn) -> Result<Reply, AgentError> {
        let line = self.ask(question_message(q).to_string())?;
        parse_reply(&line)
    }

    fn plan(&mut self, t: &TaskIn) -> Result<Vec<Request>, AgentError> {
        let line = self.ask(plan_message(t).to_string())?;
        parse_plan(&line)
    }
}
