"""Line storage: mutable visible rows and compact history lines.

A visible :class:`Row` keeps one list of cell strings and one parallel list of style ids, so a
run of text is stored with two slice assignments. A padding cell (the right half of a wide
character) is the empty string, so ``"".join(chars)`` is the row's text. ``used`` and ``size``
mirror tmux's ``cellused`` / ``cellsize``: only cells below ``used`` are printed by
capture-pane, cells at or beyond ``size`` are always default blanks.

When a row scrolls into history it becomes a :class:`HistLine`: the text as one ``str``, style
runs as an ``array('I')`` of ``(length, style id)`` pairs (``None`` when all cells are default)
and, only for lines holding wide or combined characters, a ``bytes`` map of code points per cell.

A tab is one cell holding ``"\t"`` followed by padding cells up to the tab stop (tmux 3.7b's
GRID_FLAG_TAB): capture-pane prints it as a tab, drawing shows the blanks it covers. A cell's
width is 1 plus the padding cells after it (:func:`cell_widths`), which also covers a narrow
character made wide by a variation selector or a modifier.

``flags`` holds the line marks OSC 133 sets (:data:`LINE_START_PROMPT`,
:data:`LINE_START_OUTPUT`); they move with the line into history and copy mode reads them.
"""

from __future__ import annotations

from array import array
from itertools import compress, count, islice
from operator import ne

#: Bytes of history one pane may hold, whatever its history-limit: a redraw storm of wide,
#: styled lines must not exhaust memory (tmux#4859). Engines drop their oldest lines beyond it.
HISTORY_BYTE_BUDGET = 64 * 1024 * 1024

#: Line flags (tmux's GRID_LINE_START_PROMPT / GRID_LINE_START_OUTPUT, set by OSC 133 A / C).
LINE_START_PROMPT = 0x1
LINE_START_OUTPUT = 0x2
#: Above those two bits, the OSC 133 marks as tmux's development tree keeps them (its
#: GRID_LINE_* flags for A/N/P, B/I, C and D, shifted by OSC133_SHIFT) and the mark's data:
#: the prompt, command, output start and output end columns (16 bits each) and the command's
#: exit status (8 bits). capture-pane -R shows them (:func:`osc133_data`); what tmux 3.7b sees
#: (the two bits above) is unchanged, and a line without marks keeps flags 0.
OSC133_SHIFT = 8
OSC133_START_PROMPT, OSC133_SECOND_PROMPT, OSC133_START_COMMAND = 0x8, 0x10, 0x20
OSC133_START_OUTPUT, OSC133_END_OUTPUT = 0x40, 0x80
_OSC133_FIELDS = {"prompt": 16, "command": 32, "output_start": 48, "output_end": 64,
                  "status": 80}


def osc133_mark(flags: int, mark: int, field: str, value: int, reset: bool = False) -> int:
    """``flags`` with the development tree's ``mark`` set and ``field`` (a column or the exit
    status) stored; ``reset`` clears the earlier data first (a new prompt, OSC 133 A/N)."""
    if reset:
        flags &= (1 << 16) - 1
    shift = _OSC133_FIELDS[field]
    width = 8 if field == "status" else 16
    value = min(max(value, 0), (1 << width) - 1)
    flags &= ~(((1 << width) - 1) << shift)
    return flags | (mark << OSC133_SHIFT) | (value << shift)


def osc133_exit_status(p: str) -> int:
    """input_osc_133_exit_status: the status of ``D;N``: 0 when missing or when the first
    parameter is a key=value one, 255 when not a number from 0 to 255."""
    if p[1:2] != ";" or len(p) < 3 or p[2] == "=":
        return 0
    value = p[2:].split(";", 1)[0]
    if not value:
        return 0
    if "=" in value:
        return 0
    if not value.isascii() or not value.isdigit() or int(value) > 255:
        if value[:1] in "+-" and value[1:].isdigit() and 0 <= int(value) <= 255:
            return int(value)
        return 255
    return int(value)


def osc133_data(flags: int) -> tuple[int, int, int, int, int, int]:
    """(development-tree line flags, prompt, command, output start and end columns, exit
    status) of a line's flags."""
    return ((flags >> OSC133_SHIFT) & 0xFF, (flags >> 16) & 0xFFFF, (flags >> 32) & 0xFFFF,
            (flags >> 48) & 0xFFFF, (flags >> 64) & 0xFFFF, (flags >> 80) & 0xFF)


def cell_widths(chars: list[str]) -> list[int]:
    """Width of each cell: a character covers itself and the padding cells after it."""
    out = [0 if c == "" else 1 for c in chars]
    last = -1
    for i, c in enumerate(chars):
        if c == "":
            if last >= 0:
                out[last] += 1
        else:
            last = i
    return out


