"""Events with payloads, and the dispatcher their sinks register with (the development tree's
events.c and events-payload.c).

Every notification and hook the server raises is also an *event*: a name and a payload of
typed items (a client, session, window or pane, a number, a time, a string). Sinks registered
for a name hear each event of that name in registration order: ``wait-for -E`` waiters and
``set-hook -B`` monitors register here. The hook commands themselves still run through
:mod:`hmux_core.hooks` (tmux 3.7b's order and formats); this module only adds what the
development tree adds on top, so a server nobody asks for events behaves as 3.7b.

Payload items print as ``wait-for -v`` shows them (``$1``, ``@2``, ``%3``, client names,
numbers) and become formats: ``hook_<key>`` for hooks, ``<key>`` for a ``wait-for -F``
filter, with ``<key>_name`` beside sessions and windows. Keys starting with ``_`` are
internal: never printed, never formats.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .target import State

log = logging.getLogger("hmux.events")

__all__ = ["QUIET", "EventBus", "Payload", "Sink", "Time", "payload_from_notify"]

#: Names of the development tree's lifecycle events (hooks.LIFECYCLE_EVENTS) that nothing in
#: this process listens to: no hook set anywhere, no ``wait-for -E`` sink, no plugin or other
#: bus subscriber. Raising one of them costs one lookup here (pane-activity and pane-resized
#: sit near hot paths). Cleared whenever a listener may have appeared (a sink is added, a hook
#: command is set, plugins load); refilled by :meth:`hmux_core.hooks.Hooks.wanted`.
QUIET: dict[str, bool] = {}


class Time(int):
    """A payload item that is a time (seconds since the epoch): printed as the number."""


@dataclass
class Payload:
    """An event's items (printed in key order, as tmux keeps them in a tree) and the target
    its hook commands run against."""

    items: dict[str, Any] = field(default_factory=dict)
    target: State | None = None

    def set(self, key: str, value: Any) -> None:
        self.items[key] = value

    def get(self, key: str) -> Any:
        return self.items.get(key)

    def public(self) -> Iterator[tuple[str, str]]:
        """``(key, printed value)`` of every public item, in tmux's (strcmp) key order."""
        for key in sorted(self.items, key=lambda k: k.encode("utf-8", "surrogateescape")):
            if not key.startswith("_"):
                yield key, print_value(self.items[key])

    def formats(self, prefix: str = "") -> dict[str, str]:
        """event_payload_add_formats: ``prefix + key`` per public item, and ``_name`` beside a
        session or window."""
        out: dict[str, str] = {}
        for key, value in self.items.items():
            if key.startswith("_"):
                continue
            out[prefix + key] = print_value(value)
            kind = _kind(value)
            if kind in ("session", "window"):
                out[f"{prefix}{key}_name"] = value.name
        return out


def _kind(v: Any) -> str:
    """Which sort of model object a payload value is (by what it holds, not its class, so the
    model needs no import here)."""
    if isinstance(v, bool | int | float | str):
        return "scalar"
    if hasattr(v, "winlinks") and hasattr(v, "panes"):
        return "window"
    if hasattr(v, "windows") and hasattr(v, "curw"):
        return "session"
    if hasattr(v, "screen") and hasattr(v, "window"):
        return "pane"
    if hasattr(v, "name") and hasattr(v, "session"):
        return "client"
    return "other"


def print_value(v: Any) -> str:
    """event_payload_add_item: how ``wait-for -v`` and the formats show an item."""
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, int | str):
        return str(v)
    if isinstance(v, float):
        return str(int(v))
    kind = _kind(v)
    if kind == "session":
        return f"${v.id}"
    if kind == "window":
        return f"@{v.id}"
    if kind == "pane":
        return f"%{v.id}"
    if kind == "client":
        return v.name or ""
    return str(v)


class Sink:
    """One registration: a callback for events of one name."""

    __slots__ = ("name", "cb", "dead", "generation")

    def __init__(self, name: str, cb: Callable[[str, Payload], None], generation: int) -> None:
        self.name = name
        self.cb = cb
        self.dead = False
        self.generation = generation


class EventBus:
    """events.c: sinks in registration order. A sink added while an event is being dispatched
    does not hear that event; a sink removed meanwhile hears nothing more."""

    def __init__(self) -> None:
        self.sinks: list[Sink] = []
        self._dispatching = 0
        self._generation = 0

    def add_sink(self, name: str, cb: Callable[[str, Payload], None]) -> Sink:
        self._generation += 1
        QUIET.clear()  # a wait-for -E or monitor may want a lifecycle event now
        sink = Sink(name, cb, self._generation)
        self.sinks.append(sink)
        return sink

    def remove_sink(self, sink: Sink | None) -> None:
        if sink is None or sink.dead:
            return
        sink.dead = True
        if not self._dispatching:
            self.sinks = [s for s in self.sinks if not s.dead]

    def has_sink(self, name: str) -> bool:
        return any(s.name == name and not s.dead for s in self.sinks)

    def fire(self, name: str, payload: Payload) -> None:
        """Every live sink of ``name`` registered before this call, in order; the payload gets
        its ``event`` item (the name) first."""
        payload.set("event", name)
        generation = self._generation
        self._dispatching += 1
        try:
            for sink in list(self.sinks):
                if sink.dead or sink.generation > generation or sink.name != name:
                    continue
                try:
                    sink.cb(name, payload)
                except Exception:
                    log.exception("event sink for %s failed", name)
        finally:
            self._dispatching -= 1
            if not self._dispatching:
                self.sinks = [s for s in self.sinks if not s.dead]


def payload_from_notify(data: dict[str, Any], target: State | None) -> Payload:
    """A payload for one of the server's notifications (``Server.notify`` data): its client,
    session, window, winlink and pane under tmux's key names, its scalar values as they are."""
    p = Payload(target=target)
    wl = data.get("winlink")
    for key in ("client", "session", "window", "pane"):
        v = data.get(key)
        if v is not None:
            p.set(key, v)
    if wl is not None:
        p.set("session", wl.session)
        p.set("window", wl.window)
        p.set("window_index", wl.idx)
    for key, v in data.items():
        if key in ("client", "session", "window", "pane", "winlink") or key.startswith("_"):
            continue
        if isinstance(v, bool | int | float | str) or (key in _OBJECT_KEYS and v is not None):
            p.set(key, v)
    return p


#: Keys beyond the four main ones whose values are model objects (the development tree's
#: pane-moved and marked-pane-changed name an old and a new window or pane).
_OBJECT_KEYS = frozenset(("old_window", "new_window", "old_pane", "new_pane"))
