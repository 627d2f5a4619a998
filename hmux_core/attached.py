"""An attached client: its terminal, its keys and its frames.

Keys read from the terminal go through the client's current key table (``root``, or
``prefix`` after the prefix key) and run the bound commands; any other key goes to the active
pane. Frames are drawn when something the client shows changed, at most once per
``FRAME_INTERVAL``, so a flooding pane costs one redraw per frame rather than one per read; the
first output of a pane after a key typed into it is drawn at once, so an echo never waits for a
frame. While the terminal is not reading (``Tty.blocked``) nothing is drawn; when it reads
again the whole screen is drawn from the model.
"""

from __future__ import annotations

import logging
import math
import re
import time
from typing import Any

import trio

from . import escapes, themes, tty_keys, tty_term
from . import keys as K
from .keybindings import TableWalk
from .mouse import CLICK_TIMEOUT, DRAG_REPEAT, MouseEvent, MouseState
from .render import Renderer
from .tty import Tty
from .tty_keys import KeyDecoder

log = logging.getLogger(__name__)

FRAME_INTERVAL = 1 / 120
#: Frames are spaced so that drawing takes at most 1/FRAME_COST of the time: a big window
#: scrolling under a flood (every row rebuilt) draws less often rather than starving parsing.
FRAME_COST = 8
#: A bracketed paste longer than this has lost its end marker (CLIENT_PASTE_TIME_LIMIT).
PASTE_TIME_LIMIT = 5
#: A pane's output this soon after a key typed into it is that key's echo: drawn at once.
ECHO_WINDOW = 0.1
#: tty_start_tty for a VT100-like terminal: report theme changes (mode 2031), and the theme now.
THEME_SUBSCRIBE = b"\x1b[?2031h\x1b[?996n"
#: tty_send_requests / tty_repeat_requests: the terminal's foreground and background colours.
COLOUR_QUERIES = b"\x1b]10;?\x1b\\\x1b]11;?\x1b\\"
#: TTY_REQUEST_LIMIT: a resize asks for the colours again only this long after the last time.
REQUEST_LIMIT = 30
#: The terminal's answers to CSI 18 t and CSI 14 t: 8 ; rows ; columns and 4 ; height ; width.
_WINSZ = re.compile(rb"\x1b\[([48]);(\d+);(\d+)t")


