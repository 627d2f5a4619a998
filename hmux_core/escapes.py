"""What the server does with what a pane's program asked of its terminal.

The emulator only parses; these are the effects tmux gives the sequences that reach beyond
the pane (input.c, server-client.c, tty.c): ``ESC k name ST`` renames the window when
allow-rename is on, OSC 52 becomes a paste buffer and a clipboard write on the clients'
terminals when set-clipboard is on, ``DCS tmux; ... ST`` goes to the terminals of the clients
showing the pane when allow-passthrough is on, OSC 10/11/52 queries are answered from the pane's
styles and the top buffer, set-titles puts set-titles-string on the client's terminal, and the
active pane's cursor style and cursor colour are mirrored there (tty_update_mode), as are the
mouse modes the client's terminal is asked for. What only a client's terminal can answer, a
palette entry no one set and (get-clipboard request or both) the clipboard, is asked of it,
the pane's later answers waiting behind (input_add_request); panes with mode 2031 are told
when their theme changes. tmux 3.7b throughout.
"""

from __future__ import annotations

import base64
import binascii
import re
import time
from typing import Any

from . import mouse, tty_term
from .options import COLOUR_FLAG_THEME

_B64 = re.compile(rb"[A-Za-z0-9+/]*={0,2}")


def attach(server: Any, pane: Any) -> None:
    """Give the pane's emulator the answers only the server has (optional engine hooks)."""
    _SERVER[:] = [server]
    scr = pane.screen
    try:
        scr.default_colours = lambda fg, bg: default_colours(pane, fg, bg)
        scr.clipboard_query = lambda: clipboard_query(server)
        scr.client_colours = lambda: client_colours(server, pane)
        scr.theme_query = lambda: pane_theme(server, pane)
        scr.terminal_request = lambda kind, idx, bel: terminal_request(server, pane, kind, idx,
                                                                       bel)
    except AttributeError:  # an engine without the hooks leaves those queries unanswered
        pass
    pane.reply_hold = hold_replies
    sync_options(pane)


#: Options the emulator itself applies (options_push_changes).
SCREEN_OPTIONS = ("alternate-screen", "scroll-on-clear", "pane-colours", "allow-set-title",
                  "cursor-style", "cursor-colour", "extended-keys",
                  "variation-selector-always-wide", "codepoint-widths", "input-buffer-size")


def sync_options(pane: Any) -> None:
    """Copy into the pane's emulator the options it applies itself: alternate-screen,
    scroll-on-clear, pane-colours (the default palette OSC 4 queries and drawing fall back to),
    allow-set-title, cursor-style and cursor-colour (DECRQM/DECRQSS and OSC 12 answers),
    extended-keys; and the server's Unicode width options, which all panes share."""
    from .options import colour_fromstring
    from .screen.cells import set_codepoint_widths
    from .screen.combine import set_variation_selector_always_wide

    scr = pane.screen
    o = pane.options
    so = _SERVER[0].options if _SERVER else None
    try:
        scr.alternate_screen = bool(o.get("alternate-screen"))
        scr.scroll_on_clear = bool(o.get("scroll-on-clear"))
        colours = o.get_array("pane-colours") or {}
        palette = {}
        for idx, value in colours.items():
            c = value if isinstance(value, int) else colour_fromstring(str(value))
            if 0 <= int(idx) < 256 and c != -1:
                palette[int(idx)] = c
        scr.default_palette = palette
        scr.allow_set_title = bool(o.get("allow-set-title"))
        scr.default_cursor_style = _STYLES.get(str(o.get("cursor-style")), 0)
        scr.default_cursor_colour = _cursor_colour_option(o, "cursor-colour")
        if so is not None:
            scr.extended_keys_option = _choice(so.get("extended-keys"), ("off", "on", "always"))
            if hasattr(scr, "input_buffer_size"):
                scr.input_buffer_size = int(so.get("input-buffer-size"))
            set_variation_selector_always_wide(bool(so.get("variation-selector-always-wide")))
            widths = so.get_array("codepoint-widths") or {}
            entries = [str(v) for _, v in sorted(widths.items())]
            if entries != _WIDTHS_APPLIED:
                _WIDTHS_APPLIED[:] = entries
                set_codepoint_widths(entries)
    except (AttributeError, KeyError):
        pass


