//! `--screenshot`: render a few frames, capture the primary window to a PNG
//! and exit. Shared by the viewer and the editor.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

/// Capture the window to `path` once the first frames have settled, then
/// exit (code 1 if the capture never arrives).
pub struct ScreenshotPlugin {
    pub path: PathBuf,
}

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Shot {
            path: self.path.clone(),
            frames: 0,
            requested: false,
        })
        .add_systems(Update, take_screenshot);
    }
}

#[derive(Resource)]
struct Shot {
    path: PathBuf,
    frames: u32,
    requested: bool,
}

/// System (screenshot mode): give the renderer a few frames to settle
/// (fonts, meshes), capture the window, and exit once the file exists.
fn take_screenshot(
    mut commands: Commands,
    mut shot: ResMut<Shot>,
    mut exit: MessageWriter<AppExit>,
) {
    shot.frames += 1;
    if !shot.requested && shot.frames >= 30 {
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(shot.path.clone()));
        shot.requested = true;
    }
    let written = std::fs::metadata(&shot.path).is_ok_and(|m| m.len() > 0);
    if shot.requested && written && shot.frames >= 40 {
        exit.write(AppExit::Success);
    }
    if shot.frames > 1200 {
        tracing::error!("the screenshot never arrived");
        exit.write(AppExit::from_code(1));
    }
}
