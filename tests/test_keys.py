"""Unit tests for hmux_core.keys: names, round trips, pane encodings, send-keys arguments.

The expected values come from tmux 3.3a (key-string.c, input-keys.c, cmd-send-keys.c) and were
checked against the real binary; tests/test_keys_oracle.py repeats the comparison live.
"""

from __future__ import annotations

import itertools

import pytest

from hmux_core import keys as K
from hmux_core.keys import (
    KEY_NAMES,
    KEYC_ANY,
    KEYC_BASE,
    KEYC_BSPACE,
    KEYC_CTRL,
    KEYC_CURSOR,
    KEYC_F1,
    KEYC_IMPLIED_META,
    KEYC_KEYPAD,
    KEYC_LITERAL,
    KEYC_META,
    KEYC_NONE,
    KEYC_SHIFT,
    KEYC_UNKNOWN,
    KEYC_UP,
    KEYC_USER,
    char_to_key,
    encode_key,
    key_to_char,
    key_to_string,
    mouse_key,
    send_keys_bytes,
    string_to_key,
)

MOD_PREFIXES = {
    0: "", KEYC_CTRL: "C-", KEYC_META: "M-", KEYC_SHIFT: "S-",
}
MOD_SETS = [0, KEYC_CTRL, KEYC_META, KEYC_SHIFT, KEYC_CTRL | KEYC_META, KEYC_CTRL | KEYC_SHIFT,
            KEYC_META | KEYC_SHIFT, KEYC_CTRL | KEYC_META | KEYC_SHIFT]

# The canonical (printed) name of every alias in the table.
ALIASES = {"Insert": "IC", "Delete": "DC", "PageDown": "NPage", "PgDn": "NPage",
           "PageUp": "PPage", "PgUp": "PPage"}


def canonical(mods: int, name: str) -> str:
    """The name tmux prints: modifiers always in C- M- S- order, aliases resolved."""
    return ("C-" if mods & KEYC_CTRL else "") + ("M-" if mods & KEYC_META else "") + (
        "S-" if mods & KEYC_SHIFT else "") + ALIASES.get(name, name)


# -- layout ---------------------------------------------------------------------------------------

def test_layout_matches_tmux_33a() -> None:
    # tmux 3.3a: 8 specials, 66 mouse events x 6 locations, then BSpace, F1..F12, ..., KP.
    assert KEYC_BASE == 0x10E000 and KEYC_USER == 0x10F000
    assert K.KEYC_FOCUS_IN == KEYC_BASE and K.KEYC_ANY == KEYC_BASE + 2
    assert K.KEYC_MOUSEMOVE_PANE == KEYC_BASE + 8
    assert K.KEYC_MOUSEDOWN1_PANE == KEYC_BASE + 14
    assert K.KEYC_MOUSEDOWN1_BORDER == KEYC_BASE + 19
    assert K.KEYC_TRIPLECLICK11_BORDER == KEYC_BSPACE - 1
    assert KEYC_BSPACE == KEYC_BASE + 404
    assert KEYC_F1 == KEYC_BSPACE + 1 and K.KEYC_BTAB == KEYC_BSPACE + 19
    assert K.KEYC_KP_PERIOD == K.KEYC_BASE_END - 1
    assert K.KEYC_MASK_KEY | K.KEYC_MASK_MODIFIERS | K.KEYC_MASK_FLAGS == (1 << 56) - 1
    assert mouse_key("WheelUp", "Status") == K.KEYC_WHEELUP_STATUS
    assert K.is_mouse_key(K.KEYC_MOUSE) and not K.is_mouse_key(KEYC_BSPACE)
    assert K.is_unicode_key(0xE9) and not K.is_unicode_key(0x41)
    assert not K.is_unicode_key(KEYC_F1)


def test_char_keys_are_code_points() -> None:
    for ch in ("a", "é", "中", "😀", "\U0010fffd", "\U0010e000", "\U0010f3e7"):
        key = char_to_key(ch)
        assert key_to_char(key) == ch
        assert K.is_unicode_key(key) or key < 0x80
    assert char_to_key("é") == 0xE9
    # The private-use code points that overlap the special keys do not collide with them.
    assert char_to_key("\U0010e000") != K.KEYC_FOCUS_IN
    assert char_to_key("\U0010f000") != KEYC_USER
    assert key_to_char(KEYC_F1) is None and key_to_char(KEYC_USER) is None


