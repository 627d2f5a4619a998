"""Idle costs of issue 28, hmux against tmux 3.7b and GNU screen in the same run.

    python bench/idle.py [--panes 40] [--many 200] [--seconds 20] [--only memory|cpu]

- memory: the server's RSS with one 80x24 pane running a shell, then with ``--panes`` more
  (windows of ``sh``, each printing a prompt and a ``ls``), divided by the panes added; for
  hmux with each installed engine (HMUX_ENGINE), for screen its server process;
- cpu: a server with ``--many`` idle ``sh`` panes (50 windows of 4 for tmux and hmux, with
  hmux's default plugins running), then its CPU over ``--seconds`` from /proc (utime+stime)
  as a percentage of one core.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import SCREEN, Server, load, machine, tmpdir, wait  # noqa: E402

SHELL = "sh"


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def screen_pid(env: dict[str, str], name: str) -> int:
    out = subprocess.run([SCREEN, "-ls"], capture_output=True, text=True, env=env).stdout
    for line in out.splitlines():
        part = line.strip().split("\t")[0]
        if part.endswith("." + name):
            return int(part.split(".")[0])
    raise RuntimeError(out)


def mux_memory(prog: str, base: str, panes: int, engine: str | None) -> float:
    env_engine = {"HMUX_ENGINE": engine} if engine else {}
    srv = Server(prog, base, f"mem{prog}{engine or ''}")
    srv.env.update(env_engine)
    try:
        srv.run("new-session", "-d", "-s", "i", "-x", "80", "-y", "24", SHELL)
        pid = int(srv.run("display", "-p", "#{pid}"))
        time.sleep(2)
        before = rss_kib(pid)
        for _ in range(panes):
            srv.run("new-window", "-d", "-t", "i", SHELL)
        for w in range(panes + 1):
            srv.run("send-keys", "-t", f"i:{w}", "ls /usr", "Enter")
        time.sleep(3)
        return (rss_kib(pid) - before) / panes
    finally:
        srv.kill()


def screen_memory(base: str, panes: int) -> float:
    env = dict(os.environ, SCREENDIR=os.path.join(base, "screens"))
    os.makedirs(env["SCREENDIR"], mode=0o700, exist_ok=True)
    subprocess.run([SCREEN, "-dmS", "mem", SHELL], env=env, check=True)
    try:
        time.sleep(1)
        pid = screen_pid(env, "mem")
        time.sleep(1)
        before = rss_kib(pid)
        for _ in range(panes):
            subprocess.run([SCREEN, "-S", "mem", "-X", "screen", SHELL], env=env)
        for w in range(panes + 1):
            subprocess.run([SCREEN, "-S", "mem", "-p", str(w), "-X", "stuff", "ls /usr\n"],
                           env=env)
        time.sleep(3)
        return (rss_kib(pid) - before) / panes
    finally:
        subprocess.run([SCREEN, "-S", "mem", "-X", "quit"], env=env, capture_output=True)


def mux_idle_cpu(prog: str, base: str, many: int, seconds: float) -> float:
    srv = Server(prog, base, f"cpu{prog}")
    srv.env.pop("TMUX_C2RS_PLUGINS", None)  # hmux: its default plugins (agent, git) run
    try:
        srv.run("new-session", "-d", "-s", "i", "-x", "160", "-y", "48", SHELL)
        windows = many // 4
        for w in range(windows):
            if w:
                srv.run("new-window", "-d", "-t", "i", SHELL)
            for _ in range(3):
                srv.run("split-window", "-d", "-t", f"i:{w}", SHELL)
            srv.run("select-layout", "-t", f"i:{w}", "tiled")
        pid = int(srv.run("display", "-p", "#{pid}"))
        wait(lambda: len(srv.run("list-panes", "-s", "-t", "i").splitlines()) == windows * 4,
             timeout=120, interval=0.5)
        time.sleep(5)
        c0, t0 = cpu_s(pid), time.monotonic()
        time.sleep(seconds)
        return 100 * (cpu_s(pid) - c0) / (time.monotonic() - t0)
    finally:
        srv.kill()


def screen_idle_cpu(base: str, many: int, seconds: float) -> float:
    env = dict(os.environ, SCREENDIR=os.path.join(base, "screens"))
    os.makedirs(env["SCREENDIR"], mode=0o700, exist_ok=True)
    subprocess.run([SCREEN, "-dmS", "cpu", SHELL], env=env, check=True)
    try:
        time.sleep(1)
        for _ in range(many - 1):
            subprocess.run([SCREEN, "-S", "cpu", "-X", "screen", SHELL], env=env)
        pid = screen_pid(env, "cpu")
        time.sleep(5)
        c0, t0 = cpu_s(pid), time.monotonic()
        time.sleep(seconds)
        return 100 * (cpu_s(pid) - c0) / (time.monotonic() - t0)
    finally:
        subprocess.run([SCREEN, "-S", "cpu", "-X", "quit"], env=env, capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--panes", type=int, default=40)
    ap.add_argument("--many", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--only", choices=["memory", "cpu"])
    ns = ap.parse_args()
    base = tmpdir()
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from hmux_core.screen import available_engines

    print(f"machine: {machine()}")
    if ns.only in (None, "memory"):
        print(f"\n# RSS per additional idle 80x24 pane ({ns.panes} added), load {load()}")
        print(f"tmux 3.7b            {mux_memory('tmux', base, ns.panes, None):7.1f} KiB")
        for engine in available_engines():
            print(f"hmux, {engine:<14} {mux_memory('hmux', base, ns.panes, engine):7.1f} KiB")
        if SCREEN:
            print(f"screen               {screen_memory(base, ns.panes):7.1f} KiB")
    if ns.only in (None, "cpu"):
        print(f"\n# server CPU, {ns.many} idle panes over {ns.seconds:.0f} s, load {load()}")
        print(f"tmux 3.7b            {mux_idle_cpu('tmux', base, ns.many, ns.seconds):6.2f} %")
        print(f"hmux, plugins on     {mux_idle_cpu('hmux', base, ns.many, ns.seconds):6.2f} %"
              f"  (engine {os.environ.get('HMUX_ENGINE') or 'default'})")
        if SCREEN:
            print(f"screen               {screen_idle_cpu(base, ns.many, ns.seconds):6.2f} %")


if __name__ == "__main__":
    main()
