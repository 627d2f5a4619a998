"""``tmux`` that runs hmux, for tools that hard-code the binary name.

Run as ``tmux``, hmux is tmux in everything a tool can see: labelled sockets live in tmux's
directory (``${TMUX_TMPDIR:-/tmp}/tmux-UID``) and a server it starts reads tmux's configuration
files only (``/etc/tmux.conf``, ``~/.tmux.conf``, ``$XDG_CONFIG_HOME/tmux/tmux.conf``,
``~/.config/tmux/tmux.conf``).

The server's jobs need no setup: when no ``tmux`` is on their PATH, the server puts a private
directory holding this shim first on the PATH of ``run-shell``, ``if-shell`` and ``#()`` jobs
(:func:`child_path`), so plugin scripts that call ``tmux ...`` reach it even on a machine without
tmux; with $TMUX set they talk to the server that started them. Panes keep the PATH they are
given, exactly as tmux gives it (tmux's regress ``new-session-environment`` checks it): a shell
that wants ``tmux`` on a machine without it uses ``hmux doctor --install-shim DIR``.

Inside an hmux pane no shim is needed: ``$TMUX`` names the hmux socket and the stock tmux client
speaks the same protocol. Outside one, a tool that runs ``tmux new-session`` would reach tmux's
default socket; the shim makes it reach hmux's. It is opt-in only: the ``hmux-tmux`` console script,
or ``hmux doctor --install-shim DIR``, which writes ``DIR/tmux`` and nothing else, so no one gets
it who did not put DIR on their PATH. Where ``hmux`` is the compiled client (hmux_core/native),
``DIR/tmux`` is a symlink to it, which acts as tmux by its name and runs a command to a running
server without starting Python; otherwise it is the Python script :func:`script` writes. As ``tmux`` it passes every command to the server, hmux's own
subcommands (``plugins``, ``doctor``, ``--version``) included, exactly as tmux would.
"""

from __future__ import annotations

import os
import sys

from .cli import main as cli_main

MARKER = "# hmux tmux shim"


def main() -> int:
    return cli_main(sys.argv[1:], tmux_shim=True)


def script() -> str:
    """The shim's text: this interpreter runs this module without ``site`` (-I -S: no .pth
    files, no user site, not the cwd) with the directory holding hmux_core first on sys.path.
    Tools run hundreds of commands through it, and ``site`` is most of a bare interpreter's
    start (a server it starts runs ``site`` itself, for the plugins). The interpreter is the
    script's own (``#!python -IS``), not run by ``sh``, which costs a process more; only a path
    a ``#!`` line cannot hold goes through ``sh``."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    boot = (f"import sys; sys.path.insert(0, {root!r}); "
            "from hmux_core.tmux_shim import main; sys.exit(main())")
    note = (f"{MARKER} (hmux doctor --install-shim): `tmux` here runs hmux. "
            "Delete this file to remove it.\n")
    python = sys.executable
    if len(python) < 120 and not any(c.isspace() for c in python):
        return f"#!{python} -IS\n{note}{boot}\n"
    import shlex  # (not at the top: every command through the shim imports this module)

    return (f"#!/bin/sh\n{note}"
            f"exec {shlex.quote(python)} -I -S -c {shlex.quote(boot)} \"$@\"\n")


class ShimError(Exception):
    """The shim was not written; the message says why."""


def install(directory: str, native: bool = True) -> str:
    """Write ``directory/tmux``; refuses to replace any file that is not an hmux shim. Where
    ``hmux`` is the compiled client (hmux_core/native), the shim is a symlink to it, which
    acts as tmux by its name and runs a command without starting Python; else (or with
    ``native`` false) it is the Python script of :func:`script`."""
    path = os.path.join(directory, "tmux")
    client = _client() if native else None
    try:
        os.makedirs(directory, exist_ok=True)
        if os.path.lexists(path) and not _is_shim(path):
            raise ShimError(f"{path} exists and is not hmux's shim; not replaced")
        tmp = path + f".{os.getpid()}.tmp"
        if client is not None:
            os.symlink(client, tmp)
        else:
            with open(tmp, "w") as f:
                f.write(script())
            os.chmod(tmp, 0o755)
        os.replace(tmp, path)
    except OSError as e:
        raise ShimError(f"{path}: {e.strerror}") from None
    return path


def _is_shim(path: str) -> bool:
    """A file install() wrote: a symlink to an ``hmux``, or a file carrying the marker (the
    script, or a copy of the compiled client, which holds it as a string)."""
    if os.path.islink(path) and os.path.basename(os.readlink(path)) == "hmux":
        return True
    try:
        with open(path, "rb") as f:
            return MARKER.encode() in f.read(1 << 20)
    except OSError:
        return False


_native: list[str | None] = []


def _client() -> str | None:
    """The compiled ``hmux`` (looked up once per process)."""
    if not _native:
        from .native import installed_client

        _native.append(installed_client())
    return _native[0]


def shim_dir() -> str:
    """The private directory for the server's children: ``hmux-UID/shim`` beside the sockets
    (0700, ours), holding only ``tmux``."""
    from .paths import socket_dir

    return os.path.join(socket_dir(), "shim")


def child_path(path: str | None) -> str | None:
    """PATH for a job or pane: ``path`` itself when a ``tmux`` is on it, else the shim's
    directory first. Never raises: without a usable directory the PATH is left alone."""
    import shutil

    if shutil.which("tmux", path=path or os.defpath) is not None:
        return path
    try:
        directory = shim_dir()
        target = os.path.join(directory, "tmux")
        client = _client()
        if client is not None:
            current = os.path.islink(target) and os.readlink(target) == client
        else:
            try:
                with open(target) as f:
                    current = f.read() == script()
            except (OSError, UnicodeDecodeError):
                current = False
        if not current:
            os.makedirs(directory, mode=0o700, exist_ok=True)
            install(directory)
    except (OSError, ShimError, ValueError):
        return path
    return directory + (os.pathsep + path if path else "")


if __name__ == "__main__":
    sys.exit(main())
