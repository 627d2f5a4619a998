"""The server process, its socket and what panes inherit, against a real hmux server."""

from __future__ import annotations

import os
import socket
import stat
import subprocess

from harness import HMUX, TMUX, Mux, _alive, wait_for


def sock_dir(m: Mux) -> str:
    return os.path.join(m.env["TMUX_TMPDIR"], f"hmux-{os.getuid()}")


def test_version_is_tmux_and_own_version_available():
    r = subprocess.run(HMUX + ["-V"], capture_output=True, text=True)
    assert r.stdout == "tmux 3.7b\n" and r.returncode == 0
    r = subprocess.run(HMUX + ["--version"], capture_output=True, text=True)
    assert r.stdout.startswith("hmux ") and "(tmux 3.7b compatible)" in r.stdout


def test_bad_global_option_prints_usage():
    r = subprocess.run(HMUX + ["-Z"], capture_output=True, text=True)
    assert r.returncode == 1
    assert "usage: hmux [-2CDhlNuVv]" in r.stderr and "unknown option -- Z" in r.stderr


def test_socket_and_directory_modes(hmux):
    hmux.ok("new-session", "-d")
    d = sock_dir(hmux)
    assert stat.S_IMODE(os.stat(d).st_mode) == 0o700
    path = os.path.join(d, hmux.socket_args[1])
    st = os.stat(path)
    assert stat.S_ISSOCK(st.st_mode)
    assert stat.S_IMODE(st.st_mode) == 0o660


def test_dash_S_socket_is_0600(muxdir, request):
    from harness import base_env

    env = base_env(muxdir)
    path = os.path.join(muxdir, "private.sock")
    m = Mux(HMUX, ["-S", path], env, cwd=env["HOME"])
    request.addfinalizer(m.kill)
    m.ok("new-session", "-d")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_unsafe_directory_refused(muxdir):
    from harness import base_env

    env = base_env(muxdir)
    d = os.path.join(muxdir, f"hmux-{os.getuid()}")
    os.mkdir(d, 0o700)
    os.chmod(d, 0o705)
    r = subprocess.run(HMUX + ["-L", "x", "ls"], capture_output=True, text=True, env=env)
    assert r.returncode == 1
    assert r.stderr == f"directory {d} has unsafe permissions\n"


def test_no_server_messages(hmux):
    r = hmux.cmd("list-sessions")
    assert r.rc == 1
    path = os.path.join(sock_dir(hmux), hmux.socket_args[1])
    assert r.err == f"error connecting to {path} (No such file or directory)\n"
    hmux.ok("new-session", "-d")
    hmux.ok("kill-server")
    r = wait_for(lambda: (x := hmux.cmd("list-sessions")).err.startswith("no server") and x)
    assert r.err == f"no server running on {path}\n"


def test_process_name_and_daemonised(hmux):
    hmux.ok("new-session", "-d")
    pid = hmux.server_pid()
    comm = subprocess.run(["ps", "-o", "comm=", "-p", str(pid)], capture_output=True, text=True)
    assert comm.stdout.strip() == "hmux"
    # Fully detached: own session, not a child of the test.
    assert os.getsid(pid) == pid or os.getsid(pid) != os.getsid(0)
    with open(f"/proc/{pid}/stat") as f:
        ppid = int(f.read().rsplit(")", 1)[1].split()[1])
    assert ppid != os.getpid()


def test_exit_empty_when_last_session_goes(hmux):
    hmux.ok("new-session", "-d", "-s", "a")
    pid = hmux.server_pid()
    hmux.ok("kill-session", "-t", "a")
    wait_for(lambda: not _alive(pid))


def test_last_pane_exit_closes_server(hmux):
    hmux.ok("new-session", "-d", "-s", "a", "sleep 2")
    pid = hmux.server_pid()
    assert pid
    wait_for(lambda: not _alive(pid))


