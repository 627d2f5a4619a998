"""Server-wide and informational commands: start-server, kill-server, list-commands,
display-message, show-messages."""

from __future__ import annotations

from .. import target as T
from .queue import CMD_RETURN_NORMAL, CmdItem
from .registry import command, table

DISPLAY_MESSAGE_TEMPLATE = (
    "[#{session_name}] #{window_index}:"
    "#{window_name}, current pane #{pane_index} "
    "- (%H:%M %d-%b-%y)"
)
SHOW_MESSAGES_TEMPLATE = "#{t/p:message_time}: #{message_text}"
LIST_COMMANDS_TEMPLATE = (
    "#{command_list_name}#{?command_list_alias, (#{command_list_alias}),} #{command_list_usage}"
)


@command("start-server")
def cmd_start_server(item: CmdItem) -> int:
    return CMD_RETURN_NORMAL


@command("kill-server")
def cmd_kill_server(item: CmdItem) -> int:
    item.server.kill_server()
    return CMD_RETURN_NORMAL


@command("list-commands")
def cmd_list_commands(item: CmdItem) -> int:
    """Every command in tmux's table order, or the one a name, alias or unique prefix finds
    (with tmux's unknown/ambiguous command errors)."""
    from .grammar import CommandError, lookup_command

    template = item.args.get("F") or LIST_COMMANDS_TEMPLATE
    rows = table()
    if item.args.argv:
        try:
            rows = [lookup_command(item.args.argv[0], rows)]
        except CommandError as e:
            return item.error(e.message)
    for row in rows:
        spec = row.extra["spec"]
        line = item.expand(template, T.State(), command_list_name=spec.name,
                           command_list_alias=spec.alias, command_list_usage=spec.usage)
        if line:
            item.print(line)
    return CMD_RETURN_NORMAL


@command("display-message")
def cmd_display_message(item: CmdItem) -> int:
    from ..format import EXPAND_TIME, expand
    from ..formats_vars import VARIABLES, context_for

    args = item.args
    st = item.target
    if args.has("I"):  # stdin into the empty target pane (window_pane_start_input)
        if st.wp is None:
            return CMD_RETURN_NORMAL
        from .panes import pane_input

        return pane_input(item, st.wp)  # type: ignore[return-value]  (awaited by the queue)
    if args.has("F") and args.argv:
        return item.error("only one of -F or argument must be given")
    delay = -1  # display-time
    if args.has("d"):
        from .grammar import CommandError, strtonum

        try:
            delay = strtonum(args.get("d") or "", 0, 0xFFFFFFFF)
        except CommandError as e:
            return item.error(f"delay {e.message}")
    template = args.argv[0] if args.argv else args.get("F")
    if template is None:
        template = DISPLAY_MESSAGE_TEMPLATE
    tc = item.target_client
    s = st.s
    if tc is not None and tc.session is s:
        c = tc
    elif s is not None:
        c = item.server.best_client(s)
    else:
        c = None
    ctx = context_for(item.server, c, s, st.wl, st.wp, dict(item.state.formats))
    ctx.issuer = item.client
    if args.has("a"):
        item.server.ensure_plugins()
        names = set(VARIABLES) | set(ctx.extra)
        if item.server.plugins is not None:
            names |= set(item.server.plugins.index)
        names = sorted(names)
        for name in names:
            value = ctx.lookup(name)
            if value is not None:
                item.print(f"{name}={value}")
        return CMD_RETURN_NORMAL
    msg = template if args.has("l") else expand(template, ctx, flags=EXPAND_TIME)
    if args.has("j"):
        # Beyond 3.7b: the message is a document of the restricted JSON (layout_json), printed
        # canonically (keys sorted, no spaces) or refused.
        from ..layout_json import JsonError, dumps, loads

        try:
            msg = dumps(loads(msg))
        except JsonError as e:
            return item.error(f"invalid JSON: {e}")
    if item.client is None or item.client.is_config:
        return item.error(msg)
    if args.has("p"):
        item.print(msg)
    elif tc is not None and tc.control_state is not None:
        from ..control import message

        message(tc, msg)  # %message, in the command's reply block
    elif tc is not None:
        item.server.status_message(tc, msg, delay=delay, ignore_keys=args.has("N"),
                                   no_freeze=args.has("C"))
    return CMD_RETURN_NORMAL


@command("show-messages")
def cmd_show_messages(item: CmdItem) -> int:
    """The server's message log, newest first (-J and -T list jobs and terminals, of which an
    hmux server without attached terminals has none to describe)."""
    from ..format import expand
    from ..formats_vars import context_for

    args = item.args
    if args.has("T") or args.has("J"):
        return CMD_RETURN_NORMAL
    st = item.target
    for when, number, text in reversed(item.server.messages):
        extra = {"message_text": text, "message_number": str(number),
                 "message_time": str(int(when))}
        ctx = context_for(item.server, item.target_client, st.s, st.wl, st.wp, extra)
        item.print(expand(SHOW_MESSAGES_TEMPLATE, ctx))
    return CMD_RETURN_NORMAL
