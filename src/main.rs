//! The `hearth` command line: the binary edge, where errors become messages
//! and exit codes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};

use hearth::scene::{self, ActorKind};
use hearth::sim::Simulation;
use hearth::store::{self, TraceWriter};
use hearth::trace::{Counts, Manifest};

mod batch;
mod bench;
mod eval_cmd;
mod llm_args;
mod samples_cmd;
mod scene_cmd;
#[cfg(feature = "gui")]
mod viewer;

/// Household world simulator: multi-day traces with exact ground truth for
/// memory agents of home robots.
#[derive(Parser)]
#[command(name = "hearth", version, about, long_about = None, propagate_version = true)]
struct Cli {
    /// More log output (-v: debug, -vv: trace); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check, print, list, generate and describe scenes.
    #[command(subcommand)]
    Scene(SceneCommand),
    /// Generate a multi-day trace (default: 3 days of the embedded scene, seed 0).
    Generate(GenerateArgs),
    /// Generate many traces in parallel: scenes x seeds, resumable.
    Batch(batch::BatchArgs),
    /// Execute a script of requests against a scene and write a trace.
    Run(RunArgs),
    /// Mine evidence-linked QA samples and planning tasks from a trace.
    Mine(samples_cmd::MineArgs),
    /// Export a trace's QA samples for other memory tools (LoCoMo, LongMemEval).
    Export(samples_cmd::ExportArgs),
    /// Score memory agents on a trace's samples (QA and planning).
    Eval(eval_cmd::EvalArgs),
    /// Replay a trace in a window: 2D plan, 3D view, the robot's view, samples.
    #[cfg(feature = "gui")]
    View(viewer::ViewArgs),
    /// Replay a trace in a window (this build has no `gui` feature).
    #[cfg(not(feature = "gui"))]
    View {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        args: Vec<String>,
    },
    /// Performance figures: executor, generation, batch, agents, playback, LLM client (use --release).
    Bench(bench::BenchArgs),
}

