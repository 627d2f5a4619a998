"""Oracle tests: the engine must capture exactly what the tmux oracle captures for the same bytes.

Every case is written to a file and ``cat`` into its own tmux session (one server for the whole
module, output post-processing off so the pane sees the bytes unchanged). A window-rename
sequence appended after the case marks the point where tmux has parsed everything. Each test
then runs ``capture-pane -p`` with several flag sets and ``display -p`` for the state variables
and compares them with the engine fed the same bytes (whole, and split at awkward places).
"""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from engines import known_differences, use_engines

from hmux_core.screen import new_screen

use_engines(globals())

from oracle import ORACLE as TMUX  # noqa: E402

MARK = b"\033kHMUXDONE\033\\"
E = b"\033"


def _lines(*parts: bytes) -> bytes:
    return b"\r\n".join(parts)


def _rainbow() -> bytes:
    out = []
    for i, ch in enumerate(b"the quick brown fox jumps over the lazy dog " * 3):
        out.append(b"\033[38;5;%dm%c" % (16 + (i * 7) % 216, ch))
    return b"".join(out) + b"\033[0m\r\n"


def _syntax() -> bytes:
    out = []
    for n in range(30):
        toks = [b"def", b"func_%d" % n, b"(", b"arg", b")", b":", b"return", b"42"]
        line = b"".join(
            b"\033[38;2;%d;%d;%dm%s " % ((n * 37 + i * 11) % 256, (i * 53) % 256, 200, t)
            for i, t in enumerate(toks)
        )
        out.append(b"\033[38;5;242m%4d \033[0m\xe2\x94\x82 " % n + line + b"\033[0m")
    return b"\r\n".join(out)


