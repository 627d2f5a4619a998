"""The command queue: parsing, target resolution and running of command lists.

One item per command, as tmux's cmdq: a command that fails skips the rest of its group; the
``current`` state (what ``new-window`` after ``new-session`` in one list targets) is shared by the
whole list; commands may be coroutines (``run-shell``, ``wait-for``) and are awaited in order.
"""

from __future__ import annotations

import inspect
import os
import pwd
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import target as T
from .grammar import Args
from .registry import CommandSpec, table

if TYPE_CHECKING:
    from ..server import ClientConn, Server

CMD_RETURN_NORMAL = 0
CMD_RETURN_ERROR = -1


@dataclass
class QueueState:
    """State shared by the commands of one list (tmux's cmdq_state)."""

    current: T.State | None = None
    event: Any = None
    formats: dict[str, str] = field(default_factory=dict)  # hook_* and similar extras
    control: bool = False
    nohooks: bool = False  # commands run by a hook fire no hooks (CMDQ_STATE_NOHOOKS)
    key: int | None = None  # the key whose binding runs these commands (state->event.key)
    verbose: bool = False  # parsed from a file source-file -v reads: nested ones are verbose too


class CmdItem:
    """One command being run: its arguments, resolved targets and output channel."""

    def __init__(self, server: Server, client: ClientConn | None, spec: CommandSpec, args: Args,
                 state: QueueState, source_file: str | None = None, line: int = 0) -> None:
        self.server = server
        self.client = client
        self.spec = spec
        self.args = args
        self.state = state
        self.target = T.State()
        self.source = T.State()
        self.target_client: ClientConn | None = None
        self.source_file = source_file
        self.line = line
        self.time = time.time()
        self.number = 0
        self.failed = False
        self.group = 0
        #: Items to run right after this one (hooks, if-shell, run-shell -C): cmdq_insert_after.
        self.inserted: list[CmdItem] = []

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def current(self) -> T.State:
        if self.state.current is None:
            self.state.current = T.State()
        return self.state.current

    def print(self, text: str) -> None:
        c = self.client
        if c is None:
            return
        if c.session is not None and getattr(c, "attached", None) is not None \
                and not c.control:
            # cmdq_print: an attached client's output goes to view mode in its pane.
            from ..modes.copy import view_mode

            s = c.session
            wp = s.curw.window.active if s.curw is not None else None
            if getattr(c, "active_pane", False) and getattr(c, "active_pane_wp", None):
                wp = c.active_pane_wp  # server_client_get_pane
            if wp is not None:
                view_mode(self.server, wp).add(text, parse=True)  # 3.7b parses printed text
            return
        c.print_line(text)

    def error(self, text: str) -> int:
        """Report an error as tmux's cmdq_error and return CMD_RETURN_ERROR."""
        self.failed = True
        c = self.client
        if c is None or c.is_config:
            where = self.source_file or "(null)"
            self.server.add_cfg_cause(f"{where}:{self.line}: {text}")
        elif (c.session is not None and getattr(c, "attached", None) is not None
              and not getattr(c, "control", False)):
            # An attached client sees it on its status line, capitalised (cmdq_error).
            self.server.status_message(c, text[:1].upper() + text[1:])
        else:
            self.server.add_message(f"{c.name} message: {text}")
            c.error_line(text)
            c.retval = 1
        return CMD_RETURN_ERROR

    def find(self, target: str | None, kind: str, flags: int = 0) -> T.State | None:
        """Resolve another target (e.g. a second -s); reports the error itself."""
        try:
            return T.find_target(self.server.model, target, kind, flags,
                                 current=self.state.current, client=self.client,
                                 event=self.state.event)
        except T.TargetError as e:
            if str(e):
                self.error(str(e))
            return None

    def expand(self, fmt: str, st: T.State | None = None, **extra: str) -> str:
        from ..formats_vars import expand_for

        return expand_for(self.server, fmt, st or self.target, client=self.target_client,
                          extra={**self.state.formats, **extra}, issuer=self.client)


