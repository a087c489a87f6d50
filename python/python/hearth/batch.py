"""A batch directory of traces, its households, samples and results:
:class:`Batch`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Union

from . import _hearth
from .evaluation import Agent, _as_list
from .generation import PathLike
from .trace import Trace

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
        return _hearth.batch_settings(os.fspath(self.path))

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
