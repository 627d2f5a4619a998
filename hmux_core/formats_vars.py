"""tmux's format variables over hmux's model, and the context the format expander reads.

Lookup order is tmux's ``format_find``: options (server, pane, window, global window, session,
global session), then this variable table, then extra entries (``hook_*``, loop state), then plugin
variables, then the session and global environment. Each variable is a small function of the
context so a format only pays for what it names.
"""

from __future__ import annotations

import functools
import os
import pwd
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import format as F
from .options import option_string
from .version import TMUX_VERSION as VERSION

if TYPE_CHECKING:
    from .model import Session, Window, Winlink
    from .pane import Pane
    from .server import ClientConn, Server

FORMAT_TYPE_UNKNOWN, FORMAT_TYPE_SESSION, FORMAT_TYPE_WINDOW, FORMAT_TYPE_PANE = range(4)

#: Plugin lookup hook: (context, name) -> str | None. Installed by the plugin layer.
plugin_lookup: Callable[[ModelContext, str], str | None] | None = None


def _b(flag: bool) -> str:
    return "1" if flag else "0"


class ModelContext:
    """A FormatContext for one (client, session, winlink, pane) tuple."""

    __slots__ = ("server", "c", "s", "wl", "w", "wp", "type", "extra", "_cache", "issuer")

    def __init__(self, server: Server, c: ClientConn | None, s: Session | None,
                 wl: Winlink | None, wp: Pane | None, extra: dict[str, str] | None = None) -> None:
        self.server = server
        self.c = c
        if wp is not None:
            self.type = FORMAT_TYPE_PANE
        elif wl is not None:
            self.type = FORMAT_TYPE_WINDOW
        elif s is not None:
            self.type = FORMAT_TYPE_SESSION
        else:
            self.type = FORMAT_TYPE_UNKNOWN
        if s is None and c is not None:
            s = c.session
        if wl is None and s is not None:
            wl = s.curw
        if wp is None and wl is not None:
            wp = wl.window.active
        self.s, self.wl, self.wp = s, wl, wp
        self.w = wl.window if wl is not None else (wp.window if wp is not None else None)
        self.extra = extra or {}
        self._cache: dict[str, str | None] = {}
        #: The client whose command is expanding (tmux keys #() jobs by it).
        self.issuer: Any = None

    # -- FormatContext -----------------------------------------------------------------------------

    def lookup(self, name: str) -> str | None:
        cache = self._cache
        if name in cache:
            return cache[name]
        value = self._lookup(name)
        cache[name] = value
        return value

    def _lookup(self, name: str) -> str | None:
        value = self._option(name)
        if value is not None:
            return value
        fn = VARIABLES.get(name)
        if fn is not None:
            return fn(self)
        if name in self.extra:
            return self.extra[name]
        if plugin_lookup is not None:
            value = plugin_lookup(self, name)
            if value is not None:
                return value
        env = None
        if self.s is not None:
            env = self.s.environ.get(name)
        if env is None:
            env = self.server.environ.get(name)
        return env

    def _option(self, name: str) -> str | None:
        if not name or not (name[0] == "@" or "-" in name or name in _PLAIN_OPTION_NAMES
                            or "[" in name):
            return None
        srv = self.server
        scopes = [srv.options]
        if self.wp is not None:
            scopes.append(self.wp.options)
        if self.w is not None:
            scopes.append(self.w.options)
        scopes.append(srv.window_options)
        if self.s is not None:
            scopes.append(self.s.options)
        scopes.append(srv.session_options)
        for opts in scopes:
            value = option_string(opts, name)
            if value is not None:
                return value
        return None

    def loop_sessions(self) -> list[tuple[ModelContext, bool]]:
        """Every session; the current one is the client's (none without a client)."""
        cs = self.c.session if self.c is not None else None
        out = []
        for s in self.server.model.sorted_sessions():
            out.append((ModelContext(self.server, self.c, s, None, None, self.extra),
                        cs is not None and s is cs))
        return out

    def loop_clients(self) -> list[ModelContext]:
        """``#{L:}``: attached clients, each with this context's session, window and pane."""
        out = []
        for c in self.server.clients:
            if c.session is None or getattr(c, "is_config", False):
                continue
            ctx = ModelContext(self.server, c, self.s, self.wl, self.wp, self.extra)
            out.append(ctx)
        return out

    def window_user_options(self) -> dict[str, str]:
        """The window's own @options (not inherited), for a W: loop's next_/prev_ variables."""
        if self.w is None:
            return {}
        out = {}
        oo = self.w.options
        # Only @names: no walk over the option table per window of a W: loop.
        for name in sorted(n for n in oo._values if n.startswith("@")):
            value = oo.to_string(name, numeric=True, local=True)
            if value is not None:
                out[name] = value
        return out

    def loop_windows(self) -> list[tuple[ModelContext, bool]] | None:
        if self.s is None:
            return None
        out = []
        for wl in self.s.sorted_winlinks():
            out.append((ModelContext(self.server, self.c, self.s, wl, None, self.extra),
                        wl is self.s.curw))
        return out

    def loop_panes(self) -> list[tuple[ModelContext, bool]] | None:
        if self.w is None or self.wl is None:
            return None
        out = []
        for p in self.w.panes:
            out.append((ModelContext(self.server, self.c, self.s, self.wl, p, self.extra),
                        p is self.w.active))
        return out

    def search_pane(self, pattern: str, regex: bool, ignore_case: bool) -> int | None:
        if self.wp is None:
            return None
        return self.wp.screen.search(pattern, regex, ignore_case)

    def session_exists(self, name: str) -> bool:
        return name in self.server.model.sessions

    def window_exists(self, name: str) -> bool | None:
        if self.s is None:
            return None
        return any(wl.window.name == name for wl in self.s.windows.values())

    def run_job(self, command: str) -> str:
        issuer = self.issuer
        if issuer is not None and not getattr(issuer, "is_config", False):
            if issuer.jobs is None:
                from .jobs import FormatJobs

                issuer.jobs = FormatJobs(self.server)
            jobs = issuer.jobs
        else:
            jobs = self.server.jobs
        return jobs.run_format_job(command, self)

    def now(self) -> float:
        return time.time()

    def loop_options(self, flags: str) -> list[dict[str, str]] | None:
        """``#{O:...}`` (the development tree's format_loop_options): each option of a store
        in name order, an array's items one by one. Flags: v the server's, g a global store,
        w window, s session (the default), p pane."""
        from .options_table import OPTIONS_BY_NAME

        srv = self.server
        flags = flags or "s"
        oo: Any = None
        if "v" in flags:
            oo = srv.options
        else:
            glob = "g" in flags
            if "w" in flags:
                oo = srv.window_options if glob else (self.w.options if self.w else None)
            elif "s" in flags:
                oo = srv.session_options if glob else (self.s.options if self.s else None)
            elif "p" in flags:
                oo = None if glob else (self.wp.options if self.wp else None)
            elif glob:
                oo = srv.session_options
        if oo is None:
            return None
        names = sorted(oo._values, key=lambda n: n.encode("utf-8", "surrogateescape"))
        out: list[dict[str, str]] = []
        for k, name in enumerate(names):
            oe = OPTIONS_BY_NAME.get(name)
            last_option = k == len(names) - 1
            base = {"option_name": name, "option_is_hook": _b(bool(oe and oe.is_hook)),
                    "option_is_user": _b(oe is None)}
            arr = oo.get_array(name, local=True) if oe is not None and oe.is_array else None
            if not arr:
                out.append({**base, "option_value": oo.to_string(name, local=True) or "",
                            "option_is_array": _b(arr is not None), "option_array_key": "",
                            "option_array_index": "", "option_array_first": _b(arr is not None),
                            "option_array_last": _b(arr is not None), "option_array_count": "0",
                            "loop_last_flag": _b(last_option), "loop_index": str(len(out))})
                continue
            keys = sorted(arr)
            for j, idx in enumerate(keys):
                out.append({**base, "option_value": oo.to_string(f"{name}[{idx}]", local=True)
                            or "", "option_is_array": "1", "option_array_key": str(idx),
                            "option_array_index": str(idx), "option_array_first": _b(j == 0),
                            "option_array_last": _b(j == len(keys) - 1),
                            "option_array_count": str(len(keys)),
                            "loop_last_flag": _b(j == len(keys) - 1 and last_option),
                            "loop_index": str(len(out))})
        return out

    def loop_environ(self, flags: str) -> list[dict[str, str]] | None:
        """``#{V:...}`` (format_loop_environ): each variable of the session's environment
        (flags s or none), the global one (g) or the client's (c), in name order."""
        env: Any = None
        if flags in ("", "s"):
            env = self.s.environ if self.s is not None else None
        elif flags == "g":
            env = self.server.environ
        elif flags == "c":  # the command's client, attached or not (ft->client)
            who = self.issuer if self.issuer is not None else self.c
            env = getattr(who, "environ", None) if who is not None else None
        if env is None:
            return None
        names = sorted(env.values, key=lambda n: n.encode("utf-8", "surrogateescape"))
        out = []
        for i, name in enumerate(names):
            value = env.values[name]
            out.append({"environ_name": name, "environ_value": value or "",
                        "environ_hidden": _b(name in env.hidden),
                        "environ_removed": _b(value is None),
                        "loop_last_flag": _b(i == len(names) - 1), "loop_index": str(i)})
        return out

    def theme_colour(self, n: int) -> int:
        """Theme colour slot ``n`` for this context's client (``#{c/f:themered}``)."""
        from .themes import theme_colour

        return theme_colour(self.server, self.c, n)

    def client_info(self, kinds: str, name: str) -> str:
        """``#{I/f:}``, ``#{I/c:}``, ``#{I/e:}`` (the development tree's client queries): a
        feature of the client's terminal, a terminfo capability it has, a variable of its
        environment. Empty unless the client is attached with a terminal; with several letters
        the environment wins, then the feature (the order tmux overwrites them in)."""
        c = self.c
        a = getattr(c, "attached", None) if c is not None else None
        caps = getattr(a, "term_caps", None) if a is not None else None
        if c is None or caps is None or getattr(c, "exiting", False):
            return ""
        if "e" in kinds:
            value = c.environ.get(name)
            return value if value is not None else ""
        if "f" in kinds:
            if name == "utf8":  # seed: the client's UTF-8 flag, however it was found
                return _b(bool(getattr(c, "utf8", False)) or "+utf8" in caps)
            return _b(_feature_present(caps, getattr(c, "term", ""), name))
        return _b(_has_capability(caps, getattr(c, "term", ""), name))


