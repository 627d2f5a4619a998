"""Creating windows and panes with their processes (tmux's spawn.c).

Shared by new-session, new-window, split-window and the respawn commands so the rules for the
working directory, the environment, the command and the window name live in one place.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .commands.grammar import stringify_argv
from .formats_vars import hostname
from .layout import Layout
from .model import Environ, Session, Winlink, apply_layout, find_home
from .options import Options, check_shell
from .pane import Pane, window_name_from_command
from .version import TMUX_VERSION

if TYPE_CHECKING:
    from .server import Server

_PATH_DEFPATH = "/usr/bin:/bin"


class SpawnError(Exception):
    """Spawning failed; the message is tmux's cause."""


@dataclass
class SpawnContext:
    s: Session
    argv: list[str] = field(default_factory=list)
    cwd: str | None = None  # -c, already format-expanded
    environ: Environ | None = None  # -e
    name: str | None = None  # -n, already expanded
    idx: int = -1
    detached: bool = False
    kill: bool = False
    client: Any = None  # the command's client (for cwd and PATH)
    tc: Any = None  # the client that will see the window (for size)
    empty: bool = False  # SPAWN_EMPTY (split-window -E, -I): a pane with no process


def client_cwd(server: Server, c: Any, s: Session | None) -> str:
    """server_client_get_cwd: while the configuration loads, the directory of the client that
    started the server; the client's cwd for a detached client, else the session's."""
    cfg_client = getattr(server, "cfg_client", None)
    if cfg_client is not None and cfg_client.cwd and not server.config_loaded.is_set():
        return cfg_client.cwd
    if c is not None and c.session is None and c.cwd:
        return c.cwd
    if s is not None and s.cwd:
        return s.cwd
    if c is not None and c.session is not None and c.session.cwd:
        return c.session.cwd
    home = find_home()
    return home or "/"


def child_environ(server: Server, s: Session, pane_id: int, extra: Environ | None,
                  client: Any) -> dict[str, str]:
    """environ_for_session plus TMUX_PANE, PATH and SHELL, as spawn_pane builds it."""
    env = Environ()
    server.environ.copy_into(env)
    s.environ.copy_into(env)
    env.set("TERM", str(server.options.get("default-terminal")))
    env.set("TERM_PROGRAM", "tmux")
    env.set("TERM_PROGRAM_VERSION", TMUX_VERSION)
    env.set("COLORTERM", "truecolor")  # tmux 3.6
    env.set("TMUX", f"{server.socket_path},{server.pid},{s.id}")
    if extra is not None:
        extra.copy_into(env)
    env.set("TMUX_PANE", f"%{pane_id}")
    if client is not None and client.session is None:
        path = client.environ.get("PATH")
        if path is not None:
            env.set("PATH", path)
    if env.get("PATH") is None:
        env.set("PATH", _PATH_DEFPATH)
    return env.for_child()


def _resolve_cwd(server: Server, sc: SpawnContext) -> str:
    if sc.cwd is not None:
        cwd = sc.cwd
        if not cwd.startswith("/"):
            cwd = os.path.join(client_cwd(server, sc.client, sc.s), cwd)
        return cwd
    return client_cwd(server, sc.client, sc.s)


def new_pane(server: Server, w: Any, s: Session) -> Pane:
    model = server.model
    pid = model.new_pane_id()
    hlimit = int(s.options.get("history-limit"))
    popts = Options(parent=w.options, scope="pane")
    pane = Pane(pid, w, w.sx, w.sy, hlimit, popts)
    pane.screen.title = hostname()  # tmux titles a new pane with the host name
    model.panes[pid] = pane
    return pane


def start_process(server: Server, pane: Pane, sc: SpawnContext, argv: list[str] | None,
                  cwd: str | None) -> None:
    """Fork the pane's child: default-command, ``shell -c`` or execvp, as tmux."""
    s = sc.s
    if argv is None:
        cmd = str(s.options.get("default-command"))
        argv = [cmd] if cmd else []
    shell = str(s.options.get("default-shell"))
    if not check_shell(shell):
        shell = "/bin/sh"
    env = child_environ(server, s, pane.id, sc.environ, sc.client)
    env["SHELL"] = shell
    backspace = 0x7F
    if sc.empty:
        pane.make_empty(shell, argv, cwd or pane.cwd or find_home())
    else:
        pane.spawn(argv, shell, cwd or pane.cwd or find_home(), env, s.tio, backspace)
    server.start_pane(pane)


