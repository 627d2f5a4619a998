"""The thin client: identify, send one command, serve the server's file requests, exit.

Like tmux's client it does almost nothing itself: the server expands formats, runs commands and
(when attached) draws on the terminal whose fds we pass it. Only the standard library is imported
here so that ``hmux display -p …`` starts fast.
"""

from __future__ import annotations

# The C modules under ``signal`` and ``socket``: the Python wrappers turn numbers into enums,
# and importing ``enum`` for them was a third of a command's own start-up.
import _signal as signal
import _socket as socket
import errno
import os
import select
import struct
import sys

from . import protocol as P

#: An fd in SCM_RIGHTS data, a C int (struct: protocol imports it anyway; array would import
#: collections, about a millisecond of every command).
FD = struct.Struct("i")


def received_fds(ancillary: list[tuple[int, int, bytes]]) -> list[int]:
    """The fds a recvmsg's ancillary data carried in SCM_RIGHTS (whole C ints only)."""
    fds: list[int] = []
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            whole = len(data) - len(data) % FD.size
            fds += (v for (v,) in FD.iter_unpack(data[:whole]))
    return fds


#: Commands that start a server when none is running (tmux's CMD_STARTSERVER), by full name;
#: kept here rather than imported from the grammar so the client starts fast (a test checks it).
START_SERVER_COMMANDS = frozenset(
    {"attach-session", "list-commands", "list-keys", "new-session", "start-server"}
)


def _needs_server_start(argv: list[str]) -> bool:
    """Whether any command in the argv chain may start the server (unique prefixes count)."""
    if not argv:
        return True
    from .commands.names import command_names

    names = command_names()
    expect_name = True
    for arg in argv:
        if expect_name:
            name = arg
            full = names.get(name)
            if full is None:
                matches = [n for n in names.values() if n.startswith(name)]
                full = matches[0] if len(set(matches)) == 1 else None
            if full in START_SERVER_COMMANDS:
                return True
            expect_name = False
        if arg == ";" or (arg.endswith("\\;") and not arg.endswith("\\\\;")):
            expect_name = True
    return False


def _get_lock(lockfile: str) -> int:
    """flock the start lock; -2 means another client held it (retry the connect)."""
    try:
        fd = os.open(lockfile, os.O_WRONLY | os.O_CREAT, 0o600)
    except OSError:
        return -1
    import fcntl  # only when a server may have to be started

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass
        os.close(fd)
        return -2
    return fd


def _start_server(path: str, flags: int, config_files: list[str] | None, lockfd: int,
                  tmux_files: bool) -> socket.socket:
    """Start a detached server; our end of a socketpair is its first client (as tmux does).
    The fork server forks it when one is running here (see :mod:`hmux_core.forkserver`)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    args = ["--socket", path, "--flags", str(flags)]
    if lockfd >= 0:
        args += ["--lock-file", path + ".lock"]
    if config_files is not None:
        for f in config_files:
            args += ["-f", f]
        if not config_files:
            args += ["--no-config"]
    elif tmux_files:
        args += ["--tmux-config"]  # run as `tmux`: exactly tmux's configuration files
    keep = [theirs.fileno()] + ([lockfd] if lockfd >= 0 else [])
    from . import forkserver

    helper = forkserver.socket_for(os.path.dirname(path))
    if helper is not None and forkserver.request(helper, args, keep):
        theirs.close()
        return ours
    args += ["--client-fd", str(theirs.fileno())]
    if lockfd >= 0:
        args += ["--lock-fd", str(lockfd)]
    if _single_threaded():
        # Fork, as tmux does: this interpreter is already up, so the server skips a second
        # interpreter's start (a fifth of a cold ``new -d``).
        pid = os.fork()
        if pid == 0:
            theirs.detach()  # the server adopts the fd: no object here may close it
            _serve_forked(args, keep, ours)
        os.waitpid(pid, 0)  # it forks the daemon at once and exits
        if helper is not None:
            forkserver.note_start(helper)
    else:
        # A process with threads of its own (one embedding the client): a fork would copy
        # this thread alone, so the server is an interpreter of its own.
        import subprocess  # only when a server must be started: every client pays for an import

        proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "hmux_core.server", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=keep,
            start_new_session=True,
            close_fds=True,
        )
        proc.wait()  # the launcher forks the real daemon and exits at once: no zombie
    theirs.close()
    return ours


def _single_threaded() -> bool:
    """Only this thread runs (a fork copies no other, so a process embedding the client with
    threads of its own starts the server as a new interpreter instead)."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return "threading" not in sys.modules


