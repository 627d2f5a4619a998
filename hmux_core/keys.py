"""Key codes, key names and the bytes a key sends to a pane, as in tmux 3.7b.

Key codes are ints laid out like tmux's ``key_code`` (``tmux.h`` ``KEYC_*``): the low 40 bits are
the key, whose bits 32-39 are its *type* (Unicode, User, function, one type per mouse event), then
the modifier bits (Meta, Ctrl, Shift), then flag bits (literal, keypad, cursor, implied Meta, ...).
Since tmux 3.5 nothing is folded: ``C-a`` is ``a`` with the Ctrl bit (not the byte 0x01), ``C-i``
is not Tab and ``C-[`` is not Escape; the terminal's C0 bytes are turned into those keys when they
are read (:mod:`hmux_core.tty_keys`) and back into bytes for a pane (:func:`encode_key`).
Bindings, ``list-keys``, ``send-keys`` and the tty input parser all share these codes.

Unicode keys are the code point itself (``ord(ch)``): tmux packs them as a ``utf8_char`` (width
and size above the bytes), which only matters for the order ``list-keys`` prints them in, so
:func:`tmux_code` gives that packed code where the order is needed. The one Unicode key that is
not its code point is an ASCII character given in hex (``0x41``): tmux packs it like any UTF-8
character, so it is a key of its own that prints as ``A`` but is not ``A``; hmux marks it with the
private bit ``_KEYC_PACKED_ASCII``. Use :func:`char_to_key` / :func:`key_to_char` to be safe.

Name lookup follows ``key-string.c`` (``key_string_lookup_string`` / ``key_string_lookup_key``),
the pane encoding follows ``input-keys.c`` (``input_key``, with both extended key modes and both
``extended-keys-format`` forms) and argument handling follows ``cmd-send-keys.c``
(``cmd_send_keys_inject_string``), quirks included.
"""

from __future__ import annotations

from typing import Any

from .screen.cells import char_width

# -- key code layout (tmux.h) -------------------------------------------------------------------

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
KEYC_SENT = 0x40000000000000

# Masks.
KEYC_MASK_TYPE = 0x0000FF00000000
KEYC_MASK_MODIFIERS = 0x00FF0000000000
KEYC_MASK_FLAGS = 0xFF000000000000
KEYC_MASK_KEY = 0x0000FFFFFFFFFF

KEYC_NUSER = 1000

# Key types (enum key_code_type), in bits 32-39.
KEYC_TYPE_UNICODE = 0
KEYC_TYPE_USER = 1
KEYC_TYPE_FUNCTION = 2
KEYC_TYPE_MOUSEMOVE = 3
KEYC_TYPE_MOUSEDOWN = 4
KEYC_TYPE_MOUSEUP = 5
KEYC_TYPE_MOUSEDRAG = 6
KEYC_TYPE_MOUSEDRAGEND = 7
KEYC_TYPE_WHEELDOWN = 8
KEYC_TYPE_WHEELUP = 9
KEYC_TYPE_SECONDCLICK = 10
KEYC_TYPE_DOUBLECLICK = 11
KEYC_TYPE_TRIPLECLICK = 12


def _type(t: int) -> int:
    return t << 32


def key_type(key: int) -> int:
    """The type of a key (``KEYC_TYPE_*``)."""
    return (key & KEYC_MASK_TYPE) >> 32


#: hmux only: an ASCII character given in hex (``0x41``), which tmux packs as UTF-8 (a key of
#: its own). Lies inside the Unicode type, above every code point.
_KEYC_PACKED_ASCII = 0x80000000

KEYC_USER = _type(KEYC_TYPE_USER)

