"""Paste buffer commands: set-buffer, delete-buffer, list-buffers, show-buffer, save-buffer,
load-buffer and paste-buffer, plus the file helpers they share (tmux's file.c).

Files go through the client that ran the command (its cwd, its permissions, its stdin and
stdout for ``-``), as tmux does for a client that is not attached; the server opens them itself
only when there is no such client. An error reading or writing a file is reported but does not
stop the commands after it, as in tmux (the command itself did not fail, its file did).
"""

from __future__ import annotations

import errno
import os
from typing import Any

import trio

from .. import target as T
from ..buffers import strvis
from ..format import format_true
from ..formats_vars import expand_for
from ..spawn import client_cwd
from ..vis import VIS_NOSLASH, VIS_SAFE
from .queue import CMD_RETURN_NORMAL, CmdItem
from .registry import command

LIST_BUFFERS_TEMPLATE = '#{buffer_name}: #{buffer_size} bytes: "#{buffer_sample}"'


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _file_client(item: CmdItem) -> Any:
    """The client a file goes through (cmdq_get_client); None for config files and hooks."""
    c = item.client
    if c is None or c.is_config:
        return None
    return c


def _attached(c: object) -> bool:
    """CLIENT_ATTACHED: in a session (a control client too: the server opens its files)."""
    return getattr(c, "session", None) is not None


def file_path(item: CmdItem, path: str) -> str:
    """file_get_path: an absolute path, relative ones from the client's working directory."""
    if path.startswith("/"):
        return path
    return f"{client_cwd(item.server, _file_client(item), None)}/{path}"


async def read_file(item: CmdItem, path: str) -> tuple[bytes, int, str]:
    """file_read: (data, errno, path as errors show it); ``-`` is the client's stdin."""
    c = _file_client(item)
    if path == "-":
        if c is None or _attached(c) or c.control:
            await trio.lowlevel.checkpoint()  # file_fire_done runs later: the command waits
            return b"", errno.EBADF, "-"
        data, err = await c.read_file("-")
        return data, err, "-"
    full = file_path(item, path)
    if c is None or _attached(c):
        await trio.lowlevel.checkpoint()
        try:
            with open(full, "rb") as f:
                return f.read(), 0, full
        except IsADirectoryError:
            return b"", errno.EIO, full
        except OSError as e:
            return b"", e.errno or errno.EIO, full
    data, err = await c.read_file(full)
    return data, err, full


async def write_file(item: CmdItem, path: str, data: bytes, append: bool) -> tuple[int, str]:
    """file_write: (errno, path as errors show it); ``-`` is the client's stdout."""
    c = _file_client(item)
    flags = os.O_APPEND if append else os.O_TRUNC
    if path == "-":
        if c is None or _attached(c) or c.control:
            await trio.lowlevel.checkpoint()  # file_fire_done runs later: the command waits
            return errno.EBADF, "-"
        return await c.write_file("-", data, flags), "-"
    full = file_path(item, path)
    if c is None or _attached(c):
        await trio.lowlevel.checkpoint()
        try:
            with open(full, "ab" if append else "wb") as f:
                f.write(data)
        except OSError as e:
            return e.errno or errno.EIO, full
        return 0, full
    return await c.write_file(full, data, flags), full


def _set_or_delete(item: CmdItem, delete: bool) -> int:
    """cmd_set_buffer_exec (with Debian 3.3a's "unknown buffer" check for -b)."""
    args = item.args
    buffers = item.server.buffers
    bufname = args.get("b")
    pb = buffers.get(bufname) if bufname is not None else None
    if delete or args.has("n"):
        if pb is None:
            if bufname is not None:
                return item.error(f"unknown buffer: {bufname}")
            pb = buffers.top()
        if pb is None:
            return item.error("no buffer")
        if delete:
            buffers.delete(pb.name)
            return CMD_RETURN_NORMAL
        err = buffers.rename(pb.name, args.get("n"))
        if err:
            return item.error(err)
        return CMD_RETURN_NORMAL
    if args.nargs != 1:
        return item.error("no data specified")
    new = _encode(args.argv[0])
    if not new:
        return CMD_RETURN_NORMAL
    data = pb.data + new if args.has("a") and pb is not None else new
    err = buffers.set(data, bufname)
    if err:
        return item.error(err)
    # -w sets the attached terminal's clipboard; a client without a terminal has none.
    return CMD_RETURN_NORMAL


