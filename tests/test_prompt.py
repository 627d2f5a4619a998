"""The status-line prompt: command-prompt, confirm-before and the prompt history, against tmux.

Detached cases compare what the commands print and fail with; attached cases run hmux and tmux
inside panes of an outer tmux (as test_attach.py does), type the same keys and compare the
screens they drew, status line included, cell for cell.
"""

from __future__ import annotations

import os

import pytest
from harness import HMUX, TMUX, wait_for
from test_attach import COLS, ROWS, _clock_free, outer  # noqa: F401

from hmux_core import keys as K
from hmux_core import prompt as PR


def _both(hmux, tmux, *args: str) -> None:
    h, t = hmux.cmd(*args), tmux.cmd(*args)
    assert (h.rc, h.out, h.err) == (t.rc, t.out, t.err), args


@pytest.mark.parametrize("argv", [
    ["command-prompt"], ["confirm-before", "kill-server"], ["command-prompt", "-T", "bad"],
    ["command-prompt", "-t", "nosuch"], ["confirm-before"], ["confirm-before", "-p"],
    ["show-prompt-history"], ["show-prompt-history", "-T", "search"],
    ["show-prompt-history", "-T", "bad"], ["clear-prompt-history", "-T", "bad"],
    ["clear-prompt-history"], ["clear-prompt-history", "-T", "target"], ["showphist", "x"],
])
def test_detached_like_tmux(hmux, tmux, argv):
    for m in (hmux, tmux):
        m.ok("new-session", "-d", "-s", "p", "cat")
    _both(hmux, tmux, *argv)


# -- the editing rules, against the server's option defaults ------------------------------------

class _Opts:
    def __init__(self, **values: object) -> None:
        self.values = {"status-keys": "emacs", "word-separators": " -_@",
                       "prompt-history-limit": 100, "history-file": ""}
        self.values.update({k.replace("_", "-"): v for k, v in values.items()})

    def get(self, name: str) -> object:
        return self.values[name]


class _Server:
    def __init__(self, **values: object) -> None:
        self.options = _Opts(**values)
        self.buffers = None


class _Session:
    def __init__(self, server: _Server) -> None:
        self.options = server.options


class _Client:
    def __init__(self, server: _Server) -> None:
        self.session = _Session(server)
        self.prompt = None
        self.message_text = None
        self.attached = None


def _prompt(text: str = "", **opts: object):
    server = _Server(**opts)
    c = _Client(server)
    got: list[object] = []

    def cb(client, s, done):
        got.append(s)
        return 0

    c.prompt = PR.Prompt(":", text, cb, None, 0, PR.COMMAND)
    return server, c, got


def _type(server, c, *keys: object) -> None:
    for k in keys:
        code = K.string_to_key(k) if isinstance(k, str) and len(k) > 1 else (
            ord(k) if isinstance(k, str) else k)
        c.prompt.key(server, c, code)


def test_emacs_editing_keys():
    server, c, got = _prompt("hello world")
    _type(server, c, "C-a", "C-d", "C-e", "BSpace", "M-b", "C-k")
    assert c.prompt.text == "ello "
    _type(server, c, "C-t", "C-a", "x", "C-u")
    assert c.prompt.text == "" and c.prompt.index == 0
    _type(server, c, "a", "b", " ", "c", "d", "C-w", "C-y", "C-y")
    assert c.prompt.text == "ab cdcd"
    _type(server, c, "Enter")
    assert got == ["ab cdcd"] and c.prompt is None


def test_vi_editing_keys():
    server, c, got = _prompt("one two", status_keys="vi")
    _type(server, c, "Escape", "0", "x", "w", "D")
    assert c.prompt.text == "ne "
    # Escape also moves the cursor back one, as vi does (tmux 3.7b): "h" then lands on
    # the space before "z", where "i" inserts.
    _type(server, c, "a", "z", "Escape", "h", "i", "y", "Escape", "$", "a", "!", "Enter")
    assert got == ["ney z!"]


