//! The `hearth` command line: the binary edge, where errors become messages
//! and exit codes.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

mod batch;
mod bench;
mod dataset;
#[cfg(feature = "gui")]
mod edit;
mod eval;
mod generate;
mod llm_args;
mod release;
mod samples;
mod scene;
mod trace;
#[cfg(feature = "gui")]
mod view;

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
    Generate(generate::GenerateArgs),
    /// Generate many traces in parallel: scenes x seeds, resumable.
    Batch(batch::BatchArgs),
    /// Execute a script of requests against a scene and write a trace.
    Run(generate::RunArgs),
    /// Mine evidence-linked QA samples and planning tasks from a trace.
    Mine(samples::MineArgs),
    /// Export a trace's QA samples for other memory tools (LoCoMo, LongMemEval).
    Export(samples::ExportArgs),
    /// Check finished traces: `hearth trace lint DIR...`.
    #[command(subcommand)]
    Trace(trace::TraceCommand),
    /// Score memory agents on a trace's samples (QA and planning), or on a
    /// whole batch with intervals and plots (--batch).
    Eval(eval::EvalArgs),
    /// Run agents over a release's split into predictions files.
    Answer(release::AnswerArgs),
    /// Score predictions against a release's key: the table and files of `eval --batch`.
    Score(release::ScoreArgs),
    /// Describe a batch as a dataset: `hearth dataset card DIR`.
    #[command(subcommand)]
    Dataset(dataset::DatasetCommand),
    /// Replay a trace in a window: 2D plan, 3D view, the robot's view, samples.
    #[cfg(feature = "gui")]
    View(view::ViewArgs),
    /// Replay a trace in a window (this build has no `gui` feature).
    #[cfg(not(feature = "gui"))]
    View {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        args: Vec<String>,
    },
    /// Edit a scene in a window: plan, palette, inspector, live validation, undo.
    #[cfg(feature = "gui")]
    Edit(edit::EditArgs),
    /// Edit a scene in a window (this build has no `gui` feature).
    #[cfg(not(feature = "gui"))]
    Edit {
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
    Generate(scene::GenerateSceneArgs),
    /// Rooms, doors, furniture, devices, objects, look-alike groups and people of scenes.
    Stats(scene::StatsArgs),
    /// Apply a RON list of editor commands to a scene; print the problems left.
    Apply(scene::ApplyArgs),
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
        Command::Scene(SceneCommand::Check { paths }) => scene::check(&paths),
        Command::Scene(SceneCommand::Default) => {
            print!("{}", hearth::workflow::scenes::default_source());
            Ok(ExitCode::SUCCESS)
        }
        Command::Scene(SceneCommand::List) => scene::list(),
        Command::Scene(SceneCommand::Generate(args)) => scene::generate(args),
        Command::Scene(SceneCommand::Stats(args)) => scene::stats(args),
        Command::Scene(SceneCommand::Apply(args)) => scene::apply(args),
        Command::Run(args) => generate::run(args),
        Command::Mine(args) => samples::run(args),
        Command::Export(args) => samples::export(args),
        Command::Eval(args) => eval::run(args),
        Command::Dataset(c) => dataset::dataset(c),
        Command::Answer(a) => release::answer(a),
        Command::Score(a) => release::score(a),
        Command::Trace(c) => trace::run(c),
        #[cfg(feature = "gui")]
        Command::View(args) => view::run(args),
        #[cfg(not(feature = "gui"))]
        Command::View { .. } => anyhow::bail!(
            "this hearth was built without the `gui` feature (--no-default-features); build it with default features to use the viewer"
        ),
        #[cfg(feature = "gui")]
        Command::Edit(args) => edit::run(args),
        #[cfg(not(feature = "gui"))]
        Command::Edit { .. } => anyhow::bail!(
            "this hearth was built without the `gui` feature (--no-default-features); build it with default features to use the editor"
        ),
        Command::Generate(args) => generate::generate(args),
        Command::Batch(args) => batch::run(args),
        Command::Bench(args) => bench::run(args),
    }
}
