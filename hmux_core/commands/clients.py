"""Client commands: attach-session, detach-client, switch-client, list-clients, suspend-client,
the lock commands and refresh-client."""

from __future__ import annotations

import os
import re
from typing import Any

from .. import target as T
from ..format import format_true
from .queue import CMD_RETURN_NORMAL, CmdItem
from .registry import command

LIST_CLIENTS_TEMPLATE = (
    "#{client_name}: #{session_name} "
    "[#{client_width}x#{client_height} #{client_termname}] "
    "#{?#{!=:#{client_uid},#{uid}},"
    "[user #{?client_user,#{client_user},#{client_uid},}] ,}"
    "#{?client_flags,(,}#{client_flags}#{?client_flags,),}"
)


def attach_session(item: CmdItem, tflag: str | None, detach_other: bool = False,
                   kill_other: bool = False, readonly: bool = False, cflag: str | None = None,
                   keep_environment: bool = False, fflag: str | None = None) -> int:
    """cmd_attach_session (also new-session -A): a window or pane target becomes the session's
    current window and active pane; ``-c`` sets the session's directory, ``-f`` and ``-r``
    the client's flags, and without ``-E`` update-environment is copied from the client."""
    server = item.server
    if not server.model.sessions:
        return item.error("no sessions")
    c = item.client
    if c is None or c.is_config:
        return CMD_RETURN_NORMAL
    if T.client_nested(server.model, c):
        return item.error("sessions should be nested with care, unset $TMUX to force")
    if tflag is not None and any(ch in tflag for ch in ":."):
        kind, flags = T.FIND_PANE, 0
    else:
        kind, flags = T.FIND_SESSION, T.PREFER_UNATTACHED
    st = item.find(tflag, kind, flags)
    if st is None:
        return -1
    s = st.s
    assert s is not None
    if st.wl is not None:
        if st.wp is not None:
            st.wl.window.set_active(st.wp)
        s.set_current(st.wl)
        item.state.current = T.State(s=s, wl=st.wl, w=st.wl.window,
                                     wp=st.wp or st.wl.window.active, idx=st.wl.idx)
    if cflag is not None:
        s.cwd = item.expand(cflag, T.State(s=s, wl=st.wl, w=st.w, wp=st.wp))
    if fflag:
        set_client_flags(c, fflag)
    if readonly:
        if c.readonly and c.uid != os.getuid():
            return item.error("client is read-only")
        c.readonly = True
        c.ignore_size = True
    if c.session is None:
        if c.fd < 0:
            return item.error("open terminal failed: not a terminal")
        if not server.attach_supported():
            return item.error("open terminal failed: attaching needs the attach support of hmux")
    if detach_other or kill_other:
        for other in list(server.clients):
            if other is not c and other.session is s:
                server.detach_with_message(other, kill=kill_other)
    if not keep_environment:
        from .sessions import update_environment

        update_environment(s.options, c.environ, s.environ)
    server.attach_client(c, s, new_client=c.session is None, show_causes=True)
    return CMD_RETURN_NORMAL


@command("attach-session")
def cmd_attach_session(item: CmdItem) -> int:
    args = item.args
    return attach_session(item, args.get("t"), args.has("d"), args.has("x"), args.has("r"),
                          args.get("c"), args.has("E"), args.get("f"))


@command("detach-client")
def cmd_detach_client(item: CmdItem) -> int:
    """Detach one client, every other client (-a) or every client of a session (-s); -P also
    hangs up the client's parent shell (MSG_DETACHKILL), -E replaces the client with a
    shell command (MSG_EXEC)."""
    args = item.args
    server = item.server
    kill = args.has("P")
    command = args.get("E")

    def detach(c: Any) -> None:
        if command is not None:
            server.exec_client(c, command)
        else:
            server.detach_with_message(c, kill)

    tc = item.target_client
    if args.has("s"):
        s = item.source.s if item.source is not None else None
        for c in list(server.clients):
            if s is not None and c.session is s:
                detach(c)
        return CMD_RETURN_NORMAL
    if tc is None:
        return item.error("no current client")
    if args.has("a"):
        for c in list(server.clients):
            if c.session is not None and c is not tc:
                detach(c)
        return CMD_RETURN_NORMAL
    detach(tc)
    return CMD_RETURN_NORMAL

