"""The polling engine behind format subscriptions: control mode's ``refresh-client -B`` and
the hook monitors of ``set-hook -B`` (tmux's development tree, monitor.c).

A :class:`MonitorSet` holds items ``name:what:format`` in name order and, once a second,
expands each item's format for its targets and reports the values that changed: ``what`` is
empty (the session), ``%N`` (one pane, at each index its window is linked at in the session),
``%*`` (every pane of the session), ``@N`` and ``@*`` (windows likewise). Each pane or window
at each link index keeps its own last value. What a change does is the owner's callback: a
control client writes ``%subscription-changed``, a hook monitor fires its event.

Owners differ only in flags: control subscriptions report the first value too (``initial``),
expand ``#()`` jobs and keep the values of links that went away (tmux 3.7b's control.c); hook
monitors establish the first value silently, never run jobs, sweep values of links no scan
saw, and may report only changes to a true value (``set-hook -T``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SESSION, PANE, ALL_PANES, WINDOW, ALL_WINDOWS = "session", "pane", "all-panes", "window", \
    "all-windows"
#: Seconds between two checks.
INTERVAL = 1.0

__all__ = ["ALL_PANES", "ALL_WINDOWS", "INTERVAL", "PANE", "SESSION", "WINDOW", "Change",
           "MonitorItem", "MonitorSet", "parse_subscription", "parse_what", "what_string"]


def parse_what(what: str) -> tuple[str, int]:
    """The target of ``what``: sscanf ``%%%d`` / ``@%d`` (leading digits, an optional sign)
    with a non-negative result, ``%*``, ``@*``, else the session."""
    if what == "%*":
        return ALL_PANES, -1
    if what == "@*":
        return ALL_WINDOWS, -1
    for prefix, kind in (("%", PANE), ("@", WINDOW)):
        if what.startswith(prefix):
            n = _scan_int(what[1:])
            if n is not None and n >= 0:
                return kind, n
    return SESSION, -1


def _scan_int(text: str) -> int | None:
    """sscanf %d: optional whitespace and sign, then at least one digit."""
    text = text.lstrip(" \t\n\v\f\r")
    i = 0
    if text[:1] in ("+", "-"):
        i = 1
    j = i
    while j < len(text) and text[j].isascii() and text[j].isdigit():
        j += 1
    if j == i:
        return None
    value = int(text[:j])
    if not -2**31 <= value < 2**31:
        return None
    return value


def parse_subscription(value: str) -> tuple[str, str, int, str] | None:
    """monitor_parse: ``name:what:format`` as (name, kind, id, format); None without both
    colons."""
    name, sep, rest = value.partition(":")
    if not sep:
        return None
    what, sep, fmt = rest.partition(":")
    if not sep:
        return None
    kind, ident = parse_what(what)
    return name, kind, ident, fmt


def what_string(kind: str, ident: int) -> str:
    """The ``what`` of a target as show-hooks -B prints it."""
    if kind == PANE:
        return f"%{ident}"
    if kind == WINDOW:
        return f"@{ident}"
    if kind == ALL_PANES:
        return "%*"
    if kind == ALL_WINDOWS:
        return "@*"
    return ""


@dataclass
class MonitorItem:
    """One subscription: its format, target, flags, last values and firings."""

    name: str
    kind: str
    ident: int
    fmt: str
    true_only: bool = False
    last: str | None = None
    panes: dict[tuple[int, int], list[Any]] = field(default_factory=dict)
    windows: dict[tuple[int, int], list[Any]] = field(default_factory=dict)
    fire_count: int = 0
    fire_time: float = 0.0


@dataclass
class Change:
    """A value that changed (monitor_change): the previous one is None the first time."""

    item: MonitorItem
    value: str
    last: str | None
    client: Any
    session: Any
    winlink: Any
    pane: Any


class MonitorSet:
    """monitor_set: items checked against one session (a client's, a fixed one or, for
    global hook monitors, the first live session) with a callback for each change."""

    def __init__(self, server: Any, report: Callable[[Change], None], *, client: Any = None,
                 session: Any = None, initial: bool = False, jobs: bool = False,
                 sweep: bool = True) -> None:
        self.server = server
        self.report = report
        self.client = client
        self.session = session
        self.initial = initial
        self.jobs = jobs
        self.sweep = sweep
        self.items: dict[str, MonitorItem] = {}
        self._generation = 0

    # -- items ---------------------------------------------------------------------------------

    def add(self, name: str, kind: str, ident: int, fmt: str, *,
            true_only: bool = False) -> MonitorItem:
        """Replace any item of that name (its values are forgotten)."""
        item = self.items[name] = MonitorItem(name, kind, ident, fmt, true_only)
        return item

    def remove(self, name: str) -> None:
        self.items.pop(name, None)

    def clear(self) -> None:
        self.items.clear()

    def get(self, name: str) -> MonitorItem | None:
        return self.items.get(name)

    def sorted_items(self) -> list[MonitorItem]:
        """Name order (tmux keeps them in a tree by strcmp)."""
        return [self.items[k] for k in sorted(self.items, key=lambda n: n.encode(
            "utf-8", "surrogateescape"))]

    # -- checking ------------------------------------------------------------------------------

    def target_session(self) -> Any:
        """monitor_get_session: the client's session, the fixed session while it lives, else
        the first session by name."""
        if self.client is not None:
            return self.client.session
        s = self.session
        if s is None:
            sessions = self.server.model.sorted_sessions()
            return sessions[0] if sessions else None
        return s if getattr(s, "alive", False) else None

    def _expand(self, fmt: str, s: Any, wl: Any, wp: Any) -> str:
        from .format import EXPAND_NOJOBS, expand
        from .formats_vars import context_for

        ctx = context_for(self.server, self.client, s, wl, wp)
        if self.client is not None:
            ctx.issuer = self.client
        return expand(fmt, ctx, flags=0 if self.jobs else EXPAND_NOJOBS)

    def _value(self, item: MonitorItem, value: str, slot: list[Any], s: Any, wl: Any,
               wp: Any) -> None:
        """monitor_check_value: the first value is reported only with ``initial``; later a
        changed one is (a true one only, with true_only)."""
        last = slot[0]
        slot[0] = value
        if last is None:
            if self.initial and (not item.true_only or _true(value)):
                self._fire(item, value, None, s, wl, wp)
            return
        if value == last:
            return
        if not item.true_only or _true(value):
            self._fire(item, value, last, s, wl, wp)

    def _fire(self, item: MonitorItem, value: str, last: str | None, s: Any, wl: Any,
              wp: Any) -> None:
        item.fire_count += 1
        item.fire_time = time.time()
        self.report(Change(item, value, last, self.client, s, wl, wp))

    def check(self) -> None:
        """One scan (monitor_timer): session items, single panes and windows, every pane,
        every window of the session."""
        s = self.target_session()
        if s is None or not getattr(s, "alive", True):
            return
        items = self.sorted_items()
        session_slots: dict[str, list[Any]] = {}
        for item in items:
            if item.kind == SESSION:
                slot = session_slots[item.name] = [item.last]
                self._value(item, self._expand(item.fmt, s, None, None), slot, s, None, None)
                item.last = slot[0]
        model = self.server.model
        for item in items:
            if item.kind == PANE:
                wp = model.panes.get(item.ident)
                if wp is None or wp.fd < 0:
                    continue
                for wl in list(wp.window.winlinks):
                    if wl.session is s:
                        slot = item.panes.setdefault((wp.id, wl.idx), [None, 0])
                        self._value(item, self._expand(item.fmt, s, wl, wp), slot, s, wl, wp)
            elif item.kind == WINDOW:
                w = model.windows.get(item.ident)
                if w is None:
                    continue
                for wl in list(w.winlinks):
                    if wl.session is s:
                        slot = item.windows.setdefault((w.id, wl.idx), [None, 0])
                        self._value(item, self._expand(item.fmt, s, wl, None), slot, s, wl,
                                    None)
        all_panes = [item for item in items if item.kind == ALL_PANES]
        all_windows = [item for item in items if item.kind == ALL_WINDOWS]
        if not all_panes and not all_windows:
            return
        self._generation += 1
        gen = self._generation
        if all_panes:
            for wl in s.sorted_winlinks():
                for wp in list(wl.window.panes):
                    for item in all_panes:
                        slot = item.panes.setdefault((wp.id, wl.idx), [None, 0])
                        slot[1] = gen
                        self._value(item, self._expand(item.fmt, s, wl, wp), slot, s, wl, wp)
            if self.sweep:
                for item in all_panes:
                    item.panes = {k: v for k, v in item.panes.items() if v[1] == gen}
        if all_windows:
            for wl in s.sorted_winlinks():
                for item in all_windows:
                    slot = item.windows.setdefault((wl.window.id, wl.idx), [None, 0])
                    slot[1] = gen
                    self._value(item, self._expand(item.fmt, s, wl, None), slot, s, wl, None)
            if self.sweep:
                for item in all_windows:
                    item.windows = {k: v for k, v in item.windows.items() if v[1] == gen}


def _true(value: str) -> bool:
    return bool(value) and value != "0"
