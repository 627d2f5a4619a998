"""A frozen copy of a screen's history and visible lines: copy mode's backing grid.

tmux's copy mode works on a clone of the pane's grid taken when the mode starts, so output that
arrives later does not move what is being read or selected. History lines are shared compact
objects that the engine may still change (wrap flags, style ids after compaction), so the copy
takes its own line records and its own style table; cells are decoded only when read.
"""

from __future__ import annotations

from .cells import Style
from .grid import LINE_START_OUTPUT, LINE_START_PROMPT, HistLine

#: Line mark bits -> the names copy mode asks for.
_MARKS = tuple(
    frozenset(name for bit, name in ((LINE_START_PROMPT, "prompt"), (LINE_START_OUTPUT, "output"))
              if m & bit)
    for m in range(4)
)


class Snapshot:
    """Lines 0..hsize-1 are history (oldest first), then ``sy`` visible lines."""

    __slots__ = ("sx", "sy", "hsize", "cursor_x", "cursor_y", "_lines", "_styles", "_cells")

    def __init__(self, lines: list[HistLine], styles: list[Style], sx: int, sy: int,
                 hsize: int, cursor_x: int, cursor_y: int) -> None:
        self.sx, self.sy, self.hsize = sx, sy, hsize
        self.cursor_x, self.cursor_y = cursor_x, cursor_y
        self._lines = lines
        self._styles = styles
        self._cells: dict[int, tuple[list[str], list[int]]] = {}

    def __len__(self) -> int:
        return len(self._lines)

    def lines(self) -> list[HistLine]:
        """The frozen lines themselves, history first (capture-pane -M prints them)."""
        return self._lines

    def _decode(self, y: int) -> tuple[list[str], list[int]]:
        got = self._cells.get(y)
        if got is None:
            got = self._cells[y] = self._lines[y].cells_full()
        return got

    def plain(self, y: int) -> str | None:
        """Line ``y`` as exactly ``sx`` characters, one per cell, when it can be read without
        decoding cells (no wide or combined characters); else None."""
        line = self._lines[y]
        if line.cellmap is not None or line.used > self.sx:
            return None
        text = line.text
        return text + " " * (self.sx - len(text)) if len(text) < self.sx else text

    def chars(self, y: int) -> list[str]:
        """Cells of line ``y`` up to its cell size; ``""`` is the right half of a wide one."""
        return self._decode(y)[0]

    def cell(self, x: int, y: int) -> str:
        """grid_get_cell's character: a blank past the line's cells."""
        chars = self._decode(y)[0]
        return chars[x] if x < len(chars) else " "

    def style(self, x: int, y: int) -> Style:
        styles = self._decode(y)[1]
        return self._styles[styles[x]] if x < len(styles) else self._styles[0]

    def style_ids(self, y: int) -> list[int]:
        """Style ids of line ``y``'s cells, indexes into :meth:`styles_table`."""
        return self._decode(y)[1]

    def styles_table(self) -> list[Style]:
        return self._styles

    def cellsize(self, y: int) -> int:
        return self._lines[y].size

    def wrapped(self, y: int) -> bool:
        return self._lines[y].wrapped

    def line_flags(self, y: int) -> frozenset[str]:
        """The marks OSC 133 left on line ``y``: ``"prompt"`` (``A``) and ``"output"``
        (``C``), what copy mode's previous-prompt and next-prompt (``-o``) look for."""
        return _MARKS[self._lines[y].flags & 3]

    def line_time(self, y: int) -> int:
        """When line ``y`` scrolled into history (0 for one that never did): copy mode's
        #{top_line_time}, which its position indicator shows."""
        return self._lines[y].time

    def used(self, y: int) -> int:
        return self._lines[y].used

    def wrap_position(self, px: int, py: int) -> tuple[int, int]:
        """grid_wrap_position: a cell as (offset in its unwrapped line, unwrapped line); the
        offset is -1 at or past the line's end."""
        ax = wy = 0
        lines = self._lines
        for yy in range(min(py, len(lines))):
            if lines[yy].wrapped:
                ax += lines[yy].used
            else:
                ax = 0
                wy += 1
        if py >= len(lines) or px >= lines[py].used:
            return -1, wy  # at or past the end: stays at the end
        return ax + px, wy

    def unwrap_position(self, wx: int, wy: int) -> tuple[int, int]:
        """grid_unwrap_position: the cell an unwrapped position is in now."""
        lines = self._lines
        yy = 0
        while yy < len(lines) - 1 and wy != 0:
            if not lines[yy].wrapped:
                wy -= 1
            yy += 1
        if wx < 0:
            while yy < len(lines) - 1 and lines[yy].wrapped:
                yy += 1
            return lines[yy].used, yy
        while yy < len(lines) - 1 and lines[yy].wrapped:
            if wx < lines[yy].used:
                break
            wx -= lines[yy].used
            yy += 1
        return wx, yy

    def length(self, y: int) -> int:
        """grid_line_length: cells up to the last one that is not a plain space."""
        chars = self._decode(y)[0]
        px = min(len(chars), self.sx)
        while px > 0 and chars[px - 1] == " ":
            px -= 1
        return px

    def text(self, y: int, first: int = 0, last: int | None = None) -> str:
        """The characters of cells ``first``..``last`` (padding skipped, blanks past the end)."""
        chars = self._decode(y)[0]
        end = self.sx if last is None else last
        s = "".join(chars[first:end])
        n = end - max(first, len(chars))
        return s + " " * n if n > 0 else s
