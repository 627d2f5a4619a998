"""Finding the git directory for a working directory, by the walk git itself does.

``setup.c: setup_git_directory_gently_1`` checks, at each level from the physical cwd upwards,
``.git`` as a gitfile, ``.git`` as a directory, then the directory itself as a bare repository,
and stops at a ceiling or a filesystem boundary. Reproducing it step by step (rather than "the
nearest ``.git``") is what makes the answers agree with git in the corners: a ``.git`` file
naming a missing directory stops the walk instead of falling through to an enclosing
repository, while an empty or unreadable ``.git/`` is skipped silently. Only ``stat``,
``readlink``, ``access`` and small reads are used; nothing here runs git.

Environment variables of the *pane* (``GIT_DIR``, ``GIT_WORK_TREE``, ``GIT_COMMON_DIR``) cannot be
seen and are ignored; ``GIT_CEILING_DIRECTORIES`` and ``GIT_DISCOVERY_ACROSS_FILESYSTEM`` are
taken from the server's own environment by the plugin and passed in here.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: git refuses gitfiles larger than this (``read_gitfile_gently``).
MAX_GITFILE = 1 << 20
#: What git reads of HEAD when validating it (``validate_headref``).
HEAD_PEEK = 255
_HEX = frozenset("0123456789abcdefABCDEF")
#: Suffix the kernel adds to ``/proc/<pid>/cwd`` once the directory is removed.
DELETED = " (deleted)"


@dataclass(frozen=True, slots=True)
class Found:
    """Where the walk ended.

    ``top`` is the directory holding the ``.git`` entry that was found (the worktree root unless
    config moves it); ``None`` when the cwd is inside a git directory itself (a bare repository,
    or somewhere under ``.git``).
    """

    cwd: str  #: the physical working directory the walk started from
    git_dir: str  #: real path of the per-worktree git directory ($GIT_DIR)
    top: str | None
    #: $GIT_DIR as it was reached (``R/.git`` even when that is a symlink), lexically
    #: normalised; names come from it so a symlinked ``.git`` does not rename the repository.
    git_dir_as_found: str = ""


def device_of(path: str) -> int:
    """``st_dev`` of a path: the filesystem it is on."""
    return os.stat(path).st_dev


def read_commondir(git_dir: str) -> str | None:
    """The text of ``$GIT_DIR/commondir`` without trailing CR/LF, or ``None`` if absent."""
    try:
        with open(f"{git_dir}/commondir", "rb") as f:
            raw = f.read(MAX_GITFILE)
    except OSError:
        return None
    text = os.fsdecode(raw.rstrip(b"\r\n"))
    return text if text and "\0" not in text else None


def common_dir(git_dir: str, commondir: str | None = None, *, real: bool = True) -> str:
    """``$GIT_DIR/commondir`` resolved against ``$GIT_DIR`` (then real-pathed, as git does, or
    only normalised with ``real=False``), else $GIT_DIR itself."""
    text = read_commondir(git_dir) if commondir is None else commondir
    if not text:
        return git_dir
    joined = os.path.join(git_dir, text)
    return os.path.realpath(joined) if real else os.path.normpath(joined)


def valid_head(path: str) -> bool:
    """git's ``validate_headref``: a symlink into ``refs/``, ``ref:`` + spaces + ``refs/``, or
    a hex object id of a known length (SHA-1 or SHA-256) at the start of the file."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            return os.readlink(path).startswith("refs/")
        with open(path, "rb") as f:
            buf = f.read(HEAD_PEEK)
    except OSError:
        return False
    if buf.startswith(b"ref:"):
        return buf[4:].lstrip(b" \t\n\v\f\r").startswith(b"refs/")
    text = buf.decode("ascii", "replace")
    return any(len(text) >= n and set(text[:n]) <= _HEX for n in (40, 64))


def is_git_dir(path: str) -> bool:
    """git's ``is_git_directory``: a valid HEAD, and ``objects`` and ``refs`` searchable in the
    common dir. EACCES counts as missing, as it does for git."""
    if not valid_head(f"{path}/HEAD"):
        return False
    common = common_dir(path)
    return os.access(f"{common}/objects", os.X_OK) and os.access(f"{common}/refs", os.X_OK)


def _real(path: str) -> str:
    try:
        return real_dir(path)
    except (OSError, ValueError):
        return os.path.realpath(path)


class _Stop(Exception):
    """The walk ends here with no repository (git would die or refuse)."""


