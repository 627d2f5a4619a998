"""Finding, selecting, running and isolating plugins; the format hook that asks them.

Selection comes from ``TMUX_C2RS_PLUGINS`` (unset: the default set; ``all``; ``none`` or empty:
none; else a comma list). When the variable is unset, the server option ``plugins`` (same
grammar, default ``agent,git``) selects instead: a configuration file can say
``set -s plugins 'agent,git,weather'``, and a change takes effect at once (:meth:`reconcile`).
The option exists only while the plugin layer does, so with ``none`` hmux's option table is
tmux's. Only selected entry points are imported. Each plugin gets a *lane*: a
thread of its own that runs its start/tick/on_notify/stop one at a time, so a slow or hung
plugin delays only itself. A lane sleeps on a ``threading.Event`` until its interval is due or
something wakes it (an event for it, ``request_tick``): an idle tick then costs a thread wakeup
and the plugin's own work, not a turn of the event loop and a trio thread hop each way (those
were most of the idle CPU of 200 panes, docs/performance.md). Failures are logged with a traceback and counted; a plugin failing ``MAX_FAILURES`` times in a
row is disabled with a message. Variables go into one index (name -> plugin), consulted by
``formats_vars`` after the server's own table.
"""

from __future__ import annotations

import inspect
import json
import logging
import math
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from types import MappingProxyType
from typing import Any

import pluggy
import trio

from .api import API_VERSION, ENTRY_POINT_GROUP, PROJECT, Event, HookSpecs, Plugin
from .host import ServerHost, parse_pane_id
from .selection import ENV_VAR, OPTION, in_force, register_option, selection, untouched_since

log = logging.getLogger("hmux.plugin")

MAX_FAILURES = 5
EVENT_QUEUE_LIMIT = 1024
#: A tick running longer than this is reported as hung in ``hmux plugins``.
HUNG_AFTER = 10.0


def installed() -> list[EntryPoint]:
    """Every entry point of the plugin group, first one per name. Listing them reads every
    distribution's metadata on ``sys.path`` (a few ms), so the list is kept while no
    ``sys.path`` entry changed: installing or removing a distribution changes its
    directory's mtime. A fork server's servers inherit it already made."""
    global _INSTALLED
    stamp = _path_stamp()
    if _INSTALLED is not None and _INSTALLED[0] == stamp:
        return list(_INSTALLED[1])
    seen: dict[str, EntryPoint] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        seen.setdefault(ep.name, ep)
    _INSTALLED = (stamp, list(seen.values()))
    return list(seen.values())


_INSTALLED: tuple[tuple[Any, ...], list[EntryPoint]] | None = None


def _path_stamp() -> tuple[Any, ...]:
    import os
    import sys

    stamp: list[Any] = []
    for entry in sys.path:
        try:
            stamp.append((entry, os.stat(entry or ".").st_mtime_ns))
        except OSError:
            stamp.append((entry, None))
    return tuple(stamp)


def distribution_of(ep: EntryPoint) -> tuple[str, str]:
    """The distribution name and version that installed ``ep`` (for ``hmux plugins``)."""
    dist = getattr(ep, "dist", None)
    if dist is None:
        return "", ""
    path = getattr(dist, "_path", None)  # its dist-info directory: a new version is a new one
    if path is None:
        return _read_distribution(dist)
    key = str(path)
    found = _DISTRIBUTIONS.get(key)
    if found is None:
        # Parsing the metadata is a few ms; a fork server's servers inherit it already read.
        found = _DISTRIBUTIONS[key] = _read_distribution(dist)
    return found


_DISTRIBUTIONS: dict[str, tuple[str, str]] = {}


def _read_distribution(dist: Any) -> tuple[str, str]:
    return dist.metadata["Name"] or "", dist.version or ""


