"""OSC 8 hyperlinks of one screen (tmux 3.7b's hyperlinks.c).

A cell refers to its link by a small number (``inner``), stored as part of the cell's style id,
so linked text costs what styled text costs. A link with an ``id=`` parameter is shared by
every cell written with the same id and URI; an anonymous link is new each time. Like tmux, at
most :data:`MAX_HYPERLINKS` links are kept across every screen of the process, the oldest
dropped first (its cells then show no link).
"""

from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict

from .names import strvis

MAX_HYPERLINKS = 5000
#: The longest URI kept once vis-encoded (tmux's development tree, beyond 3.7b): a longer one
#: gets no link (number 0).
MAX_HYPERLINK_URI = 1024

#: Every live link of every screen, oldest first: (screen table id, inner) -> the table.
_GLOBAL: OrderedDict[tuple[int, int], weakref.ref] = OrderedDict()
_next_external = itertools.count(1)


def _forget(key: int, inners: set[int]) -> None:
    for inner in inners:
        _GLOBAL.pop((key, inner), None)


class Hyperlinks:
    """The links a screen's cells refer to."""

    __slots__ = ("next_inner", "_by_inner", "_by_id", "_key", "__weakref__")

    def __init__(self) -> None:
        self.next_inner = 1
        #: inner -> (uri, internal id, external id); URIs and ids vis-encoded as tmux stores them
        self._by_inner: dict[int, tuple[str, str, str]] = {}
        self._by_id: dict[tuple[str, str], int] = {}
        self._key = id(self)
        weakref.finalize(self, _forget, self._key, self._by_inner.keys())

    def put(self, uri: str, link_id: str | None) -> int:
        """hyperlinks_put: the number of the link (raw bytes as latin-1 text), 0 when the
        URI is too long."""
        uri = strvis(uri)
        if len(uri) > MAX_HYPERLINK_URI // 4 \
                and len(uri.encode("utf-8", "surrogateescape")) > MAX_HYPERLINK_URI:
            return 0
        internal = strvis(link_id) if link_id else ""
        if internal:
            inner = self._by_id.get((internal, uri))
            if inner is not None:
                return inner
        inner = self.next_inner
        self.next_inner += 1
        self._by_inner[inner] = (uri, internal, f"tmux{next(_next_external):X}")
        if internal:
            self._by_id[(internal, uri)] = inner
        _GLOBAL[(self._key, inner)] = weakref.ref(self)
        if len(_GLOBAL) >= MAX_HYPERLINKS:
            (key, old), ref = _GLOBAL.popitem(last=False)
            owner = ref()
            if owner is not None:
                owner._remove(old)
        return inner

    def _remove(self, inner: int) -> None:
        entry = self._by_inner.pop(inner, None)
        if entry is not None and entry[1]:
            self._by_id.pop((entry[1], entry[0]), None)

    def get(self, inner: int) -> tuple[str, str] | None:
        """hyperlinks_get: (uri, internal id) of a link, None if there is no such link."""
        entry = self._by_inner.get(inner)
        return None if entry is None else (entry[0], entry[1])

    def external_id(self, inner: int) -> str | None:
        """The id tmux gives the link on the outer terminal (``tmux<hex>``)."""
        entry = self._by_inner.get(inner)
        return None if entry is None else entry[2]

    def reset(self) -> None:
        """hyperlinks_reset (clear-history -H, a respawned pane)."""
        _forget(self._key, list(self._by_inner))
        self._by_inner.clear()
        self._by_id.clear()

    def __len__(self) -> int:
        return len(self._by_inner)
