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
from typing import Any

import trio

log = logging.getLogger(__name__)

#: Enter: alternate screen, clear, keypad normal, cursor keys normal, hide cursor during draws.
ENTER = b"\x1b[?1049h\x1b[H\x1b[2J\x1b[?25l"
#: Leave: attributes reset, scroll region reset, cursor shown, mouse/focus off, main screen
#: (bracketed paste, cursor style and colour are undone by escapes.leave_modes if they were set).
LEAVE = (b"\x1b[0m\x1b[r\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l"
         b"\x1b[?1004l\x1b[?1049l")
#: With clear-on-attach off (an addition beyond 3.7b, docs/extensions.md): no alternate screen;
#: what the terminal showed is scrolled into its scrollback, and leaving clears the screen.
LEAVE_MAIN = LEAVE[:-len(b"\x1b[?1049l")] + b"\x1b[H\x1b[2J"


class Tty:
    """The terminal of one attached client."""

    def __init__(self, fd: int, account: Any = None) -> None:
        self.fd = fd
        #: What counts bytes sent and dropped (the client: #{client_written}/_discarded).
        self.account = account
        self.saved: list | None = None
        self.sx, self.sy = 80, 24
        self.xpixel = self.ypixel = 0  # a cell's size in pixels, if the terminal says
        self._out = bytearray()
        self._wake = trio.Event()
        self.blocked = False  # output was dropped: nothing is drawn until the terminal reads
        self._unblocked = trio.Event()
        self._cut = False  # a frame was cut short: the next write cancels what it began
        self.closed = False
        self.paused = False  # suspended or locked: the client's terminal is left alone
        self.stream: trio.lowlevel.FdStream | None = None
        #: clear-on-attach: the alternate screen (tmux's way); off keeps the main screen.
        self.alternate = True

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
        if self.alternate:
            self.write(ENTER)
        else:  # scroll what was there into the scrollback: a newline per row at the bottom
            self.write(b"\x1b[%d;1H" % self.sy + b"\n" * self.sy + b"\x1b[H\x1b[2J\x1b[?25l")

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
        data = bytes(self._out) + (LEAVE if self.alternate else LEAVE_MAIN) + after
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
        self.write(ENTER if self.alternate else b"\x1b[H\x1b[2J\x1b[?25l")

    def update_size(self) -> tuple[int, int]:
        """tty_resize: the terminal's size, and a cell's size in pixels when TIOCGWINSZ
        gives the window's (``xpixel``/``ypixel``, 0 when it does not)."""
        try:
            rows, cols, xpix, ypix = struct.unpack(
                "HHHH", fcntl.ioctl(self.fd, termios.TIOCGWINSZ, b"\0" * 8))
            if cols > 0 and rows > 0:
                self.sx, self.sy = cols, rows
            self.xpixel = xpix // cols if cols > 0 else 0
            self.ypixel = ypix // rows if rows > 0 else 0
        except OSError:
            self.xpixel = self.ypixel = 0
        return self.sx, self.sy

    def write(self, data: bytes) -> None:
        """Send ``data``: what the terminal takes now is written at once (an echo costs no task
        switch), the rest queued. When the queue would pass ``block_limit`` the terminal is not
        keeping up: the queue is dropped and nothing more is taken until it reads again (tmux's
        TTY_BLOCK), so a stalled terminal never makes the server buffer without bound."""
        if self.closed or self.paused or self.blocked:
            return
        acct = self.account
        if acct is not None:
            acct.written += len(data)
        if self._cut:
            self._cut = False
            data = b"\x18" + data  # CAN: ends a sequence the dropped bytes left open
        if not self._out:
            try:
                data = data[os.write(self.fd, data):]
            except BlockingIOError:
                pass
            except OSError:
                return  # the terminal is gone; the reader sees its end
            if not data:
                return
        elif len(self._out) + len(data) > self.block_limit:
            if acct is not None:
                acct.discarded += len(self._out) + len(data)
            self._out.clear()
            self.blocked = True
            self._cut = True
            self._unblocked = trio.Event()
            self._wake.set()
            return
        self._out += data
        self._wake.set()

    async def wait_unblocked(self) -> None:
        """Until the terminal reads again after output was dropped; then the caller redraws
        whole from the model."""
        await self._unblocked.wait()

    async def writer(self) -> None:
        """Drain the queue; exits when the terminal goes away."""
        while not self.closed:
            if self.paused or not self._out:
                if self.blocked and not self.paused:
                    await trio.lowlevel.wait_writable(self.fd)  # it reads again
                    self.blocked = False
                    self._unblocked.set()
                    continue
                self._wake = trio.Event()
                await self._wake.wait()
                continue
            try:
                n = os.write(self.fd, self._out)
            except BlockingIOError:
                await trio.lowlevel.wait_writable(self.fd)
                continue
            except OSError:
                self.closed = True
                self._unblocked.set()
                return
            del self._out[:n]

    def stop(self) -> None:
        """Put the terminal back as it was; safe to call twice."""
        if self.closed:
            return
        self.closed = True
        try:
            os.set_blocking(self.fd, True)
            data = bytes(self._out) + (LEAVE if self.alternate else LEAVE_MAIN)
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
