//! Each agent's answers written for other projects' scorers (see
//! `eval::predictions`): LongMemEval hypothesis lines per agent, or the
//! LoCoMo export with every agent's prediction on every question.

use std::path::{Path, PathBuf};

use super::error::WorkflowError;
use super::evaluate::TraceSamples;
use super::traces::trace_name;
use crate::eval::QaResult;
use crate::eval::predictions;
use crate::samples::{Index, QaSample, Sample};
use crate::store;

pub use crate::eval::predictions::Format;

/// Writes the agents' answers in `format` into `dir`; returns the files.
/// `results[agent][trace]` are the agents' results on `traces`.
pub fn write(
    format: Format,
    dir: &Path,
    traces: &[TraceSamples],
    agents: &[String],
    results: &[Vec<Vec<QaResult>>],
) -> Result<Vec<PathBuf>, WorkflowError> {
    let names: Vec<String> = traces
        .iter()
        .map(|t| trace_name(&t.dir, t.trace.scene.id.as_str()))
        .collect();
    let written = match format {
        Format::LongMemEval => agents
            .iter()
            .zip(results)
            .map(|(agent, per_trace)| {
                let stem = predictions::prediction_key(agent);
                let stem = stem.trim_end_matches("_prediction");
                let path = dir.join(format!("predictions-{stem}-longmemeval.jsonl"));
                let mut text = String::new();
                for (name, qa) in names.iter().zip(per_trace) {
                    for h in predictions::longmemeval(name, qa) {
                        text.push_str(&serde_json::to_string(&h).expect("predictions serialize"));
                        text.push('\n');
                    }
                }
                store::write_atomic(&path, text.as_bytes())?;
                Ok(path)
            })
            .collect::<Result<Vec<_>, WorkflowError>>()?,
        Format::Locomo => {
            let ixs: Vec<Index> = traces
                .iter()
                .map(|t| Index::new(&t.trace.scene, &t.trace.events))
                .collect();
            let qas: Vec<Vec<&QaSample>> = traces
                .iter()
                .map(|t| {
                    t.samples
                        .iter()
                        .filter_map(|s| match s {
                            Sample::Qa(q) => Some(q),
                            Sample::Plan(_) => None,
                        })
                        .collect()
                })
                .collect();
            let answers: Vec<Vec<(String, _)>> = (0..traces.len())
                .map(|i| {
                    agents
                        .iter()
                        .zip(results)
                        .map(|(a, r)| (a.clone(), predictions::texts(&r[i])))
                        .collect()
                })
                .collect();
            let path = dir.join("predictions-locomo.json");
            let records = (0..traces.len()).flat_map(|i| {
                predictions::locomo(
                    // The conversations `hearth export --format locomo` writes by default.
                    crate::samples::export::locomo_records(
                        &ixs[i],
                        &names[i],
                        &qas[i],
                        crate::samples::export::Haystack::default(),
                        0,
                    ),
                    &answers[i],
                )
            });
            store::write_json_array(&path, records, true)?;
            vec![path]
        }
    };
    Ok(written)
}
