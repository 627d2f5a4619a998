"""The git plugin: for every pane, where it sits in a git worktree and what that repository is
in the middle of, read from files on the plugin's tick and published for ``resolve``.

Work per tick (worker thread, every 500 ms, or sooner when the watcher asks):

1. each pane's cwd from the Host; a cwd seen before reuses its discovery result, which is
   redone when it is older than :attr:`GitPlugin.rediscover` seconds (to notice a ``git init``
   or ``rm -rf .git`` above the pane) or when its git dir vanished;
2. each git dir in use once: a few ``stat`` calls, and the files re-read only if that
   fingerprint moved (:mod:`hmux_plugins_git.repo`);
3. a pane's values are rebuilt only when its location or its repository's state changed; the
   whole table is published by assigning a new dict, and ``host.invalidate`` is called for the
   panes whose values differ.

``resolve`` only looks a value up. A pane created between two ticks reads as empty until the
next one.
"""

from __future__ import annotations

import os
import time
import zlib
from collections.abc import Callable, Mapping
from types import MappingProxyType

from hmux_core.plugin import Host, Plugin

from . import discovery
from .discovery import Found
from .gitconfig import as_bool
from .repo import RepoEntry, RepoState, name_for
from .watch import Watcher

VARIABLES = (
    "git_worktree", "git_worktree_path", "git_subdir", "git_repo", "git_branch", "git_head",
    "git_action", "git_action_step", "git_action_total",
)

#: Values of a pane outside any repository.
EMPTY: Mapping[str, str] = MappingProxyType({k: "" for k in VARIABLES})

#: Option that turns the watcher off (``set -g @git-watch off``); polling then does it all.
WATCH_OPTION = "@git-watch"
#: Ticks (of 0.5 s) a quiet pane's cwd is trusted: a foreground program that changes
#: directory without printing anything is seen within this many ticks (5 s).
CWD_EVERY = 10

def worktree_of(found: Found, state: RepoState) -> tuple[str, str] | None:
    """(worktree root, subdir) as git decides them, or ``None`` when there is no worktree.

    - ``core.worktree`` (absolute, or relative to $GIT_DIR) is honoured, as git does: the root is
      what it names, and the subdir is the cwd below it, or empty when the cwd is outside it
      (git's ``--show-prefix`` is empty then too). Submodules carry one matching their location.
      Like ``core.bare`` it only counts for the main worktree unless extensions.worktreeConfig.
    - Otherwise a ``.git`` found on the way up makes its directory the root, unless
      ``core.bare`` is true.
    - A cwd inside a git directory (a bare repository, or under ``.git``) has no worktree, as
      for git (``--is-inside-git-dir``); repository, branch, head and action still answer.
    """
    cfg = state.config
    # git reads core.bare/core.worktree only for the main worktree, or for any worktree once
    # extensions.worktreeConfig is on (check_repository_format_gently): a linked worktree of a
    # bare repository is a worktree although the shared config says core.bare = true.
    own = state.common_dir == state.git_dir or cfg.worktree_config
    if own and cfg.worktree is not None:
        root = os.path.realpath(os.path.join(state.git_dir, cfg.worktree))
    elif found.top is None or (own and cfg.bare):
        return None
    else:
        root = found.top
    cwd = found.cwd
    if cwd == root:
        return root, ""
    prefix = root if root.endswith("/") else root + "/"
    if cwd.startswith(prefix):
        return root, cwd[len(prefix):]
    return root, ""


def pane_values(found: Found, state: RepoState) -> Mapping[str, str]:
    wt = worktree_of(found, state)
    root, subdir = wt if wt is not None else ("", "")
    op = state.operation
    return MappingProxyType({
        "git_worktree": os.path.basename(root) if root != "/" else "/",
        "git_worktree_path": root,
        "git_subdir": subdir,
        "git_repo": name_for(found.git_dir_as_found, state),
        "git_branch": state.branch,
        "git_head": state.head_label,
        "git_action": op.action,
        "git_action_step": op.step,
        "git_action_total": op.total,
    })


