"""A new user's first run (issue 21): configurations that call the server back while it starts,
configuration errors shown as tmux shows them, ``#{current_file}``, a plain install into a fresh
venv, nothing imported from the working directory, tmux's own configuration files, and a
``tmux`` for the server's children on a machine without tmux. Compared with the oracle where
tmux has the behaviour."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys

import psutil
import pytest
from harness import HMUX, TMUX, Mux, base_env, compiled_client, socket_path, wait_for
from test_attach import Outer

from hmux_core.native import is_compiled

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _binary(m: Mux) -> str:
    """The shell words that run this Mux's program (for a config's run-shell to call back)."""
    return " ".join(shlex.quote(a) for a in m.argv0)


def _write(path: str, text: str) -> str:
    with open(path, "w") as f:
        f.write(text)
    return path


def _opts(m: Mux, *names: str) -> str:
    return "".join(f"{n} {m.cmd('show', '-gv', n).out}" for n in names)


def _pair(hmux: Mux, tmux: Mux):
    return (("hmux", hmux), ("tmux", tmux))


# -- 1. run-shell and if-shell in a configuration call the server back -----------------------------

CALLBACK_CONF = """\
run '{bin} -S "#{{socket_path}}" set -g @nested yes'
if-shell '{bin} -S "#{{socket_path}}" set -g @from-if 1' 'set -g @then 2' 'set -g @else 3'
run 'sh -c "{shbin} -S \\"\\$1\\" set-environment -g CALLED back" - "#{{socket_path}}"'
set -gF @after-jobs "#{{@nested}}"
"""


def test_config_jobs_call_the_server_back_at_start(hmux, tmux, tmp_path):
    """tmux's rule: while a command waits for its job, the server keeps serving other clients
    (the job's own ``tmux ...`` included). Before the fix hmux never returned from ``new``."""
    results = {}
    for name, m in _pair(hmux, tmux):
        conf = _write(str(tmp_path / f"{name}.conf"),
                      CALLBACK_CONF.format(bin=_binary(m), shbin=_binary(m).replace('"', '\\"')))
        m.config = conf
        r = m.cmd("new-session", "-d", "-s", "s", "-n", "w0", "cat", timeout=20)
        assert r.rc == 0, r.err
        m.config = None
        results[name] = (_opts(m, "@nested", "@from-if", "@then", "@after-jobs"),
                         m.ok("show-environment", "-g", "CALLED"))
    assert results["hmux"] == results["tmux"]
    assert results["hmux"][0] == "@nested yes\n@from-if 1\n@then 2\n@after-jobs yes\n"
    assert results["hmux"][1] == "CALLED=back\n"


def test_run_and_if_shell_call_back_after_start(hmux, tmux):
    for _name, m in _pair(hmux, tmux):
        m.ok("new-session", "-d", "-s", "s", "-n", "w0", "cat")
        b = _binary(m)
        m.ok("run-shell", f'{b} -S "#{{socket_path}}" set -g @later 1')
        m.ok("if-shell", f'{b} -S "#{{socket_path}}" set -g @iflater 2', "set -g @ok 3")
    for opt in ("@later", "@iflater", "@ok"):
        assert hmux.ok("show", "-gv", opt) == tmux.ok("show", "-gv", opt)


def test_ctrl_c_on_a_waiting_client_prints_no_traceback(hmux):
    hmux.ok("new-session", "-d", "-s", "s", "cat")
    argv = HMUX + hmux.socket_args + ["run-shell", "sleep 30"]
    p = subprocess.Popen(argv, env=hmux.env, cwd=hmux.cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    server = psutil.Process(hmux.server_pid())
    wait_for(lambda: any("sleep" in c.name() for c in server.children(recursive=True)))
    p.send_signal(2)  # ignored, as tmux's client ignores SIGINT: it goes on waiting
    with pytest.raises(subprocess.TimeoutExpired):
        p.wait(0.5)
    p.send_signal(15)  # SIGTERM ends it
    _out, err = p.communicate(timeout=10)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert hmux.ok("display", "-p", "#{session_name}") == "s\n"  # the server is fine


# -- 2. configuration errors are shown as tmux shows them -----------------------------------------

BAD_CONF = """\
set -g @x 1
set -g bogus-opt 1
source-file /nonexistent/file.conf
set -g mouse what
new-window -t nosuch:
set -g @y 2
"""


def test_config_errors_show_in_view_mode_on_first_attach(hmux, tmux, tmp_path, muxdir, request):
    env = base_env(muxdir)
    outer = Outer(muxdir, env)
    request.addfinalizer(outer.mux.kill)
    # Relative to the client's directory, so the messages fit the 80 columns.
    conf = "bad.conf"
    for m in (hmux, tmux):
        _write(os.path.join(m.cwd, conf), BAD_CONF)
    targets = {}
    for name, m in _pair(hmux, tmux):
        m.config = conf
        m.ok("new-session", "-d", "-s", "s", "-n", "w0", "cat")
        m.config = None
        assert m.ok("show", "-gv", "@y") == "2\n"  # an error does not stop the file
        assert m.ok("display", "-p", "#{pane_in_mode}") == "0\n"  # nothing attached yet
        argv = (HMUX if name == "hmux" else [TMUX]) + m.socket_args + ["attach", "-t", "s"]
        targets[name] = outer.run(argv, name)
    for _name, m in _pair(hmux, tmux):
        wait_for(lambda m=m: m.ok("display", "-p", "#{pane_mode}") == "view-mode\n")
    first = [f"{conf}:2: invalid option: bogus-opt",
             f"{conf}:3: No such file or directory: /nonexistent/file.conf",
             f"{conf}:4: bad value: what",
             f"{conf}:5: no current target"]

    def shown(t: str) -> list[str]:
        return [line.rstrip() for line in outer.screen(t)[:4]]

    wait_for(lambda: shown(targets["tmux"])[0].startswith(first[0]))
    assert shown(targets["tmux"])[1:] == first[1:]
    wait_for(lambda: shown(targets["hmux"]) == shown(targets["tmux"]))
    assert shown(targets["hmux"])[1:] == first[1:]


def test_config_parse_error_runs_nothing_and_is_kept(hmux, tmux, tmp_path):
    """An unknown command is a parse error: nothing in the file runs (tmux parses it whole)."""
    conf = _write(str(tmp_path / "p.conf"), "set -g @x 1\nbogus-command foo\n")
    for _name, m in _pair(hmux, tmux):
        m.config = conf
        m.ok("new-session", "-d", "-s", "s", "-n", "w0", "cat")
        m.config = None
        assert m.cmd("show", "-gv", "@x").out == ""
    # source-file of a broken file prints the parse error to the client and fails; the causes
    # still pending from the start (no session was ever attached) come first, as in tmux.
    r = [(m.cmd("source-file", conf).rc, m.cmd("source-file", conf)) for _n, m in _pair(hmux, tmux)]
    assert r[0] == r[1]
    assert r[0][1].out == f"{conf}:2: unknown command: bogus-command\n"


# -- 3. #{current_file} ------------------------------------------------------------------------------

def test_current_file_while_a_file_is_sourced(hmux, tmux, tmp_path):
    (tmp_path / "sub").mkdir()
    _write(str(tmp_path / "sub" / "child.conf"), 'set -gF @child "#{current_file}"\n')
    conf = _write(str(tmp_path / "cf.conf"),
                  'set -gF @cf "#{current_file}"\n'
                  'source -F "#{d:current_file}/sub/child.conf"\n'
                  'set -gF @after "#{current_file}"\n'
                  'set -g @raw "#{current_file}"\n')
    out = {}
    for name, m in _pair(hmux, tmux):
        m.config = conf
        m.ok("new-session", "-d", "-s", "s", "-n", "w0", "cat")
        m.config = None
        out[name] = _opts(m, "@cf", "@child", "@after", "@raw")
        # Outside any file it is empty; a missing file reports tmux 3.7b's message.
        r = m.cmd("source-file", "-F", "#{current_file}nothing-here")
        out[name] += f"{r.rc} {r.err}"
    assert out["hmux"] == out["tmux"]
    assert f"@child {tmp_path}/sub/child.conf" in out["hmux"]



def test_source_file_v_reaches_the_files_it_sources(hmux, tmux, tmp_path):
    """tmux 3.6: -v passes on to the source-file commands of the file it reads (not to what
    if-shell runs later)."""
    child = _write(str(tmp_path / "b.conf"), 'set -g @b 2\nif-shell true "set -g @c 3"\n')
    conf = _write(str(tmp_path / "a.conf"), f"set -g @a 1\nsource-file {child}\n")
    out = {}
    for name, m in _pair(hmux, tmux):
        m.ok("new-session", "-d", "-s", "s", "-n", "w0", "cat")
        out[name] = m.ok("source-file", "-v", conf)
    assert out["hmux"] == out["tmux"]
    assert f"{child}:1: set-option -g @b 2" in out["hmux"]

# -- 4 and 5. a plain install in a fresh venv, started among hostile modules -----------------------

@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> str:
    """hmux built as a wheel and pip-installed (not editable) into a new venv; its python."""
    root = tmp_path_factory.mktemp("install")
    wheels = root / "wheels"
    # Built from a clean copy: setuptools' build/ in the checkout could carry stale modules.
    src = root / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis", ".venv"))
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                        "--no-build-isolation", "--disable-pip-version-check", "-w", str(wheels),
                        str(src)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    venv = root / "v"
    # The dependencies come from this interpreter's site-packages; hmux itself from the wheel.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    py = str(venv / "bin" / "python")
    wheel = next(wheels.glob("hmux-*.whl"))
    r = subprocess.run([py, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall",
                        "--disable-pip-version-check", str(wheel)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return py


def test_wheel_ships_data_and_default_plugins_start(installed, tmp_path, request):
    venv_bin = os.path.dirname(installed)
    where = subprocess.run(
        [installed, "-c", "import hmux_core, hmux_plugins_agent, hmux_plugins_git as g, os;"
         "print(os.path.dirname(hmux_plugins_agent.__file__)); print(g.__file__)"],
        capture_output=True, text=True, cwd="/", env={"PATH": "/usr/bin:/bin"}).stdout.split()
    assert all(p.startswith(os.path.dirname(venv_bin)) for p in where), where
    assert os.path.exists(os.path.join(where[0], "agents.toml"))
    # Started from a directory whose modules would shadow hmux's and its dependencies'.
    cwd = tmp_path / "hostile"
    marker = tmp_path / "IMPORTED"
    for mod in ("hmux_core", "hmux_plugins_agent", "hmux_plugins_git", "trio", "psutil"):
        (cwd / mod).mkdir(parents=True)
        _write(str(cwd / mod / "__init__.py"), f"open({str(marker)!r}, 'a').write('{mod}\\n')\n")
    sockdir = tmp_path / "s"
    sockdir.mkdir()
    env = base_env(str(sockdir))
    env.pop("TMUX_C2RS_PLUGINS")
    env.pop("PYTHONPATH", None)
    env["PATH"] = venv_bin + os.pathsep + env["PATH"]
    m = Mux([os.path.join(venv_bin, "hmux")], ["-L", "fresh"], env, cwd=str(cwd))
    request.addfinalizer(m.kill)
    m.ok("new-session", "-d", "-s", "s", "sh")
    # Where the build found a compiler (as here), `hmux` is the C client, which became the
    # Python client to start the server: that must be the venv's interpreter, though the
    # wheel was built by another (the one named at compile time).
    assert is_compiled(os.path.join(venv_bin, "hmux")) == (compiled_client() is not None)
    with open(f"/proc/{m.server_pid()}/cmdline", "rb") as f:
        assert f.read().split(b"\0")[0] == installed.encode()
    wait_for(lambda: m.ok("display", "-p", "#{plugins}") == "agent,git\n")
    plugins = m.ok("plugins")
    assert "agent: enabled" in plugins and "git: enabled" in plugins, plugins
    assert m.ok("display", "-p", "#{pane_agent_state}") == "none\n"
    assert not marker.exists(), marker.read_text()


def test_a_plugin_that_fails_to_start_says_why(hmux, tmp_path):
    from plugin_dists import make_dist, with_path

    root = make_dist(str(tmp_path / "dist"), "hmux-plugin-broken", {"broken": "broken_plugin"}, {
        "broken_plugin": """
            from hmux_core.plugin import Plugin, hookimpl

            class Broken(Plugin):
                name = "broken"
                variables = ("broken_var",)

                def start(self, host):
                    raise FileNotFoundError("no such file: broken.toml")

            @hookimpl
            def hmux_plugin():
                return Broken()
        """})
    hmux.env = with_path(hmux.env, root)
    hmux.env["TMUX_C2RS_PLUGINS"] = "broken"
    hmux.ok("new-session", "-d", "-s", "s", "cat")
    reason = "start failed: FileNotFoundError: no such file: broken.toml"
    wait_for(lambda: reason in hmux.ok("plugins"))


# -- 9 and 10. tmux's names and files --------------------------------------------------------------

def test_tmux_configuration_is_read_when_hmux_has_none(hmux, muxdir):
    home = hmux.env["HOME"]
    hmux.config = None
    _write(os.path.join(home, ".tmux.conf"), "set -g @from tmux-conf\n")
    xdg = os.path.join(home, "xdg")
    os.makedirs(os.path.join(xdg, "tmux"))
    _write(os.path.join(xdg, "tmux", "tmux.conf"), "set -ga @from ,xdg\n")
    hmux.env["XDG_CONFIG_HOME"] = xdg
    hmux.ok("new-session", "-d", "-s", "s", "cat")
    assert hmux.ok("show", "-gv", "@from") == "tmux-conf,xdg\n"
    assert hmux.ok("display", "-p", "#{config_files}") == \
        f"{home}/.tmux.conf,{xdg}/tmux/tmux.conf\n"
    hmux.ok("kill-server")
    # With an hmux file present, only hmux's files are read.
    _write(os.path.join(home, ".hmux.conf"), "set -g @from hmux-conf\n")
    hmux.ok("new-session", "-d", "-s", "s", "cat")
    assert hmux.ok("show", "-gv", "@from") == "hmux-conf\n"


def test_hmux_as_tmux_uses_tmux_files_and_socket_dir(hmux, muxdir, tmp_path):
    """The shim is tmux: sockets in tmux-UID, tmux's configuration files only."""
    from hmux_core.tmux_shim import install

    shim = install(str(tmp_path / "bin"))
    env = dict(hmux.env)
    home = env["HOME"]
    _write(os.path.join(home, ".tmux.conf"), "set -g @from tmux\n")
    _write(os.path.join(home, ".hmux.conf"), "set -g @from hmux\n")
    m = Mux([shim], ["-L", "shimmed"], env, cwd=home, config=None)
    try:
        m.ok("new-session", "-d", "-s", "s", "cat")
        assert m.ok("show", "-gv", "@from") == "tmux\n"
        assert os.path.exists(socket_path(muxdir, "tmux", "shimmed"))
        assert m.ok("display", "-p", "#{socket_path}") == \
            socket_path(muxdir, "tmux", "shimmed") + "\n"
    finally:
        m.kill()


def test_jobs_reach_the_server_as_tmux_without_tmux_installed(hmux, tmp_path):
    """PATH without any tmux: run-shell, if-shell and #() still find one; a pane's PATH is
    left exactly as given (as tmux leaves it)."""
    bare = tmp_path / "bare"
    bare.mkdir()
    for tool in ("sh", "cat", "env", "sleep", "true", "echo", "grep"):
        src = subprocess.run(["sh", "-c", f"command -v {tool}"], capture_output=True,
                             text=True).stdout.strip()
        if src.startswith("/"):
            os.symlink(src, bare / tool)
    hmux.env["PATH"] = str(bare)
    hmux.ok("new-session", "-d", "-s", "s", "-n", "w0", "sh")
    hmux.ok("run-shell", "tmux set -g @run yes")
    hmux.ok("if-shell", "tmux set -g @if yes", "set -g @then yes")
    hmux.ok("display", "-p", "#(tmux set -g @format-job yes)")  # run even though not shown
    hmux.ok("send-keys", "-t", "s", "echo \"[$PATH]\"", "Enter")
    wait_for(lambda: f"[{bare}]" in hmux.ok("capture-pane", "-p", "-t", "s"))
    assert _opts(hmux, "@run", "@if", "@then") == "@run yes\n@if yes\n@then yes\n"
    wait_for(lambda: hmux.cmd("show", "-gv", "@format-job").out == "yes\n")
    # The server's environment is untouched: only its children's PATH gains the shim.
    assert hmux.ok("show-environment", "-g", "PATH") == f"PATH={bare}\n"


def test_version_strings():
    r = subprocess.run(HMUX + ["-V"], capture_output=True, text=True)
    assert r.stdout == subprocess.run([TMUX, "-V"], capture_output=True, text=True).stdout
    assert r.stdout == "tmux 3.7b\n"
    r = subprocess.run(HMUX + ["--version"], capture_output=True, text=True)
    assert r.stdout.startswith("hmux ") and "(tmux 3.7b compatible)" in r.stdout


def test_help_prints_usage_and_hmux_subcommands():
    r = subprocess.run(HMUX + ["--help"], capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.startswith("usage: hmux [-2CDhlNuVv]")
    for word in ("hmux plugins", "hmux doctor", "hmux --version", "CYBER_MUX"):
        assert word in r.stdout


# -- 7 and 8. the default status line keeps names; plugins chosen by a configuration --------------

def test_status_line_shows_names_the_user_gave(tmp_path, muxdir, request):
    env = base_env(muxdir)
    env.pop("TMUX_C2RS_PLUGINS")  # the default set: the server's own status-line defaults
    m = Mux(HMUX, ["-L", "names"], env, cwd="/usr", config="/dev/null")
    request.addfinalizer(m.kill)
    m.ok("new-session", "-d", "-s", "s", "-c", "/usr", "cat")
    m.ok("new-window", "-d", "-n", "logs", "-c", "/usr", "cat")
    m.ok("new-window", "-d", "-c", "/usr", "cat")
    m.ok("rename-window", "-t", "s:2", "renamed")

    def label(idx: str) -> str:
        return m.ok("display", "-p", "-t", f"s:{idx}", "#{T:window-status-format}").strip()

    # An automatic name shows where the pane is (after the agent glyph, once the plugin has
    # looked at the window); a given one itself.
    wait_for(lambda: label("0").startswith("0:") and label("0").endswith(" usr*"))
    wait_for(lambda: label("1").endswith(" logs"))  # new-window -n
    assert "usr" not in label("1")
    wait_for(lambda: label("2").endswith(" renamed"))  # rename-window
    m.ok("rename-window", "-t", "s:0", "mine")
    assert label("0").endswith(" mine*")


def test_config_selects_plugins_and_plugins_says_how(tmp_path, muxdir, request):
    env = base_env(muxdir)
    env.pop("TMUX_C2RS_PLUGINS")
    conf = _write(str(tmp_path / "p.conf"), "set -s plugins git\n")
    m = Mux(HMUX, ["-L", "pick"], env, cwd=env["HOME"], config=conf)
    request.addfinalizer(m.kill)
    m.ok("new-session", "-d", "-s", "s", "cat")
    m.config = None
    assert m.ok("display", "-p", "#{plugins}") == "git\n"
    assert m.ok("show", "-sv", "plugins") == "git\n"
    text = m.ok("plugins")
    assert "agent: disabled (not selected by the server's plugins option)" in text
    assert "to enable: hmux set -s plugins 'git,agent'" in text
    m.ok("set", "-s", "plugins", "git,agent")  # takes effect at once
    wait_for(lambda: sorted(m.ok("display", "-p", "#{plugins}").strip().split(",")) == ["agent", "git"])
    assert m.ok("display", "-p", "#{pane_agent_state}") == "none\n"
    # The environment variable wins over the option.
    m.kill()
    env["TMUX_C2RS_PLUGINS"] = "agent"
    m.env = env
    m.config = conf
    m.ok("new-session", "-d", "-s", "s", "cat")
    m.config = None
    assert m.ok("display", "-p", "#{plugins}") == "agent\n"
    assert "to enable: export TMUX_C2RS_PLUGINS=agent,git and restart the server" in m.ok("plugins")
    # With none, hmux is tmux: no such option.
    m.kill()
    env["TMUX_C2RS_PLUGINS"] = "none"
    m.ok("new-session", "-d", "-s", "s", "cat")
    assert m.cmd("show", "-sv", "plugins").err == "invalid option: plugins\n"


# -- 11. smaller differences, each against tmux ----------------------------------------------------

def test_config_session_starts_in_the_starting_clients_directory(hmux, tmux, tmp_path):
    conf = _write(str(tmp_path / "n.conf"), "new -d -s cfg\n")
    for _name, m in _pair(hmux, tmux):
        argv = m.argv0 + m.socket_args + ["-f", conf, "start-server"]
        assert subprocess.run(argv, env=m.env, cwd="/usr", capture_output=True).returncode == 0
        wait_for(lambda m=m: m.cmd("has-session", "-t", "cfg").rc == 0)
    fmt = "#{session_path} #{pane_current_path}"
    assert hmux.ok("display", "-p", "-t", "cfg", fmt) == tmux.ok("display", "-p", "-t", "cfg", fmt)
    assert hmux.ok("display", "-p", "-t", "cfg", fmt) == "/usr /usr\n"


def test_modes_name_the_window_tmux(hmux, tmux, tmp_path):
    """Entering and leaving a mode makes automatic-rename look again (PANE_CHANGED). The format
    does not name the program, which a shell might still be between fork and exec."""
    conf = _write(str(tmp_path / "r.conf"), "set -g automatic-rename-format "
                  "'#{?pane_in_mode,[tmux],plain}'\n")
    for _name, m in _pair(hmux, tmux):
        m.config = conf
        m.ok("new-session", "-d", "-s", "s", "cat")
        m.config = None
        wait_for(lambda m=m: m.ok("display", "-p", "#{window_name}") == "plain\n")
        m.ok("copy-mode", "-t", "s")
        wait_for(lambda m=m: m.ok("display", "-p", "#{window_name}") == "[tmux]\n")
        m.ok("send-keys", "-t", "s", "-X", "cancel")
        wait_for(lambda m=m: m.ok("display", "-p", "#{window_name}") == "plain\n")


def test_attach_to_a_window_and_a_second_smaller_client(hmux, tmux, muxdir, request):
    """attach -t s:1 makes window 1 current; clients are focused; -T adds features; a second,
    smaller client does not resize a window it is not looking at (tmux's w->latest)."""
    env = base_env(muxdir)
    outer = Outer(muxdir, env)
    request.addfinalizer(outer.mux.kill)
    for name, m in _pair(hmux, tmux):
        m.ok("new-session", "-d", "-s", "s", "-n", "w0", "-x", "80", "-y", "23", "cat")
        m.ok("new-window", "-d", "-t", "s:1", "-n", "w1", "cat")
        argv = (HMUX if name == "hmux" else [TMUX]) + ["-T", "usstyle"] + m.socket_args + \
            ["attach", "-t", "s:1"]
        outer.run(argv, name)
    fmt = "#{window_index} #{client_flags} #{client_termfeatures}"
    for _name, m in _pair(hmux, tmux):
        wait_for(lambda m=m: m.ok("list-clients", "-F", "#{client_flags}").startswith("attached"))
    got = {n: m.ok("list-clients", "-F", fmt) for n, m in _pair(hmux, tmux)}
    assert got["hmux"].split()[:2] == got["tmux"].split()[:2] == ["1", "attached,focused,UTF-8"]
    assert "usstyle" in got["hmux"]
    sizes = "#{window_index}:#{window_width}x#{window_height}"
    assert hmux.ok("list-windows", "-F", sizes) == tmux.ok("list-windows", "-F", sizes)

