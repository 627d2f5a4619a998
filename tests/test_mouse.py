"""The mouse for attached clients: hmux and tmux 3.3a attached in two panes of an outer tmux,
the same raw SGR mouse reports written into both terminals (outer ``send-keys -H``), and the
results compared: the active pane and window, pane sizes after a border drag, copy mode from
the wheel, a selection dragged into a buffer, a double-clicked word, and the report an
application that asked for the mouse receives. Plus the report decoder on its own."""

from __future__ import annotations

import os
import sys

import pytest
from harness import HMUX, TMUX, base_env, wait_for
from test_attach import ROWS, Outer

from hmux_core import keys as K
from hmux_core.mouse import MouseState, encode_for_pane, parse_report
from hmux_core.tty_keys import KeyDecoder

READER = r"""
import os, sys, termios, tty
tty.setraw(0)
os.write(1, b"\x1b[?1000h\x1b[?1006hREADY\r\n")
while True:
    d = os.read(0, 256)
    if not d:
        break
    for part in d.split(b"\x1b"):  # one report a line, however the reads split them
        if part:
            os.write(1, repr(b"\x1b" + part).encode() + b"\r\n")
"""


@pytest.fixture
def outer(muxdir, request) -> Outer:
    o = Outer(muxdir, base_env(muxdir))
    request.addfinalizer(o.mux.kill)
    return o


def _sgr(b: int, x: int, y: int, release: bool = False) -> bytes:
    """An SGR report for 0-based x, y."""
    return f"\x1b[<{b};{x + 1};{y + 1}{'m' if release else 'M'}".encode()


def _inject(outer: Outer, target: str, data: bytes) -> None:
    """Bytes straight into the attached client's terminal input."""
    outer.mux.ok("send-keys", "-t", target, "-H", *(f"{c:02x}" for c in data))


def _attach(outer, hmux, tmux, setup, mouse: bool = True, want: str | None = None
            ) -> tuple[str, str]:
    """The same session in both, attached in the outer tmux; ``setup(m)`` builds it."""
    targets = []
    for prog, m, name in ((HMUX, hmux, "h"), ([TMUX], tmux, "t")):
        m.ok("new-session", "-d", "-s", "m", "-x", "80", "-y", str(ROWS - 1), "-n", "w", "cat")
        m.ok("set", "-g", "mouse", "on" if mouse else "off")
        m.ok("setw", "-g", "automatic-rename", "off")
        m.ok("set", "-g", "status-right", "R")
        setup(m)
        t = outer.run(prog + m.socket_args + ["attach", "-t", "m"], name)
        wait_for(lambda t=t: "[m]" in outer.screen(t)[-1])
        targets.append(t)
    if want is None:
        want = "11" if mouse else "00"
    for t in targets:
        # The client asked its terminal for mouse reports (button mode, SGR) or not.
        wait_for(lambda t=t: outer.mux.ok("display", "-p", "-t", t, "#{mouse_button_flag}"
                                          "#{mouse_sgr_flag}").strip() == want)
    return targets[0], targets[1]


def _both(outer, pair, data: bytes) -> None:
    for t in pair:
        _inject(outer, t, data)


def _same(hmux, tmux, fmt: str, *args: str, cmd: str = "display") -> str:
    """``fmt`` comes out the same on both (polled: the report is read asynchronously)."""
    def get(m):
        argv = [cmd, "-p", fmt] if cmd == "display" else [cmd, *args]
        if cmd == "display" and args:
            argv = [cmd, "-p", *args, fmt]
        r = m.cmd(*argv)
        return r.out if r.rc == 0 else f"rc={r.rc} {r.err}"

    try:
        wait_for(lambda: get(tmux) == get(hmux), timeout=5)
    except AssertionError:
        raise AssertionError(f"hmux {get(hmux)!r} tmux {get(tmux)!r}") from None
    return get(tmux)


def _two_panes(m) -> None:
    m.ok("split-window", "-h", "-t", "m", "cat")
    m.ok("new-window", "-d", "-t", "m:1", "-n", "x", "cat")


# -- attached clients, compared with tmux ----------------------------------------------------------


