"""Unit tests for hmux_core.commands.cmdparse (tmux 3.3a command syntax)."""

import os
import pwd

import pytest

from hmux_core.commands.cmdparse import (
    DEFAULT_COMMAND_ALIASES,
    CmdParseError,
    CommandBlock,
    ParsedCommand,
    alias_lookup,
    build_commands,
    commands_from_argv,
    commands_from_buffer,
    commands_from_string,
    format_true,
    parse_argv,
    parse_string,
    print_commands,
    print_parsed,
)
from hmux_core.commands.grammar import CommandList, tmux_command_table

TABLE = tmux_command_table()
HOME = "/home/tester"


def words(text, env=None, **kw):
    """argv of each parsed command (blocks shown as nested lists)."""
    env = {"HOME": HOME} if env is None else env

    def conv(argv):
        return [conv_block(a) if isinstance(a, CommandBlock) else a for a in argv]

    def conv_block(b):
        return [conv(c.argv) for c in b.commands]

    return [conv(c.argv) for c in parse_string(text, environ=env, **kw)]


def err(text, env=None, **kw):
    with pytest.raises(CmdParseError) as e:
        parse_string(text, environ={"HOME": HOME} if env is None else env, **kw)
    return e.value.message


# -- words, quoting, escapes ---------------------------------------------------------------------


def test_simple_and_separators():
    assert words("a b  c\n") == [["a", "b", "c"]]
    assert words("a ; b\nc") == [["a"], ["b"], ["c"]]
    assert words("a;b;;c;") == [["a"], ["b"], ["c"]]
    assert words("a\tb") == [["a", "b"]]
    assert words("") == [] and words("\n\n  \n") == []


def test_escaped_semicolon_is_a_word():
    assert words("bind x a \\; b") == [["bind", "x", "a", ";", "b"]]


def test_comments():
    assert words("# only\na # trailing\nb#notcomment") == [["a"], ["b#notcomment"]]
    assert words("a '#x' \"#y\"") == [["a", "#x", "#y"]]
    assert words("set x #{foo}") == [["set", "x"]]  # #{ not after %if is a comment


def test_quotes():
    assert words("a 'b c' \"d e\" f'g'h \"\"") == [["a", "b c", "d e", "fgh", ""]]
    assert words("a 'it''s'") == [["a", "its"]]
    assert words("a \"x'y\" 'x\"y'") == [["a", "x'y", 'x"y']]
    assert words("a 'no $HOME ~ \\n'") == [["a", "no $HOME ~ \\n"]]


def test_unterminated_quote_just_ends():
    assert words('set @v "abc') == [["set", "@v", "abc"]]


@pytest.mark.parametrize(
    "src, value",
    [
        ('"\\n\\t\\r\\a\\b\\f\\v\\s"', "\n\t\r\a\b\f\v "),
        ('"\\e[1m"', "\033[1m"),
        ('"\\\\ \\" \\$ \\;"', '\\ " $ ;'),
        ('"\\101\\060"', "A0"),
        ('"\\303\\251"', "é"),
        ('"\\u00e9\\U0001F600"', "é\U0001f600"),
        ("\\$HOME", "$HOME"),
        ('"a\\qb"', "aqb"),
        ('"x\\u0000y"', "x"),  # tmux strings stop at NUL
    ],
)
def test_escapes(src, value):
    assert words("set @v " + src) == [["set", "@v", value]]


@pytest.mark.parametrize(
    "src, message",
    [
        ('"\\5"', "invalid octal escape"),
        ('"\\08"', "invalid octal escape"),
        ('"\\uzz12"', "invalid \\u argument"),
        ('"\\Ud800"', "invalid \\U argument"),
        ('"\\ud800"', "invalid \\u argument"),
        ('"\\U00110000"', "invalid \\U argument"),
        ("${A-}", "invalid environment variable"),
        ("${" + "A" * 1023 + "}", "environment variable is too long"),
        ("~" + "u" * 1023, "user name is too long"),
    ],
)
def test_escape_errors(src, message):
    assert err("set @v " + src) == message
    assert err("set @v " + src, file="/c.conf") == f"/c.conf:1: {message}"


def test_syntax_error_cases():
    for text in [
        "set @v \\",
        'set @v "\\u12',
        "set @v abc$",
        "}",
        "a }",
        ";",
        "{ a }",
        "a {",
        "%foo",
        "set @v %x",
        "set @v %if",
        "%else",
        "%endif",
        "%if 1",
        "A=1 B=2",
        "%hidden x",
        "%hidden A=1 b",
        "set @v ~nosuchuser_hmux",
    ]:
        assert err(text) == "syntax error", text


def test_percent_words():
    assert words("send %1 %% %12%") == [["send", "%1", "%%", "%12%"]]


# -- line continuation and line numbers -----------------------------------------------------------