def test_stale_socket_is_replaced(hmux):
    d = sock_dir(hmux)
    os.makedirs(d, 0o700, exist_ok=True)
    path = os.path.join(d, hmux.socket_args[1])
    s = socket.socket(socket.AF_UNIX)
    s.bind(path)
    s.close()  # a socket file with nobody listening, as a crashed server leaves
    r = hmux.cmd("list-sessions")
    assert r.err.startswith("no server running on")
    hmux.ok("new-session", "-d", "-s", "fresh")
    assert hmux.ok("list-sessions", "-F", "#{session_name}") == "fresh\n"


def test_pane_environment(hmux):
    hmux.ok("new-session", "-d", "-s", "env", "-x", "250", "-e", "EXTRA=1",
            "sh -c 'echo \"$TMUX|$TMUX_PANE|$TERM|$TERM_PROGRAM|$TERM_PROGRAM_VERSION|$EXTRA\"; exec cat'")
    pid = hmux.server_pid()
    path = os.path.join(sock_dir(hmux), hmux.socket_args[1])
    out = wait_for(lambda: hmux.capture("env").split("\n")[0].strip())
    assert out == f"{path},{pid},0|%0|tmux-256color|tmux|3.7b|1"


def _child_state(pid: int) -> tuple[str, ...]:
    """What a pane's child starts with: its ignored signals (less glibc's own 32 and 33, which
    a posix_spawn child keeps ignored), whether it leads its session, its controlling terminal
    and its directory."""
    fields = dict(line.split(":\t", 1) for line in open(f"/proc/{pid}/status").read().splitlines()
                  if ":\t" in line)
    ignored = int(fields["SigIgn"], 16) & ~(0b11 << 31)
    stat_fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    session, tty_nr = int(stat_fields[3]), int(stat_fields[4])
    fds = ",".join(sorted(os.listdir(f"/proc/{pid}/fd"), key=int))
    return (f"{ignored:x}", str(session == pid), str(tty_nr != 0), os.readlink(f"/proc/{pid}/cwd"),
            fds)


def test_pane_children_start_as_tmux_starts_them(hmux, tmux, tmp_path):
    """A pane's child, whether its command goes to the shell or is run directly (execvp),
    starts as tmux 3.7b starts it: the same signals ignored (SIGTTIN and SIGTTOU only, not the
    server's SIGQUIT or SIGTSTP), a session of its own with the PTY as its controlling
    terminal, in the directory asked for."""
    states = []
    for mux in (hmux, tmux):
        # Started by a control client: the server holds its stdin and stdout meanwhile.
        with open(tmp_path / "out", "wb") as out:
            subprocess.run([*mux.argv0, *mux.socket_args, "-C", "new-session", "-s", "s", "-c",
                            str(tmp_path), "sleep 100"], input=b"", stdout=out,
                           env=mux.env, cwd=mux.cwd, timeout=20, check=True)
        mux.ok("new-window", "-d", "-c", "/", "sleep", "100")
        pids = mux.ok("list-panes", "-a", "-F", "#{pane_pid}").split()
        states.append([_child_state(int(pid)) for pid in pids])
    assert states[0] == states[1]
    assert [state[1:] for state in states[0]] == [("True", "True", str(tmp_path), "0,1,2"),
                                                 ("True", "True", "/", "0,1,2")]
    quit_tstp = 1 << (3 - 1) | 1 << (20 - 1)
    assert not any(int(state[0], 16) & quit_tstp for state in states[0])


def test_tmux_command_inside_pane_reaches_server(hmux):
    # A pane's $TMUX points at hmux's socket, so `tmux` run inside the pane drives hmux.
    hmux.ok("new-session", "-d", "-s", "inner",
            f"sh -c '{TMUX} display -p \"#{{session_name}}:#{{pane_id}}\"; exec cat'")
    out = wait_for(lambda: hmux.capture("inner").split("\n")[0].strip())
    assert out == "inner:%0"


