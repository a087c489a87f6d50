//! hearth: a household world simulator that generates long, multi-day
//! traces with exact ground truth and per-event visibility, for building and
//! scoring memory agents of home robots. See ARCHITECTURE.md for the map.

pub mod catalogue;
pub mod editor;
pub mod eval;
pub mod generation;
#[cfg(feature = "gui")]
pub mod gui;
pub mod ids;
pub mod jobs;
pub mod lint;
pub mod llm;
pub mod located;
pub mod playback;
pub mod procgen;
pub mod samples;
pub mod scene;
pub mod sim;
pub mod store;
pub mod study;
pub mod timeuse;
pub mod trace;
pub mod workflow;
