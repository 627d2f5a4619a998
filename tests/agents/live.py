"""The real agents, installed into a cache and run in real hmux panes against the fake API.

This is the opt-in live suite's tool (``tests/agents/test_live.py`` drives it under the pytest
marker ``live_agents``) and a command line for recording fixtures::

    python tests/agents/live.py install            # the five agents into the cache
    python tests/agents/live.py record [AGENT…]    # drive them, write tests/agents/fixtures/

Installs go into ``$HMUX_AGENTS_CACHE`` (default ``~/.cache/hmux-agents``): each npm package
with ``npm install --prefix <cache>/npm/<name>`` at a pinned version, aider into its own venv.
Nothing is installed globally and every agent runs with a throwaway ``HOME`` whose
configuration turns its updater off (Claude Code's otherwise installs itself globally), its
telemetry off, and points it at the fake API (:mod:`fakeapi`) on 127.0.0.1.

A recording is the bytes the agent wrote to its terminal (through ``pipe-pane``), with the
offsets at which the driver looked at the screen and what the state was then — the truth the
driver knows because it caused it (it typed the prompt, it saw the permission question) — plus
every screen in between, labelled with the phase it fell in. ``tests/test_agent_screens.py``
replays them through hmux's screen engine and the plugin's classifier in the default run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent
ROOT = TESTS.parent
FIXTURES = HERE / "fixtures"
CACHE = Path(os.environ.get("HMUX_AGENTS_CACHE") or Path.home() / ".cache" / "hmux-agents")

sys.path[:0] = [str(HERE), str(TESTS)] if str(HERE) not in sys.path else []
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))
from fakeapi import FakeAPI  # noqa: E402


@dataclass(frozen=True)
class Package:
    """Where an agent comes from and which executable runs it."""

    agent: str
    kind: str  #: npm | pip
    name: str
    version: str
    bin: str

    @property
    def prefix(self) -> Path:
        if self.kind == "pip":
            return CACHE / "aider-venv"
        return CACHE / "npm" / (self.name.replace("/", "_").replace("@", "_") + "_" + self.version)

    @property
    def executable(self) -> Path:
        if self.kind == "pip":
            return self.prefix / "bin" / self.bin
        return self.prefix / "node_modules" / ".bin" / self.bin


PACKAGES = {
    "claude": Package("claude", "npm", "@anthropic-ai/claude-code", "2.1.332", "claude"),
    "codex": Package("codex", "npm", "@openai/codex", "0.171.0", "codex"),
    "gemini": Package("gemini", "npm", "@google/gemini-cli", "0.61.0", "gemini"),
    "opencode": Package("opencode", "npm", "opencode-ai", "1.18.33", "opencode"),
    "aider": Package("aider", "pip", "aider-chat", "0.86.2", "aider"),
}


def install(agent: str, log: Callable[[str], None] = print) -> Path:
    """The agent's executable, installed into the cache first if it is not there."""
    pkg = PACKAGES[agent]
    if pkg.executable.exists():
        return pkg.executable
    log(f"installing {pkg.name}@{pkg.version} into {pkg.prefix}")
    if pkg.kind == "npm":
        pkg.prefix.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(pkg.prefix), "--no-audit", "--no-fund",
                        "--loglevel=error", f"{pkg.name}@{pkg.version}"], check=True)
    else:
        subprocess.run([sys.executable, "-m", "venv", str(pkg.prefix)], check=True)
        subprocess.run([str(pkg.prefix / "bin" / "pip"), "install", "-q",
                        f"{pkg.name}=={pkg.version}"], check=True)
    return pkg.executable


# -- a throwaway home per agent --------------------------------------------------------------------

