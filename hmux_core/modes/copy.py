"""Copy mode (tmux 3.3a's window-copy.c): reading a frozen copy of a pane's screen and history,
moving a cursor through it, selecting, copying into paste buffers, searching.

Coordinates are tmux's: ``cx``/``cy`` are the cursor on the mode's screen, ``oy`` how many lines
the view is scrolled up; a line of the backing grid is ``hsize + cy - oy``. Selection ends are
kept in grid lines (``selx``/``sely``, ``endselx``/``endsely``) and projected onto the screen
for drawing (``sel``), as tmux's screen_set_selection.
"""

from __future__ import annotations

import re
import subprocess
import time
from bisect import bisect_left
from typing import Any

from ..mouse import copy_move_mouse, copy_start_drag, is_wheel
from ..screen.cells import DEFAULT_STYLE, Style, char_width, sgr_change
from . import CHARSET, NOATTR, Mode, option, pane_expander, redraw, reset_mode, style_option

WHITESPACE = "\t "

NOTHING, REDRAW, CANCEL = 0, 1, 2
CLEAR_ALWAYS, CLEAR_NEVER, CLEAR_EMACS_ONLY = 0, 1, 2
DRAG_NONE, DRAG_ENDSEL, DRAG_SEL = 0, 1, 2
LINE_NONE, LINE_LEFT_RIGHT, LINE_RIGHT_LEFT = 0, 1, 2
SEL_CHAR, SEL_WORD, SEL_LINE = 0, 1, 2
ABOVE, ON_SCREEN, BELOW = 0, 1, 2
SEARCH_OFF, SEARCH_UP, SEARCH_DOWN = 0, 1, 2
JUMP_FORWARD, JUMP_BACKWARD, JUMP_TO_FORWARD, JUMP_TO_BACKWARD = 3, 4, 5, 6
RECENTRE_TOP, RECENTRE_MIDDLE, RECENTRE_BOTTOM = 0, 1, 2
LN_OFF, LN_DEFAULT, LN_ABSOLUTE, LN_RELATIVE, LN_HYBRID = 0, 1, 2, 3, 4
_LN_MODES = {"off": LN_OFF, "default": LN_DEFAULT, "absolute": LN_ABSOLUTE,
             "relative": LN_RELATIVE, "hybrid": LN_HYBRID}

SEARCH_TIMEOUT = 10.0
SEARCH_ALL_TIMEOUT = 0.2
_REGEX_CHARS = set("^$*+()?[].\\")
_ASCII_LOWER = {c: c + 32 for c in range(65, 91)}


def _style(opts: Any, name: str) -> Style:
    return style_option(opts, name)


_POSIX_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "0-9a-zA-Z", "upper": "A-Z", "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "xdigit": "0-9A-Fa-f",
    "punct": "!-/:-@\\[-`{-~", "word": "0-9A-Za-z_", "cntrl": "\\x00-\\x1f\\x7f",
    "print": " -~", "graph": "!-~",
}
_POSIX_CLASS_RE = re.compile(r"\[:([a-z]+):\]")


def _posix_regex(pattern: str) -> str:
    """tmux searches with POSIX extended regular expressions: their bracket classes
    (``[[:digit:]]``) and word edges (``\\<``, ``\\>``) in Python's syntax."""
    if "[:" in pattern:
        pattern = _POSIX_CLASS_RE.sub(lambda m: _POSIX_CLASSES.get(m.group(1), m.group(0)),
                                      pattern)
    if "\\<" in pattern or "\\>" in pattern:
        pattern = pattern.replace("\\<", "\\b").replace("\\>", "\\b")
    return pattern


def _cells_of(text: str) -> list[str]:
    """A string as screen cells (wide characters followed by their padding cell)."""
    out: list[str] = []
    for ch in text:
        w = char_width(ch)
        if w < 0:
            continue
        if w == 0 and out:
            out[-1] += ch
            continue
        out.append(ch)
        if w == 2:
            out.append("")
    return out


