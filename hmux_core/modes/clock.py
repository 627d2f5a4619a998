"""Clock mode (tmux 3.7b's window-clock.c): the time in big digits, any key leaves.

The digits are 5x5 blocks of ``#`` in the ``clock-mode-colour`` (foreground and background, so
a terminal without colours still shows them), 6 columns apart, centred; a pane too small for
them shows the time as text in that colour. ``clock-mode-style`` may add seconds; the clock
looks every second and a frame only changes when the text does.
"""

from __future__ import annotations

import time
from typing import Any

from ..screen.cells import DEFAULT_STYLE, Style
from . import Mode, redraw, reset_mode

_GLYPHS = {
    "0": ("11111", "10001", "10001", "10001", "11111"),
    "1": ("00001", "00001", "00001", "00001", "00001"),
    "2": ("11111", "00001", "11111", "10000", "11111"),
    "3": ("11111", "00001", "11111", "00001", "11111"),
    "4": ("10001", "10001", "11111", "00001", "00001"),
    "5": ("11111", "10000", "11111", "00001", "11111"),
    "6": ("11111", "10000", "11111", "10001", "11111"),
    "7": ("11111", "00001", "00001", "00001", "00001"),
    "8": ("11111", "10001", "11111", "10001", "11111"),
    "9": ("11111", "10001", "11111", "00001", "11111"),
    ":": ("00000", "00100", "00000", "00100", "00000"),
    "A": ("11111", "10001", "11111", "10001", "10001"),
    "P": ("11111", "10001", "11111", "10000", "10000"),
    "M": ("10001", "11011", "10101", "10001", "10001"),
}


def clock_text(style: int, now: float | None = None) -> str:
    """The time as window_clock_draw_screen formats it: 12-hour ``%l:%M AM`` (style 0) or
    ``%H:%M`` (1), with ``:%S`` for the with-seconds styles (2 and 3)."""
    tm = time.localtime(now)
    if style in (0, 2):
        text = time.strftime("%l:%M:%S " if style == 2 else "%l:%M ", tm)
        return text + ("PM" if tm.tm_hour >= 12 else "AM")
    return time.strftime("%H:%M:%S" if style == 3 else "%H:%M", tm)


_STYLES = {"12": 0, "24": 1, "12-with-seconds": 2, "24-with-seconds": 3}


class ClockMode(Mode):
    name = "clock-mode"

    def __init__(self, server: Any, wp: Any) -> None:
        super().__init__(server, wp)
        self.sx, self.sy = wp.sx, wp.sy
        self.text = ""
        self._rows: list[list[tuple[str, Style]]] = []
        self._draw()
        self._cancel = None
        if server.nursery is not None:
            import trio

            self._cancel = trio.CancelScope()
            server.nursery.start_soon(self._tick, self._cancel)

    async def _tick(self, scope: Any) -> None:
        """window_clock_timer_callback: wake at each second's start, redraw on a change."""
        import trio

        with scope:
            while True:
                now = time.time()
                await trio.sleep(max(1.0 - (now - int(now)), 0.001))
                if self.wp.modes and self.wp.modes[0] is self:
                    if self._draw():
                        redraw(self)

    def free(self) -> None:
        if self._cancel is not None:
            self._cancel.cancel()

    def resize(self, sx: int, sy: int) -> None:
        self.sx, self.sy = sx, sy
        self.text = ""
        self._draw()

    def key(self, client: Any, key: int, sent: bool = False) -> None:
        reset_mode(self.server, self.wp)

    def _colour(self, opts: Any) -> int:
        """clock-mode-colour; a format is expanded for this pane (the development tree's
        format_create_defaults with only the pane), and '' (-1) draws in the default colour."""
        from .. import format as F
        from ..formats_vars import ModelContext
        from ..options import colour_option

        def expand(text: str) -> str:
            return F.expand(text, ModelContext(self.server, None, None, None, self.wp))
        colour = colour_option(opts, "clock-mode-colour", expand)
        return 8 if colour == -1 else colour

    def _draw(self) -> bool:
        """window_clock_draw_screen; False when the text is what is already drawn."""
        opts = self.wp.window.options
        colour = self._colour(opts)
        style = _STYLES.get(str(opts.get("clock-mode-style")), 1)
        tim = clock_text(style)
        sx, sy = self.sx, self.sy
        if tim == self.text and len(self._rows) == sy and (not sy or len(self._rows[0]) == sx):
            return False
        self.text = tim
        rows = [[(" ", DEFAULT_STYLE)] * sx for _ in range(sy)]
        self._rows = rows
        if sx < 6 * len(tim) or sy < 6:
            if sx >= len(tim) and sy != 0:
                x = sx // 2 - len(tim) // 2
                row = rows[sy // 2]
                st = (0, colour, 8, 0)
                lead = len(tim) - len(tim.lstrip(" "))  # tmux's terminal output clears
                for i, ch in enumerate(tim):  # the blanks before the text
                    if lead <= i and x + i < sx:
                        row[x + i] = (ch, st)
            return True
        x = sx // 2 - 3 * len(tim)
        y = sy // 2 - 3
        block = (0, colour, colour, 0)
        for ch in tim:
            glyph = _GLYPHS.get(ch)
            if glyph is not None:
                for j, line in enumerate(glyph):
                    for i, bit in enumerate(line):
                        if bit == "1" and 0 <= x + i < sx and 0 <= y + j < sy:
                            rows[y + j][x + i] = ("#", block)
            x += 6
        return True

    def row_runs(self, y: int) -> list[tuple[str, Style]]:
        runs: list[tuple[str, Style]] = []
        for ch, st in self._rows[y]:
            if runs and runs[-1][1] == st:
                runs[-1] = (runs[-1][0] + ch, st)
            else:
                runs.append((ch, st))
        return runs
