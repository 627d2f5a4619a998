"""From raw per-screen verdicts to the published state, without flicker.

Agents redraw in pieces: for a frame or two mid-turn a screen can look idle (herdr#3438:
2 of 9 samples of one Claude turn read idle). So leaving ``working`` (or ``waiting``) for a
quiet state is believed only once every observation over ``hold`` seconds agrees, while
``working`` and ``waiting`` are published at once (the user wants to know about those now).
A turn that ends while no client shows the pane becomes ``done`` — finished, not yet seen —
and turns ``idle`` once a client shows it. Only a turn counts: the agent must have sat at its
prompt (``idle``, ``done`` or ``error``) and then worked, so a first-run question answered
before the first prompt ends in ``idle``, not in a ``done`` nobody caused. (Codex's spinner
title while its servers start is not taken for work at all: agents.toml asks its title for
the prompt it works on.) A turn that failed is ``error``; it is held like any quiet
state and stays until the next turn starts.
"""

from __future__ import annotations

from dataclasses import dataclass

ACTIVE = frozenset({"working", "waiting"})
#: States in which the agent sits at its prompt: a turn can start from them.
AT_PROMPT = frozenset({"idle", "done", "error"})


@dataclass(slots=True)
class Damper:
    """The published state of one pane and any pending (held) change."""

    state: str = "none"
    pending: str | None = None
    since: float = 0.0
    prompted: bool = False  #: the agent has sat at its prompt since it started
    turn: bool = False  #: work seen since the agent last sat at its prompt

    @property
    def holding(self) -> bool:
        """A change is waiting for its hold to run out: the pane must be looked at again."""
        return self.pending is not None

    def reset(self, state: str = "none") -> None:
        self.state, self.pending, self.since = state, None, 0.0
        self.prompted = state in AT_PROMPT
        self.turn = False

    def observe(self, raw: str, now: float, visible: bool, hold: float) -> bool:
        """Feed one verdict (``keep`` = no evidence); True if the published state changed."""
        if raw == "working":
            self.turn = True
        if raw == "keep":
            return self._settle(now, visible, hold)
        if raw in ACTIVE:
            self.pending = None
            return self._set(raw)
        if self.state in ACTIVE:
            if self.pending is None:
                self.pending, self.since = raw, now
            else:
                self.pending = raw  # still quiet; the hold runs from the first quiet sample
            return self._settle(now, visible, hold)
        self.pending = None
        if self.state == "done" and raw == "idle":
            return self.seen(visible)  # finished and still unseen
        return self._set(raw)

    def tick(self, now: float, visible: bool, hold: float) -> bool:
        """No new screen, but time passed: a hold may have run out, a client may look now."""
        if self.pending is not None:
            return self._settle(now, visible, hold)
        return self.seen(visible)

    def seen(self, visible: bool) -> bool:
        """``done`` becomes ``idle`` once a client shows the pane."""
        if self.state == "done" and visible:
            return self._set("idle")
        return False

    def _settle(self, now: float, visible: bool, hold: float) -> bool:
        if self.pending is None or now - self.since < hold:
            return False
        target = self.pending
        self.pending = None
        if target == "idle" and not visible and self.prompted and self.turn:
            target = "done"
        return self._set(target)

    def _set(self, state: str) -> bool:
        if state in AT_PROMPT:
            self.prompted = True
            self.turn = False
        if state == self.state:
            return False
        self.state = state
        return True
