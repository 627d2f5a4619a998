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
        _TABLE[name] = _spec(_TEMPLATES[name], fn)
        return fn

    return deco


_loaded = False


def _ensure_loaded() -> None:
    """Load every command module once; a module imported earlier on its own (windows.py for
    automatic-rename) must not make the table look complete."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from . import load_all

    load_all()
    # Commands of tmux that hmux does not run yet still parse, list and fail clearly.
    for template in TMUX_COMMAND_TEMPLATES:
        if template.name not in _TABLE:
            _TABLE[template.name] = _spec(template, _unimplemented)


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
