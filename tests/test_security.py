"""Who may reach the server and what a program in a pane may reach.

A real second user (``nobody`` via setpriv) runs the stock tmux client and the hmux client
against an hmux server and, as the oracle, a tmux 3.3a server: refused unless server-access
lets it in, read-only when told. A program in a pane writes escape sequences meant for the
outer terminal (an outer tmux, which records what reaches it) and titles holding ``#()``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

import pytest
from harness import HMUX, TMUX, Mux, base_env, wait_for
from test_attach import Outer

from hmux_core.screen import available_engines

pytestmark = pytest.mark.skipif(os.getuid() != 0 or not shutil.which("setpriv"),
                                reason="needs root and setpriv to run a second user")

AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


@pytest.fixture
def shared(request):
    """A directory the second user can enter (pytest's own tmp dirs are 0700)."""
    d = tempfile.mkdtemp(prefix="hmux-sec-", dir="/tmp")
    os.chmod(d, 0o755)
    os.makedirs(os.path.join(d, "home"), exist_ok=True)
    request.addfinalizer(lambda: shutil.rmtree(d, ignore_errors=True))
    return d


def _servers(shared: str, request) -> dict[str, tuple[Mux, str]]:
    env = base_env(shared)
    out = {}
    for kind, argv0 in (("hmux", HMUX), ("tmux", [TMUX])):
        path = os.path.join(shared, f"{kind}.sock")
        m = Mux(argv0, ["-S", path], env, cwd=env["HOME"])
        request.addfinalizer(m.kill)
        m.ok("new-session", "-d", "-s", "s", "-x", "80", "-y", "24")
        out[kind] = (m, path)
    return out


@pytest.fixture
def servers(shared, request):
    return _servers(shared, request)


def nobody(client: str, path: str, *args: str) -> tuple[int, str, str]:
    """Run a client as uid nobody: the stock tmux one or hmux's."""
    argv = [TMUX] if client == "tmux" else [sys.executable, "-m", "hmux_core.cli"]
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8",
           "TMUX_C2RS_PLUGINS": "none", "PYTHONPATH": os.path.dirname(os.path.dirname(
               os.path.abspath(__file__)))}
    p = subprocess.run(AS_NOBODY + argv + ["-S", path] + list(args), capture_output=True,
                       text=True, env=env, timeout=30, cwd="/")
    return p.returncode, p.stdout, p.stderr


def windows(m: Mux) -> int:
    return len(m.ok("list-windows", "-t", "s").splitlines())


@pytest.mark.parametrize("client", ["tmux", "hmux"])
def test_socket_mode_keeps_other_users_out(servers, client):
    """The socket is 0600 under -S: the kernel refuses the connect, as for tmux's server."""
    got = {}
    for kind, (m, path) in servers.items():
        rc, out, err = nobody(client, path, "new-window")
        got[kind] = (rc, out, err.replace(path, "PATH"))
        assert windows(m) == 1
    assert got["hmux"] == got["tmux"] == (1, "", "error connecting to PATH (Permission denied)\n")


@pytest.mark.parametrize("client", ["tmux", "hmux"])
def test_other_user_refused_before_any_command(servers, client):
    """With the socket opened up, the server itself refuses: peer uid, before any command."""
    got = {}
    for kind, (m, path) in servers.items():
        os.chmod(path, 0o666)
        got[kind] = nobody(client, path, "new-window", ";", "set", "-g", "@pwned", "1")
        assert windows(m) == 1
        assert m.ok("show", "-gqv", "@pwned").strip() == ""
        assert m.ok("list-clients") == ""
    # tmux 3.3a exits 0 here: the refusal is an exit message, not a command error.
    assert got["hmux"] == got["tmux"] == (0, "", "access not allowed\n")


