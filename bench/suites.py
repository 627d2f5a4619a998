"""libtmux's and tmuxp's own test suites, with tmux 3.7b and with hmux as their ``tmux``.

    python bench/suites.py [--project libtmux|tmuxp] [--tmux tmux|hmux] [-k EXPR] [--jobs N]

Both projects test against whatever ``tmux`` is first on PATH, so the suites are a second,
independent check of hmux's compatibility (issue 22, point 4) and a measure of what hundreds of
short ``tmux`` commands cost (issue 28). For each project the script:

- fetches its source distribution (``pip download --no-binary :all:``) into the cache
  (``~/.cache/hmux-suites``, or ``--cache``) and unpacks it there; the sdist carries the tests,
  the root conftest.py and the pytest configuration the project itself runs with;
- makes a throwaway venv beside it with the project installed and only what its tests import
  (pytest and the plugins its configuration names, gp-libs for the doctest collector), no
  documentation or lint tools; the venv is reused while its requirement list is unchanged;
- runs pytest there twice, each time with a private TMUX_TMPDIR and HOME and a directory first on
  PATH holding ``tmux``: a symlink to the oracle (``$HMUX_ORACLE``, default the built 3.7b), then
  hmux's tmux shim (:func:`hmux_core.tmux_shim.install`), which uses tmux's socket directory
  and configuration files as tmux would.

hmux is ``--hmux`` (default: the checkout this script is in) installed as a user installs it,
``pip install`` into a venv of its own made afresh for the run, so the suites' own interpreter
never sees it; the shim is what that install's ``hmux doctor --install-shim`` writes (a symlink
to the C client where the install found a compiler).

It prints passed/failed/skipped/error counts and wall time per project and tmux, and the tests
whose outcome differs between the two. Per-run pytest logs and JUnit XML stay in the cache
(``results/``) for reading the failures. Each suite keeps its own pytest configuration
(libtmux reruns a failing test twice, tmuxp does not), so wall times are what a contributor sees.

The docs folder's ``conf.py`` and ``_ext`` are left out of collection (they import Sphinx
themes); every other path the project lists in ``testpaths`` runs. The hmux run loads hmux's
default plugin set, as a user's install does; ``--hmux-plugins none`` runs it without plugins.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(__file__))
from common import machine  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(HERE)

#: name -> (version, what its tests need beyond the project itself). The plugins are those the
#: projects' pytest configuration or conftest uses (``--reruns``, ``mocker``, gp-libs' doctest
#: collector ``--doctest-docutils-modules``); pytest-timeout is ours, so a hang cannot stall a run.
PROJECTS: dict[str, tuple[str, list[str]]] = {
    "libtmux": ("0.62.0", ["pytest", "pytest-mock", "pytest-rerunfailures", "gp-libs>=0.0.18",
                           "typing-extensions", "pytest-timeout"]),
    "tmuxp": ("1.76.0", ["pytest", "pytest-mock", "pytest-rerunfailures", "gp-libs>=0.0.19",
                         "typing-extensions", "pytest-timeout"]),
}
#: Collected by --doctest-modules but importing Sphinx extensions: documentation tooling.
IGNORED = ["docs/conf.py", "docs/_ext"]


def oracle() -> str:
    path = os.environ.get("HMUX_ORACLE") or os.path.expanduser(
        "~/.cache/hmux-oracles/3.7b/bin/tmux")
    if not os.access(path, os.X_OK):
        sys.exit(f"no tmux 3.7b at {path}: set HMUX_ORACLE or run ../shared/oracles/build 3.7b")
    return path


def log(msg: str) -> None:
    print(msg, flush=True)


def fetch_source(cache: str, name: str, version: str) -> str:
    """The unpacked sdist's directory; downloaded once, unpacked afresh each run (clean tree)."""
    dist = os.path.join(cache, "dist")
    os.makedirs(dist, exist_ok=True)
    tarballs = glob.glob(os.path.join(dist, f"{name}-{version}.tar.gz"))
    if not tarballs:
        log(f"downloading {name}=={version} (sdist)")
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                        "--no-binary", ":all:", "-d", dist, f"{name}=={version}"], check=True)
        tarballs = glob.glob(os.path.join(dist, f"{name}-{version}.tar.gz"))
        if not tarballs:
            sys.exit(f"pip download left no {name}-{version}.tar.gz in {dist}")
    src_root = os.path.join(cache, "src")
    target = os.path.join(src_root, f"{name}-{version}")
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(src_root, exist_ok=True)
    with tarfile.open(tarballs[0]) as tf:
        tf.extractall(src_root, filter="data")
    return target


