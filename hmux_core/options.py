"""Option stores and the semantics of set-option / show-options, as tmux 3.3a.

Three global stores exist per server (server, global session, global window); sessions, windows and
panes get child stores whose lookups fall through to their parent (pane -> window -> global window,
session -> global session). Values are kept in tmux's runtime form: strings as str, numbers, flags,
colours and choice indexes as int, keys as their canonical tmux name, arrays as {index: item}.

`set_option` and `show_options` implement the commands over an `OptionScopes` (the stores a target
resolved to), so they need nothing from the server model. Every error is an `OptionError` carrying
tmux's exact message.
"""

from __future__ import annotations

import math
import os
import pwd
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import lru_cache
from typing import Any

from hmux_core.commands.grammar import args_escape
from hmux_core.options_table import (
    CHOICE,
    COLOUR,
    COLOUR_NAMES,
    COMMAND,
    EXTENSION_OPTIONS,
    FLAG,
    FORMAT_COLOUR,
    IS_ARRAY,
    IS_COLOUR,
    IS_EXTENSION,
    KEY,
    NONE,
    NUMBER,
    OPTION_TABLE,
    OPTIONS_BY_NAME,
    OTHER_NAMES,
    PANE,
    SERVER,
    SESSION,
    STRING,
    WINDOW,
    OptionEntry,
)

__all__ = [
    "OptionError", "Options", "OptionScopes", "OptionHooks", "HOOKS", "Style",
    "SERVER", "SESSION", "WINDOW", "PANE", "NONE",
    "make_global_options", "set_option", "show_options", "parse_option_name", "match_option_name",
    "option_scope", "find_entry", "colour_fromstring", "colour_tostring", "parse_style",
    "style_tostring", "style_link", "attributes_fromstring", "attributes_tostring", "args_escape", "strtonum",
    "key_canonical", "check_shell", "default_shell", "parse_flag_value", "find_choice",
    "format_option_value", "option_string", "new_global_options",
]


class OptionError(Exception):
    """An option command failed; str(err) is the message tmux prints."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


# ---------------------------------------------------------------------------------------------
# Small C-compatible helpers
# ---------------------------------------------------------------------------------------------

_C_SPACE = " \t\n\v\f\r"


def strtonum(s: str, minimum: int, maximum: int) -> tuple[int, str | None]:
    """OpenBSD strtonum: (value, None) or (0, "invalid" | "too small" | "too large")."""
    if minimum > maximum:
        return 0, "invalid"
    i, n = 0, len(s)
    while i < n and s[i] in _C_SPACE:
        i += 1
    j = i
    if j < n and s[j] in "+-":
        j += 1
    k = j
    while k < n and "0" <= s[k] <= "9":
        k += 1
    if k == j or k != n:
        return 0, "invalid"
    v = int(s[i:k])
    # strtoll saturates at the long long limits; the comparison result is the same.
    if v < minimum:
        return 0, "too small"
    if v > maximum:
        return 0, "too large"
    return v, None


def _c_round(x: float) -> int:
    f = math.floor(x)
    return f + 1 if x - f >= 0.5 else f


# ---------------------------------------------------------------------------------------------
# Colours (colour.c)
# ---------------------------------------------------------------------------------------------

COLOUR_FLAG_256 = 0x01000000
COLOUR_FLAG_RGB = 0x02000000
#: The development tree's symbolic theme colours (themeblack ... thememagenta): slot n is
#: ``n | COLOUR_FLAG_THEME``, drawn as the client theme's dark-theme-*/light-theme-* option or,
#: with theme terminal, as the ANSI colour below (hmux_core/themes.py; docs/extensions.md).
COLOUR_FLAG_THEME = 0x04000000
#: (name, option suffix, ANSI colour) per theme slot, in the development tree's order.
THEME_COLOURS = (
    ("themeblack", "black", 0), ("themewhite", "white", 7),
    ("themelightgrey", "light-grey", 7), ("themedarkgrey", "dark-grey", 0),
    ("themegreen", "green", 2), ("themeyellow", "yellow", 3), ("themered", "red", 1),
    ("themeblue", "blue", 4), ("themecyan", "cyan", 6), ("thememagenta", "magenta", 5),
)
_THEME_BY_NAME = {name: i for i, (name, _o, _c) in enumerate(THEME_COLOURS)}


def theme_terminal_colour(n: int) -> int:
    """The ANSI colour theme slot ``n`` is with theme terminal (8, default, if no slot)."""
    return THEME_COLOURS[n][2] if 0 <= n < len(THEME_COLOURS) else 8

_BASIC_COLOURS = {
    "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6,
    "white": 7, "default": 8, "terminal": 9, "brightblack": 90, "brightred": 91,
    "brightgreen": 92, "brightyellow": 93, "brightblue": 94, "brightmagenta": 95,
    "brightcyan": 96, "brightwhite": 97,
}
_NUMERIC_COLOURS = {"0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7,
                    "90": 90, "91": 91, "92": 92, "93": 93, "94": 94, "95": 95, "96": 96,
                    "97": 97}
_COLOUR_STRINGS = {v: k for k, v in _BASIC_COLOURS.items()}
_HEX = set("0123456789abcdefABCDEF")


def colour_fromstring(s: str) -> int:
    """tmux colour code for `s`, or -1 if it is not a colour."""
    if len(s) == 7 and s[0] == "#":
        if not all(c in _HEX for c in s[1:]):
            return -1
        return int(s[1:], 16) | COLOUR_FLAG_RGB
    low = s.lower()
    if low.startswith("colour") or low.startswith("color"):
        n, err = strtonum(s[6 if low.startswith("colour") else 5:], 0, 255)
        return -1 if err is not None else n | COLOUR_FLAG_256
    c = _BASIC_COLOURS.get(low)
    if c is not None:
        return c
    c = _THEME_BY_NAME.get(low)
    if c is not None:
        return c | COLOUR_FLAG_THEME  # not a colour to 3.7b: only adds meaning
    c = _NUMERIC_COLOURS.get(s)
    if c is not None:
        return c
    if low.startswith("grey") or low.startswith("gray"):
        # tmux 3.7b: "grey" alone, or grey0 .. grey100 (any case); "greyish" is no colour.
        if len(s) == 4:
            return 0xbebebe | COLOUR_FLAG_RGB
        n, err = strtonum(s[4:], 0, 100)
        if err is not None:
            return -1
        v = _c_round(2.55 * n)
        return (v << 16) | (v << 8) | v | COLOUR_FLAG_RGB
    rgb = COLOUR_NAMES.get(low)
    if rgb is None:
        return -1
    return rgb | COLOUR_FLAG_RGB


def colour_tostring(c: int) -> str:
    """tmux's name for colour code `c` (as show-options prints it)."""
    if c == -1:
        return "none"
    if c & COLOUR_FLAG_THEME:
        n = c & 0xFF
        return THEME_COLOURS[n][0] if n < len(THEME_COLOURS) else "invalid"
    if c & COLOUR_FLAG_RGB:
        return f"#{c & 0xffffff:06x}"
    if c & COLOUR_FLAG_256:
        return f"colour{c & 0xff}"
    return _COLOUR_STRINGS.get(c, "invalid")


# ---------------------------------------------------------------------------------------------
# Attributes and styles (attributes.c, style.c)
# ---------------------------------------------------------------------------------------------

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
ATTR_NOATTR = 0x4000  # "noattr" in a style: the cells drawn over keep only their charset

