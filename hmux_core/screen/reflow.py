"""Resizing: tmux's height change rules and its reflow of wrapped lines (grid_reflow).

Lines are handled as a flat list ``history + visible``; a line is a :class:`Row`,
:class:`HistLine` or, once reflow had to touch its cells, a :class:`_RLine`. Lines that reflow
only moves are kept as they are, so a resize costs per-cell work only for wrapped or overlong
lines.
"""

from __future__ import annotations

from .cells import char_width
from .grid import HistLine, Row, cell_widths

UINT_MAX = 0xFFFFFFFF


class _RLine:
    """A line being rebuilt by reflow: cells below ``used`` only, and tmux's cell size."""

    __slots__ = ("chars", "styles", "used", "wrapped", "wide", "flags", "size", "time")

    def __init__(self, chars: list[str], styles: list[int], wrapped: bool, wide: bool,
                 flags: int = 0, size: int | None = None, time: int = 0) -> None:
        self.chars = chars
        self.styles = styles
        self.used = len(chars)
        self.wrapped = wrapped
        self.wide = wide
        self.flags = flags
        self.size = self.used if size is None else size
        self.time = time  # a history line's time stays with its first part

    def cells(self) -> tuple[list[str], list[int]]:
        return self.chars, self.styles

    def set_cell(self, x: int, c: str, sid: int, sx: int) -> None:
        """grid_set_cell on the reflowed grid: the line grows by grid_expand_line's steps
        for the new width."""
        chars = self.chars
        n = len(chars)
        if x >= n:
            if x > n:
                chars.extend([" "] * (x - n))
                self.styles.extend([0] * (x - n))
            chars.append(c)
            self.styles.append(sid)
        else:
            chars[x] = c
            self.styles[x] = sid
        if x + 1 > self.used:
            self.used = x + 1
        if x + 1 > self.size:
            need = x + 1
            if need < sx // 4:
                need = sx // 4
            elif need < sx // 2:
                need = sx // 2
            elif sx > need:
                need = sx
            self.size = need
        if len(c) != 1:
            self.wide = True


def _mutable(line: Row | HistLine | _RLine) -> _RLine:
    if isinstance(line, _RLine):
        return line
    chars, styles = line.cells()
    return _RLine(list(chars), list(styles), line.wrapped, line.wide, line.flags, line.size,
                  getattr(line, "time", 0))


def reflow_widths(chars: list[str]) -> list[int]:
    """Cell widths as tmux 3.7b's reflow reads them: a character has the width it was written
    with (the padding cells after it, or its own width if they went elsewhere) and a padding
    cell, stored as a plain cell since tmux 3.5, counts as one."""
    out = cell_widths(chars)
    for i, c in enumerate(chars):
        if c == "":
            out[i] = 1
        elif c[0] != "\t" and out[i] == 1:
            w = char_width(c[0])
            if w > 1:
                out[i] = w
    return out


def _widths(line: Row | HistLine | _RLine) -> list[int]:
    return reflow_widths(line.cells()[0])


