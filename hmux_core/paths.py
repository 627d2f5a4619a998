"""Where the server socket lives, with tmux's precedence and its safety checks."""

from __future__ import annotations

import errno
import os
import stat

SOCKET_DIR_PREFIX = "hmux"
#: What hmux uses when it runs as ``tmux`` (the shim): tmux's own directory, ``tmux-UID``, which
#: tools that act as tmux expect (libtmux's tests hard-code it).
TMUX_SOCKET_DIR_PREFIX = "tmux"


class SocketPathError(Exception):
    """The socket directory cannot be used; the message is tmux's."""


def socket_dir(uid: int | None = None, prefix: str = SOCKET_DIR_PREFIX) -> str:
    """``${TMUX_TMPDIR:-/tmp}/hmux-UID``: the first base that resolves, as tmux's expand_paths."""
    uid = os.getuid() if uid is None else uid
    base = None
    for candidate in (os.environ.get("TMUX_TMPDIR") or "", "/tmp"):
        if not candidate:
            continue
        try:
            resolved = os.path.realpath(candidate, strict=True)
        except OSError:
            continue
        base = resolved
        break
    if base is None:
        raise SocketPathError("no suitable socket path")
    return os.path.join(base, f"{prefix}-{uid}")


def ensure_socket_dir(path: str) -> None:
    """Create the per-user directory 0700 and refuse one that another user could enter."""
    uid = os.getuid()
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as e:
        raise SocketPathError(f"error creating {path} ({e.strerror})") from None
    try:
        st = os.lstat(path)
    except OSError as e:
        raise SocketPathError(f"error creating {path} ({e.strerror})") from None
    if not stat.S_ISDIR(st.st_mode):
        raise SocketPathError(f"{path} is not a directory")
    if st.st_uid != uid or (st.st_mode & stat.S_IRWXO) != 0:
        raise SocketPathError(f"directory {path} has unsafe permissions")


def resolve_socket(
    socket_path: str | None, label: str | None, environ: dict[str, str] | None = None,
    prefix: str = SOCKET_DIR_PREFIX,
) -> tuple[str, bool]:
    """The socket to use and whether it is a default (labelled) socket.

    ``-S`` wins, then ``-L``, then the path part of ``$TMUX`` (up to the first comma), then the
    label ``default``.
    """
    env = os.environ if environ is None else environ
    if socket_path:
        return socket_path, False
    if not label:
        tmux = env.get("TMUX", "")
        if tmux:
            path = tmux.split(",", 1)[0]
            if path:
                return path, False
        label = "default"
    if "/" in label:
        raise SocketPathError(f"error creating socket for label {label} ({os.strerror(errno.EINVAL)})")
    d = socket_dir(prefix=prefix)
    ensure_socket_dir(d)
    return os.path.join(d, label), True
