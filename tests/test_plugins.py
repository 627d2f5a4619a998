"""The plugin layer against a real server: discovery by entry points, selection, variables in
formats, option and status-line defaults, events, and isolation of plugins that fail or hang."""

from __future__ import annotations

import json
import os
import time
import uuid

import pytest
from harness import HMUX, Mux, base_env, wait_for
from plugin_dists import make_dist, with_path

from hmux_core.status_defaults import TMUX_WINDOW_STATUS, WINDOW_STATUS

PLUGINS = {
    "toy_plugin": '''
        import os
        from hmux_core.plugin import Plugin, hookimpl

        class Toy(Plugin):
            name = "toy"
            variables = ("toy_pane", "toy_events")
            interval = 0.05
            option_defaults = (("@toy-colour", "blue"),)

            def __init__(self):
                self.values = {}
                self.seen = []

            def tick(self, host):
                values = {}
                for pid in host.panes():
                    info = host.pane(pid)
                    if info is not None:
                        values[pid] = f"{pid}:{info.width}x{info.height}:{host.pane_cwd(pid)}"
                self.values = values

            def on_notify(self, event):
                if event.name not in self.seen:
                    self.seen = self.seen + [event.name]

            def resolve(self, pane_id, key):
                if key == "toy_events":
                    return ",".join(self.seen)
                return self.values.get(pane_id)

        @hookimpl
        def hmux_plugin():
            return Toy()
    ''',
    "raiser_plugin": '''
        from hmux_core.plugin import Plugin, hookimpl

        class Raiser(Plugin):
            name = "raiser"
            variables = ("raiser_v",)
            interval = 0.02

            def tick(self, host):
                raise RuntimeError("tick exploded")

            def resolve(self, pane_id, key):
                return "r"

        @hookimpl
        def hmux_plugin():
            return Raiser()
    ''',
    "slow_plugin": '''
        import os, time
        from hmux_core.plugin import Plugin, hookimpl

        class Slow(Plugin):
            name = "slowpoke"
            variables = ("slow_v",)
            interval = 0.05

            def tick(self, host):
                open(os.environ["SLOW_MARKER"], "w").close()
                time.sleep(60)

        @hookimpl
        def hmux_plugin():
            return Slow()
    ''',
    "shadow_plugin": '''
        from hmux_core.plugin import Plugin, hookimpl

        class Shadow(Plugin):
            name = "shadow"
            variables = ("pane_id", "toy_pane", "shadow_ok")

            def resolve(self, pane_id, key):
                return "shadowed-" + key

        @hookimpl
        def hmux_plugin():
            return Shadow()
    ''',
    "oldapi_plugin": '''
        from hmux_core.plugin import Plugin, hookimpl

        class Old(Plugin):
            name = "oldapi"
            api_version = 99
            variables = ("old_v",)

        @hookimpl
        def hmux_plugin():
            return Old()
    ''',
    "badresolve_plugin": '''
        from hmux_core.plugin import Plugin, hookimpl

        class Bad(Plugin):
            name = "badresolve"
            variables = ("bad_v",)

            def resolve(self, pane_id, key):
                raise ValueError("resolve exploded")

        @hookimpl
        def hmux_plugin():
            return Bad()
    ''',
    "broken_plugin": '''
        import hmux_no_such_module_anywhere
    ''',
    "emitter_plugin": '''
        from hmux_core.plugin import Plugin, hookimpl

        class Emitter(Plugin):
            name = "emitter"
            events = ("pane-toy-changed",)
            interval = 0.05

            def __init__(self):
                self.done = set()

            def tick(self, host):
                for pid in host.panes():
                    if pid not in self.done:
                        self.done.add(pid)
                        host.emit("pane-toy-changed", pid, old="none", new="lit")

        @hookimpl
        def hmux_plugin():
            return Emitter()
    ''',
}

ENTRY_POINTS = {
    "toy": "toy_plugin", "raiser": "raiser_plugin", "slowpoke": "slow_plugin",
    "shadow": "shadow_plugin", "oldapi": "oldapi_plugin", "badresolve": "badresolve_plugin",
    "broken": "broken_plugin", "emitter": "emitter_plugin",
}


@pytest.fixture
def plugdir(tmp_path):
    return make_dist(str(tmp_path / "site"), "hmux-test-plugins", ENTRY_POINTS, PLUGINS)


@pytest.fixture
def make_mux(tmp_path, plugdir, request):
    """A factory of hmux clients whose server sees the test plugins and the given selection."""

    def make(selection: str | None, config: str = "/dev/null", **extra: str) -> Mux:
        d = tmp_path / uuid.uuid4().hex[:6]
        d.mkdir()
        env = with_path(base_env(str(d)), plugdir)
        if selection is None:
            env.pop("TMUX_C2RS_PLUGINS")
        else:
            env["TMUX_C2RS_PLUGINS"] = selection
        env.update(extra)
        m = Mux(HMUX, ["-L", "p"], env, cwd=env["HOME"], config=config)
        request.addfinalizer(m.kill)
        return m

    return make


