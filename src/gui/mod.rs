//! The windows (feature `gui`): the replay viewer and the scene editor, both
//! Bevy apps drawn with bevy_egui. Nothing in the core imports this module;
//! it reads the core's types and, in the editor, issues
//! [`crate::editor`] commands.

pub mod edit;
pub mod geometry;
pub mod plan;
pub mod screenshot;
pub mod viewer;
mod window;

pub use window::window_app;