def test_server_access_allow_read_only_write_deny(servers):
    for kind, (m, path) in servers.items():
        os.chmod(path, 0o666)
        m.ok("server-access", "-a", "nobody")
        assert m.ok("server-access", "-l") == "nobody (W)\n"
        for client in ("tmux", "hmux"):
            rc, _out, err = nobody(client, path, "new-window", "-d")
            assert (kind, client, rc, err) == (kind, client, 0, "")
        assert windows(m) == 3
        m.ok("server-access", "-r", "nobody")
        assert m.ok("server-access", "-l") == "nobody (R)\n"
        for client in ("tmux", "hmux"):
            # Nothing of a list runs when one command is not read-only.
            assert nobody(client, path, "list-clients", ";", "new-window", "-d") == \
                (1, "", "client is read-only\n"), (kind, client)
            assert nobody(client, path, "list-clients") == (0, "", "")
        assert windows(m) == 3
        m.ok("server-access", "-w", "nobody")
        assert nobody("tmux", path, "new-window", "-d")[0] == 0
        assert windows(m) == 4
        m.ok("server-access", "-d", "nobody")
        assert m.ok("server-access", "-l") == ""
        assert nobody("hmux", path, "new-window", "-d") == (0, "", "access not allowed\n")
        assert windows(m) == 4


def test_access_changes_reach_attached_clients(servers, outer):
    """-r/-w change clients already attached; -d drops them with tmux's message."""
    for kind, (m, path) in servers.items():
        os.chmod(path, 0o666)
        m.ok("server-access", "-a", "nobody")
        o = outer.run(AS_NOBODY + [TMUX, "-S", path, "attach", "-t", "s"], kind)

        def flags(m=m) -> list[str]:
            return m.ok("list-clients", "-F", "#{client_uid} #{client_readonly}").splitlines()

        wait_for(lambda: flags() == ["65534 0"])
        m.ok("server-access", "-r", "nobody")
        assert flags() == ["65534 1"]
        m.ok("server-access", "-w", "nobody")
        assert flags() == ["65534 0"]
        m.ok("server-access", "-d", "nobody")
        wait_for(lambda m=m: m.ok("list-clients") == "")
        wait_for(lambda o=o: "EXITED" in "\n".join(outer.screen(o)))
        screens = "\n".join(outer.screen(o))
        assert "access not allowed" in screens, (kind, screens)


SERVER_ACCESS_ERRORS = [
    ("server-access",),
    ("server-access", "-a"),
    ("server-access", "-a", "no-such-user-x"),
    ("server-access", "-a", ""),
    ("server-access", "-a", "root"),
    ("server-access", "-a", "-d", "nobody"),
    ("server-access", "-r", "-w", "nobody"),
    ("server-access", "-d", "nobody"),
    ("server-access", "-a", "nobody", ";", "server-access", "-a", "nobody"),
    ("server-access", "-a", "#{?1,nobody,x}", ";", "server-access", "-l"),
    ("server-access", "-ar", "nobody", ";", "server-access", "-l"),
    ("server-access", "-l", "-d", "nobody"),
    ("server-access", "-x"),
]


@pytest.mark.parametrize("argv", SERVER_ACCESS_ERRORS, ids=lambda a: " ".join(a))
def test_server_access_messages_match_tmux(servers, argv):
    got = {kind: m.cmd(*argv) for kind, (m, _p) in servers.items()}
    h, t = got["hmux"], got["tmux"]
    assert (h.rc, h.out, h.err) == (t.rc, t.out, t.err)


def test_owner_directory_and_mode_checks_for_another_owner(tmp_path):
    """A per-user directory pre-created by someone else is refused (other bits are covered in
    test_server.py); tmux says the same."""
    results = []
    for prog, argv0 in (("hmux", HMUX), ("tmux", [TMUX])):
        tmpdir = tmp_path / prog
        tmpdir.mkdir()
        env = base_env(str(tmpdir))
        d = tmpdir / f"{prog}-{os.getuid()}"
        d.mkdir(mode=0o700)
        os.chown(d, 65534, 65534)
        p = subprocess.run(argv0 + ["-L", "x", "-f", "/dev/null", "new", "-d"], env=env,
                           capture_output=True, text=True, timeout=20)
        results.append((p.returncode, p.stderr.replace(str(d), "DIR")))
    assert results[0] == results[1] == (1, "directory DIR has unsafe permissions\n")


# -- what a program in a pane can reach -----------------------------------------------------------


@pytest.fixture
def outer(muxdir, request) -> Outer:
    o = Outer(muxdir, base_env(muxdir))
    request.addfinalizer(o.mux.kill)
    return o


ENGINES = available_engines()


