"""Key codes, key names and the bytes a key sends to a pane, as in tmux 3.3a.

Key codes are ints laid out like tmux's ``key_code`` (``tmux.h`` ``KEYC_*``): the low 44 bits are
the key, then the modifier bits (Meta, Ctrl, Shift), then flag bits (literal, keypad, cursor,
implied Meta, ...). Bindings, ``list-keys``, ``send-keys`` and the tty input parser all share them.

Unicode keys are the code point itself (``ord(ch)``), so ``ord`` works for every character except
the 8192 code points U+10E000..U+10FFFF, which overlap tmux's special-key range and carry the
private ``_KEYC_HIGH_UNICODE`` bit instead. Use :func:`char_to_key` / :func:`key_to_char` to be
safe. (tmux packs UTF-8 bytes into a ``utf8_char``; only the layout of the special keys matters for
compatibility, and the byte output is the same.)

Name lookup follows ``key-string.c`` (``key_string_lookup_string`` / ``key_string_lookup_key``),
the pane encoding follows ``input-keys.c`` (``input_key``) and argument handling follows
``cmd-send-keys.c`` (``cmd_send_keys_inject_string``), quirks included.
"""

from __future__ import annotations

import unicodedata

# -- key code layout (tmux.h) -------------------------------------------------------------------

KEYC_NONE = 0x000FF000000000
KEYC_UNKNOWN = 0x000FE000000000

#: Base of the special (non-Unicode) keys, in the highest Unicode private use area.
KEYC_BASE = 0x0000000010E000
KEYC_USER = 0x0000000010F000
KEYC_NUSER = 1000

# Modifier bits.
KEYC_META = 0x00100000000000
KEYC_CTRL = 0x00200000000000
KEYC_SHIFT = 0x00400000000000

# Flag bits.
KEYC_LITERAL = 0x01000000000000
KEYC_KEYPAD = 0x02000000000000
KEYC_CURSOR = 0x04000000000000
KEYC_IMPLIED_META = 0x08000000000000
KEYC_BUILD_MODIFIERS = 0x10000000000000
KEYC_VI = 0x20000000000000

# Masks.
KEYC_MASK_MODIFIERS = 0x00F00000000000
KEYC_MASK_FLAGS = 0xFF000000000000
KEYC_MASK_KEY = 0x000FFFFFFFFFFF

#: hmux only: marks a Unicode key whose code point lies in [KEYC_BASE, 0x10FFFF].
_KEYC_HIGH_UNICODE = 0x1000000

# Special keys, in tmux's enum order starting at KEYC_BASE.
KEYC_FOCUS_IN = KEYC_BASE
KEYC_FOCUS_OUT = KEYC_BASE + 1
KEYC_ANY = KEYC_BASE + 2
KEYC_PASTE_START = KEYC_BASE + 3
KEYC_PASTE_END = KEYC_BASE + 4
KEYC_MOUSE = KEYC_BASE + 5  # unclassified mouse event
KEYC_DRAGGING = KEYC_BASE + 6  # dragging in progress
KEYC_DOUBLECLICK = KEYC_BASE + 7  # double click complete

#: Mouse events, each followed by one key per location (tmux KEYC_MOUSE_KEY), in enum order.
_BUTTONS = ("1", "2", "3", "6", "7", "8", "9", "10", "11")
MOUSE_EVENTS: tuple[str, ...] = (
    ("MouseMove",)
    + tuple(f"MouseDown{b}" for b in _BUTTONS)
    + tuple(f"MouseUp{b}" for b in _BUTTONS)
    + tuple(f"MouseDrag{b}" for b in _BUTTONS)
    + tuple(f"MouseDragEnd{b}" for b in _BUTTONS)
    + ("WheelUp", "WheelDown")
    + tuple(f"SecondClick{b}" for b in _BUTTONS)
    + tuple(f"DoubleClick{b}" for b in _BUTTONS)
    + tuple(f"TripleClick{b}" for b in _BUTTONS)
)
#: Where a mouse event happened: the name suffix of each of an event's keys, in enum order.
MOUSE_LOCATIONS: tuple[str, ...] = (
    "Pane", "Status", "StatusLeft", "StatusRight", "StatusDefault", "Border",
)
_MOUSE_LOCATION_C = ("PANE", "STATUS", "STATUS_LEFT", "STATUS_RIGHT", "STATUS_DEFAULT", "BORDER")
KEYC_MOUSE_FIRST = KEYC_BASE + 8


