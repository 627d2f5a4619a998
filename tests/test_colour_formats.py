"""cursor-colour, prompt-cursor-colour and clock-mode-colour as format-valued strings (issue 26).

Seed: "Cursor, prompt cursor and clock colours are format-valued strings. Empty cursor colours
select the terminal default; invalid literal updates are rejected without changing the stored
value. Unlike the 3.7b numeric colour options, these strings retain the supplied spelling when
shown." tmux's development tree has this (its next oracle is the reference for a value set);
with no configuration hmux stays tmux 3.7b (the 3.7b oracle is the reference for the
defaults: none, none and blue, not the development tree's '' and themeblue).

The drawing cases attach hmux and the next oracle in panes of an outer tmux and compare the
cursor colour the outer pane was given (OSC 12, read back as #{cursor_colour}) and the clock
drawn, colours and all.
"""

from __future__ import annotations

import pytest
from harness import base_env, wait_for
from test_attach import Outer
from test_theme_colours import _attach_both, _both, _press, _same

OPTIONS = ("cursor-colour", "prompt-cursor-colour", "clock-mode-colour")


@pytest.fixture
def outer(muxdir, request) -> Outer:
    """An outer tmux whose panes are the terminals the clients under test attach in."""
    o = Outer(muxdir, base_env(muxdir))
    request.addfinalizer(o.mux.kill)
    return o


def _run(mux, commands: list[tuple[str, ...]]) -> list[tuple[int, str, str]]:
    """Each command's exit code, output and error text."""
    out = []
    for args in commands:
        r = mux.cmd(*args)
        out.append((r.rc, r.out, r.err))
    return out


def _flag(option: str) -> str:
    return "-gw" if option == "clock-mode-colour" else "-g"


def test_defaults_are_3_7b(hmux, tmux):
    """Nothing configured: 3.7b's colour numbers, shown and expanded as 3.7b does, and unsetting
    a value set brings them back."""
    commands: list[tuple[str, ...]] = [("new-session", "-d", "-x", "80", "-y", "24")]
    for option in OPTIONS:
        flag = _flag(option)
        commands += [("show", flag, option), ("show", flag + "v", option),
                     ("display", "-p", f"[#{{{option}}}]"),
                     ("set", flag, option, "red"), ("set", flag + "u", option),
                     ("show", flag, option)]
    commands += [("display", "-p", "[#{cursor_colour}]"), ("show", "-g"), ("show", "-gw")]
    assert _run(hmux, commands) == _run(tmux, commands)


VALUES = ["Red", "red", "colour12", "#FF0000", "", "themered", "default", "Brightred",
          "terminal", "#{?pane_active,red,blue}", "bogus", "none", "#{@c}", "Red #{x}",
          "colour999", "RED"]


@pytest.mark.parametrize("option", OPTIONS)
def test_set_values_as_next(hmux, next_tmux, option):
    """Literal, format, bad and empty values: accepted or refused with the same message, the
    stored value kept on a refusal, and shown (quoted as a string) as supplied."""
    flag = _flag(option)
    commands: list[tuple[str, ...]] = [("new-session", "-d", "-x", "80", "-y", "24")]
    for value in VALUES:
        commands += [("set", flag, option, value), ("show", flag, option),
                     ("show", flag + "v", option), ("display", "-p", f"[#{{{option}}}]")]
    # a refusal in a store that held no value of its own leaves the inherited value there
    local = "-w" if option != "prompt-cursor-colour" else ""
    commands += [("set", flag, option, "Green"), ("set", *filter(None, [local]), option, "nope"),
                 ("show", *filter(None, [local]), option), ("set", flag, option, "blue"),
                 ("show", *filter(None, [local]), option),
                 ("set", flag, option, "brigh"), ("set", flag + "a", option, "tred"),
                 ("show", flag, option), ("set", flag + "a", option, "x"),
                 ("show", flag, option)]
    got, want = _run(hmux, commands), _run(next_tmux, commands)
    for args, g, w in zip(commands, got, want, strict=True):
        assert g == w, f"{args}: hmux {g!r}, next {w!r}"


