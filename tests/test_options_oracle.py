"""set-option / show-options compared with the tmux oracle (3.7b), command by command.

One tmux server (private TMUX_TMPDIR) holds session "s" with one window of two panes (%0, %1,
%1 active); a mirror of those option stores runs the same commands through hmux_core.options.
Every command's stdout, stderr and exit status must be identical. Cases undo what they set, so
each can also run alone.
"""

from __future__ import annotations

import os
import select
import shlex
import subprocess
import time

import pytest
from oracle import ORACLE as TMUX  # noqa: E402

from hmux_core.options import (
    PANE,
    SESSION,
    WINDOW,
    OptionError,
    Options,
    OptionScopes,
    make_global_options,
    set_option,
    show_options,
)

SOCKET = "hmuxopt"


def _tmux_env(tmpdir: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("TMUX", "TMUX_PANE", "VISUAL", "EDITOR")}
    env["TMUX_TMPDIR"] = tmpdir
    env["SHELL"] = "/bin/bash" if os.access("/bin/bash", os.X_OK) else "/bin/sh"
    return env


def tmux_quote(arg: str) -> str:
    """Quote one argument for tmux's command parser so it arrives unchanged."""
    if "'" not in arg:
        return "'" + arg + "'"
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'


class Oracle:
    """A tmux server plus one control-mode client that runs commands and reads their blocks."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self.buf = b""

    def cli(self, argv: list[str], socket: str = SOCKET) -> tuple[str, str, int]:
        p = subprocess.run([TMUX, "-L", socket, *argv], capture_output=True, text=True,
                           env=self.env, timeout=60)
        return p.stdout, p.stderr, p.returncode

    def attach(self) -> None:
        self.proc = subprocess.Popen([TMUX, "-u", "-L", SOCKET, "-C", "attach", "-t", "s"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=self.env)
        self._block()  # the attach-session command's own block

    def _line(self) -> bytes:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + 60
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError("no reply from tmux control client")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EOFError("tmux control client exited")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def _block(self) -> tuple[list[str], bool]:
        while not self._line().startswith(b"%begin "):
            pass  # notifications between blocks
        lines: list[str] = []
        while True:
            line = self._line()
            if line.startswith(b"%end ") or line.startswith(b"%error "):
                return lines, line.startswith(b"%error ")
            lines.append(line.decode("utf-8", "surrogateescape"))

    def run(self, argv: list[str]) -> tuple[str, str, int]:
        """(stdout, stderr, exit status) as the command-line client would see them."""
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write((" ".join(tmux_quote(a) for a in argv) + "\n").encode())
        self.proc.stdin.flush()
        lines, error = self._block()
        text = "".join(line + "\n" for line in lines)
        return ("", text, 1) if error else (text, "", 0)

    def close(self) -> None:
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory):
    tmpdir = str(tmp_path_factory.mktemp("tmux"))
    o = Oracle(_tmux_env(tmpdir))
    # Panes run cat so no shell output reaches the control client.
    out = o.cli(["-f", "/dev/null", "new-session", "-d", "-s", "s", "-x", "80", "-y", "24",
                 "cat", ";", "split-window", "-t", "s", "cat"])
    assert out[2] == 0, out
    panes = o.cli(["list-panes", "-t", "s", "-F", "#{pane_id}:#{pane_active}"])[0].split()
    assert panes == ["%0:0", "%1:1"]
    o.attach()
    yield o
    o.close()
    o.cli(["kill-server"])


class Mirror:
    """The same stores as the oracle server: session s, window s:0, panes %0 and %1 (active)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.server, self.gsession, self.gwindow = make_global_options(env)
        self.session = self.gsession.child(SESSION)
        # new-session -x/-y records the size in the session's own options.
        self.session.set("default-size", "80x24")
        self.window = self.gwindow.child(WINDOW)
        self.panes = [self.window.child(PANE), self.window.child(PANE)]

    def scopes(self, target: str | None) -> OptionScopes:
        s, w, p0, p1 = self.session, self.window, self.panes[0], self.panes[1]
        table: dict[str | None, tuple[Options | None, Options | None, Options | None]] = {
            None: (s, w, p1), "s": (s, w, p1), "s:0": (s, w, p1), "s:0.0": (s, w, p0),
            "s:0.1": (s, w, p1), "%0": (s, w, p0), "%1": (s, w, p1),
            "nosuch": (None, None, None), "s:9": (s, None, None), "s:0.5": (s, w, None),
        }
        sess, win, pane = table[target]
        return OptionScopes(self.server, self.gsession, self.gwindow, sess, win, pane,
                            window_panes=self.panes if win is not None else (),
                            target=target)

    def run(self, argv: list[str]) -> tuple[str, str, int]:
        cmd, rest = argv[0], argv[1:]
        spec = COMMANDS[cmd]
        flags, args = _getopt(rest, spec[1])
        target = flags.pop("t", None)
        scopes = self.scopes(target)  # type: ignore[arg-type]
        try:
            if spec[0] == "set":
                set_option(
                    scopes, args[0], args[1] if len(args) > 1 else None,
                    append="a" in flags, format_value="F" in flags, global_="g" in flags,
                    only_if_unset="o" in flags, pane="p" in flags, quiet="q" in flags,
                    server="s" in flags, unset="u" in flags, unset_panes="U" in flags,
                    window="w" in flags, window_command=cmd in ("setw", "set-window-option"))
                lines: list[str] = []
            else:
                lines = show_options(
                    scopes, args[0] if args else None, global_="g" in flags,
                    include_hooks="H" in flags, inherited="A" in flags, pane="p" in flags,
                    quiet="q" in flags, server="s" in flags, value_only="v" in flags,
                    window="w" in flags, window_command=cmd in ("showw", "show-window-options"),
                    hooks_command=cmd == "show-hooks")
        except OptionError as e:
            return "", str(e) + "\n", 1
        return "".join(line + "\n" for line in lines), "", 0


