"""Evaluating agents: built-in ones by name, Python objects in process
(scored exactly as the same agent over stdin/stdout), and agents that are
not agents or fail."""

import json
import sys
from pathlib import Path

import pytest

import hearth
from agent import Memory  # examples/agent.py

REPO = Path(__file__).resolve().parents[2]
AGENT_PY = REPO / "examples" / "agent.py"


def marks(report):
    return [(q["id"], q["calibrated"], q["evidence"], q["text"], q.get("error")) for q in report["questions"]]


def test_builtin_agents_by_name(mined):
    assert "oracle" in hearth.builtin_agents() and "bm25-words" in hearth.builtin_agents()
    oracle = hearth.evaluate(mined, "oracle")
    assert oracle["agent"] == "oracle" and oracle["errors"] == 0
    assert oracle["qa"]["n"] == sum(s["kind"] == "qa" for s in mined.samples())
    assert oracle["qa"]["calibrated"] == 1.0
    none = hearth.evaluate(mined.path, "none")
    assert none["qa"]["calibrated"] < oracle["qa"]["calibrated"]
    both = hearth.evaluate([mined], ["oracle", "none"])
    assert [r["agent"] for r in both] == ["oracle", "none"]
    assert marks(both[0]) == marks(oracle) and marks(both[1]) == marks(none)
    assert both[0]["qa"] == oracle["qa"]


@pytest.mark.parametrize("give_query", [False, True])
def test_an_object_scores_in_process_what_it_scores_as_a_program(mined, give_query):
    program = hearth.evaluate(mined, f"cmd:{sys.executable} {AGENT_PY}", give_query=give_query)
    obj = hearth.evaluate(mined, Memory(), give_query=give_query)
    assert program["errors"] == obj["errors"] == 0
    assert obj["agent"] == "py:examples/agent.py"
    assert obj["qa"] == program["qa"] and obj["by_family"] == program["by_family"]
    assert obj["plan"] == program["plan"]
    assert marks(obj) == marks(program)
    assert obj["tasks"] == program["tasks"]
    if give_query:
        assert obj["qa"]["calibrated"] > 0


class Recorder:
    """Keeps every message it is sent."""

    def __init__(self):
        self.got = []

    def reset(self, scene):
        self.got.append(("reset", scene))

    def observe(self, observation):
        self.got.append(("observe", observation))

    def answer(self, question):
        self.got.append(("question", question))
        return {"answer": None, "text": "", "evidence": []}

    def plan(self, task):
        self.got.append(("plan", task))
        return {"plan": []}


RECORDER = """
import json, sys
out = open(sys.argv[1], "w")
for line in sys.stdin:
    out.write(line); out.flush()
    m = json.loads(line)
    if m["type"] == "question":
        print(json.dumps({"answer": None, "text": "", "evidence": []}), flush=True)
    elif m["type"] == "plan":
        print(json.dumps({"plan": []}), flush=True)
"""


def test_an_object_is_sent_exactly_the_messages_a_program_is(mined, tmp_path):
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER)
    log = tmp_path / "log.jsonl"
    hearth.evaluate(mined, f"cmd:{sys.executable} {script} {log}")
    sent = [json.loads(l) for l in log.read_text().splitlines()]
    rec = Recorder()
    hearth.evaluate(mined, rec)
    got = []
    for kind, m in rec.got:
        got.append({"type": "observe", "observation": m} if kind == "observe" else m)
    assert got == sent
    # What observe() is given is what Trace.observations() holds.
    assert [m for k, m in rec.got if k == "observe"] == mined.observations(
        cutoff=max(s["cutoff"]["event"] for s in mined.samples())
    )
    assert sent[0]["type"] == "reset" and sent[0]["scene"] == "studio"
    # The house without its objects: the robot learns them by seeing them.
    assert "objects: []" in sent[0]["scene_ron"] and "objects: []" not in mined.scene
    assert all(line in mined.scene for line in sent[0]["scene_ron"].splitlines() if "rooms" in line)


class Missing:
    def reset(self, scene):
        pass

    def observe(self, observation):
        pass

    answer = 3  # not callable


class Raises(Recorder):
    def answer(self, question):
        raise KeyError("no such memory")


class RaisesWhileObserving(Recorder):
    def observe(self, observation):
        super().observe(observation)
        if observation["event"]["id"] > 5:
            raise RuntimeError("disk full")


class Garbage(Recorder):
    def answer(self, question):
        return {"answer": {"type": "no_such_answer"}}

    def plan(self, task):
        return object()


def test_what_is_not_an_agent_is_refused(mined, tmp_path):
    with pytest.raises(TypeError, match="answer, plan"):
        hearth.evaluate(mined, Missing())
    with pytest.raises(ValueError, match='unknown agent "gpt"'):
        hearth.evaluate(mined, "gpt")
    with pytest.raises(ValueError, match="cmd:"):
        hearth.evaluate(mined, "cmd: ")
    with pytest.raises(ValueError, match="no agent"):
        hearth.evaluate(mined, [])
    with pytest.raises(ValueError, match="no traces"):
        hearth.evaluate([], "oracle")
    with pytest.raises(FileNotFoundError, match="no trace directory"):
        hearth.evaluate(tmp_path / "nowhere", "oracle")
    with pytest.raises(hearth.HearthError, match="not a trace"):
        hearth.evaluate(tmp_path, "oracle")
    with pytest.raises(ValueError, match="errors"):
        hearth.evaluate(mined, "oracle", errors="ignore")
    with pytest.raises(ValueError, match="ask"):
        hearth.evaluate(mined, "oracle", ask="nobody")


def test_an_agent_that_raises_stops_the_evaluation_with_its_exception(mined):
    with pytest.raises(KeyError, match="no such memory"):
        hearth.evaluate(mined, Raises())
    agent = RaisesWhileObserving()
    with pytest.raises(RuntimeError, match="disk full"):
        hearth.evaluate(mined, agent)
    # Stopped at once: nothing after the failing call reached the agent.
    assert agent.got[-1][0] == "observe" and agent.got[-1][1]["event"]["id"] > 5
    assert not any(k == "question" for k, _ in agent.got)


def test_with_errors_recorded_a_raising_agent_fails_each_sample_as_a_crashing_program_does(mined):
    r = hearth.evaluate(mined, Raises(), errors="record")
    qa = [q for q in r["questions"]]
    assert qa and all("no such memory" in q["error"] and "answer() raised" in q["error"] for q in qa)
    assert r["errors"] == len(qa) and r["qa"]["calibrated"] == 0
    # Plans still ran: the agent only failed to answer.
    assert all(t.get("error") is None for t in r["tasks"])
    r = hearth.evaluate(mined, RaisesWhileObserving(), errors="record")
    assert r["errors"] == r["qa"]["n"] + r["plan"]["n"] > 0


def test_garbled_replies_fail_their_sample_only(mined):
    r = hearth.evaluate(mined, Garbage())
    assert all("not valid" in q["error"] for q in r["questions"])
    assert all(t["error"] for t in r["tasks"])


def test_several_object_agents_together_keep_their_own_results(mined):
    alone = hearth.evaluate(mined, Memory(), give_query=True)
    a, b = hearth.evaluate(mined, [Memory(), "obsmem"], give_query=True)
    assert marks(a) == marks(alone)
    assert marks(b) == marks(hearth.evaluate(mined, "obsmem"))
