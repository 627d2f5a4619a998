"""A pane's grid as tmux's grid stores it: ``capture-pane -R`` and ``capture-pane -I``.

Everything here reads the engine through its :meth:`~hmux_core.screen.engine.Engine.snapshot`
(history and visible lines, cell sizes, used cells, wrap flags, line marks, times) and
describes it in tmux's terms: a line's ``cellused``/``cellsize``, its GRID_LINE flags (the
OSC 133 marks with their columns and exit status, ``grid.osc133_data``), each cell's data,
GRID_FLAG bits, attributes and colours. Which cells tmux keeps in its extended storage (wide
or multi-byte characters, RGB colours, an underline colour, attributes past 8 bits, links,
tabs) decides the EXTENDED line flag; tmux also keeps that flag for a line whose cell was
extended once and rewritten, which a snapshot cannot see. Cells past the used ones within the
line's size are CLEARED (an erase wrote them).

``capture-pane -R`` is the development tree's; ``-I`` (each captured line prefixed with the
time it scrolled into history, in Unix seconds, 0 when it did not) is the seed's.
"""

from __future__ import annotations

from typing import Any

from .options import COLOUR_FLAG_256, COLOUR_FLAG_RGB, COLOUR_FLAG_THEME, colour_tostring
from .screen.grid import osc133_data

__all__ = ["capture_times", "dump"]

_LINE_WRAPPED, _LINE_EXTENDED, _LINE_HYPERLINK = 0x1, 0x2, 0x100
_LINE_FLAG_NAMES = ((0x1, "WRAPPED"), (0x2, "EXTENDED"), (0x4, "DEAD"), (0x8, "START_PROMPT"),
                    (0x10, "SECOND_PROMPT"), (0x20, "START_COMMAND"), (0x40, "START_OUTPUT"),
                    (0x80, "END_OUTPUT"), (0x100, "HYPERLINK"))
_FG256, _BG256, _PADDING, _CLEARED, _TAB = 0x1, 0x2, 0x4, 0x40, 0x80
_DEFAULT = (0, 8, 8, 8)  # a padding or never-written cell
_CELL_FLAG_NAMES = ((0x1, "FG256"), (0x2, "BG256"), (0x4, "PADDING"), (0x8, "EXTENDED"),
                    (0x10, "SELECTED"), (0x40, "CLEARED"), (0x80, "TAB"), (0x20, "NOPALETTE"))
_ATTR_NAMES = ((0x80, "CHARSET"), (0x1, "BRIGHT"), (0x2, "DIM"), (0x4, "UNDERSCORE"),
               (0x8, "BLINK"), (0x10, "REVERSE"), (0x20, "HIDDEN"), (0x40, "ITALICS"),
               (0x100, "STRIKETHROUGH"), (0x200, "UNDERSCORE_2"), (0x400, "UNDERSCORE_3"),
               (0x800, "UNDERSCORE_4"), (0x1000, "UNDERSCORE_5"), (0x2000, "OVERLINE"))


def _names(value: int, table: tuple[tuple[int, str], ...]) -> str:
    out = [name for bit, name in table if value & bit]
    return ",".join(out) if out else "NONE"


def _links(screen: Any, snap: Any, y: int) -> list[int]:
    """The link of each cell of line ``y`` (0: none), from the engine's style ids."""
    links = getattr(screen, "_links", None)
    if links is None:
        return []
    return [links[sid] if 0 <= sid < len(links) else 0 for sid in snap.style_ids(y)]


def _cells(snap: Any, y: int) -> list[tuple[str, int, int, tuple[int, int, int, int]]]:
    """Each cell of line ``y`` up to its cellsize: (data, width, flags, style)."""
    chars = snap.chars(y)
    size = snap.cellsize(y)
    used = snap.used(y)
    out = []
    n = min(len(chars), size)
    x = 0
    while x < n:
        ch = chars[x]
        attr, fg, bg, us = snap.style(x, y)
        style = (attr, fg, bg, us or 8)  # the engine keeps no underline colour as 0
        width = 1
        while x + width < n and chars[x + width] == "":
            width += 1
        if ch == "":
            out.append(("!", 1, _PADDING, _DEFAULT))
        elif ch == "\t":
            out.append((" " * width, width, _TAB, style))
            out.extend(("!", 1, _PADDING, _DEFAULT) for _ in range(width - 1))
            x += width
            continue
        else:
            flags = _CLEARED if x >= used else 0
            out.append((ch, width, flags, style))
            out.extend(("!", 1, _PADDING, _DEFAULT) for _ in range(width - 1))
            x += width
            continue
        x += 1
    while len(out) < size:
        out.append((" ", 1, _CLEARED, _DEFAULT))
    return out