COMMANDS = {
    "set": ("set", "aFgopqst:uUw"), "set-option": ("set", "aFgopqst:uUw"),
    "setw": ("set", "aFgoqt:u"), "set-window-option": ("set", "aFgoqt:u"),
    "set-hook": ("set", "agpRt:uw"),
    "show": ("show", "AgHpqst:vw"), "show-options": ("show", "AgHpqst:vw"),
    "showw": ("show", "gvt:"), "show-window-options": ("show", "gvt:"),
    "show-hooks": ("show", "gpt:w"),
}


def _getopt(argv: list[str], spec: str) -> tuple[dict[str, str | bool], list[str]]:
    flags: dict[str, str | bool] = {}
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "-":
        if argv[i] == "--":
            i += 1
            break
        j = 1
        word = argv[i]
        while j < len(word):
            ch = word[j]
            pos = spec.index(ch)
            if pos + 1 < len(spec) and spec[pos + 1] == ":":
                flags[ch] = word[j + 1:] if j + 1 < len(word) else argv[i + 1]
                if j + 1 >= len(word):
                    i += 1
                break
            flags[ch] = True
            j += 1
        i += 1
    return flags, argv[i:]


@pytest.fixture(scope="module")
def mirror(oracle: Oracle) -> Mirror:
    return Mirror(oracle.env)


def _check(oracle: Oracle, mirror: Mirror, lines: list[str]) -> None:
    for line in lines:
        argv = shlex.split(line)
        want = oracle.run(argv)
        got = mirror.run(argv)
        assert got == want, f"command: {line}"


DUMPS = [
    "show -s", "show -g", "show -gw", "show -gH", "show -t s", "show -w", "show -p -t %0",
    "show -p -t %1",
]


def test_default_dumps_equal(oracle: Oracle, mirror: Mirror) -> None:
    # Full default listings, line for line (server, global session, global window, hooks).
    _check(oracle, mirror, DUMPS)
    out = oracle.cli(["show", "-gw"])[0].splitlines()
    assert out[0] == "cursor-colour none" and len(out) == 74


def test_env_derived_defaults(oracle: Oracle) -> None:
    # A second, short-lived server started with EDITOR set: editor and vi keys follow it.
    env = dict(oracle.env, EDITOR="/usr/local/bin/nvim")
    argv = ["-f", "/dev/null", "start-server", ";", "show", "-s", ";", "show", "-g", ";",
            "show", "-gw"]
    want = Oracle(env).cli(argv, socket="hmuxopt-env")
    srv, ses, win = make_global_options(env)
    sc = OptionScopes(srv, ses, win)
    mine = (show_options(sc, server=True) + show_options(sc, global_=True)
            + show_options(sc, global_=True, window=True))
    assert want == ("".join(x + "\n" for x in mine), "", 0)
    assert "status-keys vi" in mine and "editor /usr/local/bin/nvim" in mine


