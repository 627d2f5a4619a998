"""``hmux agents``: handed to the agent plugin's command line (``hmux_plugins_agent.cli``).

The agent plugin owns what it knows about agents (their hook files, its report option); hmux
only routes the subcommand, as it does ``plugins`` and ``doctor``. Without the plugin installed
there is nothing to run.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str], socket_path: str | None) -> int:
    try:
        from hmux_plugins_agent.cli import main as agents_main
    except ImportError as e:
        sys.stderr.write(f"hmux agents: the agent plugin is not installed ({e})\n")
        return 1
    return agents_main(argv, socket_path)
