//! One-shot calls for the stages outside generation: rephrasing mined
//! questions, and the answer and judge steps of evaluation. Each call
//! carries a token cap sized to its reply (the schemas bound the strings
//! too), and a pass of them goes on past a call that fails: each comes
//! back with its own result and recorded cost.

use std::sync::Arc;

use serde_json::Value;

use crate::trace::StageCost;

use crate::llm::client::LlmClient;
use crate::llm::client::call::{Call, Message};
use crate::llm::client::error::LlmError;
use crate::llm::prompts::fill;
use crate::llm::reply::{self, schema_of};

/// The reply schema of the stages outside generation.
pub fn schema(stage: &str) -> Value {
    match stage {
        "rephrase" => schema_of::<reply::RephraseReply>(),
        "answer" => schema_of::<reply::AnswerReply>(),
        "judge" => schema_of::<reply::JudgeReply>(),
        other => panic!("no schema for stage {other}"),
    }
}

/// The token cap of a stage's reply: its strings' `maxLength` at about
/// three characters a token, with room for the JSON around them. A small
/// model that loops inside a string is stopped there.
pub fn max_tokens(stage: &str) -> u32 {
    match stage {
        "judge" => 112,
        _ => 160,
    }
}

/// A one-shot call for a stage outside generation, with a filled prompt.
pub fn call(stage: &str, prompt: String, seed: u64) -> Call {
    Call {
        stage: stage.into(),
        messages: vec![
            Message::system(format!(
                "Stage: {stage}. Reply with one JSON object that matches this JSON schema, and nothing else:\n{}",
                schema(stage)
            )),
            Message::user(prompt),
        ],
        schema_name: stage.into(),
        schema: schema(stage),
        seed,
        max_tokens: Some(max_tokens(stage)),
    }
}

/// What a pass of one-shot calls reports as it goes, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PassEvent<'a> {
    /// `calls` calls of stage `pass` are on their way.
    Started { pass: &'a str, calls: usize },
    /// One came back (`ok`: with a usable reply).
    Replied { ok: bool },
}

/// One call's result and what it cost: recorded with the exchange, so a
/// replay reports the same (nothing for an exchange that failed).
pub struct Done {
    pub value: Result<Value, LlmError>,
    pub cost: StageCost,
}

/// The cost of a pass: its calls' costs summed, `calls` the calls made and
/// `skipped` those that failed.
pub fn pass_cost(done: &[Done]) -> StageCost {
    let mut total = StageCost::default();
    for d in done {
        total += d.cost;
        total.calls += 1;
        total.skipped += u64::from(d.value.is_err());
    }
    total
}

/// Runs `calls` concurrently (up to the client's limit); replies come back
/// in the order of the calls, whatever order they arrive in, each with its
/// own result. `Err` only for what ends the run
/// ([`LlmError::ends_the_run`]), after every call is back.
pub fn complete_all(
    client: &Arc<LlmClient>,
    calls: Vec<Call>,
    on: &mut dyn FnMut(PassEvent),
) -> Result<Vec<Done>, LlmError> {
    let (tx, rx) = crossbeam_channel::unbounded();
    let n = calls.len();
    if let Some(c) = calls.first() {
        on(PassEvent::Started {
            pass: &c.stage,
            calls: n,
        });
    }
    for (i, c) in calls.into_iter().enumerate() {
        let tx = tx.clone();
        let stage = c.stage.clone();
        client.spawn(c, move |r| {
            let done = match r {
                Ok(reply) => Done {
                    cost: reply.cost,
                    value: reply.into_value(&stage),
                },
                Err(e) => Done {
                    value: Err(e),
                    cost: StageCost::default(),
                },
            };
            let _ = tx.send((i, done));
        });
    }
    drop(tx);
    let mut out: Vec<Option<Done>> = (0..n).map(|_| None).collect();
    for (i, d) in rx {
        on(PassEvent::Replied {
            ok: d.value.is_ok(),
        });
        out[i] = Some(d);
    }
    let out: Vec<Done> = out
        .into_iter()
        .map(|d| {
            d.unwrap_or_else(|| Done {
                value: Err(LlmError::Setup("the LLM runtime stopped".into())),
                cost: StageCost::default(),
            })
        })
        .collect();
    match out
        .iter()
        .find_map(|d| d.value.as_ref().err().filter(|e| e.ends_the_run()))
    {
        Some(_) => Err(out
            .into_iter()
            .find_map(|d| d.value.err().filter(LlmError::ends_the_run))
            .expect("just found")),
        None => Ok(out),
    }
}

/// A reply's value read as `T`, or why not.
pub fn read<T: serde::de::DeserializeOwned>(stage: &str, d: &Done) -> Result<T, String> {
    match &d.value {
        Ok(v) => serde_json::from_value(v.clone()).map_err(|e| {
            LlmError::Invalid {
                stage: stage.into(),
                tries: 1,
                why: e.to_string(),
            }
            .to_string()
        }),
        Err(e) => Err(e.to_string()),
    }
}

/// Rephrases templated questions through the LLM. Only the wording
/// changes: the structured answer never comes from an LLM. Each comes back
/// reworded, or with why not (the caller keeps the template's words).
pub fn rephrase(
    client: &Arc<LlmClient>,
    questions: &[String],
    seed: u64,
    on: &mut dyn FnMut(PassEvent),
) -> Result<Vec<Result<String, String>>, LlmError> {
    let calls = questions
        .iter()
        .map(|q| call("rephrase", fill("rephrase", &[("question", q)]), seed))
        .collect();
    Ok(complete_all(client, calls, on)?
        .iter()
        .map(|d| read::<reply::RephraseReply>("rephrase", d).map(|r| r.question))
        .collect())
}
