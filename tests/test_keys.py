"""Unit tests for hmux_core.keys: names, round trips, pane encodings, send-keys arguments.

The expected values come from tmux 3.7b (key-string.c, input-keys.c, cmd-send-keys.c) and were
checked against the real binary; tests/test_keys_oracle.py repeats the comparison live.
"""

from __future__ import annotations

import itertools

import pytest

from hmux_core import keys as K
from hmux_core.keys import (
    KEY_NAMES,
    KEYC_ANY,
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

def test_layout_matches_tmux_37b() -> None:
    # tmux 3.7b: a key type in bits 32-39 (Unicode, User, function keys, one per mouse event),
    # mouse keys are type | button << 8 | location.
    assert KEYC_USER == 1 << 32 and KEYC_NONE == 2 << 32 and KEYC_UNKNOWN == KEYC_NONE + 1
    assert K.KEYC_FOCUS_IN == KEYC_NONE + 2 and KEYC_ANY == KEYC_NONE + 4
    assert KEYC_BSPACE == KEYC_NONE + 7 and KEYC_F1 == KEYC_NONE + 8
    assert K.KEYC_BTAB == KEYC_F1 + 18 and K.KEYC_KP_PERIOD == KEYC_F1 + 38
    assert K.KEYC_MOUSE == KEYC_F1 + 41 and K.KEYC_DOUBLECLICK == KEYC_F1 + 43
    assert K.KEYC_MOUSEMOVE_PANE == 3 << 32
    assert K.KEYC_MOUSEDOWN1_PANE == (4 << 32) | (1 << 8)
    assert K.KEYC_MOUSEDOWN1_BORDER == (4 << 32) | (1 << 8) | 5
    assert K.KEYC_MOUSEDOWN1_CONTROL9 == (4 << 32) | (1 << 8) | 18
    assert K.KEYC_WHEELUP_STATUS == (9 << 32) | 1
    assert K.KEYC_TRIPLECLICK11_SCROLLBAR_DOWN == (12 << 32) | (11 << 8) | 8
    assert K.KEYC_MASK_KEY | K.KEYC_MASK_MODIFIERS | K.KEYC_MASK_FLAGS == (1 << 56) - 1
    assert mouse_key("WheelUp", "Status") == K.KEYC_WHEELUP_STATUS
    assert K.is_mouse_key(K.KEYC_MOUSE) and not K.is_mouse_key(KEYC_BSPACE)
    assert not K.is_mouse_key(K.KEYC_DRAGGING)
    assert K.is_unicode_key(0xE9) and not K.is_unicode_key(0x41)
    assert not K.is_unicode_key(KEYC_F1) and not K.is_unicode_key(KEYC_USER)
    assert K.is_special_key(KEYC_NONE) and K.is_user_key(KEYC_USER + 5)


def test_char_keys_are_code_points() -> None:
    for ch in ("a", "é", "中", "😀", "\U0010fffd", "\U0010e000", "\U0010f3e7"):
        key = char_to_key(ch)
        assert key_to_char(key) == ch
        assert K.is_unicode_key(key) or key < 0x80
    assert char_to_key("é") == 0xE9
    assert char_to_key("\U0010e000") != K.KEYC_FOCUS_IN
    assert key_to_char(KEYC_F1) is None and key_to_char(KEYC_USER) is None
    # An ASCII character in hex is a key of its own, as tmux packs it as UTF-8.
    assert string_to_key("0x41") != ord("A") and key_to_char(string_to_key("0x41")) == "A"


def test_tmux_codes_pack_unicode() -> None:
    assert K.tmux_code(0x41) == 0x41 and K.tmux_code(KEYC_F1 | KEYC_META) == KEYC_F1 | KEYC_META
    assert K.tmux_code(0xE9) == (2 << 29) | (2 << 24) | 0xA9C3
    assert K.tmux_code(ord("中") | KEYC_CTRL) == KEYC_CTRL | (3 << 29) | (3 << 24) | 0xADB8E4
    assert K.tmux_code(string_to_key("0x41")) == (2 << 29) | (1 << 24) | 0x41


def test_c0_controls_from_a_terminal() -> None:
    assert K.from_c0(0x01) == ord("a") | KEYC_CTRL and K.from_c0(0x02) == string_to_key("C-b")
    assert K.from_c0(0x00) == string_to_key("C-Space")
    assert K.from_c0(0x1C) == string_to_key("C-\\")
    assert K.from_c0(0x09) == 0x09 and K.from_c0(0x0D) == 0x0D and K.from_c0(0x1B) == 0x1B
    assert K.to_c0(string_to_key("C-a")) == 0x01 and K.to_c0(string_to_key("C-[")) == 0x1B
    assert K.to_c0(string_to_key("C-M-a")) == string_to_key("C-M-a")


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
                assert printed == canonical(mods, name), text
                assert string_to_key(printed) == key, (text, printed)


def test_ascii_keys_round_trip() -> None:
    for c in map(chr, range(0x21, 0x7F)):
        for mods in MOD_SETS:
            text = "".join(MOD_PREFIXES[m] for m in (KEYC_CTRL, KEYC_META, KEYC_SHIFT)
                           if mods & m) + c
            key = string_to_key(text)
            assert key != KEYC_UNKNOWN, text  # nothing is folded or refused any more
            printed = key_to_string(key)
            assert string_to_key(printed) == key, (text, printed)


_C = KEYC_CTRL


@pytest.mark.parametrize(("text", "key"), [
    ("C-a", ord("a") | _C), ("c-a", ord("a") | _C), ("^a", ord("a") | _C),
    ("^A", ord("a") | _C), ("C-A", ord("A") | _C), ("C-z", ord("z") | _C),
    ("C-@", ord("@") | _C), ("C-Space", 0x20 | _C), ("^@", ord("@") | _C),
    ("C-[", ord("[") | _C), ("C-\\", ord("\\") | _C), ("^^", ord("^") | _C),
    ("C-?", ord("?") | _C), ("C-2", ord("2") | _C), ("C-Tab", 0x09 | _C),
    ("C-Enter", 0x0D | _C), ("C-Escape", 0x1B | _C), ("C-|", ord("|") | _C),
    ("M-x", ord("x") | KEYC_META), ("m-X", ord("X") | KEYC_META), ("S-a", ord("a") | KEYC_SHIFT),
    ("^M-a", ord("a") | KEYC_META | _C), ("C-C-a", ord("a") | _C), ("^", ord("^")),
    ("-", ord("-")), ("M--", ord("-") | KEYC_META), ("^-", ord("-") | _C),
    ("Enter", 0x0D), ("enter", 0x0D), ("ESCAPE", 0x1B), ("Tab", 0x09), ("Space", 0x20),
    ("[NUL]", 0x00), ("[soh]", 0x01), ("[US]", 0x1F),
    ("BSpace", KEYC_BSPACE), ("F1", KEYC_F1), ("f1", KEYC_F1),
    ("M-F1", KEYC_F1 | KEYC_META | KEYC_IMPLIED_META),
    ("Up", KEYC_UP | KEYC_CURSOR), ("S-Up", KEYC_UP | KEYC_CURSOR | KEYC_SHIFT),
    ("C-M-Up", KEYC_UP | KEYC_CURSOR | _C | KEYC_META | KEYC_IMPLIED_META),
    ("KP1", K.KEYC_KP_ONE | KEYC_KEYPAD), ("kpenter", K.KEYC_KP_ENTER | KEYC_KEYPAD),
    ("Any", KEYC_ANY), ("any", KEYC_ANY), ("None", KEYC_NONE), ("NONE", KEYC_NONE),
    ("User0", KEYC_USER), ("User999", KEYC_USER + 999), ("User1000", KEYC_USER + 1000),
    ("User5abc", KEYC_USER + 5), ("User 5", KEYC_USER + 5), ("User-0", KEYC_USER),
    ("User4294967296", KEYC_USER),
    ("MouseDown1Pane", K.KEYC_MOUSEDOWN1_PANE), ("wheelupstatus", K.KEYC_WHEELUP_STATUS),
    ("DoubleClick3Border", K.KEYC_DOUBLECLICK3_BORDER),
    ("MouseDown1ScrollbarUp", K.KEYC_MOUSEDOWN1_SCROLLBAR_UP),
    ("MouseDrag1Control0", K.KEYC_MOUSEDRAG1_CONTROL0),
    ("0x0d", 0x0D), ("0x0", 0x00), ("0x3b1", 0x3B1), ("0x0x", 0x00), ("0x80", 0x80),
    ("0x110000", 0x110000), ("0x10f000", 0x10F000),
    ("é", 0xE9), ("M-é", 0xE9 | KEYC_META), ("C-é", 0xE9 | _C), ("😀", 0x1F600),
    ("\x85", 0x85),  # a C1 control is a key of width 0 (3.7b's utf8_width)
])
def test_string_to_key(text: str, key: int) -> None:
    assert string_to_key(text) == key


def test_hex_ascii_is_packed() -> None:
    for text in ("0x41", "0x41zz", "0x0x41", "0x100000041"):
        key = string_to_key(text)
        assert key != 0x41 and key_to_string(key) == "A", text
    assert key_to_string(string_to_key("0x20")) == " "
    assert key_to_string(string_to_key("0x7f")) == "\x7f"


@pytest.mark.parametrize("text", [
    "", "bogus", "ab", "a-b", "-a", "--", "C-", "S-", "M-", "^C-", "X-a", "User1001", "User",
    "user0", "Userx", "User-1", "FocusIn", "PasteStart", "Mouse", "MouseMovePane", "Unknown",
    "0x", "0xzz", "0x-1", "0xd800", "0x140000", "0x7fffffff", "0X41", "éa", "\x01", "\x1b",
    "\udcff", "F13", "KP10", "Enter ", " Enter",
])
def test_string_to_key_unknown(text: str) -> None:
    assert string_to_key(text) == KEYC_UNKNOWN


@pytest.mark.parametrize(("key", "text"), [
    (ord("a") | _C, "C-a"), (0x20 | _C, "C-Space"), (ord("@") | _C | KEYC_META, "C-M-@"),
    (0x01, "[SOH]"), (0x00, "[NUL]"), (0x1B, "Escape"), (0x1F, "[US]"), (0x7F, "C-?"),
    (0x09, "Tab"), (0x0D, "Enter"), (0x0A, "[LF]"),
    (0x20, "Space"), (ord(";"), ";"), (ord("#"), "#"), (0xE9 | _C, "C-é"),
    (KEYC_NONE, "None"), (KEYC_UNKNOWN, "Unknown"), (K.KEYC_FOCUS_OUT, "FocusOut"),
    (K.KEYC_PASTE_END, "PasteEnd"), (K.KEYC_DRAGGING, "Dragging"),
    (K.KEYC_REPORT_DARK_THEME, "ReportDarkTheme"),
    (K.KEYC_MOUSEMOVE_STATUS_RIGHT, "MouseMoveStatusRight"), (KEYC_USER + 42, "User42"),
    (KEYC_USER + 1000, "User100"),
    (K.KEYC_IC, "IC"), (K.KEYC_NPAGE | KEYC_SHIFT, "S-NPage"),
    (K.KEYC_DOUBLECLICK, f"Invalid#{K.KEYC_DOUBLECLICK:x}"),
    (K.KEYC_MOUSEMOVE_STATUS_DEFAULT | _C,
     f"Invalid#{K.KEYC_MOUSEMOVE_STATUS_DEFAULT | _C:x}"),
    (K.KEYC_MOUSEDOWN1_CONTROL9, "MouseDown1Control9"),
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
    assert key_to_string(ord("a") | K.KEYC_SENT, True) == "a[S]"


def test_user_and_mouse_names_round_trip() -> None:
    for n in range(K.KEYC_NUSER):
        assert key_to_string(string_to_key(f"User{n}")) == f"User{n}"
    assert key_to_string(string_to_key("User1000")) == "User100"  # tmux's 8-byte buffer
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
    ("BSpace", b"\x7f"), ("M-BSpace", b"\x1b\x7f"),
    ("Up", b"\x1b[A"), ("Down", b"\x1b[B"), ("Right", b"\x1b[C"), ("Left", b"\x1b[D"),
    ("Home", b"\x1b[1~"), ("End", b"\x1b[4~"), ("IC", b"\x1b[2~"), ("DC", b"\x1b[3~"),
    ("PPage", b"\x1b[5~"), ("NPage", b"\x1b[6~"),
    ("F1", b"\x1bOP"), ("F4", b"\x1bOS"), ("F5", b"\x1b[15~"), ("F12", b"\x1b[24~"),
    ("S-Up", b"\x1b[1;2A"), ("M-Up", b"\x1b[1;3A"), ("M-S-Up", b"\x1b[1;4A"),
    ("C-Up", b"\x1b[1;5A"), ("C-S-Up", b"\x1b[1;6A"), ("C-M-Left", b"\x1b[1;7D"),
    ("C-M-S-Right", b"\x1b[1;8C"), ("S-Home", b"\x1b[1;2H"), ("C-End", b"\x1b[1;5F"),
    ("M-F1", b"\x1b[1;3P"), ("C-F5", b"\x1b[15;5~"), ("S-F12", b"\x1b[24;2~"),
    ("M-PPage", b"\x1b[5;3~"), ("C-DC", b"\x1b[3;5~"), ("S-IC", b"\x1b[2;2~"),
    ("M-BTab", b"\x1b[Z"), ("C-BTab", b"\x1b[Z"), ("M-Enter", b"\x1b\r"),
    ("M-Escape", b"\x1b\x1b"),
    ("C-x", b"\x18"), ("C-a", b"\x01"), ("M-x", b"\x1bx"), ("C-M-a", b"\x1b\x01"),
    ("C-Space", b"\x00"), ("C-2", b"\x00"), ("C-6", b"\x1e"), ("C--", b"\x1f"), ("C-/", b"\x1f"),
    ("C-?", b"\x7f"), ("C-1", b"1"), ("C-!", b"1"), ("C-8", b"\x7f"), ("C-3", b"\x1b"),
    ("C-Tab", b"\t"), ("C-Enter", b"\r"), ("S-a", b"a"), ("S-Space", b" "),
    ("C-S-a", b"\x01"), ("M-S-a", b"\x1ba"), ("C-M-1", b"\x1b1"), ("C-M-Tab", b"\x1b\t"),
    ("C-KP1", b""), ("S-KP1", b""), ("Any", b""), ("[SOH]", b"\x01"), ("[LF]", b"\n"),
    ("é", "é".encode()), ("M-é", b"\x1b" + "é".encode()), ("C-é", "é".encode()),
    ("😀", "😀".encode()), ("0x10f000", "\U0010f000".encode()), ("0x110000", b"\xf4\x90\x80\x80"),
    ("KP1", b"1"), ("KPEnter", b"\n"), ("KP/", b"/"), ("KP.", b"."), ("M-KP1", b"\x1b1"),
    ("User0", b""), ("User999", b""),
])
def test_encode_default_modes(text: str, data: bytes) -> None:
    assert enc(text) == data


@pytest.mark.parametrize("text", [
    "C-BSpace", "C-Escape", "C-M-BSpace", "MouseDown1Pane", "WheelUpStatus",
])
def test_encode_refused(text: str) -> None:
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
    # Mode 1 (CSI > 4 ; 1 m): Meta and the keys xterm's modifyOtherKeys=1 leaves alone keep the
    # standard form, the rest is CSI 27 ; m ; k ~ (extended-keys-format xterm, the default).
    assert enc("S-a", extended_keys=1) == b"\x1b[27;2;97~"
    assert enc("C-Tab", extended_keys=1) == b"\x1b[27;5;9~"
    assert enc("C-1", extended_keys=1) == b"\x1b[27;5;49~"
    assert enc("C-a", extended_keys=1) == b"\x01"
    assert enc("M-S-a", extended_keys=1) == b"\x1ba"
    assert enc("C-Up", extended_keys=1) == b"\x1b[1;5A"
    assert enc("Any", extended_keys=1) == b""
    assert enc("S-a", extended_keys=1, extended_format=K.FORMAT_CSI_U) == b"\x1b[97;2u"
    assert enc("C-é", extended_keys=1) == b"\x1b[27;5;233~"
    # Mode 2: every modified key, BTab as S-Tab.
    assert enc("C-a", extended_keys=2) == b"\x1b[27;5;97~"
    assert enc("M-x", extended_keys=2) == b"\x1b[27;3;120~"
    assert enc("BTab", extended_keys=2) == b"\x1b[27;2;9~"
    assert enc("C-BSpace", extended_keys=2) == b"\x1b[27;5;127~"
    assert enc("a", extended_keys=2) == b"a"
    assert encode_key(0x01, extended_keys=2) is None  # a bare C0 control has no form
    assert enc("C-Up", extended_keys=2) == b"\x1b[1;5A"


def test_encode_literal_and_backspace_option() -> None:
    assert encode_key(KEYC_LITERAL | 0xFF) == b"\xff"
    assert encode_key(KEYC_LITERAL | 0x00) == b"\x00"
    ctrl_h = string_to_key("C-h")
    assert enc("BSpace", backspace=ctrl_h) == b"\x08"
    assert enc("M-BSpace", backspace=ctrl_h) == b"\x1b\x08"
    assert enc("BSpace", backspace=0x08) == b"\x08"
    assert enc("BSpace", backspace=KEYC_F1) == b"\x08"  # the low byte of the key, as tmux
    assert enc("BSpace", backspace=0x7F) == b"\x7f"
    assert enc("BSpace", backspace=string_to_key("C-?")) == b"\x7f"
    assert enc("BSpace", backspace=string_to_key("M-a")) == b""
    assert K.backspace_key("C-?") == 0x7F and K.backspace_key("C-h") == ctrl_h


def test_encode_paste_keys_need_bracketed_paste() -> None:
    assert encode_key(K.KEYC_PASTE_START) == b"\x1b[200~"
    assert encode_key(K.KEYC_PASTE_START, bracket_paste=False) == b""


def test_every_table_key_has_a_defined_encoding() -> None:
    for name in KEY_NAMES:
        for mods in MOD_SETS:
            prefix = "".join(MOD_PREFIXES[m] for m in (KEYC_CTRL, KEYC_META, KEYC_SHIFT)
                             if mods & m)
            for modes in itertools.product((False, True), (False, True), (0, 1, 2)):
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
        b"aNoneMouseDown1Pane")
    assert send_keys_bytes(["C-Tab", "User3"]) == b"\t"
    assert send_keys_bytes(["0x41", "0x0d", "0x3b1"]) == b"A\r" + "α".encode()
    assert send_keys_bytes(["0x80", "C-|"]) == b"\xc2\x80\x1c"
    assert send_keys_bytes(["\udcff\udcfe"]) == b"\xff\xfe"
    assert send_keys_bytes([""]) == b""
    # A Meta key tmux refuses after writing its ESC: the ESC stays, then the name is typed.
    assert send_keys_bytes(["C-M-BSpace"]) == b"\x1bC-M-BSpace"
    # Typed characters go one by one: C0 controls have no form in the extended modes.
    assert send_keys_bytes(["a\x01b\nc"], literal=True) == b"a\x01b\nc"
    assert send_keys_bytes(["a\x01b\nc"], literal=True, extended_keys=2) == b"abc"


