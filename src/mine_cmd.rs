//! `hearth mine`: samples from a finished trace, checked, with the mix.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;

use hearth::samples::{self, Family, Index, SAMPLES_SCHEMA, Sample, SamplesHeader};
use hearth::store;

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
}

pub fn run(args: MineArgs) -> Result<ExitCode> {
    let trace = store::read_trace(&args.trace)?;
    let started = std::time::Instant::now();
    let spinner = indicatif::ProgressBar::new_spinner()
        .with_message(format!("mining {}", args.trace.display()));
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let mined = samples::mine(&trace.scene, &trace.events, args.seed);
    spinner.set_message("checking every sample");
    let ix = Index::new(&trace.scene, &trace.events);
    let invalid = samples::validate::check(&ix, &mined);
    spinner.finish_and_clear();
    if !invalid.is_empty() {
        for i in invalid.iter().take(20) {
            eprintln!("invalid {}: {}", i.sample, i.why);
        }
        bail!(
            "{} of {} samples fail the validity checks; nothing written (this is a bug in hearth: please report it with the trace)",
            invalid.len(),
            mined.len()
        );
    }
    let out = args.out.unwrap_or_else(|| args.trace.join("samples.jsonl"));
    let header = SamplesHeader {
        schema: SAMPLES_SCHEMA.into(),
        schema_version: hearth::trace::SCHEMA_VERSION,
        scene: trace.scene.id.clone(),
        seed: args.seed,
    };
    store::write_samples(&out, &header, &mined)
        .with_context(|| format!("writing {}", out.display()))?;
    print_mix(&mined);
    println!(
        "wrote {} (all checked, {:.2} s)",
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn print_mix(mined: &[Sample]) {
    let mut qa: BTreeMap<Family, usize> = BTreeMap::new();
    let mut plans: BTreeMap<Family, usize> = BTreeMap::new();
    for s in mined {
        match s {
            Sample::Qa(q) => *qa.entry(q.family).or_default() += 1,
            Sample::Plan(p) => *plans.entry(p.family).or_default() += 1,
        }
    }
    let total: usize = qa.values().sum();
    println!("{:<18} {:>6} {:>6}", "QA family", "count", "share");
    for f in Family::ALL {
        let n = qa.get(&f).copied().unwrap_or(0);
        println!(
            "{:<18} {:>6} {:>5.1}%",
            f.name(),
            n,
            100.0 * n as f64 / total.max(1) as f64
        );
    }
    println!("{:<18} {:>6}", "QA total", total);
    let tasks: usize = plans.values().sum();
    let by: Vec<String> = plans
        .iter()
        .map(|(f, n)| format!("{} {n}", f.name()))
        .collect();
    println!("planning tasks     {:>6} ({})", tasks, by.join(", "));
}
