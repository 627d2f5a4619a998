"""The git plugin against git itself: every edge case of the spec's table that git 2.39 can
make, as real repositories, with the plugin's values compared with ``git rev-parse``,
``git symbolic-ref``, ``git status``, git-prompt's ``__git_ps1`` and pygit2.

The plugin is driven through a stub Host here (its file reading is what is under test); the
same cases through a real server are in ``test_git_server.py``. Numbers in test names refer to
the table in ``shared/specs/git.md`` §5.
"""

from __future__ import annotations

import glob
import os
import shutil
import stat
import subprocess
import sys

import pytest
from test_git_support import (
    GIT_VERSION,
    Sandbox,
    StubHost,
    check_against_git,
    copy_pluggy,
    git_view,
    plugin_values,
    pygit2_view,
    values_of,
    world_readable_tmp,
)

from hmux_plugins_git import GitPlugin, discovery


@pytest.fixture
def sb(tmp_path) -> Sandbox:
    return Sandbox(tmp_path)


@pytest.fixture
def shared_sb():
    """A sandbox an unprivileged user can enter (for the permission cases)."""
    root = world_readable_tmp()
    try:
        yield Sandbox(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def short(sb: Sandbox, rev: str, cwd) -> str:
    return sb.out("rev-parse", "--short", rev, cwd=cwd)


# -- 1-4: where, and which HEAD ------------------------------------------------------------------


def test_01_root_and_subdir(sb):
    r = sb.mk()
    (r / "a" / "b").mkdir(parents=True)
    got = check_against_git(sb, r)
    assert (got["git_worktree"], got["git_subdir"], got["git_repo"]) == ("R", "", "R")
    assert (got["git_branch"], got["git_head"], got["git_action"]) == ("main", "main", "")
    assert got["git_worktree_path"] == str(r)
    got = check_against_git(sb, r / "a" / "b")
    assert got["git_subdir"] == "a/b" and got["git_worktree"] == "R"


def test_01_outside_any_repository_everything_is_empty(sb):
    d = sb.path("plain", "dir")
    d.mkdir(parents=True)
    got = check_against_git(sb, d)
    assert set(got.values()) == {""}


def test_02_paths_with_spaces_utf8_and_a_non_utf8_byte(sb):
    r = sb.mk("with space")
    sub = r / "a b" / "ünï"
    sub.mkdir(parents=True)
    got = check_against_git(sb, sub)
    assert got["git_worktree"] == "with space" and got["git_subdir"] == "a b/ünï"
    raw = os.path.join(os.fsencode(r), b"caf\xff")
    os.mkdir(raw)
    odd = os.fsdecode(raw)
    got = check_against_git(sb, odd)
    assert got["git_subdir"] == os.fsdecode(b"caf\xff")
    assert os.fsencode(got["git_subdir"]) == b"caf\xff"


def test_03_detached_head(sb):
    r = sb.mk()
    sb.git("checkout", "-q", "--detach", "HEAD~1", cwd=r)
    got = check_against_git(sb, r)
    assert got["git_branch"] == ""
    assert got["git_head"] == short(sb, "HEAD", r) and len(got["git_head"]) == 7


def test_04_unborn_branch_in_an_empty_repository(sb):
    e = sb.path("E")
    sb.git("init", "-q", e)
    got = check_against_git(sb, e)
    assert (got["git_branch"], got["git_head"], got["git_worktree"]) == ("main", "main", "E")
    assert pygit2_view(e)["unborn"] is True


def test_04_orphan_branch(sb):
    r = sb.mk()
    sb.git("checkout", "-q", "--orphan", "new", cwd=r)
    got = check_against_git(sb, r)
    assert (got["git_branch"], got["git_head"]) == ("new", "new")


# -- 5-9: linked worktrees ---------------------------------------------------------------------


def test_05_linked_worktree_is_named_by_itself(sb):
    r = sb.mk()
    w = sb.path("W")
    sb.git("worktree", "add", "-q", w, "feature", cwd=r)
    (w / "deep").mkdir()
    got = check_against_git(sb, w / "deep")
    assert (got["git_worktree"], got["git_repo"], got["git_subdir"]) == ("W", "R", "deep")
    assert got["git_branch"] == "feature"
    found = discovery.discover(str(w))
    assert found.git_dir == str(r / ".git" / "worktrees" / "W")


def test_06_detached_linked_worktree(sb):
    r = sb.mk()
    w2 = sb.path("W2")
    sb.git("worktree", "add", "-q", "--detach", w2, "HEAD~1", cwd=r)
    got = check_against_git(sb, w2)
    assert got["git_branch"] == "" and got["git_head"] == short(sb, "HEAD", w2)
    assert check_against_git(sb, r)["git_head"] == "main"


def test_07_rebase_in_a_linked_worktree_shows_only_there(sb):
    r = sb.mk()
    w = sb.path("W")
    sb.git("worktree", "add", "-q", w, "feature", cwd=r)
    assert sb.git("rebase", "main", cwd=w, check=False).returncode != 0
    assert (r / ".git" / "worktrees" / "W" / "rebase-merge").is_dir()
    got = check_against_git(sb, w)
    assert (got["git_action"], got["git_action_step"], got["git_action_total"]) == \
        ("rebase", "1", "4")
    assert got["git_branch"] == "feature"
    main = check_against_git(sb, r)
    assert main["git_action"] == "" and main["git_branch"] == "main"


def test_08_moved_worktree_root_is_where_the_git_file_is(sb):
    r = sb.mk()
    w = sb.path("W")
    sb.git("worktree", "add", "-q", w, "feature", cwd=r)
    moved = sb.path("W-moved")
    w.rename(moved)
    # pygit2 derives the workdir from the stale back-link; git and the plugin do not.
    got = check_against_git(sb, moved, pygit2_workdir=False)
    assert got["git_worktree"] == "W-moved" and got["git_worktree_path"] == str(moved)
    assert pygit2_view(moved)["workdir"] == str(w)


def test_09_relative_gitdir_in_a_worktree_git_file(sb):
    # git >= 2.48 writes these with --relative-paths; a relative "gitdir:" has always been read
    # relative to the .git file, so the layout is made by hand and checked against git 2.39.
    r = sb.mk()
    w3 = sb.path("nest", "W3")
    w3.parent.mkdir()
    sb.git("worktree", "add", "-q", w3, "feature", cwd=r)
    (w3 / ".git").write_text("gitdir: ../../R/.git/worktrees/W3\n")
    got = check_against_git(sb, w3)
    assert (got["git_worktree"], got["git_repo"], got["git_branch"]) == ("W3", "R", "feature")


@pytest.mark.skipif(GIT_VERSION < (2, 48), reason="--relative-paths needs git 2.48")
def test_09_relative_worktree_made_by_git(sb):  # pragma: no cover - newer git only
    r = sb.mk()
    w3 = sb.path("W3")
    sb.git("worktree", "add", "-q", "--relative-paths", w3, "feature", cwd=r)
    got = check_against_git(sb, w3)
    assert got["git_worktree"] == "W3"


# -- 10-11: submodules and nesting ---------------------------------------------------------------


def test_10_submodule_root_gitdir_and_name(sb):
    sb.mk()
    s = sb.path("S")
    sb.git("init", "-q", s)
    sb.git("commit", "-q", "--allow-empty", "-m", "s", cwd=s)
    sb.git("submodule", "add", "-q", "../R", "sub", cwd=s)
    (s / "sub" / "x").mkdir()
    got = check_against_git(sb, s / "sub" / "x")
    assert (got["git_worktree"], got["git_subdir"]) == ("sub", "x")
    assert got["git_repo"] == "sub"  # the module's name, not "modules"
    assert discovery.discover(str(s / "sub")).git_dir == str(s / ".git" / "modules" / "sub")
    assert check_against_git(sb, s)["git_repo"] == "S"


def test_10_submodule_with_a_slashed_name_is_named_by_its_last_component(sb):
    sb.mk()
    s = sb.path("S")
    sb.git("init", "-q", s)
    sb.git("commit", "-q", "--allow-empty", "-m", "s", cwd=s)
    sb.git("submodule", "add", "-q", "../R", "libs/foo", cwd=s)
    got = check_against_git(sb, s / "libs" / "foo")
    assert (got["git_worktree"], got["git_repo"]) == ("foo", "foo")
    assert os.path.isdir(s / ".git" / "modules" / "libs" / "foo")


def test_10_cwd_inside_a_submodules_git_dir_follows_its_core_worktree(sb):
    sb.mk()
    s = sb.path("S")
    sb.git("init", "-q", s)
    sb.git("commit", "-q", "--allow-empty", "-m", "s", cwd=s)
    sb.git("submodule", "add", "-q", "../R", "sub", cwd=s)
    # git takes the worktree from the module's core.worktree even from inside its git dir
    got = check_against_git(sb, s / ".git" / "modules" / "sub" / "refs", pygit2_workdir=False)
    assert (got["git_worktree"], got["git_subdir"], got["git_repo"]) == ("sub", "", "sub")


def test_11_nested_plain_repository_inner_wins(sb):
    outer = sb.mk("outer")
    sb.mk("outer/inner")
    got = check_against_git(sb, outer / "inner")
    assert got["git_worktree"] == "inner" and got["git_repo"] == "inner"


# -- 12-22: operations -------------------------------------------------------------------------


def test_12_merge_conflict(sb):
    r = sb.mk()
    assert sb.git("merge", "feature", cwd=r, check=False).returncode != 0
    got = check_against_git(sb, r)
    assert (got["git_action"], got["git_action_step"], got["git_branch"]) == ("merge", "", "main")


def test_13_rebase_conflict_counts_and_keeps_the_branch(sb):
    r = sb.mk()
    sb.git("checkout", "-q", "feature", cwd=r)
    assert sb.git("rebase", "main", cwd=r, check=False).returncode != 0
    got = check_against_git(sb, r)
    assert (got["git_action"], got["git_action_step"], got["git_action_total"]) == \
        ("rebase", "1", "4")
    assert (got["git_branch"], got["git_head"]) == ("feature", "feature")
    assert git_view(sb, r).symbolic == ""  # HEAD itself is detached meanwhile


def test_14_interactive_rebase_stopped_at_edit(sb):
    r = sb.mk()
    sb.git("checkout", "-q", "feature", cwd=r)
    sb.git("rebase", "-i", "HEAD~3", cwd=r, env={"GIT_SEQUENCE_EDITOR": "sed -i 2s/^pick/edit/"})
    got = check_against_git(sb, r)
    assert (got["git_action"], got["git_action_step"], got["git_action_total"]) == \
        ("rebase", "2", "3")
    assert got["git_branch"] == "feature"


def test_15_rebase_from_a_detached_head_has_no_branch(sb):
    r = sb.mk()
    sb.git("checkout", "-q", "--detach", "feature", cwd=r)
    assert sb.git("rebase", "main", cwd=r, check=False).returncode != 0
    assert (r / ".git" / "rebase-merge" / "head-name").read_text().strip() == "detached HEAD"
    got = check_against_git(sb, r)
    assert got["git_action"] == "rebase" and got["git_branch"] == ""
    assert got["git_head"] == short(sb, "HEAD", r)


def test_16_apply_backend_is_the_same_rebase(sb):
    r = sb.mk()
    sb.git("checkout", "-q", "feature", cwd=r)
    assert sb.git("rebase", "--apply", "main", cwd=r, check=False).returncode != 0
    assert (r / ".git" / "rebase-apply" / "rebasing").exists()
    got = check_against_git(sb, r)
    assert (got["git_action"], got["git_action_step"], got["git_action_total"]) == \
        ("rebase", "1", "4")
    assert got["git_branch"] == "feature"


def test_17_am_counts_and_keeps_the_symbolic_branch(sb):
    r = sb.mk()
    sb.git("format-patch", "-q", "-o", sb.path("P"), "main~2..feature", cwd=r)
    patches = sorted(glob.glob(str(sb.path("P", "*.patch"))))
    assert len(patches) == 4
    assert sb.git("am", *patches, cwd=r, check=False).returncode != 0
    got = check_against_git(sb, r)
    assert (got["git_action"], got["git_action_step"], got["git_action_total"]) == ("am", "1", "4")
    assert got["git_branch"] == "main"


def test_18_cherry_pick_single(sb):
    r = sb.mk()
    assert sb.git("cherry-pick", "feature~1", cwd=r, check=False).returncode != 0
    assert not (r / ".git" / "sequencer").exists()
    got = check_against_git(sb, r)
    assert (got["git_action"], got["git_branch"]) == ("cherry-pick", "main")


def test_18_cherry_pick_range_and_after_the_conflict_was_committed(sb):
    r = sb.mk()
    assert sb.git("cherry-pick", "main..feature", cwd=r, check=False).returncode != 0
    assert (r / ".git" / "sequencer").is_dir()
    assert check_against_git(sb, r)["git_action"] == "cherry-pick"
    (r / "f").write_text("resolved\n")
    sb.git("add", "f", cwd=r)
    sb.git("commit", "-qm", "resolved", cwd=r)
    assert not (r / ".git" / "CHERRY_PICK_HEAD").exists()
    # pygit2 says NONE here; git status and git-prompt still say cherry-picking
    got = check_against_git(sb, r, pygit2_action=False)
    assert got["git_action"] == "cherry-pick"
    assert pygit2_view(r)["action"] == ""


def test_19_revert_single(sb):
    r = sb.mk()
    assert sb.git("revert", "--no-edit", "HEAD~1", cwd=r, check=False).returncode != 0
    assert check_against_git(sb, r)["git_action"] == "revert"


def test_19_revert_range(sb):
    r = sb.mk()
    assert sb.git("revert", "--no-edit", "HEAD~1", "HEAD", cwd=r, check=False).returncode != 0
    assert (r / ".git" / "sequencer" / "todo").read_text().startswith("revert ")
    assert check_against_git(sb, r)["git_action"] == "revert"
    os.unlink(r / ".git" / "REVERT_HEAD")  # the state after the conflict was committed
    assert check_against_git(sb, r, pygit2_action=False)["git_action"] == "revert"


def test_20_bisect_detached_then_symbolic(sb):
    r = sb.mk()
    sb.git("bisect", "start", cwd=r)
    got = check_against_git(sb, r)
    assert (got["git_action"], got["git_branch"]) == ("bisect", "main")
    sb.git("bisect", "bad", cwd=r)
    sb.git("bisect", "good", "HEAD~2", cwd=r)
    got = check_against_git(sb, r)
    assert got["git_action"] == "bisect" and got["git_branch"] == ""
    assert got["git_head"] == short(sb, "HEAD", r)


def test_21_merge_stopped_inside_a_rebase_is_a_rebase(sb):
    r = sb.mk()
    feature = sb.out("rev-parse", "feature", cwd=r)
    editor = sb.path("todo-editor.sh")
    editor.write_text(f'#!/bin/sh\necho "merge -C {feature} feature" > "$1"\n')
    editor.chmod(0o755)
    p = sb.git("rebase", "-i", "HEAD", cwd=r, check=False,
               env={"GIT_SEQUENCE_EDITOR": str(editor)})
    assert p.returncode != 0
    assert (r / ".git" / "MERGE_HEAD").exists() and (r / ".git" / "rebase-merge").is_dir()
    v = git_view(sb, r)
    assert {"rebase", "merge"} <= v.status_actions  # git status shows both
    got = check_against_git(sb, r)
    assert got["git_action"] == "rebase" and got["git_branch"] == "main"


def test_22_rebase_apply_with_neither_flag(sb):
    r = sb.mk()
    d = r / ".git" / "rebase-apply"
    d.mkdir()
    # git-prompt says AM/REBASE, git status "rebase": no head-name means it is not a rebase
    # (rebase writes one, am never does); the state lasts only while am sets up
    got = check_against_git(sb, r, status_action=False)
    assert got["git_action"] == "am" and git_view(sb, r).ps1 == "main|AM/REBASE"
    (d / "head-name").write_text("refs/heads/main\n")
    assert plugin_values(r)["git_action"] == "rebase"


# -- 23-26: bare repositories, separate git dirs, inside .git -----------------------------------


def test_23_bare_repository_has_no_worktree_but_answers_the_rest(sb):
    r = sb.mk()
    b = sb.path("B.git")
    sb.git("clone", "-q", "--bare", r, b)
    for cwd in (b, b / "refs"):
        got = check_against_git(sb, cwd)
        assert (got["git_worktree"], got["git_worktree_path"], got["git_subdir"]) == ("", "", "")
        assert (got["git_repo"], got["git_branch"], got["git_head"]) == ("B", "main", "main")
    assert git_view(sb, b).ps1 == "BARE:main"


def test_24_worktree_of_a_bare_repository(sb):
    r = sb.mk()
    b = sb.path("B.git")
    sb.git("clone", "-q", "--bare", r, b)
    bw = sb.path("BW")
    sb.git("worktree", "add", "-q", bw, "feature", cwd=b)
    got = check_against_git(sb, bw)
    assert (got["git_worktree"], got["git_repo"], got["git_branch"]) == ("BW", "B", "feature")


def test_24_bare_repository_named_dot_bare(sb):
    r = sb.mk()
    b = sb.path("proj", ".bare")
    sb.git("clone", "-q", "--bare", r, b)
    sb.git("worktree", "add", "-q", sb.path("proj", "main"), "main", cwd=b)
    got = check_against_git(sb, sb.path("proj", "main"))
    assert (got["git_worktree"], got["git_repo"]) == ("main", "proj")


def test_25_separate_git_dir(sb):
    sw = sb.path("SW")
    sep = sb.path("sep.git")
    sb.git("init", "-q", "--separate-git-dir", sep, sw)
    sb.commit(sw, "f", "x\n", "c")
    got = check_against_git(sb, sw)
    assert (got["git_worktree"], got["git_repo"], got["git_branch"]) == ("SW", "sep", "main")
    assert discovery.discover(str(sw)).git_dir == str(sep)


def test_26_cwd_inside_dot_git_has_no_worktree(sb):
    r = sb.mk()
    for cwd in (r / ".git", r / ".git" / "refs", r / ".git" / "refs" / "heads"):
        # pygit2 reports the worktree from inside .git; git says "inside the git dir"
        got = check_against_git(sb, cwd, pygit2_workdir=False)
        assert (got["git_worktree"], got["git_subdir"]) == ("", "")
        assert (got["git_repo"], got["git_branch"]) == ("R", "main")
    assert git_view(sb, r / ".git").ps1 == "GIT_DIR!"


def test_26_cwd_inside_a_linked_worktrees_git_dir(sb):
    r = sb.mk()
    sb.git("worktree", "add", "-q", sb.path("W"), "feature", cwd=r)
    got = check_against_git(sb, r / ".git" / "worktrees" / "W", pygit2_workdir=False)
    assert (got["git_worktree"], got["git_repo"], got["git_branch"]) == ("", "R", "feature")


# -- 27-31: broken and unreadable .git ------------------------------------------------------------


def test_27_git_file_naming_a_missing_dir_stops_the_walk(sb):
    outer = sb.mk("outer")
    for x in (sb.path("X"), outer / "X"):
        x.mkdir()
        (x / ".git").write_text("gitdir: /nonexistent\n")
        assert git_view(sb, x).in_repo is False
        assert set(plugin_values(x).values()) == {""}
        assert pygit2_view(x) is None


def test_28_malformed_git_file_stops_the_walk(sb):
    outer = sb.mk("outer")
    bj = outer / "bj"
    bj.mkdir()
    (bj / ".git").write_text("garbage\n")
    assert git_view(sb, bj).in_repo is False
    assert set(plugin_values(bj).values()) == {""}


def test_28_a_fifo_named_dot_git_is_skipped_like_git_does(sb):
    outer = sb.mk("outer")
    d = outer / "fifo"
    d.mkdir()
    os.mkfifo(d / ".git")
    got = check_against_git(sb, d, use_pygit2=False)
    assert (got["git_worktree"], got["git_subdir"]) == ("outer", "fifo")


def test_29_empty_dot_git_dir_is_skipped(sb):
    outer = sb.mk("outer")
    bk = outer / "bk"
    (bk / ".git").mkdir(parents=True)
    got = check_against_git(sb, bk)
    assert (got["git_worktree"], got["git_subdir"]) == ("outer", "bk")


def _as_nobody(sb: Sandbox, code: str, *args: str) -> str:
    """Run ``code`` with the plugin importable as uid 65534 (root reads anything)."""
    site = copy_pluggy(sb.root)
    repo_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {"PYTHONPATH": f"{repo_root}:{site}", "HOME": str(sb.home), "PATH": "/usr/bin:/bin"}
    python = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
    p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", python,
                        "-c", code, *args], env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout


