"""The fork server: one process that has imported the server once and forks each new one.

A cold ``hmux new -d`` is mostly Python importing the server (trio alone is over half of it),
and the tools that start a server per test (libtmux's and tmuxp's suites, a plugin's own tests)
pay that every time. So, as multiprocessing's ``forkserver`` does, the second server started
within :data:`START_WINDOW` seconds in one socket directory also starts a fork server there: a
daemon that imports what a server imports, then forks a server for each client that asks,
already warm. It serves only its own user (the directory is 0700 and the peer's uid is
checked), only clients with the interpreter, hmux install and import path that started it
(all three are in its socket's name), and exits after :data:`IDLE` seconds without a
request or once its socket is gone. A user who starts one server a day never sees one.
``HMUX_FORKSERVER=0`` turns it off; another number of seconds replaces :data:`IDLE` for a
fork server that client starts.

What a forked server inherits from the client is what a server forked by the client itself
inherits: the client's environment, working directory and umask are sent with the request
and applied before the server starts, and the server's fds (its end of the first client's
socketpair, the start lock) come with it over SCM_RIGHTS. Process limits, nice value, cgroup
and the interpreter's own settings from ``PYTHON*`` variables other than the path are the
fork server's: those of the client that started it.

The C client (``hmux_core/native/client.c``) asks too, so a tool's ``new-session`` starts no
Python at all: when the C client becomes the Python client it names itself in
:data:`NATIVE_ENV` (its inode and mtime), and a fork server that client's Python starts also
listens under that name, a symlink beside its socket. The C client cannot compute the socket's
own name (it holds the interpreter's import path), so the fork server checks what could differ
instead: a request marked ``native`` is refused unless its ``PYTHON*`` variables are those the
fork server started with and ``server.py`` is the one it imported.

The client's half (:func:`request`, :func:`note_start`) imports only what the client already
has; :func:`serve` imports the server.
"""

from __future__ import annotations

import _socket as socket
import os
import struct
import sys
import time

from .client import FD, received_fds

#: Seconds without a request after which the fork server exits.
IDLE = 10.0
#: A server start this soon after the previous one in the same directory starts a fork server.
START_WINDOW = 10.0
ENV_VAR = "HMUX_FORKSERVER"
#: Set by the C client when it execs the Python client (and taken out of the environment by
#: ``cli.main``): the name under which a fork server started here also answers it.
NATIVE_ENV = "HMUX_NATIVE_CLIENT"
_NATIVE_PREFIX = ".hmux-native-"
_MARKER = ".hmux-last-start"
_LEN = struct.Struct("I")
#: :data:`NATIVE_ENV`'s value in this client, set by ``cli.main``.
native_alias: str | None = None


def _idle() -> float:
    """:data:`IDLE`, or what ``HMUX_FORKSERVER`` says instead (0: no fork server at all)."""
    value = os.environ.get(ENV_VAR)
    if not value:
        return IDLE
    try:
        idle = float(value)
    except ValueError:
        return IDLE
    return idle if idle >= 0 else IDLE


def socket_for(directory: str) -> str | None:
    """The fork server's socket for this interpreter, install and import path in
    ``directory``; None when fork servers are off or the directory is not a private one of
    this user's (a ``-S`` socket in a shared or home directory gets no fork server beside it)."""
    if not _idle():
        return None
    try:
        st = os.stat(directory)
        here = os.path.dirname(os.path.abspath(__file__))
        code = os.stat(os.path.join(here, "server.py")).st_mtime_ns
    except OSError:
        return None
    if st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    import zlib  # a C module: crc32 rather than hashlib's import

    # The import path too: a server forked from here imports what the starting client's
    # would have (PYTHONPATH, -I, a venv's site), not what another client's would. Without
    # the entry prepare_server_imports drops for a server (the script's directory, or the
    # current one for ``-m``), which a client started elsewhere has different.
    imports = sys.path if sys.flags.safe_path else sys.path[1:]
    key = zlib.crc32("\0".join([sys.executable, here, str(code), *imports]).encode(
        "utf-8", "surrogateescape"))
    path = os.path.join(directory, f".hmux-forkserver-{key:08x}")
    return path if len(path.encode()) < 108 else None