def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def agent_env(agent: str, home: Path, api: str, *, key: bool = True) -> dict[str, str]:
    """Environment (and files under ``home``) for one agent against the fake API at ``api``.

    ``key=False`` leaves the credentials out, so the agent's sign-in screens show.
    """
    home.mkdir(parents=True, exist_ok=True)
    env = {
        "HOME": str(home), "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "SHELL": "/bin/bash",
        "TZ": "UTC", "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"), "XDG_STATE_HOME": str(home / ".local" / "state"),
        "NO_PROXY": "127.0.0.1,localhost", "NODE_OPTIONS": "", "CI": "",
        "npm_config_cache": str(CACHE / "npm-cache"),
    }
    if agent == "claude":
        env.update({
            "ANTHROPIC_BASE_URL": api, "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_BUG_COMMAND": "1", "ANTHROPIC_MODEL": "claude-sonnet-4-5",
            "ANTHROPIC_SMALL_FAST_MODEL": "claude-haiku-4-5",
        })
        if key:
            env["ANTHROPIC_API_KEY"] = "sk-ant-api03-fake-" + "x" * 80
        _write(home / ".claude" / "settings.json", json.dumps({
            "autoUpdates": False, "env": {"DISABLE_AUTOUPDATER": "1"}}))
        # Onboarding starts with a connectivity check of api.anthropic.com itself (not the
        # base URL), which fails offline and exits; the rest of the first run (the API-key
        # question, the folder trust dialog) still shows with onboarding marked done.
        _write(home / ".claude.json", json.dumps({
            "hasCompletedOnboarding": True, "theme": "dark", "autoUpdates": False,
            "numStartups": 1, "installMethod": "npm"}))
    elif agent == "codex":
        env["CODEX_HOME"] = str(home / ".codex")
        if key:
            env["FAKE_OPENAI_KEY"] = "sk-fake"
            _write(home / ".codex" / "config.toml", f"""\
model = "gpt-5"
model_provider = "fake"
approval_policy = "on-request"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "{api}/v1"
env_key = "FAKE_OPENAI_KEY"
wire_api = "responses"

[analytics]
enabled = false
""")
        else:
            _write(home / ".codex" / "config.toml", "check_for_update_on_startup = false\n")
    elif agent == "gemini":
        env.update({"GOOGLE_GEMINI_BASE_URL": api, "GEMINI_CLI_NO_RELAUNCH": "",
                    "GEMINI_MODEL": "gemini-2.5-pro"})
        settings: dict[str, object] = {
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False,
                        "disableAutoUpdate": True, "disableUpdateNag": True},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "ui": {"hideTips": True},
        }
        if key:
            env["GEMINI_API_KEY"] = "fake-gemini-key"
            settings["security"] = {"auth": {"selectedType": "gemini-api-key"}}
        _write(home / ".gemini" / "settings.json", json.dumps(settings))
    elif agent == "opencode":
        env.update({"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1",
                    "OPENCODE_DISABLE_SHARE": "1", "OPENCODE_DISABLE_LSP_DOWNLOAD": "1"})
        cfg: dict[str, object] = {"$schema": "https://opencode.ai/config.json",
                                  "autoupdate": False, "share": "disabled",
                                  "permission": {"bash": "ask", "edit": "ask"}}
        if key:
            cfg["provider"] = {"fake": {
                "npm": "@ai-sdk/openai-compatible", "name": "Fake",
                "options": {"baseURL": api + "/v1", "apiKey": "sk-fake"},
                "models": {"fake-model": {"name": "Fake model"}}}}
            cfg["model"] = "fake/fake-model"
        _write(home / ".config" / "opencode" / "opencode.json", json.dumps(cfg))
    elif agent == "aider":
        env.update({"AIDER_CHECK_UPDATE": "false", "AIDER_ANALYTICS_DISABLE": "true",
                    "AIDER_SHOW_RELEASE_NOTES": "false", "LITELLM_LOCAL_MODEL_COST_MAP": "True",
                    "AIDER_AUTO_COMMITS": "false", "OPENAI_API_BASE": api + "/v1"})
        if key:
            env["OPENAI_API_KEY"] = "sk-fake"
    return env


def install_hooks(agent: str, env: dict[str, str]) -> None:
    """``hmux agents install-hooks AGENT`` into the agent's throwaway home (the hooks run the
    hmux on the agents' PATH, which is this Python's)."""
    from hmux_plugins_agent import hooks

    exe = Path(sys.executable).parent / "hmux"
    argv = [str(exe)] if exe.exists() else [sys.executable, "-m", "hmux_core.cli"]
    hooks.apply(hooks.plan(agent, argv, env=env))


def agent_argv(agent: str) -> list[str]:
    exe = str(PACKAGES[agent].executable)
    if agent == "aider":
        return [exe, "--model", "openai/fake-model", "--edit-format", "diff",
                "--no-show-model-warnings",
                "--no-fancy-input"]
    return [exe]


# -- an hmux server with the agent plugin ----------------------------------------------------------

def _client() -> list[str]:
    """The fastest client for polling: tmux's own (the oracle, else Debian's), else hmux."""
    try:
        from oracle import ORACLE  # type: ignore[import-not-found]
        if ORACLE and os.path.exists(ORACLE):
            return [ORACLE]
    except Exception:  # noqa: BLE001 - the oracle module may not be importable outside tests
        pass
    return ["/usr/bin/tmux"] if os.path.exists("/usr/bin/tmux") else \
        [sys.executable, "-m", "hmux_core.cli"]


