"""``hmux doctor`` and the tmux shim, run where a user would run them: in real hmux and tmux 3.3a
panes, in an hmux attached inside a tmux pane, and under orphaned chains of named processes
(test_detect's lab), so the runner's own ancestry never leaks in."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import uuid

import pytest
from harness import HMUX, TMUX, Mux, base_env, wait_for
from test_detect import Lab

from hmux_core import tmux_shim
from hmux_core.native import installed_client

DOCTOR = [sys.executable, "-m", "hmux_core.cli", "doctor"]


def _q(argv: list[str]) -> str:
    return " ".join(shlex.quote(a) for a in argv)


def _in_pane(mux: Mux, tmp_path, shell: str, *, session: str = "d") -> tuple[str, str]:
    """Run ``shell`` in a new pane; its stdout+stderr and exit status, once it has finished."""
    out = str(tmp_path / f"pane-{uuid.uuid4().hex[:8]}")
    mux.ok("new-session", "-d", "-s", session,
           f"( {shell} ) >{out}.tmp 2>&1; echo $? >{out}.rc; mv {out}.tmp {out}; exec sleep 600")
    wait_for(lambda: os.path.exists(out), timeout=30)
    with open(out) as f, open(out + ".rc") as g:
        return f.read(), g.read().strip()


def _orphaned(lab: Lab, names: list[str], argv: list[str], env: dict[str, str] | None = None) -> str:
    out = str(lab.root / f"orphan-{uuid.uuid4().hex[:8]}")
    inner = f"{_q(argv)} >{out}.tmp 2>&1; mv {out}.tmp {out}"
    subprocess.run(["/bin/sh", "-c", lab.chain(names, inner) + " >/dev/null 2>&1 &"],
                   env=dict(lab.env, **(env or {})), check=True, timeout=10)
    wait_for(lambda: os.path.exists(out), timeout=30)
    with open(out) as f:
        return f.read()


@pytest.fixture
def lab(tmp_path):
    return Lab(tmp_path)


# -- doctor ---------------------------------------------------------------------------------------


def test_doctor_in_an_hmux_pane(hmux, tmp_path):
    text, rc = _in_pane(hmux, tmp_path, _q(DOCTOR) + "; " + _q(DOCTOR + ["--json"]))
    assert rc == "0"
    lines = text.split("\n")
    assert lines[0] == "export CYBER_MUX=tmux CYBER_MUX_PANE=%0"
    assert lines[1].startswith("detected: tmux (an hmux server, tmux-compatible): ancestor 'hmux'")
    assert lines[2] == "pane: %0 (from $TMUX_PANE)"
    assert lines[3] == "outer terminal: none (no client attached to this session)"
    assert lines[4] == "nesting: 1 (hmux)"
    r = json.loads(text[text.index("{"):])
    pid = hmux.server_pid()
    assert r["server"]["pid"] == pid == r["process"]["pid"]
    assert r["server"]["socket"] == hmux.ok("display", "-p", "#{socket_path}").strip()
    assert (r["multiplexer"], r["how"], r["pane"]) == ("tmux", "ancestry", "%0")
    assert r["nesting"] == {"depth": 1, "complete": True,
                            "layers": [{"multiplexer": "tmux", "name": "hmux", "pid": pid}]}
    # The engine line is there exactly when the server has #{pane_engine}.
    engine = hmux.ok("display", "-p", "-t", "%0", "#{pane_engine}").strip() or None
    assert r["engine"] == engine
    assert (f"engine: {engine}" in lines) == bool(engine)


def test_doctor_in_a_tmux_pane_has_no_engine_line(tmux, tmp_path):
    r = json.loads(_in_pane(tmux, tmp_path, _q(DOCTOR + ["--json"]))[0])
    assert r["export"] == "export CYBER_MUX=tmux CYBER_MUX_PANE=%0"
    assert r["process"]["name"] == "tmux: server" and r["server"]["pid"] == tmux.server_pid()
    assert r["engine"] is None  # tmux has no #{pane_engine}


def test_doctor_for_hmux_attached_inside_tmux(tmux, hmux, tmp_path):
    """The outer terminal is the attached client's; nesting hops out through that client."""
    go = tmp_path / "go"
    out = str(tmp_path / "doctor.json")
    inner = (f"while [ ! -e {go} ]; do sleep 0.05; done; {_q(DOCTOR + ['--json'])} >{out}.tmp; "
             f"mv {out}.tmp {out}; exec sleep 600")
    tmux.ok("new-session", "-d", "-s", "outer", "-x", "80", "-y", "24",
            _q(HMUX + hmux.socket_args + ["-f", "/dev/null", "new-session", "-s", "in", inner]))
    wait_for(lambda: hmux.cmd("list-clients", "-F", "#{client_pid}").out.strip())
    go.touch()
    wait_for(lambda: os.path.exists(out), timeout=30)
    r = json.load(open(out))
    term = tmux.ok("display", "-p", "-t", "outer", "#{default-terminal}").strip()
    client_pid = int(hmux.ok("list-clients", "-F", "#{client_pid}").strip())
    assert r["outer_terminal"] == term
    assert [c["pid"] for c in r["server"]["clients"]] == [client_pid]
    n = r["nesting"]
    assert (n["depth"], n["complete"]) == (2, True)
    assert [(layer["name"], layer["pid"]) for layer in n["layers"]] == [
        ("hmux", hmux.server_pid()), ("tmux: server", tmux.server_pid())]
    tmux.ok("send-keys", "-t", "outer", "C-b", "d")  # detach hmux's client before teardown
    wait_for(lambda: not hmux.cmd("list-clients").out.strip())


