"""Attached clients under load, hmux vs tmux in the same run.

    python bench/attach_load.py [--n 100] [--mb 10] [--engine python|ghostty]

echo: keystroke echo through an attached 80x24 client while the pane beside the one typed into
floods (``base64 /dev/urandom``), timed as in ``attach_latency.py`` (the client's terminal is
read all the time, as a terminal does).

cat: ``cat FILE`` (plain ``ls -l``-style lines) into a 200x50 pane, detached and then with a
client attached whose terminal reads everything; start to the pane's exit. The attached run
checks that the terminal ends showing what ``capture-pane`` shows (its output fed to hmux's
own emulator).
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
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from attach_latency import _read_until  # noqa: E402
from common import HMUX, TMUX, machine, sized_pty, tmpdir  # noqa: E402
from throughput import make_plain  # noqa: E402


class Client:
    """A client attached from a PTY this script owns; a thread reads its terminal."""

    def __init__(self, argv: list[str], env: dict[str, str], cols: int, rows: int) -> None:
        master, slave = sized_pty(cols, rows)
        self.proc = subprocess.Popen(argv, env=env, stdin=slave, stdout=slave, stderr=slave,
                                     start_new_session=True,
                                     preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(slave)
        self.master = master
        self.data = bytearray()
        self.reading = False
        self._thread: threading.Thread | None = None

    def start_reading(self) -> None:
        self.reading = True
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while self.reading:
            if select.select([self.master], [], [], 0.05)[0]:
                try:
                    chunk = os.read(self.master, 1 << 16)
                except OSError:
                    return
                if not chunk:
                    return
                self.data += chunk

    def stop_reading(self) -> None:
        self.reading = False
        if self._thread is not None:
            self._thread.join()

    def close(self) -> None:
        self.stop_reading()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        os.close(self.master)


def _env(tmp: str) -> dict[str, str]:
    env = dict(os.environ, TMUX_TMPDIR=tmp, TMUX_C2RS_PLUGINS="none", TERM="xterm-256color",
               LANG="C.UTF-8")
    env.pop("TMUX", None)
    return env


def _run(argv0: list[str], env: dict[str, str], *args: str) -> str:
    return subprocess.run(argv0 + list(args), env=env, capture_output=True, text=True,
                          check=True).stdout


def echo_under_flood(argv0: list[str], n: int) -> list[float]:
    tmp = tmpdir()
    env = _env(tmp)
    sock = argv0 + ["-L", "load", "-f", "/dev/null"]
    _run(sock, env, "new", "-d", "-s", "b", "-x", "80", "-y", "23", "base64 /dev/urandom")
    _run(sock, env, "split-window", "-h", "-t", "b", "cat")
    c = Client(sock + ["attach", "-t", "b"], env, 80, 24)
    try:
        _read_until(c.master, b"[b]")
        samples = []
        alphabet = b"~@^`{}|"  # in no base64 text, escape sequence or status line here
        for i in range(n):
            ch = alphabet[i % len(alphabet):i % len(alphabet) + 1]
            if i % 30 == 0:
                os.write(c.master, b"\r")  # a new line so each glyph lands somewhere new
            end = time.monotonic() + 0.03
            while time.monotonic() < end:  # the terminal keeps reading the flood's frames
                if select.select([c.master], [], [], max(0.0, end - time.monotonic()))[0]:
                    os.read(c.master, 1 << 20)
            t0 = time.perf_counter()
            os.write(c.master, ch)
            if _read_until(c.master, ch, timeout=10):
                samples.append((time.perf_counter() - t0) * 1000)
        return samples
    finally:
        subprocess.run(sock + ["kill-server"], env=env, capture_output=True)
        c.close()


def cat_time(argv0: list[str], path: str, attached: bool) -> tuple[float, bool]:
    """Seconds from ``cat`` starting to the pane's exit; whether the terminal ended right."""
    tmp = tmpdir()
    env = _env(tmp)
    conf = os.path.join(tmp, "bench.conf")
    with open(conf, "w") as f:
        f.write("set -g remain-on-exit on\nset -g history-limit 2000\nset -g status off\n"
                "set -g default-size 200x50\n")
    sock = argv0 + ["-L", "cat", "-f", conf]
    _run(sock, env, "new", "-d", "-s", "k", "-x", "200", "-y", "50", "sleep 100000")
    c = None
    probe = [TMUX, "-S", os.path.join(tmp, f"{'hmux' if argv0 == HMUX else 'tmux'}-{os.getuid()}",
                                      "cat"), "display", "-p", "-t", "k:9", "#{pane_dead}"]
    try:
        if attached:
            c = Client(sock + ["attach", "-t", "k"], env, 200, 50)
            c.start_reading()
            deadline = time.monotonic() + 20
            while b"\x1b[" not in c.data and time.monotonic() < deadline:
                time.sleep(0.01)
        start = time.perf_counter()
        _run(sock, env, "new-window", *([] if attached else ["-d"]), "-t", "k:9", f"cat {path}")
        while subprocess.run(probe, capture_output=True, text=True,
                             env=env).stdout.strip() != "1":
            time.sleep(0.02)
        elapsed = time.perf_counter() - start
        ok = True
        if c is not None:
            ok = _shows(c, sock, env)
        return elapsed, ok
    finally:
        subprocess.run(sock + ["kill-server"], env=env, capture_output=True)
        if c is not None:
            c.close()