def daemonize(fork: bool = True) -> None:
    """Fork once more so the server is not a child of the starting client, in a session of
    its own with /dev/null for stdio (tmux's daemon()). The parent exits here. Without
    ``fork`` (a child of the fork server, itself a daemon that reaps it), only the rest."""
    if fork:
        pid = os.fork()
        if pid > 0:
            os._exit(0)
    if os.getsid(0) != os.getpid():
        os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    if devnull > 2:
        os.close(devnull)


def become_daemon(keep: list[int], fork: bool = True) -> None:
    """:func:`daemonize`, then close every fd but stdio and ``keep`` (a start lock held by a
    stray copy would outlive the server that should release it)."""
    daemonize(fork)
    start = 3
    for fd in sorted(keep):
        os.closerange(start, fd)
        start = fd + 1
    os.closerange(start, 1 << 20)


def prepare_server_imports() -> None:
    """Make this client interpreter's import path a server's before importing one."""
    if not sys.flags.safe_path and sys.path:
        del sys.path[0]  # the script's or the current directory: what -P leaves out
    if sys.flags.no_site:  # the tmux shim (-I -S): plugins are found on site's paths
        import site

        site.main()


def _serve_forked(args: list[str], keep: list[int], ours: socket.socket) -> None:
    """The forked child becomes the daemon at once, while it is small to copy, holding only
    the server's fds, then imports and runs the server. Never returns."""
    code = 1
    try:
        ours.close()
        become_daemon(keep)
        prepare_server_imports()
        from . import server

        code = server.main([*args, "--foreground"])
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def connect(path: str, flags: int, config_files: list[str] | None,
            tmux_files: bool = False, argv: list[str] | None = None) -> socket.socket:
    """Connect, starting a server under the lock when allowed (CLIENT_STARTSERVER, or a command
    in ``argv`` that starts one: looked up only when no server answers, so a command to a
    running server never loads the command names); raises OSError like connect()."""
    if len(path.encode()) >= 108:
        raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG))
    locked = False
    lockfd = -1
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            if locked and lockfd >= 0:
                os.close(lockfd)
            return sock
        except OSError as e:
            sock.close()
            if e.errno not in (errno.ECONNREFUSED, errno.ENOENT):
                raise
            if not flags & P.CLIENT_STARTSERVER and argv is not None and _needs_server_start(argv):
                flags |= P.CLIENT_STARTSERVER
            if flags & P.CLIENT_NOSTARTSERVER or not flags & P.CLIENT_STARTSERVER:
                if locked and lockfd >= 0:
                    os.close(lockfd)
                raise
            if not locked:
                lockfd = _get_lock(path + ".lock")
                if lockfd == -2:
                    continue
                locked = True
                continue
            if lockfd >= 0:
                try:
                    os.unlink(path)
                except FileNotFoundError:
                    pass
            try:
                return _start_server(path, flags, config_files, lockfd, tmux_files)
            finally:
                if lockfd >= 0:
                    os.close(lockfd)


