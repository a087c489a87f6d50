//! `hearth generate` and `hearth run`: one trace, from a generator or from a
//! script of requests.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use hearth::workflow::check::{Verdict, verdict};
use hearth::workflow::generate::{
    self as workflow, BACKENDS, BackendSpec, Difficulty, LlmReport, TraceOptions,
};
use hearth::workflow::scenes;

use crate::llm_args;

#[derive(Args)]
pub struct RunArgs {
    /// Scene file, or the id of a built-in scene (`hearth scene list`).
    #[arg(long, default_value = "family_apartment")]
    scene: String,
    /// Requests, one JSON object per line (see docs/requests.md).
    #[arg(long)]
    script: PathBuf,
    /// Trace directory to write.
    #[arg(long)]
    out: PathBuf,
    /// Replace an existing trace directory.
    #[arg(long)]
    force: bool,
}

#[derive(Args)]
pub struct GenerateArgs {
    /// Scene file, or the id of a built-in scene (`hearth scene list`).
    #[arg(long, default_value = "family_apartment")]
    scene: String,
    /// Simulated days (1 to 365).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=365))]
    days: u32,
    /// Seed of the generator; same seed, same bytes.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Generation backend.
    #[arg(long, default_value = "scripted", value_parser = clap::builder::PossibleValuesParser::new(BACKENDS))]
    backend: String,
    /// Trace directory [default: traces/<scene>-s<seed>].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace an existing trace directory.
    #[arg(long)]
    force: bool,
    /// Write the events zstd-compressed (`events.jsonl.zst`, many times
    /// smaller); every command reads either.
    #[arg(long)]
    compress: bool,
    #[command(flatten)]
    difficulty: DifficultyArgs,
    #[command(flatten)]
    llm: llm_args::LlmArgs,
}

/// The difficulty axes of `generate` and `batch`; the defaults give the
/// ordinary trace, byte for byte.
#[derive(Args)]
pub struct DifficultyArgs {
    /// Share of the waking day (07:00-22:00) the robot spends docked in
    /// standby, perceiving nothing, in blocks with docking and undocking
    /// events (0 to 0.9; scripted backend).
    #[arg(
        long,
        default_value_t = 0.0,
        value_name = "SHARE",
        allow_negative_numbers = true
    )]
    robot_away: f64,
    /// Extra look-alikes per object category the house has (another variant
    /// of the catalogue beside one of them; 0 to 5).
    #[arg(long, default_value_t = 0, value_name = "N")]
    lookalikes: u32,
    /// Factor on how many things people move when they tidy (0 to 5;
    /// scripted backend).
    #[arg(
        long,
        default_value_t = 1.0,
        value_name = "FACTOR",
        allow_negative_numbers = true
    )]
    moves: f64,
}

impl DifficultyArgs {
    pub fn difficulty(&self) -> Result<Difficulty> {
        Difficulty::new(self.robot_away, self.lookalikes, self.moves)
            .context("invalid difficulty setting")
    }
}

pub fn run(args: RunArgs) -> Result<ExitCode> {
    let scene = scenes::resolve(&args.scene)?;
    let (dest, counts) = workflow::run_script(&scene, &args.script, &args.out, args.force)
        .with_context(|| format!("running the script into {}", args.out.display()))?;
    println!(
        "wrote {}: {} events ({} rejected), {} changes, {} unseen by the robot",
        dest.display(),
        counts.events,
        counts.rejected,
        counts.changes,
        counts.unseen_by_robot
    );
    Ok(ExitCode::SUCCESS)
}

