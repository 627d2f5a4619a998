"""The server's side of the Host contract: one ``ServerHost`` per loaded plugin.

Plugins call it from their lane threads. Reads of plain attributes (ids, pids, revisions,
titles) and of options are atomic under the GIL and are done in place; anything that walks
structures the event loop mutates (the screen) is marshalled onto the loop, and anything that
changes server state is queued onto it without waiting.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

import trio

from ..pane import Pane
from .api import PaneInfo

if TYPE_CHECKING:
    from .manager import PluginManager, PluginRecord

log = logging.getLogger("hmux.plugin")
T = TypeVar("T")


def parse_pane_id(pane_id: str) -> int | None:
    if len(pane_id) > 1 and pane_id[0] == "%" and pane_id[1:].isdigit():
        return int(pane_id[1:])
    return None


def _read_in_place(read: Callable[[], T]) -> T | None:
    """Run a read of option stores on the calling thread. Option lookups are dict reads,
    atomic under the GIL; a walk that meets a dict the loop is changing raises RuntimeError
    and is read again. No hop to the event loop: a plugin that reads an option every tick
    must not wake the server for it."""
    for _ in range(3):
        try:
            return read()
        except RuntimeError:
            continue
    return None


class ServerHost:
    """What one plugin sees of the server (see :class:`hmux_core.plugin.api.Host`)."""

    def __init__(self, manager: PluginManager, record: PluginRecord) -> None:
        self._manager = manager
        self._record = record
        self._model = manager.server.model
        self._lock = threading.Lock()
        self._queued: list[Callable[[], object]] = []
        self._ids: dict[int, str] = {}  #: pane number -> "%n", made once per pane
        self._revisions_key: tuple[int, int, int] | None = None
        self._revisions: Mapping[str, int] = MappingProxyType({})

    # -- threads -------------------------------------------------------------------------------

    def _on_loop(self, fn: Callable[[], T]) -> T | None:
        """Run ``fn`` on the event loop and wait for it (directly when already there)."""
        m = self._manager
        if threading.get_ident() == m.loop_thread:
            return fn()
        try:
            return trio.from_thread.run_sync(fn, trio_token=m.token)
        except trio.RunFinishedError:
            return None

    def _soon(self, fn: Callable[[], object]) -> None:
        """Queue ``fn`` on the event loop without waiting. Calls made while earlier ones are
        still queued ride on the same wakeup of the loop (a sweep that changes many panes
        would otherwise pay one thread hop per invalidate or emit)."""
        m = self._manager
        if threading.get_ident() == m.loop_thread:
            fn()
            return
        with self._lock:
            self._queued.append(fn)
            if len(self._queued) > 1:
                return
        try:
            m.token.run_sync_soon(self._run_queued)
        except trio.RunFinishedError:
            pass

    def _run_queued(self) -> None:
        with self._lock:
            queued, self._queued = self._queued, []
        for fn in queued:
            try:
                fn()
            except Exception:  # raised into trio it would end the server
                log.exception("plugin %s: a queued call failed", self._record.name)

    def _pane(self, pane_id: str) -> Any:
        n = parse_pane_id(pane_id)
        if n is None:
            return None
        p = self._model.panes.get(n)
        if p is None or p.destroyed:
            return None
        return p

    # -- reading -------------------------------------------------------------------------------

    def panes(self) -> tuple[str, ...]:
        return tuple(f"%{n}" for n in list(self._model.panes))

    def revisions(self) -> Mapping[str, int]:
        model = self._model
        key = (Pane.outputs, len(model.panes), model.next_pane_id)
        if key == self._revisions_key:
            return self._revisions  # nothing printed, came or went: the same mapping
        ids = self._ids
        out = {}
        for n, p in list(model.panes.items()):
            if p.destroyed:
                continue
            pane_id = ids.get(n)
            if pane_id is None:
                pane_id = ids[n] = f"%{n}"
            out[pane_id] = p.output_revision
        if len(ids) > 2 * len(out) + 64:  # forget the ids of panes long gone
            self._ids = {n: i for n, i in ids.items() if i in out}
        self._revisions_key, self._revisions = key, MappingProxyType(out)
        return self._revisions

    def pane(self, pane_id: str) -> PaneInfo | None:
        p = self._pane(pane_id)
        if p is None:
            return None
        w = p.window
        for _ in range(3):
            try:
                sessions = tuple(f"${s.id}" for s in w.sessions())
                visible = any(c.session is not None and c.session.curw is not None
                              and c.session.curw.window is w and not c.control
                              for c in list(self._manager.server.clients))
                break
            except RuntimeError:  # the loop changed a dict under us: read again
                continue
        else:
            sessions, visible = (), False
        return PaneInfo(
            pane_id=pane_id, pid=p.pid if not p.dead else -1, foreground_pgrp=p.foreground_pgrp(),
            tty=p.tty, revision=p.output_revision, title=p.screen.title, width=p.sx,
            height=p.sy, window_id=f"@{w.id}", session_ids=sessions, active=w.active is p,
            visible=visible, dead=p.dead, last_output=p.last_output_time)

    def pane_cwd(self, pane_id: str) -> str | None:
        p = self._pane(pane_id)
        return p.current_path() if p is not None else None

    def pane_tail(self, pane_id: str, lines: int) -> tuple[str, ...] | None:
        def read() -> tuple[str, ...] | None:
            p = self._pane(pane_id)
            return tuple(p.screen.tail(lines)) if p is not None else None

        return self._on_loop(read)

    def pane_tails(self, pane_ids: Sequence[str], lines: int) -> dict[str, tuple[str, ...]]:
        def read() -> dict[str, tuple[str, ...]]:
            out = {}
            for pane_id in pane_ids:
                p = self._pane(pane_id)
                if p is not None:
                    out[pane_id] = tuple(p.screen.tail(min(lines, p.sy)))
            return out

        return self._on_loop(read) or {}

    def option(self, name: str, pane_id: str | None = None) -> str | None:
        def read() -> str | None:
            server = self._manager.server
            p = self._pane(pane_id) if pane_id is not None else None
            if p is not None:
                sessions = p.window.sessions()
                stores = [server.options, p.options,
                          sessions[0].options if sessions else server.session_options]
            else:
                stores = [server.options, server.window_options, server.session_options]
            for oo in stores:
                try:
                    v = oo.to_string(name)
                except KeyError:
                    v = None
                if v is not None:
                    return v
            return None

        return _read_in_place(read)

    def pane_options(self, pane_ids: Sequence[str], name: str) -> dict[str, str]:
        def read() -> dict[str, str]:
            out = {}
            for pane_id in pane_ids:
                p = self._pane(pane_id)
                if p is None:
                    continue
                try:
                    v = p.options.to_string(name)
                except KeyError:
                    v = None
                if v is not None:
                    out[pane_id] = v
            return out

        return _read_in_place(read) or {}

    # -- acting --------------------------------------------------------------------------------

    def invalidate(self, pane_id: str) -> None:
        self._soon(lambda: self._manager.invalidate(pane_id))

    def request_tick(self) -> None:
        self._record.wake_now()  # thread-safe: a flag and a threading.Event

    def emit(self, name: str, pane_id: str | None = None, **values: str) -> None:
        vals = {k: str(v) for k, v in values.items()}
        self._soon(lambda: self._manager.emit(self._record, name, pane_id, vals))

    def bell(self, pane_id: str) -> None:
        def ring() -> None:
            p = self._pane(pane_id)
            if p is not None:
                from ..alerts import bell

                bell(self._manager.server, p.window)

        self._soon(ring)

    def notify_clients(self, pane_id: str, title: str, body: str, style: str = "osc9") -> None:
        def clean(text: str) -> str:
            return "".join(" " if ord(c) < 32 or ord(c) == 127 or c == ";" else c
                           for c in text)[:200]

        if style == "osc777":
            seq = f"\033]777;notify;{clean(title)};{clean(body)}\033\\".encode()
        else:
            seq = f"\033]9;{clean(body if not title else title + ': ' + body)}\033\\".encode()

        def send() -> None:
            p = self._pane(pane_id)
            if p is None:
                return
            from ..escapes import viewers

            for a in viewers(self._manager.server, p, invisible=True):
                a.tty.write(seq)

        self._soon(send)

    def log(self, message: str) -> None:
        log.info("%s: %s", self._record.name, message)
