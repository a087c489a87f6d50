//! `hearth batch`: the arguments of a [`hearth::workflow::batch`] run, its
//! progress bar and its report.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use hearth::workflow::Asking;
use hearth::workflow::batch::{self, BatchSpec, Outcome, Progress, Shard};
use hearth::workflow::generate::{BACKENDS, BackendSpec};
use hearth::workflow::study;

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BatchArgs {
    #[command(subcommand)]
    pub command: Option<BatchCommand>,
    /// Scene files: a glob (`scenes/*.ron`), comma-separated paths or
    /// built-in ids, or `gen:A..B` for households generated from seeds A to
    /// B-1 inside the batch (see `--kind`).
    #[arg(long, default_value = "family_apartment")]
    pub scenes: String,
    /// Household kind of `gen:` scenes: studio, apartment, house, or `mixed`
    /// (seed i takes the i-th kind in turn).
    #[arg(long, default_value = "mixed")]
    pub kind: String,
    /// Trace seeds per scene, as a half-open range `A..B` or a single number
    /// [default: 0..10, or 0 with `gen:` scenes].
    #[arg(long)]
    pub seeds: Option<String>,
    /// Simulated days per trace (1 to 365).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=365))]
    pub days: u32,
    /// Traces generated at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    /// Directory that receives one `<scene>-s<seed>` trace per unit.
    #[arg(long, default_value = "traces")]
    pub out: PathBuf,
    /// Generation backend.
    #[arg(long, default_value = "scripted", value_parser = clap::builder::PossibleValuesParser::new(BACKENDS))]
    pub backend: String,
    /// Run only shard K of N (0-based): units K, K+N, K+2N, ... of the batch.
    #[arg(long, value_name = "K/N", conflicts_with = "shards")]
    pub shard: Option<String>,
    /// Run one of N shards, its index read from the scheduler:
    /// SLURM_ARRAY_TASK_ID (minus SLURM_ARRAY_TASK_MIN) or Kubernetes'
    /// JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "N")]
    pub shards: Option<u32>,
    /// Write each trace's events zstd-compressed (`events.jsonl.zst`);
    /// `batch status` and a resumed batch count them as finished too.
    #[arg(long)]
    pub compress: bool,
    /// Mine every trace and describe the finished batch in `DIR/DATASET.md`
    /// and `DIR/dataset.json` (see `hearth dataset card`). A shard leaves
    /// that to whichever run finds the whole batch finished.
    #[arg(long)]
    pub card: bool,
    #[command(flatten)]
    pub difficulty: crate::generate::DifficultyArgs,
    #[command(flatten)]
    pub llm: crate::llm_args::LlmArgs,
}

#[derive(Subcommand)]
pub enum BatchCommand {
    /// What is complete and what is missing in a batch directory, across shards.
    Status(StatusArgs),
}

