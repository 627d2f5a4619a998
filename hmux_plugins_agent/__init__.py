"""hmux's agent plugin: which AI coding agent runs in each pane, and whether it is working,
waiting for you, or done. See ``docs/agents.md``.

Modules by concept: :mod:`.procs` (one process snapshot per sweep), :mod:`.identity` (argv →
agent, ``HMUX_AGENT``), :mod:`.table` (the agent table as data: ``agents.toml`` plus the
user's files), :mod:`.classify` (screen regions and rules), :mod:`.damping` (holds against
flicker, done/idle), :mod:`.sessions` (session id and model from the agents' files),
:mod:`.glyphs` (``#{pane_state_emoji}``), :mod:`.plugin` (the sweep).
"""

from __future__ import annotations

from hmux_core.plugin import hookimpl

from .plugin import EVENT, VARIABLES, AgentPlugin

__all__ = ["AgentPlugin", "EVENT", "VARIABLES", "hmux_plugin"]


@hookimpl
def hmux_plugin() -> AgentPlugin:
    """The entry point's hook: one plugin object per server."""
    return AgentPlugin()
