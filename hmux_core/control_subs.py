"""Format subscriptions of a control client (``refresh-client -B name:what:format``).

Once a second every subscription's format is expanded and, where the value differs from the
last one sent, ``%subscription-changed`` goes out (the first check sends every value). The
format goes through the same expansion as everything else (formats_vars.ModelContext), so a
plugin's variables (``#{pane_agent_state}``, ``#{git_branch}``) are pushed exactly like tmux's
own. ``what`` picks the targets: empty (the client's session), ``%N`` (one pane, at each index
its window is linked at in the session), ``%*`` (every pane of the session), ``@N`` and ``@*``
(windows likewise). Subscriptions are checked in name order (tmux keeps them in a tree by name).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import trio

if TYPE_CHECKING:
    from .control import ControlState

SESSION, PANE, ALL_PANES, WINDOW, ALL_WINDOWS = "session", "pane", "all-panes", "window", \
    "all-windows"
INTERVAL = 1.0


class Subscription:
    __slots__ = ("name", "kind", "ident", "fmt", "last", "panes", "windows")

    def __init__(self, name: str, kind: str, ident: int, fmt: str) -> None:
        self.name = name
        self.kind = kind
        self.ident = ident
        self.fmt = fmt
        self.last: str | None = None
        self.panes: dict[tuple[int, int], str] = {}  # (pane id, window index) -> last value
        self.windows: dict[tuple[int, int], str] = {}  # (window id, index) -> last value


def parse_what(what: str) -> tuple[str, int]:
    """cmd_refresh_client_update_subscription's target: sscanf ``%%%d`` / ``@%d`` (leading
    digits, an optional sign) with a non-negative result, else the session."""
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


class Subscriptions:
    """One client's subscriptions and the timer that checks them."""

    def __init__(self, cs: ControlState) -> None:
        self.cs = cs
        self.subs: dict[str, Subscription] = {}
        self._running = False

    def add(self, name: str, kind: str, ident: int, fmt: str) -> None:
        self.subs[name] = Subscription(name, kind, ident, fmt)  # replaces, values forgotten
        if not self._running:
            self._running = True
            self.cs.spawn(self._timer, "subscriptions")

    def remove(self, name: str) -> None:
        self.subs.pop(name, None)

    def clear(self) -> None:
        self.subs.clear()

    async def _timer(self) -> None:
        try:
            while self.subs:
                await trio.sleep(INTERVAL)
                if not self.subs:
                    break
                try:
                    self.check()
                except Exception:
                    self.cs.server.log_exception("control subscriptions failed")
        finally:
            self._running = False

    def _sorted(self) -> list[Subscription]:
        return [self.subs[k] for k in sorted(self.subs, key=lambda n: n.encode(
            "utf-8", "surrogateescape"))]

    def _expand(self, sub: Subscription, s: Any, wl: Any, wp: Any) -> str:
        from .format import expand
        from .formats_vars import context_for

        ctx = context_for(self.cs.server, self.cs.c, s, wl, wp)
        ctx.issuer = self.cs.c
        return expand(sub.fmt, ctx)

    def check(self) -> None:
        """control_check_subs_timer: session subscriptions, then single panes and windows,
        then every pane, then every window of the session."""
        cs = self.cs
        c = cs.c
        s = c.session
        if s is None or not s.alive:
            return
        server = cs.server
        subs = self._sorted()
        write = cs.notify_line
        for sub in subs:
            if sub.kind != SESSION:
                continue
            value = self._expand(sub, s, None, None)
            if sub.last is not None and value == sub.last:
                continue
            write(f"%subscription-changed {sub.name} ${s.id} - - - : {value}")
            sub.last = value
        for sub in subs:
            if sub.kind == PANE:
                wp = server.model.panes.get(sub.ident)
                if wp is None or wp.fd < 0:
                    continue
                w = wp.window
                for wl in list(w.winlinks):
                    if wl.session is not s:
                        continue
                    self._pane_one(sub, s, wl, wp)
            elif sub.kind == WINDOW:
                w = server.model.windows.get(sub.ident)
                if w is None:
                    continue
                for wl in list(w.winlinks):
                    if wl.session is not s:
                        continue
                    self._window_one(sub, s, wl)
        panes = [sub for sub in subs if sub.kind == ALL_PANES]
        if panes:
            for wl in s.sorted_winlinks():
                for wp in list(wl.window.panes):
                    for sub in panes:
                        self._pane_one(sub, s, wl, wp)
        windows = [sub for sub in subs if sub.kind == ALL_WINDOWS]
        if windows:
            for wl in s.sorted_winlinks():
                for sub in windows:
                    self._window_one(sub, s, wl)

    def _pane_one(self, sub: Subscription, s: Any, wl: Any, wp: Any) -> None:
        value = self._expand(sub, s, wl, wp)
        key = (wp.id, wl.idx)
        last = sub.panes.get(key)
        if last is not None and last == value:
            return
        self.cs.notify_line(f"%subscription-changed {sub.name} ${s.id} @{wl.window.id} "
                            f"{wl.idx} %{wp.id} : {value}")
        sub.panes[key] = value

    def _window_one(self, sub: Subscription, s: Any, wl: Any) -> None:
        value = self._expand(sub, s, wl, None)
        key = (wl.window.id, wl.idx)
        last = sub.windows.get(key)
        if last is not None and last == value:
            return
        self.cs.notify_line(f"%subscription-changed {sub.name} ${s.id} @{wl.window.id} "
                            f"{wl.idx} - : {value}")
        sub.windows[key] = value


__all__ = ["Subscription", "Subscriptions", "parse_what"]
