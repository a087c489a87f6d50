//! Households and traces from what a front end names: a scene given as a
//! built-in id, a file, RON text or a generated household (`gen:<seed>`),
//! one trace generated from it with the difficulty axes, and what the
//! robot perceived of a trace as the external-agent protocol sends it.

use std::path::Path;

use super::WorkflowError;
use crate::catalogue;
use crate::eval::external::observe_message;
use crate::jobs::{self, Summary, TraceOptions};
use crate::procgen::{self, SceneSpec};
use crate::samples::Index;
use crate::scene::{self, Scene};
use crate::store::{self, Trace};

/// A generated household as RON (`hearth scene generate`): `kind` one of
/// the catalogue's or `mixed` (see [`catalogue::Catalogue::kind_for_seed`]);
/// `rooms` and `people` as its flags.
pub fn generated_scene(
    kind: &str,
    seed: u64,
    rooms: Option<(u32, u32)>,
    people: Option<u32>,
) -> Result<String, WorkflowError> {
    let spec = SceneSpec {
        seed,
        kind: catalogue::builtin().kind_for_seed(kind, seed).into(),
        rooms,
        people,
    };
    let s = procgen::generate(&spec, catalogue::builtin())?;
    Ok(scene::to_ron(&s))
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