@functools.lru_cache(maxsize=32)
def _terminfo_names(term: str) -> frozenset[str]:
    """Every capability name of ``term``'s terminfo entry (``I/c`` asks for any of them)."""
    import subprocess

    try:
        p = subprocess.run(["infocmp", "-1", "-x", term], capture_output=True, text=True,
                           timeout=5, errors="surrogateescape")
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    names = set()
    for line in p.stdout.splitlines() if p.returncode == 0 else ():
        line = line.strip().rstrip(",")
        if not line or line.startswith("#") or "|" in line:
            continue
        names.add(line.split("=", 1)[0].split("#", 1)[0])
    return frozenset(names)


#: tty_features' capabilities per feature (the development tree's table): a feature not in the
#: client's list is still present when its terminal has all of them (ignorefkeys never is),
#: and the flags tmux's term must have for it.
_FEATURE_CAPABILITIES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "title": (("tsl", "fsl"), ()), "osc7": (("Swd", "fsl"), ()), "mouse": (("kmous",), ()),
    "clipboard": (("Ms",), ()), "hyperlinks": (("Hls",), ()),
    "RGB": (("AX", "setrgbf", "setrgbb", "setab", "setaf"), ("256", "rgb")),
    "256": (("AX", "setab", "setaf"), ("256",)), "overline": (("Smol",), ()),
    "usstyle": (("Smulx", "Setulc", "Setulc1", "ol"), ()), "bpaste": (("Enbp", "Dsbp"), ()),
    "focus": (("Enfcs", "Dsfcs"), ()), "cstyle": (("Ss", "Se"), ()),
    "ccolour": (("Cs", "Cr"), ()), "strikethrough": (("smxx",), ()), "sync": (("Sync",), ()),
    "extkeys": (("Eneks", "Dseks"), ()), "margins": (("Enmg", "Dsmg", "Clmg", "Cmg"), ("x",)),
    "rectfill": (("Rect",), ("x",)), "sixel": (("Sxl",), ("x",)), "progressbar": (("Spb",), ()),
}


