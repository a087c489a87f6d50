//! `hearth dataset card`: the datasheet of a batch; `dataset audit` and
//! `dataset tally`: a blind audit of its gold answers.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Subcommand;

use hearth::workflow::Asking;
use hearth::workflow::audit::{read_sheet, write_sheet};
use hearth::workflow::study::write_card;

#[derive(Subcommand)]
pub enum DatasetCommand {
    /// Write DATASET.md and dataset.json (a datasheet: households, days,
    /// events, questions per family, evidence-age and horizon
    /// distributions, generator and settings, how to score, licence) into
    /// a batch directory, mining traces that have no samples yet.
    Card {
        /// The batch's --out directory.
        dir: PathBuf,
        /// What the questions of traces mined now are drawn from: `robot`
        /// or `household` (see `hearth mine --help`).
        #[arg(long, default_value = "household")]
        ask: Asking,
        /// Samples file inside each trace directory (mined there first if
        /// there is none).
        #[arg(long, default_value = "samples.jsonl")]
        samples: String,
    },
    /// Draw questions evenly over the families of a batch into a sheet a
    /// person checks (CSV: question, gold answer, how sure, the evidence in
    /// words, what happened to what it is about up to the cutoff, and an
    /// empty verdict column to fill with right, wrong or ill-formed); then
    /// `hearth dataset tally SHEET`.
    Audit {
        /// The batch's --out directory.
        dir: PathBuf,
        /// How many questions (the audit read 88).
        #[arg(long, default_value_t = 88)]
        n: usize,
        /// Which questions are drawn; another seed, another sheet.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Where the sheet goes.
        #[arg(long, short, default_value = "audit.csv")]
        out: PathBuf,
        /// What the questions of traces mined now are drawn from: `robot`
        /// or `household`.
        #[arg(long, default_value = "household")]
        ask: Asking,
        /// Samples file inside each trace directory.
        #[arg(long, default_value = "samples.jsonl")]
        samples: String,
    },
    /// Freeze a batch into a release others can cite: dev and test splits
    /// by household, the SHA-256 of every file in release.json, the test
    /// split's traces and answers in a key file kept apart; then `hearth
    /// answer` and `hearth score`.
    Release(super::release::ReleaseArgs),
    /// Read a filled audit sheet: the share of wrong gold answers and of
    /// ill-formed questions, each with its 95% (Wilson) interval.
    Tally {
        /// The sheet `hearth dataset audit` wrote, with its verdicts filled.
        sheet: PathBuf,
    },
}

pub fn dataset(c: DatasetCommand) -> Result<ExitCode> {
    match c {
        DatasetCommand::Card { dir, ask, samples } => {
            let card = write_card(&dir, &samples, ask)?;
            println!(
                "wrote {} and {}: {} households, {} days, {} events, {} questions, {} tasks",
                dir.join("DATASET.md").display(),
                dir.join("dataset.json").display(),
                card.households.len(),
                card.days,
                card.events,
                card.questions,
                card.tasks
            );
            Ok(ExitCode::SUCCESS)
        }
        DatasetCommand::Audit {
            dir,
            n,
            seed,
            out,
            ask,
            samples,
        } => {
            let rows = write_sheet(&dir, &samples, ask, n, seed, &out)?;
            let families: std::collections::BTreeSet<&str> =
                rows.iter().map(|r| r.family.as_str()).collect();
            println!(
                "wrote {}: {} questions over {} families; fill its verdict column with right, wrong or ill-formed, then run `hearth dataset tally {}`",
                out.display(),
                rows.len(),
                families.len(),
                out.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        DatasetCommand::Release(a) => super::release::release(a),
        DatasetCommand::Tally { sheet } => {
            let t = read_sheet(&sheet)?;
            let pct = |r: &hearth::workflow::audit::Rate| {
                format!(
                    "{} of {} ({:.1}%, 95% interval {:.1}-{:.1}%)",
                    r.count,
                    r.of,
                    100.0 * r.rate,
                    100.0 * r.low,
                    100.0 * r.high
                )
            };
            println!("checked      {}", t.checked);
            println!("wrong gold   {}", pct(&t.wrong));
            println!("ill-formed   {}", pct(&t.ill_formed));
            for (family, k) in &t.wrong_by_family {
                println!("  wrong in {family}: {k}");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
