"""Fake AI coding agents for the agent plugin's tests, and tests that they look like the real ones.

Every fake is a real process whose argv has the shape of the real agent's: a native binary named
``claude`` (a C program symlinked from ``bin/claude`` to ``share/claude/versions/2.1.3``, as the
native installer lays it out), ``node …/bin/codex`` via npm's shebang shim, ``python -m aider``,
a bash wrapper that execs ``node <option> …/cursor-agent/versions/<v>/index.js`` …
The launchers (C, node, python) all run one engine, :data:`ENGINE`, as their child (or in
process, for aider), which draws the agent's real UI strings and titles (from
../shared/specs/agents.md) and moves between states on input lines:

    work  ask  finish  prose  quiet  keep  flicker N  model NAME  filewait  fileidle  quit

Side effects follow the real agents' files: Claude's ``<config>/sessions/<pid>.json`` registry
(with a ``.key`` file beside it) and project transcript, Codex's rollout file held open under
``$CODEX_HOME/sessions/YYYY/MM/DD/``, Gemini's chat file under
``$GEMINI_CLI_HOME/.gemini/tmp/<sha256(cwd)>/chats/``.
"""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass

import pytest

ENGINE = r'''
import hashlib, json, os, re, sys, time, uuid

RULE = "─" * 60
SID = os.environ.get("FAKE_SESSION_ID") or str(uuid.uuid4())


def screens(kind, model):
    """state -> (title, lines) for each kind of agent."""
    claude_top = ["╭───────────────────────────────────────────╮",
                  "│ ✻ Welcome to Claude Code!                 │",
                  "╰───────────────────────────────────────────╯",
                  "> fix the failing test",
                  "● I'll look at the test first."]
    claude_box = [RULE, "❯ ", RULE, "  ⏵⏵ bypass permissions on (shift+tab to cycle)",
                  "  ? for shortcuts"]
    codex_top = [">_ OpenAI Codex (v0.44.0)", "", " model: " + model, "",
                 "› fix the failing test", "", "• I'll look at the test first.", ""]
    codex_foot = ["› ", "", "  " + model + " · 100% context left"]
    gem_box = ["╭────────────────────────────────────────────────╮",
               "│ >   Type your message or @path/to/file         │",
               "╰────────────────────────────────────────────────╯",
               "~/project        no sandbox        " + model + " (100% context left)"]
    gem_ask = ["╭────────────────────────────────────────────────╮",
               "│ ?  Shell rm -rf build                          │",
               "│ Allow execution of: 'rm'?                      │",
               "│ ● 1. Yes, allow once                           │",
               "│   2. Yes, allow always ...                     │",
               "│   3. No, suggest changes (esc)                 │",
               "╰────────────────────────────────────────────────╯"]
    quiet = ("", ["Loading configuration", "Please wait"])
    if kind == "claude":
        return {
            "idle": ("✳ Claude Code", claude_top + ["✻ Worked for 1m 52s", ""] + claude_box),
            "working": ("⠐ Claude Code", claude_top + [
                "✻ Misting… (33s · ↓ 2.0k tokens · esc to interrupt)", ""] + claude_box),
            "waiting": ("⠐ Claude Code", claude_top + ["● Bash(rm -rf build)", RULE,
                " Bash command", "", "   rm -rf build", "   Remove build output", "",
                " Do you want to proceed?", " ❯ 1. Yes",
                "   2. Yes, and don't ask again for rm commands in /tmp/x",
                "   3. No, and tell Claude what to do differently (esc)"]),
            "prose": ("✳ Claude Code", claude_top + [
                "● Would you like to open a pull request? If yes, I will run gh.",
                "  Do you want to proceed? 1. Yes  2. No", ""] + claude_box[:3] + [
                "  ⏵⏵ accept edits on (shift+tab to cycle)"]),
            "keep": ("✳ Claude Code", ["● earlier output", "",
                "  Showing detailed transcript · ctrl+o to toggle"]),
            "quiet": quiet,
        }
    if kind in ("codex",):
        return {
            "idle": ("codex", codex_top + ["─ Worked for 1m 02s ─", ""] + codex_foot),
            "working": ("codex", codex_top + ["• Working (4s • esc to interrupt)", ""]
                        + codex_foot),
            "waiting": ("codex", codex_top + ["  Would you like to run the following command?",
                "", "  $ rm -rf build", "", "› 1. Yes, proceed (y)",
                "  2. Yes, and don't ask again for commands that start with `rm` (p)",
                "  3. No, and tell Codex what to do differently (esc)", "",
                "  Press enter to confirm or esc to cancel"]),
            "prose": ("codex", codex_top + ["• Would you like to run the tests? [y/n] is what",
                "  I would ask; esc to interrupt was shown before."] + codex_foot),
            "quiet": quiet,
        }
    if kind in ("gemini", "qwen"):
        return {
            "idle": ("Gemini - project", [" ███ GEMINI", "Tips for getting started:", ""]
                     + gem_box),
            "working": ("Gemini - project", [" ███ GEMINI", "",
                "⠏ Reticulating splines (esc to cancel, 12s)", ""] + gem_box),
            "waiting": ("Gemini - project", [" ███ GEMINI", "", "⠏"] + gem_ask),
            "quiet": quiet,
        }
    if kind == "aider":
        top = ["Aider v0.86.1", "Main model: " + model + " with diff edit format",
               "Git repo: .git with 12 files", "Repo-map: using 4096 tokens", RULE]
        return {
            "idle": ("", top + ["Tokens: 2.2k sent, 1.9k received. Cost: $0.14 message.", RULE,
                                "> "]),
            "working": ("", top + ["> fix the failing test", "",
                                   "░█        Waiting for " + model]),
            "waiting": ("", top + ["tests/test_x.py",
                "Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: "]),
            "quiet": quiet,
        }
    if kind == "opencode":
        return {
            "idle": ("OpenCode", ["  ┃  Ask anything... \"Fix a TODO in the codebase\"",
                                  "  ┃", "  Build  " + model, "", "  enter send"]),
            "working": ("OpenCode", ["  ┃  fix the failing test", "",
                                     "  ■■■■⬝⬝⬝⬝  esc interrupt"]),
            "waiting": ("OpenCode", ["  △ Permission required", "  $ rm -rf build", "",
                                     "  Allow once   Allow always   Reject", "",
                                     "  esc dismiss   enter confirm"]),
            "quiet": quiet,
        }
    if kind == "cursor":
        return {
            "idle": ("Cursor Agent", ["  Cursor Agent", "", "  → Add a follow-up", "",
                                      "  Auto · 3% context"]),
            "working": ("Cursor Agent", ["  ⬢ Reading… src/app.py", "", "  ctrl+c to stop"]),
            "waiting": ("Cursor Agent", ["  Waiting for approval…", "  Run this command?",
                                         "  $ rm -rf build", "   → Run (once) (y)",
                                         "     Skip (esc or n)"]),
            "quiet": quiet,
        }
    if kind == "amp":
        return {
            "idle": ("~/project - amp - T-1234", ["╭─ Amp ─────────────────────────╮",
                                                  "│ > ask Amp to do something     │",
                                                  "╰───────────────────────────────╯"]),
            "working": ("⠋ ~/project - amp", ["╭───────────────────────────────╮",
                                              "│ >                             │",
                                              "╰─ ≋ thinking ──────────────────╯"]),
            "waiting": ("~/project - amp - T-1234", ["  Run this command?", "  $ rm -rf build",
                "  Approve   Allow All for This Session   Deny with feedback"]),
            "quiet": quiet,
        }
    if kind == "goose":
        return {
            "idle": ("goose", ["starting session | provider: openai model: " + model, "",
                               "( O)> "]),
            "working": ("goose", ["( O)> fix the failing test",
                                  "◒  Pondering the options...  (Ctrl+C to interrupt)"]),
            "waiting": ("goose", ["─── shell | developer ──────",
                                  "command: rm -rf build", "",
                                  "◆  Goose would like to call the above tool, do you allow?",
                                  "│  ● Allow", "│  ○ Always Allow", "│  ○ Deny",
                                  "│  ○ Cancel", "└"]),
            "quiet": quiet,
        }
    if kind == "copilot":
        box = ["╭──────────────────────────────────────────────╮",
               "│ > Enter @ to mention files or / for commands │",
               "╰──────────────────────────────────────────────╯",
               " ~/project                    " + model]
        return {
            "idle": ("GitHub Copilot", ["Welcome to GitHub Copilot CLI", ""] + box),
            "working": ("GitHub Copilot", ["● Reading src/app.py", "",
                                           "∙ Thinking (Esc to cancel)"] + box),
            "waiting": ("GitHub Copilot", ["╭─ Run command ─────────────────────────╮",
                "│ rm -rf build                          │",
                "│ Do you want to run this command?      │",
                "│ ❯ 1. Yes                              │",
                "│   2. No, and tell Copilot what to do differently (Esc) │",
                "╰───────────────────────────────────────╯",
                " Confirm with number keys or ↑↓ keys and Enter, Cancel with Esc"]),
            "quiet": quiet,
        }
    raise SystemExit("unknown kind " + kind)


def flag(args, names, default=""):
    for i, a in enumerate(args):
        if a in names and i + 1 < len(args):
            return args[i + 1]
        for n in names:
            if a.startswith(n + "="):
                return a[len(n) + 1:]
    return default


class Files:
    """The agent's on-disk traces, as the real agent writes them."""

    def __init__(self, kind, agent_pid, model):
        self.kind, self.pid, self.model = kind, agent_pid, model
        self.home = os.environ.get("HOME", "/nonexistent")
        self.cwd = os.getcwd()
        self.off = bool(os.environ.get("FAKE_NO_FILES"))
        self.rollout = None
        if self.off:
            return
        if kind == "claude":
            root = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(self.home, ".claude")
            self.reg = os.path.join(root, "sessions", "%d.json" % agent_pid)
            os.makedirs(os.path.dirname(self.reg), exist_ok=True)
            with open(os.path.join(root, "sessions", "%d.5f3e.key" % agent_pid), "w") as f:
                f.write("peer-token-secret\n")
            enc = re.sub(r"[^a-zA-Z0-9]", "-", self.cwd)
            self.transcript = os.path.join(root, "projects", enc, SID + ".jsonl")
            os.makedirs(os.path.dirname(self.transcript), exist_ok=True)
            self.append(self.transcript, {"type": "summary", "summary": "x"})
            self.status("idle")
        elif kind == "codex":
            home = os.environ.get("CODEX_HOME") or os.path.join(self.home, ".codex")
            d = os.path.join(home, "sessions", "2025", "01", "02")
            os.makedirs(d, exist_ok=True)
            path = os.path.join(d, "rollout-2025-01-02T03-04-05-%s.jsonl" % SID)
            self.rollout = open(path, "a", buffering=1)  # held open, as Codex does
            self.rollout.write(json.dumps({"timestamp": "t", "type": "session_meta",
                "payload": {"id": SID, "cwd": self.cwd, "cli_version": "0.44.0"}}) + "\n")
            self.turn_context()
        elif kind in ("gemini",):
            base = os.environ.get("GEMINI_CLI_HOME") or self.home
            digest = hashlib.sha256(os.path.realpath(self.cwd).encode()).hexdigest()
            d = os.path.join(base, ".gemini", "tmp", digest, "chats")
            os.makedirs(d, exist_ok=True)
            self.chat = os.path.join(d, "session-2025-01-02T03-04-%s.jsonl" % SID[:8])
            self.append(self.chat, {"sessionId": SID, "projectHash": digest,
                                    "startTime": "t", "kind": "main"})

    def append(self, path, rec):
        with open(path, "a") as f:
            f.write(json.dumps(rec) + "\n")

    def turn_context(self):
        if self.rollout is not None:
            self.rollout.write(json.dumps({"timestamp": "t", "type": "turn_context",
                "payload": {"cwd": self.cwd, "model": self.model, "effort": "medium"}}) + "\n")

    def status(self, status):
        if self.off or self.kind != "claude":
            return
        tmp = self.reg + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"pid": self.pid, "sessionId": SID, "cwd": self.cwd, "startedAt": 1,
                       "version": "2.1.3", "kind": "interactive", "entrypoint": "cli",
                       "status": status, "updatedAt": time.time()}, f)
        os.replace(tmp, self.reg)

    def reply(self):
        if self.off:
            return
        if self.kind == "claude":
            self.append(self.transcript, {"type": "assistant", "sessionId": SID,
                "message": {"role": "assistant", "model": self.model,
                            "content": [{"type": "text", "text": "done"}]}})
        elif self.kind == "codex":
            self.rollout.write(json.dumps({"type": "event_msg",
                                           "payload": {"type": "task_complete"}}) + "\n")
        elif self.kind == "gemini":
            self.append(self.chat, {"id": "m1", "timestamp": "t", "type": "gemini",
                                    "content": "done", "model": self.model})

    def close(self):
        if not self.off and self.kind == "claude":
            try:
                os.unlink(self.reg)
            except OSError:
                pass


def draw(title, lines):
    out = "\x1b]0;" + title + "\x07\x1b[H\x1b[2J" + "\n".join(lines)
    sys.stdout.write(out)
    sys.stdout.flush()


def main(kind, args, agent_pid):
    model = flag(args, ("--model", "-m"), {"claude": "claude-sonnet-4-5",
                                          "codex": "gpt-5-codex", "gemini": "gemini-2.5-pro",
                                          "aider": "gpt-4o"}.get(kind, "gpt-4.1"))
    files = Files(kind, agent_pid, model)
    table = screens(kind, model)
    state = "idle"
    draw(*table[state])
    status = {"working": "busy", "waiting": "waiting", "idle": "idle", "prose": "idle"}
    try:
        for line in sys.stdin:
            words = line.split()
            cmd = words[0] if words else ""
            if cmd == "quit":
                break
            if cmd == "model" and len(words) > 1:
                files.model = model = words[1]
                table = screens(kind, model)
                files.turn_context()
                files.reply()
            elif cmd == "flicker":
                n = int(words[1]) if len(words) > 1 else 10
                files.status("busy")
                # Mostly working with brief idle-looking frames, as a real turn redraws
                # (herdr#3438: 2 of 9 samples); a 300 ms period never lines up with a 200 ms
                # sweep, so at most one sweep in three can land on an idle frame.
                for _ in range(n):
                    draw(*table["working"])
                    time.sleep(0.23)
                    draw(*table["idle"])
                    time.sleep(0.07)
                state = "working"
            elif cmd == "filewait":
                files.status("waiting")
            elif cmd == "fileidle":
                files.status("idle")
            elif cmd in ("work", "ask", "finish", "prose", "quiet", "keep"):
                state = {"work": "working", "ask": "waiting", "finish": "idle"}.get(cmd, cmd)
                if cmd == "finish":
                    files.reply()
                files.status(status.get(state, "idle"))
            draw(*table.get(state, table["quiet"]))
    finally:
        files.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:], os.getppid())
'''

