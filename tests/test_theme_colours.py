"""Theme colours (themeblack ... thememagenta, beyond tmux 3.7b) wherever a colour is drawn.

tmux's development tree keeps the symbolic colours in the styles and resolves them for each
client as a cell goes out to its terminal (tty_map_theme_colour): pane borders, window-style,
menus, popups, modes, messages, display-panes, the clock and scrollbars all show the client's
theme. Each case here attaches hmux and the next oracle in panes of an outer tmux and compares
what they drew, colours and all, under theme dark, light and terminal. Seed ("Server option
theme"): "Changes invalidate client colours and redraw without waiting for the status
interval."
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

import pytest
from harness import HMUX, base_env, wait_for
from oracle import ORACLE_NEXT
from test_attach import COLS, ROWS, Outer


@pytest.fixture
def outer(muxdir, request) -> Outer:
    """An outer tmux whose panes are the terminals the clients under test attach in."""
    o = Outer(muxdir, base_env(muxdir))
    request.addfinalizer(o.mux.kill)
    return o


THEMES = ["dark", "light", "terminal"]

#: Options every case starts from: a status line without a clock, so screens compare whole.
BASE = ("set -g status-right ''\nset -g status-style 'fg=black,bg=green'\n"
        "set -g window-status-current-style default\n"
        # the development tree's defaults are in theme colours, 3.7b's (hmux's) are not
        "set -g pane-border-style default\nset -g pane-active-border-style fg=green\n"
        "set -g window-status-current-format '#I'\nset -g window-status-format '#I'\n")


def _clock_free(lines: list[str]) -> list[str]:
    return [re.sub(r"\d\d:\d\d", "TIME", line) for line in lines]


def _attach_both(outer: Outer, hmux, next_tmux, tmp_path, conf: str, theme: str,
                 shell: str = "cat") -> list[tuple[object, str]]:
    """Start a session in each (the same config, ``theme`` set) attached in the outer tmux;
    the (mux, outer target) pairs once both show their status line."""
    path = tmp_path / "theme.conf"
    path.write_text(BASE + f"set -s theme {theme}\n" + conf)
    out = []
    for mux, prog, name in ((hmux, HMUX, "h"), (next_tmux, [ORACLE_NEXT], "n")):
        target = outer.run(prog + mux.socket_args + ["-f", str(path), "new-session", "-s",
                                                     "m", "-x", str(COLS), "-y",
                                                     str(ROWS - 1), shell], name)
        out.append((mux, target))
    for _mux, target in out:
        wait_for(lambda t=target: outer.screen(t)[-1].startswith("[m]"))
    return out


def _same(outer: Outer, pair: list[tuple[object, str]], expect: str | None = None,
          norm: Callable[[list[str]], list[str]] = _clock_free) -> list[str]:
    """Wait until both drew the same, colours and all (``expect``: an SGR that must show)."""
    (_h, ht), (_n, nt) = pair

    def same() -> bool:
        a, b = norm(outer.screen(ht, "-e")), norm(outer.screen(nt, "-e"))
        return a == b and (expect is None or expect in "\n".join(a))
    try:
        wait_for(same, timeout=8)
    except AssertionError:
        a, b = outer.screen(ht, "-e"), outer.screen(nt, "-e")
        diff = [f"{i}:\n h {x!r}\n n {y!r}" for i, (x, y) in enumerate(zip(a, b, strict=True))
                if x != y]
        raise AssertionError("hmux and next differ:\n" + "\n".join(diff)) from None
    return outer.screen(ht, "-e")


def _both(pair: list[tuple[object, str]], *args: str) -> None:
    for mux, _target in pair:
        mux.ok(*args)


@pytest.mark.parametrize("theme", THEMES)
def test_pane_borders(outer, hmux, next_tmux, tmp_path, theme):
    conf = ("set -g pane-border-style 'fg=themered,bg=themedarkgrey'\n"
            "set -g pane-active-border-style 'fg=themegreen,bold'\n"
            "set -g pane-border-status top\n"
            "set -g pane-border-format '#[fg=themecyan]<#{pane_index}>'\n")
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, theme)
    _both(pair, "split-window", "-h", "-t", "m", "cat")
    _both(pair, "split-window", "-v", "-t", "m", "cat")
    _same(outer, pair)


@pytest.mark.parametrize("theme", THEMES)
def test_window_style(outer, hmux, next_tmux, tmp_path, theme):
    conf = ("set -g window-style 'fg=themeyellow,bg=themeblue'\n"
            "set -g window-active-style 'bg=themelightgrey'\n")
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, theme,
                        shell="printf 'plain text\\n'; exec cat")
    _both(pair, "split-window", "-h", "-t", "m", "printf 'other side\\n'; exec cat")
    _same(outer, pair)


def _press(outer: Outer, pair: list[tuple[object, str]], *keys: str) -> None:
    """Type ``keys`` on each attached client's terminal (the bindings under test draw there;
    display-menu and display-popup from a command line would wait for them to close)."""
    for _mux, target in pair:
        outer.keys(target, *keys)


@pytest.mark.parametrize("theme", THEMES)
def test_menu(outer, hmux, next_tmux, tmp_path, theme):
    conf = ("set -g menu-style 'fg=themewhite,bg=themeblack'\n"
            "set -g menu-selected-style 'fg=themeblack,bg=themeyellow'\n"
            "set -g menu-border-style 'fg=thememagenta'\n"
            "bind -n F5 display-menu -x 2 -y 2 -T '#[fg=themered]Title' First f '' "
            "Second s '' '' '-#[fg=themecyan]Off' o ''\n")
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, theme)
    _press(outer, pair, "F5")
    _same(outer, pair, "First")
    _press(outer, pair, "Down")
    _same(outer, pair, "First")


@pytest.mark.parametrize("theme", THEMES)
def test_popup(outer, hmux, next_tmux, tmp_path, theme):
    conf = ("set -g popup-style 'fg=themegreen,bg=themedarkgrey'\n"
            "set -g popup-border-style 'fg=themeblue'\n"
            "bind -n F5 display-popup -x 3 -y 12 -w 30 -h 8 -T '#[fg=themered]T' "
            "\"printf 'in the popup'; sleep 30\"\n")
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, theme)
    _press(outer, pair, "F5")
    _same(outer, pair, "in the popup")


@pytest.mark.parametrize("theme", THEMES)
def test_copy_mode(outer, hmux, next_tmux, tmp_path, theme):
    """mode-style (the selection, the position indicator), the search match styles and the
    mark, all in theme colours."""
    conf = ("set -g mode-style 'fg=themeblack,bg=themeyellow'\n"
            "set -g copy-mode-match-style 'bg=themecyan,fg=themeblack'\n"
            "set -g copy-mode-current-match-style 'bg=thememagenta,fg=themewhite'\n"
            "set -g copy-mode-mark-style 'bg=themered'\n"
            "set -g copy-mode-position-style 'fg=themegreen,reverse'\n"
            "set -g mode-keys vi\n")
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, theme,
                        shell="printf 'alpha beta\\ngamma beta\\ndelta\\n'; exec cat")
    for mux, target in pair:
        wait_for(lambda t=target: "delta" in "\n".join(outer.screen(t)))
        mux.ok("copy-mode", "-t", "m")
        mux.ok("send-keys", "-t", "m", "-X", "search-backward", "beta")
        mux.ok("send-keys", "-t", "m", "-X", "set-mark")
        mux.ok("send-keys", "-t", "m", "-X", "begin-selection")
        mux.ok("send-keys", "-t", "m", "-X", "cursor-right")
        mux.ok("send-keys", "-t", "m", "-X", "cursor-right")
    _same(outer, pair, "beta")


@pytest.mark.parametrize("theme", THEMES)
def test_clock_mode(outer, hmux, next_tmux, tmp_path, theme):
    conf = "set -g clock-mode-colour themered\n"
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, theme)
    _both(pair, "split-window", "-h", "-t", "m", "cat")
    _both(pair, "clock-mode", "-t", "m:0.1")
    _same(outer, pair, "\x1b[4")


@pytest.mark.parametrize("theme", THEMES)
def test_choose_tree_selection(outer, hmux, next_tmux, tmp_path, theme):
    """mode-style on choose-tree's current line. (The development tree also draws the tree's
    lines and markers in theme colours of its own and with other arrows: only the current
    line's colours are compared.)"""
    conf = "set -g mode-style 'fg=themewhite,bg=themeblue'\n"
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, theme)
    _both(pair, "choose-tree", "-t", "m", "-N")

    def selected(target: str) -> str:
        cur = [x for x in outer.screen(target, "-e") if "(1)" in x]  # the window's line
        return cur[0].split("(")[0] if cur else ""
    got = [wait_for(lambda t=t: selected(t)) for _mux, t in pair]
    assert got[0] == got[1]