def _extended(data: str, width: int, flags: int, style: tuple[int, int, int, int],
              link: int) -> bool:
    """grid_need_extended_cell."""
    attr, fg, bg, us = style
    if attr > 0xFF or width > 1 or len(data.encode("utf-8", "surrogateescape")) > 1:
        return not flags & _PADDING
    if (fg | bg) & (COLOUR_FLAG_RGB | COLOUR_FLAG_THEME):
        return True
    return us != 8 or link != 0 or bool(flags & _TAB)


def _colour(c: int) -> str:
    return f"{colour_tostring(c)}[{c:x}]"


def _vis(data: str) -> str:
    from .vis import VIS_CSTYLE, VIS_NL, VIS_OCTAL, VIS_TAB, strvis

    if data.isascii() and data.isprintable() and "\\" not in data:
        return data
    raw = strvis(data.encode("utf-8", "surrogateescape"), VIS_OCTAL | VIS_CSTYLE | VIS_TAB
                 | VIS_NL)
    return raw.decode("utf-8", "surrogateescape")


def dump(screen: Any) -> str:
    """cmd_capture_pane_grid: ``G sx x sy (hsize/hlimit)``, then each line (``L``: flags,
    cellused/cellsize, OSC 133 data) and each of its cells (``C``)."""
    snap = screen.snapshot()
    hsize, sx, sy = snap.hsize, snap.sx, snap.sy
    hl = getattr(screen, "hyperlinks", None)
    out = [f"G {sx}x{sy} ({hsize}/{getattr(screen, 'history_limit', 0)})\n"]
    grid_lines = snap.lines()
    for y in range(len(snap)):
        cells = _cells(snap, y)
        links = _links(screen, snap, y)
        flags = 0
        if snap.wrapped(y):
            flags |= _LINE_WRAPPED
        raw = grid_lines[y].flags
        marks, prompt, command, out_start, out_end, status = osc133_data(raw)
        flags |= marks
        if any(links):
            flags |= _LINE_HYPERLINK
        if any(_extended(d, w, f, st, links[x] if x < len(links) else 0)
               for x, (d, w, f, st) in enumerate(cells)):
            flags |= _LINE_EXTENDED
        where = "-" if y < hsize else str(y - hsize)
        line = (f"\tL {y} ({where}) flags={_names(flags, _LINE_FLAG_NAMES)}[{flags:x}] "
                f"{snap.used(y)}/{snap.cellsize(y)}")
        if marks:
            line += f" osc133={prompt},{command},{out_start},{out_end},{status}"
        out.append(line + "\n")
        for x in range(sx):
            if x < len(cells):
                data, width, cflags, (attr, fg, bg, us) = cells[x]
            else:
                data, width, cflags, (attr, fg, bg, us) = " ", 1, 0, (0, 8, 8, 8)
            if fg & COLOUR_FLAG_256:
                cflags |= _FG256
            if bg & COLOUR_FLAG_256:
                cflags |= _BG256
            link = links[x] if x < len(links) else 0
            uri = iid = "NONE"
            if link and hl is not None:
                got = hl.get(link)
                if got is not None:
                    uri = got[0]
                    iid = got[1] or "NONE"
            size = len(data.encode("utf-8", "surrogateescape"))
            out.append(f"\t\tC {y},{x} data=({width},{size},{_vis(data)}) "
                       f"flags={_names(cflags, _CELL_FLAG_NAMES)}[{cflags:x}] "
                       f"attr={_names(attr, _ATTR_NAMES)}[{attr:x}] fg={_colour(fg)} "
                       f"bg={_colour(bg)} us={_colour(us)} link={uri} linkid={iid}\n")
    return "".join(out)


def capture_times(screen: Any, top: int, bottom: int, join: bool) -> list[int]:
    """capture-pane -I: the time each captured line (grid lines ``top`` to ``bottom``, as
    tmux numbers them from the top of history; joined at wraps with ``join``) scrolled into
    history, 0 for one that did not."""
    snap = screen.snapshot()
    out = []
    y = top
    while y <= bottom and y < len(snap):
        out.append(snap.line_time(y))
        if join:
            while y < bottom and snap.wrapped(y):
                y += 1
        y += 1
    return out