def test_history_up_and_down_and_limit():
    server, c, _ = _prompt(prompt_history_limit=2)
    h = PR.history(server)
    for line in ("a", "b", "b", "c"):
        h.add(line, PR.COMMAND)
    assert h.lists[PR.COMMAND] == ["b", "c"]
    _type(server, c, "Up")
    assert c.prompt.text == "c"
    _type(server, c, "Up", "Up")
    assert c.prompt.text == "b"
    _type(server, c, "Down", "Down")
    assert c.prompt.text == ""


def test_history_file_round_trip(tmp_path):
    path = tmp_path / "hist"
    path.write_text("command:ls\nsearch:foo\nold style line\n")
    server = _Server(history_file=str(path))
    h = PR.history(server)
    assert h.lists[PR.COMMAND] == ["ls", "old style line"] and h.lists[PR.SEARCH] == ["foo"]
    h.add("new-window", PR.COMMAND)
    assert path.read_text().splitlines()[-2:] == ["command:new-window", "search:foo"]


def test_completion_of_command_names_options_and_sessions():
    from hmux_core.server import Server

    srv = Server("/nonexistent", 0, [], True)
    c = _Client(_Server())
    c.prompt = PR.Prompt(":", "", lambda *a: 0, None, 0, PR.COMMAND)
    assert PR.complete(srv, c, c.prompt, "new-w", 0) == "new-window "
    assert PR.complete(srv, c, c.prompt, "lis", 0) == "list-"  # several: common prefix
    assert PR.complete(srv, c, c.prompt, "list-", 0) is None  # tmux shows a menu then
    assert PR.complete(srv, c, c.prompt, "lsk", 0) == "lsk "  # an alias
    assert PR.complete(srv, c, c.prompt, "split-p", 0) == "split-pane "  # command-alias
    assert PR.complete(srv, c, c.prompt, "status-left-l", 3) == "status-left-length "
    assert PR.complete(srv, c, c.prompt, "status-left-l", 0) is None  # commands only at start
    assert PR.complete(srv, c, c.prompt, "", 0) is None


# -- attached, against tmux ----------------------------------------------------------------------

def _conf(muxdir: str) -> str:
    conf = os.path.join(muxdir, "prompt.conf")
    with open(conf, "w") as f:
        f.write("setw -g automatic-rename off\nset -g default-command cat\n")
    return conf


def _start(outer, hmux, tmux, muxdir, session: str = "q") -> tuple[str, str]:  # noqa: F811
    conf = _conf(muxdir)
    h = outer.run(HMUX + hmux.socket_args + ["-f", conf, "new-session", "-s", session], "h")
    t = outer.run([TMUX] + tmux.socket_args + ["-f", conf, "new-session", "-s", session], "t")
    for target in (h, t):
        wait_for(lambda target=target: f"[{session}] 0:" in outer.screen(target)[-1])
    return h, t


def _same(outer, h, t, *flags: str, rows: slice = slice(None)) -> None:  # noqa: F811
    try:
        wait_for(lambda: _clock_free(outer.screen(h, *flags)[rows]) == _clock_free(
            outer.screen(t, *flags)[rows]))
    except AssertionError:
        raise AssertionError("\n".join(outer.screen(h, *flags) + ["----"]
                                       + outer.screen(t, *flags))) from None


def test_prompt_types_a_command(outer, hmux, tmux, muxdir):  # noqa: F811
    h, t = _start(outer, hmux, tmux, muxdir)
    for target in (h, t):
        outer.keys(target, "C-b", ":")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith(":"))
    _same(outer, h, t, "-e")  # the empty prompt with its reversed cursor cell
    for target in (h, t):
        outer.keys(target, "-l", "new-window -n two")
    wait_for(lambda: outer.screen(h)[-1].startswith(":new-window -n two"))
    _same(outer, h, t, "-e")
    for m, target in ((hmux, h), (tmux, t)):
        outer.keys(target, "Enter")
        wait_for(lambda m=m: m.ok("list-windows", "-t", "q", "-F", "#W") == "cat\ntwo\n")
    _same(outer, h, t, "-e")
    for m in (hmux, tmux):
        assert "1: new-window -n two" in m.ok("show-prompt-history", "-T", "command")