def test_send_keys_literal_flag() -> None:
    assert send_keys_bytes(["Enter", "C-a", "é"], literal=True) == b"EnterC-a" + "é".encode()


def test_send_keys_hex() -> None:
    args = ["41", "zz", "100", "-1", "0x41", " 41", "+7e", "-0", "0x", "", "41 ", "0X42",
            "00043", "-", "+", "0x 4", "4g", "ff", "1ff"]
    # tmux skips bad -H arguments silently (exit status 0, no message).
    assert send_keys_bytes(args, hex_input=True) == b"AAA~\x00BC\xff"
    assert send_keys_bytes(["0d", "Enter"], hex_input=True, literal=True) == b"\r"


# -- keys read from a terminal (tty_keys) ---------------------------------------------------------

def test_terminal_c0_bytes_are_ctrl_keys() -> None:
    from hmux_core.tty_keys import KeyDecoder

    got = [key_to_string(k) for k, _ in KeyDecoder().feed(b"\x01\x00\t\r\x1b\x02\x7fa")]
    assert got == ["C-a", "C-Space", "Tab", "Enter", "C-M-b", "BSpace", "a"]


@pytest.mark.parametrize(("seq", "name"), [
    (b"\x1b[27;5;97~", "C-a"), (b"\x1b[97;5u", "C-a"), (b"\x1b[27;5;105~", "C-i"),
    (b"\x1b[27;2;65~", "A"), (b"\x1b[65;6u", "C-S-A"), (b"\x1b[9;2u", "BTab"),
    (b"\x1b[9;6u", "C-BTab"), (b"\x1b[127;3u", "M-BSpace"), (b"\x1b[233;5u", "C-é"),
    (b"\x1b[27;9;120~", "M-x"), (b"\x1b[13;5u", "C-Enter"),
])
def test_terminal_extended_keys(seq: bytes, name: str) -> None:
    from hmux_core.tty_keys import KeyDecoder, extended_key

    key = extended_key(seq)
    assert key is not None and key_to_string(key) == name
    assert [k for k, _ in KeyDecoder().feed(seq)] == [key]


