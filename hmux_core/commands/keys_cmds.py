"""Key binding commands: bind-key, unbind-key, list-keys (tmux 3.7b's cmd-bind-key.c,
cmd-unbind-key.c, cmd-list-keys.c). The tables themselves live in :mod:`hmux_core.keybindings`."""

from __future__ import annotations

from collections.abc import Callable
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

#: cmd-list-keys.c's LIST_KEYS_TEMPLATE (what -F replaces); without -F the same lines are built
#: directly by :func:`_default_line`.
LIST_KEYS_TEMPLATE = (
    "#{?notes_only,"
    "#{key_prefix} "
    "#{p|#{key_string_width}:key_string} "
    "#{?key_note,#{key_note},#{key_command}}"
    ","
    "bind-key #{?key_has_repeat,#{?key_repeat,-r,  },} "
    "-T #{p|#{key_table_width}:key_table} "
    "#{p|#{key_string_width}:#{q|a:key_string}} "
    "#{key_command}}"
)

# sort.c's orders (enum sort_order), by the names -O takes.
SORT_ACTIVITY, SORT_CREATION, SORT_INDEX, SORT_MODIFIER, SORT_NAME, SORT_ORDER, SORT_SIZE, \
    SORT_Z, SORT_END = range(9)
_SORT_NAMES = {"activity": SORT_ACTIVITY, "creation": SORT_CREATION, "index": SORT_INDEX,
               "key": SORT_INDEX, "modifier": SORT_MODIFIER, "name": SORT_NAME,
               "title": SORT_NAME, "order": SORT_ORDER, "size": SORT_SIZE, "z": SORT_Z}


def sort_order_from_string(order: str | None) -> int:
    """sort_order_from_string: an -O value (any case), SORT_END if none or unknown."""
    if order is None:
        return SORT_END
    return _SORT_NAMES.get(order.lower(), SORT_END)


def _int32(v: int) -> int:
    """A C unsigned difference assigned to an int."""
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def _binding_cmp(order: int, reverse: bool) -> Callable[[Binding, Binding], int]:
    """sort_key_binding_cmp, quirks and all: the key difference is cut to an int (so the
    modifier bits never count), and tables compare as ``strcasecmp(...) == 0``, which says
    "greater" for two bindings of the same table and "equal" otherwise."""

    def same_table(a: Binding, b: Binding) -> int:
        return 1 if a.table.lower() == b.table.lower() else 0

    def cmp(a: Binding, b: Binding) -> int:
        result = 0
        if order == SORT_INDEX:
            result = _int32(K.tmux_code(a.key) - K.tmux_code(b.key))
        elif order == SORT_MODIFIER:
            result = _int32((a.key & K.KEYC_MASK_MODIFIERS) - (b.key & K.KEYC_MASK_MODIFIERS))
        elif order == SORT_NAME:
            result = same_table(a, b)
        if result == 0:
            result = same_table(a, b)
        return -result if reverse else result

    return cmp


def _msort(items: list[Binding], cmp: Callable[[Binding, Binding], int]) -> list[Binding]:
    """glibc's qsort (msort_with_tmp: top-down merge sort, left half n/2), which is what makes
    tmux's order with an inconsistent comparison function what it is."""
    n = len(items)
    if n <= 1:
        return items
    n1 = n // 2
    left = _msort(items[:n1], cmp)
    right = _msort(items[n1:], cmp)
    out: list[Binding] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if cmp(left[i], right[j]) <= 0:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    out.extend(left[i:])
    out.extend(right[j:])
    return out


def sort_bindings(bindings: list[Binding], order: int, reverse: bool) -> list[Binding]:
    """sort_qsort for key bindings: no order leaves tmux's tree order (even with -r), ``order``
    only reverses it, anything else sorts."""
    if order == SORT_END:
        return bindings
    if order == SORT_ORDER:
        return bindings[::-1] if reverse else bindings
    return _msort(list(bindings), _binding_cmp(order, reverse))


def _cstrwidth(s: str) -> int:
    """utf8_cstrwidth: the display width of a string."""
    return sum(max(char_width(c), 0) if c >= "\x80" else (1 if " " <= c < "\x7f" else 0)
               for c in s)


def _pad(s: str, width: int) -> str:
    """format's p modifier (utf8_padcstr): pad with spaces on the right to a display width."""
    return s + " " * max(width - _cstrwidth(s), 0)


