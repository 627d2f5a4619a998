"""The command table: one declarative entry per command, filled by the command modules.

Flag templates, argument counts and usage strings are tmux 3.7b's (``grammar.TMUX_COMMAND_TEMPLATES``);
each command module adds what only it knows: its target kinds and its exec function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import target as T
from .grammar import TMUX_COMMAND_FLAGS, TMUX_COMMAND_TARGETS, TMUX_COMMAND_TEMPLATES

TargetSpec = tuple[str, str, int]


@dataclass
class CommandSpec:
    """What the queue needs to run a command: its grammar and behaviour (tmux's cmd_entry),
    all from the grammar's tables, plus the exec function a command module registers."""

    name: str
    alias: str
    template: str
    lower: int
    upper: int
    usage: str
    exec: Callable[[Any], Any]
    target: TargetSpec | None = None
    source: TargetSpec | None = None
    start_server: bool = False
    read_only: bool = False
    after_hook: bool = False
    client_flag: str | None = None  # 't' or 'c': the flag naming the target client
    client_canfail: bool = False


_TABLE: dict[str, CommandSpec] = {}
_TEMPLATES = {t.name: t for t in TMUX_COMMAND_TEMPLATES}
_FIND_FLAGS = {"canfail": T.CANFAIL, "window-index": T.WINDOW_INDEX,
               "default-marked": T.DEFAULT_MARKED}


def _target(spec: Any) -> TargetSpec | None:
    if spec is None:
        return None
    flags = 0
    for name in spec.flags:
        flags |= _FIND_FLAGS[name]
    return (spec.flag, spec.type, flags)


def _spec(template: Any, fn: Callable[[Any], Any]) -> CommandSpec:
    flags = TMUX_COMMAND_FLAGS.get(template.name, frozenset())
    source, target = TMUX_COMMAND_TARGETS.get(template.name, (None, None))
    client_flag = "c" if "client-cflag" in flags else "t" if "client-tflag" in flags else None
    return CommandSpec(
        name=template.name, alias=template.alias or "", template=template.template,
        lower=template.lower, upper=template.upper, usage=template.usage, exec=fn,
        target=_target(target), source=_target(source), start_server="start-server" in flags,
        read_only="read-only-ok" in flags, after_hook="after-hook" in flags,
        client_flag=client_flag, client_canfail="client-canfail" in flags)


def _unimplemented(item: Any) -> int:
    return item.error(f"{item.name}: not supported yet")


def command(name: str) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    """Register the exec function of a tmux command; everything else comes from the tables."""

    def deco(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        spec = _TABLE.get(name)
        if spec is None:
            _TABLE[name] = _spec(_TEMPLATES[name], fn)
        else:  # the table was built first: its rows hold this spec
            spec.exec = fn
        return fn

    return deco


#: The module registering each command, so the table is built from the grammar alone and a
#: command's module is imported when the command first runs: a cold server's first command
#: imports one family, not all of them (about 20 ms of its start). tests/test_command_table.py
#: checks this against the modules.
MODULES: dict[str, tuple[str, ...]] = {
    "access": ("server-access",),
    "buffers_cmds": (
        "set-buffer", "delete-buffer", "list-buffers", "show-buffer", "save-buffer",
        "load-buffer", "paste-buffer",
    ),
    "clients": (
        "attach-session", "detach-client", "switch-client", "list-clients", "suspend-client",
        "lock-server", "lock-session", "lock-client", "refresh-client",
    ),
    "environment_cmds": ("set-environment", "show-environment"),
    "hooks_cmds": ("set-hook", "show-hooks"),
    "keys_cmds": ("bind-key", "unbind-key", "list-keys"),
    "layout_cmds": (
        "select-layout", "next-layout", "previous-layout", "resize-window", "rotate-window",
    ),
    "misc": ("start-server", "kill-server", "list-commands", "display-message", "show-messages"),
    "mode_cmds": ("copy-mode", "clock-mode"),
    "moves": (
        "swap-pane", "break-pane", "join-pane", "move-pane", "move-window", "link-window",
        "swap-window",
    ),
    "options_cmds": (
        "set-option", "set-window-option", "show-options", "show-window-options", "source-file",
    ),
    "overlay_cmds": ("display-panes", "display-menu", "display-popup"),
    "panes": (
        "split-window", "new-pane", "list-panes", "select-pane", "last-pane", "kill-pane",
        "capture-pane", "clear-history", "send-keys", "send-prefix", "resize-pane",
    ),
    "prompt_cmds": (
        "command-prompt", "confirm-before", "show-prompt-history", "clear-prompt-history",
    ),
    "respawn": ("respawn-pane", "respawn-window"),
    "sessions": ("has-session", "new-session", "list-sessions", "kill-session", "rename-session"),
    "shell_cmds": ("run-shell", "if-shell", "wait-for", "pipe-pane"),
    "tree_cmds": (
        "choose-tree", "choose-buffer", "choose-client", "customize-mode", "find-window",
    ),
    "windows": (
        "new-window", "list-windows", "select-window", "next-window", "previous-window",
        "last-window", "kill-window", "unlink-window", "rename-window",
    ),
}
_MODULE_OF = {name: module for module, names in MODULES.items() for name in names}


def _importer(name: str, module: str) -> Callable[[Any], Any]:
    def import_then_run(item: Any) -> Any:
        from importlib import import_module

        import_module(f"{__package__}.{module}")
        spec = _TABLE[name]
        if spec.exec is import_then_run:  # MODULES named the wrong module: fail, clearly
            spec.exec = _unimplemented
        return spec.exec(item)

    return import_then_run


_loaded = False


def _ensure_loaded() -> None:
    """Give every command a spec once: the registered exec function where its module is
    already imported (windows.py, for automatic-rename), else one importing the module."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for template in TMUX_COMMAND_TEMPLATES:
        if template.name not in _TABLE:
            module = _MODULE_OF.get(template.name)
            # Commands of tmux that hmux does not run yet still parse, list and fail clearly.
            fn = _unimplemented if module is None else _importer(template.name, module)
            _TABLE[template.name] = _spec(template, fn)


_ENTRIES: list[Any] = []


def table() -> list[Any]:
    """The grammar's CommandEntry rows (tmux's table order) with our specs attached."""
    if not _ENTRIES:
        from .grammar import tmux_command_table

        _ensure_loaded()
        rows = tmux_command_table({n: s.exec for n, s in _TABLE.items()})
        for row in rows:
            row.extra["spec"] = _TABLE[row.name]
        _ENTRIES.extend(rows)
    return _ENTRIES


PANE = T.FIND_PANE
WINDOW = T.FIND_WINDOW
SESSION = T.FIND_SESSION