@command("switch-client")
def cmd_switch_client(item: CmdItem) -> int:
    """Move a client to another session (-t, -n, -p, -l) or key table (-T)."""
    args = item.args
    server = item.server
    tc = item.target_client
    if tc is None:
        return item.error("no current client")
    table = args.get("T")
    if table is not None:
        from ..keybindings import key_tables, set_client_table

        set_client_table(key_tables(server), tc, table)
        server.redraw_clients()
        return CMD_RETURN_NORMAL
    sessions = server.model.sorted_sessions()
    cur = tc.session
    if args.has("n") or args.has("p"):
        if cur is None or cur not in sessions:
            return item.error("no current session")
        i = sessions.index(cur) + (1 if args.has("n") else -1)
        s = sessions[i % len(sessions)]
    elif args.has("l"):
        s = getattr(tc, "last_session", None)
        if s is None or not s.alive:
            return item.error("can't find last session")
    else:
        tflag = args.get("t")
        pane = bool(tflag) and any(ch in tflag for ch in ":.%")
        st = item.find(tflag, T.FIND_PANE if pane else T.FIND_SESSION, 0)
        if st is None:
            return -1
        s = st.s
        if pane and st.wl is not None:
            # A pane target: it becomes its window's active pane (the zoom kept with -Z),
            # the window the session's current one, the old one its last (tmux's
            # window_set_active_pane and session_set_current).
            from ..model import apply_layout
            from .layout_cmds import pop_zoom, push_zoom

            w = st.wl.window
            if st.wp is not None and st.wp is not w.active:
                push_zoom(w, args.has("Z"))
                w.set_active(st.wp)
                pop_zoom(w)
                apply_layout(w)
            s.set_current(st.wl)
    if s is None:
        return item.error("can't find session")
    if s is not cur:
        server.attach_client(tc, s, new_client=False)
    else:
        server.redraw_clients()
    return CMD_RETURN_NORMAL


@command("list-clients")
def cmd_list_clients(item: CmdItem) -> int:
    args = item.args
    s = item.target.s if args.has("t") else None
    template = args.get("F") or LIST_CLIENTS_TEMPLATE
    flt = args.get("f")
    n = 0
    for c in item.server.clients:
        if c.session is None or (s is not None and c.session is not s):
            continue
        st = T.from_session(c.session)
        from ..format import expand
        from ..formats_vars import context_for

        ctx = context_for(item.server, c, st.s, st.wl, st.wp, {"line": str(n)})
        if flt is not None and not format_true(expand(flt, ctx)):
            n += 1
            continue
        item.print(expand(template, ctx))
        n += 1
    return CMD_RETURN_NORMAL


@command("suspend-client")
def cmd_suspend_client(item: CmdItem) -> int:
    tc = item.target_client
    if tc is not None:
        item.server.suspend_client(tc)
    return CMD_RETURN_NORMAL


def _lock(item: CmdItem, clients: list) -> int:
    for c in clients:
        item.server.lock_client(c)
    return CMD_RETURN_NORMAL


@command("lock-server")
def cmd_lock_server(item: CmdItem) -> int:
    return _lock(item, [c for c in item.server.clients if c.session is not None])


@command("lock-session")
def cmd_lock_session(item: CmdItem) -> int:
    s = item.target.s
    return _lock(item, [c for c in item.server.clients if s is not None and c.session is s])


@command("lock-client")
def cmd_lock_client(item: CmdItem) -> int:
    return _lock(item, [item.target_client] if item.target_client is not None else [])


def set_client_flags(c: Any, flags: str) -> None:
    """server_client_set_flags: ``read-only``, ``ignore-size``, ``active-pane``, each
    negated with ``!``; a read-only client cannot make itself writable."""
    for name in flags.split(","):
        negate = name.startswith("!")
        if negate:
            name = name[1:]
        attr = {"read-only": "readonly", "ignore-size": "ignore_size",
                "active-pane": "active_pane"}.get(name)
        if attr is None:
            continue
        if negate:
            if attr != "readonly" or not getattr(c, "readonly", False):
                setattr(c, attr, False)
        else:
            setattr(c, attr, True)


