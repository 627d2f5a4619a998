"""``hmux plugins``: what is installed, what the server runs, and how it is doing.

Installed plugins come from this environment's entry points; live state (enabled, ticks,
failures, last tick) from the server on the socket, asked with ``display -p '#{plugins_json}'``
through hmux's own client. Without a server, the selection ``TMUX_C2RS_PLUGINS`` in this shell
would make is shown instead.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

import click

from .plugin.manager import DEFAULT_SET, ENV_VAR, distribution_of, installed, selection


def _server_status(socket_path: str) -> list[dict[str, Any]] | None:
    if not os.path.exists(socket_path):
        return None
    try:
        r = subprocess.run(
            [sys.executable, "-P", "-m", "hmux_core.cli", "-S", socket_path, "display-message", "-p",
             "#{plugins_json}"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if r.returncode != 0:
        return None
    text = r.stdout.strip()
    if not text:
        return []  # the server runs with no plugins selected
    try:
        return json.loads(text)
    except ValueError:
        return None


def _rows(socket_path: str) -> tuple[list[dict[str, Any]], str]:
    live = _server_status(socket_path)
    rows: dict[str, dict[str, Any]] = {}
    for ep in installed():
        dist, version = distribution_of(ep)
        rows[ep.name] = {"name": ep.name, "distribution": dist, "version": version,
                         "entry_point": ep.value, "enabled": False, "reason": ""}
    if live is not None:
        source = "server"
        for r in rows.values():
            r["reason"] = "not selected by the server's " + ENV_VAR
        for st in live:
            rows.setdefault(st["name"], {"name": st["name"]}).update(st)
    else:
        source = "environment"
        value = os.environ.get(ENV_VAR)
        wanted = selection(value)
        for name, r in rows.items():
            if wanted is None or name in wanted:
                r["enabled"] = True
                r["reason"] = "selected (no server running)"
            elif value is None:
                r["reason"] = f"not in the default set ({','.join(DEFAULT_SET)})"
            else:
                r["reason"] = f"not selected by {ENV_VAR}={value}"
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


def main(argv: list[str], socket_path: str) -> int:
    try:
        plugins.main(args=argv, prog_name="hmux plugins", obj=socket_path, standalone_mode=False)
    except click.exceptions.Exit as e:
        return int(e.exit_code or 0)
    except click.ClickException as e:
        e.show()
        return e.exit_code
    return 0
