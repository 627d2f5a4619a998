"""Overlays and the client commands that take the terminal away: display-panes, suspend-client,
the lock commands and refresh-client, each against tmux 3.3a.

Attached cases run hmux and tmux in panes of an outer tmux and compare what they drew.
"""

from __future__ import annotations

import os
import subprocess

import pytest
from harness import HMUX, TMUX, wait_for
from test_attach import _clock_free, outer  # noqa: F401
from test_prompt import _same, _start


def _both(hmux, tmux, *args: str) -> None:
    h, t = hmux.cmd(*args), tmux.cmd(*args)
    assert (h.rc, h.out, h.err) == (t.rc, t.out, t.err), args


@pytest.mark.parametrize("argv", [
    ["display-panes"], ["display-panes", "-d", "x"], ["refresh-client"], ["refresh-client", "-S"],
    ["refresh-client", "-t", "nosuch"], ["lock-server"], ["lock-session"],
    ["lock-session", "-t", "nosuch"], ["lock-client"], ["suspend-client"],
    ["suspend-client", "-t", "nosuch"], ["refresh-client", "-C", "10x10"],
    ["display-menu", "a", "b", "c"], ["display-menu", "-c", "nosuch", "a", "b", "c"],
    ["display-menu"], ["display-popup"], ["display-popup", "-c", "nosuch"],
    ["display-popup", "-C"], ["menu", "-T"],
])
def test_detached_like_tmux(hmux, tmux, argv):
    for m in (hmux, tmux):
        m.ok("new-session", "-d", "-s", "o", "cat")
    _both(hmux, tmux, *argv)


def _client_pid(m) -> int:
    return int(m.ok("list-clients", "-F", "#{client_pid}").split()[0])


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(") ", 1)[1][0]


def test_refresh_client_errors_attached(outer, hmux, tmux, muxdir):  # noqa: F811
    _start(outer, hmux, tmux, muxdir)
    for argv in (["refresh-client", "-C", "10x10"], ["refresh-client", "-A", "%0:on"],
                 ["refresh-client", "-L", "0"], ["refresh-client", "-R", "x"],
                 ["refresh-client", "-l", "nosuch:"], ["refresh-client", "-U"],
                 ["refresh-client", "-c"], ["refresh-client", "-S"], ["refresh-client"],
                 ["refresh-client", "-f", "read-only"], ["refresh-client", "-f", "!read-only"]):
        _both(hmux, tmux, *argv)
    for m in (hmux, tmux):
        # A read-only client cannot make itself writable again.
        assert "read-only" in m.ok("list-clients", "-F", "#{client_flags}")


def test_display_panes_draws_and_selects(outer, hmux, tmux, muxdir):  # noqa: F811
    h, t = _start(outer, hmux, tmux, muxdir)
    # Rows of zeros under the overlay: capture-pane drops trailing blanks, coloured or not,
    # so the digits' coloured spaces only show with text after them.
    fill = "for i in $(seq 22); do printf '%079d\\n' 0; done; exec cat"
    for m, target in ((hmux, h), (tmux, t)):
        m.ok("set", "-g", "display-panes-time", "60000")
        m.ok("respawn-pane", "-k", "-t", "q", fill)
        wait_for(lambda target=target: outer.screen(target)[21].startswith("0" * 79))
    for target in (h, t):
        outer.keys(target, "C-b", "q")
        wait_for(lambda target=target: outer.screen(target)[0].endswith("80x23"))
    _same(outer, h, t, "-e")  # one pane: the big 0 in the active colour, its size top right
    for target in (h, t):
        outer.keys(target, "Escape")  # not a digit: the overlay goes and the key goes on
        wait_for(lambda target=target: "80x23" not in outer.screen(target)[0])
    for m, target in ((hmux, h), (tmux, t)):
        outer.keys(target, "C-b", "%")
        wait_for(lambda m=m: m.ok("list-panes", "-t", "q", "-F", "#D").count("%") == 2)
        outer.keys(target, "C-b", "q")
        wait_for(lambda target=target: "40x23" in outer.screen(target)[0])
    _same(outer, h, t)
    for m, target in ((hmux, h), (tmux, t)):
        assert m.ok("display", "-p", "-t", "q", "#P") == "1\n"
        outer.keys(target, "0")  # selects pane 0
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#P") == "0\n")
        wait_for(lambda target=target: "40x23" not in outer.screen(target)[0])
    _same(outer, h, t)


