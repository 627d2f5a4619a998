"""Tree modes (tmux 3.3a's mode-tree.c and its users window-tree.c, window-buffer.c and
window-client.c): a list of items, some with children, one current, any tagged, drawn over the
pane with a preview of the current item below it in a box.

``TreeMode`` is the generic part (mode_tree_data: items, lines, keys, filter, sort, tagging,
drawing); ``WindowTreeMode`` (choose-tree, find-window), ``BufferMode`` (choose-buffer) and
``ClientMode`` (choose-client) give it their items, previews and extra keys. Drawing goes into
a small cell canvas (``Canvas``) that follows tmux's screen_write calls, so rows come out with
the same cells tmux puts in its mode screen.
"""

from __future__ import annotations

import time
from typing import Any

from .. import keys as K
from ..screen.cells import ATTR_BRIGHT, ATTR_REVERSE, DEFAULT_STYLE, Style, char_width
from . import Mode, redraw, reset_mode, style_option

Cell = tuple[str, Style]

DEFAULT_KEY_FORMAT = ("#{?#{e|<:#{line},10},#{line},#{e|<:#{line},36},"
                      "M-#{a:#{e|+:97,#{e|-:#{line},10}}}}")

WINDOW_TREE_DEFAULT_COMMAND = "switch-client -Zt '%%'"
WINDOW_TREE_DEFAULT_FORMAT = (
    "#{?pane_format,"
    "#{?pane_marked,#[reverse],}#{?pane_floating_flag,#[italics],}"
    "#{pane_current_command}#{pane_flags}"
    "#{?#{&&:#{pane_title},#{!=:#{pane_title},#{host_short}}},: \"#{pane_title}\",}"
    ",window_format,"
    "#{?window_marked_flag,#[reverse],}"
    "#{window_name}#{window_flags}"
    "#{?#{&&:#{==:#{window_panes},1},#{&&:#{pane_title},#{!=:#{pane_title},#{host_short}}}},"
    ": \"#{pane_title}\",}"
    ","
    "#{session_windows} windows"
    "#{?session_grouped, (group #{session_group}: #{session_group_list}),}"
    "#{?session_attached, (attached),}"
    "}")
BUFFER_DEFAULT_COMMAND = "paste-buffer -p -b '%%'"
BUFFER_DEFAULT_FORMAT = "#{t/p:buffer_created}: #{buffer_sample}"
CLIENT_DEFAULT_COMMAND = "detach-client -t '%%'"
CLIENT_DEFAULT_FORMAT = "#{t/p:client_activity}: session #{session_name}"

# tmux's ACS characters as a UTF-8 terminal is sent them (tty_acs_table).
ACS = {"x": "\u2502", "q": "\u2500", "m": "\u2514", "t": "\u251c", "l": "\u250c",
       "k": "\u2510", "j": "\u2518", "u": "\u2524", "w": "\u252c", "v": "\u2534",
       "n": "\u253c"}


def _install_format_variables() -> None:
    """tree_mode_format, buffer_mode_format and client_mode_format: the modes' defaults."""
    from ..formats_vars import VARIABLES

    VARIABLES["tree_mode_format"] = lambda ctx: WINDOW_TREE_DEFAULT_FORMAT
    VARIABLES["buffer_mode_format"] = lambda ctx: BUFFER_DEFAULT_FORMAT
    VARIABLES["client_mode_format"] = lambda ctx: CLIENT_DEFAULT_FORMAT


_install_format_variables()


# -- drawing ---------------------------------------------------------------------------------------

class Canvas:
    """The mode's screen: cells and a cursor, written as tmux's screen_write functions do."""

    def __init__(self, sx: int, sy: int, hyperlinks: Any = None) -> None:
        self.sx, self.sy = sx, sy
        self.cx = self.cy = 0
        self.rows: list[list[Cell]] = [[(" ", DEFAULT_STYLE)] * sx for _ in range(sy)]
        #: The mode screen's hyperlink set, which ``link=`` styles in formats go to (beyond
        #: 3.7b); the links drawn, by row: (first column, end column, URI, id).
        self.hyperlinks = hyperlinks
        self.links: dict[int, list[tuple[int, int, str, str]]] = {}

    def clear(self) -> None:
        self.rows = [[(" ", DEFAULT_STYLE)] * self.sx for _ in range(self.sy)]
        self.links = {}

    def move(self, x: int, y: int) -> None:
        self.cx, self.cy = x, y

    def cell(self, ch: str, st: Style, wide: bool = False) -> None:
        """One cell at the cursor, which moves on; nothing is written off the screen."""
        x, y = self.cx, self.cy
        if 0 <= y < self.sy and 0 <= x < self.sx:
            row = self.rows[y]
            if wide:
                if x + 1 < self.sx:
                    row[x] = (ch, st)
                    row[x + 1] = ("", st)
            else:
                row[x] = (ch, st)
        self.cx += 2 if wide else 1

    def clear_eol(self, bg: int) -> None:
        y = self.cy
        if 0 <= y < self.sy:
            st = (0, 8, bg, 0)
            row = self.rows[y]
            for x in range(max(self.cx, 0), self.sx):
                row[x] = (" ", st)

    def puts(self, text: str, st: Style, maxlen: int = -1) -> int:
        """screen_write_nputs: ``\\001`` toggles the line-drawing set; returns the width."""
        size = 0
        acs = False
        for ch in text:
            if ch == "\x01":
                acs = not acs
                continue
            if ord(ch) < 0x80:
                if maxlen > 0 and size + 1 > maxlen:
                    break
                if 0x1F < ord(ch) < 0x7F:
                    self.cell(ACS.get(ch, ch) if acs else ch, st)
                    size += 1
                continue
            w = char_width(ch)
            if w <= 0:
                continue
            if maxlen > 0 and size + w > maxlen:
                while size < maxlen:
                    self.cell(" ", st)
                    size += 1
                break
            self.cell(ch, st, wide=w == 2)
            size += w
        return size

    def hline(self, n: int) -> None:
        x, y = self.cx, self.cy
        for _ in range(n):
            self.cell(ACS["q"], DEFAULT_STYLE)
        self.move(x, y)

    def vline(self, n: int) -> None:
        x, y = self.cx, self.cy
        for i in range(n):
            self.move(x, y + i)
            self.cell(ACS["x"], DEFAULT_STYLE)
        self.move(x, y)

    def box(self, nx: int, ny: int) -> None:
        """screen_write_box with the default (single) lines."""
        x, y = self.cx, self.cy
        st = DEFAULT_STYLE
        self.cell(ACS["l"], st)
        for _ in range(1, nx - 1):
            self.cell(ACS["q"], st)
        self.cell(ACS["k"], st)
        self.move(x, y + ny - 1)
        self.cell(ACS["m"], st)
        for _ in range(1, nx - 1):
            self.cell(ACS["q"], st)
        self.cell(ACS["j"], st)
        for i in range(1, ny - 1):
            self.move(x, y + i)
            self.cell(ACS["x"], st)
            self.move(x + nx - 1, y + i)
            self.cell(ACS["x"], st)
        self.move(x, y)

    def format_draw(self, text: str, base: Style, available: int) -> None:
        """format_draw: styled, aligned text in ``available`` cells from the cursor; only the
        cells text goes to are written."""
        if available <= 0:
            return
        from .. import status
        from ..options import Style as OptStyle

        drawn = [False] * available
        cells = status.draw(text, available, OptStyle(fg=base[1], bg=base[2], attr=base[0]),
                            drawn=drawn, links=self.hyperlinks)
        y = self.cy
        if not 0 <= y < self.sy:
            return
        row = self.rows[y]
        spans: list[tuple[int, int, str, str]] | None = None
        for i, (ch, st) in enumerate(cells):
            x = self.cx + i
            if drawn[i] and 0 <= x < self.sx:
                if len(st) > 4:  # a linked cell: its link is kept by column
                    link = st[4]
                    st = (st[0] & ~status.ATTR_LINKED, st[1], st[2], st[3])
                    if spans is None:
                        spans = self.links.setdefault(y, [])
                    if spans and spans[-1][1] == x and spans[-1][2:] == (link[1], link[0]):
                        spans[-1] = (spans[-1][0], x + 1, link[1], link[0])
                    else:
                        spans.append((x, x + 1, link[1], link[0]))
                row[x] = (ch, st)

    def copy_cells(self, cells: list[Cell], nx: int) -> None:
        """One source row's first ``nx`` cells at the cursor (screen_write_fast_copy)."""
        y = self.cy
        if not 0 <= y < self.sy:
            return
        row = self.rows[y]
        for i, cell in enumerate(cells[:nx]):
            x = self.cx + i
            if 0 <= x < self.sx:
                row[x] = cell

    def preview(self, src: Any, nx: int, ny: int) -> None:
        """screen_write_preview: part of a pane's screen, around its cursor when it shows."""
        cx, cy = self.cx, self.cy
        ssx, ssy = src.cols, src.rows
        cursor = bool(getattr(src, "cursor_visible", True))
        px = py = 0
        if cursor:
            px = src.cursor_x
            px = 0 if px < nx // 3 else px - nx // 3
            if px + nx > ssx:
                px = 0 if nx > ssx else ssx - nx
            py = src.cursor_y
            py = 0 if py < ny // 3 else py - ny // 3
            if py + ny > ssy:
                py = 0 if ny > ssy else ssy - ny
        rows: dict[int, list[Cell]] = {}
        for yy in range(py, min(py + ny, ssy)):
            cells = _row_cells(src, yy, ssx)
            rows[yy] = cells
            self.move(cx, cy + yy - py)
            part = cells[px:px + nx]
            if part and part[-1][0] != "" and px + len(part) < len(cells) \
                    and cells[px + len(part)][0] == "":
                part = part[:-1]  # a wide character that does not fit is left out
            self.copy_cells(part, nx)
        if cursor:
            sx_, sy_ = src.cursor_x, src.cursor_y
            cells = rows.get(sy_) or _row_cells(src, sy_, ssx) if 0 <= sy_ < ssy else []
            ch, st = cells[sx_] if 0 <= sx_ < len(cells) else (" ", DEFAULT_STYLE)
            self.move(cx + sx_ - px, cy + sy_ - py)
            self.cell(ch or " ", (st[0] | ATTR_REVERSE, st[1], st[2], st[3]))
        self.move(cx, cy)

    def runs(self, y: int) -> list[tuple[str, Style]]:
        out: list[tuple[str, Style]] = []
        text: list[str] = []
        cur: Style | None = None
        for ch, st in self.rows[y]:
            if st != cur:
                if text:
                    out.append(("".join(text), cur))  # type: ignore[arg-type]
                text = []
                cur = st
            text.append(ch)
        if text:
            out.append(("".join(text), cur))  # type: ignore[arg-type]
        return out


