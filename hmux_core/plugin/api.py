"""The public plugin API of hmux, version 1: everything a plugin may import from the server.

A plugin publishes format variables tmux does not have. It is an ordinary Python distribution
with an entry point in the group ``hmux.plugins``; the entry point's name is the plugin's name
and its object is a module (or any object) carrying a ``@hookimpl`` of :func:`hmux_plugin`
that returns a :class:`Plugin`::

    # pyproject.toml
    [project.entry-points."hmux.plugins"]
    load = "hmux_plugin_load"

    # hmux_plugin_load.py
    from hmux_core.plugin import Plugin, hookimpl

    class Load(Plugin):
        name = "load"
        api_version = 1
        variables = ("load_1m",)
        interval = 5.0

        def tick(self, host):
            self.value = open("/proc/loadavg").read().split()[0]

        def resolve(self, pane_id, key):
            return getattr(self, "value", None)

    @hookimpl
    def hmux_plugin():
        return Load()

Threads, and what may block. ``start``, ``tick``, ``on_notify`` and ``stop`` of one plugin run
one at a time on that plugin's own worker thread, so they may read files, walk ``/proc`` or
sleep without stalling keystrokes or command replies. ``resolve`` runs on the server's event
loop, concurrently with them, every time a format names one of the plugin's variables: it must
only look up values that ``tick`` has already computed (publish them by assigning a new dict,
never by mutating the one ``resolve`` reads). A ``Host`` may be used from any thread.

Stability. This module is versioned by :data:`API_VERSION`. A plugin sets ``api_version`` to
the version it was written for; the server refuses a plugin whose version it does not speak,
with a message naming both. Additions that old plugins cannot notice (a new ``Host`` method, a
new event name) keep the version; anything else bumps it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol, runtime_checkable

import pluggy

#: The version of this API. Plugins declare the one they target in ``Plugin.api_version``.
API_VERSION = 1

#: Entry point group scanned for plugins.
ENTRY_POINT_GROUP = "hmux.plugins"

#: pluggy project name; a plugin may also build its own ``pluggy.HookimplMarker("hmux")``.
PROJECT = "hmux"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


class HookSpecs:
    """The hooks a plugin distribution implements."""

    @hookspec
    def hmux_plugin(self) -> Plugin | Sequence[Plugin]:  # type: ignore[empty-body]
        """Return the plugin object (or several) this entry point provides; called once."""


@dataclass(frozen=True, slots=True)
class PaneInfo:
    """A snapshot of one pane, taken when :meth:`Host.pane` was called."""

    pane_id: str  #: ``%N``
    pid: int  #: the child the pane started (its shell or command); -1 once dead
    foreground_pgrp: int  #: process group in the foreground of the pane's TTY; -1 unknown
    tty: str  #: the pane's terminal device, e.g. ``/dev/pts/3``
    revision: int  #: bumped on every batch of output the pane's screen took
    title: str  #: the pane title (OSC 0/2, ``select-pane -T``)
    width: int
    height: int
    window_id: str  #: ``@N``
    session_ids: tuple[str, ...]  #: every session (``$N``) with a window holding the pane
    active: bool  #: the active pane of its window
    visible: bool  #: an attached client is showing the pane's window now
    dead: bool  #: the child has exited (``remain-on-exit`` kept the pane)
    last_output: float  #: ``time.time()`` of the latest output, 0.0 if none yet


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in the server, delivered to :meth:`Plugin.on_notify`.

    ``name`` is tmux's notification or hook name where tmux has one: ``pane-created``,
    ``pane-exited``, ``pane-died``, ``pane-closed``, ``pane-title-changed``, ``pane-output``
    (coalesced: at most one per pane between two of the plugin's ticks), ``bell``,
    ``window-linked``, ``window-renamed``, ``window-closed``, ``window-pane-changed``,
    ``window-layout-changed``, ``session-created``, ``session-renamed``, ``session-closed``,
    ``session-window-changed``, ``client-attached``, ``client-detached``, plus whatever plugins
    :meth:`Host.emit`. Ids are tmux's (``%N @N $N``, client names); ``values`` carries the
    rest (``old``/``new`` for changes), all strings. A shell marking its prompts and commands
    (OSC 133, docs/extensions.md) raises ``pane-shell-prompt``, ``pane-command-started`` and
    ``pane-command-finished``; the command events carry ``command_status`` (once known),
    ``command_start_time``, ``command_end_time`` (epoch seconds), ``command_duration``
    (seconds) and ``window_index``.
    """

    name: str
    pane_id: str | None = None
    window_id: str | None = None
    session_id: str | None = None
    client: str | None = None
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


