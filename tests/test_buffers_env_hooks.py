"""Buffers, environment, shell commands and hooks where the differential harness cannot look:
stdin and stdout of the client, files written by panes, clients blocked on each other, hooks
raised by the plugin layer, and the pieces behind them (vis encoding, buffer naming)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from harness import HMUX, TMUX, Mux, base_env, wait_for

from hmux_core.buffers import VIS_CSTYLE, VIS_DQ, VIS_NL, VIS_OCTAL, VIS_TAB, Buffers, strvis
from hmux_core.commands.environment_cmds import shell_escape
from hmux_core.commands.shell_cmds import parse_delay


@pytest.fixture(params=["hmux client", "tmux client"])
def client(request, hmux: Mux, tmux_client_on_hmux: Mux) -> Mux:
    """A session on a fresh hmux server, driven by either client."""
    hmux.ok("new-session", "-d", "-s", "a", "cat", "-")
    return hmux if request.param == "hmux client" else tmux_client_on_hmux


@pytest.fixture
def oracle(tmux: Mux) -> Mux:
    tmux.ok("new-session", "-d", "-s", "a", "cat", "-")
    return tmux


# -- the client's stdin and stdout ----------------------------------------------------------------

def test_load_buffer_from_stdin(client: Mux) -> None:
    r = client.cmd("load-buffer", "-b", "in", "-", stdin="piped\ndata")
    assert (r.rc, r.err) == (0, "")
    assert client.ok("show-buffer", "-b", "in") == "piped\ndata"


def test_load_buffer_stdin_is_used_once(client: Mux, oracle: Mux) -> None:
    """tmux's client gives its stdin to the first stream; a second ``-`` is EBADF."""
    args = ("load-buffer", "-b", "one", "-", ";", "load-buffer", "-b", "two", "-")
    got, want = client.cmd(*args, stdin="x"), oracle.cmd(*args, stdin="x")
    assert (got.rc, got.out, got.err) == (want.rc, want.out, want.err) == (1, "", "Bad file descriptor: -\n")
    assert client.ok("list-buffers", "-F", "#{buffer_name}") == "one\n"


def test_load_buffer_binary_roundtrip(client: Mux) -> None:
    data = bytes(range(256)) * 300  # more than one protocol message
    p = subprocess.run(client.argv0 + client.socket_args + (["-f", client.config] if client.config else [])
                       + ["load-buffer", "-"], input=data, capture_output=True, env=client.env, cwd=client.cwd)
    assert p.returncode == 0, p.stderr
    p = subprocess.run(client.argv0 + client.socket_args + (["-f", client.config] if client.config else [])
                       + ["save-buffer", "-"], capture_output=True, env=client.env, cwd=client.cwd)
    assert p.returncode == 0 and p.stdout == data