def _gitfile(dotgit: str) -> str | None:
    """The directory a ``.git`` file names, or ``None`` if ``dotgit`` is not a regular file
    (git then tries it as a directory). A regular file that is malformed, unreadable or names
    no repository raises :class:`_Stop`: git dies there rather than walking on."""
    try:
        st = os.stat(dotgit)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    if st.st_size > MAX_GITFILE:
        raise _Stop
    try:
        with open(dotgit, "rb") as f:
            buf = f.read(MAX_GITFILE + 1)
    except OSError:
        raise _Stop from None
    if not buf.startswith(b"gitdir: "):
        raise _Stop
    buf = buf.rstrip(b"\r\n")
    if len(buf) < 9:
        raise _Stop
    target = os.fsdecode(buf[8:])
    if "\0" in target:
        raise _Stop
    if not os.path.isabs(target):
        target = os.path.join(os.path.dirname(dotgit), target)
    if not is_git_dir(target):
        raise _Stop
    return os.path.normpath(target)


def parse_ceilings(value: str | None) -> tuple[str, ...]:
    """``GIT_CEILING_DIRECTORIES``: absolute entries, real-pathed until an empty entry (after
    which git only normalises them); relative entries are ignored."""
    if not value:
        return ()
    out: list[str] = []
    resolve = True
    for entry in value.split(":"):
        if entry == "":
            resolve = False
            continue
        if not os.path.isabs(entry):
            continue
        out.append(os.path.realpath(entry) if resolve else os.path.normpath(entry))
    return tuple(out)


def _ceiling_offset(cwd: str, ceilings: Sequence[str]) -> int:
    """git's ``longest_ancestor_length``: length of the longest ceiling that is a proper
    ancestor of ``cwd`` (``/`` counts as 0), or -1."""
    if cwd == "/":
        return -1
    best = -1
    for c in ceilings:
        n = len(c)
        if n > 0 and c.endswith("/"):
            n -= 1
        if cwd[:n] != c[:n] or len(cwd) <= n + 1 or cwd[n] != "/":
            continue
        best = max(best, n)
    return best


_O_PATH = getattr(os, "O_PATH", 0)
_PROC_FD = os.path.isdir("/proc/self/fd")


def real_dir(path: str) -> str:
    """The physical path of a directory (raises OSError if it is not one). The kernel's answer
    through ``/proc/self/fd`` costs three syscalls where ``os.path.realpath`` costs one
    ``lstat`` per component; the sweep does this for every directory it walks from."""
    if _O_PATH and _PROC_FD:
        fd = os.open(path, _O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            return os.readlink(f"/proc/self/fd/{fd}")
        finally:
            os.close(fd)
    real = os.path.realpath(path, strict=True)
    if not os.path.isdir(real):
        raise NotADirectoryError(path)
    return real


def physical(cwd: str) -> str | None:
    """The physical path of a pane's cwd, or ``None`` if it is gone (a ``(deleted)`` suffix
    from ``/proc/<pid>/cwd``, or a path that no longer resolves to a directory)."""
    try:
        return real_dir(cwd)
    except (OSError, ValueError):
        return None


def discover(
    cwd: str,
    *,
    ceilings: Sequence[str] = (),
    across_fs: bool = False,
    device: Callable[[str], int] = device_of,
) -> Found | None:
    """Walk up from ``cwd`` as git does; ``None`` when git would say "not a git repository".

    ``device`` maps a path to its ``st_dev`` (injectable so tests can model mount points).
    """
    start = physical(cwd)
    if start is None:
        return None
    try:
        dev0 = device(start)
    except OSError:
        return None
    ceil = _ceiling_offset(start, ceilings)
    d = start
    try:
        while True:
            dotgit = os.path.join(d, ".git")
            target = _gitfile(dotgit)
            if target is not None:
                return Found(start, _real(target), d, target)
            if is_git_dir(dotgit):
                return Found(start, _real(dotgit), d, dotgit)
            if is_git_dir(d):
                return Found(start, d, None, d)
            parent = os.path.dirname(d)
            if parent == d:
                return None
            offset = 0 if parent == "/" else len(parent)
            if offset <= ceil:
                return None
            if not across_fs:
                try:
                    if device(parent) != dev0:
                        return None
                except OSError:
                    return None
            d = parent
    except (_Stop, ValueError):  # ValueError: a NUL byte in a path read from a file
        return None