class Server:
    """A private hmux server (own ``TMUX_TMPDIR`` and label) running the agent plugin."""

    def __init__(self, tmp: Path, width: int = 120, height: int = 40) -> None:
        self.tmp = tmp
        self.sockdir = tmp / "sock"
        self.sockdir.mkdir(parents=True, exist_ok=True)
        self.label = "live" + uuid.uuid4().hex[:8]
        self.width, self.height = width, height
        self.env = dict(os.environ, TMUX_TMPDIR=str(self.sockdir), TMUX_C2RS_PLUGINS="agent")
        self.env.pop("TMUX", None)
        self.env["PYTHONPATH"] = os.environ.get("HMUX_LIVE_ROOT") or str(ROOT)
        self.env["HMUX_LOG"] = str(tmp / "server.log")
        self.path = str(self.sockdir / f"hmux-{os.getuid()}" / self.label)
        conf = tmp / "hmux.conf"
        conf.write_text("setw -g automatic-rename off\nset -g remain-on-exit on\nset -g history-limit 5000\n")
        self.conf = str(conf)
        self.started = False

    def hmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "hmux_core.cli", "-L", self.label,
                               "-f", self.conf, *args], env=self.env, text=True,
                              capture_output=True, timeout=30)

    def cmd(self, *args: str) -> str:
        r = subprocess.run([*_client(), "-S", self.path, *args], env=self.env, text=True,
                           capture_output=True, timeout=30)
        if r.returncode != 0:
            raise RuntimeError(f"{args}: {r.stderr.strip()}")
        return r.stdout

    def pane(self, argv: list[str], env: dict[str, str], cwd: Path, name: str) -> str:
        """A new window running ``argv`` with exactly ``env``; its pane id. The command waits
        a moment so ``pipe-pane`` is in place before the agent's first byte."""
        script = self.tmp / f"run-{name}.sh"
        exports = "".join(f"export {k}={_q(v)}\n" for k, v in env.items())
        script.write_text("#!/bin/sh\n" + exports + f"cd {_q(str(cwd))}\nsleep 0.5\nexec "
                          + " ".join(_q(a) for a in argv) + "\n")
        script.chmod(0o755)
        # A clean environment, but the pane's TMUX and TMUX_PANE kept: hooks report with them.
        cmd = f'env -i TMUX="$TMUX" TMUX_PANE="$TMUX_PANE" /bin/sh {_q(str(script))}'
        if not self.started:
            r = self.hmux("new-session", "-d", "-s", "live", "-n", name, "-x", str(self.width),
                          "-y", str(self.height), "-P", "-F", "#{pane_id}", cmd)
            if r.returncode != 0:
                raise RuntimeError(r.stderr)
            self.started = True
            return r.stdout.strip()
        return self.cmd("new-window", "-d", "-t", "live:", "-n", name, "-P", "-F", "#{pane_id}",
                        cmd).strip()

    def show(self, pane: str, fmt: str) -> str:
        return self.cmd("display", "-p", "-t", pane, fmt).removesuffix("\n")

    def capture(self, pane: str) -> list[str]:
        return self.cmd("capture-pane", "-p", "-t", pane).splitlines()

    def keys(self, pane: str, *keys: str, literal: bool = False) -> None:
        self.cmd("send-keys", "-t", pane, *(["-l"] if literal else []), *keys)

    def kill(self) -> None:
        self.hmux("kill-server")


