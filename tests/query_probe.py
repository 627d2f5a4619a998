"""Run inside a pane: send each query, read back what the terminal answers, write it down.

Every query is followed by DSR 5 (``CSI 5 n``), whose answer ``CSI 0 n`` marks the end of the
reply, so a query that gets no answer is recorded as empty rather than waited on.

    python query_probe.py OUTFILE
"""

from __future__ import annotations

import os
import select
import sys
import termios
import tty

QUERIES = [
    ("DA1", b"\x1b[c"), ("DA1 0", b"\x1b[0c"), ("DA1 1", b"\x1b[1c"),
    ("DA2", b"\x1b[>c"), ("DA2 0", b"\x1b[>0c"), ("DA2 1", b"\x1b[>1c"),
    ("XTVERSION", b"\x1b[>q"), ("XTVERSION 0", b"\x1b[>0q"), ("XTVERSION 1", b"\x1b[>1q"),
    ("CPR", b"\x1b[5;10H\x1b[6n"), ("CPR wrapped", b"\x1b[1;80Hxy\x1b[6n"),
    ("DECXCPR", b"\x1b[?6n"), ("DSR 5", b"\x1b[5n"),
    ("DECRQM private", b"\x1b[?25$p"), ("DECRQM ansi", b"\x1b[4$p"),
    ("DECRQSS", b"\x1bP$qm\x1b\\"), ("XTWINOPS 18", b"\x1b[18t"), ("XTWINOPS 14", b"\x1b[14t"),
    # tmux 3.4-3.7b: more DECRQM modes, synchronized output, themes, the cursor style
    ("DECRQM 2026", b"\x1b[?2026$p"), ("DECRQM 2026 on", b"\x1b[?2026h\x1b[?2026$p\x1b[?2026l"),
    ("DECRQM 2031", b"\x1b[?2031h\x1b[?2031$p\x1b[?2031l"), ("DECRQM 12", b"\x1b[?12$p"),
    ("DECRQM 12 set", b"\x1b[?12l\x1b[?12$p"), ("DECRQM 3", b"\x1b[?3$p"),
    ("DECRQM 1049", b"\x1b[?1049$p"), ("DECRQM 1006", b"\x1b[?1006h\x1b[?1006$p\x1b[?1006l"),
    ("DECRQM unknown", b"\x1b[?4242$p"), ("DECRQM ansi unknown", b"\x1b[20$p"),
    ("DSR 996", b"\x1b[?996n"), ("DECRQSS cursor", b"\x1bP$q q\x1b\\"),
    ("DECRQSS cursor set", b"\x1b[3 q\x1bP$q q\x1b\\\x1b[0 q"),
    ("XTWINOPS 15", b"\x1b[15t"), ("XTWINOPS 16", b"\x1b[16t"), ("XTWINOPS 19", b"\x1b[19t"),
    ("OSC 4 unset", b"\x1b]4;1;?\x07"),
    ("OSC 4 set", b"\x1b]4;1;rgb:12/34/56\x07\x1b]4;1;?\x07"),
    ("OSC 4 ST", b"\x1b]4;1;?\x1b\\"), ("OSC 4 two", b"\x1b]4;1;?;2;?\x07"),
    ("OSC 4 name", b"\x1b]4;3;red\x07\x1b]4;3;?\x07"),
    ("OSC 4 cmyk", b"\x1b]4;5;cmyk:0/1/1/0\x07\x1b]4;5;?\x07"),
    ("OSC 4 cmy", b"\x1b]4;6;cmy:0.5/0/0\x07\x1b]4;6;?\x07"),
    ("OSC 4 spaced name", b"\x1b]4;7; Violet Red \x07\x1b]4;7;?\x07"),
    ("OSC 4 r,g,b", b"\x1b]4;8;12,34,56\x07\x1b]4;8;?\x07"),
    ("OSC 4 bright", b"\x1b]4;9;#0a0b0c\x07\x1b]4;91;?\x07\x1b]4;9;?\x07"),
    ("OSC 4 bad", b"\x1b]4;9;rgb:zz/00/00\x07\x1b]4;9;?\x07"),
    ("OSC 10", b"\x1b]10;?\x07"), ("OSC 11", b"\x1b]11;?\x1b\\"), ("OSC 12", b"\x1b]12;?\x07"),
    ("OSC 52", b"\x1b]52;c;?\x07"), ("OSC 52 ST", b"\x1b]52;;?\x1b\\"),
    ("OSC 12 set", b"\x1b]12;#abcdef\x07\x1b]12;?\x07"),
    ("OSC 10 set", b"\x1b]10;rgb:0102/0304/0506\x07\x1b]10;?\x07"),
    ("OSC 11 set", b"\x1b]11;#ff0000\x07\x1b]11;?\x07"),
    ("OSC 110/111", b"\x1b]110\x07\x1b]111\x07\x1b]10;?\x07\x1b]11;?\x07"),
    ("XTGETTCAP", b"\x1bP+q544e\x1b\\"), ("kitty keys", b"\x1b[?u"),
    ("passthrough off", b"\x1bPtmux;\x1b\x1b[c\x1b\\"),
]
END = b"\x1b[0n"


def main(out: str) -> int:
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setraw(fd)
    lines = []
    try:
        for name, query in QUERIES:
            os.write(1, query + b"\x1b[5n")
            got = b""
            while not got.endswith(END):
                r, _, _ = select.select([fd], [], [], 5.0)
                if not r:
                    got += b"TIMEOUT"
                    break
                got += os.read(fd, 4096)
            lines.append(f"{name}: {got[: -len(END)] if got.endswith(END) else got!r}")
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    with open(out + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.rename(out + ".tmp", out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
