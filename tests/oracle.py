"""Which tmux the differential tests compare hmux with: the one setting for the whole suite.

``HMUX_ORACLE`` names the oracle binary. Unset, it is tmux 3.7b built from the tarball in the
shared oracles folder (``../shared/oracles/build 3.7b``, cached under
``~/.cache/hmux-oracles/3.7b``), built here on first use if the script can be found. No oracle is a
failure, not a skip: a differential suite that silently skipped would prove nothing.

``STOCK_TMUX`` is Debian's packaged tmux (3.3a), kept for one job only: an older release's stock
*client* driving the hmux server over the wire protocol (version 8 in both).
"""

from __future__ import annotations

import os
import shutil
import subprocess

ORACLE_VERSION = "tmux 3.7b"
_CACHE = os.path.join(os.environ.get("HMUX_ORACLE_CACHE") or os.path.expanduser("~/.cache/hmux-oracles"),
                      "3.7b", "bin", "tmux")


def _build_script() -> str | None:
    here = os.path.dirname(os.path.abspath(__file__))
    for root in (os.path.join(here, "..", ".."), "/work"):
        script = os.path.normpath(os.path.join(root, "shared", "oracles", "build"))
        if os.access(script, os.X_OK):
            return script
    return None


def _find_oracle() -> str:
    named = os.environ.get("HMUX_ORACLE")
    if named:
        return named
    if os.access(_CACHE, os.X_OK):
        return _CACHE
    script = _build_script()
    if script is not None:
        p = subprocess.run([script, "3.7b"], capture_output=True, text=True)
        path = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        if p.returncode == 0 and os.access(path, os.X_OK):
            return path
    raise RuntimeError("no tmux oracle: set HMUX_ORACLE or run ../shared/oracles/build 3.7b")


def tarball(version: str) -> str | None:
    """The source tarball the oracle of ``version`` is built from (regress scripts live in it)."""
    script = _build_script()
    if script is None:
        return None
    folder = os.path.dirname(script)
    for name in sorted(os.listdir(folder)):
        if name.startswith(f"tmux-{version}") and name.endswith(".tar.gz"):
            return os.path.join(folder, name)
    return None


ORACLE = _find_oracle()


def _find_next() -> str:
    """The "next" oracle: tmux's development tree (``../shared/oracles/build next``), which is
    the specification of the additions beyond 3.7b hmux has (docs/extensions.md).
    ``HMUX_ORACLE_NEXT`` overrides; built here on first use like the 3.7b one."""
    named = os.environ.get("HMUX_ORACLE_NEXT")
    if named:
        return named
    cache = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(_CACHE))), "next",
                         "bin", "tmux")
    if os.access(cache, os.X_OK):
        return cache
    script = _build_script()
    if script is not None:
        p = subprocess.run([script, "next"], capture_output=True, text=True)
        path = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        if p.returncode == 0 and os.access(path, os.X_OK):
            return path
    raise RuntimeError("no next oracle: set HMUX_ORACLE_NEXT or run ../shared/oracles/build next")


ORACLE_NEXT = _find_next()
STOCK_TMUX = shutil.which("tmux", path="/usr/bin:/bin") or "/usr/bin/tmux"
