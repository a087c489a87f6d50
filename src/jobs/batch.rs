//! Batches: scenes x seeds in parallel, resumable, shardable and atomic.
//!
//! A [`BatchSpec`] names the batch; [`units`] puts its traces in their
//! fixed order (scenes in order, seeds within each); a [`Shard`] owns units
//! K, K+N, K+2N, ...; the first run records the batch in `DIR/batch.json`
//! ([`BatchRecord`]) so that later runs (other shards, resumes) check they
//! belong to it and [`status`] knows every unit. [`execute`] generates the
//! missing traces of a shard; finished ones are skipped, so a rerun
//! resumes. `hearth batch` parses arguments into a spec and prints.

use std::collections::VecDeque;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::one::generate_trace;
use super::options::{BackendSpec, Summary, TraceOptions};
use crate::catalogue;
use crate::procgen::{self, SceneSpec};
use crate::scene::{self, Scene};
use crate::store::{self, StoreError};
use crate::trace::Difficulty;

/// The batch record's file name in the batch directory.
pub const RECORD: &str = "batch.json";

/// Why a batch could not run (a unit's own failure is in [`Outcome`]).
#[derive(Debug, Error)]
pub enum BatchError {
    #[error("{0}")]
    Seeds(String),
    #[error("--scenes gen:{range}: {source}")]
    GenSeeds {
        range: String,
        #[source]
        source: Box<BatchError>,
    },
    #[error("no scenes given")]
    NoScenes,
    #[error("no scene file matches {pattern}")]
    NoMatch { pattern: String },
    #[error("cannot list {}: {source}", dir.display())]
    List {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot create {}: {source}", dir.display())]
    Create {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("no household kind {kind:?}: use mixed or one of {known}")]
    Kind { kind: String, known: String },
    #[error("{0}")]
    Shard(String),
    #[error(
        "{} holds another batch ({} units of {}, {} days, {}): give this one another --out",
        dir.display(), old.units.len(), old.scenes, old.days, old.backend
    )]
    Other { dir: PathBuf, old: Box<BatchRecord> },
    #[error("cannot read {}: {source} (is {} the --out of a batch?)", path.display(), path.parent().unwrap_or(Path::new(".")).display())]
    NoRecord {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Parses `A..B` (half-open) or `N`.
pub fn parse_seeds(s: &str) -> Result<Vec<u64>, BatchError> {
    let s = s.trim();
    let bad = BatchError::Seeds;
    if let Some((a, b)) = s.split_once("..") {
        let num = |v: &str| {
            v.trim()
                .parse::<u64>()
                .map_err(|_| bad(format!("bad seed range {s:?}: {v:?} is not a number")))
        };
        let (a, b) = (num(a)?, num(b)?);
        if a >= b {
            return Err(bad(format!(
                "empty seed range {s:?}: write A..B with A < B (B excluded)"
            )));
        }
        return Ok((a..b).collect());
    }
    Ok(vec![s.parse().map_err(|_| {
        bad(format!("bad seeds {s:?}: write a number or a range A..B"))
    })?])
}

fn wildcard(pattern: &str, name: &str) -> bool {
    match (pattern.chars().next(), name.chars().next()) {
        (None, None) => true,
        (Some('*'), _) => {
            wildcard(&pattern[1..], name)
                || name
                    .chars()
                    .next()
                    .is_some_and(|c| wildcard(pattern, &name[c.len_utf8()..]))
        }
        (Some('?'), Some(c)) => wildcard(&pattern[1..], &name[c.len_utf8()..]),
        (Some(p), Some(c)) if p == c => wildcard(&pattern[p.len_utf8()..], &name[c.len_utf8()..]),
        _ => false,
    }
}

/// Expands a `--scenes` list (comma-separated paths, globs, built-in ids)
/// into scene specs; a glob's matches are in name order.
pub fn expand_scenes(spec: &str) -> Result<Vec<String>, BatchError> {
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if part.contains('*') || part.contains('?') {
            let path = Path::new(part);
            let dir = path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let pat = path.file_name().and_then(|n| n.to_str()).unwrap_or("*");
            let mut found: Vec<String> = fs::read_dir(dir)
                .map_err(|source| BatchError::List {
                    dir: dir.into(),
                    source,
                })?
                .filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_str().is_some_and(|n| wildcard(pat, n)))
                .map(|e| e.path().display().to_string())
                .collect();
            if found.is_empty() {
                return Err(BatchError::NoMatch {
                    pattern: part.into(),
                });
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(part.to_string());
        }
    }
    if out.is_empty() {
        return Err(BatchError::NoScenes);
    }
    Ok(out)
}

