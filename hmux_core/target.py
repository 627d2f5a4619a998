"""Target resolution: ``-t``/``-s`` strings to (session, winlink, window, pane), as tmux's cmd-find.

The rules are tmux's: ``session:window.pane``; ``$id @id %id``; ``=`` for exact names; a session
matched by exact name, then unique prefix, then fnmatch pattern; windows by index, ``{last}`` ``^``
``$`` ``+N`` ``-N``, exact/prefix/pattern name; panes by index, ``!``, ``+/-N``, ``{up-of}`` … and
positional descriptions (``top``, ``bottom-left`` …). The "current" state comes from the command
queue, the client's attached session, the pane the client runs in (``$TMUX_PANE`` / its tty), or
the most recently active session.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import Model, Session, Window, Winlink
    from .pane import Pane

FIND_PANE = "pane"
FIND_WINDOW = "window"
FIND_SESSION = "session"

PREFER_UNATTACHED = 0x1
QUIET = 0x2
WINDOW_INDEX = 0x4
DEFAULT_MARKED = 0x8
EXACT_SESSION = 0x10
EXACT_WINDOW = 0x20
CANFAIL = 0x40

_SESSION_TABLE: dict[str, str] = {}
_WINDOW_TABLE = {"{start}": "^", "{last}": "!", "{end}": "$", "{next}": "+", "{previous}": "-"}
_PANE_TABLE = {
    "{last}": "!", "{next}": "+", "{previous}": "-", "{top}": "top", "{bottom}": "bottom",
    "{left}": "left", "{right}": "right", "{top-left}": "top-left", "{top-right}": "top-right",
    "{bottom-left}": "bottom-left", "{bottom-right}": "bottom-right",
}


class TargetError(Exception):
    """Resolution failed; ``str()`` is tmux's message (may be empty when quiet)."""


@dataclass
class State:
    """A resolved target (tmux's cmd_find_state)."""

    s: Session | None = None
    wl: Winlink | None = None
    w: Window | None = None
    wp: Pane | None = None
    idx: int = -1

    def copy(self) -> State:
        return State(self.s, self.wl, self.w, self.wp, self.idx)

    def valid(self) -> bool:
        if self.s is None or self.wl is None or self.w is None or self.wp is None:
            return False
        if not self.s.alive or self.s.windows.get(self.wl.idx) is not self.wl:
            return False
        if self.wl.window is not self.w:
            return False
        return self.wp in self.w.panes

    def empty(self) -> bool:
        return self.s is None and self.wl is None and self.w is None and self.wp is None


def from_session(s: Session) -> State:
    wl = s.curw
    w = wl.window if wl else None
    return State(s, wl, w, w.active if w else None)


def from_winlink(wl: Winlink, wp: Pane | None = None) -> State:
    return State(wl.session, wl, wl.window, wp or wl.window.active, wl.idx)


def _session_better(s: Session, than: Session | None, flags: int) -> bool:
    if than is None:
        return True
    if flags & PREFER_UNATTACHED:
        attached = than.attached != 0
        if attached and s.attached == 0:
            return True
        if not attached and s.attached != 0:
            return False
    return s.activity_time > than.activity_time


def best_session(model: Model, sessions: list[Session] | None = None, flags: int = 0) -> Session | None:
    best = None
    for s in sessions if sessions is not None else model.sorted_sessions():
        if _session_better(s, best, flags):
            best = s
    return best


