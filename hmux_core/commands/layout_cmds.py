"""Layout commands: select-layout, next-layout, previous-layout, resize-window, rotate-window,
and the zoom helpers every pane-moving command shares (tmux's window_push_zoom/pop_zoom).

The geometry itself lives in :mod:`hmux_core.layout`; these functions only decide which layout
operation a command means, in tmux 3.7b's order (unzoom first, remember the old layout for
``-o``, recalculate the window size after a change).
"""

from __future__ import annotations

from typing import Any

from .. import target as T
from ..layout import WINDOW_MAXIMUM, WINDOW_MINIMUM, LayoutError, lookup_preset
from ..layout_json import decode as decode_json
from ..layout_json import is_json
from ..model import Window, apply_layout, recalculate_size
from ..options import strtonum
from .queue import CMD_RETURN_NORMAL, CmdItem
from .registry import command


def _layout_event(w: Window) -> None:
    """notify_window("window-layout-changed"), through the model's event bus."""
    if w.notify is not None:
        w.notify("window-layout-changed", {"window": w})


def unzoom_window(w: Window) -> bool:
    """server_unzoom_window (window_unzoom with its notification); True if it was zoomed."""
    if w.layout is not None and w.layout.unzoom():
        apply_layout(w)
        _layout_event(w)
        return True
    return False


def push_zoom(w: Window, flag: bool, always: bool = False) -> bool:
    """window_push_zoom(w, always, flag): unzoom, remembering to zoom again if flag (``-Z``)
    and the window was zoomed, or with always (split-window -Z) whether it was or not."""
    w._was_zoomed = bool(flag and (always or w.zoomed))  # type: ignore[attr-defined]
    return unzoom_window(w)


def pop_zoom(w: Window) -> bool:
    """window_pop_zoom: zoom the active pane again if push_zoom said so."""
    was = getattr(w, "_was_zoomed", False)
    w._was_zoomed = False  # type: ignore[attr-defined]
    if was and w.layout is not None and w.active is not None and w.layout.zoom(w.active):
        apply_layout(w)
        _layout_event(w)  # window_zoom
        return True
    return False


def preset_options(w: Window) -> dict[str, Any]:
    """The window options the presets read: the main-* sizes (strings, percentages allowed)
    and tiled's column limit."""
    o = w.options
    return {
        "main_pane_width": str(o.get("main-pane-width")),
        "main_pane_height": str(o.get("main-pane-height")),
        "other_pane_width": str(o.get("other-pane-width")),
        "other_pane_height": str(o.get("other-pane-height")),
        "tiled_layout_max_columns": int(o.get("tiled-layout-max-columns")),
    }


def recalculate_sizes(server: Any) -> None:
    """tmux's recalculate_sizes: every window takes the size its policy gives it (manual
    windows their resize-window size, the others their clients')."""
    for w in list(server.model.windows.values()):
        recalculate_size(w)
    for s in server.model.sorted_sessions():
        server.resize_session_windows(s)


def layout_changed(item: CmdItem, w: Window, arranged: bool = False) -> None:
    """After select-layout: window size policy, pane sizes, the notification.  arranged: a
    preset or a layout string was applied, which notifies once more itself (layout_set_*,
    layout_parse), as tmux does."""
    apply_layout(w)
    if arranged:
        item.server.notify("window-layout-changed", {"window": w})
    recalculate_sizes(item.server)
    apply_layout(w)
    item.server.notify("window-layout-changed", {"window": w})


def _select_layout(item: CmdItem, mode: str) -> int:
    args = item.args
    st = item.target
    wl, wp = st.wl, st.wp
    assert wl is not None and wp is not None
    w = wl.window
    lay = w.layout
    assert lay is not None
    unzoom_window(w)

    nxt = mode == "next" or args.has("n")
    previous = mode == "previous" or args.has("p")
    oldlayout = w.old_layout
    w.old_layout = lay.dump()

    if nxt or previous:
        arranged = len(lay.tiled_panes()) > 1
        if nxt:
            lay.next_preset(**preset_options(w))
        else:
            lay.previous_preset(**preset_options(w))
        layout_changed(item, w, arranged)
        return CMD_RETURN_NORMAL

    if args.has("E"):
        lay.spread_out(wp)
        layout_changed(item, w)
        return CMD_RETURN_NORMAL

    if args.argv:
        name: str | None = str(args.argv[0])
    elif args.has("o"):
        name = oldlayout
    else:
        name = None

    if not args.has("o"):
        idx = lay.last_preset if name is None else lookup_preset(name)
        if idx != -1:
            arranged = len(lay.tiled_panes()) > 1
            lay.select_preset(idx, **preset_options(w))
            layout_changed(item, w, arranged)
            return CMD_RETURN_NORMAL

    if name is not None:
        try:
            if is_json(name):
                # Beyond 3.7b: a version 2 JSON layout (hmux_core.layout_json) puts each
                # pane where its index says and chooses the active and last panes.
                active, last = decode_json(lay, name, w.pane_index)
            else:
                active = last = None
                lay.parse(name)
        except LayoutError as e:
            w.old_layout = oldlayout
            apply_layout(w)
            return item.error(str(e))
        if active is not None and w.set_active(active):
            item.state.current = T.from_winlink(wl, active)
        if last is not None and last is not w.active:
            w.forget_last(last)
            w.last_panes.insert(0, last)
        layout_changed(item, w, True)
    return CMD_RETURN_NORMAL


