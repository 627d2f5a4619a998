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
    c = item.client
    # 3.7: a read-only client may detach only itself.
    if c is not None and not c.is_config and c.readonly and (
            args.has("s") or args.has("a") or c is not tc):
        return item.error("client is read-only")
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
    """cmd_switch_client_exec (3.7b): the target is resolved first; -r toggles the client's
    read-only flag, -T sets its key table, -n/-p walk the sessions in -O/-r order, -l goes
    to the last session; a pane target becomes active and its window current; without -E
    update-environment is copied from the client."""
    from ..keybindings import key_tables, set_client_table
    from ..sort import sort_items
    from .sessions import sort_args, update_environment

    args = item.args
    server = item.server
    c = item.client
    tc = item.target_client
    if tc is None:
        return item.error("no current client")
    tflag = args.get("t")
    pane = tflag is not None and (any(ch in tflag for ch in ":.%") or tflag == "=")
    st = item.find(tflag, T.FIND_PANE if pane else T.FIND_SESSION,
                   0 if pane else T.PREFER_UNATTACHED)
    if st is None:
        return -1
    s = st.s
    if args.has("r"):
        if tc.readonly and c is not None and getattr(c, "uid", os.getuid()) != os.getuid():
            return item.error("client is read-only")
        if tc.readonly:
            tc.readonly = tc.ignore_size = False
        else:
            tc.readonly = tc.ignore_size = True
    table = args.get("T")
    if table is not None:
        tables = key_tables(server)
        if tables.get_table(table, create=False) is None:
            return item.error(f"table {table} doesn't exist")
        set_client_table(tables, tc, table)
        server.redraw_clients()
        return CMD_RETURN_NORMAL
    how = sort_args(item)
    if how is None:
        return -1
    if args.has("n") or args.has("p"):
        cur = tc.session
        sessions = sort_items("session", server.model.sorted_sessions(), *how)
        if cur is None or cur not in sessions:
            return item.error("can't find next session" if args.has("n")
                              else "can't find previous session")
        i = sessions.index(cur) + (1 if args.has("n") else -1)
        s = sessions[i % len(sessions)]
    elif args.has("l"):
        s = getattr(tc, "last_session", None)
        if s is None or not s.alive:
            return item.error("can't find last session")
    else:
        if c is None or c.is_config:
            return CMD_RETURN_NORMAL
        wl, wp = st.wl, st.wp
        if wl is not None and wp is not None and wp is not wl.window.active:
            from ..model import apply_layout
            from .layout_cmds import pop_zoom, push_zoom

            w = wl.window
            push_zoom(w, args.has("Z"))
            w.set_active(wp)
            pop_zoom(w)
            apply_layout(w)
        if wl is not None:
            s.set_current(wl)
            item.state.current = T.from_session(s)
    if s is None:
        return item.error("can't find session")
    if not args.has("E"):
        update_environment(s.options, tc.environ, s.environ)
    if s is not tc.session:
        server.attach_client(tc, s, new_client=False)
    else:
        if s.curw is not None:
            s.curw.window.latest = tc
        server.resize_session_windows(s)
        server.redraw_clients()
    if not getattr(item.state, "repeat", False):
        set_client_table(key_tables(server), tc, None)
    return CMD_RETURN_NORMAL


@command("list-clients")
def cmd_list_clients(item: CmdItem) -> int:
    args = item.args
    s = item.target.s if args.has("t") else None
    template = args.get("F") or LIST_CLIENTS_TEMPLATE
    flt = args.get("f")
    from ..sort import sort_items
    from .sessions import sort_args

    how = sort_args(item)
    if how is None:
        return -1
    clients = sort_items("client", [c for c in item.server.clients if c.session is not None],
                         *how)
    for n, c in enumerate(clients):  # sort_get_clients: attached clients; line counts them all
        if s is not None and c.session is not s:
            continue
        st = T.from_session(c.session)
        from ..format import expand
        from ..formats_vars import context_for

        ctx = context_for(item.server, c, st.s, st.wl, st.wp, {"line": str(n)})
        if flt is not None and not format_true(expand(flt, ctx)):
            continue
        item.print(expand(template, ctx))
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


