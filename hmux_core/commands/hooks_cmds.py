"""set-hook and show-hooks: hooks are array options of commands (tmux's cmd-set-option.c and
cmd-show-options.c serve them), so both go through the option semantics in options.py."""

from __future__ import annotations

from ..options import OptionError, set_option, show_options
from .options_cmds import _scopes
from .queue import CMD_RETURN_NORMAL, CmdItem
from .registry import command


@command("set-hook")
def cmd_set_hook(item: CmdItem) -> int:
    """Set, append to (-a) or unset (-u) a hook; -R runs it now instead."""
    args = item.args
    if args.has("R"):
        item.server.hooks.run_now(item.expand(args.argv[0]), item)
        return CMD_RETURN_NORMAL
    argv = args.argv
    try:
        changed = set_option(
            _scopes(item), argv[0], argv[1] if len(argv) > 1 else None, append=args.has("a"),
            global_=args.has("g"), pane=args.has("p"), unset=args.has("u"),
            window=args.has("w"), expand=lambda text: item.expand(text, item.target))
    except OptionError as e:
        return item.error(str(e))
    if changed:
        item.server.option_changed(changed)
    return CMD_RETURN_NORMAL


@command("show-hooks")
def cmd_show_hooks(item: CmdItem) -> int:
    args = item.args
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
