"""Waits, events and hook monitors beyond tmux 3.7b, against the next oracle.

wait-for -l/-w on channels, wait-for -E with -F and -v, set-hook -E, set-hook -B/-T monitors
with hook_value/hook_last, show-hooks -B and -F with firing counts (tmux's development tree).
Each script runs the same commands against hmux and the development tree and compares what they
print; client names and pids are normalised.
"""

from __future__ import annotations

import re
import subprocess
import time

from harness import wait_for


def _norm(text: str) -> str:
    return re.sub(r"client-\d+", "client-N", text)


def _background(mux, *args: str) -> subprocess.Popen:
    argv = list(mux.argv0) + list(mux.socket_args) + ["-f", "/dev/null", *args]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=mux.env, cwd=mux.cwd)


def _finish(p: subprocess.Popen, timeout: float = 10) -> tuple[int, str, str]:
    out, err = p.communicate(timeout=timeout)
    return p.returncode, _norm(out), _norm(err)


def _waiters(mux, *args: str, count: int = 1) -> str:
    """wait-for -l output once ``count`` waiters are there."""
    return wait_for(lambda: (lambda r: r.out if r.out.count("\n") >= count else None)(
        mux.cmd("wait-for", "-l", *args)))


def _channel_script(mux) -> list[object]:
    out: list[object] = []
    mux.ok("new-session", "-d", "-s", "s1")
    w1 = _background(mux, "wait-for", "ch")
    _waiters(mux, "ch")
    holder = mux.cmd("wait-for", "-L", "lk")
    out.append(holder.rc)
    w2 = _background(mux, "wait-for", "-L", "lk")
    _waiters(mux, "lk")
    out.append(_norm(mux.cmd("wait-for", "-l", "ch").out))
    out.append(_norm(mux.cmd("wait-for", "-l", "lk").out))
    out.append(tuple(mux.cmd("wait-for", "-l", "nosuch")))
    # -w releases the named client's waiter, without signalling the channel
    name = mux.cmd("wait-for", "-l", "ch").out.strip()
    out.append(tuple(mux.cmd("wait-for", "-w", name, "ch")))
    out.append(_finish(w1))
    out.append(tuple(mux.cmd("wait-for", "-w", "nobody", "ch")))  # nobody to wake: fine
    w3 = _background(mux, "wait-for", "ch")
    _waiters(mux, "ch")
    time.sleep(0.3)
    out.append(w3.poll())  # still waiting: the channel was not signalled
    mux.ok("wait-for", "-S", "ch")
    out.append(_finish(w3))
    # a woken locker goes on without the lock passing to it
    lname = mux.cmd("wait-for", "-l", "lk").out.strip()
    out.append(tuple(mux.cmd("wait-for", "-w", lname, "lk")))
    out.append(_finish(w2))
    out.append(tuple(mux.cmd("wait-for", "-U", "lk")))
    out.append(tuple(mux.cmd("wait-for", "-U", "lk")))
    return out


def test_channel_list_and_wake_as_next(hmux, next_tmux):
    assert _channel_script(hmux) == _channel_script(next_tmux)


def _event_script(mux) -> list[object]:
    out: list[object] = []
    mux.ok("new-session", "-d", "-s", "s1", "-x", "80", "-y", "24")
    mux.ok("new-window", "-d", "-t", "s1")
    w1 = _background(mux, "wait-for", "-E", "-v", "@ev")
    w2 = _background(mux, "wait-for", "-E", "-v", "-F", "#{==:#{pane},%1}", "@ev")
    wait_for(lambda: mux.cmd("wait-for", "-E", "-l", "@ev").out.count("\n") == 2)
    out.append(_norm(mux.cmd("wait-for", "-E", "-l", "@ev").out))
    mux.ok("set-hook", "-E", "-t", "s1:0", "@ev")
    out.append(_finish(w1))
    time.sleep(0.3)
    out.append(w2.poll())  # rejected by its filter, still waiting
    mux.ok("set-hook", "-E", "-t", "s1:1", "@ev")
    out.append(_finish(w2))
    # events are not sticky
    w3 = _background(mux, "wait-for", "-E", "@ev")
    wait_for(lambda: mux.cmd("wait-for", "-E", "-l", "@ev").out.strip())
    name = mux.cmd("wait-for", "-E", "-l", "@ev").out.strip()
    out.append(tuple(mux.cmd("wait-for", "-E", "-w", name, "@ev")))
    out.append(_finish(w3))
    out.append(tuple(mux.cmd("wait-for", "-E", "-w", "nobody", "@ev")))
    # a built-in hook name is an event; after-hooks carry their arguments
    w4 = _background(mux, "wait-for", "-E", "-v", "after-set-option")
    wait_for(lambda: mux.cmd("wait-for", "-E", "-l", "after-set-option").out.strip())
    mux.ok("set-option", "-g", "@x", "y")
    out.append(_finish(w4))
    for args in (["-E"], ["-E", "a", "b"], ["-E", "nope"]):
        out.append(tuple(mux.cmd("set-hook", *args)))
    out.append(tuple(mux.cmd("wait-for", "-E", "no-such-hook")))
    out.append(tuple(mux.cmd("wait-for", "-E", "-l", "window-renamed")))
    # a user event runs the hook set-hook registered for it, with the payload as hook_*
    mux.ok("set-hook", "-g", "@ev", "set -g @seen '#{hook_event} #{hook_pane} #{hook_window_index}'")
    mux.ok("set-hook", "-E", "-t", "s1:1", "@ev")
    out.append(wait_for(lambda: mux.cmd("show", "-gv", "@seen").out or None))
    return out


