"""Identity of more agents, checked against their real packages (issue 27, item 4).

Each agent is installed into the cache the way a user would get it (npm ``--prefix``, a venv
for a PyPI package), started in a PTY with a throwaway ``HOME``, and its process group is
recorded as the plugin sees it: every member's argv and the ``/proc/<pid>/exe`` target of
those whose argv names nothing. The recorded shapes (cache paths rewritten to ``/opt/agents``)
go to ``fixtures/identities.json``; ``tests/test_agent_identity.py`` checks in the default
run that the table recognises each of them, and the live run checks the real processes too.

    python tests/agents/identities.py            # install, run, record, report

Agents without a package a registry serves (Cursor Agent and Kiro use their own installers,
Goose ships release binaries) cannot be checked here; ``UNAVAILABLE`` says so.
"""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from hmux_plugins_agent.identity import identify  # noqa: E402
from hmux_plugins_agent.procs import Snapshot  # noqa: E402
from hmux_plugins_agent.table import load  # noqa: E402

CACHE = Path(os.environ.get("HMUX_AGENTS_CACHE") or Path.home() / ".cache" / "hmux-agents")
FIXTURE = HERE / "fixtures" / "identities.json"
SHOWN = "/opt/agents"


@dataclass(frozen=True)
class Extra:
    label: str
    kind: str  #: npm | pip
    package: str
    bin: str
    python: str = ""  #: an interpreter for the venv, when the package needs a newer one

    @property
    def prefix(self) -> Path:
        if self.kind == "pip":
            return CACHE / (self.label + "-venv")
        return CACHE / "more" / self.package.replace("/", "_").replace("@", "_")

    @property
    def executable(self) -> Path:
        if self.kind == "pip":
            return self.prefix / "bin" / self.bin
        return self.prefix / "node_modules" / ".bin" / self.bin


EXTRAS = (
    Extra("amp", "npm", "@ampcode/cli", "amp"),
    Extra("copilot", "npm", "@github/copilot", "copilot"),
    Extra("qwen", "npm", "@qwen-code/qwen-code", "qwen"),
    Extra("droid", "npm", "@factory/cli", "droid"),
    Extra("cline", "npm", "cline", "cline"),
    Extra("grok", "npm", "@vibe-kit/grok-cli", "grok"),
    Extra("kimi", "pip", "kimi-cli", "kimi", python="python3.13"),
)
UNAVAILABLE = {
    "cursor": "Cursor Agent installs with its own script (cursor.com/install); no registry "
              "package",
    "kiro": "kiro-cli installs with AWS's own installer; the PyPI and npm names are others'",
    "goose": "Goose ships release binaries only; PyPI's goose-ai is another project",
    "crush": "npm's @charmland/crush downloads its binary from GitHub releases at install, "
             "which cannot be reached here",
}


def install(x: Extra) -> None:
    """Into the cache. Amp's and Droid's native binaries are optional dependencies npm may
    skip (Amp's for this exact version was not published): install them by name."""
    if x.executable.exists():
        return
    if x.kind == "npm":
        x.prefix.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(x.prefix), "--no-audit", "--no-fund",
                        "--loglevel=error", x.package], check=True)
    else:
        subprocess.run([x.python or sys.executable, "-m", "venv", str(x.prefix)], check=True)
        subprocess.run([str(x.prefix / "bin" / "pip"), "install", "-q", x.package], check=True)


def version(x: Extra) -> str:
    if x.kind == "npm":
        pj = x.prefix / "node_modules" / x.package / "package.json"
        try:
            return str(json.loads(pj.read_text()).get("version", ""))
        except OSError:
            return ""
    r = subprocess.run([str(x.prefix / "bin" / "pip"), "show", x.package], text=True,
                       capture_output=True)
    return next((ln.split()[1] for ln in r.stdout.splitlines() if ln.startswith("Version")), "")


def shown(s: str) -> str:
    return s.replace(str(CACHE), SHOWN)


def observe(x: Extra, seconds: float = 6.0) -> dict[str, object]:
    """Start the agent on a PTY and record its foreground group as the plugin sees it."""
    home = Path(f"/tmp/hmux-ident-{x.label}-{os.getpid()}")
    home.mkdir(exist_ok=True)
    env = {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "TERM": "xterm-256color",
           "LANG": "C.UTF-8", "NO_UPDATE_NOTIFIER": "1", "CI": "",
           "GROK_API_KEY": "fake"}  # grok exits at once without a key
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(home)
        os.execve(str(x.executable), [str(x.executable)], env)
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    os.read(fd, 65536)  # keep its output flowing; answer nothing
                except OSError:
                    break
        pgrp = os.tcgetpgrp(fd)
        snap = Snapshot("/proc")
        members = snap.members(pgrp, pgrp) if snap.cmdline(pgrp) else snap.members(pgrp, pid)
        procs = []
        for m in members:
            argv = snap.cmdline(m) or ()
            procs.append({"argv": [shown(a) for a in argv],
                          "exe": shown(snap.exe(m) or "")})
        found = identify(snap, pgrp, pid, load([]))
        return {"label": x.label, "package": x.package, "version": version(x),
                "members": procs, "identified": found.label if found else None,
                "alive": snap.cmdline(pid) is not None}
    finally:
        try:
            os.killpg(os.getpgid(pid), signal.SIGKILL)
        except OSError:
            pass
        os.close(fd)
        os.waitpid(pid, 0)
        subprocess.run(["rm", "-rf", str(home)])


def main() -> int:
    out = []
    for x in EXTRAS:
        try:
            install(x)
        except subprocess.CalledProcessError as e:
            print(f"{x.label}: install failed ({e})")
            continue
        rec = observe(x)
        out.append(rec)
        print(f"{x.label:<8} {x.package}@{rec['version']:<12} identified as "
              f"{rec['identified']!r:<10} members: "
              + " | ".join(" ".join(m["argv"])[:70] for m in rec["members"]))  # type: ignore
    for label, why in UNAVAILABLE.items():
        print(f"{label:<8} not checked: {why}")
    FIXTURE.write_text(json.dumps({"agents": out, "unavailable": UNAVAILABLE}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
