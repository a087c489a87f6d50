//! The ask / re-ask / fallback loop every stage goes through: a stage's
//! prompt after the shared preamble and the home, its reply read through
//! its type with what makes no sense dropped, a reply with nothing usable
//! asked again, and a slot left unusable filled as `--fallback` says. Cost
//! per stage, prefix reuse, skips and fallbacks go into the report.

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::generation::scripted::Scripted;
use crate::generation::{Context, GenError};
use crate::llm::client::call::{Call, Message};
use crate::llm::client::config::{Fallback, OnBudget};
use crate::llm::client::error::LlmError;
use crate::trace::{LlmSkip, Source};

use super::LlmBackend;
use super::context::{CHARS_PER_TOKEN, home, tokens};

/// The start of every generation call: the same for every stage, so it is
/// the prefix a server caches.
const PREAMBLE: &str = "You play parts of a household simulation that tests the memory of a home robot. Each request names a stage and shows an example reply; reply with one JSON object of the same shape, about this home, and nothing else. Use only the ids listed here.";

/// Tokens kept free besides a reply's: the chat template's own.
const MARGIN: usize = 64;

/// Re-asks after a reply with nothing usable for the home.
const REASKS: u32 = 2;

/// A reply read into its stage's output: what was kept, and what was
/// dropped from it (each with why). `Err`: nothing usable, and why.
pub type Kept<O> = Result<(O, Vec<String>), Vec<String>>;

/// What to ask again about: the first problem only, which names its
/// field, so a small model fixes one thing at a time.
fn at_fault(problems: &[String]) -> String {
    let first = problems.first().map_or("", String::as_str);
    match problems.len() {
        0 | 1 => first.to_string(),
        n => format!("{first} (and {} more like it)", n - 1),
    }
}

fn chars(messages: &[Message]) -> usize {
    messages.iter().map(|m| m.content.len() + 8).sum()
}

impl LlmBackend {
    /// Asks `stage` under `schema` and reads the reply into `T`, then into
    /// the stage's output with `accept`, which keeps what makes sense and
    /// drops the rest. Only a reply with nothing usable is sent back, with
    /// what was wrong, up to [`REASKS`] times. `Ok(Err(why))`: still
    /// nothing usable (or the budget is spent and the script takes over);
    /// `Err` only when the exchange itself failed, which ends the trace.
    pub(super) fn ask<T: DeserializeOwned, O>(
        &mut self,
        cx: &Context,
        stage: &'static str,
        prompt: String,
        (schema, max_tokens): (Value, u32),
        accept: &dyn Fn(T) -> Kept<O>,
    ) -> Result<Result<O, String>, GenError> {
        if self.spent {
            return Ok(Err("the token budget is spent".into()));
        }
        let mut messages = vec![
            Message::system(self.system(cx).as_str()),
            Message::user(format!("Stage: {stage}.\n\n{prompt}")),
        ];
        for round in 0..=REASKS {
            let need = tokens(chars(&messages)) + max_tokens as usize + MARGIN;
            if need > self.context as usize {
                // Never sent: a server would refuse it. Like a reply with
                // nothing usable, the stage falls back.
                return Ok(Err(format!(
                    "the prompt and its reply need about {need} tokens, more than the model's context of {}",
                    self.context
                )));
            }
            let call = Call {
                stage: stage.into(),
                messages: messages.clone(),
                schema_name: stage.into(),
                schema: schema.clone(),
                seed: self.seed,
                max_tokens: Some(max_tokens),
            };
            self.note_prompt(&call);
            let reply = match self.driver.call(call) {
                Ok(r) => r,
                Err(e @ LlmError::Budget { .. }) if self.on_budget == OnBudget::Script => {
                    tracing::warn!("{e}; the script completes the trace");
                    self.spent = true;
                    return Ok(Err("the token budget is spent".into()));
                }
                Err(e) => return Err(self.fail(stage, e.to_string())),
            };
            let cost = self.report.stages.entry(stage.into()).or_default();
            cost.calls += 1;
            *cost += reply.cost;
            let v = match reply.value {
                Ok(v) => v,
                Err(why) => return Ok(Err(why)),
            };
            let problems = match serde_json::from_value::<T>(v.clone()) {
                Ok(typed) => match accept(typed) {
                    Ok((out, dropped)) => {
                        cost.accepted += 1;
                        cost.dropped += dropped.len() as u64;
                        for d in &dropped {
                            tracing::debug!("{stage}: dropped {d}");
                        }
                        return Ok(Ok(out));
                    }
                    Err(p) => reply.dropped.into_iter().chain(p).collect::<Vec<_>>(),
                },
                Err(e) => vec![format!("the reply does not read as a {stage} reply: {e}")],
            };
            if round == REASKS {
                return Ok(Err(problems.join("; ")));
            }
            cost.reasks += 1;
            messages.push(Message {
                role: "assistant".into(),
                content: v.to_string(),
            });
            messages.push(Message::user(format!(
                "That reply has nothing usable for the home: {}. Reply again with the whole JSON object, that field corrected.",
                at_fault(&problems)
            )));
        }
        unreachable!("the last round returns")
    }

