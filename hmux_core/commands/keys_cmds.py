"""Key binding commands: bind-key, unbind-key, list-keys (cmd-bind-key.c, cmd-unbind-key.c,
cmd-list-keys.c). The tables themselves live in :mod:`hmux_core.keybindings`."""

from __future__ import annotations

from typing import Any

from .. import keys as K
from ..keybindings import Binding, KeyTables, key_tables
from ..screen.cells import char_width
from .cmdparse import CmdParseError, commands_from_argv, commands_from_string
from .grammar import Args, CommandList, args_escape
from .queue import CMD_RETURN_ERROR, CMD_RETURN_NORMAL, CmdItem, parse_argv_list, parse_text
from .registry import command, table


def binding_from_args(server: Any, args: Args) -> CommandList | None:
    """The command list ``bind-key key ...`` binds: a ``{ }`` block as it is, one argument
    parsed as a command string (one group), several as an argument vector split at ``;``.
    None for a bare key (bind-key then only sets the note). Raises CmdParseError.

    ``server`` supplies ``command-alias``; None parses without aliases (the defaults).
    """
    count = args.nargs
    if count == 1:
        return None
    if count == 2 and args.is_commands(1):
        value = args.value(1)
        assert isinstance(value, CommandList)
        return value
    if count == 2:
        text = args.string(1) or ""
        if server is None:
            return commands_from_string(text, table(), environ={})
        return parse_text(server, text, one_group=True)
    if server is None:
        return commands_from_argv(args.arg_values[1:], table(), environ={})
    return parse_argv_list(server, args.arg_values[1:])


def _table_name(args: Args) -> str:
    if args.has("T"):
        return args.get("T") or ""
    return "root" if args.has("n") else "prefix"


@command("bind-key")
def cmd_bind_key(item: CmdItem) -> int:
    args = item.args
    keystr = args.string(0) or ""
    key = K.string_to_key(keystr)
    if key in (K.KEYC_NONE, K.KEYC_UNKNOWN):
        return item.error(f"unknown key: {keystr}")
    try:
        cmdlist = binding_from_args(item.server, args)
    except CmdParseError as e:
        return item.error(e.message)
    key_tables(item.server).add(_table_name(args), key, args.get("N"), args.has("r"), cmdlist)
    return CMD_RETURN_NORMAL


@command("unbind-key")
def cmd_unbind_key(item: CmdItem) -> int:
    args = item.args
    kt = key_tables(item.server)
    keystr = args.string(0)
    quiet = args.has("q")

    def fail(text: str) -> int:
        if quiet:
            item.failed = True
            return CMD_RETURN_ERROR
        return item.error(text)

    if args.has("a"):
        if keystr is not None:
            return fail("key given with -a")
        name = args.get("T")
        if name is None:
            name = "root" if args.has("n") else "prefix"
        if kt.get_table(name) is None:
            return fail(f"table {name} doesn't exist")
        kt.remove_table(name, item.server.clients)
        return CMD_RETURN_NORMAL

    if keystr is None:
        return fail("missing key")
    key = K.string_to_key(keystr)
    if key in (K.KEYC_NONE, K.KEYC_UNKNOWN):
        return fail(f"unknown key: {keystr}")
    if args.has("T"):
        name = args.get("T") or ""
        if kt.get_table(name) is None:
            return fail(f"table {name} doesn't exist")
    else:
        name = "root" if args.has("n") else "prefix"
    kt.remove(name, key)
    return CMD_RETURN_NORMAL


# -- list-keys ----------------------------------------------------------------------------------


def _cstrwidth(s: str) -> int:
    """utf8_cstrwidth: the display width of a string."""
    return sum(max(char_width(c), 0) if c >= "\x80" else (1 if " " <= c < "\x7f" else 0)
               for c in s)


def _pad(s: str, width: int) -> str:
    """utf8_padcstr: pad with spaces on the right to a display width."""
    return s + " " * max(width - _cstrwidth(s), 0)


def _has_note(bd: Binding) -> bool:
    return bool(bd.note)


