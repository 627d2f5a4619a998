"""Format expansion with the fuzzy matcher: a status line over 200 windows using ``m/z``.

    python bench/formats_mz.py [--n 30] [--windows 200]

One session of 200 windows, named like a working day's (editor, build, logs, ...), and a
window-list format that highlights the windows a fuzzy query matches and prints where it
matched (``m/z`` and ``m/p`` per window, as a switcher's status line would). hmux and the next
oracle (tmux's development tree, which has ``m/z``) each answer ``display -p`` with it; the same
client binary (the next oracle's) talks to both, so the difference is the servers'. The floor
row is ``display -p '#{pane_id}'`` (the round trip); the expansion costs are the rows above it
minus the floor. Each figure is the best of ``--n`` interleaved runs. tmux stops expanding a
format after 100 ms (its FORMAT_TIME_LIMIT; hmux has no such limit), so on a slow machine the
oracle's output may come back cut short: "outputs identical" then says False.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from common import Server, machine, tmpdir  # noqa: E402

NAMES = ("editor", "build", "logs", "shell", "tests", "server", "db", "notes", "review",
         "deploy")
STATUS = ("#{W:#{?#{m/z:ed bld|lgs,#{window_name}},#[reverse],}"
          "#{window_index}:#{window_name}#{?#{m/z:ed bld|lgs,#{window_name}},"
          "(#{m/p:ed bld|lgs,#{window_name}}),}#[default] }")
PLAIN = "#{W:#{window_index}:#{window_name} }"


def _next_oracle() -> str:
    from oracle import ORACLE_NEXT  # the one place the next oracle is chosen

    return ORACLE_NEXT


def _time(runs: list[tuple[list[str], dict[str, str]]], n: int) -> list[float]:
    """The fastest of ``n`` rounds for each command (rounds interleave the servers, and the
    minimum is what a machine shared with other work measures most steadily)."""
    samples: list[list[float]] = [[] for _ in runs]
    for _ in range(n):
        for i, (argv, env) in enumerate(runs):
            t = time.perf_counter()
            subprocess.run(argv, capture_output=True, env=env, check=True)
            samples[i].append((time.perf_counter() - t) * 1000)
    return [min(s) for s in samples]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--windows", type=int, default=200)
    ns = ap.parse_args()
    nxt = _next_oracle()
    base = tmpdir()
    h = Server("hmux", base, "mz")
    t = Server("tmux", base, "mz")
    t.argv = [nxt, "-L", "mz", "-f", "/dev/null"]
    t.socket = os.path.join(base, f"tmux-{os.getuid()}", "mz")
    servers = (("hmux", h), ("next", t))
    try:
        for _name, srv in servers:
            srv.run("new-session", "-d", "-x", "200", "-y", "50", "-n", NAMES[0])
            cmds: list[str] = []
            for i in range(1, ns.windows):
                cmds += ["new-window", "-d", "-n", f"{NAMES[i % len(NAMES)]}{i}", ";"]
            srv.run(*cmds[:-1])
        outs = [srv.run("display", "-p", STATUS) for _n, srv in servers]
        same = outs[0] == outs[1]
        print(f"machine: {machine()}")
        print(f"{ns.windows} windows, best of {ns.n} interleaved runs, the next oracle's client "
              f"to both servers; outputs identical: {same}")
        print(f"{'format':<34} {'hmux ms':>9} {'next ms':>9}")
        rows = (("floor: #{pane_id}", "#{pane_id}"), ("window list (no m/z)", PLAIN),
                ("window list with m/z and m/p", STATUS))
        results = {}
        for label, fmt in rows:
            cells = _time([([nxt, "-S", srv.socket, "display", "-p", fmt], srv.env)
                           for _n, srv in servers], ns.n)
            results[label] = cells
            print(f"{label:<34} {cells[0]:9.1f} {cells[1]:9.1f}")
        floor = results["floor: #{pane_id}"]
        mz = results["window list with m/z and m/p"]
        plain = results["window list (no m/z)"]
        print(f"{'m/z status expansion (- floor)':<34} {mz[0] - floor[0]:9.1f} "
              f"{mz[1] - floor[1]:9.1f}")
        print(f"{'of which m/z and m/p':<34} {mz[0] - plain[0]:9.1f} {mz[1] - plain[1]:9.1f}")
        if not same:
            print("hmux:", outs[0][:200])
            print("next:", outs[1][:200])
    finally:
        for _n, srv in servers:
            srv.kill()


if __name__ == "__main__":
    main()
