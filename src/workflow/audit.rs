//! `hearth dataset audit`: a sheet of a batch's questions for a person to
//! check (CSV, one row per question), and the error rates of a filled one.

use std::path::Path;

use super::WorkflowError;
use super::mine::load_or_mine;
use super::traces::batch_traces;
use crate::samples::Asking;
use crate::store;
use crate::study::audit::{self, Drawn};
pub use crate::study::audit::{AuditRow, Rate, Tally};

fn sheet_error(path: &Path) -> impl Fn(csv::Error) -> WorkflowError + '_ {
    move |source| WorkflowError::Sheet {
        path: path.to_path_buf(),
        source,
    }
}

/// Draws `n` questions evenly over the families of the batch in `dir`
/// (each trace's samples file `samples`, mined asking `ask` where there is
/// none) with `seed`, and writes the sheet to `out`; returns its rows.
pub fn write_sheet(
    dir: &Path,
    samples: &str,
    ask: Asking,
    n: usize,
    seed: u64,
    out: &Path,
) -> Result<Vec<AuditRow>, WorkflowError> {
    let loaded = batch_traces(dir)?
        .iter()
        .map(|t| load_or_mine(t, samples, ask))
        .collect::<Result<Vec<_>, _>>()?;
    let drawn: Vec<Drawn> = loaded
        .iter()
        .map(|l| Drawn {
            name: &l.name,
            scene: &l.trace.scene,
            events: &l.trace.events,
            samples: &l.samples,
        })
        .collect();
    let rows = audit::draw(&drawn, n, seed);
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in &rows {
        w.serialize(r).map_err(sheet_error(out))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| sheet_error(out)(e.into_error().into()))?;
    store::write_atomic(out, &bytes)?;
    Ok(rows)
}

/// Reads a filled sheet and tallies its verdicts; a row without one is
/// an error that names it.
pub fn read_sheet(path: &Path) -> Result<Tally, WorkflowError> {
    let mut r = csv::Reader::from_path(path).map_err(sheet_error(path))?;
    let rows = r
        .deserialize::<AuditRow>()
        .collect::<Result<Vec<_>, _>>()
        .map_err(sheet_error(path))?;
    audit::tally(&rows).map_err(|unread| WorkflowError::Unread {
        path: path.to_path_buf(),
        unread,
    })
}
