"""The development tree's lifecycle hooks (issue 26), against the next oracle.

window-zoomed, window-unzoomed, pane-resized, pane-mode-entered, pane-mode-exited,
marked-pane-changed, session-added-to-group, session-removed-from-group and pane-moved: each
script sets the hooks to append their ``hook_*`` formats to a global user option, does the same
commands on hmux and on the development tree, and compares what was recorded and in which
order (the hook commands run one after the other, so a last ``session-renamed`` hook marks the
end). ``wait-for -E -v`` compares the payloads themselves. With none of these hooks set nothing
changes (3.7b's show-hooks listing is checked by tests/test_extensions_hooks.py).
"""

from __future__ import annotations

import re
import subprocess

from harness import wait_for


def _hook(mux, name: str, fmt: str) -> None:
    mux.ok("set-hook", "-g", name, f'set -gaF @log "|{name} {fmt}"')


def _log(mux) -> list[str]:
    """Everything recorded, once the end marker is there."""
    mux.ok("set-hook", "-g", "session-renamed", 'set -ga @log "|end"')
    mux.ok("rename-session", "-t", "s1", "s1x")
    text = wait_for(lambda: (lambda r: r.out if "|end" in r.out else None)(
        mux.cmd("show", "-gv", "@log")))
    return str(text).strip().split("|")


def _start(mux) -> None:
    mux.ok("new-session", "-d", "-s", "s1", "-x", "80", "-y", "24")
    mux.ok("set", "-g", "@log", "")


def _zoom_mode_script(mux) -> list[str]:
    _start(mux)
    _hook(mux, "window-zoomed", "#{hook_window} #{hook_event}")
    _hook(mux, "window-unzoomed", "#{hook_window} #{hook_event}")
    _hook(mux, "pane-resized", "#{hook_pane} #{hook_window} #{hook_width}x#{hook_height} "
                               "#{hook_old_width}x#{hook_old_height}")
    _hook(mux, "pane-mode-entered", "#{hook_pane} #{hook_current_mode} "
                                    "[#{hook_previous_mode}] #{hook_mode_entered}")
    _hook(mux, "pane-mode-exited", "#{hook_pane} [#{hook_current_mode}] "
                                   "[#{hook_previous_mode}] #{hook_mode_entered}")
    _hook(mux, "pane-mode-changed", "#{hook_pane}")
    mux.ok("split-window", "-t", "s1")
    mux.ok("resize-pane", "-Z", "-t", "s1")
    mux.ok("resize-pane", "-Z", "-t", "s1")
    mux.ok("resize-pane", "-t", "s1:0.0", "-y", "8")
    mux.ok("copy-mode", "-t", "s1")
    mux.ok("clock-mode", "-t", "s1")
    mux.ok("copy-mode", "-t", "s1")  # copy-mode comes back on top of clock-mode
    mux.ok("send-keys", "-X", "-t", "s1", "cancel")
    mux.ok("resize-window", "-t", "s1", "-x", "60", "-y", "20")
    return _log(mux)


def test_zoom_resize_and_mode_hooks_as_next(hmux, next_tmux):
    assert _zoom_mode_script(hmux) == _zoom_mode_script(next_tmux)


def _marked_group_script(mux) -> list[str]:
    _start(mux)
    _hook(mux, "marked-pane-changed", "#{hook_pane} #{hook_new_pane} #{hook_old_pane} "
                                      "#{hook_window} #{hook_marked}")
    _hook(mux, "session-added-to-group", "#{hook_session_name} #{hook_group} "
                                         "#{hook_group_size}")
    _hook(mux, "session-removed-from-group", "#{hook_session_name} #{hook_group} "
                                             "#{hook_group_size}")
    mux.ok("split-window", "-t", "s1")
    mux.ok("select-pane", "-m", "-t", "s1:0.0")
    mux.ok("select-pane", "-m", "-t", "s1:0.1")
    mux.ok("select-pane", "-m", "-t", "s1:0.1")
    mux.ok("select-pane", "-m", "-t", "s1:0.0")
    mux.ok("select-pane", "-M", "-t", "s1:0.0")
    mux.ok("new-session", "-d", "-s", "g2", "-t", "s1")
    mux.ok("new-session", "-d", "-s", "g3", "-t", "g2")
    mux.ok("kill-session", "-t", "g2")
    mux.ok("kill-session", "-t", "g3")
    return _log(mux)