_ATTR_NAMES = {
    "acs": ATTR_CHARSET, "bright": ATTR_BRIGHT, "bold": ATTR_BRIGHT, "dim": ATTR_DIM,
    "underscore": ATTR_UNDERSCORE, "blink": ATTR_BLINK, "reverse": ATTR_REVERSE,
    "hidden": ATTR_HIDDEN, "italics": ATTR_ITALICS, "strikethrough": ATTR_STRIKETHROUGH,
    "double-underscore": ATTR_UNDERSCORE_2, "curly-underscore": ATTR_UNDERSCORE_3,
    "dotted-underscore": ATTR_UNDERSCORE_4, "dashed-underscore": ATTR_UNDERSCORE_5,
    "overline": ATTR_OVERLINE,
}
_ATTR_PRINT_ORDER = (
    (ATTR_CHARSET, "acs"), (ATTR_BRIGHT, "bright"), (ATTR_DIM, "dim"),
    (ATTR_UNDERSCORE, "underscore"), (ATTR_BLINK, "blink"), (ATTR_REVERSE, "reverse"),
    (ATTR_HIDDEN, "hidden"), (ATTR_ITALICS, "italics"), (ATTR_STRIKETHROUGH, "strikethrough"),
    (ATTR_UNDERSCORE_2, "double-underscore"), (ATTR_UNDERSCORE_3, "curly-underscore"),
    (ATTR_UNDERSCORE_4, "dotted-underscore"), (ATTR_UNDERSCORE_5, "dashed-underscore"),
    (ATTR_OVERLINE, "overline"), (ATTR_NOATTR, "noattr"),
)


def attributes_fromstring(s: str) -> int:
    """Attribute bits for a list like "bold,italics" (delimiters " ,|"), or -1."""
    delims = " ,|"
    if not s or s[0] in delims or s[-1] in delims:
        return -1
    low = s.lower()
    if low in ("default", "none"):
        return 0
    attr = 0
    i, n = 0, len(low)
    while i < n:
        j = i
        while j < n and low[j] not in delims:
            j += 1
        bit = _ATTR_NAMES.get(low[i:j])
        if bit is None:
            return -1
        attr |= bit
        while j < n and low[j] in delims:
            j += 1
        i = j
    return attr


def attributes_tostring(attr: int) -> str:
    if attr == 0:
        return "none"
    return ",".join(name for bit, name in _ATTR_PRINT_ORDER if attr & bit)


@dataclass(slots=True)
class Style:
    """A parsed style (#[...] or a *-style option). Colours are tmux colour codes (8 = default)."""

    fg: int = 8
    bg: int = 8
    attr: int = 0
    fill: int = 8
    align: str = "default"        # default left centre right absolute-centre
    list: str = "off"             # off on focus left-marker right-marker
    range_type: str = "none"      # none left right window pane session user control
    range_argument: int = 0
    default_type: str = "base"    # base push pop set
    ignore: bool = False
    us: int = 8                   # underscore colour (us=)
    range_string: str = ""        # range=user|string
    width: int = -1               # width=N or width=N% (scrollbars), -1 unset
    width_percentage: bool = False
    pad: int = -1                 # pad=N, -1 unset
    link: int = 0                 # link=URI (beyond 3.7b): its number in STYLE_LINKS, 0 none

    def copy(self) -> Style:
        return Style(self.fg, self.bg, self.attr, self.fill, self.align, self.list,
                     self.range_type, self.range_argument, self.default_type, self.ignore,
                     self.us, self.range_string, self.width, self.width_percentage, self.pad,
                     self.link)


#: The URIs of ``link=`` styles (tmux's style_hyperlinks, beyond 3.7b): a style keeps only a
#: small number, and the set (created at the first link) follows the hyperlink store's rules
#: (vis-encoded, at most 1024 bytes, the process-wide eviction of the oldest links).
STYLE_LINKS: Any = None


def _style_link_put(uri: str) -> int:
    """The number of a ``link=`` URI in STYLE_LINKS (0: refused, too long once encoded)."""
    global STYLE_LINKS
    if STYLE_LINKS is None:
        from .screen.hyperlinks import Hyperlinks  # only when a style has a link

        STYLE_LINKS = Hyperlinks()
    raw = uri if uri.isascii() else uri.encode("utf-8", "surrogateescape").decode("latin-1")
    return STYLE_LINKS.put(raw, raw)


def style_link(sy: Style) -> str | None:
    """tmux's style_link: the (vis-encoded) URI of a style's link, None without one (or
    once the store has dropped it)."""
    if not sy.link or STYLE_LINKS is None:
        return None
    got = STYLE_LINKS.get(sy.link)
    return None if got is None else got[0]


_STYLE_DELIMS = " ,\n"
_LISTS = {"on": "on", "focus": "focus", "left-marker": "left-marker",
          "right-marker": "right-marker"}
_ALIGNS = {"left": "left", "centre": "centre", "right": "right",
           "absolute-centre": "absolute-centre"}


def parse_style(s: str, base: Style | None = None, reset: Style | None = None) -> Style | None:
    """Parse a style string on top of `base` (tmux's style_parse); None if it is invalid.

    The result is a new Style; `reset` (else `base`) supplies what "default" and fg=default
    reset to (format_draw parses over the running style, resetting to the current default).
    """
    sy = base.copy() if base is not None else Style()
    if reset is None:
        reset = base
    bfg, bbg, battr = (reset.fg, reset.bg, reset.attr) if reset is not None else (8, 8, 0)
    bus = reset.us if reset is not None else 8
    n = len(s)
    i = 0
    while True:
        while i < n and s[i] in _STYLE_DELIMS:
            i += 1
        if i >= n:
            break
        j = i
        while j < n and s[j] not in _STYLE_DELIMS:
            j += 1
        tok = s[i:j]
        if len(tok.encode("utf-8", "surrogateescape")) > 255:
            return None
        low = tok.lower()
        end = len(tok)
        if low == "default":
            sy.fg, sy.bg, sy.attr, sy.us = bfg, bbg, battr, bus
            sy.link = 0
        elif low == "ignore":
            sy.ignore = True
        elif low == "noignore":
            sy.ignore = False
        elif low == "push-default":
            sy.default_type = "push"
        elif low == "pop-default":
            sy.default_type = "pop"
        elif low == "set-default":
            sy.default_type = "set"
        elif low == "nolist":
            sy.list = "off"
        elif low.startswith("list="):
            v = _LISTS.get(low[5:])
            if v is None:
                return None
            sy.list = v
        elif low == "norange":
            sy.range_type = "none"
            sy.range_argument = 0
            sy.range_string = ""
        elif end > 6 and low.startswith("range="):
            if not _parse_range(sy, tok[6:]):
                return None
        elif low == "noalign":
            sy.align = "default"
        elif end > 6 and low.startswith("align="):
            v = _ALIGNS.get(low[6:])
            if v is None:
                return None
            sy.align = v
        elif end > 5 and low.startswith("fill="):
            c = colour_fromstring(tok[5:])
            if c == -1:
                return None
            sy.fill = c
        elif end > 3 and low[1:3] == "g=":
            c = colour_fromstring(tok[3:])
            if c == -1:
                return None
            if low[0] == "f":
                sy.fg = c if c != 8 else bfg
            elif low[0] == "b":
                sy.bg = c if c != 8 else bbg
            else:
                return None
        elif end > 3 and low.startswith("us="):
            c = colour_fromstring(tok[3:])
            if c == -1:
                return None
            sy.us = c if c != 8 else bus
        elif low == "none":
            sy.attr = 0
        elif end > 2 and low.startswith("no"):
            if tok[2:] == "link":  # (case matters after "no", as in tmux)
                sy.link = 0
            elif tok[2:] == "attr":
                sy.attr |= ATTR_NOATTR
            else:
                a = attributes_fromstring(tok[2:])
                if a == -1:
                    return None
                sy.attr &= ~a
        elif end > 6 and low.startswith("width="):
            pct = end > 7 and tok.endswith("%")
            num, err = strtonum(tok[6:-1] if pct else tok[6:], 0, 100 if pct else 0xFFFFFFFF)
            if err is not None:
                return None
            sy.width, sy.width_percentage = num, pct
        elif end > 4 and low.startswith("pad="):
            num, err = strtonum(tok[4:], 0, 0xFFFFFFFF)
            if err is not None:
                return None
            sy.pad = num
        elif low.startswith("link="):  # beyond 3.7b: an OSC 8 hyperlink; empty ends it
            sy.link = _style_link_put(tok[5:]) if end > 5 else 0
        else:
            a = attributes_fromstring(tok)
            if a == -1:
                return None
            sy.attr |= a
        i = j
    return sy