def test_continuation():
    assert words("a \\\n b\nc") == [["a", "b"], ["c"]]
    assert words('a "x\\\ny"') == [["a", "xy"]]
    assert words("a 'x\\\ny'") == [["a", "xy"]]
    assert words("a \\\\\nb") == [["a", "\\"], ["b"]]  # escaped backslash, no continuation
    assert words("a # c \\\nb\nd") == [["a"], ["d"]]  # comments continue too


def test_line_numbers():
    cmds = parse_string("a\n\n b \\\n c\n# x\nd # e\nf\n", environ={})
    assert [(c.argv[0], c.line) for c in cmds] == [("a", 1), ("b", 4), ("d", 7), ("f", 7)]
    # a trailing comment's newline bumps the line before the command is finished (tmux)
    assert err("\n\nfoo %x", file="/f") == "/f:3: syntax error"
    assert err("bind x {\n  a\n", file="/f") == "/f:3: syntax error"


def test_newlines_inside_quotes():
    assert words('a "x\n   y"') == [["a", "x\ny"]]
    assert words('a "x\n  # comment\n  y"') == [["a", "x\n\ny"]]
    assert words('a "x\n  #{fmt}"') == [["a", "x\n#{fmt}"]]
    cmds = parse_string('a "x\ny"\nb', environ={})
    # tmux 3.5 counts the newlines inside quotes: a command has the line it ends on.
    assert [c.line for c in cmds] == [2, 3]
    cmds = parse_string('a 1\r\nb "2"\r\nc', environ={})
    assert [c.line for c in cmds] == [1, 2, 3]  # CRLF is a newline outside quotes
    assert words('a x\r\nb "y\r"\r\n') == [["a", "x"], ["b", "y\r"]]


# -- expansion -------------------------------------------------------------------------------------


def test_variables():
    env = {"HOME": HOME, "X": "ex", "Y_1": "why"}
    assert words("a $X ${X}y \"$X\" '$X' $Y_1 $NOPE. $ x$\n", env) == [
        ["a", "ex", "exy", "ex", "$X", "why", ".", "$", "x$"]
    ]
    assert words("a $1 $-", env) == [["a", "$1", "$-"]]


def test_process_environment_is_default(monkeypatch):
    monkeypatch.setenv("HMUX_TEST_VAR", "from-process")
    assert [c.argv for c in parse_string("a $HMUX_TEST_VAR")] == [["a", "from-process"]]


def test_tilde():
    root = pwd.getpwnam("root").pw_dir
    assert words("a ~ ~/x \"~/y\" x~ ~root ~root/z '~'") == [
        ["a", HOME, HOME + "/x", HOME + "/y", "x~", root, root + "/z", "~"]
    ]
    assert words("a 'q'~") == [["a", "q" + HOME]]  # tmux quirk after a closing quote
    own = pwd.getpwuid(os.getuid()).pw_dir
    assert words("a ~", env={}) == [["a", own]]


# -- assignments -----------------------------------------------------------------------------------


def test_assignments():
    env = {}
    seen = []
    res = parse_string(
        'A=1\nB=2 set @v $A$B\n%hidden H=x\nC="a b"\n',
        environ=env,
        on_assign=lambda *a: seen.append(a),
    )
    assert [c.argv for c in res] == [["set", "@v", "12"]]
    assert env == {"A": "1", "B": "2", "H": "x", "C": "a b"}
    assert [(a.name, a.value, a.hidden) for a in res.assignments] == [
        ("A", "1", False),
        ("B", "2", False),
        ("H", "x", True),
        ("C", "a b", False),
    ]
    assert seen[2] == ("H", "x", True)


def test_assignment_only_as_first_word():
    assert words("set A=1") == [["set", "A=1"]]
    assert words("'A=1'") == []  # quoting does not stop an assignment
    assert words("1A=2") == [["1A=2"]]


def test_parse_only_does_not_assign():
    env = {}
    res = parse_string("A=1\n%hidden B=2", environ=env, parse_only=True)
    assert env == {} and res.assignments == []


def test_assignment_after_command_drops_list():
    # tmux quirk: "commands ; assignment" replaces the whole list with an empty one
    assert words("a ; A=1") == []
    assert words("a ; A=1 b") == [["a"], ["b"]]


def test_assignment_survives_later_error():
    env = {}
    with pytest.raises(CmdParseError):
        parse_string("A=1\n}", environ=env)
    assert env == {"A": "1"}


# -- blocks ----------------------------------------------------------------------------------------


def test_blocks():
    assert words("bind x { a ; b }") == [["bind", "x", [["a"], ["b"]]]]
    assert words("bind x {\n a\n b c\n}\nd") == [["bind", "x", [["a"], ["b", "c"]]], ["d"]]
    assert words("if 1 { a } { b { c } }") == [["if", "1", [["a"]], [["b", [["c"]]]]]]
    assert words("x {}") == [["x", []]]