_WIDTHS_APPLIED: list[str] = []
#: The server (one a process), for the server options sync_options applies.
_SERVER: list[Any] = []


def _choice(value: Any, choices: tuple[str, ...]) -> int:
    if isinstance(value, int):
        return value
    return choices.index(str(value)) if str(value) in choices else 0


def update_history(server: Any) -> None:
    """session_update_history for every session (tmux 3.7b applies a changed history-limit to
    the panes that exist): each pane's limit, and its oldest lines dropped beyond it."""
    for s in server.model.sorted_sessions():
        limit = int(s.options.get("history-limit"))
        for wl in s.sorted_winlinks():
            for pane in wl.window.panes:
                apply = getattr(pane.screen, "apply_history_limit", None)
                if apply is not None:
                    apply(limit)
                else:
                    pane.screen.history_limit = limit


def send_theme_updates(server: Any) -> None:
    """window_pane_send_theme_update for every pane: a pane with mode 2031 on whose theme
    changed since its last report gets ``CSI ? 997 ; 1|2 n``. For the server to call when a
    client's terminal reports its theme or colours, or styles change (PANE_THEMECHANGED)."""
    for pane in list(server.model.panes.values()):
        pane_theme_changed(pane)


def pane_theme_changed(pane: Any) -> None:
    """PANE_THEMECHANGED and the server loop's window_pane_send_theme_update for one pane:
    with mode 2031 on and a theme other than the one it was last told, ``CSI ? 997 ; 1|2 n``."""
    scr = pane.screen
    send = getattr(scr, "send_theme_update", None)
    if send is None:
        return
    scr.theme_changed = True
    report = send()
    if report:
        pane.write(report)


def client_colours(server: Any, pane: Any) -> tuple[int, int]:
    """window_pane_get_fg / window_get_bg_client: the colours the terminal of an attached
    client showing the pane's window reported (-1 when none did)."""
    fg = bg = -1
    w = pane.window
    for c in server.clients:
        s = c.session
        if s is None or not s.has_window(w) or c.exiting:
            continue
        if getattr(c, "control_state", None) is not None:
            cfg = cbg = 0  # tmux never asks a control client's terminal: its colours read 0
        elif getattr(c, "attached", None) is None:
            continue
        else:
            cfg, cbg = getattr(c, "tty_fg", -1), getattr(c, "tty_bg", -1)
        if fg == -1:
            fg = cfg
        if bg == -1:
            bg = cbg
    return fg, bg


def colour_theme(c: int) -> int:
    """colour_totheme as the report numbers it: 1 dark, 2 light, 0 unknown."""
    from .screen.cells import COLOUR_FLAG_256, COLOUR_FLAG_RGB

    if c is None or c < 0:
        return 0
    if c & COLOUR_FLAG_RGB or c & COLOUR_FLAG_256 or 0 <= c <= 7 or 90 <= c <= 97:
        rgb = _rgb(c)
        if rgb < 0:
            return 0
        return 2 if (rgb >> 16) + ((rgb >> 8) & 0xFF) + (rgb & 0xFF) > 382 else 1
    return 0


def pane_theme(server: Any, pane: Any) -> int:
    """window_pane_get_theme: from the pane's background if it is not the default, else the
    theme the terminals of the window's clients reported when they all agree."""
    scr = pane.screen
    bg = getattr(scr, "default_bg", 8)
    bg = default_colours(pane, getattr(scr, "default_fg", 8), bg)[1]
    if bg in (8, 9):
        bg = client_colours(server, pane)[1]
    theme = colour_theme(bg)
    if theme:
        return theme
    seen = set()
    w = pane.window
    for c in server.clients:
        s = c.session
        if getattr(c, "attached", None) is None or s is None or not s.has_window(w):
            continue
        t = _THEME_NUMBERS.get(getattr(c, "theme", None), 0)
        if t:
            seen.add(t)
    return seen.pop() if len(seen) == 1 else 0