def mouse_key(event: str, location: str) -> int:
    """The key for a mouse event at a location, e.g. ``("MouseDown1", "Pane")``."""
    return (KEYC_MOUSE_FIRST + MOUSE_EVENTS.index(event) * len(MOUSE_LOCATIONS)
            + MOUSE_LOCATIONS.index(location))


# tmux's KEYC_MOUSEDOWN1_PANE ... KEYC_TRIPLECLICK11_BORDER, generated to keep the enum in one place.
for _ei, _ev in enumerate(MOUSE_EVENTS):
    for _li, _loc in enumerate(_MOUSE_LOCATION_C):
        globals()[f"KEYC_{_ev.upper()}_{_loc}"] = (
            KEYC_MOUSE_FIRST + _ei * len(MOUSE_LOCATIONS) + _li)
KEYC_MOUSEMOVE_PANE = KEYC_MOUSE_FIRST
KEYC_MOUSEMOVE_STATUS = KEYC_MOUSE_FIRST + 1
KEYC_MOUSEMOVE_STATUS_LEFT = KEYC_MOUSE_FIRST + 2
KEYC_MOUSEMOVE_STATUS_RIGHT = KEYC_MOUSE_FIRST + 3
KEYC_MOUSEMOVE_STATUS_DEFAULT = KEYC_MOUSE_FIRST + 4
KEYC_MOUSEMOVE_BORDER = KEYC_MOUSE_FIRST + 5

# Backspace, function and cursor keys.
KEYC_BSPACE = KEYC_MOUSE_FIRST + len(MOUSE_EVENTS) * len(MOUSE_LOCATIONS)
KEYC_F1 = KEYC_BSPACE + 1
KEYC_F2 = KEYC_BSPACE + 2
KEYC_F3 = KEYC_BSPACE + 3
KEYC_F4 = KEYC_BSPACE + 4
KEYC_F5 = KEYC_BSPACE + 5
KEYC_F6 = KEYC_BSPACE + 6
KEYC_F7 = KEYC_BSPACE + 7
KEYC_F8 = KEYC_BSPACE + 8
KEYC_F9 = KEYC_BSPACE + 9
KEYC_F10 = KEYC_BSPACE + 10
KEYC_F11 = KEYC_BSPACE + 11
KEYC_F12 = KEYC_BSPACE + 12
KEYC_IC = KEYC_BSPACE + 13
KEYC_DC = KEYC_BSPACE + 14
KEYC_HOME = KEYC_BSPACE + 15
KEYC_END = KEYC_BSPACE + 16
KEYC_NPAGE = KEYC_BSPACE + 17
KEYC_PPAGE = KEYC_BSPACE + 18
KEYC_BTAB = KEYC_BSPACE + 19
# Arrow keys.
KEYC_UP = KEYC_BSPACE + 20
KEYC_DOWN = KEYC_BSPACE + 21
KEYC_LEFT = KEYC_BSPACE + 22
KEYC_RIGHT = KEYC_BSPACE + 23
# Numeric keypad.
KEYC_KP_SLASH = KEYC_BSPACE + 24
KEYC_KP_STAR = KEYC_BSPACE + 25
KEYC_KP_MINUS = KEYC_BSPACE + 26
KEYC_KP_SEVEN = KEYC_BSPACE + 27
KEYC_KP_EIGHT = KEYC_BSPACE + 28
KEYC_KP_NINE = KEYC_BSPACE + 29
KEYC_KP_PLUS = KEYC_BSPACE + 30
KEYC_KP_FOUR = KEYC_BSPACE + 31
KEYC_KP_FIVE = KEYC_BSPACE + 32
KEYC_KP_SIX = KEYC_BSPACE + 33
KEYC_KP_ONE = KEYC_BSPACE + 34
KEYC_KP_TWO = KEYC_BSPACE + 35
KEYC_KP_THREE = KEYC_BSPACE + 36
KEYC_KP_ENTER = KEYC_BSPACE + 37
KEYC_KP_ZERO = KEYC_BSPACE + 38
KEYC_KP_PERIOD = KEYC_BSPACE + 39
#: End of the special keys.
KEYC_BASE_END = KEYC_BSPACE + 40