LAUNCHER_C = r'''
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* A native agent binary: runs the fake engine as its child, as real agents run workers. */
int main(int argc, char **argv) {
    char **args = calloc(argc + 4, sizeof(char *));
    int n = 0, i, st = 0;
    pid_t pid;
    args[n++] = PYTHON;
    args[n++] = ENGINE;
    args[n++] = KIND;
    for (i = 1; i < argc; i++) args[n++] = argv[i];
    args[n] = 0;
    pid = fork();
    if (pid == 0) {
        execv(PYTHON, args);
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0) {}
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
'''

LAUNCHER_JS = r'''#!/usr/bin/env node
// An npm-installed agent: node runs this script, which runs the fake engine as its child
// (Codex's node wrapper spawns its native binary the same way).
const { spawn } = require('child_process');
const child = spawn(%(python)s, [%(engine)s, %(kind)s, ...process.argv.slice(2)],
                    { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code === null ? 1 : code));
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, () => child.kill(s));
'''

AIDER_MAIN = '''
import os, sys
sys.path.insert(0, %(engine_dir)r)
from fake_agent_engine import main
main("aider", sys.argv[1:], os.getpid())
'''


@dataclass
class Fakes:
    """Where the fakes were built; ``bin`` goes first on PATH, ``pylib`` on PYTHONPATH."""

    root: str
    bin: str
    pylib: str
    engine: str
    node_modules: str

    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ if base is None else base)
        env["PATH"] = self.bin + os.pathsep + env.get("PATH", "/usr/bin:/bin")
        parts = [self.pylib] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
        env["PYTHONPATH"] = os.pathsep.join(parts)
        return env

    def path(self, *parts: str) -> str:
        return os.path.join(self.root, *parts)


