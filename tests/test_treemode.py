"""Tree modes (choose-tree, choose-buffer, choose-client, find-window) against tmux 3.3a.

Attached: hmux and tmux attached in two panes of an outer tmux, the same session scripted in
both, the same keys pressed; what they drew is compared cell for cell with colours (and the
cursor, hidden in these modes), then the state the keys left. Times a default format shows
(``#{t/p:buffer_created}``, ``#{t/p:client_activity}``: HH:MM) and the clients' tty names
(``/dev/pts/N``, which the outer tmux hands out) are blanked in both before comparing.

Detached: the commands' errors, ``pane_mode``/``pane_in_mode`` and send-keys without a client
(tmux gives the key to the mode only with a client) compared with tmux's output.
"""

from __future__ import annotations

import os
import re

import pytest
from harness import HMUX, TMUX, wait_for
from test_attach import Outer
from test_copymode_attach import _cells


@pytest.fixture
def outer(muxdir, request) -> Outer:
    from harness import base_env

    o = Outer(muxdir, base_env(muxdir))
    request.addfinalizer(o.mux.kill)
    return o


def _pair(outer, hmux, tmux, muxdir):
    """Sessions c (windows w, two with two panes) and other (o1), attached to c."""
    conf = os.path.join(muxdir, "tree.conf")
    with open(conf, "w") as f:
        f.write("setw -g automatic-rename off\nset -g status-right 'R'\n"
                "set -g default-command cat\nset -s escape-time 10\n")
    targets = []
    for prog, m, name in ((HMUX, hmux, "h"), ([TMUX], tmux, "t")):
        t = outer.run(prog + m.socket_args + ["-f", conf, "new-session", "-s", "c", "-n", "w",
                                              "cat"], name)
        wait_for(lambda t=t: "[c] 0:w*" in outer.screen(t)[-1])
        m.ok("new-window", "-d", "-t", "c", "-n", "two")
        m.ok("split-window", "-d", "-t", "c:1")
        m.ok("new-session", "-d", "-s", "other", "-n", "o1")
        wait_for(lambda t=t: "1:two" in outer.screen(t)[-1])
        targets.append(t)
    return targets


_TIME = re.compile(r"\b\d\d:\d\d\b")
_PTS = re.compile(r"/dev/pts/\d+")


def _norm(rows: list[str]) -> list[str]:
    """Times and tty names blanked; a tty name's length moves what follows it, so runs of
    border lines and blanks count as one."""
    out = []
    for r in rows:
        r = _PTS.sub("/dev/pts/N", _TIME.sub("HH:MM", r))
        out.append(re.sub("─+", "─", re.sub(" +", " ", r)) if "/dev/pts/N" in r else r)
    return out