def _shows(c: Client, sock: list[str], env: dict[str, str]) -> bool:
    """Whether the client's terminal shows the pane as capture-pane does (within 10 s)."""
    from hmux_core.screen import Screen

    want = _run(sock, env, "capture-pane", "-p", "-t", "k:9").split("\n")[:-1]
    want = [line.rstrip() for line in want]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        scr = Screen(200, 50, 0)
        scr.feed(bytes(c.data))
        got = [line.rstrip() for line in scr.capture()[:len(want)]]
        if got == want:
            return True
        time.sleep(0.2)
    return False


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--mb", type=float, default=10)
    ap.add_argument("--engine", help="HMUX_ENGINE for the hmux server")
    ap.add_argument("--only", choices=["echo", "cat"])
    ns = ap.parse_args()
    if ns.engine:
        os.environ["HMUX_ENGINE"] = ns.engine
    print(f"machine: {machine()}, hmux engine: {os.environ.get('HMUX_ENGINE') or 'default'}")
    if ns.only != "cat":
        rows = {name: echo_under_flood(argv0, ns.n) for name, argv0 in
                (("tmux", [TMUX]), ("hmux", HMUX))}
        print(f"keystroke echo while the next pane floods, {ns.n} keys, ms")
        for name, s in rows.items():
            s = sorted(s)
            print(f"  {name}: median {statistics.median(s):.2f}  p90 {s[int(len(s) * 0.9)]:.2f}"
                  f"  max {s[-1]:.2f}  ({len(s)} echoed)")
        ratio = statistics.median(rows["hmux"]) / statistics.median(rows["tmux"])
        print(f"  hmux / tmux median: {ratio:.2f}x (target <= 1.5x)")
    if ns.only != "echo":
        path = os.path.join(tmpdir(), "plain.txt")
        make_plain(path, int(ns.mb * 1024 * 1024))
        mb = os.path.getsize(path) / 1e6
        print(f"cat of {mb:.1f} MB into a 200x50 pane, s (MB/s)")
        for name, argv0 in (("tmux", [TMUX]), ("hmux", HMUX)):
            det, _ = cat_time(argv0, path, attached=False)
            att, ok = cat_time(argv0, path, attached=True)
            print(f"  {name}: detached {det:.2f} ({mb / det:.1f})  attached {att:.2f} "
                  f"({mb / att:.1f})  attached/detached {att / det:.2f}x (target <= 1.5x)  "
                  f"screen {'correct' if ok else 'WRONG'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