class Finder:
    """Resolves targets against one model; a fresh one per lookup keeps the flags local."""

    def __init__(self, model: Model, current: State | None, flags: int) -> None:
        self.model = model
        self.current = current
        self.flags = flags
        self.fs = State()

    # -- helpers mirroring tmux's cmd_find_* -------------------------------------------------------

    def best_winlink_with_window(self) -> bool:
        fs = self.fs
        assert fs.s is not None and fs.w is not None
        wl = fs.s.winlink_for(fs.w)
        if wl is None:
            return False
        fs.wl = wl
        fs.idx = wl.idx
        return True

    def best_session_with_window(self) -> bool:
        fs = self.fs
        assert fs.w is not None
        candidates = [s for s in self.model.sorted_sessions() if s.has_window(fs.w)]
        if not candidates:
            return False
        fs.s = best_session(self.model, candidates, self.flags)
        if fs.s is None:
            return False
        return self.best_winlink_with_window()

    def get_session(self, name: str) -> bool:
        fs, model = self.fs, self.model
        if name.startswith("$"):
            fs.s = model.find_session_by_id(name)
            return fs.s is not None
        fs.s = model.sessions.get(name)  # tmux leaves this in the state even when it fails
        if fs.s is not None:
            return True
        client_session = _session_of_client_named(model, name)
        if client_session is not None:
            fs.s = client_session
            return True
        if self.flags & EXACT_SESSION:
            return False
        found = None
        for s in model.sorted_sessions():
            if s.name.startswith(name):
                if found is not None:
                    return False
                found = s
        if found is None:
            for s in model.sorted_sessions():
                if fnmatch.fnmatchcase(s.name, name):
                    if found is not None:
                        return False
                    found = s
        if found is None:
            return False
        fs.s = found
        return True

    def get_window(self, window: str, only: bool) -> bool:
        fs = self.fs
        if window.startswith("@"):
            fs.w = self.model.find_window_by_id(window)
            if fs.w is None:
                return False
            return self.best_session_with_window()
        assert self.current is not None
        fs.s = self.current.s
        if self.get_window_with_session(window):
            return True
        if not only and self.get_session(window):
            assert fs.s is not None and fs.s.curw is not None
            fs.wl = fs.s.curw
            fs.w = fs.wl.window
            if not self.flags & WINDOW_INDEX:
                fs.idx = fs.wl.idx
            return True
        return False

    def get_window_with_session(self, window: str) -> bool:
        fs = self.fs
        s = fs.s
        assert s is not None and s.curw is not None
        exact = bool(self.flags & EXACT_WINDOW)
        fs.wl = s.curw
        fs.w = fs.wl.window
        if window.startswith("@"):
            fs.w = self.model.find_window_by_id(window)
            if fs.w is None or not s.has_window(fs.w):
                return False
            return self.best_winlink_with_window()
        if not exact and window[:1] in ("+", "-"):
            n = _strtonum(window[1:], 1) if len(window) > 1 else 1
            if n is not None:
                if self.flags & WINDOW_INDEX:
                    if window[0] == "+":
                        fs.idx = s.curw.idx + n
                    else:
                        if n > s.curw.idx:
                            return False
                        fs.idx = s.curw.idx - n
                    return True
                wl = _winlink_by_offset(s, s.curw, n if window[0] == "+" else -n)
                if wl is not None:
                    fs.wl, fs.idx, fs.w = wl, wl.idx, wl.window
                    return True
        if not exact:
            wl = None
            if window == "!":
                wl = s.lastw[0] if s.lastw else None
                if wl is None:
                    return False
            elif window == "^":
                wl = s.windows[min(s.windows)] if s.windows else None
                if wl is None:
                    return False
            elif window == "$":
                wl = s.windows[max(s.windows)] if s.windows else None
                if wl is None:
                    return False
            if wl is not None:
                fs.wl, fs.idx, fs.w = wl, wl.idx, wl.window
                return True
        if window[:1] not in ("+", "-"):
            idx = _strtonum(window, 0)
            if idx is not None:
                wl = s.windows.get(idx)
                if wl is not None:
                    fs.wl, fs.idx, fs.w = wl, wl.idx, wl.window
                    return True
                if self.flags & WINDOW_INDEX:
                    fs.idx = idx
                    return True
        fs.wl = None
        for matcher in (
            lambda name: name == window,
            None if exact else (lambda name: name.startswith(window)),
            None if exact else (lambda name: fnmatch.fnmatchcase(name, window)),
        ):
            if matcher is None:
                return False
            found = None
            for wl in s.sorted_winlinks():
                if matcher(wl.window.name):
                    if found is not None:
                        return False
                    found = wl
            if found is not None:
                fs.wl, fs.idx, fs.w = found, found.idx, found.window
                return True
        return False

    def get_pane(self, pane: str, only: bool) -> bool:
        fs = self.fs
        if pane.startswith("%"):
            fs.wp = self.model.find_pane_by_id(pane)
            if fs.wp is None:
                return False
            fs.w = fs.wp.window
            return self.best_session_with_window()
        cur = self.current
        assert cur is not None
        fs.s, fs.wl, fs.idx, fs.w = cur.s, cur.wl, cur.idx, cur.w
        if self.get_pane_with_window(pane):
            return True
        if not only and self.get_window(pane, False):
            assert fs.w is not None
            fs.wp = fs.w.active
            return True
        return False

    def get_pane_with_session(self, pane: str) -> bool:
        fs = self.fs
        if pane.startswith("%"):
            fs.wp = self.model.find_pane_by_id(pane)
            if fs.wp is None:
                return False
            fs.w = fs.wp.window
            return self.best_winlink_with_window()
        assert fs.s is not None and fs.s.curw is not None
        fs.wl = fs.s.curw
        fs.idx = fs.wl.idx
        fs.w = fs.wl.window
        return self.get_pane_with_window(pane)

    def get_pane_with_window(self, pane: str) -> bool:
        fs = self.fs
        w = fs.w
        assert w is not None
        if pane.startswith("%"):
            fs.wp = self.model.find_pane_by_id(pane)
            return fs.wp is not None and fs.wp.window is w
        cur_wp = self.current.wp if self.current else None
        if pane == "!":
            fs.wp = w.last
            return fs.wp is not None
        directions = {"{up-of}": "U", "{down-of}": "D", "{left-of}": "L", "{right-of}": "R"}
        if pane in directions:
            fs.wp = (cur_wp.window.layout.find_pane(cur_wp, directions[pane])
                     if cur_wp is not None and cur_wp.window.layout is not None else None)
            return fs.wp is not None
        if pane[:1] in ("+", "-"):
            n = _strtonum(pane[1:], 1) if len(pane) > 1 else 1
            if n is not None and cur_wp is not None and cur_wp in w.panes:
                i = w.panes.index(cur_wp)
                step = n if pane[0] == "+" else -n
                fs.wp = w.panes[(i + step) % len(w.panes)]
                return True
        idx = _strtonum(pane, 0)
        if idx is not None:
            fs.wp = w.pane_at_index(idx)
            if fs.wp is not None:
                return True
        fs.wp = find_by_description(w, pane)
        return fs.wp is not None


