"""Hooks: commands stored in hook options and run when a command finishes or something happens.

Two kinds, as tmux 3.3a (cmd-queue.c, notify.c):

* ``after-<command>`` hooks (and ``set-hook -R``) run in the issuing client's queue, right after
  the command, with that client; the hook formats are ``hook``, ``hook_arguments``,
  ``hook_argument_N``, ``hook_flag_X`` and ``hook_flag_X_N``.
* Notification hooks (``session-created``, ``window-linked``, ``pane-exited``, …) are queued by
  the event bus (``Server.notify``) and run one at a time by a server task, without a client,
  after the command that caused them; the formats are ``hook``, ``hook_client``,
  ``hook_session``, ``hook_session_name``, ``hook_window``, ``hook_window_name``, ``hook_pane``.

Commands run by a hook never fire hooks themselves: after-hooks through the queue state's
``nohooks``, notifications raised while a notification hook runs through a context variable of
the hook task (tmux looks at the global queue's running item).

Hook names tmux does not have are refused by ``set-hook`` as tmux does (``invalid option``),
unless something registered them at run time with :func:`register_hook_name` (the plugin layer
does for the events plugins emit); :meth:`Hooks.fire_named` runs such a hook.

Beyond 3.7b (tmux's development tree; docs/extensions.md): every notification and after-hook
is also an event with a payload for the sinks of :attr:`Hooks.events` (``wait-for -E``,
monitors), built only when a sink listens; the development tree's own notifications
(:data:`EXTENSION_NOTIFY_KINDS`) queue a hook only when one is set; ``set-hook -E`` fires user
events (:meth:`Hooks.fire_event`); ``set-hook -B`` monitors (:class:`HookMonitor`) poll a
format on the shared engine of :mod:`hmux_core.monitors`; each hook entry counts its firings
for ``show-hooks -F``.
"""

from __future__ import annotations

import contextvars
import logging
import time
import weakref
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import trio

from . import options as _options
from . import options_table as _table
from . import target as T
from .commands.grammar import CommandError, CommandList
from .events import QUIET, EventBus, Payload, payload_from_notify
from .options import HOOKS, OptionError, Options
from .options_table import COMMAND, IS_ARRAY, IS_HOOK, PANE, SESSION, WINDOW, OptionEntry

if TYPE_CHECKING:
    from .commands.queue import CmdItem
    from .server import Server

log = logging.getLogger("hmux.hooks")

#: True inside the task running notification hooks: what they cause raises no more hooks.
_IN_NOTIFY_HOOK: contextvars.ContextVar[bool] = contextvars.ContextVar("hmux_in_notify_hook",
                                                                        default=False)

# How each notification finds its target and which hook_* formats it sets (notify.c's
# notify_client/session/session_window/window/pane/winlink).
_CLIENT, _SESSION, _SESSION_WINDOW, _WINDOW, _PANE, _WINLINK = range(6)
NOTIFY_KINDS: dict[str, int] = {
    "client-active": _CLIENT, "client-attached": _CLIENT, "client-detached": _CLIENT,
    "client-focus-in": _CLIENT, "client-focus-out": _CLIENT, "client-resized": _CLIENT,
    "client-session-changed": _CLIENT, "client-light-theme": _CLIENT,
    "client-dark-theme": _CLIENT,
    "session-closed": _SESSION, "session-created": _SESSION, "session-renamed": _SESSION,
    "session-window-changed": _SESSION,
    "window-linked": _SESSION_WINDOW, "window-unlinked": _SESSION_WINDOW,
    "window-layout-changed": _WINDOW, "window-pane-changed": _WINDOW,
    "window-renamed": _WINDOW, "window-resized": _WINDOW,
    "pane-died": _PANE, "pane-exited": _PANE, "pane-focus-in": _PANE, "pane-focus-out": _PANE,
    "pane-mode-changed": _PANE, "pane-set-clipboard": _PANE, "pane-title-changed": _PANE,
    "alert-activity": _WINLINK, "alert-bell": _WINLINK, "alert-silence": _WINLINK,
}
#: Notifications beyond 3.7b (the development tree's hooks, options_table.EXTENSION_OPTIONS)
#: the server raises: their hook formats are their payload's (hook_<key>).
EXTENSION_NOTIFY_KINDS: dict[str, int] = {
    "pane-shell-prompt": _PANE, "pane-command-started": _PANE, "pane-command-finished": _PANE,
    "pane-created": _PANE, "pane-bell": _PANE, "window-closed": _WINDOW,
    "window-created": _WINDOW,
}
#: The development tree's lifecycle events hmux raises only when something listens (a hook
#: set anywhere, a ``wait-for -E`` sink, a plugin or other bus subscriber): while nothing does,
#: raising one costs a lookup in :data:`hmux_core.events.QUIET` and the server behaves as 3.7b.
LIFECYCLE_EVENTS: dict[str, int] = {
    "client-created": _CLIENT, "client-closed": _CLIENT,
    "session-added-to-group": _SESSION, "session-removed-from-group": _SESSION,
    "window-zoomed": _WINDOW, "window-unzoomed": _WINDOW,
    "pane-activity": _PANE, "pane-mode-entered": _PANE, "pane-mode-exited": _PANE,
    "pane-moved": _PANE, "pane-resized": _PANE, "marked-pane-changed": _PANE,
}
EXTENSION_NOTIFY_KINDS.update(LIFECYCLE_EVENTS)
#: Server events known to the plugin bus under another name than the development tree's hook.
_EVENT_NAMES = {"bell": "pane-bell"}


