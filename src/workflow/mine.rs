//! Mining a trace into its samples file: mined and checked in one replay
//! (`samples::mine_checked`), refused whole if any sample fails a check,
//! questions reworded through an LLM if asked, written with their header.
//! `hearth mine`, `eval --batch` and `dataset card` all mine through here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::error::WorkflowError;
use super::traces::trace_name;
use crate::llm::LlmClient;
use crate::samples::{self, Asking, Index, SAMPLES_SCHEMA, Sample, SamplesHeader};
use crate::store::{self, Trace};

pub use crate::llm::oneshot::PassEvent;
pub use crate::store::read_trace;

/// What a set of samples is made of (`hearth mine` prints it).
#[derive(Debug, Clone, Default)]
pub struct Mix {
    /// Questions per family.
    pub qa: BTreeMap<samples::Family, usize>,
    /// Planning tasks per family.
    pub plans: BTreeMap<samples::Family, usize>,
    /// Asked of the household: questions about what the robot missed
    /// (answer not known, world answer the truth).
    pub missed: usize,
    /// False premises (answer not known, filed in the families they look
    /// like).
    pub premises: usize,
}

impl Mix {
    pub fn of(mined: &[Sample]) -> Mix {
        let mut m = Mix::default();
        for s in mined {
            match s {
                Sample::Qa(q) => {
                    *m.qa.entry(q.family).or_default() += 1;
                    if q.is_unanswerable() {
                        m.premises += 1;
                    } else if q.answer == samples::Answer::Unknown {
                        m.missed += 1;
                    }
                }
                Sample::Plan(p) => *m.plans.entry(p.family).or_default() += 1,
            }
        }
        m
    }
}

/// The checked samples of `trace` (read from `dir`), mined with `seed`
/// asking `ask`; an error listing the failures if any sample fails.
pub fn mine(
    trace: &Trace,
    dir: &Path,
    seed: u64,
    ask: Asking,
) -> Result<Vec<Sample>, WorkflowError> {
    let ix = Index::new(&trace.scene, &trace.events);
    let (mined, invalid) = samples::mine_checked(&ix, seed, ask);
    if !invalid.is_empty() {
        return Err(WorkflowError::Invalid {
            trace: dir.into(),
            invalid,
            total: mined.len(),
        });
    }
    Ok(mined)
}

/// Rewords every question through the LLM (the template's words kept in
/// `template_question`); answers are never touched. A blank rewording, or
/// a reply that failed, keeps the question as it was: the failures come
/// back, `(question id, why)`.
pub fn rephrase(
    client: &std::sync::Arc<LlmClient>,
    samples: &mut [Sample],
    seed: u64,
    on: &mut dyn FnMut(crate::llm::oneshot::PassEvent),
) -> Result<Vec<(String, String)>, WorkflowError> {
    let questions: Vec<String> = samples
        .iter()
        .filter_map(|s| match s {
            Sample::Qa(q) => Some(q.question.clone()),
            Sample::Plan(_) => None,
        })
        .collect();
    let new = crate::llm::oneshot::rephrase(client, &questions, seed, on).map_err(|source| {
        WorkflowError::Llm {
            what: "rephrasing questions",
            source,
        }
    })?;
    let mut new = new.into_iter();
    let mut failed = Vec::new();
    for s in samples {
        if let Sample::Qa(q) = s {
            match new.next() {
                Some(Ok(n)) if !n.trim().is_empty() => {
                    q.template_question = Some(std::mem::replace(&mut q.question, n));
                }
                Some(Err(why)) => failed.push((q.id.clone(), why)),
                _ => {}
            }
        }
    }
    Ok(failed)
}

/// Writes `samples` of `trace` to `path` under their header.
pub fn write(
    path: &Path,
    trace: &Trace,
    seed: u64,
    ask: Asking,
    samples: &[Sample],
) -> Result<(), WorkflowError> {
    let header = SamplesHeader {
        schema: SAMPLES_SCHEMA.into(),
        schema_version: crate::trace::SCHEMA_VERSION,
        scene: trace.scene.id.clone(),
        seed,
        ask,
    };
    Ok(store::write_samples(path, &header, samples)?)
}

/// The samples at `path` of the trace in `dir`, which must exist.
pub fn read(dir: &Path, path: &Path) -> Result<Vec<Sample>, WorkflowError> {
    if !path.exists() {
        return Err(WorkflowError::NoSamples {
            path: path.into(),
            trace: dir.into(),
        });
    }
    Ok(store::read_samples(path)?.1)
}

/// A trace with its samples.
pub struct Loaded {
    /// The trace directory's name (the exports' record names).
    pub name: String,
    pub trace: Trace,
    pub samples: Vec<Sample>,
    /// Where the samples were mined into just now, if they were.
    pub mined: Option<PathBuf>,
}

/// Reads the trace in `dir` and its samples file `file`, mined with seed
/// 0 asking `ask`, checked and written there first if there is none; one
/// there must have been asked so too.
pub fn load_or_mine(dir: &Path, file: &str, ask: Asking) -> Result<Loaded, WorkflowError> {
    let trace = store::read_trace(dir)?;
    let path = dir.join(file);
    let name = trace_name(dir, trace.scene.id.as_str());
    if path.exists() {
        let (header, samples) = store::read_samples(&path)?;
        if header.ask != ask {
            return Err(WorkflowError::Asked {
                path,
                found: header.ask,
                wanted: ask,
            });
        }
        return Ok(Loaded {
            name,
            trace,
            samples,
            mined: None,
        });
    }
    let samples = mine(&trace, dir, 0, ask)?;
    write(&path, &trace, 0, ask, &samples)?;
    Ok(Loaded {
        name,
        trace,
        samples,
        mined: Some(path),
    })
}
