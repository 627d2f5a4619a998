"""set-option, show-options (and their -window- forms), and source-file."""

from __future__ import annotations

import glob
import os

from ..options import OptionError, OptionScopes, set_option, show_options
from .queue import CMD_RETURN_NORMAL, CmdItem
from .registry import command


def _scopes(item: CmdItem) -> OptionScopes:
    srv = item.server
    st = item.target
    w = st.wl.window if st.wl is not None else None
    return OptionScopes(
        server=srv.options, global_session=srv.session_options,
        global_window=srv.window_options,
        session=st.s.options if st.s is not None else None,
        window=w.options if w is not None else None,
        pane=st.wp.options if st.wp is not None else None,
        window_panes=tuple(p.options for p in w.panes) if w is not None else (),
        target=item.args.get("t"),
    )


def _set(item: CmdItem, window_command: bool) -> int:
    args = item.args
    argv = args.argv
    name = argv[0]
    value = argv[1] if len(argv) > 1 else None
    try:
        changed = set_option(
            _scopes(item), name, value, append=args.has("a"), format_value=args.has("F"),
            global_=args.has("g"), only_if_unset=args.has("o"), pane=args.has("p"),
            quiet=args.has("q"), server=args.has("s"), unset=args.has("u"),
            unset_panes=args.has("U"), window=args.has("w"), window_command=window_command,
            expand=lambda text: item.expand(text, item.target))
    except OptionError as e:
        return item.error(str(e))
    if changed:
        item.server.option_changed(changed)
    return CMD_RETURN_NORMAL


def _show(item: CmdItem, window_command: bool) -> int:
    args = item.args
    try:
        lines = show_options(
            _scopes(item), args.argv[0] if args.argv else None, global_=args.has("g"),
            include_hooks=args.has("H"), inherited=args.has("A"), pane=args.has("p"),
            quiet=args.has("q"), server=args.has("s"), value_only=args.has("v"),
            window=args.has("w"), window_command=window_command,
            expand=lambda text: item.expand(text, item.target))
    except OptionError as e:
        return item.error(str(e))
    for line in lines:
        item.print(line)
    return CMD_RETURN_NORMAL


@command("set-option")
def cmd_set_option(item: CmdItem) -> int:
    return _set(item, False)


@command("set-window-option")
def cmd_set_window_option(item: CmdItem) -> int:
    return _set(item, True)


@command("show-options")
def cmd_show_options(item: CmdItem) -> int:
    return _show(item, False)


@command("show-window-options")
def cmd_show_window_options(item: CmdItem) -> int:
    return _show(item, True)


@command("source-file")
async def cmd_source_file(item: CmdItem) -> int:
    """Read files (through the client for ``-`` and relative paths) and run their commands."""
    from .grammar import CommandError
    from .queue import QueueState, items_from, parse_text, run_items

    args = item.args
    server = item.server
    quiet = args.has("q")
    c = item.client if item.client is not None and not item.client.is_config else None
    cwd = c.cwd if c is not None and c.cwd else os.getcwd()
    failed = False
    for pattern in args.argv:
        if args.has("F"):
            pattern = item.expand(pattern, item.target)
        if pattern == "-":
            paths = ["-"]
        else:
            full = pattern if pattern.startswith("/") else os.path.join(cwd, pattern)
            paths = sorted(glob.glob(full)) or [full]
        for path in paths:
            if path == "-":
                if c is None:
                    item.error("no client for stdin")
                    failed = True
                    continue
                data, err = await c.read_file("-")
                if err:
                    item.error(f"{path}: {os.strerror(err)}")
                    failed = True
                    continue
                text, shown = data.decode("utf-8", "surrogateescape"), "-"
            else:
                try:
                    with open(path, encoding="utf-8", errors="surrogateescape") as f:
                        text = f.read()
                except OSError as e:
                    if quiet and e.errno == 2:
                        continue
                    item.error(f"{path}: {e.strerror}")
                    failed = True
                    continue
                shown = path
            try:
                cmdlist = parse_text(server, text, file=shown,
                                     format_expand=lambda t: item.expand(t, item.target))
            except CommandError as e:
                if c is not None:
                    item.print(str(e))  # tmux shows parse errors of sourced files on stdout
                    c.retval = 1
                else:
                    item.error(str(e))
                item.failed = failed = True
                continue
            if args.has("n"):
                continue
            items = items_from(server, item.client, cmdlist, QueueState(current=item.state.current))
            if await run_items(items) != CMD_RETURN_NORMAL:
                failed = True
    return -1 if failed else CMD_RETURN_NORMAL
