#!/usr/bin/env python3
"""A minimal external memory agent for `hearth eval --agent cmd:"python3 examples/agent.py"`.

It speaks hearth's JSON-lines protocol on stdin/stdout (standard library
only) and keeps two things: the last value it saw of every (entity,
attribute), with the event it saw it in, and every event in words. Given
the parsed query (`hearth eval --give-query`) it answers "what is X now"
questions from the first, hedged as calibrated scoring asks: as current
while the robot has not left its room or docked since it saw the value,
else as last seen, possibly changed (a simpler rule than hearth's, which
also knows which room the thing is in); from words alone (the default, as
an LLM agent gets them) it only points at the event whose words overlap
the question's most. A starting point for wrapping a real memory (mem0, A-mem, ...); its
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
  ({"type": "last_seen", "value": ..., "seen_at": t, "stale": true}: possibly changed;
   {"type": "time", "t": t, "day": d, "time": "HH:MM", "stale": true}: the latest
   seen, maybe done since;
   {"type": "unknown"}: not known)
  {"plan": [{"actor": "robot", "skill": "...", "args": {...}}, ...]}
"""
import json
import re
import sys


def words(text):
    return set("".join(c if c.isalnum() else " " for c in text.lower()).split())


class Memory:
    """The agent's memory. Its methods take the protocol's messages as
    dicts, so the same object serves over stdin/stdout (`main`) and in
    process (`hearth.evaluate(trace, Memory())` in the Python package)."""

    name = "py:examples/agent.py"

    def __init__(self):
        self.last_seen = {}  # (entity, attr) -> (value, event id, t, moves then)
        self.texts = []  # (event id, set of words)
        self.robot = "robot"
        self.moves = 0  # times the robot changed room or docked

    def reset(self, scene):
        self.last_seen.clear()
        self.texts.clear()
        found = re.search(r'id:\s*"([^"]+)"[^()]*?kind:\s*Robot', scene.get("scene_ron", ""))
        self.robot = found.group(1) if found else "robot"
        self.moves = 0

    def observe(self, obs):
        event = obs["event"]
        self.texts.append((event["id"], words(obs["text"])))
        ok = event.get("outcome") == "ok"
        if event.get("actor") == self.robot and ok:
            docked = event.get("skill") == "wait" and event.get("args", {}).get("standby")
            moved = any(c["attr"] == "position" and c["old"].get("room") != c["new"].get("room")
                        for c in event.get("changes", []) if c["entity"] == self.robot)
            self.moves += bool(docked or moved)
        seen = lambda value: (value, event["id"], event["t"], self.moves)
        if ok:
            for change in event.get("changes", []):
                if change["attr"] != "position":
                    self.last_seen[(change["entity"], change["attr"])] = seen(change["new"])
        for fact in event.get("reveals", []):
            if fact["attr"] != "position":
                self.last_seen[(fact["entity"], fact["attr"])] = seen(fact["value"])

    def answer(self, question):
        query = question.get("query")
        if query is None:
            asked = words(question["question"])
            best = max(self.texts, key=lambda t: (len(asked & t[1]), t[0]), default=None)
            return {"answer": None, "text": "I do not know.", "evidence": [best[0]] if best else []}
        if query["q"] == "state":
            seen = self.last_seen.get((query["entity"], query["attr"]))
            if seen is None:
                return {"answer": {"type": "unknown"}, "text": "No information available.", "evidence": []}
            value, event, t, moves = seen
            if moves == self.moves:
                answer = {"type": "value", "value": value}
            else:
                answer = {"type": "last_seen", "value": value, "seen_at": t, "stale": True}
            return {"answer": answer, "text": json.dumps(value), "evidence": [event]}
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
