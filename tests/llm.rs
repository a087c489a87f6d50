//! The LLM backend against a local mock OpenAI-compatible server: the
//! closed loop, record then replay (same bytes), faults (429 with
//! Retry-After, 500, stalls, broken JSON, schema violations, refused
//! structured output whatever the status), local repairs, invented ids and
//! empty participants dropped item by item, the script as fallback, skips,
//! the token budget, several endpoints, calls per event, the API key never
//! written, and the CLI.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::*;
use hearth::jobs::{BackendSpec, TraceOptions, generate_trace};
use hearth::llm::mock::{
    Fault, MockReply, MockRequest, MockServer, constrained, grammar, household, stepwise, unusable,
    with_fault,
};
use hearth::llm::{Call, Fallback, LlmClient, LlmConfig, LlmError, Message, OnBudget};
use hearth::store::read_trace;
use hearth::trace::{Event, RejectionCode, Source};
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
        max_tokens: None,
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
    let server = MockServer::start(stepwise(&s));
    let t = tmp();
    let cache = t.path().join("cache");
    let client = LlmClient::new(config(&server.url, Some(&cache))).unwrap();
    let live = t.path().join("live");
    let summary = generate_trace(
        &s,
        &live,
        &TraceOptions::new(2, 7, BackendSpec::Llm(client.clone())),
    )
    .unwrap();
    assert!(
        summary.counts.events > 10,
        "{:?} {}",
        summary.counts,
        fs::read_to_string(live.join("plan.json")).unwrap()
    );
    let trace = read_trace(&live).unwrap();
    assert_eq!(trace.manifest.backend, "openai");
    assert_eq!(trace.manifest.model.as_deref(), Some("mock-model"));
    assert_eq!(
        trace.manifest.prompt_hashes.len(),
        hearth::llm::prompts::PROMPTS.len() + 1
    );
    // An invented id never reaches the executor: the schema's enum of real
    // ids refuses it and the re-ask names the nearest real ones.
    let reqs = server.requests();
    let reask = reqs
        .iter()
        .find(|r| r.stage() == "actor" && r.is_reask())
        .expect("the invented id was sent back");
    // (The steps of a turn are about what its intention names: here, the
    // sofa the director sent everyone to.)
    assert!(
        reask
            .text()
            .contains("\"kitchen_table_9\" is not one of \"sofa_1\""),
        "{}",
        reask.text()
    );
    // The model's steps reach the executor grounded: a walk to where it
    // is already is left out, not refused; what is left is refused for
    // what the model did (putting down what it does not hold).
    let rejected: Vec<_> = trace
        .events
        .iter()
        .filter(|e| e.source == Some(Source::Llm))
        .filter_map(|e| e.outcome.rejection())
        .collect();
    assert!(!rejected.is_empty());
    assert!(
        rejected.iter().all(|r| r.code == RejectionCode::NotHolding),
        "{rejected:#?}"
    );
    // A rejection's feedback opens the actor's next call; the same request
    // asked for again ends the model's part of the turn, unsent.
    assert!(
        reqs.iter()
            .any(|r| r.stage() == "actor" && r.text().contains("rejected (not_holding)"))
    );
    let llm = trace.manifest.llm.as_ref().unwrap();
    assert!(
        llm.lived.ended > 0 && llm.lived.no_ops > 0,
        "{:?}",
        llm.lived
    );
    let findings = hearth::lint::lint(&trace.scene, &trace.events).unwrap();
    let counts = hearth::lint::counts(&findings);
    assert_eq!(
        (counts["refused_again"], counts["switch_loop"]),
        (0, 0),
        "{counts:?}"
    );
    assert!(
        trace
            .events
            .iter()
            .any(|e| e.outcome.is_ok() && e.action.skill_name() == "say")
    );
    // The director's made-up actor never acts: that turn is dropped, the
    // others kept without asking again.
    assert!(trace.events.iter().all(|e| e.actor.as_str() != "nobody_7"));
    assert!(llm.stages["actor"].reasks > 0, "{llm:?}");
    assert_eq!(llm.stages["director"].reasks, 0);
    assert!(llm.stages["director"].dropped > 0);
    // The calendar's sessions are the frame; the model's own are placed
    // in free time: a session of a calendar kind is dropped, one before
    // dawn moved to when its people are up, or dropped if they are busy
    // until the morning is out.
    let plan: Value = serde_json::from_slice(&fs::read(live.join("plan.json")).unwrap()).unwrap();
    let sessions = plan["sessions"].as_array().unwrap();
    assert!(sessions.iter().any(|s| s["source"] == "script"));
    assert!(
        sessions
            .iter()
            .any(|s| s["source"] == "llm" && s["kind"] == "board_game")
    );
    assert!(
        !sessions
            .iter()
            .any(|s| s["source"] == "llm" && s["kind"] == "breakfast")
    );
    let lived = &llm.lived;
    assert!(
        lived
            .moved
            .iter()
            .chain(&lived.dropped)
            .any(|m| m.at.contains("05:30 night_walk") && m.reason.contains("asleep")),
        "{lived:?}"
    );
    // The model wrote the frame sessions' intents and most of the words.
    let a = &llm.authored;
    assert!(a.llm_intents > a.llm_sessions, "{a:?}");
    assert!(
        a.llm_utterances > 0 && a.llm_events > 0 && a.llm_events < a.events,
        "{a:?}"
    );
    assert_eq!(a.events, trace.events.len() as u64);
    assert_eq!(llm.total().requests as usize, reqs.len());
    // Every request carried the key, in the header only.
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
    generate_trace(
        &s,
        &again,
        &TraceOptions::new(2, 7, BackendSpec::Llm(replayer.clone())),
    )
    .unwrap();
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
    let err = generate_trace(
        &s,
        &missing,
        &TraceOptions::new(2, 8, BackendSpec::Llm(replayer)),
    )
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
        1 => MockReply::json(&json!({"m": 1})),
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
    assert!(reqs[2].text().contains("missing required field \"n\""));
    // Out of bounds is not worth a re-ask: clamped, and counted.
    let server = MockServer::start(|_| MockReply::json(&json!({"n": -1, "extra": true})));
    let client = LlmClient::new(config(&server.url, None)).unwrap();
    assert_eq!(
        client.complete_blocking(small_call(1)).unwrap(),
        json!({"n": 0})
    );
    assert_eq!((client.stats().fixed, client.stats().reasks), (2, 0));
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
    assert_eq!(modes["dialects"][&server.url], "llama_cpp");
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
    // A budget too small for the trace stops it, saying how to go on.
    let (code, _, err) = run(&[
        "generate",
        "--backend",
        "openai",
        "--llm-url",
        &server.url,
        "--llm-model",
        "mock",
        "--llm-budget-tokens",
        "5000",
        "--days",
        "1",
        "--out",
        "a",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("token budget of 5000 is spent") && err.contains("resume"),
        "{err}"
    );
    assert!(!t.path().join("a").exists());
    // Resumed over two servers (the flag given twice).
    let second = MockServer::start(household(&s));
    let (code, out, err) = run(&[
        "generate",
        "--backend",
        "openai",
        "--llm-url",
        &server.url,
        "--llm-url",
        &second.url,
        "--llm-model",
        "mock",
        "--max-skipped",
        "0",
        "--days",
        "1",
        "--out",
        "a",
    ]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(t.path().join("llm-cache").is_dir());
    assert!(!second.requests().is_empty());
    assert!(
        out.contains("0 re-asked, 0 skipped, 0 filled by the script; prefix reuse")
            && out.contains("    actor ")
            && out.contains("% of the utterances (")
            && out.contains("% of the session intents (")
            && out.contains("  refused: ")
            && out.contains("  in the calendar: ")
            && out.contains("  time use: ")
            && out.contains(" figures outside their ATUS band"),
        "{out}"
    );
    // Lint counts findings per source.
    let (code, out, err) = run(&["trace", "lint", "a"]);
    assert!(code.is_some_and(|c| c < 2), "{err}");
    assert!(out.contains("events written by the llm: "), "{out}");
    assert!(out.contains("events written by the script: "), "{out}");
    // A batch with a budget: the script completes the trace the budget
    // ran out in, and no more are launched.
    let (code, out, err) = run(&[
        "batch",
        "--backend",
        "openai",
        "--llm-url",
        &server.url,
        "--llm-model",
        "mock",
        "--llm-cache",
        "budget-cache",
        "--llm-budget-tokens",
        "5000",
        "--on-budget",
        "script",
        "--seeds",
        "10..13",
        "--jobs",
        "1",
        "--days",
        "1",
        "--out",
        "bb",
    ]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(
        out.contains("1 generated") && out.contains("2 traces not started"),
        "{out}"
    );
    let (code, out, _) = run(&["trace", "lint", "bb"]);
    assert!(code.is_some_and(|c| c < 2));
    assert!(out.contains("events written by the script: "), "{out}");
    // A replay needs nothing but the cache: the model, the context and
    // the dialects are the ones it recorded.
    let (code, _, err) = run(&[
        "generate",
        "--backend",
        "replay",
        "--llm-cache",
        "llm-cache",
        "--days",
        "1",
        "--out",
        "b",
    ]);
    assert_eq!(code, Some(0), "{err}");
    for f in ["events.jsonl", "plan.json", "notes.jsonl", "manifest.json"] {
        assert_eq!(
            fs::read(t.path().join("a").join(f)).unwrap(),
            fs::read(t.path().join("b").join(f)).unwrap(),
            "{f}"
        );
    }
    // Batch shares the cache: replaying two seeds recorded by one batch run.
    let (code, out, err) = run(&[
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
    assert!(
        out.contains("LLM: ") && out.contains(" re-asked, 0 skipped"),
        "{out}"
    );
    let (code, _, err) = run(&[
        "batch",
        "--backend",
        "replay",
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
    // Asked of the robot: most answers are values, so an agent that knows
    // nothing is told apart (asked of the household, a day with the
    // courier and a breakdown has three answers in ten "not known").
    hearth(&["mine", "--trace", s(&trace), "--ask", "robot"]).ok();
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
    .stdout_has("judge (0-1)")
    .stdout_has("tokens/question");
    // The judge's tokens per question, beside the report (not in it).
    let cost: serde_json::Value =
        serde_json::from_slice(&fs::read(t.path().join("judged-cost.json")).unwrap()).unwrap();
    assert!(
        cost[0]["tokens_per_question"].as_f64().unwrap() > 0.0,
        "{cost}"
    );
    assert!(
        !fs::read_to_string(&judged)
            .unwrap()
            .contains("tokens_per_question")
    );
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
    assert_eq!(r[0].qa.calibrated, 0.0);
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

#[test]
fn the_judge_is_audited_on_answers_whose_verdict_is_known() {
    let sc = scene();
    let t = tmp();
    let trace = t.path().join("tr");
    hearth(&["generate", "--days", "2", "--out", s(&trace)]).ok();
    hearth(&["mine", "--trace", s(&trace)]).ok();
    let judged = |url: &str, name: &str, audit: &str| -> (hearth::eval::Report, String) {
        let out = t.path().join(name);
        let run = hearth(&[
            "eval",
            "--trace",
            s(&trace),
            "--agents",
            "oracle",
            "--judge",
            "--judge-audit",
            audit,
            "--llm-url",
            url,
            "--llm-cache",
            s(&t.path().join(format!("cache-{name}"))),
            "--out",
            s(&out),
        ])
        .ok();
        let r: Vec<hearth::eval::Report> =
            serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
        (r.into_iter().next().unwrap(), run.stdout)
    };
    use hearth::eval::Probe;
    // The mock judge accepts an answer that contains the reference: "I
    // don't know" is rejected, and a trap unless it contains the
    // reference ("13 times." for "3 times.").
    let strict = MockServer::start(household(&sc));
    let (r, out) = judged(&strict.url, "strict.json", "20");
    let a = r.judge_audit.expect("a judged report carries its audit");
    assert!(
        out.contains("audited on") && out.contains("false accept"),
        "{out}"
    );
    for p in [
        Probe::Canonical,
        Probe::Paraphrase,
        Probe::Trap,
        Probe::Abstention,
    ] {
        assert!(
            a.probes.get(&p).is_some_and(|(n, _)| *n > 0),
            "{p:?}: {a:?}"
        );
    }
    let misses = |p: Probe| a.probes[&p].1;
    assert_eq!(
        (misses(Probe::Canonical), misses(Probe::Abstention)),
        (0, 0),
        "{a:?}"
    );
    assert!(a.false_accept < 0.1, "{a:?}");
    // Its only misses: "I have no record of that" for "No information
    // available.", which it cannot see is the same answer.
    let (n, missed) = a.probes[&Probe::Paraphrase];
    assert!(missed > 0 && missed < n, "{a:?}");
    assert!(a.false_reject > 0.0 && a.false_reject < 0.5, "{a:?}");
    // A judge that accepts everything is caught accepting every wrong answer.
    let lenient = MockServer::start(|r: &hearth::llm::mock::MockRequest| {
        MockReply::json_for(r, &json!({"score": 3, "reason": "looks fine"}))
    });
    let (r, _) = judged(&lenient.url, "lenient.json", "20");
    let a = r.judge_audit.unwrap();
    assert_eq!((a.false_accept, a.false_reject), (1.0, 0.0), "{a:?}");
    // Its verdicts on the agent's answers are no better than that says.
    assert_eq!(r.qa.judge, Some(1.0));
    // No audit asked for, none reported.
    let (r, out) = judged(&lenient.url, "none.json", "0");
    assert!(r.judge_audit.is_none() && !out.contains("audited"), "{out}");
}

/// Generates `days` of the family apartment (seed 7) with `client` into `out`.
fn generate_with(
    client: &Arc<LlmClient>,
    days: u32,
    out: &Path,
) -> Result<hearth::jobs::Summary, hearth::jobs::JobError> {
    generate_trace(
        &scene(),
        out,
        &TraceOptions::new(days, 7, BackendSpec::Llm(Arc::clone(client))),
    )
}

/// Replays `live` from `cache`, offline, and checks every file is the same.
fn assert_replays(cache: &Path, live: &Path, days: u32) {
    assert_replays_with(cache, live, days, Fallback::Script);
}

/// The same, for a trace made with `--fallback fallback`.
fn assert_replays_with(cache: &Path, live: &Path, days: u32, fallback: Fallback) {
    let mut c = config("http://127.0.0.1:9/v1", Some(cache));
    c.replay = true;
    c.fallback = fallback;
    c.max_skipped = 1000;
    let again = live.with_extension("replayed");
    generate_with(&LlmClient::new(c).unwrap(), days, &again).unwrap();
    for f in ["events.jsonl", "plan.json", "notes.jsonl", "manifest.json"] {
        assert_eq!(
            fs::read(live.join(f)).unwrap(),
            fs::read(again.join(f)).unwrap(),
            "{f} differs in replay"
        );
    }
}

fn accepted(trace: &hearth::store::Trace) -> u64 {
    trace.manifest.counts.events - trace.manifest.counts.rejected
}

#[test]
fn a_sensible_model_takes_few_calls_per_event_with_stable_prefixes() {
    let s = scene();
    let server = MockServer::start(household(&s));
    let t = tmp();
    let client = LlmClient::new(config(&server.url, Some(&t.path().join("cache")))).unwrap();
    let live = t.path().join("live");
    generate_with(&client, 2, &live).unwrap();
    let trace = read_trace(&live).unwrap();
    let reqs = server.requests();
    let per_event = reqs.len() as f64 / accepted(&trace) as f64;
    assert!(per_event <= 1.2, "{per_event:.2} calls per accepted event");
    // Several steps from one reply: more accepted actor events than actor calls.
    let actor_calls = reqs.iter().filter(|r| r.stage() == "actor").count() as u64;
    assert!(accepted(&trace) > actor_calls, "{actor_calls} actor calls");
    // Costs per stage from the server's usage, and the prefix the calls share.
    let llm = trace.manifest.llm.as_ref().unwrap();
    let total = llm.total();
    assert_eq!(total.requests as usize, reqs.len());
    let usage: u64 = reqs.iter().map(|r| r.text().len().div_ceil(4) as u64).sum();
    assert_eq!(total.prompt_tokens, usage);
    assert!(total.completion_tokens > 0);
    assert_eq!((total.repairs, total.reasks, total.skipped), (0, 0, 0));
    assert_eq!(
        llm.stages.keys().collect::<Vec<_>>(),
        [
            "actor",
            "day_beats",
            "director",
            "notes",
            "projects",
            "sessions",
            "words"
        ]
    );
    let share = llm.reused_prefix_chars as f64 / llm.prompt_chars as f64;
    assert!(share > 0.5, "prefix reuse {share:.2}");
    // Stable first: every generation call opens with the system message
    // (the instructions and the home), the same but for the objects in
    // the house, and that only where something came in or left.
    let system = |r: &hearth::llm::mock::MockRequest| {
        r.body["messages"][0]["content"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let first = system(&reqs[0]);
    let (head, _) = first
        .split_once("Objects: ")
        .expect("the home lists objects");
    assert!(head.contains("The home:"), "{first}");
    assert!(reqs.iter().all(|r| system(r).starts_with(head)));
    let outside = hearth::trace::Value::Location(hearth::trace::Location::Outside);
    let moved = (trace.events.iter())
        .filter(|e| (e.changes.iter()).any(|c| (c.old == outside) != (c.new == outside)))
        .count();
    let mut homes: Vec<String> = reqs.iter().map(system).collect();
    homes.dedup();
    assert!(
        homes.len() <= 1 + moved,
        "{} homes, {moved} comings and goings",
        homes.len()
    );
    // The schemas name only real things: a form per skill, navigate_to
    // first; set_device_state has one per device field, with the values that
    // field takes. (Each turn is offered what its intention names, or what
    // is around the actor.)
    let forms: Vec<Vec<serde_json::Value>> = reqs
        .iter()
        .filter(|r| r.stage() == "actor")
        .filter_map(|r| {
            r.schema()["properties"]["steps"]["items"]["anyOf"]
                .as_array()
                .cloned()
        })
        .collect();
    assert!(!forms.is_empty());
    assert!(
        forms
            .iter()
            .all(|f| f[0]["properties"]["skill"]["enum"] == json!(["navigate_to"]))
    );
    assert!(forms.iter().any(|f| {
        f[0]["properties"]["target"]["enum"]
            .as_array()
            .is_some_and(|t| t.contains(&json!("dining_table_1")))
    }));
    let set = |device: &str, field: &str| {
        forms.iter().flatten().map(|f| &f["properties"]).find(|p| {
            p["device"]["enum"] == json!([device]) && p["field"]["enum"] == json!([field])
        })
    };
    let wash = set("dishwasher_1", "program").expect("the dishwasher's program");
    assert!(
        wash["value"]["enum"]
            .as_array()
            .unwrap()
            .contains(&json!("intensive"))
    );
    assert!(
        set("tv_1", "program").is_none()
            && set("tv_1", "temperature").is_none()
            && set("tv_1", "volume").is_some()
    );
    assert_replays(&t.path().join("cache"), &live, 2);
}

#[test]
fn a_refusal_naming_the_format_falls_back_whatever_its_status() {
    let s = scene();
    for status in [400, 422, 500] {
        let server = MockServer::start(with_fault(household(&s), Fault::RefuseSchema(status)));
        let t = tmp();
        let cache = t.path().join("cache");
        let client = LlmClient::new(config(&server.url, Some(&cache))).unwrap();
        generate_with(&client, 1, &t.path().join("tr")).unwrap();
        let formats: Vec<String> = server
            .requests()
            .iter()
            .map(|r| r.format().into())
            .collect();
        assert_eq!(formats[..2], ["json_schema", "json_object"], "{status}");
        assert!(formats[1..].iter().all(|f| f == "json_object"), "{status}");
        let stats = client.stats();
        assert_eq!((stats.fallbacks, stats.retries), (1, 0), "{status}");
        let modes: Value =
            serde_json::from_slice(&fs::read(cache.join("endpoints.json")).unwrap()).unwrap();
        assert_eq!(modes["dialects"][&server.url], "llama_cpp");
        assert_no_temp(&cache);
    }
    // A server refusing json_object too ends with the schema in the prompt only.
    let server = MockServer::start(|r| match r.format() {
        "none" => MockReply::json(&json!({"n": 1})),
        _ => MockReply::status(422, "{\"detail\":\"unsupported response format\"}"),
    });
    let client = LlmClient::new(config(&server.url, None)).unwrap();
    client.complete_blocking(small_call(1)).unwrap();
    client.complete_blocking(small_call(2)).unwrap();
    let formats: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.format().into())
        .collect();
    assert_eq!(formats, ["json_schema", "json_object", "none", "none"]);
    // A 500 that says nothing of the format is a server error: retried, not a fallback.
    let n = Arc::new(AtomicUsize::new(0));
    let n2 = Arc::clone(&n);
    let server = MockServer::start(move |_| match n2.fetch_add(1, Ordering::SeqCst) {
        0 => MockReply::status(500, "{\"error\":\"out of memory\"}"),
        _ => MockReply::json(&json!({"n": 1})),
    });
    let client = LlmClient::new(config(&server.url, None)).unwrap();
    client.complete_blocking(small_call(1)).unwrap();
    assert_eq!((client.stats().fallbacks, client.stats().retries), (0, 1));
    assert!(
        server
            .requests()
            .iter()
            .all(|r| r.format() == "json_schema")
    );
}

#[test]
fn almost_json_is_repaired_locally_counted_and_replayed() {
    let s = scene();
    let clean = MockServer::start(household(&s));
    let t = tmp();
    let client = LlmClient::new(config(&clean.url, None)).unwrap();
    generate_with(&client, 1, &t.path().join("clean")).unwrap();
    let clean_events = fs::read(t.path().join("clean/events.jsonl")).unwrap();
    for fault in [Fault::ControlChars, Fault::Fenced] {
        let server = MockServer::start(with_fault(household(&s), fault));
        let dir = t.path().join(format!("{fault:?}"));
        let cache = dir.join("cache");
        let client = LlmClient::new(config(&server.url, Some(&cache))).unwrap();
        let live = dir.join("live");
        generate_with(&client, 1, &live).unwrap();
        // Nothing was re-asked: every reply was mended where it stood
        // (all but an actor's empty "done", which has nothing to mend).
        assert!(server.requests().iter().all(|r| !r.is_reask()), "{fault:?}");
        let llm = read_trace(&live).unwrap().manifest.llm.unwrap();
        let n = server.requests().len() as u64;
        assert!(
            llm.total().repairs <= n && llm.total().repairs * 10 >= n * 9,
            "{fault:?}: {} of {n}",
            llm.total().repairs
        );
        assert_eq!(llm.total().reasks, 0);
        assert_eq!(client.stats().repairs, llm.total().repairs);
        if fault == Fault::Fenced {
            assert_eq!(fs::read(live.join("events.jsonl")).unwrap(), clean_events);
        } else {
            let text = String::from_utf8(fs::read(live.join("events.jsonl")).unwrap()).unwrap();
            assert!(text.contains("Hello!\\nsecond line\\twith a tab"));
        }
        assert_replays(&cache, &live, 1);
    }
}

#[test]
fn invented_ids_and_empty_participants_are_dropped_item_by_item() {
    let s = scene();
    let server = MockServer::start(with_fault(household(&s), Fault::InventedIds));
    let t = tmp();
    let client = LlmClient::new(config(&server.url, Some(&t.path().join("a")))).unwrap();
    let live = t.path().join("invented");
    generate_with(&client, 1, &live).unwrap();
    // What names nothing real is dropped; the rest of each reply is kept,
    // so nothing is asked again.
    assert!(server.requests().iter().all(|r| !r.is_reask()));
    let trace = read_trace(&live).unwrap();
    let llm = trace.manifest.llm.as_ref().unwrap();
    for stage in ["sessions", "director", "actor"] {
        assert!(
            llm.stages[stage].dropped > 0,
            "{stage}: {:?}",
            llm.stages[stage]
        );
    }
    assert_eq!((llm.total().reasks, llm.total().skipped), (0, 0));
    assert!(llm.fallbacks.is_empty(), "{:?}", llm.fallbacks);
    let actors: Vec<&str> = s.actors.iter().map(|a| a.id.as_str()).collect();
    assert!(
        trace
            .events
            .iter()
            .all(|e| actors.contains(&e.actor.as_str()))
    );
    let plan = fs::read_to_string(live.join("plan.json")).unwrap();
    for invented in ["grandma_9", "cake_tin_4", "sofa_9"] {
        assert!(!plan.contains(invented), "{invented}");
        assert!(
            !fs::read_to_string(live.join("events.jsonl"))
                .unwrap()
                .contains(invented)
        );
    }
    // The model's session that named someone invented keeps its real
    // participant.
    let plan: Value = serde_json::from_str(&plan).unwrap();
    assert!(
        plan["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["source"] == "llm" && s["participants"] == json!(["robot"]))
    );
    assert_replays(&t.path().join("a"), &live, 1);

    let server = MockServer::start(with_fault(household(&s), Fault::EmptyParticipants));
    let client = LlmClient::new(config(&server.url, None)).unwrap();
    let live = t.path().join("empty");
    let summary = generate_with(&client, 1, &live).unwrap();
    assert!(server.requests().iter().all(|r| !r.is_reask()));
    let llm = summary.llm.unwrap();
    assert_eq!(llm.stages["sessions"].dropped, 2);
    let plan: Value = serde_json::from_slice(&fs::read(live.join("plan.json")).unwrap()).unwrap();
    let own: Vec<&Value> = plan["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["source"] == "llm")
        .collect();
    assert_eq!(
        own.len() as u64,
        llm.lived.asked - llm.lived.dropped.len() as u64
    );
    assert!(!own.is_empty());
    assert!(
        own.iter()
            .all(|s| !s["participants"].as_array().unwrap().is_empty()
                && s["start"].as_u64().unwrap() < 86_400)
    );
}

#[test]
fn unusable_replies_are_skipped_recorded_and_replayed() {
    let s = scene();
    let t = tmp();
    // With --fallback skip. Notes: the day goes on with the computed notes.
    let skipping = |url: &str, cache: Option<&Path>| {
        let mut c = config(url, cache);
        c.fallback = Fallback::Skip;
        c
    };
    let server = MockServer::start(with_fault(household(&s), Fault::Garbage("notes")));
    let cache = t.path().join("cache");
    let client = LlmClient::new(skipping(&server.url, Some(&cache))).unwrap();
    let live = t.path().join("notes");
    let summary = generate_with(&client, 2, &live).unwrap();
    let llm = summary.llm.unwrap();
    assert_eq!(llm.stages["notes"].skipped, 2);
    assert_eq!(
        llm.skipped
            .iter()
            .map(|k| (k.stage.as_str(), k.at.as_str()))
            .collect::<Vec<_>>(),
        [("notes", "day 1"), ("notes", "day 2")]
    );
    assert!(
        llm.skipped[0].reason.contains("not JSON"),
        "{:?}",
        llm.skipped
    );
    let notes: Vec<Value> = fs::read_to_string(live.join("notes.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(notes.len(), 2);
    assert!(
        notes
            .iter()
            .all(|n| n.get("summary").is_none()
                && !n["recent_events"].as_array().unwrap().is_empty())
    );
    assert_replays_with(&cache, &live, 2, Fallback::Skip);

    // Actors: the model's part of each turn is skipped, recorded in the
    // plan and the manifest; what the calendar has in a turn the script
    // still does, so the day is lived.
    let server = MockServer::start(with_fault(household(&s), Fault::Garbage("actor")));
    let cache = t.path().join("cache2");
    let mut c = skipping(&server.url, Some(&cache));
    c.max_skipped = 1000;
    let live = t.path().join("actor");
    let summary = generate_with(&LlmClient::new(c).unwrap(), 1, &live).unwrap();
    let llm = summary.llm.as_ref().unwrap();
    assert!(llm.stages["actor"].skipped > 0);
    // The model still says what the calendar gives it to say (walking up
    // to whom it is said to first).
    assert!(llm.authored.llm_utterances > 0);
    let trace = read_trace(&live).unwrap();
    assert!(
        trace
            .events
            .iter()
            .filter(|e| e.source == Some(Source::Llm))
            .all(|e| matches!(e.action.skill_name(), "say" | "navigate_to" | "open")),
        "the model acted without a usable reply"
    );
    assert!(summary.counts.events > 100, "{:?}", summary.counts);
    assert!(summary.skipped_turns > 0);
    let plan = fs::read_to_string(live.join("plan.json")).unwrap();
    assert!(plan.contains("no usable reply from the model"));
    let trace = read_trace(&live).unwrap();
    for skill in ["leave", "arrive"] {
        assert!(
            trace.events.iter().any(|e| e.action.skill_name() == skill),
            "nobody did {skill}"
        );
    }
    assert_replays_with(&cache, &live, 1, Fallback::Skip);
    // Past --max-skipped the trace fails, saying why, and leaves nothing.
    let mut c = skipping(&server.url, Some(&cache));
    c.max_skipped = 3;
    let out = t.path().join("too-many");
    let err = generate_with(&LlmClient::new(c).unwrap(), 1, &out)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("stage actor") && err.contains("4 replies skipped, more than --max-skipped 3"),
        "{err}"
    );
    assert!(!out.exists());
    // Without the model's sessions, the day is the calendar's.
    let server = MockServer::start(with_fault(household(&s), Fault::Garbage("sessions")));
    let client = LlmClient::new(skipping(&server.url, None)).unwrap();
    let live = t.path().join("x");
    let summary = generate_with(&client, 1, &live).unwrap();
    let llm = summary.llm.as_ref().unwrap();
    assert_eq!(llm.stages["sessions"].skipped, 1);
    assert_eq!(llm.authored.llm_sessions, 0);
    assert!(summary.sessions >= 10, "{summary:?}");
    // With --fallback fail, any stage left unusable fails the trace.
    let server = MockServer::start(with_fault(household(&s), Fault::Garbage("notes")));
    let mut c = config(&server.url, None);
    c.fallback = Fallback::Fail;
    let out = t.path().join("failed");
    let err = generate_with(&LlmClient::new(c).unwrap(), 1, &out)
        .unwrap_err()
        .to_string();
    assert!(err.contains("stage notes: day 1: not JSON"), "{err}");
    assert!(!out.exists());
}

#[test]
fn the_token_budget_stops_cleanly_and_a_rerun_resumes() {
    let s = scene();
    let server = MockServer::start(household(&s));
    let t = tmp();
    let whole = t.path().join("whole");
    let client = LlmClient::new(config(&server.url, None)).unwrap();
    generate_with(&client, 2, &whole).unwrap();
    let full = client.stats();
    let spent = full.prompt_tokens + full.completion_tokens;
    let cache = t.path().join("cache");
    let mut c = config(&server.url, Some(&cache));
    c.budget_tokens = Some(spent / 2);
    let out = t.path().join("resumed");
    let before = server.requests().len();
    let err = generate_with(&LlmClient::new(c).unwrap(), 2, &out)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("token budget of") && err.contains("run again with the same --llm-cache"),
        "{err}"
    );
    assert!(!out.exists());
    let first = server.requests().len() - before;
    assert!(first > 0 && (first as u64) < full.requests);
    // Again with the same cache: what was spent is not spent twice.
    let client = LlmClient::new(config(&server.url, Some(&cache))).unwrap();
    generate_with(&client, 2, &out).unwrap();
    let stats = client.stats();
    assert_eq!(stats.requests + stats.cache_hits, full.requests);
    assert!(stats.cache_hits as usize >= first - 1);
    for f in ["events.jsonl", "plan.json", "notes.jsonl"] {
        assert_eq!(
            fs::read(whole.join(f)).unwrap(),
            fs::read(out.join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn calls_spread_over_endpoints_and_a_failing_one_is_set_aside() {
    let s = scene();
    let (a, b) = (
        MockServer::start(household(&s)),
        MockServer::start(household(&s)),
    );
    let t = tmp();
    let both = [a.url.clone(), b.url.clone()];
    let mut c = config(&a.url, Some(&t.path().join("two")));
    c.urls = both.to_vec();
    let live = t.path().join("two-live");
    generate_with(&LlmClient::new(c).unwrap(), 1, &live).unwrap();
    let (na, nb) = (a.requests().len(), b.requests().len());
    assert!(na.abs_diff(nb) <= 1 && na > 5, "{na} / {nb}");
    // The recorded exchanges do not depend on which server answered.
    let one = MockServer::start(household(&s));
    let single = t.path().join("one-live");
    let client = LlmClient::new(config(&one.url, Some(&t.path().join("one")))).unwrap();
    generate_with(&client, 1, &single).unwrap();
    assert_eq!(
        snapshot(&t.path().join("two")),
        snapshot(&t.path().join("one"))
    );
    assert_eq!(
        fs::read(live.join("manifest.json")).unwrap(),
        fs::read(single.join("manifest.json")).unwrap()
    );
    // A failing endpoint is set aside while the other answers.
    let broken = MockServer::start(|_| MockReply::status(503, "overloaded"));
    let mut c = config(&a.url, None);
    c.urls = vec![broken.url.clone(), a.url.clone()];
    c.retries = 1;
    let client = LlmClient::new(c).unwrap();
    generate_with(&client, 1, &t.path().join("aside")).unwrap();
    assert_eq!(broken.requests().len(), 1);
    assert_eq!(client.stats().set_aside, 1);
}

#[test]
fn a_stalled_server_is_survived_or_named() {
    let s = scene();
    let t = tmp();
    // Every fifth reply stalls past the timeout: retried, the trace completes.
    let server = MockServer::start(with_fault(
        household(&s),
        Fault::Stall {
            every: 5,
            delay: Duration::from_secs(2),
        },
    ));
    let mut c = config(&server.url, None);
    c.timeout = Duration::from_millis(400);
    let client = LlmClient::new(c).unwrap();
    generate_with(&client, 1, &t.path().join("a")).unwrap();
    assert!(client.stats().retries >= 3, "{:?}", client.stats());
    // One of two endpoints stalled for good: the other carries the trace.
    let stalled = MockServer::start(with_fault(
        household(&s),
        Fault::Stall {
            every: 1,
            delay: Duration::from_secs(2),
        },
    ));
    let fine = MockServer::start(household(&s));
    let mut c = config(&fine.url, None);
    c.urls = vec![stalled.url.clone(), fine.url.clone()];
    c.timeout = Duration::from_millis(400);
    let client = LlmClient::new(c).unwrap();
    generate_with(&client, 1, &t.path().join("b")).unwrap();
    assert_eq!(stalled.requests().len(), 1);
    // Nothing answers in time: the error names the stage and the timeout.
    let mut c = config(&stalled.url, None);
    c.timeout = Duration::from_millis(300);
    c.retries = 1;
    let out = t.path().join("c");
    let err = generate_with(&LlmClient::new(c).unwrap(), 1, &out)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("stage projects") && err.contains("timed out"),
        "{err}"
    );
    assert!(!out.exists());
}

#[test]
fn replies_that_stay_wrong_lose_only_their_wrong_part() {
    let s = scene();
    let inner = household(&s);
    // Every ask, re-asks included: one session without people, and the
    // director's first turn about a thing the home does not have.
    let server = MockServer::start(move |r| {
        let stage = r.stage();
        inner(r).map_content(|c| {
            let mut v: Value = serde_json::from_str(c).unwrap();
            match stage.as_str() {
                "sessions" => v["sessions"][1]["participants"] = json!([]),
                "director" => v["turns"][0]["intention"] = json!("bring the cake_tin_4"),
                _ => {}
            }
            v.to_string()
        })
    });
    let t = tmp();
    let cache = t.path().join("cache");
    let client = LlmClient::new(config(&server.url, Some(&cache))).unwrap();
    let live = t.path().join("live");
    let summary = generate_with(&client, 1, &live).unwrap();
    let llm = summary.llm.unwrap();
    // Kept without asking again: the wrong items are dropped, the rest stand.
    assert_eq!(llm.total().reasks, 0);
    assert_eq!(llm.stages["sessions"].dropped, 1);
    assert_eq!(llm.stages["director"].dropped, llm.stages["director"].calls);
    assert_eq!(llm.total().skipped, 0);
    let plan: Value = serde_json::from_slice(&fs::read(live.join("plan.json")).unwrap()).unwrap();
    let plan_text = plan.to_string();
    assert!(!plan_text.contains("cake_tin_4"));
    for session in plan["sessions"].as_array().unwrap() {
        // In the model's own sessions, the turn that named nothing real is
        // dropped and the robot's stays.
        if session["source"] == "llm" {
            let turns = session["turns"].as_array().unwrap();
            assert_eq!(turns.len(), 1, "{session}");
            assert_eq!(turns[0]["actor"], "robot");
        }
    }
    assert_replays(&cache, &live, 1);
}

/// The ids of a trace's sessions and events by source, from its files.
fn sources(live: &Path) -> (Vec<Value>, Vec<Value>) {
    let plan: Value = serde_json::from_slice(&fs::read(live.join("plan.json")).unwrap()).unwrap();
    let sessions = plan["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["source"].clone())
        .collect();
    let events = read_trace(live)
        .unwrap()
        .events
        .iter()
        .map(|e| json!(e.source))
        .collect();
    (sessions, events)
}

#[test]
fn a_grammar_constrained_model_writes_every_session_after_repair() {
    let s = scene();
    let server = MockServer::start(grammar(&s));
    let t = tmp();
    let cache = t.path().join("cache");
    let client = LlmClient::new(config(&server.url, Some(&cache))).unwrap();
    let live = t.path().join("live");
    let summary = generate_with(&client, 7, &live).unwrap();
    assert_eq!(summary.days, 7);
    let llm = summary.llm.as_ref().unwrap();
    // Out of bounds and slightly off in every item, yet nothing re-asked,
    // dropped or filled by the script: all repaired in place.
    let total = llm.total();
    assert!(total.fixed > 100, "{total:?}");
    assert_eq!(
        (total.reasks, total.dropped, total.skipped),
        (0, 0, 0),
        "{llm:?}"
    );
    assert!(llm.fallbacks.is_empty(), "{:?}", llm.fallbacks);
    // The model wrote a session of its own for each day, and the words
    // and intents of the calendar's.
    let a = &llm.authored;
    assert!(a.llm_sessions >= 7 && a.intent_share() >= 0.9, "{a:?}");
    assert!(a.utterance_share() >= 0.5, "{a:?}");
    let (sessions, events) = sources(&live);
    assert!(sessions.iter().all(|s| s == "llm" || s == "script"));
    assert!(events.iter().any(|s| s == "llm"));
    // What the model wrote arrives as it meant it: the real ids, days in range.
    let plan: Value = serde_json::from_slice(&fs::read(live.join("plan.json")).unwrap()).unwrap();
    let projects = plan["projects"].as_array().unwrap();
    assert_eq!(projects.len(), 8);
    for p in projects {
        assert_eq!((&p["start_day"], &p["end_day"]), (&json!(1), &json!(7)));
        assert!(
            s.actors
                .iter()
                .any(|a| p["participants"][0] == a.id.as_str())
        );
    }
    assert!(plan["beats"].as_array().unwrap().len() >= 7 * 8);
    let trace = read_trace(&live).unwrap();
    assert!(
        trace
            .events
            .iter()
            .any(|e| e.action.skill_name() == "wait" && e.outcome.is_ok())
    );
    // The household lives its months as the script's does: food bought
    // comes in, a new object the scene did not have (`milk_3`) ...
    let own: BTreeSet<&str> = s.objects.iter().map(|o| o.id.as_str()).collect();
    let bought: BTreeSet<String> = (trace.events.iter())
        .filter(|e| e.outcome.is_ok())
        .flat_map(|e| &e.changes)
        .filter(|c| c.attr.as_str() == "location" && !own.contains(c.entity.as_str()))
        .filter(|c| {
            let outside = hearth::trace::Value::Location(hearth::trace::Location::Outside);
            c.old == outside && c.new != outside
        })
        .map(|c| c.entity.to_string())
        .collect();
    assert!(!bought.is_empty(), "nothing came into the house");
    // ... and the model is told of it once it is in, never before: the
    // shop's stock for the months ahead is in no prompt's home until then.
    let waiting: Vec<String> = (trace.scene.objects.iter())
        .filter(|o| !own.contains(o.id.as_str()))
        .map(|o| format!("{} (", o.id))
        .collect();
    assert!(waiting.len() > bought.len(), "{waiting:?}");
    let homes: Vec<String> = (server.requests().iter())
        .map(|r| {
            r.body["messages"][0]["content"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert!(homes[0].contains("The home:"), "{}", homes[0]);
    let named = |w: &String| homes.iter().filter(|h| h.contains(w.as_str())).count();
    let told: Vec<&String> = waiting.iter().filter(|w| named(w) > 0).collect();
    assert!(
        !told.is_empty() && told.len() <= bought.len(),
        "{told:?} of {bought:?}"
    );
    assert!(
        told.iter()
            .all(|w| bought.contains(w.trim_end_matches(" ("))),
        "{told:?}"
    );
    assert!(
        named(told[0]) < homes.len(),
        "told of {} from the start",
        told[0]
    );
    // Few calls: repair replaces re-asks.
    let per_event = server.requests().len() as f64 / accepted(&trace) as f64;
    assert!(per_event < 1.5, "{per_event:.2} calls per accepted event");
    // For docs/lint.md: what lint finds in what the model wrote.
    let findings = hearth::lint::lint(&trace.scene, &trace.events).unwrap();
    eprintln!(
        "grammar mock, 7 days: {} events by the model, {} findings {:?}; {per_event:.2} calls per accepted event",
        trace.events.len(),
        findings.len(),
        hearth::lint::counts(&findings)
    );
    assert_replays(&cache, &live, 7);
}

#[test]
fn a_model_that_never_answers_usably_gives_a_complete_script_trace() {
    let s = scene();
    let server = MockServer::start(unusable());
    let t = tmp();
    let cache = t.path().join("cache");
    let client = LlmClient::new(config(&server.url, Some(&cache))).unwrap();
    let live = t.path().join("live");
    let summary = generate_with(&client, 3, &live).unwrap();
    let llm = summary.llm.as_ref().unwrap();
    assert_eq!(llm.authored.llm_sessions, 0);
    assert_eq!(llm.authored.llm_events, 0);
    assert!(
        summary.sessions >= 3 * 10 && summary.counts.events > 100,
        "{summary:?}"
    );
    // Projects, then per day beats, sessions and notes, and the direction
    // of every calendar session: the script wrote them.
    let filled: Vec<&str> = llm.fallbacks.iter().map(|f| f.stage.as_str()).collect();
    let directed = filled.iter().filter(|f| **f == "director").count();
    assert_eq!(filled.len(), 1 + 3 * 3 + directed, "{filled:?}");
    assert!(directed >= 3 * 10, "{filled:?}");
    assert_eq!(filled[0], "projects");
    let stages: std::collections::BTreeSet<String> =
        server.requests().iter().map(|r| r.stage()).collect();
    assert_eq!(
        stages.into_iter().collect::<Vec<_>>(),
        ["day_beats", "director", "notes", "projects", "sessions"]
    );
    let (sessions, events) = sources(&live);
    assert!(sessions.iter().all(|s| s == "script"));
    assert!(events.iter().all(|s| s == "script"));
    // The same household as the scripted backend's, source marks aside.
    let scripted = t.path().join("scripted");
    generate_trace(&s, &scripted, &TraceOptions::scripted(3, 7)).unwrap();
    let strip = |dir: &Path| -> Vec<String> {
        fs::read_to_string(dir.join("events.jsonl"))
            .unwrap()
            .lines()
            .map(|l| l.replace(",\"source\":\"script\"", ""))
            .collect()
    };
    assert_eq!(strip(&live), strip(&scripted));
    // As plausible as the scripted backend's: lint finds the same as there.
    let lint_of = |dir: &Path| {
        let trace = read_trace(dir).unwrap();
        let plan: hearth::generation::Plan =
            serde_json::from_str(&fs::read_to_string(dir.join("plan.json")).unwrap()).unwrap();
        hearth::lint::lint_planned(&trace.scene, &trace.events, &plan.deliberate()).unwrap()
    };
    assert_eq!(lint_of(&live), lint_of(&scripted));
    assert_replays(&cache, &live, 3);
}

#[test]
fn a_spent_budget_lets_the_script_complete_the_trace() {
    let s = scene();
    let server = MockServer::start(household(&s));
    let t = tmp();
    let client = LlmClient::new(config(&server.url, None)).unwrap();
    generate_with(&client, 2, &t.path().join("whole")).unwrap();
    let full = client.stats();
    let mut c = config(&server.url, Some(&t.path().join("cache")));
    c.budget_tokens = Some((full.prompt_tokens + full.completion_tokens) / 3);
    c.on_budget = OnBudget::Script;
    let client = LlmClient::new(c).unwrap();
    let live = t.path().join("live");
    let summary = generate_with(&client, 2, &live).unwrap();
    assert!(client.budget_spent());
    let a = &summary.llm.as_ref().unwrap().authored;
    assert!(a.llm_sessions > 0 && a.llm_sessions < a.sessions, "{a:?}");
    assert!(a.llm_events > 0 && a.llm_events < a.events, "{a:?}");
    // The model plans the first day's sessions (the script adds its
    // commitments among them); once the budget is spent, the script plans
    // every day to the end.
    let plan: Value = serde_json::from_slice(&fs::read(live.join("plan.json")).unwrap()).unwrap();
    let sessions = plan["sessions"].as_array().unwrap();
    let last_llm = sessions
        .iter()
        .filter(|s| s["source"] == "llm")
        .map(|s| s["day"].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(
        sessions
            .iter()
            .filter(|s| s["day"].as_u64().unwrap() > last_llm)
            .all(|s| s["source"] == "script"),
        "{sessions:?}"
    );
    assert!(
        sessions
            .iter()
            .any(|s| s["day"].as_u64().unwrap() > last_llm),
        "the model planned every day"
    );
    let fallbacks = &summary.llm.as_ref().unwrap().fallbacks;
    assert!(
        fallbacks
            .iter()
            .all(|f| f.reason == "the token budget is spent")
    );
}

#[test]
fn a_constrained_decoder_with_poor_choices_writes_most_of_the_days() {
    let s = scene();
    let server = MockServer::start(constrained(&s, 7, 0.05));
    let t = tmp();
    let cache = t.path().join("cache");
    let client = LlmClient::new(config(&server.url, Some(&cache))).unwrap();
    let live = t.path().join("live");
    let summary = generate_with(&client, 2, &live).unwrap();
    let llm = summary.llm.as_ref().unwrap();
    // What a constrained server sends always fits the schema: nothing to
    // repair, map or clamp.
    let total = llm.total();
    assert_eq!((total.repairs, total.fixed), (0, 0), "{llm:?}");
    let a = &llm.authored;
    assert!(
        a.intent_share() >= 0.8 && a.utterance_share() >= 0.5,
        "{a:?} {:?}",
        llm.fallbacks
    );
    // Every stage ran and says how many of its calls it could use.
    assert_eq!(llm.stages.len(), 7, "{llm:?}");
    for (stage, c) in &llm.stages {
        assert!(c.accepted > 0 && c.accepted <= c.calls, "{stage}: {c:?}");
    }
    assert_replays(&cache, &live, 2);
    // The poor choices show: the days differ from the same model's without.
    let server = MockServer::start(constrained(&s, 7, 0.0));
    let plain = t.path().join("plain");
    generate_with(
        &LlmClient::new(config(&server.url, None)).unwrap(),
        2,
        &plain,
    )
    .unwrap();
    assert_ne!(
        fs::read(live.join("plan.json")).unwrap(),
        fs::read(plain.join("plan.json")).unwrap()
    );
}

/// A server with a context of `n` tokens (about three characters a token)
/// that refuses a longer prompt as llama.cpp's does.
fn with_context(
    n: usize,
    inner: impl Fn(&hearth::llm::mock::MockRequest) -> MockReply + Send + Sync + 'static,
) -> impl Fn(&hearth::llm::mock::MockRequest) -> MockReply + Send + Sync + 'static {
    move |r| {
        let need = r.text().len().div_ceil(3) + r.body["max_tokens"].as_u64().unwrap_or(0) as usize;
        if need > n {
            return MockReply::status(
                400,
                &format!(
                    "{{\"error\":{{\"message\":\"This model's maximum context length is {n} tokens. However, you requested {need} tokens.\",\"type\":\"invalid_request_error\",\"code\":\"context_length_exceeded\"}}}}"
                ),
            );
        }
        inner(r)
    }
}

#[test]
fn prompts_fit_the_context_and_a_refusal_falls_back() {
    let s = scene();
    let t = tmp();
    // Told the context, every prompt fits: trimmed, never refused.
    let server = MockServer::start(with_context(4096, household(&s)));
    let mut c = config(&server.url, Some(&t.path().join("fit")));
    c.context = Some(4096);
    let live = t.path().join("fit-live");
    let summary = generate_with(&LlmClient::new(c).unwrap(), 2, &live).unwrap();
    let reqs = server.requests();
    assert!(!reqs.is_empty());
    let within = |r: &hearth::llm::mock::MockRequest| {
        r.text().len().div_ceil(3) + r.body["max_tokens"].as_u64().unwrap_or(0) as usize <= 4096
    };
    assert!(reqs.iter().all(within));
    assert!(summary.llm.unwrap().authored.llm_sessions > 0);
    // Not told (a larger context assumed): the server's refusals are
    // unusable replies, the script fills those stages, the trace completes
    // and replays.
    let server = MockServer::start(with_context(3000, household(&s)));
    let cache = t.path().join("refused");
    let mut c = config(&server.url, Some(&cache));
    c.context = Some(100_000);
    let live = t.path().join("refused-live");
    let summary = generate_with(&LlmClient::new(c).unwrap(), 2, &live).unwrap();
    let llm = summary.llm.unwrap();
    let refused: Vec<_> = llm
        .fallbacks
        .iter()
        .filter(|f| f.reason.contains("longer than the model's context"))
        .collect();
    assert!(!refused.is_empty(), "{:?}", llm.fallbacks);
    let mut c = config("http://127.0.0.1:9/v1", Some(&cache));
    c.replay = true;
    c.context = Some(100_000);
    let again = t.path().join("refused-again");
    generate_with(&LlmClient::new(c).unwrap(), 2, &again).unwrap();
    for f in ["events.jsonl", "plan.json", "notes.jsonl", "manifest.json"] {
        assert_eq!(
            fs::read(live.join(f)).unwrap(),
            fs::read(again.join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn the_sessions_prompt_carries_the_household_calendar() {
    let s = scene();
    let server = MockServer::start(household(&s));
    let t = tmp();
    let live = t.path().join("live");
    // An 8k context, as the small real models run: at the 4k assumed of a
    // server that does not say, the apartment's listing leaves the
    // calendar room for its first few lines only ("(5 more left out)").
    let mut c = config(&server.url, None);
    c.context = Some(8192);
    generate_with(&LlmClient::new(c).unwrap(), 2, &live).unwrap();
    // The script's own days on the same seed: the calendar a model is told.
    let scripted = t.path().join("scripted");
    generate_trace(
        &s,
        &scripted,
        &TraceOptions::new(2, 7, BackendSpec::Scripted),
    )
    .unwrap();
    let plan: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(scripted.join("plan.json")).unwrap()).unwrap();
    let prompts: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.text())
        .filter(|t| t.contains("Stage: sessions."))
        .collect();
    for (day, weekday) in [(1, "Monday, a weekday."), (2, "Tuesday, a weekday.")] {
        let prompt = prompts
            .iter()
            .find(|p| p.contains(&format!("Day {day}: the household's calendar")))
            .unwrap_or_else(|| panic!("no sessions prompt for day {day}"));
        assert!(prompt.contains("Today's calendar"), "{prompt}");
        assert!(prompt.contains(weekday), "{prompt}");
        // Every departure the script plans that day is in the prompt, with
        // who goes, at its time (within ten minutes: the script's own day
        // draws its times after a day directed by itself, not the model).
        let leaves: Vec<&serde_json::Value> = plan["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["day"] == day && x["kind"] == "leave")
            .collect();
        assert!(!leaves.is_empty(), "nobody goes out on day {day}");
        for l in leaves {
            let who = l["params"]["who"].as_str().unwrap();
            let t = l["start"].as_u64().unwrap() % 86_400;
            let said = |x: &str| {
                let hhmm = x.split(" at ").nth(1)?.get(..5)?;
                let (h, m) = hhmm.split_once(':')?;
                Some(h.parse::<u64>().ok()? * 3600 + m.parse::<u64>().ok()? * 60)
            };
            assert!(
                prompt.lines().any(|x| x.contains(&format!("({who}) goes"))
                    && said(x).is_some_and(|at| at.abs_diff(t) <= 600)),
                "{who} leaving at {:02}:{:02} is not in:\n{prompt}",
                t / 3600,
                t % 3600 / 60
            );
        }
        // And the free time it may add sessions in.
        let free = prompt.split("Free time at home:\n").nth(1).unwrap();
        assert!(
            free.lines().next().unwrap().contains(": ") && free.contains("robot: "),
            "{prompt}"
        );
    }
    // The calendar frames the model's day: everyone leaves and comes back
    // when the script's day has them do it.
    let live_plan: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(live.join("plan.json")).unwrap()).unwrap();
    let outings = |plan: &serde_json::Value| -> Vec<(u64, String, String)> {
        plan["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["kind"] == "leave" || x["kind"] == "arrive")
            .map(|x| {
                (
                    x["start"].as_u64().unwrap(),
                    x["kind"].as_str().unwrap().to_string(),
                    x["params"]["who"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    // (to the minute, but for a return pushed a minute by the session
    // before it).
    let (a, b) = (outings(&live_plan), outings(&plan));
    assert_eq!(a.len(), b.len(), "{a:?}\n{b:?}");
    for (x, y) in a.iter().zip(&b) {
        assert!(
            x.1 == y.1 && x.2 == y.2 && x.0.abs_diff(y.0) <= 600,
            "{x:?} {y:?}"
        );
    }
    let events = |dir: &Path| -> Vec<(u64, String, String)> {
        read_trace(dir)
            .unwrap()
            .events
            .iter()
            .filter(|e| e.outcome.is_ok() && matches!(e.action.skill_name(), "leave" | "arrive"))
            .map(|e| {
                (
                    e.day as u64,
                    e.actor.to_string(),
                    e.action.skill_name().to_string(),
                )
            })
            .collect()
    };
    // Every outing the model's day holds is the script's, in order; a
    // model's session that overran may cost one person's short outing
    // (a dinner the model cooked 40 minutes ran past Bob's evening run:
    // the door's sessions give an outing up rather than leave late),
    // never more.
    let (live, scripted) = (events(&live), events(&scripted));
    let mut rest = scripted.iter();
    assert!(
        live.iter().all(|x| rest.any(|y| y == x)),
        "{live:?}\n{scripted:?}"
    );
    let missing: Vec<_> = scripted.iter().filter(|x| !live.contains(x)).collect();
    assert!(
        missing.len() <= 2 && missing.iter().all(|m| m.1 == missing[0].1),
        "{missing:?}"
    );
}

/// What each kind of server publishes beside its chat endpoint, the
/// dialect hearth should find in it, the path and schema form its chat
/// requests should take, and the context it reports.
/// A kind of server: what it is, the pages it publishes, the path and
/// schema form of its chat requests.
type ServerKind = (
    &'static str,
    Vec<(&'static str, Value)>,
    &'static str,
    &'static str,
);

fn servers() -> Vec<ServerKind> {
    let models = |owner: &str, extra: Value| {
        let mut m = json!({"id": "mock-model", "object": "model", "owned_by": owner});
        if let (Some(m), Some(x)) = (m.as_object_mut(), extra.as_object()) {
            m.extend(x.clone());
        }
        json!({"object": "list", "data": [m]})
    };
    vec![
        (
            "a plain OpenAI-compatible server",
            vec![],
            "/v1/chat/completions",
            "json_schema",
        ),
        (
            "llama.cpp's server",
            vec![
                ("/v1/models", models("llamacpp", json!({}))),
                (
                    "/props",
                    json!({"default_generation_settings": {"n_ctx": 6144}, "total_slots": 1}),
                ),
            ],
            "/v1/chat/completions",
            "json_schema",
        ),
        (
            "llama-cpp-python's server",
            vec![("/v1/models", models("me", json!({})))],
            "/v1/chat/completions",
            "json_object",
        ),
        (
            "vLLM",
            vec![("/v1/models", models("vllm", json!({"max_model_len": 6144})))],
            "/v1/chat/completions",
            "vllm",
        ),
        (
            "Ollama",
            vec![
                ("/api/version", json!({"version": "0.12.6"})),
                (
                    "/api/show",
                    json!({"model_info": {"general.architecture": "llama", "llama.context_length": 6144}}),
                ),
                ("/v1/models", models("library", json!({}))),
            ],
            "/api/chat",
            "ollama",
        ),
    ]
}

#[test]
fn each_server_is_asked_once_what_it_is_and_spoken_to_in_its_dialect() {
    let s = scene();
    let t = tmp();
    let mut plans = vec![];
    for (i, (what, pages, path, format)) in servers().into_iter().enumerate() {
        let server = MockServer::serving(0, &pages, household(&s));
        let mut c = config(&server.url, Some(&t.path().join(format!("cache{i}"))));
        c.dialect = None;
        let client = LlmClient::new(c).unwrap();
        let live = t.path().join(format!("live{i}"));
        generate_with(&client, 1, &live).unwrap();
        let reqs = server.requests();
        assert!(reqs.len() > 5, "{what}");
        for r in &reqs {
            assert_eq!((r.path.as_str(), r.format()), (path, format), "{what}");
            // The reply schema travels whole in every dialect.
            assert_eq!(r.schema()["type"], "object", "{what}");
        }
        if format == "ollama" {
            let o = &reqs[0].body["options"];
            assert_eq!(
                (&o["num_ctx"], &reqs[0].body["stream"]),
                (&json!(4096), &json!(false)),
                "{what}"
            );
            assert!(o["num_predict"].as_u64().is_some(), "{what}");
        }
        // The same replies make the same trace, whatever the dialect.
        plans.push(fs::read(live.join("events.jsonl")).unwrap());
        assert_eq!(plans[0], plans[i], "{what}");
        assert!(client.stats().fallbacks == 0, "{what}");
    }
    // `--llm-dialect` is taken at its word: no probe decides it.
    let (_, pages, ..) = servers().remove(4);
    let server = MockServer::serving(0, &pages, household(&s));
    let mut c = config(&server.url, None);
    c.dialect = Some(hearth::llm::Dialect::Vllm);
    let client = LlmClient::new(c).unwrap();
    client.complete_blocking(small_call(1)).ok();
    assert_eq!(server.requests()[0].format(), "vllm");
}

#[test]
fn the_context_comes_from_the_server_and_a_replay_keeps_the_recorded_one() {
    let s = scene();
    let t = tmp();
    for (what, pages, _, _) in servers() {
        let server = MockServer::serving(0, &pages, household(&s));
        let mut c = config(&server.url, None);
        (c.dialect, c.context) = (None, None);
        let got = LlmClient::new(c.clone()).unwrap().context();
        // llama.cpp's n_ctx and vLLM's max_model_len are the context; Ollama's
        // model limit only caps the 4096 hearth asks it for; others do not say.
        let want = match what {
            "llama.cpp's server" | "vLLM" => 6144,
            _ => 4096,
        };
        assert_eq!(got, want, "{what}");
        // More than the server serves is cut down to it.
        c.context = Some(32768);
        let capped = LlmClient::new(c).unwrap().context();
        assert_eq!(
            capped,
            if what.contains("plain") || what.contains("python") {
                32768
            } else {
                6144
            },
            "{what}"
        );
    }
    // Recorded with the server's context, replayed without being told it.
    let (_, pages, ..) = servers().remove(1);
    let server = MockServer::serving(0, &pages, household(&s));
    let cache = t.path().join("cache");
    let mut c = config(&server.url, Some(&cache));
    (c.dialect, c.context) = (None, None);
    let live = t.path().join("live");
    generate_with(&LlmClient::new(c).unwrap(), 1, &live).unwrap();
    let recorded: Value =
        serde_json::from_slice(&fs::read(cache.join("endpoints.json")).unwrap()).unwrap();
    assert_eq!(recorded["context"], 6144);
    let mut c = config("http://127.0.0.1:9/v1", Some(&cache));
    (c.replay, c.context) = (true, None);
    assert_eq!(LlmClient::new(c).unwrap().context(), 6144);
    let mut c = config("http://127.0.0.1:9/v1", Some(&cache));
    c.context = None;
    let again = t.path().join("again");
    c.replay = true;
    generate_with(&LlmClient::new(c).unwrap(), 1, &again).unwrap();
    assert_eq!(
        fs::read(live.join("events.jsonl")).unwrap(),
        fs::read(again.join("events.jsonl")).unwrap()
    );
}

/// An LLM answer in words is a hallucination exactly when it is the trap
/// of its own question (not of another one asked beside it).
#[test]
fn llm_answers_that_give_the_trap_are_hallucinations() {
    let sc = scene();
    let t = tmp();
    let trace = t.path().join("tr");
    hearth(&["generate", "--days", "2", "--out", s(&trace)]).ok();
    hearth(&["mine", "--trace", s(&trace)]).ok();
    let (_, mined) = hearth::store::read_samples(&trace.join("samples.jsonl")).unwrap();
    let qa: Vec<hearth::samples::QaSample> = mined
        .into_iter()
        .filter_map(|m| match m {
            hearth::samples::Sample::Qa(q) => Some(q),
            hearth::samples::Sample::Plan(_) => None,
        })
        .collect();
    // The trap of each question whose words no other question shares.
    let mut traps: std::collections::BTreeMap<String, Option<String>> = Default::default();
    for q in &qa {
        let trap = q.adversarial_answer.clone().filter(|a| !a.is_empty());
        traps
            .entry(q.question.clone())
            .and_modify(|t| *t = None)
            .or_insert(trap);
    }
    let said = traps.clone();
    let household = household(&sc);
    let server = MockServer::start(move |req: &MockRequest| {
        if req.stage() != "answer" {
            return household(req);
        }
        let text = req.text();
        let asked = text.split("Question: ").nth(1).unwrap_or("").lines().next();
        let trap = asked.and_then(|q| said.get(q).cloned().flatten());
        let answer = trap.unwrap_or_else(|| "No information available.".into());
        MockReply::json_for(req, &json!({ "answer": answer }))
    });
    let out = t.path().join("worded.json");
    hearth(&[
        "eval",
        "--trace",
        s(&trace),
        "--agent",
        "bm25",
        "--answerer",
        "llm",
        "--llm-url",
        &server.url,
        "--llm-cache",
        s(&t.path().join("cache")),
        "--out",
        s(&out),
    ])
    .ok();
    let r: Vec<hearth::eval::Report> = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
    let by_id: std::collections::BTreeMap<&str, &hearth::samples::QaSample> =
        qa.iter().map(|q| (q.id.as_str(), q)).collect();
    let mut trapped = 0;
    for res in &r[0].questions {
        let q = by_id[res.id.as_str()];
        let trap = traps[&q.question].is_some();
        trapped += usize::from(trap);
        assert_eq!(
            res.hallucinated,
            trap.then_some(true),
            "{}: {:?}",
            q.id,
            res.text
        );
    }
    assert!(trapped > 5, "{trapped} questions answered with their trap");
}

#[test]
fn a_poor_models_day_is_as_lived_as_the_scripts() {
    // A constrained decoder that makes a poor choice at one value in ten,
    // over two days: the calendar keeps the day lived, grounding keeps the
    // model's steps from being refused or looping, and the lint and the
    // time-use bands find no more than in the script's day.
    let s = scene();
    let server = MockServer::start(constrained(&s, 3, 0.1));
    let t = tmp();
    let live = t.path().join("live");
    let summary = generate_with(
        &LlmClient::new(config(&server.url, None)).unwrap(),
        2,
        &live,
    )
    .unwrap();
    let scripted = t.path().join("scripted");
    generate_trace(&s, &scripted, &TraceOptions::scripted(2, 7)).unwrap();
    let model = hearth::workflow::check::verdict(&live).unwrap();
    let script = hearth::workflow::check::verdict(&scripted).unwrap();
    assert!(
        model.outside.len() <= script.outside.len(),
        "{model:?} against the script's {script:?}"
    );
    let findings: usize = model.lint.values().sum();
    assert!(findings <= 2, "{:?}", model.lint);
    assert_eq!(
        (model.lint["refused_again"], model.lint["switch_loop"]),
        (0, 0)
    );
    let a = &summary.llm.as_ref().unwrap().authored;
    assert!(a.refused_share() <= 0.25, "{a:?}");
    assert!(
        a.utterance_share() >= 0.5 && a.intent_share() >= 0.5,
        "{a:?}"
    );
}

/// What the model puts down without holding it is picked up first (the
/// walk to it put before), where it can go where it is put: the stand-in
/// model that never learns to pick (`stepwise`) puts its mug down, and no
/// step of the model's is refused for not holding what lay on a surface
/// (what is shut away is not opened for it: it would be left open).
#[test]
fn what_the_model_puts_down_unheld_is_picked_up_first() {
    let text = hearth::scene::default_source().replacen(
        r#"owner: Some("alice"), at: In("cabinet_1")"#,
        r#"owner: Some("alice"), at: On("counter_1")"#,
        1,
    );
    let s = hearth::scene::parse("family_apartment", &text).unwrap();
    let server = MockServer::start(stepwise(&s));
    let t = tmp();
    let client = LlmClient::new(config(&server.url, None)).unwrap();
    let out = t.path().join("live");
    generate_trace(&s, &out, &TraceOptions::new(1, 7, BackendSpec::Llm(client))).unwrap();
    let trace = read_trace(&out).unwrap();
    let by_model: Vec<&Event> = trace
        .events
        .iter()
        .filter(|e| e.source == Some(Source::Llm))
        .collect();
    let placed = by_model
        .iter()
        .position(|e| e.action.skill_name() == "place" && e.outcome.is_ok())
        .expect("the model's mug is put down");
    let who = &by_model[placed].actor;
    assert!(
        by_model[..placed]
            .iter()
            .any(|e| &e.actor == who && e.action.skill_name() == "pick" && e.outcome.is_ok()),
        "no pick before the place"
    );
    let refused: Vec<_> = by_model
        .iter()
        .filter_map(|e| e.outcome.rejection())
        .collect();
    assert!(
        refused
            .iter()
            .all(|r| r.code != RejectionCode::NotHolding || !r.message.contains("(it is on ")),
        "{refused:#?}"
    );
}
