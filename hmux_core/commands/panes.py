"""Pane commands: split-window, list-panes, select-pane, last-pane, kill-pane, capture-pane,
clear-history, send-keys, and what happens when a pane's process exits."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import target as T
from ..events import QUIET
from ..format import format_true
from ..keys import (
    KEYC_LITERAL,
    KEYC_MASK_FLAGS,
    KEYC_NONE,
    KEYC_SENT,
    KEYC_UNKNOWN,
    encode_key,
    hex_byte,
    is_mouse_key,
    literal_keys,
    pane_modes,
    send_keys_bytes,
    string_to_key,
    written_for_refused,
)
from ..layout import LayoutError, parse_percentage
from ..model import Environ, apply_layout
from ..modes import reset_mode_all
from ..mouse import mouse_pane, mouse_window, pane_key, resize_update
from ..options import strtonum
from ..spawn import SpawnContext, SpawnError, spawn_pane
from .layout_cmds import pop_zoom, push_zoom
from .queue import CMD_RETURN_ERROR, CMD_RETURN_NORMAL, CmdItem
from .registry import command
from .util import parse_environ_args

if TYPE_CHECKING:
    from ..pane import Pane
    from ..server import Server

SPLIT_WINDOW_TEMPLATE = "#{session_name}:#{window_index}.#{pane_index}"
_PANE_TAIL = (
    "[#{pane_width}x#{pane_height}"
    "#{?pane_floating_flag, #{pane_x}#,#{pane_y}#,#{pane_z}}] [history "
    "#{history_size}/#{history_limit}, "
    "#{history_bytes} bytes] #{pane_id}"
    "#{?pane_active, (active),}#{?pane_dead, (dead),}"
)
LIST_PANES_TEMPLATES = (
    "#{pane_index}: " + _PANE_TAIL,
    "#{window_index}.#{pane_index}: " + _PANE_TAIL,
    "#{session_name}:#{window_index}.#{pane_index}: " + _PANE_TAIL,
)


def percentage_expand(item: CmdItem, value: str, minval: int, maxval: int,
                      curval: int) -> tuple[int, str | None]:
    """``args_string_percentage_and_expand``: "N" or "N%" of curval, formats expanded
    against the command's target; (value, None) or (0, tmux's cause)."""
    if value.endswith("%"):  # the number before the sign is what is expanded
        return parse_percentage(item.expand(value[:-1]) + "%", minval, maxval, curval)
    return strtonum(item.expand(value), minval, maxval)


def floating_geometry(item: CmdItem, w: Any) -> tuple[int, int, int, int]:
    """``layout_get_floating_cell``'s size and place for a new floating pane: half the
    window's width and a quarter of its height unless -x/-y say, at -X/-Y or else four
    columns right and two rows down from the last one placed (back to 4,2 past the window's
    edge).  Raises LayoutError with the cause ("too large", …)."""
    args = item.args
    lay = w.layout
    sx, sy = w.sx // 2, w.sy // 4
    ox = oy = None
    for flag in "xyXY":
        if not args.has(flag):
            continue
        if flag == "x":
            lo, hi, cur = 0, w.sx - 1, w.sx
        elif flag == "y":
            lo, hi, cur = 0, w.sy - 1, w.sy
        elif flag == "X":
            lo, hi, cur = -sx, w.sx, w.sx
        else:
            lo, hi, cur = -sy, w.sy, w.sy
        v, err = percentage_expand(item, args.get(flag) or "", lo, hi, cur)
        if err is not None:
            raise LayoutError(err)
        if flag == "x":
            sx = v
        elif flag == "y":
            sy = v
        elif flag == "X":
            ox = v
        else:
            oy = v
    ox, oy = lay.cascade(w.sx, w.sy, ox, oy)
    return sx, sy, ox, oy


def _tiled_size(item: CmdItem, w: Any, wp: Any) -> tuple[int | None, str | None]:
    """``layout_get_tiled_cell``'s -l (lines, columns or a percentage) or -p, of the pane's
    size or with -f the window's; (size or None for half, cause)."""
    args = item.args
    horizontal = args.has("h")
    if args.has("f"):
        curval = w.sx if horizontal else w.sy
    else:
        curval = wp.sx if horizontal else wp.sy
    if args.has("l"):
        return percentage_expand(item, args.get("l") or "", 0, 2147483647, curval)
    if args.has("p"):
        pct, err = strtonum(item.expand(args.get("p") or ""), 0, 100)
        if err is not None:
            return None, err
        return (curval * pct) // 100, None
    return None, None