def _git_as_nobody(sb: Sandbox, cwd, *args: str) -> str:
    env = dict(sb.env)
    p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "git",
                        *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout.strip()


_PLUGIN_AS_NOBODY = """
import json, sys
from hmux_plugins_git import GitPlugin, VARIABLES
class H:
    def panes(self): return ("%0",)
    def pane_cwd(self, p): return sys.argv[1]
    def option(self, n, p=None): return None
    def invalidate(self, p): pass
    def request_tick(self): pass
    def log(self, m): pass
p = GitPlugin(watch=False); h = H(); p.start(h); p.tick(h)
print(json.dumps({k: p.resolve("%0", k) for k in VARIABLES}))
"""

needs_setpriv = pytest.mark.skipif(
    shutil.which("setpriv") is None or os.geteuid() != 0,
    reason="needs root to switch to an unprivileged user with setpriv")


def _hand_to_nobody(root) -> None:
    os.chmod(root, 0o755)
    for p in [root, *root.rglob("*")]:
        os.lchown(p, 65534, 65534)


@needs_setpriv
def test_30_unreadable_dot_git_is_skipped_without_a_crash(shared_sb):
    import json

    sb = shared_sb
    outer = sb.mk("outer")
    inner = sb.mk("outer/inner")
    _hand_to_nobody(sb.root)
    os.chmod(inner / ".git", 0)
    top = _git_as_nobody(sb, inner, "rev-parse", "--show-toplevel")
    assert top == str(outer)  # git skips the unreadable .git
    got = json.loads(_as_nobody(sb, _PLUGIN_AS_NOBODY, str(inner)))
    assert (got["git_worktree_path"], got["git_subdir"], got["git_repo"]) == \
        (str(outer), "inner", "outer")


