"""Keystroke echo through an attached client, hmux vs tmux in the same run.

A client attaches from a PTY this script owns, to a session running ``cat``. Each sample writes
one character to the PTY (as a person typing, 30 ms apart) and times until the character comes back in what
the client drew. Also: CPU of the server while one client sits attached and idle with
``status-interval 1`` (the status line redrawn every second), over 10 s.

    python bench/attach_latency.py [--n 200]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import select
import statistics
import subprocess
import sys
import tempfile
import termios
import time

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402

HMUX = common.HMUX
TMUX = [common.TMUX]


def _read_until(fd: int, needle: bytes, timeout: float = 5.0) -> bool:
    buf = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], deadline - time.monotonic())
        if not r:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return False
        buf += chunk
        if needle in buf:
            return True
    return False


def _drain(fd: int, quiet: float = 0.3) -> None:
    while select.select([fd], [], [], quiet)[0]:
        try:
            if not os.read(fd, 65536):
                return
        except OSError:
            return


def _server_cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(argv0: list[str], n: int, tmp: str,
            gap: float = 0.03) -> tuple[list[float], float, float]:
    env = dict(os.environ, TMUX_TMPDIR=tmp, TMUX_C2RS_PLUGINS="none", TERM="xterm-256color")
    env.pop("TMUX", None)
    sock = ["-L", "bench"]
    subprocess.run(argv0 + sock + ["-f", "/dev/null", "new", "-d", "-s", "b", "-x", "80",
                                   "-y", "23", "cat"], env=env, check=True)
    pid = int(subprocess.run(argv0 + sock + ["display", "-p", "#{pid}"], env=env,
                             capture_output=True, text=True).stdout)
    master, slave = common.sized_pty(80, 24)
    os.set_blocking(master, True)
    client = subprocess.Popen(argv0 + sock + ["attach", "-t", "b"], env=env, stdin=slave,
                              stdout=slave, stderr=slave, start_new_session=True,
                              preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    _read_until(master, b"[b]")
    _drain(master)
    samples = []
    cpu0 = _server_cpu(pid)
    alphabet = b"~@^`{}|"  # bytes no status line or escape sequence here contains
    for i in range(n):
        ch = alphabet[i % len(alphabet):i % len(alphabet) + 1]
        if i % 50 == 0:
            os.write(master, b"\r")  # a new line so each glyph lands somewhere new
            _drain(master, 0.05)
        time.sleep(gap)  # 30 ms: typing at ~30 keys a second, faster than people do
        t0 = time.perf_counter()
        os.write(master, ch)
        if _read_until(master, ch):
            samples.append((time.perf_counter() - t0) * 1000)
    per_key = (_server_cpu(pid) - cpu0) / n * 1000
    subprocess.run(argv0 + sock + ["set", "-g", "status-interval", "1"], env=env, check=True)
    _drain(master, 0.5)
    c0, t0 = _server_cpu(pid), time.monotonic()
    while time.monotonic() - t0 < 10:
        _drain(master, 0.5)  # the client's terminal keeps reading the clock's redraws
    idle = (_server_cpu(pid) - c0) / (time.monotonic() - t0) * 100
    subprocess.run(argv0 + sock + ["kill-server"], env=env)
    client.wait(timeout=10)
    os.close(master)
    return samples, idle, per_key


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--gap", type=float, default=30.0,
                    help="ms between keys: shorter keeps the server's caches warm, and the "
                         "figures fall with it for both servers")
    args = ap.parse_args()
    rows = {}
    for name, argv0 in (("tmux", TMUX), ("hmux", HMUX)):
        with tempfile.TemporaryDirectory() as tmp:
            rows[name] = measure(argv0, args.n, tmp, args.gap / 1000)
    print(f"keystroke echo through an attached client, {args.n} keys {args.gap:g} ms apart, ms")
    for name, (samples, idle, per_key) in rows.items():
        s = sorted(samples)
        print(f"  {name}: median {statistics.median(s):.2f}  p90 {s[int(len(s) * 0.9)]:.2f}  "
              f"max {s[-1]:.2f}   server CPU {per_key:.2f} ms per key   idle attached "
              f"server CPU (status-interval 1) {idle:.2f}% of a core")
    ratio = statistics.median(rows["hmux"][0]) / statistics.median(rows["tmux"][0])
    print(f"  hmux / tmux median: {ratio:.2f}x (target <= 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