@pytest.mark.parametrize("seq", [b"\x1b[15;5~", b"\x1b[97u", b"\x1b[1;5A", b"\x1b[27;5~"])
def test_not_extended_keys(seq: bytes) -> None:
    from hmux_core.tty_keys import extended_key

    assert extended_key(seq) is None


@pytest.mark.parametrize(("seq", "name"), [
    (b"\x1bOa", "C-Up"), (b"\x1b[d", "S-Left"), (b"\x1b[11~", "F1"), (b"\x1b[14~", "F4"),
    (b"\x1b[15~", "F5"), (b"\x1b[23~", "F11"), (b"\x1b[24~", "F12"), (b"\x1b[25~", "S-F3"),
    (b"\x1b[34~", "S-F10"), (b"\x1b[23$", "S-F11"), (b"\x1b[11^", "C-F1"),
    (b"\x1b[24^", "C-F12"), (b"\x1b[17@", "C-S-F6"), (b"\x1b[1;5Z", "C-S-Tab"),
])
def test_rxvt_keys_whatever_the_terminal(seq: bytes, name: str) -> None:
    """tmux reads rxvt's arrow and function keys on any terminal (its raw key table; the
    names regress/tty-keys.sh expects with TERM=screen); where they overlap a key of xterm's,
    xterm's wins (ESC [ 23 ~ is F11, not S-F1)."""
    from hmux_core.tty_keys import KeyDecoder

    assert [key_to_string(k) for k, _ in KeyDecoder().feed(seq)] == [name]


def test_escape_bracket_alone_is_meta_bracket() -> None:
    """ESC [ with nothing after it before escape-time is M-[ (regress tty-keys.sh)."""
    from hmux_core.tty_keys import KeyDecoder

    d = KeyDecoder()
    assert d.feed(b"\x1b[") == []
    assert [key_to_string(k) for k, _ in d.feed(b"", final=True)] == ["M-["]
