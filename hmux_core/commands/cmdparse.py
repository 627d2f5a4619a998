"""tmux 3.3a command-string syntax (cmd-parse.y) as a hand-written lexer and parser.

Two stages, as in tmux:

1. :func:`parse_string` reads text (a config file, a key binding, a prompt line) into
   :class:`ParsedCommand` objects: argument words after quoting, escapes, ``~`` and ``$VAR``
   expansion, with ``{ ... }`` blocks kept as :class:`CommandBlock` arguments. ``%if`` is
   decided and ``NAME=value`` assignments are applied while parsing, exactly when tmux does
   (they reach the environment even if a later line has a syntax error).
2. :func:`build_commands` looks each command up in the command table, expands
   ``command-alias`` entries and parses flags (``grammar``), giving a
   :class:`~hmux_core.commands.grammar.CommandList`.

:func:`commands_from_string`, :func:`commands_from_buffer` and :func:`commands_from_argv`
do both, like tmux's cmd_parse_from_string / _from_buffer / _from_arguments. Error texts
and line numbers follow tmux (``/path/file:3: unknown command: foo``), quirks included.
"""

from __future__ import annotations

import os
import pwd
import re
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..format import format_true
from .grammar import (
    CommandEntry,
    CommandError,
    CommandList,
    args_escape,
    parse_command,
)

__all__ = [
    "Assignment",
    "CmdParseError",
    "CommandBlock",
    "DEFAULT_COMMAND_ALIASES",
    "ParseInput",
    "ParsedCommand",
    "ParsedCommands",
    "alias_lookup",
    "build_commands",
    "commands_from_argv",
    "commands_from_buffer",
    "commands_from_string",
    "format_true",
    "parse_argv",
    "parse_string",
    "print_commands",
    "print_parsed",
]

FormatExpand = Callable[[str], str]
AliasLookup = Callable[[str], "str | None"]

#: tmux 3.7b's CMD_PARSE_MAX_ENVIRON_LEN: the longest NAME=value a config may assign.
_MAX_ENVIRON_LEN = 16384


class CmdParseError(CommandError):
    """A parse or build error; ``message`` already has tmux's ``file:line:`` prefix."""

    def __init__(self, message: str, bare: str, file: str | None, line: int) -> None:
        super().__init__(message)
        self.bare = bare
        self.file = file
        self.line = line


def _error(file: str | None, line: int, bare: str) -> CmdParseError:
    msg = bare if file is None else f"{file}:{line}: {bare}"
    return CmdParseError(msg, bare, file, line)


@dataclass
class CommandBlock:
    """A ``{ ... }`` argument before it is built: its own parsed commands."""

    commands: list[ParsedCommand]

    def print(self) -> str:
        return "{ " + print_parsed(self.commands) + " }"


@dataclass
class ParsedCommand:
    """One command as words: ``str``, :class:`CommandBlock` or a built ``CommandList``."""

    argv: list[Any]
    line: int

    @property
    def name(self) -> str | None:
        return self.argv[0] if self.argv and isinstance(self.argv[0], str) else None


@dataclass(frozen=True)
class Assignment:
    """``NAME=value`` (or ``%hidden NAME=value``) applied while parsing."""

    name: str
    value: str
    hidden: bool
    line: int


class ParsedCommands(list):
    """The commands of a parse (a list of ParsedCommand), plus the assignments applied."""

    def __init__(
        self, commands: Sequence[ParsedCommand] = (), assignments: Sequence[Assignment] = ()
    ):
        super().__init__(commands)
        self.assignments: list[Assignment] = list(assignments)


@dataclass
class ParseInput:
    """Parse settings shared by both stages (tmux's cmd_parse_input)."""

    file: str | None = None
    line: int = 1
    environ: MutableMapping[str, Any] | None = None
    format_expand: FormatExpand | None = None
    parse_only: bool = False
    on_assign: Callable[[str, str, bool], None] | None = None
    stdio: bool = False
    # build stage
    table: Sequence[CommandEntry] = ()
    aliases: AliasLookup | None = None
    one_group: bool = False
    no_alias: bool = False
    verbose: Callable[[str], None] | None = None
    assignments: list[Assignment] = field(default_factory=list)


