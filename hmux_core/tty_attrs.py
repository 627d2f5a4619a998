"""What a cell's style becomes on one client's terminal, and how a drawn row leaves its cells.

tmux draws a cell's style through the terminal's capabilities (tty.c): colours the terminal
lacks are changed (``tty_check_fg``/``_bg``/``_us``: RGB to the nearest of 256, 256 to the
16 or 8 basic ones, aixterm bright colours to bold), attributes it has no capability for are
not sent, and hyperlinks go only to a terminal with ``Hls``. A :class:`Pen` holds what the
terminal can do, worked out once from its capabilities (``pen_for``); ``fit`` and ``sgr``
give the codes that take it from one style to another.

tmux 3.7's ``tty_draw_line`` also decides how a row's blanks are written: a space without
attributes on the background of the cell before it is "empty", and a run of empties is cleared
at once with the attributes of the run's last cell (an erase, where the terminal can, leaves
default colours); cells that differ only in underline colour are written as one run in the
last one's. What a terminal then holds differs from the pane only in the colours of blanks and
of such underlines, which an outer multiplexer reading its screen back sees; ``tty_line`` gives
the row's runs as they end up, so a renderer that writes whole rows leaves the same cells.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from .options import COLOUR_FLAG_THEME
from .screen.cells import (
    _256TO16,
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
    Style,
    colour_find_rgb,
)

Run = tuple[str, Style]


class Pen(NamedTuple):
    """What a terminal can be told about a cell's look (from its capabilities)."""

    rgb: bool = True  # setrgbf and setrgbb (TERM_RGBCOLOURS)
    colours: int = 256  # 256 with TERM_256COLOURS, else terminfo's colors
    ulc_palette: bool = True  # Setulc1: an underline colour from the 256 palette
    ulc_rgb: bool = True  # Setulc (or setal with RGB): an RGB underline colour
    smulx: bool = True  # underline styles (double, curly, dotted, dashed)
    smol: bool = True  # overline
    smxx: bool = True  # strikethrough
    nobr: bool = False  # Nobr: bold does not make colours bright
    links: bool = False  # Hls: OSC 8 hyperlinks
    el: bool = True  # EL, EL1, ECH and BCE: how a run of blanks can be erased
    el1: bool = True
    ech: bool = True
    bce: bool = True
    #: The client's theme colours (themes.client_colours), what the ten symbolic colours
    #: (COLOUR_FLAG_THEME, beyond 3.7b) are drawn as: tty_map_theme_colour. Empty: default.
    theme: tuple[int, ...] = ()


def pen_for(caps: dict[str, str], rgb: bool, colours: int) -> Pen:
    """The pen for a terminal's capabilities (``tty_term.capabilities``) and colour depth."""
    return Pen(rgb=rgb, colours=colours, ulc_palette="Setulc1" in caps,
               ulc_rgb="Setulc" in caps or ("setal" in caps and "RGB" in caps),
               smulx="Smulx" in caps, smol="Smol" in caps, smxx="smxx" in caps,
               nobr="Nobr" in caps, links="Hls" in caps, el="el" in caps, el1="el1" in caps,
               ech="ech" in caps, bce="bce" in caps)


#: A terminal that can do everything (and knows no hyperlinks): styles go as they are.
FULL = Pen()
_PENS: list[Pen] = [FULL]


def pen_index(pen: Pen) -> int:
    """A small number for a pen, cheaper than the pen as part of a memo key."""
    try:
        return _PENS.index(pen)
    except ValueError:
        _PENS.append(pen)
        return len(_PENS) - 1


def pen_at(index: int) -> Pen:
    return _PENS[index]


def _force_rgb(c: int) -> int:
    """colour_force_rgb as a colour (RGB flag set), 0 for none."""
    from .screen.screen import _force_rgb as force

    if not c:
        return 0
    v = force(c)
    return 0 if v is None or v < 0 else v | COLOUR_FLAG_RGB


