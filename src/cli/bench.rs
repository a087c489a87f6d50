//! `hearth bench`: figures for the README's performance section. Timing
//! lives here, at the binary edge; the core never reads a clock.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;

use hearth::generation::{self, scripted::Scripted};
use hearth::procgen::{self, SceneSpec};
use hearth::scene;

use crate::batch;
use hearth::jobs::BackendSpec;
use hearth::jobs::batch::BatchSpec;
use hearth::sim::Simulation;
use hearth::sim::stress::RandomRequests;

#[derive(Args)]
pub struct BenchArgs {
    /// Requests to execute in the executor benchmark.
    #[arg(long, default_value_t = 300_000)]
    requests: usize,
    /// Built-in scene for the executor benchmark.
    #[arg(long, default_value = "large_house")]
    scene: String,
    /// Seed of the random request mix.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Traces per run in the generation and batch benchmarks.
    #[arg(long, default_value_t = 40)]
    traces: u64,
    /// Simulated days per generated trace.
    #[arg(long, default_value_t = 7)]
    days: u32,
    /// How long the mock LLM server takes per reply, in the LLM benchmark.
    #[arg(long, default_value_t = 200)]
    llm_delay_ms: u64,
    /// Only the LLM benchmark (mock servers, no executor or generation runs).
    #[arg(long)]
    llm_only: bool,
    /// Only the editor's figures (validation per edit; with the gui feature,
    /// CPU time per frame while dragging).
    #[arg(long)]
    editor_only: bool,
    /// Only the cost against horizon: generation, mining, evaluation and
    /// export of one family-apartment trace at each of `--horizons` days.
    #[arg(long)]
    horizon_only: bool,
    /// Only the scripted generation benchmark (`--traces` x `--days` of the
    /// family apartment), for profiling and before/after figures.
    #[arg(long)]
    generation_only: bool,
    /// Only the built-in agents' ingest and answer rates on one trace of
    /// `--days` days.
    #[arg(long)]
    eval_only: bool,
    /// Horizons, in days, of the cost-against-horizon benchmark.
    #[arg(long, value_delimiter = ',', default_value = "7,14,28,56")]
    horizons: Vec<u32>,
}

