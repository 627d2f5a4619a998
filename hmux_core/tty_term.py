"""What an attached client's terminal can do: its terminfo entry plus tmux's terminal features.

tmux 3.7b decides whether to send a title, a clipboard write, a hyperlink or anything else
optional to a client's terminal from the terminal's capabilities: the terminfo entry for the
client's TERM, with the features of ``terminal-features`` (and the client's ``-T`` features and
``COLORTERM``) applied over it, and ``bpaste,focus,title`` added for any VT100-like terminal
(tty-term.c). Only the capabilities hmux uses are kept here, with ``terminal-overrides`` applied
over them as tmux applies it and the colour depth tmux draws with (``colour_depth``). Features
the terminal reports in its DA1/DA2/XTVERSION replies come in as client feature bits.
"""

from __future__ import annotations

import fnmatch
import functools
import re
import subprocess
from collections.abc import Sequence

#: tty-features.c's table order: bit ``i`` of MSG_IDENTIFY_FEATURES is feature ``FEATURES[i]``.
FEATURES = ("256", "bpaste", "ccolour", "clipboard", "hyperlinks", "cstyle", "extkeys", "focus",
            "ignorefkeys", "margins", "mouse", "osc7", "overline", "progressbar", "rectfill",
            "RGB", "sixel", "strikethrough", "sync", "title", "usstyle")
_FEATURE_NAMES = {f.lower(): f for f in FEATURES}
#: Not terminfo names: tmux's term flags (TERM_256COLOURS, TERM_VT100LIKE) and the features the
#: terminal ended up with (``client_termfeatures``), in the same dict.
FLAG_256, FLAG_VT100, FEATURE_LIST = "+256", "+vt100", "+features"
#: The client was marked UTF-8 by a terminal-features "utf8" entry (beyond 3.7b).
FEATURE_UTF8 = "+utf8"
#: The capabilities a feature sets, for those hmux uses.
FEATURE_CAPS = {
    "title": {"tsl": "\033]0;", "fsl": "\007"},
    "clipboard": {"Ms": "\033]52;%p1%s;%p2%s\007"},
    "bpaste": {"Enbp": "\033[?2004h", "Dsbp": "\033[?2004l"},
    "cstyle": {"Ss": "\033[%p1%d q", "Se": "\033[2 q"},
    "ccolour": {"Cs": "\033]12;%p1%s\007", "Cr": "\033]112\007"},
    "RGB": {"setrgbf": "\033[38;2;%p1%d;%p2%d;%p3%dm", "setrgbb": "\033[48;2;%p1%d;%p2%d;%p3%dm",
            FLAG_256: ""},
    "256": {FLAG_256: ""},
    "osc7": {"Swd": "\033]7;", "fsl": "\007"},
    "mouse": {"kmous": "\033[M"},
    "usstyle": {"Smulx": "\033[4:%p1%dm", "Setulc1": "\033[58:5:%p1%dm", "ol": "\033[59m",
                "Setulc": "\033[58:2:%p1%{65536}%/%d:%p1%{256}%/%{255}%&%d:%p1%{255}%&%d%;m"},
    "overline": {"Smol": "\033[53m"},
    "strikethrough": {"smxx": "\033[9m"},
    "hyperlinks": {"Hls": "\033]8;%?%p1%l%tid=%p1%s%;;%p2%s\033\\"},
    "sync": {"Sync": "\033[?2026%?%p1%{1}%-%tl%eh%;"},
    "focus": {"Enfcs": "\033[?1004h", "Dsfcs": "\033[?1004l"},
    "extkeys": {"Eneks": "\033[>4;2m", "Dseks": "\033[>4m"},
    "margins": {"Enmg": "\033[?69h", "Dsmg": "\033[?69l", "Clmg": "\033[s",
                "Cmg": "\033[%i%p1%d;%p2%ds"},
    "rectfill": {"Rect": ""},
    "progressbar": {"Spb": "\033]9;4;%p1%d;%p2%d\033\\"},
}
_WANTED = ("am", "clear", "tsl", "fsl", "Ms", "Enbp", "Dsbp", "Ss", "Se", "Cs", "Cr", "colors", "Tc",
           "RGB", "setrgbf", "setrgbb", "XT", "Swd", "kmous", "Smulx", "Setulc", "Setulc1", "setal",
           "ol", "Smol", "smxx", "Nobr", "Hls", "Sync", "el", "el1", "ech", "bce", "AX", "Enfcs",
           "Dsfcs", "Eneks", "Dseks", "Spb", "Rect", "Cmg", "Clmg")