def is_mouse_key(key: int) -> bool:
    """KEYC_IS_MOUSE: mouse keys need a mouse event to mean anything to a pane."""
    k = key & KEYC_MASK_KEY
    return KEYC_MOUSE <= k < KEYC_BSPACE


def is_unicode_key(key: int) -> bool:
    """KEYC_IS_UNICODE (note tmux's quirk: User keys and NONE/UNKNOWN count as Unicode)."""
    k = key & KEYC_MASK_KEY
    return k > 0x7F and (k < KEYC_BASE or k >= KEYC_BASE_END)


def char_to_key(ch: str) -> int:
    """The key code of one character (no modifiers)."""
    cp = ord(ch)
    return cp | _KEYC_HIGH_UNICODE if cp >= KEYC_BASE else cp


def key_to_char(key: int) -> str | None:
    """The character of a plain or Unicode key, or None if the key is not a character."""
    k = key & KEYC_MASK_KEY
    if k < KEYC_BASE:
        return None if 0xD800 <= k <= 0xDFFF else chr(k)
    if k & _KEYC_HIGH_UNICODE:
        cp = k & ~_KEYC_HIGH_UNICODE
        if KEYC_BASE <= cp <= 0x10FFFF:
            return chr(cp)
    return None


# -- the name table (key-string.c key_string_table, in tmux's order) --------------------------

_IM = KEYC_IMPLIED_META
_KEY_STRING_TABLE: list[tuple[str, int]] = [
    ("F1", KEYC_F1 | _IM), ("F2", KEYC_F2 | _IM), ("F3", KEYC_F3 | _IM), ("F4", KEYC_F4 | _IM),
    ("F5", KEYC_F5 | _IM), ("F6", KEYC_F6 | _IM), ("F7", KEYC_F7 | _IM), ("F8", KEYC_F8 | _IM),
    ("F9", KEYC_F9 | _IM), ("F10", KEYC_F10 | _IM), ("F11", KEYC_F11 | _IM),
    ("F12", KEYC_F12 | _IM),
    ("IC", KEYC_IC | _IM), ("Insert", KEYC_IC | _IM),
    ("DC", KEYC_DC | _IM), ("Delete", KEYC_DC | _IM),
    ("Home", KEYC_HOME | _IM), ("End", KEYC_END | _IM),
    ("NPage", KEYC_NPAGE | _IM), ("PageDown", KEYC_NPAGE | _IM), ("PgDn", KEYC_NPAGE | _IM),
    ("PPage", KEYC_PPAGE | _IM), ("PageUp", KEYC_PPAGE | _IM), ("PgUp", KEYC_PPAGE | _IM),
    ("Tab", 0x09), ("BTab", KEYC_BTAB), ("Space", 0x20), ("BSpace", KEYC_BSPACE),
    ("Enter", 0x0D), ("Escape", 0x1B),
    ("Up", KEYC_UP | KEYC_CURSOR | _IM), ("Down", KEYC_DOWN | KEYC_CURSOR | _IM),
    ("Left", KEYC_LEFT | KEYC_CURSOR | _IM), ("Right", KEYC_RIGHT | KEYC_CURSOR | _IM),
    ("KP/", KEYC_KP_SLASH | KEYC_KEYPAD), ("KP*", KEYC_KP_STAR | KEYC_KEYPAD),
    ("KP-", KEYC_KP_MINUS | KEYC_KEYPAD), ("KP7", KEYC_KP_SEVEN | KEYC_KEYPAD),
    ("KP8", KEYC_KP_EIGHT | KEYC_KEYPAD), ("KP9", KEYC_KP_NINE | KEYC_KEYPAD),
    ("KP+", KEYC_KP_PLUS | KEYC_KEYPAD), ("KP4", KEYC_KP_FOUR | KEYC_KEYPAD),
    ("KP5", KEYC_KP_FIVE | KEYC_KEYPAD), ("KP6", KEYC_KP_SIX | KEYC_KEYPAD),
    ("KP1", KEYC_KP_ONE | KEYC_KEYPAD), ("KP2", KEYC_KP_TWO | KEYC_KEYPAD),
    ("KP3", KEYC_KP_THREE | KEYC_KEYPAD), ("KPEnter", KEYC_KP_ENTER | KEYC_KEYPAD),
    ("KP0", KEYC_KP_ZERO | KEYC_KEYPAD), ("KP.", KEYC_KP_PERIOD | KEYC_KEYPAD),
]
# Every mouse event but MouseMove has names (MouseMove keys are only printed, never parsed).
for _ev in MOUSE_EVENTS[1:]:
    for _loc in MOUSE_LOCATIONS:
        _KEY_STRING_TABLE.append((_ev + _loc, mouse_key(_ev, _loc)))

