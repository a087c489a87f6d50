//! `hearth._hearth`, the native half of the `hearth` Python package: thin
//! wrappers over the library's workflow layer (`hearth::workflow`). Values
//! cross as JSON (serde on this side, the `json` module on the other), so
//! a Python caller sees exactly the dicts hearth's files and protocol hold.
//! The Python half (`hearth/__init__.py`) adds defaults, paths and pandas.

mod agent;
mod trace;

use std::path::PathBuf;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use hearth::store::StoreError;
use hearth::workflow::{self, WorkflowError};

create_exception!(
    _hearth,
    HearthError,
    PyException,
    "An error of the hearth library (a damaged trace, a scene that fails its checks, ...)."
);

/// The error with every cause after it, `a: b: c`, as the CLI prints it.
fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        let t = c.to_string();
        if !s.contains(&t) {
            s.push_str(": ");
            s.push_str(&t);
        }
        cur = c.source();
    }
    s
}

/// A library error as the Python exception that fits it: a missing file
/// or trace `FileNotFoundError`, a bad name or setting `ValueError`,
/// anything else `HearthError`.
pub(crate) fn to_py_err(e: WorkflowError) -> PyErr {
    let msg = chain(&e);
    let missing = |s: &StoreError| match s {
        StoreError::Read { source, .. } => source.kind() == std::io::ErrorKind::NotFound,
        StoreError::NotATrace { path, .. } => !path.exists(),
        _ => false,
    };
    match &e {
        WorkflowError::Store(s) if missing(s) => PyFileNotFoundError::new_err(msg),
        WorkflowError::NoTraces { dir } if !dir.exists() => PyFileNotFoundError::new_err(msg),
        WorkflowError::Store(StoreError::NoScene { .. })
        | WorkflowError::UnknownAgent { .. }
        | WorkflowError::EmptyCommand
        | WorkflowError::NoAgent
        | WorkflowError::GenSeed { .. }
        | WorkflowError::Asked { .. }
        | WorkflowError::Procgen(_)
        | WorkflowError::Job(hearth::jobs::JobError::Days(_)) => PyValueError::new_err(msg),
        _ => HearthError::new_err(msg),
    }
}

/// `json.loads` and `json.dumps`, imported once.
pub(crate) fn json_fn<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    static DUMPS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let cell = if name == "loads" { &LOADS } else { &DUMPS };
    let f = cell.get_or_try_init(py, || py.import("json")?.getattr(name).map(Bound::unbind))?;
    Ok(f.bind(py).clone())
}

/// A serializable value as the Python object `json.loads` makes of it.
pub(crate) fn to_py<'py, T: serde::Serialize + ?Sized>(
    py: Python<'py>,
    v: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(v).expect("hearth values serialize");
    json_fn(py, "loads")?.call1((text,))
}

/// A Python object as JSON text (`json.dumps`).
pub(crate) fn dumps(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    json_fn(obj.py(), "dumps")?.call1((obj,))?.extract()
}

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
    let difficulty = hearth::trace::Difficulty::new(robot_away, lookalikes, moves)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let scene = workflow::generate::resolve_scene(scene, kind).map_err(to_py_err)?;
    let opts = hearth::jobs::TraceOptions {
        replace: force,
        compress,
        difficulty,
        ..hearth::jobs::TraceOptions::scripted(days, seed)
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
    hearth::scene::BUILTIN.iter().map(|(id, _)| *id).collect()
}

/// The names of the built-in agents.
#[pyfunction]
fn builtin_agents() -> Vec<String> {
    let mut v: Vec<String> = hearth::eval::agents::BUILT_IN
        .iter()
        .map(|s| s.to_string())
        .collect();
    v.extend(
        hearth::eval::words::WORDS_AGENTS
            .iter()
            .map(|s| s.to_string()),
    );
    v
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
