"""What hmux asks an attached client's terminal and how it reads the answers, against tmux 3.7b.

The client's terminal is a pane of an outer tmux 3.7b server, which answers as a terminal
would: its window-style gives the colours it reports for OSC 10/11 and decides its theme (DSR
996, and mode 2031 reports when the style changes), its pane-colours answer OSC 4 and its top
buffer answers OSC 52. The same thing is done with hmux and with tmux 3.7b as the inner
multiplexer, and what panes, formats, hooks and buffers of each saw must be the same.
"""

from __future__ import annotations

import os
import struct
import sys
import time
import uuid

import pytest
from harness import HMUX, TMUX, Mux, base_env, wait_for

from hmux_core.screen import available_engines

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "query_probe.py")
LIGHT = "fg=#102030,bg=#f0f0f0"
DARK = "fg=#f0f0f0,bg=#101010"

#: Records what a pane's program reads for a while, after turning theme reports (2031) on.
RECORDER = (
    "import os, sys, select, time, tty\n"
    "tty.setraw(0)\n"
    "os.write(1, b'\\x1b[?2031h')\n"
    "open(sys.argv[1] + '.started', 'w').close()\n"
    "got, end = b'', time.time() + float(sys.argv[2])\n"
    "while time.time() < end:\n"
    "    if select.select([0], [], [], 0.1)[0]:\n"
    "        got += os.read(0, 4096)\n"
    "open(sys.argv[1] + '.tmp', 'w').write(repr(got))\n"
    "os.rename(sys.argv[1] + '.tmp', sys.argv[1])\n"
)


@pytest.fixture(autouse=True, params=available_engines())
def engine(hmux, request) -> str:
    """Each installed emulator engine: what panes ask and are told goes through both."""
    hmux.env["HMUX_ENGINE"] = request.param
    return request.param


def _ours(replies: str, engine: str) -> str:
    """The probe's record; with the native engine only the answers this file is about (its
    other differences from tmux are listed in tests/engines.py)."""
    if engine == "python":
        return replies
    return "\n".join(line for line in replies.split("\n")
                     if line.startswith(("OSC", "DSR 996", "DA1:", "DSR 5")))


class Outer:
    """A tmux 3.7b server whose panes are the terminals of the clients under test."""

    def __init__(self, muxdir: str) -> None:
        env = base_env(muxdir)
        self.mux = Mux([TMUX], ["-L", "o" + uuid.uuid4().hex[:8]], env, cwd=env["HOME"])
        self.mux.ok("new-session", "-d", "-s", "o", "-x", "80", "-y", "24", "exec sleep 100000")
        for opt in (["set", "-g", "default-terminal", "tmux-256color"],
                    ["set", "-g", "window-style", LIGHT],
                    ["set", "-g", "pane-colours[1]", "#123456"],
                    ["set", "-s", "set-clipboard", "on"],
                    ["set-buffer", "outer clip"]):
            self.mux.ok(*opt)

    def run(self, argv: list[str], name: str) -> str:
        cmd = " ".join("'" + a.replace("'", "'\\''") + "'" for a in argv) + "; exec sleep 100000"
        self.mux.ok("new-window", "-d", "-t", "o", "-n", name, cmd)
        return f"o:{name}"


@pytest.fixture
def outer(muxdir, request) -> Outer:
    o = Outer(muxdir)
    request.addfinalizer(o.mux.kill)
    return o


def _attach(outer: Outer, m: Mux, name: str, setup: list[list[str]]) -> None:
    """``m`` with a session "main" attached in an outer pane, after ``setup``."""
    m.ok("new-session", "-d", "-s", "main", "-x", "80", "-y", "23", "exec sleep 100000")
    for cmd in setup:
        m.ok(*cmd)
    argv0 = HMUX if m.argv0 == HMUX else [TMUX]
    outer.run(argv0 + m.socket_args + ["attach", "-t", "main"], name)
    wait_for(lambda: m.ok("list-clients", "-F", "#{client_name}").strip())


def _theme(m: Mux) -> str:
    return m.ok("display", "-p", "-t", "main", "#{client_theme}").strip()


CLIPBOARD = {
    "request": [["set", "-s", "set-clipboard", "on"], ["set", "-s", "get-clipboard", "request"]],
    "both": [["set", "-s", "set-clipboard", "on"], ["set", "-s", "get-clipboard", "both"],
             ["set-buffer", "inner clip"]],
    "buffer": [["set", "-s", "set-clipboard", "on"], ["set-buffer", "inner clip"]],
}


