"""Shared setup for the benchmarks: private socket dirs and servers that are always killed."""

from __future__ import annotations

import fcntl
import os
import platform
import pty
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time

#: The tmux every figure is compared with: 3.7b, the release hmux follows (HMUX_ORACLE or the
#: oracle build in ~/.cache/hmux-oracles), else whatever tmux is on PATH.
TMUX = next((p for p in (os.environ.get("HMUX_ORACLE"),
                         os.path.expanduser("~/.cache/hmux-oracles/3.7b/bin/tmux"))
             if p and os.access(p, os.X_OK)), None) or shutil.which("tmux") or "/usr/bin/tmux"
HMUX = [sys.executable, "-m", "hmux_core.cli"]
#: GNU screen, the issue's second comparison (``apt-get install screen``); None when missing.
SCREEN = shutil.which("screen")


def load() -> str:
    """The machine's load average now (the figures move with it)."""
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def tmux_version() -> str:
    return subprocess.run([TMUX, "-V"], capture_output=True, text=True).stdout.strip()


def machine() -> str:
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, {cpu}, "
            f"Python {platform.python_version()}, {tmux_version()}, load {load()}")


class Server:
    def __init__(self, prog: str, tmpdir: str, label: str, config: str = "/dev/null") -> None:
        self.prog = prog
        self.argv = (HMUX if prog == "hmux" else [TMUX]) + ["-L", label, "-f", config]
        self.env = dict(os.environ, TMUX_TMPDIR=tmpdir, TMUX_C2RS_PLUGINS="none", LANG="C.UTF-8")
        self.env.pop("TMUX", None)
        self.socket = os.path.join(tmpdir, f"{prog}-{os.getuid()}", label)

    def run(self, *args: str, check: bool = True) -> str:
        p = subprocess.run(self.argv + list(args), capture_output=True, text=True, env=self.env)
        if check and p.returncode != 0:
            raise RuntimeError(f"{self.prog} {args}: {p.stderr}")
        return p.stdout

    def kill(self) -> None:
        subprocess.run(self.argv + ["kill-server"], capture_output=True, env=self.env)


def sized_pty(cols: int, rows: int) -> tuple[int, int]:
    """A (master, slave) pair already at the size the client should report when it attaches."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    return master, slave


def tmpdir() -> str:
    return tempfile.mkdtemp(prefix="hmux-bench-")


def wait(cond, timeout: float = 600.0, interval: float = 0.005) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if cond():
            return time.perf_counter() - start
        time.sleep(interval)
    raise TimeoutError