# The function keys (enum in tmux.h, from KEYC_NONE).
KEYC_NONE = _type(KEYC_TYPE_FUNCTION)
KEYC_UNKNOWN = KEYC_NONE + 1
KEYC_FOCUS_IN = KEYC_NONE + 2
KEYC_FOCUS_OUT = KEYC_NONE + 3
KEYC_ANY = KEYC_NONE + 4
KEYC_PASTE_START = KEYC_NONE + 5
KEYC_PASTE_END = KEYC_NONE + 6
KEYC_BSPACE = KEYC_NONE + 7
KEYC_F1 = KEYC_NONE + 8
KEYC_F2 = KEYC_F1 + 1
KEYC_F3 = KEYC_F1 + 2
KEYC_F4 = KEYC_F1 + 3
KEYC_F5 = KEYC_F1 + 4
KEYC_F6 = KEYC_F1 + 5
KEYC_F7 = KEYC_F1 + 6
KEYC_F8 = KEYC_F1 + 7
KEYC_F9 = KEYC_F1 + 8
KEYC_F10 = KEYC_F1 + 9
KEYC_F11 = KEYC_F1 + 10
KEYC_F12 = KEYC_F1 + 11
KEYC_IC = KEYC_F1 + 12
KEYC_DC = KEYC_F1 + 13
KEYC_HOME = KEYC_F1 + 14
KEYC_END = KEYC_F1 + 15
KEYC_NPAGE = KEYC_F1 + 16
KEYC_PPAGE = KEYC_F1 + 17
KEYC_BTAB = KEYC_F1 + 18
# Arrow keys.
KEYC_UP = KEYC_F1 + 19
KEYC_DOWN = KEYC_F1 + 20
KEYC_LEFT = KEYC_F1 + 21
KEYC_RIGHT = KEYC_F1 + 22
# Numeric keypad.
KEYC_KP_SLASH = KEYC_F1 + 23
KEYC_KP_STAR = KEYC_F1 + 24
KEYC_KP_MINUS = KEYC_F1 + 25
KEYC_KP_SEVEN = KEYC_F1 + 26
KEYC_KP_EIGHT = KEYC_F1 + 27
KEYC_KP_NINE = KEYC_F1 + 28
KEYC_KP_PLUS = KEYC_F1 + 29
KEYC_KP_FOUR = KEYC_F1 + 30
KEYC_KP_FIVE = KEYC_F1 + 31
KEYC_KP_SIX = KEYC_F1 + 32
KEYC_KP_ONE = KEYC_F1 + 33
KEYC_KP_TWO = KEYC_F1 + 34
KEYC_KP_THREE = KEYC_F1 + 35
KEYC_KP_ENTER = KEYC_F1 + 36
KEYC_KP_ZERO = KEYC_F1 + 37
KEYC_KP_PERIOD = KEYC_F1 + 38
# Theme reports.
KEYC_REPORT_DARK_THEME = KEYC_F1 + 39
KEYC_REPORT_LIGHT_THEME = KEYC_F1 + 40
# Mouse state.
KEYC_MOUSE = KEYC_F1 + 41  # unclassified mouse event
KEYC_DRAGGING = KEYC_F1 + 42  # dragging in progress
KEYC_DOUBLECLICK = KEYC_F1 + 43  # double click complete

#: The first function key and one past the last keyboard key (for "is this a special key").
KEYC_BASE = KEYC_NONE
KEYC_BASE_END = KEYC_KP_PERIOD + 1

# C0 control characters that are keys of their own.
C0_HT = 0x09
C0_CR = 0x0D
C0_ESC = 0x1B

#: Mouse events, in key-string.c's order (MouseMove has no parseable names); each is a key type
#: and a button.
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
_EVENT_TYPES = (
    ("MouseMove", KEYC_TYPE_MOUSEMOVE), ("MouseDragEnd", KEYC_TYPE_MOUSEDRAGEND),
    ("MouseDown", KEYC_TYPE_MOUSEDOWN), ("MouseUp", KEYC_TYPE_MOUSEUP),
    ("MouseDrag", KEYC_TYPE_MOUSEDRAG), ("WheelUp", KEYC_TYPE_WHEELUP),
    ("WheelDown", KEYC_TYPE_WHEELDOWN), ("SecondClick", KEYC_TYPE_SECONDCLICK),
    ("DoubleClick", KEYC_TYPE_DOUBLECLICK), ("TripleClick", KEYC_TYPE_TRIPLECLICK),
)
#: Where a mouse event happened (enum key_code_mouse_location, in order).
MOUSE_LOCATIONS: tuple[str, ...] = (
    "Pane", "Status", "StatusLeft", "StatusRight", "StatusDefault", "Border", "ScrollbarUp",
    "ScrollbarSlider", "ScrollbarDown", *(f"Control{i}" for i in range(10)),
)
#: The order key-string.c lists a mouse event's locations in (Border after the scrollbar).
_NAMED_LOCATIONS: tuple[str, ...] = (
    "Pane", "Status", "StatusLeft", "StatusRight", "StatusDefault", "ScrollbarUp",
    "ScrollbarSlider", "ScrollbarDown", "Border", *(f"Control{i}" for i in range(10)),
)


def _event_type_button(event: str) -> tuple[int, int]:
    for prefix, t in _EVENT_TYPES:
        if event.startswith(prefix):
            rest = event[len(prefix):]
            return t, int(rest) if rest else 0
    raise ValueError(f"not a mouse event: {event}")


def mouse_key(event: str, location: str) -> int:
    """The key for a mouse event at a location, e.g. ``("MouseDown1", "Pane")``
    (KEYC_MAKE_MOUSE_KEY: type, then button << 8, then location)."""
    t, button = _event_type_button(event)
    return _type(t) | (button << 8) | MOUSE_LOCATIONS.index(location)


