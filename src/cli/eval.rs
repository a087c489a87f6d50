//! `hearth eval`: memory agents scored on mined samples.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;

use hearth::eval::agents::{BUILT_IN, BuiltIn, Strategy};
use hearth::eval::external::External;
use hearth::eval::predictions::Format;
use hearth::eval::words::{WORDS_ONLY, WordsOnly};
use hearth::eval::{Agent, PlanResult, QaResult, Report, evaluate_all};
use hearth::llm::LlmClient;
use hearth::samples::{Family, Index, Sample};
use hearth::store;
use hearth::study::cost::{Cost, Timed};

#[derive(Args)]
pub struct EvalArgs {
    /// Trace directories with mined samples (repeat for several traces).
    #[arg(long, required_unless_present = "batch")]
    pub trace: Vec<PathBuf>,
    /// A batch directory (`hearth batch --out`): evaluate every trace in it
    /// (mining those without samples), then write per family and agent the
    /// mean with a household-bootstrap 95% interval, accuracy by evidence
    /// age and by horizon, and plots (PNG and SVG) into --out [default:
    /// DIR/results].
    #[arg(long, conflicts_with_all = ["trace", "predictions"])]
    pub batch: Option<PathBuf>,
    /// Household resamples of --batch's intervals.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub resamples: u64,
    /// Seed of --batch's household resamples.
    #[arg(long, default_value_t = 0)]
    pub bootstrap_seed: u64,
    /// Also write each agent's answers for other projects' scorers,
    /// comma-separated: `longmemeval` (predictions-<agent>-longmemeval.jsonl,
    /// for LongMemEval's evaluate_qa.py with `hearth export --format
    /// longmemeval` as the reference) and `locomo` (predictions-locomo.json:
    /// the LoCoMo export with `<agent>_prediction` on every question), beside
    /// the report.
    #[arg(long, value_delimiter = ',', value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<Format>()))]
    pub predictions: Vec<Format>,
    /// Agents, comma-separated: oracle, none, recent, bm25, obsmem, kg (given
    /// the parsed query), bm25-words (the question's words only), or
    /// cmd:"program args" for an external agent over JSON lines.
    #[arg(long, alias = "agents", default_value = "obsmem")]
    pub agent: String,
    /// Samples file inside each trace directory.
    #[arg(long, default_value = "samples.jsonl")]
    pub samples: String,
    /// With --batch: what the questions of traces mined now are drawn from,
    /// `robot` or `household` (see `hearth mine --help`); a samples file
    /// already there must have been mined so.
    #[arg(long, default_value = "robot")]
    pub ask: hearth::samples::Asking,
    /// Where to write the JSON report [default: eval-report.json in the first trace].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Send external agents each question as data too (`query`, and plan
    /// goals' `from`), as a perfect semantic parser would: an upper bound.
    /// Without it they get the words and options only, as an LLM would.
    #[arg(long)]
    pub give_query: bool,
    /// Seconds an external agent may take per reply.
    #[arg(long, default_value_t = 30)]
    pub agent_timeout: u64,
    /// Who words the answers: the agents' own answerer (`rules`), or the
    /// LLM given each agent's top-five evidence (`llm`; exact accuracy then
    /// does not apply: use --judge).
    #[arg(long, default_value = "rules", value_parser = clap::builder::PossibleValuesParser::new(["rules", "llm"]))]
    pub answerer: String,
    /// Score every answer's words with the LLM judge (0–3 rubric).
    #[arg(long)]
    pub judge: bool,
    /// LLM backend for --answerer llm and --judge.
    #[arg(long, default_value = "openai", value_parser = clap::builder::PossibleValuesParser::new(["openai", "replay"]))]
    pub backend: String,
    #[command(flatten)]
    pub llm: crate::llm_args::LlmArgs,
}

