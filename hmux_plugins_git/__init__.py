"""hmux's git plugin: ``#{git_worktree}``, ``#{git_branch}``, ``#{git_action}`` and friends for
every pane, read from files (never by running git). See ``docs/git.md``.

Modules: :mod:`.discovery` (the upward walk, as git does it), :mod:`.gitconfig` (the few config
keys that matter), :mod:`.head` (HEAD), :mod:`.operation` (rebase/am/merge/… markers),
:mod:`.repo` (one repository's state and its fingerprint), :mod:`.watch` (the inotify watcher),
:mod:`.plugin` (the per-pane sweep and the published table).
"""

from __future__ import annotations

from hmux_core.plugin import hookimpl

from .plugin import VARIABLES, GitPlugin

__all__ = ["GitPlugin", "VARIABLES", "hmux_plugin"]


@hookimpl
def hmux_plugin() -> GitPlugin:
    """The entry point's hook: one plugin object per server."""
    return GitPlugin()