def test_display_panes_template_and_time(outer, hmux, tmux, muxdir):  # noqa: F811
    """A template gets the pane's id for %%; -d 0 keeps the overlay until a key; -b does not
    wait."""
    h, t = _start(outer, hmux, tmux, muxdir)
    for m, target in ((hmux, h), (tmux, t)):
        m.ok("display-panes", "-b", "-d", "0", "rename-window 'got %%'")
        wait_for(lambda target=target: "80x23" in outer.screen(target)[0])
        outer.keys(target, "0")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#W") == "got %0\n")
    for m, target in ((hmux, h), (tmux, t)):
        m.ok("display-panes", "-b", "-d", "300")
        wait_for(lambda target=target: "80x23" in outer.screen(target)[0])
        wait_for(lambda target=target: "80x23" not in outer.screen(target)[0])


def _in_shell(outer, argv: list[str], name: str, ready: str) -> str:  # noqa: F811
    """The client started from an interactive shell with job control, as a person starts it:
    its SIGTSTP stops it (a job of an orphaned process group would ignore the signal), and
    ``fg`` continues it."""
    target = outer.run(["sh", "-i"], name)
    wait_for(lambda: outer.screen(target)[0].startswith("$"))
    outer.keys(target, "-l", " ".join(_q(a) for a in argv))
    outer.keys(target, "Enter")
    wait_for(lambda: ready in outer.screen(target)[-1])
    return target


