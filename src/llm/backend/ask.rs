//! The ask / re-ask / fallback loop every stage goes through: a stage's
//! prompt after the shared preamble and the home, its reply read through
//! its type with what makes no sense dropped, a reply with nothing usable
//! asked again, and a slot left unusable filled as `--fallback` says. Cost
//! per stage, prefix reuse, skips and fallbacks go into the report.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::generation::scripted::Scripted;
use crate::generation::{Context, GenError};
use crate::llm::client::call::{Call, Message};
use crate::llm::client::config::{Fallback, OnBudget};
use crate::llm::client::error::LlmError;
use crate::trace::{LlmSkip, Source};

use super::LlmBackend;

/// The start of every generation call: the same for every stage, so it is
/// the prefix a server caches.
const PREAMBLE: &str = "You play parts of a household simulation that tests the memory of a home robot. Each request names a stage; reply with one JSON object matching the schema it gives, and nothing else.";

/// Re-asks after a reply with nothing usable for the home.
const REASKS: u32 = 2;

/// A reply read into its stage's output: what was kept, and what was
/// dropped from it (each with why). `Err`: nothing usable, and why.
pub type Kept<O> = Result<(O, Vec<String>), Vec<String>>;

/// The schema as the prompt shows it: long lists of ids left out (the
/// home description has them; `response_format` carries them in full), so
/// every call does not repeat hundreds of names.
fn shape(schema: &Value) -> Value {
    match schema {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, v)| !(*k == "enum" && v.as_array().is_some_and(|a| a.len() > 12)))
                .map(|(k, v)| (k.clone(), shape(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(shape).collect()),
        v => v.clone(),
    }
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
            Message::system(format!("{PREAMBLE}\n\nThe home:\n{}", cx.world)),
            Message::user(format!(
                "Stage: {stage}. Reply with one JSON object that matches this JSON schema (ids from the home description), and nothing else:\n{}\n\n{prompt}",
                shape(&schema)
            )),
        ];
        for round in 0..=REASKS {
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
            let problems = problems.join("; ");
            if round == REASKS {
                return Ok(Err(problems));
            }
            cost.reasks += 1;
            messages.push(Message {
                role: "assistant".into(),
                content: v.to_string(),
            });
            messages.push(Message::user(format!(
                "That reply has nothing usable for the home: {problems}. Reply again with the whole JSON object, corrected."
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