@needs_setpriv
def test_31_unreadable_marker_file_drops_only_the_counts(shared_sb):
    import json

    sb = shared_sb
    r = sb.mk()
    sb.git("checkout", "-q", "feature", cwd=r)
    assert sb.git("rebase", "main", cwd=r, check=False).returncode != 0
    _hand_to_nobody(sb.root)
    os.chmod(r / ".git" / "rebase-merge" / "msgnum", 0)
    got = json.loads(_as_nobody(sb, _PLUGIN_AS_NOBODY, str(r)))
    assert (got["git_action"], got["git_action_step"], got["git_action_total"]) == \
        ("rebase", "", "")
    assert got["git_branch"] == "feature"


# -- 32-37: symlinks, deletion, odd HEADs -------------------------------------------------------


def test_32_symlinked_cwd_reports_the_physical_location(sb):
    r = sb.mk()
    (r / "a" / "b").mkdir(parents=True)
    link = sb.path("L")
    link.symlink_to(r / "a" / "b")
    got = check_against_git(sb, link)
    assert (got["git_worktree_path"], got["git_subdir"]) == (str(r), "a/b")


def test_33_symlinked_dot_git(sb):
    r = sb.mk()
    (r / ".git").rename(sb.path("G"))
    (r / ".git").symlink_to("../G")
    got = check_against_git(sb, r)
    assert (got["git_worktree"], got["git_repo"], got["git_branch"]) == ("R", "R", "main")


