//! `hearth dataset card`: the datasheet of a batch.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Subcommand;

use hearth::workflow::Asking;
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
    }
}