#: All key names string_to_key accepts from the table, in tmux's order.
KEY_NAMES: tuple[str, ...] = tuple(name for name, _ in _KEY_STRING_TABLE)

_NAME_TO_KEY: dict[str, int] = {name.lower(): key for name, key in _KEY_STRING_TABLE}
_KEY_TO_NAME: dict[int, str] = {}
for _name, _key in _KEY_STRING_TABLE:
    _KEY_TO_NAME.setdefault(_key & KEYC_MASK_KEY, _name)

# Names key_string_lookup_key prints before trying the table.
_SPECIAL_NAMES: dict[int, str] = {
    KEYC_NONE: "None", KEYC_UNKNOWN: "Unknown", KEYC_ANY: "Any",
    KEYC_FOCUS_IN: "FocusIn", KEYC_FOCUS_OUT: "FocusOut",
    KEYC_PASTE_START: "PasteStart", KEYC_PASTE_END: "PasteEnd",
    KEYC_MOUSE: "Mouse", KEYC_DRAGGING: "Dragging",
    KEYC_MOUSEMOVE_PANE: "MouseMovePane", KEYC_MOUSEMOVE_STATUS: "MouseMoveStatus",
    KEYC_MOUSEMOVE_STATUS_LEFT: "MouseMoveStatusLeft",
    KEYC_MOUSEMOVE_STATUS_RIGHT: "MouseMoveStatusRight",
    KEYC_MOUSEMOVE_BORDER: "MouseMoveBorder",
}

# Keys tmux never turns into control characters (key_string_lookup_string "other").
_CTRL_OTHER = frozenset(map(ord, "!#()+,-.0123456789:;<=>'\r\t\177`/"))
_MODIFIER_CHARS = {"C": KEYC_CTRL, "c": KEYC_CTRL, "M": KEYC_META, "m": KEYC_META,
                   "S": KEYC_SHIFT, "s": KEYC_SHIFT}
# Categories glibc's wcwidth() rejects (-1); tmux refuses such characters as keys.
_BAD_CATEGORIES = frozenset(("Cc", "Cs", "Cn", "Zl", "Zp"))
_C_SPACE = " \t\n\v\f\r"
_HEX = frozenset("0123456789abcdefABCDEF")
_DEC = frozenset("0123456789")


def _printable(cp: int) -> bool:
    """Whether glibc's wcwidth() accepts the code point (tmux utf8_width)."""
    return unicodedata.category(chr(cp)) not in _BAD_CATEGORIES


def _scan_unsigned(s: str, digits: frozenset[str], base: int) -> int | None:
    """sscanf %x / %u: skip spaces, sign, digits, ignore the rest; strtoul wrap to 32 bits."""
    i, n = 0, len(s)
    while i < n and s[i] in _C_SPACE:
        i += 1
    neg = False
    if i < n and s[i] in "+-":
        neg = s[i] == "-"
        i += 1
    if base == 16 and s[i:i + 1] == "0" and s[i + 1:i + 2] in ("x", "X"):
        if s[i + 2:i + 3] in _HEX:
            i += 2
        else:
            return 0  # glibc takes "0x" with no digits after it as 0
    j = i
    while j < n and s[j] in digits:
        j += 1
    if j == i:
        return None
    value = min(int(s[i:j], base), 0xFFFFFFFFFFFFFFFF)
    if neg:
        value = -value & 0xFFFFFFFFFFFFFFFF
    return value & 0xFFFFFFFF


