"""Copy mode and clock mode as an attached client draws them: hmux and tmux 3.7b attached in
two panes of an outer tmux, driven with the same keys, compared cell for cell (with colours)
and by cursor position."""

from __future__ import annotations

import os
import re

import pytest
from harness import HMUX, TMUX, wait_for
from test_attach import Outer, _clock_free

CONTENT = ("for i in $(seq 1 40); do echo line$i foo-bar baz.qux; done; "
           "printf 'the end  (x) [y]\\n'; exec cat")


@pytest.fixture
def outer(muxdir, request) -> Outer:
    from harness import base_env

    o = Outer(muxdir, base_env(muxdir))
    request.addfinalizer(o.mux.kill)
    return o


def _pair(outer, hmux, tmux, muxdir, extra: str = ""):
    conf = os.path.join(muxdir, "modes.conf")
    with open(conf, "w") as f:
        f.write("setw -g automatic-rename off\nset -g status-right 'R'\n" + extra)
    targets = []
    for prog, m, name in ((HMUX, hmux, "h"), ([TMUX], tmux, "t")):
        t = outer.run(prog + m.socket_args + ["-f", conf, "new-session", "-s", "c", "-n", "w",
                                              CONTENT], name)
        wait_for(lambda t=t: "the end" in "\n".join(outer.screen(t)))
        targets.append(t)
    return targets


_SGR = re.compile(r"\x1b\[([0-9;]*)m")


def _apply_sgr(state: dict[str, object], params: str) -> None:
    vals = [int(v) if v else 0 for v in params.split(";")] if params else [0]
    i = 0
    while i < len(vals):
        v = vals[i]
        if v == 0:
            state.update(fg="39", bg="49", attrs=frozenset())
        elif v in (38, 48):
            n = 3 if i + 1 < len(vals) and vals[i + 1] == 5 else 5
            state["fg" if v == 38 else "bg"] = ";".join(map(str, vals[i:i + n]))
            i += n - 1
        elif 30 <= v <= 37 or 90 <= v <= 97 or v == 39:
            state["fg"] = str(v)
        elif 40 <= v <= 47 or 100 <= v <= 107 or v == 49:
            state["bg"] = str(v)
        elif 1 <= v <= 9:
            state["attrs"] = state["attrs"] | {v}  # type: ignore[operator]
        elif 21 <= v <= 29:
            off = {22: {1, 2}, 23: {3}, 24: {4}, 25: {5}, 27: {7}, 28: {8}, 29: {9}}.get(v, set())
            state["attrs"] = state["attrs"] - off  # type: ignore[operator]
        i += 1


def _cells(outer, target) -> list[str]:
    """The terminal's rows as (attributes, text) runs that do not depend on the row above
    (capture-pane -e carries attributes from one row to the next); blanks at a row's end are
    left out, as a blank erased with EL and a blank written look the same."""
    state: dict[str, object] = {"fg": "39", "bg": "49", "attrs": frozenset()}
    rows = []
    for line in _clock_free(outer.screen(target, "-e")):
        cells = []
        pos = 0
        for m in [*_SGR.finditer(line), None]:
            end = m.start() if m is not None else len(line)
            for ch in line[pos:end]:
                cells.append((ch, (state["fg"], state["bg"], tuple(sorted(state["attrs"])))))
            if m is not None:
                _apply_sgr(state, m.group(1))
                pos = m.end()
        while cells and cells[-1][0] == " ":
            cells.pop()
        runs: list[str] = []
        last = None
        for ch, st in cells:
            if st != last:
                runs.append(f"<{st[0]},{st[1]},{st[2]}>")
                last = st
            runs.append(ch)
        rows.append("".join(runs))
    return rows


