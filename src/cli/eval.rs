//! `hearth eval`: memory agents scored on mined samples, on traces or
//! across a batch's households (`--batch`: intervals and plots).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use hearth::workflow::evaluate::{
    self, AgentSpec, Answerer, EvalOptions, EvalStep, PassEvent, Report, TraceSamples,
};
use hearth::workflow::llm::LlmClient;
use hearth::workflow::predictions::{self, Format};
use hearth::workflow::study::{self, BatchRequest, Cost, Stat, Step, Summary};
use hearth::workflow::{Asking, Family};

#[derive(Args)]
pub struct EvalArgs {
    /// Trace directories with mined samples (repeat for several traces).
    #[arg(long, required_unless_present = "batch")]
    pub trace: Vec<PathBuf>,
    /// A batch directory (`hearth batch --out`): evaluate every trace in it
    /// (mining those without samples), then write per family and agent the
    /// mean with a scene-bootstrap 95% interval (the seeds of a scene
    /// resampled together), paired differences between agents, accuracy by
    /// evidence age and by horizon, and plots (PNG and SVG) into --out [default:
    /// DIR/results].
    #[arg(long, conflicts_with_all = ["trace", "predictions"])]
    pub batch: Option<PathBuf>,
    /// Scene resamples of --batch's intervals.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub resamples: u64,
    /// Seed of --batch's scene resamples.
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
    #[arg(long, default_value = "household")]
    pub ask: Asking,
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
    /// LLM given each agent's top-five evidence (`llm`; calibrated accuracy then
    /// does not apply: use --judge). A question whose LLM reply fails after
    /// its retries and re-asks fails alone, with why in the report; the
    /// rest are scored.
    #[arg(long, default_value = "rules", value_parser = clap::builder::PossibleValuesParser::new(["rules", "llm"]))]
    pub answerer: String,
    /// Score every answer's words with the LLM judge (0–3 rubric). A
    /// question the LLM answerer failed scores 0 without a call; one whose
    /// judging fails is left unscored, with why.
    #[arg(long)]
    pub judge: bool,
    /// With --judge, audit the judge on this many questions per trace:
    /// each question's reference, a paraphrase, a trap answer and "I don't
    /// know", whose verdicts are known; the judge's false-accept and
    /// false-reject rates are printed and reported beside its scores (0:
    /// no audit).
    #[arg(long, default_value_t = 12)]
    pub judge_audit: usize,
    /// LLM backend for --answerer llm and --judge.
    #[arg(long, default_value = "openai", value_parser = clap::builder::PossibleValuesParser::new(["openai", "replay"]))]
    pub backend: String,
    #[command(flatten)]
    pub llm: crate::llm_args::LlmArgs,
}

/// The agents' specs, the evaluation options, and the LLM client if
/// answering or judging needs one.
fn setup(args: &EvalArgs) -> Result<(Vec<AgentSpec>, EvalOptions, Option<Arc<LlmClient>>)> {
    let specs = AgentSpec::parse_list(&args.agent)?;
    let opts = EvalOptions {
        give_query: args.give_query,
        agent_timeout: Duration::from_secs(args.agent_timeout),
        answerer: if args.answerer == "llm" {
            Answerer::Llm
        } else {
            Answerer::Rules
        },
        judge: args.judge,
        judge_audit: args.judge_audit,
    };
    let llm = if opts.needs_llm() {
        args.llm.client(&args.backend)?
    } else {
        None
    };
    Ok((specs, opts, llm))
}

