//! `hearth edit`: open a scene (or a new one) in the editor window.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;

use hearth::gui::edit::bench::DragBenchPlugin;
use hearth::gui::edit::{EditorPlugin, EditorState};
use hearth::gui::screenshot::ScreenshotPlugin;
use hearth::workflow::Id;

use crate::view::{check_screenshot, clear_screenshot, parse_size};

#[derive(Args)]
pub struct EditArgs {
    /// A scene file (RON); without one, a new scene from a template, saved with Save As.
    pub scene: Option<PathBuf>,
    /// Render the editor to this PNG and exit.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Select this id (and show it in the inspector) before the screenshot.
    #[arg(long)]
    pub select: Option<String>,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1500x900", value_parser = parse_size)]
    pub size: (u32, u32),
    /// Measure frame times while the largest room is dragged back and forth
    /// for this many frames (one move edit per frame, as a drag issues), print
    /// them and exit.
    #[arg(long, value_name = "FRAMES")]
    pub drag_bench: Option<u32>,
}

pub fn run(args: EditArgs) -> Result<ExitCode> {
    let mut state = match &args.scene {
        Some(path) if path.exists() => EditorState::open(path)?,
        Some(path) => {
            // A new file: the template, to be saved there.
            let mut s = EditorState::untitled();
            s.path = Some(path.clone());
            s
        }
        None => EditorState::untitled(),
    };
    if let Some(id) = &args.select {
        let id = Id::new(id);
        if state.doc.lookup().kind_of(&id).is_none() {
            bail!("--select {id}: the scene has nothing with that id");
        }
        state.select(Some(id));
    }
    clear_screenshot(&args.screenshot)?;
    let title = format!("hearth edit: {}", state.title());
    let mut app = hearth::gui::window_app(title, args.size, true);
    app.insert_resource(state).add_plugins(EditorPlugin);
    if let Some(path) = args.screenshot.clone() {
        app.add_plugins(ScreenshotPlugin { path });
    }
    if let Some(frames) = args.drag_bench {
        app.add_plugins(DragBenchPlugin { frames });
    }
    app.run();
    check_screenshot(&args.screenshot)?;
    Ok(ExitCode::SUCCESS)
}