def _feature_present(caps: dict[str, str], term: str, name: str) -> bool:
    """tty_feature_present: in the client's feature list, or every capability of the feature
    there (a name tmux does not know is never present: hmux does not repeat tmux's reading of
    the last table entry after a miss)."""
    if name in caps.get("+features", "").split(","):
        return True
    entry = _FEATURE_CAPABILITIES.get(name)
    if entry is None:
        return False
    names, flags = entry
    from .tty_term import FLAG_256, colour_depth

    if "x" in flags:  # DECSLRM, DECFRA, SIXEL: terminals hmux never flags so
        return False
    if "256" in flags and FLAG_256 not in caps and colour_depth(caps)[1] < 256:
        return False
    if "rgb" in flags and not colour_depth(caps)[0]:
        return False
    return all(_has_capability(caps, term, n) for n in names)


def _has_capability(caps: dict[str, str], term: str, name: str) -> bool:
    """tty_term_has_name: the client's capability set (terminfo, features, overrides)."""
    if name.startswith("+"):
        return False
    return name in caps or name in _terminfo_names(term)


# -- beyond 3.7b: the development tree's pane and client variables --------------------------------


def _shell(attr: str, time_value: bool = False) -> V:
    """A pane's shell-integration observation (hmux_core/shell.py); times are empty at 0."""
    def fn(ctx: ModelContext) -> str | None:
        from .shell import state

        if ctx.wp is None:
            return None
        st = state(ctx.wp)
        if st is None:
            return None if time_value else ("0" if attr == "running" else None)
        v = getattr(st, attr)
        if time_value:
            return str(v) if v else None
        if attr == "running":
            return _b(v)
        return str(v) if v != -1 else None
    return fn


def _pane_command_duration(ctx: ModelContext) -> str | None:
    from .shell import state

    st = state(ctx.wp) if ctx.wp is not None else None
    if st is None:
        return None
    d = st.duration(int(time.time()))
    return None if d is None else str(d)


def _client_colours(ctx: ModelContext) -> str | None:
    """client_colours: what the client's terminal shows: 16777216 with RGB, 256, else 16, 8
    or 2 from terminfo's colors (nothing without a terminal)."""
    c = ctx.c
    a = getattr(c, "attached", None) if c is not None else None
    caps = getattr(a, "term_caps", None) if a is not None else None
    if not caps:
        return None
    from .tty_term import colour_depth

    rgb, n = colour_depth(caps)
    if rgb:
        return "16777216"
    if n >= 256:
        return "256"
    return "2" if n < 8 else "8" if n < 16 else "16"


def _pane_last_output_time(ctx: ModelContext) -> str | None:
    t = getattr(ctx.wp, "last_output_time", 0) if ctx.wp is not None else 0
    return str(int(t)) if t else None


def _plain_option_names() -> frozenset[str]:
    from .options_table import OPTIONS_BY_NAME

    return frozenset(n for n in OPTIONS_BY_NAME if "-" not in n)


_PLAIN_OPTION_NAMES = _plain_option_names()


def expand_for(server: Server, fmt: str, st: Any, *, client: Any = None,
               extra: dict[str, str] | None = None, issuer: Any = None) -> str:
    """Expand ``fmt`` for a resolved target state (anything with s, wl, wp)."""
    ctx = ModelContext(server, client, getattr(st, "s", None), getattr(st, "wl", None),
                       getattr(st, "wp", None), extra)
    ctx.issuer = issuer
    return F.expand(fmt, ctx)


def context_for(server: Server, client: Any, s: Any, wl: Any, wp: Any,
                extra: dict[str, str] | None = None) -> ModelContext:
    return ModelContext(server, client, s, wl, wp, extra)


def context_for_pane(server: Server, pane: Pane) -> ModelContext:
    """A pane's own context (no client), through its window's first link, as tmux's
    format_defaults_pane for automatic-rename and remain-on-exit-format."""
    w = pane.window
    wl = w.winlinks[0] if w.winlinks else None
    return ModelContext(server, None, wl.session if wl is not None else None, wl, pane)


# -- the variable table --------------------------------------------------------------------------

V = Callable[[ModelContext], "str | None"]
VARIABLES: dict[str, V] = {}


def var(name: str) -> Callable[[V], V]:
    def deco(fn: V) -> V:
        VARIABLES[name] = fn
        return fn

    return deco


def _pane(attr: str, conv: Callable[[Any], str] = str) -> V:
    def fn(ctx: ModelContext) -> str | None:
        return conv(getattr(ctx.wp, attr)) if ctx.wp is not None else None

    return fn


def _screen_flag(attr: str) -> V:
    def fn(ctx: ModelContext) -> str | None:
        return _b(bool(getattr(ctx.wp.screen, attr))) if ctx.wp is not None else None

    return fn


def _screen_num(attr: str) -> V:
    def fn(ctx: ModelContext) -> str | None:
        return str(int(getattr(ctx.wp.screen, attr))) if ctx.wp is not None else None

    return fn


@functools.cache
def hostname() -> str:
    return socket.gethostname()


# server
VARIABLES["host"] = lambda ctx: hostname()
VARIABLES["host_short"] = lambda ctx: hostname().split(".", 1)[0]
VARIABLES["pid"] = lambda ctx: str(ctx.server.pid)
VARIABLES["version"] = lambda ctx: VERSION
VARIABLES["socket_path"] = lambda ctx: ctx.server.socket_path
VARIABLES["start_time"] = lambda ctx: str(int(ctx.server.start_time))
VARIABLES["uid"] = lambda ctx: str(os.getuid())
VARIABLES["next_session_id"] = lambda ctx: f"${ctx.server.model.next_session_id}"
VARIABLES["config_files"] = lambda ctx: ",".join(ctx.server.cfg_files_loaded)


@var("user")
def _user(ctx: ModelContext) -> str | None:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return None


# session
def _sess(fn: Callable[[Session], str]) -> V:
    def wrapped(ctx: ModelContext) -> str | None:
        return fn(ctx.s) if ctx.s is not None else None

    return wrapped


VARIABLES["session_id"] = _sess(lambda s: f"${s.id}")
VARIABLES["session_name"] = _sess(lambda s: s.name)
VARIABLES["session_windows"] = _sess(lambda s: str(len(s.windows)))
VARIABLES["session_attached"] = _sess(lambda s: str(s.attached))
VARIABLES["session_many_attached"] = _sess(lambda s: _b(s.attached > 1))
VARIABLES["session_created"] = _sess(lambda s: str(int(s.created)))
VARIABLES["session_activity"] = _sess(lambda s: str(int(s.activity_time)))
VARIABLES["session_path"] = _sess(lambda s: s.cwd)
VARIABLES["session_marked"] = lambda ctx: (
    _b(ctx.server.model.marked is not None and ctx.server.model.marked[0] is ctx.s)
    if ctx.s is not None else None)
