"""respawn-pane and respawn-window: a new process in an existing pane (tmux's SPAWN_RESPAWN).

The pane keeps its id, title, history, working directory and shell; only the program and the
visible screen are new.  Without ``-k`` a pane whose process still runs is refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..layout import Layout
from ..model import Environ, Session, apply_layout
from ..modes import reset_mode_all
from ..pane import Pane
from ..spawn import SpawnContext, _resolve_cwd, child_environ
from .queue import CMD_RETURN_NORMAL, CmdItem
from .registry import command
from .util import parse_environ_args

if TYPE_CHECKING:
    from ..server import Server


def _environ(item: CmdItem) -> Environ:
    env = Environ()
    for entry in parse_environ_args(item.args.values("e")):
        env.set(*entry)
    return env


def _respawn(item: CmdItem, s: Session, pane: Pane) -> None:
    """spawn_pane with SPAWN_RESPAWN|SPAWN_KILL: the old child goes, a new one starts."""
    server: Server = item.server
    args = item.args
    c = item.client if item.client is not None and not item.client.is_config else None
    argv = [a for a in args.argv if isinstance(a, str)]
    cwd = pane.cwd
    if args.get("c"):
        sc = SpawnContext(s=s, cwd=item.expand(args.get("c") or "", item.target), client=c)
        cwd = _resolve_cwd(server, sc)
    pane.stop()
    reset_mode_all(server, pane)
    pane.screen.reinit()
    env = child_environ(server, s, pane.id, _environ(item), c)
    env["SHELL"] = pane.shell
    pane.spawn(argv, pane.shell, cwd or "/", env, s.tio, 0x7F)
    server.start_pane(pane)


def _still_active(pane: Pane) -> bool:
    return pane.fd >= 0


@command("respawn-pane")
def cmd_respawn_pane(item: CmdItem) -> int:
    st = item.target
    s, wl, wp = st.s, st.wl, st.wp
    assert s is not None and wl is not None and wp is not None
    if _still_active(wp) and not item.args.has("k"):
        idx = wl.window.pane_index(wp)
        return item.error(f"respawn pane failed: pane {s.name}:{wl.idx}.{idx} still active")
    _respawn(item, s, wp)
    return CMD_RETURN_NORMAL


@command("respawn-window")
def cmd_respawn_window(item: CmdItem) -> int:
    st = item.target
    s, wl = st.s, st.wl
    assert s is not None and wl is not None
    server = item.server
    w = wl.window
    if not item.args.has("k") and any(_still_active(p) for p in w.panes):
        return item.error(f"respawn window failed: window {s.name}:{wl.idx} still active")
    wp0 = w.panes[0]
    for p in list(w.panes[1:]):
        server.model.forget_pane(p)
    w.layout = Layout(w.sx, w.sy, wp0, str(w.options.get("pane-border-status")))
    w.last_panes = []
    w.set_active(wp0, notify=False)
    apply_layout(w)
    _respawn(item, s, wp0)
    s.set_current(wl)
    server.notify("window-layout-changed", {"window": w})
    return CMD_RETURN_NORMAL