/// One of N shards of a batch (0-based): it owns units K, K+N, K+2N, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The whole batch.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// `--shard K/N`, or `--shards N` with the index from `env`: Slurm's
    /// SLURM_ARRAY_TASK_ID (minus SLURM_ARRAY_TASK_MIN) or Kubernetes'
    /// JOB_COMPLETION_INDEX; neither is the whole batch.
    pub fn from_args(
        shard: Option<&str>,
        shards: Option<u32>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Shard, BatchError> {
        let err = BatchError::Shard;
        let num = |what: &str, v: &str| -> Result<u32, BatchError> {
            v.trim()
                .parse()
                .map_err(|_| err(format!("{what} {v:?} is not a whole number")))
        };
        let (k, n) = match (shard, shards) {
            (Some(s), _) => {
                let (k, n) = s
                    .split_once('/')
                    .ok_or_else(|| err(format!("--shard {s:?}: write K/N, e.g. 0/16")))?;
                (num("--shard index", k)?, num("--shard count", n)?)
            }
            (None, Some(n)) => {
                let k = if let Some(i) = env("JOB_COMPLETION_INDEX") {
                    num("JOB_COMPLETION_INDEX", &i)?
                } else if let Some(i) = env("SLURM_ARRAY_TASK_ID") {
                    let min = env("SLURM_ARRAY_TASK_MIN")
                        .map(|m| num("SLURM_ARRAY_TASK_MIN", &m))
                        .transpose()?
                        .unwrap_or(0);
                    num("SLURM_ARRAY_TASK_ID", &i)?
                        .checked_sub(min)
                        .ok_or_else(|| {
                            err("SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN".into())
                        })?
                } else {
                    return Err(err(format!(
                        "--shards {n} needs the shard index: run under a Slurm array (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX), or say --shard K/{n}"
                    )));
                };
                (k, n)
            }
            (None, None) => (0, 1),
        };
        if n == 0 || k >= n {
            return Err(err(format!(
                "shard {k}/{n} does not exist: the index runs from 0 to N-1"
            )));
        }
        Ok(Shard { index: k, count: n })
    }

    /// Whether the unit at `position` of the batch order is this shard's.
    pub fn owns(&self, position: usize) -> bool {
        position as u64 % u64::from(self.count) == u64::from(self.index)
    }
}

/// A batch: what `hearth batch` was asked for, parsed.
#[derive(Clone)]
pub struct BatchSpec {
    /// Scene files: a glob, comma-separated paths or built-in ids, or
    /// `gen:A..B` for households generated from seeds A to B-1.
    pub scenes: String,
    /// Household kind of `gen:` scenes, or `mixed` (seed i takes the i-th
    /// kind in turn).
    pub kind: String,
    /// Trace seeds per scene, `A..B` or `N`; `None` is 0..10, or 0 with
    /// `gen:` scenes.
    pub seeds: Option<String>,
    pub days: u32,
    /// Traces generated at once.
    pub jobs: u64,
    /// Receives one `<scene>-s<seed>` trace per unit, and the record.
    pub out: PathBuf,
    /// The backend's name, as recorded (`scripted`, `openai`, `replay`).
    pub backend_name: String,
    pub backend: BackendSpec,
    pub shard: Shard,
    pub compress: bool,
    /// The difficulty axes of every trace.
    pub difficulty: Difficulty,
}

