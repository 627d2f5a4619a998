"""Escape sequences that reach beyond the pane, hmux against tmux 3.7b.

Queries: a probe program in a pane sends each query and writes down the exact bytes it reads
back; the files from hmux and tmux must be equal. Names, clipboard and hooks are read back with
commands. What goes to the outer terminal (passthrough, set-titles, clipboard writes) is seen
from an outer tmux server whose pane is the attached client's terminal: the outer pane's title
and buffers show what arrived.
"""

from __future__ import annotations

import os
import re
import sys
import uuid

import pytest
from harness import HMUX, TMUX, Mux, base_env, wait_for

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "query_probe.py")


@pytest.fixture(autouse=True)
def _python_engine(hmux):
    """The tmux-faithful engine: what these tests hold hmux to is tmux 3.7b's input.c."""
    hmux.env["HMUX_ENGINE"] = "python"


def _probe(m: Mux, tmp: str, tag: str, *setup: list[str]) -> str:
    out = os.path.join(tmp, f"{tag}.replies")
    m.ok("new-session", "-d", "-s", "q", "-x", "80", "-y", "24", "exec sleep 100000")
    for cmd in setup:
        m.ok(*cmd)
    m.ok("new-window", "-t", "q:1", f"{sys.executable} {PROBE} {out}; exec sleep 100000")
    wait_for(lambda: os.path.exists(out), timeout=60)
    with open(out) as f:
        return f.read()


SETUPS = {
    "defaults": [],
    "styles and clipboard": [
        ["set", "-s", "set-clipboard", "on"], ["set-buffer", "clip board"],
        ["set", "-g", "window-style", "fg=colour100,bg=#102030"],
        ["set", "-g", "window-active-style", "bg=blue"],
    ],
    "pane-colours": [["set", "-g", "pane-colours[1]", "#102030"],
                     ["set", "-g", "pane-colours[9]", "colour200"]],
    "empty clipboard, inactive style": [
        ["set", "-s", "set-clipboard", "on"], ["set", "-g", "window-style", "bg=red"],
        ["set", "-g", "allow-passthrough", "on"],
    ],
}


@pytest.mark.parametrize("setup", list(SETUPS))
def test_query_replies_match_tmux(hmux, tmux, tmp_path, setup):
    want = _probe(tmux, str(tmp_path), "tmux", *SETUPS[setup])
    got = _probe(hmux, str(tmp_path), "hmux", *SETUPS[setup])
    assert "DA2: b'\\x1b[>84;0;0c'" in want and "TIMEOUT" not in want
    assert got == want


def _run(m: Mux, script: str, *setup: list[str]) -> None:
    m.ok("new-session", "-d", "-s", "e", "-x", "80", "-y", "24", "exec sleep 100000")
    for cmd in setup:
        m.ok(*cmd)
    m.ok("new-window", "-d", "-t", "e:1", f"{script}; exec sleep 100001")
    wait_for(lambda: m.ok("display", "-p", "-t", "e:1", "#{pane_current_command}") == "sleep\n")


NAME = "#{window_name} auto=#{automatic-rename} title=#{pane_title}"


@pytest.mark.parametrize("allow", ["on", "off"])
def test_esc_k_names_the_window_with_allow_rename(hmux, tmux, allow):
    results = []
    for m in (tmux, hmux):
        _run(m, r"printf '\033kmy name\033\\\033]2;the title\007'",
             ["set", "-g", "allow-rename", allow], ["set", "-g", "automatic-rename", "off"])
        results.append(m.ok("display", "-p", "-t", "e:1", NAME))
    assert results[0] == results[1]
    assert ("my name" in results[0]) == (allow == "on")
    assert "title=the title" in results[0]


def test_esc_k_empty_restores_automatic_naming(hmux, tmux):
    results = []
    for m in (tmux, hmux):
        _run(m, r"printf '\033kfirst\033\\'", ["set", "-g", "allow-rename", "on"])
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "e:1", "#{window_name}") == "first\n")
        m.ok("respawn-pane", "-k", "-t", "e:1", r"printf '\033k\033\\'; exec sleep 100002")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "e:1", "#{window_name}") == "sleep\n")
        results.append(m.ok("display", "-p", "-t", "e:1", "#{automatic-rename}")
                       + m.ok("show", "-w", "-t", "e:1"))  # the local value is gone again
    assert results[0] == results[1]
    assert results[0].startswith("1\n") and "automatic-rename" not in results[0]


