//! A trace's QA samples with their history, for other memory tools
//! (`hearth export`): LoCoMo's layout (a record per cutoff) or
//! LongMemEval's (an instance per question with its haystack).

use std::path::{Path, PathBuf};

use super::error::WorkflowError;
use super::mine;
use super::traces::trace_name;
use crate::samples::{Family, Index, QaSample, Sample, export};
use crate::store;

pub use crate::samples::export::Haystack;

/// The layout of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// LoCoMo's `locomo10.json`: a sample per cutoff with its questions
    /// and a conversation of the sessions before it.
    Locomo,
    /// LongMemEval's: an instance per question with its haystack.
    Longmemeval,
}

impl ExportFormat {
    /// Its name, as in the file name it is written to by default.
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Locomo => "locomo",
            ExportFormat::Longmemeval => "longmemeval",
        }
    }
}

/// What to export and where.
pub struct ExportRequest<'a> {
    /// A trace directory with mined samples.
    pub trace: &'a Path,
    /// The samples file [default: `<trace>/samples.jsonl`].
    pub samples: Option<PathBuf>,
    /// The output file [default: `<trace>/export-<format>.json`].
    pub out: Option<PathBuf>,
    pub format: ExportFormat,
    /// How much of the past each record holds.
    pub haystack: Haystack,
    /// Seed of the distractor sessions of `S` and `M` haystacks.
    pub seed: u64,
    /// Only questions of these families (all if empty).
    pub families: Vec<Family>,
    /// At most this many questions, the first in sample order.
    pub limit: Option<usize>,
}

/// What was written.
pub struct Exported {
    pub out: PathBuf,
    pub records: usize,
    pub questions: usize,
}

/// The families named (`current_state`, `routine`, ...), or which name is
/// no family's.
pub fn families(names: &[String]) -> Result<Vec<Family>, WorkflowError> {
    names
        .iter()
        .map(|f| {
            Family::ALL
                .into_iter()
                .find(|x| x.name() == f.trim())
                .ok_or_else(|| {
                    let names: Vec<&str> = Family::ALL.iter().map(|x| x.name()).collect();
                    WorkflowError::UnknownFamily {
                        name: f.clone(),
                        known: names.join(", "),
                    }
                })
        })
        .collect()
}

/// Writes the export `req` asks for.
pub fn export(req: ExportRequest) -> Result<Exported, WorkflowError> {
    let trace = store::read_trace(req.trace)?;
    let path = req
        .samples
        .unwrap_or_else(|| req.trace.join("samples.jsonl"));
    let samples = mine::read(req.trace, &path)?;
    let qa: Vec<&QaSample> = samples
        .iter()
        .filter_map(|s| match s {
            Sample::Qa(q) => Some(q),
            Sample::Plan(_) => None,
        })
        .filter(|q| req.families.is_empty() || req.families.contains(&q.family))
        .take(req.limit.unwrap_or(usize::MAX))
        .collect();
    let ix = Index::new(&trace.scene, &trace.events);
    let name = trace_name(req.trace, trace.scene.id.as_str());
    let out = req
        .out
        .unwrap_or_else(|| req.trace.join(format!("export-{}.json", req.format.name())));
    let (size, seed) = (req.haystack, req.seed);
    let records = match req.format {
        ExportFormat::Locomo => store::write_json_array(
            &out,
            export::locomo_records(&ix, &name, &qa, size, seed),
            true,
        ),
        // Compact: a haystack per question makes this file large.
        ExportFormat::Longmemeval => store::write_json_array(
            &out,
            export::longmemeval_records(&ix, &name, &qa, size, seed),
            false,
        ),
    }?;
    Ok(Exported {
        out,
        records,
        questions: qa.len(),
    })
}