class CopyMode(Mode):
    name = "copy-mode"
    has_command = True

    def __init__(self, server: Any, wp: Any, source: Any = None, args: Any = None) -> None:
        super().__init__(server, wp)
        self.source = (source or wp).screen
        b = self.back = self.source.snapshot()
        self.sx, self.sy = wp.sx, wp.sy
        self.cursordrag = DRAG_NONE
        self.lineflag = LINE_NONE
        self.selflag = SEL_CHAR
        self.rectflag = False
        self.sel: list[Any] | None = None  # [sx, sy, ex, ey, hidden] on the mode's screen
        self.selx = self.sely = self.endselx = self.endsely = 0
        self.selrx = self.selry = self.endselrx = self.endselry = 0
        self.dx = self.dy = 0
        self.lastcx = self.lastsx = 0
        self.separators = ""
        search = getattr(wp, "search_string", None)
        if search is not None:
            self.searchtype = SEARCH_UP
            self.searchregex = bool(getattr(wp, "search_regex", False))
            self.searchstr: str | None = search
        else:
            self.searchtype = SEARCH_OFF
            self.searchregex = False
            self.searchstr = None
        self.searchdirection = 1
        self.searchmark: bytearray | None = None
        self.searchcount = 0
        self.searchmore = False
        self.searchall = True
        self.searchx = self.searchy = self.searcho = -1
        self.searchgen = 1
        self.timeout = False
        self.jumptype = SEARCH_OFF
        self.jumpchar = ""
        self.modekeys = self._keys()
        cy = b.cursor_y
        if cy > b.sy - 1:
            cx, cy = 0, b.sy - 1
        else:
            cx = b.cursor_x
        gy = b.hsize + cy
        self.cx = cx
        if gy < b.hsize:
            self.cy, self.oy = 0, b.hsize - gy
        else:
            self.cy, self.oy = gy - b.hsize, 0
        self.scroll_exit = args is not None and args.has("e")
        self.hide_position = args is not None and args.has("H")
        self.mx, self.my = self.cx, b.hsize + self.cy - self.oy
        self.showmark = False
        # copy-mode-line-numbers applies (not when the mouse began): 1, 0, or 2 when
        # line-numbers-on forced the default gutter with the option off (an extension)
        self.line_numbers: int | bool = True
        # Beyond 3.7b (docs/extensions.md): refresh-on follows the pane's new output.
        self.refresh_active = False
        self.source_pane = source or wp
        self.seen_revision = getattr(self.source_pane, "output_revision", 0)
        self.recentre_state = RECENTRE_MIDDLE
        self.recentre_line = 0
        self._wargs: Any = None  # the parsed arguments of the command running

    # -- mode interface ----------------------------------------------------------------------------

    def key_table(self) -> str:
        return "copy-mode-vi" if self._keys() == "vi" else "copy-mode"

    def _keys(self) -> str:
        return str(self.wp.window.options.get("mode-keys"))

    def resize(self, sx: int, sy: int) -> None:
        self._rev += 1
        self._resize(sx, sy)

    def _resize(self, sx: int, sy: int) -> None:
        """tmux reflows its frozen copy of the grid; this takes a new copy of the pane (which
        has just been reflowed) and finds the cursor's cell in it again."""
        old = self.back
        self.oy = min(self.oy, old.hsize + self.cy)
        cx, gy = self.cx, old.hsize + self.cy - self.oy
        self.back = b = self.source.snapshot()
        self.sx, self.sy = sx, sy
        if old.sx != b.sx:
            cx, gy = b.unwrap_position(*old.wrap_position(cx, gy))
        self.cx = cx
        gy = min(gy, b.hsize + b.sy - 1)
        if gy < b.hsize:
            self.cy, self.oy = 0, b.hsize - gy
        else:
            self.cy, self.oy = gy - b.hsize, 0
        self.cy = min(self.cy, sy - 1)
        self.cx = min(self.cx, sx)
        self._size_changed()

    def _size_changed(self) -> None:
        search = self.searchmark is not None
        self._clear_selection()
        self._clear_marks()
        if search and not self.timeout:
            self._search_marks(self.searchregex, False)
        self.searchx, self.searchy, self.searcho = self.cx, self.cy, self.oy

    def cursor(self) -> tuple[int, int] | None:
        return (min(self.cursor_offset(self.cx), self.sx - 1), self.cy)

    def format(self, name: str) -> str | None:
        """window_copy_formats: the variables copy mode adds to its pane's formats."""
        fn = _FORMATS.get(name)
        return fn(self) if fn is not None else None

    def _format_position(self) -> tuple[int, int]:
        hsize = self.back.hsize
        if self._ln_absolute():
            return hsize - self.oy + 1, hsize + self.back.sy
        return self.oy, hsize

    def _format_selection(self, name: str) -> str | None:
        if self.sel is None:
            return "0" if name in ("selection_active", "selection_present") else None
        if name == "selection_active":
            return str(int(self.cursordrag != DRAG_NONE))
        if name == "selection_present":
            return str(int(self.endselx != self.selx or self.endsely != self.sely))
        return str({"selection_start_x": self.selx, "selection_start_y": self.sely,
                    "selection_end_x": self.endselx, "selection_end_y": self.endsely}[name])

    def line_time(self, y: int) -> int:
        """When grid line ``y`` was scrolled into history (0 for a line never scrolled)."""
        get = getattr(self.back, "line_time", None)
        return get(y) if get is not None else 0

    # -- line numbers (copy-mode-line-numbers) ---------------------------------------------------

    def _ln_mode(self) -> int:
        if not self.line_numbers:
            return LN_OFF
        value = option(self.wp.window.options, "copy-mode-line-numbers")
        mode = _LN_MODES.get(str(value), LN_OFF)
        if self.line_numbers == 2 and mode == LN_OFF:
            return LN_DEFAULT  # line-numbers-on with the option off
        return mode

    def _ln_absolute(self) -> bool:
        return self._ln_mode() in (LN_ABSOLUTE, LN_RELATIVE, LN_HYBRID)

    def _ln_width(self) -> int:
        """Columns the line numbers take (digits of the last line, at least 3, and a space)."""
        if self._ln_mode() == LN_OFF:
            return 0
        return max(3, len(str(self.back.hsize + self.back.sy + 1))) + 1

    def _content_sx(self, width: int) -> int:
        if width >= self.sx:
            return 1
        return self.sx - width if width else self.sx

    def cursor_offset(self, cx: int) -> int:
        """Screen column of grid column ``cx`` (after the line numbers)."""
        width = self._ln_width()
        if width == 0:
            return cx
        if cx >= self._content_sx(width):
            return self.sx - 1
        return width + cx

    def cursor_unoffset(self, vx: int) -> int:
        """Grid column of screen column ``vx`` (a mouse position)."""
        width = self._ln_width()
        if width == 0:
            return vx
        content = self._content_sx(width)
        if vx < width:
            return 0
        return min(vx - width, content - 1)

    def set_line_numbers(self, enabled: bool) -> None:
        """window_copy_set_line_numbers: copy mode entered with the mouse shows none."""
        if self.line_numbers != enabled:
            self.line_numbers = enabled
            self._rev += 1
            redraw(self)

    # -- drawing -----------------------------------------------------------------------------------

    def _expander(self) -> Any:
        return pane_expander(self.server, self.wp)

    def _styles(self) -> tuple[Style, ...]:
        """The styles a frame is drawn with (style_apply over the pane's formats): position,
        match, current match, mark, selection, line number, current line number."""
        opts = self.wp.window.options
        expand = self._expander()
        return tuple(style_option(opts, name, expand, name == "copy-mode-selection-style")
                     for name in ("copy-mode-position-style", "copy-mode-match-style",
                                  "copy-mode-current-match-style", "copy-mode-mark-style",
                                  "copy-mode-selection-style", "copy-mode-line-number-style",
                                  "copy-mode-current-line-number-style",
                                  # beyond 3.7b (the development tree's), "default" unless set
                                  "copy-mode-current-line-style"))

    def _current_line_active(self) -> bool:
        """window_copy_cursor_line_active: copy-mode-current-line-style is not "default"."""
        return option(self.wp.window.options, "copy-mode-current-line-style") != "default"

    def _position_cells(self, width: int) -> list[tuple[str, Style] | None]:
        """copy-mode-position-format drawn over the first row's content (format_draw): a
        cell for each column it wrote, None where the row shows through."""
        from ..options import Style as OptStyle
        from ..status import draw

        opts = self.wp.window.options
        value = option(opts, "copy-mode-position-format")
        if not value:
            return []
        expanded = self._expander()(str(value))
        if not expanded:
            return []
        st = self._frame_styles[0] if self._frame_styles else DEFAULT_STYLE
        base = OptStyle(fg=st[1], bg=st[2], attr=st[0])
        drawn = [False] * width
        cells = draw(expanded, width, base, drawn=drawn)
        return [(c, s) if d else None for (c, s), d in zip(cells, drawn, strict=False)]

    def _screen_cells(self, py: int, styled: bool = True) -> list[tuple[str, Style]]:
        """Row ``py`` of the mode's screen as tmux writes it (window_copy_write_line)."""
        sx = self.sx
        b = self.back
        if styled and self._frame_styles is None:
            self._frame_styles = self._styles()
        styles = self._frame_styles if styled else (DEFAULT_STYLE,) * 8
        _, mgc, cgc, mkgc, _, lngc, curlngc, clgc = styles
        width = self._ln_width()
        nx = self._content_sx(width)
        fy = b.hsize - self.oy + py
        row: list[tuple[str, Style]] = []
        if width:
            mode = self._ln_mode()
            current = py == self.cy
            absolute = b.hsize - self.oy + py + 1
            if mode == LN_DEFAULT:
                number = self.oy - py if py < self.oy else py - self.oy
            elif mode == LN_ABSOLUTE or (mode == LN_HYBRID and current):
                number = absolute
            else:
                number = abs(py - self.cy)
            text = f"{number:>{width - 1}} "[:width]
            st = curlngc if current else lngc
            row.extend((ch, st) for ch in text)
        if 0 <= fy < len(b):
            chars = b.chars(fy)
            n = min(len(chars), nx)
            table = b.styles_table()
            sids = b.style_ids(fy)
            cells = [(chars[x], table[sids[x]]) for x in range(n)]
            if "\t" in chars:
                _blank_tabs(cells)
            if n < nx:
                cells.extend([(" ", DEFAULT_STYLE)] * (nx - n))
            if styled and py == self.cy and clgc != DEFAULT_STYLE and self._current_line_active():
                cells = [(ch, _current_line(st, clgc)) for ch, st in cells]
            if n and chars[n - 1] != "" and n < len(chars) and chars[n] == "":
                cells[n - 1] = (" ", DEFAULT_STYLE)  # a wide character cut at the edge
            marks = self.searchmark
            if marks is not None and not (self.showmark and fy == self.my):
                at = py * b.sx
                if not any(marks[at:at + b.sx]):
                    marks = None  # nothing found on this row
            if styled and (marks is not None or (self.showmark and fy == self.my)):
                for fx in range(nx):
                    ch, st = cells[fx]
                    cells[fx] = (ch, self._update_style(fx, fy, st, mgc, cgc, mkgc))
            row.extend(cells)
        else:
            row.extend([(" ", DEFAULT_STYLE)] * nx)
        del row[sx:]
        if py == 0 and self.sy > 1 and not self.hide_position and styled:
            for i, cell in enumerate(self._position_cells(nx)):
                if cell is not None and width + i < sx:
                    row[width + i] = cell
        if py == self.cy and self.cx >= nx:
            row[self.cursor_offset(self.cx)] = ("$", DEFAULT_STYLE)
        return row

    def _link_of(self, sid: int) -> int:
        """The hyperlink a style id of the frozen copy carries in the pane's engine."""
        links = getattr(self.source, "_links", None)
        return links[sid] if links is not None and 0 <= sid < len(links) else 0

    def row_links(self, y: int) -> list[tuple[int, int, str, str]]:
        """The hyperlinks on row ``y`` as the engine gives them (first and end column, URI,
        id): copy mode shows the links of the lines it shows (tmux 3.5)."""
        eng = self.source
        hl = getattr(eng, "hyperlinks", None)
        b = self.back
        fy = b.hsize - self.oy + y
        if hl is None or not 0 <= fy < len(b):
            return []
        width = self._ln_width()
        chars = b.chars(fy)[:self._content_sx(width)]
        sids = b.style_ids(fy)
        out: list[tuple[int, int, str, str]] = []
        cur = start = 0
        for x in range(len(chars) + 1):
            if x < len(chars) and chars[x] == "":
                continue  # the rest of a wide character goes with it
            link = self._link_of(sids[x]) if x < len(chars) and x < len(sids) else 0
            if link != cur:
                if cur:
                    got, ext = hl.get(cur), hl.external_id(cur)
                    if got is not None and ext is not None:
                        out.append((start + width, x + width, got[0], ext))
                cur, start = link, x
        return out

    def _cursor_hyperlink(self) -> str:
        """format_grid_hyperlink at the cursor: the URI of the link under it."""
        hl = getattr(self.source, "hyperlinks", None)
        b = self.back
        fy = b.hsize - self.oy + self.cy
        if hl is None or not 0 <= fy < len(b):
            return ""
        chars, sids = b.chars(fy), b.style_ids(fy)
        x = self.cx
        while 0 < x < len(chars) and chars[x] == "":
            x -= 1
        link = self._link_of(sids[x]) if x < len(sids) else 0
        got = hl.get(link) if link else None
        return got[0] if got is not None else ""

    _frame_styles: tuple[Style, ...] | None = None

    _rev = 0  # bumped by whatever can change what is drawn
    _drawn: tuple[Any, dict[int, list[tuple[str, Style]]]] | None = None

    def row_runs(self, y: int) -> list[tuple[str, Style]]:
        """Rows are kept until the mode changes (a command, a resize, new lines, a style
        option): a pane flooding output under copy mode costs no drawing of it."""
        drawn = self._drawn
        if y == 0 or drawn is None:
            styles = self._styles()
            # the cursor's row is drawn in copy-mode-current-line-style when that is set
            cy = self.cy if styles[7] != DEFAULT_STYLE and self._current_line_active() else -1
            key = (self._rev, styles, self.sx, self.sy, cy)
            if drawn is None or drawn[0] != key:
                self._frame_styles = styles
                drawn = self._drawn = (key, {})
        got = drawn[1].get(y)
        if got is None:
            got = drawn[1][y] = self._row_runs(y)
        return got

    def _row_runs(self, y: int) -> list[tuple[str, Style]]:
        row = self._screen_cells(y)
        sel = self.sel
        if sel is not None and not sel[4]:
            span = self._selection_span(y)
            if span is not None:
                st = self._frame_styles[4] if self._frame_styles else DEFAULT_STYLE
                lo = max(span[0], self._ln_width())
                for x in range(lo, min(span[1], self.sx - 1) + 1):
                    ch, old = row[x]
                    row[x] = (ch, _select_cell(st, old))
        runs: list[tuple[str, Style]] = []
        text: list[str] = []
        cur = None
        for ch, st in row:
            if st != cur:
                if text:
                    runs.append(("".join(text), cur))  # type: ignore[arg-type]
                text = []
                cur = st
            text.append(ch)
        if text:
            runs.append(("".join(text), cur))  # type: ignore[arg-type]
        return runs

    def _selection_span(self, py: int) -> tuple[int, int] | None:
        """The columns of row ``py`` in the selection (screen_check_selection as a range)."""
        ssx, ssy, sex, sey, _ = self.sel  # type: ignore[misc]
        emacs = self.modekeys == "emacs"
        end = self.sx
        if self.rectflag:
            if not min(ssy, sey) <= py <= max(ssy, sey):
                return None
            lo, hi = (sex, ssx) if sex < ssx else (ssx, sex)
        elif ssy < sey:
            if not ssy <= py <= sey:
                return None
            lo = ssx if py == ssy else 0
            hi = ((0 if sex == 0 else sex - 1) if emacs else sex) if py == sey else end
        elif ssy > sey:
            if not sey <= py <= ssy:
                return None
            lo = sex if py == sey else 0
            if py == ssy:
                if ssx == 0:
                    return None
                hi = ssx - 1 if emacs else ssx
            else:
                hi = end
        else:
            if py != ssy:
                return None
            if sex < ssx:
                lo, hi = sex, (ssx - 1 if emacs else ssx)
            else:
                lo, hi = ssx, ((0 if sex == 0 else sex - 1) if emacs else sex)
        return (lo, hi) if lo <= hi else None

    def _update_style(self, fx: int, fy: int, st: Style, mgc: Style, cgc: Style,
                      mkgc: Style) -> Style:
        inv = False
        if self.showmark and fy == self.my:
            inv = fx == self.mx
            st = (mkgc[0], mkgc[2], mkgc[1], st[3]) if inv else (mkgc[0], mkgc[1], mkgc[2], st[3])
        marks = self.searchmark
        if marks is None:
            return st
        current = self._mark_at(fx, fy)
        if current is None:
            return st
        mark = marks[current]
        if mark == 0:
            return st
        cursor = self._mark_at(self.cx, self.back.hsize - self.oy + self.cy)
        if cursor is not None:
            found = False
            if cursor != 0 and self._keys() == "emacs" and self.searchdirection:
                if marks[cursor - 1] == mark:
                    cursor -= 1
                    found = True
            elif marks[cursor] == mark:
                found = True
            if found:
                start, end = self._match_start_end(cursor)
                if start <= current <= end:
                    g = cgc
                    return (g[0], g[2], g[1], st[3]) if inv else (g[0], g[1], g[2], st[3])
        g = mgc
        return (g[0], g[2], g[1], st[3]) if inv else (g[0], g[1], g[2], st[3])

    def _is_separator(self, c: str, ws: str) -> bool:
        return c in (" ", "\t") or (len(c) == 1 and c in ws)

    def _screen_word(self, x: int, y: int) -> str | None:
        """window_copy_get_word: format_grid_word on the backing grid at screen row ``y``
        (a word may go on through wrapped lines)."""
        ws = str(self.server.session_options.get("word-separators") or "")  # the global one
        b = self.back
        y = b.hsize + y - self.oy
        if not 0 <= y < len(b):
            return None
        found = False
        while True:
            c = b.cell(x, y)
            if c != "" and self._is_separator(c, ws):
                found = True
                break
            if x == 0:
                if y == 0 or not b.wrapped(y - 1):
                    break
                y -= 1
                x = b.length(y)
                if x == 0:
                    break
            x -= 1
        last = len(b) - 1
        out: list[str] = []
        while True:
            if found:
                end = b.length(y)
                if end == 0 or x == end - 1:
                    if y == last or not b.wrapped(y):
                        break
                    y += 1
                    x = 0
                else:
                    x += 1
            found = True
            c = b.cell(x, y)
            if c == "":
                continue
            if self._is_separator(c, ws):
                break
            out.append(c)
        return "".join(out) or None

    def _screen_line(self, y: int) -> str | None:
        """window_copy_get_line: format_grid_line on the backing grid at screen row ``y``."""
        b = self.back
        y = b.hsize + y - self.oy
        if not 0 <= y < len(b):
            return None
        n = b.length(y)
        return "".join(c for c in b.chars(y)[:n] if c) or None

    def _session_option(self, name: str) -> Any:
        s = next((s for s in self.server.model.sorted_sessions()
                  if s.has_window(self.wp.window)), None)
        opts = s.options if s is not None else self.server.session_options
        return opts.get(name)

    # -- commands ----------------------------------------------------------------------------------

    def command(self, item: Any) -> int:
        """window_copy_command: one ``send-keys -X`` command. Its own arguments are parsed
        with its flags (a bad flag or count does nothing); a read-only client may only run
        the commands that copy nothing."""
        from ..commands.grammar import CommandError, parse_args

        args = item.args
        argv = [a if isinstance(a, str) else str(a) for a in args.argv]
        if not argv:
            return 0
        name = argv[0]
        m = getattr(item.state, "event", None)
        if m is not None and m.valid and not is_wheel(m.b):
            copy_move_mouse(m)  # a mouse binding's command starts where the mouse is
        entry = _COMMANDS.get(name)
        action = NOTHING
        clear = CLEAR_NEVER
        if entry is not None:
            template, lo, hi, readonly_ok, clr, fn = entry
            c = item.target_client
            if c is not None and getattr(c, "readonly", False) and not readonly_ok:
                self.server.status_message(c, "client is read-only")
                return 0
            try:
                wargs = parse_args(template, argv[1:], lo, hi)
            except CommandError:
                wargs = None
            if wargs is not None:
                clear = clr
                self._wargs = wargs
                try:
                    action = fn(self, item, [name, *wargs.argv])
                finally:
                    self._wargs = None
        if not name.startswith("search-") and self.searchmark is not None:
            if clear == CLEAR_EMACS_ONLY and self._keys() == "vi":
                clear = CLEAR_NEVER
            if clear != CLEAR_NEVER:
                self._clear_marks()
                self.searchx = self.searchy = -1
            if action == NOTHING:
                action = REDRAW
        self.prefix = 1
        self._rev += 1
        if action == CANCEL:
            if self.wp.modes and self.wp.modes[0] is self:
                reset_mode(self.server, self.wp)
        else:
            redraw(self)
        return 0

    def flag(self, name: str) -> bool:
        """Whether the running command was given flag ``name`` (``copy-selection -P``)."""
        return self._wargs is not None and self._wargs.has(name)

    # -- positions ---------------------------------------------------------------------------------

    def _gy(self) -> int:
        return self.back.hsize + self.cy - self.oy

    def _length(self, py: int) -> int:
        return self.back.length(py)

    def _cell(self, x: int, y: int) -> str:
        return self.back.cell(x, y)

    def _in_set(self, px: int, py: int, chars: str) -> bool:
        return self._in_set_width(px, py, chars) != 0

    def _tab_width(self, px: int, py: int) -> int:
        """Columns of the tab at ``px``: its cell and the padding cells after it."""
        n = 1
        while self._cell(px + n, py) == "":
            n += 1
        return n

    def _in_set_width(self, px: int, py: int, chars: str) -> int:
        """grid_in_set: whether the cell is one of ``chars``; for a tab (or a cell a tab
        covers) when ``chars`` has one, the columns from there to the tab's end."""
        c = self._cell(px, py)
        if "\t" in chars:
            if c == "":
                pxx = px
                while True:
                    pxx -= 1
                    t = self._cell(pxx, py)
                    if not (pxx > 0 and t == ""):
                        break
                if t == "\t":
                    return self._tab_width(pxx, py) - (px - pxx)
            elif c == "\t":
                return self._tab_width(px, py)
        if c == "":
            return 0
        return 1 if len(c) == 1 and c in chars else 0

    def _cursor_limit(self, py: int, allow_onemore: bool) -> int:
        """The last column the cursor may take on line ``py``: the end of its text, or with
        vi keys its last character (vi's cursor does not go past it)."""
        if not 0 <= py < len(self.back):
            return 0
        n = self._length(py)
        if allow_onemore or self._keys() != "vi":
            return n
        return n - 1 if n else 0

    def _update_cursor(self, cx: int, cy: int) -> None:
        if not self.rectflag and cy < self.sy:
            cx = min(cx, self._cursor_limit(self.back.hsize + cy - self.oy, False))
        self.cx, self.cy = cx, cy

    # -- selection ---------------------------------------------------------------------------------

    def _start_selection(self) -> None:
        self.selx = self.cx
        self.sely = self._gy()
        self.endselx, self.endsely = self.selx, self.sely
        self.cursordrag = DRAG_ENDSEL
        self._set_selection(False)

    def _adjust_selection(self, x: int, y: int) -> tuple[int, int, int]:
        ty = self.back.hsize - self.oy
        if y < ty:
            return (x if self.rectflag else 0), 0, ABOVE
        if y > ty + self.sy - 1:
            return (x if self.rectflag else self.sx - 1), self.sy - 1, BELOW
        return x, y - ty, ON_SCREEN

    def _update_selection(self, no_reset: bool = False) -> bool:
        if self.sel is None and self.lineflag == LINE_NONE:
            return False
        return self._set_selection(no_reset)

    def _set_selection(self, no_reset: bool) -> bool:
        self._synchronize_cursor(no_reset)
        sx, sy, srel = self._adjust_selection(self.selx, self.sely)
        ex, ey, erel = self._adjust_selection(self.endselx, self.endsely)
        if srel == erel and srel != ON_SCREEN:
            if self.sel is not None:
                self.sel[4] = True
            return False
        if self._ln_mode() != LN_OFF:
            sx, ex = self.cursor_offset(sx), self.cursor_offset(ex)
        self.sel = [sx, sy, ex, ey, False]
        self.modekeys = self._keys()
        return True

    def _synchronize_cursor(self, no_reset: bool) -> None:
        if self.cursordrag == DRAG_ENDSEL:
            self._synchronize_cursor_end(False, no_reset)
        elif self.cursordrag == DRAG_SEL:
            self._synchronize_cursor_end(True, no_reset)

    def _synchronize_cursor_end(self, begin: bool, no_reset: bool) -> None:
        xx, yy = self.cx, self._gy()
        if self.selflag == SEL_WORD and not no_reset:
            begin = False
            if self.dy > yy or (self.dy == yy and self.dx > xx):
                xx, yy = self._previous_word_pos(self.separators)
                begin = True
                self.endselx, self.endsely = self.endselrx, self.endselry
            else:
                if xx >= self._length(yy) or not self._in_set(xx + 1, yy, WHITESPACE):
                    xx, yy = self._next_word_end_pos(self.separators)
                self.selx, self.sely = self.selrx, self.selry
        elif self.selflag == SEL_LINE and not no_reset:
            begin = False
            if self.dy > yy:
                xx = 0
                begin = True
                self.endselx, self.endsely = self.endselrx, self.endselry
            else:
                if yy < self.endselry:
                    yy = self.endselry
                xx = self._length(yy)
                self.selx, self.sely = self.selrx, self.selry
        if begin:
            self.selx, self.sely = xx, yy
        else:
            self.endselx, self.endsely = xx, yy

    def _clear_selection(self) -> None:
        self.sel = None
        self.cursordrag = DRAG_NONE
        self.lineflag = LINE_NONE
        self.selflag = SEL_CHAR
        px = self._cursor_limit(self._gy(), self.rectflag)
        if self.cx > px:
            self._update_cursor(px, self.cy)

    def _rectangle_set(self, flag: bool) -> None:
        self.rectflag = flag
        px = self._cursor_limit(self._gy(), self.rectflag)
        if self.cx > px:
            self._update_cursor(px, self.cy)
        self._update_selection()

    def _other_end(self) -> None:
        if self.sel is None and self.lineflag == LINE_NONE:
            return
        if self.lineflag == LINE_LEFT_RIGHT:
            self.lineflag = LINE_RIGHT_LEFT
        elif self.lineflag == LINE_RIGHT_LEFT:
            self.lineflag = LINE_LEFT_RIGHT
        self.cursordrag = DRAG_SEL if self.cursordrag == DRAG_ENDSEL else DRAG_ENDSEL
        if self.cursordrag == DRAG_SEL:
            selx, sely = self.selx, self.sely
        else:
            selx, sely = self.endselx, self.endsely
        cy = self.cy
        yy = self._gy()
        self.cx = selx
        hsize = self.back.hsize
        if sely < hsize - self.oy:
            self.oy = hsize - sely
            self.cy = 0
        elif sely > hsize - self.oy + self.sy:
            self.oy = hsize - sely + self.sy - 1
            self.cy = self.sy - 1
        else:
            self.cy = cy + sely - yy
        self.cx = min(self.cx, self._cursor_limit(self._gy(), self.rectflag))
        self._update_selection(True)

    def get_selection(self) -> str | None:
        """window_copy_get_selection: the selected text, or the search match at the cursor."""
        if self.sel is None and self.lineflag == LINE_NONE:
            return self._match_at_cursor()
        xx, yy = self.endselx, self.endsely
        if yy < self.sely or (yy == self.sely and xx < self.selx):
            sx, sy, ex, ey = xx, yy, self.selx, self.sely
        else:
            sx, sy, ex, ey = self.selx, self.sely, xx, yy
        ey_last = self._length(ey)
        if ex > ey_last:
            ex = ey_last
        width = self.sx
        emacs = self._keys() == "emacs"
        if self.rectflag:
            selx = self.selx if self.cursordrag == DRAG_ENDSEL else self.endselx
            if selx < self.cx:
                lastex = restex = self.cx if emacs else self.cx + 1
                firstsx = restsx = selx
            else:
                lastex = restex = selx + 1
                firstsx = restsx = self.cx
        else:
            lastex = ex if emacs else ex + 1
            restex = width
            firstsx = sx
            restsx = 0
        out: list[str] = []
        for i in range(sy, ey + 1):
            self._copy_line(out, i, firstsx if i == sy else restsx, lastex if i == ey else restex)
        buf = "".join(out)
        if not buf:
            return None
        if emacs or lastex <= ey_last:
            if not self.back.wrapped(ey) or lastex != ey_last:
                buf = buf[:-1]
        return buf

    def _copy_line(self, out: list[str], sy: int, sx: int, ex: int) -> None:
        if sx > ex:
            return
        b = self.back
        wrapped = b.wrapped(sy) and b.cellsize(sy) <= b.sx
        xx = b.cellsize(sy) if wrapped else self._length(sy)
        ex = min(ex, xx)
        sx = min(sx, xx)
        if sx < ex:
            out.append(b.text(sy, sx, ex))
        if not wrapped or ex != xx:
            out.append("\n")

    def _clipboard(self, data: bytes) -> None:
        """set-clipboard external or on: the copy also goes to the terminals showing the pane
        (OSC 52, when their terminal can take it)."""
        if str(self.server.options.get("set-clipboard")) == "off":
            return
        from .. import escapes

        escapes.set_selection(self.server, data, escapes.viewers(self.server, self.wp))
        self.server.notify("pane-set-clipboard", {"pane": self.wp})

    def _copy_buffer(self, prefix: str | None, text: str) -> None:
        """The copied text to the clipboard and a new paste buffer, unless the command had
        -C (no clipboard) or -P (no buffer)."""
        data = text.encode("utf-8", "surrogateescape")
        if not self.flag("C"):
            self._clipboard(data)
        if not self.flag("P"):
            self.server.buffers.add(data, prefix if prefix else "buffer")

    def _pipe_run(self, item: Any, cmd: str | None) -> str | None:
        text = self.get_selection()
        if not cmd:
            cmd = str(self.server.options.get("copy-command") or "")
        if cmd:
            self._start_job(item, cmd, (text or "").encode("utf-8", "surrogateescape"))
        return text

    def _start_job(self, item: Any, cmd: str, data: bytes) -> None:
        """job_run with JOB_NOWAIT: the command reads the selection and nobody waits for it."""
        from ..commands.shell_cmds import job_environ

        s = item.target.s
        cwd = self.wp.current_path() or self.wp.cwd or "/"
        try:
            proc = subprocess.Popen(["/bin/sh", "-c", cmd], stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    cwd=cwd, env=job_environ(self.server, s),
                                    start_new_session=True)
        except OSError:
            return
        try:
            assert proc.stdin is not None
            proc.stdin.write(data)
            proc.stdin.close()
        except OSError:
            pass
        from ..pane import _reap_later

        _reap_later(proc)

    def _copy_pipe(self, item: Any, prefix: str | None, cmd: str | None) -> None:
        text = self._pipe_run(item, cmd)
        if text is not None:
            self._copy_buffer(prefix, text)

    def _copy_selection(self, prefix: str | None) -> None:
        text = self.get_selection()
        if text is not None:
            self._copy_buffer(prefix, text)

    def _append_selection(self) -> None:
        text = self.get_selection()
        if text is None:
            return
        data = text.encode("utf-8", "surrogateescape")
        self._clipboard(data)
        top = self.server.buffers.top()
        if top is not None:
            self.server.buffers.set(top.data + data, top.name)
        else:
            self.server.buffers.set(data, None)

    # -- cursor movement (grid_reader) ---------------------------------------------------------

    def _last_line(self) -> int:
        return self.back.hsize + self.back.sy - 1

    def _r_right(self, x: int, y: int, wrap: bool, all_: bool,
                 onemore: bool = True) -> tuple[int, int]:
        if all_:
            px = self.back.sx
        else:
            px = self._length(y)
            if not onemore and px:
                px -= 1
        if wrap and x >= px and y < self._last_line():
            return self._r_down(0, y)
        if x < px:
            x += 1
            while x < px and self._cell(x, y) == "":
                x += 1
        return x, y

    def _r_left(self, x: int, y: int, wrap: bool) -> tuple[int, int]:
        while x > 0 and self._cell(x, y) == "":
            x -= 1
        if x == 0 and y > 0 and (wrap or self.back.wrapped(y - 1)):
            x, y = self._r_up(x, y)
            return self._length(y), y
        if x > 0:
            x -= 1
        return x, y

    def _r_down(self, x: int, y: int) -> tuple[int, int]:
        if y < self._last_line():
            y += 1
        while x > 0 and self._cell(x, y) == "":
            x -= 1
        return x, y

    def _r_up(self, x: int, y: int) -> tuple[int, int]:
        if y > 0:
            y -= 1
        while x > 0 and self._cell(x, y) == "":
            x -= 1
        return x, y

    def _r_start_of_line(self, y: int, wrap: bool) -> tuple[int, int]:
        if wrap:
            while y > 0 and self.back.wrapped(y - 1):
                y -= 1
        return 0, y

    def _r_end_of_line(self, y: int, wrap: bool, all_: bool) -> tuple[int, int]:
        if wrap:
            last = self._last_line()
            while y < last and self.back.wrapped(y):
                y += 1
        return (self.back.sx if all_ else self._length(y)), y

    def _acquire_up(self, oldy: int, px: int, py: int) -> None:
        yy = self.back.hsize - self.oy
        if py < yy:
            ny, cy = yy - py, 0
        else:
            ny, cy = 0, py - yy
        for _ in range(ny):
            self._cursor_up(True)
        self._update_cursor(px, cy)
        self._update_selection()

    def _acquire_down(self, oldy: int, px: int, py: int, no_reset: bool = False) -> None:
        cy = py - self.back.hsize + self.oy
        yy = self.back.sy - 1
        ny = cy - yy if cy > yy else 0
        for _ in range(ny):
            self._cursor_down(True)
        self._update_cursor(px, yy if cy > yy else cy)
        self._update_selection(no_reset)

    def _start_of_line(self) -> None:
        px, py = self._r_start_of_line(self._gy(), True)
        self._acquire_up(self.cy, px, py)

    def _back_to_indentation(self) -> None:
        ox, oy = self.cx, self._gy()
        _, y0 = self._r_start_of_line(oy, True)
        last = self._last_line()
        px, py = ox, oy
        y = y0
        while y <= last:
            xx = self._length(y)
            hit = next((x for x in range(xx) if self._cell(x, y) not in (" ", "\t", "")),
                       None)
            if hit is not None:
                px, py = hit, y
                break
            if not self.back.wrapped(y):
                break
            y += 1
        self._acquire_up(self.cy, px, py)

    def _end_of_line(self) -> None:
        rect = self.sel is not None and self.rectflag
        px, py = self._r_end_of_line(self._gy(), True, rect)
        if not rect:
            px = self._cursor_limit(py, False)
        self._acquire_down(self.cy, px, py)

    def _cursor_left(self) -> None:
        px, py = self._r_left(self.cx, self._gy(), True)
        self._acquire_up(self.cy, px, py)

    def _cursor_right(self, all_: bool) -> None:
        px, py = self._r_right(self.cx, self._gy(), True, all_, self._keys() != "vi")
        self._acquire_down(self.cy, px, py)

    def _cursor_up(self, scroll_only: bool) -> None:
        norectsel = self.sel is None or not self.rectflag
        oy = self._gy()
        ox = self._length(oy)
        if norectsel and self.cx != ox:
            self.lastcx, self.lastsx = self.cx, ox
        if self.lineflag == LINE_LEFT_RIGHT and oy == self.sely:
            self._other_end()
        if scroll_only or self.cy == 0:
            if norectsel:
                self.cx = self.lastcx
            self._scroll_down(1)
        else:
            self._update_cursor(self.lastcx if norectsel else self.cx, self.cy - 1)
            self._update_selection()
        if norectsel:
            px = self._length(self._gy())
            if (self.cx >= self.lastsx and self.cx != px) or self.cx > px:
                self._update_cursor(px, self.cy)
                self._update_selection()
        if self.lineflag == LINE_LEFT_RIGHT:
            px = self.back.sx if self.rectflag else self._length(self._gy())
            self._update_cursor(px, self.cy)
            self._update_selection()
        elif self.lineflag == LINE_RIGHT_LEFT:
            self._update_cursor(0, self.cy)
            self._update_selection()

    def _cursor_down(self, scroll_only: bool) -> None:
        norectsel = self.sel is None or not self.rectflag
        oy = self._gy()
        ox = self._length(oy)
        if norectsel and self.cx != ox:
            self.lastcx, self.lastsx = self.cx, ox
        if self.lineflag == LINE_RIGHT_LEFT and oy == self.endsely:
            self._other_end()
        if scroll_only or self.cy == self.sy - 1:
            if norectsel:
                self.cx = self.lastcx
            self._scroll_up(1)
        else:
            self._update_cursor(self.lastcx if norectsel else self.cx, self.cy + 1)
            self._update_selection()
        if norectsel:
            px = self._length(self._gy())
            if (self.cx >= self.lastsx and self.cx != px) or self.cx > px:
                self._update_cursor(px, self.cy)
                self._update_selection()
        if self.lineflag == LINE_LEFT_RIGHT:
            px = self.back.sx if self.rectflag else self._length(self._gy())
            self._update_cursor(px, self.cy)
            self._update_selection()
        elif self.lineflag == LINE_RIGHT_LEFT:
            self._update_cursor(0, self.cy)
            self._update_selection()

    def _scroll_up(self, ny: int) -> None:
        ny = min(ny, self.oy)
        if ny == 0:
            return
        self.oy -= ny
        if self.searchmark is not None and not self.timeout:
            self._search_marks(self.searchregex, True)
        self._update_selection()

    def _scroll_down(self, ny: int) -> None:
        hsize = self.back.hsize
        if ny > hsize:
            return
        if self.oy > hsize - ny:
            ny = hsize - self.oy
        if ny == 0:
            return
        self.oy += ny
        if self.searchmark is not None and not self.timeout:
            self._search_marks(self.searchregex, True)
        self._update_selection()

    def _page_prepare(self, half: bool) -> int:
        """The cursor column pages keep and how many lines a page (or half) moves."""
        ox = self._length(self._gy())
        if self.cx != ox:
            self.lastcx, self.lastsx = self.cx, ox
        self.cx = self.lastcx
        if self.sy > 2:
            return self.sy // 2 if half else self.sy - 2
        return 1

    def _page_fix(self) -> None:
        if self.sel is None or not self.rectflag:
            px = self._length(self._gy())
            if (self.cx >= self.lastsx and self.cx != px) or self.cx > px:
                self._end_of_line()

    def pageup(self, half: bool) -> None:
        self._rev += 1
        n = self._page_prepare(half)
        hsize = self.back.hsize
        if self.oy + n > hsize:
            self.oy = hsize
            self.cy = 0 if self.cy < n else self.cy - n
        else:
            self.oy += n
        self._page_fix()
        if self.searchmark is not None and not self.timeout:
            self._search_marks(self.searchregex, True)
        self._update_selection()

    def scroll_slider(self, sl_mpos: int, my: int, tty_oy: int, scroll_exit: bool) -> bool:
        """window_copy_scroll: the view where the scrollbar's slider is dragged to (``my``
        the mouse's row, ``sl_mpos`` where on the slider it holds it), the cursor kept on
        its screen row. True when it reached the bottom with ``scroll_exit``."""
        from ..scrollbars import slider

        wp = self.wp
        wp.window.set_active(wp, notify=False)
        self._rev += 1
        slider_h = slider(wp)[1]
        sb_height, sb_top = wp.sy, wp.yoff
        my_w = my + tty_oy
        if my_w <= sb_top + sl_mpos:
            new_y = 0  # banged into the top
        elif my_w - sl_mpos > sb_top + sb_height - slider_h:
            new_y = sb_height - slider_h  # into the bottom
        else:
            new_y = my_w - wp.yoff - sl_mpos
        b = self.back
        hsize = b.hsize
        delta = (hsize - self.oy) - int(new_y * ((hsize + sb_height) / sb_height))
        ox = self._length(self._gy())
        if self.cx != ox:
            self.lastcx, self.lastsx = self.cx, ox
        self.cx = self.lastcx
        if delta >= 0:
            if self.oy + delta > hsize:
                self.oy = hsize
                self.cy = 0 if self.cy < delta else self.cy - delta
            else:
                self.oy += delta
        elif self.oy < -delta:
            self.oy = 0
            self.cy = min(self.cy - delta, b.sy - 1)
        else:
            self.oy += delta
        self.cursordrag = DRAG_NONE  # the selection's end is not dragged along
        if self.sel is None or not self.rectflag:
            px = self._length(self._gy())
            if (self.cx >= self.lastsx and self.cx != px) or self.cx > px:
                self._end_of_line()
        if scroll_exit and self.oy == 0:
            return True
        if self.searchmark is not None and not self.timeout:
            self._search_marks(self.searchregex, True)
        self._update_selection(True)
        redraw(self)
        return False

    def pagedown(self, half: bool, scroll_exit: bool) -> bool:
        """window_copy_pagedown (copy-mode -d): True when it reached the bottom and the
        mode should end."""
        self._rev += 1
        return self._pagedown(half, scroll_exit)

    def _pagedown(self, half: bool, scroll_exit: bool) -> bool:
        n = self._page_prepare(half)
        if self.oy < n:
            self.oy = 0
            if self.cy + (n - self.oy) >= self.back.sy:
                self.cy = self.back.sy - 1
            else:
                self.cy += n - self.oy
        else:
            self.oy -= n
        self._page_fix()
        if scroll_exit and self.oy == 0:
            return True
        if self.searchmark is not None and not self.timeout:
            self._search_marks(self.searchregex, True)
        self._update_selection()
        return False

    def _scroll_to(self, px: int, py: int, no_redraw: bool) -> None:
        b = self.back
        self.cx = px
        if b.hsize - self.oy <= py < b.hsize - self.oy + b.sy:
            self.cy = py - (b.hsize - self.oy)
        else:
            gap = b.sy // 4
            if py < b.sy:
                offset = 0
                self.cy = py
            elif py > b.hsize + b.sy - gap:
                offset = b.hsize
                self.cy = py - b.hsize
            else:
                offset = py + gap - b.sy
                self.cy = py - offset
            self.oy = b.hsize - offset
        if not no_redraw and self.searchmark is not None and not self.timeout:
            self._search_marks(self.searchregex, True)
        self._update_selection()

    # -- words -------------------------------------------------------------------------------------

    def _handle_wrap(self, x: int, y: int, xx: int, yy: int) -> tuple[int, int, int, bool]:
        while x > xx:
            if y == yy:
                return x, y, xx, False
            x, y = self._r_down(0, y)
            xx = self.back.sx - 1 if self.back.wrapped(y) else self._length(y)
        return x, y, xx, True

    def _next_word(self, x: int, y: int, seps: str) -> tuple[int, int]:
        xx = self.back.sx - 1 if self.back.wrapped(y) else self._length(y)
        yy = self._last_line()
        x, y, xx, ok = self._handle_wrap(x, y, xx, yy)
        if not ok:
            return x, y
        if not self._in_set(x, y, WHITESPACE):
            if self._in_set(x, y, seps):
                while True:
                    x += 1
                    x, y, xx, ok = self._handle_wrap(x, y, xx, yy)
                    if not (ok and self._in_set(x, y, seps) and not self._in_set(x, y, WHITESPACE)):
                        break
            else:
                while True:
                    x += 1
                    x, y, xx, ok = self._handle_wrap(x, y, xx, yy)
                    if not (ok and not (self._in_set(x, y, seps) or self._in_set(x, y, WHITESPACE))):
                        break
        while True:
            x, y, xx, ok = self._handle_wrap(x, y, xx, yy)
            width = self._in_set_width(x, y, WHITESPACE) if ok else 0
            if not width:
                break
            x += width
        return x, y

    def _next_word_end(self, x: int, y: int, seps: str) -> tuple[int, int]:
        xx = self.back.sx - 1 if self.back.wrapped(y) else self._length(y)
        yy = self._last_line()
        while True:
            x, y, xx, ok = self._handle_wrap(x, y, xx, yy)
            if not ok:
                return x, y
            if self._in_set(x, y, WHITESPACE):
                x += 1
                continue
            if self._in_set(x, y, seps):
                while True:
                    x += 1
                    x, y, xx, ok = self._handle_wrap(x, y, xx, yy)
                    if not (ok and self._in_set(x, y, seps) and not self._in_set(x, y, WHITESPACE)):
                        return x, y
            while True:
                x += 1
                x, y, xx, ok = self._handle_wrap(x, y, xx, yy)
                if not (ok and not (self._in_set(x, y, WHITESPACE) or self._in_set(x, y, seps))):
                    return x, y

    def _previous_word(self, x: int, y: int, seps: str, already: bool,
                       stop_at_eol: bool) -> tuple[int, int]:
        word_is_letters = False
        if already or self._in_set(x, y, WHITESPACE):
            while True:
                if x > 0:
                    x -= 1
                    if not self._in_set(x, y, WHITESPACE):
                        word_is_letters = not self._in_set(x, y, seps)
                        break
                else:
                    if y == 0:
                        return x, y
                    x, y = self._r_up(x, y)
                    x = self._length(y)
                    if stop_at_eol and x > 0:
                        if self._in_set(x - 1, y, WHITESPACE):
                            word_is_letters = False
                            break
        else:
            word_is_letters = not self._in_set(x, y, seps)
        while True:
            oldx, oldy = x, y
            if x == 0:
                if y == 0 or not self.back.wrapped(y - 1):
                    break
                x, y = self._r_up(x, y)
                x = self.back.sx
            if x > 0:
                x -= 1
            if self._in_set(x, y, WHITESPACE) or word_is_letters == self._in_set(x, y, seps):
                break
        return oldx, oldy

    def _cursor_next_word(self, seps: str) -> None:
        px, py = self._next_word(self.cx, self._gy(), seps)
        self._acquire_down(self.cy, px, py)

    def _next_word_end_pos(self, seps: str) -> tuple[int, int]:
        x, y = self.cx, self._gy()
        if self._keys() == "vi":
            if not self._in_set(x, y, WHITESPACE):
                x, y = self._r_right(x, y, False, False, False)
            x, y = self._next_word_end(x, y, seps)
            x, y = self._r_left(x, y, True)
        else:
            x, y = self._next_word_end(x, y, seps)
        return x, y

    def _cursor_next_word_end(self, seps: str, no_reset: bool) -> None:
        px, py = self._next_word_end_pos(seps)
        self._acquire_down(self.cy, px, py, no_reset)

    def _previous_word_pos(self, seps: str) -> tuple[int, int]:
        return self._previous_word(self.cx, self._gy(), seps, False, True)

    def _cursor_previous_word(self, seps: str, already: bool) -> None:
        stop = self._keys() == "emacs"
        px, py = self._previous_word(self.cx, self._gy(), seps, already, stop)
        self._acquire_up(self.cy, px, py)

    # -- jumps -------------------------------------------------------------------------------------

    def _jump_fwd(self, x: int, y: int) -> tuple[int, int] | None:
        last = self._last_line()
        py = y
        while py <= last:
            xx = self._length(py)
            while x < xx:
                if self._cell(x, py) == self.jumpchar:
                    return x, py
                x += 1
            if py == last or not self.back.wrapped(py):
                return None
            x = 0
            py += 1
        return None

    def _jump_back(self, x: int, y: int) -> tuple[int, int] | None:
        xx = x + 1
        py = y + 1
        while py > 0:
            for px in range(xx, 0, -1):
                if self._cell(px - 1, py - 1) == self.jumpchar:
                    return px - 1, py - 1
            if py == 1 or not self.back.wrapped(py - 2):
                return None
            xx = self._length(py - 2)
            py -= 1
        return None

    def _cursor_jump(self) -> None:
        got = self._jump_fwd(self.cx + 1, self._gy())
        if got is not None:
            self._acquire_down(self.cy, *got)

    def _cursor_jump_back(self) -> None:
        x, y = self._r_left(self.cx, self._gy(), False)
        got = self._jump_back(x, y)
        if got is not None:
            self._acquire_up(self.cy, *got)

    def _cursor_jump_to(self) -> None:
        got = self._jump_fwd(self.cx + 2, self._gy())
        if got is not None:
            x, y = self._r_left(got[0], got[1], True)
            self._acquire_down(self.cy, x, y)

    def _cursor_jump_to_back(self) -> None:
        x, y = self._r_left(self.cx, self._gy(), False)
        x, y = self._r_left(x, y, False)
        got = self._jump_back(x, y)
        if got is not None:
            x, y = self._r_right(got[0], got[1], True, False, self._keys() != "vi")
            self._acquire_up(self.cy, x, y)

    # -- search ------------------------------------------------------------------------------------

    def _mark_at(self, px: int, py: int) -> int | None:
        b = self.back
        top = b.hsize - self.oy
        if py < top or py > top + b.sy - 1:
            return None
        return (py - top) * b.sx + px

    def _match_start_end(self, at: int) -> tuple[int, int]:
        marks = self.searchmark
        assert marks is not None
        last = len(marks) - 1
        mark = marks[at]
        start = end = at
        while start != 0 and marks[start] == mark:
            start -= 1
        if marks[start] != mark:
            start += 1
        while end != last and marks[end] == mark:
            end += 1
        if marks[end] != mark:
            end -= 1
        return start, end

    def _match_at_cursor(self) -> str | None:
        marks = self.searchmark
        if marks is None:
            return None
        at = self._mark_at(self.cx, self.back.hsize - self.oy + self.cy)
        if at is None:
            return None
        if marks[at] == 0:
            if at == 0 or marks[at - 1] == 0:
                return None
            at -= 1
        start, end = self._match_start_end(at)
        sx = self.back.sx
        out = []
        for a in range(start, end + 1):
            py, px = divmod(a, sx)
            out.append(self._cell(px, self.back.hsize + py - self.oy))
        return "".join(out) or None

    def _stringify(self, py: int) -> tuple[str, list[int]]:
        """Line ``py`` and the lines it wraps into as one string, and for each character the
        cell it is in, counted from the start of ``py`` (with a final entry for the end)."""
        b = self.back
        sx = b.sx
        parts: list[str] = []
        pos: list[int] = []
        last = self._last_line()
        y = py
        base = 0
        while True:
            plain = b.plain(y)
            if plain is not None:
                parts.append(plain)
                pos.extend(range(base, base + sx))
                if y >= last or not b.wrapped(y):
                    break
                y += 1
                base += sx
                continue
            chars = b.chars(y)
            if len(chars) < sx:
                chars = chars + [" "] * (sx - len(chars))
            elif len(chars) > sx:
                chars = chars[:sx]
            text = "".join(chars)
            if len(text) == sx and "" not in chars:  # one character per cell
                parts.append(text)
                pos.extend(range(base, base + sx))
            else:
                for x, c in enumerate(chars):
                    if c:
                        parts.append(c)
                        pos.extend([base + x] * len(c))
            if y >= last or not b.wrapped(y):
                break
            y += 1
            base += sx
        pos.append(base + sx)
        return "".join(parts), pos

    def _plain(self, py: int, first: int, last: int, needle: str, cis: bool,
               right: bool) -> int | None:
        """window_copy_search_lr / _rl: the first (or last) cell in ``first``..``last`` of line
        ``py`` where ``needle`` starts, reading on through wrapped lines. ``cis`` compares
        single-byte characters without case (the needle is then lower case already)."""
        text, pos = self._stringify(py)
        if cis:
            text = text.lower() if text.isascii() else text.translate(_ASCII_LOWER)
        sx = self.back.sx
        last = min(last, sx)
        if first >= last:
            return None
        start = bisect_left(pos, first)
        stop = bisect_left(pos, last)  # the first character at or after ``last``
        if right:
            i = text.rfind(needle, start, stop + len(needle) - 1)
            while i >= 0 and i > 0 and pos[i - 1] == pos[i]:
                i = text.rfind(needle, start, i + len(needle) - 1)
        else:
            i = text.find(needle, start)
            while i >= 0 and i > 0 and pos[i - 1] == pos[i]:
                i = text.find(needle, i + 1)
        if i < 0 or i >= stop:
            return None
        return pos[i]

    def _regex_lr(self, py: int, first: int, last: int, reg: re.Pattern) -> tuple[int, int] | None:
        if first >= last:
            return None
        text, pos = self._stringify(py)
        start = next((i for i, p in enumerate(pos) if p >= first), len(text))
        m = reg.search(text, start)
        if m is None or m.start() == m.end():
            return None
        fx = pos[m.start()]
        if fx < self.back.sx and fx < last:
            return fx, pos[m.end()] - fx
        return None

    def _regex_rl(self, py: int, first: int, last: int, reg: re.Pattern) -> tuple[int, int] | None:
        text, pos = self._stringify(py)
        sx = self.back.sx
        start = next((i for i, p in enumerate(pos) if p >= first), len(text))
        saved: tuple[int, int] | None = None
        i = start
        while True:
            m = reg.search(text, i)
            if m is None or m.start() == m.end():
                break
            fx = pos[m.start()]
            if fx >= sx or fx >= last:
                break
            ex = pos[m.end()]
            if ex >= sx or ex >= last:
                return fx, ex - fx
            saved = (fx, ex - fx)
            i = m.end()
        return saved

    def _compile(self, text: str, cis: bool) -> re.Pattern | None:
        try:
            return re.compile(_posix_regex(text), re.IGNORECASE if cis else 0)
        except re.error:
            return None

    def _search_jump(self, needle: list[str], fx: int, fy: int, endline: int, cis: bool,
                     wrap: bool, direction: bool, regex: bool) -> bool:
        reg = None
        if regex:
            reg = self._compile(self.searchstr or "", cis)
            if reg is None:
                return False
        b = self.back
        found = None
        i = fy
        if direction:
            i = fy
            while i <= endline:
                if reg is not None:
                    got = self._regex_lr(i, fx, b.sx, reg)
                    found = got[0] if got else None
                else:
                    found = self._plain(i, fx, b.sx, "".join(needle), cis, False)
                if found is not None:
                    break
                fx = 0
                i += 1
        else:
            i = fy + 1
            while endline < i:
                if reg is not None:
                    got = self._regex_rl(i - 1, 0, fx + 1, reg)
                    found = got[0] if got else None
                else:
                    found = self._plain(i - 1, 0, fx + 1, "".join(needle), cis, True)
                if found is not None:
                    i -= 1
                    break
                fx = b.sx - 1
                i -= 1
        if found is not None:
            self._scroll_to(found, i, True)
            return True
        if wrap:
            return self._search_jump(needle, 0 if direction else b.sx - 1,
                                     0 if direction else b.hsize + b.sy - 1, fy, cis, False,
                                     direction, regex)
        return False

    def _move_left(self, fx: int, fy: int, wrap: bool) -> tuple[int, int]:
        b = self.back
        if fx == 0:
            if fy == 0:
                if wrap:
                    return b.sx - 1, b.hsize + b.sy - 1
                return fx, fy
            return b.sx - 1, fy - 1
        return fx - 1, fy

    def _move_right(self, fx: int, fy: int, wrap: bool) -> tuple[int, int]:
        b = self.back
        if fx == b.sx - 1:
            if fy == b.hsize + b.sy - 1:
                if wrap:
                    return 0, 0
                return fx, fy
            return 0, fy + 1
        return fx + 1, fy

    def _move_after_mark(self, fx: int, fy: int, wrap: bool) -> tuple[int, int]:
        marks = self.searchmark
        b = self.back
        start = self._mark_at(fx, fy)
        if marks is not None and start is not None and marks[start] != 0:
            while True:
                at = self._mark_at(fx, fy)
                if at is None or marks[at] != marks[start]:
                    break
                if not wrap and fx == b.sx - 1 and fy == b.hsize + b.sy - 1:
                    break
                fx, fy = self._move_right(fx, fy, wrap)
        return fx, fy

    def _search(self, direction: bool, regex: bool) -> bool:
        text = self.searchstr or ""
        if regex and not (_REGEX_CHARS & set(text)):
            regex = False
        self.searchdirection = direction
        if self.timeout:
            return False
        wp = self.wp
        wp_search = getattr(wp, "search_string", None)
        if self.searchall or wp_search is None or getattr(wp, "search_regex", False) != regex:
            visible_only = False
            self.searchall = False
        else:
            visible_only = wp_search == text
        if not visible_only and self.searchmark is not None:
            self._clear_marks()
        wp.search_string = text
        wp.search_regex = regex
        fx, fy = self.cx, self._gy()
        needle = _cells_of(text)
        if not needle:
            return False  # a zero-length search string finds nothing
        wrapflag = bool(wp.window.options.get("wrap-search"))
        cis = text == text.lower()
        keys = self._keys()
        if direction:
            if keys == "vi":
                if self.searchmark is not None:
                    fx, fy = self._move_after_mark(fx, fy, wrapflag)
                else:
                    fx, fy = self._move_right(fx, fy, wrapflag)
            endline = self._last_line()
        else:
            fx, fy = self._move_left(fx, fy, wrapflag)
            endline = 0
        found = self._search_jump(needle, fx, fy, endline, cis, wrapflag, direction, regex)
        if found:
            self._search_marks(regex, visible_only, len(needle))
            fx, fy = self.cx, self._gy()
            marks = self.searchmark
            at = self._mark_at(fx, fy)
            if (direction and marks is not None and at is not None and at > 0
                    and marks[at] == marks[at - 1]):
                fx, fy = self._move_after_mark(fx, fy, wrapflag)
                self._search_jump(needle, fx, fy, endline, cis, wrapflag, direction, regex)
                fx, fy = self.cx, self._gy()
            marks = self.searchmark
            if direction:
                if keys == "emacs":
                    fx, fy = self._move_after_mark(fx, fy, wrapflag)
                    self.cx = fx
                    self.cy = fy - self.back.hsize + self.oy
            elif marks is not None:
                start = self._mark_at(fx, fy)
                if start is not None:
                    while True:
                        at = self._mark_at(fx, fy)
                        if at is None or marks[at] != marks[start]:
                            break
                        self.cx = fx
                        self.cy = fy - self.back.hsize + self.oy
                        if at == 0:
                            break
                        fx, fy = self._move_left(fx, fy, False)
        return found

    def _search_marks(self, regex: bool, visible_only: bool, width: int | None = None) -> bool:
        text = self.searchstr or ""
        needle = _cells_of(text)
        if width is None:
            width = len(needle)
        cis = text == text.lower()
        reg = None
        if regex:
            reg = self._compile(text, cis)
            if reg is None:
                return False
        b = self.back
        tstart = time.monotonic()
        if visible_only:
            start, end = self._visible_lines()
            stop = 0.0
        else:
            start, end = 0, b.hsize + b.sy
            stop = tstart + SEARCH_ALL_TIMEOUT
        nfound = 0  # tmux counts on through the visible-only second pass
        stopped = counted = False
        if reg is None and not visible_only:
            # Plain text: count every match at once, then mark only what is on the screen
            # (tmux walks every line within a time budget Python would overrun).
            nfound = self._count_plain(text, cis)
            counted = True
            start, end = self._visible_lines()
            stop = 0.0
        while True:
            marks = bytearray(b.sx * b.sy)
            gen = 1
            for py in range(start, end):
                px = 0
                while True:
                    if reg is not None:
                        got = self._regex_lr(py, px, b.sx, reg)
                        if got is None:
                            break
                        px, w = got
                    else:
                        f = self._plain(py, px, b.sx, text, cis, False)
                        if f is None:
                            break
                        px, w = f, width
                        if "\t" in text:  # a tab matched: mark the columns it covers
                            i = 0
                            while i < w and px + i < b.sx:
                                if self._cell(px + i, py) == "\t":
                                    w += self._tab_width(px + i, py) - 1
                                i += 1
                    if not counted:
                        nfound += 1
                    at = self._mark_at(px, py)
                    if at is not None:
                        if at + w > len(marks):
                            w = len(marks) - at
                        for i in range(at, at + w):
                            if marks[i] == 0:
                                marks[i] = gen
                        gen = 1 if gen == 255 else gen + 1
                    px += max(w, 1)
                t = time.monotonic()
                if t - tstart > SEARCH_TIMEOUT:
                    self.timeout = True
                    break
                if stop and t > stop:
                    stopped = True
                    break
            self.searchmark = marks
            self.searchgen = gen
            if self.timeout:
                self._clear_marks()
                return True
            if stopped and stop:
                start, end = self._visible_lines()
                stop = 0.0
                continue
            break
        if not visible_only:
            if stopped:
                self.searchcount = (1000 if nfound > 1000 else 100 if nfound > 100
                                    else 10 if nfound > 10 else -1)
                self.searchmore = True
            else:
                self.searchcount = nfound
                self.searchmore = False
        return True

    def _count_plain(self, text: str, cis: bool) -> int:
        """Matches of ``text`` in the whole grid, left to right without overlaps in each
        unwrapped line, as window_copy_search_marks counts them."""
        b = self.back
        parts: list[str] = []
        for y in range(b.hsize + b.sy):
            plain = b.plain(y)
            if plain is None:
                chars = b.chars(y)[: b.sx]
                plain = "".join(chars) + " " * (b.sx - len(chars))
            parts.append(plain)
            if not b.wrapped(y):
                parts.append("\n")
        big = "".join(parts)
        if cis:
            big = big.lower() if big.isascii() else big.translate(_ASCII_LOWER)
        return big.count(text)

    def _clear_marks(self) -> None:
        self.searchcount = -1
        self.searchmore = False
        self.searchmark = None

    def _visible_lines(self) -> tuple[int, int]:
        b = self.back
        start = b.hsize - self.oy
        while start > 0 and b.wrapped(start - 1):
            start -= 1
        return start, b.hsize - self.oy + b.sy

    def _goto_line(self, text: str) -> None:
        """window_copy_goto_line: with absolute line numbers the line counted from the top of
        the history (1 is the first), else the lines scrolled up from the bottom."""
        from ..commands.grammar import CommandError, strtonum

        try:
            n = strtonum(text, -1, 2147483647)
        except CommandError:
            return
        hsize = self.back.hsize
        if self._ln_absolute():
            line = 1 if n <= 0 else min(n, hsize + 1)
            self.oy = hsize - (line - 1)
        else:
            self.oy = hsize if n < 0 or n > hsize else n
        self._update_selection()


