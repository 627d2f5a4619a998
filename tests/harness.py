"""Running real servers for tests: hmux and the tmux oracle side by side in a private TMUX_TMPDIR.

A ``Mux`` runs one program's client against one socket; ``wait_for`` polls a condition instead of
sleeping. Servers are killed by pid at teardown, never by name, so nothing outside the test is
touched.
"""

from __future__ import annotations

import functools
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from oracle import ORACLE, STOCK_TMUX  # noqa: F401  (the one place the oracle is chosen)

#: The differential oracle (tmux 3.7b unless HMUX_ORACLE names another binary).
TMUX = ORACLE
#: hmux's client as the Python program (what ``hmux`` is without a C compiler, and what the C
#: client becomes for server starts, attaching and control mode).
HMUX_PYTHON = [sys.executable, "-m", "hmux_core.cli"]


@functools.cache
def compiled_client() -> str | None:
    """The C client (hmux_core/native) built from this checkout, once per session, as an
    install with a compiler gets it; None where it does not build."""
    import atexit
    import shutil
    import tempfile

    from hmux_core.native.build import compile_client

    d = tempfile.mkdtemp(prefix="hmux-client-")
    atexit.register(shutil.rmtree, d, True)
    target = os.path.join(d, "hmux")
    try:
        compile_client(target)
    except (OSError, subprocess.CalledProcessError):
        return None
    return target


#: The client the tests run: the C client unless HMUX_CLIENT=python or it does not build.
HMUX = [compiled_client()] if os.environ.get("HMUX_CLIENT", "native") != "python" \
    and compiled_client() is not None else HMUX_PYTHON


@dataclass
class Result:
    rc: int
    out: str
    err: str

    def __iter__(self):
        return iter((self.rc, self.out, self.err))


def wait_for(cond: Callable[[], object], timeout: float = 10.0, interval: float = 0.02) -> object:
    """Poll ``cond`` until it returns something truthy; fail the test on timeout."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = cond()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout}s (last value: {last!r})")


def reaping(cond: Callable[[], bool], mux: Mux) -> Callable[[], bool]:
    """``cond`` for a wait on a pane child's exit: after each miss, ``run-shell true`` gives the
    server a child to reap. Debian's tmux 3.3a is built with utempter, whose helper runs with
    SIGCHLD at SIG_DFL while a dead pane's record is removed; a pane child that exits in that
    window is not reaped until some other child exits."""
    def reaped() -> bool:
        if cond():
            return True
        mux.cmd("run-shell", "true", stdin="")
        return False
    return reaped


def base_env(tmpdir: str) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.path.join(tmpdir, "home"),
        "TMUX_TMPDIR": tmpdir,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "SHELL": "/bin/sh",
        "TERM": "xterm-256color",
        "TZ": "UTC",
        "TMUX_C2RS_PLUGINS": "none",
        # The server-level differential tests run the engine HMUX_ENGINE names; the python
        # engine (tmux's own state machine) unless the run asks for another.
        "HMUX_ENGINE": os.environ.get("HMUX_ENGINE", "python"),
        "PS1": "$ ",
        "ENV": "",
    }
    os.makedirs(env["HOME"], exist_ok=True)
    for key in ("PYTHONPATH", "VIRTUAL_ENV"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env


@dataclass
class Mux:
    """One client program pointed at one server socket."""

    argv0: list[str]
    socket_args: list[str]
    env: dict[str, str]
    cwd: str
    config: str | None = "/dev/null"
    started_pids: list[int] = field(default_factory=list)

    def cmd(self, *args: str, stdin: str | None = None, timeout: float = 20.0) -> Result:
        argv = list(self.argv0) + list(self.socket_args)
        if self.config is not None:
            argv += ["-f", self.config]
        argv += list(args)
        p = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=self.env,
                           cwd=self.cwd, timeout=timeout)
        return Result(p.returncode, p.stdout, p.stderr)

    def __call__(self, *args: str, **kw) -> Result:
        return self.cmd(*args, **kw)

    def ok(self, *args: str) -> str:
        r = self.cmd(*args)
        assert r.rc == 0, f"{args} failed: rc={r.rc} err={r.err!r}"
        return r.out

    def server_pid(self) -> int | None:
        r = self.cmd("display", "-p", "#{pid}")
        if r.rc != 0:
            return None
        try:
            return int(r.out.strip())
        except ValueError:
            return None

    def kill(self) -> None:
        pid = self.server_pid()
        self.cmd("kill-server")
        if pid:
            try:
                wait_for(lambda: not _alive(pid), timeout=5)
            except AssertionError:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass

    def capture(self, target: str, *flags: str) -> str:
        return self.ok("capture-pane", "-p", *flags, "-t", target)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def socket_path(tmpdir: str, prog: str, label: str) -> str:
    return os.path.join(tmpdir, f"{prog}-{os.getuid()}", label)


# -- normalisation for differential comparison ----------------------------------------------------

_TIME_RE = re.compile(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d \d{4}\b")


def normalise(text: str, tmpdir: str) -> str:
    """Blank out what must differ between two servers: times, socket dirs, pids, tty numbers."""
    text = text.replace(f"{tmpdir}/tmux-{os.getuid()}/", "SOCKDIR/")
    text = text.replace(f"{tmpdir}/hmux-{os.getuid()}/", "SOCKDIR/")
    text = _TIME_RE.sub("TIME", text)
    text = re.sub(r"/dev/pts/\d+", "/dev/pts/N", text)
    text = re.sub(r"\b\d+ bytes\]", "N bytes]", text)  # history_bytes: tmux's own allocation sizes
    return text