@pytest.mark.parametrize("mode", ["on", "external", "off"])
def test_osc52_into_a_buffer_and_hook(hmux, tmux, mode):
    results = []
    for m in (tmux, hmux):
        _run(m, r"printf '\033]52;c;aGVsbG8gY2xpcA==\007\033]52;c;!!bad!!\007\033]52;c;\007'",
             ["set", "-s", "set-clipboard", mode],
             ["set-hook", "-g", "pane-set-clipboard", "set -g @clipped '#{hook_pane}'"])
        if mode == "on":
            wait_for(lambda m=m: m.cmd("show", "-gv", "@clipped").out.strip())
        results.append(m.ok("list-buffers", "-F", "#{buffer_name}:#{buffer_sample}")
                       + m.cmd("show", "-gv", "@clipped").out)
    assert results[0] == results[1]
    assert ("hello clip" in results[0]) == (mode == "on")


def test_unknown_and_string_sequences_never_print(hmux, tmux):
    seqs = (r"a\033]1337;X\007b\033]133;A\007c\033]8;;http://x\033\\d\033]8;;\033\\e"
            r"\033P1\$r0m\033\\f\033_apc\033\\g\033^pm\033\\h\033Xsos\033\\i\033[?2026hj"
            r"\033[?2026l\033[99;99zk\033Ptmux;\033\033[31m\033\\l")
    screens = []
    for m in (tmux, hmux):
        _run(m, f"printf '{seqs}'")
        screens.append((m.capture("e:1", "-e"), m.capture("e:1")))
    assert screens[0] == screens[1]
    assert screens[0][1].startswith("abcdefghijkl\n")
    # tmux 3.7b keeps the hyperlink on d and shows it with -e
    assert "c\x1b]8;;http://x\x1b\\d\x1b]8;;\x1b\\e" in screens[0][0]


def test_theme_reports_as_tmux(hmux, tmux):
    """Mode 2031 and DSR 996 (tmux 3.6): a pane's own background decides its theme; an update
    is sent when it changes with the mode on, after what the same read asked for."""
    script = (r"stty raw -echo; printf '\033[5n\033[?2031h\033]11;#ffffff\007'; sleep 0.3; "
              r"printf '\033]11;#000000\007\033[?996n\033]111\007'; sleep 0.3; "
              r"printf '\033[?2031l\033]11;#eeeeee\007\033[?996n'; "
              r"timeout --foreground 1 cat | od -An -c | tr -s ' '")
    screens = []
    for m in (tmux, hmux):
        _run(m, script)
        screens.append(m.capture("e:1"))
    assert screens[0] == screens[1]
    assert "9 9 7 ; 2 n" in screens[0]


# -- the outer terminal ----------------------------------------------------------------------------

class Outer:
    """A tmux server whose 80x24 panes are the terminals of the clients under test."""

    def __init__(self, muxdir: str) -> None:
        env = base_env(muxdir)
        self.mux = Mux([TMUX], ["-L", "o" + uuid.uuid4().hex[:8]], env, cwd=env["HOME"])
        self.mux.ok("new-session", "-d", "-s", "o", "-x", "80", "-y", "24", "exec sleep 100000")
        for opt in (["set", "-g", "default-terminal", "tmux-256color"],
                    ["set", "-g", "allow-passthrough", "on"], ["set", "-s", "set-clipboard", "on"]):
            self.mux.ok(*opt)

    def run(self, argv: list[str], name: str) -> str:
        cmd = " ".join("'" + a.replace("'", "'\\''") + "'" for a in argv) + "; exec sleep 100000"
        self.mux.ok("new-window", "-d", "-t", "o", "-n", name, cmd)
        return f"o:{name}"

    def title(self, target: str) -> str:
        return self.mux.ok("display", "-p", "-t", target, "#{pane_title}").strip()


@pytest.fixture
def outer(muxdir, request) -> Outer:
    o = Outer(muxdir)
    request.addfinalizer(o.mux.kill)
    return o


def _attached(outer: Outer, m: Mux, name: str, setup: list[list[str]], app: str) -> str:
    """``m`` attached in an outer pane, its pane running ``app`` once the client is there."""
    m.ok("new-session", "-d", "-s", "main", "-x", "80", "-y", "23", "exec sleep 100000")
    for cmd in setup:
        m.ok(*cmd)
    argv0 = HMUX if m.argv0 == HMUX else [TMUX]
    target = outer.run(argv0 + m.socket_args + ["attach", "-t", "main"], name)
    wait_for(lambda: m.ok("list-clients", "-F", "#{client_name}").strip())
    m.ok("respawn-pane", "-k", "-t", "main", f"{app}; exec sleep 100001")
    return target