def _parse_range(sy: Style, text: str) -> bool:
    """range=TYPE[|ARGUMENT] of tmux 3.7b: left, right, control|0-9, pane|%N, window|N,
    session|$N, user|string; an unknown type is ignored. False for a bad argument."""
    what, bar, arg = text.partition("|")
    if bar and not arg:
        return False
    kind = what.lower()
    number: int | None = None
    if kind in ("left", "right"):
        if bar:
            return False
        number = 0
    elif kind in ("control", "window", "pane", "session"):
        if not bar:
            return False
        if kind in ("pane", "session"):
            if arg[0] != ("%" if kind == "pane" else "$") or len(arg) == 1:
                return False
            arg = arg[1:]
        number, err = strtonum(arg, 0, 9 if kind == "control" else 0xFFFFFFFF)
        if err is not None:
            return False
    elif kind == "user":
        if not bar:
            return False
        sy.range_type, sy.range_argument, sy.range_string = "user", 0, arg
        return True
    else:
        return True
    sy.range_type, sy.range_argument, sy.range_string = kind, number, ""
    return True


def style_tostring(sy: Style) -> str:
    """tmux's style_tostring."""
    parts: list[str] = []
    if sy.list != "off":
        parts.append("list=" + sy.list)
    if sy.range_type != "none":
        if sy.range_type == "window":
            parts.append(f"range=window|{sy.range_argument}")
        elif sy.range_type == "pane":
            parts.append(f"range=pane|%{sy.range_argument}")
        elif sy.range_type == "session":
            parts.append(f"range=session|${sy.range_argument}")
        elif sy.range_type == "user":
            parts.append(f"range=user|{sy.range_string}")
        elif sy.range_type == "control":
            parts.append("range=")  # tmux 3.7b prints no name for a control range
        else:
            parts.append("range=" + sy.range_type)
    if sy.align != "default":
        parts.append("align=" + sy.align)
    if sy.default_type != "base":
        parts.append(sy.default_type + "-default")
    if sy.fill != 8:
        parts.append("fill=" + colour_tostring(sy.fill))
    if sy.fg != 8:
        parts.append("fg=" + colour_tostring(sy.fg))
    if sy.bg != 8:
        parts.append("bg=" + colour_tostring(sy.bg))
    if sy.us != 8:
        parts.append("us=" + colour_tostring(sy.us))
    if sy.attr != 0:
        parts.append(attributes_tostring(sy.attr))
    if sy.width >= 0:
        parts.append(f"width={sy.width}{'%' if sy.width_percentage else ''}")
    if sy.pad >= 0:
        parts.append(f"pad={sy.pad}")
    uri = style_link(sy) if sy.link else None
    if uri is not None:
        parts.append("link=" + uri)
    return ",".join(parts) if parts else "default"


# ---------------------------------------------------------------------------------------------
# Keys: a self-contained canonicaliser (key_string_lookup_string then key_string_lookup_key),
# used unless HOOKS.key_canonical is replaced by the key module's.
# ---------------------------------------------------------------------------------------------

_KEY_CTRL, _KEY_META, _KEY_SHIFT = 1, 2, 4

#: C0 controls as tmux 3.7b names them (only Tab, Enter and Escape are real keys; the others
#: are rendered so that an abnormal key can be spotted), then Space.
_C0_NAMES = (
    "[NUL]", "[SOH]", "[STX]", "[ETX]", "[EOT]", "[ENQ]", "[ASC]", "[BEL]", "[BS]", "Tab",
    "[LF]", "[VT]", "[FF]", "Enter", "[SO]", "[SI]", "[DLE]", "[DC1]", "[DC2]", "[DC3]",
    "[DC4]", "[NAK]", "[SYN]", "[ETB]", "[CAN]", "[EM]", "[SUB]", "Escape", "[FS]", "[GS]",
    "[RS]", "[US]", "Space",
)
_KEY_USER_MAX = 1000  # KEYC_NUSER: User0 .. User1000 parse


def _build_key_names() -> dict[str, tuple[str, Any]]:
    """tmux 3.7b's key string table, lower-cased name -> key (first spelling is printed)."""
    names: dict[str, tuple[str, Any]] = {}

    def named(canon: str, *aliases: str) -> None:
        for a in (canon, *aliases):
            names.setdefault(a.lower(), ("n", canon))

    for i in range(1, 13):
        named(f"F{i}")
    named("IC", "Insert")
    named("DC", "Delete")
    named("Home")
    named("End")
    named("NPage", "PageDown", "PgDn")
    named("PPage", "PageUp", "PgUp")
    named("BTab")
    named("BSpace")
    for code, name in enumerate(_C0_NAMES):
        names.setdefault(name.lower(), ("c", code))
    for k in ("Up", "Down", "Left", "Right", "KP/", "KP*", "KP-", "KP7", "KP8", "KP9", "KP+",
              "KP4", "KP5", "KP6", "KP1", "KP2", "KP3", "KPEnter", "KP0", "KP."):
        named(k)
    buttons = ("1", "2", "3", "6", "7", "8", "9", "10", "11")
    mouse = [f"{kind}{b}" for kind in ("MouseDown", "MouseUp", "MouseDrag", "MouseDragEnd")
             for b in buttons]
    mouse += ["WheelUp", "WheelDown"]
    mouse += [f"{kind}{b}" for kind in ("SecondClick", "DoubleClick", "TripleClick")
              for b in buttons]
    places = ("Pane", "Status", "StatusLeft", "StatusRight", "StatusDefault", "ScrollbarUp",
              "ScrollbarSlider", "ScrollbarDown", "Border",
              *(f"Control{i}" for i in range(10)))
    for m in mouse:
        for where in places:
            named(m + where)
    return names


_KEY_NAMES = _build_key_names()


def _scan_hex(s: str) -> int | None:
    """sscanf("%x"): optional blanks, sign and 0x prefix, then hex digits."""
    i, n = 0, len(s)
    while i < n and s[i] in _C_SPACE:
        i += 1
    neg = False
    if i < n and s[i] in "+-":
        neg = s[i] == "-"
        i += 1
    if i + 1 < n and s[i] == "0" and s[i + 1] in "xX" and i + 2 < n and s[i + 2] in _HEX:
        i += 2
    j = i
    while j < n and s[j] in _HEX:
        j += 1
    if j == i:
        return None
    v = int(s[i:j], 16)
    if neg:
        v = -v
    return v & 0xffffffff if v <= 0xffffffff else v


