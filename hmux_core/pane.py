"""A pane: one PTY, the child process on it, and the emulator fed from it.

The pane owns its file descriptors and its two trio tasks (PTY reader/writer and child waiter),
which run in the server's nursery. Everything else reaches the child only through ``write()``
and ``resize()``, and reads the terminal state through ``screen``.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import trio

from .commands.grammar import stringify_argv
from .events import QUIET
from .screen import new_screen

if TYPE_CHECKING:
    from .model import Window

READ_SIZE = 65536
#: posix_spawn with setsid and file actions (Linux with glibc or musl, macOS): panes start
#: without forking the server; elsewhere Popen forks it.
_POSIX_SPAWN = hasattr(os, "posix_spawn") and hasattr(os, "POSIX_SPAWN_OPEN")
#: Parsing one read should take about this long. A pane whose program prints faster than hmux
#: parses reads less at a time and gives the loop back this often, so keys and other panes
#: wait at most a slice behind it.
SLICE_SECONDS = 0.002
#: How long other panes' parsing waits for the echo of a key (Pane.typed).
ECHO_WAIT = 0.003
#: A read is parsed in (at most) this many pieces, none under PIECE_MIN bytes, so that work
#: waiting behind a flood (a key typed into another pane, its echo) waits for a piece rather
#: than the whole slice. Smaller pieces would cost throughput: the engines parse big runs of
#: text faster than small ones (bench/throughput.py; docs/performance.md).
PIECES = 4
PIECE_MIN = 1024
MIN_READ = 1024
#: A read this long came from a full PTY buffer (Linux hands over at most a page at a time).
_FULL_READ = 4000
_PATH_BSHELL = "/bin/sh"


def _others_ready_probe() -> Callable[[], bool] | None:
    """A check, cheap enough to run between pieces of a parse, of whether another task's file
    descriptor is ready: trio's epoll (or kqueue) descriptor reads as ready when an fd some
    task waits on is. It is only polled, never waited on, so trio's own wait still sees every
    event. None where trio's I/O manager is not reachable (a private attribute): reads are then
    parsed whole."""
    try:
        from trio._core._run import GLOBAL_RUN_CONTEXT

        io = GLOBAL_RUN_CONTEXT.runner.io_manager
        fd = (getattr(io, "_epoll", None) or getattr(io, "_kqueue", None)).fileno()
    except (ImportError, AttributeError, RuntimeError, ValueError, OSError):
        return None
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    poll = poller.poll
    return lambda: bool(poll(0))


#: What a pane's child starts with at their defaults (tmux's proc_clear_signals with defaults:
#: SIGTTIN and SIGTTOU stay ignored, as tmux leaves them), and SIGXFSZ, which Python ignores.
_CHILD_DEFAULT_SIGNALS = tuple(
    getattr(signal, name) for name in (
        "SIGPIPE", "SIGTSTP", "SIGINT", "SIGQUIT", "SIGHUP", "SIGCHLD", "SIGCONT", "SIGTERM",
        "SIGUSR1", "SIGUSR2", "SIGWINCH", "SIGXFSZ") if hasattr(signal, name))


def _set_ctty() -> None:  # runs in the child between fork and exec
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    for sig in _CHILD_DEFAULT_SIGNALS:
        signal.signal(sig, signal.SIG_DFL)


class _Child:
    """A pane's process started by posix_spawn: what the pane's tasks read of a Popen."""

    __slots__ = ("pid", "returncode")

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None


def _inheritable_fds() -> list[int]:
    """Our fds above stdio that an exec would keep (normally none)."""
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return []
    fds = []
    for name in names:
        fd = int(name)
        try:
            if fd > 2 and os.get_inheritable(fd):
                fds.append(fd)
        except OSError:  # the listing's own fd, closed by now
            pass
    return fds


def _spawn_shell(shell: str, argv: list[str], cwd: str, env: dict[str, str],
                 tty: str) -> _Child:
    """Start ``shell`` (an absolute path) on the PTY ``tty`` as a session leader, with the
    PTY as its controlling terminal and ``cwd`` as its directory.

    posix_spawn, not a fork: Popen with a preexec function forks the whole server (40 MB and
    more) and waits for the child's exec, 2-3 ms of every new window or pane, most of a
    new-window's time. The terminal becomes the controlling one by being opened after setsid
    (what TIOCSCTTY does in a forked child); the directory is this process's for the moment
    of the spawn, as tmux's spawn_pane does it (posix_spawn takes no directory here). Our fds
    are close-on-exec (fds a client sends are received so); any that is not, a library's, is
    closed in the child, as Popen's close_fds would. Raises OSError."""
    actions: list[tuple[Any, ...]] = [(os.POSIX_SPAWN_OPEN, 0, tty, os.O_RDWR, 0),
                                      (os.POSIX_SPAWN_DUP2, 0, 1), (os.POSIX_SPAWN_DUP2, 0, 2)]
    actions += [(os.POSIX_SPAWN_CLOSE, fd) for fd in _inheritable_fds()]
    here = os.open(".", os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.chdir(cwd)
        return _Child(os.posix_spawn(shell, argv, env, file_actions=actions, setsid=True,
                                     setsigdef=_CHILD_DEFAULT_SIGNALS, setsigmask=()))
    finally:
        os.fchdir(here)
        os.close(here)


def window_name_from_command(text: str) -> str:
    """tmux's parse_window_name: the program's name from a command line."""
    name = text
    if name.startswith('"'):
        name = name[1:]
    name = name.split('"', 1)[0]
    if name.startswith("exec "):
        name = name[5:]
    name = name.lstrip(" -")
    name = name.split(" ", 1)[0]
    if name:
        end = len(name)
        while end > 1 and not (name[end - 1].isalnum() or _ispunct(name[end - 1])):
            end -= 1
        name = name[:end]
    if name.startswith("/"):
        name = os.path.basename(name.rstrip("/")) or "/"
    from .screen.names import clean_name

    clean = clean_name(name.encode("utf-8", "surrogateescape").decode("latin-1"), False)
    return "" if clean is None else clean


def _ispunct(ch: str) -> bool:
    return 33 <= ord(ch) <= 126 and not ch.isalnum()


#: The largest emulator a pane gets (the PTY's winsize is 16-bit anyway).
MAX_SCREEN = 0xFFFF
#: The line feeds (LF, VT, FF) a screen in MODE_CRLF precedes with a carriage return.
_CRLF = re.compile(rb"[\n\x0b\x0c]")


class Pane:
    """One pane of a window."""

    #: Output batches of every pane in the process: what lets a reader of all the panes'
    #: revisions (``ServerHost.revisions``) see in one compare that none moved.
    outputs = 0
    #: A key just typed into a pane: (that pane, until when, set when its output comes).
    #: Other panes' readers parse nothing meanwhile (see :meth:`typed`).
    echo_wait: tuple[Pane, float, trio.Event] | None = None

    def typed(self) -> None:
        """A client's key was just written to this pane. Until its output (the echo) has been
        read, or ECHO_WAIT has passed, the other panes' readers parse nothing: a pane flooding
        next door would otherwise keep a core busy, and the kernel's own work between the key
        and its echo (the PTY's line discipline runs in a kernel worker) waits behind it."""
        Pane.echo_wait = (self, time.monotonic() + ECHO_WAIT, trio.Event())

    async def _wait_for_echo(self) -> None:
        wait = Pane.echo_wait
        if wait is None or wait[0] is self:
            return
        with trio.move_on_at(trio.current_time() + wait[1] - time.monotonic()):
            await wait[2].wait()
        if Pane.echo_wait is wait:
            Pane.echo_wait = None

    def __init__(self, pane_id: int, window: Window, sx: int, sy: int, history_limit: int,
                 options: Any) -> None:
        self.id = pane_id
        self.window = window
        self.options = options
        self.sx, self.sy = sx, sy
        self.xoff = self.yoff = 0
        # HMUX_ENGINE=ghostty selects the native engine instead of python (read per pane).
        self.screen = new_screen(sx, sy, history_limit, os.environ.get("HMUX_ENGINE"))
        self.fd = -1
        self.pid = -1
        self.tty = ""
        self.argv: list[str] = []
        self.shell = _PATH_BSHELL
        self.cwd = "/"
        self.start_path = ""
        self.created = time.time()
        self.active_point = 0
        self.dead = False
        self.exited = False  # child reaped
        self.eof = False  # PTY closed
        self.focused = False  # PANE_FOCUSED: last told it has focus (Server.update_focus)
        self.dead_status: int | None = None
        self.dead_signal: int | None = None
        self.dead_time: float | None = None
        self.input_off = False
        #: PANE_EMPTY (split-window -E or -I): no process; display-message -I and
        #: split-window -I write to its screen (input_data).
        self.empty = False
        #: MODE_CRLF, which tmux sets on an empty pane's screen: a line feed also returns.
        self.crlf = False
        self.destroyed = False
        self.output_revision = 0
        self.changed = False
        self.last_output_time = 0.0
        self.flags = 0
        self.pipe: Any = None
        #: The mode stack (hmux_core.modes), newest first; the first one is drawn.
        self.modes: list[Any] = []
        self.unseen_changes = False  # output arrived while a mode was shown
        #: Set by the server: called when the pane has exited (EOF and child reaped).
        self.on_exit: Callable[[Pane], None] = lambda p: None
        #: Set by the server: called after each batch of output with the events the screen saw.
        self.on_output: Callable[[Pane, list[tuple[str, object]]], None] = lambda p, ev: None
        #: Set by the server (control.py): each read's bytes, for control clients' %output.
        self.on_data: Callable[[Pane, bytes], None] | None = None
        #: Set by the server (control.py): awaited before each read; once output is waiting it
        #: returns when someone can take it (control clients that are behind, or have turned
        #: it off, hold a pane only they see: what it writes stays in the PTY).
        self.read_hold: Callable[[Pane], Awaitable[None]] | None = None
        #: Set by the server (escapes.hold_replies): the emulator's answers that may go now;
        #: the others wait behind a question asked of a client's terminal.
        self.reply_hold: Callable[[Pane, bytes], bytes] | None = None
        self._read_scope: trio.CancelScope | None = None
        self._stream: trio.lowlevel.FdStream | None = None
        self._out = bytearray()
        self._out_event = trio.Event()
        self._sending = False  # the writer task holds bytes taken from _out
        self._row_gens: list[int] = []
        self._gen = 0
        self._proc: subprocess.Popen | _Child | None = None
        self._cancel = trio.CancelScope()

    @property
    def floating(self) -> bool:
        """window_pane_is_floating: the pane floats above the tiled ones (its window's layout
        knows; while zoomed nothing floats)."""
        lay = self.window.layout
        return lay is not None and lay.is_floating(self)

    # -- process -----------------------------------------------------------------------------------

    def spawn(self, argv: list[str], shell: str, cwd: str, env: dict[str, str],
              tio: Any = None, backspace: int = 0x7F) -> None:
        """Fork the child on a new PTY, as tmux's spawn_pane (login shell, ``sh -c`` or execvp)."""
        self.crlf = False  # a respawned empty pane's screen is reset (it stays PANE_EMPTY)
        master, slave = os.openpty()
        try:
            os.set_inheritable(master, False)
            fcntl.ioctl(slave, termios.TIOCSWINSZ, self._winsize())
            attrs = termios.tcgetattr(slave)
            if tio is not None:
                attrs[6] = list(tio[6])
            attrs[6][termios.VERASE] = b"\x7f" if backspace >= 0x7F else bytes([backspace])
            attrs[0] |= getattr(termios, "IUTF8", 0)
            termios.tcsetattr(slave, termios.TCSANOW, attrs)
            self.tty = os.ttyname(slave)
            if not os.path.isdir(cwd):
                from .model import find_home

                cwd = find_home()
                if not os.path.isdir(cwd):
                    cwd = "/"
            env = dict(env)
            env["PWD"] = cwd
            self.shell = shell
            self.cwd = cwd
            if argv:
                self.argv = list(argv)
            slash = shell.rfind("/")
            base = shell[slash + 1 :] if slash >= 0 and shell[slash + 1 :] else shell
            if len(self.argv) > 1:
                exec_argv, executable = self.argv, None
            elif len(self.argv) == 1:
                exec_argv, executable = [base, "-c", self.argv[0]], shell
            else:
                exec_argv, executable = ["-" + base], shell
            try:
                if executable is not None and _POSIX_SPAWN:
                    self._proc = _spawn_shell(executable, exec_argv, cwd, env, self.tty)
                else:  # execvp's search of the child's PATH: Popen does it as tmux does
                    self._proc = subprocess.Popen(
                        exec_argv,
                        executable=executable,
                        stdin=slave,
                        stdout=slave,
                        stderr=slave,
                        cwd=cwd,
                        env=env,
                        start_new_session=True,
                        preexec_fn=_set_ctty,
                        close_fds=True,
                    )
                self.pid = self._proc.pid
            except OSError:
                # tmux's child would _exit(1) after a failed exec: the pane exits at once.
                self._proc = None
                self.pid = -1
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.fd = master
        self.dead = self.exited = self.eof = False
        self.dead_status = self.dead_signal = self.dead_time = None
        self._stream = trio.lowlevel.FdStream(master)
        if self._proc is None:
            self.exited = True
            self.dead_status = 1

    def start(self, nursery: trio.Nursery) -> None:
        """Start the pane's tasks; they end when the pane is destroyed or its child exits."""
        self._cancel = trio.CancelScope()
        nursery.start_soon(self._run, self._cancel, self._stream, self._proc)

    async def _run(self, scope: trio.CancelScope, stream: trio.lowlevel.FdStream | None,
                   proc: subprocess.Popen | _Child | None) -> None:
        with scope:
            async with trio.open_nursery() as nursery:
                if proc is not None:
                    nursery.start_soon(self._wait_child, proc)
                if stream is not None:
                    nursery.start_soon(self._writer, stream)
                    await self._reader(stream)
                    if self.exited:
                        nursery.cancel_scope.cancel()
        if proc is not None and proc.returncode is None:
            _reap_later(proc)

    async def _reader(self, stream: trio.lowlevel.FdStream) -> None:
        screen = self.screen
        size = 4096
        clock = time.thread_time  # CPU spent parsing, not time the machine gave others
        others_ready = _others_ready_probe()
        rest = b""  # read but not yet parsed: the loop was given back to waiting work
        while True:
            if Pane.echo_wait is not None:
                await self._wait_for_echo()
            if rest:
                await trio.lowlevel.checkpoint()
                data, rest = rest, b""
            else:
                if self.read_hold is not None:
                    await self.read_hold(self)
                data: bytes | None = None
                with trio.CancelScope() as scope:
                    self._read_scope = scope  # interrupt_read: back to the hold before reading
                    try:
                        data = await stream.receive_some(size)
                    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                        data = b""
                self._read_scope = None
                if data is None:
                    continue
                if not data:
                    break
                if len(data) >= _FULL_READ and len(data) < size:
                    data = self._read_more(data, size)
                if self.on_data is not None:
                    self.on_data(self, data)
                if self.pipe is not None:
                    self.pipe.feed(data)  # pipe-pane -O: the output as it arrives
                if "pane-activity" not in QUIET:
                    self._activity()
            wait = Pane.echo_wait
            if wait is not None and wait[0] is self:
                Pane.echo_wait = None
                wait[2].set()
            t0 = clock()
            piece = max(PIECE_MIN, size // PIECES)
            if others_ready is None or len(data) <= piece:
                screen.feed(data)
            else:
                # A batch is parsed a piece at a time; once a key, another pane's output or
                # a client's request is waiting, the rest waits for the next turn instead.
                at, n = 0, len(data)
                while at < n:
                    cut = at + piece
                    if cut < n:  # at a line's end: the engine takes whole lines fastest
                        cut = data.rfind(b"\n", at, cut) + 1 or cut
                    screen.feed(data[at:cut])
                    at = cut
                    if at < n and (others_ready() or (Pane.echo_wait is not None
                                                      and Pane.echo_wait[0] is not self)):
                        rest = data[at:]
                        break
            spent = clock() - t0
            if len(data) == size and not rest and spent > 0:  # flooding: what parses in a slice
                want = int(size * SLICE_SECONDS / spent)
                size = max(MIN_READ, min(READ_SIZE, (size + want) // 2))
            replies = screen.take_replies()
            if replies and self.reply_hold is not None:
                replies = self.reply_hold(self, replies)  # behind questions to a terminal
            if replies:
                self.write(replies)
            self.output_revision += 1
            Pane.outputs += 1
            self.changed = True
            if self.modes:  # PANE_UNSEENCHANGES: output a mode hides (#{pane_unseen_changes})
                self.unseen_changes = True
            self.last_output_time = time.time()
            self.on_output(self, screen.take_events())
        self.eof = True
        if self.exited:
            self._finish()

    def _read_more(self, data: bytes, size: int) -> bytes:
        """A PTY gives at most a page per read: while a flood keeps it full, take what else
        is there now (up to ``size``) without another turn of the event loop, so the
        parse, the output events and a control client's %output go once per batch rather
        than once per page. Stops at the first read that would wait (or fails: the next
        receive_some sees the end)."""
        parts = [data]
        n = len(data)
        fd = self.fd
        while n < size:
            try:
                more = os.read(fd, size - n)
            except OSError:  # EAGAIN (nothing more yet), EIO (the child is gone)
                break
            if not more:
                break
            parts.append(more)
            n += len(more)
            if len(more) < _FULL_READ:
                break  # (drained)
        return b"".join(parts) if len(parts) > 1 else data

    def _activity(self) -> None:
        """The development tree's pane-activity: output arrived (raised before it is parsed,
        once per read, as tmux raises it once per pass of its loop)."""
        w = self.window
        if w is not None and w.notify is not None:
            w.notify("pane-activity", {"pane": self, "window": w})

    def make_empty(self, shell: str, argv: list[str], cwd: str) -> None:
        """spawn_pane with SPAWN_EMPTY: no child and no PTY (pid 0, no tty), the cursor
        hidden and line feeds returning (MODE_CRLF); what display-message -I reads is
        written to it."""
        self.empty = True
        self.crlf = True
        self.shell = shell
        self.argv = list(argv)
        self.cwd = cwd
        self.pid = 0
        self.screen.feed(b"\x1b[?25l")  # (through the stream: every engine takes it)

    def input_data(self, data: bytes) -> None:
        """input_parse_buffer: bytes for an empty pane's screen, parsed as if the pane had
        written them (not a control client's %output, not pipe-pane's)."""
        if not data or self.destroyed:
            return
        if self.crlf:
            data = _CRLF.sub(rb"\r\g<0>", data)
        if "pane-activity" not in QUIET:
            self._activity()
        self.screen.feed(data)
        self.screen.take_replies()  # nothing reads answers: there is no program
        self.output_revision += 1
        Pane.outputs += 1
        self.changed = True
        if self.modes:
            self.unseen_changes = True
        self.last_output_time = time.time()
        self.on_output(self, self.screen.take_events())

    def interrupt_read(self) -> None:
        """A read waiting for output goes back to ``read_hold`` first (a control client
        turned the pane's output off: what comes next must stay in the PTY)."""
        if self._read_scope is not None:
            self._read_scope.cancel()

    async def _wait_child(self, proc: subprocess.Popen | _Child) -> None:
        try:
            pidfd = os.pidfd_open(proc.pid)
        except OSError:
            pidfd = -1
        try:
            while True:
                if pidfd >= 0:
                    await trio.lowlevel.wait_readable(pidfd)
                else:
                    await trio.sleep(0.05)
                try:
                    pid, status = os.waitpid(proc.pid, os.WNOHANG)
                except ChildProcessError:
                    pid, status = proc.pid, 0
                if pid:
                    break
        finally:
            if pidfd >= 0:
                os.close(pidfd)
        proc.returncode = os.waitstatus_to_exitcode(status) if status else 0
        if os.WIFSIGNALED(status):
            self.dead_signal = os.WTERMSIG(status)
            self.dead_status = None
        else:
            self.dead_status = os.WEXITSTATUS(status)
        self.exited = True
        if self.eof:
            self._finish()
        else:
            # The child is gone; give the reader a moment to drain what is buffered in the PTY.
            with trio.move_on_after(0.5):
                while not self.eof:
                    await trio.sleep(0.01)
            if not self.eof:
                self.eof = True
                self._finish()

    def _finish(self) -> None:
        if self.dead or self.destroyed:
            return
        self.dead = True
        self.dead_time = time.time()
        self._close_fd()
        self.on_exit(self)

    async def _writer(self, stream: trio.lowlevel.FdStream) -> None:
        while True:
            if not self._out:
                self._out_event = trio.Event()
                await self._out_event.wait()
                continue
            data = bytes(self._out)
            self._out.clear()
            self._sending = True
            try:
                await stream.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                return
            finally:
                self._sending = False

    def write(self, data: bytes) -> None:
        """Bytes for the child's input (keys, paste, replies): written at once when nothing is
        waiting (a typed key reaches the child without a task switch), else queued behind."""
        if self.fd < 0 or self.dead or not data:
            return
        if not self._out and not self._sending:
            try:
                data = data[os.write(self.fd, data):]
            except BlockingIOError:
                pass
            except OSError:
                return  # the PTY is gone; the reader sees its end
            if not data:
                return
        self._out += data
        self._out_event.set()

    def damage(self) -> list[int]:
        """A number per visible row that changes whenever the row does. The engine's
        ``take_dirty`` can be read only once; every attached client's renderer reads these."""
        screen = self.screen
        dirty = screen.take_dirty()
        gens = self._row_gens
        if len(gens) != screen.rows:
            self._gen += 1
            gens = self._row_gens = [self._gen] * screen.rows
        elif dirty:
            self._gen += 1
            g = self._gen
            n = len(gens)
            for y in dirty:
                if 0 <= y < n:
                    gens[y] = g
        return gens

    def scrollbar_columns(self) -> tuple[int, int, bool] | None:
        """What the layout takes from this pane's cell for its scrollbar (scrollbars.py)."""
        from . import scrollbars

        return scrollbars.columns(self)

    def scrollbar_minimum(self) -> int:
        """The columns beyond PANE_MINIMUM the layout keeps for a scrollbar (scrollbars.py)."""
        from . import scrollbars

        return scrollbars.minimum(self)

    def resize(self, sx: int, sy: int) -> None:
        """The layout's size is kept as tmux computes it, wrapped unsigned arithmetic included
        (a tiled layout in a too narrow window gives panes ~2**31 columns); the emulator is
        capped at a 16-bit terminal size, and the PTY gets what tmux's u_short winsize gets."""
        if sx == self.sx and sy == self.sy:
            return
        osx, osy = self.sx, self.sy
        self.sx, self.sy = sx, sy
        cx, cy = min(sx, MAX_SCREEN), min(sy, MAX_SCREEN)
        self.screen.resize(cx, cy)
        if self.modes:
            self.modes[0].resize(cx, cy)
        if self.fd >= 0:
            try:
                fcntl.ioctl(self.fd, termios.TIOCSWINSZ, self._winsize())
            except OSError:
                pass
        w = self.window
        if "pane-resized" not in QUIET and w is not None and w.notify is not None:
            w.notify("pane-resized", {"pane": self, "window": w, "width": sx, "height": sy,
                                      "old_width": osx, "old_height": osy})

    def _winsize(self) -> bytes:
        """TIOCSWINSZ's struct: the pane's size, and in pixels the window's cell size times
        it (programs that draw images read it); the screen answers CSI 14/16 t from it too."""
        w = self.window
        xp, yp = (w.xpixel, w.ypixel) if w is not None else (16, 32)
        self.screen.cell_pixels = (xp, yp)
        sx, sy = self.sx & 0xFFFF, self.sy & 0xFFFF
        return struct.pack("HHHH", sy, sx, (xp * sx) & 0xFFFF, (yp * sy) & 0xFFFF)

    # -- introspection (formats, plugins) ------------------------------------------------------

    def foreground_pgrp(self) -> int:
        if self.fd < 0:
            return -1
        try:
            return os.tcgetpgrp(self.fd)
        except OSError:
            return -1

    def current_command(self) -> str:
        """pane_current_command: the foreground process's argv[0], as tmux reads it."""
        cmd = ""
        pgrp = self.foreground_pgrp()
        if pgrp > 0:
            try:
                with open(f"/proc/{pgrp}/cmdline", "rb") as f:
                    cmd = f.read().split(b"\0", 1)[0].decode("utf-8", "replace")
            except OSError:
                cmd = ""
        if not cmd:
            cmd = stringify_argv(self.argv) if self.argv else ""
            if not cmd:
                cmd = self.shell
        return window_name_from_command(cmd)

    def current_path(self) -> str | None:
        pgrp = self.foreground_pgrp()
        if pgrp <= 0:
            return None
        try:
            return os.readlink(f"/proc/{pgrp}/cwd")
        except OSError:
            pass
        try:
            sid = os.getsid(self.pid) if self.pid > 0 else -1
            if sid > 0:
                return os.readlink(f"/proc/{sid}/cwd")
        except OSError:
            pass
        return None

    def start_command(self) -> str:
        return stringify_argv(self.argv) if self.argv else ""

    # -- teardown --------------------------------------------------------------------------------

    def _close_fd(self) -> None:
        if self._stream is not None:
            stream, self._stream = self._stream, None
            try:
                stream.close()
            except OSError:
                pass
        self.fd = -1

    def kill(self) -> None:
        """Hang up the child (closing the PTY master does that, as in tmux)."""
        self._close_fd()
        if self._proc is not None and self._proc.returncode is None and self.pid > 0:
            try:
                os.killpg(self.pid, signal.SIGHUP)
            except OSError:
                pass

    def stop(self) -> None:
        """End the child and the pane's tasks but keep the pane, for respawn-pane -k.  The
        tasks are cancelled before the PTY closes so that none of them reports an exit."""
        self._cancel.cancel()
        self.kill()

    def destroy(self) -> None:
        if self.destroyed:
            return
        self.destroyed = True
        for mode in self.modes:
            mode.free()
        self.modes.clear()
        if self.pipe is not None:
            self.pipe.close()
        self.kill()
        self._cancel.cancel()


_zombies: list[subprocess.Popen | _Child] = []


def _reap_later(proc: subprocess.Popen | _Child) -> None:
    """Children of destroyed panes are reaped by the server's periodic sweep."""
    _zombies.append(proc)


def reap_zombies() -> None:
    for proc in list(_zombies):
        try:
            pid, status = os.waitpid(proc.pid, os.WNOHANG)
        except ChildProcessError:
            pid, status = proc.pid, 0
        except OSError as e:
            if e.errno != errno.EINTR:
                pid, status = proc.pid, 0
            else:
                continue
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status) if status else 0
            _zombies.remove(proc)
