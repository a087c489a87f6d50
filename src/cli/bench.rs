//! `hearth bench`: figures for the performance guide (docs/performance.md),
//! measured by `workflow::bench` and printed as they come.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use hearth::workflow::bench::{self, BenchOptions};

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
    let o = BenchOptions {
        requests: args.requests,
        scene: args.scene,
        seed: args.seed,
        traces: args.traces,
        days: args.days,
        llm_delay_ms: args.llm_delay_ms,
        horizons: args.horizons,
    };
    let out = &mut |line: String| println!("{line}");
    let only = [
        args.llm_only,
        args.editor_only,
        args.eval_only,
        args.horizon_only,
        args.generation_only,
    ];
    let all = !only.contains(&true);
    if all {
        bench::executor(&o, out)?;
        bench::procgen(1000, out)?;
    }
    if all || args.editor_only {
        let _scenes = bench::editor(out)?;
        #[cfg(feature = "gui")]
        hearth::gui::edit::bench::drag_frames(&_scenes, out)?;
    }
    if all || args.generation_only {
        bench::generation(&o, out)?;
    }
    if all {
        bench::batch(&o, out)?;
    }
    if all || args.eval_only {
        bench::eval(&o, out)?;
    }
    if all || args.horizon_only {
        bench::horizon(&o.horizons, out)?;
    }
    if all {
        bench::playback(out)?;
    }
    if all || args.llm_only {
        bench::llm(&o, out)?;
    }
    Ok(ExitCode::SUCCESS)
}
