"""customize-mode (tmux 3.3a's window-customize.c): every option and key binding as a tree.

The tree has one top item per option scope (server, session, window and pane) and one per
key table; under them an item per option (the value from the most specific store that has
it, with the store named when it is not the global one) or per key (its command, note and
repeat flag as children). Keys set, reset and unset what the current (or every tagged) item
stands for; the preview below says what the option means, its default and the values it
overrides. It is a tree mode, so listing, tagging, filtering and searching come from
:class:`TreeMode`; unlike choose-tree it has no update callback and is rebuilt only when a
key changes something.
"""

from __future__ import annotations

from typing import Any

from .. import keys as K
from .. import prompt as PR
from ..options_table import CHOICE, COLOUR, FLAG, IS_ARRAY, PANE, SESSION, STRING, WINDOW
from ..screen.cells import COLOUR_FLAG_256, DEFAULT_STYLE, Style, char_width
from .tree import Canvas, Item, TreeMode

DEFAULT_FORMAT = (
    "#{?is_option,"
    "#{?option_is_global,,#[reverse](#{option_scope})#[default] }"
    "#[ignore]"
    "#{option_value}#{?option_unit, #{option_unit},}"
    ","
    "#{key}"
    "}")

# window_customize_scope
NONE, KEY, SERVER, GLOBAL_SESSION, SESSION_SCOPE, GLOBAL_WINDOW, WINDOW_SCOPE, PANE_SCOPE = \
    range(8)
_GLOBAL = (SERVER, GLOBAL_SESSION, GLOBAL_WINDOW)
# window_customize_change
UNSET, RESET = range(2)


class Entry:
    """window_customize_itemdata: what one line stands for, an option of one store or a key
    binding of one table."""

    __slots__ = ("scope", "table", "key", "oo", "name", "idx")

    def __init__(self, scope: int, name: str, idx: int = -1, oo: Any = None,
                 table: str | None = None, key: int = K.KEYC_NONE) -> None:
        self.scope = scope
        self.name = name
        self.idx = idx
        self.oo = oo
        self.table = table
        self.key = key


def _strcmp_key(name: str) -> bytes:
    return name.encode("utf-8", "surrogateescape")


def _entry(name: str) -> Any:
    from ..options import OPTIONS_BY_NAME

    return OPTIONS_BY_NAME.get(name)


def _value_string(oo: Any, name: str, idx: int) -> str:
    """options_to_string without numeric flags; a whole array is its items joined by
    spaces (tmux 3.7b)."""
    if idx == -1:
        items = oo.get_array(name)
        if items is not None:
            parts = (oo.to_string(f"{name}[{i}]") for i in items)
            return " ".join(p for p in parts if p is not None)
    v = oo.to_string(name if idx == -1 else f"{name}[{idx}]")
    return v if v is not None else ""


def _extension(name: str) -> bool:
    """An option hmux has beyond tmux 3.7b's table: not listed, as tmux has no such option."""
    oe = _entry(name)
    return oe is not None and bool(getattr(oe, "is_extension", False))


def _default_string(oe: Any) -> str:
    """options_default_to_string."""
    from ..options import colour_tostring

    d = oe.default
    if oe.type == FLAG:
        return "on" if d else "off"
    if oe.type == CHOICE:
        return oe.choices[d]
    if oe.type == COLOUR:
        return colour_tostring(d)
    return str(d)