def _encode(args: list[str]) -> bytes:
    """The request: cwd, umask, the server's arguments, then the environment, each
    NUL-terminated, after a count of arguments."""
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = "/"
    mask = os.umask(0)
    os.umask(mask)
    fields = [os.fsencode(cwd), str(mask).encode(), str(len(args)).encode()]
    fields += [os.fsencode(a) for a in args]
    fields += [k + b"=" + v for k, v in os.environb.items()]
    return b"\0".join(fields) + b"\0"


def request(path: str, args: list[str], fds: list[int]) -> bool:
    """Ask the fork server at ``path`` (:func:`socket_for`) to start a server with ``args`` and
    ``fds`` (the first becomes ``--client-fd``, a second ``--lock-fd``). True once a server has
    been forked; False when there is no fork server or it could not (the caller then starts
    one itself: a fork server that acknowledged nothing forked nothing)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
        payload = _encode(args)
        data = _LEN.pack(len(payload)) + payload
        ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, b"".join(FD.pack(f) for f in fds))]
        sent = sock.sendmsg([data], ancillary)
        if sent < len(data):
            sock.sendall(data[sent:])
        # A fork server still importing answers when it is done (less than a start of our
        # own takes); one silent for this long is broken, and we start the server ourselves.
        sock.settimeout(10.0)
        return sock.recv(1) == b"\1"
    except OSError:
        return False
    finally:
        sock.close()


def note_start(path: str) -> None:
    """A server was just started beside the fork server socket ``path`` (:func:`socket_for`)
    without it: if another was started within :data:`START_WINDOW` seconds, start the fork
    server for the next ones."""
    marker = os.path.join(os.path.dirname(path), _MARKER)
    now = time.time()
    try:
        recent = now - os.stat(marker).st_mtime < START_WINDOW
        os.utime(marker)
    except FileNotFoundError:
        recent = False
        try:
            os.close(os.open(marker, os.O_WRONLY | os.O_CREAT, 0o600))
        except OSError:
            return
    except OSError:
        return
    if not recent:
        return
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            from .client import become_daemon

            become_daemon([])  # the start lock above all: it must not outlive a server
            code = serve(path, _idle(), native_alias)
        except BaseException:
            pass
        finally:
            os._exit(code)
    os.waitpid(pid, 0)  # daemonize's first fork exits at once


def _bind(path: str) -> socket.socket | None:
    """Our listening socket, or None when a live fork server already has ``path``."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(path)
    except OSError:
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(path)
            sock.close()
            return None  # a live one
        except OSError:
            pass
        finally:
            probe.close()
        try:
            os.unlink(path)  # a dead one's
            sock.bind(path)
        except OSError:
            sock.close()
            return None
    os.chmod(path, 0o600)
    sock.listen(16)
    return sock


def _warm() -> None:
    """Import what a server imports up to its first command's answer, and the default
    plugins' modules (which it imports just after)."""
    from .client import prepare_server_imports

    prepare_server_imports()
    from . import commands, control_notify, formats_vars, jobs, pane, server, spawn  # noqa: F401
    from .plugin import selection

    commands.load_all()
    selection.prefetch(None)


def serve(path: str, idle: float = IDLE, native: str | None = None) -> int:
    """The fork server's life: bind, import, then fork a server per request until ``idle``
    seconds pass without one. ``native``: the C client's name for it (:data:`NATIVE_ENV`)."""
    listener = _bind(path)
    if listener is None:
        return 0
    ino = os.stat(path).st_ino
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "server.py")
    own = (_python_settings(os.environb), os.stat(here).st_mtime_ns)
    alias = _alias(path, native)
    try:
        _warm()
        import signal

        # The servers we fork are our children (one fork each, not a daemon's two: the
        # second fork of a process this size is a millisecond or two of every start), and
        # the kernel reaps them; each sets SIGCHLD back for its own children at once.
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)
        listener.settimeout(min(1.0, idle))
        last = time.monotonic()
        while time.monotonic() - last < idle:
            try:
                if os.stat(path).st_ino != ino:
                    return 0  # another took the name
            except OSError:
                return 0  # removed: the directory is being cleaned up
            try:
                fd, _ = listener._accept()
            except TimeoutError:
                continue
            except OSError:
                continue
            conn = socket.socket(fileno=fd)
            try:
                _serve_one(conn, here, own)
            except _Stale:
                break
            except Exception:  # a broken request: that client falls back to starting its own
                pass
            finally:
                conn.close()
            last = time.monotonic()
        try:
            if os.stat(path).st_ino == ino:
                os.unlink(path)
        except OSError:
            pass
        return 0
    finally:
        if alias is not None:
            try:
                if os.readlink(alias) == os.path.basename(path):
                    os.unlink(alias)
            except OSError:
                pass


