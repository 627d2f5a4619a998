"""Which agent runs in a pane, from its terminal's foreground process group.

The name comes from argv, never from ``comm`` alone: Node and Bun agents show ``node`` or
``MainThread`` there, and native Claude's binary is named after its version. The order is
argv[0]'s basename, then the script or ``-m`` module a runtime (node, bun, python, sh …) runs,
then full paths (argv[0], its symlink target, ``/proc/<pid>/exe``) against the table's path
patterns. ``HMUX_AGENT`` in the foreground process's environment pins the answer, for wrappers
(ssh, docker, sandboxes) that hide the agent.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .procs import Snapshot
from .table import AgentSpec, AgentTable

ENV_PIN = "HMUX_AGENT"

SHELLS = frozenset({"sh", "bash", "zsh", "fish", "dash", "ksh", "mksh", "ash", "tcsh", "csh",
                    "busybox", "nu", "elvish", "xonsh"})
NODES = frozenset({"node", "nodejs", "bun", "deno", "tsx", "ts-node"})
_PYTHON = re.compile(r"^(python|pypy)(\d+(\.\d+)?)?$")
_NIX = re.compile(r"^\.(.+)-(?:wrapped|unwrapped)$")
_SUFFIXES = (".exe", ".cmd", ".bat", ".ps1", ".js", ".mjs", ".cjs", ".py")

#: Options of each runtime family that take a separate value (skipped with it).
_VALUE_OPTS = {
    "node": {"-r", "--require", "--loader", "--import", "--experimental-loader",
             "--inspect-port", "--conditions", "-C", "--title", "--env-file"},
    "python": {"-W", "-X", "-Q"},
    "shell": {"-o", "-O", "--rcfile", "--init-file"},
}
#: Options after which a runtime runs inline code, so there is no script to name an agent.
_CODE_OPTS = {
    "node": {"-e", "--eval", "-p", "--print"},
    "python": {"-c"},
    "shell": {"-c"},
}

#: Ranks of the evidence, best first; the group member with the best rank wins.
RANK_ARGV0 = 3
RANK_SCRIPT = 2
RANK_PATH = 1


def normalize(name: str) -> str:
    """``.claude-unwrapped`` → ``claude``, ``codex.js`` → ``codex``, ``Claude.EXE`` → ``claude``."""
    n = name.lower()
    m = _NIX.match(n)
    if m:
        n = m.group(1)
    for suf in _SUFFIXES:
        if n.endswith(suf) and len(n) > len(suf):
            n = n[: -len(suf)]
            break
    return n


def runtime_family(base: str) -> str | None:
    if base in SHELLS:
        return "shell"
    if base in NODES:
        return "node"
    if _PYTHON.match(base):
        return "python"
    if base == "env":
        return "env"
    return None


@dataclass(frozen=True, slots=True)
class Launch:
    """What a runtime was asked to run: a script path, a ``-m`` module, or nothing."""

    script: str | None = None
    module: str | None = None
    inline: bool = False  #: ``-c`` / ``-e``: code on the command line, no agent to name


def script_of(argv: Sequence[str], family: str) -> Launch:
    """The first non-option argument of a runtime's argv (``argv[0]`` excluded)."""
    values = _VALUE_OPTS.get(family, set())
    code = _CODE_OPTS.get(family, set())
    i = 1
    n = len(argv)
    first = True
    while i < n:
        a = argv[i]
        if a in code:
            return Launch(inline=True)
        if family == "python":
            if a == "-m" and i + 1 < n:
                return Launch(module=argv[i + 1])
            if a.startswith("-m") and len(a) > 2:
                return Launch(module=a[2:])
            if a.startswith("-c") and len(a) > 2:
                return Launch(inline=True)
        if a == "--":
            return Launch(script=argv[i + 1]) if i + 1 < n else Launch()
        if a in values:
            i += 2
            continue
        if a.startswith("-") and a != "-":
            i += 1
            continue
        if first and family == "node" and a in ("run", "x", "exec") and i + 1 < n:
            i += 1  # deno run script.ts, bun run script
            first = False
            continue
        return Launch(script=a)
    return Launch()


def _strip_env(argv: Sequence[str]) -> Sequence[str]:
    """``env [-i] [-u NAME] [VAR=value …] cmd …`` → ``cmd …``."""
    i = 1
    n = len(argv)
    while i < n:
        a = argv[i]
        if a in ("-u", "--unset", "-C", "--chdir"):
            i += 2
        elif a.startswith("-") or ("=" in a and not a.startswith("/")):
            i += 1
        else:
            return argv[i:]
    return ()


def is_plain_shell(argv: Sequence[str]) -> bool:
    """An interactive shell with no script: its foreground group holds nothing else."""
    if not argv:
        return False
    base = normalize(os.path.basename(argv[0].lstrip("-")))
    if base not in SHELLS:
        return False
    launch = script_of(argv, "shell")
    return launch.script is None and not launch.inline


def match_argv(argv: Sequence[str], table: AgentTable,
               exe: Callable[[], str | None] = lambda: None,
               realpath: Callable[[str], str] = os.path.realpath) -> tuple[str, int] | None:
    """The agent label an argv names and how strongly, or ``None``.

    ``exe`` is called only when argv says nothing, so the ``/proc/<pid>/exe`` readlink is
    paid for by the processes that need it.
    """
    if not argv:
        return None
    for _ in range(4):  # env → cmd → …
        base = normalize(os.path.basename(argv[0]))
        if runtime_family(base) != "env":
            break
        argv = _strip_env(argv)
        if not argv:
            return None
    found = _match(argv, base, table, exe, realpath)
    if found is None:
        return None
    spec = table.agents.get(found[0])
    if spec is not None and spec.exclude_args and any(a in spec.exclude_args for a in argv[1:]):
        return None
    return found


