//! `hearth dataset release`, `hearth answer` and `hearth score`: a batch
//! frozen into a release others can cite, agents run over a split of it
//! into predictions files, and predictions scored from the key alone.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use indicatif::ProgressBar;

use hearth::workflow::Asking;
use hearth::workflow::evaluate::{AgentSpec, EvalOptions};
use hearth::workflow::release::{self, ReleaseOptions, Split};
use hearth::workflow::study::{self, Step};

#[derive(Args)]
pub struct ReleaseArgs {
    /// The batch's --out directory.
    pub batch: PathBuf,
    /// The release directory to write (new, or empty): dev/ and test/
    /// splits, release.json (the SHA-256 of every file) and RELEASE.md.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Where the key goes (the test split's traces and answers): a file
    /// kept apart from the release, never inside it.
    #[arg(long)]
    pub key: PathBuf,
    /// The release's name [default: the --out directory's].
    #[arg(long)]
    pub name: Option<String>,
    /// The share of households in the test split (at least one in each
    /// split of two or more).
    #[arg(long, default_value_t = 0.5, value_parser = share)]
    pub test_share: f64,
    /// Which households go to the test split.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Samples file inside each trace directory (mined first if absent).
    #[arg(long, default_value = "samples.jsonl")]
    pub samples: String,
    /// What the questions of traces mined now are drawn from: `robot` or
    /// `household`.
    #[arg(long, default_value = "household")]
    pub ask: Asking,
}

fn share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{s:?} is not a share between 0 and 1")),
    }
}

pub fn release(a: ReleaseArgs) -> Result<ExitCode> {
    let (card, sha) = release::release(
        &a.batch,
        &a.out,
        &a.key,
        &ReleaseOptions {
            name: a.name,
            test_share: a.test_share,
            seed: a.seed,
            samples: &a.samples,
            ask: a.ask,
        },
    )?;
    let n = |s: Split| card.questions.get(&s).copied().unwrap_or(0);
    println!(
        "released {} (hearth {}, card SHA-256 {sha}) into {}: dev {} households, {} questions; test {} households, {} questions; {} files hashed; key in {} (keep it apart)",
        card.name,
        card.hearth,
        a.out.display(),
        card.dev.len(),
        n(Split::Dev),
        card.test.len(),
        n(Split::Test),
        card.files.len(),
        a.key.display()
    );
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub struct AnswerArgs {
    /// The release directory (`hearth dataset release --out`).
    pub release: PathBuf,
    /// Agents, comma-separated, as `hearth eval --agents` takes them
    /// (cmd:"program args" for an external agent over JSON lines).
    #[arg(long, alias = "agent", default_value = "obsmem")]
    pub agents: String,
    /// The split to answer: `test` (what the release asks) or `dev`.
    #[arg(long, default_value = "test")]
    pub split: Split,
    /// Where each agent's predictions-<agent>.jsonl goes.
    #[arg(long, short, default_value = "predictions")]
    pub out: PathBuf,
    /// Send external agents each question as data too (see `hearth eval --help`).
    #[arg(long)]
    pub give_query: bool,
    /// Seconds an external agent may take per reply.
    #[arg(long, default_value_t = 30)]
    pub agent_timeout: u64,
}

pub fn answer(a: AnswerArgs) -> Result<ExitCode> {
    let specs = AgentSpec::parse_list(&a.agents)?;
    let opts = EvalOptions {
        give_query: a.give_query,
        agent_timeout: Duration::from_secs(a.agent_timeout),
        ..Default::default()
    };
    let mut agents: Vec<_> = specs.iter().map(|s| s.build(&opts)).collect();
    let bar = ProgressBar::new(0);
    let written = release::answer(&a.release, a.split, &mut agents, &a.out, &mut |h, i, n| {
        bar.set_length(n as u64);
        bar.set_position(i as u64);
        bar.set_message(h.to_string());
    })?;
    bar.finish_and_clear();
    for w in &written {
        println!("wrote {}", w.display());
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub struct ScoreArgs {
    /// The release's key file (`hearth dataset release --key`).
    #[arg(long)]
    pub key: PathBuf,
    /// Predictions files (`hearth answer`, or an agent's own in their format).
    #[arg(required = true)]
    pub predictions: Vec<PathBuf>,
    /// Where summary.json, eval-report.json, the plots and scored.json go.
    #[arg(long, short, default_value = "results")]
    pub out: PathBuf,
    /// Household resamples of the intervals.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub resamples: u64,
    /// Seed of the resamples.
    #[arg(long, default_value_t = 0)]
    pub bootstrap_seed: u64,
}

pub fn score(a: ScoreArgs) -> Result<ExitCode> {
    let bar = ProgressBar::new(0);
    let (scored, results) = release::score(
        &a.key,
        &a.predictions,
        a.resamples as usize,
        a.bootstrap_seed,
        &mut |step| {
            if let Step::Trace { dir, index, total } = step {
                bar.set_length(total as u64);
                bar.set_position(index as u64);
                bar.set_message(dir.display().to_string());
            }
        },
    )?;
    bar.finish_and_clear();
    println!(
        "release {} ({} split, card SHA-256 {}), scored by hearth {}",
        scored.release,
        scored.split.name(),
        scored.card_sha256,
        scored.hearth
    );
    super::eval::print_summary(&results.summary, &results.costs);
    let mut written = study::write_batch(&a.out, &results)?;
    written.push(release::write_scored(&a.out, &scored)?);
    println!(
        "{} households; wrote {} files into {} (scored.json names the release)",
        results.summary.households.len(),
        written.len(),
        a.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
