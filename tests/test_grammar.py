"""Unit tests for hmux_core.commands.grammar (templates, Args, lookup, escaping, table)."""

import pytest

from hmux_core.commands.grammar import (
    ARG_COMMANDS,
    ARG_COMMANDS_OR_STRING,
    FLAG_READ_ONLY,
    FLAG_START_SERVER,
    TMUX_COMMAND_ARG_TYPES,
    TMUX_COMMAND_FLAGS,
    TMUX_COMMAND_TARGETS,
    TMUX_COMMAND_TEMPLATES,
    Args,
    Command,
    CommandEntry,
    CommandError,
    CommandList,
    TargetSpec,
    UsageError,
    args_escape,
    format_command_error,
    lookup_command,
    parse_args,
    parse_command,
    string_percentage,
    stringify_argv,
    strtonum,
    template_replace,
    tmux_command_table,
)

TABLE = tmux_command_table()
NEW_SESSION = "Ac:dDe:EF:f:n:Ps:t:x:Xy:"


def entry(name: str) -> CommandEntry:
    return lookup_command(name, TABLE)


# -- parse_args -------------------------------------------------------------------------------


def test_clustered_flags_and_counts():
    a = parse_args("dPv", ["-dP", "-vvv"], 0, 0)
    assert a.has("d") and a.has("P") and not a.has("x")
    assert a.count("v") == 3 and a.count("d") == 1 and a.count("x") == 0
    assert a.argv == []


def test_attached_and_separate_values():
    a = parse_args(NEW_SESSION, ["-F#{session_name}", "-t=name", "-s", "foo", "-dn", "win"], 0, -1)
    assert a.get("F") == "#{session_name}"
    assert a.get("t") == "=name"
    assert a.get("s") == "foo"
    assert a.has("d") and a.get("n") == "win"


def test_value_taking_flag_ends_cluster():
    a = parse_args("ab:c", ["-abc"], 0, 0)
    assert a.has("a") and a.get("b") == "c" and not a.has("c")


def test_repeated_flag_values_in_order():
    a = parse_args("e:t:", ["-e", "A=1", "-eB=2", "-t", "x", "-t", "y"], 0, 0)
    assert a.values("e") == ["A=1", "B=2"]
    assert a.get("t") == "y" and a.values("t") == ["x", "y"]
    assert a.count("e") == 2
    assert a.values("z") == [] and a.get("z") is None


def test_double_dash_and_lone_dash():
    a = parse_args("p", ["-p", "--", "-x", "y"], 0, -1)
    assert a.has("p") and a.argv == ["-x", "y"]
    a = parse_args("p", ["-", "-p"], 0, -1)
    assert not a.has("p") and a.argv == ["-", "-p"]
    a = parse_args("p", ["--"], 0, 0)
    assert a.argv == []


def test_flags_stop_at_first_positional():
    a = parse_args("d", ["x", "-d"], 0, -1)
    assert not a.has("d") and a.argv == ["x", "-d"]


def test_missing_value_at_end_is_an_error():
    # tmux 3.7b: "has-session -t" says the flag needs a value
    with pytest.raises(CommandError) as e:
        parse_args("t:", ["-t"], 0, 0)
    assert e.value.message == "-t expects an argument"
    # an optional-value flag (::) never needs one
    a = parse_args("l::", ["-l"], 0, 0)
    assert a.has("l") and a.get("l") is None


@pytest.mark.parametrize(
    "argv, message",
    [
        (["-Q"], "unknown flag -Q"),
        (["-d/"], "invalid flag -/"),
        (["---"], "invalid flag --"),
        (["-dé"], "invalid flag -é"),
        (["a", "b"], "too many arguments (need at most 1)"),
    ],
)
def test_errors(argv, message):
    with pytest.raises(CommandError) as e:
        parse_args("dt:", argv, 0, 1)
    assert e.value.message == message
    assert str(e.value) == message


def test_too_few():
    with pytest.raises(CommandError) as e:
        parse_args("", [], 1, -1)
    assert e.value.message == "too few arguments (need at least 1)"


def test_question_mark_is_usage():
    with pytest.raises(UsageError):
        parse_args("d", ["-d?"], 0, 0)


def test_command_block_arguments():
    block = CommandList()
    with pytest.raises(CommandError) as e:
        parse_args("", [block], 0, 1)
    assert e.value.message == 'argument 1 must be "string"'
    a = parse_args("", ["x", block], 0, 2, lambda args, idx: ARG_COMMANDS_OR_STRING)
    assert a.is_commands(1) and not a.is_commands(0)
    assert a.value(1) is block and a.string(1) == "" and a.argv == ["x", ""]
    with pytest.raises(CommandError) as e:
        parse_args("", ["x"], 0, 2, lambda args, idx: ARG_COMMANDS)
    assert e.value.message == "argument 1 must be { commands }"
    # a block ends flag parsing, and cannot be a flag value
    a = parse_args("d", [block, "-d"], 0, 2, lambda args, idx: ARG_COMMANDS_OR_STRING)
    assert not a.has("d") and a.nargs == 2
    with pytest.raises(CommandError) as e:
        parse_args("t:", ["-t", block], 0, 2)
    assert e.value.message == "-t argument must be a string"


