"""Cell widths, style encoding and the SGR strings ``capture-pane -e`` emits.

Styles use tmux's own encoding so capture output can be produced exactly as tmux does:
``(attr, fg, bg, us)`` where ``attr`` is a mask of ``ATTR_*`` bits and colours are 0-7 (basic),
8 (default), 90-97 (bright), ``n | COLOUR_FLAG_256`` or ``COLOUR_FLAG_RGB | r << 16 | g << 8 | b``.
``us`` (underline colour) is 0 when unset.
"""

from __future__ import annotations

import ctypes
import ctypes.util

ATTR_BRIGHT = 0x1
ATTR_DIM = 0x2
ATTR_UNDERSCORE = 0x4
ATTR_BLINK = 0x8
ATTR_REVERSE = 0x10
ATTR_HIDDEN = 0x20
ATTR_ITALICS = 0x40
ATTR_CHARSET = 0x80
ATTR_STRIKETHROUGH = 0x100
ATTR_UNDERSCORE_2 = 0x200
ATTR_UNDERSCORE_3 = 0x400
ATTR_UNDERSCORE_4 = 0x800
ATTR_UNDERSCORE_5 = 0x1000
ATTR_OVERLINE = 0x2000
ATTR_ALL_UNDERSCORE = (
    ATTR_UNDERSCORE | ATTR_UNDERSCORE_2 | ATTR_UNDERSCORE_3 | ATTR_UNDERSCORE_4 | ATTR_UNDERSCORE_5
)

COLOUR_DEFAULT = 8
COLOUR_FLAG_256 = 0x01000000
COLOUR_FLAG_RGB = 0x02000000

Style = tuple[int, int, int, int]
DEFAULT_STYLE: Style = (0, 8, 8, 0)

ZWJ = "\u200d"


def colour_rgb(r: int, g: int, b: int) -> int:
    """tmux's colour_join_rgb."""
    return COLOUR_FLAG_RGB | (r << 16) | (g << 8) | b


# -- widths ------------------------------------------------------------------------------------
# tmux 3.3a (built without utf8proc, as Debian ships it) asks the C library's wcwidth(); widths
# from the Python wcwidth package differ for emoji and many symbols, so ask glibc too. uselocale()
# switches only this thread's locale, so the process locale is never touched.


def _libc_wcwidth():  # pragma: no cover - platform dependent
    name = ctypes.util.find_library("c")
    if not name:
        return None
    libc = ctypes.CDLL(name)
    try:
        newlocale = libc.newlocale
        uselocale = libc.uselocale
        wcwidth = libc.wcwidth
    except AttributeError:
        return None
    newlocale.restype = ctypes.c_void_p
    newlocale.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p]
    uselocale.restype = ctypes.c_void_p
    uselocale.argtypes = [ctypes.c_void_p]
    wcwidth.restype = ctypes.c_int
    wcwidth.argtypes = [ctypes.c_uint32]
    loc = None
    for lname in (b"C.UTF-8", b"C.utf8", b"en_US.UTF-8"):
        loc = newlocale(1, lname, None)  # LC_CTYPE_MASK
        if loc:
            break
    if not loc:
        return None

    def width(cp: int) -> int:
        old = uselocale(loc)
        try:
            return wcwidth(cp)
        finally:
            uselocale(old)

    if width(0x4E2D) != 2 or width(0x41) != 1:
        return None
    return width


def _python_wcwidth():  # pragma: no cover - fallback only
    try:
        from wcwidth import wcwidth
    except ImportError:
        import unicodedata

        def wcwidth(ch: str) -> int:
            if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
                return 0
            if unicodedata.category(ch) in ("Cc", "Cs", "Cn"):
                return -1
            return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1

    return lambda cp: wcwidth(chr(cp))


_wcwidth = _libc_wcwidth() or _python_wcwidth()

#: Width of one character as tmux computes it; -1 means tmux drops the character.
WIDTHS: dict[str, int] = {chr(c): 1 for c in range(0x20, 0x7F)}


def char_width(ch: str) -> int:
    """Cell width of a single character (-1: not printable, dropped like tmux does)."""
    w = WIDTHS.get(ch)
    if w is None:
        cp = ord(ch)
        if 0xD800 <= cp <= 0xDFFF:  # lone surrogate (undecodable byte)
            w = -1
        else:
            try:
                w = _wcwidth(cp)
            except Exception:
                w = -1
            if w > 2:
                w = -1
        if len(WIDTHS) > 65536:  # bounded even if fed every code point
            WIDTHS.clear()
            WIDTHS.update({chr(c): 1 for c in range(0x20, 0x7F)})
        WIDTHS[ch] = w
    return w