class Row:
    """One visible line."""

    __slots__ = ("chars", "styles", "used", "size", "wrapped", "wide", "styled", "flags", "time")

    def __init__(self, cols: int) -> None:
        self.chars: list[str] = [" "] * cols
        self.styles: list[int] = [0] * cols
        self.used = 0
        self.size = 0
        self.wrapped = False
        self.wide = False  # may hold padding / wide / combined / tab cells
        self.styled = False  # may hold a non-default style id
        self.flags = 0  # LINE_START_PROMPT / LINE_START_OUTPUT
        self.time = 0  # a history line's time stays when a resize brings it back (gl->time)

    def copy(self) -> Row:
        r = Row.__new__(Row)
        r.chars = self.chars[:]
        r.styles = self.styles[:]
        r.used = self.used
        r.size = self.size
        r.wrapped = self.wrapped
        r.wide = self.wide
        r.styled = self.styled
        r.flags = self.flags
        r.time = self.time
        return r

    def cells(self) -> tuple[list[str], list[int]]:
        """Cells below ``used``."""
        return self.chars[: self.used], self.styles[: self.used]


class HistLine:
    """One line of history, stored compactly."""

    __slots__ = ("text", "runs", "used", "size", "wrapped", "cellmap", "flags", "time")

    def __init__(
        self,
        text: str,
        runs: array | None,
        used: int,
        wrapped: bool,
        cellmap: bytes | None,
        size: int | None = None,
        flags: int = 0,
        time: int = 0,
    ) -> None:
        self.text = text
        self.runs = runs  # covers ``size`` cells when styled: blanks past ``used`` keep theirs
        self.used = used
        self.size = used if size is None else size
        self.wrapped = wrapped
        self.cellmap = cellmap
        self.flags = flags
        self.time = time  # when it scrolled into history (copy mode's top_line_time)

    @property
    def wide(self) -> bool:
        return self.cellmap is not None

    def cells(self) -> tuple[list[str], list[int]]:
        """Per-cell lists of the cells below ``used`` (slow path: reflow, -e capture)."""
        chars, styles = self.cells_full()
        if self.size != self.used:
            del chars[self.used :]
            del styles[self.used :]
        return chars, styles

    def cells_full(self) -> tuple[list[str], list[int]]:
        """Per-cell lists including the styled blanks up to ``size``."""
        text = self.text
        if self.cellmap is None:
            chars = list(text)
        else:
            chars = []
            p = 0
            for n in self.cellmap:
                chars.append(text[p : p + n])
                p += n
        if self.size > self.used:
            chars.extend([" "] * (self.size - self.used))
        runs = self.runs
        if runs is None:
            styles = [0] * self.size
        else:
            styles = []
            for i in range(0, len(runs), 2):
                styles.extend([runs[i + 1]] * runs[i])
            if len(styles) < self.size:
                styles.extend([0] * (self.size - len(styles)))
        return chars, styles

    def nbytes(self) -> int:
        """Approximate memory held by this line."""
        n = 80 + 49 + len(self.text)
        if self.runs is not None:
            n += 64 + 4 * len(self.runs)
        if self.cellmap is not None:
            n += 33 + len(self.cellmap)
        return n


def style_runs(sty: list[int]) -> array:
    """(length, style id) pairs of a list of style ids: the places where an id differs from
    the one before it are found by C-level iteration, so the Python loop runs per run, not
    per cell."""
    ends = list(compress(count(1), map(ne, sty, islice(sty, 1, None))))
    ends.append(len(sty))
    runs = array("I")
    prev = 0
    for e in ends:
        runs.append(e - prev)
        runs.append(sty[prev])
        prev = e
    return runs


def compact(row: Row) -> HistLine:
    """Turn a visible row into a history line (the row itself is not modified)."""
    if row.__class__ is LazyRow:
        line = _ROW_STYLES.__get__(row)[0]
        if row.used == line.used and row.size == line.size:
            cm = line.cellmap  # (a map of one-column cells only is not kept, as below)
            return HistLine(line.text, line.runs, line.used, row.wrapped,
                            cm if cm is not None and 0 in cm else None, line.size,
                            row.flags, row.time)
    used = row.used
    chars = row.chars
    if used == len(chars):
        cells = chars
    else:
        cells = chars[:used]
    text = "".join(cells)
    cellmap = None
    if row.wide:
        cm = bytes(map(len, cells))
        if cm.count(1) != used:
            cellmap = cm
    runs = None
    size = row.size
    if row.styled:
        # Cleared cells past ``used`` keep their background (tmux keeps the whole line).
        end = size if size > used and any(row.styles[used:size]) else used
        sty = row.styles[:end]
        if any(sty):
            runs = style_runs(sty)
    return HistLine(text, runs, used, row.wrapped, cellmap, size, row.flags, row.time)


