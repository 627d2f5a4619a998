"""The command table: one declarative entry per command, filled by the command modules.

Flag templates, argument counts and usage strings are tmux 3.3a's (``grammar.TMUX_COMMAND_TEMPLATES``);
each command module adds what only it knows: its target kinds and its exec function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import target as T
from .grammar import TMUX_COMMAND_TEMPLATES, CommandError

TargetSpec = tuple[str, str, int]


@dataclass
class CommandSpec:
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
    client_required: bool = False


_TABLE: dict[str, CommandSpec] = {}
_TEMPLATES = {entry[0]: entry for entry in TMUX_COMMAND_TEMPLATES}


def _unimplemented(item: Any) -> int:
    return item.error(f"{item.name}: not supported yet")


def command(name: str, *, target: TargetSpec | None = None, source: TargetSpec | None = None,
            start_server: bool = False, read_only: bool = False, after_hook: bool = False,
            client_flag: str | None = None, client_canfail: bool = False,
            client_required: bool = False) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    """Register an exec function for a tmux command (its grammar comes from the template table)."""

    def deco(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        entry = _TEMPLATES[name]
        _, alias, template, lower, upper, usage = entry[:6]
        _TABLE[name] = CommandSpec(
            name=name, alias=alias or "", template=template, lower=lower, upper=upper,
            usage=usage, exec=fn, target=target, source=source, start_server=start_server,
            read_only=read_only, after_hook=after_hook, client_flag=client_flag,
            client_canfail=client_canfail, client_required=client_required,
        )
        return fn

    return deco


def _ensure_loaded() -> None:
    if _TABLE:
        return
    from . import load_all

    load_all()
    # Commands of tmux that hmux does not run yet still parse, list and fail clearly.
    for entry in TMUX_COMMAND_TEMPLATES:
        name, alias, template, lower, upper, usage = entry[:6]
        if name not in _TABLE:
            _TABLE[name] = CommandSpec(name, alias or "", template, lower, upper, usage,
                                       _unimplemented)


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


def all_commands() -> list[CommandSpec]:
    _ensure_loaded()
    return [_TABLE[n] for n in sorted(_TABLE)]


def lookup(name: str) -> CommandSpec:
    """tmux's cmd_find: alias or exact name first, then a unique prefix."""
    _ensure_loaded()
    for spec in _TABLE.values():
        if spec.alias and spec.alias == name:
            return spec
    spec = _TABLE.get(name)
    if spec is not None:
        return spec
    found = [s for s in sorted(_TABLE) if s.startswith(name)]
    if len(found) == 1:
        return _TABLE[found[0]]
    if not found:
        raise CommandError(f"unknown command: {name}")
    raise CommandError(f"ambiguous command: {name}, could be: {', '.join(found)}")


PANE = T.FIND_PANE
WINDOW = T.FIND_WINDOW
SESSION = T.FIND_SESSION