# tmux's KEYC_MOUSEDOWN1_PANE ... KEYC_TRIPLECLICK11_CONTROL9, generated from the tables.
# Each location's name is spelt once (not once per event): this loop runs at every start.
_CNAMES = ["".join("_" + c if c.isupper() and i else c for i, c in enumerate(_loc)).upper()
           for _loc in MOUSE_LOCATIONS]
#: Each mouse event's key before its location (KEYC_MAKE_MOUSE_KEY's type and button), worked
#: out once for the names generated here and in the key string table below.
_EVENT_BASE: dict[str, int] = {}
for _ev in MOUSE_EVENTS:
    _t, _button = _event_type_button(_ev)
    _EVENT_BASE[_ev] = _type(_t) | (_button << 8)
for _ev, _base in _EVENT_BASE.items():
    _evu = _ev.upper()
    for _i, _cname in enumerate(_CNAMES):
        globals()[f"KEYC_{_evu}_{_cname}"] = _base | _i
KEYC_MOUSEMOVE_PANE = mouse_key("MouseMove", "Pane")
KEYC_MOUSEMOVE_STATUS = mouse_key("MouseMove", "Status")
KEYC_MOUSEMOVE_STATUS_LEFT = mouse_key("MouseMove", "StatusLeft")
KEYC_MOUSEMOVE_STATUS_RIGHT = mouse_key("MouseMove", "StatusRight")
KEYC_MOUSEMOVE_STATUS_DEFAULT = mouse_key("MouseMove", "StatusDefault")
KEYC_MOUSEMOVE_BORDER = mouse_key("MouseMove", "Border")


def is_mouse_key(key: int) -> bool:
    """KEYC_IS_MOUSE: mouse keys need a mouse event to mean anything to a pane."""
    k = key & KEYC_MASK_KEY
    return k == KEYC_MOUSE or KEYC_TYPE_MOUSEMOVE <= key_type(k) <= KEYC_TYPE_TRIPLECLICK


def is_unicode_key(key: int) -> bool:
    """KEYC_IS_UNICODE: a Unicode key beyond ASCII."""
    return key & KEYC_MASK_TYPE == 0 and key & KEYC_MASK_KEY > 0x7F


def is_user_key(key: int) -> bool:
    """KEYC_IS_USER."""
    return key & KEYC_MASK_TYPE == KEYC_USER


def is_special_key(key: int) -> bool:
    """KEYC_IS_SPECIAL: a function key (None, Any, F1, Up, the keypad ...)."""
    return key & KEYC_MASK_TYPE == _type(KEYC_TYPE_FUNCTION)


def is_paste_key(key: int) -> bool:
    """KEYC_IS_PASTE."""
    return key & KEYC_MASK_KEY in (KEYC_PASTE_START, KEYC_PASTE_END)


def char_to_key(ch: str) -> int:
    """The key code of one character (no modifiers)."""
    return ord(ch)


def key_to_char(key: int) -> str | None:
    """The character of a plain or Unicode key, or None if the key is not a character."""
    k = key & KEYC_MASK_KEY
    if k & KEYC_MASK_TYPE:
        return None
    if k & _KEYC_PACKED_ASCII:
        return chr(k & 0x7F) if k & ~_KEYC_PACKED_ASCII < 0x80 else None
    if k > 0x10FFFF or 0xD800 <= k <= 0xDFFF:
        return None
    return chr(k)


def from_c0(byte: int) -> int:
    """tty_keys_next's fixup of a byte read from a terminal: NUL is C-Space and the C0 controls
    other than Tab, Enter and Escape become Ctrl keys (0x01 is C-a, 0x1c is C-\\)."""
    if byte == 0:
        return 0x20 | KEYC_CTRL
    if byte < 0x20 and byte not in (C0_HT, C0_CR, C0_ESC):
        byte |= 0x40
        if 0x41 <= byte <= 0x5A:
            byte |= 0x20
        return byte | KEYC_CTRL
    return byte


def to_c0(key: int) -> int:
    """The C0 control a plain Ctrl-letter key stands for (C-a is 0x01, C-[ is 0x1b), for code
    that still matches keys as the control bytes tmux 3.3a used; any other key is unchanged."""
    if key & (KEYC_MASK_MODIFIERS | KEYC_MASK_TYPE) == KEYC_CTRL:
        k = key & KEYC_MASK_KEY
        if 0x40 <= k <= 0x5F or 0x61 <= k <= 0x7A:
            return (key & KEYC_MASK_FLAGS) | (k & 0x1F)
    return key


# -- tmux's own key codes (for ordering and Invalid#) -------------------------------------------

