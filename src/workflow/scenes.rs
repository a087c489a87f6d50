//! Scenes as a front end asks for them (`hearth scene ...`): the built-in
//! ones, a file checked, a household generated from the catalogue, the
//! counts that describe any scene, fixture kinds that play no role, and
//! a scene edited by a script of the editor's commands
//! ([`crate::editor::Document`], as the editor window issues them).

use std::path::Path;

use super::error::WorkflowError;
use crate::catalogue;
use crate::editor::{self, Document};
use crate::procgen::{self, SceneSpec};
use crate::scene;
use crate::store;

pub use crate::editor::Edit;
pub use crate::scene::{Problem, Scene, SceneStats, default_source, to_ron};

/// The ids of the scenes built into hearth.
pub fn builtin_ids() -> Vec<&'static str> {
    scene::BUILTIN.iter().map(|(id, _)| *id).collect()
}

/// The built-in scenes, parsed and checked, in order.
pub fn builtin() -> Result<Vec<Scene>, WorkflowError> {
    scene::BUILTIN
        .iter()
        .map(|(id, src)| Ok(scene::parse(id, src).map_err(store::StoreError::from)?))
        .collect()
}

/// A scene file, read and checked (every problem in the error).
pub fn check(path: &Path) -> Result<Scene, WorkflowError> {
    Ok(store::load_scene(path)?)
}

/// A scene file or a built-in id, checked.
pub fn resolve(spec: &str) -> Result<Scene, WorkflowError> {
    Ok(store::resolve_scene(spec)?)
}

/// The counts that describe a scene (`scene stats`).
pub fn stats(s: &Scene) -> SceneStats {
    scene::stats(s)
}

/// The one-line description of a scene (`scene list`, `check`, `generate`).
pub fn summary(s: &Scene) -> String {
    scene::stats(s).summary()
}

/// Fixture kinds of `s` that play no role in the catalogue, a line each
/// (warnings, not errors).
pub fn unknown_kinds(s: &Scene) -> Vec<String> {
    catalogue::unknown_kinds(s, catalogue::builtin())
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// A household generated from the catalogue (`hearth scene generate`):
/// `kind` one of the catalogue's or `mixed` (the kinds in turn by seed,
/// see [`catalogue::Catalogue::kind_for_seed`]); `rooms` an inclusive
/// range and `people` a count, or the kind's own.
pub fn generate(
    kind: &str,
    seed: u64,
    rooms: Option<(u32, u32)>,
    people: Option<u32>,
) -> Result<Scene, WorkflowError> {
    let spec = SceneSpec {
        seed,
        kind: catalogue::builtin().kind_for_seed(kind, seed).into(),
        rooms,
        people,
    };
    Ok(procgen::generate(&spec, catalogue::builtin())?)
}

/// A scene after a script of edits.
pub struct Applied {
    pub scene: Scene,
    /// The scene as RON, as it would be written.
    pub ron: String,
    /// The problems left, located in `ron`.
    pub problems: Vec<Problem>,
    /// How many edits were applied.
    pub edits: usize,
}

/// Applies the RON list of edits in `edits` to `scene` (a file, which may
/// be invalid, or a built-in id), as the editor does: an edit that fails
/// stops everything, naming its index.
pub fn apply_edits(scene: &str, edits: &Path) -> Result<Applied, WorkflowError> {
    let scene = if Path::new(scene).exists() {
        store::load_scene_unvalidated(Path::new(scene))?
    } else {
        store::resolve_scene(scene)?
    };
    let origin = edits.display().to_string();
    let text = store::read_text(edits)?;
    let edits = editor::parse_edits(&origin, &text)?;
    let mut doc = Document::new(scene);
    let n = edits.len();
    for (index, edit) in edits.into_iter().enumerate() {
        let name = edit.name();
        doc.apply(edit).map_err(|source| WorkflowError::Edit {
            origin: origin.clone(),
            index,
            name,
            source,
        })?;
    }
    let ron = scene::to_ron(doc.scene());
    let mut problems = doc.problems().to_vec();
    for p in &mut problems {
        p.locate(&ron);
    }
    Ok(Applied {
        scene: doc.into_scene(),
        ron,
        problems,
        edits: n,
    })
}

/// Writes `text` to `path` atomically (nothing half-written).
pub fn write(path: &Path, text: &str) -> Result<(), WorkflowError> {
    Ok(store::write_atomic(path, text.as_bytes())?)
}
