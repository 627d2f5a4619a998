"""What the live suite does with each real agent, step by step, and what each step must read.

Every scenario walks one agent through the screens a user meets: first run (trust, API key or
sign-in), a prompt, the permission prompt the fake API's command causes, the answer, a failed
turn. ``Drive.mark(state, step)`` records the screen and checks what the plugin published; the
live test fails on any mismatch, and the recordings become the replay fixtures.

Screens are waited for by their text before any key is sent: the agents drop keys typed before
their input handlers are up, and menus wrap, so a key sent early moves the wrong way.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from live import PACKAGES, Drive, FakeAPI, Recording, Server, install


def _git(work: Path) -> None:
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    subprocess.run(["git", "-C", str(work), "-c", "user.email=t@t", "-c", "user.name=t",
                    "commit", "-q", "--allow-empty", "-m", "init"], check=True)


def _turns(d: Drive, asked: tuple[str, ...], answered: str = "Anything else?",
           busy: tuple[str, ...] = (), failed: tuple[str, ...] = ("fake API",),
           approve: Callable[[Drive], None] = lambda d: d.key("Enter"),
           stays: bool = False) -> None:
    """The part every agent shares: a prompt, the permission prompt, the answer, a failure."""
    d.type("please run the command", enter=False)
    d.wait_text("please run the command")
    d.mark("idle", "typing at the prompt")
    d.key("Enter")
    d.phase = "working"
    if busy:
        d.wait_text(*busy, timeout=60)
        d.mark("working", "streaming", settle=False)
    d.wait_text(*asked, timeout=90)
    d.phase = "waiting"
    d.mark("waiting", "permission prompt")
    time.sleep(0.5)
    approve(d)
    d.phase = "working"
    if not stays:  # aider's questions stay on screen, scrolled up by what follows
        d.wait_text(*asked, gone=True, timeout=30)
    d.wait_text(answered, timeout=60)
    if busy:
        d.wait_text(*busy, gone=True, timeout=30)
    d.phase = "done"
    d.mark("done", "answered")
    d.type("now FAIL this one")
    d.phase = "error"
    try:
        d.wait_text(*failed, timeout=20)
    except TimeoutError:  # the Enter was swallowed while the agent redrew: once more
        d.key("Enter")
        d.wait_text(*failed, timeout=60)
    if busy:
        d.wait_text(*busy, gone=True, timeout=30)
    d.mark("error", "failed turn")
    d.phase = "error"
    d.type("and this", enter=False)
    d.wait_text("and this")
    d.mark("error", "typing after the failure")


def claude(d: Drive) -> None:
    d.wait_text("Yes, I trust this folder")
    d.mark("waiting", "trust dialog")
    time.sleep(1.0)
    d.key("Down")
    d.wait_text("❯ Yes, I trust this folder")
    d.key("Enter")
    d.wait_text("Do you want to use this API key?")
    d.mark("waiting", "api key question")
    time.sleep(0.5)
    d.key("Up")
    d.wait_text("❯ Yes")
    d.key("Enter")
    d.wait_text("for shortcuts")
    d.phase = "idle"
    d.mark("idle", "prompt")
    _turns(d, ("Do you want to proceed?",), busy=("esc to interrupt",), failed=("API Error",))


def codex(d: Drive) -> None:
    d.wait_text("Trust this folder?", "trust the contents of this directory")
    d.mark("waiting", "trust screen")
    time.sleep(1.0)
    d.key("Enter")
    d.wait_text("Ask Codex to do anything", timeout=30)
    d.settle(quiet=2.0)
    d.phase = "idle"
    d.mark("idle", "prompt")
    _turns(d, ("Would you like to run the following command?",), busy=("esc to interrupt",))


def codex_signin(d: Drive) -> None:
    d.wait_text("Choose how you want to use Codex", timeout=30)
    d.phase = "waiting"
    d.mark("waiting", "sign-in choices")
    time.sleep(1.0)
    d.key("Enter")
    d.wait_text("Finish signing in via your browser")
    d.mark("waiting", "browser login")
    d.key("Escape")
    d.wait_text("Sign in with Device Code")
    time.sleep(0.5)
    d.key("Down")
    time.sleep(0.3)
    d.key("Down")
    d.wait_text("> 3. Sign in another way")
    d.key("Enter")
    d.wait_text("Use an OpenAI API key")
    d.mark("waiting", "provider choices")
    time.sleep(1.0)
    d.key("Enter")
    d.wait_text("Paste or type your API key below")
    d.mark("waiting", "api key entry")
    d.type("sk-typing", enter=False)
    d.wait_text("sk-typing")
    d.mark("waiting", "typing the api key")


def gemini(d: Drive) -> None:
    d.wait_text("Do you trust the files in this folder?", timeout=60)
    d.mark("waiting", "trust dialog")
    time.sleep(1.0)
    d.key("Enter")
    d.wait_text("Type your message", timeout=60)
    d.settle(quiet=1.5)
    d.phase = "idle"
    d.mark("idle", "prompt")
    _turns(d, ("Allow execution of",), busy=("esc to cancel",), failed=("API Error",))


def gemini_signin(d: Drive) -> None:
    d.wait_text("Do you trust the files in this folder?", timeout=150)
    d.mark("waiting", "trust dialog")
    time.sleep(1.0)
    d.key("Enter")
    d.wait_text("How would you like to authenticate", timeout=60)
    d.phase = "waiting"
    d.mark("waiting", "sign-in choices")
    time.sleep(1.0)
    d.key("Down")
    d.wait_text("● 2. Use Gemini API Key")
    d.key("Enter")
    d.wait_text("Paste your API key here")
    d.mark("waiting", "api key dialog")
    d.type("typing-a-key", enter=False)
    d.wait_text("typing-a-key")
    d.mark("waiting", "typing the api key")


def opencode(d: Drive) -> None:
    d.wait_text("Ask anything", timeout=180)
    d.settle(quiet=1.5)
    d.phase = "idle"
    d.mark("idle", "prompt")
    _turns(d, ("Permission required",), busy=("esc interrupt",))


def aider(d: Drive) -> None:
    d.wait_text("Add .aider* to .gitignore", timeout=90)
    d.mark("waiting", "gitignore question")
    time.sleep(0.5)
    d.key("Enter")
    d.wait_text("diff>", timeout=60)
    d.settle(quiet=1.0)
    d.phase = "idle"
    d.mark("idle", "prompt")

    def approve(d: Drive) -> None:
        d.key("Enter")
        d.wait_text("Add command output to the chat?", timeout=30)
        d.mark("waiting", "second question")
        d.key("Enter")
        d.wait_text("Added 2 lines of output")

    _turns(d, ("Run shell command?",), answered="Added 2 lines of output", approve=approve,
           failed=("BadRequestError",), stays=True)


def claude_wrapper(d: Drive) -> None:
    """Claude started through its npm package's node wrapper (``node cli-wrapper.cjs``, what
    older installs and some shims run): the session is keyed by the native child's pid."""
    d.wait_text("Yes, I trust this folder")
    time.sleep(1.0)
    d.key("Down")
    d.wait_text("❯ Yes, I trust this folder")
    d.key("Enter")
    d.wait_text("Do you want to use this API key?")
    time.sleep(0.5)
    d.key("Up")
    d.wait_text("❯ Yes")
    d.key("Enter")
    d.wait_text("for shortcuts")
    d.phase = "idle"
    d.mark("idle", "prompt")
    deadline = time.monotonic() + 10
    sid = ""
    while time.monotonic() < deadline and not sid:
        sid = d.server.show(d.pane, "#{pane_agent_session_id}")
        time.sleep(0.2)
    if not sid:
        d.errors.append("claude through its node wrapper: no session id")


