"""``hmux plugins``: what is installed, what the server runs, and how it is doing.

Installed plugins come from this environment's entry points; live state (enabled, ticks,
failures, last tick) from the server on the socket, asked with ``display -p '#{plugins_json}'``
through hmux's own client. Without a server, the selection ``TMUX_C2RS_PLUGINS`` in this shell
would make is shown instead. Every installed plugin that is not running gets the exact line that
would enable it (the ``plugins`` option, or the variable when that is set).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

import click

from .plugin.manager import distribution_of, installed
from .plugin.selection import DEFAULT_SET, ENV_VAR, OPTION, selection


def _server_status(socket_path: str) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
    """The server's plugin rows and how it selects them (None: no server answered)."""
    if not os.path.exists(socket_path):
        return None
    try:
        r = subprocess.run(
            [sys.executable, "-P", "-m", "hmux_core.cli", "-S", socket_path, "display-message", "-p",
             "#{plugins_json}\t#{plugins_selection}"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if r.returncode != 0:
        return None
    rows_text, _, selection_text = r.stdout.strip("\n").partition("\t")
    if not rows_text:
        return [], {"env": "none"}  # the server runs with no plugins selected
    try:
        return json.loads(rows_text), json.loads(selection_text or "{}")
    except ValueError:
        return None


def _names(value: str | None, installed_names: list[str]) -> list[str]:
    wanted = selection(value)
    return list(installed_names) if wanted is None else list(wanted)


def enable_line(name: str, env: str | None, option: str | None, live: bool,
                installed_names: list[str]) -> str:
    """The exact line that would enable ``name``: the ``plugins`` option when the variable
    is unset (it wins when set), else the variable itself."""
    if env is None:
        names = _names(option if option is not None else ",".join(DEFAULT_SET), installed_names)
        value = ",".join(names + [name])
        if live:
            return f"hmux set -s plugins '{value}'   (now; in ~/.hmux.conf: set -s plugins '{value}')"
        return f"set -s plugins '{value}'   (in ~/.hmux.conf)"
    names = [n for n in _names(env, installed_names) if n != name]
    value = ",".join(names + [name])
    restart = " and restart the server" if live else ""
    return f"export {ENV_VAR}={value}{restart}"


def _rows(socket_path: str) -> tuple[list[dict[str, Any]], str]:
    live = _server_status(socket_path)
    rows: dict[str, dict[str, Any]] = {}
    for ep in installed():
        dist, version = distribution_of(ep)
        rows[ep.name] = {"name": ep.name, "distribution": dist, "version": version,
                         "entry_point": ep.value, "enabled": False, "reason": ""}
    names = list(rows)
    if live is not None:
        source = "server"
        states, how = live
        env, option = how.get("env"), how.get("option")
        for name, r in rows.items():
            if env is None:
                r["reason"] = f"not selected by the server's {OPTION} option"
            else:
                r["reason"] = f"not selected by the server's {ENV_VAR}={env}"
            r["enable"] = enable_line(name, env, option, True, names)
        for st in states:
            row = rows.setdefault(st["name"], {"name": st["name"]})
            row.update(st)
            if row.get("enabled"):
                row.pop("enable", None)
    else:
        source = "environment"
        value = os.environ.get(ENV_VAR)
        wanted = selection(value)
        for name, r in rows.items():
            if wanted is None or name in wanted:
                r["enabled"] = True
                r["reason"] = "selected (no server running)"
                continue
            if value is None:
                r["reason"] = f"not in the default set ({','.join(DEFAULT_SET)})"
            else:
                r["reason"] = f"not selected by {ENV_VAR}={value}"
            r["enable"] = enable_line(name, value, None, False, names)
    return list(rows.values()), source


@click.command(name="plugins", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@click.pass_obj
def plugins(socket_path: str, as_json: bool) -> None:
    """List installed hmux plugins and what the server does with them."""
    rows, source = _rows(socket_path)
    if as_json:
        click.echo(json.dumps({"source": source, "plugins": rows}, indent=2))
        return
    if not rows:
        click.echo("no plugins installed")
        return
    for r in rows:
        state = "enabled" if r.get("enabled") else "disabled"
        dist = f"{r.get('distribution', '')} {r.get('version', '')}".strip()
        click.echo(f"{r['name']}: {state} ({r.get('reason', '')}) [{dist or '?'}]")
        if r.get("variables"):
            click.echo(f"    variables: {' '.join(r['variables'])}")
        if r.get("interval") is not None:
            last = r.get("last_tick") or 0
            ago = f"{time.time() - last:.1f}s ago" if last else "never"
            click.echo(f"    interval {r['interval']}s, {r.get('ticks', 0)} ticks, last {ago}, "
                       f"{r.get('failures', 0)} failures")
        if r.get("hung_for"):
            click.echo(f"    tick running for {r['hung_for']}s")
        if r.get("enable") and not r.get("enabled"):
            click.echo(f"    to enable: {r['enable']}")


def main(argv: list[str], socket_path: str) -> int:
    try:
        plugins.main(args=argv, prog_name="hmux plugins", obj=socket_path, standalone_mode=False)
    except click.exceptions.Exit as e:
        return int(e.exit_code or 0)
    except click.ClickException as e:
        e.show()
        return e.exit_code
    return 0
