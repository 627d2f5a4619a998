"""Differential scenarios: the same command sequence against tmux 3.3a and hmux, every step compared.

Each scenario is a list of command lines (shell-quoted, as typed after ``tmux``); ``!wait FMT=VALUE``
polls both servers until ``display -p FMT`` gives VALUE. Every step's exit status, stdout and
stderr must match after normalising what must differ (pids, socket directories, times, byte
counts). Each scenario also runs with the stock tmux client driving the hmux server. Panes whose
window names are printed run ``cat -`` (two words, exec'd directly) and wait until tmux has renamed
them: tmux names a new window from its child, which is still called ``tmux`` until its exec.
"""

from __future__ import annotations

import re
import shlex
import signal
import subprocess

import pytest
from harness import normalise, reaping, wait_for

SCENARIOS: dict[str, list[str]] = {
    "sessions": [
        "new -d -s a -x 100 -y 30 cat",
        "new -d -s b cat",
        "ls -F '#{session_name} #{session_windows} #{session_attached} #{session_grouped}'",
        "has -t b", "has -t =b", "has -t c", "has -t a:0", "has -t 'a*'",
        "new -d -s a", "new -d -s x:y.z cat", "ls -F '#{session_name}'",
        "rename-session -t b c", "rename-session -t c a", "rename-session -t c ''",
        "ls -F '#{session_name}'", "kill-session -t x_y_z", "ls -F '#{session_name}'",
        "new -d -P cat", "new -d -P -F '#{session_id}:#{window_id}:#{pane_id}' cat",
        "ls -f '#{==:#{session_name},a}' -F '#{session_name}'",
        "kill-session -a -t a", "ls -F '#{session_name}'",
        "new -d -s w -n first -x 60 -y 20 cat",
        "display -p -t w '#{window_name} #{window_width}x#{window_height}'",
        "new -d -t w -s w2", "new -A -d -s w",
        "new -d -s e -e FOO=bar \"sh -c 'echo $FOO; exec cat'\"",
        "!wait e|#{cursor_y}=1", "capturep -p -t e -E 0",
        "new -d -s bad -x 0", "new -d -s bad -y abc", "new -d -t w -n name",
    ],
    "windows": [
        # Window names are fixed (-n, automatic-rename off): tmux renames a window at once to
        # its pane's command, which is still "tmux" until the child has exec'd, and a silent
        # `cat -` never gives it a reason to look again.
        "new -d -s a -n w0 -x 80 -y 24 cat -", "setw -g automatic-rename off",
        "neww -t a cat -", "neww -d -t a -n named cat -", "neww -t a:7 cat -", "neww -t a:7 cat -",
        "neww -d -k -t a:7 -n again cat -", "neww -a -t a:0 -d cat -", "neww -b -t a:0 -d cat -",
        "lsw -t a -F '#I #{window_active} #{window_flags} #{window_panes}'",
        "selectw -t a:0", "lastw -t a", "display -p '#{window_index}'",
        "nextw -t a", "prevw -t a", "display -p '#I'", "selectw -t a:99", "selectw -l -t a",
        "selectw -t a:named", "selectw -t a:nam", "selectw -t 'a:na*'", "display -p '#I'",
        "selectw -t a:^", "display -p '#I'", "selectw -t 'a:$'", "display -p '#I'",
        "selectw -t a:+1", "display -p '#I'", "selectw -t a:-2", "display -p '#I'",
        "renamew -t a:0 zero", "lsw -t a -F '#I:#W'", "killw -t a:zero", "lsw -t a -F '#I'",
        "set -g renumber-windows on", "killw -t a:1", "lsw -t a -F '#I'",
        "set -g base-index 10", "neww -d -t a -P", "killw -a -t a:0", "lsw -t a -F '#I:#W'",
        "lsw -a -F '#{session_name}:#I'", "lsw -t nosuch", "neww -t nosuch:",
        "neww -S -n again -t a", "lsw -t a -F '#I'",
    ],
    "panes": [
        "new -d -s a -x 100 -y 30 cat",
        "splitw -h -t a cat", "splitw -v -l 30% -t a:0.1 cat", "splitw -b -l 5 -t a:0.0 cat",
        "lsp -t a -F '#{pane_index} #{pane_id} #{pane_left},#{pane_top} #{pane_width}x#{pane_height} #{pane_active}'",
        "display -p '#{window_layout}'",
        "selectp -t a:0.0", "selectp -R", "display -p '#{pane_index}'", "selectp -D",
        "display -p '#{pane_index}'", "selectp -t '{bottom-right}'", "display -p '#{pane_index}'",
        "selectp -t '{top-left}'", "display -p '#{pane_index}'", "selectp -l", "display -p '#P'",
        "lastp -t a", "display -p '#P'", "selectp -t a:0.+1", "display -p '#P'",
        "selectp -t '{right-of}'", "display -p '#P'", "display -p -t '{last}' '#{pane_index}'",
        "selectp -t a:0.9", "selectp -t %99", "selectp -T title -t a:0.1",
        "display -p -t a:0.1 '#{pane_title}'", "selectp -d -t a:0.1",
        "display -p -t a:0.1 '#{pane_input_off}'", "selectp -e -t a:0.1",
        "resizep -t a:0.0 -x 20", "resizep -t a:0.2 -U 3", "resizep -t a:0.1 -L", "resizep -Z -t a:0.1",
        "display -p '#{window_zoomed_flag} #{window_layout} #{window_visible_layout}'",
        "resizep -Z -t a:0.1", "display -p '#{window_zoomed_flag} #F'",
        "lsp -t a -F '#{pane_index} #{pane_left},#{pane_top} #{pane_width}x#{pane_height}'",
        "killp -t a:0.2", "lsp -t a -F '#{pane_index} #{pane_id} #{pane_width}x#{pane_height}'",
        "splitw -t a -l 1000 cat", "splitw -t a -l abc cat", "splitw -t a -p 50 -h cat",
        "splitw -t a -f -h -l 10 -d -P -F '#{pane_id}' cat", "lsp -t a",
        "lsp -s -t a", "lsp -a", "killp -a -t a:0.0", "lsp -t a -F '#{pane_id}'",
    ],
    "formats": [
        "new -d -s fmt -n win -x 80 -y 24 cat",
        "set -g @a hello", "set -g @n 42", "set -g @e ''", "set -g @sp 'a b$c'",
        "display -p '#S #I #W #P #D #F #{session_windows}'",
        "display -p '#{=3:@a} #{=-3:@a} #{=/2/...:@a} #{p8:@a}| #{p-8:@a}|'",
        "display -p '#{?@a,yes,no} #{?@e,yes,no} #{?#{==:#{@n},42},eq,ne} #{!=:a,b}'",
        "display -p '#{s/l+/L/:@a} #{n:@a} #{w:@a} #{l:#{@a}} ##{@a} #,'",
        "display -p '#{e|+|:#{@n},8} #{e|*|f|2:1.5,3} #{e|/|:7,2} #{e|<|:1,2}'",
        "display -p '#{||:0,1} #{&&:1,0} #{m:h*,#{@a}} #{m/r:^h.l,#{@a}} #{m/ri:^H,#{@a}}'",
        "display -p '#{W:#I,[#I]} #{P:#P} #{S:#S }'",
        "display -p '#{b:#{session_path}}' ",
        "display -p '#{q:@sp} #{E:@a} #{T:@a} #{a:65}'",
        "display -p '#{unknown_variable}|#{session_name_x}|'",
        "display -p '#{window_flags} #{window_active} #{pane_active} #{window_panes} #{window_zoomed_flag}'",
        "display -p '#{cursor_x},#{cursor_y} #{cursor_flag} #{insert_flag} #{wrap_flag} #{alternate_on}'",
        "display -p '#{history_limit} #{history_size} #{pane_in_mode} #{pane_dead} #{pane_format}'",
        "display -p '#{session_format} #{window_format} #{pane_tabs}'",
        "display -p '#{version} #{pane_start_command} #{window_bigger}'",
        "display -p '#{C:nothing} #{N:win} #{N/s:fmt} #{N/s:nope}'",
        "display -F '#{session_name}'", "display -p -F x y",
        "lscm -F '#{command_list_name}:#{command_list_alias}' new-window",
        "lscm splitw", "lscm",
    ],
    "capture": [
        "new -d -s c -x 40 -y 10 \"sh -c 'printf \\\"\\\\033[31mred\\\\033[0m \\\\033[1;4mbold\\\\033[0m \\\\346\\\\274\\\\242\\\\345\\\\255\\\\227 tab\\\\there\\\\n\\\"; exec cat'\"",
        "!wait c|#{cursor_y}=1",
        "capturep -p -t c", "capturep -p -e -t c", "capturep -pN -t c -E 1",
        "capturep -pC -t c -E 0", "capturep -p -t c -S 1 -E 2", "capturep -p -t c -S - -E -",
        "capturep -p -a -t c", "capturep -p -a -q -t c",
        "new -d -s h -x 30 -y 5 \"sh -c 'seq 1 40; exec cat'\"", "!wait h|#{history_size}=36",
        "capturep -p -t h -S -10 -E -5", "capturep -p -t h -S -", "capturep -p -t h -S -100 -E -99",
        "display -p -t h '#{history_size} #{cursor_y}'",
        "new -d -s w -x 10 -y 4 \"sh -c 'printf 0123456789abcdef; exec cat'\"",
        "!wait w|#{cursor_x}=6", "capturep -p -t w", "capturep -pJ -t w",
        "capturep -t h -b mybuf", "clear-history -t h", "display -p -t h '#{history_size}'",
    ],
    "keys": [
        "new -d -s k -x 80 -y 40 'cat -v'",
        "send -t k -l 'literal text'", "send -t k Enter",
        "send -t k a Space b Tab c BSpace Enter", "send -t k C-a C-e M-x ^D Escape Enter",
        "send -t k Up Down Left Right Home End F1 F5 F12 IC DC PPage NPage BTab Enter",
        "send -t k -H 41 42 43 0d", "send -t k -N 3 xy Enter", "send -t k 0x263a Enter",
        "send -t k S-Up C-Left M-Right C-M-Up Enter",
        "!wait k|#{cursor_y}=20", "capturep -p -t k",
        "send -t k -N abc x", "send -t k -X cancel", "send-prefix -t k",
    ],
    "dead-panes": [
        "new -d -s r -x 60 -y 8 cat",
        "set -g remain-on-exit on",
        "neww -t r 'echo bye; exit 3'", "!reap-wait r:1|#{?pane_dead_time,t,}=t",
        "display -p -t r:1 '#{pane_dead} #{pane_dead_status}|#{pane_dead_signal}|#{?pane_dead_time,t,}'",
        "capturep -p -t r:1", "lsp -t r:1",
        "neww -t r 'kill -9 $$'", "!reap-wait r:2|#{?pane_dead_time,t,}=t",
        "display -p -t r:2 '#{pane_dead_status}|#{pane_dead_signal}'", "capturep -p -t r:2",
        # remain-on-exit failed is left out: tmux 3.3a itself crashes on it now and then.
        "lsw -t r -F '#I #{pane_dead}'",
        "set -g remain-on-exit off", "neww -d -t r 'true'", "splitw -t r:0 'exit 0'",
        "!wait r:0|#{window_panes}=1", "lsw -t r -F '#I #{window_panes}'",
    ],
    "errors": [
        "new -d -s e -n cat cat",
        "foo", "s", "new -Q", "has -t e extra", "lsp -t %99", "selectw -t e:5",
        "display -t nosuch -p hi", "killp -t e:9.9", "splitw -t nosuch", "neww -t e:0",
        "attach -t nosuch", "rename-window", "send-keys -t %5 x",
        "list-sessions -F", "has-session -t", "neww -t '{nosuch}'",
        "display -p '#{'", "display -p '#{?}'", "display -p '#{=abc:session_name}'",
        "lsw -t e ';' lsp -t e ';' ls", "display -p a ';' foo ';' display -p b",
        "display -p one \\; display -p two", "kill-session -t '*'", "ls",
    ],
}

