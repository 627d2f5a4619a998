"""Oracle tests: the command parser against the tmux oracle (3.7b) (private TMUX_TMPDIR).

Config snippets are sourced by tmux and parsed by hmux; the option values (@v, @w), the
global environment (A, B, C) and the error texts must agree. Key bindings compare how
command lists print (list-keys). Command-line ``;`` splitting compares too.
"""

import os
import re
import subprocess
import time

import pytest
from oracle import ORACLE as TMUX  # noqa: E402

from hmux_core.commands.cmdparse import (
    CmdParseError,
    commands_from_argv,
    commands_from_buffer,
    commands_from_string,
)
from hmux_core.commands.grammar import CommandList, tmux_command_table

TABLE = tmux_command_table()
UNSET = "<unset>"


class Tmux:
    """A private tmux server (own TMUX_TMPDIR and socket name)."""

    def __init__(self, tmpdir):
        self.dir = tmpdir
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
        self.env["TMUX_TMPDIR"] = str(tmpdir)
        self.env["HMUXT_X"] = "ex value"
        self.cmd = [TMUX, "-L", "hmuxoracle", "-f", "/dev/null"]

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            self.cmd + list(args),
            env=self.env,
            capture_output=True,
            text=True,
            timeout=20,
            cwd=self.dir,
        )

    def start(self) -> None:
        self.run("new-session", "-d", "-s", "base", "-x", "80", "-y", "24")
        deadline = time.monotonic() + 10
        while self.run("has-session", "-t", "base").returncode != 0:
            assert time.monotonic() < deadline, "tmux server did not start"
            time.sleep(0.02)
        # the server's global environment: the starting client's, plus PWD
        self.server_env = dict(self.env)
        self.server_env["PWD"] = str(self.dir)

    def stop(self) -> None:
        self.run("kill-server")


@pytest.fixture(scope="module")
def tmux(tmp_path_factory):
    t = Tmux(tmp_path_factory.mktemp("oracle"))
    t.start()
    yield t
    t.stop()


# -- a tiny executor for what the snippets do ------------------------------------------------------


def fake_format(s: str) -> str:
    """Enough of the format language for the %if conditions used here."""
    m = re.fullmatch(r"#\{(==|!=):([^,{}]*),([^,{}]*)\}", s)
    if m:
        same = m.group(2) == m.group(3)
        return "1" if same == (m.group(1) == "==") else "0"
    return s


def run_mine(cmdlist: CommandList, opts: dict, env: dict, hidden: set) -> None:
    for cmd in cmdlist:
        a = cmd.args
        if cmd.name == "set-option":
            assert a.has("g")
            if a.has("u"):
                opts.pop(a.string(0), None)
            else:
                opts[a.string(0)] = a.string(1) or ""
        elif cmd.name == "set-environment":
            name = a.string(0)
            if a.has("u"):
                env.pop(name, None)
            else:
                env[name] = a.string(1)
                if a.has("h"):
                    hidden.add(name)
                else:
                    hidden.discard(name)
        else:
            raise AssertionError(f"snippet uses {cmd.name}")


def tmux_state(t: Tmux):
    out = t.run("display-message", "-p", "#{@v}<|>#{@w}").stdout
    v, w = out[:-1].split("<|>")
    env = {}
    for flag in ("-g", "-gh"):
        for line in t.run("show-environment", flag).stdout.splitlines():
            name, eq, value = line.partition("=")
            if name in ("A", "B", "C") and eq:
                env[name] = (value, flag == "-gh")
    return v, w, env


def mine_state(text: str, path: str, t: Tmux):
    env = dict(t.server_env)
    opts = {"@v": UNSET, "@w": UNSET}
    hidden: set = set()
    error = None

    def on_assign(name, value, is_hidden):
        if is_hidden:
            hidden.add(name)
        else:
            hidden.discard(name)

    try:
        cl = commands_from_buffer(
            text, TABLE, file=path, environ=env, format_expand=fake_format, on_assign=on_assign
        )
        run_mine(cl, opts, env, hidden)
    except CmdParseError as e:
        error = e.message
    envout = {k: (env[k], k in hidden) for k in ("A", "B", "C") if env.get(k) is not None}
    return opts.get("@v", ""), opts.get("@w", ""), envout, error