@command("split-window")
def cmd_split_window(item: CmdItem) -> Any:
    return _with_input(item, _new_pane(item, floating=False))


@command("new-pane")
def cmd_new_pane(item: CmdItem) -> Any:
    """tmux 3.7b's new-pane: split-window's flags, but a floating pane (-L: a tiled one)."""
    return _with_input(item, _new_pane(item, floating=not item.args.has("L")))


def _with_input(item: CmdItem, rc: int) -> Any:
    """split-window -I: once the empty pane is made, the command waits while its client's
    stdin goes into it (``make 2>&1 | tmux splitw -dI``)."""
    if rc != CMD_RETURN_NORMAL or not item.args.has("I") or item.target.wp is None:
        return rc
    return pane_input(item, item.target.wp)


async def pane_input(item: CmdItem, wp: Pane) -> int:
    """window_pane_start_input: the command's client's stdin into an empty pane's screen as
    it comes, the command waiting until it ends; nothing to read (at once) for a client in a
    session or going away. Only an empty pane (split-window -E or -I) takes it."""
    if not wp.empty:
        return item.error("pane is not empty")
    c = item.client
    if c is None or getattr(c, "is_config", False) or c.session is not None or c.exiting \
            or c.exited:
        return CMD_RETURN_NORMAL
    from ..server import READ_CANCELLED

    def feed(data: bytes) -> bool:
        if wp.destroyed:
            return False  # window_pane_input_callback: the pane went while input came
        wp.input_data(data)
        return True

    _data, error = await c.read_file("-", feed)
    if error == READ_CANCELLED:
        c.request_exit(1)  # as tmux: the client ends with 1 and the command never finishes
        return CMD_RETURN_ERROR
    return CMD_RETURN_NORMAL


def _new_pane(item: CmdItem, floating: bool) -> int:
    """cmd_split_window_exec: a cell for the new pane (tiled: split the target; floating:
    above the tiled ones), then the pane, its options and the printed format."""
    args = item.args
    st = item.target
    s, wl, wp = st.s, st.wl, st.wp
    assert s is not None and wl is not None and wp is not None
    w = wl.window
    lay = w.layout
    assert lay is not None
    argv = [a for a in args.argv if isinstance(a, str)]
    empty = args.has("I") or args.has("E")
    if empty and argv and (len(argv) != 1 or argv[0] != ""):
        return item.error("command cannot be given for empty pane")
    before, full, zoom = args.has("b"), args.has("f"), args.has("Z")
    horizontal = args.has("h")
    # (beyond 3.7b, whose check is made while a zoom hides that the pane floats)
    split_floating = not floating and lay.is_floating(wp, full=True)
    if floating:
        try:
            geom = floating_geometry(item, w)
        except LayoutError as e:
            return item.error(f"size or position {e}")
        cell = None
    elif split_floating:
        # Beyond tmux 3.7b (which says "can't split a floating pane"): as tmux's development
        # tree, a new floating pane beside the target, sharing its space where there is none.
        try:
            geom = lay.split_floating(wp, horizontal, before, full)
        except LayoutError as e:
            return item.error(f"size or position {e}")
        cell = None
        floating = True
    else:
        size, cause = _tiled_size(item, w, wp)
        if cause is not None:
            return item.error("size or position invalid tiled geometry")
        push_zoom(w, zoom, always=True)
        try:
            cell = lay.split(wp, horizontal=horizontal, size=size, before=before, full=full)
        except LayoutError as e:
            return item.error(str(e))
    if floating:
        cell = lay.floating_cell(*geom, anchor=wp)
    env = None
    if args.values("e"):
        env = Environ()
        for entry in parse_environ_args(args.values("e")):
            env.set(*entry)
    c = item.client if item.client is not None and not item.client.is_config else None
    sc = SpawnContext(
        s=s, argv=argv,
        cwd=item.expand(args.get("c") or "", st) if args.get("c") else None, environ=env,
        detached=args.has("d"), client=c, tc=item.target_client, empty=empty)
    try:
        new = spawn_pane(item.server, sc, wl, wp, cell, floating=floating, before=before,
                         full=full, zoom=zoom)
    except SpawnError as e:
        return item.error(f"create pane failed: {e}")
    # options_set_string: tmux stores the styles as given (a bad one is not refused)
    style = args.get("s")
    if style is not None:
        new.options.set_value("window-style", style)
        new.options.set_value("window-active-style", style)
    if args.get("S") is not None:
        new.options.set_value("pane-active-border-style", args.get("S"))
    if args.get("R") is not None:
        new.options.set_value("pane-border-style", args.get("R"))
    if args.has("k") or args.has("m"):
        new.options.set("remain-on-exit", "key")
        if args.has("m"):
            new.options.set("remain-on-exit-format", args.get("m") or "")
    if args.has("T"):
        # Beyond 3.7b (tmux's development tree): the title, expanded against the command's
        # own target; an empty one is allowed, and the change is an event either way.
        from .sessions import check_name

        title = check_name(item.expand(args.get("T") or "", st))
        if title is not None:
            new.screen.title = title
        item.server.notify("pane-title-changed", {"pane": new})
    if not args.has("d"):
        item.state.current = T.from_winlink(wl, new)
    if not floating:
        pop_zoom(w)
    if args.has("P"):
        template = args.get("F") or SPLIT_WINDOW_TEMPLATE
        item.print(item.expand(template, T.from_winlink(wl, new)))
    item.target = T.from_winlink(wl, new)
    item.server.run_hook("after-split-window", item)
    return CMD_RETURN_NORMAL