def test_hmux_inside_pane_uses_TMUX_PANE(hmux):
    hmux.ok("new-session", "-d", "-s", "one")
    hmux.ok("new-session", "-d", "-s", "two",
            f"sh -c '{' '.join(HMUX)} display -p \"#{{session_name}}\"; exec cat'")
    out = wait_for(lambda: hmux.capture("two").split("\n")[0].strip())
    assert out == "two"


def test_kill_server_stops_children(hmux):
    hmux.ok("new-session", "-d", "sleep 1000")
    child = int(hmux.ok("display", "-p", "#{pane_pid}"))
    pid = hmux.server_pid()
    hmux.ok("kill-server")
    wait_for(lambda: not _alive(pid))
    wait_for(lambda: not _alive(child))


def test_ids_never_reused(hmux):
    hmux.ok("new-session", "-d", "-s", "a")
    hmux.ok("new-window", "-t", "a")
    hmux.ok("kill-window", "-t", "a:1")
    out = hmux.ok("new-window", "-t", "a", "-P", "-F", "#{window_id} #{pane_id}")
    assert out == "@2 %2\n"
    hmux.ok("new-session", "-d", "-s", "b")
    hmux.ok("kill-session", "-t", "b")
    assert hmux.ok("new-session", "-d", "-P", "-F", "#{session_id}") == "$2\n"


def test_two_racing_starts_make_one_server(hmux):
    procs = [subprocess.Popen(hmux.argv0 + hmux.socket_args + ["-f", "/dev/null", "new-session", "-d"],
                              env=hmux.env, cwd=hmux.cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(4)]
    for p in procs:
        p.wait(timeout=30)
        assert p.returncode == 0
    out = hmux.ok("list-sessions", "-F", "#{session_name}")
    assert sorted(out.split()) == ["0", "1", "2", "3"]
    pids = subprocess.run(["pgrep", "-x", "hmux"], capture_output=True, text=True).stdout.split()
    mine = [p for p in pids if _sock_of(int(p)) == hmux.socket_args[1]]
    assert len(mine) == 1


def _sock_of(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().split(b"\0")
    except OSError:
        return None
    if b"--socket" in args:  # started by a client without site: python -m hmux_core.server
        return os.path.basename(args[args.index(b"--socket") + 1].decode())
    if b"-L" in args:  # forked by its first client: that client's command line
        return args[args.index(b"-L") + 1].decode()
    return None


def test_sigusr1_recreates_removed_socket(hmux):
    import signal as _signal

    hmux.ok("new-session", "-d", "-s", "keep")
    path = os.path.join(sock_dir(hmux), hmux.socket_args[1])
    pid = hmux.server_pid()
    os.unlink(path)
    assert hmux.cmd("has-session").rc == 1
    os.kill(pid, _signal.SIGUSR1)
    wait_for(lambda: os.path.exists(path))
    assert hmux.ok("list-sessions", "-F", "#{session_name}") == "keep\n"


def test_sigterm_exits_and_hangs_up_children(hmux):
    import signal as _signal

    hmux.ok("new-session", "-d", "sleep 1000")
    child = int(hmux.ok("display", "-p", "#{pane_pid}"))
    pid = hmux.server_pid()
    os.kill(pid, _signal.SIGTERM)
    wait_for(lambda: not _alive(pid))
    wait_for(lambda: not _alive(child))


def test_config_file_applied_and_errors_collected(hmux, tmp_path):
    conf = tmp_path / "h.conf"
    conf.write_text("set -g base-index 1\nset -g @greeting hello\n")
    hmux.config = str(conf)
    hmux.ok("new-session", "-d", "-s", "c")
    assert hmux.ok("display", "-p", "#{window_index} #{@greeting}") == "1 hello\n"
    assert hmux.ok("display", "-p", "#{config_files}") == f"{conf}\n"
