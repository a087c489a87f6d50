//! Python objects as hearth agents, and evaluation. A `PyAgent` is fed
//! the very messages an external program gets (`eval::external`'s
//! `*_message`) and its replies are read by the same parsers, so an
//! object scores in process what it scores over stdin/stdout.

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use hearth::workflow::evaluate::{AgentSpec, EvalOptions, TraceSamples, evaluate_agents};
use hearth::workflow::mine::load_or_mine;
use hearth::workflow::protocol::{
    Agent, AgentError, Observation, QuestionIn, Reply, Request, Scene, TaskIn, observe_message,
    parse_plan, parse_reply, plan_message, question_message, reset_message,
};
use hearth::workflow::study::{BatchRequest, evaluate_batch_agents};

use crate::convert::{dumps, to_py, to_py_err};
use crate::trace::{Trace, asking};

/// The methods an agent object needs.
const METHODS: [&str; 4] = ["reset", "observe", "answer", "plan"];

/// An exception an agent raised, kept to be raised again once the
/// evaluation stops (with `errors="raise"`, or always for interrupts).
type Raised = Rc<RefCell<Option<PyErr>>>;

struct PyAgent {
    obj: Py<PyAny>,
    name: String,
    give_query: bool,
    /// Raise the first exception (else record it as that sample's error,
    /// as an external program's crash is).
    raise: bool,
    raised: Raised,
}

impl PyAgent {
    fn new(
        obj: &Bound<'_, PyAny>,
        give_query: bool,
        raise: bool,
        raised: Raised,
    ) -> PyResult<Self> {
        let ty = obj.get_type().name()?.to_string();
        let missing: Vec<&str> = METHODS
            .iter()
            .copied()
            .filter(|m| !obj.getattr(*m).is_ok_and(|f| f.is_callable()))
            .collect();
        if !missing.is_empty() {
            return Err(PyTypeError::new_err(format!(
                "agent object of type {ty} has no method {}: an agent needs reset(scene), observe(observation), answer(question) and plan(task)",
                missing.join(", ")
            )));
        }
        let name = match obj.getattr("name") {
            Ok(n) if n.is_instance_of::<PyString>() => n.extract()?,
            _ => format!("py:{ty}"),
        };
        Ok(PyAgent {
            obj: obj.clone().unbind(),
            name,
            give_query,
            raise,
            raised: Rc::clone(&raised),
        })
    }

    /// Calls `method` with `message` (as a dict); its return value as JSON.
    fn call(
        &self,
        method: &str,
        message: &serde_json::Value,
    ) -> Result<Option<String>, AgentError> {
        if self.raised.borrow().is_some() {
            return Err(AgentError::Other(
                "stopped: the agent raised an exception".into(),
            ));
        }
        Python::attach(|py| {
            let out = to_py(py, message)
                .and_then(|arg| self.obj.bind(py).call_method1(method, (arg,)))
                .map_err(|e| {
                    let why = format!("{method}() raised {e}");
                    let interrupt = !e.is_instance_of::<pyo3::exceptions::PyException>(py);
                    if self.raise || interrupt {
                        self.raised.borrow_mut().get_or_insert(e);
                    }
                    AgentError::Other(why)
                })?;
            if method == "reset" || method == "observe" {
                return Ok(None);
            }
            // A reply that is not JSON is a garbled reply, as a program's is.
            let text = dumps(&out).map_err(|e| {
                AgentError::Garbage(format!("{method}() returned what is not JSON: {e}"))
            })?;
            // A plan given as a bare list of requests is the `plan` field.
            if method == "plan" && out.is_instance_of::<PyList>() {
                return Ok(Some(format!("{{\"plan\": {text}}}")));
            }
            Ok(Some(text))
        })
    }
}

impl Agent for PyAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn parsed_query(&self) -> bool {
        self.give_query
    }

    fn reset(&mut self, scene: &Scene) -> Result<(), AgentError> {
        self.call("reset", &reset_message(scene)).map(drop)
    }

    fn observe(&mut self, o: &Observation) -> Result<(), AgentError> {
        self.call("observe", &observe_message(o)["observation"])
            .map(drop)
    }

    fn answer(&mut self, q: &QuestionIn) -> Result<Reply, AgentError> {
        let line = self
            .call("answer", &question_message(q))?
            .unwrap_or_default();
        parse_reply(&line)
    }

    fn plan(&mut self, t: &TaskIn) -> Result<Vec<Request>, AgentError> {
        let line = self.call("plan", &plan_message(t))?.unwrap_or_default();
        parse_plan(&line)
    }
}

