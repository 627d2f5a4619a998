"""Per-command argument grammar: tmux 3.7b's getopt-style flag templates.

One command's argument vector (strings, or command lists parsed from ``{ ... }``) is checked
against its template ("ab:c" style, as in tmux's cmd-*.c entries) and turned into an
:class:`Args`. Errors carry tmux's exact texts; :func:`parse_command` adds the
``command NAME:`` / ``usage:`` prefixes the way tmux's cmd_parse does. The file:line prefix
belongs to the command-string layer (``cmdparse``).

The module also holds the command-level data model shared by the parser and the registry:
:class:`CommandEntry` (a command table row), :class:`Command` (a parsed command) and
:class:`CommandList` (what ``{ ... }``, key bindings and hooks hold), plus the full table of
tmux 3.7b commands as data (:data:`TMUX_COMMAND_TEMPLATES`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

__all__ = [
    "ARG_COMMANDS",
    "ARG_COMMANDS_OR_STRING",
    "ARG_STRING",
    "Args",
    "Command",
    "CommandEntry",
    "CommandError",
    "CommandList",
    "CommandTemplate",
    "FLAG_AFTER_HOOK",
    "FLAG_CLIENT_CANFAIL",
    "FLAG_CLIENT_CFLAG",
    "FLAG_CLIENT_TFLAG",
    "FLAG_READ_ONLY",
    "FLAG_START_SERVER",
    "TMUX_COMMAND_ARG_TYPES",
    "TMUX_COMMAND_FLAGS",
    "TMUX_COMMAND_TARGETS",
    "TMUX_COMMAND_TEMPLATES",
    "TargetSpec",
    "UsageError",
    "args_escape",
    "format_command_error",
    "lookup_command",
    "parse_args",
    "parse_command",
    "string_percentage",
    "stringify_argv",
    "strtonum",
    "template_replace",
    "tmux_command_table",
]


# --------------------------------------------------------------------------------------------
# Errors


class CommandError(Exception):
    """A command-level error; ``message`` is exactly the text tmux shows (no trailing newline)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class UsageError(CommandError):
    """``-?`` was given: tmux answers with ``usage: NAME USAGE`` instead of a specific cause."""

    def __init__(self) -> None:
        super().__init__("usage")


def format_command_error(name: str, message: str) -> str:
    """Prefix an argument error the way tmux's cmd_parse does (``command new-session: ...``)."""
    return f"command {name}: {message}"


# --------------------------------------------------------------------------------------------
# Argument values and Args

#: Positional argument kinds returned by a command's argument-type callback (tmux's
#: ARGS_PARSE_STRING / ARGS_PARSE_COMMANDS_OR_STRING / ARGS_PARSE_COMMANDS).
ARG_STRING = "string"
ARG_COMMANDS_OR_STRING = "commands-or-string"
ARG_COMMANDS = "commands"

ArgValue = Any  # str | CommandList
ArgTypeFn = Callable[["Args", int], str]


def _value_string(value: ArgValue) -> str:
    if isinstance(value, str):
        return value
    return value.print()