def _find_flag(item: CmdItem, spec_flag: tuple[str, str, int] | None, dest: T.State) -> bool:
    if spec_flag is None:
        st = T.from_client(item.server.model, item.target_client, 0)
        if st is not None:
            dest.s, dest.wl, dest.w, dest.wp, dest.idx = st.s, st.wl, st.w, st.wp, st.idx
        return True
    letter, kind, flags = spec_flag
    value = item.args.get(letter)
    try:
        st = T.find_target(item.server.model, value, kind, flags, current=item.state.current,
                           client=item.client, event=item.state.event)
    except T.TargetError as e:
        if str(e):
            item.error(str(e))
        else:
            item.failed = True
        return False
    if st is not None:
        dest.s, dest.wl, dest.w, dest.wp, dest.idx = st.s, st.wl, st.w, st.wp, st.idx
    return True


def _add_message(item: CmdItem) -> None:
    """The message log's record of every command run after the config (cmdq_add_message)."""
    text = item.spec.name
    printed = item.args.print()
    if printed:
        text += " " + printed
    c = item.client
    if c is not None and not getattr(c, "is_config", False):
        server = item.server
        uid = getattr(c, "uid", None)
        user = ""
        if uid is not None and uid != os.getuid():
            try:
                user = f"[{pwd.getpwuid(uid).pw_name}]"
            except KeyError:
                user = "[unknown]"
        key = item.state.key
        if c.session is not None and key is not None:
            from ..keys import key_to_string

            server.add_message(f"{c.name}{user} key {key_to_string(key)}: {text}")
        else:
            server.add_message(f"{c.name}{user} command: {text}")
    else:
        item.server.add_message(f"command: {text}")


async def fire(item: CmdItem) -> int:
    """Run one command. A control client's commands are framed by ``%begin`` and ``%end`` or
    ``%error`` (cmdq_guard), with the item's time, number and flags (1 for a command line the
    client sent, 0 for its first command and for hooks); the client is the one the item had
    before it ran."""
    cs = getattr(item.client, "control_state", None)
    if cs is None:
        return await _fire(item)
    flags = 1 if item.state.control else 0
    t = int(item.time)
    cs.guard("begin", t, item.number, flags)
    closed = False

    def waiting() -> None:
        # CMD_RETURN_WAIT: tmux ends the block when a command starts to wait (run-shell,
        # if-shell, load-buffer -, wait-for ...); what it prints later is outside any block.
        nonlocal closed
        closed = True
        cs.guard("end", t, item.number, flags)

    item.on_wait = waiting
    try:
        result = await _fire(item)
    except Exception as e:  # a command bug still closes its block
        item.server.log_exception(f"command {item.name} failed")
        item.error(f"internal error in {item.name}: {e}")
        result = CMD_RETURN_ERROR
    finally:
        item.on_wait = None
    if not closed:
        cs.guard("error" if result == CMD_RETURN_ERROR else "end", t, item.number, flags)
    return result


class _Watched:
    """An exec function's coroutine, awaited as it is, that reports its first suspension
    (the point where tmux's command would return CMD_RETURN_WAIT)."""

    __slots__ = ("coro", "on_wait")

    def __init__(self, coro: Any, on_wait: Any) -> None:
        self.coro = coro
        self.on_wait = on_wait

    def __await__(self) -> Any:
        gen = self.coro.__await__()
        try:
            value = gen.send(None)
        except StopIteration as stop:
            return stop.value
        self.on_wait()
        while True:  # the rest exactly as `yield from gen` after its first step
            try:
                sent = yield value
            except GeneratorExit:
                gen.close()
                raise
            except BaseException as exc:  # noqa: BLE001 (trio's Cancelled and the like)
                try:
                    value = gen.throw(exc)
                except StopIteration as stop:
                    return stop.value
            else:
                try:
                    value = gen.send(sent)
                except StopIteration as stop:
                    return stop.value


