"""Drawing a frame with 10 floating panes over 10 tiled ones, hmux vs tmux 3.7b in the same run.

A 160x48 window holds 10 tiled panes (select-layout tiled) and 10 floating panes stacked over
them, every pane showing a screenful of coloured text. A client attached from a PTY this script
owns redraws the whole window when it gets F12 (``bind -n F12 refresh-client``, the same in
both). Each sample writes F12 and reads what the client sends back until it goes quiet: the
figure is the time from the key to the frame's last byte, and the server CPU spent per frame
(its utime+stime over all the samples). The frame's size in bytes is printed too: the two
draw the same cells but write them differently.

    python bench/floating_frame.py [--n 60]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import select
import statistics
import subprocess
import sys
import termios
import time

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402

COLS, ROWS = 160, 48
F12 = b"\x1b[24~"
# each pane: a screenful of numbered, coloured lines, then cat (nothing changes afterwards)
TEXT = ("i=0; while [ $i -lt 60 ]; do printf '\\033[3%dm%s line %d \\033[1mbold\\033[0m "
        "and some more text to fill the row\\n' $((i % 7 + 1)) $P $i; i=$((i+1)); done; "
        "exec cat")


def _server_cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _frame(fd: int, quiet: float, expect: int = 0) -> tuple[float, int]:
    """Write F12; (seconds to the last byte of the answer, its size). The answer is read
    until ``expect`` bytes (most of a whole frame: a client may pass a frame on in pieces
    with gaps) and then until ``quiet`` seconds pass without more."""
    start = time.perf_counter()
    os.write(fd, F12)
    last, size = start, 0
    while select.select([fd], [], [], quiet if size >= expect else 2.0)[0]:
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:
            break
        if not chunk:
            break
        size += len(chunk)
        last = time.perf_counter()
    return last - start, size


def _drain(fd: int, quiet: float = 0.5) -> None:
    while select.select([fd], [], [], quiet)[0]:
        try:
            if not os.read(fd, 1 << 16):
                return
        except OSError:
            return


def measure(prog: str, n: int, quiet: float) -> tuple[list[float], float, int]:
    tmp = common.tmpdir()
    srv = common.Server(prog, tmp, "frame")
    srv.env["TERM"] = "xterm-256color"
    try:
        sh = f"P=t0; {TEXT}"
        srv.run("new-session", "-d", "-s", "b", "-x", str(COLS), "-y", str(ROWS - 1), sh)
        srv.run("set", "-g", "status-right", "R")
        for i in range(1, 10):
            srv.run("split-window", "-t", "b", "-d", f"P=t{i}; {TEXT}")
            srv.run("select-layout", "-t", "b", "tiled")
        for i in range(10):
            srv.run("new-pane", "-t", "b", "-x", "40", "-y", "10", "-X", str(4 + 11 * i),
                    "-Y", str(1 + 3 * i), f"P=f{i}; {TEXT}")
        srv.run("bind", "-n", "F12", "refresh-client")
        assert srv.run("display", "-p", "-t", "b", "#{window_panes}").strip() == "20"
        pid = int(srv.run("display", "-p", "#{pid}"))
        master, slave = common.sized_pty(COLS, ROWS)
        client = subprocess.Popen(srv.argv + ["attach", "-t", "b"], env=srv.env, stdin=slave,
                                  stdout=slave, stderr=slave, start_new_session=True,
                                  preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(slave)
        time.sleep(2.0)  # the panes print their text
        _drain(master)
        for _ in range(2):  # warm up
            _frame(master, quiet)
        _, whole = _frame(master, 0.5)  # a whole frame's size, read without hurry
        cpu0 = _server_cpu(pid)
        samples, sizes = [], []
        for _ in range(n):
            t, size = _frame(master, quiet, int(whole * 0.97))
            samples.append(t)
            sizes.append(size)
        cpu = (_server_cpu(pid) - cpu0) / n
        client.kill()
        client.wait()
        os.close(master)
        return samples, cpu, int(statistics.median(sizes))
    finally:
        srv.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=60, help="frames per side")
    ap.add_argument("--quiet", type=float, default=0.02,
                    help="seconds without output that end a frame")
    args = ap.parse_args()
    print(common.machine())
    print(f"{COLS}x{ROWS} terminal, 10 tiled + 10 floating panes, {args.n} full redraws each")
    for prog in ("hmux", "tmux"):
        samples, cpu, size = measure(prog, args.n, args.quiet)
        ms = sorted(1000 * s for s in samples)
        print(f"{prog:5} frame: median {statistics.median(ms):7.2f} ms  p90 "
              f"{ms[int(len(ms) * 0.9) - 1]:7.2f} ms  server CPU {1000 * cpu:6.2f} ms/frame  "
              f"{size} bytes")


if __name__ == "__main__":
    main()