class Client:
    """One run of the client: everything after the socket is connected."""

    def __init__(self, sock: socket.socket, flags: int) -> None:
        self.sock = sock
        self.flags = flags
        self.decoder = P.Decoder()
        self.files: dict[int, int] = {}  # stream -> fd we write to
        # tmux's client closes its stdin/stdout/stderr once a stream has taken it ("can only
        # be used once"): a second stream asking for the same descriptor gets EBADF.
        self._std_taken: set[int] = set()
        #: Files being read for the server (MSG_READ_OPEN): descriptor -> stream number.
        self.reading: dict[int, int] = {}
        self.exitval = 0
        self.exit_message: str | None = None
        #: detach-client -E: (command, shell) this process becomes once the server lets go.
        self.exec_command: tuple[str, str] | None = None
        self.exit_reason: str | None = None
        self.attached = False
        self.done = False
        self.saved_tio: list | None = None

    def send(self, msg_type: int, data: bytes = b"") -> None:
        self.sock.sendall(P.encode(msg_type, data))

    def send_fd(self, msg_type: int, fd: int) -> None:
        frame = P.encode_with_fd(msg_type)
        self.sock.sendmsg([frame], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, FD.pack(fd))])

    def identify(self, feat: int = 0, then: bytes = b"") -> None:
        """tmux's identify messages (and ``then``, the frame that follows them) in three writes,
        not one per message: the environment alone is dozens, and each small write would also
        wake the server for a read of its own."""
        try:
            cwd = os.getcwd()
        except OSError:
            cwd = os.environ.get("HOME") or "/"
        try:
            ttyname = os.ttyname(0)
        except OSError:
            ttyname = ""
        enc = P.encode
        self.sock.sendall(b"".join((
            enc(P.MSG_IDENTIFY_FLAGS, P.pack_int(self.flags & 0x7FFFFFFF)),
            enc(P.MSG_IDENTIFY_LONGFLAGS, P.pack_u64(self.flags)),
            enc(P.MSG_IDENTIFY_TERM, P.pack_string(os.environ.get("TERM", ""))),
            enc(P.MSG_IDENTIFY_FEATURES, P.pack_int(feat)),
            enc(P.MSG_IDENTIFY_TTYNAME, P.pack_string(ttyname)),
            enc(P.MSG_IDENTIFY_CWD, P.pack_string(cwd)),
        )))
        for stdfd, mtype in ((0, P.MSG_IDENTIFY_STDIN), (1, P.MSG_IDENTIFY_STDOUT)):
            try:
                fd = os.dup(stdfd)
            except OSError:
                fd = os.open(os.devnull, os.O_RDWR)
            self.send_fd(mtype, fd)
            os.close(fd)
        frames = [enc(P.MSG_IDENTIFY_CLIENTPID, P.pack_int(os.getpid()))]
        for key, value in os.environ.items():
            entry = f"{key}={value}".encode("utf-8", "surrogateescape") + b"\0"
            if len(entry) <= P.MAX_PAYLOAD:
                frames.append(enc(P.MSG_IDENTIFY_ENVIRON, entry))
        frames.append(enc(P.MSG_IDENTIFY_DONE))
        frames.append(then)
        self.sock.sendall(b"".join(frames))

    # -- message handling ------------------------------------------------------------------------

    def _exit_message(self, data: bytes) -> None:
        if 0 < len(data) < 4:
            raise P.ProtocolError("bad MSG_EXIT size")
        if len(data) >= 4:
            self.exitval = P.unpack_int(data[:4])
        if len(data) > 4:
            self.exit_message = P.unpack_string(data[4:])
            self.exit_reason = self.exit_message

    def dispatch(self, msg: P.Message) -> None:
        t, data = msg.type, msg.data
        if t == P.MSG_VERSION:
            sys.stderr.write(
                f"protocol version mismatch (client {P.PROTOCOL_VERSION}, server {msg.peerid & 0xFF})\n"
            )
            self.exitval = 1
            self.done = True
        elif t in (P.MSG_EXIT, P.MSG_SHUTDOWN):
            if t == P.MSG_EXIT:
                self._exit_message(data)
            if self.attached:
                if t == P.MSG_SHUTDOWN:
                    self.exit_reason = "server exited"
                    self.exitval = 1
                elif self.exit_reason is None:
                    self.exit_reason = "exited"
                self.send(P.MSG_EXITING)
            else:
                self.done = True
        elif t == P.MSG_READY:
            self.attached = True
            self.send(P.MSG_RESIZE)
        elif t == P.MSG_FLAGS:
            if len(data) != 8:
                raise P.ProtocolError("bad MSG_FLAGS string")
            self.flags = P.unpack_u64(data)  # wait-exit among them, for a control client
        elif t in (P.MSG_DETACH, P.MSG_DETACHKILL) and not self.attached:
            self.send(P.MSG_EXITING)  # client_dispatch_wait: no reason, no SIGHUP
        elif t in (P.MSG_DETACH, P.MSG_DETACHKILL):
            session = P.unpack_string(data)
            if t == P.MSG_DETACHKILL:
                self.exit_reason = f"detached and SIGHUP (from session {session})"
                try:
                    os.kill(os.getppid(), signal.SIGHUP)
                except OSError:
                    pass
            else:
                self.exit_reason = f"detached (from session {session})" if session else "detached"
            self.send(P.MSG_EXITING)
        elif t == P.MSG_EXEC:
            command, _, rest = data.partition(b"\0")
            shell = rest.split(b"\0", 1)[0]
            self.exec_command = (command.decode("utf-8", "surrogateescape"),
                                 shell.decode("utf-8", "surrogateescape"))
            self.send(P.MSG_EXITING)
        elif t == P.MSG_EXITED:
            self.done = True
        elif t == P.MSG_SUSPEND:
            # Stop here; SIGCONT (the shell's fg) sends MSG_WAKEUP from the signal loop.
            signal.signal(signal.SIGTSTP, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTSTP)
        elif t == P.MSG_LOCK:
            os.system(P.unpack_string(data))
            self.send(P.MSG_UNLOCK)
        elif t == P.MSG_WRITE_OPEN:
            self._write_open(data)
        elif t == P.MSG_WRITE:
            stream, payload = P.unpack_stream(data)
            fd = self.files.get(stream)
            if fd is not None:
                _write_all(fd, payload)
        elif t == P.MSG_WRITE_CLOSE:
            (stream, _) = P.unpack_stream(data)
            fd = self.files.pop(stream, None)
            if fd is not None and fd > 2:
                os.close(fd)
        elif t == P.MSG_READ_OPEN:
            self._read_open(data)
        elif t == P.MSG_READ_CANCEL:
            stream = P.unpack_stream(data)[0]
            for rfd, number in list(self.reading.items()):
                if number == stream:
                    self._read_done(rfd, 0)
        elif t in (P.MSG_OLDSTDERR, P.MSG_OLDSTDIN, P.MSG_OLDSTDOUT):
            sys.stderr.write("server version is too old for client\n")
            self.done = True

    def _write_open(self, data: bytes) -> None:
        stream, fd, flags, path = P.unpack_write_open(data)
        error = 0
        if fd != -1:
            if fd not in (1, 2) or fd in self._std_taken or self.flags & P.CLIENT_CONTROL:
                error = errno.EBADF  # a control client's stdout belongs to the server
            else:
                self._std_taken.add(fd)
                self.files[stream] = fd
        else:
            try:
                newfd = os.open(path, os.O_NONBLOCK | os.O_WRONLY | os.O_CREAT | flags, 0o644)
                os.set_blocking(newfd, True)
                self.files[stream] = newfd
            except OSError as e:
                error = e.errno or errno.EIO
        self.send(P.MSG_WRITE_READY, P.pack_stream_error(stream, error))

    def _read_open(self, data: bytes) -> None:
        """MSG_READ_OPEN: start reading a file, or stdin for fd 0. The reading is done by the
        main loop a chunk at a time (``_read_some``), so server messages (MSG_READ_CANCEL,
        MSG_EXIT) and signals are still taken while a slow stdin feeds a pane."""
        stream, fd, path = P.unpack_read_open(data)
        try:
            if fd != -1:
                if fd != 0 or 0 in self._std_taken or self.flags & P.CLIENT_CONTROL:
                    raise OSError(errno.EBADF, os.strerror(errno.EBADF))
                self._std_taken.add(0)
                rfd = 0
            else:
                rfd = os.open(path, os.O_RDONLY)
        except OSError as e:
            self.send(P.MSG_READ_DONE, P.pack_stream_error(stream, e.errno or errno.EIO))
            return
        self.reading[rfd] = stream

    def _read_some(self, rfd: int) -> None:
        try:
            chunk = os.read(rfd, P.MAX_STREAM_DATA)
        except BlockingIOError:
            return
        except OSError:
            self._read_done(rfd, errno.EIO)  # tmux 3.7b's read error callback: EIO
            return
        if not chunk:
            self._read_done(rfd, 0)
            return
        self.send(P.MSG_READ, P.pack_stream(self.reading[rfd], chunk))

    def _read_done(self, rfd: int, error: int) -> None:
        """The end of a read (file_read_error_callback), also when the server cancels it."""
        stream = self.reading.pop(rfd)
        if rfd != 0:
            os.close(rfd)
        self.send(P.MSG_READ_DONE, P.pack_stream_error(stream, error))

    def run(self) -> int:
        sock = self.sock
        rfd, wfd = os.pipe()
        os.set_blocking(wfd, False)
        signal.set_wakeup_fd(wfd, warn_on_full_buffer=False)
        pending: list[int] = []

        def on_signal(signum, _frame):
            pending.append(signum)

        # SIGINT is taken and ignored, as tmux's client_signal ignores it (an attached client's
        # terminal is raw: C-c is a key for the pane, not a signal).
        for sig in (signal.SIGWINCH, signal.SIGTERM, signal.SIGHUP, signal.SIGCONT, signal.SIGINT):
            signal.signal(sig, on_signal)
        try:
            while not self.done:
                r, _, _ = select.select([sock, rfd, *self.reading], [], [])
                for fd in r:
                    if fd in self.reading:
                        self._read_some(fd)
                if rfd in r:
                    try:
                        os.read(rfd, 512)
                    except BlockingIOError:
                        pass
                    while pending:
                        sig = pending.pop(0)
                        if sig == signal.SIGWINCH and self.attached:
                            self.send(P.MSG_RESIZE)
                        elif sig == signal.SIGCONT and self.attached:
                            signal.signal(signal.SIGTSTP, signal.SIG_IGN)
                            self.send(P.MSG_WAKEUP)
                        elif sig in (signal.SIGTERM, signal.SIGHUP):
                            if self.attached:
                                self.exit_reason = "terminated" if sig == signal.SIGTERM else "lost tty"
                                self.send(P.MSG_EXITING)
                            elif self.flags & P.CLIENT_CONTROL:
                                self.done = True  # proc_exit: %exit is still printed
                            else:
                                return self.exitval  # proc_exit, with the value so far
                if sock in r:
                    try:
                        data, anc, _flags, _addr = sock.recvmsg(65536, socket.CMSG_SPACE(16))
                    except ConnectionResetError:
                        data, anc = b"", []
                    for fd in received_fds(anc):
                        os.close(fd)
                    if not data:
                        self.exit_reason = "server exited unexpectedly"
                        self.exitval = 1
                        break
                    self.decoder.feed(data)
                    for msg in self.decoder.messages():
                        self.dispatch(msg)
                        if self.done:
                            break
        finally:
            signal.set_wakeup_fd(-1)
            os.close(rfd)
            os.close(wfd)
        for fd in (0, 1, 2):  # the server made our terminal non-blocking while attached
            try:
                os.set_blocking(fd, True)
            except OSError:
                pass
        if self.exec_command is not None:
            command, shell = self.exec_command
            if self.saved_tio is not None:
                _restore_tio(self.saved_tio)
            os.environ["SHELL"] = shell
            sys.stdout.flush()
            os.execl(shell, os.path.basename(shell), "-c", command)
        if self.attached:
            if self.exit_reason:
                sys.stdout.write(f"[{self.exit_reason}]\n")
                sys.stdout.flush()
        elif self.flags & P.CLIENT_CONTROL:
            self._control_exit()
        elif self.exit_reason:
            sys.stderr.write(f"{self.exit_reason}\n")
        return self.exitval


    def _control_exit(self) -> None:
        """A control client's end (client.c): ``%exit`` and the reason, then with wait-exit
        every line up to an empty one (or the end of input), then for -CC the DCS's end and
        the terminal as it was."""
        line = f"%exit {self.exit_reason}\n" if self.exit_reason else "%exit\n"
        _write_all(1, line.encode("utf-8", "surrogateescape"))
        if self.flags & P.CLIENT_CONTROL_WAITEXIT:
            pending = b""
            while True:
                i = pending.find(b"\n")
                if i >= 0:
                    if i == 0:
                        break
                    pending = pending[i + 1:]
                    continue
                try:
                    chunk = os.read(0, 4096)
                except InterruptedError:
                    continue
                except OSError:
                    break
                if not chunk:
                    break
                pending += chunk
        if self.flags & P.CLIENT_CONTROLCONTROL:
            _write_all(1, b"\033\\")
            if self.saved_tio is not None:
                _restore_tio(self.saved_tio)


