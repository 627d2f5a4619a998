"""The C client (hmux_core/native/client.c) against the Python client, on the same servers.

The C client runs a command to a running server itself and becomes the Python client for
everything else. These tests build it from this checkout with a recording interpreter: a script
that notes each time the C client turned into Python, then runs the real one. So each test can
say both what the user sees (compared with the Python client's answer to the same command) and
which client gave it.
"""

from __future__ import annotations

import os
import pty
import signal
import socket
import subprocess
import sys

import pytest
from harness import HMUX_PYTHON, Mux, base_env, socket_path, wait_for

from hmux_core.native.build import compile_client


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the compiled client, the file listing each exec of Python it made)."""
    d = tmp_path_factory.mktemp("native")
    log = d / "fallbacks"
    log.write_text("")
    python = d / "python"
    python.write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec {sys.executable} "$@"\n')
    python.chmod(0o755)
    client = str(d / "hmux")
    try:
        compile_client(client, python=str(python))
    except (OSError, subprocess.CalledProcessError) as e:
        pytest.skip(f"no C compiler here: {e}")
    return client, log


@pytest.fixture
def pair(built, muxdir, request):
    """The C client and the Python client on one hmux server (started by the Python one)."""
    client, log = built
    env = base_env(muxdir)
    native = Mux([client], ["-L", "n"], env, cwd=env["HOME"])
    python = Mux(HMUX_PYTHON, ["-L", "n"], env, cwd=env["HOME"])
    request.addfinalizer(python.kill)
    python.ok("new-session", "-d", "-s", "s", "-x", "40", "-y", "5", "cat")
    log.write_text("")
    return native, python, log


def fallbacks(log) -> list[str]:
    return [line for line in log.read_text().splitlines() if line]


# What tools send, with what they feed on stdin: each answered by the C client itself.
COMMANDS: list[tuple[tuple[str, ...], str | None]] = [
    (("list-sessions", "-F", "#{session_name} #{session_windows}"), None),
    (("ls",), None),
    (("display-message", "-p", "#{session_name}:#{window_index}.#{pane_index} #{pane_id}"), None),
    (("display", "-p", "-t", "s", "#{pane_width}x#{pane_height} #{?client_utf8,u,-}"), None),
    (("has-session", "-t", "nosuch"), None),
    (("nosuch-command",), None),
    (("list-windows", "-t", "%99"), None),
    (("new-window", "-d", "-n", "w2", "cat", ";", "list-windows", "-F", "#{window_name}"), None),
    (("set-buffer", "-b", "b1", "hello"), None),
    (("load-buffer", "-b", "b2", "-"), "from stdin\nline two\n"),
    (("show-buffer", "-b", "b2"), None),
    (("source-file", "-"), "set -g @x 1\ndisplay -p '#{@x}'\n"),
    (("send-keys", "-t", "s", "-l", "typed"), None),
    (("capture-pane", "-p", "-t", "s"), None),
    (("list-keys", "-T", "copy-mode", "C-a"), None),
    (("run-shell", "echo out; echo err >&2; exit 3"), None),
    (("show-options", "-g", "nosuch-option"), None),
    (("if-shell", "-F", "1", "display -p yes", "display -p no"), None),
    (("list-panes", "-a", "-F", "#{pane_id}"), None),
]


@pytest.mark.parametrize("args,stdin", COMMANDS, ids=[" ".join(a)[:40] for a, _ in COMMANDS])
def test_a_command_answers_as_the_python_client_does(pair, args, stdin):
    native, python, log = pair
    theirs = python.cmd(*args, stdin=stdin)
    if args[0] == "new-window":  # undo the Python client's, so the C client's answer matches
        python.ok("kill-window", "-t", "w2")
    ours = native.cmd(*args, stdin=stdin)
    assert (ours.rc, ours.out, ours.err) == (theirs.rc, theirs.out, theirs.err)
    assert fallbacks(log) == []


def test_files_the_server_writes_through_the_client(pair, tmp_path):
    """save-buffer to a path and to stdout, and -a: opened and written by the client."""
    native, python, log = pair
    native.ok("set-buffer", "-b", "b", "content")
    path = tmp_path / "saved"
    native.ok("save-buffer", "-b", "b", str(path))
    native.ok("save-buffer", "-a", "-b", "b", str(path))
    assert path.read_text() == "contentcontent"
    assert native.ok("save-buffer", "-b", "b", "-") == "content"
    r = native.cmd("save-buffer", "-b", "b", str(tmp_path / "no" / "such"))
    assert (r.rc, r.err) == tuple(python.cmd("save-buffer", "-b", "b",
                                             str(tmp_path / "no" / "such")))[::2]
    assert "No such file or directory" in r.err
    assert fallbacks(log) == []


def test_what_reaches_the_server_from_the_client(pair, tmp_path):
    """The client's cwd (a new session's directory) and environment (update-environment)."""
    native, python, log = pair
    work = tmp_path / "work"
    work.mkdir()
    env = dict(native.env, DISPLAY=":42")
    r = subprocess.run(native.argv0 + native.socket_args + ["new-session", "-d", "-s", "c"],
                       env=env, cwd=work, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert native.ok("display", "-p", "-t", "c", "#{session_path}") == f"{work}\n"
    assert native.ok("show-environment", "-t", "c", "DISPLAY") == "DISPLAY=:42\n"
    assert fallbacks(log) == []


def test_socket_from_tmux_variable_and_labels(pair, muxdir):
    """-S, $TMUX (a pane's view) and -L resolve as the Python client resolves them."""
    native, python, log = pair
    path = socket_path(muxdir, "hmux", "n")
    want = python.ok("display", "-p", "#{pid}")
    as_pane = Mux(native.argv0, [], dict(native.env, TMUX=f"{path},1,0"), cwd=native.cwd)
    assert as_pane.ok("display", "-p", "#{pid}") == want
    assert Mux(native.argv0, ["-S", path], native.env, cwd=native.cwd).ok(
        "display", "-p", "#{pid}") == want
    assert fallbacks(log) == []


def test_everything_else_is_the_python_client(pair, built, muxdir):
    """A flag only Python handles, hmux's own subcommands, a command that may start a server
    or attach: the same answer, from the Python client the C one became. `-V` and a command
    to no server that cannot start one (libtmux runs both before each test's first command)
    are answered in C, as Python answers them."""
    native, python, log = pair
    other_native = Mux(native.argv0, ["-L", "none"], native.env, cwd=native.cwd, config=None)
    other_python = Mux(HMUX_PYTHON, ["-L", "none"], native.env, cwd=native.cwd, config=None)
    os.makedirs(os.path.dirname(socket_path(muxdir, "hmux", "refused")), exist_ok=True)
    refusing = socket.socket(socket.AF_UNIX)  # bound, never listening: ECONNREFUSED
    refusing.bind(socket_path(muxdir, "hmux", "refused"))
    try:
        for args, in_c in ((("ls",), True), (("-V",), True), (("-uV", "ls"), True),
                           (("has-session", "-t", "=x", ";", "ls"), True),
                           (("-L", "refused", "has-session"), True),
                           (("-Z", "ls"), False), (("-L",), False), (("-V", "-Z"), False),
                           (("has-s",), False), (("attach",), False),
                           (("display", "x;", "ls"), True), (("-N", "new"), False)):
            log.write_text("")
            ours = other_native.cmd(*args)
            assert tuple(ours) == tuple(other_python.cmd(*args)), args
            assert len(fallbacks(log)) == (0 if in_c else 1), args
    finally:
        refusing.close()
    log.write_text("")
    r = native.cmd("plugins")
    assert r.rc == 0 and "plugins" in r.out.lower() and len(fallbacks(log)) == 1
    # A command a server must be started for, with no fork server: the Python client starts
    # it (the starts above may have left one: test_a_start_through_the_fork_server_...).
    log.write_text("")
    other_native.env = {**other_native.env, "HMUX_FORKSERVER": "0"}
    other_native.ok("new-session", "-d", "-s", "started")
    assert other_native.ok("ls", "-F", "#{session_name}") == "started\n"
    assert len(fallbacks(log)) == 1
    other_native.kill()


def _exec_environ(pid: int) -> dict[str, str]:
    """The environment ``pid`` was exec'd with (/proc shows it as exec left it)."""
    with open(f"/proc/{pid}/environ", "rb") as f:
        items = f.read().split(b"\0")
    return dict(i.decode(errors="replace").split("=", 1) for i in items if b"=" in i)


def test_a_start_through_the_fork_server_is_the_c_clients(built, muxdir, tmp_path, request):
    """Servers started close together leave a fork server (hmux_core/forkserver.py); one the
    Python client started for this C client also answers it, so the third `new-session`
    starts no Python at all, and its server has the third client's environment and
    directory. A client whose interpreter settings differ is refused and starts its own."""
    client, log = built
    env = base_env(muxdir)
    muxes = [Mux([client], ["-L", f"fs{i}"], {**env, "WHO": str(i)}, cwd=env["HOME"])
             for i in range(4)]
    for m in muxes:
        request.addfinalizer(m.kill)
    sockdir = os.path.dirname(socket_path(muxdir, "hmux", "fs0"))
    log.write_text("")
    for m in muxes[:2]:
        m.ok("new-session", "-d", "-s", "s")
    assert len(fallbacks(log)) == 2  # no fork server yet: the Python client started both
    [alias] = wait_for(lambda: [n for n in os.listdir(sockdir)
                                if n.startswith(".hmux-native-")])
    assert os.readlink(os.path.join(sockdir, alias)).startswith(".hmux-forkserver-")

    log.write_text("")
    third = muxes[2]
    third.cwd = str(tmp_path)
    third.ok("new-session", "-d", "-s", "s")
    assert fallbacks(log) == []
    pid = int(third.ok("display", "-p", "#{pid}"))
    assert _exec_environ(pid).get("WHO") == "1"  # a fork of the second client's fork server
    assert third.ok("show-environment", "-g", "WHO") == "WHO=2\n"
    assert os.readlink(f"/proc/{pid}/cwd") == str(tmp_path)
    assert third.ok("list-sessions", "-F", "#{session_name}") == "s\n"
    for m in muxes[:3]:  # the C client's note to its Python reaches no server
        assert m.cmd("show-environment", "-g", "HMUX_NATIVE_CLIENT").rc == 1

    # Another PYTHONPATH would import other code: refused, the Python client starts it.
    other = muxes[3]
    other.env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path),
                                                             env.get("PYTHONPATH")]))
    log.write_text("")
    other.ok("new-session", "-d", "-s", "s")
    assert len(fallbacks(log)) == 1
    assert other.ok("show-environment", "-g", "WHO") == "WHO=3\n"


