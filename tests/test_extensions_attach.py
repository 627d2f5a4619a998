"""Attached clients beyond tmux 3.7b: client queries, theme colours and clear-on-attach.

Against the next oracle (clients attached in panes of an outer tmux): ``#{I/f:}``, ``#{I/c:}``,
``#{I/e:}``, ``#{client_colours}`` and ``#{c/f:}`` / ``#{c/b:}`` of theme colours, which
resolve through the client's theme. Seed ("Terminal attachment"): "The server option
clear-on-attach defaults to on. Set it to off to scroll the previous terminal contents into
scrollback without entering the alternate screen. Detaching clears the current screen".
"""

from __future__ import annotations

import pytest
from harness import HMUX, base_env, wait_for
from oracle import ORACLE_NEXT
from test_attach import Outer


@pytest.fixture
def outer(muxdir, request) -> Outer:
    """An outer tmux whose panes are the terminals the clients under test attach in."""
    o = Outer(muxdir, base_env(muxdir))
    request.addfinalizer(o.mux.kill)
    return o

_QUERIES = ("#{I/f:RGB}|#{I/f:utf8}|#{I/f:hyperlinks}|#{I/f:focus}|#{I/c:Tc}|#{I/c:smcup}|"
            "#{I/c:nosuch}|#{I/e:TERM}|#{I/fe:TERM}|#{client_colours}|#{c/f:themered}|"
            "#{c/b:themeblack}|#{c/f:themewhite}|#{c/b:thememagenta}")


def _attached_tty(mux) -> str:
    return wait_for(lambda: mux.cmd("list-clients", "-F", "#{client_tty}").out.strip())


def test_client_queries_and_theme_colours_as_next(outer: Outer, hmux, next_tmux):
    outer.run(HMUX + hmux.socket_args + ["-f", "/dev/null", "new-session", "-s", "m", "cat"],
              "h")
    outer.run([ORACLE_NEXT] + next_tmux.socket_args + ["-f", "/dev/null", "new-session", "-s",
                                                       "m", "cat"], "n")
    results = []
    for mux in (hmux, next_tmux):
        tty = _attached_tty(mux)
        wait_for(lambda m=mux, t=tty: m.ok("display", "-c", t, "-p", "#{I/f:RGB}").strip()
                 == "1")
        row = [mux.ok("display", "-c", tty, "-p", _QUERIES)]
        for theme in ("light", "terminal", "dark"):
            mux.ok("set", "-s", "theme", theme)
            row.append(mux.ok("display", "-c", tty, "-p", "#{c/f:themered}|#{c/b:themewhite}"))
        mux.ok("set", "-s", "dark-theme-red", "#{?client_colours,colour100,blue}")
        row.append(mux.ok("display", "-c", tty, "-p", "#{c/f:themered}"))
        results.append(row)
    assert results[0] == results[1]


def test_unattached_client_queries_are_empty(hmux, next_tmux):
    for mux in (hmux, next_tmux):
        mux.ok("new-session", "-d")
    fmt = "#{I/f:RGB}|#{I/c:Tc}|#{I/e:TERM}|#{client_colours}|#{c/f:themered}"
    assert hmux.ok("display", "-p", fmt) == next_tmux.ok("display", "-p", fmt)