impl BatchSpec {
    /// The defaults of `hearth batch`: the default scene, seeds 0..10, 3
    /// days, 2 jobs, scripted, the whole batch, uncompressed, into `out`.
    pub fn new(out: impl Into<PathBuf>) -> Self {
        BatchSpec {
            scenes: scene::BUILTIN[0].0.into(),
            kind: "mixed".into(),
            seeds: None,
            days: 3,
            jobs: 2,
            out: out.into(),
            backend_name: "scripted".into(),
            backend: BackendSpec::Scripted,
            shard: Shard::ALL,
            compress: false,
            difficulty: Difficulty::default(),
        }
    }

    fn generated(&self) -> Option<&str> {
        self.scenes.trim().strip_prefix("gen:")
    }

    /// The seeds as written, or their default.
    pub fn seeds_spec(&self) -> String {
        self.seeds.clone().unwrap_or_else(|| {
            if self.generated().is_some() {
                "0"
            } else {
                "0..10"
            }
            .into()
        })
    }
}

/// Where a unit's scene comes from: a file or built-in scene loaded once,
/// or a household generated inside the batch (on the worker, in parallel).
#[derive(Clone)]
enum Source {
    /// Shared by all the scene's units; each job detaches its own copy.
    Loaded(Arc<Scene>),
    Generated(SceneSpec),
}

/// One trace of the batch: a scene and a seed, into `DIR/<name>`.
#[derive(Clone)]
pub struct Unit {
    source: Source,
    pub seed: u64,
    pub name: String,
}

/// Every unit of the batch in its fixed order: scenes in order, seeds
/// within each. Loads (and validates) the scenes named; generated ones are
/// made when their unit runs.
pub fn units(spec: &BatchSpec) -> Result<Vec<Unit>, BatchError> {
    let seeds = parse_seeds(&spec.seeds_spec())?;
    let mut out = Vec::new();
    if let Some(range) = spec.generated() {
        let cat = catalogue::builtin();
        if spec.kind != "mixed" && cat.household(&spec.kind).is_none() {
            return Err(BatchError::Kind {
                kind: spec.kind.clone(),
                known: cat.household_kinds().join(", "),
            });
        }
        let scene_seeds = parse_seeds(range).map_err(|e| BatchError::GenSeeds {
            range: range.into(),
            source: Box::new(e),
        })?;
        for scene_seed in scene_seeds {
            let scene = SceneSpec::new(cat.kind_for_seed(&spec.kind, scene_seed), scene_seed);
            for &seed in &seeds {
                out.push(Unit {
                    name: format!("{}-s{seed}", scene.scene_id()),
                    source: Source::Generated(scene.clone()),
                    seed,
                });
            }
        }
        return Ok(out);
    }
    for name in expand_scenes(&spec.scenes)? {
        let scene = Arc::new(store::resolve_scene(&name)?);
        for &seed in &seeds {
            out.push(Unit {
                name: format!("{}-s{seed}", scene.id),
                source: Source::Loaded(Arc::clone(&scene)),
                seed,
            });
        }
    }
    Ok(out)
}

/// What a batch is, recorded in `DIR/batch.json` by its first run so that
/// `batch status` knows every unit and later runs (other shards, resumes)
/// can check they belong to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchRecord {
    pub schema: String,
    pub schema_version: u32,
    pub scenes: String,
    pub kind: String,
    pub seeds: String,
    pub days: u32,
    pub backend: String,
    /// Shard count of the first sharded run (1 if none).
    pub shards: u32,
    /// Whether the events are written zstd-compressed (records written
    /// before this was recorded read as `false`).
    #[serde(default)]
    pub compress: bool,
    /// The difficulty axes (absent: the defaults).
    #[serde(default, skip_serializing_if = "Difficulty::is_default")]
    pub difficulty: Difficulty,
    /// Every unit's trace directory name, in batch order.
    pub units: Vec<String>,
}

/// Reads `DIR/batch.json`.
pub fn read_record(dir: &Path) -> Result<BatchRecord, BatchError> {
    let path = dir.join(RECORD);
    store::read_json(&path, "a batch record").map_err(|e| match e {
        StoreError::Read { path, source } => BatchError::NoRecord { path, source },
        other => BatchError::Store(other),
    })
}