def source(t: Tmux, text: str, name: str):
    t.run(
        "set",
        "-g",
        "@v",
        UNSET,
        ";",
        "set",
        "-g",
        "@w",
        UNSET,
        ";",
        "setenv",
        "-gu",
        "A",
        ";",
        "setenv",
        "-gu",
        "B",
        ";",
        "setenv",
        "-gu",
        "C",
    )
    path = t.dir / f"{name}.conf"
    path.write_text(text)
    r = t.run("source-file", str(path))
    # source-file reports parse errors through cmdq_print: on stdout, with exit status 1
    assert r.stderr == ""
    error = r.stdout.rstrip("\n") or None
    assert (error is None) == (r.returncode == 0)
    v, w, env = tmux_state(t)
    return (v, w, env, error), str(path)


VALUE_CASES = {
    "plain": "set -g @v hello\n",
    "two_cmds": "set -g @v a ; set -g @w b\n",
    "double_semicolon": "set -g @v 1;;set -g @w 2\n",
    "dquote": 'set -g @v "a b  c"\n',
    "squote": "set -g @v 'a \"b\" $HOME'\n",
    "mixed_quotes": "set -g @v a'b'\"c\"d\n",
    "empty_value": "set -g @v ''\n",
    "escapes_c": 'set -g @v "x\\ty\\\\z\\"q\\$"\n',
    "escape_e": "set -g @v \\e[1m\n",
    "escape_octal": 'set -g @v "\\101\\102\\060"\n',
    "escape_u": 'set -g @v "\\u00e9\\U0001F600"\n',
    "escape_nul": 'set -g @v "ab\\u0000cd"\n',
    "escape_other": 'set -g @v "\\q\\;\\{"\n',
    "unquoted_escapes": "set -g @v a\\ b\\;c\n",
    "unterminated": 'set -g @v "abc',
    "multiline_quote": 'set -g @v "a\n   b"\n',
    "quoted_comment": 'set -g @v "a\n  # gone\n  b"\nset -g @w 1\n',
    "quoted_hash_keep": 'set -g @v "a\n  #{b}"\n',
    "comment_line": "# hello\nset -g @v 1 # trailing\n#set -g @w 2\n",
    "comment_continues": "set -g @v 1 \\\n# comment \\\nset -g @w 2\n",
    "continuation": "set -g \\\n  @v \\\n  joined\n",
    "continuation_in_quotes": 'set -g @v "a\\\nb"\n',
    "many_backslashes": "set -g @v \\\\\\\\x\n",
    "var_env": "set -g @v $HMUXT_X\n",
    "var_braces": 'set -g @v "${HMUXT_X}s"\n',
    "var_missing": "set -g @v x${NOPE_HMUX}y\n",
    "var_dollar_alone": "set -g @v $ ; set -g @w a$.\n",
    "var_single_quoted": "set -g @v '$HMUXT_X'\n",
    "home_tilde": 'set -g @v ~/x ; set -g @w "~"\n',
    "tilde_user": "set -g @v ~root/y\n",
    "tilde_middle": "set -g @v x~ ; set -g @w 'q'~\n",
    "assign": "A=1\nset -g @v $A\n",
    "assign_inline": 'A=5 set -g @v "$A"\n',
    "assign_quoted": "A='x y'\nB=\"$A!\"\nset -g @v $B\n",
    "assign_hidden": '%hidden A=7\nset -g @v "$A"\n',
    "assign_drops_list": "set -g @v 1 ; A=2\n",
    "assign_then_cmd": "set -g @v 1 ; A=2 set -g @w 3\n",
    "setenv": "setenv -g A hello ; setenv -gh B secret\n",
    "if_true": "%if 1\nset -g @v yes\n%endif\n",
    "if_false_else": "%if 0\nset -g @v yes\n%else\nset -g @v no\n%endif\n",
    "if_elif": "%if 0\nset -g @v 1\n%elif 1\nset -g @v 2\n%else\nset -g @v 3\n%endif\n",
    "if_elif_chain": '%if ""\nset -g @v 1\n%elif 0\nset -g @v 2\n%elif x\nset -g @v 3\n%endif\n',
    "if_format": "%if #{==:a,a}\nset -g @v eq\n%endif\n%if #{!=:a,a}\nset -g @w ne\n%endif\n",
    "if_quoted_format": '%if "#{==:a,b}"\nset -g @v yes\n%else\nset -g @v no\n%endif\n',
    "if_inline": "%if 1 set -g @v 1 %endif\n%if 0 set -g @w 1 %else set -g @w 2 %endif\n",
    "if_nested": "%if 0\n%if 1\nA=1\nset -g @v 1\n%endif\n%endif\n",
    "if_assign_false": "%if 0\nA=1\n%endif\n%if 1\nB=2\n%endif\n",
    "if_else_assign": "%if 1\nset -g @v a\n%elif 0\nset -g @w b\n%else\nC=3\n%endif\n",
    "percent_words": "set -g @v %1 ; set -g @w %%\n",
    "block_value": "set -g @v { set -g @w 1 ; set -g @w 2 }\n",
    "block_multiline": "set -g @v {\n  set -g @w 1\n  set -g @w 2\n}\n",
    "crlf_word": "set -g @v a\\\\b\n",
    "equals_arg": "set -g @v A=1\n",
    "braces_in_word": "set -g @v a{b\n",
    "unset_option": "set -g @v 1 ; set -gu @v\n",
}

