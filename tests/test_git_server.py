"""The git plugin inside a real hmux server (``TMUX_C2RS_PLUGINS=git``): the spec's edge cases
as panes whose ``#{git_*}`` must match git itself and the plugin's own file reading; a pane that
``cd``s between repositories; a removed cwd; a rebase advancing; and the time a ``git checkout``
takes to show in ``#{git_branch}`` with watching on and off. Everything waits by polling.

The server is polled with the stock tmux client pointed at the hmux socket (a few ms per round
trip, where the Python client costs ~80 ms).
"""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import HMUX, TMUX, Mux, base_env, wait_for
from test_git_support import Sandbox, expected_from_git, git_view, plugin_values

from hmux_plugins_git import VARIABLES

FULL = "|".join(f"#{{{k}}}" for k in VARIABLES)
SHORT = "#{git_head} #{git_action} #{git_action_step}/#{git_action_total}"

pytestmark = pytest.mark.skipif(not os.path.exists(TMUX), reason="needs the tmux client")


class Server:
    """One hmux server with the git plugin, and a fast client for polling it."""

    def __init__(self, tmp: Path, request, config: str | None = None) -> None:
        sock = tmp / "sock"
        sock.mkdir()
        env = base_env(str(sock))
        env["TMUX_C2RS_PLUGINS"] = "git"
        label = "g" + uuid.uuid4().hex[:8]
        conf = "/dev/null"
        if config is not None:
            conf = str(tmp / "hmux.conf")
            Path(conf).write_text(config)
        self.mux = Mux(HMUX, ["-L", label], env, cwd=env["HOME"], config=conf)
        request.addfinalizer(self.mux.kill)
        path = os.path.join(str(sock), f"hmux-{os.getuid()}", label)
        self.fast = Mux([TMUX], ["-S", path], env, cwd=env["HOME"], config=None)
        self.started = False

    def pane_in(self, cwd: str | os.PathLike[str]) -> str:
        """A new pane whose shell sits in ``cwd``; its id."""
        if not self.started:
            out = self.mux.ok("new-session", "-d", "-x", "100", "-y", "10", "-c", os.fspath(cwd),
                              "-P", "-F", "#{pane_id}")
            self.started = True
        else:
            out = self.fast.ok("new-window", "-d", "-c", os.fspath(cwd), "-P", "-F",
                               "#{pane_id}")
        return out.strip()

    def show(self, pane: str, fmt: str) -> str:
        r = self.fast.cmd("display", "-p", "-t", pane, fmt)
        return r.out.removesuffix("\n") if r.rc == 0 else f"<rc={r.rc} {r.err.strip()}>"

    def wait_show(self, pane: str, fmt: str, want: str, timeout: float = 15.0) -> float:
        """Poll until the pane shows ``want``; seconds it took."""
        t0 = time.monotonic()
        last = [None]

        def ok() -> bool:
            last[0] = self.show(pane, fmt)
            return last[0] == want

        try:
            wait_for(ok, timeout=timeout, interval=0.005)
        except AssertionError:
            raise AssertionError(f"pane {pane}: wanted {want!r}, last shown {last[0]!r}") from None
        return time.monotonic() - t0


@pytest.fixture
def sb(tmp_path) -> Sandbox:
    return Sandbox(tmp_path / "world")


@pytest.fixture
def server(tmp_path, request) -> Server:
    return Server(tmp_path, request)


# -- the edge cases, each as a pane --------------------------------------------------------------


def _rebase(sb: Sandbox, r: Path, *args: str, env=None) -> None:
    sb.git("checkout", "-q", "feature", cwd=r)
    sb.git("rebase", *args, cwd=r, check=False, env=env)