@pytest.mark.parametrize("theme", THEMES)
def test_message_and_prompt(outer, hmux, next_tmux, tmp_path, theme):
    conf = ("set -g message-style 'fg=themeblack,bg=themelightgrey'\n"
            "set -g message-command-style 'fg=themeyellow,bg=themeblack'\n"
            "set -g display-time 0\n"
            "bind -n F5 display-message 'a #[fg=themered]message'\n")
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, theme)
    _press(outer, pair, "F5")
    _same(outer, pair, "message")
    _press(outer, pair, "Escape")
    _press(outer, pair, "C-b", ":")
    _press(outer, pair, "-l", "typed")
    _same(outer, pair, "typed")
    _press(outer, pair, "Escape")
    _press(outer, pair, "Escape")


@pytest.mark.parametrize("theme", THEMES)
def test_display_panes(outer, hmux, next_tmux, tmp_path, theme):
    # the development tree draws the borders in display-panes-border-style meanwhile
    conf = ("set -gq display-panes-border-style default\n"
            "set -g pane-active-border-style default\n"
            "set -g display-panes-colour themecyan\n"
            "set -g display-panes-active-colour themered\n"
            "set -g display-panes-time 30000\n")
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, theme)
    # (panes of an even width: the development tree centres the numbers of odd ones a
    # column further right)
    _both(pair, "split-window", "-v", "-t", "m", "cat")
    _press(outer, pair, "C-b", "q")
    # Known apart from themes (the same against 3.7b): the blank rows after a pane's size
    # label keep the label's foreground in tmux, the default one in hmux; the foreground
    # resets are left out of the comparison.
    _same(outer, pair, "\x1b[4", lambda lines: [x.replace("\x1b[39m", "") for x in lines])