# -- names ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", KEY_NAMES)
def test_every_table_name_round_trips_with_every_modifier_set(name: str) -> None:
    for mods in MOD_SETS:
        parts = [MOD_PREFIXES[m] for m in (KEYC_CTRL, KEYC_META, KEYC_SHIFT) if mods & m]
        for order in itertools.permutations(parts):
            for text in ("".join(order) + name, ("".join(order) + name).lower()):
                key = string_to_key(text)
                assert key not in (KEYC_UNKNOWN, KEYC_NONE), text
                printed = key_to_string(key)
                if name == "Space" and mods & KEYC_CTRL and mods != KEYC_CTRL:
                    # C-Space is NUL; with other modifiers tmux prints it as C-@.
                    assert printed == canonical(mods & ~KEYC_CTRL, "C-@"), text
                else:
                    assert printed == canonical(mods, name), text
                assert string_to_key(printed) == key, (text, printed)


def test_ascii_keys_round_trip() -> None:
    for c in map(chr, range(0x21, 0x7F)):
        for mods in MOD_SETS:
            text = "".join(MOD_PREFIXES[m] for m in (KEYC_CTRL, KEYC_META, KEYC_SHIFT)
                           if mods & m) + c
            key = string_to_key(text)
            if key == KEYC_UNKNOWN:
                # Only C- on a character with no control form is refused.
                assert mods & KEYC_CTRL and c in '"$%&*{|}~', text
                continue
            printed = key_to_string(key)
            assert string_to_key(printed) == key, (text, printed)


@pytest.mark.parametrize(("text", "key"), [
    ("C-a", 0x01), ("c-a", 0x01), ("^a", 0x01), ("^A", 0x01), ("C-A", 0x01), ("C-z", 0x1A),
    ("C-@", 0x00), ("C-Space", 0x00), ("^@", 0x00), ("C-[", 0x1B), ("C-\\", 0x1C),
    ("C-]", 0x1D), ("C-^", 0x1E), ("^^", 0x1E), ("C-_", 0x1F), ("C-?", 0x7F),
    ("C-2", ord("2") | KEYC_CTRL), ("C--", ord("-") | KEYC_CTRL), ("C-Tab", 0x09 | KEYC_CTRL),
    ("C-Enter", 0x0D | KEYC_CTRL), ("C-Escape", 0x1B | KEYC_CTRL),
    ("M-x", ord("x") | KEYC_META), ("m-X", ord("X") | KEYC_META), ("S-a", ord("a") | KEYC_SHIFT),
    ("^M-a", 0x01 | KEYC_META), ("C-C-a", 0x01), ("^", ord("^")), ("-", ord("-")),
    ("M--", ord("-") | KEYC_META), ("^-", ord("-") | KEYC_CTRL),
    ("Enter", 0x0D), ("enter", 0x0D), ("ESCAPE", 0x1B), ("Tab", 0x09), ("Space", 0x20),
    ("BSpace", KEYC_BSPACE), ("F1", KEYC_F1), ("f1", KEYC_F1),
    ("M-F1", KEYC_F1 | KEYC_META | KEYC_IMPLIED_META),
    ("Up", KEYC_UP | KEYC_CURSOR), ("S-Up", KEYC_UP | KEYC_CURSOR | KEYC_SHIFT),
    ("C-M-Up", KEYC_UP | KEYC_CURSOR | KEYC_CTRL | KEYC_META | KEYC_IMPLIED_META),
    ("KP1", K.KEYC_KP_ONE | KEYC_KEYPAD), ("kpenter", K.KEYC_KP_ENTER | KEYC_KEYPAD),
    ("Any", KEYC_ANY), ("any", KEYC_ANY), ("None", KEYC_NONE), ("NONE", KEYC_NONE),
    ("User0", KEYC_USER), ("User999", KEYC_USER + 999), ("User5abc", KEYC_USER + 5),
    ("User 5", KEYC_USER + 5), ("User-0", KEYC_USER), ("User4294967296", KEYC_USER),
    ("MouseDown1Pane", K.KEYC_MOUSEDOWN1_PANE), ("wheelupstatus", K.KEYC_WHEELUP_STATUS),
    ("DoubleClick3Border", K.KEYC_DOUBLECLICK3_BORDER),
    ("0x41", 0x41), ("0x0d", 0x0D), ("0x0", 0x00), ("0x3b1", 0x3B1), ("0x41zz", 0x41),
    ("0x0x41", 0x41), ("0x0x", 0x00), ("0x100000041", 0x41), ("0x10f000", 0x10F000 | (1 << 24)),
    ("é", 0xE9), ("M-é", 0xE9 | KEYC_META), ("C-é", 0xE9 | KEYC_CTRL), ("😀", 0x1F600),
])
def test_string_to_key(text: str, key: int) -> None:
    assert string_to_key(text) == key


