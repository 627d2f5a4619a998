"""Composing what an attached client sees and sending only what changed.

A frame is the client's current window — its visible panes, the borders between them — and the
status line, as segments of text and SGR codes at a place on the terminal (a pane row, a run of
border cells, the status row). A segment equal to what the terminal already shows there is not
sent, and a pane row is only built again when the pane's damage numbers say it changed. The
frame goes out inside synchronized-output brackets (``CSI ? 2026``) so terminals that know them
never show half a frame, and terminals that do not ignore them. An overlay draws over whole rows
of (character, style) cells instead.
"""

from __future__ import annotations

import time
from typing import Any

from . import borders, scrollbars, status, tty_attrs
from .options import Style as OptStyle
from .prompt import draw_line, frozen_by, message_line
from .screen.cells import (
    ATTR_BRIGHT,
    ATTR_CHARSET,
    COLOUR_FLAG_256,
    DEFAULT_STYLE,
    Style,
    char_width,
)
from .screen.hyperlinks import Hyperlinks

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
            elif w == 0 and x > x0:  # a combining character joins the cell before it
                prev, st = row[x - 1]
                row[x - 1] = (prev + ch, st)
            else:
                row[x] = (ch, style)
                x += 1


def _row_string(row: list[Cell], depth: Depth = 0) -> str:
    """Cells as text and SGR codes. A cell whose style has a fifth member (a ``link=`` style
    drawn by status.draw: ``(id, URI)``) is an OSC 8 hyperlink on a terminal with them;
    looked at only where the style changes, so rows without links cost what they did."""
    out: list[str] = ["\x1b[0m"]
    last = full = DEFAULT_STYLE  # the pen's style; the last cell's, link and all
    link = None
    for ch, style in row:
        if not ch:
            continue  # the second half of a wide character
        if style != full:
            full = style
            if len(style) > 4 or link is not None:
                lk = style[4] if len(style) > 4 else None
                if lk is not None:  # (its attr has status.ATTR_LINKED: not an empty cell)
                    style = (style[0] & ~status.ATTR_LINKED, style[1], style[2], style[3])
                if style != last:
                    out.append(_sgr(last, style, depth))
                    last = style
                if lk != link:
                    link = lk
                    if tty_attrs.pen_at(depth).links:
                        out.append(_LINK_END if lk is None
                                   else f"\x1b]8;id={lk[0]};{lk[1]}\x1b\\")
            else:  # (without links ``full`` is ``last``)
                out.append(_sgr(last, style, depth))
                last = style
        out.append(ch)
    if link is not None and tty_attrs.pen_at(depth).links:
        out.append(_LINK_END)
    return "".join(out)


def _tty_empties(row: list[Cell], erase: bool) -> list[Cell]:
    """tmux 3.7's tty_draw_line: a space without attributes on the background of the cell
    before it is "empty"; a run of them is cleared in one go, with the colours of the last
    cell of the run, or (``erase``: no overlay shown, ten or more cells on the default
    background, as a terminal without BCE allows) by an erase that leaves nothing. What the
    terminal then holds differs only in the colour of blank cells, which a terminal reading
    them back (an outer multiplexer) sees."""
    out = row
    last_bg = 8
    i, n = 0, len(row)
    while i < n:
        ch, st = row[i]
        if ch != " " or st[0] != 0 or st[2] != last_bg:
            if ch:
                last_bg = st[2]
            i += 1
            continue
        j = i
        while j < n and row[j][0] == " " and row[j][1][0] == 0 and row[j][1][2] == last_bg:
            j += 1
        end = row[j - 1][1]
        if erase and j - i >= 10 and last_bg == 8:  # EL or ECH (no BCE: default only)
            st = (0, 8, 8, 0)
        else:
            st = (0, end[1], last_bg, end[3])
        if any(c[1] != st for c in row[i:j]):
            if out is row:
                out = list(row)
            out[i:j] = [(" ", st)] * (j - i)
        i = j
    return out


class _PaneRows:
    """One pane's row strings as one client last built them, with the damage numbers they
    were built at."""

    __slots__ = ("src", "width", "edge", "gens", "strings", "palette", "memo")

    def __init__(self, src: Any, width: int, edge: bool, palette: tuple = ()) -> None:
        self.src = src
        self.width = width
        self.edge = edge
        self.palette = palette  # the pane's OSC 4 palette the rows were drawn with
        self.gens: list[int] = []
        self.strings: list[str] = []
        #: Row strings by the runs they were built from: a scrolling pane shows the rows of
        #: the last frame again one line higher, so most are found here.
        self.memo: dict[tuple, str] = {}


def _palette_runs(runs: list[tuple[str, Style]], pal: dict[int, int],
                  nobr: bool = False) -> list[tuple[str, Style]]:
    """tty_check_fg/bg/us: colours the pane redefined with OSC 4 are drawn as what it set; a
    bold basic foreground looks up its bright entry (8-15) unless the terminal has Nobr."""
    out = []
    for text, (attr, fg, bg, us) in runs:
        if 0 <= fg < 8 and attr & ATTR_BRIGHT and not nobr:
            f = pal.get(fg + 8, fg)
        else:
            f = _palette_colour(fg, pal)
        out.append((text, (attr, f, _palette_colour(bg, pal), _palette_colour(us, pal))))
    return out


