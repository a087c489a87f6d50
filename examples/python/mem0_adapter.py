"""A hearth agent over a mem0-style memory and an LLM.

mem0 (and memories shaped like it) store messages with `add(messages,
user_id, metadata)` and find them with `search(query, user_id)`; an LLM
then answers from what was found. `Mem0Agent` is that loop as a hearth
agent: every event the robot perceived is added as a message (its words,
with the event id in the metadata), and a question searches the memory,
asks the LLM with the top five hits, and cites those hits' events as
evidence.

    import hearth
    from mem0_adapter import Mem0Agent, InMemoryMem0, echo_llm
    report = hearth.evaluate(trace, Mem0Agent(InMemoryMem0(), echo_llm))

With the real thing (`pip install mem0ai`; it needs its own LLM and
embedder configured, e.g. OPENAI_API_KEY):

    from mem0 import Memory
    agent = Mem0Agent(Memory(), openai_llm("gpt-4o-mini"))

The stand-ins below (`InMemoryMem0`, `echo_llm`) keep the interface and
need no network; the tests run against them.
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from typing import Any, Callable, Dict, List, Optional

LLM = Callable[[str], str]


def words(text: str) -> set:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


class InMemoryMem0:
    """A stand-in with mem0's `add`/`search` shape: messages kept per
    user, searched by word overlap (newest first on ties)."""

    def __init__(self) -> None:
        self.store: Dict[str, List[Dict[str, Any]]] = {}

    def add(self, messages: List[Dict[str, str]], user_id: str, metadata: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        items = self.store.setdefault(user_id, [])
        added = []
        for m in messages:
            item = {"id": str(len(items)), "memory": m["content"], "metadata": dict(metadata or {})}
            items.append(item)
            added.append({"id": item["id"], "memory": item["memory"], "event": "ADD"})
        return {"results": added}

    def search(self, query: str, user_id: str, limit: int = 5) -> Dict[str, Any]:
        asked = words(query)
        items = self.store.get(user_id, [])
        scored = [(len(asked & words(i["memory"])), int(i["id"]), i) for i in items]
        scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
        return {"results": [dict(i, score=float(s)) for s, _, i in scored[:limit] if s > 0]}


def echo_llm(prompt: str) -> str:
    """A stand-in LLM: answers with the first remembered line of the
    prompt, or the first option, or that it does not know."""
    lines = prompt.splitlines()
    options = [l for l in lines if re.match(r"^\([A-Z]\) ", l)]
    if options:
        return options[0]
    memories = [l[2:] for l in lines if l.startswith("- ")]
    return memories[0] if memories else "No information available."


def openai_llm(model: str, base_url: Optional[str] = None) -> LLM:
    """An LLM over an OpenAI-compatible chat endpoint (OPENAI_API_KEY,
    OPENAI_BASE_URL), standard library only."""
    url = (base_url or os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1")).rstrip("/")

    def call(prompt: str) -> str:
        body = json.dumps({"model": model, "messages": [{"role": "user", "content": prompt}], "temperature": 0}).encode()
        req = urllib.request.Request(
            url + "/chat/completions",
            data=body,
            headers={"Content-Type": "application/json", "Authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", "")},
        )
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.load(r)["choices"][0]["message"]["content"].strip()

    return call


class Mem0Agent:
    """A hearth agent (reset/observe/answer/plan) over a mem0-style memory
    and an LLM (a function from prompt to text)."""

    name = "mem0-style"

    def __init__(self, memory: Any, llm: LLM, user: str = "robot") -> None:
        self.memory = memory
        self.llm = llm
        self.user = user
        self.runs = 0
        self.user_id = user

    def reset(self, scene: Dict[str, Any]) -> None:
        # A fresh user per trace: nothing of another household leaks in.
        self.runs += 1
        self.user_id = f"{self.user}-{scene['scene']}-{self.runs}"

    def observe(self, observation: Dict[str, Any]) -> None:
        e = observation["event"]
        self.memory.add(
            [{"role": "user", "content": f"Day {e['day']} {e['time']}: {observation['text']}"}],
            user_id=self.user_id,
            metadata={"event": e["id"], "day": e["day"], "time": e["time"]},
        )

    def answer(self, question: Dict[str, Any]) -> Dict[str, Any]:
        found = self.memory.search(question["question"], user_id=self.user_id)
        hits = found["results"] if isinstance(found, dict) else found
        hits = hits[:5]
        prompt = "You are a home robot's memory. What you remember:\n"
        prompt += "".join(f"- {h['memory']}\n" for h in hits)
        prompt += f"It is now day {question['cutoff']['day']} {question['cutoff']['time']}.\n"
        prompt += f"Question: {question['question']}\n"
        for letter, option in zip("ABCDEFGH", question.get("options", [])):
            prompt += f"({letter}) {option}\n"
        prompt += "Answer in one short sentence; say 'No information available.' if you cannot tell."
        text = self.llm(prompt).strip()
        answer = None
        choice = re.match(r"^\(?([A-H])\)", text)
        if question.get("options") and choice:
            answer = {"type": "choice", "option": choice.group(1)}
        elif text.lower().startswith("no information"):
            answer = {"type": "unknown"}
        evidence = [h["metadata"]["event"] for h in hits if "event" in h.get("metadata", {})]
        return {"answer": answer, "text": text, "evidence": evidence}

    def plan(self, task: Dict[str, Any]) -> Dict[str, Any]:
        return {"plan": []}


if __name__ == "__main__":
    import sys

    import hearth

    trace = hearth.Trace(sys.argv[1]) if len(sys.argv) > 1 else hearth.generate("studio", days=1)
    report = hearth.evaluate(trace, Mem0Agent(InMemoryMem0(), echo_llm))
    print(json.dumps({k: report[k] for k in ("agent", "qa", "errors")}, indent=2))
