"""Commands that ask the user on the status line (tmux 3.7b): command-prompt, confirm-before,
and the prompt history (show-prompt-history, clear-prompt-history).

Without ``-b`` the command waits for the answer, as tmux's CMD_RETURN_WAIT: the commands the
answer makes run right after it, in its queue and with its state. With ``-b`` (or ``-i``) they are
queued on the prompting client instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio

from .. import prompt as PR
from .grammar import CommandError, CommandList
from .queue import CMD_RETURN_ERROR, CMD_RETURN_NORMAL, CmdItem, QueueState, items_from, parse_text
from .registry import command


class Template:
    """args_make_commands_prepare: a ``{ }`` argument or a command string, made into
    commands later with %1.. and %% replaced by the answers."""

    def __init__(self, item: CmdItem, idx: int, default: str | None, expand: bool) -> None:
        self.item = item
        value = item.args.value(idx)
        self.cmdlist: CommandList | None = value if isinstance(value, CommandList) else None
        text = default if value is None else (None if self.cmdlist is not None else str(value))
        if text is not None and expand:
            text = item.expand(text)
        self.text = text

    def first_name(self) -> str:
        """args_make_commands_get_command: the first command's name (for a default prompt)."""
        if self.cmdlist is not None:
            first = self.cmdlist.first()
            return first.name if first is not None else ""
        text = self.text or ""
        end = len(text)
        for sep in " ,":
            i = text.find(sep)
            if 0 <= i < end:
                end = i
        return text[:end]

    def make(self, argv: list[str]) -> CommandList:
        """Raises CommandError with the parse error."""
        from .grammar import template_replace

        if self.cmdlist is not None:
            return self.cmdlist.copy(argv) if argv else self.cmdlist
        text = self.text or ""
        for i, a in enumerate(argv):
            text = template_replace(text, a, i + 1)
        item = self.item
        return parse_text(item.server, text, one_group=True,
                          format_expand=lambda t: item.expand(t, item.target))


class Answer:
    """Where the commands an answer makes go: after the waiting item, or to the client."""

    def __init__(self, item: CmdItem, wait: bool) -> None:
        self.item = item
        self.wait = wait
        self.done = trio.Event()
        self.pending: list[CommandList] = []

    def run(self, client: Any, make: Callable[[], CommandList]) -> None:
        try:
            cmdlist = make()
        except CommandError as e:
            queue_error(self.item.server, client, str(e))
            return
        if self.wait:
            self.pending.append(cmdlist)
        else:
            queue_commands(self.item.server, client, cmdlist)

    async def finish(self) -> None:
        """Wait for the prompt to end, then insert what its answer made after the item."""
        await self.done.wait()
        item = self.item
        for cmdlist in self.pending:
            item.inserted.extend(items_from(item.server, item.client, cmdlist, item.state))


def queue_commands(server: Any, client: Any, cmdlist: CommandList,
                   state: QueueState | None = None) -> None:
    """cmdq_append on a client: after whatever its keys queued before."""
    items = items_from(server, client, cmdlist, state or QueueState())
    a = getattr(client, "attached", None)
    if a is not None:
        a.queue_items(items)
    elif server.nursery is not None:
        from .queue import run_items

        server.nursery.start_soon(run_items, items)


def queue_error(server: Any, client: Any, text: str) -> None:
    """cmdq_get_error for an attached client: the message on its status line."""
    if client is not None and client.session is not None:
        server.status_message(client, text[:1].upper() + text[1:])
    elif client is not None:
        server.add_message(f"{client.name} message: {text}")
        client.error_line(text)