#: A client's theme (``client.theme``, as #{client_theme} shows it) as the reports number it.
_THEME_NUMBERS = {"dark": 1, "light": 2, 1: 1, 2: 2}


def session_theme_changed(server: Any, session: Any) -> None:
    """session_theme_changed and the server loop's window_pane_send_theme_update after it: a
    client of ``session`` told its terminal's colours, so every pane of the session with mode
    2031 on whose theme is no longer the one it was told gets ``CSI ? 997 ; 1|2 n``."""
    if session is None:
        return
    for wl in session.sorted_winlinks():
        for pane in list(wl.window.panes):
            pane_theme_changed(pane)


def default_colours(pane: Any, fg: int, bg: int) -> tuple[int, int]:
    """tty_default_colours: window-active-style (active pane) or window-style over the palette."""
    def over(name: str) -> tuple[int, int]:
        st = pane.options.get_style(name)
        if st is None:
            return fg, bg
        return (st.fg if st.fg != 8 else fg, st.bg if st.bg != 8 else bg)

    plain = over("window-style")
    if pane.window.active is pane:
        active = over("window-active-style")
        plain = (active[0] if active[0] != 8 else plain[0],
                 active[1] if active[1] != 8 else plain[1])
    # window_pane_get_fg/bg_control_client: colours a control client reported for the pane
    # (refresh-client -r) answer first while any control client is attached.
    cfg, cbg = getattr(pane, "control_fg", -1), getattr(pane, "control_bg", -1)
    if (cfg != -1 or cbg != -1) and _SERVER and any(
            getattr(c, "control_state", None) is not None for c in _SERVER[0].clients):
        plain = (cfg if cfg != -1 else plain[0], cbg if cbg != -1 else plain[1])
    return plain


def clipboard_query(server: Any) -> bytes | None:
    """What an OSC 52 query is answered with (tmux 3.7b): set-clipboard must be on, and with
    get-clipboard ``buffer`` the newest paste buffer, if there is one. ``request`` and ``both``
    ask a client's terminal instead (``terminal_request``): None here."""
    if str(server.options.get("set-clipboard")) != "on":
        return None
    try:
        mode = str(server.options.get("get-clipboard"))
    except (KeyError, ValueError):
        mode = "buffer"
    if mode != "buffer":
        return None
    top = server.buffers.top()
    return top.data if top is not None else None


# -- questions a pane's program asks that only a client's terminal can answer -------------------
#
# tmux 3.7b's input_add_request and input_request_reply: an OSC 4 query for a palette entry
# neither the pane nor pane-colours set, and an OSC 52 query with get-clipboard request or
# both, are asked of the terminal of the most recently active client showing the pane's window.
# Until the answer comes (or INPUT_REQUEST_TIMEOUT passes), the pane's later answers wait behind
# it, so a program reads its answers in the order it asked.

#: INPUT_REQUEST_TIMEOUT: an unanswered request, and an answer waiting behind one, goes then.
REQUEST_TIMEOUT = 0.5
#: Answers tmux sends at once even with requests waiting (input_reply's add 0 and the OSC 52
#: answers from a buffer): theme reports and clipboard contents.
_UNQUEUED = re.compile(rb"\x1b\[\?997;[12]n|\x1b\]52;[^\x07\x1b]*(?:\x07|\x1b\\)")


class Request:
    """input_request: a question asked of ``client``'s terminal for ``pane`` (``palette``,
    ``clipboard``), or an answer of the pane's own waiting behind one (``queue``)."""

    __slots__ = ("kind", "pane", "client", "time", "bel", "idx", "data")

    def __init__(self, kind: str, pane: Any, client: Any = None, bel: bool = False,
                 idx: int = 0, data: bytes = b"") -> None:
        self.kind, self.pane, self.client = kind, pane, client
        self.bel, self.idx, self.data = bel, idx, data
        self.time = time.monotonic()


