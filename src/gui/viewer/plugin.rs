//! The viewer in a Bevy window: its systems.

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

use super::state::{Cursor, Model};
use super::{three, ui};

/// The viewer's systems. The caller inserts [`Model`], [`Cursor`] and
/// [`View`] (what was loaded, and where to start).
pub struct ViewerPlugin;

impl Plugin for ViewerPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(three::Orbit::default())
            .add_systems(Startup, three::setup)
            .add_systems(Update, (advance, three::orbit, three::sync).chain())
            .add_systems(EguiPrimaryContextPass, ui::ui);
    }
}

/// System: play: move the cursor on by `speed` events per second.
fn advance(time: Res<Time>, mut cursor: ResMut<Cursor>, model: Res<Model>) {
    if !cursor.playing {
        return;
    }
    cursor.frac += time.delta_secs() * cursor.speed;
    while cursor.frac >= 1.0 {
        cursor.frac -= 1.0;
        cursor.n += 1;
    }
    if cursor.n >= model.pb.len() {
        cursor.n = model.pb.len();
        cursor.frac = 0.0;
        cursor.playing = false;
    }
}
