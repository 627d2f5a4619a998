"""What the git plugin costs, and how soon a checkout shows.

1. Sweep cost: 100 panes over 10 repositories (10 panes each, in 5 distinct directories per
   repository), the plugin driven in-process through a stub Host that answers those cwds.
   CPU milliseconds per tick (``time.process_time``) for: the first tick (every walk and read),
   a steady tick (nothing changed: stats only), ticks with rediscovery amortised (the clock
   advancing 500 ms per tick, so each cwd is walked again every 2 s), and a tick after one
   repository changed. Target: < 2 ms per steady sweep. The stub's pane_cwd is free; the real
   Host's is one ``readlink`` of ``/proc/<pid>/cwd``, measured separately.
2. Latency of ``git checkout`` showing in ``#{git_branch}`` through a real server
   (``TMUX_C2RS_PLUGINS=git``), watching on and off (``set -g @git-watch off``), polled with
   the stock tmux client (a few ms per round trip) at 5 ms intervals.

    python bench/git_sweep.py [--ticks N] [--checkouts N] [--no-server]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import TMUX, machine  # noqa: E402

from hmux_plugins_git import GitPlugin  # noqa: E402

REPOS = 10
PANES_PER_REPO = 10
DIRS_PER_REPO = 5


def git_env(root: str) -> dict[str, str]:
    home = os.path.join(root, "home")
    os.makedirs(home, exist_ok=True)
    cfg = os.path.join(home, ".gitconfig")
    with open(cfg, "w") as f:
        f.write("[user]\n\tname = B\n\temail = b@example.com\n[init]\n\tdefaultBranch = main\n")
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": cfg, "LANG": "C.UTF-8"}


def git(env: dict[str, str], *args: str, cwd: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def make_repos(root: str, env: dict[str, str]) -> list[str]:
    """10 repositories, each with one commit, a second branch and nested directories."""
    repos = []
    for i in range(REPOS):
        r = os.path.join(root, "src", f"project{i}")
        os.makedirs(r)
        git(env, "init", "-q", cwd=r)
        with open(os.path.join(r, "f"), "w") as f:
            f.write("x\n")
        git(env, "add", "f", cwd=r)
        git(env, "commit", "-qm", "c", cwd=r)
        git(env, "branch", "other", cwd=r)
        for d in range(1, DIRS_PER_REPO):
            os.makedirs(os.path.join(r, *[f"d{k}" for k in range(d)]), exist_ok=True)
        repos.append(r)
    return repos


def age(repo: str, seconds: float = 60.0) -> None:
    """Idle repositories have old mtimes; a fresh one would be re-read while 'racy'."""
    t = time.time() - seconds
    g = os.path.join(repo, ".git")
    for p in (g, os.path.join(g, "HEAD"), os.path.join(g, "config")):
        os.utime(p, (t, t))


class Host:
    def __init__(self, cwds: dict[str, str]) -> None:
        self.cwds = cwds
        self.invalidations = 0

    def panes(self):
        return tuple(self.cwds)

    def pane_cwd(self, pane_id):
        return self.cwds.get(pane_id)

    def option(self, name, pane_id=None):
        return None

    def invalidate(self, pane_id):
        self.invalidations += 1

    def request_tick(self):
        pass

    def log(self, message):
        pass


def cpu_ms(fn, n: int) -> float:
    t0 = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - t0) * 1000 / n


def sweep(ticks: int, root: str, env: dict[str, str]) -> dict[str, float]:
    repos = make_repos(root, env)
    cwds = {}
    for i in range(REPOS * PANES_PER_REPO):
        r = repos[i % REPOS]
        depth = (i // REPOS) % DIRS_PER_REPO
        cwds[f"%{i}"] = os.path.join(r, *[f"d{k}" for k in range(depth)])
    for r in repos:
        age(r)
    host = Host(cwds)
    now = [0.0]
    plugin = GitPlugin(watch=False, clock=lambda: now[0])
    plugin.start(host)
    out: dict[str, float] = {}
    t0 = time.process_time()
    plugin.tick(host)
    out["first tick (50 distinct cwds walked, 10 repositories read)"] = (time.process_time() - t0) * 1000
    assert plugin.last_stats == {"panes": 100, "walks": 50, "repos": 10, "changed": 10}, \
        plugin.last_stats
    out["steady tick (nothing changed)"] = cpu_ms(lambda: plugin.tick(host), ticks)
    assert plugin.last_stats["changed"] == 0 and plugin.last_stats["walks"] == 0

    per_tick = []
    walks = 0
    for _ in range(ticks):  # the clock moves 500 ms per tick, as in the server
        now[0] += 0.5
        t0 = time.process_time()
        plugin.tick(host)
        per_tick.append((time.process_time() - t0) * 1000)
        walks += plugin.last_stats["walks"]
    period = plugin.rediscover
    out[f"tick with rediscovery (each cwd walked every {period:g} s), mean"] = \
        statistics.fmean(per_tick)
    out["  the same, slowest tick"] = max(per_tick)
    out["  walks per tick, mean"] = walks / ticks

    def one_changed() -> None:
        # what a checkout does to the files the fingerprint covers, without running git
        head = os.path.join(repos[0], ".git", "HEAD")
        with open(head + ".lock", "w") as f:
            f.write("ref: refs/heads/other\n" if plugin.resolve("%0", "git_branch") == "main"
                    else "ref: refs/heads/main\n")
        os.rename(head + ".lock", head)
        age(repos[0])
        plugin.tick(host)

    n = max(20, ticks // 20)
    out["tick after one repository changed (incl. the write)"] = cpu_ms(one_changed, n)
    pid = os.getpid()
    out["real Host: readlink /proc/<pid>/cwd x100"] = cpu_ms(
        lambda: [os.readlink(f"/proc/{pid}/cwd") for _ in range(100)], max(100, ticks // 10))
    return out


# -- latency through a real server -------------------------------------------------------------


def latency(n: int, watch: bool, root: str, env: dict[str, str]) -> list[float] | str:
    """ms from the end of ``git checkout`` until ``#{git_branch}`` shows the new branch."""
    tmp = tempfile.mkdtemp(prefix="hmux-git-lat-", dir=root)
    repo = os.path.join(tmp, "repo")
    os.makedirs(repo)
    git(env, "init", "-q", cwd=repo)
    git(env, "commit", "-q", "--allow-empty", "-m", "c", cwd=repo)
    git(env, "branch", "other", cwd=repo)
    conf = os.path.join(tmp, "conf")
    with open(conf, "w") as f:
        f.write("" if watch else "set -g @git-watch off\n")
    senv = dict(os.environ, TMUX_TMPDIR=tmp, TMUX_C2RS_PLUGINS="git", LANG="C.UTF-8",
                HOME=env["HOME"])
    senv.pop("TMUX", None)
    label = "gitlat"
    hmux = [sys.executable, "-m", "hmux_core.cli", "-L", label, "-f", conf]
    sock = os.path.join(tmp, f"hmux-{os.getuid()}", label)
    p = subprocess.run(hmux + ["new", "-d", "-c", repo], env=senv, capture_output=True, text=True)
    if p.returncode != 0:
        return f"server did not start: {p.stderr.strip()}"
    try:
        def branch() -> str:
            q = subprocess.run([TMUX, "-S", sock, "display", "-p", "-t", "%0", "#{git_branch}"],
                               capture_output=True, text=True, env=senv)
            return q.stdout.strip()

        deadline = time.monotonic() + 15
        while branch() != "main":
            if time.monotonic() > deadline:
                return "the plugin never answered (is it loaded?)"
            time.sleep(0.02)
        times = []
        names = ["other", "main"]
        for i in range(n):
            want = names[i % 2]
            # a random pause, so the checkout does not fall at the same point of the 500 ms
            # tick every time (sequential checkouts would otherwise lock onto its phase)
            time.sleep(random.uniform(0.3, 0.8))
            git(env, "checkout", "-q", want, cwd=repo)
            t0 = time.perf_counter()
            while branch() != want:
                if time.perf_counter() - t0 > 10:
                    return f"{want} never showed"
                time.sleep(0.005)
            times.append((time.perf_counter() - t0) * 1000)
        return times
    finally:
        subprocess.run(hmux + ["kill-server"], env=senv, capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ticks", type=int, default=2000)
    ap.add_argument("--checkouts", type=int, default=20)
    ap.add_argument("--no-server", action="store_true")
    a = ap.parse_args()
    root = tempfile.mkdtemp(prefix="hmux-git-bench-")
    try:
        env = git_env(root)
        print(machine())
        print(f"sweep: {REPOS * PANES_PER_REPO} panes over {REPOS} repositories, "
              f"{a.ticks} ticks, CPU ms per tick")
        for name, ms in sweep(a.ticks, os.path.join(root, "sweep"), env).items():
            print(f"  {name:60s} {ms:8.3f}")
        if a.no_server:
            return
        for watch in (True, False):
            res = latency(a.checkouts, watch, root, env)
            label = "watching on " if watch else "watching off"
            if isinstance(res, str):
                print(f"checkout -> #{{git_branch}} ({label}): {res}")
                continue
            q = statistics.quantiles(res, n=10)
            print(f"checkout -> #{{git_branch}} ({label}): median {statistics.median(res):.0f} ms,"
                  f" p90 {q[-1]:.0f} ms, max {max(res):.0f} ms (n={len(res)})")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