def _requests(obj: Any) -> list[Request]:
    got = getattr(obj, "input_requests", None)
    if got is None:
        got = obj.input_requests = []
    return got


def terminal_request(server: Any, pane: Any, kind: str, idx: int, bel: bool) -> None:
    """input_add_request for the pane's emulator: ask a client's terminal for palette entry
    ``idx`` (``palette``) or for its clipboard (``clipboard``: only with set-clipboard on and
    get-clipboard request or both). Nothing is asked when no client shows the pane."""
    if kind == "clipboard" and (str(server.options.get("set-clipboard")) != "on" or str(
            server.options.get("get-clipboard")) not in ("request", "both")):
        return
    c = _request_client(server, pane)
    if c is None:
        return
    early = pane.screen.take_replies()  # what the pane asked before this is answered first
    if early:
        pane.write(hold_replies(pane, early))
    r = Request(kind, pane, c, bel, idx)
    _requests(pane).append(r)
    _requests(c).append(r)
    a = c.attached
    if kind == "palette":
        a.tty.write(b"\x1b]4;%d;?\x1b\\" % idx)
    else:
        ms = caps(server, a).get("Ms")
        if ms:
            a.tty.write(ms.replace("%p1%s", "", 1).replace("%p2%s", "?", 1)
                        .encode("latin-1", "replace"))
    _start_request_timer(server, pane)


def _request_client(server: Any, pane: Any) -> Any:
    """The attached client showing the pane's window whose terminal is started, the most
    recently active first."""
    best = None
    w = pane.window
    for c in server.clients:
        a = getattr(c, "attached", None)
        s = c.session
        if a is None or s is None or not s.has_window(w) or c.exiting:
            continue
        if getattr(a, "suspended", False) or getattr(a, "stopped", False) or a.tty.closed:
            continue
        if best is None or c.activity_time > best.activity_time:
            best = c
    return best


def hold_replies(pane: Any, data: bytes) -> bytes:
    """input_reply: the pane's answers wait behind its requests to clients' terminals (theme
    reports and clipboard contents do not); what may go now is returned."""
    reqs = getattr(pane, "input_requests", None)
    if not reqs or not data:
        return data
    now = []
    pos = 0
    for m in _UNQUEUED.finditer(data):
        if m.start() > pos:
            reqs.append(Request("queue", pane, data=data[pos:m.start()]))
        now.append(m.group(0))
        pos = m.end()
    if pos < len(data):
        reqs.append(Request("queue", pane, data=data[pos:]))
    return b"".join(now)


def _free(r: Request) -> None:
    """input_free_request."""
    if r.client is not None:
        try:
            r.client.input_requests.remove(r)
        except ValueError:
            pass
    try:
        r.pane.input_requests.remove(r)
    except ValueError:
        pass


def _start_request_timer(server: Any, pane: Any) -> None:
    if getattr(pane, "request_timer", False) or server.nursery is None:
        return
    pane.request_timer = True
    server.nursery.start_soon(_request_timer, pane)


async def _request_timer(pane: Any) -> None:
    """input_request_timer_callback, every tenth of a second while requests wait: one older
    than REQUEST_TIMEOUT is dropped, an answer waiting that long is sent."""
    import trio

    try:
        while pane.input_requests:
            await trio.sleep(0.1)
            old = time.monotonic() - REQUEST_TIMEOUT
            for r in list(pane.input_requests):
                if r.time >= old:
                    continue
                if r.kind == "queue":
                    pane.write(r.data)
                _free(r)
    finally:
        pane.request_timer = False