def _q(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


def test_suspend_client_and_resume(outer, hmux, tmux, muxdir):  # noqa: F811
    from test_prompt import _conf

    conf = _conf(muxdir)
    h = _in_shell(outer, HMUX + hmux.socket_args + ["-f", conf, "new-session", "-s", "q"], "h",
                  "[q] 0:")
    t = _in_shell(outer, [TMUX] + tmux.socket_args + ["-f", conf, "new-session", "-s", "q"],
                  "t", "[q] 0:")
    for m, target in ((hmux, h), (tmux, t)):
        pid = _client_pid(m)
        outer.keys(target, "C-b", "C-z")  # suspend-client
        wait_for(lambda pid=pid: _state(pid) == "T")
        # The terminal is the shell's again: the main screen, the shell's prompt.
        wait_for(lambda target=target: "[q] 0:" not in outer.screen(target)[-1])
        outer.keys(target, "-l", "fg")
        outer.keys(target, "Enter")
        wait_for(lambda target=target: "[q] 0:" in outer.screen(target)[-1])
        wait_for(lambda pid=pid: _state(pid) != "T")
    _same(outer, h, t, "-e")
    for target in (h, t):
        outer.keys(target, "-l", "still typing")  # keys reach the pane again
        wait_for(lambda target=target: outer.screen(target)[0].startswith("still typing"))


def test_lock_client_runs_lock_command(outer, hmux, tmux, muxdir):  # noqa: F811
    h, t = _start(outer, hmux, tmux, muxdir)
    for m, target, name in ((hmux, h, "h"), (tmux, t, "t")):
        gate = os.path.join(muxdir, f"unlock-{name}")
        script = os.path.join(muxdir, f"lock-{name}.sh")
        with open(script, "w") as f:
            # The lock program itself waits for the gate, as a real one waits for a password.
            f.write(f"#!/bin/sh\necho LOCKED\nwhile [ ! -e {gate} ]; do sleep 0.05; done\n")
        os.chmod(script, 0o755)
        m.ok("set", "-g", "lock-command", script)
        m.ok("lock-client")
        wait_for(lambda target=target: outer.screen(target)[0] == "LOCKED")
        assert "[q]" not in outer.screen(target)[-1]
        outer.keys(target, "-l", "ignored")  # typed to the lock program, not to the pane
        open(gate, "w").close()
        wait_for(lambda target=target: "[q] 0:" in outer.screen(target)[-1])
    _same(outer, h, t, "-e")


def test_lock_session_and_server_lock_every_client(outer, hmux, muxdir):  # noqa: F811
    conf = os.path.join(muxdir, "lock.conf")
    marks = os.path.join(muxdir, "marks")
    with open(conf, "w") as f:
        f.write(f"set -g lock-command 'echo x >> {marks}'\nsetw -g automatic-rename off\n")
    h = outer.run(HMUX + hmux.socket_args + ["-f", conf, "new-session", "-s", "a", "cat"], "h")
    wait_for(lambda: "[a]" in outer.screen(h)[-1])
    h2 = outer.run(HMUX + hmux.socket_args + ["new-session", "-s", "b", "cat"], "h2")
    wait_for(lambda: "[b]" in outer.screen(h2)[-1])
    hmux.ok("lock-session", "-t", "a")
    wait_for(lambda: os.path.exists(marks) and open(marks).read() == "x\n")
    wait_for(lambda: "[a]" in outer.screen(h)[-1])  # back once lock-command finished
    hmux.ok("lock-server")
    wait_for(lambda: open(marks).read() == "x\nx\nx\n")
    for target, name in ((h, "a"), (h2, "b")):
        wait_for(lambda target=target, name=name: f"[{name}]" in outer.screen(target)[-1])


def test_command_prompt_cli_waits_and_detach_frees_it(outer, hmux, muxdir):  # noqa: F811
    """A waiting command-prompt from the command line ends when its client detaches."""
    h = outer.run(HMUX + hmux.socket_args + ["-f", "/dev/null", "new-session", "-s", "w",
                                             "cat"], "h")
    wait_for(lambda: "[w]" in outer.screen(h)[-1])
    p = subprocess.Popen(list(hmux.argv0) + hmux.socket_args + ["command-prompt", "ls"],
                         env=hmux.env, cwd=hmux.cwd, stdout=subprocess.PIPE, text=True)
    wait_for(lambda: outer.screen(h)[-1].startswith("(ls)"))
    assert p.poll() is None
    hmux.ok("detach-client", "-s", "w")
    assert p.wait(timeout=10) == 0
    assert hmux.ok("has-session", "-t", "w") == ""


def test_tmux_stock_client_suspend_wakes(outer, hmux, muxdir):  # noqa: F811
    """The stock tmux client on an hmux server: MSG_SUSPEND stops it, fg wakes it."""
    hmux.ok("new-session", "-d", "-s", "s", "cat")
    path = os.path.join(muxdir, f"hmux-{os.getuid()}", hmux.socket_args[1])
    h = _in_shell(outer, [TMUX, "-S", path, "attach", "-t", "s"], "h", "[s] 0:")
    pid = _client_pid(hmux)
    hmux.ok("suspend-client")
    wait_for(lambda: _state(pid) == "T")
    outer.keys(h, "-l", "fg")
    outer.keys(h, "Enter")
    wait_for(lambda: "[s] 0:" in outer.screen(h)[-1])
    outer.keys(h, "-l", "back")
    wait_for(lambda: outer.screen(h)[0].startswith("back"))


MENU = ["display-menu", "-T", "#[align=centre]Pick", "-x", "2", "-y", "12",
        "first", "a", "rename-window first", "", "-disabled", "b", "", "second #{session_name}",
        "c", "rename-window second"]


def test_display_menu_drawn_moved_and_chosen(outer, hmux, tmux, muxdir):  # noqa: F811
    h, t = _start(outer, hmux, tmux, muxdir)
    procs = []
    for m, target in ((hmux, h), (tmux, t)):
        # From the command line it waits until the menu closes.
        procs.append(subprocess.Popen(list(m.argv0) + m.socket_args + MENU, env=m.env,
                                      cwd=m.cwd))
        wait_for(lambda target=target: "Pick" in "\n".join(outer.screen(target)))
    _same(outer, h, t, "-e")  # the box, the title, the first item in mode-style, (keys)
    for target in (h, t):
        outer.keys(target, "Down")  # skips the separator and the disabled item
    wait_for(lambda: "second q" in "\n".join(outer.screen(h)))
    _same(outer, h, t, "-e")
    for m, target in ((hmux, h), (tmux, t)):
        outer.keys(target, "Enter")
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#W") == "second\n")
    assert [p.wait(timeout=10) for p in procs] == [0, 0]
    _same(outer, h, t, "-e")
    for m, target in ((hmux, h), (tmux, t)):
        subprocess.Popen(list(m.argv0) + m.socket_args + MENU, env=m.env, cwd=m.cwd)
        wait_for(lambda target=target: "Pick" in "\n".join(outer.screen(target)))
        outer.keys(target, "a")  # an item's key chooses it at once
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "q", "#W") == "first\n")
        wait_for(lambda target=target: "Pick" not in "\n".join(outer.screen(target)))
    for m in (hmux, tmux):
        r = m.cmd("display-menu", "a", "b")
        assert (r.rc, r.err) == (1, "not enough arguments\n")


