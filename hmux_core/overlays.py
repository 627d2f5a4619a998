"""Overlays drawn over an attached client's panes (tmux's server_client_set_overlay):
display-panes and menus.

An overlay owns the client's keys while it is shown: ``key`` returns 0 (used, keep the
overlay), 1 (used, close it) or -1 (not for it: close it and let the key go on). ``free`` runs
when it goes, however it goes, so a command waiting on it continues. A delay closes it after so
many milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio

from . import keys as K
from . import status

Cell = tuple[str, tuple[int, int, int, int]]

#: window_clock_table's digits, 5x5, one string per row.
DIGITS = (
    ("11111", "10001", "10001", "10001", "11111"),
    ("00001", "00001", "00001", "00001", "00001"),
    ("11111", "00001", "11111", "10000", "11111"),
    ("11111", "00001", "11111", "00001", "11111"),
    ("10001", "10001", "11111", "00001", "00001"),
    ("11111", "10000", "11111", "00001", "11111"),
    ("11111", "10000", "11111", "10001", "11111"),
    ("11111", "00001", "00001", "00001", "00001"),
    ("11111", "10001", "11111", "10001", "11111"),
    ("11111", "10001", "11111", "00001", "11111"),
)


class Overlay:
    """What every overlay provides; the defaults are tmux's NULL callbacks."""

    #: Hide the terminal cursor while shown (TTY_NOCURSOR).
    nocursor = True
    free_cb: Callable[[], None] | None = None

    def draw(self, server: Any, client: Any, rows: list[list[Cell]], top: int, sx: int,
             sy: int) -> None:
        """Draw over the composed frame; ``top`` is the first row of the window area."""

    def key(self, server: Any, client: Any, key: int) -> int:
        return -1

    def free(self) -> None:
        if self.free_cb is not None:
            self.free_cb()


def tty_size(client: Any) -> tuple[int, int] | None:
    """The size of the client's terminal as tmux's c->tty holds it, or None when the client
    has none an overlay could go on. A control client has one too (80x24 until
    refresh-client -C): tmux runs popups and menus on it, never drawn, and keys sent to it
    (send-keys -K -c) reach them."""
    a = getattr(client, "attached", None)
    if a is not None:
        return a.tty.sx, a.tty.sy
    if getattr(client, "control_state", None) is not None:
        return client.sx, client.sy
    return None


def set_overlay(server: Any, client: Any, overlay: Overlay, delay_ms: int) -> None:
    """Show ``overlay`` on ``client`` (replacing any other), closed after ``delay_ms`` if not 0."""
    clear_overlay(server, client)
    client.overlay = overlay
    if delay_ms and server.nursery is not None:
        async def expire() -> None:
            await trio.sleep(delay_ms / 1000)
            if getattr(client, "overlay", None) is overlay:
                clear_overlay(server, client)

        server.nursery.start_soon(expire)
    server.client_focus_changed(client)
    redraw(client)


def clear_overlay(server: Any, client: Any) -> None:
    ov = getattr(client, "overlay", None)
    if ov is None:
        return
    client.overlay = None
    ov.free()
    server.client_focus_changed(client)
    redraw(client)


def redraw(client: Any) -> None:
    """The client's frame drawn again in full (a control client has none to draw)."""
    a = getattr(client, "attached", None)
    if a is not None:
        a.redraw(full=True)


def _colour_style(fg: int = 8, bg: int = 8) -> tuple[int, int, int, int]:
    return (0, fg, bg, 0)


