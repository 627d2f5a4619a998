"""Commands that move panes and windows around: swap-pane, break-pane, join-pane, move-pane,
move-window, link-window, swap-window.

They rearrange the model (a pane changes window, a window gains or loses winlinks) in tmux
3.7b's order, because the order decides which pane ends up active, which window current and
which index is taken; the cell arithmetic is :mod:`hmux_core.layout`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import target as T
from ..events import QUIET
from ..layout import SPLIT_BAD_SIZE, Layout, LayoutError, swap_panes
from ..model import (
    WINLINK_ACTIVITY,
    WINLINK_BELL,
    WINLINK_SILENCE,
    Session,
    Window,
    Winlink,
    apply_layout,
)
from ..options import Options, strtonum
from ..spawn import default_window_name
from .layout_cmds import pop_zoom, push_zoom, recalculate_sizes, unzoom_window
from .queue import CMD_RETURN_ERROR, CMD_RETURN_NORMAL, CmdItem
from .registry import command
from .sessions import check_name
from .windows import shuffle_up

if TYPE_CHECKING:
    from ..pane import Pane
    from ..server import Server

BREAK_PANE_TEMPLATE = "#{session_name}:#{window_index}.#{pane_index}"
_ALERTS = WINLINK_ACTIVITY | WINLINK_BELL | WINLINK_SILENCE
_INT_MAX = 2147483647


# -- shared model operations (server-fn.c / session.c) --------------------------------------

def _sync_group(server: Server, s: Session) -> None:
    if s.alive and s.group is not None:
        from .groups import synchronize_from

        synchronize_from(server, s)


def _recalculate_all(server: Server) -> None:
    recalculate_sizes(server)


def _remove_winlink(server: Server, s: Session, wl: Winlink) -> None:
    """winlink_remove without session_detach's reselection (link-window -k, respawn)."""
    w = wl.window
    server.model.notify("window-unlinked", {"session": s, "window": w})
    wl.flags &= ~_ALERTS
    if wl in s.lastw:
        s.lastw.remove(wl)
    if s.windows.get(wl.idx) is wl:
        del s.windows[wl.idx]
    if wl in w.winlinks:
        w.winlinks.remove(wl)
    if not w.winlinks:
        server.model.destroy_window(w)


def session_detach(server: Server, s: Session, wl: Winlink) -> None:
    """server_unlink_window: unlink wl from s; the session goes with its last window."""
    server.model.unlink_winlink(wl, destroy_session=False)
    if not s.windows:
        server.destroy_session(s)
    else:
        _sync_group(server, s)


def attach_window(server: Server, s: Session, w: Window, idx: int) -> Winlink | None:
    """session_attach: link w into s at idx (-1: the first free index from base-index)."""
    if idx == -1:
        idx = s.next_free_index(int(s.options.get("base-index")))
    if idx in s.windows:
        return None
    wl = server.model.link_window(s, w, idx)
    server.model.notify("window-linked", {"session": s, "window": w})
    _sync_group(server, s)
    return s.windows.get(idx, wl)


def link_window(server: Server, src: Session, srcwl: Winlink, dst: Session, dstidx: int,
                kill: bool, select: bool) -> str | None:
    """server_link_window; returns tmux's cause on failure."""
    if (src is not dst and src.group is not None and dst.group is not None
            and src.group is dst.group):
        return "sessions are grouped"
    dstwl = dst.windows.get(dstidx) if dstidx != -1 else None
    if dstwl is not None:
        if dstwl.window is srcwl.window:
            return f"same index: {dstidx}"
        if kill:
            if dstwl is dst.curw:
                select = True
                dst.curw = None
            _remove_winlink(server, dst, dstwl)
    if dstidx != -1 and dstidx in dst.windows:
        return f"index in use: {dstidx}"
    wl = attach_window(server, dst, srcwl.window, dstidx)
    if wl is None:
        return f"index in use: {dstidx}"
    server.model.mark_moved(srcwl, wl)  # the mark follows its window (tmux 3.7)
    if select:
        dst.set_current(wl)
    return None


