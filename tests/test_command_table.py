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


def test_a_command_to_a_running_server_imports_little(hmux):
    """The client path of an ordinary command (the server already up) imports no module a
    short command cannot afford: each of these costs a measurable part of its wall time
    (docs/performance.md, `hmux list-sessions`). Run without ``site`` so that only the
    client's own imports show."""
    import os
    import subprocess
    import sys

    hmux.ok("new-session", "-d")
    code = ("import sys; from hmux_core.cli import main; "
            f"sys.argv = ['hmux', *{[*hmux.socket_args, 'list-sessions']!r}]; sys.exit(main())")
    checkout = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(hmux.env, PYTHONPATH=checkout)
    p = subprocess.run([sys.executable, "-S", "-X", "importtime", "-c", code], env=env,
                       capture_output=True, text=True, cwd=hmux.cwd, timeout=30)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("0: 1 windows")
    imported = {line.rsplit("|", 1)[1].strip() for line in p.stderr.splitlines()
                if line.startswith("import time:") and "|" in line}
    assert "hmux_core.client" in imported
    heavy = {"re", "enum", "collections", "array", "typing", "trio", "click",
             "hmux_core.commands.names", "fcntl", "subprocess", "termios"}
    assert not imported & heavy, sorted(imported & heavy)