def reflow(lines: list, sx: int, hscrolled: int) -> tuple[list, int]:
    """Reflow ``lines`` to width ``sx``; returns the new lines and the new hscrolled."""
    src: list = list(lines)
    target: list = []
    nsrc = len(src)

    def join(yy: int, width: int, already: bool) -> None:
        nonlocal hscrolled
        if not already:
            to = len(target)
            gl = _mutable(src[yy])
            target.append(gl)
            src[yy] = None
        else:
            to = len(target) - 1
            gl = target[to] = _mutable(target[to])
        at = gl.used
        nlines = 0
        wrapped = True
        frm = None
        want = 0
        while True:
            if yy + 1 + nlines == nsrc:
                break
            line = yy + 1 + nlines
            ln = src[line]
            if not ln.wrapped:
                wrapped = False
            if ln.used == 0:
                if not wrapped:
                    break
                nlines += 1
                continue
            chars, styles = ln.cells()
            lw = reflow_widths(chars) if ln.wide else None
            w = lw[0] if lw is not None else 1
            if width + w > sx:
                break
            width += w
            gl.set_cell(at, chars[0], styles[0], sx)
            at += 1
            frm = ln = src[line] = _mutable(ln)
            chars, styles = ln.chars, ln.styles
            want = 1
            while want < ln.used:
                w = lw[want] if lw is not None else 1
                if width + w > sx:
                    break
                width += w
                gl.set_cell(at, chars[want], styles[want], sx)
                at += 1
                want += 1
            nlines += 1
            if not wrapped or want != ln.used or width == sx:
                break
        if nlines == 0:
            return
        left = frm.used - want if frm is not None else 0
        if left != 0:
            frm.chars = frm.chars[want : want + left]
            frm.styles = frm.styles[want : want + left]
            frm.used = frm.size = left
            nlines -= 1
        elif not wrapped:
            gl.wrapped = False
        for i in range(yy + 1, yy + 1 + nlines):
            src[i] = None
        if hscrolled > to + nlines:
            hscrolled -= nlines
        elif hscrolled > to:
            hscrolled = to

    def split(yy: int, at: int) -> None:
        nonlocal hscrolled
        gl = src[yy]
        used = gl.used
        was_wrapped = gl.wrapped
        chars, styles = gl.cells()
        widths = reflow_widths(chars) if gl.wide else None
        if widths is None:
            nl = 1 + (used - 1) // sx
        else:
            nl = 2
            width = 0
            for i in range(at, used):
                w = widths[i]
                if width + w > sx:
                    nl += 1
                    width = 0
                width += w
        first = len(target)
        new = [_RLine([], [], False, False) for _ in range(nl)]
        target.extend(new)
        line = first + 1
        width = 0
        xx = 0
        for i in range(at, used):
            w = widths[i] if widths is not None else 1
            if width + w > sx:
                target[line].wrapped = True
                line += 1
                if line >= len(target):
                    target.append(_RLine([], [], False, False))
                width = 0
                xx = 0
            width += w
            target[line].set_cell(xx, chars[i], styles[i], sx)
            xx += 1
        if was_wrapped:
            target[line].wrapped = True
        target[first] = _RLine(list(chars[:at]), list(styles[:at]), True, gl.wide, gl.flags, at,
                               getattr(gl, "time", 0))
        src[yy] = None
        if yy <= hscrolled:
            hscrolled += nl - 1
        if width < sx and was_wrapped:
            join(yy, width, True)

    for yy in range(nsrc):
        gl = src[yy]
        if gl is None:
            continue
        if not gl.wide:
            width = gl.used
            at = sx if width > sx else width
        else:
            at = width = 0
            for i, w in enumerate(_widths(gl)):
                if at == 0 and width + w > sx:
                    at = i
                width += w
        if width == sx:
            target.append(gl)
            src[yy] = None
            continue
        if width > sx:
            split(yy, at)
            continue
        if gl.wrapped:
            join(yy, width, False)
        else:
            target.append(gl)
            src[yy] = None
    return target, hscrolled


def wrap_position(lines: list, px: int, py: int) -> tuple[int, int]:
    """tmux's grid_wrap_position: the cursor as (offset in logical line, logical line)."""
    ax = ay = 0
    for yy in range(py):
        ln = lines[yy]
        if ln.wrapped:
            ax += ln.used
        else:
            ax = 0
            ay += 1
    if py >= len(lines) or px >= lines[py].used:
        ax = UINT_MAX
    else:
        ax += px
    return ax, ay


def unwrap_position(lines: list, wx: int, wy: int) -> tuple[int, int]:
    """tmux's grid_unwrap_position."""
    ay = 0
    yy = 0
    total = len(lines)
    while yy < total - 1:
        if ay == wy:
            break
        if not lines[yy].wrapped:
            ay += 1
        yy += 1
    if wx == UINT_MAX:
        while yy < total - 1 and lines[yy].wrapped:
            yy += 1
        wx = lines[yy].used
    else:
        while yy < total - 1 and lines[yy].wrapped:
            if wx < lines[yy].used:
                break
            wx -= lines[yy].used
            yy += 1
    return wx, yy