/// Splits `a,b,cmd:"x, y"` at commas outside quotes.
fn agent_names(spec: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for c in spec.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn make_agent(name: &str, timeout: u64, give_query: bool) -> Result<Box<dyn Agent>> {
    if let Some(cmd) = name.strip_prefix("cmd:") {
        if cmd.trim().is_empty() {
            bail!("cmd: needs a command, e.g. cmd:\"python3 examples/agent.py\"");
        }
        let agent = External::new(cmd, Duration::from_secs(timeout));
        return Ok(Box::new(if give_query {
            agent.with_query()
        } else {
            agent
        }));
    }
    if name == WORDS_ONLY {
        return Ok(Box::new(WordsOnly::default()));
    }
    match Strategy::parse(name) {
        Some(s) => Ok(Box::new(BuiltIn::new(s))),
        None => bail!(
            "unknown agent {name:?}: use one of {}, {WORDS_ONLY} or cmd:\"program\"",
            BUILT_IN.join(", ")
        ),
    }
}

/// One agent on one trace: its results, answer latencies and the LLM
/// tokens spent answering and judging.
pub struct AgentRun {
    pub qa: Vec<QaResult>,
    pub plans: Vec<PlanResult>,
    pub latencies: Vec<Duration>,
    pub tokens: Option<u64>,
}

/// Runs `agents` over one trace's samples together (what they share is
/// made once: see [`evaluate_all`]), then the LLM answerer and judge if
/// asked, agent by agent.
pub fn run_agents(
    agents: &mut [Box<dyn Agent>],
    ix: &Index,
    samples: &[Sample],
    llm: Option<&Arc<LlmClient>>,
    args: &EvalArgs,
) -> Result<Vec<AgentRun>> {
    let mut timed: Vec<Timed> = agents.iter_mut().map(|a| Timed::new(a.as_mut())).collect();
    let results = {
        let mut each: Vec<&mut dyn Agent> = timed.iter_mut().map(|t| t as &mut dyn Agent).collect();
        evaluate_all(ix, samples, &mut each)
    };
    let mut runs = Vec::new();
    for ((mut qa, plans), timed) in results.into_iter().zip(timed) {
        let mut tokens = None;
        if let Some(client) = llm {
            let spent = |s: hearth::llm::Stats| s.prompt_tokens + s.completion_tokens;
            let before = spent(client.stats());
            if args.answerer == "llm" {
                hearth::eval::llm::answer(client, ix, samples, &mut qa, 0)
                    .context("answering through the LLM")?;
            }
            if args.judge {
                hearth::eval::llm::judge(client, samples, &mut qa, 0).context("judging answers")?;
            }
            tokens = Some(spent(client.stats()) - before);
        }
        runs.push(AgentRun {
            qa,
            plans,
            latencies: timed.latencies,
            tokens,
        });
    }
    Ok(runs)
}

/// The agents to run, and the LLM client they share if any needs one.
type Agents = (Vec<Box<dyn Agent>>, Option<Arc<LlmClient>>);

/// The agents asked for, and the LLM client if answering or judging needs one.
pub fn setup(args: &EvalArgs) -> Result<Agents> {
    let names = agent_names(&args.agent);
    if names.is_empty() {
        bail!("no agent given");
    }
    let agents = names
        .iter()
        .map(|n| make_agent(n, args.agent_timeout, args.give_query))
        .collect::<Result<_>>()?;
    let llm = if args.judge || args.answerer == "llm" {
        args.llm.client(&args.backend)?
    } else {
        None
    };
    Ok((agents, llm))
}

pub fn run(args: EvalArgs) -> Result<ExitCode> {
    if let Some(dir) = &args.batch {
        return crate::study::run_batch(&args, dir);
    }
    let (mut agents, llm) = setup(&args)?;
    let mut traces = Vec::new();
    for dir in &args.trace {
        let trace = store::read_trace(dir)?;
        let path = dir.join(&args.samples);
        if !path.exists() {
            bail!(
                "no samples at {}: run `hearth mine --trace {}` first",
                path.display(),
                dir.display()
            );
        }
        let (_, samples) = store::read_samples(&path)?;
        traces.push((dir.display().to_string(), trace, samples));
    }
    let bar = indicatif::ProgressBar::new((agents.len() * traces.len()) as u64);
    let n = agents.len();
    let (mut qa, mut plans): (Vec<Vec<QaResult>>, Vec<Vec<PlanResult>>) =
        (vec![vec![]; n], vec![vec![]; n]);
    let (mut latencies, mut tokens) = (vec![Vec::new(); n], vec![None::<u64>; n]);
    // Each agent's results per trace, for --predictions.
    let mut per_trace: Vec<Vec<Vec<QaResult>>> = vec![Vec::new(); n];
    for (name, trace, samples) in &traces {
        bar.set_message(name.clone());
        let ix = Index::new(&trace.scene, &trace.events);
        let runs = run_agents(&mut agents, &ix, samples, llm.as_ref(), &args)?;
        for (a, run) in runs.into_iter().enumerate() {
            latencies[a].extend(run.latencies);
            tokens[a] = run.tokens.map(|t| t + tokens[a].unwrap_or(0));
            if !args.predictions.is_empty() {
                per_trace[a].push(run.qa.clone());
            }
            qa[a].extend(run.qa);
            plans[a].extend(run.plans);
        }
        bar.inc(n as u64);
    }
    let costs: Vec<Cost> = agents
        .iter()
        .zip(&latencies)
        .zip(&tokens)
        .map(|((agent, l), t)| Cost::new(&agent.name(), l, *t))
        .collect();
    let reports: Vec<Report> = agents
        .iter()
        .zip(qa.into_iter().zip(plans))
        .map(|(agent, (qa, plans))| {
            Report::new(
                agent.name(),
                traces.iter().map(|t| t.0.clone()).collect(),
                qa,
                plans,
            )
        })
        .collect();
    bar.finish_and_clear();
    print_table(&reports, args.answerer == "llm", &costs);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.trace[0].join("eval-report.json"));
    std::fs::write(&out, serde_json::to_vec_pretty(&reports)?)
        .with_context(|| format!("writing {}", out.display()))?;
    // `eval-report.json` → `eval-cost.json`; any other `X.json` → `X-cost.json`.
    let stem = out
        .file_stem()
        .map_or("eval".into(), |s| s.to_string_lossy());
    let cost_path = out.with_file_name(match stem.strip_suffix("-report") {
        Some(base) => format!("{base}-cost.json"),
        None => format!("{stem}-cost.json"),
    });
    std::fs::write(&cost_path, serde_json::to_vec_pretty(&costs)?)
        .with_context(|| format!("writing {}", cost_path.display()))?;
    for r in &reports {
        for e in r
            .questions
            .iter()
            .filter_map(|q| q.error.as_ref().map(|e| (&q.id, e)))
            .chain(
                r.tasks
                    .iter()
                    .filter_map(|t| t.error.as_ref().map(|e| (&t.id, e))),
            )
            .take(5)
        {
            eprintln!("{}: {}: {}", r.agent, e.0, e.1);
        }
        if r.errors > 5 {
            eprintln!(
                "{}: ... {} errors in all (see the report)",
                r.agent, r.errors
            );
        }
    }
    let dir = out.parent().unwrap_or(std::path::Path::new("."));
    for format in &args.predictions {
        let agents: Vec<String> = reports.iter().map(|r| r.agent.clone()).collect();
        for path in crate::study::write_predictions(
            *format,
            dir,
            &args.trace,
            &traces,
            &agents,
            &per_trace,
        )? {
            println!("wrote {}", path.display());
        }
    }
    println!(
        "wrote {} (answer cost in {})",
        out.display(),
        cost_path.display()
    );
    Ok(ExitCode::SUCCESS)
}