def test_display_popup_runs_a_command_on_its_own_pty(outer, hmux, tmux, muxdir):  # noqa: F811
    h, t = _start(outer, hmux, tmux, muxdir)
    procs = []
    for m, target in ((hmux, h), (tmux, t)):
        procs.append(subprocess.Popen(
            list(m.argv0) + m.socket_args + [
                "display-popup", "-T", "pop", "-w", "30", "-h", "8", "-x", "5", "-y", "12",
                "stty size; printf 'in popup\\n'; read line; echo got $line; sleep 30"],
            env=m.env, cwd=m.cwd))
        wait_for(lambda target=target: "in popup" in "\n".join(outer.screen(target)))
    _same(outer, h, t, "-e")  # the box, its title, the command's output (6x28 inside)
    assert "6 28" in "\n".join(outer.screen(h))
    for target in (h, t):
        outer.keys(target, "-l", "typed")
        outer.keys(target, "Enter")
        wait_for(lambda target=target: "got typed" in "\n".join(outer.screen(target)))
    _same(outer, h, t, "-e")
    for target in (h, t):
        outer.keys(target, "Escape")  # no -E: Escape closes it (and hangs the command up)
        wait_for(lambda target=target: "pop" not in "\n".join(outer.screen(target)))
    assert [p.wait(timeout=10) for p in procs] == [129, 129]  # 128 + SIGHUP: it was hung up
    _same(outer, h, t, "-e")
    for m, target in ((hmux, h), (tmux, t)):
        m.ok("display-popup", "-E", "-b", "rounded", "-T", "two", "sleep 0.3")
        wait_for(lambda target=target: "two" not in "\n".join(outer.screen(target)))
    for argv in (["display-popup", "-w", "x"], ["display-popup", "-h", "0"],
                 ["display-popup", "-b", "wavy"], ["display-popup", "-C"]):
        _both(hmux, tmux, *argv)


