"""Generating a trace with the scripted household: :func:`generate`."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Optional, Union

from . import _hearth
from .trace import Trace

PathLike = Union[str, "os.PathLike[str]"]


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