class ViewMode(CopyMode):
    """View mode (tmux's window_view_mode): copy mode over lines a command printed (run-shell
    output, a key binding's list-keys) rather than over a pane's screen."""

    name = "view-mode"

    def __init__(self, server: Any, wp: Any) -> None:
        from ..screen import Screen  # the python engine: unbounded history, read often

        self._lines = Screen(wp.sx, wp.sy, 2**31 - 1)
        self._written = False
        self._stale = False
        self.source = self._lines
        super().__init__(server, wp, source=self)
        self.line_numbers = False

    @property
    def screen(self) -> Any:  # what CopyMode.__init__ copies: the lines written so far
        return self._lines

    @property
    def back(self) -> Any:
        if self._stale:
            self._stale = False
            self._back = self._lines.snapshot()
        return self._back

    @back.setter
    def back(self, value: Any) -> None:
        self._back = value

    def resize(self, sx: int, sy: int) -> None:
        _ = self.back  # the lines as they were: where the cursor sat is found in them
        self._lines.resize(sx, sy, eat_empty=False)
        super().resize(sx, sy)  # takes the resized lines as its new back

    def add(self, text: str, parse: bool = False) -> None:
        """window_copy_add: one more line. ``parse`` runs it through the terminal parser (its
        colours stay, and a line wider than the view wraps onto the rows after it, as tmux
        parses it into its backing screen); otherwise only printable characters are written
        and a newline starts a new line."""
        lines = self._lines
        old = lines.history_size
        out = bytearray(b"\r\n" if self._written else b"")
        self._written = True
        if parse:
            scratch = _scratch(lines.cols, max(lines.rows, len(text) // max(lines.cols, 1) + 2))
            scratch.feed(text.encode("utf-8", "surrogateescape"))
            last = DEFAULT_STYLE
            for y in range(scratch.cursor_y + 1):
                if y and not scratch._rows[y - 1].wrapped:
                    out += b"\r\n"  # (a row the text moved to, not one it wrapped onto)
                for run, st in scratch.row_runs(y):
                    if st != last:
                        out += sgr_change(last, st).encode()
                        last = st
                    out += run.encode("utf-8", "surrogateescape")
            out += b"\x1b[0m"
            out += b"\r"
        else:
            clean = "".join(c if c >= " " and c != "\x7f" else ("\n\r" if c == "\n" else "")
                            for c in text)
            out += clean.encode("utf-8", "surrogateescape")
        lines.feed(bytes(out))
        self._rev += 1
        self.oy += lines.history_size - old
        self._stale = True
        redraw(self)


def view_mode(server: Any, wp: Any) -> ViewMode:
    """window_pane_set_mode(view) unless the pane already shows its view mode."""
    from . import set_mode, top

    mode = top(wp)
    if isinstance(mode, ViewMode):
        return mode
    set_mode(server, wp, ViewMode)
    return wp.modes[0]


def _scratch(cols: int, rows: int) -> Any:
    from ..screen import Screen

    return Screen(cols, rows, 0)


# -- the command table (window_copy_cmd_table) ----------------------------------------------------


def _repeat(fn: Any) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        for _ in range(cm.prefix):
            fn(cm)
        return NOTHING
    return run


def _c_append(cm: CopyMode, item: Any, argv: list[str], cancel: bool = False) -> int:
    if item.target.s is not None:
        cm._append_selection()
    cm._clear_selection()
    return CANCEL if cancel else REDRAW


def _c_begin_selection(cm: CopyMode, item: Any, argv: list[str]) -> int:
    m = getattr(item.state, "event", None)
    if m is not None and m.valid:  # from a mouse binding: select by dragging
        copy_start_drag(item.target_client or item.client, m)
        return NOTHING
    cm.lineflag = LINE_NONE
    cm.selflag = SEL_CHAR
    cm._start_selection()
    return REDRAW


def _c_stop_selection(cm: CopyMode, item: Any, argv: list[str]) -> int:
    cm.cursordrag = DRAG_NONE
    cm.lineflag = LINE_NONE
    cm.selflag = SEL_CHAR
    return NOTHING


def _c_line_to(y_of: Any) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        cm.cx = 0
        cm.cy = y_of(cm)
        cm._update_selection()
        return REDRAW
    return run


def _c_clear_selection(cm: CopyMode, item: Any, argv: list[str]) -> int:
    cm._clear_selection()
    return REDRAW


def _copy_args(item: Any, argv: list[str], pipe: bool) -> tuple[str | None, str | None]:
    prefix = command = None
    s = item.target.s
    if pipe:
        if len(argv) == 3:
            prefix = item.expand(argv[2])
        if s is not None and len(argv) > 1 and argv[1]:
            command = item.expand(argv[1])
    elif len(argv) == 2:
        prefix = item.expand(argv[1])
    return prefix, command


def _c_copy_eol(pipe: bool, cancel: bool, whole_line: bool) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        prefix, command = _copy_args(item, argv, pipe)
        saved = cm.cx, cm.cy, cm.oy
        if whole_line:
            cm.selflag = SEL_CHAR
            cm._start_of_line()
        cm._start_selection()
        for _ in range(cm.prefix - 1):
            cm._cursor_down(False)
        cm._end_of_line()
        if item.target.s is not None:
            if pipe:
                cm._copy_pipe(item, prefix, command)
            else:
                cm._copy_selection(prefix)
            if cancel:
                return CANCEL
        cm._clear_selection()
        cm.cx, cm.cy, cm.oy = saved
        return REDRAW
    return run


def _c_copy_selection(clear: bool, cancel: bool) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        prefix = item.expand(argv[1]) if len(argv) > 1 else None
        if item.target.s is not None:
            cm._copy_selection(prefix)
        if not clear:
            return NOTHING
        cm._clear_selection()
        return CANCEL if cancel else REDRAW
    return run


def _c_copy_pipe(clear: bool, cancel: bool) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        prefix = item.expand(argv[2]) if len(argv) > 2 else None
        command = None
        if item.target.s is not None and len(argv) > 1 and argv[1]:
            command = item.expand(argv[1])
        cm._copy_pipe(item, prefix, command)
        if not clear:
            return NOTHING
        cm._clear_selection()
        return CANCEL if cancel else REDRAW
    return run


def _c_pipe(clear: bool, cancel: bool) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        command = None
        if item.target.s is not None and len(argv) > 1 and argv[1]:
            command = item.expand(argv[1])
        cm._pipe_run(item, command)
        if not clear:
            return NOTHING
        cm._clear_selection()
        return CANCEL if cancel else REDRAW
    return run


def _c_cursor_down_and_cancel(cm: CopyMode, item: Any, argv: list[str]) -> int:
    cy = cm.cy
    for _ in range(cm.prefix):
        cm._cursor_down(False)
    return CANCEL if cy == cm.cy and cm.oy == 0 else NOTHING


def _c_cursor_right(cm: CopyMode, item: Any, argv: list[str]) -> int:
    for _ in range(cm.prefix):
        cm._cursor_right(cm.sel is not None and cm.rectflag)
    return NOTHING


def _c_page_down(half: bool, force_exit: bool) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        for _ in range(cm.prefix):
            if cm._pagedown(half, force_exit or cm.scroll_exit):
                return CANCEL
        return NOTHING
    return run


def _c_page_up(half: bool) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        for _ in range(cm.prefix):
            cm.pageup(half)
        return NOTHING
    return run


def _c_toggle_position(cm: CopyMode, item: Any, argv: list[str]) -> int:
    cm.hide_position = not cm.hide_position
    return REDRAW


def _c_history_bottom(cm: CopyMode, item: Any, argv: list[str]) -> int:
    b = cm.back
    if cm.lineflag == LINE_RIGHT_LEFT and cm._gy() == cm.endsely:
        cm._other_end()
    cm.cy = cm.sy - 1
    cm.cx = cm._cursor_limit(b.hsize + cm.cy, False)
    cm.oy = 0
    if cm.searchmark is not None and not cm.timeout:
        cm._search_marks(cm.searchregex, True)
    cm._update_selection()
    return REDRAW


def _c_history_top(cm: CopyMode, item: Any, argv: list[str]) -> int:
    if cm.lineflag == LINE_LEFT_RIGHT and cm._gy() == cm.sely:
        cm._other_end()
    cm.cy = cm.cx = 0
    cm.oy = cm.back.hsize
    if cm.searchmark is not None and not cm.timeout:
        cm._search_marks(cm.searchregex, True)
    cm._update_selection()
    return REDRAW


_JUMPS = {
    JUMP_FORWARD: (CopyMode._cursor_jump, CopyMode._cursor_jump_back),
    JUMP_BACKWARD: (CopyMode._cursor_jump_back, CopyMode._cursor_jump),
    JUMP_TO_FORWARD: (CopyMode._cursor_jump_to, CopyMode._cursor_jump_to_back),
    JUMP_TO_BACKWARD: (CopyMode._cursor_jump_to_back, CopyMode._cursor_jump_to),
}


def _c_jump_again(reverse: bool) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        fns = _JUMPS.get(cm.jumptype)
        if fns is not None:
            for _ in range(cm.prefix):
                fns[1 if reverse else 0](cm)
        return NOTHING
    return run


def _c_jump(kind: int) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        if argv[1]:
            cm.jumptype = kind
            cm.jumpchar = argv[1][0]
            for _ in range(cm.prefix):
                _JUMPS[kind][0](cm)
        return NOTHING
    return run


def _c_jump_to_mark(cm: CopyMode, item: Any, argv: list[str]) -> int:
    tmx, tmy = cm.cx, cm._gy()
    cm.cx = cm.mx
    b = cm.back
    if cm.my < b.hsize:
        cm.cy = 0
        cm.oy = b.hsize - cm.my
    else:
        cm.cy = cm.my - b.hsize
        cm.oy = 0
    cm.mx, cm.my = tmx, tmy
    cm.showmark = True
    cm._update_selection()
    return NOTHING


def _c_set_mark(cm: CopyMode, item: Any, argv: list[str]) -> int:
    cm.mx, cm.my = cm.cx, cm._gy()
    cm.showmark = True
    return REDRAW


def _c_other_end(cm: CopyMode, item: Any, argv: list[str]) -> int:
    cm.selflag = SEL_CHAR
    if cm.prefix % 2:
        cm._other_end()
    return NOTHING


def _c_rectangle(mode: int) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        cm.lineflag = LINE_NONE
        cm._rectangle_set(not cm.rectflag if mode < 0 else bool(mode))
        return NOTHING
    return run


def _c_refresh_from_pane(cm: CopyMode, item: Any, argv: list[str]) -> int:
    if isinstance(cm, ViewMode):
        return NOTHING
    cm.oy = min(cm.oy, cm.back.hsize)
    from_top = cm.back.hsize - cm.oy  # the line at the top stays at the top
    cm.back = cm.source.snapshot()
    if from_top <= cm.back.hsize:
        cm.oy = cm.back.hsize - from_top
    else:
        cm.cy, cm.oy = 0, cm.back.hsize
    cm._size_changed()
    return REDRAW


def _c_scroll_down(force: bool) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        for _ in range(cm.prefix):
            cm._cursor_down(True)
        if (force or cm.scroll_exit) and cm.oy == 0:
            return CANCEL
        return NOTHING
    return run


def _c_scroll_up(cm: CopyMode, item: Any, argv: list[str]) -> int:
    for _ in range(cm.prefix):
        cm._cursor_up(True)
    return NOTHING


def _c_search_again(reverse: bool) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        up = cm.searchtype == SEARCH_UP
        if cm.searchtype in (SEARCH_UP, SEARCH_DOWN):
            for _ in range(cm.prefix):
                cm._search(up == reverse, cm.searchregex)
        return NOTHING
    return run


def _expand_search(cm: CopyMode, item: Any, argv: list[str]) -> bool:
    ss = argv[1] if len(argv) > 1 else None
    if not ss:
        return False
    if item.args.has("F"):
        expanded = item.expand(ss)
        if not expanded:
            return False
        cm.searchstr = expanded
    else:
        cm.searchstr = ss
    return True


def _c_search(down: bool, regex: bool) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        if not _expand_search(cm, item, argv):
            return NOTHING
        if cm.searchstr is not None:
            cm.searchtype = SEARCH_DOWN if down else SEARCH_UP
            cm.searchregex = regex
            cm.timeout = False
            for _ in range(cm.prefix):
                cm._search(down, regex)
        return NOTHING
    return run


def _c_search_incremental(down_default: bool) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        arg = argv[1]
        ss = cm.searchstr
        action = NOTHING
        cm.timeout = False
        prefix, arg = (arg[0], arg[1:]) if arg else ("", "")
        if cm.searchx == -1 or cm.searchy == -1:
            cm.searchx, cm.searchy, cm.searcho = cm.cx, cm.cy, cm.oy
        elif ss is not None and arg != ss:
            cm.cx, cm.cy, cm.oy = cm.searchx, cm.searchy, cm.searcho
            cm.cx = cm._cursor_limit(cm._gy(), False)
            action = REDRAW
        if not arg:
            cm._clear_marks()
            return REDRAW
        if prefix == "=":
            down = down_default
        elif prefix in "+-" and prefix:
            down = prefix == "+"
        else:
            return action
        cm.searchtype = SEARCH_DOWN if down else SEARCH_UP
        cm.searchregex = False
        cm.searchstr = arg
        if not cm._search(down, False):
            cm._clear_marks()
            return REDRAW
        return action
    return run


def _c_select_line(cm: CopyMode, item: Any, argv: list[str]) -> int:
    cm.lineflag = LINE_LEFT_RIGHT
    cm.rectflag = False
    cm.selflag = SEL_LINE
    cm.dx, cm.dy = cm.cx, cm._gy()
    cm._start_of_line()
    cm.selrx, cm.selry = cm.cx, cm._gy()
    cm.endselry = cm.selry
    cm._start_selection()
    cm._end_of_line()
    cm.endselry = cm._gy()
    cm.endselrx = cm._length(cm.endselry)
    for _ in range(cm.prefix - 1):
        cm._cursor_down(False)
        cm._end_of_line()
    return REDRAW


def _c_select_word(cm: CopyMode, item: Any, argv: list[str]) -> int:
    cm.lineflag = LINE_LEFT_RIGHT
    cm.rectflag = False
    cm.selflag = SEL_WORD
    cm.dx, cm.dy = cm.cx, cm._gy()
    cm.separators = str(_session_opt(cm, item, "word-separators"))
    cm._cursor_previous_word(cm.separators, False)
    px, py = cm.cx, cm._gy()
    cm.selrx, cm.selry = px, py
    cm._start_selection()
    nextx, nexty = px + 1, py
    if cm.back.wrapped(nexty) and nextx > cm.back.sx - 1:
        nextx, nexty = 0, nexty + 1
    if px >= cm._length(py) or not cm._in_set(nextx, nexty, WHITESPACE):
        cm._cursor_next_word_end(cm.separators, True)
    else:
        cm._update_cursor(px, cm.cy)
        cm._update_selection(True)
    cm.endselrx, cm.endselry = cm.cx, cm._gy()
    if cm.dy > cm.endselry:
        cm.dy, cm.dx = cm.endselry, cm.endselrx
    elif cm.dx > cm.endselrx:
        cm.dx = cm.endselrx
    return REDRAW


def _session_opt(cm: CopyMode, item: Any, name: str) -> Any:
    s = item.target.s
    return s.options.get(name) if s is not None else cm._session_option(name)


def _c_words(kind: str) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        seps = "" if "space" in kind else str(_session_opt(cm, item, "word-separators"))
        for _ in range(cm.prefix):
            if kind.startswith("next") and kind.endswith("end"):
                cm._cursor_next_word_end(seps, False)
            elif kind.startswith("next"):
                cm._cursor_next_word(seps)
            else:
                cm._cursor_previous_word(seps, True)
        return NOTHING
    return run


def _c_paragraph(up: bool) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        for _ in range(cm.prefix):
            oy = cm._gy()
            if up:
                while oy > 0 and cm._length(oy) == 0:
                    oy -= 1
                while oy > 0 and cm._length(oy) > 0:
                    oy -= 1
                cm._scroll_to(0, oy, False)
            else:
                maxy = cm.back.hsize + cm.sy - 1
                while oy < maxy and cm._length(oy) == 0:
                    oy += 1
                while oy < maxy and cm._length(oy) > 0:
                    oy += 1
                cm._scroll_to(cm._length(oy), oy, False)
        return NOTHING
    return run


_OPEN, _CLOSE = "{[(", "}])"


def _c_previous_bracket(cm: CopyMode, item: Any, argv: list[str]) -> int:
    for _ in range(cm.prefix):
        px, py = cm.cx, cm._gy()
        xx = cm._length(py)
        if xx == 0:
            break
        tried = False
        while True:  # on a closing bracket, or (emacs) the one before the cursor
            found = cm._cell(px, py)
            if len(found) == 1 and found in _CLOSE:
                break
            if cm._keys() == "emacs" and not tried and px > 0:
                px -= 1
                tried = True
                continue
            found = ""
            break
        if not found:
            if cm._keys() == "emacs":
                cm._cursor_previous_word(_CLOSE, True)
            continue
        start = _OPEN[_CLOSE.index(found)]
        n, failed = 1, False
        while n != 0:
            if px == 0:
                if py == 0:
                    failed = True
                    break
                while True:
                    py -= 1
                    xx = cm._length(py)
                    if xx != 0 or py == 0:
                        break
                if xx == 0 and py == 0:
                    failed = True
                    break
                px = xx - 1
            else:
                px -= 1
            c = cm._cell(px, py)
            if c == found:
                n += 1
            elif c == start:
                n -= 1
        if not failed:
            cm._scroll_to(px, py, False)
    return NOTHING


def _c_next_bracket(cm: CopyMode, item: Any, argv: list[str]) -> int:
    b = cm.back
    for _ in range(cm.prefix):
        px, py = cm.cx, cm._gy()
        xx = cm._length(py)
        yy = b.hsize + b.sy - 1
        if xx == 0:
            break
        tried = False
        done = False
        while True:
            c = cm._cell(px, py)
            cp = c if len(c) == 1 and (c in _CLOSE or c in _OPEN) else ""
            if cp and cp in _CLOSE and cm._keys() == "vi":
                # vi: a closing bracket first means the previous one; stay if there is none.
                sx, sy = cm.cx, cm._gy()
                cm._scroll_to(px, py, False)
                _c_previous_bracket(cm, item, argv)
                c2 = cm._cell(cm.cx, cm._gy())
                if len(c2) == 1 and c2 in _CLOSE:
                    cm._scroll_to(sx, sy, False)
                done = True
                break
            if cp and cp in _OPEN:
                break
            if cm._keys() == "emacs":
                if not tried and px <= xx:
                    px += 1
                    tried = True
                    continue
                cm._cursor_next_word_end(_OPEN, False)
                done = True
                break
            if px > xx:  # vi: keep looking to the end of the (wrapped) line
                if py == yy or not b.wrapped(py) or b.cellsize(py) > b.sx:
                    done = True
                    break
                px, py = 0, py + 1
                xx = cm._length(py)
            else:
                px += 1
        if done:
            continue
        found = cm._cell(px, py)
        end = _CLOSE[_OPEN.index(found)]
        n, failed = 1, False
        while n != 0:
            if px > xx:
                if py == yy:
                    failed = True
                    break
                px, py = 0, py + 1
                xx = cm._length(py)
            else:
                px += 1
            c = cm._cell(px, py)
            if c == found:
                n += 1
            elif c == end:
                n -= 1
        if not failed:
            cm._scroll_to(px, py, False)
    return NOTHING


def _c_goto_line(cm: CopyMode, item: Any, argv: list[str]) -> int:
    if argv[1]:
        cm._goto_line(argv[1])
    return NOTHING


def _c_cancel(cm: CopyMode, item: Any, argv: list[str]) -> int:
    return CANCEL


def _simple(fn: Any) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        fn(cm)
        return NOTHING
    return run


def _c_centre(vertical: bool) -> Any:
    """cursor-centre-vertical / -horizontal: the cursor to the middle row or column."""
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        if vertical:
            cm._update_cursor(cm.cx, cm.wp.sy // 2)
        else:
            cm._update_cursor(cm.wp.sx // 2, cm.cy)
        cm._update_selection(True)
        return REDRAW
    return run


def _c_scroll_to(row: Any) -> Any:
    """scroll-top / -middle / -bottom: scroll so the cursor's line is at that row."""
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        to = row(cm)
        up = cm.cy - to
        delta = abs(up)
        below = cm.back.hsize - cm.oy
        if up > 0 and cm.oy >= delta:
            cm._scroll_up(delta)
            cm.cy -= delta
        elif up < 0 and below >= delta:
            cm._scroll_down(delta)
            cm.cy += delta
        cm._update_selection()
        return REDRAW
    return run


def _c_recentre_top_bottom(cm: CopyMode, item: Any, argv: list[str]) -> int:
    """recentre-top-bottom (emacs's C-l): the cursor's line to the middle, then the top,
    then the bottom, as long as the cursor stays on the same line."""
    cy = cm.cy
    sy = cm.sy - 1
    sm = sy // 2
    row = cm.back.hsize + cy - cm.oy
    if cm.recentre_line != row:
        cm.recentre_state = RECENTRE_MIDDLE
        cm.recentre_line = row
    target = cm.recentre_state
    cm.recentre_state = {RECENTRE_MIDDLE: RECENTRE_TOP, RECENTRE_TOP: RECENTRE_BOTTOM,
                         RECENTRE_BOTTOM: RECENTRE_MIDDLE}[target]
    oy = cm.oy
    if target == RECENTRE_MIDDLE:
        if cy < sm:
            cm._scroll_down(sm - cy)
        elif cy > sm:
            cm._scroll_up(cy - sm)
        if cm.oy != oy:
            cm.cy = cy + (cm.oy - oy)
    elif target == RECENTRE_TOP:
        cm._scroll_up(cy)
        cm.cy = cy - (oy - cm.oy)
    else:
        cm._scroll_down(sy - cy)
        cm.cy = cy + (cm.oy - oy)
    cm._update_selection()
    return REDRAW


def _c_scroll_exit(mode: int) -> Any:
    """scroll-exit-on / -off / -toggle: whether scrolling to the bottom leaves the mode."""
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        cm.scroll_exit = (not cm.scroll_exit) if mode < 0 else bool(mode)
        return NOTHING
    return run


def _c_scroll_to_mouse(cm: CopyMode, item: Any, argv: list[str]) -> int:
    """scroll-to-mouse (-e: leave at the bottom): the view follows the mouse dragging the
    pane scrollbar's slider (the bindings of MouseDrag1ScrollbarSlider)."""
    c = item.target_client or item.client
    m = getattr(item.state, "event", None)
    drag = slider_drag(c, m)
    if drag is not None and cm.scroll_slider(*drag, cm.flag("e")):
        if cm.wp.modes and cm.wp.modes[0] is cm:
            reset_mode(cm.server, cm.wp)
    return NOTHING


def slider_drag(client: Any, m: Any) -> tuple[int, int, int] | None:
    """Where a drag on a scrollbar slider is: (the row of the slider the mouse holds, the
    mouse's terminal row, the window's vertical offset in the terminal), or None when the
    client has no slider held (tmux's mouse_slider_mpos)."""
    a = getattr(client, "attached", None)
    mpos = getattr(getattr(a, "mouse", None), "slider_mpos", None)
    if mpos is None or m is None or not getattr(m, "valid", False):
        return None
    r = getattr(a, "renderer", None)
    oy = r.offset[1] if r is not None and getattr(r, "offset", None) else 0
    return mpos, m.y, oy


def _c_selection_mode(cm: CopyMode, item: Any, argv: list[str]) -> int:
    arg = argv[1].lower() if len(argv) > 1 else None
    if arg is None or arg in ("char", "c"):
        cm.selflag = SEL_CHAR
    elif arg in ("word", "w"):
        cm.separators = str(_session_opt(cm, item, "word-separators"))
        cm.selflag = SEL_WORD
    elif arg in ("line", "l"):
        cm.selflag = SEL_LINE
    return NOTHING


def _c_prompt(down: bool) -> Any:
    """next-prompt / previous-prompt (-o: the start of a command's output): the next line
    a shell marked with OSC 133."""
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        b = cm.back
        flags = getattr(b, "line_flags", None)
        if flags is None:
            return NOTHING
        want = "output" if cm.flag("o") else "prompt"
        line = b.hsize - cm.oy + cm.cy
        add, end = (1, b.hsize + b.sy - 1) if down else (-1, 0)
        while True:
            if line == end:
                return NOTHING
            line += add
            if want in flags(line):
                break
        cm.cx = 0
        if line > b.hsize:
            cm.cy, cm.oy = line - b.hsize, 0
        else:
            cm.cy, cm.oy = 0, b.hsize - line
        cm._update_selection(True)
        return REDRAW
    return run


A, N, E = CLEAR_ALWAYS, CLEAR_NEVER, CLEAR_EMACS_ONLY
R = True  # a read-only client may run it (WINDOW_COPY_CMD_FLAG_READONLY)
W = False
# name: (flags template, fewest and most arguments, read-only ok, clear, function)
_COMMANDS: dict[str, tuple[str, int, int, bool, int, Any]] = {
    "append-selection": ("", 0, 0, W, A, _c_append),
    "append-selection-and-cancel": ("", 0, 0, W, A,
                                    lambda cm, i, a: _c_append(cm, i, a, True)),
    "back-to-indentation": ("", 0, 0, R, A, _simple(CopyMode._back_to_indentation)),
    "begin-selection": ("", 0, 0, W, A, _c_begin_selection),
    "bottom-line": ("", 0, 0, R, E, _c_line_to(lambda cm: cm.sy - 1)),
    "cancel": ("", 0, 0, R, A, _c_cancel),
    "clear-selection": ("", 0, 0, W, A, _c_clear_selection),
    "copy-end-of-line": ("CP", 0, 1, W, A, _c_copy_eol(False, False, False)),
    "copy-end-of-line-and-cancel": ("CP", 0, 1, W, A, _c_copy_eol(False, True, False)),
    "copy-pipe-end-of-line": ("CP", 0, 2, W, A, _c_copy_eol(True, False, False)),
    "copy-pipe-end-of-line-and-cancel": ("CP", 0, 2, W, A, _c_copy_eol(True, True, False)),
    "copy-line": ("CP", 0, 1, W, A, _c_copy_eol(False, False, True)),
    "copy-line-and-cancel": ("CP", 0, 1, W, A, _c_copy_eol(False, True, True)),
    "copy-pipe-line": ("CP", 0, 2, W, A, _c_copy_eol(True, False, True)),
    "copy-pipe-line-and-cancel": ("CP", 0, 2, W, A, _c_copy_eol(True, True, True)),
    "copy-pipe-no-clear": ("CP", 0, 2, W, N, _c_copy_pipe(False, False)),
    "copy-pipe": ("CP", 0, 2, W, A, _c_copy_pipe(True, False)),
    "copy-pipe-and-cancel": ("CP", 0, 2, W, A, _c_copy_pipe(True, True)),
    "copy-selection-no-clear": ("CP", 0, 1, W, N, _c_copy_selection(False, False)),
    "copy-selection": ("CP", 0, 1, W, A, _c_copy_selection(True, False)),
    "copy-selection-and-cancel": ("CP", 0, 1, W, A, _c_copy_selection(True, True)),
    "cursor-down": ("", 0, 0, R, E, _repeat(lambda cm: cm._cursor_down(False))),
    "cursor-down-and-cancel": ("", 0, 0, R, A, _c_cursor_down_and_cancel),
    "cursor-left": ("", 0, 0, R, E, _repeat(CopyMode._cursor_left)),
    "cursor-right": ("", 0, 0, R, E, _c_cursor_right),
    "cursor-up": ("", 0, 0, R, E, _repeat(lambda cm: cm._cursor_up(False))),
    "cursor-centre-vertical": ("", 0, 0, R, E, _c_centre(True)),
    "cursor-centre-horizontal": ("", 0, 0, R, E, _c_centre(False)),
    "end-of-line": ("", 0, 0, R, E, _simple(CopyMode._end_of_line)),
    "goto-line": ("", 1, 1, R, E, _c_goto_line),
    "halfpage-down": ("", 0, 0, R, E, _c_page_down(True, False)),
    "halfpage-down-and-cancel": ("", 0, 0, R, A, _c_page_down(True, True)),
    "halfpage-up": ("", 0, 0, R, E, _c_page_up(True)),
    "history-bottom": ("", 0, 0, R, E, _c_history_bottom),
    "history-top": ("", 0, 0, R, E, _c_history_top),
    "jump-again": ("", 0, 0, W, E, _c_jump_again(False)),
    "jump-backward": ("", 1, 1, W, E, _c_jump(JUMP_BACKWARD)),
    "jump-forward": ("", 1, 1, W, E, _c_jump(JUMP_FORWARD)),
    "jump-reverse": ("", 0, 0, W, E, _c_jump_again(True)),
    "jump-to-backward": ("", 1, 1, W, E, _c_jump(JUMP_TO_BACKWARD)),
    "jump-to-forward": ("", 1, 1, W, E, _c_jump(JUMP_TO_FORWARD)),
    "jump-to-mark": ("", 0, 0, R, A, _c_jump_to_mark),
    "next-prompt": ("o", 0, 0, R, A, _c_prompt(True)),
    "previous-prompt": ("o", 0, 0, R, A, _c_prompt(False)),
    "middle-line": ("", 0, 0, R, E, _c_line_to(lambda cm: (cm.sy - 1) // 2)),
    "next-matching-bracket": ("", 0, 0, R, A, _c_next_bracket),
    "next-paragraph": ("", 0, 0, R, E, _c_paragraph(False)),
    "next-space": ("", 0, 0, R, E, _c_words("next-space")),
    "next-space-end": ("", 0, 0, R, E, _c_words("next-space-end")),
    "next-word": ("", 0, 0, R, E, _c_words("next-word")),
    "next-word-end": ("", 0, 0, R, E, _c_words("next-word-end")),
    "other-end": ("", 0, 0, W, E, _c_other_end),
    "page-down": ("", 0, 0, R, E, _c_page_down(False, False)),
    "page-down-and-cancel": ("", 0, 0, R, A, _c_page_down(False, True)),
    "page-up": ("", 0, 0, R, E, _c_page_up(False)),
    "pipe-no-clear": ("", 0, 1, W, N, _c_pipe(False, False)),
    "pipe": ("", 0, 1, W, A, _c_pipe(True, False)),
    "pipe-and-cancel": ("", 0, 1, W, A, _c_pipe(True, True)),
    "previous-matching-bracket": ("", 0, 0, R, A, _c_previous_bracket),
    "previous-paragraph": ("", 0, 0, R, E, _c_paragraph(True)),
    "previous-space": ("", 0, 0, R, E, _c_words("previous-space")),
    "previous-word": ("", 0, 0, R, E, _c_words("previous-word")),
    "recentre-top-bottom": ("", 0, 0, R, A, _c_recentre_top_bottom),
    "rectangle-on": ("", 0, 0, W, A, _c_rectangle(1)),
    "rectangle-off": ("", 0, 0, W, A, _c_rectangle(0)),
    "rectangle-toggle": ("", 0, 0, W, A, _c_rectangle(-1)),
    "refresh-from-pane": ("", 0, 0, R, A, _c_refresh_from_pane),
    "scroll-bottom": ("", 0, 0, R, A, _c_scroll_to(lambda cm: cm.sy - 1)),
    "scroll-down": ("", 0, 0, R, E, _c_scroll_down(False)),
    "scroll-down-and-cancel": ("", 0, 0, R, A, _c_scroll_down(True)),
    "scroll-exit-on": ("", 0, 0, W, A, _c_scroll_exit(1)),
    "scroll-exit-off": ("", 0, 0, W, A, _c_scroll_exit(0)),
    "scroll-exit-toggle": ("", 0, 0, W, A, _c_scroll_exit(-1)),
    "scroll-middle": ("", 0, 0, R, A, _c_scroll_to(lambda cm: (cm.sy - 1) // 2)),
    "scroll-to-mouse": ("e", 0, 0, R, E, _c_scroll_to_mouse),
    "scroll-top": ("", 0, 0, R, A, _c_scroll_to(lambda cm: 0)),
    "scroll-up": ("", 0, 0, R, E, _c_scroll_up),
    "search-again": ("", 0, 0, W, A, _c_search_again(False)),
    "search-backward": ("", 0, 1, W, A, _c_search(False, True)),
    "search-backward-text": ("", 0, 1, W, A, _c_search(False, False)),
    "search-backward-incremental": ("", 1, 1, W, A, _c_search_incremental(False)),
    "search-forward": ("", 0, 1, W, A, _c_search(True, True)),
    "search-forward-text": ("", 0, 1, W, A, _c_search(True, False)),
    "search-forward-incremental": ("", 1, 1, W, A, _c_search_incremental(True)),
    "search-reverse": ("", 0, 0, W, A, _c_search_again(True)),
    "select-line": ("", 0, 0, W, A, _c_select_line),
    "select-word": ("", 0, 0, W, A, _c_select_word),
    "selection-mode": ("", 0, 1, W, A, _c_selection_mode),
    "set-mark": ("", 0, 0, R, A, _c_set_mark),
    "start-of-line": ("", 0, 0, R, E, _simple(CopyMode._start_of_line)),
    "stop-selection": ("", 0, 0, W, A, _c_stop_selection),
    "toggle-position": ("", 0, 0, R, N, _c_toggle_position),
    "top-line": ("", 0, 0, R, E, _c_line_to(lambda cm: 0)),
}


def _current_line(st: Style, clgc: Style) -> Style:
    """window_copy_update_style for the cursor's line: its colours where it has some, its
    attributes added."""
    attr, fg, bg, us = st
    return (attr | clgc[0], clgc[1] if clgc[1] != 8 else fg, clgc[2] if clgc[2] != 8 else bg, us)


def _blank_tabs(cells: list[tuple[str, Style]]) -> None:
    """A tab cell and the padding cells after it are drawn as blanks."""
    tab = False
    for x, (ch, st) in enumerate(cells):
        if ch == "\t":
            tab = True
        elif ch != "":
            tab = False
            continue
        elif not tab:
            continue
        cells[x] = (" ", st)


def _select_cell(sel: Style, cell: Style) -> Style:
    """screen_select_cell: the selection's colours where it has them, else the cell's; its
    attributes added to the cell's (only the charset one with noattr)."""
    attr = sel[0]
    if attr & NOATTR:
        attr = (attr & ~NOATTR) | (cell[0] & CHARSET)
    else:
        attr |= cell[0]
    return (attr, cell[1] if sel[1] == 8 else sel[1], cell[2] if sel[2] == 8 else sel[2],
            cell[3])


_SELFLAGS = {SEL_CHAR: "char", SEL_WORD: "word", SEL_LINE: "line"}

# -- beyond 3.7b: refresh-now/-on/-off/-toggle and line-numbers-on/-off/-toggle -----------------
# (tmux's development tree; no default key binds them, so list-keys stays 3.7b's)

_REFRESH_INTERVAL = 0.05  # WINDOW_COPY_REFRESH_INTERVAL


def _refresh_allowed(cm: CopyMode) -> bool:
    """window_copy_refresh_allowed: a pane's own copy mode only (not view mode, not -s)."""
    return not isinstance(cm, ViewMode) and cm.source_pane is cm.wp


def _do_refresh(cm: CopyMode, follow: bool) -> None:
    """window_copy_do_refresh: a new copy of the pane, the top line kept, or the bottom
    followed when the cursor was on the last line."""
    cm.oy = min(cm.oy, cm.back.hsize)
    from_top = cm.back.hsize - cm.oy
    cm.back = cm.source.snapshot()
    cm.seen_revision = getattr(cm.source_pane, "output_revision", 0)
    if follow:
        cm.cy = cm.sy - 1
        cm.oy = 0
    elif from_top <= cm.back.hsize:
        cm.oy = cm.back.hsize - from_top
    else:
        cm.cy, cm.oy = 0, cm.back.hsize
    cm._size_changed()


def _c_refresh_now(cm: CopyMode, item: Any, argv: list[str]) -> int:
    if not _refresh_allowed(cm):
        return NOTHING
    _do_refresh(cm, cm.oy == 0 and cm.cy == cm.sy - 1)
    return REDRAW


def _refresh_start(cm: CopyMode) -> None:
    if not _refresh_allowed(cm) or cm.refresh_active:
        return
    cm.refresh_active = True
    nursery = getattr(cm.server, "nursery", None)
    if nursery is not None:
        nursery.start_soon(_refresh_timer, cm)


async def _refresh_timer(cm: CopyMode) -> None:
    """window_copy_refresh_timer: new output is taken in unless a selection or a drag is in
    progress; the view follows it only with the cursor at the bottom."""
    import trio

    while cm.refresh_active and cm.wp.modes and cm.wp.modes[0] is cm:
        await trio.sleep(_REFRESH_INTERVAL)
        if not cm.refresh_active or not cm.wp.modes or cm.wp.modes[0] is not cm:
            break
        if getattr(cm.source_pane, "output_revision", 0) == cm.seen_revision:
            continue
        if cm.sel is not None or cm.cursordrag != DRAG_NONE:
            continue
        _do_refresh(cm, cm.oy == 0 and cm.cy == cm.sy - 1)
        cm._rev += 1
        redraw(cm)
    cm.refresh_active = False


def _c_refresh(state: int) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        if state == 1 or (state == -1 and not cm.refresh_active):
            _refresh_start(cm)
        else:
            cm.refresh_active = False
        return NOTHING
    return run


def _set_line_numbers1(cm: CopyMode, enabled: bool, force: bool) -> None:
    """window_copy_set_line_numbers1: on with the option off shows the default gutter."""
    active = cm._ln_mode() != LN_OFF
    if not enabled:
        want: int | bool = 0
    elif force and option(cm.wp.window.options, "copy-mode-line-numbers") == "off":
        want = 2
    else:
        want = 1
    if cm.line_numbers == want and active == enabled:
        return
    cm.line_numbers = want
    cm._rev += 1
    redraw(cm)


def _c_line_numbers(state: int) -> Any:
    def run(cm: CopyMode, item: Any, argv: list[str]) -> int:
        if state == -1:
            _set_line_numbers1(cm, cm._ln_mode() == LN_OFF, True)
        else:
            _set_line_numbers1(cm, bool(state), bool(state))
        return NOTHING
    return run


_COMMANDS.update({
    "line-numbers-on": ("", 0, 0, R, N, _c_line_numbers(1)),
    "line-numbers-off": ("", 0, 0, R, N, _c_line_numbers(0)),
    "line-numbers-toggle": ("", 0, 0, R, N, _c_line_numbers(-1)),
    "refresh-now": ("", 0, 0, R, N, _c_refresh_now),
    "refresh-on": ("", 0, 0, R, N, _c_refresh(1)),
    "refresh-off": ("", 0, 0, R, N, _c_refresh(0)),
    "refresh-toggle": ("", 0, 0, R, N, _c_refresh(-1)),
})

# window_copy_formats: each variable copy mode adds, from the mode.
_FORMATS: dict[str, Any] = {
    "top_line_time": lambda cm: str(cm.line_time(cm.back.hsize - cm.oy)),
    "scroll_position": lambda cm: str(cm.oy),
    "copy_position": lambda cm: str(cm._format_position()[0]),
    "copy_position_limit": lambda cm: str(cm._format_position()[1]),
    "rectangle_toggle": lambda cm: str(int(cm.rectflag)),
    "copy_line_numbers": lambda cm: str(int(cm._ln_mode() != LN_OFF)),  # beyond 3.7b
    "refresh_active": lambda cm: str(int(cm.refresh_active)),  # beyond 3.7b
    "copy_cursor_x": lambda cm: str(cm.cx),
    "copy_cursor_y": lambda cm: str(cm.cy),
    "selection_start_x": lambda cm: cm._format_selection("selection_start_x"),
    "selection_start_y": lambda cm: cm._format_selection("selection_start_y"),
    "selection_end_x": lambda cm: cm._format_selection("selection_end_x"),
    "selection_end_y": lambda cm: cm._format_selection("selection_end_y"),
    "selection_active": lambda cm: cm._format_selection("selection_active"),
    "selection_present": lambda cm: cm._format_selection("selection_present"),
    "selection_mode": lambda cm: _SELFLAGS[cm.selflag],
    "search_present": lambda cm: str(int(cm.searchmark is not None)),
    "search_timed_out": lambda cm: str(int(cm.timeout)),
    "search_count": lambda cm: None if cm.searchcount == -1 else str(cm.searchcount),
    "search_count_partial": lambda cm: (None if cm.searchcount == -1
                                        else str(int(cm.searchmore))),
    "search_match": lambda cm: cm._match_at_cursor() or "",
    "copy_cursor_word": lambda cm: cm._screen_word(cm.cx, cm.cy) or "",
    "copy_cursor_line": lambda cm: cm._screen_line(cm.cy) or "",
    "copy_cursor_hyperlink": lambda cm: cm._cursor_hyperlink(),
}

#: The variables of copy mode's formats (formats_vars asks the pane's mode for these).
FORMAT_NAMES = tuple(_FORMATS)