def _note_width(kt: KeyTables, name: str, only: int) -> int:
    """cmd_list_keys_get_width: the widest key with a note (mouse keys are never listed)."""
    table = kt.get_table(name)
    if table is None:
        return 0
    width = 0
    for bd in table:
        if (only != K.KEYC_UNKNOWN and bd.key != only) or K.is_mouse_key(bd.key) \
                or not _has_note(bd):
            continue
        width = max(width, _cstrwidth(K.key_to_string(bd.key)))
    return width


def _print_notes(item: CmdItem, kt: KeyTables, name: str, keywidth: int, only: int,
                 prefix: str) -> bool:
    """cmd_list_keys_print_notes: ``prefix key note`` lines; -a lists unnoted keys too."""
    table = kt.get_table(name)
    if table is None:
        return False
    args = item.args
    tc = item.target_client
    found = False
    for bd in table:
        if (only != K.KEYC_UNKNOWN and bd.key != only) or K.is_mouse_key(bd.key) \
                or (not _has_note(bd) and not args.has("a")):
            continue
        found = True
        note = bd.note if _has_note(bd) else bd.cmdlist.print(escaped=True)
        line = f"{prefix}{_pad(K.key_to_string(bd.key), keywidth + 1)}{note}"
        if args.has("1") and tc is not None:
            item.server.status_message(tc, line)
        else:
            item.print(line)
        if args.has("1"):
            break
    return found


def _list_notes(item: CmdItem, kt: KeyTables, name: str | None, only: int) -> bool:
    args = item.args
    if name is not None:
        start = args.get("P") or ""
        width = _note_width(kt, name, only)
        return _print_notes(item, kt, name, width, only, start)
    prefix = K.string_to_key(str(item.server.session_options.get("prefix")))
    if args.has("P"):
        start = args.get("P") or ""
    else:
        start = K.key_to_string(prefix) + " " if prefix != K.KEYC_NONE else ""
    keywidth = _note_width(kt, "root", only)
    if prefix != K.KEYC_NONE:
        width = _note_width(kt, "prefix", only)
        if width == 0:
            prefix = K.KEYC_NONE
        else:
            keywidth = max(keywidth, width)
    found = _print_notes(item, kt, "root", keywidth, only, " " * _cstrwidth(start))
    if prefix != K.KEYC_NONE and _print_notes(item, kt, "prefix", keywidth, only, start):
        found = True
    return found


def _list_bindings(item: CmdItem, kt: KeyTables, name: str | None, only: int) -> bool:
    """``bind-key [-r] -T table key command`` lines, columns padded across all listed tables."""
    rows = []
    for kt_table in kt:
        if name is not None and kt_table.name != name:
            continue
        for bd in kt_table:
            if only != K.KEYC_UNKNOWN and bd.key != only:
                continue
            rows.append((kt_table.name, args_escape(K.key_to_string(bd.key)), bd))
    repeat = any(bd.repeat for _, _, bd in rows)
    tablewidth = max((_cstrwidth(t) for t, _, _ in rows), default=0)
    keywidth = max((_cstrwidth(k) for _, k, _ in rows), default=0)
    for tname, key, bd in rows:
        r = ("-r " if bd.repeat else "   ") if repeat else ""
        item.print(f"bind-key {r}-T {_pad(tname, tablewidth)} {_pad(key, keywidth)} "
                   f"{bd.cmdlist.print(escaped=True)}")
    return bool(rows)


@command("list-keys")
def cmd_list_keys(item: CmdItem) -> int:
    args = item.args
    kt = key_tables(item.server)
    keystr = args.string(0)
    only = K.KEYC_UNKNOWN
    if keystr is not None:
        only = K.string_to_key(keystr)
        if only == K.KEYC_UNKNOWN:
            return item.error(f"invalid key: {keystr}")
        only &= K.KEYC_MASK_KEY | K.KEYC_MASK_MODIFIERS
    name = args.get("T")
    if name is not None and kt.get_table(name) is None:
        return item.error(f"table {name} doesn't exist")
    if args.has("N"):
        found = _list_notes(item, kt, name, only)
    else:
        found = _list_bindings(item, kt, name, only)
    if only != K.KEYC_UNKNOWN and not found:
        return item.error(f"unknown key: {keystr}")
    return CMD_RETURN_NORMAL