def make_venv(cache: str, name: str, version: str, src: str, needs: list[str]) -> str:
    """The venv's python, with the project and ``needs`` installed (reused if unchanged)."""
    venv = os.path.join(cache, f"venv-{name}-{version}")
    stamp = os.path.join(venv, "hmux-suites.stamp")
    want = "\n".join([f"-e {src}", *needs]) + "\n"
    python = os.path.join(venv, "bin", "python")
    try:
        with open(stamp) as f:
            if f.read() == want and os.access(python, os.X_OK):
                return python
    except OSError:
        pass
    log(f"creating venv {venv}")
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    # Editable: pytest collects the doctests of src/NAME, which must be the modules imported.
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "-e", src, *needs], check=True)
    with open(stamp, "w") as f:
        f.write(want)
    return python


def hmux_venv(cache: str, hmux_root: str) -> str:
    """A venv with hmux installed from ``hmux_root`` as a user installs it (``pip install .``,
    not editable: the C client is built where a compiler is found); made afresh each run."""
    venv = os.path.join(cache, "venv-hmux")
    log(f"installing hmux from {hmux_root} into {venv}")
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    python = os.path.join(venv, "bin", "python")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    hmux_root], check=True)
    return python


def tmux_dir(kind: str, base: str, hmux_python: str | None) -> str:
    """A directory holding ``tmux``: the oracle, or the shim of the hmux that ``hmux_python``
    runs, as ``hmux doctor --install-shim`` writes it."""
    bindir = os.path.join(base, "bin")
    os.makedirs(bindir)
    if kind == "tmux":
        os.symlink(oracle(), os.path.join(bindir, "tmux"))
        return bindir
    assert hmux_python is not None
    subprocess.run([hmux_python, "-c", "import sys; from hmux_core.tmux_shim import install; "
                    "install(sys.argv[1])", bindir], check=True)
    return bindir


@dataclass
class Run:
    project: str
    kind: str
    seconds: float = 0.0
    outcomes: dict[str, str] = field(default_factory=dict)
    summary: str = ""
    log: str = ""

    def count(self, outcome: str) -> int:
        return sum(1 for o in self.outcomes.values() if o == outcome)


def read_junit(path: str) -> dict[str, str]:
    """test id -> passed/failed/skipped/error, from pytest's JUnit XML (final outcome of reruns)."""
    outcomes: dict[str, str] = {}
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return outcomes
    for case in root.iter("testcase"):
        test_id = f"{case.get('classname', '')}::{case.get('name', '')}"
        tags = {child.tag for child in case}
        if "failure" in tags:
            outcome = "failed"
        elif "error" in tags:
            outcome = "error"
        elif "skipped" in tags:
            outcome = "skipped"
        else:
            outcome = "passed"
        # A test failing and then erroring in teardown appears twice: keep the worse.
        if outcomes.get(test_id) not in ("failed", "error"):
            outcomes[test_id] = outcome
    return outcomes


def kill_leftovers(tmpdir: str, tmux: str) -> None:
    """Servers the suite left in our private socket directory (they are ours: kill by socket)."""
    for sock in glob.glob(os.path.join(tmpdir, "tmux-*", "*")):
        if not sock.endswith(".lock"):
            subprocess.run([tmux, "-S", sock, "kill-server"], capture_output=True, timeout=30)


