"""Commands that run shell commands or wait: run-shell, if-shell, wait-for and pipe-pane.

Jobs are tmux's (job.c): ``/bin/sh -c`` with stdin and stdout on one socket (stdin sees EOF at
once), stderr to /dev/null, the session's environment, the client's or session's directory.
Without ``-b`` the command waits for its job and the commands it chooses run right after it, in
the same queue and state; with ``-b`` it returns at once and they run later on their own.

As tmux 3.7b, run-shell's output (and a failure's ``'cmd' returned N``) goes to the ``-t`` pane
in view mode; without ``-t`` a waiting run-shell prints it to its client (stdout for a command
client, view mode in the pane of an attached one) and ``-b`` puts it in the current pane. Its
exit status becomes a command client's exit status.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import trio

from .. import target as T
from ..format import EXPAND_TIME
from ..hooks import outside_hooks
from ..model import Environ
from ..modes.copy import view_mode
from ..spawn import client_cwd
from ..tmux_shim import child_path
from ..version import TMUX_VERSION
from .grammar import CommandError, CommandList
from .queue import CMD_RETURN_NORMAL, CmdItem, QueueState, items_from, run_items
from .registry import command

if TYPE_CHECKING:
    from ..pane import Pane
    from ..server import Server



# -- jobs ----------------------------------------------------------------------------------------

def job_environ(server: Server, s: Any) -> dict[str, str]:
    """environ_for_session: global then session environment; TERM and friends once the config
    has been read (so ``if-shell`` in a config sees the outside TERM); TMUX."""
    env = Environ()
    server.environ.copy_into(env)
    if s is not None:
        s.environ.copy_into(env)
    if server.config_loaded.is_set():
        env.set("TERM", str(server.options.get("default-terminal")))
        env.set("TERM_PROGRAM", "tmux")
        env.set("TERM_PROGRAM_VERSION", TMUX_VERSION)
        env.set("COLORTERM", "truecolor")  # tmux 3.6
    sid = s.id if s is not None else -1
    env.set("TMUX", f"{server.socket_path},{server.pid},{sid}")
    path = child_path(env.get("PATH"))
    if path is not None:
        env.set("PATH", path)
    return {k: v for k, v in env.values.items() if v is not None and k and k not in env.hidden}


def _child_signals() -> None:  # runs in the child: tmux's proc_clear_signals
    for sig in (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGQUIT, signal.SIGINT,
                signal.SIGHUP, signal.SIGTERM, signal.SIGCHLD, signal.SIGUSR1, signal.SIGUSR2):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def _job_cwd(cwd: str | None) -> str:
    """The job's directory, else home, else / (job_run's chdir fallbacks)."""
    from ..model import find_home

    for d in (cwd, find_home(), "/"):
        if d and os.path.isdir(d):
            return d
    return "/"


async def run_job(server: Server, cmd: str, s: Any, cwd: str | None,
                  stderr: bool = False) -> tuple[bytes, int]:
    """Run ``cmd`` like job_run and return (output, wait status as a returncode: negative for a
    signal). ``stderr`` joins stderr to the output (JOB_SHOWSTDERR, run-shell -E) instead of
    discarding it. Raises OSError when it cannot start."""
    parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        proc = await trio.lowlevel.open_process(
            ["/bin/sh", "-c", cmd], stdin=child, stdout=child,
            stderr=child if stderr else subprocess.DEVNULL,
            cwd=_job_cwd(cwd), env=job_environ(server, s), preexec_fn=_child_signals)
    except OSError:
        parent.close()
        raise
    finally:
        child.close()
    parent.shutdown(socket.SHUT_WR)
    sock = trio.socket.from_stdlib_socket(parent)
    out = bytearray()
    try:
        while True:
            try:
                chunk = await sock.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        await proc.wait()
    finally:
        sock.close()
        if proc.returncode is None:  # cancelled (the client went): job_free's SIGTERM
            try:
                proc.send_signal(signal.SIGTERM)
            except OSError:
                pass
    return bytes(out), int(proc.returncode)


def _background(server: Server, fn: Any, *args: Any) -> None:
    """Start a -b job's task in the server's nursery, outside any hook's context."""

    async def task() -> None:
        outside_hooks()
        try:
            await fn(*args)
        except Exception:
            server.log_exception("background job failed")

    if server.nursery is not None:
        server.nursery.start_soon(task)