def find_by_description(w: Window, text: str) -> Pane | None:
    """window_find_string: ``top``, ``bottom-left`` … name the pane at that edge's midpoint."""
    top, bottom = 0, w.sy - 1
    status = str(w.options.get("pane-border-status"))
    if status == "top":
        top += 1
    elif status == "bottom":
        bottom -= 1
    x, y = w.sx // 2, w.sy // 2
    spots = {
        "top": (x, top), "bottom": (x, bottom), "left": (0, y), "right": (w.sx - 1, y),
        "top-left": (0, top), "top-right": (w.sx - 1, top),
        "bottom-left": (0, bottom), "bottom-right": (w.sx - 1, bottom),
    }
    spot = spots.get(text.lower())
    if spot is None:
        return None
    x, y = spot
    if w.layout is not None:  # window_get_active_at: the topmost pane there (floating too)
        return w.layout.pane_at(x, y)
    for p in w.panes:
        if w.zoomed and p is not w.active:
            continue
        if p.xoff <= x <= p.xoff + p.sx and p.yoff <= y <= p.yoff + p.sy:
            return p
    return None


def _strtonum(text: str, minimum: int) -> int | None:
    if not text or not (text.isdigit() or (text[0] == "-" and text[1:].isdigit())):
        return None
    try:
        n = int(text)
    except ValueError:
        return None
    if n < minimum or n > 2147483647:
        return None
    return n


