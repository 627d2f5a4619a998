"""tmux 3.7b's own regression scripts (regress/*.sh in the oracle's tarball) run with
``TEST_TMUX`` pointing at hmux: every script that passes on the oracle passes on hmux.

The scripts come from the tarball beside the oracle build script (the same one the oracle is
built from); each runs in its own TMUX_TMPDIR, from a private copy of the regress folder.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tarfile

import pytest
from harness import HMUX, TMUX
from oracle import tarball

TARBALL = tarball("3.7b")


def _scripts() -> list[str]:
    if TARBALL is None:
        return []
    with tarfile.open(TARBALL) as tf:
        return sorted(os.path.basename(m.name) for m in tf.getmembers()
                      if "/regress/" in m.name and m.name.endswith(".sh"))


@pytest.fixture(scope="module")
def regress(tmp_path_factory) -> str:
    root = tmp_path_factory.mktemp("regress")
    with tarfile.open(TARBALL) as tf:
        members = [m for m in tf.getmembers() if "/regress/" in m.name]
        tf.extractall(root, members=members, filter="data")
    (top,) = os.listdir(root)
    return str(root / top / "regress")


@pytest.fixture(scope="module")
def hmux_bin(tmp_path_factory) -> str:
    """An executable that runs this checkout's hmux client (the one the harness runs: the C
    client unless HMUX_CLIENT=python), for the scripts' TEST_TMUX."""
    d = tmp_path_factory.mktemp("bin")
    path = d / "hmux"
    pythonpath = shlex.quote(os.environ.get("PYTHONPATH", ""))
    client = " ".join(shlex.quote(a) for a in HMUX)
    path.write_text(f"#!/bin/sh\nPYTHONPATH={pythonpath} exec {client} \"$@\"\n")
    path.chmod(0o755)
    return str(path)


def _run(script: str, regress: str, test_tmux: str, tmp: str) -> tuple[int, str]:
    work = os.path.join(tmp, os.path.basename(test_tmux))
    shutil.copytree(regress, work, dirs_exist_ok=True)
    sockets = os.path.join(tmp, "sock-" + os.path.basename(test_tmux))
    os.makedirs(sockets, exist_ok=True)
    env = {"PATH": "/usr/bin:/bin", "HOME": tmp, "TEST_TMUX": test_tmux, "TMUX_TMPDIR": sockets,
           "LANG": "C.UTF-8", "TMUX_C2RS_PLUGINS": "none"}
    try:
        p = subprocess.run(["sh", script], cwd=work, env=env, capture_output=True, text=True,
                           timeout=300)
    finally:
        # Whatever the script left running on its sockets goes (-Ltest and -Ltest2 are theirs).
        for label in ("test", "test2"):
            subprocess.run([test_tmux, "-L", label, "kill-server"], env=env, capture_output=True)
    return p.returncode, p.stdout + p.stderr


@pytest.mark.skipif(TARBALL is None, reason="no tmux 3.7b tarball beside the oracle build script")
@pytest.mark.parametrize("script", _scripts())
def test_regress_script(script, regress, hmux_bin, tmp_path):
    rc, out = _run(script, regress, TMUX, str(tmp_path))
    if rc != 0:
        pytest.skip(f"fails on tmux 3.7b itself here (rc {rc}): {out.strip()[-200:]}")
    rc, out = _run(script, regress, hmux_bin, str(tmp_path))
    assert rc == 0, f"{script} fails on hmux (rc {rc}): {out[-2000:]}"