def request_reply(client: Any, kind: str, idx: int, colour: int = -1, clip: str = "",
                  data: bytes = b"") -> None:
    """input_request_reply: the terminal of ``client`` answered (an OSC 4 ``palette`` entry
    ``idx`` with ``colour``, or its ``clipboard``). The first request it answers gets the
    answer; requests of other kinds asked before it are dropped; the pane's answers waiting
    up to the next request are sent in order around it."""
    found = None
    for r in list(_requests(client)):
        if r.kind != kind or (kind == "palette" and r.idx != idx):
            _free(r)
            continue
        found = r
        break
    if found is None:
        return
    pane = found.pane
    complete = False
    for r in list(pane.input_requests):
        if complete and r.kind != "queue":
            break
        if r.kind == "queue":
            pane.write(r.data)
        elif r is found:
            pane.write(_palette_answer(idx, colour, r.bel) if kind == "palette"
                       else _clipboard_answer(client.server, clip, data, r.bel))
            complete = True
        _free(r)


def cancel_requests(client: Any) -> None:
    """input_cancel_requests: the client is gone; its questions are no longer waited for."""
    for r in list(getattr(client, "input_requests", None) or ()):
        _free(r)


def _palette_answer(idx: int, colour: int, bel: bool) -> bytes:
    """input_osc_colour_reply for OSC 4."""
    rgb = _rgb(colour)
    if rgb == -1:
        return b""
    r, g, b = (rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF
    end = "\007" if bel else "\033\\"
    return f"\033]4;{idx};rgb:{r:02x}{r:02x}/{g:02x}{g:02x}/{b:02x}{b:02x}{end}".encode()


def _clipboard_answer(server: Any, clip: str, data: bytes, bel: bool) -> bytes:
    """input_request_clipboard_reply: with get-clipboard request or both the terminal's
    clipboard goes to the pane (both: into a new paste buffer too)."""
    mode = str(server.options.get("get-clipboard"))
    if mode not in ("request", "both"):
        return b""
    if mode == "both":
        server.buffers.add(data)
    end = b"\007" if bel else b"\033\\"
    return b"\033]52;" + clip.encode("latin-1") + b";" + base64.b64encode(data) + end


def apply(server: Any, pane: Any, name: str, value: Any) -> None:
    """One event from the pane's emulator (the bell and title events stay with the server)."""
    if name == "rename":
        rename(server, pane, value)
    elif name == "clipboard":
        clipboard(server, pane, value)
    elif name == "passthrough":
        allow = pane.options.get("allow-passthrough")
        if allow in ("on", "all", 1, 2, True):
            # "all": panes out of sight too (screen_write_rawstring's allow_invisible_panes)
            for a in viewers(server, pane, invisible=allow in ("all", 2)):
                a.tty.write(value)
    elif name == "progress":
        server.redraw_clients(pane.window)  # pane_pb_* in the status line and borders
    elif name == "sync":
        if not value:  # the end of an update redraws the pane (PANE_REDRAW)
            server.redraw_clients(pane.window)
    elif name == "osc133":  # shell integration beyond 3.7b: times, status, events
        from .shell import osc133

        osc133(server, pane, value)



def rename(server: Any, pane: Any, name: str) -> None:
    """input_exit_rename: the window's name, or back to automatic naming for an empty one."""
    if not pane.options.get("allow-rename"):
        return
    w = pane.window
    if not name:
        if w.options.has_local("automatic-rename"):
            w.options.unset("automatic-rename")
        if not w.options.get("automatic-rename"):
            w.name = ""
        else:
            return
    else:
        w.options.set("automatic-rename", False)
        w.name = name
    server.notify("window-renamed", {"window": w})
    server.redraw_clients(w)


def decode_clipboard(payload: str) -> bytes | None:
    """input_osc_52's decoding: ``Pc;data``, data base64 as b64_pton takes it (spaces skipped)."""
    data = payload.partition(";")[2]
    raw = re.sub(r"\s", "", data).encode("latin-1", "replace")
    if (len(data) // 4) * 3 == 0 or not _B64.fullmatch(raw):
        return None
    try:
        out = base64.b64decode(raw + b"=" * (-len(raw) % 4))
    except (binascii.Error, ValueError):
        return None
    return out if len(out) <= (len(data) // 4) * 3 else None


def clipboard_data(server: Any, payload: str) -> bytes | None:
    """What an OSC 52 payload sets, when set-clipboard lets programs set it."""
    if str(server.options.get("set-clipboard")) != "on":
        return None
    return decode_clipboard(payload)


def clipboard(server: Any, pane: Any, payload: str) -> None:
    """OSC 52 with set-clipboard on: the terminals of the pane's clients, a hook, a buffer."""
    data = clipboard_data(server, payload)
    if data is None:
        return
    set_selection(server, data, viewers(server, pane))
    server.notify("pane-set-clipboard", {"pane": pane})
    server.buffers.add(data)


def set_selection(server: Any, data: bytes, clients: list[Any]) -> None:
    """tty_set_selection on each client whose terminal has Ms."""
    for a in clients:
        seq = tty_term.selection_sequence(caps(server, a), data)
        if seq is not None:
            a.tty.write(seq)


def viewers(server: Any, pane: Any, invisible: bool = False) -> list[Any]:
    """The attached clients that show ``pane`` now (tty_write's screen_write_set_client_cb);
    with ``invisible``, every attached client whose session holds the pane's window."""
    out = []
    w = pane.window
    for c in server.clients:
        a = getattr(c, "attached", None)
        s = c.session
        if a is None or s is None or s.curw is None:
            continue
        if getattr(a, "suspended", False) or a.tty.closed:
            continue
        if invisible:
            if not s.has_window(w):
                continue
        elif s.curw.window is not w or (w.zoomed and w.active is not pane):
            continue
        out.append(a)
    return out


def caps(server: Any, attached: Any) -> dict[str, str]:
    """The client's terminal capabilities, worked out once per attach."""
    got = getattr(attached, "term_caps", None)
    if got is None:
        c = attached.client
        feats = server.options.get_array("terminal-features") or {}
        overrides = server.options.get_array("terminal-overrides") or {}
        env = getattr(c, "environ", None)
        got = tty_term.capabilities(getattr(c, "term", "") or "unknown", list(feats.values()),
                                    getattr(c, "features", 0) or 0, list(overrides.values()),
                                    env.get("COLORTERM") if env is not None else None)
        attached.term_caps = got
    return got


def client_title(server: Any, attached: Any) -> bytes:
    """server_client_set_title and _set_path: set-titles-string, and the active pane's OSC 7
    directory for a terminal with the osc7 feature, each sent when it changed."""
    c = attached.client
    s = c.session
    if s is None or s.curw is None or not s.options.get("set-titles"):
        return b""
    from .format import EXPAND_TIME, expand
    from .formats_vars import context_for

    wp = s.curw.window.active
    ctx = context_for(server, c, s, s.curw, wp)
    title = expand(str(s.options.get("set-titles-string")), ctx, flags=EXPAND_TIME)
    out = b""
    if title != getattr(attached, "title", None):
        attached.title = title
        out = tty_term.title_sequence(caps(server, attached), title) or b""
    path = (getattr(wp.screen, "path", "") or "") if wp is not None else ""
    if path != getattr(attached, "path", None):
        attached.path = path
        out += tty_term.path_sequence(caps(server, attached), path) or b""
    return out


def client_modes(server: Any, attached: Any) -> bytes:
    """tty_update_cursor / tty_update_mode for the active pane: what changed since last time.

    What was set is remembered on ``attached`` and undone by ``leave_modes`` on detach.
    """
    c = attached.client
    s = c.session
    wp = s.curw.window.active if s is not None and s.curw is not None else None
    if wp is None:
        return b""
    scr = wp.screen
    cp = caps(server, attached)
    out = []
    prompt = getattr(c, "prompt", None)
    if prompt is not None:  # the status line's prompt has the cursor (prompt-cursor-*)
        colour = _cursor_colour_option(s.options, "prompt-cursor-colour")
    else:
        colour = getattr(scr, "cursor_colour", -1)
        if colour == -1:
            if "#{" in str(wp.options.get("cursor-colour")):
                # expanded when the pane was made or the option set (sync_options), as the
                # development tree keeps it in the screen's default cursor colour
                colour = getattr(scr, "default_cursor_colour", -1)
            else:
                colour = _cursor_colour_option(wp.options, "cursor-colour")
    if colour > 0 and colour & COLOUR_FLAG_THEME:  # tty_force_cursor_colour: the client's
        from .themes import theme_colour

        colour = theme_colour(server, c, colour & 0xFF)
    rgb = _rgb(colour)
    if rgb != getattr(attached, "ccolour", -1):
        if rgb == -1:
            out.append(cp.get("Cr", ""))
        elif "Cs" in cp:
            text = f"rgb:{rgb >> 16:02x}/{(rgb >> 8) & 0xFF:02x}/{rgb & 0xFF:02x}"
            out.append(tty_term.param(cp["Cs"], text))
        attached.ccolour = rgb
    style = getattr(scr, "cursor_style", 0)
    if prompt is not None:
        name = ("prompt-command-cursor-style" if getattr(prompt, "command_mode", False)
                else "prompt-cursor-style")
        n = _STYLES.get(str(s.options.get(name)), 0)
    elif style:
        n = ((style + 1) // 2) * 2 - (1 if getattr(scr, "cursor_blinking", False) else 0)
    else:
        n = _STYLES.get(str(wp.options.get("cursor-style")), 0)
    if n != getattr(attached, "cstyle", 0):
        if n == 0:
            out.append(cp["Se"] if "Se" in cp else tty_term.param(cp.get("Ss", ""), 0))
        elif "Ss" in cp:
            out.append(tty_term.param(cp["Ss"], n))
        attached.cstyle = n
    # tmux 3.7b no longer mirrors a pane's bracketed paste mode (2004): it turns it on for the
    # whole terminal when it starts and brackets pastes for the panes that asked itself
    mode = mouse.terminal_mode(server, c, wp)
    if mode != getattr(attached, "mouse_mode", 0):
        if "kmous" in cp:  # as tmux: only a terminal that has mouse reports is asked
            out.append(mouse.mode_sequence(mode))
        attached.mouse_mode = mode
    return "".join(out).encode("latin-1", "replace")


def leave_modes(server: Any, attached: Any) -> bytes:
    """tty_stop_tty's part, in its order: cursor style and colour as they were, then bracketed
    paste off (tmux 3.7b sends Dsbp whatever the panes asked)."""
    cp = caps(server, attached)
    out = ""
    if getattr(attached, "cstyle", 0):
        out += cp["Se"] if "Se" in cp else tty_term.param(cp.get("Ss", ""), 0)
    if getattr(attached, "ccolour", -1) != -1:
        out += cp.get("Cr", "")
    out += cp.get("Dsbp", "")
    return out.encode("latin-1", "replace")


_STYLES = {"default": 0, "blinking-block": 1, "block": 2, "blinking-underline": 3,
           "underline": 4, "blinking-bar": 5, "bar": 6}


def _cursor_colour_option(oo: Any, name: str) -> int:
    """cursor-colour or prompt-cursor-colour as a colour code (-1 for the terminal's own): a
    format is expanded as the development tree expands these, in a bare format tree (global
    options only, no client, session or pane), and what does not parse is the default."""
    from .options import colour_option

    def expand(text: str) -> str:
        from . import format as F
        from .formats_vars import ModelContext

        if not _SERVER:
            return text
        return F.expand(text, ModelContext(_SERVER[0], None, None, None, None))
    try:
        return colour_option(oo, name, expand)
    except (KeyError, AttributeError):
        return -1


def _rgb(c: int) -> int:
    """colour_force_rgb: -1 stays -1 (no colour)."""
    if c is None or c < 0:
        return -1
    from .screen.screen import _force_rgb

    return _force_rgb(c)
