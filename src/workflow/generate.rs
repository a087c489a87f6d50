//! Households and traces from what a front end names: a scene given as a
//! built-in id, a file, RON text or a generated household (`gen:<seed>`),
//! one trace generated from it with the difficulty axes, and what the
//! robot perceived of a trace as the external-agent protocol sends it.

use std::path::Path;

use super::error::WorkflowError;
use super::scenes;
use crate::eval::external::observe_message;
use crate::jobs;
use crate::samples::Index;
use crate::scene::{self, Scene};
use crate::store::{self, Trace};

pub use crate::jobs::{BACKENDS, BackendSpec, Summary, TraceOptions};
pub use crate::trace::{Difficulty, LlmReport};

/// A generated household as RON (`hearth scene generate`): see
/// [`scenes::generate`].
pub fn generated_scene(
    kind: &str,
    seed: u64,
    rooms: Option<(u32, u32)>,
    people: Option<u32>,
) -> Result<String, WorkflowError> {
    Ok(scene::to_ron(&scenes::generate(kind, seed, rooms, people)?))
}

/// A scene named by `spec`: `gen:<seed>` (a household of `kind`, see
/// [`generated_scene`]), RON text (anything starting with `(` once blanks
/// and comments are skipped), or a file path or built-in id.
pub fn resolve_scene(spec: &str, kind: &str) -> Result<Scene, WorkflowError> {
    if let Some(seed) = spec.trim().strip_prefix("gen:") {
        let seed: u64 = seed
            .trim()
            .parse()
            .map_err(|_| WorkflowError::GenSeed { spec: spec.into() })?;
        let ron = generated_scene(kind, seed, None, None)?;
        return Ok(scene::parse(&format!("<gen:{seed}>"), &ron).map_err(store::StoreError::from)?);
    }
    if looks_like_ron(spec) {
        return Ok(scene::parse("<scene text>", spec).map_err(store::StoreError::from)?);
    }
    Ok(store::resolve_scene(spec)?)
}

/// Whether `text` is scene RON rather than a path or id: its first token
/// after blanks and `//` comments is `(` or a struct name and `(`.
fn looks_like_ron(text: &str) -> bool {
    let code = text
        .lines()
        .map(str::trim_start)
        .find(|l| !l.is_empty() && !l.starts_with("//"));
    code.is_some_and(|l| {
        l.starts_with('(')
            || l.starts_with("#![")
            || (l.starts_with("Scene") && l[5..].trim_start().starts_with('('))
    }) && !Path::new(text).exists()
}

/// Executes the request script at `script` (JSON lines) against `scene`
/// into the trace directory `out` (`hearth run`): where it went and its
/// counts.
pub fn run_script(
    scene: &Scene,
    script: &Path,
    out: &Path,
    replace: bool,
) -> Result<(std::path::PathBuf, crate::trace::Counts), WorkflowError> {
    let requests = store::read_script(script)?;
    Ok(jobs::run_script(scene, requests, out, replace)?)
}

/// Generates one trace of `scene` into `out` (`hearth generate`).
pub fn generate(scene: &Scene, out: &Path, opts: &TraceOptions) -> Result<Summary, WorkflowError> {
    Ok(jobs::generate_trace(scene, out, opts)?)
}

/// What the robot perceived of `trace` before event `cutoff` (all of it
/// without one), in order, each the `observation` of the protocol's
/// `observe` message ([`observe_message`]): exactly what an external
/// agent is sent.
pub fn observations(trace: &Trace, cutoff: Option<u64>) -> Vec<serde_json::Value> {
    let ix = Index::new(&trace.scene, &trace.events);
    let end = cutoff.unwrap_or(u64::MAX);
    crate::eval::observations(&ix, 1, end)
        .iter()
        .map(|o| observe_message(o)["observation"].take())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenes_are_named_by_id_text_or_generator_and_bad_names_say_why() {
        let id = resolve_scene("studio", "mixed").unwrap();
        let text = resolve_scene(&scene::to_ron(&id), "mixed").unwrap();
        assert_eq!(text, id);
        let g = resolve_scene("gen:3", "studio").unwrap();
        assert_eq!(g.id.as_str(), "gen_studio_s3");
        let mixed = resolve_scene("gen:3", "mixed").unwrap();
        assert!(mixed.id.as_str().starts_with("gen_"), "{}", mixed.id);
        let e = resolve_scene("gen:x", "mixed").unwrap_err();
        assert!(e.to_string().contains("gen:x"), "{e}");
        let e = resolve_scene("gen:1", "castle").unwrap_err();
        assert!(e.to_string().contains("castle"), "{e}");
        let e = resolve_scene("no_such_scene", "mixed").unwrap_err();
        assert!(e.to_string().contains("built-in"), "{e}");
        let e = resolve_scene("(rooms: [oops", "mixed").unwrap_err();
        assert!(matches!(e, WorkflowError::Store(_)), "{e}");
    }
}
