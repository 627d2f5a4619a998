"""Which terminal multiplexer a process runs inside, decided as the cyber-mux seed specifies.

A tool that drives panes has to know whose commands to run before it sends a single key, and
guessing wrong types into the wrong program. The order:

1. ``$CYBER_MUX`` set to a known value is trusted outright, with ``$CYBER_MUX_PANE`` as the pane;
   ``none`` forces no multiplexer even inside one, ``screen`` is recognised and refused.
2. The process ancestry, from the caller's parent upwards and past its own shells: the nearest
   tmux, rmux, herdr, wezterm, zellij or screen process decides (an hmux server counts as tmux,
   which it is compatible with). cmux and otty are GUI apps with no findable process name.
3. Only when the walk found nothing, or could not run: the env hints, rmux's before tmux's
   because an rmux pane sets ``$TMUX`` too. A hint never beats a multiplexer the walk verified.

The pane comes from the environment alone (:func:`self_pane`). This module imports nothing
else from hmux so that any tool can copy it; psutil is used when installed, ``ps`` otherwise.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field

#: Values ``$CYBER_MUX`` may take; anything else is ignored and discovery runs.
KNOWN = ("tmux", "rmux", "herdr", "wezterm", "zellij", "cmux", "otty", "screen", "none")

#: Process names found in an ancestry and the multiplexer each one means.
PROCESS_NAMES = {
    "tmux": "tmux",
    "hmux": "tmux",
    "rmux-daemon": "rmux",
    "rmux": "rmux",
    "herdr": "herdr",
    "wezterm": "wezterm",
    "wezterm-gui": "wezterm",
    "wezterm-mux-server": "wezterm",
    "zellij": "zellij",
    "screen": "screen",
}

#: The fallback hints, in the order they are checked.
ENV_HINTS = (
    ("RMUX", "rmux"),
    ("TMUX", "tmux"),
    ("HERDR_ENV", "herdr"),
    ("WEZTERM_PANE", "wezterm"),
    ("ZELLIJ", "zellij"),
    ("CMUX_WORKSPACE_ID", "cmux"),
    ("OTTY_PANE_ID", "otty"),
)

#: Where a process finds its own pane id, in order.
PANE_VARS = (
    "CYBER_MUX_PANE",
    "RMUX_PANE",
    "TMUX_PANE",
    "HERDR_PANE_ID",
    "WEZTERM_PANE",
    "ZELLIJ_PANE_ID",
    "CMUX_SURFACE_ID",
    "OTTY_PANE_ID",
)

_COMM_LEN = 15  # Linux keeps the first 15 bytes of a process name (TASK_COMM_LEN - 1)
_MAX_DEPTH = 256


class ScreenUnsupported(RuntimeError):
    """GNU Screen was pinned or found: it is reported, but no backend can drive it."""

    def __init__(self, where: str, walk: Walk | None = None) -> None:
        super().__init__(
            f"GNU Screen ({where}) cannot be driven: its split regions are addressed by position "
            "with no per-pane id, and $WINDOW is unset in panes opened with screen -X, so a pane "
            "cannot be sent to, read from or identify itself; use tmux, rmux, herdr, wezterm, "
            "zellij, cmux or otty")
        self.where = where
        self.walk = walk


@dataclass(frozen=True)
class Proc:
    """One ancestor as the walk saw it."""

    pid: int
    name: str


@dataclass(frozen=True)
class Walk:
    """The ancestry of a process, parent first; ``source`` is None when neither psutil nor
    ``ps`` could be used, which makes the walk inconclusive rather than negative."""

    procs: tuple[Proc, ...] = ()
    source: str | None = None

    def multiplexers(self) -> list[tuple[Proc, str]]:
        """Every multiplexer process in the ancestry, nearest first."""
        return [(p, m) for p in self.procs if (m := multiplexer_of(p.name)) is not None]


@dataclass(frozen=True)
class Detection:
    """What was found and the evidence, so ``hmux doctor`` can say why."""

    mux: str | None  # None: no multiplexer
    how: str  # "CYBER_MUX", "ancestry", "env" or "nothing"
    pane: str | None = None
    pane_var: str | None = None
    process: Proc | None = None  # the ancestor that decided (how == "ancestry")
    hint: str | None = None  # the env var that decided (how == "env")
    walk: Walk = field(default_factory=Walk)
    ignored: str | None = None  # an unknown $CYBER_MUX value that was passed over

    def export_line(self) -> str:
        """The line that pins this result and skips discovery next time."""
        line = f"export CYBER_MUX={self.mux or 'none'}"
        if self.mux and self.pane:
            line += f" CYBER_MUX_PANE={shlex.quote(self.pane)}"
        return line

    def reason(self) -> str:
        """One sentence of evidence."""
        if self.how == "CYBER_MUX":
            return f"CYBER_MUX={self.mux or 'none'} is trusted outright (no ancestry walk)"
        if self.how == "ancestry":
            p = self.process
            assert p is not None
            return f"ancestor {p.name!r} (pid {p.pid}) found by walking the ancestry with {self.walk.source}"
        walked = (f"no multiplexer among {len(self.walk.procs)} ancestors (walked with "
                  f"{self.walk.source})" if self.walk.source else
                  "the ancestry could not be walked (neither psutil nor ps is available)")
        if self.how == "env":
            return f"{walked}; ${self.hint} is set, an unverified hint"
        return f"{walked}; no env hint is set"


def multiplexer_of(name: str) -> str | None:
    """The multiplexer a process name means, if any.

    Takes ``ps`` and psutil spellings alike: a full path (macOS ``ps``), tmux's retitled
    ``tmux: server``, and names the kernel cut to 15 bytes (``wezterm-mux-ser``).
    """
    base = name.rsplit("/", 1)[-1].split(":", 1)[0].strip().lower()
    mux = PROCESS_NAMES.get(base)
    if mux is None and len(base) == _COMM_LEN:
        for full, m in PROCESS_NAMES.items():
            if full.startswith(base):
                return m
    return mux


def self_pane(environ: Mapping[str, str] | None = None) -> tuple[str | None, str | None]:
    """This process's pane id and the variable it came from, from the environment alone."""
    env = os.environ if environ is None else environ
    for var in PANE_VARS:
        value = env.get(var)
        if value:
            return value, var
    return None, None