@pytest.mark.parametrize("text", [
    "", "bogus", "ab", "a-b", "-a", "--", "C-", "S-", "M-", "^C-", "X-a", "C-|", "C-~", "C-{",
    "C-$", 'C-"', "C-%", "User1000", "User", "user0", "Userx", "User-1", "FocusIn", "PasteStart",
    "Mouse", "MouseMovePane", "Unknown", "0x", "0xzz", "0x-1", "0x80", "0x9f", "0xd800",
    "0x110000", "0x378", "0x2028", "0X41", "éa", "\x01", "\x1b", "\x85", "\udcff",
    "F13", "KP10", "Enter ", " Enter",
])
def test_string_to_key_unknown(text: str) -> None:
    assert string_to_key(text) == KEYC_UNKNOWN


@pytest.mark.parametrize(("key", "text"), [
    (0x01, "C-a"), (0x00, "C-Space"), (0x00 | KEYC_META, "M-C-@"), (0x1B, "Escape"),
    (0x1C, "C-\\"), (0x1F, "C-_"), (0x7F, "C-?"), (0x09, "Tab"), (0x0D, "Enter"),
    (0x20, "Space"), (ord(";"), ";"), (ord("#"), "#"), (0xE9 | KEYC_CTRL, "C-é"),
    (KEYC_NONE, "None"), (KEYC_UNKNOWN, "Unknown"), (K.KEYC_FOCUS_OUT, "FocusOut"),
    (K.KEYC_PASTE_END, "PasteEnd"), (K.KEYC_DRAGGING, "Dragging"),
    (K.KEYC_MOUSEMOVE_STATUS_RIGHT, "MouseMoveStatusRight"), (KEYC_USER + 42, "User42"),
    (K.KEYC_IC, "IC"), (K.KEYC_NPAGE | KEYC_SHIFT, "S-NPage"),
    (K.KEYC_DOUBLECLICK, f"Invalid#{K.KEYC_DOUBLECLICK:x}"),
    (K.KEYC_MOUSEMOVE_STATUS_DEFAULT | KEYC_CTRL,
     f"Invalid#{K.KEYC_MOUSEMOVE_STATUS_DEFAULT | KEYC_CTRL:x}"),
    (KEYC_LITERAL | 0x41, "A"),
])
def test_key_to_string(key: int, text: str) -> None:
    assert key_to_string(key) == text


@pytest.mark.parametrize(("text", "printed"), [
    ("Up", "Up[C]"), ("M-Up", "M-Up[CI]"), ("F1", "F1"), ("M-F1", "M-F1[I]"), ("KP1", "KP1[K]"),
    ("a", "a"),
])
def test_key_to_string_with_flags(text: str, printed: str) -> None:
    assert key_to_string(string_to_key(text), with_flags=True) == printed
    assert key_to_string(KEYC_LITERAL | 0x42, True) == "B[L]"
    assert key_to_string(KEYC_F1 | K.KEYC_BUILD_MODIFIERS, True) == "F1[B]"


def test_user_and_mouse_names_round_trip() -> None:
    for n in range(K.KEYC_NUSER):
        assert key_to_string(string_to_key(f"User{n}")) == f"User{n}"
    for ev in K.MOUSE_EVENTS[1:]:
        for loc in K.MOUSE_LOCATIONS:
            key = string_to_key(f"M-{ev}{loc}")
            assert key == mouse_key(ev, loc) | KEYC_META
            assert key_to_string(key) == f"M-{ev}{loc}"


# -- encoding -------------------------------------------------------------------------------------

def enc(text: str, **modes: bool) -> bytes | None:
    return encode_key(string_to_key(text), **modes)