def _strtol_hex_byte(s: str) -> int | None:
    """send-keys -H: strtol(s, &end, 16) must use the whole string and give 0..255."""
    i, n = 0, len(s)
    while i < n and s[i] in _C_SPACE:
        i += 1
    neg = False
    if i < n and s[i] in "+-":
        neg = s[i] == "-"
        i += 1
    if s[i:i + 1] == "0" and s[i + 1:i + 2] in ("x", "X") and s[i + 2:i + 3] in _HEX:
        i += 2
    j = i
    while j < n and s[j] in _HEX:
        j += 1
    if j == i or j != n:
        return None
    value = int(s[i:j], 16)
    if neg:
        value = -value
    return value if 0 <= value <= 0xFF else None


def string_to_key(s: str) -> int:
    """Parse a key name (tmux key_string_lookup_string); KEYC_UNKNOWN if it is not one."""
    low = s.lower() if s.isascii() else ""
    if low == "none":
        return KEYC_NONE
    if low == "any":
        return KEYC_ANY

    # A hexadecimal code point: "0x41".
    if s.startswith("0x"):
        u = _scan_unsigned(s[2:], _HEX, 16)
        if u is None:
            return KEYC_UNKNOWN
        if u < 0x80:
            return u
        if u > 0x10FFFF or 0xD800 <= u <= 0xDFFF or not _printable(u):
            return KEYC_UNKNOWN
        return char_to_key(chr(u))

    # Modifiers: "^x", "C-", "M-", "S-" (any case, any number).
    modifiers = 0
    i = 0
    if s[:1] == "^" and len(s) > 1:
        modifiers = KEYC_CTRL
        i = 1
    n = len(s)
    while i + 1 < n and s[i + 1] == "-":
        m = _MODIFIER_CHARS.get(s[i])
        if m is None:
            return KEYC_UNKNOWN
        modifiers |= m
        i += 2
    rest = s[i:] if i else s
    if not rest:
        return KEYC_UNKNOWN

    first = ord(rest[0])
    if len(rest) == 1 and first <= 0x7F:
        # A plain ASCII key.
        key = first
        if key < 32:
            return KEYC_UNKNOWN
    elif first > 0x7F:
        # One UTF-8 character (anything longer, or undecodable, is not a key).
        if len(rest) != 1 or 0xD800 <= first <= 0xDFFF or not _printable(first):
            return KEYC_UNKNOWN
        return char_to_key(rest) | modifiers
    else:
        found = _NAME_TO_KEY.get(rest.lower()) if rest.isascii() else None
        if found is None:
            if not rest.startswith("User"):
                return KEYC_UNKNOWN
            user = _scan_unsigned(rest[4:], _DEC, 10)
            if user is None or user >= KEYC_NUSER:
                return KEYC_UNKNOWN
            found = KEYC_USER + user
        key = found
        if not modifiers & KEYC_META:
            key &= ~KEYC_IMPLIED_META

    # Turn C-x into the control character where there is one.
    if key <= 0x7F and modifiers & KEYC_CTRL and key not in _CTRL_OTHER and key != 27:
        if 97 <= key <= 122:
            key -= 96
        elif 64 <= key <= 95:
            key -= 64
        elif key == 32:
            key = 0
        elif key == 63:
            key = 127
        else:
            return KEYC_UNKNOWN
        modifiers &= ~KEYC_CTRL
    return key | modifiers


