"""Shell integration beyond tmux 3.7b (OSC 133): pane formats, hooks, events and plugins.

Against the next oracle: ``pane_command_running/status/duration/start_time/end_time``,
``pane_last_prompt_time``, ``pane_last_output_time``; the hooks ``pane-shell-prompt`` and
``pane-command-finished`` with ``hook_command_*``; ``wait-for -E -v pane-command-started``.
Seed ("Shell integration"): "Invalid numeric statuses become 255, while a missing status or a
leading key/value parameter becomes zero, matching the target parser" and the events reach
plugins (``Plugin.on_notify``), so the agent plugin can use ``pane-command-finished``.
"""

from __future__ import annotations

import re
import subprocess

from harness import HMUX, Mux, base_env, wait_for
from plugin_dists import make_dist, with_path

_FORMAT = ("#{pane_command_running}|#{pane_command_status}|#{!=:#{pane_command_duration},}|"
           "#{?pane_last_prompt_time,p,-}|#{?pane_command_start_time,s,-}|"
           "#{?pane_command_end_time,e,-}|#{?pane_last_output_time,o,-}")


def _send(mux, seq: str) -> None:
    """Output ``seq`` from the pane (cat echoes each line)."""
    mux.ok("send-keys", "-t", "s1", "-l", seq + "\r\n")


def _script(mux) -> list[object]:
    out: list[object] = []
    mux.ok("new-session", "-d", "-s", "s1", "-x", "80", "-y", "24", "stty -echo; exec cat")
    mux.ok("set-hook", "-g", "pane-command-finished",
           "set -gF @fin '#{hook_command_status}|#{hook_pane}|#{hook_window_index}|"
           "#{hook_session}|#{hook_event}|#{hook}|#{!=:#{hook_command_duration},}|"
           "#{?hook_command_start_time,s,-}|#{?hook_command_end_time,e,-}'")
    mux.ok("set-hook", "-g", "pane-shell-prompt",
           "set -gF @prompt '#{hook_pane}|#{hook_window}|#{hook_event}'")
    wait_for(lambda: mux.cmd("display", "-p", "#{pane_current_command}").out.strip() == "cat")
    out.append(mux.ok("display", "-p", _FORMAT))
    w = subprocess.Popen(list(mux.argv0) + list(mux.socket_args) + [
        "-f", "/dev/null", "wait-for", "-E", "-v", "pane-command-started"],
        stdout=subprocess.PIPE, text=True, env=mux.env, cwd=mux.cwd)
    wait_for(lambda: mux.cmd("wait-for", "-E", "-l", "pane-command-started").out.strip())
    _send(mux, "\033]133;A\007$ \033]133;B\007ls\033]133;C\007")
    started = w.communicate(timeout=10)[0]
    out.append(re.sub(r"=\d{9,}", "=T", started))
    wait_for(lambda: mux.cmd("show", "-gv", "@prompt").out.strip())
    out.append(mux.ok("show", "-gv", "@prompt"))
    out.append(mux.ok("display", "-p", _FORMAT))
    _send(mux, "\033]133;D;300\007")
    wait_for(lambda: mux.cmd("show", "-gv", "@fin").out.strip())
    out.append(mux.ok("show", "-gv", "@fin"))
    out.append(mux.ok("display", "-p", _FORMAT))
    for param in ("D", "D;", "D;0", "D;7", "D;k=v", "D;12;x=1", "D;-1", "D;256", "D;abc"):
        _send(mux, f"\033]133;{param}\007")
        _send(mux, "\033]133;C\007")  # a marker after: the status above has been read
        wait_for(lambda: mux.cmd("display", "-p", "#{pane_command_running}").out == "1\n")
        out.append((param, mux.ok("display", "-p", "#{pane_command_end_time}").strip() != ""))
    return out


def test_shell_integration_as_next(hmux, next_tmux):
    assert _script(hmux) == _script(next_tmux)


def test_exit_statuses_as_next(hmux, next_tmux):
    """The seed's rule: invalid statuses are 255, a missing one or a key=value first is 0."""
    results = []
    for mux in (hmux, next_tmux):
        mux.ok("new-session", "-d", "-s", "s1", "stty -echo; exec cat")
        wait_for(lambda m=mux: m.cmd("display", "-p", "#{pane_current_command}").out == "cat\n")
        got = []
        for param in ("D", "D;", "D;0", "D;7", "D;k=v", "D;=3", "D;12;x=1", "D;-1", "D;256",
                      "D;abc", "D;+5"):
            mux.ok("set", "-g", "@n", "")
            _send(mux, "\033]133;C\007")
            _send(mux, f"\033]133;{param}\007")
            wait_for(lambda m=mux: m.cmd("display", "-p", "#{pane_command_running}").out
                     == "0\n")
            got.append((param, mux.ok("display", "-p", "#{pane_command_status}").strip()))
        results.append(got)
    assert results[0] == results[1]
    assert dict(results[0])["D;abc"] == "255" and dict(results[0])["D;k=v"] == "0"


_PLUGIN = {
    "shellwatch_plugin": '''
        from hmux_core.plugin import Plugin, hookimpl

        class Watch(Plugin):
            name = "shellwatch"
            variables = ("shellwatch",)
            interval = 0.05
            listens = ("pane-command-finished", "pane-shell-prompt", "pane-command-started")

            def __init__(self):
                self.seen = []

            def on_notify(self, event):
                v = dict(event.values)
                self.seen = self.seen + [f"{event.name}:{event.pane_id}:"
                                         f"{v.get('command_status', '-')}"]

            def resolve(self, pane_id, key):
                return ",".join(self.seen)

        @hookimpl
        def hmux_plugin():
            return Watch()
    ''',
}


def test_events_reach_plugins(tmp_path, request):
    """pane-shell-prompt, pane-command-started and pane-command-finished (with its
    command_status) reach a plugin's on_notify."""
    site = make_dist(str(tmp_path / "site"), "hmux-test-shellwatch",
                     {"shellwatch": "shellwatch_plugin"}, _PLUGIN)
    d = tmp_path / "srv"
    d.mkdir()
    env = with_path(base_env(str(d)), site)
    env["TMUX_C2RS_PLUGINS"] = "shellwatch"
    m = Mux(HMUX, ["-L", "sw"], env, cwd=env["HOME"])
    request.addfinalizer(m.kill)
    m.ok("new-session", "-d", "-s", "s1", "stty -echo; exec cat")
    wait_for(lambda: m.cmd("display", "-p", "#{pane_current_command}").out == "cat\n")
    _send(m, "\033]133;A\007$ \033]133;C\007")
    _send(m, "\033]133;D;3\007")
    want = "pane-shell-prompt:%0:-,pane-command-started:%0:-,pane-command-finished:%0:3"
    wait_for(lambda: m.cmd("display", "-p", "#{shellwatch}").out.strip() == want)