def write_text(c: Canvas, cx: int, width: int, lines: int, more: bool, st: Style,
               text: str) -> bool:
    """screen_write_text: ``text`` wrapped at spaces over at most ``lines`` lines of
    ``width`` cells from column ``cx``; False when it did not all fit (drawing stops)."""
    chars = [(ch, max(char_width(ch), 0) if not ch.isascii() else 1) for ch in text]
    n = len(chars)
    cy = c.cy
    idx = 0
    left = cx + width - c.cx
    while True:
        at = 0
        end = idx
        while end < n:
            ch, w = chars[end]
            if ch == "\n" or at + w > left:
                break
            at += w
            end += 1
        if end == n:
            nxt = end
        elif chars[end][0] in ("\n", " "):
            nxt = end + 1
        else:
            i = end
            while i > idx and chars[i][0] != " ":
                i -= 1
            if i != idx:
                nxt, end = i + 1, i
            else:
                nxt = end
        for ch, w in chars[idx:end]:
            c.cell(ch, st, wide=w == 2)
        idx = nxt
        if c.cy == cy + lines - 1 or idx >= n:
            break
        c.move(cx, c.cy + 1)
        left = width
    if (c.cy == cy + lines - 1 and (not more or c.cx == cx + width)) or idx < n:
        return False
    if not more or c.cx == cx + width:
        c.move(cx, c.cy + 1)
    return True