# --------------------------------------------------------------------------------------------
# Lexer

_EOF = "\x00<EOF>"  # never equal to, nor inside, any one-character string or class

# token types
T_NL = "\n"
T_SEMI = ";"
T_LBRACE = "{"
T_RBRACE = "}"
T_TOKEN = "TOKEN"
T_EQUALS = "EQUALS"
T_FORMAT = "FORMAT"
T_HIDDEN = "HIDDEN"
T_IF = "IF"
T_ELSE = "ELSE"
T_ELIF = "ELIF"
T_ENDIF = "ENDIF"
T_ERROR = "ERROR"
T_END = "END"

_KEYWORDS = {"%hidden": T_HIDDEN, "%if": T_IF, "%else": T_ELSE, "%elif": T_ELIF, "%endif": T_ENDIF}

_NONE, _DQ, _SQ, _START = 1, 2, 3, 0
_WORD_END = frozenset(" \t\n\x00")
_TOKEN_BREAK = frozenset(" \t;}")
_OCT03 = frozenset("0123")
_OCT47 = frozenset("4567")
_OCTAL = frozenset("01234567")
_HEX = frozenset("0123456789abcdefABCDEF")
_DIGITS = frozenset("0123456789")
_PERCENT_WORD = frozenset("%0123456789")
_VAR_FIRST = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_VAR = _VAR_FIRST | _DIGITS
_TILDE_END = frozenset("/ \t\n\"'\x00")
_QUOTED_COMMENT_KEEP = frozenset(",#{}:\x00")
_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "e": "\033",
    "f": "\f",
    "s": " ",
    "v": "\v",
    "r": "\r",
    "n": "\n",
    "t": "\t",
}
# runs of characters the token loop would append one by one without any special handling
_RUN = {
    _NONE: re.compile(r"[^ \t\r\n;}\\~$'\"]+"),
    _DQ: re.compile(r'[^\n\\~$"]+'),
    _SQ: re.compile(r"[^\n\\']+"),
}
_BLANKS = re.compile(r"[ \t]+")
_COMMENT = re.compile(r"[^\n\\]+")
_EQUALS_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


