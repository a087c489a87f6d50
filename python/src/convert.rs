//! Crossing into Python: library errors as the exceptions that fit them,
//! and values as what `json.loads` makes of them.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use hearth::workflow::{JobError, StoreError, WorkflowError};

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
        | WorkflowError::Job(JobError::Days(_)) => PyValueError::new_err(msg),
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
