"""Session files and damping in the agent plugin, driven by real fake agents on real PTYs:
files are read only when they change, key files are never read (checked by their access
time), FIFOs where session files belong cannot block the lane, and the hold against flicker
measured on a clock the test moves."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from test_agent_fakes import Clock, FakeHost, PtyProc, fakes_for, wait_until

from hmux_plugins_agent import AgentPlugin
from hmux_plugins_agent.damping import Damper


@pytest.fixture
def fakes(tmp_path_factory):
    return fakes_for(tmp_path_factory)


@pytest.fixture
def home(tmp_path) -> Path:
    h = tmp_path / "home"
    h.mkdir()
    return h


@pytest.fixture
def env(fakes, home):
    return fakes.env({"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
                      "TERM": "xterm-256color", "LANG": "C.UTF-8"})


@pytest.fixture
def host():
    h = FakeHost()
    yield h
    for hp in h.p.values():
        if hp.proc is not None:
            hp.proc.close()


def poll(plugin: AgentPlugin, host: FakeHost, pane: str, key: str, want, timeout: float = 10.0
         ) -> str:
    """Tick until ``key`` of ``pane`` satisfies ``want`` (a value or a predicate)."""
    ok = want if callable(want) else (lambda v: v == want)

    def check():
        plugin.tick(host)
        v = plugin.resolve(pane, key)
        return v if ok(v) else None

    wait_until(check, timeout=timeout, interval=0.05)
    return plugin.resolve(pane, key) or ""


def registry(home: Path, pid: str) -> Path:
    return home / ".claude" / "sessions" / f"{pid}.json"


def test_registry_read_only_when_it_changes(env, host, home, tmp_path):
    p = PtyProc(["exec claude"], env, str(tmp_path), shell=True)
    pane = host.add(p)
    plugin = AgentPlugin()
    plugin.start(host)
    sid = poll(plugin, host, pane, "pane_agent_session_id", bool)
    pid = plugin.resolve(pane, "pane_agent_pid")
    assert json.loads(registry(home, pid).read_text())["sessionId"] == sid
    for _ in range(6):  # let every staggered re-check come round once
        plugin.tick(host)
    reads = []
    for _ in range(10):
        plugin.tick(host)
        reads.append(plugin.stats.file_reads)
    assert reads == [0] * 10  # stat'ed every sweep, never read while unchanged
    p.send("work")  # the fake rewrites its registry with status "busy"
    seen: list[int] = []

    def working():
        plugin.tick(host)
        seen.append(plugin.stats.file_reads)
        return plugin.resolve(pane, "pane_agent_state") == "working"

    wait_until(working, interval=0.05)
    assert sum(seen) >= 1  # the changed registry was read: the screen alone says nothing


def _age_atime(path: Path) -> float:
    st = path.stat()
    os.utime(path, (st.st_mtime - 1000, st.st_mtime))
    return path.stat().st_atime


def test_key_files_beside_the_registry_are_never_read(env, host, home, tmp_path):
    p = PtyProc(["exec claude"], env, str(tmp_path), shell=True)
    pane = host.add(p)
    first = AgentPlugin()
    poll(first, host, pane, "pane_agent_session_id", bool)
    pid = first.resolve(pane, "pane_agent_pid")
    reg = registry(home, pid)
    keys = list(reg.parent.glob("*.key"))
    assert keys, "the fake writes a peer key beside its registry"
    # Reads move a file's access time (relatime: once the atime is older than the mtime).
    # A fresh plugin must read the registry (the control) and must not read the key.
    reg_atime = _age_atime(reg)
    key_atime = _age_atime(keys[0])
    fresh = AgentPlugin()
    poll(fresh, host, pane, "pane_agent_session_id", bool)
    for _ in range(20):
        fresh.tick(host)
    assert reg.stat().st_atime > reg_atime
    assert keys[0].stat().st_atime == key_atime


def _tick_returns(plugin: AgentPlugin, host: FakeHost, timeout: float = 5.0) -> bool:
    t = threading.Thread(target=plugin.tick, args=(host,), daemon=True)
    t.start()
    t.join(timeout)
    return not t.is_alive()


def test_fifos_where_session_files_belong_do_not_block(env, host, home, tmp_path):
    quiet = dict(env, FAKE_NO_FILES="1")
    p1 = PtyProc(["exec claude"], quiet, str(tmp_path), shell=True)
    claude = host.add(p1)
    p2 = PtyProc(["exec gemini"], quiet, str(tmp_path), shell=True)
    gemini = host.add(p2)
    plugin = AgentPlugin()
    pid = poll(plugin, host, claude, "pane_agent_pid", bool)
    poll(plugin, host, gemini, "pane_agent", "gemini")
    reg = registry(home, pid)
    reg.parent.mkdir(parents=True)
    os.mkfifo(reg)
    import hashlib

    digest = hashlib.sha256(os.path.realpath(tmp_path).encode()).hexdigest()
    chats = home / ".gemini" / "tmp" / digest / "chats"
    chats.mkdir(parents=True)
    os.mkfifo(chats / "session-2025-01-02T03-04-abcd1234.jsonl")
    for _ in range(8):
        assert _tick_returns(plugin, host), "a sweep blocked on a FIFO"
    host.show(claude, ["✻ Misting… (3s · esc to interrupt)", "─" * 20, "❯", "─" * 20])
    assert _tick_returns(plugin, host)
    assert plugin.resolve(claude, "pane_agent_state") == "working"
    assert plugin.resolve(claude, "pane_agent_session_id") == ""
    assert plugin.resolve(gemini, "pane_agent_session_id") == ""


def test_waiting_rings_the_bell_only_out_of_sight(env, host, tmp_path):
    quiet = dict(env, FAKE_NO_FILES="1")
    hidden = host.add(PtyProc(["exec codex"], quiet, str(tmp_path), shell=True))
    shown = host.add(PtyProc(["exec codex"], quiet, str(tmp_path), shell=True), visible=True)
    plugin = AgentPlugin()
    for pane in (hidden, shown):
        poll(plugin, host, pane, "pane_agent", "codex")
    ask = ["  Would you like to run the following command?", "› 1. Yes, proceed (y)",
           "  Press enter to confirm or esc to cancel"]
    for pane in (hidden, shown):
        host.show(pane, ask)
    plugin.tick(host)
    assert plugin.resolve(hidden, "pane_agent_state") == "waiting"
    assert plugin.resolve(shown, "pane_agent_state") == "waiting"
    assert host.bells == [hidden]
    changes = [e for e in host.events if e[0] == "pane-agent-state-changed"]
    assert {(e[1], e[2]["new"], e[2]["agent"]) for e in changes[-2:]} == {
        (hidden, "waiting", "codex"), (shown, "waiting", "codex")}
    plugin.tick(host)
    assert host.bells == [hidden]  # once per change, not per sweep


# -- damping on a clock the test moves ----------------------------------------------------------

HOLD = 1.0


def test_working_and_waiting_show_at_once_quiet_states_after_the_hold():
    d = Damper()
    d.observe("idle", -1.0, False, HOLD)  # at its prompt first: what follows is a turn
    assert d.observe("working", 0.0, False, HOLD) and d.state == "working"
    assert not d.observe("idle", 0.1, False, HOLD) and d.state == "working" and d.holding
    assert not d.observe("idle", 0.6, False, HOLD)
    assert d.observe("waiting", 0.7, False, HOLD) and d.state == "waiting"
    assert not d.holding
    d.observe("idle", 0.8, False, HOLD)
    assert not d.tick(1.7, False, HOLD) and d.state == "waiting"
    assert d.tick(1.8, False, HOLD) and d.state == "done"  # nobody looked: finished, unseen


def test_flicker_inside_the_hold_never_publishes_a_quiet_state():
    d = Damper()
    d.observe("working", 0.0, False, HOLD)
    t = 0.0
    for _ in range(30):  # idle-looking frames between working ones, 0.3 s apart
        t += 0.2
        d.observe("idle", t, False, HOLD)
        assert d.state == "working"
        t += 0.1
        d.observe("working", t, False, HOLD)
    d.observe("idle", t + 0.1, True, HOLD)
    assert d.state == "working"
    assert d.tick(t + 1.1, True, HOLD) and d.state == "idle"  # seen while it finished


def test_done_turns_idle_when_shown_and_keep_changes_nothing():
    d = Damper()
    d.observe("idle", -1.0, False, HOLD)
    d.observe("working", 0.0, False, HOLD)
    d.observe("idle", 0.1, False, HOLD)
    d.tick(1.2, False, HOLD)
    assert d.state == "done"
    assert not d.observe("keep", 2.0, False, HOLD) and d.state == "done"
    assert not d.observe("idle", 2.2, False, HOLD) and d.state == "done"
    assert d.tick(2.4, True, HOLD) and d.state == "idle"
    assert not d.observe("keep", 2.6, False, HOLD) and d.state == "idle"


def test_plugin_hold_measured_on_its_clock(env, host, tmp_path):
    clock = Clock()
    plugin = AgentPlugin(clock=clock)
    pane = host.add(PtyProc(["exec codex"], dict(env, FAKE_NO_FILES="1"), str(tmp_path),
                            shell=True))
    poll(plugin, host, pane, "pane_agent", "codex")
    host.show(pane, ["› ", "  gpt-5 · 100% context left"])  # at the prompt: then a turn
    plugin.tick(host)
    assert plugin.resolve(pane, "pane_agent_state") == "idle"
    host.show(pane, ["• Working (4s • esc to interrupt)", "› "])
    plugin.tick(host)
    assert plugin.resolve(pane, "pane_agent_state") == "working"
    host.show(pane, ["─ Worked for 4s ─", "› ", "  gpt-5 · 100% context left"])
    plugin.tick(host)  # the first quiet screen: the hold runs from here (a working pane's
    plugin.tick(host)  # screen is looked at every other sweep, so two at the same time)
    assert plugin.resolve(pane, "pane_agent_state") == "working"
    for _ in range(4):
        clock.advance(0.2)
        plugin.tick(host)
        assert plugin.resolve(pane, "pane_agent_state") == "working"
    clock.advance(0.25)
    plugin.tick(host)
    assert plugin.resolve(pane, "pane_agent_state") == "done"
    assert plugin.resolve(pane, "pane_state_emoji") == "✓"
    host.p[pane].visible = True
    plugin.tick(host)
    assert plugin.resolve(pane, "pane_agent_state") == "idle"
    assert host.states()[-2:] == [("working", "done"), ("done", "idle")]


def test_a_spinner_before_the_first_prompt_is_no_turn():
    """Codex spins its title while its servers start, a first-run question is answered
    before the prompt shows: neither ends in a done nobody caused (issue 27)."""
    d = Damper()
    assert d.observe("waiting", 0.0, False, HOLD)  # a trust screen
    d.observe("working", 0.5, False, HOLD)  # the start-up spinner
    d.observe("idle", 0.6, False, HOLD)
    assert d.tick(1.7, False, HOLD) and d.state == "idle"
    d.observe("working", 4.0, False, HOLD)  # now a real turn
    d.observe("idle", 5.0, False, HOLD)
    assert d.tick(6.1, False, HOLD) and d.state == "done"


def test_a_failed_turn_is_error_until_the_next_turn():
    d = Damper()
    d.observe("idle", 0.0, False, HOLD)
    d.observe("working", 1.0, False, HOLD)
    d.observe("error", 2.0, False, HOLD)
    assert d.state == "working"  # held like any quiet state
    assert d.tick(3.1, True, HOLD) and d.state == "error"  # seen or not: it failed
    assert not d.observe("error", 4.0, True, HOLD) and d.state == "error"
    assert d.observe("working", 5.0, True, HOLD) and d.state == "working"


# -- the events the plugin is sent ----------------------------------------------------------------

def test_only_the_events_it_listens_to_wake_the_plugin(tmp_path, monkeypatch):
    """A plugin naming ``listens`` is sent those events only; the agent plugin is sent none
    (it reads which panes printed from ``Host.revisions()`` once per sweep), so no server
    event wakes it between sweeps."""
    from hmux_core.plugin import Plugin
    from hmux_core.plugin.manager import PluginManager
    from hmux_core.server import Server

    class Everything(Plugin):
        name = "everything"

        def on_notify(self, event):
            pass

    class Created(Everything):
        name = "created"
        listens = ("pane-created",)

    monkeypatch.setenv("TMUX_C2RS_PLUGINS", "none")
    server = Server(str(tmp_path / "s"), 0, [], quiet_config=False)
    m = PluginManager(server)
    agent = m.add(AgentPlugin())
    created = m.add(Created())
    other = m.add(Everything())
    assert agent is not None and created is not None and other is not None
    assert not agent.wants_events
    m.on_server_event("pane-title-changed", {})
    m.on_server_event("window-renamed", {})
    m.on_server_event("pane-created", {})
    assert [e.name for e in agent.events] == []
    assert [e.name for e in created.events] == ["pane-created"]
    assert [e.name for e in other.events] == ["pane-title-changed", "window-renamed",
                                              "pane-created"]
    m.emit(other, "pane-agent-state-changed", None, {"old": "none", "new": "idle"})
    assert len(created.events) == 1  # nor another plugin's events it did not name
