"""The orders of tmux 3.7b's ``-O`` and ``-r`` (sort.c): list commands, tree modes, loops.

``-O`` names an order (``activity``, ``creation``, ``index``/``key``, ``modifier``,
``name``/``title``, ``order``, ``size``, ``z``; case does not matter). Without ``-O`` nothing is
sorted, and ``-r`` alone does nothing either; ``order`` keeps the natural order and ``-r``
reverses it. Every other order breaks ties by name and ``-r`` reverses the comparison. Python's
sort is stable, as glibc's qsort (a merge sort) is for these lists, so equal items keep the
natural order in both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cmp_to_key
from typing import Any, TypeVar

T = TypeVar("T")

ORDERS = {"activity": "activity", "creation": "creation", "index": "index", "key": "index",
          "modifier": "modifier", "name": "name", "title": "name", "order": "order",
          "size": "size", "z": "z"}


def order_from_string(text: str | None) -> str | None:
    """sort_order_from_string: the order ``-O`` names, or None (SORT_END) for none/unknown."""
    if text is None:
        return None
    return ORDERS.get(text.lower())


def _bytes(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


def _strcmp(a: str, b: str) -> int:
    x, y = _bytes(a), _bytes(b)
    return (x > y) - (x < y)


def _newer_first(a: float, b: float) -> int:
    return -1 if a > b else 1 if a < b else 0


def _older_first(a: float, b: float) -> int:
    return 1 if a > b else -1 if a < b else 0


def _session_key(order: str) -> Callable[[Any, Any], int] | None:
    return {
        "index": lambda a, b: a.id - b.id,
        "creation": lambda a, b: _older_first(a.created, b.created),
        "activity": lambda a, b: _newer_first(a.activity_time, b.activity_time),
        "name": lambda a, b: _strcmp(a.name, b.name),
    }.get(order)


def _winlink_key(order: str) -> Callable[[Any, Any], int] | None:
    return {
        "index": lambda a, b: a.idx - b.idx,
        "creation": lambda a, b: _older_first(a.window.created, b.window.created),
        "activity": lambda a, b: _newer_first(a.window.activity_time, b.window.activity_time),
        "name": lambda a, b: _strcmp(a.window.name, b.window.name),
        "size": lambda a, b: a.window.sx * a.window.sy - b.window.sx * b.window.sy,
    }.get(order)


def _pane_index(p: Any) -> int:
    panes = p.window.panes
    return panes.index(p) if p in panes else 0


def _pane_key(order: str) -> Callable[[Any, Any], int] | None:
    return {
        "activity": lambda a, b: a.active_point - b.active_point,
        "creation": lambda a, b: a.id - b.id,
        "size": lambda a, b: a.sx * a.sy - b.sx * b.sy,
        "index": lambda a, b: _pane_index(a) - _pane_index(b),
        "name": lambda a, b: _strcmp(_title(a), _title(b)),
        "z": lambda a, b: _pane_index(a) - _pane_index(b),
    }.get(order)


def _title(p: Any) -> str:
    return str(getattr(p.screen, "title", "") or "")


def _client_key(order: str) -> Callable[[Any, Any], int] | None:
    return {
        "name": lambda a, b: _strcmp(a.name, b.name),
        "size": lambda a, b: (a.sx - b.sx) or (a.sy - b.sy),
        "creation": lambda a, b: _older_first(a.created, b.created),
        "activity": lambda a, b: _newer_first(a.activity_time, b.activity_time),
    }.get(order)


def _buffer_key(order: str) -> Callable[[Any, Any], int] | None:
    return {
        "name": lambda a, b: _strcmp(a.name, b.name),
        "creation": lambda a, b: _newer_first(a.order, b.order),
        "size": lambda a, b: len(a.data) - len(b.data),
    }.get(order)


_KINDS: dict[str, tuple[Callable[[str], Callable[[Any, Any], int] | None],
                        Callable[[Any], str]]] = {
    "session": (_session_key, lambda s: s.name),
    "winlink": (_winlink_key, lambda wl: wl.window.name),
    "pane": (_pane_key, _title),
    "client": (_client_key, lambda c: c.name),
    "buffer": (_buffer_key, lambda b: b.name),
}


def sort_items(kind: str, items: Sequence[T], order: str | None, reverse: bool) -> list[T]:
    """sort_qsort over ``items`` (in their natural order) of ``kind`` (session, winlink,
    pane, client, buffer) for ``-O order`` and ``-r``."""
    out = list(items)
    if order is None:
        return out
    if order == "order":
        return out[::-1] if reverse else out
    primary, name_of = _KINDS[kind]
    cmp = primary(order)

    def compare(a: Any, b: Any) -> int:
        result = cmp(a, b) if cmp is not None else 0
        if result == 0:
            result = _strcmp(name_of(a), name_of(b))
        return -result if reverse else result

    out.sort(key=cmp_to_key(compare))
    return out
