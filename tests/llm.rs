//! The LLM backend against a local mock OpenAI-compatible server: the
//! closed loop, record then replay (same bytes), faults (429 with
//! Retry-After, 500, stalls, broken JSON, schema violations, refused
//! structured output), the API key never written, and the CLI.

mod common;

use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::*;
use hearth::jobs::{BackendSpec, generate_trace};
use hearth::llm::mock::{MockReply, MockServer, household};
use hearth::llm::{Call, LlmClient, LlmConfig, LlmError, Message};
use hearth::store::read_trace;
use serde_json::{Value, json};

const KEY: &str = "sk-test-SECRET-4242";

fn scene() -> hearth::scene::Scene {
    hearth::scene::parse("family_apartment", hearth::scene::default_source()).unwrap()
}

fn config(url: &str, cache: Option<&Path>) -> LlmConfig {
    let mut c = LlmConfig::new(url, "mock-model");
    c.backoff = Duration::from_millis(10);
    c.timeout = Duration::from_secs(5);
    c.cache = cache.map(Path::to_path_buf);
    c.key = Some(KEY.into());
    c
}

fn small_call(seed: u64) -> Call {
    Call {
        stage: "test".into(),
        messages: vec![Message::user("give me a number")],
        schema_name: "number".into(),
        schema: json!({"type": "object", "additionalProperties": false, "required": ["n"],
                       "properties": {"n": {"type": "integer", "minimum": 0}}}),
        seed,
    }
}

