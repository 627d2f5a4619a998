"""The fork server (hmux_core/forkserver.py): real clients starting real servers in a private
socket directory; what a server forked by it inherits is checked against the client that
asked, and the fork server's own process is found through its socket (SO_PEERCRED)."""

from __future__ import annotations

import glob
import os
import socket
import stat
import struct
import subprocess
import uuid

from harness import Mux, _alive, wait_for


def _labels(n: int) -> list[str]:
    return ["f" + uuid.uuid4().hex[:8] for _ in range(n)]


def _mux(hmux: Mux, label: str, **env: str) -> Mux:
    return Mux(hmux.argv0, ["-L", label], {**hmux.env, **env}, hmux.cwd)


def _sockdir(muxdir: str) -> str:
    return os.path.join(muxdir, f"hmux-{os.getuid()}")


def _forkservers(muxdir: str) -> list[str]:
    return glob.glob(os.path.join(_sockdir(muxdir), ".hmux-forkserver-*"))


def _pid_of(path: str) -> int:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
        creds = s.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    finally:
        s.close()
    return struct.unpack("3i", creds)[0]


def _exec_environ(pid: int) -> dict[str, str]:
    """The environment ``pid`` was exec'd with (what /proc shows: not changed by putenv)."""
    with open(f"/proc/{pid}/environ", "rb") as f:
        items = f.read().split(b"\0")
    return dict(i.decode(errors="replace").split("=", 1) for i in items if b"=" in i)


def _sockets(pid: int) -> set[str]:
    links = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            links.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            pass
    return {link for link in links if link.startswith("socket:")}


def _one_forkserver(muxdir: str) -> str:
    """The fork server's socket (it binds just after the client that started it returns)."""
    [path] = wait_for(lambda: _forkservers(muxdir))
    return path


def _start(muxes: list[Mux]) -> list[int]:
    pids = []
    for m in muxes:
        m.ok("new-session", "-d", "-s", "s")
        pids.append(int(m.ok("display", "-p", "#{pid}")))
    return pids


def test_servers_started_close_together_fork_from_one_process(hmux, muxdir, tmp_path):
    """The second start leaves a fork server behind; the third server comes from it, with the
    third client's environment, directory and umask, not those of the client that started the
    fork server."""
    first, second, third = (_mux(hmux, label, WHO=str(i))
                            for i, label in enumerate(_labels(3), 1))
    try:
        _start([first])
        assert _forkservers(muxdir) == []  # one start: nothing left behind
        _start([second])
        path = _one_forkserver(muxdir)
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        fs = _pid_of(path)
        assert _alive(fs)

        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        third.cwd = str(elsewhere)
        third.argv0 = ["sh", "-c", 'umask 027; exec "$0" "$@"', *hmux.argv0]
        [pid] = _start([third])
        # Exec'd as the second client's fork server, yet running with the third client's state.
        assert _exec_environ(pid).get("WHO") == "2"
        assert third.ok("show-environment", "-g", "WHO") == "WHO=3\n"
        assert os.readlink(f"/proc/{pid}/cwd") == str(elsewhere)
        assert third.ok("run-shell", "umask").strip() in ("0027", "027")
        assert third.ok("display", "-p", "#{socket_path}").strip().endswith(third.socket_args[1])
        # None of the fork server's sockets (its listener, the request's connection) leaked.
        assert _sockets(pid) and not _sockets(pid) & _sockets(fs)
        third.ok("kill-server")
        assert _alive(fs)  # servers come and go; the fork server stays until idle
    finally:
        for m in (first, second, third):
            m.kill()


def test_concurrent_starts_through_the_fork_server_make_one_server(hmux, muxdir):
    """The start lock travels with the request: clients racing to start one socket's server
    all end up in the same one."""
    a, b = (_mux(hmux, label) for label in _labels(2))
    label = _labels(1)[0]
    target = _mux(hmux, label)
    try:
        _start([a, b])
        _one_forkserver(muxdir)
        argv = target.argv0 + target.socket_args + ["-f", "/dev/null"]
        procs = [subprocess.Popen(argv + ["new-session", "-d", "-s", f"n{i}"], env=target.env,
                                  cwd=target.cwd) for i in range(5)]
        assert [p.wait(30) for p in procs] == [0] * 5
        out = target.ok("list-sessions", "-F", "#{session_name} #{pid}").split()
        assert sorted(out[0::2]) == [f"n{i}" for i in range(5)]
        assert len(set(out[1::2])) == 1
    finally:
        for m in (a, b, target):
            m.kill()


