"""One inotify watcher (through watchfiles) over every git directory the panes sit in.

A checkout or a rebase step then shows within about a tenth of a second instead of at the next
500 ms poll; the poll stays, and is all there is where watching fails (inotify limits reached,
network file systems, which inotify cannot see).

How watchfiles is used, and why:

- one plain thread and one ``watchfiles.watch`` over all paths, so one inotify instance, and no
  slot taken from anyio's or trio's worker pool (each ``awatch`` would hold one for good);
- ``recursive=False``: the interesting files sit directly in ``$GIT_DIR`` (``HEAD`` is renamed
  into it), and a recursive watch would add one for every ``objects/??`` directory;
- ``watch_filter=None``: the default filter drops every path with a ``.git`` component, which
  is every path here; relevance is decided by :func:`relevant` instead;
- a stop event, checked every ``STEP_MS``, so changing the watched set (a rebase directory
  appearing, a pane moving to another repository) or stopping takes a fraction of a second;
  ``step`` and ``rust_timeout`` are as long as that allows, since each step takes the GIL
  (20 ms steps were a tenth of an idle server's CPU).

A change only asks for a tick; the tick re-reads whatever changed. Events are never interpreted
one by one (a rebase start arrives as one burst of a dozen files).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable

#: File names whose change can alter a value; everything else (``index``, ``*.lock``,
#: ``ORIG_HEAD``, ``FETCH_HEAD``, ``logs/``, objects …) is noise from ordinary git use.
RELEVANT = frozenset({
    "HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "BISECT_LOG",
    "rebase-merge", "rebase-apply", "sequencer", "msgnum", "end", "next", "last",
    "head-name", "rebasing", "applying", "todo", "config", "config.worktree", "commondir",
})

RUST_TIMEOUT_MS = 1000
STEP_MS = 50
DEBOUNCE_MS = 200


def relevant(changes: Iterable[tuple[object, str]], watched: frozenset[str]) -> bool:
    """Whether a batch of changes can alter what the plugin shows."""
    for _change, path in changes:
        if path in watched or os.path.basename(path) in RELEVANT:
            return True
    return False


class Watcher:
    """Watches a set of directories and calls ``on_change`` (from its own thread) when
    something relevant in them changes. ``set_paths`` may be called from any thread."""

    def __init__(self, on_change: Callable[[], None], log: Callable[[str], None]) -> None:
        self._on_change = on_change
        self._log = log
        self._lock = threading.Lock()
        self._paths: frozenset[str] = frozenset()
        self._wake = threading.Event()  # set: re-read the paths (or stop)
        self._stopping = False
        self._thread: threading.Thread | None = None
        #: The last error that stopped watching (polling continues); ``None`` while fine.
        self.error: str | None = None
        #: How many times a watch was (re)started, for tests and ``hmux plugins``-style reports.
        self.starts = 0
        #: Set once the current watch set is being watched (tests wait on it).
        self.active = threading.Event()

    @property
    def paths(self) -> frozenset[str]:
        return self._paths

    def set_paths(self, paths: Iterable[str]) -> None:
        new = frozenset(paths)
        with self._lock:
            if new == self._paths:
                return
            self._paths = new
            self.active.clear()
            self._wake.set()
            if self._thread is None and not self._stopping:
                self._thread = threading.Thread(target=self._run, name="hmux-git-watch",
                                                daemon=True)
                self._thread.start()

    def stop(self, timeout: float = 1.0) -> None:
        with self._lock:
            self._stopping = True
            self._wake.set()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self) -> None:
        import watchfiles

        while True:
            with self._lock:
                if self._stopping:
                    return
                self._wake.clear()
                paths = self._paths
            existing = [p for p in sorted(paths) if os.path.isdir(p)]
            if not existing:
                self._wake.wait()
                continue
            watched = frozenset(existing)
            try:
                self.starts += 1
                gen = watchfiles.watch(
                    *existing, watch_filter=None, recursive=False, step=STEP_MS,
                    debounce=DEBOUNCE_MS, rust_timeout=RUST_TIMEOUT_MS, stop_event=self._wake,
                    yield_on_timeout=True, raise_interrupt=False,
                    ignore_permission_denied=True)
                for changes in gen:
                    if not self.active.is_set():
                        self.active.set()
                        self.error = None
                    if changes and relevant(changes, watched):
                        self._on_change()
            except Exception as e:  # ENOSPC/EMFILE, a path gone meanwhile, notify errors
                self.error = f"{type(e).__name__}: {e}"
                self._log(f"watching stopped, polling only: {self.error}")
                # Wait for the set to change (or stop) before trying again.
                self._wake.wait()
