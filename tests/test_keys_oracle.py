"""Differential tests: hmux_core.keys against the tmux oracle (3.7b).

One private tmux server (with ``extended-keys on``, or panes could not ask for extended keys) runs
one window per input mode. Each window's program puts its terminal in raw mode, optionally prints
mode sequences (DECCKM ``ESC [?1h``, DECKPAM ``ESC =``, extended keys ``ESC [>4;1m`` or
``ESC [>4;2m``), prints READY and then appends every byte it reads to a file. Batches of
``send-keys`` arguments, each followed by a marker argument, are sent with the real tmux; the bytes
that arrive are compared with ``send_keys_bytes`` key by key, in both ``extended-keys-format``s
for the extended windows. Key names are checked the same way through ``bind-key`` + ``list-keys``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from oracle import ORACLE as TMUX  # noqa: E402

from hmux_core.keys import (
    FORMAT_CSI_U,
    KEY_NAMES,
    KEYC_NONE,
    KEYC_UNKNOWN,
    key_to_string,
    send_keys_bytes,
    string_to_key,
)

MARK = "<<#>>"
END = "<<END>>"

PANE_PROGRAM = r"""
import os, sys, tty
out, init = sys.argv[1], bytes.fromhex(sys.argv[2])
tty.setraw(0)
fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
os.write(1, init + b"READY")
while True:
    data = os.read(0, 65536)
    if not data:
        break
    os.write(fd, data)