VARIABLES["session_format"] = lambda ctx: _b(ctx.type == FORMAT_TYPE_SESSION)
VARIABLES["session_grouped"] = _sess(lambda s: _b(s.group is not None))
VARIABLES["session_group"] = lambda ctx: (
    ctx.s.group.name if ctx.s is not None and ctx.s.group is not None else None)
VARIABLES["session_group_size"] = lambda ctx: (
    str(len(ctx.s.group.sessions)) if ctx.s is not None and ctx.s.group is not None else None)


@var("session_last_attached")
def _session_last_attached(ctx: ModelContext) -> str | None:
    if ctx.s is None:
        return None
    t = int(ctx.s.last_attached_time)
    return str(t) if t else None


@var("session_attached_list")
def _session_attached_list(ctx: ModelContext) -> str | None:
    if ctx.s is None:
        return None
    names = [c.name for c in ctx.server.clients if c.session is ctx.s]
    return ",".join(names) if names else None


@var("session_alerts")
def _session_alerts(ctx: ModelContext) -> str | None:
    from .model import WINLINK_ACTIVITY, WINLINK_BELL, WINLINK_SILENCE

    if ctx.s is None:
        return None
    parts = []
    for wl in ctx.s.sorted_winlinks():
        if not wl.flags & (WINLINK_ACTIVITY | WINLINK_BELL | WINLINK_SILENCE):
            continue
        part = str(wl.idx)
        if wl.flags & WINLINK_ACTIVITY:
            part += "#"
        if wl.flags & WINLINK_BELL:
            part += "!"
        if wl.flags & WINLINK_SILENCE:
            part += "~"
        parts.append(part)
    return ",".join(parts)


@var("session_stack")
def _session_stack(ctx: ModelContext) -> str | None:
    s = ctx.s
    if s is None or s.curw is None:
        return None
    return ",".join(str(wl.idx) for wl in [s.curw, *s.lastw])


def _group_sessions(ctx: ModelContext) -> list[Session] | None:
    if ctx.s is None or ctx.s.group is None:
        return None
    return sorted(ctx.s.group.sessions, key=lambda x: x.name)


VARIABLES["session_group_list"] = lambda ctx: (
    ",".join(x.name for x in g) if (g := _group_sessions(ctx)) else None)
VARIABLES["session_group_attached"] = lambda ctx: (
    str(sum(x.attached for x in g)) if (g := _group_sessions(ctx)) else None)
VARIABLES["session_group_many_attached"] = lambda ctx: (
    _b(sum(x.attached for x in g) > 1) if (g := _group_sessions(ctx)) else None)


@var("session_group_attached_list")
def _session_group_attached_list(ctx: ModelContext) -> str | None:
    g = _group_sessions(ctx)
    if not g:
        return None
    names = [c.name for c in ctx.server.clients if c.session in g]
    return ",".join(names) if names else None


# window / winlink
def _win(fn: Callable[[Window], str]) -> V:
    def wrapped(ctx: ModelContext) -> str | None:
        return fn(ctx.w) if ctx.w is not None else None

    return wrapped


def _wl(fn: Callable[[Winlink], str]) -> V:
    def wrapped(ctx: ModelContext) -> str | None:
        return fn(ctx.wl) if ctx.wl is not None else None

    return wrapped


VARIABLES["window_id"] = _win(lambda w: f"@{w.id}")
VARIABLES["window_name"] = _win(lambda w: w.name)
VARIABLES["window_width"] = _win(lambda w: str(w.sx))
VARIABLES["window_height"] = _win(lambda w: str(w.sy))
VARIABLES["window_panes"] = _win(lambda w: str(len(w.panes)))
VARIABLES["window_zoomed_flag"] = _win(lambda w: _b(w.zoomed))
VARIABLES["window_activity"] = _win(lambda w: str(int(w.activity_time)))
VARIABLES["window_cell_width"] = _win(lambda w: str(w.xpixel))
VARIABLES["window_cell_height"] = _win(lambda w: str(w.ypixel))
def _layout_json(w: Any, visible: bool) -> str:
    """The window's layout as version 2 JSON (hmux_core.layout_json), beyond 3.7b."""
    from .layout_json import encode

    if w.layout is None:
        return ""
    return encode(w.layout, w.pane_index, w.active, w.last, visible=visible)


def _layout(w: Any, visible: bool) -> str:
    """tmux's layout string, or JSON where the window's ``layout-format`` says so."""
    if w.layout is None:
        return ""
    if w.options.get("layout-format") == "json":
        return _layout_json(w, visible)
    return w.layout.visible_dump() if visible else w.layout.dump()


VARIABLES["window_layout"] = _win(lambda w: _layout(w, False))
VARIABLES["window_visible_layout"] = _win(lambda w: _layout(w, True))
VARIABLES["window_layout_json"] = _win(lambda w: _layout_json(w, False))
VARIABLES["window_visible_layout_json"] = _win(lambda w: _layout_json(w, True))
VARIABLES["window_linked"] = _win(lambda w: _b(len(w.winlinks) > 1))
VARIABLES["window_linked_sessions"] = _win(lambda w: str(len(w.winlinks)))
VARIABLES["window_format"] = lambda ctx: _b(ctx.type == FORMAT_TYPE_WINDOW)
VARIABLES["window_index"] = _wl(lambda wl: str(wl.idx))
VARIABLES["window_active"] = _wl(lambda wl: _b(wl.session.curw is wl))
VARIABLES["window_last_flag"] = _wl(lambda wl: _b(bool(wl.session.lastw) and wl.session.lastw[0] is wl))
VARIABLES["window_start_flag"] = _wl(lambda wl: _b(wl.idx == min(wl.session.windows)))
VARIABLES["window_end_flag"] = _wl(lambda wl: _b(wl.idx == max(wl.session.windows)))
VARIABLES["window_bell_flag"] = _wl(lambda wl: _b(bool(wl.flags & 0x1)))
VARIABLES["window_activity_flag"] = _wl(lambda wl: _b(bool(wl.flags & 0x2)))
VARIABLES["window_silence_flag"] = _wl(lambda wl: _b(bool(wl.flags & 0x4)))
VARIABLES["window_flags"] = lambda ctx: (
    window_flags(ctx.wl, True, ctx.server.model.marked) if ctx.wl is not None else None)
VARIABLES["window_raw_flags"] = lambda ctx: (
    window_flags(ctx.wl, False, ctx.server.model.marked) if ctx.wl is not None else None)
VARIABLES["window_linked_sessions_list"] = _wl(
    lambda wl: ",".join(x.session.name for x in wl.window.winlinks))
