//! Evaluation through the LLM backend: answering from an agent's top-five
//! evidence (its words only: exact accuracy does not apply), and the judge
//! with WorldLines' 0–3 rubric (Table 6). Both are recorded and replayable
//! like every LLM exchange.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::llm::oneshot::{call, complete_all};
use crate::llm::prompts::fill;
use crate::llm::{LlmClient, LlmError};
use crate::samples::Index;
use crate::samples::model::{QaSample, Sample};
use crate::samples::narrate::narrate;
use crate::samples::text::Namer;
use crate::trace::clock_time;

use super::QaResult;

fn questions(samples: &[Sample]) -> BTreeMap<&str, &QaSample> {
    samples
        .iter()
        .filter_map(|s| match s {
            Sample::Qa(q) => Some((q.id.as_str(), q)),
            Sample::Plan(_) => None,
        })
        .collect()
}

/// Replaces each answer's words with the LLM's, given the question and the
/// agent's top-five evidence events in words; the structured answer is
/// dropped, so `exact` no longer applies.
pub fn answer(
    client: &Arc<LlmClient>,
    ix: &Index,
    samples: &[Sample],
    results: &mut [QaResult],
    seed: u64,
) -> Result<(), LlmError> {
    let n = Namer::new(ix.scene);
    let qs = questions(samples);
    let calls = results
        .iter()
        .map(|r| {
            let q = qs[r.id.as_str()];
            let evidence: Vec<String> = r
                .evidence
                .iter()
                .filter_map(|e| ix.event(*e))
                .map(|e| {
                    format!(
                        "day {} {}: {}",
                        e.day,
                        &clock_time(e.t)[..5],
                        narrate(&n, e, &ix.robot)
                    )
                })
                .collect();
            let options = if q.options.is_empty() {
                String::new()
            } else {
                format!(
                    "Options: (A) {} (B) {}",
                    q.options[0],
                    q.options.get(1).map_or("", String::as_str)
                )
            };
            call(
                "answer",
                fill(
                    "answer",
                    &[
                        (
                            "evidence",
                            &if evidence.is_empty() {
                                "(none)".into()
                            } else {
                                evidence.join("\n")
                            },
                        ),
                        ("question", &q.question),
                        ("options", &options),
                    ],
                ),
                seed,
            )
        })
        .collect();
    for (r, reply) in results.iter_mut().zip(complete_all(client, calls)) {
        r.text = reply?["answer"].as_str().unwrap_or_default().to_string();
        r.exact = false;
    }
    Ok(())
}

/// Scores each answer's words against the reference with the 0–3 rubric.
pub fn judge(
    client: &Arc<LlmClient>,
    samples: &[Sample],
    results: &mut [QaResult],
    seed: u64,
) -> Result<(), LlmError> {
    let qs = questions(samples);
    let calls = results
        .iter()
        .map(|r| {
            let q = qs[r.id.as_str()];
            call(
                "judge",
                fill(
                    "judge",
                    &[
                        ("question", &q.question),
                        ("reference", &q.answer_text),
                        ("answer", &r.text),
                    ],
                ),
                seed,
            )
        })
        .collect();
    for (r, reply) in results.iter_mut().zip(complete_all(client, calls)) {
        r.judge = reply?["score"].as_u64().map(|s| s.min(3) as u8);
    }
    Ok(())
}
