"""Which plugins run (``TMUX_C2RS_PLUGINS`` and the ``plugins`` server option), and what the
configuration files set before they load.

Kept apart from the manager so the server can settle the selection, register the option a
configuration file may set and note the options' values before anything that loads plugins is
imported: the first client is answered first and plugins load right after it
(``Server.ensure_plugins``); their defaults go only where the files set nothing.
"""

from __future__ import annotations

from typing import Any

ENV_VAR = "TMUX_C2RS_PLUGINS"
DEFAULT_SET = ("agent", "git")
#: The server option that selects plugins when ENV_VAR is unset.
OPTION = "plugins"


def selection(value: str | None) -> tuple[str, ...] | None:
    """Plugin names ``TMUX_C2RS_PLUGINS`` asks for; ``None`` means every installed plugin."""
    if value is None:
        return DEFAULT_SET
    value = value.strip()
    if value in ("", "none"):
        return ()
    if value == "all":
        return None
    names: list[str] = []
    for part in value.split(","):
        part = part.strip()
        if part and part not in names:
            names.append(part)
    return tuple(names)


def register_option(server: Any) -> None:
    """The ``plugins`` server option, added to the option table while the plugin layer runs."""
    from .. import options as _options
    from .. import options_table as _table

    if OPTION not in _table.OPTIONS_BY_NAME:
        entry = _table.OptionEntry(OPTION, _table.STRING, _table.SERVER, ",".join(DEFAULT_SET))
        _table.OPTIONS_BY_NAME[OPTION] = entry
        _table.OPTION_TABLE = _table.OPTION_TABLE + (entry,)
        _options.OPTION_TABLE = _table.OPTION_TABLE  # options.py imported the tuple by name
    server.options.set_value(OPTION, ",".join(DEFAULT_SET))


def snapshot(server: Any) -> dict[int, dict[str, Any]]:
    """The global option stores' values as they are now, by store: a value still the same
    object later was set by nobody in between."""
    return {id(o): dict(o._values)
            for o in (server.options, server.session_options, server.window_options)}


def untouched_since(store: Any, name: str, before: dict[int, dict[str, Any]] | None) -> bool:
    """No one set ``name`` in ``store`` since ``before`` was taken (always, without one)."""
    if before is None:
        return True
    old = before.get(id(store), {})
    return name in old and store._values.get(name) is old[name]


def in_force(server: Any) -> str | None:
    """The selection in force: ``TMUX_C2RS_PLUGINS`` when set, else the ``plugins`` option
    (None without either: the default set)."""
    import os

    value = os.environ.get(ENV_VAR)
    if value is not None:
        return value
    option = server.options.get(OPTION)
    return None if option is None else str(option)


def prefetch(value: str | None) -> list[Any] | None:
    """Import what loading the plugins ``value`` selects will import: the manager and each
    selected plugin's module, and read each one's distribution metadata. Run in a worker
    thread while the loop goes on answering clients, since the imports are most of a load
    (about 40 ms) and the registering after them is quick. Returns the installed entry
    points, for the load not to list them again (None when that failed). Never raises: the
    load itself reports what fails."""
    wanted = selection(value)
    if wanted == ():
        return None
    try:
        import importlib

        from . import manager

        found = manager.installed()
    except Exception:  # reported by the load, which lists them again
        return None
    for ep in found:
        if wanted is None or ep.name in wanted:
            try:
                importlib.import_module(ep.module)
                manager.distribution_of(ep)
            except Exception:  # reported by the load, which imports it again
                pass
    return found