ERROR_CASES = {
    "err_unknown": "set -g @v 1\nfoo\n",
    "err_unknown_comment": "foo # comment\n",
    "err_ambiguous": "\ns\n",
    "err_flag": "set -Q @v\n",
    "err_too_many": "set -g @v a\\\n  b\n",
    "err_too_few": "set -g\n",
    "err_usage": "kill-server -?\n",
    "err_octal": 'set -g @v "\\5"\n',
    "err_u": 'set -g @v "\\uzz"\n',
    "err_surrogate": 'set -g @v "\\ud800"\n',
    "err_env": "set -g @v ${A-}\n",
    "err_dollar_eof": "set -g @v abc$",
    "err_rbrace": "set -g @v }\n",
    "err_lone_rbrace": "\n\n}\n",
    "err_semicolon": ";\n",
    "err_percent": "A=1\nset -g @v %foo\n",
    "err_else": "%else\n",
    "err_if_eof": "%if 1\nset -g @v 1\n",
    "err_if_empty": "%if 1\n%endif\n",
    "err_two_assign": "A=1 B=2\n",
    "err_block_eof": "set -g @v {\n  set -g @w 1\n",
    "err_block_inner": "set -g @v {\n  nope\n}\n",
    "err_tilde_user": "set -g @v ~nosuchuser_hmux/x\n",
    "err_block_arg": "display -p { display x }\n",
}


@pytest.mark.parametrize("name", sorted(VALUE_CASES))
def test_values_match_tmux(tmux, name):
    text = VALUE_CASES[name]
    theirs, path = source(tmux, text, name)
    mine = mine_state(text, path, tmux)
    assert theirs[3] is None, theirs[3]
    assert mine == theirs


@pytest.mark.parametrize("name", sorted(ERROR_CASES))
def test_errors_match_tmux(tmux, name):
    text = ERROR_CASES[name]
    theirs, path = source(tmux, text, name)
    mine = mine_state(text, path, tmux)
    assert theirs[3] is not None
    assert mine == theirs


# -- printing: list-keys ------------------------------------------------------------------------

