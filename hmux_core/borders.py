"""Which cells of a window are pane borders and how they are drawn, as tmux 3.7b's screen-redraw.

A border cell belongs to a pane: tmux starts at the first pane in its z-order whose box (the
pane and one cell around it, and the scrollbar's columns) holds the cell, and walks on from
there until one calls the cell one of its borders. Its line character comes from which of its
four neighbours are borders too (``pane-border-lines``), its colour from whether it is on the
active pane's border (with ``pane-border-indicators colour`` or ``both`` and two panes only the
half next to the active pane is coloured), with arrows pointing at the active pane (``arrows``),
the marked pane's borders in reverse, and the cells beyond a window smaller than the terminal
filled (``fill-character``). With ``pane-border-status`` each pane has a line above or below it
that shows its ``pane-border-format`` from its third column to the column before its right
border. With ``pane-scrollbars`` a pane's scrollbar columns sit beside it, inside its borders.
The geometry is worked out once per layout (``Geometry``); drawing it needs only the styles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# How a cell relates to one pane (screen_redraw_pane_border).
OUTSIDE, INSIDE, LEFT, RIGHT, TOP, BOTTOM = range(6)

# What kind of line a border cell is (tmux's CELL_* numbers, the index into the line sets);
# C_SCROLLBAR is a pane's scrollbar column, drawn by the scrollbar and not as a border.
(C_INSIDE, C_TOPBOTTOM, C_LEFTRIGHT, C_TOPLEFT, C_TOPRIGHT, C_BOTTOMLEFT, C_BOTTOMRIGHT,
 C_TOPJOIN, C_BOTTOMJOIN, C_LEFTJOIN, C_RIGHTJOIN, C_JOIN, C_OUTSIDE, C_SCROLLBAR) = range(14)

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

# pane-border-indicators arrows (BORDER_MARKERS in ACS): pointing into the active pane.
_ARROWS = {LEFT: "→", RIGHT: "←", TOP: "↓", BOTTOM: "↑"}

STATUS_OFF, STATUS_TOP, STATUS_BOTTOM = 0, 1, 2


def status_number(value: Any) -> int:
    return {"top": STATUS_TOP, "bottom": STATUS_BOTTOM}.get(str(value), STATUS_OFF)


class Scrollbars:
    """The window's pane scrollbars as the border geometry needs them: whether they are on the
    left (``pane-scrollbars`` not off and ``pane-scrollbars-position left``), and for each
    pane the columns of its scrollbar style (``box``: width and pad, which tmux counts in a
    pane's box even when no scrollbar shows) and of its scrollbar when one shows (``shown``)."""

    __slots__ = ("left", "box", "shown")

    def __init__(self, left: bool = False, box: dict[int, int] | None = None,
                 shown: dict[int, int] | None = None) -> None:
        self.left = left
        self.box = box or {}
        self.shown = shown or {}

    def key(self) -> tuple:
        return (self.left, sorted(self.box.items()), sorted(self.shown.items()))


_NO_SCROLLBARS = Scrollbars()


class Geometry:
    """A window's border cells for one layout and view: for each, its kind, the pane it
    belongs to and whether it is on the active pane's border.

    ``cells`` holds ``(y, x, kind, pane, active)`` for every cell of the ``width`` ×
    ``height`` area (window coordinates) that no pane, pane status line or scrollbar covers
    (pane is None for the frame of a smaller window and beyond it); ``status`` the pane
    status lines as ``(pane, y, x, [kind per column])``. ``ox``/``oy`` are where the view
    of a window larger than the terminal starts (tmux compares some terminal coordinates
    with window ones, and so does this).
    """

    def __init__(self, w: Any, panes: list[Any], active: Any, width: int, height: int,
                 status: int, split: bool, zorder: list[Any] | None = None,
                 scrollbars: Scrollbars | None = None, ox: int = 0, oy: int = 0) -> None:
        self.w, self.panes, self.active = w, panes, active
        self.wsx, self.wsy = w.sx, w.sy
        self.pstatus = status
        self.ox, self.oy = ox, oy
        self.sb = scrollbars or _NO_SCROLLBARS
        all_panes = list(w.panes)
        self.zorder = list(zorder) if zorder is not None else sorted(all_panes,
                                                                      key=lambda p: p.id)
        visible = {id(p) for p in panes}
        self._visible_z = [p for p in self.zorder if id(p) in visible]
        # Floating panes (tmux 3.7b): their borders are their own, drawn over the tiled ones
        self.floating = {id(p) for p in all_panes if getattr(p, "floating", False)}
        self._tiled_z = [p for p in self._visible_z if id(p) not in self.floating]
        # screen_redraw_two_panes: two tiled panes, split one way; not while zoomed.
        self.two = False
        self.hsplit = self.vsplit = False
        tiled = [p for p in all_panes if id(p) not in self.floating]
        if len(tiled) == 2 and not w.zoomed:
            lc = w.layout.cell_of(tiled[1]) if w.layout is not None else None
            parent = lc.parent if lc is not None else None
            if parent is not None:
                from .layout import LEFTRIGHT

                self.two = True
                if split:
                    self.hsplit = parent.type == LEFTRIGHT
                    self.vsplit = not self.hsplit
        self._border: dict[tuple[int, int], bool] = {}
        self.status_size = {p.id: self._status_size(p) for p in all_panes}
        cover = [bytearray(width) for _ in range(height)]
        for p in panes:
            if id(p) in self.floating:
                continue
            x0, x1 = max(min(p.xoff, width), 0), min(p.xoff + p.sx, width)
            for y in range(max(p.yoff, 0), min(p.yoff + p.sy, height)):
                cover[y][x0:x1] = b"\1" * (x1 - x0)
        self.cover = cover
        self.status: list[tuple[Any, int, int, list[int]]] = []
        if status != STATUS_OFF:
            for p in all_panes:
                if id(p) not in visible:
                    continue
                y = p.yoff - 1 if status == STATUS_TOP else p.yoff + p.sy
                x0, n = p.xoff + 2, self.status_size[p.id]
                if 0 <= y < height and n:
                    self.status.append((p, y, x0, [self.kind(x, y, p)
                                                   for x in range(x0, x0 + n)]))
                    row = cover[y]
                    end = min(x0 + n, width)
                    if x0 < end:
                        row[x0:end] = b"\1" * (end - x0)
        # each floating pane from the bottom up: its box (its borders) is border cells
        # whatever is under it, its inside covered (clipped to the window, as tmux does)
        for p in reversed(self._visible_z):
            if id(p) not in self.floating:
                continue
            sb_w = self.sb.shown.get(p.id, 0)
            lb = p.xoff - 1 - (sb_w if self.sb.left else 0)
            rb = p.xoff + p.sx + (0 if self.sb.left else sb_w)
            lim_x, lim_y = min(width, self.wsx), min(height, self.wsy)
            x0, x1 = max(lb, 0), min(rb + 1, lim_x)
            for y in range(max(p.yoff - 1, 0), min(p.yoff + p.sy + 1, lim_y)):
                if x0 < x1:
                    cover[y][x0:x1] = bytes(x1 - x0)
            x0, x1 = max(p.xoff, 0), min(p.xoff + p.sx, lim_x)
            for y in range(max(p.yoff, 0), min(p.yoff + p.sy, lim_y)):
                if x0 < x1:
                    cover[y][x0:x1] = b"\1" * (x1 - x0)
        # the pane status lines a floating pane above them hides
        self.status_hidden: set[tuple[int, int]] = set()
        if self.floating and self.status:
            rank = {id(p): i for i, p in enumerate(self.zorder)}
            for p, y, x0, kinds in self.status:
                for q in self._visible_z:
                    if id(q) not in self.floating or rank[id(q)] >= rank.get(id(p), 0):
                        continue
                    if not q.yoff - 1 <= y <= q.yoff + q.sy:
                        continue
                    sb_w = self.sb.shown.get(q.id, 0)
                    lb = q.xoff - 1 - (sb_w if self.sb.left else 0)
                    rb = q.xoff + q.sx + (0 if self.sb.left else sb_w)
                    for x in range(max(x0, lb), min(x0 + len(kinds), rb + 1)):
                        self.status_hidden.add((x, y))
        self.cells: list[tuple[int, int, int, Any, bool]] = []
        for y in range(height):
            row = cover[y]
            x = row.find(0)
            while 0 <= x < width:
                kind, owner = self.check_cell(x, y)
                if kind not in (C_INSIDE, C_SCROLLBAR):
                    if owner is not None and id(owner) in self.floating:
                        act = owner is active  # a floating pane's own border
                    else:
                        act = active is not None and self.is_on(active, x, y)
                    self.cells.append((y, x, kind, owner, act))
                x = row.find(0, x + 1)

    def _status_size(self, p: Any) -> int:
        """screen_redraw_make_pane_status: the width of a pane's status line."""
        width = 0 if p.sx < 4 else p.sx + self.sb.shown.get(p.id, 0) - 2
        return max(min(width, self.wsx - (p.xoff + 2)), 0)

    def relation(self, p: Any, px: int, py: int) -> int:
        """screen_redraw_pane_border: inside ``p``, on one of its borders, or neither."""
        xoff, yoff, sx, sy = p.xoff, p.yoff, p.sx, p.sy
        ex, ey = xoff + sx, yoff + sy
        if xoff <= px < ex and yoff <= py < ey:
            return INSIDE
        sb_w = self.sb.shown.get(p.id, 0)
        if id(p) in self.floating:
            # a floating pane's box: all four sides, its scrollbar inside them
            left, right = xoff - 1, xoff + sx
            if self.sb.left:
                left -= sb_w
            else:
                right += sb_w
            if yoff - 1 <= py <= yoff + sy:
                if px == left:
                    return LEFT
                if px == right:
                    return RIGHT
            if left < px <= right:
                if py == yoff - 1:
                    return TOP
                if py == yoff + sy:
                    return BOTTOM
            return OUTSIDE
        hsplit = self.hsplit
        if (yoff == 0 or py >= yoff - 1) and py <= ey:
            if self.sb.left:
                if xoff - sb_w == 0 and px == sx + sb_w and (not hsplit or py <= sy // 2):
                    return RIGHT
                if xoff - sb_w != 0:
                    if px == xoff - sb_w - 1 and (not hsplit or py > sy // 2):
                        return LEFT
                    if px == xoff + sx + sb_w - 1:
                        return RIGHT
            else:
                if xoff == 0 and px == sx + sb_w and (not hsplit or py <= sy // 2):
                    return RIGHT
                if xoff != 0:
                    if px == xoff - 1 and (not hsplit or py > sy // 2):
                        return LEFT
                    if px == xoff + sx + sb_w:
                        return RIGHT
        status = self.pstatus
        if self.vsplit and status == STATUS_OFF:
            if yoff == 0 and py == sy and px <= sx // 2:
                return BOTTOM
            if yoff != 0 and py == yoff - 1 and px > sx // 2:
                return TOP
        else:
            if self.sb.left:
                inside = xoff - sb_w == 0 or px >= xoff - sb_w
            else:
                inside = xoff == 0 or px >= xoff
            if inside and (px <= ex or (sb_w != 0 and px < ex + sb_w)):
                if status != STATUS_BOTTOM and yoff != 0 and py == yoff - 1:
                    return TOP
                if status != STATUS_TOP and py == ey:
                    return BOTTOM
        return OUTSIDE

    def is_on(self, p: Any, px: int, py: int) -> bool:
        """screen_redraw_check_is: is the cell one of ``p``'s borders?"""
        return self.relation(p, px, py) not in (INSIDE, OUTSIDE)

    def is_border(self, px: int, py: int, wp: Any = None) -> bool:
        """screen_redraw_cell_border: for a floating wp only its own box counts; otherwise
        the first visible tiled pane in z-order that has the cell inside or on its border
        decides."""
        if wp is not None and id(wp) in self.floating:
            sb_w = self.sb.box.get(wp.id, 0)
            if self.sb.left:
                far_x = px < wp.xoff - 1 - sb_w or px > wp.xoff + wp.sx
            else:
                far_x = px < wp.xoff - 1 or px > wp.xoff + wp.sx + sb_w
            if far_x and (py < wp.yoff - 1 or py > wp.yoff + wp.sy):
                return False
            return self.relation(wp, px, py) not in (INSIDE, OUTSIDE)
        sx, sy = self.wsx, self.wsy
        if self.pstatus == STATUS_BOTTOM:
            sy -= 1
        if px > sx or py > sy:
            return False
        if px == sx or py == sy:
            return True
        key = (px, py)
        hit = self._border.get(key)
        if hit is None:
            hit = False
            for p in self._tiled_z:
                r = self.relation(p, px, py)
                if r == INSIDE:
                    break
                if r != OUTSIDE:
                    hit = True
                    break
            self._border[key] = hit
        return hit

    def kind(self, px: int, py: int, wp: Any = None) -> int:
        """screen_redraw_type_of_cell: the line joining the neighbouring borders (of a
        floating wp, its own only, and the window's edges do not count)."""
        sx, sy = self.wsx, self.wsy
        status = self.pstatus
        if status == STATUS_BOTTOM:
            sy -= 1
        if px > sx or py > sy:
            return C_OUTSIDE
        if wp is not None and id(wp) in self.floating:
            bits = 0
            if self.is_border(px - 1, py, wp):
                bits |= 8
            if px <= sx and self.is_border(px + 1, py, wp):
                bits |= 4
            if self.is_border(px, py - 1, wp) and (py != 0 or status != STATUS_TOP):
                bits |= 2
            if self.is_border(px, py + 1, wp) and (py != sy or status != STATUS_BOTTOM):
                bits |= 1
            return _KIND.get(bits, C_OUTSIDE)
        b = self.is_border
        bits = 0
        if px == 0 or b(px - 1, py):
            bits |= 8
        if px <= sx and b(px + 1, py):
            bits |= 4
        if status == STATUS_TOP:
            if py != 0 and b(px, py - 1):
                bits |= 2
            if b(px, py + 1):
                bits |= 1
        elif status == STATUS_BOTTOM:
            if py == 0 or b(px, py - 1):
                bits |= 2
            if py != sy and b(px, py + 1):
                bits |= 1
        else:
            if py == 0 or b(px, py - 1):
                bits |= 2
            if b(px, py + 1):
                bits |= 1
        return _KIND.get(bits, C_OUTSIDE)

    def _in_box(self, p: Any, px: int, py: int) -> bool:
        """The pane, one cell around it and its scrollbar style's columns."""
        sb_w = self.sb.box.get(p.id, 0)
        if self.sb.left:
            x0, x1 = p.xoff - 1 - sb_w, p.xoff + p.sx
        else:
            x0, x1 = p.xoff - 1, p.xoff + p.sx + sb_w
        return x0 <= px <= x1 and p.yoff - 1 <= py <= p.yoff + p.sy

    def _near(self, p: Any, px: int, py: int) -> bool:
        """screen_redraw_check_cell's skip test: near in one direction at least."""
        sb_w = self.sb.box.get(p.id, 0)
        if self.sb.left:
            x0, x1 = p.xoff - 1 - sb_w, p.xoff + p.sx
        else:
            x0, x1 = p.xoff - 1, p.xoff + p.sx + sb_w
        return x0 <= px <= x1 or p.yoff - 1 <= py <= p.yoff + p.sy

    def check_cell(self, px: int, py: int) -> tuple[int, Any]:
        """screen_redraw_check_cell: a cell's kind and the pane it belongs to."""
        sx, sy = self.wsx, self.wsy
        if px > sx or py > sy:
            return C_OUTSIDE, None
        zorder = self.zorder
        edge = px >= sx or py >= sy  # floating panes are clipped to the window
        start = next((i for i, p in enumerate(zorder)
                      if not (edge and id(p) in self.floating) and self._in_box(p, px, py)),
                     None)
        if start is None:
            if self.active is None or self.active not in zorder:
                return C_OUTSIDE, None
            start = zorder.index(self.active)
        if px == sx or py == sy:
            return self.kind(px, py, zorder[start]), None
        visible = self._visible_z
        tiled_only = id(zorder[start]) not in self.floating
        status = self.pstatus
        owner = None
        n = len(zorder)
        for k in range(n):
            p = zorder[(start + k) % n]
            if p not in visible or (tiled_only and id(p) in self.floating):
                continue
            owner = p
            if not self._near(p, px, py):
                continue
            if status != STATUS_OFF:
                line = p.yoff - 1 if status == STATUS_TOP else p.yoff + p.sy
                left = p.xoff + 2
                if py == line + self.oy and left <= px <= left + self.status_size[p.id] - 1:
                    return C_INSIDE, p
            sb_w = self.sb.shown.get(p.id, 0)
            if sb_w and ((p.yoff == 0 and py < p.sy) or p.yoff <= py < p.yoff + p.sy):
                if self.sb.left:
                    if p.xoff - sb_w <= px < p.xoff:
                        return C_SCROLLBAR, p
                elif p.xoff + p.sx <= px < p.xoff + p.sx + sb_w:
                    return C_SCROLLBAR, p
            r = self.relation(p, px, py)
            if r == INSIDE:
                return C_INSIDE, p
            if r == OUTSIDE:
                continue
            return self.kind(px, py, p), p
        return C_OUTSIDE, owner  # tmux leaves the last pane it looked at

    def arrow(self, x: int, y: int, kind: int, owner: Any) -> str | None:
        """screen_redraw_draw_border_arrows: the arrow drawn instead of a border cell."""
        active = self.active
        if owner is None or active is None:
            return None
        i, j = x - self.ox, y - self.oy  # tmux compares the terminal's coordinates
        if i != owner.xoff + 1 and j != owner.yoff + 1:
            return None
        if owner is not active and (id(active) in self.floating or id(owner) in self.floating):
            return None
        border = self.relation(active, x, y)
        if border == INSIDE:
            return None
        arrows = False
        first = active is self.w.panes[0] if self.w.panes else False
        if i == owner.xoff + 1:
            if border == OUTSIDE:
                if self.two:
                    border = BOTTOM if first else TOP
                    arrows = True
            elif kind == C_LEFTRIGHT or (kind == C_TOPJOIN and border == BOTTOM) \
                    or (kind == C_BOTTOMJOIN and border == TOP):
                arrows = True
        if j == owner.yoff + 1:
            if border == OUTSIDE:
                if self.two:
                    border = RIGHT if first else LEFT
                    arrows = True
            elif kind == C_TOPBOTTOM or (kind == C_LEFTJOIN and border == RIGHT) \
                    or (kind == C_RIGHTJOIN and border == LEFT):
                arrows = True
        return _ARROWS.get(border) if arrows else None


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
    if lines == "spaces":
        return " "
    return LINES.get(lines, LINES["single"])[kind]


def fill_character(value: Any) -> str:
    """window_set_fill_character: one valid single-width character, else none."""
    from .screen.cells import char_width

    text = str(value or "")
    if not text or "\ufffd" in text:
        return ""
    return text[0] if char_width(text[0]) == 1 or text[0].isascii() else ""


Cell = tuple[str, tuple[int, int, int, int]]
StyleOf = Callable[[Any, bool], tuple[int, int, int, int]]


def draw(geo: Geometry, rows: list[list[Cell]], area_y: int, style_of: StyleOf,
         lines: str, arrows: bool, marked: Any, fill: str) -> None:
    """Write the border cells into ``rows`` (from row ``area_y``); ``style_of(pane, active)``
    is the (attr, fg, bg, us) of a pane's borders, in the active border style or not (pane
    None: the window's own, for the frame of a smaller window)."""
    from .screen.cells import ATTR_REVERSE

    w = geo.w
    styles: dict[tuple[int, bool], tuple[int, int, int, int]] = {}
    for y, x, kind, owner, act in geo.cells:
        if owner is None or kind == C_OUTSIDE:
            key = (0, False)
            p = None
        else:
            key = (id(owner), act)
            p = owner
        st = styles.get(key)
        if st is None:
            st = styles[key] = style_of(p, act)
        if p is not None and marked is not None and geo.is_on(marked, x, y):
            st = (st[0] ^ ATTR_REVERSE, st[1], st[2], st[3])
        ch = line_char(lines, kind, owner, w, fill)
        if arrows:
            a = geo.arrow(x, y, kind, owner)
            if a is not None:
                ch = a
        rows[area_y + y][x] = (ch, st)