CASES: dict[str, tuple[bytes, int, int, int]] = {
    # name: (bytes, cols, rows, history_limit)
    "plain": (b"hello world\r\nsecond line\r\n", 80, 24, 2000),
    "trailing_spaces": (b"abc   \r\ndef\r\n   ghi   \r\n\r\n  \r\nend", 80, 24, 2000),
    "lf_only": (b"one\ntwo\nthree\rX", 80, 24, 2000),
    "long_wrap": (b"x" * 200 + b"\r\n" + b"y" * 80 + b"z\r\n" + b"w" * 80, 80, 24, 2000),
    "exact_width": (b"a" * 80 + b"\r\n" + b"b" * 80 + b"c", 80, 24, 2000),
    "sgr_attrs": (
        b"\033[1mbold\033[22m \033[2mdim\033[0m \033[3mital\033[23m \033[4munder\033[24m "
        b"\033[5mblink\033[25m \033[7mrev\033[27m \033[8mhid\033[28m \033[9mstrike\033[29m "
        b"\033[53mover\033[55m \033[1;3;4mmulti\033[0m end",
        80,
        24,
        2000,
    ),
    "sgr_16": (
        b"".join(b"\033[%dm%d" % (30 + i, i) for i in range(8))
        + b"\033[39m|"
        + b"".join(b"\033[%dm%d" % (40 + i, i) for i in range(8))
        + b"\033[49m|"
        + b"".join(b"\033[%dm%d" % (90 + i, i) for i in range(8))
        + b"".join(b"\033[%dm%d" % (100 + i, i) for i in range(8))
        + b"\033[0mX",
        80,
        24,
        2000,
    ),
    "sgr_256": (
        b"".join(b"\033[38;5;%d;48;5;%dmc" % (i, 255 - i) for i in range(0, 256, 9))
        + b"\033[38;5;300mbad\033[0m",
        80,
        24,
        2000,
    ),
    "sgr_rgb": (
        b"\033[38;2;255;0;0mred\033[38;2;0;255;0mgreen\033[48;2;1;2;3mbg\033[38;2;300;1;1mbad"
        b"\033[0m plain",
        80,
        24,
        2000,
    ),
    "sgr_colon": (
        b"\033[38:2::255:0:0mA\033[38:2:1:2:3mB\033[38:5:200mC\033[4:3mD\033[4:0mE"
        b"\033[58:2::1:2:3mF\033[58:5:9mG\033[59mH\033[4:2mI\033[21mJ\033[48:5:17mK\033[0mL",
        80,
        24,
        2000,
    ),
    "sgr_reset_forms": (
        b"\033[31;1mA\033[mB\033[32;mC\033[;4mD\033[0;0mE\033[7m\r\nnext\033[0m",
        80,
        24,
        2000,
    ),
    "sgr_across_lines": (b"\033[31mred1\r\nred2\033[0m\r\nplain\033[44m\r\nbg", 80, 24, 2000),
    "cjk": ("中文字符测试 mixed 日本語 한국어\r\nあいう".encode(), 80, 24, 2000),
    "cjk_last_column": (
        b"a" * 79 + "中".encode() + b"b\r\n" + b"c" * 78 + "文".encode(),
        80,
        24,
        2000,
    ),
    "cjk_overwrite": ("中文字\r".encode() + b"a\033[3Gb\033[6G\xe5\xad\x97x", 80, 24, 2000),
    "emoji_zwj": ("A👨\u200d👩\u200d👧B tail\r\n👍🏽 ok".encode(), 80, 24, 2000),
    "emoji_vs16": ("❤️ heart ✔️ x ☺️y".encode(), 80, 24, 2000),
    "combining": ("e\u0301 a\u0308 n\u0303 x\u0301\u0302\u0303".encode(), 80, 24, 2000),
    "scroll_region": (
        b"\033[5;10r\033[10;1H" + b"".join(b"line%d\r\n" % i for i in range(20)) + b"\033[rtop",
        80,
        24,
        2000,
    ),
    # apt's progress bar: a region from the top, the last line kept for the bar; the lines
    # scrolled off the region's top go into history (LF, IND, NEL, VT and FF alike)
    "scroll_region_top": (
        b"\033[1;23r\033[23;1H" + b"".join(b"line%d\r\n" % i for i in range(30))
        + b"\033Dind\033Enel\x0bvt\x0cff\r\n\0337\033[24;1HProgress: [ 40%]\0338more",
        80,
        24,
        2000,
    ),
    # lines longer than the pane arriving at its bottom (the python engine's batch path): rows
    # flagged wrapped, an exact multiple of the width not flagged on its last row
    "wrapped_lines": (
        b"\r\n" * 8 + b"".join(b"%d:" % n + b"w" * n + b"\r\n" for n in range(0, 70, 3))
        + b"\033[32m" + b"g" * 37 + b"\r\n" + b"h" * 38 + b"\033[0m\r\nend",
        20,
        6,
        2000,
    ),
    # a line feed after text that reached the last column keeps the wrap pending
    "lf_after_wrap": (b"x" * 80 + b"\nb\r\n" + b"y" * 80 + b"\x0bz", 80, 24, 2000),
    "scroll_region_ri": (b"\033[3;6r\033[3;1HA\r\nB\r\nC\033[3;1H\033M\033MX\033[r", 80, 24, 2000),
    "alt_1049": (
        b"main1\r\nmain2\033[31m\033[?1049halt text\r\nalt2\033[0m\033[?1049lback",
        80,
        24,
        2000,
    ),
    "alt_47_1047": (
        b"m1\r\nm2\033[?47haltA\033[?47lB\033[?1047haltC\033[2J\033[?1047lD",
        80,
        24,
        2000,
    ),
    "alt_no_history": (
        b"before\r\n\033[?1049h" + b"".join(b"alt%d\r\n" % i for i in range(40)) + b"\033[?1049l",
        80,
        24,
        2000,
    ),
    "insert_mode": (
        b"abcdef\r\033[4hXY\033[4lZ\r\n12345\033[3G\033[4h\xe4\xb8\xad\033[4l",
        80,
        24,
        2000,
    ),
    "tabs": (
        b"a\tb\tc\r\n\033[3g\033[5G\033H\033[20G\033H\ra\tb\tc\td\r\n\tx\033[Zy",
        80,
        24,
        2000,
    ),
    "ed_variants": (
        b"".join(b"row%02d %s\r\n" % (i, b"x" * 40) for i in range(10))
        + b"\033[3;5H\033[0J\033[1;3H\033[1J",
        80,
        24,
        2000,
    ),
    "ed2_history": (
        b"".join(b"r%d\r\n" % i for i in range(5)) + b"\033[2Jafter\033[Hhome",
        80,
        24,
        2000,
    ),
    "ed3": (b"".join(b"h%d\r\n" % i for i in range(30)) + b"\033[3Jx", 80, 24, 2000),
    "el_variants": (
        b"0123456789\033[5G\033[K\r\n0123456789\033[5G\033[1K\r\n0123456789\033[5G\033[2Kx",
        80,
        24,
        2000,
    ),
    "el_bg": (
        b"\033[41m\033[K\033[0m\033[10Cx\r\nab\033[44m\033[Kcd\033[0m\033[20Cy\r\n\033[42m\033[2K\033[0m",
        80,
        24,
        2000,
    ),
    "bg_newline_scroll": (
        b"\033[45m" + b"".join(b"l%d\r\n" % i for i in range(30)) + b"\033[0m\033[5Cz",
        80,
        24,
        2000,
    ),
    "save_restore": (b"abc\0337\033[5;5Hxyz\0338D\033[s\033[10;10HQ\033[uR", 80, 24, 2000),
    "progress_cr": (b"progress 10%\rprogress 50%\rprogress 100%\r\ndone", 80, 24, 2000),
    "seq_200": (b"".join(b"%d\r\n" % i for i in range(1, 201)), 80, 24, 2000),
    "dcs_apc": (
        b"\033Pq#0;2;0;0;0#1!14@\033\\visible\033_Gpayload\033\\after\033^pm\033\\\033Xsos\033\\end",
        80,
        24,
        2000,
    ),
    "ich_dch_ech": (
        b"0123456789\033[3G\033[2@\r\n0123456789\033[3G\033[2P\r\n0123456789\033[3G\033[2X"
        b"\r\n0123456789\033[75G\033[10@\r\nabcdefghij\033[5G\033[100P",
        80,
        24,
        2000,
    ),
    "il_dl": (
        b"".join(b"line%d\r\n" % i for i in range(10)) + b"\033[3;1H\033[2L\033[6;1H\033[3M",
        80,
        24,
        2000,
    ),
    "il_dl_region": (
        b"".join(b"line%d\r\n" % i for i in range(12))
        + b"\033[2;8r\033[4;1H\033[2L\033[6;1H\033[M\033[r",
        80,
        24,
        2000,
    ),
    "su_sd": (
        b"".join(b"s%d\r\n" % i for i in range(8)) + b"\033[2S\033[1T\033[3;6r\033[2S\033[r",
        80,
        24,
        2000,
    ),
    "origin_mode": (b"\033[5;15r\033[?6h\033[2;3HX\033[30;1HY\033[?6lZ", 80, 24, 2000),
    "decawm_off": (b"\033[?7l" + b"x" * 100 + b"\033[?7h\r\n" + b"y" * 85, 80, 24, 2000),
    "backspace_wrap": (b"a" * 80 + b"b\b\b\bc\r\n\bz", 80, 24, 2000),
    "rep": (b"a\033[5b\r\nxy\033[3b\033[3b", 80, 24, 2000),
    "acs": (b"\033(0lqqk\r\nx  x\r\nmqqj\033(B text \016abc\017def", 80, 24, 2000),
    "ris": (b"before\r\nmore\033[31m\033c after", 80, 24, 2000),
    "modifyotherkeys": (
        b"\033[>4;2mnot underlined\033[>4m \033[?6n \033[?1r x\033[!p y",
        80,
        24,
        2000,
    ),
    "history_small": (b"".join(b"n%d\r\n" % i for i in range(100)), 80, 24, 10),
    "history_none": (b"".join(b"n%d\r\n" % i for i in range(40)), 80, 24, 0),
    "rainbow": (_rainbow(), 80, 24, 2000),
    "syntax": (_syntax(), 80, 24, 2000),
    "invalid_utf8": (b"a\xffb\xc3c\xe4\xb8d\xc3\xa9e\xed\xa0\x80f\xc2\x85g", 80, 24, 2000),
    "osc_title_path": (
        b"\033]2;my title\007\033]7;file://host/tmp/a b\033\\text\033]0;second\033\\",
        80,
        24,
        2000,
    ),
    "decaln": (b"\033#8\033[5;5Hhi", 20, 6, 2000),
    "small_pane_cjk": ("中文字符测试中文字符测试\r\nabcdefghijklmnop".encode(), 10, 5, 2000),
    "wide_pane": (b"w" * 250 + b"\r\n\033[31m" + b"r" * 200, 200, 10, 2000),
    "c0_inside_csi": (b"ab\033[3\r1mX\033[0mY\033[2\x08CZ", 80, 24, 2000),
    "cuf_pending_wrap": (b"a" * 80 + b"\033[C!\r\n" + b"b" * 80 + b"\033[A?\033[B#", 80, 24, 2000),
    "cup_clamp": (b"\033[100;200HX\033[0;0HY\033[5GZ\033[3dW", 80, 24, 2000),
    "zwj_then_ascii": ("x👨\u200dB\u00e9 y".encode(), 80, 24, 2000),
    "ech_wide": ("中文字\r\033[2X|".encode(), 80, 24, 2000),
    "ris_keeps_saved_origin": (b"\033[?6h\0337\033[?6l\033cx\0338y", 80, 24, 2000),
    "one_column_wide": ("中ab\r\na中b\r\n中文\r\nab中\r\n".encode(), 1, 8, 2000),
    "two_columns_wide": ("中文a中b\r\nx中\r\n\033[?7l中文".encode(), 2, 8, 2000),
    "cursor_style_modes": (
        b"\033[4 q\033[?1h\033=\033[?1000h\033[?1006h\033[?2004h\033[?1004h\033[?25l\033[?12h",
        80,
        24,
        2000,
    ),
    # tmux 3.4-3.7b: hyperlinks, prompt marks, progress, tabs, combining, widths
    "hyperlinks": (
        b"\033]8;id=a;http://x/\033\\one\033]8;;\033\\ \033]8;;file:///t\007two\033]8;;\007 "
        b"\033]8;id=a;http://x/\007\033[1mthree\033[0mfour\033[mfive\r\n"
        b"\033]8;;http://y/\007wrapped " + b"w" * 80 + b"\033]8;;\007\r\n"
        b"\033]8;id=a;http://x/\033\\again\033]8;;\033\\ \033]8;x;bad\007\033]8\007end",
        80,
        24,
        2000,
    ),
    "prompt_marks": (
        b"".join(b"\033]133;A\007$ cmd%d\r\n\033]133;C\007out%d\r\nmore\r\n" % (i, i)
                 for i in range(12))
        + b"\033]133;D;0\007\033]133;A;k=s\007$ ",
        40,
        10,
        2000,
    ),
    # A command with no output: its output mark and the next prompt's mark on one line.
    "prompt_marks_one_line": (
        b"\033]133;A\007$ true\r\n\033]133;C\007\033]133;D;0\007\033]133;A\007$ x\033]133;A\007"
        b"\r\nab\033]133;C\007\033]133;A\007cd",
        40,
        5,
        2000,
    ),
    "progress": (b"\033]9;4;1;50\007a\033]9;4;3\007b\033]9;4;1;150\007c\033]9;2;x\007", 80, 24,
                 2000),
    "progress_paused": (b"\033]9;4;4;42\033\\x\033]9;4;2;7;\007y", 80, 24, 2000),
    # cat of a tab-separated file filling the screen: lines after the first scrolled-in row
    # take the ghostty engine's batch path, the ones before it the per-tab one
    "tabs_flood": (
        b"".join(b"%d\tname_%d\t\t%s\tend\r\n" % (i, i, b"x" * (i % 13)) for i in range(40))
        + b"\033[3g\033[30G\033H\r" + b"".join(b"a\tb%d\tc\r\n" % i for i in range(12)) + b"last\t!",
        60,
        10,
        2000,
    ),
    # the same in a narrow pane: tabbed lines that wrap, a tab at the last column, coloured text
    "tabs_flood_narrow": (
        b"\r\n" * 6 + b"".join(b"%d\t%s\t\tz\r\n" % (i, b"y" * (i % 17)) for i in range(30))
        + b"\033[31mred\tred\033[0m\r\n" + b"x" * 19 + b"\tw\r\n" + b"\t" * 5 + b"end",
        20,
        6,
        2000,
    ),
    # grep --color's lines (SGR and EL between the words) arriving at the bottom, and an EL
    # in a coloured background, which colours the rest of its row
    "el_in_lines": (
        b"\r\n" * 6 + b"".join(b"f.c:%d:\033[01;31m\033[Kmatch\033[m\033[K rest %s\r\n"
                               % (i, b"z" * (i % 9)) for i in range(20))
        + b"\033[0Kplain\033[K\r\n\033[44mblue\033[K\033[0m\r\nlast\r\n",
        30,
        6,
        2000,
    ),
    # CJK and emoji lines arriving at the bottom (the python engine's batch path), coloured
    # ones, and one too wide for the pane
    "wide_lines": (
        b"\r\n" * 6 + b"".join(b"%d:" % i + "\u4e2d\u6587 \u2705 \u00e9\u5b57".encode()
                               + "\u5b57".encode() * (i % 6) + b"\r\n" for i in range(16))
        + "\033[31m\u7ea2\u8272\033[0m ok\r\n".encode() + "\u5b57".encode() * 12 + b"\r\nend",
        20,
        6,
        2000,
    ),
    # coloured lines longer than the pane (a colour changing across the wrap, EL after it)
    "wrapped_sgr_lines": (
        b"\r\n" * 6
        + b"".join(b"%d \033[3%dmword\033[0m %s\033[1;32m%s\033[m\033[K end\r\n"
                   % (i, i % 8, b"x" * (i % 11), b"y" * (i * 2 % 23)) for i in range(18))
        + b"last",
        20,
        6,
        2000,
    ),
    "tab_overwrite": (
        b"a\tb\r\nc\t\rX\r\n\033[44m\033[K\033[0m\tdone\r\n\033[5G\t|\r\n" + b"\t" * 12 + b"!",
        80,
        24,
        2000,
    ),
    "emoji_skin_flags": (
        "a👍🏽b 🇯🇵 🇺🇸🇬🇧 ✌🏿 🏽x ❤️ ☺️ ✔︎ 1️⃣ \u3164k\r\n".encode()
        + "\u1100\u1161\u11a8 \u1161 \u11a8z e\u0301\u0302 \u200dq".encode(),
        80,
        24,
        2000,
    ),
    "combining_at_edge": (
        b"x" * 79 + "❤\ufe0f".encode() + b"y\r\n" + "\u0301a\r\n".encode()
        + b"ab\xc2\x85c \xe2\x80\x8b!",
        80,
        24,
        2000,
    ),
    "rep_unicode": ("é\033[3b中\033[2b\033(0q\033[4b\033(B".encode(), 80, 24, 2000),
}