class DisplayPanes(Overlay):
    """display-panes: each visible pane's number, large, in its centre; a digit (or a-z for
    panes 10 to 35) chooses the pane and runs the template with its id."""

    def __init__(self, choose: Callable[[Any], None] | None) -> None:
        self.choose = choose

    def draw(self, server: Any, client: Any, rows: list[list[Cell]], top: int, sx: int,
             sy: int) -> None:
        s = client.session
        if s is None or s.curw is None:
            return
        w = s.curw.window
        panes = [w.active] if w.zoomed and w.active is not None else list(w.panes)
        for wp in panes:
            self._pane(s, w, wp, rows, top, sx, sy)

    @staticmethod
    def _pane(s: Any, w: Any, wp: Any, rows: list[list[Cell]], top: int, sx: int,
              sy: int) -> None:
        area = len(rows)
        if wp.xoff >= sx or wp.yoff >= sy:
            return
        xoff, yoff = wp.xoff, wp.yoff + top
        psx = min(wp.sx, sx - wp.xoff)
        psy = min(wp.sy, sy - wp.yoff)
        px, py = psx // 2, psy // 2
        pane = w.pane_index(wp)
        buf = str(pane)
        n = len(buf)
        if psx < n:
            return
        colour = int(s.options.get("display-panes-colour"))
        active = int(s.options.get("display-panes-active-colour"))
        c = active if w.active is wp else colour
        fgc, bgc = _colour_style(fg=c), _colour_style(bg=c)
        rbuf = f"{wp.sx}x{wp.sy}"
        lbuf = chr(ord("a") + pane - 10) if 9 < pane < 35 else ""

        def put(x: int, y: int, text: str, style: tuple[int, int, int, int]) -> None:
            if not 0 <= y < area:
                return
            row = rows[y]
            for i, ch in enumerate(text):
                if 0 <= x + i < len(row):
                    row[x + i] = (ch, style)

        if psx < n * 6 or psy < 5:
            if psx >= n + len(lbuf) + 1:
                n2 = n + len(lbuf) + 1
                put(xoff + px - n2 // 2, yoff + py, buf + " " + lbuf, fgc)
            else:
                put(xoff + px - n // 2, yoff + py, buf, fgc)
            return
        px -= n * 3
        py -= 2
        for ch in buf:
            digit = DIGITS[ord(ch) - 48]
            for j in range(5):
                for i in range(5):
                    if digit[j][i] == "1":
                        put(xoff + px + i, yoff + py + j, " ", bgc)
            px += 6
        if psy <= 6:
            return
        if psx >= len(rbuf):
            put(xoff + psx - len(rbuf), yoff, rbuf, fgc)
        if lbuf:
            put(xoff + psx // 2 + n * 3 - len(lbuf) - 1, yoff + py + 5, lbuf, fgc)

    def key(self, server: Any, client: Any, key: int) -> int:
        if self.choose is None:
            return -1
        if ord("0") <= key <= ord("9"):
            index = key - ord("0")
        elif key & K.KEYC_MASK_MODIFIERS == 0 and ord("a") <= key & K.KEYC_MASK_KEY <= ord("z"):
            index = 10 + (key & K.KEYC_MASK_KEY) - ord("a")
        else:
            return -1
        s = client.session
        if s is None or s.curw is None:
            return 1
        w = s.curw.window
        wp = w.pane_at_index(index)
        if wp is None:
            return 1
        if w.zoomed:
            from .commands.layout_cmds import unzoom_window

            unzoom_window(w)
        self.choose(wp)
        return 1


# screen_write_box_border_set: each box-lines style's characters by cell type (inside,
# top-bottom, left-right, the four corners, top/bottom/left/right joins, join, outside).
BOX_CELLS = {
    "single": " │─┌┐└┘┬┴├┤┼·", "double": " ║═╔╗╚╝╦╩╠╣╬·", "heavy": " ┃━┏┓┗┛┳┻┣┫╋·",
    "rounded": " │─╭╮╰╯┳┻┤├╋·",  # tmux's rounded joins, left and right swapped as it has them
    "simple": " |-+++++++++.", "padded": " " * 13, "none": " " * 13,
}
TOPBOTTOM, LEFTRIGHT, TOPLEFT, TOPRIGHT, BOTTOMLEFT, BOTTOMRIGHT = 1, 2, 3, 4, 5, 6
LEFTJOIN, RIGHTJOIN = 9, 10


def box_cells(nx: int, ny: int, lines: str, gc: tuple[int, int, int, int],
              title: str = "", links: Any = None) -> list[list[Cell]]:
    """screen_write_box: an ``nx`` by ``ny`` box in ``lines`` and ``gc``, the title drawn
    over its top border from the third column (its ``link=`` styles put in ``links``); the
    inside blank."""
    from .options import Style
    from .screen.cells import DEFAULT_STYLE

    ch = BOX_CELLS.get(lines, BOX_CELLS["single"])
    box = [[(" ", DEFAULT_STYLE)] * nx for _ in range(ny)]
    box[0] = [(ch[TOPLEFT], gc)] + [(ch[LEFTRIGHT], gc)] * (nx - 2) + [(ch[TOPRIGHT], gc)]
    box[-1] = ([(ch[BOTTOMLEFT], gc)] + [(ch[LEFTRIGHT], gc)] * (nx - 2)
               + [(ch[BOTTOMRIGHT], gc)])
    for row in box[1:-1]:
        row[0] = row[-1] = (ch[TOPBOTTOM], gc)
    if title and nx > 4:
        _draw_over(box[0], 2, title, nx - 4, Style(fg=gc[1], bg=gc[2], attr=gc[0]), links)
    return box


def _applied(opts: Any, name: str, override: str | None, expand: Any
             ) -> tuple[int, int, int, int]:
    """style_apply of an option, then only the colours of ``override`` (a -s/-H/-S style)."""
    from .modes import style_option
    from .options import Style, parse_style

    gc = style_option(opts, name, expand)
    if override is not None:
        sy = parse_style(override, Style())  # what it does not set is the default colour
        if sy is not None:
            gc = (gc[0], sy.fg, sy.bg, gc[3])
    return gc


class Menu(Overlay):
    """A menu (menu.c): a box of items drawn at (px, py); Up/Down (or k/j) move, Enter or an
    item's key chooses, Escape/q/C-c/C-g close. ``choose(index)`` runs the chosen item.
    Its styles are menu-style, menu-selected-style and menu-border-style (looked up at each
    draw) with the colours of ``style``, ``selected_style`` and ``border_style`` over them,
    its box in ``lines`` (menu-border-lines unless given)."""

    def __init__(self, title: str, items: list[tuple[str | None, int, str | None]],
                 width: int, px: int, py: int, choose: Callable[[int], None],
                 stay_open: bool = False, tab: bool = False, nomouse: bool = True,
                 starting_choice: int = 0, lines: str | None = None,
                 style: str | None = None, selected_style: str | None = None,
                 border_style: str | None = None) -> None:
        self.tab = tab  # MENU_TAB: Tab moves down (closing after the last), BSpace closes
        # MENU_NOMOUSE: a menu not opened by the mouse ignores it and starts on an item.
        self.nomouse = nomouse
        self.title = title
        self.items = items
        self.width = width
        self.px, self.py = px, py
        self.choose = choose
        self.stay_open = stay_open
        self.lines = lines
        self.style, self.selected_style, self.border_style = style, selected_style, border_style
        self.choice = -1
        count = len(items)
        if nomouse and count:
            if starting_choice >= count:  # the last selectable item, searching back
                start = count - 1
                choice = start + 1
                while True:
                    if self._selectable(choice - 1):
                        self.choice = choice - 1
                        break
                    choice -= 1
                    if choice == 0:
                        choice = count
                    if choice == start + 1:
                        break
            elif starting_choice >= 0:
                choice = starting_choice
                while True:
                    if self._selectable(choice):
                        self.choice = choice
                        break
                    choice += 1
                    if choice == count:
                        choice = 0
                    if choice == starting_choice:
                        break

    def _selectable(self, i: int) -> bool:
        name = self.items[i][0]
        return name is not None and not name.startswith("-")

    def resize(self, sx: int, sy: int) -> None:
        """menu_resize_cb: moved back onto a terminal that shrank."""
        w, h = self.width + 4, len(self.items) + 2
        if self.px + w > sx:
            self.px = 0 if sx <= w else sx - w
        if self.py + h > sy:
            self.py = 0 if sy <= h else sy - h

    def draw(self, server: Any, client: Any, rows: list[list[Cell]], top: int, sx: int,
             sy: int) -> None:
        """menu_draw_cb: screen_write_menu into the menu's box, over the frame."""
        from . import format as F
        from .formats_vars import ModelContext
        from .options import Style
        from .screen.cells import ATTR_DIM

        s = client.session
        if s is None or s.curw is None:
            return
        self.resize(sx, len(rows))
        o = s.curw.window.options
        ctx = ModelContext(server, client, s, s.curw, None)

        def expand(value: str) -> str:
            return F.expand(value, ctx)

        style_gc = _applied(o, "menu-style", self.style, expand)
        selected_gc = _applied(o, "menu-selected-style", self.selected_style, expand)
        border_gc = _applied(o, "menu-border-style", self.border_style, expand)
        lines = self.lines if self.lines is not None else str(o.get("menu-border-lines"))
        nx = self.width + 4
        links = status.client_links(client)
        box = box_cells(nx, len(self.items) + 2, lines, border_gc, self.title, links)
        ch = BOX_CELLS.get(lines, BOX_CELLS["single"])
        for i, (name, _key, _cmd) in enumerate(self.items):
            row = box[i + 1]
            if name is None:
                box[i + 1] = ([(ch[LEFTJOIN], border_gc)] + [(ch[LEFTRIGHT], border_gc)]
                              * (nx - 2) + [(ch[RIGHTJOIN], border_gc)])
                continue
            gc = selected_gc if i == self.choice and not name.startswith("-") else style_gc
            row[1:nx - 1] = [(" ", gc)] * (nx - 2)
            base = Style(fg=gc[1], bg=gc[2], attr=gc[0])
            if name.startswith("-"):  # dim text over undimmed spaces
                base.attr |= ATTR_DIM
                _draw_over(row, 2, name[1:], self.width, base, links)
                continue
            _draw_over(row, 2, name, self.width, base, links)
        for j, cells in enumerate(box):
            y = self.py + j
            if 0 <= y < len(rows):
                row = rows[y]
                end = min(self.px + nx, len(row))
                row[self.px:end] = cells[:end - self.px]

    def key(self, server: Any, client: Any, key: int) -> int:
        """menu_key_cb for a key: an item's own key chooses it; the rest move or close."""
        count = len(self.items)
        code = key & ~K.KEYC_MASK_FLAGS
        for i, (name, k, _cmd) in enumerate(self.items):
            if name is not None and not name.startswith("-") and code == k:
                self.choice = i
                return self._chosen()
        c0 = getattr(K, "to_c0", lambda k: k)(code)
        old = self.choice
        if code in (K.KEYC_BTAB, K.KEYC_UP, ord("k")):
            self._step(-1, old)
            return 0
        if code == K.KEYC_BSPACE:
            return 1 if self.tab else 0
        if code in (0x09, K.KEYC_DOWN, ord("j")):
            if code == 0x09:
                if not self.tab:
                    return 0
                if self.choice == count - 1:
                    return 1
            self._step(1, old)
            return 0
        if code == K.KEYC_PPAGE or c0 == 0x02:
            if self.choice < 6:
                self.choice = 0
            else:
                n = 5
                while n > 0:
                    self.choice -= 1
                    if self.choice != 0 and self._selectable(self.choice):
                        n -= 1
                    elif self.choice == 0:
                        break
            return 0
        if code == K.KEYC_NPAGE:
            if self.choice > count - 6:
                self.choice = count - 1
            else:
                n = 5
                while n > 0:
                    self.choice += 1
                    if self.choice != count - 1 and self._selectable(self.choice):
                        n -= 1
                    elif self.choice == count - 1:
                        break
            while self.choice > 0 and not self._selectable(self.choice):
                self.choice -= 1
            return 0
        if code in (ord("g"), K.KEYC_HOME):
            self.choice = 0
            while self.choice < count - 1 and not self._selectable(self.choice):
                self.choice += 1
            return 0
        if code in (ord("G"), K.KEYC_END):
            self.choice = count - 1
            while self.choice > 0 and not self._selectable(self.choice):
                self.choice -= 1
            return 0
        if code == 0x0D:
            return self._chosen()
        if code in (0x1B, ord("q")) or c0 in (0x1B, 0x03, 0x07):
            return 1
        return 0

    def _step(self, way: int, old: int) -> None:
        """Up or down to the next selectable item, round the ends."""
        count = len(self.items)
        if old == -1:
            old = 0
        while True:
            if way < 0:
                self.choice = count - 1 if self.choice in (-1, 0) else self.choice - 1
            else:
                self.choice = 0 if self.choice in (-1, count - 1) else self.choice + 1
            if self._selectable(self.choice) or self.choice == old:
                break

    def mouse_modes(self) -> int:
        """The mouse modes the menu asks the terminal for: all motion, to follow the mouse."""
        from .mouse import MODE_MOUSE_ALL, MODE_MOUSE_BUTTON

        return 0 if self.nomouse else MODE_MOUSE_ALL | MODE_MOUSE_BUTTON

    def mouse(self, server: Any, client: Any, m: Any) -> int:
        """menu_key_cb for a mouse report: a release on an item chooses it (any press with
        -O), a release outside closes the menu, moving over the items highlights them."""
        from .mouse import buttons, is_drag, is_release, is_wheel

        if self.nomouse:
            return 1 if buttons(m.b) != 0 else 0
        count = len(self.items)
        if (m.x < self.px or m.x > self.px + 4 + self.width or m.y < self.py + 1
                or m.y > self.py + count):
            if not self.stay_open:
                if is_release(m.b):
                    return 1
            elif not is_release(m.b) and not is_wheel(m.b) and not is_drag(m.b):
                return 1
            self.choice = -1
            return 0
        if not self.stay_open:
            if is_release(m.b):
                return self._chosen()
        elif not is_wheel(m.b) and not is_drag(m.b):
            return self._chosen()
        self.choice = m.y - (self.py + 1)
        return 0

    def _chosen(self) -> int:
        if self.choice == -1:
            return 1
        if not self._selectable(self.choice):
            return 0 if self.stay_open else 1
        self.choose(self.choice)
        return 1


def open_popup(server: Any, client: Any, argv: list[str], px: int, py: int, sx: int, sy: int,
               lines: str, title: str, close_exit: int, cwd: str, env: dict[str, str],
               style: str | None = None, border_style: str | None = None,
               close_any_key: bool = False) -> Popup:
    """popup_display: ``argv`` on its own PTY inside a box at (px, py), shown on ``client``;
    ``style`` and ``border_style`` (-s, -S) go over popup-style and popup-border-style."""
    from .pane import Pane

    a = getattr(client, "attached", None)
    jx, jy = (sx, sy) if lines == "none" else (sx - 2, sy - 2)
    pane = Pane(-1, None, jx, jy, 0, client.session.curw.window.options)
    pane.spawn(argv, server.default_shell(), cwd, env)
    ov = Popup(pane, px, py, sx, sy, lines, title, close_exit, style=style,
               border_style=border_style, close_any_key=close_any_key)

    def output(p: Any, events: list[tuple[str, Any]]) -> None:
        for name, value in events or ():
            if name == "clipboard":
                popup_clipboard(server, a, value)
        if a is not None:  # a control client's popup runs, but nothing draws it
            a.redraw(status=False)

    pane.on_output = output
    pane.on_exit = lambda p: ov.exited(server, client) if client.overlay is ov else None
    assert server.nursery is not None
    pane.start(server.nursery)
    set_overlay(server, client, ov, 0)
    return ov


def popup_clipboard(server: Any, attached: Any, payload: str) -> None:
    """OSC 52 from a popup's command (tmux 3.6): with set-clipboard on, the popup's client's
    terminal gets it and it becomes a paste buffer (no pane, so no pane-set-clipboard)."""
    from . import escapes

    data = escapes.clipboard_data(server, payload)
    if data is None:
        return
    if attached is not None:
        escapes.set_selection(server, data, [attached])
    server.buffers.add(data)


def popup_editor(server: Any, client: Any, data: bytes,
                 done: Callable[[bytes | None], None]) -> bool:
    """popup_editor: ``data`` in a temporary file opened with the ``editor`` option in a popup
    of nine tenths of the terminal; ``done`` gets the file's contents when the editor exits 0
    (None otherwise, or when the file is empty). False when there is no editor to run."""
    import os
    import shlex
    import tempfile

    from .commands.shell_cmds import job_environ

    editor = str(server.options.get("editor") or "")
    a = getattr(client, "attached", None)
    if not editor or a is None or client.session is None:
        return False
    fd, path = tempfile.mkstemp(prefix="tmux.", dir="/tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    tsx, tsy = a.tty.sx, a.tty.sy
    sx, sy = tsx * 9 // 10, tsy * 9 // 10
    wo = client.session.curw.window.options
    lines = str(wo.get("popup-border-lines"))
    try:
        ov = open_popup(server, client, [server.default_shell(), "-c",
                                         f"{editor} {shlex.quote(path)}"],
                        tsx // 2 - sx // 2, tsy // 2 - sy // 2, sx, sy, lines, "", 1,
                        "/tmp", job_environ(server, client.session))
    except OSError:
        os.unlink(path)
        return False

    def closed() -> None:
        text = None
        if ov.status == 0:
            try:
                with open(path, "rb") as f:
                    text = f.read() or None
            except OSError:
                pass
        try:
            os.unlink(path)
        except OSError:
            pass
        done(text)

    ov.free_cb = closed
    return True


class _TextPane:
    """What a popup without a command (POPUP_NOJOB) shows: a screen text is written to."""

    def __init__(self, sx: int, sy: int) -> None:
        from .screen import Screen

        self.screen = Screen(sx, sy, 0)
        self.dead_status = 0
        self.dead_signal = None

    def write(self, data: bytes) -> None:
        """Keys for the command: there is none."""

    def resize(self, sx: int, sy: int) -> None:
        self.screen.resize(sx, sy)

    def destroy(self) -> None:
        """Nothing runs."""


def text_popup(server: Any, client: Any, px: int, py: int, sx: int, sy: int,
               data: bytes) -> Popup | None:
    """popup_display with POPUP_NOJOB|POPUP_CLOSEANYKEY and popup_write: ``data`` (text
    with escape sequences) in a box that any key closes (the modes' C-h help)."""
    a = getattr(client, "attached", None)
    if a is None or client.session is None or client.session.curw is None:
        return None
    wo = client.session.curw.window.options
    lines = str(wo.get("popup-border-lines"))
    jx, jy = (sx, sy) if lines == "none" else (sx - 2, sy - 2)
    pane = _TextPane(max(jx, 1), max(jy, 1))
    pane.screen.feed(data)
    ov = Popup(pane, px, py, sx, sy, lines, "", 0, close_any_key=True)
    ov.running = False
    ov.status = 0
    set_overlay(server, client, ov, 0)
    return ov


class Popup(Overlay):
    """display-popup (popup.c): a command on its own PTY, drawn in a box over the panes.
    Keys go to it; Escape or C-c close it unless -E waits for the command; -E closes it when
    the command exits, -EE only when it exits 0."""

    nocursor = False

    def __init__(self, pane: Any, px: int, py: int, sx: int, sy: int, lines: str, title: str,
                 close_exit: int, style: str | None = None, border_style: str | None = None,
                 close_any_key: bool = False) -> None:
        self.pane = pane
        self.px, self.py, self.sx, self.sy = px, py, sx, sy
        self.lines = lines
        self.title = title
        self.style, self.border_style = style, border_style
        self.close_exit = close_exit  # 0, 1 (-E) or 2 (-EE)
        #: POPUP_CLOSEANYKEY (display-popup -k, the modes' help): once nothing runs in it,
        #: any key that is not the mouse closes it.
        self.close_any_key = close_any_key
        self.running = True
        self.status = 128 + 1  # 128 + SIGHUP until the command exits (it is hung up)
        self.dragging = ""  # "move" or "size" while the mouse drags the popup
        self.dx = self.dy = 0

    @property
    def inner(self) -> tuple[int, int]:
        """Where the command's screen starts, relative to the popup."""
        return (0, 0) if self.lines == "none" else (1, 1)

    def exited(self, server: Any, client: Any) -> None:
        """popup_job_complete_cb."""
        self.running = False
        p = self.pane
        self.status = p.dead_status if p.dead_status is not None else (p.dead_signal or 0)
        if self.close_exit == 1 or (self.close_exit == 2 and self.status == 0):
            clear_overlay(server, client)
        else:
            redraw(client)

    def styles(self, server: Any, client: Any) -> tuple[Cell, ...]:
        """popup_reapply_styles: popup-style (the colours of what the command draws in the
        default colours) and popup-border-style, with -s and -S over them, no attributes."""
        from . import format as F
        from .formats_vars import ModelContext

        s = client.session
        o = s.curw.window.options
        ctx = ModelContext(server, client, s, s.curw, None)

        def expand(value: str) -> str:
            return F.expand(value, ctx)

        defaults = _applied(o, "popup-style", self.style, expand)
        border = _applied(o, "popup-border-style", self.border_style, expand)
        return (0, defaults[1], defaults[2], 0), (0, border[1], border[2], 0)

    def modify(self, title: str | None, style: str | None, border_style: str | None,
               lines: str | None, flags: tuple[int, bool] | None) -> None:
        """popup_modify (display-popup on a client showing a popup): what was given changes;
        ``flags`` is (-E count, -k) when the flags were given."""
        if title is not None:
            self.title = title
        if border_style is not None:
            self.border_style = border_style
        if style is not None:
            self.style = style
        if lines is not None:
            if (lines == "none") != (self.lines == "none"):
                ix = 0 if lines == "none" else 1
                self.pane.resize(self.sx - 2 * ix, self.sy - 2 * ix)
            self.lines = lines
        if flags is not None:
            self.close_exit, self.close_any_key = flags

    def draw(self, server: Any, client: Any, rows: list[list[Cell]], top: int, sx: int,
             sy: int) -> None:
        """popup_draw_cb: the box in popup-border-style with the title, the command's screen
        inside; cells in the default colours take popup-style's."""
        from .screen.cells import DEFAULT_STYLE, char_width

        defaults, border = self.styles(server, client)
        if self.lines != "none" and self.sx > 2 and self.sy > 2:
            box = box_cells(self.sx, self.sy, self.lines, border, self.title,
                            status.client_links(client))
        else:
            box = [[(" ", DEFAULT_STYLE)] * self.sx for _ in range(self.sy)]
        ix, iy = self.inner
        w, h = self.sx - 2 * ix, self.sy - 2 * iy
        scr = self.pane.screen
        for y in range(min(h, scr.sy if hasattr(scr, "sy") else h)):
            row = box[iy + y]
            x = ix
            for text, style in scr.row_runs(y):
                for ch in text:
                    cw = char_width(ch[0]) if ch and not ch.isascii() else 1
                    if cw <= 0:
                        continue
                    if x + cw > ix + w:
                        break
                    row[x] = (ch, style)
                    if cw == 2:
                        row[x + 1] = ("", style)
                    x += cw
        if defaults != (0, 8, 8, 0):  # tty_draw_line's defaults for the command's cells
            dfg, dbg = defaults[1], defaults[2]  # (the box is drawn NOPALETTE: not its)
            for row in box[iy:iy + h]:
                row[ix:ix + w] = [(ch, (st[0], dfg if st[1] == 8 else st[1],
                                        dbg if st[2] == 8 else st[2], st[3]))
                                  for ch, st in row[ix:ix + w]]
        if len(scr.hyperlinks):  # the command's OSC 8 links, drawn as a pane's are (3.7)
            for y in range(min(h, scr.rows)):
                row = box[iy + y]
                for x0, x1, uri, lid in scr.row_links(y):
                    for x in range(ix + x0, min(ix + x1, ix + w)):
                        ch, st = row[x]
                        row[x] = (ch, status.linked_style(st, (lid, uri)))
        for j, cells in enumerate(box):
            y = self.py + j
            if 0 <= y < len(rows):
                row = rows[y]
                end = min(self.px + self.sx, len(row))
                row[self.px:end] = cells[:end - self.px]

    def cursor(self) -> tuple[int, int] | None:
        """The command's cursor on the terminal, or None when it hides it."""
        scr = self.pane.screen
        if not self.running or not scr.cursor_visible:
            return None
        ix, iy = self.inner
        return self.px + ix + scr.cursor_x, self.py + iy + scr.cursor_y

    def key(self, server: Any, client: Any, key: int) -> int:
        if (not self.close_exit or not self.running) and key in (0x1B, ord("c") | K.KEYC_CTRL):
            return 1
        if not self.running and self.close_any_key and not K.is_mouse_key(key) \
                and key & K.KEYC_MASK_KEY not in (K.KEYC_PASTE_START, K.KEYC_PASTE_END):
            return 1
        if self.running:
            scr = self.pane.screen
            data = K.encode_key(key, **K.pane_modes(scr, server.options))
            if data:
                self.pane.write(data)
        return 0

    def mouse_modes(self) -> int:
        """popup_mode_cb: the command's own mouse modes."""
        from .mouse import MODE_MOUSE_ALL, MODE_MOUSE_BUTTON, MODE_MOUSE_STANDARD

        scr = self.pane.screen
        if scr.mouse_any:
            return MODE_MOUSE_ALL
        if scr.mouse_button:
            return MODE_MOUSE_BUTTON
        return MODE_MOUSE_STANDARD if scr.mouse_standard else 0

    def mouse(self, server: Any, client: Any, m: Any) -> int:
        """popup_key_cb for a mouse report: M-drag (or a drag on the border) with button 1
        moves the popup, with button 3 resizes it; inside, the command gets the report if it
        asked for the mouse. (tmux's popup menu on button 3 is not here.)"""
        from .mouse import MASK_META, MASK_MODIFIERS, buttons, encode_for_pane, is_drag

        if self.dragging:
            self._drag(client, m)
            return 0
        if (m.x < self.px or m.x > self.px + self.sx - 1 or m.y < self.py
                or m.y > self.py + self.sy - 1):
            return 0
        border = False
        if self.lines != "none":
            border = m.x in (self.px, self.px + self.sx - 1) or m.y in (self.py,
                                                                        self.py + self.sy - 1)
        if (m.b & MASK_MODIFIERS) == MASK_META or border:
            if not is_drag(m.b):
                return 0
            if buttons(m.lb) == 0:
                self.dragging = "move"
            elif buttons(m.lb) == 2:
                self.dragging = "size"
            self.dx, self.dy = m.lx - self.px, m.ly - self.py
            return 0
        if self.running:
            ix, iy = self.inner
            data = encode_for_pane(self.pane.screen, m, m.x - self.px - ix, m.y - self.py - iy)
            if data:
                self.pane.write(data)
        return 0

    def _drag(self, client: Any, m: Any) -> None:
        """popup_handle_drag."""
        from .mouse import is_drag

        a = getattr(client, "attached", None)
        if a is None or not is_drag(m.b):
            self.dragging = ""
            return
        tsx, tsy = a.tty.sx, a.tty.sy
        if self.dragging == "move":
            self.px = 0 if m.x < self.dx else (tsx - self.sx if m.x - self.dx + self.sx > tsx
                                               else m.x - self.dx)
            self.py = 0 if m.y < self.dy else (tsy - self.sy if m.y - self.dy + self.sy > tsy
                                               else m.y - self.dy)
            self.dx, self.dy = m.x - self.px, m.y - self.py
        else:
            least = 1 if self.lines == "none" else 3
            if m.x < self.px + least or m.y < self.py + least:
                return
            self.sx, self.sy = m.x - self.px, m.y - self.py
            ix, iy = self.inner
            self.pane.resize(self.sx - 2 * ix, self.sy - 2 * iy)
        redraw(client)

    def free(self) -> None:
        self.pane.destroy()
        super().free()


def _draw_over(row: list[Cell], x: int, text: str, width: int, base: Any,
               links: Any = None) -> None:
    """format_draw onto existing cells: only the cells the text covers change (a menu's
    title over its top border, a disabled item over plain spaces)."""
    drawn = [False] * width
    for i, cell in enumerate(status.draw(text, width, base, drawn=drawn,
                                         links=links)[:width]):
        if drawn[i] and x + i < len(row):
            row[x + i] = cell