@command("select-layout")
def cmd_select_layout(item: CmdItem) -> int:
    return _select_layout(item, "select")


@command("next-layout")
def cmd_next_layout(item: CmdItem) -> int:
    return _select_layout(item, "next")


@command("previous-layout")
def cmd_previous_layout(item: CmdItem) -> int:
    return _select_layout(item, "previous")


def _clients_window_size(server: Any, s: Any, w: Window, largest: bool) -> tuple[int, int]:
    """default_window_size(NULL, s, w, largest or smallest): the largest (smallest) size of
    the clients whose session has the window, else the session's default-size."""
    sizes = [server.client_size(c, w) for c in server.clients
             if not server.ignore_client_size(c) and c.session is not None
             and c.session.has_window(w)]
    if sizes:
        pick = max if largest else min
        sx, sy = pick(x for x, _ in sizes), pick(y for _, y in sizes)
    else:
        text = str(s.options.get("default-size"))
        try:
            a, b = text.split("x", 1)
            sx, sy = int(a), int(b)
        except ValueError:
            sx, sy = 80, 24
    return (min(max(sx, WINDOW_MINIMUM), WINDOW_MAXIMUM),
            min(max(sy, WINDOW_MINIMUM), WINDOW_MAXIMUM))


@command("resize-window")
def cmd_resize_window(item: CmdItem) -> int:
    args = item.args
    st = item.target
    wl, s = st.wl, st.s
    assert wl is not None and s is not None
    w = wl.window
    adjust = 1
    if args.argv:
        adjust, err = strtonum(str(args.argv[0]), 1, 2147483647)
        if err is not None:
            return item.error(f"adjustment {err}")
    sx, sy = w.sx, w.sy
    if args.has("x"):
        sx, err = strtonum(args.get("x") or "", WINDOW_MINIMUM, WINDOW_MAXIMUM)
        if err is not None:
            return item.error(f"width {err}")
    if args.has("y"):
        sy, err = strtonum(args.get("y") or "", WINDOW_MINIMUM, WINDOW_MAXIMUM)
        if err is not None:
            return item.error(f"height {err}")
    if args.has("L"):
        if sx >= adjust:
            sx -= adjust
    elif args.has("R"):
        sx += adjust
    elif args.has("U"):
        if sy >= adjust:
            sy -= adjust
    elif args.has("D"):
        sy += adjust
    if args.has("A"):
        sx, sy = _clients_window_size(item.server, s, w, True)
    elif args.has("a"):
        sx, sy = _clients_window_size(item.server, s, w, False)
    w.options.set("window-size", "manual")
    w.manual_sx, w.manual_sy = sx, sy
    zoomed = w.zoomed
    recalculate_size(w, now=True)
    # resize_window: the unzoom and zoom around the resize are events of their own
    events = ["window-layout-changed"] * (2 if zoomed else 0)
    for name in events + ["window-layout-changed", "window-resized"]:
        item.server.notify(name, {"window": w})
    return CMD_RETURN_NORMAL


@command("rotate-window")
def cmd_rotate_window(item: CmdItem) -> int:
    args = item.args
    st = item.target
    wl = st.wl
    assert wl is not None
    w = wl.window
    lay = w.layout
    assert lay is not None and w.active is not None
    push_zoom(w, args.has("Z"))
    down = args.has("D")
    lay.rotate(down)
    apply_layout(w)
    panes = w.panes
    i = panes.index(w.active)
    if down:
        wp = panes[i - 1] if i > 0 else panes[-1]
    else:
        wp = panes[i + 1] if i + 1 < len(panes) else panes[0]
    w.set_active(wp)
    item.state.current = T.from_winlink(wl, wp)
    pop_zoom(w)
    return CMD_RETURN_NORMAL
