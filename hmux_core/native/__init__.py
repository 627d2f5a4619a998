"""The C client: ``hmux`` for commands to a running server without starting Python.

client.c is the program, build.py compiles it (setup.py does at install time when a compiler
is found), and :func:`installed_client` finds the one installed as ``hmux``.
"""

from __future__ import annotations

import os


def installed_client() -> str | None:
    """The compiled client installed as ``hmux`` in this interpreter's scripts directory, or
    None where ``hmux`` is the Python script (no compiler at install time)."""
    import sysconfig

    path = os.path.join(sysconfig.get_path("scripts"), "hmux")
    try:
        with open(path, "rb") as f:
            if f.read(4) == b"\x7fELF":
                return path
    except OSError:
        pass
    return None
