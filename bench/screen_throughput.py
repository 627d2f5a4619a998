"""Screen engine throughput and history memory on synthetic 200x50 workloads.

Feeds each workload in-process in 64 KiB chunks into ``new_screen(200, 50, 2000)`` and prints
the parse rate and the memory held per stored history cell (tracemalloc: an engine with
history minus the same engine fed the same bytes without history, divided by the cells in
history). Targets: >= 5 MB/s plain text, >= 1.3 MB/s SGR-heavy, <= 40 bytes per history cell.
When pyte is installed (``pip install '.[bench]'``) its stock ``HistoryScreen`` is measured on
the same workloads as the baseline hmux's engine replaced.

    python bench/screen_throughput.py [--mib N] [--profile WORKLOAD] [--engine python|ghostty]

``--engine`` picks the engine (default python); history memory per cell is measured for the
python engine only (tracemalloc does not see a native engine's own allocations).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hmux_core.screen import new_screen  # noqa: E402

COLS, ROWS, HISTORY = 200, 50, 2000
CHUNK = 64 * 1024
ENGINE = "python"


def ls_l(size: int) -> bytes:
    """``ls -l``-style ASCII lines (~65 columns) with \\r\\n endings."""
    rng = random.Random(1)
    names = ["README.md", "setup.py", "hmux_core", "tests", "a_rather_long_file_name.txt", "x"]
    out = []
    n = 0
    while n < size:
        line = (
            f"-rw-r--r-- 1 user group {rng.randint(0, 99999):>8} "
            f"Jan {rng.randint(1, 28):>2} 12:{rng.randint(0, 59):02d} {rng.choice(names)}\r\n"
        ).encode()
        out.append(line)
        n += len(line)
    return b"".join(out)


def syntax(size: int) -> bytes:
    """bat/delta-like lines: a 256-colour gutter, a box bar, 5-10 truecolor tokens per line."""
    rng = random.Random(2)
    theme = [(rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255)) for _ in range(24)]
    words = ["def", "return", "self", "import", "for", "in", "if", "None", "value", "x", "(", ")"]
    out = []
    n = 0
    lineno = 0
    while n < size:
        lineno += 1
        parts = [b"\033[38;5;242m%6d \033[0m\xe2\x94\x82 " % lineno]
        for _ in range(rng.randint(5, 10)):
            r, g, b = rng.choice(theme)
            parts.append(b"\033[38;2;%d;%d;%dm%s " % (r, g, b, rng.choice(words).encode()))
        parts.append(b"\033[0m\r\n")
        line = b"".join(parts)
        out.append(line)
        n += len(line)
    return b"".join(out)


def lolcat(size: int) -> bytes:
    """A 256-colour SGR before every character."""
    text = b"The quick brown fox jumps over the lazy dog; pack my box with five dozen jugs. "
    out = []
    n = 0
    i = 0
    while n < size:
        for ch in text:
            piece = b"\033[38;5;%dm%c" % (16 + (i % 216), ch)
            out.append(piece)
            n += len(piece)
            i += 1
        out.append(b"\033[0m\r\n")
        n += 6
    return b"".join(out)


WORKLOADS = {"plain": ls_l, "sgr-heavy": syntax, "sgr-per-char": lolcat}
TARGETS = {"plain": 5.0, "sgr-heavy": 1.3, "sgr-per-char": None}


def feed_all(screen, data: bytes) -> None:
    for i in range(0, len(data), CHUNK):
        screen.feed(data[i : i + CHUNK])


def throughput(data: bytes) -> float:
    """Best of three: MB/s (10^6 bytes)."""
    best = float("inf")
    for _ in range(3):
        s = new_screen(COLS, ROWS, HISTORY, ENGINE)
        gc.collect()
        t0 = time.perf_counter()
        feed_all(s, data)
        best = min(best, time.perf_counter() - t0)
    return len(data) / best / 1e6


def pyte_baseline(data: bytes) -> tuple[float, float] | None:
    """pyte's HistoryScreen as shipped on a 256 KiB slice: (MB/s, bytes per history cell)."""
    try:
        import pyte
    except ImportError:
        return None
    data = data[: 256 * 1024]
    screen = pyte.HistoryScreen(COLS, ROWS, history=HISTORY)
    stream = pyte.ByteStream(screen)
    t0 = time.perf_counter()
    stream.feed(data)
    rate = len(data) / (time.perf_counter() - t0) / 1e6
    gc.collect()
    tracemalloc.start()
    screen = pyte.HistoryScreen(COLS, ROWS, history=HISTORY)
    pyte.ByteStream(screen).feed(data)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    cells = sum(len(line) for line in screen.history.top) + COLS * ROWS
    return rate, held / max(cells, 1)


def history_bytes_per_cell(data: bytes) -> tuple[float, int]:
    """Memory held by history divided by the number of cells stored in it."""

    def measure(limit: int):
        gc.collect()
        tracemalloc.start()
        s = new_screen(COLS, ROWS, limit, "python")
        feed_all(s, data)
        gc.collect()
        cur = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        return cur, s

    with_hist, s = measure(HISTORY)
    without, _ = measure(0)
    cells = sum(line.used for line in s._hist)
    return (with_hist - without) / max(cells, 1), cells


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mib", type=float, default=8, help="MiB of input per workload")
    ap.add_argument("--profile", choices=list(WORKLOADS), help="cProfile one workload")
    ap.add_argument("--engine", default="python", help="engine name (new_screen)")
    args = ap.parse_args()
    global ENGINE
    ENGINE = args.engine
    size = int(args.mib * 1024 * 1024)
    if args.profile:
        data = WORKLOADS[args.profile](size)
        s = new_screen(COLS, ROWS, HISTORY, ENGINE)
        prof = cProfile.Profile()
        prof.runcall(feed_all, s, data)
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return 0
    ok = True
    print(f"{COLS}x{ROWS}, history-limit {HISTORY}, {args.mib:g} MiB per workload, 64 KiB chunks,"
          f" engine {ENGINE}")
    for name, make in WORKLOADS.items():
        data = make(size)
        rate = throughput(data)
        mem_data = make(600 * 1024)  # enough to fill the history
        per_cell, cells = history_bytes_per_cell(mem_data)
        target = TARGETS[name]
        verdict = ""
        if target is not None:
            good = rate >= target
            ok &= good
            verdict = f"(target >= {target} MB/s: {'ok' if good else 'MISSED'})"
        ok &= per_cell <= 40
        print(
            f"{name:13s} {rate:6.2f} MB/s {rate * 1e6 / 2**20:6.2f} MiB/s {verdict:34s}"
            f" history {per_cell:5.1f} B/cell over {cells} cells"
            f" ({'ok' if per_cell <= 40 else 'MISSED'})"
        )
        base = pyte_baseline(data)
        if base is not None:
            print(f"{'  pyte':13s} {base[0]:6.2f} MB/s {'':47s} {base[1]:5.1f} B/cell (HistoryScreen)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