def test_34_deleted_cwd_is_no_repository(sb):
    r = sb.mk()
    d = r / "gone"
    d.mkdir()
    assert plugin_values(d)["git_worktree"] == "R"
    d.rmdir()
    # /proc/<pid>/cwd of a process sitting in a removed directory
    assert set(plugin_values(f"{d} (deleted)").values()) == {""}
    assert set(plugin_values(d).values()) == {""}


def test_34_deleted_cwd_of_a_real_process(sb):
    r = sb.mk()
    d = r / "gone"
    d.mkdir()
    proc = subprocess.Popen(["sleep", "60"], cwd=d)
    try:
        d.rmdir()
        cwd = os.readlink(f"/proc/{proc.pid}/cwd")
        assert cwd.endswith(" (deleted)")
        assert set(plugin_values(cwd).values()) == {""}
    finally:
        proc.kill()
        proc.wait()


def test_35_head_with_crlf_and_extra_spaces(sb):
    r = sb.mk()
    for text in (b"ref: refs/heads/main\r\n", b"ref:   refs/heads/feature  \n",
                 b"ref:\trefs/heads/main"):
        (r / ".git" / "HEAD").write_bytes(text)
        got = check_against_git(sb, r)
        assert got["git_branch"] in ("main", "feature") and got["git_head"] == got["git_branch"]