def test_click_selects_pane_and_status_selects_window(outer, hmux, tmux):
    def setup(m):
        _two_panes(m)
        # A press of the same button within 300 ms of the last is a second click: bound
        # the same way, the clicks below do not depend on how fast they are handled.
        m.ok("bind", "-n", "SecondClick1Pane", "select-pane", "-t=")
        m.ok("bind", "-n", "SecondClick1Status", "select-window", "-t=")

    pair = _attach(outer, hmux, tmux, setup)
    assert _same(hmux, tmux, "#{pane_index}") == "1\n"
    _both(outer, pair, _sgr(0, 5, 5) + _sgr(0, 5, 5, release=True))
    wait_for(lambda: hmux.ok("display", "-p", "#{pane_index}") == "0\n")
    assert _same(hmux, tmux, "#{pane_index}") == "0\n"
    # A click on window 1's name in the status line selects it.
    line = outer.screen(pair[1])[-1]
    assert outer.screen(pair[0])[-1] == line
    x = line.index("1:x")
    _both(outer, pair, _sgr(0, x + 1, ROWS - 1) + _sgr(0, x + 1, ROWS - 1, release=True))
    wait_for(lambda: hmux.ok("display", "-p", "#{window_index}") == "1\n")
    assert _same(hmux, tmux, "#{window_index}") == "1\n"
    # The wheel on the status line moves between windows.
    _both(outer, pair, _sgr(64, x, ROWS - 1))  # on a window's name: WheelUpStatus
    wait_for(lambda: hmux.ok("display", "-p", "#{window_index}") == "0\n")
    assert _same(hmux, tmux, "#{window_index}") == "0\n"


def test_focus_follows_mouse(outer, hmux, tmux):
    """tmux 3.6: with focus-follows-mouse the terminal is asked for every motion (mode 1003)
    and the pane under a moving mouse becomes active."""
    def setup(m):
        _two_panes(m)
        m.ok("set", "-g", "focus-follows-mouse", "on")

    pair = _attach(outer, hmux, tmux, setup, want="01")  # SGR, not button mode: all motion
    for t in pair:
        wait_for(lambda t=t: outer.mux.ok("display", "-p", "-t", t, "#{mouse_any_flag}")
                 == "1\n")
    assert _same(hmux, tmux, "#{pane_index}") == "1\n"
    _both(outer, pair, _sgr(35, 5, 5))  # a move with no button, over pane 0
    wait_for(lambda: hmux.ok("display", "-p", "#{pane_index}") == "0\n")
    assert _same(hmux, tmux, "#{pane_index}") == "0\n"


def test_click_sequence_restarts_in_another_pane(outer, hmux, tmux):
    """tmux 3.6: a second press within the click time but in another pane is a new first
    click there, not a SecondClick."""
    def setup(m):
        _two_panes(m)
        m.ok("bind", "-n", "SecondClick1Pane", "set", "-gF", "@second", "#{pane_index}")
        m.ok("bind", "-n", "MouseDown1Pane", "set", "-gF", "@down", "#{pane_index}")

    pair = _attach(outer, hmux, tmux, setup)
    _both(outer, pair, _sgr(0, 5, 5) + _sgr(0, 5, 5, release=True) + _sgr(0, 50, 5)
          + _sgr(0, 50, 5, release=True))
    wait_for(lambda: hmux.ok("show", "-gv", "@down") == "1\n")
    assert _same(hmux, tmux, "#{@down}-#{@second}") == "1-\n"
    _both(outer, pair, _sgr(0, 50, 5) + _sgr(0, 50, 5, release=True))
    assert _same(hmux, tmux, "#{@down}-#{@second}") == "1-1\n"


def test_status_ranges_of_every_kind(outer, hmux, tmux):
    """tmux 3.5-3.6: user, pane and session ranges are Status clicks with their pane or
    session as the mouse target, a control range is its own ControlN location, and the
    binding sees #{mouse_status_range} and #{mouse_status_line}."""
    def setup(m):
        _two_panes(m)
        m.ok("set", "-g", "status-format[0]",
             "#[range=user|foo]AAAA#[norange] #[range=pane|%0]BBBB#[norange] "
             "#[range=session|$0]CCCC#[norange] #[range=control|3]DDDD#[norange] [m]")
        for click in ("MouseDown1", "SecondClick1", "TripleClick1"):  # clicks come quickly
            m.ok("bind", "-n", click + "Status", "set", "-gF", "@r",
                 "#{@r}#{mouse_status_range}/#{mouse_status_line}/#{pane_id} ")
            m.ok("bind", "-n", click + "Control3", "set", "-gF", "@r",
                 "#{@r}control/#{mouse_status_range} ")

    pair = _attach(outer, hmux, tmux, setup)
    want = ""
    for x, got in ((1, "foo/0/%1 "), (6, "pane/0/%0 "), (11, "session/0/%1 "),
                   (16, "control/control ")):
        _both(outer, pair, _sgr(0, x, ROWS - 1) + _sgr(0, x, ROWS - 1, release=True))
        want += got
        wait_for(lambda want=want: tmux.ok("show", "-gv", "@r") == want + "\n")
        assert _same(hmux, tmux, "#{@r}") == want + "\n"


