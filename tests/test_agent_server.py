"""The agent plugin inside a real hmux server (``TMUX_C2RS_PLUGINS=agent``): fake agents run
in panes and move between states on keys sent with ``send-keys``; everything is asserted with
``display -p -t %N '#{pane_agent_…}'`` against the running server. Covered here: session ids
and models from each agent's own files and argv (with ``CLAUDE_CONFIG_DIR``, ``CODEX_HOME``,
``GEMINI_CLI_HOME``), the state-change hook, the bell flag for ``waiting``, done → idle when a
client shows the pane (attach, select-window), glyph options, agents that exit, and the hold
against flicker.

The server is polled with the stock tmux client pointed at the hmux socket (a few ms per round
trip, where the Python client costs ~80 ms). Attached clients run in an outer tmux 3.3a.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path

import pytest
from harness import HMUX, TMUX, Mux, base_env, wait_for
from test_agent_fakes import fakes_for

pytestmark = pytest.mark.skipif(not os.path.exists(TMUX), reason="needs the tmux client")

ALL = ("#{pane_agent}|#{pane_agent_state}|#{pane_agent_pid}|#{pane_agent_session_id}|"
       "#{pane_agent_model}|#{pane_state_emoji}")


class AgentServer:
    """One hmux server running the agent plugin, with the fakes on its PATH."""

    def __init__(self, tmp: Path, request, fakes, config: str = "") -> None:
        sock = tmp / "sock"
        sock.mkdir()
        self.env = fakes.env(base_env(str(sock)))
        self.env["TMUX_C2RS_PLUGINS"] = "agent"
        self.home = Path(self.env["HOME"])
        self.work = tmp / "work"
        self.work.mkdir()
        self.log = tmp / "hooks.log"
        conf = tmp / "hmux.conf"
        conf.write_text("setw -g automatic-rename off\n" + config.replace("LOG", str(self.log)))
        self.label = "a" + uuid.uuid4().hex[:8]
        self.mux = Mux(HMUX, ["-L", self.label], self.env, cwd=str(self.work), config=str(conf))
        request.addfinalizer(self.mux.kill)
        self.path = os.path.join(str(sock), f"hmux-{os.getuid()}", self.label)
        self.fast = Mux([TMUX], ["-S", self.path], self.env, cwd=str(self.work), config=None)
        self.started = False

    def pane(self, command: str, *env: str, name: str | None = None) -> str:
        """A new window (the first one makes session ``s``) running ``command``; its pane id."""
        extra = [a for kv in env for a in ("-e", kv)]
        named = ["-n", name] if name else []
        if not self.started:
            out = self.mux.ok("new-session", "-d", "-s", "s", "-x", "120", "-y", "40", *named,
                              "-c", str(self.work), "-P", "-F", "#{pane_id}", *extra, command)
            self.started = True
        else:
            out = self.fast.ok("new-window", "-d", "-t", "s:", *named, "-c", str(self.work),
                               "-P", "-F", "#{pane_id}", *extra, command)
        return out.strip()

    def show(self, target: str, fmt: str) -> str:
        r = self.fast.cmd("display", "-p", "-t", target, fmt)
        return r.out.removesuffix("\n") if r.rc == 0 else f"<rc={r.rc} {r.err.strip()}>"

    def wait_show(self, target: str, fmt: str, want: str, timeout: float = 15.0) -> float:
        """Poll until ``fmt`` shows ``want``; the seconds it took."""
        t0 = time.monotonic()
        last = [""]

        def ok() -> bool:
            last[0] = self.show(target, fmt)
            return last[0] == want

        try:
            wait_for(ok, timeout=timeout, interval=0.01)
        except AssertionError:
            raise AssertionError(f"{target}: wanted {want!r} for {fmt!r}, last {last[0]!r}") \
                from None
        return time.monotonic() - t0

    def state(self, pane: str, want: str, timeout: float = 15.0) -> float:
        return self.wait_show(pane, "#{pane_agent_state}", want, timeout)

    def send(self, pane: str, line: str) -> None:
        self.fast.ok("send-keys", "-t", pane, "-l", line)
        self.fast.ok("send-keys", "-t", pane, "Enter")

    def hook_lines(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []


@pytest.fixture
def fakes(tmp_path_factory):
    return fakes_for(tmp_path_factory)


@pytest.fixture
def make(tmp_path, request, fakes):
    def build(config: str = "") -> AgentServer:
        return AgentServer(tmp_path, request, fakes, config)

    return build


def _values(srv: AgentServer, pane: str) -> dict[str, str]:
    keys = ("agent", "state", "pid", "session", "model", "glyph")
    return dict(zip(keys, srv.show(pane, ALL).split("|"), strict=True))


# -- session ids and models ----------------------------------------------------------------------

def test_claude_registry_transcript_and_states(make):
    srv = make()
    pane = srv.pane("claude --model opus")
    srv.state(pane, "idle")
    v = _values(srv, pane)
    assert v["agent"] == "claude" and v["model"] == "opus"  # argv, no reply in the transcript yet
    reg = json.loads((srv.home / ".claude" / "sessions" / f"{v['pid']}.json").read_text())
    assert v["session"] == reg["sessionId"]
    # The transcript's assistant records outrank the argv flag.
    srv.send(pane, "model claude-opus-4-1")
    srv.wait_show(pane, "#{pane_agent_model}", "claude-opus-4-1")
    srv.send(pane, "work")
    srv.state(pane, "working")
    assert srv.show(pane, "#{pane_state_emoji}") == "◐"
    srv.send(pane, "ask")
    srv.state(pane, "waiting")
    assert srv.show(pane, "#{pane_state_emoji}") == "●"
    srv.send(pane, "finish")
    srv.state(pane, "done")  # no client has seen this pane
    assert srv.show(pane, "#{pane_state_emoji}") == "✓"
    # The registry's status alone (the screen still shows the idle prompt) says waiting.
    srv.send(pane, "filewait")
    srv.state(pane, "waiting")
    assert srv.show(pane, "#{pane_agent_session_id}") == reg["sessionId"]


def test_claude_config_dir_and_session_flags(make, tmp_path):
    srv = make()
    cfg = tmp_path / "claude-config"
    own = srv.pane("claude", f"CLAUDE_CONFIG_DIR={cfg}")
    resumed = srv.pane("claude --resume 0b9c2d1e-aaaa-4bbb-8ccc-123456789abc", "FAKE_NO_FILES=1")
    named = srv.pane("claude --session-id 5e0d6f2a-1111-4222-8333-444455556666 --model sonnet",
                     "FAKE_NO_FILES=1")
    sid = srv.wait_show(own, "#{?pane_agent_session_id,yes,no}", "yes")
    assert sid >= 0
    v = _values(srv, own)
    regs = list((cfg / "sessions").glob("*.json"))
    assert [r.name for r in regs] == [f"{v['pid']}.json"]
    assert v["session"] == json.loads(regs[0].read_text())["sessionId"]
    assert not (srv.home / ".claude").exists()  # the agent's environment chose the directory
    srv.wait_show(resumed, "#{pane_agent_session_id}", "0b9c2d1e-aaaa-4bbb-8ccc-123456789abc")
    srv.wait_show(named, "#{pane_agent_session_id}|#{pane_agent_model}",
                  "5e0d6f2a-1111-4222-8333-444455556666|sonnet")


def test_codex_rollout_held_open_and_turn_context(make, tmp_path):
    srv = make()
    codex_home = tmp_path / "codex-home"
    sid = "019a2b3c-4d5e-7f60-8a9b-0c1d2e3f4a5b"
    pane = srv.pane("codex --model gpt-5", f"CODEX_HOME={codex_home}", f"FAKE_SESSION_ID={sid}")
    srv.wait_show(pane, "#{pane_agent}|#{pane_agent_session_id}|#{pane_agent_model}",
                  f"codex|{sid}|gpt-5")
    rollouts = list((codex_home / "sessions").rglob("rollout-*.jsonl"))
    assert len(rollouts) == 1 and sid in rollouts[0].name
    assert not (srv.home / ".codex").exists()
    # A later turn_context record names the model now in use.
    srv.send(pane, "model o3")
    srv.wait_show(pane, "#{pane_agent_model}", "o3")
    srv.send(pane, "work")
    srv.state(pane, "working")
    srv.send(pane, "ask")
    srv.state(pane, "waiting")
    resumed = srv.pane(f"codex resume {sid}", "FAKE_NO_FILES=1")
    srv.wait_show(resumed, "#{pane_agent}|#{pane_agent_session_id}", f"codex|{sid}")


def test_gemini_chat_file_and_home(make, tmp_path):
    srv = make()
    gemini_home = tmp_path / "gemini-home"
    sid = "7c1e0a52-3d4f-4e6a-9b8c-0d1e2f3a4b5c"
    pane = srv.pane("gemini", f"GEMINI_CLI_HOME={gemini_home}", f"FAKE_SESSION_ID={sid}")
    srv.wait_show(pane, "#{pane_agent}|#{pane_agent_session_id}", f"gemini|{sid}")
    assert list((gemini_home / ".gemini" / "tmp").rglob("session-*.jsonl"))
    srv.send(pane, "finish")  # the reply record carries the model
    srv.wait_show(pane, "#{pane_agent_model}", "gemini-2.5-pro")
    srv.send(pane, "model gemini-2.5-flash")
    srv.wait_show(pane, "#{pane_agent_model}", "gemini-2.5-flash")
    srv.send(pane, "work")
    srv.state(pane, "working")


def test_hmux_agent_pins_a_wrapper(make):
    srv = make()
    plain = srv.pane("ssh-box", "FAKE_NO_FILES=1")
    pinned = srv.pane("ssh-box", "FAKE_NO_FILES=1", "HMUX_AGENT=claude")
    srv.wait_show(pinned, "#{pane_agent}", "claude")
    srv.send(pinned, "work")
    srv.state(pinned, "working")
    assert srv.show(plain, "#{pane_agent}|#{pane_agent_state}|#{pane_state_emoji}") == "|none|·"


# -- events, bell, done → idle -------------------------------------------------------------------

HOOK = ("set-hook -g pane-agent-state-changed "
        "'run-shell \"echo #{hook_pane} #{hook_agent} #{hook_old} #{hook_new} >> LOG\"'\n")


def test_state_change_hook_runs_with_old_and_new(make):
    srv = make(HOOK)
    pane = srv.pane("codex", "FAKE_NO_FILES=1")
    srv.state(pane, "idle")
    srv.send(pane, "work")
    srv.state(pane, "working")
    srv.send(pane, "finish")
    srv.state(pane, "done")
    wait_for(lambda: f"{pane} codex working done" in srv.hook_lines())
    lines = srv.hook_lines()
    tail = lines[lines.index(f"{pane} codex idle working"):]
    assert tail == [f"{pane} codex idle working", f"{pane} codex working done"]
    assert lines[0].startswith(f"{pane} codex none ")


def test_waiting_raises_the_bell_flag_of_a_window_out_of_sight(make):
    srv = make(HOOK + "set-hook -g alert-bell 'run-shell \"echo bell #{hook_window} >> LOG\"'\n")
    srv.pane("cat", name="shell")
    quiet = srv.pane("codex", "FAKE_NO_FILES=1", name="quiet")
    pane = srv.pane("codex", "FAKE_NO_FILES=1", name="agent")
    srv.fast.ok("set-option", "-w", "-t", "s:quiet", "monitor-bell", "off")
    window = srv.show(pane, "#{window_id}")
    for p in (pane, quiet):
        srv.state(p, "idle")
        assert srv.show(p, "#{window_bell_flag}") == "0"
        srv.send(p, "ask")
        srv.state(p, "waiting")
    srv.wait_show(pane, "#{window_bell_flag}", "1")
    wait_for(lambda: f"bell {window}" in srv.hook_lines())
    assert srv.show(quiet, "#{window_bell_flag}") == "0"  # monitor-bell off: no flag
    assert srv.show("s:shell", "#{window_bell_flag}") == "0"
    assert srv.show("s:", "#{session_alerts}") == srv.show(pane, "#{window_index}!")
    srv.fast.ok("select-window", "-t", "s:agent")  # selecting the window clears it, as in tmux
    assert srv.show(pane, "#{window_bell_flag}") == "0"


class Outer:
    """An outer tmux 3.3a whose pane is the terminal of an attached hmux client."""

    def __init__(self, env: dict[str, str], request) -> None:
        self.mux = Mux([TMUX], ["-L", "outer" + uuid.uuid4().hex[:6]], env, cwd=env["HOME"])
        request.addfinalizer(self.mux.kill)

    def attach(self, srv: AgentServer, target: str) -> None:
        argv = " ".join(HMUX) + f" -L {srv.label} attach -t {target}"
        self.mux.ok("new-session", "-d", "-s", "o", "-x", "120", "-y", "30",
                    f"{argv}; exec sleep 3600")

    def screen(self) -> str:
        return self.mux.ok("capture-pane", "-p", "-t", "o")


def test_done_turns_idle_when_a_client_shows_the_pane(make, request):
    srv = make(HOOK + "set -g display-time 60000\n"
               "set-hook -ga pane-agent-state-changed "
               "'display \"agent #{hook_agent} #{hook_old} to #{hook_new}\"'\n")
    srv.pane("cat", name="shell")
    pane = srv.pane("codex", "FAKE_NO_FILES=1", name="agent")
    srv.state(pane, "idle")
    srv.send(pane, "work")
    srv.state(pane, "working")
    srv.send(pane, "finish")
    srv.state(pane, "done")
    outer = Outer(srv.env, request)
    outer.attach(srv, "s:shell")
    wait_for(lambda: "[s]" in outer.screen())
    srv.wait_show("s:", "#{session_attached}", "1")
    # A client is attached, but shows the other window: the turn is still unseen.
    for _ in range(5):
        assert srv.show(pane, "#{pane_agent_state}") == "done"
        time.sleep(0.1)
    srv.fast.ok("select-window", "-t", "s:agent")
    srv.state(pane, "idle")
    wait_for(lambda: f"{pane} codex done idle" in srv.hook_lines())
    # The display hook ran on the attached client: its status line shows the message.
    wait_for(lambda: "agent codex done to idle" in outer.screen())
    # Watched while it finishes: idle directly, never done; waiting rings no bell.
    srv.send(pane, "ask")
    srv.state(pane, "waiting")
    srv.send(pane, "finish")
    srv.state(pane, "idle")
    wait_for(lambda: f"{pane} codex waiting idle" in srv.hook_lines())
    assert srv.show(pane, "#{window_bell_flag}") == "0"
    assert f"{pane} codex waiting done" not in srv.hook_lines()


def test_attaching_to_the_window_shows_the_turn(make, request):
    srv = make()
    pane = srv.pane("codex", "FAKE_NO_FILES=1")
    srv.state(pane, "idle")
    srv.send(pane, "work")
    srv.state(pane, "working")
    srv.send(pane, "finish")
    srv.state(pane, "done")
    Outer(srv.env, request).attach(srv, "s")
    srv.state(pane, "idle")


# -- glyphs, exits, flicker ---------------------------------------------------------------------

def test_glyph_options_override_each_state(make):
    srv = make("set -g @agent-glyph-working W\nset -g @agent-glyph-shell S\n")
    shell = srv.pane("cat")
    pane = srv.pane("codex", "FAKE_NO_FILES=1")
    srv.state(pane, "idle")
    assert srv.show(pane, "#{pane_state_emoji}") == "○"
    srv.wait_show(shell, "#{pane_state_emoji}", "S")
    srv.send(pane, "work")
    srv.state(pane, "working")
    assert srv.show(pane, "#{pane_state_emoji}") == "W"
    srv.fast.ok("set", "-g", "@agent-glyph-working", "#[fg=red]*#[default]")
    srv.wait_show(pane, "#{pane_state_emoji}", "#[fg=red]*#[default]")
    srv.fast.ok("set", "-g", "@agent-glyph-working", "")  # empty: the default again
    srv.wait_show(pane, "#{pane_state_emoji}", "◐")
    assert srv.show("s:", "#{pane_state_emoji}") == "S"


def test_an_agent_that_exits(make):
    srv = make(HOOK + "set -g remain-on-exit on\n")
    back = srv.pane("claude; exec cat", "FAKE_NO_FILES=1")
    gone = srv.pane("codex", "FAKE_NO_FILES=1")
    for p in (back, gone):
        srv.state(p, "idle")
        srv.send(p, "quit")
    srv.wait_show(back, "#{pane_agent}|#{pane_agent_state}|#{pane_agent_pid}|#{pane_state_emoji}",
                  "|none||·")
    srv.wait_show(gone, "#{pane_dead}|#{pane_agent}|#{pane_agent_state}", "1||none")
    wait_for(lambda: f"{back} claude idle none" in srv.hook_lines()
             and f"{gone} codex idle none" in srv.hook_lines())
    assert srv.fast.cmd("display", "-p", "ok").out == "ok\n"


def test_flicker_is_held_and_the_end_of_a_turn_waits_for_the_hold(make):
    srv = make()
    pane = srv.pane("codex", "FAKE_NO_FILES=1")
    srv.state(pane, "idle")
    srv.send(pane, "work")
    srv.state(pane, "working")
    srv.send(pane, "flicker 10")  # 3 s of working frames with idle-looking ones between
    samples = []
    t_end = time.monotonic() + 2.5
    while time.monotonic() < t_end:
        samples.append(srv.show(pane, "#{pane_agent_state}"))
        time.sleep(0.03)
    assert len(samples) > 20 and set(samples) == {"working"}
    # The flicker is over once the working frame has stayed longer than its 0.3 s period.
    steady: list[float] = []

    def flicker_over() -> bool:
        if "esc to interrupt" in srv.fast.ok("capture-pane", "-p", "-t", pane):
            steady.append(time.monotonic())
            return steady[-1] - steady[0] > 0.5
        steady.clear()
        return False

    wait_for(flicker_over, timeout=15, interval=0.02)
    assert srv.show(pane, "#{pane_agent_state}") == "working"
    t0 = time.monotonic()
    srv.send(pane, "finish")
    took = srv.state(pane, "done")
    # The quiet screen is believed only after about a second of agreement (table hold 1.0 s).
    assert time.monotonic() - t0 >= 0.9
    assert took >= 0.9


# -- the dashboard (issue 27) ---------------------------------------------------------------------

def test_windows_and_sessions_roll_up_their_agents(make):
    srv = make()
    a = srv.pane("codex", "FAKE_NO_FILES=1", name="one")
    srv.fast.ok("split-window", "-d", "-t", "s:one", "cat")
    b = srv.pane("codex", "FAKE_NO_FILES=1", name="two")
    for p in (a, b):
        srv.state(p, "idle")
    srv.send(a, "work")
    srv.state(a, "working")
    srv.send(b, "ask")
    srv.state(b, "waiting")
    assert srv.show("s:one", "#{window_agent_state} #{window_agent_counts}") == \
        "working working=1"
    assert srv.show("s:one.1", "#{window_agent_state}") == "working"  # the window's cat pane
    assert srv.show("s:two", "#{window_agent_state} #{window_state_emoji}") == "waiting ●"
    srv.wait_show("s:", "#{session_agent_counts}", "waiting=1 working=1")
    assert srv.show("s:", "#{session_agent_state} #{session_state_emoji}") == "waiting ●"
    # The default window label leads with the window's glyph.
    assert srv.show("s:two", "#{T:window-status-format}").startswith("1:● ")


def test_scripts_wait_for_an_agent_with_wait_for_E(make):
    import subprocess

    srv = make()
    pane = srv.pane("codex", "FAKE_NO_FILES=1")
    srv.state(pane, "idle")
    waiter = subprocess.Popen(
        [TMUX, "-S", srv.path, "wait-for", "-v", "-F", "#{==:#{new},waiting}", "-E",
         "pane-agent-state-changed"], env=srv.env, stdout=subprocess.PIPE, text=True)
    try:
        time.sleep(0.5)
        assert waiter.poll() is None
        srv.send(pane, "work")
        srv.state(pane, "working")
        time.sleep(0.3)
        assert waiter.poll() is None  # filtered out: not waiting
        srv.send(pane, "ask")
        out, _ = waiter.communicate(timeout=15)
        assert waiter.returncode == 0
        assert "waiting" in out and pane in out
    finally:
        waiter.kill()


def test_reports_through_the_tmux_protocol_decide(make):
    srv = make()
    pane = srv.pane("codex", "FAKE_NO_FILES=1")
    srv.state(pane, "idle")
    import subprocess

    env = dict(srv.env, TMUX=f"{srv.path},1,0", TMUX_PANE=pane)
    subprocess.run([*HMUX, "agents", "report", "working", "--agent", "codex"], env=env,
                   check=True, timeout=30)
    assert srv.show(pane, "#{@agent-report}").startswith("working ")
    srv.state(pane, "working")  # the screen still shows the prompt: the report decides
    subprocess.run([*HMUX, "agents", "report", "waiting", "--agent", "codex"], env=env,
                   check=True, timeout=30)
    srv.state(pane, "waiting")


def test_agents_next_switches_to_the_pane_that_needs_the_user(make, request):
    import subprocess

    srv = make()
    srv.pane("cat", name="shell")
    busy = srv.pane("codex", "FAKE_NO_FILES=1", name="busy")
    asks = srv.pane("codex", "FAKE_NO_FILES=1", name="asks")
    for p in (busy, asks):
        srv.state(p, "idle")
    srv.send(busy, "work")
    srv.send(asks, "ask")
    srv.state(asks, "waiting")
    outer = Outer(srv.env, request)
    outer.attach(srv, "s:shell")
    srv.wait_show("s:", "#{session_attached}", "1")
    client = srv.fast.ok("list-clients", "-F", "#{client_name}").split()[0]
    subprocess.run([*HMUX, "-S", srv.path, "agents", "next", "-c", client], env=srv.env,
                   check=True, timeout=30)
    wait_for(lambda: srv.fast.ok("display", "-p", "-c", client, "#{pane_id}").strip() == asks)
    assert "asks" in srv.fast.ok("display", "-p", "-c", client, "#{window_name}")


def test_an_agent_out_of_sight_notifies_the_clients_terminal(make):
    """@agent-notify osc9: the attached client's terminal gets ESC ] 9 ; … ST when an agent in
    a window it does not show wants the user (the bytes are read from the client's PTY)."""
    import pty
    import select
    import subprocess

    srv = make("set -g @agent-notify osc9\n")
    srv.pane("cat", name="shell")
    pane = srv.pane("codex", "FAKE_NO_FILES=1", name="agent")
    srv.state(pane, "idle")
    master, slave = pty.openpty()
    client = subprocess.Popen([*HMUX, "-L", srv.label, "attach", "-t", "s:shell"],
                              env=srv.env, stdin=slave, stdout=slave, stderr=slave,
                              start_new_session=True)
    os.close(slave)
    try:
        srv.wait_show("s:", "#{session_attached}", "1")
        seen = b""

        def read() -> bytes:
            nonlocal seen
            while select.select([master], [], [], 0.05)[0]:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
            return seen

        srv.send(pane, "ask")
        srv.state(pane, "waiting")
        wait_for(lambda: b"\x1b]9;codex waiting: needs you" in read(), timeout=10)
    finally:
        client.kill()
        client.wait()
        os.close(master)
