"""Window commands: new-window, list-windows, select/last/next/previous-window, kill-window,
rename-window, and automatic-rename."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .. import target as T
from ..format import format_true
from ..model import WINLINK_ACTIVITY, WINLINK_BELL, WINLINK_SILENCE, Session, Winlink
from ..sort import sort_items
from ..spawn import SpawnContext, SpawnError, spawn_window
from .queue import CMD_RETURN_ERROR, CMD_RETURN_NORMAL, CmdItem
from .registry import command
from .util import parse_environ_args

if TYPE_CHECKING:
    from ..server import Server

NEW_WINDOW_TEMPLATE = "#{session_name}:#{window_index}.#{pane_index}"
LIST_WINDOWS_TEMPLATE = (
    "#{window_index}: #{window_name}#{window_raw_flags} "
    "(#{window_panes} panes) "
    "[#{window_width}x#{window_height}] "
    "[layout #{window_layout}] #{window_id}"
    "#{?window_active, (active),}"
)
LIST_WINDOWS_WITH_SESSION_TEMPLATE = (
    "#{session_name}:"
    "#{window_index}: #{window_name}#{window_raw_flags} "
    "(#{window_panes} panes) "
    "[#{window_width}x#{window_height}] "
)
NAME_INTERVAL = 0.5


def shuffle_up(s: Session, wl: Winlink, before: bool) -> int:
    """winlink_shuffle_up: make room at wl's index (-b) or after it (-a); -1 if none."""
    if wl is None:
        return -1
    idx = wl.idx if before else wl.idx + 1
    last = idx
    while last in s.windows:
        last += 1
        if last > 2147483647:
            return -1
    for i in range(last, idx, -1):
        moved = s.windows.pop(i - 1)
        moved.idx = i
        s.windows[i] = moved
    return idx


@command("new-window")
def cmd_new_window(item: CmdItem) -> int:
    args = item.args
    server = item.server
    st = item.target
    s = st.s
    assert s is not None
    wl = st.wl
    idx = st.idx
    name = args.get("n")
    if name is not None:
        from .sessions import check_name

        expanded = item.expand(name, T.from_session(s))
        name = check_name(expanded)
        if name is None:
            return item.error(f"invalid window name: {expanded}")
    if args.has("S") and name is not None and st.idx == -1:
        wanted = item.expand(name, T.from_session(s))
        found = None
        for loop in s.sorted_winlinks():
            if loop.window.name != wanted:
                continue
            if found is None:
                found = loop
                continue
            return item.error(f"multiple windows named {name}")
        if found is not None:
            if args.has("d"):
                return CMD_RETURN_NORMAL
            s.set_current(found)
            return CMD_RETURN_NORMAL
    before = args.has("b")
    if args.has("a") or before:
        idx = shuffle_up(s, wl or s.curw, before)
        if idx == -1:
            idx = st.idx
    c = item.client if item.client is not None and not item.client.is_config else None
    env = None
    if args.values("e"):
        from ..model import Environ

        env = Environ()
        for entry in parse_environ_args(args.values("e")):
            env.set(*entry)
    sc = SpawnContext(
        s=s, argv=[a for a in args.argv if isinstance(a, str)],
        cwd=item.expand(args.get("c") or "", T.from_session(s)) if args.get("c") else None,
        environ=env, name=name,
        idx=idx, detached=args.has("d"), kill=args.has("k"), client=c, tc=item.target_client)
    try:
        new_wl = spawn_window(server, sc)
    except SpawnError as e:
        return item.error(f"create window failed: {e}")
    if not args.has("d") or new_wl is s.curw:
        item.state.current = T.from_winlink(new_wl)
    if args.has("P"):
        template = args.get("F") or NEW_WINDOW_TEMPLATE
        item.print(item.expand(template, T.from_winlink(new_wl)))
    item.target = T.from_winlink(new_wl)
    server.run_hook("after-new-window", item)
    return CMD_RETURN_NORMAL


@command("list-windows")
def cmd_list_windows(item: CmdItem) -> int:
    """-a lists every session's windows; -O/-r sort the whole list (sort.c). As tmux 3.7b,
    ``#{line}`` is the number of windows listed, not the line's own number."""
    from .sessions import sort_args

    args = item.args
    how = sort_args(item)
    if how is None:
        return CMD_RETURN_ERROR
    template = args.get("F")
    if args.has("a"):
        winlinks = [wl for s in item.server.model.sorted_sessions() for wl in s.sorted_winlinks()]
        template = template if template is not None else LIST_WINDOWS_WITH_SESSION_TEMPLATE
    else:
        assert item.target.s is not None
        winlinks = item.target.s.sorted_winlinks()
        template = template if template is not None else LIST_WINDOWS_TEMPLATE
    winlinks = sort_items("winlink", winlinks, *how)
    flt = args.get("f")
    line = str(len(winlinks))
    for wl in winlinks:
        st = T.from_winlink(wl)
        if flt is not None and not format_true(item.expand(flt, st, line=line)):
            continue
        item.print(item.expand(template, st, line=line))
    return CMD_RETURN_NORMAL