def test_a_terminal_goes_to_the_python_client_for_what_may_attach(pair, built):
    """With stdin a terminal, `attach` must be the Python client (it draws); a command that
    cannot attach stays in C."""
    native, python, log = pair

    def in_pty(*args: str) -> str:
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(native.cwd)
            os.execve(native.argv0[0], native.argv0 + native.socket_args + list(args),
                      native.env)
        out = b""
        detached = False
        while True:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            if b"\x1b[?1049h" in out and args[0] == "attach" and not detached:
                native.ok("detach-client", "-s", "s")
                detached = True
        os.waitpid(pid, 0)
        os.close(fd)
        return out.decode(errors="replace")

    assert in_pty("display", "-p", "#{session_name}").strip() == "s"
    assert fallbacks(log) == []
    out = in_pty("attach", "-t", "s")
    assert "[detached (from session s)]" in out
    assert len(fallbacks(log)) == 1


def test_sigterm_ends_a_waiting_command(pair):
    """A command waiting on the server (wait-for) ends on SIGTERM with the status so far, as
    tmux's client (proc_exit) and the Python client do."""
    native, python, log = pair
    statuses = []
    for mux in (native, python):
        p = subprocess.Popen(mux.argv0 + mux.socket_args + ["wait-for", "chan"], env=mux.env,
                             cwd=mux.cwd, stderr=subprocess.PIPE, text=True)
        wait_for(lambda p=p: _waiting(p.pid))
        p.send_signal(signal.SIGTERM)
        statuses.append((p.wait(timeout=10), p.stderr.read()))
    assert statuses[0] == statuses[1] == (0, "")
    assert fallbacks(log) == []


