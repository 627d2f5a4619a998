"""The native engine: Ghostty's terminal core (libghostty-vt, through pyghostty's cffi binding).

Parsing, the grid, scrollback and reflow run in native code; this wrapper only answers the
:class:`~hmux_core.screen.engine.Engine` protocol. Rows are read cell by cell from the native
grid only when something asks (capture-pane, the renderer, formats), converted to the python
engine's :class:`~hmux_core.screen.grid.Row` shape so that capture-pane's formatting is the
python engine's own code, not a second copy of it.

Cells Ghostty cannot hold as tmux does (tab cells, DEC line drawing, C1 controls) are written
as marker code points and read back as tmux's cells. Where Ghostty and tmux 3.7b differ and the
wrapper cannot close the gap, the difference is listed in ``docs/architecture.md`` ("Native
engine"); the parametrized screen tests mark each such case for this engine.
"""

from __future__ import annotations

import functools
import logging
import re
import time
import weakref

from pyghostty._ffi import ffi, lib, union_fn

from ..version import TMUX_VERSION
from .cells import (
    _ATTR_CODES,
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
    Style,
    _colour_values,
)
from .grid import HISTORY_BYTE_BUDGET, LINE_START_OUTPUT, LINE_START_PROMPT, Row, compact
from .hyperlinks import Hyperlinks
from .names import clean_name
from .screen import (
    _OSC133_MARKS,
    INPUT_BUF_LIMIT,
    NoAlternateScreen,
    Screen,
    _history_time,
    capture_lines,
    extended_styles,
    row_links,
    rows_grid_stats,
)
from .snapshot import Snapshot

log = logging.getLogger(__name__)

UINT_MAX = 4294967295

_UNDERLINE = (0, ATTR_UNDERSCORE, ATTR_UNDERSCORE_2, ATTR_UNDERSCORE_3, ATTR_UNDERSCORE_4,
              ATTR_UNDERSCORE_5)  # fmt: skip
_FLAGS = (
    ("bold", ATTR_BRIGHT),
    ("faint", ATTR_DIM),
    ("italic", ATTR_ITALICS),
    ("blink", ATTR_BLINK),
    ("inverse", ATTR_REVERSE),
    ("invisible", ATTR_HIDDEN),
    ("strikethrough", ATTR_STRIKETHROUGH),
    ("overline", ATTR_OVERLINE),
)
# Sequences read from the stream. Taken out (``_TAKEN``), and answered or applied with the
# python engine's code or as tmux does: ESC k renames and APC titles (Ghostty would print the
# one and ignore the other), titles, paths and the colour, palette, progress and clipboard
# OSCs (tmux also applies one a CAN or SUB cuts), DECRQSS, DECRQM, window operations, private
# DSR, DA and XDA (answered only for a 0 or no parameter), the kitty keyboard query, RIS
# (tmux keeps the history), private modes (the alternate screen's saved cursor and main
# screen, tmux's one mouse mode), the passthrough DCS (its payload an event), OSC 133 marks
# (written as Ghostty's in-place ones), ED 2 / ED 0 at home and SU (into history as tmux
# scrolls them), REP (only right after a character), a BS in the ground
# state (tmux goes back over a wrapped line), a tab in the ground state (a tab cell, _tab), SCS
# (character sets, _charsets) and SGRs ending in an empty parameter (read as tmux reads them,
# with _fix_sgr). Only looked at: the scroll region, the cursor style,
# modifyOtherKeys, OSC 8 ids, tab stops and CSI m. One possessive pattern finds them all, so
# SGR-heavy output costs no backtracking.
_SPECIAL_CSI = (
    rb"\[(?:[0-9;]*+(?=[rt$ gbSJsc])(?:(?P<r>r)|(?P<t>t)|(?P<rqm>\$p)"
    rb"|(?P<q> q)|(?P<tbc>g)|(?P<rep>b)|(?P<su>S)|(?P<ed>J)|(?P<scp>s)|(?P<da>c))"
    rb"|\?(?:[0-9;]*+(?:(?P<prqm>\$p)|(?P<dsr>n)|(?P<mode>[hl]))|(?P<kitty>u))"
    rb"|>(?:(?P<m>4[0-9;]*+[mn])|[0-9;]*+(?P<da2>[cq]))|(?P<sgr0>m)")
_SPECIAL_SGRX = rb"|(?P<sgrx>(?:[0-9:]*+;)++m)"
_SPECIAL_REST = (
    rb")|\](?:(?P<osc>(?:104|110|111|112|10|11|12|52|4|9|0|2|7)(?=[;\x07\x1b\x18\x1a]))"
    rb"|(?P<link>8;)|(?P<mark>133;))"
    rb"|P(?:(?P<rqss>\$q)|(?P<pt>tmux;)))")
#: By (a BS in the read, an SGR ending in an empty parameter possible: tmux reads it as 0, a
#: reset, Ghostty as nothing; the other empty parameters both read alike): either as an alternative
#: slows the search for every sequence, so each is part of the pattern only when a cheap test
#: of the read says it may be needed (a tab likewise). ESC and one character (ESC k, RIS, APC,
#: HTS, DECSC, and SCS with its final) is one class, told apart by _ESC1: five alternatives of
#: their own cost a third of the speed.
_SPECIALS = {
    (bs, ht, lf, sgrx): re.compile(
        (rb"(?P<bs>\x08)|" if bs else b"") + (rb"(?P<ht>\t)|" if ht else b"")
        + (rb"(?P<lf>[\n\x0b\x0c])|" if lf else b"") + rb"\x1b(?:(?P<esc1>[kc_H7DE]|[()][0-~])|"
        + _SPECIAL_CSI + (_SPECIAL_SGRX if sgrx else b"") + _SPECIAL_REST)
    for bs in (False, True) for ht in (False, True) for lf in (False, True)
    for sgrx in (False, True)
}
_ESC1 = {0x6B: "k", 0x63: "c", 0x5F: "apc", 0x48: "hts", 0x37: "decsc", 0x28: "scs",
         0x29: "scs", 0x44: "lf", 0x45: "lf"}
_KIND = {"prqm": "rqm", "scp": "decsc", "da2": "da"}
_TAKEN = frozenset(("k", "apc", "osc", "rqss", "t", "rqm", "dsr", "da", "kitty", "mark", "c",
                    "mode", "ed", "su", "rep", "bs", "ht", "lf", "sgrx", "scs"))
_STRINGS = frozenset(("k", "apc", "osc", "rqss", "link", "mark"))
_STRING_STARTS = b"]Pk_^X"
_DECSTBM = re.compile(rb"\x1b\[(\d*)(?:;(\d*))?r")
_DECSCUSR = re.compile(rb"\x1b\[(\d*) q")
_C0 = re.compile(r"[\x00-\x1f]")

# Cells Ghostty cannot hold as tmux does are written as code points of plane 15's private use
# area (one cell each, joining nothing) and read back as tmux's cells (_read_rows):
# U+F0020-U+F007E: that ASCII character drawn from the DEC line-drawing set (tmux keeps the
# character with GRID_ATTR_CHARSET; Ghostty would translate it to a box character);
# U+F0100+N: the first cell of a tab N cells wide (GRID_FLAG_TAB), U+F0200+K: its Kth padding
# cell.
_ACS_CELL = 0xF0000
_TAB_HEAD = 0xF0100
_TAB_PAD = 0xF0200
_MARKERS_END = 0xF0300
_ACS_TEXT = {c: chr(_ACS_CELL + c) for c in range(0x20, 0x7F)}
# A C1 control (U+0080-U+009F) is width 0 in tmux and joins the cell before, where Ghostty
# drops it: it is written as the variation selector U+E01D0 on (VS225-VS256, which Ghostty joins
# the same way and no font uses) and read back (_read_rows).
_C1_CELL = 0xE01D0
_C1_BYTES = re.compile(rb"\xc2[\x80-\x9f]")
_C1_BACK = {_C1_CELL + n: 0x80 + n for n in range(32)}
_FFFD = "\ufffd".encode()
#: An escape sequence, stepped over whole by the tokenizers below (its bytes are not text):
#: a CSI (one the read ends inside too), a string up to its end, or ESC and its final.
_SEQ = (rb"\x1b(?:\[[0-?]*+[ -/]*+(?:[@-~]|\Z)|[\]P_^Xk][^\x07\x18\x1a\x1b]*+(?:\x07|\x1b\\)?"
        rb"|[ -/]*+[0-~]?)")
#: Escape sequences, other ASCII, other bytes (_utf8_slow).
_UTF8_TOKENS = re.compile(
    rb"(?P<seq>" + _SEQ + rb")|(?P<hi>[\x80-\xff]++)|(?P<lo>[^\x1b\x80-\xff]++)")


def _unfinished(tail: bytes) -> bool:
    """Whether ``tail``, from the last ESC of a read, is a sequence the read ends inside."""
    if len(tail) > 1:
        c = tail[1]
        if c == 0x5B:  # CSI: complete at its final byte
            return not any(0x40 <= b <= 0x7E for b in tail[2:])
        if c in _STRING_STARTS:  # a string not ended (ST would be a later ESC)
            return not (c == 0x5D and (0x07 in tail or 0x18 in tail or 0x1A in tail))
        return 0x20 <= c <= 0x2F and len(tail) <= 2  # ESC x, ESC, an intermediate, a final
    return True


#: Printable ASCII and the tab (deleted to find any other control in a line of text).
_TEXT_AND_TAB = bytes(range(0x20, 0x7F)) + b"\t"


@functools.cache
def _tab_cells_bytes(width: int) -> bytes:
    """The marker cells of a tab ``width`` cells wide (see _ACS_CELL)."""
    return (chr(_TAB_HEAD + width) + "".join(
        map(chr, range(_TAB_PAD + 1, _TAB_PAD + width)))).encode()


def _tabbed_line_cells(line: bytes, stop_at: list[int]) -> bytes | None:
    """A line of text and tabs as written on a blank row (_tabbed_text): each tab its marker
    cells, or a cursor move past 32 columns; None for a line with another control or one
    reaching the last column (it wraps: the general path)."""
    if line.translate(None, _TEXT_AND_TAB):
        return None
    last = len(stop_at) - 1
    parts = line.split(b"\t")
    out = [parts[0]]
    x = len(parts[0])
    for part in parts[1:]:
        if x >= last:
            return None
        stop = stop_at[x]
        out.append(_tab_cells_bytes(stop - x) if stop - x <= 32 else b"\x1b[%dG" % (stop + 1))
        out.append(part)
        x = stop + len(part)
    return b"".join(out) if x < last else None


