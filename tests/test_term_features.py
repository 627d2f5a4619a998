"""What the client's terminal can do, worked out as tmux 3.7b does: tmux and hmux attached on
PTYs this test owns, with different TERMs, terminal-features, terminal-overrides and DA/XTVERSION
replies; what each drew is fed to hmux's emulator and the cells (text and SGR state) compared,
or the bytes each sent looked for.

A terminal without RGB gets truecolor as the nearest of the 256 colours; an 8-colour one gets
256 colours as the basic eight (a bright black on black as white) and bright colours as bold; a
terminal that says it is XTerm or tmux in its XTVERSION reply gets RGB (tmux's
tty_default_features), and so does a client whose COLORTERM is truecolor (tmux 3.6).
"""

from __future__ import annotations

import os
import time

import pytest
from harness import wait_for
from test_attach_perf import PtyTerminal

from hmux_core import tty_term
from hmux_core.screen.cells import (
    ATTR_BRIGHT,
    COLOUR_FLAG_256,
    COLOUR_FLAG_RGB,
    colour_find_rgb,
    fit_style,
)

ROWS = [
    # truecolor foreground and background, a grey, an exact cube colour
    r"\033[38;2;255;0;0mred\033[48;2;10;200;30mgreen-bg\033[0m \033[38;2;128;128;128mgrey"
    r"\033[0m \033[38;2;95;135;175mcube\033[0m",
    # 256 colours in the cube, the grey ramp and 0-15
    r"\033[38;5;196mc196\033[48;5;21mb21\033[0m \033[38;5;244mg244\033[0m \033[38;5;9mnine"
    r"\033[48;5;12mtwelve\033[0m",
    # aixterm bright colours, basic colours, attributes
    r"\033[91mbright-red\033[0m \033[102mbright-green-bg\033[0m \033[1;34mbold-blue\033[0m",
    # 256-colour greys on black and white: bright black on black is drawn white with 8 colours
    r"\033[40;38;5;8mgrey-on-black\033[0m \033[47;38;5;15mwhite-on-white\033[0m"
    r" \033[40;38;5;244mramp-on-black\033[0m",
]
SHELL = "printf '" + r"\n".join(ROWS) + r"\nEND\n" + "'; exec cat"


def _features(mux) -> str:
    return mux.ok("list-clients", "-F", "#{client_termfeatures}")


def _attach(mux, term: str, reply: bytes, env: dict[str, str] | None = None) -> PtyTerminal:
    """Attach on a PTY with TERM ``term``; answer tmux's DA requests with ``reply`` and wait
    until the server has taken the features from it."""
    t = PtyTerminal(mux, ["attach", "-t", "c"], env={"TERM": term, **(env or {})})
    t.seen = bytearray()
    if reply:
        wait_for(lambda: t.pump() >= 0 and b"\x1b[>q" in t.seen)
        os.write(t.master, reply)
        wait_for(lambda: "RGB" in _features(mux))
    else:
        wait_for(lambda: mux.ok("list-clients", "-F", "#{client_name}").strip() != "")
    return t


def _drawn(mux, muxdir: str, term: str, conf: str = "", reply: bytes = b"",
           env: dict[str, str] | None = None) -> list[str]:
    path = os.path.join(muxdir, f"colours-{mux.socket_args[1]}.conf")
    with open(path, "w") as f:
        f.write("set -g status off\n" + conf)
    # The colours are drawn only after the features are known: window 1 is selected then.
    mux.ok("-f", path, "new-session", "-d", "-s", "c", "-x", "80", "-y", "24", "exec cat")
    mux.ok("new-window", "-d", "-t", "c:1", SHELL)
    wait_for(lambda: "END" in mux.ok("capture-pane", "-p", "-t", "c:1"))
    t = _attach(mux, term, reply, env)
    try:
        mux.ok("select-window", "-t", "c:1")
        wait_for(lambda: any("END" in line for line in t.lines()))
        return t.screen.capture(escapes=True)
    finally:
        t.close()


