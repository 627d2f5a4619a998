"""Which cells of a window are pane borders and how they are drawn, as tmux 3.3a's screen-redraw.

A border cell belongs to the first pane, starting at the active one, that calls it one of its
borders; its line character comes from which of its four neighbours are borders too
(``pane-border-lines``), its colour from whether that pane is the active one (and with
``pane-border-indicators colour`` and two panes only the half next to the active pane is
coloured), with arrows pointing at the active pane (``arrows``), the marked pane's borders in
reverse, and the cells beyond a window smaller than the terminal filled (``fill-character``).
With ``pane-border-status`` each pane has a line above or below it whose middle shows its
``pane-border-format``. The geometry is worked out once per layout (``Geometry``); drawing it
needs only the styles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# How a cell relates to one pane (screen_redraw_pane_border).
OUTSIDE, INSIDE, LEFT, RIGHT, TOP, BOTTOM = range(6)

# What kind of line a border cell is (tmux's CELL_* numbers, the index into the line sets).
(C_INSIDE, C_TOPBOTTOM, C_LEFTRIGHT, C_TOPLEFT, C_TOPRIGHT, C_BOTTOMLEFT, C_BOTTOMRIGHT,
 C_TOPJOIN, C_BOTTOMJOIN, C_LEFTJOIN, C_RIGHTJOIN, C_JOIN, C_OUTSIDE) = range(13)

# Neighbours that are borders (left 8, right 4, up 2, down 1) → the kind of cell.
_KIND = {15: C_JOIN, 14: C_BOTTOMJOIN, 13: C_TOPJOIN, 12: C_LEFTRIGHT, 11: C_RIGHTJOIN,
         10: C_BOTTOMRIGHT, 9: C_TOPRIGHT, 7: C_LEFTJOIN, 6: C_BOTTOMLEFT, 5: C_TOPLEFT,
         3: C_TOPBOTTOM}

# The line sets by kind; "single" is the ACS set as a UTF-8 terminal shows it.
LINES = {
    "single": " │─┌┐└┘┬┴├┤┼·",
    "double": " ║═╔╗╚╝╦╩╠╣╬·",
    "heavy": " ┃━┏┓┗┛┳┻┣┫╋·",
    "simple": " |-+++++++++.",
}

# pane-border-indicators arrows: on the active pane's border, pointing into it.
_ARROWS = {LEFT: "→", RIGHT: "←", TOP: "↓", BOTTOM: "↑"}

STATUS_OFF, STATUS_TOP, STATUS_BOTTOM = 0, 1, 2


def status_number(value: Any) -> int:
    return {"top": STATUS_TOP, "bottom": STATUS_BOTTOM}.get(str(value), STATUS_OFF)


def status_line(p: Any, status: int) -> tuple[int, int, int]:
    """(row, first column, width) of the middle of a pane's border status line."""
    row = p.yoff - 1 if status == STATUS_TOP else p.yoff + p.sy
    return row, p.xoff + 2, p.sx - 4 if p.sx >= 4 else 0


