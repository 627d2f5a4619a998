"""Resident memory, hmux vs tmux in the same run: a pane's history, and a server of idle panes.

    python bench/memory.py [--engine python|ghostty] [--panes 50]

History: a detached 200x50 session idles in ``sleep``; the server's RSS is read, then a second
window ``cat``s 2100 lines of 200 columns (history-limit 2000, remain-on-exit on) and, once
the pane is dead (its history full: 1800-2000 lines), the RSS is read again: the difference is what one pane holding
2000 x 200 cells of history costs (pane and window included). Idle: a server with ``--panes``
panes running ``sleep``, its RSS once every pane has started.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from common import Server, machine, tmpdir, wait  # noqa: E402


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def pid_of(srv: Server) -> int:
    return int(srv.run("display", "-p", "#{pid}").strip())


def history_delta(prog: str, base: str, path: str) -> tuple[int, int, int]:
    conf = os.path.join(base, "mem.conf")
    with open(conf, "w") as f:
        f.write("set -g remain-on-exit on\nset -g history-limit 2000\n")
    srv = Server(prog, base, f"mem{prog}", conf)
    try:
        srv.run("new-session", "-d", "-s", "m", "-x", "200", "-y", "50", "sleep 100000")
        pid = pid_of(srv)
        wait(lambda: srv.run("display", "-p", "-t", "m", "#{pane_current_command}").strip()
             == "sleep", timeout=30, interval=0.05)
        before = rss_kib(pid)
        srv.run("new-window", "-d", "-t", "m:1", f"cat {path}")
        wait(lambda: srv.run("display", "-p", "-t", "m:1", "#{pane_dead}").strip() == "1",
             timeout=120, interval=0.05)
        hsize = int(srv.run("display", "-p", "-t", "m:1", "#{history_size}").strip())
        assert hsize >= 1800, hsize  # tmux keeps 90-100% of the limit
        return before, rss_kib(pid) - before, hsize
    finally:
        srv.kill()


def idle_rss(prog: str, base: str, panes: int) -> int:
    srv = Server(prog, base, f"idle{prog}")
    try:
        srv.run("new-session", "-d", "-s", "i", "-x", "80", "-y", "24", "sleep 100000")
        for _ in range(panes - 1):
            srv.run("new-window", "-d", "-t", "i", "sleep 100000")
        pid = pid_of(srv)
        fmt = "#{pane_current_command}"
        wait(lambda: srv.run("list-panes", "-s", "-t", "i", "-F", fmt).split().count("sleep")
             == panes, timeout=60, interval=0.1)
        return rss_kib(pid)
    finally:
        srv.kill()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", help="HMUX_ENGINE for the hmux server")
    ap.add_argument("--panes", type=int, default=50)
    ns = ap.parse_args()
    if ns.engine:
        os.environ["HMUX_ENGINE"] = ns.engine
    base = tmpdir()
    path = os.path.join(base, "wide.txt")
    with open(path, "w") as f:
        for i in range(2100):
            f.write((f"{i:06d} " + "abcdefghij" * 20)[:200] + "\n")
    print(f"machine: {machine()}, hmux engine: {os.environ.get('HMUX_ENGINE') or 'default'}")
    res = {prog: history_delta(prog, base, path) for prog in ("tmux", "hmux")}
    for prog, (before, delta, hsize) in res.items():
        print(f"{prog}: idle 200x50 server {before / 1024:6.1f} MiB, "
              f"+ pane with {hsize}x200 history {delta / 1024:6.1f} MiB")
    print(f"history delta hmux/tmux: {res['hmux'][1] / max(res['tmux'][1], 1):.2f}")
    idle = {prog: idle_rss(prog, base, ns.panes) for prog in ("tmux", "hmux")}
    for prog, kib in idle.items():
        print(f"{prog}: server with {ns.panes} idle panes {kib / 1024:6.1f} MiB")
    print(f"idle hmux/tmux: {idle['hmux'] / idle['tmux']:.2f}")


if __name__ == "__main__":
    main()
