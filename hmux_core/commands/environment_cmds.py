"""set-environment and show-environment over the global and session environments.

An environment entry is set, cleared (``-r``: kept as ``-NAME`` so new processes do not get
it) or hidden (``-h``: kept for formats and ``show-environment -h`` but never passed to
processes), as tmux's environ.c keeps them.
"""

from __future__ import annotations

from ..model import Environ
from .queue import CMD_RETURN_ERROR, CMD_RETURN_NORMAL, CmdItem
from .registry import command


def _target_environ(item: CmdItem) -> Environ | None:
    """-g's global environment or the target session's; reports tmux's error when neither."""
    if item.args.has("g"):
        return item.server.environ
    s = item.target.s
    if s is None:
        tflag = item.args.get("t")
        if tflag is not None:
            item.error(f"no such session: {tflag}")
        else:
            item.error("no current session")
        return None
    return s.environ


@command("set-environment")
def cmd_set_environment(item: CmdItem) -> int:
    args = item.args
    name = args.argv[0]
    if name == "":
        return item.error("empty variable name")
    if "=" in name:
        return item.error("variable name contains =")
    value = args.argv[1] if args.nargs > 1 else None
    if value is not None and args.has("F"):
        value = item.expand(value)
    env = _target_environ(item)
    if env is None:
        return CMD_RETURN_ERROR
    if args.has("u"):
        if value is not None:
            return item.error("can't specify a value with -u")
        env.unset(name)
    elif args.has("r"):
        if value is not None:
            return item.error("can't specify a value with -r")
        env.clear(name)
    else:
        if value is None:
            return item.error("no value specified")
        env.set(name, value, hidden=args.has("h"))
    return CMD_RETURN_NORMAL


def shell_escape(value: str) -> str:
    """Escape for inside double quotes: POSIX interprets $ ` " and \\ there."""
    return "".join("\\" + ch if ch in '$`"\\' else ch for ch in value)


def _print(item: CmdItem, env: Environ, name: str, value: str | None) -> None:
    args = item.args
    if (name in env.hidden) != args.has("h"):
        return
    if not args.has("s"):
        item.print(f"{name}={value}" if value is not None else f"-{name}")
    elif value is not None:
        item.print(f'{name}="{shell_escape(value)}"; export {name};')
    else:
        item.print(f"unset {name};")


@command("show-environment")
def cmd_show_environment(item: CmdItem) -> int:
    args = item.args
    tflag = args.get("t")
    if tflag is not None and item.target.s is None:
        return item.error(f"no such session: {tflag}")
    env = _target_environ(item)
    if env is None:
        return CMD_RETURN_ERROR
    if args.argv:
        name = args.argv[0]
        if name not in env.values:
            return item.error(f"unknown variable: {name}")
        _print(item, env, name, env.values[name])
        return CMD_RETURN_NORMAL
    for name, value in env.sorted_items():
        _print(item, env, name, value)
    return CMD_RETURN_NORMAL