#: Client flag bits tmux 3.7b sends in MSG_FLAGS (tmux.h), for the flags kept as attributes.
_FLAG_BITS = (("readonly", 0x800), ("ignore_size", 0x20000), ("no_output", 0x4000000),
              ("active_pane", 0x80000000), ("wait_exit", 0x200000000),
              ("no_detach_on_destroy", 0x8000000000))
_CLIENT_ATTACHED, _CLIENT_FOCUSED, _CLIENT_PAUSEAFTER = 0x80, 0x8000, 0x100000000
_FLAG_ATTRS = {"read-only": "readonly", "ignore-size": "ignore_size",
               "active-pane": "active_pane", "no-detach-on-destroy": "no_detach_on_destroy"}


def client_flag_bits(c: Any) -> int:
    """The client's flags as tmux's c->flags word (what MSG_FLAGS carries): the identify flags
    (control mode among them) and those set since."""
    bits = c.flags
    for attr, bit in _FLAG_BITS:
        if getattr(c, attr, False):
            bits |= bit
    if getattr(c, "pause_after", None) is not None:
        bits |= _CLIENT_PAUSEAFTER
    if c.session is not None:
        bits |= _CLIENT_ATTACHED
    if getattr(c, "focused", False):
        bits |= _CLIENT_FOCUSED
    return bits


def set_client_flags(c: Any, flags: str) -> None:
    """server_client_set_flags: ``read-only``, ``ignore-size``, ``active-pane`` and
    ``no-detach-on-destroy``, and for control clients ``no-output``, ``pause-after[=N]`` and
    ``wait-exit``; each negated with ``!``; a read-only client cannot make itself writable.
    The client is sent its new flags (MSG_FLAGS: a control client waits after %exit with
    wait-exit)."""
    from .. import protocol as P

    for name in flags.split(","):
        negate = name.startswith("!")
        if negate:
            name = name[1:]
        attr = _FLAG_ATTRS.get(name)
        pause: int | None = None
        if attr is None and c.control:
            if name == "pause-after":
                attr, pause = "pause_after", 0
            elif name.startswith("pause-after="):
                m = re.match(r"\s*\+?(\d+)", name[12:])
                if m is None:
                    continue
                attr, pause = "pause_after", int(m.group(1)) % 2**32
            elif name == "no-output":
                attr = "no_output"
            elif name == "wait-exit":
                attr = "wait_exit"
            elif name == "new-layouts":  # beyond 3.7b: %layout-change gives JSON layouts
                attr = "new_layouts"
        if attr is None:
            continue
        if attr == "pause_after":
            c.pause_after = None if negate else pause
        elif negate:
            if attr != "readonly" or not getattr(c, "readonly", False):
                setattr(c, attr, False)
        else:
            setattr(c, attr, True)
        if attr == "no_output" and c.control_state is not None:
            c.control_state.reset_offsets()
    c.send(P.MSG_FLAGS, P.pack_u64(client_flag_bits(c)))


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
            a.clipboard_query()  # tty_clipboard_query: the answer becomes a buffer
        return CMD_RETURN_NORMAL
    for flag in "Ff":  # -F is an alias for -f
        if args.has(flag):
            set_client_flags(tc, args.get(flag) or "")
            if tc.session is not None and (a is not None or tc.control):
                item.server.resize_session_windows(tc.session)  # ignore-size may change it
    if args.has("r"):
        _report(item, args.get("r") or "")
    cs = tc.control_state
    if args.has("A"):
        if cs is None:
            return item.error("not a control client")
        for value in args.values("A"):
            _update_offset(item, cs, value)
        return CMD_RETURN_NORMAL
    if args.has("B"):
        if cs is None:
            return item.error("not a control client")
        for value in args.values("B"):
            _update_subscription(cs, value)
        return CMD_RETURN_NORMAL
    if args.has("C"):
        if cs is None:
            return item.error("not a control client")
        return _control_size(item, cs, args.get("C") or "")
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