def _winlink_by_offset(s: Session, wl: Winlink, n: int) -> Winlink | None:
    """winlink_next/previous_by_number: wraps around the session's windows."""
    order = sorted(s.windows)
    if not order:
        return None
    i = order.index(wl.idx)
    return s.windows[order[(i + n) % len(order)]]


def _session_of_client_named(model: Model, name: str) -> Session | None:
    clients = getattr(model, "clients", None) or []
    c = find_client_by_name(clients, name)
    return c.session if c is not None else None


def find_client_by_name(clients: list[Any], target: str) -> Any:
    name = target[:-1] if target.endswith(":") else target
    for c in clients:
        if getattr(c, "session", None) is None:
            continue
        if name == c.name:
            return c
        tty = c.ttyname
        if not tty:
            continue
        if name == tty or (tty.startswith("/dev/") and name == tty[5:]):
            return c
    return None


def client_nested(model: Model, client: Any) -> bool:
    """server_client_check_nested: ``$TMUX`` set and the client's terminal is one of our panes
    (a TMUX_PANE left over from another server does not count)."""
    env = getattr(client, "environ", None)
    if env is None or not env.get("TMUX"):
        return False
    tty = getattr(client, "ttyname", "")
    return bool(tty) and any(p.tty == tty for p in model.panes.values())


def inside_pane(model: Model, client: Any) -> Pane | None:
    """The pane a client runs in, from its tty or ``$TMUX_PANE``."""
    if client is None:
        return None
    tty = getattr(client, "ttyname", "")
    if tty:
        for p in model.panes.values():
            if p.fd >= 0 and p.tty == tty:
                return p
    env = getattr(client, "environ", None)
    value = env.get("TMUX_PANE") if env is not None else None
    if value:
        return model.find_pane_by_id(value)
    return None


def from_nothing(model: Model, flags: int) -> State | None:
    s = best_session(model, None, flags)
    if s is None or s.curw is None:
        return None
    st = from_session(s)
    st.idx = st.wl.idx if st.wl else -1
    return st


def from_client(model: Model, client: Any, flags: int) -> State | None:
    """The current state for a command run by ``client`` (tmux's cmd_find_from_client)."""
    if client is None:
        return from_nothing(model, flags)
    session = getattr(client, "session", None)
    if session is not None and session.alive and session.curw is not None:
        return from_session(session)
    wp = inside_pane(model, client)
    if wp is not None:
        f = Finder(model, None, flags)
        f.fs.w = wp.window
        if f.best_session_with_window():
            s = f.fs.s
            assert s is not None
            st = from_session(s)
            return st
    return from_nothing(model, flags)


