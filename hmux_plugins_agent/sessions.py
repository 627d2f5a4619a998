"""Session id, model and state-file status of a running agent, from the agent's own files.

Each agent keeps these somewhere else (../shared/specs/agents.md §3): Claude a per-pid registry
``<config>/sessions/<pid>.json`` and per-session transcripts; Codex a rollout file it holds
open; Gemini per-project chat files; OpenCode an SQLite database. Everything here runs on the
plugin's worker thread and reads a file only when its (inode, size, mtime) changed; JSONL is
read incrementally from where the last read stopped. Key files (``*.key``, Claude's peer
tokens beside the registry) are never opened. The agent's own environment decides where its
files are (``CLAUDE_CONFIG_DIR``, ``CODEX_HOME``, ``GEMINI_CLI_HOME``, ``COPILOT_HOME``,
``XDG_DATA_HOME``), since it, not the server, chose them.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .identity import flag_value, subcommand_value
from .procs import Snapshot
from .table import AgentSpec

#: How much of a large JSONL file is read the first time (its head line plus this tail).
TAIL_BYTES = 1 << 20
#: Claude's registry status → hmux state, and how much that evidence weighs (see agents.toml).
CLAUDE_STATUS = {"busy": "working", "waiting": "waiting", "idle": "idle"}
STATE_FILE_PRIORITY = 60
_UUID = re.compile(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})", re.I)
_ROLLOUT = re.compile(r"/rollout-[^/]*\.jsonl$")

Sig = tuple[int, int, int]


def _sig(path: str) -> Sig | None:
    """None unless a regular file: opening a FIFO put where a session file belongs would
    block the plugin's lane for good."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def secret(path: str) -> bool:
    """Files never to open: key material kept beside session files."""
    return path.endswith(".key")


@dataclass(slots=True)
class _Tail:
    sig: Sig
    offset: int
    partial: bytes
    state: Any


class Files:
    """Change-driven reads: a file is parsed again only when its signature changes."""

    def __init__(self) -> None:
        self._json: dict[str, tuple[Sig, Any]] = {}
        self._tails: dict[tuple[str, int], _Tail] = {}
        self.reads = 0  #: files actually read (the tests check that unchanged files are not)

    def json(self, path: str) -> Any:
        """The parsed JSON document at ``path``, or ``None`` (missing, unreadable, invalid)."""
        if secret(path):
            return None
        sig = _sig(path)
        if sig is None:
            self._json.pop(path, None)
            return None
        hit = self._json.get(path)
        if hit is not None and hit[0] == sig:
            return hit[1]
        self.reads += 1
        try:
            with open(path, "rb") as f:
                value = json.loads(f.read(TAIL_BYTES))
        except (OSError, ValueError):
            value = None
        self._json[path] = (sig, value)
        return value

    def fold_jsonl(self, path: str, fold: Callable[[Any, dict[str, Any]], Any], init: Any,
                   key: int = 0) -> Any:
        """Fold every JSON object line of ``path`` into a state, reading only new bytes.

        A file seen for the first time that is larger than :data:`TAIL_BYTES` is folded from
        its first line and then its tail. ``key`` separates folds of one file by different
        readers.
        """
        if secret(path):
            return init
        sig = _sig(path)
        k = (path, key)
        if sig is None:
            self._tails.pop(k, None)
            return init
        t = self._tails.get(k)
        if t is not None and t.sig == sig:
            return t.state
        if t is None or t.sig[0] != sig[0] or sig[1] < t.offset:
            t = _Tail(sig, 0, b"", init)
        self.reads += 1
        try:
            with open(path, "rb") as f:
                if t.offset == 0 and sig[1] > TAIL_BYTES:
                    head = f.readline(TAIL_BYTES)
                    t.state = _fold_lines(head.splitlines(), fold, t.state)
                    f.seek(sig[1] - TAIL_BYTES)
                    f.readline()  # drop the partial line
                    t.partial = b""
                else:
                    f.seek(t.offset)
                data = f.read()
                t.offset = f.tell()
        except OSError:
            return t.state
        data = t.partial + data
        lines = data.split(b"\n")
        t.partial = lines.pop()
        t.state = _fold_lines(lines, fold, t.state)
        t.sig = sig
        self._tails[k] = t
        return t.state

    def forget(self, keep: Callable[[str], bool]) -> None:
        """Drop cached files no pane uses any more."""
        for p in [p for p in self._json if not keep(p)]:
            del self._json[p]
        for k in [k for k in self._tails if not keep(k[0])]:
            del self._tails[k]

    def known(self) -> set[str]:
        return set(self._json) | {k[0] for k in self._tails}


