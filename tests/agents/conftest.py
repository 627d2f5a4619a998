"""The live suite is opt-in: ``pytest -m live_agents tests/agents`` (it installs the real
agents into a cache and drives them for minutes). A run that does not ask for the marker
deselects these tests, so the default run and CI never start them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

MARK = "live_agents"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARK}: drives the real agents (opt-in: -m {MARK})")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if MARK in (config.getoption("markexpr") or ""):
        return
    live = [i for i in items if i.get_closest_marker(MARK) is not None]
    if live:
        config.hook.pytest_deselected(items=live)
        items[:] = [i for i in items if i.get_closest_marker(MARK) is None]
