"""Reading a finished trace directory: :class:`Trace`."""

from __future__ import annotations

from typing import Any, Dict, List

from . import _hearth


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