def test_prompt_completion_and_history(outer, hmux, tmux, muxdir):  # noqa: F811
    h, t = _start(outer, hmux, tmux, muxdir)
    for target in (h, t):
        outer.keys(target, "C-b", ":")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith(":"))
        outer.keys(target, "-l", "rename-w")
        outer.keys(target, "Tab")
    wait_for(lambda: outer.screen(h)[-1].rstrip() == ":rename-window")  # and a space
    _same(outer, h, t, "-e")
    for m, target in ((hmux, h), (tmux, t)):
        outer.keys(target, "-l", "first")
        outer.keys(target, "Enter")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#W") == "first\n")
        outer.keys(target, "C-b", ":")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith(":"))
        outer.keys(target, "Up")
    wait_for(lambda: outer.screen(h)[-1].startswith(":rename-window first"))
    _same(outer, h, t, "-e")
    for m, target in ((hmux, h), (tmux, t)):
        outer.keys(target, "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        outer.keys(target, "-l", "again")
        outer.keys(target, "Enter")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#W") == "again\n")
    _same(outer, h, t, "-e")


def test_message_area_from_message_style(outer, hmux, tmux, muxdir):  # noqa: F811
    """tmux 3.7: messages and prompts are message-format drawn over the status line; a
    message-style width and align give them only part of it, fill clears it."""
    h, t = _start(outer, hmux, tmux, muxdir)
    for m in (hmux, tmux):
        m.ok("set", "-g", "display-time", "0")
        m.ok("set", "-g", "message-style", "bg=red,fg=white,width=30,align=centre")
        m.ok("display-message", "-c", m.ok("list-clients", "-F", "#{client_name}").strip(),
             "hello #[bold]world")
    for target in (h, t):
        wait_for(lambda target=target: "hello" in outer.screen(target)[-1])
    _same(outer, h, t, "-e")
    for m in (hmux, tmux):
        m.ok("set", "-g", "message-style", "bg=blue,width=50%,align=right")
    for target in (h, t):
        outer.keys(target, "C-b", ":")
        outer.keys(target, "-l", "abc")
        wait_for(lambda target=target: "abc" in outer.screen(target)[-1])
    _same(outer, h, t, "-e")
    cursor = "#{cursor_x},#{cursor_y},#{cursor_flag}"
    assert outer.mux.ok("display", "-p", "-t", h, cursor) == \
        outer.mux.ok("display", "-p", "-t", t, cursor)


def test_prompt_error_shows_on_the_status_line(outer, hmux, tmux, muxdir):  # noqa: F811
    h, t = _start(outer, hmux, tmux, muxdir)
    for m in (hmux, tmux):
        m.ok("set", "-g", "display-time", "0")
    for target in (h, t):
        outer.keys(target, "C-b", ":")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith(":"))
        outer.keys(target, "-l", "kill-window -t nosuch")
        outer.keys(target, "Enter")
        wait_for(lambda target=target: "find window" in outer.screen(target)[-1])
    _same(outer, h, t, "-e")
    for target in (h, t):  # a parse error, and a bad argument count
        outer.keys(target, "C-b", ":")  # the key clears the message and goes on
        wait_for(lambda target=target: outer.screen(target)[-1].startswith(":"))
        outer.keys(target, "-l", "nosuchcommand 'x")
        outer.keys(target, "Enter")
        wait_for(lambda target=target: not outer.screen(target)[-1].startswith(":"))
    _same(outer, h, t, "-e")
    for target in (h, t):
        outer.keys(target, "C-b", ":")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith(":"))
        outer.keys(target, "-l", "rename-window a b c")
        outer.keys(target, "Enter")
        wait_for(lambda target=target: "too many" in outer.screen(target)[-1])
    _same(outer, h, t, "-e")