@command("command-prompt")
async def cmd_command_prompt(item: CmdItem) -> int:
    args = item.args
    server = item.server
    tc = item.target_client
    if getattr(tc, "prompt", None) is not None:
        return CMD_RETURN_NORMAL
    wait = not args.has("b") and not args.has("i")
    tpl = Template(item, 0, "%1", args.has("F"))
    space = True
    prompts = args.get("p")
    if prompts is None:
        if args.nargs:
            prompts = f"({tpl.first_name()})"
        else:
            prompts, space = ":", False
    inputs = args.get("I")
    steps: list[tuple[str, str]] = []
    if args.has("l"):  # one prompt, its text as it is (commas and all)
        steps.append((prompts, inputs or ""))
    else:
        input_list = inputs.split(",") if inputs is not None else []
        for i, p in enumerate(prompts.split(",")):
            steps.append((p + " " if space else p,
                          input_list[i] if i < len(input_list) else ""))
    type_name = args.get("T")
    ptype = PR.COMMAND
    if type_name is not None:
        ptype = PR.prompt_type(type_name)
        if ptype < 0:
            return item.error(f"unknown type: {type_name}")
    flags = 0
    if args.has("1"):
        flags |= PR.SINGLE
    elif args.has("N"):
        flags |= PR.NUMERIC
    elif args.has("i"):
        flags |= PR.INCREMENTAL
    elif args.has("k"):
        flags |= PR.KEY
    elif args.has("e"):
        flags |= PR.BSPACE_EXIT
    if args.has("C"):
        flags |= PR.NOFREEZE
    answer = Answer(item, wait)
    answers: list[str] = []
    current = [0]

    def callback(c: Any, s: str | None, done: bool) -> int:
        if s is None:
            return 0
        if done:
            if flags & PR.INCREMENTAL:
                return 0
            answers.append(s)
            current[0] += 1
            if current[0] != len(steps):
                msg, text = steps[current[0]]
                PR.update(server, c, msg, text)
                return 1
        argv = answers if done else answers + [s]
        answer.run(c, lambda: tpl.make(argv))
        return 0

    PR.set_prompt(server, tc, item.target, steps[0][0], steps[0][1], callback,
                  answer.done.set, flags, ptype)
    if wait:
        await answer.finish()
    return CMD_RETURN_NORMAL


@command("confirm-before")
async def cmd_confirm_before(item: CmdItem) -> int:
    args = item.args
    server = item.server
    tc = item.target_client
    tpl = Template(item, 0, None, True)
    try:
        cmdlist = tpl.make([])
    except CommandError as e:
        return item.error(str(e))
    wait = not args.has("b")
    default_yes = args.has("y")
    confirm_key = args.get("c")
    if confirm_key is None:
        confirm_key = "y"
    elif len(confirm_key) != 1 or not " " <= confirm_key < "\x7f":
        return item.error("invalid confirm key")
    prompt = args.get("p")
    if prompt is not None:
        message = prompt + " "
    else:
        first = cmdlist.first()
        message = f"Confirm '{first.name if first is not None else ''}'? ({confirm_key}/n) "
    answer = Answer(item, wait)

    def callback(c: Any, s: str | None, done: bool) -> int:
        # The key typed is the answer: the confirm key, or Enter with -y.
        if not s or (s[0] != confirm_key and (s[0] != "\r" or not default_yes)):
            return 0
        answer.run(c, lambda: cmdlist)
        return 0

    PR.set_prompt(server, tc, item.target, message, None, callback, answer.done.set,
                  PR.SINGLE, PR.COMMAND)
    if wait:
        await answer.finish()
        c = item.client
        if c is not None and c.session is None and not getattr(c, "is_config", False):
            c.retval = 0 if answer.pending else 1
    return CMD_RETURN_NORMAL


def _history_type(item: CmdItem) -> int | None:
    name = item.args.get("T")
    if name is None:
        return None
    t = PR.prompt_type(name)
    if t < 0:
        item.error(f"invalid type: {name}")
        return -1
    return t


@command("show-prompt-history")
def cmd_show_prompt_history(item: CmdItem) -> int:
    t = _history_type(item)
    if t == -1:
        return CMD_RETURN_ERROR
    h = PR.history(item.server)
    for i in range(len(PR.TYPES)) if t is None else (t,):
        item.print(f"History for {PR.TYPES[i]}:\n")
        for n, line in enumerate(h.lists[i]):
            item.print(f"{n + 1}: {line}")
        item.print("")
    return CMD_RETURN_NORMAL


@command("clear-prompt-history")
def cmd_clear_prompt_history(item: CmdItem) -> int:
    t = _history_type(item)
    if t == -1:
        return CMD_RETURN_ERROR
    PR.history(item.server).clear(t)
    return CMD_RETURN_NORMAL
