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

from . import batch, evaluation, generation, trace
from ._hearth import HearthError, builtin_agents, builtin_scenes, scene_generate
from .batch import Batch
from .evaluation import evaluate
from .generation import generate
from .trace import Trace

__all__ = [
    "Batch",
    "HearthError",
    "Trace",
    "batch",
    "builtin_agents",
    "builtin_scenes",
    "evaluate",
    "evaluation",
    "generate",
    "generation",
    "scene_generate",
    "trace",
]