def _moved_script(mux) -> list[str]:
    _start(mux)
    _hook(mux, "pane-moved", "#{hook_pane} #{hook_window} #{hook_old_window} "
                             "#{hook_new_window} #{hook_old_window_index} #{hook_window_index} "
                             "#{hook_new_window_index}")
    _hook(mux, "window-layout-changed", "#{hook_window}")
    mux.ok("split-window", "-t", "s1")
    mux.ok("split-window", "-t", "s1")
    mux.ok("new-window", "-d", "-t", "s1:5")
    mux.ok("swap-pane", "-s", "s1:0.1", "-t", "s1:5.0")
    mux.ok("swap-pane", "-s", "s1:0.0", "-t", "s1:0.1")
    mux.ok("join-pane", "-s", "s1:0.2", "-t", "s1:5")
    mux.ok("break-pane", "-d", "-s", "s1:5.1", "-t", "s1:7")
    mux.ok("break-pane", "-d", "-s", "s1:7.0", "-t", "s1:8")
    mux.ok("move-pane", "-s", "s1:8", "-t", "s1:0")
    return _log(mux)


def test_pane_moved_hook_as_next(hmux, next_tmux):
    assert _moved_script(hmux) == _moved_script(next_tmux)


def test_marked_and_group_hooks_as_next(hmux, next_tmux):
    assert _marked_group_script(hmux) == _marked_group_script(next_tmux)


def _payloads(mux) -> list[str]:
    """wait-for -E -v: the payload keys and values of one event of each kind."""
    _start(mux)
    mux.ok("split-window", "-t", "s1")
    out = []
    for event, action in (
            ("window-zoomed", ("resize-pane", "-Z", "-t", "s1")),
            ("window-unzoomed", ("resize-pane", "-Z", "-t", "s1")),
            ("pane-mode-entered", ("copy-mode", "-t", "s1")),
            ("pane-mode-exited", ("send-keys", "-X", "-t", "s1", "cancel")),
            ("pane-resized", ("resize-pane", "-t", "s1:0.0", "-y", "6")),
            ("marked-pane-changed", ("select-pane", "-m", "-t", "s1:0.1")),
            ("session-added-to-group", ("new-session", "-d", "-s", "g2", "-t", "s1")),
            ("session-removed-from-group", ("kill-session", "-t", "g2")),
            ("pane-moved", ("break-pane", "-d", "-s", "s1:0.1", "-t", "s1:4"))):
        argv = list(mux.argv0) + list(mux.socket_args) + ["-f", "/dev/null", "wait-for", "-E",
                                                         "-v", event]
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=mux.env, cwd=mux.cwd)
        wait_for(lambda e=event, p=p: mux.cmd("wait-for", "-E", "-l", e).out.strip()
                 or p.poll() is not None)
        mux.ok(*action)
        stdout, stderr = p.communicate(timeout=10)
        out.append(f"{event}: {p.returncode} {stdout} {stderr}".replace("\n", " "))
    return out


def test_lifecycle_payloads_as_next(hmux, next_tmux):
    assert _payloads(hmux) == _payloads(next_tmux)


def _client_script(mux) -> list[str]:
    """A control client comes and goes: client-created and client-closed, with the session,
    window and pane cmd_find_from_client gives; a command client raises neither."""
    _start(mux)
    _hook(mux, "client-created", "#{hook_client} #{hook_session} #{hook_window} "
                                 "#{hook_window_index} #{hook_pane}")
    _hook(mux, "client-closed", "#{hook_client} #{hook_session} #{hook_window} "
                                "#{hook_window_index} #{hook_pane}")
    _hook(mux, "client-detached", "#{hook_client}")
    mux.ok("list-sessions")
    argv = list(mux.argv0) + list(mux.socket_args) + ["-f", "/dev/null", "-C", "attach",
                                                     "-t", "s1"]
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=mux.env, cwd=mux.cwd)
    wait_for(lambda: mux.cmd("list-clients").out.strip())
    assert p.stdin is not None
    p.stdin.close()
    p.wait(timeout=10)
    for f in (p.stdout, p.stderr):
        if f is not None:
            f.close()
    wait_for(lambda: not mux.cmd("list-clients").out.strip())
    return [re.sub(r"client-\d+", "client-N", line) for line in _log(mux)]


def test_client_created_and_closed_as_next(hmux, next_tmux):
    assert _client_script(hmux) == _client_script(next_tmux)


def _activity_script(mux) -> list[str]:
    mux.ok("new-session", "-d", "-s", "s1", "-x", "80", "-y", "24", "sleep 30")
    mux.ok("set", "-g", "@log", "")
    _hook(mux, "pane-activity", "#{hook_pane} #{hook_window}")
    mux.ok("respawn-pane", "-k", "-t", "s1", "printf hello; sleep 30")
    wait_for(lambda: "pane-activity" in mux.cmd("show", "-gv", "@log").out)
    return sorted(set(_log(mux)))  # one per pass of the loop: how many depends on reads


def test_pane_activity_as_next(hmux, next_tmux):
    assert _activity_script(hmux) == _activity_script(next_tmux)
