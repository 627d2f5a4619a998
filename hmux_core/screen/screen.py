"""The default engine: a tmux 3.3a-faithful terminal emulator in pure Python.

Input is decoded as latin-1 (one byte, one character, so the tokeniser sees tmux's bytes) and
tokenised by one precompiled regex that takes printable runs, CSI sequences, C0 controls and
simple OSC and ESC sequences whole. Anything else (split sequences, DCS/APC/PM/SOS strings,
controls inside sequences, ...) goes through a character-at-a-time state machine that mirrors
tmux's input.c state tables and keeps its state between feed() calls. Screen operations reproduce screen-write.c, grid.c and grid-view.c
(including their quirks), because capture-pane output must be byte-identical to tmux's.
Non-ASCII runs are assembled into characters with tmux's byte-level UTF-8 rules: a partial
character survives escape sequences, a bad continuation byte drops the whole attempt.
"""

from __future__ import annotations

import base64
import logging
import re
import time
from array import array
from collections import deque
from collections.abc import Callable
from itertools import islice

from ..version import TMUX_VERSION
from .cells import (
    ATTR_ALL_UNDERSCORE,
    ATTR_BLINK,
    ATTR_BRIGHT,
    ATTR_CHARSET,
    ATTR_DIM,
    ATTR_HIDDEN,
    ATTR_ITALICS,
    ATTR_OVERLINE,
    ATTR_REVERSE,
    ATTR_STRIKETHROUGH,
    ATTR_UNDERSCORE,
    ATTR_UNDERSCORE_2,
    ATTR_UNDERSCORE_3,
    ATTR_UNDERSCORE_4,
    ATTR_UNDERSCORE_5,
    COLOUR_FLAG_256,
    COLOUR_FLAG_RGB,
    DEFAULT_STYLE,
    WIDTHS,
    Style,
    char_width,
    colour_rgb,
    sgr_change,
)
from .combine import (
    HANGUL_FILLER,
    JAMO_CHOSEONG,
    JAMO_NOT_COMPOSABLE,
    JAMO_NOT_JAMO,
    JOINS,
    VS16,
    VS16_ALWAYS_WIDE,
    ZWJ,
    hangul_state,
    joins,
    should_combine,
)
from .grid import (
    HISTORY_BYTE_BUDGET,
    LINE_START_OUTPUT,
    LINE_START_PROMPT,
    OSC133_END_OUTPUT,
    OSC133_SECOND_PROMPT,
    OSC133_START_COMMAND,
    OSC133_START_OUTPUT,
    OSC133_START_PROMPT,
    HistLine,
    Row,
    compact,
    grown_size,
    inflate,
    lazy_row,
    osc133_exit_status,
    osc133_mark,
    text_line,
    unlazy,
)
from .hyperlinks import Hyperlinks
from .names import clean_name
from .reflow import UINT_MAX, _RLine, reflow, unwrap_position, wrap_position
from .snapshot import Snapshot

log = logging.getLogger(__name__)

#: OSC 133 kinds -> the development tree's line mark and the column it records.
_OSC133_MARKS = {
    "A": (OSC133_START_PROMPT, "prompt"), "N": (OSC133_START_PROMPT, "prompt"),
    "P": (OSC133_START_PROMPT, "prompt"), "B": (OSC133_START_COMMAND, "command"),
    "I": (OSC133_START_COMMAND, "command"), "C": (OSC133_START_OUTPUT, "output_start"),
    "D": (OSC133_END_OUTPUT, "output_end"),
}

U32 = 1 << 32
INT_MAX = 2147483647
PROGRESS_INDETERMINATE = 3
#: Synchronized output (mode 2026) ends by itself after this many seconds, as tmux's timer.
SYNC_TIMEOUT = 1.0
INPUT_BUF_LIMIT = 1048576


class NoAlternateScreen(LookupError):
    """capture(alternate=True) while the alternate screen is not active."""

    def __init__(self) -> None:
        super().__init__("no alternate screen")


# Parser states, named after tmux's input.c tables.
GROUND = 0
ESC_ENTER = 1
ESC_INTER = 2
CSI_ENTER = 3
CSI_PARAM = 4
CSI_INTER = 5
CSI_IGNORE = 6
DCS_ENTER = 7
DCS_PARAM = 8
DCS_INTER = 9
DCS_HANDLER = 10
DCS_ESCAPE = 11
DCS_IGNORE = 12
OSC_STRING = 13
APC_STRING = 14
RENAME_STRING = 15
CONSUME_ST = 16

_TOKEN = re.compile(
    r"([\x20-\x7e]+)"  # 1: printable ASCII run
    r"|(\r\n)"  # 2
    # 3-4: SGR, the commonest sequence, with the text it styles (one token for both)
    r"|\x1b\[([0-;]*)m([\x20-\x7e]*)"
    r"|\x1b\[([<-?]?)([0-;]*)([ -/]*)([@-~])"  # 5-8: CSI private, params, intermediates, final
    r"|([\x00-\x1a\x1c-\x1f])"  # 9: other C0
    r"|([^\x00-\x7f]+)"  # 10: non-ASCII run
    r"|\x1b\]([^\x00-\x1f]*)(\x07|\x1b\\)"  # 11-12: OSC without controls inside
    r"|\x1b([0-OQ-WYZ\\`-jl-~])"  # 13: ESC final
    r"|\x1b([ -/]+)([0-~])"  # 14-15: ESC intermediates final
    r"|(\x7f)"  # 16: DEL (ignored)
    r"|(\x1b)",  # 17: anything else: state machine
    re.S,
)
_CTRL = re.compile(r"[\x00-\x1f]")
#: How far ahead _lines looks for lines it can take: from MIN after a line it could not take,
#: doubling while it takes every line it looked at. After a look that ended at a line it could
#: not take, the next line feeds (1, 2, 4 ... BATCH_SKIP_MAX while looks keep ending so) do not
#: look at all.
BATCH_WINDOW_MIN = 1024
BATCH_WINDOW_MAX = 1 << 20
BATCH_SKIP_MAX = 32
#: A run of whole lines of printable text (tabs too), SGR and EL sequences, each ending in
#: CR LF: what ``cat``, ``ls``, ``grep`` and compilers send. :meth:`Screen._lines` takes it at
#: once when it arrives at the bottom of the screen (possessive, so a line that does not fit
#: costs no backtracking).
_BATCH = re.compile(r"(?:(?:[\t\x20-\x7e\x80-\xff]++|\x1b\[(?:[0-;]*+m|0?K))*+\r\n)+")
#: Such a line split at its SGR and EL sequences (text, parameters and final, text, ...), and
#: text split at its runs of non-ASCII bytes.
_SGR_SPLIT = re.compile(r"\x1b\[([0-;]*m|0?K)")
_HIGH_SPLIT = re.compile(r"([\x80-\xff]+)")
#: _tab_line's cell maps of a tab cell of each width (head, padding); also the map of a
#: character one or two cells wide.
_TAB_CELLS = _CELL_MAPS = [b""] + [b"\1" + bytes(w - 1) for w in range(1, 33)]


def _fit(t: str, room: int) -> tuple[str, str]:
    """Text split where a row with ``room`` cells left ends (one cell per character)."""
    return (t, "") if len(t) <= room else (t[:room], t[room:])


def _tab_row(text: list[str], cells: list[bytes], runs: list[int], size: int,
             wrapped: bool) -> tuple:
    """One row of :meth:`Screen._tab_line` from its pieces."""
    cellmap = b"".join(cells)
    joined = "".join(text)
    return (joined, array("I", runs) if any(runs[1::2]) else None, len(cellmap), size, wrapped,
            cellmap if "\t" in joined else None)


_now: list[int] = [0]  # the second last asked for: every line of that second shares the int


def _history_time() -> int:
    """The time (in seconds) lines scrolling into history now are stamped with."""
    t = int(time.time())
    if t != _now[0]:
        _now[0] = t
    return _now[0]


def _split_params(params: str) -> list | None:
    """tmux's input_split: None for missing, str for colon forms, int otherwise."""
    if not params:
        return []
    out: list = []
    for p in params.split(";"):
        if not p:
            out.append(None)
        elif ":" in p:
            out.append(p)
        else:
            v = int(p)
            if v > INT_MAX:
                return None
            out.append(v)
        if len(out) == 24:
            return None
    return out


def _get(vals: list, i: int, minval: int, defval: int) -> int:
    """tmux's input_get."""
    if i >= len(vals):
        return defval
    v = vals[i]
    if v is None:
        return defval
    if type(v) is str:
        return -1
    return minval if v < minval else v


