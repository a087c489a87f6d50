//! Multi-day trace generation (WorldLines §3.2): world grounding →
//! projects → day beats → sessions → director → actors → executor →
//! carry-forward notes. Every stage has typed input and output, written
//! into the trace (`plan.json`, `notes.jsonl`) so a reader can see why each
//! event happened.
//!
//! A [`Backend`] implements the stages; [`scripted`] is the built-in,
//! offline one. The pipeline ([`generate`]) owns the closed loop: every
//! proposal goes through the executor, and a rejection goes back to the
//! actor with the executor's hint, for a bounded number of retries.

pub mod errand;
pub mod frame;
pub mod grounding;
pub mod kinds;
pub mod merge;
pub mod params;
pub mod pipeline;
pub mod scripted;
pub mod stages;

pub use crate::trace::Source;
pub use kinds::{Kind, SessionKind, Who};
pub use params::{Back, Beat, Clock, SessionParams, Until};
pub use pipeline::{Generated, day_notes, generate};
pub use stages::*;