FLAGS: list[tuple[str, ...]] = [
    (),
    ("-e",),
    ("-J",),
    ("-N",),
    ("-S", "-"),
    ("-e", "-S", "-"),
    ("-J", "-S", "-"),
    ("-N", "-e", "-S", "-"),
    ("-C", "-e"),
    ("-S", "-5", "-E", "3"),
    ("-S", "2", "-E", "-3"),
    ("-S", "-3", "-E", "-1"),
    ("-S", "-100", "-E", "-100"),
    ("-e", "-S", "-4", "-E", "-2"),
    ("-F", "-L", "-S", "-"),
    ("-H", "-S", "-"),
    ("-T", "-e"),
]

STATE = (
    "#{cursor_x}|#{cursor_y}|#{alternate_on}|#{insert_flag}|#{keypad_cursor_flag}|#{keypad_flag}|"
    "#{origin_flag}|#{wrap_flag}|#{mouse_standard_flag}|#{mouse_all_flag}|#{mouse_sgr_flag}|"
    "#{history_size}|#{scroll_region_upper}|#{scroll_region_lower}|#{cursor_flag}|#{pane_tabs}|"
    "#{alternate_saved_x}|#{alternate_saved_y}|#{cursor_character}|#{pane_pb_state}|"
    "#{pane_pb_progress}"
)
PB_STATES = ("hidden", "normal", "error", "indeterminate", "paused")