class Args:
    """Parsed flags and positional arguments of one command (tmux's struct args).

    Flags keep a use count and their values in order; positional values are strings or
    :class:`CommandList` objects (a ``{ ... }`` block, tmux's ARGS_COMMANDS).
    """

    __slots__ = ("_flags", "_values")

    def __init__(self) -> None:
        self._flags: dict[str, list[Any]] = {}  # flag -> [count, [values]]
        self._values: list[ArgValue] = []

    # -- flags ---------------------------------------------------------------------------
    def has(self, flag: str) -> bool:
        return flag in self._flags

    def count(self, flag: str) -> int:
        """How many times a flag was given (``-vvv`` is 3)."""
        entry = self._flags.get(flag)
        return entry[0] if entry is not None else 0

    def get(self, flag: str) -> str | None:
        """Last value given to a flag; None if absent or given without a value."""
        entry = self._flags.get(flag)
        if entry is None or not entry[1]:
            return None
        return entry[1][-1]

    def values(self, flag: str) -> list[str]:
        """All values given to a flag, in command-line order (``-e A=1 -e B=2``)."""
        entry = self._flags.get(flag)
        return list(entry[1]) if entry is not None else []

    def set(self, flag: str, value: str | None = None) -> None:
        """Add one use of a flag, with an optional value (tmux's args_set)."""
        entry = self._flags.get(flag)
        if entry is None:
            entry = self._flags[flag] = [0, []]
        entry[0] += 1
        if value is not None:
            entry[1].append(value)

    def remove(self, flag: str) -> None:
        self._flags.pop(flag, None)

    def flags(self) -> list[str]:
        """Flags present, in tmux's order (by character code)."""
        return sorted(self._flags)

    # -- positional arguments ------------------------------------------------------------
    @property
    def argv(self) -> list[str]:
        """Positional arguments as strings (a command block prints as its commands)."""
        return [_value_string(v) for v in self._values]

    @property
    def arg_values(self) -> list[ArgValue]:
        """Positional arguments as stored: ``str`` or :class:`CommandList`."""
        return list(self._values)

    @property
    def nargs(self) -> int:
        return len(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def value(self, idx: int) -> ArgValue | None:
        return self._values[idx] if 0 <= idx < len(self._values) else None

    def string(self, idx: int) -> str | None:
        """Positional argument ``idx`` as a string, None if out of range (args_string)."""
        if 0 <= idx < len(self._values):
            return _value_string(self._values[idx])
        return None

    def is_commands(self, idx: int) -> bool:
        return 0 <= idx < len(self._values) and isinstance(self._values[idx], CommandList)

    def append(self, value: ArgValue) -> None:
        self._values.append(value)

    # -- numbers -------------------------------------------------------------------------
    def strtonum(self, flag: str, minval: int, maxval: int) -> int:
        """The flag's last value as an integer; raises CommandError with tmux's cause."""
        value = self.get(flag)
        if value is None:
            raise CommandError("missing")
        return strtonum(value, minval, maxval)

    def percentage(self, flag: str, minval: int, maxval: int, curval: int) -> int:
        """Like strtonum but ``N%`` means N percent of ``curval`` (args_percentage)."""
        if flag not in self._flags:
            raise CommandError("missing")
        value = self.get(flag)
        if value is None:
            raise CommandError("missing")
        return string_percentage(value, minval, maxval, curval)

    # -- copying and printing ------------------------------------------------------------
    def copy(self, argv: Sequence[str] = ()) -> Args:
        """Copy, replacing %1..%9 / %% with ``argv`` (tmux's args_copy)."""
        new = Args()
        for flag in sorted(self._flags):
            count, vals = self._flags[flag]
            if not vals:
                for _ in range(count):
                    new.set(flag)
                continue
            for v in vals:
                new.set(flag, _replace_all(v, argv))
        for v in self._values:
            if isinstance(v, str):
                new._values.append(_replace_all(v, argv))
            else:
                new._values.append(v.copy(argv))
        return new

    def print(self) -> str:
        """Flags and arguments as tmux prints them (args_print)."""
        out: list[str] = []
        order = sorted(self._flags)
        bare = "".join(f * self._flags[f][0] for f in order if not self._flags[f][1])
        if bare:
            out.append("-" + bare)
        for f in order:
            for v in self._flags[f][1]:
                out.append(f"-{f}")
                out.append(args_escape(v))
        for v in self._values:
            if isinstance(v, str):
                out.append(args_escape(v))
            else:
                out.append("{ " + v.print() + " }")
        return " ".join(out)

    def __repr__(self) -> str:
        return f"Args({self.print()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Args):
            return NotImplemented
        return self._flags == other._flags and self._values == other._values

    __hash__ = None  # type: ignore[assignment]


def _replace_all(s: str, argv: Sequence[str]) -> str:
    for i, a in enumerate(argv):
        s = template_replace(s, a, i + 1)
    return s


def parse_args(
    template: str,
    argv: Sequence[ArgValue],
    lower: int = 0,
    upper: int = -1,
    arg_type: ArgTypeFn | None = None,
) -> Args:
    """Parse ``argv`` (the arguments *after* the command name) against a getopt template.

    Follows tmux 3.7b's args_parse: clustered flags, attached values (``-t=x``, ``-F#{..}``),
    ``--`` ends flags, a lone ``-`` is positional, repeated flags accumulate. ``lower`` /
    ``upper`` bound the positional count (-1: unbounded). ``arg_type(args, idx)`` says
    whether positional ``idx`` may or must be a command block.

    A value-taking flag at the very end of argv is ``-t expects an argument``, unless its
    value is optional (``::`` in the template): then it is present without a value.
    """
    args = Args()
    n = len(argv)
    i = 0
    while i < n:
        word = argv[i]
        if not isinstance(word, str) or len(word) < 2 or word[0] != "-":
            break
        i += 1
        if word == "--":
            break
        j = 1
        wlen = len(word)
        while j < wlen:
            flag = word[j]
            j += 1
            if flag == "?":
                raise UsageError()
            if not (flag.isascii() and flag.isalnum()):
                raise CommandError(f"invalid flag -{flag}")
            pos = template.find(flag)
            if pos < 0:
                raise CommandError(f"unknown flag -{flag}")
            if pos + 1 >= len(template) or template[pos + 1] != ":":
                args.set(flag)
                continue
            optional = template.startswith("::", pos + 1)
            if j < wlen:
                args.set(flag, word[j:])
                break
            if i == n:
                if optional:
                    args.set(flag)
                    continue
                raise CommandError(f"-{flag} expects an argument")
            if not isinstance(argv[i], str):
                raise CommandError(f"-{flag} argument must be a string")
            nxt = argv[i]
            if optional and len(nxt) > 1 and nxt[0] == "-" and (
                    nxt[1] == "-" or (nxt[1].isascii() and nxt[1].isalpha())):
                args.set(flag)  # the next word is a flag (tmux's development tree)
                continue
            args.set(flag, argv[i])
            i += 1
            break
    values = args._values
    while i < n:
        value = argv[i]
        i += 1
        kind = arg_type(args, len(values)) if arg_type is not None else ARG_STRING
        values.append(value)
        if kind == ARG_STRING:
            if not isinstance(value, str):
                raise CommandError(f'argument {len(values)} must be "string"')
        elif kind == ARG_COMMANDS:
            if isinstance(value, str):
                raise CommandError(f"argument {len(values)} must be {{ commands }}")
    if lower != -1 and len(values) < lower:
        raise CommandError(f"too few arguments (need at least {lower})")
    if upper != -1 and len(values) > upper:
        raise CommandError(f"too many arguments (need at most {upper})")
    return args


# --------------------------------------------------------------------------------------------
# Numbers (OpenBSD strtonum as tmux uses it)

_STRTONUM_RE = re.compile(r"[ \t\n\v\f\r]*([+-]?)([0-9]+)\Z")
_LLONG_MAX = (1 << 63) - 1
_LLONG_MIN = -(1 << 63)


def strtonum(value: str, minval: int, maxval: int) -> int:
    """Parse a decimal integer in [minval, maxval]; CommandError("invalid"/"too small"/"too large")."""
    if minval > maxval:
        raise CommandError("invalid")
    m = _STRTONUM_RE.match(value)
    if m is None:
        raise CommandError("invalid")
    n = int(m.group(2))
    if m.group(1) == "-":
        n = -n
    if n < minval or n < _LLONG_MIN:
        raise CommandError("too small")
    if n > maxval or n > _LLONG_MAX:
        raise CommandError("too large")
    return n


def string_percentage(value: str, minval: int, maxval: int, curval: int) -> int:
    """A number or ``N%`` of ``curval`` (tmux's args_string_percentage)."""
    if value.endswith("%"):
        pct = strtonum(value[:-1], 0, 100)
        n = curval * pct
        n = n // 100 if n >= 0 else -(-n // 100)  # C division truncates toward zero
        if n < minval:
            raise CommandError("too small")
        if n > maxval:
            raise CommandError("too large")
        return n
    return strtonum(value, minval, maxval)


# --------------------------------------------------------------------------------------------
# Template replacement (%1 .. %9, %%) as cmd_template_replace

_TEMPLATE_QUOTE = frozenset('"\\$;~')


def template_replace(template: str, s: str, idx: int) -> str:
    """Replace ``%idx`` (all) or the first ``%%`` with ``s``; ``%%%``/``%1%`` also escapes."""
    if "%" not in template:
        return template
    out: list[str] = []
    replaced = False
    i = 0
    n = len(template)
    while i < n:
        ch = template[i]
        i += 1
        if ch == "%":
            nxt = template[i] if i < n else ""
            if not ("1" <= nxt <= "9" and len(nxt) == 1) or ord(nxt) - 48 != idx:
                if nxt != "%" or replaced:
                    out.append(ch)
                    continue
                replaced = True
            i += 1
            quoted = i < n and template[i] == "%"
            if quoted:
                i += 1
                out.extend("\\" + c if c in _TEMPLATE_QUOTE else c for c in s)
            else:
                out.append(s)
            continue
        out.append(ch)
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Escaping arguments for printing (args_escape + utf8_stravis + vis)

_DQUOTED = frozenset(" #';${}%")
_SQUOTED = frozenset(' "')
_PLAIN_RE = re.compile(r"[ !#%-\[\]-~]*\Z")  # printable ASCII without " $ \ (no escaping)
_CSTYLE = {
    "\n": "\\n",
    "\r": "\\r",
    "\b": "\\b",
    "\a": "\\a",
    "\v": "\\v",
    "\t": "\\t",
    "\f": "\\f",
}


def _octal(b: int) -> str:
    return f"\\{b:03o}"


def _strvis(s: str, dq: bool) -> str:
    if _PLAIN_RE.match(s):
        return s
    out: list[str] = []
    n = len(s)
    for i, ch in enumerate(s):
        o = ord(ch)
        if o < 0x80:
            if ch == "$" and i < n - 1:
                nxt = s[i + 1]
                if (nxt.isascii() and nxt.isalpha()) or nxt in "_{":
                    out.append("\\$")
                else:
                    out.append("$")
            elif 0x20 <= o < 0x7F:
                if (ch == '"' and dq) or ch == "\\":
                    out.append("\\" + ch)
                else:
                    out.append(ch)
            elif ch in _CSTYLE:
                out.append(_CSTYLE[ch])
            elif o == 0:
                out.append("\\000" if i < n - 1 and "0" <= s[i + 1] <= "7" else "\\0")
            else:
                out.append(_octal(o))
        elif 0xDC80 <= o <= 0xDCFF:
            out.append(_octal(o - 0xDC00))  # a raw byte kept by surrogateescape
        elif 0xD800 <= o <= 0xDFFF:
            out.extend(_octal(b) for b in ch.encode("utf-8", "surrogatepass"))
        else:
            out.append(ch)  # tmux 3.7b's utf8_width accepts every valid character
    return "".join(out)


def args_escape(s: str) -> str:
    """Quote one argument so that the command parser reads it back unchanged (args_escape)."""
    if s == "":
        return "''"
    quotes = ""
    if not _DQUOTED.isdisjoint(s):
        quotes = '"'
    elif not _SQUOTED.isdisjoint(s):
        quotes = "'"
    if len(s) == 1 and s != " " and (quotes or s == "~"):
        return "\\" + s
    escaped = _strvis(s, quotes == '"')
    if quotes == "'":
        return f"'{escaped}'"
    if quotes == '"':
        if escaped.startswith("~"):
            return f'"\\{escaped}"'
        return f'"{escaped}"'
    if escaped.startswith("~"):
        return "\\" + escaped
    return escaped


def stringify_argv(argv: Iterable[str]) -> str:
    """Join escaped arguments with spaces (cmd_stringify_argv)."""
    return " ".join(args_escape(a) for a in argv)


# --------------------------------------------------------------------------------------------
# Command table rows, parsed commands and command lists

FLAG_START_SERVER = "start-server"  # CMD_STARTSERVER
FLAG_READ_ONLY = "read-only-ok"  # CMD_READONLY: allowed for read-only clients
FLAG_AFTER_HOOK = "after-hook"  # CMD_AFTERHOOK
FLAG_CLIENT_CFLAG = "client-cflag"  # CMD_CLIENT_CFLAG
FLAG_CLIENT_TFLAG = "client-tflag"  # CMD_CLIENT_TFLAG
FLAG_CLIENT_CANFAIL = "client-canfail"  # CMD_CLIENT_CANFAIL


class TargetSpec(NamedTuple):
    """How a command resolves its -s/-t target (tmux's cmd_entry_flag)."""

    flag: str  # "s" or "t"
    type: str  # "pane" | "window" | "session"
    flags: frozenset[str] = frozenset()  # "canfail", "window-index", "default-marked", ...


@dataclass(eq=False)
class CommandEntry:
    """One command of the table: name, grammar, behaviour flags and the (opaque) exec."""

    name: str
    alias: str | None
    template: str
    lower: int
    upper: int
    usage: str
    flags: frozenset[str] = frozenset()
    source: TargetSpec | None = None
    target: TargetSpec | None = None
    arg_type: ArgTypeFn | None = None
    exec: Callable[..., Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def parse(self, argv: Sequence[ArgValue]) -> Args:
        """Parse the arguments after the name; errors get tmux's ``command NAME:`` prefix."""
        try:
            fewest = self.extra.get("extension_lower")
            if fewest is None:
                return parse_args(self.template, argv, self.lower, self.upper, self.arg_type)
            # A flag beyond 3.7b may need fewer arguments (set-hook -B); without one, 3.7b's
            # bound and its message hold.
            args = parse_args(self.template, argv, 0, self.upper, self.arg_type)
            lower = min([self.lower] + [n for f, n in fewest.items() if args.has(f)])
            if args.nargs < lower:
                raise CommandError(f"too few arguments (need at least {lower})")
            return args
        except UsageError:
            raise CommandError(f"usage: {self.name} {self.usage}") from None
        except CommandError as e:
            raise CommandError(format_command_error(self.name, e.message)) from None

    def has_flag(self, flag: str) -> bool:
        return flag in self.flags

    def list_line(self) -> str:
        """The line list-commands prints: ``name (alias) usage``."""
        if self.alias:
            return f"{self.name} ({self.alias}) {self.usage}"
        return f"{self.name} {self.usage}"


_next_group = itertools.count(1)


def new_group() -> int:
    """A fresh command group number (the queue skips the rest of a group on error)."""
    return next(_next_group)


class Command:
    """A command ready to run: its table entry, parsed Args, and where it came from."""

    __slots__ = ("entry", "args", "file", "line", "group")

    def __init__(
        self,
        entry: CommandEntry,
        args: Args,
        file: str | None = None,
        line: int = 0,
        group: int = 0,
    ) -> None:
        self.entry = entry
        self.args = args
        self.file = file
        self.line = line
        self.group = group

    @property
    def name(self) -> str:
        return self.entry.name

    def print(self) -> str:
        """``name flags args`` as tmux prints a command (cmd_print)."""
        s = self.args.print()
        return f"{self.entry.name} {s}" if s else self.entry.name

    def copy(self, argv: Sequence[str] = ()) -> Command:
        return Command(self.entry, self.args.copy(argv), self.file, self.line, self.group)

    def __repr__(self) -> str:
        return f"Command({self.print()!r}, line={self.line})"


class CommandList:
    """An ordered list of commands, split into groups (tmux's struct cmd_list)."""

    __slots__ = ("commands", "group", "_printed")

    def __init__(self, commands: Iterable[Command] = ()) -> None:
        self.group = new_group()
        self.commands: list[Command] = []
        self._printed: str | None = None
        for c in commands:
            self.append(c)

    def append(self, cmd: Command) -> None:
        cmd.group = self.group
        self.commands.append(cmd)
        self._printed = None

    def append_all(self, other: CommandList) -> None:
        """Append another list's commands into this list's group."""
        for c in other.commands:
            c.group = self.group
        self.commands.extend(other.commands)
        self._printed = None

    def move(self, other: CommandList) -> None:
        """Append another list's commands keeping their groups (cmd_list_move)."""
        self.commands.extend(other.commands)
        self.group = new_group()
        self._printed = None

    def __iter__(self) -> Iterator[Command]:
        return iter(self.commands)

    def __len__(self) -> int:
        return len(self.commands)

    def first(self) -> Command | None:
        return self.commands[0] if self.commands else None

    def all_have(self, flag: str) -> bool:
        return all(flag in c.entry.flags for c in self.commands)

    def any_have(self, flag: str) -> bool:
        return any(flag in c.entry.flags for c in self.commands)

    def copy(self, argv: Sequence[str] = ()) -> CommandList:
        """Copy with %1.. replaced, keeping group boundaries (cmd_list_copy)."""
        new = CommandList()
        group = self.group
        for c in self.commands:
            if c.group != group:
                new.group = new_group()
                group = c.group
            new.append(c.copy(argv))
        return new

    def print(self, escaped: bool = False, no_groups: bool = False) -> str:
        """Commands joined by `` ; `` (`` ;; `` between groups), as cmd_list_print.

        ``escaped=True`` gives the `` \\; `` form; ``no_groups=True`` never uses the group
        separator (list-keys in tmux 3.7b, whose output must parse back).
        """
        cache = not escaped and not no_groups
        if cache and self._printed is not None:
            return self._printed
        parts: list[str] = []
        cmds = self.commands
        for i, c in enumerate(cmds):
            parts.append(c.print())
            if i + 1 < len(cmds):
                if not no_groups and c.group != cmds[i + 1].group:
                    parts.append(" \\;\\; " if escaped else " ;; ")
                else:
                    parts.append(" \\; " if escaped else " ; ")
        s = "".join(parts)
        if cache:
            self._printed = s
        return s

    def __repr__(self) -> str:
        return f"CommandList({self.print()!r})"


def lookup_command(name: str, table: Sequence[CommandEntry]) -> CommandEntry:
    """Find a command by exact name, alias or unique prefix, with tmux's errors (cmd_find)."""
    found: CommandEntry | None = None
    ambiguous = False
    for entry in table:
        if entry.alias is not None and entry.alias == name:
            ambiguous = False
            found = entry
            break
        if not entry.name.startswith(name):
            continue
        if found is not None:
            ambiguous = True
        found = entry
        if entry.name == name:
            break
    if ambiguous:
        names = ", ".join(e.name for e in table if e.name.startswith(name))
        raise CommandError(f"ambiguous command: {name}, could be: {names}")
    if found is None:
        raise CommandError(f"unknown command: {name}")
    return found


def parse_command(
    values: Sequence[ArgValue],
    table: Sequence[CommandEntry],
    file: str | None = None,
    line: int = 0,
) -> Command:
    """Look up ``values[0]`` and parse the rest (tmux's cmd_parse); errors are prefixed."""
    if not values or not isinstance(values[0], str):
        raise CommandError("no command")
    entry = lookup_command(values[0], table)
    return Command(entry, entry.parse(values[1:]), file, line)


# --------------------------------------------------------------------------------------------
# tmux 3.7b's commands as data


class CommandTemplate(NamedTuple):
    """One tmux 3.7b command's grammar: (name, alias, template, lower, upper, usage)."""

    name: str
    alias: str | None
    template: str
    lower: int
    upper: int
    usage: str


def _all_commands_or_string(args: Args, idx: int) -> str:
    return ARG_COMMANDS_OR_STRING


def _if_shell_arg_type(args: Args, idx: int) -> str:
    return ARG_COMMANDS_OR_STRING if idx in (1, 2) else ARG_STRING


def _run_shell_arg_type(args: Args, idx: int) -> str:
    return ARG_COMMANDS_OR_STRING if args.has("C") else ARG_STRING


def _set_option_arg_type(args: Args, idx: int) -> str:
    if args.has("B"):  # set-hook -B name:what:format command (an extension)
        return ARG_COMMANDS_OR_STRING
    return ARG_COMMANDS_OR_STRING if idx == 1 else ARG_STRING


def _display_menu_arg_type(args: Args, idx: int) -> str:
    """Menu items are name, key, command; an empty name is a one-argument separator."""
    i = 0
    while True:
        if i == idx:
            return ARG_STRING
        name = args.string(i)
        i += 1
        if not name:
            continue
        if i == idx:
            return ARG_STRING
        i += 1
        if i == idx:
            return ARG_COMMANDS_OR_STRING
        i += 1


# fmt: off
#: Every tmux 3.7b command in tmux's table order (the order list-commands shows and
#: unique-prefix lookup walks): name, alias, flag template, positional bounds, usage.
TMUX_COMMAND_TEMPLATES: tuple[CommandTemplate, ...] = (
    CommandTemplate('attach-session', 'attach', 'c:dEf:rt:x', 0, 0, '[-dErx] [-c working-directory] [-f flags] [-t target-session]'),
    CommandTemplate('bind-key', 'bind', 'nrN:T:', 1, -1, '[-nr] [-T key-table] [-N note] key [command [argument ...]]'),
    CommandTemplate('break-pane', 'breakp', 'abdPF:n:s:t:', 0, 0, '[-abdP] [-F format] [-n window-name] [-s src-pane] [-t dst-window]'),
    CommandTemplate('capture-pane', 'capturep', 'ab:CeE:FHJLMNpPqS:Tt:', 0, 0, '[-aCeFHJLMNpPqT] [-b buffer-name] [-E end-line] [-S start-line] [-t target-pane]'),
    CommandTemplate('choose-buffer', None, 'F:f:K:NO:rt:yZ', 0, 1, '[-NrZ] [-F format] [-f filter] [-K key-format] [-O sort-order] [-t target-pane] [template]'),
    CommandTemplate('choose-client', None, 'F:f:K:NO:rt:yZ', 0, 1, '[-NrZ] [-F format] [-f filter] [-K key-format] [-O sort-order] [-t target-pane] [template]'),
    CommandTemplate('choose-tree', None, 'F:f:GK:NO:rst:wyZ', 0, 1, '[-GNrswZ] [-F format] [-f filter] [-K key-format] [-O sort-order] [-t target-pane] [template]'),
    CommandTemplate('clear-history', 'clearhist', 'Ht:', 0, 0, '[-H] [-t target-pane]'),
    CommandTemplate('clear-prompt-history', 'clearphist', 'T:', 0, 0, '[-T prompt-type]'),
    CommandTemplate('clock-mode', None, 't:', 0, 0, '[-t target-pane]'),
    CommandTemplate('command-prompt', None, '1CbeFiklI:Np:t:T:', 0, 1, '[-1CbeFiklN] [-I inputs] [-p prompts] [-t target-client] [-T prompt-type] [template]'),
    CommandTemplate('confirm-before', 'confirm', 'bc:p:t:y', 1, 1, '[-by] [-c confirm-key] [-p prompt] [-t target-client] command'),
    CommandTemplate('copy-mode', None, 'deHMqSs:t:u', 0, 0, '[-deHMqSu] [-s src-pane] [-t target-pane]'),
    CommandTemplate('customize-mode', None, 'F:f:Nt:yZ', 0, 0, '[-NZ] [-F format] [-f filter] [-t target-pane]'),
    CommandTemplate('delete-buffer', 'deleteb', 'b:', 0, 0, '[-b buffer-name]'),
    CommandTemplate('detach-client', 'detach', 'aE:s:t:P', 0, 0, '[-aP] [-E shell-command] [-s target-session] [-t target-client]'),
    CommandTemplate('display-menu', 'menu', 'b:c:C:H:s:S:MOt:T:x:y:', 1, -1, '[-MO] [-b border-lines] [-c target-client] [-C starting-choice] [-H selected-style] [-s style] [-S border-style] [-t target-pane] [-T title] [-x position] [-y position] name [key] [command] ...'),
    CommandTemplate('display-message', 'display', 'aCc:d:lINpt:F:v', 0, 1, '[-aCIlNpv] [-c target-client] [-d delay] [-F format] [-t target-pane] [message]'),
    CommandTemplate('display-popup', 'popup', 'Bb:Cc:d:e:Eh:kNs:S:t:T:w:x:y:', 0, -1, '[-BCEkN] [-b border-lines] [-c target-client] [-d start-directory] [-e environment] [-h height] [-s style] [-S border-style] [-t target-pane] [-T title] [-w width] [-x position] [-y position] [shell-command [argument ...]]'),
    CommandTemplate('display-panes', 'displayp', 'bd:Nt:', 0, 1, '[-bN] [-d duration] [-t target-client] [template]'),
    CommandTemplate('find-window', 'findw', 'CiNrt:TZ', 1, 1, '[-CiNrTZ] [-t target-pane] match-string'),
    CommandTemplate('has-session', 'has', 't:', 0, 0, '[-t target-session]'),
    CommandTemplate('if-shell', 'if', 'bFt:', 2, 3, '[-bF] [-t target-pane] shell-command command [command]'),
    CommandTemplate('join-pane', 'joinp', 'bdfhvp:l:s:t:', 0, 0, '[-bdfhv] [-l size] [-s src-pane] [-t dst-pane]'),
    CommandTemplate('kill-pane', 'killp', 'at:', 0, 0, '[-a] [-t target-pane]'),
    CommandTemplate('kill-server', None, '', 0, 0, ''),
    CommandTemplate('kill-session', None, 'aCgt:', 0, 0, '[-aCg] [-t target-session]'),
    CommandTemplate('kill-window', 'killw', 'at:', 0, 0, '[-a] [-t target-window]'),
    CommandTemplate('last-pane', 'lastp', 'det:Z', 0, 0, '[-deZ] [-t target-window]'),
    CommandTemplate('last-window', 'last', 't:', 0, 0, '[-t target-session]'),
    CommandTemplate('link-window', 'linkw', 'abdks:t:', 0, 0, '[-abdk] [-s src-window] [-t dst-window]'),
    CommandTemplate('list-buffers', 'lsb', 'F:f:O:r', 0, 0, '[-F format] [-f filter] [-O order]'),
    CommandTemplate('list-clients', 'lsc', 'F:f:O:rt:', 0, 0, '[-F format] [-f filter] [-O order][-t target-session]'),
    CommandTemplate('list-commands', 'lscm', 'F:', 0, 1, '[-F format] [command]'),
    CommandTemplate('list-keys', 'lsk', '1aF:NO:P:rT:', 0, 1, '[-1aNr] [-F format] [-O order] [-P prefix-string][-T key-table] [key]'),
    CommandTemplate('list-panes', 'lsp', 'aF:f:O:rst:', 0, 0, '[-asr] [-F format] [-f filter] [-O order][-t target-window]'),
    CommandTemplate('list-sessions', 'ls', 'F:f:O:r', 0, 0, '[-r] [-F format] [-f filter] [-O order]'),
    CommandTemplate('list-windows', 'lsw', 'aF:f:O:rt:', 0, 0, '[-ar] [-F format] [-f filter] [-O order][-t target-session]'),
    CommandTemplate('load-buffer', 'loadb', 'b:t:w', 1, 1, '[-b buffer-name] [-t target-client] path'),
    CommandTemplate('lock-client', 'lockc', 't:', 0, 0, '[-t target-client]'),
    CommandTemplate('lock-server', 'lock', '', 0, 0, ''),
    CommandTemplate('lock-session', 'locks', 't:', 0, 0, '[-t target-session]'),
    CommandTemplate('move-pane', 'movep', 'bdfhvp:l:s:t:', 0, 0, '[-bdfhv] [-l size] [-s src-pane] [-t dst-pane]'),
    CommandTemplate('move-window', 'movew', 'abdkrs:t:', 0, 0, '[-abdkr] [-s src-window] [-t dst-window]'),
    CommandTemplate('new-pane', 'newp', 'bc:de:EfF:hIkl:Lm:p:PR:s:S:t:vx:X:y:Y:Z', 0, -1, '[-bdefhIklPvZ] [-c start-directory] [-e environment] [-F format] [-l size] [-m message] [-p percentage] [-s style] [-S active-border-style] [-R inactive-border-style] [-x width] [-y height] [-X x-position] [-Y y-position] [-t target-pane] [shell-command [argument ...]]'),
    CommandTemplate('new-session', 'new', 'Ac:dDe:EF:f:n:Ps:t:x:Xy:', 0, -1, '[-AdDEPX] [-c start-directory] [-e environment] [-F format] [-f flags] [-n window-name] [-s session-name] [-t target-session] [-x width] [-y height] [shell-command [argument ...]]'),
    CommandTemplate('new-window', 'neww', 'abc:de:F:kn:PSt:', 0, -1, '[-abdkPS] [-c start-directory] [-e environment] [-F format] [-n window-name] [-t target-window] [shell-command [argument ...]]'),
    CommandTemplate('next-layout', 'nextl', 't:', 0, 0, '[-t target-window]'),
    CommandTemplate('next-window', 'next', 'at:', 0, 0, '[-a] [-t target-session]'),
    CommandTemplate('paste-buffer', 'pasteb', 'db:prSs:t:', 0, 0, '[-dprS] [-s separator] [-b buffer-name] [-t target-pane]'),
    CommandTemplate('pipe-pane', 'pipep', 'IOot:', 0, 1, '[-IOo] [-t target-pane] [shell-command]'),
    CommandTemplate('previous-layout', 'prevl', 't:', 0, 0, '[-t target-window]'),
    CommandTemplate('previous-window', 'prev', 'at:', 0, 0, '[-a] [-t target-session]'),
    CommandTemplate('refresh-client', 'refresh', 'A:B:cC:Df:r:F:lLRSt:U', 0, 1, '[-cDlLRSU] [-A pane:state] [-B name:what:format] [-C XxY] [-f flags] [-r pane:report] [-t target-client] [adjustment]'),
    CommandTemplate('rename-session', 'rename', 't:', 1, 1, '[-t target-session] new-name'),
    CommandTemplate('rename-window', 'renamew', 't:', 1, 1, '[-t target-window] new-name'),
    CommandTemplate('resize-pane', 'resizep', 'DLMRTt:Ux:y:Z', 0, 1, '[-DLMRTUZ] [-x width] [-y height] [-t target-pane] [adjustment]'),
    CommandTemplate('resize-window', 'resizew', 'aADLRt:Ux:y:', 0, 1, '[-aADLRU] [-x width] [-y height] [-t target-window] [adjustment]'),
    CommandTemplate('respawn-pane', 'respawnp', 'c:e:kt:', 0, -1, '[-k] [-c start-directory] [-e environment] [-t target-pane] [shell-command [argument ...]]'),
    CommandTemplate('respawn-window', 'respawnw', 'c:e:kt:', 0, -1, '[-k] [-c start-directory] [-e environment] [-t target-window] [shell-command [argument ...]]'),
    CommandTemplate('rotate-window', 'rotatew', 'Dt:UZ', 0, 0, '[-DUZ] [-t target-window]'),
    CommandTemplate('run-shell', 'run', 'bd:Ct:Es:c:', 0, -1, '[-bCE] [-c start-directory] [-d delay] [-t target-pane] [shell-command [argument ...]]'),
    CommandTemplate('save-buffer', 'saveb', 'ab:', 1, 1, '[-a] [-b buffer-name] path'),
    CommandTemplate('select-layout', 'selectl', 'Enopt:', 0, 1, '[-Enop] [-t target-pane] [layout-name]'),
    CommandTemplate('select-pane', 'selectp', 'DdegLlMmP:RT:t:UZ', 0, 0, '[-DdeLlMmRUZ] [-T title] [-t target-pane]'),
    CommandTemplate('select-window', 'selectw', 'lnpTt:', 0, 0, '[-lnpT] [-t target-window]'),
    CommandTemplate('send-keys', 'send', 'c:FHKlMN:Rt:X', 0, -1, '[-FHKlMRX] [-c target-client] [-N repeat-count] [-t target-pane] [key ...]'),
    CommandTemplate('send-prefix', None, '2t:', 0, 0, '[-2] [-t target-pane]'),
    CommandTemplate('server-access', None, 'adlrw', 0, 1, '[-adlrw] [-t target-pane] [user]'),
    CommandTemplate('set-buffer', 'setb', 'ab:t:n:w', 0, 1, '[-aw] [-b buffer-name] [-n new-buffer-name] [-t target-client] [data]'),
    CommandTemplate('set-environment', 'setenv', 'Fhgrt:u', 1, 2, '[-Fhgru] [-t target-session] variable [value]'),
    CommandTemplate('set-hook', None, 'agpRt:uw', 1, 2, '[-agpRuw] [-t target-pane] hook [command]'),
    CommandTemplate('set-option', 'set', 'aFgopqst:uUw', 1, 2, '[-aFgopqsuUw] [-t target-pane] option [value]'),
    CommandTemplate('set-window-option', 'setw', 'aFgoqt:u', 1, 2, '[-aFgoqu] [-t target-window] option [value]'),
    CommandTemplate('show-buffer', 'showb', 'b:', 0, 0, '[-b buffer-name]'),
    CommandTemplate('show-environment', 'showenv', 'hgst:', 0, 1, '[-hgs] [-t target-session] [variable]'),
    CommandTemplate('show-hooks', None, 'gpt:w', 0, 1, '[-gpw] [-t target-pane] [hook]'),
    CommandTemplate('show-messages', 'showmsgs', 'JTt:', 0, 0, '[-JT] [-t target-client]'),
    CommandTemplate('show-options', 'show', 'AgHpqst:vw', 0, 1, '[-AgHpqsvw] [-t target-pane] [option]'),
    CommandTemplate('show-prompt-history', 'showphist', 'T:', 0, 0, '[-T prompt-type]'),
    CommandTemplate('show-window-options', 'showw', 'gvt:', 0, 1, '[-gv] [-t target-window] [option]'),
    CommandTemplate('source-file', 'source', 't:Fnqv', 1, -1, '[-Fnqv] [-t target-pane] path ...'),
    CommandTemplate('split-window', 'splitw', 'bc:de:EfF:hIkl:m:p:PR:s:S:t:vZ', 0, -1, '[-bdefhIklPvZ] [-c start-directory] [-e environment] [-F format] [-l size] [-m message] [-p percentage] [-s style] [-S active-border-style] [-R inactive-border-style] [-t target-pane] [shell-command [argument ...]]'),
    CommandTemplate('start-server', 'start', '', 0, 0, ''),
    CommandTemplate('suspend-client', 'suspendc', 't:', 0, 0, '[-t target-client]'),
    CommandTemplate('swap-pane', 'swapp', 'dDs:t:UZ', 0, 0, '[-dDUZ] [-s src-pane] [-t dst-pane]'),
    CommandTemplate('swap-window', 'swapw', 'ds:t:', 0, 0, '[-d] [-s src-window] [-t dst-window]'),
    CommandTemplate('switch-client', 'switchc', 'c:EFlnO:pt:rT:Z', 0, 0, '[-ElnprZ] [-c target-client] [-t target-session] [-T key-table] [-O order]'),
    CommandTemplate('unbind-key', 'unbind', 'anqT:', 0, 1, '[-anq] [-T key-table] key'),
    CommandTemplate('unlink-window', 'unlinkw', 'kt:', 0, 0, '[-k] [-t target-window]'),
    CommandTemplate('wait-for', 'wait', 'LSU', 1, 1, '[-L|-S|-U] channel'),
)

#: Behaviour flags of each command (CMD_STARTSERVER, CMD_READONLY, ...).
TMUX_COMMAND_FLAGS: dict[str, frozenset[str]] = {
    'attach-session': frozenset((FLAG_START_SERVER, FLAG_READ_ONLY,)),
    'bind-key': frozenset((FLAG_AFTER_HOOK,)),
    'capture-pane': frozenset((FLAG_AFTER_HOOK,)),
    'clear-history': frozenset((FLAG_AFTER_HOOK,)),
    'clear-prompt-history': frozenset((FLAG_AFTER_HOOK,)),
    'clock-mode': frozenset((FLAG_AFTER_HOOK,)),
    'command-prompt': frozenset((FLAG_CLIENT_TFLAG,)),
    'confirm-before': frozenset((FLAG_CLIENT_TFLAG,)),
    'copy-mode': frozenset((FLAG_AFTER_HOOK, FLAG_READ_ONLY,)),
    'delete-buffer': frozenset((FLAG_AFTER_HOOK,)),
    'detach-client': frozenset((FLAG_READ_ONLY, FLAG_CLIENT_TFLAG,)),
    'display-menu': frozenset((FLAG_AFTER_HOOK, FLAG_CLIENT_CFLAG,)),
    'display-message': frozenset((FLAG_AFTER_HOOK, FLAG_CLIENT_CFLAG, FLAG_CLIENT_CANFAIL,)),
    'display-popup': frozenset((FLAG_AFTER_HOOK, FLAG_CLIENT_CFLAG,)),
    'display-panes': frozenset((FLAG_AFTER_HOOK, FLAG_CLIENT_TFLAG,)),
    'kill-pane': frozenset((FLAG_AFTER_HOOK,)),
    'list-buffers': frozenset((FLAG_AFTER_HOOK,)),
    'list-clients': frozenset((FLAG_READ_ONLY, FLAG_AFTER_HOOK,)),
    'list-commands': frozenset((FLAG_START_SERVER, FLAG_AFTER_HOOK,)),
    'list-keys': frozenset((FLAG_START_SERVER, FLAG_AFTER_HOOK,)),
    'list-panes': frozenset((FLAG_AFTER_HOOK,)),
    'list-sessions': frozenset((FLAG_AFTER_HOOK,)),
    'list-windows': frozenset((FLAG_AFTER_HOOK,)),
    'load-buffer': frozenset((FLAG_AFTER_HOOK, FLAG_CLIENT_TFLAG, FLAG_CLIENT_CANFAIL,)),
    'lock-client': frozenset((FLAG_AFTER_HOOK, FLAG_CLIENT_TFLAG,)),
    'lock-server': frozenset((FLAG_AFTER_HOOK,)),
    'lock-session': frozenset((FLAG_AFTER_HOOK,)),
    'new-session': frozenset((FLAG_START_SERVER,)),
    'next-layout': frozenset((FLAG_AFTER_HOOK,)),
    'paste-buffer': frozenset((FLAG_AFTER_HOOK,)),
    'pipe-pane': frozenset((FLAG_AFTER_HOOK,)),
    'previous-layout': frozenset((FLAG_AFTER_HOOK,)),
    'refresh-client': frozenset((FLAG_AFTER_HOOK, FLAG_CLIENT_TFLAG,)),
    'rename-session': frozenset((FLAG_AFTER_HOOK,)),
    'rename-window': frozenset((FLAG_AFTER_HOOK,)),
    'resize-pane': frozenset((FLAG_AFTER_HOOK,)),
    'resize-window': frozenset((FLAG_AFTER_HOOK,)),
    'save-buffer': frozenset((FLAG_AFTER_HOOK,)),
    'select-layout': frozenset((FLAG_AFTER_HOOK,)),
    'send-keys': frozenset((FLAG_AFTER_HOOK, FLAG_CLIENT_CFLAG, FLAG_CLIENT_CANFAIL, FLAG_READ_ONLY,)),
    'send-prefix': frozenset((FLAG_AFTER_HOOK,)),
    'server-access': frozenset((FLAG_CLIENT_CANFAIL,)),
    'set-buffer': frozenset((FLAG_AFTER_HOOK, FLAG_CLIENT_TFLAG, FLAG_CLIENT_CANFAIL,)),
    'set-environment': frozenset((FLAG_AFTER_HOOK,)),
    'set-hook': frozenset((FLAG_AFTER_HOOK,)),
    'set-option': frozenset((FLAG_AFTER_HOOK,)),
    'set-window-option': frozenset((FLAG_AFTER_HOOK,)),
    'show-buffer': frozenset((FLAG_AFTER_HOOK,)),
    'show-environment': frozenset((FLAG_AFTER_HOOK,)),
    'show-hooks': frozenset((FLAG_AFTER_HOOK,)),
    'show-messages': frozenset((FLAG_AFTER_HOOK, FLAG_CLIENT_TFLAG, FLAG_CLIENT_CANFAIL,)),
    'show-options': frozenset((FLAG_AFTER_HOOK,)),
    'show-prompt-history': frozenset((FLAG_AFTER_HOOK,)),
    'show-window-options': frozenset((FLAG_AFTER_HOOK,)),
    'start-server': frozenset((FLAG_START_SERVER,)),
    'suspend-client': frozenset((FLAG_CLIENT_TFLAG,)),
    'switch-client': frozenset((FLAG_READ_ONLY, FLAG_CLIENT_CFLAG,)),
    'unbind-key': frozenset((FLAG_AFTER_HOOK,)),
}

#: (source, target) resolution specs for commands that have them.
TMUX_COMMAND_TARGETS: dict[str, tuple[TargetSpec | None, TargetSpec | None]] = {
    'break-pane': (TargetSpec('s', 'pane'), TargetSpec('t', 'window', frozenset(('window-index',)))),
    'capture-pane': (None, TargetSpec('t', 'pane')),
    'choose-buffer': (None, TargetSpec('t', 'pane')),
    'choose-client': (None, TargetSpec('t', 'pane')),
    'choose-tree': (None, TargetSpec('t', 'pane')),
    'clear-history': (None, TargetSpec('t', 'pane')),
    'clock-mode': (None, TargetSpec('t', 'pane')),
    'copy-mode': (None, TargetSpec('t', 'pane')),
    'customize-mode': (None, TargetSpec('t', 'pane')),
    'detach-client': (TargetSpec('s', 'session', frozenset(('canfail',))), None),
    'display-menu': (None, TargetSpec('t', 'pane')),
    'display-message': (None, TargetSpec('t', 'pane', frozenset(('canfail',)))),
    'display-popup': (None, TargetSpec('t', 'pane')),
    'find-window': (None, TargetSpec('t', 'pane')),
    'has-session': (None, TargetSpec('t', 'session')),
    'if-shell': (None, TargetSpec('t', 'pane', frozenset(('canfail',)))),
    'join-pane': (TargetSpec('s', 'pane', frozenset(('default-marked',))), TargetSpec('t', 'pane')),
    'kill-pane': (None, TargetSpec('t', 'pane')),
    'kill-session': (None, TargetSpec('t', 'session')),
    'kill-window': (None, TargetSpec('t', 'window')),
    'last-pane': (None, TargetSpec('t', 'window')),
    'last-window': (None, TargetSpec('t', 'session')),
    'link-window': (TargetSpec('s', 'window'), None),
    'list-clients': (None, TargetSpec('t', 'session')),
    'list-panes': (None, TargetSpec('t', 'window')),
    'list-windows': (None, TargetSpec('t', 'session')),
    'lock-session': (None, TargetSpec('t', 'session')),
    'move-pane': (TargetSpec('s', 'pane', frozenset(('default-marked',))), TargetSpec('t', 'pane')),
    'move-window': (TargetSpec('s', 'window'), None),
    'new-pane': (None, TargetSpec('t', 'pane')),
    'new-session': (None, TargetSpec('t', 'session', frozenset(('canfail',)))),
    'new-window': (None, TargetSpec('t', 'window', frozenset(('window-index',)))),
    'next-layout': (None, TargetSpec('t', 'window')),
    'next-window': (None, TargetSpec('t', 'session')),
    'paste-buffer': (None, TargetSpec('t', 'pane')),
    'pipe-pane': (None, TargetSpec('t', 'pane')),
    'previous-layout': (None, TargetSpec('t', 'window')),
    'previous-window': (None, TargetSpec('t', 'session')),
    'rename-session': (None, TargetSpec('t', 'session')),
    'rename-window': (None, TargetSpec('t', 'window')),
    'resize-pane': (None, TargetSpec('t', 'pane')),
    'resize-window': (None, TargetSpec('t', 'window')),
    'respawn-pane': (None, TargetSpec('t', 'pane')),
    'respawn-window': (None, TargetSpec('t', 'window')),
    'rotate-window': (None, TargetSpec('t', 'window')),
    'run-shell': (None, TargetSpec('t', 'pane', frozenset(('canfail',)))),
    'select-layout': (None, TargetSpec('t', 'pane')),
    'select-pane': (None, TargetSpec('t', 'pane')),
    'select-window': (None, TargetSpec('t', 'window')),
    'send-keys': (None, TargetSpec('t', 'pane')),
    'send-prefix': (None, TargetSpec('t', 'pane')),
    'set-environment': (None, TargetSpec('t', 'session', frozenset(('canfail',)))),
    'set-hook': (None, TargetSpec('t', 'pane', frozenset(('canfail',)))),
    'set-option': (None, TargetSpec('t', 'pane', frozenset(('canfail',)))),
    'set-window-option': (None, TargetSpec('t', 'window', frozenset(('canfail',)))),
    'show-environment': (None, TargetSpec('t', 'session', frozenset(('canfail',)))),
    'show-hooks': (None, TargetSpec('t', 'pane', frozenset(('canfail',)))),
    'show-options': (None, TargetSpec('t', 'pane', frozenset(('canfail',)))),
    'show-window-options': (None, TargetSpec('t', 'window', frozenset(('canfail',)))),
    'source-file': (None, TargetSpec('t', 'pane', frozenset(('canfail',)))),
    'split-window': (None, TargetSpec('t', 'pane')),
    'swap-pane': (TargetSpec('s', 'pane', frozenset(('default-marked',))), TargetSpec('t', 'pane')),
    'swap-window': (TargetSpec('s', 'window', frozenset(('default-marked',))), TargetSpec('t', 'window')),
    'unlink-window': (None, TargetSpec('t', 'window')),
}

#: Commands whose positional arguments may be { command blocks }.
TMUX_COMMAND_ARG_TYPES: dict[str, ArgTypeFn] = {
    'bind-key': _all_commands_or_string,
    'choose-buffer': _all_commands_or_string,
    'choose-client': _all_commands_or_string,
    'choose-tree': _all_commands_or_string,
    'command-prompt': _all_commands_or_string,
    'confirm-before': _all_commands_or_string,
    'display-menu': _display_menu_arg_type,
    'display-panes': _all_commands_or_string,
    'if-shell': _if_shell_arg_type,
    'run-shell': _run_shell_arg_type,
    'set-hook': _set_option_arg_type,
    'set-option': _set_option_arg_type,
    'set-window-option': _set_option_arg_type,
}
# fmt: on


#: Flags beyond tmux 3.7b (tmux's development tree; docs/extensions.md): the letters a command
#: also takes (getopt style, added to its template) and, per letter, the fewest positional
#: arguments the command needs when it is given. Usage strings (list-commands, usage errors)
#: stay 3.7b's, and each letter is one 3.7b refuses ("unknown flag"), so only additions.
EXTENSION_FLAGS: dict[str, tuple[str, dict[str, int]]] = {
    "break-pane": ("Wx:X:y:Y:", {}),
    "capture-pane": ("IR", {}),
    "choose-buffer": ("k", {}),
    "choose-client": ("k", {}),
    "choose-tree": ("k", {}),
    "copy-mode": ("k", {}),
    "display-message": ("j", {}),
    "move-pane": ("D::L::P:R::U::X:Y:z:", {}),
    "new-pane": ("T:", {}),
    "split-window": ("T:", {}),
    "set-hook": ("B:ET", {"B": 0, "E": 0}),
    "show-hooks": ("BF:", {}),
    "wait-for": ("EF:lvw:", {}),
}


def tmux_command_table(
    execs: dict[str, Callable[..., Any]] | None = None,
) -> list[CommandEntry]:
    """All tmux 3.7b commands as CommandEntry rows, in tmux's table order (with the flags of
    :data:`EXTENSION_FLAGS` accepted too)."""
    execs = execs or {}
    table = []
    for t in TMUX_COMMAND_TEMPLATES:
        source, target = TMUX_COMMAND_TARGETS.get(t.name, (None, None))
        letters, fewest = EXTENSION_FLAGS.get(t.name, ("", {}))
        table.append(
            CommandEntry(
                name=t.name,
                alias=t.alias,
                template=t.template + letters,
                lower=t.lower,
                upper=t.upper,
                usage=t.usage,
                flags=TMUX_COMMAND_FLAGS.get(t.name, frozenset()),
                source=source,
                target=target,
                arg_type=TMUX_COMMAND_ARG_TYPES.get(t.name),
                exec=execs.get(t.name),
                extra={"extension_lower": fewest} if fewest else {},
            )
        )
    return table