def _case_builders() -> dict[str, Callable[[Sandbox], Path]]:
    """Case name -> builder returning the directory a pane should sit in."""

    def c01(sb):
        r = sb.mk("c01")
        (r / "a" / "b").mkdir(parents=True)
        return r / "a" / "b"

    def c02(sb):
        r = sb.mk("c02 with space")
        (r / "a b" / "ünï").mkdir(parents=True)
        return r / "a b" / "ünï"

    def c03(sb):
        r = sb.mk("c03")
        sb.git("checkout", "-q", "--detach", "HEAD~1", cwd=r)
        return r

    def c04(sb):
        e = sb.path("c04")
        sb.git("init", "-q", e)
        return e

    def c05(sb):
        r = sb.mk("c05")
        sb.git("worktree", "add", "-q", sb.path("c05-W"), "feature", cwd=r)
        return sb.path("c05-W")

    def c06(sb):
        r = sb.mk("c06")
        sb.git("worktree", "add", "-q", "--detach", sb.path("c06-W"), "HEAD~1", cwd=r)
        return sb.path("c06-W")

    def c07(sb):
        r = sb.mk("c07")
        w = sb.path("c07-W")
        sb.git("worktree", "add", "-q", w, "feature", cwd=r)
        sb.git("rebase", "main", cwd=w, check=False)
        return w

    def c07main(sb):
        return sb.path("c07")  # built by c07: the main worktree shows no rebase

    def c08(sb):
        r = sb.mk("c08")
        sb.git("worktree", "add", "-q", sb.path("c08-W"), "feature", cwd=r)
        sb.path("c08-W").rename(sb.path("c08-moved"))
        return sb.path("c08-moved")

    def c09(sb):
        r = sb.mk("c09")
        w = sb.path("c09-nest", "W3")
        w.parent.mkdir()
        sb.git("worktree", "add", "-q", w, "feature", cwd=r)
        (w / ".git").write_text("gitdir: ../../c09/.git/worktrees/W3\n")
        return w

    def c10(sb):
        s = sb.path("c10")
        sb.git("init", "-q", s)
        sb.git("commit", "-q", "--allow-empty", "-m", "s", cwd=s)
        sb.git("submodule", "add", "-q", "../c01", "sub", cwd=s)
        (s / "sub" / "x").mkdir()
        return s / "sub" / "x"

    def c11(sb):
        sb.mk("c11")
        return sb.mk("c11/inner")

    def c12(sb):
        r = sb.mk("c12")
        sb.git("merge", "feature", cwd=r, check=False)
        return r

    def c13(sb):
        r = sb.mk("c13")
        _rebase(sb, r, "main")
        return r

    def c14(sb):
        r = sb.mk("c14")
        _rebase(sb, r, "-i", "HEAD~3", env={"GIT_SEQUENCE_EDITOR": "sed -i 2s/^pick/edit/"})
        return r

    def c15(sb):
        r = sb.mk("c15")
        sb.git("checkout", "-q", "--detach", "feature", cwd=r)
        sb.git("rebase", "main", cwd=r, check=False)
        return r

    def c16(sb):
        r = sb.mk("c16")
        _rebase(sb, r, "--apply", "main")
        return r

    def c17(sb):
        r = sb.mk("c17")
        sb.git("format-patch", "-q", "-o", sb.path("c17-P"), "main~2..feature", cwd=r)
        patches = sorted(str(p) for p in sb.path("c17-P").glob("*.patch"))
        sb.git("am", *patches, cwd=r, check=False)
        return r

    def c18(sb):
        r = sb.mk("c18")
        sb.git("cherry-pick", "main..feature", cwd=r, check=False)
        (r / "f").write_text("resolved\n")
        sb.git("add", "f", cwd=r)
        sb.git("commit", "-qm", "resolved", cwd=r)
        return r

    def c19(sb):
        r = sb.mk("c19")
        sb.git("revert", "--no-edit", "HEAD~1", "HEAD", cwd=r, check=False)
        return r

    def c20(sb):
        r = sb.mk("c20")
        sb.git("bisect", "start", cwd=r)
        sb.git("bisect", "bad", cwd=r)
        sb.git("bisect", "good", "HEAD~2", cwd=r)
        return r

    def c21(sb):
        r = sb.mk("c21")
        feature = sb.out("rev-parse", "feature", cwd=r)
        editor = sb.path("c21-editor.sh")
        editor.write_text(f'#!/bin/sh\necho "merge -C {feature} feature" > "$1"\n')
        editor.chmod(0o755)
        sb.git("rebase", "-i", "HEAD", cwd=r, check=False,
               env={"GIT_SEQUENCE_EDITOR": str(editor)})
        return r

    def c22(sb):
        r = sb.mk("c22")
        (r / ".git" / "rebase-apply").mkdir()
        return r

    def c23(sb):
        sb.git("clone", "-q", "--bare", sb.path("c01"), sb.path("c23.git"))
        return sb.path("c23.git")

    def c24(sb):
        sb.git("worktree", "add", "-q", sb.path("c24-BW"), "feature", cwd=sb.path("c23.git"))
        return sb.path("c24-BW")

    def c25(sb):
        sw = sb.path("c25")
        sb.git("init", "-q", "--separate-git-dir", sb.path("c25-sep.git"), sw)
        sb.commit(sw, "f", "x\n", "c")
        return sw

    def c26(sb):
        return sb.path("c01", ".git", "refs")

    def c27(sb):
        x = sb.path("c01", "c27")
        x.mkdir()
        (x / ".git").write_text("gitdir: /nonexistent\n")
        return x

    def c28(sb):
        d = sb.path("c01", "c28")
        d.mkdir()
        (d / ".git").write_text("garbage\n")
        return d

    def c28fifo(sb):
        d = sb.path("c01", "c28fifo")
        d.mkdir()
        os.mkfifo(d / ".git")
        return d

    def c29(sb):
        d = sb.path("c01", "c29")
        (d / ".git").mkdir(parents=True)
        return d

    def c32(sb):
        link = sb.path("c32-link")
        link.symlink_to(sb.path("c01", "a"))
        return link

    def c33(sb):
        r = sb.mk("c33")
        (r / ".git").rename(sb.path("c33-G"))
        (r / ".git").symlink_to("../c33-G")
        return r

    def c35(sb):
        r = sb.mk("c35")
        (r / ".git" / "HEAD").write_bytes(b"ref:   refs/heads/feature \r\n")
        return r

    def c36(sb):
        r = sb.mk("c36")
        sb.git("update-ref", "refs/remotes/origin/main", "main", cwd=r)
        sb.git("symbolic-ref", "HEAD", "refs/remotes/origin/main", cwd=r)
        return r

    def c37(sb):
        s2 = sb.path("c37")
        sb.git("init", "-q", "--object-format=sha256", s2)
        sb.commit(s2, "f", "a\n", "one")
        sb.commit(s2, "f", "b\n", "two")
        sb.git("checkout", "-q", "--detach", "HEAD~1", cwd=s2)
        return s2

    def c40(sb):
        c = sb.path("c40")
        sb.git("init", "-q", c)
        sb.commit(c, "f", "x\n", "c")
        sb.path("c40-other").mkdir()
        sb.git("config", "core.worktree", sb.path("c40-other"), cwd=c)
        return c

    def c42(sb):
        r = sb.mk("c42")
        (r / ".git" / "REBASE_HEAD").write_text("0" * 40 + "\n")
        (r / ".git" / "ORIG_HEAD").write_text("0" * 40 + "\n")
        return r

    def c43(sb):
        r = sb.mk("c43")
        d = r / ".git" / "rebase-merge"
        d.mkdir()
        (d / "msgnum").write_text("")
        (d / "end").write_text("4\n")
        return r

    return {name: fn for name, fn in locals().items() if name.startswith("c")}


