"""Shell integration: what a pane's OSC 133 marks tell the server (tmux's development tree).

A shell that marks its prompt (``OSC 133 ; A`` or ``N``), the start of a command's output
(``C``) and its end with the exit status (``D ; status``) lets the server know when a prompt
appeared and when a command ran, for how long and how it ended. The pane's emulator stores the
marks on its lines (capture-pane -R shows them) and reports each sequence; this module keeps
the latest observations per pane (the ``pane_last_prompt_time``, ``pane_command_*`` formats)
and raises the events ``pane-shell-prompt``, ``pane-command-started`` and
``pane-command-finished`` on the server's bus, so hooks of those names run (with
``hook_command_status``, ``hook_command_start_time``, ``hook_command_end_time`` and
``hook_command_duration``), ``wait-for -E`` waiters wake, and plugins hear them
(``Plugin.on_notify``: the agent plugin reads ``pane-command-finished`` as a command ending).

A status that is not a number from 0 to 255 is 255; a missing one, or a first parameter that
is a key=value pair, is 0 (``grid.osc133_exit_status``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .events import Time
from .screen.grid import osc133_exit_status

__all__ = ["ShellState", "osc133", "state"]


@dataclass
class ShellState:
    """A pane's latest shell observations (times in whole seconds, 0 when never seen)."""

    last_prompt_time: int = 0
    command_start_time: int = 0
    command_end_time: int = 0
    running: bool = False
    status: int = -1  # -1: no status since the last command started

    def duration(self, now: int) -> int | None:
        """pane_command_duration: until now while running, else until it ended."""
        if not self.command_start_time:
            return None
        end = now if self.running else self.command_end_time
        return max(end, self.command_start_time) - self.command_start_time


def state(pane: Any) -> ShellState | None:
    """The pane's observations, None until its first OSC 133 sequence."""
    return getattr(pane, "shell_state", None)


def osc133(server: Any, pane: Any, param: str) -> None:
    """One OSC 133 sequence of ``pane`` (its parameter, as ``D;0``)."""
    st = state(pane)
    if st is None:
        st = pane.shell_state = ShellState()
    kind = param[:1]
    now = int(time.time())
    if kind in ("A", "N"):
        st.last_prompt_time = now
        server.notify("pane-shell-prompt", {"pane": pane, "window": pane.window})
    elif kind == "C":
        st.command_start_time = now
        st.command_end_time = 0
        st.running = True
        st.status = -1
        server.notify("pane-command-started", _command_data(server, pane, st, now))
    elif kind == "D":
        st.command_end_time = now
        st.running = False
        st.status = osc133_exit_status(param)
        server.notify("pane-command-finished", _command_data(server, pane, st, now))


def _command_data(server: Any, pane: Any, st: ShellState, now: int) -> dict[str, Any]:
    """input_fire_command_event's payload: where the pane is, and what is known of the
    command."""
    from .hooks import _from_window

    data: dict[str, Any] = {"pane": pane, "window": pane.window}
    fs = _from_window(server.model, pane.window, pane)
    if fs is not None:
        if fs.s is not None:
            data["session"] = fs.s
        if fs.wl is not None:
            data["window_index"] = fs.wl.idx
    if st.status != -1:
        data["command_status"] = st.status
    if st.command_start_time:
        data["command_start_time"] = Time(st.command_start_time)
    if st.command_end_time:
        data["command_end_time"] = Time(st.command_end_time)
    duration = st.duration(now)
    if duration is not None:
        data["command_duration"] = duration
    return data