pub fn run(args: EvalArgs) -> Result<ExitCode> {
    if let Some(dir) = &args.batch {
        return run_batch(&args, dir);
    }
    let (specs, opts, llm) = setup(&args)?;
    let traces = args
        .trace
        .iter()
        .map(|dir| TraceSamples::read(dir, Path::new(&args.samples)))
        .collect::<Result<Vec<_>, _>>()?;
    let bar = ProgressBar::new(traces.len() as u64).with_style(traces_style());
    let mut passes = PassBar::new(&bar, llm.as_ref());
    let e = evaluate::evaluate_traces(
        &traces,
        &specs,
        llm.as_ref(),
        &opts,
        &mut |step| match step {
            EvalStep::Trace(dir) => passes.trace(dir),
            EvalStep::Llm { agent, event } => passes.event(agent, event),
        },
    )?;
    bar.finish_and_clear();
    print_table(&e.reports, opts.answerer == Answerer::Llm, &e.costs);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.trace[0].join("eval-report.json"));
    let cost_path = evaluate::write_reports(&out, &e.reports, &e.costs)
        .with_context(|| format!("writing {}", out.display()))?;
    for r in &e.reports {
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
    let dir = out.parent().unwrap_or(Path::new("."));
    for format in &args.predictions {
        for path in predictions::write(*format, dir, &traces, &e.tally.agents, &e.tally.qa)? {
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

/// `hearth eval --batch DIR`.
fn run_batch(args: &EvalArgs, dir: &Path) -> Result<ExitCode> {
    let (specs, opts, llm) = setup(args)?;
    let out = args.out.clone().unwrap_or_else(|| dir.join("results"));
    let bar = ProgressBar::new(0).with_style(traces_style());
    let mut passes = PassBar::new(&bar, llm.as_ref());
    let req = BatchRequest {
        dir,
        samples: &args.samples,
        ask: args.ask,
        agents: &specs,
        opts,
        resamples: args.resamples as usize,
        bootstrap_seed: args.bootstrap_seed,
    };
    let results = study::evaluate_batch(&req, llm.as_ref(), &mut |step| match step {
        Step::Trace { dir, index, total } => {
            passes.traces = (index, total);
            passes.trace(dir);
        }
        Step::Llm(EvalStep::Llm { agent, event }) => passes.event(agent, event),
        Step::Llm(EvalStep::Trace(_)) => {}
        // Not `bar.println`: it prints nothing when stderr is no terminal.
        Step::Mined { path, samples } => {
            bar.suspend(|| println!("mined {samples} samples into {}", path.display()))
        }
    })?;
    bar.finish_and_clear();
    print_summary(&results.summary, &results.costs);
    let written = study::write_batch(&out, &results)?;
    println!(
        "{} households; wrote {} files into {} (summary.json, plots *.png and *.svg; answer cost in eval-cost.json)",
        results.summary.households.len(),
        written.len(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn traces_style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} traces {msg}")
        .expect("valid template")
}

/// One bar for the traces, which becomes the bar of each LLM pass (answer,
/// judge) with its estimate while the pass runs.
struct PassBar<'a> {
    bar: &'a ProgressBar,
    llm: Option<&'a Arc<LlmClient>>,
    /// The trace being run (from 0) and how many.
    traces: (usize, usize),
    dir: String,
    failed: usize,
}

impl<'a> PassBar<'a> {
    fn new(bar: &'a ProgressBar, llm: Option<&'a Arc<LlmClient>>) -> Self {
        let total = bar.length().unwrap_or(0) as usize;
        PassBar {
            bar,
            llm,
            traces: (0, total),
            dir: String::new(),
            failed: 0,
        }
    }

    fn trace(&mut self, dir: &Path) {
        self.dir = dir.display().to_string();
        self.bar.set_style(traces_style());
        self.bar.set_length(self.traces.1 as u64);
        self.bar.set_position(self.traces.0 as u64);
        self.bar.set_message(self.dir.clone());
        self.traces.0 += 1;
    }

    fn event(&mut self, agent: &str, event: PassEvent) {
        match event {
            PassEvent::Started { pass, calls } => {
                self.failed = 0;
                self.bar.set_style(
                    ProgressStyle::with_template(
                        "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {prefix} (eta {eta}) {msg}",
                    )
                    .expect("valid template"),
                );
                self.bar.set_prefix(format!("{pass} ({agent})"));
                self.bar.reset();
                self.bar.set_length(calls as u64);
                self.bar.set_message(self.dir.clone());
            }
            PassEvent::Replied { ok } => {
                self.failed += usize::from(!ok);
                self.bar.inc(1);
                let mut msg = String::new();
                if self.failed > 0 {
                    msg.push_str(&format!("{} failed; ", self.failed));
                }
                if let Some(c) = self.llm {
                    let s = c.stats();
                    msg.push_str(&format!(
                        "{} tokens, {} in flight at most",
                        s.prompt_tokens + s.completion_tokens,
                        c.concurrency()
                    ));
                }
                self.bar.set_message(msg);
            }
        }
    }
}

/// The table: per family and agent the mean and its interval.
pub(crate) fn print_summary(s: &Summary, costs: &[Cost]) {
    let w = 19;
    let cell = |st: Option<&Stat>| {
        st.map_or("-".into(), |st| {
            format!("{:.3} [{:.2},{:.2}]", st.mean, st.lo, st.hi)
        })
    };
    println!("calibrated accuracy (mean [95% interval])");
    print!("{:<20}", format!("{} households", s.households.len()));
    for a in &s.agents {
        print!(" {:>w$}", a.agent.chars().take(w).collect::<String>());
    }
    println!();
    for f in Family::ALL {
        if s.agents.iter().all(|a| !a.by_family.contains_key(&f)) {
            continue;
        }
        print!("{:<20}", f.name());
        for a in &s.agents {
            print!(" {:>w$}", cell(a.by_family.get(&f)));
        }
        println!();
    }
    print!("{:<20}", "all QA");
    for a in &s.agents {
        print!(" {:>w$}", cell(Some(&a.all)));
    }
    println!();
    print!("{:<20}", "world accuracy");
    for a in &s.agents {
        print!(" {:>w$}", cell(Some(&a.world)));
    }
    println!();
    print!("{:<20}", "hallucination");
    for a in &s.agents {
        print!(" {:>w$}", cell(Some(&a.hallucination)));
    }
    println!();
    cost_rows(s.agents.iter().map(|a| a.agent.as_str()), costs, w);
    if !s.differences.is_empty() {
        println!("paired differences (same questions, same resamples):");
    }
    for d in &s.differences {
        let signed = |st: &Stat| format!("{:+.3} [{:+.2},{:+.2}]", st.mean, st.lo, st.hi);
        println!(
            "  {} - {}: all QA {}, world {}",
            d.a,
            d.b,
            signed(&d.all),
            signed(&d.world)
        );
    }
    for warning in &s.warnings {
        eprintln!("warning: {warning}");
    }
}

fn print_table(reports: &[Report], llm_answers: bool, costs: &[Cost]) {
    let w = 10;
    print!("{:<20}", "calibrated accuracy");
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
                        (false, _) => format!("{:.3}", s.calibrated),
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
        row("all QA", &|r| format!("{:.3}", r.qa.calibrated));
        row("world accuracy", &|r| {
            r.qa.world.map_or("-".into(), |w| format!("{w:.3}"))
        });
        row("hallucination", &|r| {
            r.qa.hallucination.map_or("-".into(), |h| format!("{h:.3}"))
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
    if let Some(a) = reports.first().and_then(|r| r.judge_audit.as_ref()) {
        let n: usize = a.probes.values().map(|(n, _)| n).sum();
        println!(
            "the judge, audited on {n} answers of known verdict: false accept {:.3}, false reject {:.3}{}",
            a.false_accept,
            a.false_reject,
            if a.failed > 0 {
                format!(" ({} failed)", a.failed)
            } else {
                String::new()
            }
        );
        for (p, (n, off)) in &a.probes {
            println!(
                "  {:<12} {off} of {n} judged against their verdict",
                format!("{p:?}").to_lowercase()
            );
        }
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
    let passes: std::collections::BTreeSet<&String> =
        reports.iter().flat_map(|r| r.llm.keys()).collect();
    for pass in passes {
        let cost = |r: &Report| r.llm.get(pass).copied().unwrap_or_default();
        row(&format!("{pass} tokens"), &|r| {
            let c = cost(r);
            (c.prompt_tokens + c.completion_tokens).to_string()
        });
        row(&format!("{pass} failed"), &|r| cost(r).skipped.to_string());
    }
    cost_rows(reports.iter().map(|r| r.agent.as_str()), costs, w);
}

/// The cost rows under a table of agents (wall-clock: not in the report).
fn cost_rows<'a>(agents: impl Iterator<Item = &'a str>, costs: &[Cost], w: usize) {
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
    let passes: std::collections::BTreeSet<&String> =
        costs.iter().flat_map(|c| c.llm_seconds.keys()).collect();
    for pass in passes {
        row(&format!("{pass} seconds"), &|c| {
            c.llm_seconds
                .get(pass)
                .map_or("-".into(), |s| format!("{s:.1}"))
        });
    }
    row("seconds/question", &|c| {
        format!("{:.4}", c.seconds_per_question)
    });
    row("seconds/correct", &|c| {
        c.seconds_per_correct
            .map_or("-".into(), |s| format!("{s:.4}"))
    });
    if costs.iter().any(|c| c.tokens_per_question.is_some()) {
        row("tokens/question", &|c| {
            c.tokens_per_question
                .map_or("-".into(), |t| format!("{t:.0}"))
        });
        row("tokens/correct", &|c| {
            c.tokens_per_correct
                .map_or("-".into(), |t| format!("{t:.0}"))
        });
    }
}