def fit(st: Style, pen: Pen) -> Style:
    """tty_check_fg, _bg and _us (the palette already applied): the style as this terminal
    is sent it. Attributes it has no capability for are left out (tmux sends nothing)."""
    attr, fg, bg, us = st
    if (fg | bg | us) & COLOUR_FLAG_THEME:
        fg, bg, us = (_theme(fg, pen.theme), _theme(bg, pen.theme), _theme(us, pen.theme))
    colours = pen.colours
    obg = bg
    if fg & COLOUR_FLAG_RGB and not pen.rgb:
        fg = colour_find_rgb((fg >> 16) & 0xFF, (fg >> 8) & 0xFF, fg & 0xFF)
    if fg & COLOUR_FLAG_256:
        if colours < 256:
            fg = _256TO16[fg & 0xFF]
            if fg & 8:
                fg &= 7
                if colours >= 16:
                    fg += 90
                elif fg == 0 and obg == 0:  # black on black is no use: white
                    fg = 7
                elif fg == 7 and obg == 7:
                    fg = 0
    elif 90 <= fg <= 97 and colours < 16:
        fg -= 90
        attr |= ATTR_BRIGHT
    if bg & COLOUR_FLAG_RGB and not pen.rgb:
        bg = colour_find_rgb((bg >> 16) & 0xFF, (bg >> 8) & 0xFF, bg & 0xFF)
    if bg & COLOUR_FLAG_256:
        if colours < 256:
            bg = _256TO16[bg & 0xFF]
            if bg & 8:
                bg = (bg & 7) + (90 if colours >= 16 else 0)
    elif 90 <= bg <= 97 and colours < 16:
        bg -= 90
    if us:
        if not pen.ulc_palette or not us & (COLOUR_FLAG_256 | COLOUR_FLAG_RGB):
            us = _force_rgb(us)
        if us & COLOUR_FLAG_RGB and not pen.ulc_rgb:
            us = 0  # tty_colours_us has nothing to send it with
    if not pen.smulx and attr & ATTR_ALL_UNDERSCORE & ~ATTR_UNDERSCORE:
        attr &= ~(ATTR_ALL_UNDERSCORE & ~ATTR_UNDERSCORE)
    if not pen.smol:
        attr &= ~ATTR_OVERLINE
    if not pen.smxx:
        attr &= ~ATTR_STRIKETHROUGH
    return (attr, fg, bg, us)


def _theme(c: int, table: tuple[int, ...]) -> int:
    """tty_map_theme_colour: a theme colour as the client's table has it (default without
    one); any other colour as it is."""
    if c < 0 or not c & COLOUR_FLAG_THEME:
        return c
    n = c & 0xFF
    return table[n] if n < len(table) else 8


_ATTRS = (
    (ATTR_BRIGHT, "1"), (ATTR_DIM, "2"), (ATTR_ITALICS, "3"), (ATTR_UNDERSCORE, "4"),
    (ATTR_BLINK, "5"), (ATTR_REVERSE, "7"), (ATTR_HIDDEN, "8"), (ATTR_STRIKETHROUGH, "9"),
    (ATTR_UNDERSCORE_2, "4:2"), (ATTR_UNDERSCORE_3, "4:3"), (ATTR_UNDERSCORE_4, "4:4"),
    (ATTR_UNDERSCORE_5, "4:5"), (ATTR_OVERLINE, "53"),
)


def _colour(c: int, base: int, ext: str) -> str:
    """setaf/setab (tty_colours_fg/bg): 256-colour 0-15 as the basic codes a 256-colour
    terminfo sends, aixterm colours as 90-97 (100-107)."""
    if c & COLOUR_FLAG_RGB:
        return f"{ext};2;{(c >> 16) & 0xFF};{(c >> 8) & 0xFF};{c & 0xFF}"
    if c & COLOUR_FLAG_256:
        n = c & 0xFF
        if n >= 16:
            return f"{ext};5;{n}"
        c = n if n < 8 else 90 + n - 8
    if 0 <= c <= 7:
        return str(base + c)
    if 90 <= c <= 97:
        return str(c + base - 30)
    return str(base + 9)


