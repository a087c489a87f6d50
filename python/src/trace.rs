//! `Trace`: a finished trace directory read once, its events, files,
//! samples and what the robot perceived.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;

use hearth::workflow::scenes::to_ron;
use hearth::workflow::traces;
use hearth::workflow::{self, Asking};

use crate::convert::{to_py, to_py_err};

/// `ask` as the library's `Asking`.
pub(crate) fn asking(ask: &str) -> PyResult<Asking> {
    ask.parse()
        .map_err(|e: String| PyValueError::new_err(format!("ask={ask:?}: {e}")))
}

/// A finished trace directory (`manifest.json`, `scene.ron`, `events.jsonl`
/// or `events.jsonl.zst`, `plan.json`), read once when made.
#[pyclass(module = "hearth._hearth", frozen, subclass)]
pub struct Trace {
    pub(crate) path: PathBuf,
    pub(crate) trace: Arc<traces::Trace>,
}

#[pymethods]
impl Trace {
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        if !path.is_dir() {
            return Err(PyFileNotFoundError::new_err(format!(
                "no trace directory at {}",
                path.display()
            )));
        }
        let trace = py.detach(|| traces::read(&path)).map_err(to_py_err)?;
        Ok(Trace {
            path,
            trace: Arc::new(trace),
        })
    }

    /// The trace directory.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// `manifest.json` as a dict.
    #[getter]
    fn manifest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.trace.manifest)
    }

    /// The scene as RON text (what `scene.ron` holds).
    #[getter]
    fn scene(&self) -> String {
        to_ron(&self.trace.scene)
    }

    /// The scene as a dict (the RON's structure).
    #[getter]
    fn scene_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.trace.scene)
    }

    /// `plan.json` as a dict (projects, day beats, sessions), or None for
    /// a trace of `hearth run`.
    #[getter]
    fn plan<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let plan = traces::read_plan(&self.path).map_err(to_py_err)?;
        plan.map(|p| to_py(py, &p)).transpose()
    }

    /// An iterator over the events, each a dict as a line of `events.jsonl`.
    fn events(&self) -> Events {
        Events {
            trace: self.trace.clone(),
            next: 0,
        }
    }

    fn __len__(&self) -> usize {
        self.trace.events.len()
    }

    /// The samples (QA samples and planning tasks) of `file` in the trace
    /// directory, each a dict as a line of `samples.jsonl`; mined (with
    /// seed 0, checked) and written there first if the file is missing.
    #[pyo3(signature = (ask="household", file="samples.jsonl"))]
    fn samples<'py>(&self, py: Python<'py>, ask: &str, file: &str) -> PyResult<Bound<'py, PyAny>> {
        let ask = asking(ask)?;
        let loaded = py
            .detach(|| workflow::mine::load_or_mine(&self.path, file, ask))
            .map_err(to_py_err)?;
        to_py(py, &loaded.samples)
    }

    /// What the robot perceived before event `cutoff` (everything without
    /// one), in order: each the `observation` an external agent is sent.
    #[pyo3(signature = (cutoff=None))]
    fn observations<'py>(
        &self,
        py: Python<'py>,
        cutoff: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let t = self.trace.clone();
        let obs = py.detach(move || workflow::generate::observations(&t, cutoff));
        to_py(py, &obs)
    }

    fn __repr__(&self) -> String {
        format!(
            "Trace({:?}: {} events, scene {})",
            self.path.display().to_string(),
            self.trace.events.len(),
            self.trace.scene.id
        )
    }
}

/// The events of a trace, in order, as dicts.
#[pyclass(module = "hearth._hearth")]
pub struct Events {
    trace: Arc<traces::Trace>,
    next: usize,
}

#[pymethods]
impl Events {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(e) = self.trace.events.get(self.next) else {
            return Ok(None);
        };
        self.next += 1;
        to_py(py, e).map(Some)
    }

    fn __len__(&self) -> usize {
        self.trace.events.len() - self.next
    }
}