PASS = r"printf '\033Ptmux;\033\033]2;passed through\033\033\\\033\\'"


@pytest.mark.parametrize("allow", ["on", "off"])
def test_passthrough_reaches_the_outer_terminal(outer, hmux, tmux, allow):
    setup = [["set", "-g", "allow-passthrough", allow]]
    h = _attached(outer, hmux, "h", setup, PASS)
    t = _attached(outer, tmux, "t", setup, PASS)
    if allow == "on":
        wait_for(lambda: outer.title(t) == "passed through")
        wait_for(lambda: outer.title(h) == "passed through")
    else:
        for m in (hmux, tmux):
            wait_for(lambda m=m: m.ok("display", "-p", "-t", "main",
                                      "#{pane_current_command}") == "sleep\n")
        # what tmux did not forward cannot arrive later: its client drew the screen already
        wait_for(lambda: "[main]" in outer.mux.ok("capture-pane", "-p", "-t", t))
        assert outer.title(t) == outer.title(h) != "passed through"


def test_passthrough_nested_layer_by_layer(outer, hmux, tmux):
    """app -> hmux (one layer off) -> middle tmux (the next) -> the outer terminal's title."""
    twice = (r"printf '\033Ptmux;\033\033Ptmux;\033\033\033\033]2;two layers\033\033\033\033"
             r"\\\033\033\\\033\\'")
    mid = tmux  # the middle multiplexer is a real tmux attached in the outer pane
    mid.ok("new-session", "-d", "-s", "main", "-x", "80", "-y", "23", "exec sleep 100000")
    mid.ok("set", "-g", "allow-passthrough", "on")
    target = outer.run([TMUX] + mid.socket_args + ["attach", "-t", "main"], "mid")
    wait_for(lambda: mid.ok("list-clients", "-F", "#{client_name}").strip())
    hmux.ok("new-session", "-d", "-s", "inner", "-x", "80", "-y", "22", "exec sleep 100000")
    hmux.ok("set", "-g", "allow-passthrough", "on")
    argv = " ".join(HMUX + hmux.socket_args + ["attach", "-t", "inner"])
    mid.ok("respawn-pane", "-k", "-t", "main", f"{argv}; exec sleep 100001")
    wait_for(lambda: hmux.ok("list-clients", "-F", "#{client_name}").strip())
    hmux.ok("respawn-pane", "-k", "-t", "inner", f"{twice}; exec sleep 100002")
    wait_for(lambda: outer.title(target) == "two layers")


def test_set_titles_and_clipboard_on_the_outer_terminal(outer, hmux, tmux):
    setup = [["set", "-g", "set-titles", "on"], ["set", "-g", "set-titles-string", "T:#S:#W"],
             ["set", "-s", "set-clipboard", "on"], ["rename-window", "-t", "main", "win"],
             ["set", "-g", "automatic-rename", "off"]]
    app = r"printf '\033]52;c;Zm9yd2FyZGVk\007'"
    h = _attached(outer, hmux, "h", setup, app)
    t = _attached(outer, tmux, "t", setup, app)
    wait_for(lambda: outer.title(t) == "T:main:win")
    wait_for(lambda: outer.title(h) == "T:main:win")
    # both clients' terminals got the clipboard write: the outer server made two buffers of it
    wait_for(lambda: outer.mux.ok("list-buffers", "-F", "#{buffer_sample}").split("\n")[:2]
             == ["forwarded", "forwarded"])


MODES = re.compile(rb"\x1b\[\d* q|\x1b\]12;[^\x07]*\x07|\x1b\]112\x07|\x1b\[\?2004[hl]")


