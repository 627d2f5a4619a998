"""tmux's commands, one module per family; ``load_all`` registers them in the table."""


def load_all() -> None:
    from . import (  # noqa: F401
        access,
        buffers_cmds,
        clients,
        environment_cmds,
        hooks_cmds,
        keys_cmds,
        layout_cmds,
        misc,
        mode_cmds,
        moves,
        options_cmds,
        overlay_cmds,
        panes,
        prompt_cmds,
        respawn,
        sessions,
        shell_cmds,
        tree_cmds,
        windows,
    )
