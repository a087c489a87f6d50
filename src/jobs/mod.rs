//! Generating a trace into a directory: the pipeline, the scripted backend
//! and the atomic trace writer put together ([`generate_trace`]), and
//! batches of them ([`batch`]). Used by `generate`, `batch`, `bench` and the
//! editor's "Try it".

pub mod batch;

use std::path::Path;
use std::sync::Arc;

use thiserror::Error;

use crate::generation::{self, Backend, GenError, scripted::Scripted};
use crate::llm::prompts::prompt_hashes;
use crate::llm::{LlmBackend, LlmClient};
use crate::trace::Difficulty;

use crate::scene::Scene;
use crate::store::{StoreError, TraceWriter};
use crate::trace::{Authored, Counts, Manifest, Source};

/// Backends that can generate a trace.
pub const BACKENDS: &[&str] = &["scripted", "openai", "replay"];

/// A backend ready to generate: the scripted one, or an LLM client (live
/// and recording, or replaying its cache).
#[derive(Clone)]
pub enum BackendSpec {
    Scripted,
    Llm(Arc<LlmClient>),
}

#[derive(Debug, Error)]
pub enum JobError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Gen(#[from] GenError),
    #[error("days must be between 1 and 365, not {0}")]
    Days(u32),
    #[error(
        "--robot-away and --moves need the scripted backend; the LLM backend plans its own days"
    )]
    DifficultyBackend,
    #[error("scene {scene} is invalid: {problems} problems")]
    InvalidScene { scene: String, problems: usize },
}

/// What one generated trace holds.
#[derive(Debug, Clone)]
pub struct Summary {
    pub days: u32,
    pub sessions: usize,
    pub counts: Counts,
    pub skipped_turns: usize,
    /// LLM cost and skips (LLM backends).
    pub llm: Option<crate::trace::LlmReport>,
}

/// How to generate one trace: `days` with `seed` by `backend`; `replace`
/// an existing trace directory; `compress` the events (`events.jsonl.zst`).
#[derive(Clone)]
pub struct TraceOptions {
    pub days: u32,
    pub seed: u64,
    pub backend: BackendSpec,
    pub replace: bool,
    pub compress: bool,
    /// The difficulty axes (the default: an ordinary trace).
    pub difficulty: Difficulty,
}

impl TraceOptions {
    /// `days` with `seed` by `backend`, refusing to replace a trace,
    /// uncompressed.
    pub fn new(days: u32, seed: u64, backend: BackendSpec) -> Self {
        TraceOptions {
            days,
            seed,
            backend,
            replace: false,
            compress: false,
            difficulty: Difficulty::default(),
        }
    }

    /// [`Self::new`] with the scripted backend.
    pub fn scripted(days: u32, seed: u64) -> Self {
        Self::new(days, seed, BackendSpec::Scripted)
    }
}

/// Generates a trace of `scene` into `out`, atomically.
pub fn generate_trace(scene: &Scene, out: &Path, opts: &TraceOptions) -> Result<Summary, JobError> {
    let TraceOptions {
        days,
        seed,
        ref backend,
        replace,
        compress,
        difficulty,
    } = *opts;
    if !(1..=365).contains(&days) {
        return Err(JobError::Days(days));
    }
    let with_lookalikes;
    let scene = if difficulty.lookalikes > 0 {
        with_lookalikes = crate::catalogue::add_lookalikes(
            scene,
            crate::catalogue::builtin(),
            difficulty.lookalikes,
        );
        &with_lookalikes
    } else {
        scene
    };
    let scripted_only = Difficulty {
        lookalikes: 0,
        ..difficulty
    };
    if matches!(backend, BackendSpec::Llm(_)) && !scripted_only.is_default() {
        return Err(JobError::DifficultyBackend);
    }
    // A replayed trace says "openai": it is the same trace, byte for byte.
    let (mut scripted, mut llm) = match backend {
        BackendSpec::Scripted => (
            Some(Scripted::new(scene, seed).with_difficulty(difficulty)),
            None,
        ),
        BackendSpec::Llm(client) => (
            None,
            Some(LlmBackend::new(Arc::clone(client), "openai", seed)),
        ),
    };
    let backend: &mut dyn Backend = match (&mut scripted, &mut llm) {
        (Some(s), _) => s,
        (_, Some(l)) => l,
        _ => unreachable!("one backend is set"),
    };
    let (name, model) = (backend.name().to_string(), backend.model());
    let prompts = model.as_ref().map(|_| prompt_hashes()).unwrap_or_default();
    let robots = scene.robots();
    let mut writer = TraceWriter::create_with(out, scene, replace, compress)?;
    let mut counts = Counts::default();
    let mut authored = Authored::default();
    let generated = generation::generate(scene, days, backend, &mut |e| {
        counts.add(e, &robots);
        authored.add_event(e);
        writer.event(e).map_err(|err| err.to_string())
    })?;
    let plan = serde_json::to_vec_pretty(&generated.plan).expect("plans serialize");
    writer.write_file("plan.json", &plan)?;
    let mut notes = Vec::new();
    for n in &generated.notes {
        serde_json::to_writer(&mut notes, n).expect("notes serialize");
        notes.push(b'\n');
    }
    writer.write_file("notes.jsonl", &notes)?;
    let mut manifest = Manifest::new(
        scene,
        &name,
        Some(seed),
        days,
        counts.clone(),
        writer.files(),
    );
    manifest.model = model;
    manifest.difficulty = difficulty;
    manifest.prompt_hashes = prompts;
    manifest.llm = llm.map(|l| {
        let mut report = l.report().clone();
        let sessions = &generated.plan.sessions;
        authored.sessions = sessions.len() as u64;
        authored.llm_sessions = sessions
            .iter()
            .filter(|s| s.source == Some(Source::Llm))
            .count() as u64;
        authored.llm_intents = sessions
            .iter()
            .filter(|s| s.source == Some(Source::Llm) || s.directed == Some(Source::Llm))
            .count() as u64;
        report.authored = authored;
        report
    });
    writer.finish(&manifest)?;
    Ok(Summary {
        days,
        sessions: generated.plan.sessions.len(),
        counts,
        skipped_turns: generated.plan.skipped_turns.len(),
        llm: manifest.llm,
    })
}

/// Executes a script's requests against `scene` in order, writing the
/// trace into `out` (`replace`: an existing trace there); returns where it
/// landed and its counts (`hearth run`).
pub fn run_script(
    scene: &Scene,
    script: Vec<crate::store::ScriptItem>,
    out: &Path,
    replace: bool,
) -> Result<(std::path::PathBuf, Counts), JobError> {
    let robots = scene.robots();
    let mut writer = TraceWriter::create(out, scene, replace)?;
    let mut sim =
        crate::sim::Simulation::new(scene.clone()).map_err(|p| JobError::InvalidScene {
            scene: scene.id.to_string(),
            problems: p.len(),
        })?;
    let mut counts = Counts::default();
    let mut last_t = 0;
    for item in script {
        let req = match item {
            crate::store::ScriptItem::Session(s) => {
                sim.set_session(s);
                continue;
            }
            crate::store::ScriptItem::Request(req) => req,
        };
        let event = sim.execute(req);
        counts.add(&event, &robots);
        last_t = event.t + event.dur;
        writer.event(&event)?;
    }
    let manifest = Manifest::new(
        scene,
        "script",
        None,
        crate::trace::day_of(last_t),
        counts.clone(),
        writer.files(),
    );
    Ok((writer.finish(&manifest)?, counts))
}