def engine_state(s) -> str:
    def b(v: bool) -> str:
        return "1" if v else "0"

    return "|".join(
        [
            str(s.cursor_x),
            str(s.cursor_y),
            b(s.alternate_on),
            b(s.insert_mode),
            b(s.keypad_cursor),
            b(s.keypad),
            b(s.origin_mode),
            b(s.wrap_mode),
            b(s.mouse_standard),
            b(s.mouse_any),
            b(s.mouse_sgr),
            str(s.history_size),
            str(s.scroll_region_upper),
            str(s.scroll_region_lower),
            b(s.cursor_visible),
            ",".join(map(str, s.tabs())),
            str(s.alternate_saved_x),
            str(s.alternate_saved_y),
            s.cursor_character(),
            PB_STATES[s.progress_state],
            str(s.progress),
        ]
    )


class Tmux:
    def __init__(self, tmpdir: str) -> None:
        self.tmpdir = tmpdir
        self.env = dict(os.environ, TMUX_TMPDIR=tmpdir, LANG="C.UTF-8", LC_ALL="C.UTF-8")
        self.env.pop("TMUX", None)
        self.started: set[str] = set()

    def run(self, *args: str, check: bool = True) -> bytes:
        p = subprocess.run(
            [TMUX, "-L", "hmuxoracle", "-f", "/dev/null", *args],
            env=self.env,
            capture_output=True,
            timeout=20,
        )
        if check and p.returncode != 0:
            raise RuntimeError(f"tmux {args}: {p.stderr!r}")
        return p.stdout

    def kill(self) -> None:
        self.run("kill-server", check=False)


