"""``hmux agents``: hooks that make agents report their state, and the jump to the next agent
that needs you.

    hmux agents install-hooks [AGENT…] [--remove] [--yes]   write the agents' own hook config
    hmux agents report STATE [--agent NAME] [--pane %N]     what the hooks run
    hmux agents next [-c CLIENT]                            go to the next pane that needs you
    hmux agents list                                        every pane's agent and state

It talks to the server only through hmux's client (``set-option -p``, ``list-panes``,
``switch-client``), like any script would: the plugin imports nothing but the plugin API.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence

from . import glyphs, hooks

REPORT_OPTION = "@agent-report"
STATES = ("working", "waiting", "idle", "done", "error")


def hmux_argv() -> list[str]:
    """How hooks run hmux: the ``hmux`` on PATH if it is this one, else this Python."""
    exe = shutil.which("hmux")
    return [exe] if exe else [sys.executable, "-m", "hmux_core.cli"]


def _client(socket_path: str | None, *args: str) -> subprocess.CompletedProcess[str]:
    sock = ["-S", socket_path] if socket_path else []
    return subprocess.run([sys.executable, "-m", "hmux_core.cli", *sock, *args],
                          capture_output=True, text=True, timeout=15)


def _socket_from_env(default: str | None) -> str | None:
    """The socket hmux resolved (``-S``, ``-L``, then ``$TMUX``, as tmux does), else
    ``$TMUX``'s when called without one (tests call :func:`main` directly)."""
    if default:
        return default
    tmux = os.environ.get("TMUX", "")
    return tmux.split(",")[0] if tmux else None


# -- install-hooks ---------------------------------------------------------------------------------

def install_hooks(agents: Sequence[str], remove: bool, yes: bool) -> int:
    argv = hmux_argv()
    changes = []
    for agent in agents or hooks.AGENTS:
        try:
            changes.append((agent, hooks.plan(agent, argv, remove=remove)))
        except ValueError as e:
            print(f"{agent}: {e}", file=sys.stderr)
            return 1
    todo = [(a, c) for a, c in changes if c.changed]
    for agent, c in changes:
        if not c.changed:
            print(f"{agent}: {c.path} already {'has no hmux hooks' if remove else 'up to date'}")
    if not todo:
        return 0
    for _agent, c in todo:
        diff = difflib.unified_diff((c.old or "").splitlines(keepends=True),
                                    (c.new or "").splitlines(keepends=True),
                                    fromfile=c.path if c.old is not None else "/dev/null",
                                    tofile=c.path if c.new is not None else "/dev/null")
        sys.stdout.writelines(diff)
    if not yes:
        if not sys.stdin.isatty():
            print("not written: run again with --yes to apply the changes above",
                  file=sys.stderr)
            return 1
        answer = input("Apply these changes? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            print("nothing written")
            return 1
    for agent, c in todo:
        hooks.apply(c)
        what = "removed from" if remove else "written to"
        print(f"{agent}: hooks {what} {c.path}")
    return 0


# -- report ----------------------------------------------------------------------------------------

def _codex_pane(socket_path: str | None, payload: str) -> str | None:
    """Codex runs notify from its shared app-server daemon, whose environment is the first
    pane's: find the pane by the thread the payload names instead."""
    import json

    try:
        doc = json.loads(payload)
    except ValueError:
        return None
    thread = doc.get("thread-id") if isinstance(doc, dict) else None
    if not thread:
        return None
    r = _client(socket_path, "list-panes", "-a", "-F", "#{pane_id} #{pane_agent_session_id}")
    for line in r.stdout.splitlines():
        pane, _, sid = line.partition(" ")
        if sid == thread:
            return pane
    return None


def report(state: str | None, agent: str, pane: str | None, codex_payload: str | None,
           socket_path: str | None) -> int:
    sock = _socket_from_env(socket_path)
    if codex_payload is not None:
        state = hooks.codex_notify_state(codex_payload)
        if state is None:
            return 0  # an event hmux has no state for
        pane = _codex_pane(sock, codex_payload) or pane
    pane = pane or os.environ.get("TMUX_PANE")
    if not pane or state not in STATES:
        return 0  # not in an hmux pane (or nothing to say): a hook must never fail the agent
    value = f"{state} {time.time():.3f} {agent}"
    _client(sock, "set-option", "-p", "-t", pane, REPORT_OPTION, value)
    return 0  # a failed report must not fail the agent's hook


# -- next ------------------------------------------------------------------------------------------

def _panes(socket_path: str | None) -> list[tuple[str, str, str, str, str]]:
    fmt = "#{session_id}\t#{window_id}\t#{pane_id}\t#{pane_agent_state}\t#{pane_agent}"
    r = _client(socket_path, "list-panes", "-a", "-F", fmt)
    out = []
    for line in r.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) == 5:
            out.append((parts[0], parts[1], parts[2], parts[3], parts[4]))
    return out