class HookCommands:
    """A hook option's item: the parsed command list, shown as tmux prints it (show-hooks)."""

    __slots__ = ("cmdlist",)

    def __init__(self, cmdlist: CommandList) -> None:
        self.cmdlist = cmdlist

    def __str__(self) -> str:
        return self.cmdlist.print()

    def __repr__(self) -> str:
        return f"HookCommands({self.cmdlist.print()!r})"


_server_ref: weakref.ref[Server] | None = None
_servers: weakref.WeakSet[Server] = weakref.WeakSet()  # their global stores get new names


def _parse_commands(text: str) -> CommandList:
    """cmd_parse_from_string: one group, the server's environment and command aliases."""
    from .commands.cmdparse import DEFAULT_COMMAND_ALIASES, alias_lookup, commands_from_string
    from .commands.queue import _aliases
    from .commands.registry import table

    server = _server_ref() if _server_ref is not None else None
    if server is not None:
        return commands_from_string(text, table(), environ=server.environ.values,
                                    aliases=alias_lookup(_aliases(server)))
    return commands_from_string(text, table(), aliases=alias_lookup(DEFAULT_COMMAND_ALIASES))


def parse_hook_command(text: str) -> HookCommands:
    """What a command option stores (options_array_set): parse errors are set-hook's errors.
    A hook may now be set for a lifecycle event nobody listened to: forget who was quiet."""
    QUIET.clear()
    try:
        return HookCommands(_parse_commands(text))
    except CommandError as e:
        raise OptionError(str(e)) from None


HOOKS.parse_command = parse_hook_command


def register_hook_name(name: str) -> bool:
    """Make ``name`` a global hook ``set-hook`` accepts (an array of commands): a ``pane-*``
    name is a pane hook (window and pane scope, as tmux's own pane-* hooks: ``show-hooks -g``
    does not list it, ``-gw`` does), any other a session hook.

    tmux 3.3a refuses names outside its table (``invalid option: NAME``); events that only hmux
    raises are registered here before the config is read. False if the name cannot be a hook
    (empty, ``@user``, an index, or an existing option that is not a hook).
    """
    if not name or name.startswith("@") or "[" in name or "]" in name or " " in name:
        return False
    existing = _table.OPTIONS_BY_NAME.get(name)
    if existing is not None:
        return existing.is_hook
    pane_hook = name.startswith("pane-")
    entry = OptionEntry(name, COMMAND, WINDOW | PANE if pane_hook else SESSION, "",
                        flags=IS_ARRAY | IS_HOOK, separator="")
    _table.OPTIONS_BY_NAME[name] = entry
    _table.OPTION_TABLE = _table.OPTION_TABLE + (entry,)
    _options.OPTION_TABLE = _table.OPTION_TABLE  # options.py imported the tuple by name
    for server in list(_servers):
        (server.window_options if pane_hook else server.session_options).set_value(name, {})
    return True


@dataclass
class Notification:
    """A queued notification: its hook name, target (None: find one when it runs), formats."""

    name: str
    state: T.State | None
    formats: dict[str, str]
    global_only: bool = False
    #: The event's objects, for control clients' notifications (written when it runs).
    data: dict[str, Any] | None = None
    #: The client the hook commands run with (set-hook -E's), None for the global queue's.
    client: Any = None
    #: Commands chosen when the event fired (a monitor's, expanded then parsed), instead of
    #: looking the hook up when it runs.
    cmdlists: list[CommandList] | None = None