#[derive(Subcommand)]
enum SceneCommand {
    /// Validate scene files: a summary line per valid scene, every error otherwise.
    Check {
        /// RON scene files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print the embedded default scene (a starting point for editing).
    Default,
    /// List the scenes built into the binary.
    List,
    /// Generate a household from the catalogue: valid, deterministic per seed.
    Generate(scene_cmd::GenerateSceneArgs),
    /// Rooms, doors, furniture, devices, objects, look-alike groups and people of scenes.
    Stats(scene_cmd::StatsArgs),
    /// Apply a RON list of editor commands to a scene; print the problems left.
    Apply(scene_cmd::ApplyArgs),
}

#[derive(Args)]
struct RunArgs {
    /// Scene file, or the id of a built-in scene (`hearth scene list`).
    #[arg(long, default_value = "family_apartment")]
    scene: String,
    /// Requests, one JSON object per line (see README "Requests").
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
struct GenerateArgs {
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
    #[arg(long, default_value = "scripted", value_parser = clap::builder::PossibleValuesParser::new(hearth::jobs::BACKENDS))]
    backend: String,
    /// Trace directory [default: traces/<scene>-s<seed>].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace an existing trace directory.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    llm: llm_args::LlmArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.verbose);
    match dispatch(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
}

fn dispatch(command: Command) -> Result<ExitCode> {
    match command {
        Command::Scene(SceneCommand::Check { paths }) => scene_check(&paths),
        Command::Scene(SceneCommand::Default) => {
            print!("{}", scene::default_source());
            Ok(ExitCode::SUCCESS)
        }
        Command::Scene(SceneCommand::List) => {
            for (id, src) in scene::BUILTIN {
                let s = scene::parse(id, src)?;
                println!("{id:<18} {}", summary(&s));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Scene(SceneCommand::Generate(args)) => scene_cmd::generate(args),
        Command::Scene(SceneCommand::Stats(args)) => scene_cmd::stats(args),
        Command::Scene(SceneCommand::Apply(args)) => scene_cmd::apply(args),
        Command::Run(args) => run(args),
        Command::Mine(args) => samples_cmd::run(args),
        Command::Export(args) => samples_cmd::export(args),
        Command::Eval(args) => eval_cmd::run(args),
        #[cfg(feature = "gui")]
        Command::View(args) => viewer::run(args),
        #[cfg(not(feature = "gui"))]
        Command::View { .. } => anyhow::bail!(
            "this hearth was built without the `gui` feature (--no-default-features); build it with default features to use the viewer"
        ),
        Command::Generate(args) => generate(args),
        Command::Batch(args) => batch::run(args),
        Command::Bench(args) => bench::run(args),
    }
}

fn summary(s: &scene::Scene) -> String {
    let humans = s
        .actors
        .iter()
        .filter(|a| a.kind == ActorKind::Human)
        .count();
    let categories: std::collections::BTreeSet<_> = s.objects.iter().map(|o| &o.category).collect();
    let openable = s
        .furniture
        .iter()
        .filter(|f| f.openable != scene::Openable::No)
        .count()
        + s.devices
            .iter()
            .filter(|d| d.openable != scene::Openable::No)
            .count();
    format!(
        "{} rooms, {} doors, {} furniture, {} devices, {} objects in {} categories, {} openable, {} humans, {} robots",
        s.rooms.len(),
        s.doors.len(),
        s.furniture.len(),
        s.devices.len(),
        s.objects.len(),
        categories.len(),
        openable,
        humans,
        s.actors.len() - humans
    )
}

fn scene_check(paths: &[PathBuf]) -> Result<ExitCode> {
    let mut failed = 0;
    for path in paths {
        match store::load_scene(path) {
            Ok(s) => println!("ok {}: {} ({})", path.display(), s.id, summary(&s)),
            Err(e) => {
                failed += 1;
                eprintln!("{e}");
            }
        }
    }
    if failed > 0 {
        eprintln!("{failed} of {} scene(s) failed", paths.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

fn run(args: RunArgs) -> Result<ExitCode> {
    let scene = store::resolve_scene(&args.scene)?;
    let requests = store::read_script(&args.script)?;
    let robots = scene.robots();
    let mut writer = TraceWriter::create(&args.out, &scene, args.force)?;
    let mut sim = Simulation::new(scene.clone())
        .map_err(|p| anyhow::anyhow!("scene {} is invalid: {} problems", scene.id, p.len()))?;
    let mut counts = Counts::default();
    let mut last_t = 0;
    for item in requests {
        let req = match item {
            store::ScriptItem::Session(s) => {
                sim.set_session(s);
                continue;
            }
            store::ScriptItem::Request(req) => req,
        };
        let event = sim.execute(req);
        counts.add(&event, &robots);
        last_t = event.t + event.dur;
        writer.event(&event)?;
    }
    let manifest = Manifest::new(
        &scene,
        "script",
        None,
        hearth::trace::day_of(last_t),
        counts.clone(),
        writer.files(),
    );
    let dest = writer
        .finish(&manifest)
        .with_context(|| format!("finishing {}", args.out.display()))?;
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

fn generate(args: GenerateArgs) -> Result<ExitCode> {
    let scene = store::resolve_scene(&args.scene)?;
    let out = args
        .out
        .unwrap_or_else(|| Path::new("traces").join(format!("{}-s{}", scene.id, args.seed)));
    let started = std::time::Instant::now();
    let spinner = indicatif::ProgressBar::new_spinner().with_message(format!(
        "generating {} days of {} (seed {})",
        args.days, scene.id, args.seed
    ));
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let backend = args.llm.spec(&args.backend)?;
    let result =
        hearth::jobs::generate_trace(&scene, args.days, args.seed, &backend, &out, args.force);
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
    println!("  took {:.2} s", started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

/// The LLM cost of a trace, per stage, and what it went on without.
fn print_llm(llm: &hearth::trace::LlmReport) {
    let t = llm.total();
    println!(
        "  LLM: {} calls, {} requests, {} prompt + {} completion tokens, {} repaired, {} re-asked, {} skipped; prefix reuse {:.0}%",
        t.calls,
        t.requests,
        t.prompt_tokens,
        t.completion_tokens,
        t.repairs,
        t.reasks,
        t.skipped,
        100.0 * llm.reused_prefix_chars as f64 / llm.prompt_chars.max(1) as f64
    );
    for (stage, c) in &llm.stages {
        println!(
            "    {stage:<10} {:>5} calls {:>5} requests {:>9} + {:>7} tokens {:>3} repaired {:>3} re-asked {:>3} skipped",
            c.calls,
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
}