def test_block_brace_rules():
    assert words("x a{b") == [["x", "a{b"]]
    assert err("x a}") == "syntax error"
    cmds = parse_string("bind x {\n a\n b\n}\n", environ={})
    assert cmds[0].line == 4
    assert [c.line for c in cmds[0].argv[2].commands] == [2, 3]


# -- conditions ------------------------------------------------------------------------------------


def fe(s):
    return {"#{yes}": "1", "#{no}": "0", "#{empty}": ""}.get(s, s)


def cond(text, env=None):
    return words(text, env, format_expand=fe)


def test_if_multiline():
    assert cond("%if 1\na\n%endif") == [["a"]]
    assert cond("%if 0\na\n%endif") == []
    assert cond("%if #{yes}\na\n%else\nb\n%endif") == [["a"]]
    assert cond("%if #{no}\na\n%else\nb\n%endif") == [["b"]]
    assert cond("%if #{empty}\na\n%elif #{no}\nb\n%elif 1\nc\n%else\nd\n%endif") == [["c"]]
    assert cond('%if "#{no}"\na\n%elif "x"\nb\n%elif 1\nc\n%endif') == [["b"]]


def test_if_inline():
    assert cond("%if 1 a %endif") == [["a"]]
    assert cond("%if 0 a %else b ; c %endif") == [["b"], ["c"]]
    assert cond("%if 0 a %elif 1 b %endif ; d") == [["b"], ["d"]]
    assert cond("x ; %if 1 y %endif") == [["x"], ["y"]]


def test_if_nested_and_assignments():
    env = {}
    assert cond("%if 0\n%if 1\nA=1\na\n%endif\n%endif", env) == []
    assert env == {}  # tmux 3.7b: every enclosing scope guards assignments
    env = {}
    assert cond("%if 1\n%if 0\nB=1\n%else\nC=1\nc\n%endif\n%endif", env) == [["c"]]
    assert env == {"C": "1"}


def test_if_format_token():
    seen = []

    def rec(s):
        seen.append(s)
        return "1"

    parse_string("%if #{==:#{a},#{b}}\nx\n%endif\n", environ={}, format_expand=rec)
    assert seen == ["#{==:#{a},#{b}}"]


@pytest.mark.parametrize(
    "text",
    [
        "%if 1\n%endif",  # statements need at least one line
        "%if 1\na\n%else b\n%endif",
        "%if 1 a\n%endif",
        "%if 1\na\n%endif ; b",
        "%if 1\na\n%else\nb\n%elif 1\nc\n%endif",
        "%if #{a\n",
        "%if A=1\na\n%endif",
        "a ; %if 1\nb\n%endif",
    ],
)
def test_if_errors(text):
    assert err(text, format_expand=fe) == "syntax error"


def test_format_true():
    assert format_true("1") and format_true("x") and format_true("00")
    assert not format_true("0") and not format_true("") and not format_true(None)


# -- argv splitting --------------------------------------------------------------------------------


def test_parse_argv():
    assert parse_argv(["new", "-d", ";", "set", "@v", "x"]) == [["new", "-d"], ["set", "@v", "x"]]
    assert parse_argv(["a", "b;", "c"]) == [["a", "b"], ["c"]]
    assert parse_argv(["a", "b\\;", "c"]) == [["a", "b;", "c"]]
    assert parse_argv(["a", "\\;"]) == [["a", ";"]]
    assert parse_argv([";", ";", "a", ""]) == [["a", ""]]
    block = CommandList()
    assert parse_argv(["bind", "x", block]) == [["bind", "x", block]]


# -- building --------------------------------------------------------------------------------------


def test_build_and_errors():
    cl = commands_from_buffer("new -d\nset -g @v 1 ; set @w 2\n", TABLE, environ={})
    assert [c.name for c in cl] == ["new-session", "set-option", "set-option"]
    assert [c.line for c in cl] == [1, 2, 2]
    assert cl.commands[1].group == cl.commands[2].group != cl.commands[0].group
    assert cl.print() == "new-session -d ;; set-option -g @v 1 ; set-option @w 2"
    one = commands_from_string("new -d\nset @w 2", TABLE, environ={})
    assert one.print() == "new-session -d ; set-option @w 2"
    for text, message in [
        ("\nfoo", "/f.conf:2: unknown command: foo"),
        (
            "s",
            "/f.conf:1: ambiguous command: s, could be: "
            + ", ".join(e.name for e in TABLE if e.name.startswith("s")),
        ),
        ("new -Q", "/f.conf:1: command new-session: unknown flag -Q"),
        ("has -t a b", "/f.conf:1: command has-session: too many arguments (need at most 0)"),
        ("kill-server -?", "/f.conf:1: usage: kill-server "),
        ("bind x {\n nope\n}", "/f.conf:2: unknown command: nope"),
    ]:
        with pytest.raises(CmdParseError) as e:
            commands_from_buffer(text, TABLE, file="/f.conf", environ={})
        assert e.value.message == message
    with pytest.raises(CmdParseError) as e:
        commands_from_string("nope", TABLE, environ={})
    assert e.value.message == "unknown command: nope" and e.value.bare == e.value.message