def renumber_windows(server: Server, s: Session) -> None:
    """session_renumber_windows: indexes from base-index in order; the winlinks are new, and a
    pane marked through one of the old ones stays marked through its new one (tmux 3.6)."""
    base = int(s.options.get("base-index"))
    old = s.sorted_winlinks()
    curw, lastw = s.curw, list(s.lastw)
    s.windows = {}
    new_for: dict[int, Winlink] = {}
    for i, wl in enumerate(old):
        new = Winlink(idx=base + i, session=s, window=wl.window, flags=wl.flags & _ALERTS)
        wl.window.winlinks.append(new)
        s.windows[new.idx] = new
        new_for[id(wl)] = new
    for wl in old:
        if wl in wl.window.winlinks:
            wl.window.winlinks.remove(wl)
    s.lastw = []
    for wl in lastw:
        first = next((x for x in s.sorted_winlinks() if x.window is wl.window), None)
        if first is not None:
            s.lastw.append(first)
    s.curw = new_for.get(id(curw)) if curw is not None else s.windows.get(0)
    m = server.model.mark
    if m is not None and id(m[1]) in new_for:
        server.model.mark_moved(m[1], new_for[id(m[1])])


# -- swap-pane ------------------------------------------------------------------------------

def _move_pane_to(p: Pane, w: Window) -> None:
    p.window = w
    p.options.parent = w.options


def _pane_moved(server: Server, wp: Pane, old_w: Window, old_idx: int, new_w: Window,
                new_idx: int) -> None:
    """window_fire_pane_moved: the development tree's pane-moved, when something listens."""
    if "pane-moved" in QUIET:
        return
    server.notify("pane-moved", {"pane": wp, "window": new_w, "old_window": old_w,
                                 "new_window": new_w, "old_window_index": old_idx,
                                 "window_index": new_idx, "new_window_index": new_idx})


@command("swap-pane")
def cmd_swap_pane(item: CmdItem) -> int:
    args = item.args
    server = item.server
    src_st, dst_st = item.source, item.target
    assert src_st.wl is not None and dst_st.wl is not None
    dst_w, dst_wp = dst_st.wl.window, dst_st.wp
    src_w, src_wp = src_st.wl.window, src_st.wp
    assert dst_wp is not None and src_wp is not None
    zoom = args.has("Z")
    push_zoom(dst_w, zoom)
    if args.has("D") or args.has("U"):
        # Beyond 3.7b (which says "cannot swap floating panes"): as tmux's development tree,
        # the next or previous tiled pane, and a floating target is an error.
        down = args.has("D")
        assert dst_w.layout is not None
        if dst_w.layout.is_floating(dst_wp):
            return item.error(f"cannot swap {'down' if down else 'up'} on floating pane")
        src_w = dst_w
        panes = dst_w.panes
        tiled = [not dst_w.layout.is_floating(p) for p in panes]
        i = panes.index(dst_wp)
        order = list(range(i + 1, len(panes))) + list(range(i + 1)) if down \
            else list(range(i - 1, -1, -1)) + list(range(len(panes) - 1, i - 1, -1))
        src_wp = panes[next(k for k in order if tiled[k])]
    if src_w is not dst_w:
        push_zoom(src_w, zoom)
    if src_wp is not dst_wp:
        assert src_w.layout is not None and dst_w.layout is not None
        swap_panes(src_w.layout, src_wp, dst_w.layout, dst_wp)
        _move_pane_to(src_wp, dst_w)
        _move_pane_to(dst_wp, src_w)
        apply_layout(src_w)
        if src_w is not dst_w:
            apply_layout(dst_w)
        if not args.has("d"):
            if src_w is not dst_w:
                src_w.set_active(dst_wp)
                dst_w.set_active(src_wp)
            else:
                src_w.set_active(dst_wp)
        else:
            if src_w.active is src_wp:
                src_w.set_active(dst_wp)
            if dst_w.active is dst_wp:
                dst_w.set_active(src_wp)
        if src_w is not dst_w:
            src_w.forget_last(src_wp)
            dst_w.forget_last(dst_wp)
            _pane_moved(server, src_wp, src_w, src_st.wl.idx, dst_w, dst_st.wl.idx)
            _pane_moved(server, dst_wp, dst_w, dst_st.wl.idx, src_w, src_st.wl.idx)
        server.notify("window-layout-changed", {"window": src_w})
        if src_w is not dst_w:
            server.notify("window-layout-changed", {"window": dst_w})
    pop_zoom(src_w)
    if src_w is not dst_w:
        pop_zoom(dst_w)
    return CMD_RETURN_NORMAL


