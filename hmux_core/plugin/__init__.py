"""The plugin API (version :data:`API_VERSION`): the only part of hmux_core a plugin imports.

See :mod:`hmux_core.plugin.api` for the contract and ``docs/plugins.md`` for a walk-through.
"""

from .api import (
    API_VERSION,
    ENTRY_POINT_GROUP,
    Event,
    HookSpecs,
    Host,
    PaneInfo,
    Plugin,
    hookimpl,
    hookspec,
)

__all__ = [
    "API_VERSION",
    "ENTRY_POINT_GROUP",
    "Event",
    "Host",
    "HookSpecs",
    "PaneInfo",
    "Plugin",
    "hookimpl",
    "hookspec",
]