def test_clear_on_attach_off_keeps_the_main_screen(outer: Outer, hmux, tmp_path):
    """The seed's rule: with clear-on-attach off the terminal's previous contents go to its
    scrollback (no alternate screen), and detaching clears the screen; on (the default) uses
    the alternate screen as tmux does."""
    conf = tmp_path / "off.conf"
    conf.write_text("set -s clear-on-attach off\n")
    target = outer.run(["sh", "-c", "echo BEFORE-ATTACH; sleep 0.5; exec " + " ".join(
        HMUX + hmux.socket_args + ["-f", str(conf), "new-session", "-s", "m", "cat"])], "h")
    wait_for(lambda: "[m] 0:" in outer.screen(target)[-1])
    assert outer.mux.ok("display", "-p", "-t", target, "#{alternate_on}") == "0\n"
    history = outer.mux.ok("capture-pane", "-p", "-S", "-", "-E", "-1", "-t", target)
    assert "BEFORE-ATTACH" in history
    assert "BEFORE-ATTACH" not in "\n".join(outer.screen(target))
    hmux.ok("detach-client")
    wait_for(lambda: "[detached (from session m)]" in "\n".join(outer.screen(target)))
    assert outer.mux.ok("display", "-p", "-t", target, "#{alternate_on}") == "0\n"
    # the default: the alternate screen while attached
    target2 = outer.run(HMUX + hmux.socket_args + ["-f", "/dev/null", "attach", "-t", "m"], "h2")
    wait_for(lambda: "[m] 0:" in outer.screen(target2)[-1])
    assert hmux.ok("show", "-sv", "clear-on-attach") == "off\n"
    hmux.ok("set", "-su", "clear-on-attach")
    assert hmux.ok("show", "-sv", "clear-on-attach") == "on\n"


def test_clear_on_attach_default_is_the_alternate_screen(outer: Outer, hmux):
    target = outer.run(HMUX + hmux.socket_args + ["-f", "/dev/null", "new-session", "-s", "m",
                                                  "cat"], "h")
    wait_for(lambda: "[m] 0:" in outer.screen(target)[-1])
    assert outer.mux.ok("display", "-p", "-t", target, "#{alternate_on}") == "1\n"
    assert "clear-on-attach" not in hmux.ok("show", "-s")


def test_terminal_features_removed_with_at_as_next(outer: Outer, hmux, next_tmux, tmp_path):
    """terminal-features "name@" removes a feature and keeps it off, whatever terminfo, Tc or
    the terminal's replies would add (the development tree's)."""
    conf = tmp_path / "feat.conf"
    conf.write_text("set -as terminal-features '*:RGB@:title@:hyperlinks@:bpaste'\n")
    outer.run(HMUX + hmux.socket_args + ["-f", str(conf), "new-session", "-s", "m", "cat"], "h")
    outer.run([ORACLE_NEXT] + next_tmux.socket_args + ["-f", str(conf), "new-session", "-s",
                                                       "m", "cat"], "n")
    results = []
    for mux in (hmux, next_tmux):
        tty = _attached_tty(mux)
        # the terminal's answers come in after the attach: wait for a feature they add
        wait_for(lambda m=mux, t=tty: m.ok("display", "-c", t, "-p", "#{I/f:extkeys}").strip()
                 == "1")
        results.append(mux.ok("display", "-c", tty, "-p",
                              "#{I/f:RGB}|#{I/f:title}|#{I/f:hyperlinks}|#{I/f:bpaste}|"
                              "#{client_colours}"))
    assert results[0] == results[1]
    # title stays present: removing a feature keeps the capabilities terminfo gives (tsl, fsl)
    assert results[0].startswith("0|1|0|1|")


def test_theme_colours_in_the_status_line_as_next(outer: Outer, hmux, next_tmux, tmp_path):
    """Theme colours in status-style and in #[...] of the status format resolve through the
    client's theme (dark by default: the dark-theme-* options for a 256-colour terminal)."""
    conf = tmp_path / "theme.conf"
    conf.write_text("set -g status-style 'bg=themeblue,fg=themewhite'\n"
                    "set -g status-left '#[bg=themedarkgrey]L'\nset -g status-right ''\n"
                    "set -g window-status-format '#I'\n"
                    "set -g window-status-current-format '#[fg=themered,bold]#I*'\n"
                    "set -g window-status-current-style default\n"
                    "set -g window-status-style default\n")
    targets = []
    for mux, prog, name in ((hmux, HMUX, "h"), (next_tmux, [ORACLE_NEXT], "n")):
        targets.append(outer.run(prog + mux.socket_args + ["-f", str(conf), "new-session",
                                                           "-s", "m", "cat"], name))
    lines = []
    for t in targets:
        wait_for(lambda t=t: "0*" in outer.screen(t)[-1])
        lines.append(outer.screen(t, "-e")[-1])
    assert lines[0] == lines[1]
    assert "48;2;108;166;205" in lines[0]  # skyblue3, the dark theme's blue