def _waiting(pid: int) -> bool:
    """The client sleeps in poll or select: it has sent the command and waits on its socket."""
    try:
        with open(f"/proc/{pid}/wchan") as f:
            wchan = f.read()
    except OSError:
        return False
    return "poll" in wchan or "select" in wchan


def test_a_command_too_long_is_refused_by_both(pair):
    native, python, log = pair
    long = "x" * 17000
    assert tuple(native.cmd("display", "-p", long)) == tuple(python.cmd("display", "-p", long)) \
        == (1, "", "command too long\n")


def test_as_tmux_by_its_name(built, muxdir, tmp_path, request):
    """Called ``tmux`` (the shim's symlink), it uses tmux's socket directory and passes hmux's
    own subcommands to the server, which refuses them as tmux does."""
    client, log = built
    shim_dir = tmp_path / "bin"
    shim_dir.mkdir()
    (shim_dir / "tmux").symlink_to(client)
    env = base_env(muxdir)
    shim = Mux([str(shim_dir / "tmux")], ["-L", "t"], env, cwd=env["HOME"], config=None)
    request.addfinalizer(shim.kill)
    shim.ok("new-session", "-d", "-s", "s")  # no server: the Python tmux shim starts one
    log.write_text("")
    assert shim.ok("display", "-p", "#{socket_path}") == socket_path(muxdir, "tmux", "t") + "\n"
    assert tuple(shim.cmd("doctor")) == (1, "", "unknown command: doctor\n")
    assert fallbacks(log) == []


