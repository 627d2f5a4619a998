"""Copy mode beyond tmux 3.7b, against the next oracle: line-numbers-on/-off/-toggle,
refresh-now and refresh-on/-off/-toggle with copy_line_numbers and refresh_active.

Seed ("Copy mode observes..."): "r runs refresh-now; automatic refresh is controlled with
refresh-on, refresh-off, and refresh-toggle. Both refresh paths are available only for a pane's
own copy mode." and "line-numbers-on, line-numbers-off, and line-numbers-toggle control the
copy-mode gutter, including when copy-mode-line-numbers is off". The default key bindings stay
3.7b's (r is refresh-from-pane there), so list-keys is unchanged.
"""

from __future__ import annotations

import time

from harness import wait_for

_F = "#{copy_line_numbers}|#{refresh_active}|#{scroll_position}|#{copy_cursor_y}"


def _script(mux) -> list[str]:
    out = []
    mux.ok("new-session", "-d", "-s", "s1", "-x", "40", "-y", "10", "seq 1 30; exec cat")
    wait_for(lambda: "30" in mux.ok("capture-pane", "-p", "-t", "s1"))
    mux.ok("copy-mode", "-t", "s1")

    def step(label: str, *cmds: str) -> None:
        for c in cmds:
            mux.ok("send-keys", "-t", "s1", "-X", c)
        out.append(label + ":" + mux.ok("display", "-p", "-t", "s1", _F))

    step("start")
    step("on", "line-numbers-on")
    step("toggle", "line-numbers-toggle")
    step("toggle2", "line-numbers-toggle")
    step("off", "line-numbers-off")
    mux.ok("set", "-w", "-t", "s1", "copy-mode-line-numbers", "absolute")
    step("abs-off", "line-numbers-off")
    step("abs-on", "line-numbers-on")
    step("refresh-on", "refresh-on")
    step("refresh-toggle", "refresh-toggle")
    step("refresh-toggle2", "refresh-toggle")
    step("refresh-off", "refresh-off")
    step("scroll", "scroll-up", "scroll-up")
    step("refresh-now", "refresh-now")
    mux.ok("send-keys", "-t", "s1", "-X", "cancel")
    # another pane's view (copy-mode -s) may not refresh
    mux.ok("split-window", "-d", "-t", "s1", "exec cat")
    mux.ok("copy-mode", "-t", "s1.1", "-s", "s1.0")
    mux.ok("send-keys", "-t", "s1.1", "-X", "refresh-on")
    out.append("source:" + mux.ok("display", "-p", "-t", "s1.1", "#{refresh_active}"))
    return out


def test_copy_mode_commands_as_next(hmux, next_tmux):
    assert _script(hmux) == _script(next_tmux)


def test_refresh_on_follows_new_output(hmux, next_tmux):
    """With refresh-on, output arriving after copy mode began reaches its copy of the pane
    (capture-pane -M shows that copy); without it, it does not."""
    results = []
    for mux in (hmux, next_tmux):
        got = []
        for refresh in (True, False):
            name = "r" if refresh else "n"
            mux.ok("new-session", "-d", "-s", name, "-x", "40", "-y", "6",
                   "sleep 1; echo line-one; exec cat")
            mux.ok("copy-mode", "-t", name)
            if refresh:
                mux.ok("send-keys", "-t", name, "-X", "refresh-on")
            wait_for(lambda m=mux, n=name: "line-one" in m.ok("capture-pane", "-p", "-t", n))
            time.sleep(0.3)
            got.append("line-one" in mux.ok("capture-pane", "-p", "-M", "-t", name))
            got.append(mux.ok("display", "-p", "-t", name, "#{refresh_active}"))
        results.append(got)
    assert results[0] == results[1]
    assert results[0][0] is True and results[0][2] is False


def test_current_line_style_drawn_as_next(muxdir, request, hmux, next_tmux):
    """copy-mode-current-line-style draws the cursor's line (its colours, attributes added)
    and follows the cursor; compared as a client of each draws it in an outer terminal."""
    from harness import HMUX, base_env
    from oracle import ORACLE_NEXT
    from test_attach import Outer

    outer = Outer(muxdir, base_env(muxdir))
    request.addfinalizer(outer.mux.kill)
    conf = outer.env["HOME"] + "/line.conf"
    with open(conf, "w") as f:
        f.write("set -g copy-mode-current-line-style 'bg=blue,bold'\nset -g status off\n"
                "set -g mode-style bg=yellow,fg=black\n")  # the development tree's default is themed
    targets = {}
    for name, mux, prog in (("h", hmux, HMUX), ("n", next_tmux, [ORACLE_NEXT])):
        targets[name] = outer.run(prog + mux.socket_args + ["-f", conf, "new-session",
                                                            "seq 1 40; exec cat"], name)
    screens = []
    for name, mux in (("h", hmux), ("n", next_tmux)):
        wait_for(lambda t=targets[name]: "40" in "\n".join(outer.screen(t)))
        mux.ok("copy-mode")
        mux.ok("send-keys", "-X", "cursor-up")
        mux.ok("send-keys", "-X", "cursor-up")
        wait_for(lambda t=targets[name]: "[0/" in "\n".join(outer.screen(t)))
        time.sleep(0.5)
        screens.append(outer.screen(targets[name], "-e"))
    assert screens[0] == screens[1]
    assert sum("44m" in line for line in screens[0]) == 1  # one line, in blue
