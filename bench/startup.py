"""Start-up figures of issue 28, hmux against tmux 3.7b and GNU screen in the same run.

    python bench/startup.py [--n 20] [--only commands|new|attach]

- commands: one short command's wall time and CPU (the client process only, from
  ``getrusage``), median of ``--n``: ``python -c pass`` (the floor of any Python client, this
  interpreter with its ``site``), ``hmux list-sessions`` as installed (the C client where the
  install found a compiler), the same through the ``tmux`` shim tools use (``hmux doctor
  --install-shim``), the Python client and its script shim (``-I -S``, no ``site``) for
  comparison, tmux 3.7b's ``list-sessions`` and ``screen -ls``;
- new: ``new-session -d`` with no server running, until the command returns (the server's start
  is included), and the same with a server already up, for hmux without plugins and with the
  default set (agent, git: they load after the first client is answered), each as a first
  start (``HMUX_FORKSERVER=0``) and with the fork server up (two starts just before left
  it, as in a test suite: ``hmux_core/forkserver.py``); ``screen -dmS``;
- attach: from starting ``attach`` in an 80x24 terminal until its first full frame is on it
  (the pane's marker text and, for tmux and hmux, the status line's session name);
- tests: what one test of libtmux's suite runs, server after server through the ``tmux`` shim
  (the C client), each step's median: ``has-session`` and ``-V`` with no server yet,
  ``new-session -d`` (the fork server up after the first two), ten ``list-panes -a``, a
  ``new-window`` and a ``split-window``, ``kill-server``; hmux without plugins and with the
  default set, against tmux 3.7b.

Each figure prints the load average beside it: on a shared machine wall times move with it.
"""

from __future__ import annotations

import argparse
import os
import resource
import select
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import HMUX, SCREEN, TMUX, Server, load, machine, sized_pty, tmpdir  # noqa: E402

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: The ``hmux`` command as a user runs it: the script ``pip install`` put beside this
#: interpreter (``python -m hmux_core.cli`` when there is none: runpy costs a few ms more).
_script = os.path.join(os.path.dirname(sys.executable), "hmux")
HMUX_SCRIPT = [_script] if os.path.exists(_script) else HMUX


