"""Faults against real servers: clients killed at bad moments, children that misbehave,
hundreds of panes, signals, and plugins that fail in every way a plugin can.

Socket removal/SIGUSR1, stale sockets, racing starts and SIGTERM on detached children are in
test_server.py; a SIGKILLed attached client in test_attach.py; raising ticks/resolves, a hanging
tick and an import failure in test_plugins.py. These add what those do not cover.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid

import pytest
from harness import HMUX, TMUX, Mux, _alive, base_env, wait_for
from plugin_dists import make_dist, with_path
from test_attach import Outer
from test_plugins import status


def _fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _popen(m: Mux, *args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen(m.argv0 + m.socket_args + ["-f", "/dev/null", *args], env=m.env,
                            cwd=m.cwd, **kw)


# -- clients killed -------------------------------------------------------------------------------


def test_client_sigkilled_while_a_command_streams(hmux, tmp_path):
    big = tmp_path / "big"
    big.write_bytes(b"0123456789abcde\n" * (1 << 20))  # 16 MiB through MSG_WRITE
    hmux.ok("new-session", "-d", "-s", "keep")
    hmux.ok("load-buffer", "-b", "big", str(big))
    pid = hmux.server_pid()
    assert pid, hmux.cmd("list-sessions")
    baseline = _fds(pid)
    for _ in range(3):
        p = _popen(hmux, "show-buffer", "-b", "big", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        got = p.stdout.read(65536)
        assert len(got) == 65536, p.stderr.read()  # streaming has started; now we stop reading
        p.kill()
        p.wait()
        p.stdout.close()
        p.stderr.close()
    wait_for(lambda: _fds(pid) <= baseline)
    # The stream after the killed ones is whole: nothing of theirs is left in the way.
    r = subprocess.run(hmux.argv0 + hmux.socket_args + ["show-buffer", "-b", "big"], env=hmux.env,
                       capture_output=True, timeout=60)
    assert r.returncode == 0 and r.stdout == big.read_bytes()


_HALF_IDENTIFY = r"""
import os, socket, sys
sys.path[:0] = [sys.argv[2]]
from test_protocol import _identify
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
_identify(s, done=False)
print("ready", flush=True)
sys.stdin.read()
"""


def test_client_sigkilled_mid_identify(hmux):
    hmux.ok("new-session", "-d", "-s", "keep")
    pid = hmux.server_pid()
    baseline = _fds(pid)
    path = os.path.join(hmux.env["TMUX_TMPDIR"], f"hmux-{os.getuid()}", hmux.socket_args[1])
    for _ in range(3):  # a peer that sent identify (with its fds) but never DONE
        p = subprocess.Popen([sys.executable, "-c", _HALF_IDENTIFY, path,
                              os.path.dirname(__file__)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
        assert p.stdout.readline() == "ready\n"
        p.kill()
        p.wait()
    for delay in (0.0, 0.01, 0.03, 0.06, 0.1, 0.15, 0.2, 0.3):
        # the real client, killed wherever it is: connecting, identifying, waiting for output
        p = _popen(hmux, "list-sessions", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        p.kill()
        p.wait()
    wait_for(lambda: _fds(pid) <= baseline)
    assert hmux.ok("list-sessions", "-F", "#{session_name}") == "keep\n"
    assert hmux.ok("list-clients") == ""


# -- children that misbehave ----------------------------------------------------------------------


def test_kill_pane_whose_child_ignores_sighup(hmux, tmux):
    """The pane goes at once; the child that ignores SIGHUP outlives it, as under tmux."""
    children = []
    try:
        for m in (hmux, tmux):
            m.ok("new-session", "-d", "-s", "p", "cat")
            m.ok("split-window", "-t", "p", "trap '' HUP; exec sleep 1000")
            child = int(m.ok("display", "-p", "-t", "p:0.1", "#{pane_pid}"))
            children.append(child)
            t0 = time.monotonic()
            m.ok("kill-pane", "-t", "p:0.1")
            assert time.monotonic() - t0 < 5
            assert m.ok("list-panes", "-t", "p", "-F", "#{pane_index}") == "0\n"
            assert _alive(child)
        hmux.ok("send-keys", "-t", "p", "-l", "still-serving")
        wait_for(lambda: "still-serving" in hmux.capture("p"))
    finally:
        for child in children:
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:
                pass


def test_children_exiting_during_resizes(hmux):
    hmux.ok("new-session", "-d", "-s", "r", "-x", "120", "-y", "40", "cat")
    for round_ in range(8):
        # SIGWINCH ends the child: it exits while the resize that caused it is being applied.
        pid = hmux.ok("split-window", "-t", "r", "-P", "-F", "#{pane_id}",
                      "trap 'exit 0' WINCH; sleep 1000 & wait").strip()
        sizes = [f"resize-pane -t {pid} -x {20 + 3 * i} -y {5 + i}" for i in range(6)]
        hmux.cmd(*" ; ".join(sizes + ["resize-window -t r -x 100 -y 30",
                                       "resize-window -t r -x 120 -y 40"]).split())
        wait_for(lambda: hmux.ok("list-panes", "-t", "r", "-F", "#{pane_id}") == "%0\n")
        assert hmux.ok("display", "-p", "-t", "r", "#{window_width}x#{window_height}") == \
            "120x40\n", round_
    hmux.ok("send-keys", "-t", "%0", "-l", "still")
    wait_for(lambda: "still" in hmux.capture("%0"))


def test_200_panes_opened_and_closed_stay_bounded(hmux):
    hmux.ok("new-session", "-d", "-s", "keep", "cat")
    pid = hmux.server_pid()
    batch = ["new-session", "-d", "-s", "r", "cat"]
    for _ in range(9):
        batch += [";", "new-window", "-d", "-t", "r", "cat"]

    def rounds(n: int) -> None:
        for _ in range(n):
            hmux.ok(*batch)
            assert len(hmux.ok("list-panes", "-s", "-t", "r").splitlines()) == 10
            hmux.ok("kill-session", "-t", "r")

    rounds(3)  # warm-up: caches and lazily imported modules settle
    wait_for(lambda: hmux.ok("list-panes", "-a", "-F", "#{pane_id}").count("%") == 1)
    fds, rss = _fds(pid), _rss_kb(pid)
    rounds(20)  # 200 more panes, each with its process and PTY
    wait_for(lambda: _fds(pid) <= fds)
    grown = _rss_kb(pid) - rss
    assert grown < max(rss // 10, 4096), f"RSS grew {grown} kB from {rss} kB over 200 panes"
    assert hmux.ok("display", "-p", "-t", "keep", "#{session_name}") == "keep\n"


# -- signals --------------------------------------------------------------------------------------


@pytest.fixture
def outer(muxdir, request) -> Outer:
    o = Outer(muxdir, base_env(muxdir))
    request.addfinalizer(o.mux.kill)
    return o


def test_sigterm_restores_attached_terminals_and_hangs_up_children(outer, hmux, tmux):
    results = {}
    for name, m, argv0 in (("h", hmux, HMUX), ("t", tmux, [TMUX])):
        target = outer.run(argv0 + m.socket_args + ["-f", "/dev/null", "new-session", "-s", "s",
                                                   "sleep 1000"], name)
        wait_for(lambda m=m: m.cmd("list-clients", "-F", "#{client_session}").out == "s\n")
        child = int(m.ok("display", "-p", "-t", "s", "#{pane_pid}"))
        assert outer.mux.ok("display", "-p", "-t", target, "#{alternate_on}") == "1\n"
        server = m.server_pid()
        os.kill(server, signal.SIGTERM)
        wait_for(lambda t=target: "EXITED" in "\n".join(outer.screen(t)))
        wait_for(lambda s=server: not _alive(s))
        wait_for(lambda c=child: not _alive(c))
        results[name] = (
            [line for line in outer.screen(target) if line.strip()],
            outer.mux.ok("display", "-p", "-t", target, "#{alternate_on} #{cursor_flag} "
                         "#{keypad_flag} #{mouse_any_flag}"))
    assert results["h"] == results["t"]
    assert results["h"][0][0] == "[server exited]" and results["h"][1] == "0 1 0 0\n"


def test_sighup_is_ignored_as_tmux_does(hmux, tmux):
    for m in (hmux, tmux):
        m.ok("new-session", "-d", "-s", "s", "cat")
        pid = m.server_pid()
        os.kill(pid, signal.SIGHUP)
        m.ok("send-keys", "-t", "s", "-l", "alive")
        wait_for(lambda m=m: "alive" in m.capture("s"))
        assert m.server_pid() == pid


# -- plugins that fail ----------------------------------------------------------------------------

PLUGINS = {
    "good_plugin": '''
        from hmux_core.plugin import Plugin, hookimpl

        class Good(Plugin):
            name = "good"
            variables = ("good_v",)
            interval = 0.05

            def __init__(self):
                self.n = 0

            def tick(self, host):
                self.n += 1

            def resolve(self, pane_id, key):
                return f"good{min(self.n, 1)}"

        @hookimpl
        def hmux_plugin():
            return Good()
    ''',
    "startfail_plugin": '''
        from hmux_core.plugin import Plugin, hookimpl

        class StartFail(Plugin):
            name = "startfail"
            variables = ("startfail_v",)

            def start(self, host):
                raise RuntimeError("start exploded")

            def resolve(self, pane_id, key):
                return "should-not-show"

        @hookimpl
        def hmux_plugin():
            return StartFail()
    ''',
    "tenseconds_plugin": '''
        import os, time
        from hmux_core.plugin import Plugin, hookimpl

        class TenSeconds(Plugin):
            name = "tenseconds"
            variables = ("ten_v",)
            interval = 0.05

            def __init__(self):
                self.ticks = 0

            def tick(self, host):
                self.ticks += 1
                if self.ticks == 1:
                    open(os.environ["TEN_MARKER"], "w").close()
                    time.sleep(10)

            def resolve(self, pane_id, key):
                return str(self.ticks)

        @hookimpl
        def hmux_plugin():
            return TenSeconds()
    ''',
    "nonstr_plugin": '''
        from hmux_core.plugin import Plugin, hookimpl

        class Evil:
            def __str__(self):
                raise RuntimeError("str exploded")

        async def coro():
            return "never"

        VALUES = {"ns_int": 42, "ns_bytes": b"raw", "ns_list": ["a"], "ns_evil": Evil(),
                  "ns_none": None, "ns_str": "fine"}

        class NonStr(Plugin):
            name = "nonstr"
            variables = tuple(VALUES) + ("ns_coro",)

            def resolve(self, pane_id, key):
                return coro() if key == "ns_coro" else VALUES[key]

        @hookimpl
        def hmux_plugin():
            return NonStr()
    ''',
}


@pytest.fixture
def plugmux(tmp_path, request) -> Mux:
    site = make_dist(str(tmp_path / "site"), "hmux-fault-plugins",
                     {n.split("_")[0]: n for n in PLUGINS}, PLUGINS)
    env = with_path(base_env(str(tmp_path)), site)
    env["TMUX_C2RS_PLUGINS"] = "all"
    env["TEN_MARKER"] = str(tmp_path / "ten-started")
    m = Mux(HMUX, ["-L", "f" + uuid.uuid4().hex[:6]], env, cwd=env["HOME"])
    request.addfinalizer(m.kill)
    return m


def test_plugin_faults_leave_server_and_other_plugins_working(plugmux, tmp_path):
    m = plugmux
    m.ok("new-session", "-d", "cat")
    wait_for(lambda: m.ok("display", "-p", "#{good_v}") == "good1\n")
    # start() raising: disabled with a message; its variable expands to nothing.
    wait_for(lambda: not status(m)["startfail"]["enabled"])
    assert status(m)["startfail"]["reason"] == "start failed: RuntimeError: start exploded"
    assert m.ok("display", "-p", "[#{startfail_v}]") == "[]\n"
    # A tick taking 10 s holds its own lane only: commands and the other plugins go on ...
    wait_for(lambda: os.path.exists(tmp_path / "ten-started"))
    for _ in range(5):
        t0 = time.monotonic()
        assert m.ok("display", "-p", "#{good_v} #{pane_id}") == "good1 %0\n"
        assert time.monotonic() - t0 < 2.0
    ticks = status(m)["good"]["ticks"]
    wait_for(lambda: status(m)["good"]["ticks"] > ticks)
    # ... and it ticks again once the slow call returns.
    wait_for(lambda: int(m.ok("display", "-p", "#{ten_v}")) > 1, timeout=30)
    assert status(m)["tenseconds"]["enabled"]
    # Non-strings: nothing, a failure counted each time; str and None as documented.
    assert m.ok("display", "-p", "[#{ns_str}][#{ns_none}]") == "[fine][]\n"
    before = status(m)["nonstr"]["failures"]
    got = m.ok("display", "-p", "[#{ns_int}][#{ns_bytes}][#{ns_list}][#{ns_evil}][#{ns_coro}]")
    assert got == "[][][][][]\n"
    assert status(m)["nonstr"]["failures"] == before + 5
    assert not status(m)["nonstr"]["enabled"]
    assert "disabled after 5 failures" in status(m)["nonstr"]["reason"]
    assert m.ok("display", "-p", "#{good_v}") == "good1\n"
