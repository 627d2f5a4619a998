"""Differential test of the core commands: hmux against tmux 3.3a, case by case.

Each case of ``diff_cases.CASES`` runs on a fresh tmux oracle and on fresh hmux servers; the last
step's (rc, stdout, stderr) must agree after normalisation, and every earlier step's rc. Two client
paths reach hmux, each on its own server: hmux's own client, and the stock tmux client on the hmux
socket (the server started by an hmux step first, so tmux never forks a server of its own). The
three runs of a case go concurrently: most of their time is spent waiting on servers.
"""

from __future__ import annotations

import os
import re
import signal
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from diff_cases import CASES, Case, Gone, Wait
from engines import server_engine_difference
from harness import (
    HMUX,
    TMUX,
    Mux,
    Result,
    _alive,
    base_env,
    normalise,
    reaping,
    socket_path,
    wait_for,
)

# Polling is not under test, so it goes through the fast C client of the same server.
WAIT_TIMEOUT = 20.0  # a bound, not a delay: a loaded machine can be slow to rename or reap


def _label(m: Mux) -> str:
    flag, value = m.socket_args[0], m.socket_args[1]
    return value if flag == "-L" else os.path.basename(value)


def _poller(m: Mux) -> Mux:
    """A tmux client talking to the same server as ``m`` (cheap to start, unlike Python)."""
    if m.argv0 == [TMUX]:
        return m
    path = socket_path(m.env["TMUX_TMPDIR"], "hmux", _label(m))
    return Mux([TMUX], ["-S", path], m.env, cwd=m.cwd, config=None)


_STOPPING: list[int] = []  # hmux server pids told to exit, reaped once at module end


def _fast_kill(m: Mux) -> None:
    """Tell the hmux server to exit through the tmux client, without waiting for it to go."""
    p = _poller(m)
    r = p.cmd("display-message", "-p", "#{pid}", stdin="")
    if r.rc != 0:
        if "no server running" not in r.err and "error connecting" not in r.err:
            m.kill()
        return
    try:
        pid = int(r.out.strip())
    except ValueError:
        m.kill()
        return
    p.cmd("kill-server", stdin="")
    _STOPPING.append(pid)


@pytest.fixture(scope="module", autouse=True)
def _reap_servers():
    """Make sure every hmux server this module started is gone (SIGKILL after a grace period)."""
    yield
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in _STOPPING) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in _STOPPING:
        if _alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


@pytest.fixture
def hmux(muxdir, request) -> Mux:
    """Overrides conftest's ``hmux`` only to tear the server down without two Python clients."""
    env = base_env(muxdir)
    m = Mux(HMUX, ["-L", "h" + uuid.uuid4().hex[:8]], env, cwd=env["HOME"])
    request.addfinalizer(lambda: _fast_kill(m))
    return m


def _norm(text: str, m: Mux, case: Case) -> str:
    tmpdir = m.env["TMUX_TMPDIR"]
    text = normalise(text, tmpdir)
    text = text.replace(f"SOCKDIR/{_label(m)}", "SOCKDIR/LABEL")
    text = text.replace(tmpdir, "TMPDIR")
    text = _BYTES_RE.sub("N bytes]", text)  # history_bytes: each engine stores cells its own way
    for pattern, repl in case.subs:
        text = re.sub(pattern, repl, text)
    return text


_BYTES_RE = re.compile(r"\b\d+ bytes\]")
Outcome = tuple[list[int], Result]


def _wait(step: Wait, m: Mux) -> None:
    poll = _poller(m)
    if step.fmt is None:
        def cond() -> bool:
            return step.text in poll.cmd("capture-pane", "-p", "-t", step.target, stdin="").out
    else:
        def cond() -> bool:
            r = poll.cmd("display-message", "-p", "-t", step.target, step.fmt, stdin="")
            return r.out == step.text + "\n"
    wait_for(reaping(cond, poll) if step.reap else cond, timeout=WAIT_TIMEOUT)


def _run(case: Case, muxes: list[Mux]) -> Outcome:
    """Run the steps, command i through muxes[min(i, len-1)]; return earlier rcs and the last result."""
    rcs: list[int] = []
    last = Result(0, "", "")
    n = 0
    for step in case.steps:
        m = muxes[min(n, len(muxes) - 1)]
        if isinstance(step, Wait):
            _wait(step, m)
            continue
        if isinstance(step, Gone):
            poll = _poller(m)
            wait_for(lambda p=poll: p.cmd("list-sessions", stdin="").rc != 0, timeout=WAIT_TIMEOUT)
            continue
        if n:
            rcs.append(last.rc)
        r = m.cmd(*step, stdin="")
        last = Result(r.rc, _norm(r.out, m, case), _norm(r.err, m, case))
        n += 1
    return rcs, last


def _differences(name: str, expected: Outcome, got: Outcome) -> list[str]:
    (erc, eres), (grc, gres) = expected, got
    problems = []
    if grc != erc:
        problems.append(f"[{name}] earlier steps' rc: tmux {erc} vs hmux {grc}")
    if (gres.rc, gres.out, gres.err) != (eres.rc, eres.out, eres.err):
        problems.append(f"[{name}] last step:\n  tmux: rc={eres.rc} out={eres.out!r} err={eres.err!r}"
                        f"\n  hmux: rc={gres.rc} out={gres.out!r} err={gres.err!r}")
    return problems


@pytest.fixture
def hmux_direct(muxdir, request) -> Mux:
    """A second hmux server, driven only by hmux's own client."""
    env = base_env(muxdir)
    m = Mux(HMUX, ["-L", "d" + uuid.uuid4().hex[:8]], env, cwd=env["HOME"])
    request.addfinalizer(lambda: _fast_kill(m))
    return m


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_core(case: Case, tmux: Mux, hmux: Mux, tmux_client_on_hmux: Mux, hmux_direct: Mux,
              request: pytest.FixtureRequest) -> None:
    """One case, three runs at once: the tmux oracle, hmux's client, tmux's client on hmux.

    With no server, the tmux client only reports the missing server (it forks nothing for those
    commands); otherwise the first step starts the hmux server through hmux's own client.
    """
    reason = server_engine_difference(case.id)
    if reason is not None:  # documented for the HMUX_ENGINE the servers run (tests/engines.py)
        request.applymarker(pytest.mark.xfail(reason=reason, strict=True))
    via = [tmux_client_on_hmux] if case.no_server else [hmux, tmux_client_on_hmux]
    runs = {"tmux": [tmux], "hmux client": [hmux_direct], "tmux client on hmux": via}
    with ThreadPoolExecutor(len(runs)) as pool:
        futures = {name: pool.submit(_run, case, muxes) for name, muxes in runs.items()}
    expected = futures.pop("tmux").result()
    problems = []
    for name, fut in futures.items():
        try:
            problems += _differences(name, expected, fut.result())
        except AssertionError as e:  # a Wait step timed out
            problems.append(f"[{name}] {e}")
    assert not problems, "\n".join(problems)


def test_case_table_is_large_and_unique() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) >= 150 and len(set(ids)) == len(ids)