def _scan_unsigned(s: str) -> int | None:
    """sscanf("%u"): optional blanks and sign, then decimal digits (wrapping at 32 bits)."""
    i, n = 0, len(s)
    while i < n and s[i] in _C_SPACE:
        i += 1
    j = i + (1 if i < n and s[i] in "+-" else 0)
    k = j
    while k < n and "0" <= s[k] <= "9":
        k += 1
    if k == j:
        return None
    return int(s[i:k]) & 0xffffffff


def _key_parse(s: str) -> tuple[int, tuple[str, Any]] | None:
    """key_string_lookup_string of tmux 3.7b: (modifiers, key) or None for KEYC_UNKNOWN.

    Unlike 3.3a nothing is folded: C-i stays C-i (not Tab), C-@ stays C-@.
    """
    low = s.lower()
    if low == "none":
        return 0, ("n", "None")
    if low == "any":
        return 0, ("n", "Any")
    if s.startswith("0x"):
        u = _scan_hex(s[2:])
        if u is None:
            return None
        if u < 32:
            return 0, ("c", u)
        if u > 0x10FFFF or 0xD800 <= u <= 0xDFFF:
            return None
        # A character given by code is a UTF-8 key even when it is ASCII: 0x20 prints as
        # " ", not Space.
        return 0, ("u", chr(u))
    mods = 0
    if len(s) > 1 and s[0] == "^":
        if len(s) == 2:
            c = s[1]
            return _KEY_CTRL, (("c", ord(c.lower() if c.isascii() else c))
                               if ord(c) < 128 else ("u", c))
        mods |= _KEY_CTRL
        s = s[1:]
    while len(s) > 1 and s[1] == "-":
        c = s[0]
        if c in "Cc":
            mods |= _KEY_CTRL
        elif c in "Mm":
            mods |= _KEY_META
        elif c in "Ss":
            mods |= _KEY_SHIFT
        else:
            return None
        s = s[2:]
    if not s:
        return None
    if len(s) == 1 and ord(s) <= 127:
        if ord(s) < 32:
            return None
        return mods, ("c", ord(s))
    if ord(s[0]) > 127:
        if len(s) != 1:
            return None
        return mods, ("u", s)
    found = _KEY_NAMES.get(s.lower())
    if found is not None:
        return mods, found
    if s.startswith("User"):
        user = _scan_unsigned(s[4:])
        if user is not None and user <= _KEY_USER_MAX:
            # tmux prints User keys through an 8-byte buffer: User1000 shows as User100.
            return mods, ("n", f"User{user}"[:7])
    return None


def _key_print(mods: int, key: tuple[str, Any]) -> str:
    """key_string_lookup_key of tmux 3.7b: modifiers as C-, M-, S- then the key's name."""
    out = ""
    if mods & _KEY_CTRL:
        out += "C-"
    if mods & _KEY_META:
        out += "M-"
    if mods & _KEY_SHIFT:
        out += "S-"
    kind, v = key
    if kind != "c":
        return out + v
    if v <= 32:
        return out + _C0_NAMES[v]
    if v == 127:
        return out + "C-?"
    return out + chr(v)


def key_canonical(s: str) -> str | None:
    """Canonical tmux name of key string `s` (what show-options prints), or None if invalid."""
    parsed = _key_parse(s)
    if parsed is None:
        return None
    return _key_print(*parsed)


# ---------------------------------------------------------------------------------------------
# Pluggable behaviour owned by other modules
# ---------------------------------------------------------------------------------------------

def _default_parse_command(s: str) -> Any:
    return s


@dataclass
class OptionHooks:
    """Behaviour other modules own; the integrator replaces these once at start-up.

    key_canonical: key string -> canonical name, or None if it is not a key.
    parse_command: command string -> stored command list (its str() is how show-options prints
        it); raise OptionError(message) or ValueError(message) for a parse error.
    self_names: program names a default-shell may not be (tmux's areshell).
    """

    key_canonical: Callable[[str], str | None] = key_canonical
    parse_command: Callable[[str], Any] = _default_parse_command
    self_names: tuple[str, ...] = ("tmux", "hmux")


HOOKS = OptionHooks()


def check_shell(shell: str | None) -> bool:
    """tmux's checkshell: an absolute, executable path that is not tmux itself."""
    if not shell or shell[0] != "/":
        return False
    base = shell.rsplit("/", 1)[-1]
    if base in HOOKS.self_names:
        return False
    return os.access(shell, os.X_OK)


def default_shell(environ: Mapping[str, str] | None = None) -> str:
    """tmux's getshell: $SHELL, then the passwd shell, then /bin/sh."""
    env = os.environ if environ is None else environ
    shell = env.get("SHELL")
    if check_shell(shell):
        return shell  # type: ignore[return-value]
    try:
        pw_shell = pwd.getpwuid(os.getuid()).pw_shell
    except KeyError:
        pw_shell = None
    if check_shell(pw_shell):
        return pw_shell  # type: ignore[return-value]
    return "/bin/sh"


# ---------------------------------------------------------------------------------------------
# Option names
# ---------------------------------------------------------------------------------------------

#: Asked about a name no entry has while something may still add names (the plugin layer,
#: which loads after a server's first client: its hooks are options); True when it added some,
#: and the name is looked up again.
on_unknown: Callable[[str], bool] | None = None


def find_entry(name: str) -> OptionEntry | None:
    """The table entry for an exact (or old-spelling) option name."""
    oe = OPTIONS_BY_NAME.get(name)
    if oe is None:
        mapped = OTHER_NAMES.get(name)
        if mapped is not None:
            oe = OPTIONS_BY_NAME.get(mapped)
        elif on_unknown is not None and on_unknown(name):
            return find_entry(name)
    return oe


def parse_option_name(s: str) -> tuple[str, int] | None:
    """Split "name[3]" into ("name", 3); ("name", -1) without index; None if malformed."""
    if s == "":
        return None
    cp = s.find("[")
    if cp == -1:
        return s, -1
    end = s.find("]", cp + 1)
    if end == -1 or end != len(s) - 1 or not ("0" <= s[end - 1] <= "9"):
        return None
    # sscanf("[%d]"): blanks, sign, digits; trailing junk after the number is ignored.
    inner = s[cp + 1:end]
    i = 0
    while i < len(inner) and inner[i] in _C_SPACE:
        i += 1
    j = i + (1 if i < len(inner) and inner[i] in "+-" else 0)
    k = j
    while k < len(inner) and "0" <= inner[k] <= "9":
        k += 1
    if k == j:
        return None
    idx = int(inner[i:k])
    if idx < 0 or idx > 0x7fffffff:
        return None
    return s[:cp], idx


