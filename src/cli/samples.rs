//! `hearth mine` (samples from a finished trace, checked, with the mix)
//! and `hearth export` (samples with their history for other memory tools).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;

use hearth::workflow::export::{self, ExportFormat, ExportRequest, Haystack};
use hearth::workflow::mine::{self, Mix, PassEvent};
use hearth::workflow::{Asking, Family, WorkflowError};

#[derive(Args)]
pub struct MineArgs {
    /// A finished trace directory (from `generate`, `batch` or `run`).
    #[arg(long)]
    pub trace: PathBuf,
    /// Where to write the samples [default: <trace>/samples.jsonl].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seed of the cutoff and template choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// What questions are drawn from: `robot` (what it perceived) or
    /// `household` (what happened, seen or not: a question about what the
    /// robot missed has "not known" for its answer and the truth for its
    /// world answer).
    #[arg(long, default_value = "household")]
    pub ask: Asking,
    /// Rephrase every question through the LLM (`--backend openai` records,
    /// `replay` reuses the cache); answers are never touched.
    #[arg(long)]
    pub rephrase: bool,
    /// LLM backend for --rephrase.
    #[arg(long, default_value = "openai", value_parser = clap::builder::PossibleValuesParser::new(["openai", "replay"]))]
    pub backend: String,
    #[command(flatten)]
    pub llm: crate::llm_args::LlmArgs,
}

pub fn run(args: MineArgs) -> Result<ExitCode> {
    let trace = mine::read_trace(&args.trace)?;
    let started = std::time::Instant::now();
    let spinner = indicatif::ProgressBar::new_spinner()
        .with_message(format!("mining {}", args.trace.display()));
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let mined = mine::mine(&trace, &args.trace, args.seed, args.ask);
    spinner.finish_and_clear();
    let mut mined = match mined {
        Err(WorkflowError::Invalid { invalid, total, .. }) => {
            for i in invalid.iter().take(20) {
                eprintln!("invalid {}: {}", i.sample, i.why);
            }
            bail!(
                "{} of {total} samples fail the validity checks; nothing written (this is a bug in hearth: please report it with the trace)",
                invalid.len()
            );
        }
        r => r?,
    };
    if args.rephrase {
        let client = args.llm.client(&args.backend)?.expect("an LLM backend");
        let bar = indicatif::ProgressBar::new(0).with_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} rephrased (eta {eta})",
            )
            .expect("valid template"),
        );
        let failed = mine::rephrase(&client, &mut mined, args.seed, &mut |e| match e {
            PassEvent::Started { calls, .. } => bar.set_length(calls as u64),
            PassEvent::Replied { .. } => bar.inc(1),
        })?;
        bar.finish_and_clear();
        for (id, why) in failed.iter().take(5) {
            eprintln!("{id}: kept the template's words: {why}");
        }
        if failed.len() > 5 {
            eprintln!(
                "... {} questions kept the template's words in all",
                failed.len()
            );
        }
    }
    let out = args.out.unwrap_or_else(|| args.trace.join("samples.jsonl"));
    mine::write(&out, &trace, args.seed, args.ask, &mined)
        .with_context(|| format!("writing {}", out.display()))?;
    print_mix(&Mix::of(&mined));
    println!(
        "wrote {} (all checked, {:.2} s)",
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn print_mix(mix: &Mix) {
    let (qa, plans) = (&mix.qa, &mix.plans);
    let total: usize = qa.values().sum();
    println!("{:<18} {:>6} {:>6}", "QA family", "count", "share");
    for f in Family::ALL {
        let n = qa.get(&f).copied().unwrap_or(0);
        // No longer mined: false premises are filed under other families.
        if f == Family::Unanswerable && n == 0 {
            continue;
        }
        println!(
            "{:<18} {:>6} {:>5.1}%",
            f.name(),
            n,
            100.0 * n as f64 / total.max(1) as f64
        );
    }
    println!("{:<18} {:>6}", "QA total", total);
    // Asked of the household: questions about what the robot missed.
    let (missed, premises) = (mix.missed, mix.premises);
    if missed > 0 {
        println!(
            "{:<18} {:>6} {:>5.1}%  (answer not known, world answer the truth)",
            "missed by robot",
            missed,
            100.0 * missed as f64 / total.max(1) as f64
        );
    }
    println!(
        "{:<18} {:>6} {:>5.1}%  (answer not known, in the families they look like)",
        "false premises",
        premises,
        100.0 * premises as f64 / total.max(1) as f64
    );
    let tasks: usize = plans.values().sum();
    let by: Vec<String> = plans
        .iter()
        .map(|(f, n)| format!("{} {n}", f.name()))
        .collect();
    println!("planning tasks     {:>6} ({})", tasks, by.join(", "));
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    /// LoCoMo's locomo10.json layout: a sample per cutoff with its questions
    /// and a conversation of the sessions before it.
    Locomo,
    /// LongMemEval's layout: an instance per question with its haystack.
    Longmemeval,
}

/// How much of the past a record holds.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum HaystackArg {
    /// At most 45 sessions: the evidence sessions, their neighbours, the
    /// latest one and distractors (as LongMemEval-S); linear in the days.
    S,
    /// At most 500 sessions (as LongMemEval-M).
    M,
    /// Every session before the question: grows with the square of the days.
    Full,
}

#[derive(Args)]
pub struct ExportArgs {
    /// A trace directory with mined samples.
    #[arg(long)]
    pub trace: PathBuf,
    #[arg(long, value_enum)]
    pub format: Format,
    /// Samples to export [default: <trace>/samples.jsonl].
    #[arg(long)]
    pub samples: Option<PathBuf>,
    /// Output JSON file [default: <trace>/export-<format>.json].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// How much of the past each record holds (a LongMemEval haystack, a
    /// LoCoMo conversation): s, m or full.
    #[arg(long, value_enum, default_value = "s")]
    pub haystack: HaystackArg,
    /// Seed of the distractor sessions of `--haystack s|m`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Only questions of these families (comma-separated, e.g.
    /// `current_state,routine`).
    #[arg(long, value_delimiter = ',')]
    pub family: Vec<String>,
    /// At most this many questions (the first, in sample order, after
    /// `--family`).
    #[arg(long)]
    pub limit: Option<usize>,
}

pub fn export(args: ExportArgs) -> Result<ExitCode> {
    let families = export::families(&args.family)?;
    let format = match args.format {
        Format::Locomo => ExportFormat::Locomo,
        Format::Longmemeval => ExportFormat::Longmemeval,
    };
    let haystack = match args.haystack {
        HaystackArg::S => Haystack::S,
        HaystackArg::M => Haystack::M,
        HaystackArg::Full => Haystack::Full,
    };
    let e = export::export(ExportRequest {
        trace: &args.trace,
        samples: args.samples,
        out: args.out,
        format,
        haystack,
        seed: args.seed,
        families,
        limit: args.limit,
    })?;
    println!(
        "wrote {}: {} {} records for {} questions",
        e.out.display(),
        e.records,
        format.name(),
        e.questions
    );
    Ok(ExitCode::SUCCESS)
}