_FOUR_BYTE_INDEX: dict[bytes, int] = {}


def tmux_code(key: int) -> int:
    """The key code tmux 3.7b has for ``key``: equal except for Unicode keys, which tmux packs
    as a utf8_char (width + 1 << 29, size << 24, the bytes; a four-byte character gets an index
    in order of first use, approximated here by first use as a key). Sorting by it gives the
    order of tmux's binding trees."""
    k = key & KEYC_MASK_KEY
    if k < 0x80 or k & KEYC_MASK_TYPE:
        return key
    if k & _KEYC_PACKED_ASCII:
        packed = (2 << 29) | (1 << 24) | (k & 0x7F)
        return (key & ~KEYC_MASK_KEY) | packed
    data = key_bytes(k)
    if not data:
        return key
    ch = key_to_char(k)
    width = max(char_width(ch), 0) if ch is not None else 1  # wcwidth -1 counts as 1
    if len(data) <= 3:
        index = int.from_bytes(data, "little")
    else:
        index = _FOUR_BYTE_INDEX.setdefault(data, len(_FOUR_BYTE_INDEX))
    packed = ((width + 1) << 29) | (len(data) << 24) | index
    return (key & ~KEYC_MASK_KEY) | packed


# -- the name table (key-string.c key_string_table, in tmux's order) --------------------------

_IM = KEYC_IMPLIED_META
_C0_NAMES = (
    "[NUL]", "[SOH]", "[STX]", "[ETX]", "[EOT]", "[ENQ]", "[ASC]", "[BEL]", "[BS]", "Tab",
    "[LF]", "[VT]", "[FF]", "Enter", "[SO]", "[SI]", "[DLE]", "[DC1]", "[DC2]", "[DC3]",
    "[DC4]", "[NAK]", "[SYN]", "[ETB]", "[CAN]", "[EM]", "[SUB]", "Escape", "[FS]", "[GS]",
    "[RS]", "[US]",
)
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
    ("BTab", KEYC_BTAB), ("Space", 0x20), ("BSpace", KEYC_BSPACE),
    *((name, code) for code, name in enumerate(_C0_NAMES)),
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
_LOC_INDEX = {_loc: _i for _i, _loc in enumerate(MOUSE_LOCATIONS)}
for _ev in MOUSE_EVENTS[1:]:
    _base = _EVENT_BASE[_ev]
    _KEY_STRING_TABLE.extend((_ev + _loc, _base | _LOC_INDEX[_loc]) for _loc in _NAMED_LOCATIONS)

#: All key names string_to_key accepts from the table, in tmux's order.
KEY_NAMES: tuple[str, ...] = tuple(name for name, _ in _KEY_STRING_TABLE)

_NAME_TO_KEY: dict[bytes, int] = {}
for _name, _key in _KEY_STRING_TABLE:
    _NAME_TO_KEY.setdefault(_name.lower().encode(), _key)
_KEY_TO_NAME: dict[int, str] = {}
for _name, _key in _KEY_STRING_TABLE:
    _KEY_TO_NAME.setdefault(_key & KEYC_MASK_KEY, _name)

# Names key_string_lookup_key prints before trying the table.
_SPECIAL_NAMES: dict[int, str] = {
    KEYC_NONE: "None", KEYC_UNKNOWN: "Unknown", KEYC_ANY: "Any",
    KEYC_FOCUS_IN: "FocusIn", KEYC_FOCUS_OUT: "FocusOut",
    KEYC_PASTE_START: "PasteStart", KEYC_PASTE_END: "PasteEnd",
    KEYC_REPORT_DARK_THEME: "ReportDarkTheme", KEYC_REPORT_LIGHT_THEME: "ReportLightTheme",
    KEYC_MOUSE: "Mouse", KEYC_DRAGGING: "Dragging",
    KEYC_MOUSEMOVE_PANE: "MouseMovePane", KEYC_MOUSEMOVE_STATUS: "MouseMoveStatus",
    KEYC_MOUSEMOVE_STATUS_LEFT: "MouseMoveStatusLeft",
    KEYC_MOUSEMOVE_STATUS_RIGHT: "MouseMoveStatusRight",
    KEYC_MOUSEMOVE_BORDER: "MouseMoveBorder",
}

_MODIFIER_BYTES = {0x43: KEYC_CTRL, 0x63: KEYC_CTRL, 0x4D: KEYC_META, 0x6D: KEYC_META,
                   0x53: KEYC_SHIFT, 0x73: KEYC_SHIFT}
_C_SPACE = b" \t\n\v\f\r"
_HEX = frozenset(b"0123456789abcdefABCDEF")
_DEC = frozenset(b"0123456789")


