"""The examples under examples/python, against stand-ins (no network)."""

import urllib.request

import pytest

import hearth
from mem0_adapter import InMemoryMem0, Mem0Agent, echo_llm


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("the tests must not reach the network")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)


def test_the_stand_in_memory_has_mem0s_shape():
    m = InMemoryMem0()
    m.add([{"role": "user", "content": "Alice put the keys in the drawer."}], user_id="u", metadata={"event": 4})
    m.add([{"role": "user", "content": "Bob opened the fridge."}], user_id="u", metadata={"event": 9})
    m.add([{"role": "user", "content": "The keys are elsewhere."}], user_id="other")
    hits = m.search("keys drawer", user_id="u")["results"]
    assert [h["metadata"]["event"] for h in hits] == [4]
    assert m.search("keys", user_id="nobody")["results"] == []


def test_the_mem0_adapter_evaluates_with_its_memory_fed_every_observation(mined):
    memory = InMemoryMem0()
    prompts = []

    def llm(prompt):
        prompts.append(prompt)
        return echo_llm(prompt)

    r = hearth.evaluate(mined, Mem0Agent(memory, llm))
    assert r["agent"] == "mem0-style" and r["errors"] == 0
    qa = [s for s in mined.samples() if s["kind"] == "qa"]
    assert len(prompts) == len(qa)
    # One user per trace; every observation before the last cutoff added once.
    (user, items), = memory.store.items()
    assert user.startswith("robot-studio-")
    last = max(s["cutoff"]["event"] for s in mined.samples())
    assert [i["metadata"]["event"] for i in items] == [o["event"]["id"] for o in mined.observations(last)]
    # Retrieval finds the evidence sometimes; the words come from the LLM.
    assert r["qa"]["session_any5"] > 0
    assert all(q["text"] for q in r["questions"])
    # Two-way choices are parsed into options.
    choices = [q for q, s in zip(r["questions"], qa) if s.get("options")]
    assert all(q["text"].startswith("(") for q in choices)
