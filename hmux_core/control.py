"""Control mode (``-C`` and ``-CC``): a client that speaks lines of text instead of a terminal.

tmux's control.c. The server reads command lines from the client's stdin fd and writes replies
and notifications to its stdout fd (``-CC``: both on the stdin terminal, inside the DCS
``\\033P1000p`` the client ends with ``\\033\\\\``). The client process itself only waits and
prints ``%exit`` at the end.

What a control client is sent, in order, goes through one queue per client, as tmux keeps it:

* ``out`` is what is ready for the fd (tmux's bufferevent output). A line goes straight there
  unless pane output is still queued ahead of it;
* ``blocks`` keeps that order: a pane's output read before a line must reach the client before
  the line, so lines wait behind output blocks (``_Line`` and ``_Output`` entries);
* each pane has its own queue of output blocks for this client (``_CPane.blocks``). When ``out``
  drains below ``LOW`` the writer takes up to ``HIGH`` bytes (``FAST_HIGH`` for a client that
  keeps up), shared between the pending panes, and turns them into ``%output`` lines
  (``%extended-output`` with ``pause-after``).

Flow control: a pane whose only viewers are control clients that are behind (``out`` over
``LOW``, or its output turned off) is not read at all (``Hub.read_hold``), so its program waits
rather than memory growing. A pane read for someone else while a control client falls behind
keeps queueing for that client: with ``pause-after`` the pane is paused for it (``%pause``) once
its oldest block is older than the limit; without, the client is disconnected ``too far behind``
after five minutes or once ``REPLY_LIMIT`` bytes wait for it, whichever comes first.

Command replies are framed by ``guard`` (called by the command queue around each command of a
control client); a notification raised while a guard is open waits until it closes, so
notifications never appear inside a ``%begin``/``%end`` block.
"""

from __future__ import annotations

import logging
import os
import re
import time
import weakref
from collections import deque
from typing import TYPE_CHECKING, Any

import trio

from . import protocol as P

if TYPE_CHECKING:
    from .server import ClientConn, Server

log = logging.getLogger("hmux.control")

#: tmux's CONTROL_BUFFER_LOW and CONTROL_BUFFER_HIGH: the write callback runs once ``out`` is
#: down to LOW and fills it up to HIGH; a pane is not read while a control client is over LOW.
LOW = 512
HIGH = 8192
#: HIGH for a client that keeps up (its last write was taken whole). Each fill (a trip
#: through the writer loop) and each %output line cost more in Python than their bytes: a
#: flood to a control client ran at 0.94x tmux with HIGH and 1.4x with this (ghostty engine;
#: python 0.7x → 0.9x). Visible only as longer %output lines (up to ~10.9 KB of pane output
#: rather than ~2.7 KB; their length in tmux depends on read timing anyway). A client that
#: falls behind is back on tmux's HIGH, so its output ages (pause-after) as in tmux rather
#: than going out in bigger fills that hide how far behind it is.
FAST_HIGH = 32768
#: CONTROL_WRITE_MINIMUM: the least output taken from one pane per fill.
WRITE_MINIMUM = 32
#: CONTROL_MAXIMUM_AGE (milliseconds): output this old, without pause-after, ends the client.
MAXIMUM_AGE = 300000
#: Replies, notifications and output waiting for one client: over this it is "too far behind".
REPLY_LIMIT = 64 * 1024 * 1024
#: An exiting client has this long to take what is queued for it; then it is dropped.
DRAIN_LIMIT = 10.0
#: And this long, once told to exit, to close its connection.
HANDSHAKE_LIMIT = 10.0
#: One os.write at most.
WRITE_CHUNK = 65536
#: The DCS a -CC client's terminal sees first.
DCS_START = b"\033P1000p"

PANE_OFF = 0x1
PANE_PAUSED = 0x2

_now_ms = time.monotonic_ns


def now_ms() -> int:
    """tmux's get_timer(): a monotonic clock in milliseconds."""
    return _now_ms() // 1_000_000


# -- %output escaping ------------------------------------------------------------------------------