def test_status_line_on_top_shifts_the_panes(outer, hmux, tmux):
    def setup(m):
        _two_panes(m)
        m.ok("split-window", "-v", "-t", "m:0.0", "cat")

    pair = _attach(outer, hmux, tmux, setup)
    for m in (hmux, tmux):
        m.ok("set", "-g", "status-position", "top")
    wait_for(lambda: "[m]" in outer.screen(pair[0])[0] and "[m]" in outer.screen(pair[1])[0])
    start = _same(hmux, tmux, "#{pane_index}")
    # Row 1 of the terminal is row 0 of the window: the top-left pane; the bottom row is
    # in the pane below it.
    _both(outer, pair, _sgr(0, 3, 1) + _sgr(0, 3, 1, release=True))
    wait_for(lambda: hmux.ok("display", "-p", "#{pane_index}") != start)
    assert _same(hmux, tmux, "#{pane_index} #{pane_top}") == "0 0\n"
    for m in (hmux, tmux):
        m.ok("bind", "-n", "SecondClick1Pane", "select-pane", "-t=")
        m.ok("bind", "-n", "SecondClick1Status", "select-window", "-t=")
        # The clicks come about 300 ms apart: the last may be a third.
        m.ok("bind", "-n", "TripleClick1Status", "select-window", "-t=")
    _both(outer, pair, _sgr(0, 3, ROWS - 1) + _sgr(0, 3, ROWS - 1, release=True))
    wait_for(lambda: hmux.ok("display", "-p", "#{pane_index}") == "1\n")
    assert _same(hmux, tmux, "#{pane_index}") == "1\n"
    line = outer.screen(pair[1])[0]
    assert outer.screen(pair[0])[0] == line
    x = line.index("1:x")
    _both(outer, pair, _sgr(0, x, 0) + _sgr(0, x, 0, release=True))
    wait_for(lambda: hmux.ok("display", "-p", "#{window_index}") == "1\n")
    assert _same(hmux, tmux, "#{window_index}") == "1\n"


def test_border_drag_resizes_panes(outer, hmux, tmux):
    pair = _attach(outer, hmux, tmux, _two_panes)
    widths = _same(hmux, tmux, "", "-F", "#{pane_width}", cmd="list-panes")
    border = int(widths.split()[0])
    data = _sgr(0, border, 5) + _sgr(32, border - 3, 5) + _sgr(32, border - 9, 6) + \
        _sgr(0, border - 9, 6, release=True)
    _both(outer, pair, data)
    wait_for(lambda: hmux.ok("list-panes", "-F", "#{pane_width}") != widths)
    got = _same(hmux, tmux, "", "-F", "#{pane_width}", cmd="list-panes")
    assert got.split()[0] == str(border - 9)


@pytest.mark.parametrize("where", ["top", "bottom"])
def test_border_drag_with_pane_status_lines(outer, hmux, tmux, where):
    """3.6: horizontal resizing by mouse with pane status lines on (tmux issue 4720): the
    border between side-by-side panes is dragged from a row inside the panes and from the
    row next to the pane status line."""
    def setup(m):
        _two_panes(m)
        m.ok("set", "-g", "pane-border-status", where)

    pair = _attach(outer, hmux, tmux, setup)
    widths = _same(hmux, tmux, "", "-F", "#{pane_width}", cmd="list-panes")
    border = int(widths.split()[0])
    row = 1 if where == "top" else ROWS - 4
    for y, to in ((5, border - 6), (row, border - 10)):
        before = hmux.ok("list-panes", "-F", "#{pane_width}")
        data = _sgr(0, border, y) + _sgr(32, border - 2, y) + _sgr(32, to, y) + \
            _sgr(0, to, y, release=True)
        _both(outer, pair, data)
        wait_for(lambda b=before: hmux.ok("list-panes", "-F", "#{pane_width}") != b)
        got = _same(hmux, tmux, "", "-F", "#{pane_width}", cmd="list-panes")
        assert got.split()[0] == str(to), (y, got)
        border = to