SCENARIOS: dict[str, Callable[[Drive], None]] = {
    "claude": claude, "codex": codex, "gemini": gemini, "opencode": opencode, "aider": aider}
#: Agents whose hooks the live run installs (``hmux agents install-hooks``) and then expects
#: to have reported at least once.
HOOKED = ("claude", "codex", "gemini", "opencode")
#: Scenarios without credentials: the sign-in / API-key screens.
SIGN_IN: dict[str, Callable[[Drive], None]] = {"codex": codex_signin, "gemini": gemini_signin}


def record_all(agents: list[str], save: bool = False, tmp: Path | None = None) -> list[str]:
    """Drive each agent (installing it first); the mismatches between wanted and published
    states. With ``save``, the recordings replace the fixtures."""
    errors: list[str] = []
    base = Path(tmp or tempfile.mkdtemp(prefix="hmux-live-"))
    api = FakeAPI(fenced_command=False).start()
    aider_api = FakeAPI(fenced_command=True).start()
    server = Server(base)
    try:
        for agent in agents:
            install(agent)
            recs: list[Recording] = []
            for name, table in ((agent, SCENARIOS), (agent + "-signin", SIGN_IN)):
                scenario = table.get(agent)
                if scenario is None:
                    continue
                work = base / f"work-{name}"
                work.mkdir()
                _git(work)
                hooked = table is SCENARIOS and agent in HOOKED
                d = Drive(server, agent, work, aider_api if agent == "aider" else api,
                          key=table is SCENARIOS, name=name, hooks=hooked)
                try:
                    scenario(d)
                    if hooked and not server.show(d.pane, "#{@agent-report}"):
                        d.errors.append(f"{name}: its hooks never reported")
                except Exception as e:  # noqa: BLE001 - a broken step is a finding, go on
                    d.errors.append(f"{name}: {type(e).__name__}: {e}")
                rec = d.finish()
                rec.agent = name
                recs.append(rec)
                errors += d.errors
            if agent == "claude":  # and through its node wrapper, for the session id
                work = base / "work-claude-wrapper"
                work.mkdir()
                _git(work)
                pkg = PACKAGES["claude"].prefix / "node_modules" / "@anthropic-ai" / "claude-code"
                d = Drive(server, agent, work, api, name="claude-wrapper",
                          argv=["node", str(pkg / "cli-wrapper.cjs")])
                try:
                    claude_wrapper(d)
                except Exception as e:  # noqa: BLE001
                    d.errors.append(f"claude-wrapper: {type(e).__name__}: {e}")
                errors += d.errors
            if save:
                for rec in recs:
                    rec.save()
    finally:
        server.kill()
        api.stop()
        aider_api.stop()
        reap(base)
    return errors


def reap(base: Path) -> list[int]:
    """End the processes the agents left behind (Codex's ``app-server`` daemon, OpenCode's
    server): those whose ``HOME`` is one of this run's throwaway homes, so nobody else's."""
    import os
    import signal

    mine = f"HOME={base}".encode()
    killed = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if any(e.startswith(mine) for e in env):
            try:
                os.kill(int(name), signal.SIGTERM)
                killed.append(int(name))
            except OSError:
                pass
    return killed
