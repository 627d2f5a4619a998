"""One glyph per state for ``#{pane_state_emoji}``, each a user option.

Single-cell symbols rather than emoji: emoji widths differ between terminals and would shift a
status line. Users pick their own with ``set -g @agent-glyph-working '🤖'`` (styles such as
``#[fg=red]●#[default]`` work where the status line expands them).
"""

from __future__ import annotations

#: State → (user option, default glyph). ``none`` (no agent: a shell) has a glyph too, so
#: the variable is never empty.
GLYPHS: dict[str, tuple[str, str]] = {
    "none": ("@agent-glyph-shell", "·"),
    "working": ("@agent-glyph-working", "◐"),
    "waiting": ("@agent-glyph-waiting", "●"),
    "error": ("@agent-glyph-error", "✗"),
    "done": ("@agent-glyph-done", "✓"),
    "idle": ("@agent-glyph-idle", "○"),
    "unknown": ("@agent-glyph-unknown", "?"),
}

OPTION_DEFAULTS: tuple[tuple[str, str], ...] = tuple(GLYPHS.values())

#: States by urgency, most urgent first: what a window or session rolls up to, and the order
#: the jump key visits panes in. ``error`` sits between ``waiting`` and ``working``.
URGENCY: tuple[str, ...] = ("waiting", "error", "working", "done", "idle", "unknown", "none")
#: States that want the user: the jump key goes to them, an unseen window is flagged.
ATTENTION = frozenset({"waiting", "error", "done"})


def rank(state: str) -> int:
    """Lower is more urgent; an unheard-of state ranks with ``unknown``."""
    try:
        return URGENCY.index(state)
    except ValueError:
        return URGENCY.index("unknown")


def default(state: str) -> str:
    return GLYPHS.get(state, GLYPHS["unknown"])[1]


def option(state: str) -> str:
    return GLYPHS.get(state, GLYPHS["unknown"])[0]


def pick(state: str, value: str | None) -> str:
    """The option's value, or the default when the option is unset or empty."""
    return value if value else default(state)