_BUILT: dict[str, Fakes] = {}


def _c_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _compile(root: str, out: str, kind: str, engine: str) -> None:
    src = os.path.join(root, "launcher.c")
    if not os.path.exists(src):
        with open(src, "w") as f:
            f.write(LAUNCHER_C)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run(["cc", "-O1", "-o", out, src, f"-DPYTHON={_c_string(sys.executable)}",
                    f"-DENGINE={_c_string(engine)}", f"-DKIND={_c_string(kind)}"],
                   check=True, capture_output=True)


def _js(path: str, kind: str, engine: str) -> None:
    import json

    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(LAUNCHER_JS % {"python": json.dumps(sys.executable),
                               "engine": json.dumps(engine), "kind": json.dumps(kind)})
    os.chmod(path, 0o755)


def _link(target: str, link: str) -> None:
    os.makedirs(os.path.dirname(link), exist_ok=True)
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(target, link)


def build_fakes(root: str) -> Fakes:
    """Build every fake under ``root`` once per test process (C compiled, scripts written)."""
    if root in _BUILT:
        return _BUILT[root]
    if shutil.which("cc") is None or shutil.which("node") is None:
        pytest.skip("the fake agents need a C compiler and node")
    os.makedirs(root, exist_ok=True)
    engine_dir = os.path.join(root, "engine")
    os.makedirs(engine_dir, exist_ok=True)
    engine = os.path.join(engine_dir, "fake_agent_engine.py")
    with open(engine, "w") as f:
        f.write(ENGINE)
    b = os.path.join(root, "bin")
    os.makedirs(b, exist_ok=True)
    nm = os.path.join(root, "lib", "node_modules")
    # Native binaries: Claude as its installer lays it out, Goose and OpenCode plain, a Nix
    # wrapper name, an ssh-like wrapper (for HMUX_AGENT) and a look-alike that is no agent.
    _compile(root, os.path.join(root, "share", "claude", "versions", "2.1.3"), "claude", engine)
    _link(os.path.join(root, "share", "claude", "versions", "2.1.3"), os.path.join(b, "claude"))
    _compile(root, os.path.join(root, "nix", "bin", ".claude-unwrapped"), "claude", engine)
    _compile(root, os.path.join(b, "goose"), "goose", engine)
    _compile(root, os.path.join(b, "opencode"), "opencode", engine)
    _compile(root, os.path.join(b, "ssh-box"), "claude", engine)
    _compile(root, os.path.join(b, "my-codex-helper"), "codex", engine)
    # npm packages with their bin shims (symlinks to scripts with a node shebang).
    for kind, pkg, script, name in (
            ("codex", "@openai/codex", "bin/codex.js", "codex"),
            ("gemini", "@google/gemini-cli", "dist/index.js", "gemini"),
            ("qwen", "@qwen-code/qwen-code", "cli.js", "qwen"),
            ("copilot", "@github/copilot", "index.js", "copilot"),
            ("amp", "@sourcegraph/amp", "dist/main.js", "amp")):
        target = os.path.join(nm, pkg, script)
        _js(target, kind, engine)
        _link(target, os.path.join(b, name))
    # Cursor: a bash wrapper that execs a bundled node on the versioned index.js; `agent`
    # is a symlink to the wrapper. (The real wrapper passes --use-system-ca, which this
    # node may predate; --no-warnings stands in as the option before the script.)
    cursor_js = os.path.join(root, "share", "cursor-agent", "versions", "2025.09.18", "index.js")
    _js(cursor_js, "cursor", engine)
    wrapper = os.path.join(b, "cursor-agent")
    with open(wrapper, "w") as f:
        f.write(f'#!/bin/bash\nexec node --no-warnings "{cursor_js}" "$@"\n')
    os.chmod(wrapper, 0o755)
    _link(wrapper, os.path.join(b, "agent"))
    # aider: `python -m aider` and the console script a pip install writes.
    pylib = os.path.join(root, "pylib")
    os.makedirs(os.path.join(pylib, "aider"), exist_ok=True)
    with open(os.path.join(pylib, "aider", "__init__.py"), "w") as f:
        f.write("")
    with open(os.path.join(pylib, "aider", "__main__.py"), "w") as f:
        f.write(AIDER_MAIN % {"engine_dir": engine_dir})
    script = os.path.join(b, "aider")
    with open(script, "w") as f:
        f.write(f"#!{sys.executable}\n" + textwrap.dedent(AIDER_MAIN % {"engine_dir": engine_dir}))
    os.chmod(script, 0o755)
    fakes = Fakes(root=root, bin=b, pylib=pylib, engine=engine, node_modules=nm)
    _BUILT[root] = fakes
    return fakes


