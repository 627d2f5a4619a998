"""Installable-looking plugin distributions for tests, without pip.

``make_dist`` writes a module and a ``*.dist-info`` directory (METADATA and entry_points.txt)
into a directory that goes on the server's ``PYTHONPATH``: importlib.metadata finds the entry
point exactly as it finds one pip installed, so discovery, selection and loading run for real.
"""

from __future__ import annotations

import os
import textwrap


def make_dist(root: str, dist: str, entry_points: dict[str, str], modules: dict[str, str],
              version: str = "1.0") -> str:
    """Write ``modules`` (name -> source) and a dist-info for ``dist``; return ``root``."""
    os.makedirs(root, exist_ok=True)
    for mod, src in modules.items():
        with open(os.path.join(root, mod + ".py"), "w") as f:
            f.write(textwrap.dedent(src))
    info = os.path.join(root, f"{dist.replace('-', '_')}-{version}.dist-info")
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w") as f:
        f.write(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    with open(os.path.join(info, "entry_points.txt"), "w") as f:
        f.write("[hmux.plugins]\n")
        for name, target in entry_points.items():
            f.write(f"{name} = {target}\n")
    return root


def with_path(env: dict[str, str], *dirs: str) -> dict[str, str]:
    """``env`` with ``dirs`` prepended to PYTHONPATH."""
    env = dict(env)
    parts = list(dirs) + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    env["PYTHONPATH"] = os.pathsep.join(parts)
    return env