def test_35_legacy_symlinked_head(sb):
    r = sb.mk()
    head = r / ".git" / "HEAD"
    head.unlink()
    head.symlink_to("refs/heads/feature")
    got = check_against_git(sb, r, use_pygit2=False)  # libgit2 takes a symlinked HEAD as detached
    assert got["git_branch"] == "feature"


def test_36_head_naming_a_remote_tracking_ref_is_not_a_branch(sb):
    r = sb.mk()
    sb.git("update-ref", "refs/remotes/origin/main", "main", cwd=r)
    sb.git("symbolic-ref", "HEAD", "refs/remotes/origin/main", cwd=r)
    got = check_against_git(sb, r)
    assert (got["git_branch"], got["git_head"]) == ("", "origin/main")


def test_37_sha256_repository(sb):
    s2 = sb.path("S2")
    sb.git("init", "-q", "--object-format=sha256", s2)
    sb.commit(s2, "f", "a\n", "one")
    sb.commit(s2, "f", "b\n", "two")
    got = check_against_git(sb, s2, use_pygit2=False)  # libgit2 1.9 has no sha256
    assert got["git_branch"] == "main"
    sb.git("checkout", "-q", "--detach", "HEAD~1", cwd=s2)
    assert len((s2 / ".git" / "HEAD").read_text().strip()) == 64
    got = check_against_git(sb, s2, use_pygit2=False)
    assert got["git_branch"] == "" and len(got["git_head"]) == 7


