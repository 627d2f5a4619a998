"""%output throughput to a control client that keeps up, hmux against tmux 3.7b in one run.

    python bench/control_output.py [--mb 8] [--rounds 3] [--engine python|ghostty|both]
                                   [--memory SECONDS]

A 200x50 pane runs ``cat FILE`` (ls-like lines) while a ``-C`` client reads everything as fast
as it can; the time from the respawn to the last byte of the file arriving in ``%output`` lines
(counted unescaped) gives MB/s. hmux and tmux alternate round by round so a loaded machine
slows both alike; the medians and their ratio are printed.

``--memory S``: a second measurement, hmux only: a pane floods for S seconds while one control
client reads and another never does; the server's peak RSS shows that the stalled client's
queue is bounded (it is dropped "too far behind" at 64 MiB).

The oracle is tmux 3.7b (``HMUX_ORACLE`` names another binary), as in the tests.
"""

from __future__ import annotations

import argparse
import os
import random
import select
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import HMUX, machine, tmpdir  # noqa: E402

ORACLE = os.environ.get("HMUX_ORACLE") or os.path.expanduser(
    "~/.cache/hmux-oracles/3.7b/bin/tmux")


def make_plain(path: str, size: int) -> int:
    """ls -l like lines; returns the number of bytes the pane prints (LF becomes CR LF)."""
    rnd = random.Random(1)
    lines = 0
    with open(path, "w") as f:
        n = 0
        while n < size:
            line = (f"-rw-r--r-- 1 user group {rnd.randint(0, 10**7):>9} Dec  2 18:17 "
                    f"file_{n:08d}.txt\n")
            f.write(line)
            n += len(line)
            lines += 1
    return os.path.getsize(path) + lines