def test_arg_type_callbacks():
    if_shell = entry("if-shell")
    block = CommandList()
    a = if_shell.parse(["-F", "1", block, block])
    assert a.is_commands(1) and a.is_commands(2)
    with pytest.raises(CommandError) as e:
        if_shell.parse([block, "x"])
    assert e.value.message == 'command if-shell: argument 1 must be "string"'
    run = entry("run-shell")
    assert run.parse(["-C", block]).is_commands(0)
    with pytest.raises(CommandError):
        run.parse([block])
    menu = entry("display-menu")
    a = menu.parse(["a", "k", block, "", "b", "l", block])
    assert a.is_commands(2) and a.is_commands(6)
    with pytest.raises(CommandError) as e:
        menu.parse(["a", block])
    assert e.value.message == 'command display-menu: argument 2 must be "string"'
    assert TMUX_COMMAND_ARG_TYPES["set-hook"](Args(), 1) == ARG_COMMANDS_OR_STRING


# -- Args ---------------------------------------------------------------------------------------


def test_args_print_order_and_escaping():
    a = parse_args(NEW_SESSION, ["-s", "my name", "-dP", "-F", "#{x}", "-A", "cmd"], 0, -1)
    assert a.print() == '-APd -F "#{x}" -s "my name" cmd'  # by character code
    assert a.flags() == ["A", "F", "P", "d", "s"]


def test_args_copy_replaces_templates():
    a = parse_args("t:d", ["-d", "-t", "%1", "say %% %2"], 0, -1)
    b = a.copy(["one", "two"])
    assert b.get("t") == "one" and b.argv == ["say one two"] and b.has("d")
    assert a.get("t") == "%1"


def test_args_set_remove_equality():
    a = Args()
    a.set("x")
    a.set("y", "1")
    assert a.count("x") == 1 and a.get("y") == "1"
    b = parse_args("xy:", ["-x", "-y", "1"], 0, 0)
    assert a == b
    a.remove("x")
    assert not a.has("x") and a != b


def test_numbers():
    a = parse_args("x:p:", ["-x", "12", "-p", "50%"], 0, 0)
    assert a.strtonum("x", 0, 100) == 12
    assert a.percentage("p", 0, 1000, 81) == 40
    for value, cause in [
        ("abc", "invalid"),
        ("-5", "too small"),
        ("200", "too large"),
        ("", "invalid"),
    ]:
        with pytest.raises(CommandError) as e:
            strtonum(value, 0, 100)
        assert e.value.message == cause
    with pytest.raises(CommandError) as e:
        a.strtonum("q", 0, 1)
    assert e.value.message == "missing"
    assert strtonum(" +7", 0, 10) == 7
    assert string_percentage("100%", 0, 10, 10) == 10
    with pytest.raises(CommandError):
        string_percentage("101%", 0, 1000, 10)


# -- template_replace and escaping --------------------------------------------------------------


@pytest.mark.parametrize(
    "template, s, idx, expected",
    [
        ("select-window -t %%", "3", 1, "select-window -t 3"),
        ("a %% b %%", "x", 1, "a x b %%"),
        ("a %1 b %1", "x", 1, "a x b x"),
        ("a %2", "x", 1, "a %2"),
        ("rename '%%%'", 'a"b;c', 1, "rename 'a\\\"b\\;c'"),
        ("no percent", "x", 1, "no percent"),
        ("end %", "x", 1, "end %"),
    ],
)
def test_template_replace(template, s, idx, expected):
    assert template_replace(template, s, idx) == expected


@pytest.mark.parametrize(
    "s, expected",
    [
        ("", "''"),
        ("plain", "plain"),
        ("a b", '"a b"'),
        ('a"b', "'a\"b'"),
        ("a'b", '"a\'b"'),
        ("$HOME", '"\\$HOME"'),
        ("a$", '"a$"'),
        ("$", "\\$"),
        (";", "\\;"),
        ("~", "\\~"),
        ("~x", "\\~x"),
        ("~ x", '"\\~ x"'),
        (" ", '" "'),
        ('"', '\\"'),
        ("\033[1m", "\\033[1m"),
        ("a\tb\nc", "a\\tb\\nc"),
        ("a\\b", "a\\\\b"),
        ('x"y z', '"x\\"y z"'),
        ("é", "é"),
        ("#{x}", '"#{x}"'),
        ("\udcff", "\\377"),
        ("\u0085", "\u0085"),  # 3.7b: every valid character passes
    ],
)
def test_args_escape(s, expected):
    assert args_escape(s) == expected


