"""destroy-unattached (on, keep-last, keep-group) against tmux 3.7b: which sessions go when a
client leaves one and nobody is attached to them."""

from __future__ import annotations

import pytest
from test_control import Ctl


def _left_after_detach(mux, how: str) -> list[str]:
    mux.ok("new-session", "-d", "-s", "a", "-x", "80", "-y", "24", "cat")
    mux.ok("new-session", "-d", "-s", "b", "-t", "a")  # a and b: one group
    mux.ok("new-session", "-d", "-s", "c", "cat")
    mux.ok("new-session", "-d", "-s", "d", "cat")
    mux.ok("set", "-t", "d", "destroy-unattached", "off")
    ctl = Ctl(mux, "attach", "-t", "d")
    try:
        ctl.wait(lambda t: "%session-changed" in t)
        # set while d has its client: the sessions go only when a client leaves one
        ctl.send("set -g destroy-unattached " + how)
        ctl.wait(lambda t: t.count("%end") + t.count("%error") >= 2)
        before = mux.ok("list-sessions", "-F", "#{session_name}").split()
    finally:
        rc = ctl.close()
    assert rc == 0
    r = mux("list-sessions", "-F", "#{session_name}")
    return before + ["|"] + (r.out.split() if r.rc == 0 else [r.err.strip()])


@pytest.mark.parametrize("how", ["off", "on", "keep-last", "keep-group"])
def test_sessions_left_when_a_client_detaches(hmux, tmux, how):
    """A control client attaches to d (kept: its own option is off) and goes; tmux checks
    every unattached session then."""
    got = _left_after_detach(hmux, how)
    assert got == _left_after_detach(tmux, how)
    assert "d" in got
