//! `hearth view`: load a trace (and its samples and reports) and open the
//! replay viewer on it.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;

use hearth::gui::screenshot::ScreenshotPlugin;
use hearth::gui::viewer::{self, Cursor, LogFilter, Model, View, ViewerPlugin};
use hearth::workflow::replay;

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

impl From<Mode> for viewer::Mode {
    fn from(m: Mode) -> Self {
        match m {
            Mode::TwoD => viewer::Mode::TwoD,
            Mode::ThreeD => viewer::Mode::ThreeD,
            Mode::Robot => viewer::Mode::Robot,
        }
    }
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

pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
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

/// Removes a stale screenshot so that its absence afterwards means failure.
pub fn clear_screenshot(path: &Option<PathBuf>) -> Result<()> {
    if let Some(path) = path
        && path.exists()
    {
        std::fs::remove_file(path).with_context(|| format!("replacing {}", path.display()))?;
    }
    Ok(())
}

/// Fails when `--screenshot` was asked for and nothing was written.
pub fn check_screenshot(path: &Option<PathBuf>) -> Result<()> {
    if let Some(path) = path {
        if !path.exists() {
            bail!("no screenshot was written to {}", path.display());
        }
        println!("wrote {}", path.display());
    }
    Ok(())
}

pub fn run(args: ViewArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let replay::Replay {
        playback: pb,
        samples,
        reports,
    } = replay::open(&args.dir, args.report.as_deref())?;
    tracing::info!(
        "opened {} events in {:.0} ms",
        pb.len(),
        started.elapsed().as_secs_f64() * 1e3
    );
    let n = match args.at {
        None if args.screenshot.is_some() => pb.len(),
        None => 0,
        Some(id) => match pb.events.iter().position(|e| e.id == id) {
            Some(i) => i + 1,
            None => bail!("event {id} is not in the trace (events 1 to {})", pb.len()),
        },
    };
    clear_screenshot(&args.screenshot)?;
    let sessions = viewer::session_starts(&pb);
    let mut app =
        hearth::gui::window_app(format!("hearth: {}", args.dir.display()), args.size, false);
    app.insert_resource(Model {
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
        mode: args.mode.into(),
        filter: LogFilter::default(),
        selected_sample: None,
        entity: String::new(),
        jump: String::new(),
        message: String::new(),
        pointer_over_ui: false,
        plain: args.plain,
        scrolled_to: None,
    })
    .add_plugins(ViewerPlugin);
    if let Some(path) = args.screenshot.clone() {
        app.add_plugins(ScreenshotPlugin { path });
    }
    app.run();
    check_screenshot(&args.screenshot)?;
    Ok(ExitCode::SUCCESS)
}
