"""Composing what an attached client sees and sending only the rows that changed.

A frame is the client's current window — its visible panes, the borders between them — and the
status line, as rows of (character, style) cells. Each row becomes one string of text and SGR
codes; a row equal to what the terminal already shows is not sent. The frame goes out inside
synchronized-output brackets (``CSI ? 2026``) so terminals that know them never show half a
frame, and terminals that do not ignore them.
"""

from __future__ import annotations

import time
from typing import Any

from . import status
from .options import Style as OptStyle
from .screen.cells import DEFAULT_STYLE, char_width, sgr_change

Cell = tuple[str, tuple[int, int, int, int]]
BLANK: Cell = (" ", DEFAULT_STYLE)


def _style_tuple(sy: OptStyle | None) -> tuple[int, int, int, int]:
    if sy is None:
        return DEFAULT_STYLE
    return (sy.attr, sy.fg, sy.bg, 0)


def _place_runs(row: list[Cell], x0: int, width: int, runs: list[tuple[str, Any]]) -> None:
    """Write a pane row's runs into ``row`` from column ``x0``, at most ``width`` cells."""
    x = x0
    end = min(x0 + width, len(row))
    for text, style in runs:
        if text.isascii():
            n = min(len(text), end - x)
            if n <= 0:
                return
            row[x:x + n] = [(ch, style) for ch in text[:n]]
            x += n
            continue
        for ch in text:
            if x >= end:
                return
            w = char_width(ch[0]) if ch else 1
            if w == 2:
                if x + 1 >= end:
                    row[x] = (" ", style)
                    return
                row[x] = (ch, style)
                row[x + 1] = ("", style)
                x += 2
            elif w < 0:
                continue
            else:
                row[x] = (ch, style)
                x += 1


def _row_string(row: list[Cell]) -> str:
    out: list[str] = ["\x1b[0m"]
    last = DEFAULT_STYLE
    for ch, style in row:
        if not ch:
            continue  # the second half of a wide character
        if style != last:
            if style == DEFAULT_STYLE:
                out.append("\x1b[0m")
            else:
                out.append(sgr_change(last, style))
            last = style
        out.append(ch)
    return "".join(out)


def _border_style(server: Any, w: Any, name: str) -> OptStyle | None:
    """A border style option, its formats expanded for the window's active pane (the default
    active border is yellow while that pane is in a mode, red with synchronize-panes)."""
    value = w.options.get(name)
    if server is None or not isinstance(value, str) or "#{" not in value or w.active is None:
        return w.options.get_style(name)
    from .format import expand
    from .formats_vars import context_for_pane

    ctx = context_for_pane(server, w.active)
    return w.options.get_style(name, lambda text: expand(text, ctx))


