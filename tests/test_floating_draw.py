"""Floating panes drawn in a real terminal and moved with the mouse, against tmux 3.7b.

An outer tmux 3.7b server's panes are the terminals (tests/test_attach.py's Outer): hmux and
tmux 3.7b are set up the same way, attached side by side, and what they drew is read back with
capture-pane -e (characters and colours). The mouse is SGR reports typed into the outer panes.
"""

from __future__ import annotations

import re

import pytest
from harness import HMUX, TMUX, wait_for
from test_attach import COLS, ROWS, Outer, _clock_free, _q  # noqa: F401

F = "#{pane_id} #{pane_left},#{pane_top} #{pane_width}x#{pane_height} #{pane_floating_flag} " \
    "#{pane_z} #{pane_active}"


@pytest.fixture
def outer(muxdir, request) -> Outer:
    from harness import base_env

    o = Outer(muxdir, base_env(muxdir))
    request.addfinalizer(o.mux.kill)
    return o


def _attach(outer, hmux, tmux, setup) -> tuple[str, str]:
    for m in (hmux, tmux):
        m.ok("new-session", "-d", "-s", "w", "-x", str(COLS), "-y", str(ROWS - 1),
             "printf 'tiled zero'; exec cat")
        m.ok("set", "-g", "status-right", "R")
        for step in setup:
            m.ok(*step)
    argv = ["attach-session", "-t", "w"]
    h = outer.run(HMUX + hmux.socket_args + argv, "h")
    t = outer.run([TMUX] + tmux.socket_args + argv, "t")
    wait_for(lambda: all("[w]" in "".join(outer.screen(x)[-2:]) for x in (h, t)))
    return h, t


def _screen(outer, target) -> list[str]:
    """The terminal's characters and colours; colours on a line with no characters are
    left out (hmux clears a row where tmux writes blanks, and the invisible colour of the
    cleared cells differs; tests/test_attach.py says the same)."""
    return [re.sub(r"^(\x1b\[[0-9;]*m)+$", "", line)
            for line in _clock_free(outer.screen(target, "-e"))]


def _same(outer, h, t) -> None:
    try:
        wait_for(lambda: _screen(outer, h) == _screen(outer, t))
    except AssertionError:
        raise AssertionError("\n".join(outer.screen(h, "-e") + ["----"]
                                        + outer.screen(t, "-e"))) from None


def NP(*flags: str, text: str = "float") -> tuple[str, ...]:
    return ("new-pane", "-t", "w", *flags, f"printf '{text}'; exec cat")


SCENES = {
    "one-over-one": [NP(), NP("-x", "20", "-y", "5", text="two")],
    "over-borders": [("split-window", "-h", "-t", "w", "cat"), ("split-window", "-t", "w", "cat"),
                     NP("-X", "30", "-Y", "5"), NP("-x", "20", "-y", "5", "-X", "-3", "-Y", "18"),
                     NP("-x", "20", "-y", "5", "-X", "70", "-Y", "1", text="clipped"),
                     ("select-pane", "-t", "w.1")],
    "active-floating-arrows": [("split-window", "-h", "-t", "w", "cat"), NP("-X", "30", "-Y", "5"),
                               ("set", "-g", "pane-border-indicators", "both")],
    "raised": [NP("-X", "10", "-Y", "3"), NP("-X", "20", "-Y", "6", text="second"),
               ("select-pane", "-t", "w.1")],
    "status-top-double": [("split-window", "-h", "-t", "w", "cat"), NP("-X", "30", "-Y", "5"),
                          NP("-x", "20", "-y", "5", "-X", "10", "-Y", "3", text="two"),
                          ("set", "-g", "pane-border-status", "top"),
                          ("set", "-g", "pane-border-lines", "double")],
    "status-bottom-covered": [("split-window", "-h", "-t", "w", "cat"), NP("-X", "30", "-Y", "5"),
                              NP("-x", "20", "-y", "5", "-X", "10", "-Y", "3", text="two"),
                              ("select-pane", "-t", "w.2"),
                              ("set", "-g", "pane-border-status", "bottom")],
    "zoomed-hides": [("split-window", "-h", "-t", "w", "cat"), NP("-X", "30", "-Y", "5"),
                     ("resize-pane", "-Z", "-t", "w.1")],
    "marked": [("split-window", "-h", "-t", "w", "cat"), NP("-X", "30", "-Y", "5"),
               ("select-pane", "-m", "-t", "w.0")],
    "styles": [NP("-s", "bg=blue", "-S", "fg=red", "-R", "fg=green"), NP("-X", "40", "-Y", "12")],
    "panes-status-line": [("set", "-g", "status", "2"), NP(), NP("-X", "30", "-Y", "10")],
}


@pytest.mark.parametrize("name", sorted(SCENES))
def test_drawn_like_37b(outer, hmux, tmux, name):
    h, t = _attach(outer, hmux, tmux, SCENES[name])
    _same(outer, h, t)


def _mouse(outer, targets, reports) -> None:
    import time

    for rep in reports:
        for tgt in targets:
            outer.keys(tgt, "-l", f"\x1b[<{rep}")
        time.sleep(0.3)


@pytest.mark.parametrize("reports", [
    ["0;11;2M", "32;21;6M", "32;25;8M", "0;25;8m"],  # the top border moves the pane
    ["0;45;8M", "32;50;12M", "32;55;14M", "0;55;14m", "0;30;15M", "0;30;15m"],  # corner, click
    ["0;4;4M", "32;2;5M", "0;2;5m", "0;30;2M", "32;32;1M", "0;32;1m"],  # left border
    ["0;30;16M", "0;30;16m"],  # a click raises the lower pane
], ids=["move", "corner-resize", "left-resize", "click-raises"])
def test_mouse_like_37b(outer, hmux, tmux, reports):
    setup = [("set", "-g", "mouse", "on"), NP(), NP("-X", "20", "-Y", "12")]
    h, t = _attach(outer, hmux, tmux, setup)
    _mouse(outer, (h, t), reports)
    wait_for(lambda: hmux.ok("list-panes", "-t", "w", "-F", F)
             == tmux.ok("list-panes", "-t", "w", "-F", F))
    _same(outer, h, t)
