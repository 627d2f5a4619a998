"""Which tmux the differential tests compare hmux with: the one setting for the whole suite.

``HMUX_ORACLE`` names the oracle binary. Unset, it is tmux 3.7b built from the tarball in the
shared oracles folder (``../shared/oracles/build 3.7b``, cached under
``~/.cache/hmux-oracles/3.7b``), built here on first use if the script can be found. No oracle is a
failure, not a skip: a differential suite that silently skipped would prove nothing.

``HMUX_ORACLE_NEXT`` does the same for ``ORACLE_NEXT``, tmux's development tree.

``STOCK_TMUX`` is Debian's packaged tmux (3.3a), kept for one job only: an older release's stock
*client* driving the hmux server over the wire protocol (version 8 in both).
"""

from __future__ import annotations

import os
import shutil
import subprocess

ORACLE_VERSION = "tmux 3.7b"
_CACHE_ROOT = os.environ.get("HMUX_ORACLE_CACHE") or os.path.expanduser("~/.cache/hmux-oracles")


def _build_script() -> str | None:
    here = os.path.dirname(os.path.abspath(__file__))
    for root in (os.path.join(here, "..", ".."), "/work"):
        script = os.path.normpath(os.path.join(root, "shared", "oracles", "build"))
        if os.access(script, os.X_OK):
            return script
    return None


def _find(name: str, variable: str) -> str:
    """The binary ``variable`` names, else the cached build of ``name``, else built now."""
    named = os.environ.get(variable)
    if named:
        return named
    cached = os.path.join(_CACHE_ROOT, name, "bin", "tmux")
    if os.access(cached, os.X_OK):
        return cached
    script = _build_script()
    if script is not None:
        p = subprocess.run([script, name], capture_output=True, text=True)
        path = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        if p.returncode == 0 and os.access(path, os.X_OK):
            return path
    raise RuntimeError(f"no tmux oracle: set {variable} or run ../shared/oracles/build {name}")


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


ORACLE = _find("3.7b", "HMUX_ORACLE")
#: The "next" oracle: tmux's development tree (``../shared/oracles/build next``), the
#: specification of the additions beyond 3.7b that hmux has (docs/extensions.md).
ORACLE_NEXT = _find("next", "HMUX_ORACLE_NEXT")
STOCK_TMUX = shutil.which("tmux", path="/usr/bin:/bin") or "/usr/bin/tmux"
