"""The git plugin's parts on their own: the config reader, HEAD and todo parsing, the cache and
its fingerprints, invalidation, re-discovery, and the watcher (driven through a stub Host)."""

from __future__ import annotations

import os
import time

import pytest
from harness import wait_for
from test_git_support import Sandbox, StubHost, plugin_values, values_of

from hmux_plugins_git import VARIABLES, GitPlugin, hmux_plugin
from hmux_plugins_git.gitconfig import IMPLICIT_TRUE, RepoConfig, as_bool, parse
from hmux_plugins_git.head import Head, parse_head, short_ref
from hmux_plugins_git.operation import _todo_action
from hmux_plugins_git.repo import repo_name
from hmux_plugins_git.watch import relevant


@pytest.fixture
def sb(tmp_path) -> Sandbox:
    return Sandbox(tmp_path)


def age(*paths: os.PathLike[str], seconds: float = 30.0) -> None:
    """Move mtimes into the past so fingerprints are trusted at once (not "racy")."""
    t = time.time() - seconds
    for p in paths:
        os.utime(p, (t, t), follow_symlinks=False)


# -- the hook ----------------------------------------------------------------------------------


def test_entry_point_hook_returns_the_plugin():
    p = hmux_plugin()
    assert isinstance(p, GitPlugin)
    assert (p.name, p.api_version, p.interval) == ("git", 1, 0.5)
    assert tuple(p.variables) == VARIABLES


# -- config ------------------------------------------------------------------------------------


def test_config_sections_keys_and_values():
    text = (
        "[core]\n\tAbbrev = 9\n\tbare\n"
        '[core "x"]\n\tabbrev = 20\n'  # a subsection is another section
        "[extensions] # comment after the header\n\trefStorage = \"reft\"able ; trailing\n"
        "[CORE] worktree = ../../a\\\n b  \n"
        "[extensions]\n\tobjectformat=sha256\n"
    )
    v = parse(text)
    assert v["core.abbrev"] == "9"
    assert v["core.bare"] is IMPLICIT_TRUE
    assert v["extensions.refstorage"] == "reftable"
    assert v["core.worktree"] == "../../a b"  # as git: the continuation keeps one space
    cfg = RepoConfig.from_values(v)
    assert (cfg.abbrev, cfg.bare, cfg.reftable, cfg.hexsz) == (9, True, True, 64)


def test_config_last_assignment_wins_and_bools():
    v = parse("[core]\nbare = true\nbare = off\n")
    assert as_bool(v["core.bare"]) is False
    assert [as_bool(x) for x in ("yes", "On", "1", "0", "", "2", "maybe")] == \
        [True, True, True, False, False, True, None]


def test_config_abbrev_values():
    def abbrev(value: str) -> int | None:
        return RepoConfig.from_values(parse(f"[core]\nabbrev = {value}\n")).abbrev

    assert [abbrev(x) for x in ("auto", "no", "false", "12", "3", "41", "x")] == \
        [None, 40, 40, 12, None, None, None]


def test_config_quoted_escapes_and_comments_inside_quotes():
    v = parse('[core]\nworktree = "a # not a comment" \\t\\"q\\"\n')
    assert v["core.worktree"] == 'a # not a comment \t"q"'


# -- HEAD and todo -----------------------------------------------------------------------------


def test_parse_head_forms():
    sha1, sha256 = "a" * 40, "b" * 64
    assert parse_head(b"ref: refs/heads/x\n") == Head(ref="refs/heads/x")
    assert parse_head(b"ref:refs/heads/x") == Head(ref="refs/heads/x")
    assert parse_head(b"ref: HEAD\n") == Head()  # not under refs/
    assert parse_head(sha1.encode() + b"\n") == Head(oid=sha1)
    assert parse_head(sha1.upper().encode()) == Head(oid=sha1)
    assert parse_head(sha256.encode(), 64) == Head(oid=sha256)
    assert parse_head(sha256.encode(), 40) == Head()  # wrong length for the format
    assert parse_head(b"") == Head()
    assert Head(ref="refs/heads/.invalid").stub


def test_short_ref():
    assert short_ref("refs/remotes/origin/main") == "origin/main"
    assert short_ref("refs/tags/v1") == "v1"
    assert short_ref("refs/notes/x") == "notes/x"


def test_todo_first_command(tmp_path):
    todo = tmp_path / "todo"
    for text, want in (("pick 1 a\n", "cherry-pick"), ("p 1 a", "cherry-pick"),
                       ("  \trevert 1 a", "revert"), ("picky 1", ""), ("exec x", ""), ("", "")):
        todo.write_text(text)
        assert _todo_action(str(todo)) == want, text
    assert _todo_action(str(tmp_path / "missing")) == ""


