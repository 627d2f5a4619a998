"""The hmux server: one trio program owning the socket, the clients and the panes.

Structure (one nursery, owned by ``Server.run``): the accept loop, one task per client
connection, two tasks per pane (in ``pane.py``), the configuration loader and a housekeeping
timer. Nothing blocks the loop: PTYs and sockets are non-blocking, children are waited for with
pidfds, and a command that must wait (``run-shell``) is a coroutine awaited by its client's queue
only.
"""

from __future__ import annotations

import array
import ctypes
import errno
import logging
import os
import signal
import socket
import stat
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

import trio

from . import escapes, themes
from . import protocol as P
from . import target as T
from .acl import Acl
from .commands.grammar import CommandError
from .commands.queue import QueueState, items_from, parse_argv_list, parse_text, run_items
from .events import QUIET
from .hooks import LIFECYCLE_EVENTS
from .model import Environ, Model, Session
from .options import check_shell, new_global_options

log = logging.getLogger("hmux.server")
#: Received fds close on exec (Linux): nothing of a client's reaches a child we start.
_CMSG_CLOEXEC = getattr(socket, "MSG_CMSG_CLOEXEC", 0)

#: hmux's own configuration files, read in this order when ``-f`` is not given.
HMUX_CONFIG_FILES = (
    "/etc/hmux.conf",
    "~/.hmux.conf",
    "$XDG_CONFIG_HOME/hmux/hmux.conf",
    "~/.config/hmux/hmux.conf",
)
#: tmux 3.7b's (TMUX_CONF): read when none of hmux's exists, and only these when hmux runs as
#: ``tmux``, so a user's existing tmux configuration applies without a step.
TMUX_CONFIG_FILES = (
    "/etc/tmux.conf",
    "~/.tmux.conf",
    "$XDG_CONFIG_HOME/tmux/tmux.conf",
    "~/.config/tmux/tmux.conf",
)


def expand_config_paths(templates: tuple[str, ...]) -> list[str]:
    """tmux's expand_paths: ``~`` and ``$VAR`` expanded, a path naming an unset variable
    dropped, duplicates removed."""
    out: list[str] = []
    for t in templates:
        if t.startswith("$"):
            name, _, rest = t[1:].partition("/")
            value = os.environ.get(name)
            if not value:
                continue
            path = os.path.join(value, rest)
        else:
            path = os.path.expanduser(t)
        if path not in out:
            out.append(path)
    return out


def default_config_files(tmux_only: bool) -> list[str]:
    """hmux's files, or tmux's when none of hmux's exists (always tmux's for the shim)."""
    if not tmux_only:
        ours = expand_config_paths(HMUX_CONFIG_FILES)
        if any(os.path.exists(p) for p in ours):
            return ours
    return expand_config_paths(TMUX_CONFIG_FILES)
MESSAGE_LIMIT = 1000
#: ClientConn.read_file's error when its reader stopped the read (not an errno).
READ_CANCELLED = -1