def sgr(last: Style, cur: Style) -> str:
    """tty_attributes and tty_colours: the codes from ``last`` to ``cur`` (both fitted)."""
    attr, fg, bg, us = cur
    lattr = last[0]
    codes: list[str] = []
    reset = bool(lattr & ~attr & ~ATTR_CHARSET)
    if reset:
        codes.append("0")
        lattr &= ATTR_CHARSET
        lfg, lbg, lus = 8, 8, 0
    else:
        lfg, lbg, lus = last[1], last[2], last[3]
    for mask, code in _ATTRS:
        if attr & mask and not lattr & mask:
            codes.append(code)
    if fg != lfg:
        codes.append(_colour(fg, 30, "38"))
    if bg != lbg:
        codes.append(_colour(bg, 40, "48"))
    if us != lus:
        if not us:
            codes.append("59")
        elif us & COLOUR_FLAG_RGB:
            codes.append(f"58;2;{(us >> 16) & 0xFF};{(us >> 8) & 0xFF};{us & 0xFF}")
        else:
            codes.append(f"58;5;{us & 0xFF}")
    out = "\033[" + ";".join(codes) + "m" if codes else ""
    if attr & ATTR_CHARSET and not lattr & ATTR_CHARSET:
        out += "\016"
    elif not attr & ATTR_CHARSET and lattr & ATTR_CHARSET:
        out += "\017"
    return out


_BLANKS = re.compile(r" +")


def tty_line(runs: list[Run], at_start: bool, at_end: bool, pen: Pen, overlay: bool = False,
             run_links: list[Any] | None = None, defaults: tuple[int, int] = (8, 8)
             ) -> tuple[list[Run], list[Any] | None]:
    """tty_draw_line's effect on a row: the runs with the styles the terminal ends up with.

    Empty cells (spaces without attributes or a hyperlink, on the background of the cell
    before them) are cleared a run at once: by an erase that leaves default colours where the
    terminal has one (ten cells or more, no overlay shown, a default background or BCE: EL
    when the run ends the line and the row reaches the terminal's edge (``at_end``), EL1 when
    it starts the line at the terminal's first column (``at_start``), ECH anywhere), else
    with spaces in the last empty cell's colours. Cells that look equal but for their
    underline colour are drawn in the last one's. ``run_links`` gives each run's hyperlink
    (None: none), and the runs returned come with theirs. ``defaults`` are the pane's
    colours (tty_default_colours: window-style, window-active-style): the default colours of
    cells are drawn in them, but an erase leaves the terminal's own foreground."""
    def_fg, def_bg = defaults
    if run_links is None and def_bg == 8 and def_fg == 8 and not _blanks_change(runs):
        return runs, None  # every blank comes out as it is in the pane
    has_us = any(st[3] for _text, st in runs)
    out: list[Run] = []
    olinks: list[Any] | None = [] if run_links is not None else None
    empty: list[bool] | None = [] if has_us else None
    pend: list[Run] = []  # the empty cells of the run being collected
    pend_start = False
    last_bg = def_bg
    erased: list[int] = []

    def flush(end: bool) -> None:
        cells = 0
        for text, _st in pend:
            cells += len(text)
        st = pend[-1][1]
        bg = st[2]
        if not overlay and cells >= 10 and (pen.bce or (bg == 8 and def_bg == 8)) and (
                (end and pen.el) or (pend_start and pen.el1) or pen.ech):
            erased.append(len(out))
            out.append((" " * cells, (0, 8, bg, 0)))
        else:
            out.append((" " * cells, (0, st[1], bg, st[3])))
        if olinks is not None:
            olinks.append(None)
        if empty is not None:
            empty.append(True)
        pend.clear()

    for r, (text, st) in enumerate(runs):
        if not text:
            continue
        link = run_links[r] if run_links is not None else None
        bg = st[2]
        if st[0] or link is not None or " " not in text:
            if pend:
                flush(False)
            out.append((text, st))
            if olinks is not None:
                olinks.append(link)
            if empty is not None:
                empty.append(False)
            last_bg = bg
            continue
        if bg == last_bg and not text.strip(" "):  # all blanks and all empty
            if not pend:
                pend_start = at_start and not out
            pend.append((text, st))
            continue
        pos = 0
        for m in _BLANKS.finditer(text):
            a, b = m.span()
            if a > pos or bg != last_bg:
                if pend:
                    flush(False)
                # a run of other characters, or a first blank on a new background, is drawn
                a1 = a if a > pos else a + 1
                out.append((text[pos:a1], st))
                if olinks is not None:
                    olinks.append(None)
                if empty is not None:
                    empty.append(False)
                last_bg = bg
                a = a1
            if b > a:
                if not pend:
                    pend_start = at_start and not out
                pend.append((text[a:b], st))
            pos = b
        if pos < len(text):
            if pend:
                flush(False)
            out.append((text[pos:], st))
            if olinks is not None:
                olinks.append(None)
            if empty is not None:
                empty.append(False)
            last_bg = bg
    if pend:
        flush(at_end)
    if empty is not None:
        _merge_us(out, empty, olinks)
    if def_fg != 8 or def_bg != 8:
        for i, (text, st) in enumerate(out):
            attr, fg, bg, us = st
            if fg == 8 and (not erased or i not in erased):
                fg = def_fg
            if bg == 8:
                bg = def_bg
            out[i] = (text, (attr, fg, bg, us))
    return out, olinks