def _tmux_hsize(hsize: int, added: int, limit: int) -> int:
    """tmux's history size after ``added`` lines scroll into a history of ``hsize`` lines:
    grid_collect_history drops the oldest tenth of the limit before a line would go past it,
    so the size moves between 90 % and 100 % of the limit."""
    step = max(limit // 10, 1)
    if hsize > limit and step == 1:  # the limit was lowered: one goes per line, one comes
        return hsize if limit > 0 else 0
    while hsize > limit and added:  # ... or a tenth goes per line
        hsize = max(hsize - step, 0) + 1
        added -= 1
    if not added or hsize + added <= limit:
        return hsize + added
    if limit <= 0:
        return 0
    rest = added - (limit - hsize)  # lines after the size first reached the limit
    return limit - step + (rest - 1) % step + 1


def _utf8_size(b: int) -> int:
    """The length of the UTF-8 character lead byte ``b`` starts (tmux's utf8_open), 0 if none."""
    return 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0


def _c1_cells(data: bytes) -> bytes:
    """``data`` with its C1 controls written as _C1_CELL's variation selectors."""
    if b"\xc2" not in data:
        return data
    return _C1_BYTES.sub(lambda m: chr(_C1_CELL + m.group()[1] - 0x80).encode(), data)


#: What changes or uses the character sets in a stretch of the stream (_charsets): printable
#: ASCII, SCS, DECSC/SCOSC, DECRC/SCORC, RIS, SO and SI; other sequences are stepped over.
_CHARSET_TOKENS = re.compile(
    rb"(?P<text>[\x20-\x7e]++)|(?P<scs>\x1b[()][0-~])|(?P<save>\x1b7|\x1b\[s)"
    rb"|(?P<restore>\x1b8|\x1b\[u)|(?P<ris>\x1bc)|(?P<so>\x0e)|(?P<si>\x0f)|" + _SEQ)


def _string_end(data: bytes, pos: int, bel: bool) -> tuple[int, int]:
    """Where a string sequence's text ends and the sequence ends: at BEL (OSC), at ST, at
    another ESC (which ends the string and starts a sequence of its own), or at CAN or SUB
    (which end it and are then ignored: tmux still applies the string); (-1, -1) when the
    data has no end for it."""
    e = data.find(b"\x1b", pos)
    for c in (b"\x18", b"\x1a", b"\x07") if bel else (b"\x18", b"\x1a"):
        b = data.find(c, pos, e if e >= 0 else len(data))
        if b >= 0:
            e = b
    if e < 0:
        return -1, -1
    if data[e] != 0x1b:
        return e, e + 1
    return e, e + 2 if data[e + 1:e + 2] == b"\\" else e


def _strip_c0(text: str) -> str:
    """tmux ignores C0 controls inside a string sequence."""
    return _C0.sub("", text) if _C0.search(text) else text


_SEQ_END = re.compile(rb"\x1b(?:\[[0-?]*+[ -/]*+[@-~]|[ -/]*+[0-~])\Z")


def _after_character(before: bytes) -> bool:
    """Whether the stream ``before`` a REP ends with a character written (tmux repeats only
    then: any control or sequence in between makes REP do nothing). DEL is ignored."""
    before = before.rstrip(b"\x7f")
    if not before:
        return False
    c = before[-1]
    if c < 0x20:
        return False
    if c >= 0x80:
        return True
    j = before.rfind(b"\x1b")
    return j < 0 or _SEQ_END.search(before, j) is None


def _fix_sgr(params: str) -> str:
    """An SGR's parameters as tmux reads them (input_csi_dispatch_sgr), for the forms Ghostty
    reads otherwise: an empty parameter is 0, RGB with a component past 255 is no colour
    (its values are then read as parameters of their own), a 256-colour index past 255 or
    missing resets the colour, values tmux does not know are dropped. Colon forms pass."""
    if len(params) > 63:
        return ""
    vals = params.split(";")
    if len(vals) >= 24:
        return ""
    out: list[str] = []
    n_vals = len(vals)

    def num(i: int) -> int:
        if i >= n_vals or not vals[i]:
            return -1
        v = vals[i]
        return -1 if ":" in v else int(v)

    i = 0
    while i < n_vals:
        v = vals[i]
        if ":" in v:
            out.append(v)
            i += 1
            continue
        n = int(v) if v else 0
        if n in (38, 48, 58):
            i += 1
            t = num(i)
            if t == 2:
                r, g, b = num(i + 1), num(i + 2), num(i + 3)
                if 0 <= r <= 255 and 0 <= g <= 255 and 0 <= b <= 255:
                    out.append(f"{n};2;{r};{g};{b}")
                    i += 3
            elif t == 5:
                c = num(i + 1)
                if c == -1 or c > 255:
                    if n != 58:
                        out.append("39" if n == 38 else "49")
                else:
                    out.append(f"{n};5;{c}")
                i += 1
            i += 1
            continue
        if n <= 107:
            out.append(str(n))
        i += 1
    return ";".join(out)


_grid_ref = union_fn(
    "ghostty_terminal_grid_ref", "GhosttyResult(*)(GhosttyTerminal, GhosttyPointS, GhosttyGridRef*)"
)
_TAG_SCREEN = lib.GHOSTTY_POINT_TAG_SCREEN
_track_ref = union_fn(
    "ghostty_terminal_grid_ref_track",
    "GhosttyResult(*)(GhosttyTerminal, GhosttyPointS, GhosttyTrackedGridRef*)",
)
#: At most this many lines holding both OSC 133 marks are remembered (the oldest go first).
_BOTH_MARKS_KEPT = 256
_ROW_KEYS = ffi.new(
    "GhosttyRowData[5]",
    [lib.GHOSTTY_ROW_DATA_WRAP, lib.GHOSTTY_ROW_DATA_STYLED, lib.GHOSTTY_ROW_DATA_GRAPHEME,
     lib.GHOSTTY_ROW_DATA_HYPERLINK, lib.GHOSTTY_ROW_DATA_SEMANTIC_PROMPT],
)
_LINK_BIT = 1 << 45  # a packed cell's hyperlink flag
_OSC133_KINDS = frozenset(k.encode() for k in _OSC133_MARKS)  # the marks shell.py hears of
# A row's semantic prompt mark as tmux's line flag: _take writes OSC 133 C as a continuation.
_BOTH_MARKS = LINE_START_PROMPT | LINE_START_OUTPUT
_LINE_MARK = {lib.GHOSTTY_ROW_SEMANTIC_PROMPT: LINE_START_PROMPT,
              lib.GHOSTTY_ROW_SEMANTIC_PROMPT_CONTINUATION: LINE_START_OUTPUT}
_GRAPHEME = lib.GHOSTTY_CELL_CONTENT_CODEPOINT_GRAPHEME
_XT = ffi.new("char[]", f"tmux {TMUX_VERSION}".encode())  # XTVERSION answers as tmux does
_XTVERSION = ffi.new("GhosttyString*", {"ptr": ffi.cast("const uint8_t*", _XT),
                                         "len": len(f"tmux {TMUX_VERSION}")})
_FALSE = ffi.new("bool*", False)
_CLEAN = ffi.new("int*", lib.GHOSTTY_RENDER_STATE_DIRTY_FALSE)
_WIDE_TAIL = lib.GHOSTTY_CELL_WIDE_SPACER_TAIL
_WIDE_HEAD = lib.GHOSTTY_CELL_WIDE_SPACER_HEAD


def _colour(c, basic: bool) -> int:
    """Ghostty's colour as tmux encodes it. Ghostty keeps palette indices only, so SGR 31,
    91 and 38;5;1 cannot be told apart: 0-7 read back as 31-37, 8-15 as 90-97."""
    if c.tag == lib.GHOSTTY_STYLE_COLOR_PALETTE:
        n = c.value.palette
        if basic:
            if n < 8:
                return n
            if n < 16:
                return 90 + n - 8
        return n | COLOUR_FLAG_256
    if c.tag == lib.GHOSTTY_STYLE_COLOR_RGB:
        v = c.value.rgb
        return COLOUR_FLAG_RGB | (v.r << 16) | (v.g << 8) | v.b
    return 8 if basic else 0


def _tab_cells(r: Row, cells: dict[int, int], written: dict[int, int]) -> None:
    """Tabs from a row's marker cells (``cells``: column to code point; ``written``: the
    other columns holding a character, to its code point, -1 for the right half of a wide
    one), as tmux 3.7b leaves them after any grid operation: a tab is a ``"\t"`` cell and
    its padding, wherever ICH, DCH or an erase (ECH, EL) left them; a character written over
    a tab's padding makes the rest of it default blanks, and one written over its first cell
    makes the padding blanks (ASCII) or one-cell tabs (anything else: tmux's two write paths).
    Padding cells carry their offset in the tab, so a gap (DCH) is told from an overwrite,
    except at the end of the tab."""
    chars = r.chars
    styles = r.styles
    cols = len(chars)
    r.wide = True
    claimed: set[int] = set()
    for x in sorted(cells):
        cp = cells[x]
        if cp >= _TAB_PAD or x in claimed:
            continue
        width = cp - _TAB_HEAD
        group = [x]
        last = 0  # offset of the last padding cell seen (the first cell's is 0)
        after_pad = True
        cleared = False
        j = x + 1
        while j < cols:
            c = cells.get(j)
            if c is not None and _TAB_PAD + last < c < _TAB_PAD + width:
                last = c - _TAB_PAD
                group.append(j)
                after_pad = True
            elif c is None and j not in written:
                after_pad = False  # erased: the padding after it stays (ECH, EL, ICH)
            else:
                if j in written:
                    k = j
                    while k in written:
                        k += 1
                    c = cells.get(k)
                    if (c is not None and _TAB_PAD + last < c < _TAB_PAD + width) or (
                            after_pad and last < width - 1):
                        cleared = True  # written over the padding
                        while c is not None and _TAB_PAD + last < c < _TAB_PAD + width:
                            last = c - _TAB_PAD
                            group.append(k)
                            k += 1
                            c = cells.get(k)
                break
            j += 1
        claimed.update(group)
        if cleared:
            for i in group:
                chars[i] = " "
                styles[i] = 0
        else:
            chars[x] = "\t"
    kind = ""
    for x in sorted(cells):
        if x in claimed:
            continue
        if x - 1 not in cells:  # a run of padding without its first cell
            if x - 1 not in written:  # erased: still padding
                kind = ""
            else:
                first = written.get(x - (cells[x] - _TAB_PAD), 0x20)
                kind = " " if 0x20 <= first < 0x7F else "\t"
        if kind:
            chars[x] = kind
            if kind == " ":
                styles[x] = 0


def _style_of(st) -> Style:
    """A GhosttyStyle as tmux's cell style."""
    attr = _UNDERLINE[st.underline] if 0 <= st.underline < 6 else ATTR_UNDERSCORE
    for field, bit in _FLAGS:
        if getattr(st, field):
            attr |= bit
    return (attr, _colour(st.fg_color, True), _colour(st.bg_color, True),
            _colour(st.underline_color, False))


def _style_sgr(st: Style) -> bytes:
    """The SGR that makes Ghostty's pen ``st`` from any pen."""
    attr, fg, bg, us = st
    codes = ["0"]
    codes += [str(code) if code < 10 or code == 53 else f"{code // 10}:{code % 10}"
              for mask, code in _ATTR_CODES if attr & mask]
    for c, base, bright, ext, basic in ((fg, 30, 0, 38, True), (bg, 40, 10, 48, True),
                                        (us, 0, 0, 58, False)):
        codes += map(str, _colour_values(c, base, bright, ext, basic))
    return ("\x1b[" + ";".join(codes) + "m").encode()


def _cellsize(n: int, sx: int) -> int:
    """tmux's grid_expand_line steps: a line's cells grow to a quarter, half or all of the
    width, so capture-pane prints that many cells. Ghostty keeps no such size; this is the size
    of a line written in one go (tmux grows it per write, so a line written piece by piece to
    exactly a quarter or half of the width has the smaller size in tmux)."""
    if n <= 0:
        return 0
    if n < sx // 4:
        return sx // 4
    if n < sx // 2:
        return sx // 2
    return sx if n < sx else n


def _free_terminal(t, tracked: list) -> None:
    """A terminal's finalizer: its tracked refs first (they point into its pages)."""
    for ref in tracked:
        lib.ghostty_tracked_grid_ref_free(ref)
    tracked.clear()
    lib.ghostty_terminal_free(t)


def _free_render_state(rs, rit) -> None:
    lib.ghostty_render_state_row_iterator_free(rit)
    lib.ghostty_render_state_free(rs)


def _printable(t: str) -> bool:
    return not any(ord(c) < 0x20 or ord(c) == 0x7F for c in t)


class _View:
    """A python-engine-shaped holder of converted rows: capture-pane, row runs, search and
    tail are the python engine's methods run over it, so both engines format alike."""

    capture = Screen.capture
    _line_string = Screen._line_string
    _coded = Screen._coded
    _code = Screen._code
    _link_code = Screen._link_code
    row_runs = Screen.row_runs
    search = Screen.search
    tail = Screen.tail

    def __init__(self, eng: GhosttyScreen, rows: list[Row]) -> None:
        self._styles = eng._styles
        self._links = eng._links
        self.hyperlinks = eng.hyperlinks
        self._code_cache = eng._code_cache
        self.cols = eng.cols
        self._rows = rows
        self._hist: list = []
        self._alt = None


class GhosttyScreen:
    """One pane's terminal held by libghostty-vt."""

    name = "ghostty"

    # the python engine's answers and bookkeeping, run on this engine's state
    _osc_4 = Screen._osc_4
    _set_title = Screen._set_title
    _osc_104 = Screen._osc_104
    _osc_9 = Screen._osc_9
    _set_progress = Screen._set_progress
    _colour_reply = Screen._colour_reply
    _decrqss = Screen._decrqss
    _csi_decrqm = Screen._csi_decrqm
    _csi_decrqm_private = Screen._csi_decrqm_private
    _csi_winops = Screen._csi_winops
    _csi_dsr_private = Screen._csi_dsr_private
    _csi_modset = Screen._csi_modset
    _csi_modoff = Screen._csi_modoff
    _theme = Screen._theme
    report_theme = Screen.report_theme
    send_theme_update = Screen.send_theme_update
    sync = Screen.sync
    synchronized_output = Screen.sync
    input_buffer_size = Screen.input_buffer_size
    extended_keys_mode = Screen.extended_keys_mode
    sync_remaining = Screen.sync_remaining

    def __init__(self, cols: int, rows: int, history_limit: int = 2000) -> None:
        self.cols = max(1, cols)
        self.rows = max(1, rows)
        self.scroll_on_clear = True
        self.alternate_screen = True
        self._p = ffi.new("GhosttyTerminal*")
        if lib.ghostty_terminal_new(ffi.NULL, self._p, self.cols, self.rows):
            raise MemoryError("ghostty_terminal_new failed")
        self._t = self._p[0]
        #: Lines holding both OSC 133 marks, which a row's one semantic field cannot say:
        #: Ghostty tracks each as it scrolls and reflows (main screen only; see _mark).
        self._both: list = []
        self._free = weakref.finalize(self, _free_terminal, self._t, self._both)
        self._history_limit = max(0, history_limit)
        self.history_budget = HISTORY_BYTE_BUDGET  # applies the limit too
        self._replies = bytearray()
        self._events: list[tuple[str, object]] = []
        self._styles: list[Style] = [DEFAULT_STYLE]
        self._links: list[int] = [0]
        self._style_ids: dict = {DEFAULT_STYLE: 0}
        self.hyperlinks = Hyperlinks()
        self._code_cache: dict = {}
        self.revision = 0
        self.title = ""
        self.allow_set_title = True
        self.path = ""
        self.scroll_region_upper = 0
        self.scroll_region_lower = self.rows - 1
        self.alternate_saved_x = UINT_MAX
        self.alternate_saved_y = UINT_MAX
        self.cursor_style = 0
        self.extended_keys = False
        self.extended_keys_2 = False
        self.extended_keys_option = 0
        # what the python engine keeps and answers with (its code runs on these, _take)
        self.palette: dict[int, int] = {}
        self.default_palette: dict[int, int] = {}
        self.default_fg = 8
        self.default_bg = 8
        self.cursor_colour = -1
        self.default_cursor_colour = -1
        self.default_colours = None
        self.clipboard_query = None
        self.client_colours = None
        self.theme_query = None
        self.last_theme = 0
        self.theme_changed = False
        self.theme_updates = False
        self.progress_state = 0
        self.progress = 0
        self.default_cursor_style = 0
        self.cursor_blinking_set = False
        self.cell_pixels = (16, 32)
        self._sync_since: float | None = None
        self._titles: list[str] = []
        self._uri_links: dict[bytes, int] = {}
        self._link_open = False
        self._f_interm = ""
        self._last = None
        self._dirty = True
        self._held = b""  # an unfinished sequence, completed by the next feed
        self._u8: bytearray | None = None  # a UTF-8 character begun, not finished (_utf8)
        self._u8_size = 0
        self._u8_bad = False
        self._input_limit = INPUT_BUF_LIMIT
        self._dcs: bytearray | None = None  # a DCS tmux; payload not ended yet
        self._dcs_over = False  # ... and longer than input-buffer-size: dropped at its end
        self._tail = b""  # the end of the last read (whether REP follows a character)
        self._tabs: set[int] | None = None  # tab stops HTS and TBC set (None: the defaults)
        self._stops_key: tuple | None = None  # what _stops_at was worked out for
        self._stops_at: list[int] = []
        #: (SO/SI set in use, G0 and G1 line drawing) while any is on or saved, else None
        self._acs_state: tuple[int, bool, bool] | None = None
        self._acs_saved: tuple[int, bool, bool] | None = None  # as DECSC saved them
        self._acs_sids: dict[int, int] = {}
        self._saved_main: list[Row] | None = None  # the main screen under the alternate one
        self._saved_origin = False  # origin mode as DECSC saved it (RIS keeps it)
        self._hist_seen = 0  # native history rows at the last look (_note_history)
        #: The history size tmux would have (_tmux_hsize): Ghostty prunes whole pages, tmux
        #: the oldest tenth at the limit; lines older than this are not shown.
        self._vh = 0
        #: The seed's history counters, from the change in Ghostty's scrollback rows at each
        #: look (Ghostty counts no scrolled or pruned lines itself): a read that both scrolls
        #: and prunes is seen as its net change only.
        self.history_added = 0
        self.history_collected = 0
        self.history_generation = 0
        self._hist_times: list[list[int]] = []  # [rows, second] runs of history, oldest first
        self._rs = None
        self._rit = None
        self._install_callbacks()
        # Unicode grapheme clustering (mode 2027): ZWJ sequences, flags, skin tones and keycaps
        # join into one cell and VS16 makes a character wide, as tmux 3.7b's utf8 joins do;
        # without it Ghostty gives each code point its own width (_modes keeps it on)
        self._write(b"\x1b[?2027h")
        # scratch structures reused by every read
        self._pt = ffi.new("GhosttyPointS*")
        self._pt.tag = _TAG_SCREEN
        self._cpt = ffi.new("GhosttyPointS*")  # the cursor's row (_mark)
        self._cpt.tag = lib.GHOSTTY_POINT_TAG_ACTIVE
        self._coord = ffi.new("GhosttyPointCoordinate*")
        self._ref = ffi.new("GhosttyGridRef*")
        self._ref.size = ffi.sizeof("GhosttyGridRef")
        self._cell = ffi.new("GhosttyCell*")
        self._row = ffi.new("GhosttyRow*")
        self._bool = ffi.new("bool*")
        self._nout = ffi.new("size_t*")
        self._gbuf = ffi.new("uint32_t[64]")
        self._style = ffi.new("GhosttyStyle*")
        self._style.size = ffi.sizeof("GhosttyStyle")
        self._u16 = ffi.new("uint16_t*")
        self._flags = ffi.new("bool[4]")
        self._semantic = ffi.new("int*")
        self._flag_ptrs = ffi.new("void*[5]", [self._flags + i for i in range(4)]
                                  + [self._semantic])
        self._uribuf = ffi.new("uint8_t[8192]")
        self._sel = ffi.new("GhosttySelection*")
        self._sel.size = ffi.sizeof("GhosttySelection")
        self._fopts = ffi.new("GhosttyTerminalSelectionFormatOptions*")
        self._fopts.size = ffi.sizeof("GhosttyTerminalSelectionFormatOptions")
        self._fopts.emit = lib.GHOSTTY_FORMATTER_FORMAT_PLAIN
        self._fopts.unwrap = False
        self._fopts.trim = False
        self._fopts.selection = self._sel
        self._fbuf = ffi.new("uint8_t[]", 4 * self.cols + 64)
        self._sz = ffi.new("size_t*")
        self._screen_id = ffi.new("int*")

    # -- native plumbing -----------------------------------------------------------------------
    def _set(self, opt: int, ctype: str, value: int) -> None:
        lib.ghostty_terminal_set(self._t, opt, ffi.new(ctype + "*", value))

    def _install_callbacks(self) -> None:
        me = weakref.ref(self)

        def write_pty(_t, _u, data, n):
            s = me()
            if s is not None:
                s._replies += ffi.buffer(data, n)[:]

        def bell(_t, _u):
            s = me()
            if s is not None:
                s._events.append(("bell", None))

        def title(_t, _u):
            s = me()
            if s is not None:
                t = s._string(lib.GHOSTTY_TERMINAL_DATA_TITLE)
                if t is None or not _printable(t) or not s.allow_set_title:
                    return  # tmux refuses titles with controls
                t = clean_name(t.encode("utf-8").decode("latin-1"))
                if t is not None and t != s.title:
                    s.title = t
                    s._events.append(("title", t))

        def pwd(_t, _u):
            s = me()
            if s is not None:
                p = s._string(lib.GHOSTTY_TERMINAL_DATA_PWD)
                if p is None:  # tmux refuses a path that is not UTF-8
                    return
                p = clean_name(p.encode("utf-8").decode("latin-1"))
                if p is not None and p != s.path:
                    s.path = p
                    s._events.append(("path", p))

        def attrs(_t, _u, out):
            # tmux's answers: DA1 "\033[?1;2c", DA2 "\033[>84;0;0c".
            out.primary.conformance_level = 1
            out.primary.features[0] = 2
            out.primary.num_features = 1
            out.secondary.device_type = 84
            out.secondary.firmware_version = 0
            out.secondary.rom_cartridge = 0
            return True

        def size(_t, _u, out):
            # CSI 18 t: tmux answers with the pane's size in cells only.
            s = me()
            if s is None:
                return False
            out.rows = s.rows
            out.columns = s.cols
            out.cell_width = 0
            out.cell_height = 0
            return True

        def xtversion(_t, _u):
            return _XTVERSION[0]

        self._cbs = [
            (lib.GHOSTTY_TERMINAL_OPT_SIZE, ffi.callback("GhosttyTerminalSizeFn", size, False)),
            (lib.GHOSTTY_TERMINAL_OPT_XTVERSION, ffi.callback("GhosttyTerminalXtversionFn", xtversion)),
            (lib.GHOSTTY_TERMINAL_OPT_WRITE_PTY, ffi.callback("GhosttyTerminalWritePtyFn", write_pty)),
            (lib.GHOSTTY_TERMINAL_OPT_BELL, ffi.callback("GhosttyTerminalBellFn", bell)),
            (lib.GHOSTTY_TERMINAL_OPT_TITLE_CHANGED, ffi.callback("GhosttyTerminalTitleChangedFn", title)),
            (lib.GHOSTTY_TERMINAL_OPT_PWD_CHANGED, ffi.callback("GhosttyTerminalPwdChangedFn", pwd)),
            (
                lib.GHOSTTY_TERMINAL_OPT_DEVICE_ATTRIBUTES,
                ffi.callback("GhosttyTerminalDeviceAttributesFn", attrs, False),
            ),
        ]
        for opt, cb in self._cbs:
            lib.ghostty_terminal_set(self._t, opt, cb)

    def _get(self, key: int, out) -> object:
        lib.ghostty_terminal_get(self._t, key, out)
        return out[0]

    def _string(self, key: int) -> str | None:
        """A string datum, None when it is not valid UTF-8."""
        s = ffi.new("GhosttyString*")
        if lib.ghostty_terminal_get(self._t, key, s) or not s.len:
            return ""
        try:
            return ffi.buffer(s.ptr, s.len)[:].decode("utf-8")
        except UnicodeDecodeError:
            return None

    def _mode(self, n: int, ansi: bool = False) -> bool:
        c = ffi.new("GhosttyTerminalModeConfig*")
        c.mode = (n & 0x7FFF) | (ansi << 15)
        lib.ghostty_terminal_get(self._t, lib.GHOSTTY_TERMINAL_DATA_MODE, c)
        return bool(c.value)

    # -- history limit -------------------------------------------------------------------------
    # Ghostty prunes by line count slowly (about 7 MB/s on plain text here, against 45-80 MB/s
    # when pruning by bytes), so history-limit is enforced as a byte limit sized to hold at
    # least that many rows of this width (pages are whole, so a little more is kept and the
    # oldest extra rows are hidden), and never more than the byte budget.
    def _apply_scrollback(self) -> None:
        lim = self._history_limit
        need = (lim + 64) * (self.cols * 8 + 32) * 3 // 2 if lim > 0 else 0
        self._set(lib.GHOSTTY_TERMINAL_OPT_SCROLLBACK_MAX_BYTES, "size_t",
                  min(need, self._history_budget))

    @property
    def history_limit(self) -> int:
        return self._history_limit

    @history_limit.setter
    def history_limit(self, n: int) -> None:
        n = max(0, int(n))
        if n != self._history_limit:
            self._history_limit = n
            self._apply_scrollback()

    def apply_history_limit(self, limit: int) -> None:
        """A changed history-limit for this pane (tmux 3.7b applies it to existing panes)."""
        self.history_limit = limit

    @property
    def history_budget(self) -> int:
        """Bytes of scrollback pages Ghostty may hold (its own accounting, whole pages)."""
        return self._history_budget

    @history_budget.setter
    def history_budget(self, n: int) -> None:
        self._history_budget = n
        self._apply_scrollback()

    @property
    def history_size(self) -> int:
        if self.alternate_on:
            return 0
        n = self._get(lib.GHOSTTY_TERMINAL_DATA_SCROLLBACK_ROWS, self._sz)
        return min(int(n), self._vh)

    def grid_stats(self) -> tuple[int, int, int]:
        """Screen.grid_stats over every line read out of the native grid (only a format naming
        #{history_bytes} or #{history_all_bytes} asks)."""
        hsize = self.history_size
        rows = self._read_rows(self._hsize() - hsize, hsize + self.rows)
        cells, extd = rows_grid_stats(rows, extended_styles(self._styles, self._links))
        return len(rows), cells, extd

    def history_bytes(self) -> int:
        """Ghostty does not report what its pages hold: 8 bytes a cell plus a row header."""
        return self.history_size * (self.cols * 8 + 8)

    def clear_history(self) -> None:
        lib.ghostty_terminal_vt_write(self._t, b"\x1b[3J", 4)
        self._dirty = True
        self._note_history(moved=True)

    # -- input ---------------------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        """Parse a chunk of child output. Never raises.

        Sequences whose answers or effects are tmux's, not a terminal's, are taken out of the
        stream and handled here or with the python engine's own code (``_TAKEN``), so their
        replies keep their place among Ghostty's; the others ``_SPECIALS`` finds are looked at
        once Ghostty has parsed up to them. A read that ends inside a sequence keeps it for the
        next.
        """
        if not data:
            return
        self.revision += 1
        self._dirty = True
        try:
            if self._held:
                data = self._held + data
                self._held = b""
            if self._dcs is not None:  # inside a passthrough payload
                pos = self._passthrough(data, 0)
                if self._dcs is not None:
                    return
                data = data[pos:]
            if self._u8 is not None or not data.isascii():
                data = self._utf8(data)
            lf = self._region_lf()
            if b"\x1b" not in data and b"\x08" not in data and b"\t" not in data and not lf:
                self._write(data)
                self._keep_tail(data)
                return
            if b"\t" in data and not lf and data.isascii():
                # the text before the first sequence (all of a cat's read, usually)
                e = data.find(b"\x1b")
                b = data.find(b"\x08")
                e = b if e < 0 or 0 <= b < e else e
                if e < 0:
                    e = len(data)
                if e > 0:
                    rest = self._tabbed_text(data[:e])
                    self._keep_tail(data[:e - len(rest)])  # (what REP looks back at)
                    data = rest + data[e:]
            data = self._hold_tail(data)
            pos = 0
            specials = _SPECIALS[b"\x08" in data, b"\t" in data, lf, b";m" in data]
            restart = True
            while restart:  # again from ``pos`` when a DECSTBM changes what is looked at
                restart = False
                for m in specials.finditer(data, pos):
                    start = m.start()
                    if start < pos:  # inside a string already taken
                        continue
                    kind = m.lastgroup
                    kind = _ESC1[data[start + 1]] if kind == "esc1" else _KIND.get(kind, kind)
                    if kind == "pt":
                        if start > pos:
                            self._write(data[pos:start])
                        self._dcs = bytearray()
                        self._dcs_over = False
                        pos = self._passthrough(data, m.end())
                        if self._dcs is not None:  # the rest of the read is payload
                            break
                        continue
                    if kind in _STRINGS:
                        body_end, end = _string_end(data, m.end(), kind == "osc"
                                                    or kind == "link" or kind == "mark")
                        if end < 0:  # not ended yet: wait for the rest (up to 64 KiB)
                            if len(data) - start <= 65536:
                                self._held = data[start:] + self._held
                                data = data[:start]
                                break
                            continue
                    else:
                        body_end = end = m.end()
                    if kind in _TAKEN:
                        if start > pos:
                            self._write(data[pos:start])
                        pos = end
                        self._take(kind, data, start, m.end(), body_end, end)
                    else:
                        if end > pos:
                            self._write(data[pos:end])
                            pos = end
                        self._special(kind, data, start, m.end(), body_end)
                        if kind == "r" and self._region_lf() != lf:  # line feeds matter
                            lf = not lf
                            specials = _SPECIALS[b"\x08" in data, b"\t" in data, lf,
                                                 b";m" in data]
                            restart = True
                            break
            if pos < len(data):
                self._write(data[pos:])
            self._keep_tail(data)
            if self.theme_changed and self.theme_updates:  # the server loop's theme update
                self._replies += self.send_theme_update()
        except Exception:  # pragma: no cover - a callback failing must not stop the pane
            log.exception("ghostty feed failed")
        finally:
            self._note_history()

    def _utf8(self, data: bytes) -> bytes:
        """UTF-8 as tmux 3.7b reads it, before Ghostty sees it: a byte that cannot start a
        character, or a character broken by another start byte, text or a C0 control, is one
        U+FFFD (Ghostty writes one per byte); a character split across reads, or by an escape
        sequence, is completed; a C1 control (width 0 in tmux, joining the cell before) is
        written as a variation selector Ghostty joins alike (_C1_CELL). A valid read costs one
        decode."""
        u8 = self._u8
        if u8 is not None:  # a character begun in an earlier read
            need = self._u8_size - len(u8)
            head = data[:need]
            if len(head) == need and all(0x80 <= b < 0xC0 for b in head):
                self._u8 = None
                try:
                    done = (bytes(u8) + head).decode("utf-8").encode()
                except UnicodeDecodeError:
                    done = _FFFD
                return _c1_cells(done) + (self._utf8(data[need:]) if len(data) > need else b"")
            return self._utf8_slow(data)
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            if e.reason != "unexpected end of data":
                return self._utf8_slow(data)
            esc = data.rfind(b"\x1b", 0, e.start)
            if esc >= 0 and e.start - esc <= 65536 and _unfinished(data[esc:e.start]):
                return _c1_cells(data)  # inside a sequence: held whole with it (_hold_tail)
            self._u8 = bytearray(data[e.start:])
            self._u8_size = _utf8_size(data[e.start])
            self._u8_bad = False
            data = data[:e.start]
        return _c1_cells(data)

    def _utf8_slow(self, data: bytes) -> bytes:
        """_utf8 for a read holding invalid UTF-8 (or continuing a character): tmux's
        input_top_bit_set, a byte at a time; text and C0 controls end a character unfinished,
        escape sequences are stepped over."""
        out = bytearray()
        u8 = self._u8
        u8_at = -1  # where in ``out`` the character being read began
        size = self._u8_size
        bad = self._u8_bad
        for m in _UTF8_TOKENS.finditer(data):
            kind = m.lastgroup
            if kind == "seq":
                out += m.group()
                continue
            if kind == "lo":
                if u8 is not None:
                    out += _FFFD
                    u8 = None
                out += m.group()
                continue
            for b in m.group():
                if u8 is None:
                    size = _utf8_size(b)
                    if size:
                        u8 = bytearray((b,))
                        u8_at = len(out)
                        bad = False
                    else:
                        out += _FFFD
                    continue
                if b & 0xC0 != 0x80:
                    bad = True
                u8.append(b)
                if len(u8) < size:
                    continue
                if bad:
                    out += _FFFD
                else:
                    try:
                        out += bytes(u8).decode("utf-8").encode()
                    except UnicodeDecodeError:
                        out += _FFFD
                u8 = None
        if u8 is not None:
            esc = out.rfind(b"\x1b")
            if 0 <= esc < u8_at and _unfinished(out[esc:]):
                out += u8  # after a sequence held for the next read: read again with it
                u8 = None
        self._u8 = u8
        self._u8_size = size
        self._u8_bad = bad
        return _c1_cells(bytes(out))

    def _mark(self, seq: bytes, kind: int) -> None:
        """Mark the cursor's line (``seq``: Ghostty's in-place mark of ``kind``). A line that
        already holds the other mark holds both, as in tmux: a command with no output, the
        next prompt on the line its output would have started. Such a line is tracked."""
        pt = self._cpt
        pt.value.y = self.cursor_y
        if (not _grid_ref(self._t, pt[0], self._ref)
                and not lib.ghostty_grid_ref_row(self._ref, self._row)
                and not lib.ghostty_row_get_multi(self._row[0], 5, _ROW_KEYS, self._flag_ptrs,
                                                  self._nout)
                and self._semantic[0] not in (0, kind) and not self.alternate_on):
            out = ffi.new("GhosttyTrackedGridRef*")
            if not _track_ref(self._t, pt[0], out):
                both = self._both
                both.append(out[0])
                if len(both) > _BOTH_MARKS_KEPT:
                    lib.ghostty_tracked_grid_ref_free(both.pop(0))
        self._write(seq)

    def _both_rows(self) -> set[int]:
        """The whole-screen rows (as _read_rows counts them) holding both marks; lines gone
        from the history are forgotten."""
        ys: set[int] = set()
        if self.alternate_on:
            return ys
        keep = []
        at = self._coord
        for ref in self._both:
            if not lib.ghostty_tracked_grid_ref_has_value(ref):
                lib.ghostty_tracked_grid_ref_free(ref)
                continue
            keep.append(ref)
            if not lib.ghostty_tracked_grid_ref_point(ref, _TAG_SCREEN, at):
                ys.add(at.y)
        self._both[:] = keep
        return ys

    def _passthrough(self, data: bytes, pos: int) -> int:
        """Collect a ``DCS tmux;`` payload from ``pos`` as tmux's DCS handler does: only ESC
        backslash ends it, ESC ESC is an ESC of the payload and ESC with anything else keeps
        that character. Ghostty never sees it (it would act on what is inside); the payload is
        a ``("passthrough", bytes)`` event, as the python engine gives. Returns where the
        sequence ends, or the read's length when it goes on in the next read."""
        buf = self._dcs
        n = len(data)
        while True:
            e = data.find(b"\x1b", pos)
            end = n if e < 0 else e
            if not self._dcs_over:
                if len(buf) + end - pos + 1 >= self._input_limit:
                    self._dcs_over = True
                    buf.clear()
                else:
                    buf += data[pos:end]
            if e < 0:
                return n
            if e + 1 == n:  # an ESC that ends the read: what follows it decides
                self._held = data[e:] + self._held
                return n
            c = data[e + 1]
            pos = e + 2
            if c == 0x5C:
                self._dcs = None
                if not self._dcs_over:
                    self._events.append(("passthrough", bytes(buf)))
                return pos
            if not self._dcs_over:
                buf.append(c)

    def _note_history(self, moved: bool = False) -> None:
        """Stamp the rows that scrolled into history since the last look with the current
        second (tmux's gl->time, copy mode's #{top_line_time}): Ghostty keeps no time per row.
        Rows pruned from the top take the oldest stamps with them; a read that both prunes and
        scrolls is seen only as its net growth, so a few rows may keep an older stamp.

        The growth counts as ``history_added``, a loss as ``history_collected``, or, when
        ``moved`` (history cleared, or lines taken back by a taller pane), as a new
        ``history_generation``."""
        if self._get(lib.GHOSTTY_TERMINAL_DATA_ACTIVE_SCREEN, self._screen_id):
            return  # the alternate screen has no history; the main screen's stays as it was
        n = int(self._get(lib.GHOSTTY_TERMINAL_DATA_SCROLLBACK_ROWS, self._sz))
        seen = self._hist_seen
        if n == seen:
            return
        times = self._hist_times
        if n > seen:
            self._vh = _tmux_hsize(self._vh, n - seen, self._history_limit)
            self.history_added += n - seen
            t = _history_time()
            if times and times[-1][1] == t:
                times[-1][0] += n - seen
            else:
                times.append([n - seen, t])
        else:
            drop = seen - n
            self._vh = min(self._vh, n)
            if moved:
                self.history_generation += 1
            else:
                self.history_collected += drop
            while drop and times:
                if times[0][0] <= drop:
                    drop -= times.pop(0)[0]
                else:
                    times[0][0] -= drop
                    drop = 0
        self._hist_seen = n

    def _stamp(self, rows: list[Row], first: int) -> None:
        """Give history rows read from native row ``first`` on their times."""
        y = 0  # native row at the start of the run
        i = 0
        for count, t in self._hist_times:
            end = y + count
            while i < len(rows) and first + i < end:
                if first + i >= y:
                    rows[i].time = t
                i += 1
            y = end
            if i >= len(rows):
                break

    def _keep_tail(self, data: bytes) -> None:
        self._tail = data[-16:] if len(data) >= 16 else (self._tail + data)[-16:]

    def _write(self, data: bytes) -> None:
        if self._acs_state or b"\x0e" in data:  # (feed takes SCS out: _take)
            data = self._charsets(data)
        lib.ghostty_terminal_vt_write(self._t, data, len(data))

    def _charsets(self, data: bytes) -> bytes:
        """Character sets as tmux keeps them: text printed while the DEC line-drawing set is
        in use becomes marker cells (U+F0020-U+F007E, read back as the ASCII character with
        the charset attribute); SCS, SO and SI are kept from Ghostty (which would translate
        the characters itself) and tracked here, saved and restored with the cursor (DECSC,
        SCOSC) and reset by RIS."""
        cs, g0, g1 = self._acs_state or (0, False, False)
        saved = self._acs_saved
        out: list[bytes] = []
        pos = 0
        for m in _CHARSET_TOKENS.finditer(data):
            kind = m.lastgroup
            if kind is None:
                continue
            start = m.start()
            if kind == "text":
                if g1 if cs else g0:
                    out.append(data[pos:start])
                    out.append(m.group().decode("latin-1").translate(_ACS_TEXT).encode())
                    pos = m.end()
                continue
            if kind == "scs" or kind == "so" or kind == "si":
                out.append(data[pos:start])
                pos = m.end()
                if kind == "so":
                    cs = 1
                elif kind == "si":
                    cs = 0
                elif data[start + 2] in b"0B":
                    if data[start + 1] == 0x28:
                        g0 = data[start + 2] == 0x30
                    else:
                        g1 = data[start + 2] == 0x30
                continue
            if kind == "save":
                saved = (cs, g0, g1)
            elif kind == "restore":
                cs, g0, g1 = saved or (0, False, False)
            elif kind == "ris":
                cs, g0, g1, saved = 0, False, False, None
        self._acs_saved = saved if saved and any(saved) else None
        self._acs_state = (cs, g0, g1) if cs or g0 or g1 or self._acs_saved else None
        if not out:
            return data
        out.append(data[pos:])
        return b"".join(out)

    def _tabbed_text(self, data: bytes) -> bytes:
        """Text with tabs (no escape sequence, ASCII) flooding a full screen, as ``cat`` of a
        tab-separated file or source code gives: once a line feed has scrolled a fresh blank
        row in at the bottom, every line after it starts on a blank row, so each of its tabs
        is a tab cell whose width the text before it decides (what _tab finds cell by cell).
        Those lines are written at once; returns what is left for the general path (the first
        line, and everything from a line this cannot vouch for)."""
        if self._acs_state or self._link_open or self.scroll_region_upper != 0 or \
                self.scroll_region_lower != self.rows - 1 or self._mode(4, True):
            return data
        bottom = self.rows - 1
        pos = 0
        end = len(data)
        while True:  # lines one tab at a time until one scrolls a fresh row in
            nl = data.find(b"\n", pos)
            if nl < 0 or nl + 1 == end:
                return data[pos:]
            at_bottom = self._cursor()[1] == bottom
            self._tabbed_line(data[pos:nl + 1])
            pos = nl + 1
            if at_bottom:
                break
        x, y = self._cursor()
        if x or y != bottom or self._get(lib.GHOSTTY_TERMINAL_DATA_CURSOR_PENDING_WRAP,
                                         self._bool) or self._pen() != DEFAULT_STYLE:
            return data[pos:]
        stop_at = self._next_stops()
        out: list[bytes] = []
        while pos < end:
            nl = data.find(b"\r\n", pos)
            line = _tabbed_line_cells(data[pos:end if nl < 0 else nl], stop_at)
            if line is None:
                break
            out.append(line)
            if nl < 0:
                pos = end
            else:
                out.append(b"\r\n")
                pos = nl + 2
        if out:
            done = b"".join(out)
            lib.ghostty_terminal_vt_write(self._t, done, len(done))
        return data[pos:]

    def _tabbed_line(self, text: bytes) -> None:
        """Text without escape sequences, its tabs done one at a time (_tab)."""
        parts = text.split(b"\t")
        self._write(parts[0])
        for part in parts[1:]:
            self._tab()
            if part:
                self._write(part)

    def _tab(self) -> None:
        """HT as tmux 3.7b does it (input_c0_dispatch): over blanks that all look alike, up to
        the next tab stop and at most 32 columns, a tab cell (marker cells, in the style of the
        blank at the cursor); otherwise the cursor only moves."""
        x, y = self._cursor()
        sx = self.cols
        if x >= sx - 1:
            return
        stop = self._next_stops()[x]
        width = stop - x
        move = b"\x1b[%dG" % (stop + 1)  # the cursor only moves: to the stop tmux finds
        if width > 32:
            self._write(move)
            return
        pt = self._cpt
        pt.value.y = y
        ref = self._ref
        cell = self._cell
        if _grid_ref(self._t, pt[0], ref):
            self._write(move)
            return
        first = -1
        for xx in range(x, stop):
            ref.x = xx
            lib.ghostty_grid_ref_cell(ref, cell)
            c = cell[0]
            if c & 3 < 2:  # text: a blank, or a space of one width
                if _TAB_HEAD <= (c >> 2) & 0x1FFFFF < _MARKERS_END:
                    return self._tab_over_cells(x, y, stop)
                if (c >> 2) & 0x1FFFFF not in (0, 32) or (c >> 42) & 3 or c & _LINK_BIT:
                    self._write(move)
                    return
                look = (c >> 26) & 0xFFFF
            else:  # a cleared cell holding a background colour
                look = c & ((1 << 26) - 1) | 1 << 63
            if first < 0:
                first = look
                if look >> 63:
                    style = self._bg_only(c & 3, (c >> 2) & 0xFFFFFF)
                else:
                    style = self._read_style() if look else DEFAULT_STYLE
            elif look != first:
                self._write(move)
                return
        self._write_tab(width, style)

    def _tab_over_cells(self, x: int, y: int, stop: int) -> None:
        """_tab over a stretch holding tab cells: looked at as tmux's cells (a tab's padding
        written over may be blanks by now)."""
        row = self._read_rows(self._hsize() + y, 1)[0]
        sid = row.styles[x]
        if any(row.chars[xx] != " " or row.styles[xx] != sid for xx in range(x, stop)):
            self._write(b"\x1b[%dG" % (stop + 1))
        else:
            self._write_tab(stop - x, self._styles[sid])

    def _write_tab(self, width: int, style: Style) -> None:
        """Write a tab cell ``width`` wide in ``style`` at the cursor (the pen put back)."""
        cells = _tab_cells_bytes(width)
        pen = self._pen()
        if pen != style:
            cells = _style_sgr(style) + cells + _style_sgr(pen)
        lib.ghostty_terminal_vt_write(self._t, cells, len(cells))

    def _pen(self) -> Style:
        """The style the next character is written with (Ghostty's cursor style)."""
        st = self._style
        lib.ghostty_terminal_get(self._t, lib.GHOSTTY_TERMINAL_DATA_CURSOR_STYLE, st)
        return _style_of(st)

    def _hold_tail(self, data: bytes) -> bytes:
        """Keep back a sequence the read ends inside (up to 64 KiB)."""
        i = data.rfind(b"\x1b")
        if i < 0 or len(data) - i > 65536 or not _unfinished(data[i:]):
            return data
        self._held = data[i:] + self._held
        return data[:i]

    def _take(self, kind: str, data: bytes, start: int, head: int, body_end: int,
              end: int) -> None:
        """A sequence taken out of the stream: answered or applied as tmux does."""
        if kind == "lf":
            self._linefeed(data[start:end])
        elif kind == "scs":
            self._charsets(data[start:end])  # tracked there, kept from Ghostty
        elif kind == "ht":
            if self._get(lib.GHOSTTY_TERMINAL_DATA_VT_GROUND, self._bool):
                self._tab()
            else:
                self._write(b"\t")  # a C0 control inside a sequence: executed there
        elif kind == "bs":
            if self._get(lib.GHOSTTY_TERMINAL_DATA_VT_GROUND, self._bool):
                # tmux's backspace: from the first column back to the end of a wrapped line
                # above, and from a pending wrap to the last column (Ghostty's reverse wrap)
                self._write(b"\x1b[?45h\x08\x1b[?45l")
            else:
                self._write(b"\x08")  # a C0 control inside a sequence: executed there
        elif kind == "mode":
            self._modes(data[start + 3:end - 1], data[end - 1] == 0x68)
        elif kind == "sgrx":
            fixed = _fix_sgr(data[start + 2:end - 1].decode("latin-1"))
            if fixed:
                self._write(b"\x1b[" + fixed.encode() + b"m")
        elif kind == "ed":
            self._erase_display(data[start + 2:end - 1], data[start:end])
        elif kind == "su":
            self._scroll_up(data[start + 2:end - 1], data[start:end])
        elif kind == "rep":
            before = data[max(0, start - 64):start]
            if start < 64:
                before = self._tail + before
            if _after_character(before):
                self._write(data[start:end])
        elif kind == "c":
            self._ris()
        elif kind == "k":
            name = clean_name(_strip_c0(data[head:body_end].decode("latin-1")))
            if name is not None:
                self._events.append(("rename", name))
        elif kind == "apc":
            self._set_title(_strip_c0(data[head:body_end].decode("latin-1")))
        elif kind == "osc":
            body = _strip_c0(data[start + 2:body_end].decode("latin-1"))
            Screen._osc(self, body, data[body_end:end] == b"\x07")
        elif kind == "mark":
            # OSC 133 A and C mark the cursor's line and do nothing else in tmux. Ghostty's own
            # A starts a new line first when the cursor is not at the start of one, and its C
            # marks no row; its P marks the cursor's row where it is, as a prompt or (k=c) a
            # continuation. So A is written as P and C as a continuation, read back as the
            # output mark; a line given both is tracked (_mark). A D after either puts
            # Ghostty's cursor back in output, or each new line would continue the mark.
            # Every mark the python engine knows also reaches the pane's shell integration.
            mark = data[head:head + 1]
            if mark == b"A":
                self._mark(b"\x1b]133;P\x07\x1b]133;D\x07", lib.GHOSTTY_ROW_SEMANTIC_PROMPT)
            elif mark == b"C":
                self._mark(b"\x1b]133;P;k=c\x07\x1b]133;D\x07",
                           lib.GHOSTTY_ROW_SEMANTIC_PROMPT_CONTINUATION)
            if mark in _OSC133_KINDS:
                self._events.append(("osc133", _strip_c0(data[head:body_end].decode("latin-1"))))
        elif kind == "rqss":
            self._f_interm = "$"
            self._decrqss(_strip_c0(data[head - 1:body_end].decode("latin-1")))
        elif kind != "kitty":  # a CSI: DECRQM, window operations, a private DSR, DA, XDA
            body = data[start + 2:end].decode("latin-1")
            final = body[-1]
            interm = ""
            if body[0] in "?>":
                interm, body = body[0], body[1:]
            body = body[:-1]
            if body.endswith("$"):
                interm += "$"
                body = body[:-1]
            Screen._csi(self, interm, body, final)

    def _special(self, kind: str | None, data: bytes, at: int, head: int,
                 body_end: int) -> None:
        """One sequence _SPECIAL found that Ghostty parses too, once it has."""
        if kind == "r":
            m = _DECSTBM.match(data, at)
            if m:
                top = int(m.group(1) or 1)
                bot = min(int(m.group(2) or self.rows), self.rows)
                if top < bot:
                    self.scroll_region_upper = top - 1
                    self.scroll_region_lower = bot - 1
        elif kind == "q":
            m = _DECSCUSR.match(data, at)
            if m:
                n = int(m.group(1) or 0)
                self.cursor_style = n if n <= 6 else 0
                if n == 0:
                    self.cursor_blinking_set = False
        elif kind == "m":
            text = data[at + 3:head].decode("latin-1")
            Screen._csi(self, ">", text[:-1], text[-1])
        elif kind == "hts":
            x = self.cursor_x
            if x < self.cols:
                self._tab_stops().add(x)
        elif kind == "tbc":
            p = data[at + 2:head - 1]
            if p in (b"", b"0"):
                self._tab_stops().discard(self.cursor_x)
            elif p == b"3":
                self._tabs = set()
        elif kind == "decsc":
            self._saved_origin = self._mode(6)
        elif kind == "link":
            self._osc_8_seen(data[head:body_end])
        elif kind == "sgr0":
            if self._link_open:  # CSI m (no parameter) ends a hyperlink in tmux, not Ghostty
                self._write(b"\x1b]8;;\x1b\\")
                self._link_open = False

    # -- what tmux does differently from a terminal --------------------------------------------
    def _modes(self, params: bytes, on: bool) -> None:
        """Private modes (DECSET/DECRST) as tmux keeps them: one mouse tracking mode (setting
        or resetting any clears the others), the alternate screen's saved cursor and main
        screen (capture-pane -a) and the alternate-screen option; modes tmux does not know
        that would change Ghostty's behaviour (reverse wrap, left and right margins) are
        dropped. The rest reach Ghostty in order."""
        out = []
        for part in params.split(b";"):
            n = int(part) if part.isdigit() else -1
            if n in (47, 1047, 1049):
                if not self.alternate_screen:
                    continue
                if self._write_modes(out) and on and not self.alternate_on:
                    if n == 1049:
                        self.alternate_saved_x = self.cursor_x
                        self.alternate_saved_y = self.cursor_y
                    self._saved_main = self.visible_rows()
                self._write(b"\x1b[?%d%c" % (n, 104 if on else 108))
                if not on and not self.alternate_on:
                    self._saved_main = None
                continue
            if n in (1000, 1002, 1003):
                out.append(b"1000;1002;1003")
                self._write_modes(out, False)
                if not on:
                    continue
            elif n in (45, 69, 2027):  # 2027: grapheme clustering stays on (tmux's joins)
                continue
            elif n == 2026:
                self._sync_since = time.monotonic() if on else None
                self._events.append(("sync", on))
            elif n == 2031:
                self.theme_updates = on
                if on:
                    self.last_theme = self._theme()
                    self.theme_changed = False
            elif n == 12:
                self.cursor_blinking_set = True
            out.append(part)
        self._write_modes(out, on)

    def _write_modes(self, parts: list, on: bool = True) -> bool:
        if parts:
            self._write(b"\x1b[?" + b";".join(parts) + (b"h" if on else b"l"))
            parts.clear()
        return True

    def _cursor(self) -> tuple[int, int]:
        """Ghostty's cursor (the column tmux shows one past the end when a wrap is pending is
        the last column here)."""
        return (int(self._get(lib.GHOSTTY_TERMINAL_DATA_CURSOR_X, self._u16)),
                int(self._get(lib.GHOSTTY_TERMINAL_DATA_CURSOR_Y, self._u16)))

    def _around_cursor(self, body: bytes) -> None:
        """Write ``body`` (which may move the cursor and set margins freely, with origin mode
        off) and put the cursor, the scroll region and origin mode back."""
        x, y = self._cursor()
        top, bot = self.scroll_region_upper, self.scroll_region_lower
        region = b"" if (top, bot) == (0, self.rows - 1) else b"\x1b[%d;%dr" % (top + 1, bot + 1)
        if self._mode(6):
            self._write(b"\x1b[?6l" + body + region + b"\x1b[?6h\x1b[%d;%dH"
                        % (y - top + 1, x + 1))
        else:
            self._write(b"\x1b[?6l" + body + region + b"\x1b[%d;%dH" % (y + 1, x + 1))

    def _region_lf(self) -> bool:
        """Whether line feeds are looked at: a scroll region from the top that ends above the
        bottom, whose top line tmux moves into history as it scrolls."""
        return self.scroll_region_upper == 0 and self.scroll_region_lower < self.rows - 1

    def _linefeed(self, seq: bytes) -> None:
        """LF, VT, FF, IND or NEL. At the bottom of a scroll region that starts at the top (and
        not the bottom of the screen), tmux moves the region's top line into history
        (grid_scroll_history_region; apt's progress bar keeps such a region), where Ghostty
        drops it: the screen scrolls whole instead and the lines below the region are put
        back (as _scroll_up does for SU)."""
        if not self._region_lf() or not self._history_on() or (
                len(seq) == 1 and not self._get(lib.GHOSTTY_TERMINAL_DATA_VT_GROUND, self._bool)):
            self._write(seq)
            return
        x, y = self._cursor()
        bot = self.scroll_region_lower
        if y != bot:
            self._write(seq)
            return
        rows = self.rows
        self._around_cursor(b"\x1b[r\x1b[%d;1H\n\x1b[%d;%dr\x1bM" % (rows, bot + 1, rows))
        if seq == b"\x1bE":
            self._write(b"\r")

    def _history_on(self) -> bool:
        return self._history_limit > 0 and not self.alternate_on

    def _erase_display(self, params: bytes, seq: bytes) -> None:
        """ED: tmux scrolls the screen up to its last used line into history for ED 2, and for
        ED 0 at the home position, when scroll-on-clear is on (Ghostty's ED 22)."""
        n = params.split(b";", 1)[0]
        into_history = self.scroll_on_clear and self._history_on()
        if n == b"3":  # the history cleared: a new generation, not lines collected
            self._note_history()
            self._write(seq)
            self._note_history(moved=True)
        elif into_history and n == b"2":
            self._around_cursor(b"\x1b[22J")
        elif into_history and n in (b"", b"0") and self._cursor() == (0, 0):
            self._write(b"\x1b[22J\x1b[H")
        else:
            self._write(seq)

    def _scroll_up(self, params: bytes, seq: bytes) -> None:
        """SU: the lines scrolled off the top of the scroll region go into history (for a
        region that starts at the top of the screen; one further down is Ghostty's)."""
        top, bot = self.scroll_region_upper, self.scroll_region_lower
        if not self._history_on() or top != 0 or b";" in params or (params and not
                                                                     params.isdigit()):
            self._write(seq)
            return
        n = min(max(int(params or b"1"), 1), bot - top + 1)
        rows = self.rows
        body = b"\x1b[r\x1b[%d;1H" % rows + b"\n" * n
        if bot < rows - 1:  # put back the lines below the region, which scrolled too
            body += b"\x1b[%d;%dr\x1b[%dT" % (bot + 2 - n, rows, n)
        self._around_cursor(body)

    def _ris(self) -> None:
        """RIS as tmux does it (input_reset_cell, screen_write_reset): modes, tabs, the scroll
        region, the cell and charsets reset and the screen cleared as ED 2 clears it, history
        and title kept, the alternate screen not left; the saved cursor goes home with the
        default cell but keeps its origin mode."""
        self.palette.clear()
        self.scroll_region_upper = 0
        self.scroll_region_lower = self.rows - 1
        self._acs_state = self._acs_saved = None
        self.cursor_style = 0
        self._sync_since = None
        self.theme_updates = self.cursor_blinking_set = False
        self.extended_keys_2 = False
        self._tabs = None
        seq = (b"\x1b[!p\x1b[r\x1b[?6l\x1b[0m\x1b(B\x1b)B\x0f\x1b>\x1b[4;20l"
               b"\x1b[?1;5;12;1000;1002;1003;1004;1005;1006;1015;2004;2026l\x1b[?7;25h\x1b[3g")
        seq += b"".join(b"\x1b[%dG\x1bH" % (x + 1) for x in range(8, self.cols, 8))
        seq += b"\x1b[H"
        if self.scroll_on_clear and self._history_on():
            seq += b"\x1b[22J\x1b[H"
        else:
            seq += b"\x1b[2J"
        if self._saved_origin:
            seq += b"\x1b[?6h\x1b7\x1b[?6l"
        else:
            seq += b"\x1b7"
        self._write(seq)

    def _next_stops(self) -> list[int]:
        """Where a tab from each column stops: the next tab stop, else the last column."""
        key = (self.cols, frozenset(self._tab_stops()))
        if self._stops_key != key:
            cols = self.cols
            out = [cols - 1] * cols
            stop = cols - 1
            for x in range(cols - 2, -1, -1):
                out[x] = stop
                if x in key[1] and x > 0:
                    stop = x
            self._stops_key = key
            self._stops_at = out
        return self._stops_at

    def _tab_stops(self) -> set[int]:
        if self._tabs is None:
            self._tabs = set(range(8, self.cols, 8))
        return self._tabs

    def tabs(self) -> list[int]:
        """Tab stops as HTS and TBC left them (tracked here: Ghostty does not report its
        own, which follow the same sequences)."""
        if self._tabs is None:
            return list(range(8, self.cols, 8))
        return sorted(x for x in self._tabs if x < self.cols)

    def _osc_8_seen(self, p: bytes) -> None:
        """OSC 8 as Ghostty stores it keeps the URI only: remember the ``id=`` it came with
        (capture-pane -e prints it), and make the link tmux's numbered hyperlink."""
        params, sep, uri = p.partition(b";")
        if not sep:
            return
        self._link_open = bool(uri)
        if not uri:
            return
        link_id = None
        for item in params.split(b":"):
            if item.startswith(b"id=") and len(item) > 3:
                link_id = item[3:].decode("latin-1")
        self._uri_links[uri] = self.hyperlinks.put(uri.decode("latin-1"), link_id)

    def resize(self, cols: int, rows: int) -> None:
        cols = max(1, cols)
        rows = max(1, rows)
        if (cols, rows) == (self.cols, self.rows):
            return
        reflow = cols != self.cols
        # tmux rewraps every line of the grid, the blank ones below the text too, and shows
        # the last screenful: lines a narrower width adds push the top ones into history,
        # where Ghostty fills the blank rows below first (measured for a width change alone)
        below = self._blank_rows() if reflow and rows == self.rows and self._history_on() \
            else -1
        # a cursor past the end of its line's text goes to the end of it (grid_wrap_position)
        at_end = reflow and not self.alternate_on and self.cursor_x >= self._read_rows(
            self._hsize() + self.cursor_y, 1)[0].used
        lib.ghostty_terminal_resize(self._t, cols, rows, 8, 16)
        self.cols, self.rows = cols, rows
        self._fbuf = ffi.new("uint8_t[]", 4 * cols + 64)
        self._apply_scrollback()
        self.scroll_region_upper = 0
        self.scroll_region_lower = rows - 1
        self._dirty = True
        if below >= 0:
            up = below - self._blank_rows()
            if up > 0:
                x, y = self._cursor()
                self._write(b"\x1b[%d;1H" % rows + b"\n" * up + b"\x1b[%d;%dH"
                            % (max(y - up, 0) + 1, x + 1))
        if at_end:
            y = self.cursor_y
            first = self._hsize() + y
            line = self._read_rows(first, rows - y)
            k = 0
            while k + 1 < len(line) and line[k].wrapped:
                k += 1
            if line[k].used < cols:
                self._write(b"\x1b[%d;%dH" % (y + k + 1, line[k].used + 1))
        vh, seen = self._vh, self._hist_seen
        if reflow:  # Ghostty rewraps history: every line may have moved
            self.history_generation += 1
            added, collected = self.history_added, self.history_collected
            self._note_history()
            self.history_added, self.history_collected = added, collected
        else:
            self._note_history(moved=True)
        if self._hist_seen > seen:  # lines a resize pushes up stay past the limit (as in tmux)
            self._vh = vh + self._hist_seen - seen

    def _blank_rows(self) -> int:
        """Visible rows below the last one holding anything and below the cursor."""
        last = self.cursor_y
        rows = self._read_rows(self._hsize() + last + 1, self.rows - last - 1)
        n = 0
        for r in reversed(rows):
            if r.size or r.used:
                break
            n += 1
        return n

    def reset(self) -> None:
        """send-keys -R: tmux's RIS and a fresh parser (Ghostty's own full reset would clear
        the history too)."""
        self._held = b""
        self._u8 = None
        self._dcs = None
        self._write(b"\x18")  # CAN: back to the ground state
        self._ris()
        self.extended_keys = False
        self._dirty = True
        self._note_history()

    def reinit(self) -> None:
        """respawn-pane: blank the visible lines (not into history), home, default modes."""
        self._held = b""
        self._u8 = None
        self._dcs = None
        seq = (b"\x1b[?1049l\x1b[!p\x1b[?25h\x1b[r\x1b[H" + b"\x1b[2K\x1b[B" * self.rows
               + b"\x1b[H")  # (Ghostty's DECSTR leaves the cursor hidden)
        lib.ghostty_terminal_vt_write(self._t, seq, len(seq))
        self.scroll_region_upper = 0
        self.scroll_region_lower = self.rows - 1
        self.alternate_saved_x = UINT_MAX
        self.alternate_saved_y = UINT_MAX
        self._acs_state = self._acs_saved = None
        self._dirty = True

    def take_replies(self) -> bytes:
        r = bytes(self._replies)
        self._replies.clear()
        return r

    def take_events(self) -> list[tuple[str, object]]:
        ev = self._events
        self._events = []
        return ev

    def take_dirty(self) -> set[int]:
        """Ghostty's own row damage, read through a render state (the row the cursor left
        counts as changed too)."""
        if not self._dirty:
            return set()
        self._dirty = False
        if self._rs is None:
            self._rs = ffi.new("GhosttyRenderState*")
            self._rit = ffi.new("GhosttyRenderStateRowIterator*")
            if lib.ghostty_render_state_new(ffi.NULL, self._rs) or (
                lib.ghostty_render_state_row_iterator_new(ffi.NULL, self._rit)
            ):
                self._rs = None
                return set(range(self.rows))
            rs, rit = self._rs[0], self._rit[0]
            weakref.finalize(self, _free_render_state, rs, rit)
        rs = self._rs[0]
        lib.ghostty_render_state_update(rs, self._t)
        lib.ghostty_render_state_get(rs, lib.GHOSTTY_RENDER_STATE_DATA_ROW_ITERATOR, self._rit)
        it = self._rit[0]
        y = self._u16
        out = set()
        while lib.ghostty_render_state_row_iterator_next_dirty(it, y):
            out.add(int(y[0]))
            lib.ghostty_render_state_row_set(it, lib.GHOSTTY_RENDER_STATE_ROW_OPTION_DIRTY, _FALSE)
        lib.ghostty_render_state_set(rs, lib.GHOSTTY_RENDER_STATE_OPTION_DIRTY, _CLEAN)
        return out

    # -- state ---------------------------------------------------------------------------------
    @property
    def cursor_x(self) -> int:
        x = int(self._get(lib.GHOSTTY_TERMINAL_DATA_CURSOR_X, self._u16))
        if self._get(lib.GHOSTTY_TERMINAL_DATA_CURSOR_PENDING_WRAP, self._bool):
            x += 1  # tmux's cursor waits one past the last column
        return x

    @property
    def cursor_y(self) -> int:
        return int(self._get(lib.GHOSTTY_TERMINAL_DATA_CURSOR_Y, self._u16))

    @property
    def cursor_visible(self) -> bool:
        return bool(self._get(lib.GHOSTTY_TERMINAL_DATA_CURSOR_VISIBLE, self._bool))

    @property
    def cursor_blinking(self) -> bool:
        return self._mode(12)

    @property
    def alternate_on(self) -> bool:
        return bool(self._get(lib.GHOSTTY_TERMINAL_DATA_ACTIVE_SCREEN, ffi.new("int*")))

    insert_mode = property(lambda self: self._mode(4, True))
    keypad_cursor = property(lambda self: self._mode(1))
    keypad = property(lambda self: self._mode(66))
    origin_mode = property(lambda self: self._mode(6))
    wrap_mode = property(lambda self: self._mode(7))
    # tmux keeps one tracking mode (setting 1003 clears 1000 and 1002); Ghostty keeps the three
    # flags apart, so the widest one set wins.
    mouse_any = property(lambda self: self._mode(1003))
    mouse_button = property(lambda self: not self._mode(1003) and self._mode(1002))
    mouse_standard = property(
        lambda self: self._mode(1000) and not self._mode(1002) and not self._mode(1003)
    )
    mouse_utf8 = property(lambda self: self._mode(1005))
    mouse_sgr = property(lambda self: self._mode(1006))
    bracketed_paste = property(lambda self: self._mode(2004))
    focus_events = property(lambda self: self._mode(1004))

    # -- reading the native grid -----------------------------------------------------------------
    def _intern(self, style: Style, link: int = 0) -> int:
        key = (style, link) if link else style
        sid = self._style_ids.get(key)
        if sid is None:
            if len(self._styles) > 65536:  # styles only ever grow here: start again
                self._styles[1:] = []
                self._links[1:] = []
                self._style_ids = {DEFAULT_STYLE: 0}
                self._code_cache.clear()
                self._acs_sids.clear()
            sid = len(self._styles)
            self._styles.append(style)
            self._links.append(link)
            self._style_ids[key] = sid
        return sid

    def _read_style(self) -> Style:
        st = self._style
        lib.ghostty_grid_ref_style(self._ref, st)
        return _style_of(st)

    def _charset_style(self, sid: int) -> int:
        """The style id ``sid`` with GRID_ATTR_CHARSET added (a line-drawing cell)."""
        out = self._acs_sids.get(sid)
        if out is None:
            attr, fg, bg, us = self._styles[sid]
            out = self._acs_sids[sid] = self._intern((attr | ATTR_CHARSET, fg, bg, us),
                                                     self._links[sid])
        return out

    def _read_rows(self, first: int, n: int, full: bool = True) -> list[Row]:
        """Rows ``first .. first+n-1`` of the whole screen (history then visible).

        A row without styles or graphemes comes back as text from one formatter call (ASCII
        only: widths of other text are the native engine's); any other row is read cell by
        cell, decoding Ghostty's packed 64-bit cell (2 bits content tag, 21 bits code point
        or colour, 16 bits style id, 2 bits width) without further calls. Without ``full``
        (capture-pane, which prints only the cells below ``used``), cleared cells past the
        text are not looked at.
        """
        out: list[Row] = []
        cols = self.cols
        t = self._t
        pt = self._pt
        ref = self._ref
        cell = self._cell
        rowp = self._row
        flags = self._flags
        sel = self._sel
        opts = self._fopts
        buf = self._fbuf
        nbuf = len(buf)
        nout = self._nout
        ref_cell = lib.ghostty_grid_ref_cell
        cache: dict[tuple, int] = {}
        both = self._both_rows() if self._both else None
        tab_cells: dict[int, int] = {}
        for y in range(first, first + n):
            r = Row(cols)
            out.append(r)
            pt.value.y = y
            pt.value.x = 0
            if _grid_ref(t, pt[0], ref):
                continue
            lib.ghostty_grid_ref_row(ref, rowp)
            lib.ghostty_row_get_multi(rowp[0], 5, _ROW_KEYS, self._flag_ptrs, nout)
            r.wrapped = bool(flags[0])
            if self._semantic[0]:  # OSC 133 A or C on this line (see _take)
                r.flags = _BOTH_MARKS if both and y in both else _LINE_MARK[self._semantic[0]]
            if not flags[1] and not flags[2] and not flags[3]:
                sel.start = ref[0]
                sel.end = ref[0]
                sel.end.x = cols - 1
                if lib.ghostty_terminal_selection_format_buf(t, opts[0], buf, nbuf, nout) == 0:
                    text = ffi.buffer(buf, nout[0])[:].decode("utf-8", "replace")
                    k = len(text)
                    if text.isascii() and k <= cols and not self._bg_cells(text, k, full):
                        r.chars[:k] = text
                        r.used = k
                        r.size = _cellsize(k, cols)
                        continue
            node = ref.node
            chars = r.chars
            styles = r.styles
            used = 0
            size = 0
            for x in range(cols):
                ref.x = x
                ref_cell(ref, cell)
                c = cell[0]
                if not c:
                    continue
                s = (c >> 26) & 0xFFFF
                if s:
                    key = (node, s)
                    k = cache.get(key)
                    if k is None:
                        k = cache[key] = self._intern(self._read_style())
                    styles[x] = k
                    r.styled = True
                    size = x + 1
                if c & _LINK_BIT:
                    styles[x] = self._intern(self._styles[styles[x]], self._cell_link())
                    r.styled = True
                tag = c & 3
                if tag >= 2:  # a cleared cell holding only a background colour
                    if not s:
                        styles[x] = self._intern(self._bg_only(tag, (c >> 2) & 0xFFFFFF))
                        r.styled = True
                    size = x + 1
                    continue
                w = (c >> 42) & 3
                if w == _WIDE_TAIL:
                    chars[x] = ""
                    r.wide = True
                    used = size = x + 1
                    continue
                if w == _WIDE_HEAD:
                    continue
                cp = (c >> 2) & 0x1FFFFF
                if not cp:
                    continue
                if _ACS_CELL <= cp < _MARKERS_END:  # see _ACS_CELL (anything joined is lost)
                    used = size = x + 1
                    if cp < _TAB_HEAD:
                        chars[x] = chr(cp - _ACS_CELL)
                        styles[x] = self._charset_style(styles[x])
                        r.styled = True
                    else:
                        chars[x] = ""
                        tab_cells[x] = cp
                    continue
                if tag == _GRAPHEME:
                    lib.ghostty_grid_ref_graphemes(ref, self._gbuf, 64, nout)
                    g = "".join(map(chr, ffi.unpack(self._gbuf, nout[0])))
                    chars[x] = g.translate(_C1_BACK) if max(g) >= "\U000e01d0" else g
                    r.wide = True
                else:
                    chars[x] = chr(cp)
                if w:
                    r.wide = True
                used = size = x + 1
            r.used = used
            r.size = _cellsize(size, cols) if size not in (cols // 4, cols // 2) else (
                self._grown_size(size))
            if tab_cells:
                _tab_cells(r, tab_cells, self._written(tab_cells))
                tab_cells = {}
        return out

    def _written(self, skip: dict[int, int]) -> dict[int, int]:
        """The cells of the row at ``self._ref`` outside ``skip`` that hold a character (not
        erased): column to code point, -1 for the right half of a wide character."""
        ref = self._ref
        cell = self._cell
        out = {}
        for x in range(self.cols):
            if x in skip:
                continue
            ref.x = x
            lib.ghostty_grid_ref_cell(ref, cell)
            c = cell[0]
            if c & 3 < 2:
                cp = (c >> 2) & 0x1FFFFF
                if (c >> 42) & 3:
                    out[x] = -1
                elif cp:
                    out[x] = cp
        return out

    def _grown_size(self, n: int) -> int:
        """tmux's cell size of the row at ``self._ref`` whose cells end at ``n``, exactly a
        quarter or half of the width, where the size depends on how the row was written: tmux
        grows a line per write (grid_expand_line), so it stays at ``n`` when an earlier write
        already grew it that far. The writes are guessed as tmux makes them: a run of ASCII
        cells of one style is one write (screen_write_collect), any other cell is its own."""
        ref = self._ref
        cell = self._cell
        ref_cell = lib.ghostty_grid_ref_cell
        cols = self.cols
        size = 0
        run = -1  # the style of the ASCII run being written, -1 for none
        for x in range(n + 1):
            key = -1
            c = 0
            if x < n:
                ref.x = x
                ref_cell(ref, cell)
                c = cell[0]
                if c and not c & 3 and not (c >> 42) & 3 and 0x20 <= (c >> 2) & 0x1FFFFF < 0x7F:
                    key = (c >> 26) & 0xFFFF
            if run >= 0 and key != run and x > size:  # the run written up to here
                size = _cellsize(x, cols)
            if key < 0 and c and x + 1 > size:  # a cell written on its own
                size = _cellsize(x + 1, cols)
            run = key
        return size

    def _cell_link(self) -> int:
        """The hyperlink of the cell at ``self._ref``, as tmux numbers it (the id it was written
        with is the one OSC 8 last gave this URI)."""
        buf = self._uribuf
        if lib.ghostty_grid_ref_hyperlink_uri(self._ref, buf, len(buf), self._nout):
            return 0
        uri = ffi.buffer(buf, self._nout[0])[:]
        link = self._uri_links.get(uri)
        if link is None:
            link = self._uri_links[uri] = self.hyperlinks.put(uri.decode("latin-1"), None)
        elif self.hyperlinks.get(link) is None:
            return 0  # the link is gone (clear-history -H, or the oldest of too many): as in
            # tmux, the cell keeps a number nothing answers to
        return link

    def _bg_cells(self, text: str, k: int, full: bool) -> bool:
        """Whether the row at ``self._ref`` holds background-only cells (erased with a colour:
        the row is not marked styled then) where the text shows blanks."""
        ref = self._ref
        cell = self._cell
        ref_cell = lib.ghostty_grid_ref_cell
        if full:
            xs: list[int] | range = range(k, self.cols)
        else:  # capture prints the cells up to the line's size: an erase reaching the end
            xs = [k, self.cols - 1] if k < self.cols else []
        if " " in text:
            xs = [i for i, ch in enumerate(text) if ch == " "] + list(xs)
        for x in xs:
            ref.x = x
            ref_cell(ref, cell)
            if cell[0] & 2:
                return True
        return False

    @staticmethod
    def _bg_only(tag: int, v: int) -> Style:
        if tag == 2:
            bg = v & 0xFF
            bg = bg if bg < 8 else 90 + bg - 8 if bg < 16 else bg | COLOUR_FLAG_256
        else:  # the packed cell holds red in its low byte
            bg = COLOUR_FLAG_RGB | (v & 0xFF) << 16 | (v & 0xFF00) | v >> 16
        return (0, 8, bg, 0)

    def _view(self, rows: list[Row]) -> _View:
        return _View(self, rows)

    def _hsize(self) -> int:
        """Rows of native scrollback above the visible screen (possibly more than shown)."""
        if self.alternate_on:
            return 0
        return int(self._get(lib.GHOSTTY_TERMINAL_DATA_SCROLLBACK_ROWS, self._sz))

    def visible_rows(self) -> list[Row]:
        return self._read_rows(self._hsize(), self.rows)

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
        """capture-pane: the python engine's capture over the rows it asks for, read out of
        the native grid (the rest stay unread)."""
        if alternate:
            # libghostty-vt does not expose the main screen while the alternate one is
            # active: the rows read when the alternate screen started
            if self._saved_main is None or not self.alternate_on:
                raise NoAlternateScreen()
            return capture_lines(self._view(self._saved_main), [], self._saved_main, start,
                                 end, escapes=escapes, join=join, trailing=trailing,
                                 octal=octal, used_only=used_only, line_numbers=line_numbers,
                                 line_flags=line_flags, hyperlinks=hyperlinks)
        hsize = self.history_size
        skip = self._hsize() - hsize
        sy = self.rows

        def line_no(n: int | None, default: int) -> int:
            if n is None or n > 32767:
                return default
            v = 0 if n < 0 and -n > hsize else hsize + n
            return min(v, hsize + sy - 1)

        top = line_no(start, hsize)
        bottom = line_no(end, hsize + sy - 1)
        if bottom < top:
            top, bottom = bottom, top
        rows = self._read_rows(skip + top, bottom - top + 1, False)
        lines: list = [None] * (hsize + sy)
        lines[top:bottom + 1] = rows
        return capture_lines(self._view(rows), lines[:hsize], lines[hsize:], start, end,
                             escapes=escapes, join=join, trailing=trailing, octal=octal,
                             used_only=used_only, line_numbers=line_numbers,
                             line_flags=line_flags, hyperlinks=hyperlinks)

    def tail(self, n: int) -> list[str]:
        if n <= 0:
            return []
        n = min(n, self.rows)
        return self._view(self._read_rows(self._hsize() + self.rows - n, n)).tail(n)

    def cursor_character(self) -> str:
        y = self.cursor_y
        x = self.cursor_x
        if x >= self.cols:
            return " "
        row = self._read_rows(self._hsize() + y, 1)[0]
        if x >= row.size:
            return " "
        return row.chars[x]

    def search(self, pattern: str, regex: bool, ignore_case: bool) -> int:
        return self._view(self.visible_rows()).search(pattern, regex, ignore_case)

    def snapshot(self) -> Snapshot:
        """Copy mode's frozen grid: every shown row read out of the native grid once."""
        hsize = self.history_size
        first = self._hsize() - hsize
        rows = self._read_rows(first, hsize + self.rows)
        self._stamp(rows[:hsize], first)
        return Snapshot([compact(r) for r in rows], list(self._styles), self.cols, self.rows,
                        hsize, self.cursor_x, self.cursor_y)

    def row_links(self, y: int) -> list[tuple[int, int, str, str]]:
        """Engine.row_links: the hyperlinks on visible row ``y``."""
        return row_links(self, self._read_rows(self._hsize() + y, 1)[0])

    def row_runs(self, y: int) -> list[tuple[str, Style]]:
        return self._view(self._read_rows(self._hsize() + y, 1)).row_runs(0)
