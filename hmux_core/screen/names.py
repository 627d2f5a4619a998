"""What a pane may name: titles, paths, window names and hyperlink URIs (tmux 3.7b's clean_name,
utf8_isvalid and utf8_strvis).

Pane output arrives as bytes; the engines hand these functions the bytes as a latin-1 ``str``
(one character per byte), so the checks below are tmux's byte-level ones and the result is the
decoded text.
"""

from __future__ import annotations

from .cells import char_width

VIS_OCTAL = 0x01
VIS_CSTYLE = 0x02
VIS_TAB = 0x08
VIS_NL = 0x10

_CSTYLE = {"\n": "\\n", "\r": "\\r", "\b": "\\b", "\a": "\\a", "\v": "\\v", "\t": "\\t",
           "\f": "\\f", " ": "\\s"}


def utf8_char_at(raw: str, i: int) -> str | None:
    """The character a complete UTF-8 sequence at ``raw[i]`` decodes to (utf8_open/append:
    lead byte, continuation bytes, a character mbtowc accepts), else None."""
    b = ord(raw[i])
    if 0xC2 <= b <= 0xDF:
        size = 2
    elif 0xE0 <= b <= 0xEF:
        size = 3
    elif 0xF0 <= b <= 0xF4:
        size = 4
    else:
        return None
    chunk = raw[i:i + size]
    if len(chunk) != size:
        return None
    try:
        ch = chunk.encode("latin-1").decode("utf-8")
    except UnicodeDecodeError:
        return None
    return ch if char_width(ch) >= 0 else None


def utf8_isvalid(raw: str) -> str | None:
    """tmux's utf8_isvalid: printable ASCII and complete UTF-8 characters only. Returns the
    decoded text, or None."""
    if raw.isascii():
        for ch in raw:
            if ch < " " or ch > "~":
                return None
        return raw
    out = []
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c >= "\x80":
            ch = utf8_char_at(raw, i)
            if ch is None:
                return None
            out.append(ch)
            i += len(ch.encode("utf-8"))
            continue
        if c < " " or c > "~":
            return None
        out.append(c)
        i += 1
    return "".join(out)


def _vis(c: str, flags: int, nextc: str) -> str:
    """One byte through OpenBSD vis(3) (tmux's compat/vis.c) with VIS_OCTAL|VIS_CSTYLE."""
    o = ord(c)
    if ("!" <= c <= "~" or c == " " or (c == "\t" and not flags & VIS_TAB)
            or (c == "\n" and not flags & VIS_NL)):
        return "\\\\" if c == "\\" else c
    if c in _CSTYLE:
        return _CSTYLE[c]
    if o == 0:
        return "\\000" if "0" <= nextc <= "7" else "\\0"
    return f"\\{o:03o}"


def strvis(raw: str, flags: int = VIS_OCTAL | VIS_CSTYLE) -> str:
    """tmux 3.7b's utf8_strvis without VIS_DQ: complete UTF-8 characters kept, every other byte
    through vis(3) (a backslash doubled, controls and stray bytes as octal)."""
    if raw.isascii() and "\\" not in raw and all(" " <= c <= "~" for c in raw):
        return raw
    out = []
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c >= "\x80":
            ch = utf8_char_at(raw, i)
            if ch is not None:
                out.append(ch)
                i += len(ch.encode("utf-8"))
                continue
        out.append(_vis(c, flags, raw[i + 1] if i + 1 < n else ""))
        i += 1
    return "".join(out)


def clean_name(raw: str, untrusted: bool = True) -> str | None:
    """tmux 3.7b's clean_name for a title, path or window name: None unless valid (printable
    ASCII and UTF-8); from a pane (``untrusted``) ``#(`` loses its ``#`` so a format cannot
    run a command; then vis-encoded (a backslash is doubled)."""
    text = utf8_isvalid(raw)
    if text is None:
        return None
    if untrusted and "#(" in text:
        text = text.replace("#(", "_(")
    if "\\" in text:
        text = text.replace("\\", "\\\\")
    return text