_COMMON = ((b"\\", b"\\134"), (b"\r", b"\\015"), (b"\n", b"\\012"), (b"\x1b", b"\\033"),
           (b"\t", b"\\011"), (b"\x08", b"\\010"), (b"\x07", b"\\007"))
_RARE_BYTES = bytes(b for b in range(0x20) if b not in b"\r\n\x1b\t\x08\x07")
_RARE = re.compile(b"[" + re.escape(_RARE_BYTES) + b"]")
_OCTAL = {bytes([i]): b"\\%03o" % i for i in range(0x20)}


def escape_output(data: bytes) -> bytes:
    """``%output``'s encoding: every byte below 0x20 and the backslash as ``\\ooo``, all other
    bytes (UTF-8 included) as they are. The common controls are replaced a run at a time
    (bytes.replace is C, and ``in`` is memchr); the rest, rare in terminal output, are looked
    for once by deleting them (translate, ~0.5 ns a byte: a regex scan costs five times that
    and was a fifth of the server's time under a flood) and replaced by one regex pass only
    when present. The backslash goes first, before the escapes that add backslashes."""
    rare = len(data.translate(None, _RARE_BYTES)) != len(data)
    for raw, octal in _COMMON:
        if raw in data:
            data = data.replace(raw, octal)
    if rare:
        data = _RARE.sub(lambda m: _OCTAL[m.group()], data)
    return data


# -- queue entries ---------------------------------------------------------------------------------

class _Line:
    """A line (or several, for command output) waiting behind pane output."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data


class _Output:
    """One read of a pane's output for one client; ``pos`` is how much has been sent."""

    __slots__ = ("data", "pos", "t", "done")

    def __init__(self, data: bytes, t: int) -> None:
        self.data = data
        self.pos = 0
        self.t = t
        self.done = False


class _CPane:
    """This client's view of one pane (tmux's control_pane)."""

    __slots__ = ("id", "flags", "blocks")

    def __init__(self, pane_id: int) -> None:
        self.id = pane_id
        self.flags = 0
        self.blocks: deque[_Output] = deque()


# -- the per-server hub ----------------------------------------------------------------------------

class Hub:
    """What the panes see of control mode: who gets their output, and whether to read them."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self._drained = trio.Event()

    def clients(self) -> list[ClientConn]:
        return [c for c in self.server.clients if c.control_state is not None]

    def pane_data(self, pane: Any, data: bytes) -> None:
        """window_pane_read_callback: a pane's new output goes to every control client."""
        for c in self.server.clients:
            cs = c.control_state
            if cs is not None and c.session is not None:
                cs.pane_data(pane, data)

    def pane_off(self, pane: Any) -> bool:
        """server_client_check_pane_buffer's test: the pane has viewers, all of them control
        clients that cannot take more of it now."""
        attached = 0
        for c in self.server.clients:
            cs = c.control_state
            if c.session is None or (cs is not None and cs.broken):
                continue  # (a client dropped too far behind takes nothing more: no viewer)
            attached += 1
            if cs is None or not cs.holds(pane):
                return False
        return attached > 0

    async def read_hold(self, pane: Any) -> None:
        """Awaited by the pane before each read: returns when someone can take its output.
        Output written while the pane is held stays in the PTY, as in tmux, whose pane read
        event is off then (a pane turned off while it waits is interrupted, ``set_pane_off``)."""
        while self.pane_off(pane) and not pane.destroyed and pane.fd >= 0:
            with trio.move_on_after(0.25):  # a missed wake costs a quarter second, not a hang
                await self._drained.wait()

    def drained(self) -> None:
        """A control client took output or changed what it wants: held panes look again."""
        self._drained.set()
        self._drained = trio.Event()


_hubs: weakref.WeakKeyDictionary[Any, Hub] = weakref.WeakKeyDictionary()


def hub(server: Server) -> Hub:
    h = _hubs.get(server)
    if h is None:
        h = _hubs[server] = Hub(server)
    return h