def _make_commands(item: CmdItem, idx: int, expand: bool) -> CommandList:
    """args_make_commands: a { } argument as it is, a string parsed now (format-expanded first
    for run-shell -C). Raises CommandError with the parse error."""
    from .queue import parse_text

    value = item.args.value(idx)
    if isinstance(value, CommandList):
        return value
    text = str(value)
    if expand:
        text = item.expand(text)
    return parse_text(item.server, text, one_group=True,
                      format_expand=lambda t: item.expand(t, item.target))


async def _run_commands(server: Server, client: Any, cmdlist: CommandList) -> None:
    await run_items(items_from(server, client, cmdlist, QueueState()))


# -- view mode (run-shell output) ----------------------------------------------------------------

def _shell_output_pane(server: Server, wp_id: int | None, client: Any, waiting: bool) -> Any:
    """cmd_run_shell_print's pane: the -t pane, the waiting client's, else the current one."""
    wp = server.model.panes.get(wp_id) if wp_id is not None else None
    if wp is None and waiting and client is not None:
        s = getattr(client, "session", None)
        if s is not None and s.curw is not None:
            wp = s.curw.window.active
    if wp is None:
        st = T.from_nothing(server.model, 0)
        wp = st.wp if st is not None else None
    return wp


# -- run-shell -----------------------------------------------------------------------------------

_STRTOD = re.compile(
    r"[ \t\n\v\f\r]*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*"
    r"|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?|inf(?:inity)?|nan)", re.IGNORECASE)


def parse_delay(text: str) -> float | None:
    """strtod with nothing left over (an empty string is 0, as strtod leaves it at its end)."""
    if text == "":
        return 0.0
    m = _STRTOD.fullmatch(text)
    if m is None:
        return None
    body = text.strip(" \t\n\v\f\r")
    try:
        value = float.fromhex(body) if "x" in body.lower() else float(body)
    except ValueError:
        return None
    if value != value or value < 0:  # nan, negative: fire at once
        return 0.0
    return min(value, 86400.0 * 365)


@command("run-shell")
async def cmd_run_shell(item: CmdItem) -> int:
    args = item.args
    server = item.server
    delay_text = args.get("d")
    delay = 0.0
    if delay_text is not None:
        parsed = parse_delay(delay_text)
        if parsed is None:
            return item.error(f"invalid delay time: {delay_text}")
        delay = parsed
    elif not args.argv:
        return CMD_RETURN_NORMAL
    wait = not args.has("b")
    st = item.target
    s = st.s
    cmd = None
    if not args.has("C") and args.argv:
        # Arguments after the command are #{1}, #{2}, ... in it.
        numbered = {str(i): str(a) for i, a in enumerate(args.argv[1:], 1)}
        cmd = item.expand(args.argv[0], **numbered)
    wp_id = st.wp.id if args.has("t") and st.wp is not None else None
    client = item.client if wait else item.target_client
    cwd = args.get("c")
    if cwd is None:
        cwd = client_cwd(server, item.client, s)
    if not wait:
        _background(server, _run_shell, item, cmd, wp_id, client, s, cwd, delay, False)
        return CMD_RETURN_NORMAL
    return await _run_shell(item, cmd, wp_id, client, s, cwd, delay, True)


async def _run_shell(item: CmdItem, cmd: str | None, wp_id: int | None, client: Any, s: Any,
                     cwd: str, delay: float, waiting: bool) -> int:
    server = item.server
    if delay:
        await trio.sleep(delay)
    if item.args.has("C"):
        if not item.args.argv:
            return CMD_RETURN_NORMAL
        try:
            cmdlist = _make_commands(item, 0, expand=True)
        except CommandError as e:
            if waiting:
                return item.error(str(e))
            return CMD_RETURN_NORMAL  # tmux shows it on the client's status line
        if waiting:
            item.inserted.extend(items_from(server, item.client, cmdlist, item.state))
        else:
            await _run_commands(server, client, cmdlist)
        return CMD_RETURN_NORMAL
    if cmd is None:
        return CMD_RETURN_NORMAL
    try:
        output, rc = await run_job(server, cmd, s, cwd, stderr=item.args.has("E"))
    except OSError:
        if waiting:
            return item.error(f"failed to run command: {cmd}")
        return CMD_RETURN_NORMAL
    text = output.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    message = None
    if rc < 0:
        message = f"'{cmd}' terminated by signal {-rc}"
        retcode = 128 - rc
    else:
        retcode = rc
        if rc != 0:
            message = f"'{cmd}' returned {rc}"
    if message is not None:
        lines.append(message)
    if lines and wp_id is None and waiting:
        for line in lines:  # cmdq_print: the client's stdout, or view mode when attached
            item.print(line)
    elif lines:
        wp = _shell_output_pane(server, wp_id, client, waiting)
        if wp is not None:
            mode = view_mode(server, wp)
            for line in lines:
                mode.add(line, parse=True)
    c = item.client
    if waiting and c is not None and not c.is_config and c.session is None:
        c.retval = retcode
    return CMD_RETURN_NORMAL


