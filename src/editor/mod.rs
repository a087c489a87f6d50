//! The scene editor's document model: a [`Scene`], the [`Edit`] commands
//! that change it, undo/redo, and the validation problems of the current
//! state. No Bevy, no egui, no files: `hearth edit` only issues commands to
//! a [`Document`], and `hearth scene apply` applies the same commands read
//! from an EDITS.ron file ([`parse_edits`]).

mod apply;
mod checks;
mod command;
mod document;
mod edits_file;
mod error;
mod plan;
mod raw;
mod referrers;
mod rename;
pub mod snap;

pub use command::{Edit, Entity, OnRemove, Prop};
pub use document::{Document, HistoryError, UNDO_LIMIT};
pub use edits_file::{EditsSyntaxError, parse_edits};
pub use error::EditError;
pub use plan::palette::{ROOM_HEIGHT, actor_defaults, new_id};
pub use referrers::referrers;
