"""Pastes on a terminal that cannot bracket them (assume-paste-time), against tmux 3.7b: keys
that come closer together than the option's time, after the first fast one, are text for the
pane, not keys for the bindings."""

from __future__ import annotations

import time

from harness import HMUX, TMUX, wait_for
from test_attach import outer  # noqa: F401 - the fixture


def _burst(outer, m, name: str, term: str) -> tuple[str, str]:  # noqa: F811
    m.ok("new-session", "-d", "-s", "m", "-x", "80", "-y", "23", "cat")
    m.ok("bind", "-n", "x", "set", "-ga", "@ran", "x")
    m.ok("set", "-g", "@ran", "")
    if term == "screen":  # VT100-like terminals are taken to bracket pastes: this one cannot
        m.ok("set", "-as", "terminal-overrides", ",screen:Enbp@")
    argv0 = HMUX if m.argv0 == HMUX else [TMUX]
    t = outer.run(["env", f"TERM={term}", *argv0, *m.socket_args, "attach", "-t", "m"], name)
    wait_for(lambda: "[m]" in outer.screen(t)[-1])
    outer.keys(t, "-l", "xxxxxx")  # one write: six keys in the same read
    wait_for(lambda: m.ok("show", "-gv", "@ran") != "\n")
    # the pasted part reaches cat; the bound part ran (each once)
    wait_for(lambda: "x" in m.ok("capture-pane", "-p", "-t", "m") or term != "screen")
    return m.ok("show", "-gv", "@ran"), m.ok("capture-pane", "-p", "-t", "m").strip()


def test_fast_keys_are_a_paste_without_bracketed_paste(outer, hmux, tmux):  # noqa: F811
    got = [_burst(outer, m, n, "screen") for m, n in ((tmux, "t"), (hmux, "h"))]
    assert got[0] == got[1]
    assert got[0] == ("xx\n", "xxxx")


def test_a_terminal_with_bracketed_paste_never_guesses(outer, hmux, tmux):  # noqa: F811
    got = [_burst(outer, m, n, "xterm-256color") for m, n in ((tmux, "t"), (hmux, "h"))]
    for m in (tmux, hmux):
        wait_for(lambda m=m: m.ok("show", "-gv", "@ran") == "xxxxxx\n")
    assert got[0][1] == got[1][1] == ""


def test_a_paste_end_marker_cut_in_two(outer, hmux, tmux):  # noqa: F811
    """tmux 3.7: after part of ESC [ 201 ~ the rest is waited for half a second (not
    escape-time), so the marker is not taken for keys and the paste ends."""
    shown = {}
    for m, name in ((tmux, "t"), (hmux, "h")):
        m.ok("new-session", "-d", "-s", "m", "-x", "80", "-y", "23", "cat -v")
        argv0 = HMUX if m.argv0 == HMUX else [TMUX]
        t = outer.run([*argv0, *m.socket_args, "attach", "-t", "m"], name)
        wait_for(lambda t=t: "[m]" in outer.screen(t)[-1])
        hexes = [f"{c:02x}" for c in b"\x1b[200~hello\x1b[20"]
        outer.mux.ok("send-keys", "-t", t, "-H", *hexes)
        time.sleep(0.1)  # the gap under test: longer than escape-time, shorter than 500 ms
        outer.mux.ok("send-keys", "-t", t, "-H", *(f"{c:02x}" for c in b"1~x\r"))
        wait_for(lambda m=m: "x" in m.ok("capture-pane", "-p", "-t", "m"))
        shown[name] = m.ok("capture-pane", "-p", "-t", "m").strip()
    assert shown["h"] == shown["t"] == "hellox\nhellox"


def test_osc52_from_a_popup_becomes_a_buffer(outer, hmux, tmux):  # noqa: F811
    """tmux 3.6: OSC 52 written by a popup's command sets the clipboard (a paste buffer)."""
    got = []
    for m, name in ((tmux, "t"), (hmux, "h")):
        m.ok("new-session", "-d", "-s", "m", "-x", "80", "-y", "23", "cat")
        m.ok("set", "-s", "set-clipboard", "on")
        argv0 = HMUX if m.argv0 == HMUX else [TMUX]
        t = outer.run([*argv0, *m.socket_args, "attach", "-t", "m"], name)
        wait_for(lambda t=t: "[m]" in outer.screen(t)[-1])
        client = m.ok("list-clients", "-F", "#{client_name}").strip()
        m.ok("display-popup", "-c", client, "-E", r"printf '\033]52;c;aGVsbG8=\007'")
        wait_for(lambda m=m: m.ok("list-buffers", "-F", "#{buffer_sample}") != "")
        got.append(m.ok("list-buffers", "-F", "#{buffer_sample}"))
    assert got[0] == got[1] == "hello\n"