@pytest.mark.parametrize("clipboard", list(CLIPBOARD))
def test_queries_answered_by_the_client_terminal(outer, hmux, tmux, tmp_path, clipboard,
                                                engine):
    """OSC 10/11 from the colours the terminal reported at attach, OSC 4 and OSC 52 asked of
    the terminal when nothing in the server answers (3.7b), later answers waiting behind."""
    seen = {}
    for m, name in ((tmux, "t"), (hmux, "h")):
        _attach(outer, m, name, CLIPBOARD[clipboard])
        wait_for(lambda m=m: _theme(m) == "light")
        out = tmp_path / f"{name}.replies"
        m.ok("respawn-pane", "-k", "-t", "main",
             f"{sys.executable} {PROBE} {out}; exec sleep 100001")
        wait_for(lambda out=out: out.exists(), timeout=90)
        seen[name] = (_ours(out.read_text(), engine),
                      m.ok("list-buffers", "-F", "#{buffer_name}=#{buffer_sample}"))
    assert seen["h"] == seen["t"]
    replies = seen["t"][0]
    assert "OSC 10: b'\\x1b]10;rgb:1010/2020/3030\\x07'" in replies
    assert "OSC 11: b'\\x1b]11;rgb:f0f0/f0f0/f0f0\\x1b\\\\'" in replies
    assert "OSC 4 unset: b'\\x1b]4;1;rgb:1212/3434/5656\\x07'" in replies
    assert "DSR 996: b'\\x1b[?997;2n'" in replies
    outer_clip = "b3V0ZXIgY2xpcA=="  # "outer clip"
    assert (outer_clip in replies) == (clipboard != "buffer")


def _popup_shown(outer: Outer, name: str) -> bool:
    """The client in outer window ``name`` draws a popup (its frame's top left corner)."""
    screen = outer.mux.ok("capture-pane", "-p", "-t", f"o:{name}")
    return "┌" in screen


def test_theme_reports_hooks_and_panes_that_asked(outer, hmux, tmux, tmp_path):
    """The terminal's theme reports (mode 2031) set #{client_theme} and run the
    client-light-theme / client-dark-theme hooks; its colours are asked again and panes with
    mode 2031 on are told their new theme. A popup open on the client does not stop them."""
    setup = [["set-hook", "-g", "client-light-theme", "set -ga @log L"],
             ["set-hook", "-g", "client-dark-theme", "set -ga @log D"],
             ["bind", "-n", "F5", "set @popup 1 ; display-popup -E 'sleep 100'"]]
    seen = {}
    for m, name in ((tmux, "t"), (hmux, "h")):
        outer.mux.ok("set", "-g", "window-style", LIGHT)
        _attach(outer, m, name, setup)
        wait_for(lambda m=m: _theme(m) == "light")
        rec = tmp_path / f"{name}.rec"
        script = tmp_path / "rec.py"
        script.write_text(RECORDER)
        m.ok("respawn-pane", "-k", "-t", "main",
             f"{sys.executable} {script} {rec} 6; exec sleep 100001")
        wait_for(lambda rec=rec: os.path.exists(f"{rec}.started"))
        outer.mux.ok("set", "-g", "window-style", DARK)
        wait_for(lambda m=m: _theme(m) == "dark")
        outer.mux.ok("send-keys", "-t", f"o:{name}", "F5")  # the popup opens
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "main", "#{@popup}") == "1\n")
        wait_for(lambda name=name: _popup_shown(outer, name))
        outer.mux.ok("set", "-g", "window-style", LIGHT)
        wait_for(lambda m=m: _theme(m) == "light")
        assert _popup_shown(outer, name)
        wait_for(lambda rec=rec: rec.exists(), timeout=20)
        seen[name] = (rec.read_text(), m.ok("show", "-gv", "@log"))
        outer.mux.ok("kill-window", "-t", f"o:{name}")
    assert seen["h"] == seen["t"]
    assert seen["t"][0] == repr(b"\x1b[?997;1n\x1b[?997;2n")
    assert seen["t"][1].startswith("L") and "DL" in seen["t"][1]


def test_refresh_client_l_reads_the_terminal_clipboard(outer, hmux, tmux):
    """refresh-client -l asks the terminal for its clipboard; its answer is a new buffer."""
    seen = {}
    for m, name in ((tmux, "t"), (hmux, "h")):
        _attach(outer, m, name, [["set", "-s", "set-clipboard", "on"]])
        wait_for(lambda m=m: _theme(m) == "light")
        m.ok("refresh-client", "-l")
        wait_for(lambda m=m: m.ok("list-buffers", "-F", "#{buffer_sample}").strip())
        seen[name] = m.ok("list-buffers", "-F", "#{buffer_sample}")
    assert seen["h"] == seen["t"] == "outer clip\n"


