"""copy-mode and clock-mode (tmux's cmd-copy-mode.c): put a pane into a mode."""

from __future__ import annotations

from ..modes import reset_mode_all, set_mode, top
from ..modes.clock import ClockMode
from ..modes.copy import CopyMode
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
    if args.has("M"):
        event = getattr(item.state, "event", None)
        wp = getattr(event, "wp", None)
        if wp is None:
            return CMD_RETURN_NORMAL
    swp = wp
    if args.has("s"):
        st = item.find(args.get("s"), "pane")
        if st is None or st.wp is None:
            return CMD_RETURN_ERROR
        swp = st.wp
    set_mode(server, wp, CopyMode, source=swp, args=args)
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