def _control_tty() -> list | str:
    """-CC: the terminal in raw mode as tmux sets it (CR to NL in, NL to CRNL out); the old
    settings, or the error when stdin is not a terminal."""
    import termios

    try:
        saved = termios.tcgetattr(0)
    except termios.error as e:
        return e.args[1] if len(e.args) > 1 else str(e)
    tio = list(saved)
    tio[0] = termios.ICRNL | termios.IXANY
    tio[1] = termios.OPOST | termios.ONLCR
    tio[2] = termios.CREAD | termios.CS8 | termios.HUPCL
    tio[3] = 0
    cc = list(saved[6])
    cc[termios.VMIN] = 1
    cc[termios.VTIME] = 0
    tio[6] = cc
    try:
        termios.tcsetattr(0, termios.TCSANOW, tio)
    except termios.error:
        pass
    return saved


def _restore_tio(saved: list) -> None:
    import termios

    try:
        termios.tcsetattr(1, termios.TCSAFLUSH, saved)
    except termios.error:
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except BlockingIOError:
            select.select([], [fd], [])
            continue
        except OSError:
            return
        view = view[n:]


def main(argv: list[str], socket_path: str, flags: int, config_files: list[str] | None,
         tmux_files: bool = False, features: int = 0) -> int:
    """Run one client session and return the exit status. ``tmux_files``: a server started
    here reads tmux's configuration files only (hmux runs as ``tmux``)."""
    if not argv:
        flags |= P.CLIENT_STARTSERVER
    try:
        sock = connect(socket_path, flags, config_files, tmux_files, argv)
    except OSError as e:
        if e.errno == errno.ECONNREFUSED:
            sys.stderr.write(f"no server running on {socket_path}\n")
        else:
            sys.stderr.write(f"error connecting to {socket_path} ({os.strerror(e.errno or 0)})\n")
        return 1
    size = sum(len(a.encode("utf-8", "surrogateescape")) + 1 for a in argv)
    if size > P.MAX_PAYLOAD - 4:
        sys.stderr.write("command too long\n")
        return 1
    client = Client(sock, flags)
    if flags & P.CLIENT_CONTROLCONTROL:
        saved = _control_tty()
        if isinstance(saved, str):
            sys.stderr.write(f"tcgetattr failed: {saved}\n")
            sock.close()
            return 1
        client.saved_tio = saved
    try:
        try:
            client.identify(features, then=P.encode(P.MSG_COMMAND, P.pack_command(argv)))
        except (BrokenPipeError, ConnectionResetError):
            # The server may refuse us (access not allowed) and close while we still send:
            # what it sent before closing (its MSG_EXIT) is still there to read.
            client.send = lambda *_a, **_k: None  # type: ignore[method-assign]
        return client.run()
    except (BrokenPipeError, ConnectionResetError):
        sys.stderr.write("server exited unexpectedly\n")
        return 1
    except P.ProtocolError as e:
        sys.stderr.write(f"{e}\n")
        return 1
    finally:
        sock.close()