BINDINGS = [
    "set @v 'a\"b'",
    "set @v 'a b'",
    'set @v "a\'b"',
    'set @v "a\\$HOME x"',
    'set @v "\\$HOME"',
    "set @v 'a$'",
    "set @v '~x'",
    "set @v '~ x'",
    'set @v "\\e[1m"',
    'set @v "a\\tb\\nc"',
    "set @v ''",
    "set @v '{'",
    "set @v '#{x}'",
    "{ set @v 1 ; set @w 2 }",
    "{\n  set @v 1\n  set @w 2\n}",
    'set @v "é"',
    "set @v '\\'",
    "if -F 1 { set @v 1 } { set @v 2 ; set @w 3 }",
    'set @v "\\001\\0012"',
    "set @v '%'",
    'set @v " "',
    "set @v '\"'",
    'set @v "x\\"y z"',
    "set @v '$'",
    'set @v "\\377"',
    'set @v "a\\\\\\\\b c"',
    '"set @v 1 ; set @w 2"',
    "set @v 1 \\; set @w 2",
    "new-window -d -n 'my win' -e A=1 -e 'B=2 3'",
    "split-window -hdf -l 30% 'top -d 1'",
    "send-keys -t ! C-a Enter",
    "display -p -F '#{pane_id}' ",
    "command-prompt -p 'name:' { rename-window '%%' }",
    "run -C { display x }",
]
KEYS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"


def mine_binding(text: str, env: dict) -> str:
    cl = commands_from_buffer(f"bind -T t K {text}\n", TABLE, environ=env)
    a = cl.first().args
    if a.nargs == 2 and a.is_commands(1):
        bound = a.value(1)
    elif a.nargs == 2:
        bound = commands_from_string(a.string(1), TABLE, environ=env)
    else:
        bound = commands_from_argv(a.arg_values[1:], TABLE)
    return bound.print(escaped=True, no_groups=True)  # list-keys never prints ;;


def test_list_keys_printing_matches_tmux(tmux):
    assert len(BINDINGS) <= len(KEYS)
    tmux.run("unbind-key", "-a", "-T", "t")
    path = tmux.dir / "bind.conf"
    path.write_text("".join(f"bind -T t {KEYS[i]} {b}\n" for i, b in enumerate(BINDINGS)))
    r = tmux.run("source-file", str(path))
    assert r.returncode == 0, r.stderr
    theirs = {}
    for line in tmux.run("list-keys", "-T", "t").stdout.splitlines():
        parts = line.split(None, 4)
        assert parts[:3] == ["bind-key", "-T", "t"]
        theirs[parts[3]] = parts[4] if len(parts) > 4 else ""
    mismatches = []
    for i, b in enumerate(BINDINGS):
        mine = mine_binding(b, dict(tmux.server_env))
        if mine != theirs[KEYS[i]]:
            mismatches.append((b, mine, theirs[KEYS[i]]))
    assert mismatches == []


# -- command line splitting --------------------------------------------------------------------

ARGV_CASES = [
    ["set", "-g", "@v", "a;"],
    ["set", "-g", "@v", "x\\;"],
    ["set", "-g", "@v", "\\;"],
    ["set", "-g", "@v", "1", ";", "set", "-g", "@w", "2"],
    ["set", "-g", "@v", "1;", "set", "-g", "@w", "2;"],
    ["set", "-g", "@v", "a b;c"],
]


@pytest.mark.parametrize("argv", ARGV_CASES, ids=[" ".join(a) for a in ARGV_CASES])
def test_argv_splitting_matches_tmux(tmux, argv):
    tmux.run("set", "-g", "@v", UNSET, ";", "set", "-g", "@w", UNSET)
    r = tmux.run(*argv)
    assert r.returncode == 0, r.stderr
    theirs = tmux_state(tmux)[:2]
    opts = {"@v": UNSET, "@w": UNSET}
    run_mine(commands_from_argv(argv, TABLE), opts, {}, set())
    assert (opts["@v"], opts["@w"]) == theirs