def _glob_to_regex(pattern: str, ignore: bool) -> re.Pattern | None:
    """fnmatch(3) without flags: * ? [..] and backslash quoting."""
    out = []
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        i += 1
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "\\" and i < n:
            out.append(re.escape(pattern[i]))
            i += 1
        elif c == "[":
            j = i
            if j < n and pattern[j] in "!^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 1
            if j >= n:
                out.append("\\[")
            else:
                body = pattern[i:j]
                if body[:1] in ("!", "^"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j + 1
        else:
            out.append(re.escape(c))
    try:
        return re.compile("".join(out), re.S | (re.I if ignore else 0))
    except re.error:
        return None


class Screen:
    """One pane's terminal: visible grid, alternate screen, history and parser state."""

    #: The default engine keeps the name the architecture gave it. pyte's own parser is not
    #: used at run time: its FSM differs from tmux's input.c (colon SGR, private CSI finals,
    #: DCS/APC strings, C0 inside sequences, UTF-8 recovery), and capture must match tmux.
    name = "python"

    def __init__(self, cols: int, rows: int, history_limit: int = 2000) -> None:
        self.cols = max(1, cols)
        self.rows = max(1, rows)
        self.history_limit = history_limit
        # pane options the model may change
        #: The extended-keys server option: 0 off, 1 on, 2 always.
        self.extended_keys_option = 0
        self._input_limit = INPUT_BUF_LIMIT
        self.scroll_on_clear = True
        self.alternate_screen = True
        self._styles: list[Style] = [DEFAULT_STYLE]
        #: The hyperlink of each style id (0: none), parallel to ``_styles``.
        self._links: list[int] = [0]
        self._style_ids: dict = {DEFAULT_STYLE: 0}
        self._batch_window = BATCH_WINDOW_MIN  # how far _lines looks ahead
        self._batch_skip = self._batch_missed = 0  # line feeds it skips, after how many
        self.hyperlinks = Hyperlinks()
        self._sgr_cache: dict[tuple[int, str], int] = {}
        self._bg_sids: dict[int, int] = {8: 0}
        self._code_cache: dict[tuple[int, int, bool], str] = {}
        self._style_limit = 16384  # compact the style table beyond this many entries
        self._hist: deque[HistLine] = deque()
        self._hist_bytes = 0
        #: Lines pushed into history, lines dropped from its top by collection (history-limit
        #: and the byte budget), and a generation that advances when the lines already in it
        #: change otherwise (cleared, reflowed, taken back by a taller pane): the seed's
        #: history_added, history_collected and history_generation. A reader that remembers
        #: history by index can tell from them what moved since it last looked.
        self.history_added = 0
        self.history_collected = 0
        self.history_generation = 0
        #: History bytes kept at most (``grid.HISTORY_BYTE_BUDGET`` unless a test lowers it).
        self.history_budget = HISTORY_BYTE_BUDGET
        self._hscrolled = 0
        self._rows: list[Row] = [Row(self.cols) for _ in range(self.rows)]
        self._blank = [" "] * self.cols
        self._zeros = [0] * self.cols
        self._dirty: set[int] = set()
        self._all_dirty = True
        self._replies = bytearray()
        self._events: list[tuple[str, object]] = []
        self.revision = 0
        self.title = ""
        self.path = ""
        self._titles: list[str] = []
        self.cursor_style = 0
        self.cursor_blinking = False
        self.cursor_colour = -1
        #: The pane's cursor-colour option (OSC 12 answers with it when no colour was set).
        self.default_cursor_colour = -1
        self.palette: dict[int, int] = {}
        #: pane-colours: entries the palette falls back to (set by the pane, never reset here)
        self.default_palette: dict[int, int] = {}
        self.default_fg = 8
        self.default_bg = 8
        #: Set by the pane: tmux's tty_default_colours (window-style over the palette) for
        #: OSC 10/11 queries; without it the palette's own colours answer.
        self.default_colours: Callable[[int, int], tuple[int, int]] | None = None
        #: Set by the pane: the top paste buffer for an OSC 52 query, or None when
        #: set-clipboard is not on (then the query is ignored, as tmux does).
        self.clipboard_query: Callable[[], bytes | None] | None = None
        #: Set by the pane: window_pane_get_theme for DSR 996 (1 dark, 2 light, 0 unknown).
        self.theme_query: Callable[[], int] | None = None
        #: Set by the pane: input_add_request, a query only a client's terminal can answer
        #: (("palette", index, BEL-terminated) or ("clipboard", 0, BEL-terminated)).
        self.terminal_request: Callable[[str, int, bool], None] | None = None
        #: Set by the pane: the colours an attached client's terminal reported (window_pane_get
        #: fg/bg), -1 when none did; OSC 10/11 answer with them when the styles are default.
        self.client_colours: Callable[[], tuple[int, int]] | None = None
        #: The pane's allow-set-title option: OSC 0/2 and APC titles are ignored when off.
        self.allow_set_title = True
        #: The pane's cursor-style option as DECSCUSR's number (DECRQM ?12 and DECRQSS).
        self.default_cursor_style = 0
        #: A cell's size in pixels (the window's xpixel/ypixel) for CSI 14/15/16 t.
        self.cell_pixels = (16, 32)
        #: Mode 2031: the theme last reported, and whether it may have changed since.
        self.last_theme = 0
        self.theme_changed = False
        #: OSC 9;4 progress bar: state 0 hidden, 1 normal, 2 error, 3 indeterminate, 4 paused.
        self.progress_state = 0
        self.progress = 0
        self._alt: dict | None = None
        self.alternate_saved_x = UINT_MAX
        self.alternate_saved_y = UINT_MAX
        self._alt_cell: tuple[Style, int] = (DEFAULT_STYLE, 0)
        self._init_state()
        self._reset_parser()

    # -- state ---------------------------------------------------------------------------------
    def _init_state(self) -> None:
        self.cursor_x = 0
        self.cursor_y = 0
        self.scroll_region_upper = 0
        self.scroll_region_lower = self.rows - 1
        self._set_modes_default()
        self._reset_tabs()
        self._reset_cell()

    def _set_modes_default(self) -> None:
        """mode = MODE_CURSOR | MODE_WRAP."""
        self.cursor_visible = True
        self.insert_mode = False
        self.keypad_cursor = False
        self.keypad = False
        self.wrap_mode = True
        self.mouse_standard = False
        self.mouse_button = False
        self.mouse_any = False
        self.cursor_blinking = False
        self.mouse_utf8 = False
        self.mouse_sgr = False
        self.bracketed_paste = False
        self.focus_events = False
        self.origin_mode = False
        # extended-keys always: mode 1 from the start (screen_reinit, screen_write_reset)
        self.extended_keys = self.extended_keys_option == 2
        self.extended_keys_2 = False  # CSI > 4 ; 2 m (MODE_KEYS_EXTENDED_2)
        self.cursor_very_visible = False
        self.cursor_blinking_set = False  # ?12 was set or reset (MODE_CURSOR_BLINKING_SET)
        self._sync_since: float | None = None  # ?2026 (MODE_SYNC) started at
        self.theme_updates = False  # ?2031 (MODE_THEME_UPDATES)
        self._update_simple()

    def _reset_cell(self) -> None:
        """input_reset_cell: default cell, G0/G1 ASCII, saved cell and position cleared.

        Like tmux, the saved origin mode survives (DECRC after RIS can turn origin mode on).
        """
        self._attr, self._fg, self._bg, self._us = DEFAULT_STYLE
        self._cs = 0
        self._g0 = False
        self._g1 = False
        self._sid = 0
        self._saved_cell = (DEFAULT_STYLE, 0, False, False, 0)
        self._saved_cx = 0
        self._saved_cy = 0
        if not hasattr(self, "_saved_origin"):
            self._saved_origin = False
        self._update_psid()

    def _reset_parser(self) -> None:
        self._st = GROUND
        self._f_clear()
        self._last: str | None = None
        self._u8: bytearray | None = None  # tmux's utf8started + utf8data
        self._u8_size = 0
        self._u8_bad = False

    def _reset_tabs(self) -> None:
        t = bytearray(self.cols)
        for i in range(8, self.cols, 8):
            t[i] = 1
        self._tabs = t

    def _update_simple(self) -> None:
        acs = self._g1 if getattr(self, "_cs", 0) else getattr(self, "_g0", False)
        self._simple = self.wrap_mode and not self.insert_mode and not acs

    def _intern(self, style: Style, link: int = 0) -> int:
        """The id of a cell style; a hyperlink is part of it (tmux keeps the link in the cell),
        so writing linked text costs what writing styled text costs."""
        key = (style, link) if link else style
        sid = self._style_ids.get(key)
        if sid is None:
            sid = len(self._styles)
            self._styles.append(style)
            self._links.append(link)
            self._style_ids[key] = sid
        return sid

    def _update_psid(self, link: int = -1) -> None:
        """Recompute the style written by the next printed character (``link`` -1 keeps the
        current hyperlink)."""
        if link < 0:
            link = self._links[self._sid]
        style = (self._attr, self._fg, self._bg, self._us)
        sid = self._style_ids.get((style, link) if link else style)
        self._sid = sid if sid is not None else self._intern(style, link)
        acs = self._g1 if self._cs else self._g0
        if acs:
            self._psid = self._intern((self._attr | ATTR_CHARSET, self._fg, self._bg, self._us),
                                      link)
        else:
            self._psid = self._sid
        self._simple = self.wrap_mode and not self.insert_mode and not acs

    def _bg_sid(self, bg: int) -> int:
        sid = self._bg_sids.get(bg)
        if sid is None:
            sid = self._bg_sids[bg] = self._intern((0, 8, bg, 0))
        return sid

    @property
    def history_size(self) -> int:
        return len(self._hist)

    @property
    def input_buffer_size(self) -> int:
        """The input-buffer-size server option: a string sequence (OSC, DCS, APC, ESC k)
        longer than this is dropped. tmux grows its buffer by doubling from 32 bytes, so the
        limit is the largest such size within the option."""
        return self._input_limit

    @input_buffer_size.setter
    def input_buffer_size(self, n: int) -> None:
        cap = 32
        while cap * 2 <= n:
            cap *= 2
        self._input_limit = cap

    @property
    def sync(self) -> bool:
        """Synchronized output (``CSI ? 2026 h``) is on: the pane is not redrawn until it ends
        (``CSI ? 2026 l``, or :data:`SYNC_TIMEOUT` seconds later, tmux's sync timer)."""
        since = self._sync_since
        if since is None:
            return False
        if time.monotonic() - since >= SYNC_TIMEOUT:
            self._sync_since = None
            self._events.append(("sync", False))
            return False
        return True

    synchronized_output = sync

    @property
    def extended_keys_mode(self) -> int:
        """The key reporting mode the application asked for: 0, 1 or 2 (pane_key_mode)."""
        return 2 if self.extended_keys_2 else 1 if self.extended_keys else 0

    def sync_remaining(self) -> float | None:
        """Seconds until synchronized output times out, None when it is off (the server's
        timer redraws the pane then)."""
        if not self.sync:
            return None
        return max(0.0, SYNC_TIMEOUT - (time.monotonic() - self._sync_since))

    # -- public API ----------------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        """Parse a chunk of child output. Never raises."""
        if not data:
            return
        self.revision += 1
        _history_time()  # tmux's current_time: once per read, not per line scrolled
        s = bytes(data).decode("latin-1")
        n = len(s)
        pos = self._lines(s, 0) if self._st == GROUND and self._at_fresh_bottom() else 0
        while pos < n:
            try:
                if self._st != GROUND:
                    pos = self._fsm(s, pos)
                else:
                    pos = self._fast(s, pos)
            except Exception:
                log.exception("screen parse error at %d", pos)
                self._st = GROUND
                self._f_clear()
                pos += 1
        if len(self._styles) > self._style_limit:
            self._compact_styles()
        if self.theme_changed and self.theme_updates:  # the server loop's theme update
            self._replies += self.send_theme_update()

    def take_replies(self) -> bytes:
        r = bytes(self._replies)
        self._replies.clear()
        return r

    def take_events(self) -> list[tuple[str, object]]:
        ev = self._events
        self._events = []
        return ev

    def take_dirty(self) -> set[int]:
        """Visible rows changed since the last call (every row after a scroll or clear)."""
        if self._all_dirty:
            d = set(range(self.rows))
            self._all_dirty = False
        else:
            d = self._dirty
        self._dirty = set()
        return d

    def reset(self) -> None:
        """send-keys -R: input_reset(ictx, 1)."""
        try:
            _history_time()
            self.palette.clear()
            self._reset_cell()
            self._screen_reset()
            self._reset_parser()
        except Exception:  # pragma: no cover
            log.exception("reset failed")

    def reinit(self) -> None:
        """respawn-pane: screen_reinit plus the fresh input parser tmux gives the new child.
        The visible lines are blanked (not scrolled into history, which is kept)."""
        try:
            self.cursor_x = 0
            self.cursor_y = 0
            self.scroll_region_upper = 0
            self.scroll_region_lower = self.rows - 1
            self._set_modes_default()
            if self._alt is not None:
                self._alternate_off(False)
            self.alternate_saved_x = UINT_MAX
            self.alternate_saved_y = UINT_MAX
            self._reset_tabs()
            self._grid_clear(0, 0, self.cols, self.rows, 8)
            self._titles.clear()
            self._reset_cell()
            self._reset_parser()
            self._all_dirty = True
        except Exception:  # pragma: no cover
            log.exception("reinit failed")

    def resize(self, cols: int, rows: int, eat_empty: bool = True) -> None:
        """``eat_empty`` False keeps the empty lines below the cursor when the height shrinks
        and pushes lines from the top into history instead (a copy or view mode's backing
        screen, tmux's screen_resize_cursor(..., eat_empty=0))."""
        try:
            _history_time()
            self._resize(cols, rows, self._alt is None, eat_empty)
        except Exception:  # pragma: no cover
            log.exception("resize failed")

    def grid_stats(self) -> tuple[int, int, int]:
        """(lines, cells, extended cells) that tmux's grid holds for this screen, for
        ``history_bytes`` and ``history_all_bytes``: every history and visible line, the cells
        allocated on each (tmux's cellsize, which grows in its steps) and the cells that need an
        extended entry (non-ASCII or wide characters, tabs, RGB colours, attributes above 0xff,
        an underline colour, a hyperlink). tmux also keeps a cell extended once it was; this
        counts what the cells hold now."""
        ext = extended_styles(self._styles, self._links)
        cells = extd = 0
        for line in self._hist:
            cells += line.size
            if not line.text.isascii() or "\t" in line.text:
                extd += sum(1 for c in line.cells()[0] if c and (not c.isascii() or c == "\t"
                                                                   or len(c) > 1))
            if ext and line.runs is not None:
                runs = line.runs
                extd += sum(runs[i] for i in range(0, len(runs), 2) if runs[i + 1] in ext)
        rows_cells, rows_extd = rows_grid_stats(self._rows, ext)
        return len(self._hist) + len(self._rows), cells + rows_cells, extd + rows_extd

    def history_bytes(self) -> int:
        return self._hist_bytes

    def apply_history_limit(self, limit: int) -> None:
        """A changed history-limit for this pane (tmux 3.7b's session_update_history): the
        oldest lines beyond it go at once (grid_collect_history with all)."""
        self.history_limit = limit
        hist = self._hist
        h = len(hist)
        if h == 0 or h < limit:
            return
        ny = min(max(h - limit, 1), h)
        for _ in range(ny):
            self._hist_bytes -= hist.popleft().nbytes()
        self.history_collected += ny
        if self._hscrolled > len(hist):
            self._hscrolled = len(hist)

    def clear_history(self) -> None:
        if self._hist:
            self.history_generation += 1
        self._hist.clear()
        self._hist_bytes = 0
        self._hscrolled = 0

    # -- the fast path -------------------------------------------------------------------------
    def _fast(self, s: str, pos: int) -> int:
        rows = self._rows
        dirty = self._dirty
        for m in _TOKEN.finditer(s, pos):
            li = m.lastindex
            try:
                if li == 1 or li == 4:
                    if li == 4:
                        self._sgr(m.group(3))
                        t = m.group(4)
                        if not t:
                            self._last = None
                            continue
                    else:
                        t = m.group(1)
                    self._last = t[-1]
                    if self._u8 is not None:
                        self._stop_utf8()
                    cx = self.cursor_x
                    k = len(t)
                    e = cx + k
                    if self._simple and e <= self.cols:
                        cy = self.cursor_y
                        row = rows[cy]
                        if not row.wide:
                            row.chars[cx:e] = t
                            sid = self._psid
                            if sid:
                                row.styles[cx:e] = [sid] * k
                                row.styled = True
                            elif row.styled:
                                row.styles[cx:e] = [0] * k
                            if e > row.used:
                                row.used = e
                                if e > row.size:
                                    self._expand(row, e)
                            self.cursor_x = e
                            dirty.add(cy)
                            continue
                    self._put_ascii(t)
                elif li == 2:
                    if self._u8 is not None:
                        self._stop_utf8()
                    self.cursor_x = 0
                    cy = self.cursor_y
                    if cy == self.scroll_region_lower:
                        self._scroll_up(self._bg)
                        self._last = None
                        if self._batch_mode():
                            if self._batch_skip:
                                self._batch_skip -= 1
                            else:
                                end = self._lines(s, m.end())
                                if end != m.end():
                                    return end  # feed() goes on from there
                    elif cy < self.rows - 1:
                        self.cursor_y = cy + 1
                    self._last = None
                elif li == 8:
                    self._csi(m.group(5) + m.group(7), m.group(6), m.group(8))
                elif li == 9:
                    self._c0(m.group(9))
                elif li == 10:
                    self._put_bytes_uni(m.group(10))
                elif li == 12:
                    self._last = None
                    self._osc(m.group(11), m.group(12) == "\x07")
                elif li == 13:
                    self._esc("", m.group(13))
                elif li == 15:
                    if len(m.group(14)) <= 3:
                        self._esc(m.group(14), m.group(15))
                elif li == 17:
                    self._st = ESC_ENTER
                    self._f_clear()
                    return m.end()
            except Exception:
                log.exception("screen error handling %r", m.group(0)[:40])
        return len(s)

    def _batch_mode(self) -> bool:
        """Whether lines at the bottom of the screen may be taken by :meth:`_lines`: a
        full-screen scroll region, the default background, simple modes, the main screen
        and history on."""
        return (self._bg == 8 and self._simple and self.scroll_region_upper == 0
                and self.scroll_region_lower == self.rows - 1 and self._alt is None
                and self.history_limit > 0)

    def _at_fresh_bottom(self) -> bool:
        """Whether a read may start on the batch path (:meth:`_lines`): the cursor at the
        start of an untouched last row, as a line feed at the bottom of the screen leaves it
        (a read that starts with whole lines, as one the pane's reader cut at a line's end)."""
        cy = self.cursor_y
        if self.cursor_x or cy != self.rows - 1 or self._batch_skip or self._last is not None \
                or self._u8 is not None or not self._batch_mode():
            return False
        row = self._rows[cy]
        return not (row.used or row.size or row.flags or row.styled or row.wide or row.wrapped
                    or row.time)

    def _lines(self, s: str, pos: int) -> int:
        """Whole lines arriving at the bottom of a full-screen scroll region, taken at once.

        The cursor is at the start of the last row, which a line feed has just emptied, and
        history is on: each line of ``_BATCH`` that fits the width (printable ASCII,
        single-width characters that join nothing, SGR), or is printable ASCII alone (rows
        flagged wrapped, then the rest; tabs as tab cells), is what writing it and scrolling
        would leave, so the lines are built directly: those that would scroll past the top go
        into history as compact lines without ever being rows, the top rows go into history, and
        only the lines still visible become rows. The result is exactly the per-line path's
        (history collection and the history counters included). Returns where the lines end
        (``pos`` when none could be taken; the caller's path handles the rest).
        """
        window = self._batch_window
        m = _BATCH.match(s, pos, pos + window)
        if m is None:
            return pos
        cols = self.cols
        links = self._links
        taken: list[tuple[str, array | None, int, int, bool, bytes | None]] = []
        end = pos
        # Lines the batch cannot take are each written by the caller's path, which calls this
        # again at their line feed: looking only so far ahead keeps a stream of such lines from
        # costing a scan of the whole read per line. The window grows while whole ones are
        # taken, and the look goes on past it.
        while m is not None:
            for line in m.group().split("\r\n")[:-1]:
                if "\t" in line:  # tab cells: in a line of ASCII alone
                    tabbed = None
                    if "\x1b" not in line and line.isascii():
                        tabbed = self._tab_line(line, cols)
                    if tabbed is None:
                        break
                    taken += tabbed
                    end += len(line) + 2
                    continue
                if "\x1b" not in line and line.isascii():
                    n = len(line)
                    psid = self._psid
                    if n > cols:  # wraps: full rows flagged wrapped, then the rest
                        last = (n - 1) // cols * cols
                        for at in range(0, last, cols):
                            taken.append((line[at:at + cols], array("I", (cols, psid)) if psid
                                          else None, cols, cols, True, None))
                        text = line[last:]
                        n -= last
                    else:
                        text = line
                    taken.append((text, array("I", (n, psid)) if psid and n else None, n,
                                  grown_size(cols, 0, n) if n else 0, False, None))
                    end += len(line) + 2
                    continue
                saved = (self._attr, self._fg, self._bg, self._us, self._sid, self._psid)
                parts = _SGR_SPLIT.split(line)  # text, SGR parameters, text, ...
                if line.isascii():  # (wrapping, if it is longer than the pane)
                    rows_of = self._sgr_line(parts, cols)
                    if rows_of is None or self._bg != 8:
                        self._attr, self._fg, self._bg, self._us, self._sid, \
                            self._psid = saved
                        break
                    taken += rows_of
                    end += len(line) + 2
                    continue
                cellmap = None
                runs: list[int] = []
                n = size = 0
                ok = True
                pieces: list[str] = []
                maps: list[bytes] | None = None
                for i, t in enumerate(parts):
                    if i & 1:
                        if not self._batch_sequence(t, links):
                            ok = False
                            break
                        continue
                    if not t:
                        continue
                    k = len(t)
                    cm = None
                    if not t.isascii():
                        got = self._single_width_run(t, n, cols, size)
                        if got is None:
                            ok = False
                            break
                        t, k, size, cm = got
                    if n + k > cols:
                        ok = False
                        break
                    n += k
                    if n > size:
                        size = grown_size(cols, size, n)
                    pieces.append(t)
                    psid = self._psid
                    if cm is not None:  # wide characters: a map of the line's cells
                        if maps is None:
                            maps = [b"\1" * len(p) for p in pieces[:-1]]
                        maps.append(cm)
                        if psid:  # (a wide character's second cell keeps no style)
                            for c in cm:
                                sid = psid if c else 0
                                if runs and runs[-1] == sid:
                                    runs[-2] += 1
                                else:
                                    runs += (1, sid)
                            continue
                    elif maps is not None:
                        maps.append(b"\1" * k)
                    if runs and runs[-1] == psid:
                        runs[-2] += k
                    else:
                        runs += (k, psid)
                text = "".join(pieces)
                if maps is not None:
                    cellmap = b"".join(maps)
                if not ok or self._bg != 8:  # (a coloured background would colour the next row)
                    self._attr, self._fg, self._bg, self._us, self._sid, self._psid = saved
                    break
                taken.append((text, array("I", runs) if any(runs[1::2]) else None, n, size,
                              False, cellmap))
                end += len(line) + 2
            if end != m.end():  # a line it could not take
                window = BATCH_WINDOW_MIN
                self._batch_skip = self._batch_missed = min(self._batch_missed * 2 or 1,
                                                            BATCH_SKIP_MAX)
                break
            window = min(window * 2, BATCH_WINDOW_MAX)
            self._batch_missed = 0
            m = _BATCH.match(s, end, end + window)
        self._batch_window = window
        k = len(taken)
        if not k:
            return pos
        rows = self._rows
        top = len(rows) - 1  # the rows above the (empty) last one
        j = k - top if k > top else 0  # lines that scroll past the top at once
        now = _now[0]
        pushed = []
        for row in rows[: k - j]:
            line = compact(row)
            line.time = now
            pushed.append(line)
        for text, runs, n, size, wrapped, cellmap in taken[:j]:
            if cellmap is not None and 0 not in cellmap:
                cellmap = None  # (one-column tabs only: compact keeps no map, as for a Row)
            pushed.append(text_line(text, runs, n, size, now, wrapped, cellmap))
        last = rows[top]
        rows[:] = rows[k - j : top] + [
            lazy_row(text_line(text, runs, n, size, 0, wrapped, cellmap), cols)
            for text, runs, n, size, wrapped, cellmap in taken[j:]]
        rows.append(last)
        # What pushing them one at a time does (_scroll_up: collect, push), a stretch at a
        # time: as many as fit under history-limit and the byte budget.
        hist = self._hist
        lim = self.history_limit
        budget = self.history_budget
        hb = self._hist_bytes
        sizes = [line.nbytes() for line in pushed]
        i = 0
        while i < k:
            if hb > budget or len(hist) >= lim:
                self._hist_bytes = hb
                self._collect_history()
                hb = self._hist_bytes
            take = max(1, min(lim - len(hist), k - i))  # (a resize may leave more than lim)
            add = sum(sizes[i : i + take])
            if take > 1 and hb + add - sizes[i + take - 1] > budget:
                take = 1  # the budget is reached within: one at a time
                add = sizes[i]
            hist.extend(pushed[i : i + take])
            hb += add
            self._hscrolled += take
            i += take
        self._hist_bytes = hb
        self.history_added += k
        self._all_dirty = True
        return end

    def _batch_sequence(self, seq: str, links: list[int]) -> bool:
        """An SGR (parameters and ``m``) or EL (``K``, ``0K``) of a line :meth:`_lines` takes:
        the pen changes; an EL clears only the fresh row's blanks, a no-op, unless the
        background is coloured (False: the line is not one the batch can take)."""
        if seq[-1] == "K":
            return self._bg == 8
        if seq == "m" or (seq == "0m" and not links[self._sid]):  # the reset
            if self._sid:
                self._attr, self._fg, self._bg, self._us = DEFAULT_STYLE
                self._sid = self._psid = 0
        else:
            self._sgr(seq[:-1])
        return True

    def _sgr_line(self, parts: list[str], cols: int) -> list[tuple] | None:
        """A line of ASCII text and SGR (or EL) sequences, split at them (``parts``), as
        :meth:`_lines` takes it: its rows (one unless it is longer than the pane: full ones
        flagged wrapped), each grown as its text arrives. The pen changes as the sequences
        say. None when a row would wrap, or an EL clear, in a coloured background (the caller
        puts the pen back)."""
        quarter, half = cols // 4, cols // 2
        links = self._links
        rows: list[tuple] = []
        text: list[str] = []
        runs: list[int] = []
        n = size = 0
        for i, t in enumerate(parts):
            if i & 1:
                if not self._batch_sequence(t, links):
                    return None
                continue
            while t:
                if n == cols:  # a character to write past the last column: the row wraps
                    if self._bg != 8:
                        return None
                    rows.append(("".join(text), array("I", runs) if any(runs[1::2]) else None,
                                 n, size, True, None))
                    text, runs, n, size = [], [], 0, 0
                piece, t = _fit(t, cols - n)
                text.append(piece)
                k = len(piece)
                n += k
                if n > size:
                    size = quarter if n < quarter else half if n < half else cols
                psid = self._psid
                if runs and runs[-1] == psid:
                    runs[-2] += k
                else:
                    runs += (k, psid)
        rows.append(("".join(text), array("I", runs) if any(runs[1::2]) else None, n, size,
                     False, None))
        return rows

    def _tab_line(self, line: str, cols: int) -> list[tuple] | None:
        """A line of ASCII with tabs as :meth:`_lines` takes it: its rows (text, style runs,
        cells used, cell size, wrapped, cell map: kept even when every cell is one column, as
        a visible row with a tab cell is ``wide``). Each tab over the fresh row's blanks is a
        tab cell up to the next stop, as :meth:`_tab` writes it, in the style of the blanks
        under it (default); at or past the last column a tab does nothing; text wraps onto a
        new row. None when a tab would be wider than 32 (the cursor only moves)."""
        tabs = self._tabs
        psid = self._psid
        last = cols - 1
        rows: list[tuple] = []
        text: list[str] = []
        cells: list[bytes] = []
        runs: list[int] = []  # (cells, style id) pairs; none in the default style
        n = size = 0
        for i, t in enumerate(line.split("\t")):
            if i and n < last:
                x = tabs.find(1, n + 1, last)
                if x == -1:
                    x = last
                w = x - n
                if w > 32:
                    return None
                text.append("\t")
                cells.append(_TAB_CELLS[w])
                if psid:
                    if runs[-1:] == [0]:
                        runs[-2] += w
                    else:
                        runs += (w, 0)
                # The cells grow as _put_cell sets them: the padding one by one, then the head.
                need = n + 2 if w > 1 else x
                while size < x:
                    size = grown_size(cols, size, max(need, size + 1))
                n = x
            while t:
                if n == cols:  # a character to write past the last column: the row wraps
                    rows.append(_tab_row(text, cells, runs, size, True))
                    text, cells, runs, n, size = [], [], [], 0, 0
                piece, t = _fit(t, cols - n)
                text.append(piece)
                k = len(piece)
                cells.append(b"\1" * k)
                if psid:
                    if runs[-1:] == [psid]:
                        runs[-2] += k
                    else:
                        runs += (k, psid)
                n += k
                if n > size:
                    size = grown_size(cols, size, n)
        rows.append(_tab_row(text, cells, runs, size, False))
        return rows

    def _single_width_run(self, t: str, n: int, cols: int,
                          size: int) -> tuple[str, int, int, bytes | None] | None:
        """Text with non-ASCII bytes written from cell ``n``: its characters, the cells they
        take, the line's cellsize after them (printable ASCII runs grow the line once, as the
        collect path does, other characters one at a time, as screen_write_cell does: a wide
        one's second cell first), and a map of those cells when a character is wide (else
        None); None when a character joins another or is invalid, or the text does not fit."""
        out = []
        maps: list[bytes] = []
        wide = False
        start = n
        for i, run in enumerate(_HIGH_SPLIT.split(t)):
            if not run:
                continue
            if i & 1:
                got = self._batch_chars(run)
                if got is None:
                    return None
                u, widths = got
                if widths is None:
                    if n + len(u) > cols:
                        return None
                    for _ in u:
                        n += 1
                        if n > size:
                            size = grown_size(cols, size, n)
                    maps.append(b"\1" * len(u))
                else:
                    wide = True
                    for w in widths:
                        n += w
                        if n > cols:
                            return None
                        if n > size:
                            size = grown_size(cols, size, n)
                    maps.append(b"".join(_CELL_MAPS[w] for w in widths))
                run = u
            else:
                n += len(run)
                if n > cols:
                    return None
                if n > size:
                    size = grown_size(cols, size, n)
                maps.append(b"\1" * len(run))
            out.append(run)
        return "".join(out), n - start, size, b"".join(maps) if wide else None

    @staticmethod
    def _batch_chars(raw: str) -> tuple[str, list[int] | None] | None:
        """Non-ASCII bytes (latin-1 characters) as characters when they are valid UTF-8 and
        every character takes one or two cells and joins nothing, with their widths when one
        is wide (else None); None otherwise."""
        try:
            text = raw.encode("latin-1").decode("utf-8")
        except UnicodeDecodeError:
            return None
        widths: list[int] | None = None
        for i, ch in enumerate(text):
            if ch.isascii():
                if not " " <= ch <= "~":
                    return None
                if widths is not None:
                    widths.append(1)
                continue
            w = WIDTHS.get(ch)
            if w is None:
                w = char_width(ch)
            if ch == HANGUL_FILLER or not 1 <= w <= 2:
                return None
            j = JOINS.get(ch)
            if j is None:
                j = joins(ch, w)
            if j:
                return None
            if w == 2 and widths is None:
                widths = [1] * i
            if widths is not None:
                widths.append(w)
        return text, widths

    # -- the state machine (tmux input.c) ------------------------------------------------------
    def _f_clear(self) -> None:
        self._f_interm = ""
        self._f_params = ""
        self._f_input: list[str] = []
        self._f_inlen = 0
        self._f_discard = False
        self._f_bel = False

    def _set_state(self, new: int) -> None:
        old = self._st
        if old == OSC_STRING:
            self._st = GROUND
            if not self._f_discard:
                self._osc("".join(self._f_input), self._f_bel)
        elif old == APC_STRING:
            self._st = GROUND
            if not self._f_discard:
                self._set_title("".join(self._f_input))
        elif old == RENAME_STRING:
            self._st = GROUND
            if not self._f_discard:
                name = clean_name("".join(self._f_input))
                if name is not None:
                    self._events.append(("rename", name))
        self._st = new
        if new == ESC_ENTER or new == CSI_ENTER:
            self._f_clear()
        elif new >= OSC_STRING or new == DCS_ENTER:
            self._f_clear()
            self._last = None

    def _collect(self, chunk: str) -> None:
        if self._f_discard:
            return
        if self._f_inlen + len(chunk) + 1 >= self._input_limit:
            self._f_discard = True
            return
        self._f_input.append(chunk)
        self._f_inlen += len(chunk)

    def _fsm(self, s: str, pos: int) -> int:
        n = len(s)
        while pos < n:
            st = self._st
            if st == GROUND:
                return pos
            if st >= OSC_STRING or st == DCS_IGNORE:
                m = _CTRL.search(s, pos)
                j = m.start() if m else n
                if j > pos:
                    if st <= RENAME_STRING and st != DCS_IGNORE:
                        self._collect(s[pos:j])
                    pos = j
                    if j == n:
                        return n
                c = s[pos]
                pos += 1
                if c == "\x1b":
                    self._set_state(ESC_ENTER)
                elif c == "\x18" or c == "\x1a":
                    self._c0(c)
                    self._set_state(GROUND)
                elif c == "\x07" and st == OSC_STRING:
                    self._f_bel = True
                    self._set_state(GROUND)
                continue
            if st == DCS_HANDLER:
                # tmux keeps every byte of the string (passthrough needs it) up to an ESC
                j = s.find("\x1b", pos)
                if j < 0:
                    self._collect(s[pos:])
                    return n
                if j > pos:
                    self._collect(s[pos:j])
                pos = j + 1
                self._st = DCS_ESCAPE
                continue
            c = s[pos]
            pos += 1
            if st == DCS_ESCAPE:
                if c == "\\":
                    self._st = GROUND
                    self._dcs_dispatch()
                else:  # ESC ESC is one ESC of the payload; ESC x keeps only x, as tmux
                    self._collect(c)
                    self._st = DCS_HANDLER
                continue
            o = ord(c)
            if o == 0x1B:
                self._set_state(ESC_ENTER)
                continue
            if o == 0x18 or o == 0x1A:
                self._c0(c)
                self._set_state(GROUND)
                continue
            if o < 0x20:
                if st < DCS_ENTER:
                    self._c0(c)
                continue
            if o > 0x7E:
                continue
            if st == ESC_ENTER:
                if o <= 0x2F:
                    self._f_add_interm(c)
                    self._st = ESC_INTER
                elif c == "P":
                    self._set_state(DCS_ENTER)
                elif c == "X" or c == "^":
                    self._set_state(CONSUME_ST)
                elif c == "[":
                    self._set_state(CSI_ENTER)
                elif c == "]":
                    self._set_state(OSC_STRING)
                elif c == "_":
                    self._set_state(APC_STRING)
                elif c == "k":
                    self._set_state(RENAME_STRING)
                else:
                    self._st = GROUND
                    if not self._f_discard:
                        self._esc(self._f_interm, c)
            elif st == ESC_INTER:
                if o <= 0x2F:
                    self._f_add_interm(c)
                else:
                    self._st = GROUND
                    if not self._f_discard:
                        self._esc(self._f_interm, c)
            elif st == CSI_ENTER or st == CSI_PARAM:
                if o <= 0x2F:
                    self._f_add_interm(c)
                    self._st = CSI_INTER
                elif o <= 0x3B:
                    self._f_add_param(c)
                    self._st = CSI_PARAM
                elif o <= 0x3F:
                    if st == CSI_ENTER:
                        self._f_add_interm(c)
                        self._st = CSI_PARAM
                    else:
                        self._st = CSI_IGNORE
                else:
                    self._st = GROUND
                    if not self._f_discard:
                        self._csi(self._f_interm, self._f_params, c)
            elif st == CSI_INTER:
                if o <= 0x2F:
                    self._f_add_interm(c)
                elif o <= 0x3F:
                    self._st = CSI_IGNORE
                else:
                    self._st = GROUND
                    if not self._f_discard:
                        self._csi(self._f_interm, self._f_params, c)
            elif st == CSI_IGNORE:
                if o >= 0x40:
                    self._st = GROUND
            elif st == DCS_ENTER or st == DCS_PARAM:
                if o <= 0x2F:
                    self._f_add_interm(c)
                    self._st = DCS_INTER
                elif o <= 0x39 or o == 0x3B:
                    self._f_add_param(c)
                    self._st = DCS_PARAM
                elif o == 0x3A:
                    self._st = DCS_IGNORE
                elif o <= 0x3F:
                    if st == DCS_ENTER:
                        self._f_add_interm(c)
                        self._st = DCS_PARAM
                    else:
                        self._st = DCS_IGNORE
                else:
                    self._collect(c)
                    self._st = DCS_HANDLER
            elif st == DCS_INTER:
                if o <= 0x2F:
                    self._f_add_interm(c)
                elif o <= 0x3F:
                    self._st = DCS_IGNORE
                else:
                    self._collect(c)
                    self._st = DCS_HANDLER
        return n

    def _dcs_dispatch(self) -> None:
        """input_dcs_dispatch: only ``DCS tmux; payload ST`` means anything (passthrough).

        The payload goes out as a ``("passthrough", bytes)`` event; whether it reaches the
        outer terminals (allow-passthrough) is the server's decision.
        """
        if self._f_discard:
            return
        data = "".join(self._f_input)
        if self._f_interm == "$" and data.startswith("q"):
            self._decrqss(data)
            return
        if data.startswith("tmux;"):
            self._events.append(("passthrough", data[5:].encode("latin-1")))

    def _decrqss(self, data: str) -> None:
        """DECRQSS (``DCS $ q Pt ST``): only the cursor style (``SP q``) is known; anything
        else is answered as not recognized."""
        if len(data) < 3 or data[1:3] != " q":
            self._replies += b"\033P0$r\033\\"
            return
        style = self.cursor_style
        if style:
            ps = (style + 1) // 2 * 2 - (1 if self.cursor_blinking else 0)
        else:
            ps = self.default_cursor_style if 0 <= self.default_cursor_style <= 6 else 0
        self._replies += b"\033P1$r q%d q\033\\" % ps

    def _f_add_interm(self, c: str) -> None:
        if len(self._f_interm) == 3:
            self._f_discard = True
        else:
            self._f_interm += c

    def _f_add_param(self, c: str) -> None:
        if len(self._f_params) == 63:
            self._f_discard = True
        else:
            self._f_params += c

    # -- dispatch ------------------------------------------------------------------------------
    def _c0(self, ch: str) -> None:
        self._last = None
        if self._u8 is not None:
            self._stop_utf8()
        if ch == "\r":
            self.cursor_x = 0
        elif ch == "\n":
            self._linefeed(False, self._bg)
        elif ch == "\t":
            self._tab()
        elif ch == "\b":
            self._backspace()
        elif ch == "\x0b" or ch == "\x0c":
            self._linefeed(False, self._bg)
        elif ch == "\x07":
            self._events.append(("bell", None))
        elif ch == "\x0e":
            self._cs = 1
            self._update_psid()
        elif ch == "\x0f":
            self._cs = 0
            self._update_psid()

    def _esc(self, interm: str, final: str) -> None:
        key = interm + final
        if key == "7":
            self._save_state()
        elif key == "8":
            self._restore_state()
        elif key == "M":
            self._reverse_index(self._bg)
        elif key == "D":
            self._linefeed(False, self._bg)
        elif key == "E":
            self.cursor_x = 0
            self._linefeed(False, self._bg)
        elif key == "H":
            if self.cursor_x < self.cols:
                self._tabs[self.cursor_x] = 1
        elif key == "=":
            self.keypad = True
        elif key == ">":
            self.keypad = False
        elif key == "(0":
            self._g0 = True
            self._update_psid()
        elif key == "(B":
            self._g0 = False
            self._update_psid()
        elif key == ")0":
            self._g1 = True
            self._update_psid()
        elif key == ")B":
            self._g1 = False
            self._update_psid()
        elif key == "c":
            self.palette.clear()
            self._reset_cell()
            self._screen_reset()
        elif key == "#8":
            self._alignment_test()
        elif key == "\\":
            pass
        else:
            return
        self._last = None

    def _csi(self, interm: str, params: str, final: str) -> None:
        if len(params) > 63 or len(interm) > 3:
            return
        handler = _CSI.get((final, interm))
        if handler is None:
            return
        vals = _split_params(params)
        if vals is None:
            return
        handler(self, vals, params)
        self._last = None

    # -- CSI handlers (tmux input_csi_dispatch) ------------------------------------------------
    def _csi_ich(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self._insert_character(n, self._bg)

    def _csi_cuu(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self._cursor_up(n)

    def _csi_cud(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self._cursor_down(n)

    def _csi_cuf(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self._cursor_right(n)

    def _csi_cub(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self._cursor_left(n)

    def _csi_cnl(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self.cursor_x = 0
            self._cursor_down(n)

    def _csi_cpl(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self.cursor_x = 0
            self._cursor_up(n)

    def _csi_hpa(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self._cursor_move(n - 1, -1, True)

    def _csi_vpa(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self._cursor_move(-1, n - 1, True)

    def _csi_cup(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        m = _get(v, 1, 1, 1)
        if n != -1 and m != -1:
            self._cursor_move(m - 1, n - 1, True)

    def _csi_cbt(self, v: list, p: str) -> None:
        cx = self.cursor_x
        if cx > self.cols - 1:
            cx = self.cols - 1
        n = _get(v, 0, 1, 1)
        if n == -1:
            return
        tabs = self._tabs
        while cx > 0 and n > 0:
            n -= 1
            cx -= 1
            while cx > 0 and not tabs[cx]:
                cx -= 1
        self.cursor_x = cx

    def _csi_ed(self, v: list, p: str) -> None:
        n = _get(v, 0, 0, 0)
        bg = self._bg
        if n == 0:
            self._clear_end_of_screen(bg)
        elif n == 1:
            self._clear_start_of_screen(bg)
        elif n == 2:
            self._clear_screen(bg)
        elif n == 3:
            if _get(v, 1, 0, 0) == 0:
                self.clear_history()

    def _csi_el(self, v: list, p: str) -> None:
        n = _get(v, 0, 0, 0)
        bg = self._bg
        if n == 0:
            self._clear_end_of_line(bg)
        elif n == 1:
            self._clear_start_of_line(bg)
        elif n == 2:
            self._clear_line(bg)

    def _csi_il(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self._insert_line(n, self._bg)

    def _csi_dl(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self._delete_line(n, self._bg)

    def _csi_dch(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self._delete_character(n, self._bg)

    def _csi_ech(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            self._clear_character(n, self._bg)

    def _csi_su(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            lines = min(n, self.scroll_region_lower - self.scroll_region_upper + 1)
            for _ in range(lines):
                self._scroll_up(self._bg)

    def _csi_sd(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n != -1:
            lines = min(n, self.scroll_region_lower - self.scroll_region_upper + 1)
            for _ in range(lines):
                self._scroll_down(self._bg)

    def _csi_rep(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        if n == -1:
            return
        m = self.cols - self.cursor_x
        if n > m:
            n = m
        last = self._last
        if last is None or n <= 0:
            return
        if last < "\x80":
            self._put_ascii(last * n)
        else:  # tmux 3.7b repeats any character, with the ACS attribute when G0/G1 is ACS
            self._put_uni(last * n, self._psid)

    def _csi_da(self, v: list, p: str) -> None:
        if _get(v, 0, 0, 0) == 0:
            self._replies += b"\033[?1;2c"

    def _csi_da2(self, v: list, p: str) -> None:
        if _get(v, 0, 0, 0) == 0:
            self._replies += b"\033[>84;0;0c"

    def _csi_xda(self, v: list, p: str) -> None:
        if _get(v, 0, 0, 0) == 0:
            self._replies += f"\033P>|tmux {TMUX_VERSION}\033\\".encode()

    def _csi_dsr(self, v: list, p: str) -> None:
        n = _get(v, 0, 0, 0)
        if n == 5:
            self._replies += b"\033[0n"
        elif n == 6:
            self._replies += f"\033[{self.cursor_y + 1};{self.cursor_x + 1}R".encode()

    def _csi_dsr_private(self, v: list, p: str) -> None:
        """CSI ? 996 n: the pane's theme (dark or light), answered at once."""
        if _get(v, 0, 0, 0) == 996:
            self.report_theme()

    def _theme(self) -> int:
        return self.theme_query() if self.theme_query is not None else 0

    def report_theme(self) -> None:
        """input_report_current_theme: ``CSI ? 997 ; 1 n`` dark, ``; 2 n`` light, nothing
        when unknown."""
        theme = self.last_theme = self._theme()
        self.theme_changed = False
        if theme in (1, 2):
            self._replies += b"\033[?997;%dn" % theme

    def send_theme_update(self) -> bytes:
        """window_pane_send_theme_update: with mode 2031 on, the report of a theme that
        changed since the last one (the server calls it when a pane's colours or its clients'
        themes may have changed); b"" otherwise."""
        if not self.theme_updates or not self.theme_changed:
            return b""
        theme = self._theme()
        if theme == self.last_theme:
            return b""
        self.last_theme = theme
        self.theme_changed = False
        return b"\033[?997;%dn" % theme if theme in (1, 2) else b""

    def _csi_decrqm(self, v: list, p: str) -> None:
        """CSI Ps $ p: DECRQM for the ANSI modes tmux knows (only IRM)."""
        m = _get(v, 0, 0, 0)
        if m > 0:
            n = (1 if self.insert_mode else 2) if m == 4 else 0
            self._replies += b"\033[%d;%d$y" % (m, n)

    def _csi_decrqm_private(self, v: list, p: str) -> None:
        """CSI ? Ps $ p: DECRQM for the DEC private modes tmux 3.7b answers."""
        m = _get(v, 0, 0, 0)
        if m <= 0:
            return
        flags = {
            1: self.keypad_cursor, 6: self.origin_mode, 7: self.wrap_mode,
            25: self.cursor_visible, 47: self.alternate_on, 1047: self.alternate_on,
            1049: self.alternate_on, 1000: self.mouse_standard, 1002: self.mouse_button,
            1003: self.mouse_any, 1004: self.focus_events, 1005: self.mouse_utf8,
            1006: self.mouse_sgr, 2004: self.bracketed_paste, 2026: self.sync,
            2031: self.theme_updates,
        }
        if m in flags:
            n = 1 if flags[m] else 2
        elif m == 3:
            n = 4  # DECCOLM: always reset
        elif m == 12:
            if self.cursor_style != 0 or self.cursor_blinking_set:
                n = 1 if self.cursor_blinking else 2
            else:
                n = 1 if self.default_cursor_style in (1, 3, 5) else 2
        else:
            n = 0
        self._replies += b"\033[?%d;%d$y" % (m, n)

    def _csi_tbc(self, v: list, p: str) -> None:
        n = _get(v, 0, 0, 0)
        if n == 0:
            if self.cursor_x < self.cols:
                self._tabs[self.cursor_x] = 0
        elif n == 3:
            self._tabs = bytearray(self.cols)

    def _csi_decstbm(self, v: list, p: str) -> None:
        n = _get(v, 0, 1, 1)
        m = _get(v, 1, 1, self.rows)
        if n != -1 and m != -1:
            self._scroll_region(n - 1, m - 1)

    def _csi_scp(self, v: list, p: str) -> None:
        self._save_state()

    def _csi_rcp(self, v: list, p: str) -> None:
        self._restore_state()

    def _csi_sgr(self, v: list, p: str) -> None:
        self._sgr(p)

    def _csi_modset(self, v: list, p: str) -> None:
        """CSI > 4 ; m m: the application's extended keys mode, unless extended-keys is off
        (with ``always`` it stays at least in mode 1)."""
        if _get(v, 0, 0, 0) != 4:
            return
        m = _get(v, 1, 0, 0)
        ek = self.extended_keys_option
        if ek == 0:
            return
        self.extended_keys = self.extended_keys_2 = False
        if m == 2:
            self.extended_keys_2 = True
        elif m == 1 or ek == 2:
            self.extended_keys = True

    def _csi_modoff(self, v: list, p: str) -> None:
        if _get(v, 0, 0, 0) == 4:
            self.extended_keys_2 = False
            self.extended_keys = self.extended_keys_option == 2

    def _csi_decscusr(self, v: list, p: str) -> None:
        n = _get(v, 0, 0, 0)
        if n == -1:
            return
        if n == 0:
            self.cursor_style = 0
            self.cursor_blinking_set = False  # back to the default blinking state
        elif 1 <= n <= 6:
            self.cursor_style = n
            self.cursor_blinking = bool(n & 1)

    def _csi_sm(self, v: list, p: str) -> None:
        for i in range(len(v)):
            n = _get(v, i, 0, -1)
            if n == 4:
                self.insert_mode = True
                self._update_simple()
            elif n == 34:
                self.cursor_very_visible = False

    def _csi_rm(self, v: list, p: str) -> None:
        for i in range(len(v)):
            n = _get(v, i, 0, -1)
            if n == 4:
                self.insert_mode = False
                self._update_simple()
            elif n == 34:
                self.cursor_very_visible = True

    def _csi_sm_private(self, v: list, p: str) -> None:
        for i in range(len(v)):
            n = _get(v, i, 0, -1)
            if n == 1:
                self.keypad_cursor = True
            elif n == 3:
                self._cursor_move(0, 0, True)
                self._clear_screen(self._bg)
            elif n == 6:
                self.origin_mode = True
                self._cursor_move(0, 0, True)
            elif n == 7:
                self.wrap_mode = True
                self._update_simple()
            elif n == 12:
                self.cursor_blinking = True
                self.cursor_blinking_set = True
            elif n == 25:
                self.cursor_visible = True
            elif n == 1000 or n == 1002 or n == 1003:
                self.mouse_standard = n == 1000
                self.mouse_button = n == 1002
                self.mouse_any = n == 1003
            elif n == 1004:
                self.focus_events = True
            elif n == 1005:
                self.mouse_utf8 = True
            elif n == 1006:
                self.mouse_sgr = True
            elif n == 47 or n == 1047:
                self._alternate_on(False)
            elif n == 1049:
                self._alternate_on(True)
            elif n == 2004:
                self.bracketed_paste = True
            elif n == 2031:
                self.theme_updates = True
                self.last_theme = self._theme()  # reports start from the theme as it is now
                self.theme_changed = False
            elif n == 2026:
                self._sync_since = time.monotonic()
                self._events.append(("sync", True))

    def _csi_rm_private(self, v: list, p: str) -> None:
        for i in range(len(v)):
            n = _get(v, i, 0, -1)
            if n == 1:
                self.keypad_cursor = False
            elif n == 3:
                self._cursor_move(0, 0, True)
                self._clear_screen(self._bg)
            elif n == 6:
                self.origin_mode = False
                self._cursor_move(0, 0, True)
            elif n == 7:
                self.wrap_mode = False
                self._update_simple()
            elif n == 12:
                self.cursor_blinking = False
                self.cursor_blinking_set = True
            elif n == 25:
                self.cursor_visible = False
            elif 1000 <= n <= 1003:
                self.mouse_standard = self.mouse_button = self.mouse_any = False
            elif n == 1004:
                self.focus_events = False
            elif n == 1005:
                self.mouse_utf8 = False
            elif n == 1006:
                self.mouse_sgr = False
            elif n == 47 or n == 1047:
                self._alternate_off(False)
            elif n == 1049:
                self._alternate_off(True)
            elif n == 2004:
                self.bracketed_paste = False
            elif n == 2026:
                self._sync_since = None
                self._events.append(("sync", False))  # the end of an update redraws the pane
            elif n == 2031:
                self.theme_updates = False

    def _csi_winops(self, v: list, p: str) -> None:
        m = 0
        while True:
            n = _get(v, m, 0, -1)
            if n == -1:
                return
            if n in (3, 4, 8):
                m += 1
                if _get(v, m, 0, -1) == -1:
                    return
                m += 1
                if _get(v, m, 0, -1) == -1:
                    return
            elif n in (9, 10):
                m += 1
                if _get(v, m, 0, -1) == -1:
                    return
            elif n == 22:
                m += 1
                k = _get(v, m, 0, -1)
                if k == -1:
                    return
                if k in (0, 2):
                    if len(self._titles) >= 10:  # tmux 3.7b keeps ten, dropping the oldest
                        del self._titles[0]
                    self._titles.append(self.title)
            elif n == 23:
                m += 1
                k = _get(v, m, 0, -1)
                if k == -1:
                    return
                if k in (0, 2) and self._titles:
                    self.title = self._titles.pop()
                    self._events.append(("title", self.title))
            elif n in (14, 15):
                xp, yp = self.cell_pixels
                self._replies += b"\033[%d;%d;%dt" % (n - 10, self.rows * yp, self.cols * xp)
            elif n == 16:
                xp, yp = self.cell_pixels
                self._replies += b"\033[6;%d;%dt" % (yp, xp)
            elif n in (18, 19):
                self._replies += b"\033[%d;%d;%dt" % (n - 10, self.rows, self.cols)
            m += 1

    # -- SGR -----------------------------------------------------------------------------------
    def _sgr(self, params: str) -> None:
        if params == "0" or not params:  # the reset: the commonest, the same from any style
            sid = 0  # DEFAULT_STYLE's id, kept by _compact_styles
            if params and self._links[self._sid]:  # SGR 0 keeps a hyperlink, CSI m does not
                sid = self._intern(DEFAULT_STYLE, self._links[self._sid])
        else:
            if len(params) > 63:
                return
            key = (self._sid, params)
            cache = self._sgr_cache
            sid = cache.get(key)
            if sid is None:
                if len(cache) > 16384:
                    cache.clear()
                # Truecolour alone ("38;2;R;G;B", "48;2;R;G;B") is what syntax highlighters
                # send per token: read here, without the general walk below.
                if params[1:5] == "8;2;" and (params[0] == "3" or params[0] == "4") \
                        and params.count(";") == 4:
                    r, g, b = params[5:].split(";")
                    try:
                        ri, gi, bi = int(r), int(g), int(b)
                    except ValueError:  # empty or colon forms: the general walk below
                        ri = 256
                    if ri <= 255 and gi <= 255 and bi <= 255:
                        c = COLOUR_FLAG_RGB | (ri << 16) | (gi << 8) | bi
                        if params[0] == "3":
                            self._fg = c
                        else:
                            self._bg = c
                        link = self._links[self._sid]
                        style = (self._attr, self._fg, self._bg, self._us)
                        sid = self._style_ids.get((style, link) if link else style)
                        if sid is None:
                            sid = self._intern(style, link)
                        cache[key] = self._sid = sid
                        if self._g1 if self._cs else self._g0:
                            self._update_psid()
                        else:
                            self._psid = sid
                        return
                vals = _split_params(params)
                if vals is None:
                    return
                self._sgr_apply(vals)
                cache[key] = self._sid
                return
        self._attr, self._fg, self._bg, self._us = self._styles[sid]
        self._sid = sid
        if self._g1 if self._cs else self._g0:
            self._update_psid()
        else:
            self._psid = sid

    def _sgr_apply(self, vals: list) -> None:
        attr, fg, bg, us = self._attr, self._fg, self._bg, self._us
        link = -1
        if not vals:  # CSI m: everything reset, the hyperlink too
            attr, fg, bg, us = DEFAULT_STYLE
            link = 0
        i = 0
        nv = len(vals)
        while i < nv:
            v = vals[i]
            if type(v) is str:
                attr, fg, bg, us = self._sgr_colon(v, attr, fg, bg, us)
                i += 1
                continue
            n = 0 if v is None else v
            if n == 38 or n == 48 or n == 58:
                i += 1
                t = _get(vals, i, 0, -1)
                if t == 2:
                    r = _get(vals, i + 1, 0, -1)
                    g = _get(vals, i + 2, 0, -1)
                    b = _get(vals, i + 3, 0, -1)
                    if 0 <= r <= 255 and 0 <= g <= 255 and 0 <= b <= 255:
                        c = colour_rgb(r, g, b)
                        if n == 38:
                            fg = c
                        elif n == 48:
                            bg = c
                        else:
                            us = c
                        i += 3
                elif t == 5:
                    c = _get(vals, i + 1, 0, -1)
                    if c == -1 or c > 255:
                        if n == 38:
                            fg = 8
                        elif n == 48:
                            bg = 8
                    elif n == 38:
                        fg = c | COLOUR_FLAG_256
                    elif n == 48:
                        bg = c | COLOUR_FLAG_256
                    else:
                        us = c | COLOUR_FLAG_256
                    i += 1
                i += 1
                continue
            if n == 0:
                attr, fg, bg, us = DEFAULT_STYLE
            elif 30 <= n <= 37:
                fg = n - 30
            elif 40 <= n <= 47:
                bg = n - 40
            elif n == 1:
                attr |= ATTR_BRIGHT
            elif n == 2:
                attr |= ATTR_DIM
            elif n == 3:
                attr |= ATTR_ITALICS
            elif n == 4:
                attr = (attr & ~ATTR_ALL_UNDERSCORE) | ATTR_UNDERSCORE
            elif n == 5 or n == 6:
                attr |= ATTR_BLINK
            elif n == 7:
                attr |= ATTR_REVERSE
            elif n == 8:
                attr |= ATTR_HIDDEN
            elif n == 9:
                attr |= ATTR_STRIKETHROUGH
            elif n == 21:
                attr = (attr & ~ATTR_ALL_UNDERSCORE) | ATTR_UNDERSCORE_2
            elif n == 22:
                attr &= ~(ATTR_BRIGHT | ATTR_DIM)
            elif n == 23:
                attr &= ~ATTR_ITALICS
            elif n == 24:
                attr &= ~ATTR_ALL_UNDERSCORE
            elif n == 25:
                attr &= ~ATTR_BLINK
            elif n == 27:
                attr &= ~ATTR_REVERSE
            elif n == 28:
                attr &= ~ATTR_HIDDEN
            elif n == 29:
                attr &= ~ATTR_STRIKETHROUGH
            elif n == 39:
                fg = 8
            elif n == 49:
                bg = 8
            elif n == 53:
                attr |= ATTR_OVERLINE
            elif n == 55:
                attr &= ~ATTR_OVERLINE
            elif n == 59:
                us = 0
            elif 90 <= n <= 97:
                fg = n
            elif 100 <= n <= 107:
                bg = n - 10
            i += 1
        self._attr, self._fg, self._bg, self._us = attr, fg, bg, us
        self._update_psid(link)

    def _sgr_colon(self, s: str, attr: int, fg: int, bg: int, us: int) -> tuple:
        p = [-1] * 8
        n = 0
        for out in s.split(":"):
            if out:
                v = int(out)
                if v > INT_MAX:
                    return attr, fg, bg, us
                p[n] = v
            n += 1
            if n == 8:
                return attr, fg, bg, us
        if n == 0:
            return attr, fg, bg, us
        if p[0] == 4:
            if n != 2:
                return attr, fg, bg, us
            style = {
                0: 0,
                1: ATTR_UNDERSCORE,
                2: ATTR_UNDERSCORE_2,
                3: ATTR_UNDERSCORE_3,
                4: ATTR_UNDERSCORE_4,
                5: ATTR_UNDERSCORE_5,
            }.get(p[1])
            if style is not None:
                attr = (attr & ~ATTR_ALL_UNDERSCORE) | style
            return attr, fg, bg, us
        if n < 2 or p[0] not in (38, 48, 58):
            return attr, fg, bg, us
        if p[1] == 2:
            if n < 3:
                return attr, fg, bg, us
            i = 2 if n == 5 else 3
            if n < i + 3:
                return attr, fg, bg, us
            r, g, b = p[i], p[i + 1], p[i + 2]
            if 0 <= r <= 255 and 0 <= g <= 255 and 0 <= b <= 255:
                c = colour_rgb(r, g, b)
                if p[0] == 38:
                    fg = c
                elif p[0] == 48:
                    bg = c
                else:
                    us = c
        elif p[1] == 5:
            if n < 3:
                return attr, fg, bg, us
            c = p[2]
            if c == -1 or c > 255:
                if p[0] == 38:
                    fg = 8
                elif p[0] == 48:
                    bg = 8
            elif p[0] == 38:
                fg = c | COLOUR_FLAG_256
            elif p[0] == 48:
                bg = c | COLOUR_FLAG_256
            else:
                us = c | COLOUR_FLAG_256
        return attr, fg, bg, us

    # -- OSC -----------------------------------------------------------------------------------
    def _osc(self, body: str, bel: bool) -> None:
        if not body or not ("0" <= body[0] <= "9"):
            return
        i = 0
        option = 0
        while i < len(body) and "0" <= body[i] <= "9":
            option = option * 10 + ord(body[i]) - 48
            i += 1
        if i < len(body):
            if body[i] != ";":  # tmux 3.7b: digits then anything but ; is no OSC at all
                return
            i += 1
        p = body[i:]
        if option == 0 or option == 2:
            self._set_title(p)
        elif option == 7:
            path = clean_name(p)
            if path is not None:
                self.path = path
                self._events.append(("path", self.path))
        elif option == 8:
            self._osc_8(p)
        elif option == 9:
            self._osc_9(p)
        elif option == 133:
            self._osc_133(p)
        elif option == 4:
            self._osc_4(p, bel)
        elif option == 104:
            self._osc_104(p)
        elif option == 10 or option == 11:
            if p == "?":
                fg, bg = self.default_fg, self.default_bg
                if self.default_colours is not None:
                    fg, bg = self.default_colours(fg, bg)
                c = fg if option == 10 else bg
                if c in (8, 9):  # default: what a client's terminal said its colours are
                    got = self.client_colours() if self.client_colours is not None else (-1, -1)
                    c = got[0] if option == 10 else got[1]
                self._colour_reply(option, c, bel)
            else:
                c = _parse_colour(p)
                if c != -1:
                    if option == 10:
                        self.default_fg = c
                    else:
                        self.default_bg = c
                        self.theme_changed = True
        elif option == 110 and not p:
            self.default_fg = 8
        elif option == 111 and not p:
            self.default_bg = 8
            self.theme_changed = True
        elif option == 12:
            if p == "?":
                c = self.cursor_colour
                self._colour_reply(12, c if c != -1 else self.default_cursor_colour, bel)
            else:
                c = _parse_colour(p)
                if c != -1:
                    self.cursor_colour = c
        elif option == 112 and not p:
            self.cursor_colour = -1
        elif option == 52:
            which, sep, data = p.partition(";")
            if not sep or not data:
                return
            if data == "?":
                # answered from the newest buffer (get-clipboard buffer); the callback says
                # None when set-clipboard or get-clipboard forbid it or there is no buffer
                if self.clipboard_query is not None:
                    buf = self.clipboard_query()
                    if buf is not None:
                        clip = next((c for c in which if c in "cpqs01234567"), "")
                        end = b"\007" if bel else b"\033\\"
                        self._replies += (b"\033]52;" + clip.encode() + b";"
                                          + base64.b64encode(buf) + end)
                    elif getattr(self, "terminal_request", None) is not None:
                        # get-clipboard request or both: a client's terminal is asked
                        self.terminal_request("clipboard", 0, bel)
            else:
                self._events.append(("clipboard", p))

    def _set_title(self, raw: str) -> None:
        if not self.allow_set_title:
            return
        title = clean_name(raw)
        if title is not None:
            self.title = title
            self._events.append(("title", title))

    def _osc_8(self, p: str) -> None:
        """input_osc_8: ``params;URI`` starts a hyperlink (``id=`` shares it), an empty URI
        ends it. The link becomes part of the style id of the cells written next."""
        link_id = None
        start = 0
        while True:
            j1, j2 = p.find(":", start), p.find(";", start)
            end = j2 if j1 < 0 or (0 <= j2 < j1) else j1
            if end < 0:
                return  # no ; at all: not a hyperlink
            if end - start >= 4 and p.startswith("id=", start):
                if link_id is not None:
                    return
                link_id = p[start + 3:end]
            if p[end] == ";":
                break
            start = end + 1
        uri = p[end + 1:]
        link = self.hyperlinks.put(uri, link_id) if uri else 0
        self._update_psid(link)

    def _osc_9(self, p: str) -> None:
        """input_osc_9: ``4;state[;progress]`` sets the progress bar (pane_pb_state and
        pane_pb_progress); anything else after 9 is ignored."""
        if not p.startswith("4"):
            return
        q = p[1:]
        if q in ("", ";") or q[0] != ";":
            return
        q = q[1:]
        if not q or not "0" <= q[0] <= "4":
            return
        state = ord(q[0]) - 48
        q = q[1:]
        if q in ("", ";"):
            self._set_progress(state, -1)
            return
        if q[0] != ";":
            return
        digits = q[1:]
        progress = 0
        k = 0
        while k < len(digits) and "0" <= digits[k] <= "9":
            if progress > 100:
                return
            progress = progress * 10 + ord(digits[k]) - 48
            k += 1
        if k != len(digits) or progress > 100:
            return
        self._set_progress(state, progress)

    def _set_progress(self, state: int, progress: int) -> None:
        """screen_set_progress_bar: the progress is kept when not given or indeterminate."""
        self.progress_state = state
        if progress >= 0 and state != PROGRESS_INDETERMINATE:
            self.progress = progress
        self._events.append(("progress", (self.progress_state, self.progress)))

    def _osc_133(self, p: str) -> None:
        """input_osc_133: ``A`` marks the cursor's line as a prompt start, ``C`` as the start
        of a command's output (copy mode's previous-prompt / next-prompt find them)."""
        row = self._rows[self.cursor_y]
        kind = p[:1]
        if kind == "A":
            row.flags |= LINE_START_PROMPT
        elif kind == "C":
            row.flags |= LINE_START_OUTPUT
        # The development tree's marks, columns and status beside 3.7b's bits (grid.osc133_*),
        # and the event the pane's shell integration reads (hmux_core/shell.py).
        mark = _OSC133_MARKS.get(kind)
        if mark is not None:
            bit, field = mark
            if kind == "P" and re.search(r";k=s(;|$)", p):
                bit = OSC133_SECOND_PROMPT
            row.flags = osc133_mark(row.flags, bit, field, self.cursor_x, reset=kind in "AN")
            if kind == "D":
                row.flags = osc133_mark(row.flags, bit, "status", osc133_exit_status(p))
            self._events.append(("osc133", p))

    def _colour_reply(self, n: int, c: int, bel: bool, idx: int = -1) -> None:
        """input_osc_colour_reply: OSC 4 answers name their index (tmux 3.7b)."""
        if c < 0:
            return
        rgb = _force_rgb(c)
        if rgb == -1:
            return
        r, g, b = (rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF
        end = "\007" if bel else "\033\\"
        which = f"{n};{idx}" if n == 4 else f"{n}"
        self._replies += (
            f"\033]{which};rgb:{r:02x}{r:02x}/{g:02x}{g:02x}/{b:02x}{b:02x}{end}".encode())

    def _osc_4(self, p: str, bel: bool) -> None:
        s = p
        while s:
            m = re.match(r"\s*[+-]?\d+", s)
            if not m or m.end() >= len(s) or s[m.end()] != ";":
                return
            idx = int(m.group(0))
            if idx < 0 or idx >= 256:
                return
            rest = s[m.end() + 1 :]
            if ";" in rest:
                spec, s = rest.split(";", 1)
                nxt: str | None = s
            else:
                spec, nxt = rest, None
            if spec == "?":
                # tmux 3.7b asks for the entry itself (idx | COLOUR_FLAG_256); an entry neither
                # the pane nor pane-colours set is asked of a client's terminal, which the
                # server does (no client: no answer)
                c = self.palette.get(idx, self.default_palette.get(idx, -1))
                if c != -1:
                    self._colour_reply(4, c, bel, idx)
                elif getattr(self, "terminal_request", None) is not None:
                    self.terminal_request("palette", idx, bel)  # a client's terminal is asked
                if nxt is None:
                    return
                s = nxt
                continue
            c = _parse_colour(spec)
            if c != -1:
                self.palette[idx] = c
            if nxt is None:
                return
            s = nxt

    def _osc_104(self, p: str) -> None:
        if not p:
            self.palette.clear()
            return
        for part in p.split(";"):
            if not part:
                continue
            try:
                idx = int(part)
            except ValueError:
                return
            if idx < 0 or idx >= 256:
                return
            self.palette.pop(idx, None)

    # -- writing cells (screen_write_collect_add / screen_write_cell) ----------------------------
    def _expand(self, row: Row, needed: int) -> None:
        """grid_expand_line: grow cellsize by tmux's steps."""
        if needed <= row.size:
            return
        sx = self.cols
        if needed < sx // 4:
            needed = sx // 4
        elif needed < sx // 2:
            needed = sx // 2
        elif sx > needed:
            needed = sx
        row.size = needed
        if len(row.chars) < needed:
            k = needed - len(row.chars)
            row.chars.extend([" "] * k)
            row.styles.extend([0] * k)

    def _set_cell(self, row: Row, x: int, c: str, sid: int) -> None:
        """grid_set_cell."""
        if x + 1 > row.size:
            self._expand(row, x + 1)
        row.chars[x] = c
        row.styles[x] = sid
        if x + 1 > row.used:
            row.used = x + 1
        if sid:
            row.styled = True
        if len(c) != 1:
            row.wide = True

    def _cell(self, row: Row, x: int) -> str:
        return row.chars[x] if x < row.size else " "

    def _put_ascii(self, t: str) -> None:
        """Printable ASCII: tmux's collect path when it applies, else cell by cell."""
        sid = self._psid
        if not self._simple:
            for ch in t:
                self._put_cell(ch, 1, sid)
            return
        pos = 0
        n = len(t)
        rows = self._rows
        while pos < n:
            cols = self.cols
            cx = self.cursor_x
            if cx > cols - 1:
                self._linefeed(True, 8)
                cx = self.cursor_x = 0
            cy = self.cursor_y
            row = rows[cy]
            k = n - pos
            if k > cols - cx:
                k = cols - cx
            e = cx + k
            if row.wide and cx != 0:
                self._fix_before(row, cx)
            row.chars[cx:e] = t[pos : pos + k]
            if sid or row.styled:
                row.styles[cx:e] = [sid] * k
                if sid:
                    row.styled = True
            if e > row.used:
                row.used = e
                if e > row.size:
                    self._expand(row, e)
            if row.wide:
                self._fix_after(row, e)
            self.cursor_x = e
            self._dirty.add(cy)
            pos += k

    def _fix_before(self, row: Row, cx: int) -> None:
        """screen_write_collect_end: text starting inside a wide character (or a tab) clears
        the rest of it, back to the character itself."""
        xx = cx
        while xx > 0 and self._cell(row, xx) == "":
            self._set_cell(row, xx, " ", 0)
            xx -= 1
        if xx != cx:
            # padding was cleared: the cell it belonged to was wide (or is stray padding)
            self._set_cell(row, xx, " ", 0)

    def _fix_after(self, row: Row, e: int) -> None:
        for xx in range(e, self.cols):
            if self._cell(row, xx) != "":
                break
            self._set_cell(row, xx, " ", 0)

    def _stop_utf8(self) -> None:
        """input_stop_utf8: an unfinished UTF-8 character becomes U+FFFD (tmux 3.7b)."""
        self._u8 = None
        self._put_uni("\ufffd", self._sid)

    def _put_bytes_uni(self, t: str) -> None:
        """Non-ASCII bytes (as latin-1 chars) in the ground state: tmux's input_top_bit_set.

        A byte that cannot start a character, a sequence broken by a byte that does not
        continue it, or one that is not a character at all (overlong, surrogate) is written
        as U+FFFD, as tmux 3.7b does.
        """
        raw = t.encode("latin-1")
        if self._u8 is None:
            try:
                u = raw.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                self._put_uni(u, self._sid)
                self._last = u[-1]
                return
        out = []
        ud = self._u8
        size = self._u8_size
        bad = self._u8_bad
        last = None
        for b in raw:
            last = None
            if ud is None:
                if 0xC2 <= b <= 0xDF:
                    size = 2
                elif 0xE0 <= b <= 0xEF:
                    size = 3
                elif 0xF0 <= b <= 0xF4:
                    size = 4
                else:
                    out.append("\ufffd")
                    continue
                ud = bytearray((b,))
                bad = False
                continue
            if (b & 0xC0) != 0x80:
                bad = True
            ud.append(b)
            if len(ud) < size:
                continue
            seq = bytes(ud)
            ud = None
            if bad:
                out.append("\ufffd")
                continue
            try:
                ch = seq.decode("utf-8")
            except UnicodeDecodeError:
                ch = "\ufffd"
            else:
                last = ch
            out.append(ch)
        self._u8 = ud
        self._u8_size = size
        self._u8_bad = bad
        if out:
            self._put_uni("".join(out), self._sid)
        self._last = last

    def _put_uni(self, t: str, sid: int) -> None:
        """Characters through screen_write_cell: combining first, then the cell."""
        rows = self._rows
        dirty = self._dirty
        for ch in t:
            w = WIDTHS.get(ch)
            if w is None:
                w = char_width(ch)
                if w < 0:
                    continue
            if ch == HANGUL_FILLER:
                continue  # tmux 3.7b ignores it entirely
            cx = self.cursor_x
            if cx != 0:
                j = JOINS.get(ch)
                if j is None:
                    j = joins(ch, w)
                if not j:  # joins nothing by itself: only what ends in a ZWJ takes it
                    prev = rows[self.cursor_y].chars
                    p = prev[cx - 1] if cx - 1 < len(prev) else " "
                    if p == "" and cx != 1:
                        p = prev[cx - 2]
                    j = p[-1:] == ZWJ
                if j:
                    got = self._combine(ch, w)
                    if got or got is None:  # joined, or zero width with nothing to join
                        continue
            elif w == 0 or ch == ZWJ or ch == VS16:
                continue
            if not (self.wrap_mode and not self.insert_mode):
                self._put_cell(ch, w, sid)
                continue
            # Inline screen_write_cell for the usual case: wrap on, insert off, and nothing
            # wide being half overwritten.
            sx = self.cols
            cx = self.cursor_x
            if w > sx or w == 0:
                self._put_cell(ch, w, sid)
                continue
            if cx > sx - w:
                self._linefeed(True, 8)
                cx = self.cursor_x = 0
            cy = self.cursor_y
            row = rows[cy]
            chars = row.chars
            size = row.size
            if row.wide:
                cur = chars[cx] if cx < size else " "
                nxt = chars[cx + w] if cx + w < size else " "
                if cur == "" or nxt == "" or cur[0] == "\t" or len(cur) != 1:
                    self._put_cell(ch, w, sid)
                    continue
            e = cx + w
            chars[cx] = ch
            row.styles[cx] = sid
            if w == 2:
                chars[cx + 1] = ""
                row.styles[cx + 1] = 0
                row.wide = True
            if sid:
                row.styled = True
            if e > row.used:
                row.used = e
                if e > size:
                    self._expand(row, e)
            self.cursor_x = e
            dirty.add(cy)

    def _cell_width_at(self, row: Row, x: int) -> int:
        """The width of the cell at ``x``: itself and the padding cells after it."""
        chars = row.chars
        size = row.size
        if x >= size:
            return 1
        if chars[x] == "":
            return 0
        n = 1
        while x + n < size and chars[x + n] == "":
            n += 1
        return n

    def _combine(self, ch: str, w: int) -> bool | None:
        """screen_write_combine (tmux 3.7b): join ``ch`` to the character before the cursor
        when it is zero width, a variation selector or ZWJ, follows a ZWJ, is a skin tone or
        the second regional indicator of a flag, or composes Hangul jamo.

        True: joined (or dropped as tmux drops it); None: a zero-width character with nothing
        to join (dropped); False: write it as a cell of its own.
        """
        zero = ch == ZWJ or ch == VS16 or w == 0
        force_wide = ch == VS16 and VS16_ALWAYS_WIDE[0]
        cx = self.cursor_x
        cy = self.cursor_y
        row = self._rows[cy]
        n = 1
        last = self._cell(row, cx - 1)
        if cx != 1 and last == "":
            n = 2
            last = self._cell(row, cx - 2)
        if last == "" or n != self._cell_width_at(row, cx - n):
            return None if zero else False
        if not zero:
            state = hangul_state(last, ch)
            if state == JAMO_NOT_COMPOSABLE:
                return True
            if state == JAMO_CHOSEONG:
                return False
            if state == JAMO_NOT_JAMO:
                if should_combine(last, ch) or should_combine(ch, last):
                    force_wide = True
                elif not last.endswith(ZWJ):
                    return False
        if len(last.encode("utf-8", "surrogatepass")) + len(ch.encode("utf-8")) > 32:
            return False
        x = cx - n
        if last[0] == "\t":
            return True  # a tab keeps only its width (tmux stores no data for it)
        sid = row.styles[x] if x < row.size else 0
        self._set_cell(row, x, last + ch, sid)
        row.wide = True
        if n == 1 and force_wide:
            self._set_cell(row, cx, "", 0)
            # the cursor moves past the now wide cell, unless that reaches past the right edge
            # (tmux then finds the cell not wholly visible and leaves the cursor)
            if cx + 1 <= self.cols:
                self.cursor_x = cx + 1
        self._dirty.add(cy)
        return True

    def _put_cell(self, ch: str, w: int, sid: int) -> None:
        """screen_write_cell for one character (or a tab) of width ``w``."""
        sx = self.cols
        cx = self.cursor_x
        wrap = self.wrap_mode
        lim = (sx - w) % U32  # C unsigned: a glyph wider than the pane never "wraps"
        if not wrap and w > 1 and (w > sx or (cx != sx and cx > lim)):
            return
        skip = True
        if self.insert_mode:
            self._insert_cells(cx, self.cursor_y, w, 8)
            skip = False
        if wrap and cx > lim:
            self._linefeed(True, 8)
            cx = self.cursor_x = 0
        if cx > lim:
            return
        cy = self.cursor_y
        row = self._rows[cy]
        if row.wide and self._overwrite(row, cx, w):
            skip = False
        for xx in range(cx + 1, cx + w):
            self._set_cell(row, xx, "", 0)
            skip = False
        if skip and cx >= row.size and ch == " " and self._styles[sid][:3] == (0, 8, 8) \
                and not self._links[sid]:
            pass  # tmux does not store a default blank beyond the line's allocated cells
        else:
            self._set_cell(row, cx, ch, sid)
            if w != 1 or len(ch) != 1 or ch == "\t":
                row.wide = True
        last = 0 if wrap else 1
        nx = cx + w if cx <= (sx - last - w) % U32 else sx - last
        self.cursor_x = nx if nx <= sx else sx - 1
        self._dirty.add(cy)

    def _overwrite(self, row: Row, cx: int, w: int) -> bool:
        """screen_write_overwrite: clear what is left of wide characters (and tabs) being
        overwritten. The rest of a tab whose first cell is overwritten stays as one-cell tabs
        in the tab's style, as tmux 3.7b leaves it."""
        cur = self._cell(row, cx)
        done = False
        if cur == "":
            xx = cx + 1
            while True:
                xx -= 1
                if xx <= 0:
                    break
                if self._cell(row, xx) != "":
                    break
                self._set_cell(row, xx, " ", 0)
            self._set_cell(row, xx, " ", 0)
            done = True
        if w != 1 or cur == "" or self._cell_width_at(row, cx) != 1:
            tab = cur[:1] == "\t"
            tsid = row.styles[cx] if tab and cx < row.size else 0
            xx = cx + w - 1
            while True:
                xx += 1
                if xx >= self.cols:
                    break
                if self._cell(row, xx) != "":
                    break
                if tab:
                    self._set_cell(row, xx, "\t", tsid)
                else:
                    self._set_cell(row, xx, " ", 0)
                done = True
        return done

    # -- grid operations (grid.c / grid-view.c in visible coordinates) --------------------------
    def _hist_on(self) -> bool:
        return self.history_limit > 0 and self._alt is None

    def _push_hist(self, row: Row) -> None:
        line = compact(row)
        line.time = _now[0]  # grid_scroll_history: gl->time = current_time
        self._hist.append(line)
        self._hist_bytes += line.nbytes()
        self.history_added += 1

    def _collect_history(self) -> None:
        """grid_collect_history: at the limit, drop the oldest 10%."""
        hist = self._hist
        if self._hist_bytes > self.history_budget:
            # Over the byte budget: drop the oldest lines down to 90% of it at once, so a
            # storm of huge lines costs one trim per tenth of the budget, not one per line.
            keep = self.history_budget * 9 // 10
            while hist and self._hist_bytes > keep:
                self._hist_bytes -= hist.popleft().nbytes()
                self.history_collected += 1
            if self._hscrolled > len(hist):
                self._hscrolled = len(hist)
        h = len(hist)
        lim = self.history_limit
        if h == 0 or h < lim:
            return
        ny = lim // 10
        if ny < 1:
            ny = 1
        if ny > h:
            ny = h
        for _ in range(ny):
            self._hist_bytes -= hist.popleft().nbytes()
        self.history_collected += ny
        if self._hscrolled > len(hist):
            self._hscrolled = len(hist)

    def _empty_row(self, row: Row, bg: int) -> Row:
        """grid_free_line + grid_empty_line, reusing the row object."""
        unlazy(row, self._blank[:], self._zeros[:])
        row.chars[:] = self._blank
        row.used = 0
        row.wrapped = False
        row.wide = False
        row.flags = 0
        row.time = 0
        if bg == 8:
            row.styles[:] = self._zeros
            row.size = 0
            row.styled = False
        else:
            row.styles[:] = [self._bg_sid(bg)] * self.cols
            row.size = self.cols
            row.styled = True
        return row

    def _new_row(self, bg: int) -> Row:
        return self._empty_row(Row(self.cols), bg)

    def _unwrap_abs(self, a: int) -> None:
        h = len(self._hist)
        if a >= h:
            if a - h < len(self._rows):
                self._rows[a - h].wrapped = False
        elif a == h - 1:
            self._hist[-1].wrapped = False
        elif a >= 0:
            self._hist[a].wrapped = False

    def _scroll_up(self, bg: int) -> None:
        """grid_view_scroll_region_up."""
        ru = self.scroll_region_upper
        rl = self.scroll_region_lower
        rows = self._rows
        if self.history_limit > 0 and self._alt is None:
            self._collect_history()
            if ru == 0 and rl == self.rows - 1:
                row = rows.pop(0)
                self._push_hist(row)
                rows.append(self._empty_row(row, bg))
            else:
                row = rows.pop(ru)
                self._push_hist(row)
                rows.insert(rl, self._empty_row(row, bg))
            self._hscrolled += 1
        else:
            self._move_lines(ru, ru + 1, rl - ru, bg)
        self._all_dirty = True

    def _scroll_down(self, bg: int) -> None:
        """grid_view_scroll_region_down."""
        ru = self.scroll_region_upper
        rl = self.scroll_region_lower
        self._move_lines(ru + 1, ru, rl - ru, bg)

    def _move_lines(self, dy: int, py: int, ny: int, bg: int) -> None:
        """grid_move_lines (visible coordinates)."""
        if ny == 0 or py == dy:
            return
        sy = self.rows
        if py + ny - 1 >= sy or dy + ny - 1 >= sy or py < 0 or dy < 0:
            return
        rows = self._rows
        h = len(self._hist)
        freed = [rows[yy] for yy in range(dy, dy + ny) if not (py <= yy < py + ny)]
        if h + dy != 0:
            self._unwrap_abs(h + dy - 1)
        rows[dy : dy + ny] = rows[py : py + ny]
        k = 0
        for yy in range(py, py + ny):
            if not (dy <= yy < dy + ny):
                rows[yy] = self._empty_row(freed[k], bg)
                k += 1
        if h + py != 0 and (py < dy or py >= dy + ny):
            self._unwrap_abs(h + py - 1)
        self._all_dirty = True

    def _clear_lines(self, py: int, ny: int, bg: int) -> None:
        """grid_clear_lines (visible py; ny may wrap like a C unsigned)."""
        ny %= U32
        if ny == 0:
            return
        h = len(self._hist)
        total = h + self.rows
        apy = h + py
        if apy >= total or (apy + ny - 1) % U32 >= total:
            return
        end = (apy + ny) % U32
        rows = self._rows
        for a in range(apy, end):
            self._empty_row(rows[a - h], bg)
        if apy != 0:
            self._unwrap_abs(apy - 1)
        self._all_dirty = True

    def _grid_clear(self, px: int, py: int, nx: int, ny: int, bg: int) -> None:
        """grid_clear (visible py; counts may wrap like C unsigned ints)."""
        nx %= U32
        ny %= U32
        if nx == 0 or ny == 0:
            return
        if px == 0 and nx == self.cols:
            self._clear_lines(py, ny, bg)
            return
        h = len(self._hist)
        total = h + self.rows
        apy = h + py
        if apy >= total or (apy + ny - 1) % U32 >= total:
            return
        end = (apy + ny) % U32
        for a in range(apy, end):
            self._clear_row_cells(self._rows[a - h], px, nx, bg)
            self._dirty.add(a - h)

    def _clear_row_cells(self, row: Row, px: int, nx: int, bg: int) -> None:
        """The per-line part of grid_clear."""
        sx = min(self.cols, row.size)
        ox = nx
        if bg == 8:
            if px > sx:
                return
            if (px + nx) % U32 > sx:
                ox = sx - px
        end = (px + ox) % U32
        self._expand(row, end)
        if end > px:
            k = end - px
            row.chars[px:end] = [" "] * k
            sid = self._bg_sid(bg)
            row.styles[px:end] = [sid] * k
            if sid:
                row.styled = True

    def _move_cells(self, row: Row, dx: int, px: int, nx: int, bg: int) -> None:
        """grid_move_cells."""
        if nx == 0 or px == dx:
            return
        self._expand(row, px + nx)
        self._expand(row, dx + nx)
        row.chars[dx : dx + nx] = row.chars[px : px + nx]
        row.styles[dx : dx + nx] = row.styles[px : px + nx]
        if dx + nx > row.used:
            row.used = dx + nx
        sid = self._bg_sid(bg)
        for xx in range(px, px + nx):
            if dx <= xx < dx + nx:
                continue
            row.chars[xx] = " "
            row.styles[xx] = sid
        if sid:
            row.styled = True

    def _insert_cells(self, px: int, py: int, nx: int, bg: int) -> None:
        """grid_view_insert_cells."""
        sx = self.cols
        if px >= sx - 1:
            self._grid_clear(px, py, 1, 1, bg)
        else:
            self._move_cells(self._rows[py], px + nx, px, sx - px - nx, bg)
        self._dirty.add(py)

    # -- screen-write operations ---------------------------------------------------------------
    def _linefeed(self, wrapped: bool, bg: int) -> None:
        cy = self.cursor_y
        if wrapped:
            self._rows[cy].wrapped = True
        if cy == self.scroll_region_lower:
            self._scroll_up(bg)
        elif cy < self.rows - 1:
            self.cursor_y = cy + 1

    def _reverse_index(self, bg: int) -> None:
        if self.cursor_y == self.scroll_region_upper:
            self._scroll_down(bg)
        elif self.cursor_y > 0:
            self.cursor_y -= 1

    def _backspace(self) -> None:
        cx, cy = self.cursor_x, self.cursor_y
        if cx == 0:
            if cy == 0:
                return
            if self._rows[cy - 1].wrapped:
                self.cursor_y = cy - 1
                self.cursor_x = self.cols - 1
        else:
            self.cursor_x = cx - 1

    def _tab(self) -> None:
        """HT (tmux 3.7b): over blanks that all look alike, a tab cell is written covering them
        up to the next stop (capture-pane shows it as a tab); over anything else, or more than
        32 columns, the cursor only moves."""
        cx = self.cursor_x
        sx = self.cols
        if cx >= sx - 1:
            return
        nxt = self._tabs.find(1, cx + 1, sx - 1)
        x = nxt if nxt != -1 else sx - 1
        width = x - cx
        row = self._rows[self.cursor_y]
        size = row.size
        chars = row.chars
        styles = row.styles
        first = styles[cx] if cx < size else 0
        content = width > 32
        if not content:
            for xx in range(cx, x):
                if xx >= size:  # past the line's cells: default blanks
                    content = first != 0
                    break
                if chars[xx] != " " or styles[xx] != first:
                    content = True
                    break
        if content:
            self.cursor_x = x
            return
        self._put_cell("\t", width, first)

    def _set_cursor(self, cx: int, cy: int) -> None:
        """screen_write_set_cursor: -1 keeps a coordinate; x may be one past the end."""
        if cx != -1:
            if cx > self.cols:
                cx = self.cols - 1
            self.cursor_x = cx
        if cy != -1:
            if cy > self.rows - 1:
                cy = self.rows - 1
            self.cursor_y = cy

    def _cursor_move(self, px: int, py: int, origin: bool) -> None:
        if origin and py != -1 and self.origin_mode:
            ru, rl = self.scroll_region_upper, self.scroll_region_lower
            if py > rl - ru:
                py = rl
            else:
                py += ru
        if px != -1 and px > self.cols - 1:
            px = self.cols - 1
        if py != -1 and py > self.rows - 1:
            py = self.rows - 1
        self._set_cursor(px, py)

    def _cursor_up(self, ny: int) -> None:
        cx, cy = self.cursor_x, self.cursor_y
        if ny == 0:
            ny = 1
        ru = self.scroll_region_upper
        if cy < ru:
            if ny > cy:
                ny = cy
        elif ny > cy - ru:
            ny = cy - ru
        if cx == self.cols:
            cx -= 1
        self._set_cursor(cx, cy - ny)

    def _cursor_down(self, ny: int) -> None:
        cx, cy = self.cursor_x, self.cursor_y
        if ny == 0:
            ny = 1
        rl = self.scroll_region_lower
        if cy > rl:
            if ny > self.rows - 1 - cy:
                ny = self.rows - 1 - cy
        elif ny > rl - cy:
            ny = rl - cy
        if cx == self.cols:
            cx -= 1
        elif ny == 0:
            return
        self._set_cursor(cx, cy + ny)

    def _cursor_right(self, nx: int) -> None:
        cx = self.cursor_x
        if nx == 0:
            nx = 1
        lim = (self.cols - 1 - cx) % U32
        if nx > lim:
            nx = lim
        if nx == 0:
            return
        self._set_cursor(cx + nx, -1)

    def _cursor_left(self, nx: int) -> None:
        cx = self.cursor_x
        if nx == 0:
            nx = 1
        if nx > cx:
            nx = cx
        if nx == 0:
            return
        self._set_cursor(cx - nx, -1)

    def _scroll_region(self, ru: int, rl: int) -> None:
        sy = self.rows
        if ru > sy - 1:
            ru = sy - 1
        if rl > sy - 1:
            rl = sy - 1
        if ru >= rl:
            return
        self._set_cursor(0, 0)
        self.scroll_region_upper = ru
        self.scroll_region_lower = rl

    def _insert_character(self, nx: int, bg: int) -> None:
        sx = self.cols
        cx = self.cursor_x
        if nx == 0:
            nx = 1
        if nx > sx - cx:
            nx = sx - cx
        if nx == 0 or cx > sx - 1:
            return
        self._insert_cells(cx, self.cursor_y, nx, bg)

    def _delete_character(self, nx: int, bg: int) -> None:
        sx = self.cols
        cx = self.cursor_x
        if nx == 0:
            nx = 1
        if nx > sx - cx:
            nx = sx - cx
        if nx == 0 or cx > sx - 1:
            return
        cy = self.cursor_y
        self._move_cells(self._rows[cy], cx, cx + nx, sx - cx - nx, bg)
        self._grid_clear(sx - nx, cy, cx + nx - (sx - nx), 1, bg)
        self._dirty.add(cy)

    def _clear_character(self, nx: int, bg: int) -> None:
        sx = self.cols
        cx = self.cursor_x
        if nx == 0:
            nx = 1
        if nx > sx - cx:
            nx = sx - cx
        if nx == 0 or cx > sx - 1:
            return
        self._grid_clear(cx, self.cursor_y, nx, 1, bg)

    def _insert_line(self, ny: int, bg: int) -> None:
        cy = self.cursor_y
        sy = self.rows
        ru, rl = self.scroll_region_upper, self.scroll_region_lower
        if ny == 0:
            ny = 1
        if cy < ru or cy > rl:
            if ny > sy - cy:
                ny = sy - cy
            if ny == 0:
                return
            self._move_lines(cy + ny, cy, sy - cy - ny, bg)
            return
        if ny > rl + 1 - cy:
            ny = rl + 1 - cy
        if ny == 0:
            return
        ny2 = rl + 1 - cy - ny
        self._move_lines(rl + 1 - ny2, cy, ny2, bg)
        self._grid_clear(0, cy + ny2, self.cols, ny - ny2, bg)

    def _delete_line(self, ny: int, bg: int) -> None:
        cy = self.cursor_y
        sy = self.rows
        ru, rl = self.scroll_region_upper, self.scroll_region_lower
        if ny == 0:
            ny = 1
        if cy < ru or cy > rl:
            if ny > sy - cy:
                ny = sy - cy
            if ny == 0:
                return
            self._delete_lines(cy, ny, bg)
            return
        if ny > rl + 1 - cy:
            ny = rl + 1 - cy
        if ny == 0:
            return
        ny2 = rl + 1 - cy - ny
        self._move_lines(cy, cy + ny, ny2, bg)
        self._grid_clear(0, cy + ny2, self.cols, ny - ny2, bg)

    def _delete_lines(self, py: int, ny: int, bg: int) -> None:
        """grid_view_delete_lines."""
        sy = self.rows
        self._move_lines(py, py + ny, sy - py - ny, bg)
        self._grid_clear(0, sy - ny, self.cols, py + ny - (sy - ny), bg)

    def _clear_line(self, bg: int) -> None:
        row = self._rows[self.cursor_y]
        if row.size == 0 and bg == 8:
            return
        self._grid_clear(0, self.cursor_y, self.cols, 1, bg)

    def _clear_end_of_line(self, bg: int) -> None:
        cx = self.cursor_x
        if cx == 0:
            self._clear_line(bg)
            return
        row = self._rows[self.cursor_y]
        sx = self.cols
        if cx > sx - 1 or (cx >= row.size and bg == 8):
            return
        self._grid_clear(cx, self.cursor_y, sx - cx, 1, bg)

    def _clear_start_of_line(self, bg: int) -> None:
        cx = self.cursor_x
        sx = self.cols
        if cx >= sx - 1:
            self._clear_line(bg)
            return
        self._grid_clear(0, self.cursor_y, cx + 1, 1, bg)

    def _clear_end_of_screen(self, bg: int) -> None:
        cx, cy = self.cursor_x, self.cursor_y
        sx, sy = self.cols, self.rows
        if cx == 0 and cy == 0 and self._hist_on() and self.scroll_on_clear:
            self._clear_into_history(bg)
            return
        if cx <= sx - 1:
            self._grid_clear(cx, cy, sx - cx, 1, bg)
        self._grid_clear(0, cy + 1, sx, sy - (cy + 1), bg)

    def _clear_start_of_screen(self, bg: int) -> None:
        cx, cy = self.cursor_x, self.cursor_y
        sx = self.cols
        if cy > 0:
            self._grid_clear(0, 0, sx, cy, bg)
        if cx > sx - 1:
            self._grid_clear(0, cy, sx, 1, bg)
        else:
            self._grid_clear(0, cy, cx + 1, 1, bg)

    def _clear_screen(self, bg: int) -> None:
        if self._hist_on() and self.scroll_on_clear:
            self._clear_into_history(bg)
        else:
            self._grid_clear(0, 0, self.cols, self.rows, bg)

    def _clear_into_history(self, bg: int) -> None:
        """grid_view_clear_history: scroll everything up to the last used line into history."""
        sy = self.rows
        rows = self._rows
        last = 0
        for yy in range(sy):
            if rows[yy].used != 0:
                last = yy + 1
        if last == 0:
            self._grid_clear(0, 0, self.cols, sy, bg)
            return
        for _ in range(last):
            self._collect_history()
            row = rows.pop(0)
            self._push_hist(row)
            rows.append(self._empty_row(row, bg))
            self._hscrolled += 1
        if last < sy:
            self._grid_clear(0, 0, self.cols, sy - last, bg)
        self._hscrolled = 0
        self._all_dirty = True

    def _alignment_test(self) -> None:
        for row in self._rows:
            for x in range(self.cols):
                self._set_cell(row, x, "E", 0)
        self._set_cursor(0, 0)
        self.scroll_region_upper = 0
        self.scroll_region_lower = self.rows - 1
        self._all_dirty = True

    def _save_state(self) -> None:
        self._saved_cell = (
            (self._attr, self._fg, self._bg, self._us),
            self._cs,
            self._g0,
            self._g1,
            self._links[self._sid],
        )
        self._saved_cx = self.cursor_x
        self._saved_cy = self.cursor_y
        self._saved_origin = self.origin_mode

    def _restore_state(self) -> None:
        style, self._cs, self._g0, self._g1, link = self._saved_cell
        self._attr, self._fg, self._bg, self._us = style
        self._update_psid(link)
        self.origin_mode = self._saved_origin
        self._cursor_move(self._saved_cx, self._saved_cy, False)

    def _screen_reset(self) -> None:
        """screen_write_reset."""
        self._reset_tabs()
        self._scroll_region(0, self.rows - 1)
        self._set_modes_default()
        self._update_psid()
        self._clear_screen(8)
        self._set_cursor(0, 0)

    # -- alternate screen ----------------------------------------------------------------------
    def _alternate_on(self, cursor: bool) -> None:
        if not self.alternate_screen or self._alt is not None:
            return
        self._alt = {
            "rows": [r.copy() for r in self._rows],
            "cols": self.cols,
            "nrows": self.rows,
        }
        if cursor:
            self.alternate_saved_x = self.cursor_x
            self.alternate_saved_y = self.cursor_y
        self._alt_cell = ((self._attr, self._fg, self._bg, self._us), self._links[self._sid])
        self._grid_clear(0, 0, self.cols, self.rows, 8)
        self._all_dirty = True

    def _alternate_off(self, cursor: bool) -> None:
        if not self.alternate_screen:
            return
        sx, sy = self.cols, self.rows
        alt = self._alt
        if alt is not None:
            self._resize(alt["cols"], alt["nrows"], False)  # tmux 3.7b: no reflow here
        if cursor and self.alternate_saved_x != UINT_MAX and self.alternate_saved_y != UINT_MAX:
            self.cursor_x = self.alternate_saved_x
            self.cursor_y = self.alternate_saved_y
            style, link = self._alt_cell
            self._attr, self._fg, self._bg, self._us = style
            self._update_psid(link)
        if alt is None:
            self._clamp_cursor()
            return
        saved = alt["rows"]
        for i, r in enumerate(saved[: self.rows]):
            self._rows[i] = r
            if len(r.chars) < self.cols:
                k = self.cols - len(r.chars)
                r.chars.extend([" "] * k)
                r.styles.extend([0] * k)
        self._alt = None
        self._resize(sx, sy, True)
        self._clamp_cursor()
        self._all_dirty = True

    @property
    def alternate_on(self) -> bool:
        return self._alt is not None

    def _clamp_cursor(self) -> None:
        if self.cursor_x > self.cols - 1:
            self.cursor_x = self.cols - 1
        if self.cursor_y > self.rows - 1:
            self.cursor_y = self.rows - 1

    # -- resize (screen_resize_cursor) ---------------------------------------------------------
    def _resize(self, sx: int, sy: int, do_reflow: bool, eat_empty: bool = True) -> None:
        sx = max(1, sx)
        sy = max(1, sy)
        cx = self.cursor_x
        cy = len(self._hist) + self.cursor_y
        if sx != self.cols:
            self.cols = sx
            self._blank = [" "] * sx
            self._zeros = [0] * sx
            self._reset_tabs()
            self._code_cache.clear()
        else:
            do_reflow = False
        if sy != self.rows:
            cy = self._resize_y(sy, cy, eat_empty)
        for r in self._rows:
            if len(r.chars) < sx:
                k = sx - len(r.chars)
                r.chars.extend([" "] * k)
                r.styles.extend([0] * k)
        if do_reflow:
            cx, cy = self._reflow(sx, cx, cy)
        h = len(self._hist)
        if cy >= h:
            self.cursor_x = cx
            self.cursor_y = cy - h
        else:
            self.cursor_x = 0
            self.cursor_y = 0
        if self.cursor_y > self.rows - 1:
            self.cursor_y = self.rows - 1
        if self.scroll_region_lower > self.rows - 1:
            self.scroll_region_lower = self.rows - 1
        self._all_dirty = True

    def _resize_y(self, sy: int, cy: int, eat_empty: bool = True) -> int:
        """screen_resize_y; returns the new absolute cursor line."""
        oldy = self.rows
        hist_on = self._hist_on()
        rows = self._rows
        if sy < oldy:
            needed = oldy - sy
            available = oldy - 1 - self.cursor_y if eat_empty else 0
            if available > 0:
                if available > needed:
                    available = needed
                self._delete_lines(oldy - available, available, 8)
            else:
                available = 0
            needed -= available
            if hist_on:
                for row in rows[:needed]:
                    self._hist.append(compact(row))  # no new time: the line keeps its gl->time
                del rows[:needed]
                self.history_added += needed
                self._hscrolled += needed
            elif needed > 0 and self.cursor_y > 0:
                avail = min(self.cursor_y, needed)
                self._delete_lines(0, avail, 8)
                cy -= avail
            del rows[sy:]
        else:
            needed = sy - oldy
            available = self._hscrolled
            if hist_on and available > 0:
                if available > needed:
                    available = needed
                self._hscrolled -= available
                pulled = [inflate(self._hist.pop(), self.cols) for _ in range(available)]
                self.history_generation += 1  # lines left history from its bottom
                pulled.reverse()
                rows[0:0] = pulled
            else:
                available = 0
            needed -= available
            for _ in range(needed):
                rows.append(Row(self.cols))
        self._recount_hist_bytes()
        self.rows = sy
        self.scroll_region_upper = 0
        self.scroll_region_lower = sy - 1
        return cy

    def _recount_hist_bytes(self) -> None:
        self._hist_bytes = sum(line.nbytes() for line in self._hist)

    def _reflow(self, sx: int, cx: int, cy: int) -> tuple[int, int]:
        lines = list(self._hist) + list(self._rows)
        wx, wy = wrap_position(lines, cx, cy)
        new, self._hscrolled = reflow(lines, sx, self._hscrolled)
        sy = self.rows
        while len(new) < sy:
            new.append(Row(sx))
        h = len(new) - sy
        if self._hscrolled > h:
            self._hscrolled = h
        cx, cy = unwrap_position(new, wx, wy)
        hist: deque[HistLine] = deque()
        for line in new[:h]:
            if isinstance(line, HistLine):
                hist.append(line)
            elif isinstance(line, Row):
                hist.append(compact(line))
            else:
                hist.append(_rline_hist(line))
        vis: list[Row] = []
        for line in new[h:]:
            if isinstance(line, Row):
                if len(line.chars) < sx:
                    k = sx - len(line.chars)
                    line.chars.extend([" "] * k)
                    line.styles.extend([0] * k)
                vis.append(line)
            elif isinstance(line, HistLine):
                vis.append(inflate(line, sx))
            else:
                vis.append(_rline_row(line, sx))
        self._hist = hist
        self._rows[:] = vis
        self._recount_hist_bytes()
        self.history_generation += 1
        return cx, cy

    # -- style table maintenance ---------------------------------------------------------------
    def _compact_styles(self) -> None:
        """Drop style ids nothing refers to any more (bounded memory for RGB-heavy output)."""
        used = {0}
        rowsets = [self._rows]
        if self._alt is not None:
            rowsets.append(self._alt["rows"])
        for rs in rowsets:
            for r in rs:
                used.update(r.styles)
        for line in self._hist:
            if line.runs is not None:
                used.update(line.runs[1::2])
        used.update(self._bg_sids.values())
        used.add(self._sid)
        used.add(self._psid)
        old = self._styles
        remap = {}
        styles: list[Style] = []
        for sid in sorted(used):
            remap[sid] = len(styles)
            styles.append(old[sid])
        get = remap.__getitem__
        for rs in rowsets:
            for r in rs:
                r.styles[:] = map(get, r.styles)
        for line in self._hist:
            runs = line.runs
            if runs is not None:
                runs[1::2] = array("I", map(get, runs[1::2]))
        self._styles = styles
        self._style_ids = {st: i for i, st in enumerate(styles)}
        self._bg_sids = {bg: remap[s] for bg, s in self._bg_sids.items()}
        self._sgr_cache.clear()
        self._code_cache.clear()
        self._sid = remap[self._sid]
        self._psid = remap[self._psid]
        self._style_limit = max(16384, 2 * len(styles))

    # -- reading -------------------------------------------------------------------------------
    def style(self, sid: int) -> Style:
        return self._styles[sid]

    def _code(self, last: int, cur: int, escape_c0: bool) -> str:
        key = (last, cur, escape_c0)
        c = self._code_cache.get(key)
        if c is None:
            if len(self._code_cache) > 65536:
                self._code_cache.clear()
            c = self._code_cache[key] = sgr_change(self._styles[last], self._styles[cur], escape_c0)
        return c

    def capture(
        self,
        start: int | None = None,
        end: int | None = None,
        *,
        escapes: bool = False,
        join: bool = False,
        trailing: bool = False,
        octal: bool = False,
        alternate: bool = False,
        used_only: bool = False,
        line_numbers: bool = False,
        line_flags: bool = False,
        hyperlinks: bool = False,
    ) -> list[str]:
        """Lines exactly as tmux 3.7b's ``capture-pane -p`` prints them."""
        if alternate:
            if self._alt is None:
                raise NoAlternateScreen()
            vis = self._alt["rows"]
            hist: list | deque = []
        else:
            vis = self._rows
            hist = self._hist
        return capture_lines(self, hist, vis, start, end, escapes=escapes, join=join,
                             trailing=trailing, octal=octal, used_only=used_only,
                             line_numbers=line_numbers, line_flags=line_flags,
                             hyperlinks=hyperlinks)

    def _line_string(self, line: Row | HistLine, end_cells: int, codes: bool, esc0: bool,
                     state: list) -> str:
        """grid_string_cells for one line: its first ``end_cells`` cells (padding skipped, a
        tab as a tab), with -e's SGR and hyperlink changes from ``state``."""
        if isinstance(line, HistLine):
            if line.cellmap is None and (not codes or line.runs is None) \
                    and end_cells <= line.size:
                s = line.text
                if end_cells != line.used:
                    s = s[:end_cells] if end_cells < line.used else \
                        s + " " * (end_cells - line.used)
                if codes and s:
                    if state[0] != 0:
                        s = self._code(state[0], 0, esc0) + s
                        state[0] = 0
                return s.replace("\\", "\\\\") if esc0 else s
            chars, styles = line.cells_full()
        else:
            chars, styles = line.chars, line.styles
            if not codes and not line.wide:
                s = "".join(chars[:end_cells])
                return s.replace("\\", "\\\\") if esc0 else s
        if not codes:
            cells = chars[:end_cells]
            if esc0:
                cells = ["\\\\" if c == "\\" else c for c in cells]
            return "".join(cells)
        return self._coded(chars[:end_cells], styles[:end_cells], esc0, state)

    def _coded(self, chars: list[str], styles: list[int], esc0: bool, state: list) -> str:
        """Cells with the codes for each change of style (and hyperlink) from the last cell."""
        last = state[0]
        links = self._links
        has_link = False
        out = []
        for c, sid in zip(chars, styles, strict=False):
            if c == "":
                continue
            if sid != last:
                out.append(self._code(last, sid, esc0))
                link = links[sid]
                if link != links[last]:
                    opened = self._link_code(link, esc0)
                    if opened is not None:
                        if opened:
                            out.append(opened)
                        has_link = bool(opened)
                    elif has_link:
                        out.append(_link_close(esc0))
                        has_link = False
                last = sid
            out.append("\\\\" if esc0 and c == "\\" else c)
        if has_link:
            out.append(_link_close(esc0))
        state[0] = last
        return "".join(out)

    def _link_code(self, link: int, esc0: bool) -> str | None:
        """OSC 8 opening ``link`` (None: no such link; "" when tmux finds it too long)."""
        if not link:
            return None
        got = self.hyperlinks.get(link)
        if got is None:
            return None
        uri, link_id = got
        if len(uri) + len(link_id) + 17 >= 8192:
            return ""
        esc = "\\033" if esc0 else "\033"
        params = f"id={link_id};" if link_id else ";"
        return f"{esc}]8;{params}{uri}{esc}\\" + ("\\" if esc0 else "")

    def tail(self, n: int) -> list[str]:
        """The last ``n`` visible rows as plain text, trailing blanks stripped."""
        if n <= 0:
            return []
        out = []
        for row in self._rows[-n:]:
            out.append("".join(row.chars[: min(row.used, self.cols)]).rstrip())
        return out

    def cursor_character(self) -> str:
        row = self._rows[self.cursor_y]
        cx = self.cursor_x
        if cx >= row.size or cx >= len(row.chars):
            return " "
        return row.chars[cx]

    def tabs(self) -> list[int]:
        return [i for i in range(self.cols) if self._tabs[i]]

    def search(self, pattern: str, regex: bool, ignore_case: bool) -> int:
        if regex:
            try:
                rx = re.compile(pattern, re.I if ignore_case else 0)
            except re.error:
                return 0
        else:
            rx = _glob_to_regex("*" + pattern + "*", ignore_case)
            if rx is None:
                return 0
        for i, row in enumerate(self._rows):
            line = "".join(row.chars[: min(row.used, self.cols)]).rstrip(" \t\n\v\f\r")
            if regex:
                if rx.search(line):
                    return i + 1
            elif rx.fullmatch(line):
                return i + 1
        return 0

    def snapshot(self) -> Snapshot:
        """A frozen copy of history and the visible lines (copy mode's backing grid)."""
        lines = [HistLine(h.text, array("I", h.runs) if h.runs is not None else None, h.used,
                          h.wrapped, h.cellmap, h.size, h.flags, h.time) for h in self._hist]
        lines.extend(compact(r) for r in self._rows)
        return Snapshot(lines, list(self._styles), self.cols, self.rows, len(self._hist),
                        self.cursor_x, self.cursor_y)

    def row_links(self, y: int) -> list[tuple[int, int, str, str]]:
        """The hyperlinks on visible row ``y`` as ``(first column, end column, URI, id)``, the
        id being the one tmux gives the outer terminal (``tmux<hex>``): what a renderer needs
        to draw OSC 8 for a terminal with the hyperlinks feature. Empty for most rows."""
        return row_links(self, self._rows[y])

    def row_runs(self, y: int) -> list[tuple[str, Style]]:
        """Text runs with their style for visible row ``y``, covering the full width."""
        row = self._rows[y]
        size = min(row.size, self.cols)
        chars = row.chars
        styles = row.styles
        runs: list[tuple[str, Style]] = []
        cur = -1
        buf: list[str] = []
        for x in range(size):
            c = chars[x]
            if c == "":
                continue
            sid = styles[x]
            if sid != cur:
                if buf:
                    runs.append(("".join(buf), self._styles[cur]))
                buf = []
                cur = sid
            if c[0] == "\t":  # a tab shows as the blanks it covers
                n = 1
                while x + n < size and chars[x + n] == "":
                    n += 1
                c = " " * n
            buf.append(c)
        if size < self.cols:
            if cur != 0 and buf:
                runs.append(("".join(buf), self._styles[cur]))
                buf = []
                cur = 0
            if cur == -1:
                cur = 0
            buf.append(" " * (self.cols - size))
        if buf:
            runs.append(("".join(buf), self._styles[cur]))
        return runs


def row_links(eng, row: Row) -> list[tuple[int, int, str, str]]:
    """Engine.row_links over one row (both engines)."""
    if not row.styled:
        return []
    links = eng._links
    out: list[tuple[int, int, str, str]] = []
    cur = 0
    start = 0
    size = min(row.size, eng.cols)
    styles = row.styles
    chars = row.chars
    for x in range(size + 1):
        if x < size and chars[x] == "":
            continue  # the rest of a wide character goes with it
        link = links[styles[x]] if x < size else 0
        if link != cur:
            if cur:
                got = eng.hyperlinks.get(cur)
                ext = eng.hyperlinks.external_id(cur)
                if got is not None and ext is not None:
                    out.append((start, x, got[0], ext))
            cur = link
            start = x
    return out


class _SnapshotView:
    """What capture_lines needs to print a copy mode's frozen lines (capture-pane -M)."""

    _line_string = Screen._line_string
    _coded = Screen._coded
    _code = Screen._code
    _link_code = Screen._link_code

    def __init__(self, snap: Snapshot, engine) -> None:
        self._styles = snap.styles_table()
        self._links = getattr(engine, "_links", [0])
        if len(self._links) < len(self._styles):  # a table compacted since: no links
            self._links = self._links + [0] * (len(self._styles) - len(self._links))
        self.hyperlinks = getattr(engine, "hyperlinks", Hyperlinks())
        self._code_cache: dict = {}
        self.cols = snap.sx


def capture_snapshot(snap: Snapshot, engine, start: int | None = None, end: int | None = None,
                     **flags: bool) -> list[str]:
    """capture-pane -M: a copy mode's backing grid (the frozen history and screen) printed
    as capture-pane prints a pane's; ``flags`` are :meth:`Screen.capture`'s."""
    lines = snap.lines()
    return capture_lines(_SnapshotView(snap, engine), lines[:snap.hsize], lines[snap.hsize:],
                         start, end, **flags)


def _link_close(esc0: bool) -> str:
    return "\\033]8;;\\033\\\\" if esc0 else "\033]8;;\033\\"


def _line_has_link(eng, line: Row | HistLine) -> bool:
    links = eng._links
    if isinstance(line, Row):
        return line.styled and any(links[sid] for sid in line.styles[:line.size])
    runs = line.runs
    return runs is not None and any(links[sid] for sid in runs[1::2])


def _line_extended(eng, line: Row | HistLine) -> bool:
    """GRID_LINE_EXTENDED as far as the cells show it: a wide, combined, non-ASCII or tab cell,
    or a style only an extended cell holds (RGB, underline colour, high attributes, a link)."""
    if isinstance(line, Row):
        if line.wide or not "".join(line.chars[:line.size]).isascii():
            return True
        sids = set(line.styles[:line.size]) if line.styled else ()
    else:
        if line.cellmap is not None or not line.text.isascii():
            return True
        sids = set(line.runs[1::2]) if line.runs is not None else ()
    styles = eng._styles
    links = eng._links
    for sid in sids:
        attr, fg, bg, us = styles[sid]
        if attr > 0xFF or (fg | bg) & COLOUR_FLAG_RGB or us or links[sid]:
            return True
    return False


def _flags_string(eng, line: Row | HistLine) -> str:
    """capture-pane -F: the line's flags (H hyperlink, O output, P prompt, W wrapped,
    X extended) or ``-``, then a space."""
    out = ""
    if _line_has_link(eng, line):
        out += "H"
    if line.flags & LINE_START_OUTPUT:
        out += "O"
    if line.flags & LINE_START_PROMPT:
        out += "P"
    if line.wrapped:
        out += "W"
    if _line_extended(eng, line):
        out += "X"
    return (out or "-") + " "


def _line_links(eng, line: Row | HistLine, seen: list[int], limit: int) -> str:
    """capture-pane -H: the URIs of the links on a line not printed before, space-separated."""
    if not _line_has_link(eng, line):
        return ""
    if isinstance(line, Row):
        chars, styles = line.chars[:line.used], line.styles[:line.used]
    else:
        chars, styles = line.cells()
    links = eng._links
    out = []
    for sid in styles:
        link = links[sid]
        if not link or link in seen:
            continue
        got = eng.hyperlinks.get(link)
        if got is None:
            continue
        if len(seen) == limit:
            break
        seen.append(link)
        out.append(got[0])
    return " ".join(out)


def extended_styles(styles: list[Style], links: list[int]) -> set[int]:
    """The style ids whose cells tmux keeps as extended entries (RGB colours, attributes above
    0xff, an underline colour, a hyperlink)."""
    return {sid for sid, st in enumerate(styles)
            if st[0] > 0xFF or st[1] & COLOUR_FLAG_RGB or st[2] & COLOUR_FLAG_RGB or st[3]
            or links[sid]}


def rows_grid_stats(rows: list[Row], ext: set[int]) -> tuple[int, int]:
    """(cells, extended cells) tmux's grid holds for ``rows`` (Screen.grid_stats)."""
    cells = extd = 0
    for row in rows:
        size = row.size
        cells += size
        chars = row.chars[:size]
        extd += sum(1 for c in chars if c and (not c.isascii() or c == "\t" or len(c) > 1))
        if ext and row.styled:
            extd += sum(1 for sid in row.styles[:size] if sid in ext)
    return cells, extd


def capture_lines(eng, hist, vis, start: int | None, end: int | None, *, escapes: bool,
                  join: bool, trailing: bool, octal: bool, used_only: bool = False,
                  line_numbers: bool = False, line_flags: bool = False,
                  hyperlinks: bool = False) -> list[str]:
    """cmd_capture_pane_history over ``hist`` + ``vis`` (both engines' rows): tmux 3.7b's
    line selection, GRID_STRING_EMPTY_CELLS (cells up to the line's size unless -J or -T),
    trimming (unless -J or -N), -L numbers, -F flags and -H links."""
    hsize = len(hist)
    sy = len(vis)

    def line_no(n: int | None, default: int) -> int:
        if n is None or n > 32767:
            return default
        if n < 0 and -n > hsize:
            v = 0
        else:
            v = hsize + n
        if v > hsize + sy - 1:
            v = hsize + sy - 1
        return v

    top = line_no(start, hsize)
    bottom = line_no(end, hsize + sy - 1)
    if bottom < top:
        top, bottom = bottom, top
    sx = eng.cols
    empty = not join and not used_only
    trim = not join and not trailing
    out: list[str] = []
    state = [0]
    seen: list[int] = []
    lines: list = []
    if top < hsize:
        lines.extend(islice(hist, top, min(bottom + 1, hsize)))
    if bottom >= hsize:
        lines.extend(vis[max(0, top - hsize) : bottom - hsize + 1])
    for i, line in enumerate(lines, top):
        if hyperlinks:
            s = _line_links(eng, line, seen, sx)
            if not s:
                continue
        else:
            n = line.size if empty else line.used
            s = eng._line_string(line, n if n < sx else sx, escapes, octal, state)
            if trim:
                s = s.rstrip(" ")
        if line_numbers:
            out.append(f"{i - hsize} ")
        if line_flags:
            out.append(_flags_string(eng, line))
        out.append(s)
        if not join or not line.wrapped:
            out.append("\n")
    buf = "".join(out)
    if buf.endswith("\n"):
        buf = buf[:-1]
    return buf.split("\n")


def _rline_hist(line: _RLine) -> HistLine:
    r = Row.__new__(Row)
    r.chars = line.chars
    r.styles = line.styles
    r.used = line.used
    r.size = line.size
    r.wrapped = line.wrapped
    r.wide = line.wide or any(len(c) != 1 for c in line.chars)
    r.styled = any(line.styles)
    r.flags = line.flags
    r.time = line.time
    return compact(r)


def _rline_row(line: _RLine, cols: int) -> Row:
    r = Row.__new__(Row)
    chars = list(line.chars)
    styles = list(line.styles)
    if len(chars) < cols:
        k = cols - len(chars)
        chars.extend([" "] * k)
        styles.extend([0] * k)
    r.chars = chars
    r.styles = styles
    r.used = line.used
    r.size = line.size
    r.wrapped = line.wrapped
    r.wide = line.wide or any(len(c) != 1 for c in line.chars)
    r.styled = any(line.styles)
    r.flags = line.flags
    r.time = line.time
    return r


def _force_rgb(c: int) -> int:
    """colour_force_rgb for the colours hmux can answer with."""
    if c & COLOUR_FLAG_RGB:
        return c & 0xFFFFFF
    if c & COLOUR_FLAG_256:
        n = c & 0xFF
        if n < 16:
            return _BASIC[n]
        if n < 232:
            n -= 16
            steps = (0, 95, 135, 175, 215, 255)
            return (steps[n // 36] << 16) | (steps[(n // 6) % 6] << 8) | steps[n % 6]
        v = 8 + (n - 232) * 10
        return (v << 16) | (v << 8) | v
    if 0 <= c <= 7:
        return _BASIC[c]
    if 90 <= c <= 97:
        return _BASIC[c - 90 + 8]
    return -1


_BASIC = (
    0x000000, 0x800000, 0x008000, 0x808000, 0x000080, 0x800080, 0x008080, 0xC0C0C0,
    0x808080, 0xFF0000, 0x00FF00, 0xFFFF00, 0x0000FF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
)  # fmt: skip


def _parse_colour(p: str) -> int:
    """input_osc_parse_colour for the rgb:, # and r,g,b forms."""
    m = re.fullmatch(r"rgb:([0-9a-fA-F]{2})/([0-9a-fA-F]{2})/([0-9a-fA-F]{2})", p)
    if m:
        return colour_rgb(*(int(x, 16) for x in m.groups()))
    m = re.fullmatch(r"#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})", p)
    if m:
        return colour_rgb(*(int(x, 16) for x in m.groups()))
    m = re.match(r"\s*(\d+),\s*(\d+),\s*(\d+)", p)
    if m:
        r, g, b = (int(x) & 0xFF for x in m.groups())
        return colour_rgb(r, g, b)
    m = re.fullmatch(r"rgb:([0-9a-fA-F]{4})/([0-9a-fA-F]{4})/([0-9a-fA-F]{4})", p)
    if m:
        return colour_rgb(*(int(x, 16) >> 8 for x in m.groups()))
    m = re.fullmatch(r"#([0-9a-fA-F]{4})([0-9a-fA-F]{4})([0-9a-fA-F]{4})", p)
    if m:
        return colour_rgb(*(int(x, 16) >> 8 for x in m.groups()))
    m = re.match(r"cmyk:([^/]+)/([^/]+)/([^/]+)/(.+)", p) or re.match(r"cmy:([^/]+)/([^/]+)/(.+)", p)
    if m:
        try:
            c, mm, y, k = ([float(x) for x in m.groups()] + [0.0])[:4]
        except ValueError:
            c = -1.0
        if 0 <= c <= 1 and 0 <= mm <= 1 and 0 <= y <= 1 and 0 <= k <= 1:
            return colour_rgb(int((1 - c) * (1 - k) * 255), int((1 - mm) * (1 - k) * 255),
                              int((1 - y) * (1 - k) * 255))
    from ..options_table import COLOUR_NAMES  # colour_byname: X11 names, spaces trimmed

    name = p.strip(" ").lower()
    if name[:4] in ("grey", "gray"):  # grey, and grey0-grey100 as percentages
        if name == name[:4]:
            return colour_rgb(0xBE, 0xBE, 0xBE)
        n = name[4:]
        if not n.isdigit() or int(n) > 100:
            return -1
        v = int(2.55 * int(n) + 0.5)
        return colour_rgb(v, v, v)
    rgb = COLOUR_NAMES.get(name)
    return -1 if rgb is None else colour_rgb(rgb >> 16, (rgb >> 8) & 0xFF, rgb & 0xFF)


_CSI = {
    ("@", ""): Screen._csi_ich,
    ("A", ""): Screen._csi_cuu,
    ("B", ""): Screen._csi_cud,
    ("C", ""): Screen._csi_cuf,
    ("D", ""): Screen._csi_cub,
    ("E", ""): Screen._csi_cnl,
    ("F", ""): Screen._csi_cpl,
    ("G", ""): Screen._csi_hpa,
    ("H", ""): Screen._csi_cup,
    ("J", ""): Screen._csi_ed,
    ("K", ""): Screen._csi_el,
    ("L", ""): Screen._csi_il,
    ("M", ""): Screen._csi_dl,
    ("P", ""): Screen._csi_dch,
    ("S", ""): Screen._csi_su,
    ("T", ""): Screen._csi_sd,
    ("X", ""): Screen._csi_ech,
    ("Z", ""): Screen._csi_cbt,
    ("`", ""): Screen._csi_hpa,
    ("b", ""): Screen._csi_rep,
    ("c", ""): Screen._csi_da,
    ("c", ">"): Screen._csi_da2,
    ("d", ""): Screen._csi_vpa,
    ("f", ""): Screen._csi_cup,
    ("g", ""): Screen._csi_tbc,
    ("h", ""): Screen._csi_sm,
    ("h", "?"): Screen._csi_sm_private,
    ("l", ""): Screen._csi_rm,
    ("l", "?"): Screen._csi_rm_private,
    ("m", ""): Screen._csi_sgr,
    ("m", ">"): Screen._csi_modset,
    ("n", ""): Screen._csi_dsr,
    ("n", ">"): Screen._csi_modoff,
    ("n", "?"): Screen._csi_dsr_private,
    ("p", "$"): Screen._csi_decrqm,
    ("p", "?$"): Screen._csi_decrqm_private,
    ("q", " "): Screen._csi_decscusr,
    ("q", ">"): Screen._csi_xda,
    ("r", ""): Screen._csi_decstbm,
    ("s", ""): Screen._csi_scp,
    ("t", ""): Screen._csi_winops,
    ("u", ""): Screen._csi_rcp,
}
