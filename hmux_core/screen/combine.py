"""Which characters join the one before them (tmux 3.7b's utf8-combined.c).

tmux 3.7b combines by looking at the cell before the cursor, not at the previous input: a
zero-width character, ZWJ or a variation selector always joins it (VS16 then makes it wide
when the ``variation-selector-always-wide`` option is on); a character after a ZWJ joins; an
emoji skin tone joins its emoji and a second regional indicator its first (both making the cell
wide); Hangul jamo compose (a vowel or final consonant that cannot compose is dropped).
"""

from __future__ import annotations

ZWJ = "\u200d"
VS16 = "\ufe0f"
HANGUL_FILLER = "\u3164"

#: The variation-selector-always-wide server option (on by default), as a one-item list so
#: the engines read the current value.
VS16_ALWAYS_WIDE = [True]


def set_variation_selector_always_wide(on: bool) -> None:
    VS16_ALWAYS_WIDE[0] = bool(on)


_SKIN_TONE_BASES = frozenset((
    0x1F44B, 0x1F44C, 0x1F44D, 0x1F44E, 0x1F44F, 0x1F450, 0x1F466, 0x1F467, 0x1F468, 0x1F469,
    0x1F46E, 0x1F470, 0x1F471, 0x1F472, 0x1F473, 0x1F474, 0x1F475, 0x1F476, 0x1F477, 0x1F478,
    0x1F47C, 0x1F481, 0x1F482, 0x1F483, 0x1F485, 0x1F486, 0x1F487, 0x1F4AA, 0x1F575, 0x1F57A,
    0x1F590, 0x1F595, 0x1F596, 0x1F645, 0x1F646, 0x1F647, 0x1F64B, 0x1F64C, 0x1F64D, 0x1F64E,
    0x1F64F, 0x1F6B4, 0x1F6B5, 0x1F6B6, 0x1F926, 0x1F937, 0x1F938, 0x1F939, 0x1F93D, 0x1F93E,
    0x1F9B5, 0x1F9B6, 0x1F9B8, 0x1F9B9, 0x1F9CD, 0x1F9CE, 0x1F9CF, 0x1F9D1, 0x1F9D2, 0x1F9D3,
    0x1F9D4, 0x1F9D5, 0x1F9D6, 0x1F9D7, 0x1F9D8, 0x1F9D9, 0x1F9DA, 0x1F9DB, 0x1F9DC, 0x1F9DD,
    0x1F9DE, 0x1F9DF,
))  # fmt: skip


#: Whether a character can join the cell before it on its own account (zero width, ZWJ, a
#: variation selector, a regional indicator, a skin tone or an emoji that takes one, Hangul
#: jamo); anything else joins only a cell that ends in ZWJ. Cached per character.
JOINS: dict[str, bool] = {}


def joins(ch: str, w: int) -> bool:
    cp = ord(ch)
    j = (w == 0 or ch == ZWJ or ch == VS16 or _is_ri(cp) or 0x1F3FB <= cp <= 0x1F3FF
         or cp in _SKIN_TONE_BASES or _jamo_class(cp) != 0)
    if len(JOINS) > 65536:
        JOINS.clear()
    JOINS[ch] = j
    return j


def _is_ri(cp: int) -> bool:
    return 0x1F1E6 <= cp <= 0x1F1FF


def should_combine(with_: str, add: str) -> bool:
    """utf8_should_combine: ``add`` joins ``with_`` (first code points compared)."""
    w, a = ord(with_[0]), ord(add[0])
    if _is_ri(a) and _is_ri(w):
        return sum(map(_is_ri, map(ord, with_))) == 1 and sum(map(_is_ri, map(ord, add))) == 1
    return a in _SKIN_TONE_BASES and 0x1F3FB <= w <= 0x1F3FF


# hanguljamo_check_state results
JAMO_NOT_JAMO = 0
JAMO_CHOSEONG = 1
JAMO_COMPOSABLE = 2
JAMO_NOT_COMPOSABLE = 3

_CHO, _JUNG, _JONG = 1, 2, 3


def _jamo_class(cp: int) -> int:
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return _CHO
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return _JUNG
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return _JONG
    return 0


def hangul_state(prev: str, ch: str) -> int:
    """hanguljamo_check_state: how ``ch`` relates to the cell ``prev`` it follows."""
    cls = _jamo_class(ord(ch))
    if cls == 0:
        return JAMO_NOT_JAMO
    if cls == _CHO:
        return JAMO_CHOSEONG
    # the cell's last character must be three UTF-8 bytes of the class before
    tail = prev[-1]
    if len(tail.encode("utf-8", "surrogatepass")) != 3:
        return JAMO_NOT_COMPOSABLE
    want = _CHO if cls == _JUNG else _JUNG
    return JAMO_COMPOSABLE if _jamo_class(ord(tail)) == want else JAMO_NOT_COMPOSABLE