def test_stringify_argv():
    assert stringify_argv(["set", "-g", "@v", "a b"]) == 'set -g @v "a b"'
    assert stringify_argv([]) == ""


# -- lookup and parse_command -------------------------------------------------------------------


def test_lookup_rules():
    assert entry("new-session").name == "new-session"
    assert entry("new").name == "new-session"  # alias
    assert entry("set").name == "set-option"  # alias beats earlier prefix matches
    assert entry("list-k").name == "list-keys"  # unique prefix
    assert entry("kill-ses").name == "kill-session"
    with pytest.raises(CommandError) as e:
        entry("foo")
    assert e.value.message == "unknown command: foo"
    with pytest.raises(CommandError) as e:
        entry("li")
    assert e.value.message == (
        "ambiguous command: li, could be: link-window, list-buffers, list-clients, "
        "list-commands, list-keys, list-panes, list-sessions, list-windows"
    )


def test_parse_command_prefixes():
    cmd = parse_command(["neww", "-d", "-n", "x"], TABLE, "/f", 3)
    assert isinstance(cmd, Command) and cmd.name == "new-window"
    assert cmd.file == "/f" and cmd.line == 3 and cmd.print() == "new-window -d -n x"
    cases = [
        (["new-session", "-Q"], "command new-session: unknown flag -Q"),
        (["has", "-t", "a", "b"], "command has-session: too many arguments (need at most 0)"),
        (["kill-server", "-?"], "usage: kill-server "),
        (["lastp", "-?"], "usage: last-pane [-deZ] [-t target-window]"),
        ([], "no command"),
        ([CommandList()], "no command"),
    ]
    for values, message in cases:
        with pytest.raises(CommandError) as e:
            parse_command(values, TABLE)
        assert e.value.message == message
    assert format_command_error("x", "y") == "command x: y"


def test_command_list_print_and_groups():
    c1 = parse_command(["set", "@v", "a b"], TABLE)
    c2 = parse_command(["set", "@w", "2"], TABLE)
    c3 = parse_command(["display", "-p", "x"], TABLE)
    one = CommandList([c1, c2])
    other = CommandList([c3])
    whole = CommandList()
    whole.move(one)
    whole.move(other)
    assert whole.print() == 'set-option @v "a b" ; set-option @w 2 ;; display-message -p x'
    assert whole.print(escaped=True) == (
        'set-option @v "a b" \\; set-option @w 2 \\;\\; display-message -p x'
    )
    copy = whole.copy()
    assert copy.print() == whole.print() and copy.commands[0] is not c1
    assert len(whole) == 3 and whole.first() is c1
    assert not whole.any_have(FLAG_START_SERVER)
    assert CommandList([parse_command(["new"], TABLE)]).all_have(FLAG_START_SERVER)


def test_block_argument_prints_in_braces():
    inner = CommandList([parse_command(["set", "@v", "1"], TABLE)])
    cmd = parse_command(["bind", "x", inner], TABLE)
    assert cmd.print() == "bind-key x { set-option @v 1 }"
    assert cmd.args.argv == ["x", "set-option @v 1"]


# -- the table ----------------------------------------------------------------------------------


def test_table_is_complete_and_consistent():
    names = [t.name for t in TMUX_COMMAND_TEMPLATES]
    assert len(names) == 91 and len(set(names)) == 91
    # tmux's table order (nearly alphabetical: display-popup comes before display-panes)
    assert names.index("display-popup") == names.index("display-panes") - 1
    aliases = [t.alias for t in TMUX_COMMAND_TEMPLATES if t.alias]
    assert len(aliases) == len(set(aliases))
    for t in TMUX_COMMAND_TEMPLATES:
        name, alias, template, lower, upper, usage = t
        assert all(c.isalnum() or c == ":" for c in template), name
        assert upper == -1 or upper >= lower
    assert set(TMUX_COMMAND_FLAGS) <= set(names)
    assert set(TMUX_COMMAND_TARGETS) <= set(names)
    assert FLAG_READ_ONLY in TMUX_COMMAND_FLAGS["attach-session"]
    assert TMUX_COMMAND_TARGETS["swap-pane"] == (
        TargetSpec("s", "pane", frozenset({"default-marked"})),
        TargetSpec("t", "pane"),
    )
    ns = entry("new-session")
    assert ns.template == NEW_SESSION and ns.lower == 0 and ns.upper == -1
    assert ns.target == TargetSpec("t", "session", frozenset({"canfail"}))
    assert ns.list_line().startswith("new-session (new) [-AdDEPX]")


def test_exec_map():
    def f(*a):
        return None

    table = tmux_command_table({"kill-server": f})
    assert lookup_command("kill-server", table).exec is f
    assert lookup_command("new", table).exec is None
