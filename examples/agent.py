#!/usr/bin/env python3
"""A minimal external memory agent for `hearth eval --agent cmd:"python3 examples/agent.py"`.

It speaks hearth's JSON-lines protocol on stdin/stdout (standard library
only) and keeps two things: the last value it saw of every (entity,
attribute), with the event it saw it in, and every event in words. Given
the parsed query (`hearth eval --give-query`) it answers "what is X now"
questions from the first; from words alone (the default, as an LLM agent
gets them) it only points at the event whose words overlap the question's
most. A starting point for wrapping a real memory (mem0, A-mem, ...).

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

last_seen = {}  # (entity, attr) -> (value, event id)
texts = []  # (event id, set of words)


def words(text):
    return set("".join(c if c.isalnum() else " " for c in text.lower()).split())


def observe(obs):
    event = obs["event"]
    texts.append((event["id"], words(obs["text"])))
    if event.get("outcome") == "ok":
        for change in event.get("changes", []):
            if change["attr"] != "position":
                last_seen[(change["entity"], change["attr"])] = (change["new"], event["id"])
    for fact in event.get("reveals", []):
        if fact["attr"] != "position":
            last_seen[(fact["entity"], fact["attr"])] = (fact["value"], event["id"])


def answer(question):
    query = question.get("query")
    if query is None:
        asked = words(question["question"])
        best = max(texts, key=lambda t: (len(asked & t[1]), t[0]), default=None)
        return {"answer": None, "text": "I do not know.", "evidence": [best[0]] if best else []}
    if query["q"] == "state":
        seen = last_seen.get((query["entity"], query["attr"]))
        if seen is not None:
            value, event = seen
            return {"answer": {"type": "value", "value": value}, "text": json.dumps(value), "evidence": [event]}
    return {"answer": None, "text": "I do not know.", "evidence": []}


def main():
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "reset":
            last_seen.clear()
            texts.clear()
        elif kind == "observe":
            observe(message["observation"])
        elif kind == "question":
            print(json.dumps(answer(message)), flush=True)
        elif kind == "plan":
            print(json.dumps({"plan": []}), flush=True)


if __name__ == "__main__":
    main()