pub fn generate(args: GenerateArgs) -> Result<ExitCode> {
    let scene = scenes::resolve(&args.scene)?;
    crate::scene::warn_unknown_kinds(&args.scene, &scene);
    let out = args
        .out
        .unwrap_or_else(|| Path::new("traces").join(format!("{}-s{}", scene.id, args.seed)));
    let started = std::time::Instant::now();
    let what = format!(
        "generating {} days of {} (seed {})",
        args.days, scene.id, args.seed
    );
    let spinner = indicatif::ProgressBar::new_spinner().with_message(what.clone());
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let backend = args.llm.spec(&args.backend)?;
    let client = match &backend {
        BackendSpec::Llm(c) => Some(std::sync::Arc::clone(c)),
        BackendSpec::Scripted => None,
    };
    let opts = TraceOptions {
        days: args.days,
        seed: args.seed,
        backend,
        replace: args.force,
        compress: args.compress,
        difficulty: args.difficulty.difficulty()?,
    };
    let result = llm_args::with_llm_progress(&spinner, client.as_ref(), &what, || {
        workflow::generate(&scene, &out, &opts)
    });
    spinner.finish_and_clear();
    let s = result.with_context(|| format!("generating {}", out.display()))?;
    let c = &s.counts;
    let kinds: Vec<String> = c.by_skill.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!("wrote {}", out.display());
    println!(
        "  {} days, {} sessions, {} events ({} rejected, {} turns skipped)",
        s.days, s.sessions, c.events, c.rejected, s.skipped_turns
    );
    let by_kind: Vec<String> = c.by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!("  by kind: {}", by_kind.join(", "));
    println!("  by skill: {}", kinds.join(", "));
    println!(
        "  {} state changes; {} accepted events with changes the robot did not see",
        c.changes, c.unseen_by_robot
    );
    if let Some(llm) = &s.llm {
        print_llm(llm);
    }
    print_verdict(&verdict(&out)?);
    println!("  took {:.2} s", started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

/// The time-use figures outside their band and the lint's findings.
pub fn print_verdict(v: &Verdict) {
    let outside = if v.outside.is_empty() {
        String::new()
    } else {
        format!(" ({})", v.outside.join(", "))
    };
    let lint: usize = v.lint.values().sum();
    let rules: Vec<String> = v
        .lint
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    let rules = if rules.is_empty() {
        String::new()
    } else {
        format!(" ({})", rules.join(", "))
    };
    println!(
        "  time use: {} of {} figures outside their ATUS band{outside}; lint: {lint} findings{rules}",
        v.outside.len(),
        v.figures,
    );
}

/// The LLM cost of a trace, per stage, and what it went on without.
pub fn print_llm(llm: &LlmReport) {
    let t = llm.total();
    let a = &llm.authored;
    println!(
        "  the model wrote {:.0}% of the utterances ({} of {}), {:.0}% of the session intents ({} of {}), {:.0}% of the sessions ({} of {}) and {:.0}% of the events ({} of {}); the script the rest",
        100.0 * a.utterance_share(),
        a.llm_utterances,
        a.utterances,
        100.0 * a.intent_share(),
        a.llm_intents,
        a.sessions,
        100.0 * a.session_share(),
        a.llm_sessions,
        a.sessions,
        100.0 * a.event_share(),
        a.llm_events,
        a.events
    );
    let codes: Vec<String> = a.refused.iter().map(|(c, n)| format!("{c} {n}")).collect();
    println!(
        "  refused: {:.0}% of the events{}",
        100.0 * a.refused_share(),
        if codes.is_empty() {
            String::new()
        } else {
            format!(" ({})", codes.join(", "))
        }
    );
    let l = &llm.lived;
    println!(
        "  in the calendar: {} sessions of the model's own asked for, {} moved to free time, {} dropped; {} of the calendar's sessions directed by the model ({} of their turns written in the calendar's place, {} beside them, {} dropped; {} lines given it to say in its own words); {} walks put before steps, {} steps left out as changing nothing, {} turns ended on a request refused again; {} texts repeat a prompt's example",
        l.asked,
        l.moved.len(),
        l.dropped.len(),
        l.directed,
        l.replaced,
        l.added,
        l.turns_dropped,
        l.spoken,
        l.walks,
        l.no_ops,
        l.ended,
        l.echoes
    );
    println!(
        "  LLM: {} calls, {} requests, {} prompt + {} completion tokens, {} repaired, {} values fixed, {} items dropped, {} re-asked, {} skipped, {} filled by the script; prefix reuse {:.0}%",
        t.calls,
        t.requests,
        t.prompt_tokens,
        t.completion_tokens,
        t.repairs,
        t.fixed,
        t.dropped,
        t.reasks,
        t.skipped,
        llm.fallbacks.len(),
        100.0 * llm.reused_prefix_chars as f64 / llm.prompt_chars.max(1) as f64
    );
    for (stage, c) in &llm.stages {
        println!(
            "    {stage:<10} {:>5} calls {:>4.0}% accepted {:>5} requests {:>9} + {:>7} tokens {:>3} repaired {:>3} re-asked {:>3} skipped",
            c.calls,
            100.0 * c.accepted as f64 / c.calls.max(1) as f64,
            c.requests,
            c.prompt_tokens,
            c.completion_tokens,
            c.repairs,
            c.reasks,
            c.skipped
        );
    }
    for k in &llm.skipped {
        println!("    skipped {} at {}: {}", k.stage, k.at, k.reason);
    }
    for k in &llm.fallbacks {
        println!("    the script wrote {} at {}: {}", k.stage, k.at, k.reason);
    }
}