VARIABLES["window_active_sessions"] = _wl(
    lambda wl: str(sum(1 for x in wl.window.winlinks if x.session.curw is x)))


@var("window_marked_flag")
def _window_marked_flag(ctx: ModelContext) -> str | None:
    if ctx.wl is None:
        return None
    m = ctx.server.model.marked
    return _b(m is not None and m[1] is ctx.wl)


@var("window_active_sessions_list")
def _window_active_sessions_list(ctx: ModelContext) -> str | None:
    if ctx.wl is None:
        return None
    names = [x.session.name for x in ctx.wl.window.winlinks if x.session.curw is x]
    return ",".join(names) if names else None


def _active_clients(ctx: ModelContext) -> list[Any]:
    w = ctx.wl.window if ctx.wl is not None else None
    return [c for c in ctx.server.clients
            if c.session is not None and c.session.curw is not None and c.session.curw.window is w]


VARIABLES["window_active_clients"] = lambda ctx: (
    str(len(_active_clients(ctx))) if ctx.wl is not None else None)
VARIABLES["window_active_clients_list"] = lambda ctx: (
    (",".join(c.name for c in cl) or None) if ctx.wl is not None and (cl := _active_clients(ctx)) else None)


@var("window_stack_index")
def _window_stack_index(ctx: ModelContext) -> str | None:
    if ctx.wl is None:
        return None
    lastw = ctx.wl.session.lastw
    if ctx.wl in lastw:
        return str(lastw.index(ctx.wl) + 1)
    return "0"


VARIABLES["window_bigger"] = lambda ctx: "0" if ctx.c is not None and ctx.c.session is not None else None
VARIABLES["window_offset_x"] = lambda ctx: None
VARIABLES["window_offset_y"] = lambda ctx: None


def window_flags(wl: Winlink, escape: bool, marked: Any = None) -> str:
    """window_printable_flags: activity, bell, silence, current, last, marked, zoomed."""
    out = ""
    if wl.flags & 0x2:
        out += "##" if escape else "#"
    if wl.flags & 0x1:
        out += "!"
    if wl.flags & 0x4:
        out += "~"
    s = wl.session
    if wl is s.curw:
        out += "*"
    if s.lastw and s.lastw[0] is wl:
        out += "-"
    if marked is not None and marked[1] is wl:
        out += "M"
    if wl.window.zoomed:
        out += "Z"
    return out


VARIABLES["active_window_index"] = lambda ctx: (
    str(ctx.s.curw.idx) if ctx.s is not None and ctx.s.curw is not None else None)
VARIABLES["last_window_index"] = lambda ctx: (
    str(max(ctx.s.windows)) if ctx.s is not None and ctx.s.windows else None)

# pane
VARIABLES["pane_id"] = _pane("id", lambda i: f"%{i}")
VARIABLES["pane_width"] = _pane("sx")
VARIABLES["pane_height"] = _pane("sy")
VARIABLES["pane_left"] = _pane("xoff")
VARIABLES["pane_top"] = _pane("yoff")
VARIABLES["pane_right"] = lambda ctx: str(ctx.wp.xoff + ctx.wp.sx - 1) if ctx.wp is not None else None
VARIABLES["pane_bottom"] = lambda ctx: str(ctx.wp.yoff + ctx.wp.sy - 1) if ctx.wp is not None else None
VARIABLES["pane_tty"] = _pane("tty")
VARIABLES["pane_pid"] = lambda ctx: str(ctx.wp.pid) if ctx.wp is not None else None
VARIABLES["pane_format"] = lambda ctx: _b(ctx.type == FORMAT_TYPE_PANE)
# An empty pane (split-window -E) has no PTY but is not dead until a respawned process exits.
VARIABLES["pane_dead"] = lambda ctx: (_b(ctx.wp.fd < 0 and (ctx.wp.dead or not ctx.wp.empty))
                                      if ctx.wp is not None else None)
VARIABLES["pane_input_off"] = _pane("input_off", _b)
VARIABLES["pane_in_mode"] = lambda ctx: str(len(getattr(ctx.wp, "modes", []))) if ctx.wp is not None else None
VARIABLES["pane_mode"] = lambda ctx: (
    (ctx.wp.modes[0].name if getattr(ctx.wp, "modes", None) else None) if ctx.wp is not None else None)


def _mode_var(name: str) -> Callable[[ModelContext], str | None]:
    """A variable the pane's top mode adds (window_copy_formats), absent otherwise."""

    def get(ctx: ModelContext) -> str | None:
        modes = getattr(ctx.wp, "modes", None)
        return modes[0].format(name) if modes else None

    return get


for _name in ("scroll_position", "rectangle_toggle", "copy_cursor_x", "copy_cursor_y",
              "selection_present", "selection_start_x", "selection_start_y", "selection_end_x",
              "selection_end_y", "selection_active", "search_present", "search_match",
              "copy_cursor_word", "copy_cursor_line", "top_line_time", "copy_position",
              "copy_position_limit", "selection_mode", "search_timed_out", "search_count",
              "search_count_partial", "copy_cursor_hyperlink",
              # beyond 3.7b: the development tree's copy mode variables
              "copy_line_numbers", "refresh_active"):
    VARIABLES[_name] = _mode_var(_name)
VARIABLES["pane_synchronized"] = lambda ctx: (
    _b(bool(ctx.wp.options.get("synchronize-panes"))) if ctx.wp is not None else None)
VARIABLES["pane_pipe"] = lambda ctx: _b(ctx.wp.pipe is not None) if ctx.wp is not None else None
VARIABLES["pane_search_string"] = lambda ctx: getattr(ctx.wp, "search_string", "") if ctx.wp is not None else None
VARIABLES["pane_title"] = lambda ctx: ctx.wp.screen.title if ctx.wp is not None else None
VARIABLES["pane_path"] = lambda ctx: ctx.wp.screen.path if ctx.wp is not None else None
VARIABLES["pane_start_command"] = lambda ctx: ctx.wp.start_command() if ctx.wp is not None else None
VARIABLES["pane_start_path"] = lambda ctx: (ctx.wp.cwd or "") if ctx.wp is not None else None
VARIABLES["pane_current_command"] = lambda ctx: ctx.wp.current_command() if ctx.wp is not None else None
VARIABLES["pane_current_path"] = lambda ctx: ctx.wp.current_path() if ctx.wp is not None else None


