"""Client commands: attach-session, detach-client, switch-client, list-clients."""

from __future__ import annotations

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
                   kill_other: bool = False) -> int:
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
    if c.fd < 0:
        return item.error("open terminal failed: not a terminal")
    if not server.attach_supported():
        return item.error("open terminal failed: attaching needs the attach support of hmux")
    assert st.s is not None
    if detach_other or kill_other:
        for other in list(server.clients):
            if other is not c and other.session is st.s:
                server.detach_with_message(other, kill=kill_other)
    server.attach_client(c, st.s, new_client=c.session is None)
    return CMD_RETURN_NORMAL


@command("attach-session")
def cmd_attach_session(item: CmdItem) -> int:
    args = item.args
    return attach_session(item, args.get("t"), args.has("d"), args.has("x"))


@command("detach-client")
def cmd_detach_client(item: CmdItem) -> int:
    """Detach one client, every other client (-a) or every client of a session (-s); -P also
    hangs up the client's parent shell (MSG_DETACHKILL)."""
    args = item.args
    server = item.server
    if args.has("E"):
        return item.error("detach-client -E: not supported yet")
    kill = args.has("P")
    tc = item.target_client
    if args.has("s"):
        s = item.source.s if item.source is not None else None
        for c in list(server.clients):
            if s is not None and c.session is s:
                server.detach_with_message(c, kill)
        return CMD_RETURN_NORMAL
    if tc is None:
        return item.error("no current client")
    if args.has("a"):
        for c in list(server.clients):
            if c.session is not None and c is not tc:
                server.detach_with_message(c, kill)
        return CMD_RETURN_NORMAL
    server.detach_with_message(tc, kill)
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
        st = item.find(args.get("t"), T.FIND_SESSION, 0)
        if st is None:
            return -1
        s = st.s
        if st.wl is not None and args.get("t") and any(ch in args.get("t") for ch in ":."):
            s.curw = st.wl
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