# -- break-pane -----------------------------------------------------------------------------

@command("break-pane")
def cmd_break_pane(item: CmdItem) -> int:
    args = item.args
    server = item.server
    model = server.model
    src_st, dst_st = item.source, item.target
    wl, src_s, dst_s, wp = src_st.wl, src_st.s, dst_st.s, src_st.wp
    assert wl is not None and src_s is not None and dst_s is not None and wp is not None
    w = wl.window
    old_idx = wl.idx
    if args.has("W"):
        return _float_pane(item, w, wp)
    idx = dst_st.idx
    name = args.get("n")
    clean = None
    if name is not None:
        clean = check_name(name)
        if clean is None:
            return item.error(f"invalid window name: {name}")
    before = args.has("b")
    if args.has("a") or before:
        idx = shuffle_up(dst_s, dst_st.wl or dst_s.curw, before)
        if idx == -1:
            return CMD_RETURN_ERROR
    unzoom_window(w)

    if len(w.panes) == 1:
        cause = link_window(server, src_s, wl, dst_s, idx, False, not args.has("d"))
        if cause is not None:
            return item.error(cause)
        if clean is not None:
            _rename(server, w, clean)
            w.options.set("automatic-rename", False)
        session_detach(server, src_s, wl)
        new_wl = next((x for x in dst_s.sorted_winlinks() if x.window is w), None)
        if new_wl is None:
            return CMD_RETURN_ERROR
        _pane_moved(server, wp, w, old_idx, w, new_wl.idx)
    else:
        if idx != -1 and idx in dst_s.windows:
            return item.error(f"index in use: {idx}")
        assert w.layout is not None
        model.lost_pane(w, wp)
        w.layout.close_pane(wp)
        apply_layout(w)
        server.notify("window-layout-changed", {"window": w})

        nw = model.create_window("", w.sx, w.sy, Options(parent=server.window_options,
                                                         scope="window"))
        _move_pane_to(wp, nw)
        nw.layout = Layout(w.sx, w.sy, wp, str(nw.options.get("pane-border-status")))
        nw.active = wp
        nw.latest = item.target_client
        _rename(server, nw, default_window_name(wp) if clean is None else clean)
        if clean is not None:
            nw.options.set("automatic-rename", False)
        wp.changed = True
        apply_layout(nw)

        new_wl = attach_window(server, dst_s, nw, idx)
        assert new_wl is not None
        _pane_moved(server, wp, w, old_idx, nw, new_wl.idx)
        if not args.has("d"):
            dst_s.set_current(new_wl)
            item.state.current = T.from_session(dst_s)
    if args.has("P"):
        template = args.get("F") or BREAK_PANE_TEMPLATE
        item.print(item.expand(template, T.State(dst_s, new_wl, new_wl.window, wp, new_wl.idx)))
    return CMD_RETURN_NORMAL


def _float_pane(item: CmdItem, w: Window, wp: Pane) -> int:
    """``break-pane -W``, beyond 3.7b as tmux's development tree (cmd_break_pane_float): the
    pane floats in its window at -x/-y (its size with its borders) and -X/-Y, by default
    half the window's width and a quarter of its height where the next new floating pane
    would go."""
    from .panes import percentage_expand

    args = item.args
    lay = w.layout
    assert lay is not None
    if lay.is_floating(wp):
        return item.error("pane is already floating")
    if w.zoomed:
        return item.error("can't float a pane while window is zoomed")
    sx, sy = w.sx // 2, w.sy // 4
    ox = oy = None
    for flag in "xyXY":
        if not args.has(flag):
            continue
        if flag in "xy":
            lo, hi, cur = 0, 10000, (w.sx if flag == "x" else w.sy)
        else:
            cur = w.sx if flag == "X" else w.sy
            lo, hi = -(sx if flag == "X" else sy), cur
        v, err = percentage_expand(item, args.get(flag) or "", lo, hi, cur)
        if err is not None:
            return item.error(f"failed to float pane: position {err}")
        if flag == "x":
            sx = v - 2
        elif flag == "y":
            sy = v - 2
        elif flag == "X":
            ox = v + 1
        else:
            oy = v + 1
    ox, oy = lay.cascade(w.sx, w.sy, ox, oy)
    if not 1 <= sx <= 10000:
        return item.error("failed to float pane: invalid width")
    if not 1 <= sy <= 10000:
        return item.error("failed to float pane: invalid height")
    try:
        lay.float_pane(wp, sx, sy, ox, oy)
    except LayoutError as e:
        return item.error(f"failed to float pane: {e}")
    apply_layout(w)
    if not args.has("d"):
        w.set_active(wp)
    item.server.notify("window-layout-changed", {"window": w})
    return CMD_RETURN_NORMAL