def _session_step(s: Session, activity: bool, direction: int) -> bool:
    """session_next/session_previous: the neighbouring window by index, wrapping round (with
    ``-a``, the nearest one with an alert)."""
    order = sorted(s.windows)
    if s.curw is None or not order:
        return False
    i = order.index(s.curw.idx)
    for step in range(1, len(order) + 1):
        wl = s.windows[order[(i + direction * step) % len(order)]]
        if not activity or wl.flags & (WINLINK_BELL | WINLINK_ACTIVITY | WINLINK_SILENCE):
            if wl is s.curw:
                return False
            s.set_current(wl)
            return True
    return False


def session_next(s: Session, activity: bool) -> bool:
    return _session_step(s, activity, 1)


def session_previous(s: Session, activity: bool) -> bool:
    return _session_step(s, activity, -1)


def session_last(s: Session) -> bool:
    if not s.lastw:
        return False
    wl = s.lastw[0]
    if wl is s.curw:
        return False
    s.set_current(wl)
    return True


def _select_window(item: CmdItem, mode: str) -> int:
    args = item.args
    st = item.target
    s = st.s
    assert s is not None
    nxt = mode == "next" or args.has("n")
    prev = mode == "previous" or args.has("p")
    last = mode == "last" or args.has("l")
    if nxt or prev or last:
        activity = args.has("a")
        if nxt:
            if not session_next(s, activity):
                return item.error("no next window")
        elif prev:
            if not session_previous(s, activity):
                return item.error("no previous window")
        elif not session_last(s):
            return item.error("no last window")
        item.state.current = T.from_session(s)
    else:
        assert st.wl is not None
        if args.has("T") and st.wl is s.curw:
            if not session_last(s):
                return item.error("no last window")
            if item.state.current is not None and item.state.current.s is s:
                item.state.current = T.from_session(s)
        elif s.set_current(st.wl):
            item.state.current = T.from_session(s)
    item.server.run_hook("after-select-window", item)
    c = item.client
    if c is not None and c.session is not None and s.curw is not None:
        s.curw.window.latest = c
        item.server.resize_session_windows(s)
    return CMD_RETURN_NORMAL


@command("select-window")
def cmd_select_window(item: CmdItem) -> int:
    return _select_window(item, "select")


@command("next-window")
def cmd_next_window(item: CmdItem) -> int:
    return _select_window(item, "next")


@command("previous-window")
def cmd_previous_window(item: CmdItem) -> int:
    return _select_window(item, "previous")


@command("last-window")
def cmd_last_window(item: CmdItem) -> int:
    return _select_window(item, "last")


@command("kill-window")
def cmd_kill_window(item: CmdItem) -> int:
    args = item.args
    st = item.target
    s, wl = st.s, st.wl
    assert s is not None and wl is not None
    server = item.server
    if args.has("a"):
        if len(s.windows) == 1:
            return CMD_RETURN_NORMAL
        while True:
            victim = next((x for x in s.sorted_winlinks() if x.window is not wl.window), None)
            if victim is None:
                break
            server.kill_window(victim.window, renumber=False)
        if sum(1 for x in s.windows.values() if x.window is wl.window) > 1:
            server.kill_window(wl.window, renumber=False)
        server.renumber_all()
        return CMD_RETURN_NORMAL
    server.kill_window(wl.window, renumber=True)
    return CMD_RETURN_NORMAL


@command("unlink-window")
def cmd_unlink_window(item: CmdItem) -> int:
    from .moves import session_detach, session_is_linked

    st = item.target
    assert st.s is not None and st.wl is not None
    if not item.args.has("k") and not session_is_linked(st.s, st.wl.window):
        return item.error("window only linked to one session")
    session_detach(item.server, st.s, st.wl)
    return CMD_RETURN_NORMAL


@command("rename-window")
def cmd_rename_window(item: CmdItem) -> int:
    st = item.target
    assert st.wl is not None
    w = st.wl.window
    from .sessions import check_name

    name = item.expand(item.args.argv[0], st)
    clean = check_name(name)
    if clean is None:
        return item.error(f"invalid window name: {name}")
    w.name = clean
    w.options.set("automatic-rename", False)
    item.server.notify("window-renamed", {"window": w})
    return CMD_RETURN_NORMAL


def check_window_names(server: Server) -> None:
    """automatic-rename: name windows after the active pane's foreground program."""
    from ..format import expand
    from ..formats_vars import context_for_pane

    now = time.time()
    for w in list(server.model.windows.values()):
        p = w.active
        if p is None or not getattr(p, "changed", False):
            continue
        if not w.options.get("automatic-rename"):
            continue
        if now - w.name_time < NAME_INTERVAL:
            continue
        p.changed = False
        w.name_time = now
        fmt = str(w.options.get("automatic-rename-format"))
        name = expand(fmt, context_for_pane(server, p))
        if name != w.name and w.set_name(name, untrusted=True):
            server.notify("window-renamed", {"window": w})