def test_wheel_enters_copy_mode_and_scrolls(outer, hmux, tmux):
    def setup(m):
        m.ok("send-keys", "-t", "m", "-l", "x")  # cat: keep it simple, fill from a printf
        m.ok("respawn-pane", "-k", "-t", "m", "seq 1 100; exec cat")

    pair = _attach(outer, hmux, tmux, setup)
    wait_for(lambda: "100" in hmux.capture("m"))
    wait_for(lambda: "100" in tmux.capture("m"))
    _both(outer, pair, _sgr(64, 10, 10))
    assert _same(hmux, tmux, "#{pane_in_mode} #{scroll_position}") == "1 0\n"
    _both(outer, pair, _sgr(64, 10, 10))
    assert _same(hmux, tmux, "#{pane_in_mode} #{scroll_position}") == "1 5\n"
    _both(outer, pair, _sgr(64, 10, 10) + _sgr(64, 10, 10))
    assert _same(hmux, tmux, "#{pane_in_mode} #{scroll_position}") == "1 15\n"
    _both(outer, pair, _sgr(65, 10, 10))
    assert _same(hmux, tmux, "#{pane_in_mode} #{scroll_position}") == "1 10\n"
    # copy-mode -e: scrolling back to the bottom leaves copy mode.
    _both(outer, pair, _sgr(65, 10, 10) + _sgr(65, 10, 10))
    assert _same(hmux, tmux, "#{pane_in_mode}") == "0\n"


@pytest.mark.parametrize("top", [0, 1])
def test_scrollbar_drag_and_clicks(outer, hmux, tmux, top):
    """tmux 3.6-3.7: the pane scrollbar under the mouse. Dragging the slider enters copy mode
    and scrolls to where it is dropped, a click above or below it pages. With the status line
    and the pane status lines at the top (3.7 fixed the slider's position there, tmux issue
    4738) the terminal's rows are further from the window's."""
    def setup(m):
        m.ok("respawn-pane", "-k", "-t", "m", "seq 1 300; exec cat")
        m.ok("set", "-g", "pane-scrollbars", "on")

    pair = _attach(outer, hmux, tmux, setup)
    if top:
        for m in (hmux, tmux):
            m.ok("set", "-g", "status-position", "top")
            m.ok("set", "-g", "pane-border-status", "top")
        wait_for(lambda: all("[m]" in outer.screen(t)[0] for t in pair))
    for m in (hmux, tmux):
        wait_for(lambda m=m: "300" in m.capture("m"))
    assert _same(hmux, tmux, "#{pane_width} #{pane_top}") == ("79 1\n" if top else "79 0\n")
    bar, last = 79, ROWS - 2 + top  # the bar's column; the pane's last terminal row
    # At the bottom of the history the slider is at the bottom of the bar: drag it up.
    _both(outer, pair, _sgr(0, bar, last) + _sgr(32, bar, last - 4) + _sgr(32, bar, last - 9)
          + _sgr(0, bar, last - 9, release=True))
    wait_for(lambda: hmux.ok("display", "-p", "#{pane_in_mode}") == "1\n")
    first = _same(hmux, tmux, "#{pane_in_mode} #{scroll_position}")
    assert first.split()[0] == "1" and int(first.split()[1]) > 0
    # A click below the slider pages down; above it (the bar's first row) pages up.
    _both(outer, pair, _sgr(0, bar, last) + _sgr(0, bar, last, release=True))
    down = _same(hmux, tmux, "#{pane_in_mode} #{scroll_position}")
    assert down != first
    _both(outer, pair, _sgr(0, bar, top * 2) + _sgr(0, bar, top * 2, release=True))
    up = _same(hmux, tmux, "#{pane_in_mode} #{scroll_position}")
    assert up != down
    # Back at the bottom in copy mode, the slider dragged to the bar's top: the oldest lines.
    # Further up is the status line (or a pane status line) and moves it no more.
    for m in (hmux, tmux):
        m.ok("send-keys", "-t", "m", "-X", "history-bottom")
    assert _same(hmux, tmux, "#{pane_in_mode} #{scroll_position}") == "1 0\n"
    _both(outer, pair, _sgr(0, bar, last) + _sgr(32, bar, last - 3) + _sgr(32, bar, top * 2)
          + _sgr(32, bar, 0) + _sgr(0, bar, 0, release=True))
    for m in (hmux, tmux):
        wait_for(lambda m=m: m.ok("display", "-p", "#{scroll_position}")
                 == m.ok("display", "-p", "#{history_size}"))


def test_drag_selects_into_a_buffer(outer, hmux, tmux):
    def setup(m):
        m.ok("respawn-pane", "-k", "-t", "m",
             "printf 'alpha beta gamma\\ndelta epsilon zeta\\n'; exec cat")

    pair = _attach(outer, hmux, tmux, setup)
    for m in (hmux, tmux):
        wait_for(lambda m=m: "zeta" in m.capture("m"))
    data = _sgr(0, 2, 0) + _sgr(32, 5, 0) + _sgr(32, 8, 1) + _sgr(0, 8, 1, release=True)
    _both(outer, pair, data)
    wait_for(lambda: hmux.cmd("show-buffer").rc == 0)
    assert _same(hmux, tmux, "", cmd="show-buffer") == "pha beta gamma\ndelta ep"
    assert _same(hmux, tmux, "#{pane_in_mode}") == "0\n"


