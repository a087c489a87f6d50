//! Finding finished traces: a trace directory itself, a batch's units in
//! its record's order, or the finished trace directories under a directory.

use std::path::{Path, PathBuf};

use super::error::WorkflowError;
use crate::store::{self, StoreError};
use crate::study::card::BatchSettings;

/// A batch's record, written by `hearth batch` beside its traces.
pub use crate::store::Trace;

/// The finished trace in `dir`, read whole (`events.jsonl` or its
/// compressed form).
pub fn read(dir: &Path) -> Result<Trace, WorkflowError> {
    Ok(store::read_trace(dir)?)
}

/// The generation plan of the trace in `dir` (`plan.json`), or none for a
/// trace of `hearth run`.
pub fn read_plan(dir: &Path) -> Result<Option<crate::generation::Plan>, WorkflowError> {
    Ok(store::read_plan(dir)?)
}

pub const RECORD: &str = "batch.json";

/// The batch's record, if `dir` has one.
pub fn batch_settings(dir: &Path) -> Result<Option<BatchSettings>, WorkflowError> {
    let path = dir.join(RECORD);
    if !path.exists() {
        return Ok(None);
    }
    let text = store::read_text(&path)?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| WorkflowError::Record {
            path,
            why: e.to_string(),
        })
}

/// The finished trace directories under `dir`, in name order.
fn finished_children(dir: &Path) -> Result<Vec<PathBuf>, WorkflowError> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|source| StoreError::Read {
            path: dir.into(),
            source,
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && store::is_finished(p))
        .collect();
    v.sort();
    Ok(v)
}

/// The finished traces of a batch directory: its record's units in batch
/// order (missing or unfinished ones left out with a warning), or without
/// a record every finished trace directory in it, by name.
pub fn batch_traces(dir: &Path) -> Result<Vec<PathBuf>, WorkflowError> {
    if !dir.is_dir() {
        return Err(WorkflowError::NoTraces { dir: dir.into() });
    }
    let found: Vec<PathBuf> = match batch_settings(dir)? {
        Some(rec) => rec
            .units
            .iter()
            .map(|u| dir.join(u))
            .filter(|p| {
                let done = store::is_finished(p);
                if !done {
                    tracing::warn!("{} is not finished: left out", p.display());
                }
                done
            })
            .collect(),
        None => finished_children(dir)?,
    };
    if found.is_empty() {
        return Err(WorkflowError::NoTraces { dir: dir.into() });
    }
    Ok(found)
}

/// `dir` itself if it is a trace (one with a manifest: reading it says what
/// is wrong if it is damaged), else the finished traces under it in name
/// order (what `trace lint` and `trace stats` take).
pub fn traces_under(dir: &Path) -> Result<Vec<PathBuf>, WorkflowError> {
    if dir.join(store::MANIFEST).exists() {
        return Ok(vec![dir.to_path_buf()]);
    }
    if !dir.is_dir() {
        return Err(WorkflowError::NoTraces { dir: dir.into() });
    }
    let found = finished_children(dir)?;
    if found.is_empty() {
        return Err(WorkflowError::NoTraces { dir: dir.into() });
    }
    Ok(found)
}

/// The name the exports and reports give a trace: its directory's, or the
/// scene's where the directory has none.
pub fn trace_name(dir: &Path, scene: &str) -> String {
    dir.canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| scene.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_batches_say_what_is_wrong() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path();
        let missing = batch_traces(&dir.join("nowhere")).unwrap_err();
        assert!(missing.to_string().contains("nowhere"), "{missing}");
        assert!(traces_under(&dir.join("nowhere")).is_err());
        let err = batch_traces(dir).unwrap_err();
        assert!(matches!(err, WorkflowError::NoTraces { .. }), "{err}");
        assert!(err.to_string().contains("hearth batch"), "{err}");
        assert!(matches!(
            traces_under(dir),
            Err(WorkflowError::NoTraces { .. })
        ));
        // A record whose units are not there: nothing finished to evaluate.
        std::fs::write(
            dir.join(RECORD),
            r#"{"units": ["a-s0", "b-s0"], "days": 1}"#,
        )
        .unwrap();
        std::fs::create_dir(dir.join("a-s0")).unwrap();
        assert!(matches!(
            batch_traces(dir),
            Err(WorkflowError::NoTraces { .. })
        ));
        assert_eq!(batch_settings(dir).unwrap().unwrap().units.len(), 2);
        // A record that is not one.
        std::fs::write(dir.join(RECORD), "[1, 2").unwrap();
        let err = batch_traces(dir).unwrap_err();
        assert!(err.to_string().contains("is not a batch record"), "{err}");
        assert!(matches!(
            super::super::study::write_card(dir, "samples.jsonl", crate::samples::Asking::Robot),
            Err(WorkflowError::Record { .. })
        ));
    }
}