def default_window_name(pane: Pane) -> str:
    cmd = stringify_argv(pane.argv) if pane.argv else ""
    return window_name_from_command(cmd if cmd else pane.shell)


def spawn_window(server: Server, sc: SpawnContext) -> Winlink:
    """Create a window (with one pane) in ``sc.s`` at ``sc.idx`` (-1: first free from base-index)."""
    model = server.model
    s = sc.s
    idx = sc.idx
    detached = sc.detached
    if idx != -1:
        existing = s.windows.get(idx)
        if existing is not None and not sc.kill:
            raise SpawnError(f"index {idx} in use")
        if existing is not None:
            existing.flags = 0
            if existing in s.lastw:
                s.lastw.remove(existing)
            del s.windows[idx]
            existing.window.winlinks.remove(existing)
            if s.curw is existing:
                s.curw = None
                detached = False
            if not existing.window.winlinks:
                model.destroy_window(existing.window)
    if idx == -1:
        idx = s.next_free_index(int(s.options.get("base-index")))
    sx, sy = default_window_size(server, sc.tc, s)
    wopts = Options(parent=server.window_options, scope="window")
    w = model.create_window("", sx, sy, wopts)
    w.latest = sc.tc
    wl = model.link_window(s, w, idx)
    if s.curw is None:
        s.curw = wl
    pane = new_pane(server, w, s)
    w.layout = Layout(sx, sy, pane, str(w.options.get("pane-border-status")))
    w.set_active(pane, notify=False)  # SPAWN_NONOTIFY
    w.last_panes.clear()
    apply_layout(w)
    cwd = _resolve_cwd(server, sc)
    pane.cwd = cwd
    start_process(server, pane, sc, list(sc.argv) if sc.argv else None, cwd)
    if sc.name is not None:
        w.name = sc.name
        w.options.set("automatic-rename", False)
    else:
        w.name = default_window_name(pane)
    if not detached:
        s.set_current(wl)
    model.notify("window-created", {"window": w})  # beyond 3.7b: the development tree's hook
    model.notify("window-linked", {"session": s, "window": w})
    if s.group is not None:
        from .commands.groups import synchronize_from

        synchronize_from(server, s)
    return wl


def spawn_pane(server: Server, sc: SpawnContext, wl: Winlink, target: Pane, cell: Any, *,
               floating: bool = False, before: bool = False, full: bool = False,
               zoom: bool = False) -> Pane:
    """spawn_pane for split-window and new-pane: a new pane in the cell the command made
    (beside ``target``, or floating), its process started, made active unless detached.

    With ``zoom`` (-Z) the pane keeps the window's size at 0,0 until the layout is next
    fitted (layout_assign_pane's do_not_resize), as tmux 3.7b leaves a pane that a zoom
    hides."""
    from .layout import LAYOUT_CELL_FLOATING

    w = wl.window
    lay = w.layout
    assert lay is not None
    pane = new_pane(server, w, sc.s)
    lay.add_pane(pane, target, before, full, floating)
    if floating:
        cell.flags |= LAYOUT_CELL_FLOATING
    lay.assign(cell, pane, do_not_resize=zoom)
    apply_layout(w)
    cwd = _resolve_cwd(server, sc)
    pane.cwd = cwd
    start_process(server, pane, sc, list(sc.argv) if sc.argv else None, cwd)
    if not sc.detached or w.active is None:
        w.set_active(pane)
    server.model.notify("window-layout-changed", {"window": w})
    return pane


def default_window_size(server: Server, tc: Any, s: Session) -> tuple[int, int]:
    """default_window_size for a new window: the client's size when one is attached, else
    the session's ``default-size``."""
    if tc is not None and getattr(tc, "control_state", None) is not None:
        # A control client's size counts once it gave one, with no status line; until then
        # it is not a client to size by.
        if tc.session is not None and not server.ignore_client_size(tc):
            return max(1, tc.sx), max(1, tc.sy)
        tc = None
    if tc is not None and getattr(tc, "session", None) is not None and tc.sx > 0:
        sy = tc.sy - (1 if s.options.get("status") not in (False, "off", 0) else 0)
        return max(1, tc.sx), max(1, sy)
    text = str(s.options.get("default-size"))
    try:
        a, b = text.split("x", 1)
        return max(1, int(a)), max(1, int(b))
    except ValueError:
        return 80, 24
