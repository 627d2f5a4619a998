"""tmux's commands, one module per family; ``load_all`` registers them in the table."""


def load_all() -> None:
    from . import clients, keys_cmds, misc, options_cmds, panes, sessions, windows  # noqa: F401