@pytest.mark.parametrize(("text", "data"), [
    ("Enter", b"\r"), ("Tab", b"\t"), ("BTab", b"\x1b[Z"), ("Space", b" "), ("Escape", b"\x1b"),
    ("BSpace", b"\x7f"), ("M-BSpace", b"\x1b\x7f"), ("C-BSpace", b""),
    ("Up", b"\x1b[A"), ("Down", b"\x1b[B"), ("Right", b"\x1b[C"), ("Left", b"\x1b[D"),
    ("Home", b"\x1b[1~"), ("End", b"\x1b[4~"), ("IC", b"\x1b[2~"), ("DC", b"\x1b[3~"),
    ("PPage", b"\x1b[5~"), ("NPage", b"\x1b[6~"),
    ("F1", b"\x1bOP"), ("F4", b"\x1bOS"), ("F5", b"\x1b[15~"), ("F12", b"\x1b[24~"),
    ("S-Up", b"\x1b[1;2A"), ("M-Up", b"\x1b[1;3A"), ("M-S-Up", b"\x1b[1;4A"),
    ("C-Up", b"\x1b[1;5A"), ("C-S-Up", b"\x1b[1;6A"), ("C-M-Left", b"\x1b[1;7D"),
    ("C-M-S-Right", b"\x1b[1;8C"), ("S-Home", b"\x1b[1;2H"), ("C-End", b"\x1b[1;5F"),
    ("M-F1", b"\x1b[1;3P"), ("C-F5", b"\x1b[15;5~"), ("S-F12", b"\x1b[24;2~"),
    ("M-PPage", b"\x1b[5;3~"), ("C-DC", b"\x1b[3;5~"), ("S-IC", b"\x1b[2;2~"),
    ("M-BTab", b"\x1b\x1b[Z"), ("M-Enter", b"\x1b\r"), ("M-Escape", b"\x1b\x1b"),
    ("C-x", b"\x18"), ("C-a", b"\x01"), ("M-x", b"\x1bx"), ("C-M-a", b"\x1b\x01"),
    ("C-Space", b"\x00"), ("C-2", b"\x00"), ("C-6", b"\x1e"), ("C--", b"\x1f"), ("C-/", b"\x1f"),
    ("C-?", b"\x7f"), ("C-1", b""), ("C-Tab", b""), ("C-Enter", b""), ("C-Escape", b""),
    ("C-!", b""), ("C-BTab", b""), ("C-KP1", b""),
    ("é", "é".encode()), ("M-é", b"\x1b" + "é".encode()), ("C-é", "é".encode()),
    ("😀", "😀".encode()), ("0x10f000", "\U0010f000".encode()),
    ("KP1", b"1"), ("KPEnter", b"\n"), ("KP/", b"/"), ("KP.", b"."), ("M-KP1", b"\x1b1"),
    ("User0", b""), ("User999", b""),
])
def test_encode_default_modes(text: str, data: bytes) -> None:
    assert enc(text) == data


@pytest.mark.parametrize("text", [
    "S-a", "S-BTab", "S-KP1", "C-M-1", "M-S-a", "C-S-a", "C-M-Tab", "Any", "MouseDown1Pane",
    "WheelUpStatus", "S-Enter", "S-Space",
])
def test_encode_missing(text: str) -> None:
    assert enc(text) is None


def test_encode_cursor_and_keypad_modes() -> None:
    assert enc("Up", cursor_app=True) == b"\x1bOA"
    assert enc("Left", cursor_app=True) == b"\x1bOD"
    assert enc("S-Up", cursor_app=True) == b"\x1b[1;2A"
    assert enc("M-Up", cursor_app=True) == b"\x1b[1;3A"
    assert enc("Home", cursor_app=True) == b"\x1b[1~"
    assert enc("KP1", keypad_app=True) == b"\x1bOq"
    assert enc("KPEnter", keypad_app=True) == b"\x1bOM"
    assert enc("KP/", keypad_app=True) == b"\x1bOo"
    assert enc("KP.", keypad_app=True) == b"\x1bOn"
    assert enc("M-KP1", keypad_app=True) == b"\x1b\x1bOq"
    assert enc("KP1", cursor_app=True) == b"1"
    assert enc("Up", keypad_app=True) == b"\x1b[A"
    # A Meta key without implied Meta (as from a terminal) gets an ESC before the sequence.
    assert encode_key(KEYC_UP | KEYC_META, cursor_app=True) == b"\x1b\x1b[A"
    assert encode_key(KEYC_UP | KEYC_CURSOR | KEYC_META, cursor_app=True) == b"\x1b\x1bOA"