def grown_size(sx: int, size: int, needed: int) -> int:
    """grid_expand_line's new cellsize for a line of ``size`` cells that must hold ``needed``
    (tmux grows in steps: a quarter, a half, then the whole width)."""
    if needed <= size:
        return size
    if needed < sx // 4:
        return sx // 4
    if needed < sx // 2:
        return sx // 2
    return sx if sx > needed else needed


def text_line(text: str, runs: array | None, used: int, size: int, now: int,
              wrapped: bool = False, cellmap: bytes | None = None) -> HistLine:
    """A history line for a plain line that never was a visible row (the batch path): what
    :func:`compact` makes of a fresh row holding ``text`` with style ``runs``."""
    return HistLine(text, runs, used, wrapped, cellmap, size, 0, now)


_ROW_CHARS = Row.chars  # the slots' own descriptors (LazyRow shadows them with properties)
_ROW_STYLES = Row.styles


class LazyRow(Row):
    """A visible row still held as the history line it was made from (the batch path's lines
    that are on the screen): most scroll on into history untouched, so their cells are never
    built. The first read of ``chars`` or ``styles`` builds them (:func:`text_row`'s lists)
    and turns the object into a plain :class:`Row`; :func:`compact` of an untouched one gives
    the line back. The ``styles`` slot holds ``(line, cols)`` until then."""

    __slots__ = ()

    def _inflate(self) -> None:
        line, cols = _ROW_STYLES.__get__(self)
        if line.cellmap is None:
            r = text_row(line.text, line.runs, line.used, line.size, cols)
        else:
            r = inflate(line, cols)
        _ROW_CHARS.__set__(self, r.chars)
        _ROW_STYLES.__set__(self, r.styles)
        self.__class__ = Row

    @property
    def chars(self) -> list[str]:  # type: ignore[override]
        self._inflate()
        return self.chars

    @chars.setter
    def chars(self, value: list[str]) -> None:
        self._inflate()
        self.chars = value

    @property
    def styles(self) -> list[int]:  # type: ignore[override]
        self._inflate()
        return self.styles

    @styles.setter
    def styles(self, value: list[int]) -> None:
        self._inflate()
        self.styles = value


def unlazy(row: Row, chars: list[str], styles: list[int]) -> None:
    """Give a row about to be emptied these cells without building a LazyRow's own."""
    if row.__class__ is LazyRow:
        _ROW_CHARS.__set__(row, chars)
        _ROW_STYLES.__set__(row, styles)
        row.__class__ = Row


def lazy_row(line: HistLine, cols: int) -> Row:
    """A :class:`LazyRow` for a line of the batch path (one-column cells, or tab or wide
    cells: a ``cellmap`` makes the row ``wide``, as writing them does)."""
    r = LazyRow.__new__(LazyRow)
    _ROW_STYLES.__set__(r, (line, cols))
    r.used = line.used
    r.size = line.size
    r.wrapped = line.wrapped
    r.wide = line.cellmap is not None
    r.styled = line.runs is not None
    r.flags = 0
    r.time = 0
    return r


def text_row(text: str, runs: array | None, used: int, size: int, cols: int) -> Row:
    """A visible row holding ``text`` (single-width cells) with style ``runs``, as writing it
    on a fresh default row leaves it."""
    r = Row.__new__(Row)
    chars = list(text)
    if used < cols:
        chars.extend(" " * (cols - used))
    r.chars = chars
    if runs is None:
        r.styles = [0] * cols
        r.styled = False
    else:
        styles: list[int] = []
        for i in range(0, len(runs), 2):
            styles += [runs[i + 1]] * runs[i]
        if used < cols:
            styles += [0] * (cols - used)
        r.styles = styles
        r.styled = True
    r.used = used
    r.size = size
    r.wrapped = False
    r.wide = False
    r.flags = 0
    r.time = 0
    return r


def inflate(line: HistLine, cols: int) -> Row:
    """Turn a history line back into a visible row."""
    chars, styles = line.cells_full()
    r = Row.__new__(Row)
    n = len(chars)
    if n < cols:
        chars.extend([" "] * (cols - n))
        styles.extend([0] * (cols - n))
    r.chars = chars
    r.styles = styles
    r.used = line.used
    r.size = line.size
    r.wrapped = line.wrapped
    r.wide = line.cellmap is not None
    r.styled = line.runs is not None
    r.flags = line.flags
    r.time = line.time
    return r