class _Lexer:
    """Character stream and tokens exactly as tmux's yylex (including its backslash counting)."""

    def __init__(self, text: str, pi: ParseInput, environ: MutableMapping[str, Any]) -> None:
        self.buf = text
        self.n = len(text)
        self.off = 0
        self.pushback: list[str] = []
        self.escapes = 0
        self.pi = pi
        self.environ = environ
        self.eol = False
        self.eof = False
        self.condition = False
        self.error: CmdParseError | None = None

    # -- errors --------------------------------------------------------------------------
    def yyerror(self, msg: str) -> None:
        if self.error is None:
            self.error = _error(self.pi.file, self.pi.line, msg)

    # -- characters ----------------------------------------------------------------------
    def getc1(self) -> str:
        if self.pushback:
            return self.pushback.pop()
        if self.off >= self.n:
            return _EOF
        ch = self.buf[self.off]
        self.off += 1
        return ch

    def ungetc(self, ch: str) -> None:
        if ch == _EOF:
            return
        if self.pi.stdio:
            self.pushback.append(ch)
        elif self.off > 0:
            self.off -= 1

    def getc(self) -> str:
        if self.escapes:
            self.escapes -= 1
            return "\\"
        while True:
            ch = self.getc1()
            if ch == "\\":
                self.escapes += 1
                continue
            if ch == "\n" and self.escapes % 2 == 1:
                self.pi.line += 1
                self.escapes -= 1
                continue
            if self.escapes:
                self.ungetc(ch)
                self.escapes -= 1
                return "\\"
            return ch

    def _fast(self) -> bool:
        return not self.escapes and not self.pushback

    # -- tokens --------------------------------------------------------------------------
    def lex(self) -> tuple[str, str | None]:
        if self.eol:
            self.pi.line += 1
        self.eol = False
        condition = self.condition
        self.condition = False
        while True:
            if self._fast():
                m = _BLANKS.match(self.buf, self.off)
                if m:
                    self.off = m.end()
            ch = self.getc()
            if ch == _EOF:
                if self.eof:
                    break
                self.eof = True
                return (T_NL, None)
            if ch == " " or ch == "\t":
                continue
            if ch == "\n":
                self.eol = True
                return (T_NL, None)
            if ch == ";" or ch == "{" or ch == "}":
                return (ch, None)
            if ch == "#":
                nxt = self.getc()
                if condition and nxt == "{":
                    fmt = self.lex_format()
                    if fmt is None:
                        return (T_ERROR, None)
                    return (T_FORMAT, fmt)
                while nxt != "\n" and nxt != _EOF:
                    if self._fast():
                        m = _COMMENT.match(self.buf, self.off)
                        if m:
                            self.off = m.end()
                    nxt = self.getc()
                if nxt == "\n":
                    self.pi.line += 1
                    return (T_NL, None)
                continue
            if ch == "%":
                word = self.get_word(ch)
                if _PERCENT_WORD.issuperset(word):
                    return (T_TOKEN, word)
                self.condition = True
                return (_KEYWORDS.get(word, T_ERROR), None)
            token = self.lex_token(ch)
            if token is None:
                return (T_ERROR, None)
            if _EQUALS_RE.match(token):
                return (T_EQUALS, token)
            return (T_TOKEN, token)
        return (T_END, None)

    def get_word(self, ch: str) -> str:
        out = [ch]
        while True:
            ch = self.getc()
            if ch == _EOF or ch in _WORD_END:
                break
            out.append(ch)
        self.ungetc(ch)
        return "".join(out)

    def lex_format(self) -> str | None:
        out = ["#{"]
        brackets = 1
        while True:
            ch = self.getc()
            if ch == _EOF or ch == "\n":
                return None
            if ch == "#":
                ch = self.getc()
                if ch == _EOF or ch == "\n":
                    return None
                if ch == "{":
                    brackets += 1
                out.append("#")
            elif ch == "}":
                if brackets != 0:
                    brackets -= 1
                    if brackets == 0:
                        out.append(ch)
                        break
            out.append(ch)
        return "".join(out)

    def lex_token(self, ch: str) -> str | None:
        out: list[Any] = []  # str pieces, or bytes from octal escapes
        state = _NONE
        last = _START
        while True:
            if state == _NONE and ch == "\r":  # CRLF outside quotes is LF (tmux 3.5)
                nxt = self.getc()
                if nxt == "\n":
                    ch = nxt
                else:
                    self.ungetc(nxt)
            if ch == _EOF or (state == _NONE and ch == "\n"):
                break
            if state == _NONE and ch in _TOKEN_BREAK:
                break
            if ch == "\n":  # inside quotes: keep the newline, drop indentation and comments
                self.pi.line += 1  # lines inside strings count (tmux 3.5)
                out.append("\n")
                while True:
                    ch = self.getc()
                    if ch != " " and ch != "\t":
                        break
                if ch != "#":
                    continue
                ch = self.getc()
                if ch in _QUOTED_COMMENT_KEEP:
                    self.ungetc(ch)
                    ch = "#"
                else:
                    while True:
                        ch = self.getc()
                        if ch == "\n" or ch == _EOF:
                            break
                continue
            if ch == "\\" and state != _SQ:
                if not self.token_escape(out):
                    return None
            elif ch == "~" and last != state and state != _SQ:
                if not self.token_tilde(out):
                    return None
            elif ch == "$" and state != _SQ:
                if not self.token_variable(out):
                    return None
            elif ch == "'" and state != _DQ:
                state = _SQ if state == _NONE else _NONE
                ch = self.getc()
                continue
            elif ch == '"' and state != _SQ:
                state = _DQ if state == _NONE else _NONE
                ch = self.getc()
                continue
            else:
                out.append(ch)
                if self._fast():
                    m = _RUN[state].match(self.buf, self.off)
                    if m:
                        out.append(m.group())
                        self.off = m.end()
            last = state
            ch = self.getc()
        self.ungetc(ch)
        return _join_token(out)

    def token_escape(self, out: list[Any]) -> bool:
        ch = self.getc()
        if ch in _OCT47:
            self.yyerror("invalid octal escape")
            return False
        if ch in _OCT03:
            o2 = self.getc()
            if o2 in _OCTAL:
                o3 = self.getc()
                if o3 in _OCTAL:
                    out.append(bytes((int(ch + o2 + o3, 8),)))
                    return True
            self.yyerror("invalid octal escape")
            return False
        if ch == _EOF:
            return False
        if ch == "u" or ch == "U":
            size = 4 if ch == "u" else 8
            digits = []
            for _ in range(size):
                c = self.getc()
                if c == _EOF or c == "\n":
                    return False
                if c not in _HEX:
                    self.yyerror(f"invalid \\{ch} argument")
                    return False
                digits.append(c)
            code = int("".join(digits), 16)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                self.yyerror(f"invalid \\{ch} argument")
                return False
            out.append(chr(code))
            return True
        out.append(_ESCAPES.get(ch, ch))
        return True

    def token_variable(self, out: list[Any]) -> bool:
        ch = self.getc()
        if ch == _EOF:
            return False
        name: list[str] = []
        brackets = ch == "{"
        if not brackets:
            if ch not in _VAR_FIRST:
                out.append("$")
                self.ungetc(ch)
                return True
            name.append(ch)
        while True:
            ch = self.getc()
            if brackets and ch == "}":
                break
            if ch == _EOF or ch not in _VAR:
                if not brackets:
                    self.ungetc(ch)
                    break
                self.yyerror("invalid environment variable")
                return False
            if len(name) == 1022:
                self.yyerror("environment variable is too long")
                return False
            name.append(ch)
        value = self.environ.get("".join(name))
        if value is not None:
            out.append(value)
        return True

    def token_tilde(self, out: list[Any]) -> bool:
        name: list[str] = []
        while True:
            ch = self.getc()
            if ch == _EOF or ch in _TILDE_END:
                self.ungetc(ch)
                break
            if len(name) == 1022:
                self.yyerror("user name is too long")
                return False
            name.append(ch)
        user = "".join(name)
        home: str | None = None
        if not user:
            env_home = self.environ.get("HOME")
            if env_home:
                home = env_home
            else:
                try:
                    home = pwd.getpwuid(os.getuid()).pw_dir
                except KeyError:
                    home = None
        else:
            try:
                home = pwd.getpwnam(user).pw_dir
            except (KeyError, ValueError):
                home = None
        if home is None:
            return False
        out.append(home)
        return True


