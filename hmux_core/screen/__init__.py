"""The terminal emulator behind the :class:`~hmux_core.screen.engine.Engine` boundary."""

from __future__ import annotations

import logging
from collections.abc import Callable

from .cells import DEFAULT_STYLE, Style
from .engine import Engine
from .screen import NoAlternateScreen, Screen

__all__ = [
    "DEFAULT_STYLE",
    "Engine",
    "NoAlternateScreen",
    "Screen",
    "Style",
    "available_engines",
    "engine_class",
    "new_screen",
]

log = logging.getLogger(__name__)

#: Engines by name, fastest first. "ghostty" needs the ``fast`` extra (``pip install
#: 'hmux[fast]'``: pyghostty) and is chosen only by name: it is 8-10x faster but still differs
#: from tmux (history rules, capture -a, line drawing; docs/architecture.md) and grows memory in
#: the soak, so the default stays the engine the oracle tests hold to tmux.
ENGINE_NAMES = ("ghostty", "python")
DEFAULT_ENGINE = "python"
_classes: dict[str, Callable[[int, int, int], Engine] | None] = {"python": Screen}
_warned: set[str] = set()


def engine_class(name: str) -> Callable[[int, int, int], Engine] | None:
    """The engine called ``name``, or None when it is unknown or its package is missing."""
    if name not in _classes:
        cls = None
        if name == "ghostty":
            try:
                from .ghostty_engine import GhosttyScreen as cls
            except (ImportError, OSError) as exc:  # no wheel, or its shared library failed
                log.info("ghostty engine unavailable: %s", exc)
        elif name not in ENGINE_NAMES:
            return None
        _classes[name] = cls
    return _classes[name]


def available_engines() -> list[str]:
    """Names of the engines that can run here, fastest first."""
    return [n for n in ENGINE_NAMES if engine_class(n) is not None]


def new_screen(cols: int, rows: int, history_limit: int = 2000, engine: str | None = None) -> Engine:
    """A pane's emulator: ``engine`` by name (``HMUX_ENGINE``), else :data:`DEFAULT_ENGINE`.

    An unknown or uninstalled name is logged as an error and falls back to the python engine
    rather than failing the pane.
    """
    if engine:
        cls = engine_class(engine)
        if cls is None:
            if engine not in _warned:
                _warned.add(engine)
                why = "not installed" if engine in ENGINE_NAMES else "unknown engine"
                log.error("HMUX_ENGINE=%s: %s (known: %s); using python", engine, why,
                          ", ".join(ENGINE_NAMES))
            cls = Screen
    else:
        cls = Screen
    return cls(cols, rows, history_limit)
