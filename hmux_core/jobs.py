"""``#(command)`` in formats: run in the background, the last line of output cached.

As tmux: the first expansion starts the job and shows nothing (or the previous output); a job is
started at most once a second per command; output is read as it arrives, and the last complete
line wins (the unterminated remainder when there is no newline at all).
"""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import trio

from .tmux_shim import child_path

if TYPE_CHECKING:
    from .server import Server


@dataclass
class FormatJob:
    cmd: str
    out: str | None = None
    running: bool = False
    last: int = 0
    updated: bool = False
    used: float = 0.0


class FormatJobs:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.jobs: dict[str, FormatJob] = {}

    def run_format_job(self, command: str, ctx: Any) -> str:
        job = self.jobs.get(command)
        if job is None:
            job = self.jobs[command] = FormatJob(command)
        now = int(time.time())
        job.used = time.time()
        if not job.running and job.last != now and self.server.nursery is not None:
            job.running = True
            job.last = now
            job.updated = False
            cwd = getattr(getattr(ctx, "c", None), "cwd", None) or os.environ.get("HOME") or "/"
            self.server.nursery.start_soon(self._run, job, cwd, self._environ(ctx))
        elif job.running and now - job.last > 1 and job.out is None:
            job.out = f"<'{command}' not ready>"
        return job.out or ""

    def _environ(self, ctx: Any) -> dict[str, str]:
        from .model import Environ

        env = Environ()
        self.server.environ.copy_into(env)
        s = getattr(ctx, "s", None)
        if s is not None:
            s.environ.copy_into(env)
        sid = s.id if s is not None else -1
        env.set("TMUX", f"{self.server.socket_path},{self.server.pid},{sid}")
        path = child_path(env.get("PATH"))
        if path is not None:
            env.set("PATH", path)
        return env.for_child()

    async def _run(self, job: FormatJob, cwd: str, env: dict[str, str]) -> None:
        buf = b""
        try:
            proc = await trio.lowlevel.open_process(
                ["/bin/sh", "-c", job.cmd], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, cwd=cwd if os.path.isdir(cwd) else "/", env=env,
                start_new_session=True)
        except OSError:
            job.out = f"<'{job.cmd}' didn't start>"
            job.running = False
            return
        try:
            assert proc.stdout is not None
            while True:
                chunk = await proc.stdout.receive_some(65536)
                if not chunk:
                    break
                buf += chunk
                lines = [ln for ln in buf.split(b"\n")[:-1] if ln.strip(b"\r")]
                if lines:
                    job.out = lines[-1].rstrip(b"\r").decode("utf-8", "replace")
                    job.updated = True
                    buf = buf[buf.rfind(b"\n") + 1 :]
            await proc.wait()
        finally:
            job.running = False
        rest = buf.decode("utf-8", "replace")
        if rest or not job.updated:
            job.out = rest
        self.server.wake()

    def tidy(self, max_age: float = 3600.0) -> None:
        """Forget jobs unused for an hour, as tmux's format_tidy_jobs."""
        now = time.time()
        for cmd, job in list(self.jobs.items()):
            if not job.running and now - job.used > max_age:
                del self.jobs[cmd]
