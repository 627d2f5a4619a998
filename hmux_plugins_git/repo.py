"""One repository's state as the plugin shows it, and the cheap fingerprint that says when to
read it again.

A state is keyed by the real path of the per-worktree git directory: every pane in one worktree
shares it, and linked worktrees of one repository get one each (their HEADs and markers differ).
Reading a state costs a few small file reads; deciding whether to read costs a few ``stat``
calls (the git dir's own mtime moves on every create, delete or rename inside it, HEAD
included, since HEAD is renamed into place).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from . import discovery
from .gitconfig import RepoConfig, read_repo_config
from .head import Head, branch_of, read_head, short_oid, short_ref
from .operation import Operation, read_operation

#: A fingerprint whose newest mtime is younger than this is not trusted: timestamps come from
#: a coarse clock (and some filesystems keep seconds), so two writes can share one.
RACY_NS = 2_000_000_000

Fingerprint = tuple[object, ...]


@dataclass(frozen=True, slots=True)
class RepoState:
    """Everything a pane in this repository shows, except where in the worktree it sits."""

    git_dir: str
    common_dir: str
    commondir: str | None  #: the ``commondir`` file's text (linked worktrees), for naming
    config: RepoConfig
    head: Head
    operation: Operation
    branch: str  #: #{git_branch}
    head_label: str  #: #{git_head}


def repo_name(common: str) -> str:
    """#{git_repo}: the name the repository's worktrees share, from the common git dir.

    - ``…/NAME/.git`` -> ``NAME`` (a normal repository and all its linked worktrees);
    - a submodule's ``…/.git/modules/<name>`` -> the last component of the module name
      (``modules/libs/foo`` -> ``foo``), not ``modules``;
    - otherwise the directory's own name without a ``.git`` suffix (``B.git`` -> ``B``,
      ``sep.git`` -> ``sep``), or, when that starts with a dot (``repo/.bare``), the parent's.
    """
    base = os.path.basename(common)
    parent = os.path.dirname(common)
    if base == ".git":
        return os.path.basename(parent) or base
    up = parent
    while True:
        if os.path.basename(up) == "modules" and discovery.is_git_dir(os.path.dirname(up)):
            return base
        nxt = os.path.dirname(up)
        if nxt == up:
            break
        up = nxt
    name = base[:-4] if base.endswith(".git") and len(base) > 4 else base
    if name.startswith("."):
        return os.path.basename(parent) or name
    return name


def labels(config: RepoConfig, head: Head, op: Operation) -> tuple[str, str]:
    """(#{git_branch}, #{git_head}).

    During a rebase the branch is the one being rebuilt (``head-name``; ``detached HEAD`` gives
    none) while HEAD itself is a detached id. Outside a branch the head is the short commit, or
    for a symbolic HEAD naming a non-branch ref (``refs/remotes/origin/main``) that ref shortened.
    A reftable repository gives ``("", "")``: its HEAD file is a stub.
    """
    if config.reftable or head.stub:
        return "", ""
    if op.action == "rebase" and op.head_name is not None:
        branch = branch_of(op.head_name)
    else:
        branch = branch_of(head.ref)
    if branch:
        return branch, branch
    if head.ref is not None:
        return "", short_ref(head.ref)
    if head.oid is not None:
        return "", short_oid(head.oid, config.abbrev)
    return "", ""


def read_state(git_dir: str) -> RepoState:
    raw = discovery.read_commondir(git_dir)
    common = discovery.common_dir(git_dir, raw)
    config = read_repo_config(common, git_dir)
    head = read_head(git_dir, config.hexsz)
    op = read_operation(git_dir)
    branch, label = labels(config, head, op)
    return RepoState(git_dir, common, raw, config, head, op, branch, label)


def name_for(git_dir_as_found: str, state: RepoState) -> str:
    """#{git_repo} for a git dir reached by the path ``git_dir_as_found``: the common dir is
    taken lexically from that path (``R/.git/worktrees/W`` + ``../..`` -> ``R/.git``) so that a
    symlinked ``.git`` names the repository after its worktree, in every worktree alike."""
    base = git_dir_as_found or state.git_dir
    common = discovery.common_dir(base, state.commondir, real=False) if state.commondir else base
    return repo_name(common)


def _watched_files(state: RepoState | None, git_dir: str) -> list[str]:
    files = [f"{git_dir}/HEAD"]
    if state is None:
        return files
    files.append(f"{state.common_dir}/config")
    if state.config.worktree_config:
        files.append(f"{git_dir}/config.worktree")
    d = state.operation.marker_dir
    if d == "rebase-merge":
        files += [f"{git_dir}/{d}", f"{git_dir}/{d}/msgnum", f"{git_dir}/{d}/end",
                  f"{git_dir}/{d}/head-name"]
    elif d == "rebase-apply":
        files += [f"{git_dir}/{d}", f"{git_dir}/{d}/next", f"{git_dir}/{d}/last",
                  f"{git_dir}/{d}/head-name"]
    elif d == "sequencer":
        files.append(f"{git_dir}/{d}")
    return files


def fingerprint(git_dir: str, state: RepoState | None) -> tuple[Fingerprint, int] | None:
    """``stat`` what can change a state: the git dir itself, HEAD, the config, and the files of
    an operation in progress. ``None`` when the git dir is gone. Also returns the newest mtime
    seen, for the racy check."""
    try:
        st = os.stat(git_dir)
    except OSError:
        return None
    parts: list[object] = [st.st_ino, st.st_mtime_ns]
    newest = st.st_mtime_ns
    for path in _watched_files(state, git_dir):
        try:
            s = os.lstat(path)
        except OSError:
            parts.append(None)
            continue
        parts.append((s.st_ino, s.st_mtime_ns, s.st_size))
        newest = max(newest, s.st_mtime_ns)
    return tuple(parts), newest


class RepoEntry:
    """A cached state with the fingerprint taken just before it was read."""

    __slots__ = ("git_dir", "state", "fp", "racy")

    def __init__(self, git_dir: str) -> None:
        self.git_dir = git_dir
        self.state: RepoState | None = None
        self.fp: Fingerprint | None = None
        self.racy = True

    def refresh(self, now_ns: int | None = None) -> RepoState | None:
        """The current state, re-read only if the fingerprint moved (or was too fresh to trust
        last time); ``None`` once the git dir is gone."""
        got = fingerprint(self.git_dir, self.state)
        if got is None:
            self.state = self.fp = None
            return None
        fp, newest = got
        if fp == self.fp and not self.racy and self.state is not None:
            return self.state
        new = read_state(self.git_dir)
        # The files to fingerprint depend on the state (an operation's directory): take the
        # fingerprint again against the new state so the next comparison is like for like.
        if self.state is None or new.operation.marker_dir != self.state.operation.marker_dir \
                or new.config.worktree_config != self.state.config.worktree_config \
                or new.common_dir != self.state.common_dir:
            again = fingerprint(self.git_dir, new)
            if again is not None:
                fp, newest = again
        now = time.time_ns() if now_ns is None else now_ns
        self.racy = now - newest < RACY_NS
        self.fp = fp
        if new != self.state:
            self.state = new
        return self.state