class CustomizeMode(TreeMode):
    """window_customize_mode (its name is ``options-mode``, as ``#{pane_mode}`` says)."""

    name = "options-mode"
    menu = (("Select", ord("\r")), ("Expand", K.KEYC_RIGHT), ("", K.KEYC_NONE),
            ("Tag", ord("t")), ("Tag All", 0x14), ("Tag None", ord("T")),
            ("", K.KEYC_NONE),
            ("Cancel", ord("q")))
    default_format = DEFAULT_FORMAT
    help_lines = (
        ("Enter, s", "Set %1 value"), ("S", "Set global %1 value"),
        ("w", "Set window %1 value"), ("d", "Set to default value"),
        ("D", "Set tagged %1s to default value"), ("u", "Unset an %1"),
        ("U", "Unset tagged %1s"), ("f", "Enter a filter"), ("v", "Toggle information"))
    help_item = "option"
    help_width = 52

    def __init__(self, server: Any, wp: Any, target: Any = None, args: Any = None) -> None:
        super().__init__(server, wp, target, args)
        self.hide_global = False
        self.change = UNSET
        # -y: the reset and unset questions are answered yes at once (PROMPT_ACCEPT).
        self.prompt_flags = PR.SINGLE | (PR.ACCEPT if args is not None and args.has("y")
                                         else 0)

    def update(self) -> None:
        """No periodic rebuild: tmux's customize mode has no update callback."""

    def _set_height(self) -> None:
        """window_customize_height: the preview takes 12 lines when they fit."""
        sy = self.sy
        if 12 < sy:
            self.height = sy - 12
        if sy - self.height < 2:
            self.height = sy

    # -- the state the mode looks at --------------------------------------------------------

    def state(self) -> Any:
        """The target it was started for while that is valid, else its own pane's."""
        from .. import target as T

        if self.fs.valid():
            return self.fs
        w = self.wp.window
        f = T.Finder(self.server.model, None, 0)
        f.fs.w = w
        if not f.best_session_with_window():
            return T.State()
        fs = f.fs
        fs.wp = self.wp
        return fs

    def tree_of(self, scope: int, fs: Any) -> Any:
        """window_customize_get_tree: the store a scope means for a target."""
        srv = self.server
        if scope == SERVER:
            return srv.options
        if scope == GLOBAL_SESSION:
            return srv.session_options
        if scope == SESSION_SCOPE:
            return fs.s.options if fs.s is not None else None
        if scope == GLOBAL_WINDOW:
            return srv.window_options
        if scope == WINDOW_SCOPE:
            return fs.w.options if fs.w is not None else None
        if scope == PANE_SCOPE:
            return fs.wp.options if fs.wp is not None else None
        return None

    def check(self, e: Entry) -> Any:
        """window_customize_check_item: the target state when the entry's store is still the
        one its scope means (a pane of another window has other stores), else None."""
        fs = self.state()
        return fs if e.oo is not None and e.oo is self.tree_of(e.scope, fs) else None

    def binding(self, e: Entry) -> tuple[Any, Any] | None:
        """window_customize_get_key: (table, binding) while both exist."""
        from ..keybindings import key_tables

        kt = key_tables(self.server).get_table(e.table or "")
        if kt is None:
            return None
        bd = kt.get(e.key)
        return (kt, bd) if bd is not None else None

    @staticmethod
    def scope_text(scope: int, fs: Any) -> str:
        if scope == PANE_SCOPE:
            return f"pane {fs.w.pane_index(fs.wp)}"
        if scope == SESSION_SCOPE:
            return f"session {fs.s.name}"
        if scope == WINDOW_SCOPE:
            return f"window {fs.wl.idx}"
        return ""

    # -- building ----------------------------------------------------------------------------

    def _context(self, fs: Any, extra: dict[str, str]) -> Any:
        from ..formats_vars import ModelContext

        return ModelContext(self.server, None, fs.s, fs.wl, fs.wp, dict(extra))

    def _expand(self, fmt: str, fs: Any, extra: dict[str, str]) -> str:
        from .. import format as F

        return F.expand(fmt, self._context(fs, extra))

    def build_items(self, tag: list[Any], flt: str | None) -> None:
        fs = self.state()
        srv = self.server
        ft = {"is_option": "1", "is_key": "0"}
        self._build_options("Server Options", ("top", "server"), fs, ft, flt,
                            [(SERVER, srv.options)])
        if fs.s is not None:
            self._build_options("Session Options", ("top", "session"), fs, ft, flt,
                                [(GLOBAL_SESSION, srv.session_options),
                                 (SESSION_SCOPE, fs.s.options)])
        if fs.w is not None and fs.wp is not None:
            self._build_options("Window & Pane Options", ("top", "window"), fs, ft, flt,
                                [(GLOBAL_WINDOW, srv.window_options),
                                 (WINDOW_SCOPE, fs.w.options), (PANE_SCOPE, fs.wp.options)])
        from ..keybindings import key_tables

        number = 0
        for kt in key_tables(srv):
            if not kt.bindings:
                continue
            self._build_keys(kt, number, fs, flt)
            number += 1
            if number == 256:
                break

    def _build_options(self, title: str, tag: Any, fs: Any, ft: dict[str, str],
                       flt: str | None, stores: list[tuple[int, Any]]) -> None:
        """window_customize_build_options: the names come from the first (global) store, the
        values from the most specific store that has them; user options can be in any."""
        top = self.add(None, None, tag, title, None, 0)
        top.no_tag = True
        users: list[str] = []
        for _scope, oo in stores:
            for name in sorted((n for n in oo.local_names() if n.startswith("@")),
                               key=_strcmp_key):
                if name not in users:
                    users.append(name)

        def owner(name: str) -> tuple[int, Any]:
            for scope, oo in reversed(stores):
                if oo.has_local(name):
                    return scope, oo
            return stores[0]

        for name in users:
            scope, oo = owner(name)
            self._build_option(top, scope, oo, name, fs, ft, flt)
        first = stores[0][1]
        for name in sorted((n for n in first.local_names() if not n.startswith("@")
                            and not _extension(n)), key=_strcmp_key):
            scope, oo = owner(name)
            self._build_option(top, scope, oo, name, fs, ft, flt)

    def _build_option(self, top: Item, scope: int, oo: Any, name: str, fs: Any,
                      ft: dict[str, str], flt: str | None) -> None:
        from ..format import format_true
        from ..options_text import UNIT

        oe = _entry(name)
        if oe is not None and oe.is_hook:
            return
        array = oe is not None and oe.is_array
        is_global = scope in _GLOBAL
        if self.hide_global and is_global:
            return
        ft["option_name"] = name
        ft["option_is_global"] = "1" if is_global else "0"
        ft["option_is_array"] = "1" if array else "0"
        ft["option_scope"] = self.scope_text(scope, fs)
        ft["option_unit"] = UNIT.get(name, "") if oe is not None else ""
        if not array:
            ft["option_value"] = _value_string(oo, name, -1)
        if flt is not None and not format_true(self._expand(flt, fs, ft)):
            return
        e = Entry(scope, name, -1, oo)
        text = None if array else self._expand(self.item_format, fs, ft)
        tag = ("option", name, -1) if oe is not None else ("user", id(oo), name)
        item = self.add(top, e, tag, name, text, 0)
        if not array:
            return
        arr = oo.get_array(name, local=True) or {}
        for idx in arr:
            ft["option_name"] = f"{name}[{idx}]"
            ft["option_value"] = _value_string(oo, name, idx)
            child = Entry(scope, name, idx, oo)
            self.add(item, child, ("option", name, idx), f"{name}[{idx}]",
                     self._expand(self.item_format, fs, ft), -1)

    def _build_keys(self, kt: Any, number: int, fs: Any, flt: str | None) -> None:
        from ..format import format_true

        top = self.add(None, None, ("keys", number), f"Key Table - {kt.name}", None, 0)
        top.no_tag = True
        ft = {"is_option": "0", "is_key": "1"}
        for bd in kt:
            ft["key"] = K.key_to_string(bd.key)
            if bd.note is not None:
                ft["key_note"] = bd.note
            if flt is not None and not format_true(self._expand(flt, fs, ft)):
                continue  # tmux 3.3a loops here for ever; the key is left out instead
            e = Entry(KEY, K.key_to_string(bd.key), table=kt.name, key=bd.key)
            child = self.add(top, e, ("key", kt.name, bd.key),
                             self._expand(self.item_format, fs, ft), None, 0)
            for n, (label, text) in enumerate((
                    ("Command", "#[ignore]" + bd.cmdlist.print()),
                    ("Note", "#[ignore]" + bd.note if bd.note is not None else ""),
                    ("Repeat", "on" if bd.repeat else "off"))):
                mti = self.add(child, e, ("keyattr", number, bd.key, n), label, text, -1)
                mti.draw_as_parent = True
                mti.no_tag = True

    # -- the preview ---------------------------------------------------------------------------

    def draw_preview(self, item: Item, c: Canvas, sx: int, sy: int) -> None:
        e = item.data
        if e is None:
            return
        if e.scope == KEY:
            self._draw_key(e, c, sx, sy)
        else:
            self._draw_option(e, c, sx, sy)

    def _draw_key(self, e: Entry, c: Canvas, sx: int, sy: int) -> None:
        found = self.binding(e)
        if found is None:
            return
        kt, bd = found
        cx, cy = c.cx, c.cy
        gc = DEFAULT_STYLE
        note = bd.note if bd.note is not None else "There is no note for this key."
        period = "." if note and not note.endswith(".") else ""
        if not write_text(c, cx, sx, sy, False, gc, note + period):
            return
        c.move(cx, c.cy + 1)
        if c.cy >= cy + sy - 1:
            return
        if not write_text(c, cx, sx, sy - (c.cy - cy), False, gc,
                          f"This key is in the {kt.name} table."):
            return
        if not write_text(c, cx, sx, sy - (c.cy - cy), False, gc,
                          f"This key {'does' if bd.repeat else 'does not'} repeat."):
            return
        c.move(cx, c.cy + 1)
        if c.cy >= cy + sy - 1:
            return
        cmd = bd.cmdlist.print()
        if not write_text(c, cx, sx, sy - (c.cy - cy), False, gc, f"Command: {cmd}"):
            return
        dd = kt.defaults.get(bd.key)
        if dd is not None:
            default = dd.cmdlist.print()
            if cmd != default:
                write_text(c, cx, sx, sy - (c.cy - cy), False, gc, f"The default is: {default}")

    def _draw_option(self, e: Entry, c: Canvas, sx: int, sy: int) -> None:
        from .. import format as F
        from ..options_text import TEXT, UNIT

        fs = self.check(e)
        if fs is None:
            return
        name, idx, oo = e.name, e.idx, e.oo
        if oo.owner_of(name) is None:
            return
        oe = _entry(name)
        space, unit = ("", "")
        if oe is not None and name in UNIT:
            space, unit = " ", UNIT[name]
        ctx = self._context(fs, {})
        cx, cy = c.cx, c.cy
        gc = DEFAULT_STYLE

        def text(t: str, more: bool = False, st: Style = gc) -> bool:
            return write_text(c, cx, sx, sy - (c.cy - cy), more, st, t)

        def skip(strict: bool = True) -> bool:
            """The blank line between parts; False when there is no room after it."""
            c.move(cx, c.cy + 1)
            return c.cy < cy + sy - 1 if strict else c.cy <= cy + sy - 1

        description = TEXT.get(name) if oe is not None else None
        if not text(description or "This option doesn't have a description.") or not skip():
            return
        if oe is None:
            kind = "user"
        elif oe.scope & (WINDOW | PANE) == WINDOW | PANE:
            kind = "window and pane"
        elif oe.scope & WINDOW:
            kind = "window"
        elif oe.scope & SESSION:
            kind = "session"
        else:
            kind = "server"
        if not text(f"This is a {kind} option."):
            return
        if oe is not None and oe.flags & IS_ARRAY:
            if idx == -1:
                text("This is an array option.")
                return  # an array's items have the values
            if not text(f"This is an array option, index {idx}."):
                return
        if not skip():
            return
        value = _value_string(oo, name, idx)
        default = None
        if oe is not None and idx == -1:
            default = _default_string(oe)
            if default == value:
                default = None
        if not text(f"Option value: {value}{space}{unit}"):
            return
        raw = oo.get(name) if oe is not None and oe.type == COLOUR and idx == -1 else None
        if oe is None or oe.type == STRING or isinstance(raw, str):  # FORMAT_COLOUR: a string
            expanded = F.expand(value, ctx)
            if expanded != value and not text(f"This expands to: {expanded}"):
                return
        if oe is not None and oe.type == CHOICE:
            if not text("Available values are: " + ", ".join(oe.choices)):
                return
        if oe is not None and oe.type == COLOUR:
            if not text("This is a colour option: ", more=True):
                return
            from ..options import colour_option

            fg = colour_option(oo, name, lambda t: F.expand(t, ctx))
            if fg == -1:  # "none": tmux puts -1 in the cell, which it draws as colour 255
                fg = COLOUR_FLAG_256 | 0xFF
            if not text("EXAMPLE", st=(0, fg, 8, 0)):
                return
        if oe is not None and oe.is_style:
            if not text("This is a style option: ", more=True):
                return
            sty = oo.get_style(name, lambda t: F.expand(t, ctx))
            st = (sty.attr, sty.fg, sty.bg, 0) if sty is not None else gc
            if not text("EXAMPLE", st=st):
                return
        if default is not None and not text(f"The default is: {default}{space}{unit}"):
            return
        if not skip(strict=False):
            return
        wo = go = None
        if oe is None or not oe.flags & IS_ARRAY:
            if e.scope == PANE_SCOPE:
                wo = oo.parent
                go = wo.parent if wo is not None else None
            elif e.scope in (WINDOW_SCOPE, SESSION_SCOPE):
                go = oo.parent
        owner = oo.owner_of(name)
        if wo is not None and owner is not wo and wo.has_local(name):
            v = wo.to_string(name, local=True)
            if not text(f"Window value (from window {fs.wl.idx}): {v}{space}{unit}"):
                return
        if go is not None and owner is not go and go.has_local(name):
            text(f"Global value: {go.to_string(name, local=True)}{space}{unit}")

    # -- keys ----------------------------------------------------------------------------------

    def mode_key(self, client: Any, key: int, item: Item | None, finished: bool) -> bool:

        e: Entry | None = item.data if item is not None else None
        if key in (ord("\r"), ord("s")):
            if e is not None:
                if e.scope == KEY:
                    self._set_key(client, e)
                else:
                    self._set_option(client, e, False, True)
                    self.server.option_changed(e.name)
                self.build()
        elif key == ord("w"):
            if e is not None and e.scope != KEY:
                self._set_option(client, e, False, False)
                self.server.option_changed(e.name)
                self.build()
        elif key in (ord("S"), ord("W")):
            if e is not None and e.scope != KEY:
                self._set_option(client, e, True, False)
                self.server.option_changed(e.name)
                self.build()
        elif key == ord("d"):
            if e is not None and e.idx == -1:
                self.change = RESET
                self._prompt(client, f"Reset {e.name} to default? ", "",
                             self._change_current_callback, self.prompt_flags, PR.COMMAND)
        elif key == ord("D"):
            tagged = self.count_tagged()
            if tagged:
                self.change = RESET
                self._prompt(client, f"Reset {tagged} tagged to default? ", "",
                             self._change_tagged_callback, self.prompt_flags, PR.COMMAND)
        elif key == ord("u"):
            if e is not None:
                what = f"{e.name}[{e.idx}]" if e.idx != -1 else e.name
                self.change = UNSET
                self._prompt(client, f"Unset {what}? ", "", self._change_current_callback,
                             self.prompt_flags, PR.COMMAND)
        elif key == ord("U"):
            tagged = self.count_tagged()
            if tagged:
                self.change = UNSET
                self._prompt(client, f"Unset {tagged} tagged? ", "",
                             self._change_tagged_callback, self.prompt_flags, PR.COMMAND)
        elif key == ord("H"):
            self.hide_global = not self.hide_global
            self.build()
        return finished

    def _changed(self) -> None:
        from . import redraw

        self.build()
        self.draw()
        redraw(self)

    def _fail(self, client: Any, text: str) -> None:
        if client is not None:
            self.server.status_message(client, text[:1].upper() + text[1:])

    def _set_option(self, client: Any, e: Entry, is_global: bool, pane: bool) -> None:
        """window_customize_set_option: flags and choices change at once, anything else
        through a prompt; ``is_global`` sets the global value, else the most specific one
        (the pane's when ``pane`` and the option can be set on a pane)."""

        fs = self.check(e)
        if fs is None or e.oo.owner_of(e.name) is None:
            return
        name, idx = e.name, e.idx
        oe = _entry(name)
        if oe is not None and not oe.scope & PANE:
            pane = False
        if oe is not None and oe.is_array:
            scope, oo = e.scope, e.oo
        else:
            s = e.scope
            if is_global:
                scope = {SESSION_SCOPE: GLOBAL_SESSION, WINDOW_SCOPE: GLOBAL_WINDOW,
                         PANE_SCOPE: GLOBAL_WINDOW}.get(s, s)
            elif s in (WINDOW_SCOPE, PANE_SCOPE, GLOBAL_WINDOW):
                scope = PANE_SCOPE if pane else WINDOW_SCOPE
            elif s == GLOBAL_SESSION:
                scope = SESSION_SCOPE
            else:
                scope = s
            oo = e.oo if scope == e.scope else self.tree_of(scope, fs)
        if oo is None:
            return
        if oe is not None and oe.type == FLAG:
            oo.set_value(name, not oo.get_number(name))
            return
        if oe is not None and oe.type == CHOICE:
            choice = oo.get_number(name) + 1
            oo.set_value(name, choice if choice < len(oe.choices) else 0)
            return
        where = self.scope_text(scope, fs)
        space = ", for " if where else (", global" if scope != SERVER else "")
        if oe is not None and oe.is_array:
            prompt = f"({name}[{'+' if idx == -1 else idx}]{space}{where}) "
        else:
            prompt = f"({name}{space}{where}) "
        new = Entry(scope, name, idx, oo)

        def done(c: Any, s: str | None, finished: bool) -> int:
            self._set_option_callback(c, new, s)
            return 0

        self._prompt(client, prompt, _value_string(e.oo, name, idx), done, 0, PR.COMMAND)

    def _set_option_callback(self, client: Any, e: Entry, s: str | None) -> None:
        from ..options import OptionError

        if not s or self.dead or self.check(e) is None:
            return
        oo, name, idx = e.oo, e.name, e.idx
        if oo.owner_of(name) is None:
            return
        oe = _entry(name)
        try:
            if oe is not None and oe.is_array:
                if idx == -1:
                    arr = oo.get_array(name) or {}
                    idx = 0
                    while idx in arr:
                        idx += 1
                oo.set(f"{name}[{idx}]", s)
            else:
                oo.set(name, s)
        except OptionError as err:
            self._fail(client, str(err))
            return
        self.server.option_changed(name)
        self._changed()

    def _set_key(self, client: Any, e: Entry) -> None:
        """window_customize_set_key: the line under the key says what changes."""

        found = self.binding(e)
        if found is None:
            return
        bd = found[1]
        label = self.lines[self.current].item.name
        keyname = K.key_to_string(e.key)
        if label == "Repeat":
            bd.repeat = not bd.repeat
        elif label == "Command":
            self._prompt(client, f"({keyname}) ", bd.cmdlist.print(),
                         lambda c, s, done: self._set_command_callback(c, e, s), 0, PR.COMMAND)
        elif label == "Note":
            self._prompt(client, f"({keyname}) ", bd.note or "",
                         lambda c, s, done: self._set_note_callback(e, s), 0, PR.COMMAND)

    def _set_command_callback(self, client: Any, e: Entry, s: str | None) -> int:
        from ..commands.cmdparse import CmdParseError
        from ..commands.grammar import CommandError
        from ..keybindings import parse_binding_string

        if not s or self.dead:
            return 0
        found = self.binding(e)
        if found is None:
            return 0
        try:
            cmdlist = parse_binding_string(self.server, s)
        except (CmdParseError, CommandError) as err:
            self._fail(client, str(err))
            return 0
        found[1].cmdlist = cmdlist
        self._changed()
        return 0

    def _set_note_callback(self, e: Entry, s: str | None) -> int:
        if not s or self.dead:
            return 0
        found = self.binding(e)
        if found is None:
            return 0
        found[1].note = s
        self._changed()
        return 0

    def _unset_option(self, e: Entry) -> None:
        """options_remove_or_default: a global value goes back to the default."""
        if self.check(e) is None or not e.oo.has_local(e.name):
            return
        cur = self.current_item()
        if e.idx != -1 and cur is not None and cur.data is e:
            self.up(False)
        e.oo.unset(e.name if e.idx == -1 else f"{e.name}[{e.idx}]")

    def _reset_option(self, e: Entry) -> None:
        # tmux's loop over the parents looks at the item's own store each time round.
        if self.check(e) is not None and e.idx == -1:
            e.oo.unset(e.name)

    def _collapse_up_if_current(self, e: Entry) -> None:
        cur = self.current_item()
        if cur is not None and cur.data is e:
            if cur.expanded:
                cur.expanded = False
                self.build()
            self.up(False)

    def _unset_key(self, e: Entry) -> None:
        from ..keybindings import key_tables

        found = self.binding(e)
        if found is None:
            return
        self._collapse_up_if_current(e)
        key_tables(self.server).remove(found[0].name, found[1].key)

    def _reset_key(self, e: Entry) -> None:
        from ..keybindings import key_tables

        found = self.binding(e)
        if found is None:
            return
        kt, bd = found
        dd = kt.defaults.get(bd.key)
        if dd is not None and bd.cmdlist is dd.cmdlist:
            return
        if dd is None:
            self._collapse_up_if_current(e)
        key_tables(self.server).reset(kt.name, bd.key)

    def _change(self, e: Entry) -> None:
        if self.change == UNSET:
            (self._unset_key if e.scope == KEY else self._unset_option)(e)
        else:
            (self._reset_key if e.scope == KEY else self._reset_option)(e)
        if e.scope != KEY:
            self.server.option_changed(e.name)

    def _change_current_callback(self, c: Any, s: str | None, done: bool) -> int:
        if not s or self.dead or s[0].lower() != "y" or len(s) != 1:
            return 0
        item = self.current_item()
        if item is not None and item.data is not None:
            self._change(item.data)
        self._changed()
        return 0

    def _change_tagged_callback(self, c: Any, s: str | None, done: bool) -> int:
        if not s or self.dead or s[0].lower() != "y" or len(s) != 1:
            return 0
        self.each_tagged(lambda it, client, key: self._change(it.data), c, K.KEYC_NONE,
                         False)
        self._changed()
        return 0