def test_double_click_copies_the_word(outer, hmux, tmux):
    def setup(m):
        m.ok("respawn-pane", "-k", "-t", "m", "printf 'one two-three four\\n'; exec cat")

    pair = _attach(outer, hmux, tmux, setup)
    for m in (hmux, tmux):
        wait_for(lambda m=m: "four" in m.capture("m"))
    click = _sgr(0, 5, 0) + _sgr(0, 5, 0, release=True)
    _both(outer, pair, click + click)
    wait_for(lambda: hmux.cmd("show-buffer").rc == 0)
    assert _same(hmux, tmux, "", cmd="show-buffer") == "two"  # "-" is a word separator


def test_triple_click_copies_the_line(outer, hmux, tmux):
    def setup(m):
        m.ok("respawn-pane", "-k", "-t", "m", "printf 'one two-three four\\n'; exec cat")

    pair = _attach(outer, hmux, tmux, setup)
    for m in (hmux, tmux):
        wait_for(lambda m=m: "four" in m.capture("m"))
    click = _sgr(0, 5, 0) + _sgr(0, 5, 0, release=True)
    _both(outer, pair, click + click + click)
    wait_for(lambda: hmux.cmd("show-buffer").rc == 0)
    assert _same(hmux, tmux, "", cmd="show-buffer") == "one two-three four"


def test_drag_in_copy_mode_selects_from_where_it_started(outer, hmux, tmux):
    def setup(m):
        m.ok("respawn-pane", "-k", "-t", "m", "seq 1 60; exec cat")

    pair = _attach(outer, hmux, tmux, setup)
    for m in (hmux, tmux):
        wait_for(lambda m=m: "60" in m.capture("m"))
    _both(outer, pair, _sgr(64, 3, 3) + _sgr(64, 3, 3))
    assert _same(hmux, tmux, "#{pane_in_mode} #{scroll_position}") == "1 5\n"
    _both(outer, pair, _sgr(0, 0, 2) + _sgr(32, 1, 3) + _sgr(32, 1, 5)
          + _sgr(0, 1, 5, release=True))
    wait_for(lambda: hmux.cmd("show-buffer").rc == 0)
    got = _same(hmux, tmux, "", cmd="show-buffer")
    assert got == "36\n37\n38\n3"  # rows 2 to 5 of the view 5 lines up
    assert _same(hmux, tmux, "#{pane_in_mode}") == "0\n"


def test_application_gets_the_report_in_its_pane(outer, hmux, tmux, muxdir):
    script = os.path.join(muxdir, "reader.py")
    with open(script, "w") as f:
        f.write(READER)

    def setup(m):
        m.ok("split-window", "-h", "-t", "m", f"{sys.executable} {script}")
        wait_for(lambda: "READY" in m.capture("m.1"))

    pair = _attach(outer, hmux, tmux, setup)
    for m in (hmux, tmux):
        assert m.ok("display", "-p", "-t", "m.1", "#{mouse_standard_flag}#{mouse_sgr_flag}") \
            == "11\n"
    x0 = int(hmux.ok("display", "-p", "-t", "m.1", "#{pane_left}"))
    # A press and release in the right pane and a wheel there, in pane coordinates; a drag
    # is not asked for (1000 has no motion).
    data = (_sgr(0, x0 + 3, 4) + _sgr(32, x0 + 4, 4) + _sgr(0, x0 + 4, 4, release=True)
            + _sgr(65, x0 + 7, 2))
    _both(outer, pair, data)
    for m in (hmux, tmux):
        wait_for(lambda m=m: "'\\x1b[<65;8;3M'" in m.capture("m.1"))
    assert hmux.capture("m.1") == tmux.capture("m.1")
    assert "b'\\x1b[<0;4;5M'\nb'\\x1b[<0;5;5m'\nb'\\x1b[<65;8;3M'" in tmux.capture("m.1")


def test_mouse_off_the_active_application_still_gets_reports(outer, hmux, tmux, muxdir):
    script = os.path.join(muxdir, "reader.py")
    with open(script, "w") as f:
        f.write(READER)

    def setup(m):
        m.ok("split-window", "-h", "-t", "m", f"{sys.executable} {script}")
        wait_for(lambda: "READY" in m.capture("m.1"))

    # The active pane asked for 1000 and 1006: so is the terminal, without button mode.
    pair = _attach(outer, hmux, tmux, setup, mouse=False, want="01")
    for t in pair:
        assert outer.mux.ok("display", "-p", "-t", t, "#{mouse_standard_flag}") == "1\n"
    x0 = int(hmux.ok("display", "-p", "-t", "m.1", "#{pane_left}"))
    _both(outer, pair, _sgr(0, x0 + 2, 3) + _sgr(0, x0 + 2, 3, release=True))
    for m in (hmux, tmux):
        wait_for(lambda m=m: "b'\\x1b[<0;3;4m'" in m.capture("m.1"))
    got, want = hmux.capture("m.1"), tmux.capture("m.1")
    assert got == want, f"hmux:\n{got}\ntmux:\n{want}"