def _command_text(bd: Binding) -> str:
    """cmd_list_print(ESCAPED|NO_GROUPS): the commands joined by `` \\; `` whatever their
    groups (3.7b stopped printing ``\\;\\;``, which could not be read back)."""
    return " \\; ".join(c.print() for c in bd.cmdlist.commands)


def _list_prefix(item: CmdItem) -> str:
    """cmd_list_keys_get_prefix: -P, else the global prefix key's name, else nothing."""
    args = item.args
    if args.has("P"):
        return args.get("P") or ""
    prefix = K.string_to_key(str(item.server.session_options.get("prefix")))
    if prefix == K.KEYC_NONE:
        return ""
    return K.key_to_string(prefix)


def _table_bindings(kt: KeyTables, name: str) -> list[Binding]:
    table = kt.get_table(name)
    return list(table) if table is not None else []


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
    order = sort_order_from_string(args.get("O"))
    if order == SORT_END and args.has("O"):
        return item.error("invalid sort order")
    reverse = args.has("r")
    name = args.get("T")
    if name is not None and kt.get_table(name) is None:
        return item.error(f"table {name} doesn't exist")

    prefix = _list_prefix(item)
    single = args.has("1")
    notes_only = args.has("N")
    if name is not None:
        found = sort_bindings(_table_bindings(kt, name), order, reverse)
    elif notes_only:
        found = (sort_bindings(_table_bindings(kt, "prefix"), order, reverse)
                 + sort_bindings(_table_bindings(kt, "root"), order, reverse))
    else:
        found = sort_bindings([bd for t in kt for bd in t], order, reverse)

    keep_notes = notes_only and not args.has("a")
    listed = [bd for bd in found
              if (only == K.KEYC_UNKNOWN or bd.key & (K.KEYC_MASK_KEY | K.KEYC_MASK_MODIFIERS)
                  == only) and not (keep_notes and bd.note is None)]
    if single:
        # n = 1 whatever was left: tmux's list still starts with the first binding it had.
        listed = listed[:1] or found[:1]
    if not listed:
        return CMD_RETURN_NORMAL

    has_repeat = any(bd.repeat for bd in listed)
    keywidth = max(_cstrwidth(K.key_to_string(bd.key)) for bd in listed)
    tablewidth = max(_cstrwidth(bd.table) for bd in listed)
    template = args.get("F")
    tc = item.target_client
    for bd in listed:
        if template is None:
            line = _default_line(bd, notes_only, prefix, has_repeat, keywidth, tablewidth)
        else:
            line = _format_line(item, template, bd, notes_only, prefix, has_repeat, keywidth,
                                tablewidth)
        if single or len(listed) == 1:
            # status_message_set: the client's status line, or only the message log.
            if tc is not None:
                item.server.status_message(tc, line)
            else:
                item.server.add_message(f"message: {line}")
        elif line:
            item.print(line)
    return CMD_RETURN_NORMAL


def _default_line(bd: Binding, notes_only: bool, prefix: str, has_repeat: bool, keywidth: int,
                  tablewidth: int) -> str:
    """LIST_KEYS_TEMPLATE expanded for one binding."""
    key = K.key_to_string(bd.key)
    if notes_only:
        return f"{prefix} {_pad(key, keywidth)} {bd.note or _command_text(bd)}"
    repeat = ("-r" if bd.repeat else "  ") if has_repeat else ""
    return (f"bind-key {repeat} -T {_pad(bd.table, tablewidth)} "
            f"{_pad(args_escape(key), keywidth)} {_command_text(bd)}")


def _format_line(item: CmdItem, template: str, bd: Binding, notes_only: bool, prefix: str,
                 has_repeat: bool, keywidth: int, tablewidth: int) -> str:
    """list-keys -F: the format with the binding's variables (format_defaults with no target,
    so only the client's and the server's variables besides)."""
    from .. import target as T
    from ..formats_vars import expand_for

    extra = {
        **item.state.formats,
        "notes_only": "1" if notes_only else "0",
        "key_has_repeat": "1" if has_repeat else "0",
        "key_string_width": str(keywidth),
        "key_table_width": str(tablewidth),
        "key_repeat": "1" if bd.repeat else "0",
        "key_note": bd.note or "",
        "key_prefix": prefix,
        "key_table": bd.table,
        "key_string": K.key_to_string(bd.key),
        "key_command": _command_text(bd),
    }
    return expand_for(item.server, template, T.State(), extra=extra, issuer=item.client)
