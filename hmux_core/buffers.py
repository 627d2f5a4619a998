"""Paste buffers as tmux 3.3a's paste.c keeps them.

Buffers are named (``-b name``) or automatic (``buffer0``, ``buffer1``, … from one counter that
never goes back); every change gets a new order number and "the top buffer" is simply the most
recent one, named or not (paste_get_top). Only automatic buffers count against
``buffer-limit``; the oldest automatic ones go when a new automatic buffer is added.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

# vis(3) flags tmux passes (compat/vis.h values).
VIS_OCTAL = 0x01
VIS_CSTYLE = 0x02
VIS_SP = 0x04
VIS_TAB = 0x08
VIS_NL = 0x10
VIS_DQ = 0x200
SAMPLE_WIDTH = 200


def clean_name(name: str) -> str | None:
    """tmux 3.7b's clean_name: a name made visible (tabs, newlines, controls as C escapes);
    None when it is not valid UTF-8."""
    raw = name.encode("utf-8", "surrogateescape")
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return strvis(raw, VIS_OCTAL | VIS_CSTYLE | VIS_TAB | VIS_NL).decode("utf-8", "surrogateescape")


@dataclass
class PasteBuffer:
    name: str
    data: bytes
    automatic: bool
    order: int
    created: float = field(default_factory=time.time)

    def sample(self) -> str:
        """paste_make_sample: the first 200 bytes made visible, ``...`` when cut."""
        out = strvis(self.data[:SAMPLE_WIDTH], VIS_OCTAL | VIS_CSTYLE | VIS_TAB | VIS_NL)
        if len(self.data) > SAMPLE_WIDTH or len(out) > SAMPLE_WIDTH:
            out = out[:SAMPLE_WIDTH] + b"..."
        return out.decode("utf-8", "surrogateescape")

    def format_values(self) -> dict[str, str]:
        """The ``buffer_*`` format variables (format_defaults_paste_buffer)."""
        full = self.data.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")
        return {"buffer_name": self.name, "buffer_size": str(len(self.data)),
                "buffer_sample": self.sample(), "buffer_created": str(int(self.created)),
                "buffer_full": full}


class Buffers:
    """The server's paste buffers; ``limit`` is read at each automatic add, as tmux does."""

    def __init__(self, limit: int | Callable[[], int] = 50) -> None:
        self._limit = limit
        self.by_name: dict[str, PasteBuffer] = {}
        self._next_index = 0
        self._next_order = 0
        #: notify_paste_buffer: called with (name, deleted) whenever a buffer changes or goes.
        self.on_change: Callable[[str, bool], None] = lambda name, deleted: None

    @property
    def limit(self) -> int:
        return self._limit() if callable(self._limit) else self._limit

    @limit.setter
    def limit(self, value: int | Callable[[], int]) -> None:
        self._limit = value

    def _order(self) -> int:
        self._next_order += 1
        return self._next_order

    def sorted(self) -> list[PasteBuffer]:
        """Most recent first, as tmux's paste_walk."""
        return sorted(self.by_name.values(), key=lambda b: -b.order)

    def top(self) -> PasteBuffer | None:
        """paste_get_top: the most recent automatic buffer (3.7b skips named ones)."""
        return max((b for b in self.by_name.values() if b.automatic), key=lambda b: b.order,
                   default=None)

    def add(self, data: bytes, prefix: str = "buffer") -> PasteBuffer | None:
        """paste_add: a new automatic buffer (nothing for empty data)."""
        if not data:
            return None
        limit = self.limit
        autos = sum(1 for b in self.by_name.values() if b.automatic)
        for old in sorted(self.by_name.values(), key=lambda b: b.order):
            if autos < limit:
                break
            if old.automatic:
                del self.by_name[old.name]
                self.on_change(old.name, True)
                autos -= 1
        while True:
            name = f"{prefix}{self._next_index}"
            self._next_index += 1
            if name not in self.by_name:
                break
        pb = PasteBuffer(name, data, True, self._order())
        self.by_name[name] = pb
        self.on_change(name, False)
        return pb

    def set(self, data: bytes, name: str | None = None) -> str | None:
        """paste_set: add (no name) or replace a named buffer; tmux's error text or None."""
        if not data:
            return None
        if name is None:
            self.add(data)
            return None
        if not name:
            return "empty buffer name"
        clean = clean_name(name)
        if clean is None:
            return f"invalid buffer name: {name}"
        name = clean
        if self.by_name.pop(name, None) is not None:
            self.on_change(name, True)
        self.by_name[name] = PasteBuffer(name, data, False, self._order())
        self.on_change(name, False)
        return None

    def rename(self, old: str | None, new: str | None) -> str | None:
        """paste_rename: the buffer keeps its data and order but is no longer automatic."""
        if not old:
            return "no buffer"
        if not new:
            return "new name is empty"
        clean = clean_name(new)
        if clean is None:
            return f"invalid buffer name: {new}"
        new = clean
        pb = self.by_name.get(old)
        if pb is None:
            return f"no buffer {old}"
        other = self.by_name.get(new)
        if other is pb:
            return None
        if other is not None:  # 3.7b replaces a buffer of the new name
            self.delete(new)
        del self.by_name[old]
        pb.name = new
        pb.automatic = False
        self.by_name[new] = pb
        self.on_change(old, True)
        self.on_change(new, False)
        return None

    def get(self, name: str | None) -> PasteBuffer | None:
        if not name:
            return None
        return self.by_name.get(name)

    def delete(self, name: str) -> bool:
        if self.by_name.pop(name, None) is None:
            return False
        self.on_change(name, True)
        return True


