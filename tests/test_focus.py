"""Pane focus as tmux 3.7b: a pane that asked for focus reports (mode 1004) is told when it
gains and loses focus (ESC [ I, ESC [ O), and pane-focus-in / pane-focus-out fire, as the
active pane, the current window, an attached focused client and overlays change."""

from __future__ import annotations

import sys

from harness import wait_for
from test_client_queries import _attach, outer  # noqa: F401 - the fixture

#: Turns focus reports on and appends what the pane reads to a file.
RECORDER = (
    "import os, sys, tty\n"
    "tty.setraw(0)\n"
    "os.write(1, b'\\x1b[?1004h')\n"
    "open(sys.argv[1] + '.started', 'w').close()\n"
    "while True:\n"
    "    data = os.read(0, 4096)\n"
    "    with open(sys.argv[1], 'ab') as f:\n"
    "        f.write(data)\n"
)


def _focus_story(outer, m, name: str, tmp_path) -> tuple[bytes, str]:  # noqa: F811
    script = tmp_path / "rec.py"
    script.write_text(RECORDER)
    rec = tmp_path / f"{name}.rec"
    rec.write_bytes(b"")

    def got(want: bytes) -> bytes:
        try:
            wait_for(lambda: rec.read_bytes() == want, timeout=3)
        except AssertionError:
            raise AssertionError(f"{name}: {rec.read_bytes()!r}") from None
        return rec.read_bytes()

    _attach(outer, m, name, [
        ["set", "-g", "focus-events", "on"],
        ["set-hook", "-g", "pane-focus-in", "set -gaF @log 'in#{hook_pane} '"],
        ["set-hook", "-g", "pane-focus-out", "set -gaF @log 'out#{hook_pane} '"],
    ])
    wait_for(lambda: m.ok("show", "-gv", "@log").strip() == "in%0")
    # the pane had focus from the attach; a new program in it is not told again
    m.ok("respawn-pane", "-k", "-t", "main", f"{sys.executable} {script} {rec}")
    wait_for(lambda: (tmp_path / f"{name}.rec.started").exists())
    m.ok("split-window", "-t", "main", "exec sleep 100000")
    got(b"\x1b[O")
    m.ok("select-pane", "-t", "%0")
    got(b"\x1b[O\x1b[I")
    m.ok("new-window", "-t", "main", "exec sleep 100000")
    got(b"\x1b[O\x1b[I\x1b[O")
    m.ok("last-window", "-t", "main")
    got(b"\x1b[O\x1b[I\x1b[O\x1b[I")
    client = m.ok("list-clients", "-F", "#{client_name}").strip()
    m.ok("display-popup", "-c", client, "-E", "true")  # an overlay over the pane, gone again
    out = got(b"\x1b[O\x1b[I\x1b[O\x1b[I\x1b[O\x1b[I")
    log = m.ok("show", "-gv", "@log").strip()
    return out, log


def test_focus_reports_and_hooks(outer, hmux, tmux, tmp_path):  # noqa: F811
    t = _focus_story(outer, tmux, "t", tmp_path)
    h = _focus_story(outer, hmux, "h", tmp_path)
    assert h == t
    assert t[1].startswith("in%0 ")