def key_to_string(key: int, with_flags: bool = False) -> str:
    """A key's name as tmux prints it (key_string_lookup_key), e.g. in list-keys."""
    saved = key
    if key & KEYC_LITERAL:
        b = key & 0xFF
        out = "" if b == 0 else bytes((b,)).decode("utf-8", "surrogateescape")
    else:
        if key & (KEYC_MASK_KEY | KEYC_MASK_MODIFIERS) == 0:
            key = 0x20 | KEYC_CTRL  # C-@ is shown as C-Space
        prefix = (("C-" if key & KEYC_CTRL else "") + ("M-" if key & KEYC_META else "")
                  + ("S-" if key & KEYC_SHIFT else ""))
        k = key & KEYC_MASK_KEY
        name = _SPECIAL_NAMES.get(k)
        if name is None:
            if KEYC_USER <= k < KEYC_USER + KEYC_NUSER:
                name = f"User{k - KEYC_USER}"
            else:
                name = _KEY_TO_NAME.get(k)
        if name is not None:
            out = prefix + name
        elif is_unicode_key(k):
            out = prefix + (key_to_char(k) or "")
        elif k > 255:
            out = f"Invalid#{saved:x}"
        elif k <= 32:
            out = prefix + "C-" + chr((64 + k) if k == 0 or k > 26 else (96 + k))
        elif k <= 126:
            out = prefix + chr(k)
        elif k == 127:
            out = prefix + "C-?"
        else:  # pragma: no cover - 128..255 are Unicode keys
            out = prefix + f"\\{k:o}"
    if with_flags and saved & KEYC_MASK_FLAGS:
        out += "[" + "".join(c for bit, c in (
            (KEYC_LITERAL, "L"), (KEYC_KEYPAD, "K"), (KEYC_CURSOR, "C"),
            (KEYC_IMPLIED_META, "I"), (KEYC_BUILD_MODIFIERS, "B")) if saved & bit) + "]"
    return out


# -- encoding keys for a pane (input-keys.c) ------------------------------------------------------

_INPUT_KEY_DEFAULTS: list[tuple[int, bytes]] = [
    (KEYC_PASTE_START, b"\x1b[200~"), (KEYC_PASTE_END, b"\x1b[201~"),
    (KEYC_F1, b"\x1bOP"), (KEYC_F2, b"\x1bOQ"), (KEYC_F3, b"\x1bOR"), (KEYC_F4, b"\x1bOS"),
    (KEYC_F5, b"\x1b[15~"), (KEYC_F6, b"\x1b[17~"), (KEYC_F7, b"\x1b[18~"),
    (KEYC_F8, b"\x1b[19~"), (KEYC_F9, b"\x1b[20~"), (KEYC_F10, b"\x1b[21~"),
    (KEYC_F11, b"\x1b[23~"), (KEYC_F12, b"\x1b[24~"),
    (KEYC_IC, b"\x1b[2~"), (KEYC_DC, b"\x1b[3~"), (KEYC_HOME, b"\x1b[1~"),
    (KEYC_END, b"\x1b[4~"), (KEYC_NPAGE, b"\x1b[6~"), (KEYC_PPAGE, b"\x1b[5~"),
    (KEYC_BTAB, b"\x1b[Z"),
    (KEYC_UP | KEYC_CURSOR, b"\x1bOA"), (KEYC_DOWN | KEYC_CURSOR, b"\x1bOB"),
    (KEYC_RIGHT | KEYC_CURSOR, b"\x1bOC"), (KEYC_LEFT | KEYC_CURSOR, b"\x1bOD"),
    (KEYC_UP, b"\x1b[A"), (KEYC_DOWN, b"\x1b[B"), (KEYC_RIGHT, b"\x1b[C"),
    (KEYC_LEFT, b"\x1b[D"),
]
_KEYPAD = [
    (KEYC_KP_SLASH, b"o", b"/"), (KEYC_KP_STAR, b"j", b"*"), (KEYC_KP_MINUS, b"m", b"-"),
    (KEYC_KP_SEVEN, b"w", b"7"), (KEYC_KP_EIGHT, b"x", b"8"), (KEYC_KP_NINE, b"y", b"9"),
    (KEYC_KP_PLUS, b"k", b"+"), (KEYC_KP_FOUR, b"t", b"4"), (KEYC_KP_FIVE, b"u", b"5"),
    (KEYC_KP_SIX, b"v", b"6"), (KEYC_KP_ONE, b"q", b"1"), (KEYC_KP_TWO, b"r", b"2"),
    (KEYC_KP_THREE, b"s", b"3"), (KEYC_KP_ENTER, b"M", b"\n"), (KEYC_KP_ZERO, b"p", b"0"),
    (KEYC_KP_PERIOD, b"n", b"."),
]
_INPUT_KEY_DEFAULTS += [(k | KEYC_KEYPAD, b"\x1bO" + app) for k, app, _ in _KEYPAD]
_INPUT_KEY_DEFAULTS += [(k, plain) for k, _, plain in _KEYPAD]
# Keys with an embedded modifier: "_" becomes 2..8 (xterm's 1 + shift|meta<<1|ctrl<<2).
_INPUT_KEY_MODIFIED = [
    (KEYC_F1, b"\x1b[1;_P"), (KEYC_F2, b"\x1b[1;_Q"), (KEYC_F3, b"\x1b[1;_R"),
    (KEYC_F4, b"\x1b[1;_S"), (KEYC_F5, b"\x1b[15;_~"), (KEYC_F6, b"\x1b[17;_~"),
    (KEYC_F7, b"\x1b[18;_~"), (KEYC_F8, b"\x1b[19;_~"), (KEYC_F9, b"\x1b[20;_~"),
    (KEYC_F10, b"\x1b[21;_~"), (KEYC_F11, b"\x1b[23;_~"), (KEYC_F12, b"\x1b[24;_~"),
    (KEYC_UP, b"\x1b[1;_A"), (KEYC_DOWN, b"\x1b[1;_B"), (KEYC_RIGHT, b"\x1b[1;_C"),
    (KEYC_LEFT, b"\x1b[1;_D"), (KEYC_HOME, b"\x1b[1;_H"), (KEYC_END, b"\x1b[1;_F"),
    (KEYC_PPAGE, b"\x1b[5;_~"), (KEYC_NPAGE, b"\x1b[6;_~"), (KEYC_IC, b"\x1b[2;_~"),
    (KEYC_DC, b"\x1b[3;_~"),
]
_INPUT_KEY_MODIFIERS = (
    0, 0, KEYC_SHIFT, KEYC_META | _IM, KEYC_SHIFT | KEYC_META | _IM, KEYC_CTRL,
    KEYC_SHIFT | KEYC_CTRL, KEYC_META | _IM | KEYC_CTRL,
    KEYC_SHIFT | KEYC_META | _IM | KEYC_CTRL,
)
_INPUT_KEYS: dict[int, bytes] = dict(_INPUT_KEY_DEFAULTS)
for _key, _data in _INPUT_KEY_MODIFIED:
    for _j in range(2, len(_INPUT_KEY_MODIFIERS)):
        _INPUT_KEYS[_key | _INPUT_KEY_MODIFIERS[_j]] = _data.replace(b"_", b"%d" % _j)