def _join_token(out: list[Any]) -> str:
    if not any(isinstance(p, bytes) for p in out):
        s = "".join(out)
    else:
        parts: list[str] = []
        raw = bytearray()
        for p in out:
            if isinstance(p, bytes):
                raw += p
            else:
                if raw:
                    parts.append(raw.decode("utf-8", "surrogateescape"))
                    raw.clear()
                parts.append(p)
        if raw:
            parts.append(raw.decode("utf-8", "surrogateescape"))
        s = "".join(parts)
    nul = s.find("\x00")
    return s if nul < 0 else s[:nul]  # tmux's tokens are C strings


# --------------------------------------------------------------------------------------------
# Parser (the grammar of cmd-parse.y, with side effects where bison performs them)


class _Parser:
    def __init__(self, text: str, pi: ParseInput, environ: MutableMapping[str, Any]) -> None:
        self.lx = _Lexer(text, pi, environ)
        self.pi = pi
        self.environ = environ
        self.tok: tuple[str, str | None] | None = None
        self.scope: bool | None = None  # innermost %if flag (None at top level)
        self.stack: list[bool] = []
        self.assignments: list[Assignment] = []

    # -- tokens --------------------------------------------------------------------------
    def peek(self) -> str:
        if self.tok is None:
            self.tok = self.lx.lex()
        return self.tok[0]

    def take(self) -> str | None:
        self.peek()
        assert self.tok is not None
        value = self.tok[1]
        self.tok = None
        return value

    def syntax_error(self) -> CmdParseError:
        return self.error("syntax error")

    def error(self, message: str) -> CmdParseError:
        self.lx.yyerror(message)
        assert self.lx.error is not None
        return self.lx.error

    def expect(self, kind: str) -> None:
        if self.peek() != kind:
            raise self.syntax_error()
        self.take()

    def active(self) -> bool:
        return self.scope is None or self.scope

    # -- side effects --------------------------------------------------------------------
    def assign(self, text: str, hidden: bool) -> None:
        """``NAME=value``: set only if every enclosing %if is true (tmux 3.7b)."""
        if len(text.encode("utf-8", "surrogateescape")) > _MAX_ENVIRON_LEN:
            raise self.error("environment variable is too long")
        if self.pi.parse_only or not self.active() or not all(self.stack):
            return
        name, _, value = text.partition("=")
        self.environ[name] = value
        if self.pi.on_assign is not None:
            self.pi.on_assign(name, value, hidden)
        self.assignments.append(Assignment(name, value, hidden, self.pi.line))

    def expanded(self) -> bool:
        """``expanded: FORMAT | TOKEN``, run through the format expander."""
        if self.peek() not in (T_FORMAT, T_TOKEN):
            raise self.syntax_error()
        text = self.take() or ""
        fe = self.pi.format_expand
        return format_true(fe(text) if fe is not None else text)

    def if_open(self) -> bool:
        self.take()  # IF
        flag = self.expanded()
        if self.scope is not None:
            self.stack.append(self.scope)
        self.scope = flag
        return flag

    def if_else(self) -> None:
        self.take()
        self.scope = not self.scope

    def if_elif(self) -> bool:
        self.take()
        flag = self.expanded()
        self.scope = flag
        return flag

    def if_close(self) -> None:
        self.take()
        self.scope = self.stack.pop() if self.stack else None

    # -- grammar -------------------------------------------------------------------------
    def parse(self) -> list[ParsedCommand]:
        out: list[ParsedCommand] = []
        while True:
            if self.peek() == T_END:
                return out
            out.extend(self.statement())
            self.expect(T_NL)

    def statements(self, closers: tuple[str, ...]) -> list[ParsedCommand]:
        """``statements`` inside a multi-line %if: one or more ``statement '\\n'``."""
        out: list[ParsedCommand] = []
        first = True
        while True:
            if not first and self.peek() in closers:
                return out
            first = False
            out.extend(self.statement())
            self.expect(T_NL)

    def argument_statements(self) -> list[ParsedCommand]:
        """The inside of ``{ ... }``: statements separated by newlines, then ``}``."""
        out: list[ParsedCommand] = []
        while True:
            out.extend(self.statement())
            kind = self.peek()
            if kind == T_RBRACE:
                self.take()
                return out
            if kind != T_NL:
                raise self.syntax_error()
            self.take()

    def statement(self) -> list[ParsedCommand]:
        kind = self.peek()
        if kind == T_NL or kind == T_RBRACE:
            return []
        if kind == T_HIDDEN:
            self.take()
            if self.peek() != T_EQUALS:
                raise self.syntax_error()
            self.assign(self.take() or "", True)
            return []
        if kind == T_IF:
            flag = self.if_open()
            if self.peek() == T_NL:
                cmds = self.condition(flag)
            else:
                cmds = self.commands(self.condition1(flag))
            return cmds if self.active() else []
        if kind == T_TOKEN or kind == T_EQUALS:
            cmds = self.commands(self.first_command())
            return cmds if self.active() else []
        raise self.syntax_error()

    def condition(self, flag: bool) -> list[ParsedCommand]:
        """Multi-line %if / %elif / %else / %endif."""
        self.take()  # '\n'
        closers = (T_ELIF, T_ELSE, T_ENDIF)
        then = self.statements(closers)
        chosen: list[ParsedCommand] | None = then if flag else None
        if self.peek() == T_ELIF:
            while self.peek() == T_ELIF:
                eflag = self.if_elif()
                self.expect(T_NL)
                body = self.statements(closers)
                if chosen is None and eflag:
                    chosen = body
        if self.peek() == T_ELSE:
            self.if_else()
            self.expect(T_NL)
            body = self.statements((T_ENDIF,))
            if chosen is None:
                chosen = body
        if self.peek() != T_ENDIF:
            raise self.syntax_error()
        self.if_close()
        return chosen if chosen is not None else []

    def condition1(self, flag: bool) -> list[ParsedCommand]:
        """Single-line ``%if cond commands [%elif ...] [%else ...] %endif``."""
        then = self.commands(self.first_command())
        chosen: list[ParsedCommand] | None = then if flag else None
        while self.peek() == T_ELIF:
            eflag = self.if_elif()
            body = self.commands(self.first_command())
            if chosen is None and eflag:
                chosen = body
        if self.peek() == T_ELSE:
            self.if_else()
            body = self.commands(self.first_command())
            if chosen is None:
                chosen = body
        if self.peek() != T_ENDIF:
            raise self.syntax_error()
        self.if_close()
        return chosen if chosen is not None else []

    def first_command(self) -> list[ParsedCommand]:
        """The first item of ``commands``: a command or an inline condition."""
        kind = self.peek()
        if kind == T_IF:
            flag = self.if_open()
            return self.condition1(flag)
        if kind == T_TOKEN or kind == T_EQUALS:
            cmd = self.command()
            if cmd.argv and self.active():
                return [cmd]
            return []
        raise self.syntax_error()

    def commands(self, first: list[ParsedCommand]) -> list[ParsedCommand]:
        out = first
        while self.peek() == T_SEMI:
            self.take()
            kind = self.peek()
            if kind == T_IF:
                flag = self.if_open()
                out = out + self.condition1(flag)
            elif kind == T_TOKEN or kind == T_EQUALS:
                cmd = self.command()
                if cmd.argv and self.active():
                    out = out + [cmd]
                else:
                    out = []  # tmux drops the whole list here (commands ';' command)
        return out

    def command(self) -> ParsedCommand:
        argv: list[Any] = []
        if self.peek() == T_EQUALS:
            self.assign(self.take() or "", False)
            if self.peek() != T_TOKEN:
                return ParsedCommand(argv, self.pi.line)
        argv.append(self.take())
        while True:
            kind = self.peek()
            if kind == T_TOKEN or kind == T_EQUALS:
                argv.append(self.take())
            elif kind == T_LBRACE:
                self.take()
                argv.append(CommandBlock(self.argument_statements()))
            else:
                break
        return ParsedCommand(argv, self.pi.line)