def match_option_name(s: str) -> tuple[str, int]:
    """tmux's options_match: full name and index for `s` (unique prefixes allowed).

    Raises OptionError "ambiguous option: s" or "invalid option: s". A malformed name reports
    "ambiguous", as tmux 3.3a does (it reads an unset flag there).
    """
    parsed = parse_option_name(s)
    if parsed is None:
        raise OptionError("ambiguous option: " + s)
    name, idx = parsed
    if name.startswith("@"):
        return name, idx
    name = OTHER_NAMES.get(name, name)
    # An exact match wins, unless two prefix matches come before it in the table. Extension
    # options (IS_EXTENSION) are matched only when no 3.7b option matches, so no 3.7b prefix
    # becomes ambiguous.
    for extension in (False, True):
        found: OptionEntry | None = None
        for oe in OPTION_TABLE:
            if bool(oe.flags & IS_EXTENSION) != extension:
                continue
            if oe.name == name:
                found = oe
                break
            if oe.name.startswith(name):
                if found is not None:
                    raise OptionError("ambiguous option: " + s)
                found = oe
        if found is not None:
            return found.name, idx
    if on_unknown is not None and on_unknown(name):
        return match_option_name(s)
    raise OptionError("invalid option: " + s)


def option_scope(name: str) -> int:
    """Scope bits (SERVER/SESSION/WINDOW/PANE) of an option name or unique prefix; NONE for
    user options (their scope comes from flags). Raises OptionError for unknown names."""
    full, _ = match_option_name(name)
    if full.startswith("@"):
        return NONE
    return OPTIONS_BY_NAME[full].scope


# ---------------------------------------------------------------------------------------------
# Value parsing
# ---------------------------------------------------------------------------------------------

def parse_flag_value(value: str) -> int | None:
    """1/on/yes -> 1, 0/off/no -> 0 (words case-insensitive), otherwise None."""
    if value == "1":
        return 1
    if value == "0":
        return 0
    low = value.lower()
    if low in ("on", "yes"):
        return 1
    if low in ("off", "no"):
        return 0
    return None


def find_choice(oe: OptionEntry, value: str) -> int:
    """Index of `value` among the entry's choices (exact match); raises "unknown value"."""
    try:
        return oe.choices.index(value)
    except ValueError:
        raise OptionError("unknown value: " + value) from None


def _parse_command(value: str) -> Any:
    try:
        return HOOKS.parse_command(value)
    except OptionError:
        raise
    except ValueError as e:
        raise OptionError(str(e)) from None


def _default_value(oe: OptionEntry) -> Any:
    if oe.is_array:
        arr: dict[int, Any] = {}
        if isinstance(oe.default, tuple):
            for i, item in enumerate(oe.default):
                arr[i] = item
        else:
            _array_assign(oe, arr, str(oe.default))
        return arr
    return oe.default


def _array_item_from_string(oe: OptionEntry, value: str) -> Any:
    if oe.type == COMMAND:
        return _parse_command(value)
    if oe.type == COLOUR:
        c = colour_fromstring(value)
        if c == -1:
            raise OptionError("bad colour: " + value)
        return c
    if oe.type == STRING:
        return value
    raise OptionError("wrong array type")


def _first_free(arr: dict[int, Any]) -> int:
    i = 0
    while i in arr:
        i += 1
    return i


def _array_assign(oe: OptionEntry, arr: dict[int, Any], s: str) -> None:
    """options_array_assign: add the items of `s` at the lowest free indexes."""
    sep = oe.separator if oe.separator is not None else " ,"
    if s == "":
        return
    if sep == "":
        arr[_first_free(arr)] = _array_item_from_string(oe, s)
        return
    items: list[str] = []
    start = 0
    for i, c in enumerate(s):
        if c in sep:
            items.append(s[start:i])
            start = i + 1
    items.append(s[start:])
    for item in items:
        if item == "":
            continue
        value = _array_item_from_string(oe, item)
        arr[_first_free(arr)] = value


def _value_to_string(oe: OptionEntry | None, v: Any, numeric: bool) -> str:
    if oe is None:
        return v
    t = oe.type
    if t == STRING or t == KEY:
        return v
    if t == NUMBER:
        return str(v)
    if t == FLAG:
        return str(int(v)) if numeric else ("on" if v else "off")
    if t == CHOICE:
        return oe.choices[v]
    if t == COLOUR:
        return v if isinstance(v, str) else colour_tostring(v)  # FORMAT_COLOUR keeps the text
    return str(v)


# ---------------------------------------------------------------------------------------------
# The option store
# ---------------------------------------------------------------------------------------------

_MISSING: Any = object()
#: name -> entry of the options beyond 3.7b (IS_EXTENSION; options_table.EXTENSION_OPTIONS).
_EXTENSIONS: dict[str, OptionEntry] = {oe.name: oe for oe in EXTENSION_OPTIONS}
_SCOPE_NAMES = {"server": SERVER, "session": SESSION, "window": WINDOW, "pane": PANE}