def _reftable(sb: Sandbox, name: str = "c38") -> Path:
    rt = sb.path(name)
    g = rt / ".git"
    (g / "objects").mkdir(parents=True)
    (g / "refs").mkdir()
    (g / "refs" / "heads").write_text("this repository uses the reftable format\n")
    (g / "HEAD").write_text("ref: refs/heads/.invalid\n")
    (g / "config").write_text("[core]\n\trepositoryformatversion = 1\n"
                              "[extensions]\n\trefStorage = reftable\n")
    (g / "MERGE_HEAD").write_text("0" * 40 + "\n")
    return rt


def _reftable_range_pick(sb: Sandbox) -> Path:
    linked = _reftable(sb, "c39")
    os.unlink(linked / ".git" / "MERGE_HEAD")
    (linked / ".git" / "sequencer").mkdir()
    (linked / ".git" / "sequencer" / "todo").write_text("pick 89df9ee f1\n")
    return linked


def test_edge_cases_through_a_real_server_match_git_and_the_plugin(sb, server):
    cases = {name: build(sb) for name, build in _case_builders().items()}
    cases["c38"] = _reftable(sb)
    cases["c39"] = _reftable_range_pick(sb)
    panes = {name: server.pane_in(cwd) for name, cwd in cases.items()}
    reftable = {"c38": " merge /", "c39": " cherry-pick /"}
    for name, cwd in cases.items():
        local = plugin_values(cwd)
        full = "|".join(local[k] or "" for k in VARIABLES)
        server.wait_show(panes[name], FULL, full)
        if name in reftable:  # git 2.39 cannot open a reftable repository: pinned instead
            assert server.show(panes[name], SHORT) == reftable[name]
            assert server.show(panes[name], "#{git_worktree}") == name
            continue
        want = expected_from_git(git_view(sb, cwd))
        short = f"{want['git_head']} {want['git_action']} " \
                f"{want['git_action_step']}/{want['git_action_total']}"
        assert server.show(panes[name], SHORT) == short, name
        for key in ("git_worktree_path", "git_subdir", "git_branch"):
            assert local[key] == want[key], (name, key)
    # a few pins, so the comparison above is not only "the same as itself"
    pins = {
        "c13": "feature rebase 1/4", "c14": "feature rebase 2/3", "c16": "feature rebase 1/4",
        "c17": "main am 1/4", "c18": "main cherry-pick /", "c19": "main revert /",
        "c12": "main merge /", "c07main": "main  /", "c36": "origin/main  /",
        "c21": "main rebase 1/1", "c22": "main am /", "c28": "  /", "c35": "feature  /",
        "c43": "main rebase /",
    }
    for name, want in pins.items():
        assert server.show(panes[name], SHORT) == want, name
    assert server.show(panes["c10"], "#{git_worktree} #{git_repo} #{git_subdir}") == "sub sub x"
    assert server.show(panes["c23"], "[#{git_worktree}] #{git_repo} #{git_head}") == "[] c23 main"
    assert server.show(panes["c27"], "[#{git_worktree}]") == "[]"
    assert server.show(panes["c29"], "#{git_worktree}/#{git_subdir}") == "c01/c29"
    assert len(server.show(panes["c37"], "#{git_head}")) == 7
    assert server.show(panes["c09"], "#{git_worktree} #{git_repo}") == "W3 c09"
    assert server.show(panes["c28fifo"], "#{git_worktree}/#{git_subdir}") == "c01/c28fifo"