@command("list-panes")
def cmd_list_panes(item: CmdItem) -> int:
    """Each window's panes, sorted within the window by -O/-r (sort_get_panes_window); as
    tmux 3.7b, ``#{line}`` is the number of panes in the window."""
    from ..sort import order_from_string

    args = item.args
    if order_from_string(args.get("O")) is None and args.has("O"):
        return item.error("invalid sort order")
    model = item.server.model
    st = item.target
    if args.has("a"):
        for s in model.sorted_sessions():
            for wl in s.sorted_winlinks():
                _list_window_panes(item, wl, 2)
    elif args.has("s"):
        assert st.s is not None
        for wl in st.s.sorted_winlinks():
            _list_window_panes(item, wl, 1)
    else:
        assert st.wl is not None
        _list_window_panes(item, st.wl, 0)
    return CMD_RETURN_NORMAL


def _list_window_panes(item: CmdItem, wl: Any, kind: int) -> None:
    args = item.args
    template = args.get("F") or LIST_PANES_TEMPLATES[kind]
    flt = args.get("f")
    from ..sort import order_from_string, sort_items

    panes = sort_items("pane", list(wl.window.panes), order_from_string(args.get("O")),
                       args.has("r"))
    line = str(len(panes))
    for p in panes:
        st = T.from_winlink(wl, p)
        if flt is not None and not format_true(item.expand(flt, st, line=line)):
            continue
        item.print(item.expand(template, st, line=line))


def _raise(w: Any, wp: Pane) -> None:
    """window_redraw_active_switch: a floating pane about to be selected comes to the
    front of the z-order."""
    if wp is not w.active and w.layout is not None:
        w.layout.raise_pane(wp)


def _set_active(item: CmdItem, w: Any, wl: Any, pane: Pane) -> None:
    if w.set_active(pane):
        item.state.current = T.from_winlink(wl, pane)


@command("select-pane")
def cmd_select_pane(item: CmdItem) -> int:
    return _select_pane(item, last=False)


@command("last-pane")
def cmd_last_pane(item: CmdItem) -> int:
    return _select_pane(item, last=True)