_ESCAPES = {"E": "\033", "e": "\033", "n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f",
            "s": " ", "0": "\200", "\\": "\\", ",": ",", ":": ":", "^": "^", "l": "\n"}


def _unescape(v: str) -> str:
    """infocmp's string syntax (``\\E``, ``^G``, ``\\072``) to the bytes it means."""
    def one(m: re.Match) -> str:
        s = m.group(0)
        if s[0] == "^":
            return "\177" if s[1] == "?" else chr(ord(s[1].upper()) & 0x1F)
        if s[1:].isdigit():
            return chr(int(s[1:], 8))
        return _ESCAPES.get(s[1], s[1])
    return re.sub(r"\\[0-7]{3}|\\.|\^.", one, v)


@functools.lru_cache(maxsize=32)
def terminfo(term: str) -> tuple[tuple[str, str], ...]:
    """The capabilities we use from ``term``'s terminfo entry (flags map to "")."""
    try:
        p = subprocess.run(["infocmp", "-1", "-x", term], capture_output=True, text=True,
                           timeout=5, errors="surrogateescape")
    except (OSError, subprocess.SubprocessError):
        return ()
    if p.returncode != 0:
        return ()
    caps = []
    for line in p.stdout.splitlines():
        line = line.strip().rstrip(",")
        if not line or line.startswith("#") or "|" in line:
            continue
        if "=" in line:
            name, _, value = line.partition("=")
            value = _unescape(value)
        elif "#" in line:  # a number: colors#0x100
            name, _, value = line.partition("#")
        else:
            name, value = line, ""
        if name in _WANTED:
            caps.append((name, value))
    return tuple(caps)


def _fields(s: str) -> list[str]:
    """tty_term_override_next: ``:``-separated fields, ``::`` standing for a colon."""
    return [f.replace("\0", ":") for f in s.replace("::", "\0").split(":")]


def _apply_overrides(caps: dict[str, str], term: str, overrides: Sequence[str]) -> None:
    """tty_term_apply_overrides: ``pattern:cap=value:cap@:flag`` entries whose pattern matches."""
    for entry in overrides:
        first, *rest = _fields(str(entry))
        if not first or not fnmatch.fnmatchcase(term, first):
            continue
        for field in rest:
            if not field:
                continue
            name, eq, value = field.partition("=")
            if eq:
                caps[name] = _unescape(value)
            elif name.endswith("@"):
                caps.pop(name[:-1], None)
            else:
                caps[name] = ""


