//! An agent's answers in the formats other projects' scorers read, so they
//! score hearth's agents unchanged:
//!
//! - LongMemEval (`src/evaluation/evaluate_qa.py hyp_file ref_file`): JSON
//!   lines `{"question_id", "hypothesis"}`; the reference file is hearth's
//!   LongMemEval export, whose `question_type` (one of LongMemEval's six)
//!   picks the judge's prompt, and a `question_id` containing `_abs` marks
//!   an abstention question.
//! - LoCoMo (`task_eval/evaluation.py`, `eval_question_answering(qas,
//!   "<agent>_prediction")`): hearth's LoCoMo export with a
//!   `<agent>_prediction` field on every `qa` entry, one per agent.
//!
//! Ids follow the exports (`src/samples/export.rs`): a LongMemEval
//! question id is `<trace>-<sample id>`, a LoCoMo entry carries
//! `hearth_id`.

use std::collections::BTreeMap;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use thiserror::Error;

use crate::samples::export::LocomoSample;

use super::score::QaResult;

/// LongMemEval's question types (`evaluate_qa.py`'s `get_anscheck_prompt`).
pub const LONGMEMEVAL_TYPES: [&str; 6] = [
    "single-session-user",
    "single-session-assistant",
    "single-session-preference",
    "multi-session",
    "knowledge-update",
    "temporal-reasoning",
];

/// LoCoMo's QA categories as its scorer numbers them (not the paper's
/// order): 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop,
/// 5 adversarial.
pub const LOCOMO_CATEGORIES: [(u8, &str); 5] = [
    (1, "multi-hop"),
    (2, "temporal"),
    (3, "open-domain"),
    (4, "single-hop"),
    (5, "adversarial"),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    LongMemEval,
    Locomo,
}

#[derive(Debug, Clone, Error, PartialEq)]
pub enum PredictionError {
    #[error("unknown prediction format {0:?}: use longmemeval or locomo")]
    UnknownFormat(String),
}

impl FromStr for Format {
    type Err = PredictionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "longmemeval" => Ok(Format::LongMemEval),
            "locomo" => Ok(Format::Locomo),
            _ => Err(PredictionError::UnknownFormat(s.into())),
        }
    }
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::LongMemEval => "longmemeval",
            Format::Locomo => "locomo",
        }
    }
}

/// One line of a LongMemEval hypothesis file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hypothesis {
    pub question_id: String,
    pub hypothesis: String,
}

/// The LongMemEval question id of sample `id` of trace `trace` (as the
/// export writes it).
pub fn question_id(trace: &str, id: &str) -> String {
    format!("{}-{id}", crate::samples::export::lme_name(trace))
}

/// An agent's answers to one trace's questions as LongMemEval hypotheses.
pub fn longmemeval(trace: &str, results: &[QaResult]) -> Vec<Hypothesis> {
    results
        .iter()
        .map(|r| Hypothesis {
            question_id: question_id(trace, &r.id),
            hypothesis: r.text.clone(),
        })
        .collect()
}

/// The field LoCoMo's scorer reads an agent's answer from: the agent's
/// name with anything but letters, digits, `-` and `_` made `_`, then
/// `_prediction` (`cmd:"python3 a.py"` → `cmd__python3_a_py__prediction`).
pub fn prediction_key(agent: &str) -> String {
    let name: String = agent
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{name}_prediction")
}

/// LoCoMo samples (one trace's export) with each agent's answers, keyed
/// by sample id, as `<agent>_prediction` on every `qa` entry (an answer
/// missing, as after an agent's failure, is the empty string).
pub fn locomo<'a>(
    records: impl Iterator<Item = LocomoSample> + 'a,
    answers: &'a [(String, BTreeMap<String, String>)],
) -> impl Iterator<Item = Json> + 'a {
    records.map(move |sample| {
        let mut v = serde_json::to_value(&sample).expect("LoCoMo samples serialize");
        if let Some(Json::Array(qa)) = v.get_mut("qa") {
            for (entry, q) in qa.iter_mut().zip(&sample.qa) {
                if let Json::Object(m) = entry {
                    for (agent, texts) in answers {
                        let text = texts.get(&q.hearth_id).cloned().unwrap_or_default();
                        m.insert(prediction_key(agent), Json::String(text));
                    }
                }
            }
        }
        v
    })
}

/// Each result's words by sample id.
pub fn texts(results: &[QaResult]) -> BTreeMap<String, String> {
    results
        .iter()
        .map(|r| (r.id.clone(), r.text.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_keys() {
        assert_eq!("LongMemEval".parse(), Ok(Format::LongMemEval));
        assert_eq!(" locomo".parse(), Ok(Format::Locomo));
        let err = "squad".parse::<Format>().unwrap_err();
        assert!(err.to_string().contains("longmemeval or locomo"), "{err}");
        assert_eq!(prediction_key("obsmem"), "obsmem_prediction");
        assert_eq!(
            prediction_key("cmd:\"python3 a.py\""),
            "cmd__python3_a_py__prediction"
        );
        assert_eq!(question_id("studio-s0", "q17"), "studio-s0-q17");
    }
}