CASES: dict[str, list[str]] = {
    "unknown-ambiguous": [
        "set -g foo bar", "set -g stat off", "set -g status-l x", "set -gq foo bar",
        "show -g foo", "show -g stat", "show -gq nope", "set -g '' x", "set -g 'status[' x",
        "show -g 'mode-keys[x'",
    ],
    "unique-prefix": [
        "set -g mode-k vi", "show -gw mode-keys", "show -g mode-k", "set -gu mode-k",
        "show -gw mode-keys", "set -g renumber on", "show -g renum", "set -gu renumber",
    ],
    "old-spelling": [
        "set -g display-panes-color red", "show -g display-panes-color",
        "show -g display-panes-colour", "set -gu display-panes-color", "show -g clock-mode-color",
    ],
    "number-limits": [
        "set -g history-limit -1", "set -g history-limit 99999999999", "set -g history-limit abc",
        "set -g history-limit ' 5'", "show -g history-limit", "set -g history-limit '5 '",
        "set -g history-limit +7", "show -gv history-limit", "set -g history-limit ''",
        "set -g history-limit", "set -g buffer-limit 0", "set -g repeat-time 32768",
        "set -g repeat-time 32767", "show -g repeat-time", "set -g pane-base-index 65536",
        "set -g history-limit 0x10", "set -ga history-limit 3", "show -g history-limit",
        "set -gu history-limit", "set -gu repeat-time", "show -g history-limit",
    ],
    "flags": [
        "set -g mouse", "show -g mouse", "set -g mouse", "show -g mouse", "set -g mouse ON",
        "show -g mouse", "set -g mouse No", "show -g mouse", "set -g mouse yes", "set -g mouse 2",
        "set -g mouse ''", "show -g mouse", "set -g mouse 1", "set -g mouse 0", "show -gv mouse",
        "set -gu mouse", "set -t s mouse", "show -t s mouse", "show -A -t s mouse",
        "set -t s -u mouse",
    ],
    "choices": [
        "set -g status-position", "show -g status-position", "set -g status-position",
        "set -g status 3", "set -g status", "show -g status", "set -g status off",
        "set -g status", "show -g status", "set -g status o", "set -g status ''",
        "set -g status On", "set -g status-justify cen", "set -g status-justify centre",
        "show -g status-justify", "set -g status-justify", "show -g status-justify",
        "set -gu status-justify", "set -gu status",
        "set -g status-position bottom", "set -gw window-size smallest", "show -gw window-size",
        "set -gw window-size", "show -gw window-size", "set -gw window-size largest",
        "set -gw window-size", "show -gw window-size", "set -gwu window-size",
    ],
    "colours": [
        "set -g status-bg colour300", "set -g status-bg colour255", "show -g status-bg",
        "set -g status-bg Color12", "show -g status-bg", "set -g status-bg '#FF00aa'",
        "show -g status-bg", "set -g status-bg '#ff00a'", "set -g status-bg aliceblue",
        "show -g status-bg", "set -g status-bg 'light goldenrod'", "show -g status-bg",
        "set -g status-bg grey50", "show -g status-bg", "set -g status-bg greyish",
        "show -g status-bg", "set -g status-bg grey101", "set -g status-bg Grey50",
        "set -g status-bg 93", "show -g status-bg", "set -g status-bg 8",
        "set -g status-bg terminal", "show -g status-bg", "set -g status-bg none",
        "set -g status-bg ''", "set -g status-bg 'colour 5'", "show -g status-bg",
        "set -g status-bg BRIGHTRED", "show -g status-bg", "set -g status-bg grey3",
        "show -g status-bg", "set -g status-bg grey100", "show -g status-bg",
        "set -g status-bg", "set -gu status-bg", "show -gw cursor-colour",
        "set -gw cursor-colour red", "show -gw cursor-colour", "set -gwu cursor-colour",
    ],
    "keys": [
        "set -g prefix C-a", "show -g prefix", "set -g prefix ^A", "show -g prefix",
        "set -g prefix C-i", "show -g prefix", "set -g prefix C-@", "show -g prefix",
        "set -g prefix M-C-Space", "show -g prefix", "set -g prefix 0x1", "show -g prefix",
        "set -g prefix 0xe9", "show -g prefix", "set -g prefix 0x80", "set -g prefix pgdn",
        "show -g prefix", "set -g prefix C-Tab", "show -g prefix", "set -g prefix C-$",
        "set -g prefix foo", "set -g prefix ''", "set -g prefix", "set -g prefix S-F1",
        "show -g prefix", "set -g prefix 'User 7'", "show -g prefix", "set -g prefix User1000",
        "set -g prefix c-m-x", "show -g prefix", "set -g prefix C-S-a", "show -g prefix",
        "set -g prefix any", "show -g prefix", "set -g prefix é", "show -g prefix",
        "set -g prefix éé", "set -g prefix ^^", "show -g prefix", "set -g prefix C-",
        "set -g prefix -", "show -g prefix", "set -g prefix ' '", "show -g prefix",
        "set -g prefix 0x41", "show -g prefix", "set -g prefix KPEnter", "show -g prefix",
        "set -g prefix C-M-Enter", "show -g prefix", "set -g prefix2 none", "show -g prefix2",
        "set -gu prefix", "set -gu prefix2", "show -s backspace", "set -s backspace C-h",
        "show -s backspace", "set -su backspace",
    ],
    "styles": [
        "set -g status-style bad=x", "set -g status-style 'fg=red bold,bg=colour5'",
        "show -g status-style", "set -ga status-style italics", "show -g status-style",
        "set -ga status-style foo", "show -g status-style", "set -g status-style '#{?x,y,z}'",
        "show -g status-style", "set -g status-style 'range=window|x'",
        "set -g status-style 'range=window|3,align=absolute-centre,list=focus'",
        "set -g status-style 'list=nope'", "set -g status-style 'nobold,noitalics'",
        "set -g status-style ''", "show -g status-style", "set -g status-style 'fill=nope'",
        "set -g status-style 'bold|italics'", "set -g status-style 'bold|'",
        "set -gu status-style", "show -g status-style",
    ],
    "style-restore-quirk": [
        # A failed value leaves a local copy of the inherited value (tmux restores into the
        # target store).
        "set -t s status-style bad=x", "show -t s status-style", "set -t s -u status-style",
        "set -a -t s status-left X", "show -t s status-left", "show -A -t s status-left",
        "set -t s -u status-left",
    ],
    "strings": [
        "set -g status-left 'a b'", "show -g status-left", "set -ga status-left ' c'",
        "show -g status-left", "show -gv status-left", "set -g status-left ''",
        "show -g status-left", "set -g status-left", "set -gu status-left",
        "set -g default-size 10x", "set -g default-size 1fooxx2", "show -g default-size",
        "set -gu default-size", "set -g default-shell bash", "set -g default-shell /etc/passwd",
        "set -g default-shell /bin/sh", "show -g default-shell", "set -gu default-shell",
        "show -g default-shell", "set -s editor 'vim -u NONE'", "show -s editor",
        "set -su editor", "show -s editor",
    ],
    "escaping": [
        "set -g @t '~'", "show -g @t", "set -g @t '~x'", "show -g @t", "set -g @t '#'",
        "show -g @t", "set -g @t 'a#b'", "show -g @t", "set -g @t '$x'", "show -g @t",
        "set -g @t 'a$1'", "show -g @t", "set -g @t '\"x\" y'", "show -g @t",
        "set -g @t \"it's\"", "show -g @t", "set -g @t '\\'", "show -g @t",
        "set -g @t 'tab\there'", "show -g @t", "set -g @t '日本 語'", "show -g @t",
        "set -g @t '~\"'", "show -g @t", "set -g @t '{'", "show -g @t",
        "set -g @t 'a\x01b\x1bc\x7f'", "show -g @t", "set -g @t 'a\u0085b'", "show -g @t",
        "set -gu @t",
    ],
    "user-options": [
        "set -g @u", "set -g @b 1", "set -g @a 'two words'", "show -g @a", "show -gv @a",
        "show -g @nope", "show -gq @nope", "set -ga @a ' more'", "show -g @a",
        "set -g '@a[1]' x", "show -g", "set -s @srv 3", "show -s @srv", "show -g @srv",
        "set -gw @win 4", "show -gw @win", "set -w @w0 5", "show -w", "set -p -t %0 @p0 6",
        "show -p -t %0", "show -A -p -t %0 @win", "show -A -t s @a", "setw @sw 7",
        "show -w @sw", "showw @sw", "showw", "set -gu @a", "set -gu @b", "set -su @srv",
        "set -gwu @win", "set -wu @w0", "set -pu -t %0 @p0", "setw -u @sw", "show -g @a",
    ],
    "only-if-unset": [
        "set -g @o x", "set -go @o y", "set -goq @o y", "show -g @o", "set -g -o status-left x",
        "set -o -t s status-left x", "set -o -t s status-left y", "show -t s status-left",
        "set -u -t s status-left", "set -o -g status-format[1] x", "set -o -g status-format[4] x",
        "show -g status-format[4]", "set -gu status-format[4]", "set -gou @o", "show -g @o",
        "set -gu @o",
    ],
    "unset": [
        "set -gu status-left", "set -u -t s status-left", "set -t s history-limit 5",
        "show -t s", "set -t s -u history-limit", "show -t s", "set -gu @never",
        "set -gu 'status-format[9]'", "show -g status-format", "set -u -t s 'status-format[0]'",
    ],
    "arrays-strings": [
        "set -s terminal-overrides 'a,b,,c'", "show -s terminal-overrides",
        "set -sa terminal-overrides d", "set -s terminal-overrides[1] X",
        "set -sa terminal-overrides[1] Y", "set -sa terminal-overrides[9] Z",
        "show -s terminal-overrides", "show -sv terminal-overrides",
        "show -s terminal-overrides[9]", "show -s terminal-overrides[5]",
        "show -sv terminal-overrides[5]", "set -s terminal-overrides[9]",
        "set -su terminal-overrides[0]", "show -s terminal-overrides",
        "set -s terminal-overrides ''", "show -s terminal-overrides",
        "show -sv terminal-overrides", "set -su terminal-overrides",
        "set -g update-environment 'A B,C'", "show -g update-environment",
        "set -ga update-environment 'D'", "show -gv update-environment",
        "set -gu update-environment", "set -s command-alias[100] 'foo=bar baz'",
        "show -s command-alias", "show -sv command-alias[100]", "set -su command-alias[100]",
        "set -s user-keys[0] '\\e[foo'", "show -s user-keys", "set -su user-keys",
        "set -g status[1] x", "show -g status[3]", "set -g 'status-format[x]' y",
        "set -g status-format 'a b'", "show -g status-format", "set -gu status-format",
        "show -s 'command-alias[ 2]'",
    ],
    "arrays-inherit": [
        "show -A -t s update-environment", "set -t s update-environment X",
        "show -t s update-environment", "show -A -t s update-environment",
        "set -t s -a update-environment Y", "show -t s update-environment",
        "set -t s -u update-environment", "show -A -t s terminal-overrides",
        "show -t s update-environment",
    ],
    "colour-arrays": [
        "set -g pane-colours 'red blue,green'", "show -g pane-colours",
        "set -ga pane-colours yellow", "set -g pane-colours[7] colour99", "show -g pane-colours",
        "set -g pane-colours[7] nope", "set -g pane-colours 'red nope blue'",
        "show -g pane-colours", "show -g pane-colours[3]", "set -gu pane-colours[0]",
        "show -g pane-colours", "set -w pane-colours[2] '#010203'", "show -w pane-colours",
        "show -w -A pane-colours", "set -wu pane-colours", "set -gu pane-colours",
    ],
    "hooks": [
        "set-hook -g after-new-window 'display-message hi'", "show-hooks -g",
        "set-hook -ga after-new-window 'list-keys'", "show -g after-new-window",
        "set -g after-new-window[5] 'display-message x'", "show -gv after-new-window",
        "show -g after-new-window[5]", "set -g after-new-window", "set-hook -gu after-new-window",
        "set-hook -w pane-died 'display-message x'", "show-hooks -w", "show -w", "show -wH",
        "set-hook -wu pane-died", "show -gH window-linked",
    ],
    "scopes": [
        "set -w status off", "show -g status", "show -t s status", "set -u status",
        "set -gw status on", "show -g status", "set -gu status", "set -p -t %0 status on",
        "show -t s status", "set -u -t s status", "set -p -t %0 mode-keys vi",
        "show -w -t s mode-keys", "show -p -t %0", "set -wu mode-keys",
        "set -p -t %0 remain-on-exit on", "show -p -t %0", "show -w", "show -A -p -t %0",
        "set -U -t s remain-on-exit off", "show -p -t %0", "show -w", "set -u remain-on-exit",
        "set -pg remain-on-exit failed", "show -p remain-on-exit", "show -gw remain-on-exit",
        "set -pu remain-on-exit", "set -s -t s @s x", "show -s @s", "set -su @s",
        "set -s status off", "show -t s status", "set -u status", "set escape-time 10",
        "show -s escape-time", "set -su escape-time",
    ],
    "unset-panes": [
        "set -p -t %0 window-style bg=red", "set -p -t %1 window-style bg=blue",
        "set -w window-style bg=green", "show -p -t %0", "show -p -t %1", "show -w",
        "set -U window-style", "show -p -t %0", "show -p -t %1", "show -w",
        "set -p -t %0 allow-rename on", "set -U -p -t %0 allow-rename", "show -p -t %0",
    ],
    "targets": [
        "set -t nosuch status off", "set -t nosuch @x y", "show -t nosuch",
        "set -q -t nosuch status off", "show -q -t nosuch", "set -p -t s:0.5 @x y",
        "show -p -t s:0.5", "set -w -t s:9 mode-keys vi", "set -t s:9 escape-time 20",
        "show -s escape-time", "set -su escape-time", "set -t nosuch escape-time 30",
        "show -s escape-time", "set -su escape-time", "set -t s:9 @x y", "show -t s @x",
        "set -t s -u @x", "show -w -t s:9", "show -p -t s:9", "show -t s:9 status",
        "show -w -t s:9 @x", "set -q -w -t s:9 mode-keys vi",
    ],
    "quiet-not-everything": [
        # -q hides name, scope and -o errors only.
        "set -gq status[1] x", "set -gq history-limit abc", "set -gq @q", "set -gq nope x",
        "show -gq 'status['", "set -gq 'status[' x",
    ],
    "show-inherited": [
        "show -A -t s status", "show -A -t s status-style", "show -A -t s @nope",
        "show -t s status", "show -A -w mode-keys", "show -A -p -t %1", "show -A -t s",
        "show -A -w",
    ],
    "value-only": [
        "show -gv status-format", "show -gv status-format[1]", "show -gv status-format[5]",
        "show -g status-format[5]", "show -sv", "show -gvw", "show -v -t s",
        "show -gv update-environment[2]", "show -gv mouse", "show -gv status-bg",
    ],
    "setw-showw": [
        "setw -g mode-keys vi", "showw -g mode-keys", "showw -gv mode-keys",
        "setw -gu mode-keys", "setw -g status off", "show -g status", "setw -gu status",
        "setw -q nosuch x", "setw nosuch x", "showw -g", "showw",
    ],
}


@pytest.mark.parametrize("case", list(CASES))
def test_case(oracle: Oracle, mirror: Mirror, case: str) -> None:
    _check(oracle, mirror, CASES[case])


def test_state_still_in_sync(oracle: Oracle, mirror: Mirror) -> None:
    # After all cases, every store lists the same (cases undo their changes).
    _check(oracle, mirror, DUMPS)


@pytest.mark.parametrize("line", [
    "show -g status", "set -g foo bar", "show -gq nope", "set -t nosuch status off",
    "set -g history-limit -1", "show -g @nope", "set -g status-bg nope",
])
def test_command_line_channels(oracle: Oracle, mirror: Mirror, line: str) -> None:
    # The control-mode mapping (%end = stdout, %error = stderr and status 1) matches what the
    # command-line client really gets.
    argv = shlex.split(line)
    assert oracle.cli(argv) == oracle.run(argv) == mirror.run(argv)


def test_case_count() -> None:
    assert sum(len(v) for v in CASES.values()) >= 60