def test_repo_name_rule(tmp_path):
    assert repo_name("/x/proj/.git") == "proj"
    assert repo_name("/x/B.git") == "B"
    assert repo_name("/x/B") == "B"
    assert repo_name("/x/proj/.bare") == "proj"
    assert repo_name("/x/.git") == "x"


# -- the cache ---------------------------------------------------------------------------------


def test_unchanged_repository_is_not_read_again_and_a_change_is(sb):
    r = sb.mk()
    g = r / ".git"
    age(g, g / "HEAD", g / "config")
    host = StubHost({"%0": str(r), "%1": str(r)})
    plugin = GitPlugin(watch=False)
    plugin.start(host)
    plugin.tick(host)
    assert plugin.last_stats["changed"] == 1
    assert sorted(host.invalidated) == ["%0", "%1"]
    host.invalidated.clear()
    first = plugin._values
    plugin.tick(host)
    assert plugin.last_stats == {"panes": 2, "walks": 0, "repos": 1, "changed": 0}
    assert host.invalidated == []
    sb.git("checkout", "-q", "feature", cwd=r)
    plugin.tick(host)
    assert plugin.last_stats["changed"] == 1
    assert sorted(host.invalidated) == ["%0", "%1"]
    assert values_of(plugin)["git_branch"] == "feature"
    assert first["%0"]["git_branch"] == "main"  # the published table was replaced, not edited


def test_a_fresh_change_is_read_again_until_its_mtime_settles(sb):
    r = sb.mk()
    host = StubHost({"%0": str(r)})
    plugin = GitPlugin(watch=False)
    plugin.start(host)
    plugin.tick(host)
    plugin.tick(host)  # HEAD was written just now: its fingerprint is not trusted yet
    assert plugin.last_stats["changed"] == 0  # re-read, but the same state: nothing changed
    assert host.invalidated == ["%0"]


def test_only_panes_whose_values_changed_are_invalidated(sb):
    r1, r2 = sb.mk("R1"), sb.mk("R2")
    host = StubHost({"%0": str(r1), "%1": str(r2)})
    plugin = GitPlugin(watch=False)
    plugin.start(host)
    plugin.tick(host)
    host.invalidated.clear()
    sb.git("checkout", "-q", "feature", cwd=r2)
    plugin.tick(host)
    assert host.invalidated == ["%1"]


def test_pane_moving_between_repositories(sb):
    r1, r2 = sb.mk("R1"), sb.mk("R2")
    plain = sb.path("plain")
    plain.mkdir()
    host = StubHost({"%0": str(r1)})
    plugin = GitPlugin(watch=False)
    plugin.start(host)
    plugin.tick(host)
    assert values_of(plugin)["git_worktree"] == "R1"
    for cwd, want in ((r2, "R2"), (plain, ""), (r1, "R1")):
        host.cwds["%0"] = str(cwd)
        plugin.tick(host)
        assert values_of(plugin)["git_worktree"] == want


def test_a_pane_created_between_ticks_reads_empty_until_the_next(sb):
    r = sb.mk()
    host = StubHost({"%0": str(r)})
    plugin = GitPlugin(watch=False)
    plugin.start(host)
    plugin.tick(host)
    host.cwds["%1"] = str(r)
    assert plugin.resolve("%1", "git_branch") is None
    assert plugin.resolve("%0", "not_a_variable") is None
    plugin.tick(host)
    assert plugin.resolve("%1", "git_branch") == "main"
    del host.cwds["%1"]
    plugin.tick(host)
    assert plugin.resolve("%1", "git_branch") is None


def test_pane_without_a_cwd_is_empty(sb):
    host = StubHost({"%0": ""})
    plugin = GitPlugin(watch=False)
    plugin.start(host)
    plugin.tick(host)
    assert set(values_of(plugin).values()) == {""}


def test_git_init_above_a_pane_is_found_on_rediscovery(sb):
    d = sb.path("later", "src")
    d.mkdir(parents=True)
    now = [100.0]
    host = StubHost({"%0": str(d)})
    plugin = GitPlugin(watch=False, clock=lambda: now[0])
    plugin.start(host)
    plugin.tick(host)
    assert values_of(plugin)["git_worktree"] == ""
    sb.git("init", "-q", sb.path("later"))
    plugin.tick(host)  # the walk result is still trusted
    assert values_of(plugin)["git_worktree"] == ""
    now[0] += plugin.rediscover * 1.5  # the longest first interval
    plugin.tick(host)
    assert values_of(plugin)["git_worktree"] == "later"
    assert values_of(plugin)["git_subdir"] == "src"


