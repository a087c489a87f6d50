//! What the editor holds: the document and its file, the tool, dialogs,
//! drags and the trial run; and what it does between frames.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_egui::egui;
use thiserror::Error;

use crate::editor::{Document, Edit};
use crate::ids::Id;
use crate::jobs::{self, TraceOptions};
use crate::scene::{self, Scene, SceneError};
use crate::store::{self, StoreError};

/// The palette's current choices.
#[derive(Debug, Clone, Default)]
pub struct PaletteChoice {
    pub(super) room: usize,
    pub(super) fixture: usize,
    pub(super) object: usize,
}

/// The scene `hearth edit` starts from without a file.
pub const TEMPLATE: &str = include_str!("../../../assets/new_scene.ron");

/// Why a file could not be opened or saved.
#[derive(Debug, Error)]
pub enum FileError {
    #[error(transparent)]
    Scene(#[from] SceneError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The selected tool of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// Click selects, drag moves, handles resize.
    Select,
    /// Click on a wall two rooms share to put a door there.
    Door,
}

/// What a modal dialog is asking.
#[derive(Debug, Clone, PartialEq)]
pub enum Dialog {
    /// Removing something others refer to: what happens to them.
    Delete {
        id: Id,
        referrers: Vec<Id>,
        move_to: Option<Id>,
    },
    /// Saving a scene with problems.
    SaveInvalid { path: PathBuf },
    /// Unsaved changes before `then`.
    Unsaved { then: After },
    /// A path to save to.
    SaveAs { path: String },
    /// A path to open.
    Open { path: String },
}

/// What to do once unsaved changes are dealt with.
#[derive(Debug, Clone, PartialEq)]
pub enum After {
    Quit,
    Open(PathBuf),
    New,
}

/// A drag in progress on the plan.
#[derive(Debug, Clone)]
pub(crate) struct Drag {
    pub(super) id: Id,
    pub(super) resize: bool,
    /// Pointer minus the dragged thing's anchor, in metres.
    pub(super) grab: Vec2,
}

/// A "Try it" generation running in the background.
struct TryRun {
    started: Instant,
    out: PathBuf,
    rx: crossbeam_channel::Receiver<Result<jobs::Summary, String>>,
}

/// The outcome of the last "Try it".
#[derive(Debug, Clone, PartialEq)]
pub enum Tried {
    Done { out: PathBuf, summary: String },
    Failed(String),
}

/// Everything the editor knows: the document, the file, the view and what
/// the person is in the middle of.
#[derive(Resource)]
pub struct EditorState {
    pub doc: Document,
    pub path: Option<PathBuf>,
    pub selection: Option<Id>,
    /// Rooms added to the selection with Shift: they move together.
    pub also: BTreeSet<Id>,
    pub tool: Tool,
    /// Snap to the 0.1 m grid and to walls.
    pub snap: bool,
    pub zoom: f32,
    pub pan: egui::Vec2,
    pub dialog: Option<Dialog>,
    /// The last thing worth telling: an edit refused, a file saved.
    pub status: String,
    /// Set once the window may close.
    pub quit: bool,
    pub tried: Option<Tried>,
    /// Centre the plan on this next frame (a clicked problem).
    pub frame_on: Option<Id>,
    pub(crate) drag: Option<Drag>,
    /// The scene fitted into the plan area when it was opened (or the view
    /// reset); kept so the plan does not jump as edits change the bounds.
    pub(crate) fit_base: Option<(egui::Rect, crate::gui::plan::Fit)>,
    /// Text being typed in the inspector, by field, until committed.
    pub(crate) buffers: BTreeMap<String, String>,
    /// The palette's chosen kinds.
    pub(crate) palette: PaletteChoice,
    try_run: Option<TryRun>,
}

impl EditorState {
    pub fn new(scene: Scene, path: Option<PathBuf>) -> Self {
        EditorState {
            doc: Document::new(scene),
            path,
            selection: None,
            also: BTreeSet::new(),
            tool: Tool::Select,
            snap: true,
            zoom: 1.0,
            pan: egui::Vec2::ZERO,
            dialog: None,
            status: String::new(),
            quit: false,
            tried: None,
            frame_on: None,
            drag: None,
            fit_base: None,
            buffers: BTreeMap::new(),
            palette: PaletteChoice::default(),
            try_run: None,
        }
    }

    /// A new scene from the template, not yet saved anywhere.
    pub fn untitled() -> Self {
        let scene = scene::parse("new_scene.ron", TEMPLATE).expect("the template is valid");
        Self::new(scene, None)
    }

    /// Opens a scene file, even an invalid one (its problems are listed).
    pub fn open(path: &Path) -> Result<Self, FileError> {
        Ok(Self::new(read_scene(path)?, Some(path.to_path_buf())))
    }

    /// Applies an edit as one step; a refusal becomes the status line.
    pub fn apply(&mut self, edit: Edit) -> bool {
        let name = edit.name();
        match self.doc.apply(edit) {
            Ok(()) => true,
            Err(e) => {
                self.status = format!("{name}: {e}");
                false
            }
        }
    }

    pub fn select(&mut self, id: Option<Id>) {
        if self.selection != id {
            self.buffers.clear();
        }
        self.selection = id;
        self.also.clear();
    }

    pub fn undo(&mut self) {
        self.doc.end_group();
        if let Err(e) = self.doc.undo() {
            self.status = e.to_string();
        }
        self.forget_missing();
    }

    pub fn redo(&mut self) {
        self.doc.end_group();
        if let Err(e) = self.doc.redo() {
            self.status = e.to_string();
        }
        self.forget_missing();
    }

