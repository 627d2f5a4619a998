"""The ``hmux`` executable.

tmux's own command line (``hmux [-2CDlNuvV] [-L name] [-S path] [-f file] command [flags]``) is
parsed getopt-style right here, because tools pass glued values (``-Lname``) and expect tmux's usage
text. hmux's own subcommands (``hmux plugins``, ``hmux doctor``) go through click, imported only
for them, which keeps ordinary commands fast to start.
"""

from __future__ import annotations

import os
import sys

from . import protocol as P
from .version import HMUX_VERSION, TMUX_VERSION

OPTSTRING = "2c:CDdf:hlL:NqS:T:uUvV"

USAGE = ("usage: hmux [-2CDhlNuVv] [-c shell-command] [-f file] [-L socket-name]\n"
         "            [-S socket-path] [-T features] [command [flags]]\n")

#: ``hmux --help``: tmux's usage, then what only hmux has.
HELP = USAGE + """
hmux is a tmux-compatible terminal multiplexer: the commands, flags, key bindings, formats and
configuration are tmux 3.7b's (`hmux list-commands`, `hmux list-keys`, the tmux(1) manual).
Its configuration is ~/.hmux.conf (or ~/.config/hmux/hmux.conf); without one, tmux's files
(~/.tmux.conf, ~/.config/tmux/tmux.conf) are read.

hmux's own commands:
  hmux --version        hmux's version and the tmux release it follows
  hmux plugins [--json] installed plugins, which ones the server runs, and why not the others
  hmux agents ...       the agent plugin: install-hooks [AGENT] [--remove], next, list, report
  hmux doctor [--json]  which multiplexer this shell is in, as pane-driving tools decide it.
                        Its first line, `export CYBER_MUX=...`, is the line to put in a shell's
                        startup file to pin that answer for such tools (they read $CYBER_MUX
                        before walking the process tree); `--install-shim DIR` writes a `tmux`
                        in DIR that runs hmux.

Plugins: TMUX_C2RS_PLUGINS=agent,git (the default set), all, or none; or `set -s plugins ...`
in the configuration. See README.md and docs/ in the hmux distribution.
"""


def usage(status: int = 1) -> int:
    (sys.stdout if status == 0 else sys.stderr).write(USAGE)
    return status


def _getopt(argv: list[str]) -> tuple[list[tuple[str, str]], list[str]] | None:
    """POSIX getopt over OPTSTRING; stops at the first non-option, as tmux's main does."""
    opts: list[tuple[str, str]] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        j = 1
        while j < len(arg):
            ch = arg[j]
            pos = OPTSTRING.find(ch)
            if pos < 0 or ch == ":":
                sys.stderr.write(f"hmux: unknown option -- {ch}\n")
                return None
            if pos + 1 < len(OPTSTRING) and OPTSTRING[pos + 1] == ":":
                if j + 1 < len(arg):
                    value = arg[j + 1 :]
                else:
                    i += 1
                    if i >= len(argv):
                        sys.stderr.write(f"hmux: option requires an argument -- {ch}\n")
                        return None
                    value = argv[i]
                opts.append((ch, value))
                break
            opts.append((ch, ""))
            j += 1
        i += 1
    return opts, argv[i:]


def main(argv: list[str] | None = None, *, tmux_shim: bool = False) -> int:
    """``tmux_shim``: run as ``tmux`` (tmux_shim.py), hmux's own subcommands passed to the server."""
    argv = sys.argv[1:] if argv is None else argv
    native = os.environ.pop("HMUX_NATIVE_CLIENT", None)  # forkserver.NATIVE_ENV
    if native is not None:
        # The C client became this one; a fork server we start answers it directly. Out of
        # the environment before anything sends it on (to a server, a pane, a job).
        from . import forkserver

        forkserver.native_alias = native
    if not tmux_shim and argv[:1] == ["--version"]:
        print(f"hmux {HMUX_VERSION} (tmux {TMUX_VERSION} compatible)")
        return 0
    if not tmux_shim and argv[:1] == ["--help"]:
        sys.stdout.write(HELP)
        return 0
    try:
        return _main(argv, tmux_shim)
    except KeyboardInterrupt:
        # Ctrl-C on a client waiting for its command: end quietly, never a traceback.
        return 130


def _main(argv: list[str], tmux_shim: bool) -> int:
    parsed = _getopt(argv)
    if parsed is None:
        return usage()
    opts, rest = parsed
    flags = 0
    path = label = None
    config_files: list[str] | None = None
    shell_command = None
    features = 0
    if sys.argv and sys.argv[0].startswith("-"):
        flags |= P.CLIENT_LOGIN
    for opt, value in opts:
        if opt == "V":
            print(f"tmux {TMUX_VERSION}")
            return 0
        if opt == "h":
            return usage(0)
        if opt == "C":
            flags |= P.CLIENT_CONTROLCONTROL if flags & P.CLIENT_CONTROL else P.CLIENT_CONTROL
        elif opt == "D":
            flags |= P.CLIENT_NOFORK
        elif opt == "f":
            config_files = (config_files or []) + [value]
        elif opt == "l":
            flags |= P.CLIENT_LOGIN
        elif opt == "L":
            label = value
        elif opt == "N":
            flags |= P.CLIENT_NOSTARTSERVER
        elif opt == "S":
            path = value
        elif opt == "u":
            flags |= P.CLIENT_UTF8
        elif opt == "c":
            shell_command = value
        elif opt == "T":
            from .tty_term import feature_bits  # only when asked: it is not a fast import

            features |= feature_bits(value.replace(":", ","))
    if shell_command is not None and rest:
        return usage()
    if flags & P.CLIENT_NOFORK and rest:
        return usage()
    if shell_command is not None:
        os.execl("/bin/sh", "sh", "-c", shell_command)
    if os.environ.get("TMUX"):
        flags |= P.CLIENT_UTF8
    else:
        lang = os.environ.get("LC_ALL") or os.environ.get("LC_CTYPE") or os.environ.get("LANG") or ""
        if "UTF-8" in lang.upper() or "UTF8" in lang.upper():
            flags |= P.CLIENT_UTF8

    if not tmux_shim and rest[:1] == ["doctor"]:
        from . import cli_doctor

        return cli_doctor.main(rest[1:])
    from .paths import SOCKET_DIR_PREFIX, TMUX_SOCKET_DIR_PREFIX, SocketPathError, resolve_socket

    try:
        socket_path, is_default = resolve_socket(
            path, label, prefix=TMUX_SOCKET_DIR_PREFIX if tmux_shim else SOCKET_DIR_PREFIX)
    except SocketPathError as e:
        sys.stderr.write(f"{e}\n")
        return 1
    if is_default:
        flags |= P.CLIENT_DEFAULTSOCKET
    if not tmux_shim and rest[:1] == ["plugins"]:
        from . import cli_plugins

        return cli_plugins.main(rest[1:], socket_path)
    if not tmux_shim and rest[:1] == ["agents"]:
        from . import cli_agents

        return cli_agents.main(rest[1:], socket_path)
    from . import client

    return client.main(rest, socket_path, flags, config_files, tmux_files=tmux_shim,
                       features=features)


if __name__ == "__main__":
    sys.exit(main())
