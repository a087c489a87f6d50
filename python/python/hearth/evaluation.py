"""Evaluating memory agents over traces: :func:`evaluate`."""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Union

from . import _hearth
from .generation import PathLike
from .trace import Trace

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