class Mux:
    def __init__(self, prog: str, tmp: str, label: str, engine: str) -> None:
        self.prog = prog
        self.argv = (HMUX if prog == "hmux" else [ORACLE]) + ["-L", label, "-f", "/dev/null"]
        self.env = dict(os.environ, TMUX_TMPDIR=tmp, TMUX_C2RS_PLUGINS="none", LANG="C.UTF-8",
                        LC_ALL="C.UTF-8", HMUX_ENGINE=engine)
        self.env.pop("TMUX", None)

    def run(self, *args: str) -> str:
        p = subprocess.run(self.argv + list(args), capture_output=True, text=True, env=self.env)
        if p.returncode != 0:
            raise RuntimeError(f"{self.prog} {args}: {p.stderr}")
        return p.stdout

    def kill(self) -> None:
        subprocess.run(self.argv + ["kill-server"], capture_output=True, env=self.env)

    def control(self) -> subprocess.Popen:
        p = subprocess.Popen(self.argv + ["-C", "attach", "-t", "b"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, env=self.env)
        os.set_blocking(p.stdout.fileno(), False)
        return p


def _read_until(p: subprocess.Popen, want: bytes, timeout: float = 30) -> bytes:
    buf = b""
    deadline = time.monotonic() + timeout
    while want not in buf and time.monotonic() < deadline:
        select.select([p.stdout], [], [], 0.05)
        try:
            buf += os.read(p.stdout.fileno(), 1 << 20)
        except BlockingIOError:
            pass
    return buf


def one_round(prog: str, engine: str, path: str, expect: int) -> float:
    """Seconds from the respawn to the last byte of the file in %output."""
    tmp = tmpdir()
    m = Mux(prog, tmp, "co", engine)
    try:
        m.run("new-session", "-d", "-s", "b", "-x", "200", "-y", "50", "cat")
        p = m.control()
        _read_until(p, b"%session-changed")
        fd = p.stdout.fileno()
        got = 0
        rest = b""
        start = time.perf_counter()
        p.stdin.write(f"respawn-pane -k -t %0 'cat {path}; exec cat'\n".encode())
        p.stdin.flush()
        deadline = time.monotonic() + 600
        while got < expect and time.monotonic() < deadline:
            select.select([fd], [], [], 1)
            try:
                data = os.read(fd, 1 << 20)
            except BlockingIOError:
                continue
            if not data:
                break
            lines = (rest + data).split(b"\n")
            rest = lines.pop()
            for line in lines:
                if line.startswith(b"%output %0 "):
                    body = line[11:]
                    got += len(body) - 3 * body.count(b"\\")  # each \ooo is one byte
        elapsed = time.perf_counter() - start
        if got < expect:
            raise RuntimeError(f"{prog}: only {got} of {expect} bytes arrived")
        p.stdin.close()
        p.kill()
        p.wait()
        return elapsed
    finally:
        m.kill()


def throughput(engine: str, mb: float, rounds: int) -> None:
    tmp = tmpdir()
    path = os.path.join(tmp, "plain.txt")
    expect = make_plain(path, int(mb * 1e6))
    times: dict[str, list[float]] = {"hmux": [], "tmux": []}
    for _ in range(rounds):
        for prog in ("hmux", "tmux"):
            times[prog].append(one_round(prog, engine, path, expect))
    rates = {prog: expect / statistics.median(ts) / 1e6 for prog, ts in times.items()}
    print(f"engine={engine}: {expect / 1e6:.1f} MB of %output, median of {rounds} rounds: "
          f"hmux {rates['hmux']:.2f} MB/s, tmux 3.7b {rates['tmux']:.2f} MB/s, "
          f"ratio {rates['hmux'] / rates['tmux']:.2f}x")
    for prog, ts in times.items():
        print(f"  {prog}: " + " ".join(f"{t:.2f}s" for t in ts))


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def memory(engine: str, seconds: float) -> None:
    tmp = tmpdir()
    m = Mux("hmux", tmp, "cm", engine)
    try:
        m.run("new-session", "-d", "-s", "b", "-x", "200", "-y", "50", "cat")
        pid = int(m.run("display", "-p", "#{pid}"))
        base = _rss_mb(pid)
        stalled = m.control()  # never read from
        live = m.control()
        _read_until(live, b"%session-changed")
        live.stdin.write(b"respawn-pane -k -t %0 \"cat /dev/zero | tr '\\\\0' x\"\n")
        live.stdin.flush()
        peak, read = base, 0
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            select.select([live.stdout], [], [], 0.05)
            try:
                read += len(os.read(live.stdout.fileno(), 1 << 20))
            except BlockingIOError:
                pass
            peak = max(peak, _rss_mb(pid))
        # What the stalled client was sent, now read: does it end "too far behind"?
        os.set_blocking(stalled.stdout.fileno(), False)
        tail = b""
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and b"%exit" not in tail:
            select.select([stalled.stdout], [], [], 0.1)
            try:
                tail = (tail + os.read(stalled.stdout.fileno(), 1 << 20))[-200:]
            except BlockingIOError:
                pass
        why = tail[tail.find(b"%exit"):].strip().decode() if b"%exit" in tail else "not dropped"
        print(f"engine={engine}: {seconds:.0f}s flood, one control client reading "
              f"({read / 1e6:.0f} MB), one never reading: server RSS {base:.0f} MB at start, "
              f"peak {peak:.0f} MB; the stalled client: {why}")
        for p in (stalled, live):
            p.kill()
            p.wait()
    finally:
        m.kill()



def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=8.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--engine", default="both", choices=("python", "ghostty", "both"))
    ap.add_argument("--memory", type=float, default=0.0, metavar="SECONDS")
    ns = ap.parse_args()
    print(machine())
    engines = ["python", "ghostty"] if ns.engine == "both" else [ns.engine]
    for engine in engines:
        if engine == "ghostty":
            try:
                import pyghostty  # noqa: F401
            except ImportError:
                print("engine=ghostty: pyghostty is not installed (pip install 'hmux[fast]')")
                continue
        throughput(engine, ns.mb, ns.rounds)
        if ns.memory:
            memory(engine, ns.memory)
    return 0


if __name__ == "__main__":
    sys.exit(main())
