"""Client commands: attach-session, list-clients (drawing for attached clients comes with the
attach issue; until then attaching a terminal is refused with a clear message)."""

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
    if c.environ.get("TMUX") and T.inside_pane(server.model, c) is not None:
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
    server.attach_client(c, st.s, new_client=c.session is None)
    return CMD_RETURN_NORMAL


@command("attach-session")
def cmd_attach_session(item: CmdItem) -> int:
    args = item.args
    return attach_session(item, args.get("t"), args.has("d"), args.has("x"))


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
