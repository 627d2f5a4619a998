"""What the repository is in the middle of, from the marker files an operation leaves.

The checks and their order are git-prompt's (``__git_ps1``), which is what users compare a
status line with: a rebase beats a merge stopped inside it, and a cherry-pick or revert range
whose conflict was already committed is still seen through ``sequencer/todo``. Every marker is
in the per-worktree git directory, so a rebase in one linked worktree does not show in another.

Both rebase backends are one ``rebase``: ``rebase-merge/interactive`` is written for every
merge-backend rebase since git 2.26, so it cannot tell an interactive rebase from a plain one.
``REBASE_HEAD``, ``ORIG_HEAD``, ``MERGE_MSG`` and ``AUTO_MERGE`` are not markers: they outlive
operations or appear in several.

The files inside ``rebase-*`` are written in place, not renamed, so a read can catch one empty or
half-written; step and total are then both left empty and the next read fixes them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

#: Actions in the order they are checked.
ACTIONS = ("rebase", "am", "merge", "cherry-pick", "revert", "bisect")


@dataclass(frozen=True, slots=True)
class Operation:
    action: str = ""  #: one of :data:`ACTIONS`, or ``""``
    step: str = ""  #: decimal, set together with ``total`` or not at all
    total: str = ""
    #: First line of ``rebase-*/head-name`` during a rebase (``refs/heads/x`` or
    #: ``detached HEAD``); ``None`` when there is none (yet).
    head_name: str | None = None
    #: Marker directory present (``rebase-merge``/``rebase-apply``/``sequencer``), for
    #: fingerprints and watching.
    marker_dir: str | None = None


NONE = Operation()


def first_line(path: str) -> str | None:
    """git-prompt's ``test -r f && IFS=$'\\r\\n' read -r v <f``: the first line without CR/LF,
    or ``None`` if the file cannot be read."""
    try:
        with open(path, "rb") as f:
            raw = f.read(4096)
    except OSError:
        return None
    return os.fsdecode(raw.split(b"\n", 1)[0].rstrip(b"\r"))


def _counts(step_file: str, total_file: str) -> tuple[str, str]:
    step = (first_line(step_file) or "").strip()
    total = (first_line(total_file) or "").strip()
    if step.isdecimal() and total.isdecimal() and step.isascii() and total.isascii():
        return step, total
    return "", ""


def _todo_action(path: str) -> str:
    """The sequencer's pending command (git's ``sequencer_get_last_command``): the first line
    of ``todo`` after leading whitespace, ``pick``/``p`` or ``revert`` then a space or tab."""
    line = first_line(path)
    if line is None:
        return ""
    line = line.lstrip(" \t")
    for word, action in (("pick", "cherry-pick"), ("p", "cherry-pick"), ("revert", "revert")):
        if line.startswith(word) and line[len(word):len(word) + 1] in (" ", "\t"):
            return action
    return ""


def read_operation(git_dir: str) -> Operation:
    """Check the markers in git-prompt's order; the first present decides."""
    g = git_dir
    d = f"{g}/rebase-merge"
    if os.path.isdir(d):
        step, total = _counts(f"{d}/msgnum", f"{d}/end")
        return Operation("rebase", step, total, first_line(f"{d}/head-name"), "rebase-merge")
    d = f"{g}/rebase-apply"
    if os.path.isdir(d):
        step, total = _counts(f"{d}/next", f"{d}/last")
        head_name = first_line(f"{d}/head-name")
        if os.path.isfile(f"{d}/rebasing"):
            return Operation("rebase", step, total, head_name, "rebase-apply")
        if os.path.isfile(f"{d}/applying"):
            return Operation("am", step, total, None, "rebase-apply")
        # Neither flag yet: git writes them late in setup. A head-name is only written by
        # rebase, so it decides; otherwise this is am (git-prompt shows "AM/REBASE").
        if head_name is not None:
            return Operation("rebase", step, total, head_name, "rebase-apply")
        return Operation("am", step, total, None, "rebase-apply")
    seq = "sequencer" if os.path.isdir(f"{g}/sequencer") else None
    if os.path.isfile(f"{g}/MERGE_HEAD"):
        return Operation("merge", marker_dir=seq)
    if os.path.isfile(f"{g}/CHERRY_PICK_HEAD"):
        return Operation("cherry-pick", marker_dir=seq)
    if os.path.isfile(f"{g}/REVERT_HEAD"):
        return Operation("revert", marker_dir=seq)
    if seq is not None:
        action = _todo_action(f"{g}/sequencer/todo")
        if action:
            return Operation(action, marker_dir=seq)
    if os.path.isfile(f"{g}/BISECT_LOG"):
        return Operation("bisect", marker_dir=seq)
    return Operation(marker_dir=seq) if seq is not None else NONE
