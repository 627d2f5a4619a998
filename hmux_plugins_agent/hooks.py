"""The agents' own hook configuration, written so each agent reports its state to hmux.

A screen can only be read; an agent's hooks say what it is doing. Where an agent offers hooks
(Claude Code and Gemini CLI hooks in their ``settings.json``, Codex's ``notify`` program, an
OpenCode plugin), ``hmux agents install-hooks`` adds entries that run
``hmux agents report STATE --agent NAME``, which sets the pane option ``@agent-report`` through
the ordinary tmux protocol (``set-option -p``: no new socket). The plugin reads that option
every sweep and believes a fresh report over the screen (docs/agents.md, "Hooks").

Everything here is pure planning: :func:`plan` returns the files' old and new text, so the CLI
can show a diff before writing, and installing twice changes nothing. hmux's entries are found
again by their command (``agents report … --agent NAME``), never by position, so a user's own
hooks are kept and ``--remove`` takes out exactly what was added.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

AGENTS = ("claude", "codex", "gemini", "opencode")
MARK = "agents report"

#: Claude Code (2.1) hook events → the state they report.
CLAUDE_EVENTS: tuple[tuple[str, str | None, str], ...] = (
    ("SessionStart", None, "idle"),
    ("UserPromptSubmit", None, "working"),
    ("PreToolUse", "*", "working"),
    ("PostToolUse", "*", "working"),
    ("PostToolUseFailure", "*", "working"),
    ("PermissionRequest", "*", "waiting"),
    ("Notification", "permission_prompt", "waiting"),
    ("Notification", "idle_prompt", "idle"),
    ("PreCompact", None, "working"),
    ("Stop", None, "idle"),
    ("StopFailure", None, "error"),
)
#: Gemini CLI (0.61) hook events → state (its settings use Claude's shape).
GEMINI_EVENTS: tuple[tuple[str, str | None, str], ...] = (
    ("BeforeAgent", None, "working"),
    ("BeforeTool", None, "working"),
    ("AfterTool", None, "working"),
    ("Notification", None, "waiting"),
    ("AfterAgent", None, "idle"),
)


@dataclass(frozen=True)
class Change:
    """One file's text before (``None``: it does not exist) and after."""

    path: str
    old: str | None
    new: str | None  #: ``None``: remove the file

    @property
    def changed(self) -> bool:
        return self.old != self.new


def report_command(hmux: Sequence[str], state: str, agent: str) -> str:
    return " ".join(shlex.quote(a) for a in [*hmux, "agents", "report", state, "--agent",
                                                agent])


def _ours(command: object, agent: str) -> bool:
    return isinstance(command, str) and MARK in command and f"--agent {agent}" in command


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


# -- Claude Code and Gemini CLI: settings.json "hooks" ---------------------------------------------

def _settings_hooks(path: str, agent: str, events: Sequence[tuple[str, str | None, str]],
                    hmux: Sequence[str], remove: bool, timeout: int) -> Change:
    old = _read(path)
    try:
        doc = json.loads(old) if old and old.strip() else {}
    except ValueError as e:
        raise ValueError(f"{path}: not JSON ({e}); fix it first, hmux will not rewrite it") \
            from None
    if not isinstance(doc, dict):
        raise ValueError(f"{path}: not a JSON object")
    hooks = doc.get("hooks")
    if hooks is None:
        hooks = {}
    if not isinstance(hooks, dict):
        raise ValueError(f"{path}: \"hooks\" is not an object")
    # Take ours out everywhere (a matcher group left empty by that goes too), keep the rest.
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept_groups = []
        for g in groups:
            if isinstance(g, dict) and isinstance(g.get("hooks"), list):
                inner = [h for h in g["hooks"]
                         if not (isinstance(h, dict) and _ours(h.get("command"), agent))]
                if not inner and g["hooks"]:
                    continue
                g = {**g, "hooks": inner}
            kept_groups.append(g)
        if kept_groups:
            hooks[event] = kept_groups
        else:
            del hooks[event]
    if not remove:
        for event, matcher, state in events:
            group: dict[str, object] = {} if matcher is None else {"matcher": matcher}
            group["hooks"] = [{"type": "command", "command": report_command(hmux, state, agent),
                               "timeout": timeout}]
            hooks.setdefault(event, []).append(group)
    if hooks:
        doc["hooks"] = hooks
    else:
        doc.pop("hooks", None)
    new = json.dumps(doc, indent=2) + "\n"
    if old is None and not doc:
        new = None
    elif old is not None and _same_json(old, new):
        new = old  # nothing to do: keep the user's formatting
    return Change(path, old, new)


def _same_json(a: str, b: str) -> bool:
    try:
        return bool(json.loads(a) == json.loads(b))
    except ValueError:
        return False


# -- Codex: notify in config.toml -------------------------------------------------------------------

_NOTIFY = re.compile(r"^notify\s*=.*$", re.M)
_CODEX_MARK = "# hmux agents install-hooks: Codex runs this after each turn"


