"""Type stubs of hearth's native module (Rust, PyO3). Use the names
re-exported by ``hearth``; these are its building blocks."""

import os
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

_Path = Union[str, "os.PathLike[str]"]

class HearthError(Exception):
    """An error of the hearth library (a damaged trace, a scene that fails
    its checks, ...), with the library's message."""

class Trace:
    """A finished trace directory, read once when made."""

    def __init__(self, path: _Path) -> None: ...
    @property
    def path(self) -> "os.PathLike[str]":
        """The trace directory (a ``pathlib.Path``)."""
    @property
    def manifest(self) -> Dict[str, Any]:
        """``manifest.json``."""
    @property
    def scene(self) -> str:
        """The scene as RON text (``scene.ron``)."""
    @property
    def scene_dict(self) -> Dict[str, Any]:
        """The scene as a dict."""
    @property
    def plan(self) -> Optional[Dict[str, Any]]:
        """``plan.json``, or None for a trace of ``hearth run``."""
    def events(self) -> "Events":
        """The events in order, each a dict as a line of ``events.jsonl``."""
    def samples(self, ask: str = "household", file: str = "samples.jsonl") -> List[Dict[str, Any]]:
        """The samples of ``file`` in the trace directory, mined (seed 0,
        checked) and written there first if it is missing."""
    def observations(self, cutoff: Optional[int] = None) -> List[Dict[str, Any]]:
        """What the robot perceived before event ``cutoff`` (all without
        one), each the ``observation`` an external agent is sent:
        ``{"event": {...}, "text": "..."}``."""
    def __len__(self) -> int: ...

class Events(Iterator[Dict[str, Any]]):
    def __iter__(self) -> "Events": ...
    def __next__(self) -> Dict[str, Any]: ...
    def __len__(self) -> int: ...

def generate(
    scene: str,
    days: int,
    seed: int,
    out: _Path,
    *,
    kind: str = "mixed",
    robot_away: float = 0.0,
    lookalikes: int = 0,
    moves: float = 1.0,
    force: bool = False,
    compress: bool = False,
) -> "os.PathLike[str]":
    """Generates one trace into ``out``; returns its directory."""

def scene_id(scene: str, kind: str = "mixed") -> str:
    """The id of the scene ``scene`` names."""

def scene_generate(
    kind: str,
    seed: int,
    rooms: Optional[Tuple[int, int]] = None,
    people: Optional[int] = None,
) -> str:
    """A household generated from the catalogue, as RON text (``hearth
    scene generate``): ``kind`` is ``studio``, ``apartment``, ``house`` or
    ``mixed``; ``rooms`` a (low, high) range, ``people`` 1 to 8."""

def builtin_scenes() -> List[str]:
    """The ids of the scenes built into hearth."""

def builtin_agents() -> List[str]:
    """The names of the built-in agents."""

def batch_traces(dir: _Path) -> List["os.PathLike[str]"]:
    """The finished traces of a batch directory, in batch order."""

def batch_settings(dir: _Path) -> Optional[Dict[str, Any]]:
    """A batch's record (``batch.json``), or None."""

def evaluate(
    traces: List[Union[Trace, _Path]],
    agents: List[Any],
    *,
    give_query: bool = False,
    ask: str = "household",
    samples: str = "samples.jsonl",
    errors: str = "raise",
) -> List[Dict[str, Any]]:
    """The reports (``eval-report.json``), one per agent."""

def evaluate_batch(
    dir: _Path,
    agents: List[Any],
    *,
    give_query: bool = False,
    ask: str = "household",
    samples: str = "samples.jsonl",
    resamples: int = 1000,
    bootstrap_seed: int = 0,
    errors: str = "raise",
) -> Dict[str, Any]:
    """``{"summary": summary.json, "reports": eval-report.json}``."""