# !reap-wait also runs `run-shell true` after each miss: see harness.reaping.
_WAIT = re.compile(r"^!(reap-)?wait (\S+?)\|(.+)=(.*)$")


def _steps():
    for name, steps in SCENARIOS.items():
        yield pytest.param(name, steps, id=name)


def _run(mux_a, mux_b, steps, tmpdir):
    """Run every step on both; return the list of (step, a, b) that differ."""
    diffs = []
    for line in steps:
        m = _WAIT.match(line)
        if m:
            reap, target, fmt, want = m.groups()
            for mux in (mux_a, mux_b):
                def met(mux=mux, t=target, f=fmt, w=want) -> bool:
                    return mux.cmd("display", "-p", "-t", t, f).out.strip() == w
                wait_for(reaping(met, mux) if reap else met)
            continue
        argv = shlex.split(line)
        a = mux_a.cmd(*argv)
        b = mux_b.cmd(*argv)
        na = (a.rc, _norm(a.out, mux_a, tmpdir), _norm(a.err, mux_a, tmpdir))
        nb = (b.rc, _norm(b.out, mux_b, tmpdir), _norm(b.err, mux_b, tmpdir))
        if na != nb:
            diffs.append((line, na, nb))
    return diffs


def _norm(text: str, mux, tmpdir: str) -> str:
    text = normalise(text, tmpdir)
    sock = mux.socket_args[1]
    return text.replace(sock, "LABEL").replace("SOCKDIR/" + sock.rsplit("/", 1)[-1], "SOCKDIR/LABEL")


