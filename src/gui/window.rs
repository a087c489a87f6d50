//! The window both tools open.

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

/// A window of `size` pixels titled `title`, with egui, on the light
/// background both tools share. `confirm_close`: the close button only
/// asks (the app decides when to exit), for unsaved changes.
pub fn window_app(title: String, size: (u32, u32), confirm_close: bool) -> App {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title,
            resolution: WindowResolution::from(size),
            ..default()
        }),
        close_when_requested: !confirm_close,
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .insert_resource(ClearColor(Color::srgb(0.93, 0.93, 0.91)));
    app
}
