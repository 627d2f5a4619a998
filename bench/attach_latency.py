"""Keystroke echo through an attached client, hmux against tmux 3.7b and GNU screen in the same
run.

A client attaches from a PTY this script owns, to a session running ``cat``. Each sample writes
one character to the PTY (as a person typing, 30 ms apart) and times until the character comes back in what
the client drew. Also: CPU of the server while one client sits attached and idle with
``status-interval 1`` (the status line redrawn every second), over 10 s.

    python bench/attach_latency.py [--n 200] [--calls]

``--calls`` also counts the Python function calls the hmux server makes per key: two runs under
``HMUX_PROFILE`` (cProfile) with different numbers of keys, the difference divided by the
difference in keys (the idle phase is the same in both).
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
            gap: float = 0.03, extra_env: dict | None = None) -> tuple[list[float], float, float]:
    env = dict(os.environ, TMUX_TMPDIR=tmp, TMUX_C2RS_PLUGINS="none", TERM="xterm-256color",
               SCREENDIR=os.path.join(tmp, "screens"), **(extra_env or {}))
    env.pop("TMUX", None)
    screen = argv0[0] == common.SCREEN
    master, slave = common.sized_pty(80, 24)
    os.set_blocking(master, True)
    if screen:
        os.makedirs(env["SCREENDIR"], mode=0o700)
        conf = os.path.join(tmp, "screenrc")
        with open(conf, "w") as f:
            f.write("startup_message off\n")
        subprocess.run(argv0 + ["-c", conf, "-dmS", "b", "cat"], env=env, check=True)
        time.sleep(0.5)
        out = subprocess.run(argv0 + ["-ls"], env=env, capture_output=True, text=True).stdout
        pid = int(next(ln.split(".")[0] for ln in out.split() if ln.endswith(".b")))
        attach = argv0 + ["-r", "b"]
    else:
        sock = ["-L", "bench"]
        subprocess.run(argv0 + sock + ["-f", "/dev/null", "new", "-d", "-s", "b", "-x", "80",
                                       "-y", "23", "cat"], env=env, check=True)
        pid = int(subprocess.run(argv0 + sock + ["display", "-p", "#{pid}"], env=env,
                                 capture_output=True, text=True).stdout)
        attach = argv0 + sock + ["attach", "-t", "b"]
    client = subprocess.Popen(attach, env=env, stdin=slave,
                              stdout=slave, stderr=slave, start_new_session=True,
                              preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    if not screen:
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
    if screen:
        subprocess.run(argv0 + ["-S", "b", "-X", "quit"], env=env)
        client.wait(timeout=10)
        os.close(master)
        return samples, float("nan"), per_key
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
    ap.add_argument("--calls", action="store_true",
                    help="also count the hmux server's Python calls per key (cProfile)")
    args = ap.parse_args()
    rows = {}
    kinds = [("tmux", TMUX), ("hmux", HMUX)]
    if common.SCREEN:
        kinds.append(("screen", [common.SCREEN]))
    print(f"machine: {common.machine()}, hmux engine: {os.environ.get('HMUX_ENGINE') or 'default'}")
    for name, argv0 in kinds:
        with tempfile.TemporaryDirectory() as tmp:
            rows[name] = measure(argv0, args.n, tmp, args.gap / 1000)
    print(f"keystroke echo through an attached client, {args.n} keys {args.gap:g} ms apart, ms")
    for name, (samples, idle, per_key) in rows.items():
        s = sorted(samples)
        print(f"  {name}: median {statistics.median(s):.2f}  p90 {s[int(len(s) * 0.9)]:.2f}  "
              f"p99 {s[min(len(s) - 1, int(len(s) * 0.99))]:.2f}  max {s[-1]:.2f}   "
              f"server CPU {per_key:.2f} ms per key   idle attached "
              f"server CPU (status-interval 1) {idle:.2f}% of a core")
    ratio = statistics.median(rows["hmux"][0]) / statistics.median(rows["tmux"][0])
    print(f"  hmux / tmux median: {ratio:.2f}x")
    if args.calls:
        import pstats

        calls = []
        for n in (50, 250):
            with tempfile.TemporaryDirectory() as tmp:
                prof = os.path.join(tmp, "server.prof")
                measure(HMUX, n, tmp, args.gap / 1000, {"HMUX_PROFILE": prof})
                for _ in range(300):  # the server writes it as it exits
                    try:
                        calls.append(pstats.Stats(prof).total_calls)
                        break
                    except (OSError, EOFError, ValueError):
                        time.sleep(0.1)
        print(f"  hmux server: {(calls[1] - calls[0]) / 200:.0f} Python calls per key")
    return 0


if __name__ == "__main__":
    sys.exit(main())
