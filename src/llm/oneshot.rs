//! One-shot calls for the stages outside generation: rephrasing mined
//! questions, and the answer and judge steps of evaluation.

use std::sync::Arc;

use serde_json::Value;

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
        max_tokens: None,
    }
}

/// Runs `calls` concurrently (up to the client's limit); replies come back
/// in the order of the calls, whatever order they arrive in.
pub fn complete_all(client: &Arc<LlmClient>, calls: Vec<Call>) -> Vec<Result<Value, LlmError>> {
    let (tx, rx) = crossbeam_channel::unbounded();
    let n = calls.len();
    for (i, c) in calls.into_iter().enumerate() {
        let tx = tx.clone();
        let stage = c.stage.clone();
        client.spawn(c, move |r| {
            let _ = tx.send((i, r.and_then(|r| r.into_value(&stage))));
        });
    }
    drop(tx);
    let mut out: Vec<Option<Result<Value, LlmError>>> = (0..n).map(|_| None).collect();
    for (i, r) in rx {
        out[i] = Some(r);
    }
    out.into_iter()
        .map(|r| r.unwrap_or_else(|| Err(LlmError::Setup("the LLM runtime stopped".into()))))
        .collect()
}

/// Rephrases templated questions through the LLM. Only the wording
/// changes: the structured answer never comes from an LLM.
pub fn rephrase(
    client: &Arc<LlmClient>,
    questions: &[String],
    seed: u64,
) -> Result<Vec<String>, LlmError> {
    let calls = questions
        .iter()
        .map(|q| call("rephrase", fill("rephrase", &[("question", q)]), seed))
        .collect();
    complete_all(client, calls)
        .into_iter()
        .map(|r| {
            r.and_then(|v| {
                serde_json::from_value::<reply::RephraseReply>(v)
                    .map(|r| r.question)
                    .map_err(|e| LlmError::Invalid {
                        stage: "rephrase".into(),
                        tries: 1,
                        why: e.to_string(),
                    })
            })
        })
        .collect()
}
