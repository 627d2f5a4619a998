"""``hmux doctor``: where this shell is, told the way a pane-driving tool would find out.

Detection is :mod:`hmux_core.detect`'s, so what doctor prints is what such a tool decides. A
tmux-compatible server (hmux or tmux) can also be asked about itself over ``$TMUX``: its attached
clients give the outer terminal (``#{client_termname}``), and since the server is a daemon, the
layers outside it are found by walking up from an attached client instead. Other multiplexers
cannot be asked, so nesting beyond them is reported as a lower bound.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

import click

from . import detect as D
from .tmux_shim import ShimError, install

_MAX_LAYERS = 8
#: Which multiplexers set each pane variable (rmux sets $TMUX_PANE too).
_PANE_VAR_OWNERS = {"RMUX_PANE": ("rmux",), "TMUX_PANE": ("tmux", "rmux"),
                    "HERDR_PANE_ID": ("herdr",), "WEZTERM_PANE": ("wezterm",),
                    "ZELLIJ_PANE_ID": ("zellij",), "CMUX_SURFACE_ID": ("cmux",),
                    "OTTY_PANE_ID": ("otty",)}


def _ask_server(env: Mapping[str, str]) -> dict[str, Any] | None:
    """The server ``$TMUX`` names: its pid, this pane's engine, the session's clients."""
    parts = env.get("TMUX", "").split(",")
    if len(parts) < 3 or not parts[0]:
        return None
    target = env.get("TMUX_PANE") or f"${parts[2]}"
    argv = [sys.executable, "-P", "-m", "hmux_core.cli", "-S", parts[0],
            "display-message", "-p", "-t", target, "#{pid}\t#{pane_engine}", ";",
            "list-clients", "-t", target, "-F",
            "#{client_activity}\t#{client_pid}\t#{client_termname}\t#{client_tty}"]
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=10,
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = r.stdout.splitlines()
    if r.returncode != 0 or not lines:
        return None
    pid, _, engine = lines[0].partition("\t")
    clients = []
    for line in lines[1:]:
        f = line.split("\t")
        if len(f) == 4 and f[1].isdigit():
            clients.append({"activity": int(f[0] or 0), "pid": int(f[1]), "termname": f[2],
                            "tty": f[3]})
    clients.sort(key=lambda c: -c["activity"])
    return {"socket": parts[0], "pid": int(pid) if pid.isdigit() else None,
            "engine": engine or None, "clients": clients}


def _environ_of(pid: int) -> dict[str, str] | None:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            data = f.read()
    except OSError:
        try:
            import psutil

            return psutil.Process(pid).environ()
        except Exception:
            return None
    return dict(item.split("=", 1) for item in data.decode(errors="replace").split("\0")
                if "=" in item)


def _nesting(env: Mapping[str, str], walk: D.Walk, first: dict[str, Any] | None) -> dict[str, Any]:
    """The multiplexers around this process, innermost first, hopping out of each tmux-like
    server through its most recently active client."""
    layers: list[dict[str, Any]] = []
    if walk.source is None:
        walk = D.ancestry()  # detection took the fast path (or could not walk): try once more
    server = first
    complete = walk.source is not None
    for _ in range(_MAX_LAYERS):
        found = walk.multiplexers()
        layers += [{"multiplexer": m, "name": p.name, "pid": p.pid} for p, m in found]
        if not found:
            break
        proc, mux = found[-1]
        if mux != "tmux":
            complete = False  # a zellij or wezterm server cannot be asked for its clients
            break
        if server is None:
            server = _ask_server(env)
        if server is None or server["pid"] != proc.pid:
            complete = False  # $TMUX names another server: cannot tell which client is ours
            break
        if not server["clients"]:
            break  # detached: nothing outside
        client = server["clients"][0]["pid"]
        env = _environ_of(client) or {}
        walk = D.ancestry(client)
        server = None
        if walk.source is None:
            complete = False
            break
    return {"depth": len(layers), "complete": complete, "layers": layers}


def report(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Everything doctor knows, as the ``--json`` output."""
    env = os.environ if env is None else env
    out: dict[str, Any] = {"export": None, "multiplexer": None, "how": None, "reason": None,
                           "pane": None, "pane_var": None, "process": None, "walk": None,
                           "server": None, "outer_terminal": None, "nesting": None,
                           "engine": None, "notes": [], "error": None}
    notes: list[str] = out["notes"]
    try:
        det = D.detect(env)
    except D.ScreenUnsupported as e:
        out.update(multiplexer="screen", error=str(e))
        walk = e.walk
        if walk is not None:
            out["walk"] = {"source": walk.source,
                           "ancestors": [{"pid": p.pid, "name": p.name} for p in walk.procs]}
        return out
    out.update(export=det.export_line(), multiplexer=det.mux, how=det.how, reason=det.reason(),
               pane=det.pane, pane_var=det.pane_var)
    if det.process:
        out["process"] = {"pid": det.process.pid, "name": det.process.name}
    if det.walk.source or det.how != "CYBER_MUX":
        out["walk"] = {"source": det.walk.source,
                       "ancestors": [{"pid": p.pid, "name": p.name} for p in det.walk.procs]}
    if det.ignored:
        notes.append(f"CYBER_MUX={det.ignored} is not a known value and was ignored")
    owners = _PANE_VAR_OWNERS.get(det.pane_var or "")
    if det.mux and owners and det.mux not in owners:
        notes.append(f"the pane comes from ${det.pane_var}, which {owners[0]} sets, not "
                     f"{det.mux}: pin CYBER_MUX_PANE if it is wrong")
    if det.how == "ancestry":
        stale = [var for var, mux in D.ENV_HINTS if env.get(var) and mux != det.mux]
        if stale:
            notes.append(", ".join(f"${v}" for v in stale) + " disagree(s) with the ancestry, "
                         "which wins (a stale hint or an outer layer)")
    server = _ask_server(env) if det.mux == "tmux" else None
    if server:
        out["server"] = {k: server[k] for k in ("socket", "pid", "clients")}
        out["engine"] = server["engine"]
        if server["clients"]:
            out["outer_terminal"] = server["clients"][0]["termname"]
    elif det.mux is None:
        out["outer_terminal"] = env.get("TERM") or None
    out["nesting"] = _nesting(env, det.walk, server)
    return out


