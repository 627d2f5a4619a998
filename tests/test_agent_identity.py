"""Which agent runs in a pane: argv rules, the table's names and paths, HMUX_AGENT, and real
processes found through their PTY's foreground process group."""

from __future__ import annotations

import os

import pytest
from test_agent_fakes import FakeHost, PtyProc, cmdline, fakes_for, wait_until

from hmux_plugins_agent import AgentPlugin
from hmux_plugins_agent.identity import match_argv, normalize, script_of
from hmux_plugins_agent.procs import Snapshot
from hmux_plugins_agent.table import load

TABLE = load([])


@pytest.mark.parametrize("argv, label", [
    (["claude"], "claude"),
    (["/home/u/.local/bin/claude", "--model", "opus"], "claude"),
    (["claude.exe"], "claude"),
    (["/nix/store/abc-claude/bin/.claude-unwrapped"], "claude"),
    (["/nix/store/abc/bin/.claude-code-wrapped"], "claude"),
    (["node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"], "claude"),
    (["node", "/usr/local/bin/codex", "--model", "gpt-5"], "codex"),
    (["node", "/x/node_modules/@openai/codex/bin/codex.js"], "codex"),
    (["/x/node_modules/@openai/codex-linux-x64/vendor/x86_64/codex/codex"], "codex"),
    (["/nix/store/q/bin/.codex-wrapped"], "codex"),
    (["node", "--no-warnings", "/x/node_modules/@google/gemini-cli/dist/index.js"], "gemini"),
    (["node", "-r", "/x/preload.js", "/usr/bin/gemini"], "gemini"),
    (["bun", "run", "/x/bin/opencode"], "opencode"),
    (["/x/node_modules/opencode-ai/bin/opencode"], "opencode"),
    (["python3", "-m", "aider", "--model", "gpt-4o"], "aider"),
    (["python3.12", "-m", "aider.main"], "aider"),
    (["/venv/bin/python3.11", "/venv/bin/aider"], "aider"),
    (["/usr/bin/python3.12", "/home/u/.local/bin/hermes"], "hermes"),
    (["node", "--use-system-ca", "/h/.local/share/cursor-agent/versions/2025.1/index.js"],
     "cursor"),
    (["cursor-agent"], "cursor"),
    (["gh", "copilot"], "copilot"),
    (["node", "/usr/lib/node_modules/@github/copilot/index.js"], "copilot"),
    (["amp"], "amp"),
    (["goose", "session"], "goose"),
    (["qwen"], "qwen"),
    (["env", "FOO=1", "-u", "BAR", "gemini"], "gemini"),
    (["sh", "/usr/local/bin/codex"], "codex"),
])
def test_argv_names_the_agent(argv, label):
    found = match_argv(argv, TABLE)
    assert found is not None and found[0] == label


@pytest.mark.parametrize("argv", [
    ["my-codex-helper"],             # an exact basename is required
    ["claude-notes"],
    ["node", "-e", "require('codex')"],  # inline code names no script
    ["node", "-p", "claude"],
    ["python3", "-c", "import aider"],
    ["bash", "-c", "claude"],        # sh -c: the child, not the shell, is the agent
    ["bash"],
    ["-zsh"],
    ["node"],
    ["agent"],                       # too common a name to claim without a path
    ["claude", "--bg-spare", "x"],   # Claude's background workers
    ["codex", "app-server"],         # the shared Codex daemon
    ["vim", "claude.md"],
    ["python3", "-m", "http.server"],
])
def test_argv_that_is_no_agent(argv):
    assert match_argv(argv, TABLE) is None


def test_comm_is_never_consulted_but_exe_is_when_argv_says_nothing():
    # Native Claude's binary is named after its version; argv[0] may be that name too.
    exe = "/home/u/.local/share/claude/versions/2.1.3"
    assert match_argv(["2.1.3"], TABLE, exe=lambda: exe) == ("claude", 1)
    asked = []
    assert match_argv(["claude"], TABLE, exe=lambda: asked.append(1) or exe)[0] == "claude"
    assert asked == []  # argv was enough: no readlink


def test_symlinked_argv0_is_resolved(tmp_path):
    real = tmp_path / "cursor-agent"
    real.write_text("#!/bin/sh\n")
    link = tmp_path / "agent"
    link.symlink_to(real)
    assert match_argv([str(link)], TABLE) == ("cursor", 1)
    assert match_argv(["bash", str(link)], TABLE) == ("cursor", 1)


def test_normalize_and_script_parsing():
    assert normalize(".claude-unwrapped") == "claude"
    assert normalize("Codex.JS") == "codex"
    assert script_of(["node", "--inspect-port", "9", "x.js"], "node").script == "x.js"
    assert script_of(["python3", "-W", "ignore", "-m", "aider"], "python").module == "aider"
    assert script_of(["node", "--eval", "1"], "node").inline


