"""The dashboard side of the agent plugin (issue 27): window and session roll-ups, the window
flag and desktop notification when an agent wants the user out of sight, hook reports as the
authority over the screen, the jump to the next pane that needs the user, and
``hmux agents install-hooks`` (idempotent, reversible, never touching the user's own hooks).
Fake agents run on real PTYs; the screens are the real agents' strings."""

from __future__ import annotations

import json
import os
import time

import pytest
from test_agent_fakes import FakeHost, PtyProc, fakes_for

from hmux_plugins_agent import AgentPlugin
from hmux_plugins_agent import hooks as agent_hooks
from hmux_plugins_agent.cli import next_pane
from hmux_plugins_agent.plugin import parse_report

CODEX_IDLE = ["› ", "  gpt-5 · 100% context left"]
CODEX_WORKING = ["• Working (4s • esc to interrupt)", "› "]
CODEX_WAITING = ["  Would you like to run the following command?", "  $ rm -rf build",
                 "› 1. Yes, proceed (y)", "  3. No, and tell Codex what to do differently (esc)",
                 "  Press enter to confirm or esc to cancel"]
CODEX_ERROR = ["› now do it", '■ {"error": {"message": "fake"}}', "› ",
               "  gpt-5 · 100% context left"]


@pytest.fixture
def fakes(tmp_path_factory):
    return fakes_for(tmp_path_factory)


@pytest.fixture
def host():
    h = FakeHost()
    yield h
    for hp in h.p.values():
        if hp.proc is not None:
            hp.proc.close()