def test_cursor_style_colour_and_paste_mode_on_the_outer_terminal(outer, hmux, tmux, tmp_path):
    """tty_update_mode: the active pane's DECSCUSR, OSC 12 and 2004 reach the client's terminal
    (xterm features: cstyle, ccolour, bpaste), and detaching puts the cursor back."""
    app = r"printf '\033[5 q\033]12;#ff0000\007\033[?2004h'"
    seen = {}
    for m, name in ((tmux, "t"), (hmux, "h")):
        log = tmp_path / f"{name}.out"
        m.ok("new-session", "-d", "-s", "main", "-x", "80", "-y", "23", "exec sleep 100000")
        argv0 = HMUX if m is hmux else [TMUX]
        target = outer.run(["env", "TERM=xterm-256color"] + argv0 + m.socket_args
                           + ["attach", "-t", "main"], name)
        outer.mux.ok("pipe-pane", "-O", "-t", target, f"cat >> {log}")
        wait_for(lambda m=m: m.ok("list-clients", "-F", "#{client_name}").strip())
        m.ok("respawn-pane", "-k", "-t", "main", f"{app}; exec sleep 100001")
        # (3.7b turns 2004 on when the terminal starts, which the pipe may miss: wait for the
        # app's own colour instead)
        wait_for(lambda log=log: b"\x1b]12;rgb:ff/00/00\x07" in log.read_bytes()
                 if log.exists() else False)
        m.ok("detach-client", "-s", "main")
        wait_for(lambda log=log: b"\x1b]112\x07" in log.read_bytes())
        found = MODES.findall(log.read_bytes())
        # from the app's first sequence on: what the attach itself sent may or may not be piped
        seen[name] = found[found.index(b"\x1b]12;rgb:ff/00/00\x07"):]
    assert seen["h"] == seen["t"]
    assert b"\x1b[5 q" in seen["t"] and b"\x1b]12;rgb:ff/00/00\x07" in seen["t"]


# -- the client terminal's capabilities ------------------------------------------------------------

FEATURES = ["xterm*:clipboard:ccolour:cstyle:focus:title", "screen*:title"]


def test_terminal_capabilities_from_terminfo_and_features():
    from hmux_core import tty_term

    xterm = tty_term.capabilities("xterm-256color", FEATURES)
    assert xterm["Ms"] == "\x1b]52;%p1%s;%p2%s\x07" and xterm["tsl"] == "\x1b]0;"
    assert xterm["Ss"] == "\x1b[%p1%d q" and xterm["Enbp"] == "\x1b[?2004h"
    assert tty_term.selection_sequence(xterm, b"hi") == b"\x1b]52;;aGk=\x07"
    assert tty_term.title_sequence(xterm, "t") == b"\x1b]0;t\x07"
    # vt100 is VT100-like (clear starts with CSI): title and bracketed paste, no clipboard
    vt = tty_term.capabilities("vt100", [])
    assert "tsl" in vt and "Enbp" in vt and "Ms" not in vt and "Ss" not in vt
    # an unknown terminal has nothing, unless the client asked for features (-T): title
    assert tty_term.capabilities("no-such-term", FEATURES) == {tty_term.FEATURE_LIST: ""}
    title = tty_term.feature_bits("title")  # bit 19 in tmux 3.7b's table
    assert tty_term.title_sequence(tty_term.capabilities("no-such-term", [], title), "x") \
        == b"\x1b]0;x\x07"
    custom = tty_term.capabilities("no-such-term", ["no-such*:clipboard"])
    assert tty_term.selection_sequence(custom, b"") == b"\x1b]52;;\x07"


def test_osc52_decoding_follows_b64_pton():
    from hmux_core.escapes import decode_clipboard

    assert decode_clipboard("c;aGVsbG8=") == b"hello"
    assert decode_clipboard(";aGVs bG8=") == b"hello"  # whitespace is skipped
    assert decode_clipboard("c;!!bad!!") is None
    assert decode_clipboard("c;abc") is None  # shorter than one quantum: nothing to decode
    assert decode_clipboard("c;") is None


def test_alternate_screen_and_scroll_on_clear_options(hmux, tmux):
    """Pane options the emulator applies, set before the pane exists and changed after."""
    app = r"printf 'one\ntwo\033[?1049halt\033[2J'; read x; printf 'x\033[?1049hin alt'"
    results = []
    for m in (tmux, hmux):
        _run(m, "true", ["set", "-g", "alternate-screen", "off"],
             ["set", "-g", "scroll-on-clear", "off"])
        m.ok("respawn-pane", "-k", "-t", "e:1", f"{app}; exec sleep 100003")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "e:1", "#{pane_current_command}")
                 == "sh\n")
        first = m.ok("display", "-p", "-t", "e:1", "#{alternate_on} #{history_size}")
        m.ok("set", "-w", "-t", "e:1", "alternate-screen", "on")
        m.ok("send-keys", "-t", "e:1", "Enter")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "e:1", "#{pane_current_command}")
                 == "sleep\n")
        results.append((first, m.ok("display", "-p", "-t", "e:1", "#{alternate_on}"),
                        m.capture("e:1"), m.capture("e:1", "-a")))
    assert results[0] == results[1]
    assert results[0][0] == "0 0\n" and results[0][1] == "1\n"