@pytest.mark.parametrize("theme", THEMES)
def test_scrollbars(outer, hmux, next_tmux, tmp_path, theme):
    conf = ("set -g pane-scrollbars on\n"
            "set -g pane-scrollbars-style 'bg=themedarkgrey,fg=themeyellow,width=1,pad=0'\n")
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, theme,
                        shell="seq 1 60; exec cat")
    _same(outer, pair, "60")


def test_theme_change_redraws_at_once(outer, hmux, next_tmux, tmp_path):
    """set -s theme and a dark-theme-* option draw the client again at once: borders and the
    status line in the new colours without waiting for the status interval."""
    conf = ("set -g status-interval 0\n"
            "set -g pane-border-style 'fg=themered'\n"
            "set -g pane-active-border-style 'fg=themeblue'\n"
            "set -g status-style 'bg=themegreen,fg=themeblack'\n")
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, "dark")
    _both(pair, "split-window", "-h", "-t", "m", "cat")
    first = _same(outer, pair)
    _both(pair, "set", "-s", "theme", "light")
    second = _same(outer, pair)
    assert second != first
    _both(pair, "set", "-s", "light-theme-red", "colour200")
    third = _same(outer, pair, "38;5;200")
    _both(pair, "set", "-s", "theme", "terminal")
    fourth = _same(outer, pair, "\x1b[31m")
    _both(pair, "set", "-su", "light-theme-red")
    _both(pair, "set", "-s", "theme", "light")
    assert _same(outer, pair) == second
    assert len({tuple(x) for x in (first, second, third, fourth)}) == 4


def _fg_code(mux, tty: str, colour: str) -> str:
    """The SGR parameters ``colour`` is drawn with for the client on ``tty`` (``#{c/f:}``)."""
    return mux.ok("display", "-c", tty, "-p", "#{c/f:" + colour + "}").strip()[2:-1]


@pytest.mark.parametrize("kind", ["hmux", "next"])
def test_terminal_reports_redraw(hmux, next_tmux, tmp_path, kind):
    """With theme detect, the terminal's background (an OSC 11 answer) and then its theme
    report (mode 2031) choose the theme; either change draws the borders again at once in the
    new theme's colours, hmux as the development tree."""
    from test_attach_perf import PtyTerminal

    mux = hmux if kind == "hmux" else next_tmux
    conf = tmp_path / "t.conf"
    conf.write_text("set -g pane-border-style fg=themered\n"
                    "set -g pane-active-border-style fg=themered\n")
    mux.ok("-f", str(conf), "new-session", "-d", "-s", "m", "-x", "80", "-y", "23", "cat")
    mux.ok("split-window", "-h", "-t", "m", "cat")
    t = PtyTerminal(mux, ["attach", "-t", "m"], env={"COLORTERM": "truecolor"})  # RGB
    try:
        t.seen = bytearray()
        tty = t.tty
        wait_for(lambda: t.pump() >= 0 and "│" in "\n".join(t.screen.capture()))
        dark = _fg_code(mux, tty, "themered")
        assert dark in t.seen.decode("utf-8", "replace")
        os.write(t.master, b"\x1b]11;rgb:ffff/ffff/ffff\x1b\\")  # a light background
        wait_for(lambda: _fg_code(mux, tty, "themered") != dark)
        light = _fg_code(mux, tty, "themered")
        wait_for(lambda: t.pump() >= 0 and light in t.seen.decode("utf-8", "replace"))
        t.seen.clear()
        os.write(t.master, b"\x1b[?997;1n")  # it reports a dark theme
        wait_for(lambda: _fg_code(mux, tty, "themered") == dark)
        wait_for(lambda: t.pump() >= 0 and dark in t.seen.decode("utf-8", "replace"))
    finally:
        t.close()


@pytest.mark.parametrize("theme", THEMES)
def test_cursor_colour(outer, hmux, next_tmux, tmp_path, theme):
    """cursor-colour and prompt-cursor-colour in theme colours: the terminal's cursor colour
    (OSC 12, read back from the outer pane) is the client's theme's."""
    conf = "set -g cursor-colour themeblue\nset -g prompt-cursor-colour themered\n"
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, theme)

    def colours() -> list[str]:
        return [outer.mux.ok("display", "-p", "-t", t, "#{cursor_colour}").strip()
                for _m, t in pair]
    got = wait_for(lambda: (c := colours())[0] == c[1] and c[0] not in ("", "default") and c)
    _press(outer, pair, "C-b", ":")
    wait_for(lambda: (c := colours())[0] == c[1] and c != got)
    _press(outer, pair, "Escape")
