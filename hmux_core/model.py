"""The server's object model: sessions, winlinks, windows and panes.

tmux's shape is kept because its commands and formats are defined in its terms: a *window* can be
linked into several sessions through *winlinks* (the index lives on the winlink), a window owns its
panes and their layout, and ids (``$N @N %N``) are never reused for the life of the server.

This module owns the structure and the rules that keep it consistent (a window without panes
goes, a session without windows goes). It does not spawn processes (``pane.py``) or parse commands.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .layout import Layout
    from .pane import Pane

# Winlink alert flags (tmux's WINLINK_*).
WINLINK_BELL = 0x1
WINLINK_ACTIVITY = 0x2
WINLINK_SILENCE = 0x4


class Environ:
    """An environment as tmux keeps it: values, cleared entries (``-VAR``) and hidden entries."""

    __slots__ = ("values", "hidden")

    def __init__(self, values: dict[str, str | None] | None = None) -> None:
        self.values: dict[str, str | None] = dict(values or {})
        self.hidden: set[str] = set()

    def set(self, name: str, value: str | None, hidden: bool = False) -> None:
        self.values[name] = value
        if hidden:
            self.hidden.add(name)
        else:
            self.hidden.discard(name)

    def clear(self, name: str) -> None:
        """Mark as removed (``set-environment -r``): it is unset in children."""
        self.values[name] = None

    def unset(self, name: str) -> None:
        self.values.pop(name, None)
        self.hidden.discard(name)

    def get(self, name: str) -> str | None:
        return self.values.get(name)

    def copy_into(self, other: Environ) -> None:
        for k, v in self.values.items():
            other.set(k, v, k in self.hidden)

    def for_child(self) -> dict[str, str]:
        """What new processes get (environ_push): set, non-hidden entries."""
        return {k: v for k, v in self.values.items() if v is not None and k not in self.hidden}

    def sorted_items(self) -> list[tuple[str, str | None]]:
        return sorted(self.values.items())


@dataclass(eq=False)
class Winlink:
    idx: int
    session: Session
    window: Window
    flags: int = 0


@dataclass(eq=False)
class Window:
    id: int
    name: str
    options: Any
    sx: int = 80
    sy: int = 24
    layout: Layout | None = None  # owns pane order, geometry and zoom
    active: Pane | None = None
    last_panes: list[Pane] = field(default_factory=list)  # most recent first
    winlinks: list[Winlink] = field(default_factory=list)
    created: float = field(default_factory=time.time)
    activity_time: float = field(default_factory=time.time)
    name_time: float = 0.0
    layout_index: int = 0  # position in the preset cycle for next-layout
    old_layout: str | None = None  # select-layout -o (tmux's w->old_layout)
    manual_sx: int = 0  # resize-window's size, used while window-size is manual
    manual_sy: int = 0
    xpixel: int = 16  # a cell's size in pixels: the clients' (DEFAULT_XPIXEL until one says)
    ypixel: int = 32
    alive: bool = True
    #: The client that last made this window current or typed in it (tmux's w->latest): the
    #: one whose size counts when window-size is latest and several clients see the window.
    latest: Any = None
    #: The model's event bus (set by Model.create_window): a new active pane is an event.
    notify: Callable[[str, dict[str, Any]], None] | None = field(default=None, repr=False)

    @property
    def panes(self) -> list[Pane]:
        return self.layout.panes if self.layout is not None else []

    def set_name(self, name: str, untrusted: bool) -> bool:
        """window_set_name: the name cleaned as tmux 3.7b cleans it (a backslash doubled; from a
        pane's program or output, ``#(`` made harmless); False, unchanged, if not printable."""
        from .screen.names import clean_name

        clean = clean_name(name.encode("utf-8", "surrogateescape").decode("latin-1"), untrusted)
        if clean is None:
            return False
        self.name = clean
        return True

    @property
    def zoomed(self) -> bool:
        return self.layout is not None and self.layout.zoomed

    @property
    def last(self) -> Pane | None:
        """The top of tmux 3.7b's stack of previously active panes (``w->last_panes``)."""
        return self.last_panes[0] if self.last_panes else None

    def forget_last(self, pane: Pane | None) -> None:
        """Take a pane off the stack of previously active panes (window_pane_stack_remove)."""
        if pane is not None and pane in self.last_panes:
            self.last_panes.remove(pane)

    def pane_index(self, pane: Pane) -> int:
        return self.panes.index(pane) + int(self.options.get("pane-base-index"))

    def pane_at_index(self, idx: int) -> Pane | None:
        i = idx - int(self.options.get("pane-base-index"))
        if 0 <= i < len(self.panes):
            return self.panes[i]
        return None

    def set_active(self, pane: Pane, notify: bool = True) -> bool:
        """Make ``pane`` active, remembering the previous one as last; False if unchanged.
        ``notify``: raise window-pane-changed (window_set_active_pane's notify)."""
        if pane is self.active:
            return False
        self.forget_last(pane)
        if self.active is not None:  # window_pane_stack_push
            self.forget_last(self.active)
            self.last_panes.insert(0, self.active)
        self.active = pane
        pane.active_point = _next_active_point()
        pane.changed = True  # automatic-rename looks again (tmux's PANE_CHANGED)
        if notify and self.notify is not None:
            self.notify("window-pane-changed", {"window": self, "pane": pane})
        return True

    def sessions(self) -> list[Session]:
        seen: list[Session] = []
        for wl in self.winlinks:
            if wl.session not in seen:
                seen.append(wl.session)
        return seen


_active_counter = 0


def _next_active_point() -> int:
    global _active_counter
    _active_counter += 1
    return _active_counter


@dataclass(eq=False)
class Session:
    id: int
    name: str
    options: Any
    environ: Environ
    cwd: str
    windows: dict[int, Winlink] = field(default_factory=dict)
    curw: Winlink | None = None
    lastw: list[Winlink] = field(default_factory=list)  # most recent first
    created: float = field(default_factory=time.time)
    activity_time: float = field(default_factory=time.time)
    last_attached_time: float = 0.0
    attached: int = 0
    group: SessionGroup | None = None
    tio: Any = None
    alive: bool = True
    marked: bool = False
    #: The model's event bus (set by Model.create_session): a new current window is an event.
    notify: Callable[[str, dict[str, Any]], None] | None = field(default=None, repr=False)

    def sorted_winlinks(self) -> list[Winlink]:
        return [self.windows[i] for i in sorted(self.windows)]

    def has_window(self, window: Window) -> bool:
        curw = self.curw  # (the usual answer, asked per %output line and per escape)
        if curw is not None and curw.window is window and self.windows.get(curw.idx) is curw:
            return True
        return any(wl.window is window for wl in self.windows.values())

    def winlink_for(self, window: Window) -> Winlink | None:
        if self.curw is not None and self.curw.window is window:
            return self.curw
        for wl in self.sorted_winlinks():
            if wl.window is window:
                return wl
        return None

    def next_free_index(self, start: int) -> int:
        idx = start
        while idx in self.windows:
            idx += 1
        return idx

    def set_current(self, wl: Winlink) -> bool:
        """Select a winlink as current, pushing the old one on the last-window stack."""
        if wl is self.curw:
            return False
        if self.curw is not None:
            if self.curw in self.lastw:
                self.lastw.remove(self.curw)
            self.lastw.insert(0, self.curw)
        if wl in self.lastw:
            self.lastw.remove(wl)
        self.curw = wl
        wl.flags &= ~(WINLINK_BELL | WINLINK_ACTIVITY | WINLINK_SILENCE)
        if self.notify is not None:  # session_set_current
            self.notify("session-window-changed", {"session": self})
        return True


@dataclass(eq=False)
class SessionGroup:
    name: str
    sessions: list[Session] = field(default_factory=list)


class ModelError(Exception):
    """A model rule refused an operation; the message is tmux's."""


class Model:
    """All sessions, windows and panes of one server, plus id counters."""

    def __init__(self, server_options: Any, session_options: Any, window_options: Any,
                 environ: Environ) -> None:
        self.options = server_options
        self.session_options = session_options
        self.window_options = window_options
        self.environ = environ
        self.sessions: dict[str, Session] = {}
        self.session_ids: dict[int, Session] = {}
        self.windows: dict[int, Window] = {}
        self.panes: dict[int, Pane] = {}
        self.next_session_id = 0
        self.next_window_id = 0
        self.next_pane_id = 0
        self.groups: dict[str, SessionGroup] = {}
        #: The marked pane as marked: (session, winlink, that winlink's window then, pane).
        #: Kept while it is stale, as tmux keeps marked_pane: a pane swapped away and back,
        #: or a window moved to another session and back, is marked again. ``marked`` is it
        #: while it is valid.
        self.mark: tuple[Session, Winlink, Window, Pane] | None = None
        #: Called with (event name, dict of ids/values); the server's event bus.
        self.notify: Callable[[str, dict[str, Any]], None] = lambda name, data: None

    # -- lookup ------------------------------------------------------------------------------------

    def sorted_sessions(self) -> list[Session]:
        return [self.sessions[n] for n in sorted(self.sessions)]

    def find_session_by_id(self, text: str) -> Session | None:
        try:
            return self.session_ids.get(int(text[1:]))
        except ValueError:
            return None

    def find_window_by_id(self, text: str) -> Window | None:
        try:
            return self.windows.get(int(text[1:]))
        except ValueError:
            return None

    def find_pane_by_id(self, text: str) -> Pane | None:
        try:
            return self.panes.get(int(text[1:]))
        except ValueError:
            return None

    def new_session_id(self) -> int:
        sid = self.next_session_id
        self.next_session_id += 1
        return sid

    def create_session(self, name: str | None, cwd: str, options: Any, environ: Environ,
                       prefix: str | None = None) -> Session:
        """session_create: an unnamed session is called by its id (``prefix-id`` in a group)."""
        sid = self.new_session_id()
        if name is None:
            name = f"{prefix}-{sid}" if prefix is not None else str(sid)
            while name in self.sessions:
                sid = self.new_session_id()
                name = f"{prefix}-{sid}" if prefix is not None else str(sid)
        s = Session(id=sid, name=name, options=options, environ=environ, cwd=cwd)
        s.notify = lambda event, data: self.notify(event, data)
        self.sessions[name] = s
        self.session_ids[sid] = s
        return s

    def rename_session(self, s: Session, name: str) -> None:
        del self.sessions[s.name]
        s.name = name
        self.sessions[name] = s

    def destroy_session(self, s: Session) -> None:
        if not s.alive:
            return
        s.alive = False
        self.notify("session-closed", {"session": s})  # session_destroy: before the unlinks
        if s.group is not None:  # session_group_remove raises its event before the unlinks
            from .commands.groups import group_event

            group_event(self.notify, "session-removed-from-group", s.group, s)
        for wl in list(s.windows.values()):
            self.unlink_winlink(wl, destroy_session=False)
        self.sessions.pop(s.name, None)
        self.session_ids.pop(s.id, None)
        if s.group is not None:
            g = s.group
            g.sessions.remove(s)
            if not g.sessions:
                self.groups.pop(g.name, None)
            s.group = None
        if self.mark is not None and self.mark[0] is s:
            self.mark = None

    # -- windows -----------------------------------------------------------------------------------

    def create_window(self, name: str, sx: int, sy: int, options: Any) -> Window:
        wid = self.next_window_id
        self.next_window_id += 1
        w = Window(id=wid, name=name, options=options, sx=sx, sy=sy, manual_sx=sx, manual_sy=sy)
        w.notify = lambda event, data: self.notify(event, data)
        self.windows[wid] = w
        return w

    def link_window(self, s: Session, w: Window, idx: int) -> Winlink:
        if idx in s.windows:
            raise ModelError(f"index in use: {idx}")
        wl = Winlink(idx=idx, session=s, window=w)
        s.windows[idx] = wl
        w.winlinks.append(wl)
        return wl

    def unlink_winlink(self, wl: Winlink, destroy_session: bool = True) -> None:
        """Remove a winlink; the window goes with its last link, the session with its last window."""
        s, w = wl.session, wl.window
        if s.curw is wl:
            # session_detach: the last window, else the previous one by index (wrapping)
            others = [i for i in s.windows if s.windows[i] is not wl]
            pick = s.lastw[0] if s.lastw and s.lastw[0] is not wl else None
            if pick is None and others:
                lower = [i for i in others if i < wl.idx]
                pick = s.windows[max(lower) if lower else max(others)]
            if pick is not None:
                s.set_current(pick)
            else:
                s.curw = None
        self.notify("window-unlinked", {"session": s, "window": w})  # after session_detach's
        # choice of a new current window, as tmux
        if s.windows.get(wl.idx) is wl:
            del s.windows[wl.idx]
        if wl in w.winlinks:
            w.winlinks.remove(wl)
        if wl in s.lastw:
            s.lastw.remove(wl)
        if s.curw is wl:
            s.curw = None
        if not w.winlinks:
            self.destroy_window(w)
        if destroy_session and not s.windows and s.alive:
            self.destroy_session(s)

    def destroy_window(self, w: Window) -> None:
        if not w.alive:
            return
        w.alive = False
        for wl in list(w.winlinks):
            self.unlink_winlink(wl)
        for p in list(w.panes):
            self.forget_pane(p)
        w.layout = None
        self.windows.pop(w.id, None)
        self.notify("window-closed", {"window": w})

    # -- panes -------------------------------------------------------------------------------------

    def new_pane_id(self) -> int:
        pid = self.next_pane_id
        self.next_pane_id += 1
        return pid

    @property
    def marked(self) -> tuple[Session, Winlink, Pane] | None:
        """The marked pane while it is valid (server_check_marked): its session alive, the
        winlink still the session's and still showing the window it showed, the pane in it."""
        m = self.mark
        if m is None:
            return None
        s, wl, w, wp = m
        if not s.alive or s.windows.get(wl.idx) is not wl or wl.window is not w \
                or wp not in w.panes:
            return None
        return s, wl, wp

    @marked.setter
    def marked(self, value: tuple[Session, Winlink, Pane] | None) -> None:
        """server_set_marked, or server_clear_marked for None."""
        self.mark = None if value is None else (value[0], value[1], value[1].window, value[2])

    def mark_moved(self, old: Winlink, new: Winlink) -> None:
        """A winlink was replaced (moved, swapped, renumbered): a mark made through it, valid
        or not, goes with it."""
        m = self.mark
        if m is not None and m[1] is old:
            self.mark = (m[0], new, m[2], m[3])

    def lost_pane(self, w: Window, p: Pane, notify: bool = True) -> None:
        """window_lost_pane: p (still in w's list) is leaving; a new active and last pane.

        p leaves the stack of previously active panes; if it was active, the top of that stack
        takes over (and leaves it), else the pane before p, else the one after; its
        active_point is not bumped, as in tmux."""
        if self.mark is not None and self.mark[3] is p:
            self.mark = None
        w.forget_last(p)
        if p is w.active:
            nxt = w.last
            if nxt is None:
                panes = w.panes
                i = panes.index(p)
                nxt = panes[i - 1] if i > 0 else (panes[i + 1] if i + 1 < len(panes) else None)
            w.active = nxt
            if nxt is not None:
                w.forget_last(nxt)
                nxt.changed = True
                if notify:
                    self.notify("window-pane-changed", {"window": w, "pane": nxt})

    def forget_pane(self, p: Pane) -> None:
        self.panes.pop(p.id, None)
        if self.mark is not None and self.mark[3] is p:
            self.mark = None
        p.destroy()

    def remove_pane(self, p: Pane) -> None:
        """Take a pane out of its window (closing its layout cell); the window may go too."""
        w = p.window
        if w.layout is not None and p in w.panes:
            was_active = p is w.active
            self.lost_pane(w, p, notify=False)
            w.layout.close_pane(p)
            apply_layout(w)
            # server_kill_pane: layout_close_pane's notification, then window_lost_pane's
            self.notify("window-layout-changed", {"window": w})
            if was_active and w.active is not None:
                self.notify("window-pane-changed", {"window": w, "pane": w.active})
        self.forget_pane(p)
        self.notify("pane-closed", {"pane": p, "window": w})
        if not w.panes:
            self.destroy_window(w)


def apply_layout(w: Window) -> None:
    """Copy geometry from the window's layout to its panes, resizing their PTYs."""
    lay = w.layout
    if lay is None:
        return
    w.sx, w.sy = lay.sx, lay.sy
    for pane in lay.panes:
        g = lay.geometry(pane)
        pane.xoff, pane.yoff = g.xoff, g.yoff
        pane.resize(g.sx, g.sy)
    lay.take_resized()
    if lay.zoom_events:  # window_zoom/window_unzoom raise these after the panes' resize
        events, lay.zoom_events = lay.zoom_events, []
        if w.notify is not None:
            for name in events:
                w.notify(name, {"window": w})


def recalculate_size(w: Window, now: bool = False) -> None:
    """recalculate_size for a window no client is looking at: only ``window-size manual``
    (set by resize-window) changes anything, to the size resize-window chose."""
    lay = w.layout
    if w.active is None or lay is None:
        return
    if str(w.options.get("window-size")) != "manual":
        return
    sx, sy = w.manual_sx, w.manual_sy
    if not now and (sx, sy) == (w.sx, w.sy):
        return
    lay.resize_window(sx, sy)
    apply_layout(w)


def find_home() -> str:
    home = os.environ.get("HOME")
    if home and os.path.isabs(home):
        return home
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_dir
    except (KeyError, ImportError):
        return "/"