SEP = "@@HMUXSEP@@"


def _wait_done(t: Tmux, names: set[str], timeout: float = 30) -> None:
    """Poll (one tmux call per round) until every session's window was renamed by MARK."""
    deadline = time.monotonic() + timeout
    pending = set(names)
    while pending:
        out = t.run("list-windows", "-a", "-F", "#{session_name} #{window_name}").decode()
        for line in out.splitlines():
            sess, _, wname = line.partition(" ")
            if wname == "HMUXDONE":
                pending.discard(sess)
        if pending:
            assert time.monotonic() < deadline, f"tmux never finished: {pending}"
            time.sleep(0.05)


def start_cases(t: Tmux, cases: dict) -> None:
    """Create one session per case, a few tmux invocations for all of them (once per case:
    the tests run again for every engine; a command line has a length limit).

    A case with its own history-limit is created with it and keeps it as its session's option,
    all before any output is read. tmux 3.7b applies any history-limit change to every existing
    pane (and one that is exactly full loses a line), so no history-limit is set once cases have
    run: those cases come first, in the first invocation."""
    cases = {k: v for k, v in cases.items() if k not in t.started}
    if not cases:
        return
    t.started.update(cases)
    d = t.tmpdir
    names = sorted(cases, key=lambda n: cases[n][3] == 2000)
    for first in range(0, len(names), 30):
        args: list[str] = []
        for name in names[first:first + 30]:
            data, cols, rows, hl = cases[name]
            f = os.path.join(d, f"case-{name}")
            with open(f, "wb") as fh:
                fh.write(data)
            cmd = f"stty -opost -echo; cat {f}; cat {os.path.join(d, 'mark')}; exec sleep 100000"
            if hl == 2000:
                args += ["new-session", "-d", "-s", name, "-x", str(cols), "-y", str(rows), cmd,
                         ";"]
                continue
            # created with its limit (0 means no history at all), kept by its session
            args += ["set", "-g", "history-limit", str(hl), ";"]
            args += ["new-session", "-d", "-s", name, "-x", str(cols), "-y", str(rows), cmd, ";"]
            args += ["set", "-t", name, "history-limit", str(hl), ";"]
            args += ["set", "-g", "history-limit", "2000", ";"]
        t.run(*args[:-1])
    _wait_done(t, set(cases))


