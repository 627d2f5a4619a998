"""Format subscriptions of a control client (``refresh-client -B name:what:format``).

Once a second every subscription's format is expanded and, where the value differs from the
last one sent, ``%subscription-changed`` goes out (the first check sends every value). The
format goes through the same expansion as everything else (formats_vars.ModelContext), so a
plugin's variables (``#{pane_agent_state}``, ``#{git_branch}``) are pushed exactly like tmux's
own. ``what`` picks the targets: empty (the client's session), ``%N`` (one pane, at each index
its window is linked at in the session), ``%*`` (every pane of the session), ``@N`` and ``@*``
(windows likewise). Subscriptions are checked in name order (tmux keeps them in a tree by name).

The polling itself is :mod:`hmux_core.monitors`, the engine ``set-hook -B`` monitors share;
control subscriptions use it as tmux 3.7b's control.c behaves: initial values are sent, ``#()``
jobs run, values of links that went away are kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import trio

from .monitors import (
    ALL_PANES,
    ALL_WINDOWS,
    INTERVAL,
    PANE,
    SESSION,
    WINDOW,
    Change,
    MonitorItem,
    MonitorSet,
    parse_what,
)

if TYPE_CHECKING:
    from .control import ControlState

#: One subscription (the shared engine's item).
Subscription = MonitorItem


class Subscriptions:
    """One client's subscriptions and the timer that checks them."""

    def __init__(self, cs: ControlState) -> None:
        self.cs = cs
        self.set = MonitorSet(cs.server, self._changed, client=cs.c, initial=True, jobs=True,
                              sweep=False)
        self._running = False

    @property
    def subs(self) -> dict[str, Subscription]:
        return self.set.items

    def add(self, name: str, kind: str, ident: int, fmt: str) -> None:
        self.set.add(name, kind, ident, fmt)  # replaces, values forgotten
        if not self._running:
            self._running = True
            self.cs.spawn(self._timer, "subscriptions")

    def remove(self, name: str) -> None:
        self.set.remove(name)

    def clear(self) -> None:
        self.set.clear()

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

    def check(self) -> None:
        """control_check_subs_timer: session subscriptions, then single panes and windows,
        then every pane, then every window of the session."""
        self.set.client = self.cs.c
        self.set.check()

    def _changed(self, ch: Change) -> None:
        s, wl, wp = ch.session, ch.winlink, ch.pane
        if wl is None:
            where = "- - -"
        else:
            where = f"@{wl.window.id} {wl.idx} " + (f"%{wp.id}" if wp is not None else "-")
        self.cs.notify_line(f"%subscription-changed {ch.item.name} ${s.id} {where} : "
                            f"{ch.value}")


__all__ = ["ALL_PANES", "ALL_WINDOWS", "PANE", "SESSION", "WINDOW", "Subscription",
           "Subscriptions", "parse_what"]
