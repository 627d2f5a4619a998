"""set-option, show-options (and their -window- forms), and source-file."""

from __future__ import annotations

import glob
import os
from typing import Any

import trio

from ..options import OptionError, OptionScopes, set_option, show_options
from .grammar import CommandError
from .queue import CMD_RETURN_NORMAL, CmdItem, QueueState, items_from, parse_text, run_items
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


SOURCE_FILE_DEPTH_LIMIT = 50


@command("source-file")
async def cmd_source_file(item: CmdItem) -> int:
    """Read files (the client's stdin for ``-``) and run their commands after this one.

    As tmux 3.7b: paths are globbed relative to the client's directory, a missing file is
    ``No such file or directory: path``, nesting stops at 50 files, the commands of each file run
    with ``#{current_file}`` set and with ``-t`` as their current target, and parse errors
    collected while the files were read are printed once at the end (``cfg_print_causes``)."""
    server = item.server
    c = item.client if item.client is not None and not item.client.is_config else None
    holder = c if c is not None else server
    depth = getattr(holder, "source_file_depth", 0)
    if depth >= SOURCE_FILE_DEPTH_LIMIT:
        return item.error("too many nested files")
    holder.source_file_depth = depth + 1
    try:
        return await _source_files(item, c)
    finally:
        holder.source_file_depth = depth


async def _source_files(item: CmdItem, c: Any) -> int:
    args = item.args
    server = item.server
    quiet = args.has("q")
    verbose = (args.has("v") or item.state.verbose) and not (c is not None and c.control)
    cwd = c.cwd if c is not None and c.cwd else os.getcwd()
    failed = False
    files: list[str] = []
    for pattern in args.argv:
        if args.has("F"):
            pattern = item.expand(pattern, item.target)
        if pattern == "-":
            files.append("-")
            continue
        # The working directory is a prefix, not a pattern (cmd_source_file_quote_for_glob).
        full = pattern if pattern.startswith("/") else glob.escape(cwd) + "/" + pattern
        found = sorted(glob.glob(full))
        if not found:
            if not quiet:
                item.error(f"No such file or directory: {pattern}")
                failed = True
            continue
        files.extend(found)
    if files:
        await trio.lowlevel.checkpoint()  # file_read: the command waits for its files
    for path in files:
        if path == "-":
            if c is None:
                item.error("Bad file descriptor: -")
                failed = True
                continue
            data, err = await c.read_file("-")
            if err:
                item.error(f"{os.strerror(err)}: {path}")
                failed = True
                continue
            text = data.decode("utf-8", "surrogateescape")
        else:
            try:
                with open(path, encoding="utf-8", errors="surrogateescape") as f:
                    text = f.read()
            except OSError as e:
                item.error(f"{e.strerror}: {path}")
                failed = True
                continue
        if not text:
            continue
        try:
            cmdlist = parse_text(server, text, file=path,
                                 format_expand=lambda t: item.expand(t, item.target),
                                 verbose=item.print if verbose else None)
        except CommandError as e:
            server.add_cfg_cause(str(e))
            failed = True
            continue
        if args.has("n"):
            continue
        current = item.target if args.get("t") is not None else item.state.current
        state = QueueState(current=current, formats={**item.state.formats, "current_file": path},
                           control=item.state.control, verbose=verbose)  # cmdq_copy_state
        items = items_from(server, item.client, cmdlist, state)
        if await run_items(items) != CMD_RETURN_NORMAL:
            failed = True
    if server.config_loaded.is_set():
        if failed and c is not None and c.session is None:
            c.retval = 1
        _print_causes(item)
    if failed:
        item.failed = True
        return -1
    return CMD_RETURN_NORMAL


def _print_causes(item: CmdItem) -> None:
    """cfg_print_causes: the collected configuration errors, to this command's client."""
    server = item.server
    causes, server.cfg_causes = server.cfg_causes, []
    c = item.client
    for cause in causes:
        if c is not None and c.control:
            c.control_write(f"%config-error {cause}")
        else:
            item.print(cause)
