"""Reading HEAD: the branch it names, or the commit it holds when detached.

HEAD is per worktree (``$GIT_DIR/HEAD``) and replaced atomically (``HEAD.lock`` renamed over it),
so one read is always a whole file. The branch of a symbolic HEAD comes from HEAD itself, so an
unborn branch needs no ref lookup, and a detached HEAD holds its own id, so packed-refs never
need reading either.

A reftable repository keeps its refs in ``reftable/`` and leaves the stub
``ref: refs/heads/.invalid`` in HEAD for old readers. That stub is not a branch (no ref component
may start with ``.``), and the real HEAD cannot be had without parsing reftable blocks, so such a
repository reports neither a branch nor a commit.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

#: The placeholder git writes into HEAD when refs live elsewhere (refs.c).
REFTABLE_STUB = "refs/heads/.invalid"
#: git's default and minimum abbreviation when it cannot count objects (object-name.h).
DEFAULT_ABBREV = 7
_HEX = frozenset("0123456789abcdef")
#: Prefixes ``git rev-parse --abbrev-ref`` drops for refs that are not local branches.
_SHORTEN = ("refs/heads/", "refs/tags/", "refs/remotes/")


@dataclass(frozen=True, slots=True)
class Head:
    """What ``$GIT_DIR/HEAD`` says. Exactly one of ``ref``/``oid`` is set unless broken."""

    ref: str | None = None  #: ``refs/heads/main`` for a symbolic HEAD
    oid: str | None = None  #: full lower-case hex id for a detached HEAD

    @property
    def stub(self) -> bool:
        """The reftable placeholder, never to be shown as a branch."""
        return self.ref == REFTABLE_STUB


def read_head(git_dir: str, hexsz: int = 40) -> Head:
    """Parse HEAD. ``hexsz`` is the object format's id length (40 or 64); a detached id of any
    other length counts as broken (``Head()``), as does an unreadable file."""
    path = f"{git_dir}/HEAD"
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):  # legacy symlinked HEAD (git-prompt's `-h "$g/HEAD"`)
            target = os.readlink(path)
            return Head(ref=target) if target.startswith("refs/") else Head()
        with open(path, "rb") as f:
            raw = f.read(4096)
    except OSError:
        return Head()
    return parse_head(raw, hexsz)


def parse_head(raw: bytes, hexsz: int = 40) -> Head:
    """The content of a HEAD file: ``ref:`` plus whitespace plus ``refs/…`` (trailing
    whitespace and CR/LF dropped, as git's ref reader does), or a hex id."""
    if raw.startswith(b"ref:"):
        ref = os.fsdecode(raw[4:].strip(b" \t\n\v\f\r"))
        return Head(ref=ref) if ref.startswith("refs/") else Head()
    line = raw.split(b"\n", 1)[0].strip(b" \t\r").decode("ascii", "replace").lower()
    if len(line) == hexsz and set(line) <= _HEX:
        return Head(oid=line)
    return Head()


def branch_of(ref: str | None) -> str:
    """The local branch a ref names, or ``""`` (remote-tracking refs, tags, anything else)."""
    if ref and ref.startswith("refs/heads/") and ref != REFTABLE_STUB:
        return ref[len("refs/heads/"):]
    return ""


def short_ref(ref: str) -> str:
    """A non-branch symbolic HEAD shortened the way ``git rev-parse --abbrev-ref HEAD`` usually
    does it (``refs/remotes/origin/main`` -> ``origin/main``); without the ambiguity check,
    which would need every ref."""
    for prefix in _SHORTEN:
        if ref.startswith(prefix) and len(ref) > len(prefix):
            return ref[len(prefix):]
    return ref[len("refs/"):] if ref.startswith("refs/") else ref


def short_oid(oid: str, abbrev: int | None) -> str:
    """``abbrev`` characters (core.abbrev), else 7. git may lengthen an abbreviation until it is
    unique or scale it with the object count; a file reader can do neither."""
    return oid[: abbrev or DEFAULT_ABBREV]
