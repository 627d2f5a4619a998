"""What an attached client's terminal can do: its terminfo entry plus tmux's terminal features.

tmux 3.3a decides whether to send a title, a clipboard write or anything else optional to a
client's terminal from the terminal's capabilities: the terminfo entry for the client's TERM,
with the features of ``terminal-features`` (and the client's ``-T`` features) applied over it,
and ``bpaste,focus,title`` added for any VT100-like terminal (tty-term.c). Only the capabilities
hmux draws with are kept here, with ``terminal-overrides`` applied over them as tmux applies it
and the colour depth tmux draws with (``colour_depth``). Features the terminal reports in its
DA/XTVERSION replies come in as client feature bits.
"""

from __future__ import annotations

import fnmatch
import functools
import re
import subprocess
from collections.abc import Sequence

#: tty-features.c's table order: bit ``i`` of MSG_IDENTIFY_FEATURES is feature ``FEATURES[i]``.
FEATURES = ("256", "bpaste", "ccolour", "clipboard", "cstyle", "extkeys", "focus", "margins",
            "mouse", "osc7", "overline", "rectfill", "RGB", "strikethrough", "sync", "title",
            "usstyle")
#: Not terminfo names: tmux's term flags (TERM_256COLOURS, TERM_VT100LIKE), in the same dict.
FLAG_256, FLAG_VT100 = "+256", "+vt100"
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
}
_WANTED = ("clear", "tsl", "fsl", "Ms", "Enbp", "Dsbp", "Ss", "Se", "Cs", "Cr", "colors", "Tc",
           "RGB", "setrgbf", "setrgbb", "XT")
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
                 terminal_overrides: Sequence[str] = ()) -> dict[str, str]:
    """tty_term_create's result for the capabilities hmux uses (tsl, fsl, Ms, Ss, setrgbf, ...)
    and tmux's term flags (``FLAG_256``, ``FLAG_VT100``)."""
    caps = dict(terminfo(term))
    feats: set[str] = {f for i, f in enumerate(FEATURES) if client_features & (1 << i)}
    for entry in terminal_features:
        pattern, *rest = _fields(str(entry))
        if pattern and fnmatch.fnmatchcase(term, pattern):
            feats.update(x for x in rest if x)
    _apply_overrides(caps, term, terminal_overrides)
    if "XT" in caps or caps.get("clear", "").startswith("\033["):
        caps[FLAG_VT100] = ""
        feats.update(("bpaste", "focus", "title"))
    if ("Tc" in caps or "RGB" in caps) and not ("setrgbf" in caps and "setrgbb" in caps):
        feats.add("RGB")
    for f in feats:
        caps.update(FEATURE_CAPS.get(f, {}))
    _apply_overrides(caps, term, terminal_overrides)
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


def feature_names(caps_features: int) -> str:
    """tty_get_features: the feature bits as tmux lists them (``client_termfeatures``)."""
    return ",".join(f for i, f in enumerate(FEATURES) if caps_features & (1 << i))


def title_sequence(caps: dict[str, str], title: str) -> bytes | None:
    """tty_set_title: tsl, the title, fsl; None if the terminal cannot set one."""
    tsl, fsl = caps.get("tsl"), caps.get("fsl")
    if not tsl or not fsl:
        return None
    return (tsl + title + fsl).encode("utf-8", "surrogateescape")


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