def _valid(st: T.State | None) -> bool:
    return st is not None and st.valid()


def _from_window(model: Any, w: Any, wp: Any = None) -> T.State | None:
    """cmd_find_from_window / cmd_find_from_pane: the best session holding the window."""
    if w is None or not w.alive:
        return None
    f = T.Finder(model, None, 0)
    f.fs.w = w
    if not f.best_session_with_window():
        return None
    st = f.fs
    st.wp = wp if wp is not None else w.active
    return st


def _from_session_window(s: Any, w: Any) -> T.State | None:
    if s is None or w is None or not s.alive:
        return None
    wl = s.winlink_for(w)
    if wl is None:
        return None
    return T.from_winlink(wl)


class Hooks:
    """The server's hook runner: builds the commands of a hook and queues them."""

    def __init__(self, server: Server) -> None:
        global _server_ref
        _server_ref = weakref.ref(server)
        self.server = server
        self.pending: deque[Notification] = deque()
        self._running = False
        self._in_hook = False  # the queue is running a hook's commands (they may wait)
        #: The event dispatcher (wait-for -E waiters, set-hook -B monitors register here).
        self.events = EventBus()
        #: Firing count and time per hook option entry (show-hooks -F): store -> name -> ...
        self.fired: weakref.WeakKeyDictionary[Options, dict[str, list[float]]] = \
            weakref.WeakKeyDictionary()
        #: User hook names set-hook registered (kept for the server's life): set-hook -E
        #: runs only these, never a monitor-only hook.
        self.user_hooks: set[str] = set()
        #: set-hook -B monitors, in the order they were made; one timer checks them all.
        self.monitors: list[HookMonitor] = []
        self._monitoring = False
        _servers.add(server)
        # Names registered before this server existed still need their (empty) global value.
        for oe in _table.OPTION_TABLE:
            if oe.is_extension:
                continue  # hooks beyond 3.7b appear once set (docs/extensions.md)
            if oe.is_hook and oe.scope == SESSION and not server.session_options.has_local(oe.name):
                server.session_options.set_value(oe.name, {})

    # -- finding a hook's commands -------------------------------------------------------------

    def _commands_in(self, oo: Options, name: str) -> list[CommandList] | None:
        """The command lists of hook ``name`` through ``oo`` (inherited); None if not there."""
        if name.startswith("@"):
            value = oo.get(name)
            if value is None:
                return None
            try:
                return [_parse_commands(str(value))]
            except CommandError as e:
                log.debug("can't parse hook %s: %s", name, e)
                return []
        if name not in _table.OPTIONS_BY_NAME:
            return None
        arr = oo.get_array(name)
        if arr is None:
            return None
        out = []
        for value in arr.values():
            if isinstance(value, HookCommands):
                out.append(value.cmdlist)
            elif isinstance(value, CommandList):
                out.append(value)
            elif isinstance(value, str) and value:
                try:
                    out.append(_parse_commands(value))
                except CommandError:
                    continue
        return out

    def _notify_commands(self, name: str, st: T.State) -> list[CommandList]:
        """notify_insert_hook's lookup: session options, then the pane's, then the window's."""
        stores: list[Options] = [st.s.options if st.s is not None
                                 else self.server.session_options]
        if st.wp is not None:
            stores.append(st.wp.options)
        if st.wl is not None:
            stores.append(st.wl.window.options)
        for oo in stores:
            found = self._commands_in(oo, name)
            if found is not None:
                self._count(oo, name)
                return found
        return []

    # -- firing counts (show-hooks -F: hook_fire_count, hook_fire_time) ------------------------

    def _count(self, oo: Options, name: str) -> None:
        """options_hook_fired: one more firing of the entry that holds the hook, even an empty
        one (the count belongs to the entry, not to its commands)."""
        owner = oo.owner_of(name) or oo
        counts = self.fired.setdefault(owner, {})
        entry = counts.setdefault(name, [0, 0.0])
        entry[0] += 1
        entry[1] = time.time()

    def fire_count(self, oo: Options, name: str) -> tuple[int, float]:
        """(firings, time of the last one or 0) of the hook entry ``name`` in ``oo``."""
        entry = self.fired.get(oo, {}).get(name)
        return (int(entry[0]), entry[1]) if entry is not None else (0, 0.0)

    def reset_count(self, oo: Options, name: str) -> None:
        """The entry was removed: a new one starts from zero."""
        self.fired.get(oo, {}).pop(name, None)

    def _items(self, cmdlists: list[CommandList], client: Any, st: T.State | None,
               formats: dict[str, str], event: Any = None) -> list[CmdItem]:
        from .commands.queue import QueueState, items_from

        state = QueueState(current=st.copy() if st is not None else None, event=event,
                           formats=dict(formats), nohooks=True)
        items: list[CmdItem] = []
        for cl in cmdlists:
            items.extend(items_from(self.server, client, cl, state))
        return items

    # -- after-<command> hooks and set-hook -R ---------------------------------------------------

    def after_hook(self, name: str, item: CmdItem, st: T.State | None = None,
                   *, global_ok: bool = False) -> None:
        """cmdq_insert_hook: the session's hook ``name``, run after ``item`` with its client.
        ``global_ok``: without any state the global hook still runs (command-error)."""
        if item.state.nohooks:
            return
        fs = st if _valid(st) else self._state_for(item)
        if fs is None:
            if not global_ok:
                return
            fs = T.State()
        oo = fs.s.options if fs.s is not None else self.server.session_options
        cmdlists = self._commands_in(oo, name)
        if cmdlists is not None:
            self._count(oo, name)
        sinks = self.events.has_sink(name)
        if not cmdlists and not sinks:
            return
        args = item.args
        formats = {"hook": name, "hook_arguments": args.print()}
        for i, value in enumerate(args.argv):
            formats[f"hook_argument_{i}"] = value
        for flag in args.flags():
            values = args.values(flag)
            formats[f"hook_flag_{flag}"] = values[-1] if values else "1"
            for i, value in enumerate(values):
                formats[f"hook_flag_{flag}_{i}"] = value
        if sinks:  # wait-for -E after-<command>: the same keys, without the hook_ prefix
            payload = Payload(target=fs.copy())
            for key, value in formats.items():
                if key != "hook":
                    payload.set(key[5:], value)
            self.events.fire(name, payload)
        if cmdlists:
            item.inserted.extend(self._items(cmdlists, item.client, fs, formats,
                                             item.state.event))

    def _state_for(self, item: CmdItem) -> T.State | None:
        """The target, else the current state, else the client's (cmdq_fire_command)."""
        if _valid(item.target):
            return item.target
        if _valid(item.state.current):
            return item.state.current
        return T.from_client(self.server.model, item.client, 0)

    def run_now(self, name: str, item: CmdItem) -> None:
        """notify_hook (set-hook -R): hook ``name`` for the item's target, run after it."""
        fs = item.target if _valid(item.target) else T.from_nothing(self.server.model, 0)
        st = fs if fs is not None else T.State()
        cmdlists = self._notify_commands(name, st)
        if cmdlists:
            item.inserted.extend(self._items(cmdlists, item.client, fs, {"hook": name},
                                             item.state.event))

    # -- notifications ---------------------------------------------------------------------------

    def notify(self, name: str, data: dict[str, Any]) -> None:
        """An event on the bus: queue its hook (notify_add) unless a notification hook caused
        it or no such hook option exists; event sinks (wait-for -E, monitors) hear it too."""
        name = _EVENT_NAMES.get(name, name)
        kind = NOTIFY_KINDS.get(name)
        extension = False
        if kind is None:
            kind = EXTENSION_NOTIFY_KINDS.get(name)
            extension = kind is not None
        if kind is not None and self.events.has_sink(name):
            self.events.fire(name, payload_from_notify(data, self._event_target(kind, data)))
        if _IN_NOTIFY_HOOK.get():
            return  # notify_add: nothing a notification hook causes is queued, not even for
            # control clients
        if kind is None:
            from .control_notify import CONTROL_ONLY

            if name in CONTROL_ONLY:
                self._queue(Notification(name, None, {}, data=dict(data)))
            return
        if extension and not self._hook_exists(name, data):
            return
        model = self.server.model
        c, s, w, wp = data.get("client"), data.get("session"), data.get("window"), None
        formats = {"hook": name}
        st: T.State | None
        if kind == _CLIENT:
            st = T.from_client(model, c, 0)
            s = w = None
        elif kind == _SESSION:
            st = T.from_session(s) if s is not None and s.alive else None
            w = None
        elif kind == _SESSION_WINDOW:
            st = _from_session_window(s, w)
        elif kind == _WINDOW:
            st = _from_window(model, w)
            s = None
        elif kind == _PANE:
            wp = data.get("pane")
            st = _from_window(model, wp.window, wp) if wp is not None else None
            s = w = None
        else:
            wl = data.get("winlink")
            if wl is not None:
                s, w = wl.session, wl.window
                st = T.from_winlink(wl)
            else:
                st = _from_session_window(s, w)
        if kind == _CLIENT and c is not None:
            formats["hook_client"] = c.name
        if s is not None:
            formats["hook_session"] = f"${s.id}"
            formats["hook_session_name"] = s.name
        if w is not None:
            formats["hook_window"] = f"@{w.id}"
            formats["hook_window_name"] = w.name
        if wp is not None:
            formats["hook_pane"] = f"%{wp.id}"
            if wp.window is not None:  # 3.7b names the pane's window too
                formats["hook_window"] = f"@{wp.window.id}"
                formats["hook_window_name"] = wp.window.name
        if extension:  # the development tree's formats: the payload's, and hook_event
            payload = payload_from_notify(data, st)
            payload.set("event", name)
            formats = {**payload.formats("hook_"), **formats}
        self._queue(Notification(name, st.copy() if st is not None else None, formats,
                                 data=None if extension else dict(data)))

    def _event_target(self, kind: int, data: dict[str, Any]) -> T.State | None:
        """The target an event's payload carries (cmd_find_from_* as the notification's)."""
        model = self.server.model
        if kind == _CLIENT:
            return T.from_client(model, data.get("client"), 0)
        if kind == _SESSION:
            s = data.get("session")
            return T.from_session(s) if s is not None and s.alive else None
        if kind == _PANE:
            wp = data.get("pane")
            return _from_window(model, wp.window, wp) if wp is not None else None
        if kind == _WINLINK and data.get("winlink") is not None:
            return T.from_winlink(data["winlink"])
        if kind == _WINDOW:
            return _from_window(model, data.get("window"))
        return _from_session_window(data.get("session"), data.get("window"))

    def wanted(self, name: str) -> bool:
        """Whether anything in this process listens to the lifecycle event ``name``; if not,
        remember that in QUIET so the next one costs a lookup (every server of the process
        is asked, since QUIET is shared)."""
        for srv in list(_servers):
            if srv.hooks._listens(name):
                return True
        QUIET[name] = True
        return False

    def _listens(self, name: str) -> bool:
        server = self.server
        if self.events.has_sink(name):
            return True
        plugins = getattr(server, "plugins", None)
        mine = getattr(plugins, "on_server_event", None)
        for sub in server.subscribers:
            if sub != mine:
                return True  # a subscriber of its own hears every event
        if plugins is not None and any(
                r.enabled and r.wants_events and (r.listens is None or name in r.listens)
                for r in plugins.records):
            return True
        model = server.model
        stores = [server.session_options, server.window_options]
        stores.extend(s.options for s in model.sessions.values())
        stores.extend(w.options for w in model.windows.values())
        stores.extend(p.options for p in model.panes.values())
        return any(oo.has_local(name) for oo in stores)

    def _hook_exists(self, name: str, data: dict[str, Any]) -> bool:
        """Whether any store could hold the hook of an extension event (most servers set none:
        then nothing is queued, as 3.7b queues nothing for an event it does not have)."""
        oo = self.server.session_options
        if oo.is_set(name):
            return True
        wp = data.get("pane")
        w = data.get("window") if wp is None else wp.window
        if wp is not None and wp.options.is_set(name):
            return True
        if w is not None and w.options.is_set(name):
            return True
        return any(s.options.is_set(name) for s in self.server.model.sorted_sessions())

    # -- user events (set-hook -E) and the development tree's events ---------------------------

    def fire_event(self, name: str, payload: Payload, client: Any = None) -> None:
        """events_fire for an event with its payload: sinks (wait-for -E, monitors), then the
        hook of the same name (its formats the payload's, hook_ prefixed)."""
        self.events.fire(name, payload)
        if _IN_NOTIFY_HOOK.get():
            return
        formats = payload.formats("hook_")
        formats["hook"] = name
        st = payload.target
        if name.startswith("@"):
            if name in self.user_hooks:
                self._queue(Notification(name, st.copy() if st is not None else None, formats,
                                         client=client))
            return
        if _table.OPTIONS_BY_NAME.get(name) is not None:
            self._queue(Notification(name, st.copy() if st is not None else None, formats,
                                     client=client))

    def fire_named(self, name: str, pane: Any | None, values: dict[str, str]) -> None:
        """The global hook ``name`` for an hmux-only event, with hook_pane and hook_<key>."""
        formats = {"hook": name}
        st = None
        if pane is not None:
            formats["hook_pane"] = f"%{pane.id}"
            st = _from_window(self.server.model, pane.window, pane)
        for key, value in values.items():
            formats[f"hook_{key}"] = str(value)
        if self.events.has_sink(name):  # wait-for -E NAME hears plugins' events too
            data: dict[str, Any] = dict(values)
            if pane is not None:
                data["pane"], data["window"] = pane, pane.window
            self.events.fire(name, payload_from_notify(data, st))
        self._queue(Notification(name, st, formats, global_only=True))

    def _queue(self, n: Notification) -> None:
        self.pending.append(n)
        if self._running:
            return
        nursery = self.server.nursery
        if nursery is None:
            return  # not serving yet: runs once something queues with the loop running
        self._running = True
        nursery.start_soon(self._drain)

    # -- hook monitors (set-hook -B) -------------------------------------------------------------

    def monitor_add(self, oo: Options, name: str, kind: str, ident: int, fmt: str,
                    true_only: bool, fs: T.State | None, session: Any) -> None:
        """hooks_monitor_add: a monitor of ``fmt`` owned by the user hook ``name`` of ``oo``,
        replacing any it had; the option is created empty if it was not there."""
        self.monitor_remove(oo, name)
        if oo.get_local(name) is None:
            oo.set(name, "")
        mon = HookMonitor(self, oo, name, kind, ident, fmt, true_only, fs, session)
        self.monitors.append(mon)
        if not self._monitoring and self.server.nursery is not None:
            self._monitoring = True
            self.server.nursery.start_soon(self._monitor_timer)

    def monitor_remove(self, oo: Options, name: str) -> None:
        """hooks_monitor_remove: the monitor goes, the option and its command stay."""
        for mon in list(self.monitors):
            if mon.owner() is oo and mon.name == name:
                mon.destroy()

    def monitor_of(self, oo: Options, name: str) -> HookMonitor | None:
        """The live monitor of option ``name`` in ``oo`` (None once the option is gone)."""
        for mon in list(self.monitors):
            if mon.owner() is oo and mon.name == name and mon.alive():
                return mon
        return None

    async def _monitor_timer(self) -> None:
        """One check of every monitor a second, while there are any."""
        import trio

        from .monitors import INTERVAL

        try:
            while self.monitors:
                await trio.sleep(INTERVAL)
                for mon in list(self.monitors):
                    if not mon.alive():
                        mon.destroy()
                        continue
                    try:
                        mon.set.check()
                    except Exception:
                        self.server.log_exception(f"hook monitor {mon.name} failed")
        finally:
            self._monitoring = False

    def monitor_fired(self, mon: HookMonitor, ch: Any) -> None:
        """hooks_monitor_cb and its own sink: the event (wait-for -E hears it), then the
        monitor's command from its own store, expanded as a format before it is parsed."""
        wl, wp, s = ch.winlink, ch.pane, ch.session
        if wl is not None and wp is not None and wp.window is wl.window:
            fs: T.State | None = T.from_winlink(wl, wp)
        elif wl is not None:
            fs = T.from_winlink(wl)
        elif wp is not None:
            fs = _from_window(self.server.model, wp.window, wp)
        elif s is not None:
            fs = T.from_session(s)
        else:
            fs = mon.fs.copy() if mon.fs is not None else None
        payload = Payload(target=fs)
        payload.set("value", ch.value)
        payload.set("last", ch.last if ch.last is not None else "")
        if ch.client is not None:
            payload.set("client", ch.client)
        if s is not None:
            payload.set("session", s)
        if wl is not None:
            if s is None:
                payload.set("session", wl.session)
            payload.set("window", wl.window)
            payload.set("window_index", wl.idx)
        if wp is not None:
            payload.set("pane", wp)
            if wl is None:
                payload.set("window", wp.window)
        payload.set("_hooks_monitor", mon)
        self.events.fire(mon.name, payload)
        oo = mon.owner()
        if oo is None or _IN_NOTIFY_HOOK.get():
            return
        value = oo.get_local(mon.name)
        if value is None:
            return
        self._count(oo, mon.name)
        formats = payload.formats("hook_")
        formats["hook"] = mon.name
        st = fs if _valid(fs) else T.from_nothing(self.server.model, 0)
        cmdlists: list[CommandList] = []
        from .format import EXPAND_NOJOBS, expand
        from .formats_vars import ModelContext

        if st is not None:
            ctx = ModelContext(self.server, None, st.s, st.wl, st.wp, dict(formats))
        else:
            ctx = ModelContext(self.server, None, None, None, None, dict(formats))
        try:
            cmdlists.append(_parse_commands(expand(str(value), ctx, flags=EXPAND_NOJOBS)))
        except CommandError as e:
            log.debug("can't parse hook %s: %s", mon.name, e)
            return
        self._queue(Notification(mon.name, st.copy() if st is not None else None, formats,
                                 cmdlists=cmdlists))

    async def _drain(self) -> None:
        """The global queue: notification hooks one at a time, each after its cause."""
        from .commands.queue import run_items
        from .control_notify import notify as control_notify

        _IN_NOTIFY_HOOK.set(True)
        try:
            while self.pending:
                n = self.pending.popleft()
                if n.data is not None:
                    try:  # notify_callback: control clients hear of it first, then its hook
                        control_notify(self.server, n.name, n.data)
                    except Exception:
                        self.server.log_exception(f"control notification {n.name} failed")
                try:
                    items = self._notification_items(n)
                    if items:
                        self._in_hook = True
                        try:
                            await run_items(items)
                        finally:
                            self._in_hook = False
                except Exception:
                    self.server.log_exception(f"hook {n.name} failed")
        finally:
            self._running = False

    def busy(self) -> bool:
        """Notifications are queued or running (and not waiting on a hook's command)."""
        return bool(self.pending or self._running) and not self._in_hook

    async def settle(self) -> None:
        """Let the notifications already queued run, as tmux runs its global queue before
        a client's next command: a control client's next line must come after the
        notifications its last one caused. A hook command that waits does not hold it."""
        for _ in range(1000):
            if not self.busy():
                return
            await trio.lowlevel.checkpoint()

    def _notification_items(self, n: Notification) -> list[CmdItem]:
        st = n.state if _valid(n.state) else T.from_nothing(self.server.model, 0)
        if n.cmdlists is not None:
            return self._items(n.cmdlists, n.client, st, n.formats)
        entry = _table.OPTIONS_BY_NAME.get(n.name)
        if n.global_only and (entry is None or entry.scope & SESSION):
            cmdlists = self._commands_in(self.server.session_options, n.name) or []
        else:
            cmdlists = self._notify_commands(n.name, st if st is not None else T.State())
        if not cmdlists:
            return []
        return self._items(cmdlists, n.client, st, n.formats)


