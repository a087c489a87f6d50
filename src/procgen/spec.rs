//! What to generate, and why it could not be.

use thiserror::Error;

/// What to generate. Ranges are inclusive; `None` takes the household
/// kind's range from the catalogue.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneSpec {
    pub seed: u64,
    pub kind: String,
    pub rooms: Option<(u32, u32)>,
    pub people: Option<u32>,
}

impl SceneSpec {
    pub fn new(kind: &str, seed: u64) -> Self {
        SceneSpec {
            seed,
            kind: kind.into(),
            rooms: None,
            people: None,
        }
    }

    /// The scene id this spec generates (`gen_apartment_s7`).
    pub fn scene_id(&self) -> String {
        format!("gen_{}_s{}", self.kind, self.seed)
    }
}

#[derive(Debug, Error, PartialEq)]
pub enum ProcgenError {
    #[error("no household kind {kind:?} in the catalogue (known: {known})")]
    UnknownKind { kind: String, known: String },
    #[error("{what} {lo}..={hi} is impossible for a {kind}: {why}")]
    BadRange {
        kind: String,
        what: &'static str,
        lo: u32,
        hi: u32,
        why: String,
    },
    #[error("no floor plan found for seed {seed} after {attempts} attempts")]
    NoLayout { seed: u64, attempts: u32 },
}