def _scan_unsigned(s: bytes, digits: frozenset[int], base: int) -> int | None:
    """sscanf %x / %u: skip spaces, sign, digits, ignore the rest; strtoul wrap to 32 bits."""
    i, n = 0, len(s)
    while i < n and s[i] in _C_SPACE:
        i += 1
    neg = False
    if i < n and s[i] in b"+-":
        neg = s[i] == 0x2D
        i += 1
    if base == 16 and s[i:i + 1] == b"0" and s[i + 1:i + 2] in (b"x", b"X"):
        if i + 2 < n and s[i + 2] in _HEX:
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


def hex_byte(s: str) -> int | None:
    """send-keys -H: strtol(s, &end, 16) must use the whole string and give 0..255."""
    i, n = 0, len(s)
    while i < n and s[i] in " \t\n\v\f\r":
        i += 1
    neg = False
    if i < n and s[i] in "+-":
        neg = s[i] == "-"
        i += 1
    if s[i:i + 1] == "0" and s[i + 1:i + 2] in ("x", "X") and s[i + 2:i + 3] in \
            "0123456789abcdefABCDEF" and s[i + 2:i + 3]:
        i += 2
    j = i
    while j < n and s[j] in "0123456789abcdefABCDEF":
        j += 1
    if j == i or j != n:
        return None
    value = int(s[i:j], 16)
    if neg:
        value = -value
    return value if 0 <= value <= 0xFF else None


def _utf8_size(lead: int) -> int:
    """utf8_open: the size a lead byte announces, 0 if it starts no UTF-8 character."""
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


_UTF8_MIN = (0, 0, 0x80, 0x800, 0x10000)


def _utf8_key(data: bytes) -> int | None:
    """utf8_open/utf8_append/utf8_from_data for one whole character: its key, or None when the
    bytes are not one character glibc's mbtowc takes (it refuses overlong forms and surrogates
    but takes code points past U+10FFFF up to what a 0xf4 lead byte reaches)."""
    size = _utf8_size(data[0]) if data else 0
    if not size or len(data) != size or any(b & 0xC0 != 0x80 for b in data[1:]):
        return None
    cp = data[0] & (0x7F >> size)
    for b in data[1:]:
        cp = (cp << 6) | (b & 0x3F)
    if cp < _UTF8_MIN[size] or 0xD800 <= cp <= 0xDFFF:
        return None
    return cp


def _cp_utf8(cp: int) -> bytes:
    """A code point's UTF-8 bytes, past U+10FFFF too (as glibc's wctomb writes them)."""
    if cp <= 0x10FFFF:
        return chr(cp).encode("utf-8", "surrogatepass")
    return bytes((0xF0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3F), 0x80 | ((cp >> 6) & 0x3F),
                  0x80 | (cp & 0x3F)))


def _as_bytes(s: str) -> bytes:
    """An argument's bytes as the client sent them (undecodable bytes are surrogate-escaped)."""
    try:
        return s.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return s.encode("utf-8", "surrogatepass")


def string_to_key(s: str) -> int:
    """Parse a key name (tmux key_string_lookup_string); KEYC_UNKNOWN if it is not one."""
    b = _as_bytes(s)
    if b.lower() == b"none":
        return KEYC_NONE
    if b.lower() == b"any":
        return KEYC_ANY

    # A hexadecimal code point: "0x41". Controls are themselves; anything else is made UTF-8
    # (wctomb) and must be one character.
    if b.startswith(b"0x"):
        u = _scan_unsigned(b[2:], _HEX, 16)
        if u is None:
            return KEYC_UNKNOWN
        if u < 32:
            return u
        if u > 0x13FFFF or 0xD800 <= u <= 0xDFFF:
            return KEYC_UNKNOWN  # wctomb fails, or the bytes are no one UTF-8 character
        if u < 0x80:
            return _KEYC_PACKED_ASCII | u
        return u

    # "^x" is C-x with x in lower case; "^" before anything longer is a Ctrl modifier.
    modifiers = 0
    if b[:1] == b"^" and len(b) > 1:
        if len(b) == 2:
            c = b[1]
            return (c | 0x20 if 0x41 <= c <= 0x5A else c) | KEYC_CTRL
        modifiers = KEYC_CTRL
        b = b[1:]

    # Modifiers: "C-", "M-", "S-" (any case, any number).
    while len(b) >= 2 and b[1] == 0x2D:
        m = _MODIFIER_BYTES.get(b[0])
        if m is None:
            return KEYC_UNKNOWN
        modifiers |= m
        b = b[2:]
    if not b:
        return KEYC_UNKNOWN

    if len(b) == 1 and b[0] <= 0x7F:
        # A plain ASCII key.
        key = b[0]
        if key < 32:
            return KEYC_UNKNOWN
        return key | modifiers
    size = _utf8_size(b[0])
    if size:
        # One UTF-8 character, exactly.
        if len(b) != size:
            return KEYC_UNKNOWN
        u = _utf8_key(b)
        if u is None:
            return KEYC_UNKNOWN
        return u | modifiers

    key = _NAME_TO_KEY.get(b.lower(), KEYC_UNKNOWN)
    if key == KEYC_UNKNOWN:
        if not b.startswith(b"User"):
            return KEYC_UNKNOWN
        user = _scan_unsigned(b[4:], _DEC, 10)
        if user is None or user > KEYC_NUSER:
            return KEYC_UNKNOWN
        key = KEYC_USER + user
    if not modifiers & KEYC_META:
        key &= ~KEYC_IMPLIED_META
    return key | modifiers


