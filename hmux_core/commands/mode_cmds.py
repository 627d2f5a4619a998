"""copy-mode and clock-mode (tmux 3.7b's cmd-copy-mode.c): put a pane into a mode."""

from __future__ import annotations

from ..keys import is_mouse_key
from ..modes import reset_mode, reset_mode_all, set_mode, top
from ..modes.clock import ClockMode
from ..modes.copy import CopyMode, slider_drag
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
    # Entered with the mouse, copy mode shows no line numbers (copy-mode-line-numbers).
    line_numbers = not (event is not None and getattr(event, "valid", False)
                        and is_mouse_key(getattr(event, "key", 0)))
    started = set_mode(server, wp, CopyMode, source=swp, args=args) is not None
    mode = top(wp)
    if isinstance(mode, CopyMode):
        mode.set_line_numbers(line_numbers)
    if started and args.has("M"):
        copy_start_drag(item.client, event)
    if isinstance(mode, CopyMode) and args.has("u"):
        mode.pageup(False)
    if isinstance(mode, CopyMode) and args.has("d"):
        if mode.pagedown(False, args.has("e")):
            reset_mode(server, wp)
    if isinstance(mode, CopyMode) and args.has("S"):  # a drag on the scrollbar's slider
        drag = slider_drag(item.client, event)
        if drag is not None and mode.scroll_slider(*drag, args.has("e")):
            reset_mode(server, wp)
    return CMD_RETURN_NORMAL


@command("clock-mode")
def cmd_clock_mode(item: CmdItem) -> int:
    wp = item.target.wp
    assert wp is not None
    set_mode(item.server, wp, ClockMode)
    return CMD_RETURN_NORMAL