/// Writes `DIR/batch.json`, or checks that the one there is this batch
/// (the same units, days and backend). A sharded run after an unsharded
/// one records its shard count.
fn record(spec: &BatchSpec, units: &[Unit]) -> Result<(), BatchError> {
    let mut rec = BatchRecord {
        schema: "hearth.batch".into(),
        schema_version: 1,
        scenes: spec.scenes.clone(),
        kind: spec.kind.clone(),
        seeds: spec.seeds_spec(),
        days: spec.days,
        backend: spec.backend_name.clone(),
        shards: spec.shard.count,
        compress: spec.compress,
        difficulty: spec.difficulty,
        units: units.iter().map(|u| u.name.clone()).collect(),
    };
    if spec.out.join(RECORD).exists() {
        let old = read_record(&spec.out)?;
        if old.units != rec.units
            || old.days != rec.days
            || old.backend != rec.backend
            || old.difficulty != rec.difficulty
        {
            return Err(BatchError::Other {
                dir: spec.out.clone(),
                old: Box::new(old),
            });
        }
        if spec.shard.count == 1 || old.shards != 1 {
            return Ok(());
        }
        rec.scenes = old.scenes;
    }
    let mut text = serde_json::to_string_pretty(&rec).expect("a record serializes");
    text.push('\n');
    store::write_atomic(&spec.out.join(RECORD), text.as_bytes())?;
    Ok(())
}

/// What [`execute`] reports as it goes, for a progress bar.
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    /// This many traces are to be generated.
    Todo(u64),
    /// A unit's trace is being generated.
    Started(&'a str),
    /// A unit is done (generated or failed).
    Finished,
}

/// What a batch run did.
#[derive(Debug)]
pub struct Outcome {
    pub generated: usize,
    /// Traces already finished before the run (resumed over).
    pub skipped: usize,
    /// (trace name, why) of each trace that failed, by name.
    pub failures: Vec<(String, String)>,
    pub events: u64,
    /// This run's shard and the units it owns of the whole batch.
    pub shard: Shard,
    pub owned: usize,
    pub total: usize,
    /// Traces not launched because the token budget was spent.
    pub not_started: usize,
    /// The LLM client's counters for this run, and replies the traces
    /// skipped (LLM backends).
    pub llm: Option<(crate::llm::Stats, u64)>,
}

/// An error and its causes: "cannot write x: Not a directory".
fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        s.push_str(&format!(": {c}"));
        cause = c.source();
    }
    s
}