def _select_pane(item: CmdItem, last: bool) -> int:
    args = item.args
    st = item.target
    s, wl, wp = st.s, st.wl, st.wp
    assert s is not None and wl is not None and wp is not None
    w = wl.window
    model = item.server.model
    if last or args.has("l"):
        lastwp = w.last
        if lastwp is None and len(w.panes) == 2:
            i = w.panes.index(w.active)
            lastwp = w.panes[i - 1] if i > 0 else w.panes[i + 1]
        if lastwp is None:
            return item.error("no last pane")
        if args.has("e"):
            lastwp.input_off = False
        elif args.has("d"):
            lastwp.input_off = True
        else:
            push_zoom(w, args.has("Z"))
            _raise(w, lastwp)
            _set_active(item, w, wl, lastwp)
            item.state.current = T.from_winlink(wl)
            pop_zoom(w)
        return CMD_RETURN_NORMAL
    if args.has("m") or args.has("M"):
        if args.has("m") and w.zoomed and wp is not w.active:
            return CMD_RETURN_NORMAL  # only a visible pane can be marked
        marked = model.marked
        lwp = marked[2] if marked is not None else None
        if args.has("M") or (marked is not None and marked[0] is s and marked[1] is wl
                             and marked[2] is wp):
            model.marked = None
        else:
            model.marked = (s, wl, wp)
        if "marked-pane-changed" not in QUIET:  # the development tree's event
            mwp = model.marked[2] if model.marked is not None else None
            epane = mwp or lwp or wp
            data: dict[str, Any] = {"pane": epane, "window": epane.window,
                                    "marked": int(mwp is not None)}
            if mwp is not None:
                data["new_pane"] = mwp
            if lwp is not None:
                data["old_pane"] = lwp
            item.server.notify("marked-pane-changed", data)
        if w.layout is not None and w.layout.is_floating(wp):
            _raise(w, wp)  # marking a floating pane also selects it (tmux 3.7b)
            _set_active(item, w, wl, wp)
        return CMD_RETURN_NORMAL
    style = args.get("P")
    if style is not None:
        try:
            wp.options.set("window-style", style)
            wp.options.set("window-active-style", style)
        except Exception:
            return item.error(f"bad style: {style}")
        from .. import escapes

        escapes.pane_theme_changed(wp)  # PANE_THEMECHANGED: mode 2031 hears of a new theme
    if args.has("g"):
        item.print(str(wp.options.get("window-style")))
        return CMD_RETURN_NORMAL
    for flag in "LRUD":
        if args.has(flag):
            assert w.layout is not None
            wp = w.layout.find_pane(wp, flag)
            break
    if wp is None:
        return CMD_RETURN_NORMAL
    if args.has("e"):
        wp.input_off = False
        return CMD_RETURN_NORMAL
    if args.has("d"):
        wp.input_off = True
        return CMD_RETURN_NORMAL
    if args.has("T"):
        from .sessions import check_name

        # tmux 3.7b's screen_set_title: a title that is not printable UTF-8 is ignored; a
        # valid one is stored cleaned and notified even when it did not change.
        title = check_name(item.expand(args.get("T") or "", st))
        if title is not None:
            wp.screen.title = title
            item.server.notify("pane-title-changed", {"pane": wp})
        return CMD_RETURN_NORMAL
    if wp is w.active:
        return CMD_RETURN_NORMAL
    push_zoom(w, args.has("Z"))
    _raise(w, wp)
    _set_active(item, w, wl, wp)
    item.server.run_hook("after-select-pane", item)
    pop_zoom(w)
    return CMD_RETURN_NORMAL


@command("kill-pane")
def cmd_kill_pane(item: CmdItem) -> int:
    st = item.target
    wl, wp = st.wl, st.wp
    assert wl is not None and wp is not None
    server = item.server
    w = wl.window
    if item.args.has("a"):
        if w.layout is not None:
            w.layout.unzoom()
        for other in list(w.panes):
            if other is not wp:
                server.model.remove_pane(other)
        return CMD_RETURN_NORMAL
    server.kill_pane(wp)
    return CMD_RETURN_NORMAL


@command("capture-pane")
def cmd_capture_pane(item: CmdItem) -> int:
    return _capture(item, clear=False)