def capabilities(term: str, terminal_features: Sequence[str], client_features: int = 0,
                 terminal_overrides: Sequence[str] = (), colorterm: str | None = None
                 ) -> dict[str, str]:
    """tty_term_create's result for the capabilities hmux uses (tsl, fsl, Ms, Ss, setrgbf, ...)
    and tmux's term flags (``FLAG_256``, ``FLAG_VT100``). ``colorterm`` is the client's
    ``COLORTERM``: ``truecolor`` or ``24bit`` adds RGB, anything with 256 in it 256 colours
    (tmux 3.6)."""
    caps = dict(terminfo(term))
    feats: set[str] = {f for i, f in enumerate(FEATURES) if client_features & (1 << i)}
    # Beyond 3.7b (tmux's development tree; docs/extensions.md): "name@" removes a feature
    # and keeps it from being added later (by the VT100 defaults, Tc, COLORTERM or the
    # terminal's replies); "utf8" marks the client UTF-8 (the seed's).
    disabled: set[str] = set()
    for entry in terminal_features:
        pattern, *rest = _fields(str(entry))
        if pattern and fnmatch.fnmatchcase(term, pattern):
            for name in rest:  # tty_add_features: any case; an unknown name ends the list
                remove = name.endswith("@")
                if remove:
                    name = name[:-1]
                if name.lower() == "utf8":
                    if remove:
                        disabled.add("utf8")
                        caps.pop(FEATURE_UTF8, None)
                    elif "utf8" not in disabled:
                        caps[FEATURE_UTF8] = ""
                    continue
                known = _FEATURE_NAMES.get(name.lower())
                if known is None:
                    break
                if remove:
                    feats.discard(known)
                    disabled.add(known)
                elif known not in disabled:
                    feats.add(known)

    def add(*names: str) -> None:
        feats.update(n for n in names if n not in disabled)

    if colorterm is not None:
        if colorterm.lower() in ("truecolor", "24bit"):
            add("RGB")
        elif "256" in colorterm:
            add("256")
    _apply_overrides(caps, term, terminal_overrides)
    if "XT" in caps or caps.get("clear", "").startswith("\033["):
        caps[FLAG_VT100] = ""
        add("bpaste", "focus", "title")
    if ("Tc" in caps or "RGB" in caps) and not ("setrgbf" in caps and "setrgbb" in caps):
        add("RGB")
    for f in feats:
        caps.update(FEATURE_CAPS.get(f, {}))
    _apply_overrides(caps, term, terminal_overrides)
    caps[FEATURE_LIST] = ",".join(f for f in FEATURES if f in feats)
    return caps


def colour_depth(caps: dict[str, str]) -> tuple[bool, int]:
    """(RGB, number of colours) the terminal is drawn with: RGB with setrgbf and setrgbb,
    256 with the 256 or RGB feature, else terminfo's ``colors``."""
    rgb = "setrgbf" in caps and "setrgbb" in caps
    if FLAG_256 in caps:
        return rgb, 256
    try:
        return rgb, int(caps.get("colors", "0"), 0)
    except ValueError:
        return rgb, 0


#: tty_default_features: what a terminal that names itself in its DA or XTVERSION reply has.
_MODERN_XTERM = "256,RGB,bpaste,clipboard,mouse,strikethrough,title"
DEFAULT_FEATURES = {
    "mintty": _MODERN_XTERM + ",ccolour,cstyle,extkeys,margins,overline,usstyle",
    "tmux": _MODERN_XTERM + ",ccolour,cstyle,extkeys,focus,overline,usstyle,hyperlinks,"
            "progressbar",
    "rxvt-unicode": "256,bpaste,ccolour,cstyle,mouse,title,ignorefkeys",
    "iTerm2": _MODERN_XTERM + ",cstyle,extkeys,margins,usstyle,sync,osc7,hyperlinks,progressbar",
    "foot": _MODERN_XTERM + ",ccolour,cstyle,extkeys,usstyle,sync,osc7,hyperlinks",
    "WezTerm": _MODERN_XTERM + ",ccolour,cstyle,extkeys,focus,usstyle",
    "XTerm": _MODERN_XTERM + ",ccolour,cstyle,extkeys,focus",
}


def feature_bits(names: str) -> int:
    """MSG_IDENTIFY_FEATURES bits for a comma list of feature names (tty_add_features: any
    case; an unknown name ends the list)."""
    bits = 0
    for name in names.split(","):
        known = _FEATURE_NAMES.get(name.lower())
        if known is None:
            break
        bits |= 1 << FEATURES.index(known)
    return bits