def fakes_for(tmp_path_factory: pytest.TempPathFactory) -> Fakes:
    """The fakes of this test process (built on first use)."""
    return build_fakes(str(tmp_path_factory.getbasetemp() / "agent-fakes"))


# -- a real PTY to run a fake in -----------------------------------------------------------------

class PtyProc:
    """A child in its own session with a PTY as its controlling terminal, output drained."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: str, shell: bool = False
                 ) -> None:
        import fcntl
        import termios
        import threading

        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, b"\x28\x00\x78\x00\x00\x00\x00\x00")

        def ctty() -> None:
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        cmd = ["/bin/sh", "-c", argv[0]] if shell else argv
        self.proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     cwd=cwd, start_new_session=True, preexec_fn=ctty)
        os.close(slave)
        self.output = bytearray()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.output += data

    @property
    def pid(self) -> int:
        return self.proc.pid

    def pgrp(self) -> int:
        try:
            return os.tcgetpgrp(self.master)
        except OSError:
            return -1

    def send(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    def text(self) -> str:
        return self.output.decode("utf-8", "replace")

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, 9)
            except OSError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.close(self.master)
        except OSError:
            pass


def wait_until(cond, timeout: float = 10.0, interval: float = 0.02):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = cond()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout}s (last value: {last!r})")


def cmdline(pid: int) -> list[str]:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return [a.decode() for a in f.read().rstrip(b"\0").split(b"\0")]


def foreground_argv(p: PtyProc) -> list[str]:
    return cmdline(p.pgrp())


# -- a tiny Host over real processes ------------------------------------------------------------

@dataclass
class HostPane:
    """One pane of :class:`FakeHost`: a real process on a real PTY, a screen the test writes."""

    proc: PtyProc | None
    lines: tuple[str, ...] = ()
    title: str = ""
    revision: int = 0
    visible: bool = False
    height: int = 40
    window: str = "@0"
    sessions: tuple[str, ...] = ("$0",)


class FakeHost:
    """The plugin API's Host over real child processes, for unit tests.

    Identity is real (the pane's foreground group is read from its PTY with ``tcgetpgrp``);
    the screen is whatever the test ``show``s, so classification inputs are exact.
    """

    def __init__(self) -> None:
        self.p: dict[str, HostPane] = {}
        self.options: dict[tuple[str, str | None], str] = {}
        self.events: list[tuple[str, str | None, dict[str, str]]] = []
        self.invalidated: list[str] = []
        self.bells: list[str] = []
        self.notices: list[tuple[str, str, str, str]] = []
        self.logs: list[str] = []
        self.tail_calls = 0
        self.option_calls = 0
        self._n = 0

    def add(self, proc: PtyProc | None, **kw: object) -> str:
        pid = f"%{self._n}"
        self._n += 1
        self.p[pid] = HostPane(proc, **kw)  # type: ignore[arg-type]
        return pid

    def show(self, pane_id: str, lines: list[str] | tuple[str, ...], title: str | None = None
             ) -> None:
        hp = self.p[pane_id]
        hp.lines = tuple(lines)
        if title is not None:
            hp.title = title
        hp.revision += 1

    def states(self) -> list[tuple[str, str]]:
        return [(e[2]["old"], e[2]["new"]) for e in self.events
                if e[0] == "pane-agent-state-changed"]

    # Host
    def panes(self) -> tuple[str, ...]:
        return tuple(self.p)

    def pane(self, pane_id: str):
        from hmux_core.plugin import PaneInfo

        hp = self.p.get(pane_id)
        if hp is None:
            return None
        proc = hp.proc
        dead = proc is None or proc.proc.poll() is not None
        return PaneInfo(
            pane_id=pane_id, pid=-1 if proc is None or dead else proc.pid,
            foreground_pgrp=-1 if proc is None else proc.pgrp(), tty="/dev/pts/x",
            revision=hp.revision, title=hp.title, width=120, height=hp.height,
            window_id=hp.window, session_ids=hp.sessions, active=True, visible=hp.visible,
            dead=dead,
            last_output=0.0)

    def pane_cwd(self, pane_id: str) -> str | None:
        return None

    def pane_tail(self, pane_id: str, lines: int) -> tuple[str, ...] | None:
        self.tail_calls += 1
        hp = self.p.get(pane_id)
        if hp is None:
            return None
        rows = list(hp.lines[-lines:]) if lines else []
        return tuple(r.rstrip() for r in rows)

    def pane_tails(self, pane_ids, lines: int) -> dict[str, tuple[str, ...]]:
        out = {}
        for pane_id in pane_ids:
            hp = self.p.get(pane_id)
            if hp is not None:
                out[pane_id] = self.pane_tail(pane_id, min(lines, hp.height)) or ()
        return out

    def option(self, name: str, pane_id: str | None = None) -> str | None:
        self.option_calls += 1
        if (name, pane_id) in self.options:
            return self.options[(name, pane_id)]
        return self.options.get((name, None))

    def pane_options(self, pane_ids, name: str) -> dict[str, str]:
        return {p: self.options[(name, p)] for p in pane_ids if (name, p) in self.options}

    def notify_clients(self, pane_id: str, title: str, body: str, style: str = "osc9") -> None:
        self.notices.append((pane_id, title, body, style))

    def invalidate(self, pane_id: str) -> None:
        self.invalidated.append(pane_id)

    def request_tick(self) -> None:
        pass

    def emit(self, name: str, pane_id: str | None = None, **values: str) -> None:
        self.events.append((name, pane_id, dict(values)))

    def bell(self, pane_id: str) -> None:
        self.bells.append(pane_id)

    def log(self, message: str) -> None:
        self.logs.append(message)


class Clock:
    """A clock the test moves, for holds measured without sleeping."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt


# -- the fakes' own tests: they must look like the real agents -----------------------------------

@pytest.fixture
def fakes(tmp_path_factory) -> Fakes:
    return fakes_for(tmp_path_factory)


@pytest.fixture
def run(fakes, tmp_path):
    procs: list[PtyProc] = []
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()

    def start(command: str, **extra: str) -> PtyProc:
        env = fakes.env({"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
                         "TERM": "xterm-256color", "LANG": "C.UTF-8", **extra})
        p = PtyProc([f"exec {command}"], env, str(work), shell=True)
        procs.append(p)
        return p

    yield start
    for p in procs:
        p.close()


@pytest.mark.parametrize("command, want", [
    ("claude --model opus", ["claude", "--model", "opus"]),
    ("goose session", ["goose", "session"]),
    ("codex --model gpt-5", ["node", "{bin}/codex", "--model", "gpt-5"]),
    ("gemini", ["node", "{bin}/gemini"]),
    ("python3 -m aider --model gpt-4o", ["python3", "-m", "aider", "--model", "gpt-4o"]),
    ("cursor-agent", ["node", "--no-warnings",
                      "{root}/share/cursor-agent/versions/2025.09.18/index.js"]),
])
def test_fake_argv_looks_like_the_real_agent(fakes, run, command, want):
    p = run(command)
    want = [w.format(bin=fakes.bin, root=fakes.root) for w in want]
    # Wrappers exec the real program, so the argv settles after a moment: poll for it.
    seen: list[list[str]] = []
    wait_until(lambda: seen.append(foreground_argv(p)) or seen[-1] == want)
    assert seen[-1] == want


def test_native_claude_exe_is_the_versioned_binary(fakes, run):
    p = run("claude")
    pgrp = wait_until(lambda: p.pgrp() if foreground_argv(p)[0] == "claude" else None)
    assert os.readlink(f"/proc/{pgrp}/exe") == fakes.path("share", "claude", "versions", "2.1.3")


def test_fake_draws_real_strings_and_moves_on_input(fakes, run):
    p = run("claude")
    wait_until(lambda: "✳ Claude Code" in p.text() and "bypass permissions on" in p.text())
    p.send("ask")
    wait_until(lambda: "Do you want to proceed?" in p.text())
    p.send("work")
    wait_until(lambda: "esc to interrupt" in p.text())
    p.send("quit")
    assert p.proc.wait(timeout=10) == 0


def test_fake_claude_writes_its_registry_and_key(fakes, run, tmp_path):
    p = run("claude")
    pgrp = wait_until(lambda: p.pgrp() if foreground_argv(p)[0] == "claude" else None)
    reg = tmp_path / "home" / ".claude" / "sessions" / f"{pgrp}.json"
    wait_until(reg.exists)
    import json

    assert json.loads(reg.read_text())["status"] == "idle"
    assert (tmp_path / "home" / ".claude" / "sessions" / f"{pgrp}.5f3e.key").exists()
    p.send("work")
    wait_until(lambda: json.loads(reg.read_text())["status"] == "busy")
    p.send("quit")
    p.proc.wait(timeout=10)
    assert not reg.exists()
