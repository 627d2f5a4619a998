"""The terminal emulator behind the :class:`~hmux_core.screen.engine.Engine` boundary."""

from __future__ import annotations

from .cells import DEFAULT_STYLE, Style
from .engine import Engine
from .screen import NoAlternateScreen, Screen

__all__ = ["DEFAULT_STYLE", "Engine", "NoAlternateScreen", "Screen", "Style", "new_screen"]


def new_screen(cols: int, rows: int, history_limit: int = 2000) -> Engine:
    """The default engine ("python": tmux's input state machine behind a regex fast path)."""
    return Screen(cols, rows, history_limit)