pub fn print_table(reports: &[Report], llm_answers: bool, costs: &[Cost]) {
    let w = 10;
    print!("{:<20}", "exact accuracy");
    for r in reports {
        print!(" {:>w$}", r.agent.chars().take(w).collect::<String>());
    }
    println!();
    for f in Family::ALL {
        if reports.iter().all(|r| !r.by_family.contains_key(&f)) {
            continue;
        }
        print!("{:<20}", f.name());
        for r in reports {
            print!(
                " {:>w$}",
                r.by_family
                    .get(&f)
                    .map_or("-".into(), |s| match (llm_answers, s.judge) {
                        (false, _) => format!("{:.3}", s.exact),
                        (true, Some(j)) => format!("j {j:.3}"),
                        (true, None) => "n/a".into(),
                    })
            );
        }
        println!();
    }
    let row = |label: &str, f: &dyn Fn(&Report) -> String| {
        print!("{label:<20}");
        for r in reports {
            print!(" {:>w$}", f(r));
        }
        println!();
    };
    if !llm_answers {
        row("all QA", &|r| format!("{:.3}", r.qa.exact));
        row("world accuracy", &|r| {
            r.qa.world.map_or("-".into(), |w| format!("{w:.3}"))
        });
    }
    if reports.iter().any(|r| r.qa.judge.is_some()) {
        row("judge (0-1)", &|r| {
            r.qa.judge.map_or("-".into(), |j| format!("{j:.3}"))
        });
        row("perfect", &|r| {
            r.qa.perfect.map_or("-".into(), |p| format!("{p:.3}"))
        });
    }
    row("Session Any@5", &|r| format!("{:.3}", r.qa.session_any5));
    row("Event R@5", &|r| format!("{:.3}", r.qa.event_r5));
    row("QA samples", &|r| r.qa.n.to_string());
    row("plan success", &|r| format!("{:.3}", r.plan.success));
    row("plan complete", &|r| format!("{:.3}", r.plan.complete));
    row("plan validity", &|r| format!("{:.3}", r.plan.validity));
    row("plan steps", &|r| format!("{:.1}", r.plan.steps));
    row("planning tasks", &|r| r.plan.n.to_string());
    row("errors", &|r| r.errors.to_string());
    cost_rows(reports.iter().map(|r| r.agent.as_str()), costs, w);
}

/// The cost rows under a table of agents (wall-clock: not in the report).
pub fn cost_rows<'a>(agents: impl Iterator<Item = &'a str>, costs: &[Cost], w: usize) {
    let agents: Vec<&str> = agents.collect();
    let row = |label: &str, f: &dyn Fn(&Cost) -> String| {
        print!("{label:<20}");
        for a in &agents {
            let c = costs.iter().find(|c| c.agent == *a);
            print!(" {:>w$}", c.map_or("-".into(), f));
        }
        println!();
    };
    row("answer p50 ms", &|c| format!("{:.2}", c.p50_ms));
    row("answer p95 ms", &|c| format!("{:.2}", c.p95_ms));
    if costs.iter().any(|c| c.tokens_per_question.is_some()) {
        row("tokens/question", &|c| {
            c.tokens_per_question
                .map_or("-".into(), |t| format!("{t:.0}"))
        });
    }
}