def ancestry(pid: int | None = None) -> Walk:
    """The ancestors of ``pid`` (default: this process), parent first, up to pid 1."""
    pid = os.getpid() if pid is None else pid
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        procs = _walk_psutil(psutil, pid)
        if procs is not None:
            return Walk(tuple(procs), "psutil")
    table = _ps_table()
    if table is None:
        return Walk()
    procs = []
    ppid = table.get(pid, (0, ""))[0]
    while ppid > 0 and ppid in table and len(procs) < _MAX_DEPTH:
        up, name = table[ppid]
        procs.append(Proc(ppid, name))
        ppid = up if up != ppid else 0
    return Walk(tuple(procs), "ps")


def _walk_psutil(psutil, pid: int) -> list[Proc] | None:
    try:
        ppid = psutil.Process(pid).ppid()
    except (psutil.Error, OSError):
        return None
    procs: list[Proc] = []
    while ppid > 0 and len(procs) < _MAX_DEPTH:
        try:
            p = psutil.Process(ppid)
            with p.oneshot():
                name, up = p.name(), p.ppid()
        except (psutil.Error, OSError):
            break  # gone mid-walk: what was seen so far stands
        procs.append(Proc(ppid, name))
        ppid = up if up != ppid else 0
    return procs


def _ps_table() -> dict[int, tuple[int, str]] | None:
    """pid -> (ppid, comm) from one ``ps`` run (one process instead of one per ancestor)."""
    try:
        r = subprocess.run(["ps", "-A", "-o", "pid=,ppid=,comm="], capture_output=True,
                           text=True, timeout=5, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    if r.returncode != 0:
        return None
    table: dict[int, tuple[int, str]] = {}
    for line in r.stdout.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit():
            table[int(parts[0])] = (int(parts[1]), parts[2])
    return table or None


def detect(environ: Mapping[str, str] | None = None, pid: int | None = None) -> Detection:
    """The multiplexer this process (or ``pid``) runs inside; raises :class:`ScreenUnsupported`
    when the answer is GNU Screen."""
    env = os.environ if environ is None else environ
    pinned = env.get("CYBER_MUX")
    if pinned in KNOWN:
        if pinned == "screen":
            raise ScreenUnsupported("pinned by CYBER_MUX=screen")
        if pinned == "none":
            return Detection(None, "CYBER_MUX")
        pane, var = self_pane(env)
        return Detection(pinned, "CYBER_MUX", pane, var)
    ignored = pinned or None
    walk = ancestry(pid)
    found = walk.multiplexers()
    if found:
        proc, mux = found[0]
        if mux == "screen":
            raise ScreenUnsupported(f"ancestor {proc.name!r}, pid {proc.pid}", walk)
        pane, var = self_pane(env)
        return Detection(mux, "ancestry", pane, var, process=proc, walk=walk, ignored=ignored)
    for var, mux in ENV_HINTS:
        if env.get(var):
            pane, pvar = self_pane(env)
            return Detection(mux, "env", pane, pvar, hint=var, walk=walk, ignored=ignored)
    return Detection(None, "nothing", walk=walk, ignored=ignored)