def test_mouse_off_reports_are_not_asked_for_or_used(outer, hmux, tmux):
    pair = _attach(outer, hmux, tmux, _two_panes, mouse=False)
    _both(outer, pair, _sgr(0, 5, 5) + _sgr(0, 5, 5, release=True) + b"z")
    for m in (hmux, tmux):
        wait_for(lambda m=m: "z" in m.capture("m.1"))
    assert _same(hmux, tmux, "#{pane_index}") == "1\n"
    assert hmux.capture("m.1") == tmux.capture("m.1")
    # Turned on, the terminal is asked for reports at the next redraw.
    for m in (hmux, tmux):
        m.ok("set", "-g", "mouse", "on")
        m.ok("refresh-client")
    for t in pair:
        wait_for(lambda t=t: outer.mux.ok("display", "-p", "-t", t, "#{mouse_button_flag}")
                 == "1\n")


# -- the decoder -----------------------------------------------------------------------------------


def test_decoder_mouse_reports():
    d = KeyDecoder()
    assert d.feed(b"a\x1b[<0;12;5Mb") == [(97, b"a"), (K.KEYC_MOUSE, b"\x1b[<0;12;5M"),
                                         (98, b"b")]
    # Split across reads: nothing comes out until the report is whole.
    assert d.feed(b"\x1b[<35;1") == []
    assert d.feed(b"00;2") == []
    assert d.feed(b"0mx") == [(K.KEYC_MOUSE, b"\x1b[<35;100;20m"), (120, b"x")]
    assert d.feed(b"\x1b[M") == []
    assert d.feed(b" !") == []
    assert d.feed(b"\"") == [(K.KEYC_MOUSE, b"\x1b[M !\"")]
    # A wheel release (PuTTY) is dropped; malformed reports are not mouse.
    assert d.feed(b"\x1b[<64;3;3m") == []
    keys = d.feed(b"\x1b[<0;0;5M")
    assert keys and keys[0][0] != K.KEYC_MOUSE
    keys = d.feed(b"\x1b[<1a;2;3M", final=True)
    assert all(k != K.KEYC_MOUSE for k, _ in keys)
    keys = d.feed(b"\x1b[M\x10!!", final=True)
    assert all(k != K.KEYC_MOUSE for k, _ in keys)
    # Ordinary CSI keys are untouched.
    assert d.feed(b"\x1b[A") == [(K.string_to_key("Up"), b"\x1b[A")]
    # An unfinished report flushed after escape-time is not a mouse key.
    assert d.feed(b"\x1b[<0;1") == []
    assert all(k != K.KEYC_MOUSE for k, _ in d.feed(b"", final=True))


def test_report_values_and_utf8_mode():
    assert parse_report(b"\x1b[<0;12;5M")[2:] == (0, 11, 4, "M", 0)
    assert parse_report(b"\x1b[<2;1;1m")[2:] == (3, 0, 0, "m", 2)
    assert parse_report(b"\x1b[M !\"")[2:] == (0, 0, 1, " ", 0)
    d = KeyDecoder()
    d.utf8_mouse = True
    # x = 200 needs two UTF-8 bytes in mode 1005.
    raw = b"\x1b[M " + chr(200 + 33).encode() + b"!"
    assert d.feed(raw) == [(K.KEYC_MOUSE, raw)]
    assert parse_report(raw, 0, True)[2:5] == (0, 200, 0)
    st = MouseState()
    m1 = st.event(b"\x1b[<0;3;4M")
    m2 = st.event(b"\x1b[<32;5;4M")
    assert m1 is not None and m2 is not None
    assert (m2.lx, m2.ly, m2.lb, m2.x, m2.b) == (2, 3, 0, 4, 32)


class _Scr:
    def __init__(self, **kw):
        self.mouse_standard = self.mouse_button = self.mouse_any = False
        self.mouse_utf8 = self.mouse_sgr = False
        self.__dict__.update(kw)