@command("clear-history")
def cmd_clear_history(item: CmdItem) -> int:
    return _capture(item, clear=True)


def _line_number(value: str | None, hsize: int, sy: int, dash: int, default: int) -> int:
    """capture-pane's -S/-E: ``-`` for the extreme, a number (negative into history)."""
    if value == "-":
        return dash
    try:
        n = int(value, 10) if value is not None else None
        if n is not None and not (-2147483648 <= n <= 32767):
            n = None
    except ValueError:
        n = None
    if n is None:
        return default
    if n < 0 and -n > hsize:
        pos = 0
    else:
        pos = hsize + n
    return min(pos, hsize + sy - 1)


def _capture(item: CmdItem, clear: bool) -> int:
    args = item.args
    wp = item.target.wp
    assert wp is not None
    screen = wp.screen
    if clear:
        reset_mode_all(item.server, wp)
        screen.clear_history()
        if args.has("H"):  # clear-history -H: the pane's hyperlinks go too
            links = getattr(screen, "hyperlinks", None)
            if links is not None:
                links.reset()
        return CMD_RETURN_NORMAL
    if args.has("R"):  # beyond 3.7b: the grid as tmux stores it, before any other choice
        from ..grid_dump import dump

        text = dump(screen)
    elif args.has("P") and not args.has("H"):
        text = ""
    else:
        if args.has("a") and not screen.alternate_on:
            if not args.has("q"):
                return item.error("no alternate screen")
            text = ""
        elif args.has("M") and not args.has("a") and wp.modes \
                and getattr(wp.modes[0], "back", None) is not None:
            text = _capture_mode(item, wp.modes[0].back, screen)
        else:
            hsize = 0 if args.has("a") else screen.history_size
            sy = screen.rows
            top = _line_number(_expanded(item, "S"), hsize, sy, 0, hsize)
            bottom = _line_number(_expanded(item, "E"), hsize, sy, hsize + sy - 1,
                                  hsize + sy - 1)
            if bottom < top:
                top, bottom = bottom, top
            lines = screen.capture(top - hsize, bottom - hsize, escapes=args.has("e"),
                                   join=args.has("J"), trailing=args.has("N"),
                                   octal=args.has("C"), alternate=args.has("a"),
                                   used_only=args.has("T"), line_numbers=args.has("L"),
                                   line_flags=args.has("F"), hyperlinks=args.has("H"))
            if args.has("I") and not args.has("H"):  # beyond 3.7b: history times first
                from ..grid_dump import capture_times

                times = capture_times(screen, top, bottom, args.has("J"))
                lines = [f"{t} {line}" for t, line in zip(times, lines, strict=False)]
            text = "\n".join(lines) + "\n"
    if args.has("p"):
        c = item.client
        if c is None:
            return CMD_RETURN_NORMAL
        if text.endswith("\n"):
            text = text[:-1]
        c.write_stream(1, text.encode("utf-8", "surrogateescape") + b"\n")
        return CMD_RETURN_NORMAL
    err = item.server.buffers.set(text.encode("utf-8", "surrogateescape"), args.get("b"))
    if err:
        return item.error(err)
    return CMD_RETURN_NORMAL


def _expanded(item: CmdItem, flag: str) -> str | None:
    """capture-pane's -S/-E are formats in tmux 3.7b (args_strtonum_and_expand)."""
    value = item.args.get(flag)
    if value is None or value == "-" or "#" not in value:
        return value
    return item.expand(value, item.target)


def _capture_mode(item: CmdItem, back: Any, screen: Any) -> str:
    """capture-pane -M: the copy mode's backing grid (window_copy_get_screen), the history
    and screen as they were when the mode started."""
    from ..screen.screen import capture_snapshot

    args = item.args
    hsize, sy = back.hsize, back.sy
    top = _line_number(_expanded(item, "S"), hsize, sy, 0, hsize)
    bottom = _line_number(_expanded(item, "E"), hsize, sy, hsize + sy - 1, hsize + sy - 1)
    if bottom < top:
        top, bottom = bottom, top
    lines = capture_snapshot(back, screen, top - hsize, bottom - hsize, escapes=args.has("e"),
                             join=args.has("J"), trailing=args.has("N"), octal=args.has("C"),
                             used_only=args.has("T"), line_numbers=args.has("L"),
                             line_flags=args.has("F"), hyperlinks=args.has("H"))
    return "\n".join(lines) + "\n"