def _match(argv: Sequence[str], base: str, table: AgentTable, exe: Callable[[], str | None],
           realpath: Callable[[str], str]) -> tuple[str, int] | None:
    argv0 = argv[0]
    label = table.by_name.get(base)
    if label is not None:
        return label, RANK_ARGV0
    if len(argv) > 1:
        label = table.by_command.get(f"{base} {argv[1].lower()}")
        if label is not None:
            return label, RANK_ARGV0
    family = runtime_family(base.lstrip("-"))
    if family is not None:
        launch = script_of(argv, family)
        if launch.inline:
            return None
        if launch.module:
            mod = launch.module
            label = table.by_module.get(mod) or table.by_module.get(mod.split(".")[0])
            return (label, RANK_SCRIPT) if label else None
        if launch.script is None:
            return None
        script = launch.script
        label = table.by_name.get(normalize(os.path.basename(script)))
        if label is not None:
            return label, RANK_SCRIPT
        label = table.label_for_path(script)
        if label is not None:
            return label, RANK_SCRIPT
        if "/" in script:
            real = realpath(script)
            if real != script:
                label = (table.by_name.get(normalize(os.path.basename(real)))
                         or table.label_for_path(real))
                if label is not None:
                    return label, RANK_PATH
        return None
    if "/" in argv0:
        label = table.label_for_path(argv0)
        if label is not None:
            return label, RANK_PATH
        if os.path.isabs(argv0):
            real = realpath(argv0)
            if real != argv0:
                label = (table.by_name.get(normalize(os.path.basename(real)))
                         or table.label_for_path(real))
                if label is not None:
                    return label, RANK_PATH
    path = exe()
    if path:
        label = table.label_for_path(path)
        if label is not None:
            return label, RANK_PATH
        # Native agents launched under another name (a shim, a copied binary).
        label = table.by_name.get(normalize(os.path.basename(path)))
        if label is not None:
            return label, RANK_PATH
    return None


@dataclass(frozen=True, slots=True)
class Identity:
    """The agent found in a pane: its label, the process that carries it, and its rules."""

    label: str
    pid: int
    argv: tuple[str, ...]
    spec: AgentSpec
    pinned: bool = False  #: named by ``HMUX_AGENT`` rather than recognised


def pinned_label(env: dict[str, str] | None) -> str | None:
    """``HMUX_AGENT``'s value: a label, ``""`` for "not an agent" (``none``), or ``None``."""
    if not env:
        return None
    value = env.get(ENV_PIN)
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    return "" if value.lower() == "none" else value


def identify(snap: Snapshot, pgrp: int, pane_pid: int, table: AgentTable) -> Identity | None:
    """The agent in the foreground group ``pgrp`` of a pane whose child is ``pane_pid``.

    The group leader is preferred when it names an agent; otherwise the group's members under
    the leader (or under the pane's child, if the leader has exited) are ranked.
    """
    if pgrp <= 0:
        return None
    leader_argv = snap.cmdline(pgrp)
    candidates: Sequence[int]
    if leader_argv is not None:
        pin = pinned_label(snap.environ(pgrp))
        if pin is not None:
            if not pin:
                return None
            spec = table.spec(pin)
            return Identity(spec.label or pin, pgrp, leader_argv, spec, pinned=True)
        found = match_argv(leader_argv, table, lambda: snap.exe(pgrp))
        if found is not None:
            return Identity(found[0], pgrp, leader_argv, table.agents[found[0]])
        if is_plain_shell(leader_argv):
            return None
        candidates = snap.members(pgrp, pgrp)[1:]
    else:
        candidates = [p for p in snap.members(pgrp, pane_pid) if p != pgrp] if pane_pid > 0 else []
    best: tuple[int, int, str] | None = None  # (rank, pid, label)
    for pid in candidates:
        argv = snap.cmdline(pid)
        if not argv:
            continue
        if leader_argv is None:
            pin = pinned_label(snap.environ(pid))
            if pin is not None:
                if not pin:
                    return None
                spec = table.spec(pin)
                return Identity(spec.label or pin, pid, argv, spec, pinned=True)
        found = match_argv(argv, table, lambda p=pid: snap.exe(p))
        if found is not None and (best is None or found[1] > best[0]):
            best = (found[1], pid, found[0])
    if best is None:
        return None
    _, pid, label = best
    return Identity(label, pid, snap.cmdline(pid) or (), table.agents[label])


def flag_value(argv: Sequence[str], flags: Sequence[str]) -> str | None:
    """The value of the last ``--flag value`` / ``--flag=value`` / ``-fvalue`` in argv."""
    value = None
    n = len(argv)
    for i in range(1, n):
        a = argv[i]
        for f in flags:
            if a == f and i + 1 < n and not argv[i + 1].startswith("-"):
                value = argv[i + 1]
            elif f.startswith("--") and a.startswith(f + "="):
                value = a[len(f) + 1:]
    return value or None


def subcommand_value(argv: Sequence[str], words: Sequence[str]) -> str | None:
    """``codex resume <id>``: the argument after a subcommand word."""
    for i in range(1, len(argv) - 1):
        if argv[i] in words and not argv[i + 1].startswith("-"):
            return argv[i + 1]
    return None
