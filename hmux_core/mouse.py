"""The mouse of an attached client, as tmux 3.3a has it.

A report from the terminal (tty-keys.c tty_keys_mouse) becomes a :class:`MouseEvent` with the
previous report's position and button; :meth:`MouseState.check` (server_client_check_mouse)
works out what happened — a press, release, drag, wheel, second/double/triple click with the
300 ms click timer — and where: a pane, a pane border, the status line's ``#[range=...]``
parts. That gives a key (``MouseDown1Pane``, ``WheelUpStatus``, ``MouseDragEnd1Border`` ...)
for the key tables. The event goes with the bound commands, so ``=`` / ``{mouse}`` targets,
``send-keys -M`` (the report translated into the pane for an application that asked for the
mouse, input_key_mouse), ``resize-pane -M`` and ``copy-mode -M`` find what the mouse is on.
A drag that a command took over (a border resize, a copy mode selection) goes to its callback
instead of the key tables until the button is released.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from . import keys as K
from .screen.cells import grid_word

MASK_BUTTONS = 195
MASK_SHIFT = 4
MASK_META = 8
MASK_CTRL = 16
MASK_DRAG = 32
MASK_MODIFIERS = MASK_SHIFT | MASK_META | MASK_CTRL
WHEEL_UP = 64
WHEEL_DOWN = 65
#: The button bits of a report and the name its keys use (MouseDown1 ... MouseDown11).
BUTTON_NAMES = {0: "1", 1: "2", 2: "3", 66: "6", 67: "7", 128: "8", 129: "9", 130: "10",
                131: "11"}
#: KEYC_CLICK_TIMEOUT: a second press this soon is a second click (seconds).
CLICK_TIMEOUT = 0.3
#: WINDOW_COPY_DRAG_REPEAT_TIME: a drag held on a copy mode pane's edge scrolls this often.
DRAG_REPEAT = 0.05

# Terminal mouse modes (tmux's MODE_MOUSE_*), for what the client's terminal is asked for.
MODE_MOUSE_STANDARD = 0x20
MODE_MOUSE_BUTTON = 0x40
MODE_MOUSE_ALL = 0x1000
ALL_MOUSE_MODES = MODE_MOUSE_STANDARD | MODE_MOUSE_BUTTON | MODE_MOUSE_ALL

_NOTYPE, _MOVE, _DOWN, _UP, _DRAG, _WHEEL, _SECOND, _DOUBLE, _TRIPLE = range(9)
_EVENT_NAMES = {_DOWN: "MouseDown", _UP: "MouseUp", _DRAG: "MouseDrag", _SECOND: "SecondClick",
                _DOUBLE: "DoubleClick", _TRIPLE: "TripleClick"}


def buttons(b: int) -> int:
    return b & MASK_BUTTONS


def is_wheel(b: int) -> bool:
    return (b & MASK_BUTTONS) in (WHEEL_UP, WHEEL_DOWN)


def is_drag(b: int) -> bool:
    return bool(b & MASK_DRAG)


def is_release(b: int) -> bool:
    return (b & MASK_BUTTONS) == 3


# -- reports ---------------------------------------------------------------------------------------

Report = tuple[int, int, int, int, int, str, int]  # status, end, b, x, y, sgr_type, sgr_b


def parse_report(buf: bytes, i: int = 0, utf8: bool = False) -> Report:
    """tty_keys_mouse for the report at ``buf[i]`` (``ESC [``): status 0 (a report ending at
    ``end``), 1 (unfinished), -1 (not a mouse report) or -2 (a report to drop: the wheel
    release PuTTY sends). Positions are 0-based; a release has b 3, as in tmux."""
    n = len(buf)
    kind = buf[i + 2]
    j = i + 3
    if kind == 0x4D:  # ESC [ M b x y, each offset by 32 (positions by 33)
        vals = []
        for _ in range(3):
            if j >= n:
                return 1, n, 0, 0, 0, " ", 0
            c = buf[j]
            if utf8 and c >= 0xC2 and c <= 0xDF:  # mode 1005: two-byte UTF-8 values
                if j + 1 >= n:
                    return 1, n, 0, 0, 0, " ", 0
                c = ((c & 0x1F) << 6) | (buf[j + 1] & 0x3F)
                j += 1
            vals.append(c)
            j += 1
        b, x, y = vals
        if b < 32 or x < 33 or y < 33:
            return -1, j, 0, 0, 0, " ", 0
        return 0, j, b - 32, x - 33, y - 33, " ", 0
    if kind != 0x3C:
        return -1, i + 2, 0, 0, 0, " ", 0
    nums = [0, 0, 0]
    ch = 0
    for k in range(3):
        while True:
            if j >= n:
                return 1, n, 0, 0, 0, " ", 0
            ch = buf[j]
            j += 1
            if (k < 2 and ch == 0x3B) or (k == 2 and ch in (0x4D, 0x6D)):
                break
            if not 0x30 <= ch <= 0x39:
                return -1, j - 1, 0, 0, 0, " ", 0
            nums[k] = 10 * nums[k] + ch - 0x30
    sgr_b, x, y = nums
    if x < 1 or y < 1:
        return -1, j, 0, 0, 0, " ", 0
    sgr_type = chr(ch)
    if sgr_type == "m" and is_wheel(sgr_b):
        return -2, j, 0, 0, 0, " ", 0
    return 0, j, 3 if sgr_type == "m" else sgr_b, x - 1, y - 1, sgr_type, sgr_b


def scan_report(buf: bytes, i: int, utf8: bool = False) -> tuple[int, int]:
    """(status, end) of the report at ``buf[i]`` for the key decoder (see parse_report)."""
    r = parse_report(buf, i, utf8)
    return r[0], r[1]


@dataclasses.dataclass
class MouseEvent:
    """One report and where it landed (tmux's struct mouse_event). ``s``/``w``/``wp`` are the
    session, window and pane it is on (None for tmux's -1); ``valid`` once it became a key."""

    b: int
    x: int
    y: int
    lb: int = 0
    lx: int = 0
    ly: int = 0
    sgr_type: str = " "
    sgr_b: int = 0
    valid: bool = False
    ignore: bool = False
    key: int = K.KEYC_UNKNOWN
    s: Any = None
    w: Any = None
    wp: Any = None
    ox: int = 0
    oy: int = 0
    statusat: int = -1
    statuslines: int = 0

    def copy(self) -> MouseEvent:
        return dataclasses.replace(self)


# -- what the mouse is on --------------------------------------------------------------------------


def status_at(client: Any, sy: int) -> tuple[int, int]:
    """(status_at_line, status_line_size): the status line's first row (-1 when off), lines."""
    s = client.session
    value = s.options.get("status")
    if value == "off" or value is False:
        return -1, 0
    lines = 1 if value in ("on", True) else int(value)
    lines = min(lines, sy)
    if s.options.get("status-position") == "top":
        return 0, lines
    return sy - lines, lines


def status_tags(server: Any, client: Any, sx: int, row: int) -> list[tuple[str, int | str] | None]:
    """Each column's #[range=...] of status line ``row`` (tmux keeps the ranges of the last
    redraw; the format is expanded again here, which gives the same unless it just changed)."""
    from . import status
    from .format import EXPAND_TIME, expand
    from .formats_vars import context_for
    from .options import Style as OptStyle

    s = client.session
    wl = s.curw
    if wl is None:
        return []
    fmt = (s.options.get_array("status-format") or {}).get(row)
    if fmt is None:
        return []
    base = s.options.get_style("status-style") or OptStyle()
    ctx = context_for(server, client, s, wl, wl.window.active)
    tags: list[tuple[str, int | str] | None] = []
    status.draw(expand(str(fmt or ""), ctx, flags=EXPAND_TIME), sx, base, tags=tags)
    return tags


def _scrollbar_at(w: Any, px: int, py: int) -> tuple[Any, str, int] | None:
    """A pane whose scrollbar is at window cell (px, py), where on it: above the slider
    (ScrollbarUp), on it (ScrollbarSlider) or below it (ScrollbarDown), and the row of the
    slider under the mouse (tmux's sl_mpos; 0 off the slider)."""
    from . import scrollbars

    if w.options.get("pane-scrollbars") == "off":
        return None
    left = scrollbars.left(w)
    for wp in w.panes:
        if not _visible(wp) or not scrollbars.shown(wp) or not wp.yoff <= py < wp.yoff + wp.sy:
            continue
        width, pad = scrollbars.size(wp)
        x0 = wp.xoff - pad - width if left else wp.xoff + wp.sx + pad
        if not x0 <= px < x0 + width:
            continue
        sl_y, sl_h = scrollbars.slider(wp)
        top = wp.yoff + sl_y
        if py < top:
            return wp, "ScrollbarUp", 0
        if py <= top + sl_h - 1:
            return wp, "ScrollbarSlider", py - top
        return wp, "ScrollbarDown", 0
    return None


def _floating_at(w: Any, px: int, py: int, only: Any = None) -> tuple[Any, str] | None:
    """The floating pane (tmux 3.7b) at window cell (px, py), the topmost whose box (the pane
    and its borders) holds it, and whether the cell is on its border or inside it
    (window_get_active_at, server_client_check_mouse_in_pane); None when a tiled pane is
    above or none is there. ``only``: that pane's box alone."""
    lay = getattr(w, "layout", None)
    if lay is None or w.zoomed:
        return None
    for wp in ([only] if only is not None else lay.z_index):
        if not getattr(wp, "floating", False):
            if wp.xoff <= px <= wp.xoff + wp.sx and wp.yoff <= py <= wp.yoff + wp.sy:
                return None
            continue
        if px >= w.sx or py >= w.sy:
            continue
        if wp.xoff - 1 <= px <= wp.xoff + wp.sx and wp.yoff - 1 <= py <= wp.yoff + wp.sy:
            inside = wp.xoff <= px < wp.xoff + wp.sx and wp.yoff <= py < wp.yoff + wp.sy
            return wp, "Pane" if inside else "Border"
    return None


def _visible(wp: Any) -> bool:
    w = wp.window
    return not w.zoomed or w.active is wp


def mouse_window(m: MouseEvent | None) -> tuple[Any, Any] | None:
    """cmd_mouse_window: (session, winlink) of a valid event (winlink None if gone)."""
    if m is None or not m.valid:
        return None
    s = m.s
    if s is None or not s.alive:
        return None
    if m.w is None:
        wl = s.curw
    else:
        if not m.w.alive:
            return None
        wl = s.winlink_for(m.w)
    return s, wl


def mouse_pane(m: MouseEvent | None) -> tuple[Any, Any, Any] | None:
    """cmd_mouse_pane: (session, winlink, pane) the event is on, if it still exists."""
    got = mouse_window(m)
    if got is None or got[1] is None:
        return None
    s, wl = got
    wp = m.wp if m is not None else None
    if wp is None or wp not in wl.window.panes:
        return None
    return s, wl, wp


def mouse_at(wp: Any, m: MouseEvent, last: bool = False) -> tuple[int, int] | None:
    """cmd_mouse_at: the event's (or the previous report's) position inside the pane."""
    if last:
        x, y = m.lx + m.ox, m.ly + m.oy
    else:
        x, y = m.x + m.ox, m.y + m.oy
    if m.statusat == 0 and y >= m.statuslines:
        y -= m.statuslines
    if x < wp.xoff or x >= wp.xoff + wp.sx or y < wp.yoff or y >= wp.yoff + wp.sy:
        return None
    return x - wp.xoff, y - wp.yoff


def target_state(m: MouseEvent | None, kind: str) -> Any:
    """cmd_find_target for ``=`` / ``{mouse}``: the pane (or window, session) under the
    mouse as a target state; None when there is none ("no mouse target")."""
    from .target import State

    st = State()
    if m is None:
        return None
    if kind == "pane":
        got = mouse_pane(m)
        if got is not None:
            st.s, st.wl, st.wp = got
            st.w = st.wl.window
            return st
    win = mouse_window(m)
    if win is not None:
        st.s, wl = win
        if wl is None:
            wl = st.s.curw
        if wl is not None:
            st.wl, st.w = wl, wl.window
            st.wp = wl.window.active
    return st if st.wp is not None else None


def find_state(m: MouseEvent) -> Any:
    """cmd_find_from_mouse: the state of the pane under the mouse, or None."""
    got = mouse_pane(m)
    if got is None:
        return None
    from .target import State

    s, wl, wp = got
    return State(s, wl, wl.window, wp)


# -- the client's mouse state ----------------------------------------------------------------------


class MouseState:
    """A client's mouse: the last report, the drag in progress and the click counting."""

    def __init__(self) -> None:
        self.last_x = self.last_y = self.last_b = 0
        self.drag_flag = 0  # the dragging button + 1, or 0
        self.drag_update: Callable[[Any, MouseEvent], None] | None = None
        self.drag_release: Callable[[Any, MouseEvent], None] | None = None
        self.double = False  # waiting for a second click (CLIENT_DOUBLECLICK)
        self.triple = False  # waiting for a third click (CLIENT_TRIPLECLICK)
        self.click_button = 0
        self.click_where: str | None = None  # where the sequence's clicks are (click_loc)
        self.click_wp: Any = None
        self.click_event: MouseEvent | None = None
        self.last_pane: Any = None  # the pane a drag started on (tmux's mouse_last_pane)
        #: While a scrollbar's slider is dragged (mouse_scrolling_flag), the row of the slider
        #: the mouse holds, counted from the terminal's row of the window's top
        #: (mouse_slider_mpos): what copy-mode -S and scroll-to-mouse move the view by.
        self.slider_mpos: int | None = None

    def event(self, raw: bytes, utf8: bool = False) -> MouseEvent | None:
        """The event of one report, with the previous position; remembers this one."""
        status, _, b, x, y, sgr_type, sgr_b = parse_report(raw, 0, utf8)
        if status != 0:
            return None
        m = MouseEvent(b, x, y, self.last_b, self.last_x, self.last_y, sgr_type, sgr_b)
        self.last_x, self.last_y, self.last_b = x, y, b
        return m

    def check(self, att: Any, m: MouseEvent, doubleclick: bool = False) -> int:
        """server_client_check_mouse: the key this event is (KEYC_UNKNOWN for none), with
        ``m`` filled in with where it is. ``att`` is the Attached client (its size, status
        ranges and click timer)."""
        c = att.client
        s = c.session
        ignore = False
        if doubleclick:
            typ, x, y, b = _DOUBLE, m.x, m.y, m.b
            ignore = True
        elif ((m.sgr_type != " " and is_drag(m.sgr_b) and is_release(m.sgr_b))
              or (m.sgr_type == " " and is_drag(m.b) and is_release(m.b)
                  and is_release(m.lb))):
            typ, x, y, b = _MOVE, m.x, m.y, 0
        elif is_drag(m.b):
            typ = _DRAG
            if self.drag_flag:
                x, y, b = m.x, m.y, m.b
                if x == m.lx and y == m.ly:
                    return K.KEYC_UNKNOWN
            else:
                x, y, b = m.lx, m.ly, m.lb
        elif is_wheel(m.b):
            typ, x, y, b = _WHEEL, m.x, m.y, m.b
        elif is_release(m.b):
            typ, x, y, b = _UP, m.x, m.y, m.lb
        else:
            x, y, b = m.x, m.y, m.b
            if self.double:
                att.cancel_click_timer()
                self.double = False
                typ = _SECOND
                self.triple = True
            elif self.triple:
                att.cancel_click_timer()
                self.triple = False
                typ = _TRIPLE
            else:
                typ = _DOWN
                self.double = True
        if typ == _NOTYPE:
            return K.KEYC_UNKNOWN

        m.s, m.w, m.wp, m.ignore = s, None, None, ignore
        sx, sy = att.tty.sx, att.tty.sy
        m.statusat, m.statuslines = status_at(c, sy)
        where = None
        if m.statusat != -1 and m.statusat <= y < m.statusat + m.statuslines:
            rng = att.status_range(x, y - m.statusat)
            if rng is None:
                where = "StatusDefault"
            else:
                rtype, arg = rng
                if rtype == "left":
                    where = "StatusLeft"
                elif rtype == "right":
                    where = "StatusRight"
                elif rtype == "window":
                    wl = s.windows.get(arg)
                    if wl is None:
                        return K.KEYC_UNKNOWN
                    m.w = wl.window
                    where = "Status"
                elif rtype == "pane":  # tmux 3.5: the pane the range names is the target
                    fwp = att.server.model.panes.get(arg)
                    if fwp is None:
                        return K.KEYC_UNKNOWN
                    m.wp = fwp
                    where = "Status"
                elif rtype == "session":
                    fs = att.server.model.session_ids.get(arg)
                    if fs is None:
                        return K.KEYC_UNKNOWN
                    m.s = fs
                    where = "Status"
                elif rtype == "user":
                    where = "Status"
                elif rtype == "control":  # range=control|N: the ControlN keys (tmux 3.6)
                    where = f"Control{arg}"
                else:
                    return K.KEYC_UNKNOWN
        lwp = self.last_pane
        if lwp is not None and lwp not in getattr(lwp.window, "panes", ()):
            lwp = self.last_pane = None  # the pane is gone (server_client_remove_pane)
            self.slider_mpos = None
        sl_mpos = 0
        if where is None and self.slider_mpos is not None and lwp is not None:
            # A slider being dragged keeps the drag, wherever the mouse is.
            where, m.wp, m.w = "ScrollbarSlider", lwp, lwp.window
        elif where is None:
            px = x
            if m.statusat == 0 and y >= m.statuslines:
                py = y - m.statuslines
            elif m.statusat > 0 and y >= m.statusat:
                py = m.statusat - 1
            else:
                py = y
            w = s.curw.window
            area = sy - m.statuslines
            if sx >= w.sx and area >= w.sy:
                wsx, wsy, m.ox, m.oy = w.sx, w.sy, 0, 0
            else:  # a window larger than the terminal is seen from an offset
                from .render import window_offset

                wsx, wsy = sx, area
                m.ox, m.oy = window_offset(w, sx, area, c)
            if px > wsx or py > wsy:
                return K.KEYC_UNKNOWN
            px, py = px + m.ox, py + m.oy
            found = None
            if typ == _DRAG and lwp is not None and lwp in w.panes \
                    and getattr(lwp, "floating", False):
                found = lwp  # a floating pane being dragged stays the mouse's pane
                on_box = _floating_at(w, px, py, lwp)
                where = on_box[1] if on_box is not None else "Border"
            else:
                on_box = _floating_at(w, px, py)
                if on_box is not None:
                    found, where = on_box
            on_bar = _scrollbar_at(w, px, py) if where is None else None
            if on_bar is not None:
                found, where, sl_mpos = on_bar
            if where is None and not w.zoomed:
                for wp in w.panes:
                    if ((wp.xoff + wp.sx == px and wp.yoff <= 1 + py and wp.yoff + wp.sy >= py)
                            or (wp.yoff + wp.sy == py and wp.xoff <= 1 + px
                                and wp.xoff + wp.sx >= px)):
                        found, where = wp, "Border"
                        break
            if where is None:
                for wp in w.panes:
                    if not _visible(wp):
                        continue
                    if wp.xoff <= px <= wp.xoff + wp.sx and wp.yoff <= py <= wp.yoff + wp.sy:
                        found, where = wp, "Pane"
                        break
                else:
                    return K.KEYC_UNKNOWN
            m.wp, m.w = found, w
            if typ == _DRAG and not self.drag_flag:
                self.last_pane = found  # the pane the drag starts on (mouse_last_pane)
            if typ == _DRAG and self.slider_mpos is None and where == "ScrollbarSlider":
                # The drag holds the slider: where, counted from the window's first row in
                # the terminal (below a status line at the top).
                self.slider_mpos = sl_mpos + (m.statuslines if m.statusat == 0 else 0)

        if typ == _DOWN or typ == _SECOND or typ == _TRIPLE:
            # tmux 3.6: a click sequence goes on only with the same button, on the same kind
            # of place and the same pane; otherwise this click starts a new one
            if typ != _DOWN and (m.b != self.click_button or where != self.click_where
                                 or m.wp is not self.click_wp):
                typ = _DOWN
                self.triple, self.double = False, True
            if typ != _TRIPLE:
                self.click_event = m.copy()
                self.click_button, self.click_where, self.click_wp = m.b, where, m.wp
                att.arm_click_timer()

        if typ != _DRAG and typ != _WHEEL and self.drag_flag:
            # A drag ends with MouseDragEnd of the button that started it.
            if self.drag_release is not None:
                self.drag_release(c, m)
            self.drag_update = self.drag_release = None
            self.last_pane = self.slider_mpos = None
            name = BUTTON_NAMES.get(self.drag_flag - 1)
            key = K.mouse_key("MouseDragEnd" + name, where) if name else K.KEYC_MOUSE
            self.drag_flag = 0
            return _modifiers(key, b)

        key = K.KEYC_UNKNOWN
        if typ == _MOVE:
            key = K.mouse_key("MouseMove", where)
            if where == "Pane" and m.wp is not None and m.wp is not m.w.active \
                    and s.options.get("focus-follows-mouse"):
                # tmux 3.6: the pane under a moving mouse becomes the active one
                if getattr(m.wp, "floating", False) and m.w.layout is not None:
                    m.w.layout.raise_pane(m.wp)
                m.w.set_active(m.wp)
                att.server.redraw_clients(m.w)
        elif typ == _DRAG:
            if self.drag_update is not None:
                key = K.KEYC_DRAGGING
            else:
                name = BUTTON_NAMES.get(buttons(b))
                if name:
                    key = K.mouse_key("MouseDrag" + name, where)
            self.drag_flag = buttons(b) + 1
        elif typ == _WHEEL:
            key = K.mouse_key("WheelUp" if buttons(b) == WHEEL_UP else "WheelDown", where)
        else:
            name = BUTTON_NAMES.get(buttons(b))
            if name:
                if typ == _UP and name == "10":
                    name = "1"  # tmux 3.3a's table has MouseUp1 for button 10
                key = K.mouse_key(_EVENT_NAMES[typ] + name, where)
        if key == K.KEYC_UNKNOWN:
            return key
        return _modifiers(key, b)

    def click_expired(self, att: Any) -> None:
        """server_client_click_timer: waiting for a third click that never came was a
        double click."""
        if self.triple and self.click_event is not None:
            att.mouse_input(self.click_event.copy(), K.KEYC_DOUBLECLICK)
        self.double = self.triple = False


def _modifiers(key: int, b: int) -> int:
    if b & MASK_META:
        key |= K.KEYC_META
    if b & MASK_CTRL:
        key |= K.KEYC_CTRL
    if b & MASK_SHIFT:
        key |= K.KEYC_SHIFT
    return key


# -- into a pane -----------------------------------------------------------------------------------


def _split2(c: int) -> bytes:
    if c > 0x7F:
        return bytes(((c >> 6) | 0xC0, (c & 0x3F) | 0x80))
    return bytes((c,))


def encode_for_pane(scr: Any, m: MouseEvent, x: int, y: int) -> bytes | None:
    """input_key_get_mouse: the report for an application, in the encoding it asked for
    (SGR only when the terminal sent SGR too), or None when it did not ask for this kind."""
    motion = scr.mouse_button or scr.mouse_any
    if is_drag(m.b) and not motion:
        return None
    if not (scr.mouse_standard or motion):
        return None
    if m.sgr_type != " ":
        if is_drag(m.sgr_b) and is_release(m.sgr_b) and not scr.mouse_any:
            return None
    elif is_drag(m.b) and is_release(m.b) and is_release(m.lb) and not scr.mouse_any:
        return None
    if m.sgr_type != " " and scr.mouse_sgr:
        return f"\x1b[<{m.sgr_b};{x + 1};{y + 1}{m.sgr_type}".encode()
    if scr.mouse_utf8:
        if m.b > 0x7FF - 32 or x > 0x7FF - 33 or y > 0x7FF - 33:
            return None
        return b"\x1b[M" + _split2(m.b + 32) + _split2(x + 33) + _split2(y + 33)
    if m.b + 32 > 0xFF:
        return None
    return b"\x1b[M" + bytes((m.b + 32, min(x + 33, 0xFF), min(y + 33, 0xFF)))


def pane_key(client: Any, wp: Any, key: int, m: MouseEvent) -> None:
    """window_pane_key for a mouse key: a pane's mode gets it (``Mode.mouse``), else the
    pane's application, translated to the pane, if the event is on that pane and the
    application asked for the mouse (input_key_mouse)."""
    if wp is None:
        return
    if wp.modes:
        if client is not None:
            wp.modes[0].mouse(client, key & ~K.KEYC_MASK_FLAGS, m)
        return
    if wp.dead or getattr(wp, "input_off", False):
        return
    if m.wp is not wp:
        return
    scr = wp.screen
    if m.ignore or not (scr.mouse_standard or scr.mouse_button or scr.mouse_any):
        return
    pos = mouse_at(wp, m)
    if pos is None or not _visible(wp):
        return
    data = encode_for_pane(scr, m, pos[0], pos[1])
    if data:
        wp.write(data)


def terminal_mode(server: Any, client: Any, wp: Any) -> int:
    """The mouse modes the client's terminal is asked for (server_client_reset_state): the
    active pane's, or with ``mouse`` on button mode (all-motion if a pane wants it)."""
    s = client.session
    mode = 0
    ov = getattr(client, "overlay", None)
    if ov is not None and hasattr(ov, "mouse_modes"):  # overlay_mode: a menu's own screen
        mode = ov.mouse_modes()
    elif not wp.modes:
        scr = wp.screen
        if scr.mouse_any:
            mode = MODE_MOUSE_ALL
        elif scr.mouse_button:
            mode = MODE_MOUSE_BUTTON
        elif scr.mouse_standard:
            mode = MODE_MOUSE_STANDARD
    if s.options.get("mouse"):
        if ov is None:
            mode = 0
            for p in wp.window.panes:
                if not p.modes and p.screen.mouse_any:
                    mode = MODE_MOUSE_ALL
        if s.options.get("focus-follows-mouse"):
            mode |= MODE_MOUSE_ALL  # movement is needed to follow it
        elif not mode & MODE_MOUSE_ALL:
            mode |= MODE_MOUSE_BUTTON
    return mode


def mode_sequence(mode: int) -> str:
    """tty_update_mode's mouse part: everything off, then what ``mode`` wants (SGR always)."""
    out = "\x1b[?1006l\x1b[?1000l\x1b[?1002l\x1b[?1003l"
    if mode & ALL_MOUSE_MODES:
        out += "\x1b[?1006h"
    if mode & MODE_MOUSE_ALL:
        out += "\x1b[?1000h\x1b[?1002h\x1b[?1003h"
    elif mode & MODE_MOUSE_BUTTON:
        out += "\x1b[?1000h\x1b[?1002h"
    elif mode & MODE_MOUSE_STANDARD:
        out += "\x1b[?1000h"
    return out


# -- commands that take over a drag ----------------------------------------------------------------


def resize_update(client: Any, m: MouseEvent) -> None:
    """cmd_resize_pane_mouse_update: move the border under the previous report to this one."""
    from .layout import LEFTRIGHT, TOPBOTTOM
    from .model import apply_layout

    got = mouse_window(m)
    att = getattr(client, "attached", None)
    if got is None or got[1] is None:
        if att is not None:
            att.mouse.drag_update = None
        return
    w = got[1].window
    lay = w.layout
    if lay is None:
        return
    wp = m.wp
    if wp is not None and wp in w.panes and getattr(wp, "floating", False):
        _floating_update(client, m, w, wp)
        return

    x, y, lx, ly = _drag_points(m)
    cells: list[Any] = []
    for dx, dy in ((0, 0), (0, 1), (1, 0), (0, -1), (-1, 0)):
        lc = lay.search_by_border(lx + dx, ly + dy)
        if lc is not None and not any(lc is c for c in cells):
            cells.append(lc)
    resizes = 0
    for lc in cells:
        if lc.parent is None:
            continue
        kind = lc.parent.type
        if y != ly and kind == TOPBOTTOM:
            lay.resize_layout(lc, kind, y - ly)
            resizes += 1
        elif x != lx and kind == LEFTRIGHT:
            lay.resize_layout(lc, kind, x - lx)
            resizes += 1
    events = lay.take_resize_events()  # each layout_resize_layout raised one
    if resizes:
        apply_layout(w)
        server = att.server if att is not None else None
        if server is not None:
            for _ in range(events):
                server.notify("window-layout-changed", {"window": w})
            server.redraw_clients(w)


def _drag_points(m: MouseEvent) -> tuple[int, int, int, int]:
    """The window cells a drag is at now and was at last report (x, y, lx, ly): the view's
    offset added, a status line on top taken off, a row on a bottom status line clamped to
    the window's last."""
    def adjust(y: int) -> int:
        if m.statusat == 0 and y >= m.statuslines:
            return y - m.statuslines
        if m.statusat > 0 and y >= m.statusat:
            return m.statusat - 1
        return y

    return m.x + m.ox, adjust(m.y + m.oy), m.lx + m.ox, adjust(m.ly + m.oy)


def _floating_update(client: Any, m: MouseEvent, w: Any, wp: Any) -> None:
    """cmd_resize_pane_mouse_update_floating: a drag on a floating pane's border resizes it
    from that side or corner; on its top border it moves the pane (tmux 3.7b)."""
    from .model import apply_layout

    lay = w.layout
    lc = lay.floating_box(wp)
    sx, sy = wp.sx, wp.sy
    left, right = wp.xoff - 1, wp.xoff + sx

    x, y, lx, ly = _drag_points(m)
    top, bottom = wp.yoff - 1, wp.yoff + sy
    box = None
    if lx in (left, left + 1) and ly == top:  # top left corner
        box = (max(lc.sx + (lx - x), 1), max(lc.sy + (ly - y), 1), x + 1, y + 1)
    elif lx in (right + 1, right) and ly == top:  # top right corner
        box = (max(x - lc.xoff, 1), max(lc.sy + (ly - y), 1), lc.xoff, y + 1)
    elif lx in (left, left + 1) and ly == bottom:  # bottom left corner
        if y - lc.yoff < 1:
            return
        box = (max(lc.sx + (lx - x), 1), y - lc.yoff, x + 1, lc.yoff)
    elif lx in (right + 1, right) and ly == bottom:  # bottom right corner
        box = (max(x - lc.xoff, 1), max(y - lc.yoff, 1), lc.xoff, lc.yoff)
    elif lx == right:
        if x - lc.xoff < 1:
            return
        box = (x - lc.xoff, lc.sy, lc.xoff, lc.yoff)
    elif lx == left:
        if lc.sx + (lx - x) < 1:
            return
        box = (lc.sx + (lx - x), lc.sy, x + 1, lc.yoff)
    elif ly == bottom:
        if y - lc.yoff < 1:
            return
        box = (lc.sx, y - lc.yoff, lc.xoff, lc.yoff)
    elif ly == top:  # the top border moves the pane
        box = (lc.sx, lc.sy, lc.xoff + (x - lx), y + 1)
    if box is None:
        return
    lay.set_floating_size(wp, *box)
    apply_layout(w)
    att = getattr(client, "attached", None)
    server = att.server if att is not None else None
    if server is not None:
        server.redraw_clients(w)


def _copy_mode(m: MouseEvent) -> tuple[Any, Any] | None:
    from .modes.copy import CopyMode

    got = mouse_pane(m)
    if got is None:
        return None
    wp = got[2]
    mode = wp.modes[0] if wp.modes else None
    if not isinstance(mode, CopyMode):
        return None
    return wp, mode


def _changed(cm: Any) -> None:
    from .modes import redraw

    cm._rev += 1
    redraw(cm)


def copy_move_mouse(m: MouseEvent) -> None:
    """window_copy_move_mouse: a copy mode command from a mouse binding starts with the
    cursor where the mouse is."""
    got = _copy_mode(m)
    if got is None:
        return
    wp, cm = got
    pos = mouse_at(wp, m)
    if pos is not None:
        cm._update_cursor(pos[0], pos[1])


def copy_start_drag(client: Any, m: MouseEvent) -> None:
    """window_copy_start_drag: select from where the button went down to where it is; the
    rest of the drag moves the selection's end (copy_drag_update)."""
    from .modes.copy import SEL_CHAR, SEL_LINE, SEL_WORD

    att = getattr(client, "attached", None) if client is not None else None
    if att is None:
        return
    got = _copy_mode(m)
    if got is None:
        return
    wp, cm = got
    pos = mouse_at(wp, m, last=True)
    if pos is None:
        return
    att.mouse.drag_update = copy_drag_update
    att.mouse.drag_release = copy_drag_release
    x, y = pos
    yg = cm.back.hsize + y - cm.oy
    if x < cm.selrx or x > cm.endselrx or yg != cm.selry:
        cm.selflag = SEL_CHAR
    if cm.selflag == SEL_WORD:
        if cm.separators:
            cm._update_cursor(x, y)
            x, y = cm._previous_word_pos(cm.separators)
            y -= cm.back.hsize - cm.oy
        cm._update_cursor(x, y)
    elif cm.selflag == SEL_LINE:
        cm._update_cursor(0, y)
    else:
        cm._update_cursor(x, y)
        cm._start_selection()
    _changed(cm)
    copy_drag_update(client, m)


def copy_drag_update(client: Any, m: MouseEvent) -> None:
    """window_copy_drag_update: the selection follows the mouse; held on the top or bottom
    row it scrolls (every DRAG_REPEAT, while the button stays down)."""
    got = _copy_mode(m)
    att = getattr(client, "attached", None) if client is not None else None
    if got is None or att is None:
        return
    wp, cm = got
    att.cancel_drag_timer()
    pos = mouse_at(wp, m)
    if pos is None:
        return
    x, y = pos
    old_cx, old_cy = cm.cx, cm.cy
    cm._update_cursor(x, y)
    cm._update_selection(False)
    if old_cy != cm.cy or old_cx == cm.cx:
        if y == 0:
            att.arm_drag_timer(lambda: _drag_timer(cm))
            cm._cursor_up(True)
        elif y == cm.sy - 1:
            att.arm_drag_timer(lambda: _drag_timer(cm))
            cm._cursor_down(True)
    _changed(cm)


def _drag_timer(cm: Any) -> bool:
    """window_copy_drag_timer: one more line while the drag stays on an edge; False stops."""
    if not cm.wp.modes or cm.wp.modes[0] is not cm:
        return False
    if cm.cy == 0:
        cm._cursor_up(True)
    elif cm.cy == cm.sy - 1:
        cm._cursor_down(True)
    else:
        return False
    _changed(cm)
    return True


def copy_drag_release(client: Any, m: MouseEvent) -> None:
    """window_copy_drag_release: the edge scrolling stops."""
    att = getattr(client, "attached", None) if client is not None else None
    if att is not None:
        att.cancel_drag_timer()


def formats(m: MouseEvent | None, server: Any, client: Any = None) -> dict[str, str]:
    """The mouse_* format variables a mouse binding's commands see (format_cb_mouse_*);
    mouse_word and mouse_line only for a pane in copy mode, mouse_status_line and
    mouse_status_range (tmux 3.6) for an event on the client's status lines."""
    if m is None or not m.valid:
        return {}
    out: dict[str, str] = {}
    att = getattr(client, "attached", None)
    if att is not None and m.statusat != -1:
        if m.statusat == 0 and m.y < m.statuslines:
            row = m.y
        elif m.statusat > 0 and m.y >= m.statusat:
            row = m.y - m.statusat
        else:
            row = -1
        if row >= 0:
            out["mouse_status_line"] = str(row)
            rng = att.status_range(m.x, row)
            if rng is not None:
                out["mouse_status_range"] = str(rng[1]) if rng[0] == "user" else rng[0]
    got = mouse_pane(m)
    pos = None
    if got is not None:
        wp = got[2]
        out["mouse_pane"] = f"%{wp.id}"
        pos = mouse_at(wp, m)
        if pos is not None:
            out["mouse_x"], out["mouse_y"] = str(pos[0]), str(pos[1])
            cm = _copy_mode(m)
            if cm is not None:
                word = cm[1]._screen_word(pos[0], pos[1])
                line = cm[1]._screen_line(pos[1])
            elif not wp.modes:
                chars = _row_chars(wp.screen, pos[1])
                ws = str(server.session_options.get("word-separators") or "")  # global
                word, line = grid_word(chars, pos[0], ws), "".join(chars).rstrip() or None
            else:
                word = line = None
            if word is not None:
                out["mouse_word"] = word
            if line is not None:
                out["mouse_line"] = line
    if pos is None and ((m.statusat == 0 and m.y < m.statuslines)
                        or (m.statusat > 0 and m.y >= m.statusat)):
        out["mouse_x"], out["mouse_y"] = str(m.x), str(m.y)
    return out


def _row_chars(scr: Any, y: int) -> list[str]:
    """A screen row as one string per cell ("" for the second half of a wide character)."""
    from .screen.cells import char_width

    chars: list[str] = []
    for text, _ in scr.row_runs(y):
        for ch in text:
            w = char_width(ch) if ord(ch) >= 0x80 else 1
            if w == 0 and chars:
                chars[-1] += ch
                continue
            chars.append(ch)
            if w == 2:
                chars.append("")
    while chars and chars[-1] == " ":
        chars.pop()
    return chars