def test_37_core_abbrev_sets_the_short_length(sb):
    r = sb.mk()
    sb.git("checkout", "-q", "--detach", "HEAD~1", cwd=r)
    for value in ("10", "4", "no"):
        sb.git("config", "core.abbrev", value, cwd=r)
        got = check_against_git(sb, r)
        assert len(got["git_head"]) == {"10": 10, "4": 4, "no": 40}[value]


def test_37_core_abbrev_from_config_worktree(sb):
    r = sb.mk()
    w = sb.path("W")
    sb.git("worktree", "add", "-q", "--detach", w, "HEAD~1", cwd=r)
    sb.git("config", "extensions.worktreeConfig", "true", cwd=r)
    sb.git("config", "--worktree", "core.abbrev", "12", cwd=w)
    assert (r / ".git" / "worktrees" / "W" / "config.worktree").exists()
    assert len(check_against_git(sb, w)["git_head"]) == 12
    sb.git("checkout", "-q", "--detach", cwd=r)
    assert len(check_against_git(sb, r)["git_head"]) == 7


# -- 38-39: reftable (git 2.45+), made by hand here ---------------------------------------------


def _reftable_layout(sb: Sandbox, name: str = "RT"):
    """What ``git init --ref-format=reftable`` writes, minus real tables: HEAD and refs/heads
    stubs, the extension in the config. git 2.39 refuses such a repository, so only the
    plugin's answer is pinned."""
    rt = sb.path(name)
    g = rt / ".git"
    (g / "objects").mkdir(parents=True)
    (g / "refs").mkdir()
    (g / "refs" / "heads").write_text("this repository uses the reftable format\n")
    (g / "reftable").mkdir()
    (g / "reftable" / "tables.list").write_text("")
    (g / "HEAD").write_text("ref: refs/heads/.invalid\n")
    (g / "config").write_text(
        "[core]\n\trepositoryformatversion = 1\n\tbare = false\n"
        "[extensions] # the section opens despite the comment\n\tRefStorage = reftable\n")
    return rt


