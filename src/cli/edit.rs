//! `hearth edit`: open a scene (or a new one) in the editor window.

use std::path::PathBuf;
use std::process::ExitCode;

use std::time::Instant;

use anyhow::{Result, bail};
use bevy::prelude::*;
use clap::Args;

use hearth::gui::edit::{EditorPlugin, EditorState};
use hearth::gui::screenshot::ScreenshotPlugin;
use hearth::ids::Id;

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
        app.insert_resource(DragBench {
            frames,
            times: Vec::new(),
            last: None,
        })
        .add_systems(Update, drag_largest_room);
    }
    app.run();
    check_screenshot(&args.screenshot)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(Resource)]
struct DragBench {
    frames: u32,
    times: Vec<f64>,
    last: Option<Instant>,
}

/// System (`--drag-bench`): each frame moves the largest room by 0.1 m, as
/// a drag does (one group, live validation after every step), and records
/// the time between frames; prints mean, p95 and worst, then exits.
fn drag_largest_room(
    mut bench: ResMut<DragBench>,
    mut state: ResMut<EditorState>,
    mut exit: MessageWriter<AppExit>,
) {
    let now = Instant::now();
    if let Some(last) = bench.last {
        let dt = now.duration_since(last).as_secs_f64() * 1e3;
        bench.times.push(dt);
    }
    bench.last = Some(now);
    let n = bench.times.len() as u32;
    let scene = state.doc.scene();
    let Some(room) = scene
        .rooms
        .iter()
        .max_by(|a, b| (a.rect.w * a.rect.h).total_cmp(&(b.rect.w * b.rect.h)))
    else {
        exit.write(AppExit::from_code(1));
        return;
    };
    // Out and back, 0.1 m a frame, 20 frames each way.
    let dx = if (n / 20).is_multiple_of(2) {
        0.1
    } else {
        -0.1
    };
    let (id, to) = (room.id.clone(), (room.rect.x + dx, room.rect.y));
    state.doc.begin_group();
    state.apply(hearth::editor::Edit::MoveRoom { id, to });
    if n >= bench.frames {
        state.doc.end_group();
        let mut t = bench.times[5.min(bench.times.len())..].to_vec();
        t.sort_by(f64::total_cmp);
        let mean = t.iter().sum::<f64>() / t.len().max(1) as f64;
        let p95 = t.get(t.len() * 95 / 100).copied().unwrap_or(0.0);
        println!(
            "drag of {}: {} frames, frame time mean {mean:.1} ms, p95 {p95:.1} ms, worst {:.1} ms; {} problem(s), {} undo step(s)",
            state.title(),
            t.len(),
            t.last().copied().unwrap_or(0.0),
            state.doc.problems().len(),
            state.doc.undo_depth()
        );
        exit.write(AppExit::Success);
    }
}