class Renderer:
    """One client's frames; remembers what its terminal shows."""

    def __init__(self) -> None:
        self.shown: list[str] = []
        self.status_cells: list[Cell] | None = None
        self.status_time = 0.0

    def invalidate(self) -> None:
        self.shown = []
        self.status_cells = None

    def status_changed(self) -> None:
        """The window list, names, options or a plugin value changed: expand it again."""
        self.status_cells = None

    def frame(self, server: Any, client: Any, sx: int, sy: int) -> bytes:
        """Bytes that bring the terminal from what it shows to the current state."""
        s = client.session
        if s is None or s.curw is None:
            return b""
        wl = s.curw
        w = wl.window
        status_on = s.options.get("status") != "off"
        lines = 0
        if status_on:
            value = s.options.get("status")
            lines = 1 if value == "on" else int(value)
            lines = min(lines, sy)
        top = s.options.get("status-position") == "top"
        area_y = lines if top else 0
        area_h = sy - lines
        rows = [[BLANK] * sx for _ in range(sy)]
        wp_active = w.active
        panes = [wp_active] if w.zoomed and wp_active is not None else list(w.panes)
        covered = [[False] * sx for _ in range(max(area_h, 0))]
        for p in panes:
            for y in range(p.sy):
                ry = p.yoff + y
                if ry >= area_h:
                    break
                if p.xoff >= sx:
                    break
                src = p.modes[0] if p.modes else p.screen  # a pane mode draws instead
                _place_runs(rows[area_y + ry], p.xoff, min(p.sx, sx - p.xoff), src.row_runs(y))
                cov = covered[ry]
                for x in range(p.xoff, min(p.xoff + p.sx, sx)):
                    cov[x] = True
        if len(panes) > 1:
            self._borders(w, rows, covered, area_y, min(area_h, w.sy), min(sx, w.sx), panes,
                          server)
        overlay = getattr(client, "overlay", None)
        if overlay is not None:
            overlay.draw(server, client, rows, area_y, sx, area_h)
        prompt = getattr(client, "prompt", None)
        # A prompt or message takes the last status line, or the terminal's last (first)
        # line when the status line is off (screen_redraw_set_context).
        message_row = -1
        if prompt is not None or getattr(client, "message_text", None):
            message_row = (lines - 1 if top else sy - 1) if lines else (0 if top else sy - 1)
        if lines or message_row >= 0:
            now = time.monotonic()
            cells = self.status_cells
            if cells is None or len(cells) != sx or now - self.status_time >= 1.0:
                # Expanded at most once a second unless something it shows changed; pane
                # output alone does not change it.
                cells = self.status_cells = self._status(server, client, sx)
                self.status_time = now
            rows[message_row if message_row >= 0 else 0 if top else sy - lines] = list(cells)
        out: list[str] = ["\x1b[?2026h\x1b[?25l"]
        if len(self.shown) != sy:
            self.shown = [""] * sy
            out.append("\x1b[0m\x1b[H\x1b[2J")
        for y, row in enumerate(rows):
            text = _row_string(row)
            if text != self.shown[y]:
                out.append(f"\x1b[{y + 1};1H")
                out.append(text)
                self.shown[y] = text
        out.append("\x1b[0m")
        if prompt is not None:
            out.append(f"\x1b[{message_row + 1};{min(prompt.cursor, sx - 1) + 1}H")
        elif overlay is not None and overlay.nocursor:
            pass
        elif wp_active is not None and wp_active.modes:
            cur = wp_active.modes[0].cursor()
            if cur is not None:
                cx = min(wp_active.xoff + cur[0], sx - 1)
                out.append(f"\x1b[{area_y + wp_active.yoff + cur[1] + 1};{cx + 1}H\x1b[?25h")
        elif wp_active is not None:
            scr = wp_active.screen
            cx = min(wp_active.xoff + min(scr.cursor_x, wp_active.sx - 1), sx - 1)
            cy = area_y + wp_active.yoff + scr.cursor_y
            out.append(f"\x1b[{cy + 1};{cx + 1}H")
            if scr.cursor_visible and not wp_active.dead:
                out.append("\x1b[?25h")
        out.append("\x1b[?2026l")
        return "".join(out).encode("utf-8", "surrogateescape")

    @staticmethod
    def _borders(w: Any, rows: list[list[Cell]], covered: list[list[bool]], area_y: int,
                 h: int, width: int, panes: list[Any], server: Any = None) -> None:
        normal = _style_tuple(_border_style(server, w, "pane-border-style"))
        active = _style_tuple(_border_style(server, w, "pane-active-border-style"))
        ap = w.active

        def near_active(x: int, y: int) -> bool:
            if ap is None:
                return False
            return (ap.xoff - 1 <= x <= ap.xoff + ap.sx and ap.yoff - 1 <= y <= ap.yoff + ap.sy)

        for y in range(h):
            cov = covered[y]
            for x in range(width):
                if cov[x]:
                    continue
                left = x > 0 and cov[x - 1]
                right = x + 1 < width and cov[x + 1]
                up = y > 0 and not covered[y - 1][x]
                down = y + 1 < h and not covered[y + 1][x]
                horiz_l = x > 0 and not cov[x - 1]
                horiz_r = x + 1 < width and not cov[x + 1]
                if (left or right) and not (horiz_l or horiz_r):
                    ch = "│"
                elif not (up or down):
                    ch = "─"
                elif up and down and horiz_l and horiz_r:
                    ch = "┼"
                elif up and down and horiz_r:
                    ch = "├"
                elif up and down and horiz_l:
                    ch = "┤"
                elif down and horiz_l and horiz_r:
                    ch = "┬"
                elif up and horiz_l and horiz_r:
                    ch = "┴"
                elif up or down:
                    ch = "│" if not (horiz_l or horiz_r) else "─"
                else:
                    ch = "─"
                rows[area_y + y][x] = (ch, active if near_active(x, y) else normal)

    @staticmethod
    def _status(server: Any, client: Any, sx: int) -> list[Cell]:
        from .format import EXPAND_TIME, expand
        from .formats_vars import context_for

        s = client.session
        wl = s.curw
        message = getattr(client, "message_text", None)
        base = s.options.get_style("status-style") or OptStyle()
        prompt = getattr(client, "prompt", None)
        if prompt is not None:
            sty = s.options.get_style("message-style") or base
            csty = s.options.get_style("message-command-style") or base
            cells = prompt.cells(sx, sty, csty)
        elif message:
            sty = s.options.get_style("message-style") or base
            cells = status.draw(message, sx, sty)
        else:
            fmts = s.options.get("status-format")
            fmt = fmts[0] if fmts else ""
            ctx = context_for(server, client, s, wl, wl.window.active)
            cells = status.draw(expand(fmt, ctx, flags=EXPAND_TIME), sx, base)
        return cells[:sx] + [BLANK] * (sx - len(cells))