def test_38_reftable_reports_no_branch_and_no_commit_but_the_rest(sb):
    rt = _reftable_layout(sb)
    (rt / "src").mkdir()
    got = plugin_values(rt / "src")
    assert (got["git_worktree"], got["git_subdir"], got["git_repo"]) == ("RT", "src", "RT")
    assert (got["git_branch"], got["git_head"], got["git_action"]) == ("", "", "")
    assert ".invalid" not in "".join(got.values())
    (rt / ".git" / "MERGE_HEAD").write_text("0" * 40 + "\n")
    assert plugin_values(rt)["git_action"] == "merge"


def test_38_reftable_stub_alone_is_never_shown(sb):
    rt = _reftable_layout(sb)
    (rt / ".git" / "config").write_text("[core]\n\trepositoryformatversion = 0\n")
    got = plugin_values(rt)
    assert (got["git_branch"], got["git_head"]) == ("", "")


@pytest.mark.skipif(GIT_VERSION < (2, 45), reason="reftable needs git 2.45")
def test_38_reftable_made_by_git(sb):  # pragma: no cover - newer git only
    rt = sb.path("RT")
    sb.git("init", "-q", "--ref-format=reftable", rt)
    sb.commit(rt, "f", "x\n", "c")
    sb.git("checkout", "-qb", "x", cwd=rt)
    got = plugin_values(rt)
    assert (got["git_branch"], got["git_head"], got["git_worktree"]) == ("", "", "RT")


def test_39_reftable_cherry_pick_range_is_seen_through_the_sequencer(sb):
    rt = _reftable_layout(sb)
    seq = rt / ".git" / "sequencer"
    seq.mkdir()
    (seq / "todo").write_text("pick 89df9ee f1\n")
    assert plugin_values(rt)["git_action"] == "cherry-pick"
    (seq / "todo").write_text("  revert 89df9ee f1\n")
    assert plugin_values(rt)["git_action"] == "revert"


# -- 40-43 -------------------------------------------------------------------------------------


def test_40_core_worktree_elsewhere_is_honoured_like_git(sb):
    c = sb.path("C")
    sb.git("init", "-q", c)
    sb.commit(c, "f", "x\n", "c")
    other = sb.path("other")
    other.mkdir()
    sb.git("config", "core.worktree", other, cwd=c)
    got = check_against_git(sb, c, pygit2_workdir=True)
    assert (got["git_worktree_path"], got["git_subdir"]) == (str(other), "")
    assert git_view(sb, c).inside_work_tree is False