# -- if-shell ------------------------------------------------------------------------------------

@command("if-shell")
async def cmd_if_shell(item: CmdItem) -> int:
    args = item.args
    server = item.server
    shellcmd = item.expand(args.argv[0])
    count = args.nargs
    if args.has("F"):
        if shellcmd and shellcmd[0] != "0":
            idx = 1
        elif count == 3:
            idx = 2
        else:
            return CMD_RETURN_NORMAL
        try:
            cmdlist = _make_commands(item, idx, expand=False)
        except CommandError as e:
            return item.error(str(e))
        item.inserted.extend(items_from(server, item.client, cmdlist, item.state))
        return CMD_RETURN_NORMAL
    wait = not args.has("b")
    s = item.target.s
    cwd = client_cwd(server, item.client, s)
    if not wait:
        _background(server, _if_shell, item, shellcmd, s, cwd, False)
        return CMD_RETURN_NORMAL
    return await _if_shell(item, shellcmd, s, cwd, True)


async def _if_shell(item: CmdItem, shellcmd: str, s: Any, cwd: str, waiting: bool) -> int:
    server = item.server
    try:
        _output, rc = await run_job(server, shellcmd, s, cwd)
    except OSError:
        return item.error(f"failed to run command: {shellcmd}")
    idx = 1 if rc == 0 else 2
    if idx >= item.args.nargs:
        return CMD_RETURN_NORMAL
    try:
        cmdlist = _make_commands(item, idx, expand=False)
    except CommandError as e:
        if waiting:
            return item.error(str(e))
        return CMD_RETURN_NORMAL
    if waiting:
        item.inserted.extend(items_from(server, item.client, cmdlist, item.state))
    else:
        await _run_commands(server, item.target_client, cmdlist)
    return CMD_RETURN_NORMAL


# -- wait-for ------------------------------------------------------------------------------------
#
# tmux 3.7b's channels (-S signal, -L lock, -U unlock, wait), and the development tree's
# additions (docs/extensions.md): -l lists a channel's waiters (ordinary ones first, then the
# lockers, by client name), -w CLIENT releases that client's first waiter without signalling
# the channel or passing a lock, and -E NAME waits for the next event NAME (a hook or
# notification, or a user @event of set-hook -E): -F filters the events on a format of their
# payload, -v prints each payload as key=value lines. Events are not sticky: only a waiter
# already there when an event fires hears it.


@dataclass(eq=False)
class _Waiter:
    """One blocked wait-for (its command item names the client for -l and -w)."""

    ev: trio.Event
    item: CmdItem

    def client_name(self) -> str:
        c = self.item.client
        return (getattr(c, "name", "") or "") if c is not None else ""


@dataclass(eq=False)
class WaitChannel:
    name: str
    locked: bool = False
    woken: bool = False
    waiters: list[_Waiter] = field(default_factory=list)
    lockers: deque[_Waiter] = field(default_factory=deque)


_channels: weakref.WeakKeyDictionary[Any, dict[str, WaitChannel]] = weakref.WeakKeyDictionary()
_event_waiters: weakref.WeakKeyDictionary[Any, list[_EventWaiter]] = weakref.WeakKeyDictionary()


def wait_channels(server: Server) -> dict[str, WaitChannel]:
    """The server's wait channels (a channel exists while someone holds or awaits it)."""
    chans = _channels.get(server)
    if chans is None:
        chans = _channels[server] = {}
    return chans


def _remove(chans: dict[str, WaitChannel], wc: WaitChannel) -> None:
    if wc.locked or wc.waiters or not wc.woken:
        return
    chans.pop(wc.name, None)


def _remove_empty(chans: dict[str, WaitChannel], wc: WaitChannel) -> None:
    """cmd_wait_for_remove_empty: a channel nobody holds, awaits or signalled goes."""
    if wc.locked or wc.woken or wc.waiters or wc.lockers:
        return
    chans.pop(wc.name, None)


def _channel(chans: dict[str, WaitChannel], name: str) -> WaitChannel:
    wc = chans.get(name)
    if wc is None:
        wc = chans[name] = WaitChannel(name)
    return wc


