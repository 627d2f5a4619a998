"""Cell widths, style encoding and the SGR strings ``capture-pane -e`` emits.

Styles use tmux's own encoding so capture output can be produced exactly as tmux does:
``(attr, fg, bg, us)`` where ``attr`` is a mask of ``ATTR_*`` bits and colours are 0-7 (basic),
8 (default), 90-97 (bright), ``n | COLOUR_FLAG_256`` or ``COLOUR_FLAG_RGB | r << 16 | g << 8 | b``.
``us`` (underline colour) is 0 when unset (tmux 3.7b says 8; only the encoding differs).
"""

from __future__ import annotations

import ctypes

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
# tmux 3.7b (built without utf8proc, as the oracle is) asks the C library's wcwidth() for what its
# own table and the codepoint-widths option do not name; widths from the Python wcwidth package
# differ for emoji and many symbols, so ask glibc too. uselocale() switches only this thread's
# locale, so the process locale is never touched.


def _libc_wcwidth():  # pragma: no cover - platform dependent
    # The process's own symbols hold the C library's: ctypes.util.find_library("c") would run
    # ldconfig as a subprocess at every server start.
    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return None
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

#: tmux 3.7b's utf8_default_width_cache: emoji that take a skin tone modifier are wide, the
#: regional indicators narrow (two of them combine into one wide flag).
_WIDE_EMOJI = (
    0x0261D, 0x026F9, 0x0270A, 0x0270B, 0x0270C, 0x0270D, 0x1F385, 0x1F3C2, 0x1F3C3, 0x1F3C4,
    0x1F3C7, 0x1F3CA, 0x1F3CB, 0x1F3CC, 0x1F3FB, 0x1F3FC, 0x1F3FD, 0x1F3FE, 0x1F3FF, 0x1F442,
    0x1F443, 0x1F446, 0x1F447, 0x1F448, 0x1F449, 0x1F44A, 0x1F44B, 0x1F44C, 0x1F44D, 0x1F44E,
    0x1F44F, 0x1F450, 0x1F466, 0x1F467, 0x1F468, 0x1F469, 0x1F46B, 0x1F46C, 0x1F46D, 0x1F46E,
    0x1F470, 0x1F471, 0x1F472, 0x1F473, 0x1F474, 0x1F475, 0x1F476, 0x1F477, 0x1F478, 0x1F47C,
    0x1F481, 0x1F482, 0x1F483, 0x1F485, 0x1F486, 0x1F487, 0x1F48F, 0x1F491, 0x1F4AA, 0x1F574,
    0x1F575, 0x1F57A, 0x1F590, 0x1F595, 0x1F596, 0x1F645, 0x1F646, 0x1F647, 0x1F64B, 0x1F64C,
    0x1F64D, 0x1F64E, 0x1F64F, 0x1F6A3, 0x1F6B4, 0x1F6B5, 0x1F6B6, 0x1F6C0, 0x1F6CC, 0x1F90C,
    0x1F90F, 0x1F918, 0x1F919, 0x1F91A, 0x1F91B, 0x1F91C, 0x1F91D, 0x1F91E, 0x1F91F, 0x1F926,
    0x1F930, 0x1F931, 0x1F932, 0x1F933, 0x1F934, 0x1F935, 0x1F936, 0x1F937, 0x1F938, 0x1F939,
    0x1F93D, 0x1F93E, 0x1F977, 0x1F9B5, 0x1F9B6, 0x1F9B8, 0x1F9B9, 0x1F9BB, 0x1F9CD, 0x1F9CE,
    0x1F9CF, 0x1F9D1, 0x1F9D2, 0x1F9D3, 0x1F9D4, 0x1F9D5, 0x1F9D6, 0x1F9D7, 0x1F9D8, 0x1F9D9,
    0x1F9DA, 0x1F9DB, 0x1F9DC, 0x1F9DD, 0x1FAC3, 0x1FAC4, 0x1FAC5, 0x1FAF0, 0x1FAF1, 0x1FAF2,
    0x1FAF3, 0x1FAF4, 0x1FAF5, 0x1FAF6, 0x1FAF7, 0x1FAF8,
)  # fmt: skip
_DEFAULT_OVERRIDES: dict[int, int] = {cp: 2 for cp in _WIDE_EMOJI}
_DEFAULT_OVERRIDES.update({cp: 1 for cp in range(0x1F1E6, 0x1F200)})
#: The width cache: tmux's defaults, then the codepoint-widths option's entries.
_overrides: dict[int, int] = dict(_DEFAULT_OVERRIDES)

#: Width of one character as tmux computes it; -1 only for what is not a character at all (a
#: lone surrogate: an undecodable byte), which tmux never stores.
WIDTHS: dict[str, int] = {chr(c): 1 for c in range(0x20, 0x7F)}


def _width_of(cp: int) -> int:
    w = _overrides.get(cp)
    if w is not None:
        return w
    if 0xD800 <= cp <= 0xDFFF:
        return -1
    try:
        w = _wcwidth(cp)
    except Exception:
        w = -1
    if w < 0:  # tmux 3.7b: unprintable is width 1, except C1 controls (0)
        return 0 if 0x80 <= cp <= 0x9F else 1
    return w


def char_width(ch: str) -> int:
    """Cell width of a single character, as tmux 3.7b's utf8_width gives it."""
    w = WIDTHS.get(ch)
    if w is None:
        w = _width_of(ord(ch))
        if len(WIDTHS) > 65536:  # bounded even if fed every code point
            _reset_width_cache()
        WIDTHS[ch] = w
    return w


def _reset_width_cache() -> None:
    WIDTHS.clear()
    WIDTHS.update({chr(c): 1 for c in range(0x20, 0x7F)})


def set_codepoint_widths(entries: list[str]) -> None:
    """Apply the ``codepoint-widths`` server option (tmux's utf8_update_width_cache): entries
    ``U+XXXX=W``, ``U+XXXX-U+YYYY=W`` or ``c=W`` with W 0-2 override the default widths; bad
    entries are skipped as tmux skips them."""
    table = dict(_DEFAULT_OVERRIDES)
    for entry in entries:
        key, sep, val = entry.partition("=")
        if not sep or not val.isdigit() or int(val) > 2:
            continue
        width = int(val)
        if key.startswith("U+"):
            first, dash, last = key[2:].partition("-")
            try:
                lo = int(first, 16)
                hi = lo if not dash else (int(last[2:], 16) if last.startswith("U+") else -1)
            except ValueError:
                continue
            if lo <= 0 or hi < lo or hi > 0x7FFFFFFF:
                continue
            for cp in range(lo, min(hi, 0x10FFFF) + 1):
                table[cp] = width
        elif len(key) == 1:
            table[ord(key)] = width
    _overrides.clear()
    _overrides.update(table)
    _reset_width_cache()
    from .combine import JOINS  # which characters join depends on their widths

    JOINS.clear()


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
            # tmux 3.7b's capture leaves out a default colour right after a reset
            if reset and not terminal and new[0] in (39, 49):
                continue
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