def test_encoding_for_the_application():
    st = MouseState()
    press = st.event(b"\x1b[<0;10;10M")
    drag = st.event(b"\x1b[<32;11;10M")
    release = st.event(b"\x1b[<0;11;10m")
    sgr = _Scr(mouse_standard=True, mouse_sgr=True)
    assert encode_for_pane(sgr, press, 2, 3) == b"\x1b[<0;3;4M"
    assert encode_for_pane(sgr, drag, 2, 3) is None  # 1000 has no motion
    assert encode_for_pane(sgr, release, 2, 3) == b"\x1b[<0;3;4m"
    x10 = _Scr(mouse_button=True)
    assert encode_for_pane(x10, drag, 2, 3) == b"\x1b[M@#$"
    assert encode_for_pane(x10, release, 300, 3) == b"\x1b[M#\xff$"  # clamped
    utf8 = _Scr(mouse_standard=True, mouse_utf8=True)
    assert encode_for_pane(utf8, press, 200, 0) == b"\x1b[M \xc3\xa9!"


def test_right_click_menu_follows_the_mouse(outer, hmux, tmux):
    def setup(m):
        m.ok("respawn-pane", "-k", "-t", "m", "printf 'hello world\\n'; exec cat")

    pair = _attach(outer, hmux, tmux, setup)
    for m in (hmux, tmux):
        wait_for(lambda m=m: "world" in m.capture("m"))
    # Button 3 down on a word opens the pane menu there, with the word in it.
    _both(outer, pair, _sgr(2, 1, 0))
    for t in pair:
        wait_for(lambda t=t: "Horizontal Split" in "\n".join(outer.screen(t)))
    wait_for(lambda: outer.screen(pair[0]) == outer.screen(pair[1]))
    rows = outer.screen(pair[1])
    assert any("Copy hello" in r for r in rows)
    y = next(i for i, r in enumerate(rows) if "Horizontal Split" in r)
    x = rows[y].index("Horizontal Split")
    # Held down and moved onto an item, released there: the item runs.
    _both(outer, pair, _sgr(34, x, y - 1) + _sgr(34, x, y) + _sgr(2, x, y, release=True))
    for m in (hmux, tmux):
        wait_for(lambda m=m: m.ok("display", "-p", "#{window_panes}") == "2\n")
    for t in pair:
        wait_for(lambda t=t: "Horizontal Split" not in "\n".join(outer.screen(t)))


def test_meta_drag_moves_a_popup(outer, hmux, tmux):
    def setup(m):
        m.ok("bind", "-n", "F5", "display-popup", "-x", "10", "-y", "12", "-w", "30", "-h",
             "6", "printf 'in the popup'; exec cat")

    pair = _attach(outer, hmux, tmux, setup)
    for t in pair:
        outer.keys(t, "F5")
    for t in pair:
        wait_for(lambda t=t: "in the popup" in "\n".join(outer.screen(t)))
    wait_for(lambda: outer.screen(pair[0]) == outer.screen(pair[1]))
    rows = outer.screen(pair[1])
    top = next(i for i, r in enumerate(rows) if "┌" in r)
    left = rows[top].index("┌")
    # M-button 1 down inside, dragged 7 columns right and 3 rows up, released.
    x, y = left + 3, top + 2
    data = (_sgr(8, x, y) + _sgr(40, x + 1, y) + _sgr(40, x + 7, y - 3)
            + _sgr(8, x + 7, y - 3, release=True))
    _both(outer, pair, data)
    for t in pair:
        wait_for(lambda t=t: "┌" in outer.screen(t)[top - 3])
    wait_for(lambda: outer.screen(pair[0]) == outer.screen(pair[1]))
    assert outer.screen(pair[1])[top - 3].index("┌") == left + 7
    # Button 3 dragged from the bottom-right corner resizes it.
    rows = outer.screen(pair[1])
    top = next(i for i, r in enumerate(rows) if "┌" in r)
    bottom = next(i for i, r in enumerate(rows) if "┘" in r)
    right = rows[bottom].index("┘")
    data = (_sgr(2, right, bottom) + _sgr(34, right - 1, bottom) + _sgr(34, right + 6, bottom + 2)
            + _sgr(2, right + 6, bottom + 2, release=True))
    _both(outer, pair, data)
    for t in pair:
        # The size is up to the mouse: the corner ends one row above it.
        wait_for(lambda t=t: "┘" in outer.screen(t)[bottom + 1])
    wait_for(lambda: outer.screen(pair[0]) == outer.screen(pair[1]))


