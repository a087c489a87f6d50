//! Which figures a run of `hearth bench` makes, by its flags.

use std::process::ExitCode;

use anyhow::Result;

use super::args::BenchArgs;
use super::{editor, executor, horizon, llm, runs};

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