def _pane_colour(ctx: ModelContext, bg: bool) -> str | None:
    """pane_fg / pane_bg: tty_default_colours, the window styles over the colours the pane
    set with OSC 10/11."""
    if ctx.wp is None:
        return None
    from .escapes import default_colours
    from .options import colour_tostring

    scr = ctx.wp.screen
    fg_bg = default_colours(ctx.wp, getattr(scr, "default_fg", 8), getattr(scr, "default_bg", 8))
    return colour_tostring(fg_bg[1] if bg else fg_bg[0])


VARIABLES["pane_fg"] = lambda ctx: _pane_colour(ctx, False)
VARIABLES["pane_bg"] = lambda ctx: _pane_colour(ctx, True)


@var("pane_index")
def _pane_index(ctx: ModelContext) -> str | None:
    wp = ctx.wp
    if wp is None or wp not in wp.window.panes:
        return None
    return str(wp.window.pane_index(wp))


@var("pane_active")
def _pane_active(ctx: ModelContext) -> str | None:
    return _b(ctx.wp.window.active is ctx.wp) if ctx.wp is not None else None


@var("pane_last")
def _pane_last(ctx: ModelContext) -> str | None:
    return _b(ctx.wp.window.last is ctx.wp) if ctx.wp is not None else None


@var("pane_at_left")
def _pane_at_left(ctx: ModelContext) -> str | None:
    return _b(ctx.wp.xoff == 0) if ctx.wp is not None else None


@var("pane_at_right")
def _pane_at_right(ctx: ModelContext) -> str | None:
    wp = ctx.wp
    return _b(wp.xoff + wp.sx == wp.window.sx) if wp is not None else None


def _border_status(wp: Pane) -> str:
    try:
        return str(wp.window.options.get("pane-border-status"))
    except Exception:
        return "off"


@var("pane_at_top")
def _pane_at_top(ctx: ModelContext) -> str | None:
    wp = ctx.wp
    if wp is None:
        return None
    return _b(wp.yoff == (1 if _border_status(wp) == "top" else 0))


@var("pane_at_bottom")
def _pane_at_bottom(ctx: ModelContext) -> str | None:
    wp = ctx.wp
    if wp is None:
        return None
    limit = wp.window.sy - (1 if _border_status(wp) == "bottom" else 0)
    return _b(wp.yoff + wp.sy == limit)


@var("pane_marked")
def _pane_marked(ctx: ModelContext) -> str | None:
    if ctx.wp is None:
        return None
    m = ctx.server.model.marked
    return _b(m is not None and m[2] is ctx.wp)


@var("pane_marked_set")
def _pane_marked_set(ctx: ModelContext) -> str | None:
    if ctx.wp is None:
        return None
    return _b(ctx.server.model.marked is not None)


@var("pane_dead_status")
def _pane_dead_status(ctx: ModelContext) -> str | None:
    wp = ctx.wp
    if wp is None or not wp.exited or wp.dead_signal is not None or wp.dead_status is None:
        return None
    return str(wp.dead_status)


@var("pane_dead_signal")
def _pane_dead_signal(ctx: ModelContext) -> str | None:
    wp = ctx.wp
    if wp is None or not wp.exited or wp.dead_signal is None:
        return None
    # tmux's sig2name gives the number on Linux (no sys_signame there).
    return str(wp.dead_signal)


@var("pane_dead_time")
def _pane_dead_time(ctx: ModelContext) -> str | None:
    wp = ctx.wp
    if wp is None or wp.dead_time is None:
        return None
    return str(int(wp.dead_time))


@var("pane_tabs")
def _pane_tabs(ctx: ModelContext) -> str | None:
    if ctx.wp is None:
        return None
    tabs = ctx.wp.screen.tabs()
    return ",".join(str(t) for t in tabs) if tabs else None


# screen state
VARIABLES["cursor_x"] = _screen_num("cursor_x")
VARIABLES["cursor_y"] = _screen_num("cursor_y")
VARIABLES["cursor_flag"] = _screen_flag("cursor_visible")
VARIABLES["insert_flag"] = _screen_flag("insert_mode")
VARIABLES["keypad_cursor_flag"] = _screen_flag("keypad_cursor")
VARIABLES["keypad_flag"] = _screen_flag("keypad")
VARIABLES["origin_flag"] = _screen_flag("origin_mode")
VARIABLES["wrap_flag"] = _screen_flag("wrap_mode")
VARIABLES["mouse_standard_flag"] = _screen_flag("mouse_standard")
VARIABLES["mouse_button_flag"] = _screen_flag("mouse_button")
VARIABLES["mouse_all_flag"] = _screen_flag("mouse_any")
VARIABLES["mouse_utf8_flag"] = _screen_flag("mouse_utf8")
VARIABLES["mouse_sgr_flag"] = _screen_flag("mouse_sgr")
VARIABLES["alternate_on"] = _screen_flag("alternate_on")
VARIABLES["alternate_saved_x"] = _screen_num("alternate_saved_x")
VARIABLES["alternate_saved_y"] = _screen_num("alternate_saved_y")
VARIABLES["scroll_region_upper"] = _screen_num("scroll_region_upper")
VARIABLES["scroll_region_lower"] = _screen_num("scroll_region_lower")
VARIABLES["history_size"] = lambda ctx: str(ctx.wp.screen.history_size) if ctx.wp is not None else None
VARIABLES["history_limit"] = lambda ctx: str(ctx.wp.screen.history_limit) if ctx.wp is not None else None
#: tmux 3.7b's struct sizes on 64-bit: grid_line, grid_cell_entry (packed) and grid_extd_entry.
GRID_LINE_SIZE, GRID_CELL_SIZE, GRID_EXTD_SIZE = 40, 5, 23


def _history_bytes(ctx: ModelContext) -> str | None:
    """format_cb_history_bytes: what the pane's grid (history and screen) takes."""
    if ctx.wp is None:
        return None
    lines, cells, extd = ctx.wp.screen.grid_stats()
    return str(lines * GRID_LINE_SIZE + cells * GRID_CELL_SIZE + extd * GRID_EXTD_SIZE)


VARIABLES["history_bytes"] = _history_bytes
# hmux only: which emulator engine holds the pane ("python" or "ghostty").
VARIABLES["pane_engine"] = lambda ctx: ctx.wp.screen.name if ctx.wp is not None else None


@var("mouse_any_flag")
def _mouse_any_flag(ctx: ModelContext) -> str | None:
    if ctx.wp is None:
        return None
    sc = ctx.wp.screen
    return _b(sc.mouse_standard or sc.mouse_button or sc.mouse_any)


@var("cursor_character")
def _cursor_character(ctx: ModelContext) -> str | None:
    return ctx.wp.screen.cursor_character() if ctx.wp is not None else None