    /// Drops a selection that an undo or removal made disappear.
    fn forget_missing(&mut self) {
        let scene = self.doc.lookup();
        if let Some(id) = &self.selection
            && scene.kind_of(id).is_none()
        {
            self.selection = None;
        }
        self.also
            .retain(|id| self.doc.lookup().kind_of(id).is_some());
        self.buffers.clear();
    }

    /// The plan's mapping of metres to points, as last drawn.
    pub(crate) fn fit(&self) -> Option<crate::gui::plan::Fit> {
        let (area, base) = self.fit_base?;
        Some(base.zoomed(area, self.zoom, self.pan))
    }

    /// Shows the whole scene again.
    pub fn reset_view(&mut self) {
        self.zoom = 1.0;
        self.pan = egui::Vec2::ZERO;
        self.fit_base = None;
    }

    /// Where a scene point was on screen in the last frame (tests and
    /// tools that drive the plan).
    pub fn to_screen(&self, x: f32, y: f32) -> Option<egui::Pos2> {
        self.fit().map(|f| f.p(Vec2::new(x, y)))
    }

    /// What the plan showed at a screen point in the last frame.
    pub fn hit_at(&self, p: egui::Pos2) -> Option<Id> {
        let fit = self.fit()?;
        crate::gui::plan::Plan::of_scene(self.doc.lookup()).hit(&fit, p)
    }

    /// The file name shown in the title and status bar: the path as
    /// given, relative to the working directory when it is inside it.
    pub fn title(&self) -> String {
        let name = self
            .path
            .as_ref()
            .map_or("untitled".to_string(), |p| shown(p));
        format!("{name}{}", if self.doc.is_modified() { " *" } else { "" })
    }

    /// Ctrl+S: saves to the file, asking for a path first if there is none
    /// and for confirmation if the scene has problems.
    pub fn save(&mut self) {
        match self.path.clone() {
            None => {
                self.dialog = Some(Dialog::SaveAs {
                    path: String::new(),
                })
            }
            Some(path) if !self.doc.problems().is_empty() => {
                self.dialog = Some(Dialog::SaveInvalid { path })
            }
            Some(path) => self.write(&path),
        }
    }

    /// Saves to `path` (atomically), whatever the problems.
    pub fn write(&mut self, path: &Path) {
        match store::write_atomic(path, scene::to_ron(self.doc.scene()).as_bytes()) {
            Ok(()) => {
                self.doc.mark_saved();
                self.path = Some(path.to_path_buf());
                self.status = format!("saved {}", shown(path));
            }
            Err(e) => self.status = format!("not saved: {e}"),
        }
    }

    /// Asks before dropping unsaved changes, then does `then`.
    pub fn request(&mut self, then: After) {
        if self.doc.is_modified() {
            self.dialog = Some(Dialog::Unsaved { then });
        } else {
            self.proceed(then);
        }
    }

    /// Does `then` now, unsaved changes or not.
    pub(crate) fn proceed(&mut self, then: After) {
        self.dialog = None;
        match then {
            After::Quit => self.quit = true,
            After::New => *self = Self::untitled(),
            After::Open(path) => match Self::open(&path) {
                Ok(s) => *self = s,
                Err(e) => self.status = format!("not opened: {e}"),
            },
        }
    }

    /// Starts a one-day offline trace of the scene in the background.
    pub fn try_it(&mut self) {
        if self.try_run.is_some() {
            return;
        }
        let problems = self.doc.problems();
        if !problems.is_empty() {
            self.tried = Some(Tried::Failed(format!(
                "the scene has {} problem(s) (see Problems); a trace needs a valid scene. First: {}",
                problems.len(),
                problems[0].display("scene")
            )));
            return;
        }
        let scene = self.doc.scene().clone();
        let out = std::env::temp_dir().join(format!("hearth-try-{}", scene.id));
        let (tx, rx) = crossbeam_channel::bounded(1);
        let dest = out.clone();
        std::thread::spawn(move || {
            let opts = TraceOptions {
                replace: true,
                ..TraceOptions::scripted(1, 0)
            };
            let r = jobs::generate_trace(&scene, &dest, &opts).map_err(|e| e.to_string());
            let _ = tx.send(r);
        });
        self.tried = None;
        self.try_run = Some(TryRun {
            started: Instant::now(),
            out,
            rx,
        });
    }

    /// Seconds the running "Try it" has taken, if one is running.
    pub fn trying(&self) -> Option<Duration> {
        self.try_run.as_ref().map(|t| t.started.elapsed())
    }

    /// Collects a finished "Try it".
    pub(crate) fn poll_try(&mut self) {
        let Some(run) = &self.try_run else {
            return;
        };
        let result = match run.rx.try_recv() {
            Ok(r) => r,
            Err(crossbeam_channel::TryRecvError::Empty) => return,
            Err(crossbeam_channel::TryRecvError::Disconnected) => {
                Err("the generator stopped unexpectedly".into())
            }
        };
        let out = run.out.clone();
        self.try_run = None;
        self.tried = Some(match result {
            Ok(s) => Tried::Done {
                summary: format!(
                    "1 day: {} sessions, {} events ({} rejected), {} changes, {} unseen by the robot",
                    s.sessions,
                    s.counts.events,
                    s.counts.rejected,
                    s.counts.changes,
                    s.counts.unseen_by_robot
                ),
                out,
            },
            Err(e) => Tried::Failed(e),
        });
    }
}

/// `path` for people to read: relative to the working directory when it is
/// inside it (a screenshot shows no machine's home), else as given.
pub fn shown(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok())
        .filter(|rel| !rel.as_os_str().is_empty())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Reads a scene for editing: syntax errors stop it, problems do not.
pub fn read_scene(path: &Path) -> Result<Scene, FileError> {
    Ok(store::load_scene_unvalidated(path)?)
}