class Attached:
    """The server's side of one attached terminal."""

    def __init__(self, server: Any, client: Any) -> None:
        self.server = server
        self.client = client
        self.tty = Tty(client.fd, client)
        self.keys = KeyDecoder()
        self._awaiting: set[str] = set()  # "da", "xda": the terminal's answers not yet in
        self.renderer = Renderer()
        self.tables = TableWalk()  # repeat state between keys
        self._dirty = trio.Event()
        self._pending = False  # something changed since the last frame
        self._next = 0.0  # when the next frame may be drawn
        self._echo_pane: Any = None
        self._echo_until = 0.0
        self._busy = False  # the worker runs a key's binding or queued commands
        # Entries sent to the worker and not finished yet: a value handed straight to the
        # waiting worker is not in the channel's buffer, and the worker has not run yet.
        self._inflight = 0
        self._cancel = trio.CancelScope()
        self.stopped = False
        # The client's queue (tmux's per-client cmdq): keys for the key tables and commands a
        # prompt or overlay made, run in order; a prompt's keys bypass it, as in tmux.
        self._send, self._queue = trio.open_memory_channel(math.inf)
        self.suspended = False  # suspend-client or a lock: the terminal is the client's
        self._resumed = trio.Event()
        self._read_scope = trio.CancelScope()
        self.mouse = MouseState()
        self.mouse_mode = 0  # the mouse modes the terminal was asked for (escapes.client_modes)
        self._nursery: trio.Nursery | None = None
        self._click_scope: trio.CancelScope | None = None
        self._drag_scope: trio.CancelScope | None = None
        self._sync_wait = False  # a task redraws while a synchronized update holds a pane
        self.bracket_pasting = False  # between the terminal's paste markers
        self.assume_pasting = False  # keys coming faster than assume-paste-time
        self.key_time = 0.0  # when the last key was read
        self.progress_bar = (0, 0)  # the progress bar the terminal was last sent
        self.paste_time = 0.0
        self.wait_colours: set[int] = set()  # TTY_WAITFG, _WAITBG: OSC 10/11 answers due
        self.last_requests = 0.0  # when the terminal was last asked for its colours
        self._request_scope: trio.CancelScope | None = None
        self._da_seen = False  # TTY_HAVEDA, _HAVEDA2 or _HAVEXDA: the terminal answered one
        self.osc52_query = 0.0  # refresh-client -l asked for the clipboard (until then)
        self.winsz_query = False  # TTY_WINSIZEQUERY: its size in pixels was asked for
        self._winsz_resized = False  # ... and its answer in characters changed the size

    # -- lifetime ------------------------------------------------------------------------------

    def start(self, nursery: trio.Nursery) -> None:
        # clear-on-attach (beyond 3.7b): off keeps the terminal's main screen
        self.tty.alternate = bool(self.server.options.get("clear-on-attach"))
        self.tty.start()
        self.client.sx, self.client.sy = self.tty.sx, self.tty.sy  # client_width, new windows
        caps = escapes.caps(self.server, self)
        self.renderer.set_caps(caps)
        # Only a terminfo entry that was found can say it lacks am (no infocmp: assume am).
        self.renderer.noam = "am" not in caps and bool(tty_term.terminfo(self.client.term))
        themes.update_client(self.server, self.client)  # server_client_open: its colours
        if "Enbp" in caps:  # tty_start_tty: pastes come bracketed
            self.tty.write(caps["Enbp"].encode("latin-1", "replace"))
        if tty_term.FLAG_VT100 in caps:
            self.tty.write(THEME_SUBSCRIBE)  # tty_start_tty: theme reports, and one now
            # tty_send_requests: what the terminal says it is may add features (RGB, ...),
            # and its colours answer the panes' OSC 10/11 queries and decide their theme.
            self._awaiting = {"da1", "da", "xda"}
            self.keys.want_dcs = True
            self.tty.write(b"\x1b[c\x1b[>c\x1b[>q" + COLOUR_QUERIES)
            self.wait_colours = {10, 11}
            self.last_requests = time.monotonic()
            self._start_timer(nursery)
        nursery.start_soon(self._run)

    def _start_timer(self, nursery: trio.Nursery | None) -> None:
        """tty_start_start_timer: the terminal's answers are waited for TTY_QUERY_TIMEOUT,
        five seconds, from now (again after each repeat of the requests)."""
        if nursery is None:
            return
        if self._request_scope is not None:
            self._request_scope.cancel()
        self._request_scope = trio.CancelScope()
        nursery.start_soon(self._start_timer_fired, self._request_scope)

    async def _start_timer_fired(self, scope: trio.CancelScope) -> None:
        """tty_start_timer_callback: answers that have not come are not waited for; if no DA
        answer ever came, what the terminal has is what is known (tty_update_features)."""
        with scope:
            await trio.sleep(5)
            if not self._da_seen and not self.stopped:
                self._update_features()
            self._awaiting = set()
            self.keys.want_dcs = False
            self.wait_colours = set()

    def repeat_requests(self, force: bool) -> None:
        """tty_repeat_requests: ask the terminal for its colours again (after a resize, at
        most every TTY_REQUEST_LIMIT seconds; after a theme report, always), waiting for the
        answers TTY_QUERY_TIMEOUT again."""
        if self.stopped or self.suspended:
            return
        now = time.monotonic()
        if not force and now - self.last_requests <= REQUEST_LIMIT:
            return
        self.last_requests = now
        if tty_term.FLAG_VT100 in escapes.caps(self.server, self):
            self.tty.write(COLOUR_QUERIES)
            self.wait_colours = {10, 11}
        self._start_timer(self._nursery)

    def clipboard_query(self) -> None:
        """tty_clipboard_query (refresh-client -l): ask the terminal for its clipboard; what
        it answers within TTY_QUERY_TIMEOUT becomes a paste buffer."""
        now = time.monotonic()
        if self.stopped or self.suspended or self.osc52_query > now:
            return
        ms = escapes.caps(self.server, self).get("Ms")
        if ms:
            self.tty.write(ms.replace("%p1%s", "", 1).replace("%p2%s", "?", 1)
                           .encode("latin-1", "replace"))
        self.osc52_query = now + 5

    def _terminal_answer(self, key: int, raw: bytes) -> bool:
        """What the terminal says back, read before anything looks at keys: its colours
        (tty_keys_colours: the panes' theme may have changed), a palette entry or its
        clipboard for a pane that asked (input_request_reply), and its theme reports
        (server_client_report_theme, even with a popup open). True if ``raw`` was one."""
        c = self.client
        if key == K.KEYC_REPORT_LIGHT_THEME or key == K.KEYC_REPORT_DARK_THEME:
            if c.session is None:
                return True
            light = key == K.KEYC_REPORT_LIGHT_THEME
            old = c.theme
            c.theme = "light" if light else "dark"
            if c.theme != old:  # its theme colours, and everything drawn in them, again
                themes.update_client(self.server, c)
                self.redraw(full=True)
            self.server.notify("client-light-theme" if light else "client-dark-theme",
                               {"client": c, "session": c.session})
            self.repeat_requests(force=True)  # panes hear of it once the colours come
            return True
        if key != K.KEYC_UNKNOWN:
            return False
        if raw[:2] == b"\x1b[":
            return self.winsz_query and self._window_size(raw)
        if raw[:2] != b"\x1b]":
            return False
        got = tty_keys.colour_reply(raw)
        if got is not None:
            which, colour = got
            if colour != -1:
                if which == 10:
                    c.tty_fg = colour
                else:
                    changed = c.tty_bg != colour
                    c.tty_bg = colour
                    if changed:  # theme detect goes by it (a new pen draws everything again)
                        themes.update_client(self.server, c)
                self.wait_colours.discard(which)
            escapes.session_theme_changed(self.server, c.session)
            self.redraw()  # theme colours in the status line follow the terminal's
            return True
        got = tty_keys.palette_reply(raw)
        if got is not None:
            if got[1] != -1:
                escapes.request_reply(c, "palette", got[0], colour=got[1])
            return True
        clip = tty_keys.clipboard_reply(raw)
        if clip is not None:
            escapes.request_reply(c, "clipboard", 0, clip=clip[0], data=clip[1])
            if self.osc52_query > time.monotonic():  # refresh-client -l: a new buffer
                self.osc52_query = 0.0
                self.server.buffers.add(clip[1])
        return True

    def _window_size(self, raw: bytes) -> bool:
        """tty_keys_winsz: the answers to ``CSI 18 t`` (its size in characters) and ``CSI 14
        t`` (in pixels, which makes a cell's size); True if ``raw`` was one."""
        m = _WINSZ.fullmatch(raw)
        if m is None:
            return False
        kind, y, x = (int(g) & 0xFFFFFFFF for g in m.groups())
        tty = self.tty
        if kind == 8:
            if x and y and (x, y) != (tty.sx, tty.sy):  # (a zero leaves nothing to draw on)
                tty.sx, tty.sy = x, y
                self.client.sx, self.client.sy = x, y
                self._winsz_resized = True
        else:
            tty.xpixel = x // tty.sx if x and tty.sx else 0
            tty.ypixel = y // tty.sy if y and tty.sy else 0
            self.winsz_query = False
            if self._winsz_resized:  # drawn again for a new size only: tmux's tty_invalidate
                self._winsz_resized = False  # redraws nothing (a pane holding a
                self.redraw(full=True)  # synchronized update stays held)
        return True

    def _update_features(self) -> None:
        """tty_update_features: ask the terminal for what the options want of it."""
        opts = self.server.options
        self.tty.write(tty_term.features_sequence(
            escapes.caps(self.server, self), opts.get("extended-keys") != "off",
            bool(opts.get("focus-events"))))

    def _reply(self, raw: bytes) -> bool:
        """A DA1, DA2 or XTVERSION answer (tty_keys_device_attributes, _attributes2 and
        _extended_): its features are the terminal's from now on, and everything is drawn
        again with them."""
        kind = "xda" if raw[1:2] == b"P" else "da1" if raw[2:3] == b"?" else "da"
        got = tty_term.reply_features(raw) if kind in self._awaiting else None
        if got is None:
            return False
        self._awaiting.discard(kind)
        self._da_seen = True
        if kind == "xda":
            self.keys.want_dcs = False
        bits, name = got
        c = self.client
        if name is not None:
            c.term_type = name
        c.features = (getattr(c, "features", 0) or 0) | bits
        self.term_caps = None
        self.renderer.set_caps(escapes.caps(self.server, self))
        self._update_features()
        self.redraw(full=True)
        return True

    async def _run(self) -> None:
        try:
            with self._cancel:
                async with trio.open_nursery() as nursery:
                    self._nursery = nursery
                    nursery.start_soon(self.tty.writer)
                    nursery.start_soon(self._drawer)
                    nursery.start_soon(self._worker)
                    await self._reader()
                    nursery.cancel_scope.cancel()
        except Exception:
            self.server.log_exception(f"attached client {self.client.name} failed")
        finally:
            self.tty.close_stream()  # only now: closing it under the reader would raise there
        if not self.stopped:
            # The terminal went away (EOF or error) without a detach: tmux's "lost tty".
            self.stop()
            self.server.client_lost_tty(self.client)

    def stop(self) -> None:
        """Give the terminal back; the caller tells the client why."""
        if self.stopped:
            return
        self.stopped = True
        escapes.cancel_requests(self.client)
        try:
            self.tty.write(escapes.leave_modes(self.server, self))  # cursor style and colour
            self.tty.write(tty_term.stop_sequence(escapes.caps(self.server, self)))
        except Exception:
            self.server.log_exception("restoring terminal modes failed")
        self.tty.stop()
        self._cancel.cancel()

    # -- drawing -------------------------------------------------------------------------------

    def redraw(self, full: bool = False, status: bool = True) -> None:
        if full:
            self.renderer.invalidate()
        elif status:
            self.renderer.status_changed()
        self._pending = True
        self._dirty.set()

    def pane_output(self, pane: Any) -> None:
        """A pane this client shows printed something: drawn now if a frame is due or it is
        the echo of a key just typed into that pane, else by the drawer at the next frame."""
        self._pending = True
        if not self.suspended and not self.tty.blocked:
            now = trio.current_time()
            if pane is self._echo_pane and now < self._echo_until:
                self._echo_pane = None
                self._draw(pane)  # the echo alone: a flooding pane beside it waits its frame
                w = pane.window
                if len(w.panes) > 1 and not w.zoomed:  # the other panes' rows are still due
                    self._pending = True
                    self._dirty.set()
                return
            if now >= self._next:
                self._draw()
                return
        self._dirty.set()

    async def _drawer(self) -> None:
        """Draw what changed, not more often than FRAME_INTERVAL; after dropped output, wait
        until the terminal reads again and draw everything."""
        while True:
            await self._dirty.wait()
            self._dirty = trio.Event()
            if self.tty.blocked:
                await self.tty.wait_unblocked()
                self.renderer.invalidate()
                self._pending = True
            # pane_output may draw while this sleeps, moving _next on: wait for the new one.
            while (wait := self._next - trio.current_time()) > 0:
                await trio.sleep(wait)
            if self._pending and not self.suspended:
                self._draw()

    def _draw(self, only: Any = None) -> None:
        self._pending = False
        self.server.ensure_plugins()  # a first frame shows the plugins' status line
        start = trio.current_time()
        try:
            data = escapes.client_title(self.server, self)  # set-titles, when it changed
            data += self._progress()
            data += self.renderer.frame(self.server, self.client, self.tty.sx, self.tty.sy,
                                        only)
            data += escapes.client_modes(self.server, self)  # the active pane's cursor, paste
        except Exception:
            self.server.log_exception("drawing failed")
            data = b""
        if self.renderer.held and self._nursery is not None and not self._sync_wait:
            self._sync_wait = True  # a synchronized update held a pane: its timeout redraws
            self._nursery.start_soon(self._sync_recheck)
        if data:
            self.tty.write(data)
            if self.tty.blocked:
                self._dirty.set()  # the drawer waits for the terminal, then draws whole
        now = trio.current_time()
        spent = now - start  # a slow first frame (terminfo, engine set-up) must not hold later ones
        self._next = now + min(max(FRAME_INTERVAL - spent, spent * (FRAME_COST - 1)), 0.1)

    async def _sync_recheck(self) -> None:
        """A pane's synchronized update held its drawing: look again a tenth of a second
        later, as the update ends by itself after a second (tmux's sync timer)."""
        await trio.sleep(0.1)
        self._sync_wait = False
        self._pending = True
        self._dirty.set()

    def _progress(self) -> bytes:
        """server_client_set_progress_bar: the active pane's OSC 9;4 progress bar, sent to a
        terminal with the progressbar feature when it changed."""
        s = self.client.session
        wp = s.curw.window.active if s is not None and s.curw is not None else None
        if wp is None:
            return b""
        scr = wp.screen
        pb = (getattr(scr, "progress_state", 0), getattr(scr, "progress", 0))
        if pb == self.progress_bar:
            return b""
        self.progress_bar = pb
        return tty_term.progress_sequence(escapes.caps(self.server, self), *pb)

    def resized(self) -> tuple[int, int]:
        size = self.tty.update_size()
        self.client.sx, self.client.sy = size
        if (not self.tty.xpixel or not self.tty.ypixel) and not self.winsz_query \
                and tty_term.FLAG_VT100 in escapes.caps(self.server, self):
            self.tty.write(b"\x1b[18t\x1b[14t")  # tty_resize: the terminal may say
            self.winsz_query = True
        self.repeat_requests(force=False)  # MSG_RESIZE: the colours may be asked again
        self.redraw(full=True)
        return size

    # -- input ---------------------------------------------------------------------------------

    async def _reader(self) -> None:
        stream = self.tty.stream
        assert stream is not None
        while True:
            if self.suspended:
                await self._resumed.wait()
                continue
            timeout = self._escape_time() if self.keys.pending else None
            data = b""
            with trio.CancelScope() as self._read_scope:
                if timeout is not None:
                    with trio.move_on_after(timeout):
                        data = await stream.receive_some(4096)
                        if not data:
                            return
                    keys = self.keys.feed(data, final=not data)
                else:
                    data = await stream.receive_some(4096)
                    if not data:
                        return
                    keys = self.keys.feed(data)
            if self._read_scope.cancelled_caught:
                continue  # suspended: the terminal's input is no longer ours
            # tmux runs its queue before it reads again: a binding an earlier read queued has
            # run, or is waiting as command-prompt does with its prompt open, before these
            # keys are looked at (they go to that prompt, not behind it in the queue).
            while self._inflight and not self._busy and not self.stopped:
                await trio.sleep(0)
            for key, raw in keys:
                self.input(key, raw)

    def input(self, key: int, raw: bytes) -> None:
        """server_client_handle_key: an overlay, then the prompt, see the key at once (the
        command that opened them may be waiting in the queue); otherwise it is queued."""

        c = self.client
        if key == K.KEYC_UNKNOWN and self._awaiting and self._reply(raw):
            return
        if self._terminal_answer(key, raw):
            return
        if c.session is None:
            return
        if key in (K.KEYC_FOCUS_IN, K.KEYC_FOCUS_OUT):
            c.focused = key == K.KEYC_FOCUS_IN  # then bindable like any key, as tmux
            if not c.focused:
                self.server.client_focus_changed(c)
            self.server.notify("client-focus-in" if c.focused else "client-focus-out",
                               {"client": c, "session": c.session})
            if c.focused:
                self.server.client_focus_changed(c)
        if key == K.KEYC_MOUSE:
            m = self.mouse.event(raw, self.keys.utf8_mouse)
            if m is not None:
                self.mouse_input(m, key)
            return
        if self._modal(key):
            return
        last, self.key_time = self.key_time, time.monotonic()
        if self._pasted(key) or (key not in (K.KEYC_FOCUS_IN, K.KEYC_FOCUS_OUT)
                                 and not key & K.KEYC_SENT
                                 and self._assume_paste(self.key_time - last)):
            # bracketed, or typed faster than anyone types: straight to the pane
            if self._busy or self._inflight:
                self._enqueue(("paste", raw))
            else:
                self._paste(raw)
            return
        if self._busy or self._inflight:
            self._enqueue(("key", key, raw))
            return
        # Nothing queued before it: walk the key tables now, so a key for the pane reaches
        # it without a task switch; only a binding's commands go through the queue.
        binding = self._walk(key, raw)
        if binding is not None:
            self._enqueue(("binding", binding, key))

    def _modal(self, key: int) -> bool:
        """A key clears a message; an overlay, then the prompt, take it if they want it.
        True when one did."""
        from .overlays import clear_overlay

        c = self.client
        if getattr(c, "readonly", False):
            return False
        if getattr(c, "message_text", None):
            c.message_text = None
            self.redraw()
        ov = getattr(c, "overlay", None)
        if ov is not None:
            r = ov.key(self.server, c, key)
            if r == 0:
                self.redraw()
                return True
            clear_overlay(self.server, c)
            if r == 1:
                return True
        p = getattr(c, "prompt", None)
        return p is not None and p.key(self.server, c, key) == 0

    def _pasted(self, key: int) -> bool:
        """server_client_is_bracket_paste: the terminal's paste markers start and end a paste
        (they go on as keys: a pane that asked for bracketed paste gets them); what comes
        between is pasted text, not keys for the key tables."""
        k = key & K.KEYC_MASK_KEY
        if k == K.KEYC_PASTE_START:
            self.bracket_pasting = True
            self.paste_time = time.monotonic()
            return False
        if k == K.KEYC_PASTE_END:
            self.bracket_pasting = False
            return False
        if self.bracket_pasting and time.monotonic() - self.paste_time > PASTE_TIME_LIMIT:
            self.bracket_pasting = False  # the end marker got lost (tmux 3.7: five seconds)
        return self.bracket_pasting

    def _assume_paste(self, gap: float) -> bool:
        """server_client_is_assume_paste: on a terminal that cannot bracket pastes, keys
        closer together than assume-paste-time after the first fast one are pasted text.
        tmux times keys as its queue takes them, right after reading them; hmux times them
        as they are read (its queue may run a binding between two keys of one read)."""
        s = self.client.session
        t = int(s.options.get("assume-paste-time") or 0)
        if self.bracket_pasting or t == 0 or "Enbp" in escapes.caps(self.server, self):
            return False
        if gap < t / 1000:
            if self.assume_pasting:
                return True
            self.assume_pasting = True
            return False
        self.assume_pasting = False
        return False

    def _paste(self, raw: bytes) -> None:
        """window_pane_paste: pasted bytes go to the active pane as they came (not to a pane
        in a mode; not from a read-only client)."""
        c = self.client
        s = c.session
        wp = s.curw.window.active if s is not None and s.curw is not None else None
        if wp is None or wp.modes or wp.dead or getattr(c, "readonly", False):
            return
        wp.write(raw)

    def mouse_input(self, m: MouseEvent, key: int) -> None:
        """server_client_handle_key for a mouse event (KEYC_MOUSE, or KEYC_DOUBLECLICK from
        the click timer): a message is cleared, a menu or the prompt sees it first; then it is
        checked in queue order."""
        c = self.client
        if c.session is None:
            return
        if not getattr(c, "readonly", False):
            if getattr(c, "message_text", None):
                c.message_text = None
                self.redraw()
            ov = getattr(c, "overlay", None)
            if ov is not None:
                # A menu takes the report as it came; other overlays drop it.
                fn = getattr(ov, "mouse", None)
                r = 0
                if fn is not None and key == K.KEYC_MOUSE:
                    try:
                        r = fn(self.server, c, m)
                    except Exception:
                        self.server.log_exception("overlay mouse failed")
                if r == 0:
                    self.redraw()
                    return
                from .overlays import clear_overlay

                clear_overlay(self.server, c)
                if r == 1:
                    return
            p = getattr(c, "prompt", None)
            if p is not None and p.key(self.server, c, key) == 0:
                return
        if self._busy or self._inflight:
            self._enqueue(("mouse", m, key))
            return
        got = self._mouse_key(m, key)
        if got is not None:
            self._enqueue(("mbinding", got[0], got[1:]))

    def _mouse_key(self, m: MouseEvent, key: int) -> tuple[Any, Any, MouseEvent] | None:
        """server_client_key_callback's mouse part: the event becomes a key (or goes to the
        drag in progress) and walks the key tables of the pane under the mouse; a binding
        found is returned with its target state and the event."""
        from . import mouse as M
        from . import target as T

        c = self.client
        s = c.session
        if s is None or getattr(c, "readonly", False):
            return None
        c.activity_time = time.time()
        key = self.mouse.check(self, m, key == K.KEYC_DOUBLECLICK)
        if key == K.KEYC_UNKNOWN:
            return None
        m.valid = True
        m.key = key
        if key & K.KEYC_MASK_KEY == K.KEYC_DRAGGING:
            update = self.mouse.drag_update
            if update is not None:
                try:
                    update(c, m)
                except Exception:
                    self.server.log_exception("mouse drag failed")
                self.redraw()
            return None
        fs = M.find_state(m) or T.from_client(self.server.model, c, 0)
        wp = fs.wp if fs is not None else None
        if not s.options.get("mouse"):
            M.pane_key(c, wp, key, m)
            return None
        binding = self._walk(key, b"", wp=wp, event=m)
        if binding is None:
            return None
        return binding, fs, m

    # The click timer (double and triple clicks) and copy mode's edge-scrolling drag timer.

    def arm_click_timer(self) -> None:
        self.cancel_click_timer()
        if self._nursery is None:
            return
        scope = self._click_scope = trio.CancelScope()
        self._nursery.start_soon(self._click_timer, scope)

    def cancel_click_timer(self) -> None:
        if self._click_scope is not None:
            self._click_scope.cancel()
            self._click_scope = None

    async def _click_timer(self, scope: trio.CancelScope) -> None:
        with scope:
            await trio.sleep(CLICK_TIMEOUT)
            self._click_scope = None
            try:
                self.mouse.click_expired(self)
            except Exception:
                self.server.log_exception("click timer failed")

    def arm_drag_timer(self, step: Any) -> None:
        """Call ``step`` every DRAG_REPEAT until it returns False or the timer is cancelled."""
        self.cancel_drag_timer()
        if self._nursery is None:
            return
        scope = self._drag_scope = trio.CancelScope()
        self._nursery.start_soon(self._drag_timer, scope, step)

    def cancel_drag_timer(self) -> None:
        if self._drag_scope is not None:
            self._drag_scope.cancel()
            self._drag_scope = None

    async def _drag_timer(self, scope: trio.CancelScope, step: Any) -> None:
        with scope:
            while True:
                await trio.sleep(DRAG_REPEAT)
                try:
                    if not step():
                        break
                except Exception:
                    self.server.log_exception("drag timer failed")
                    break
        if self._drag_scope is scope:
            self._drag_scope = None

    def status_range(self, x: int, row: int) -> tuple[str, int | str] | None:
        """status_get_range: the #[range=...] at column ``x`` of status row ``row``."""
        from .mouse import status_tags

        tags = status_tags(self.server, self.client, self.tty.sx, row)
        return tags[x] if x < len(tags) else None

    def queue_items(self, items: list[Any]) -> None:
        """Commands for this client, after what its keys queued before."""
        self._enqueue(("items", items))

    def _enqueue(self, entry: tuple) -> None:
        self._inflight += 1
        self._send.send_nowait(entry)

    async def _worker(self) -> None:
        from .commands.queue import run_items

        async for entry in self._queue:
            self._busy = True
            try:
                if entry[0] == "key":
                    await self.key(entry[1], entry[2])
                elif entry[0] == "paste":
                    self._paste(entry[1])
                elif entry[0] == "binding":
                    await self._run_binding(entry[1], key=entry[2])
                elif entry[0] == "mouse":
                    got = self._mouse_key(entry[1], entry[2])
                    if got is not None:
                        await self._run_binding(got[0], got[1], got[2])
                    else:
                        self.redraw()
                elif entry[0] == "mbinding":
                    await self._run_binding(entry[1], *entry[2])
                else:
                    await run_items(entry[1])
                    self.server.tick_second()
                    self.redraw()
            except Exception:
                self.server.log_exception("client queue failed")
            finally:
                self._busy = False
                self._inflight -= 1

    # -- suspend and lock ----------------------------------------------------------------------

    def suspend(self, after: bytes = b"") -> None:
        """tty_stop_tty without giving the terminal up: modes restored, no reading or
        drawing until ``resume`` (suspend-client, lock-command)."""
        if self.suspended or self.stopped:
            return
        self.suspended = True
        self._resumed = trio.Event()
        self._read_scope.cancel()
        self.tty.suspend(after)

    def resume(self) -> None:
        if not self.suspended or self.stopped:
            return
        self.suspended = False
        self.mouse_mode = 0  # tty_stop_tty turned the mouse off: ask for it again
        self.tty.resume()
        if tty_term.FLAG_VT100 in escapes.caps(self.server, self):
            self.tty.write(THEME_SUBSCRIBE)  # tty_start_tty again
        self._resumed.set()
        self.redraw(full=True)

    def _escape_time(self) -> float:
        """escape-time, at least half a second while the terminal's answers are awaited
        or a paste's end marker has come in part (tty_keys_next: an answer cut in two by a
        read must not turn into keys)."""
        try:
            t = int(self.server.options.get("escape-time")) / 1000.0
        except (KeyError, TypeError, ValueError):
            return 0.5
        if self.wait_colours or self._awaiting or getattr(self.client, "input_requests", None):
            t = max(t, 0.5)
        pending = self.keys.pending
        if self.bracket_pasting and pending and b"\x1b[201~".startswith(pending):
            t = max(t, 0.5)  # tmux 3.7: the rest of a paste's end marker is on its way
        return t

    async def key(self, key: int, raw: bytes) -> None:
        """One key from the terminal that waited behind earlier keys' commands: what those
        opened (a prompt, a menu) sees it first, as in tmux, whose queue has run before it
        reads on; then tmux's key-table walk, then the binding or the pane."""
        if self._modal(key):
            return
        binding = self._walk(key, raw)
        if binding is not None:
            await self._run_binding(binding, key=key)

    async def _run_binding(self, binding: Any, current: Any = None,
                           event: MouseEvent | None = None, key: int | None = None) -> None:
        from .keybindings import dispatch

        if key is None and event is not None:
            key = getattr(event, "key", None)  # a mouse binding's event is its key
        try:
            await dispatch(self.server, self.client, binding, current=current, event=event,
                           key=key)
        except Exception:
            self.server.log_exception("key binding failed")
        self.server.tick_second()
        self.redraw()

    def _walk(self, key: int, raw: bytes, wp: Any = None, event: MouseEvent | None = None
              ) -> Any:
        """The key-table walk for one key: a key no binding takes goes to the pane here; the
        binding found, if any, is returned for the caller to run. A mouse key (``event``)
        uses the mode table of the pane under the mouse, ``wp``, and goes to that pane."""
        from .keybindings import default_table, key_tables, set_client_table

        c = self.client
        s = c.session
        if s is None:
            return None
        c.activity_time = time.time()
        if key != K.KEYC_FOCUS_OUT:
            self.server.update_latest(c)
        if getattr(c, "message_text", None):  # a key clears a status message, as in tmux
            c.message_text = None
            self.redraw()
        table = self.tables.expire(self.server, c)
        if key == K.KEYC_UNKNOWN:  # a sequence we cannot name goes to the pane as it came
            if table != default_table(c):
                set_client_table(key_tables(self.server), c, None)
                self.redraw()
            else:
                self._to_pane(key, raw)
            return None
        if event is None:
            wp = s.curw.window.active if s.curw is not None else None
        mode_table = wp.modes[0].key_table() if wp is not None and wp.modes else None
        res = self.tables.walk(self.server, c, key, table, mode_table)
        if res.binding is not None:
            return res.binding
        if res.forward:
            if event is not None:
                from .mouse import pane_key

                pane_key(c, wp, key, event)
            else:
                self._to_pane(key, raw)
        if res.status:
            self.redraw()
        return None

    def _to_pane(self, key: int, raw: bytes) -> None:
        s = self.client.session
        wp = s.curw.window.active if s is not None and s.curw is not None else None
        if wp is not None and wp.modes:  # a mode takes the keys no binding took
            wp.modes[0].key(self.client, key)
            return
        if wp is None or wp.dead:
            if wp is not None and wp.options.get("remain-on-exit") == "key" \
                    and not K.is_paste_key(key):
                # remain-on-exit key: a key pressed in the dead pane closes it.
                wp.options.set("remain-on-exit", "off")
                self.server.kill_pane(wp)
            return
        self._echo_pane = wp
        self._echo_until = trio.current_time() + ECHO_WINDOW
        scr = wp.screen
        data = None
        if key != K.KEYC_UNKNOWN:
            data = K.encode_key(key, **K.pane_modes(scr, self.server.options))
        wp.typed()
        wp.write(data if data is not None else raw)