# client
def _cl(fn: Callable[[ClientConn], str | None]) -> V:
    def wrapped(ctx: ModelContext) -> str | None:
        return fn(ctx.c) if ctx.c is not None else None

    return wrapped


VARIABLES["client_name"] = _cl(lambda c: c.name)
VARIABLES["client_pid"] = _cl(lambda c: str(c.pid))
VARIABLES["client_tty"] = _cl(lambda c: c.ttyname)
VARIABLES["client_termname"] = _cl(lambda c: c.term)
VARIABLES["client_termtype"] = _cl(lambda c: getattr(c, "term_type", "") or "")


def _termfeatures(c: ClientConn) -> str:
    """The features its terminal was found to have (terminfo, terminal-features, -T, DA)."""
    a = getattr(c, "attached", None)
    caps = getattr(a, "term_caps", None) if a is not None else None
    return caps.get("+features", "") if caps else ""


VARIABLES["client_termfeatures"] = _cl(_termfeatures)
VARIABLES["client_utf8"] = _cl(lambda c: _b(c.utf8))
VARIABLES["client_readonly"] = _cl(lambda c: _b(c.readonly))
VARIABLES["client_control_mode"] = _cl(lambda c: _b(c.control))
VARIABLES["client_created"] = _cl(lambda c: str(int(c.created)))
VARIABLES["client_activity"] = _cl(lambda c: str(int(c.activity_time)))
VARIABLES["client_written"] = _cl(lambda c: str(c.written))
VARIABLES["client_discarded"] = _cl(lambda c: str(c.discarded))
VARIABLES["client_key_table"] = _cl(lambda c: c.key_table)
VARIABLES["client_prefix"] = _cl(lambda c: _b(c.key_table != "root"))
VARIABLES["client_session"] = _cl(lambda c: c.session.name if c.session is not None else None)
VARIABLES["client_last_session"] = _cl(
    lambda c: c.last_session.name if c.last_session is not None and c.last_session.alive else None)
VARIABLES["client_width"] = _cl(lambda c: str(c.sx) if c.session is not None else None)
VARIABLES["client_height"] = _cl(  # TTY_STARTED: never for a control client
    lambda c: str(c.sy) if c.session is not None and not c.control else None)
VARIABLES["client_cell_width"] = _cl(lambda c: _tty_started(c, "xpixel"))
VARIABLES["client_cell_height"] = _cl(lambda c: _tty_started(c, "ypixel"))


def _tty_started(c: Any, name: str) -> str | None:
    """A value of the client's terminal while hmux drives it (TTY_STARTED): not for a
    control client, nor while suspended or locked."""
    a = getattr(c, "attached", None)
    if a is None or a.stopped or a.suspended:
        return None
    return str(getattr(a.tty, name))
VARIABLES["client_uid"] = _cl(lambda c: str(c.uid) if c.uid >= 0 else None)


@var("client_user")
def _client_user(ctx: ModelContext) -> str | None:
    if ctx.c is None or ctx.c.uid < 0:
        return None
    try:
        return pwd.getpwuid(ctx.c.uid).pw_name
    except KeyError:
        return None


@var("client_flags")
def _client_flags(ctx: ModelContext) -> str | None:
    c = ctx.c
    if c is None:
        return None
    parts = []
    if c.session is not None:
        parts.append("attached")
    if getattr(c, "focused", False):
        parts.append("focused")
    if c.control:
        parts.append("control-mode")
    if getattr(c, "ignore_size", False):
        parts.append("ignore-size")
    if getattr(c, "no_detach_on_destroy", False):
        parts.append("no-detach-on-destroy")
    if getattr(c, "no_output", False):
        parts.append("no-output")
    if getattr(c, "wait_exit", False):
        parts.append("wait-exit")
    if getattr(c, "pause_after", None) is not None:
        parts.append(f"pause-after={c.pause_after}")
    if getattr(c, "new_layouts", False):  # beyond 3.7b: %layout-change in JSON
        parts.append("new-layouts")
    if c.readonly:
        parts.append("read-only")
    if getattr(c, "active_pane", False):
        parts.append("active-pane")
    a = getattr(c, "attached", None)
    if a is not None and a.suspended:
        parts.append("suspended")
    if c.utf8:
        parts.append("UTF-8")
    return ",".join(parts)


# buffers (filled by the buffer store when one exists)
for _name in ("buffer_name", "buffer_size", "buffer_sample", "buffer_created"):
    VARIABLES.setdefault(_name, lambda ctx, _n=_name: ctx.extra.get(_n))
for _name in ("buffer_full",):
    VARIABLES.setdefault(_name, lambda ctx, _n=_name: ctx.extra.get(_n))


# -- variables tmux 3.4 .. 3.7b added --------------------------------------------------------------

#: Outside a loop no item is the last one (loops give their items their own value).
VARIABLES["loop_last_flag"] = lambda ctx: "0"
VARIABLES["server_sessions"] = lambda ctx: str(len(ctx.server.model.sessions))
VARIABLES["sixel_support"] = lambda ctx: "0"
VARIABLES["bracket_paste_flag"] = _screen_flag("bracketed_paste")
VARIABLES["cursor_blinking"] = _screen_flag("cursor_blinking")
VARIABLES["cursor_very_visible"] = lambda ctx: (
    _b(bool(getattr(ctx.wp.screen, "cursor_very_visible", False))) if ctx.wp is not None else None)
VARIABLES["synchronized_output_flag"] = lambda ctx: (
    _b(bool(getattr(ctx.wp.screen, "synchronized_output", False)))
    if ctx.wp is not None else None)
VARIABLES["pane_x"] = _pane("xoff")
VARIABLES["pane_y"] = _pane("yoff")
VARIABLES["pane_unseen_changes"] = lambda ctx: (
    _b(bool(getattr(ctx.wp, "unseen_changes", False))) if ctx.wp is not None else None)
VARIABLES["pane_floating_flag"] = lambda ctx: (
    _b(bool(getattr(ctx.wp, "floating", False))) if ctx.wp is not None else None)
VARIABLES["pane_pb_progress"] = lambda ctx: (
    str(getattr(ctx.wp.screen, "progress", 0)) if ctx.wp is not None else None)
_PB_STATES = ("hidden", "normal", "error", "indeterminate", "paused")  # OSC 9;4 states
VARIABLES["pane_pb_state"] = lambda ctx: (
    _PB_STATES[getattr(ctx.wp.screen, "progress_state", 0)] if ctx.wp is not None else None)