class FakeTerminal:
    """A pseudo-terminal whose other end is the test: what the client writes is collected, and
    the test answers as a terminal would. TIOCGWINSZ gives no pixel size."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: str) -> None:
        import pty
        import threading

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the client, attached to this terminal
            os.chdir(cwd)
            os.execvpe(argv[0], argv, env)
        self.size(80, 24)
        self.got = b""
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            self.got += data

    def size(self, cols: int, rows: int, xpixel: int = 0, ypixel: int = 0) -> None:
        import fcntl
        import termios

        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, xpixel, ypixel))

    def resize(self, cols: int, rows: int, xpixel: int = 0, ypixel: int = 0) -> None:
        import signal

        self.size(cols, rows, xpixel, ypixel)
        os.kill(self.pid, signal.SIGWINCH)

    def close(self) -> None:
        import signal

        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
        os.close(self.fd)


def test_cell_size_asked_of_a_terminal_without_pixels(hmux, tmux):
    """tty_resize: TIOCGWINSZ without pixels makes the server ask the terminal (CSI 18 t and
    14 t) on a resize; the answers give #{client_cell_width} and #{client_cell_height}."""
    fmt = ("#{client_cell_width}x#{client_cell_height} #{client_width}x#{client_height} "
           "#{window_cell_width}x#{window_cell_height}")
    seen = {}
    for m in (tmux, hmux):
        m.ok("new-session", "-d", "-s", "main", "-x", "80", "-y", "24", "exec sleep 100000")
        term = FakeTerminal(m.argv0 + m.socket_args + ["attach", "-t", "main"], m.env, m.cwd)
        try:
            wait_for(lambda m=m: m.ok("list-clients", "-F", "#{client_name}").strip())
            shown = []
            mark = 0
            for cols, rows, width in ((80, 24, 8), (70, 20, 10), (60, 18, 12)):
                if cols != 80:
                    mark = len(term.got)
                    term.resize(cols, rows)
                # the attach asks too (the client's first size), and each resize after an answer
                answer = b"\x1b[8;%d;%dt\x1b[4;%d;%dt" % (rows, cols, rows * 20, cols * width)
                asked = [0]

                def answered(m=m, w=width, mark=mark, answer=answer, asked=asked, term=term):
                    # every query gets its answer: a resize can reach the server twice (tmux's
                    # too), and the second query clears what the first answer set
                    n = term.got[mark:].count(b"\x1b[18t\x1b[14t")
                    if n > asked[0]:
                        asked[0] = n
                        os.write(term.fd, answer)
                    return n and m.ok("display", "-p", "#{client_cell_width}") == f"{w}\n"

                wait_for(answered)
                shown.append(m.ok("display", "-p", fmt).strip())
            # a terminal that gives its pixels with its size: the window takes its cell size
            term.resize(50, 15, 50 * 9, 15 * 18)
            wait_for(lambda m=m: m.ok("display", "-p", "#{window_width}") == "50\n")
            shown.append(m.ok("display", "-p", fmt).strip())
            # the pane's program sees the window's cells in pixels (TIOCGWINSZ)
            out = os.path.join(m.cwd, f"winsz-{m is hmux}")
            m.ok("respawn-pane", "-k", "-t", "main", f"{sys.executable} -c \"import fcntl, "
                 f"termios; open('{out}.tmp', 'wb').write(fcntl.ioctl(0, termios.TIOCGWINSZ, "
                 f"bytes(8)))\"; mv {out}.tmp {out}; exec sleep 100000")
            wait_for(lambda out=out: os.path.exists(out))
            with open(out, "rb") as f:
                shown.append(struct.unpack("HHHH", f.read()))
        finally:
            term.close()
        seen[m is hmux] = shown
    assert seen[True] == seen[False]
    # (the window is resized before the terminal answers: it keeps the default cell size)
    assert seen[False] == ["8x20 80x24 16x32", "10x20 70x20 16x32", "12x20 60x18 16x32",
                           "9x18 50x15 9x18", (14, 50, 450, 252)]


def test_style_changes_tell_panes_their_theme(hmux, tmux, tmp_path):
    """window-style and select-pane -P change a pane's background, so a pane with mode 2031 on
    is told its new theme (PANE_THEMECHANGED), with no client attached."""
    script = tmp_path / "rec.py"
    script.write_text(RECORDER)
    seen = {}
    for m, name in ((tmux, "t"), (hmux, "h")):
        rec = tmp_path / f"{name}.rec"
        m.ok("new-session", "-d", "-s", "main", "-x", "80", "-y", "24",
             f"{sys.executable} {script} {rec} 4; exec sleep 100001")
        wait_for(lambda rec=rec: os.path.exists(f"{rec}.started"))
        for cmd in (["set", "-g", "window-style", "bg=white"],
                    ["set", "-g", "window-active-style", "bg=#f8f8f8"],
                    ["select-pane", "-t", "main", "-P", "bg=black"],
                    ["set", "-g", "window-style", "bg=colour231"]):
            m.ok(*cmd)
            time.sleep(0.3)
        wait_for(lambda rec=rec: rec.exists())
        seen[name] = rec.read_text()
    assert seen["h"] == seen["t"]
    assert seen["t"] == repr(b"\x1b[?997;2n\x1b[?997;1n")