class Geometry:
    """A window's border cells for one layout: for each, its kind and the pane it belongs to.

    ``cells`` holds ``(y, x, kind, pane)`` for every cell of the ``width`` × ``height`` area
    that no pane covers (pane is None for the frame of a smaller window and beyond it);
    ``status`` the pane status lines as ``(pane, y, x, [kind per column])``.
    """

    def __init__(self, w: Any, panes: list[Any], active: Any, width: int, height: int,
                 status: int, split: bool) -> None:
        self.w, self.panes, self.active = w, panes, active
        self.wsx, self.wsy = w.sx, w.sy
        self.pstatus = status
        # screen_redraw_two_panes: exactly two panes side by side (or one above the other).
        second = w.panes[1] if len(w.panes) == 2 else None
        self.split_lr = split and status == STATUS_OFF and second is not None and second.xoff != 0
        self.split_tb = split and status == STATUS_OFF and second is not None and second.yoff != 0
        self._border: dict[tuple[int, int], bool] = {}
        # The cells a pane can call its own: itself and one cell around it.
        self._boxes = [(p, p.xoff - 1, p.xoff + p.sx, p.yoff - 1, p.yoff + p.sy) for p in panes]
        cover = [bytearray(width) for _ in range(height)]
        for p in panes:
            x0, x1 = min(p.xoff, width), min(p.xoff + p.sx, width)
            for y in range(max(p.yoff, 0), min(p.yoff + p.sy, height)):
                cover[y][x0:x1] = b"\1" * (x1 - x0)
        self.cover = cover
        order = self._order()
        self.status: list[tuple[Any, int, int, list[int]]] = []
        if status != STATUS_OFF:
            for p in order:
                y, x0, n = status_line(p, status)
                if 0 <= y < height and n:
                    self.status.append((p, y, x0, [self.kind(x, y) for x in range(x0, x0 + n)]))
                    row = cover[y]
                    end = min(x0 + n, width)
                    if x0 < end:
                        row[x0:end] = b"\1" * (end - x0)
        self.cells: list[tuple[int, int, int, Any]] = []
        for y in range(height):
            row = cover[y]
            x = row.find(0)
            while 0 <= x < width:
                kind, owner = self._check_cell(x, y, order)
                if kind != C_INSIDE:
                    self.cells.append((y, x, kind, owner))
                x = row.find(0, x + 1)

    def _order(self) -> list[Any]:
        """The visible panes from the active one on, as tmux walks them."""
        panes = self.panes
        if self.active in panes:
            i = panes.index(self.active)
            return panes[i:] + panes[:i]
        return list(panes)

    def relation(self, p: Any, px: int, py: int) -> int:
        """screen_redraw_pane_border: inside ``p``, on one of its borders, or neither."""
        ex, ey = p.xoff + p.sx, p.yoff + p.sy
        if p.xoff <= px < ex and p.yoff <= py < ey:
            return INSIDE
        status = self.pstatus
        if self.split_lr:
            if p.xoff == 0 and px == p.sx and py <= p.sy // 2:
                return RIGHT
            if p.xoff != 0 and px == p.xoff - 1 and py > p.sy // 2:
                return LEFT
        elif (p.yoff == 0 or py >= p.yoff - 1) and py <= ey:
            if p.xoff != 0 and px == p.xoff - 1:
                return LEFT
            if px == ex:
                return RIGHT
        if self.split_tb:
            if p.yoff == 0 and py == p.sy and px <= p.sx // 2:
                return BOTTOM
            if p.yoff != 0 and py == p.yoff - 1 and px > p.sx // 2:
                return TOP
        elif (p.xoff == 0 or px >= p.xoff - 1) and px <= ex:
            if status != STATUS_BOTTOM and p.yoff != 0 and py == p.yoff - 1:
                return TOP
            if status != STATUS_TOP and py == ey:
                return BOTTOM
        return OUTSIDE

    def is_border(self, px: int, py: int) -> bool:
        """screen_redraw_cell_border."""
        if px > self.wsx or py > self.wsy or px < 0 or py < 0:
            return False
        if px == self.wsx or py == self.wsy:
            return True
        key = (px, py)
        hit = self._border.get(key)
        if hit is None:
            hit = False
            for p, x0, x1, y0, y1 in self._boxes:
                if px < x0 or px > x1 or py < y0 or py > y1:
                    continue
                r = self.relation(p, px, py)
                if r == INSIDE:
                    break
                if r != OUTSIDE:
                    hit = True
                    break
            self._border[key] = hit
        return hit

    def kind(self, px: int, py: int) -> int:
        """screen_redraw_type_of_cell: the line joining the neighbouring borders."""
        if px > self.wsx or py > self.wsy:
            return C_OUTSIDE
        b = self.is_border
        bits = 0
        if px == 0 or b(px - 1, py):
            bits |= 8
        if b(px + 1, py):
            bits |= 4
        status = self.pstatus
        if status == STATUS_TOP:
            if py != 0 and b(px, py - 1):
                bits |= 2
            if b(px, py + 1):
                bits |= 1
        else:
            if py == 0 or b(px, py - 1):
                bits |= 2
            if (status != STATUS_BOTTOM or py != self.wsy - 1) and b(px, py + 1):
                bits |= 1
        return _KIND.get(bits, C_OUTSIDE)

    def _check_cell(self, px: int, py: int, order: list[Any]) -> tuple[int, Any]:
        """screen_redraw_check_cell for a cell no pane covers: its kind and owner."""
        if px > self.wsx or py > self.wsy:
            return C_OUTSIDE, None
        if px == self.wsx or py == self.wsy:
            return self.kind(px, py), None
        owner = None
        for p in order:
            owner = p
            if px < p.xoff - 1 or px > p.xoff + p.sx or py < p.yoff - 1 or py > p.yoff + p.sy:
                continue
            r = self.relation(p, px, py)
            if r == INSIDE:
                return C_INSIDE, p
            if r != OUTSIDE:
                return self.kind(px, py), p
        return C_OUTSIDE, owner  # tmux leaves the last pane it looked at