def test_another_import_path_gets_its_own_fork_server(hmux, muxdir, tmp_path):
    """A client whose PYTHONPATH differs would import other code: it neither uses the fork
    server others started nor shares theirs, it gets one of its own."""
    extra = os.pathsep.join(filter(None, [str(tmp_path), hmux.env.get("PYTHONPATH")]))
    plain = [_mux(hmux, label) for label in _labels(2)]
    other = [_mux(hmux, label, PYTHONPATH=extra, WHO=str(i))
             for i, label in enumerate(_labels(2))]
    try:
        _start(plain)
        first = _one_forkserver(muxdir)
        _start(other[:1])  # refused by the name; the marker makes this start a fork server
        wait_for(lambda: len(_forkservers(muxdir)) == 2)
        [second] = set(_forkservers(muxdir)) - {first}
        [pid] = _start(other[1:])
        assert _exec_environ(pid).get("WHO") == "0"  # forked by the fork server other[0] left
        assert other[1].ok("show-environment", "-g", "WHO") == "WHO=1\n"
        assert _alive(_pid_of(first)) and _alive(_pid_of(second))
    finally:
        for m in plain + other:
            m.kill()


def test_the_fork_server_leaves_when_its_socket_goes(hmux, muxdir):
    muxes = [_mux(hmux, label) for label in _labels(2)]
    try:
        _start(muxes)
        path = _one_forkserver(muxdir)
        fs = _pid_of(path)
        os.unlink(path)
        wait_for(lambda: not _alive(fs), timeout=5)
    finally:
        for m in muxes:
            m.kill()


def test_the_fork_server_leaves_when_idle(hmux, muxdir):
    """HMUX_FORKSERVER=N: N idle seconds instead of 10; the socket goes with the process."""
    muxes = [_mux(hmux, label, HMUX_FORKSERVER="2") for label in _labels(3)]
    try:
        _start(muxes[:2])
        path = _one_forkserver(muxdir)
        fs = _pid_of(path)
        _start(muxes[2:])  # a request (well within the 2 s): the idle time starts again
        assert _alive(fs)
        wait_for(lambda: not _alive(fs), timeout=10)
        assert not os.path.exists(path)
    finally:
        for m in muxes:
            m.kill()


def test_a_dead_fork_servers_socket_is_replaced(hmux, muxdir):
    """A stale socket (its process gone) makes the client start the server itself, and the
    next fork server takes the name over."""
    muxes = [_mux(hmux, label) for label in _labels(4)]
    try:
        _start(muxes[:2])
        path = _one_forkserver(muxdir)
        fs = _pid_of(path)
        os.kill(fs, 9)
        wait_for(lambda: not _alive(fs))
        assert os.path.exists(path)  # killed: nothing removed it
        _start(muxes[2:3])  # refused by the dead socket: started by the client
        _start(muxes[3:])
        new = _pid_of(path)
        assert new != fs and _alive(new)
        assert all(m.ok("display", "-p", "#{session_name}") == "s\n" for m in muxes)
    finally:
        for m in muxes:
            m.kill()


def test_turned_off_and_shared_directories(hmux, muxdir, tmp_path):
    """HMUX_FORKSERVER=0 starts none; nor does a ``-S`` socket in a directory others may read."""
    muxes = [_mux(hmux, label, HMUX_FORKSERVER="0") for label in _labels(3)]
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    s_muxes = [Mux(hmux.argv0, ["-S", str(shared / f"s{i}")], hmux.env, hmux.cwd)
               for i in range(3)]
    try:
        _start(muxes)
        assert _forkservers(muxdir) == []
        _start(s_muxes)
        assert sorted(os.listdir(shared)) == ["s0", "s1", "s2"]
    finally:
        for m in muxes + s_muxes:
            m.kill()
