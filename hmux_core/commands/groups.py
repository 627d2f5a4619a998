"""Session groups (``new-session -t``): sessions sharing one set of windows."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..events import QUIET
from ..model import WINLINK_ACTIVITY, WINLINK_BELL, WINLINK_SILENCE, Session, SessionGroup, Winlink

if TYPE_CHECKING:
    from ..server import Server

_ALERTS = WINLINK_ACTIVITY | WINLINK_BELL | WINLINK_SILENCE


def add_to_group(server: Server, s: Session, sg: SessionGroup | None, groupwith: Session | None,
                 name: str) -> None:
    """Put ``s`` in the group (creating it) and give it the group's windows."""
    model = server.model
    if sg is None:
        gname = groupwith.name if groupwith is not None else name
        sg = model.groups.get(gname) or SessionGroup(gname)
        model.groups[gname] = sg
        if groupwith is not None and groupwith not in sg.sessions:
            sg.sessions.append(groupwith)
            groupwith.group = sg
            group_event(server.notify, "session-added-to-group", sg, groupwith)
    sg.sessions.append(s)
    s.group = sg
    group_event(server.notify, "session-added-to-group", sg, s)
    synchronize_to(server, s)
    if s.windows:
        s.curw = s.windows[min(s.windows)]
        s.lastw.clear()


def group_event(notify: Callable[[str, dict[str, Any]], None], name: str, sg: SessionGroup,
                s: Session) -> None:
    """session_group_fire: session-added-to-group (after the session joined) or
    session-removed-from-group (before it leaves), the development tree's events."""
    if name not in QUIET:
        notify(name, {"session": s, "group": sg.name, "group_size": len(sg.sessions)})


def synchronize_to(server: Server, s: Session) -> None:
    """Make ``s`` show the windows of another member of its group."""
    if s.group is None:
        return
    for other in s.group.sessions:
        if other is not s and other.windows:
            _sync(server, other, s)
            return


def synchronize_from(server: Server, s: Session) -> None:
    """After ``s`` changed its windows, make every other member match."""
    if s.group is None:
        return
    for other in list(s.group.sessions):
        if other is not s:
            _sync(server, s, other)


def _sync(server: Server, source: Session, s: Session) -> None:
    model = server.model
    old = dict(s.windows)
    cur_idx = s.curw.idx if s.curw is not None else None
    last_idx = [wl.idx for wl in s.lastw]
    for wl in old.values():
        if wl in wl.window.winlinks:
            wl.window.winlinks.remove(wl)
    s.windows = {}
    for idx in sorted(source.windows):
        src = source.windows[idx]
        wl = Winlink(idx=idx, session=s, window=src.window, flags=src.flags & _ALERTS)
        s.windows[idx] = wl
        src.window.winlinks.append(wl)
    if cur_idx is not None and cur_idx in s.windows:
        s.curw = s.windows[cur_idx]
    elif source.curw is not None:
        s.curw = s.windows.get(source.curw.idx)
    s.lastw = [s.windows[i] for i in last_idx if i in s.windows]
    for wl in old.values():
        if not wl.window.winlinks:
            model.destroy_window(wl.window)