_XTERM_MODIFIER = {
    KEYC_SHIFT: b"2", KEYC_META: b"3", KEYC_SHIFT | KEYC_META: b"4", KEYC_CTRL: b"5",
    KEYC_SHIFT | KEYC_CTRL: b"6", KEYC_META | KEYC_CTRL: b"7",
    KEYC_SHIFT | KEYC_META | KEYC_CTRL: b"8",
}
_ESC = b"\x1b"
_BYTES = [bytes((i,)) for i in range(256)]


def encode_key(key: int, *, cursor_app: bool = False, keypad_app: bool = False,
               extended_keys: bool = False, backspace: int = 0x7F) -> bytes | None:
    """The bytes tmux writes to a pane for a key (input_key).

    ``b""`` means tmux accepts the key but sends nothing (``C-Tab``, ``C-Enter``, User keys);
    ``None`` means tmux has no sequence for it (``S-a``, ``Any``, mouse keys without a mouse
    event), which makes ``send-keys`` type the argument literally instead. ``backspace`` is the
    server ``backspace`` option (a key code).
    """
    if is_mouse_key(key):
        return None  # window_pane_key refuses a mouse key that has no mouse event
    if key & KEYC_LITERAL:
        return _BYTES[key & 0xFF]

    if key & KEYC_MASK_KEY == KEYC_BSPACE:
        new = backspace if backspace < 0x7F else 0x7F
        key = new | (key & (KEYC_MASK_MODIFIERS | KEYC_MASK_FLAGS))

    # A plain 7-bit key or a Unicode key: itself, after ESC for Meta.
    justkey = key & ~(KEYC_META | KEYC_IMPLIED_META)
    if justkey <= 0x7F:
        return _ESC + _BYTES[justkey] if key & KEYC_META else _BYTES[justkey]
    if is_unicode_key(justkey):
        ch = key_to_char(justkey)
        data = ch.encode("utf-8") if ch is not None else b""
        return _ESC + data if key & KEYC_META else data

    # The table, without the mode flags the pane has not asked for.
    if not keypad_app:
        key &= ~KEYC_KEYPAD
    if not cursor_app:
        key &= ~KEYC_CURSOR
    explicit_meta = bool(key & KEYC_META) and not key & KEYC_IMPLIED_META
    data = _INPUT_KEYS.get(key)
    if data is None and explicit_meta:
        data = _INPUT_KEYS.get(key & ~KEYC_META)
    if data is None and key & KEYC_CURSOR:
        data = _INPUT_KEYS.get(key & ~KEYC_CURSOR)
    if data is None and key & KEYC_KEYPAD:
        data = _INPUT_KEYS.get(key & ~KEYC_KEYPAD)
    if data is not None:
        return _ESC + data if explicit_meta else data

    modifiers = key & KEYC_MASK_MODIFIERS
    if not extended_keys:
        # Only Ctrl can be expressed, and only as a control character.
        if modifiers != KEYC_CTRL:
            return None
        justkey = key & KEYC_MASK_KEY
        rest = key & ~KEYC_MASK_KEY
        if justkey in (0x20, 0x32):  # Space, 2
            new = 0
        elif justkey == 0x7C:  # |
            new = 28
        elif justkey == 0x36:  # 6
            new = 30
        elif justkey in (0x2D, 0x2F):  # - /
            new = 31
        elif justkey == 0x3F:  # ?
            new = 127
        elif 0x41 <= justkey <= 0x5F:
            new = justkey - 0x41  # sic: tmux subtracts 'A', not '@'
        elif 0x61 <= justkey <= 0x7E:
            new = justkey - 96
        else:
            return b""
        return encode_key((new | rest) & ~KEYC_CTRL, cursor_app=cursor_app,
                          keypad_app=keypad_app, extended_keys=extended_keys,
                          backspace=backspace)

    # Extended keys (CSI > 4 ; 1 m): CSI key ; modifier u.
    outkey = key & KEYC_MASK_KEY
    if outkey < 32 and outkey not in (9, 13, 27):
        outkey += 64
        modifiers |= KEYC_CTRL
    m = _XTERM_MODIFIER.get(modifiers)
    if m is None:
        return None
    return b"\x1b[%d;%su" % (outkey, m)