def next_pane(panes: Sequence[tuple[str, str, str, str, str]], current: str | None
              ) -> str | None:
    """The pane to go to: the most urgent state that wants the user (waiting, then error, then
    done), and among equals the first after ``current`` in list order, wrapping round."""
    wanting = [p for p in panes if p[3] in glyphs.ATTENTION]
    if not wanting:
        return None
    best = min(glyphs.rank(p[3]) for p in wanting)
    ids = [p[2] for p in panes]
    start = ids.index(current) + 1 if current in ids else 0
    order = ids[start:] + ids[:start]
    for pane_id in order:
        for p in wanting:
            if p[2] == pane_id and glyphs.rank(p[3]) == best:
                return pane_id
    return None


def go_next(client: str | None, socket_path: str | None) -> int:
    sock = _socket_from_env(socket_path)
    panes = _panes(sock)
    target_client = ["-c", client] if client else []
    cur = _client(sock, "display-message", "-p", *target_client, "#{pane_id}").stdout.strip()
    pane = next_pane(panes, cur or None)
    if pane is None:
        _client(sock, "display-message", *target_client, "no agent needs you")
        return 0
    r = _client(sock, "switch-client", *target_client, "-t", pane)
    if r.returncode != 0:
        print(r.stderr.strip(), file=sys.stderr)
        return 1
    return 0


def list_agents(socket_path: str | None) -> int:
    for session, window, pane, state, agent in _panes(_socket_from_env(socket_path)):
        if agent:
            print(f"{session}\t{window}\t{pane}\t{agent}\t{state}")
    return 0


def main(argv: Sequence[str], socket_path: str | None = None) -> int:
    p = argparse.ArgumentParser(prog="hmux agents", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    ih = sub.add_parser("install-hooks", help="write the agents' hook configuration")
    ih.add_argument("agents", nargs="*", metavar="AGENT",
                    help=f"any of {', '.join(hooks.AGENTS)} (default: all)")
    ih.add_argument("--remove", action="store_true", help="take hmux's hooks out again")
    ih.add_argument("--yes", "-y", action="store_true", help="write without asking")
    rp = sub.add_parser("report", help="report a state for this pane (what hooks run)")
    rp.add_argument("state", nargs="?", help=", ".join(STATES))
    rp.add_argument("--agent", default="")
    rp.add_argument("--pane")
    rp.add_argument("--codex-notify", action="store_true",
                    help="the last argument is Codex's notify JSON")
    rp.add_argument("payload", nargs="*")
    nx = sub.add_parser("next", help="switch to the next pane whose agent needs you")
    nx.add_argument("-c", dest="client")
    sub.add_parser("list", help="every pane running an agent, with its state")
    ns, extra = p.parse_known_args(list(argv))
    if ns.cmd == "install-hooks":
        bad = [a for a in ns.agents if a not in hooks.AGENTS]
        if bad:
            p.error(f"no hooks for {', '.join(bad)} (agents with hooks: "
                    f"{', '.join(hooks.AGENTS)})")
        return install_hooks(ns.agents, ns.remove, ns.yes)
    if ns.cmd == "report":
        payload = None
        if ns.codex_notify:
            rest = [*([ns.state] if ns.state else []), *ns.payload, *extra]
            payload = rest[-1] if rest else "{}"
        return report(ns.state, ns.agent, ns.pane, payload, socket_path)
    if ns.cmd == "next":
        return go_next(ns.client, socket_path)
    return list_agents(socket_path)