def _row_cells(src: Any, y: int, width: int) -> list[Cell]:
    """A screen row as cells (a wide character then its padding cell ``""``)."""
    out: list[Cell] = []
    for text, st in src.row_runs(y):
        for ch in text:
            w = char_width(ch) if not ch.isascii() else 1
            if w == 0 and out:
                out[-1] = (out[-1][0] + ch, out[-1][1])
                continue
            if w < 0:
                continue
            out.append((ch, st))
            if w == 2:
                out.append(("", st))
    if len(out) < width:
        out.extend([(" ", DEFAULT_STYLE)] * (width - len(out)))
    return out


def _mode_style(wp: Any) -> Style:
    return style_option(wp.window.options, "mode-style")


# -- the generic tree ------------------------------------------------------------------------------

class Item:
    """mode_tree_item: one entry; ``tag`` identifies it across rebuilds."""

    __slots__ = ("parent", "data", "line", "key", "keystr", "tag", "name", "text", "expanded",
                 "tagged", "draw_as_parent", "no_tag", "align", "children")

    def __init__(self, parent: Item | None, data: Any, tag: Any, name: str,
                 text: str | None) -> None:
        self.parent = parent
        self.data = data
        self.line = 0
        self.key = K.KEYC_NONE
        self.keystr = ""
        self.tag = tag
        self.name = name
        self.text = text
        self.expanded = False
        self.tagged = False
        self.draw_as_parent = False
        self.no_tag = False
        self.align = 0  # mode_tree_align: 1 right-aligns the name among its depth's names
        self.children: list[Item] = []


class Line:
    __slots__ = ("item", "depth", "last", "flat")

    def __init__(self, item: Item, depth: int, last: bool) -> None:
        self.item = item
        self.depth = depth
        self.last = last
        self.flat = True


def _find(items: list[Item], tag: Any) -> Item | None:
    for it in items:
        if it.tag == tag:
            return it
        found = _find(it.children, tag)
        if found is not None:
            return found
    return None


def _clear_tagged(items: list[Item]) -> None:
    for it in items:
        it.tagged = False
        _clear_tagged(it.children)


_NO_TAG = object()

PREVIEW_OFF, PREVIEW_NORMAL, PREVIEW_BIG = 0, 1, 2

# sort.c's orders by the names -O takes (sort_order_from_string); None is SORT_END.
_ORDER_NAMES = {"activity": "activity", "creation": "creation", "index": "index",
                "key": "index", "modifier": "modifier", "name": "name", "title": "name",
                "order": "order", "size": "size", "z": "z"}


def sort_order_from_string(order: str | None) -> str | None:
    """An -O value (any case) as an order name, None when absent or unknown."""
    return _ORDER_NAMES.get(order.lower()) if order is not None else None


def sort_items(items: list[Any], order: str | None, reverse: bool, cmp: Any) -> list[Any]:
    """sort_qsort: no order leaves the list as it is, "order" only reverses it, anything else
    sorts with ``cmp(order, a, b)`` (its own tie-break) reversed as a whole with -r."""
    from functools import cmp_to_key

    if order is None:
        return list(items)
    if order == "order":
        return list(reversed(items)) if reverse else list(items)
    if reverse:
        return sorted(items, key=cmp_to_key(lambda a, b: -cmp(order, a, b)))
    return sorted(items, key=cmp_to_key(lambda a, b: cmp(order, a, b)))


def _bytes_cmp(a: str, b: str) -> int:
    ab, bb = a.encode("utf-8", "surrogateescape"), b.encode("utf-8", "surrogateescape")
    return (ab > bb) - (ab < bb)


def _cmp_session(order: str, a: Any, b: Any) -> int:
    """sort_session_cmp."""
    r = 0
    if order == "index":
        r = _cmp(a.id, b.id)
    elif order == "creation":
        r = _cmp(a.created, b.created)
    elif order == "activity":
        r = -_cmp(a.activity_time, b.activity_time)
    elif order == "name":
        r = _bytes_cmp(a.name, b.name)
    return r or _bytes_cmp(a.name, b.name)


def _cmp_winlink(order: str, a: Any, b: Any) -> int:
    """sort_winlink_cmp."""
    wa, wb = a.window, b.window
    r = 0
    if order == "index":
        r = _cmp(a.idx, b.idx)
    elif order == "creation":
        r = _cmp(wa.created, wb.created)
    elif order == "activity":
        r = -_cmp(wa.activity_time, wb.activity_time)
    elif order == "name":
        r = _bytes_cmp(wa.name, wb.name)
    elif order == "size":
        r = _cmp(wa.sx * wa.sy, wb.sx * wb.sy)
    return r or _bytes_cmp(wa.name, wb.name)


def _pane_title(wp: Any) -> str:
    return str(getattr(wp.screen, "title", "") or "")


def _cmp_pane(order: str, a: Any, b: Any) -> int:
    """sort_pane_cmp (panes have no stacking order here: z compares equal)."""
    r = 0
    if order == "activity":
        r = _cmp(getattr(a, "active_point", 0), getattr(b, "active_point", 0))
    elif order == "creation":
        r = _cmp(a.id, b.id)
    elif order == "size":
        r = _cmp(a.sx * a.sy, b.sx * b.sy)
    elif order == "index":
        r = _cmp(a.window.pane_index(a), b.window.pane_index(b))
    elif order == "name":
        r = _bytes_cmp(_pane_title(a), _pane_title(b))
    return r or _bytes_cmp(_pane_title(a), _pane_title(b))


def _lowercase(text: str) -> bool:
    """mode_tree_is_lowercase: a search without capitals ignores case."""
    return text == text.lower()


def _has(text: str, find: str, icase: bool) -> bool:
    """strstr / strcasestr."""
    if icase:
        return find.lower() in text.lower()
    return find in text


def _ctrl(letter: str) -> int:
    """A Ctrl key as tmux 3.7b has it (C-t is t with Ctrl, not 0x14)."""
    return ord(letter) | K.KEYC_CTRL


#: mode_tree_key's keys that leave the mode: q, Escape, C-[ and C-g.
_TREE_EXIT = (ord("q"), 0x1B, ord("[") | K.KEYC_CTRL, ord("g") | K.KEYC_CTRL)
UPDATE_INTERVAL = 1.0  # UINT64_MAX: no current item yet


# mode_tree_help_start / _end: the keys every tree mode has ("%1" is the mode's word for
# an item), then the mode's own lines between them.
HELP_START = (
    ("Up, k", "Move cursor up"), ("Down, j", "Move cursor down"), ("g", "Go to top"),
    ("G", "Go to bottom"), ("PPage, C-b", "Page up"), ("NPage, C-f", "Page down"),
    ("Left, h", "Collapse %1"), ("Right, l", "Expand %1"), ("M--", "Collapse all %1s"),
    ("M-+", "Expand all %1s"), ("t", "Toggle %1 tag"), ("T", "Untag all %1s"),
    ("C-t", "Tag all %1s"), ("C-s", "Search forward"), ("n", "Repeat search forward"),
    ("N", "Repeat search backward"), ("f", "Filter %1s"), ("O", "Change sort order"),
    ("r", "Reverse sort order"), ("v", "Toggle preview"))
HELP_DEFAULT_WIDTH = 39


def help_text(lines: tuple[tuple[str, str], ...], item: str) -> bytes:
    """The help as tmux writes it into its popup: the key in bold, a line-drawing bar,
    what it does."""
    out = ["\033[H\033[?25l\033[?7l\033)0"]
    rows = HELP_START + lines
    for key, text in rows:
        out.append(f"\r\033[1m{key:>11} \033[0m\016x\017 \033[0m{text}\n")
    out.append("\r\033[1m  q, Escape \033[0m\016x\017 \033[0mExit mode\033[H")
    out.append("\033[H")
    return "".join(out).replace("%1", item).encode()


OUTSIDE_MENU: tuple[tuple[str, int], ...] = (
    ("Scroll Left", ord("<")), ("Scroll Right", ord(">")), ("", K.KEYC_NONE),
    ("Cancel", ord("q")))