@dataclass(eq=False)
class PluginRecord:
    """One plugin as the server runs it (also what ``hmux plugins`` reports)."""

    name: str
    plugin: Plugin
    distribution: str = ""
    version: str = ""
    variables: tuple[str, ...] = ()
    interval: float | None = None
    enabled: bool = True
    reason: str = ""
    ticks: int = 0
    failures: int = 0
    consecutive_failures: int = 0
    last_tick: float = 0.0
    last_tick_seconds: float = 0.0
    running_since: float = 0.0
    dropped_events: int = 0
    wants_events: bool = False
    listens: frozenset[str] | None = None  #: the event names it is sent; None: all
    events: deque[Event] = field(default_factory=deque)
    due: float = 0.0  #: time.monotonic() of the next tick
    wake: threading.Event = field(default_factory=threading.Event)
    tick_now: bool = False
    lane: int = 0  #: the generation of the lane thread that may run (re-enabling starts anew)
    host: ServerHost | None = None
    revisions: dict[int, int] = field(default_factory=dict)  #: pane number -> output seen
    last_error: str = ""  #: the last failure, "Type: message" (what `hmux plugins` shows)

    def wake_now(self) -> None:
        self.tick_now = True
        self.wake.set()

    def status(self) -> dict[str, Any]:
        busy = self.running_since and time.time() - self.running_since > HUNG_AFTER
        return {
            "name": self.name, "distribution": self.distribution, "version": self.version,
            "enabled": self.enabled, "reason": self.reason or ("running" if self.enabled else ""),
            "variables": list(self.variables), "interval": self.interval, "ticks": self.ticks,
            "failures": self.failures, "last_tick": self.last_tick,
            "last_tick_seconds": round(self.last_tick_seconds, 6),
            "hung_for": round(time.time() - self.running_since, 1) if busy else 0,
            "dropped_events": self.dropped_events,
        }