def set_process_name(name: str) -> None:
    """``ps -o comm=`` shows ``hmux`` rather than ``python3`` (prctl PR_SET_NAME)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(15, name.encode(), 0, 0, 0)
    except (OSError, AttributeError):
        pass


class _Stream:
    __slots__ = ("opened", "ready", "error", "buf", "closed", "done")

    def __init__(self) -> None:
        self.opened = False
        self.ready = False
        self.error = 0
        self.buf = bytearray()
        self.closed = False
        self.done: trio.Event | None = None  # a file stream (>= 3): set once closed or failed


class ClientConn:
    """A connected client: identify data, its command queue, its output streams."""

    is_config = False

    def __init__(self, server: Server, sock: trio.socket.SocketType, uid: int) -> None:
        self.server = server
        self.sock = sock
        self.uid = uid
        self.decoder = P.Decoder()
        self.flags = 0
        self.term = "unknown"
        self.ttyname = ""
        self.cwd = ""
        self.environ = Environ()
        self.pid = -1
        self.features = 0
        self.terminfo: list[str] = []
        self.fd = -1  # the client's terminal (stdin), kept only when it is a tty
        self.attached: Any = None  # hmux_core.attached.Attached while its terminal is ours
        self.message_text: str | None = None  # a display-message shown on its status line
        self.prompt: Any = None  # hmux_core.prompt.Prompt on its status line
        self.overlay: Any = None  # hmux_core.overlays.Overlay over its panes
        self.message_token: object = None
        self.out_fd = -1
        self.identified = False
        self.lifecycle = False  # a control or terminal client: client-closed when it goes
        self.identify_done = trio.Event()
        self.session: Session | None = None
        self.last_session: Session | None = None
        self.created = time.time()
        self.activity_time = time.time()
        self.key_table = "root"
        self.retval = 0
        self.exit_message: str | None = None
        self.exiting = False
        self.exited = False
        self.readonly = False
        self.focused = True  # CLIENT_FOCUSED: set at creation and attach, cleared by FocusOut
        self.theme: str | None = None  # what its terminal reported: "dark", "light" (mode 2031)
        #: its ten theme colours as last worked out (themes.update_client); None: not yet
        self.theme_colours: tuple[int, ...] | None = None
        self.tty_fg = self.tty_bg = -1  # its terminal's colours (OSC 10/11 answers)
        self.input_requests: list[Any] = []  # pane questions its terminal is asked (escapes)
        self.written = 0
        self.discarded = 0
        self.sx, self.sy = 80, 24
        self.jobs: Any = None  # this client's #() jobs (tmux keeps them per client)
        self.control_state: Any = None  # hmux_core.control.ControlState of a -C/-CC client
        self.client_keys: Any = None  # hmux_core.client_keys.ClientKeys (send-keys -K to it)
        self.exit_frame: bytes | None = None  # sent instead of MSG_EXIT (a detached control client)
        self._out: deque[bytes] = deque()
        self._streams: dict[int, _Stream] = {}
        self._reads: dict[int, tuple[bytearray, trio.Event, list[int]]] = {}
        self._read_sinks: dict[int, Callable[[bytes], None]] = {}
        self._next_stream = 3
        self._wake = trio.Event()
        self._queue: deque[list[Any]] = deque()
        self._queue_wake = trio.Event()

    @property
    def name(self) -> str:
        if self.ttyname:
            return self.ttyname
        return f"client-{self.pid}"

    @property
    def utf8(self) -> bool:
        return bool(self.flags & P.CLIENT_UTF8)

    @property
    def control(self) -> bool:
        return bool(self.flags & P.CLIENT_CONTROL)

    # -- sending ---------------------------------------------------------------------------------

    def send(self, msg_type: int, data: bytes = b"") -> None:
        if self.exited:
            return
        self._out.append(P.encode(msg_type, data))
        self._wake.set()

    def _stream(self, number: int) -> _Stream:
        st = self._streams.get(number)
        if st is None:
            st = self._streams[number] = _Stream()
        if not st.opened:
            st.opened = True
            fd = number if number in (1, 2) else -1
            self.send(P.MSG_WRITE_OPEN, P.pack_write_open(number, fd, 0))
        return st

    def control_write(self, line: str) -> None:
        """A notification line to a control client (held until an open reply block ends)."""
        if self.control_state is not None:
            self.control_state.notify_line(line)

    def write_stream(self, number: int, data: bytes) -> None:
        if self.control_state is not None and number in (1, 2):
            self.control_state.write_output(data)  # a control client's replies are lines
            return
        st = self._stream(number)
        st.buf += data
        self._wake.set()

    def print_line(self, text: str) -> None:
        if not self.utf8:
            text = _utf8_sanitize(text)
        self.write_stream(1, text.encode("utf-8", "surrogateescape") + b"\n")

    def error_line(self, text: str) -> None:
        if not self.utf8:
            text = _utf8_sanitize(text)
        self.write_stream(2, text.encode("utf-8", "surrogateescape") + b"\n")

    def _pending_output(self) -> bool:
        if self.control_state is not None and self.control_state.exit_pending():
            return True
        return any(st.buf and not st.error for st in self._streams.values())

    async def _sender(self) -> None:
        """Send what is queued, each pass's frames in one write: a command's output and its
        MSG_EXIT reach the client in one read (one wake-up of it, not one per frame)."""
        sock = self.sock
        while True:
            batch: list[bytes] = []
            while self._out:
                batch.append(self._out.popleft())
            for number, st in list(self._streams.items()):
                if st.ready and st.buf:
                    if st.error:
                        st.buf.clear()
                        continue
                    chunk = bytes(st.buf[: P.MAX_STREAM_DATA])
                    del st.buf[: len(chunk)]
                    self.written += len(chunk)
                    batch.append(P.encode(P.MSG_WRITE, P.pack_stream(number, chunk)))
                if st.done is not None and st.ready and not st.buf and not st.closed:
                    st.closed = True  # file_push: a file stream closes once it is written
                    if not st.error:
                        batch.append(P.encode(P.MSG_WRITE_CLOSE, P.pack_stream(number)))
                    st.done.set()
            if self.exiting and not self.exited and not self._pending_output() and not self._out:
                self._send_exit()
                batch += self._out
                self._out.clear()
            if batch:
                await _sendall(sock, b"".join(batch) if len(batch) > 1 else batch[0])
                continue
            self._wake = trio.Event()
            if self._out or any(st.ready and st.buf for st in self._streams.values()):
                continue
            if self.exiting and not self.exited and not self._pending_output():
                continue
            await self._wake.wait()

    def _send_exit(self) -> None:
        if self.exit_frame is not None:
            self._out.append(self.exit_frame)
            self.exited = True
            self._wake.set()
            return
        data = P.pack_int(self.retval)
        if self.exit_message is not None:
            data += P.pack_string(self.exit_message)
        self._out.append(P.encode(P.MSG_EXIT, data))
        self.exited = True
        self._wake.set()

    def request_exit(self, retval: int | None = None, message: str | None = None) -> None:
        if retval is not None:
            self.retval = retval
        if message is not None:
            self.exit_message = message
        self.exiting = True
        self._wake.set()

    async def write_file(self, path: str, data: bytes, flags: int) -> int:
        """Have the client write a file (or its stdout for "-"): tmux's WRITE_OPEN exchange.
        Returns the errno the client reported (0 when written)."""
        number = self._next_stream
        self._next_stream += 1
        st = self._streams[number] = _Stream()
        st.opened = True
        st.done = trio.Event()
        st.buf += data
        fd = 1 if path == "-" else -1
        self.send(P.MSG_WRITE_OPEN, P.pack_write_open(number, fd, flags, path))
        await st.done.wait()
        del self._streams[number]
        return st.error

    # -- reading ---------------------------------------------------------------------------------

    async def read_file(self, path: str, on_data: Callable[[bytes], bool | None] | None = None
                        ) -> tuple[bytes, int]:
        """Ask the client to read a file (or its stdin for "-"): tmux's READ_OPEN exchange.
        With ``on_data`` each chunk goes there as it comes (display-message -I) and the bytes
        returned are empty; ``on_data`` returning False stops the read (file_cancel: the
        client is told, MSG_READ_CANCEL) and the error returned is READ_CANCELLED."""
        number = self._next_stream
        self._next_stream += 1
        buf, done, err = bytearray(), trio.Event(), [0]
        self._reads[number] = (buf, done, err)
        if on_data is not None:
            self._read_sinks[number] = on_data
        fd = 0 if path == "-" else -1
        self.send(P.MSG_READ_OPEN, P.pack_read_open(number, fd, "" if path == "-" else path))
        try:
            await done.wait()
        finally:
            del self._reads[number]
            self._read_sinks.pop(number, None)
        return bytes(buf), err[0]

    # -- main loop -------------------------------------------------------------------------------

    async def run(self) -> None:
        server = self.server
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._sender)
                nursery.start_soon(self._command_loop)
                await self._receiver()
                nursery.cancel_scope.cancel()
        except* (OSError, trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # the peer went (reset, broken pipe), maybe in both tasks at once: a group
        finally:
            server.remove_client(self)
            self.decoder.close_fds()
            for fd in (self.fd, self.out_fd):
                if fd >= 0:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            self.fd = self.out_fd = -1
            try:
                self.sock.close()
            except OSError:
                pass

    async def _receiver(self) -> None:
        sock = self.sock
        identify_deadline = trio.current_time() + 5.0
        while True:
            fds = array.array("i")
            with trio.move_on_at(identify_deadline) if not self.identified else nullcontext():
                # Close-on-exec: a client's stdin and stdout must not reach a pane's child.
                data, anc, _flags, _addr = await sock.recvmsg(65536, socket.CMSG_SPACE(4 * 8),
                                                              _CMSG_CLOEXEC)
                for level, ctype, cdata in anc:
                    if level == socket.SOL_SOCKET and ctype == socket.SCM_RIGHTS:
                        fds.frombytes(cdata[: len(cdata) - len(cdata) % fds.itemsize])
                if not data:
                    for fd in fds:
                        os.close(fd)
                    return
                self.decoder.feed(data, list(fds))
                try:
                    messages = self.decoder.messages()
                except P.ProtocolError as e:
                    log.warning("client %s: %s", self.name, e)
                    return
                for i, msg in enumerate(messages):
                    if msg.peerid & 0xFF != P.PROTOCOL_VERSION:
                        _close_message_fds(messages[i:])
                        await _sendall(sock, P.encode(P.MSG_VERSION))
                        return
                    if not self.dispatch(msg):
                        _close_message_fds(messages[i + 1:])
                        return
                continue
            if not self.identified:
                log.warning("client never finished identifying; dropped")
                return

    def dispatch(self, msg: P.Message) -> bool:
        """Handle one message; False drops the connection."""
        t, data = msg.type, msg.data
        try:
            if P.MSG_IDENTIFY_FLAGS <= t <= P.MSG_IDENTIFY_TERMINFO:
                return self._identify(msg)
            _close_message_fds([msg])
            if t == P.MSG_COMMAND:
                if not self.identified:
                    return False
                if self.exiting:
                    return True
                argv = P.unpack_command(data)
                self._queue.append(argv)
                self._queue_wake.set()
            elif t == P.MSG_RESIZE:
                self.server.client_resized(self)
            elif t == P.MSG_EXITING:
                # An attached client answers MSG_EXIT with EXITING and waits for EXITED.
                self._out.append(P.encode(P.MSG_EXITED))
                self._wake.set()
                self.server.detach_client(self, quiet=True)
            elif t == P.MSG_WRITE_READY:
                number, error = P.unpack_stream_error(data)
                st = self._streams.get(number)
                if st is not None:
                    st.ready = True
                    st.error = error
                    if error and st.done is not None:
                        st.closed = True
                        st.done.set()
                    self._wake.set()
            elif t == P.MSG_READ:
                number, chunk = P.unpack_stream(data)
                entry = self._reads.get(number)
                sink = self._read_sinks.get(number)
                if sink is not None:
                    if sink(chunk) is False and entry is not None:
                        del self._read_sinks[number]
                        self.send(P.MSG_READ_CANCEL, P.pack_stream(number))
                        entry[2][0] = READ_CANCELLED
                        entry[1].set()
                elif entry is not None:
                    entry[0].extend(chunk)
            elif t == P.MSG_READ_DONE:
                number, error = P.unpack_stream_error(data)
                entry = self._reads.get(number)
                if entry is not None:
                    entry[2][0] = error
                    entry[1].set()
            elif t == P.MSG_SHELL:
                shell = self.server.default_shell()
                self.send(P.MSG_SHELL, P.pack_string(shell))
            elif t in (P.MSG_WAKEUP, P.MSG_UNLOCK):
                self.server.client_woke(self)
        except P.ProtocolError as e:
            log.warning("client %s: %s", self.name, e)
            if msg.fd is not None and msg.fd not in (self.fd, self.out_fd):
                _close_message_fds([msg])
            return False
        return True

    def _identify(self, msg: P.Message) -> bool:
        t, data = msg.type, msg.data
        if self.identified:
            _close_message_fds([msg])
            return False
        if t == P.MSG_IDENTIFY_FLAGS:
            self.flags |= P.unpack_int(data) & 0xFFFFFFFF
        elif t == P.MSG_IDENTIFY_LONGFLAGS:
            self.flags |= P.unpack_u64(data)
        elif t == P.MSG_IDENTIFY_TERM:
            self.term = P.unpack_string(data) or "unknown"
        elif t == P.MSG_IDENTIFY_FEATURES:
            self.features = P.unpack_int(data)
        elif t == P.MSG_IDENTIFY_TTYNAME:
            self.ttyname = P.unpack_string(data)
        elif t == P.MSG_IDENTIFY_CWD:
            self.cwd = P.unpack_string(data)
        elif t == P.MSG_IDENTIFY_TERMINFO:
            self.terminfo.append(P.unpack_string(data))
        elif t == P.MSG_IDENTIFY_STDIN:
            if msg.fd is None:
                return False
            if self.fd >= 0:  # sent twice: keep the last, as tmux, without leaking the first
                os.close(self.fd)
            self.fd = msg.fd
        elif t == P.MSG_IDENTIFY_STDOUT:
            if msg.fd is None:
                return False
            if self.out_fd >= 0:
                os.close(self.out_fd)
            self.out_fd = msg.fd
        elif t == P.MSG_IDENTIFY_CLIENTPID:
            self.pid = P.unpack_int(data)
        elif t == P.MSG_IDENTIFY_ENVIRON:
            text = P.unpack_string(data)
            if "=" in text:
                k, v = text.split("=", 1)
                self.environ.set(k, v)
        elif t == P.MSG_IDENTIFY_DONE:
            self.identified = True
            self.identify_done.set()
            if not self.cwd or not os.path.isabs(self.cwd):
                self.cwd = self.environ.get("HOME") or "/"
            if self.control:
                from . import control

                control.start(self)  # the server reads its stdin and writes its stdout
            else:
                if self.fd >= 0 and not os.isatty(self.fd):
                    os.close(self.fd)
                    self.fd = -1
                if self.out_fd >= 0:
                    os.close(self.out_fd)
                    self.out_fd = -1
            if self.control or self.fd >= 0:  # CLIENT_CONTROL or CLIENT_TERMINAL
                self.lifecycle = True
                self.server.client_event("client-created", self)
        if t not in (P.MSG_IDENTIFY_STDIN, P.MSG_IDENTIFY_STDOUT):
            _close_message_fds([msg])
        return True

    async def _command_loop(self) -> None:
        # Only the client that started the server waits for the configuration (tmux's
        # cfg_client): a job the config runs may call the server back, and that client's
        # commands must run while the config's queue waits for the job.
        if self is self.server.cfg_client:
            await self.server.config_loaded.wait()
        while True:
            while not self._queue:
                self._queue_wake = trio.Event()
                await self._queue_wake.wait()
            argv = self._queue.popleft()
            await self.server.run_client_command(self, argv)


def _close_message_fds(messages: list[P.Message]) -> None:
    """fds that came with frames the server will not act on (the peer is being dropped)."""
    for m in messages:
        if m.fd is not None:
            try:
                os.close(m.fd)
            except OSError:
                pass
            m.fd = None


async def _sendall(sock: trio.socket.SocketType, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = await sock.send(view)
        view = view[n:]


def _utf8_sanitize(text: str) -> str:
    """tmux's utf8_sanitize for non-UTF-8 clients: every non-ASCII character becomes ``_``."""
    if text.isascii():
        return text
    import unicodedata

    out = []
    for ch in text:
        if ord(ch) < 0x80:
            out.append(ch)
        else:
            w = 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
            out.append("_" * w)
    return "".join(out)