def test_confirm_before_kill_pane(outer, hmux, tmux, muxdir):  # noqa: F811
    h, t = _start(outer, hmux, tmux, muxdir)
    for m, target in ((hmux, h), (tmux, t)):
        outer.keys(target, "C-b", "%")
        wait_for(lambda m=m: m.ok("list-panes", "-t", "q", "-F", "#D").count("%") == 2)
        outer.keys(target, "C-b", "x")
        wait_for(lambda target=target: "kill-pane 1? (y/n)" in outer.screen(target)[-1])
    # The status line with its colours; the border's active half is coloured differently by
    # hmux's border drawing (not the prompt's business), so the panes compare without -e.
    _same(outer, h, t, "-e", rows=slice(-1, None))
    _same(outer, h, t)
    for m, target in ((hmux, h), (tmux, t)):
        outer.keys(target, "n")  # anything but y keeps the pane
        wait_for(lambda target=target: "(y/n)" not in outer.screen(target)[-1])
        assert m.ok("list-panes", "-t", "q", "-F", "#D").count("%") == 2
        outer.keys(target, "C-b", "x")
        wait_for(lambda target=target: "(y/n)" in outer.screen(target)[-1])
        outer.keys(target, "y")
        wait_for(lambda m=m: m.ok("list-panes", "-t", "q", "-F", "#D").count("%") == 1)
    _same(outer, h, t, "-e")


def test_command_prompt_from_the_command_line_waits(outer, hmux, tmux, muxdir):  # noqa: F811
    """Without -b the command-line client waits for the answer and runs the template with
    several prompts, %1 and %2, and an initial -I input."""
    import subprocess

    h, t = _start(outer, hmux, tmux, muxdir)
    procs = []
    for m in (hmux, tmux):
        argv = list(m.argv0) + m.socket_args + [
            "command-prompt", "-p", "first,second", "-I", "x", "display -p '%1-%2'"]
        procs.append(subprocess.Popen(argv, env=m.env, cwd=m.cwd, stdout=subprocess.PIPE,
                                      text=True))
    for target in (h, t):
        wait_for(lambda target=target: outer.screen(target)[-1].startswith("first x"))
    _same(outer, h, t, "-e")
    for target in (h, t):
        outer.keys(target, "-l", "1")
        outer.keys(target, "Enter")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith("second"))
        outer.keys(target, "-l", "2")
        outer.keys(target, "Enter")
    outs = [p.communicate(timeout=10)[0] for p in procs]
    assert outs[0] == outs[1] == "x1-2\n"


def test_completion_menu_for_several_matches(outer, hmux, tmux, muxdir):  # noqa: F811
    h, t = _start(outer, hmux, tmux, muxdir)
    for target in (h, t):
        outer.keys(target, "C-b", ":")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith(":"))
        outer.keys(target, "-l", "list-")
        outer.keys(target, "Tab")  # seven commands start so: a numbered menu of them
        wait_for(lambda target=target: "list-windows" in "\n".join(outer.screen(target)))
    _same(outer, h, t, "-e")
    for target in (h, t):
        outer.keys(target, "Down")
    _same(outer, h, t, "-e")
    for target in (h, t):
        outer.keys(target, "3")  # the item's key: list-keys takes the word's place
        wait_for(lambda target=target: outer.screen(target)[-1].rstrip() == ":list-keys")
    _same(outer, h, t, "-e")


def test_window_index_prompt_and_rename(outer, hmux, tmux, muxdir):  # noqa: F811
    """C-b ' (a window-target prompt named "index") and C-b , (a prompt with -I #W)."""
    h, t = _start(outer, hmux, tmux, muxdir)
    for m, target in ((hmux, h), (tmux, t)):
        m.ok("new-window", "-d", "-t", "q:1")
        outer.keys(target, "C-b", "'")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith("index"))
    _same(outer, h, t, "-e")
    for m, target in ((hmux, h), (tmux, t)):
        outer.keys(target, "1", "Enter")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#I") == "1\n")
        outer.keys(target, "C-b", ",")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith("(rename-window) cat"))
    _same(outer, h, t, "-e")
    for m, target in ((hmux, h), (tmux, t)):
        outer.keys(target, "C-u")
        outer.keys(target, "-l", "named")
        outer.keys(target, "Enter")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#W") == "named\n")
    _same(outer, h, t, "-e")