/// Every file under `dir`, concatenated, to search for secrets.
fn all_bytes(dir: &Path) -> Vec<u8> {
    let mut out = Vec::new();
    if let Ok(rd) = fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(all_bytes(&p));
            } else {
                out.extend(fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[test]
fn generation_closes_the_loop_and_replays_byte_identical() {
    let s = scene();
    let server = MockServer::start(household(&s));
    let t = tmp();
    let cache = t.path().join("cache");
    let client = LlmClient::new(config(&server.url, Some(&cache))).unwrap();
    let live = t.path().join("live");
    let summary =
        generate_trace(&s, 2, 7, &BackendSpec::Llm(client.clone()), &live, false).unwrap();
    assert!(summary.counts.events > 10, "{:?}", summary.counts);
    let trace = read_trace(&live).unwrap();
    assert_eq!(trace.manifest.backend, "openai");
    assert_eq!(trace.manifest.model.as_deref(), Some("mock-model"));
    assert_eq!(
        trace.manifest.prompt_hashes.len(),
        hearth::llm::backend::PROMPTS.len()
    );
    // Invented ids are rejected with the nearest real ones, then corrected.
    let rejected: Vec<_> = trace
        .events
        .iter()
        .filter_map(|e| e.outcome.rejection())
        .collect();
    assert!(!rejected.is_empty());
    assert!(
        rejected.iter().all(
            |r| (r.code == "unknown_entity" && r.hint.contains("closest"))
                || r.code == "already_there"
        ),
        "{rejected:#?}"
    );
    let corrected = trace.events.windows(2).any(|w| {
        w[0].outcome
            .rejection()
            .is_some_and(|r| r.code == "unknown_entity")
            && w[1].actor == w[0].actor
            && w[1].outcome.is_ok()
            && w[1].action.skill_name() == "navigate_to"
    });
    assert!(
        corrected,
        "an invented id is followed by the corrected step"
    );
    assert!(
        trace
            .events
            .iter()
            .any(|e| e.outcome.is_ok() && e.action.skill_name() == "say")
    );
    // The director's made-up actor never acts.
    assert!(trace.events.iter().all(|e| e.actor.as_str() != "nobody_7"));
    // Every request carried the key, in the header only.
    let reqs = server.requests();
    assert!(
        reqs.iter()
            .all(|r| r.header("authorization") == Some(&format!("Bearer {KEY}")))
    );
    assert!(reqs.iter().all(|r| !r.body.to_string().contains(KEY)));
    let stats = client.stats();
    assert_eq!(stats.requests as usize, reqs.len());

    // Replay: offline (the server is gone), the same bytes.
    drop(server);
    let mut c = config("http://127.0.0.1:9/v1", Some(&cache));
    c.replay = true;
    let replayer = LlmClient::new(c).unwrap();
    let again = t.path().join("again");
    generate_trace(&s, 2, 7, &BackendSpec::Llm(replayer.clone()), &again, false).unwrap();
    for f in [
        "events.jsonl",
        "plan.json",
        "notes.jsonl",
        "manifest.json",
        "scene.ron",
    ] {
        assert_eq!(
            fs::read(live.join(f)).unwrap(),
            fs::read(again.join(f)).unwrap(),
            "{f} differs in replay"
        );
    }
    assert_eq!(replayer.stats().requests, 0);
    // No file hearth wrote holds the key.
    for dir in [&live, &again, &cache] {
        assert!(
            !contains(&all_bytes(dir), KEY),
            "the key leaked into {}",
            dir.display()
        );
    }
    // A different seed is not in the cache: a clear error naming the stage,
    // and no trace left behind.
    let missing = t.path().join("missing");
    let err = generate_trace(&s, 2, 8, &BackendSpec::Llm(replayer), &missing, false)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("stage projects") && err.contains("no recorded exchange"),
        "{err}"
    );
    assert!(!missing.exists());
    assert_no_temp(t.path());
}

#[test]
fn retries_honour_retry_after_and_recover_from_server_errors() {
    let n = Arc::new(AtomicUsize::new(0));
    let n2 = Arc::clone(&n);
    let server = MockServer::start(move |_| match n2.fetch_add(1, Ordering::SeqCst) {
        0 => MockReply::status(429, "{\"error\":\"slow down\"}").with_header("Retry-After", "1"),
        1 => MockReply::status(500, "oops"),
        2 => MockReply::status(503, "<html>busy</html>"),
        _ => MockReply::json(&json!({"n": 3})),
    });
    let client = LlmClient::new(config(&server.url, None)).unwrap();
    let started = Instant::now();
    assert_eq!(
        client.complete_blocking(small_call(1)).unwrap(),
        json!({"n": 3})
    );
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After was not honoured"
    );
    assert_eq!(client.stats().retries, 3);
    // Out of retries: the last error, clearly.
    let server = MockServer::start(|_| MockReply::status(500, "still broken"));
    let mut c = config(&server.url, None);
    c.retries = 2;
    let err = LlmClient::new(c)
        .unwrap()
        .complete_blocking(small_call(1))
        .unwrap_err();
    assert!(matches!(err, LlmError::Http { status: 500, .. }), "{err}");
    assert_eq!(server.requests().len(), 3);
    // A 401 is not retried.
    let server = MockServer::start(|_| MockReply::status(401, "bad key"));
    let err = LlmClient::new(config(&server.url, None))
        .unwrap()
        .complete_blocking(small_call(1))
        .unwrap_err();
    assert!(err.to_string().contains("401"), "{err}");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_stalled_reply_times_out_and_is_retried() {
    let n = Arc::new(AtomicUsize::new(0));
    let n2 = Arc::clone(&n);
    let server = MockServer::start(move |_| {
        if n2.fetch_add(1, Ordering::SeqCst) == 0 {
            MockReply::json(&json!({"n": 1})).after(Duration::from_secs(3))
        } else {
            MockReply::json(&json!({"n": 2}))
        }
    });
    let mut c = config(&server.url, None);
    c.timeout = Duration::from_millis(500);
    let started = Instant::now();
    assert_eq!(
        LlmClient::new(c)
            .unwrap()
            .complete_blocking(small_call(1))
            .unwrap(),
        json!({"n": 2})
    );
    assert!(started.elapsed() < Duration::from_secs(3));
    // With no retries left, the timeout is the error.
    let server =
        MockServer::start(|_| MockReply::json(&json!({"n": 1})).after(Duration::from_secs(3)));
    let mut c = config(&server.url, None);
    c.timeout = Duration::from_millis(300);
    c.retries = 0;
    let err = LlmClient::new(c)
        .unwrap()
        .complete_blocking(small_call(1))
        .unwrap_err();
    assert!(err.to_string().contains("timed out"), "{err}");
}

#[test]
fn broken_and_schema_breaking_replies_are_re_asked_then_refused() {
    let n = Arc::new(AtomicUsize::new(0));
    let n2 = Arc::clone(&n);
    let server = MockServer::start(move |_| match n2.fetch_add(1, Ordering::SeqCst) {
        0 => MockReply::content("{\"n\": 3"),
        1 => MockReply::json(&json!({"n": -1})),
        _ => MockReply::content("```json\n{\"n\": 5}\n```"),
    });
    let client = LlmClient::new(config(&server.url, None)).unwrap();
    assert_eq!(
        client.complete_blocking(small_call(1)).unwrap(),
        json!({"n": 5})
    );
    assert_eq!(client.stats().reasks, 2);
    let reqs = server.requests();
    // The re-ask tells the model what was wrong.
    assert!(reqs[1].text().contains("not JSON"));
    assert!(reqs[2].text().contains("below the minimum"));
    // Always wrong: refused after the re-asks, with the last reason.
    for bad in [
        MockReply::json(&json!({"m": 1})),
        MockReply::content(""),
        MockReply::finished("{\"n\":", "length"),
        MockReply::status(200, "not json at all"),
    ] {
        let server = MockServer::start(move |_| bad.clone());
        let err = LlmClient::new(config(&server.url, None))
            .unwrap()
            .complete_blocking(small_call(1))
            .unwrap_err();
        assert!(matches!(err, LlmError::Invalid { tries: 3, .. }), "{err}");
        assert_eq!(server.requests().len(), 3);
    }
}

#[test]
fn a_refused_schema_form_falls_back_and_is_remembered() {
    let server = MockServer::start(|r| {
        let format = r.body["response_format"]["type"].as_str().unwrap_or("none");
        if format == "json_schema" {
            MockReply::status(
                400,
                "{\"error\":\"response_format json_schema is not supported\"}",
            )
        } else {
            MockReply::json(&json!({"n": 1}))
        }
    });
    let t = tmp();
    let client = LlmClient::new(config(&server.url, Some(t.path()))).unwrap();
    client.complete_blocking(small_call(1)).unwrap();
    client.complete_blocking(small_call(2)).unwrap();
    let formats: Vec<String> = server
        .requests()
        .iter()
        .map(|r| {
            r.body["response_format"]["type"]
                .as_str()
                .unwrap_or("none")
                .to_string()
        })
        .collect();
    assert_eq!(formats, ["json_schema", "json_object", "json_object"]);
    assert_eq!(client.stats().fallbacks, 1);
    // Remembered for the endpoint in the cache directory.
    let modes: Value =
        serde_json::from_slice(&fs::read(t.path().join("endpoints.json")).unwrap()).unwrap();
    assert_eq!(modes[&server.url], "json_object");
    let again = LlmClient::new(config(&server.url, Some(t.path()))).unwrap();
    again.complete_blocking(small_call(3)).unwrap();
    assert_eq!(
        server.requests().last().unwrap().body["response_format"]["type"],
        "json_object"
    );
    // A server that ignores the schema still has its reply validated.
    let server = MockServer::start(|_| MockReply::json(&json!({"n": "three"})));
    let err = LlmClient::new(config(&server.url, None))
        .unwrap()
        .complete_blocking(small_call(1))
        .unwrap_err();
    assert!(err.to_string().contains("expected integer"), "{err}");
}

#[test]
fn the_cli_generates_with_an_llm_and_replays() {
    let s = scene();
    let server = MockServer::start(household(&s));
    let t = tmp();
    let run = |args: &[&str]| {
        let mut cmd = std::process::Command::new(BIN);
        cmd.args(args)
            .current_dir(t.path())
            .env("HEARTH_LLM_API_KEY", KEY)
            .env_remove("RUST_LOG");
        let out = cmd.output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = run(&[
        "generate",
        "--backend",
        "openai",
        "--llm-url",
        &server.url,
        "--llm-model",
        "mock",
        "--days",
        "1",
        "--out",
        "a",
    ]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(t.path().join("llm-cache").is_dir());
    let (code, _, err) = run(&[
        "generate",
        "--backend",
        "replay",
        "--llm-model",
        "mock",
        "--days",
        "1",
        "--out",
        "b",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        fs::read(t.path().join("a/events.jsonl")).unwrap(),
        fs::read(t.path().join("b/events.jsonl")).unwrap()
    );
    // Batch shares the cache: replaying two seeds recorded by one batch run.
    let (code, _, err) = run(&[
        "batch",
        "--backend",
        "openai",
        "--llm-url",
        &server.url,
        "--llm-model",
        "mock",
        "--seeds",
        "0..2",
        "--days",
        "1",
        "--out",
        "bt",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(&[
        "batch",
        "--backend",
        "replay",
        "--llm-model",
        "mock",
        "--seeds",
        "0..2",
        "--days",
        "1",
        "--out",
        "br",
    ]);
    assert_eq!(code, Some(0), "{err}");
    for seed in 0..2 {
        let f = format!("family_apartment-s{seed}/events.jsonl");
        assert_eq!(
            fs::read(t.path().join("bt").join(&f)).unwrap(),
            fs::read(t.path().join("br").join(&f)).unwrap()
        );
    }
    assert!(!contains(&all_bytes(t.path()), KEY));
    // Errors: nothing listening, replay without a cache.
    let (code, _, err) = run(&[
        "generate",
        "--backend",
        "openai",
        "--llm-url",
        "http://127.0.0.1:9/v1",
        "--llm-retries",
        "0",
        "--days",
        "1",
        "--out",
        "c",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot reach http://127.0.0.1:9/v1"), "{err}");
    assert!(!t.path().join("c").exists());
    let (code, _, err) = run(&[
        "generate",
        "--backend",
        "replay",
        "--llm-cache",
        "nowhere",
        "--out",
        "d",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("nowhere, which does not exist"), "{err}");
}

#[test]
fn mine_rephrases_questions_only_and_replays() {
    let sc = scene();
    let server = MockServer::start(household(&sc));
    let t = tmp();
    let trace = t.path().join("tr");
    hearth(&["generate", "--days", "2", "--out", s(&trace)]).ok();
    let plain = t.path().join("plain.jsonl");
    hearth(&["mine", "--trace", s(&trace), "--out", s(&plain)]).ok();
    let cache = t.path().join("cache");
    let said = t.path().join("said.jsonl");
    hearth(&[
        "mine",
        "--trace",
        s(&trace),
        "--out",
        s(&said),
        "--rephrase",
        "--llm-url",
        &server.url,
        "--llm-cache",
        s(&cache),
    ])
    .ok();
    let (_, a) = hearth::store::read_samples(&plain).unwrap();
    let (_, b) = hearth::store::read_samples(&said).unwrap();
    assert_eq!(a.len(), b.len());
    let mut rephrased = 0;
    for (x, y) in a.iter().zip(&b) {
        match (x, y) {
            (hearth::samples::Sample::Qa(x), hearth::samples::Sample::Qa(y)) => {
                assert_eq!(y.template_question.as_ref(), Some(&x.question));
                assert_eq!(y.question, format!("Robot, {}", x.question));
                assert_eq!(
                    (&x.answer, &x.evidence, &x.query),
                    (&y.answer, &y.evidence, &y.query)
                );
                rephrased += 1;
            }
            (x, y) => assert_eq!(x, y, "planning tasks are not rephrased"),
        }
    }
    assert!(rephrased > 50);
    drop(server);
    let again = t.path().join("again.jsonl");
    hearth(&[
        "mine",
        "--trace",
        s(&trace),
        "--out",
        s(&again),
        "--rephrase",
        "--backend",
        "replay",
        "--llm-cache",
        s(&cache),
    ])
    .ok();
    assert_eq!(fs::read(&said).unwrap(), fs::read(&again).unwrap());
}

#[test]
fn eval_answers_and_judges_through_the_llm_and_replays() {
    let sc = scene();
    let server = MockServer::start(household(&sc));
    let t = tmp();
    let trace = t.path().join("tr");
    hearth(&["generate", "--days", "1", "--out", s(&trace)]).ok();
    hearth(&["mine", "--trace", s(&trace)]).ok();
    let cache = t.path().join("cache");
    let report = |name: &str| -> Vec<hearth::eval::Report> {
        serde_json::from_slice(&fs::read(t.path().join(name)).unwrap()).unwrap()
    };
    let judged = t.path().join("judged.json");
    hearth(&[
        "eval",
        "--trace",
        s(&trace),
        "--agents",
        "oracle,none",
        "--judge",
        "--llm-url",
        &server.url,
        "--llm-cache",
        s(&cache),
        "--out",
        s(&judged),
    ])
    .ok()
    .stdout_has("judge (0-1)");
    let r = report("judged.json");
    let (oracle, none) = (r[0].qa.judge.unwrap(), r[1].qa.judge.unwrap());
    assert!(oracle > 0.9 && none < 0.5, "oracle {oracle}, none {none}");
    assert!(r[0].questions.iter().all(|q| q.judge.is_some()));
    // LLM answers from the top-five evidence: words only, judged.
    let worded = t.path().join("worded.json");
    hearth(&[
        "eval",
        "--trace",
        s(&trace),
        "--agent",
        "bm25",
        "--answerer",
        "llm",
        "--judge",
        "--llm-url",
        &server.url,
        "--llm-cache",
        s(&cache),
        "--out",
        s(&worded),
    ])
    .ok()
    .stdout_has("j ");
    let r = report("worded.json");
    assert_eq!(r[0].qa.exact, 0.0);
    assert!(
        r[0].questions
            .iter()
            .all(|q| q.text.starts_with("From the records:"))
    );
    // Offline replay gives the same report.
    drop(server);
    let again = t.path().join("again.json");
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
        "replay",
        "--llm-cache",
        s(&cache),
        "--out",
        s(&again),
    ])
    .ok();
    assert_eq!(fs::read(&worded).unwrap(), fs::read(&again).unwrap());
}
