"""An attached client's terminal, owned by the server as tmux owns it.

The client hands over its terminal (``IDENTIFY_STDIN``); the server saves its modes, makes it
raw, switches to the alternate screen, reads keys from it and writes frames to it, and puts
everything back on detach, exit or error. Output goes through a bounded queue: when a client
stops reading, what is queued is dropped and the next frame is drawn whole (tmux's TTY_BLOCK
rule), so a stuck terminal never makes the server buffer without bound.
"""

from __future__ import annotations

import fcntl
import logging
import os
import struct
import termios

import trio

log = logging.getLogger(__name__)

#: Enter: alternate screen, clear, keypad normal, cursor keys normal, hide cursor during draws.
ENTER = b"\x1b[?1049h\x1b[H\x1b[2J\x1b[?25l"
#: Leave: attributes reset, scroll region reset, cursor shown, mouse/paste/focus off, main screen.
LEAVE = (b"\x1b[0m\x1b[r\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l"
         b"\x1b[?1004l\x1b[?1049l")


class Tty:
    """The terminal of one attached client."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.saved: list | None = None
        self.sx, self.sy = 80, 24
        self._out = bytearray()
        self._wake = trio.Event()
        self.blocked = False  # output was dropped: the next frame must be whole
        self.closed = False
        self.paused = False  # suspended or locked: the client's terminal is left alone
        self.stream: trio.lowlevel.FdStream | None = None

    @property
    def block_limit(self) -> int:
        return 1 + self.sx * self.sy * 8

    def start(self) -> None:
        """Raw mode (cfmakeraw plus what tmux's tty_start_tty keeps) and the alternate screen."""
        try:
            self.saved = termios.tcgetattr(self.fd)
        except termios.error as e:
            log.warning("tty %d: %s", self.fd, e)
        self._raw()
        os.set_blocking(self.fd, False)
        self.stream = trio.lowlevel.FdStream(os.dup(self.fd))
        self.update_size()
        self.write(ENTER)

    def _raw(self) -> None:
        try:
            tio = termios.tcgetattr(self.fd)
            tio[0] &= ~(termios.IXON | termios.IXOFF | termios.ICRNL | termios.INLCR
                        | termios.IGNCR | termios.IMAXBEL | termios.ISTRIP)
            tio[0] |= termios.IGNBRK
            tio[1] &= ~(termios.OPOST | termios.ONLCR | termios.OCRNL | termios.ONLRET)
            tio[3] &= ~(termios.IEXTEN | termios.ICANON | termios.ECHO | termios.ECHOE
                        | termios.ECHONL | termios.ECHOCTL | termios.ECHOPRT | termios.ECHOKE
                        | termios.ISIG)
            tio[6][termios.VMIN] = 1
            tio[6][termios.VTIME] = 0
            termios.tcsetattr(self.fd, termios.TCSANOW, tio)
        except termios.error as e:
            log.warning("tty %d: %s", self.fd, e)

    def suspend(self, after: bytes = b"") -> None:
        """tty_stop_tty for suspend-client and locking: what is queued goes out, then the
        modes are restored (and ``after``, e.g. a cleared alternate screen for a lock)."""
        if self.closed or self.paused:
            return
        self.paused = True
        data = bytes(self._out) + LEAVE + after
        self._out.clear()
        try:  # blocking again, as tty_stop_tty leaves it: the shell shares this file
            os.set_blocking(self.fd, True)
            os.write(self.fd, data)
        except OSError:
            pass
        if self.saved is not None:
            try:
                termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
            except termios.error:
                pass

    def resume(self) -> None:
        """tty_start_tty again after MSG_WAKEUP / MSG_UNLOCK; the caller redraws whole."""
        if self.closed or not self.paused:
            return
        self.paused = False
        self._raw()
        try:
            os.set_blocking(self.fd, False)
        except OSError:
            pass
        self.update_size()
        self.write(ENTER)

    def update_size(self) -> tuple[int, int]:
        try:
            rows, cols, _, _ = struct.unpack(
                "HHHH", fcntl.ioctl(self.fd, termios.TIOCGWINSZ, b"\0" * 8))
            if cols > 0 and rows > 0:
                self.sx, self.sy = cols, rows
        except OSError:
            pass
        return self.sx, self.sy

    def write(self, data: bytes) -> None:
        if self.closed or self.paused:
            return
        if len(self._out) + len(data) > self.block_limit and self._out:
            self._out.clear()  # the terminal is not keeping up: redraw whole instead
            self.blocked = True
        self._out += data
        self._wake.set()

    async def writer(self) -> None:
        """Drain the queue; exits when the terminal goes away."""
        while not self.closed:
            if not self._out:
                self._wake = trio.Event()
                await self._wake.wait()
                continue
            data = bytes(self._out)
            self._out.clear()
            view = memoryview(data)
            while view and not self.paused:
                try:
                    n = os.write(self.fd, view)
                except BlockingIOError:
                    await trio.lowlevel.wait_writable(self.fd)
                    continue
                except OSError:
                    self.closed = True
                    return
                view = view[n:]

    def stop(self) -> None:
        """Put the terminal back as it was; safe to call twice."""
        if self.closed:
            return
        self.closed = True
        try:
            os.set_blocking(self.fd, True)
            data = bytes(self._out) + LEAVE
            self._out.clear()
            os.write(self.fd, data)
        except OSError:
            pass
        if self.saved is not None:
            try:
                termios.tcsetattr(self.fd, termios.TCSAFLUSH, self.saved)
            except termios.error:
                pass

    def close_stream(self) -> None:
        """Close our reading handle once nothing waits on it."""
        if self.stream is not None:
            stream, self.stream = self.stream, None
            try:
                stream.close()
            except OSError:
                pass