def _print(r: dict[str, Any]) -> None:
    if r["error"]:
        click.echo(f"detected: screen: {r['error']}")
        return
    click.echo(r["export"])
    mux = r["multiplexer"] or "none"
    if r["process"] and r["process"]["name"].startswith("hmux"):
        mux += " (an hmux server, tmux-compatible)"
    click.echo(f"detected: {mux}: {r['reason']}")
    if r["multiplexer"]:
        pane = f"{r['pane']} (from ${r['pane_var']})" if r["pane"] else "unknown"
        click.echo(f"pane: {pane}")
    server = r["server"]
    if r["multiplexer"] is None:
        click.echo(f"terminal: {r['outer_terminal'] or 'unknown'} ($TERM, no multiplexer)")
    elif server and server["clients"]:
        c = server["clients"][0]
        others = len(server["clients"]) - 1
        more = f", {others} more client(s)" if others else ""
        click.echo(f"outer terminal: {c['termname']} (client pid {c['pid']} on {c['tty']}{more})")
    elif server:
        click.echo("outer terminal: none (no client attached to this session)")
    elif r["multiplexer"] == "tmux":
        click.echo("outer terminal: unknown (no server answered on the socket $TMUX names)")
    else:
        click.echo("outer terminal: unknown (only a tmux-compatible server can be asked)")
    n = r["nesting"]
    if n["layers"]:
        names = " in ".join(layer["name"].split(":")[0] for layer in n["layers"])
        bound = "" if n["complete"] else "at least "
        click.echo(f"nesting: {bound}{n['depth']} ({names})")
    if r["engine"]:
        click.echo(f"engine: {r['engine']}")
    for note in r["notes"]:
        click.echo(f"note: {note}")


@click.command(name="doctor", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.option("--install-shim", "shim_dir", metavar="DIR",
              help="Write a `tmux` that runs hmux into DIR (put DIR first on PATH to use it).")
def doctor(as_json: bool, shim_dir: str | None) -> None:
    """Say which multiplexer this shell is inside, and print the line that pins it."""
    if shim_dir is not None:
        try:
            path = install(shim_dir)
        except ShimError as e:
            raise click.ClickException(str(e)) from None
        click.echo(f"wrote {path}; to use it: export PATH={os.path.dirname(path)}:$PATH")
        return
    r = report()
    if as_json:
        click.echo(json.dumps(r, indent=2))
    else:
        _print(r)
    if r["error"]:
        raise click.exceptions.Exit(1)


def main(argv: list[str]) -> int:
    try:
        rc = doctor.main(args=argv, prog_name="hmux doctor", standalone_mode=False)
    except click.ClickException as e:
        e.show()
        return e.exit_code
    return rc if isinstance(rc, int) else 0  # click returns an Exit's code here