@command("refresh-client")
def cmd_refresh_client(item: CmdItem) -> int:
    """Redraw a client (-S the status line only); pan its view (-L -R -U -D -c); flags (-f);
    -l asks the terminal for its clipboard; -A, -B and -C are for control clients."""
    args = item.args
    tc = item.target_client
    a = getattr(tc, "attached", None)
    if any(args.has(f) for f in "cLRUD"):
        adjust = 1
        if args.nargs:
            from .grammar import CommandError, strtonum

            try:
                adjust = strtonum(args.string(0) or "", 1, 2147483647)
            except CommandError as e:
                return item.error(f"adjustment {e}")
        _pan(tc, args, adjust)
        if a is not None:
            a.redraw(full=True)
        return CMD_RETURN_NORMAL
    if args.has("l"):
        value = args.get("l")
        if value is not None and item.find(value, T.FIND_PANE) is None:
            return -1
        if a is not None:
            a.tty.write(b"\x1b]52;;?\x07")  # tty_clipboard_query; the answer is not read yet
        return CMD_RETURN_NORMAL
    for flag in "Ff":
        if args.has(flag):
            set_client_flags(tc, args.get(flag) or "")
            if tc.session is not None and a is not None:
                item.server.resize_session_windows(tc.session)  # ignore-size may change it
    if any(args.has(f) for f in "ABC"):
        if not tc.control:
            return item.error("not a control client")
        if args.has("C"):
            return _control_size(item, tc, args.get("C") or "")
        return CMD_RETURN_NORMAL
    if a is not None:
        a.redraw(full=not args.has("S"))
    return CMD_RETURN_NORMAL


def _pan(tc: Any, args: Any, adjust: int) -> None:
    """refresh-client -L/-R/-U/-D: move the view of a window larger than the terminal from
    where it is now (-c: follow the cursor again)."""
    if args.has("c") or tc.session is None or tc.session.curw is None:
        tc.pan_window = None
        return
    w = tc.session.curw.window
    a = tc.attached
    r = getattr(a, "renderer", None)
    if a is not None:
        lines = a.tty.sy - a.server.client_size(tc)[1]
        osx, osy = a.tty.sx, a.tty.sy - lines
        if osx >= w.sx and osy >= w.sy:
            osx, osy = w.sx, w.sy
    else:
        osx, osy = w.sx, w.sy
    if getattr(tc, "pan_window", None) is not w:
        tc.pan_window = w
        tc.pan_ox, tc.pan_oy = r.offset if r is not None else (0, 0)
    ox, oy = tc.pan_ox, tc.pan_oy
    if args.has("L"):
        ox = max(ox - adjust, 0)
    elif args.has("R"):
        ox = max(min(ox + adjust, w.sx - osx), 0)
    elif args.has("U"):
        oy = max(oy - adjust, 0)
    elif args.has("D"):
        oy = max(min(oy + adjust, w.sy - osy), 0)
    tc.pan_ox, tc.pan_oy = ox, oy


def _control_size(item: CmdItem, tc: Any, size: str) -> int:
    """refresh-client -C: a control client's size (``WxH``, ``W,H`` or ``@window:WxH``)."""
    m = re.fullmatch(r"@(\d+):(\d+)x(\d+).*", size) or re.fullmatch(r"@(\d+):.*", size)
    if m is not None:
        if m.lastindex == 3:
            x, y = int(m.group(2)), int(m.group(3))
            if not (1 <= x <= 10000 and 1 <= y <= 10000):
                return item.error("size too small or too big")
        return CMD_RETURN_NORMAL
    m = re.match(r"\s*(\d+)[,x](\d+)", size)
    if m is None:
        return item.error("bad size argument")
    x, y = int(m.group(1)), int(m.group(2))
    if not (1 <= x <= 10000 and 1 <= y <= 10000):
        return item.error("size too small or too big")
    tc.sx, tc.sy = x, y
    return CMD_RETURN_NORMAL


def lock_idle_sessions(server: Any) -> None:
    """lock-after-time: an attached session with no key for that many seconds locks its
    clients, once per stretch of idleness (tmux's one-shot session lock timer)."""
    import time

    now = time.time()
    for s in server.model.sessions.values():
        if not s.attached:
            continue
        after = int(s.options.get("lock-after-time"))
        if after <= 0:
            continue
        clients = [c for c in server.clients if c.session is s]
        last = max([s.activity_time] + [c.activity_time for c in clients])
        if now - last >= after and getattr(s, "locked_at", None) != last:
            s.locked_at = last
            for c in clients:
                server.lock_client(c)