def test_40_core_worktree_relative_to_the_git_dir(sb):
    c = sb.path("C")
    sb.git("init", "-q", c)
    sb.commit(c, "f", "x\n", "c")
    (c / "sub").mkdir()
    sb.git("config", "core.worktree", "..", cwd=c)
    assert check_against_git(sb, c / "sub")["git_subdir"] == "sub"
    # from inside .git git now counts the cwd as part of the worktree
    got = check_against_git(sb, c / ".git", pygit2_workdir=False)
    assert (got["git_worktree"], got["git_subdir"]) == ("C", ".git")


def test_40_core_bare_true_on_a_dot_git_dir_means_no_worktree(sb):
    r = sb.mk()
    sb.git("config", "core.bare", "true", cwd=r)
    got = check_against_git(sb, r, pygit2_workdir=False)
    assert (got["git_worktree"], got["git_repo"], got["git_branch"]) == ("", "R", "main")


def test_41_ceiling_directories_like_git(sb, monkeypatch):
    r = sb.mk()
    deep = r / "a" / "b"
    deep.mkdir(parents=True)
    # a ceiling is never examined itself, and one equal to the cwd does not count
    for ceiling, inside in ((r / "a", False), (r, False), (deep, True), (sb.root, True)):
        env = {"GIT_CEILING_DIRECTORIES": str(ceiling)}
        assert git_view(sb, deep, env).in_repo is inside, ceiling
        found = discovery.discover(str(deep), ceilings=discovery.parse_ceilings(str(ceiling)))
        assert (found is not None) is inside, ceiling
        monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(ceiling))
        assert (plugin_values(deep)["git_worktree"] == "R") is inside


def test_41_mount_boundary_stops_the_walk(sb, monkeypatch):
    r = sb.mk()
    mnt = r / "mnt" / "deep"
    mnt.mkdir(parents=True)
    real = os.stat(r).st_dev

    def device(path: str) -> int:  # r/mnt is "another filesystem"
        return real + 1 if path.startswith(str(r / "mnt")) else real

    assert discovery.discover(str(mnt), device=device) is None
    assert discovery.discover(str(mnt), device=device, across_fs=True).top == str(r)
    assert plugin_values(mnt, device=device)["git_worktree"] == ""
    monkeypatch.setenv("GIT_DISCOVERY_ACROSS_FILESYSTEM", "true")
    assert plugin_values(mnt, device=device)["git_worktree"] == "R"


def test_42_stale_rebase_head_and_orig_head_are_not_an_operation(sb):
    r = sb.mk()
    (r / ".git" / "REBASE_HEAD").write_text("0" * 40 + "\n")
    (r / ".git" / "ORIG_HEAD").write_text("0" * 40 + "\n")
    (r / ".git" / "MERGE_MSG").write_text("Merge branch 'x'\n")
    assert check_against_git(sb, r)["git_action"] == ""


def test_43_transient_rebase_files(sb):
    r = sb.mk()
    d = r / ".git" / "rebase-merge"
    d.mkdir()
    (d / "msgnum").write_text("")
    (d / "end").write_text("4\n")
    got = check_against_git(sb, r)  # no head-name yet: the branch comes from HEAD
    assert (got["git_action"], got["git_action_step"], got["git_action_total"]) == \
        ("rebase", "", "")
    assert got["git_branch"] == "main"
    (d / "msgnum").write_text("2")
    (d / "head-name").write_text("refs/heads/feature")
    got = plugin_values(r)
    assert (got["git_action_step"], got["git_action_total"], got["git_branch"]) == \
        ("2", "4", "feature")
    (d / "msgnum").write_text("x\n")
    assert plugin_values(r)["git_action_step"] == ""


def test_many_panes_one_worktree_share_one_entry(sb):
    r = sb.mk()
    (r / "src").mkdir()
    host = StubHost({f"%{i}": str(r if i % 2 else r / "src") for i in range(12)})
    plugin = GitPlugin(watch=False)
    plugin.start(host)
    plugin.tick(host)
    assert plugin.last_stats == {"panes": 12, "walks": 2, "repos": 1, "changed": 1}
    assert values_of(plugin, "%1")["git_subdir"] == "" and values_of(plugin, "%2")[
        "git_subdir"] == "src"
    assert stat.S_ISDIR(os.stat(r / ".git").st_mode)