def _same(outer, h, t) -> None:
    """Both terminals show the same cells (colours included) and the same cursor."""
    fmt = "#{?cursor_flag,#{cursor_x}:#{cursor_y},hidden}"

    def both():
        a, b = _norm(_cells(outer, h)), _norm(_cells(outer, t))
        return (a, outer.mux.ok("display", "-p", "-t", h, fmt)) == \
            (b, outer.mux.ok("display", "-p", "-t", t, fmt))

    try:
        wait_for(both, timeout=5)
    except AssertionError:
        a, b = _norm(_cells(outer, h)), _norm(_cells(outer, t))
        diff = [f"{i}: hmux {x!r}\n    tmux {y!r}"
                for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        diff += [f"cursor hmux {outer.mux.ok('display', '-p', '-t', h, fmt)!r} "
                 f"tmux {outer.mux.ok('display', '-p', '-t', t, fmt)!r}"]
        raise AssertionError("screens differ:\n" + "\n".join(diff)) from None


def _keys(outer, targets, *keys) -> None:
    """One key at a time, each drawn the same by both before the next."""
    h, t = targets
    for key in keys:
        for target in targets:
            outer.keys(target, key)
        _same(outer, h, t)


def _state(m) -> str:
    return m.ok("display", "-p", "-t", "c", "#{pane_mode}|#{pane_in_mode}")


def _where(m, target: str = "c") -> str:
    return m.ok("display", "-p", "-t", target,
                "#{session_name}:#{window_index}.#{pane_index} #{window_zoomed_flag}")


def test_choose_tree_sessions_expand_tag_and_switch(outer, hmux, tmux, muxdir):
    h, t = _pair(outer, hmux, tmux, muxdir)
    _keys(outer, (h, t), "C-b", "s")  # choose-tree -Zs: sessions collapsed, c current
    wait_for(lambda: _state(hmux) == "tree-mode|1\n")
    _keys(outer, (h, t), "l", "j", "j", "l", "Down")  # expand c and window 1, to its pane
    _keys(outer, (h, t), "t", "k", "t")  # tag a pane (moves down), then its window
    _keys(outer, (h, t), "C-t", "T", "M-+", "H", "M--")  # tag all, none; expand all, H, collapse
    _keys(outer, (h, t), "1")  # shortcut key: other's line, as Enter
    wait_for(lambda: "[other]" in outer.screen(h)[-1])
    _same(outer, h, t)
    assert hmux.ok("list-clients", "-F", "#{client_session}") == \
        tmux.ok("list-clients", "-F", "#{client_session}") == "other\n"
    assert _state(hmux) == _state(tmux) == "|0\n"  # the mode ended


def test_choose_tree_windows_preview_sort_and_enter(outer, hmux, tmux, muxdir):
    h, t = _pair(outer, hmux, tmux, muxdir)
    _keys(outer, (h, t), "C-b", "w")  # choose-tree -Zw: windows listed, 0:w current
    wait_for(lambda: _state(hmux) == "tree-mode|1\n")
    _keys(outer, (h, t), "j", "Right", "j", "j")  # window two's panes, preview of each
    # Sort by name, reversed; no preview and back. (Not by time: the order of activity times
    # depends on when each server saw the keys.)
    _keys(outer, (h, t), "O", "r", "v", "v", "r")
    _keys(outer, (h, t), "g", "G", "k", "C-p", "C-n")
    _keys(outer, (h, t), "q")
    wait_for(lambda: _state(hmux) == "|0\n")
    _same(outer, h, t)
    _keys(outer, (h, t), "C-b", "w")
    _keys(outer, (h, t), "j", "l", "j", "j")
    for target in (h, t):
        outer.keys(target, "Enter")  # the second pane of window two
    for m in (hmux, tmux):
        wait_for(lambda m=m: _where(m) == "c:1.1 0\n")
    _same(outer, h, t)


def test_choose_tree_filter_kill_and_command(outer, hmux, tmux, muxdir):
    h, t = _pair(outer, hmux, tmux, muxdir)
    _keys(outer, (h, t), "C-b", "w")
    _keys(outer, (h, t), "f")  # the filter prompt on the status line
    for target in (h, t):
        outer.keys(target, "-l", "#{m:*o*,#{window_name}}")
    _same(outer, h, t)
    _keys(outer, (h, t), "Enter")  # windows two and o1 are left
    _keys(outer, (h, t), "f", "C-u")
    for target in (h, t):
        outer.keys(target, "-l", "nomatch")
    _keys(outer, (h, t), "Enter")  # nothing matches: all shown, "(filter: no matches)"
    _keys(outer, (h, t), "f")
    for target in (h, t):
        # Escape clears the filter. Both still show the prompt until escape-time has passed,
        # so wait for it to go: a key sent sooner would make Escape its meta prefix.
        outer.keys(target, "Escape")
        wait_for(lambda target=target: "(filter)" not in outer.screen(target)[-1])
    _same(outer, h, t)
    _keys(outer, (h, t), "G", "x")  # kill the last line's window
    _keys(outer, (h, t), "y")
    wins = ("list-windows", "-a", "-F", "#S:#I:#W")
    wait_for(lambda: hmux.ok(*wins) == tmux.ok(*wins) and hmux.ok(*wins).count("\n") == 2)
    _same(outer, h, t)
    # A command for the two tagged windows (t moves down onto window 0's lone pane, which
    # 3.7b lists, so j first to window two).
    _keys(outer, (h, t), "g", "j", "t", "j", "t", ":")
    for target in (h, t):
        outer.keys(target, "-l", "rename-window -t '%%' X")
    _keys(outer, (h, t), "Enter")
    for m in (hmux, tmux):
        wait_for(lambda m=m: m.ok("list-windows", "-t", "c", "-F", "#W") == "X\nX\n")
    _same(outer, h, t)
    _keys(outer, (h, t), "X", "n")  # kill the tagged: answered no
    _keys(outer, (h, t), "Escape")
    for m in (hmux, tmux):
        wait_for(lambda m=m: _state(m) == "|0\n")
    _same(outer, h, t)
    # send-keys from outside reaches the mode through the attached client; t does not move
    # down then (no mouse event), as in tmux.
    for m in (hmux, tmux):
        m.ok("choose-tree", "-t", "c")
        m.ok("send-keys", "-t", "c", "j", "t", "j")
    _same(outer, h, t)
    for m in (hmux, tmux):
        m.ok("send-keys", "-t", "c", "q")
    _same(outer, h, t)


def test_find_window_and_marks(outer, hmux, tmux, muxdir):
    h, t = _pair(outer, hmux, tmux, muxdir)
    _keys(outer, (h, t), "C-b", "f")  # command-prompt { find-window -Z -- '%%' }
    for target in (h, t):
        outer.keys(target, "-l", "two")
    _keys(outer, (h, t), "Enter")
    wait_for(lambda: _state(hmux) == "tree-mode|1\n")
    _same(outer, h, t)
    _keys(outer, (h, t), "j")
    marked = "#{pane_marked_set}"
    for key, want in (("m", "1\n"), ("M", "0\n")):  # mark (reverse, M) and clear the mark
        for target in (h, t):
            outer.keys(target, key)
        for m in (hmux, tmux):
            wait_for(lambda m=m, want=want: m.ok("display", "-p", "-t", "c", marked) == want)
            # tmux draws the status line's M at its next redraw
            m.ok("refresh-client", "-S", "-t", m.ok("list-clients", "-F", "#{client_name}").strip())
        _same(outer, h, t)
    _keys(outer, (h, t), "q")
    for m in (hmux, tmux):
        m.ok("find-window", "-t", "c", "-N", "-i", "O1")  # names only, any case: window o1
    _same(outer, h, t)  # (and window two, whose two panes are filtered out: kept in 3.7b)
    _keys(outer, (h, t), "G", "Enter")  # o1's pane, the last line
    wait_for(lambda: "[other]" in outer.screen(h)[-1])
    _same(outer, h, t)


def test_choose_buffer_delete_and_paste(outer, hmux, tmux, muxdir):
    h, t = _pair(outer, hmux, tmux, muxdir)
    for m in (hmux, tmux):
        m.ok("set-buffer", "-b", "named", "hello\nworld\ttab")
        m.ok("set-buffer", "first")
        m.ok("set-buffer", "second one")
    _keys(outer, (h, t), "C-b", "=")  # choose-buffer -Z: newest first, preview of each
    wait_for(lambda: _state(hmux) == "buffer-mode|1\n")
    _keys(outer, (h, t), "j", "j", "k", "O", "O", "r", "O")  # by size, reversed, by time
    _keys(outer, (h, t), "d")  # delete the current buffer
    names = "#{buffer_name}"
    wait_for(lambda: hmux.ok("list-buffers", "-F", names) == tmux.ok("list-buffers", "-F", names)
             and hmux.ok("list-buffers", "-F", names).count("\n") == 2)
    _same(outer, h, t)
    _keys(outer, (h, t), "j", "Enter")  # paste "named" into the pane (cat echoes it)
    wait_for(lambda: "hello" in outer.screen(h)[0])
    _same(outer, h, t)
    assert hmux.capture("c") == tmux.capture("c")


def test_choose_client_preview_and_detach(outer, hmux, tmux, muxdir):
    h, t = _pair(outer, hmux, tmux, muxdir)
    _keys(outer, (h, t), "C-b", "D")  # choose-client -Z: this client, its status line
    wait_for(lambda: _state(hmux) == "client-mode|1\n")
    _keys(outer, (h, t), "O", "r", "v", "v")
    _keys(outer, (h, t), "Enter")  # detach-client -t <tty>
    wait_for(lambda: "[detached (from session c)]" in "\n".join(outer.screen(h)))
    wait_for(lambda: "[detached (from session c)]" in "\n".join(outer.screen(t)))
    assert hmux.ok("list-clients") == tmux.ok("list-clients") == ""


DETACHED = [
    ("new", "-d", "-s", "a", "-x", "80", "-y", "24", "cat"),
    ("neww", "-d", "-t", "a", "-n", "two", "cat"),
    ("choose-tree", "-t", "nosuch"),
    ("choose-buffer", "-t", "a"),  # no buffers: no mode
    ("choose-client", "-t", "a"),  # no clients: no mode
    ("display", "-p", "-t", "a", "#{pane_in_mode}"),
    ("choose-tree", "-t", "a", "-s"),
    ("display", "-p", "-t", "a", "#{pane_in_mode} #{pane_mode} [#{copy_cursor_x}]"),
    ("send-keys", "-t", "a", "j", "Enter"),  # no client: the mode does not get them
    ("display", "-p", "-t", "a", "#{pane_in_mode} #{pane_mode} #{window_index}"),
    ("set-buffer", "xyz"),
    ("choose-buffer", "-t", "a"),
    ("copy-mode", "-t", "a"),
    ("choose-buffer", "-t", "a"),  # already on the stack: back on top
    ("display", "-p", "-t", "a", "#{pane_in_mode} #{pane_mode}"),
    ("send-keys", "-t", "a", "-X", "cancel"),
    ("find-window", "-t", "a", "two"),
    ("display", "-p", "-t", "a", "#{pane_in_mode} #{pane_mode}"),
    ("find-window", "-t", "a"),
    ("find-window", "-Z", "-r", "-i", "-t", "a", "x"),
    ("choose-tree", "-t", "a", "-O", "bogus", "-F", "#{session_name}", "-K", "#{line}",
     "display %%"),
    ("display", "-p", "#{tree_mode_format}"),
    ("display", "-p", "#{buffer_mode_format}|#{client_mode_format}"),
    ("choose-client", "-x"),
]


def test_detached_commands_match_tmux(hmux, tmux):
    for argv in DETACHED:
        a, b = hmux(*argv), tmux(*argv)
        assert (a.rc, a.out, a.err) == (b.rc, b.out, b.err), argv


def test_mouse_picks_lines_and_preview_windows(outer, hmux, tmux, muxdir):
    """With mouse on, a click (MouseDown1Pane: send -M) makes a line current; a click in
    the preview chooses."""
    from test_mouse import _inject, _sgr

    def click(x: int, y: int, times: int = 3) -> None:
        # Three clicks in one write are a click, a second and a triple click whatever the
        # timing, and leave no click pending (server_client_check_mouse): the next is a
        # click again. The tree takes the first; the other two do nothing in it.
        data = (_sgr(0, x, y) + _sgr(0, x, y, release=True)) * times
        for target in (h, t):
            _inject(outer, target, data)

    h, t = _pair(outer, hmux, tmux, muxdir)
    for m in (hmux, tmux):
        m.ok("set", "-g", "mouse", "on")
    _keys(outer, (h, t), "C-b", "w")
    wait_for(lambda: _state(hmux) == "tree-mode|1\n")
    click(5, 3)  # line 3: session other
    for m in (hmux, tmux):
        wait_for(lambda m=m: "other (sort" in "\n".join(outer.screen(h if m is hmux else t)))
    _same(outer, h, t)
    click(5, 2)  # window two, expanded: its panes side by side in the preview
    _keys(outer, (h, t), "l")
    # A click on a pane in the preview makes it current and is Enter on it: window two's
    # second pane (3.7b). tmux's item is freed when the click has to expand the line first,
    # so only an expanded line is clicked through.
    click(60, 16, times=1)
    for m in (hmux, tmux):
        wait_for(lambda m=m: _where(m) == "c:1.1 0\n")
    assert _state(hmux) == _state(tmux) == "|0\n"


def test_search_zoom_and_unzoom(outer, hmux, tmux, muxdir):
    """-Z zooms a pane of a split window for the mode and unzooms it after; / searches
    names (the next match with n); the last buffer deleted ends buffer mode."""
    h, t = _pair(outer, hmux, tmux, muxdir)
    for m in (hmux, tmux):
        m.ok("select-window", "-t", "c:1")
        wait_for(lambda m=m: _where(m) == "c:1.0 0\n")
    for target in (h, t):
        outer.keys(target, "C-b")
    _keys(outer, (h, t), "s")
    for m in (hmux, tmux):
        wait_for(lambda m=m: _where(m) == "c:1.0 1\n")  # zoomed for the mode
    _same(outer, h, t)
    _keys(outer, (h, t), "/")
    for target in (h, t):
        outer.keys(target, "-l", "o1")
    _keys(outer, (h, t), "Enter")  # session other expanded, window o1 current
    _keys(outer, (h, t), "n")
    for target in (h, t):
        outer.keys(target, "q")
    for m in (hmux, tmux):
        wait_for(lambda m=m: _where(m) == "c:1.0 0\n")  # unzoomed again
    _same(outer, h, t)
    for m in (hmux, tmux):
        m.ok("set-buffer", "only")
    for target in (h, t):
        outer.keys(target, "C-b")
    _keys(outer, (h, t), "=")
    for target in (h, t):
        outer.keys(target, "d")  # no buffer left: the mode ends
    for m in (hmux, tmux):
        wait_for(lambda m=m: _state(m) == "|0\n" and _where(m) == "c:1.0 0\n")
    wait_for(lambda: outer.screen(h) == outer.screen(t))


def test_right_click_menu(outer, hmux, tmux, muxdir):
    """A right click on a line (MouseDown3Pane: send -M in a tree mode) opens the mode's
    menu for it; an item's key runs that key on that line."""
    from test_mouse import _inject, _sgr

    h, t = _pair(outer, hmux, tmux, muxdir)
    for m in (hmux, tmux):
        m.ok("set", "-g", "mouse", "on")
    _keys(outer, (h, t), "C-b", "w")
    wait_for(lambda: _state(hmux) == "tree-mode|1\n")
    for target in (h, t):
        _inject(outer, target, _sgr(2, 10, 3))  # pressed, not released: the menu stays
    wait_for(lambda: "Kill Tagged" in "\n".join(outer.screen(h)))
    _same(outer, h, t)
    _keys(outer, (h, t), "t")  # Tag: session other tagged, the menu gone
    wait_for(lambda: "Kill Tagged" not in "\n".join(outer.screen(h)))
    _same(outer, h, t)


def test_options_groups_resize_and_bad_command(outer, hmux, tmux, muxdir):
    """-F, -K, -O, -r, -N and -G (grouped sessions shown, not squashed) as given from the
    command line; the tree follows a resize; a template that does not parse is shown as an
    error on the status line."""
    h, t = _pair(outer, hmux, tmux, muxdir)
    fmt = "#{?pane_format,P#{pane_index},#{?window_format,W#{window_name},S#{session_name}}}"
    keyfmt = "#{?#{e|<:#{line},3},#{a:#{e|+:65,#{line}}},}"
    for m in (hmux, tmux):
        m.ok("new-session", "-d", "-s", "zgrp", "-t", "other")
        m.ok("choose-tree", "-t", "c", "-G", "-O", "name", "-r", "-F", fmt, "-K", keyfmt,
             "nosuchcommand '%%'")
    _same(outer, h, t)
    for m in (hmux, tmux):
        m.ok("send-keys", "-t", "c", "q")
        m.ok("choose-tree", "-t", "c", "-N", "-s")  # squashed groups, no preview
    _same(outer, h, t)
    for m in (hmux, tmux):
        m.ok("send-keys", "-t", "c", "q")
        m.ok("choose-tree", "-t", "c", "-G", "-O", "name", "-r", "-F", fmt, "-K", keyfmt,
             "nosuchcommand '%%'")
    outer.mux.ok("resize-window", "-t", h, "-x", "60", "-y", "18")
    outer.mux.ok("resize-window", "-t", t, "-x", "60", "-y", "18")
    for m in (hmux, tmux):
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "c", "#{window_width}") == "60\n")
    _same(outer, h, t)
    for m in (hmux, tmux):
        m.ok("set", "-g", "display-time", "0")  # the message stays until a key
    for target in (h, t):
        outer.keys(target, "B")  # the second line's key: Enter with a bad template
    wait_for(lambda: "Unknown command: nosuchcommand" in "\n".join(outer.screen(h)))
    # Cells only: tmux hides the cursor while a message shows (TTY_NOCURSOR), hmux not yet.
    wait_for(lambda: _norm(_cells(outer, h)) == _norm(_cells(outer, t)))
