//! `hearth bench`: figures for the performance guide (docs/performance.md).
//! Timing lives here, at the binary edge; the core never reads a clock.

mod args;
mod editor;
mod executor;
mod horizon;
mod llm;
mod runs;

use std::process::ExitCode;

use anyhow::Result;

pub use args::BenchArgs;

pub fn run(args: BenchArgs) -> Result<ExitCode> {
    if cfg!(debug_assertions) {
        eprintln!(
            "warning: this is a debug build; run `cargo run --release -- bench` for real figures"
        );
    }
    if args.llm_only {
        llm::bench_llm(&args)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.editor_only {
        editor::bench_editor()?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.eval_only {
        runs::bench_eval(&args)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.horizon_only {
        horizon::bench_horizon(&args.horizons)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.generation_only {
        runs::bench_generation(&args)?;
        return Ok(ExitCode::SUCCESS);
    }
    executor::bench_executor(&args)?;
    runs::bench_procgen(1000)?;
    editor::bench_editor()?;
    runs::bench_generation(&args)?;
    runs::bench_batch(&args)?;
    runs::bench_eval(&args)?;
    horizon::bench_horizon(&args.horizons)?;
    runs::bench_playback()?;
    llm::bench_llm(&args)?;
    Ok(ExitCode::SUCCESS)
}