@command("set-buffer")
def cmd_set_buffer(item: CmdItem) -> int:
    return _set_or_delete(item, delete=False)


@command("delete-buffer")
def cmd_delete_buffer(item: CmdItem) -> int:
    return _set_or_delete(item, delete=True)


@command("list-buffers")
def cmd_list_buffers(item: CmdItem) -> int:
    """Buffers newest first; the formats have the buffer but no session (as tmux)."""
    args = item.args
    template = args.get("F") or LIST_BUFFERS_TEMPLATE
    flt = args.get("f")
    from ..sort import sort_items
    from .sessions import sort_args

    how = sort_args(item)
    if how is None:
        return -1
    for pb in sort_items("buffer", item.server.buffers.sorted(), *how):
        extra = {**item.state.formats, **pb.format_values()}
        if flt is not None:
            text = expand_for(item.server, flt, T.State(), extra=extra, issuer=item.client)
            if not format_true(text):
                continue
        item.print(expand_for(item.server, template, T.State(), extra=extra, issuer=item.client))
    return CMD_RETURN_NORMAL


async def _save(item: CmdItem, show: bool) -> int:
    args = item.args
    buffers = item.server.buffers
    bufname = args.get("b")
    if bufname is None:
        pb = buffers.top()
        if pb is None:
            return item.error("no buffers")
    else:
        pb = buffers.get(bufname)
        if pb is None:
            return item.error(f"no buffer {bufname}")
    if show:
        c = _file_client(item)
        if c is not None and (_attached(c) or c.control):
            # server_client_print with parse: a C string (up to a NUL); a control client gets
            # it as it is, an attached one each line parsed as terminal output in view mode.
            lines = [pb.data] if c.control else pb.data.split(b"\n")
            for line in lines:
                item.print(line.split(b"\0", 1)[0].decode("utf-8", "surrogateescape"))
            return CMD_RETURN_NORMAL
        path = "-"
    else:
        path = item.expand(args.argv[0])
    err, shown = await write_file(item, path, pb.data, args.has("a"))
    if err:
        item.error(f"{os.strerror(err)}: {shown}")
    return CMD_RETURN_NORMAL


@command("show-buffer")
async def cmd_show_buffer(item: CmdItem) -> int:
    return await _save(item, show=True)


@command("save-buffer")
async def cmd_save_buffer(item: CmdItem) -> int:
    return await _save(item, show=False)


@command("load-buffer")
async def cmd_load_buffer(item: CmdItem) -> int:
    args = item.args
    path = item.expand(args.argv[0])
    data, err, shown = await read_file(item, path)
    if err:
        item.error(f"{os.strerror(err)}: {shown}")
    elif data:
        failure = item.server.buffers.set(data, args.get("b"))
        if failure:
            item.error(failure)
    return CMD_RETURN_NORMAL


@command("paste-buffer")
def cmd_paste_buffer(item: CmdItem) -> int:
    """Write a buffer into the pane, newlines replaced by the separator (``\\r`` unless -r or
    -s), inside bracketed-paste markers with -p when the application asked for them. As tmux
    3.7b, control characters other than tab, newline, CR, BS and BEL are pasted made visible
    (``^[``) unless -S sends the bytes as they are; a dead pane takes no paste."""
    args = item.args
    wp = item.target.wp
    assert wp is not None
    if wp.dead:
        return item.error("target pane has exited")
    buffers = item.server.buffers
    bufname = args.get("b")
    if bufname is None:
        pb = buffers.top()
    else:
        pb = buffers.get(bufname)
        if pb is None:
            return item.error(f"no buffer {bufname}")
    if pb is not None and not wp.input_off:
        sep = args.get("s")
        if sep is None:
            sep = "\n" if args.has("r") else "\r"
        bracket = args.has("p") and bool(getattr(wp.screen, "bracketed_paste", False))
        lines = pb.data.split(b"\n")
        if not args.has("S"):
            lines = [strvis(line, VIS_SAFE | VIS_NOSLASH) for line in lines]
        data = _encode(sep).join(lines)
        if bracket:
            data = b"\x1b[200~" + data + b"\x1b[201~"
        wp.write(data)
    if pb is not None and args.has("d"):
        buffers.delete(pb.name)
    return CMD_RETURN_NORMAL