def _fold_lines(lines: Sequence[bytes], fold: Callable[[Any, dict[str, Any]], Any],
                state: Any) -> Any:
    for raw in lines:
        raw = raw.strip()
        if not raw or raw[:1] != b"{":
            continue
        try:
            rec = json.loads(raw)
        except ValueError:
            continue
        if isinstance(rec, dict):
            try:
                state = fold(state, rec)
            except (KeyError, TypeError, AttributeError):
                continue  # unknown record shapes are normal: formats change between versions
    return state


# -- the running agent ---------------------------------------------------------------------------

@dataclass(slots=True)
class AgentProc:
    """The agent process as the readers need it."""

    pid: int
    argv: tuple[str, ...]
    members: tuple[int, ...]  #: the group's processes, the agent first
    env: Mapping[str, str]
    cwd: str | None
    started: float  #: wall-clock start time, 0.0 if unknown

    @property
    def home(self) -> str:
        return self.env.get("HOME") or os.path.expanduser("~")


@dataclass(slots=True)
class SessionInfo:
    session_id: str = ""
    model: str = ""
    #: (state, priority) from the agent's own state file, when it has one.
    file_state: tuple[str, int] | None = None
    #: Changes whenever the state file does, so the pane is classified again.
    file_sig: object = None


@dataclass(slots=True)
class Tracker:
    """Per-pane reader state: which files belong to this agent and when they were looked for."""

    spec: AgentSpec
    proc: AgentProc
    info: SessionInfo = field(default_factory=SessionInfo)
    path: str | None = None  #: the session file found (rollout, transcript, chat file)
    next_scan: float = 0.0
    next_model: float = 0.0
    screen_model: str = ""
    cache: Any = None  #: a reader's own memo (OpenCode: the database signature and answer)
    error: str = ""  #: why a reader found nothing (a query that failed), for the log

    def refresh(self, snap: Snapshot, files: Files, now: float) -> SessionInfo:
        """Bring ``info`` up to date; cheap when nothing changed (a few ``stat`` calls)."""
        reader = _READERS.get(self.spec.sessions)
        sid = model = ""
        file_state: tuple[str, int] | None = None
        file_sig: object = None
        if reader is not None:
            sid, model, file_state, file_sig = reader(self, snap, files, now)
        argv = self.proc.argv
        if not sid:
            sid = (flag_value(argv, self.spec.session_flags)
                   or subcommand_value(argv, self.spec.resume_commands) or "")
        if not model:
            model = flag_value(argv, self.spec.model_flags) or self.screen_model or ""
        self.info = SessionInfo(sid, model, file_state, file_sig)
        return self.info


# -- Claude Code ---------------------------------------------------------------------------------

def claude_root(env: Mapping[str, str], home: str) -> str:
    return env.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")


def claude_project_dir(cwd: str) -> str:
    """``projects/<enc>``: every non-alphanumeric → ``-``; past 200 characters, the first 200
    plus ``-`` and base36 of the absolute Java string hash of the cwd."""
    enc = re.sub(r"[^a-zA-Z0-9]", "-", cwd)
    if len(enc) <= 200:
        return enc
    h = 0
    for unit in cwd.encode("utf-16-be").hex(" ", 2).split():
        h = (31 * h + int(unit, 16)) & 0xFFFFFFFF
    if h >= 1 << 31:
        h -= 1 << 32
    return enc[:200] + "-" + _base36(abs(h))


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def _claude_model(state: str, rec: dict[str, Any]) -> str:
    if rec.get("type") == "assistant":
        model = rec["message"]["model"]
        if isinstance(model, str) and model and not model.startswith("<"):
            return model  # "<synthetic>" marks messages Claude made up itself
    return state