def _alias(path: str, native: str | None) -> str | None:
    """Make ``native`` (the C client's name for us) a symlink to our socket ``path``."""
    if not native or not native.startswith(_NATIVE_PREFIX) or "/" in native or len(native) > 64:
        return None
    alias = os.path.join(os.path.dirname(path), native)
    tmp = f"{alias}.{os.getpid()}"
    try:
        os.symlink(os.path.basename(path), tmp)
        os.replace(tmp, alias)  # a fork server before us for that client: the newest answers
    except OSError:
        return None
    return alias


def _python_settings(env) -> dict[bytes, bytes]:
    """The environment variables the interpreter reads at its start (PYTHONPATH, PYTHONHOME,
    ...): a C client whose differ would have started another Python than ours."""
    return {k: v for k, v in env.items() if k.startswith(b"PYTHON")}


class _Stale(Exception):
    """``server.py`` changed since the fork server imported it (an editable install)."""


def _serve_one(conn: socket.socket, here: str, own: tuple[dict[bytes, bytes], int]) -> None:
    conn.settimeout(5.0)
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    if struct.unpack("3i", creds)[1] != os.getuid():
        return
    # Close-on-exec: the server keeps them (a fork, not an exec), and a pane it spawns must
    # not inherit the first client's socket or the start lock.
    data, ancillary, _, _ = conn.recvmsg(65536, socket.CMSG_SPACE(2 * FD.size),
                                         getattr(socket, "MSG_CMSG_CLOEXEC", 0))
    fds = received_fds(ancillary)
    try:
        if not fds or len(data) < _LEN.size:
            return
        (size,) = _LEN.unpack_from(data)
        payload = data[_LEN.size:]
        while len(payload) < size:
            more = conn.recv(size - len(payload))
            if not more:
                return
            payload += more
        if os.stat(here).st_mtime_ns != own[1]:
            raise _Stale
        fields = payload[:size].split(b"\0")
        native = fields[0] == b"native"
        if native:
            del fields[0]
        cwd, mask, count = fields[0], int(fields[1]), int(fields[2])
        args = [os.fsdecode(a) for a in fields[3:3 + count]]
        env = dict(f.split(b"=", 1) for f in fields[3 + count:] if b"=" in f)
        if native and _python_settings(env) != own[0]:
            return  # that C client's Python would not be ours: it starts its server itself
        args += ["--client-fd", str(fds[0])]
        if len(fds) > 1:
            args += ["--lock-fd", str(fds[1])]
        if len(os.listdir("/proc/self/task")) != 1:
            return  # a thread appeared (nothing here starts one): a fork would be unsafe
        if os.fork() == 0:
            _become_server(cwd, mask, env, args, fds)
        conn.sendall(b"\1")
    finally:
        for fd in fds:
            os.close(fd)


def _become_server(cwd: bytes, mask: int, env: dict[bytes, bytes], args: list[str],
                   fds: list[int]) -> None:
    """In the forked child: take the client's environment, directory and umask, keep only
    the server's fds, and run the server. Never returns."""
    code = 1
    try:
        import signal

        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # ours is SIG_IGN: see serve
        from .client import become_daemon

        become_daemon(fds, fork=False)
        os.environb.clear()
        os.environb.update(env)
        os.umask(mask)
        try:
            os.chdir(cwd)
        except OSError:
            os.chdir("/")
        from . import server

        code = server.main([*args, "--foreground"])
    except BaseException:
        code = 1
    finally:
        os._exit(code)
