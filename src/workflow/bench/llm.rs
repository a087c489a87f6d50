//! The LLM client against mock servers: calls per second, concurrency and
//! endpoints, through a batch.

use std::time::{Duration, Instant};

use super::options::{BenchOptions, Lines, failed};
use crate::jobs::BackendSpec;
use crate::jobs::batch::{self, BatchSpec};
use crate::llm::mock::{MockReply, MockRequest, MockServer, grammar, household, stepwise};
use crate::llm::{Call, LlmClient, LlmConfig, Message};
use crate::scene;
use crate::store;
use crate::workflow::error::WorkflowError;

/// The LLM path against mock servers answering after `--llm-delay-ms`:
/// raw client throughput with 8 in flight; batches of LLM traces with their
/// calls, tokens and prefix reuse per accepted event; throughput over one
/// and two servers of bounded slots.
pub fn llm(args: &BenchOptions, out: Lines) -> Result<(), WorkflowError> {
    let delay = std::time::Duration::from_millis(args.llm_delay_ms);
    let concurrency = 8usize;
    let scene = scene::parse("family_apartment", scene::default_source()).map_err(failed)?;
    let server =
        MockServer::start(move |_| MockReply::json(&serde_json::json!({"n": 1})).after(delay));
    let mut config = LlmConfig::new(&server.url, "mock");
    config.concurrency = concurrency;
    let client = LlmClient::new(config).map_err(failed)?;
    let calls = 20 * concurrency as u64;
    let (tx, rx) = crossbeam_channel::unbounded();
    let t0 = Instant::now();
    for seed in 0..calls {
        let tx = tx.clone();
        client.spawn(
            Call {
                stage: "bench".into(),
                messages: vec![Message::user("a number")],
                schema_name: "n".into(),
                schema: serde_json::json!({"type": "object"}),
                seed,
                max_tokens: None,
            },
            move |r| {
                let _ = tx.send(r.is_ok());
            },
        );
    }
    let ok = (0..calls).filter(|_| rx.recv().unwrap_or(false)).count();
    let spent = t0.elapsed().as_secs_f64();
    let ideal = concurrency as f64 / delay.as_secs_f64();
    out(format!(
        "LLM client against the mock server ({} ms per reply, {concurrency} in flight, {calls} calls, {ok} ok):\n  {:>8.1} requests/s of an ideal {:.1}: {:.2}",
        args.llm_delay_ms,
        calls as f64 / spent,
        ideal,
        calls as f64 / spent / ideal
    ));
    // LLM traces through batch: 8 traces at once share the 8 slots. First a
    // mock that answers sensibly, then the error-injecting one (invented ids
    // and one step per call), then servers of 4 slots each: one, then two.
    let sensible = MockServer::start(slow(household(&scene), delay));
    let r = llm_batch(&[&sensible.url], concurrency, 1)?;
    out(format!(
        "batch --backend openai, {concurrency} one-day traces, --jobs {concurrency} --llm-concurrency {concurrency}, a mock answering sensibly:\n  {:>8.1} requests/s of an ideal {ideal:.1}: {:.2}; {}",
        r.per_sec(),
        r.per_sec() / ideal,
        r.costs()
    ));
    // Per-event figures only: no need to wait on it.
    let faulty = MockServer::start(stepwise(&scene));
    let r = llm_batch(&[&faulty.url], concurrency, 1)?;
    out(format!("  the error-injecting mock: {}", r.costs()));
    let constrained = MockServer::start(grammar(&scene));
    let r = llm_batch(&[&constrained.url], concurrency, 4)?;
    out(format!(
        "  the grammar-constrained mock (numbers out of bounds, names slightly off in every item): {}; the model wrote {:.0}% of the sessions",
        r.costs(),
        100.0 * r.llm_sessions as f64 / r.sessions.max(1) as f64
    ));
    let slots = 4;
    let servers: Vec<MockServer> = (0..2)
        .map(|_| MockServer::with_slots(slots, slow(household(&scene), delay)))
        .collect();
    let one = llm_batch(&[&servers[0].url], concurrency, 2)?;
    let two = llm_batch(&[&servers[0].url, &servers[1].url], concurrency, 3)?;
    let per_server = slots as f64 / delay.as_secs_f64();
    out(format!(
        "servers of {slots} slots ({} ms per reply), --llm-concurrency {concurrency}:\n  one --llm-url {:>6.1} requests/s of an ideal {per_server:.1}; two {:>6.1} of {:.1}: {:.2}x",
        args.llm_delay_ms,
        one.per_sec(),
        two.per_sec(),
        2.0 * per_server,
        two.per_sec() / one.per_sec()
    ));
    Ok(())
}