#[derive(Args)]
pub struct StatusArgs {
    /// The batch's `--out` directory.
    pub dir: PathBuf,
    /// One JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

impl BatchArgs {
    /// The batch these arguments name; the shard index may come from the
    /// environment (Slurm, Kubernetes).
    pub fn spec(&self) -> Result<BatchSpec> {
        let shard = Shard::from_args(self.shard.as_deref(), self.shards, |k| {
            std::env::var(k).ok()
        })?;
        Ok(BatchSpec {
            scenes: self.scenes.clone(),
            kind: self.kind.clone(),
            seeds: self.seeds.clone(),
            days: self.days,
            jobs: self.jobs,
            out: self.out.clone(),
            backend_name: self.backend.clone(),
            // One client for every trace: one cache, one bound on requests
            // in flight.
            backend: self.llm.spec(&self.backend)?,
            shard,
            compress: self.compress,
            difficulty: self.difficulty.difficulty()?,
        })
    }
}

pub fn run(args: BatchArgs) -> Result<ExitCode> {
    if let Some(BatchCommand::Status(s)) = &args.command {
        return status(s);
    }
    let o = execute(&args.spec()?, true)?;
    let share = if o.shard.count > 1 {
        format!(
            " (shard {}/{}: {} of {} units)",
            o.shard.index, o.shard.count, o.owned, o.total
        )
    } else {
        String::new()
    };
    println!(
        "batch into {}{share}: {} generated, {} already there (skipped), {} failed; {} events",
        args.out.display(),
        o.generated,
        o.skipped,
        o.failures.len(),
        o.events
    );
    if o.not_started > 0 {
        println!(
            "the token budget is spent: {} traces not started; run again with the same --llm-cache to go on",
            o.not_started
        );
    }
    if let Some((s, skipped)) = &o.llm {
        println!(
            "LLM: {} requests ({} calls from the cache), {} prompt + {} completion tokens, {} repaired, {} re-asked, {} skipped, {} fallbacks, {} times a server set aside",
            s.requests,
            s.cache_hits,
            s.prompt_tokens,
            s.completion_tokens,
            s.repairs,
            s.reasks,
            skipped,
            s.fallbacks,
            s.set_aside
        );
    }
    if o.failures.is_empty() {
        if args.card {
            write_card(&args.out)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    for (name, why) in &o.failures {
        eprintln!("failed {name}: {why}");
    }
    Ok(ExitCode::FAILURE)
}

/// Runs the batch, with a progress bar if `progress`.
pub fn execute(spec: &BatchSpec, progress: bool) -> Result<Outcome> {
    let bar = if progress {
        ProgressBar::new(0)
    } else {
        ProgressBar::hidden()
    }
    .with_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} traces {prefix} {msg}",
        )
        .expect("valid template"),
    );
    let client = match &spec.backend {
        BackendSpec::Llm(c) => Some(c),
        BackendSpec::Scripted => None,
    };
    let o = crate::llm_args::with_llm_progress(&bar, client, "", || {
        batch::execute(spec, &|p| match p {
            Progress::Todo(n) => bar.set_length(n),
            Progress::Started(name) => bar.set_prefix(name.to_string()),
            Progress::Finished => bar.inc(1),
        })
    });
    bar.finish_and_clear();
    Ok(o?)
}

fn status(args: &StatusArgs) -> Result<ExitCode> {
    let (rec, shards) = batch::status(&args.dir)?;
    let n = shards.len();
    let complete: usize = shards.iter().map(|s| s.complete).sum();
    let done = complete == rec.units.len();
    if args.json {
        let v = serde_json::json!({
            "dir": args.dir, "scenes": rec.scenes, "seeds": rec.seeds, "days": rec.days,
            "units": rec.units.len(), "complete": complete, "shards": shards,
        });
        println!("{v}");
    } else {
        println!(
            "{}: {} of {} traces complete ({} x seeds {}, {} days, {}), {} shard(s)",
            args.dir.display(),
            complete,
            rec.units.len(),
            rec.scenes,
            rec.seeds,
            rec.days,
            rec.backend,
            n
        );
        for s in shards.iter().filter(|s| !s.missing.is_empty()) {
            let shown: Vec<&str> = s.missing.iter().take(5).map(String::as_str).collect();
            println!(
                "  shard {}/{n}: {} of {} complete; missing {}{}",
                s.shard,
                s.complete,
                s.units,
                shown.join(", "),
                if s.missing.len() > 5 { ", ..." } else { "" }
            );
        }
    }
    Ok(if done {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Writes the dataset card once every unit of the batch (all shards) is
/// finished; a shard that ends earlier says so and leaves it.
fn write_card(dir: &std::path::Path) -> Result<()> {
    let (rec, shards) = batch::status(dir)?;
    let complete: usize = shards.iter().map(|s| s.complete).sum();
    if complete < rec.units.len() {
        println!(
            "dataset card: {complete} of {} traces finished; the run that finishes the batch writes it (or run `hearth dataset card {}`)",
            rec.units.len(),
            dir.display()
        );
        return Ok(());
    }
    study::write_card(dir, "samples.jsonl", Asking::default())?;
    println!("dataset card: {}", dir.join("DATASET.md").display());
    Ok(())
}
