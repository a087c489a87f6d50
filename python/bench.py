#!/usr/bin/env python3
"""How fast hearth feeds a Python agent: events per second for a no-op
agent evaluated in process (`hearth.evaluate(trace, NoOp())`) against the
same no-op agent as an external program (`cmd:python3 noop.py`, JSON lines
over pipes). Both are sent the same messages; the difference is the
per-event cost of the path.

    python python/bench.py [--scene family_apartment] [--days 3] [--repeat 3]

Prints one line per path: observations fed, questions and tasks asked,
best wall time of `--repeat` runs, observations per second.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

import hearth

NOOP = """
import json, sys
for line in sys.stdin:
    t = json.loads(line)["type"]
    if t == "question":
        print('{"answer": null, "text": "", "evidence": []}', flush=True)
    elif t == "plan":
        print('{"plan": []}', flush=True)
"""


class NoOp:
    name = "noop"

    def reset(self, scene):
        pass

    def observe(self, observation):
        pass

    def answer(self, question):
        return {"answer": None, "text": "", "evidence": []}

    def plan(self, task):
        return {"plan": []}


def best(f, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def header(scene, days, seed, trace, samples):
    """The first line printed: the trace, what is fed, what is asked."""
    last = max(s["cutoff"]["event"] for s in samples)
    fed = len(trace.observations(last))
    qa = sum(s["kind"] == "qa" for s in samples)
    line = (f"{scene}, {days} days, seed {seed}: {len(trace)} events, "
            f"{fed} fed to the agent, {qa} questions, {len(samples) - qa} tasks")
    return line, fed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scene", default="family_apartment")
    ap.add_argument("--days", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trace = hearth.generate(args.scene, days=args.days, seed=args.seed, out=Path(tmp) / "t")
        samples = trace.samples()
        line, fed = header(args.scene, args.days, args.seed, trace, samples)
        script = Path(tmp) / "noop.py"
        script.write_text(NOOP)
        # Scoring and plan execution are the same on both paths; time them
        # alone with a built-in agent that does nothing ("none").
        base = best(lambda: hearth.evaluate(trace, "none"), args.repeat)
        paths = [
            ("in process", lambda: hearth.evaluate(trace, NoOp())),
            ("external program", lambda: hearth.evaluate(trace, f"cmd:{sys.executable} {script}")),
        ]
        print(line)
        print(f"  {'built-in none (scoring only)':<30} {base:8.3f} s")
        for name, f in paths:
            t = best(f, args.repeat)
            print(f"  {name:<30} {t:8.3f} s  {fed / t:>10,.0f} events/s  "
                  f"({(t - base) / fed * 1e6:.1f} us per event over scoring)")


if __name__ == "__main__":
    main()