def _q(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


# -- recording -------------------------------------------------------------------------------------

@dataclass
class Mark:
    """One look at the screen: the byte offset, the state it must read, what the plugin said."""

    offset: int
    want: str
    step: str
    published: str = ""
    labelled: bool = True


@dataclass
class Recording:
    agent: str
    version: str
    width: int
    height: int
    marks: list[Mark] = field(default_factory=list)
    data: bytes = b""

    def save(self, where: Path = FIXTURES) -> None:
        where.mkdir(parents=True, exist_ok=True)
        (where / f"{self.agent}.bytes").write_bytes(self.data)
        doc = {"agent": self.agent, "version": self.version, "width": self.width,
               "height": self.height,
               "marks": [{"offset": m.offset, "want": m.want, "step": m.step,
                          "labelled": m.labelled} for m in self.marks]}
        (where / f"{self.agent}.json").write_text(json.dumps(doc, indent=1) + "\n")


class Drive:
    """One agent in one pane, its output recorded, and the steps that move it along."""

    def __init__(self, server: Server, agent: str, work: Path, api: FakeAPI, *,
                 key: bool = True, name: str | None = None, argv: list[str] | None = None,
                 hooks: bool = False) -> None:
        self.server, self.agent, self.api = server, agent, api
        self.name = name or agent
        self.home = server.tmp / f"home-{self.name}"
        self.work = work
        self.env = agent_env(agent, self.home, api.url, key=key)
        if hooks:
            install_hooks(agent, self.env)
        self.record_path = server.tmp / f"{self.name}.out"
        self.record_path.write_bytes(b"")
        self.pane = server.pane(argv or agent_argv(agent), self.env, work, self.name)
        server.cmd("pipe-pane", "-t", self.pane, f"cat >> {_q(str(self.record_path))}")
        self.rec = Recording(agent, PACKAGES[agent].version, server.width, server.height)
        self.phase = "start"
        self.errors: list[str] = []
        self._last_rev = ""
        self.timeline: list[tuple[float, str, str]] = []  #: (time, published, step) changes
        self._t0 = time.monotonic()

    # -- looking ---------------------------------------------------------------------------------

    def size(self) -> int:
        return self.record_path.stat().st_size

    def screen(self) -> str:
        return "\n".join(self.server.capture(self.pane))

    def published(self) -> str:
        return self.server.show(self.pane, "#{pane_agent_state}")

    def poll(self) -> None:
        """Note the screen as an unlabelled mark when it changed (for the unknown share)."""
        rev = self.server.show(self.pane, "#{history_size}:#{cursor_x}:#{cursor_y}") + \
            str(self.size())
        if rev != self._last_rev:
            self._last_rev = rev
            got = self.published()
            if not self.timeline or self.timeline[-1][1] != got:
                self.timeline.append((time.monotonic() - self._t0, got, self.phase))
            self.rec.marks.append(Mark(self.size(), self.phase, self.phase, got,
                                       labelled=False))

    def wait_text(self, *texts: str, timeout: float = 60.0, gone: bool = False) -> str:
        """Poll until one of ``texts`` is on screen (or, with ``gone``, none is)."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            self.poll()
            screen = self.screen()
            low = screen.lower()
            hit = any(t.lower() in low for t in texts)
            if hit != gone:
                return screen
            time.sleep(0.1)
        raise TimeoutError(f"{self.agent}: {'still' if gone else 'never'} saw {texts!r}; "
                           f"screen:\n{screen}")

    def settle(self, quiet: float = 0.6, timeout: float = 10.0) -> None:
        """Wait until the agent has written nothing for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        last, since = self.size(), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.1)
            self.poll()
            now = self.size()
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return

    def mark(self, want: str, step: str, timeout: float = 8.0, check: bool = True,
             settle: bool = True) -> str:
        """Record the screen as showing ``want``; wait up to ``timeout`` for the plugin to
        publish it (the live assertion). Returns what was published. ``settle=False`` for a
        passing state (working): the screen is taken as it is now."""
        if settle:
            self.settle()
        else:
            time.sleep(0.3)
        deadline = time.monotonic() + timeout
        got = self.published()
        while check and got != want and time.monotonic() < deadline:
            time.sleep(0.1)
            got = self.published()
        self.rec.marks.append(Mark(self.size(), want, step, got))
        if check and got != want:
            report = self.server.show(self.pane, "#{@agent-report}")
            trail = " ".join(f"{t:.1f}s:{s}" for t, s, _ in self.timeline[-6:])
            self.errors.append(f"{self.agent} {step}: wanted {want}, published {got} "
                               f"(report {report!r}; published before: {trail})")
        return got

    # -- acting ----------------------------------------------------------------------------------

    def type(self, text: str, enter: bool = True) -> None:
        self.server.keys(self.pane, text, literal=True)
        if enter:
            time.sleep(0.2)
            self.server.keys(self.pane, "Enter")

    def key(self, *keys: str) -> None:
        self.server.keys(self.pane, *keys)

    def finish(self) -> Recording:
        self.settle(quiet=0.3, timeout=3)
        self.rec.data = self.record_path.read_bytes()
        return self.rec


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("install", "record"):
        print(__doc__)
        return 2
    agents = argv[1:] or list(PACKAGES)
    if argv[0] == "install":
        for a in agents:
            print(a, install(a))
        return 0
    from scenarios import record_all  # type: ignore[import-not-found]
    errors = record_all(agents, save=True)
    for e in errors:
        print("MISMATCH", e)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


__all__ = ["CACHE", "Drive", "FIXTURES", "FakeAPI", "PACKAGES", "Recording", "Server",
           "agent_argv", "agent_env", "install", "shutil"]