"""

MODES = {
    "normal": (b"", {}),
    "cursor": (b"\x1b[?1h", {"cursor_app": True}),
    "keypad": (b"\x1b=", {"keypad_app": True}),
    "both": (b"\x1b[?1h\x1b=", {"cursor_app": True, "keypad_app": True}),
    "extended": (b"\x1b[>4;1m", {"extended_keys": 1}),
    "extended2": (b"\x1b[>4;2m", {"extended_keys": 2}),
    "extall": (b"\x1b[?1h\x1b=\x1b[>4;1m",
               {"cursor_app": True, "keypad_app": True, "extended_keys": 1}),
}
EXTENDED = [w for w, (_, modes) in MODES.items() if modes.get("extended_keys")]


def wait_for(cond, what: str, timeout: float = 30.0):  # noqa: ANN001, ANN201
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)


class Tmux:
    """A private tmux server driven through its command line."""

    def __init__(self, tmpdir: Path) -> None:
        self.env = dict(os.environ, TMUX_TMPDIR=str(tmpdir), LC_ALL="C.UTF-8")
        self.env.pop("TMUX", None)
        self.base = [TMUX, "-L", "x", "-f", "/dev/null"]
        self.dir = tmpdir
        self.program = tmpdir / "pane.py"
        self.program.write_text(PANE_PROGRAM)

    def run(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(self.base + list(args), env=self.env, capture_output=True,
                              timeout=30)

    def ok(self, *args: str) -> bytes:
        p = self.run(*args)
        assert p.returncode == 0, (args[:3], p.stdout, p.stderr)
        return p.stdout

    def out_path(self, window: str) -> Path:
        return self.dir / f"out-{window}"

    def start_window(self, window: str, init: bytes) -> None:
        cmd = [sys.executable, str(self.program), str(self.out_path(window)), init.hex()]
        if window == "normal":
            self.ok("new-session", "-d", "-s", "k", "-n", window, "-x", "80", "-y", "24", *cmd)
            self.ok("set-option", "-s", "extended-keys", "on")  # before any pane asks for them
        else:
            self.ok("new-window", "-d", "-t", "k:", "-n", window, *cmd)
        wait_for(lambda: b"READY" in self.ok("capture-pane", "-p", "-t", f"k:{window}"),
                 f"{window} ready")

    def received(self, window: str) -> bytes:
        try:
            return self.out_path(window).read_bytes()
        except FileNotFoundError:
            return b""

    def send(self, window: str, flags: list[str], args: list[str]) -> bytes:
        """Send args (then END) and return the bytes the pane got for them."""
        before = len(self.received(window))
        self.ok("send-keys", "-t", f"k:{window}", *flags, *map(argv_quote, args))
        self.ok("send-keys", "-t", f"k:{window}", END)
        data = wait_for(lambda: (d := self.received(window)).endswith(END.encode()) and
                        len(d) > before and d, f"{END} in {window}")
        return data[before:-len(END)]


def argv_quote(arg: str) -> str:
    """tmux takes a trailing ';' on an argument as a command separator; '\\;' keeps it."""
    return arg[:-1] + "\\;" if arg.endswith(";") else arg


@pytest.fixture(scope="module")
def tmux(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    t = Tmux(tmp_path_factory.mktemp("keys"))
    try:
        for window, (init, _) in MODES.items():
            t.start_window(window, init)
        flags = t.ok("list-panes", "-a", "-F",
                     "#{window_name} #{keypad_cursor_flag} #{keypad_flag}").decode()
        assert "cursor 1 0" in flags and "keypad 0 1" in flags and "both 1 1" in flags, flags
        yield t
    finally:
        t.run("kill-server")


# -- the arguments ---------------------------------------------------------------------------------

MODS = ["", "C-", "M-", "S-", "C-M-", "C-S-", "M-S-", "C-M-S-"]
SPECIAL_NAMES = [n for n in KEY_NAMES
                 if not n.startswith(("Mouse", "Wheel", "Second", "Double", "Triple"))]


def key_arguments() -> list[str]:
    args: list[str] = []
    for name in SPECIAL_NAMES:
        args += [m + name for m in MODS]
    for c in map(chr, range(0x21, 0x7F)):
        args += [c, "C-" + c, "M-" + c, "C-M-" + c, "S-" + c]
    args += ["^" + c for c in "abcxyzABZ@[\\]^_?-126 "] + ["^", "^M-a", "^C-a", "^^^"]
    args += ["0x0", "0x1", "0x0d", "0x1b", "0x1f", "0x20", "0x41", "0x7e", "0x7f", "0x80",
             "0x9f", "0xa0", "0xad", "0xe9", "0x300", "0x378", "0x3b1", "0x4e2d", "0x2028",
             "0x200b", "0xd800", "0xdfff", "0xe000", "0xfffd", "0xffff", "0x1f600", "0x10e000",
             "0x10f000", "0x10fffd", "0x10ffff", "0x110000", "0x0x41", "0x0x", "0x", "0xg",
             "0x-1", "0x-41", "0x+41", "0x 41", "0x41zz", "0x100000041", "0X41", "0x7FFFFFFF"]
    for ch in ("é", "α", "中", "😀", "\u0301", "\u00a0", "\u0085", "\u2028", "\ue000",
               "\U0010f000"):
        args += [ch, "M-" + ch, "C-" + ch, "S-" + ch, "C-M-" + ch, ch + ch, ch + "a"]
    args += ["User0", "User1", "User999", "User1000", "User-1", "user0", "User 7", "User5abc",
             "User4294967296", "User", "Userx"]
    args += ["enter", "ENTER", "f1", "kp1", "Kp/", "c-a", "m-x", "s-up", "C-m-S-Up", "bspace",
             "pgup", "PGDN", "insert", "DELETE", "btab", "escape", "space", "tab"]
    args += ["", "hello world", "C-", "--", "-", "a-b", "-a", "x-", "X-a", "Mouse", "None",
             "none", "Any", "ANY", "FocusIn", "FocusOut", "PasteStart", "PasteEnd", "Unknown",
             "Invalid", "MouseDown1Pane", "M-MouseUp2Status", "WheelUpPane", "DoubleClick1Border",
             "F13", "KP10", " Enter", "Enter ", "\x01", "\t", "\x1b", "\x7f", "C-\x7f",
             "M-\x7f", "\x1b[A", "x" * 300, "ab;", "C-;", "M-;", ";;", "\\;"]
    return args


KEY_ARGS = key_arguments()


def _batches(items: list[str], size: int) -> list[list[str]]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def _with_marks(batch: list[str]) -> list[str]:
    out = [MARK]  # also keeps a key that looks like a flag ("-a") from being the first argument
    for arg in batch:
        out += [arg, MARK]
    return out


# -- tests -----------------------------------------------------------------------------------------

def test_argument_list_is_large() -> None:
    assert len(KEY_ARGS) >= 100


@pytest.mark.parametrize("window", list(MODES))
def test_send_keys_matches_tmux(tmux: Tmux, window: str) -> None:
    _compare_send_keys(tmux, window, MODES[window][1])


@pytest.mark.parametrize("window", EXTENDED)
def test_send_keys_csi_u_matches_tmux(tmux: Tmux, window: str) -> None:
    try:
        tmux.ok("set-option", "-s", "extended-keys-format", "csi-u")
        _compare_send_keys(tmux, window, dict(MODES[window][1], extended_format=FORMAT_CSI_U))
    finally:
        tmux.ok("set-option", "-s", "extended-keys-format", "xterm")


def _compare_send_keys(tmux: Tmux, window: str, modes: dict) -> None:
    mismatches = []
    for batch in _batches(KEY_ARGS, 150):
        args = _with_marks(batch)
        got = tmux.send(window, [], args)
        want = send_keys_bytes(args, **modes)
        parts = got.split(MARK.encode())
        assert parts[0] == b"" and parts[-1] == b"", got[:200]
        assert len(parts) - 2 == len(batch), (len(parts), len(batch))
        for arg, part in zip(batch, parts[1:-1], strict=True):
            if part != send_keys_bytes([arg], **modes):
                mismatches.append((arg, part, send_keys_bytes([arg], **modes)))
        if got != want and not mismatches:
            mismatches.append(("<whole batch>", got, want))
    assert not mismatches, mismatches[:30]


@pytest.mark.parametrize("window", ["normal", "both"])
def test_send_keys_literal_matches_tmux(tmux: Tmux, window: str) -> None:
    modes = MODES[window][1]
    for batch in _batches(KEY_ARGS, 200):
        args = _with_marks(batch)
        got = tmux.send(window, ["-l"], args)
        assert got == send_keys_bytes(args, literal=True, **modes)


def test_send_keys_hex_matches_tmux(tmux: Tmux) -> None:
    args = [f"{i:02x}" for i in range(256)] + [
        "41", "zz", "100", "-1", "0x41", " 41", "+7e", "-0", "0x", "", "41 ", "0X42", "00043",
        "-", "+", "0x 4", "4g", "ff", "1ff", "\t7a", "0x0x1", "-0x0", "7FFFFFFFFFFFFFFFFFFF"]
    args = ["2d"] + args  # a first argument that is not flag-like
    p = tmux.run("send-keys", "-t", "k:normal", "-H", *args)
    assert p.returncode == 0 and p.stderr == b"", p  # tmux has no error for bad -H input
    tmux.ok("send-keys", "-t", "k:normal", END)
    data = wait_for(lambda: (d := tmux.received("normal")).endswith(END.encode()) and d,
                    "hex END")
    want = send_keys_bytes(args, hex_input=True)
    assert data[-len(END) - len(want):-len(END)] == want
    # -H wins over -l.
    got = tmux.send("normal", ["-H", "-l"], ["2d", "41", "Enter"])
    assert got == send_keys_bytes(["2d", "41", "Enter"], hex_input=True, literal=True) == b"-A"


def test_backspace_option_matches_tmux(tmux: Tmux) -> None:
    args = _with_marks(["BSpace", "M-BSpace", "C-BSpace", "S-BSpace", "C-M-BSpace"])
    ctrl_h = string_to_key("C-h")
    try:
        tmux.ok("set-option", "-s", "backspace", "C-h")
        got = tmux.send("normal", [], args)
        assert got == send_keys_bytes(args, backspace=ctrl_h)
        got = tmux.send("extended", [], args)
        assert got == send_keys_bytes(args, backspace=ctrl_h, extended_keys=1)
        got = tmux.send("extended2", [], args)
        assert got == send_keys_bytes(args, backspace=ctrl_h, extended_keys=2)
    finally:
        tmux.ok("set-option", "-s", "backspace", "C-?")
    # Set explicitly, C-? is the key ? with Ctrl (the default is the byte 0x7f itself).
    ctrl_q = string_to_key("C-?")
    for window in ("normal", "extended2"):
        got = tmux.send(window, [], args)
        assert got == send_keys_bytes(args, backspace=ctrl_q, **MODES[window][1])


# -- names: bind-key + list-keys -----------------------------------------------------------------

_DQUOTED = set(" #';${}%")
_SQUOTED = set(' "')


def args_escape(s: str) -> str:
    """tmux 3.7b arguments.c args_escape, for the printable names key_to_string gives."""
    if not s:
        return "''"
    quotes = '"' if any(c in _DQUOTED for c in s) else "'" if any(c in _SQUOTED for c in s) else ""
    if s[0] != " " and len(s) == 1 and (quotes or s[0] == "~"):
        return "\\" + s
    out = []
    for i, c in enumerate(s):
        if ord(c) > 0x7F:
            out.append(c)
        elif c == "$" and i < len(s) - 1:
            nxt = s[i + 1]
            out.append("\\$" if (nxt.isascii() and nxt.isalpha()) or nxt in "_{" else "$")
        elif c == "\\" or (c == '"' and quotes == '"'):
            out.append("\\" + c)
        elif c.isprintable():
            out.append(c)
        else:
            out.append(f"\\{ord(c):03o}")
    esc = "".join(out)
    if quotes == "'":
        return f"'{esc}'"
    if quotes == '"':
        return f'"\\{esc}"' if esc.startswith("~") else f'"{esc}"'
    return "\\" + esc if esc.startswith("~") else esc


def config_quote(s: str) -> str:
    if "'" not in s:
        return f"'{s}'"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'


def name_arguments() -> list[str]:
    names = [a for a in KEY_ARGS if a and a.isprintable() and len(a) < 50 and "\n" not in a]
    names += [m + n for n in ("MouseDown1Pane", "WheelDownStatusLeft", "TripleClick11Border",
                              "SecondClick2StatusDefault", "MouseDragEnd3StatusRight")
              for m in ("", "C-", "M-S-")]
    names += [f"User{n}" for n in (2, 10, 500, 998)]
    return names


def test_key_names_match_tmux(tmux: Tmux) -> None:
    # tmux gives "0x20".."0x7f" a packed UTF-8 key code distinct from the plain ASCII key (so
    # list-keys prints "0x7f" as \177, not C-?); hmux has a key of its own for them as well.
    names = name_arguments()
    conf = tmux.dir / "names.conf"
    conf.write_text("".join(f"bind-key -T n{i} -- {config_quote(n)} display-message x\n"
                            for i, n in enumerate(names)))
    p = tmux.run("source-file", str(conf))
    errors = {m.group(1) for m in re.finditer(rb"unknown key: (.*)", p.stderr + p.stdout)}
    listing = tmux.ok("list-keys").decode("utf-8", "surrogateescape")
    printed = {}
    for line in listing.split("\n"):  # not splitlines(): a key may be U+2028
        m = re.match(r"bind-key +-T n(\d+) +(.*?) +display-message x$", line)
        if m:
            printed[int(m.group(1))] = m.group(2)
    assert len(printed) > 900
    mismatches = []
    for i, name in enumerate(names):
        key = string_to_key(name)
        if key in (KEYC_UNKNOWN, KEYC_NONE):
            if i in printed or name.encode() not in errors:
                mismatches.append((name, "hmux: unknown", printed.get(i)))
        elif printed.get(i) != args_escape(key_to_string(key)):
            mismatches.append((name, args_escape(key_to_string(key)), printed.get(i)))
    assert not mismatches, mismatches[:30]