def _palette_colour(c: int, pal: dict[int, int]) -> int:
    """colour_palette_get: 0-7, 90-97 (entries 8-15) and 256-colour indexes are looked up."""
    if 90 <= c <= 97:
        n = c - 82
    elif c & COLOUR_FLAG_256:
        n = c & 0xFF
    elif 0 <= c < 8:
        n = c
    else:
        return c
    return pal.get(n, c)


#: What a client's terminal can be told (``tty_attrs.Pen``), as its number (``pen_index``;
#: 0: everything, styles go as they are).
Depth = int
_SGR: dict[tuple[Style, Style, Depth], str] = {}
_LINK_END = "\x1b]8;;\x1b\\"


def _sgr(last: Style, cur: Style, depth: Depth = 0) -> str:
    """tty_attributes, memoised: a frame asks for the same few changes over and over. Colours
    and attributes the terminal does not have are changed or left out as tmux's
    tty_check_fg/bg/us and tty_attributes do."""
    key = (last, cur, depth)
    code = _SGR.get(key)
    if code is None:
        if len(_SGR) > 4096:
            _SGR.clear()
        if cur == DEFAULT_STYLE:
            code = "\x1b[0m\x0f" if last[0] & ATTR_CHARSET else "\x1b[0m"
        else:
            pen = tty_attrs.pen_at(depth)
            code = tty_attrs.sgr(tty_attrs.fit(last, pen), tty_attrs.fit(cur, pen))
        _SGR[key] = code
    return code


def _runs_string(runs: list[tuple[str, Style]], edge: bool, depth: Depth = 0,
                 links: list[Any] | None = None) -> str:
    """A pane row's runs as text and SGR codes, with each run's hyperlink (``links``: an
    ``(id, URI)`` or None per run) for a terminal that has them. At the terminal's right edge
    trailing default blanks become one erase-to-end-of-line, which is most of a short line's
    bytes."""
    tail = ""
    if edge and runs:
        text, style = runs[-1]
        if style == DEFAULT_STYLE and text.endswith(" ") and (not links or links[-1] is None):
            stripped = text.rstrip(" ")
            runs = runs[:-1] + [(stripped, style)] if stripped else runs[:-1]
            tail = "\x1b[K"
    out = ["\x1b[0m"]
    last = DEFAULT_STYLE
    link = None
    for i, (text, style) in enumerate(runs):
        if links is not None and links[i] != link:
            link = links[i]
            out.append(_LINK_END if link is None
                       else f"\x1b]8;id={link[0]};{link[1]}\x1b\\")
        if style != last:
            out.append(_sgr(last, style, depth))
            last = style
        out.append(text)
    if link is not None:
        out.append(_LINK_END)
    if tail:
        if last != DEFAULT_STYLE:
            out.append(_sgr(last, DEFAULT_STYLE, depth))
        out.append(tail)
    return "".join(out)


def _split_links(runs: list[tuple[str, Style]], links: list[tuple[int, int, str, str]]
                 ) -> tuple[list[tuple[str, Style]], list[Any]]:
    """Runs cut where hyperlinks start and end, with each run's link as ``(id, URI)``."""
    out: list[tuple[str, Style]] = []
    out_links: list[Any] = []
    li, n = 0, len(links)
    x = 0
    for text, st in runs:
        pos = 0
        while pos < len(text):
            while li < n and links[li][1] <= x:
                li += 1
            if li < n and links[li][0] <= x:
                link, end = (links[li][3], links[li][2]), links[li][1]
            else:
                link, end = None, links[li][0] if li < n else 1 << 30
            i = pos
            if text.isascii():
                i = min(len(text), pos + end - x)
                x += i - pos
            else:
                while i < len(text):
                    w = char_width(text[i])
                    if w > 0 and x >= end:
                        break
                    x += max(w, 0)
                    i += 1
            out.append((text[pos:i], st))
            out_links.append(link)
            pos = i
    return out, out_links


def _linked(runs: list[tuple[str, Any]], links: list[Any] | None) -> list[tuple[str, Any]]:
    """Runs whose hyperlink (``links``, one per run, from _split_links) is put in their
    style as a fifth member, as ``_row_string`` draws it for rows built of cells."""
    if not links:
        return runs
    return [(text, st if lk is None else status.linked_style(st, lk))
            for (text, st), lk in zip(runs, links, strict=True)]


def _clipped(runs: list[tuple[str, Style]], width: int, depth: Depth = 0) -> str:
    """A pane row cut to the ``width`` columns the terminal has room for (slow path: a window
    larger than this client)."""
    row = [BLANK] * width
    _place_runs(row, 0, width, runs)
    return _row_string(row, depth)


def _default_colours(p: Any) -> tuple[int, int]:
    """tty_default_colours: the colours a pane's default cells are drawn in, from
    window-active-style (the active pane) or window-style over the pane's own OSC 10/11."""
    opts = p.options
    if opts.get("window-style") == "default" and opts.get("window-active-style") == "default":
        scr = p.screen
        return getattr(scr, "default_fg", 8), getattr(scr, "default_bg", 8)
    from .escapes import default_colours

    scr = p.screen
    return default_colours(p, getattr(scr, "default_fg", 8), getattr(scr, "default_bg", 8))