def tmux_results(
    t: Tmux, name: str, flags_list: list[tuple[str, ...]], extra: list[str]
) -> list[bytes]:
    """All captures plus display formats for one pane, from one tmux invocation."""
    args: list[str] = []
    for flags in flags_list:
        args += ["capture-pane", "-p", "-t", name, *flags, ";", "display", "-p", SEP, ";"]
    for fmt in extra:
        args += ["display", "-p", "-t", name, fmt, ";", "display", "-p", SEP, ";"]
    out = t.run(*args[:-1])
    parts = out.split((SEP + "\n").encode())
    assert len(parts) == len(flags_list) + len(extra) + 1
    return parts[:-1]


@pytest.fixture(scope="module")
def tmux(tmp_path_factory):
    d = tmp_path_factory.mktemp("oracle")
    t = Tmux(str(d))
    t.run("-u", "new-session", "-d", "-s", "keep", "-x", "80", "-y", "24", "exec sleep 100000")
    t.run("set", "-g", "allow-rename", "on", ";", "set", "-g", "automatic-rename", "off")
    (d / "mark").write_bytes(MARK)
    start_cases(t, CASES)
    yield t
    t.kill()


def _capture_args(flags: tuple[str, ...], s) -> dict:
    kw: dict = {}
    it = iter(flags)
    for f in it:
        if f == "-e":
            kw["escapes"] = True
        elif f == "-J":
            kw["join"] = True
        elif f == "-N":
            kw["trailing"] = True
        elif f == "-C":
            kw["octal"] = True
        elif f == "-T":
            kw["used_only"] = True
        elif f == "-L":
            kw["line_numbers"] = True
        elif f == "-F":
            kw["line_flags"] = True
        elif f == "-H":
            kw["hyperlinks"] = True
        elif f in ("-S", "-E"):
            v = next(it)
            key = "start" if f == "-S" else "end"
            if v == "-":
                kw[key] = -s.history_size if f == "-S" else s.rows - 1
            else:
                kw[key] = int(v)
    return kw


