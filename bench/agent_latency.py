"""Seconds from an agent's screen change to the state the plugin publishes, per agent.

The screens are the real agents' (``tests/agents/fixtures``, recorded against the fake API):
a pane plays one recording (``bench/agent_player.py`` under ``HMUX_AGENT=<agent>``) in a real
hmux server running the agent plugin: the screens between two labelled marks are written at
the pace of a sweep, and at every labelled mark whose state differs from the previous one the
bench writes the bytes up to that mark and polls
``#{pane_agent_state}`` until it shows the state the live driver saw. Goals (issue 27):
working and waiting within 0.5 s, done (a turn ended, held 1 s against flicker) within 1.5 s.

    python bench/agent_latency.py [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "agents" / "fixtures"
AGENTS = ("claude", "codex", "gemini", "opencode", "aider")
TMUX = shutil.which("tmux") or "/usr/bin/tmux"


class Server:
    def __init__(self, tmp: Path) -> None:
        self.env = dict(os.environ, TMUX_TMPDIR=str(tmp), TMUX_C2RS_PLUGINS="agent",
                        PYTHONPATH=str(ROOT))
        self.env.pop("TMUX", None)
        self.label = "lat" + uuid.uuid4().hex[:6]
        self.path = str(tmp / f"hmux-{os.getuid()}" / self.label)
        conf = tmp / "conf"
        conf.write_text("set -g remain-on-exit on\n")
        subprocess.run([sys.executable, "-m", "hmux_core.cli", "-L", self.label, "-f", str(conf),
                        "new-session", "-d", "-s", "b", "-x", "120", "-y", "40", "sleep 3600"],
                       env=self.env, check=True)

    def cmd(self, *args: str) -> str:
        return subprocess.run([TMUX, "-S", self.path, *args], env=self.env, text=True,
                              capture_output=True, timeout=20).stdout

    def kill(self) -> None:
        self.cmd("kill-server")


def measure(server: Server, tmp: Path, agent: str) -> list[tuple[str, str, float]]:
    doc = json.loads((FIXTURES / f"{agent}.json").read_text())
    fifo = tmp / f"{agent}.ctl"
    os.mkfifo(fifo)
    pane = server.cmd("new-window", "-d", "-P", "-F", "#{pane_id}", "-e", f"HMUX_AGENT={agent}",
                      f"{sys.executable} {ROOT / 'bench' / 'agent_player.py'} "
                      f"{FIXTURES / (agent + '.bytes')} {fifo}").strip()
    ctl = open(fifo, "w")
    out = []
    prev = None
    phase = None
    for m in sorted(doc["marks"], key=lambda m: m["offset"]):
        ctl.write(f"{m['offset']}\n")
        ctl.flush()
        t0 = time.monotonic()
        if not m["labelled"]:
            # The screens between two looks, at the pace of one sweep when the phase
            # changes (the plugin samples a live agent's screens every 200 ms too).
            if m["step"] != phase:
                phase = m["step"]
                time.sleep(0.25)
            continue
        want = m["want"]
        if want == prev:
            continue
        prev = want
        got = ""
        while time.monotonic() - t0 < 6.0:
            got = server.cmd("display", "-p", "-t", pane, "#{pane_agent_state}").strip()
            if got == want:
                break
            time.sleep(0.01)
        dt = time.monotonic() - t0
        out.append((m["step"], want, dt if got == want else float("inf")))
    ctl.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    results: dict[str, dict[str, list[float]]] = {}
    for _ in range(args.rounds):
        tmp = Path(tempfile.mkdtemp(prefix="hmux-lat-"))
        server = Server(tmp)
        try:
            for agent in AGENTS:
                if not (FIXTURES / f"{agent}.json").exists():
                    continue
                for _step, want, dt in measure(server, tmp, agent):
                    results.setdefault(agent, {}).setdefault(want, []).append(dt)
        finally:
            server.kill()
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"load average {os.getloadavg()[0]:.1f}; seconds from the screen change to the "
          f"published state, median (max) over {args.rounds} rounds")
    states = ("waiting", "working", "idle", "done", "error")
    print(f"{'agent':<10}" + "".join(f"{s:>16}" for s in states))
    for agent, by in results.items():
        cells = []
        for s in states:
            v = by.get(s)
            cells.append(f"{statistics.median(v):.2f} ({max(v):.2f})" if v else "-")
        print(f"{agent:<10}" + "".join(f"{c:>16}" for c in cells))


if __name__ == "__main__":
    main()
