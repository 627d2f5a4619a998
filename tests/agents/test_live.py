"""The real agents in real hmux panes, against the fake API (opt-in: ``-m live_agents``).

Each agent is walked through its first run, a prompt, its permission prompt, the answer and
a failed turn (``scenarios.py``); at every step the state the plugin published must be the one
the driver caused. ``HMUX_LIVE_RECORD=1`` also rewrites ``tests/agents/fixtures`` from the run,
which ``tests/test_agent_screens.py`` replays in the default run. Run it before every release.
"""

from __future__ import annotations

import os

import pytest
from live import PACKAGES
from scenarios import record_all

pytestmark = pytest.mark.live_agents


@pytest.mark.parametrize("agent", list(PACKAGES))
def test_agent_states_hold_against_the_real_agent(agent, tmp_path):
    errors = record_all([agent], save=bool(os.environ.get("HMUX_LIVE_RECORD")), tmp=tmp_path)
    assert not errors, "\n".join(errors)