def _claude(t: Tracker, snap: Snapshot, files: Files, now: float
            ) -> tuple[str, str, tuple[str, int] | None, object]:
    proc = t.proc
    root = claude_root(proc.env, proc.home)
    reg: dict[str, Any] | None = None
    reg_path = ""
    for pid in proc.members:
        path = os.path.join(root, "sessions", f"{pid}.json")
        data = files.json(path)
        if isinstance(data, dict) and data.get("sessionId") and data.get("pid", pid) == pid:
            reg, reg_path = data, path
            break
    if reg is None:
        return "", "", None, None
    sid = str(reg.get("sessionId") or "")
    status = CLAUDE_STATUS.get(str(reg.get("status", "")))
    file_state = (status, STATE_FILE_PRIORITY) if status else None
    model = ""
    cwd = reg.get("cwd") if isinstance(reg.get("cwd"), str) else proc.cwd
    if sid and cwd:
        transcript = os.path.join(root, "projects", claude_project_dir(cwd), f"{sid}.jsonl")
        t.path = transcript
        model = files.fold_jsonl(transcript, _claude_model, "")
    return sid, model, file_state, (reg_path, _sig(reg_path), status)


# -- Codex ---------------------------------------------------------------------------------------

def _codex_fold(state: tuple[str, str], rec: dict[str, Any]) -> tuple[str, str]:
    sid, model = state
    kind = rec.get("type")
    payload = rec.get("payload")
    if not isinstance(payload, dict):
        return state
    if kind == "session_meta" and isinstance(payload.get("id"), str):
        sid = payload["id"]
    elif kind == "turn_context" and isinstance(payload.get("model"), str):
        model = payload["model"]
    return sid, model


def codex_home(env: Mapping[str, str], home: str) -> str:
    return env.get("CODEX_HOME") or os.path.join(home, ".codex")


def _codex(t: Tracker, snap: Snapshot, files: Files, now: float
           ) -> tuple[str, str, tuple[str, int] | None, object]:
    proc = t.proc
    if t.path is None or now >= t.next_scan:
        # Codex holds its rollout open; the file changes on /new, so look again now and then.
        t.next_scan = now + (2.0 if t.path is None else 5.0)
        home = codex_home(proc.env, proc.home)
        sessions = os.path.join(home, "sessions") + os.sep
        found = thread = None
        for pid in proc.members:
            for target in snap.fds(pid):
                if target.endswith(" (deleted)"):
                    continue
                if _ROLLOUT.search(target) and (target.startswith(sessions) or found is None):
                    found = target
                elif "/tui-thread-reference-capabilities/" in target:
                    thread = os.path.basename(target)  # 0.171: the TUI's handle on its thread
            if found is not None:
                break
        if found is None:
            # 0.171 hands the conversation to a shared `codex app-server` daemon, which holds
            # the rollout: find it by the thread the TUI references, else by cwd and time.
            found = codex_rollout(home, thread, proc.cwd, proc.started, files)
        if found is not None:
            t.path = found
    if t.path is None:
        return "", "", None, None
    m = _UUID.findall(os.path.basename(t.path))
    sid, model = files.fold_jsonl(t.path, _codex_fold, ("", ""))
    return sid or (m[-1] if m else ""), model, None, None


def codex_rollout(home: str, thread: str | None, cwd: str | None, started: float,
                  files: Files) -> str | None:
    """The rollout of ``thread``, or the newest one begun in ``cwd`` since ``started``.

    Only the day directories since the process started are listed (rollouts live under
    ``sessions/YYYY/MM/DD``), so the cost does not grow with the history.
    """
    import time as _time

    root = os.path.join(home, "sessions")
    days = set()
    t0 = started or (_time.time() - 86400)
    t = t0 - 86400  # time zones: the directory is the rollout's local date
    while t <= _time.time() + 86400:
        days.add(_time.strftime("%Y/%m/%d", _time.localtime(t)))
        t += 86400
    best: tuple[float, str] | None = None
    for day in sorted(days):
        d = os.path.join(root, day)
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for n in names:
            if not (n.startswith("rollout-") and n.endswith(".jsonl")):
                continue
            p = os.path.join(d, n)
            if thread:
                if thread in n:
                    return p
                continue
            try:
                mtime = os.stat(p).st_mtime
            except OSError:
                continue
            if mtime + 1.0 < started or (best is not None and mtime <= best[0]):
                continue
            meta = files.fold_jsonl(p, _codex_cwd, "", key=1)
            if cwd and meta in (cwd, os.path.realpath(cwd)):
                best = (mtime, p)
    return best[1] if best else None