def test_status_menus_open_where_tmux_opens_them(outer, hmux, tmux):
    pair = _attach(outer, hmux, tmux, _two_panes)
    # Button 3 on the session name (status-left), then on a window's name.
    _both(outer, pair, _sgr(2, 1, ROWS - 1))
    for t in pair:
        wait_for(lambda t=t: "New Session" in "\n".join(outer.screen(t)))
    wait_for(lambda: outer.screen(pair[0]) == outer.screen(pair[1]))
    for t in pair:
        outer.keys(t, "Escape")
    for t in pair:
        wait_for(lambda t=t: "New Session" not in "\n".join(outer.screen(t)))
    x = outer.screen(pair[1])[-1].index("1:x")
    _both(outer, pair, _sgr(2, x, ROWS - 1))
    for t in pair:
        wait_for(lambda t=t: "Swap Left" in "\n".join(outer.screen(t)))
    wait_for(lambda: outer.screen(pair[0]) == outer.screen(pair[1]))
    assert any("1:x" in r for r in outer.screen(pair[1])[:-1])  # the window menu's title


class _Opts(dict):
    def get(self, name, default=None):  # noqa: D102 - the options interface check() reads
        return super().get(name, default)


class _Att:
    """Enough of an attached client for MouseState.check: two panes side by side, 80x24,
    the status line at the bottom with the window list at columns 10-13."""

    def __init__(self):
        from types import SimpleNamespace as NS

        self.w = NS(sx=80, sy=23, zoomed=False, alive=True, active=None,
                    options=_Opts({"pane-scrollbars": "off"}))
        self.left = NS(id=0, xoff=0, yoff=0, sx=40, sy=23, window=self.w)
        self.right = NS(id=1, xoff=41, yoff=0, sx=39, sy=23, window=self.w)
        self.w.panes = [self.left, self.right]
        self.w.active = self.left
        wl = NS(window=self.w, idx=0)
        s = NS(options=_Opts(status="on"), curw=wl, windows={0: wl}, alive=True)
        self.client = NS(session=s)
        self.tty = NS(sx=80, sy=24)
        self.timers = 0

    def status_range(self, x, row):
        return ("window", 0) if 10 <= x < 14 else None

    def arm_click_timer(self):
        self.timers += 1

    def cancel_click_timer(self):
        pass


def _keys(st, att, *reports):
    out = []
    for r in reports:
        m = st.event(r)
        out.append(K.key_to_string(st.check(att, m)))
    return out


def test_check_names_the_keys_like_tmux():
    att = _Att()
    st = MouseState()
    press, release = _sgr(0, 5, 5), _sgr(0, 5, 5, release=True)
    assert _keys(st, att, press, release) == ["MouseDown1Pane", "MouseUp1Pane"]
    assert _keys(st, att, press) == ["SecondClick1Pane"]
    assert _keys(st, att, release, press) == ["MouseUp1Pane", "TripleClick1Pane"]
    st.double = st.triple = False  # the click timer ran out
    # tmux 3.6: a click in another pane, or with another button, starts a new sequence
    other = _sgr(0, 50, 5)
    assert _keys(st, att, press, release, other, _sgr(0, 50, 5, release=True), other) == [
        "MouseDown1Pane", "MouseUp1Pane", "MouseDown1Pane", "MouseUp1Pane", "SecondClick1Pane"]
    assert _keys(st, att, _sgr(2, 50, 5)) == ["MouseDown3Pane"]
    st.double = st.triple = False
    # A drag starts where the button went down (the border); later reports are where the
    # mouse is, and an unmoved one is nothing.
    assert _keys(st, att, _sgr(0, 40, 3), _sgr(32, 38, 3), _sgr(32, 38, 3), _sgr(32, 36, 4),
                 _sgr(0, 36, 4, release=True)) == [
        "MouseDown1Border", "MouseDrag1Border", "Unknown", "MouseDrag1Pane",
        "MouseDragEnd1Pane"]
    st.double = st.triple = False
    assert _keys(st, att, _sgr(64, 11, 23), _sgr(65, 2, 23), _sgr(65 | 8, 50, 1)) == [
        "WheelUpStatus", "WheelDownStatusDefault", "M-WheelDownPane"]
    # Modifiers, the right button, and tmux 3.3a's MouseUp1 for button 10.
    assert _keys(st, att, _sgr(2 | 16, 45, 2)) == ["C-MouseDown3Pane"]
    st.double = st.triple = False
    assert _keys(st, att, _sgr(130, 45, 2), _sgr(130, 45, 2, release=True)) == [
        "MouseDown10Pane", "MouseUp1Pane"]
    # A press of another button while waiting for a second click starts a new sequence
    # (tmux 3.6; 3.3a lost it).
    st.double = st.triple = False
    assert _keys(st, att, _sgr(0, 45, 2), _sgr(1, 45, 2)) == ["MouseDown1Pane",
                                                               "MouseDown2Pane"]