def test_removing_dot_git_empties_the_pane_at_the_next_tick(sb):
    import shutil

    r = sb.mk()
    host = StubHost({"%0": str(r)})
    plugin = GitPlugin(watch=False, clock=lambda: 0.0)  # no time passes: no rediscovery
    plugin.start(host)
    plugin.tick(host)
    assert values_of(plugin)["git_worktree"] == "R"
    shutil.rmtree(r / ".git")
    plugin.tick(host)
    assert set(values_of(plugin).values()) == {""}


def test_nul_bytes_in_git_files_are_not_a_crash(sb):
    r = sb.mk()
    d = r / "nul"
    d.mkdir()
    (d / ".git").write_bytes(b"gitdir: /tmp/a\0b\n")
    assert set(plugin_values(d).values()) == {""}
    w = sb.path("W")
    sb.git("worktree", "add", "-q", w, "feature", cwd=r)
    (r / ".git" / "worktrees" / "W" / "commondir").write_bytes(b"../\0..\n")
    assert plugin_values(w)["git_worktree"] == ""  # no longer a valid git dir
    (r / ".git" / "config").write_bytes(b"[core]\n\tworktree = /a\0b\n")
    assert plugin_values(r)["git_worktree"] == "R"


# -- watching ----------------------------------------------------------------------------------


def test_relevant_changes_are_the_marker_files():
    w = frozenset({"/r/.git"})
    assert relevant({(1, "/r/.git/HEAD")}, w)
    assert relevant({(2, "/r/.git/rebase-merge")}, w)
    assert relevant({(3, "/r/.git")}, w)
    assert not relevant({(1, "/r/.git/index"), (1, "/r/.git/index.lock")}, w)
    assert not relevant({(1, "/r/.git/HEAD.lock"), (2, "/r/.git/ORIG_HEAD")}, w)


def test_watcher_asks_for_a_tick_on_checkout_and_stops_quickly(sb):
    r = sb.mk()
    host = StubHost({"%0": str(r)})
    plugin = GitPlugin(watch=True)
    plugin.start(host)
    try:
        plugin.tick(host)
        w = plugin.watcher
        assert w is not None and w.paths == {str(r / ".git")}
        assert w.active.wait(5)
        host.ticked.clear()
        t0 = time.monotonic()
        sb.git("checkout", "-q", "feature", cwd=r)
        assert host.ticked.wait(5)
        print(f"checkout -> request_tick: {(time.monotonic() - t0) * 1000:.0f} ms")
        plugin.tick(host)
        assert values_of(plugin)["git_branch"] == "feature"
    finally:
        t0 = time.monotonic()
        plugin.stop()
        assert time.monotonic() - t0 < 1.5
    assert plugin.watcher is None


def test_watch_set_follows_a_rebase_directory(sb):
    r = sb.mk()
    host = StubHost({"%0": str(r)})
    plugin = GitPlugin(watch=True)
    plugin.start(host)
    try:
        sb.git("checkout", "-q", "feature", cwd=r)
        assert sb.git("rebase", "main", cwd=r, check=False).returncode != 0
        plugin.tick(host)
        assert plugin.watcher.paths == {str(r / ".git"), str(r / ".git" / "rebase-merge")}
        assert plugin.watcher.active.wait(5)
        host.ticked.clear()
        (r / ".git" / "rebase-merge" / "msgnum").write_text("2\n")  # in place, as git does
        assert host.ticked.wait(5)
        plugin.tick(host)
        assert values_of(plugin)["git_action_step"] == "2"
        sb.git("rebase", "--abort", cwd=r)
        plugin.tick(host)
        assert plugin.watcher.paths == {str(r / ".git")}
        assert values_of(plugin)["git_action"] == ""
    finally:
        plugin.stop()


def test_watch_option_off_means_polling_only(sb):
    r = sb.mk()
    host = StubHost({"%0": str(r)}, options={"@git-watch": "off"})
    plugin = GitPlugin(watch=True)
    plugin.start(host)
    plugin.tick(host)
    assert plugin.watcher is None
    host.options["@git-watch"] = "on"
    plugin.tick(host)
    assert plugin.watcher is not None
    host.options["@git-watch"] = "off"
    plugin.tick(host)
    assert plugin.watcher is None
    plugin.stop()


def test_watcher_failure_leaves_polling(sb, monkeypatch):
    import watchfiles

    def broken(*a, **kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(watchfiles, "watch", broken)
    r = sb.mk()
    host = StubHost({"%0": str(r)})
    plugin = GitPlugin(watch=True)
    plugin.start(host)
    try:
        plugin.tick(host)
        wait_for(lambda: plugin.watcher.error is not None, timeout=5)
        assert "No space left" in plugin.watcher.error
        assert any("polling only" in m for m in host.logs)
        sb.git("checkout", "-q", "feature", cwd=r)
        plugin.tick(host)
        assert values_of(plugin)["git_branch"] == "feature"
    finally:
        plugin.stop()
