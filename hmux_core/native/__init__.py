"""The C client: ``hmux`` for commands to a running server without starting Python.

client.c is the program, build.py compiles it (setup.py does at install time when a compiler
is found), and :func:`installed_client` finds the one installed as ``hmux``.
"""

from __future__ import annotations

import os


def is_compiled(path: str) -> bool:
    """Whether the ``hmux`` at ``path`` is the compiled client (an ELF file), not the script."""
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def installed_client() -> str | None:
    """The compiled client installed as ``hmux`` in this interpreter's scripts directory, or
    None where ``hmux`` is the Python script (no compiler at install time)."""
    import sysconfig

    path = os.path.join(sysconfig.get_path("scripts"), "hmux")
    return path if is_compiled(path) else None