class Options:
    """One scope's options with a parent for inheritance.

    `scope` is SERVER, SESSION, WINDOW or PANE (what show-options of this store lists).
    Global stores (no parent) hold every option of their scope; unsetting there restores the
    table default instead of removing it.
    """

    __slots__ = ("scope", "parent", "is_global", "_values", "__weakref__")

    def __init__(self, scope: int | str = SESSION, parent: Options | None = None, *,
                 is_global: bool | None = None) -> None:
        self.scope = _SCOPE_NAMES[scope] if isinstance(scope, str) else scope
        self.parent = parent
        self.is_global = parent is None if is_global is None else is_global
        self._values: dict[str, Any] = {}

    @classmethod
    def global_for(cls, scope: int) -> Options:
        """A global store of `scope` filled with every table default of that scope."""
        oo = cls(scope, None, is_global=True)
        for oe in OPTION_TABLE:
            if oe.scope & scope and not oe.flags & IS_EXTENSION:
                oo._values[oe.name] = _default_value(oe)
        return oo

    def child(self, scope: int | None = None) -> Options:
        """A new empty store inheriting from this one (session/window/pane options)."""
        return Options(self.scope if scope is None else scope, self)

    # -- raw lookups ------------------------------------------------------------------------

    def _find(self, name: str) -> tuple[Options | None, Any]:
        oo: Options | None = self
        root = self
        while oo is not None:
            v = oo._values.get(name, _MISSING)
            if v is not _MISSING:
                return oo, v
            root = oo
            oo = oo.parent
        # An extension option nobody set reads as its default through the global store of
        # its scope (which holds no value for it, so listings leave it out).
        oe = _EXTENSIONS.get(name)
        if oe is not None and root.is_global and oe.scope & root.scope:
            return root, _default_value(oe)
        return None, _MISSING

    def is_set(self, name: str) -> bool:
        """Whether a store in the chain holds a value for ``name`` (an extension option reads
        as its default without one)."""
        oo: Options | None = self
        while oo is not None:
            if name in oo._values:
                return True
            oo = oo.parent
        return False

    def has_local(self, name: str) -> bool:
        return OTHER_NAMES.get(name, name) in self._values

    def owner_of(self, name: str) -> Options | None:
        """The store in the parent chain that holds `name` (None if no store does)."""
        return self._find(OTHER_NAMES.get(name, name))[0]

    # -- typed access -----------------------------------------------------------------------

    def _typed(self, name: str, v: Any, idx: int) -> Any:
        oe = OPTIONS_BY_NAME.get(name)
        if oe is None:
            return v
        if oe.is_array:
            if idx != -1:
                return v.get(idx)
            return [v[i] for i in sorted(v)]
        t = oe.type
        if t == FLAG:
            return bool(v)
        if t == CHOICE:
            return oe.choices[v]
        return v

    def _lookup(self, name: str, local: bool) -> Any:
        idx = -1
        if "[" in name:
            parsed = parse_option_name(name)
            if parsed is None:
                return None
            name, idx = parsed
        name = OTHER_NAMES.get(name, name)
        if local:
            v = self._values.get(name, _MISSING)
        else:
            v = self._find(name)[1]
        if v is _MISSING:
            if not name.startswith("@") and name not in OPTIONS_BY_NAME:
                raise KeyError(name)
            return None
        return self._typed(name, v, idx)

    def get(self, name: str) -> Any:
        """Effective value (inherited): str, int, bool (flags), choice name, colour code,
        the items in index order for arrays (get_array keeps the indexes), one item for
        "name[i]". None for unset user options or options of another scope; KeyError for
        names that are not options."""
        if "[" not in name:
            oo: Options | None = self
            while oo is not None:
                v = oo._values.get(name, _MISSING)
                if v is not _MISSING:
                    break
                oo = oo.parent
            else:
                if name in _EXTENSIONS:
                    v = self._find(name)[1]
                    if v is _MISSING:
                        return None
                else:
                    return self._lookup(name, False)
            oe = OPTIONS_BY_NAME.get(name)
            if oe is None:
                return v
            if oe.type == FLAG:
                return bool(v)
            if oe.type == CHOICE:
                return oe.choices[v]
            if oe.flags & IS_ARRAY:
                return [v[i] for i in sorted(v)]
            return v
        return self._lookup(name, False)

    def get_local(self, name: str) -> Any:
        """Like get() but only this store; None when not set here."""
        return self._lookup(name, True)

    def get_array(self, name: str, *, local: bool = False) -> dict[int, Any] | None:
        """An array option's {index: item} (sorted; a copy); None if unset or not an array."""
        name = OTHER_NAMES.get(name, name)
        v = self._values.get(name, _MISSING) if local else self._find(name)[1]
        if not isinstance(v, dict):
            return None
        return dict(sorted(v.items()))

    def get_number(self, name: str) -> int:
        """tmux's options_get_number: the int behind number/flag/choice/colour options."""
        name = OTHER_NAMES.get(name, name)
        v = self._find(name)[1]
        oe = OPTIONS_BY_NAME.get(name)
        if v is _MISSING or oe is None or oe.is_array or oe.type not in (NUMBER, FLAG, CHOICE,
                                                                          COLOUR):
            raise KeyError(name)
        if isinstance(v, str):  # a FORMAT_COLOUR value, read as it is (colour_option expands)
            return colour_option(self, name)
        return int(v)

    def to_string(self, name: str, numeric: bool = False, local: bool = False) -> str | None:
        """tmux's options_to_string of the effective entry ("name[i]" allowed), of this
        store's own entry with ``local``; None if unset. An array without index gives ""."""
        parsed = parse_option_name(name)
        if parsed is None:
            return None
        base, idx = parsed
        base = OTHER_NAMES.get(base, base)
        v = self._values.get(base, _MISSING) if local else self._find(base)[1]
        if v is _MISSING:
            return None
        return _entry_to_string(OPTIONS_BY_NAME.get(base), v, idx, numeric)

    def format_lookup(self, key: str) -> str | None:
        """What #{key} gives for an option found through this store (numeric flags)."""
        return self.to_string(key, numeric=True)

    def get_style(self, name: str, expand: Callable[[str], str] | None = None
                  ) -> Style | None:
        """The parsed style of a *-style option (tmux's options_string_to_style).

        Values containing "#{" are expanded with `expand` first (unexpanded if None); None
        when the value does not parse. The Style returned is a fresh copy.
        """
        value = self.get(name)
        if not isinstance(value, str):
            return None
        if expand is not None and "#{" in value:
            sy = parse_style(expand(value))
            return sy
        sy = _cached_style(value)
        return sy.copy() if sy is not None else None

    # -- iteration ----------------------------------------------------------------------------

    def local_names(self) -> list[str]:
        """Names set in this store, in show-options order (user options sorted, then table)."""
        values = self._values
        users = sorted(n for n in values if n not in OPTIONS_BY_NAME)
        return users + [oe.name for oe in OPTION_TABLE if oe.name in values]

    def __iter__(self) -> Iterator[str]:
        return iter(self.local_names())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.has_local(name)

    def __len__(self) -> int:
        return len(self._values)

    # -- changes ------------------------------------------------------------------------------

    def _entry_for_set(self, name: str) -> OptionEntry | None:
        oe = OPTIONS_BY_NAME.get(name)
        if oe is None and not name.startswith("@"):
            raise OptionError("invalid option: " + name)
        return oe

    def set_value(self, name: str, value: Any) -> None:
        """Store an already-valid value without parsing (server-internal changes such as
        automatic-rename off). Choices accept their name or index, flags a bool."""
        name = OTHER_NAMES.get(name, name)
        oe = self._entry_for_set(name)
        if oe is not None:
            if oe.is_array:
                value = dict(value) if isinstance(value, Mapping) else dict(enumerate(value))
            elif oe.type == CHOICE and isinstance(value, str):
                value = find_choice(oe, value)
            elif oe.type in (FLAG, NUMBER, CHOICE, COLOUR):
                value = int(value)
        self._values[name] = value

    def set(self, name: str, value: Any, *, append: bool = False) -> None:
        """Set from a string exactly as `set-option` would (validation, -a, "name[i]").
        A value that is not a string (bool, int, list) is stored as by set_value."""
        if value is not None and not isinstance(value, str):
            self.set_value(name, value)
            return
        parsed = parse_option_name(name)
        if parsed is None:
            raise OptionError("invalid option: " + name)
        base, idx = parsed
        base = OTHER_NAMES.get(base, base)
        oe = self._entry_for_set(base)
        if idx != -1 and (oe is None or not oe.is_array):
            raise OptionError("not an array: " + name)
        _apply_value(self, base, oe, idx, value, append)

    def append(self, name: str, value: str) -> None:
        self.set(name, value, append=True)

    def unset(self, name: str) -> None:
        """Remove a local value ("name[i]" removes one item); globals reset to the default."""
        parsed = parse_option_name(name)
        if parsed is None:
            raise OptionError("invalid option: " + name)
        base, idx = parsed
        base = OTHER_NAMES.get(base, base)
        if base in self._values:
            _remove_or_default(self, base, idx)

    def array_set(self, name: str, idx: int, value: str, *, append: bool = False) -> None:
        self.set(f"{name}[{idx}]", value, append=append)

    def clear(self) -> None:
        self._values.clear()

    def __repr__(self) -> str:
        names = {SERVER: "server", SESSION: "session", WINDOW: "window", PANE: "pane"}
        kind = names.get(self.scope, str(self.scope))
        return f"<Options {kind}{' global' if self.is_global else ''} {len(self._values)} set>"


@lru_cache(maxsize=512)
def _cached_style(value: str) -> Style | None:
    return parse_style(value)


def option_string(oo: Options, key: str) -> str | None:
    """#{key} through one store (with inheritance): options_parse_get + options_to_string
    with numeric flags; None when the store chain has no such option."""
    return oo.to_string(key, numeric=True)


def format_option_value(key: str, *stores: Options | None) -> str | None:
    """#{key} for an option name: the first store (with inheritance) that has it, in the
    order the caller gives (tmux: server, pane, window, global window, session, global
    session). Flags give 1/0, arrays need an index."""
    for oo in stores:
        if oo is not None:
            v = oo.to_string(key, numeric=True)
            if v is not None:
                return v
    return None


