"""Window layout cell tree, computed exactly as tmux 3.7b does it.

A window's panes are arranged by a tree of cells: left-right containers, top-bottom containers and
leaves holding one pane.  Cells sit side by side with one column/row between them for the border.
Every arithmetic quirk of tmux (unsigned wrap-around, one-unit-at-a-time shrinking, the order in
which space is taken from neighbours) is reproduced, because clients (iTerm2, scripts, the regress
suite) compare ``#{window_layout}`` strings and pane geometry byte for byte.

The :class:`Layout` object is the per-window geometry owner:

* ``sx``/``sy`` are the *window* size (tmux's ``w->sx``/``w->sy``); presets and layout strings
  can change it, exactly as they do in tmux.
* ``panes`` is the window's pane list in tmux order (``w->panes``: ``pane_index`` order), kept
  with tmux's insertion rules (``window_add_pane``).
* ``geometry(pane)`` is the pane's own offset and size (``wp->xoff`` … ``wp->sy``), which is not
  always its cell's: with ``pane-border-status`` a row is lost, and while zoomed the hidden panes
  keep their old geometry.
* ``take_resized()`` returns the panes whose size changed since the last call, so the owner can
  resize their PTYs and screens.

Panes are opaque: anything with an integer ``id`` attribute.

tmux 3.7b keeps floating panes' cells in the same tree: a floating cell is a child of the root
flagged ``LAYOUT_CELL_FLOATING``, which the tiled arithmetic skips (offsets, resizing, the first
and last cell of a column) and which layout strings list a second time after the tree, in
``<...>``.  ``z_index`` is the window's stacking order (tmux's ``w->z_index``), topmost first:
a new floating pane goes on top, a new tiled one at the bottom, and selecting a floating pane
raises it; drawing, mouse hits and the ``<...>`` part follow it.

Every mutating operation unzooms first, as every tmux caller does (``server_unzoom_window`` /
``window_push_zoom``); only :meth:`Layout.resize_window` re-zooms afterwards (as tmux's
``resize_window`` does).  Re-zooming after ``split-window -Z`` etc. is the caller's job.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator
from enum import IntEnum
from typing import Any, NamedTuple

from .options import strtonum

# A layout may nest LEGACY_MAX_DEPTH containers and the tree walks recurse once per level, on
# top of the server's own frames: make room for that.
if sys.getrecursionlimit() < 6000:
    sys.setrecursionlimit(6000)

__all__ = [
    "LEFTRIGHT",
    "TOPBOTTOM",
    "WINDOWPANE",
    "PANE_MINIMUM",
    "WINDOW_MINIMUM",
    "WINDOW_MAXIMUM",
    "LAYOUT_CELL_FLOATING",
    "PRESET_NAMES",
    "Layout",
    "LayoutCell",
    "LayoutError",
    "LayoutType",
    "PaneGeometry",
    "SPLIT_BAD_SIZE",
    "SPLIT_NO_SPACE",
    "checksum",
    "dump",
    "lookup_preset",
    "parse_percentage",
    "parse_split_size",
    "swap_panes",
]


class LayoutType(IntEnum):
    """Cell types (tmux's ``enum layout_type``)."""

    LEFTRIGHT = 0
    TOPBOTTOM = 1
    WINDOWPANE = 2


LEFTRIGHT = LayoutType.LEFTRIGHT
TOPBOTTOM = LayoutType.TOPBOTTOM
WINDOWPANE = LayoutType.WINDOWPANE

PANE_MINIMUM = 1
WINDOW_MINIMUM = PANE_MINIMUM
WINDOW_MAXIMUM = 10000

PANE_STATUS_OFF = 0
PANE_STATUS_TOP = 1
PANE_STATUS_BOTTOM = 2
_STATUS_NAMES = {"off": PANE_STATUS_OFF, "top": PANE_STATUS_TOP, "bottom": PANE_STATUS_BOTTOM}

PRESET_NAMES = ("even-horizontal", "even-vertical", "main-horizontal", "main-horizontal-mirrored",
                "main-vertical", "main-vertical-mirrored", "tiled")
_EVEN_H, _EVEN_V, _MAIN_H, _MAIN_H_MIRRORED, _MAIN_V, _MAIN_V_MIRRORED, _TILED = range(7)

LAYOUT_CELL_FLOATING = 0x1

# split-window's and join-pane's messages when a new cell cannot be had
SPLIT_BAD_SIZE = "size or position invalid tiled geometry"
SPLIT_NO_SPACE = "size or position no space for a new pane"

_UINT_MAX = 0xFFFFFFFF
_INT_MAX = 0x7FFFFFFF
_LAYOUT_BUFSIZE = 8192  # tmux dumps into a fixed buffer; longer layouts dump as nothing


def _u32(v: int) -> int:
    """C ``u_int`` wrap-around, which tmux's arithmetic relies on in edge cases."""
    return v & _UINT_MAX


def _i32(v: int) -> int:
    """C conversion of an unsigned value to ``int``."""
    v &= _UINT_MAX
    return v - 0x100000000 if v > _INT_MAX else v


class LayoutError(Exception):
    """An operation tmux refuses; ``str()`` is tmux's exact message."""

    def __init__(self, message: str, cause: str | None = None) -> None:
        super().__init__(message)
        self.cause = cause if cause is not None else message


class PaneGeometry(NamedTuple):
    """A pane's position and size (``pane_left``, ``pane_top``, ``pane_width``, ``pane_height``)."""

    xoff: int
    yoff: int
    sx: int
    sy: int


class LayoutCell:
    """One node of the layout tree (tmux's ``struct layout_cell``)."""

    __slots__ = ("type", "flags", "sx", "sy", "xoff", "yoff", "parent", "children", "pane")

    def __init__(self, parent: LayoutCell | None = None) -> None:
        self.type = WINDOWPANE
        self.flags = 0
        self.parent = parent
        self.children: list[LayoutCell] = []
        # sizes are C unsigned ints, offsets signed ints (tmux 3.7b's struct layout_cell)
        self.sx = _UINT_MAX
        self.sy = _UINT_MAX
        self.xoff = _INT_MAX
        self.yoff = _INT_MAX
        self.pane: Any = None

    @property
    def floating(self) -> bool:
        return bool(self.flags & LAYOUT_CELL_FLOATING)

    def set_size(self, sx: int, sy: int, xoff: int, yoff: int) -> None:
        self.sx = sx
        self.sy = sy
        self.xoff = xoff
        self.yoff = yoff

    def make_leaf(self, pane: Any) -> None:
        self.type = WINDOWPANE
        self.children = []
        self.pane = pane

    def make_node(self, type_: LayoutType) -> None:
        if type_ == WINDOWPANE:
            raise ValueError("bad layout type")
        self.type = type_
        self.children = []
        self.pane = None

    def leaves(self) -> Iterator[LayoutCell]:
        """Leaf cells in tree order (the order of a layout string)."""
        if self.type == WINDOWPANE:
            yield self
            return
        stack = list(reversed(self.children))
        while stack:
            c = stack.pop()
            if c.type == WINDOWPANE:
                yield c
            else:
                stack.extend(reversed(c.children))

    def count_cells(self) -> int:
        if self.type == WINDOWPANE:
            return 1
        return sum(c.count_cells() for c in self.children)

    def __repr__(self) -> str:
        name = ("LEFTRIGHT", "TOPBOTTOM", "WINDOWPANE")[self.type]
        pid = getattr(self.pane, "id", None)
        return f"<LayoutCell {name} {self.sx}x{self.sy},{self.xoff},{self.yoff} pane={pid}>"


# ---------------------------------------------------------------------------------------------
# Layout strings

def checksum(body: str | bytes) -> int:
    """tmux's 16-bit rotating checksum of a layout body (``layout_checksum``)."""
    data = body.encode("utf-8", "surrogateescape") if isinstance(body, str) else body
    csum = 0
    for ch in data:
        csum = (csum >> 1) + ((csum & 1) << 15)
        # tmux adds a (signed on x86) char
        csum = (csum + (ch - 256 if ch >= 128 else ch)) & 0xFFFF
    return csum


def _append(lc: LayoutCell, out: list[str]) -> None:
    if lc.pane is not None:
        out.append(f"{lc.sx}x{lc.sy},{lc.xoff},{lc.yoff},{lc.pane.id}")
    else:
        out.append(f"{lc.sx}x{lc.sy},{lc.xoff},{lc.yoff}")
    if lc.type == WINDOWPANE:
        return
    opening, closing = ("{", "}") if lc.type == LEFTRIGHT else ("[", "]")
    out.append(opening)
    for i, child in enumerate(lc.children):
        if i:
            out.append(",")
        _append(child, out)
    out.append(closing)


def dump(root: LayoutCell | None, floating: Iterable[LayoutCell] = ()) -> str:
    """The layout string tmux shows as ``#{window_layout}`` (``csum,body``).

    floating are the floating panes' cells, topmost first: tmux 3.7b lists them again after
    the tree as ``<cell,cell>``.  Returns "" when there is no tree or the body would not fit
    tmux's 8 KiB buffer (tmux then yields no value)."""
    if root is None:
        return ""
    parts: list[str] = []
    _append(root, parts)
    extra = [c for c in floating]
    if extra:
        parts.append("<")
        for i, lc in enumerate(extra):
            if i:
                parts.append(",")
            _append(lc, parts)
        parts.append(">")
    body = "".join(parts)
    if len(body) >= _LAYOUT_BUFSIZE:
        return ""
    return f"{checksum(body):04x},{body}"


# The checksum and comma that start a layout string: sscanf("%hx,%n") must stop after exactly
# five characters.
_CSUM_RE = re.compile(r"[ \t\n\v\f\r]*([+-]?)(?:0[xX](?=[0-9a-fA-F]))?([0-9a-fA-F]+),")
# One cell's "WxH,X,Y" as layout_construct_cell's own scan accepts it (digits only); sscanf
# accepts more (blanks, signs) but then the scan stops on a character nothing accepts.
_CELL_RE = re.compile(r"([0-9]+)x([0-9]+),([0-9]+),([0-9]+)")
# The same with signed offsets, which tmux writes for floating panes partly off the window but
# cannot read back; hmux reads them in a layout with a <...> part.
_SIGNED_CELL_RE = re.compile(r"([0-9]+)x([0-9]+),(-?[0-9]+),(-?[0-9]+)")
_DIGITS_RE = re.compile(r"[0-9]*")

_PARSED, _FAILED, _CRASHES = range(3)


def _scan_u(digits: str) -> int:
    """sscanf's %u: strtoul (saturating at ULONG_MAX) stored in an unsigned int."""
    return min(int(digits), 0xFFFFFFFFFFFFFFFF) & _UINT_MAX


def _scan_d(digits: str) -> int:
    """sscanf's %d: strtol (saturating at LONG_MAX) stored in an int."""
    return _i32(min(int(digits), 0x7FFFFFFFFFFFFFFF))


def _construct_cell(parent: LayoutCell | None, text: str, pos: int,
                    signed: bool = False) -> tuple[LayoutCell | None, int]:
    """``layout_construct_cell``: one cell at pos, or None (pos then says where it stopped)."""
    m = (_SIGNED_CELL_RE if signed else _CELL_RE).match(text, pos)
    if m is None:
        return None, pos
    pos = m.end()
    n = len(text)
    if pos < n and text[pos] == ",":
        # an optional pane id (ignored); ",digits x" is really the next cell
        end = _DIGITS_RE.match(text, pos + 1).end()  # type: ignore[union-attr]
        if not (end < n and text[end] == "x"):
            pos = end
    lc = LayoutCell(parent)
    lc.set_size(_scan_u(m.group(1)), _scan_u(m.group(2)), _scan_d(m.group(3)),
                _scan_d(m.group(4)))
    if signed and pos > m.end():
        # the pane id, which a floating cell is matched by (its pane is assigned later)
        ident = text[m.end() + 1:pos]
        lc.pane = int(ident) if ident.isdigit() else None
    return lc, pos


#: How deeply containers may nest in a layout string (the seed's limit for legacy layouts):
#: deeper ones are refused as invalid instead of exhausting the parser's stack.
LEGACY_MAX_DEPTH = 1000


def _construct(parent: LayoutCell | None, text: str, pos: int,
               signed: bool = False) -> tuple[int, LayoutCell | None, int]:
    """``layout_construct``: (outcome, cell, new pos).

    In tmux 3.7b a cell that does not parse is not an error by itself: before ``,`` ``}`` ``]``
    ``>`` or the end it is returned as nothing (a layout of nothing is an empty window), and a
    container then inserts that nothing into its list, and ``{``/``[`` after it give it a type:
    both dereference a null pointer.  Those outcomes are ``_CRASHES``; hmux refuses them.

    tmux recurses once per container; this walks with a stack of the open containers, so a
    hostile string cannot exhaust the interpreter's, and nesting beyond
    :data:`LEGACY_MAX_DEPTH` fails."""
    n = len(text)
    stack: list[LayoutCell] = []
    while True:
        lc, pos = _construct_cell(stack[-1] if stack else parent, text, pos, signed)
        ch = text[pos] if pos < n else "\0"
        if ch in "{[":
            if lc is None:
                return _CRASHES, None, pos
            if len(stack) >= LEGACY_MAX_DEPTH:
                return _FAILED, None, pos
            lc.type = LEFTRIGHT if ch == "{" else TOPBOTTOM
            stack.append(lc)
            pos += 1
            continue
        if ch not in ",}]>\0":
            return _FAILED, None, pos
        # lc is complete: hand it to the open containers, closing those that end here
        while stack:
            top = stack[-1]
            if lc is None:
                return _CRASHES, None, pos
            top.children.append(lc)
            if pos < n and text[pos] == ",":
                pos += 1
                break
            closing = "}" if top.type == LEFTRIGHT else "]"
            if pos >= n or text[pos] != closing:
                return _FAILED, None, pos
            pos += 1
            lc = stack.pop()
        else:
            return _PARSED, lc, pos


def _construct_floating(text: str, pos: int) -> tuple[list[LayoutCell] | None, int]:
    """The ``<cell,cell,…>`` part after a layout string's tree: single cells (floating panes
    are not split), or None if it is not one.  Each cell's pane id, when it has one, is kept
    in its ``pane`` as an int for :meth:`Layout.parse` to match."""
    n = len(text)
    cells: list[LayoutCell] = []
    pos += 1
    while True:
        lc, pos = _construct_cell(None, text, pos, True)
        if lc is None:
            return None, pos
        cells.append(lc)
        if pos < n and text[pos] == ",":
            pos += 1
            continue
        if pos < n and text[pos] == ">":
            return cells, pos + 1
        return None, pos


def _strip_floating(root: LayoutCell,
                    floats: list[LayoutCell]) -> tuple[LayoutCell | None, list[int]]:
    """Take the floating cells a layout string lists in ``<...>`` out of its tree, where they
    are also children of the root; returns the tiled tree (None if a cell is not there) and
    where among the root's children each was, to put it back in the same place."""
    if root.type == WINDOWPANE:
        return None, []
    children = list(root.children)
    taken: list[int] = []
    for f in floats:
        key = (f.sx, f.sy, f.xoff, f.yoff)
        found = [i for i in range(len(children) - 1, -1, -1)
                 if i not in taken and children[i].type == WINDOWPANE
                 and (children[i].sx, children[i].sy, children[i].xoff,
                      children[i].yoff) == key]
        if not found:
            return None, []
        same = [i for i in found if children[i].pane is not None and children[i].pane == f.pane]
        taken.append(same[0] if same else found[0])
    root.children = [c for i, c in enumerate(children) if i not in taken]
    for leaf in root.leaves():
        leaf.pane = None
    if not root.children:
        return None, []
    return root, taken  # a container left with one cell stays: the floating ones come back


def _sizes_sane(lc: LayoutCell) -> bool:
    """No cell wider or taller than a window can be (tmux 3.7b takes a single cell of any
    size, and crashes on some)."""
    stack = [lc]
    while stack:
        c = stack.pop()
        if c.sx > WINDOW_MAXIMUM or c.sy > WINDOW_MAXIMUM:
            return False
        stack.extend(c.children)
    return True


def _check(lc: LayoutCell) -> bool:
    """Do the children exactly fill each container (``layout_check``)?"""
    if lc.type == WINDOWPANE:
        return True
    total = 0
    for c in lc.children:
        if lc.type == LEFTRIGHT:
            if c.sy != lc.sy:
                return False
            total += c.sx + 1
        else:
            if c.sx != lc.sx:
                return False
            total += c.sy + 1
        if not _check(c):
            return False
    return _u32(total - 1) == (lc.sx if lc.type == LEFTRIGHT else lc.sy)


# ---------------------------------------------------------------------------------------------
# Option value parsing shared with the commands

def parse_percentage(value: str, minval: int, maxval: int, curval: int) -> tuple[int, str | None]:
    """``args_string_percentage``: "N" or "N%" of curval; returns (value, error cause or None)."""
    if value.endswith("%"):
        pct, err = strtonum(value[:-1], 0, 100)
        if err is not None:
            return 0, err
        v = (curval * pct) // 100
        if v < minval:
            return 0, "too small"
        if v > maxval:
            return 0, "too large"
        return v, None
    if value == "":
        return 0, "invalid"
    return strtonum(value, minval, maxval)


def parse_split_size(lines: str | None,
                     percent: str | None = None) -> tuple[int | None, int | None]:
    """Turn split-window/join-pane ``-l`` / ``-p`` values (formats already expanded) into
    (size, percent) for :meth:`Layout.split`.

    tmux 3.7b reports any bad value the same way: LayoutError("size or position invalid tiled
    geometry")."""
    if lines is not None:
        if lines.endswith("%"):
            v, err = strtonum(lines[:-1], 0, 100)
            if err is not None:
                raise LayoutError(SPLIT_BAD_SIZE, "invalid tiled geometry")
            return None, v
        v, err = strtonum(lines, 0, _INT_MAX)
        if err is not None:
            raise LayoutError(SPLIT_BAD_SIZE, "invalid tiled geometry")
        return v, None
    if percent is not None:
        v, err = strtonum(percent, 0, 100)
        if err is not None:
            raise LayoutError(SPLIT_BAD_SIZE, "invalid tiled geometry")
        return None, v
    return None, None


def lookup_preset(name: str) -> int:
    """Index of the preset a name means: an exact name, else the only one it abbreviates;
    -1 if none or ambiguous ("main-h" is both main-horizontal and its mirrored form)."""
    if name in PRESET_NAMES:
        return PRESET_NAMES.index(name)
    matched = -1
    for i, preset in enumerate(PRESET_NAMES):
        if preset.startswith(name):
            if matched != -1:
                return -1
            matched = i
    return matched


# ---------------------------------------------------------------------------------------------

def _scrollbar_minimum(pane: Any) -> int:
    """The columns a pane keeps for a scrollbar while ``pane-scrollbars`` is on or modal (the
    pane's ``scrollbar_minimum``; 0 for panes without one)."""
    f = getattr(pane, "scrollbar_minimum", None)
    return f() if f is not None else 0


def _pid(pane: Any) -> int:
    return pane.id


class Layout:
    """The layout of one window: window size, pane order, cell tree, pane geometry and zoom."""

    def __init__(self, sx: int, sy: int, pane: Any = None,
                 border_status: str | int = "off") -> None:
        self.sx = sx
        self.sy = sy
        self.root: LayoutCell | None = None
        self.panes: list[Any] = []
        #: Every pane, topmost first (tmux's ``w->z_index``): floating panes come before the
        #: tiled ones except after a preset turned them tiled.
        self.z_index: list[Any] = []
        # floating pane id -> (tiled pane id, direction, before): where tiling it puts it
        self._homes: dict[int, tuple[int, LayoutType, bool]] = {}
        self._pending_home: tuple[int, LayoutType, bool] | None = None
        # Where the next floating pane without -X/-Y goes (w->last_new_pane_x/_y).
        self.last_new_pane_x = 0
        self.last_new_pane_y = 0
        self.last_preset = -1  # w->lastlayout
        self._status = self._status_value(border_status)
        self._geom: dict[int, list[int]] = {}
        self._resized: dict[int, Any] = {}
        self._saved_root: LayoutCell | None = None
        self._zoom_pane: Any = None
        #: window-zoomed / window-unzoomed (the development tree's events) since the last
        #: apply_layout, which raises them once the panes have their new sizes, as tmux does
        self.zoom_events: list[str] = []
        # Set when the last spread_out would make tmux (3.3a to 3.7b) spin forever, or a split
        # or a layout string would crash it; hmux leaves the layout unchanged instead.
        self.tmux_would_hang = False
        self.tmux_would_crash = False
        # layout_resize_layout raises window-layout-changed each time it runs: how many times
        # it has since take_resize_events (resize-pane -x and -y are two)
        self._resize_events = 0
        if pane is not None:
            self.init(pane)

    # -- basic state ------------------------------------------------------------------------

    @staticmethod
    def _status_value(value: str | int) -> int:
        if isinstance(value, str):
            return _STATUS_NAMES[value]
        return int(value)

    @property
    def border_status(self) -> int:
        """``pane-border-status`` as 0 (off), 1 (top), 2 (bottom)."""
        return self._status

    def set_border_status(self, value: str | int) -> None:
        """Change ``pane-border-status``; tmux refits the panes (a row is gained or lost)."""
        self._status = self._status_value(value)
        if self.root is not None:
            self._fix_panes()

    @property
    def zoomed(self) -> bool:
        return self._saved_root is not None

    @property
    def zoomed_pane(self) -> Any:
        return self._zoom_pane

    @property
    def full_root(self) -> LayoutCell | None:
        """The real tree (the saved one while zoomed)."""
        return self._saved_root if self._saved_root is not None else self.root

    def init(self, pane: Any) -> None:
        """Root leaf for the first pane of a window (``window_add_pane`` + ``layout_init``)."""
        self.panes = [pane]
        self.z_index = [pane]
        self._new_geometry(pane)
        self._layout_init(pane)

    def _layout_init(self, pane: Any) -> None:
        lc = self.root = LayoutCell(None)
        lc.set_size(self.sx, self.sy, 0, 0)
        lc.make_leaf(pane)
        self._fix_panes()

    def _new_geometry(self, pane: Any) -> None:
        # window_pane_create: at the window size, offset 0,0
        self._geom[_pid(pane)] = [0, 0, self.sx, self.sy]

    def geometry(self, pane: Any) -> PaneGeometry:
        g = self._geom[_pid(pane)]
        return PaneGeometry(g[0], g[1], g[2], g[3])

    def take_resize_events(self) -> int:
        """How many ``layout_resize_layout`` runs (each a window-layout-changed event) since
        the last call."""
        n, self._resize_events = self._resize_events, 0
        return n

    def take_resized(self) -> list[Any]:
        """Panes whose size changed since the last call (``window_pane_resize`` happened)."""
        out = list(self._resized.values())
        self._resized.clear()
        return out

    def sane(self) -> bool:
        """False when tmux's unsigned arithmetic wrapped somewhere (e.g. ``tiled`` in a window
        narrower than its columns): tmux keeps such layouts, so does hmux, but a screen must
        not be allocated at that size."""
        return _tree_sane(self.full_root) and all(
            max(g) <= WINDOW_MAXIMUM * 2 for g in self._geom.values())

    def leaves(self) -> list[LayoutCell]:
        """Leaf cells of the visible tree in tree order."""
        return [] if self.root is None else list(self.root.leaves())

    def cell_of(self, pane: Any) -> LayoutCell | None:
        """The pane's cell in the visible tree (None for hidden panes while zoomed)."""
        if self.root is None:
            return None
        pid = _pid(pane)
        for lc in self.root.leaves():
            if lc.pane is not None and _pid(lc.pane) == pid:
                return lc
        return None

    def _cell(self, pane: Any) -> LayoutCell:
        """The pane's cell; a pane can have none after a preset tmux 3.7b leaves a floating
        pane out of (it crashes on most operations on it; hmux refuses them)."""
        lc = self.cell_of(pane)
        if lc is None:
            raise LayoutError(SPLIT_NO_SPACE, "no space for a new pane")
        return lc

    def dump(self) -> str:
        """``#{window_layout}``: the full layout even while zoomed, its floating cells listed
        again after it (the newest on top; not while zoomed, when tmux's panes have no
        cells)."""
        return dump(self.full_root, self._floating_cells())

    def visible_dump(self) -> str:
        """``#{window_visible_layout}``: what is shown (one cell while zoomed)."""
        return dump(self.root, self._floating_cells())

    def _floating_cells(self) -> list[LayoutCell]:
        """The floating cells in z-order, topmost first, as ``layout_dump`` lists them: the
        panes at the front of the z-order as long as they float (none while zoomed)."""
        if self.zoomed:
            return []
        cells = self._floating_map()
        out = []
        for p in self.z_index:
            lc = cells.get(_pid(p))
            if lc is None:
                break
            out.append(lc)
        return out

    def _floating_map(self) -> dict[int, LayoutCell]:
        """The floating cells by pane id (children of the visible root, or the root itself
        once every tiled pane has gone, which tmux's layout string then lists both ways)."""
        root = self.root
        if root is None:
            return {}
        if root.type == WINDOWPANE:
            if root.flags & LAYOUT_CELL_FLOATING and root.pane is not None:
                return {_pid(root.pane): root}
            return {}
        return {_pid(c.pane): c for c in root.children
                if c.flags & LAYOUT_CELL_FLOATING and c.pane is not None}

    # -- border helpers ---------------------------------------------------------------------

    def _is_edge(self, lc: LayoutCell, last: bool) -> bool:
        """``layout_cell_is_top``/``_bottom``: is lc the first (last) tiled cell of every
        top-bottom container up to the window's root?  A cell of a tree that is not the
        window's (a layout string being applied) never is."""
        root = self.root
        while lc is not root:
            parent = lc.parent
            if parent is None:
                return False
            if parent.type == TOPBOTTOM:
                cells = reversed(parent.children) if last else parent.children
                edge = next((c for c in cells if not c.flags & LAYOUT_CELL_FLOATING), None)
                if lc is not edge:
                    return False
            lc = parent
        return True

    def _is_top(self, lc: LayoutCell) -> bool:
        return self._is_edge(lc, False)

    def _is_bottom(self, lc: LayoutCell) -> bool:
        return self._is_edge(lc, True)

    def _add_border(self, lc: LayoutCell) -> bool:
        if self._status == PANE_STATUS_TOP:
            return self._is_top(lc)
        if self._status == PANE_STATUS_BOTTOM:
            return self._is_bottom(lc)
        return False

    # -- offsets and pane geometry ----------------------------------------------------------

    @staticmethod
    def _fix_offsets1(lc: LayoutCell) -> None:
        if lc.type == LEFTRIGHT:
            xoff = lc.xoff
            for c in lc.children:
                if c.flags & LAYOUT_CELL_FLOATING:
                    continue
                c.xoff = xoff
                c.yoff = lc.yoff
                if c.type != WINDOWPANE:
                    Layout._fix_offsets1(c)
                xoff = _i32(xoff + c.sx + 1)
        else:
            yoff = lc.yoff
            for c in lc.children:
                if c.flags & LAYOUT_CELL_FLOATING:
                    continue
                c.xoff = lc.xoff
                c.yoff = yoff
                if c.type != WINDOWPANE:
                    Layout._fix_offsets1(c)
                yoff = _i32(yoff + c.sy + 1)

    def _fix_offsets(self) -> None:
        lc = self.root
        if lc is None or lc.flags & LAYOUT_CELL_FLOATING:
            return
        lc.xoff = 0
        lc.yoff = 0
        self._fix_offsets1(lc)

    def _fix_panes(self, skip: Any = None) -> None:
        if self.root is None:
            return
        status = self._status
        skip_id = None if skip is None else _pid(skip)
        for lc in self.root.leaves():
            wp = lc.pane
            if wp is None:
                continue
            pid = _pid(wp)
            if pid == skip_id:
                continue
            g = self._geom.get(pid)
            if g is None:
                g = self._geom[pid] = [0, 0, self.sx, self.sy]
            g[0] = lc.xoff
            g[1] = lc.yoff
            if not lc.flags & LAYOUT_CELL_FLOATING and self._add_border(lc):
                if status == PANE_STATUS_TOP:
                    g[1] = _i32(g[1] + 1)
                sx, sy = lc.sx, _u32(lc.sy - 1)
            else:
                sx, sy = lc.sx, lc.sy
            cols = getattr(wp, "scrollbar_columns", None)
            sb = cols() if cols is not None else None
            if sb is not None:  # a pane scrollbar takes its columns from the cell
                sb_w, sb_pad, sb_left = sb
                if sb_left:
                    if _i32(sx) - sb_w < PANE_MINIMUM:
                        g[0] = _i32(g[0] + _i32(sx) - PANE_MINIMUM)
                        sx = PANE_MINIMUM
                    else:
                        sx = _u32(sx - sb_w - sb_pad)
                        g[0] = _i32(g[0] + sb_w + sb_pad)
                elif _i32(sx) - sb_w - sb_pad < PANE_MINIMUM:
                    sx = PANE_MINIMUM
                else:
                    sx = _u32(sx - sb_w - sb_pad)
            if g[2] != sx or g[3] != sy:
                g[2] = sx
                g[3] = sy
                self._resized[pid] = wp

    # -- core resizing (layout.c) -----------------------------------------------------------

    def _resize_check(self, lc: LayoutCell, type_: LayoutType) -> int:
        """How much can be taken from a cell in one direction (``layout_resize_check``)."""
        if lc.type == WINDOWPANE:
            if type_ == LEFTRIGHT:
                available = lc.sx
                minimum = PANE_MINIMUM + _scrollbar_minimum(lc.pane)
            else:
                available = lc.sy
                minimum = PANE_MINIMUM + 1 if self._add_border(lc) else PANE_MINIMUM
            return available - minimum if available > minimum else 0
        if lc.type == type_:
            return _u32(sum(self._resize_check(c, type_) for c in lc.children))
        minimum = _UINT_MAX
        for c in lc.children:
            a = self._resize_check(c, type_)
            if a < minimum:
                minimum = a
        return minimum

    def _grow_units(self, lc: LayoutCell, type_: LayoutType, k: int) -> None:
        """k separate ``layout_resize_adjust(lc, type, 1)`` calls, done at once."""
        while True:
            if type_ == LEFTRIGHT:
                lc.sx = _u32(lc.sx + k)
            else:
                lc.sy = _u32(lc.sy + k)
            if not lc.children:
                return
            tiled = [c for c in lc.children if not c.flags & LAYOUT_CELL_FLOATING]
            if lc.type != type_:
                for c in tiled:
                    self._grow_units(c, type_, k)
                return
            if not tiled:
                self.tmux_would_hang = True  # tmux finds nothing to give the units to
                return
            # same direction: each +1 call goes to the first (tiled) child
            lc = tiled[0]

    def _adjust(self, lc: LayoutCell, type_: LayoutType, change: int) -> None:
        """``layout_resize_adjust``: change a cell and spread it over its children."""
        if change == 0:
            return
        if change > 0:
            if type_ == LEFTRIGHT:
                lc.sx = _u32(lc.sx + change)
            else:
                lc.sy = _u32(lc.sy + change)
            if not lc.children:
                return
            children = [c for c in lc.children if not c.flags & LAYOUT_CELL_FLOATING]
            if lc.type != type_:
                for c in children:
                    self._adjust(c, type_, change)
                return
            if not children:
                self.tmux_would_hang = True  # tmux finds nothing to give the change to
                return
            q, r = divmod(change, len(children))
            for i, c in enumerate(children):
                k = q + (1 if i < r else 0)
                if k:
                    self._grow_units(c, type_, k)
            return
        if type_ == LEFTRIGHT:
            lc.sx = _u32(lc.sx + change)
        else:
            lc.sy = _u32(lc.sy + change)
        children = [c for c in lc.children if not c.flags & LAYOUT_CELL_FLOATING]
        if lc.type != type_:
            for c in children:
                self._adjust(c, type_, change)
            return
        # shrinking in the same direction: one unit at a time from each child that can give
        while change != 0:
            progressed = False
            for c in children:
                if change == 0:
                    break
                if self._resize_check(c, type_) > 0:
                    self._adjust(c, type_, -1)
                    change += 1
                    progressed = True
            if not progressed:
                # tmux loops forever here (only select-layout -E on nested cells gets here)
                self.tmux_would_hang = True
                break

    def _destroy_cell(self, lc: LayoutCell, root: LayoutCell | None) -> LayoutCell | None:
        """Remove a cell, giving its space to a neighbour; returns the (new) root."""
        parent = lc.parent
        if parent is None:
            return None
        siblings = parent.children
        idx = next(i for i, c in enumerate(siblings) if c is lc)
        other = None
        if not lc.flags & LAYOUT_CELL_FLOATING:
            if idx == 0:
                other = siblings[1] if len(siblings) > 1 else None
            else:
                other = siblings[idx - 1]
        if other is not None and not other.flags & LAYOUT_CELL_FLOATING:
            if parent.type == LEFTRIGHT:
                self._adjust(other, parent.type, lc.sx + 1)
            else:
                self._adjust(other, parent.type, lc.sy + 1)
        del siblings[idx]
        lc.parent = None
        if len(siblings) == 1:
            only = siblings[0]
            del siblings[0]
            only.parent = parent.parent
            if only.parent is None:
                if not only.flags & LAYOUT_CELL_FLOATING:
                    only.xoff = 0
                    only.yoff = 0
                root = only
            else:
                gsib = only.parent.children
                gsib[next(i for i, c in enumerate(gsib) if c is parent)] = only
        return root

    def _new_pane_size(self, previous: int, lc: LayoutCell, type_: LayoutType, size: int,
                       count_left: int, size_left: int) -> int:
        if count_left == 1:
            return size_left
        available = self._resize_check(lc, type_)
        minimum = (PANE_MINIMUM + 1) * (count_left - 1)
        if type_ == LEFTRIGHT:
            if _u32(lc.sx - available) > minimum:
                minimum = _u32(lc.sx - available)
            new_size = _u32(lc.sx * size) // previous
        else:
            if _u32(lc.sy - available) > minimum:
                minimum = _u32(lc.sy - available)
            new_size = _u32(lc.sy * size) // previous
        maximum = _u32(size_left - minimum)
        if new_size > maximum:
            new_size = maximum
        if new_size < PANE_MINIMUM:
            new_size = PANE_MINIMUM
        return new_size

    def _set_size_check(self, lc: LayoutCell, type_: LayoutType, size: int) -> bool:
        if lc.type == WINDOWPANE:
            return size >= PANE_MINIMUM
        available = _u32(size)
        count = len(lc.children)
        if lc.type == type_:
            if available < count * 2 - 1:
                return False
            previous = lc.sx if type_ == LEFTRIGHT else lc.sy
            for idx, c in enumerate(lc.children):
                new_size = self._new_pane_size(previous, c, type_, _u32(size), count - idx,
                                               available)
                if idx == count - 1:
                    if new_size > available:
                        return False
                    available -= new_size
                else:
                    if _u32(new_size + 1) > available:
                        return False
                    available = _u32(available - (new_size + 1))
                if not self._set_size_check(c, type_, _i32(new_size)):
                    return False
        else:
            for c in lc.children:
                if c.type == WINDOWPANE:
                    continue
                if not self._set_size_check(c, type_, size):
                    return False
        return True

    def _resize_child_cells(self, lc: LayoutCell) -> None:
        if lc.type == WINDOWPANE:
            return
        tiled = [c for c in lc.children if not c.flags & LAYOUT_CELL_FLOATING]
        count = len(tiled)
        if lc.type == LEFTRIGHT:
            previous = sum(c.sx for c in tiled)
            available = lc.sx
        else:
            previous = sum(c.sy for c in tiled)
            available = lc.sy
        previous = _u32(previous + count - 1)
        for idx, c in enumerate(tiled):
            if lc.type == TOPBOTTOM:
                c.sx = lc.sx
                c.xoff = lc.xoff
            else:
                c.sx = self._new_pane_size(previous, c, lc.type, lc.sx, count - idx, available)
                available = _u32(available - (c.sx + 1))
            if lc.type == LEFTRIGHT:
                c.sy = lc.sy
                c.yoff = lc.yoff
            else:
                c.sy = self._new_pane_size(previous, c, lc.type, lc.sy, count - idx, available)
                available = _u32(available - (c.sy + 1))
            self._resize_child_cells(c)

    # -- pane list --------------------------------------------------------------------------

    def _index(self, pane: Any) -> int:
        pid = _pid(pane)
        for i, p in enumerate(self.panes):
            if _pid(p) == pid:
                return i
        raise ValueError(f"pane {pid} is not in this window")

    def add_pane(self, pane: Any, other: Any = None, before: bool = False,
                 full: bool = False, floating: bool = False) -> None:
        """Insert a pane into the pane list as ``window_add_pane`` does (no cell yet): a
        floating pane goes last in the list and on top of the z-order, a tiled one at its
        bottom."""
        if floating:
            self.z_index.insert(0, pane)
        else:
            self.z_index.append(pane)
        if not self.panes:
            self.panes.insert(0, pane)
        elif before:
            if full:
                self.panes.insert(0, pane)
            else:
                self.panes.insert(self._index(other), pane)
        else:
            if full or floating:
                self.panes.append(pane)
            else:
                self.panes.insert(self._index(other) + 1, pane)
        self._new_geometry(pane)

    def remove_pane(self, pane: Any) -> None:
        """Drop a pane from the list and forget its geometry (after its cell is closed)."""
        del self.panes[self._index(pane)]
        pid = _pid(pane)
        self.z_index = [p for p in self.z_index if _pid(p) != pid]
        self._homes.pop(pid, None)
        self._geom.pop(_pid(pane), None)
        self._resized.pop(_pid(pane), None)
        if self._zoom_pane is not None and _pid(self._zoom_pane) == _pid(pane):
            self._zoom_pane = None

    # -- split / assign / close -------------------------------------------------------------

    def split(self, pane: Any, horizontal: bool = False, size: int | None = None,
              percent: int | None = None, before: bool = False, full: bool = False,
              new_pane: Any = None) -> LayoutCell:
        """``split-window``: split pane's cell (or the whole window with full).

        horizontal is ``-h`` (side by side); size is ``-l N``; percent is ``-l N%``/``-p N``
        (of the pane, or of the window with full).  With new_pane, the pane is inserted into
        the pane list and assigned to the new cell; otherwise call :meth:`assign` later (as
        join-pane does, after closing the joined pane's old cell).
        Raises LayoutError with split-window's and join-pane's messages: "size or position
        invalid tiled geometry" for a size out of range, "size or position no space for a new
        pane" when the cell is too small."""
        type_ = LEFTRIGHT if horizontal else TOPBOTTOM
        if percent is not None:
            if not 0 <= percent <= 100:
                raise LayoutError(SPLIT_BAD_SIZE, "invalid tiled geometry")
            if full:
                base = self.sy if type_ == TOPBOTTOM else self.sx
            else:
                g = self._geom[_pid(pane)]
                base = g[3] if type_ == TOPBOTTOM else g[2]
            csize = (base * percent) // 100
            if csize > _INT_MAX:
                raise LayoutError(SPLIT_BAD_SIZE, "invalid tiled geometry")
        elif size is not None:
            if not 0 <= size <= _INT_MAX:
                raise LayoutError(SPLIT_BAD_SIZE, "invalid tiled geometry")
            csize = size
        else:
            csize = -1
        self.unzoom()
        if not full and self.is_floating(pane):
            # split-window checks before unzooming, when nothing floats: tmux 3.7b then
            # splits the floating cell as if it were tiled and the tree stops adding up
            raise LayoutError("size or position can't split a floating pane",
                              "can't split a floating pane")
        self.tmux_would_crash = False
        snapshot = _copy_tree(self.root) if full else None
        lc = self._split_pane(pane, type_, csize, before, full)
        if lc is not None and snapshot is not None and not _tree_sane(self.root, False):
            # tmux's size check ignores the pane status line and its unsigned sizes wrap;
            # tmux then dies.  Refuse instead.
            self.root = snapshot
            self.tmux_would_crash = True
            lc = None
        if lc is None:
            raise LayoutError(SPLIT_NO_SPACE, "no space for a new pane")
        if new_pane is not None:
            self.add_pane(new_pane, pane, before, full)
            self.assign(lc, new_pane)
        return lc

    def floating_cell(self, sx: int, sy: int, xoff: int, yoff: int,
                      anchor: Any = None) -> LayoutCell:
        """``layout_floating_pane``: a cell for a floating pane, a child of the root flagged
        floating (a single-cell root first becomes a top-bottom container of the window's
        size); follow with :meth:`assign`.  anchor is the tiled pane the new one was made
        over, where :meth:`tile_pane` puts it back."""
        self.unzoom()
        self._pending_home = self._home_beside(anchor)
        lc = self.root
        assert lc is not None
        if lc.type == WINDOWPANE:
            parent = LayoutCell(None)
            parent.make_node(TOPBOTTOM)
            parent.set_size(self.sx, self.sy, 0, 0)
            self.root = parent
            lc.parent = parent
            parent.children.insert(0, lc)
        else:
            parent = lc
        new = LayoutCell(parent)
        parent.children.append(new)
        new.flags |= LAYOUT_CELL_FLOATING
        new.set_size(sx, sy, xoff, yoff)
        return new

    # -- floating panes beyond tmux 3.7b (its development tree) ------------------------------

    def floating_box(self, pane: Any) -> LayoutCell:
        """A floating pane's cell (its size and place are the pane's own); LayoutError
        "pane is not floating" otherwise."""
        lc = self._floating_map().get(_pid(pane))
        if lc is None:
            raise LayoutError("pane is not floating")
        return lc

    def move_floating(self, pane: Any, xoff: int, yoff: int) -> bool:
        """Put a floating pane at xoff,yoff (move-pane -X/-Y/-U/-D/-L/-R, dragging its top
        border); False if it was there already."""
        lc = self.floating_box(pane)
        if (lc.xoff, lc.yoff) == (xoff, yoff):
            return False
        lc.xoff, lc.yoff = _i32(xoff), _i32(yoff)
        self._fix_panes()
        return True

    def resize_floating(self, pane: Any, type_: LayoutType, change: int,
                        opposite: bool) -> None:
        """``resize-pane -L/-R/-U/-D`` on a floating pane: grow by change (shrink if
        negative) on the right or bottom, or with opposite on the left or top
        (layout_resize_floating_pane)."""
        lc = self.floating_box(pane)
        if change == 0:
            return
        size = (lc.sy if type_ == TOPBOTTOM else lc.sx) + change
        if size < PANE_MINIMUM or size > WINDOW_MAXIMUM:
            raise LayoutError("change is too big or too small")
        if type_ == TOPBOTTOM:
            lc.sy = size
            if opposite:
                lc.yoff = _i32(lc.yoff - change)
        else:
            lc.sx = size
            if opposite:
                lc.xoff = _i32(lc.xoff - change)
        self._fix_panes()

    def resize_floating_to(self, pane: Any, type_: LayoutType, size: int) -> None:
        """``resize-pane -x/-y`` on a floating pane: the size counts its borders
        (layout_resize_floating_pane_to)."""
        lc = self.floating_box(pane)
        if size >= PANE_MINIMUM + 2:
            size -= 2
        if size < PANE_MINIMUM or size > WINDOW_MAXIMUM:
            raise LayoutError("size is too big or too small")
        if type_ == TOPBOTTOM:
            lc.sy = size
        else:
            lc.sx = size
        self._fix_panes()

    def set_floating_size(self, pane: Any, sx: int, sy: int, xoff: int, yoff: int) -> None:
        """A floating pane's new box (a mouse drag on its borders)."""
        lc = self.floating_box(pane)
        lc.set_size(sx, sy, _i32(xoff), _i32(yoff))
        self._fix_panes()

    def cascade(self, sx: int, sy: int, ox: int | None, oy: int | None) -> tuple[int, int]:
        """Where a floating pane goes when -X/-Y do not say (layout_get_floating_cell): four
        columns right and two rows down from the last one placed, back to 4,2 past the edge
        of a window of ``sx`` by ``sy``; the place is remembered for the next one."""
        if ox is None:
            last = self.last_new_pane_x
            ox = self.last_new_pane_x = 4 if last == 0 or last > sx else last + 4
        if oy is None:
            last = self.last_new_pane_y
            oy = self.last_new_pane_y = 2 if last == 0 or last > sy else last + 2
        return ox, oy

    def float_pane(self, pane: Any, sx: int, sy: int, xoff: int, yoff: int) -> None:
        """``break-pane -W``: a tiled pane leaves the tiled layout (its space goes to a
        neighbour, as when it is closed) and floats on top at the size and place given."""
        self.unzoom()
        if self.is_floating(pane):
            raise LayoutError("pane is already floating")
        lc = self._cell(pane)
        if lc.parent is None:
            raise LayoutError("no space for a new pane")  # the only tiled pane stays tiled
        sibs = [c for c in lc.parent.children if not c.flags & LAYOUT_CELL_FLOATING]
        i = next(k for k, c in enumerate(sibs) if c is lc)
        before = i + 1 < len(sibs)
        nb = sibs[i + 1] if before else sibs[i - 1]
        nb_leaf = next(iter(nb.leaves()))
        home = (_pid(nb_leaf.pane), lc.parent.type, before) if nb.type == WINDOWPANE else None
        self.root = self._destroy_cell(lc, self.root)
        lc.pane = None
        self._fix_offsets()
        cell = self.floating_cell(sx, sy, xoff, yoff)
        self._pending_home = None
        cell.flags |= LAYOUT_CELL_FLOATING
        cell.make_leaf(pane)
        if home is not None:
            self._homes[_pid(pane)] = home
        self.z_move(pane)
        self._fix_panes()

    def tile_pane(self, pane: Any, anchor: Any = None) -> None:
        """``join-pane`` of a floating pane with itself: it goes back into the tiled layout,
        taking half of the anchor's cell (the active tiled pane, else the last tiled one)
        the way split-window would, and drops to the bottom of the z-order."""
        self.unzoom()
        lc = self.floating_box(pane)
        tiled = [p for p in self.tiled_panes() if _pid(p) != _pid(pane)]
        if not tiled:
            raise LayoutError("no space for a new pane")  # nothing tiled to share with
        home = self._homes.get(_pid(pane))
        before = False
        by_id = {_pid(p): p for p in tiled}
        if home is not None and home[0] in by_id:
            anchor = by_id[home[0]]
            horizontal, before = home[1] == LEFTRIGHT, home[2]
        else:
            if anchor is None or _pid(anchor) not in by_id:
                anchor = tiled[-1]
            g = self._geom[_pid(anchor)]
            horizontal = g[2] > 2 * g[3] + 1  # across a wide pane, below a tall one
        # the pane comes back with the larger half (layout_insert_tile's size1)
        alc = self._cell(anchor)
        ss = alc.sx if horizontal else alc.sy
        half = max(((ss + 1) // 2) - 1, PANE_MINIMUM)
        snapshot = _copy_tree(self.root)
        try:
            new = self.split(anchor, horizontal=horizontal, size=max(ss - 1 - half, 0),
                             before=before)
        except LayoutError:
            self.root = snapshot
            self._fix_panes()
            raise
        self.root = self._destroy_cell(lc, self.root)
        lc.pane = None
        self._homes.pop(_pid(pane), None)
        new.make_leaf(pane)
        self._fix_offsets()
        self._fix_panes()
        self.z_index = [p for p in self.z_index if _pid(p) != _pid(pane)] + [pane]

    def z_place(self, pane: Any, position: str) -> None:
        """``move-pane -P front|back|forward|backward|forward-loop|backward-loop`` on a
        floating pane's stacking (cmd_join_pane_place's z-order positions)."""
        self.floating_box(pane)
        pid = _pid(pane)
        z = self.z_index
        i = next(k for k, p in enumerate(z) if _pid(p) == pid)
        floating = {_pid(p) for p in self.floating_panes()}
        rest = z[:i] + z[i + 1:]
        first_tiled = next((k for k, p in enumerate(rest) if _pid(p) not in floating),
                           len(rest))
        if position == "front":
            rest.insert(0, pane)
        elif position == "back":
            rest.insert(first_tiled, pane)
        elif position == "forward":
            rest.insert(max(i - 1, 0), pane)
        elif position == "backward":
            if i < len(rest) and _pid(rest[i]) in floating:
                rest.insert(i + 1, pane)
            else:
                rest.insert(i, pane)
        elif position == "forward-loop":
            rest.insert(i - 1 if i > 0 else first_tiled, pane)
        elif position == "backward-loop":
            if i < len(rest) and _pid(rest[i]) in floating:
                rest.insert(i + 1, pane)
            else:
                rest.insert(0, pane)
        else:
            raise LayoutError(f"unknown position: {position}")
        self.z_index = rest

    def z_set(self, pane: Any, z: int) -> None:
        """``move-pane -z N``: the pane goes N floating panes down from the top."""
        self.floating_box(pane)
        pid = _pid(pane)
        floating = {_pid(p) for p in self.floating_panes()}
        rest = [p for p in self.z_index if _pid(p) != pid]
        k = 0
        while k < len(rest) and _pid(rest[k]) in floating and k < z:
            k += 1
        rest.insert(k, pane)
        self.z_index = rest

    def split_floating(self, pane: Any, horizontal: bool, before: bool,
                       full: bool) -> tuple[int, int, int, int]:
        """``split-window`` on a floating pane, beyond tmux 3.7b as its development tree does
        it (layout_split_floating_cell): the pane is first moved inside the window's margins,
        the new one goes beside it (right or below; left or above with before) and where
        that leaves the window both share the space; with full it spans the margins.  The
        target's cell changes; returns the new pane's (sx, sy, xoff, yoff), to make with
        :meth:`floating_cell`.  Raises LayoutError("no space for a new pane")."""
        self.unzoom()
        lc = self._floating_map()[_pid(pane)]
        border = 1
        tb, bb, lb, rb = 1, self.sy - 1, 3, self.sx - 3
        osx, osy, ox, oy = lc.sx, lc.sy, lc.xoff, lc.yoff
        if lb > ox - border:
            ox = lb + border
        if rb < ox + osx + border:
            ox = rb - osx - border
        if tb > oy - border:
            oy = tb + border
        if bb < oy + osy + border:
            oy = bb - osy - border
        nsx, nsy, nx, ny = osx, osy, ox, oy
        if horizontal:
            nx += -(osx + 2 * border) if before else osx + 2 * border
        else:
            ny += -(osy + 2 * border) if before else osy + 2 * border

        def half(space: int) -> int:  # C division towards zero
            return int(space / 2)

        if lb > nx - border:
            space = ox + osx - lb - 3 * border + 1
            nsx = osx = half(space)
            nx = lb + border
            ox = nx + nsx + 2 * border
            if space % 2 == 0:
                osx -= 1
        elif rb < nx + nsx + border:
            space = rb - ox - 3 * border + 1
            nsx = osx = half(space)
            nx = ox + osx + 2 * border
            if space % 2 == 0:
                nsx -= 1
        elif tb > ny - border:
            space = osy + oy - tb - 3 * border + 1
            nsy = osy = half(space)
            ny = tb + border
            oy = ny + nsy + 2 * border
            if space % 2 == 0:
                osy -= 1
        elif bb < ny + nsy + border:
            space = bb - oy - 3 * border + 1
            nsy = osy = half(space)
            ny = oy + osy + 2 * border
            if space % 2 == 0:
                nsy -= 1
        if full:
            if horizontal:
                ny = tb + border
                nsy = bb - tb - 2 * border
                if before:
                    nx = lb + border
                    nsx = ox - nx - 2 * border
                else:
                    nsx = rb - nx - border
            else:
                nx = lb + border
                nsx = rb - lb - 2 * border
                if before:
                    ny = tb + border
                    nsy = oy - ny - 2 * border
                else:
                    nsy = bb - ny - border
        if min(nsx, nsy, osx, osy) < PANE_MINIMUM:
            raise LayoutError("no space for a new pane")
        lc.set_size(osx, osy, ox, oy)
        self._fix_panes()
        return nsx, nsy, nx, ny

    def _home_beside(self, anchor: Any) -> tuple[int, LayoutType, bool] | None:
        """Where a floating pane made over (or floated from beside) a tiled pane goes when it
        is tiled again: after that pane, split along its container's direction, as tmux's
        development tree keeps a floating cell in the tree after its target's cell."""
        if anchor is None or self.is_floating(anchor):
            return None
        lc = self.cell_of(anchor)
        if lc is None:
            return None
        type_ = lc.parent.type if lc.parent is not None else TOPBOTTOM
        return (_pid(anchor), type_, False)

    def assign(self, cell: LayoutCell, pane: Any, do_not_resize: bool = False) -> None:
        """Put a pane into a freshly split cell (``layout_assign_pane``)."""
        home = getattr(self, "_pending_home", None)
        if home is not None:
            self._homes[_pid(pane)] = home
            self._pending_home = None
        cell.make_leaf(pane)
        if _pid(pane) not in self._geom:
            self._new_geometry(pane)
        self._fix_panes(pane if do_not_resize else None)

    def _split_pane(self, wp: Any, type_: LayoutType, size: int, before: bool,
                    full: bool) -> LayoutCell | None:
        root = self.root
        assert root is not None
        lc = root if full else self._cell(wp)
        sx, sy, xoff, yoff = lc.sx, lc.sy, lc.xoff, lc.yoff

        if type_ == LEFTRIGHT:
            sb_min = _scrollbar_minimum(wp)  # with pane-scrollbars, its columns not a border's
            if sx < PANE_MINIMUM * 2 + (sb_min if sb_min else 1):
                return None
        else:
            minimum = PANE_MINIMUM * 2 + (2 if self._add_border(lc) else 1)
            if sy < minimum:
                return None

        saved_size = sx if type_ == LEFTRIGHT else sy
        if size < 0:
            size2 = ((saved_size + 1) // 2) - 1
        elif before:
            size2 = _u32(saved_size - size - 1)
        else:
            size2 = size
        if size2 < PANE_MINIMUM:
            size2 = PANE_MINIMUM
        elif size2 > saved_size - 2:
            size2 = saved_size - 2
        size1 = saved_size - 1 - size2
        new_size = size2 if before else size1

        if full and not self._set_size_check(lc, type_, _i32(new_size)):
            return None

        resize_first = False
        if lc.parent is not None and lc.parent.type == type_:
            parent = lc.parent
            lcnew = LayoutCell(parent)
            idx = next(i for i, c in enumerate(parent.children) if c is lc)
            parent.children.insert(idx if before else idx + 1, lcnew)
        elif full and lc.parent is None and lc.type == type_:
            if lc.type == LEFTRIGHT:
                lc.sx = new_size
                self._resize_child_cells(lc)
                lc.sx = saved_size
            else:
                lc.sy = new_size
                self._resize_child_cells(lc)
                lc.sy = saved_size
            resize_first = True
            lcnew = LayoutCell(lc)
            nsize = saved_size - 1 - new_size
            if lc.type == LEFTRIGHT:
                lcnew.set_size(nsize, sy, 0, 0)
            else:
                lcnew.set_size(sx, nsize, 0, 0)
            if before:
                lc.children.insert(0, lcnew)
            else:
                lc.children.append(lcnew)
        else:
            parent = LayoutCell(lc.parent)
            parent.make_node(type_)
            parent.set_size(sx, sy, xoff, yoff)
            if lc.parent is None:
                self.root = parent
            else:
                gsib = lc.parent.children
                gsib[next(i for i, c in enumerate(gsib) if c is lc)] = parent
            lc.parent = parent
            parent.children.insert(0, lc)
            lcnew = LayoutCell(parent)
            if before:
                parent.children.insert(0, lcnew)
            else:
                parent.children.append(lcnew)

        lc1, lc2 = (lcnew, lc) if before else (lc, lcnew)
        if not resize_first:
            if type_ == LEFTRIGHT:
                lc1.set_size(size1, sy, xoff, yoff)
                lc2.set_size(size2, sy, _i32(xoff + lc1.sx + 1), yoff)
            else:
                lc1.set_size(sx, size1, xoff, yoff)
                lc2.set_size(sx, size2, xoff, _i32(yoff + lc1.sy + 1))
        if full:
            if not resize_first:
                self._resize_child_cells(lc)
            self._fix_offsets()
        else:
            lc.make_leaf(wp)
        return lcnew

    def close_pane(self, pane: Any, remove: bool = True) -> None:
        """``kill-pane``: remove the pane's cell, its space going to a neighbour.

        With remove (the default) the pane also leaves the pane list (``window_remove_pane``).
        Closing the last pane leaves no tree."""
        self.unzoom()
        lc = self.cell_of(pane)
        if lc is None:  # a pane a 3.7b preset left without a cell: nothing to close
            if remove:
                self.remove_pane(pane)
            return
        self.root = self._destroy_cell(lc, self.root)
        lc.pane = None
        if self.root is not None:
            self._fix_offsets()
            self._fix_panes()
        if remove:
            self.remove_pane(pane)

    # -- window resize ----------------------------------------------------------------------

    def _layout_resize(self, sx: int, sy: int) -> None:
        lc = self.root
        assert lc is not None
        if lc.type == WINDOWPANE and lc.flags & LAYOUT_CELL_FLOATING:
            return
        xchange = sx - lc.sx
        xlimit = _i32(self._resize_check(lc, LEFTRIGHT))
        if xchange < 0 and xchange < -xlimit:
            xchange = -xlimit
        if xlimit == 0:
            xchange = 0 if sx <= lc.sx else sx - lc.sx
        if xchange != 0:
            self._adjust(lc, LEFTRIGHT, xchange)

        ychange = sy - lc.sy
        ylimit = _i32(self._resize_check(lc, TOPBOTTOM))
        if ychange < 0 and ychange < -ylimit:
            ychange = -ylimit
        if ylimit == 0:
            ychange = 0 if sy <= lc.sy else sy - lc.sy
        if ychange != 0:
            self._adjust(lc, TOPBOTTOM, ychange)

        self._fix_offsets()
        self._fix_panes()

    def resize_window(self, sx: int, sy: int) -> None:
        """The window changes size (tmux's ``resize_window``): refit the layout.

        The window can end up bigger than asked when the panes cannot shrink further."""
        sx = min(max(sx, WINDOW_MINIMUM), WINDOW_MAXIMUM)
        sy = min(max(sy, WINDOW_MINIMUM), WINDOW_MAXIMUM)
        zoom_pane = self._zoom_pane if self.zoomed else None
        self.unzoom()
        if self.root is not None:
            self._layout_resize(sx, sy)
            sx = max(sx, self.root.sx)
            sy = max(sy, self.root.sy)
        self.sx = sx
        self.sy = sy
        if zoom_pane is not None:
            self.zoom(zoom_pane)

    # -- pane resize ------------------------------------------------------------------------

    def resize_pane(self, pane: Any, type_: LayoutType, change: int, opposite: bool = True) -> None:
        """``layout_resize_pane``: grow (change > 0) or shrink the pane's right/bottom edge."""
        self.unzoom()
        lc = self.cell_of(pane)
        if lc is None:
            return
        parent = lc.parent
        while parent is not None and parent.type != type_:
            lc = parent
            parent = lc.parent
        if parent is None:
            return
        if lc is parent.children[-1]:
            lc = parent.children[-2]
        self.resize_layout(lc, type_, change, opposite)

    def resize_pane_by(self, pane: Any, direction: str, adjust: int = 1) -> None:
        """``resize-pane -L/-R/-U/-D adjust``."""
        if direction == "L":
            self.resize_pane(pane, LEFTRIGHT, -adjust, True)
        elif direction == "R":
            self.resize_pane(pane, LEFTRIGHT, adjust, True)
        elif direction == "U":
            self.resize_pane(pane, TOPBOTTOM, -adjust, True)
        elif direction == "D":
            self.resize_pane(pane, TOPBOTTOM, adjust, True)
        else:
            raise ValueError(f"bad direction {direction!r}")

    def resize_pane_to(self, pane: Any, type_: LayoutType, new_size: int) -> None:
        """``layout_resize_pane_to``: make the pane's cell (or ancestor) new_size wide/high."""
        self.unzoom()
        lc = self.cell_of(pane)
        if lc is None:
            return
        parent = lc.parent
        while parent is not None and parent.type != type_:
            lc = parent
            parent = lc.parent
        if parent is None:
            return
        size = lc.sx if type_ == LEFTRIGHT else lc.sy
        if lc is parent.children[-1]:
            change = _i32(size - new_size)
        else:
            change = _i32(new_size - size)
        self.resize_pane(pane, type_, change, True)

    def resize_pane_width(self, pane: Any, x: int) -> None:
        """``resize-pane -x`` (x already resolved from a percentage of the window width)."""
        self.resize_pane_to(pane, LEFTRIGHT, x)

    def resize_pane_height(self, pane: Any, y: int) -> None:
        """``resize-pane -y``, including tmux's adjustment for a pane border status line."""
        self.unzoom()
        g = self._geom[_pid(pane)]
        if self._status == PANE_STATUS_TOP:
            if y != _INT_MAX and g[1] == 1:
                y += 1
        elif self._status == PANE_STATUS_BOTTOM:
            if y != _INT_MAX and g[1] + g[3] == self.sy - 1:
                y += 1
        self.resize_pane_to(pane, TOPBOTTOM, y)

    def resize_layout(self, lc: LayoutCell, type_: LayoutType, change: int,
                      opposite: bool = False) -> None:
        """``layout_resize_layout``: move the border after lc (mouse drags use opposite=False)."""
        self._resize_events += 1
        needed = change
        while needed != 0:
            if change > 0:
                size = self._grow(lc, type_, needed, opposite)
                needed -= size
            else:
                size = self._shrink(lc, type_, needed)
                needed += size
            if size == 0:
                break
        self._fix_offsets()
        self._fix_panes()

    @staticmethod
    def _sibling(lc: LayoutCell, step: int) -> LayoutCell | None:
        siblings = lc.parent.children  # type: ignore[union-attr]
        i = next(i for i, c in enumerate(siblings) if c is lc) + step
        if 0 <= i < len(siblings):
            return siblings[i]
        return None

    def _grow(self, lc: LayoutCell, type_: LayoutType, needed: int, opposite: bool) -> int:
        size = 0
        lcremove = self._sibling(lc, 1)
        while lcremove is not None:
            size = self._resize_check(lcremove, type_)
            if size > 0:
                break
            lcremove = self._sibling(lcremove, 1)
        if opposite and lcremove is None:
            lcremove = self._sibling(lc, -1)
            while lcremove is not None:
                size = self._resize_check(lcremove, type_)
                if size > 0:
                    break
                lcremove = self._sibling(lcremove, -1)
        if lcremove is None:
            return 0
        if size > needed:
            size = needed
        self._adjust(lc, type_, size)
        self._adjust(lcremove, type_, -size)
        return size

    def _shrink(self, lc: LayoutCell, type_: LayoutType, needed: int) -> int:
        lcremove: LayoutCell | None = lc
        size = 0
        while lcremove is not None:
            size = self._resize_check(lcremove, type_)
            if size != 0:
                break
            lcremove = self._sibling(lcremove, -1)
        if lcremove is None:
            return 0
        lcadd = self._sibling(lc, 1)
        if lcadd is None:
            return 0
        if size > -needed:
            size = -needed
        self._adjust(lcadd, type_, size)
        self._adjust(lcremove, type_, -size)
        return size

    # -- spreading (select-layout -E and the presets) -----------------------------------------

    def _spread_cell(self, parent: LayoutCell) -> bool:
        """``layout_spread_cell``: give the children equal sizes; tmux 3.7b hands the
        remainder out one unit each to the first cells (3.3a gave it all to the last)."""
        number = len(parent.children)
        if number <= 1:
            return False
        if parent.type == LEFTRIGHT:
            size = parent.sx
        elif parent.type == TOPBOTTOM:
            size = _u32(parent.sy - 1) if self._add_border(parent) else parent.sy
        else:
            return False
        if size < number - 1:
            return False
        each = (size - (number - 1)) // number
        if each == 0:
            return False
        remainder = size - number * (each + 1) + 1
        changed = False
        for lc in parent.children:
            if parent.type == LEFTRIGHT:
                change = each - lc.sx
                if remainder > 0:
                    change += 1
                    remainder -= 1
                change = _i32(change)
                self._adjust(lc, LEFTRIGHT, change)
            else:
                this = each + 1 if self._add_border(lc) else each
                if remainder > 0:
                    this += 1
                    remainder -= 1
                change = _i32(this - lc.sy)
                self._adjust(lc, TOPBOTTOM, change)
            if change != 0:
                changed = True
        return changed

    def spread_out(self, pane: Any) -> None:
        """``select-layout -E``: even out the pane's nearest container that is uneven."""
        self.unzoom()
        cell = self.cell_of(pane)
        if cell is None:
            return
        parent = cell.parent
        snapshot = _copy_tree(self.root)
        self.tmux_would_hang = False
        while parent is not None:
            if self._spread_cell(parent):
                if self.tmux_would_hang:
                    self.root = snapshot  # tmux spins forever here: change nothing
                    return
                self._fix_offsets()
                self._fix_panes()
                break
            parent = parent.parent

    # -- presets (layout-set.c) ---------------------------------------------------------------

    def select_preset(self, layout: int | str, *, main_pane_width: str = "80",
                      main_pane_height: str = "24", other_pane_width: str = "0",
                      other_pane_height: str = "0", tiled_layout_max_columns: int = 0) -> int:
        """Apply a preset by index or name (see :func:`lookup_preset`); returns its index.

        The option values are the strings of the window options (``"80"``, ``"50%"``).  The
        window may grow to fit; the caller then applies its window-size policy
        (``recalculate_sizes``) as tmux does."""
        if isinstance(layout, str):
            idx = lookup_preset(layout)
            if idx == -1:
                raise LayoutError(f"invalid layout: {layout}", "invalid layout")
        else:
            idx = layout
        if idx > len(PRESET_NAMES) - 1:
            idx = len(PRESET_NAMES) - 1
        self.unzoom()
        n = len(self.tiled_panes())
        if n > 1:
            # tmux 3.7b counts the tiled panes, then frees the old tree, which takes every
            # pane's cell away: from then on no pane is floating, and all of them are placed
            # (as far as the sizes worked out for n go)
            panes = list(self.panes)
            if idx in (_EVEN_H, _EVEN_V):
                self._set_even(panes, n, LEFTRIGHT if idx == _EVEN_H else TOPBOTTOM)
            elif idx in (_MAIN_H, _MAIN_H_MIRRORED):
                self._set_main(panes, n, TOPBOTTOM, main_pane_height, other_pane_height,
                               idx == _MAIN_H_MIRRORED)
            elif idx in (_MAIN_V, _MAIN_V_MIRRORED):
                self._set_main(panes, n, LEFTRIGHT, main_pane_width, other_pane_width,
                               idx == _MAIN_V_MIRRORED)
            else:
                self._set_tiled(panes, n, tiled_layout_max_columns)
            root = self.root
            assert root is not None
            self.sx = root.sx
            self.sy = root.sy
        self.last_preset = idx
        return idx

    def next_preset(self, **options: Any) -> int:
        """``next-layout`` / ``select-layout -n``."""
        idx = 0 if self.last_preset == -1 else self.last_preset + 1
        if idx > len(PRESET_NAMES) - 1:
            idx = 0
        return self.select_preset(idx, **options)

    def previous_preset(self, **options: Any) -> int:
        """``previous-layout`` / ``select-layout -p``."""
        if self.last_preset == -1 or self.last_preset == 0:
            idx = len(PRESET_NAMES) - 1
        else:
            idx = self.last_preset - 1
        return self.select_preset(idx, **options)

    def is_floating(self, pane: Any, full: bool = False) -> bool:
        """``window_pane_is_floating``: does the pane's cell float above the tiled ones?
        (Floating cells are children of the root, or the root itself once every tiled pane
        has gone, so this need not walk the tree.)  While zoomed nothing floats, unless full
        asks about the tree the zoom hides."""
        root = self.full_root if full else self.root
        if root is None or (full and self.zoomed and root is self.root):
            return False
        pid = _pid(pane)
        if root.type == WINDOWPANE:
            return bool(root.flags & LAYOUT_CELL_FLOATING) and root.pane is not None \
                and _pid(root.pane) == pid
        for c in root.children:
            if c.flags & LAYOUT_CELL_FLOATING and c.pane is not None and _pid(c.pane) == pid:
                return True
        return False

    def floating_panes(self) -> list[Any]:
        """The floating panes, topmost first."""
        return [p for p in self.z_index if self.is_floating(p)]

    def raise_pane(self, pane: Any) -> None:
        """A floating pane being selected comes to the front (``window_redraw_active_switch``);
        a tiled one keeps its place."""
        if not self.is_floating(pane):
            return
        pid = _pid(pane)
        self.z_index = [pane] + [p for p in self.z_index if _pid(p) != pid]

    def z_move(self, pane: Any, before: Any = None, after: Any = None) -> None:
        """Move pane in the z-order: just before (above) or after (below) another pane, else
        to the front."""
        pid = _pid(pane)
        z = [p for p in self.z_index if _pid(p) != pid]
        if before is not None:
            z.insert(next(i for i, p in enumerate(z) if _pid(p) == _pid(before)), pane)
        elif after is not None:
            z.insert(next(i for i, p in enumerate(z) if _pid(p) == _pid(after)) + 1, pane)
        else:
            z.insert(0, pane)
        self.z_index = z

    def tiled_panes(self) -> list[Any]:
        """The panes the presets arrange (``window_count_panes(w, 0)``), in pane order."""
        if self.root is None or self.root.type == WINDOWPANE:
            return list(self.panes)
        floating = {_pid(c.pane) for c in self.root.children
                    if c.flags & LAYOUT_CELL_FLOATING and c.pane is not None}
        return [p for p in self.panes if _pid(p) not in floating]

    def _set_even(self, panes: list[Any], n: int, type_: LayoutType) -> None:
        lc = self.root = LayoutCell(None)
        if type_ == LEFTRIGHT:
            sx = max(n * (PANE_MINIMUM + 1) - 1, self.sx)
            sy = self.sy
        else:
            sy = max(n * (PANE_MINIMUM + 1) - 1, self.sy)
            sx = self.sx
        lc.set_size(sx, sy, 0, 0)
        lc.make_node(type_)
        for wp in panes:
            c = LayoutCell(lc)
            c.make_leaf(wp)
            c.sx = self.sx
            c.sy = self.sy
            lc.children.append(c)
        self._spread_cell(lc)
        self._fix_offsets()
        self._fix_panes()

    def _set_main(self, panes: list[Any], count: int, main_type: LayoutType, main_opt: str,
                  other_opt: str, mirrored: bool) -> None:
        """main-horizontal (main_type TOPBOTTOM: the main pane on top, or at the bottom when
        mirrored) and main-vertical (main on the left, or on the right when mirrored)."""
        n = count - 1  # the other panes, less the main one
        horizontal = main_type == TOPBOTTOM
        # available height (width) less one for the border
        avail = _u32((self.sy if horizontal else self.sx) - 1)
        mainsz, cause = parse_percentage(main_opt, 0, avail, avail)
        if cause is not None:
            mainsz = 24 if horizontal else 80
        if mainsz + PANE_MINIMUM >= avail:
            mainsz = PANE_MINIMUM if avail <= PANE_MINIMUM + PANE_MINIMUM else avail - PANE_MINIMUM
            othersz = PANE_MINIMUM
        else:
            othersz, cause = parse_percentage(other_opt, 0, avail, avail)
            if cause is not None or othersz == 0:
                othersz = avail - mainsz
            elif othersz > avail or avail - othersz < mainsz:
                othersz = avail - mainsz
            else:
                mainsz = avail - othersz
        across = n * (PANE_MINIMUM + 1) - 1
        if horizontal:
            across = max(across, self.sx)
        else:
            across = max(across, self.sy)

        def sized(cell: LayoutCell, size: int) -> LayoutCell:
            if horizontal:
                cell.set_size(across, size, 0, 0)
            else:
                cell.set_size(size, across, 0, 0)
            return cell

        lc = self.root = sized(LayoutCell(None), mainsz + othersz + 1)
        lc.make_node(main_type)
        lcmain = sized(LayoutCell(lc), mainsz)
        lcmain.make_leaf(panes[0])
        lcother = sized(LayoutCell(lc), othersz)
        if n == 1:
            lcother.make_leaf(panes[1])
        else:
            lcother.make_node(LEFTRIGHT if horizontal else TOPBOTTOM)
            for wp in panes[1:]:
                c = LayoutCell(lcother)
                if horizontal:
                    c.set_size(PANE_MINIMUM, othersz, 0, 0)
                else:
                    c.set_size(othersz, PANE_MINIMUM, 0, 0)
                c.make_leaf(wp)
                lcother.children.append(c)
        lc.children.extend([lcother, lcmain] if mirrored else [lcmain, lcother])
        if n != 1:
            self._spread_cell(lcother)
        self._fix_offsets()
        self._fix_panes()

    def _set_tiled(self, panes: list[Any], n: int, max_columns: int) -> None:
        rows = columns = 1
        while rows * columns < n:
            rows += 1
            if rows * columns < n and (max_columns == 0 or columns < max_columns):
                columns += 1
        wsx, wsy = self.sx, self.sy
        width = _u32(wsx - (columns - 1)) // columns
        if width < PANE_MINIMUM:
            width = PANE_MINIMUM
        height = _u32(wsy - (rows - 1)) // rows
        if height < PANE_MINIMUM:
            height = PANE_MINIMUM

        lc = self.root = LayoutCell(None)
        sx = _u32((width + 1) * columns - 1)
        if sx < wsx:
            sx = wsx
        sy = _u32((height + 1) * rows - 1)
        if sy < wsy:
            sy = wsy
        lc.set_size(sx, sy, 0, 0)
        lc.make_node(TOPBOTTOM)

        k, last = 0, len(panes)
        for j in range(rows):
            if k >= last:
                break
            lcrow = LayoutCell(lc)
            lcrow.set_size(wsx, height, 0, 0)
            lc.children.append(lcrow)
            if n - (j * columns) == 1 or columns == 1:
                lcrow.make_leaf(panes[k])
                k += 1
                continue
            lcrow.make_node(LEFTRIGHT)
            i = 0
            while i < columns:
                c = LayoutCell(lcrow)
                c.set_size(width, height, 0, 0)
                c.make_leaf(panes[k])
                lcrow.children.append(c)
                k += 1
                if k >= last:
                    break
                i += 1
            if i == columns:
                i -= 1
            used = _u32((i + 1) * (width + 1) - 1)
            if wsx <= used:
                continue
            self._adjust(lcrow.children[-1], LEFTRIGHT, wsx - used)

        used = _u32(rows * height + rows - 1)
        if wsy > used:
            self._adjust(lc.children[-1], TOPBOTTOM, wsy - used)
        self._fix_offsets()
        self._fix_panes()

    # -- layout strings -----------------------------------------------------------------------

    def parse(self, text: str) -> None:
        """``select-layout 'csum,WxH,…'``: apply a layout string to this window's panes.

        The tiled panes are assigned in pane-list order; surplus cells are dropped from the
        bottom right.  The window takes the layout's size, unless the layout is a single cell
        (the caller then applies its window-size policy).  Raises LayoutError with tmux's
        message ("invalid layout: …", "have N panes but need M: …", "size mismatch after
        applying layout: …") and changes nothing; a layout that would crash tmux 3.7b is
        refused as invalid, with ``tmux_would_crash`` set.

        Beyond 3.7b (which counts floating panes as tiled ones and refuses a ``<...>``
        part): floating panes stay as they are, and a ``<...>`` part, as ``#{window_layout}``
        writes it, gives them their places and stacking (topmost first), so a window's own
        layout string can be applied back to it.  Containers nested deeper than
        :data:`LEGACY_MAX_DEPTH` and cells larger than :data:`WINDOW_MAXIMUM` are invalid."""

        def fail(cause: str) -> LayoutError:
            return LayoutError(f"{cause}: {text}", cause)

        self.unzoom()  # select-layout unzooms first, even when the layout is then refused
        self.tmux_would_crash = False

        m = _CSUM_RE.match(text)
        if m is None or m.end() != 5:
            raise fail("invalid layout")
        csum = int(m.group(2), 16)
        if m.group(1) == "-":
            csum = -csum
        body = text[5:]
        if csum & 0xFFFF != checksum(body):
            raise fail("invalid layout")
        outcome, lc, pos = _construct(None, body, 0)
        if outcome != _PARSED and "<" in body:
            outcome, lc, pos = _construct(None, body, 0, True)
        if outcome == _CRASHES:
            self.tmux_would_crash = True
            raise fail("invalid layout")
        if outcome == _FAILED:
            raise fail("invalid layout")
        floats: list[LayoutCell] | None = None
        if pos < len(body) and body[pos] == "<" and lc is not None:
            floats, pos = _construct_floating(body, pos)
            if floats is None:
                raise fail("invalid layout")
        if lc is None:
            # nothing before the end: a stub cell for an empty window
            lc = LayoutCell(None)
            lc.type = LEFTRIGHT
            lc.set_size(self.sx, self.sy, 0, 0)
        if pos != len(body):
            raise fail("invalid layout")
        if not _sizes_sane(lc) or any(not _sizes_sane(c) for c in floats or ()):
            raise fail("invalid layout")
        places: list[int] | None = None
        if floats:
            # tmux lists the floating cells twice: as children of the root, then in <...>
            lc, places = _strip_floating(lc, floats)
            if lc is None:
                raise fail("invalid layout")
        self.apply_cells(lc, floats, fail, places=places)

    def apply_cells(self, lc: LayoutCell, floats: list[LayoutCell] | None,
                    fail: Callable[[str], LayoutError],
                    tiled: list[Any] | None = None, floating: list[Any] | None = None,
                    places: list[int] | None = None) -> None:
        """The second half of ``layout_parse``: fit a parsed tiled tree to the tiled panes
        (in pane order unless ``tiled`` says which, one per leaf) and, when ``floats`` is
        given, the floating cells to the floating panes (in z-order unless ``floating`` says,
        among the root's children at ``places`` if given, else after them); then make it the
        window's layout.  Nothing changes when it does not fit."""
        if floating is None:
            floating = self.floating_panes()
            root = self.root
            if floats is None and root is not None and root.type == WINDOWPANE \
                    and root.flags & LAYOUT_CELL_FLOATING:
                floating = []  # every tiled pane gone: tmux's tree walk counts the floating
                # root as a tiled pane, so a string without <...> tiles it
        if tiled is None:
            fids = {_pid(p) for p in floating}
            tiled = [p for p in self.panes if _pid(p) not in fids]
        if floats is not None and len(floats) != len(floating):
            raise fail("invalid layout")  # 3.7b refuses any <...> part with this message
        if floats:
            # the panes the <...> cells name, when they name exactly the floating ones;
            # else the floating panes in their stacking order
            named = [c.pane for c in floats]
            by_id = {_pid(p): p for p in floating}
            if all(isinstance(n, int) for n in named) and sorted(named) == sorted(by_id):
                floating = [by_id[n] for n in named]
            for c in floats:
                c.pane = None
        npanes = len(tiled)
        while True:
            ncells = lc.count_cells()
            if npanes > ncells:
                raise fail(f"have {npanes} panes but need {ncells}")
            if npanes == ncells:
                break
            br = lc
            while br.type != WINDOWPANE:
                br = br.children[-1]
            new = self._destroy_cell(br, lc)
            assert new is not None
            lc = new

        # older tmux could write a wrong top cell size: correct it from the children
        sx = sy = 0
        if lc.type != WINDOWPANE:
            for c in lc.children:
                if lc.type == LEFTRIGHT:
                    sy = _u32(c.sy + 1)
                    sx = _u32(sx + c.sx + 1)
                else:
                    sx = _u32(c.sx + 1)
                    sy = _u32(sy + c.sy + 1)
            if lc.sx != sx or lc.sy != sy:
                lc.sx = _u32(sx - 1)
                lc.sy = _u32(sy - 1)

        if (lc.children or lc.type == WINDOWPANE) and not _check(lc):
            raise fail("size mismatch after applying layout")

        # the floating cells: the ones given, else the panes' own
        old = self._floating_map()
        if floats is None:
            floats = []
            for p in floating:
                c = old[_pid(p)]
                new_c = LayoutCell(None)
                new_c.set_size(c.sx, c.sy, c.xoff, c.yoff)
                floats.append(new_c)

        if sx != 0 and sy != 0:
            self.sx = lc.sx
            self.sy = lc.sy
        root = lc
        if floats and lc.type == WINDOWPANE:
            root = LayoutCell(None)
            root.make_node(TOPBOTTOM)
            root.set_size(lc.sx, lc.sy, 0, 0)
            lc.parent = root
            root.children.append(lc)
        self.root = root
        it = iter(tiled)
        for leaf in lc.leaves():
            leaf.make_leaf(next(it))
        # the floating cells among the root's children where the string had them, else after
        # the tiled ones with the topmost last (as new-pane adds them)
        pairs = list(zip(floats, floating, strict=True))
        if places is not None and len(places) == len(pairs):
            order = sorted(range(len(pairs)), key=lambda k: places[k])
            at = [places[k] for k in order]
        else:
            order = list(range(len(pairs) - 1, -1, -1))
            at = [len(root.children) + k for k in range(len(pairs))]
        for k, i in zip(order, at, strict=True):
            c, p = pairs[k]
            c.parent = root
            c.flags |= LAYOUT_CELL_FLOATING
            c.make_leaf(p)
            root.children.insert(min(i, len(root.children)), c)
        # layout_fix_zindexes: the floating panes on top in the order given, then the tiled
        # ones in tree order
        self.z_index = list(floating) + list(tiled)
        self._fix_offsets()
        self._fix_panes()

    # -- zoom -------------------------------------------------------------------------------

    def zoom(self, pane: Any) -> bool:
        """``window_zoom``: show only pane (the caller makes it active). False if impossible."""
        if self.zoomed or len(self.panes) == 1 or self.root is None:
            return False
        self._saved_root = self.root
        self._zoom_pane = pane
        self._layout_init(pane)
        self.zoom_events.append("window-zoomed")
        return True

    def unzoom(self) -> bool:
        """``window_unzoom``; False if not zoomed."""
        if self._saved_root is None:
            return False
        self.root = self._saved_root
        self._saved_root = None
        self._zoom_pane = None
        self._fix_panes()
        self.zoom_events.append("window-unzoomed")
        return True

    def rotate(self, down: bool = False) -> None:
        """``rotate-window``: the pane list rotates (first to last, or with down last to first)
        and each pane takes the place, cell and size, of the pane that was at its new position."""
        self.unzoom()
        old = list(self.panes)
        if len(old) < 2:
            return
        new = old[-1:] + old[:-1] if down else old[1:] + old[:1]
        cells = [self.cell_of(p) for p in old]
        geoms = {_pid(p): list(self._geom[_pid(p)]) for p in old}
        self.panes[:] = new
        for p, before, lc in zip(new, old, cells, strict=True):
            if lc is not None:
                lc.pane = p
            g = geoms[_pid(before)]
            mine = geoms[_pid(p)]
            self._geom[_pid(p)] = list(g)
            if (g[2], g[3]) != (mine[2], mine[3]):
                self._resized[_pid(p)] = p

    # -- pane lookup --------------------------------------------------------------------------

    def pane_edges(self, pane: Any) -> tuple[bool, bool, bool, bool]:
        """(``pane_at_left``, ``pane_at_right``, ``pane_at_top``, ``pane_at_bottom``)."""
        xoff, yoff, sx, sy = self._geom[_pid(pane)]
        status = self._status
        left = xoff == 0
        right = _i32(xoff + _i32(sx)) == _i32(self.sx)
        top = yoff == (1 if status == PANE_STATUS_TOP else 0)
        if status == PANE_STATUS_BOTTOM:
            bottom = _i32(yoff + _i32(sy)) == _i32(self.sy - 1)
        else:
            bottom = _i32(yoff + _i32(sy)) == _i32(self.sy)
        return left, right, top, bottom

    def find_pane(self, pane: Any, direction: str,
                  active_point: Callable[[Any], int] | None = None) -> Any:
        """The pane ``select-pane -L/-R/-U/-D`` moves to from pane, or None.

        Among the adjacent candidates the one with the highest active_point (most recently
        active) wins, the first in pane order on ties.  Computed on the unzoomed layout, as
        select-pane does."""
        if active_point is None:
            def active_point(p: Any) -> int:
                return getattr(p, "active_point", 0)
        zoom_pane = self._zoom_pane if self.zoomed else None
        if zoom_pane is not None:
            self.unzoom()
        try:
            cands = self._adjacent(pane, direction)
        finally:
            if zoom_pane is not None:
                self.zoom(zoom_pane)
        if not cands:
            return None
        best = cands[0]
        for p in cands[1:]:
            if active_point(p) > active_point(best):
                best = p
        return best

    def _adjacent(self, pane: Any, direction: str) -> list[Any]:
        """The panes touching one side of pane (``window_pane_find_up`` … ``_right``), with
        tmux 3.7b's signed offsets."""
        xoff, yoff, sx, sy = self._geom[_pid(pane)]
        wsx, wsy, status = _i32(self.sx), _i32(self.sy), self._status
        out = []
        if direction in ("U", "D"):
            if direction == "U":
                edge = yoff
                if status == PANE_STATUS_TOP:
                    if edge == 1:
                        edge = _i32(wsy + 1)
                elif status == PANE_STATUS_BOTTOM:
                    if edge == 0:
                        edge = wsy
                elif edge == 0:
                    edge = _i32(wsy + 1)
            else:
                edge = _i32(yoff + _i32(sy) + 1)
                if status == PANE_STATUS_TOP:
                    if edge >= wsy:
                        edge = 1
                elif status == PANE_STATUS_BOTTOM:
                    if edge >= _i32(wsy - 1):
                        edge = 0
                elif edge >= wsy:
                    edge = 0
            lo, hi = xoff, _i32(xoff + _i32(sx))
            for nxt in self.panes:
                if _pid(nxt) == _pid(pane):
                    continue
                g = self._geom[_pid(nxt)]
                if direction == "U":
                    if _i32(g[1] + _i32(g[3]) + 1) != edge:
                        continue
                elif g[1] != edge:
                    continue
                start, end = g[0], _i32(g[0] + _i32(g[2]) - 1)
                if (start < lo and end > hi) or lo <= start <= hi or lo <= end <= hi:
                    out.append(nxt)
            return out
        if direction == "L":
            edge = xoff
            if edge == 0:
                edge = _i32(wsx + 1)
        elif direction == "R":
            edge = _i32(xoff + _i32(sx) + 1)
            if edge >= wsx:
                edge = 0
        else:
            raise ValueError(f"bad direction {direction!r}")
        lo, hi = yoff, _i32(yoff + _i32(sy))
        for nxt in self.panes:
            if _pid(nxt) == _pid(pane):
                continue
            g = self._geom[_pid(nxt)]
            if direction == "L":
                if _i32(g[0] + _i32(g[2]) + 1) != edge:
                    continue
            elif g[0] != edge:
                continue
            start, end = g[1], _i32(g[1] + _i32(g[3]) - 1)
            if (start < lo and end > hi) or lo <= start <= hi or lo <= end <= hi:
                out.append(nxt)
        return out

    def pane_at(self, x: int, y: int) -> Any:
        """The visible pane at a window position (``window_get_active_at``), or None, the
        topmost in the z-order: a tiled pane owns its right border and the row below it,
        with ``pane-border-status top`` its status line above it (which wins over the pane
        above), a floating pane all its borders."""
        root = self.root
        if root is None:
            return None
        shown = {_pid(lc.pane) for lc in root.leaves() if lc.pane is not None}
        floating = {_pid(p) for p in self.z_index if self.is_floating(p)}
        visible = [wp for wp in self.z_index if _pid(wp) in shown]
        top = self._status == PANE_STATUS_TOP
        if top:
            for wp in visible:
                if _pid(wp) in floating:
                    continue
                xoff, yoff, sx, sy = self._geom[_pid(wp)]
                if xoff <= x <= xoff + sx and y == yoff - 1:
                    return wp
        for wp in visible:
            xoff, yoff, sx, sy = self._geom[_pid(wp)]
            if _pid(wp) in floating:
                if xoff - 1 <= x <= xoff + sx and yoff - 1 <= y <= yoff + sy:
                    return wp
                continue
            if x < xoff or x > xoff + sx:
                continue
            if y < (yoff - 1 if top else yoff) or y > yoff + sy:
                continue
            return wp
        return None

    def search_by_border(self, x: int, y: int) -> LayoutCell | None:
        """The cell whose right/bottom border is at x,y (``layout_search_by_border``)."""
        if self.root is None:
            return None
        return _search_by_border(self.root, x, y)


def _copy_tree(lc: LayoutCell | None, parent: LayoutCell | None = None) -> LayoutCell | None:
    """Copy cells (sharing the panes), to roll an operation back."""
    if lc is None:
        return None
    new = LayoutCell(parent)
    new.type = lc.type
    new.set_size(lc.sx, lc.sy, lc.xoff, lc.yoff)
    new.pane = lc.pane
    new.children = [_copy_tree(c, new) for c in lc.children]  # type: ignore[misc]
    return new


def _tree_sane(lc: LayoutCell | None, empty_ok: bool = True) -> bool:
    """No wrapped-around (absurd) sizes or offsets anywhere (and, unless empty_ok, no
    cell of size 0)."""
    if lc is None:
        return True
    if max(lc.sx, lc.sy, lc.xoff, lc.yoff) > WINDOW_MAXIMUM * 2:
        return False
    if not empty_ok and (lc.sx == 0 or lc.sy == 0):
        return False
    return all(_tree_sane(c, empty_ok) for c in lc.children)


def _search_by_border(lc: LayoutCell, x: int, y: int) -> LayoutCell | None:
    last: LayoutCell | None = None
    for c in lc.children:
        if c.xoff <= x < c.xoff + c.sx and c.yoff <= y < c.yoff + c.sy:
            return _search_by_border(c, x, y)
        if last is None:
            last = c
            continue
        if lc.type == LEFTRIGHT:
            if x < c.xoff and x >= last.xoff + last.sx:
                return last
        elif lc.type == TOPBOTTOM:
            if y < c.yoff and y >= last.yoff + last.sy:
                return last
        last = c
    return None


def swap_panes(src_layout: Layout, src: Any, dst_layout: Layout, dst: Any) -> None:
    """``swap-pane``: exchange two panes' places (cells, geometry and pane-list positions),
    within one window or between two.  The caller handles active panes and zoom."""
    if _pid(src) == _pid(dst):
        return
    src_layout.unzoom()
    dst_layout.unzoom()
    dpanes, spanes = dst_layout.panes, src_layout.panes
    di = dst_layout._index(dst)
    tmp = dpanes[di - 1] if di > 0 else None
    del dpanes[di]
    spanes[src_layout._index(src)] = dst
    if tmp is not None and _pid(tmp) == _pid(src):
        tmp = dst
    if tmp is None:
        dpanes.insert(0, src)
    else:
        dpanes.insert(dst_layout._index(tmp) + 1, src)

    # the z-orders the same way
    dz, sz = dst_layout.z_index, src_layout.z_index
    di = next(i for i, p in enumerate(dz) if _pid(p) == _pid(dst))
    ztmp = dz[di - 1] if di > 0 else None
    del dz[di]
    sz[next(i for i, p in enumerate(sz) if _pid(p) == _pid(src))] = dst
    if ztmp is not None and _pid(ztmp) == _pid(src):
        ztmp = dst
    if ztmp is None:
        dz.insert(0, src)
    else:
        dz.insert(next(i for i, p in enumerate(dz) if _pid(p) == _pid(ztmp)) + 1, src)

    # each pane takes the other's cell, floating or not (tmux's development tree; 3.7b
    # refuses to swap a floating pane)
    src_lc = src_layout.cell_of(src)
    dst_lc = dst_layout.cell_of(dst)
    if src_lc is not None:
        src_lc.pane = dst
    if dst_lc is not None:
        dst_lc.pane = src

    sg = src_layout._geom.pop(_pid(src))
    dg = dst_layout._geom.pop(_pid(dst))
    src_layout._geom[_pid(dst)] = sg.copy()
    dst_layout._geom[_pid(src)] = dg.copy()
    # each pane now has the other's geometry; both change size unless equal
    if (sg[2], sg[3]) != (dg[2], dg[3]):
        src_layout._resized[_pid(dst)] = dst
        dst_layout._resized[_pid(src)] = src
    # then tmux 3.7b refits both windows from their cells (their pane-border-status may differ)
    if src_layout is not dst_layout:
        src_layout._fix_panes()
    dst_layout._fix_panes()