def status(m: Mux) -> dict[str, dict]:
    out = m.ok("display", "-p", "#{plugins_json}").strip()
    return {r["name"]: r for r in json.loads(out)} if out else {}


def test_plugin_variable_expands_everywhere(make_mux):
    m = make_mux("toy")
    m.ok("new", "-d", "-x", "100", "-y", "30", "cat -")
    home = m.env["HOME"]
    want = f"%0:100x30:{home}"
    wait_for(lambda: m.ok("display", "-p", "-t", "%0", "#{toy_pane}").strip() == want)
    assert m.ok("list-panes", "-F", "#{pane_id} #{toy_pane}") == f"%0 {want}\n"
    assert m.ok("display", "-p", "#{?toy_pane,yes,no} #{=3:toy_pane}") == "yes %0:\n"
    assert m.ok("display", "-p", "#{plugins}") == "toy\n"
    assert m.ok("show", "-gv", "@toy-colour") == "blue\n"
    assert "toy_pane=" in m.ok("display", "-a")
    m.ok("split-window", "-d", "cat -")
    wait_for(lambda: m.ok("display", "-p", "-t", "%1", "#{toy_pane}").startswith("%1:"))


@pytest.mark.parametrize("selection", ["none", "", " none "])
def test_no_plugins_is_tmux(make_mux, selection):
    m = make_mux(selection)
    m.ok("new", "-d", "cat -")
    assert m.ok("display", "-p", "[#{toy_pane}][#{plugins}][#{plugins_json}]") == "[][][]\n"
    assert m.ok("show", "-gv", "window-status-format") == TMUX_WINDOW_STATUS + "\n"
    assert m.cmd("show", "-gv", "@toy-colour").out == ""
    assert "toy_pane" not in m.ok("display", "-a")


def test_selection_list_unknown_name_warns_and_rest_load(make_mux):
    m = make_mux("nosuch,toy")
    m.ok("new", "-d", "cat -")
    wait_for(lambda: m.ok("display", "-p", "#{toy_pane}").startswith("%0:"))
    st = status(m)
    assert st["toy"]["enabled"]
    assert st["nosuch"]["reason"] == "not installed"
    assert "raiser" not in st  # only what was asked for is imported


def test_failing_plugins_are_isolated(make_mux, tmp_path):
    marker = str(tmp_path / "slow-started")
    m = make_mux("all", SLOW_MARKER=marker)
    m.ok("new", "-d", "cat -")
    # The raising tick is disabled after repeated failures; the others keep working.
    wait_for(lambda: not status(m)["raiser"]["enabled"])
    st = status(m)
    assert "disabled after 5 failures" in st["raiser"]["reason"]
    assert st["raiser"]["failures"] >= 5
    assert m.ok("display", "-p", "[#{raiser_v}]") == "[]\n"
    assert "failed to load: ModuleNotFoundError" in st["broken"]["reason"]
    assert "plugin API version 99" in st["oldapi"]["reason"]
    assert not st["oldapi"]["enabled"]
    # Shadowing: the server's own variables and earlier plugins' win.
    assert st["shadow"]["variables"] == ["shadow_ok"]
    assert m.ok("display", "-p", "#{pane_id} #{shadow_ok}") == "%0 shadowed-shadow_ok\n"
    wait_for(lambda: m.ok("display", "-p", "#{toy_pane}").startswith("%0:"))
    # A resolve that raises yields nothing and is disabled after repeated failures.
    for _ in range(6):
        assert m.ok("display", "-p", "[#{bad_v}]") == "[]\n"
    assert not status(m)["badresolve"]["enabled"]
    # A tick that hangs holds only its own lane: commands still answer at once.
    wait_for(lambda: os.path.exists(marker))
    t0 = time.monotonic()
    assert m.ok("display", "-p", "#{pane_id}") == "%0\n"
    assert time.monotonic() - t0 < 2.0
    m.ok("send-keys", "-t", "%0", "-l", "still-alive")
    wait_for(lambda: "still-alive" in m.capture("%0"))
    assert status(m)["slowpoke"]["enabled"]