def _arg_bytes(s: str) -> bytes:
    """An argument's bytes as the client sent them (undecodable bytes are surrogate-escaped)."""
    try:
        return s.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return s.encode("utf-8", "surrogatepass")


def send_keys_bytes(args: list[str], *, literal: bool = False, hex_input: bool = False,
                    cursor_app: bool = False, keypad_app: bool = False,
                    extended_keys: bool = False, backspace: int = 0x7F) -> bytes:
    """What ``send-keys [-l] [-H] key ...`` writes to a pane (cmd_send_keys_inject_string).

    Each argument that names a key sends that key; an argument that is no key name, or names a
    key the pane cannot receive, is typed literally. With ``-H`` every argument is one hex
    byte; tmux silently skips bad ones (it has no error message), and so does this.
    """
    out: list[bytes] = []
    for arg in args:
        if hex_input:
            n = _strtol_hex_byte(arg)
            if n is not None:
                out.append(_BYTES[n])
            continue
        if not literal:
            key = string_to_key(arg)
            if key != KEYC_NONE and key != KEYC_UNKNOWN:
                data = encode_key(key, cursor_app=cursor_app, keypad_app=keypad_app,
                                  extended_keys=extended_keys, backspace=backspace)
                if data is not None:
                    out.append(data)
                    continue
        out.append(_arg_bytes(arg))
    return b"".join(out)


del _ei, _ev, _li, _loc, _name, _key, _data, _j