_UINT = r"\s*([+-]?\d+)"


def _scan_uint(text: str) -> int:
    """sscanf's %u: a sign is allowed and a negative number wraps (so it is too big)."""
    return int(text) % 2**32


def _control_size(item: CmdItem, cs: Any, size: str) -> int:
    """refresh-client -C: a control client's size (``WxH`` or ``W,H``), or its size for one
    window (``@id:WxH``; ``@id:`` alone forgets it), as cmd-refresh-client.c scans them."""
    m = re.match("@" + _UINT + ":" + _UINT + "x" + _UINT, size)
    if m is not None:
        w, x, y = (_scan_uint(g) for g in m.groups())
        if not (1 <= x <= 10000 and 1 <= y <= 10000):
            return item.error("size too small or too big")
        cs.set_window_size(w, x, y)
        return CMD_RETURN_NORMAL
    m = re.match("@" + _UINT + ":", size)
    if m is not None:
        cs.clear_window_size(_scan_uint(m.group(1)))
        return CMD_RETURN_NORMAL
    m = re.match(_UINT + "," + _UINT, size) or re.match(_UINT + "x" + _UINT, size)
    if m is None:
        return item.error("bad size argument")
    x, y = (_scan_uint(g) for g in m.groups())
    if not (1 <= x <= 10000 and 1 <= y <= 10000):
        return item.error("size too small or too big")
    cs.set_size(x, y)
    return CMD_RETURN_NORMAL


def _pane_state(value: str) -> tuple[Any, str] | None:
    """``%N:rest`` naming an existing pane (sscanf ``%%%u``), for -A and -r."""
    if not value.startswith("%"):
        return None
    head, sep, rest = value.partition(":")
    if not sep:
        return None
    m = re.match(_UINT, head[1:])
    if m is None:
        return None
    return _scan_uint(m.group(1)), rest


def _update_offset(item: CmdItem, cs: Any, value: str) -> None:
    """refresh-client -A ``%pane:on|off|continue|pause``: that pane's output for this client."""
    parsed = _pane_state(value)
    if parsed is None:
        return
    wp = item.server.model.panes.get(parsed[0])
    if wp is None:
        return
    action = {"on": cs.set_pane_on, "off": cs.set_pane_off, "continue": cs.continue_pane,
              "pause": cs.pause_pane}.get(parsed[1])
    if action is not None:
        action(wp)


def _update_subscription(cs: Any, value: str) -> None:
    """refresh-client -B ``name:what:format`` subscribes; ``name`` alone unsubscribes."""
    from ..control_subs import parse_what

    name, sep, rest = value.partition(":")
    if not sep:
        cs.remove_sub(name)
        return
    what, sep, fmt = rest.partition(":")
    if not sep:
        return
    kind, ident = parse_what(what)
    cs.add_sub(name, kind, ident, fmt)


def _report(item: CmdItem, value: str) -> None:
    """refresh-client -r ``%pane:report``: a control client's terminal answered an OSC 10 or
    11 colour query for the pane (tty_keys_colours); while a control client is attached, the
    pane's own OSC 10/11 queries are answered with these colours."""
    from ..screen.screen import _parse_colour

    parsed = _pane_state(value)
    if parsed is None:
        return
    wp = item.server.model.panes.get(parsed[0])
    if wp is None:
        return
    m = re.match(r"\x1b\]1([01]);(.*?)(?:\x1b\\|\x07)", parsed[1], re.S)
    if m is None or len(m.group(2)) >= 127:
        return
    colour = _parse_colour(m.group(2))
    if colour == -1:
        return
    if m.group(1) == "0":
        wp.control_fg = colour
    else:
        wp.control_bg = colour


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
