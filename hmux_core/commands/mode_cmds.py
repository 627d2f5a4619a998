"""copy-mode and clock-mode (tmux's cmd-copy-mode.c): put a pane into a mode."""

from __future__ import annotations

from ..modes import reset_mode_all, set_mode, top
from ..modes.clock import ClockMode
from ..modes.copy import CopyMode
from ..mouse import copy_start_drag, mouse_pane
from .queue import CMD_RETURN_ERROR, CMD_RETURN_NORMAL, CmdItem
from .registry import command


@command("copy-mode")
def cmd_copy_mode(item: CmdItem) -> int:
    args = item.args
    wp = item.target.wp
    assert wp is not None
    server = item.server
    if args.has("q"):
        reset_mode_all(server, wp)
        return CMD_RETURN_NORMAL
    event = getattr(item.state, "event", None)
    if args.has("M"):
        got = mouse_pane(event)
        if got is None:
            return CMD_RETURN_NORMAL
        c = item.client
        if c is None or c.session is not got[0]:
            return CMD_RETURN_NORMAL
        wp = got[2]
    swp = wp
    if args.has("s"):
        st = item.find(args.get("s"), "pane")
        if st is None or st.wp is None:
            return CMD_RETURN_ERROR
        swp = st.wp
    if set_mode(server, wp, CopyMode, source=swp, args=args) is not None and args.has("M"):
        copy_start_drag(item.client, event)
    if args.has("u"):
        mode = top(wp)
        if isinstance(mode, CopyMode):
            mode.pageup(False)
    return CMD_RETURN_NORMAL


@command("clock-mode")
def cmd_clock_mode(item: CmdItem) -> int:
    wp = item.target.wp
    assert wp is not None
    set_mode(item.server, wp, ClockMode)
    return CMD_RETURN_NORMAL
