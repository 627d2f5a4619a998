"""Paste buffers: named or automatic (``bufferN``), newest first, capped by buffer-limit."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class PasteBuffer:
    name: str
    data: bytes
    automatic: bool
    order: int
    created: float = field(default_factory=time.time)


class Buffers:
    def __init__(self, limit: int = 50) -> None:
        self.limit = limit
        self.by_name: dict[str, PasteBuffer] = {}
        self._next_index = 0
        self._next_order = 0

    def sorted(self) -> list[PasteBuffer]:
        """Most recent first, as tmux's paste_walk."""
        return sorted(self.by_name.values(), key=lambda b: -b.order)

    def top(self) -> PasteBuffer | None:
        autos = [b for b in self.by_name.values() if b.automatic]
        return max(autos, key=lambda b: b.order) if autos else None

    def set(self, data: bytes, name: str | None = None) -> str | None:
        """paste_set / paste_add; returns tmux's error text or None."""
        self._next_order += 1
        if name is None:
            autos = sorted((b for b in self.by_name.values() if b.automatic),
                           key=lambda b: b.order)
            while len(autos) >= self.limit:
                del self.by_name[autos.pop(0).name]
            while True:
                name = f"buffer{self._next_index:04d}"
                self._next_index += 1
                if name not in self.by_name:
                    break
            self.by_name[name] = PasteBuffer(name, data, True, self._next_order)
            return None
        if not name:
            return "empty buffer name"
        self.by_name[name] = PasteBuffer(name, data, False, self._next_order)
        return None

    def get(self, name: str) -> PasteBuffer | None:
        return self.by_name.get(name)

    def delete(self, name: str) -> bool:
        return self.by_name.pop(name, None) is not None