@command("wait-for")
async def cmd_wait_for(item: CmdItem) -> int:
    args = item.args
    name = args.argv[0]
    if args.has("E"):
        return await _wait_event(item, name)
    chans = wait_channels(item.server)
    wc = chans.get(name)
    client = item.client if item.client is not None and not item.client.is_config else None
    if args.has("l"):
        if wc is not None:
            for w in list(wc.waiters) + list(wc.lockers):
                if not w.ev.is_set():
                    item.print(w.client_name())
        return CMD_RETURN_NORMAL
    if args.has("w"):
        want = args.get("w") or ""
        if wc is not None:
            for queue in (wc.waiters, wc.lockers):
                for w in list(queue):
                    if not w.ev.is_set() and w.client_name() == want:
                        queue.remove(w)
                        w.ev.set()
                        _remove_empty(chans, wc)
                        return CMD_RETURN_NORMAL
        return CMD_RETURN_NORMAL  # nobody to wake is not an error
    if args.has("S"):
        wc = wc or _channel(chans, name)
        if not wc.waiters and not wc.woken:
            wc.woken = True
            return CMD_RETURN_NORMAL
        for w in wc.waiters:
            w.ev.set()
        wc.waiters.clear()
        _remove(chans, wc)
        return CMD_RETURN_NORMAL
    if args.has("L"):
        if client is None:
            return item.error("not able to lock")
        wc = wc or _channel(chans, name)
        if wc.locked:
            await _block(wc.lockers, item)
        wc.locked = True
        return CMD_RETURN_NORMAL
    if args.has("U"):
        if wc is None or not wc.locked:
            return item.error(f"channel {name} not locked")
        if wc.lockers:
            wc.lockers.popleft().ev.set()  # the lock passes straight to the next locker
        else:
            wc.locked = False
            _remove(chans, wc)
        return CMD_RETURN_NORMAL
    if client is None:
        return item.error("not able to wait")
    wc = wc or _channel(chans, name)
    if wc.woken:
        _remove(chans, wc)
        return CMD_RETURN_NORMAL
    await _block(wc.waiters, item)
    return CMD_RETURN_NORMAL


async def _block(queue: list[_Waiter] | deque[_Waiter], item: CmdItem) -> None:
    w = _Waiter(trio.Event(), item)
    queue.append(w)
    try:
        await w.ev.wait()
    finally:
        if not w.ev.is_set() and w in queue:
            queue.remove(w)


@dataclass(eq=False)
class _EventWaiter:
    """A wait-for -E: the event it waits for, its filter and whether it prints payloads."""

    name: str
    item: CmdItem
    filter: str | None
    verbose: bool
    ev: trio.Event = field(default_factory=trio.Event)

    def client_name(self) -> str:
        c = self.item.client
        return (getattr(c, "name", "") or "") if c is not None else ""


def valid_event_name(name: str) -> bool:
    """hooks_valid_event_name: a user @event, or any hook tmux (or this server) has."""
    from ..options_table import OPTIONS_BY_NAME

    if name.startswith("@"):
        return True
    oe = OPTIONS_BY_NAME.get(name)
    return oe is not None and oe.is_hook


async def _wait_event(item: CmdItem, name: str) -> int:
    """cmd_wait_for_event: -l lists the waiters, -w wakes one, else wait for the event."""
    args = item.args
    server = item.server
    if not valid_event_name(name):
        return item.error(f"invalid event: {name}")
    waiting = _event_waiters.setdefault(server, [])
    if args.has("l"):
        for w in waiting:
            if w.name == name and not w.ev.is_set():
                item.print(w.client_name())
        return CMD_RETURN_NORMAL
    if args.has("w"):
        want = args.get("w") or ""
        for w in waiting:
            if w.name == name and not w.ev.is_set() and w.client_name() == want:
                waiting.remove(w)
                w.ev.set()
                return CMD_RETURN_NORMAL
        return item.error(f"waiter {want} not found")
    if item.client is None:
        return item.error("not able to wait")
    w = _EventWaiter(name, item, args.get("F"), args.has("v"))

    def heard(_name: str, payload: Any) -> None:
        if w.ev.is_set():
            return
        if w.verbose:
            for key, value in payload.public():
                item.print(f"{key}={value}")
        if w.filter is not None:
            from ..format import expand, format_true
            from ..formats_vars import ModelContext

            # format_create without defaults: variables of tmux's table stay empty, the
            # payload's keys (pane, value, command_status...) are what a filter reads.
            ctx = ModelContext(server, None, None, None, None, payload.formats(""))
            if not format_true(_expand_nojobs(expand, w.filter, ctx)):
                return
        w.ev.set()

    sink = server.hooks.events.add_sink(name, heard)
    waiting.append(w)
    try:
        await w.ev.wait()
    finally:
        server.hooks.events.remove_sink(sink)
        if w in waiting:
            waiting.remove(w)
    return CMD_RETURN_NORMAL