def _rename(server: Server, w: Window, name: str) -> None:
    """window_set_name with an already cleaned name: every rename is an event."""
    w.name = name
    server.notify("window-renamed", {"window": w})


# -- join-pane / move-pane ------------------------------------------------------------------

def _join_pane(item: CmdItem) -> int:
    args = item.args
    server = item.server
    model = server.model
    src_st, dst_st = item.source, item.target
    dst_s, dst_wl, dst_wp = dst_st.s, dst_st.wl, dst_st.wp
    src_wl, src_wp = src_st.wl, src_st.wp
    assert dst_s is not None and dst_wl is not None and dst_wp is not None
    assert src_wl is not None and src_wp is not None
    dst_w, src_w = dst_wl.window, src_wl.window
    dst_idx = dst_wl.idx
    unzoom_window(dst_w)
    unzoom_window(src_w)
    if src_wp is dst_wp:
        if src_w.layout is not None and src_w.layout.is_floating(src_wp):
            return _tile_pane(item, src_w, src_wp)
        return item.error("source and target panes must be different")
    if dst_w.layout is not None and dst_w.layout.is_floating(dst_wp):
        return item.error("size or position can't split a floating pane")

    # layout_get_tiled_cell: -l and -p are formats, of the pane's size (the window's with -f)
    horizontal = args.has("h")
    full = args.has("f")
    if full:
        along = dst_w.sx if horizontal else dst_w.sy
    else:
        along = dst_wp.sx if horizontal else dst_wp.sy
    size: int | None = None
    cause = None
    if args.has("l"):
        value = args.get("l") or ""
        if value.endswith("%"):
            pct, cause = strtonum(item.expand(value[:-1]), 0, 100)
            if cause is None:
                size = (along * pct) // 100
                if size > _INT_MAX:
                    cause = "too large"
        else:
            size, cause = strtonum(item.expand(value), 0, _INT_MAX)
    elif args.has("p"):
        pct, cause = strtonum(item.expand(args.get("p") or ""), 0, 100)
        if cause is None:
            size = (along * pct) // 100
    if cause is not None:
        return item.error(SPLIT_BAD_SIZE)

    dst_lay, src_lay = dst_w.layout, src_w.layout
    assert dst_lay is not None and src_lay is not None
    try:
        lc = dst_lay.split(dst_wp, horizontal=horizontal, size=size, before=args.has("b"),
                           full=full)
    except LayoutError as e:
        return item.error(str(e))

    src_lay.close_pane(src_wp, remove=False)
    server.notify("window-layout-changed", {"window": src_w})  # layout_close_pane
    model.lost_pane(src_w, src_wp)
    src_lay.remove_pane(src_wp)
    _move_pane_to(src_wp, dst_w)
    # tmux 3.7b never hands -b/-f on to the pane list: the pane goes after the target, in
    # the pane list and in the z-order
    dst_lay.add_pane(src_wp, dst_wp)
    dst_lay.z_move(src_wp, after=dst_wp)
    dst_lay.assign(lc, src_wp)
    apply_layout(dst_w)
    if src_w.panes:
        apply_layout(src_w)
    _recalculate_all(server)

    if not args.has("d"):
        dst_w.set_active(src_wp)
        target_wl = dst_s.windows.get(dst_idx)
        if target_wl is not None:
            dst_s.set_current(target_wl)
        item.state.current = T.from_session(dst_s)

    _pane_moved(server, src_wp, src_w, src_wl.idx, dst_w, dst_idx)
    if not src_w.panes:
        server.kill_window(src_w, renumber=True)
    else:
        server.notify("window-layout-changed", {"window": src_w})
    server.notify("window-layout-changed", {"window": dst_w})
    return CMD_RETURN_NORMAL


