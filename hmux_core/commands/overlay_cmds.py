"""Commands that put an overlay on a client: display-panes, display-menu, display-popup."""

from __future__ import annotations

import re
from typing import Any

from .. import overlays as O
from .grammar import CommandError
from .prompt_cmds import Answer, Template, queue_commands, queue_error
from .queue import CMD_RETURN_NORMAL, CmdItem, QueueState, parse_text
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


def _strtol(text: str) -> int:
    """strtol(p, NULL, 10): the leading integer, 0 when there is none."""
    m = re.match(r"\s*([+-]?\d+)", text)
    return int(m.group(1)) if m else 0


def _window_range(server: Any, tc: Any, wl: Any, sx: int,
                  lines: int) -> tuple[int, int] | None:
    """Where the status line shows window ``wl`` (its range's first column, the line)."""
    from .. import status
    from ..format import EXPAND_TIME, expand
    from ..formats_vars import context_for
    from ..options import Style

    s = tc.session
    if wl is None or s.curw is None:
        return None
    fmts = s.options.get("status-format") or []
    base = s.options.get_style("status-style") or Style()
    ctx = context_for(server, tc, s, s.curw, s.curw.window.active)
    for line in range(min(lines, len(fmts))):
        ranges: dict[tuple[str, int], int] = {}
        status.draw(expand(fmts[line], ctx, flags=EXPAND_TIME), sx, base, ranges)
        x = ranges.get(("window", wl.idx))
        if x is not None:
            return x, line
    return None