def test_a_reader_that_goes_away_is_no_death_by_sigpipe(pair, tmp_path):
    """`hmux show-buffer | head -1`: the pipe closes while the client writes; the command still
    ends with its own status, as with the Python client (both ignore SIGPIPE, as tmux's)."""
    native, python, log = pair
    big = tmp_path / "big"
    big.write_text("".join(f"line {i}\n" for i in range(40000)))  # beyond a pipe's buffer
    native.ok("load-buffer", "-b", "big", str(big))
    statuses = []
    for mux in (native, python):
        p = subprocess.Popen(mux.argv0 + mux.socket_args + ["show-buffer", "-b", "big"],
                             env=mux.env, cwd=mux.cwd, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
        assert p.stdout.readline() == b"line 0\n"
        p.stdout.close()
        statuses.append(p.wait(timeout=20))
    assert statuses == [0, 0]
    assert fallbacks(log) == []


def test_the_terminal_safe_list_names_real_commands_that_never_attach():
    """The C file's list of commands kept in C with stdin a terminal: every entry is a name
    or alias of the command table, and none of the commands that attach or run commands in
    this client's place is on it."""
    import re

    from hmux_core.commands.names import command_names
    from hmux_core.native.build import SOURCE

    with open(SOURCE) as f:
        text = f.read()
    block = text[text.index("terminal_safe[] = {"):]
    listed = re.findall(r'"([a-z-]+)"', block[:block.index("NULL")])
    names = command_names()
    assert listed and all(name in names for name in listed), \
        [n for n in listed if n not in names]
    never = {"attach-session", "new-session", "if-shell", "run-shell", "source-file",
             "command-prompt", "confirm-before", "lock-client", "lock-session", "lock-server",
             "suspend-client"}
    assert not {names[n] for n in listed} & never
