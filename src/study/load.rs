//! The file edge of `study`: a batch's traces read through `store` (mined
//! first where they have no samples), and its dataset card written beside
//! it. Everything else in `study` is computed in memory.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::card::{BatchSettings, DatasetCard, HouseholdCard, TraceInput, card, scoring_commands};
use super::{kind_of, presence, question_facts};
use crate::samples::{self, Asking, Index, SAMPLES_SCHEMA, Sample, SamplesHeader};
use crate::store::{self, StoreError, Trace};

#[derive(Debug, Error)]
pub enum StudyError {
    #[error(
        "no finished traces in {}: give the --out directory of `hearth batch` (or a directory of trace directories)",
        dir.display()
    )]
    NoTraces { dir: PathBuf },
    #[error("{} is not a batch record: {why}", path.display())]
    Record { path: PathBuf, why: String },
    #[error(
        "{invalid} of {total} samples mined from {} fail the validity checks (first: {first}); this is a bug in hearth: please report it with the trace",
        trace.display()
    )]
    Invalid {
        trace: PathBuf,
        invalid: usize,
        total: usize,
        first: String,
    },
    #[error(
        "{} holds questions asked of the {found}, not of the {wanted}: pass --ask {found}, or give another --samples file to mine into",
        path.display(), found = found.name(), wanted = wanted.name()
    )]
    Asked {
        path: PathBuf,
        found: Asking,
        wanted: Asking,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Plot(#[from] super::plot::PlotError),
}

const RECORD: &str = "batch.json";

/// The batch's record, if `dir` has one.
pub fn batch_settings(dir: &Path) -> Result<Option<BatchSettings>, StudyError> {
    let path = dir.join(RECORD);
    if !path.exists() {
        return Ok(None);
    }
    let text = store::read_text(&path)?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| StudyError::Record {
            path,
            why: e.to_string(),
        })
}

/// The finished traces of a batch directory: its record's units in batch
/// order (missing or unfinished ones left out with a warning), or without
/// a record every finished trace directory in it, by name.
pub fn batch_traces(dir: &Path) -> Result<Vec<PathBuf>, StudyError> {
    if !dir.is_dir() {
        return Err(StudyError::NoTraces { dir: dir.into() });
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
        None => {
            let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
                .map_err(|source| StoreError::Read {
                    path: dir.into(),
                    source,
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir() && store::is_finished(p))
                .collect();
            v.sort();
            v
        }
    };
    if found.is_empty() {
        return Err(StudyError::NoTraces { dir: dir.into() });
    }
    Ok(found)
}

/// A trace with its samples.
pub struct Loaded {
    /// The trace directory's name (the exports' record names).
    pub name: String,
    pub trace: Trace,
    pub samples: Vec<Sample>,
    /// Whether the samples were mined (and written) just now.
    pub mined: bool,
}

/// The name the exports give a trace: its directory's.
pub fn trace_name(dir: &Path, scene: &str) -> String {
    dir.canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| scene.to_string())
}

/// Reads the trace in `dir` and its samples file `samples` (mined with
/// seed 0 asking `ask`, checked and written there first if there is none;
/// one there must have been asked so too).
pub fn load(dir: &Path, samples: &str, ask: Asking) -> Result<Loaded, StudyError> {
    let trace = store::read_trace(dir)?;
    let path = dir.join(samples);
    let name = trace_name(dir, trace.scene.id.as_str());
    if path.exists() {
        let (header, samples) = store::read_samples(&path)?;
        if header.ask != ask {
            return Err(StudyError::Asked {
                path,
                found: header.ask,
                wanted: ask,
            });
        }
        return Ok(Loaded {
            name,
            trace,
            samples,
            mined: false,
        });
    }
    let mined = samples::mine_asking(&trace.scene, &trace.events, 0, ask);
    let invalid = samples::validate::check(&Index::new(&trace.scene, &trace.events), &mined);
    if let Some(first) = invalid.first() {
        return Err(StudyError::Invalid {
            trace: dir.into(),
            invalid: invalid.len(),
            total: mined.len(),
            first: format!("{}: {}", first.sample, first.why),
        });
    }
    let header = SamplesHeader {
        schema: SAMPLES_SCHEMA.into(),
        schema_version: crate::trace::SCHEMA_VERSION,
        scene: trace.scene.id.clone(),
        seed: 0,
        ask,
    };
    store::write_samples(&path, &header, &mined)?;
    Ok(Loaded {
        name,
        trace,
        samples: mined,
        mined: true,
    })
}

/// The card's view of a loaded trace.
pub fn trace_input(l: &Loaded) -> TraceInput {
    let (scene, m) = (&l.trace.scene, &l.trace.manifest);
    let ix = Index::new(scene, &l.trace.events);
    let household = HouseholdCard {
        trace: l.name.clone(),
        scene: scene.id.to_string(),
        kind: kind_of(scene.id.as_str()),
        rooms: scene.rooms.len(),
        people: scene
            .actors
            .iter()
            .filter(|a| a.kind == crate::scene::ActorKind::Human)
            .count(),
        objects: scene.objects.len(),
        days: m.days,
        events: m.counts.events,
        seed: m.seed,
        backend: m.backend.clone(),
        model: m.model.clone(),
        hearth_version: m.hearth_version.clone(),
        presence: presence(&ix),
        questions: 0,
        tasks: 0,
    };
    TraceInput::new(household, question_facts(&ix, &l.samples), &l.samples)
}

/// Writes `DATASET.md` and `dataset.json` into the batch directory `dir`
/// from each trace's samples file `samples` (mined first, asking `ask`,
/// where there is none); returns the card.
pub fn write_card(dir: &Path, samples: &str, ask: Asking) -> Result<DatasetCard, StudyError> {
    let settings = batch_settings(dir)?;
    let inputs = batch_traces(dir)?
        .iter()
        .map(|t| load(t, samples, ask).map(|l| trace_input(&l)))
        .collect::<Result<Vec<_>, _>>()?;
    let name = trace_name(dir, "dataset");
    let c = card(&name, settings, &inputs);
    let first = c.households.first().map_or("TRACE", |h| h.trace.as_str());
    let c = DatasetCard {
        ask,
        scoring: scoring_commands(first, samples, ask),
        ..c
    };
    let mut json = serde_json::to_string_pretty(&c).expect("cards serialize");
    json.push('\n');
    store::write_atomic(&dir.join("dataset.json"), json.as_bytes())?;
    store::write_atomic(&dir.join("DATASET.md"), c.markdown().as_bytes())?;
    Ok(c)
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
        let err = batch_traces(dir).unwrap_err();
        assert!(matches!(err, StudyError::NoTraces { .. }), "{err}");
        assert!(err.to_string().contains("hearth batch"), "{err}");
        // A record whose units are not there: nothing finished to evaluate.
        std::fs::write(
            dir.join(RECORD),
            r#"{"units": ["a-s0", "b-s0"], "days": 1}"#,
        )
        .unwrap();
        std::fs::create_dir(dir.join("a-s0")).unwrap();
        assert!(matches!(
            batch_traces(dir),
            Err(StudyError::NoTraces { .. })
        ));
        assert_eq!(batch_settings(dir).unwrap().unwrap().units.len(), 2);
        // A record that is not one.
        std::fs::write(dir.join(RECORD), "[1, 2").unwrap();
        let err = batch_traces(dir).unwrap_err();
        assert!(err.to_string().contains("is not a batch record"), "{err}");
        assert!(matches!(
            write_card(dir, "samples.jsonl", Asking::Robot),
            Err(StudyError::Record { .. })
        ));
    }
}
