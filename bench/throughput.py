"""Throughput: N MB of output into a detached 200x50 pane (history-limit 2000), hmux against
tmux 3.7b and GNU screen in the same run.

    python bench/throughput.py [--mb 20] [--engine python|ghostty] [--only plain|sgr|long|tabs]

Workloads: ``plain`` (``ls -l``-style lines), ``sgr`` (a line of colour changes per few words),
``long`` (plain log lines of 250-600 characters, each wrapping in the 200-column pane),
``tabs`` (tab-indented code and tab-separated columns).

``--engine`` sets HMUX_ENGINE for the hmux server; without it every installed engine is run.
screen runs ``cat`` in a detached session (``screen -D -m``, scrollback 2000), which returns
when ``cat`` has finished; its window is its detached default size (80x24), not 200x50.

The pane runs ``cat FILE``; because a PTY holds only a few KiB, ``cat`` finishes when the
multiplexer has read (and parsed) nearly everything, so start-to-exit time is ingestion time.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import SCREEN, TMUX, Server, machine, tmpdir, wait  # noqa: E402


def make_plain(path: str, size: int) -> None:
    rnd = random.Random(1)
    with open(path, "w") as f:
        n = 0
        while n < size:
            line = f"-rw-r--r-- 1 user group {rnd.randint(0, 10**7):>9} Dec  2 18:17 file_{n:08d}.txt\n"
            f.write(line)
            n += len(line)


def make_long(path: str, size: int) -> None:
    """Log lines longer than the 200-column pane (each wraps onto two to four rows)."""
    rnd = random.Random(3)
    words = ["GET", "/api/v1/items", "200", "user_id=1234", "took", "12ms", "trace", "INFO"]
    with open(path, "w") as f:
        n = 0
        while n < size:
            line = f"{n:>10} " + " ".join(rnd.choice(words) for _ in range(rnd.randint(30, 80)))
            f.write(line + "\n")
            n += len(line) + 1


def make_tabs(path: str, size: int) -> None:
    """Tab-indented source lines and tab-separated columns (what ``cat`` of code or a TSV
    file sends)."""
    rnd = random.Random(4)
    with open(path, "w") as f:
        n = 0
        while n < size:
            if rnd.random() < 0.5:
                line = "\t" * rnd.randint(0, 4) + f"if (x->field == {n}) {{ return y; }}"
            else:
                line = "\t".join(str(rnd.randint(0, 10**rnd.randint(1, 9))) for _ in range(8))
            f.write(line + "\n")
            n += len(line) + 1


def make_sgr(path: str, size: int) -> None:
    rnd = random.Random(2)
    words = ["def", "return", "self", "import", "value", "(", ")", ":", "for", "in", "x", "=", "1"]
    with open(path, "w") as f:
        n = 0
        while n < size:
            parts = [f"\x1b[38;5;{rnd.randint(0, 255)}m{n % 9999:>4}\x1b[0m \u2502 "]
            for _ in range(rnd.randint(5, 10)):
                r, g, b = rnd.randint(0, 255), rnd.randint(0, 255), rnd.randint(0, 255)
                parts.append(f"\x1b[38;2;{r};{g};{b}m{rnd.choice(words)}\x1b[0m ")
            line = "".join(parts) + "\n"
            f.write(line)
            n += len(line.encode())


def run_one(prog: str, path: str, base: str) -> float:
    conf = os.path.join(base, "bench.conf")
    with open(conf, "w") as f:
        f.write("set -g remain-on-exit on\nset -g history-limit 2000\n")
    srv = Server(prog, base, f"tp{prog}", conf)
    try:
        srv.run("new-session", "-d", "-s", "keep", "-x", "200", "-y", "50", "sleep 100000")
        start = time.perf_counter()
        srv.run("new-window", "-d", "-t", "keep:9", f"cat {path}")
        # Poll with the (cheap, C) stock tmux client for both servers so polling costs the same.
        probe = [TMUX, "-S", srv.socket, "display", "-p", "-t", "keep:9", "#{pane_dead}"]
        wait(lambda: subprocess.run(probe, capture_output=True, text=True,
                                    env=srv.env).stdout.strip() == "1", interval=0.02)
        return time.perf_counter() - start
    finally:
        srv.kill()


def run_screen(path: str, base: str) -> float:
    conf = os.path.join(base, "screenrc")
    with open(conf, "w") as f:
        f.write("defscrollback 2000\nstartup_message off\n")
    env = dict(os.environ, SCREENDIR=os.path.join(base, "screens"))
    os.makedirs(env["SCREENDIR"], mode=0o700, exist_ok=True)
    start = time.perf_counter()
    subprocess.run([SCREEN, "-c", conf, "-D", "-m", "sh", "-c", f"cat {path}"], env=env,
                   check=True)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=20)
    ap.add_argument("--engine", help="HMUX_ENGINE for the hmux server")
    ap.add_argument("--only", choices=["plain", "sgr", "long", "tabs"], help="one workload")
    ns = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from hmux_core.screen import available_engines

    engines = [ns.engine] if ns.engine else available_engines()
    base = tmpdir()
    size = int(ns.mb * 1024 * 1024)
    print(f"machine: {machine()}")
    print(f"{'workload':<10} {'MB':>5} {'tmux MB/s':>10} {'screen MB/s':>12} "
          + " ".join(f"{'hmux ' + e:>14} {'/tmux':>6}" for e in engines))
    for name, maker in (("plain", make_plain), ("sgr", make_sgr), ("long", make_long),
                        ("tabs", make_tabs)):
        if ns.only and name != ns.only:
            continue
        path = os.path.join(base, f"{name}.txt")
        maker(path, size)
        mb = os.path.getsize(path) / 1e6
        t_tmux = run_one("tmux", path, base)
        t_screen = run_screen(path, base) if SCREEN else float("nan")
        cols = []
        for e in engines:
            os.environ["HMUX_ENGINE"] = e
            t = run_one("hmux", path, base)
            cols.append(f"{mb / t:14.2f} {t_tmux / t:6.2f}")
        print(f"{name:<10} {mb:5.1f} {mb / t_tmux:10.2f} {mb / t_screen:12.2f} " + " ".join(cols))


if __name__ == "__main__":
    main()
