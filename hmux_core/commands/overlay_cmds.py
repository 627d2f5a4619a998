"""Commands that put an overlay on a client: display-panes (and display-menu)."""

from __future__ import annotations

from .. import overlays as O
from .grammar import CommandError
from .prompt_cmds import Answer, Template
from .queue import CMD_RETURN_NORMAL, CmdItem
from .registry import command

UINT_MAX = 4294967295


@command("display-panes")
async def cmd_display_panes(item: CmdItem) -> int:
    args = item.args
    server = item.server
    tc = item.target_client
    if getattr(tc, "overlay", None) is not None:
        return CMD_RETURN_NORMAL
    if args.has("d"):
        try:
            delay = args.strtonum("d", 0, UINT_MAX)
        except CommandError as e:
            return item.error(f"delay {e}")
    else:
        oo = tc.session.options if tc.session is not None else server.session_options
        delay = int(oo.get("display-panes-time"))
    answer = Answer(item, not args.has("b"))
    tpl = Template(item, 0, 'select-pane -t "%%%"', False)

    def choose(wp: object) -> None:
        answer.run(tc, lambda: tpl.make([f"%{wp.id}"]))  # type: ignore[attr-defined]

    ov = O.DisplayPanes(None if args.has("N") else choose)
    ov.free_cb = answer.done.set
    O.set_overlay(server, tc, ov, delay)
    if answer.wait:
        await answer.finish()
    return CMD_RETURN_NORMAL