@command("send-keys")
def cmd_send_keys(item: CmdItem) -> int:
    """cmd_send_keys_exec (tmux 3.7b): keys to the pane, to its mode's key table, or with -K
    to the target client as if typed there."""
    args = item.args
    st = item.target
    wp = st.wp
    assert wp is not None
    tc = item.target_client
    if tc is not None and getattr(tc, "readonly", False) and not args.has("X"):
        return item.error("client is read-only")
    keys = [a for a in args.argv if isinstance(a, str)]
    repeat = 1
    if args.has("N"):
        n, err = strtonum(item.expand(args.get("N") or "", st), 1, 4294967295)
        if err is not None:
            return item.error(f"repeat count {err}")
        repeat = n
        if wp.modes and (args.has("X") or not keys):
            if not wp.modes[0].has_command:
                return item.error("not in a mode")
            wp.modes[0].prefix = repeat
    if args.has("X"):
        if not wp.modes or not wp.modes[0].has_command:
            return item.error("not in a mode")
        return wp.modes[0].command(item)
    if args.has("M"):
        m = getattr(item.state, "event", None)
        got = mouse_pane(m)
        if got is None:
            return item.error("no mouse target")
        pane_key(tc or item.client, got[2], m.key, m)
        return CMD_RETURN_NORMAL
    if args.has("R"):
        wp.screen.reset()
    if not keys:
        # A binding's own key, when the binding is a bare send-keys.
        key = getattr(item.state, "key", None)
        if args.has("N") or args.has("R") or key is None:
            return CMD_RETURN_NORMAL
        for _ in range(repeat):
            _inject_key(item, wp, key)
        return CMD_RETURN_NORMAL
    if args.has("K"):
        for _ in range(repeat):
            for arg in keys:
                _inject_string(item, wp, arg)
        return CMD_RETURN_NORMAL
    if wp.modes:
        return _keys_to_mode(item, wp, keys, repeat)
    if wp.input_off or wp.dead:
        return CMD_RETURN_NORMAL  # window_pane_key takes the keys and drops them
    targets = [wp]
    if wp.options.get("synchronize-panes"):
        targets += [p for p in wp.window.panes if _copies_keys(wp, p)]
    for p in targets:
        data = send_keys_bytes(keys, literal=args.has("l"), hex_input=args.has("H"),
                               **pane_modes(p.screen, item.server.options))
        p.write(data * repeat)
    return CMD_RETURN_NORMAL


def _copies_keys(wp: Any, other: Any) -> bool:
    """window_pane_copy_key: the other panes of a synchronized window that get its keys."""
    w = other.window
    return (other is not wp and not other.modes and not other.dead and not other.input_off
            and (not w.zoomed or other is w.active)
            and bool(other.options.get("synchronize-panes")))


def _inject_string(item: CmdItem, wp: Any, arg: str) -> None:
    """cmd_send_keys_inject_string: one argument as a key (-H a hex byte), or when it names no
    key or is refused, as its characters."""
    args = item.args
    if args.has("H"):
        n = hex_byte(arg)
        if n is not None:
            _inject_key(item, wp, KEYC_LITERAL | n)
        return
    if not args.has("l"):
        key = string_to_key(arg)
        if key not in (KEYC_NONE, KEYC_UNKNOWN) and _inject_key(item, wp, key):
            return
    for key in literal_keys(arg):
        _inject_key(item, wp, key)