def test_build_block_values():
    cl = commands_from_string("bind x { set @v 1 ; set @w 2 }", TABLE, environ={})
    bind = cl.first()
    assert bind.args.is_commands(1)
    inner = bind.args.value(1)
    assert [c.name for c in inner] == ["set-option", "set-option"]
    assert print_commands(cl) == "bind-key x { set-option @v 1 ; set-option @w 2 }"
    with pytest.raises(CmdParseError) as e:
        commands_from_string("set @v { nope }", TABLE, environ={})
    assert e.value.message == "unknown command: nope"
    with pytest.raises(CmdParseError) as e:
        commands_from_string("display { display x }", TABLE, environ={})
    assert e.value.message == 'command display-message: argument 1 must be "string"'


def test_build_from_argv():
    cl = commands_from_argv(["set", "-g", "@v", "a;", "display", "-p", "x"], TABLE)
    assert cl.print() == "set-option -g @v a ; display-message -p x"
    assert cl.all_have("after-hook")
    inner = commands_from_string("set @v 1", TABLE, environ={})
    cl = commands_from_argv(["bind", "x", inner], TABLE)
    assert cl.print(escaped=True) == "bind-key x { set-option @v 1 }"
    with pytest.raises(CmdParseError) as e:
        commands_from_argv(["new", "-Q"], TABLE)
    assert e.value.message == "command new-session: unknown flag -Q"


def test_aliases():
    aliases = alias_lookup(DEFAULT_COMMAND_ALIASES + ("two=set @v 1 ; set @w",))
    cl = commands_from_string("splitp -h ; info", TABLE, aliases=aliases, environ={})
    assert cl.print() == "split-window -h ; show-messages -JT"
    cl = commands_from_string("two 2", TABLE, aliases=aliases, environ={})
    assert cl.print() == "set-option @v 1 ; set-option @w 2"
    assert aliases("nope") is None
    empty = alias_lookup(["gone="])
    assert len(commands_from_string("gone x", TABLE, aliases=empty, environ={})) == 0


def test_build_commands_and_verbose():
    parsed = parse_string("set @v 1\nset @w 2", environ={})
    out = []
    cl = build_commands(parsed, TABLE, file="/v.conf", verbose=out.append)
    assert len(cl) == 2
    assert out == ["/v.conf:1: set-option @v 1", "/v.conf:2: set-option @w 2"]


def test_copy_with_templates():
    cl = commands_from_string("rename-window '%%' ; display -p '%1 %2'", TABLE, environ={})
    cp = cl.copy(["a b", "c"])
    assert cp.print() == 'rename-window "a b" ; display-message -p "a b c"'
    assert cl.print() == 'rename-window "%%" ; display-message -p "%1 %2"'


def test_print_parsed():
    p = parse_string("bind x { set @v 'a b' ; set @w '' }", environ={})
    assert print_parsed(p) == "bind x { set @v \"a b\" ; set @w '' }"
    assert isinstance(p[0], ParsedCommand) and p[0].name == "bind"


def test_stdio_mode_same_for_plain_text():
    text = 'set @v "a\\\\b $X"\n'
    assert words(text, {"X": "1"}, stdio=True) == words(text, {"X": "1"})


def test_speed_of_a_large_config():
    text = "".join(
        f"bind -T t k{i} set -g @v{i} 'value {i}' ; display -p \"#{{x}}\"\n" for i in range(2000)
    )
    cl = commands_from_buffer(text, TABLE, environ={})
    assert len(cl) == 4000


# -- round trip: what args_escape prints, the parser reads back ------------------------------------

from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from hmux_core.commands.grammar import args_escape  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")))
def test_escape_round_trip(s):
    escaped = args_escape(s)
    # tmux's own quirk: escapes inside single quotes ('"\037') do not read back
    assume(not (escaped.startswith("'") and "\\" in escaped))
    parsed = parse_string("x " + escaped, environ={"HOME": HOME})
    assert [c.argv for c in parsed] == [["x", s]]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="ab $;{}'\"#~%", max_size=6), min_size=1, max_size=4))
def test_printed_commands_parse_back(argv):
    assume(not any(a.endswith(";") for a in argv))  # those split the argv into commands
    cl = commands_from_argv(["send-keys", "--", *argv], TABLE)
    again = commands_from_string(cl.print(), TABLE, environ={"HOME": HOME})
    assert again.print() == cl.print()
    assert again.first().args.argv == cl.first().args.argv