_CURSOR_SHAPES = {1: "block", 2: "block", 3: "underline", 4: "underline", 5: "bar", 6: "bar"}


@var("cursor_shape")
def _cursor_shape(ctx: ModelContext) -> str | None:
    """DECSCUSR's shape; 0 (and anything unknown) is tmux's "default"."""
    if ctx.wp is None:
        return None
    return _CURSOR_SHAPES.get(getattr(ctx.wp.screen, "cursor_style", 0), "default")


@var("cursor_colour")
def _cursor_colour(ctx: ModelContext) -> str | None:
    """The colour the pane set (OSC 12), else the cursor-colour option."""
    from .options import colour_tostring

    if ctx.wp is None:
        return None
    c = getattr(ctx.wp.screen, "cursor_colour", -1)
    if c is None or c == -1:
        try:
            if "#{" in str(ctx.wp.options.get("cursor-colour")):  # as expanded for the pane
                c = getattr(ctx.wp.screen, "default_cursor_colour", -1)
            else:
                c = ctx.wp.options.get_number("cursor-colour")
        except (KeyError, AttributeError):
            c = -1
    return colour_tostring(c)


@var("pane_key_mode")
def _pane_key_mode(ctx: ModelContext) -> str | None:
    """Ext 1 / Ext 2 for the extended-keys modes a pane asked for, VT10x otherwise."""
    if ctx.wp is None:
        return None
    mode = getattr(ctx.wp.screen, "extended_keys_mode", None)
    if mode is None:
        mode = 1 if getattr(ctx.wp.screen, "extended_keys", False) else 0
    return {1: "Ext 1", 2: "Ext 2"}.get(mode, "VT10x")


@var("pane_pipe_pid")
def _pane_pipe_pid(ctx: ModelContext) -> str | None:
    pipe = getattr(ctx.wp, "pipe", None) if ctx.wp is not None else None
    pid = getattr(pipe, "pid", None)
    return str(pid) if pipe is not None and pid is not None else None


@var("pane_zoomed_flag")
def _pane_zoomed_flag(ctx: ModelContext) -> str | None:
    wp = ctx.wp
    if wp is None:
        return None
    return _b(wp.window.zoomed and wp.window.active is wp)


@var("pane_flags")
def _pane_flags(ctx: ModelContext) -> str | None:
    """window_pane_printable_flags: * active, - last, Z zoomed, F floating."""
    wp = ctx.wp
    if wp is None:
        return None
    w = wp.window
    out = ""
    if w.active is wp:
        out += "*"
    if w.last is wp:
        out += "-"
    if w.zoomed and w.active is wp:
        out += "Z"
    if getattr(wp, "floating", False):
        out += "F"
    return out


@var("pane_z")
def _pane_z(ctx: ModelContext) -> str | None:
    """window_pane_zindex: the floating panes above it in the z-order, plus one for a tiled
    pane (every tiled pane of a window without floating panes is 1)."""
    wp = ctx.wp
    if wp is None or wp not in wp.window.panes:
        return None
    w = wp.window
    z = getattr(w.layout, "z_index", None) if w.layout is not None else None
    order = list(z) if z is not None else sorted(w.panes, key=lambda p: p.id)
    n = 0
    for q in order:
        floating = bool(getattr(q, "floating", False))
        if q is wp:
            return str(n if floating else n + 1)
        if floating:
            n += 1
    return None


@var("session_active")
def _session_active(ctx: ModelContext) -> str | None:
    if ctx.s is None or ctx.c is None:
        return None
    return _b(ctx.c.session is ctx.s)


def _first_winlink_flag(ctx: ModelContext, flag: int, own: bool) -> str | None:
    """tmux looks at the first window only (and, for activity and silence, at the format's own
    winlink rather than that one)."""
    s = ctx.s
    if s is None:
        return None
    if not s.windows:
        return None
    wl = ctx.wl if own else s.sorted_winlinks()[0]
    return _b(wl is not None and bool(wl.flags & flag))


VARIABLES["session_activity_flag"] = lambda ctx: _first_winlink_flag(ctx, 0x2, True)
VARIABLES["session_bell_flag"] = lambda ctx: _first_winlink_flag(ctx, 0x1, False)
VARIABLES["session_silence_flag"] = lambda ctx: _first_winlink_flag(ctx, 0x4, True)


@var("session_alert")
def _session_alert(ctx: ModelContext) -> str | None:
    """Each kind of alert once, in the order the windows first show them: # ! ~."""
    s = ctx.s
    if s is None:
        return None
    out = ""
    seen = 0
    for wl in s.sorted_winlinks():
        for bit, ch in ((0x2, "#"), (0x1, "!"), (0x4, "~")):
            if wl.flags & bit and not seen & bit:
                out += ch
                seen |= bit
    return out


@var("client_theme")
def _client_theme(ctx: ModelContext) -> str | None:
    theme = getattr(ctx.c, "theme", None) if ctx.c is not None else None
    return theme if theme in ("dark", "light") else None


@var("history_all_bytes")
def _history_all_bytes(ctx: ModelContext) -> str | None:
    """lines,bytes of line headers,cells,bytes of cells,extended cells,their bytes
    (format_cb_history_all_bytes)."""
    if ctx.wp is None:
        return None
    lines, cells, extd = ctx.wp.screen.grid_stats()
    return (f"{lines},{lines * GRID_LINE_SIZE},{cells},{cells * GRID_CELL_SIZE},{extd},"
            f"{extd * GRID_EXTD_SIZE}")


VARIABLES["pane_last_output_time"] = _pane_last_output_time
VARIABLES["pane_last_prompt_time"] = _shell("last_prompt_time", True)
VARIABLES["pane_command_start_time"] = _shell("command_start_time", True)
VARIABLES["pane_command_end_time"] = _shell("command_end_time", True)
VARIABLES["pane_command_running"] = _shell("running")
VARIABLES["pane_command_status"] = _shell("status")
VARIABLES["pane_command_duration"] = _pane_command_duration
VARIABLES["client_colours"] = _client_colours

# beyond 3.7b (the seed's): a count of the non-empty batches of output the pane read
VARIABLES["pane_output_generation"] = lambda ctx: (
    str(getattr(ctx.wp, "output_revision", 0)) if ctx.wp is not None else None)
# beyond 3.7b (the seed's): the screen's history counters (lines added, lines collected, and
# a generation for history cleared, reflowed or taken back by a resize)
VARIABLES["history_added"] = _screen_num("history_added")
VARIABLES["history_collected"] = _screen_num("history_collected")
VARIABLES["history_generation"] = _screen_num("history_generation")