def test_encode_extended_keys() -> None:
    assert enc("S-a", extended_keys=True) == b"\x1b[97;2u"
    assert enc("C-Tab", extended_keys=True) == b"\x1b[9;5u"
    assert enc("C-Enter", extended_keys=True) == b"\x1b[13;5u"
    assert enc("C-1", extended_keys=True) == b"\x1b[49;5u"
    assert enc("C-M-1", extended_keys=True) == b"\x1b[49;7u"
    assert enc("C-S-a", extended_keys=True) == b"\x1b[65;6u"
    assert enc("C-BSpace", extended_keys=True) == b"\x1b[127;5u"
    assert enc("C-a", extended_keys=True) == b"\x01"
    assert enc("C-Up", extended_keys=True) == b"\x1b[1;5A"
    assert enc("Any", extended_keys=True) is None


def test_encode_literal_and_backspace_option() -> None:
    assert encode_key(KEYC_LITERAL | 0xFF) == b"\xff"
    assert encode_key(KEYC_LITERAL | 0x00) == b"\x00"
    assert enc("BSpace", backspace=0x08) == b"\x08"
    assert enc("M-BSpace", backspace=0x08) == b"\x1b\x08"
    assert enc("BSpace", backspace=KEYC_F1) == b"\x7f"
    assert enc("BSpace", backspace=0x7F) == b"\x7f"


def test_every_table_key_has_a_defined_encoding() -> None:
    for name in KEY_NAMES:
        for mods in MOD_SETS:
            prefix = "".join(MOD_PREFIXES[m] for m in (KEYC_CTRL, KEYC_META, KEYC_SHIFT)
                             if mods & m)
            for modes in itertools.product((False, True), repeat=3):
                data = enc(prefix + name, cursor_app=modes[0], keypad_app=modes[1],
                           extended_keys=modes[2])
                assert data is None or isinstance(data, bytes)
                if name.startswith(("Mouse", "Wheel", "Second", "Double", "Triple")):
                    assert data is None


# -- send-keys ------------------------------------------------------------------------------------

def test_send_keys_spec_example() -> None:
    args = "a Enter C-c M-x ^D Up F1 BSpace Tab Space".split()
    assert send_keys_bytes(args) == b"a\r\x03\x1bx\x04\x1b[A\x1bOP\x7f\t "


def test_send_keys_cursor_and_keypad() -> None:
    assert send_keys_bytes(["Up", "KP5"], cursor_app=True) == b"\x1bOA5"
    assert send_keys_bytes(["Up", "KP5"], keypad_app=True) == b"\x1b[A\x1bOu"


def test_send_keys_literal_fallback() -> None:
    assert send_keys_bytes(["unknownkey"]) == b"unknownkey"
    assert send_keys_bytes(["hello world"]) == b"hello world"
    assert send_keys_bytes(["S-a", "Any", "None", "MouseDown1Pane"]) == (
        b"S-aAnyNoneMouseDown1Pane")
    assert send_keys_bytes(["C-Tab", "User3"]) == b""
    assert send_keys_bytes(["0x41", "0x0d", "0x3b1"]) == b"A\r" + "α".encode()
    assert send_keys_bytes(["0x80", "C-|"]) == b"0x80C-|"
    assert send_keys_bytes(["\udcff\udcfe"]) == b"\xff\xfe"
    assert send_keys_bytes([""]) == b""


def test_send_keys_literal_flag() -> None:
    assert send_keys_bytes(["Enter", "C-a", "é"], literal=True) == b"EnterC-a" + "é".encode()


def test_send_keys_hex() -> None:
    args = ["41", "zz", "100", "-1", "0x41", " 41", "+7e", "-0", "0x", "", "41 ", "0X42",
            "00043", "-", "+", "0x 4", "4g", "ff", "1ff"]
    # tmux skips bad -H arguments silently (exit status 0, no message).
    assert send_keys_bytes(args, hex_input=True) == b"AAA~\x00BC\xff"
    assert send_keys_bytes(["0d", "Enter"], hex_input=True, literal=True) == b"\r"
