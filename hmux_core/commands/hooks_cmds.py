"""set-hook and show-hooks: hooks are array options of commands (tmux's cmd-set-option.c and
cmd-show-options.c serve them), so both go through the option semantics in options.py.

Beyond tmux 3.7b (the development tree's; docs/extensions.md): ``set-hook -E @name`` fires a
user event now, ``set-hook -B name:what:format`` (``-T``: only when the value is true) makes
the user hook ``name`` a monitor of that format, ``-uB`` removes the monitor and keeps its
command; ``show-hooks -B`` lists monitors as ``name:what:format`` and ``show-hooks -F`` prints
each hook through a format that also has ``hook_fire_count`` and ``hook_fire_time``.
"""

from __future__ import annotations

from typing import Any

from ..events import Payload
from ..format import expand
from ..formats_vars import ModelContext
from ..monitors import parse_subscription, what_string
from ..options import OptionError, set_option, show_options
from ..options_table import OPTION_TABLE, OPTIONS_BY_NAME
from .options_cmds import _scopes
from .queue import CMD_RETURN_NORMAL, CmdItem
from .registry import command


@command("set-hook")
def cmd_set_hook(item: CmdItem) -> int:
    """Set, append to (-a) or unset (-u) a hook; -R runs it now instead."""
    args = item.args
    if args.has("E"):
        return _fire_user_event(item)
    if args.has("B"):
        return _monitor(item)
    if args.has("R"):
        item.server.hooks.run_now(item.expand(args.argv[0]), item)
        return CMD_RETURN_NORMAL
    argv = args.argv
    hooks = item.server.hooks
    try:
        changed = set_option(
            _scopes(item), argv[0], argv[1] if len(argv) > 1 else None, append=args.has("a"),
            global_=args.has("g"), pane=args.has("p"), unset=args.has("u"),
            window=args.has("w"), expand=lambda text: item.expand(text, item.target))
    except OptionError as e:
        return item.error(str(e))
    name = item.expand(argv[0], item.target)
    if name.startswith("@") and not args.has("u"):
        hooks.user_hooks.add(name)  # hooks_add_event: registered for the server's life
    if args.has("u"):
        oo = _store(item, name)
        if oo is not None:
            hooks.reset_count(oo, name)
            if name.startswith("@"):
                hooks.monitor_remove(oo, name)  # removing the option ends its monitor
    if changed:
        item.server.option_changed(changed)
    return CMD_RETURN_NORMAL


def _store(item: CmdItem, name: str) -> Any:
    """options_scope_from_name: the store ``name`` is set in for this command's flags."""
    args = item.args
    try:
        return _scopes(item).from_name(
            name, global_=args.has("g"), pane=args.has("p"), window=args.has("w"))[1]
    except OptionError:
        return None


def _fire_user_event(item: CmdItem) -> int:
    """cmd_set_hook_event_exec: the event @name now, its payload the command's target."""
    args = item.args
    if args.nargs == 0:
        return item.error("missing argument")
    if args.nargs != 1:
        return item.error("too many arguments")
    name = item.expand(args.argv[0], item.target)
    if not name.startswith("@"):
        return item.error("event name must start with @")
    st = item.target
    payload = Payload(target=st.copy() if st is not None else None)
    if item.client is not None and not getattr(item.client, "is_config", False):
        payload.set("client", item.client)
    if st is not None:
        if st.s is not None:
            payload.set("session", st.s)
        w = st.w if st.w is not None else (st.wl.window if st.wl is not None else None)
        if w is not None:
            payload.set("window", w)
        if st.wl is not None:
            payload.set("window_index", st.wl.idx)
        elif st.idx != -1:
            payload.set("window_index", st.idx)
        if st.wp is not None:
            payload.set("pane", st.wp)
    item.server.hooks.fire_event(name, payload)
    return CMD_RETURN_NORMAL


def _monitor(item: CmdItem) -> int:
    """cmd_set_hook_monitor_exec: -B name:what:format [command] makes (or with -u removes)
    the monitor of user hook ``name``."""
    args = item.args
    if args.nargs > 1:
        return item.error("too many arguments")
    value = args.get("B") or ""
    parsed = parse_subscription(value)
    if args.has("u"):
        name = parsed[0] if parsed is not None else value
    elif parsed is None:
        return item.error(f"invalid subscription: {value}")
    else:
        name = parsed[0]
    if not name.startswith("@"):
        return item.error("monitor hook name must start with @")
    scopes = _scopes(item)
    try:
        _scope, oo = scopes.from_flags(global_=args.has("g"), pane=args.has("p"),
                                       window=args.has("w"))
    except OptionError as e:
        return item.error(str(e))
    hooks = item.server.hooks
    if args.has("u"):
        hooks.monitor_remove(oo, name)
        return CMD_RETURN_NORMAL
    assert parsed is not None
    _name, kind, ident, fmt = parsed
    if args.nargs:
        command_text = args.string(0) or ""
        old = oo.get_local(name)
        if args.has("a") and old is not None:
            command_text = str(old) + command_text
        oo.set(name, command_text)
    session = None
    if oo is not item.server.session_options and oo is not item.server.window_options \
            and oo is not item.server.options:
        session = item.target.s if item.target is not None else None
    hooks.monitor_add(oo, name, kind, ident, fmt, args.has("T"), item.target, session)
    return CMD_RETURN_NORMAL