class Server:
    """The whole server state and its event loop."""

    def __init__(self, socket_path: str, flags: int, config_files: list[str] | None,
                 quiet_config: bool, tmux_config: bool = False) -> None:
        self.socket_path = socket_path
        self.tmux_config = tmux_config  # started as `tmux`: tmux's configuration files only
        self.flags = flags
        self.config_files = config_files
        self.quiet_config = quiet_config
        self.pid = os.getpid()
        self.start_time = time.time()
        self.options, self.session_options, self.window_options = new_global_options()
        env = Environ({k: v for k, v in os.environ.items()})
        try:
            env.set("PWD", os.getcwd())
        except OSError:
            pass
        env.unset("TMUX")
        env.unset("TMUX_PANE")
        self.environ = env
        self.model = Model(self.options, self.session_options, self.window_options, env)
        self.model.clients = []  # type: ignore[attr-defined]
        self.model.notify = self.notify
        self.clients: list[ClientConn] = self.model.clients  # type: ignore[attr-defined]
        self.acl = Acl()
        self.messages: deque[tuple[float, int, str]] = deque(maxlen=MESSAGE_LIMIT)
        self.message_number = 0
        self.cfg_causes: list[str] = []
        self.cfg_files_loaded: list[str] = []
        self.command_number = 0
        self.config_loaded = trio.Event()
        self.cfg_client: ClientConn | None = None  # the client that started us waits for the config
        self.exit_requested = False
        self.exit_deadline = 0.0
        self.nursery: trio.Nursery | None = None
        self.listen_sock: trio.socket.SocketType | None = None
        from .buffers import Buffers

        self.buffers = Buffers(lambda: self.options.get_number("buffer-limit"))
        self.buffers.on_change = lambda name, deleted: self.notify(
            "paste-buffer-deleted" if deleted else "paste-buffer-changed", {"name": name})
        from .jobs import FormatJobs

        self.jobs = FormatJobs(self)
        from .hooks import Hooks

        self.hooks = Hooks(self)
        self.plugins: Any = None
        #: Plugins are selected but not loaded yet (prepare_plugins, ensure_plugins).
        self.plugins_pending = False
        self._plugins_untouched: dict[int, dict[str, Any]] | None = None
        self._plugin_entry_points: list[Any] | None = None  # what the prefetch found
        self._first_answered = trio.Event()  # a first client was answered: it left or stayed
        self.plugins_loaded = trio.Event()  # ensure_plugins has run (with or without success)
        self.key_bindings: Any = None  # key tables (keybindings.py)
        self.subscribers: list[Any] = []
        self._loop_wake = trio.Event()
        self.on_listening: Any = lambda: None

    # -- logging and messages --------------------------------------------------------------------

    def log_exception(self, what: str) -> None:
        log.error("%s\n%s", what, traceback.format_exc())

    def add_message(self, text: str) -> None:
        self.message_number += 1
        self.messages.append((time.time(), self.message_number, text))

    def add_cfg_cause(self, text: str) -> None:
        self.cfg_causes.append(text)

    def show_cfg_causes(self, s: Session | None = None) -> None:
        """cfg_show_causes: configuration errors go to the first client when it is a control
        client (``%config-error``), else into view mode in the active pane of ``s`` (or the
        first client's session, or the first session) once that session is attached; until
        then they wait."""
        if not self.cfg_causes:
            return
        first = self.clients[0] if self.clients else None
        if first is not None and first.control:
            for cause in self.cfg_causes:
                first.control_write(f"%config-error {cause}")
            self.cfg_causes = []
            return
        if s is None:
            if first is not None and first.session is not None:
                s = first.session
            else:
                sessions = self.model.sorted_sessions()
                s = sessions[0] if sessions else None
        if s is None or not s.attached or s.curw is None:
            return
        wp = s.curw.window.active
        if wp is None:
            return
        from .modes.copy import view_mode

        mode = view_mode(self, wp)
        for cause in self.cfg_causes:
            mode.add(cause)
        self.cfg_causes = []

    def notify(self, name: str, data: dict[str, Any]) -> None:
        if name in LIFECYCLE_EVENTS and (name in QUIET or not self.hooks.wanted(name)):
            return  # the development tree's event, and nothing listens: as 3.7b, nothing
        if name == "session-window-changed" and data.get("session") is not None:
            self.resize_session_windows(data["session"])  # a window waiting for its size
            if self.options.get("focus-events"):  # session_set_current
                self.update_focus(wl.window for wl in data["session"].windows.values())
        elif name == "window-pane-changed" and self.options.get("focus-events"):
            self.update_focus([data["window"]])  # window_set_active_pane
        for sub in list(self.subscribers):
            try:
                sub(name, data)
            except Exception:
                self.log_exception(f"event subscriber failed on {name}")
        self.hooks.notify(name, data)
        self.redraw_clients()
        self._loop_wake.set()

    def client_event(self, name: str, c: ClientConn) -> None:
        """events_fire_client for the development tree's client-created and client-closed:
        the client and what cmd_find_from_client finds for it."""
        if name in QUIET:
            return
        data: dict[str, Any] = {"client": c}
        st = T.from_client(self.model, c, 0)
        if st is not None:
            if st.s is not None:
                data["session"] = st.s
            if st.w is not None:
                data["window"] = st.w
            if st.wl is not None:
                data["window_index"] = st.wl.idx
            elif st.idx != -1:
                data["window_index"] = st.idx
            if st.wp is not None:
                data["pane"] = st.wp
        self.notify(name, data)

    def run_hook(self, name: str, item: Any) -> None:
        """Queue hook ``name`` (``after-<command>``) to run right after ``item``."""
        self.hooks.after_hook(name, item)

    def fire_named_hook(self, name: str, pane: Any | None, values: dict[str, str]) -> None:
        """Run the global hook ``name`` for an event tmux does not have (plugins raise them),
        with ``#{hook_pane}`` and each value as ``#{hook_<key>}``."""
        self.hooks.fire_named(name, pane, values)

    # -- clients ---------------------------------------------------------------------------------

    def find_client(self, name: str | None, item: Any) -> ClientConn | None:
        if name is None:
            c = item.client if item is not None else None
            if c is not None and c.session is not None:
                return c
            wp = T.inside_pane(self.model, c) if c is not None else None
            if wp is not None:
                f = T.Finder(self.model, None, T.QUIET)
                f.fs.w = wp.window
                s = f.fs.s if f.best_session_with_window() else None
            else:
                s = T.best_session(self.model)
            return self.best_client(s) if s is not None else None
        return T.find_client_by_name(self.clients, name)

    def remove_client(self, c: ClientConn) -> None:
        self._first_answered.set()  # a client has gone: plugins may load (ensure_plugins)
        self.release_terminal(c)
        if c.control_state is not None:
            from . import control

            control.stop(c)
        for w in self.model.windows.values():  # server_client_lost: hand "latest" on
            if w.latest is c:
                others = [o for o in self.clients if o is not c and o.session is not None
                          and o.session.curw is not None and o.session.curw.window is w]
                w.latest = max(others, key=lambda o: o.activity_time) if others else None
        if c in self.clients:
            self.clients.remove(c)
        if c.session is not None:
            self.detach_client(c, quiet=True)
        if c.lifecycle:
            c.lifecycle = False
            self.client_event("client-closed", c)
        self.check_unattached()
        if self.should_exit() and self.listen_sock is not None:
            # Stop listening at once, as tmux exits in this same loop iteration: a client
            # connecting now must see "no server running", not a server dying under it.
            self.listen_sock.close()
            self.listen_sock = None
        self._loop_wake.set()

    def detach_client(self, c: ClientConn, quiet: bool = False) -> None:
        self.release_terminal(c)
        s = c.session
        if s is None:
            return
        c.session = None
        s.attached = max(0, s.attached - 1)
        self.notify("client-detached", {"client": c, "session": s})
        self.update_socket()
        self.resize_session_windows(s)

    def update_focus(self, windows: Any) -> None:
        """window_pane_update_focus for the panes of ``windows`` that had focus or are
        active: a pane has it while it is the active pane of a window a focused client
        shows with no overlay over it. A change is reported to the pane (``ESC [ I`` or
        ``ESC [ O`` when it asked with mode 1004) and raises pane-focus-in or -out."""
        shown = {id(c.session.curw.window) for c in self.clients
                 if c.session is not None and c.session.attached and c.focused
                 and c.session.curw is not None and c.overlay is None}
        changed = []
        for w in windows:
            for wp in w.panes:
                was = wp.focused
                if (was or wp is w.active) and not wp.exited \
                        and was != (wp is w.active and id(w) in shown):
                    changed.append((was, wp))
        changed.sort(key=lambda x: not x[0])  # as tmux: the pane losing focus hears first
        for was, wp in changed:
            wp.focused = not was
            if wp.screen.focus_events:
                wp.write(b"\x1b[O" if was else b"\x1b[I")
            self.notify("pane-focus-out" if was else "pane-focus-in",
                        {"pane": wp, "window": wp.window})

    def client_focus_changed(self, c: ClientConn) -> None:
        """What the panes of a client's window must hear when the client gains or loses focus
        or an overlay opens or closes over it."""
        s = c.session
        if s is not None and s.curw is not None:
            self.update_focus([s.curw.window])

    def check_unattached(self) -> None:
        """server_check_unattached: sessions nobody is attached to go when destroy-unattached
        says so (on; keep-last: only from a group with other sessions in it; keep-group: not
        the last session of a group). Run whenever a client leaves a session."""
        for s in list(self.model.sorted_sessions()):
            if s.attached or not s.alive:
                continue
            how = s.options.get("destroy-unattached")
            if how in ("off", False, 0, None):
                continue
            size = len(s.group.sessions) if s.group is not None else 0
            if how == "keep-last" and size <= 1:
                continue
            if how == "keep-group" and size == 1:
                continue
            self.destroy_session(s)

    def release_terminal(self, c: ClientConn) -> None:
        """Give an attached client's terminal back (modes restored, main screen)."""
        if c.prompt is not None or c.overlay is not None:
            from .overlays import clear_overlay
            from .prompt import clear

            clear(self, c)  # their free callbacks let waiting commands go on
            clear_overlay(self, c)
        if c.attached is not None:
            c.attached.stop()
            c.attached = None

    def detach_with_message(self, c: ClientConn, kill: bool = False) -> None:
        """detach-client: the client prints ``[detached (from session x)]`` and exits."""
        s = c.session
        self.release_terminal(c)
        name = s.name if s is not None else ""
        if c.control_state is not None:  # after its queued output (server_client_detach)
            c.exit_frame = P.encode(P.MSG_DETACHKILL if kill else P.MSG_DETACH,
                                    P.pack_string(name))
            c.request_exit()
            return
        c.send(P.MSG_DETACHKILL if kill else P.MSG_DETACH, P.pack_string(name))

    def exec_client(self, c: ClientConn, command: str) -> None:
        """detach-client -E (server_client_exec): the client gives its terminal back and
        replaces itself with ``command`` run by the session's shell."""
        if not command:
            return
        oo = c.session.options if c.session is not None else self.session_options
        shell = str(oo.get("default-shell"))
        if not check_shell(shell):
            shell = "/bin/sh"
        self.release_terminal(c)
        c.send(P.MSG_EXEC, command.encode("utf-8", "surrogateescape") + b"\0"
               + shell.encode("utf-8", "surrogateescape") + b"\0")

    def client_lost_tty(self, c: ClientConn) -> None:
        self.detach_client(c, quiet=True)
        c.request_exit()

    def client_resized(self, c: ClientConn) -> None:
        """MSG_RESIZE: the terminal changed size; windows follow window-size."""
        if c.attached is None:
            return
        if not c.control:
            self.update_latest(c)
        c.attached.resized()
        self.notify("client-resized", {"client": c, "session": c.session})
        if c.session is not None:
            self.resize_session_windows(c.session)

    def client_size(self, c: ClientConn, w: Any = None) -> tuple[int, int]:
        """The space a client's terminal leaves for windows (its size less the status lines)."""
        if c.control_state is not None:
            from . import control

            return control.client_size(c, w)
        sx, sy = c.attached.tty.sx, c.attached.tty.sy
        s = c.session
        if s is not None:
            value = s.options.get("status")
            if value != "off":
                sy -= 1 if value == "on" else int(value)
        return max(sx, 1), max(sy, 1)

    def resize_session_windows(self, s: Session, now: bool = False) -> None:
        """Size every window of ``s`` for the clients viewing it (tmux's recalculate_size).
        ``now`` (recalculate_sizes_now, refresh-client -C): windows not current are sized too,
        and a window is resized (and its layout reported) even at the size it has."""
        from .model import apply_layout

        for wl in s.sorted_winlinks():
            w = wl.window
            if w.layout is None:
                continue
            policy = str(w.options.get("window-size"))
            if policy == "manual":
                continue
            viewers = [c for c in self.clients if not self.ignore_client_size(c)
                       and c.session is not None and c.session.has_window(w)]
            if not viewers:
                continue
            # tmux applies a new size only to a window current in an attached session (its
            # server_client_check_window_resize); the others wait until they are selected.
            if not now and not any(c.session.curw is not None and c.session.curw.window is w
                                   for c in viewers):
                continue
            sizes = [self.client_size(c, w) for c in viewers]
            if policy == "smallest":
                sx, sy = min(x for x, _ in sizes), min(y for _, y in sizes)
            elif policy == "largest":
                sx, sy = max(x for x, _ in sizes), max(y for _, y in sizes)
            else:  # latest: with several clients, only the window's latest one counts
                latest = viewers[0] if len(viewers) == 1 else w.latest
                if latest not in viewers:
                    continue
                sx, sy = self.client_size(latest, w)
            xpixel = ypixel = 0  # the largest cell a client's terminal reports
            for c in (viewers if policy in ("smallest", "largest") else [latest]):
                tty = c.attached.tty if c.attached is not None else None
                if tty is not None and tty.xpixel > xpixel and tty.ypixel > ypixel:
                    xpixel, ypixel = tty.xpixel, tty.ypixel
            if any(c.control_state is not None for c in viewers):
                from . import control

                sx, sy = control.clamp_window_size(self, w, viewers, sx, sy)
            if now or (sx, sy) != (w.sx, w.sy):
                w.xpixel, w.ypixel = xpixel or 16, ypixel or 32  # window_resize
                w.layout.resize_window(sx, sy)
                apply_layout(w)
                self.notify("window-layout-changed", {"window": w})
        self.redraw_clients()

    def update_latest(self, c: ClientConn) -> None:
        """server_client_update_latest: a client typed or resized; its current window's size
        follows it under window-size latest."""
        s = c.session
        if s is None or s.curw is None:
            return
        w = s.curw.window
        if w.latest is c:
            return
        w.latest = c
        if str(w.options.get("window-size")) == "latest":
            self.resize_session_windows(s)
        self.notify("client-active", {"client": c, "session": s})

    def ignore_client_size(self, c: ClientConn) -> bool:
        """resize.c's ignore_client_size: clients without a terminal, suspended or locked
        ones, and ``ignore-size`` ones while a client without the flag is attached."""
        if c.control_state is not None:
            from . import control

            return control.ignore_size(self, c)
        a = c.attached
        if a is None or c.session is None or a.suspended or c.exiting:
            return True
        if getattr(c, "ignore_size", False):
            return any(o.session is not None and o.attached is not None
                       and not o.attached.suspended and not getattr(o, "ignore_size", False)
                       for o in self.clients)
        return False

    def redraw_clients(self, window: Any = None, full: bool = False,
                       status: bool = True) -> None:
        """Mark attached clients (those showing ``window``, or all) for a redraw; ``status``
        says whether what the status line shows may have changed too."""
        for c in self.clients:
            a = c.attached
            if a is None or c.session is None:
                continue
            if window is None or (c.session.curw is not None and c.session.curw.window is window):
                a.redraw(full, status)

    def status_invalidate(self, window: Any) -> None:
        """A plugin's values for a pane of ``window`` changed: redraw status lines."""
        self.redraw_clients()

    def client_woke(self, c: ClientConn) -> None:
        """MSG_WAKEUP/MSG_UNLOCK after suspend/lock: the terminal is ours again."""
        a = c.attached
        if a is None or not a.suspended:
            return
        c.activity_time = time.time()
        a.resume()
        if c.session is not None:
            c.session.activity_time = c.activity_time
            self.resize_session_windows(c.session)

    def suspend_client(self, c: ClientConn) -> None:
        """server_client_suspend: the client stops itself (SIGTSTP) and sends MSG_WAKEUP."""
        if c.session is None or c.attached is None or c.exiting:
            return
        c.attached.suspend()
        c.send(P.MSG_SUSPEND)

    def lock_client(self, c: ClientConn) -> None:
        """server_lock_client: the client runs lock-command on its terminal, then unlocks."""
        if c.control or c.session is None or c.attached is None or c.attached.suspended:
            return
        cmd = str(c.session.options.get("lock-command"))
        if not cmd or len(cmd.encode()) + 1 > P.MAX_PAYLOAD:
            return
        c.attached.suspend(b"\x1b[?1049h\x1b[H\x1b[2J\x1b[3J")
        c.send(P.MSG_LOCK, P.pack_string(cmd))
        self.resize_session_windows(c.session)  # a locked client no longer sizes windows

    def default_shell(self) -> str:
        from .options import check_shell

        shell = str(self.session_options.get("default-shell"))
        return shell if check_shell(shell) else "/bin/sh"

    # -- commands --------------------------------------------------------------------------------

    async def run_client_command(self, c: ClientConn, argv: list[str]) -> None:
        if self.plugins_pending and self._first_answered.is_set():
            # The plugins are loading (the first client has been answered): a command waits
            # for them, so what it sees (their option defaults, their variables) is the same
            # however soon after the server's start it came. (Before the first client is
            # answered, a configuration's job may call back: it must not wait.)
            await self.plugins_loaded.wait()
        try:
            if len(argv) > 1000:  # cmd_unpack_argv's limit (tmux 3.7)
                raise CommandError("command too long")
            if argv:
                cmdlist = parse_argv_list(self, argv)
            else:  # no command: default-client-command (tmux 3.7b), new-session by default
                default = self.options.get("default-client-command")
                cmdlist = getattr(default, "cmdlist", None) or parse_text(self, str(default))
        except CommandError as e:
            c.error_line(str(e))
            self.add_message(f"{c.name} message: {e}")
            c.request_exit(1)
            return
        if c.readonly and not cmdlist.all_have("read-only-ok"):
            # server_client_read_only: nothing of the list runs
            c.error_line("client is read-only")
            self.add_message(f"{c.name} message: client is read-only")
            c.request_exit(1)
            return
        await run_items(items_from(self, c, cmdlist, QueueState()))
        self.tick_second()  # tmux checks window names on every loop iteration
        if c.session is None or c.exiting:
            c.request_exit()  # plugins load once it has gone (remove_client)
        else:
            self._first_answered.set()  # attached: its first frame loads them (Attached._draw)
            if c.control_state is not None:
                c.control_state.ready()  # control_ready: now its lines are read

    async def run_commands_text(self, text: str, client: ClientConn | None, *,
                                file: str | None = None, state: QueueState | None = None,
                                one_group: bool = False) -> int:
        """Parse and run command text (config files, hooks, bindings); errors become causes."""
        try:
            cmdlist = parse_text(self, text, file=file, one_group=one_group)
        except CommandError as e:
            self.add_cfg_cause(str(e))
            return -1
        return await run_items(items_from(self, client, cmdlist, state or QueueState()))

    # -- configuration ---------------------------------------------------------------------------

    async def load_config(self) -> None:
        cfg_client = self.cfg_client
        if cfg_client is not None:
            # Its directory is where the config's new sessions and jobs start; it arrives with
            # its identify messages, right behind the connection.
            with trio.move_on_after(5.0):
                await cfg_client.identify_done.wait()
        try:
            if self.config_files is None:
                files, quiet = default_config_files(self.tmux_config), True
            else:
                files, quiet = list(self.config_files), False
            for path in files:
                try:
                    with open(path, encoding="utf-8", errors="surrogateescape") as f:
                        text = f.read()
                except OSError as e:
                    if quiet and e.errno == errno.ENOENT:
                        continue
                    self.add_cfg_cause(f"{path}: {e.strerror}")
                    continue
                self.cfg_files_loaded.append(path)
                await self.run_commands_text(text, None, file=path,
                                             state=QueueState(formats={"current_file": path}))
        except Exception:
            self.log_exception("loading configuration failed")
        finally:
            self.config_loaded.set()
            self.show_cfg_causes()

    # -- lifetime --------------------------------------------------------------------------------

    def create_socket(self) -> trio.socket.SocketType:
        path = self.socket_path
        try:
            os.unlink(path)
        except OSError:
            pass
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if self.flags & P.CLIENT_DEFAULTSOCKET:
            mask = os.umask(stat.S_IXUSR | stat.S_IXGRP | stat.S_IRWXO)
        else:
            mask = os.umask(stat.S_IXUSR | stat.S_IRWXG | stat.S_IRWXO)
        try:
            sock.bind(path)
        finally:
            os.umask(mask)
        sock.listen(128)
        sock.setblocking(False)
        return trio.socket.from_stdlib_socket(sock)

    def update_socket(self) -> None:
        """Set the socket's x bits while any session is attached, as tmux does (tools read it)."""
        attached = any(s.attached for s in self.model.sessions.values())
        try:
            mode = os.stat(self.socket_path).st_mode & 0o777
        except OSError:
            return
        if attached:
            new = mode | ((mode & 0o444) >> 2)
        else:
            new = mode & ~0o111
        if new != mode:
            try:
                os.chmod(self.socket_path, new)
            except OSError:
                pass

    def should_exit(self) -> bool:
        if self.exit_requested:
            # As tmux, wait for the clients to go (an attached one answers SHUTDOWN with EXITING
            # and needs EXITED back, or it reports "server exited unexpectedly"); a client that
            # never answers holds the exit only until the deadline.
            return not self.clients or (all(c.exited for c in self.clients)
                                        and time.monotonic() > self.exit_deadline)
        if not self.options.get("exit-empty"):
            return False
        if self.options.get("exit-unattached"):
            if any(s.attached for s in self.model.sessions.values()):
                return False
        elif self.model.sessions:
            return False
        if not self.config_loaded.is_set():
            return False
        return not self.clients

    def kill_server(self) -> None:
        self.exit_requested = True
        self.exit_deadline = time.monotonic() + 2.0
        for c in list(self.clients):
            self.release_terminal(c)
            if c.control_state is not None:  # after its queued output, with no session
                c.exit_frame = P.encode(P.MSG_SHUTDOWN)
                c.session = None
            elif c.session is not None:
                c.send(P.MSG_SHUTDOWN)
            c.request_exit()
        for s in list(self.model.sessions.values()):
            self.model.destroy_session(s)
        if self.listen_sock is not None:
            # No connection is taken from here on (add_connection closes it), so stop
            # listening now: a command run as soon as kill-server returns (the C client takes
            # a millisecond) finds no server and starts one, rather than being accepted by
            # this one and dropped ("server exited unexpectedly").
            self.listen_sock.close()
            self.listen_sock = None
        self._loop_wake.set()

    async def _accept_loop(self, nursery: trio.Nursery) -> None:
        sock = self.listen_sock
        assert sock is not None
        while True:
            try:
                conn, _ = await sock.accept()
            except (trio.ClosedResourceError, trio.BrokenResourceError):
                return  # replaced (SIGUSR1) or shutting down
            except OSError as e:
                if sock is not self.listen_sock or e.errno == errno.EBADF:
                    return
                if e.errno in (errno.EMFILE, errno.ENFILE):
                    await trio.sleep(1)
                    continue
                if e.errno in (errno.EAGAIN, errno.EINTR, errno.ECONNABORTED):
                    continue
                raise
            self.add_connection(conn, nursery)

    def add_connection(self, conn: trio.socket.SocketType, nursery: trio.Nursery) -> None:
        try:
            creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)
            _pid, uid, _gid = array.array("i", creds)
        except OSError:
            uid = -1
        c = ClientConn(self, conn, uid)
        if self.exit_requested:
            conn.close()
            return
        readonly = self.acl.join(uid)
        if readonly is None:
            c.request_exit(message="access not allowed")  # exit status 0, as tmux 3.3a
        else:
            c.readonly = readonly
        self.clients.append(c)
        nursery.start_soon(c.run)

    async def _signals(self) -> None:
        with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGUSR1,
                                       signal.SIGHUP) as sigs:
            async for sig in sigs:
                if sig in (signal.SIGTERM, signal.SIGINT):
                    self.kill_server()
                elif sig == signal.SIGUSR1:
                    await self._recreate_socket()

    async def _recreate_socket(self) -> None:
        if self.exit_requested:
            return  # kill-server stopped listening for good
        old = self.listen_sock
        try:
            self.listen_sock = self.create_socket()
        except OSError:
            self.log_exception("recreating the socket failed")
            return
        if old is not None:
            old.close()
        if self.nursery is not None:
            self.nursery.start_soon(self._accept_loop, self.nursery)

    async def _housekeeping(self) -> None:
        from .pane import reap_zombies

        while True:
            await trio.sleep(1.0)
            reap_zombies()
            self.tick_second()
            self.jobs.tidy()

    def tick_second(self) -> None:
        """Once a second: automatic-rename and other timers."""
        from .commands.windows import check_window_names

        try:
            check_window_names(self)
        except Exception:
            self.log_exception("automatic-rename failed")
        from .commands.clients import lock_idle_sessions

        lock_idle_sessions(self)
        self.redraw_clients()

    async def run(self, first_client_fd: int | None) -> None:
        set_process_name("hmux")
        try:
            self.listen_sock = self.create_socket()
            cause = None
        except OSError as e:
            cause = f"error creating {self.socket_path} ({e.strerror})"
        self.on_listening()
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            if first_client_fd is not None:
                sock = socket.socket(fileno=first_client_fd)
                sock.setblocking(False)
                self.add_connection(trio.socket.from_stdlib_socket(sock), nursery)
                self.cfg_client = self.clients[-1] if self.clients else None
                if cause is not None:
                    self.clients[-1].request_exit(1, cause)
            if cause is not None and not self.clients:
                sys.stderr.write(cause + "\n")
                return
            if self.listen_sock is not None:
                nursery.start_soon(self._accept_loop, nursery)
            nursery.start_soon(self._signals)
            nursery.start_soon(self._housekeeping)
            self.prepare_plugins()
            await self.load_config()
            if self.plugins_pending:
                nursery.start_soon(self._plugins_after_first_client)
            while not self.should_exit():
                self._loop_wake = trio.Event()
                with trio.move_on_after(1.0):
                    await self._loop_wake.wait()
            nursery.cancel_scope.cancel()
        for c in list(self.clients):
            self.release_terminal(c)
        for p in list(self.model.panes.values()):
            p.destroy()

    def wake(self) -> None:
        self._loop_wake.set()

    def prepare_plugins(self) -> None:
        """Before the configuration files: settle whether any plugin is selected and, if so,
        register the ``plugins`` option they may set and note the options' values (what the
        files set, plugin defaults leave alone). Loading waits until the first client has been
        answered (importing plugins is a third of a cold server's start) or until something
        needs them: a format naming a variable the server does not know, an option or hook
        name no table has, a client's first frame (:meth:`ensure_plugins`)."""
        # formats_vars first: its table of option names that are not variables predates the
        # option, so #{plugins} stays the plugin layer's variable.
        from . import formats_vars
        from .plugin.selection import ENV_VAR, register_option, selection, snapshot

        if selection(os.environ.get(ENV_VAR)) == ():
            return  # no plugin layer at all: hmux is tmux
        register_option(self)
        self._plugins_untouched = snapshot(self)
        self.plugins_pending = True

        def load_then_lookup(ctx: Any, name: str) -> str | None:
            self.ensure_plugins()
            lookup = formats_vars.plugin_lookup
            if lookup is load_then_lookup or lookup is None:
                return None
            value = lookup(ctx, name)
            return value if value is not None else ctx._option(name)  # a plugin default

        formats_vars.plugin_lookup = load_then_lookup
        from . import options

        options.on_unknown = lambda name: self.ensure_plugins()  # a plugin's hook, say

    async def _plugins_after_first_client(self) -> None:
        with trio.move_on_after(1.0):
            await self._first_answered.wait()
        if self.plugins_pending:
            # The imports in a worker thread, so clients arriving meanwhile are answered
            # (a tool's second command would otherwise wait about 40 ms for them).
            from .plugin.selection import in_force, prefetch

            self._plugin_entry_points = await trio.to_thread.run_sync(prefetch, in_force(self))
        self.ensure_plugins()

    def ensure_plugins(self) -> bool:
        """Load the selected plugins now if they are still waiting (they then start ticking);
        whether they were."""
        if not self.plugins_pending:
            return False
        self.plugins_pending = False
        from . import formats_vars, options
        from .plugin.manager import start

        formats_vars.plugin_lookup = None
        options.on_unknown = None
        try:
            self.plugins = start(self, self._plugins_untouched, self._plugin_entry_points)
            QUIET.clear()  # plugins that listen to lifecycle events are there now
        except Exception:
            self.log_exception("loading plugins failed")
            self.plugins = None
        self._plugins_untouched = self._plugin_entry_points = None
        self.plugins_loaded.set()
        if self.plugins is not None and self.nursery is not None:
            self.nursery.start_soon(self.plugins.run)
            self.redraw_clients()  # the status line's defaults and variables
        return True

    # -- panes -----------------------------------------------------------------------------------

    def start_pane(self, pane: Any) -> None:
        pane.on_exit = self.pane_exited
        pane.on_output = self.pane_output
        escapes.attach(self, pane)
        from . import control

        control.watch_pane(self, pane)  # its output to control clients, read while they keep up
        assert self.nursery is not None
        pane.start(self.nursery)
        self.notify("pane-created", {"pane": pane})

    def pane_output(self, pane: Any, events: list[tuple[str, object]]) -> None:
        for name, value in events:
            if name == "bell":
                self.notify("bell", {"pane": pane})
            elif name == "title":
                self.notify("pane-title-changed", {"pane": pane, "title": value})
                self.redraw_clients(pane.window)  # borders, status line and set-titles show it
            else:
                escapes.apply(self, pane, name, value)
        w = pane.window
        alt = pane.screen.alternate_on
        if alt != getattr(pane, "scrollbar_alt", False):  # no scrollbar on the alternate screen
            pane.scrollbar_alt = alt
            if w.options.get("pane-scrollbars") != "off":
                from . import scrollbars

                scrollbars.refit(self, w)
        for c in self.clients:  # those showing the window draw (now, or at their next frame)
            a = c.attached
            if a is not None and c.session is not None and c.session.curw is not None \
                    and c.session.curw.window is w:
                a.pane_output(pane)

    # -- model operations with server-side effects (server-fn.c) -------------------------------

    def kill_pane(self, pane: Any) -> None:
        w = pane.window
        if len(w.panes) == 1:
            self.kill_window(w, renumber=True)
        else:
            self.model.remove_pane(pane)
        self.wake()

    def kill_window(self, w: Any, renumber: bool) -> None:
        for s in self.model.sorted_sessions():
            if not s.has_window(w):
                continue
            while True:
                wl = next((x for x in s.sorted_winlinks() if x.window is w), None)
                if wl is None:
                    break
                self.model.unlink_winlink(wl)
                if not s.alive:
                    break
            if renumber and s.alive:
                self.renumber_session(s)
            if s.alive and s.group is not None:
                from .commands.groups import synchronize_from

                synchronize_from(self, s)
        self.wake()

    def unlink_window(self, s: Session, wl: Any) -> None:
        self.model.unlink_winlink(wl)
        self.wake()

    def renumber_session(self, s: Session) -> None:
        if not s.options.get("renumber-windows"):
            return
        base = int(s.options.get("base-index"))
        old = s.sorted_winlinks()
        s.windows = {}
        for i, wl in enumerate(old):
            wl.idx = base + i
            s.windows[wl.idx] = wl

    def renumber_all(self) -> None:
        for s in self.model.sorted_sessions():
            self.renumber_session(s)

    def destroy_session(self, s: Session) -> None:
        """server_destroy_session: the session's clients move to the session detach-on-destroy
        picks (a client flagged no-detach-on-destroy to any other), else they exit."""
        s_new, cs_new = self._session_after(s)
        for c in list(self.clients):
            if c.session is s:
                use = s_new
                if use is None and getattr(c, "no_detach_on_destroy", False):
                    use = cs_new
                c.session = None
                c.last_session = None
                s.attached = max(0, s.attached - 1)
                if use is not None:
                    self.attach_client(c, use, new_client=False)
                elif c.attached is not None or c.control_state is not None:
                    self.release_terminal(c)  # tmux: CLIENT_EXIT, the client says [exited]
                    c.request_exit()
                else:
                    c.send(P.MSG_DETACH, P.pack_string(s.name))
        self.model.destroy_session(s)
        self.wake()

    def _session_after(self, s: Session) -> tuple[Session | None, Session | None]:
        """detach-on-destroy's session for the clients of ``s`` (off: the most recently
        active other one, no-detached: the same among unattached ones, previous/next: by
        name), and the most recently active other one for no-detach-on-destroy clients."""
        others = [x for x in self.model.sorted_sessions() if x is not s and x.alive]

        def newest(candidates: list[Session]) -> Session | None:
            best = None
            for x in candidates:
                if best is None or x.activity_time > best.activity_time:
                    best = x
            return best

        mode = str(s.options.get("detach-on-destroy"))
        s_new = None
        if mode == "off":
            s_new = newest(others)
        elif mode == "no-detached":
            s_new = newest([x for x in others if not x.attached])
        elif mode in ("previous", "next") and others:
            names = self.model.sorted_sessions()
            i = names.index(s) if s in names else 0
            step = -1 if mode == "previous" else 1
            s_new = names[(i + step) % len(names)]
            if s_new is s:
                s_new = None
        cs_new = newest(others) if s_new is None and mode in ("on", "no-detached") else None
        return s_new, cs_new

    def option_changed(self, name: str) -> None:
        """Side effects of set-option that the model must see at once (options_push_changes)."""
        if name in ("pane-border-status", "pane-scrollbars", "pane-scrollbars-position",
                    "pane-scrollbars-style"):  # panes gain or lose a row or their scrollbar
            for w in self.model.windows.values():
                if w.layout is not None:
                    w.layout.set_border_status(str(w.options.get("pane-border-status")))
                    from .model import apply_layout

                    apply_layout(w)
        elif name == "history-limit":
            escapes.update_history(self)  # tmux 3.7b: existing panes too
        elif name == "automatic-rename":
            for w in self.model.windows.values():
                if w.active is not None and w.options.get(name):
                    w.active.changed = True
        elif name == "plugins" and self.plugins is not None:
            self.plugins.reconcile()
        elif name in ("window-style", "window-active-style"):
            escapes.send_theme_updates(self)  # PANE_THEMECHANGED: a pane's theme may change
        elif themes.option_changes_theme(name):
            themes.update_all(self)  # every client's theme colours, drawn again at once
        elif name.split("[")[0] in escapes.SCREEN_OPTIONS:
            for pane in list(self.model.panes.values()):
                escapes.sync_options(pane)
            self.redraw_clients(full=True)
        for s in self.model.sorted_sessions():  # recalculate_sizes: status, window-size...
            self.resize_session_windows(s)
        self.wake()

    def best_client(self, s: Session | None) -> ClientConn | None:
        """cmd_find_best_client: the most recently active client of ``s``, or of any
        session when nothing is attached to ``s``."""
        if s is not None and not any(c.session is s for c in self.clients):
            s = None
        best = None
        for c in self.clients:
            if c.session is None or (s is not None and c.session is not s):
                continue
            if best is None or c.activity_time > best.activity_time:
                best = c
        return best

    def attach_supported(self) -> bool:
        return True

    def attach_client(self, c: ClientConn, s: Session, new_client: bool,
                      show_causes: bool = False) -> None:
        """Attach ``c`` to ``s``. ``show_causes``: configuration errors still waiting go to view
        mode now, before the windows take the client's size, as tmux's attach-session shows
        them before its next size check (the view mode then sees the resize)."""
        if new_client and c.control_state is None:
            c.send(P.MSG_READY)
        elif c.session is not None:
            c.last_session = c.session
            c.session.attached = max(0, c.session.attached - 1)
        c.session = s
        c.focused = True
        if s.curw is not None:
            s.curw.window.latest = c
        s.attached += 1
        s.last_attached_time = time.time()
        c.activity_time = time.time()
        if c.attached is None and c.fd >= 0 and self.nursery is not None and not c.control:
            from .attached import Attached

            c.attached = Attached(self, c)
            c.attached.start(self.nursery)
        old = c.last_session if not new_client else None
        if old is not None and old.curw is not None:
            self.update_focus([old.curw.window])
        if s.curw is not None:
            self.update_focus([s.curw.window])
        self.check_unattached()
        self.update_socket()
        self.notify("client-session-changed", {"client": c, "session": s})
        self.notify("client-attached", {"client": c, "session": s})
        if show_causes and self.config_loaded.is_set():
            self.show_cfg_causes(s)
        self.resize_session_windows(s)
        if c.attached is not None:
            c.attached.redraw(full=True)

    def status_message(self, c: ClientConn, text: str, *, delay: int = -1,
                       ignore_keys: bool = False, no_freeze: bool = False) -> None:
        """display-message without -p on an attached client: shown on its status line for
        ``delay`` milliseconds (-1: display-time; 0: until a key), and logged as tmux logs it.
        ``ignore_keys`` (-N) and ``no_freeze`` (-C) are kept on the client for its drawing."""
        self.add_message(f"{c.name} message: {text}")
        a = getattr(c, "attached", None)
        if a is None or self.nursery is None:
            return
        c.message_text = text
        c.message_ignore_keys = ignore_keys and delay != 0
        c.message_no_freeze = no_freeze
        a.redraw()
        if delay == -1:
            delay = int(self.session_options.get("display-time")) if c.session is None \
                else int(c.session.options.get("display-time"))

        async def clear(token: object) -> None:
            if delay > 0:
                await trio.sleep(delay / 1000)
                if getattr(c, "message_token", None) is token and c.attached is not None:
                    c.message_text = None
                    c.attached.redraw()

        token = object()
        c.message_token = token
        self.nursery.start_soon(clear, token)

    def pane_exited(self, pane: Any) -> None:
        from .commands.panes import pane_exited

        try:
            pane_exited(self, pane)
        except Exception:
            self.log_exception("pane exit handling failed")
        self._loop_wake.set()