def _codex_cwd(state: str, rec: dict[str, Any]) -> str:
    if not state and rec.get("type") == "session_meta":
        cwd = rec["payload"].get("cwd")
        if isinstance(cwd, str):
            return cwd
    return state


# -- Gemini CLI ----------------------------------------------------------------------------------

def gemini_chats_dir(env: Mapping[str, str], home: str, project_root: str,
                     files: Files | None = None) -> str:
    """``<home>/.gemini/tmp/<project>/chats``: 0.61 names the project by the short name its
    ``projects.json`` gives the root; older releases by the root's SHA-256."""
    base = os.path.join(env.get("GEMINI_CLI_HOME") or home, ".gemini")
    if files is not None:
        doc = files.json(os.path.join(base, "projects.json"))
        projects = doc.get("projects") if isinstance(doc, dict) else None
        if isinstance(projects, dict) and isinstance(projects.get(project_root), str):
            return os.path.join(base, "tmp", projects[project_root], "chats")
    digest = hashlib.sha256(project_root.encode()).hexdigest()
    return os.path.join(base, "tmp", digest, "chats")


def _gemini_fold(state: tuple[str, str], rec: dict[str, Any]) -> tuple[str, str]:
    sid, model = state
    if isinstance(rec.get("sessionId"), str) and not sid:
        sid = rec["sessionId"]
    if rec.get("type") == "gemini" and isinstance(rec.get("model"), str):
        model = rec["model"]
    setter = rec.get("$set")
    if isinstance(setter, dict) and isinstance(setter.get("model"), str):
        model = setter["model"]
    messages = rec.get("messages")
    if isinstance(messages, list):  # the older whole-file .json format
        for msg in messages:
            if isinstance(msg, dict) and msg.get("type") == "gemini" and msg.get("model"):
                model = str(msg["model"])
    return sid, model


def _gemini(t: Tracker, snap: Snapshot, files: Files, now: float
            ) -> tuple[str, str, tuple[str, int] | None, object]:
    proc = t.proc
    if proc.cwd and now >= t.next_scan:
        t.next_scan = now + 1.0
        newest: tuple[float, str] | None = None
        roots = {proc.cwd, os.path.realpath(proc.cwd)}
        dirs = {gemini_chats_dir(proc.env, proc.home, r, files) for r in roots}
        dirs |= {gemini_chats_dir(proc.env, proc.home, r) for r in roots}
        for d in dirs:
            try:
                names = os.listdir(d)
            except OSError:
                continue
            for n in names:
                if not (n.startswith("session-") and n.endswith((".jsonl", ".json"))):
                    continue
                p = os.path.join(d, n)
                try:
                    mtime = os.stat(p).st_mtime
                except OSError:
                    continue
                # Chats of this process were written after it started.
                if mtime + 1.0 >= proc.started and (newest is None or mtime > newest[0]):
                    newest = (mtime, p)
        if newest is not None:
            t.path = newest[1]
    if t.path is None:
        return "", "", None, None
    if t.path.endswith(".json"):
        doc = files.json(t.path)
        state = _gemini_fold(("", ""), doc) if isinstance(doc, dict) else ("", "")
    else:
        state = files.fold_jsonl(t.path, _gemini_fold, ("", ""))
    return state[0], state[1], None, None


# -- OpenCode ------------------------------------------------------------------------------------

def opencode_db(env: Mapping[str, str], home: str) -> str:
    data = env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return os.path.join(data, "opencode", "opencode.db")


#: A failed turn in OpenCode's database outranks the screen's failed-turn rules.
OPENCODE_ERROR_PRIORITY = 66