    /// Fills a slot the model gave nothing usable for, as `--fallback`
    /// says: the script's output (`script`), going on without it (`skip`,
    /// if the trace can do without it) or failing.
    pub(super) fn fallback<O>(
        &mut self,
        cx: &Context,
        (stage, at, why): (&'static str, String, String),
        skip: Option<O>,
        script: impl FnOnce(&mut Scripted, &Context) -> Result<O, GenError>,
    ) -> Result<O, GenError> {
        if self.spent || self.fallback == Fallback::Script {
            tracing::info!("the script fills {stage} at {at}: {why}");
            self.report.fallbacks.push(LlmSkip {
                stage: stage.into(),
                at,
                reason: why,
            });
            self.source = Source::Script;
            return script(self.script(cx), cx);
        }
        match skip {
            Some(v) if self.fallback == Fallback::Skip => {
                self.skip(stage, at, why)?;
                Ok(v)
            }
            _ => Err(self.fail(stage, format!("{at}: {why}"))),
        }
    }

    /// The system message: the instructions, then the home.
    pub(super) fn system(&mut self, cx: &Context) -> Arc<String> {
        if self.system.is_none() {
            let text = format!("{PREAMBLE}\n\nThe home:\n{}", home(self.house(cx)));
            self.system = Some(Arc::new(text));
        }
        Arc::clone(self.system.as_ref().expect("made above"))
    }

    /// Characters left for the parts of `stage`'s prompt that can be
    /// trimmed, once the system message, the rest of the prompt (`fixed`)
    /// and a reply of `max_tokens` are counted.
    pub(super) fn room(&mut self, cx: &Context, fixed: &str, max_tokens: u32) -> usize {
        let used = self.system(cx).len() + fixed.len() + 64;
        let free = (self.context as usize).saturating_sub(max_tokens as usize + MARGIN);
        (free * CHARS_PER_TOKEN).saturating_sub(used)
    }

    /// Counts how much of `call`'s prompt repeats the previous one's start.
    fn note_prompt(&mut self, call: &Call) {
        let text: String = call
            .messages
            .iter()
            .map(|m| m.content.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let shared = text
            .bytes()
            .zip(self.last_prompt.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        self.report.prompt_chars += text.len() as u64;
        self.report.reused_prefix_chars += shared as u64;
        self.last_prompt = text;
    }

    /// Records a skip; past `max_skipped` the trace fails.
    fn skip(&mut self, stage: &'static str, at: String, reason: String) -> Result<(), GenError> {
        tracing::warn!("skipped {stage} at {at}: {reason}");
        self.report.stages.entry(stage.into()).or_default().skipped += 1;
        self.report.skipped.push(LlmSkip {
            stage: stage.into(),
            at,
            reason: reason.clone(),
        });
        let n = self.report.skipped.len();
        if n > self.max_skipped as usize {
            return Err(self.fail(
                stage,
                format!(
                    "{n} replies skipped, more than --max-skipped {}; last: {reason}",
                    self.max_skipped
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn fail(&self, stage: &'static str, message: String) -> GenError {
        GenError::Backend {
            backend: self.name.clone(),
            stage,
            message,
        }
    }
}