def _same(outer, h, t) -> None:
    """Both terminals end up showing the same cells and the same cursor."""
    def both():
        a = _cells(outer, h)
        b = _cells(outer, t)
        fmt = "#{?cursor_flag,#{cursor_x}:#{cursor_y},hidden}"  # a hidden cursor is nowhere
        ca = outer.mux.ok("display", "-p", "-t", h, fmt)
        cb = outer.mux.ok("display", "-p", "-t", t, fmt)
        return (a, ca) == (b, cb)

    try:
        wait_for(both, timeout=5)
    except AssertionError:
        a, b = _cells(outer, h), _cells(outer, t)
        diff = [f"{i}: hmux {x!r}\n    tmux {y!r}"
                for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        diff.append(outer.mux.ok("display", "-p", "-t", h, "hmux #{cursor_x},#{cursor_y}"))
        diff.append(outer.mux.ok("display", "-p", "-t", t, "tmux #{cursor_x},#{cursor_y}"))
        raise AssertionError("screens differ:\n" + "\n".join(diff)) from None


def _keys(outer, targets, *keys) -> None:
    """One key at a time, each drawn the same by both before the next (several keys in one
    read are split differently by tmux 3.3a: C-Space then ESC b is not C-Space, M-b)."""
    h, t = targets
    for key in keys:
        for target in targets:
            outer.keys(target, key)
        _same(outer, h, t)


def test_emacs_copy_mode_draws_like_tmux(outer, hmux, tmux, muxdir):
    h, t = _pair(outer, hmux, tmux, muxdir)
    _keys(outer, (h, t), "C-b")
    _keys(outer, (h, t), "[")
    wait_for(lambda: re.search(r"\[0/\d+\]", outer.screen(h)[0]))
    _same(outer, h, t)
    _keys(outer, (h, t), "Up", "Up", "C-Space", "M-b", "M-b", "Up")
    _same(outer, h, t)
    _keys(outer, (h, t), "PPage")
    wait_for(lambda: "[0/" not in outer.screen(h)[0])
    _same(outer, h, t)
    _keys(outer, (h, t), "M-w")  # copy and leave: the pane shows again, no indicator
    wait_for(lambda: "/19]" not in outer.screen(h)[0])
    _same(outer, h, t)
    assert hmux.ok("show-buffer") == tmux.ok("show-buffer")
    # Search with highlights: every match in copy-mode-match-style, the current one apart.
    for m in (hmux, tmux):
        m.ok("copy-mode", "-t", "c")
        m.ok("send", "-t", "c", "-X", "search-backward", "foo")
    wait_for(lambda: "results)" in outer.screen(h)[0])
    _same(outer, h, t)
    _keys(outer, (h, t), "q")
    wait_for(lambda: "results)" not in outer.screen(h)[0])
    _same(outer, h, t)


def test_vi_copy_mode_selection_and_rectangle(outer, hmux, tmux, muxdir):
    h, t = _pair(outer, hmux, tmux, muxdir, "setw -g mode-keys vi\n")
    _keys(outer, (h, t), "C-b")
    _keys(outer, (h, t), "[")
    wait_for(lambda: re.search(r"\[0/\d+\]", outer.screen(h)[0]))
    _keys(outer, (h, t), "k", "k", "k", "0", "Space", "w", "w", "j")
    wait_for(lambda: hmux.ok("display", "-p", "-t", "c", "#{selection_present}") == "1\n")
    _same(outer, h, t)
    _keys(outer, (h, t), "v", "l", "l")  # rectangle
    _same(outer, h, t)
    _keys(outer, (h, t), "V", "k")  # whole lines
    _same(outer, h, t)
    _keys(outer, (h, t), "g")  # history-top: the indicator counts the lines above
    wait_for(lambda: "[19/19]" in outer.screen(h)[0])
    _same(outer, h, t)
    _keys(outer, (h, t), "Enter")
    wait_for(lambda: hmux.ok("display", "-p", "-t", "c", "#{pane_in_mode}") == "0\n")
    _same(outer, h, t)
    assert hmux.ok("show-buffer") == tmux.ok("show-buffer")


@pytest.mark.parametrize("numbers", ["default", "absolute", "relative", "hybrid"])
def test_line_numbers(outer, hmux, tmux, muxdir, numbers):
    """copy-mode-line-numbers (tmux 3.7): the numbers in their styles left of the lines, the
    cursor after them, the selection beside them, the position in the indicator and goto-line
    absolute or not."""
    h, t = _pair(outer, hmux, tmux, muxdir,
                 f"setw -g copy-mode-line-numbers {numbers}\n"
                 "setw -g copy-mode-current-line-number-style fg=green,bold\n")
    _keys(outer, (h, t), "C-b")
    _keys(outer, (h, t), "[")
    _keys(outer, (h, t), "Up", "Up", "C-Space", "Up", "M-b", "PPage", "C-Space", "M-f")
    for m in (hmux, tmux):
        m.ok("send", "-t", "c", "-X", "goto-line", "5")
    _same(outer, h, t)
    fmt = "#{copy_position}/#{copy_position_limit} #{scroll_position} #{copy_cursor_y}"
    assert hmux.ok("display", "-p", "-t", "c", fmt) == tmux.ok("display", "-p", "-t", "c", fmt)
    _keys(outer, (h, t), "q")


def test_clock_mode_draws_like_tmux(outer, hmux, tmux, muxdir):
    h, t = _pair(outer, hmux, tmux, muxdir, "setw -g clock-mode-colour red\n")
    _keys(outer, (h, t), "C-b", "t")
    wait_for(lambda: hmux.ok("display", "-p", "-t", "c", "#{pane_mode}") == "clock-mode\n")
    _same(outer, h, t)
    for m in (hmux, tmux):
        m.ok("set", "-g", "clock-mode-style", "12")
        m.ok("split-window", "-t", "c", "-h", "cat")  # a resize redraws the clock smaller
        m.ok("split-window", "-t", "c", "-v", "cat")  # (with two panes tmux halves the
        m.ok("select-pane", "-t", "c:0.0")  # active border colour: not drawn by hmux yet)
    _same(outer, h, t)
    _keys(outer, (h, t), "x")  # any key leaves clock mode
    wait_for(lambda: hmux.ok("display", "-p", "-t", "c:0.0", "#{pane_in_mode}") == "0\n")
    _same(outer, h, t)


# selection_active: an empty selection (just begun) is not "present" in tmux 3.7b.
STATE = ("#{client_prefix} #{pane_mode} #{copy_cursor_x},#{copy_cursor_y} "
         "#{selection_present} #{selection_active}")


def test_copy_reaches_the_outer_clipboard(outer, hmux, tmux, muxdir):
    """With set-clipboard on, a copy also goes to the terminal as OSC 52: the outer tmux
    (which accepts it) makes a paste buffer of it."""
    h, t = _pair(outer, hmux, tmux, muxdir)
    outer.mux.ok("set", "-s", "set-clipboard", "on")
    for target, m, n in ((h, hmux, 1), (t, tmux, 2)):
        for key in ("C-b", "[", "Up", "C-a", "C-Space", "M-f", "M-f", "M-w"):
            before = m.ok("display", "-p", "-t", "c", STATE)
            outer.keys(target, key)  # each key changes the state: wait for it, then the next
            wait_for(lambda m=m, b=before: m.ok("display", "-p", "-t", "c", STATE) != b)
        wait_for(lambda m=m: m.ok("list-buffers", "-F", "#{buffer_name}") != "")
        wait_for(lambda n=n: len(outer.mux.ok("list-buffers", "-F", "#{buffer_name}").split())
                 == n)
        assert outer.mux.ok("show-buffer") == m.ok("show-buffer") == "the end"


def test_key_list_in_view_mode(outer, hmux, tmux, muxdir):
    """C-b ? runs list-keys -N for an attached client: its output is shown in view mode."""
    h, t = _pair(outer, hmux, tmux, muxdir)
    _keys(outer, (h, t), "C-b", "?")
    wait_for(lambda: hmux.ok("display", "-p", "-t", "c", "#{pane_mode}") == "view-mode\n")
    _same(outer, h, t)
    _keys(outer, (h, t), "Down", "Down", "NPage", "M-f", "C-Space", "Down")
    _keys(outer, (h, t), "q")
    wait_for(lambda: hmux.ok("display", "-p", "-t", "c", "#{pane_in_mode}") == "0\n")
    _same(outer, h, t)