def test_menu_styles_lines_and_starting_choice(outer, hmux, tmux, muxdir):  # noqa: F811
    """display-menu -b -s -H -S and -C (tmux 3.4 to 3.7): border lines, the item, selected
    and border styles given for this menu, the item selected first; menu-* options else;
    g and G go to the first and last items."""
    h, t = _start(outer, hmux, tmux, muxdir)
    for m in (hmux, tmux):
        m.ok("set", "-g", "menu-selected-style", "bg=green,fg=white")
        m.ok("set", "-g", "menu-border-lines", "double")
    menu = ["display-menu", "-b", "heavy", "-s", "fg=blue", "-H", "bg=red", "-S", "fg=cyan",
            "-C", "2", "-T", "Styled", "-x", "3", "-y", "10", "one", "1", "", "two", "2", "",
            "", "three", "3", "", "-four", "4", ""]
    procs = []
    for m, target in ((hmux, h), (tmux, t)):
        procs.append(subprocess.Popen(list(m.argv0) + m.socket_args + menu, env=m.env,
                                      cwd=m.cwd))
        wait_for(lambda target=target: "Styled" in "\n".join(outer.screen(target)))
    _same(outer, h, t, "-e")  # "three" first: -C 2 is the separator, the next item is chosen
    for key in ("g", "G", "Up"):
        for target in (h, t):
            outer.keys(target, key)
        _same(outer, h, t, "-e")
    for target in (h, t):
        outer.keys(target, "Escape")
    assert [p.wait(timeout=10) for p in procs] == [0, 0]
    for m, target in ((hmux, h), (tmux, t)):  # the options alone
        procs.append(subprocess.Popen(list(m.argv0) + m.socket_args + [
            "display-menu", "-T", "Plain", "-x", "3", "-y", "10", "one", "1", "", "two", "2",
            ""], env=m.env, cwd=m.cwd))
        wait_for(lambda target=target: "Plain" in "\n".join(outer.screen(target)))
    _same(outer, h, t, "-e")
    for target in (h, t):
        outer.keys(target, "q")
    assert [p.wait(timeout=10) for p in procs[2:]] == [0, 0]
    for argv in (["display-menu", "-b", "wavy", "a", "b", "c"],
                 ["display-menu", "-C", "x", "a", "b", "c"]):
        for m in (hmux, tmux):
            r = m.cmd(*argv)
            assert r.rc == 1
        assert hmux.cmd(*argv).err == tmux.cmd(*argv).err


def test_popup_styles_modify_and_any_key(outer, hmux, tmux, muxdir):  # noqa: F811
    """display-popup -s/-S over popup-style/popup-border-style; a second display-popup on
    the client changes the popup shown (title, border lines); -k lets any key close it once
    its command has exited."""
    h, t = _start(outer, hmux, tmux, muxdir)
    for m in (hmux, tmux):
        m.ok("set", "-g", "popup-border-style", "fg=magenta")
    procs = []
    for m, target in ((hmux, h), (tmux, t)):  # it waits until the popup closes
        procs.append(subprocess.Popen(list(m.argv0) + m.socket_args + [
            "display-popup", "-k", "-s", "bg=blue", "-S", "fg=yellow", "-T", "first",
            "-w", "30", "-h", "6", "-x", "5", "-y", "12", "printf done"], env=m.env,
            cwd=m.cwd))
        wait_for(lambda target=target: "done" in "\n".join(outer.screen(target)))
    _same(outer, h, t, "-e")
    for m, target in ((hmux, h), (tmux, t)):
        name = m.ok("list-clients", "-F", "#{client_name}").strip()
        m.ok("display-popup", "-c", name, "-T", "second", "-b", "rounded")
        wait_for(lambda target=target: "second" in "\n".join(outer.screen(target)))
    _same(outer, h, t, "-e")
    for target in (h, t):
        outer.keys(target, "x")  # -k: any key closes it, the command having exited
        wait_for(lambda target=target: "second" not in "\n".join(outer.screen(target)))
    assert [p.wait(timeout=10) for p in procs] == [0, 0]
    _same(outer, h, t, "-e")


def test_default_window_and_pane_menus(outer, hmux, tmux, muxdir):  # noqa: F811
    """C-b < (display-menu -xW -yW: over the window's place on the status line) and C-b >
    (-xP -yP: at the pane), drawn as tmux draws them; q closes."""
    h, t = _start(outer, hmux, tmux, muxdir)
    for m in (hmux, tmux):
        m.ok("new-window", "-d", "-t", "q:1")
    for key, marker in (("<", "Swap Left"), (">", "Horizontal Split")):
        for target in (h, t):
            outer.keys(target, "C-b", key)
            wait_for(lambda target=target, marker=marker: marker in "\n".join(
                outer.screen(target)))
        _same(outer, h, t, "-e")
        for target in (h, t):
            outer.keys(target, "q")
            wait_for(lambda target=target, marker=marker: marker not in "\n".join(
                outer.screen(target)))