def run_suite(project: str, kind: str, python: str, src: str, results: str, ns: argparse.Namespace
              ) -> Run:
    base = tempfile.mkdtemp(prefix=f"hmux-suites-{project}-{kind}-")
    bindir = tmux_dir(kind, base, ns.hmux_python)
    home = os.path.join(base, "home")
    sockets = os.path.join(base, "sockets")
    os.makedirs(home)
    os.makedirs(sockets)
    env = {k: v for k, v in os.environ.items()
           if k not in ("TMUX", "TMUX_PANE", "PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    if kind == "hmux" and ns.hmux_plugins is not None:
        env["TMUX_C2RS_PLUGINS"] = ns.hmux_plugins
    env.update(HOME=home, TMUX_TMPDIR=sockets, PYTHONDONTWRITEBYTECODE="1",
               PATH=os.pathsep.join([bindir, os.path.dirname(python), env.get("PATH", "")]))
    junit = os.path.join(results, f"{project}-{kind}.xml")
    logfile = os.path.join(results, f"{project}-{kind}.log")
    argv = [python, "-m", "pytest", "-p", "no:cacheprovider", "-rfE", f"--junitxml={junit}",
            f"--timeout={ns.timeout}"]
    argv += [f"--ignore={p}" for p in IGNORED]
    if ns.k:
        argv += ["-k", ns.k]
    if ns.jobs > 1:
        argv += ["-n", str(ns.jobs)]
    argv += ns.pytest_args
    if os.path.exists(junit):
        os.remove(junit)
    log(f"{project} with {kind}: running (log {logfile})")
    start = time.perf_counter()
    with open(logfile, "w") as out:
        proc = subprocess.Popen(argv, cwd=src, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            proc.wait(timeout=ns.run_timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)  # the pytest we started, and its children
            proc.wait()
            out.write(f"\nhmux-suites: run stopped after {ns.run_timeout} s\n")
    seconds = time.perf_counter() - start
    kill_leftovers(sockets, os.path.join(bindir, "tmux"))
    run = Run(project, kind, seconds, read_junit(junit), log=logfile)
    with open(logfile, errors="replace") as f:
        tail = [line.strip() for line in f if line.startswith("=") and " in " in line]
    run.summary = tail[-1].strip("= ") if tail else "(no pytest summary)"
    shutil.rmtree(base, ignore_errors=True)
    return run


def report(runs: list[Run]) -> None:
    log("")
    log(f"{'project':<9} {'tmux':<5} {'passed':>7} {'failed':>7} {'skipped':>8} {'error':>6}"
        f" {'wall s':>8}")
    for r in runs:
        log(f"{r.project:<9} {r.kind:<5} {r.count('passed'):>7} {r.count('failed'):>7}"
            f" {r.count('skipped'):>8} {r.count('error'):>6} {r.seconds:>8.0f}")
    for r in runs:
        log(f"  {r.project} {r.kind}: pytest says: {r.summary}")
    by_project: dict[str, dict[str, Run]] = {}
    for r in runs:
        by_project.setdefault(r.project, {})[r.kind] = r
    for project, pair in by_project.items():
        if len(pair) != 2:
            continue
        t, h = pair["tmux"], pair["hmux"]
        if t.seconds:
            log(f"\n{project}: hmux wall time {h.seconds / t.seconds:.2f}x tmux")
        diffs = sorted(n for n in set(t.outcomes) | set(h.outcomes)
                       if t.outcomes.get(n) != h.outcomes.get(n))
        log(f"{project}: {len(diffs)} tests whose outcome differs (tmux -> hmux):")
        for n in diffs:
            log(f"  {t.outcomes.get(n, 'absent'):>7} -> {h.outcomes.get(n, 'absent'):<7} {n}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--project", choices=sorted(PROJECTS), action="append",
                    help="run only this project (repeatable; default both)")
    ap.add_argument("--tmux", choices=["tmux", "hmux"], action="append",
                    help="run only with this tmux (repeatable; default both)")
    ap.add_argument("-k", help="pytest -k expression, passed through")
    ap.add_argument("--jobs", type=int, default=1,
                    help="pytest-xdist workers (installs pytest-xdist; default serial). libtmux"
                    " supports xdist (random socket names per test); tmuxp does not list it")
    ap.add_argument("--hmux-plugins", metavar="SET",
                    help="TMUX_C2RS_PLUGINS for the hmux run (default: unset, hmux's default set)")
    ap.add_argument("--timeout", type=int, default=300, help="per-test timeout, seconds")
    ap.add_argument("--run-timeout", type=int, default=3 * 3600, help="per-suite limit, seconds")
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/hmux-suites"))
    ap.add_argument("--hmux", default=CHECKOUT,
                    help="the hmux tree to install and run; default this checkout")
    ap.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    ns = ap.parse_args()
    ns.hmux = os.path.abspath(ns.hmux)
    projects = ns.project or sorted(PROJECTS)
    kinds = ns.tmux or ["tmux", "hmux"]
    results = os.path.join(ns.cache, "results")
    os.makedirs(results, exist_ok=True)
    log(f"machine: {machine()}; load {os.getloadavg()[0]:.2f}")
    log(f"tmux: {oracle()}; hmux: {ns.hmux}")
    ns.hmux_python = hmux_venv(ns.cache, ns.hmux) if "hmux" in kinds else None
    runs: list[Run] = []
    for project in projects:
        version, needs = PROJECTS[project]
        if ns.jobs > 1:
            needs = [*needs, "pytest-xdist"]
        src = fetch_source(ns.cache, project, version)
        python = make_venv(ns.cache, project, version, src, needs)
        for kind in kinds:
            run = run_suite(project, kind, python, src, results, ns)
            log(f"  {run.summary} ({run.seconds:.0f} s wall, load {os.getloadavg()[0]:.2f})")
            runs.append(run)
    report(runs)


if __name__ == "__main__":
    main()