async def _fire(item: CmdItem) -> int:
    """One command; when it fails, the command-error hook runs after it (tmux 3.5)."""
    result = await _fire_command(item)
    if result == CMD_RETURN_ERROR:
        item.server.hooks.after_hook("command-error", item, global_ok=True)
    return result


async def _fire_command(item: CmdItem) -> int:
    """Client and targets first, then the exec function, then the after-hook."""
    spec = item.spec
    server = item.server
    args = item.args
    if server.config_loaded.is_set():
        _add_message(item)
    if item.client is None:  # a hook's item runs with the best client (cmdq_fire_command)
        item.client = server.find_client(None, item)
    quiet = spec.client_canfail
    if spec.client_flag:
        name = args.get(spec.client_flag)
        tc = server.find_client(name, item)
        if tc is None and not quiet:
            if name is None:
                item.error("no current client")
            else:
                item.error(f"can't find client: {name[:-1] if name.endswith(':') else name}")
            return CMD_RETURN_ERROR
    else:
        tc = server.find_client(None, item)
    item.target_client = tc
    if spec.source is not None and not _find_flag(item, spec.source, item.source):
        return CMD_RETURN_ERROR
    if not _find_flag(item, spec.target, item.target):
        return CMD_RETURN_ERROR
    result = spec.exec(item)
    if inspect.isawaitable(result):
        on_wait = getattr(item, "on_wait", None)
        result = await (_Watched(result, on_wait) if on_wait is not None else result)
    if result is None:
        result = CMD_RETURN_ERROR if item.failed else CMD_RETURN_NORMAL
    if result != CMD_RETURN_ERROR and spec.after_hook:
        server.run_hook(f"after-{spec.name}", item)
    return result


def items_from(server: Server, client: ClientConn | None, cmdlist: Any, state: QueueState) -> list[CmdItem]:
    """Queue items for a built CommandList (grammar.Command rows carry entry, args, group)."""
    items = []
    for cmd in cmdlist.commands:
        spec = cmd.entry.extra["spec"]
        item = CmdItem(server, client, spec, cmd.args, state, cmd.file, cmd.line)
        item.group = cmd.group
        items.append(item)
    return items


def parse_text(server: Server, text: str, *, file: str | None = None, one_group: bool = False,
               format_expand: Any = None, verbose: Any = None) -> Any:
    """Parse command text (config, binding, prompt) into a CommandList; raises CmdParseError.
    ``verbose`` receives each group as ``file:line: commands`` (source-file -v)."""
    from .cmdparse import alias_lookup, commands_from_buffer

    return commands_from_buffer(text, table(), file=file, environ=server.environ.values,
                                format_expand=format_expand, one_group=one_group,
                                aliases=alias_lookup(_aliases(server)), verbose=verbose)


def parse_argv_list(server: Server, argv: list[str]) -> Any:
    from .cmdparse import alias_lookup, commands_from_argv

    return commands_from_argv(argv, table(), environ=server.environ.values,
                              aliases=alias_lookup(_aliases(server)))


def _aliases(server: Server) -> list[str]:
    value = server.options.get("command-alias")
    if isinstance(value, dict):
        return [value[k] for k in sorted(value)]
    return list(value or [])


async def run_items(items: list[CmdItem]) -> int:
    """Run items in order; an error skips the rest of its group. Returns the overall status."""
    status = CMD_RETURN_NORMAL
    skip_group = None
    failed = False
    queue = deque(items)
    while queue:
        item = queue.popleft()
        if skip_group is not None and item.group == skip_group:
            continue
        item.server.command_number += 1
        item.number = item.server.command_number
        item.time = time.time()
        saved = item.client
        try:
            status = await fire(item)
        except Exception as e:  # a command bug must never take the server down
            item.server.log_exception(f"command {item.name} failed")
            item.error(f"internal error in {item.name}: {e}")
            status = CMD_RETURN_ERROR
        finally:
            item.client = saved
        if status == CMD_RETURN_ERROR:
            skip_group = item.group
            failed = True
        if item.inserted:
            queue.extendleft(reversed(item.inserted))
            item.inserted = []
    return CMD_RETURN_ERROR if failed else status