def _opencode(t: Tracker, snap: Snapshot, files: Files, now: float
              ) -> tuple[str, str, tuple[str, int] | None, object]:
    proc = t.proc
    db = opencode_db(proc.env, proc.home)
    sig = (_sig(db), _sig(db + "-wal"))
    cached = t.cache
    if cached is not None and cached[0] == sig:
        return cached[1], cached[2], cached[3], sig
    if sig[0] is None or not proc.cwd or now < t.next_scan:
        return (cached[1], cached[2], cached[3], cached[0]) if cached else ("", "", None, None)
    t.next_scan = now + 0.5
    sid = model = ""
    state: tuple[str, int] | None = None
    try:
        files.reads += 1
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.05)
        try:
            row = None
            # 1.18 names the column time_updated; earlier 1.x updated_at.
            for column in ("time_updated", "updated_at"):
                try:
                    row = con.execute(f"SELECT id FROM session WHERE directory IN (?, ?) "
                                      f"AND parent_id IS NULL ORDER BY {column} DESC LIMIT 1",
                                      (proc.cwd, os.path.realpath(proc.cwd))).fetchone()
                    break
                except sqlite3.OperationalError as e:
                    t.error = f"opencode.db: {e}"
                    continue
            if row:
                sid = str(row[0])
                first = True
                for (data,) in con.execute("SELECT data FROM message WHERE session_id = ? "
                                           "ORDER BY rowid DESC LIMIT 50", (sid,)):
                    try:
                        msg = json.loads(data)
                    except (TypeError, ValueError):
                        continue
                    if not isinstance(msg, dict):
                        continue
                    if first:
                        first = False
                        state = opencode_state(msg)
                    if isinstance(msg.get("modelID"), str):
                        model = msg["modelID"]
                        break
        finally:
            con.close()
    except sqlite3.Error as e:
        t.error = f"opencode.db: {e}"
    t.cache = (sig, sid, model, state)
    return sid, model, state, sig


def opencode_state(msg: dict[str, Any]) -> tuple[str, int] | None:
    """The newest message says whether the last turn failed: an assistant message with an
    ``error``. (A message not yet completed is not taken as working: the screen's interrupt
    hint and progress bar say that better, and a message left incomplete would hold it.)"""
    if msg.get("role") == "assistant" and msg.get("error"):
        return ("error", OPENCODE_ERROR_PRIORITY)
    return None


# -- GitHub Copilot CLI --------------------------------------------------------------------------

def _copilot_fold(state: tuple[str, str, str], rec: dict[str, Any]) -> tuple[str, str, str]:
    sid, model, cwd = state
    data = rec.get("data")
    if not isinstance(data, dict):
        return state
    if rec.get("type") == "session.start":
        sid = str(data.get("sessionId") or sid)
        ctx = data.get("context")
        if isinstance(ctx, dict) and isinstance(ctx.get("cwd"), str):
            cwd = ctx["cwd"]
    if isinstance(data.get("model"), str):
        model = data["model"]
    return sid, model, cwd


def _copilot(t: Tracker, snap: Snapshot, files: Files, now: float
             ) -> tuple[str, str, tuple[str, int] | None, object]:
    proc = t.proc
    if now >= t.next_scan:
        t.next_scan = now + 2.0
        root = os.path.join(proc.env.get("COPILOT_HOME") or os.path.join(proc.home, ".copilot"),
                            "session-state")
        try:
            names = os.listdir(root)
        except OSError:
            names = []
        best: tuple[float, str] | None = None
        for n in names:
            p = os.path.join(root, n, "events.jsonl")
            try:
                mtime = os.stat(p).st_mtime
            except OSError:
                continue
            if mtime + 1.0 >= proc.started and (best is None or mtime > best[0]):
                state = files.fold_jsonl(p, _copilot_fold, ("", "", ""))
                if not proc.cwd or state[2] in ("", proc.cwd):
                    best = (mtime, p)
        if best is not None:
            t.path = best[1]
    if t.path is None:
        return "", "", None, None
    sid, model, _ = files.fold_jsonl(t.path, _copilot_fold, ("", "", ""))
    return sid, model, None, None


_READERS: dict[str, Callable[[Tracker, Snapshot, Files, float],
                             tuple[str, str, tuple[str, int] | None, object]]] = {
    "claude": _claude,
    "codex": _codex,
    "gemini": _gemini,
    "opencode": _opencode,
    "copilot": _copilot,
}