def timed(argv: list[str], env: dict[str, str], check: bool = True) -> tuple[float, float]:
    """(wall ms, CPU ms of the process and the children it waited for)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run(argv, capture_output=True, env=env)
    wall = (time.perf_counter() - t) * 1000
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if check and p.returncode != 0:
        raise RuntimeError(f"{argv}: {p.stderr.decode(errors='replace')}")
    return wall, (r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000


def median_of(fn, n: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(n):
        w, c = fn()
        walls.append(w)
        cpus.append(c)
    return statistics.median(walls), statistics.median(cpus)


def shim(base: str, native: bool = True) -> str:
    """hmux's ``tmux`` shim as ``hmux doctor --install-shim`` writes it: a symlink to the C
    client where ``hmux`` is one, else (or with ``native`` false) the Python script."""
    sys.path.insert(0, CHECKOUT)
    from hmux_core.tmux_shim import install

    return install(os.path.join(base, "shim" if native else "pyshim"), native=native)


def commands(base: str, n: int) -> None:
    h = Server("hmux", base, "st")
    t = Server("tmux", base, "st")
    h.run("new-session", "-d", "-s", "s")
    t.run("new-session", "-d", "-s", "s")
    tmux_shim = shim(base)
    rows = [
        ("python -c pass", [sys.executable, "-c", "pass"], h.env),
        ("hmux list-sessions", HMUX_SCRIPT + ["-L", "st", "list-sessions"], h.env),
        ("hmux via the tmux shim (-S hmux socket)", [tmux_shim, "-S", h.socket, "ls"], h.env),
        # The Python client, which `hmux` is without a C compiler at install time.
        ("hmux, the Python client (scripts/hmux)",
         [sys.executable, os.path.join(CHECKOUT, "scripts", "hmux"), "-L", "st", "ls"], h.env),
        ("the Python script shim", [shim(base, native=False), "-S", h.socket, "ls"], h.env),
        ("tmux 3.7b list-sessions", [TMUX, "-L", "st", "list-sessions"], t.env),
    ]
    scr_env = dict(h.env, SCREENDIR=os.path.join(base, "screens"))
    if SCREEN:
        os.makedirs(scr_env["SCREENDIR"], mode=0o700, exist_ok=True)
        subprocess.run([SCREEN, "-dmS", "st", "sh"], env=scr_env, check=True)
        rows.append(("screen -ls", [SCREEN, "-ls"], scr_env))
    try:
        res = {}
        print(f"\n# one command (median of {n}), load {load()}")
        print(f"{'command':<42} {'wall ms':>8} {'cpu ms':>8}")
        for name, argv, env in rows:
            wall, cpu = median_of(lambda a=argv, e=env, nm=name: timed(a, e, not nm.startswith(
                "screen")), n)
            res[name] = wall
            print(f"{name:<42} {wall:8.1f} {cpu:8.1f}")
        print(f"hmux list-sessions / python -c pass: "
              f"{res['hmux list-sessions'] / res['python -c pass']:.2f} (goal <= 1.3)")
    finally:
        h.kill()
        t.kill()
        if SCREEN:
            subprocess.run([SCREEN, "-S", "st", "-X", "quit"], env=scr_env, capture_output=True)


def new_detached(base: str, n: int) -> None:
    print(f"\n# new-session -d until it returns (median of {n}), load {load()}")
    print(f"{'':<28} {'cold wall ms':>13} {'warm wall ms':>13}")
    scr_env = dict(os.environ, SCREENDIR=os.path.join(base, "screens"))
    os.makedirs(scr_env["SCREENDIR"], mode=0o700, exist_ok=True)
    rows = ("hmux", "hmux, default plugins", "hmux, fork server", "hmux, fork server, plugins",
            "tmux", "screen")
    for prog in rows:
        if prog == "screen" and not SCREEN:
            continue
        cold, warm = [], []
        forked = "fork server" in prog
        if forked:  # two starts in a row leave the fork server that the timed ones then use
            for i in range(2):
                srv = Server("hmux", base, f"fsup{i}")
                srv.argv = HMUX_SCRIPT + srv.argv[len(HMUX):]  # the interpreter is in its key
                srv.run("start-server")
                srv.kill()
        for i in range(n):
            if prog == "screen":
                w, _ = timed([SCREEN, "-dmS", f"nd{i}", "sh"], scr_env, False)
                cold.append(w)
                w, _ = timed([SCREEN, "-S", f"nd{i}", "-X", "screen", "sh"], scr_env, False)
                warm.append(w)
                subprocess.run([SCREEN, "-S", f"nd{i}", "-X", "quit"], env=scr_env,
                               capture_output=True)
                continue
            srv = Server(prog.split(",")[0], base, f"nd{len(prog)}{prog[-4:]}{i}")
            if prog.startswith("hmux"):
                srv.argv = HMUX_SCRIPT + srv.argv[len(HMUX):]
                if not forked:  # a first start: no fork server, whatever came before
                    srv.env["HMUX_FORKSERVER"] = "0"
            if prog.endswith("plugins"):  # what a user gets: the agent and git plugins
                srv.env.pop("TMUX_C2RS_PLUGINS")
            try:
                w, _ = timed(srv.argv + ["new-session", "-d", "-s", "a"], srv.env)
                cold.append(w)
                w, _ = timed(srv.argv + ["new-session", "-d", "-s", "b"], srv.env)
                warm.append(w)
            finally:
                srv.kill()
        print(f"{prog:<28} {statistics.median(cold):13.1f} {statistics.median(warm):13.1f}")


def first_frame(argv: list[str], env: dict[str, str], markers: list[bytes],
                timeout: float = 30.0) -> float:
    """ms from starting ``argv`` in an 80x24 terminal until every marker has been drawn."""
    master, slave = sized_pty(80, 24)
    t = time.perf_counter()
    p = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                         start_new_session=True)
    os.close(slave)
    seen = b""
    try:
        while time.perf_counter() - t < timeout:
            r, _, _ = select.select([master], [], [], 0.5)
            if r:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
                if all(m in seen for m in markers):
                    return (time.perf_counter() - t) * 1000
        raise TimeoutError(f"{argv}: {seen[-300:]!r}")
    finally:
        p.kill()
        p.wait()
        os.close(master)


def attach(base: str, n: int) -> None:
    print(f"\n# attach until the first full frame (median of {n}), load {load()}")
    pane = "printf 'MARK%s\\n' ER; sleep 100000"
    env_term = {"TERM": "xterm-256color"}
    scr_env = dict(os.environ, SCREENDIR=os.path.join(base, "screens"), **env_term)
    os.makedirs(scr_env["SCREENDIR"], mode=0o700, exist_ok=True)
    for prog in ("hmux", "tmux", "screen"):
        if prog == "screen" and not SCREEN:
            continue
        samples = []
        for i in range(n):
            if prog == "screen":
                subprocess.run([SCREEN, "-dmS", f"at{i}", "sh", "-c", pane], env=scr_env,
                               check=True)
                time.sleep(0.2)
                samples.append(first_frame([SCREEN, "-r", f"at{i}"], scr_env, [b"MARKER"]))
                subprocess.run([SCREEN, "-S", f"at{i}", "-X", "quit"], env=scr_env,
                               capture_output=True)
                continue
            srv = Server(prog, base, f"at{prog}{i}")
            env = dict(srv.env, **env_term)
            try:
                srv.run("new-session", "-d", "-s", "zq", "-x", "80", "-y", "24", pane)
                time.sleep(0.2)
                samples.append(first_frame(srv.argv + ["attach", "-t", "zq"], env,
                                           [b"MARKER", b"[zq]"]))
            finally:
                srv.kill()
        print(f"{prog:<10} {statistics.median(samples):8.1f} ms "
              f"(min {min(samples):.1f}, max {max(samples):.1f})")


def tests(base: str, n: int) -> None:
    """One libtmux test's commands per server, ``n`` servers; median ms of each step."""
    steps = (["has-session", "-t", "=x"], ["-V"], ["new-session", "-d"]) \
        + tuple(["list-panes", "-a", "-F", "#{pane_id} #{session_name}"] for _ in range(10)) \
        + (["new-window", "-d"], ["split-window", "-d"], ["kill-server"])
    names = ["has-session", "-V", "new-session"] + [f"list {i}" for i in range(1, 11)] \
        + ["new-window", "split-window", "kill-server"]
    runs = {"tmux 3.7b": ([TMUX], "none"), "hmux": ([shim(base)], "none"),
            "hmux, default plugins": ([shim(base)], None)}
    print(f"\n# one libtmux-like test per server (median of {n} servers, ms), load {load()}")
    print(f"{'step':<14}" + "".join(f"{name:>24}" for name in runs))
    results = {}
    for name, (argv, plugins) in runs.items():
        d = tmpdir()
        env = dict(os.environ, TMUX_TMPDIR=d, HOME=d, LANG="C.UTF-8")
        env.pop("TMUX", None)
        env.pop("TMUX_C2RS_PLUGINS", None)
        if plugins is not None:
            env["TMUX_C2RS_PLUGINS"] = plugins
        times: list[list[float]] = [[] for _ in steps]
        for i in range(n):
            for j, step in enumerate(steps):
                label = [] if step == ["-V"] else ["-L", f"t{i}"]
                times[j].append(timed(argv + label + step, env, check=False)[0])
        results[name] = [statistics.median(t) for t in times]
    for j, step_name in enumerate(names):
        print(f"{step_name:<14}" + "".join(f"{results[r][j]:24.1f}" for r in runs))
    print(f"{'total':<14}" + "".join(f"{sum(results[r]):24.1f}" for r in runs))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--only", choices=["commands", "new", "attach", "tests"])
    ns = ap.parse_args()
    base = tmpdir()
    print(f"machine: {machine()}, hmux engine: {os.environ.get('HMUX_ENGINE') or 'default'}")
    if ns.only in (None, "commands"):
        commands(base, ns.n)
    if ns.only in (None, "new"):
        new_detached(base, max(3, ns.n // 4))
    if ns.only in (None, "attach"):
        attach(base, max(3, ns.n // 4))
    if ns.only in (None, "tests"):
        tests(base, ns.n)


if __name__ == "__main__":
    main()
