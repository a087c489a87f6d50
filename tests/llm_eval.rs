//! The LLM answerer and judge against servers that misbehave as real ones
//! do: one that serves a request at a time and lets the rest wait (auto
//! concurrency keeps them from timing out), a model that loops inside a
//! string (the token cap stops it, that question fails alone and the rest
//! are scored), a rerun that replays from the cache byte for byte, and a
//! server that reports its slots.

mod common;

use std::fs;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use hearth::llm::mock::{MockReply, MockRequest, MockServer, household};
use hearth::llm::oneshot::{self, PassEvent, complete_all};
use hearth::llm::{LlmClient, LlmConfig};
use serde_json::json;

fn scene() -> hearth::scene::Scene {
    hearth::scene::parse("family_apartment", hearth::scene::default_source()).unwrap()
}

fn answer_calls(n: usize) -> Vec<hearth::llm::Call> {
    (0..n)
        .map(|i| oneshot::call("answer", format!("Question {i}: where is the mug?"), 0))
        .collect()
}

fn client(url: &str, auto: bool, concurrency: usize) -> Arc<LlmClient> {
    let mut c = LlmConfig::new(url, "mock");
    c.timeout = Duration::from_millis(1000);
    c.retries = 0;
    c.auto_concurrency = auto;
    c.concurrency = concurrency;
    LlmClient::new(c).unwrap()
}

#[test]
fn auto_concurrency_keeps_a_one_at_a_time_server_from_timing_out() {
    let server = MockServer::with_slots(1, |_| {
        MockReply::json(&json!({"answer": "on the shelf"})).after(Duration::from_millis(300))
    });
    // Four in flight: the fourth waits three replies (0.9 s) and its own
    // past the 1 s timeout; with no retries left, it fails.
    let fixed = complete_all(&client(&server.url, false, 4), answer_calls(8), &mut |_| {}).unwrap();
    let timed_out = fixed.iter().filter(|d| d.value.is_err()).count();
    assert!(timed_out > 0, "four in flight on one slot must time out");
    assert!(
        fixed
            .iter()
            .filter_map(|d| d.value.as_ref().err())
            .all(|e| e.to_string().contains("timed out"))
    );
    // Auto: one at a time (a trial of two would queue 0.6 s of a 1 s
    // timeout, so none is made); every reply comes back.
    let c = client(&server.url, true, 8);
    let mut events = Vec::new();
    let started = Instant::now();
    let auto = complete_all(&c, answer_calls(12), &mut |e| {
        events.push(matches!(e, PassEvent::Replied { ok: true }))
    })
    .unwrap();
    assert!(auto.iter().all(|d| d.value.is_ok()));
    assert_eq!((c.stats().timeouts, c.concurrency()), (0, 1));
    // A start and one event per reply, for the progress bar.
    assert_eq!(events.len(), 13);
    assert!(started.elapsed() >= Duration::from_millis(12 * 300));
    // Every call carried its cap and a bounded string.
    let r = &server.requests()[0];
    assert_eq!(r.body["max_tokens"], json!(oneshot::max_tokens("answer")));
    assert_eq!(r.bound("answer", "maxLength"), Some(&json!(300)));
}

#[test]
fn a_server_reporting_its_slots_gets_that_many_in_flight() {
    let props = [("/props", json!({"total_slots": 3}))];
    let server = MockServer::serving(3, &props, |_: &MockRequest| {
        MockReply::json(&json!({"answer": "x"})).after(Duration::from_millis(100))
    });
    let c = client(&server.url, true, 8);
    let done = complete_all(&c, answer_calls(9), &mut |_| {}).unwrap();
    assert!(done.iter().all(|d| d.value.is_ok()));
    assert_eq!(c.concurrency(), 3);
    // Without `/props` (404) it starts at one.
    let server = MockServer::start(|_: &MockRequest| MockReply::json(&json!({"answer": "x"})));
    let c = client(&server.url, true, 8);
    complete_all(&c, answer_calls(2), &mut |_| {}).unwrap();
    assert_eq!(c.concurrency(), 1);
}

/// A model that loops inside the answer string of every question whose
/// words have an even length: it writes until the cap stops it, so the
/// reply is cut off (and without a cap would never end).
fn looping(req: &MockRequest) -> MockReply {
    let sc = scene();
    let question = req
        .text()
        .split("Question: ")
        .nth(1)
        .and_then(|r| r.lines().next())
        .unwrap_or_default()
        .to_string();
    if req.stage() != "answer" || question.len() % 2 == 1 {
        return household(&sc)(req);
    }
    match req.body["max_tokens"].as_u64() {
        Some(cap) => MockReply::finished(
            &format!("{{\"answer\": \"{}", "la ".repeat(cap as usize)),
            "length",
        ),
        None => MockReply::json(&json!({"answer": "never"})).after(Duration::from_secs(3600)),
    }
}