@runtime_checkable
class Host(Protocol):
    """What the server lets a plugin see and do. Safe to call from any thread.

    Panes are named by id and looked up on every call, so a plugin never holds a pane that
    has gone: a pane that no longer exists gives ``None``.
    """

    def panes(self) -> tuple[str, ...]:
        """Ids of every live pane, in creation order."""

    def pane(self, pane_id: str) -> PaneInfo | None:
        """A fresh snapshot of the pane."""

    def revisions(self) -> Mapping[str, int]:
        """Every live pane's output revision (``PaneInfo.revision``) by id, in creation order,
        in one cheap call: a sweep over hundreds of panes uses it to skip the ones that printed
        nothing since it last looked. Added within API version 1."""

    def pane_cwd(self, pane_id: str) -> str | None:
        """The working directory of the pane's foreground process (tmux's pane_current_path)."""

    def pane_tail(self, pane_id: str, lines: int) -> tuple[str, ...] | None:
        """The bottom ``lines`` rows of the visible screen, as text without trailing blanks."""

    def pane_tails(self, pane_ids: Sequence[str], lines: int) -> Mapping[str, tuple[str, ...]]:
        """:meth:`pane_tail` of several panes in one hop to the event loop (each at most its
        visible height); panes that have gone are left out."""

    def option(self, name: str, pane_id: str | None = None) -> str | None:
        """An option's value as ``show-options -v`` prints it, from the pane's scope upwards
        (or the global scopes without a pane); ``None`` if unset or unknown."""

    def pane_options(self, pane_ids: Sequence[str], name: str) -> Mapping[str, str]:
        """:meth:`option` ``name`` of several panes in one hop to the event loop; panes where
        it is unset (or gone) are left out. For values scripts set on a pane through the tmux
        protocol (``set -p -t %3 @agent-report …``) and a plugin reads every tick. Added
        within API version 1."""

    def invalidate(self, pane_id: str) -> None:
        """Values for this pane changed: redraw the status of every client showing it."""

    def request_tick(self) -> None:
        """Run this plugin's tick soon (e.g. a file watcher saw a change)."""

    def emit(self, name: str, pane_id: str | None = None, **values: str) -> None:
        """Raise a named event: hooks bound to it run (``set-hook -g NAME 'command'``, with
        ``#{hook_pane}`` and each value as ``#{hook_NAME}``), and other plugins are told."""

    def bell(self, pane_id: str) -> None:
        """Ring the pane's window as a bell in the pane would (tmux's alerts): the window's
        bell flag is raised where its session is not showing it, ``alert-bell`` hooks run
        where ``bell-action`` applies; nothing while ``monitor-bell`` is off."""

    def notify_clients(self, pane_id: str, title: str, body: str, style: str = "osc9") -> None:
        """Ask the terminal of every client attached to a session holding the pane's window
        for a desktop notification: ``style`` ``osc9`` (``ESC ] 9 ; body ST``: iTerm2,
        WezTerm, Ghostty, Windows Terminal …) or ``osc777`` (``ESC ] 777 ; notify ; title ;
        body ST``: foot, rxvt, Ghostty, VTE). Control characters and ``;`` in ``title`` are
        replaced. Added within API version 1."""

    def log(self, message: str) -> None:
        """Write a line to the server log (``hmux -v``), prefixed with the plugin's name."""


class Plugin:
    """Base class for plugins; every method has a do-nothing default.

    Class attributes describe the plugin and are read once, when it loads.
    """

    #: The name it is selected by (``TMUX_C2RS_PLUGINS=name``); the entry point name by default.
    name: str = ""
    #: The :data:`API_VERSION` the plugin was written against.
    api_version: int = API_VERSION
    #: Format variables it answers. A name the server or an earlier plugin already has is refused.
    variables: Sequence[str] = ()
    #: Names of the events it may :meth:`Host.emit`; each becomes a hook name ``set-hook``
    #: accepts (tmux refuses unknown hook names), so a config can bind it before the first emit.
    events: Sequence[str] = ()
    #: Names of the events :meth:`on_notify` is sent, or ``None`` for all of them. Naming
    #: them saves a wakeup of the plugin's lane for every other event (titles change often).
    listens: Sequence[str] | None = None
    #: Seconds between ticks, or ``None`` for no ticks.
    interval: float | None = None
    #: ``(option, value)`` pairs set globally where no config file set them, so config wins.
    #: User options (``@name``) are created; a tmux option is only set if it holds its default.
    option_defaults: Sequence[tuple[str, str]] = ()

    def start(self, host: Host) -> None:
        """Called once on the worker thread before the first tick; keep ``host`` if needed."""

    def tick(self, host: Host) -> None:
        """Recompute published values (worker thread, every ``interval`` seconds)."""

    def resolve(self, pane_id: str, key: str) -> str | None:
        """The value of ``key`` for the pane, or ``None`` (expands to nothing). Event loop:
        must be cheap and must not block."""
        return None

    def on_notify(self, event: Event) -> None:
        """A server event (worker thread, in order)."""

    def stop(self) -> None:
        """The server is exiting or the plugin was disabled: release threads and files."""