def _zorder(w: Any) -> list[Any]:
    """The window's panes in tmux's z-order (``w->z_index``): the layout's when it keeps one,
    else the order they were made in, which is where tmux puts new tiled panes."""
    z = getattr(w.layout, "z_index", None) if w.layout is not None else None
    if z is not None:
        return list(z)
    return sorted(w.panes, key=lambda p: p.id)


def _floating_shown(w: Any, panes: list[Any]) -> bool:
    """Does the window show a floating pane (tmux 3.7b), which the others' rows must not
    overwrite?"""
    return not w.zoomed and len(panes) > 1 and any(getattr(p, "floating", False)
                                                   for p in panes)


def _covered_rows(p: Any, above: list[Any], clip: int) -> set[int]:
    """The rows of p (its own numbering) that the boxes of the floating panes above it
    cover from one side of p to the other: nothing of them shows."""
    boxes = [(q.xoff - 1, q.xoff + q.sx, q.yoff - 1, q.yoff + q.sy) for q in above
             if getattr(q, "floating", False)]
    if not boxes:
        return set()
    x0, x1 = max(p.xoff, 0), min(p.xoff + p.sx, clip) - 1
    out = set()
    for y in range(p.sy):
        wy = p.yoff + y
        spans = sorted((a, b) for a, b, t, u in boxes if t <= wy <= u)
        reach = x0
        for a, b in spans:
            if a > reach:
                break
            reach = max(reach, b + 1)
        if reach > x1:
            out.add(y)
    return out


def _bottom_up(w: Any, panes: list[Any]) -> list[Any]:
    """The panes to draw, the lowest in the z-order first, so the ones above cover them."""
    shown = {id(p) for p in panes}
    return [p for p in reversed(_zorder(w)) if id(p) in shown]


def scrollbar_geometry(w: Any) -> borders.Scrollbars:
    """The window's scrollbars as the border geometry needs them."""
    box, shown = {}, {}
    for p in w.panes:
        width, pad = scrollbars.size(p)
        box[p.id] = width + pad
        if scrollbars.shown(p):
            shown[p.id] = width + pad
    return borders.Scrollbars(scrollbars.left(w), box, shown)


