//! The scene editor of `hearth edit` (feature `gui`). The UI only issues
//! [`crate::editor`] commands to a [`Document`]; everything here is how a
//! person issues them: the shared floor plan with selection, drag and
//! handles, a palette from the catalogue, an inspector, the problems panel,
//! files and "Try it". [`show`] draws one frame into any egui context, so
//! the same code runs in the Bevy window ([`EditorPlugin`]) and in
//! `egui_kittest` tests.

pub mod bench;
mod canvas;
mod inspector;
mod panels;
mod plugin;
mod state;

pub use panels::show;
pub use plugin::EditorPlugin;
pub use state::{After, Dialog, EditorState, FileError, TEMPLATE, Tool, Tried, read_scene, shown};