@command("show-hooks")
def cmd_show_hooks(item: CmdItem) -> int:
    args = item.args
    if args.has("B") or args.has("F"):
        return _show_hooks_formatted(item)
    try:
        lines = show_options(
            _scopes(item), args.argv[0] if args.argv else None, global_=args.has("g"),
            pane=args.has("p"), window=args.has("w"), hooks_command=True,
            expand=lambda text: item.expand(text, item.target))
    except OptionError as e:
        return item.error(str(e))
    for line in lines:
        item.print(line)
    return CMD_RETURN_NORMAL


_SHOW_TEMPLATE = ("#{?option_value_only,#{option_value},#{option_name}#{?option_has_array_key,"
                  "[#{option_array_key}],}#{?option_is_parent,*,}#{?option_has_value, "
                  "#{?option_is_string,#{q/a:option_value},#{option_value}},}}")
_MONITOR_TEMPLATE = "#{option_name}:#{hook_monitor_target}:#{hook_monitor_format}"


def _show_hooks_formatted(item: CmdItem) -> int:
    """show-hooks -B (monitors) and -F (each hook line through a format with its firings)."""
    args = item.args
    hooks = item.server.hooks
    template = args.get("F")
    try:
        if args.argv:
            name = item.expand(args.argv[0], item.target)
            oo = _scopes(item).from_name(name if name.startswith("@") else
                                         _full_name(name), global_=args.has("g"),
                                         pane=args.has("p"), window=args.has("w"))[1]
        else:
            name = None
            oo = _scopes(item).from_flags(global_=args.has("g"), pane=args.has("p"),
                                          window=args.has("w"))[1]
    except OptionError as e:
        return item.error(str(e))
    st = item.target

    def line(fmt: str, values: dict[str, str]) -> None:
        ctx = ModelContext(item.server, item.client, st.s if st else None,
                           st.wl if st else None, st.wp if st else None, values)
        item.print(expand(fmt, ctx))

    def firings(values: dict[str, str], count: int, when: float) -> None:
        values["hook_fire_count"] = str(count)
        if when:
            values["hook_fire_time"] = str(int(when))

    if args.has("B"):
        names = [name] if name is not None else sorted(
            n for n in oo.local_names() if n.startswith("@"))
        for n in names:
            mon = hooks.monitor_of(oo, n)
            if mon is None:
                continue
            values = _entry_values(n, mon.value(), False, False, True, "")
            values.update(option_is_user="1", hook_monitor_target=what_string(mon.kind,
                                                                              mon.ident),
                          hook_monitor_format=mon.fmt)
            firings(values, mon.item.fire_count, mon.item.fire_time)
            line(template or _MONITOR_TEMPLATE, values)
        return CMD_RETURN_NORMAL
    entries = [oe for oe in OPTION_TABLE if oe.is_hook]
    if name is not None:
        full = name if name.startswith("@") else _full_name(name)
        entries = [oe for oe in entries if oe.name == full]
    for oe in entries:
        arr = oo.get_array(oe.name, local=True)
        if arr is None:
            continue
        count, when = hooks.fire_count(oo, oe.name)
        if not arr:
            values = _entry_values(oe.name, "", True, False, False, "")
            firings(values, count, when)
            line(template or _SHOW_TEMPLATE, values)
            continue
        for idx in sorted(arr):
            values = _entry_values(oe.name, str(arr[idx]), True, False, True, str(idx))
            firings(values, count, when)
            line(template or _SHOW_TEMPLATE, values)
    return CMD_RETURN_NORMAL


def _full_name(name: str) -> str:
    from ..options import match_option_name

    return match_option_name(name)[0]


def _entry_values(name: str, value: str, is_array: bool, is_string: bool, has_value: bool,
                  key: str) -> dict[str, str]:
    """cmd_show_options_print's formats for one line."""
    oe = OPTIONS_BY_NAME.get(name)
    return {
        "option_name": name, "option_value": value, "option_value_only": "0",
        "option_is_parent": "0", "option_is_array": "1" if is_array else "0",
        "option_is_string": "1" if is_string else "0",
        "option_is_hook": "1" if oe is None or oe.is_hook else "0",
        "option_is_user": "1" if oe is None else "0",
        "option_has_value": "1" if has_value else "0",
        "option_array_key": key, "option_has_array_key": "1" if key else "0",
    }


__all__ = ["cmd_set_hook", "cmd_show_hooks"]