@pytest.fixture
def start(fakes, host, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = fakes.env({"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
                     "TERM": "xterm-256color", "LANG": "C.UTF-8", "FAKE_NO_FILES": "1"})

    def run(agent: str, **kw: object) -> str:
        return host.add(PtyProc([f"exec {agent}"], env, str(tmp_path), shell=True), **kw)

    return run


def settle(plugin: AgentPlugin, host: FakeHost, panes: dict[str, str], timeout: float = 10.0
           ) -> None:
    """Tick until every pane publishes its wanted state."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        plugin.tick(host)
        if all(plugin.resolve(p, "pane_agent_state") == want for p, want in panes.items()):
            return
        time.sleep(0.05)
    got = {p: plugin.resolve(p, "pane_agent_state") for p in panes}
    raise AssertionError(f"wanted {panes}, got {got}")


def test_window_and_session_roll_up_the_most_urgent_state(host, start):
    plugin = AgentPlugin()
    a = start("codex", window="@1")
    b = start("codex", window="@1")
    c = start("codex", window="@2")
    shell = host.add(None, window="@2")
    for p in (a, b, c):
        host.show(p, CODEX_IDLE)
    settle(plugin, host, {a: "idle", b: "idle", c: "idle"})
    host.show(a, CODEX_WORKING)
    host.show(b, CODEX_WAITING)
    settle(plugin, host, {a: "working", b: "waiting", c: "idle"})
    assert plugin.resolve(a, "window_agent_state") == "waiting"
    assert plugin.resolve(a, "window_agent_counts") == "waiting=1 working=1"
    assert plugin.resolve(a, "window_state_emoji") == "●"
    assert plugin.resolve(c, "window_agent_state") == "idle"
    assert plugin.resolve(shell, "window_agent_state") == "idle"  # any pane of the window
    assert plugin.resolve(c, "session_agent_state") == "waiting"
    assert plugin.resolve(c, "session_agent_counts") == "waiting=1 working=1 idle=1"
    host.options[("@agent-glyph-waiting", None)] = "W"
    assert plugin.resolve(c, "session_state_emoji") == "W"
    # error ranks between waiting and working
    host.show(b, CODEX_ERROR)
    deadline = time.monotonic() + 5
    while plugin.resolve(a, "window_agent_state") != "error" and time.monotonic() < deadline:
        plugin.tick(host)
        time.sleep(0.05)
    assert plugin.resolve(a, "window_agent_state") == "error"
    assert plugin.resolve(a, "window_agent_counts") == "error=1 working=1"


def test_a_window_without_agents_rolls_up_to_none(host):
    plugin = AgentPlugin()
    shell = host.add(None, window="@3")
    plugin.tick(host)
    assert plugin.resolve(shell, "window_agent_state") == "none"
    assert plugin.resolve(shell, "window_agent_counts") == ""
    assert plugin.resolve(shell, "window_state_emoji") == "·"


def test_wanting_the_user_out_of_sight_flags_the_window_and_notifies(host, start):
    plugin = AgentPlugin()
    p = start("codex")
    host.options[("@agent-notify", None)] = "osc777"
    host.show(p, CODEX_IDLE)
    settle(plugin, host, {p: "idle"})
    host.show(p, CODEX_WAITING)
    settle(plugin, host, {p: "waiting"})
    assert host.bells == [p]
    assert host.notices == [(p, "codex waiting", "needs you", "osc777")]
    host.show(p, CODEX_ERROR)
    settle(plugin, host, {p: "error"})
    assert host.bells == [p, p] and host.notices[-1][1:3] == ("codex error", "the turn failed")
    # In sight: no flag, no notification.
    host.p[p].visible = True
    host.show(p, CODEX_WAITING)
    settle(plugin, host, {p: "waiting"})
    assert len(host.bells) == 2 and len(host.notices) == 2


def test_notifications_are_off_by_default(host, start):
    plugin = AgentPlugin()
    p = start("codex")
    host.show(p, CODEX_IDLE)
    settle(plugin, host, {p: "idle"})
    host.show(p, CODEX_WAITING)
    settle(plugin, host, {p: "waiting"})
    assert host.bells == [p] and host.notices == []


def test_hook_reports_decide_over_the_screen_until_they_stop(host, start):
    plugin = AgentPlugin()
    p = start("codex")
    host.show(p, CODEX_IDLE)
    settle(plugin, host, {p: "idle"})
    now = time.time()
    host.options[("@agent-report", p)] = f"working {now:.3f} codex"
    settle(plugin, host, {p: "working"})  # the screen still shows the prompt
    host.options[("@agent-report", p)] = f"waiting {now + 1:.3f} codex"
    settle(plugin, host, {p: "waiting"})
    # A strong blocker on screen outranks a working report (hooks miss answers).
    host.options[("@agent-report", p)] = f"working {now + 2:.3f} codex"
    host.show(p, CODEX_WAITING)
    settle(plugin, host, {p: "waiting"})
    # A working report nobody followed up is not believed for ever: the screen decides.
    host.options[("@agent-report", p)] = f"working {now - 120:.3f} codex"
    host.show(p, CODEX_IDLE)
    settle(plugin, host, {p: "done"})
    # An idle report does not hide a failed turn on screen.
    host.options[("@agent-report", p)] = f"idle {time.time():.3f} codex"
    host.show(p, CODEX_ERROR)
    settle(plugin, host, {p: "error"})


def test_a_report_from_before_the_agent_started_is_ignored(host, start):
    plugin = AgentPlugin()
    p = start("codex")
    host.options[("@agent-report", p)] = f"waiting {time.time() - 3600:.3f} claude"
    host.show(p, CODEX_IDLE)
    settle(plugin, host, {p: "idle"})


def test_parse_report():
    assert parse_report("working 1733500000.5 claude") == ("working", 1733500000.5)
    assert parse_report("done 1 x") == ("done", 1.0)
    assert parse_report("busy 1") is None
    assert parse_report("working soon") is None
    assert parse_report("") is None and parse_report(None) is None


def test_next_pane_goes_by_urgency_then_round_from_the_current_one():
    panes = [("$0", "@0", "%0", "idle", "codex"), ("$0", "@1", "%1", "done", "claude"),
             ("$1", "@2", "%2", "waiting", "gemini"), ("$1", "@3", "%3", "waiting", "aider"),
             ("$1", "@3", "%4", "error", "aider"), ("$1", "@4", "%5", "none", "")]
    assert next_pane(panes, "%0") == "%2"
    assert next_pane(panes, "%2") == "%3"
    assert next_pane(panes, "%3") == "%2"  # round again
    assert next_pane([p for p in panes if p[3] != "waiting"], "%0") == "%4"
    assert next_pane([p for p in panes if p[3] in ("idle", "none")], "%0") is None


# -- install-hooks -----------------------------------------------------------------------------------

HMUX = ["/usr/bin/hmux"]


def test_claude_hooks_install_once_keep_the_users_and_remove_cleanly(tmp_path):
    env = {"HOME": str(tmp_path)}
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    mine = {"model": "opus", "hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "notify-send done"}]}]}}
    path.write_text(json.dumps(mine, indent=4))
    change = agent_hooks.plan("claude", HMUX, env=env)
    assert change.changed and change.old == path.read_text()
    agent_hooks.apply(change)
    doc = json.loads(path.read_text())
    assert doc["model"] == "opus"
    stop = [h["command"] for g in doc["hooks"]["Stop"] for h in g["hooks"]]
    assert stop == ["notify-send done", "/usr/bin/hmux agents report idle --agent claude"]
    perm = doc["hooks"]["Notification"]
    assert {"matcher": "permission_prompt", "hooks": [{
        "type": "command", "command": "/usr/bin/hmux agents report waiting --agent claude",
        "timeout": 5}]} in perm
    assert doc["hooks"]["StopFailure"][0]["hooks"][0]["command"].endswith("error --agent claude")
    again = agent_hooks.plan("claude", HMUX, env=env)
    assert not again.changed  # idempotent
    gone = agent_hooks.plan("claude", HMUX, remove=True, env=env)
    agent_hooks.apply(gone)
    assert json.loads(path.read_text()) == mine


def test_gemini_hooks_use_its_events(tmp_path):
    env = {"HOME": str(tmp_path)}
    change = agent_hooks.plan("gemini", HMUX, env=env)
    assert change.old is None and change.path == str(tmp_path / ".gemini" / "settings.json")
    doc = json.loads(change.new or "")
    assert set(doc["hooks"]) == {"BeforeAgent", "BeforeTool", "AfterTool", "Notification",
                                 "AfterAgent"}
    # Gemini reads a hook's timeout in milliseconds (5 would fail every hook), Claude seconds.
    assert doc["hooks"]["AfterAgent"][0]["hooks"][0]["timeout"] == 5000
    agent_hooks.apply(change)
    agent_hooks.apply(agent_hooks.plan("gemini", HMUX, remove=True, env=env))
    assert json.loads((tmp_path / ".gemini" / "settings.json").read_text()) == {}


def test_codex_notify_goes_first_and_a_users_own_notify_is_kept(tmp_path):
    env = {"HOME": str(tmp_path), "CODEX_HOME": str(tmp_path / "cx")}
    path = tmp_path / "cx" / "config.toml"
    path.parent.mkdir()
    path.write_text('model = "gpt-5"\n\n[model_providers.x]\nname = "x"\n')
    change = agent_hooks.plan("codex", HMUX, env=env)
    agent_hooks.apply(change)
    import tomllib

    doc = tomllib.loads(path.read_text())
    assert doc["notify"] == ["/usr/bin/hmux", "agents", "report", "--agent", "codex",
                             "--codex-notify"]
    assert doc["model_providers"]["x"]["name"] == "x" and "notify" not in doc["model_providers"]
    assert not agent_hooks.plan("codex", HMUX, env=env).changed
    agent_hooks.apply(agent_hooks.plan("codex", HMUX, remove=True, env=env))
    assert path.read_text() == 'model = "gpt-5"\n\n[model_providers.x]\nname = "x"\n'
    path.write_text('notify = ["my-notifier"]\n')
    with pytest.raises(ValueError, match="its own top-level notify"):
        agent_hooks.plan("codex", HMUX, env=env)


def test_codex_notify_payloads():
    assert agent_hooks.codex_notify_state('{"type": "agent-turn-complete"}') == "idle"
    assert agent_hooks.codex_notify_state('{"type": "approval-requested"}') == "waiting"
    assert agent_hooks.codex_notify_state('{"type": "other"}') is None
    assert agent_hooks.codex_notify_state("not json") is None


def test_opencode_plugin_file_is_ours_alone(tmp_path):
    env = {"HOME": str(tmp_path)}
    change = agent_hooks.plan("opencode", HMUX, env=env)
    assert change.path.endswith("/.config/opencode/plugin/hmux-report.js")
    assert '"/usr/bin/hmux"' in (change.new or "") and "session.error" in (change.new or "")
    agent_hooks.apply(change)
    assert not agent_hooks.plan("opencode", HMUX, env=env).changed
    agent_hooks.apply(agent_hooks.plan("opencode", HMUX, remove=True, env=env))
    assert not os.path.exists(change.path)
    with open(change.path, "w") as f:
        f.write("// someone else's\n")
    with pytest.raises(ValueError, match="not written by hmux"):
        agent_hooks.plan("opencode", HMUX, env=env)


def test_install_hooks_shows_the_diff_and_writes_only_when_told(tmp_path, monkeypatch, capsys):
    from hmux_plugins_agent.cli import main

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setattr("sys.stdin", open(os.devnull))  # not a terminal: nobody to ask
    assert main(["install-hooks", "claude"]) == 1
    out = capsys.readouterr()
    assert "+++ " in out.out and "agents report working --agent claude" in out.out
    assert "--yes" in out.err
    assert not (tmp_path / ".claude" / "settings.json").exists()
    assert main(["install-hooks", "claude", "--yes"]) == 0
    assert (tmp_path / ".claude" / "settings.json").exists()
    assert main(["install-hooks", "claude"]) == 0  # nothing to do: nothing asked
    assert "up to date" in capsys.readouterr().out
    assert main(["install-hooks", "claude", "--remove", "--yes"]) == 0
    assert json.loads((tmp_path / ".claude" / "settings.json").read_text()) == {}
    with pytest.raises(SystemExit):
        main(["install-hooks", "aider"])  # aider has no hooks
