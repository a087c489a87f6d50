//! The record/replay cache: a directory with one `<key>.json` per exchange,
//! keyed by the SHA-256 of the canonical request (no credentials, no URL),
//! and `endpoints.json`: each endpoint's structured-output dialect and the
//! context the prompts were fitted into, so a replay fits them the same.

use std::path::Path;

use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::llm::schema::validate;
use crate::store::atomic;
use crate::trace::StageCost;

use super::call::{Call, Reply};
use super::error::LlmError;
use super::pool::{Dialect, Modes};

const ENDPOINTS: &str = "endpoints.json";

/// What the cache stores for one exchange.
#[derive(Debug, Serialize, Deserialize)]
struct Recorded {
    stage: String,
    model: String,
    call: Call,
    reply: Value,
    /// Set when no reply was usable: replayed as the same failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    failure: Option<String>,
    #[serde(default, serialize_with = "call_cost")]
    cost: StageCost,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    dropped: Vec<String>,
}

/// A call's cost as records store it: without `calls` and `skipped`, which
/// the backend counts per stage.
fn call_cost<S: Serializer>(c: &StageCost, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let mut out = s.serialize_struct("Cost", 7)?;
    for (name, n) in [
        ("requests", c.requests),
        ("prompt_tokens", c.prompt_tokens),
        ("completion_tokens", c.completion_tokens),
        ("repairs", c.repairs),
        ("reasks", c.reasks),
        ("fixed", c.fixed),
        ("dropped", c.dropped),
    ] {
        out.serialize_field(name, &n)?;
    }
    out.end()
}

/// The cache key of a call to `model`: SHA-256 of the canonical request.
pub fn key_of(model: &str, call: &Call) -> String {
    let mut canonical = json!({
        "model": model,
        "messages": call.messages,
        "schema_name": call.schema_name,
        "schema": call.schema,
        "seed": call.seed,
    });
    if let Some(n) = call.max_tokens {
        canonical["max_tokens"] = json!(n);
    }
    let bytes = serde_json::to_vec(&canonical).expect("calls serialize");
    format!("{:x}", Sha256::digest(bytes))
}

/// The recorded reply to `call` under `key`, checked against the call's
/// schema; `None` if it was never recorded. `hit` is told once the record
/// reads, before the check.
pub fn read(
    dir: &Path,
    key: &str,
    call: &Call,
    hit: impl FnOnce(),
) -> Option<Result<Reply, LlmError>> {
    let path = dir.join(format!("{key}.json"));
    let bytes = std::fs::read(&path).ok()?;
    let bad = |why: String| LlmError::Cache {
        path: path.display().to_string(),
        why,
    };
    let rec: Recorded = match serde_json::from_slice(&bytes) {
        Ok(r) => r,
        Err(e) => return Some(Err(bad(e.to_string()))),
    };
    hit();
    let value = match rec.failure {
        Some(why) => Err(why),
        None => {
            let problems = validate(&call.schema, &rec.reply);
            if !problems.is_empty() {
                return Some(Err(bad(format!(
                    "recorded reply breaks the schema: {}",
                    problems.join("; ")
                ))));
            }
            Ok(rec.reply)
        }
    };
    Some(Ok(Reply {
        value,
        cost: rec.cost,
        dropped: rec.dropped,
    }))
}

/// Records `reply` to `call` (to `model`) under `key`, a reply that stayed
/// unusable included.
pub fn record(
    dir: &Path,
    key: &str,
    model: &str,
    call: &Call,
    reply: &Reply,
) -> Result<(), LlmError> {
    let rec = Recorded {
        stage: call.stage.clone(),
        model: model.into(),
        call: call.clone(),
        reply: reply.value.as_ref().ok().cloned().unwrap_or(Value::Null),
        failure: reply.value.as_ref().err().cloned(),
        cost: reply.cost,
        dropped: reply.dropped.clone(),
    };
    let bytes = serde_json::to_vec_pretty(&rec).expect("records serialize");
    write(dir, &format!("{key}.json"), &bytes)
}

/// What `endpoints.json` keeps of the servers a cache was recorded with.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Servers {
    /// The model the exchanges were recorded with (what a replay asks for
    /// when no model is given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The context every prompt was fitted into.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<u32>,
    /// Each endpoint's dialect, sorted so the file is stable.
    #[serde(default)]
    pub dialects: std::collections::BTreeMap<String, Dialect>,
}