def _entry_to_string(oe: OptionEntry | None, v: Any, idx: int, numeric: bool) -> str:
    if oe is not None and oe.is_array:
        if idx == -1:
            return ""
        item = v.get(idx, _MISSING)
        if item is _MISSING:
            return ""
        return _value_to_string(oe, item, numeric)
    return _value_to_string(oe, v, numeric)


def _remove_or_default(oo: Options, name: str, idx: int) -> None:
    if idx == -1:
        oe = OPTIONS_BY_NAME.get(name)
        if oe is not None and oo.is_global and not oe.flags & IS_EXTENSION:
            oo._values[name] = _default_value(oe)
        else:
            del oo._values[name]
        return
    v = oo._values[name]
    if not isinstance(v, dict):
        raise OptionError("not an array")
    v.pop(idx, None)


def _apply_value(oo: Options, name: str, oe: OptionEntry | None, idx: int, value: str | None,
                 append: bool) -> None:
    """The change part of set-option for one store (no -u/-o handling)."""
    values = oo._values
    if oe is None:
        # User option: a plain string, appended without separator.
        if value is None:
            raise OptionError("empty value")
        old = values.get(name)
        values[name] = old + value if (append and old is not None) else value
        return
    if idx == -1 and not oe.is_array:
        _from_string(oo, oe, name, value, append)
        return
    if value is None:
        raise OptionError("empty value")
    arr = values.get(name)
    if arr is None:
        arr = values[name] = {}
    if idx == -1:
        if not append:
            arr.clear()
        _array_assign(oe, arr, value)
        return
    if oe.type == STRING:
        old = arr.get(idx)
        arr[idx] = old + value if (append and old is not None) else value
        return
    arr[idx] = _array_item_from_string(oe, value)


def _from_string(oo: Options, oe: OptionEntry, name: str, value: str | None,
                 append: bool) -> None:
    """options_from_string for a non-array option."""
    t = oe.type
    if value is None and t != FLAG and t != CHOICE:
        raise OptionError("empty value")
    values = oo._values
    if t == STRING:
        assert value is not None
        effective = oo._find(name)[1]
        local = values.get(name, _MISSING)
        if local is not _MISSING and append:
            sep = oe.separator if oe.separator is not None else ""
            new = local + sep + value
        else:
            new = value
        err: str | None = None
        if name == "default-shell" and not check_shell(new):
            err = "not a suitable shell: " + new
        elif oe.pattern is not None and not fnmatchcase(new, oe.pattern):
            err = "value is invalid: " + new
        elif oe.is_style and "#{" not in new and parse_style(new) is None:
            err = "invalid style: " + new
        elif oe.flags & IS_COLOUR and "#{" not in new and colour_fromstring(new) == -1:
            err = "invalid colour: " + new
        if err is not None:
            # tmux restores the old (possibly inherited) value into this store.
            values[name] = effective
            raise OptionError(err)
        values[name] = new
        return
    if t == NUMBER:
        assert value is not None
        n, errstr = strtonum(value, oe.minimum, oe.maximum)
        if errstr is not None:
            raise OptionError(f"value is {errstr}: {value}")
        values[name] = n
        return
    if t == KEY:
        assert value is not None
        key = HOOKS.key_canonical(value)
        if key is None:
            raise OptionError("bad key: " + value)
        values[name] = key
        return
    if t == COLOUR and oe.flags & FORMAT_COLOUR:
        assert value is not None
        _format_colour_from_string(oo, name, value, append)
        return
    if t == COLOUR:
        assert value is not None
        c = colour_fromstring(value)
        if c == -1:
            raise OptionError("bad colour: " + value)
        values[name] = c
        return
    if t == FLAG:
        if value is None or value == "":
            values[name] = 0 if oo._find(name)[1] else 1
            return
        flag = parse_flag_value(value)
        if flag is None:
            raise OptionError("bad value: " + value)
        values[name] = flag
        return
    if t == CHOICE:
        if value is None:
            choice = oo._find(name)[1]
            if choice < 2:
                choice = 0 if choice else 1
        else:
            choice = find_choice(oe, value)
        values[name] = choice
        return
    if t == COMMAND:
        # A single command list (default-client-command), parsed now as tmux does.
        assert value is not None
        values[name] = _parse_command(value)
        return
    raise OptionError("empty value")


def _format_colour_from_string(oo: Options, name: str, value: str, append: bool) -> None:
    """A FORMAT_COLOUR option set as the development tree sets its string colour options: the
    text is kept as supplied ('' allowed, -a appends to this store's value), a literal that is
    no colour is refused with "invalid colour" and the old (possibly inherited) value put back
    into this store, and a value with "#{" is only checked once expanded, when it is drawn."""
    values = oo._values
    effective = oo._find(name)[1]
    local = values.get(name, _MISSING)
    if local is not _MISSING and append:
        if isinstance(local, int):  # a 3.7b default: as its text ('' for none)
            local = "" if local == -1 else colour_tostring(local)
        new = local + value
    else:
        new = value
    if new != "" and "#{" not in new and colour_fromstring(new) == -1:
        values[name] = effective
        raise OptionError("invalid colour: " + new)
    values[name] = new


def colour_option(oo: Options, name: str, expand: Callable[[str], str] | None = None) -> int:
    """The colour a FORMAT_COLOUR option (or any colour option) draws in, as the development
    tree's style_apply gives it: a 3.7b number as it is; a string expanded with ``expand`` when
    it holds "#{", then '' is -1 (the terminal's default) and a colour its code; what does not
    parse, and default, are 8. Theme colours stay symbolic for the client to resolve."""
    v = oo.get(name)
    if v is None:
        return 8
    if not isinstance(v, str):
        return int(v)
    if expand is not None and "#{" in v:
        v = expand(v)
    if v == "":
        return -1
    c = colour_fromstring(v)
    return 8 if c == -1 else c


# ---------------------------------------------------------------------------------------------
# Global stores
# ---------------------------------------------------------------------------------------------

def new_global_options(environ: Mapping[str, str] | None = None
                       ) -> tuple[Options, Options, Options]:
    """Alias of make_global_options."""
    return make_global_options(environ)


def make_global_options(environ: Mapping[str, str] | None = None
                        ) -> tuple[Options, Options, Options]:
    """(server, global session, global window) stores as a new tmux server has them.

    Environment-derived defaults follow tmux: default-shell from $SHELL/passwd/"/bin/sh"; with
    $VISUAL or $EDITOR set, editor is that and status-keys/mode-keys become vi when its
    basename contains "vi".
    """
    env = os.environ if environ is None else environ
    server = Options.global_for(SERVER)
    session = Options.global_for(SESSION)
    window = Options.global_for(WINDOW)
    session._values["default-shell"] = default_shell(env)
    editor = env.get("VISUAL")
    if editor is None:
        editor = env.get("EDITOR")
    if editor is not None:
        server._values["editor"] = editor
        keys = 1 if "vi" in editor.rsplit("/", 1)[-1] else 0
        session._values["status-keys"] = keys
        window._values["mode-keys"] = keys
    return server, session, window


# ---------------------------------------------------------------------------------------------
# set-option / show-options
# ---------------------------------------------------------------------------------------------