def _inject_key(item: CmdItem, wp: Any, key: int) -> bool:
    """cmd_send_keys_inject_key: False when the pane refused the key (it is typed instead)."""
    if item.args.has("K"):
        tc = item.target_client
        att = getattr(tc, "attached", None) if tc is not None else None
        if att is not None:
            att.input(key | KEYC_SENT, b"")
        elif tc is not None and getattr(tc, "control_state", None) is not None:
            from ..client_keys import send_key

            send_key(item.server, tc, key | KEYC_SENT)
        return True
    if wp.modes:
        if wp.modes[0].key_table() is None and is_mouse_key(key):
            return False
        _inject_mode_keys(item, wp, [key], 1)
        return True
    if wp.input_off or wp.dead:
        return True
    modes = pane_modes(wp.screen, item.server.options)
    data = encode_key(key, **modes)
    if data is None:
        wp.write(written_for_refused(key, modes["extended_keys"]))
        return False
    wp.write(data)
    if wp.options.get("synchronize-panes"):
        for p in wp.window.panes:
            if _copies_keys(wp, p):
                out = encode_key(key, **pane_modes(p.screen, item.server.options))
                if out:
                    p.write(out)
    return True


def _keys_to_mode(item: CmdItem, wp: Any, keys: list[str], repeat: int) -> int:
    """cmd_send_keys_inject_key for a pane in a mode: each key runs the mode table's binding
    (a mode without a table, clock mode, takes the key itself)."""
    args = item.args
    codes: list[int] = []
    for k in keys:
        if args.has("H"):
            n = hex_byte(k)
            if n is not None:
                codes.append(KEYC_LITERAL | n)
            continue
        if not args.has("l"):
            key = string_to_key(k)
            if key not in (KEYC_NONE, KEYC_UNKNOWN):
                codes.append(key)
                continue
        codes.extend(literal_keys(k))
    return _inject_mode_keys(item, wp, codes, repeat)


def _inject_mode_keys(item: CmdItem, wp: Any, codes: list[int], repeat: int) -> int:
    from ..keybindings import binding_items, key_tables, mode_key_binding

    kt = key_tables(item.server)
    for _ in range(repeat):
        for key in codes:
            mode = wp.modes[0] if wp.modes else None
            if mode is None:
                break
            table = mode.key_table()
            if table is None:
                tc = item.target_client
                if tc is not None and getattr(tc, "session", None) is not None:
                    mode.key(tc, key & ~KEYC_MASK_FLAGS, sent=True)  # only with a client
                continue
            bd = mode_key_binding(kt, table, key)
            if bd is not None:
                items = binding_items(item.server, item.target_client, bd, current=item.target,
                                      key=KEYC_NONE)  # no key event: "command" in the log
                if items:
                    item.inserted.extend(items)
    return CMD_RETURN_NORMAL


@command("send-prefix")
def cmd_send_prefix(item: CmdItem) -> int:
    st = item.target
    assert st.s is not None and st.wp is not None
    name = str(st.s.options.get("prefix2" if item.args.has("2") else "prefix"))
    key = string_to_key(name)
    if st.wp.modes:
        return _inject_mode_keys(item, st.wp, [key], 1)
    if st.wp.input_off or st.wp.dead:
        return CMD_RETURN_NORMAL
    data = encode_key(key, **pane_modes(st.wp.screen, item.server.options))
    if data:
        st.wp.write(data)
    return CMD_RETURN_NORMAL


def pane_exited(server: Server, pane: Pane) -> None:
    """server_destroy_pane: keep the pane with remain-on-exit, else close it."""
    if pane.destroyed or pane not in pane.window.panes:
        return
    remain = pane.options.get("remain-on-exit")
    keep = False
    if remain in (True, "on", 1, "key"):  # key: until a key is pressed in it (attached.py)
        keep = True
    elif remain == "failed":
        keep = not (pane.dead_signal is None and pane.dead_status == 0)
    if keep:
        server.notify("pane-died", {"pane": pane})
        from ..format import expand
        from ..formats_vars import context_for_pane

        fmt = str(pane.options.get("remain-on-exit-format"))
        if fmt:
            text = expand(fmt, context_for_pane(server, pane))
            sy = pane.sy
            pane.screen.feed(f"\x1b[r\x1b[{sy};1H\n\r{text[: pane.sx]}".encode())
        pane.screen.cursor_visible = False
        return
    server.notify("pane-exited", {"pane": pane})
    server.kill_pane(pane)


