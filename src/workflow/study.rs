//! Results across a batch's households (`hearth eval --batch`): every
//! finished trace evaluated (mined first where it has no samples), the
//! summary with scene-bootstrap intervals, its plots, and the dataset
//! card of a batch (`hearth dataset card`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::WorkflowError;
use super::evaluate::{AgentSpec, EvalOptions, EvalStep, Tally, run_agents};
use super::mine::{Loaded, load_or_mine};
use super::traces::{batch_settings, batch_traces, trace_name};
use crate::eval::{Agent, Report};
use crate::llm::LlmClient;
use crate::samples::{Asking, Index, Sample};
use crate::store;
use crate::study::card::{DatasetCard, TraceInput, card, scoring_commands};
use crate::study::{self as st, Household, Run};

pub use crate::study::Summary;
pub use crate::study::bootstrap::Stat;
pub use crate::study::cost::Cost;

/// What `eval --batch` computes.
pub struct BatchRequest<'a> {
    /// The batch directory.
    pub dir: &'a Path,
    /// Samples file inside each trace directory.
    pub samples: &'a str,
    pub ask: Asking,
    pub agents: &'a [AgentSpec],
    pub opts: EvalOptions,
    /// Household resamples of the intervals, and their seed.
    pub resamples: usize,
    pub bootstrap_seed: u64,
}

/// What happened to one trace of a batch, for a progress display.
pub enum Step<'a> {
    /// About to evaluate trace `index` of `total`.
    Trace {
        dir: &'a Path,
        index: usize,
        total: usize,
    },
    /// `samples` were mined into `path` first.
    Mined { path: &'a Path, samples: usize },
    /// A pass of LLM calls over the trace.
    Llm(EvalStep<'a>),
}

/// Results across a batch's households.
pub struct BatchResults {
    pub summary: Summary,
    pub reports: Vec<Report>,
    pub costs: Vec<Cost>,
}

/// Evaluates every finished trace of a batch.
pub fn evaluate_batch(
    req: &BatchRequest,
    llm: Option<&Arc<LlmClient>>,
    progress: &mut dyn FnMut(Step),
) -> Result<BatchResults, WorkflowError> {
    let mut agents: Vec<Box<dyn Agent>> = req.agents.iter().map(|s| s.build(&req.opts)).collect();
    evaluate_batch_agents(req, &mut agents, llm, progress)
}

/// [`evaluate_batch`] for agents the caller built (`req.agents` unused).
pub fn evaluate_batch_agents(
    req: &BatchRequest,
    agents: &mut [Box<dyn Agent>],
    llm: Option<&Arc<LlmClient>>,
    progress: &mut dyn FnMut(Step),
) -> Result<BatchResults, WorkflowError> {
    let traces = batch_traces(req.dir)?;
    let loaded = traces
        .iter()
        .map(|t| load_or_mine(t, req.samples, req.ask).map(|l| (t.clone(), l)));
    evaluate_loaded(
        loaded,
        agents,
        llm,
        &req.opts,
        req.resamples,
        req.bootstrap_seed,
        progress,
    )
}

/// Evaluates `agents` over households read one at a time (each trace's
/// directory, where it says it is, and the trace with its samples):
/// reports name each by its name, not by the path it was read from.
pub fn evaluate_loaded(
    loaded: impl ExactSizeIterator<Item = Result<(PathBuf, Loaded), WorkflowError>>,
    agents: &mut [Box<dyn Agent>],
    llm: Option<&Arc<LlmClient>>,
    opts: &EvalOptions,
    resamples: usize,
    bootstrap_seed: u64,
    progress: &mut dyn FnMut(Step),
) -> Result<BatchResults, WorkflowError> {
    let mut tally = Tally::new(agents.iter().map(|a| a.name()).collect());
    let mut runs = Vec::new();
    let mut names = Vec::new();
    let total = loaded.len();
    for (index, l) in loaded.enumerate() {
        let (dir, l) = l?;
        progress(Step::Trace {
            dir: &dir,
            index,
            total,
        });
        if let Some(path) = &l.mined {
            progress(Step::Mined {
                path,
                samples: l.samples.len(),
            });
        }
        let ix = Index::new(&l.trace.scene, &l.trace.events);
        let facts = st::question_facts(&ix, &l.samples);
        tally.add(run_agents(agents, &ix, &l.samples, llm, opts, &mut |s| {
            progress(Step::Llm(s))
        })?);
        tally.audit(&l.samples, llm, opts, &mut |s| progress(Step::Llm(s)))?;
        let household = Household::new(l.name.clone(), &ix, &l.trace.manifest, facts.len());
        runs.push(Run::new(household, facts, &tally.last()));
        names.push(l.name);
    }
    let summary = st::summarize(&tally.agents, &runs, resamples, bootstrap_seed);
    Ok(BatchResults {
        summary,
        reports: tally.reports(&names),
        costs: tally.costs(),
    })
}

/// Pretty JSON with a final newline.
fn pretty<T: serde::Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("results serialize");
    s.push('\n');
    s
}

/// Writes `summary.json`, `eval-report.json`, `eval-cost.json` and the
/// plots (PNG and SVG) into `out`; returns the files written.
pub fn write_batch(out: &Path, r: &BatchResults) -> Result<Vec<PathBuf>, WorkflowError> {
    std::fs::create_dir_all(out).map_err(|source| store::StoreError::Write {
        path: out.into(),
        source,
    })?;
    let mut written = Vec::new();
    let mut write = |name: String, bytes: &[u8]| -> Result<(), WorkflowError> {
        let path = out.join(name);
        store::write_atomic(&path, bytes)?;
        written.push(path);
        Ok(())
    };
    write("summary.json".into(), pretty(&r.summary).as_bytes())?;
    write("eval-report.json".into(), pretty(&r.reports).as_bytes())?;
    write("eval-cost.json".into(), pretty(&r.costs).as_bytes())?;
    for f in st::plot::figures(&r.summary)? {
        write(format!("{}.png", f.name), &f.png)?;
        write(format!("{}.svg", f.name), f.svg.as_bytes())?;
    }
    Ok(written)
}

/// The card's view of a loaded trace.
fn trace_input(l: &Loaded) -> TraceInput {
    let (scene, m) = (&l.trace.scene, &l.trace.manifest);
    let ix = Index::new(scene, &l.trace.events);
    let tasks = l
        .samples
        .iter()
        .filter(|s| matches!(s, Sample::Plan(_)))
        .count();
    let household = Household::new(l.name.clone(), &ix, m, 0).described(scene, m, tasks);
    TraceInput::new(household, st::question_facts(&ix, &l.samples), &l.samples)
}

/// Writes `DATASET.md` and `dataset.json` into the batch directory `dir`
/// from each trace's samples file `samples` (mined first, asking `ask`,
/// where there is none); returns the card.
pub fn write_card(dir: &Path, samples: &str, ask: Asking) -> Result<DatasetCard, WorkflowError> {
    let settings = batch_settings(dir)?;
    let inputs = batch_traces(dir)?
        .iter()
        .map(|t| load_or_mine(t, samples, ask).map(|l| trace_input(&l)))
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
