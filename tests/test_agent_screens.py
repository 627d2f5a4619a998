"""The real agents' screens, replayed: the bytes Claude Code, Codex, Gemini CLI, OpenCode and
aider wrote to their terminals in the live suite (``tests/agents/``, recorded against the fake
API), fed through hmux's screen engine and the plugin's classifier.

Each recording has marks: byte offsets where the live driver looked at the screen and knew the
state it caused (the trust dialog it was answering, the permission prompt, the failed turn).
Every labelled mark must classify as its state, exactly as the plugin would classify the pane
(its rows, its title, the same table) — as a raw verdict, so ``done`` is wanted as ``idle``
(``done`` is an idle the user has not seen, decided by damping, not by the screen).
The unlabelled screens in between feed the share of ``unknown`` reported per agent
(``bench/agent_unknown.py``) and must stay under :data:`MAX_UNKNOWN`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from hmux_core.screen import new_screen
from hmux_plugins_agent.classify import classify
from hmux_plugins_agent.table import load

FIXTURES = Path(__file__).parent / "agents" / "fixtures"
TABLE = load([])
#: The highest share of an agent's recorded screens that may read ``unknown``.
MAX_UNKNOWN = 0.05


@dataclass(frozen=True)
class Screen:
    recording: str
    agent: str
    step: str
    want: str
    labelled: bool
    rows: tuple[str, ...]
    title: str


def replay(name: str) -> list[Screen]:
    """Every marked screen of one recording, in order."""
    doc = json.loads((FIXTURES / f"{name}.json").read_text())
    data = (FIXTURES / f"{name}.bytes").read_bytes()
    scr = new_screen(doc["width"], doc["height"], 5000, "python")
    fed = 0
    out = []
    for m in sorted(doc["marks"], key=lambda m: m["offset"]):
        if m["offset"] > fed:
            scr.feed(data[fed:m["offset"]])
            fed = m["offset"]
        scr.take_replies()
        out.append(Screen(name, doc["agent"].removesuffix("-signin"), m["step"], m["want"],
                          m["labelled"], tuple(scr.tail(doc["height"])), scr.title))
    return out


def verdict(s: Screen) -> str:
    return classify(TABLE.spec(s.agent), s.rows, s.title, None, TABLE.generic).state


def recordings() -> list[str]:
    return sorted(p.stem for p in FIXTURES.glob("*.json") if p.with_suffix(".bytes").exists())


def labelled() -> list[tuple[str, int]]:
    out = []
    for name in recordings():
        doc = json.loads((FIXTURES / f"{name}.json").read_text())
        out += [(name, i) for i, m in enumerate(sorted(doc["marks"], key=lambda m: m["offset"]))
                if m["labelled"]]
    return out


def test_every_agent_was_recorded():
    names = set(recordings())
    assert {"claude", "codex", "gemini", "opencode", "aider"} <= names, names


@pytest.mark.parametrize(("name", "index"), labelled(),
                         ids=[f"{n}-{i}" for n, i in labelled()])
def test_recorded_screen_reads_its_state(name, index):
    s = replay(name)[index]
    want = "idle" if s.want == "done" else s.want
    got = verdict(s)
    assert got == want, f"{name} {s.step}: {got}, wanted {want}; title {s.title!r}\n" + \
        "\n".join(r for r in s.rows if r.strip())


def unknown_share(name: str) -> tuple[int, int]:
    """(screens reading unknown, screens) of one recording."""
    screens = replay(name)
    return sum(1 for s in screens if verdict(s) == "unknown"), len(screens)


@pytest.mark.parametrize("name", recordings())
def test_unknown_is_rare(name):
    unknown, total = unknown_share(name)
    assert total and unknown / total <= MAX_UNKNOWN, f"{name}: {unknown} of {total} unknown"


@pytest.mark.parametrize(("name", "model"), [("codex", "gpt-5"), ("gemini", "gemini-2.5-pro")])
def test_the_model_printed_on_the_real_screen_is_read(name, model):
    from hmux_plugins_agent.classify import screen_model

    last = replay(name)[-1]
    assert screen_model(TABLE.spec(last.agent), last.rows) == model