def _resize_floating(item: CmdItem, w: Any, wp: Any) -> int:
    """resize-pane on a floating pane, beyond tmux 3.7b (which moves tiled borders around
    it) as its development tree does: -x/-y set its size with its borders, -L/-U grow it on
    the left or top and -R/-D on the right or bottom by the adjustment (shrink if negative)."""
    from ..layout import LEFTRIGHT, TOPBOTTOM

    args = item.args
    lay = w.layout
    for flag, cur, name, type_ in (("x", w.sx, "width", LEFTRIGHT),
                                   ("y", w.sy, "height", TOPBOTTOM)):
        if args.has(flag):
            v, err = parse_percentage(args.get(flag) or "", 0, 10000, cur)
            if err is not None:
                return item.error(f"{name} {err}")
            try:
                lay.resize_floating_to(wp, type_, v)
            except LayoutError as e:
                return item.error(f"size {e}")
    for flag in "UDLR":
        if not args.has(flag):
            continue
        n, err = strtonum(args.argv[0] if args.argv else "1", -2147483648, 2147483647)
        if err is not None:
            return item.error(f"adjustment {err}")
        try:
            lay.resize_floating(wp, LEFTRIGHT if flag in "LR" else TOPBOTTOM, n, flag in "LU")
        except LayoutError as e:
            return item.error(f"adjustment {e}")
    apply_layout(w)
    item.server.notify("window-layout-changed", {"window": w})
    item.server.redraw_clients(w)
    return CMD_RETURN_NORMAL


@command("resize-pane")
def cmd_resize_pane(item: CmdItem) -> int:
    args = item.args
    st = item.target
    wl, wp = st.wl, st.wp
    assert wl is not None and wp is not None
    w = wl.window
    lay = w.layout
    assert lay is not None
    if args.has("T"):
        return CMD_RETURN_NORMAL
    if args.has("M"):
        m = getattr(item.state, "event", None)
        got = mouse_window(m)
        c = item.client
        att = getattr(c, "attached", None) if c is not None else None
        if got is None or att is None or c.session is not got[0]:
            return CMD_RETURN_NORMAL
        mwp = m.wp if m is not None else None
        if got[1] is not None and mwp in got[1].window.panes and mwp.floating:
            # a floating pane's border: it comes to the front and is selected (3.7b)
            mw = got[1].window
            if mwp is not mw.active:
                mw.layout.raise_pane(mwp)
            mw.set_active(mwp)
        att.mouse.drag_update = resize_update
        resize_update(c, m)
        return CMD_RETURN_NORMAL
    if args.has("Z"):
        if lay.zoomed:
            changed = lay.unzoom()
        elif lay.zoom(wp):
            changed = True
            w.set_active(wp)
        else:
            changed = False  # one pane: window_zoom refuses, nothing is raised
        apply_layout(w)
        if changed:
            item.server.notify("window-layout-changed", {"window": w})  # window_(un)zoom
        return CMD_RETURN_NORMAL
    if lay.zoomed:
        lay.unzoom()
        apply_layout(w)
        item.server.notify("window-layout-changed", {"window": w})  # server_unzoom_window
    if lay.is_floating(wp):
        return _resize_floating(item, w, wp)
    adjust = 1
    if args.argv:
        n, err = strtonum(args.argv[0], 1, 2147483647)
        if err is not None:
            return item.error(f"adjustment {err}")
        adjust = n
    if args.has("x"):
        x, err = parse_percentage(args.get("x") or "", 0, 2147483647, w.sx)
        if err is not None:
            return item.error(f"width {err}")
        lay.resize_pane_width(wp, x)
    if args.has("y"):
        y, err = parse_percentage(args.get("y") or "", 0, 2147483647, w.sy)
        if err is not None:
            return item.error(f"height {err}")
        lay.resize_pane_height(wp, y)
    for flag in "LRUD":
        if args.has(flag):
            lay.resize_pane_by(wp, flag, adjust)
            break
    apply_layout(w)
    for _ in range(lay.take_resize_events()):  # each layout_resize_layout raises one
        item.server.notify("window-layout-changed", {"window": w})
    return CMD_RETURN_NORMAL
