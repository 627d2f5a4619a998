"""Paste buffers as tmux 3.7b's paste.c keeps them.

Buffers are named (``-b name``) or automatic (``buffer0``, ``buffer1``, … from one counter that
never goes back); every change gets a new order number and "the top buffer" is the most recent
automatic one (paste_get_top). Only automatic buffers count against ``buffer-limit``; the oldest
automatic ones go when a new automatic buffer is added. Names are cleaned (``vis.clean_name``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .vis import (  # noqa: F401  (re-exported: the vis(3) flags are buffers' vocabulary)
    VIS_CSTYLE,
    VIS_DQ,
    VIS_NL,
    VIS_OCTAL,
    VIS_SP,
    VIS_TAB,
    strvis,
)

SAMPLE_WIDTH = 200


def clean_name(name: str) -> str | None:
    """A buffer name as tmux 3.7b keeps it (clean_name): None unless printable."""
    from .screen.names import clean_name as clean

    return clean(name.encode("utf-8", "surrogateescape").decode("latin-1"), untrusted=False)


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
