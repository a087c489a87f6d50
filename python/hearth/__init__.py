"""hearth from Python: household traces, samples and memory-agent evaluation.

The package wraps the hearth library (Rust) in process: it generates
multi-day household traces, reads their events, mines evidence-linked QA
samples and planning tasks, and evaluates memory agents, built-in ones by
name or any Python object with ``reset``/``observe``/``answer``/``plan``,
fed exactly the messages an external agent program is sent
(``hearth eval --agent cmd:...``).

    >>> import hearth
    >>> trace = hearth.generate("studio", days=1, seed=0)
    >>> report = hearth.evaluate(trace, "obsmem")
    >>> report["qa"]["calibrated"]

Every dict is the JSON hearth writes: events as lines of ``events.jsonl``,
samples as lines of ``samples.jsonl``, reports as ``eval-report.json``.
Library errors raise :class:`HearthError` (or ``ValueError`` for a bad
name or setting, ``FileNotFoundError`` for a missing trace or scene file).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Union

from . import _hearth
from ._hearth import (
    HearthError,
    batch_settings as _batch_settings,
    builtin_agents,
    builtin_scenes,
    scene_generate,
)

__all__ = [
    "Batch",
    "HearthError",
    "Trace",
    "builtin_agents",
    "builtin_scenes",
    "evaluate",
    "generate",
    "scene_generate",
]

PathLike = Union[str, "os.PathLike[str]"]


class Trace(_hearth.Trace):
    """A finished trace directory, read once when made.

    ``Trace(path)`` raises ``FileNotFoundError`` if there is no directory
    and :class:`HearthError` if it is not a finished trace.

    Attributes: ``path``, ``manifest`` (dict), ``scene`` (RON text),
    ``scene_dict`` (the scene as a dict), ``plan`` (dict, or None for a
    trace of ``hearth run``). Methods: ``events()``, ``day(n)``,
    ``samples()``, ``observations(cutoff=None)``; ``len(trace)`` is the
    number of events.
    """

    def day(self, n: int) -> List[Dict[str, Any]]:
        """The events of simulated day ``n`` (1-based), in order."""
        return [e for e in self.events() if e["day"] == n]

    def __fspath__(self) -> str:
        return str(self.path)


def generate(
    scene: str = "family_apartment",
    days: int = 3,
    seed: int = 0,
    out: Optional[PathLike] = None,
    *,
    kind: str = "mixed",
    robot_away: float = 0.0,
    lookalikes: int = 0,
    moves: float = 1.0,
    force: bool = False,
    compress: bool = False,
) -> Trace:
    """Generates a trace with the scripted household (``hearth generate``).

    ``scene`` is a built-in id (:func:`builtin_scenes`), a scene file's
    path, scene RON text, or ``"gen:<seed>"``: a household generated from
    the catalogue, of household ``kind`` (``studio``, ``apartment``,
    ``house``, or ``mixed``: the kinds in turn by seed, as ``hearth batch
    --scenes gen:..``). ``robot_away`` (share of the waking day docked, 0
    to 0.9), ``lookalikes`` (0 to 5) and ``moves`` (0 to 5) are the
    difficulty axes; the defaults give the ordinary trace, byte for byte.

    ``out`` is the trace directory to write; without one the trace goes
    into a new temporary directory (``<tmp>/hearth-*/<scene>-s<seed>``),
    which is left for you to keep or delete. An existing ``out`` is
    replaced only with ``force=True``. ``compress`` writes
    ``events.jsonl.zst``.
    """
    if out is None:
        name = f"{_hearth.scene_id(scene, kind)}-s{seed}"
        out = Path(tempfile.mkdtemp(prefix="hearth-")) / name
    path = _hearth.generate(
        scene,
        days,
        seed,
        os.fspath(out),
        kind=kind,
        robot_away=robot_away,
        lookalikes=lookalikes,
        moves=moves,
        force=force,
        compress=compress,
    )
    return Trace(path)


Agent = Any  # a name (str) or an object with reset/observe/answer/plan


def _as_list(x: Any) -> List[Any]:
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


def _trace_dirs(traces: Any) -> List[Any]:
    if isinstance(traces, (str, os.PathLike, _hearth.Trace)):
        return [traces]
    return [t if isinstance(t, _hearth.Trace) else os.fspath(t) for t in traces]


def evaluate(
    traces: Union[Trace, PathLike, Iterable[Union[Trace, PathLike]]],
    agent: Union[Agent, List[Agent]],
    *,
    give_query: bool = False,
    ask: str = "household",
    samples: str = "samples.jsonl",
    errors: str = "raise",
) -> Union[Dict[str, Any], List[Dict[str, Any]]]:
    """Evaluates an agent over traces (``hearth eval``): its report.

    ``traces``: a :class:`Trace`, a trace directory, or several. Each
    trace's samples file (``samples``, in the trace directory) is read, or
    mined and written first if it is missing; ``ask`` is whom the
    questions are drawn from (``"household"``, the default, or ``"robot"``).

    ``agent``: a built-in agent's name (:func:`builtin_agents`), an
    external program as ``'cmd:python3 agent.py'``, or an object with
    these methods, called in time order exactly as an external program is
    sent its messages:

    - ``reset(scene)``: ``{"type": "reset", "scene": id, "scene_ron": text}``
      (the scene without its objects, which the robot learns by seeing them);
    - ``observe(observation)``: ``{"event": {...}, "text": "..."}``, each
      event the robot perceived, in order;
    - ``answer(question) -> dict``: the question message (``id``,
      ``question``, ``options``, ``cutoff``; ``query`` with
      ``give_query=True``), replied ``{"answer": ... or None, "text": ...,
      "evidence": [event ids]}``;
    - ``plan(task) -> dict``: the plan message, replied ``{"plan":
      [requests]}`` (or the list of requests).

    An object's ``name`` attribute names it in the report (else
    ``py:<class>``). A list of agents is evaluated together and gives a
    list of reports; one agent gives its report, a dict as in
    ``eval-report.json``.

    ``errors="raise"`` (the default) stops at the first exception an
    agent object raises and raises it; ``"record"`` counts it as that
    sample's error, as a crashing external program's is.
    """
    agents = _as_list(agent)
    reports = _hearth.evaluate(
        _trace_dirs(traces),
        agents,
        give_query=give_query,
        ask=ask,
        samples=samples,
        errors=errors,
    )
    if isinstance(agent, (list, tuple)):
        return reports
    return reports[0]


def _pandas(what: str):
    try:
        import pandas
    except ImportError as e:
        raise ImportError(
            f"{what} needs pandas, which is not installed: pip install pandas"
        ) from e
    return pandas


def _sample_row(trace: str, s: Dict[str, Any]) -> Dict[str, Any]:
    cut = s["cutoff"]
    return {
        "trace": trace,
        "kind": s["kind"],
        "id": s["id"],
        "family": s["family"],
        "memory_target": s.get("memory_target"),
        "question": s.get("question", s.get("instruction")),
        "answer_text": s.get("answer_text"),
        "options": s.get("options"),
        "cutoff_event": cut["event"],
        "cutoff_day": cut["day"],
        "cutoff_time": cut["time"],
        "evidence": len(s.get("evidence", [])),
    }


class Batch:
    """A batch directory (``hearth batch --out DIR``): its finished traces
    in batch order (or, without ``batch.json``, every finished trace
    directory in it by name).
    """

    def __init__(self, path: PathLike):
        self.path = Path(path)
        self._dirs = [Path(p) for p in _hearth.batch_traces(os.fspath(self.path))]

    @property
    def settings(self) -> Optional[Dict[str, Any]]:
        """The batch's record (``batch.json``), or None."""
        return _batch_settings(os.fspath(self.path))

    def traces(self) -> Iterator[Trace]:
        """Each finished trace, read in turn."""
        for d in self._dirs:
            yield Trace(d)

    def __len__(self) -> int:
        return len(self._dirs)

    def households(self) -> List[Dict[str, Any]]:
        """A row per trace: its name, path, scene, seed, days, difficulty
        and event counts (from each ``manifest.json``)."""
        rows = []
        for t in self.traces():
            m = t.manifest
            rows.append(
                {
                    "trace": t.path.name,
                    "path": str(t.path),
                    "scene": m["scene"]["id"],
                    "seed": m.get("seed"),
                    "days": m["days"],
                    "events": m["counts"]["events"],
                    "rejected": m["counts"]["rejected"],
                    "difficulty": m.get("difficulty", {}),
                }
            )
        return rows

    def samples(self, ask: str = "household", file: str = "samples.jsonl") -> Iterator[Dict[str, Any]]:
        """Every trace's samples (mined first where missing), each dict
        with a ``trace`` key naming its trace directory."""
        for t in self.traces():
            for s in t.samples(ask=ask, file=file):
                s["trace"] = t.path.name
                yield s

    def evaluate(
        self,
        agent: Union[Agent, List[Agent]],
        *,
        give_query: bool = False,
        ask: str = "household",
        samples: str = "samples.jsonl",
        resamples: int = 1000,
        bootstrap_seed: int = 0,
        errors: str = "raise",
    ) -> Dict[str, Any]:
        """Evaluates agents across the households (``hearth eval --batch``):
        ``{"summary": ..., "reports": [...]}``, the contents of
        ``summary.json`` (household-bootstrap intervals) and
        ``eval-report.json``. Agents as in :func:`evaluate`."""
        return _hearth.evaluate_batch(
            os.fspath(self.path),
            _as_list(agent),
            give_query=give_query,
            ask=ask,
            samples=samples,
            resamples=resamples,
            bootstrap_seed=bootstrap_seed,
            errors=errors,
        )

    def to_pandas(self, ask: str = "household", file: str = "samples.jsonl"):
        """The samples as a pandas DataFrame, a row each (trace, kind, id,
        family, question or instruction, answer_text, cutoff, evidence
        count). Needs pandas."""
        pd = _pandas("Batch.to_pandas")
        rows = []
        for t in self.traces():
            rows.extend(_sample_row(t.path.name, s) for s in t.samples(ask=ask, file=file))
        return pd.DataFrame(rows)

    def to_parquet(self, path: PathLike, ask: str = "household", file: str = "samples.jsonl") -> Path:
        """Writes :meth:`to_pandas` to a Parquet file. Needs pandas and
        pyarrow."""
        frame = self.to_pandas(ask=ask, file=file)
        try:
            import pyarrow  # noqa: F401
        except ImportError as e:
            raise ImportError(
                "Batch.to_parquet needs pyarrow, which is not installed: pip install pyarrow"
            ) from e
        frame.to_parquet(path, index=False)
        return Path(path)

    def __repr__(self) -> str:
        return f"Batch({str(self.path)!r}: {len(self._dirs)} traces)"
