//! The editor in a Bevy window: its systems.

use bevy::prelude::*;
use bevy::window::WindowCloseRequested;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use super::panels::show;
use super::state::{After, EditorState};

/// The editor's systems. The caller inserts an [`EditorState`].
pub struct EditorPlugin;

impl Plugin for EditorPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, spawn_camera)
            .add_systems(EguiPrimaryContextPass, draw_editor)
            .add_systems(Update, (confirm_close, exit_on_quit).chain());
    }
}

/// System: the camera egui draws with (the plan is all egui).
fn spawn_camera(mut commands: Commands) {
    commands.spawn(Camera2d);
}

/// System: one frame of the editor UI.
fn draw_editor(mut contexts: EguiContexts, mut state: ResMut<EditorState>) -> Result {
    let ctx = contexts.ctx_mut()?;
    show(ctx, &mut state);
    Ok(())
}

/// System: closing the window asks first when there are unsaved changes
/// (the window is created with `close_when_requested: false`).
fn confirm_close(
    mut requests: MessageReader<WindowCloseRequested>,
    mut state: ResMut<EditorState>,
) {
    if requests.read().count() > 0 {
        state.request(After::Quit);
    }
}

/// System: exits once the person has agreed to.
fn exit_on_quit(state: Res<EditorState>, mut exit: MessageWriter<AppExit>) {
    if state.quit {
        exit.write(AppExit::Success);
    }
}