/// Generates every missing trace of the spec's shard, `spec.jobs` at a
/// time, into `spec.out`: records the batch first, clears what a killed
/// run of this shard left, skips finished traces.
pub fn execute(
    spec: &BatchSpec,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<Outcome, BatchError> {
    let all = units(spec)?;
    fs::create_dir_all(&spec.out).map_err(|source| BatchError::Create {
        dir: spec.out.clone(),
        source,
    })?;
    record(spec, &all)?;
    let total = all.len();
    let mine: Vec<Unit> = all
        .into_iter()
        .enumerate()
        .filter(|(i, _)| spec.shard.owns(*i))
        .map(|(_, u)| u)
        .collect();
    let owned = mine.len();
    // Leftovers of a killed run of this shard are never finished traces:
    // clear them (only this shard's: others may be writing next to us).
    let entries = fs::read_dir(&spec.out).map_err(|source| BatchError::List {
        dir: spec.out.clone(),
        source,
    })?;
    for e in entries.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some((unit, _)) = name.strip_prefix('.').and_then(|n| n.split_once(".tmp-"))
            && mine.iter().any(|u| u.name == unit)
        {
            let _ = fs::remove_dir_all(e.path());
        }
    }
    let (done, queue): (Vec<Unit>, Vec<Unit>) = mine
        .into_iter()
        .partition(|u| store::is_finished(&spec.out.join(&u.name)));
    let queue = VecDeque::from(queue);
    let skipped = done.len();
    let todo = queue.len() as u64;
    progress(Progress::Todo(todo));
    let queue = Mutex::new(queue);
    let failures = Mutex::new(Vec::new());
    let events = Mutex::new(0u64);
    let llm_skipped = Mutex::new(0u64);
    let spent = || match &spec.backend {
        BackendSpec::Llm(c) => c.budget_spent(),
        BackendSpec::Scripted => false,
    };
    std::thread::scope(|s| {
        for _ in 0..spec.jobs.min(todo.max(1)) {
            s.spawn(|| {
                // A spent budget launches nothing more; what is left stays
                // missing for a rerun with the same cache.
                while !spent() {
                    let Some(unit) = queue.lock().expect("queue lock").pop_front() else {
                        break;
                    };
                    progress(Progress::Started(&unit.name));
                    match run_unit(spec, &unit) {
                        Ok(summary) => {
                            *events.lock().expect("lock") += summary.counts.events;
                            *llm_skipped.lock().expect("lock") +=
                                summary.llm.map_or(0, |l| l.total().skipped);
                        }
                        Err(why) => {
                            tracing::debug!("{}: {why}", unit.name);
                            failures.lock().expect("lock").push((unit.name, why));
                        }
                    }
                    progress(Progress::Finished);
                }
            });
        }
    });
    let mut failures = failures.into_inner().expect("lock");
    failures.sort();
    let not_started = queue.into_inner().expect("queue lock").len();
    if not_started > 0 {
        tracing::warn!(
            "the token budget is spent: {not_started} traces not started; run again with the same --llm-cache to go on"
        );
    }
    Ok(Outcome {
        generated: todo as usize - failures.len() - not_started,
        not_started,
        skipped,
        failures,
        events: events.into_inner().expect("lock"),
        shard: spec.shard,
        owned,
        total,
        llm: match &spec.backend {
            BackendSpec::Llm(c) => Some((c.stats(), llm_skipped.into_inner().expect("lock"))),
            BackendSpec::Scripted => None,
        },
    })
}

/// One unit's trace, or why it failed (the whole chain of causes).
fn run_unit(spec: &BatchSpec, unit: &Unit) -> Result<Summary, String> {
    let scene = match &unit.source {
        // Each job has its own copy: see `scene::detached`.
        Source::Loaded(scene) => scene::detached(scene),
        Source::Generated(s) => {
            procgen::generate(s, catalogue::builtin()).map_err(|e| chain(&e))?
        }
    };
    let opts = TraceOptions {
        days: spec.days,
        seed: unit.seed,
        backend: spec.backend.clone(),
        replace: true,
        compress: spec.compress,
        difficulty: spec.difficulty,
    };
    generate_trace(&scene, &spec.out.join(&unit.name), &opts).map_err(|e| chain(&e))
}

/// Completion of one shard of a recorded batch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShardStatus {
    pub shard: u32,
    pub units: usize,
    pub complete: usize,
    pub missing: Vec<String>,
}

/// What is complete and what is missing in a batch directory, shard by
/// shard (by the shard count the record holds).
pub fn status(dir: &Path) -> Result<(BatchRecord, Vec<ShardStatus>), BatchError> {
    let rec = read_record(dir)?;
    let n = rec.shards.max(1);
    let mut shards: Vec<ShardStatus> = (0..n)
        .map(|k| ShardStatus {
            shard: k,
            units: 0,
            complete: 0,
            missing: vec![],
        })
        .collect();
    for (i, unit) in rec.units.iter().enumerate() {
        let s = &mut shards[i % n as usize];
        s.units += 1;
        if store::is_finished(&dir.join(unit)) {
            s.complete += 1;
        } else {
            s.missing.push(unit.clone());
        }
    }
    Ok((rec, shards))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_and_globs() {
        assert_eq!(parse_seeds("0..3").unwrap(), vec![0, 1, 2]);
        assert_eq!(parse_seeds("7").unwrap(), vec![7]);
        assert!(parse_seeds("3..3").is_err());
        assert!(parse_seeds("a..b").is_err());
        assert!(parse_seeds("x").is_err());
        assert!(wildcard("*.ron", "studio.ron"));
        assert!(!wildcard("*.ron", "studio.json"));
        assert!(wildcard("s?udio*", "studio.ron"));
    }
}
