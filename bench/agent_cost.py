"""What the agent plugin adds to a server's CPU and memory: 20 agents idle, 20 agents working.

Two servers run the same panes, one with ``TMUX_C2RS_PLUGINS=none`` and one with ``agent``;
the difference is the plugin's cost. The panes replay a real Claude Code screen
(``tests/agents/fixtures/claude``) under ``HMUX_AGENT=claude``: idle ones draw its prompt once,
working ones redraw its spinner line ten times a second as Claude does while it works. CPU is
the server process's user+system time over the measured wall time, as a share of one core;
memory is its resident set. Goals (issue 27): ≤ 1% of a core with 20 idle agents, ≤ 3% with 20
working, ≤ 5 MiB of memory added.

    python bench/agent_cost.py [--seconds N] [--agents N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "agents" / "fixtures" / "claude"
TMUX = shutil.which("tmux") or "/usr/bin/tmux"


def offset(step: str) -> int:
    doc = json.loads(FIXTURE.with_suffix(".json").read_text())
    return next(m["offset"] for m in doc["marks"] if m["step"] == step)


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def run(plugins: str, working: bool, agents: int, seconds: float) -> tuple[float, int, str]:
    tmp = Path(tempfile.mkdtemp(prefix="hmux-cost-"))
    env = dict(os.environ, TMUX_TMPDIR=str(tmp), TMUX_C2RS_PLUGINS=plugins,
               PYTHONPATH=str(ROOT), HMUX_AGENT="claude")
    env.pop("TMUX", None)
    label = "cost" + uuid.uuid4().hex[:6]
    path = str(tmp / f"hmux-{os.getuid()}" / label)
    conf = tmp / "conf"
    conf.write_text("")
    player = f"{sys.executable} {ROOT / 'bench' / 'agent_player.py'} {FIXTURE}.bytes --upto "
    player += f"{offset('streaming')} --spin 30" if working else f"{offset('prompt')}"
    subprocess.run([sys.executable, "-m", "hmux_core.cli", "-L", label, "-f", str(conf),
                    "new-session", "-d", "-s", "c", "-x", "120", "-y", "40", player],
                   env=env, check=True)

    def tmux(*a: str) -> str:
        return subprocess.run([TMUX, "-S", path, *a], env=env, text=True,
                              capture_output=True, timeout=30).stdout

    try:
        for _ in range(agents - 1):
            tmux("new-window", "-d", player)
        pid = int(tmux("display", "-p", "#{pid}").strip())
        time.sleep(6.0)  # identities found, screens classified, the first hold run out
        states = tmux("list-panes", "-a", "-F", "#{pane_agent_state}").split()
        c0, t0 = cpu_seconds(pid), time.monotonic()
        time.sleep(seconds)
        c1, t1 = cpu_seconds(pid), time.monotonic()
        rss = rss_kib(pid)
        summary = ",".join(sorted(set(states))) if plugins != "none" else "-"
        return (c1 - c0) / (t1 - t0) * 100.0, rss, summary
    finally:
        tmux("kill-server")
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--agents", type=int, default=20)
    args = ap.parse_args()
    print(f"{args.agents} panes replaying Claude Code, {args.seconds:.0f} s measured; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'panes':<10} {'plugins':<8} {'server CPU':>11} {'RSS':>10}  states")
    rows = {}
    for working in (False, True):
        for plugins in ("none", "agent"):
            cpu, rss, states = run(plugins, working, args.agents, args.seconds)
            rows[working, plugins] = (cpu, rss)
            print(f"{'working' if working else 'idle':<10} {plugins:<8} {cpu:>10.2f}% "
                  f"{rss / 1024:>8.1f} MiB  {states}")
    for working in (False, True):
        (c0, r0), (c1, r1) = rows[working, "none"], rows[working, "agent"]
        print(f"plugin adds, {'working' if working else 'idle'}: {c1 - c0:+.2f}% of a core, "
              f"{(r1 - r0) / 1024:+.1f} MiB")


if __name__ == "__main__":
    main()