def test_key_prompt_describes_a_key(outer, hmux, tmux, muxdir):  # noqa: F811
    """C-b / is command-prompt -k: the next key's name fills the template (list-keys -1N),
    which shows the binding's note on the status line."""
    h, t = _start(outer, hmux, tmux, muxdir)
    for m in (hmux, tmux):
        m.ok("set", "-g", "display-time", "0")
    for target in (h, t):
        outer.keys(target, "C-b", "/")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith("key"))
    _same(outer, h, t, "-e")
    for target in (h, t):
        outer.keys(target, "c")
        wait_for(lambda target=target: "Create a new window" in outer.screen(target)[-1])
    _same(outer, h, t, "-e")


def test_incremental_and_numeric_prompts(outer, hmux, tmux, muxdir):  # noqa: F811
    """-i runs the template on every change with a =/+/- prefix; -N takes digits and ends on
    the first other key, which then goes on as usual."""
    h, t = _start(outer, hmux, tmux, muxdir)
    for m, target in ((hmux, h), (tmux, t)):
        m.ok("command-prompt", "-i", "-p", "inc", "rename-window -- 'w%%'")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#W") == "w=\n")
        outer.keys(target, "a")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#W") == "w=a\n")
        outer.keys(target, "C-r")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#W") == "w-a\n")
        outer.keys(target, "Enter")
        wait_for(lambda target=target: not outer.screen(target)[-1].startswith("inc"))
    _same(outer, h, t, "-e")
    for m, target in ((hmux, h), (tmux, t)):
        m.ok("command-prompt", "-b", "-N", "-p", "num", "rename-window -- 'n%%'")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith("num"))
        outer.keys(target, "4", "x", "2")  # x ends it; x and 2 then reach the pane
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#W") == "n4\n")
        wait_for(lambda target=target: outer.screen(target)[0].startswith("x2"))
    _same(outer, h, t, "-e")


def test_target_completion_menus(outer, hmux, tmux, muxdir):  # noqa: F811
    """Tab in a window-target prompt (C-b ') lists the windows; after -t a session completes
    and then its windows are offered."""
    h, t = _start(outer, hmux, tmux, muxdir)
    for m, target in ((hmux, h), (tmux, t)):
        m.ok("new-window", "-d", "-t", "q:1", "-n", "other")
        outer.keys(target, "C-b", "'")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith("index"))
        outer.keys(target, "Tab")
        wait_for(lambda target=target: "1 (other)" in "\n".join(outer.screen(target)))
    _same(outer, h, t, "-e")
    for m, target in ((hmux, h), (tmux, t)):
        outer.keys(target, "1")
        wait_for(lambda target=target: outer.screen(target)[-1].rstrip() == "index 1")
        outer.keys(target, "Enter")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#I") == "1\n")
        outer.keys(target, "C-b", ":")
        wait_for(lambda target=target: outer.screen(target)[-1].startswith(":"))
        outer.keys(target, "-l", "select-window -tq")
        outer.keys(target, "Tab")
        wait_for(lambda target=target: outer.screen(target)[-1].rstrip()
                 == ":select-window -tq:")
        outer.keys(target, "Tab")
        wait_for(lambda target=target: "q:1 (other)" in "\n".join(outer.screen(target)))
    _same(outer, h, t, "-e")
    for m, target in ((hmux, h), (tmux, t)):
        outer.keys(target, "0")
        outer.keys(target, "Enter")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#I") == "0\n")
    _same(outer, h, t, "-e")