def test_doctor_with_no_multiplexer(lab):
    lines = _orphaned(lab, ["bash"], DOCTOR, {"TERM": "xterm-kitty"}).split("\n")
    assert lines[0] == "export CYBER_MUX=none"
    assert lines[1].startswith("detected: none: no multiplexer among ")
    assert lines[1].endswith(" ancestors (walked with psutil); no env hint is set")
    assert lines[2:] == ["terminal: xterm-kitty ($TERM, no multiplexer)", ""]


def test_doctor_under_zellij_notes_what_it_cannot_tell(lab):
    env = {"TMUX": "/nowhere/default,1,0", "TMUX_PANE": "%3", "ZELLIJ": "0"}
    text = _orphaned(lab, ["zellij", "sh"], DOCTOR, env)
    lines = text.split("\n")
    assert lines[0] == "export CYBER_MUX=zellij CYBER_MUX_PANE=%3"
    assert "outer terminal: unknown (only a tmux-compatible server can be asked)" in lines
    assert "nesting: at least 1 (zellij)" in lines
    assert ("note: $TMUX disagree(s) with the ancestry, which wins (a stale hint or an outer "
            "layer)") in lines
    assert "note: the pane comes from $TMUX_PANE, which tmux sets, not zellij: pin " \
           "CYBER_MUX_PANE if it is wrong" in lines


def test_doctor_json_notes_an_ignored_cyber_mux(lab, tmp_path):
    r = json.loads(_orphaned(lab, ["zellij"], DOCTOR + ["--json"],
                             {"CYBER_MUX": "bogus", "ZELLIJ_PANE_ID": "z1"}))
    assert (r["multiplexer"], r["how"], r["pane"]) == ("zellij", "ancestry", "z1")
    assert r["walk"]["source"] == "psutil" and r["walk"]["ancestors"][0]["name"] == "zellij"
    assert r["notes"] == ["CYBER_MUX=bogus is not a known value and was ignored"]
    assert r["export"] == "export CYBER_MUX=zellij CYBER_MUX_PANE=z1"


def test_doctor_refuses_screen(lab):
    text = _orphaned(lab, ["sh"], DOCTOR + ["--json"], {"CYBER_MUX": "screen"})
    r = json.loads(text)
    assert r["multiplexer"] == "screen" and r["export"] is None
    assert r["error"].startswith("GNU Screen (pinned by CYBER_MUX=screen) cannot be driven")
    out = _orphaned(lab, ["screen", "sh"], DOCTOR)
    assert out.startswith("detected: screen: GNU Screen (ancestor 'screen', pid ")
    rc = subprocess.run(DOCTOR, env=dict(lab.env, CYBER_MUX="screen"), capture_output=True)
    assert rc.returncode == 1


def test_doctor_bad_option(lab):
    r = subprocess.run(DOCTOR + ["--frobnicate"], env=lab.env, capture_output=True, text=True)
    assert r.returncode == 2 and "No such option '--frobnicate'" in r.stderr


# -- the tmux shim --------------------------------------------------------------------------------