def find_target(model: Model, target: str | None, kind: str, flags: int, *,
                current: State | None = None, client: Any = None,
                event: Any = None) -> State | None:
    """Resolve ``target`` of ``kind``; None when CANFAIL hides a failure. Raises TargetError.
    ``event`` is the mouse event of the key that ran the command, for ``=`` / ``{mouse}``."""
    if flags & CANFAIL:
        flags |= QUIET

    partial: list[State] = []

    def fail(message: str) -> State | None:
        # Under CANFAIL tmux keeps what was found so far (format_defaults fills the rest).
        if flags & CANFAIL:
            return partial[0] if partial else None
        raise TargetError("" if flags & QUIET else message)

    marked = model.marked
    marked_state = None
    if marked is not None:
        marked_state = State(marked[0], marked[1], marked[1].window, marked[2], marked[1].idx)
    if marked_state is not None and flags & DEFAULT_MARKED:
        cur = marked_state
    elif current is not None and current.valid():
        cur = current
    else:
        cur = from_client(model, client, flags)
        if cur is None:
            return fail("no current target")

    if not target:
        st = cur.copy()
        if flags & WINDOW_INDEX:
            st.idx = -1
        return st

    if target in ("@", "{active}", "{current}"):
        # the active pane of the window the command's client is looking at (tmux 3.6); a
        # command-line client has no session to look at
        s = getattr(client, "session", None)
        if s is None or s.curw is None:
            return fail("no current client")
        w = s.curw.window
        return State(s, s.curw, w, w.active, s.curw.idx)
    if target in ("=", "{mouse}"):
        from .mouse import target_state

        st = target_state(event, kind)
        if st is None:
            return fail("no mouse target")
        return st
    if target in ("~", "{marked}"):
        if marked_state is None:
            return fail("no marked target")
        return marked_state.copy()

    session = window = pane = None
    window_only = pane_only = False
    colon = target.find(":")
    if colon >= 0:
        head, rest = target[:colon], target[colon + 1 :]
        period = rest.find(".")
        if period >= 0:
            session, window, pane = head, rest[:period], rest[period + 1 :]
            window_only = pane_only = True
        else:
            session, window = head, rest
            window_only = True
    else:
        period = target.find(".")
        if period >= 0:
            window, pane = target[:period], target[period + 1 :]
            pane_only = True
        elif target.startswith("$"):
            session = target
        elif target.startswith("@"):
            window = target
        elif target.startswith("%"):
            pane = target
        elif kind == FIND_SESSION:
            session = target
        elif kind == FIND_WINDOW:
            window = target
        else:
            pane = target

    f = Finder(model, cur, flags)
    if session is not None and session.startswith("="):
        session = session[1:]
        f.flags |= EXACT_SESSION
    if window is not None and window.startswith("="):
        window = window[1:]
        f.flags |= EXACT_WINDOW
    session = session or None
    window = window or None
    pane = pane or None
    if session is not None:
        session = _SESSION_TABLE.get(session, session)
    if window is not None:
        window = _WINDOW_TABLE.get(window, window)
    if pane is not None:
        pane = _PANE_TABLE.get(pane, pane)

    if pane is not None and flags & WINDOW_INDEX:
        return fail("can't specify pane here")

    fs = f.fs
    partial.append(fs)
    if session is not None:
        if not f.get_session(session):
            return fail(f"can't find session: {session}")
        assert fs.s is not None
        if window is None and pane is None:
            fs.wl = fs.s.curw
            fs.idx = -1
            fs.w = fs.wl.window if fs.wl else None
            fs.wp = fs.w.active if fs.w else None
            return fs
        if window is not None and pane is None:
            if not f.get_window_with_session(window):
                return fail(f"can't find window: {window}")
            if fs.wl is not None:
                fs.wp = fs.wl.window.active
            return fs
        if window is None and pane is not None:
            if not f.get_pane_with_session(pane):
                return fail(f"can't find pane: {pane}")
            return fs
        assert window is not None and pane is not None
        if not f.get_window_with_session(window):
            return fail(f"can't find window: {window}")
        if not f.get_pane_with_window(pane):
            return fail(f"can't find pane: {pane}")
        return fs

    if window is not None and pane is not None:
        if not f.get_window(window, window_only):
            return fail(f"can't find window: {window}")
        if not f.get_pane_with_window(pane):
            return fail(f"can't find pane: {pane}")
        return fs
    if window is not None:
        if not f.get_window(window, window_only):
            return fail(f"can't find window: {window}")
        if fs.wl is not None:
            fs.wp = fs.wl.window.active
        return fs
    if pane is not None:
        if not f.get_pane(pane, pane_only):
            return fail(f"can't find pane: {pane}")
        return fs
    st = cur.copy()
    if flags & WINDOW_INDEX:
        st.idx = -1
    return st