/// The agents of `agents` (names of built-in agents, `cmd:` programs, or
/// objects), in order.
fn build(
    agents: &Bound<'_, PyList>,
    opts: &EvalOptions,
    raise: bool,
    raised: &Raised,
) -> PyResult<Vec<Box<dyn Agent>>> {
    if agents.is_empty() {
        return Err(PyValueError::new_err("no agent given"));
    }
    agents
        .iter()
        .map(|a| -> PyResult<Box<dyn Agent>> {
            if let Ok(name) = a.extract::<String>() {
                let spec: AgentSpec = name.parse().map_err(to_py_err)?;
                return Ok(spec.build(opts));
            }
            Ok(Box::new(PyAgent::new(
                &a,
                opts.give_query,
                raise,
                Rc::clone(raised),
            )?))
        })
        .collect()
}

fn options(give_query: bool, errors: &str) -> PyResult<(EvalOptions, bool)> {
    let raise = match errors {
        "raise" => true,
        "record" => false,
        e => {
            return Err(PyValueError::new_err(format!(
                "errors={e:?}: use \"raise\" or \"record\""
            )));
        }
    };
    Ok((
        EvalOptions {
            give_query,
            ..EvalOptions::default()
        },
        raise,
    ))
}

/// The result, or the exception an agent raised.
fn finish<T>(raised: &Raised, r: PyResult<T>) -> PyResult<T> {
    match raised.borrow_mut().take() {
        Some(e) => Err(e),
        None => r,
    }
}

/// Evaluates `agents` over `traces` (Trace objects or directories), each
/// trace's samples file mined first where it is missing; returns the
/// reports (eval-report.json's list), one per agent.
#[pyfunction]
#[pyo3(signature = (traces, agents, *, give_query=false, ask="household", samples="samples.jsonl", errors="raise"))]
pub fn evaluate<'py>(
    py: Python<'py>,
    traces: &Bound<'py, PyList>,
    agents: &Bound<'py, PyList>,
    give_query: bool,
    ask: &str,
    samples: &str,
    errors: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let ask = asking(ask)?;
    let (opts, raise) = options(give_query, errors)?;
    let mut loaded = Vec::new();
    for t in traces.iter() {
        let dir: PathBuf = match t.cast::<Trace>() {
            Ok(t) => t.get().path.clone(),
            Err(_) => t.extract()?,
        };
        if !dir.is_dir() {
            return Err(pyo3::exceptions::PyFileNotFoundError::new_err(format!(
                "no trace directory at {}",
                dir.display()
            )));
        }
        let l = py
            .detach(|| load_or_mine(&dir, samples, ask))
            .map_err(to_py_err)?;
        loaded.push(TraceSamples {
            dir,
            trace: l.trace,
            samples: l.samples,
        });
    }
    if loaded.is_empty() {
        return Err(PyValueError::new_err("no traces given"));
    }
    let raised: Raised = Rc::default();
    let mut built = build(agents, &opts, raise, &raised)?;
    let r = evaluate_agents(&loaded, &mut built, None, &opts, &mut |_| {}).map_err(to_py_err);
    drop(built);
    let r = finish(&raised, r)?;
    to_py(py, &r.reports)
}

/// Evaluates `agents` over every finished trace of the batch in `dir`;
/// returns `{"summary": summary.json, "reports": eval-report.json}`.
#[pyfunction]
#[pyo3(signature = (dir, agents, *, give_query=false, ask="household", samples="samples.jsonl", resamples=1000, bootstrap_seed=0, errors="raise"))]
#[allow(clippy::too_many_arguments)]
pub fn evaluate_batch<'py>(
    py: Python<'py>,
    dir: PathBuf,
    agents: &Bound<'py, PyList>,
    give_query: bool,
    ask: &str,
    samples: &str,
    resamples: usize,
    bootstrap_seed: u64,
    errors: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let ask = asking(ask)?;
    let (opts, raise) = options(give_query, errors)?;
    if resamples == 0 {
        return Err(PyValueError::new_err("resamples must be at least 1"));
    }
    let raised: Raised = Rc::default();
    let mut built = build(agents, &opts, raise, &raised)?;
    let req = BatchRequest {
        dir: &dir,
        samples,
        ask,
        agents: &[],
        opts: opts.clone(),
        resamples,
        bootstrap_seed,
    };
    let r = evaluate_batch_agents(&req, &mut built, None, &mut |_| {}).map_err(to_py_err);
    drop(built);
    let r = finish(&raised, r)?;
    let out = serde_json::json!({"summary": r.summary, "reports": r.reports});
    to_py(py, &out)
}