def key_to_string(key: int, with_flags: bool = False) -> str:
    """A key's name as tmux prints it (key_string_lookup_key), e.g. in list-keys."""
    saved = key
    if key & KEYC_LITERAL:
        b = key & 0xFF
        out = "" if b == 0 else bytes((b,)).decode("utf-8", "surrogateescape")
    else:
        out = (("C-" if key & KEYC_CTRL else "") + ("M-" if key & KEYC_META else "")
               + ("S-" if key & KEYC_SHIFT else ""))
        k = key & KEYC_MASK_KEY
        name = _SPECIAL_NAMES.get(k)
        if name is None:
            if is_user_key(k):
                name = f"User{k - KEYC_USER}"[:7]  # tmux's char tmp[8]: User1000 is User100
            else:
                name = _KEY_TO_NAME.get(k)
        if name is not None:
            out += name
        elif is_unicode_key(k):
            out += key_bytes(k).decode("utf-8", "surrogateescape")
        elif k > 255:
            out = f"Invalid#{tmux_code(saved):x}"
        elif k == 127:
            out += "C-?"
        else:
            out += chr(k)
    if with_flags and saved & KEYC_MASK_FLAGS:
        out += "[" + "".join(c for bit, c in (
            (KEYC_LITERAL, "L"), (KEYC_KEYPAD, "K"), (KEYC_CURSOR, "C"),
            (KEYC_IMPLIED_META, "I"), (KEYC_BUILD_MODIFIERS, "B"), (KEYC_SENT, "S"))
            if saved & bit) + "]"
    return out


def key_canonical(s: str) -> str | None:
    """The name tmux prints for key string ``s`` (what show-options shows for a key option),
    or None if ``s`` is not a key."""
    key = string_to_key(s)
    if key == KEYC_UNKNOWN:
        return None
    return key_to_string(key)


# -- encoding keys for a pane (input-keys.c) ------------------------------------------------------

