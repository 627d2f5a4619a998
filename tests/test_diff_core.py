"""Differential test of the core commands: hmux against tmux 3.3a, case by case.

Each case of ``diff_cases.CASES`` runs on a fresh tmux oracle and a fresh hmux server; the last
step's (rc, stdout, stderr) must agree after normalisation, and every earlier step's rc. Two client
paths reach hmux: its own client (``hmux`` variant), and the stock tmux client on the hmux socket
(``tmuxclient`` variant, the server started by an hmux step first so tmux never forks its own).
"""

from __future__ import annotations

import os
import re
import signal
import uuid

import pytest
from diff_cases import CASES, Case, Gone, Wait
from harness import HMUX, TMUX, Mux, Result, _alive, base_env, normalise, socket_path, wait_for

# Polling is not under test, so it goes through the fast C client of the same server.
WAIT_TIMEOUT = 5.0


def _label(m: Mux) -> str:
    flag, value = m.socket_args[0], m.socket_args[1]
    return value if flag == "-L" else os.path.basename(value)


def _poller(m: Mux) -> Mux:
    """A tmux client talking to the same server as ``m`` (cheap to start, unlike Python)."""
    if m.argv0 == [TMUX]:
        return m
    path = socket_path(m.env["TMUX_TMPDIR"], "hmux", _label(m))
    return Mux([TMUX], ["-S", path], m.env, cwd=m.cwd, config=None)


def _fast_kill(m: Mux) -> None:
    """Stop the hmux server by pid through the tmux client; the Python client is the fallback."""
    p = _poller(m)
    r = p.cmd("display-message", "-p", "#{pid}", stdin="")
    if r.rc != 0:
        if "no server running" in r.err or "error connecting" in r.err:
            return
        m.kill()
        return
    try:
        pid = int(r.out.strip())
    except ValueError:
        m.kill()
        return
    p.cmd("kill-server", stdin="")
    try:
        wait_for(lambda: not _alive(pid), timeout=5)
    except AssertionError:
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
    text = normalise(text, m.env["TMUX_TMPDIR"])
    text = text.replace(f"SOCKDIR/{_label(m)}", "SOCKDIR/LABEL")
    for pattern, repl in case.subs:
        text = re.sub(pattern, repl, text)
    return text


def _run(case: Case, muxes: list[Mux]) -> tuple[list[int], Result]:
    """Run the steps, step i through muxes[min(i, len-1)]; return earlier rcs and the last result."""
    rcs: list[int] = []
    last = Result(0, "", "")
    n = 0
    for step in case.steps:
        m = muxes[min(n, len(muxes) - 1)]
        if isinstance(step, Wait):
            poll = _poller(m)
            wait_for(lambda s=step, p=poll: s.text in p.cmd("capture-pane", "-p", "-t", s.target, stdin="").out,
                     timeout=WAIT_TIMEOUT)
            continue
        if isinstance(step, Gone):
            poll = _poller(m)
            wait_for(lambda p=poll: p.cmd("list-sessions", stdin="").rc != 0, timeout=WAIT_TIMEOUT)
            continue
        if n:
            rcs.append(last.rc)
        last = m.cmd(*step, stdin="")
        last = Result(last.rc, _norm(last.out, m, case), _norm(last.err, m, case))
        n += 1
    return rcs, last


_ORACLE: dict[str, tuple[list[int], Result]] = {}


def _oracle(case: Case, tmux: Mux) -> tuple[list[int], Result]:
    if case.id not in _ORACLE:
        _ORACLE[case.id] = _run(case, [tmux])
    return _ORACLE[case.id]


def _compare(case: Case, expected: tuple[list[int], Result], got: tuple[list[int], Result]) -> None:
    (erc, eres), (grc, gres) = expected, got
    assert grc == erc, f"earlier steps' rc differ: tmux {erc} vs hmux {grc}"
    assert (gres.rc, gres.out, gres.err) == (eres.rc, eres.out, eres.err), (
        f"\n--- tmux:  rc={eres.rc} out={eres.out!r} err={eres.err!r}"
        f"\n--- hmux:  rc={gres.rc} out={gres.out!r} err={gres.err!r}")


IDS = [c.id for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_hmux_client(case: Case, tmux: Mux, hmux: Mux) -> None:
    expected = _oracle(case, tmux)
    _compare(case, expected, _run(case, [hmux]))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_tmux_client(case: Case, tmux: Mux, hmux: Mux, tmux_client_on_hmux: Mux) -> None:
    expected = _oracle(case, tmux)
    # With no server, the tmux client only reports the missing server (it forks nothing for these
    # commands); otherwise the first step starts the hmux server through hmux's own client.
    muxes = [tmux_client_on_hmux] if case.no_server else [hmux, tmux_client_on_hmux]
    _compare(case, expected, _run(case, muxes))


def test_case_table_is_large_and_unique() -> None:
    assert len(CASES) >= 150
    assert len(set(IDS)) == len(IDS)