@pytest.mark.parametrize("name,steps", list(_steps()))
def test_scenario_hmux_client(name, steps, tmux, hmux, muxdir):
    assert _run(tmux, hmux, steps, muxdir) == []


@pytest.mark.parametrize("name,steps", list(_steps()))
def test_scenario_stock_tmux_client(name, steps, tmux, hmux, stock_client_on_hmux, muxdir):
    # The stock client would fork a real tmux if nothing listened: start hmux's server first.
    first = shlex.split(steps[0])
    assert hmux.cmd(*first).rc == tmux.cmd(*first).rc == 0
    assert _run(tmux, stock_client_on_hmux, steps[1:], muxdir) == []


def _empty_pane_input(mux) -> list[str]:
    """What an empty pane shows of the text display-message -I and split-window -I read from
    their client's stdin: parsed as pane output with line feeds returning (MODE_CRLF), the
    cursor hidden, split-window -I's text shown as it comes (the command waits for its end)."""
    seen = []
    mux.ok("new", "-d", "-s", "a", "-x", "40", "-y", "10", "cat")
    mux.ok("splitw", "-E", "-d")
    r = mux.cmd("display", "-I", "-t", "a:0.1", stdin="one\ntwo\033[1mbold\tx\r\nthree")
    seen.append(f"rc={r.rc} {r.out!r} {r.err!r}")
    seen.append(mux.capture("a:0.1", "-e"))
    seen.append(mux.ok("display", "-p", "-t", "a:0.1", "#{cursor_x},#{cursor_y} #{cursor_flag}"))
    argv = list(mux.argv0) + list(mux.socket_args) + ["splitw", "-d", "-I", "-t", "a:0.0"]
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=mux.env, cwd=mux.cwd)
    try:
        p.stdin.write(b"first\n")
        p.stdin.flush()
        wait_for(lambda: "first" in mux.capture("a:0.1"), timeout=15)
        seen.append(f"waiting={p.poll() is None}")
        p.stdin.write(b"second")
        p.stdin.close()
        seen.append(f"rc={p.wait(15)} {p.stdout.read()!r} {p.stderr.read()!r}")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    seen.append(mux.capture("a:0.1"))
    seen.append(mux.ok("list-panes", "-t", "a", "-F", "#{pane_index} #{pane_dead} #{pane_pid}")
                .replace(mux.ok("display", "-p", "-t", "a:0.0", "#{pane_pid}").strip(), "PID"))
    return seen


