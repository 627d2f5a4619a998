"""vis(3) as tmux uses it on bytes: buffer samples, show-buffer, tree-mode previews.

(Names and titles go through ``screen.names.clean_name``, which works on text.)
"""

from __future__ import annotations

# vis(3) flags tmux passes (compat/vis.h values).
VIS_OCTAL = 0x01
VIS_CSTYLE = 0x02
VIS_SP = 0x04
VIS_TAB = 0x08
VIS_NL = 0x10
VIS_SAFE = 0x20
VIS_NOSLASH = 0x40
VIS_GLOB = 0x100
VIS_ALL = 0x400
VIS_DQ = 0x200


_CSTYLE = {0x0A: b"\\n", 0x0D: b"\\r", 0x08: b"\\b", 0x07: b"\\a", 0x0B: b"\\v", 0x09: b"\\t",
           0x0C: b"\\f", 0x20: b"\\s"}


def _isvisible(c: int, flags: int) -> bool:
    """compat/vis.c's isvisible for one byte."""
    if flags & VIS_ALL and c != 0x5C:
        return False
    graph = 0x21 <= c <= 0x7E
    if graph and not (flags & VIS_GLOB and c in (0x2A, 0x3F, 0x5B, 0x23)):
        return True
    return ((c == 0x20 and not flags & VIS_SP) or (c == 0x09 and not flags & VIS_TAB)
            or (c == 0x0A and not flags & VIS_NL)
            or (bool(flags & VIS_SAFE) and c in (0x08, 0x07, 0x0D)))


def _vis(c: int, flags: int, nextc: int) -> bytes:
    """One byte through OpenBSD vis(3) (tmux's compat/vis.c)."""
    if _isvisible(c, flags):
        if (c == 0x22 and flags & VIS_DQ) or (c == 0x5C and not flags & VIS_NOSLASH):
            return b"\\" + bytes([c])
        return bytes([c])
    if flags & VIS_CSTYLE:
        if c in _CSTYLE:
            return _CSTYLE[c]
        if c == 0:
            return b"\\000" if 0x30 <= nextc <= 0x37 else b"\\0"
    if (c & 0x7F) == 0x20 or flags & VIS_OCTAL or (
            flags & VIS_GLOB and c in (0x2A, 0x3F, 0x5B, 0x23)):
        return b"\\%03o" % c
    out = b"" if flags & VIS_NOSLASH else b"\\"
    if c & 0x80:
        c &= 0x7F
        out += b"M"
    if c < 0x20 or c == 0x7F:
        return out + (b"^?" if c == 0x7F else b"^" + bytes([c + 64]))
    return out + b"-" + bytes([c])


def _utf8_char(data: bytes, i: int) -> int:
    """Length of a complete, printable UTF-8 character at ``data[i]`` (utf8_open/append), or 0:
    the same rule as names and titles (``screen.names.utf8_char_at``)."""
    from .screen.names import utf8_char_at

    ch = utf8_char_at(data[i:i + 4].decode("latin-1"), 0)
    return len(ch.encode("utf-8")) if ch is not None else 0


def strvis(data: bytes, flags: int) -> bytes:
    """tmux's utf8_strvis: valid UTF-8 kept, ``$`` before a name escaped with VIS_DQ, the rest
    vis(3)."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if b >= 0x80:
            size = _utf8_char(data, i)
            if size:
                out += data[i:i + size]
                i += size
                continue
        nextc = data[i + 1] if i + 1 < n else 0
        if flags & VIS_DQ and b == 0x24 and i < n - 1:
            if (0x41 <= nextc <= 0x5A or 0x61 <= nextc <= 0x7A or nextc in (0x5F, 0x7B)):
                out += b"\\"
            out += b"$"
        else:
            out += _vis(b, flags, nextc)
        i += 1
    return bytes(out)
