"""Window alerts (tmux's alerts.c): the bell flag a window's winlinks carry until selected.

Only the bell is here, and only what a plugin needs to raise one (an agent waiting for the user
in a pane nobody is looking at): the ``WINLINK_BELL`` flag on every winlink that is not its
session's current window or whose session has no client, and the ``alert-bell`` hook where
``bell-action`` applies, as ``alerts_check_bell`` does. Selecting the window clears the flag
(``Session.set_current``). The bell and ``visual-bell`` message sent to attached terminals are
not drawn here.
"""

from __future__ import annotations

from typing import Any

from .model import WINLINK_BELL


def _action_applies(wl: Any, option: str) -> bool:
    action = wl.session.options.get(option)
    if action == "any":
        return True
    if action == "current":
        return wl is wl.session.curw
    if action == "other":
        return wl is not wl.session.curw
    return False


def bell(server: Any, window: Any) -> bool:
    """Raise a bell in ``window``; False when ``monitor-bell`` is off for it."""
    if not window.alive or not window.options.get("monitor-bell"):
        return False
    for wl in list(window.winlinks):
        s = wl.session
        if s.curw is not wl or s.attached == 0:
            wl.flags |= WINLINK_BELL
        if _action_applies(wl, "bell-action"):
            server.notify("alert-bell", {"winlink": wl, "window": window, "session": s})
    server.redraw_clients()
    return True
