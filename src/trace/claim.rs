//! What an utterance says: a claim about an attribute, as a fact, a
//! preference or a request.

use serde::{Deserialize, Serialize};

use crate::ids::Id;

use super::value::Value;

/// Structured content of an utterance about `entity.attr = value`. A fact
/// claim ("the keys are in the drawer") is what someone said, which may be
/// wrong or become stale; a preference ("volume 25 is right for me") says
/// how `holder` likes it; a request ("put it in the wardrobe by five") asks
/// the addressee to make it so by `due`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub entity: Id,
    pub attr: Id,
    pub value: Value,
    #[serde(default, skip_serializing_if = "ClaimMode::is_fact")]
    pub mode: ClaimMode,
    /// Whose preference (preferences only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holder: Option<Id>,
    /// By when, trace seconds (requests only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due: Option<u64>,
}

impl Claim {
    /// A plain statement of fact.
    pub fn fact(entity: Id, attr: Id, value: Value) -> Self {
        Claim {
            entity,
            attr,
            value,
            mode: ClaimMode::Fact,
            holder: None,
            due: None,
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimMode {
    #[default]
    Fact,
    Preference,
    Request,
}

impl ClaimMode {
    fn is_fact(&self) -> bool {
        *self == ClaimMode::Fact
    }
}
