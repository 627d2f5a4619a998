"""The client's light copies of the command table must not drift from the grammar's."""

from hmux_core.client import START_SERVER_COMMANDS
from hmux_core.commands.grammar import TMUX_COMMAND_FLAGS, TMUX_COMMAND_TEMPLATES
from hmux_core.commands.names import COMMANDS
from hmux_core.commands.registry import MODULES


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


def test_the_table_names_each_commands_module():
    """registry.MODULES says which module registers each command (the table imports it on
    the command's first run): the same as the modules' own registrations, in a fresh
    interpreter so no earlier import hides a wrong entry."""
    import subprocess
    import sys

    code = """if True:
        import ast, json, pathlib
        from hmux_core.commands import registry
        found = {}
        for path in sorted(pathlib.Path(registry.__file__).parent.glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "command"
                        and node.args and isinstance(node.args[0], ast.Constant)):
                    found.setdefault(path.stem, []).append(node.args[0].value)
        print(json.dumps([found, {m: list(n) for m, n in registry.MODULES.items()}]))
    """
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    import json

    found, table = json.loads(p.stdout)
    assert found == table


def test_a_command_imports_its_own_module_only(tmp_path):
    """The first run of a command imports its family's module and no other (a cold start's
    first command is about 20 ms faster)."""
    import subprocess
    import sys

    code = """if True:
        import sys
        from hmux_core.commands import registry
        rows = {r.name: r for r in registry.table()}
        before = {m for m in sys.modules if m.startswith("hmux_core.commands.")}
        spec = rows["list-commands"].extra["spec"]
        class Item:
            name = "list-commands"
            def error(self, text):
                raise SystemExit(text)
        try:
            spec.exec(Item())
        except Exception:
            pass  # the fake item is not enough to run it: only the import matters here
        after = {m for m in sys.modules if m.startswith("hmux_core.commands.")}
        families = {"hmux_core.commands." + m for m in registry.MODULES}
        print(sorted((after - before) & families), len(families - after))
        print(rows["list-commands"].extra["spec"].exec.__name__)
    """
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    imported, fn = p.stdout.splitlines()
    assert imported == f"['hmux_core.commands.misc'] {len(MODULES) - 1}"
    assert fn == "cmd_list_commands"