class _Place:
    """A cwd string's discovery result and the values last built from it."""

    __slots__ = ("found", "until", "state", "values")

    def __init__(self, found: Found | None, until: float) -> None:
        self.found = found
        self.until = until
        self.state: RepoState | None = None
        self.values: Mapping[str, str] = EMPTY


class GitPlugin(Plugin):
    """Publishes the ``git_*`` variables; see ``docs/git.md``."""

    name = "git"
    variables = VARIABLES
    interval = 0.5

    #: Seconds a cwd's discovery result is trusted before the walk is done again (the first
    #: interval is 0.5 to 1.5 times this, spread by directory). A vanished git dir is noticed
    #: at once; this period is for a ``git init`` or a new ``.git`` above a pane.
    rediscover: float = 3.0

    def __init__(self, *, watch: bool = True, clock: Callable[[], float] = time.monotonic,
                 device: Callable[[str], int] | None = None) -> None:
        self._watch_wanted = watch
        self._clock = clock
        self._device = device or discovery.device_of
        self._host: Host | None = None
        self._values: dict[str, Mapping[str, str]] = {}
        #: pane id -> (its output revision when its cwd was read, that cwd)
        self._cwds: dict[str, tuple[int, str | None]] = {}
        self._revisions: Mapping[str, int] | None = None  #: what _cwds was last read against
        self._dirs: set[str] = set()  #: the distinct cwds of the panes
        self._by_dir: dict[str, Mapping[str, str]] = {}  #: each cwd's values, last tick
        self._sweep = 0
        self._places: dict[str, _Place] = {}
        self._repos: dict[str, RepoEntry] = {}
        self._watcher: Watcher | None = None
        self._ceilings: tuple[str, ...] = ()
        self._across_fs = False
        #: Figures of the last tick, for benches and tests: panes seen, walks done, repositories
        #: fingerprinted, and repositories whose state changed.
        self.last_stats: dict[str, int] = {}

    # -- lifecycle --------------------------------------------------------------------------

    def start(self, host: Host) -> None:
        """Read the discovery environment once (panes inherit the server's)."""
        self._host = host
        self._ceilings = discovery.parse_ceilings(os.environ.get("GIT_CEILING_DIRECTORIES"))
        self._across_fs = as_bool(os.environ.get("GIT_DISCOVERY_ACROSS_FILESYSTEM", "")) is True

    def stop(self) -> None:
        """Stop the watcher thread (within one of its 50 ms steps)."""
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None

    @property
    def watcher(self) -> Watcher | None:
        return self._watcher

    # -- the sweep --------------------------------------------------------------------------

    def _discover(self, cwd: str) -> Found | None:
        return discovery.discover(cwd, ceilings=self._ceilings, across_fs=self._across_fs,
                                  device=self._device)

    def _place(self, cwd: str, now: float, stats: dict[str, int]) -> _Place:
        place = self._places.get(cwd)
        if place is None:
            # The first walk is now; the next comes after a per-directory fraction of the
            # period, so a hundred panes do not all walk again on the same tick.
            found = self._discover(cwd)
            stats["walks"] += 1
            phase = 0.5 + (zlib.crc32(os.fsencode(cwd)) % 1024) / 1024
            place = self._places[cwd] = _Place(found, now + self.rediscover * phase)
        elif now >= place.until:
            found = self._discover(cwd)
            stats["walks"] += 1
            if place.found == found:
                place.until = now + self.rediscover
            else:
                place = self._places[cwd] = _Place(found, now + self.rediscover)
        return place

    def _state(self, git_dir: str, seen: dict[str, RepoState | None],
               stats: dict[str, int]) -> RepoState | None:
        if git_dir in seen:
            return seen[git_dir]
        entry = self._repos.get(git_dir)
        if entry is None:
            entry = self._repos[git_dir] = RepoEntry(git_dir)
        before = entry.state
        state = entry.refresh()
        stats["repos"] += 1
        if state is not before:
            stats["changed"] += 1
        seen[git_dir] = state
        return state

    def tick(self, host: Host) -> None:
        """Recompute the values of every directory the panes are in; give each pane its
        directory's and invalidate the panes whose values changed."""
        now = self._clock()
        moved = self._pane_cwds(host)
        stats = {"panes": len(self._cwds), "walks": 0, "repos": 0, "changed": 0}
        seen: dict[str, RepoState | None] = {}
        before, by_dir = self._by_dir, {}
        same = not moved
        for cwd in self._dirs:
            values = by_dir[cwd] = self._dir_values(cwd, now, seen, stats)
            if values is not before.get(cwd):
                same = False
        self._by_dir = by_dir
        if not same:  # only then is the per-pane walk worth doing
            old = self._values
            new = {pane_id: by_dir.get(cwd, EMPTY) for pane_id, (_, cwd) in self._cwds.items()}
            self._values = new
            for pane_id, values in new.items():
                prev = old.get(pane_id)
                if prev is not values and prev != values:
                    host.invalidate(pane_id)
        if len(self._places) > len(self._dirs):
            self._places = {k: v for k, v in self._places.items() if k in self._dirs}
        if len(self._repos) > len(seen):
            self._repos = {k: v for k, v in self._repos.items() if k in seen}
        self.last_stats = stats
        self._update_watch(host, seen)

    def _dir_values(self, cwd: str, now: float, seen: dict[str, RepoState | None],
                    stats: dict[str, int]) -> Mapping[str, str]:
        """The values of a pane in ``cwd`` (the same object while nothing changed)."""
        place = self._place(cwd, now, stats)
        if place.found is None:
            return EMPTY
        state = self._state(place.found.git_dir, seen, stats)
        if state is None:  # the git dir went: walk again now
            place.until = now
            place = self._place(cwd, now, stats)
            if place.found is None:
                return EMPTY
            state = self._state(place.found.git_dir, seen, stats)
            if state is None:
                return EMPTY
        if place.state is not state:
            place.state = state
            place.values = pane_values(place.found, state)
        return place.values

    def _pane_cwds(self, host: Host) -> bool:
        """Bring ``self._cwds`` (each live pane's output revision and working directory) up
        to date; True if a pane came, went or changed directory. A pane that printed nothing
        since its cwd was read keeps it until the next full round (every ``CWD_EVERY`` ticks,
        all panes at once): ``cd`` in a shell prints a prompt, and reading 200 panes' cwds
        every tick (a readlink and a tcgetpgrp each) was most of an idle server's git cost."""
        read = getattr(host, "revisions", None)  # a host older than revisions(): every tick
        revisions: Mapping[str, int] = read() if read is not None else dict.fromkeys(
            host.panes(), -1)
        full = self._sweep % CWD_EVERY == 0
        self._sweep += 1
        if revisions is self._revisions and not full:
            return False  # the same mapping back: nothing printed, came or went
        self._revisions = revisions
        cwds = self._cwds
        moved = False
        for pane_id, rev in revisions.items():
            known = cwds.get(pane_id)
            if known is None or known[0] != rev or rev < 0 or full:
                cwd = host.pane_cwd(pane_id)
                if known is None or known[1] != cwd:
                    moved = True
                cwds[pane_id] = (rev, cwd)
        if len(cwds) > len(revisions):
            self._cwds = {k: v for k, v in cwds.items() if k in revisions}
            moved = True
        if moved:
            self._dirs = {cwd for _, cwd in self._cwds.values() if cwd}
        return moved

    def _update_watch(self, host: Host, seen: dict[str, RepoState | None]) -> None:
        wanted = self._watch_wanted
        if wanted:
            try:
                opt = host.option(WATCH_OPTION)
            except Exception:
                opt = None
            if opt is not None and as_bool(opt) is False:
                wanted = False
        if not wanted:
            if self._watcher is not None:
                self._watcher.stop()
                self._watcher = None
            return
        paths: set[str] = set()
        for git_dir, state in seen.items():
            if state is None:
                continue
            paths.add(git_dir)
            d = state.operation.marker_dir
            if d in ("rebase-merge", "rebase-apply"):
                paths.add(f"{git_dir}/{d}")
        if self._watcher is None:
            if not paths:
                return
            self._watcher = Watcher(host.request_tick, host.log)
        self._watcher.set_paths(paths)

    # -- lookups -----------------------------------------------------------------

    def resolve(self, pane_id: str, key: str) -> str | None:
        values = self._values.get(pane_id)
        if values is None:
            return None
        return values.get(key)