class _Args:
    """The server's arguments, which only hmux's own client writes (see client._start_server):
    parsed by hand, because argparse is a cold start's slowest import after trio."""

    socket = ""
    client_fd: int | None = None
    lock_fd = -1
    lock_file: str | None = None
    flags = 0
    config: list[str] | None = None
    no_config = tmux_config = foreground = False

    def __init__(self, argv: list[str]) -> None:
        it = iter(argv)
        for arg in it:
            if arg in ("--no-config", "--tmux-config", "--foreground"):
                setattr(self, arg[2:].replace("-", "_"), True)
                continue
            value = next(it, None)
            if value is None:
                raise SystemExit(f"hmux-server: {arg} needs a value")
            if arg == "-f":
                self.config = (self.config or []) + [value]
            elif arg in ("--socket", "--lock-file"):
                setattr(self, arg[2:].replace("-", "_"), value)
            elif arg in ("--client-fd", "--lock-fd", "--flags"):
                setattr(self, arg[2:].replace("-", "_"), int(value))
            else:
                raise SystemExit(f"hmux-server: unknown argument {arg}")
        if not self.socket:
            raise SystemExit("hmux-server: --socket is required")


def main(argv: list[str] | None = None) -> int:
    ns = _Args(sys.argv[1:] if argv is None else argv)
    for fd in (ns.client_fd, ns.lock_fd):  # passed on to us, never to a pane's child
        if fd is not None and fd >= 0:
            try:
                os.set_inheritable(fd, False)
            except OSError:
                pass
    if not ns.foreground:
        from .client import daemonize

        daemonize()
    log_path = os.environ.get("HMUX_LOG")
    if log_path:
        logging.basicConfig(filename=log_path, level=logging.DEBUG,
                            format="%(asctime)s %(name)s %(levelname)s %(message)s")
        try:  # a crash's traceback lands in the log rather than /dev/null
            fd = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            os.dup2(fd, 2)
            os.close(fd)
        except OSError:
            pass
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    for sig in (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_IGN)
    config = ns.config if ns.config is not None else ([] if ns.no_config else None)
    server = Server(ns.socket, ns.flags, config, quiet_config=config is None,
                    tmux_config=ns.tmux_config)

    def release_lock() -> None:
        # Released only once the socket is bound, so racing clients retry and find us.
        if ns.lock_fd >= 0:
            try:
                if ns.lock_file:
                    os.unlink(ns.lock_file)
            except OSError:
                pass
            os.close(ns.lock_fd)

    server.on_listening = release_lock

    profile = os.environ.get("HMUX_PROFILE")  # a cProfile dump of the server's life
    prof = None
    if profile:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    try:
        trio.run(server.run, ns.client_fd)
    except KeyboardInterrupt:
        pass
    finally:
        if prof is not None:
            prof.disable()
            prof.dump_stats(profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["ClientConn", "Server", "main"]
