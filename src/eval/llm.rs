//! Evaluation through the LLM backend: answering from an agent's top-five
//! evidence (its words only: calibrated accuracy does not apply), and the judge
//! with WorldLines' 0–3 rubric (Table 6). Both are recorded and replayable
//! like every LLM exchange. A question whose reply fails (after its
//! retries and re-asks) fails alone, its reason in its `error`; the rest
//! are scored. The judge is audited on answers whose verdict is known
//! ([`audit`]): its false-accept and false-reject rates go beside the
//! scores it gives.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::llm::oneshot::{PassEvent, call, complete_all, pass_cost, read};
use crate::llm::prompts::fill;
use crate::llm::reply::{AnswerReply, JudgeReply};
use crate::llm::{LlmClient, LlmError};
use crate::samples::Index;
use crate::samples::model::{Answer, QaSample, Sample};
use crate::samples::narrate::narrate;
use crate::samples::text::Namer;
use crate::trace::{StageCost, clock_time};

use super::audit::{JudgeAudit, Probe};
use super::score::{QaResult, gives_trap};

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
/// dropped, so `calibrated` no longer applies. A failed reply leaves no words.
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
        // Words only: the structured answer is dropped, and with it what
        // was scored from it (a hallucination shows as the trap's words).
        r.calibrated = false;
        r.hallucinated = None;
        match read::<AnswerReply>("answer", d) {
            Ok(a) => {
                r.text = a.answer;
                if gives_trap(qs[r.id.as_str()], &r.text) {
                    r.hallucinated = Some(true);
                }
            }
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

/// The judge's call on `answer` to `q`: one prompt for the answers it
/// scores and for its audit.
fn judge_call(q: &QaSample, answer: &str, seed: u64) -> crate::llm::Call {
    call(
        "judge",
        fill(
            "judge",
            &[
                ("question", &q.question),
                ("reference", &q.answer_text),
                ("answer", answer),
            ],
        ),
        seed,
    )
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
            judge_call(qs[r.id.as_str()], &r.text, seed)
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

/// Up to `questions` questions of `samples`, spread evenly in id order,
/// each with its probes: the reference, a paraphrase, a trap and (for a
/// question with an answer) an abstention.
pub fn probes(samples: &[Sample], questions_wanted: usize) -> Vec<(&QaSample, Probe, String)> {
    let qs: Vec<&QaSample> = questions(samples).into_values().collect();
    if qs.is_empty() || questions_wanted == 0 {
        return vec![];
    }
    let step = qs.len().div_ceil(questions_wanted).max(1);
    let mut out = Vec::new();
    for q in qs.iter().step_by(step) {
        let unanswerable = matches!(q.answer, Answer::Unknown);
        let bare = q.answer_text.trim_end_matches('.');
        out.push((*q, Probe::Canonical, q.answer_text.clone()));
        let paraphrase = if unanswerable {
            "I have no record of that, so I cannot say.".to_string()
        } else {
            format!("From what I saw, the answer is: {bare}.")
        };
        out.push((*q, Probe::Paraphrase, paraphrase));
        let trap = if unanswerable {
            q.adversarial_answer.clone()
        } else {
            qs.iter()
                .find(|o| {
                    o.template == q.template
                        && o.answer_text != q.answer_text
                        && !matches!(o.answer, Answer::Unknown)
                })
                .map(|o| o.answer_text.clone())
        };
        if let Some(t) = trap {
            out.push((*q, Probe::Trap, t));
        }
        if !unanswerable {
            out.push((*q, Probe::Abstention, "I don't know.".into()));
        }
    }
    out
}

/// Audits the judge on the probes of up to `questions_wanted` questions:
/// the same judge prompt and seed as the answers it scores.
pub fn audit(
    client: &Arc<LlmClient>,
    samples: &[Sample],
    questions_wanted: usize,
    seed: u64,
    on: &mut dyn FnMut(PassEvent),
) -> Result<(JudgeAudit, StageCost), LlmError> {
    let probes = probes(samples, questions_wanted);
    let calls = probes
        .iter()
        .map(|(q, _, answer)| judge_call(q, answer, seed))
        .collect();
    let done = complete_all(client, calls, on)?;
    let mut audit = JudgeAudit::default();
    for ((_, probe, _), d) in probes.iter().zip(&done) {
        match read::<JudgeReply>("judge", d) {
            Ok(j) => {
                let accepted = j.score >= 2;
                let e = audit.probes.entry(*probe).or_default();
                e.0 += 1;
                e.1 += usize::from(accepted != probe.is_right());
            }
            Err(_) => audit.failed += 1,
        }
    }
    Ok((audit.settle(), pass_cost(&done)))
}