#[test]
fn a_looping_reply_is_capped_fails_its_question_only_and_replays() {
    let server = MockServer::start(looping);
    let t = tmp();
    let trace = t.path().join("tr");
    hearth(&["generate", "--days", "1", "--out", s(&trace)]).ok();
    hearth(&["mine", "--trace", s(&trace)]).ok();
    let cache = t.path().join("cache");
    let eval = |out: &str, backend: &str, url: &str| {
        hearth(&[
            "eval",
            "--trace",
            s(&trace),
            "--agent",
            "bm25",
            "--answerer",
            "llm",
            "--judge",
            "--backend",
            backend,
            "--llm-url",
            url,
            "--llm-cache",
            s(&cache),
            "--llm-timeout",
            "20",
            "--out",
            s(&t.path().join(out)),
        ])
    };
    let started = Instant::now();
    eval("live.json", "openai", &server.url)
        .ok()
        .stderr_has("the LLM answerer: stage answer: no valid reply after 3 tries; last: the reply was cut off")
        .stdout_has("answer failed");
    assert!(started.elapsed() < Duration::from_secs(120));
    let r: Vec<hearth::eval::Report> =
        serde_json::from_slice(&fs::read(t.path().join("live.json")).unwrap()).unwrap();
    let qs = &r[0].questions;
    let failed: Vec<_> = qs.iter().filter(|q| q.error.is_some()).collect();
    assert!(
        !failed.is_empty() && failed.len() < qs.len(),
        "{} of {}",
        failed.len(),
        qs.len()
    );
    assert_eq!(r[0].errors, failed.len());
    // A failed answer leaves no words and scores 0 without a judge call;
    // the others are answered and judged.
    for q in &failed {
        assert!(
            q.error.as_ref().unwrap().contains("cut off"),
            "{:?}",
            q.error
        );
        assert_eq!((q.text.as_str(), q.judge), ("", Some(0)));
    }
    assert!(
        qs.iter()
            .filter(|q| q.error.is_none())
            .all(|q| q.text.starts_with("From the records:") && q.judge.is_some())
    );
    // No judge call grades an empty answer (identical calls share one
    // request, so there may be fewer requests than questions; the judge's
    // audit grades answers of its own).
    let judged = qs.len() - failed.len();
    let grading: Vec<String> = server
        .requests()
        .iter()
        .filter(|r| r.stage() == "judge")
        .map(|r| r.text())
        .collect();
    let graded = grading
        .iter()
        .filter(|t| t.contains("Answer to grade: From the records:"));
    assert!((1..=judged).contains(&graded.count()));
    assert!(grading.iter().all(|t| !t.contains("Answer to grade: \n")));
    // The passes' recorded cost is in the report.
    let answer = r[0].llm["answer"];
    assert_eq!(
        (answer.calls, answer.skipped),
        (qs.len() as u64, failed.len() as u64)
    );
    assert!(answer.completion_tokens > 0 && r[0].llm["judge"].calls == judged as u64);
    let cost: serde_json::Value =
        serde_json::from_slice(&fs::read(t.path().join("live-cost.json")).unwrap()).unwrap();
    assert!(cost[0]["llm_seconds"]["judge"].as_f64().is_some(), "{cost}");
    // A rerun reuses the cache (failures included): the same bytes,
    // through the server or offline.
    let asked = server.requests().len();
    eval("again.json", "openai", &server.url).ok();
    assert_eq!(server.requests().len(), asked);
    drop(server);
    eval("replayed.json", "replay", "http://127.0.0.1:9/v1").ok();
    let live = fs::read(t.path().join("live.json")).unwrap();
    assert_eq!(live, fs::read(t.path().join("again.json")).unwrap());
    assert_eq!(live, fs::read(t.path().join("replayed.json")).unwrap());
}

#[test]
fn the_concurrency_flag_takes_auto_or_a_number() {
    let t = tmp();
    let trace = t.path().join("tr");
    hearth(&["generate", "--days", "1", "--out", s(&trace)]).ok();
    hearth(&["mine", "--trace", s(&trace)]).ok();
    for bad in ["0", "many", "257"] {
        hearth(&[
            "eval",
            "--trace",
            s(&trace),
            "--judge",
            "--llm-concurrency",
            bad,
        ])
        .fails()
        .stderr_has("--llm-concurrency is `auto` or a number from 1 to 256");
    }
}