@dataclass
class OptionScopes:
    """The stores a command's target resolved to; None where the target has no such object.

    `target` is the -t text (for "no such session: ..." messages); `window_panes` are the
    option stores of every pane in the target window (for set-option -U).
    """

    server: Options
    global_session: Options
    global_window: Options
    session: Options | None = None
    window: Options | None = None
    pane: Options | None = None
    window_panes: Sequence[Options] = field(default_factory=tuple)
    target: str | None = None

    def _missing(self, what: str) -> OptionError:
        if self.target is not None:
            return OptionError(f"no such {what}: {self.target}")
        return OptionError(f"no current {what}")

    def from_flags(self, *, server: bool = False, global_: bool = False, pane: bool = False,
                   window: bool = False) -> tuple[int, Options]:
        """options_scope_from_flags: the store for a user option or a whole-scope listing."""
        if server:
            return SERVER, self.server
        if pane:
            if self.pane is None:
                raise self._missing("pane")
            return PANE, self.pane
        if window:
            if global_:
                return WINDOW, self.global_window
            if self.window is None:
                raise self._missing("window")
            return WINDOW, self.window
        if global_:
            return SESSION, self.global_session
        if self.session is None:
            raise self._missing("session")
        return SESSION, self.session

    def from_name(self, name: str, *, server: bool = False, global_: bool = False,
                  pane: bool = False, window: bool = False) -> tuple[int, Options]:
        """options_scope_from_name: the store an (exact) option name lives in for a target."""
        if name.startswith("@"):
            return self.from_flags(server=server, global_=global_, pane=pane, window=window)
        oe = OPTIONS_BY_NAME.get(name)
        if oe is None:
            raise OptionError("unknown option: " + name)
        scope = oe.scope
        if scope == SERVER:
            return SERVER, self.server
        if scope == SESSION:
            if global_:
                return SESSION, self.global_session
            if self.session is None:
                raise self._missing("session")
            return SESSION, self.session
        if scope == WINDOW | PANE and pane:
            if self.pane is None:
                raise self._missing("pane")
            return PANE, self.pane
        if global_:
            return WINDOW, self.global_window
        if self.window is None:
            raise self._missing("window")
        return WINDOW, self.window


def set_option(
    scopes: OptionScopes,
    name: str,
    value: str | None = None,
    *,
    append: bool = False,
    format_value: bool = False,
    global_: bool = False,
    only_if_unset: bool = False,
    pane: bool = False,
    quiet: bool = False,
    server: bool = False,
    unset: bool = False,
    unset_panes: bool = False,
    window: bool = False,
    window_command: bool = False,
    expand: Callable[[str], str] | None = None,
) -> str | None:
    """set-option (-a -F -g -o -p -q -s -u -U -w), set-window-option and set-hook semantics.

    `name`/`value` are the command's arguments; `expand` expands formats against the target
    (always applied to the name, to the value with -F). `window_command` is True for
    set-window-option. Returns the full option name when something changed (for the caller's
    "push changes" step), None when nothing was done. Raises OptionError with tmux's message.
    """
    argument = expand(name) if expand is not None else name
    try:
        full, idx = match_option_name(argument)
    except OptionError:
        if quiet:
            return None
        raise
    if value is not None and format_value and expand is not None:
        value = expand(value)
    try:
        scope, oo = scopes.from_name(full, server=server, global_=global_, pane=pane,
                                     window=window or window_command)
    except OptionError:
        if quiet:
            return None
        raise
    is_user = full.startswith("@")
    oe = None if is_user else OPTIONS_BY_NAME[full]
    local = oo._values.get(full, _MISSING)

    if idx != -1 and (oe is None or not oe.is_array):
        raise OptionError("not an array: " + argument)

    if not unset and only_if_unset:
        if idx == -1:
            already = local is not _MISSING
        else:
            already = local is not _MISSING and idx in local
        if already:
            if quiet:
                return None
            raise OptionError("already set: " + argument)

    if unset_panes and scope == WINDOW:
        for po in scopes.window_panes:
            if full in po._values:
                _remove_or_default(po, full, idx)
    if unset or unset_panes:
        if local is _MISSING:
            return None
        _remove_or_default(oo, full, idx)
        return full
    _apply_value(oo, full, oe, idx, value, append)
    return full


def _show_one(out: list[str], oe: OptionEntry | None, name: str, v: Any, idx: int,
              parent: bool, value_only: bool) -> None:
    """cmd_show_options_print."""
    if idx != -1:
        shown = f"{name}[{idx}]"
    else:
        shown = name
        if oe is not None and oe.is_array:
            if not v:
                if not value_only:
                    out.append(name)
                return
            for i in sorted(v):
                _show_one(out, oe, name, v, i, parent, value_only)
            return
    text = _entry_to_string(oe, v, idx, False)
    if value_only:
        out.append(text)
        return
    if oe is None or oe.type == STRING or (oe.type == COLOUR and isinstance(v, str)):
        text = args_escape(text)  # a FORMAT_COLOUR value set is a string, quoted as one
    out.append(f"{shown}{'*' if parent else ''} {text}")


def show_options(
    scopes: OptionScopes,
    name: str | None = None,
    *,
    global_: bool = False,
    include_hooks: bool = False,
    inherited: bool = False,
    pane: bool = False,
    quiet: bool = False,
    server: bool = False,
    value_only: bool = False,
    window: bool = False,
    window_command: bool = False,
    hooks_command: bool = False,
    expand: Callable[[str], str] | None = None,
) -> list[str]:
    """show-options (-A -g -H -p -q -s -v -w), show-window-options and show-hooks.

    Returns the lines tmux prints. -A (`inherited`) adds inherited values marked "name*";
    hooks are listed only with -H (`include_hooks`) or for show-hooks (`hooks_command`, which
    lists nothing else). Raises OptionError with tmux's message.
    """
    out: list[str] = []
    if name is None:
        try:
            scope, oo = scopes.from_flags(server=server, global_=global_, pane=pane,
                                          window=window or window_command)
        except OptionError:
            if quiet:
                return out
            raise
        values = oo._values
        if not hooks_command:
            for uname in sorted(n for n in values if n not in OPTIONS_BY_NAME):
                _show_one(out, None, uname, values[uname], -1, False, value_only)
        for oe in OPTION_TABLE:
            if not oe.scope & scope:
                continue
            if oe.is_hook != hooks_command and not (oe.is_hook and include_hooks):
                continue
            v = values.get(oe.name, _MISSING)
            parent = False
            if v is _MISSING:
                if not inherited or (oe.flags & IS_EXTENSION and not oo.is_set(oe.name)):
                    continue
                v = oo._find(oe.name)[1]
                if v is _MISSING:
                    continue
                parent = True
            if oe.is_array and not v:
                if not value_only:
                    out.append(oe.name + ("*" if parent else ""))
                continue
            if oe.is_array:
                for i in sorted(v):
                    _show_one(out, oe, oe.name, v, i, parent, value_only)
            else:
                _show_one(out, oe, oe.name, v, -1, parent, value_only)
        return out

    argument = expand(name) if expand is not None else name
    try:
        full, idx = match_option_name(argument)
        _, oo = scopes.from_name(full, server=server, global_=global_, pane=pane,
                                 window=window or window_command)
    except OptionError:
        if quiet:
            return out
        raise
    v = oo._values.get(full, _MISSING)
    parent = False
    if v is _MISSING and oo.is_global and full in _EXTENSIONS:
        v = oo._find(full)[1]  # asked for by name: an extension option shows its default
    if inherited and v is _MISSING:
        v = oo._find(full)[1]
        parent = True
    if v is not _MISSING:
        _show_one(out, OPTIONS_BY_NAME.get(full), full, v, idx, parent, value_only)
    elif full.startswith("@"):
        if quiet:
            return out
        raise OptionError("invalid option: " + argument)
    return out