def test_save_buffer_to_file_relative_to_client(client: Mux, tmp_path) -> None:
    client.ok("set-buffer", "-b", "f", "file text")
    r = subprocess.run(client.argv0 + client.socket_args + (["-f", client.config] if client.config else [])
                       + ["save-buffer", "-b", "f", "out.txt"], capture_output=True, text=True,
                       env=client.env, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out.txt").read_text() == "file text"


def test_show_buffer_is_raw_bytes(client: Mux) -> None:
    client.ok("set-buffer", "-b", "r", "tab\there\x01\n")
    assert client.ok("show-buffer", "-b", "r") == "tab\there\x01\n"


# -- pipe-pane, wait-for: processes and clients ----------------------------------------------------

def test_pipe_pane_copies_output_to_a_command(client: Mux, tmp_path) -> None:
    out = tmp_path / "pipe.out"
    client.ok("pipe-pane", "-t", "a", f"cat > {out}")
    client.ok("send-keys", "-t", "a", "hello", "Enter")
    wait_for(lambda: out.exists() and out.read_bytes().count(b"hello") == 2)
    assert out.read_bytes() == b"hello\r\nhello\r\n"  # the terminal's echo, then cat's copy
    client.ok("pipe-pane", "-t", "a")
    assert client.ok("display", "-p", "-t", "a", "#{pane_pipe}") == "0\n"
    client.ok("send-keys", "-t", "a", "later", "Enter")
    wait_for(lambda: "later" in client.ok("capture-pane", "-p", "-t", "a"))
    assert b"later" not in out.read_bytes()


def test_pipe_pane_only_new_output(client: Mux, tmp_path) -> None:
    client.ok("send-keys", "-t", "a", "before", "Enter")
    wait_for(lambda: client.ok("capture-pane", "-p", "-t", "a").count("before") == 2)
    out = tmp_path / "new.out"
    client.ok("pipe-pane", "-O", "-t", "a", f"cat > {out}")
    client.ok("send-keys", "-t", "a", "after", "Enter")
    wait_for(lambda: out.exists() and out.read_bytes().count(b"after") == 2)
    assert b"before" not in out.read_bytes()


def _popen(m: Mux, *args: str) -> subprocess.Popen:
    argv = m.argv0 + m.socket_args + (["-f", m.config] if m.config else []) + list(args)
    return subprocess.Popen(argv, env=m.env, cwd=m.cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _option(m: Mux, name: str) -> str:
    return m.cmd("show-options", "-gqv", name).out.strip()


def test_wait_for_blocks_until_signalled(client: Mux) -> None:
    waiter = _popen(client, "set", "-g", "@w", "waiting", ";", "wait-for", "chan", ";", "set", "-g", "@w", "woken")
    try:
        wait_for(lambda: _option(client, "@w") == "waiting")
        assert waiter.poll() is None
        client.ok("wait-for", "-S", "chan")
        assert waiter.wait(timeout=10) == 0
        assert _option(client, "@w") == "woken"
    finally:
        waiter.kill()
        waiter.wait()


def test_wait_for_signal_wakes_every_waiter(client: Mux) -> None:
    waiters = [_popen(client, "set", "-ga", "@n", "x", ";", "wait-for", "many") for _ in range(3)]
    try:
        wait_for(lambda: _option(client, "@n") == "xxx")
        client.ok("wait-for", "-S", "many")
        assert [w.wait(timeout=10) for w in waiters] == [0, 0, 0]
    finally:
        for w in waiters:
            w.kill()
            w.wait()


def test_wait_for_lock_is_handed_over(client: Mux) -> None:
    client.ok("wait-for", "-L", "lk")
    second = _popen(client, "set", "-g", "@l", "asked", ";", "wait-for", "-L", "lk", ";", "set", "-g", "@l", "held")
    try:
        wait_for(lambda: _option(client, "@l") == "asked")
        assert second.poll() is None
        client.ok("wait-for", "-U", "lk")
        assert second.wait(timeout=10) == 0
        assert _option(client, "@l") == "held"
        # The lock passed to the second client: it is still locked, once.
        client.ok("wait-for", "-U", "lk")
        r = client.cmd("wait-for", "-U", "lk")
        assert (r.rc, r.err) == (1, "channel lk not locked\n")
    finally:
        second.kill()
        second.wait()


def test_run_shell_waits_for_its_job(client: Mux, tmp_path) -> None:
    flag = tmp_path / "done"
    client.ok("run-shell", f"sleep 0.2; touch {flag}")
    assert flag.exists()
    client.ok("run-shell", "-b", f"sleep 0.2; rm {flag}")
    assert flag.exists()
    wait_for(lambda: not flag.exists())


# -- hooks ----------------------------------------------------------------------------------------

def test_notification_hook_runs_after_the_command_list(client: Mux) -> None:
    client.ok("set-hook", "-g", "session-created", "set -g @made '#{hook}'")
    r = client.cmd("new-session", "-d", "-s", "b", "cat", "-", ";", "show-options", "-gqv", "@made")
    assert (r.rc, r.out) == (0, "")
    wait_for(lambda: _option(client, "@made") == "#{hook}")  # set-option does not expand without -F


def test_hook_run_shell_sees_hook_formats(client: Mux, tmp_path) -> None:
    out = tmp_path / "hook.out"
    client.ok("set-hook", "-g", "window-linked", f"run-shell 'echo #{{hook}} #{{hook_window_name}} > {out}'")
    client.ok("new-window", "-d", "-n", "linked", "cat", "-")
    wait_for(lambda: out.exists() and out.read_text() == "window-linked linked\n")


def test_after_hook_output_goes_to_the_client(client: Mux) -> None:
    client.ok("set-hook", "-g", "after-rename-window", "display -p 'renamed to #{window_name}'")
    assert client.ok("rename-window", "-t", "a:0", "nm") == "renamed to nm\n"


def test_hooks_in_a_config_file(hmux: Mux, oracle: Mux, tmp_path) -> None:
    """set-hook lines of a sourced file, errors and all, as tmux reads them."""
    conf = tmp_path / "hooks.conf"
    conf.write_text(textwrap.dedent("""\
        set-hook -g after-new-window 'display -p "new #{window_index}"'
        set-hook -ga after-new-window 'set -g @count yes'
        set-hook -g session-created[3] { set -g @created 1 }
        set-hook -g no-such-hook 'display x'
        set-hook -g window-linked 'nosuchcommand'
        set-hook -w pane-exited { display -p "#{hook_pane}" }
    """))
    hmux.ok("new-session", "-d", "-s", "a", "cat", "-")
    for args in (("source-file", str(conf)), ("show-hooks", "-g"), ("show-hooks", "-w"),
                 ("new-window", "-d", "cat", "-")):
        got, want = hmux.cmd(*args), oracle.cmd(*args)
        assert (got.rc, got.out, got.err) == (want.rc, want.out, want.err), args


# -- hooks the plugin layer raises ------------------------------------------------------------------

PLUGIN_SERVER = """
import sys
from hmux_core import hooks, server

assert hooks.register_hook_name("hmux-test-event")
assert hooks.register_hook_name("hmux-test-event")
assert not hooks.register_hook_name("status")
assert not hooks.register_hook_name("@user")
init = server.Server.__init__


def patched(self, *args, **kwargs):
    init(self, *args, **kwargs)
    self.options.set("exit-empty", "off")  # no first client here: stay up until kill-server

    def on_event(name, data):
        if name == "window-renamed":
            w = data["window"]
            self.fire_named_hook("hmux-test-event", w.active, {"name": w.name, "count": "2"})

    self.subscribers.append(on_event)


server.Server.__init__ = patched
server.main(sys.argv[1:])
"""


@pytest.fixture
def plugin_server(muxdir, request) -> Mux:
    """A server whose "plugin" registered a hook name and raises it on window-renamed."""
    env = base_env(muxdir)
    path = os.path.join(muxdir, "plugin.sock")
    proc = subprocess.Popen([sys.executable, "-c", PLUGIN_SERVER, "--socket", path, "--foreground",
                             "--no-config"], env=env, cwd=env["HOME"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    m = Mux(HMUX, ["-S", path], env, cwd=env["HOME"], config=None)

    def stop() -> None:
        m.cmd("kill-server")
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    request.addfinalizer(stop)
    wait_for(lambda: os.path.exists(path))
    m.ok("new-session", "-d", "-s", "a", "cat", "-")
    return m


def test_registered_hook_name_is_accepted_and_listed(plugin_server: Mux) -> None:
    m = plugin_server
    assert "hmux-test-event" in m.ok("show-hooks", "-g").split("\n")  # listed while empty
    m.ok("set-hook", "-g", "hmux-test-event", "set -g @x 1")
    assert m.ok("show-hooks", "-g", "hmux-test-event") == "hmux-test-event[0] set-option -g @x 1\n"
    assert "hmux-test-event[0] set-option -g @x 1" in m.ok("show-hooks", "-g").split("\n")
    r = m.cmd("set-hook", "-g", "hmux-other-event", "set -g @x 1")
    assert (r.rc, r.err) == (1, "invalid option: hmux-other-event\n")


def test_fire_named_hook_runs_the_global_hook(plugin_server: Mux) -> None:
    m = plugin_server
    m.ok("set-hook", "-g", "hmux-test-event",
         "set -gF @got '#{hook}|#{hook_pane}|#{hook_name}|#{hook_count}|#{pane_id}'")
    m.ok("rename-window", "-t", "a:0", "renamed")
    wait_for(lambda: _option(m, "@got") == "hmux-test-event|%0|renamed|2|%0")


def test_fire_named_hook_ignores_session_hooks(plugin_server: Mux) -> None:
    m = plugin_server
    m.ok("set-hook", "-t", "a", "hmux-test-event", "set -g @session yes")
    m.ok("set-hook", "-g", "hmux-test-event", "set -g @global yes")
    m.ok("rename-window", "-t", "a:0", "renamed")
    wait_for(lambda: _option(m, "@global") == "yes")
    assert _option(m, "@session") == ""


# -- the pieces -----------------------------------------------------------------------------------

def test_buffer_names_and_top() -> None:
    b = Buffers(limit=2)
    b.set(b"one")
    b.set(b"n", "named")
    b.set(b"two")
    b.set(b"three")
    assert [p.name for p in b.sorted()] == ["buffer2", "buffer1", "named"]
    assert b.top().name == "buffer2"
    b.set(b"again", "named")
    assert b.top().name == "buffer2"  # 3.7b: the top is the newest automatic buffer
    assert b.rename("buffer2", "kept") is None and not b.get("kept").automatic
    assert b.top().name == "buffer1"
    assert b.rename("nope", "x") == "no buffer nope"
    assert b.rename("kept", "named") is None  # 3.7b: the old "named" is replaced
    assert b.get("named").data == b"three" and b.get("kept") is None
    assert b.set(b"x", "tab\tname") == "invalid buffer name: tab\tname"
    assert b.set(b"x", "back\\slash") is None and b.get("back\\\\slash") is not None
    assert b.set(b"", "empty") is None and b.get("empty") is None


def test_limit_read_when_adding() -> None:
    limit = [5]
    b = Buffers(lambda: limit[0])
    for i in range(5):
        b.set(str(i).encode())
    limit[0] = 2
    assert len(b.by_name) == 5  # nothing goes until the next automatic buffer
    b.set(b"x")
    assert [p.name for p in b.sorted()] == ["buffer5", "buffer4"]


@pytest.mark.parametrize(("data", "flags", "want"), [
    (b"a b\tc\nd", VIS_OCTAL | VIS_CSTYLE | VIS_TAB | VIS_NL, b"a b\\tc\\nd"),
    (b"a\nb\tc", VIS_OCTAL | VIS_CSTYLE | VIS_TAB, b"a\nb\\tc"),
    (b"\\$HOME$1${x}$", VIS_OCTAL | VIS_CSTYLE, b"\\\\$HOME$1${x}$"),
    (b"\\$HOME$1${x}$", VIS_OCTAL | VIS_CSTYLE | VIS_DQ, b"\\\\\\$HOME$1\\${x}$"),
    (b"\x00\x001\x7f\x1b", VIS_OCTAL | VIS_CSTYLE, b"\\0\\0001\\177\\033"),
    ("é€😀".encode(), VIS_OCTAL, "é€😀".encode()),
    (b"\xc3(\xff", VIS_OCTAL, b"\\303(\\377"),
    ("\u0085".encode(), VIS_OCTAL, "\u0085".encode()),  # 3.7b: C1 has width 0, kept
])
def test_strvis(data: bytes, flags: int, want: bytes) -> None:
    assert strvis(data, flags) == want


def test_shell_escape_and_delay() -> None:
    assert shell_escape('a$b"c`d\\e') == 'a\\$b\\"c\\`d\\\\e'
    assert parse_delay("") == 0.0 and parse_delay(" 1.5") == 1.5 and parse_delay("1e-1") == 0.1
    assert parse_delay("0x10") == 16.0 and parse_delay("-3") == 0.0
    assert parse_delay("1s") is None and parse_delay(" ") is None and parse_delay("x") is None


def test_tmux_is_the_oracle_here_too() -> None:
    assert subprocess.run([TMUX, "-V"], capture_output=True, text=True).stdout == "tmux 3.7b\n"
