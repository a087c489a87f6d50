//! One structured call and what comes back from it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::trace::StageCost;

use super::error::LlmError;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn system(c: impl Into<String>) -> Self {
        Message {
            role: "system".into(),
            content: c.into(),
        }
    }
    pub fn user(c: impl Into<String>) -> Self {
        Message {
            role: "user".into(),
            content: c.into(),
        }
    }
}

/// One structured call: the reply must be JSON matching `schema`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Call {
    /// The generation stage, for errors and the cache.
    pub stage: String,
    pub messages: Vec<Message>,
    pub schema_name: String,
    pub schema: Value,
    pub seed: u64,
    /// A bound on the reply's length, sized to the items the stage asks for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
}

/// A finished call: the validated reply, or why no reply was usable after
/// the re-asks (an expected outcome, recorded and replayed like a reply).
#[derive(Debug, Clone)]
pub struct Reply {
    pub value: Result<Value, String>,
    /// What the call cost over all its requests (recorded with the
    /// exchange, so a replay reports the same); `calls` and `skipped` are
    /// left to the backend.
    pub cost: StageCost,
    /// What was dropped from the reply to make it fit, with paths.
    pub dropped: Vec<String>,
}

impl Reply {
    /// The value, or an [`LlmError::Invalid`] naming `stage`.
    pub fn into_value(self, stage: &str) -> Result<Value, LlmError> {
        let tries = self.cost.reasks as u32 + 1;
        self.value.map_err(|why| LlmError::Invalid {
            stage: stage.into(),
            tries,
            why,
        })
    }
}