_INPUT_KEY_DEFAULTS: list[tuple[int, bytes]] = [
    (KEYC_PASTE_START, b"\x1b[200~"), (KEYC_PASTE_START | _IM, b"\x1b[200~"),
    (KEYC_PASTE_END, b"\x1b[201~"), (KEYC_PASTE_END | _IM, b"\x1b[201~"),
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
#: input_key_vt10x's standard_map: Ctrl and one of these gives the byte at the same place.
_STANDARD_MAP = {ord(a): b for a, b in zip("1!9(0)=+;:'\",<.>/-8? 2\0",
                                           b"119900=+;;'',,..\x1f\x1f\x7f\x7f\0\0\0",
                                           strict=True)}
_ESC = b"\x1b"
_BYTES = [bytes((i,)) for i in range(256)]

#: Extended key modes of a pane (CSI > 4 ; n m): tmux's MODE_KEYS_EXTENDED and
#: MODE_KEYS_EXTENDED_2.
EXTENDED_OFF, EXTENDED_1, EXTENDED_2 = 0, 1, 2
#: extended-keys-format: csi-u (0) or xterm (1, the default).
FORMAT_CSI_U, FORMAT_XTERM = 0, 1


def key_bytes(key: int) -> bytes:
    """The UTF-8 bytes of a Unicode or ASCII key (utf8_to_data), empty for any other key."""
    k = key & KEYC_MASK_KEY
    if k & KEYC_MASK_TYPE:
        return b""
    if k & _KEYC_PACKED_ASCII:
        return _BYTES[k & 0x7F]
    if k > 0x13FFFF or 0xD800 <= k <= 0xDFFF:
        return b""
    return _cp_utf8(k)



def _extended(key: int, fmt: int) -> bytes | None:
    """input_key_extended: CSI 27 ; m ; k ~ (xterm) or CSI k ; m u (csi-u); None without
    modifiers."""
    m = _XTERM_MODIFIER.get(key & KEYC_MASK_MODIFIERS)
    if m is None:
        return None
    if is_unicode_key(key):
        code = key & KEYC_MASK_KEY & ~_KEYC_PACKED_ASCII
    else:
        code = key & KEYC_MASK_KEY
    if fmt == FORMAT_XTERM:
        return b"\x1b[27;%s;%d~" % (m, code)
    return b"\x1b[%d;%su" % (code, m)


def _vt10x(key: int) -> tuple[bytes, bool]:
    """input_key_vt10x: the standard form; Ctrl keys become C0 controls. (bytes, False) for a
    Ctrl key with no control form: the ESC of Meta has been written all the same."""
    out = _ESC if key & KEYC_META else b""
    if is_unicode_key(key):
        return out + key_bytes(key), True  # no way to send modifiers with a Unicode key
    onlykey = key & KEYC_MASK_KEY
    if onlykey in (0x0D, 0x0A, 0x09):
        key &= ~KEYC_CTRL
    if key & KEYC_CTRL:
        mapped = _STANDARD_MAP.get(onlykey)
        if mapped is not None:
            key = mapped
        elif 0x33 <= onlykey <= 0x37:
            key = onlykey - 0x18
        elif 0x40 <= onlykey <= 0x7E:
            key = onlykey & 0x1F
        else:
            return out, False
    return out + _BYTES[key & 0x7F], True


def _mode1(key: int) -> bytes | None:
    """input_key_mode1: the keys modifyOtherKeys=1 still sends in the standard form."""
    if key & (KEYC_CTRL | KEYC_META) == KEYC_META:
        return _vt10x(key)[0]
    onlykey = key & KEYC_MASK_KEY
    if key & KEYC_CTRL and (onlykey in (0x20, 0x2F, 0x40, 0x5E) or 0x32 <= onlykey <= 0x38
                            or 0x40 <= onlykey <= 0x7E):
        return _vt10x(key)[0]
    return None


def encode_key(key: int, *, cursor_app: bool = False, keypad_app: bool = False,
               extended_keys: int = EXTENDED_OFF, extended_format: int = FORMAT_XTERM,
               backspace: int = 0x7F, bracket_paste: bool = True) -> bytes | None:
    """The bytes tmux writes to a pane for a key (input_key).

    ``extended_keys`` is the pane's extended key mode (0, 1 or 2; True counts as 1),
    ``extended_format`` the ``extended-keys-format`` option (0 csi-u, 1 xterm), ``backspace``
    the ``backspace`` option (a key code), ``bracket_paste`` whether the pane asked for
    bracketed paste (paste keys send nothing otherwise).

    ``b""`` means tmux takes the key but sends nothing (User keys, ``Any``, ``C-Tab``...);
    ``None`` means tmux refuses it (a mouse key without a mouse event, a modified key it has no
    form for), which makes ``send-keys`` type the argument literally instead.
    """
    if is_mouse_key(key):
        return None  # window_pane_key refuses a mouse key that has no mouse event
    if key & KEYC_LITERAL:
        return _BYTES[key & 0xFF]

    if key & KEYC_MASK_KEY == KEYC_BSPACE:
        if not key & KEYC_MASK_MODIFIERS:
            byte = 255
            if not backspace & KEYC_MASK_MODIFIERS:
                byte = backspace & 0xFF
            elif backspace & KEYC_MASK_MODIFIERS == KEYC_CTRL:
                nk = backspace & KEYC_MASK_KEY
                if nk == 0x3F:
                    byte = 0x7F
                elif 0x40 <= nk <= 0x5F:
                    byte = nk - 0x40
                elif 0x61 <= nk <= 0x7A:
                    byte = nk - 0x60
            return _BYTES[byte] if byte != 255 else b""
        key = backspace | (key & (KEYC_MASK_FLAGS | KEYC_MASK_MODIFIERS))

    mode = int(extended_keys)
    if key & KEYC_MASK_KEY == KEYC_BTAB:
        if mode == EXTENDED_2:
            key = C0_HT | (key & ~KEYC_MASK_KEY) | KEYC_SHIFT  # xterm's S-Tab
        else:
            key &= ~KEYC_MASK_MODIFIERS

    # A 7-bit key that can be typed or a Unicode key, without modifiers: itself.
    if not key & ~KEYC_MASK_KEY:
        if key in (C0_HT, C0_CR, C0_ESC) or 0x20 <= key <= 0x7F:
            return _BYTES[key]
        if is_unicode_key(key):
            return key_bytes(key)

    # The VT10x table, without the mode flags the pane has not asked for.
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
        if is_paste_key(key) and not bracket_paste:
            return b""
        return _ESC + data if explicit_meta else data

    # Function, User and mouse keys with no sequence send nothing.
    if is_user_key(key) or is_special_key(key) or is_mouse_key(key):
        return b""

    if mode == EXTENDED_2:
        return _extended(key, extended_format)
    if mode == EXTENDED_1:
        data = _mode1(key)
        return data if data is not None else _extended(key, extended_format)
    data, ok = _vt10x(key)
    return data if ok else None


def backspace_key(value: object) -> int:
    """The ``backspace`` option as the key input_key sends for BSpace. Its default is the
    byte 0x7f itself, which prints as ``C-?``, so that name means the default here."""
    if isinstance(value, int):
        return value
    text = str(value)
    if text == "C-?":
        return 0x7F
    key = string_to_key(text)
    return 0x7F if key in (KEYC_NONE, KEYC_UNKNOWN) else key


def pane_modes(screen: Any, options: Any) -> dict[str, Any]:
    """The :func:`encode_key` arguments for a pane: its screen's key modes (cursor and keypad
    application modes, extended keys 1 or 2, bracketed paste) and the server options
    (``extended-keys-format``, ``backspace``)."""
    ext = EXTENDED_2 if getattr(screen, "extended_keys_2", False) else \
        EXTENDED_1 if getattr(screen, "extended_keys", False) else EXTENDED_OFF
    fmt = FORMAT_CSI_U if options.get("extended-keys-format") in ("csi-u", 0) else FORMAT_XTERM
    return {"cursor_app": bool(screen.keypad_cursor), "keypad_app": bool(screen.keypad),
            "extended_keys": ext, "extended_format": fmt,
            "backspace": backspace_key(options.get("backspace")),
            "bracket_paste": bool(getattr(screen, "bracketed_paste", True))}


def written_for_refused(key: int, extended_keys: int = EXTENDED_OFF) -> bytes:
    """What tmux has already written for a key :func:`encode_key` refuses (None): the ESC of a
    Meta key whose Ctrl has no control form (C-M-BSpace) in the standard mode."""
    if int(extended_keys) or not key & KEYC_META or not key & KEYC_CTRL:
        return b""
    if is_mouse_key(key) or is_unicode_key(key):
        return b""
    return _ESC


def literal_keys(arg: str) -> list[int]:
    """utf8_fromcstr of an argument, as keys: ASCII bytes as themselves, each whole UTF-8
    character as its key, any other byte as a one-byte character of its own."""
    data = _as_bytes(arg)
    keys: list[int] = []
    i, n = 0, len(data)
    while i < n:
        c = data[i]
        size = _utf8_size(c)
        if size and i + size <= n:
            u = _utf8_key(data[i:i + size])
            if u is not None:
                keys.append(u)
                i += size
                continue
        keys.append(c | (KEYC_LITERAL if c >= 0x80 else 0))
        i += 1
    return keys


def _typeable(data: bytes) -> bool:
    """Whether every byte of an argument is sent as itself (no C0 control but Tab, CR, ESC)."""
    return not any(b < 0x20 and b not in (C0_HT, C0_CR, C0_ESC) for b in data)


def send_keys_bytes(args: list[str], *, literal: bool = False, hex_input: bool = False,
                    cursor_app: bool = False, keypad_app: bool = False,
                    extended_keys: int = EXTENDED_OFF, extended_format: int = FORMAT_XTERM,
                    backspace: int = 0x7F, bracket_paste: bool = True) -> bytes:
    """What ``send-keys [-l] [-H] key ...`` writes to a pane (cmd_send_keys_inject_string).

    Each argument that names a key sends that key; an argument that is no key name, or names a
    key the pane refuses, is typed literally, one character at a time. With ``-H`` every
    argument is one hex byte; tmux silently skips bad ones (it has no error message), and so
    does this.
    """
    out: list[bytes] = []
    modes = {"cursor_app": cursor_app, "keypad_app": keypad_app,
             "extended_keys": extended_keys, "extended_format": extended_format,
             "backspace": backspace, "bracket_paste": bracket_paste}
    for arg in args:
        if hex_input:
            n = hex_byte(arg)
            if n is not None:
                out.append(_BYTES[n])
            continue
        if not literal:
            key = string_to_key(arg)
            if key != KEYC_NONE and key != KEYC_UNKNOWN:
                data = encode_key(key, **modes)
                if data is not None:
                    out.append(data)
                    continue
                out.append(written_for_refused(key, extended_keys))
        raw = _as_bytes(arg)
        if _typeable(raw):
            out.append(raw)  # every character is sent as itself
            continue
        for key in literal_keys(arg):
            data = encode_key(key, **modes)
            if data:
                out.append(data)
    return b"".join(out)


del _ev, _cname, _name, _key, _data, _j, _t, _button, _base
