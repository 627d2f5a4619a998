"""The client's light copies of the command table must not drift from the grammar's."""

from hmux_core.client import START_SERVER_COMMANDS
from hmux_core.commands.grammar import TMUX_COMMAND_FLAGS, TMUX_COMMAND_TEMPLATES
from hmux_core.commands.names import COMMANDS


def test_names_match_grammar_table():
    assert list(COMMANDS) == [(t.name, t.alias or "") for t in TMUX_COMMAND_TEMPLATES]


def test_start_server_commands_match_grammar_flags():
    expected = {t.name for t in TMUX_COMMAND_TEMPLATES
                if "start-server" in TMUX_COMMAND_FLAGS.get(t.name, ())}
    assert START_SERVER_COMMANDS == expected