def menu_position(item: CmdItem, tc: Any, w: int, h: int) -> tuple[int, int] | None:
    """cmd_display_menu_get_position: -x and -y (C, R, P, M, W, S or a format) to the
    menu's top-left corner; None when it cannot fit. Without a mouse event M expands to
    nothing (0), as in tmux."""
    size = O.tty_size(tc)
    if size is None:
        return None
    sx, sy = size
    if w > sx or h > sy:
        return None
    s = tc.session
    extra: dict[str, str] = {}
    value = s.options.get("status")
    lines = 0 if value == "off" else 1 if value == "on" else int(value)
    at_top = s.options.get("status-position") == "top"
    top = lines if lines and at_top else 0
    if lines:
        extra["popup_status_line_y"] = str(lines + h if at_top else sy - lines)
        found = _window_range(item.server, tc, item.target.wl, sx, lines)
        if found is not None:
            x, line = found
            extra["popup_window_status_line_x"] = str(x)
            extra["popup_window_status_line_y"] = str(line + 1 + h if at_top
                                                      else sy - lines + line)
    extra["popup_width"], extra["popup_height"] = str(w), str(h)
    m = item.state.event
    if m is not None and m.valid:
        extra["popup_mouse_x"], extra["popup_mouse_y"] = str(m.x), str(m.y)
        extra["popup_mouse_centre_x"] = str(max(m.x - w // 2, 0))
        n = m.y - h // 2
        extra["popup_mouse_centre_y"] = str(sy - h if n + h >= sy else n)
        n = m.y + h
        extra["popup_mouse_top"] = str(sy - 1 if n >= sy else n)
        extra["popup_mouse_bottom"] = str(max(m.y - h, 0))
    extra["popup_centre_x"] = str(max((sx - 1) // 2 - w // 2, 0))
    n = (sy - 1) // 2 + h // 2
    extra["popup_centre_y"] = str(sy - h if n >= sy else n)
    wp = item.target.wp
    if wp is not None:
        n = top + wp.yoff + h
        extra["popup_pane_top"] = str(sy - h if n >= sy else n)
        extra["popup_pane_bottom"] = str(top + wp.yoff + wp.sy)
        extra["popup_pane_left"] = str(wp.xoff)
        extra["popup_pane_right"] = str(max(wp.xoff + wp.sx - w, 0))
    xp = item.args.get("x")
    xp = {None: "#{popup_centre_x}", "C": "#{popup_centre_x}", "R": "#{popup_pane_right}",
          "P": "#{popup_pane_left}", "M": "#{popup_mouse_centre_x}",
          "W": "#{popup_window_status_line_x}"}.get(xp, xp)
    n = _strtol(item.expand(xp, **extra))
    px = sx - w if n + w >= sx else max(n, 0)
    yp = item.args.get("y")
    yp = {None: "#{popup_centre_y}", "C": "#{popup_centre_y}", "P": "#{popup_pane_bottom}",
          "M": "#{popup_mouse_top}", "S": "#{popup_status_line_y}",
          "W": "#{popup_window_status_line_y}"}.get(yp, yp)
    n = _strtol(item.expand(yp, **extra))
    n = 0 if n < h else n - h
    py = sy - h if n + h >= sy else max(n, 0)
    return px, py


@command("display-menu")
async def cmd_display_menu(item: CmdItem) -> int:
    from .. import keys as K
    from ..format import format_width, trim_right

    args = item.args
    server = item.server
    tc = item.target_client
    size = O.tty_size(tc)
    if getattr(tc, "overlay", None) is not None or size is None:
        return CMD_RETURN_NORMAL
    starting_choice = 0
    if args.has("C"):
        if args.get("C") == "-":
            starting_choice = -1
        else:
            try:
                starting_choice = args.strtonum("C", 0, UINT_MAX)
            except CommandError as e:
                return item.error(f"starting choice {e}")
    title = item.expand(args.get("T")) if args.has("T") else ""
    width = format_width(title)
    items: list[tuple[str | None, int, str | None]] = []
    max_base = size[0] - 4
    i, count = 0, args.nargs
    while i != count:
        name = args.string(i) or ""
        i += 1
        if not name:  # a separator: not first, not after another
            if items and items[-1][0] is not None:
                items.append((None, K.KEYC_NONE, None))
            continue
        if count - i < 2:
            return item.error("not enough arguments")
        key = K.string_to_key(args.string(i) or "")
        cmd = args.string(i + 1)
        i += 2
        text = item.expand(name)
        if not text:
            continue
        max_width = max_base
        keytext = None
        if not text.startswith("-") and key not in (K.KEYC_UNKNOWN, K.KEYC_NONE):
            keytext = K.key_to_string(key)
            keylen = len(keytext) + 3
            if keylen <= max_width // 4:
                max_width -= keylen
            elif keylen >= max_width or len(text) >= max_width - keylen:
                keytext = None
        suffix = ""
        if len(text) > max_width:
            max_width -= 1
            suffix = ">"
        shown = trim_right(text, max_width) + suffix
        if keytext is not None:
            shown += f"#[default] #[align=right]({keytext})"
        w = format_width(shown) - (1 if shown.startswith("-") else 0)
        width = max(width, w)
        items.append((shown, key, item.expand(cmd) if cmd is not None else None))
    if not items:
        return CMD_RETURN_NORMAL
    pos = menu_position(item, tc, width + 4, len(items) + 2)
    if pos is None:
        return CMD_RETURN_NORMAL
    lines = args.get("b")
    if lines is not None:
        from ..options_table import OPTIONS_BY_NAME

        if lines not in OPTIONS_BY_NAME["menu-border-lines"].choices:
            return item.error(f"menu-border-lines unknown value: {lines}")
    sx, sy = size
    if sx < width + 4 or sy < len(items) + 2:
        return CMD_RETURN_NORMAL
    px = min(pos[0], sx - width - 4)
    py = min(pos[1], sy - len(items) - 2)
    answer = Answer(item, True)
    target = item.target

    def choose(index: int) -> None:
        command_text = items[index][2]
        if not command_text:
            return
        try:
            cmdlist = parse_text(server, command_text)
        except CommandError as e:
            queue_error(server, tc, str(e))
            return
        # The chosen item's commands see the event that opened the menu (its = targets).
        queue_commands(server, tc, cmdlist, QueueState(current=target, event=m))

    m = item.state.event
    # -M: the mouse works in the menu even when it was not opened by the mouse.
    ov = O.Menu(title, items, width, px, py, choose, stay_open=args.has("O"),
                nomouse=(m is None or not m.valid) and not args.has("M"),
                starting_choice=starting_choice, lines=lines, style=args.get("s"),
                selected_style=args.get("H"), border_style=args.get("S"))
    ov.free_cb = answer.done.set
    O.set_overlay(server, tc, ov, 0)
    await answer.finish()
    return CMD_RETURN_NORMAL


@command("display-popup")
async def cmd_display_popup(item: CmdItem) -> int:
    """A command in a popup on its own PTY (-E closes it when the command exits, -EE only on
    success, -k lets any key close it once the command has exited; -C closes the client's
    popup). On a client already showing a popup, it changes that popup instead (title,
    styles, border lines, and the flags with -N, -E or -k)."""
    from ..options_table import OPTIONS_BY_NAME
    from ..spawn import client_cwd
    from .shell_cmds import job_environ

    args = item.args
    server = item.server
    tc = item.target_client
    if args.has("C"):
        O.clear_overlay(server, tc)
        return CMD_RETURN_NORMAL
    size = O.tty_size(tc)
    current = getattr(tc, "overlay", None)
    modify = isinstance(current, O.Popup)
    if (current is not None and not modify) or size is None:
        return CMD_RETURN_NORMAL
    s = item.target.s or tc.session
    pos = cwd = None
    argv: list[str] = []
    env: dict[str, str] = {}
    w = h = 0
    if not modify:
        tsx, tsy = size
        try:
            h = args.percentage("h", 1, tsy, tsy) if args.has("h") else tsy // 2
        except CommandError as e:
            return item.error(f"height {e}")
        try:
            w = args.percentage("w", 1, tsx, tsx) if args.has("w") else tsx // 2
        except CommandError as e:
            return item.error(f"width {e}")
        w, h = min(w, tsx), min(h, tsy)
        pos = menu_position(item, tc, w, h)
        if pos is None:
            return CMD_RETURN_NORMAL
        cwd = (item.expand(args.get("d")) if args.get("d") is not None
               else client_cwd(server, tc, s))
        shell = server.default_shell()
        argv = args.argv
        if len(argv) <= 1:  # one string for the shell, or default-command, or the shell
            cmd = argv[0] if argv else str(s.options.get("default-command") or "")
            argv = [cmd] if cmd else [shell, "-c", f"exec {shell}"]
        env = job_environ(server, s)
        for entry in args.values("e"):
            k, eq, v = entry.partition("=")
            if eq:
                env[k] = v
    wo = s.curw.window.options
    lines: str | None = None
    if args.has("B"):
        lines = "none"
    elif args.get("b") is not None:
        lines = args.get("b") or ""
        if lines not in OPTIONS_BY_NAME["popup-border-lines"].choices:
            return item.error(f"popup-border-lines unknown value: {lines}")
    title = item.expand(args.get("T")) if args.has("T") else ""
    close_exit = min(args.count("E"), 2)
    given = args.has("N") or args.has("E") or args.has("k") or not modify
    if modify:
        current.modify(title, args.get("s"), args.get("S"), lines,
                       (close_exit, args.has("k")) if given else None)
        O.redraw(tc)
        return CMD_RETURN_NORMAL
    if lines is None:
        lines = str(wo.get("popup-border-lines"))
    jx, jy = (w, h) if lines == "none" else (w - 2, h - 2)
    if jx < 1 or jy < 1:
        return CMD_RETURN_NORMAL
    assert pos is not None and cwd is not None
    try:
        ov = O.open_popup(server, tc, argv, pos[0], pos[1], w, h, lines, title, close_exit,
                          cwd, env, style=args.get("s"), border_style=args.get("S"),
                          close_any_key=args.has("k"))
    except OSError as e:
        return item.error(f"popup failed: {e.strerror}")
    answer = Answer(item, True)
    ov.free_cb = answer.done.set
    await answer.finish()
    c = item.client
    if c is not None and c.session is None and not getattr(c, "is_config", False):
        c.retval = ov.status  # the command-line client exits with the popup's status
    return CMD_RETURN_NORMAL