def test_install_shim_writes_only_what_was_asked(tmp_path, lab):
    d = tmp_path / "shims" / "bin"
    r = subprocess.run(DOCTOR + ["--install-shim", str(d)], env=lab.env, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"wrote {d}/tmux; to use it: export PATH={d}:$PATH\n"
    assert os.listdir(d) == ["tmux"] and os.access(d / "tmux", os.X_OK)
    # The compiled client by a symlink where `hmux` is one (it acts as tmux by its name), else
    # the Python script; either carries the marker that lets a second run replace it.
    assert tmux_shim.MARKER.encode() in (d / "tmux").read_bytes()
    client = installed_client()
    assert (os.readlink(d / "tmux") if client else None) == client
    # Nobody who did not put the directory on PATH gets it.
    assert shutil.which("tmux", path=lab.env["PATH"]) not in (None, str(d / "tmux"))
    # Running it again rewrites the shim; anything else named tmux is left alone.
    assert subprocess.run(DOCTOR + ["--install-shim", str(d)], env=lab.env).returncode == 0
    other = tmp_path / "other"
    other.mkdir()
    (other / "tmux").symlink_to(TMUX)
    r = subprocess.run(DOCTOR + ["--install-shim", str(other)], env=lab.env, capture_output=True,
                       text=True)
    assert r.returncode == 1
    assert r.stderr == f"Error: {other}/tmux exists and is not hmux's shim; not replaced\n"
    assert os.readlink(other / "tmux") == TMUX


def test_shim_outside_a_pane_is_tmux_with_tmux_socket_dir(muxdir, tmp_path, tmux, request):
    """As ``tmux``, hmux uses tmux's socket directory (tmux-UID, which tools acting as tmux
    expect), so hmux's own client reaches that server with -S."""
    env = base_env(muxdir)
    shim = tmux_shim.install(str(tmp_path / "shim"))
    path = os.path.join(muxdir, f"tmux-{os.getuid()}", "default")
    server = Mux(HMUX, ["-S", path], env, cwd=env["HOME"])
    request.addfinalizer(server.kill)
    assert subprocess.run([shim, "new-session", "-d", "-s", "s"], env=env, timeout=20).returncode == 0
    r = subprocess.run([shim, "display", "-p", "#{pid} #{session_name} #{socket_path}"], env=env,
                       capture_output=True, text=True, timeout=20)
    pid = server.server_pid()
    assert r.stdout == f"{pid} s {path}\n"
    with open(f"/proc/{pid}/comm") as f:
        assert f.read().strip() == "hmux"  # an hmux server, not a tmux one
    # As tmux, hmux's own subcommands go to the server, which refuses them as tmux does.
    tmux.ok("new-session", "-d")
    theirs = subprocess.run([TMUX] + tmux.socket_args + ["doctor"], env=tmux.env,
                            capture_output=True, text=True)
    ours = subprocess.run([shim, "doctor"], env=env, capture_output=True, text=True)
    assert (ours.returncode, ours.stderr) == (theirs.returncode, theirs.stderr) == (
        1, "unknown command: doctor\n")
    assert subprocess.run([shim, "-V"], env=env, capture_output=True, text=True).stdout \
        == "tmux 3.7b\n"


@pytest.mark.parametrize("native", [True, False], ids=["compiled", "script"])
def test_a_server_the_shim_starts_is_forked_and_finds_the_plugins(muxdir, tmp_path, request,
                                                                  native):
    """The script shim runs without ``site`` (``-I -S``); the server it starts is a fork of it
    that runs ``site`` itself, so plugins installed as packages are found (here the git plugin
    reads the branch of a repository this test makes). The compiled client, with no server to
    talk to, becomes the Python client (``python -P -c ...``), which forks the server."""
    if native and installed_client() is None:
        pytest.skip("hmux was installed without a C compiler: no compiled client")
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", "-b", "trunk", str(repo)], check=True)
    env = dict(base_env(muxdir), TMUX_C2RS_PLUGINS="git")
    shim = tmux_shim.install(str(tmp_path / "shim"), native=native)
    assert os.path.islink(shim) == native
    if not native:
        assert open(shim).readline().rstrip().endswith(" -IS")
    path = os.path.join(muxdir, f"tmux-{os.getuid()}", "default")
    server = Mux(HMUX, ["-S", path], env, cwd=env["HOME"])
    request.addfinalizer(server.kill)
    assert subprocess.run([shim, "new-session", "-d", "-c", str(repo)], env=env,
                          timeout=20).returncode == 0
    pid = server.server_pid()
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        argv = f.read().split(b"\0")
    if native:  # the Python client the compiled one became, with the shim's own argv
        assert argv[1:3] == [b"-P", b"-c"] and argv[4:6] == [shim.encode(), b"new-session"]
    else:
        assert argv[1:3] == [b"-IS", shim.encode()]  # the shim's own process
    wait_for(lambda: server.ok("display", "-p", "#{git_branch}") == "trunk\n")


def test_tmux_commands_from_an_hmux_pane_reach_hmux(hmux, tmp_path):
    shim_dir = str(tmp_path / "shim")
    tmux_shim.install(shim_dir)
    fmt = "#{pid} #{pane_id} #{socket_path}"
    script = (f"echo \"$TMUX|$TMUX_PANE\"; {TMUX} display -p '{fmt}'; "
              f"PATH={shim_dir}:$PATH; command -v tmux; tmux display -p '{fmt}'")
    text, rc = _in_pane(hmux, tmp_path, script)
    pid = hmux.server_pid()
    sock = hmux.ok("display", "-p", "#{socket_path}").strip()
    sid = hmux.ok("display", "-p", "-t", "d", "#{session_id}").strip()[1:]
    assert rc == "0"
    assert text.split("\n") == [f"{sock},{pid},{sid}|%0", f"{pid} %0 {sock}",
                                f"{shim_dir}/tmux", f"{pid} %0 {sock}", ""]


def test_doctor_on_a_stale_tmux_hint(lab, tmp_path):
    env = {"TMUX": f"{tmp_path}/gone/default,999999,0", "TMUX_PANE": "%4"}
    lines = _orphaned(lab, ["bash", "sh"], DOCTOR, env).split("\n")
    assert lines[0] == "export CYBER_MUX=tmux CYBER_MUX_PANE=%4"
    assert lines[1].endswith("$TMUX is set, an unverified hint")
    assert lines[3] == "outer terminal: unknown (no server answered on the socket $TMUX names)"
