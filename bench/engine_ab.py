"""One engine's throughput in two checkouts of hmux, alternating, in the same run.

    python bench/engine_ab.py OLD_TREE NEW_TREE [--engine python|ghostty] [--mib 2] [--runs 2]

Each tree (a checkout, e.g. ``git archive 179e8cf | tar -x -C /tmp/old``) is imported in a
child process of its own; the workloads of ``bench/screen_throughput.py`` (this checkout's,
so both trees get the same bytes) are fed in-process into ``new_screen(200, 50, 2000)`` five
times and the best feed counts. The trees alternate run by run so a loaded machine slows both
alike. Used for "must not slow the benchmarks by more than 5 %" (issue 23).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = r"""
import sys, time
tree, bench, wl, engine, mib = sys.argv[1:6]
sys.path.insert(0, tree)
sys.path.insert(1, bench)
# the tree's engine first: screen_throughput puts this checkout at the front of sys.path
from hmux_core.screen import new_screen
import screen_throughput as st
assert new_screen.__module__ == "hmux_core.screen" and sys.modules["hmux_core"].__file__.startswith(tree)
data = st.WORKLOADS[wl](int(float(mib) * 1024 * 1024))
best = 1e9
for _ in range(5):
    s = new_screen(200, 50, 2000, engine=engine)
    t = time.perf_counter()
    st.feed_all(s, data)
    best = min(best, time.perf_counter() - t)
print(f"{len(data) / best / 1e6:.2f}")
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--engine", default="python")
    ap.add_argument("--mib", type=float, default=2)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--workloads", default="plain,sgr-heavy")
    ns = ap.parse_args()
    print(f"engine {ns.engine}, {ns.mib} MiB per workload, best of 5 feeds, load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for wl in ns.workloads.split(","):
        got: dict[str, list[str]] = {"old": [], "new": []}
        for _ in range(ns.runs):
            for name in ("old", "new"):
                tree = os.path.abspath(getattr(ns, name))
                out = subprocess.run([sys.executable, "-c", CHILD, tree, HERE, wl, ns.engine,
                                      str(ns.mib)], capture_output=True, text=True,
                                     env=dict(os.environ, PYTHONPATH=tree), check=True)
                got[name].append(out.stdout.strip())
        print(f"{wl:10s} old {', '.join(got['old'])} MB/s   new {', '.join(got['new'])} MB/s")


if __name__ == "__main__":
    main()
