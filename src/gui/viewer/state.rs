//! What the viewer holds: what was loaded, where playback is, and how
//! the panels are set.

use bevy::prelude::*;

use crate::eval::Report;
use crate::ids::Id;
use crate::playback::Playback;
use crate::samples::Sample;

/// What the central area shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The floor plan, as it is.
    TwoD,
    /// The same scene in 3D, with an orbit camera.
    ThreeD,
    /// The floor plan as the robot believes it, differences marked.
    Robot,
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

/// Index of each session's first event.
pub fn session_starts(pb: &Playback) -> Vec<usize> {
    (0..pb.len())
        .filter(|&i| {
            pb.events[i].session.is_some()
                && (i == 0 || pb.events[i - 1].session != pb.events[i].session)
        })
        .collect()
}