def test_empty_pane_input_matches_tmux(tmux, hmux):
    assert _empty_pane_input(hmux) == _empty_pane_input(tmux)


def _feeding(mux, argv: list[str], first: bytes) -> subprocess.Popen:
    """A client running ``argv`` (an -I command) whose stdin this test writes, once ``first``
    shows in pane a:0.1."""
    p = subprocess.Popen(list(mux.argv0) + list(mux.socket_args) + argv, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=mux.env,
                         cwd=mux.cwd)
    p.stdin.write(first + b"\n")
    p.stdin.flush()
    wait_for(lambda: first.decode() in _pane_text(mux), timeout=15)
    return p


def _input_pane_killed(mux) -> list[str]:
    """3.6's "client returns 1 if the input pane goes": a client feeding an empty pane its
    stdin (split-window -I, display-message -I) ends with 1 when the pane is killed and more
    input comes; a client that is only reading stdin still takes SIGTERM (ends, 0) and
    ignores SIGINT, as tmux's client_signal does."""
    seen = []
    mux.ok("new", "-d", "-s", "a", "-x", "40", "-y", "10", "cat")
    for argv in (["splitw", "-d", "-I", "-t", "a:0.0"], ["display", "-I", "-t", "a:0.1"]):
        if argv[0] == "display":
            mux.ok("splitw", "-E", "-d", "-t", "a:0.0")
        p = _feeding(mux, argv, b"first")
        try:
            mux.ok("kill-pane", "-t", "a:0.1")
            p.stdin.write(b"more\n")  # the input callback sees the pane gone
            p.stdin.flush()
            seen.append(f"{argv[0]} rc={p.wait(15)} {p.stdout.read()!r} {p.stderr.read()!r}")
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
    p = _feeding(mux, ["splitw", "-d", "-I"], b"x")
    try:
        p.send_signal(signal.SIGINT)
        try:
            p.wait(0.5)  # (it must not end: a short wait is the assertion's window)
        except subprocess.TimeoutExpired:
            pass
        seen.append(f"after SIGINT running={p.poll() is None}")
        p.send_signal(signal.SIGTERM)
        seen.append(f"after SIGTERM rc={p.wait(15)}")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return seen


def _pane_text(mux) -> str:
    """Pane a:0.1's text, or nothing while the client has not made it yet."""
    return mux.cmd("capture-pane", "-p", "-t", "a:0.1").out


def test_input_pane_killed_matches_tmux(tmux, hmux):
    got = _input_pane_killed(hmux)
    assert got == _input_pane_killed(tmux)
    assert got[:2] == ["splitw rc=1 b'' b''", "display rc=1 b'' b''"]
