#!/usr/bin/env python3
"""A minimal external memory agent for `hearth eval --agent cmd:"python3 examples/agent.py"`.

It speaks hearth's JSON-lines protocol on stdin/stdout (standard library
only) and keeps two things: the last value it saw of every (entity,
attribute), with the event it saw it in, and every event in words. Given
the parsed query (`hearth eval --give-query`) it answers "what is X now"
questions from the first; from words alone (the default, as an LLM agent
gets them) it only points at the event whose words overlap the question's
most. A starting point for wrapping a real memory (mem0, A-mem, ...); its
`Memory` class is importable and evaluates in process with the Python
package (docs/python.md) to exactly the same scores.

Messages in (one JSON object per line):
  {"type": "reset", "scene": id, "scene_ron": text}
  {"type": "observe", "observation": {"event": {...}, "text": "Alice opened the fridge."}}
  {"type": "question", "id", "question", "options", "cutoff"}  -> one reply line
      ("query", the question as data, only with --give-query)
  {"type": "plan", "id", "instruction", "actor", "cutoff", "goals"}      -> one reply line
Replies:
  {"answer": {"type": "value", "value": ...} or null, "text": "...", "evidence": [event ids]}
  {"plan": [{"actor": "robot", "skill": "...", "args": {...}}, ...]}
"""
import json
import sys


def words(text):
    return set("".join(c if c.isalnum() else " " for c in text.lower()).split())


class Memory:
    """The agent's memory. Its methods take the protocol's messages as
    dicts, so the same object serves over stdin/stdout (`main`) and in
    process (`hearth.evaluate(trace, Memory())` in the Python package)."""

    name = "py:examples/agent.py"

    def __init__(self):
        self.last_seen = {}  # (entity, attr) -> (value, event id)
        self.texts = []  # (event id, set of words)

    def reset(self, scene):
        self.last_seen.clear()
        self.texts.clear()

    def observe(self, obs):
        event = obs["event"]
        self.texts.append((event["id"], words(obs["text"])))
        if event.get("outcome") == "ok":
            for change in event.get("changes", []):
                if change["attr"] != "position":
                    self.last_seen[(change["entity"], change["attr"])] = (change["new"], event["id"])
        for fact in event.get("reveals", []):
            if fact["attr"] != "position":
                self.last_seen[(fact["entity"], fact["attr"])] = (fact["value"], event["id"])

    def answer(self, question):
        query = question.get("query")
        if query is None:
            asked = words(question["question"])
            best = max(self.texts, key=lambda t: (len(asked & t[1]), t[0]), default=None)
            return {"answer": None, "text": "I do not know.", "evidence": [best[0]] if best else []}
        if query["q"] == "state":
            seen = self.last_seen.get((query["entity"], query["attr"]))
            if seen is not None:
                value, event = seen
                return {"answer": {"type": "value", "value": value}, "text": json.dumps(value), "evidence": [event]}
        return {"answer": None, "text": "I do not know.", "evidence": []}

    def plan(self, task):
        return {"plan": []}


def main():
    memory = Memory()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "reset":
            memory.reset(message)
        elif kind == "observe":
            memory.observe(message["observation"])
        elif kind == "question":
            print(json.dumps(memory.answer(message)), flush=True)
        elif kind == "plan":
            print(json.dumps(memory.plan(message)), flush=True)


if __name__ == "__main__":
    main()