def window_offset(w: Any, sx: int, area_h: int, client: Any = None) -> tuple[int, int]:
    """tty_window_offset: where a window larger than the client's terminal is seen from:
    where refresh-client -L/-R/-U/-D panned it, else following the active pane's cursor
    (none when it is hidden): centred across, and down just far enough to show its row
    (tmux 3.7b)."""
    if sx >= w.sx and area_h >= w.sy:
        if client is not None:
            client.pan_window = None
        return 0, 0
    if client is not None and getattr(client, "pan_window", None) is w:
        client.pan_ox = 0 if sx >= w.sx else min(client.pan_ox, w.sx - sx)
        client.pan_oy = 0 if area_h >= w.sy else min(client.pan_oy, w.sy - area_h)
        return client.pan_ox, client.pan_oy
    wp = w.active
    if wp is None:
        return 0, 0
    if wp.modes:
        cur = wp.modes[0].cursor()
    else:
        scr = wp.screen
        cur = (scr.cursor_x, scr.cursor_y) if scr.cursor_visible else None
    if cur is None:
        return 0, 0
    cx, cy = wp.xoff + cur[0], wp.yoff + cur[1]
    ox = 0 if cx < sx else (w.sx - sx if cx > w.sx - sx else cx - sx // 2)
    oy = 0 if cy < area_h else (w.sy - area_h if cy > w.sy - area_h else cy - area_h + 1)
    return max(ox, 0), max(oy, 0)


class Renderer:
    """One client's frames; remembers what its terminal shows.

    The frame is a list of segments ``(y, x, text)``: one per visible pane row, the runs of
    border cells and the status row, each text drawing its cells from column ``x`` with its own
    SGR codes. A segment equal to what was drawn at its place is not sent, and a pane row whose
    damage number (``Pane.damage``) is unchanged is not even built again, so a keystroke echo
    costs one row. When the segments' places change (layout, zoom, size, an overlay) the
    screen is cleared and everything is sent.
    """

    def __init__(self) -> None:
        self.shown: dict[tuple[int, int], str] = {}
        self.places: Any = None  # what decides where segments are; a change clears the screen
        self.cursor = ""
        self.status_cells: list[list[Cell]] | None = None  # one list per status line
        self.status_text: list[str] = []
        self.status_time = 0.0
        self._panes: dict[int, _PaneRows] = {}
        self._borders_key: Any = None
        self._border_segs: list[tuple[int, int, str]] = []
        self._geo_key: Any = None
        self._geo: Any = None
        self._pstatus_segs: list[tuple[int, int, str]] | None = None
        self._pstatus_time = 0.0
        self._styles_key: Any = None
        self._styles: Any = None
        # the rows of the last frame composed from cells, with their strings, and each pane
        # row's cells there (pane id, row) -> (source, damage number, colours, width, cells)
        self._cell_rows: dict[int, tuple[list[Cell], str]] = {}
        self._pane_cells: dict[tuple[int, int], tuple[Any, Any, Any, int, list[Cell], Any]] = {}
        self._cell_rows_depth: Depth = 0
        self.offset = (0, 0)  # where the view of a window larger than the terminal starts
        self.depth: Depth = 0
        self.pen = tty_attrs.FULL
        #: A pane in a synchronized update was not drawn: look again soon (its timeout).
        self.held = False
        #: The terminal has no automatic margins (``am@``): its bottom-right cell is never
        #: written, or it would scroll (tmux's TERM_NOAM).
        self.noam = False
        #: The links drawn over this client (status.client_links): tmux's status screen's.
        self.hyperlinks = Hyperlinks()

    def set_caps(self, caps: dict[str, str]) -> None:
        """What the terminal can do (learned at attach, and again from its DA replies): the
        colours and attributes frames are drawn with, and whether hyperlinks are sent."""
        from . import tty_term

        self._use_pen(tty_attrs.pen_for(caps, *tty_term.colour_depth(caps))._replace(
            theme=self.pen.theme))

    def set_theme(self, colours: tuple[int, ...]) -> None:
        """The client's theme colours (themes.update_client): theme colours in any style are
        drawn as these from now on, everything again if they changed."""
        self._use_pen(self.pen._replace(theme=colours))

    def _use_pen(self, pen: tty_attrs.Pen) -> None:
        depth = tty_attrs.pen_index(pen)
        self.pen = pen
        if depth != self.depth:
            self.depth = depth
            self._panes = {}
            self._borders_key = None
            self.invalidate()

    def invalidate(self) -> None:
        self.shown = {}
        self.places = None
        self.cursor = ""
        self.status_cells = None

    def status_changed(self) -> None:
        """The window list, names, options or a plugin value changed: expand it again."""
        self.status_cells = None

    def frame(self, server: Any, client: Any, sx: int, sy: int, only: Any = None) -> bytes:
        """Bytes that bring the terminal from what it shows to the current state; with
        ``only`` (a pane echoing a key) the other panes' rows wait for the next frame."""
        s = client.session
        self.held = False
        if s is None or s.curw is None:
            return b""
        w = s.curw.window
        opts = s.options
        value = opts.get("status")
        lines = 0 if value == "off" else min(1 if value == "on" else int(value), sy)
        top = opts.get("status-position") == "top"
        area_y = lines if top else 0
        area_h = sy - lines
        wp_active = w.active
        panes = [wp_active] if w.zoomed and wp_active is not None else list(w.panes)
        overlay = getattr(client, "overlay", None)
        prompt = getattr(client, "prompt", None)
        # A prompt or message is drawn over its status line (message-line), or the
        # terminal's last (first) line when the status line is off (screen_redraw_set_context).
        msg = prompt is not None or bool(getattr(client, "message_text", None))
        n = max(lines, 1) if msg else lines
        first = (0 if top else sy - n) if n else -1
        status_row = (first + message_line(client, n) if msg else first) if n else -1
        status_texts: list[str] = []
        if n:
            now = time.monotonic()
            rows = self.status_cells
            if rows is None or len(rows) != n or len(rows[0]) != sx \
                    or now - self.status_time >= 1.0:
                # Expanded at most once a second unless something it shows changed; pane
                # output alone does not change it.
                rows = self.status_cells = self._status(server, client, sx, n, msg)
                self.status_time = now
                self.status_text = [
                    _row_string(_tty_empties(cells[:-1] if self.noam and first + i == sy - 1
                                             else cells, True), self.depth)
                    for i, cells in enumerate(rows)]
            status_texts = self.status_text
        else:
            self.status_cells = None  # nothing shown: the border styles' cache must not hold
        ox, oy = window_offset(w, sx, area_h, client)
        self.offset = (ox, oy)
        places = (sx, sy, area_y, area_h, first, n, overlay is not None, ox, oy,
                  [(p.id, p.xoff, p.yoff, p.sx, p.sy) for p in panes])
        out: list[str] = []
        whole = places != self.places
        if whole:
            self.places = places
            self.shown = {}
            self.cursor = ""
            out.append("\x1b[0m\x1b[H\x1b[2J")
            if len(self._panes) > 2 * len(panes) + 8:  # forget panes long gone
                self._panes = {p.id: self._panes[p.id] for p in panes if p.id in self._panes}
        if overlay is not None or _floating_shown(w, panes):
            # floating panes overlap the others: the frame is composed from the bottom up
            segs = self._cells_frame(server, client, w, panes, overlay, sx, sy, area_y, area_h,
                                     range(first, first + n))
        else:
            # Pane rows: this client's row cache is what its terminal shows, so only rows
            # built again with different text are sent.
            panned: list[tuple[int, int, str]] = []
            frozen = not whole and frozen_by(client)  # TTY_FREEZE: panes wait
            for p in panes:
                if (frozen and self._frozen(p)) or (only is not None and p is not only
                                                    and not whole):
                    continue
                if ox or oy:
                    panned += self._panned_rows(p, ox, oy, sx, area_y, area_h)
                    continue
                if p.xoff >= sx or p.yoff >= area_h:
                    continue
                width = min(p.sx, sx - p.xoff)
                h = min(p.sy, area_h - p.yoff)
                strings, changed = self._pane_rows(p, width, h, p.xoff + width == sx, whole)
                y0 = area_y + p.yoff
                pos = f";{p.xoff + 1}H"
                for y in changed:
                    if y0 + y != status_row:
                        out.append(f"\x1b[{y0 + y + 1}{pos}")
                        out.append(strings[y])
            segs = panned + self._border_cells(server, client, w, panes, sx, area_y, area_h)
            if w.options.get("pane-scrollbars") != "off":
                segs += self._scrollbar_segs(panes, sx, area_y, area_h)
        if n:
            segs = segs + [(first + i, 0, text) for i, text in enumerate(status_texts)]
        shown = self.shown
        for y, x, text in segs:
            key = (y, x)
            if shown.get(key) != text:
                shown[key] = text
                out.append(f"\x1b[{y + 1};{x + 1}H")
                out.append(text)
        cursor = self._cursor(w, wp_active, prompt, overlay, status_row, sx, area_y - oy, ox)
        if prompt is None and getattr(client, "message_text", None):
            cursor = cursor.replace("\x1b[?25h", "")  # a message hides it (TTY_NOCURSOR)
        if not out and cursor == self.cursor:
            return b""
        self.cursor = cursor
        out.append(cursor)
        out.append("\x1b[?2026l")
        return ("\x1b[?2026h\x1b[?25l" + "".join(out)).encode("utf-8", "surrogateescape")

    def _frozen(self, p: Any) -> bool:
        """TTY_FREEZE holds what goes through tty_write: a pane's output and copy mode's
        redraws; a pane drawn again in full (PANE_REDRAW: a mode entered or left, a tree or
        clock mode's redraw) is drawn all the same."""
        src = p.modes[0] if p.modes else p.screen
        cache = self._panes.get(p.id)
        if cache is None or cache.src is not src:
            return False
        return src is p.screen or getattr(src, "name", "") in ("copy-mode", "view-mode")

    def _row_links(self, src: Any) -> Any:
        """``src.row_links`` when there are links to draw: the terminal has hyperlinks and
        the pane (or its mode) has some; else None, and rows are drawn without looking."""
        if not self.pen.links:
            return None
        hl = getattr(src, "hyperlinks", None)
        if hl is not None and not len(hl):
            return None
        return getattr(src, "row_links", None)

    def _cell_runs(self, src: Any, y: int, row_links: Any, dflt: tuple[int, int],
                   overlay: bool) -> list[tuple[str, Any]]:
        """Row ``y``'s runs as tty_draw_line leaves them, for rows built of cells (panned
        views, overlays, floating panes): a hyperlink (``row_links`` from ``_row_links``) is
        a fifth member of its cells' styles, which ``_row_string`` draws as OSC 8."""
        runs = src.row_runs(y)
        found = row_links(y) if row_links is not None else None
        links = None
        if found:
            runs, links = _split_links(runs, found)
        runs, links = tty_attrs.tty_line(runs, False, False, self.pen, overlay, links, dflt)
        return _linked(runs, links)

    def _pane_rows(self, p: Any, width: int, h: int, edge: bool,
                   whole: bool) -> tuple[list[str], Any]:
        """The pane's first ``h`` rows, ``width`` cells each, rebuilt only where damaged, and
        the rows to send: those whose text changed, or all of them when ``whole``."""
        src = p.modes[0] if p.modes else p.screen  # a pane mode draws instead
        cache = self._panes.get(p.id)
        pal = getattr(src, "palette", None)
        base = getattr(src, "default_palette", None)
        if base:
            pal = {**base, **pal} if pal else base
        dflt = _default_colours(p)
        # a new palette or new window-style colours redraw the pane (and so does what else
        # the rows' strings depend on: whether the pane starts at the terminal's first column
        # and whether it is cut short)
        pkey = (tuple(sorted(pal.items())) if pal else (), dflt, p.xoff == 0, width == p.sx)
        if cache is None or cache.src is not src or cache.width != width or cache.edge != edge \
                or cache.palette != pkey:
            cache = self._panes[p.id] = _PaneRows(src, width, edge, pkey)
        gens = p.damage() if src is p.screen else None  # a mode has no damage: compare text
        strings = cache.strings
        if gens is not None and not whole and len(strings) == h \
                and getattr(src, "synchronized_output", False):
            # The pane is in a synchronized update (mode 2026): what it draws waits for the
            # update's end (or its timeout), as tmux skips its writes (MODE_SYNC); a whole
            # redraw shows it as it is.
            self.held = True
            return strings, ()
        if len(strings) != h:
            del strings[h:]
            strings.extend([""] * (h - len(strings)))
            cache.gens = []
        old = cache.gens
        if gens is not None and len(old) == h and old == gens[:h]:
            return strings, range(h) if whole else ()
        full = width == p.sx
        changed = []
        row_links = self._row_links(src)
        memo = cache.memo
        if len(memo) > 4 * h + 64:
            memo.clear()
        for y in range(h):
            if gens is not None and y < len(old) and old[y] == gens[y]:
                continue
            runs = src.row_runs(y)
            found = row_links(y) if row_links is not None else None
            mkey = tuple(runs) if not found else None
            text = memo.get(mkey) if mkey is not None else None
            if text is None:
                if pal:
                    runs = _palette_runs(runs, pal, self.pen.nobr)
                links = None
                if found:
                    runs, links = _split_links(runs, found)
                runs, links = tty_attrs.tty_line(runs, p.xoff == 0, edge, self.pen, False,
                                                 links, dflt)
                text = (_runs_string(runs, edge, self.depth, links) if full
                        else _clipped(_linked(runs, links), width, self.depth))
                if mkey is not None:
                    memo[mkey] = text
            if text != strings[y]:
                strings[y] = text
                changed.append(y)
        if gens is not None:
            cache.gens = gens[:h]
        return strings, range(h) if whole else changed

    def _panned_rows(self, p: Any, ox: int, oy: int, sx: int, area_y: int,
                     area_h: int) -> list[tuple[int, int, str]]:
        """The part of a pane a panned view shows (a window larger than the terminal), as
        segments: rows are cut from the pane's runs each frame (the segments already sent
        are not sent again)."""
        x0, x1 = max(p.xoff, ox), min(p.xoff + p.sx, ox + sx)
        y0, y1 = max(p.yoff, oy), min(p.yoff + p.sy, oy + area_h)
        if x1 <= x0 or y1 <= y0:
            return []
        src = p.modes[0] if p.modes else p.screen
        skip, width = x0 - p.xoff, x1 - x0
        segs = []
        dflt = _default_colours(p)
        row_links = self._row_links(src)
        for wy in range(y0, y1):
            row = [BLANK] * (skip + width)
            runs = self._cell_runs(src, wy - p.yoff, row_links, dflt, False)
            _place_runs(row, 0, skip + width, runs)
            segs.append((area_y + wy - oy, x0 - ox, _row_string(row[skip:], self.depth)))
        return segs

    def _border_setup(self, server: Any, client: Any, w: Any, panes: list[Any], sx: int,
                      area_h: int) -> tuple[Any, Any, Any]:
        """The window's border geometry (worked out again only when the layout changes),
        what its cells look like as a key, and the arguments that draw them."""
        opts = w.options
        pstatus = borders.status_number(opts.get("pane-border-status"))
        indicators = opts.get("pane-border-indicators")
        ap = w.active
        ox, oy = self.offset
        sx, area_h = sx + ox, area_h + oy  # the geometry is in window coordinates
        zorder = _zorder(w)
        sbars = scrollbar_geometry(w)
        gkey = (sx, area_h, ox, oy, w.sx, w.sy, ap.id if ap is not None else None, pstatus,
                indicators in ("colour", "both"), w.zoomed,
                [(p.id, p.xoff, p.yoff, p.sx, p.sy) for p in w.panes],
                [p.id for p in panes], [p.id for p in zorder], sbars.key())
        if gkey != self._geo_key:
            self._geo_key = gkey
            self._geo = borders.Geometry(w, panes, ap, sx, max(area_h, 0), pstatus,
                                         indicators in ("colour", "both"), zorder, sbars,
                                         ox, oy)
            self._pstatus_segs = None
        geo = self._geo
        if not geo.cells and not geo.status:
            return geo, None, None
        # The styles' formats are expanded again when the status line is (after a command,
        # a mode change, once a second), not for every frame. A pane's border cells are in
        # the active border style where they are the active pane's border, whoever owns them.
        skey = (gkey, self.status_time if self.status_cells is not None else None)
        if skey[1] is None or skey != self._styles_key:
            self._styles_key = skey
            owned = {(c[3].id, c[4]) for c in geo.cells if c[3] is not None}
            by_id = {p.id: p for p in w.panes}
            self._styles = (
                {k: _style_tuple(self._pane_border_style(server, client, w, by_id[k[0]], k[1]))
                 for k in owned},
                _style_tuple(self._pane_border_style(server, client, w, None)))
        styles, no_pane = self._styles
        m = server.model.marked if server is not None else None
        s = client.session
        # The marked pane's borders, even while it is hidden by a zoom (tmux looks at where
        # it was).
        marked = m[2] if m is not None and m[0] is s and m[1] is s.curw else None
        lines = opts.get("pane-border-lines")
        fill = borders.fill_character(opts.get("fill-character"))
        key = (gkey, sorted(styles.items()), no_pane, lines, indicators, fill,
               marked.id if marked is not None else None,
               opts.get("pane-base-index") if lines == "number" else None)
        args = (lambda p, act: no_pane if p is None else styles[(p.id, act)], lines,
                indicators in ("arrows", "both"), marked, fill)
        return geo, key, args

    def _border_cells(self, server: Any, client: Any, w: Any, panes: list[Any], sx: int,
                      area_y: int, area_h: int) -> list[tuple[int, int, str]]:
        """Segments of the border cells and pane status lines."""
        geo, key, args = self._border_setup(server, client, w, panes, sx, area_h)
        if args is None:
            return []
        ox, oy = self.offset
        if key != self._borders_key:
            rows = [[BLANK] * (sx + ox) for _ in range(max(area_h + oy, 0))]
            borders.draw(geo, rows, 0, *args)
            segs = []
            cells = geo.cells
            if ox or oy:
                cells = [c for c in cells if c[0] >= oy and c[1] >= ox]
            i, n = 0, len(cells)
            while i < n:
                y, x0 = cells[i][0], cells[i][1]
                j = i + 1
                while j < n and cells[j][0] == y and cells[j][1] == x0 + (j - i):
                    j += 1
                segs.append((area_y + y - oy, x0 - ox,
                             _row_string(rows[y][x0:x0 + j - i], self.depth)))
                i = j
            self._borders_key, self._border_segs = key, segs
        if not geo.status:
            return self._border_segs
        now = time.monotonic()
        if self._pstatus_segs is None or self.status_cells is None \
                or now - self._pstatus_time >= 1.0:
            self._pstatus_segs = []
            for y, x, row in self._pane_status(server, client, w, geo, args[1], args[4]):
                if y < oy or x + len(row) <= ox:
                    continue
                cut = max(ox - x, 0)
                self._pstatus_segs.append((area_y + y - oy, x + cut - ox,
                                           _row_string(row[cut:], self.depth)))
            self._pstatus_time = now
        return self._border_segs + self._pstatus_segs

    def _scrollbar_cells(self, panes: list[Any], sx: int,
                         area_h: int) -> list[tuple[int, int, list[Cell]]]:
        """screen_redraw_draw_pane_scrollbars: each visible pane's scrollbar as (row, column,
        cells) in the view. As tmux 3.7b draws them: a panned view (``ox``) moves the bars the
        other way (it adds the view's column where it means to take it away), and only the
        first column of each row is written (each cell drawn narrows the visible range the
        next one is checked against to the cell before it), so a wider bar or its padding
        leaves the other columns as they were."""
        ox, oy = self.offset
        out = []
        for p in panes:
            if not scrollbars.shown(p):
                continue
            for wy, x0, cells in scrollbars.rows(p):
                y = wy - oy
                if y < 0 or y >= area_h:
                    continue
                x = x0 + ox
                if x < 0:
                    cells, x = cells[-x:], 0
                if 0 <= x < sx and cells:
                    out.append((y, x, cells[:1]))
        return out

    def _scrollbar_segs(self, panes: list[Any], sx: int, area_y: int,
                        area_h: int) -> list[tuple[int, int, str]]:
        """The scrollbars as segments (drawn again only where a slider moved)."""
        return [(area_y + y, x, _row_string(cells, self.depth))
                for y, x, cells in self._scrollbar_cells(panes, sx, area_h)]

    @staticmethod
    def _pane_border_style(server: Any, client: Any, w: Any, p: Any,
                           active: bool | None = None) -> OptStyle | None:
        """The active (``active``; by default: the pane is the active one) or other border
        style of a pane (None: no pane), its formats expanded for that pane (the default
        active border is yellow while the pane is in a mode, red with synchronize-panes)."""
        if active is None:
            active = p is not None and p is w.active
        name = "pane-active-border-style" if p is not None and active else "pane-border-style"
        opts = p.options if p is not None else w.options  # style_apply on wp->options
        value = opts.get(name)
        if server is None or not isinstance(value, str) or "#{" not in value:
            return opts.get_style(name)
        from .format import expand
        from .formats_vars import context_for

        s = client.session if client is not None else None
        ctx = context_for(server, client, s, s.curw if s is not None else None, p)
        return opts.get_style(name, lambda text: expand(text, ctx))

    def _pane_status(self, server: Any, client: Any, w: Any, geo: Any, lines: str,
                     fill: str) -> list[tuple[int, int, list[Cell]]]:
        """screen_redraw_make_pane_status: each pane's pane-border-format drawn over its
        border line in its border style, as (row, column, cells)."""
        from .format import EXPAND_TIME, expand
        from .formats_vars import context_for

        s = client.session
        out = []
        for p, y, x0, kinds in geo.status:
            sty = self._pane_border_style(server, client, w, p) or OptStyle()
            st = _style_tuple(sty)
            ctx = context_for(server, client, s, s.curw, p)
            text = expand(str(p.options.get("pane-border-format")), ctx, flags=EXPAND_TIME)
            drawn = [False] * len(kinds)
            cells = status.draw(text, len(kinds), sty, drawn=drawn,
                                links=status.client_links(client))
            width = min(len(kinds), len(geo.cover[y]) - x0)
            if width > 0:
                out.append((y, x0, [cells[i] if drawn[i] else
                                    (borders.line_char(lines, kinds[i], p, w, fill), st)
                                    for i in range(width)]))
        return out

    def _cells_frame(self, server: Any, client: Any, w: Any, panes: list[Any], overlay: Any,
                     sx: int, sy: int, area_y: int, area_h: int,
                     status_rows: range) -> list[tuple[int, int, str]]:
        """The frame as whole rows of cells, for an overlay to draw over (display-panes,
        menus): slower, but overlays are shown briefly."""
        rows = [[BLANK] * sx for _ in range(sy)]
        ox, oy = self.offset
        wsx, wsy = sx + ox, max(area_h + oy, 0)  # the window's part up to the view's end
        wrows = [[BLANK] * wsx for _ in range(wsy)]
        order = _bottom_up(w, panes)
        # only the rows drawn this time are kept: a closed pane's go with the next frame
        last_cells, self._pane_cells = self._pane_cells, {}
        for k, p in enumerate(order):
            src = p.modes[0] if getattr(p, "modes", None) else p.screen
            if p.xoff >= wsx:
                continue
            dflt = _default_colours(p)
            row_links = self._row_links(src)
            clip = min(wsx, w.sx) if getattr(p, "floating", False) else wsx
            hidden = _covered_rows(p, order[k + 1:], clip)
            gens = p.damage() if src is p.screen and hasattr(p, "damage") else None
            width = min(p.sx, clip - p.xoff)
            for y in range(max(-p.yoff, 0), min(p.sy, wsy - p.yoff)):
                if y in hidden:
                    continue  # a floating pane above covers the whole row
                # the row's cells, built again only when the pane's row changed
                key = (p.id, y)
                old = last_cells.get(key)
                gen = gens[y] if gens is not None and y < len(gens) else None
                if old is not None and gen is not None and old[0] is src and old[1] == gen \
                        and old[2] == dflt and old[3] == width and old[5] is self.pen:
                    seg = old[4]
                else:
                    runs = self._cell_runs(src, y, row_links, dflt, True)
                    seg = [BLANK] * p.sx
                    _place_runs(seg, 0, p.sx, runs)
                self._pane_cells[key] = (src, gen, dflt, width, seg, self.pen)
                if p.xoff >= 0:
                    wrows[p.yoff + y][p.xoff:p.xoff + width] = seg[:width]
                else:  # a floating pane partly left of the window
                    part = seg[-p.xoff:width]
                    wrows[p.yoff + y][0:len(part)] = part
        geo, _key, args = self._border_setup(server, client, w, panes, sx, area_h)
        if args is not None:
            borders.draw(geo, wrows, 0, *args)
            hidden = getattr(geo, "status_hidden", ())
            for y, x, cells in self._pane_status(server, client, w, geo, args[1], args[4]):
                if hidden:  # the parts a floating pane above covers
                    cells = [wrows[y][x + i] if (x + i, y) in hidden and x + i < len(wrows[y])
                             else c for i, c in enumerate(cells)]
                wrows[y][x:x + len(cells)] = cells
                del wrows[y][wsx:]
        for y in range(max(area_h, 0)):
            rows[area_y + y] = wrows[oy + y][ox:ox + sx]
        if w.options.get("pane-scrollbars") != "off":
            for y, x, cells in self._scrollbar_cells(panes, sx, area_h):
                rows[area_y + y][x:x + len(cells)] = cells
        if overlay is not None:
            overlay.draw(server, client, rows, area_y, sx, area_h)
        # a row of cells equal to the one drawn there last time keeps its string
        cache = self._cell_rows if self._cell_rows_depth == self.depth else {}
        self._cell_rows, self._cell_rows_depth = {}, self.depth
        out = []
        for y, row in enumerate(rows):
            if y in status_rows:
                continue
            old = cache.get(y)
            text = old[1] if old is not None and old[0] == row else \
                _row_string(_tty_empties(row, False), self.depth)
            self._cell_rows[y] = (row, text)
            out.append((y, 0, text))
        return out

    @staticmethod
    def _cursor(w: Any, wp: Any, prompt: Any, overlay: Any, status_row: int, sx: int,
                area_y: int, ox: int = 0) -> str:
        """Where the cursor goes after a frame, and whether it shows."""
        if prompt is not None:  # the prompt shows the terminal's cursor (3.6 and later)
            return f"\x1b[0m\x1b[{status_row + 1};{min(prompt.cursor, sx - 1) + 1}H\x1b[?25h"
        if overlay is not None:  # a popup shows its command's cursor; others none
            cur = None if overlay.nocursor else overlay.cursor()
            if cur is None:
                return "\x1b[0m"
            return f"\x1b[0m\x1b[{cur[1] + 1};{min(cur[0], sx - 1) + 1}H\x1b[?25h"
        if wp is None:
            return "\x1b[0m"
        if wp.modes:
            cur = wp.modes[0].cursor()
            if cur is None:
                return "\x1b[0m"
            cx = min(wp.xoff + cur[0] - ox, sx - 1)
            return f"\x1b[0m\x1b[{area_y + wp.yoff + cur[1] + 1};{cx + 1}H\x1b[?25h"
        scr = wp.screen
        cx = min(wp.xoff - ox + min(scr.cursor_x, wp.sx - 1), sx - 1)
        cy = area_y + wp.yoff + scr.cursor_y
        show = "\x1b[?25h" if scr.cursor_visible and not wp.dead else ""
        return f"\x1b[0m\x1b[{cy + 1};{cx + 1}H{show}"

    @staticmethod
    def _status(server: Any, client: Any, sx: int, n: int, msg: bool) -> list[list[Cell]]:
        """The ``n`` status lines (status_redraw): each its status-format entry, in
        status-style with status-fg/-bg over it; a prompt or message on the last."""
        from .format import EXPAND_TIME, expand
        from .formats_vars import context_for

        s = client.session
        wl = s.curw
        opts = s.options
        base = opts.get_style("status-style") or OptStyle()
        fg, bg = opts.get("status-fg"), opts.get("status-bg")
        if isinstance(fg, int) and fg != 8:
            base.fg = fg
        if isinstance(bg, int) and bg != 8:
            base.bg = bg
        from .themes import resolver  # theme colours (beyond 3.7b) for this client

        theme = resolver(server, client)
        base.fg, base.bg = theme(base.fg), theme(base.bg)
        out = []
        fmts = opts.get_array("status-format") or {}
        ctx = None
        value = opts.get("status")
        shown = 0 if value == "off" else 1 if value == "on" else int(value)
        for i in range(n):
            if i >= shown:  # status off: the line a message borrows is blank
                out.append([BLANK] * sx)
                continue
            fmt = fmts.get(i)
            if fmt is None:
                out.append([(" ", (base.attr, base.fg, base.bg, 0))] * sx)
                continue
            if ctx is None:
                ctx = context_for(server, client, s, wl, wl.window.active)
            out.append(status.draw(expand(fmt, ctx, flags=EXPAND_TIME), sx, base, theme=theme,
                                   links=status.client_links(client)))
        out = [cells[:sx] + [BLANK] * (sx - len(cells)) for cells in out]
        if msg:
            draw_line(server, client, out[message_line(client, n)])
        return out
