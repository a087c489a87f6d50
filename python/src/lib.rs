//! `hearth._hearth`, the native half of the `hearth` Python package: thin
//! wrappers over the library's workflow layer (`hearth::workflow`). Values
//! cross as JSON (serde on this side, the `json` module on the other), so
//! a Python caller sees exactly the dicts hearth's files and protocol hold.
//! The Python half (`python/python/hearth/`) adds defaults, paths and pandas.

mod agent;
mod convert;
mod trace;

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use hearth::workflow;
use hearth::workflow::generate::{Difficulty, TraceOptions};

use convert::{HearthError, to_py, to_py_err};

/// Generates one trace into `out`; returns its directory.
#[pyfunction]
#[pyo3(signature = (scene, days, seed, out, *, kind="mixed", robot_away=0.0, lookalikes=0, moves=1.0, force=false, compress=false))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    scene: &str,
    days: u32,
    seed: u64,
    out: PathBuf,
    kind: &str,
    robot_away: f64,
    lookalikes: u32,
    moves: f64,
    force: bool,
    compress: bool,
) -> PyResult<PathBuf> {
    let difficulty = Difficulty::new(robot_away, lookalikes, moves)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let scene = workflow::generate::resolve_scene(scene, kind).map_err(to_py_err)?;
    let opts = TraceOptions {
        replace: force,
        compress,
        difficulty,
        ..TraceOptions::scripted(days, seed)
    };
    py.detach(|| workflow::generate::generate(&scene, &out, &opts))
        .map_err(to_py_err)?;
    Ok(out)
}

/// The id a trace of `scene` would be named by (`<id>-s<seed>`).
#[pyfunction]
#[pyo3(signature = (scene, kind="mixed"))]
fn scene_id(scene: &str, kind: &str) -> PyResult<String> {
    let s = workflow::generate::resolve_scene(scene, kind).map_err(to_py_err)?;
    Ok(s.id.to_string())
}

/// A generated household as RON text (`hearth scene generate`).
#[pyfunction]
#[pyo3(signature = (kind, seed, rooms=None, people=None))]
fn scene_generate(
    kind: &str,
    seed: u64,
    rooms: Option<(u32, u32)>,
    people: Option<u32>,
) -> PyResult<String> {
    workflow::generate::generated_scene(kind, seed, rooms, people).map_err(to_py_err)
}

/// The ids of the scenes built into hearth.
#[pyfunction]
fn builtin_scenes() -> Vec<&'static str> {
    workflow::scenes::builtin_ids()
}

/// The names of the built-in agents.
#[pyfunction]
fn builtin_agents() -> Vec<String> {
    workflow::evaluate::builtin_agents()
        .into_iter()
        .map(String::from)
        .collect()
}

/// The finished traces of a batch directory, in batch order.
#[pyfunction]
fn batch_traces(dir: PathBuf) -> PyResult<Vec<PathBuf>> {
    workflow::traces::batch_traces(&dir).map_err(to_py_err)
}

/// A batch's record (`batch.json`) as a dict, or None.
#[pyfunction]
fn batch_settings(py: Python<'_>, dir: PathBuf) -> PyResult<Option<Bound<'_, PyAny>>> {
    match workflow::traces::batch_settings(&dir).map_err(to_py_err)? {
        Some(s) => Ok(Some(to_py(py, &s)?)),
        None => Ok(None),
    }
}

#[pymodule]
fn _hearth(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("HearthError", m.py().get_type::<HearthError>())?;
    m.add_class::<trace::Trace>()?;
    m.add_class::<trace::Events>()?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(scene_id, m)?)?;
    m.add_function(wrap_pyfunction!(scene_generate, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_scenes, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_agents, m)?)?;
    m.add_function(wrap_pyfunction!(batch_traces, m)?)?;
    m.add_function(wrap_pyfunction!(batch_settings, m)?)?;
    m.add_function(wrap_pyfunction!(agent::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(agent::evaluate_batch, m)?)?;
    Ok(())
}