class PluginManager:
    """The server's plugin layer; ``server.plugins`` when any plugin was selected."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.records: list[PluginRecord] = []
        self.refused: list[dict[str, Any]] = []  # selected but not loaded, and why
        self.index: dict[str, PluginRecord] = {}
        self.token: Any = None
        self.loop_thread = threading.get_ident()
        self.invalidated: set[str] = set()
        self._closing = False
        #: Set once run() has started every lane: a lane's start() and first tick hold the
        #: GIL, and the next Thread.start() (on the event loop) would wait behind them.
        self._go = threading.Event()
        self._pm = pluggy.PluginManager(PROJECT)
        self._pm.add_hookspecs(HookSpecs)
        #: ENV_VAR's value when the server started (None: unset, the option selects).
        self.env_value: str | None = None

    # -- loading -------------------------------------------------------------------------------

    def warn(self, text: str) -> None:
        log.warning("%s", text)
        self.server.add_message(text)

    def load(self, env_value: str | None,
             available: Iterable[EntryPoint] | None = None) -> None:
        """Import and register the selected plugins; never raises."""
        wanted = selection(env_value)
        eps = {ep.name: ep for ep in (installed() if available is None else available)}
        names = list(eps) if wanted is None else list(wanted)
        self._load_names(names, eps)

    def _load_names(self, names: list[str], eps: dict[str, EntryPoint]) -> list[PluginRecord]:
        before = len(self.records)
        for name in names:
            if any(r.name == name for r in self.records):
                continue
            ep = eps.get(name)
            if ep is None:
                self.warn(f"plugin {name}: not installed (known: {', '.join(sorted(eps)) or 'none'})")
                self.refused.append({"name": name, "reason": "not installed"})
                continue
            self.refused = [r for r in self.refused if r.get("name") != name]
            self._load_entry_point(ep)
        return self.records[before:]

    def reconcile(self) -> None:
        """Make the running set match the ``plugins`` option (ENV_VAR unset only): load and
        start newly selected plugins, stop deselected ones, bring back re-selected ones."""
        if self.env_value is not None:
            return
        value = self.server.options.get(OPTION)
        wanted = selection(str(value) if value is not None else None)
        eps = {ep.name: ep for ep in installed()}
        names = list(eps) if wanted is None else list(wanted)
        for rec in self.records:
            if rec.name in names and not rec.enabled and rec.reason == DESELECTED:
                self._enable_again(rec)
            elif rec.name not in names and rec.enabled:
                self.disable(rec, DESELECTED)
        self.refused = [r for r in self.refused if r.get("name") in names]
        added = self._load_names(names, eps)
        if added:
            self.apply_option_defaults(added)
            from .. import status_defaults

            status_defaults.apply(self.server.window_options)
            if self.token is not None:
                for rec in added:
                    self._start_lane(rec)
        self.server.redraw_clients()

    def _enable_again(self, rec: PluginRecord) -> None:
        rec.enabled, rec.reason, rec.consecutive_failures = True, "", 0
        for var in rec.variables:
            self.index.setdefault(var, rec)
        if self.token is not None:
            self._start_lane(rec)

    def _refuse(self, name: str, dist: str, version: str, reason: str) -> None:
        self.warn(f"plugin {name}: {reason}")
        self.refused.append({"name": name, "distribution": dist, "version": version,
                             "reason": reason})

    def _load_entry_point(self, ep: EntryPoint) -> None:
        try:
            obj = ep.load()
            self._pm.register(obj, name=ep.name)
        except Exception as e:
            log.error("plugin %s failed to load\n%s", ep.name, traceback.format_exc())
            self._refuse(ep.name, *distribution_of(ep), f"failed to load: {type(e).__name__}: {e}")
            return
        impls = self._pm.hook.hmux_plugin.get_hookimpls()
        found = False
        for impl in impls:
            if impl.plugin_name != ep.name:
                continue
            found = True
            try:
                made = impl.function()
            except Exception as e:
                log.error("plugin %s: hmux_plugin() raised\n%s", ep.name, traceback.format_exc())
                self._refuse(ep.name, *distribution_of(ep), f"hmux_plugin() raised {type(e).__name__}: {e}")
                continue
            plugins = made if isinstance(made, list | tuple) else [made]
            dist, version = distribution_of(ep)
            for p in plugins:
                self.add(p, ep.name, dist, version)
        if not found:
            self._refuse(ep.name, *distribution_of(ep), "no hmux_plugin hook implementation")

    def add(self, plugin: Any, default_name: str = "", dist: str = "",
            dist_version: str = "") -> PluginRecord | None:
        """Check and index one plugin object (entry points come here; so can embedders)."""
        name = getattr(plugin, "name", "") or default_name
        if not isinstance(plugin, Plugin):
            self._refuse(name, dist, dist_version, "hmux_plugin() did not return a Plugin")
            return None
        version = getattr(plugin, "api_version", None)
        if version != API_VERSION:
            self._refuse(name, dist, dist_version, f"written for plugin API version {version}; "
                                                   f"this server speaks version {API_VERSION}")
            return None
        if any(r.name == name for r in self.records):
            self._refuse(name, dist, dist_version, "a plugin of that name is already loaded")
            return None
        from ..formats_vars import VARIABLES

        interval = plugin.interval
        if interval is not None and (not isinstance(interval, int | float)
                                     or not math.isfinite(interval) or interval <= 0):
            self.warn(f"plugin {name}: bad interval {interval!r}, ticks disabled")
            interval = None
        rec = PluginRecord(name=name, plugin=plugin, distribution=dist, version=dist_version,
                           interval=interval)
        rec.wants_events = type(plugin).on_notify is not Plugin.on_notify
        listens = getattr(plugin, "listens", None)
        rec.listens = frozenset(listens) if listens is not None else None
        taken: list[str] = []
        for var in plugin.variables:
            if var in VARIABLES or var in _OWN_VARIABLES:
                self.warn(f"plugin {name}: variable {var} is the server's, ignored")
            elif var in self.index:
                self.warn(f"plugin {name}: variable {var} belongs to plugin "
                          f"{self.index[var].name}, ignored")
            else:
                self.index[var] = rec
                taken.append(var)
        rec.variables = tuple(taken)
        rec.host = ServerHost(self, rec)
        from ..hooks import register_hook_name

        for ev_name in getattr(plugin, "events", ()):
            if not register_hook_name(ev_name):
                self.warn(f"plugin {name}: event name {ev_name!r} refused as a hook name")
        self.records.append(rec)
        log.info("plugin %s loaded (%s %s), variables %s", name, dist, dist_version, taken)
        return rec

    def apply_option_defaults(self, records: Iterable[PluginRecord] | None = None,
                              untouched: dict[int, dict[str, Any]] | None = None) -> None:
        """Each plugin's option defaults, losing to the configuration files: user options are
        created where unset, tmux options set only while they still hold tmux's default and
        the configuration did not set them (``untouched``, see :func:`start`)."""
        from ..options import OptionError, find_entry

        server = self.server
        for rec in self.records if records is None else records:
            for opt, value in rec.plugin.option_defaults:
                try:
                    if opt.startswith("@"):
                        if server.session_options.get_local(opt) is None:
                            server.session_options.set(opt, value)
                        continue
                    oe = find_entry(opt)
                    if oe is None:
                        raise OptionError(f"invalid option: {opt}")
                    store = _global_store(server, oe.scope)
                    if store.to_string(opt) == _default_string(oe) \
                            and untouched_since(store, opt, untouched):
                        store.set(opt, value)
                except (OptionError, KeyError, ValueError) as e:
                    msg = e.message() if isinstance(e, OptionError) else str(e)
                    self.warn(f"plugin {rec.name}: option default {opt}: {msg}")

    # -- running -------------------------------------------------------------------------------

    async def run(self) -> None:
        """Start the lanes; stop the plugins when the server's nursery is cancelled."""
        self.token = trio.lowlevel.current_trio_token()
        self.loop_thread = threading.get_ident()
        self.server.subscribers.append(self.on_server_event)
        try:
            for rec in self.records:
                if rec.enabled:  # the config may have deselected some already
                    self._start_lane(rec)
            self._go.set()
            await trio.sleep_forever()
        finally:
            self.stop_all()

    def _start_lane(self, rec: PluginRecord) -> None:
        rec.lane += 1
        rec.due = time.monotonic()
        rec.wake = threading.Event()
        threading.Thread(target=self._lane, args=(rec, rec.lane), daemon=True,
                         name=f"hmux-plugin-{rec.name}").start()

    def _call(self, rec: PluginRecord, what: str, fn: Callable[[], object]) -> bool:
        """Run one plugin method on its lane; count and log a failure."""
        rec.running_since = time.time()
        try:
            fn()
            rec.consecutive_failures = 0
            return True
        except Exception as e:
            self.failed(rec, what, e, traceback.format_exc())
            return False
        finally:
            rec.running_since = 0.0

    def failed(self, rec: PluginRecord, what: str, e: BaseException, tb: str) -> None:
        rec.last_error = f"{type(e).__name__}: {e}"
        rec.failures += 1
        rec.consecutive_failures += 1
        log.error("plugin %s: %s raised %s: %s\n%s", rec.name, what, type(e).__name__, e, tb)
        if rec.consecutive_failures >= MAX_FAILURES and rec.enabled:
            reason = (f"disabled after {rec.consecutive_failures} failures in a row "
                      f"(last: {what}: {type(e).__name__}: {e})")
            self._on_loop_soon(lambda: rec.enabled and self.disable(rec, reason))

    def _on_loop_soon(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the event loop: now when called there, else at its next turn (what
        changes the index, messages or hooks belongs to the loop)."""
        if threading.get_ident() == self.loop_thread or self.token is None:
            fn()
            return
        try:
            self.token.run_sync_soon(fn)
        except trio.RunFinishedError:
            pass

    def disable(self, rec: PluginRecord, reason: str) -> None:
        rec.enabled = False
        rec.reason = reason
        for var in rec.variables:
            if self.index.get(var) is rec:
                del self.index[var]
        self.warn(f"plugin {rec.name}: {reason}")
        rec.wake.set()

    def _lane(self, rec: PluginRecord, lane: int) -> None:
        """One plugin's thread: start, then events and ticks as they come due, then stop."""
        plugin, host = rec.plugin, rec.host
        self._go.wait()
        if not self._call(rec, "start", lambda: plugin.start(host)):
            self._on_loop_soon(lambda: rec.enabled and rec.lane == lane and self.disable(
                rec, f"start failed: {rec.last_error}"))
            return
        wake = rec.wake
        while rec.enabled and rec.lane == lane:
            if rec.interval is None:
                wake.wait()
            else:
                delay = rec.due - time.monotonic()
                if delay > 0:
                    wake.wait(delay)
            wake.clear()
            if not rec.enabled or rec.lane != lane:
                break
            if rec.events:
                batch = []
                while rec.events:
                    batch.append(rec.events.popleft())
                self._call(rec, "on_notify", lambda b=batch: self._deliver(rec, b))
            now = time.monotonic()
            due = rec.tick_now or (rec.interval is not None and now >= rec.due)
            if due and rec.enabled:
                rec.tick_now = False
                if rec.interval is not None:
                    rec.due = now + rec.interval
                t0 = time.perf_counter()
                ok = self._call(rec, "tick", lambda: self._tick(rec))
                rec.last_tick_seconds = time.perf_counter() - t0
                if ok:
                    rec.ticks += 1
                    rec.last_tick = time.time()
        if rec.lane == lane and not self._closing:
            self._call(rec, "stop", plugin.stop)

    def _tick(self, rec: PluginRecord) -> None:
        if rec.wants_events and (rec.listens is None or "pane-output" in rec.listens):
            self._output_events(rec)
        rec.plugin.tick(rec.host)  # type: ignore[arg-type]

    def _output_events(self, rec: PluginRecord) -> None:
        """``pane-output`` events, coalesced to one per pane between two ticks."""
        panes = self.server.model.panes
        seen = rec.revisions
        changed = []
        for n, p in list(panes.items()):
            rev = p.output_revision
            if seen.get(n, 0) != rev:
                seen[n] = rev
                changed.append(Event("pane-output", pane_id=f"%{n}",
                                     window_id=f"@{p.window.id}"))
        if len(seen) > len(panes) * 2 + 16:
            live = set(list(panes))
            for k in [k for k in seen if k not in live]:
                del seen[k]
        self._deliver(rec, changed)

    @staticmethod
    def _deliver(rec: PluginRecord, events: list[Event]) -> None:
        for ev in events:
            rec.plugin.on_notify(ev)

    def stop_all(self, wait: float = 1.0) -> None:
        """Server exit: stop every plugin that is not mid-call, each on its own daemon thread,
        waiting at most ``wait`` seconds in all so a hanging stop() cannot hold the exit."""
        self._closing = True
        self._go.set()
        threads = []
        for rec in self.records:
            if rec.enabled and not rec.running_since:
                t = threading.Thread(target=self._stop_one, args=(rec,), daemon=True,
                                     name=f"hmux-plugin-stop-{rec.name}")
                t.start()
                threads.append(t)
            rec.enabled = False
            rec.wake.set()
        deadline = time.monotonic() + wait
        for t in threads:
            t.join(max(0.0, deadline - time.monotonic()))

    @staticmethod
    def _stop_one(rec: PluginRecord) -> None:
        try:
            rec.plugin.stop()
        except Exception:
            log.error("plugin %s: stop raised\n%s", rec.name, traceback.format_exc())

    # -- events --------------------------------------------------------------------------------

    def on_server_event(self, name: str, data: dict[str, Any]) -> None:
        """Server bus subscriber: queue the event for every plugin that listens."""
        listeners = [r for r in self.records if r.enabled and r.wants_events
                     and (r.listens is None or name in r.listens)]
        if not listeners:
            return
        self.queue(listeners, _event_from(name, data))

    def queue(self, recs: Iterable[PluginRecord], ev: Event) -> None:
        for rec in recs:
            if len(rec.events) >= EVENT_QUEUE_LIMIT:
                rec.events.popleft()
                rec.dropped_events += 1
            rec.events.append(ev)
            rec.wake.set()

    def emit(self, source: PluginRecord, name: str, pane_id: str | None,
             values: dict[str, str]) -> None:
        """A plugin's named event: other plugins hear it, hooks bound to the name run."""
        if not source.enabled:
            return
        pane = None
        n = parse_pane_id(pane_id) if pane_id else None
        if n is not None:
            pane = self.server.model.panes.get(n)
        ev = Event(name, pane_id=pane_id,
                   window_id=f"@{pane.window.id}" if pane is not None else None,
                   values=MappingProxyType(dict(values)))
        self.queue([r for r in self.records if r is not source and r.enabled and r.wants_events
                    and (r.listens is None or name in r.listens)],
                   ev)
        fire = getattr(self.server, "fire_named_hook", None)
        if fire is not None:
            try:
                fire(name, pane, values)
            except Exception:
                self.server.log_exception(f"hook {name} from plugin {source.name} failed")

    def invalidate(self, pane_id: str) -> None:
        """Mark the pane's window for a status redraw by whatever draws clients."""
        self.invalidated.add(pane_id)
        redraw = getattr(self.server, "status_invalidate", None)
        if redraw is not None:
            n = parse_pane_id(pane_id)
            pane = self.server.model.panes.get(n) if n is not None else None
            if pane is not None:
                redraw(pane.window)
        self.server.wake()

    # -- the format hook -------------------------------------------------------------------------

    def lookup(self, ctx: Any, name: str) -> str | None:
        """``#{name}`` after the server's own table: the owning plugin's resolve()."""
        rec = self.index.get(name)
        if rec is None:
            own = _OWN_VARIABLES.get(name)
            return own(self) if own is not None else None
        wp = ctx.wp
        if wp is None:
            return None
        try:
            value = rec.plugin.resolve(f"%{wp.id}", name)
        except Exception as e:
            self.failed(rec, f"resolve({name})", e, traceback.format_exc())
            return None
        if value is None or isinstance(value, str):
            return value
        # Anything else breaks the API contract: counted like a raise (its __str__ could raise
        # or lie, a coroutine would never run), so the plugin is told and disabled in the end.
        if inspect.iscoroutine(value):
            value.close()
        self.failed(rec, f"resolve({name})",
                    TypeError(f"returned {type(value).__name__}, not str"), "")
        return None

    def status(self) -> list[dict[str, Any]]:
        return [r.status() for r in self.records] + [
            dict(r, enabled=False) for r in self.refused]


def start(server: Any, untouched: dict[int, dict[str, Any]] | None = None,
          available: list[EntryPoint] | None = None) -> PluginManager | None:
    """Load what ``TMUX_C2RS_PLUGINS`` (or, unset, the ``plugins`` option) selects and hook
    it into formats; None when nothing was selected, in which case the server stays tmux (no
    defaults, no variables, no hook). ``untouched`` holds the global option stores' values from
    before the configuration files ran (:func:`.selection.snapshot`): defaults go only to options the
    configuration did not set, so it wins though it ran first. ``available``: the installed
    entry points when the caller has just listed them (:func:`.selection.prefetch`)."""
    import os

    from .. import formats_vars, status_defaults

    value = os.environ.get(ENV_VAR)
    if selection(value) == ():
        return None
    m = PluginManager(server)
    m.env_value = value
    if server.options.get_local(OPTION) is None:  # the server did not prepare it (tests)
        register_option(server)
    m.load(in_force(server), available)
    formats_vars.plugin_lookup = m.lookup
    if m.records:
        m.apply_option_defaults(untouched=untouched)
        status_defaults.apply(server.window_options, untouched)
    return m


DESELECTED = f"not selected by the {OPTION} option"


def _plugins_json(m: PluginManager) -> str:
    return json.dumps(m.status(), separators=(",", ":"))


#: Variables of the plugin layer itself; they exist only while some plugin was selected.
def _selection_json(m: PluginManager) -> str:
    option = m.server.options.get(OPTION)
    return json.dumps({"env": m.env_value, "option": None if option is None else str(option)},
                      separators=(",", ":"))


_OWN_VARIABLES: dict[str, Callable[[PluginManager], str]] = {
    "plugins": lambda m: ",".join(r.name for r in m.records if r.enabled),
    "plugins_json": _plugins_json,
    "plugins_selection": _selection_json,
}


def _event_from(name: str, data: dict[str, Any]) -> Event:
    pane = data.get("pane")
    window = data.get("window")
    session = data.get("session")
    client = data.get("client")
    if window is None and pane is not None:
        window = getattr(pane, "window", None)
    values = {k: str(v) for k, v in data.items()
              if k not in ("pane", "window", "session", "client") and v is not None
              and isinstance(v, str | int | float)}
    return Event(
        name,
        pane_id=f"%{pane.id}" if pane is not None else None,
        window_id=f"@{window.id}" if window is not None else None,
        session_id=f"${session.id}" if session is not None else None,
        client=getattr(client, "name", None) if client is not None else None,
        values=MappingProxyType(values),
    )


def _global_store(server: Any, scope: int) -> Any:
    from ..options_table import SERVER, SESSION

    if scope & SERVER:
        return server.options
    if scope & SESSION:
        return server.session_options
    return server.window_options


def _default_string(oe: Any) -> str | None:
    from ..options import Options

    probe = Options.global_for(oe.scope)
    return probe.to_string(oe.name)
