"""hmux_core.detect against real process ancestries.

Each ancestry is a chain of real processes: ``/bin/sh`` run through symlinks named ``zellij``,
``wezterm-mux-server``, ``rmux-daemon``… (the kernel names a process after the path it was exec'd
by, so ``comm``, psutil and ``ps`` all see that name), ending in a probe that calls ``detect()``.
The chain is started orphaned, so its walk ends at init and never sees the test runner's own
ancestry (which may well be inside a tmux). Real tmux 3.3a and hmux servers provide the real
cases.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import uuid

import pytest
from harness import base_env, wait_for

from hmux_core import detect as D

PROBE = r'''
import json, os, sys
if sys.argv[2] == "nopsutil":
    sys.modules["psutil"] = None  # import psutil now raises ImportError, as when not installed
from hmux_core import detect as D

def one(environ):
    try:
        d = D.detect(environ)
    except D.ScreenUnsupported as e:
        return {"error": type(e).__name__, "message": str(e), "where": e.where}
    return {"mux": d.mux, "how": d.how, "pane": d.pane, "pane_var": d.pane_var,
            "process": d.process.name if d.process else None, "hint": d.hint,
            "source": d.walk.source, "ancestors": [p.name for p in d.walk.procs],
            "export": d.export_line(), "ignored": d.ignored}

extra = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else []
results = [one(os.environ)] + [one(e) for e in extra]
with open(sys.argv[1] + ".tmp", "w") as f:
    json.dump(results, f)
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
'''


@pytest.fixture
def lab(tmp_path):
    return Lab(tmp_path)


class Lab:
    """Builds named processes and runs the probe at the bottom of them."""

    def __init__(self, root) -> None:
        self.root = root
        self.bin = root / "bin"
        self.bin.mkdir()
        self.probe = root / "probe.py"
        self.probe.write_text(PROBE)
        self.env = base_env(str(root))
        self.env["PATH"] = "/usr/bin:/bin"
        self.env.pop("TMUX_C2RS_PLUGINS")

    def named(self, name: str, target: str = "/bin/sh") -> str:
        path = self.bin / name
        if not path.exists():
            path.symlink_to(target)
        return str(path)

    def probe_command(self, psutil: bool = True, envs: list[dict[str, str]] | None = None) -> tuple[str, str]:
        """The shell command running the probe, and the file it writes."""
        out = str(self.root / f"out-{uuid.uuid4().hex[:8]}.json")
        argv = [sys.executable, str(self.probe), out, "psutil" if psutil else "nopsutil"]
        if envs is not None:
            extra = self.root / f"envs-{uuid.uuid4().hex[:8]}.json"
            extra.write_text(json.dumps(envs))
            argv.append(str(extra))
        return " ".join(shlex.quote(a) for a in argv), out

    def chain(self, names: list[str], inner: str) -> str:
        """``inner`` run under processes called ``names``, outermost first. Each level is a shell
        that must wait for its child (the ``; true``), so none of them execs away."""
        cmd = inner
        for name in reversed(names):
            cmd = f"{shlex.quote(self.named(name))} -c {shlex.quote(cmd + '; true')}"
        return cmd

    def run(self, names: list[str], env: dict[str, str] | None = None, psutil: bool = True,
            envs: list[dict[str, str]] | None = None) -> list[dict]:
        inner, out = self.probe_command(psutil, envs)
        full = dict(self.env, **(env or {}))
        # The outer sh backgrounds the chain and exits: the chain is orphaned to init.
        subprocess.run(["/bin/sh", "-c", self.chain(names, inner) + " >/dev/null 2>&1 &"],
                       env=full, check=True, timeout=10)
        wait_for(lambda: os.path.exists(out), timeout=20)
        with open(out) as f:
            return json.load(f)


# -- CYBER_MUX: fast path and override ------------------------------------------------------------


@pytest.mark.parametrize("value", ["tmux", "rmux", "herdr", "wezterm", "zellij", "cmux", "otty"])
def test_cyber_mux_is_trusted_outright_over_the_ancestry(lab, value):
    r = lab.run(["zellij", "sh"], {"CYBER_MUX": value, "CYBER_MUX_PANE": "p7",
                                   "ZELLIJ": "0", "ZELLIJ_PANE_ID": "3"})[0]
    assert (r["mux"], r["how"], r["pane"], r["pane_var"]) == (value, "CYBER_MUX", "p7", "CYBER_MUX_PANE")
    assert r["source"] is None  # the fast path does not walk
    assert r["export"] == f"export CYBER_MUX={value} CYBER_MUX_PANE=p7"


def test_cyber_mux_none_forces_no_multiplexer_inside_one(lab):
    r = lab.run(["tmux", "sh"], {"CYBER_MUX": "none", "TMUX": "/tmp/x,1,0", "TMUX_PANE": "%1"})[0]
    assert (r["mux"], r["how"], r["pane"]) == (None, "CYBER_MUX", None)
    assert r["export"] == "export CYBER_MUX=none"


def test_cyber_mux_screen_is_refused_with_a_named_error(lab):
    r = lab.run(["zellij", "sh"], {"CYBER_MUX": "screen"})[0]
    assert r["error"] == "ScreenUnsupported"
    assert r["where"] == "pinned by CYBER_MUX=screen"
    assert "no per-pane id" in r["message"] and "use tmux, rmux" in r["message"]


@pytest.mark.parametrize("value", ["TMUX", "kitty", ""])
def test_unknown_cyber_mux_value_is_ignored_and_discovery_runs(lab, value):
    r = lab.run(["herdr", "sh"], {"CYBER_MUX": value, "CYBER_MUX_PANE": "9"})[0]
    assert (r["mux"], r["how"], r["process"]) == ("herdr", "ancestry", "herdr")
    assert r["ignored"] == (value or None)
    assert r["pane"] == "9"  # CYBER_MUX_PANE still leads the self-pane order


# -- the ancestry walk ----------------------------------------------------------------------------


@pytest.mark.parametrize("name, mux", [
    ("tmux", "tmux"), ("hmux", "tmux"), ("rmux-daemon", "rmux"), ("rmux", "rmux"),
    ("herdr", "herdr"), ("wezterm", "wezterm"), ("wezterm-gui", "wezterm"),
    ("wezterm-mux-server", "wezterm"), ("zellij", "zellij"),
])
def test_ancestor_names(lab, name, mux):
    r = lab.run([name, "sh"])[0]
    assert (r["mux"], r["how"], r["source"]) == (mux, "ancestry", "psutil")
    assert r["ancestors"][:2] == ["sh", r["process"]]
    assert r["process"].startswith(name[:15])


def test_screen_ancestor_is_reported_and_refused(lab):
    r = lab.run(["screen", "bash"])[0]
    assert r["error"] == "ScreenUnsupported" and r["where"].startswith("ancestor 'screen', pid ")


def test_walks_past_the_tools_own_shells(lab):
    r = lab.run(["zellij", "fish", "bash", "sh", "sh"])[0]
    assert r["ancestors"][:5] == ["sh", "sh", "bash", "fish", "zellij"]
    assert (r["mux"], r["process"]) == ("zellij", "zellij")


def test_nearest_multiplexer_wins(lab):
    assert lab.run(["wezterm-gui", "sh", "zellij", "sh"])[0]["mux"] == "zellij"
    assert lab.run(["zellij", "sh", "wezterm-gui", "sh"])[0]["mux"] == "wezterm"
    # A tmux-compatible layer inside screen is drivable; screen outside it does not matter.
    r = lab.run(["screen", "sh", "tmux", "sh"])[0]
    assert (r["mux"], r["process"]) == ("tmux", "tmux")


def test_cmux_and_otty_are_not_found_by_process_name(lab):
    r = lab.run(["cmux", "otty", "sh"])[0]
    assert (r["mux"], r["how"]) == (None, "nothing")
    assert r["ancestors"][:3] == ["sh", "otty", "cmux"]


def test_names_that_only_look_like_multiplexers(lab):
    r = lab.run(["tmuxinator", "zellij-helper", "xscreen", "sh"])[0]
    assert (r["mux"], r["how"]) == (None, "nothing")


def test_no_multiplexer_and_no_hint(lab):
    r = lab.run(["bash", "sh"])[0]
    assert (r["mux"], r["how"], r["pane"]) == (None, "nothing", None)
    assert r["source"] == "psutil" and r["ancestors"][:2] == ["sh", "bash"]
    assert r["export"] == "export CYBER_MUX=none"


# -- env hints: disagreeing, stale, the fallback and its order ------------------------------------


def test_ancestry_wins_over_disagreeing_hints(lab):
    hints = {"RMUX": "1", "TMUX": "/tmp/tmux-0/default,1,0", "HERDR_ENV": "1", "WEZTERM_PANE": "4",
             "ZELLIJ": "0", "CMUX_WORKSPACE_ID": "w", "OTTY_PANE_ID": "o"}
    r = lab.run(["herdr", "sh"], hints)[0]
    assert (r["mux"], r["how"], r["hint"]) == ("herdr", "ancestry", None)


def test_stale_tmux_hint_loses_to_the_verified_ancestor(lab, tmp_path):
    # $TMUX left over from a server that is gone: its socket does not exist, its pid is dead.
    stale = {"TMUX": f"{tmp_path}/gone/default,999999,0", "TMUX_PANE": "%5"}
    r = lab.run(["wezterm-mux-server", "sh"], stale)[0]
    assert (r["mux"], r["how"]) == ("wezterm", "ancestry")
    # Where the walk finds nothing, the seed uses the hint, unverified, and says so.
    r = lab.run(["sh"], stale)[0]
    assert (r["mux"], r["how"], r["hint"], r["pane"]) == ("tmux", "env", "TMUX", "%5")


def test_env_hint_order_when_the_walk_finds_nothing(lab):
    all_hints = [("RMUX", "rmux"), ("TMUX", "tmux"), ("HERDR_ENV", "herdr"),
                 ("WEZTERM_PANE", "wezterm"), ("ZELLIJ", "zellij"), ("CMUX_WORKSPACE_ID", "cmux"),
                 ("OTTY_PANE_ID", "otty")]
    base = {k: v for k, v in lab.env.items()}
    envs = []
    for i in range(len(all_hints)):  # drop the hints from the front one at a time
        envs.append(dict(base, **{var: "x" for var, _ in all_hints[i:]}))
    envs.append(dict(base, TMUX=""))  # empty is unset
    results = lab.run(["bash", "sh"], envs=envs)[1:]
    assert [(r["mux"], r["how"], r["hint"]) for r in results] == (
        [(mux, "env", var) for var, mux in all_hints] + [(None, "nothing", None)])


def test_rmux_before_tmux(lab):
    # An rmux pane sets $TMUX and $TMUX_PANE too, for tmux compatibility.
    env = {"RMUX": "/run/rmux", "RMUX_PANE": "r2", "TMUX": "/run/rmux,1,0", "TMUX_PANE": "%2"}
    r = lab.run(["sh"], env)[0]
    assert (r["mux"], r["hint"], r["pane"], r["pane_var"]) == ("rmux", "RMUX", "r2", "RMUX_PANE")
    r = lab.run(["rmux-daemon", "sh"], env)[0]
    assert (r["mux"], r["how"], r["pane"]) == ("rmux", "ancestry", "r2")


# -- where the walk gets its data: psutil, then ps, then nothing ----------------------------------


def test_without_psutil_the_walk_uses_ps(lab):
    r = lab.run(["wezterm-mux-server", "bash"], psutil=False)[0]
    assert r["source"] == "ps"
    # ps shows the kernel's 15-byte comm; it still counts.
    assert r["process"] == "wezterm-mux-ser"
    assert (r["mux"], r["how"]) == ("wezterm", "ancestry")


def test_without_psutil_or_ps_the_hints_decide(lab, tmp_path):
    env = {"PATH": str(tmp_path / "nothing-here"), "TMUX": "/tmp/x,1,0", "TMUX_PANE": "%9"}
    r = lab.run(["zellij", "sh"], env, psutil=False)[0]
    # The zellij ancestor is there but cannot be seen: the walk is inconclusive, not negative.
    assert (r["source"], r["ancestors"]) == (None, [])
    assert (r["mux"], r["how"], r["hint"], r["pane"]) == ("tmux", "env", "TMUX", "%9")


def test_a_failing_ps_is_inconclusive(lab, tmp_path):
    fake = tmp_path / "fakebin"
    fake.mkdir()
    (fake / "ps").write_text("#!/bin/sh\necho 'ps: cannot read /proc' >&2\nexit 1\n")
    (fake / "ps").chmod(0o755)
    r = lab.run(["zellij", "sh"], {"PATH": str(fake), "WEZTERM_PANE": "12"}, psutil=False)[0]
    assert (r["source"], r["mux"], r["how"], r["pane"]) == (None, "wezterm", "env", "12")


# -- the self pane --------------------------------------------------------------------------------


def test_self_pane_order():
    order = list(D.PANE_VARS)
    assert order == ["CYBER_MUX_PANE", "RMUX_PANE", "TMUX_PANE", "HERDR_PANE_ID", "WEZTERM_PANE",
                     "ZELLIJ_PANE_ID", "CMUX_SURFACE_ID", "OTTY_PANE_ID"]
    for i, var in enumerate(order):
        env = {v: f"id-{v}" for v in order[i:]}
        env["PATH"] = "/bin"
        assert D.self_pane(env) == (f"id-{var}", var)
    assert D.self_pane({"TMUX_PANE": "", "ZELLIJ_PANE_ID": "7"}) == ("7", "ZELLIJ_PANE_ID")
    assert D.self_pane({}) == (None, None)


def test_multiplexer_of_spellings():
    assert D.multiplexer_of("tmux: server") == "tmux"  # tmux retitles itself on Linux
    assert D.multiplexer_of("/Applications/WezTerm.app/Contents/MacOS/wezterm-gui") == "wezterm"
    assert D.multiplexer_of("wezterm-mux-ser") == "wezterm"
    assert D.multiplexer_of("SCREEN") == "screen"
    assert D.multiplexer_of("rmux-dae") is None  # only a cut at exactly 15 bytes is a prefix
    assert D.multiplexer_of("python3") is None


# -- real servers ---------------------------------------------------------------------------------


def _pane_probe(lab, mux, extra_env: str = "") -> dict:
    inner, out = lab.probe_command()
    mux.ok("new-session", "-d", "-s", "probe", f"{extra_env}{inner}; exec sleep 600")
    wait_for(lambda: os.path.exists(out), timeout=20)
    with open(out) as f:
        return json.load(f)[0]


def test_inside_a_real_tmux_pane(lab, tmux):
    r = _pane_probe(lab, tmux)
    pid = tmux.server_pid()
    assert (r["mux"], r["how"], r["process"]) == ("tmux", "ancestry", "tmux: server")
    assert (r["pane"], r["pane_var"]) == ("%0", "TMUX_PANE")
    assert r["ancestors"][0] == "sh"
    assert str(pid) in tmux.ok("display", "-p", "#{pid}")
    assert r["export"] == "export CYBER_MUX=tmux CYBER_MUX_PANE=%0"


def test_inside_a_real_hmux_pane(lab, hmux):
    r = _pane_probe(lab, hmux)
    assert (r["mux"], r["how"], r["process"]) == ("tmux", "ancestry", "hmux")
    assert (r["pane"], r["pane_var"]) == ("%0", "TMUX_PANE")
    assert r["export"] == "export CYBER_MUX=tmux CYBER_MUX_PANE=%0"


def test_zellij_inside_tmux_the_nearest_wins_and_the_pane_follows_the_seed_order(lab, tmux):
    inner, out = lab.probe_command()
    chain = lab.chain(["zellij", "sh"], inner)
    tmux.ok("new-session", "-d", "-s", "z", f"ZELLIJ=0 ZELLIJ_PANE_ID=4 {chain}; exec sleep 600")
    wait_for(lambda: os.path.exists(out), timeout=20)
    r = json.load(open(out))[0]
    assert (r["mux"], r["how"], r["process"]) == ("zellij", "ancestry", "zellij")
    assert "tmux: server" in r["ancestors"]
    # $TMUX_PANE comes before $ZELLIJ_PANE_ID in the self-pane order, inherited or not.
    assert (r["pane"], r["pane_var"]) == ("%0", "TMUX_PANE")