class HookMonitor:
    """A set-hook -B monitor: its format and target, owned (weakly) by the user hook option
    that holds its command; a store dropped or an option removed ends it."""

    def __init__(self, hooks: Hooks, oo: Options, name: str, kind: str, ident: int, fmt: str,
                 true_only: bool, fs: T.State | None, session: Any) -> None:
        from .monitors import MonitorSet

        self.hooks = hooks
        self.owner = weakref.ref(oo)
        self.name = name
        self.kind = kind
        self.ident = ident
        self.fmt = fmt
        self.fs = fs.copy() if fs is not None else None
        self.set = MonitorSet(hooks.server, self._changed, session=session)
        self.item = self.set.add(name, kind, ident, fmt, true_only=true_only)

    def _changed(self, ch: Any) -> None:
        self.hooks.monitor_fired(self, ch)

    def alive(self) -> bool:
        oo = self.owner()
        return oo is not None and oo.get_local(self.name) is not None

    def destroy(self) -> None:
        if self in self.hooks.monitors:
            self.hooks.monitors.remove(self)
        self.set.clear()

    def value(self) -> str:
        """hooks_monitor_to_string: ``name:what:format``."""
        from .monitors import what_string

        return f"{self.name}:{what_string(self.kind, self.ident)}:{self.fmt}"


def in_notification_hook() -> bool:
    """Whether the running task is the one running notification hooks."""
    return _IN_NOTIFY_HOOK.get()


def outside_hooks() -> None:
    """Mark the running task as not a hook task (background jobs a hook started)."""
    _IN_NOTIFY_HOOK.set(False)
