"""The server's own status-line defaults for when plugins run.

Plugins publish variables; what the status line does with them is decided here, in one place,
so no plugin's load order decides it. The window label becomes the window's state glyph
(``#{window_state_emoji}``, agent plugin: the most urgent state among its panes, so an agent
waiting in a pane that is not the active one still shows) followed by where the pane is (git plugin): the
worktree name at its root, ``name/`` below it, the directory's basename outside a repository,
and ``[rebase 2/7]``-style operation suffixes. Every branch survives a variable whose plugin is
off (it expands to nothing), and only options still holding tmux's value that no config file
set are replaced, so a user's config wins. With no plugin running nothing is touched. A window the user named
keeps its name (``#W``); only automatically named windows show the location.
"""

from __future__ import annotations

from typing import Any

#: Where the pane is: worktree, worktree/ below its root, else the directory's basename.
LOCATION = (
    "#{?git_worktree,#{git_worktree}#{?git_subdir,/,},#{b:pane_current_path}}"
    "#{?git_action, [#{git_action}"
    "#{?git_action_total, #{git_action_step}/#{git_action_total},}],}"
)

#: tmux 3.7b's value of both options, the only value we replace.
TMUX_WINDOW_STATUS = "#I:#W#{?window_flags,#{window_flags}, }"

#: A name the user gave (rename-window, ``new-window -n``, ``automatic-rename off``: tmux turns
#: the option off for the first two) is shown as it is; the location replaces only a name that
#: tmux itself keeps renaming after the running command.
WINDOW_STATUS = "#I:#{?window_state_emoji,#{window_state_emoji} ,}" \
    "#{?automatic-rename," + LOCATION + ",#W}#{?window_flags,#{window_flags}, }"

DEFAULTS = {
    "window-status-format": WINDOW_STATUS,
    "window-status-current-format": WINDOW_STATUS,
}


def apply(window_options: Any, untouched: dict[int, dict[str, Any]] | None = None) -> list[str]:
    """Replace the defaults still holding tmux's value that no configuration file set (see
    ``plugin.manager.start``); the names replaced."""
    from .plugin.selection import untouched_since

    done = []
    for name, value in DEFAULTS.items():
        if window_options.get(name) == TMUX_WINDOW_STATUS \
                and untouched_since(window_options, name, untouched):
            window_options.set(name, value)
            done.append(name)
    return done
