"""docs/python.md's numbers come from a real run: the walkthrough's
trace (its event count, its days, the first steps of day 2) and the
first line `python/bench.py` prints, recomputed here and compared with
what the page shows."""

import ast
import re
import sys
from pathlib import Path

import pytest

import hearth

REPO = Path(__file__).resolve().parents[2]
PAGE = (REPO / "docs" / "python.md").read_text()
sys.path.insert(0, str(REPO / "python"))
import bench  # noqa: E402


def shown(pattern):
    """The groups of the one place the page matches `pattern`."""
    found = re.findall(pattern, PAGE, flags=re.M)
    assert len(found) == 1, f"docs/python.md: {pattern!r} matches {len(found)} times"
    return found[0]


@pytest.fixture(scope="module")
def walkthrough(tmp_path_factory):
    scene, days, seed = shown(r'^trace = hearth\.generate\("(\w+)", days=(\d+), seed=(\d+)\)')
    out = tmp_path_factory.mktemp("docs") / f"{scene}-s{seed}"
    return hearth.generate(scene, days=int(days), seed=int(seed), out=out)


def test_the_trace_the_walkthrough_shows(walkthrough):
    events, scene = shown(r'^# Trace\("[^"]*": (\d+) events, scene (\w+)\)$')
    assert re.fullmatch(rf'Trace\(".*": {events} events, scene {scene}\)', repr(walkthrough))
    counted, days = shown(r"^# \((\d+), (\d+)\)$")
    assert (walkthrough.manifest["counts"]["events"], walkthrough.manifest["days"]) == (int(counted), int(days))


def test_the_first_steps_of_day_2(walkthrough):
    steps = shown(r"^# (\[\('.*'\)), \.\.\.\]$")
    steps = ast.literal_eval(steps + "]")
    day2 = walkthrough.day(2)
    assert [(e["time"], e["actor"], e["skill"]) for e in day2[: len(steps)]] == steps


def test_the_bench_line(walkthrough, tmp_path):
    scene, days, seed = shown(r"^(\w+), (\d+) days, seed (\d+): \d+ events")
    line = shown(r"^(\w+, \d+ days, seed \d+: \d+ events, \d+ fed to the agent, \d+ questions, \d+ tasks)$")
    trace = hearth.generate(scene, days=int(days), seed=int(seed), out=tmp_path / "bench")
    assert bench.header(scene, int(days), int(seed), trace, trace.samples())[0] == line