def cell_width(cell: str) -> int:
    """Width of a stored cell: padding is 0, a combined cell has the width of its first char."""
    if not cell:
        return 0
    w = WIDTHS.get(cell[0])
    if w is None:
        w = char_width(cell[0])
    return w if w > 0 else 1


# -- capture-pane -e SGR strings ---------------------------------------------------------------

_ATTR_CODES = (
    (ATTR_BRIGHT, 1),
    (ATTR_DIM, 2),
    (ATTR_ITALICS, 3),
    (ATTR_UNDERSCORE, 4),
    (ATTR_BLINK, 5),
    (ATTR_REVERSE, 7),
    (ATTR_HIDDEN, 8),
    (ATTR_STRIKETHROUGH, 9),
    (ATTR_UNDERSCORE_2, 42),
    (ATTR_UNDERSCORE_3, 43),
    (ATTR_UNDERSCORE_4, 44),
    (ATTR_UNDERSCORE_5, 45),
    (ATTR_OVERLINE, 53),
)


def _colour_values(c: int, base: int, bright_add: int, ext: int, basic: bool) -> tuple[int, ...]:
    if c & COLOUR_FLAG_256:
        return (ext, 5, c & 0xFF)
    if c & COLOUR_FLAG_RGB:
        return (ext, 2, (c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF)
    if not basic:
        return ()
    if 0 <= c <= 7:
        return (c + base,)
    if c == 8:
        return (base + 9,)
    if 90 <= c <= 97:
        return (c + bright_add,)
    return ()


def _basic(c: int) -> int:
    """setaf/setab of a 256-colour terminfo: 256-colour 0-15 go as 30-37 / 90-97."""
    if c & COLOUR_FLAG_256 and (c & 0xFF) < 16:
        n = c & 0xFF
        return n if n < 8 else 90 + n - 8
    return c


_CUBE = (0x00, 0x5F, 0x87, 0xAF, 0xD7, 0xFF)


def _to_cube(v: int) -> int:
    return 0 if v < 48 else 1 if v < 114 else (v - 35) // 40


def colour_find_rgb(r: int, g: int, b: int) -> int:
    """The xterm 256-colour index nearest an RGB colour, by tmux's rule: the nearest of the
    6×6×6 cube's entry and the grey ramp's (the cube's levels are uneven: 0, 95, 135, …)."""
    qr, qg, qb = _to_cube(r), _to_cube(g), _to_cube(b)
    cr, cg, cb = _CUBE[qr], _CUBE[qg], _CUBE[qb]
    cube = 16 + 36 * qr + 6 * qg + qb
    if (cr, cg, cb) == (r, g, b):
        return cube | COLOUR_FLAG_256
    avg = (r + g + b) // 3
    gi = 23 if avg > 238 else (avg - 3) // 10
    grey = 8 + 10 * gi
    if (grey - r) ** 2 + (grey - g) ** 2 + (grey - b) ** 2 < (cr - r) ** 2 + (cg - g) ** 2 + (cb - b) ** 2:
        return (232 + gi) | COLOUR_FLAG_256
    return cube | COLOUR_FLAG_256


# tmux's colour_256to16: the 16-colour entry it draws each 256-colour index as (rows of 16).
_256TO16 = (
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    0, 4, 4, 4, 12, 12, 2, 6, 4, 4, 12, 12, 2, 2, 6, 4,
    12, 12, 2, 2, 2, 6, 12, 12, 10, 10, 10, 10, 14, 12, 10, 10,
    10, 10, 10, 14, 1, 5, 4, 4, 12, 12, 3, 8, 4, 4, 12, 12,
    2, 2, 6, 4, 12, 12, 2, 2, 2, 6, 12, 12, 10, 10, 10, 10,
    14, 12, 10, 10, 10, 10, 10, 14, 1, 1, 5, 4, 12, 12, 1, 1,
    5, 4, 12, 12, 3, 3, 8, 4, 12, 12, 2, 2, 2, 6, 12, 12,
    10, 10, 10, 10, 14, 12, 10, 10, 10, 10, 10, 14, 1, 1, 1, 5,
    12, 12, 1, 1, 1, 5, 12, 12, 1, 1, 1, 5, 12, 12, 3, 3,
    3, 7, 12, 12, 10, 10, 10, 10, 14, 12, 10, 10, 10, 10, 10, 14,
    9, 9, 9, 9, 13, 12, 9, 9, 9, 9, 13, 12, 9, 9, 9, 9,
    13, 12, 9, 9, 9, 9, 13, 12, 11, 11, 11, 11, 7, 12, 10, 10,
    10, 10, 10, 14, 9, 9, 9, 9, 9, 13, 9, 9, 9, 9, 9, 13,
    9, 9, 9, 9, 9, 13, 9, 9, 9, 9, 9, 13, 9, 9, 9, 9,
    9, 13, 11, 11, 11, 11, 11, 15, 0, 0, 0, 0, 0, 0, 8, 8,
    8, 8, 8, 8, 7, 7, 7, 7, 7, 7, 15, 15, 15, 15, 15, 15,
)


def _fit_colour(c: int, rgb: bool, colours: int, bg: bool) -> tuple[int, bool]:
    """tty_check_fg/bg without the palette: (colour, whether it needs the bright attribute)."""
    if c & COLOUR_FLAG_RGB:
        if rgb:
            return c, False
        c = colour_find_rgb((c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF)
    if c & COLOUR_FLAG_256:
        if colours < 256:
            c = _256TO16[c & 0xFF]
            if c & 8:
                c = (c & 7) + (90 if colours >= 16 else 0)
        return c, False
    if 90 <= c <= 97 and colours < 16:
        return c - 90, not bg
    return c, False


def fit_style(st: Style, rgb: bool, colours: int) -> Style:
    """A style as a terminal with ``colours`` colours (and RGB or not) is sent it: what tmux's
    tty_check_fg/bg make of it before drawing."""
    attr, fg, bg, us = st
    fg, bright = _fit_colour(fg, rgb, colours, False)
    bg, _ = _fit_colour(bg, rgb, colours, True)
    return (attr | ATTR_BRIGHT if bright else attr, fg, bg, us)


def _for_terminal(st: Style) -> Style:
    attr, fg, bg, us = st
    if us & COLOUR_FLAG_256:
        from .screen import _force_rgb

        us = _force_rgb(us) | COLOUR_FLAG_RGB
    return (attr, _basic(fg), _basic(bg), us)


def sgr_change(last: Style, cur: Style, escape_c0: bool = False, terminal: bool = False) -> str:
    """The codes tmux's grid_string_cells_code writes to go from ``last`` to ``cur``.

    ``terminal`` gives what a terminal reads instead (for drawing): capture-pane's ``5:3`` is
    overline ``53`` there, a 256-colour underline colour goes as RGB (tty_colours_us) and
    256-colour 0-15 as the basic codes a 256-colour terminfo's setaf/setab sends.
    """
    if terminal:
        last, cur = _for_terminal(last), _for_terminal(cur)
    attr, fg, bg, us = cur
    lastattr = last[0]
    esc = "\\033[" if escape_c0 else "\033["
    s: list[int] = []
    for mask, _code in _ATTR_CODES:
        if ((~attr & mask) and (lastattr & mask)) or (last[3] != 0 and us == 0):
            s.append(0)
            lastattr &= ATTR_CHARSET
            break
    for mask, code in _ATTR_CODES:
        if (attr & mask) and not (lastattr & mask):
            s.append(code)
    out = []
    if s:
        out.append(esc + ";".join(str(v) if v < 10 or (terminal and v == 53)
                                  else f"{v // 10}:{v % 10}" for v in s) + "m")
    reset = bool(s) and s[0] == 0
    for new, old in (
        (_colour_values(fg, 30, 0, 38, True), _colour_values(last[1], 30, 0, 38, True)),
        (_colour_values(bg, 40, 10, 48, True), _colour_values(last[2], 40, 10, 48, True)),
        (_colour_values(us, 0, 0, 58, False), _colour_values(last[3], 0, 0, 58, False)),
    ):
        if new and (new != old or reset):
            out.append(esc + ";".join(map(str, new)) + "m")
    if (attr & ATTR_CHARSET) and not (lastattr & ATTR_CHARSET):
        out.append("\\016" if escape_c0 else "\016")
    if not (attr & ATTR_CHARSET) and (lastattr & ATTR_CHARSET):
        out.append("\\017" if escape_c0 else "\017")
    return "".join(out)


def grid_word(chars: list[str], x: int, ws: str) -> str | None:
    """format_grid_word on one row of characters ("" for a wide character's second half): the
    word around column ``x``, between separators (mouse_word, copy_cursor_word)."""
    def cell(px: int) -> str:
        return chars[px] if px < len(chars) else " "

    found = False
    while True:
        c = cell(x)
        if c == "":
            break
        if c in ws or c == " ":
            found = True
            break
        if x == 0:
            break
        x -= 1
    out: list[str] = []
    end = len(chars)
    while end > 0 and chars[end - 1] == " ":
        end -= 1
    while True:
        if found:
            if end == 0 or x == end - 1:
                break
            x += 1
        found = True
        c = cell(x)
        if c == "" or c in ws or c == " ":
            break
        out.append(c)
    return "".join(out) or None