def line_char(lines: str, kind: int, owner: Any, w: Any, fill: str) -> str:
    """screen_redraw_border_set: the character of a border cell."""
    if kind == C_OUTSIDE and fill:
        return fill
    if lines == "number":
        if kind == C_OUTSIDE:
            return "·"
        if owner is None or owner not in w.panes:
            return "*"
        return str(w.pane_index(owner) % 10)
    return LINES.get(lines, LINES["single"])[kind]


def fill_character(value: Any) -> str:
    """window_set_fill_character: one valid single-width character, else none."""
    from .screen.cells import char_width

    text = str(value or "")
    if not text or "\ufffd" in text:
        return ""
    return text[0] if char_width(text[0]) == 1 or text[0].isascii() else ""


Cell = tuple[str, tuple[int, int, int, int]]
StyleOf = Callable[[Any], tuple[int, int, int, int]]


def draw(geo: Geometry, rows: list[list[Cell]], area_y: int, style_of: StyleOf,
         lines: str, arrows: bool, marked: Any, fill: str) -> None:
    """Write the border cells into ``rows`` (from row ``area_y``); ``style_of(pane)`` is the
    (attr, fg, bg, us) of a pane's borders (None: the frame of a smaller window)."""
    from .screen.cells import ATTR_REVERSE

    active, w = geo.active, geo.w
    styles: dict[int, tuple[int, int, int, int]] = {}
    for y, x, kind, owner in geo.cells:
        key = id(owner)
        st = styles.get(key)
        if st is None:
            st = styles[key] = style_of(owner)
        if owner is not None and marked is not None and geo.relation(marked, x, y) not in (
                INSIDE, OUTSIDE):
            st = (st[0] ^ ATTR_REVERSE, st[1], st[2], st[3])
        ch = line_char(lines, kind, owner, w, fill)
        if owner is not None and arrows and active is not None:
            rel = geo.relation(active, x, y)
            if rel not in (INSIDE, OUTSIDE) and (
                    (x == owner.xoff + 1 and (kind == C_LEFTRIGHT
                                              or (kind == C_TOPJOIN and rel == BOTTOM)
                                              or (kind == C_BOTTOMJOIN and rel == TOP)))
                    or (y == owner.yoff + 1 and (kind == C_TOPBOTTOM
                                                 or (kind == C_LEFTJOIN and rel == RIGHT)
                                                 or (kind == C_RIGHTJOIN and rel == LEFT)))):
                ch = _ARROWS[rel]
        rows[area_y + y][x] = (ch, st)