CASES = {
    "256-colours-no-rgb": ("xterm-256color", "", b""),
    "8-colours": ("xterm", "", b""),
    "override-Tc": ("xterm-256color", "set -as terminal-overrides ',xterm-256color:Tc'\n", b""),
    "feature-RGB": ("xterm-256color", "set -as terminal-features ',xterm*:RGB'\n", b""),
    "override-removes-rgb": ("xterm-256color", "set -as terminal-features ',xterm*:RGB'\n"
                             "set -as terminal-overrides ',xterm*:setrgbf@'\n", b""),
    "xtversion-xterm": ("xterm-256color", "", b"\x1bP>|XTerm(380)\x1b\\"),
    "da2-tmux": ("xterm", "", b"\x1b[>84;0;0c"),
    "colorterm-truecolor": ("xterm", "", b"", {"COLORTERM": "truecolor"}),
    "colorterm-256": ("xterm", "", b"", {"COLORTERM": "x-256color"}),
    "colorterm-other": ("xterm", "", b"", {"COLORTERM": "yes"}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_drawn_colours_match_tmux(hmux, tmux, muxdir, case):
    term, conf, reply, *env = CASES[case]
    want = _drawn(tmux, muxdir, term, conf, reply, *env)
    got = _drawn(hmux, muxdir, term, conf, reply, *env)
    assert any("red" in line for line in want)
    assert got == want


def test_the_features_learned_are_shown(hmux, tmux):
    """client_termtype and client_termfeatures after an XTVERSION reply, as tmux has them."""
    got = {}
    for name, m in (("hmux", hmux), ("tmux", tmux)):
        m.ok("new-session", "-d", "-s", "c", "-x", "80", "-y", "24", "exec cat")
        t = _attach(m, "xterm-256color", b"\x1bP>|XTerm(380)\x1b\\")
        try:
            got[name] = m.ok("list-clients", "-F", "#{client_termtype}|#{client_termfeatures}")
        finally:
            t.close()
    assert got["hmux"] == got["tmux"]
    assert got["tmux"].startswith("XTerm(380)|")


def test_device_attributes_add_features(hmux, tmux):
    """A DA1 answer of level 1 to 5 lists what the terminal has: sixel (4), DECSLRM (21),
    DECFRA (28) and OSC 52 (52); a DA2 of 41 (VT420) adds nothing in tmux 3.7b."""
    got = {}
    for name, m in (("hmux", hmux), ("tmux", tmux)):
        m.ok("new-session", "-d", "-s", "c", "-x", "80", "-y", "24", "exec cat")
        t = PtyTerminal(m, ["attach", "-t", "c"], env={"TERM": "xterm"})
        try:
            t.seen = bytearray()
            wait_for(lambda t=t: t.pump() >= 0 and b"\x1b[>q" in t.seen)
            assert b"\x1b[c" in t.seen
            os.write(t.master, b"\x1b[?65;1;4;21;28;52c\x1b[>41;0;0c")
            wait_for(lambda m=m: "clipboard" in _features(m))
            got[name] = _features(m)
        finally:
            t.close()
    assert got["hmux"] == got["tmux"]
    assert "margins" in got["tmux"] and "sixel" in got["tmux"]


def test_nearest_colours():
    assert colour_find_rgb(95, 135, 175) == 67 | COLOUR_FLAG_256  # exactly in the cube
    assert colour_find_rgb(128, 128, 128) == 244 | COLOUR_FLAG_256  # the grey ramp is nearer
    assert colour_find_rgb(255, 0, 0) == 196 | COLOUR_FLAG_256
    red = COLOUR_FLAG_RGB | 0xFF0000
    assert fit_style((0, red, 8, 0), True, 256) == (0, red, 8, 0)
    assert fit_style((0, red, 8, 0), False, 256) == (0, 196 | COLOUR_FLAG_256, 8, 0)
    assert fit_style((0, red, 8, 0), False, 16) == (0, 91, 8, 0)
    assert fit_style((0, red, 8, 0), False, 8) == (0, 1, 8, 0)
    # aixterm colours (a background is stored as 90-97 too): bold for a foreground only
    assert fit_style((0, 91, 92, 0), False, 8) == (ATTR_BRIGHT, 1, 2, 0)
    assert fit_style((0, 91, 92, 0), False, 16) == (0, 91, 92, 0)


def test_overrides_and_features_parse():
    caps = tty_term.capabilities("xterm-256color", [], 0, ["xterm*:Tc:Ms=\\E]52;%p1%s;%p2%s\\007"])
    assert tty_term.colour_depth(caps) == (True, 256)
    assert caps["Ms"] == "\x1b]52;%p1%s;%p2%s\x07"
    caps = tty_term.capabilities("xterm", ["xterm:256"])
    assert tty_term.colour_depth(caps) == (False, 256)
    assert tty_term.colour_depth(tty_term.capabilities("xterm", [])) == (False, 8)
    # "::" is a colon inside a field; a pattern that does not match changes nothing
    caps = tty_term.capabilities("xterm", [], 0, ["xterm:tsl=a::b", "vt*:colors@"])
    assert caps["tsl"] == "a:b" and caps["colors"] == "8"


def test_osc7_directory_goes_to_a_terminal_with_the_feature(hmux, tmux, muxdir):
    """server_client_set_path: with set-titles on and the osc7 feature, the active pane's OSC 7
    directory is sent to the terminal (Swd ... fsl)."""
    conf = os.path.join(muxdir, "osc7.conf")
    with open(conf, "w") as f:
        f.write("set -g set-titles on\nset -as terminal-features ',xterm*:osc7'\n")
    want = b"\x1b]7;file://h/some/where\x07"
    for m in (tmux, hmux):
        m.ok("-f", conf, "new-session", "-d", "-s", "c", "-x", "80", "-y", "24", "exec cat")
        t = _attach(m, "xterm-256color", b"")
        try:
            m.ok("run-shell", "-t", "c", "printf '\\033]7;file://h/some/where\\033\\\\' "
                 "> #{pane_tty}")
            wait_for(lambda t=t: t.pump() >= 0 and want in t.seen)
        finally:
            t.close()


def test_bracketed_paste_from_the_terminal(hmux, tmux):
    """tmux 3.7b asks the terminal for bracketed paste; what comes between the markers is
    pasted text (the prefix key in it is not a key), and the markers reach only a pane that
    asked for bracketed paste itself."""
    got = {}
    paste = b"\x1b[200~one\x02ctwo\x1b[201~\r"
    for name, m in (("hmux", hmux), ("tmux", tmux)):
        m.ok("new-session", "-d", "-s", "c", "-x", "80", "-y", "24", "exec cat -v")
        t = PtyTerminal(m, ["attach", "-t", "c"], env={"TERM": "xterm"})
        try:
            t.seen = bytearray()
            wait_for(lambda t=t: t.pump() >= 0 and b"\x1b[>q" in t.seen)
            assert b"\x1b[?2004h" in t.seen
            os.write(t.master, paste)
            wait_for(lambda m=m: "two" in m.capture("c"))
            m.ok("run-shell", "-t", "c", "printf '\\033[?2004h' > #{pane_tty}")
            wait_for(lambda m=m: m.ok("display", "-p", "-t", "c", "#{bracket_paste_flag}")
                     == "1\n")
            os.write(t.master, paste)
            wait_for(lambda m=m: m.capture("c").count("two") == 4)  # the echo and cat's
            got[name] = (m.capture("c").split("\n")[:4],
                         m.ok("list-windows", "-t", "c", "-F", "#I"))
        finally:
            t.close()
    assert got["hmux"] == got["tmux"]
    assert got["tmux"][1] == "0\n"


def test_progress_bar_goes_to_a_terminal_with_the_feature(hmux, tmux):
    """The active pane's OSC 9;4 progress bar is sent on to a terminal with the progressbar
    feature (a tmux outside, here) when it changes (tmux 3.7)."""
    sent = {}
    for name, m in (("hmux", hmux), ("tmux", tmux)):
        m.ok("new-session", "-d", "-s", "c", "-x", "80", "-y", "24", "exec cat")
        t = _attach(m, "xterm-256color", b"\x1b[>84;0;0c")
        try:
            t.seen = bytearray()
            for seq in ("1;42", "3", "0"):
                m.ok("run-shell", "-t", "c", f"printf '\\033]9;4;{seq}\\033\\\\' > #{{pane_tty}}")
                want = f"\x1b]9;4;{seq[0]};".encode()
                wait_for(lambda t=t, want=want: t.pump() >= 0 and want in t.seen)
            sent[name] = [s.split(b"\x1b\\")[0] for s in bytes(t.seen).split(b"\x1b]9;4;")[1:]]
        finally:
            t.close()
    # indeterminate (3) keeps the percentage it had
    assert sent["hmux"] == sent["tmux"] == [b"1;42", b"3;42", b"0;42"]


def test_mouse_on_a_pane_scrollbar(hmux, tmux):
    """A click on a pane scrollbar above the slider pages up (copy-mode -u), below it pages
    down in copy mode (MouseDown1ScrollbarUp/Down)."""
    got = {}
    for name, m in (("hmux", hmux), ("tmux", tmux)):
        m.ok("new-session", "-d", "-s", "c", "-x", "80", "-y", "23", "exec cat")
        m.ok("set", "-g", "mouse", "on")
        m.ok("set", "-g", "pane-scrollbars", "on")
        m.ok("run-shell", "-t", "c", "seq 1 100 > #{pane_tty}")
        t = _attach(m, "xterm-256color", b"")
        try:
            t.pump()
            state = []
            for row in (1, 23):  # the bar is the last column: above, then below the slider
                os.write(t.master, f"\x1b[<0;80;{row}M\x1b[<0;80;{row}m".encode())
                wait_for(lambda m=m, t=t: t.pump() >= 0 and m.ok(
                    "display", "-p", "-t", "c", "#{pane_in_mode}") == "1\n")
                time.sleep(0.3)
                state.append(m.ok("display", "-p", "-t", "c",
                                  "#{pane_in_mode} #{scroll_position} #{pane_width}"))
            got[name] = state
        finally:
            t.close()
    assert got["hmux"] == got["tmux"]
    assert got["tmux"][0].startswith("1 ") and got["tmux"][0] != got["tmux"][1]