def _environ_for(environ: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
    return dict(os.environ) if environ is None else environ


def _parse_buffer(text: str, pi: ParseInput) -> list[ParsedCommand]:
    """cmd_parse_do_buffer: syntax only; assignments go to ``pi.assignments``."""
    environ = _environ_for(pi.environ)
    pi.environ = environ
    parser = _Parser(text, pi, environ)
    try:
        return parser.parse()
    finally:
        pi.assignments.extend(parser.assignments)


def parse_string(
    text: str,
    *,
    file: str | None = None,
    line: int = 1,
    environ: MutableMapping[str, Any] | None = None,
    format_expand: FormatExpand | None = None,
    parse_only: bool = False,
    on_assign: Callable[[str, str, bool], None] | None = None,
    stdio: bool = False,
) -> ParsedCommands:
    """Parse command text into ParsedCommands (words, blocks, line numbers).

    ``environ`` is tmux's global environment: ``$VAR``/``~`` read it and ``NAME=value``
    writes it (None: a copy of the process environment). ``format_expand`` expands
    ``%if``/``%elif`` conditions (None: the text is taken as is). ``on_assign(name, value,
    hidden)`` sees each applied assignment (``%hidden`` ones too); ``parse_only`` applies
    none. ``file`` adds tmux's ``file:line:`` prefix to errors. ``stdio`` mimics tmux
    reading the startup config through stdio (its ungetc differs from the buffer one).
    Raises CmdParseError.
    """
    pi = ParseInput(
        file=file,
        line=line,
        environ=environ,
        format_expand=format_expand,
        parse_only=parse_only,
        on_assign=on_assign,
        stdio=stdio,
    )
    if not text:
        return ParsedCommands()
    cmds = _parse_buffer(text, pi)
    return ParsedCommands(cmds, pi.assignments)


def parse_argv(argv: Sequence[Any]) -> list[list[Any]]:
    """Split an already-split argument vector into commands at ``;`` (MSG_COMMAND argv).

    An argument ending in an unescaped ``;`` ends a command (the rest of it is kept); a
    trailing ``\\;`` is a literal ``;``. Command lists (built ``{}`` blocks) pass through.
    Empty commands (``a ; ; b``) are dropped, as building them in tmux yields nothing.
    """
    out: list[list[Any]] = []
    cur: list[Any] = []
    for value in argv:
        end = False
        if isinstance(value, str):
            if value.endswith(";"):
                value = value[:-1]
                if value.endswith("\\"):
                    value = value[:-1] + ";"
                else:
                    end = True
            if not end or value:
                cur.append(value)
        else:
            cur.append(value)
        if end:
            if cur:
                out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


# --------------------------------------------------------------------------------------------
# Building commands (lookup, aliases, flags)


def _expand_alias(cmd: ParsedCommand, pi: ParseInput) -> CommandList | None:
    if pi.no_alias:
        return None
    first = cmd.argv[0] if cmd.argv else None
    if not isinstance(first, str):
        return CommandList()
    alias = pi.aliases(first) if pi.aliases is not None else None
    if alias is None:
        return None
    cmds = _parse_buffer(alias, pi) if alias else []
    if not cmds:
        return CommandList()
    last = cmds[-1]
    last.argv.extend(cmd.argv[1:])
    pi.no_alias = True
    try:
        return _build(cmds, pi)
    finally:
        pi.no_alias = False


def _build_command(cmd: ParsedCommand, pi: ParseInput) -> CommandList:
    result = _expand_alias(cmd, pi)
    if result is not None:
        return result
    values: list[Any] = []
    for arg in cmd.argv:
        if isinstance(arg, CommandBlock):
            values.append(_build(arg.commands, pi))
        else:
            values.append(arg)
    try:
        add = parse_command(values, pi.table, pi.file, pi.line)
    except CommandError as e:
        raise _error(pi.file, pi.line, e.message) from None
    return CommandList([add])


def _print_group(pi: ParseInput, current: CommandList) -> None:
    if pi.verbose is None:
        return
    s = current.print()
    if pi.file is not None:
        pi.verbose(f"{pi.file}:{pi.line}: {s}")
    else:
        pi.verbose(f"{pi.line}: {s}")


def _build(cmds: Sequence[ParsedCommand], pi: ParseInput) -> CommandList:
    """cmd_parse_build_commands: one group per line unless ``one_group``."""
    result = CommandList()
    if not cmds:
        return result
    current: CommandList | None = None
    line: int | None = None
    for cmd in cmds:
        if not pi.one_group and cmd.line != line:
            if current is not None:
                _print_group(pi, current)
                result.move(current)
            current = CommandList()
        if current is None:
            current = CommandList()
        line = pi.line = cmd.line
        current.append_all(_build_command(cmd, pi))
    if current is not None:
        _print_group(pi, current)
        result.move(current)
    return result


def build_commands(
    parsed: Sequence[ParsedCommand],
    table: Sequence[CommandEntry],
    *,
    file: str | None = None,
    one_group: bool = False,
    aliases: AliasLookup | None = None,
    environ: MutableMapping[str, Any] | None = None,
    format_expand: FormatExpand | None = None,
    verbose: Callable[[str], None] | None = None,
) -> CommandList:
    """Turn parsed commands into a CommandList: lookup, ``command-alias``, flag parsing.

    ``aliases(name)`` returns the alias text for a name or None (see :func:`alias_lookup`);
    alias text is parsed with ``environ``/``format_expand``. ``verbose`` receives
    ``file:line: commands`` per group (source-file -v). Raises CmdParseError.
    """
    pi = ParseInput(
        file=file,
        environ=environ,
        format_expand=format_expand,
        table=table,
        aliases=aliases,
        one_group=one_group,
        verbose=verbose,
    )
    return _build(parsed, pi)


def commands_from_buffer(
    text: str,
    table: Sequence[CommandEntry],
    *,
    file: str | None = None,
    line: int = 1,
    environ: MutableMapping[str, Any] | None = None,
    format_expand: FormatExpand | None = None,
    aliases: AliasLookup | None = None,
    parse_only: bool = False,
    on_assign: Callable[[str, str, bool], None] | None = None,
    verbose: Callable[[str], None] | None = None,
    one_group: bool = False,
    stdio: bool = False,
) -> CommandList:
    """Parse and build a config file's text: each line is its own group (source-file)."""
    pi = ParseInput(
        file=file,
        line=line,
        environ=environ,
        format_expand=format_expand,
        parse_only=parse_only,
        on_assign=on_assign,
        stdio=stdio,
        table=table,
        aliases=aliases,
        one_group=one_group,
        verbose=verbose,
    )
    if not text:
        return CommandList()
    return _build(_parse_buffer(text, pi), pi)


def commands_from_string(text: str, table: Sequence[CommandEntry], **kwargs: Any) -> CommandList:
    """Parse and build a command string (bindings, prompt): all commands in one group."""
    kwargs["one_group"] = True
    return commands_from_buffer(text, table, **kwargs)


def commands_from_argv(
    argv: Sequence[Any],
    table: Sequence[CommandEntry],
    *,
    line: int = 0,
    aliases: AliasLookup | None = None,
    environ: MutableMapping[str, Any] | None = None,
    format_expand: FormatExpand | None = None,
) -> CommandList:
    """Build an argument vector split at ``;`` (tmux's cmd_parse_from_arguments)."""
    pi = ParseInput(
        line=line,
        environ=environ,
        format_expand=format_expand,
        table=table,
        aliases=aliases,
    )
    parsed = [ParsedCommand(list(words), line) for words in parse_argv(argv)]
    return _build(parsed, pi)


#: tmux 3.3a's default ``command-alias`` option items.
DEFAULT_COMMAND_ALIASES: tuple[str, ...] = (
    "split-pane=split-window",
    "splitp=split-window",
    "server-info=show-messages -JT",
    "info=show-messages -JT",
    "choose-window=choose-tree -w",
    "choose-session=choose-tree -s",
)


def alias_lookup(items: Sequence[str]) -> AliasLookup:
    """An ``aliases`` callable over ``command-alias`` items ``name=value`` (cmd_get_alias)."""

    def lookup(name: str) -> str | None:
        for item in items:
            eq = item.find("=")
            if eq >= 0 and item[:eq] == name:
                return item[eq + 1 :]
        return None

    return lookup


# --------------------------------------------------------------------------------------------
# Printing


def print_parsed(commands: Sequence[ParsedCommand]) -> str:
    """Parsed (not yet built) commands as text, quoted as tmux quotes arguments."""
    parts = []
    for cmd in commands:
        words = []
        for arg in cmd.argv:
            if isinstance(arg, CommandBlock):
                words.append(arg.print())
            elif isinstance(arg, CommandList):
                words.append("{ " + arg.print() + " }")
            else:
                words.append(args_escape(arg))
        parts.append(" ".join(words))
    return " ; ".join(parts)


def print_commands(cmdlist: CommandList, escaped: bool = False) -> str:
    """A built command list as list-keys (``escaped=True``) or show-hooks prints it."""
    return cmdlist.print(escaped)