def test_event_waits_as_next(hmux, next_tmux):
    assert _event_script(hmux) == _event_script(next_tmux)


def _monitor_script(mux) -> list[object]:
    out: list[object] = []
    mux.ok("new-session", "-d", "-s", "s1", "-x", "80", "-y", "24")
    mux.ok("set-hook", "-g", "-B", "@m:%*:#{pane_title}",
           "set -g @got '#{hook_value}|#{hook_last}|#{hook_pane}|#{hook_window_index}|"
           "#{hook_session_name}|#{hook_event}|#{hook}'")
    mux.ok("set-hook", "-g", "-T", "-B", "@t::#{@flag}", "set -g @tgot '#{hook_value}'")
    out.append(mux.ok("show-hooks", "-gB"))
    out.append(mux.ok("show-hooks", "-gB", "-F",
                      "#{option_name} #{hook_fire_count} #{option_value} #{option_is_user}"))
    time.sleep(1.5)  # the first check takes the value silently
    mux.ok("select-pane", "-T", "abc")
    mux.ok("set", "-g", "@flag", "0")
    got = wait_for(lambda: mux.cmd("show", "-gv", "@got").out or None)
    out.append(got)
    time.sleep(1.3)
    out.append(mux.cmd("show", "-gv", "@tgot").out)  # became 0: not true, no firing
    mux.ok("set", "-g", "@flag", "1")
    out.append(wait_for(lambda: mux.cmd("show", "-gv", "@tgot").out or None))
    out.append(mux.ok("show-hooks", "-gB", "-F", "#{option_name} #{hook_fire_count}"))
    mux.ok("set-hook", "-guB", "@m")
    out.append(mux.ok("show-hooks", "-gB"))
    out.append(mux.ok("show", "-g", "@m"))  # the command stays
    for value, extra in (("bad", []), ("x:%1:y", []), ("@x:%1:y", ["a", "b"])):
        out.append(tuple(mux.cmd("set-hook", "-g", "-B", value, *extra)))
    return out


def test_monitors_as_next(hmux, next_tmux):
    assert _monitor_script(hmux) == _monitor_script(next_tmux)


def test_show_hooks_fire_counts_as_next(hmux, next_tmux):
    """hook_fire_count: every firing of the entry, an empty hook too."""
    results = []
    for mux in (hmux, next_tmux):
        mux.ok("new-session", "-d", "-s", "s1")
        mux.ok("set-hook", "-g", "window-renamed", "set -g @r 1")
        mux.ok("rename-window", "x")
        mux.ok("rename-window", "y")
        wait_for(lambda m=mux: m.cmd("show", "-gv", "@r").out.strip() == "1")
        results.append(mux.ok("show-hooks", "-g", "-F",
                              "#{option_name}#{?option_has_array_key,[#{option_array_key}],} "
                              "#{hook_fire_count} #{?hook_fire_time,t,-}", "window-renamed"))
    assert results[0] == results[1]


def test_hooks_beyond_37_hidden_until_set(hmux, tmux):
    """show-hooks -g and show -gH list 3.7b's hooks only; a hook of the development tree
    appears once set and goes again when unset (options_table.IS_EXTENSION)."""
    for mux in (hmux, tmux):
        mux.ok("new-session", "-d")
    assert hmux.ok("show-hooks", "-g") == tmux.ok("show-hooks", "-g")
    assert hmux.ok("show", "-gH") == tmux.ok("show", "-gH")
    assert hmux.ok("show", "-s") == tmux.ok("show", "-s")
    assert hmux.ok("show-hooks", "-gw") == tmux.ok("show-hooks", "-gw")
    hmux.ok("set-hook", "-g", "pane-command-finished", "display x")
    assert "pane-command-finished[0] display-message x" in hmux.ok("show-hooks", "-gw")
    hmux.ok("set-hook", "-gu", "pane-command-finished")
    assert hmux.ok("show-hooks", "-gw") == tmux.ok("show-hooks", "-gw")
    hmux.ok("set", "-s", "theme", "dark")
    assert "theme dark" in hmux.ok("show", "-s")
    hmux.ok("set", "-su", "theme")
    assert hmux.ok("show", "-s") == tmux.ok("show", "-s")
    assert hmux.ok("show", "-sv", "theme") == "detect\n"  # asked for by name: its default


def test_lifecycle_hooks_as_next(hmux, next_tmux):
    """window-created (a new window, not a linked one), pane-created, window-closed and
    pane-bell run their hooks with the payload formats (the development tree's)."""
    results = []
    for mux in (hmux, next_tmux):
        mux.ok("new-session", "-d", "-s", "s0", "cat")
        for hook, fmt in (("window-created", "#{hook_window}|#{hook_window_name}"),
                          ("pane-created", "#{hook_pane}|#{hook_window}"),
                          ("window-closed", "#{hook_window}"),
                          ("pane-bell", "#{hook_pane}")):
            mux.ok("set-hook", "-ag", hook, f"set -agF @seen '{hook}:{fmt}|#{{hook_event}};'")
        mux.ok("new-window", "-d", "-n", "two", "cat")
        mux.ok("new-session", "-d", "-s", "s1", "-n", "three", "cat")
        mux.ok("link-window", "-s", "s0:1", "-t", "s1:5")
        mux.ok("split-window", "-d", "-t", "s1", "cat")
        mux.ok("kill-window", "-t", "s1:0")
        mux.ok("send-keys", "-t", "s0:0", "-l", "\a\r")
        wait_for(lambda m=mux: "pane-bell" in m.ok("show", "-gv", "@seen"))
        results.append(sorted(mux.ok("show", "-gv", "@seen").strip().split(";")))
    assert results[0] == results[1]
