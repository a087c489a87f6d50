//! Evaluation through the LLM backend: answering from an agent's top-five
//! evidence (its words only: exact accuracy does not apply), and the judge
//! with WorldLines' 0–3 rubric (Table 6). Both are recorded and replayable
//! like every LLM exchange. A question whose reply fails (after its
//! retries and re-asks) fails alone, its reason in its `error`; the rest
//! are scored.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::llm::oneshot::{PassEvent, call, complete_all, pass_cost, read};
use crate::llm::prompts::fill;
use crate::llm::reply::{AnswerReply, JudgeReply};
use crate::llm::{LlmClient, LlmError};
use crate::samples::Index;
use crate::samples::model::{QaSample, Sample};
use crate::samples::narrate::narrate;
use crate::samples::text::Namer;
use crate::trace::{StageCost, clock_time};

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

/// A pass over one agent's questions: what it cost, and which questions
/// it failed.
pub struct Pass {
    pub cost: StageCost,
    pub failed: Vec<bool>,
}

/// Sets `r.error` to `why` unless it already has one (the agent's own
/// failure comes first).
fn fail(r: &mut QaResult, why: String) {
    r.error.get_or_insert(why);
}

/// Replaces each answer's words with the LLM's, given the question and the
/// agent's top-five evidence events in words; the structured answer is
/// dropped, so `exact` no longer applies. A failed reply leaves no words.
pub fn answer(
    client: &Arc<LlmClient>,
    ix: &Index,
    samples: &[Sample],
    results: &mut [QaResult],
    seed: u64,
    on: &mut dyn FnMut(PassEvent),
) -> Result<Pass, LlmError> {
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
    let done = complete_all(client, calls, on)?;
    let mut failed = Vec::new();
    for (r, d) in results.iter_mut().zip(&done) {
        r.exact = false;
        match read::<AnswerReply>("answer", d) {
            Ok(a) => r.text = a.answer,
            Err(why) => {
                r.text.clear();
                fail(r, format!("the LLM answerer: {why}"));
            }
        }
        failed.push(d.value.is_err());
    }
    Ok(Pass {
        cost: pass_cost(&done),
        failed,
    })
}

/// Scores each answer's words against the reference with the 0–3 rubric.
/// A question whose LLM answer failed (`unanswered`) scores 0 without a
/// call, as no answer would; one whose judging fails is left unscored,
/// with why.
pub fn judge(
    client: &Arc<LlmClient>,
    samples: &[Sample],
    results: &mut [QaResult],
    unanswered: &[bool],
    seed: u64,
    on: &mut dyn FnMut(PassEvent),
) -> Result<Pass, LlmError> {
    let qs = questions(samples);
    let asked: Vec<usize> = (0..results.len())
        .filter(|i| !unanswered.get(*i).copied().unwrap_or(false))
        .collect();
    let calls = asked
        .iter()
        .map(|&i| {
            let r = &results[i];
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
    let done = complete_all(client, calls, on)?;
    let mut failed = vec![false; results.len()];
    for (i, r) in results.iter_mut().enumerate() {
        if unanswered.get(i).copied().unwrap_or(false) {
            r.judge = Some(0);
        }
    }
    for (&i, d) in asked.iter().zip(&done) {
        let r = &mut results[i];
        match read::<JudgeReply>("judge", d) {
            Ok(j) => r.judge = Some(j.score.clamp(0, 3) as u8),
            Err(why) => {
                r.judge = None;
                failed[i] = true;
                fail(r, format!("the LLM judge: {why}"));
            }
        }
    }
    Ok(Pass {
        cost: pass_cost(&done),
        failed,
    })
}