/// The servers recorded in `dir`, if any (a cache from before contexts
/// were recorded holds only the endpoints' forms).
pub fn read_servers(dir: &Path) -> Option<Servers> {
    let bytes = std::fs::read(dir.join(ENDPOINTS)).ok()?;
    serde_json::from_slice(&bytes).ok().or_else(|| {
        let modes: Modes = serde_json::from_slice(&bytes).ok()?;
        Some(Servers {
            context: None,
            dialects: modes.into_iter().collect(),
            model: None,
        })
    })
}

/// The model the exchanges in `dir` were recorded with: as
/// `endpoints.json` says, else the one model every record names. `None`:
/// nothing recorded; `Err`: records of several models, and which.
pub fn recorded_model(dir: &Path) -> Result<Option<String>, LlmError> {
    if let Some(m) = read_servers(dir).and_then(|s| s.model) {
        return Ok(Some(m));
    }
    #[derive(Deserialize)]
    struct Model {
        model: String,
    }
    let mut models = std::collections::BTreeSet::new();
    let entries = std::fs::read_dir(dir).map_err(|e| LlmError::Cache {
        path: dir.display().to_string(),
        why: e.to_string(),
    })?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == ENDPOINTS)
            || path.extension().is_none_or(|x| x != "json")
        {
            continue;
        }
        if let Some(m) = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice::<Model>(&b).ok())
        {
            models.insert(m.model);
        }
    }
    match models.len() {
        0 => Ok(None),
        1 => Ok(models.pop_first()),
        _ => Err(LlmError::Cache {
            path: dir.display().to_string(),
            why: format!(
                "it holds exchanges of several models ({}); say which with --llm-model",
                models.into_iter().collect::<Vec<_>>().join(", ")
            ),
        }),
    }
}

pub fn write_servers(dir: &Path, servers: &Servers) -> Result<(), LlmError> {
    let bytes = serde_json::to_vec_pretty(servers).expect("servers serialize");
    write(dir, ENDPOINTS, &bytes)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), LlmError> {
    std::fs::create_dir_all(dir)
        .and_then(|_| atomic::write(&dir.join(name), bytes))
        .map_err(|e| LlmError::Cache {
            path: dir.display().to_string(),
            why: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_read_in_both_shapes_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let put = |text: &str| std::fs::write(dir.path().join(ENDPOINTS), text).unwrap();
        put(r#"{"http://a/v1": "json_object", "http://b/v1": "prompt_only"}"#);
        let old = read_servers(dir.path()).unwrap();
        assert_eq!(old.context, None);
        assert_eq!(old.dialects["http://a/v1"], Dialect::LlamaCpp);
        assert_eq!(old.dialects["http://b/v1"], Dialect::Prompt);
        let new = Servers {
            model: Some("smollm2".into()),
            context: Some(8192),
            dialects: [("http://c/v1".to_string(), Dialect::Ollama)].into(),
        };
        write_servers(dir.path(), &new).unwrap();
        assert_eq!(read_servers(dir.path()), Some(new));
        put(r#"{"http://a/v1": "grpc"}"#);
        assert_eq!(read_servers(dir.path()), None);
        put(r#"{"context": "big"}"#);
        assert_eq!(read_servers(dir.path()), None);
    }

    #[test]
    fn records_keep_a_calls_cost_in_its_own_shape() {
        let cost = StageCost {
            calls: 3,
            requests: 2,
            prompt_tokens: 10,
            completion_tokens: 5,
            repairs: 1,
            reasks: 1,
            skipped: 1,
            fixed: 0,
            dropped: 4,
            accepted: 0,
        };
        let call = Call {
            stage: "notes".into(),
            messages: vec![],
            schema_name: "notes".into(),
            schema: json!({}),
            seed: 0,
            max_tokens: None,
        };
        let rec = Recorded {
            stage: "notes".into(),
            model: "m".into(),
            call,
            reply: json!({}),
            failure: None,
            cost,
            dropped: vec![],
        };
        let text = serde_json::to_string(&rec).unwrap();
        assert!(
            text.contains(r#""cost":{"requests":2,"prompt_tokens":10,"completion_tokens":5,"repairs":1,"reasks":1,"fixed":0,"dropped":4}"#),
            "{text}"
        );
        let back: Recorded = serde_json::from_str(&text).unwrap();
        assert_eq!(
            back.cost,
            StageCost {
                calls: 0,
                skipped: 0,
                ..cost
            }
        );
    }
}
