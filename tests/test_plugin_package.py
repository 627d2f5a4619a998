"""A third-party plugin as a real distribution: built and pip-installed into a fresh virtual
environment beside hmux, found by its entry point, and gone with TMUX_C2RS_PLUGINS=none."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

import pytest
from harness import Mux, base_env, wait_for

EXAMPLE = os.path.join(os.path.dirname(__file__), "plugins", "hmux-plugin-example")


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> str:
    """A venv that sees this interpreter's packages (hmux among them) plus the example plugin,
    installed with pip from its source tree (a wheel is built on the way)."""
    root = str(tmp_path_factory.mktemp("venv") / "v")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", root], check=True)
    py = os.path.join(root, "bin", "python")
    r = subprocess.run([py, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                        "--disable-pip-version-check", EXAMPLE], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return py


def _mux(py: str, tmp_path, selection: str | None, request) -> Mux:
    d = tmp_path / uuid.uuid4().hex[:6]
    d.mkdir()
    env = base_env(str(d))
    env.pop("PYTHONPATH", None)
    env["PATH"] = os.path.dirname(py) + os.pathsep + env["PATH"]
    if selection is None:
        env.pop("TMUX_C2RS_PLUGINS")
    else:
        env["TMUX_C2RS_PLUGINS"] = selection
    m = Mux([py, "-m", "hmux_core.cli"], ["-L", "pkg"], env, cwd=env["HOME"])
    request.addfinalizer(m.kill)
    return m


def test_installed_plugin_is_found_and_expands(venv, tmp_path, request):
    r = subprocess.run([venv, "-m", "pip", "show", "hmux-plugin-example"], capture_output=True,
                       text=True)
    assert "Version: 1.2.0" in r.stdout
    m = _mux(venv, tmp_path, "example", request)
    m.ok("new", "-d", "-c", "/usr/share", "cat -")
    wait_for(lambda: m.ok("display", "-p", "#{example_depth}") == "2\n")
    assert m.ok("list-panes", "-F", "#{pane_id}:#{example_depth}:#{example_busy}") == \
        "%0:2:quiet\n"
    # What a status line draws goes through the same expansion (#{E:} of an option).
    m.ok("set", "-g", "status-right", "[#{example_depth}]")
    assert m.ok("display", "-p", "#{E:status-right}") == "[2]\n"
    assert m.ok("show", "-gv", "@example-busy-seconds") == "2\n"
    rows = {p["name"]: p for p in json.loads(m.ok("plugins", "--json"))["plugins"]}
    assert rows["example"]["enabled"]
    assert rows["example"]["distribution"] == "hmux-plugin-example"
    assert rows["example"]["version"] == "1.2.0"


def test_installed_plugin_gone_with_none(venv, tmp_path, request):
    m = _mux(venv, tmp_path, "none", request)
    m.ok("new", "-d", "-c", "/usr/share", "cat -")
    assert m.ok("display", "-p", "[#{example_depth}]") == "[]\n"
    assert m.cmd("show", "-gv", "@example-busy-seconds").out == ""
    rows = {p["name"]: p for p in json.loads(m.ok("plugins", "--json"))["plugins"]}
    assert not rows["example"]["enabled"]
