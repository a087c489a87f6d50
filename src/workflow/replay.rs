//! What the replay viewer opens (`hearth view`): a trace replayed once
//! into keyframes, its samples if mined, and evaluation reports to show
//! beside them.

use std::path::Path;

use super::error::WorkflowError;
use crate::eval::Report;
use crate::playback::Playback;
use crate::samples::Sample;
use crate::store;

/// A trace ready to replay.
pub struct Replay {
    pub playback: Playback,
    /// `samples.jsonl` of the trace directory, or none.
    pub samples: Vec<Sample>,
    /// The reports of `report` (an `eval-report.json`), or none.
    pub reports: Vec<Report>,
}

/// Reads the trace in `dir`, replays it (checked) and reads its samples
/// and the evaluation report at `report`.
pub fn open(dir: &Path, report: Option<&Path>) -> Result<Replay, WorkflowError> {
    let trace = store::read_trace(dir)?;
    let playback =
        Playback::new(trace.scene, trace.events).map_err(|source| WorkflowError::Replay {
            trace: dir.into(),
            source,
        })?;
    let samples_path = dir.join("samples.jsonl");
    let samples = if samples_path.exists() {
        store::read_samples(&samples_path)?.1
    } else {
        vec![]
    };
    let reports = match report {
        Some(p) => store::read_json(p, "an evaluation report")?,
        None => vec![],
    };
    Ok(Replay {
        playback,
        samples,
        reports,
    })
}
