"""Helpers for the git plugin's tests (no tests here): a git sandbox with a clean config, the
oracles (git itself, git-prompt, pygit2) and a tiny Host that drives the plugin directly.

Every repository is made by real git in a temporary directory, with HOME pointing into it and
no system or user config, so the machine's own git settings cannot leak into the answers.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from hmux_plugins_git import VARIABLES, GitPlugin

GIT_PROMPT = "/usr/lib/git-core/git-sh-prompt"


def git_version() -> tuple[int, ...]:
    out = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout
    m = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", out)
    assert m, out
    return tuple(int(x or 0) for x in m.groups())


GIT_VERSION = git_version()


# -- driving the plugin without a server --------------------------------------------------------


@dataclass
class StubHost:
    """Host with fixed panes: ``cwds`` maps pane id -> directory (what pane_cwd answers)."""

    cwds: dict[str, str] = field(default_factory=dict)
    options: dict[str, str] = field(default_factory=dict)
    invalidated: list[str] = field(default_factory=list)
    tick_requests: int = 0
    logs: list[str] = field(default_factory=list)
    ticked: threading.Event = field(default_factory=threading.Event)

    def panes(self) -> tuple[str, ...]:
        return tuple(self.cwds)

    def pane(self, pane_id: str):
        return None

    def pane_cwd(self, pane_id: str) -> str | None:
        return self.cwds.get(pane_id)

    def pane_tail(self, pane_id: str, lines: int):
        return None

    def option(self, name: str, pane_id: str | None = None) -> str | None:
        return self.options.get(name)

    def invalidate(self, pane_id: str) -> None:
        self.invalidated.append(pane_id)

    def request_tick(self) -> None:
        self.tick_requests += 1
        self.ticked.set()

    def emit(self, name: str, pane_id: str | None = None, **values: str) -> None:
        pass

    def log(self, message: str) -> None:
        self.logs.append(message)


def values_of(plugin: GitPlugin, pane_id: str = "%0") -> dict[str, str | None]:
    return {k: plugin.resolve(pane_id, k) for k in VARIABLES}


def plugin_values(cwd: str | os.PathLike[str], **kw) -> dict[str, str | None]:
    """One tick of a fresh plugin with a single pane sitting in ``cwd``."""
    plugin = GitPlugin(watch=False, **kw)
    host = StubHost({"%0": os.fspath(cwd)})
    plugin.start(host)
    plugin.tick(host)
    plugin.stop()
    return values_of(plugin)


# -- the sandbox --------------------------------------------------------------------------------


class Sandbox:
    """A temporary world for git: its own HOME and global config, and helpers to run git."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.home = self.root / "home"
        self.home.mkdir(parents=True, exist_ok=True)
        gitconfig = self.home / ".gitconfig"
        gitconfig.write_text(
            "[user]\n\tname = Test\n\temail = test@example.com\n"
            "[init]\n\tdefaultBranch = main\n"
            "[advice]\n\tdetachedHead = false\n"
            "[protocol \"file\"]\n\tallow = always\n"
            "[commit]\n\tgpgsign = false\n")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": str(gitconfig),
            "GIT_EDITOR": "true",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "TZ": "UTC",
        }

    def path(self, *parts: str) -> Path:
        return self.root.joinpath(*parts)

    def git(self, *args: str | os.PathLike[str], cwd: str | os.PathLike[str] | None = None,
            check: bool = True, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess:
        full_env = dict(self.env)
        if env:
            full_env.update(env)
        p = subprocess.run(["git", *map(os.fspath, args)], cwd=os.fspath(cwd or self.root),
                           env=full_env, capture_output=True)
        if check and p.returncode != 0:
            raise AssertionError(f"git {args} failed ({p.returncode}): "
                                 f"{p.stderr.decode(errors='replace')}")
        return p

    def out(self, *args: str | os.PathLike[str], cwd: str | os.PathLike[str] | None = None,
            env: Mapping[str, str] | None = None) -> str | None:
        """stdout of a git command without its last newline, or None if it failed."""
        p = self.git(*args, cwd=cwd, check=False, env=env)
        if p.returncode != 0:
            return None
        return os.fsdecode(p.stdout).removesuffix("\n")

    def commit(self, repo: Path, name: str, text: str, message: str) -> None:
        (repo / name).write_text(text)
        self.git("add", name, cwd=repo)
        self.git("commit", "-qm", message, cwd=repo)

    def mk(self, name: str = "R") -> Path:
        """The spec's base fixture: main c1..c3, feature f1..f4 from c1, main checked out."""
        repo = self.path(name)
        self.git("init", "-q", repo)
        for i in (1, 2, 3):
            self.commit(repo, "f", f"l{i}\n", f"c{i}")
        self.git("checkout", "-qb", "feature", "HEAD~2", cwd=repo)
        for i in (1, 2, 3, 4):
            (repo / f"g{i}").write_text(f"{i}\n")
            self.commit(repo, "f", f"feat{i}\n", f"f{i}")
        self.git("checkout", "-q", "main", cwd=repo)
        return repo


# -- oracles ------------------------------------------------------------------------------------

_PS1_ACTIONS = {
    "REBASE": "rebase", "REBASE-i": "rebase", "REBASE-m": "rebase", "AM": "am",
    "AM/REBASE": "am", "MERGING": "merge", "CHERRY-PICKING": "cherry-pick",
    "REVERTING": "revert", "BISECTING": "bisect",
}

_STATUS_ACTIONS = [
    (re.compile(r"rebase in progress|You are currently (editing a commit while |splitting a "
                r"commit while )?rebasing"), "rebase"),
    (re.compile(r"in the middle of an am session"), "am"),
    (re.compile(r"You have unmerged paths|still merging"), "merge"),
    (re.compile(r"currently cherry-picking|Cherry-pick currently in progress"), "cherry-pick"),
    (re.compile(r"currently reverting|Revert currently in progress"), "revert"),
    (re.compile(r"currently bisecting"), "bisect"),
]


@dataclass
class GitView:
    """What git (and git-prompt) say about a directory."""

    in_repo: bool
    git_dir: str = ""
    common_dir: str = ""
    inside_work_tree: bool = False
    toplevel: str = ""
    prefix: str = ""
    symbolic: str = ""  # full ref HEAD names, "" when detached
    short: str = ""  # git rev-parse --short HEAD, "" when unborn
    abbrev_ref: str = ""  # git rev-parse --abbrev-ref HEAD
    status: str = ""
    status_actions: frozenset[str] = frozenset()
    rebase_branch: str | None = None
    ps1: str = ""
    ps1_action: str = ""
    ps1_step: str = ""
    ps1_total: str = ""


def git_view(sb: Sandbox, cwd: str | os.PathLike[str],
             env: Mapping[str, str] | None = None) -> GitView:
    cwd = os.fspath(cwd)
    g = sb.out("rev-parse", "--absolute-git-dir", cwd=cwd, env=env)
    if g is None:
        return GitView(in_repo=False)
    common = sb.out("rev-parse", "--git-common-dir", cwd=cwd, env=env) or ""
    v = GitView(in_repo=True, git_dir=os.path.realpath(g),
                common_dir=os.path.realpath(os.path.join(cwd, common)))
    v.inside_work_tree = sb.out("rev-parse", "--is-inside-work-tree", cwd=cwd, env=env) == "true"
    v.toplevel = sb.out("rev-parse", "--show-toplevel", cwd=cwd, env=env) or ""
    v.prefix = (sb.out("rev-parse", "--show-prefix", cwd=cwd, env=env) or "").rstrip("/")
    v.symbolic = sb.out("symbolic-ref", "-q", "HEAD", cwd=cwd, env=env) or ""
    v.short = sb.out("rev-parse", "--short", "HEAD", cwd=cwd, env=env) or ""
    v.abbrev_ref = sb.out("rev-parse", "--abbrev-ref", "HEAD", cwd=cwd, env=env) or ""
    if v.inside_work_tree:
        v.status = sb.out("status", cwd=cwd, env=env) or ""
        v.status_actions = frozenset(a for rx, a in _STATUS_ACTIONS if rx.search(v.status))
    v.ps1 = ps1(sb, cwd, env)
    left, sep, right = v.ps1.partition("|")
    if sep:
        word, _, counts = right.partition(" ")
        v.ps1_action = _PS1_ACTIONS[word]
        if counts:
            v.ps1_step, _, v.ps1_total = counts.partition("/")
    if v.ps1_action == "rebase":
        # git status names the branch ("rebasing branch 'x'") unless something else stopped
        # the rebase; git-prompt always shows head-name ("detached HEAD" for none)
        # (without head-name git-prompt shows nothing, and git status HEAD's branch)
        m = re.search(r"rebasing branch '([^']*)'", v.status)
        v.rebase_branch = "" if left == "detached HEAD" else (left or None)
        if m:
            assert m.group(1) == v.rebase_branch, (m.group(1), v.ps1)
    return v


def ps1(sb: Sandbox, cwd: str, env: Mapping[str, str] | None = None) -> str:
    """``__git_ps1 "%s"`` from git's own git-sh-prompt, run in ``cwd``."""
    full = dict(sb.env)
    if env:
        full.update(env)
    p = subprocess.run(["bash", "-c", f'. {GIT_PROMPT}; cd -- "$1" && __git_ps1 "%s"', "_", cwd],
                       env=full, capture_output=True)
    return os.fsdecode(p.stdout)


def pygit2_view(cwd: str | os.PathLike[str]) -> dict[str, object] | None:
    """pygit2's answer: git dir, workdir, operation (as the plugin names it), detached."""
    import pygit2
    from pygit2.enums import RepositoryState as S

    try:
        found = pygit2.discover_repository(os.fspath(cwd))
    except pygit2.GitError:
        return None
    if found is None:
        return None
    repo = pygit2.Repository(os.fspath(cwd))  # opened from the cwd, as discovery would
    states = {
        S.NONE: "", S.MERGE: "merge", S.REVERT: "revert", S.REVERT_SEQUENCE: "revert",
        S.CHERRYPICK: "cherry-pick", S.CHERRYPICK_SEQUENCE: "cherry-pick", S.BISECT: "bisect",
        S.REBASE: "rebase", S.REBASE_INTERACTIVE: "rebase", S.REBASE_MERGE: "rebase",
        S.APPLY_MAILBOX: "am", S.APPLY_MAILBOX_OR_REBASE: "am",
    }
    return {
        "git_dir": os.path.realpath(found.rstrip("/")),
        "workdir": os.path.realpath(repo.workdir.rstrip("/")) if repo.workdir else "",
        "action": states[S(repo.state())],
        "detached": repo.head_is_detached,
        "unborn": repo.head_is_unborn,
        "bare": repo.is_bare,
    }


def expected_from_git(v: GitView) -> dict[str, str]:
    """The plugin's variables as git's own answers imply them."""
    if not v.in_repo:
        return {k: "" for k in VARIABLES}
    if v.rebase_branch is not None:
        branch = v.rebase_branch
    else:
        branch = v.symbolic.removeprefix("refs/heads/") if v.symbolic.startswith(
            "refs/heads/") else ""
    if branch:
        head = branch
    elif v.symbolic:
        head = v.abbrev_ref
    else:
        head = v.short
    return {
        "git_worktree": os.path.basename(v.toplevel),
        "git_worktree_path": v.toplevel,
        "git_subdir": v.prefix,
        "git_branch": branch,
        "git_head": head,
        "git_action": v.ps1_action,
        "git_action_step": v.ps1_step,
        "git_action_total": v.ps1_total,
    }


def check_against_git(sb: Sandbox, cwd: str | os.PathLike[str], *, pygit2_workdir: bool = True,
                      pygit2_action: bool = True, use_pygit2: bool = True,
                      status_action: bool = True,
                      env: Mapping[str, str] | None = None) -> dict[str, str | None]:
    """Run the plugin in ``cwd`` and compare every variable with git, git-prompt and pygit2;
    return the plugin's values for further pins."""
    from hmux_plugins_git import discovery
    from hmux_plugins_git.repo import read_state

    got = plugin_values(cwd)
    v = git_view(sb, cwd, env)
    want = expected_from_git(v)
    for key, value in want.items():
        assert got[key] == value, f"{key}: plugin {got[key]!r}, git {value!r} ({v})"
    if not v.in_repo:
        assert got["git_repo"] == ""
        return got
    found = discovery.discover(os.fspath(cwd))
    assert found is not None
    assert found.git_dir == v.git_dir
    assert read_state(found.git_dir).common_dir == v.common_dir
    if v.status_actions or got["git_action"]:
        if v.inside_work_tree and status_action:
            assert got["git_action"] in v.status_actions, (got, v.status)
    if use_pygit2:
        pv = pygit2_view(cwd)
        assert pv is not None
        assert pv["git_dir"] == v.git_dir
        if pygit2_workdir:
            assert pv["workdir"] == got["git_worktree_path"]
        if pygit2_action:
            assert pv["action"] == got["git_action"], (pv, got)
        if not pv["unborn"] and got["git_action"] != "rebase":
            assert pv["detached"] == (got["git_branch"] == "" and not v.symbolic)
    return got


def world_readable_tmp() -> Path:
    """A directory another user can reach (pytest's own are 0700 all the way down)."""
    d = Path(tempfile.mkdtemp(prefix="hmux-git-"))
    os.chmod(d, 0o755)
    return d


def copy_pluggy(dest: Path) -> Path:
    """A copy of pluggy readable by any user, for running the plugin as an unprivileged one."""
    import pluggy

    site = dest / "site"
    site.mkdir(parents=True, exist_ok=True)
    shutil.copytree(os.path.dirname(pluggy.__file__), site / "pluggy", dirs_exist_ok=True)
    return site
