"""Command round-trip latency: ``display -p '#{pane_id}'`` per client/server pair.

    python bench/latency.py [--n 50]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import HMUX, TMUX, Server, machine, tmpdir  # noqa: E402


def timeit(argv: list[str], env: dict[str, str], n: int) -> tuple[float, float]:
    samples = []
    for _ in range(n):
        t = time.perf_counter()
        subprocess.run(argv, capture_output=True, env=env, check=True)
        samples.append((time.perf_counter() - t) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.9) - 1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=50)
    ns = ap.parse_args()
    base = tmpdir()
    h = Server("hmux", base, "lat")
    t = Server("tmux", base, "lat")
    h.run("new-session", "-d")
    t.run("new-session", "-d")
    fmt = ["display", "-p", "#{pane_id}"]
    rows = [
        ("python3 -c pass (floor)", [sys.executable, "-c", "pass"], h.env),
        ("hmux client -> hmux", HMUX + ["-L", "lat"] + fmt, h.env),
        ("tmux client -> hmux", [TMUX, "-S", h.socket] + fmt, h.env),
        ("tmux client -> tmux", [TMUX, "-L", "lat"] + fmt, t.env),
    ]
    print(f"machine: {machine()}")
    print(f"{'pair':<26} {'median ms':>10} {'p90 ms':>8}")
    try:
        for name, argv, env in rows:
            med, p90 = timeit(argv, env, ns.n)
            print(f"{name:<26} {med:10.1f} {p90:8.1f}")
    finally:
        h.kill()
        t.kill()


if __name__ == "__main__":
    main()
