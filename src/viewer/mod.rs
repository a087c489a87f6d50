//! `hearth view`: the replay viewer (feature `gui`). A Bevy app with
//! bevy_egui: the 2D floor plan and the robot's view are painted by egui
//! from the playback state; the 3D view is Bevy meshes with an orbit camera.
//! Panels: controls, timeline (days and sessions), event log with filters,
//! samples (and an evaluation report), entity history.

mod draw;
mod geometry;
mod three;
mod ui;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::{EguiPlugin, EguiPrimaryContextPass};
use clap::Args;

use hearth::eval::Report;
use hearth::ids::Id;
use hearth::playback::Playback;
use hearth::samples::Sample;
use hearth::store;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// The floor plan, as it is.
    #[value(name = "2d")]
    TwoD,
    /// The same scene in 3D, with an orbit camera.
    #[value(name = "3d")]
    ThreeD,
    /// The floor plan as the robot believes it, differences marked.
    Robot,
}

#[derive(Args)]
pub struct ViewArgs {
    /// A trace directory.
    pub dir: PathBuf,
    /// Start at this event id (the state just after it).
    #[arg(long)]
    pub at: Option<u64>,
    /// Render that moment to this PNG and exit.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "2d")]
    pub mode: Mode,
    /// An evaluation report (`hearth eval`) whose answers the samples panel shows.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Only the scene, no panels (for documents and image tests).
    #[arg(long)]
    pub plain: bool,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1400x860", value_parser = parse_size)]
    pub size: (u32, u32),
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once('x')
        .ok_or_else(|| format!("{s:?}: write WIDTHxHEIGHT, e.g. 1400x860"))?;
    let n = |v: &str| {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (200..=8000).contains(n))
            .ok_or_else(|| format!("{v:?} is not a size between 200 and 8000"))
    };
    Ok((n(w)?, n(h)?))
}

/// Everything loaded from disk.
#[derive(Resource)]
pub struct Model {
    pub pb: Playback,
    pub samples: Vec<Sample>,
    pub reports: Vec<Report>,
    /// Index of each session's first event.
    pub sessions: Vec<usize>,
}

/// Where playback is: `n` events applied, `frac` of the way into the next.
#[derive(Resource)]
pub struct Cursor {
    pub n: usize,
    pub frac: f32,
    pub playing: bool,
    /// Events per second.
    pub speed: f32,
}

/// Filters of the event log.
#[derive(Default, Clone)]
pub struct LogFilter {
    pub actor: Option<Id>,
    pub kind: Option<&'static str>,
    /// Some(true): seen by the robot; Some(false): unseen.
    pub seen: Option<bool>,
    pub rejected_only: bool,
    pub entity: String,
}

#[derive(Resource)]
pub struct View {
    pub mode: Mode,
    pub filter: LogFilter,
    pub selected_sample: Option<usize>,
    pub entity: String,
    pub jump: String,
    pub message: String,
    pub pointer_over_ui: bool,
    pub plain: bool,
    /// The cursor the event log last scrolled to.
    pub scrolled_to: Option<usize>,
}

/// Screenshot mode: wait for the scene to settle, capture, exit.
#[derive(Resource)]
pub struct Shot {
    pub path: PathBuf,
    pub frames: u32,
    pub requested: bool,
}

pub fn run(args: ViewArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let trace = store::read_trace(&args.dir)?;
    let pb = Playback::new(trace.scene, trace.events)
        .with_context(|| format!("replaying {}", args.dir.display()))?;
    tracing::info!(
        "opened {} events in {:.0} ms",
        pb.len(),
        started.elapsed().as_secs_f64() * 1e3
    );
    let samples_path = args.dir.join("samples.jsonl");
    let samples = if samples_path.exists() {
        store::read_samples(&samples_path)?.1
    } else {
        vec![]
    };
    let reports: Vec<Report> = match &args.report {
        Some(p) => serde_json::from_slice(
            &std::fs::read(p).with_context(|| format!("reading {}", p.display()))?,
        )
        .with_context(|| format!("{} is not an evaluation report", p.display()))?,
        None => vec![],
    };
    let n = match args.at {
        None if args.screenshot.is_some() => pb.len(),
        None => 0,
        Some(id) => match pb.events.iter().position(|e| e.id == id) {
            Some(i) => i + 1,
            None => bail!("event {id} is not in the trace (events 1 to {})", pb.len()),
        },
    };
    let sessions: Vec<usize> = (0..pb.len())
        .filter(|&i| {
            pb.events[i].session.is_some()
                && (i == 0 || pb.events[i - 1].session != pb.events[i].session)
        })
        .collect();
    if let Some(path) = &args.screenshot
        && path.exists()
    {
        std::fs::remove_file(path).with_context(|| format!("replacing {}", path.display()))?;
    }
    let title = format!("hearth: {}", args.dir.display());
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title,
            resolution: WindowResolution::from(args.size),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .insert_resource(ClearColor(Color::srgb(0.93, 0.93, 0.91)))
    .insert_resource(Model {
        pb,
        samples,
        reports,
        sessions,
    })
    .insert_resource(Cursor {
        n,
        frac: 0.0,
        playing: false,
        speed: 4.0,
    })
    .insert_resource(View {
        mode: args.mode,
        filter: LogFilter::default(),
        selected_sample: None,
        entity: String::new(),
        jump: String::new(),
        message: String::new(),
        pointer_over_ui: false,
        plain: args.plain,
        scrolled_to: None,
    })
    .insert_resource(three::Orbit::default())
    .add_systems(Startup, three::setup)
    .add_systems(Update, (advance, three::orbit, three::sync).chain())
    .add_systems(EguiPrimaryContextPass, ui::ui);
    if let Some(path) = args.screenshot.clone() {
        app.insert_resource(Shot {
            path,
            frames: 0,
            requested: false,
        })
        .add_systems(Update, take_screenshot);
    }
    app.run();
    if let Some(path) = &args.screenshot {
        if !path.exists() {
            bail!("no screenshot was written to {}", path.display());
        }
        println!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
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
            .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
            .observe(bevy::render::view::screenshot::save_to_disk(
                shot.path.clone(),
            ));
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