def watch_pane(server: Server, pane: Any) -> None:
    """A pane starts (or restarts, respawn-pane): its reads feed the control clients, and a
    restarted pane's old queued output is dropped (control_reset_pane)."""
    h = hub(server)
    pane.on_data = h.pane_data
    pane.read_hold = h.read_hold
    for c in h.clients():
        c.control_state.reset_pane(pane)


# -- one control client ------------------------------------------------------------------------------

class ControlState:
    """A control client's queues, subscriptions and tasks (tmux's control_state)."""

    def __init__(self, server: Server, c: ClientConn) -> None:
        self.server = server
        self.c = c
        self.hub = hub(server)
        self.cc = bool(c.flags & P.CLIENT_CONTROLCONTROL)
        self.rfd = c.fd
        if self.cc:
            if c.out_fd >= 0:
                os.close(c.out_fd)
                c.out_fd = -1
            self.wfd = c.fd
        else:
            self.wfd = c.out_fd
        for fd in (self.rfd, self.wfd):
            if fd >= 0:
                try:
                    os.set_blocking(fd, False)
                except OSError:
                    pass
        self.out = bytearray(DCS_START if self.cc else b"")
        self.high = HIGH  # how full a fill makes ``out`` (FAST_HIGH while the client keeps up)
        self._full = False  # the last write left something: the fd takes no more for now
        self.blocks: deque[_Line | _Output] = deque()
        self.panes: dict[int, _CPane] = {}
        self.pending: dict[int, _CPane] = {}
        #: Bytes waiting in ``blocks`` (lines, and output not yet escaped).
        self.backlog = 0
        self.guard_depth = 0
        self.deferred: list[bytes] = []
        #: refresh-client -C @id:WxH (tmux's client_windows sizes), id -> [sx, sy].
        self.windows: dict[int, list[int]] = {}
        self.size_changed = False  # CLIENT_SIZECHANGED: refresh-client -C WxH was given
        self.window_size_changed = False  # CLIENT_WINDOWSIZECHANGED
        self.subs: Any = None  # control_subs.Subscriptions, made on the first -B
        self.reading = False
        self.broken = wfd_bad = self.wfd < 0
        if wfd_bad:
            self.out.clear()
        self.scopes: list[trio.CancelScope] = []  # one per task; stop() cancels them all
        self.stopped = False
        self._wake = trio.Event()
        self._exit_started: float | None = None
        self._exited_at: float | None = None

    # -- lifetime ----------------------------------------------------------------------------------

    def start(self) -> None:
        self.spawn(self._writer, "writer")

    def ready(self) -> None:
        """control_ready: the first command is done and the client attached: read lines."""
        if self.reading or self.rfd < 0:
            return
        self.reading = True
        self.spawn(self._reader, "reader")

    def stop(self) -> None:
        """control_stop: the client is gone. Tasks end before the fds are closed."""
        self.stopped = True  # a task not started yet ends at once
        for scope in self.scopes:
            scope.cancel()
        self.broken = True  # nothing more is queued for a client that is gone
        for fd in {self.rfd, self.wfd}:
            if fd >= 0:
                trio.lowlevel.notify_closing(fd)
        if self.subs is not None:
            self.subs.clear()
        self.panes.clear()
        self.pending.clear()
        self.blocks.clear()
        self.out.clear()
        self.hub.drained()

    def spawn(self, fn: Any, what: str) -> None:
        """Run ``fn`` in the server's nursery until the client goes (or it fails, logged)."""
        nursery = self.server.nursery
        if nursery is None or self.broken and what != "writer":
            return

        async def task() -> None:
            if self.stopped:
                return
            scope = trio.CancelScope()
            self.scopes.append(scope)
            try:
                with scope:
                    await fn()
            except Exception:
                self.server.log_exception(f"control {what} of {self.c.name} failed")
            finally:
                self.scopes.remove(scope)

        nursery.start_soon(task)

    # -- writing lines -----------------------------------------------------------------------------

    def wake(self) -> None:
        self._wake.set()

    def _trim(self) -> None:
        """Drop output blocks already sent from the head of the queue."""
        blocks = self.blocks
        while blocks:
            head = blocks[0]
            if isinstance(head, _Output) and head.done:
                blocks.popleft()
            else:
                break

    def _write(self, data: bytes) -> None:
        """control_write: ``data`` (ending in a newline) goes out now, or behind queued output."""
        if self.broken or self.c.exited:  # once told to exit, nothing more can follow
            return
        self._trim()
        if not self.blocks:
            self.out += data
        else:
            self.blocks.append(_Line(data))
            self.backlog += len(data)
        self._check_limit()
        self.wake()

    def write_line(self, text: str) -> None:
        self._write(text.encode("utf-8", "surrogateescape") + b"\n")

    def write_output(self, data: bytes) -> None:
        """Command output (print and error lines, capture-pane -p): text, never parsed."""
        if data:
            self._write(data if data.endswith(b"\n") else data + b"\n")

    def notify_line(self, text: str) -> None:
        """A notification: held while a command's reply block is open, then sent after it."""
        data = text.encode("utf-8", "surrogateescape") + b"\n"
        if self.guard_depth > 0:
            self.deferred.append(data)
            self.backlog += len(data)
            self._check_limit()
        else:
            self._write(data)

    def guard(self, kind: str, t: int, number: int, flags: int) -> None:
        """cmdq_guard: ``%begin``, ``%end`` or ``%error`` with the command's time, number and
        flags; closing the outermost block lets the notifications held during it out."""
        if kind == "begin":
            self.guard_depth += 1
        self._write(f"%{kind} {t} {number} {flags}\n".encode())
        if kind != "begin" and self.guard_depth > 0:
            self.guard_depth -= 1
            if self.guard_depth == 0 and self.deferred:
                deferred, self.deferred = self.deferred, []
                for data in deferred:
                    self.backlog -= len(data)
                    self._write(data)

    def parse_error(self, error: str) -> None:
        """control_error: a line that did not parse, as its own numbered block."""
        server = self.server
        server.command_number += 1
        number, t = server.command_number, int(time.time())
        self.guard("begin", t, number, 1)
        self.write_line(f"parse error: {error}")
        self.guard("error", t, number, 1)

    def queued(self) -> int:
        return len(self.out) + self.backlog

    def _check_limit(self) -> None:
        if self.queued() > REPLY_LIMIT:
            self.too_far_behind()

    def too_far_behind(self) -> None:
        """The client cannot keep up: drop what waits for it and tell it why it goes."""
        c = self.c
        log.info("control client %s too far behind (%d bytes queued)", c.name, self.queued())
        self._drop_all()
        self.broken = True  # nothing more is queued; the exit message says why
        c.request_exit(message="too far behind")

    def _drop_all(self) -> None:
        for cp in self.panes.values():
            self._discard_pane(cp)
        self.blocks.clear()
        self.deferred.clear()
        self.backlog = 0
        self.out.clear()
        self.hub.drained()

    # -- pane output -------------------------------------------------------------------------------

    def _ignoring(self) -> bool:
        """CONTROL_IGNORE_FLAGS: no-output, or the client is exiting or suspended."""
        c = self.c
        return bool(getattr(c, "no_output", False)) or c.exiting or self.broken

    def holds(self, pane: Any) -> bool:
        """control_pane_offset's flag: this client keeps ``pane`` from being read: its
        output buffer is over LOW, or more than one read of the pane still waits for it (a
        read is up to 64 KiB and the writer moves HIGH at a time, so without the second test
        a client that reads, but slower than the pane prints, would fall further behind at
        every read until dropped "too far behind"; tmux keeps one copy of the pane's data and
        each client's offset into it, hmux a queue per client). With pause-after the second
        test is off: the queued reads are bounded by their age, and keep aging while the
        client's fd is full, as tmux's do."""
        if getattr(self.c, "no_output", False):
            return False
        cp = self.panes.get(pane.id)
        if cp is None or cp.flags & PANE_PAUSED:
            return False
        if cp.flags & PANE_OFF:
            return True
        if len(self.out) >= LOW:
            return True
        # With pause-after, output is bounded by its age (the pane pauses), as in tmux.
        return len(cp.blocks) > 1 and getattr(self.c, "pause_after", None) is None

    def _add_pane(self, pane_id: int) -> _CPane:
        cp = self.panes.get(pane_id)
        if cp is None:
            cp = self.panes[pane_id] = _CPane(pane_id)
        return cp

    def _discard_pane(self, cp: _CPane) -> None:
        for b in cp.blocks:
            self.backlog -= len(b.data) - b.pos
            b.done = True
            b.data = b""
        cp.blocks.clear()
        self.pending.pop(cp.id, None)

    def reset_pane(self, pane: Any) -> None:
        cp = self.panes.get(pane.id)
        if cp is not None:
            self._discard_pane(cp)
            self._flush_lines()

    def reset_offsets(self) -> None:
        """control_reset_offsets (no-output changed): forget every pane."""
        for cp in self.panes.values():
            self._discard_pane(cp)
        self.panes.clear()
        self.pending.clear()
        self._flush_lines()
        self.hub.drained()

    def pane_data(self, wp: Any, data: bytes) -> None:
        """control_write_output: queue a read of ``wp`` for this client."""
        s = self.c.session
        if s is None or not s.has_window(wp.window):
            return
        if self._ignoring():
            return
        cp = self._add_pane(wp.id)
        if cp.flags & (PANE_OFF | PANE_PAUSED):
            return
        if self._check_age(wp, cp):
            return
        block = _Output(data, now_ms())
        self.blocks.append(block)
        cp.blocks.append(block)
        self.backlog += len(data)
        if cp.id not in self.pending:
            self.pending[cp.id] = cp
        self._check_limit()
        self.wake()

    def _check_age(self, wp: Any, cp: _CPane) -> bool:
        """control_check_age: pause the pane (pause-after) or give up on the client."""
        if not cp.blocks:
            return False
        t = now_ms()
        first = cp.blocks[0].t
        if first >= t:
            return False
        age = t - first
        pause_after = getattr(self.c, "pause_after", None)
        if pause_after is not None:
            if age < pause_after * 1000:
                return False
            cp.flags |= PANE_PAUSED
            self._discard_pane(cp)
            self.notify_line(f"%pause %{wp.id}")
        else:
            if age < MAXIMUM_AGE:
                return False
            self.too_far_behind()
        return True

    def set_pane_on(self, wp: Any) -> None:
        cp = self.panes.get(wp.id)
        if cp is not None and cp.flags & PANE_OFF:
            cp.flags &= ~PANE_OFF
            self._discard_pane(cp)
            self.hub.drained()

    def set_pane_off(self, wp: Any) -> None:
        cp = self._add_pane(wp.id)
        self._discard_pane(cp)
        self._flush_lines()
        cp.flags |= PANE_OFF
        interrupt = getattr(wp, "interrupt_read", None)
        if interrupt is not None:
            interrupt()  # a read already waiting would take output this client turned off

    def continue_pane(self, wp: Any) -> None:
        cp = self.panes.get(wp.id)
        if cp is not None and cp.flags & PANE_PAUSED:
            cp.flags &= ~PANE_PAUSED
            self._discard_pane(cp)
            self.notify_line(f"%continue %{wp.id}")
            self.hub.drained()

    def pause_pane(self, wp: Any) -> None:
        cp = self._add_pane(wp.id)
        if not cp.flags & PANE_PAUSED:
            cp.flags |= PANE_PAUSED
            self._discard_pane(cp)
            self._flush_lines()
            self.notify_line(f"%pause %{wp.id}")

    # -- the write callback ------------------------------------------------------------------------

    def _flush_lines(self) -> None:
        """control_flush_all_blocks: lines at the head of the queue go out."""
        blocks = self.blocks
        while blocks:
            head = blocks[0]
            if isinstance(head, _Output):
                if not head.done:
                    break
                blocks.popleft()
                continue
            blocks.popleft()
            self.backlog -= len(head.data)
            self.out += head.data

    def _fill(self) -> None:
        """control_write_callback: lines first, then the pending panes' output, shared out
        between them, until ``out`` holds ``high`` bytes (HIGH, or FAST_HIGH while the client
        keeps up)."""
        self._flush_lines()
        out = self.out
        pending = self.pending
        high = self.high
        while len(out) < high and pending:
            space = high - len(out)
            limit = max(space // len(pending) // 3, WRITE_MINIMUM)  # 3: "\ooo" per byte
            for cp in list(pending.values()):
                if len(out) >= high:
                    break
                if self._write_pending(cp, limit):
                    continue
                pending.pop(cp.id, None)

    def _write_pending(self, cp: _CPane, limit: int) -> bool:
        """control_write_pending: up to ``limit`` bytes of one pane as one ``%output`` line;
        True while more of it waits."""
        c = self.c
        wp = self.server.model.panes.get(cp.id)
        s = c.session
        # A pane that is gone (or whose window left the session) takes its queued output with
        # it, as in tmux. One whose program has just exited keeps it: tmux usually writes its
        # last read before noticing the end, and so must this.
        if wp is None or s is None or not s.has_window(wp.window):
            self._discard_pane(cp)
            self._flush_lines()
            return False
        pause_after = getattr(c, "pause_after", None)
        t = now_ms()
        used = 0
        parts: list[bytes] | None = None
        while used < limit and cp.blocks:
            if self._check_age(wp, cp):
                parts = None
                break
            b = cp.blocks[0]
            age = t - b.t if b.t < t else 0
            size = min(len(b.data) - b.pos, limit - used)
            used += size
            if parts is None:
                if pause_after is not None:
                    parts = [b"%%extended-output %%%d %d : " % (cp.id, age)]
                else:
                    parts = [b"%%output %%%d " % cp.id]
            chunk = b.data if (b.pos == 0 and size == len(b.data)) \
                else b.data[b.pos:b.pos + size]
            parts.append(escape_output(chunk))
            b.pos += size
            self.backlog -= size
            if b.pos >= len(b.data):
                cp.blocks.popleft()
                b.done = True
                b.data = b""
                self._trim()
                if self.blocks and isinstance(self.blocks[0], _Line):
                    parts.append(b"\n")
                    self.out += b"".join(parts)
                    parts = None
                    self._flush_lines()
        if parts is not None:
            parts.append(b"\n")
            self.out += b"".join(parts)
        return bool(cp.blocks)

    def all_done(self) -> bool:
        """control_all_done: nothing queued and nothing unwritten."""
        self._trim()
        return not self.blocks and not self.out

    def exit_pending(self) -> bool:
        """Whether an exiting client still has output to take (within DRAIN_LIMIT); the
        exit message waits for it (server_client_check_exit)."""
        if self.broken:
            return False
        if not self.c.exiting:
            return not self.all_done()
        if self._exit_started is None:
            self._exit_started = time.monotonic()
            for cp in self.panes.values():  # control_discard: no more pane output
                self._discard_pane(cp)
            self._flush_lines()
            self.wake()
        elif time.monotonic() - self._exit_started > DRAIN_LIMIT:
            self._drop_all()
            return False
        if self.server.hooks.busy():  # the notifications before it are not written yet
            self.wake()
            return True
        return not self.all_done()

    async def _writer(self) -> None:
        fd = self.wfd
        c = self.c
        while True:
            # The write callback's moments (libevent's low watermark): ``out`` is empty, or
            # the last write took everything but LOW. While the fd is full the remnant waits
            # unfilled, and the pane, with this client under LOW, goes on being read, as in
            # tmux: that output ages, and pause-after pauses the pane when it should.
            if not self.out or (len(self.out) <= LOW and not self._full):
                self._fill()
            if not self.out or self.broken:
                self.hub.drained()
                if c.exiting and not c.exited:
                    await self.server.hooks.settle()  # server_client_check_exit runs after
                    if self.out and not self.broken:  # the queues: their lines go first
                        continue
                    c._wake.set()  # the exit message can go now
                self._wake = trio.Event()
                with trio.move_on_after(1.0):
                    await self._wake.wait()
                self._tick()
                continue
            try:
                with memoryview(self.out) as view, view[:WRITE_CHUNK] as part:
                    n = os.write(fd, part)
            except BlockingIOError:
                self.high = HIGH
                self._full = True
                with trio.move_on_after(1.0):
                    await trio.lowlevel.wait_writable(fd)
                self._tick()
                continue
            except OSError:
                # control_error_callback: the client's output is gone; it exits.
                self.broken = True
                self._drop_all()
                c.request_exit()
                continue
            self._full = n < min(len(self.out), WRITE_CHUNK)  # (the fd took less than offered)
            self.high = HIGH if self._full else FAST_HIGH
            del self.out[:n]
            c.written += n
            if len(self.out) < LOW:
                self.hub.drained()
            await trio.lowlevel.checkpoint()

    def _tick(self) -> None:
        """Deadlines of an exiting client: the drain limit, then the handshake limit."""
        c = self.c
        if c.exiting and not c.exited:
            if self._exit_started is not None and \
                    time.monotonic() - self._exit_started > DRAIN_LIMIT:
                self._drop_all()
                c._wake.set()
        if c.exited:
            if self._exited_at is None:
                self._exited_at = time.monotonic()
            elif time.monotonic() - self._exited_at > HANDSHAKE_LIMIT:
                log.info("control client %s did not close; dropped", c.name)
                try:
                    c.sock.close()
                except OSError:
                    pass

    # -- reading commands --------------------------------------------------------------------------

    async def _reader(self) -> None:
        """control_read_callback: each line is a command list; an empty line or the end of
        input detaches."""
        fd = self.rfd
        c = self.c
        buf = bytearray()
        while not c.exiting:
            await trio.lowlevel.wait_readable(fd)
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                c.request_exit()
                return
            start = len(buf)
            buf += data
            if buf.find(b"\n", start) < 0:
                if len(buf) > REPLY_LIMIT:
                    buf.clear()  # a line longer than anything a client could mean
                    self.too_far_behind()
                    return
                continue
            lines = buf.split(b"\n")
            buf = bytearray(lines.pop())
            await self.server.hooks.settle()  # what the last lines caused goes out first
            for line in lines:
                nul = line.find(b"\0")
                if nul >= 0:
                    del line[nul:]  # a C string: the line ends at a NUL
                if not line:
                    c.request_exit()
                    return
                await self.run_line(bytes(line))
                if c.exiting:
                    return
            self.server.tick_second()  # window names are checked on every loop in tmux

    async def run_line(self, line: bytes) -> None:
        """One command line: its commands run in order, each in its own reply block."""
        from .commands.grammar import CommandError
        from .commands.queue import QueueState, items_from, parse_text, run_items

        server = self.server
        text = line.decode("utf-8", "surrogateescape")
        try:
            cmdlist = parse_text(server, text)
        except CommandError as e:
            self.parse_error(str(e))
            return
        items = items_from(server, self.c, cmdlist, QueueState(control=True))
        if items:
            await run_items(items)

    # -- refresh-client ----------------------------------------------------------------------------

    def set_size(self, sx: int, sy: int) -> None:
        c = self.c
        c.sx, c.sy = sx, sy
        self.size_changed = True
        self._recalculate()

    def _recalculate(self) -> None:
        """recalculate_sizes_now: this client's session's windows, at once."""
        if self.c.session is not None:
            self.server.resize_session_windows(self.c.session, now=True)

    def set_window_size(self, wid: int, sx: int, sy: int) -> None:
        self.windows[wid] = [sx, sy]
        self.window_size_changed = True
        self._recalculate()

    def clear_window_size(self, wid: int) -> None:
        cw = self.windows.get(wid)
        if cw is not None:
            cw[0] = cw[1] = 0
            self._recalculate()

    def window_size(self, wid: int) -> tuple[int, int] | None:
        cw = self.windows.get(wid)
        if cw is None or not cw[0] or not cw[1]:
            return None
        return cw[0], cw[1]

    def add_sub(self, name: str, kind: str, ident: int, fmt: str) -> None:
        from .control_subs import Subscriptions

        if self.subs is None:
            self.subs = Subscriptions(self)
        self.subs.add(name, kind, ident, fmt)

    def remove_sub(self, name: str) -> None:
        if self.subs is not None:
            self.subs.remove(name)


# -- the server's entry points -----------------------------------------------------------------------

def start(c: ClientConn) -> None:
    """control_start, when a control client has identified."""
    cs = ControlState(c.server, c)
    c.control_state = cs
    cs.start()


def ready(c: ClientConn) -> None:
    cs = c.control_state
    if cs is not None:
        cs.ready()


def stop(c: ClientConn) -> None:
    cs = c.control_state
    if cs is not None:
        cs.stop()
        c.control_state = None


def message(c: ClientConn, text: str) -> None:
    """display-message to a control client: ``%message``, the text vis(3)-encoded (octal,
    C-style, backslash kept), inside the command's reply block as tmux prints it."""
    cs = c.control_state
    if cs is None:
        return
    data = vis_message(("%message " + text).encode("utf-8", "surrogateescape"))
    if not c.utf8:
        from .server import _utf8_sanitize

        data = _utf8_sanitize(data.decode("utf-8", "surrogateescape")).encode(
            "utf-8", "surrogateescape")
    cs.write_output(data + b"\n")


_VIS_CSTYLE = {0x0D: b"\\r", 0x08: b"\\b", 0x07: b"\\a", 0x0B: b"\\v", 0x0C: b"\\f"}


def vis_message(data: bytes) -> bytes:
    """utf8_stravisx(VIS_OCTAL|VIS_CSTYLE|VIS_NOSLASH): printable ASCII, space, tab, newline,
    backslash and valid UTF-8 as they are; \\r \\b \\a \\v \\f and NUL C-style; the rest octal."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None and all(c >= " " or c in "\t\n" for c in text) and "\x7f" not in text:
        return data
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if b >= 0x80:
            size = _utf8_size(data, i)
            if size:
                out += data[i:i + size]
                i += size
                continue
        if 0x20 <= b <= 0x7E or b in (0x09, 0x0A):
            out.append(b)
        elif b in _VIS_CSTYLE:
            out += _VIS_CSTYLE[b]
        elif b == 0:
            nxt = data[i + 1] if i + 1 < n else 0
            out += b"\\000" if 0x30 <= nxt <= 0x37 else b"\\0"
        else:
            out += b"\\%03o" % b
        i += 1
    return bytes(out)


def _utf8_size(data: bytes, i: int) -> int:
    b = data[i]
    size = 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
    if not size:
        return 0
    try:
        data[i:i + size].decode("utf-8")
    except UnicodeDecodeError:
        return 0
    return size


def ignore_size(server: Server, c: ClientConn) -> bool:
    """resize.c's ignore_client_size for a control client: it sizes windows only once it has
    given a size (refresh-client -C)."""
    cs = c.control_state
    if c.session is None or c.exiting or cs is None:
        return True
    if getattr(c, "ignore_size", False):
        for o in server.clients:
            if o.session is None or o.exiting:
                continue
            if not getattr(o, "ignore_size", False):
                return True
    return not (cs.size_changed or cs.window_size_changed)


def client_size(c: ClientConn, w: Any = None) -> tuple[int, int]:
    """A control client's size for window ``w``: its per-window size if it gave one, else its
    own (no status line is drawn for it)."""
    cs = c.control_state
    if cs is not None and w is not None:
        size = cs.window_size(w.id)
        if size is not None:
            return size
    return max(c.sx, 1), max(c.sy, 1)


def clamp_window_size(server: Server, w: Any, viewers: list[ClientConn], sx: int,
                      sy: int) -> tuple[int, int]:
    """No window is larger than a per-window size a control client set for it."""
    for c in viewers:
        cs = c.control_state
        if cs is None or not cs.window_size_changed:
            continue
        cw = cs.windows.get(w.id)
        if cw is None:
            continue
        if cw[0] and sx > cw[0]:
            sx = cw[0]
        if cw[1] and sy > cw[1]:
            sy = cw[1]
    return sx, sy


__all__ = ["ControlState", "Hub", "escape_output", "hub", "message", "ready", "start", "stop",
           "watch_pane"]