/// `handler`, answering after `delay`.
fn slow(
    handler: impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static,
    delay: Duration,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    move |r| handler(r).after(delay)
}

/// Figures of one LLM batch run.
struct LlmRun {
    requests: u64,
    accepted: u64,
    tokens: u64,
    prompt_chars: u64,
    reused: u64,
    sessions: u64,
    llm_sessions: u64,
    seconds: f64,
}

impl LlmRun {
    fn per_sec(&self) -> f64 {
        self.requests as f64 / self.seconds
    }

    fn costs(&self) -> String {
        format!(
            "{:.2} LLM calls and {:.0} tokens per accepted event; {:.0}% of each prompt repeats the previous call's prefix",
            self.requests as f64 / self.accepted.max(1) as f64,
            self.tokens as f64 / self.accepted.max(1) as f64,
            100.0 * self.reused as f64 / self.prompt_chars.max(1) as f64
        )
    }
}

/// `traces` one-day LLM traces over `urls` with as many jobs and requests
/// in flight; seeds from `run * traces` so every run asks anew.
fn llm_batch(urls: &[&str], traces: usize, run: usize) -> Result<LlmRun, WorkflowError> {
    let root = std::env::temp_dir().join(format!("hearth-bench-llm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let t0 = Instant::now();
    let urls: Vec<String> = urls.iter().map(|u| u.to_string()).collect();
    let mut config = LlmConfig::with_urls(&urls, "mock");
    config.concurrency = traces;
    config.timeout = Duration::from_secs(60);
    config.retries = 2;
    config.cache = Some(root.join("cache"));
    let o = LlmClient::new(config).map_err(failed).and_then(|client| {
        let spec = BatchSpec {
            seeds: Some(format!("{}..{}", run * traces, (run + 1) * traces)),
            days: 1,
            jobs: traces as u64,
            backend_name: "openai".into(),
            backend: BackendSpec::Llm(client),
            ..BatchSpec::new(root.join("traces"))
        };
        batch::execute(&spec, &|_| ()).map_err(failed)
    });
    let seconds = t0.elapsed().as_secs_f64();
    let mut r = LlmRun {
        requests: 0,
        accepted: 0,
        tokens: 0,
        prompt_chars: 0,
        reused: 0,
        sessions: 0,
        llm_sessions: 0,
        seconds,
    };
    // Every trace directory (not the batch record, `batch.json`).
    for t in std::fs::read_dir(root.join("traces"))
        .map_err(failed)?
        .flatten()
    {
        if !t.path().is_dir() {
            continue;
        }
        let m = store::read_trace(&t.path())?.manifest;
        let llm = m.llm.unwrap_or_default();
        let total = llm.total();
        r.requests += total.requests;
        r.tokens += total.prompt_tokens + total.completion_tokens;
        r.prompt_chars += llm.prompt_chars;
        r.reused += llm.reused_prefix_chars;
        r.sessions += llm.authored.sessions;
        r.llm_sessions += llm.authored.llm_sessions;
        r.accepted += m.counts.events - m.counts.rejected;
    }
    let _ = std::fs::remove_dir_all(&root);
    let o = o?;
    if !o.failures.is_empty() {
        return Err(failed(format!("LLM batch failed: {:?}", o.failures)));
    }
    Ok(r)
}