def reply_features(reply: bytes) -> tuple[int, str | None] | None:
    """The features a DA1 (``ESC [ ? … c``), DA2 (``ESC [ > … c``) or XTVERSION
    (``ESC P > | … ESC \\``) reply brings, and the terminal's name from XTVERSION
    (``client_termtype``); None for anything else. tty_keys_device_attributes, _attributes2
    and _extended_device_attributes: a DA1 of level 1 to 5 lists sixel (4), DECSLRM (21),
    DECFRA (28) and OSC 52 (52); a DA2 names mintty, tmux or rxvt-unicode; XTVERSION names
    the others."""
    if reply.startswith(b"\x1bP>|") and reply.endswith(b"\x1b\\"):
        text = reply[4:-2].decode("utf-8", "replace")
        for prefix, name in (("iTerm2 ", "iTerm2"), ("tmux ", "tmux"), ("XTerm(", "XTerm"),
                             ("mintty ", "mintty"), ("foot(", "foot"), ("WezTerm", "WezTerm")):
            if text.startswith(prefix):
                return feature_bits(DEFAULT_FEATURES[name]), text
        return 0, text
    if reply.startswith((b"\x1b[>", b"\x1b[?")) and reply.endswith(b"c"):
        params = [int(p) if p.isdigit() else 0 for p in reply[3:-1].split(b";")][:32]
        if reply[2:3] == b"?":
            bits = 0
            if 61 <= params[0] <= 65:
                for p in params[1:]:
                    name = {4: "sixel", 21: "margins", 28: "rectfill", 52: "clipboard"}.get(p)
                    if name is not None:
                        bits |= feature_bits(name)
            return bits, None
        name = {ord("M"): "mintty", ord("T"): "tmux", ord("U"): "rxvt-unicode"}.get(params[0])
        return (feature_bits(DEFAULT_FEATURES[name]) if name else 0), None
    return None


def features_sequence(caps: dict[str, str], extended_keys: bool, focus: bool) -> bytes:
    """tty_update_features: what a terminal is asked for once its features are known (after
    each DA answer, or when none came): extended keys (Eneks) with ``extended-keys`` on or
    always, focus reports (Enfcs) with ``focus-events``, and mintty's escape key mode for a
    VT100-like terminal."""
    out = ""
    if extended_keys:
        out += caps.get("Eneks", "")
    if focus:
        out += caps.get("Enfcs", "")
    if FLAG_VT100 in caps:
        out += "\033[?7727h"
    return out.encode("latin-1", "replace")


def stop_sequence(caps: dict[str, str]) -> bytes:
    """tty_stop_tty's part for features: focus reports, extended keys and the escape key
    mode off, theme reports off (VT100-like)."""
    out = ""
    if FLAG_VT100 in caps:
        out += "\033[?7727l"
    out += caps.get("Dsfcs", "") + caps.get("Dseks", "")
    if FLAG_VT100 in caps:
        out += "\033[?2031l"
    return out.encode("latin-1", "replace")


def progress_sequence(caps: dict[str, str], state: int, percent: int) -> bytes:
    """tty_set_progress_bar: Spb (the progressbar feature) with the state and percentage."""
    spb = caps.get("Spb")
    if not spb:
        return b""
    out = spb.replace("%p1%d", str(state), 1).replace("%p2%d", str(percent), 1)
    return out.encode("latin-1", "replace")


def title_sequence(caps: dict[str, str], title: str) -> bytes | None:
    """tty_set_title: tsl, the title, fsl; None if the terminal cannot set one."""
    tsl, fsl = caps.get("tsl"), caps.get("fsl")
    if not tsl or not fsl:
        return None
    return (tsl + title + fsl).encode("utf-8", "surrogateescape")


def path_sequence(caps: dict[str, str], path: str) -> bytes | None:
    """tty_set_path: Swd, the directory, fsl; None without the osc7 feature."""
    swd, fsl = caps.get("Swd"), caps.get("fsl")
    if not swd or not fsl:
        return None
    return (swd + path + fsl).encode("utf-8", "surrogateescape")


def selection_sequence(caps: dict[str, str], data: bytes) -> bytes | None:
    """tty_set_selection: Ms with an empty selection parameter and the base64 data."""
    import base64

    ms = caps.get("Ms")
    if not ms:
        return None
    out = ms.replace("%p1%s", "", 1).replace("%p2%s", base64.b64encode(data).decode(), 1)
    return out.encode("latin-1", "replace")


def param(cap: str, value: int | str) -> str:
    """tparm for the one-parameter capabilities used here (``%p1%d`` / ``%p1%s``)."""
    return cap.replace("%p1%d", str(value), 1).replace("%p1%s", str(value), 1)
