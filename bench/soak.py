"""Soak: a loaded hmux server for a bounded time, with figures (issue 10).

    python bench/soak.py                 # 10 minutes
    python bench/soak.py --minutes 5 --rate 50

50 panes print a numbered line every half second; three clients attach on real PTYs, stay a
few seconds and detach (C-b d), over and over; commands go through the stock tmux client and
the hmux client at ``--rate`` a second together (``--hmux-share`` of them through hmux: each
one is a Python process start, which on two cores also running the server and 50 producers is
what limits the rate), plugins on (the default agent and git set).
History is kept short (``--history-limit``, default 40 lines) and, once the layout is final,
each producer first prints ``--fill`` lines (default 3000): the python engine's history is
then full, and the ghostty engine's scrollback, which Ghostty keeps in whole pages (~0.8 MB a
pane whatever the limit), has reached its floor; the attaching clients' terminals are the
session's size, so attaching does not reflow the panes. RSS growth after the warm-up then
means a leak, not scrollback filling up.
Every 30 s it prints server RSS, fd count and p50/p99 latency per client for that interval.
At the end the producers write a last line and each pane's capture must show it. It prints
RSS growth (start is taken after a warm-up), errors (must be zero) and lost lines (zero), and
exits 1 when a criterion fails. Commands that cannot start on time (a slow machine) are counted
as late, and the rate achieved is printed rather than assumed.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import HMUX, TMUX, sized_pty  # noqa: E402

COLS, ROWS = 200, 50  # the session's size; attaching clients add a row for the status line
PANES = 50
PER_WINDOW = 5

PRODUCER = ("while [ ! -e {stop}.go ]; do sleep 0.1; done; seq -f 'F{n} %g' 1 {fill}; "
            "i=0; while [ ! -e {stop} ]; do i=$((i+1)); echo \"P{n} $i\"; sleep 0.5; done; "
            "echo \"P{n} END $i\"; echo $i > {stop}.{n}; exec cat")


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


class Soak:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.dir = tempfile.mkdtemp(prefix="hmux-soak-")
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TMUX_TMPDIR": self.dir,
                    "HOME": self.dir, "LANG": "C.UTF-8", "SHELL": "/bin/sh",
                    "TERM": "xterm-256color", "ENV": ""}
        for key in ("PYTHONPATH", "VIRTUAL_ENV"):
            if key in os.environ:
                self.env[key] = os.environ[key]
        if args.engine:
            self.env["HMUX_ENGINE"] = args.engine
        if args.plugins is not None:
            self.env["TMUX_C2RS_PLUGINS"] = args.plugins  # unset: the default set
        self.sock = os.path.join(self.dir, f"hmux-{os.getuid()}", "soak")
        self.stop_file = os.path.join(self.dir, "stop")
        self.lock = threading.Lock()
        self.lat: dict[str, list[float]] = {"tmux": [], "hmux": []}
        self.errors: list[str] = []
        self.done = threading.Event()
        self.sent = self.late = self.attaches = 0

    # -- running clients -------------------------------------------------------------------------

    def run(self, client: str, *args: str, timeout: float = 30) -> subprocess.CompletedProcess:
        argv = ([TMUX, "-S", self.sock] if client == "tmux" else HMUX + ["-L", "soak"]) + list(args)
        return subprocess.run(argv, env=self.env, capture_output=True, text=True,
                              timeout=timeout, cwd=self.dir)

    def ok(self, *args: str) -> str:
        r = self.run("hmux", *args)
        if r.returncode != 0:
            raise RuntimeError(f"{args}: {r.stderr.strip()}")
        return r.stdout

    def server_pid(self) -> int:
        return int(self.ok("display", "-p", "#{pid}"))

    # -- setup ----------------------------------------------------------------------------------

    def start(self) -> None:
        stop = self.stop_file

        def producer(n: int) -> str:
            return PRODUCER.format(n=n, stop=stop, fill=self.args.fill)

        self.ok("-f", "/dev/null", "set", "-g", "history-limit", str(self.args.history_limit),
                ";", "new-session", "-d", "-s", "soak", "-x", str(COLS), "-y", str(ROWS),
                producer(0))
        for n in range(1, PANES):
            if n % PER_WINDOW == 0:
                self.ok("new-window", "-d", "-t", "soak", producer(n))
            else:
                self.ok("split-window", "-d", "-t", f"soak:{n // PER_WINDOW}", producer(n))
        self.ok("set", "-g", "@soak", "x")  # the commands read it back from the start
        for w in range(PANES // PER_WINDOW):
            self.ok("select-layout", "-t", f"soak:{w}", "tiled")
        panes = self.ok("list-panes", "-s", "-t", "soak", "-F", "#{pane_id}").split()
        assert len(panes) == PANES, panes
        open(f"{stop}.go", "w").close()  # the fill, at the panes' final size

    # -- load -----------------------------------------------------------------------------------

    COMMANDS = (
        ("display", "-p", "-t", "soak", "#{session_name} #{window_index} #{pane_id} "
         "#{pane_current_command} #{pane_title}"),
        ("list-panes", "-a", "-F", "#{pane_id} #{pane_width}x#{pane_height} #{pane_pid}"),
        ("capture-pane", "-p", "-t", "soak:1.2"),
        ("list-windows", "-t", "soak"),
        ("set", "-g", "@soak", "x"),
        ("show", "-gv", "@soak"),
        ("list-clients",),
        ("has-session", "-t", "soak"),
    )

    def one_command(self, client: str, i: int) -> None:
        cmd = self.COMMANDS[i % len(self.COMMANDS)]
        t0 = time.perf_counter()
        try:
            r = self.run(client, *cmd)
            ok, why = r.returncode == 0, r.stderr.strip()
        except subprocess.TimeoutExpired:
            ok, why = False, "timeout"
        dt = time.perf_counter() - t0
        with self.lock:
            self.lat[client].append(dt)
            if not ok:
                self.errors.append(f"{client} {' '.join(cmd)}: {why}")

    def commands(self, client: str) -> None:
        """One client's share of the rate, its own workers: a slow client cannot starve the other."""
        share = self.args.hmux_share if client == "hmux" else 1.0 - self.args.hmux_share
        if share <= 0:
            return
        period = 1.0 / (self.args.rate * share)
        workers = max(1, self.args.workers // 2)
        nxt = time.monotonic()
        i = 0
        with cf.ThreadPoolExecutor(max_workers=workers) as pool:
            pending: set[cf.Future] = set()
            while not self.done.is_set():
                now = time.monotonic()
                if now < nxt:
                    time.sleep(min(nxt - now, 0.05))
                    continue
                pending = {f for f in pending if not f.done()}
                if len(pending) >= workers:
                    with self.lock:
                        self.late += 1  # all workers busy: this slot is skipped, not queued
                else:
                    pending.add(pool.submit(self.one_command, client, i))
                    with self.lock:
                        self.sent += 1
                i += 1
                nxt += period
                if nxt < time.monotonic() - 1.0:
                    nxt = time.monotonic()

    def attacher(self, k: int) -> None:
        while not self.done.is_set():
            master, slave = sized_pty(COLS, ROWS + 1)  # attaching does not resize the panes
            os.set_blocking(master, False)
            p = subprocess.Popen(HMUX + ["-L", "soak", "attach", "-t", "soak"], env=self.env,
                                 stdin=slave, stdout=slave, stderr=slave, cwd=self.dir,
                                 start_new_session=True)
            os.close(slave)
            seen = bytearray()
            deadline = time.monotonic() + 2 + k
            while time.monotonic() < deadline or b"[soak]" not in seen:
                try:
                    seen += os.read(master, 65536)
                    del seen[:-4096]
                except BlockingIOError:
                    time.sleep(0.05)
                except OSError:
                    break
                if time.monotonic() > deadline + 30:
                    break
            os.write(master, b"\x02d")  # the prefix, then d: detach
            try:
                end = time.monotonic() + 30
                while p.poll() is None and time.monotonic() < end:
                    try:
                        seen += os.read(master, 65536)
                        del seen[:-4096]
                    except (BlockingIOError, OSError):
                        time.sleep(0.05)
                if p.poll() is None:
                    raise subprocess.TimeoutExpired(p.args, 30)
                for _ in range(20):  # what it wrote just before exiting ([detached ...])
                    try:
                        chunk = os.read(master, 65536)
                    except BlockingIOError:
                        if b"detached" in seen:
                            break
                        time.sleep(0.05)
                        continue
                    except OSError:
                        break
                    if not chunk:
                        break
                    seen += chunk
                if p.returncode != 0 or b"detached" not in seen:
                    with self.lock:
                        self.errors.append(f"attacher {k}: rc={p.returncode} "
                                           f"tail={bytes(seen[-200:])!r}")
                else:
                    with self.lock:
                        self.attaches += 1
            except subprocess.TimeoutExpired:
                p.kill()
                with self.lock:
                    self.errors.append(f"attacher {k}: did not detach")
            finally:
                p.wait()
                os.close(master)

    # -- the run --------------------------------------------------------------------------------

    def rss_fds(self, pid: int) -> tuple[int, int]:
        with open(f"/proc/{pid}/status") as f:
            rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        return rss, len(os.listdir(f"/proc/{pid}/fd"))

    def main(self) -> int:
        a = self.args
        print(f"soak: {PANES} panes, 3 attaching clients, {a.rate} commands/s "
              f"({1 - a.hmux_share:.0%} through the tmux client, {a.hmux_share:.0%} through hmux), "
              f"plugins {a.plugins if a.plugins is not None else 'default'}, engine {a.engine or 'default'}, "
              f"{a.minutes} min", flush=True)
        self.start()
        pid = self.server_pid()
        rss0, fds0 = self.rss_fds(pid)
        threads = [threading.Thread(target=self.commands, args=(c,), daemon=True)
                   for c in ("tmux", "hmux")] + [
            threading.Thread(target=self.attacher, args=(k,), daemon=True) for k in range(3)]
        for t in threads:
            t.start()
        t_start = time.monotonic()
        end = t_start + a.minutes * 60
        warm = None
        print(f"{'t/s':>6} {'rss kB':>9} {'fds':>5} {'tmux p50/p99 ms':>17} "
              f"{'hmux p50/p99 ms':>17} {'sent':>6} {'late':>5} {'att':>4} {'err':>4}", flush=True)
        last = {"tmux": 0, "hmux": 0}
        while time.monotonic() < end:
            time.sleep(min(a.interval, max(0.0, end - time.monotonic())))
            rss, fds = self.rss_fds(pid)
            with self.lock:
                cols = []
                for c in ("tmux", "hmux"):
                    chunk = self.lat[c][last[c]:]
                    last[c] = len(self.lat[c])
                    cols.append(f"{_pct(chunk, .5) * 1e3:7.0f}/{_pct(chunk, .99) * 1e3:<7.0f}")
                errs = len(self.errors)
            if warm is None:
                warm = (rss, fds)
            print(f"{time.monotonic() - t_start:6.0f} {rss:9d} {fds:5d} {cols[0]:>17} "
                  f"{cols[1]:>17} {self.sent:6d} {self.late:5d} {self.attaches:4d} {errs:4d}",
                  flush=True)
        self.done.set()
        elapsed = time.monotonic() - t_start  # the rate is over the loaded time, not the wind-down
        for t in threads:
            t.join(timeout=60)
        rss1, fds1 = self.rss_fds(pid)
        lost = self.finish()
        start_rss = warm[0] if warm else rss0
        growth = (rss1 - start_rss) / start_rss * 100
        print(f"server RSS: {rss0} kB after setup, {start_rss} kB after warm-up, {rss1} kB at "
              f"end: growth {growth:+.1f}% (limit 10%); fds {fds0} -> {fds1}")
        for c in ("tmux", "hmux"):
            v = self.lat[c]
            print(f"{c} client: {len(v)} commands, p50 {_pct(v, .5) * 1e3:.0f} ms, "
                  f"p99 {_pct(v, .99) * 1e3:.0f} ms")
        print(f"commands: {self.sent} sent in {elapsed:.0f} s = {self.sent / elapsed:.1f}/s "
              f"(target {a.rate}/s, {self.late} slots skipped with a client's workers all busy)")
        print(f"attach/detach cycles: {self.attaches}; errors: {len(self.errors)}; "
              f"panes whose last line was lost: {lost}")
        for e in self.errors[:20]:
            print("  error:", e)
        ok = growth < 10 and not self.errors and lost == 0
        print("PASS" if ok else "FAIL")
        return 0 if ok else 1

    def finish(self) -> int:
        """Stop the producers and check each pane shows the last line it wrote."""
        open(self.stop_file, "w").close()
        deadline = time.monotonic() + 60
        lost = 0
        for n in range(PANES):
            mark = f"{self.stop_file}.{n}"
            while not os.path.exists(mark) and time.monotonic() < deadline:
                time.sleep(0.1)
        panes = self.ok("list-panes", "-s", "-t", "soak", "-F", "#{pane_id}").split()
        for n in range(PANES):
            try:
                with open(f"{self.stop_file}.{n}") as f:
                    last = f.read().strip()
            except OSError:
                lost += 1
                continue
            # The line was written before the mark; the server may still be reading it.
            want = f"P{n} END {last}"
            while True:
                if any(want in self.capture(pane).splitlines() for pane in panes):
                    break
                if time.monotonic() > deadline:
                    lost += 1
                    print(f"  lost: {want}")
                    break
                time.sleep(0.2)
        return lost

    def capture(self, pane: str) -> str:
        """The stock client: quick enough to read 50 panes repeatedly on a loaded machine."""
        return self.run("tmux", "capture-pane", "-p", "-S", "-20", "-t", pane).stdout

    def cleanup(self) -> None:
        try:
            pid = self.server_pid()
            self.run("hmux", "kill-server")
            for _ in range(100):
                if not os.path.exists(f"/proc/{pid}"):
                    break
                time.sleep(0.05)
            else:
                os.kill(pid, signal.SIGKILL)
        except Exception:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--rate", type=float, default=50.0, help="commands a second, both clients")
    ap.add_argument("--workers", type=int, default=8,
                    help="commands in flight at most (half for each client)")
    ap.add_argument("--hmux-share", type=float, default=0.2,
                    help="fraction of the rate sent through the hmux client (a Python process "
                         "start each; the rest goes through the stock tmux client)")
    ap.add_argument("--interval", type=float, default=30.0, help="seconds between samples")
    ap.add_argument("--history-limit", type=int, default=40,
                    help="history-limit for the panes (full after the fill)")
    ap.add_argument("--fill", type=int, default=3000,
                    help="lines each pane prints at once before its slow loop")
    ap.add_argument("--engine", default=None, help="HMUX_ENGINE (default: the fastest installed)")
    ap.add_argument("--plugins", default=None, help="TMUX_C2RS_PLUGINS (default: unset)")
    args = ap.parse_args(argv)
    soak = Soak(args)
    try:
        return soak.main()
    finally:
        soak.cleanup()


if __name__ == "__main__":
    sys.exit(main())