def _codex(path: str, hmux: Sequence[str], remove: bool) -> Change:
    old = _read(path)
    text = old or ""
    lines = text.splitlines(keepends=True)
    # Our two lines (the comment and the notify after it) out, wherever they are.
    out: list[str] = []
    skip = False
    for ln in lines:
        if ln.strip() == _CODEX_MARK:
            skip = True
            continue
        if skip and ln.lstrip().startswith("notify"):
            skip = False
            continue
        skip = False
        out.append(ln)
    text = "".join(out)
    if not remove:
        m = _NOTIFY.search(text)
        if m is not None and _first_table(text) > m.start():
            raise ValueError(f"{path}: has its own top-level notify ({m.group(0).strip()}); "
                             "hmux will not replace it — call `hmux agents report` from it")
        argv = [*hmux, "agents", "report", "--agent", "codex", "--codex-notify"]
        entry = f"{_CODEX_MARK}\nnotify = [{', '.join(json.dumps(a) for a in argv)}]\n"
        text = entry + text  # top-level keys must come before the first [table]
    new: str | None = text
    if old is None and not text.strip():
        new = None
    return Change(path, old, new)


def _first_table(text: str) -> int:
    m = re.search(r"^\s*\[", text, re.M)
    return m.start() if m else len(text) + 1


# -- OpenCode: a plugin file ------------------------------------------------------------------------

OPENCODE_PLUGIN = """\
// Written by `hmux agents install-hooks opencode`; `--remove` deletes it.
// Reports OpenCode's state to the hmux pane it runs in (docs/agents.md, "Hooks").
const HMUX = %(argv)s
const report = (state) => {
  if (!process.env.TMUX_PANE) return
  try {
    Bun.spawn([...HMUX, "agents", "report", state, "--agent", "opencode"],
              { stdout: "ignore", stderr: "ignore", stdin: "ignore" })
  } catch {}
}
export const HmuxReport = async () => ({
  event: async ({ event }) => {
    const p = event.properties || {}
    switch (event.type) {
      case "session.status":
        if (p.status && p.status.type === "busy") report("working")
        else if (p.status && p.status.type === "idle") report("idle")
        break
      case "session.idle": report("idle"); break
      // Session-less errors (an unreadable skill file) are not a failed turn (herdr#4214).
      case "session.error": if (p.sessionID) report("error"); break
      case "permission.asked": case "permission.updated": report("waiting"); break
      case "permission.replied": report("working"); break
    }
  },
})
"""


def _opencode(path: str, hmux: Sequence[str], remove: bool) -> Change:
    old = _read(path)
    new = None if remove else OPENCODE_PLUGIN % {"argv": json.dumps(list(hmux))}
    if old is not None and "hmux agents install-hooks" not in old:
        raise ValueError(f"{path}: exists and was not written by hmux; not touching it")
    return Change(path, old, new)


# -- where each agent keeps its configuration -------------------------------------------------------

def config_path(agent: str, env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    home = env.get("HOME") or os.path.expanduser("~")
    if agent == "claude":
        return os.path.join(env.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude"),
                            "settings.json")
    if agent == "codex":
        return os.path.join(env.get("CODEX_HOME") or os.path.join(home, ".codex"), "config.toml")
    if agent == "gemini":
        return os.path.join(env.get("GEMINI_CLI_HOME") or home, ".gemini", "settings.json")
    if agent == "opencode":
        base = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        return os.path.join(base, "opencode", "plugin", "hmux-report.js")
    raise ValueError(f"no hooks for {agent!r} (agents with hooks: {', '.join(AGENTS)})")


def plan(agent: str, hmux: Sequence[str], remove: bool = False,
         env: Mapping[str, str] | None = None) -> Change:
    """What installing (or removing) ``agent``'s hooks would do to its configuration."""
    path = config_path(agent, env)
    if agent == "claude":
        return _settings_hooks(path, "claude", CLAUDE_EVENTS, hmux, remove, timeout=5)  # s
    if agent == "gemini":  # Gemini counts its hooks' timeout in milliseconds
        return _settings_hooks(path, "gemini", GEMINI_EVENTS, hmux, remove, timeout=5000)
    if agent == "codex":
        return _codex(path, hmux, remove)
    return _opencode(path, hmux, remove)


def apply(change: Change) -> None:
    if not change.changed:
        return
    if change.new is None:
        if os.path.exists(change.path):
            os.unlink(change.path)
        return
    os.makedirs(os.path.dirname(change.path), exist_ok=True)
    tmp = change.path + ".hmux-tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(change.new)
    if os.path.exists(change.path):
        os.chmod(tmp, os.stat(change.path).st_mode & 0o7777)
    os.replace(tmp, change.path)


#: Codex's notify program gets one JSON argument; its "type" names what happened.
CODEX_NOTIFY_STATES = {"agent-turn-complete": "idle", "approval-requested": "waiting"}


def codex_notify_state(payload: str) -> str | None:
    try:
        doc = json.loads(payload)
    except ValueError:
        return None
    return CODEX_NOTIFY_STATES.get(doc.get("type", "")) if isinstance(doc, dict) else None
