//! Scenes: the RON format ([`model`]), parsing with positions ([`parse`]),
//! semantic validation ([`validate`]), lookups by id ([`index`]) and the
//! scenes that ship in the binary.
//!
//! Parsing works on strings; reading files is [`crate::store`]'s job.

mod builtin;
pub mod index;
pub mod model;
mod parse;
pub mod role;
pub mod stats;
pub mod validate;
pub mod walls;

pub use crate::located::SyntaxError;

pub use builtin::{BUILTIN, default_scene, default_source};
pub use index::{Fixture, Indexed, Kind, SceneIndex, entries, fixtures, locate};
pub use model::*;
pub use parse::{SceneError, content_hash, detached, parse, parse_unvalidated, to_ron};
pub use role::Role;
pub use stats::{SceneStats, stats};
pub use validate::{Problem, validate};