def test_cursor_colour_format_expands_per_pane(hmux, next_tmux):
    """#{cursor_colour}: a format is expanded when the pane is made or the option is set, in a
    format tree of its own (no pane: pane_active is false there), empty is none."""
    commands: list[tuple[str, ...]] = [
        ("new-session", "-d", "-x", "80", "-y", "24"), ("set", "-g", "@c", "Red"),
        ("set", "-g", "cursor-colour", "#{@c}"), ("display", "-p", "#{cursor_colour}"),
        ("set", "-g", "@c", "yellow"), ("display", "-p", "#{cursor_colour}"),
        ("split-window", "-d"), ("display", "-p", "-t", ".1", "#{cursor_colour}"),
        ("display", "-p", "-t", ".0", "#{cursor_colour}"),
        ("set", "-g", "cursor-colour", "#{?pane_active,green,blue}"),
        ("display", "-p", "#{cursor_colour}"),
        ("set", "-g", "cursor-colour", ""), ("display", "-p", "#{cursor_colour}"),
        ("set", "-g", "cursor-colour", "#{@none}bogus"), ("display", "-p", "#{cursor_colour}"),
        ("set", "-p", "cursor-colour", "magenta"), ("display", "-p", "#{cursor_colour}"),
        ("set", "-g", "cursor-colour", "colour100"), ("display", "-p", "#{cursor_colour}"),
    ]
    assert _run(hmux, commands) == _run(next_tmux, commands)


def _cursor_colours(outer: Outer, pair) -> list[str]:
    return [outer.mux.ok("display", "-p", "-t", t, "#{cursor_colour}").strip() for _m, t in pair]


def _same_cursor(outer: Outer, pair, want: str | None = None) -> str:
    """Wait until both terminals were given the same cursor colour (``want`` if given)."""
    def same() -> str | bool:
        a, b = _cursor_colours(outer, pair)
        return a == b and (want is None or a == want) and a
    try:
        got = wait_for(same, timeout=8)
    except AssertionError:
        raise AssertionError(f"cursor colours differ: {_cursor_colours(outer, pair)}") from None
    return str(got)


@pytest.mark.parametrize("theme", ["dark", "terminal"])
def test_cursor_colours_drawn(outer, hmux, next_tmux, tmp_path, theme):
    """The terminal's cursor colour (OSC 12 / OSC 112) for formats, theme colours a format
    expands to, the empty value (the terminal's own) and prompt-cursor-colour."""
    conf = ("set -g @c themered\nset -g cursor-colour '#{@c}'\n"
            "set -g @p Green\nset -g prompt-cursor-colour '#{?#{@p},#{@p},red}'\n")
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, theme)
    first = _same_cursor(outer, pair)
    assert first != "none"
    _both(pair, "set", "-g", "cursor-colour", "#{?pane_active,#ff8000,colour33}")
    _same_cursor(outer, pair, "#0087ff")  # no pane in the format tree: not active
    _both(pair, "set", "-g", "cursor-colour", "")
    _same_cursor(outer, pair, "none")
    for mux, _t in pair:
        assert mux.cmd("set", "-g", "cursor-colour", "bogus").err == "invalid colour: bogus\n"
    _both(pair, "set", "-g", "cursor-colour", "Yellow")
    yellow = _same_cursor(outer, pair)
    assert yellow != "none"
    _press(outer, pair, "C-b", ":")
    prompt = _same_cursor(outer, pair)
    assert prompt not in ("none", yellow)
    _press(outer, pair, "Escape")
    _same_cursor(outer, pair, yellow)


# (a digit's cells, whatever the time: "#####" is not in every digit, a 1 has none)
@pytest.mark.parametrize(("value", "expect"), [
    ("#{?pane_active,themered,Blue}", "\x1b[44m#"), ("", "#"),
    ("default", "#"), ("Green", "\x1b[42m#"),
    ("#{?session_name,red,cyan}", "\x1b[46m#")])
def test_clock_colour_drawn(outer, hmux, next_tmux, tmp_path, value, expect):
    """clock-mode-colour is expanded for the clock's pane (so pane_active is known, but no
    session is); '' and default draw in the default colour."""
    conf = f"set -g clock-mode-colour '{value}'\nset -g @unused 1\n"
    pair = _attach_both(outer, hmux, next_tmux, tmp_path, conf, "dark")
    _both(pair, "split-window", "-h", "-t", "m", "cat")
    _both(pair, "clock-mode", "-t", "m:0.1")
    _both(pair, "clock-mode", "-t", "m:0.0")
    _same(outer, pair, expect)
