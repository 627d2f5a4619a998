"""Native emulator candidates measured in-process: speed and agreement with tmux 3.3a.

For each installed candidate (pyghostty, pyavt, vt100wasm) this feeds the workloads of
``bench/screen_throughput.py`` into a 200x50 terminal in 64 KiB chunks (best of three, MB/s),
then feeds every case of the screen oracle corpus (``tests/test_screen_oracle.py``) and compares
the visible text (trailing blanks stripped) and the cursor with hmux's python engine, which the
oracle tests check byte for byte against tmux 3.3a itself. The python engine is measured too.

    python bench/native_engines.py [--mib N]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from screen_throughput import CHUNK, COLS, HISTORY, ROWS, WORKLOADS  # noqa: E402

from hmux_core.screen.screen import Screen  # noqa: E402


def _ghostty():
    import pyghostty

    class G:
        def __init__(self, cols, rows, hist):
            from pyghostty._ffi import ffi, lib

            self.t = pyghostty.Terminal(cols, rows, hist)
            # Ghostty's default scrollback is 10 000 *bytes* (about one page of rows): give it
            # room for ``hist`` rows as hmux's engine does, or it keeps almost no history.
            need = (hist + 64) * (cols * 8 + 32) * 3 // 2
            lib.ghostty_terminal_set(self.t._t[0], lib.GHOSTTY_TERMINAL_OPT_SCROLLBACK_MAX_BYTES,
                                     ffi.new("size_t*", need))
            lib.ghostty_terminal_set(self.t._t[0], lib.GHOSTTY_TERMINAL_OPT_SCROLLBACK_MAX_LINES,
                                     ffi.new("size_t*", 0))

        def feed(self, b):
            self.t.feed(b)

        def lines(self):
            return self.t.text().split("\n")

        def cursor(self):
            x, y = self.t.cursor
            if self.t.get("cursor_pending_wrap", "bool"):
                x += 1
            return x, y

    return G


def _avt():
    import codecs

    import avt

    class A:
        def __init__(self, cols, rows, hist):
            self.vt = avt.Vt(cols, rows, scrollback_limit=hist)
            self.dec = codecs.getincrementaldecoder("utf-8")("replace")

        def feed(self, b):
            self.vt.feed_str(self.dec.decode(b))  # avt takes str: decoding is part of the cost

        def lines(self):
            return self.vt.text()

        def cursor(self):
            c = self.vt.cursor
            return c.col, c.row

    return A


def _wasm():
    import vt100wasm

    class W:
        def __init__(self, cols, rows, hist):
            self.s = vt100wasm.Screen(rows, cols, hist)

        def feed(self, b):
            self.s.process(b)

        def lines(self):
            return self.s.contents().split("\n")

        def cursor(self):
            return None  # not exposed by the binding

    return W


def _python():
    class P:
        def __init__(self, cols, rows, hist):
            self.s = Screen(cols, rows, hist)

        def feed(self, b):
            self.s.feed(b)

        def lines(self):
            return self.s.capture()

        def cursor(self):
            return self.s.cursor_x, self.s.cursor_y

    return P


CANDIDATES = {"python": _python, "pyghostty": _ghostty, "pyavt": _avt, "vt100wasm": _wasm}


def rate(cls, data: bytes) -> float:
    best = float("inf")
    for _ in range(3):
        e = cls(COLS, ROWS, HISTORY)
        gc.collect()
        t0 = time.perf_counter()
        for i in range(0, len(data), CHUNK):
            e.feed(data[i : i + CHUNK])
        best = min(best, time.perf_counter() - t0)
    return len(data) / best / 1e6


def norm(lines: list[str], rows: int) -> list[str]:
    out = [ln.rstrip() for ln in lines][:rows]
    return out + [""] * (rows - len(out))


def agreement(cls) -> tuple[int, int, list[str]]:
    from test_screen_oracle import CASES

    ok = 0
    bad = []
    for name, (data, cols, rows, hl) in CASES.items():
        ref = Screen(cols, rows, hl)
        ref.feed(data)
        e = cls(cols, rows, hl)
        try:
            e.feed(data)
            same = norm(e.lines(), rows) == norm(ref.capture(), rows)
            cur = e.cursor()
            if cur is not None and cur != (min(ref.cursor_x, cols), ref.cursor_y):
                same = False
        except Exception as exc:  # a candidate that raises fails the case
            same = False
            name = f"{name} ({type(exc).__name__})"
        if same:
            ok += 1
        else:
            bad.append(name)
    return ok, len(CASES), bad


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mib", type=float, default=8)
    args = ap.parse_args()
    size = int(args.mib * 1024 * 1024)
    data = {name: make(size) for name, make in WORKLOADS.items()}
    print(f"{COLS}x{ROWS}, history {HISTORY}, {args.mib:g} MiB per workload, MB/s (best of 3)")
    print(f"{'engine':10s} " + " ".join(f"{w:>12s}" for w in WORKLOADS) + "  oracle cases")
    for name, make in CANDIDATES.items():
        try:
            cls = make()
        except ImportError:
            print(f"{name:10s} not installed")
            continue
        rates = [rate(cls, d) for d in data.values()]
        ok, total, bad = agreement(cls)
        print(f"{name:10s} " + " ".join(f"{r:12.1f}" for r in rates) + f"  {ok}/{total}")
        if bad:
            print(f"{'':10s} differs: {', '.join(bad)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
