//! The replay viewer of `hearth view` (feature `gui`). A Bevy app with
//! bevy_egui: the 2D floor plan and the robot's view are painted by egui
//! from the playback state; the 3D view is Bevy meshes with an orbit camera.
//! Panels: controls, timeline (days and sessions), event log with filters,
//! samples (and an evaluation report), entity history.

mod draw;
mod plugin;
mod state;
mod three;
mod ui;

pub use plugin::ViewerPlugin;
pub use state::{Cursor, LogFilter, Mode, Model, View, session_starts};