# -- real processes ------------------------------------------------------------------------------

@pytest.fixture
def fakes(tmp_path_factory):
    return fakes_for(tmp_path_factory)


@pytest.fixture
def env(fakes, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    return fakes.env({"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
                      "TERM": "xterm-256color", "LANG": "C.UTF-8"})


@pytest.fixture
def host(request):
    h = FakeHost()
    yield h
    for hp in h.p.values():
        if hp.proc is not None:
            hp.proc.close()


def start(host: FakeHost, env: dict[str, str], cwd: str, command: str) -> tuple[str, PtyProc]:
    """A pane running ``sh -c command``, as a multiplexer starts a pane's command."""
    p = PtyProc([command], env, cwd, shell=True)
    return host.add(p), p


def settle(plugin: AgentPlugin, host: FakeHost, pane: str, want: str, timeout: float = 10.0
           ) -> str:
    def check():
        plugin.tick(host)
        return plugin.resolve(pane, "pane_agent") == want

    wait_until(check, timeout=timeout, interval=0.05)
    return plugin.resolve(pane, "pane_agent_pid") or ""


def _agent_pid(p: PtyProc, argv0: str) -> int:
    """The pid of the process in the pane's foreground group whose argv[0] is ``argv0``
    (polled: a wrapper script may still be on its way to exec it)."""
    found: list[int] = []

    def look() -> bool:
        snap = Snapshot()
        found[:] = [pid for pid in snap.members(p.pgrp(), p.pid)
                    if (cmdline(pid) or [""])[0] == argv0]
        return bool(found)

    try:
        wait_until(look, timeout=10.0, interval=0.05)
    except AssertionError:
        raise AssertionError(f"no {argv0} in group {p.pgrp()}") from None
    return found[0]


@pytest.mark.parametrize("command, label, argv0", [
    ("claude --model opus", "claude", "claude"),
    ("codex --model gpt-5", "codex", "node"),
    ("gemini", "gemini", "node"),
    ("qwen", "qwen", "node"),
    ("copilot", "copilot", "node"),
    ("amp", "amp", "node"),
    ("python3 -m aider --model gpt-4o", "aider", "python3"),
    ("aider", "aider", None),
    ("opencode", "opencode", "opencode"),
    ("goose session", "goose", "goose"),
    ("cursor-agent", "cursor", "node"),
    ("agent", "cursor", "node"),
    ("{nix}/.claude-unwrapped", "claude", "{nix}/.claude-unwrapped"),
])
def test_real_fake_agents_are_recognised(fakes, env, host, tmp_path, command, label, argv0):
    nix = fakes.path("nix", "bin")
    command = command.format(nix=nix)
    pane, p = start(host, env, str(tmp_path), command)
    plugin = AgentPlugin()
    pid = settle(plugin, host, pane, label)
    if argv0 is None:
        argv0 = cmdline(int(pid))[0]
    else:
        argv0 = argv0.format(nix=nix)
    # sh -c leads the group and waits; the agent is its child, found among the members.
    assert int(pid) == _agent_pid(p, argv0)
    assert plugin.resolve(pane, "pane_agent_state") != "none"


def test_exec_replaces_the_shell_and_the_leader_is_the_agent(env, host, tmp_path):
    pane, p = start(host, env, str(tmp_path), "exec claude")
    plugin = AgentPlugin()
    pid = settle(plugin, host, pane, "claude")
    assert int(pid) == p.pid == p.pgrp()


def test_versioned_binary_under_its_own_name_is_found_by_exe(fakes, env, host, tmp_path):
    binary = fakes.path("share", "claude", "versions", "2.1.3")
    p = PtyProc(["bash", "-c", f"exec -a 2.1.3 {binary}"], env, str(tmp_path))
    pane = host.add(p)
    wait_until(lambda: cmdline(p.pgrp())[0] == "2.1.3")
    plugin = AgentPlugin()
    assert int(settle(plugin, host, pane, "claude")) == p.pid


def test_look_alike_and_plain_shell_are_no_agent(env, host, tmp_path):
    helper, p1 = start(host, env, str(tmp_path), "exec my-codex-helper")
    shell, p2 = start(host, env, str(tmp_path), "exec sh -i")
    plugin = AgentPlugin()
    wait_until(lambda: cmdline(p1.pgrp())[0] == "my-codex-helper")
    wait_until(lambda: p2.pgrp() > 0)
    for _ in range(3):
        plugin.tick(host)
    for pane in (helper, shell):
        assert plugin.resolve(pane, "pane_agent") == ""
        assert plugin.resolve(pane, "pane_agent_state") == "none"
        assert plugin.resolve(pane, "pane_agent_pid") == ""
        assert plugin.resolve(pane, "pane_state_emoji") == "·"


def test_hmux_agent_pins_identity_for_wrappers(env, host, tmp_path):
    pinned, _ = start(host, dict(env, HMUX_AGENT="claude", FAKE_NO_FILES="1"), str(tmp_path),
                      "exec ssh-box")
    plain, p2 = start(host, dict(env, FAKE_NO_FILES="1"), str(tmp_path), "exec ssh-box")
    other, _ = start(host, dict(env, HMUX_AGENT="my-agent", FAKE_NO_FILES="1"), str(tmp_path),
                     "exec ssh-box")
    off, _ = start(host, dict(env, HMUX_AGENT="none"), str(tmp_path), "exec claude")
    plugin = AgentPlugin()
    settle(plugin, host, pinned, "claude")
    settle(plugin, host, other, "my-agent")
    wait_until(lambda: cmdline(p2.pgrp())[0] == "ssh-box")
    plugin.tick(host)
    assert plugin.resolve(plain, "pane_agent") == ""
    assert plugin.resolve(off, "pane_agent") == ""
    # A pinned label the table does not know is judged by the generic rules.
    host.show(other, ["remote$ make", "building"])
    plugin.tick(host)
    assert plugin.resolve(other, "pane_agent_state") == "unknown"
    host.show(other, ["building", "Proceed with install? [y/N]"])
    plugin.tick(host)
    assert plugin.resolve(other, "pane_agent_state") == "waiting"
    host.show(other, ["installing…", "  esc to interrupt"])
    plugin.tick(host)
    assert plugin.resolve(other, "pane_agent_state") == "working"


def test_agent_exit_returns_the_pane_to_none(env, host, tmp_path):
    pane, p = start(host, env, str(tmp_path), "claude; exec sh -i")
    plugin = AgentPlugin()
    settle(plugin, host, pane, "claude")
    host.show(pane, ["────────────────", "❯", "────────────────"], title="✳ Claude Code")
    plugin.tick(host)
    assert plugin.resolve(pane, "pane_agent_state") == "idle"
    p.send("quit")
    settle(plugin, host, pane, "")
    assert plugin.resolve(pane, "pane_agent_state") == "none"
    assert host.states()[-1] == ("idle", "none")
    assert host.events[-1][2]["agent"] == "claude"


def test_one_snapshot_per_sweep_and_nothing_reread_when_nothing_changed(env, host, tmp_path):
    panes = [start(host, env, str(tmp_path), "exec sh -i")[0] for _ in range(8)]
    agent, _ = start(host, env, str(tmp_path), "exec claude")
    plugin = AgentPlugin()
    settle(plugin, host, agent, "claude")
    for _ in range(6):  # let every staggered re-check come round once
        plugin.tick(host)
    identities = []
    reads = []
    for _ in range(10):
        plugin.tick(host)
        identities.append(plugin.stats.identities)
        reads.append(plugin.stats.proc_reads)
    # Unchanged panes are not identified again; each is glanced at (one cmdline read) about
    # once a second, so a sweep reads far fewer files than there are panes.
    assert identities == [0] * 10
    assert max(reads) <= len(panes) // 2 + 2
    assert plugin.stats.classified == 0
    host.show(agent, ["✻ Misting… (3s · esc to interrupt)", "────────", "❯", "────────"])
    plugin.tick(host)
    assert plugin.stats.classified == 1
    assert plugin.resolve(agent, "pane_agent_state") == "working"


# -- the real packages of more agents (tests/agents/identities.py records them) ------------------

def _recorded_identities() -> list[dict]:
    import json
    from pathlib import Path

    path = Path(__file__).parent / "agents" / "fixtures" / "identities.json"
    return json.loads(path.read_text())["agents"]


@pytest.mark.parametrize("rec", _recorded_identities(), ids=lambda r: r["label"])
def test_real_packages_of_more_agents_are_recognised(rec):
    """The process group each real package starts (npm's bin shims, the node or native
    process behind them, a venv's console script) names its agent, best member first."""
    from hmux_plugins_agent.identity import match_argv
    from hmux_plugins_agent.table import load

    table = load([])
    best = None
    for m in rec["members"]:
        found = match_argv(m["argv"], table, exe=lambda m=m: m["exe"] or None,
                           realpath=lambda p: p)
        if found is not None and (best is None or found[1] > best[1]):
            best = found
    assert rec["members"], f"{rec['label']}: the package started nothing"
    assert best is not None and best[0] == rec["label"], (rec["label"], rec["members"])