def _expand_nojobs(expand: Any, fmt: str, ctx: Any) -> str:
    from ..format import EXPAND_NOJOBS

    return expand(fmt, ctx, flags=EXPAND_NOJOBS)


# -- pipe-pane -----------------------------------------------------------------------------------

class PanePipe:
    """A pane's pipe (tmux's pipe_fd): new output to the command's stdin (-O), the command's
    output to the pane as if typed (-I). Closing it (or the command going) clears pane_pipe."""

    def __init__(self, pane: Pane, sock: socket.socket, proc: Any, read_in: bool,
                 write_out: bool) -> None:
        self.pane = pane
        self.sock = trio.socket.from_stdlib_socket(sock)
        self.proc = proc
        self.read_in = read_in
        self.write_out = write_out
        self.closed = False
        self._out = bytearray()
        self._wake = trio.Event()
        self._scope = trio.CancelScope()

    def feed(self, data: bytes) -> None:
        """Pane output since the pipe opened (called by the pane's reader)."""
        if self.write_out and not self.closed:
            self._out += data
            self._wake.set()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._scope.cancel()
        try:
            self.sock.close()
        except OSError:
            pass
        if getattr(self.pane, "pipe", None) is self:
            self.pane.pipe = None

    async def run(self) -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._reap)  # outside the scope: the command is always reaped
            with self._scope:
                async with trio.open_nursery() as pipes:
                    if self.write_out:
                        pipes.start_soon(self._writer)
                    if self.read_in:
                        pipes.start_soon(self._reader)
            self.close()

    async def _reap(self) -> None:
        try:
            await self.proc.wait()
        except OSError:
            pass

    async def _writer(self) -> None:
        while True:
            if not self._out:
                self._wake = trio.Event()
                await self._wake.wait()
                continue
            data = bytes(self._out)
            self._out.clear()
            try:
                await _send_all(self.sock, data)
            except OSError:
                self.close()
                return

    async def _reader(self) -> None:
        while True:
            try:
                data = await self.sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                self.close()
                return
            self.pane.write(data)


async def _send_all(sock: Any, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = await sock.send(view)
        view = view[n:]


@command("pipe-pane")
async def cmd_pipe_pane(item: CmdItem) -> int:
    args = item.args
    server = item.server
    st = item.target
    wp = st.wp
    assert wp is not None
    if wp.fd < 0 or wp.exited or wp.dead:
        return item.error("target pane has exited")
    old = wp.pipe
    if old is not None:
        old.close()
        wp.pipe = None
    if not args.argv or args.argv[0] == "":
        return CMD_RETURN_NORMAL
    if args.has("o") and old is not None:
        return CMD_RETURN_NORMAL
    read_in = args.has("I")
    write_out = args.has("O") if read_in else True
    from ..format import expand
    from ..formats_vars import context_for

    ctx = context_for(server, item.target_client, st.s, st.wl, wp, dict(item.state.formats))
    ctx.issuer = item.client
    cmd = expand(args.argv[0], ctx, flags=EXPAND_TIME)
    try:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError as e:
        return item.error(f"socketpair error: {e.strerror}")
    try:
        proc = await trio.lowlevel.open_process(
            ["/bin/sh", "-c", cmd], stdin=theirs if write_out else subprocess.DEVNULL,
            stdout=theirs if read_in else subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=_child_signals)
    except OSError as e:
        ours.close()
        return item.error(f"fork error: {e.strerror}")
    finally:
        theirs.close()
    if not write_out:
        ours.shutdown(socket.SHUT_WR)
    pipe = PanePipe(wp, ours, proc, read_in, write_out)
    wp.pipe = pipe
    if server.nursery is not None:
        server.nursery.start_soon(pipe.run)
    return CMD_RETURN_NORMAL


def close_pane_pipe(wp: Any) -> None:
    """Close a pane's pipe (the pane is going)."""
    pipe = getattr(wp, "pipe", None)
    if pipe is not None:
        pipe.close()

