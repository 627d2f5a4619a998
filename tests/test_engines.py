"""Engine selection (HMUX_ENGINE, #{pane_engine}) and bounded history, for every installed engine.

In-process: the default is the fastest installed engine, a name selects one, an unknown name is
logged and falls back to python; history stays within history-limit lines and within the byte
budget whatever is printed. Through a real server: the pane reports its engine, the server log
names a bad HMUX_ENGINE, and what capture-pane prints of plain output matches tmux 3.3a.
"""

from __future__ import annotations

import logging
import os

import pytest
from harness import wait_for

from hmux_core.screen import available_engines, new_screen

ENGINES = available_engines()


def test_selection_default_named_and_unknown(caplog):
    assert ENGINES[-1] == "python"  # always there
    assert new_screen(10, 3).name == "python"  # the native one only by name
    for name in ENGINES:
        assert new_screen(10, 3, 100, name).name == name
    with caplog.at_level(logging.ERROR, logger="hmux_core.screen"):
        s = new_screen(10, 3, 100, "nosuchengine")
    assert s.name == "python"
    assert "HMUX_ENGINE=nosuchengine: unknown engine" in caplog.text


@pytest.mark.parametrize("engine", ENGINES)
def test_history_bounded_by_limit(engine):
    s = new_screen(80, 24, 1000, engine)
    s.feed(b"".join(b"line %d\r\n" % i for i in range(5000)))
    assert 0 < s.history_size <= 1000
    lines = s.capture(start=-s.history_size)
    assert len(lines) == s.history_size + 24
    # what is kept is the newest history, in order, up to the visible screen
    assert lines[s.history_size - 1] == "line 4976"
    n = int(lines[0].split()[1])
    assert lines[: s.history_size] == [f"line {i}" for i in range(n, 4977)]
    s.history_limit = 100
    s.feed(b"more\r\n" * 200)
    assert s.history_size <= 100
    s.clear_history()
    assert s.history_size == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_history_byte_budget_survives_a_redraw_storm(engine):
    """A huge history-limit does not let wide, styled lines take unbounded memory."""
    s = new_screen(200, 50, 1_000_000, engine)
    s.history_budget = 2 * 1024 * 1024
    storm = b"".join(
        b"\033[38;2;%d;%d;9m%s\033[0m\r\n" % (i % 256, i // 256 % 256, b"#" * 199)
        for i in range(4000)
    )
    for _ in range(5):  # 20 000 lines of 200 styled cells, ~4 M cells
        s.feed(storm)
    assert 0 < s.history_size < 20_000
    assert s.history_bytes() <= s.history_budget
    # the newest lines are the ones kept
    assert s.capture(start=-1, end=-1) == ["#" * 199]
    assert s.history_size * 200 * 8 <= 4 * s.history_budget  # well under the 4 M cells printed


def _log_text(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


@pytest.mark.parametrize("engine", [*ENGINES, "nosuchengine"])
def test_server_pane_engine_and_capture(engine, hmux, tmux, muxdir):
    hmux.env["HMUX_ENGINE"] = engine
    log = os.path.join(muxdir, "hmux.log")
    hmux.env["HMUX_LOG"] = log
    text = "printf 'alpha\\n\\033[31mred\\033[0m  tail   \\nwide \\344\\270\\255x\\n'; sleep 100"
    for m in (hmux, tmux):
        m.ok("new-session", "-d", "-s", "e", "-x", "40", "-y", "10", text)
        wait_for(lambda m=m: "wide" in m.capture("e"))
    want = "python" if engine == "nosuchengine" else engine
    assert hmux.ok("display", "-p", "-t", "e", "#{pane_engine}").strip() == want
    for flags in ((), ("-e",), ("-N",), ("-J", "-S", "-")):
        assert hmux.capture("e", *flags) == tmux.capture("e", *flags), flags
    if engine == "nosuchengine":
        wait_for(lambda: "HMUX_ENGINE=nosuchengine: unknown engine" in _log_text(log))
        assert hmux.ok("display", "-p", "#{pid}").strip()  # the server is still serving
