import os
import shutil
import sys
from pathlib import Path

import pytest

import hearth

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "examples"))
sys.path.insert(0, str(REPO / "examples" / "python"))


@pytest.fixture(scope="session")
def studio(tmp_path_factory):
    """One day of the studio, seed 0, generated once; tests copy it
    before writing into it."""
    return hearth.generate("studio", days=1, seed=0, out=tmp_path_factory.mktemp("t") / "studio-s0")


@pytest.fixture
def trace(studio, tmp_path):
    """A private copy of the studio trace."""
    dest = tmp_path / "studio-s0"
    shutil.copytree(studio.path, dest, ignore=shutil.ignore_patterns("*samples*.jsonl"))
    return hearth.Trace(dest)


@pytest.fixture(scope="session")
def mined(studio):
    """The session trace with its samples mined (read-only)."""
    studio.samples()
    return studio