def test_lock_after_time_locks_an_idle_session(outer, hmux, tmux, muxdir):  # noqa: F811
    h, t = _start(outer, hmux, tmux, muxdir)
    for m, target, name in ((hmux, h, "h"), (tmux, t, "t")):
        marks = os.path.join(muxdir, f"idle-{name}")
        m.ok("set", "-g", "lock-command", f"echo locked >> {marks}")
        m.ok("set", "-g", "lock-after-time", "1")
        outer.keys(target, "-l", "x")  # activity: the timer starts from this key
        wait_for(lambda marks=marks: os.path.exists(marks))
        wait_for(lambda target=target: "[q] 0:" in outer.screen(target)[-1])
        m.ok("set", "-g", "lock-after-time", "0")
        assert open(marks).read() == "locked\n"  # once per stretch of idleness


def test_ignore_size_client_does_not_size_windows(outer, hmux, tmux,  # noqa: F811
                                                  muxdir):
    from test_prompt import _conf

    conf = _conf(muxdir)
    for m in (hmux, tmux):
        m.ok("-f", conf, "new-session", "-d", "-s", "z", "-x", "80", "-y", "23")
        m.ok("set", "-g", "window-size", "smallest")
    targets = {}
    for m, name in ((hmux, "h"), (tmux, "t")):
        big = outer.run(list(m.argv0) + m.socket_args + ["attach", "-t", "z"], name + "big")
        # list-clients goes in the order they connected: big first, on both servers.
        wait_for(lambda m=m: m.ok("list-clients", "-F", "x").count("x") == 1)
        small = outer.run(list(m.argv0) + m.socket_args + ["attach", "-t", "z"], name + "small")
        outer.mux.ok("resize-window", "-t", small, "-x", "60", "-y", "20")
        targets[name] = (big, small)
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "z", "#{window_width}x"
                                  "#{window_height}") == "60x19\n")
    for m, name in ((hmux, "h"), (tmux, "t")):
        tty = [line.split(" ")[1] for line in m.ok(
            "list-clients", "-F", "#{client_width} #{client_name}").splitlines()
            if line.startswith("60 ")][0]
        m.ok("refresh-client", "-t", tty, "-f", "ignore-size,active-pane")
        outer.keys(targets[name][1], "-l", "k")  # any update: the sizes are worked out again
        wait_for(lambda m=m: m.ok("display", "-p", "-t", "z", "#{window_width}x"
                                  "#{window_height}") == "80x23\n")
    flags = [m.ok("list-clients", "-F", "#{client_width} #{client_flags}") for m in (hmux, tmux)]
    # "focused" follows the focus reports of the outer terminal (not what this test is about).
    assert flags[0].replace("focused,", "") == flags[1].replace("focused,", "")


def test_choose_buffer_edits_a_buffer_in_a_popup_editor(outer, hmux, tmux, muxdir):  # noqa: F811
    """choose-buffer's e: the buffer in the editor option's program in a popup; what it saved
    replaces the buffer (the newline it added dropped), a failing editor changes nothing."""
    h, t = _start(outer, hmux, tmux, muxdir)
    edit = "sh -c 'cat \"$0\"; echo; echo EDITING; read x; echo more >> \"$0\"'"
    for m in (hmux, tmux):
        m.ok("set-buffer", "-b", "b1", "abc")
        m.ok("set", "-s", "editor", edit)
    for target in (h, t):
        outer.keys(target, "C-b", "=")
        wait_for(lambda target=target: "b1: " in "\n".join(outer.screen(target)))
        outer.keys(target, "e")
        wait_for(lambda target=target: "EDITING" in "\n".join(outer.screen(target)))
    _same(outer, h, t, "-e", rows=slice(0, 20))  # the popup over the buffer list
    for target in (h, t):
        outer.keys(target, "Enter")
    for m in (hmux, tmux):
        wait_for(lambda m=m: m.ok("show-buffer", "-b", "b1") == "abcmore")
    _same(outer, h, t, "-e", rows=slice(0, 20))  # the list again, with the new sample
    for m in (hmux, tmux):
        m.ok("set", "-s", "editor", "false")
    for target in (h, t):
        outer.keys(target, "e")
    _same(outer, h, t, "-e", rows=slice(0, 20))
    for m in (hmux, tmux):
        assert m.ok("show-buffer", "-b", "b1") == "abcmore"