def engine_capture(s, flags: tuple[str, ...]) -> bytes:
    lines = s.capture(**_capture_args(flags, s))
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")


def _feed_split(data: bytes, cols: int, rows: int, hl: int, step: int):
    s = new_screen(cols, rows, hl)
    for i in range(0, len(data), step):
        s.feed(data[i : i + step])
    return s


@pytest.mark.parametrize("name", list(CASES))
def test_oracle(tmux, name):
    data, cols, rows, hl = CASES[name]
    s = new_screen(cols, rows, hl)
    s.feed(data)
    res = tmux_results(tmux, name, FLAGS, [STATE])
    for flags, want in zip(FLAGS, res, strict=False):
        assert engine_capture(s, flags) == want, f"capture {flags}"
    assert engine_state(s) == res[-1].decode("utf-8", "replace").rstrip("\n")
    # The same bytes split at arbitrary points (inside UTF-8 and escape sequences) give the
    # same screen.
    for step in (1, 3, 7):
        split = _feed_split(data, cols, rows, hl, step)
        assert split.capture(escapes=True, start=-split.history_size) == s.capture(
            escapes=True, start=-s.history_size
        ), f"split {step}"
        assert (split.cursor_x, split.cursor_y) == (s.cursor_x, s.cursor_y)


def test_oracle_titles(tmux):
    s = new_screen(80, 24)
    s.feed(CASES["osc_title_path"][0])
    title, path = tmux_results(tmux, "osc_title_path", [], ["#{pane_title}", "#{pane_path}"])
    assert title.strip() == s.title.encode() == b"second"
    assert path.strip() == s.path.encode()