def _attach(outer: Outer, hmux: Mux, conf: str, engine: str = "python") -> str:
    h = outer.run(["env", f"HMUX_ENGINE={engine}"] + HMUX + hmux.socket_args
                  + ["-f", conf, "new-session", "-s", "p", "cat"], "h")
    wait_for(lambda: hmux.cmd("list-clients", "-F", "#{client_session}").out == "p\n")
    return h


def _emit(hmux: Mux, seq: str) -> None:
    """Have the pane's program write ``seq`` (printf through a shell in a new window)."""
    hmux.ok("respawn-pane", "-k", "-t", "p", f"printf '{seq}'; exec cat")


@pytest.mark.parametrize("engine", ENGINES)
def test_pane_sequences_do_not_reach_the_outer_terminal(outer, hmux, tmp_path, engine):
    conf = tmp_path / "h.conf"
    conf.write_text("set -g status-left '[#S] '\n")
    h = _attach(outer, hmux, str(conf), engine)
    outer.mux.ok("set", "-g", "set-clipboard", "on")  # the outer terminal would take OSC 52
    outer.mux.ok("set", "-g", "allow-rename", "on")
    outer_title = outer.mux.ok("display", "-p", "-t", h, "#{pane_title}")
    _emit(hmux, r"\033Ptmux;\033\033]2;PASSED\007\033\\"  # passthrough (allow-passthrough off)
                r"\033]52;c;ZXZpbA==\007"  # OSC 52 (set-clipboard external)
                r"\033]2;TITLE\007"  # a title: the pane's own, not the terminal's (set-titles off)
                r"\033kRENAMED\033\\"  # a window name (allow-rename off)
                r"MARK")
    wait_for(lambda: "MARK" in "\n".join(outer.screen(h)))
    assert hmux.ok("display", "-p", "-t", "p", "#{pane_title}") == "TITLE\n"
    assert hmux.ok("display", "-p", "-t", "p", "#{window_name}") != "RENAMED\n"
    assert hmux.ok("list-buffers") == ""
    assert outer.mux.ok("list-buffers") == ""
    assert outer.mux.ok("display", "-p", "-t", h, "#{pane_title}") == outer_title
    assert "RENAMED" not in outer.mux.ok("list-windows", "-a", "-F", "#{window_name}")
    # The same passthrough with allow-passthrough on does reach it: the check above can fail.
    # (The ghostty engine reports no passthrough at all yet: see docs/reliability.md.)
    if engine == "python":
        hmux.ok("set", "-g", "allow-passthrough", "on")
        _emit(hmux, r"\033Ptmux;\033\033]2;PASSED\007\033\\")
        wait_for(lambda: outer.mux.ok("display", "-p", "-t", h, "#{pane_title}") == "PASSED\n")


@pytest.mark.parametrize("engine", ENGINES)
def test_format_jobs_never_run_from_pane_content(outer, hmux, tmp_path, engine):
    evil_title, evil_name, control = (tmp_path / n for n in ("title", "name", "control"))
    conf = tmp_path / "h.conf"
    conf.write_text("set -g status-interval 1\nset -g allow-rename on\n"
                    "set -g status-left-length 40\n"
                    "set -g status-left '#{pane_title}|'\n"
                    f"set -g status-right '#W|#(touch {control})'\n")
    h = _attach(outer, hmux, str(conf), engine)
    _emit(hmux, rf"\033]2;#(touch {evil_title})\007\033k#(touch {evil_name})\033\\")
    # tmux 3.7b's clean_name makes "#(" from a pane "_(" in titles and names.
    wait_for(lambda: outer.screen(h)[-1].startswith("_(touch /"))
    # The user's own #() runs (twice, a status-interval apart) while the pane's never does.
    wait_for(control.exists)
    control.unlink()
    wait_for(control.exists)
    name = hmux.ok("display", "-p", "-t", "p", "#W")
    # The ghostty engine reports no ESC k rename yet (its gap, see docs/reliability.md).
    assert name == f"_(touch {evil_name})\n" or (engine != "python" and name == "cat\n")
    assert not evil_title.exists() and not evil_name.exists()
    assert hmux.ok("display", "-p", "-t", "p", "#{pane_title}") == f"_(touch {evil_title})\n"
    assert not evil_title.exists() and not evil_name.exists()


