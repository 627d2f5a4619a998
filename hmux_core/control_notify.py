"""Notifications for control clients (tmux's control-notify.c).

``notify`` runs when the server's notification queue reaches an event (hooks.Hooks drains it,
after the command that caused it), not when the event happened: like tmux, each line describes
the state at that moment. A window closed in the client's own session is therefore usually an
``%unlinked-window-close`` (the link is gone by then), and ``%session-window-changed`` names the
window current when it is sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import ClientConn, Server

LAYOUT_TEMPLATE = ("%layout-change #{window_id} #{window_layout} #{window_visible_layout} "
                   "#{window_raw_flags}")


def _clients(server: Server) -> list[ClientConn]:
    """CONTROL_SHOULD_NOTIFY_CLIENT: control clients still connected."""
    return [c for c in server.clients if c.control_state is not None]


def _all(server: Server, line: str) -> None:
    for c in _clients(server):
        c.control_state.notify_line(line)


def _linked(server: Server, w: Any, inside: str, outside: str) -> None:
    """One line per client with a session: ``inside`` if its session has ``w``."""
    for c in _clients(server):
        s = c.session
        if s is None:
            continue
        c.control_state.notify_line(inside if s.has_window(w) else outside)


def _pane_mode_changed(server: Server, data: dict[str, Any]) -> None:
    wp = data.get("pane")
    if wp is not None:
        _all(server, f"%pane-mode-changed %{wp.id}")


def _window_layout_changed(server: Server, data: dict[str, Any]) -> None:
    from .format import expand
    from .formats_vars import context_for

    w = data.get("window")
    # A window whose last pane is going has no layout; the client hears of it closing.
    if w is None or not w.winlinks or w.layout is None or not w.panes:
        return
    wl = w.winlinks[0]
    ctx = context_for(server, None, wl.session, wl, None)
    head = expand("%layout-change #{window_id} ", ctx)
    tail = expand(" #{window_raw_flags}", ctx)
    # tmux's layout strings, whatever layout-format says, unless the client asked for the
    # JSON ones (refresh-client -f new-layouts, beyond 3.7b)
    lines: dict[bool, str] = {}
    for c in _clients(server):
        s = c.session
        if s is not None and s.has_window(w):
            new = bool(getattr(c, "new_layouts", False))
            if new not in lines:
                if new:
                    from .formats_vars import VARIABLES

                    full = VARIABLES["window_layout_json"](ctx)
                    visible = VARIABLES["window_visible_layout_json"](ctx)
                else:
                    full, visible = w.layout.dump(), w.layout.visible_dump()
                lines[new] = f"{head}{full} {visible}{tail}"
            c.control_state.notify_line(lines[new])


def _window_pane_changed(server: Server, data: dict[str, Any]) -> None:
    w = data.get("window")
    if w is None or w.active is None:
        return
    _all(server, f"%window-pane-changed @{w.id} %{w.active.id}")


def _window_unlinked(server: Server, data: dict[str, Any]) -> None:
    w = data.get("window")
    if w is not None:
        _linked(server, w, f"%window-close @{w.id}", f"%unlinked-window-close @{w.id}")


def _window_linked(server: Server, data: dict[str, Any]) -> None:
    w = data.get("window")
    if w is not None:
        _linked(server, w, f"%window-add @{w.id}", f"%unlinked-window-add @{w.id}")


def _window_renamed(server: Server, data: dict[str, Any]) -> None:
    w = data.get("window")
    if w is not None:
        _linked(server, w, f"%window-renamed @{w.id} {w.name}",
                f"%unlinked-window-renamed @{w.id} {w.name}")


def _client_session_changed(server: Server, data: dict[str, Any]) -> None:
    cc = data.get("client")
    if cc is None or cc.session is None:
        return
    s = cc.session
    for c in _clients(server):
        if c.session is None:
            continue
        if c is cc:
            c.control_state.notify_line(f"%session-changed ${s.id} {s.name}")
        else:
            c.control_state.notify_line(f"%client-session-changed {cc.name} ${s.id} {s.name}")


def _client_detached(server: Server, data: dict[str, Any]) -> None:
    cc = data.get("client")
    if cc is not None:
        _all(server, f"%client-detached {cc.name}")


def _session_renamed(server: Server, data: dict[str, Any]) -> None:
    s = data.get("session")
    if s is not None:
        _all(server, f"%session-renamed ${s.id} {s.name}")


def _sessions_changed(server: Server, data: dict[str, Any]) -> None:
    _all(server, "%sessions-changed")


def _session_window_changed(server: Server, data: dict[str, Any]) -> None:
    s = data.get("session")
    if s is None or s.curw is None:
        return
    _all(server, f"%session-window-changed ${s.id} @{s.curw.window.id}")


def _paste_buffer_changed(server: Server, data: dict[str, Any]) -> None:
    _all(server, f"%paste-buffer-changed {data.get('name', '')}")


def _paste_buffer_deleted(server: Server, data: dict[str, Any]) -> None:
    _all(server, f"%paste-buffer-deleted {data.get('name', '')}")


HANDLERS: dict[str, Callable[[Server, dict[str, Any]], None]] = {
    "pane-mode-changed": _pane_mode_changed,
    "window-layout-changed": _window_layout_changed,
    "window-pane-changed": _window_pane_changed,
    "window-unlinked": _window_unlinked,
    "window-linked": _window_linked,
    "window-renamed": _window_renamed,
    "client-session-changed": _client_session_changed,
    "client-detached": _client_detached,
    "session-renamed": _session_renamed,
    "session-created": _sessions_changed,
    "session-closed": _sessions_changed,
    "session-window-changed": _session_window_changed,
    "paste-buffer-changed": _paste_buffer_changed,
    "paste-buffer-deleted": _paste_buffer_deleted,
}

#: Events only control clients hear of (no hook of that name exists in tmux 3.7b).
CONTROL_ONLY = frozenset({"paste-buffer-changed", "paste-buffer-deleted"})


def notify(server: Server, name: str, data: dict[str, Any]) -> None:
    """notify_callback's control part for one queued event."""
    handler = HANDLERS.get(name)
    if handler is None:
        return
    if not any(c.control_state is not None for c in server.clients):
        return
    handler(server, data)


__all__ = ["CONTROL_ONLY", "HANDLERS", "notify"]