_TEN = " " * 10


def _blanks_change(runs: list[Run]) -> bool:
    """Whether tty_line can change any cell's style: an underline colour (runs may take
    another's), a run of empty cells holding more than one (foreground, underline colour), or
    one long enough to be erased that is not in default colours. Cheap, so rows where nothing
    changes (nearly all) cost little."""
    for text, st in runs:
        if st[3]:
            return True
        if st[1] != 8 and not st[0] and " " in text:
            break
    else:  # no blank in colours: every empty cell is in default ones
        return False
    key: tuple[int, int] | None = None  # the colours of the empty cells being collected
    cells = 0
    last_bg = 8
    for text, st in runs:
        attr, fg, bg, us = st
        if us:
            return True
        if attr or " " not in text:
            if key is not None:
                if cells >= 10 and key != (8, 0):
                    return True
                key = None
            last_bg = bg
            continue
        k = (fg, us)
        body = text.strip(" ")
        if not body:
            if bg != last_bg:  # the first blank is drawn on its new background
                if key is not None and cells >= 10 and key != (8, 0):
                    return True
                key, cells, last_bg = k, len(text) - 1, bg
            elif key is None:
                key, cells = k, len(text)
            elif key != k:
                return True
            else:
                cells += len(text)
            continue
        lead = len(text) - len(text.lstrip(" "))
        if lead:
            if bg != last_bg:
                if key is not None and cells >= 10 and key != (8, 0):
                    return True
                key, cells = k, lead - 1
            elif key is None:
                key, cells = k, lead
            elif key != k:
                return True
            else:
                cells += lead
        if key is not None and cells >= 10 and key != (8, 0):
            return True
        if k != (8, 0) and _TEN in body:
            return True
        last_bg = bg
        trail = len(text) - lead - len(body)
        key, cells = (k, trail) if trail else (None, 0)
    return key is not None and cells >= 10 and key != (8, 0)


def _merge_us(out: list[Run], empty: list[bool], links: list[Any] | None) -> None:
    """Runs of cells that look equal (grid_cells_look_equal: not the underline colour) are
    written in the last one's underline colour."""
    i, n = 0, len(out)
    while i < n:
        if empty[i]:
            i += 1
            continue
        key = out[i][1][:3]
        link = links[i] if links is not None else None
        j = i + 1
        while j < n and not empty[j] and out[j][1][:3] == key and (
                links is None or links[j] == link):
            j += 1
        us = out[j - 1][1][3]
        for k in range(i, j):
            text, st = out[k]
            if st[3] != us:
                out[k] = (text, (st[0], st[1], st[2], us))
        i = j
