"""Oracle tests: command templates and argument errors against the tmux oracle (3.7b).

Every command of TMUX_COMMAND_TEMPLATES is given argument vectors that fail to parse
(so nothing runs); tmux's stderr must equal hmux's message for the same argv.
"""

import os
import subprocess
import time

import pytest
from oracle import ORACLE as TMUX  # noqa: E402

from hmux_core.commands.cmdparse import CmdParseError, commands_from_argv
from hmux_core.commands.grammar import TMUX_COMMAND_TEMPLATES, tmux_command_table

TABLE = tmux_command_table()


class Tmux:
    def __init__(self, tmpdir):
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
        self.env["TMUX_TMPDIR"] = str(tmpdir)
        self.cmd = [TMUX, "-L", "hmuxgrammar", "-f", "/dev/null"]
        self.dir = tmpdir

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            self.cmd + list(args),
            env=self.env,
            capture_output=True,
            text=True,
            timeout=20,
            cwd=self.dir,
            stdin=subprocess.DEVNULL,
        )

    def start(self) -> None:
        self.run("new-session", "-d", "-s", "base", "-x", "80", "-y", "24")
        deadline = time.monotonic() + 10
        while self.run("has-session", "-t", "base").returncode != 0:
            assert time.monotonic() < deadline, "tmux server did not start"
            time.sleep(0.02)


@pytest.fixture(scope="module")
def tmux(tmp_path_factory):
    t = Tmux(tmp_path_factory.mktemp("grammar"))
    t.start()
    yield t
    t.run("kill-server")


def mine(argv: list[str]) -> str:
    try:
        commands_from_argv(argv, TABLE)
    except CmdParseError as e:
        return e.message
    return "<parsed>"


def unused_flag(template: str) -> str:
    return next(c for c in "QWjYKgmIoJk0" if c not in template)


def failing_argvs(t):
    """Argument vectors that each fail to parse for one command (so nothing is executed)."""
    name = t.alias or t.name
    out = [
        [t.name, "-" + unused_flag(t.template)],
        [name, "-?"],
    ]
    if t.upper != -1:
        out.append([name] + ["x"] * (t.upper + 1))
    if t.lower > 0:
        out.append([t.name])
    plain = [c for i, c in enumerate(t.template) if c != ":" and t.template[i + 1 : i + 2] != ":"]
    if plain:
        out.append([name, f"-{plain[0]}/"])
    return out


CASES = [argv for t in TMUX_COMMAND_TEMPLATES for argv in failing_argvs(t)]


def test_enough_cases():
    assert len(CASES) > 300
    assert len({c[0] for c in CASES}) >= 90


def test_argument_errors_match_tmux(tmux):
    mismatches = []
    for argv in CASES:
        r = tmux.run(*argv)
        assert r.returncode == 1, argv
        theirs = r.stderr.rstrip("\n")
        ours = mine(argv)
        if ours != theirs:
            mismatches.append((argv, ours, theirs))
    assert mismatches == []


@pytest.mark.parametrize(
    "argv",
    [
        ["foo"],
        ["s"],
        ["li"],
        ["ne"],
        ["sh"],
        ["kill-s"],
        ["show-o", "-Q"],
        ["list-k", "-Q"],
        ["has", "-t", "a", "b"],
        ["new-session", "-d", "-Q"],
        ["display", "-p", "--", "-x", "y", "z"],
        ["set", "-g", "@v", "1", ";", "foo"],
        ["set", "-g"],
        ["bind", "-n"],
        ["if", "-b", "a"],
        ["lastp", "-Z", "-?"],
        ["wait-for", "-LS"],
        ["refresh-client", "-l", "a", "b", "c"],  # -l:: still takes the next word
        ["server-access", "-t", "x"],
    ],
    ids=lambda a: " ".join(a),
)
def test_lookup_and_misc_errors_match_tmux(tmux, argv):
    r = tmux.run(*argv)
    assert r.returncode == 1
    assert mine(argv) == r.stderr.rstrip("\n")


def test_list_commands_matches_table(tmux):
    lines = tmux.run("list-commands").stdout.splitlines()
    assert lines == [e.list_line() for e in TABLE]


def test_flag_without_value_at_end_is_an_error(tmux):
    # tmux 3.7b: a value-taking flag at the end of the command has no value to take
    r = tmux.run("has-session", "-t")
    assert r.returncode == 1
    assert r.stderr == "command has-session: -t expects an argument\n"
    assert mine(["has-session", "-t"]) == r.stderr.rstrip("\n")