_CSTYLE = {0x0A: b"\\n", 0x0D: b"\\r", 0x08: b"\\b", 0x07: b"\\a", 0x0B: b"\\v", 0x09: b"\\t",
           0x0C: b"\\f", 0x20: b"\\s"}
_BAD_CATEGORIES = frozenset(("Cc", "Cs", "Cn", "Zl", "Zp"))


def _vis(c: int, flags: int, nextc: int) -> bytes:
    """One byte through OpenBSD vis(3) (tmux's compat/vis.c), for the flags tmux uses."""
    visible = (0x21 <= c <= 0x7E or (c == 0x20 and not flags & VIS_SP)
               or (c == 0x09 and not flags & VIS_TAB) or (c == 0x0A and not flags & VIS_NL))
    if visible:
        return b"\\\\" if c == 0x5C else bytes([c])
    if flags & VIS_CSTYLE:
        if c in _CSTYLE:
            return _CSTYLE[c]
        if c == 0:
            return b"\\000" if 0x30 <= nextc <= 0x37 else b"\\0"
    if (c & 0x7F) == 0x20 or flags & VIS_OCTAL:
        return b"\\%03o" % c
    out = b"\\"
    if c & 0x80:
        c &= 0x7F
        out += b"M"
    if c < 0x20 or c == 0x7F:
        return out + (b"^?" if c == 0x7F else b"^" + bytes([c + 64]))
    return out + b"-" + bytes([c])


def _utf8_char(data: bytes, i: int) -> int:
    """Length of a complete, printable UTF-8 character at ``data[i]`` (utf8_open/append), or 0."""
    b = data[i]
    if 0xC2 <= b <= 0xDF:
        size = 2
    elif 0xE0 <= b <= 0xEF:
        size = 3
    elif 0xF0 <= b <= 0xF4:
        size = 4
    else:
        return 0
    chunk = data[i:i + size]
    if len(chunk) != size:
        return 0
    try:
        ch = chunk.decode("utf-8")
    except UnicodeDecodeError:
        return 0
    return size if unicodedata.category(ch) not in _BAD_CATEGORIES else 0


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
