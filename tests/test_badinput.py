"""Bad input never takes the server down or loses a session, and gets tmux's messages."""

from __future__ import annotations

import os
import random

from harness import wait_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _intact(hmux) -> None:
    assert hmux.ok("list-sessions", "-F", "#{session_name}:#{session_windows}") == "keep:1\n"


def test_error_messages(hmux):
    hmux.ok("new-session", "-d", "-s", "keep")
    cases = [
        (["foo"], "unknown command: foo\n"),
        (["s"], None),  # ambiguous: exact text checked below
        (["new-session", "-Q"], "command new-session: unknown flag -Q\n"),
        (["has-session", "-t", "keep", "extra"], "command has-session: too many arguments (need at most 0)\n"),
        (["has-session", "-t", "nosuch"], "can't find session: nosuch\n"),
        (["kill-pane", "-t", "%99"], "can't find pane: %99\n"),
        (["select-window", "-t", "keep:9"], "can't find window: 9\n"),
        (["new-session", "-d", "-s", "keep"], "duplicate session: keep\n"),
        (["rename-session", "-t", "keep", "bad\x01"], "invalid session name: bad\x01\n"),
    ]
    for argv, err in cases:
        r = hmux.cmd(*argv)
        assert r.rc == 1, argv
        if err is not None:
            assert r.err == err, (argv, r.err)
        else:
            assert r.err.startswith("ambiguous command: s, could be: ")
    _intact(hmux)


def test_unterminated_quote_and_bad_config_line(hmux, tmp_path):
    hmux.ok("new-session", "-d", "-s", "keep")
    bad = tmp_path / "bad.conf"
    bad.write_text('set -g @a 1\nbogus-command\n')
    r = hmux.cmd("source-file", str(bad))
    assert r.rc == 1
    assert f"{bad}:2: unknown command: bogus-command" in r.out + r.err
    assert hmux.cmd("show", "-gv", "@a").out == ""  # a parse error runs nothing, as tmux
    # As in tmux, an open quote runs on to the end of the file instead of failing.
    quote = tmp_path / "quote.conf"
    quote.write_text('set -g @q "unterminated\nnext line\n')
    assert hmux.cmd("source-file", str(quote)).rc == 0
    assert hmux.ok("show", "-gv", "@q") == "unterminated\nnext line\n\n"
    _intact(hmux)


def test_overlong_argv_refused_by_client(hmux):
    hmux.ok("new-session", "-d", "-s", "keep")
    r = hmux.cmd("display", "-p", "x" * 20000)
    assert r.rc == 1 and r.err == "command too long\n"
    _intact(hmux)


def test_more_than_1000_arguments_refused_by_the_server(hmux, tmux):
    """tmux 3.7: a command of more than 1000 arguments is refused whole, the server says so."""
    for m in (hmux, tmux):
        m.ok("new-session", "-d", "-s", "keep")
    args = ["display", "-p", *map(str, range(999))]
    got = [(m.cmd(*args).rc, m.cmd(*args).err, m.cmd(*args[:-1]).err) for m in (hmux, tmux)]
    assert got[0] == got[1]
    assert got[0][:2] == (1, "command too long\n")
    assert got[0][2] == "command display-message: too many arguments (need at most 1)\n"
    _intact(hmux)


def test_random_bytes_flood_pane(hmux, tmp_path):
    rnd = random.Random(7)
    blob = tmp_path / "noise.bin"
    blob.write_bytes(bytes(rnd.getrandbits(8) for _ in range(300_000)))
    hmux.ok("new-session", "-d", "-s", "keep", "-x", "120", "-y", "40")
    hmux.ok("set", "-g", "remain-on-exit", "on")
    hmux.ok("split-window", "-t", "keep", f"cat {blob}")
    wait_for(lambda: hmux.ok("display", "-p", "-t", "keep:0.1", "#{pane_dead}") == "1\n", timeout=60)
    out = hmux.ok("capture-pane", "-p", "-e", "-t", "keep:0.1")
    assert len(out.split("\n")) >= 19  # the lower half of a 40-row window
    hmux.ok("kill-pane", "-t", "keep:0.1")
    _intact(hmux)


ARG = st.one_of(
    st.sampled_from(["-t", "-s", "-F", "-d", "-x", "%0", "@0", "$0", "keep", ":", ".", ";",
                     "#{", "}", "\\;", "-", "--", "=keep", "{last}", "999999999999", "-1", ""]),
    st.text(max_size=8),
)
CMD = st.sampled_from(["display", "list-panes", "list-windows", "select-window", "select-pane",
                       "has-session", "capture-pane", "rename-window", "resize-pane", "set",
                       "show", "send-keys", "list-sessions", "nonsense", "lsp", "splitw"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(CMD, st.lists(ARG, max_size=5)), min_size=1, max_size=3))
def test_random_command_lines(hmux, cmds):
    if hmux.cmd("has-session", "-t", "keep").rc != 0:
        hmux.ok("new-session", "-d", "-s", "keep", "cat")
    argv: list[str] = []
    for name, args in cmds:
        if argv:
            argv.append(";")
        argv += [name] + [a for a in args if "\0" not in a]
    r = hmux.cmd(*argv)
    assert r.rc in (0, 1)
    # Whatever happened, the server still answers and keep still exists unless we killed it.
    assert hmux.cmd("list-sessions").rc in (0, 1)
    assert os.path.exists(os.path.join(hmux.env["TMUX_TMPDIR"], f"hmux-{os.getuid()}",
                                       hmux.socket_args[1]))