class TreeMode(Mode):
    """mode_tree_data plus the window_mode callbacks every tree mode shares."""

    #: The orders O goes through (a mode's order_seq); empty: the mode does not sort.
    order_seq: tuple[str, ...] = ()
    menu: tuple[tuple[str, int], ...] = ()
    #: The mode's lines of the C-h help (key, what it does) and the word for an item.
    help_lines: tuple[tuple[str, str], ...] = ()
    help_item = "item"
    help_width = 0
    default_format = ""
    default_command = ""

    def __init__(self, server: Any, wp: Any, target: Any = None, args: Any = None) -> None:
        super().__init__(server, wp)
        from .. import target as T

        self.fs = target.copy() if target is not None else T.State()
        self.args = args
        has = args.has if args is not None else (lambda f: False)
        get = args.get if args is not None else (lambda f: None)
        self.item_format = get("F") if has("F") else self.default_format
        self.key_format = get("K") if has("K") else DEFAULT_KEY_FORMAT
        cmd = args.string(0) if args is not None and args.nargs else None
        self.template = cmd if cmd is not None else self.default_command
        n = args.count("N") if args is not None else 0
        self.preview = PREVIEW_BIG if n > 1 else PREVIEW_OFF if n else PREVIEW_NORMAL
        self.sort_order = sort_order_from_string(get("O"))
        self.reversed = has("r")
        self.search_backward = False
        self.search_icase = False
        self.filter: str | None = get("f") if has("f") else None
        self.search: str | None = None
        self.no_matches = False
        self.children: list[Item] = []
        self.saved: list[Item] = []
        self.lines: list[Line] = []
        self.depth = 0
        self.maxdepth = 0
        self.offset = 0
        self.current = 0
        self.sx, self.sy = wp.sx, wp.sy
        self.width, self.height = self.sx, self.sy
        from ..screen.hyperlinks import Hyperlinks

        self.hyperlinks = Hyperlinks()  # links its formats draw (the mode screen's)
        self.canvas = Canvas(self.sx, self.sy, self.hyperlinks)
        self.zoomed = -1
        self.dead = False
        self.started = False
        self.from_client = True
        self.built_at = 0.0
        self.event: Any = None  # the mouse event of the key being handled
        self.mouse_x = 0

    # -- window_mode ---------------------------------------------------------------------------

    def start(self) -> None:
        """After the mode is on the pane (a zoom resizes it): zoom, build and draw."""
        self.started = True
        if self.args is not None and self.args.has("Z"):
            w = self.wp.window
            self.zoomed = int(w.zoomed)
            if not self.zoomed and w.layout is not None and w.layout.zoom(self.wp):
                from ..model import apply_layout

                w.set_active(self.wp)
                apply_layout(w)
        self.sx, self.sy = self.wp.sx, self.wp.sy
        self.canvas = Canvas(self.sx, self.sy, self.hyperlinks)
        self.build()
        self.draw()
        self.started_done()

    def started_done(self) -> None:
        """What a mode does once its first build is over (window-tree forgets its type)."""

    def free(self) -> None:
        self.dead = True
        if self.zoomed == 0:
            w = self.wp.window
            if w.layout is not None and w.layout.unzoom():
                from ..model import apply_layout

                apply_layout(w)

    def resize(self, sx: int, sy: int) -> None:
        self.sx, self.sy = sx, sy
        self.canvas = Canvas(sx, sy, self.hyperlinks)
        if self.started:
            self.build()
            self.draw()

    def update(self) -> None:
        """window_*_update: the things listed may have changed (on a status redraw)."""
        if self.dead or not self.started:
            return
        self.build()
        self.draw()

    def row_runs(self, y: int) -> list[tuple[str, Style]]:
        if y == 0 and self.started and not self.dead \
                and time.monotonic() - self.built_at >= UPDATE_INTERVAL:
            self.update()  # server_client_check_modes, at most once a second
        if y >= len(self.canvas.rows):
            return [(" " * self.sx, DEFAULT_STYLE)]
        return self.canvas.runs(y)

    def cursor(self) -> tuple[int, int] | None:
        return None

    def row_links(self, y: int) -> list[tuple[int, int, str, str]]:
        """The hyperlinks of ``link=`` styles on row ``y`` (first and end column, URI, id),
        which the renderer sends to a terminal with them."""
        spans = self.canvas.links.get(y)
        return sorted(spans) if spans else []

    # -- callbacks for the modes ---------------------------------------------------------------

    def build_items(self, tag: list[Any], flt: str | None) -> None:
        raise NotImplementedError

    def draw_preview(self, item: Item, c: Canvas, sx: int, sy: int) -> None:
        raise NotImplementedError

    def item_search(self, item: Item, text: str, icase: bool) -> bool:
        return _has(item.name, text, icase)

    def item_context(self, item: Item) -> Any:
        """The format context an item's key format expands in."""
        return None

    def mode_key(self, client: Any, key: int, item: Item | None, finished: bool) -> bool:
        """The mode's own keys after mode_tree_key; returns whether the mode ends."""
        return finished

    # -- mode_tree -----------------------------------------------------------------------------

    def add(self, parent: Item | None, data: Any, tag: Any, name: str, text: str | None,
            expanded: int) -> Item:
        """mode_tree_add: a saved item of the same tag keeps its tagged and expanded state."""
        it = Item(parent, data, tag, name, text)
        saved = _find(self.saved, tag)
        if saved is not None:
            if parent is None or parent.expanded:
                it.tagged = saved.tagged
            it.expanded = saved.expanded
        else:
            it.expanded = True if expanded == -1 else bool(expanded)
        (parent.children if parent is not None else self.children).append(it)
        return it

    def remove(self, it: Item) -> None:
        (it.parent.children if it.parent is not None else self.children).remove(it)

    def _item_key(self, it: Item) -> int:
        line = it.line
        if self.key_format == DEFAULT_KEY_FORMAT:
            if line < 10:
                return ord("0") + line
            if line < 36:
                return K.KEYC_META | (ord("a") + line - 10)
            return K.KEYC_NONE
        from .. import format as F

        ctx = self.item_context(it)
        if ctx is None:
            return K.KEYC_NONE
        ctx.extra["line"] = str(line)
        ctx._cache.pop("line", None)
        key = K.string_to_key(F.expand(self.key_format, ctx))
        return K.KEYC_NONE if key == K.KEYC_UNKNOWN else key

    def _build_lines(self, items: list[Item], depth: int) -> None:
        self.depth = depth
        self.maxdepth = max(self.maxdepth, depth)
        flat = True
        first = len(self.lines)
        for it in items:
            line = Line(it, depth, it is items[-1])
            self.lines.append(line)
            it.line = len(self.lines) - 1
            if it.children:
                flat = False
            if it.expanded:
                self._build_lines(it.children, depth + 1)
            it.key = self._item_key(it)
            it.keystr = K.key_to_string(it.key) if it.key != K.KEYC_NONE else ""
        mine = {id(it) for it in items}
        for line in self.lines[first:]:
            if id(line.item) in mine:
                line.flat = flat

    def build(self) -> None:
        """mode_tree_build: the items again, the current one found again by its tag."""
        tag: list[Any] = [self.lines[self.current].item.tag if self.lines else _NO_TAG]
        self.saved = self.children
        self.children = []
        if self.order_seq and self.sort_order is None:
            self.sort_order = self.order_seq[0]  # the mode's sort callback
        self.build_items(tag, self.filter)
        self.no_matches = not self.children
        if self.no_matches:
            self.build_items(tag, None)
        self.saved = []
        self.built_at = time.monotonic()
        self.lines = []
        self.maxdepth = 0
        self._build_lines(self.children, 0)
        if tag[0] is _NO_TAG and self.lines:
            tag[0] = self.lines[min(self.current, len(self.lines) - 1)].item.tag
        self.set_current(tag[0])
        self.width = self.sx
        if self.preview != PREVIEW_OFF:
            self._set_height()
        else:
            self.height = self.sy
        self._check_selected()

    def _set_height(self) -> None:
        """mode_tree_set_height: two thirds for the list (half when it is short) with the
        normal preview, a quarter with the big one."""
        sy = self.sy
        if self.preview == PREVIEW_NORMAL:
            self.height = (sy // 3) * 2
            if self.height > len(self.lines):
                self.height = sy // 2
            if self.height < 10:
                self.height = sy
        elif self.preview == PREVIEW_BIG:
            self.height = sy // 4
            if self.height > len(self.lines):
                self.height = len(self.lines)
            if self.height < 2:
                self.height = 2
        else:
            self.height = sy
        if sy - self.height < 2:
            self.height = sy

    def _check_selected(self) -> None:
        if self.current > self.height - 1:
            self.offset = self.current - self.height + 1

    def set_current(self, tag: Any) -> bool:
        for i, line in enumerate(self.lines):
            if line.item.tag == tag:
                self.current = i
                self.offset = i - self.height + 1 if i > self.height - 1 else 0
                return True
        if self.current >= len(self.lines):  # gone: the last line rather than the first
            if not self.lines:
                return False
            self.current = len(self.lines) - 1
            self.offset = (self.current - self.height + 1
                           if self.current > self.height - 1 else 0)
        return False

    def expand(self, tag: Any) -> None:
        for line in self.lines:
            if line.item.tag == tag:
                if not line.item.expanded:
                    line.item.expanded = True
                    self.build()
                return

    def up(self, wrap: bool) -> None:
        if not self.lines:
            return
        if self.current == 0:
            if wrap:
                self.current = len(self.lines) - 1
                if len(self.lines) >= self.height:
                    self.offset = len(self.lines) - self.height
        else:
            self.current -= 1
            if self.current < self.offset:
                self.offset -= 1

    def down(self, wrap: bool) -> bool:
        """mode_tree_down: False when at the end without wrapping (nothing moved)."""
        if not self.lines:
            return False
        if self.current == len(self.lines) - 1:
            if not wrap:
                return False
            self.current = self.offset = 0
        else:
            self.current += 1
            if self.current > self.offset + self.height - 1:
                self.offset += 1
        return True

    def swap(self, direction: int) -> None:
        """mode_tree_swap (S-Up, S-Down, K, J): the current item with the next one at its
        depth under the same parent, if the mode can swap them."""
        if not self.lines:
            return
        depth = self.lines[self.current].depth
        other = self.current
        while True:
            if direction < 0 and other < -direction:
                return
            if direction > 0 and other + direction >= len(self.lines):
                return
            other += direction
            if self.lines[other].depth <= depth:
                break
        if self.lines[other].depth != depth:
            return
        if self.swap_items(self.lines[self.current].item, self.lines[other].item):
            self.current = other
            self.build()

    def swap_items(self, cur: Item, other: Item) -> bool:
        """The mode's swap callback; no mode swaps by default."""
        return False

    def current_item(self) -> Item | None:
        return self.lines[self.current].item if self.lines else None

    def count_tagged(self) -> int:
        return sum(1 for line in self.lines if line.item.tagged)

    def each_tagged(self, fn: Any, client: Any, key: int, current: bool) -> None:
        fired = False
        for line in list(self.lines):
            if line.item.tagged:
                fired = True
                fn(line.item, client, key)
        if not fired and current and self.lines:
            fn(self.lines[self.current].item, client, key)

    def draw(self) -> None:
        """mode_tree_draw."""
        if not self.lines:
            return
        c = self.canvas
        c.clear()
        gc = _mode_style(self.wp)
        gc0 = DEFAULT_STYLE
        w, h = self.width, self.height
        keylen = 0
        alignlen = [0] * (self.maxdepth + 1)
        for line in self.lines:
            it = line.item
            if it.key != K.KEYC_NONE and len(it.keystr) + 3 > keylen:
                keylen = len(it.keystr) + 3
            if it.align and len(it.name.encode()) > alignlen[line.depth]:
                alignlen[line.depth] = len(it.name.encode())
        for i in range(self.offset, min(len(self.lines), self.offset + h)):
            line = self.lines[i]
            it = line.item
            c.move(0, i - self.offset)
            if it.key != K.KEYC_NONE:
                key = f"({it.keystr})" + " " * max(keylen - 2 - len(it.keystr), 0)
            else:
                key = ""
            if line.flat:
                symbol = ""
            elif not it.children:
                symbol = "  "
            elif it.expanded:
                symbol = "- "
            else:
                symbol = "+ "
            if line.depth == 0:
                start = symbol
            else:
                parts = []
                for _ in range(1, line.depth):
                    if it.parent is not None and self.lines[it.parent.line].last:
                        parts.append("    ")
                    else:
                        parts.append("\x01x\x01   ")
                parts.append("\x01mq\x01> " if line.last else "\x01tq\x01> ")
                parts.append(symbol)
                start = "".join(parts)
            name = it.name
            if it.align:  # "%*s": padded to the widest name at its depth (in bytes)
                name = " " * (it.align * alignlen[line.depth] - len(name.encode())) + name
            text = (key.ljust(keylen) + start + name + ("*" if it.tagged else "")
                    + (": " if it.text is not None else ""))
            width = min(_cstrwidth(text), w)
            g, g0 = gc, gc0
            if it.tagged:
                g = (g[0] ^ ATTR_BRIGHT, g[1], g[2], g[3])
                g0 = (g0[0] ^ ATTR_BRIGHT, g0[1], g0[2], g0[3])
            if i != self.current:
                c.clear_eol(8)
                c.puts(text, g0, w)
                if it.text is not None:
                    c.format_draw(it.text, g0, w - width)
            else:
                c.clear_eol(g[2])
                c.puts(text, g, w)
                if it.text is not None:
                    c.format_draw(it.text, g, w - width)
        sy = self.sy
        if self.preview == PREVIEW_OFF or sy <= 4 or h < 2 or sy - h <= 4 or w <= 4:
            return
        it = self.lines[self.current].item
        if it.draw_as_parent and it.parent is not None:
            it = it.parent
        c.move(0, h)
        c.box(w, sy - h)
        if self.order_seq:
            text = (f" {it.name} (sort: {self.sort_order}"
                    f"{', reversed' if self.reversed else ''})")
        else:
            text = f" {it.name}"
        if w - 2 >= len(text.encode("utf-8", "surrogateescape")):
            c.move(1, h)
            c.puts(text, gc0)
            n = len("no matches") if self.no_matches else len("active")
            if self.filter is not None and w - 2 >= len(text.encode()) + 10 + n + 2:
                c.puts(" (filter: ", gc0)
                if self.no_matches:
                    c.puts("no matches", gc)
                else:
                    c.puts("active", gc0)
                c.puts(") ", gc0)
            else:
                c.puts(" ", gc0)
        box_x, box_y = w - 4, sy - h - 2
        if box_x > 0 and box_y > 0:
            c.move(2, h + 1)
            self.draw_preview(it, c, box_x, box_y)

    def _matches(self, it: Item) -> bool:
        assert self.search is not None
        return self.item_search(it, self.search, self.search_icase)

    def _search_forward(self) -> Item | None:
        """mode_tree_search_forward: the next item matching, through every item."""
        if self.search is None or not self.lines:
            return None
        it: Item | None = self.lines[self.current].item
        last = it
        while True:
            assert it is not None
            if it.children:
                it = it.children[0]
            else:
                nxt = _next_sibling(self, it)
                if nxt is not None:
                    it = nxt
                else:
                    while True:
                        it = it.parent
                        if it is None:
                            break
                        nxt = _next_sibling(self, it)
                        if nxt is not None:
                            it = nxt
                            break
            if it is None:
                it = self.children[0] if self.children else None
                if it is None:
                    return None
            if it is last:
                return None
            if self._matches(it):
                return it

    def _search_backward(self) -> Item | None:
        """mode_tree_search_backward (N): the previous item matching."""
        if self.search is None or not self.lines:
            return None
        it: Item | None = self.lines[self.current].item
        last = it
        while True:
            assert it is not None
            prev = _prev_sibling(self, it)
            if prev is not None:
                while prev.children:  # the last item of the previous subtree
                    prev = prev.children[-1]
                it = prev
            else:
                it = it.parent
            if it is None:
                if not self.children:
                    return None
                prev = self.children[-1]
                while prev.children:
                    prev = prev.children[-1]
                it = prev
            if it is last:
                return None
            if self._matches(it):
                return it

    def _search_set(self) -> None:
        it = self._search_backward() if self.search_backward else self._search_forward()
        if it is None:
            return
        tag = it.tag
        loop = it.parent
        while loop is not None:
            loop.expanded = True
            loop = loop.parent
        self.build()
        self.set_current(tag)
        self.draw()
        redraw(self)

    def _prompt(self, client: Any, message: str, text: str | None, callback: Any,
                flags: int, ptype: int) -> None:
        from .. import prompt as PR

        if client is None:
            return
        PR.set_prompt(self.server, client, None, message, text, callback, None,
                      flags | PR.NOFORMAT, ptype)

    def tree_key(self, client: Any, key: int) -> tuple[bool, int]:
        """mode_tree_key: (whether the mode ends, the key left for the mode)."""
        from .. import prompt as PR

        if not self.lines:
            return True, K.KEYC_NONE  # nothing to choose: any key leaves
        if K.is_mouse_key(key) and self.event is not None:
            return self._tree_mouse(client, key)
        line = self.lines[self.current]
        current: Item | None = line.item
        for i, ln in enumerate(self.lines):
            if key == ln.item.key:
                self.current = i
                return False, ord("\r")
        if key in _TREE_EXIT:
            return True, key
        wheel_up = K.mouse_key("WheelUp", "Pane")
        wheel_down = K.mouse_key("WheelDown", "Pane")
        if key in (K.KEYC_F1, _ctrl("h")):
            self._display_help(client)
        elif key in (K.KEYC_UP, ord("k"), wheel_up, _ctrl("p")):
            self.up(True)
        elif key in (K.KEYC_DOWN, ord("j"), wheel_down, _ctrl("n")):
            self.down(True)
        elif key in (K.KEYC_UP | K.KEYC_SHIFT, ord("K")):
            self.swap(-1)
        elif key in (K.KEYC_DOWN | K.KEYC_SHIFT, ord("J")):
            self.swap(1)
        elif key in (K.KEYC_PPAGE, _ctrl("b")):
            for _ in range(self.height):
                if self.current == 0:
                    break
                self.up(True)
        elif key in (K.KEYC_NPAGE, _ctrl("f")):
            for _ in range(self.height):
                if self.current == len(self.lines) - 1:
                    break
                self.down(True)
        elif key in (ord("g"), K.KEYC_HOME):
            self.current = self.offset = 0
        elif key in (ord("G"), K.KEYC_END):
            self.current = len(self.lines) - 1
            self.offset = self.current - self.height + 1 if self.current > self.height - 1 else 0
        elif key == ord("t"):
            assert current is not None
            if not current.no_tag:
                if not current.tagged:
                    parent = current.parent
                    while parent is not None:
                        parent.tagged = False
                        parent = parent.parent
                    _clear_tagged(current.children)
                    current.tagged = True
                else:
                    current.tagged = False
                if self.from_client:
                    self.down(False)
        elif key == ord("T"):
            for ln in self.lines:
                ln.item.tagged = False
        elif key == _ctrl("t"):
            for ln in self.lines:
                it = ln.item
                it.tagged = ((it.parent is None and not it.no_tag)
                             or (it.parent is not None and it.parent.no_tag))
        elif key == ord("O"):
            if self.order_seq:  # sort_next_order
                seq = self.order_seq
                i = seq.index(self.sort_order) + 1 if self.sort_order in seq else 0
                self.sort_order = seq[i] if i < len(seq) else seq[0]
            self.build()
        elif key == ord("r"):
            self.reversed = not self.reversed
            self.build()
        elif key in (K.KEYC_LEFT, ord("h"), ord("-")):
            assert current is not None
            if line.flat or not current.expanded:
                current = current.parent
            if current is None:
                self.up(False)
            else:
                current.expanded = False
                self.current = current.line
                self.build()
        elif key in (K.KEYC_RIGHT, ord("l"), ord("+")):
            assert current is not None
            if line.flat or current.expanded:
                self.down(False)
            else:
                current.expanded = True
                self.build()
        elif key == ord("-") | K.KEYC_META:
            for it in self.children:
                it.expanded = False
            self.build()
        elif key == ord("+") | K.KEYC_META:
            for it in self.children:
                it.expanded = True
            self.build()
        elif key in (ord("?"), ord("/"), _ctrl("s")):
            self.search_backward = False
            self._prompt(client, "(search) ", "", self._search_callback, 0, PR.SEARCH)
        elif key in (ord("n"), ord("N")):
            self.search_backward = key == ord("N")
            self._search_set()
        elif key == ord("f"):
            self._prompt(client, "(filter) ", self.filter, self._filter_callback, 0, PR.SEARCH)
        elif key == ord("v"):  # off -> big -> normal -> off
            self.preview = {PREVIEW_OFF: PREVIEW_BIG, PREVIEW_NORMAL: PREVIEW_OFF,
                            PREVIEW_BIG: PREVIEW_NORMAL}[self.preview]
            self.build()
            if self.preview != PREVIEW_OFF:
                self._check_selected()
        return False, key

    def _display_help(self, client: Any) -> None:
        """mode_tree_display_help: the keys in a popup in the middle of the terminal."""
        from .. import overlays as O

        a = getattr(client, "attached", None)
        if a is None:
            return
        w = max(self.help_width, HELP_DEFAULT_WIDTH)
        h = len(HELP_START) + len(self.help_lines) + 1
        if a.tty.sx < w or a.tty.sy < h:
            return
        O.text_popup(self.server, client, (a.tty.sx - w) // 2, (a.tty.sy - h) // 2, w, h,
                     help_text(self.help_lines, self.help_item))

    def _search_callback(self, c: Any, s: str | None, done: bool) -> int:
        if self.dead:
            return 0
        if not s:
            self.search = None
            return 0
        self.search = s
        self.search_icase = _lowercase(s)
        self._search_set()
        return 0

    def _filter_callback(self, c: Any, s: str | None, done: bool) -> int:
        if self.dead:
            return 0
        self.filter = s if s else None
        self.build()
        self.draw()
        redraw(self)
        return 0

    def run_command(self, client: Any, fs: Any, template: str, name: str) -> None:
        """mode_tree_run_command: the template with %% as ``name``, queued on the client."""
        from ..commands.cmdparse import CmdParseError
        from ..commands.grammar import CommandError, template_replace
        from ..commands.prompt_cmds import queue_commands
        from ..commands.queue import QueueState, parse_text

        command = template_replace(template, name, 1)
        if not command:
            return
        try:
            cmdlist = parse_text(self.server, command)
        except (CmdParseError, CommandError) as e:
            if client is not None and client.session is not None:
                text = str(e)
                self.server.status_message(client, text[:1].upper() + text[1:])
            return
        queue_commands(self.server, client, cmdlist, QueueState(current=fs))

    def _tree_mouse(self, client: Any, key: int) -> tuple[bool, int]:
        """mode_tree_key for a mouse key: a click picks a line, a double click is Enter;
        in the preview the key stays for the mode (window-tree picks a window there)."""
        from ..mouse import mouse_at

        m = self.event
        pos = mouse_at(self.wp, m) if m is not None else None
        if pos is None:
            return False, K.KEYC_NONE
        x, y = pos
        self.mouse_x = x
        down1 = K.mouse_key("MouseDown1", "Pane")
        down3 = K.mouse_key("MouseDown3", "Pane")
        double1 = K.mouse_key("DoubleClick1", "Pane")
        if x > self.width or y > self.height:
            if key == down3:
                self._display_menu(client, x, y, True)
            return False, key if self.preview != PREVIEW_OFF else K.KEYC_NONE
        if self.offset + y < len(self.lines):
            if key in (down1, down3, double1):
                self.current = self.offset + y
            if key == double1:
                return False, ord("\r")
        if key == down3:
            self._display_menu(client, x, y, False)
        return False, K.KEYC_NONE

    def _display_menu(self, client: Any, x: int, y: int, outside: bool) -> None:
        """mode_tree_display_menu: the mode's menu for a line (right click), or the one
        for outside the list; a choice is that key on that line."""
        from .. import overlays as O
        from ..format import format_width

        a = getattr(client, "attached", None)
        if a is None or not self.lines or getattr(client, "overlay", None) is not None:
            return
        line = self.current if self.offset + y > len(self.lines) - 1 else self.offset + y
        it = self.lines[line].item
        title = "" if outside else f"#[align=centre]{it.name}"
        width = format_width(title)
        items: list[tuple[str | None, int, str | None]] = []
        for name, key in (OUTSIDE_MENU if outside else self.menu):
            if not name:
                if items and items[-1][0] is not None:
                    items.append((None, K.KEYC_NONE, None))
                continue
            shown = name
            if key not in (K.KEYC_UNKNOWN, K.KEYC_NONE):
                shown += f"#[default] #[align=right]({K.key_to_string(key)})"
            width = max(width, format_width(shown))
            items.append((shown, key, None))
        sx, sy = a.tty.sx, a.tty.sy
        if sx < width + 4 or sy < len(items) + 2:
            return
        x = x - (width + 4) // 2 if x >= (width + 4) // 2 else 0
        px = min(x, sx - width - 4)
        py = min(y, sy - len(items) - 2)

        def choose(index: int) -> None:
            key = items[index][1]
            if self.dead or key == K.KEYC_NONE or line >= len(self.lines):
                return
            if not (self.wp.modes and self.wp.modes[0] is self):
                return
            self.current = line
            self.from_client = False  # window_tree_menu: the key without a mouse event
            self._key(client, key)

        O.set_overlay(self.server, client, O.Menu(title, items, width, px, py, choose,
                                                  nomouse=False), 0)

    def mouse(self, client: Any, key: int, event: Any) -> None:
        """A mouse key with its event (send -M from the default mouse bindings)."""
        self.event = event
        try:
            self._key(client, key & ~K.KEYC_MASK_FLAGS)
        finally:
            self.event = None

    def key(self, client: Any, key: int, sent: bool = False) -> None:
        key &= ~K.KEYC_MASK_FLAGS
        # A key from a client comes with its mouse event in tmux (window_pane_key), one from
        # send-keys without; only the first moves down after tagging with t.
        self.from_client = not sent
        self._key(client, key)

    def _key(self, client: Any, key: int) -> None:
        before = self.current_item()
        finished, key = self.tree_key(client, key)
        item = self.current_item()
        finished = self.mode_key(client, key, item if item is not None else before, finished)
        if self.dead:
            return
        if finished:
            if self.wp.modes and self.wp.modes[0] is self:
                reset_mode(self.server, self.wp)
        else:
            self.draw()
            redraw(self)


def _prev_sibling(mode: TreeMode, it: Item) -> Item | None:
    siblings = it.parent.children if it.parent is not None else mode.children
    try:
        i = next(n for n, x in enumerate(siblings) if x is it)
    except StopIteration:
        return None
    return siblings[i - 1] if i > 0 else None


def _next_sibling(mode: TreeMode, it: Item) -> Item | None:
    siblings = it.parent.children if it.parent is not None else mode.children
    try:
        i = next(n for n, x in enumerate(siblings) if x is it)
    except StopIteration:
        return None
    return siblings[i + 1] if i + 1 < len(siblings) else None


def _cstrwidth(text: str) -> int:
    n = 0
    for ch in text:
        if ord(ch) < 0x80:
            if 0x1F < ord(ch) < 0x7F:
                n += 1
        else:
            n += max(char_width(ch), 0)
    return n


def _cmp(a: Any, b: Any) -> int:
    return (a > b) - (a < b)


# -- choose-tree ----------------------------------------------------------------------------------

NONE, SESSION, WINDOW, PANE = 0, 1, 2, 3


class TreeData:
    """window_tree_itemdata: what an item is, found again by ids each time it is used."""

    __slots__ = ("type", "session", "winlink", "pane")

    def __init__(self, type_: int, session: int, winlink: int, pane: int) -> None:
        self.type = type_
        self.session = session
        self.winlink = winlink
        self.pane = pane


class WindowTreeMode(TreeMode):
    name = "tree-mode"
    order_seq = ("index", "name", "activity", "z")
    help_lines = (
        ("Enter", "Choose selected item"), ("S-Up", "Swap current and previous window"),
        ("S-Down", "Swap current and next window"), ("x", "Kill selected item"),
        ("X", "Kill tagged items"), ("<", "Scroll previews left"),
        (">", "Scroll previews right"), ("m", "Set the marked pane"),
        ("M", "Clear the marked pane"), (":", "Run a command for each tagged item"),
        ("f", "Enter a format"), ("H", "Jump to the starting pane"))
    help_width = 51
    menu = (("Select", ord("\r")), ("Expand", K.KEYC_RIGHT), ("Mark", ord("m")), ("", K.KEYC_NONE),
            ("Tag", ord("t")), ("Tag All", 0x14), ("Tag None", ord("T")), ("", K.KEYC_NONE),
            ("Kill", ord("x")), ("Kill Tagged", ord("X")), ("", K.KEYC_NONE),
            ("Cancel", ord("q")))
    default_format = WINDOW_TREE_DEFAULT_FORMAT
    default_command = WINDOW_TREE_DEFAULT_COMMAND

    def __init__(self, server: Any, wp: Any, target: Any = None, args: Any = None) -> None:
        super().__init__(server, wp, target, args)
        if args is not None and args.has("s"):
            self.type = SESSION
        elif args is not None and args.has("w"):
            self.type = WINDOW
        else:
            self.type = PANE
        self.squash_groups = not (args is not None and args.has("G"))
        self.accept = args is not None and args.has("y")  # kill without asking (PROMPT_ACCEPT)
        self.hoffset = 0  # data->offset: the preview scrolled sideways with < and >
        self.left = self.right = -1
        self.p_start = self.p_end = self.p_each = 0
        self.entered: str | None = None

    def started_done(self) -> None:
        self.type = NONE

    def pull(self, d: TreeData) -> tuple[Any, Any, Any]:
        """window_tree_pull_item: (session, winlink, pane), None for what has gone."""
        s = self.server.model.session_ids.get(d.session)
        if s is None or not s.alive:
            return None, None, None
        if d.type == SESSION:
            wl = s.curw
            return s, wl, wl.window.active if wl is not None else None
        wl = s.windows.get(d.winlink)
        if wl is None:
            return None, None, None
        if d.type == WINDOW:
            return s, wl, wl.window.active
        wp = self.server.model.panes.get(d.pane)
        if wp is None or wp not in wl.window.panes:
            return None, None, None
        return s, wl, wp

    def _expand(self, fmt: str, s: Any, wl: Any, wp: Any) -> str:
        from .. import format as F
        from ..formats_vars import ModelContext

        return F.expand(fmt, ModelContext(self.server, None, s, wl, wp))

    def item_context(self, item: Item) -> Any:
        from ..formats_vars import ModelContext

        s, wl, wp = self.pull(item.data)
        d = item.data
        if d.type == SESSION:
            return ModelContext(self.server, None, s, None, None)
        if d.type == WINDOW:
            return ModelContext(self.server, None, s, wl, None)
        return ModelContext(self.server, None, s, wl, wp)

    def _filter_pane(self, s: Any, wl: Any, wp: Any, flt: str | None) -> bool:
        from ..format import format_true

        if flt is None:
            return True
        return format_true(self._expand(flt, s, wl, wp))

    def _build_window(self, s: Any, wl: Any, parent: Item, flt: str | None) -> bool:
        """window_tree_build_window: a window and (sorted) all its panes that pass the
        filter; a lone pane is listed too. False (and nothing added) when the window has
        no pane or its only pane is filtered out."""
        d = TreeData(WINDOW, s.id, wl.idx, -1)
        text = self._expand(self.item_format, s, wl, None)
        expanded = 0 if self.type in (SESSION, WINDOW) else 1
        it = self.add(parent, d, ("wl", id(wl)), str(wl.idx), text, expanded)
        it.align = 1
        panes = list(wl.window.panes)
        if not panes or (len(panes) == 1 and not self._filter_pane(s, wl, panes[0], flt)):
            self.remove(it)
            return False
        for p in sort_items(panes, self.sort_order, self.reversed, _cmp_pane):
            if self._filter_pane(s, wl, p, flt):
                pit = self.add(it, TreeData(PANE, s.id, wl.idx, p.id), ("p", p.id),
                               str(wl.window.pane_index(p)),
                               self._expand(self.item_format, s, wl, p), -1)
                pit.align = 1
        return True

    def _build_session(self, s: Any, flt: str | None) -> None:
        d = TreeData(SESSION, s.id, -1, -1)
        text = self._expand(self.item_format, s, None, None)
        it = self.add(None, d, ("s", s.id), s.name, text, 0 if self.type == SESSION else 1)
        wls = sort_items(s.sorted_winlinks(), self.sort_order, self.reversed, _cmp_winlink)
        empty = 0
        for wl in wls:
            if not self._build_window(s, wl, it, flt):
                empty += 1
        if empty == len(wls):
            self.remove(it)

    def build_items(self, tag: list[Any], flt: str | None) -> None:
        model = self.server.model
        current = self.fs.s.group if self.fs.s is not None else None
        ordered = sort_items(model.sorted_sessions(), self.sort_order, self.reversed,
                             _cmp_session)
        # tmux 3.7b's window_tree_build tests the *last* session for squashing grouped
        # sessions, for every session: when that one is a group member other than the one
        # shown, nothing is listed at all. Kept as tmux has it.
        last = ordered[-1] if ordered else None
        sg = last.group if last is not None else None
        skip = self.squash_groups and sg is not None and (
            (sg is current and last is not self.fs.s)
            or (sg is not current and bool(sg.sessions) and last is not sg.sessions[0]))
        for s in ordered:
            if not skip:
                self._build_session(s, flt)
        fs = self.fs
        if self.type == SESSION and fs.s is not None:
            tag[0] = ("s", fs.s.id)
        elif self.type == WINDOW and fs.wl is not None:
            tag[0] = ("wl", id(fs.wl))
        elif self.type == PANE and fs.wl is not None:
            if len(fs.wl.window.panes) == 1 or fs.wp is None:
                tag[0] = ("wl", id(fs.wl))
            else:
                tag[0] = ("p", fs.wp.id)

    # -- preview --------------------------------------------------------------------------------

    def _draw_label(self, c: Canvas, px: int, py: int, sx: int, sy: int, gc: Style,
                    label: str) -> None:
        """window_tree_draw_label: the label (a format, cut to fit) in a box of its own in
        the middle of a preview."""
        from ..format import format_width, trim_left

        if sx < 5 or sy < 3:
            return
        width = format_width(label)
        if width > sx - 4:
            label = trim_left(label, sx - 4)
            width = format_width(label)
        if width == 0:
            return
        ox = (sx - width + 1) // 2
        oy = (sy + 1) // 2
        c.move(px + ox - 2, py + oy - 1)
        c.box(width + 4, 3)
        c.move(px + ox - 1, py + oy)
        for _ in range(width + 2):
            c.cell(" ", DEFAULT_STYLE)
        c.move(px + ox, py + oy)
        c.format_draw(label, gc, width)

    def _preview_label(self, c: Canvas, s: Any, wl: Any, wp: Any, px: int, py: int,
                       width: int, sy: int) -> None:
        """tree-mode-preview-format in tree-mode-preview-style, expanded for the window
        (``wp`` None) or the pane a preview shows, with that window's (pane's) options."""
        from .. import format as F
        from ..formats_vars import ModelContext

        oo = wp.options if wp is not None else wl.window.options
        fmt = str(oo.get("tree-mode-preview-format") or "")
        if not fmt:
            return
        ctx = ModelContext(self.server, None, s, wl, wp)
        label = F.expand(fmt, ctx)
        if not label:
            return
        gc = style_option(oo, "tree-mode-preview-style", lambda v: F.expand(v, ctx))
        self._draw_label(c, px, py, width, sy, gc, label)

    def _draw_strip(self, c: Canvas, s: Any, things: list[Any], current_index: int,
                    sx: int, sy: int, draw_one: Any) -> None:
        """window_tree_draw_session and _draw_window: the windows (panes) side by side."""
        cx, cy = c.cx, c.cy
        total = len(things)
        if total == 0:
            return
        if sx // total < 24:
            visible = max(sx // 24, 1)
        else:
            visible = total
        current = current_index
        if current < visible:
            start, end = 0, visible
        elif current >= total - visible:
            start, end = total - visible, total
        else:
            start = current - visible // 2
            end = start + visible
        if self.hoffset < -start:
            self.hoffset = -start
        if self.hoffset > total - end:
            self.hoffset = total - end
        start += self.hoffset
        end += self.hoffset
        left, right = start != 0, end != total
        if (left and right and sx <= 6) or ((left or right) and sx <= 3):
            left = right = False
        if left and right:
            each = (sx - 6) // visible
            remaining = (sx - 6) - visible * each
        elif left or right:
            each = (sx - 3) // visible
            remaining = (sx - 3) - visible * each
        else:
            each = sx // visible
            remaining = sx - visible * each
        if each == 0:
            return
        if left:
            self.left = cx + 2
            c.move(cx + 2, cy)
            c.vline(sy)
            c.move(cx, cy + sy // 2)
            c.puts("<", DEFAULT_STYLE)
        else:
            self.left = -1
        if right:
            self.right = cx + sx - 3
            c.move(cx + sx - 3, cy)
            c.vline(sy)
            c.move(cx + sx - 1, cy + sy // 2)
            c.puts(">", DEFAULT_STYLE)
        else:
            self.right = -1
        self.p_start, self.p_end, self.p_each = start, end, each
        i = 0
        for loop in range(start, end):
            thing = things[loop]
            offset = 3 + i * each if left else i * each
            width = each + remaining if loop == end - 1 else each - 1
            c.move(cx + offset, cy)
            draw_one(c, thing, width, sy, cx + offset, cy)
            if loop != end - 1:
                c.move(cx + offset + width, cy)
                c.vline(sy)
            i += 1

    def draw_preview(self, item: Item, c: Canvas, sx: int, sy: int) -> None:
        s, wl, wp = self.pull(item.data)
        if wp is None:
            return
        t = item.data.type
        if t == SESSION:
            wls = s.sorted_winlinks()
            cur = next((i for i, x in enumerate(wls) if x is s.curw), len(wls))

            def one_window(c: Canvas, x: Any, width: int, sy: int, px: int, py: int) -> None:
                w = x.window
                if w.active is not None:
                    c.preview(w.active.screen, width, sy)
                self._preview_label(c, s, x, None, px, py, width, sy)

            self._draw_strip(c, s, wls, cur, sx, sy, one_window)
        elif t == WINDOW:
            w = wl.window
            panes = list(w.panes)
            cur = next((i for i, p in enumerate(panes) if p is w.active), len(panes))

            def one_pane(c: Canvas, p: Any, width: int, sy: int, px: int, py: int) -> None:
                c.preview(p.screen, width, sy)
                self._preview_label(c, s, wl, p, px, py, width, sy)

            self._draw_strip(c, s, panes, cur, sx, sy, one_pane)
        elif t == PANE:
            c.preview(wp.screen, sx, sy)

    def item_search(self, item: Item, text: str, icase: bool) -> bool:
        s, wl, wp = self.pull(item.data)
        t = item.data.type
        if t == SESSION:
            return s is not None and _has(s.name, text, icase)
        if t == WINDOW:
            return s is not None and wl is not None and _has(wl.window.name, text, icase)
        if t == PANE and wp is not None:
            cmd = wp.current_command() or ""
            return bool(cmd) and _has(cmd, text, icase)
        return False

    def swap_items(self, cur: Item, other: Item) -> bool:
        """window_tree_swap: two windows of one session change places (their indexes stay),
        unless the sort order would not show them swapped."""
        a, b = cur.data, other.data
        if a.type != b.type or a.type != WINDOW:
            return False
        s, wla, _ = self.pull(a)
        s2, wlb, _ = self.pull(b)
        if s is None or s is not s2 or wla is None or wlb is None:
            return False
        if self.sort_order != "index" and _cmp_winlink(self.sort_order or "", wla, wlb) != 0:
            return False
        from ..commands.groups import synchronize_from
        from ..model import recalculate_size

        wa, wb = wla.window, wlb.window
        wb.winlinks.remove(wlb)
        wa.winlinks.remove(wla)
        wlb.window = wa
        wa.winlinks.append(wlb)
        wla.window = wb
        wb.winlinks.append(wla)
        if s.curw is wla:
            s.set_current(wlb)
        elif s.curw is wlb:
            s.set_current(wla)
        if s.group is not None:
            synchronize_from(self.server, s)
        self.server.redraw_clients(None)
        for w in list(self.server.model.windows.values()):
            recalculate_size(w)
        return True

    # -- keys -----------------------------------------------------------------------------------

    def get_target(self, d: TreeData) -> tuple[str | None, Any]:
        """window_tree_get_target: the target string and state of an item."""
        from .. import target as T

        s, wl, wp = self.pull(d)
        name = None
        if d.type == SESSION and s is not None:
            name = f"={s.name}:"
        elif d.type == WINDOW and s is not None and wl is not None:
            name = f"={s.name}:{wl.idx}."
        elif d.type == PANE and wp is not None:
            name = f"={s.name}:{wl.idx}.%{wp.id}"
        if name is None:
            return None, T.State()
        return name, T.State(s, wl, wl.window, wp if wp is not None else wl.window.active)

    def _kill_each(self, item: Item, client: Any, key: int) -> None:
        s, wl, wp = self.pull(item.data)
        t = item.data.type
        if t == SESSION and s is not None:
            self.server.destroy_session(s)
        elif t == WINDOW and wl is not None:
            self.server.kill_window(wl.window, renumber=False)
        elif t == PANE and wp is not None:
            self.server.kill_pane(wp)

    def _done(self, client: Any) -> None:
        """window_tree_command_done: the tree again once the answer's commands ran (those
        queued on the client are seen by the update at the redraw after them)."""
        if not self.dead:
            self.build()
            self.draw()
            redraw(self)

    def _kill_current_callback(self, c: Any, s: str | None, done: bool) -> int:
        if not s or self.dead or s[0].lower() != "y" or len(s) != 1:
            return 0
        item = self.current_item()
        if item is not None:
            self._kill_each(item, c, K.KEYC_NONE)
        self.server.renumber_all()
        self._done(c)
        return 0

    def _kill_tagged_callback(self, c: Any, s: str | None, done: bool) -> int:
        if not s or self.dead or s[0].lower() != "y" or len(s) != 1:
            return 0
        self.each_tagged(self._kill_each, c, K.KEYC_NONE, True)
        self.server.renumber_all()
        self._done(c)
        return 0

    def _command_callback(self, c: Any, s: str | None, done: bool) -> int:
        if not s or self.dead:
            return 0
        self.entered = s

        def each(item: Item, client: Any, key: int) -> None:
            name, fs = self.get_target(item.data)
            if name is not None and self.entered is not None:
                self.run_command(client, fs, self.entered, name)

        self.each_tagged(each, c, K.KEYC_NONE, True)
        self.entered = None
        self._done(c)
        return 0

    def _preview_mouse(self, key: int, item: Item) -> int:
        """window_tree_mouse: a click on a window (pane) of the preview chooses it."""
        if key != K.mouse_key("MouseDown1", "Pane"):
            return K.KEYC_NONE
        x = self.mouse_x
        if self.left != -1 and x <= self.left:
            return ord("<")
        if self.right != -1 and x >= self.right:
            return ord(">")
        if self.left != -1:
            x -= self.left
        elif x != 0:
            x -= 1
        if x == 0 or self.p_end == 0:
            x = 0
        else:
            x = x // self.p_each if self.p_each else 0
            if self.p_start + x >= self.p_end:
                x = self.p_end - 1
        s, wl, wp = self.pull(item.data)
        t = item.data.type
        if t == SESSION:
            if s is None:
                return K.KEYC_NONE
            self._expand_current()
            wls = s.sorted_winlinks()
            if self.p_start + x < len(wls):
                self.set_current(("wl", id(wls[self.p_start + x])))
            return ord("\r")
        if t == WINDOW:
            if wl is None:
                return K.KEYC_NONE
            self._expand_current()
            panes = list(wl.window.panes)
            if self.p_start + x < len(panes):
                self.set_current(("p", panes[self.p_start + x].id))
            return ord("\r")
        return K.KEYC_NONE

    def _expand_current(self) -> None:
        it = self.current_item()
        if it is not None and not it.expanded:
            it.expanded = True
            self.build()

    def mode_key(self, client: Any, key: int, item: Item | None, finished: bool) -> bool:
        from .. import prompt as PR

        if item is not None and item is not getattr(self, "_last_item", None):
            self.hoffset = 0
        self._last_item = item
        fs = self.fs
        if K.is_mouse_key(key) and self.event is not None and item is not None:
            # A click in the preview makes the window (pane) clicked current and is Enter
            # on it (window_tree_key goes round again with the new current item).
            key = self._preview_mouse(key, item)
            new = self.current_item()
            if new is not item:
                item = new
                self.hoffset = 0
            self._last_item = item
        if key == ord("<"):
            self.hoffset -= 1
        elif key == ord(">"):
            self.hoffset += 1
        elif key == ord("H"):
            if fs.s is not None:
                self.expand(("s", fs.s.id))
            if fs.wl is not None:
                self.expand(("wl", id(fs.wl)))
            if not self.set_current(("p", self.wp.id)) and fs.wl is not None:
                self.set_current(("wl", id(fs.wl)))
        elif key == ord("m") and item is not None:
            s, wl, wp = self.pull(item.data)
            model = self.server.model
            if s is not None and wl is not None and wp is not None:
                model.marked = (s, wl, wp)
            else:
                model.marked = None
            self.build()
        elif key == ord("M"):
            self.server.model.marked = None
            self.build()
        elif key == ord("x") and item is not None:
            s, wl, wp = self.pull(item.data)
            t = item.data.type
            prompt = None
            if t == SESSION and s is not None:
                prompt = f"Kill session {s.name}? "
            elif t == WINDOW and wl is not None:
                prompt = f"Kill window {wl.idx}? "
            elif t == PANE and wp is not None:
                prompt = f"Kill pane {wp.window.pane_index(wp)}? "
            if prompt is not None:
                self._prompt(client, prompt, "", self._kill_current_callback,
                             PR.SINGLE | (PR.ACCEPT if self.accept else 0), PR.COMMAND)
        elif key == ord("X"):
            tagged = self.count_tagged()
            if tagged:
                self._prompt(client, f"Kill {tagged} tagged? ", "", self._kill_tagged_callback,
                             PR.SINGLE | (PR.ACCEPT if self.accept else 0), PR.COMMAND)
        elif key == ord(":"):
            tagged = self.count_tagged()
            prompt = f"({tagged} tagged) " if tagged else "(current) "
            self._prompt(client, prompt, "", self._command_callback, 0, PR.COMMAND)
        elif key == ord("\r") and item is not None:
            name, _ = self.get_target(item.data)
            if name is not None:
                self.run_command(client, None, self.template, name)
            finished = True
        return finished


# -- choose-buffer --------------------------------------------------------------------------------

class BufferMode(TreeMode):
    name = "buffer-mode"
    order_seq = ("creation", "name", "size")
    help_lines = (
        ("Enter", "Paste selected %1"), ("p", "Paste selected %1"),
        ("P", "Paste tagged %1s"), ("d", "Delete selected %1"), ("D", "Delete tagged %1s"),
        ("e", "Open %1 in editor"), ("f", "Enter a filter"))
    help_item = "buffer"
    menu = (("Paste", ord("p")), ("Paste Tagged", ord("P")), ("", K.KEYC_NONE),
            ("Tag", ord("t")), ("Tag All", 0x14), ("Tag None", ord("T")), ("", K.KEYC_NONE),
            ("Delete", ord("d")), ("Delete Tagged", ord("D")), ("", K.KEYC_NONE),
            ("Cancel", ord("q")))
    default_format = BUFFER_DEFAULT_FORMAT
    default_command = BUFFER_DEFAULT_COMMAND

    def _fs(self) -> tuple[Any, Any, Any]:
        fs = self.fs
        if fs.valid():
            return fs.s, fs.wl, fs.wp
        return None, None, None

    def _context(self, pb: Any) -> Any:
        from ..formats_vars import ModelContext

        s, wl, wp = self._fs()
        return ModelContext(self.server, None, s, wl, wp, dict(pb.format_values()))

    def item_context(self, item: Item) -> Any:
        pb = self.server.buffers.get(item.data)
        return self._context(pb) if pb is not None else None

    def build_items(self, tag: list[Any], flt: str | None) -> None:
        from .. import format as F

        bufs = list(self.server.buffers.by_name.values())

        def cmp(order: str, a: Any, b: Any) -> int:  # sort_buffer_cmp
            r = 0
            if order == "name":
                r = _bytes_cmp(a.name, b.name)
            elif order == "creation":
                r = _cmp(b.order, a.order)
            elif order == "size":
                r = _cmp(len(a.data), len(b.data))
            return r or _bytes_cmp(a.name, b.name)

        for pb in sort_items(bufs, self.sort_order, self.reversed, cmp):
            ctx = self._context(pb)
            if flt is not None and not F.format_true(F.expand(flt, ctx)):
                continue
            text = F.expand(self.item_format, self._context(pb))
            self.add(None, pb.name, pb.order, pb.name, text, -1)

    def draw_preview(self, item: Item, c: Canvas, sx: int, sy: int) -> None:
        from ..buffers import VIS_CSTYLE, VIS_OCTAL, VIS_TAB, strvis

        pb = self.server.buffers.get(item.data)
        if pb is None:
            return
        cx, cy = c.cx, c.cy
        lines = pb.data.split(b"\n")
        for i in range(min(sy, len(lines))):
            text = strvis(lines[i], VIS_OCTAL | VIS_CSTYLE | VIS_TAB).decode(
                "utf-8", "surrogateescape")
            if text:
                c.move(cx, cy + i)
                c.puts(text, DEFAULT_STYLE, sx)
        c.move(cx, cy)

    def item_search(self, item: Item, text: str, icase: bool) -> bool:
        pb = self.server.buffers.get(item.data)
        if pb is None:
            return False
        if _has(item.name, text, icase):
            return True
        find = text.encode("utf-8", "surrogateescape")
        if icase:  # window_buffer_find: tolower on every byte
            return find.lower() in pb.data.lower()
        return find in pb.data

    def _delete(self, item: Item, client: Any, key: int) -> None:
        if item is self.current_item() and not self.down(False):
            self.up(False)  # the last line: the one above stays selected
        self.server.buffers.delete(item.data)

    def _paste(self, item: Item, client: Any, key: int) -> None:
        if self.server.buffers.get(item.data) is not None:
            self.run_command(client, None, self.template, item.data)

    def _edit(self, item: Item, client: Any) -> None:
        """window_buffer_start_edit: the buffer in the editor; what is saved replaces it (a
        newline the editor added is dropped), if the buffer is still the same one."""
        from ..overlays import popup_editor

        pb = self.server.buffers.get(item.data)
        if pb is None or client is None:
            return

        def done(data: bytes | None) -> None:
            if not data or self.server.buffers.get(pb.name) is not pb:
                return
            if pb.data and not pb.data.endswith(b"\n") and data.endswith(b"\n"):
                data = data[:-1]
            if data:
                pb.data = data
            if self.wp.modes and self.wp.modes[0] is self:
                self.build()
                self.draw()
                redraw(self)

        popup_editor(self.server, client, pb.data, done)

    def mode_key(self, client: Any, key: int, item: Item | None, finished: bool) -> bool:
        if not self.server.buffers.by_name:  # paste_is_empty
            return True
        if item is not None:
            if key == ord("e"):
                self._edit(item, client)
            elif key == ord("d"):
                self._delete(item, client, key)
                self.build()
            elif key == ord("D"):
                self.each_tagged(self._delete, client, key, False)
                self.build()
            elif key == ord("P"):
                self.each_tagged(self._paste, client, key, False)
                finished = True
            elif key in (ord("p"), ord("\r")):
                self._paste(item, client, key)
                finished = True
        return finished or not self.server.buffers.by_name


# -- choose-client --------------------------------------------------------------------------------

def _client_attached(c: Any) -> bool:
    """Not CLIENT_UNATTACHEDFLAGS: attached to a session, not exiting or suspended."""
    if c.session is None or getattr(c, "exiting", False) or getattr(c, "exited", False):
        return False
    a = getattr(c, "attached", None)
    return not (a is not None and getattr(a, "suspended", False))


def clients_attached(server: Any) -> int:
    """server_client_how_many."""
    return sum(1 for c in server.clients if _client_attached(c))


class ClientMode(TreeMode):
    name = "client-mode"
    order_seq = ("name", "size", "creation", "activity")
    help_lines = (
        ("Enter", "Choose selected %1"), ("d", "Detach selected %1"),
        ("D", "Detach tagged %1s"), ("x", "Detach selected %1"), ("X", "Detach tagged %1s"),
        ("z", "Suspend selected %1"), ("Z", "Suspend tagged %1s"), ("f", "Enter a filter"))
    help_item = "client"
    menu = (("Detach", ord("d")), ("Detach Tagged", ord("D")), ("", K.KEYC_NONE),
            ("Tag", ord("t")), ("Tag All", 0x14), ("Tag None", ord("T")), ("", K.KEYC_NONE),
            ("Cancel", ord("q")))
    default_format = CLIENT_DEFAULT_FORMAT
    default_command = CLIENT_DEFAULT_COMMAND

    def item_context(self, item: Item) -> Any:
        from ..formats_vars import ModelContext

        return ModelContext(self.server, item.data, None, None, None)

    def build_items(self, tag: list[Any], flt: str | None) -> None:
        from .. import format as F
        from ..formats_vars import ModelContext

        def cmp(order: str, a: Any, b: Any) -> int:  # sort_client_cmp
            r = 0
            if order == "name":
                r = _bytes_cmp(a.name, b.name)
            elif order == "size":
                r = _cmp(a.sx, b.sx) or _cmp(a.sy, b.sy)
            elif order == "creation":
                r = _cmp(a.created, b.created)
            elif order == "activity":
                r = -_cmp(a.activity_time, b.activity_time)
            return r or _bytes_cmp(a.name, b.name)

        clients = [c for c in self.server.clients if _client_attached(c)]
        for c in sort_items(clients, self.sort_order, self.reversed, cmp):
            if flt is not None:
                if not F.format_true(F.expand(flt, ModelContext(self.server, c, None, None,
                                                                None))):
                    continue
            text = F.expand(self.item_format, ModelContext(self.server, c, None, None, None))
            self.add(None, c, id(c), c.name, text, -1)

    def draw_preview(self, item: Item, c: Canvas, sx: int, sy: int) -> None:
        cl = item.data
        if not _client_attached(cl) or cl.session.curw is None:
            return
        wp = cl.session.curw.window.active
        opts = cl.session.options
        value = opts.get("status")
        lines = 0 if value == "off" else (1 if value == "on" else int(value))
        if lines >= sy:
            lines = 0
        at = lines if opts.get("status-position") == "top" and lines else 0
        cx, cy = c.cx, c.cy
        c.move(cx, cy + at)
        if wp is not None:
            c.preview(wp.screen, sx, sy - 2 - lines)
        c.move(cx, cy + 2 if at != 0 else cy + sy - 1 - lines)
        c.hline(sx)
        c.move(cx, cy if at != 0 else cy + sy - lines)
        if lines:
            cells = _status_cells(self.server, cl)
            if cells:
                c.copy_cells(list(cells), sx)
        c.move(cx, cy)

    def _detach(self, item: Item, client: Any, key: int) -> None:
        if item is self.current_item():
            self.down(False)
        cl = item.data
        if key in (ord("d"), ord("D")):
            self.server.detach_with_message(cl)
        elif key in (ord("x"), ord("X")):
            self.server.detach_with_message(cl, kill=True)
        elif key in (ord("z"), ord("Z")):
            self.server.suspend_client(cl)

    def mode_key(self, client: Any, key: int, item: Item | None, finished: bool) -> bool:
        if item is not None:
            if key in (ord("d"), ord("x"), ord("z")):
                self._detach(item, client, key)
                self.build()
            elif key in (ord("D"), ord("X"), ord("Z")):
                self.each_tagged(self._detach, client, key, False)
                self.build()
            elif key == ord("\r"):
                self.run_command(client, None, self.template, item.data.ttyname)
                finished = True
        return finished or clients_attached(self.server) == 0


def _status_cells(server: Any, client: Any) -> list[Cell] | None:
    """The client's status line as last drawn (c->status.screen)."""
    a = getattr(client, "attached", None)
    r = getattr(a, "renderer", None)
    if r is None:
        return None
    rows = r.status_cells
    if rows and not getattr(client, "message_text", None) and getattr(client, "prompt",
                                                                        None) is None:
        return rows[0]
    try:
        return r._status(server, client, client.sx, 1, False)[0]
    except Exception:
        return None
