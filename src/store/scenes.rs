//! Scenes from files, or the built-in scene a name stands for.

use std::path::Path;

use crate::scene::{self, Scene};

use super::files::{StoreError, read_text};

/// Loads and validates a scene file.
pub fn load_scene(path: &Path) -> Result<Scene, StoreError> {
    let text = read_text(path)?;
    Ok(scene::parse(&path.display().to_string(), &text)?)
}

/// Reads a scene for editing: syntax errors stop it, semantic problems do
/// not (the editor lists them).
pub fn load_scene_unvalidated(path: &Path) -> Result<Scene, StoreError> {
    let text = read_text(path)?;
    Ok(scene::parse_unvalidated(
        &path.display().to_string(),
        &text,
    )?)
}

/// A scene named on the command line: a file path, or the id of a scene
/// built into the binary.
pub fn resolve_scene(spec: &str) -> Result<Scene, StoreError> {
    let path = Path::new(spec);
    if !path.exists()
        && let Some((name, src)) = scene::BUILTIN.iter().find(|(id, _)| *id == spec)
    {
        return Ok(scene::parse(&format!("<built-in {name}>"), src)?);
    }
    if !path.exists() {
        let builtin = scene::BUILTIN
            .iter()
            .map(|(id, _)| *id)
            .collect::<Vec<_>>()
            .join(", ");
        return Err(StoreError::NoScene {
            spec: spec.into(),
            builtin,
        });
    }
    load_scene(path)
}
