//! The trace format: the one serialization boundary between the core and
//! everything that reads its output (miner, evaluator, viewer, Python).
//!
//! A trace directory holds `manifest.json`, `scene.ron` and `events.jsonl`;
//! the first line of `events.jsonl` is an [`EventsHeader`], every other line
//! one [`Event`]. These types only describe data; writing files is
//! [`crate::store`]'s job. [`request`] is the request shape scripts, agents
//! and generators submit; events carry it, so it is part of the format.

mod claim;
mod difficulty;
mod event;
mod manifest;
mod rejection;
pub mod request;
mod state;
mod value;

pub use claim::{Claim, ClaimMode};
pub use difficulty::{Difficulty, DifficultyError};
pub use event::{
    Change, DAY, Event, EventKind, EventsHeader, Fact, READABLE_SCHEMA_VERSIONS, SCHEMA_VERSION,
    Source, clock_time, day_of,
};
pub use manifest::{Authored, Counts, Lived, LlmReport, LlmSkip, Manifest, SceneRef, StageCost};
pub use rejection::{Outcome, Rejection, RejectionCode};
pub use state::{BROKEN, Key, LEVEL, State, TEXT, listed, relisted};
pub use value::{Location, Position, Value};