pub fn run(args: BenchArgs) -> Result<ExitCode> {
    if cfg!(debug_assertions) {
        eprintln!(
            "warning: this is a debug build; run `cargo run --release -- bench` for real figures"
        );
    }
    if args.llm_only {
        bench_llm(&args)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.editor_only {
        bench_editor()?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.eval_only {
        bench_eval(&args)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.horizon_only {
        bench_horizon(&args.horizons)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.generation_only {
        bench_generation(&args)?;
        return Ok(ExitCode::SUCCESS);
    }
    println!("scene load (parse + validate), spawn into the ECS world:");
    for (id, src) in scene::BUILTIN {
        let reps = 50;
        let t0 = Instant::now();
        for _ in 0..reps {
            black_box(scene::parse(id, src)?);
        }
        let parse = t0.elapsed() / reps;
        let s = scene::parse(id, src)?;
        let t0 = Instant::now();
        for _ in 0..reps {
            black_box(
                Simulation::new(s.clone()).map_err(|p| anyhow::anyhow!("{} problems", p.len()))?,
            );
        }
        let spawn = t0.elapsed() / reps;
        println!(
            "  {id:<18} {:>8.2} ms parse  {:>8.2} ms spawn",
            ms(parse),
            ms(spawn)
        );
    }

    let src = scene::BUILTIN
        .iter()
        .find(|(id, _)| *id == args.scene)
        .ok_or_else(|| anyhow::anyhow!("no built-in scene {}", args.scene))?
        .1;
    let mut sim = Simulation::new(scene::parse(&args.scene, src)?)
        .map_err(|p| anyhow::anyhow!("{} problems", p.len()))?;
    let mut requests = RandomRequests::new(&sim, args.seed);
    let mut spent = Duration::ZERO;
    let (mut accepted, mut bytes) = (0usize, 0usize);
    let mut line = Vec::with_capacity(4096);
    for _ in 0..args.requests {
        let req = requests.next(&sim);
        let t0 = Instant::now();
        let event = sim.execute(req);
        line.clear();
        serde_json::to_writer(&mut line, &event)?;
        spent += t0.elapsed();
        bytes += line.len() + 1;
        accepted += usize::from(event.outcome.is_ok());
    }
    let per_sec = args.requests as f64 / spent.as_secs_f64();
    println!(
        "executor on {} ({} requests, {:.0}% accepted; validate + apply + perceive + record as JSON):\n  {:>10.0} requests/s  {:>6.2} us/request  {:.0} bytes/event",
        args.scene,
        args.requests,
        100.0 * accepted as f64 / args.requests as f64,
        per_sec,
        1e6 / per_sec,
        bytes as f64 / args.requests as f64,
    );
    bench_procgen(1000)?;
    bench_editor()?;
    bench_generation(&args)?;
    bench_batch(&args)?;
    bench_eval(&args)?;
    bench_horizon(&args.horizons)?;
    bench_playback()?;
    bench_llm(&args)?;
    Ok(ExitCode::SUCCESS)
}

/// The agents `hearth eval` is timed with in the horizon benchmark: the
/// built-ins that remember something.
const HORIZON_AGENTS: [&str; 5] = ["oracle", "recent", "bm25", "obsmem", "kg"];

/// Generation, mining (with every check, as `hearth mine`), evaluation by
/// five built-in agents and the LongMemEval `s` and `m` and LoCoMo exports
/// (serialized, not written) of the family apartment, seed 1, at each horizon, and each
/// one's fitted exponent: the slope of log time against log days.
fn bench_horizon(horizons: &[u32]) -> Result<()> {
    use hearth::eval::agents::{BuiltIn, Strategy};
    use hearth::samples::export::{Haystack, longmemeval_records};
    use hearth::samples::{Index, Sample};
    let s = scene::parse("family_apartment", scene::default_source())?;
    println!(
        "cost against horizon, family apartment seed 1, one thread (s; agents: {}):",
        HORIZON_AGENTS.join(", ")
    );
    println!(
        "  {:>5} {:>7} {:>7} {:>9} {:>8} {:>8} {:>9} {:>9} {:>9}",
        "days", "events", "samples", "generate", "mine", "eval", "export-s", "export-m", "locomo"
    );
    let mut rows: Vec<[f64; 7]> = Vec::new();
    for &days in horizons {
        let t0 = Instant::now();
        let mut events = Vec::new();
        let mut backend = Scripted::new(&s, 1);
        generation::generate(&s, days, &mut backend, &mut |e| {
            events.push(e.clone());
            Ok(())
        })?;
        let generate = t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        // As `hearth mine` and `hearth eval` do it.
        let ix = Index::new(&s, &events);
        let (mined, invalid) =
            hearth::samples::mine_checked(&ix, 0, hearth::samples::Asking::Robot);
        let mine = t0.elapsed().as_secs_f64();
        anyhow::ensure!(invalid.is_empty(), "{} invalid samples", invalid.len());
        let t0 = Instant::now();
        let mut agents: Vec<BuiltIn> = HORIZON_AGENTS
            .iter()
            .map(|name| BuiltIn::new(Strategy::parse(name).expect("built in")))
            .collect();
        let mut each: Vec<&mut dyn hearth::eval::Agent> = agents
            .iter_mut()
            .map(|a| a as &mut dyn hearth::eval::Agent)
            .collect();
        black_box(hearth::eval::evaluate_all(&ix, &mined, &mut each));
        let eval = t0.elapsed().as_secs_f64();
        let qa: Vec<&hearth::samples::QaSample> = mined
            .iter()
            .filter_map(|x| match x {
                Sample::Qa(q) => Some(q),
                Sample::Plan(_) => None,
            })
            .collect();
        // Serialized, not written: the cost of making them.
        let mut sink = std::io::sink();
        let mut lme = |size| -> Result<f64> {
            let t0 = Instant::now();
            for r in longmemeval_records(&ix, "bench", &qa, size, 0) {
                serde_json::to_writer(&mut sink, &r)?;
            }
            Ok(t0.elapsed().as_secs_f64())
        };
        let (export_s, export_m) = (lme(Haystack::S)?, lme(Haystack::M)?);
        let t0 = Instant::now();
        for r in hearth::samples::export::locomo_records(&ix, "bench", &qa) {
            serde_json::to_writer(&mut sink, &r)?;
        }
        let locomo = t0.elapsed().as_secs_f64();
        println!(
            "  {days:>5} {:>7} {:>7} {generate:>9.3} {mine:>8.3} {eval:>8.3} {export_s:>9.3} {export_m:>9.3} {locomo:>9.3}",
            events.len(),
            mined.len()
        );
        rows.push([
            f64::from(days),
            generate,
            mine,
            eval,
            export_s,
            export_m,
            locomo,
        ]);
    }
    if rows.len() >= 2 {
        let slope = |col: usize| {
            let pts: Vec<(f64, f64)> = rows.iter().map(|r| (r[0].ln(), r[col].ln())).collect();
            fitted_exponent(&pts)
        };
        println!(
            "  exponent (target <= 1.1): generate {:.2}, mine {:.2}, eval {:.2}, export-s {:.2}, export-m {:.2}, locomo {:.2}",
            slope(1),
            slope(2),
            slope(3),
            slope(4),
            slope(5),
            slope(6)
        );
        println!(
            "  (LoCoMo repeats the whole past at every cutoff, and `m` up to 500 sessions per question: their output, and so their cost, grows faster than the days)"
        );
    }
    Ok(())
}

/// The least-squares slope of `y` against `x`.
fn fitted_exponent(pts: &[(f64, f64)]) -> f64 {
    let n = pts.len() as f64;
    let (mx, my) = (
        pts.iter().map(|p| p.0).sum::<f64>() / n,
        pts.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let sxy: f64 = pts.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = pts.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    sxy / sxx
}

/// Opening a 30-day trace for playback (one checked replay, keyframes) and
/// seeking to random events.
fn bench_playback() -> Result<()> {
    use hearth::playback::Playback;
    let s = scene::parse("family_apartment", scene::default_source())?;
    let mut events = Vec::new();
    let mut backend = Scripted::new(&s, 0);
    generation::generate(&s, 30, &mut backend, &mut |e| {
        events.push(e.clone());
        Ok(())
    })?;
    let n = events.len();
    let t0 = Instant::now();
    let pb = Playback::new(s, events).map_err(|e| anyhow::anyhow!("{e}"))?;
    let open = t0.elapsed();
    // A fixed pseudo-random walk over the trace (no RNG needed for timing).
    let seeks = 2000u64;
    let (mut worst, mut total) = (Duration::ZERO, Duration::ZERO);
    for i in 0..seeks {
        let at = (i.wrapping_mul(2_654_435_761) % (n as u64 + 1)) as usize;
        let t0 = Instant::now();
        black_box(pb.state_at(at));
        black_box(pb.beliefs_at(at));
        let d = t0.elapsed();
        worst = worst.max(d);
        total += d;
    }
    println!(
        "playback of a 30-day family-apartment trace ({n} events):\n  open {:>8.1} ms   seek (state + robot's view) mean {:.3} ms, worst {:.3} ms",
        ms(open),
        ms(total) / seeks as f64,
        ms(worst)
    );
    Ok(())
}

/// Each built-in agent on a 7-day family-apartment trace: events ingested
/// per second, and questions answered per second (each at its cutoff).
fn bench_eval(args: &BenchArgs) -> Result<()> {
    use hearth::eval::agents::{BUILT_IN, BuiltIn, Strategy};
    use hearth::eval::{Agent, evaluate, observations};
    use hearth::samples::{Index, Sample};
    let s = scene::parse("family_apartment", scene::default_source())?;
    let mut events = Vec::new();
    let mut backend = Scripted::new(&s, 0);
    generation::generate(&s, args.days, &mut backend, &mut |e| {
        events.push(e.clone());
        Ok(())
    })?;
    let ix = Index::new(&s, &events);
    let qa: Vec<Sample> = hearth::samples::mine(&s, &events, 0)
        .into_iter()
        .filter(|x| matches!(x, Sample::Qa(_)))
        .collect();
    let seen = observations(&ix, 1, u64::MAX);
    println!(
        "agents on a {}-day family-apartment trace ({} perceived events, {} questions):",
        args.days,
        seen.len(),
        qa.len()
    );
    for name in BUILT_IN {
        let mut agent = BuiltIn::new(Strategy::parse(name).expect("built in"));
        let t0 = Instant::now();
        agent.reset(&s).map_err(|e| anyhow::anyhow!("{e}"))?;
        for o in &seen {
            agent.observe(o).map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        let ingest = t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        let (results, _) = evaluate(&ix, &qa, &mut agent);
        // evaluate() ingests again; answering is what is left.
        let answering = (t0.elapsed().as_secs_f64() - ingest).max(1e-9);
        println!(
            "  {name:<8} {:>12.0} events/s ingested  {:>10.0} answers/s  ({} answered)",
            seen.len() as f64 / ingest.max(1e-9),
            results.len() as f64 / answering,
            results.len()
        );
    }
    Ok(())
}

/// The LLM path against mock servers answering after `--llm-delay-ms`:
/// raw client throughput with 8 in flight; batches of LLM traces with their
/// calls, tokens and prefix reuse per accepted event; throughput over one
/// and two servers of bounded slots.
fn bench_llm(args: &BenchArgs) -> Result<()> {
    use hearth::llm::mock::{MockReply, MockServer, grammar, household, stepwise};
    use hearth::llm::{Call, LlmClient, LlmConfig, Message};
    let delay = std::time::Duration::from_millis(args.llm_delay_ms);
    let concurrency = 8usize;
    let scene = scene::parse("family_apartment", scene::default_source())?;
    let server =
        MockServer::start(move |_| MockReply::json(&serde_json::json!({"n": 1})).after(delay));
    let mut config = LlmConfig::new(&server.url, "mock");
    config.concurrency = concurrency;
    let client = LlmClient::new(config)?;
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
    println!(
        "LLM client against the mock server ({} ms per reply, {concurrency} in flight, {calls} calls, {ok} ok):\n  {:>8.1} requests/s of an ideal {:.1}: {:.2}",
        args.llm_delay_ms,
        calls as f64 / spent,
        ideal,
        calls as f64 / spent / ideal
    );
    // LLM traces through batch: 8 traces at once share the 8 slots. First a
    // mock that answers sensibly, then the error-injecting one (invented ids
    // and one step per call), then servers of 4 slots each: one, then two.
    let sensible = MockServer::start(slow(household(&scene), delay));
    let r = llm_batch(&[&sensible.url], concurrency, 1)?;
    println!(
        "batch --backend openai, {concurrency} one-day traces, --jobs {concurrency} --llm-concurrency {concurrency}, a mock answering sensibly:\n  {:>8.1} requests/s of an ideal {ideal:.1}: {:.2}; {}",
        r.per_sec(),
        r.per_sec() / ideal,
        r.costs()
    );
    // Per-event figures only: no need to wait on it.
    let faulty = MockServer::start(stepwise(&scene));
    let r = llm_batch(&[&faulty.url], concurrency, 1)?;
    println!("  the error-injecting mock: {}", r.costs());
    let constrained = MockServer::start(grammar(&scene));
    let r = llm_batch(&[&constrained.url], concurrency, 4)?;
    println!(
        "  the grammar-constrained mock (numbers out of bounds, names slightly off in every item): {}; the model wrote {:.0}% of the sessions",
        r.costs(),
        100.0 * r.llm_sessions as f64 / r.sessions.max(1) as f64
    );
    let slots = 4;
    let servers: Vec<MockServer> = (0..2)
        .map(|_| MockServer::with_slots(slots, slow(household(&scene), delay)))
        .collect();
    let one = llm_batch(&[&servers[0].url], concurrency, 2)?;
    let two = llm_batch(&[&servers[0].url, &servers[1].url], concurrency, 3)?;
    let per_server = slots as f64 / delay.as_secs_f64();
    println!(
        "servers of {slots} slots ({} ms per reply), --llm-concurrency {concurrency}:\n  one --llm-url {:>6.1} requests/s of an ideal {per_server:.1}; two {:>6.1} of {:.1}: {:.2}x",
        args.llm_delay_ms,
        one.per_sec(),
        two.per_sec(),
        2.0 * per_server,
        two.per_sec() / one.per_sec()
    );
    Ok(())
}

/// `handler`, answering after `delay`.
fn slow(
    handler: impl Fn(&hearth::llm::mock::MockRequest) -> hearth::llm::mock::MockReply
    + Send
    + Sync
    + 'static,
    delay: Duration,
) -> impl Fn(&hearth::llm::mock::MockRequest) -> hearth::llm::mock::MockReply + Send + Sync + 'static
{
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
fn llm_batch(urls: &[&str], traces: usize, run: usize) -> Result<LlmRun> {
    let root = std::env::temp_dir().join(format!("hearth-bench-llm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let t0 = Instant::now();
    let urls: Vec<String> = urls.iter().map(|u| u.to_string()).collect();
    let mut config = hearth::llm::LlmConfig::with_urls(&urls, "mock");
    config.concurrency = traces;
    config.timeout = Duration::from_secs(60);
    config.retries = 2;
    config.cache = Some(root.join("cache"));
    let o = hearth::llm::LlmClient::new(config)
        .map_err(anyhow::Error::new)
        .and_then(|client| {
            let spec = BatchSpec {
                seeds: Some(format!("{}..{}", run * traces, (run + 1) * traces)),
                days: 1,
                jobs: traces as u64,
                backend_name: "openai".into(),
                backend: BackendSpec::Llm(client),
                ..BatchSpec::new(root.join("traces"))
            };
            batch::execute(&spec, false)
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
    for t in std::fs::read_dir(root.join("traces"))?.flatten() {
        if !t.path().is_dir() {
            continue;
        }
        let m = hearth::store::read_trace(&t.path())?.manifest;
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
    anyhow::ensure!(o.failures.is_empty(), "LLM batch failed: {:?}", o.failures);
    Ok(r)
}

/// The scripted pipeline in memory, each event serialized as JSON.
fn bench_generation(args: &BenchArgs) -> Result<()> {
    let s = scene::parse("family_apartment", scene::default_source())?;
    let (mut events, mut bytes) = (0u64, 0usize);
    let mut line = Vec::with_capacity(4096);
    let t0 = Instant::now();
    for seed in 0..args.traces {
        let mut backend = Scripted::new(&s, seed);
        generation::generate(&s, args.days, &mut backend, &mut |e| {
            line.clear();
            serde_json::to_writer(&mut line, e).map_err(|e| e.to_string())?;
            bytes += line.len() + 1;
            events += 1;
            Ok(())
        })?;
    }
    let spent = t0.elapsed().as_secs_f64();
    println!(
        "generation, scripted backend on family_apartment ({} traces x {} days, {} events, {:.1} MB of JSON):\n  {:>10.0} events/s  {:>8.2} ms/trace",
        args.traces,
        args.days,
        events,
        bytes as f64 / 1e6,
        events as f64 / spent,
        spent * 1e3 / args.traces as f64,
    );
    Ok(())
}

/// Procedural households: time per scene (generation including its
/// validation) and the sizes they come in, over `seeds` seeds per kind.
fn bench_procgen(seeds: u64) -> Result<()> {
    let cat = hearth::catalogue::builtin();
    println!("scene generate ({seeds} seeds per kind, validation included):");
    for kind in cat.household_kinds() {
        let mut stats = Vec::new();
        let t0 = Instant::now();
        for seed in 0..seeds {
            let s = procgen::generate(&SceneSpec::new(kind, seed), cat)?;
            stats.push(scene::stats(&s));
        }
        let per = t0.elapsed() / seeds as u32;
        let range = |f: &dyn Fn(&scene::SceneStats) -> usize| {
            let v: Vec<usize> = stats.iter().map(f).collect();
            let mean = v.iter().sum::<usize>() as f64 / v.len() as f64;
            format!(
                "{}..{} (mean {mean:.1})",
                v.iter().min().unwrap_or(&0),
                v.iter().max().unwrap_or(&0)
            )
        };
        println!(
            "  {kind:<10} {:>7.3} ms/scene; rooms {}, objects {}, people {}, look-alike groups {}, closed doors {}",
            ms(per),
            range(&|s| s.rooms),
            range(&|s| s.objects),
            range(&|s| s.people),
            range(&|s| s.look_alike_groups),
            range(&|s| s.closed_doors),
        );
    }
    Ok(())
}

/// The editor's live validation: `scene::validate` as re-run after every
/// edit, while one piece of furniture is dragged back and forth, on the
/// largest built-in scene and on a 150-object house (generated houses stop
/// near 116 objects, so the largest of 50 seeds is topped up with the
/// editor's own `AddObject` on free receptacle space).
fn bench_editor() -> Result<()> {
    use hearth::editor::{Document, Edit};
    use hearth::ids::Id;
    let cat = hearth::catalogue::builtin();
    let mut house = None::<scene::Scene>;
    for seed in 0..50 {
        let s = procgen::generate(&SceneSpec::new("house", seed), cat)?;
        if house
            .as_ref()
            .is_none_or(|h| s.objects.len() > h.objects.len())
        {
            house = Some(s);
        }
    }
    let mut doc = Document::new(house.expect("50 seeds"));
    let spots: Vec<scene::Placement> = doc
        .scene()
        .furniture
        .iter()
        .flat_map(|f| f.surfaces.iter().map(|sf| (f.id.clone(), *sf)))
        .map(|(id, sf)| match sf {
            scene::Surface::On(_) => scene::Placement::On(id),
            scene::Surface::In(_) => scene::Placement::In(id),
        })
        .collect();
    for (n, at) in spots.iter().cycle().take(10_000).enumerate() {
        if doc.scene().objects.len() >= 150 {
            break;
        }
        // Refused when that surface is full; the next one is tried.
        let _ = doc.apply(Edit::AddObject(scene::ObjectDef {
            id: Id::new(&format!("box_{n}")),
            category: "box".into(),
            description: format!("cardboard box number {n}"),
            owner: None,
            at: at.clone(),
            roles: Vec::new(),
        }));
    }
    anyhow::ensure!(doc.problems().is_empty(), "the topped-up house is invalid");
    let large = scene::parse("large_house", scene::BUILTIN[2].1)?;
    let scenes = [large, doc.into_scene()];
    println!("editor: validation per edit (a drag of 2000 MoveFixture steps):");
    for s in scenes.clone() {
        let reps = 2000u32;
        let t0 = Instant::now();
        for _ in 0..reps {
            black_box(scene::validate(black_box(&s)));
        }
        let validate = t0.elapsed() / reps;
        // The first piece of furniture moves a millimetre towards the middle
        // of its room and back, so every step is accepted.
        let f = &s.furniture[0];
        let (id, pos) = (f.id.clone(), f.pos);
        let room = s
            .rooms
            .iter()
            .find(|r| r.id == f.room)
            .expect("valid scene");
        let step = 0.001f32.copysign(room.rect.center().0 - pos.0);
        let label = format!("{} ({} objects)", s.id, s.objects.len());
        let mut doc = Document::new(s);
        let t0 = Instant::now();
        doc.begin_group();
        for i in 0..reps {
            let dx = if i % 2 == 0 { step } else { 0.0 };
            doc.apply(Edit::MoveFixture {
                id: id.clone(),
                to: (pos.0 + dx, pos.1),
            })?;
        }
        doc.end_group();
        let edit = t0.elapsed() / reps;
        println!(
            "  {label:<28} validate {:>7.3} ms   edit + validate {:>7.3} ms",
            ms(validate),
            ms(edit)
        );
    }
    #[cfg(feature = "gui")]
    bench_editor_frames(&scenes)?;
    Ok(())
}

/// The editor's CPU time per frame (egui layout, plan painting and
/// tessellation, the edit, live validation; no GPU) while the pointer drags the largest room
/// back and forth, driven by real pointer events.
#[cfg(feature = "gui")]
fn bench_editor_frames(scenes: &[scene::Scene]) -> Result<()> {
    use bevy_egui::egui::{self, Event, PointerButton, Pos2, RawInput, Rect};
    use hearth::gui::edit::{EditorState, show};
    println!("editor: CPU time per frame while dragging the largest room (1500x900, 400 frames):");
    for s in scenes {
        let label = format!("{} ({} objects)", s.id, s.objects.len());
        let r = s
            .rooms
            .iter()
            .max_by(|a, b| (a.rect.w * a.rect.h).total_cmp(&(b.rect.w * b.rect.h)))
            .expect("rooms")
            .rect;
        let mut st = EditorState::new(s.clone(), None);
        st.snap = false;
        let ctx = egui::Context::default();
        let screen = Rect::from_min_size(Pos2::ZERO, egui::vec2(1500.0, 900.0));
        let frame = |st: &mut EditorState, events: Vec<Event>| {
            let input = RawInput {
                screen_rect: Some(screen),
                events,
                ..Default::default()
            };
            let t0 = Instant::now();
            let mut out = ctx.run_ui(input, |ui| show(ui.ctx(), st));
            // Tessellation is CPU work every frame too; the textures go
            // nowhere here.
            black_box(ctx.tessellate(std::mem::take(&mut out.shapes), out.pixels_per_point));
            out.textures_delta.clear();
            t0.elapsed()
        };
        frame(&mut st, vec![]);
        frame(&mut st, vec![]);
        // Grab the room by a bit of bare floor.
        let room = s
            .rooms
            .iter()
            .find(|x| x.rect == r)
            .expect("room")
            .id
            .clone();
        let p0 = (1..10)
            .flat_map(|i| (1..10).map(move |j| (i as f32 / 10.0, j as f32 / 10.0)))
            .filter_map(|(fx, fy)| st.to_screen(r.x + r.w * fx, r.y + r.h * fy))
            .find(|p| st.hit_at(*p).as_ref() == Some(&room))
            .expect("some bare floor");
        let button = |pos, pressed| Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        };
        frame(&mut st, vec![Event::PointerMoved(p0), button(p0, true)]);
        let mut times = Vec::new();
        for i in 0..400u32 {
            // 40 points out and back.
            let dx = if (i / 40).is_multiple_of(2) {
                i % 40
            } else {
                40 - i % 40
            } as f32;
            let p = p0 + egui::vec2(dx + 1.0, 0.0);
            times.push(frame(&mut st, vec![Event::PointerMoved(p)]));
        }
        frame(&mut st, vec![button(p0, false)]);
        anyhow::ensure!(
            st.doc.undo_depth() == 1,
            "the drag was not one undo step ({} steps; status: {})",
            st.doc.undo_depth(),
            st.status
        );
        times.sort();
        let mean = times.iter().sum::<Duration>() / times.len() as u32;
        println!(
            "  {label:<28} mean {:>6.2} ms   p95 {:>6.2} ms   worst {:>6.2} ms",
            ms(mean),
            ms(times[times.len() * 95 / 100]),
            ms(*times.last().expect("frames"))
        );
    }
    Ok(())
}

/// `batch` to a temporary directory with one and with two jobs.
fn bench_batch(args: &BenchArgs) -> Result<()> {
    let root = std::env::temp_dir().join(format!("hearth-bench-{}", std::process::id()));
    let mut times = Vec::new();
    for jobs in [1, 2] {
        let out = root.join(format!("jobs{jobs}"));
        let t0 = Instant::now();
        let spec = BatchSpec {
            seeds: Some(format!("0..{}", args.traces)),
            days: args.days,
            jobs,
            ..BatchSpec::new(&out)
        };
        let o = batch::execute(&spec, false);
        times.push(t0.elapsed().as_secs_f64());
        let o = o.inspect_err(|_| {
            let _ = std::fs::remove_dir_all(&root);
        })?;
        anyhow::ensure!(o.failures.is_empty(), "batch failed: {:?}", o.failures);
    }
    std::fs::remove_dir_all(&root)?;
    println!(
        "batch to disk ({} traces x {} days, {} cores):\n  --jobs 1 {:>7.2} s  --jobs 2 {:>7.2} s  speed-up {:.2}x",
        args.traces,
        args.days,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        times[0],
        times[1],
        times[0] / times[1],
    );
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_fitted_exponent_is_the_power() {
        let pts: Vec<(f64, f64)> = [7.0f64, 14.0, 28.0, 56.0]
            .iter()
            .map(|d| (d.ln(), (0.02 * d.powf(1.5)).ln()))
            .collect();
        assert!((super::fitted_exponent(&pts) - 1.5).abs() < 1e-9);
        let flat = [(1.0f64.ln(), 2.0), (3.0f64.ln(), 2.0)];
        assert!(super::fitted_exponent(&flat).abs() < 1e-12);
    }
}
