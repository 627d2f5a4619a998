"""choose-tree, choose-buffer, choose-client, customize-mode and find-window (tmux 3.7b's
cmd-choose-tree.c and cmd-find-window.c): put the target pane into one of the tree modes."""

from __future__ import annotations

from typing import Any

from ..modes import set_mode
from ..modes.customize import CustomizeMode
from ..modes.tree import (
    BufferMode,
    ClientMode,
    TreeMode,
    WindowTreeMode,
    clients_attached,
    sort_order_from_string,
)
from .grammar import Args
from .queue import CMD_RETURN_NORMAL, CmdItem
from .registry import command


def _enter(item: CmdItem, kind: type[TreeMode], args: Any) -> int:
    """window_pane_set_mode: a mode already on the pane's stack comes back to the top as it
    was; a new one zooms (-Z), builds and draws once it is on the pane."""
    wp = item.target.wp
    assert wp is not None
    if args.has("O") and sort_order_from_string(args.get("O")) is None:
        return item.error("invalid sort order")
    m = set_mode(item.server, wp, kind, target=item.target, args=args)
    if isinstance(m, TreeMode) and not m.started:
        m.start()
    return CMD_RETURN_NORMAL


@command("choose-tree")
def cmd_choose_tree(item: CmdItem) -> int:
    return _enter(item, WindowTreeMode, item.args)


@command("choose-buffer")
def cmd_choose_buffer(item: CmdItem) -> int:
    if item.args.has("O") and sort_order_from_string(item.args.get("O")) is None:
        return item.error("invalid sort order")
    if not item.server.buffers.by_name:  # paste_is_empty: named buffers count too
        return CMD_RETURN_NORMAL
    return _enter(item, BufferMode, item.args)


@command("choose-client")
def cmd_choose_client(item: CmdItem) -> int:
    if item.args.has("O") and sort_order_from_string(item.args.get("O")) is None:
        return item.error("invalid sort order")
    if clients_attached(item.server) == 0:
        return CMD_RETURN_NORMAL
    return _enter(item, ClientMode, item.args)


@command("customize-mode")
def cmd_customize_mode(item: CmdItem) -> int:
    return _enter(item, CustomizeMode, item.args)


def find_window_filter(args: Any, s: str) -> str:
    """The filter find-window gives choose-tree: content (-C), window name (-N), pane title
    (-T), all three by default; -r regular expressions (matched as they are, not inside
    ``*...*``), -i ignoring case."""
    C, N, T = args.has("C"), args.has("N"), args.has("T")
    if args.has("r") and args.has("i"):
        suffix = "/ri"
    elif args.has("r"):
        suffix = "/r"
    elif args.has("i"):
        suffix = "/i"
    else:
        suffix = ""
    if not C and not N and not T:
        C = N = T = True
    star = "" if args.has("r") else "*"
    content = f"#{{C{suffix}:{s}}}"
    name = f"#{{m{suffix}:{star}{s}{star},#{{window_name}}}}"
    title = f"#{{m{suffix}:{star}{s}{star},#{{pane_title}}}}"
    if C and N and T:
        return f"#{{||:{content},#{{||:{name},{title}}}}}"
    if C and N:
        return f"#{{||:{content},{name}}}"
    if C and T:
        return f"#{{||:{content},{title}}}"
    if N and T:
        return f"#{{||:{name},{title}}}"
    if C:
        return content
    if N:
        return name
    return title


@command("find-window")
def cmd_find_window(item: CmdItem) -> int:
    args = item.args
    new = Args()
    if args.has("Z"):
        new.set("Z")
    new.set("f", find_window_filter(args, args.string(0) or ""))
    return _enter(item, WindowTreeMode, new)
