"""Compiling the C client (client.c beside this file; it says why there is one).

setup.py runs this at install time, loading the file by path (it imports nothing of hmux_core),
and the tests run it to get a client built from the checkout as it is now.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "client.c")


def tmux_version() -> str | None:
    """version.py's TMUX_VERSION, read as text (this file imports nothing of hmux_core), for
    the client's ``-V``; None if it cannot be read as a plain literal."""
    import re

    path = os.path.join(os.path.dirname(os.path.dirname(SOURCE)), "version.py")
    try:
        with open(path, encoding="utf-8") as f:
            m = re.search(r'^TMUX_VERSION = "([0-9A-Za-z.\-]+)"$', f.read(), re.M)
    except OSError:
        return None
    return m.group(1) if m else None


def compile_client(target: str, python: str | None = None) -> None:
    """Compile the client into ``target``. ``python`` (default: this interpreter) is what it
    becomes for everything but a command to a running server, so it must be able to import
    this hmux_core. Raises OSError or CalledProcessError (its output attached) on failure."""
    python = sys.executable if python is None else python
    if os.environ.get("CC"):
        compilers = [shlex.split(os.environ["CC"])]
    else:  # the compiler Python was built with (its name may not exist here), then plain cc
        compilers = [shlex.split(sysconfig.get_config_var("CC") or "cc"), ["cc"]]
    define = []
    # A path a C string literal holds as it is (anything else: the client looks for python3).
    if python and os.path.isabs(python) and python.isprintable() \
            and not any(ch in python for ch in '"\\'):
        define = [f'-DHMUX_PYTHON="{python}"']
    version = tmux_version()
    if version:
        define.append(f'-DHMUX_TMUX_VERSION="{version}"')
    tmp = f"{target}.{os.getpid()}.tmp"
    try:
        for i, cc in enumerate(compilers):
            try:
                subprocess.run([*cc, "-O2", "-std=c11", *define, "-o", tmp, SOURCE], check=True,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
                break
            except FileNotFoundError:
                if i == len(compilers) - 1:
                    raise
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