def test_config_wins_over_plugin_and_status_defaults(make_mux, tmp_path):
    m = make_mux("toy")
    m.ok("new", "-d", "cat -")
    assert m.ok("show", "-gv", "window-status-format") == WINDOW_STATUS + "\n"
    assert m.ok("show", "-gv", "window-status-current-format") == WINDOW_STATUS + "\n"
    m.kill()
    conf = tmp_path / "conf"
    conf.write_text("set -g @toy-colour red\nsetw -g window-status-format 'X#I'\n")
    m2 = make_mux("toy", config=str(conf))
    m2.ok("new", "-d", "cat -")
    assert m2.ok("show", "-gv", "@toy-colour") == "red\n"
    assert m2.ok("show", "-gv", "window-status-format") == "X#I\n"
    assert m2.ok("show", "-gv", "window-status-current-format") == WINDOW_STATUS + "\n"
    m2.kill()
    # Plugins load after the config file (after the first client, or when a format in it asks
    # for a variable the server does not know, as the last line does): a value the file set
    # wins even when it is tmux's own, and a plugin option it set stays.
    conf.write_text("set -g @toy-colour green\n"
                    f"setw -g window-status-format '{TMUX_WINDOW_STATUS}'\n"
                    "set -gF @seen '#{plugins}'\n")
    m3 = make_mux("toy", config=str(conf))
    m3.ok("new", "-d", "cat -")
    assert m3.ok("show", "-gv", "@seen") == "toy\n"
    assert m3.ok("show", "-gv", "@toy-colour") == "green\n"
    assert m3.ok("show", "-gv", "window-status-format") == TMUX_WINDOW_STATUS + "\n"
    assert m3.ok("show", "-gv", "window-status-current-format") == WINDOW_STATUS + "\n"


def test_status_default_survives_missing_plugin_variables(make_mux):
    m = make_mux("toy")
    m.ok("new", "-d", "-c", "/tmp", "cat -")
    # Neither agent nor git runs: the label falls back to the directory's basename.
    assert m.ok("display", "-p", "#{T:window-status-format}") == "0:tmp*\n"


def test_events_reach_on_notify(make_mux):
    m = make_mux("toy")
    m.ok("new", "-d", "sh -c 'echo hi; exec cat'")
    m.ok("rename-window", "-t", "%0", "renamed")
    m.ok("new-window", "-d", "cat -")
    want = {"pane-created", "window-renamed", "pane-output"}
    wait_for(lambda: want <= set(m.ok("display", "-p", "#{toy_events}").strip().split(",")))


def test_hmux_plugins_command(make_mux):
    m = make_mux("toy,raiser")
    m.ok("new", "-d", "cat -")
    wait_for(lambda: status(m)["toy"]["ticks"] > 2)
    out = json.loads(m.ok("plugins", "--json"))
    assert out["source"] == "server"
    rows = {r["name"]: r for r in out["plugins"]}
    assert rows["toy"]["enabled"] and rows["toy"]["variables"] == ["toy_pane", "toy_events"]
    assert rows["toy"]["distribution"] == "hmux-test-plugins"
    assert not rows["slowpoke"]["enabled"]
    text = m.ok("plugins")
    assert "toy: enabled" in text and "slowpoke: disabled" in text


def test_emitted_event_runs_its_hook(make_mux, tmp_path):
    conf = tmp_path / "conf"
    conf.write_text("set-hook -g pane-toy-changed "
                    "'set -gF @fired \"#{hook_pane}:#{hook_old}->#{hook_new}\"'\n")
    m = make_mux("emitter,toy", config=str(conf))
    m.ok("new", "-d", "cat -")
    wait_for(lambda: m.cmd("show", "-gv", "@fired").out == "%0:none->lit\n")
    # a pane-* event is a pane hook, as tmux's own: listed with the window's hooks, not the
    # session's (libtmux's Hooks dataclass rejects session hooks it does not know)
    assert "pane-toy-changed" in m.ok("show-hooks", "-gw")
    assert "pane-toy-changed" not in m.ok("show-hooks", "-g")
    # Without the plugin the name is no hook at all, as in tmux.
    m2 = make_mux("toy")
    m2.ok("new", "-d", "cat -")
    assert m2.cmd("set-hook", "-g", "pane-toy-changed", "display hi").rc == 1


def test_unset_means_the_default_set(make_mux, tmp_path):
    m = make_mux(None)
    m.ok("new", "-d", "-c", "/tmp", "cat -")
    st = status(m)
    assert st["agent"]["enabled"] and st["git"]["enabled"]
    assert "toy" not in st  # installed, but not in the default set
    wait_for(lambda: m.ok("display", "-p", "#{pane_agent_state}") == "none\n")
    assert m.ok("display", "-p", "#{pane_state_emoji}").strip() != ""
    assert m.ok("show", "-gv", "window-status-format") == WINDOW_STATUS + "\n"
    # The default status label: the glyph, then the directory outside a repository.
    label = m.ok("display", "-p", "#{T:window-status-format}")
    assert label.startswith("0:") and label.rstrip("\n").endswith("tmp*")


def test_differential_suite_runs_with_no_plugins():
    """The explicit matrix entry: every differential test runs with TMUX_C2RS_PLUGINS=none."""
    assert base_env("/tmp")["TMUX_C2RS_PLUGINS"] == "none"
