"""One sweep's view of the processes behind the panes.

Walking every process for every pane is what made earlier tools burn a core (herdr#300: a
full ``/proc`` scan per pane). Here a :class:`Snapshot` is made once per sweep, is shared by
every pane, and reads a ``/proc`` file only when asked and at most once: the cost follows the
panes' own process groups, not the size of the system. Linux reads ``/proc`` directly;
elsewhere psutil stands in, more slowly.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

#: psutil, imported on first need (:func:`_psutil`): where ``/proc`` is there (Linux) it never
#: is, and importing it was a third of this plugin's import, which a server's second command
#: waits for.
psutil: Any = None


def _psutil() -> Any:
    """psutil, or None where it is not installed."""
    global psutil
    if psutil is None:
        try:
            import psutil as module
        except ImportError:  # pragma: no cover - psutil is a dependency of hmux
            return None
        psutil = module
    return psutil

#: Kernel clock ticks per second, the unit of ``starttime``.
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
#: At most this many processes are visited when looking for a group's members.
MEMBER_LIMIT = 64


@dataclass(frozen=True, slots=True)
class Stat:
    """The fields of ``/proc/<pid>/stat`` the plugin uses."""

    pid: int
    comm: str
    ppid: int
    pgrp: int
    starttime: int  #: clock ticks after boot (field 22)


class Snapshot:
    """Memoised process reads for one sweep; create a new one for the next sweep."""

    def __init__(self, root: str = "/proc") -> None:
        self.root = root
        self.procfs = os.path.exists(os.path.join(root, "self", "stat"))
        self._stat: dict[int, Stat | None] = {}
        self._cmdline: dict[int, tuple[str, ...] | None] = {}
        self._exe: dict[int, str | None] = {}
        self._environ: dict[int, dict[str, str] | None] = {}
        self._children: dict[int, tuple[int, ...]] = {}
        self._members: dict[tuple[int, int], tuple[int, ...]] = {}
        self.reads = 0  #: files read so far (for the bench and tests)

    # -- single processes ------------------------------------------------------------------------

    def _read(self, pid: int, name: str) -> bytes | None:
        self.reads += 1
        try:
            with open(f"{self.root}/{pid}/{name}", "rb") as f:
                return f.read()
        except OSError:
            return None

    def stat(self, pid: int) -> Stat | None:
        if pid in self._stat:
            return self._stat[pid]
        st: Stat | None = None
        if self.procfs:
            raw = self._read(pid, "stat")
            if raw:
                # comm may hold spaces and parens: split at the last ")".
                head, _, rest = raw.decode("utf-8", "replace").rpartition(")")
                fields = rest.split()
                comm = head.partition("(")[2]
                try:
                    st = Stat(pid, comm, int(fields[1]), int(fields[2]), int(fields[19]))
                except (IndexError, ValueError):
                    st = None
        elif _psutil() is not None:
            try:
                p = psutil.Process(pid)
                ticks = int((p.create_time() - psutil.boot_time()) * CLOCK_TICKS)
                st = Stat(pid, p.name(), p.ppid(), os.getpgid(pid), ticks)
            except (psutil.Error, OSError):
                st = None
        self._stat[pid] = st
        return st

    def cmdline(self, pid: int) -> tuple[str, ...] | None:
        """argv as the process shows it; ``None`` if it is gone, ``()`` for kernel threads."""
        if pid in self._cmdline:
            return self._cmdline[pid]
        argv: tuple[str, ...] | None = None
        if self.procfs:
            raw = self._read(pid, "cmdline")
            if raw is not None:
                # Trailing NULs come from processes that rewrote their argv in place.
                argv = tuple(a.decode("utf-8", "replace") for a in raw.rstrip(b"\0").split(b"\0")
                             ) if raw.strip(b"\0") else ()
        elif _psutil() is not None:
            try:
                argv = tuple(psutil.Process(pid).cmdline())
            except psutil.Error:
                argv = None
        self._cmdline[pid] = argv
        return argv

    def exe(self, pid: int) -> str | None:
        """Where ``/proc/<pid>/exe`` points (symlinks resolved), e.g. a versioned binary."""
        if pid in self._exe:
            return self._exe[pid]
        path: str | None = None
        if self.procfs:
            self.reads += 1
            try:
                path = os.readlink(f"{self.root}/{pid}/exe")
            except OSError:
                path = None
            if path and path.endswith(" (deleted)"):
                path = path[: -len(" (deleted)")]
        elif _psutil() is not None:
            try:
                path = psutil.Process(pid).exe() or None
            except psutil.Error:
                path = None
        self._exe[pid] = path
        return path

    def environ(self, pid: int) -> dict[str, str] | None:
        if pid in self._environ:
            return self._environ[pid]
        env: dict[str, str] | None = None
        if self.procfs:
            raw = self._read(pid, "environ")
            if raw is not None:
                env = {}
                for item in raw.split(b"\0"):
                    k, sep, v = item.partition(b"=")
                    if sep:
                        env[k.decode("utf-8", "replace")] = v.decode("utf-8", "replace")
        elif _psutil() is not None:
            try:
                env = dict(psutil.Process(pid).environ())
            except psutil.Error:
                env = None
        self._environ[pid] = env
        return env

    def cwd(self, pid: int) -> str | None:
        try:
            if self.procfs:
                self.reads += 1
                return os.readlink(f"{self.root}/{pid}/cwd")
            if _psutil() is not None:
                return psutil.Process(pid).cwd()
        except (OSError, Exception):
            return None
        return None

    def fds(self, pid: int) -> Iterator[str]:
        """Targets of the process's open file descriptors (for Codex's rollout file)."""
        if self.procfs:
            d = f"{self.root}/{pid}/fd"
            try:
                names = os.listdir(d)
            except OSError:
                return
            for n in names:
                self.reads += 1
                try:
                    yield os.readlink(f"{d}/{n}")
                except OSError:
                    continue
        elif _psutil() is not None:
            try:
                for f in psutil.Process(pid).open_files():
                    yield f.path
            except psutil.Error:
                return

    def children(self, pid: int) -> tuple[int, ...]:
        """Direct children, from ``/proc/<pid>/task/<tid>/children`` (no system-wide scan)."""
        if pid in self._children:
            return self._children[pid]
        kids: list[int] = []
        if self.procfs:
            try:
                tids = os.listdir(f"{self.root}/{pid}/task")
            except OSError:
                tids = []
            for tid in tids:
                raw = self._read(pid, f"task/{tid}/children")
                if raw:
                    kids.extend(int(x) for x in raw.split())
        elif _psutil() is not None:
            try:
                kids = [c.pid for c in psutil.Process(pid).children()]
            except psutil.Error:
                kids = []
        out = tuple(kids)
        self._children[pid] = out
        return out

    # -- groups ----------------------------------------------------------------------------------

    def members(self, pgrp: int, root: int) -> tuple[int, ...]:
        """Processes of group ``pgrp`` found under ``root`` (itself included), leader first,
        then breadth first; at most :data:`MEMBER_LIMIT` processes are looked at."""
        key = (pgrp, root)
        if key in self._members:
            return self._members[key]
        out: list[int] = []
        queue = [root]
        seen = 0
        while queue and seen < MEMBER_LIMIT:
            pid = queue.pop(0)
            seen += 1
            st = self.stat(pid)
            if st is None:
                continue
            if st.pgrp == pgrp:
                out.append(pid)
            queue.extend(self.children(pid))
        if pgrp in out:
            out.remove(pgrp)
            out.insert(0, pgrp)
        res = tuple(out)
        self._members[key] = res
        return res


def boot_time(root: str = "/proc") -> float:
    """Seconds since the epoch at boot, to turn ``starttime`` ticks into a wall time."""
    try:
        with open(f"{root}/stat", "rb") as f:
            for line in f:
                if line.startswith(b"btime "):
                    return float(line.split()[1])
    except OSError:
        pass
    if _psutil() is not None:
        return float(psutil.boot_time())
    return 0.0



def start_time(st: Stat, btime: float) -> float:
    """Wall-clock start of the process (to compare with session files' mtimes)."""
    return btime + st.starttime / CLOCK_TICKS