def _tile_pane(item: CmdItem, w: Window, wp: Pane) -> int:
    """``join-pane -s P -t P`` of a floating pane, beyond 3.7b as tmux's development tree:
    the pane goes back into the tiled layout (cmd_join_pane_tile)."""
    lay = w.layout
    assert lay is not None
    try:
        lay.tile_pane(wp, w.active if w.active is not wp else None)
    except LayoutError as e:
        return item.error(str(e))
    apply_layout(w)
    if not item.args.has("d"):
        w.set_active(wp)
    item.server.notify("window-layout-changed", {"window": w})
    return CMD_RETURN_NORMAL


@command("join-pane")
def cmd_join_pane(item: CmdItem) -> int:
    return _join_pane(item)


_PLACES = ("top-left", "top-centre", "top-center", "top-right", "centre-left", "center-left",
           "centre", "center", "centre-right", "center-right", "bottom-left", "bottom-centre",
           "bottom-center", "bottom-right", "top-left-centre", "top-left-center",
           "top-right-centre", "top-right-center", "bottom-left-centre", "bottom-left-center",
           "bottom-right-centre", "bottom-right-center")


def _place(wx: int, wy: int, px: int, py: int, position: str) -> tuple[int, int] | None:
    """Where ``move-pane -P position`` puts a floating pane of px × py in a wx × wy window
    (inside a one-cell border); None for the z-order positions."""
    b = 1
    name = position.replace("center", "centre")
    c = {"left": b, "centre": (wx - px) // 2, "right": wx - px - b}
    m = {"top": b, "centre": (wy - py) // 2, "bottom": wy - py - b}
    quarters = {"top-left-centre": (wx // 4 - px // 2, wy // 4 - py // 2),
                "top-right-centre": ((3 * wx) // 4 - px // 2, wy // 4 - py // 2),
                "bottom-left-centre": (wx // 4 - px // 2, (3 * wy) // 4 - py // 2),
                "bottom-right-centre": ((3 * wx) // 4 - px // 2, (3 * wy) // 4 - py // 2)}
    if name in quarters:
        return quarters[name]
    if name == "centre":
        return c["centre"], m["centre"]
    parts = name.split("-")
    if len(parts) == 2 and parts[0] in m and parts[1] in c:
        return c[parts[1]], m[parts[0]]
    return None


def _move_floating(item: CmdItem) -> int:
    """``move-pane`` -P/-z/-X/-Y/-U/-D/-L/-R on a floating pane, beyond 3.7b as tmux's
    development tree (cmd_join_pane_place, _zindex and _move)."""
    args = item.args
    st = item.target
    assert st.wl is not None and st.wp is not None
    w, wp = st.wl.window, st.wp
    lay = w.layout
    assert lay is not None
    if not lay.is_floating(wp):
        unzoom_window(w)
        if not lay.is_floating(wp):
            return item.error("pane is not floating")
    unzoom_window(w)
    lc = lay.floating_box(wp)
    position = args.get("P")
    if position is not None:
        at = _place(w.sx, w.sy, lc.sx, lc.sy, position)
        if at is None:
            try:
                lay.z_place(wp, position)
            except LayoutError as e:
                return item.error(str(e))
        else:
            lay.move_floating(wp, *at)
            apply_layout(w)
        item.server.notify("window-layout-changed", {"window": w})
        item.server.redraw_clients(w)
        return CMD_RETURN_NORMAL
    z = args.get("z")
    if z is not None:
        n, err = strtonum(z, 0, 0xFFFFFFFF)
        if err is not None:
            return item.error(f"z-index {err}")
        lay.z_set(wp, n)
        item.server.notify("window-layout-changed", {"window": w})
        item.server.redraw_clients(w)
        return CMD_RETURN_NORMAL
    from .panes import percentage_expand

    xoff, yoff = lc.xoff, lc.yoff
    for flag, cur in (("X", w.sx), ("Y", w.sy)):
        if args.has(flag):
            v, err = percentage_expand(item, args.get(flag) or "", -cur, cur, cur)
            if err is not None:
                return item.error(f"position {err}")
            if flag == "X":
                xoff = v + 1
            else:
                yoff = v + 1
    for flag in "UDLR":
        if not args.has(flag):
            continue
        n, err = strtonum(args.get(flag) or "1", -_INT_MAX - 1, _INT_MAX)
        if err is not None:
            return item.error(f"offset {err}")
        if flag == "U":
            yoff -= n
        elif flag == "D":
            yoff += n
        elif flag == "L":
            xoff -= n
        else:
            xoff += n
    if lay.move_floating(wp, xoff, yoff):
        apply_layout(w)
        item.server.notify("window-layout-changed", {"window": w})
        item.server.redraw_clients(w)
    return CMD_RETURN_NORMAL


@command("move-pane")
def cmd_move_pane(item: CmdItem) -> int:
    if any(item.args.has(f) for f in "PzXYUDLR"):
        return _move_floating(item)
    return _join_pane(item)


# -- move-window / link-window --------------------------------------------------------------

def _move_window(item: CmdItem, move: bool) -> int:
    args = item.args
    server = item.server
    src_st = item.source
    src, wl = src_st.s, src_st.wl
    assert src is not None and wl is not None
    tflag = args.get("t")
    if move and args.has("r"):
        st = item.find(tflag, T.FIND_SESSION, T.QUIET)
        if st is None or st.s is None:
            return CMD_RETURN_ERROR
        renumber_windows(server, st.s)
        _recalculate_all(server)
        return CMD_RETURN_NORMAL
    st = item.find(tflag, T.FIND_WINDOW, T.WINDOW_INDEX)
    if st is None or st.s is None:
        return CMD_RETURN_ERROR
    dst, idx = st.s, st.idx
    before = args.has("b")
    if args.has("a") or before:
        idx = shuffle_up(dst, st.wl or dst.curw, before)
        if idx == -1:
            return CMD_RETURN_ERROR
    cause = link_window(server, src, wl, dst, idx, args.has("k"), not args.has("d"))
    if cause is not None:
        return item.error(cause)
    if move:
        session_detach(server, src, wl)
    if not args.has("s") and src.alive and src.options.get("renumber-windows"):
        renumber_windows(server, src)
    _recalculate_all(server)
    return CMD_RETURN_NORMAL


@command("move-window")
def cmd_move_window(item: CmdItem) -> int:
    return _move_window(item, move=True)


@command("link-window")
def cmd_link_window(item: CmdItem) -> int:
    return _move_window(item, move=False)


# -- swap-window ----------------------------------------------------------------------------

@command("swap-window")
def cmd_swap_window(item: CmdItem) -> int:
    server = item.server
    src_st, dst_st = item.source, item.target
    src, dst = src_st.s, dst_st.s
    wl_src, wl_dst = src_st.wl, dst_st.wl
    assert src is not None and dst is not None and wl_src is not None and wl_dst is not None
    if (src is not dst and src.group is not None and dst.group is not None
            and src.group is dst.group):
        return item.error("can't move window, sessions are grouped")
    if wl_dst.window is wl_src.window:
        return CMD_RETURN_NORMAL
    w_dst, w_src = wl_dst.window, wl_src.window
    w_dst.winlinks.remove(wl_dst)
    w_src.winlinks.remove(wl_src)
    wl_dst.window = w_src
    w_src.winlinks.append(wl_dst)
    wl_src.window = w_dst
    w_dst.winlinks.append(wl_src)
    # The mark follows its window (tmux 3.7), still in the marking session: across sessions
    # it is then stale until the window comes back.
    server.model.mark_moved(wl_src, wl_dst)
    if item.args.has("d"):
        _select_index(server, dst, wl_dst.idx)
        if src is not dst:
            _select_index(server, src, wl_src.idx)
    _sync_group(server, src)
    if src is not dst:
        _sync_group(server, dst)
    _recalculate_all(server)
    return CMD_RETURN_NORMAL


def _select_index(server: Server, s: Session, idx: int) -> None:
    wl = s.windows.get(idx)
    if wl is not None:
        s.set_current(wl)


def session_is_linked(s: Session, w: Window) -> bool:
    """Is w linked outside s (a group counts as one session)?"""
    if s.group is not None:
        return len(w.winlinks) != len(s.group.sessions)
    return len(w.winlinks) != 1
