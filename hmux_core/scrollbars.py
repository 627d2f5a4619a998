"""Pane scrollbars (tmux 3.6 and later): ``pane-scrollbars`` (off, modal: while the pane is in
copy or view mode, on), ``pane-scrollbars-position`` (right or left) and ``pane-scrollbars-style``
(its colours, ``width=`` and ``pad=``).

A pane that shows a scrollbar gives up its columns (the layout takes them from the pane's
cell: ``columns``), so entering or leaving a mode or the alternate screen, or changing the
options, fits the window's panes again (``refit``). The bar sits beside the pane, inside its
borders, with ``pad`` blank columns between; its slider (the style's colours swapped) shows
which part of the history is in view (screen_redraw_draw_pane_scrollbar).
"""

from __future__ import annotations

from typing import Any

Cell = tuple[str, tuple[int, int, int, int]]

#: tmux's PANE_SCROLLBARS_DEFAULT_WIDTH and _PADDING.
DEFAULT_WIDTH, DEFAULT_PAD = 1, 0


_SIZES: dict[Any, tuple[int, int]] = {}


def size(p: Any) -> tuple[int, int]:
    """style_set_scrollbar_style_from_option: a pane's scrollbar width and padding (an
    invalid style is the default one). Asked for every frame: kept by the option's value."""
    value = p.options.get("pane-scrollbars-style")
    got = _SIZES.get(value)
    if got is None:
        sy = p.options.get_style("pane-scrollbars-style")
        if sy is None:
            got = DEFAULT_WIDTH, DEFAULT_PAD
        else:
            got = ((sy.width if sy.width >= 1 else DEFAULT_WIDTH),
                   (sy.pad if sy.pad >= 0 else DEFAULT_PAD))
        if len(_SIZES) > 64:
            _SIZES.clear()
        _SIZES[value] = got
    return got


def in_copy_mode(p: Any) -> bool:
    """window_pane_mode is not WINDOW_PANE_NO_MODE: copy or view mode is on top."""
    modes = getattr(p, "modes", None)
    return bool(modes) and getattr(modes[0], "name", "") in ("copy-mode", "view-mode")


def shown(p: Any) -> bool:
    """window_pane_show_scrollbar: ``on``, or ``modal`` while the pane is in copy or view
    mode; never while the pane's own screen is the alternate one."""
    w = getattr(p, "window", None)
    if w is None:
        return False
    mode = w.options.get("pane-scrollbars")
    if mode == "off" or getattr(p.screen, "alternate_on", False):
        return False
    return mode == "on" or (mode == "modal" and in_copy_mode(p))


def left(w: Any) -> bool:
    """The bars are on the left (``pane-scrollbars`` not off, position left)."""
    return w.options.get("pane-scrollbars") != "off" \
        and w.options.get("pane-scrollbars-position") == "left"


def columns(p: Any) -> tuple[int, int, bool] | None:
    """What the layout takes from the pane's cell (layout_fix_panes): (width, pad, on the
    left), or None when the pane shows no scrollbar."""
    if not shown(p):
        return None
    width, pad = size(p)
    return width, pad, left(p.window)


def minimum(p: Any) -> int:
    """The columns a pane needs beyond PANE_MINIMUM while ``pane-scrollbars`` is not off
    (layout_resize_check and layout_split_pane); 0 when it is off."""
    w = getattr(p, "window", None)
    if w is None or w.options.get("pane-scrollbars") == "off":
        return 0
    width, pad = size(p)
    return width + pad


def slider(p: Any) -> tuple[int, int]:
    """screen_redraw_draw_pane_scrollbar: the slider's first row and height. Out of a mode it
    sits at the bottom, as tall as the screen's share of screen and history; in copy or view
    mode it is where the view is."""
    sb_h = p.sy
    top = p.modes[0] if getattr(p, "modes", None) else None
    if top is None or not in_copy_mode(p):
        hsize = 0
        if top is None:
            got = p.screen.history_size
            hsize = got() if callable(got) else got
        total = sb_h + hsize
        slider_h = int(sb_h * (sb_h / total)) if total else sb_h
        slider_y = sb_h - slider_h
    else:
        back = top.back
        cm_size = back.hsize
        cm_y = cm_size - top.oy
        total = cm_size + sb_h
        slider_h = int(sb_h * (sb_h / total)) if total else sb_h
        slider_y = int((sb_h + 1) * (cm_y / total)) if total else 0
    if slider_h < 1:
        slider_h = 1
    if slider_y >= sb_h:
        slider_y = sb_h - 1
    return slider_y, slider_h


def cells(p: Any) -> tuple[int, list[Cell], list[Cell], list[Cell]]:
    """The scrollbar's first column (window coordinates) and its row as trough, as slider and
    as padding cells, left to right: the style's colours for the trough, swapped for the
    slider, default blanks for the padding."""
    width, pad = size(p)
    sy = p.options.get_style("pane-scrollbars-style")
    attr, fg, bg = (sy.attr, sy.fg, sy.bg) if sy is not None else (0, 8, 8)
    trough: Cell = (" ", (attr, fg, bg, 0))
    thumb: Cell = (" ", (attr, bg, fg, 0))
    blank: Cell = (" ", (0, 8, 8, 0))
    if left(p.window):
        x = p.xoff - width - pad
        return (x, [trough] * width + [blank] * pad, [thumb] * width + [blank] * pad,
                [blank] * (width + pad))
    x = p.xoff + p.sx
    return (x, [blank] * pad + [trough] * width, [blank] * pad + [thumb] * width,
            [blank] * (width + pad))


def rows(p: Any) -> list[tuple[int, int, list[Cell]]]:
    """The scrollbar as ``(window row, first column, cells)`` for each of the pane's rows."""
    x, trough, thumb, _pad = cells(p)
    sl_y, sl_h = slider(p)
    return [(p.yoff + j, x, thumb if sl_y <= j < sl_y + sl_h else trough) for j in range(p.sy)]


def refit(server: Any, w: Any) -> None:
    """layout_fix_panes after something that shows or hides scrollbars: the window's panes
    are fitted to their cells again (and their terminals resized) and redrawn."""
    lay = getattr(w, "layout", None)
    if lay is None:
        return
    from .model import apply_layout

    lay.set_border_status(str(w.options.get("pane-border-status")))  # refits the panes
    apply_layout(w)
    server.redraw_clients(w)
