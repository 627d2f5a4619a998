"""capture-pane beyond tmux 3.7b: -R against the next oracle, -I and pane_output_generation by
the seed's rules.

Seed ("capture-pane -I ... -R"): "capture-pane -I prefixes captured lines with their history
timestamp in Unix seconds (zero when unavailable). -R dumps the base grid, including line
allocation counts, decoded cell flags, attributes, colours and hyperlinks; it takes precedence
over the other capture selection flags." and "pane_output_generation advances for each
nonempty input batch".
"""

from __future__ import annotations

import time

import pytest
from harness import wait_for

_OUTPUT = ("printf 'ab\\033[31;1mc\\033[38;5;100md\\033[48;2;1;2;3me\\033[m\\n"
           "\\346\\227\\245\\t\\033]133;A\\007\\033]133;D;5\\007x\\n"
           "\\033[4:3m\\033[58;5;9mu\\033[m\\033]8;id=q;http://x\\033\\\\L\\033]8;;\\033\\\\"
           "\\033[7;2;3mr\\033[K'; exec cat")


@pytest.mark.parametrize("flags", [["-R"], ["-R", "-a", "-J"], ["-R", "-S", "-", "-e"]])
def test_capture_grid_as_next(hmux, next_tmux, flags):
    results = []
    for mux in (hmux, next_tmux):
        mux.ok("new-session", "-d", "-x", "6", "-y", "4", _OUTPUT)
        wait_for(lambda m=mux: "L" in m.ok("capture-pane", "-p"))
        results.append(tuple(mux.cmd("capture-pane", "-p", *flags)))
    assert results[0] == results[1]


def test_capture_grid_with_history_as_next(hmux, next_tmux):
    results = []
    for mux in (hmux, next_tmux):
        mux.ok("new-session", "-d", "-x", "5", "-y", "2",
               "printf '1\\n22\\n333\\n4444\\n55555x\\n\\033]133;C\\007z'; exec cat")
        wait_for(lambda m=mux: "z" in m.ok("capture-pane", "-p"))
        results.append(mux.ok("capture-pane", "-p", "-R"))
    assert results[0] == results[1]
    assert "\tL 0 (-)" in results[0]  # history lines are marked -


def test_capture_times(hmux):
    """-I: a history line's time (now, give or take), 0 for lines that never scrolled."""
    before = int(time.time())
    hmux.ok("new-session", "-d", "-x", "20", "-y", "3", "seq 1 8; exec cat")
    wait_for(lambda: "8" in hmux.ok("capture-pane", "-p"))
    history = hmux.ok("capture-pane", "-p", "-I", "-S", "-", "-E", "-1").splitlines()
    assert [line.split(" ", 1)[1] for line in history] == ["1", "2", "3", "4", "5", "6"]
    assert all(before - 1 <= int(line.split(" ")[0]) <= time.time() + 1 for line in history)
    visible = hmux.ok("capture-pane", "-p", "-I").splitlines()
    assert visible[:2] == ["0 7", "0 8"]


def test_pane_output_generation_advances(hmux):
    hmux.ok("new-session", "-d", "exec cat")
    first = int(hmux.ok("display", "-p", "#{pane_output_generation}"))
    hmux.ok("send-keys", "-l", "hello")
    wait_for(lambda: int(hmux.ok("display", "-p", "#{pane_output_generation}")) > first)
