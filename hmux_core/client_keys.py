"""Keys given to a client with no terminal of its own: a control client (``send-keys -K -c``).

tmux hands such a key to server_client_handle_key exactly as a key read from a terminal: an
overlay (popup, menu) and the status-line prompt see it at once, since the command that opened
them may be waiting; otherwise it is queued behind what the client's earlier keys queued, walks
the key tables, and runs a binding or goes to the active pane (or its mode). hmux_core.attached
does this for a client whose terminal hmux owns, along with what only a terminal has (mouse
reports, pastes, its answers); this module is the same walk for the others, so
``send-keys -K -c <control client> C-b c`` makes a window and a prompt opened on a control client
can be answered, as with tmux 3.7b.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from . import keys as K
from .keybindings import TableWalk


class ClientKeys:
    """A terminal-less client's key state: its repeat (repeat-time), the last repeated key,
    and the keys waiting for the client's earlier bindings to finish."""

    def __init__(self, server: Any, client: Any) -> None:
        self.server = server
        self.client = client
        self.tables = TableWalk()  # repeat state between keys
        self._pending: deque[int] = deque()
        self._running = False

    def handle(self, key: int) -> None:
        """server_client_handle_key: the overlay, then the prompt, else the queue."""
        from .overlays import clear_overlay

        server, c = self.server, self.client
        if c.session is None:
            return
        if not getattr(c, "readonly", False):
            if getattr(c, "message_text", None):
                c.message_text = None
            ov = getattr(c, "overlay", None)
            if ov is not None:
                r = ov.key(server, c, key)
                if r == 0:
                    return
                clear_overlay(server, c)
                if r == 1:
                    return
            p = getattr(c, "prompt", None)
            if p is not None and p.key(server, c, key) == 0:
                return
        self._pending.append(key)
        if not self._running and server.nursery is not None:
            self._running = True
            server.nursery.start_soon(self._drain)

    async def _drain(self) -> None:
        """The client's queue: each key's binding runs to its end before the next key walks
        the tables (server_client_key_callback items, in order)."""
        from .keybindings import dispatch

        try:
            while self._pending:
                key = self._pending.popleft()
                try:
                    binding = self._walk(key)
                    if binding is not None:
                        await dispatch(self.server, self.client, binding, key=key)
                    self.server.tick_second()
                except Exception:
                    self.server.log_exception("sent key failed")
        finally:
            self._running = False

    def _walk(self, key: int) -> Any:
        """The key-table walk (server_client_key_callback): the binding to run, or None when
        the key went to the pane or only changed the table."""
        server, c = self.server, self.client
        s = c.session
        if s is None:
            return None
        c.activity_time = time.time()
        server.update_latest(c)
        table = self.tables.expire(server, c)
        wp = s.curw.window.active if s.curw is not None else None
        mode_table = wp.modes[0].key_table() if wp is not None and wp.modes else None
        res = self.tables.walk(server, c, key, table, mode_table)
        if res.binding is not None:
            return res.binding
        if res.forward and wp is not None:
            self._to_pane(wp, key)
        return None

    def _to_pane(self, wp: Any, key: int) -> None:
        """window_pane_key: the pane's mode takes it, or the program reads it encoded."""
        if wp.modes:
            wp.modes[0].key(self.client, key)
            return
        if wp.dead:
            if wp.options.get("remain-on-exit") == "key" and not K.is_paste_key(key):
                wp.options.set("remain-on-exit", "off")
                self.server.kill_pane(wp)
            return
        if wp.input_off:
            return
        data = K.encode_key(key, **K.pane_modes(wp.screen, self.server.options))
        if data:
            wp.write(data)


def send_key(server: Any, client: Any, key: int) -> None:
    """A key for ``client`` (send-keys -K) when hmux does not own its terminal."""
    ck = getattr(client, "client_keys", None)
    if ck is None:
        ck = client.client_keys = ClientKeys(server, client)
    ck.handle(key)