def test_ceiling_directories_from_the_servers_environment(sb, tmp_path, request):
    r = sb.mk()
    (r / "a" / "b").mkdir(parents=True)
    server = Server(tmp_path, request)
    server.mux.env["GIT_CEILING_DIRECTORIES"] = str(r)
    server.fast.env = server.mux.env
    inside = server.pane_in(r)
    below = server.pane_in(r / "a" / "b")
    assert git_view(sb, r / "a" / "b", {"GIT_CEILING_DIRECTORIES": str(r)}).in_repo is False
    server.wait_show(inside, "#{git_worktree}", "R")  # a ceiling equal to the cwd is no limit
    server.wait_show(below, "[#{git_worktree}]", "[]")


def test_a_pane_cds_between_repositories(sb, server):
    r1, r2 = sb.mk("one"), sb.mk("two")
    (r2 / "src" / "core").mkdir(parents=True)
    plain = sb.path("plain")
    plain.mkdir()
    sb.git("checkout", "-q", "feature", cwd=r2)
    pane = server.pane_in(r1)
    fmt = "#{git_worktree}:#{git_subdir}:#{git_branch}"
    server.wait_show(pane, fmt, "one::main")
    for cwd, want in ((r2 / "src" / "core", "two:src/core:feature"), (plain, "::"),
                      (r1, "one::main")):
        server.mux.ok("send-keys", "-t", pane, f"cd '{cwd}'", "Enter")
        server.wait_show(pane, fmt, want)


def test_removed_cwd_empties_the_pane(sb, server):
    r = sb.mk()
    gone = r / "gone"
    gone.mkdir()
    pane = server.pane_in(gone)
    server.wait_show(pane, "#{git_worktree}/#{git_subdir}", "R/gone")
    shutil.rmtree(gone)
    server.wait_show(pane, "[#{git_worktree}#{git_head}]", "[]")


def test_a_rebase_advancing_shows_each_step(sb, server):
    r = sb.mk()
    sb.git("checkout", "-q", "feature", cwd=r)
    sb.git("rebase", "main", cwd=r, check=False)
    pane = server.pane_in(r)
    server.wait_show(pane, SHORT, "feature rebase 1/4")
    sb.git("rebase", "--skip", cwd=r, check=False)
    step = git_view(sb, r).ps1_step
    server.wait_show(pane, SHORT, f"feature rebase {step}/4")
    sb.git("rebase", "--abort", cwd=r)
    server.wait_show(pane, SHORT, "feature  /")


def _checkout_latencies(sb: Sandbox, server: Server, n: int) -> list[float]:
    r = sb.mk()
    pane = server.pane_in(r)
    server.wait_show(pane, "#{git_branch}", "main")
    times = []
    for i in range(n):
        want = ("feature", "main")[i % 2]
        sb.git("checkout", "-q", want, cwd=r)
        times.append(server.wait_show(pane, "#{git_branch}", want))
    return times


def test_checkout_shows_in_git_branch_with_watching(sb, server):
    times = _checkout_latencies(sb, server, 6)
    print("checkout -> #{git_branch}, watching on (s):", [round(t, 3) for t in times])
    assert server.show("%0", "#{plugins}") == "git"


def test_checkout_shows_in_git_branch_with_watching_off(sb, tmp_path, request):
    server = Server(tmp_path, request, config="set -g @git-watch off\n")
    times = _checkout_latencies(sb, server, 6)
    print("checkout -> #{git_branch}, watching off (s):", [round(t, 3) for t in times])
    assert server.show("%0", "#{@git-watch}") == "off"