TITLE_CASES = {
    "t_plain": b"\033]2;hello\007",
    "t_zero": b"\033]0;zero\033\\",
    "t_utf8": "\033]2;caf\u00e9 \u4e2d\007".encode(),
    "t_bad_utf8": b"\033]2;good\007\033]2;bad\xff\007",
    "t_del": b"\033]2;good\007\033]2;d\x7fel\007",
    "t_apc": b"\033]2;x\007\033_apc title\033\\",
    "t_stack": b"\033]2;one\007\033[22;0t\033]2;two\007\033[23;0t",
    "t_ctrl_inside": b"\033]2;a\x01b\tc\007",
    "t_can": b"\033]2;cancelled\x18",
    "t_esc_other": b"\033]2;then esc\033[1m",
}
PATH_CASES = {
    "p_plain": b"\033]7;file://host/tmp/x\007",
    "p_backslash": b"\033]7;/a\\b\007",
    "p_dollar": b"\033]7;/$HOME/${x}/$1/$\007",
    "p_utf8": "\033]7;/t\u00e9st\007".encode(),
    "p_bad": b"\033]7;/ok\007\033]7;/b\xffad\007",
}


def test_oracle_titles_and_paths(tmux, engine):
    cases = {name: (data, 80, 24, 2000) for name, data in {**TITLE_CASES, **PATH_CASES}.items()}
    start_cases(tmux, cases)
    differ = {}
    for name, (data, *_rest) in cases.items():
        s = new_screen(80, 24)
        s.feed(data)
        title, path = tmux_results(tmux, name, [], ["#{pane_title}", "#{pane_path}"])
        want = (title if name.startswith("t_") else path).decode().rstrip("\n")
        got = s.title if name.startswith("t_") else s.path
        if got != want:
            differ[name] = (got, want)
    # exactly the documented differences of this engine, no more and no fewer
    assert set(differ) == known_differences(engine, cases), differ


SEARCHES = [
    ("plain", "world", False, False),
    ("plain", "WORLD", False, True),
    ("plain", "WORLD", False, False),
    ("plain", "^sec.nd", True, False),
    ("plain", "SEC", True, True),
    ("plain", "l?ne", False, False),
    ("plain", "[st]econd", False, False),
    ("trailing_spaces", "ghi", False, False),
    ("trailing_spaces", "ghi$", True, False),
    ("cjk", "日本", False, False),
    ("seq_200", "19", False, False),
    ("plain", "nomatch", False, False),
]


def test_oracle_search(tmux):
    by_pane: dict[str, list] = {}
    for pane, pat, regex, ignore in SEARCHES:
        mod = (
            "C"
            + ("/" if regex or ignore else "")
            + ("r" if regex else "")
            + ("i" if ignore else "")
        )
        by_pane.setdefault(pane, []).append((f"#{{{mod}:{pat}}}", pat, regex, ignore))
    for pane, items in by_pane.items():
        data, cols, rows, hl = CASES[pane]
        s = new_screen(cols, rows, hl)
        s.feed(data)
        got = tmux_results(tmux, pane, [], [fmt for fmt, *_ in items])
        for (fmt, pat, regex, ignore), want in zip(items, got, strict=True):
            assert str(s.search(pat, regex, ignore)) == want.decode().strip(), (pane, fmt)


def test_oracle_alternate_capture(tmux):
    """capture-pane -a shows the saved main screen while the alternate screen is active."""
    data = b"main line\r\n\033[31mred\033[?1049halt line"
    start_cases(tmux, {"alt_a": (data, 80, 24, 2000)})
    s = new_screen(80, 24)
    s.feed(data)
    flags_list = [("-a",), ("-a", "-e"), ("-a", "-S", "-3")]
    for flags, want in zip(flags_list, tmux_results(tmux, "alt_a", flags_list, []), strict=False):
        kw = _capture_args(tuple(f for f in flags if f != "-a"), s)
        lines = s.capture(alternate=True, **kw)
        assert ("\n".join(lines) + "\n").encode() == want
