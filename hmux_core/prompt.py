"""The status-line prompt of an attached client (tmux's status_prompt_*), and prompt history.

A client has at most one prompt (``client.prompt``). Keys reach it before the key tables, as in
tmux, because the command that opened it may be waiting on the client's queue. Editing follows
``status-keys`` (emacs, or vi translated onto the emacs actions); Enter hands the text to the
prompt's callback, which returns 1 to keep the prompt open (the next of several ``-p`` prompts)
or 0 to close it. History is the server's, one list per prompt type, as tmux keeps it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from . import keys as K
from .format import EXPAND_TIME, format_width
from .screen.cells import char_width

Cell = tuple[str, tuple[int, int, int, int]]

TYPES = ("command", "search", "target", "window-target")
COMMAND, SEARCH, TARGET, WINDOW_TARGET = range(4)

SINGLE = 0x1
NUMERIC = 0x2
INCREMENTAL = 0x4
NOFORMAT = 0x8
KEY = 0x10
ACCEPT = 0x20  # with SINGLE: answered "y" at once (the modes' -y)
QUOTENEXT = 0x40  # after C-v: the next key goes in as it is
BSPACE_EXIT = 0x80  # command-prompt -e: Backspace on an empty prompt cancels it
NOFREEZE = 0x100  # command-prompt -C: the panes keep being drawn

LAYOUT_NAMES = ("even-horizontal", "even-vertical", "main-horizontal",
                "main-horizontal-mirrored", "main-vertical", "main-vertical-mirrored", "tiled")

#: status_prompt_keypad_key: keypad keys type their characters.
_KEYPAD = {K.KEYC_KP_SLASH: "/", K.KEYC_KP_STAR: "*", K.KEYC_KP_MINUS: "-",
           K.KEYC_KP_SEVEN: "7", K.KEYC_KP_EIGHT: "8", K.KEYC_KP_NINE: "9",
           K.KEYC_KP_PLUS: "+", K.KEYC_KP_FOUR: "4", K.KEYC_KP_FIVE: "5", K.KEYC_KP_SIX: "6",
           K.KEYC_KP_ONE: "1", K.KEYC_KP_TWO: "2", K.KEYC_KP_THREE: "3", K.KEYC_KP_ENTER: "\r",
           K.KEYC_KP_ZERO: "0", K.KEYC_KP_PERIOD: "."}

#: Keys the vi entry mode hands to the emacs actions unchanged (status_prompt_translate_key).
_VI_ENTRY_KEYS = frozenset((0x01, 0x03, 0x05, 0x07, 0x08, 0x09, 0x0B, 0x0E, 0x10, 0x14, 0x15,
                            0x16, 0x17, 0x19, 0x0A, 0x0D, K.KEYC_LEFT | K.KEYC_CTRL,
                            K.KEYC_RIGHT | K.KEYC_CTRL, K.KEYC_BSPACE, K.KEYC_DC, K.KEYC_DOWN,
                            K.KEYC_END, K.KEYC_HOME, K.KEYC_LEFT, K.KEYC_RIGHT, K.KEYC_UP))
_VI_COMMAND_KEYS = {
    ord("A"): K.KEYC_END, ord("$"): K.KEYC_END, ord("I"): K.KEYC_HOME, ord("0"): K.KEYC_HOME,
    ord("^"): K.KEYC_HOME, ord("C"): 0x0B, ord("D"): 0x0B, K.KEYC_BSPACE: K.KEYC_BSPACE,
    ord("X"): K.KEYC_BSPACE, ord("b"): ord("b") | K.KEYC_META, ord("B"): ord("B") | K.KEYC_VI,
    ord("d"): 0x15, ord("e"): ord("e") | K.KEYC_VI, ord("E"): ord("E") | K.KEYC_VI,
    ord("w"): ord("w") | K.KEYC_VI, ord("W"): ord("W") | K.KEYC_VI, ord("p"): 0x19,
    ord("q"): 0x03, ord("s"): K.KEYC_DC, K.KEYC_DC: K.KEYC_DC, ord("x"): K.KEYC_DC,
    K.KEYC_DOWN: K.KEYC_DOWN, ord("j"): K.KEYC_DOWN, K.KEYC_LEFT: K.KEYC_LEFT,
    ord("h"): K.KEYC_LEFT, ord("a"): K.KEYC_RIGHT, K.KEYC_RIGHT: K.KEYC_RIGHT,
    ord("l"): K.KEYC_RIGHT, K.KEYC_UP: K.KEYC_UP, ord("k"): K.KEYC_UP, 0x08: 0x08, 0x03: 0x03,
    0x0A: 0x0A, 0x0D: 0x0D,
}

#: callback(client, text or None, done) -> 1 to keep the prompt, 0 to close it.
Callback = Callable[[Any, "str | None", bool], int]


def prompt_type(name: str) -> int:
    """The index of a prompt type name, -1 for one tmux does not know."""
    try:
        return TYPES.index(name)
    except ValueError:
        return -1


class History:
    """The server's prompt history: one list per type, capped by ``prompt-history-limit``,
    loaded from and saved to ``history-file`` when it is set."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.lists: list[list[str]] = [[] for _ in TYPES]
        self._loaded = False

    def _file(self) -> str | None:
        path = str(self.server.options.get("history-file") or "")
        if not path:
            return None
        if path.startswith("/"):
            return path
        if not path.startswith("~/"):
            return None
        home = os.environ.get("HOME") or os.path.expanduser("~")
        return home + path[1:]

    def load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        path = self._file()
        if path is None:
            return
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                lines = f.read().split("\n")
        except OSError:
            return
        for line in lines:
            if not line:
                continue
            name, sep, rest = line.partition(":")
            t = prompt_type(name) if sep else -1
            if t < 0:
                self.add(line, COMMAND, save=False)
            else:
                self.add(rest, t, save=False)

    def save(self) -> None:
        path = self._file()
        if path is None:
            return
        try:
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                for t, items in enumerate(self.lists):
                    for line in items:
                        f.write(f"{TYPES[t]}:{line}\n")
        except OSError:
            pass

    def add(self, line: str, t: int, save: bool = True) -> None:
        """status_prompt_add_history: a repeat of the newest entry is not added again."""
        self.load()
        items = self.lists[t]
        new = not (items and items[-1] == line)
        limit = int(self.server.options.get("prompt-history-limit"))
        if new:
            items.append(line)
        if len(items) > limit:
            del items[:len(items) - limit]
        if save:
            self.save()

    def clear(self, t: int | None = None) -> None:
        for i in range(len(TYPES)):
            if t is None or i == t:
                self.lists[i] = []

    def up(self, idx: list[int], t: int) -> str | None:
        items = self.lists[t]
        if not items or idx[t] == len(items):
            return None
        idx[t] += 1
        return items[len(items) - idx[t]]

    def down(self, idx: list[int], t: int) -> str:
        items = self.lists[t]
        if not items or idx[t] == 0:
            return ""
        idx[t] -= 1
        if idx[t] == 0:
            return ""
        return items[len(items) - idx[t]]


def history(server: Any) -> History:
    h = getattr(server, "prompt_history", None)
    if h is None:
        h = server.prompt_history = History(server)
        h.load()
    return h


def _is_space(ch: str) -> bool:
    return ch == " "


def _char_width(ch: str) -> int:
    """A prompt character's width: a control character shows as ^X."""
    if ch.isascii():
        return 2 if ch <= "\x1f" or ch == "\x7f" else 1
    return max(char_width(ch), 0)


def _in_list(seps: str, ch: str) -> bool:
    return len(ch) == 1 and ch.isascii() and ch in seps


class Prompt:
    """One client's prompt: the message, the text being edited and where the cursor is."""

    def __init__(self, message: str, text: str, callback: Callback,
                 free: Callable[[], None] | None, flags: int, ptype: int) -> None:
        self.message = message
        self.flags = flags
        self.type = ptype
        self.callback = callback
        self.free = free
        if flags & INCREMENTAL:
            self.last: str | None = text
            self.buffer: list[str] = []
        else:
            self.last = None
            self.buffer = list(text)
        self.index = len(self.buffer)
        self.saved: list[str] | None = None
        self.hindex = [0] * len(TYPES)
        self.command_mode = False  # vi: PROMPT_COMMAND after Escape
        self.cursor = 0  # the terminal column of the cursor, as last drawn
        self.state: Any = None  # the target the prompt's formats are expanded for

    @property
    def text(self) -> str:
        return "".join(self.buffer)

    def update(self, message: str, text: str) -> None:
        self.message = message
        self.buffer = list(text)
        self.index = len(self.buffer)
        self.hindex = [0] * len(TYPES)

    # -- drawing -------------------------------------------------------------------------------

    def draw(self, server: Any, client: Any, row: list[Cell], ax: int, aw: int) -> None:
        """status_prompt_redraw over ``row`` (the status line it shows on): the message as
        message-format draws it (fill, alignment) in the prompt area, then the text in
        message-style (message-command-style in vi's command mode), scrolled to keep the
        cursor in view. Control characters show as ^X; the terminal cursor marks the place."""
        from . import format as F
        from . import status
        from .modes import style_option

        s = client.session
        oo = s.options
        gc = style_option(oo, "message-command-style" if self.command_mode else "message-style")
        ctx = _context(server, client, self.state)
        ctx.extra["prompt-input"] = self.text
        prompt = F.expand(self.message, ctx, flags=EXPAND_TIME)
        ctx.extra["message"] = prompt
        ctx.extra["command_prompt"] = "1" if self.command_mode else "0"
        ctx._cache.clear()
        expanded = F.expand(str(oo.get("message-format") or ""), ctx, flags=EXPAND_TIME)
        status.overlay(row, ax, expanded, aw, links=status.client_links(client))
        start = min(format_width(expanded), aw)
        left = aw - start
        self.cursor = ax + start
        if left == 0:
            return
        widths = [_char_width(ch) for ch in self.buffer]
        pcursor = sum(widths[:self.index])
        pwidth = sum(widths)
        if self.flags & QUOTENEXT:
            pwidth += 1
        if pcursor >= left:
            offset = pcursor - left + 1  # start drawing so the cursor is on screen
            pwidth = left
        else:
            offset = 0
        pwidth = min(pwidth, left)
        self.cursor = ax + start + pcursor - offset
        x = ax + start
        width = 0
        quote = bool(self.flags & QUOTENEXT)

        def put(ch: str, w: int) -> bool:
            nonlocal width, x
            if width < offset:
                width += w
                return True
            if width >= offset + pwidth:
                return False
            width += w
            if width > offset + pwidth:
                return False
            if w == 2 and len(ch) == 1 and (ord(ch) <= 0x1F or ch == "\x7f"):
                text = "^" + ("?" if ch == "\x7f" else chr(ord(ch) | 0x40))
                for c in text:
                    if x < len(row):
                        row[x] = (c, gc)
                    x += 1
                return True
            if x < len(row):
                row[x] = (ch, gc)
                if w == 2 and x + 1 < len(row):
                    row[x + 1] = ("", gc)
            x += w
            return True

        for i, ch in enumerate(self.buffer):
            # status_prompt_redraw_quote compares the drawing column with the cursor's
            # place in the text (as tmux does).
            if quote and x == pcursor + 1 and not put("^", 1):
                break
            if not put(ch, widths[i]):
                break
        else:
            if quote and x == pcursor + 1:
                put("^", 1)

    # -- editing -------------------------------------------------------------------------------

    def _translate_vi(self, key: int) -> tuple[int, int]:
        """vi keys onto emacs actions: (0 drop | 1 process | 2 append, key)."""
        if not self.command_mode:
            if key in _VI_ENTRY_KEYS:
                return 1, key
            if key == 0x1B:  # Escape (or C-[): command mode, the cursor back one as vi's
                self.command_mode = True
                if self.index != 0:
                    self.index -= 1
                return 0, key
            return 2, key
        if key == K.KEYC_BSPACE:
            return 1, K.KEYC_LEFT
        if key in (ord("A"), ord("I"), ord("C"), ord("s"), ord("a")):
            self.command_mode = False
        elif key == ord("S"):
            self.command_mode = False
            return 1, 0x15
        elif key == ord("i"):
            self.command_mode = False
            return 0, key
        elif key == 0x1B:
            return 0, key
        new = _VI_COMMAND_KEYS.get(key)
        if new is None:
            return 0, key
        return 1, new

    def key(self, server: Any, client: Any, key: int) -> int:
        """status_prompt_key: 0 when the key was used (or dropped), 1 when a numeric prompt
        ended on a non-digit and the key should be handled as usual."""
        if self.flags & KEY:
            self.callback(client, K.key_to_string(key), True)
            clear(server, client)
            return 0
        key &= ~K.KEYC_MASK_FLAGS
        if not key & K.KEYC_MASK_MODIFIERS and key in _KEYPAD:
            key = ord(_KEYPAD[key])
        if self.flags & NUMERIC:
            if ord("0") <= key <= ord("9"):
                return self._append(server, client, key)
            self.callback(client, self.text, True)
            clear(server, client)
            return 1
        key = K.to_c0(key)  # C-a (tmux 3.7b's key) is 0x01 here
        if self.flags & (SINGLE | QUOTENEXT):
            # Any key is an answer (or quoted): as its character, a control one included.
            if key & K.KEYC_MASK_KEY == K.KEYC_BSPACE:
                key = 0x7F
            elif key & K.KEYC_MASK_KEY > 0x7F:
                if not K.is_unicode_key(key):
                    return 0
                key &= K.KEYC_MASK_KEY
            else:
                key &= 0x1F if key & K.KEYC_CTRL else K.KEYC_MASK_KEY
            self.flags &= ~QUOTENEXT
            return self._append(server, client, key)
        s = client.session
        if s is not None and s.options.get("status-keys") == "vi":
            what, key = self._translate_vi(key)
            if what == 0:
                _redraw(client)
                return 0
            if what == 2:
                return self._append(server, client, key)
        return self._process(server, client, key)

    def _process(self, server: Any, client: Any, key: int) -> int:
        buf = self.buffer
        size = len(buf)
        prefix = "="
        seps = _separators(client)
        changed = True
        if key in (K.KEYC_LEFT, 0x02):
            changed = False
            if self.index > 0:
                self.index -= 1
        elif key in (K.KEYC_RIGHT, 0x06):
            changed = False
            if self.index < size:
                self.index += 1
        elif key in (K.KEYC_HOME, 0x01):
            changed = False
            self.index = 0
        elif key in (K.KEYC_END, 0x05):
            changed = False
            self.index = size
        elif key == 0x09:
            changed = self._complete(server, client)
            if not changed:
                _redraw(client)
                return 0
        elif key in (K.KEYC_BSPACE, 0x08):
            if self.flags & BSPACE_EXIT and size == 0:  # command-prompt -e
                if self.callback(client, None, True) == 0:
                    clear(server, client)
                _redraw(client)
                return 0
            if self.index == 0:
                changed = False
            else:
                del buf[self.index - 1]
                self.index -= 1
        elif key in (K.KEYC_DC, 0x04):
            if self.index == size:
                changed = False
            else:
                del buf[self.index]
        elif key == 0x15:
            buf.clear()
            self.index = 0
        elif key == 0x0B:
            if self.index < size:
                del buf[self.index:]
            else:
                changed = False
        elif key == 0x17:
            idx = self._word_start(seps)
            self.saved = buf[idx:self.index]
            del buf[idx:self.index]
            self.index = idx
        elif key in (K.KEYC_RIGHT | K.KEYC_CTRL, ord("f") | K.KEYC_META):
            self._forward_word(False, seps)
        elif key == ord("E") | K.KEYC_VI:
            self._end_word("")
        elif key == ord("e") | K.KEYC_VI:
            self._end_word(seps)
        elif key == ord("W") | K.KEYC_VI:
            self._forward_word(True, "")
        elif key == ord("w") | K.KEYC_VI:
            self._forward_word(True, seps)
        elif key == ord("B") | K.KEYC_VI:
            self.index = self._word_start("")
        elif key in (K.KEYC_LEFT | K.KEYC_CTRL, ord("b") | K.KEYC_META):
            self.index = self._word_start(seps)
        elif key in (K.KEYC_UP, 0x10):
            line = history(server).up(self.hindex, self.type)
            if line is None:
                changed = False
            else:
                self.buffer = list(line)
                self.index = len(self.buffer)
        elif key in (K.KEYC_DOWN, 0x0E):
            line = history(server).down(self.hindex, self.type)
            self.buffer = list(line)
            self.index = len(self.buffer)
        elif key == 0x19:
            changed = self._paste(server)
        elif key == 0x14:
            idx = self.index + 1 if self.index < size else self.index
            if idx >= 2:
                buf[idx - 2], buf[idx - 1] = buf[idx - 1], buf[idx - 2]
                self.index = idx
            else:
                changed = False
        elif key in (0x0D, 0x0A):
            text = self.text
            if text:
                history(server).add(text, self.type)
            if self.callback(client, text, True) == 0:
                clear(server, client)
            _redraw(client)
            return 0
        elif key in (0x1B, 0x03, 0x07):
            if self.callback(client, None, True) == 0:
                clear(server, client)
            _redraw(client)
            return 0
        elif key == 0x16:  # C-v: the next key goes in as it is
            self.flags |= QUOTENEXT
            changed = False
        elif key in (0x12, 0x13):
            if not self.flags & INCREMENTAL:
                _redraw(client)
                return 0
            if not buf:
                self.buffer = list(self.last or "")
                self.index = len(self.buffer)
            else:
                prefix = "-" if key == 0x12 else "+"
        else:
            return self._append(server, client, key)
        if not changed:
            _redraw(client)
            return 0
        return self._changed(client, prefix)

    def _changed(self, client: Any, prefix: str = "=") -> int:
        _redraw(client)
        if self.flags & INCREMENTAL and client.prompt is self:
            self.callback(client, prefix + self.text, False)
        return 0

    def _append(self, server: Any, client: Any, key: int) -> int:
        if K.KEYC_BASE <= key < K.KEYC_BASE_END:
            return 0
        if key <= 0x7F:  # a control character too (shown as ^X)
            ch = chr(key)
        elif K.is_unicode_key(key):
            ch = K.key_to_char(key) or ""
            if not ch:
                return 0
        else:
            return 0
        self.buffer.insert(self.index, ch)
        self.index += 1
        if self.flags & SINGLE:
            if len(self.buffer) != 1:
                clear(server, client)
            elif self.callback(client, self.text, True) == 0:
                clear(server, client)
        return self._changed(client)

    def _paste(self, server: Any) -> bool:
        if self.saved is not None:
            chars = list(self.saved)
        else:
            top = server.buffers.top()
            if top is None:
                return False
            text = bytes(top.data).decode("utf-8", "surrogateescape")
            chars = []
            for ch in text:
                if ord(ch) <= 31 or ord(ch) == 127 or 0xDC80 <= ord(ch) <= 0xDCFF:
                    break
                chars.append(ch)
        if not chars:
            return False
        self.buffer[self.index:self.index] = chars
        self.index += len(chars)
        return True

    def _word_start(self, seps: str) -> int:
        """status_prompt_backward_word (and C-w's start of the word before the cursor)."""
        buf = self.buffer
        idx = self.index
        while idx != 0:
            idx -= 1
            if not _is_space(buf[idx]):
                break
        word_is_seps = idx < len(buf) and _in_list(seps, buf[idx])
        while idx != 0:
            idx -= 1
            if _is_space(buf[idx]) or word_is_seps != _in_list(seps, buf[idx]):
                idx += 1
                break
        return idx

    def _forward_word(self, vi: bool, seps: str) -> None:
        buf = self.buffer
        size = len(buf)
        idx = self.index
        if not vi:
            while idx != size and _is_space(buf[idx]):
                idx += 1
        if idx == size:
            self.index = idx
            return
        word_is_seps = _in_list(seps, buf[idx]) and not _is_space(buf[idx])
        while True:
            idx += 1
            if idx < size and _is_space(buf[idx]):
                if vi:
                    while idx != size and _is_space(buf[idx]):
                        idx += 1
                break
            if idx == size or word_is_seps != _in_list(seps, buf[idx]):
                break
        self.index = idx

    def _end_word(self, seps: str) -> None:
        buf = self.buffer
        size = len(buf)
        idx = self.index
        if idx == size:
            return
        while True:
            idx += 1
            if idx == size:
                self.index = idx
                return
            if not _is_space(buf[idx]):
                break
        word_is_seps = _in_list(seps, buf[idx])
        while True:
            idx += 1
            if idx == size:
                break
            if _is_space(buf[idx]) or word_is_seps != _in_list(seps, buf[idx]):
                break
        self.index = idx - 1

    # -- completion (status_prompt_replace_complete / status_prompt_complete) ----------------

    def _word_bounds(self) -> tuple[int, int]:
        """The word around the cursor; the end of the text acts as tmux's terminator."""
        buf = self.buffer
        size = len(buf)

        def sp(i: int) -> bool:
            return i < size and buf[i] == " "

        idx = self.index - 1 if self.index else 0
        first = idx
        while first > 0 and not sp(first):
            first -= 1
        while first < size and sp(first):
            first += 1
        last = idx
        while last < size and not sp(last):
            last += 1
        while last > 0 and sp(last):
            last -= 1
        if last < size:
            last += 1
        return first, last

    def _complete(self, server: Any, client: Any) -> bool:
        first, last = self._word_bounds()
        if last < first:
            return False
        word = "".join(self.buffer[first:last])
        out = complete(server, client, self, word, first)
        if out is None:
            return False
        self.buffer[first:last] = list(out)
        self.index = first + len(out)
        return True


def _separators(client: Any) -> str:
    s = client.session
    return str(s.options.get("word-separators")) if s is not None else ""


def _common_prefix(words: list[str]) -> str | None:
    if not words:
        return None
    return os.path.commonprefix(words)


def complete_list(server: Any, word: str, at_start: bool) -> list[str]:
    """Command names and aliases (and command-alias names), then option and layout names
    unless the word starts the line."""
    from .commands.registry import table
    from .options_table import OPTION_TABLE

    out: list[str] = []

    def add(name: str) -> None:
        if name not in out:
            out.append(name)

    for row in table():
        if row.name.startswith(word):
            add(row.name)
        if row.alias and row.alias.startswith(word):
            add(row.alias)
    aliases = server.options.get("command-alias")
    if isinstance(aliases, dict):
        aliases = [aliases[k] for k in sorted(aliases)]
    for value in aliases or ():
        name, eq, _ = str(value).partition("=")
        if eq and name.startswith(word):
            add(name)
    if at_start:
        return out
    for oe in OPTION_TABLE:
        if oe.name.startswith(word) and not oe.is_extension:  # 3.7b's completions
            add(oe.name)
    for name in LAYOUT_NAMES:
        if name.startswith(word):
            add(name)
    return out


def complete(server: Any, client: Any, p: Prompt, word: str, offset: int) -> str | None:
    """What Tab puts in place of ``word``: one match and a space, or the matches' common
    prefix; sessions for ``-t``/``-s`` words and target prompts, windows after ``session:``
    and in window-target prompts. Several matches that add nothing open a menu of them."""
    targets = p.type in (TARGET, WINDOW_TARGET)
    if not word and not targets:
        return None
    out: str | None
    words: list[str] = []
    flag = ""
    if not targets and not word.startswith("-t") and not word.startswith("-s"):
        words = complete_list(server, word, offset == 0)
        if not words:
            out = None
        elif len(words) == 1:
            out = words[0] + " "
        else:
            out = _common_prefix(words)
    else:
        if targets:
            s = word
        else:
            s, flag = word[2:], word[1]
            offset += 2
        if p.type == WINDOW_TARGET:
            return _window_menu(server, client, p, client.session, s, offset, "")
        colon = s.find(":")
        if colon < 0:
            for sess in server.model.sorted_sessions():
                if not s or sess.name.startswith(s):
                    words.append(f"{sess.name}:")
                elif s.startswith("$"):
                    n = str(sess.id)
                    if len(s) == 1 or n.startswith(s[1:]):
                        words.append(f"${n}:")
            out = _common_prefix(words)
            if out is not None and flag:
                out = f"-{flag}{out}"
        elif "." not in s[colon + 1:]:
            if colon == 0:
                sess = client.session
            else:
                sess = next((x for x in server.model.sorted_sessions()
                             if x.name == s[:colon]), None)
            if sess is None:
                return None
            return _window_menu(server, client, p, sess, s[colon + 1:], offset, flag)
        else:
            out = None
    if out is not None and out == word:
        out = None
    if out is None and len(words) > 1:
        shown = sorted(words)
        _complete_menu(server, client, p, [(w, w) for w in shown], offset, flag, last=True)
    return out


def _window_menu(server: Any, client: Any, p: Prompt, sess: Any, prefix: str, offset: int,
                 flag: str) -> str | None:
    """status_prompt_complete_window_menu: the session's windows whose index starts with
    ``prefix``; one is completed at once, several open a menu."""
    if sess is None:
        return None
    choices: list[tuple[str, str]] = []
    height = min(_menu_room(client) or 0, 10)
    if height <= 0:
        return None
    for wl in sess.sorted_winlinks():
        if prefix and not str(wl.idx).startswith(prefix):
            continue
        if p.type == WINDOW_TARGET:
            choices.append((f"{wl.idx} ({wl.window.name})", str(wl.idx)))
        else:
            choices.append((f"{sess.name}:{wl.idx} ({wl.window.name})", f"{sess.name}:{wl.idx}"))
        if len(choices) == height:
            break
    if not choices:
        return None
    if len(choices) == 1:
        return f"-{flag}{choices[0][1]}" if flag else choices[0][1]
    _complete_menu(server, client, p, choices, offset, flag, last=False)
    return None


def _menu_room(client: Any) -> int | None:
    """Rows a completion menu may use (tty rows less the status lines and the box)."""
    a = getattr(client, "attached", None)
    s = client.session
    if a is None or s is None:
        return None
    value = s.options.get("status")
    lines = 0 if value == "off" else 1 if value == "on" else int(value)
    if a.tty.sy - lines < 3:
        return None
    return a.tty.sy - lines - 2


def _complete_menu(server: Any, client: Any, p: Prompt, choices: list[tuple[str, str]],
                   offset: int, flag: str, last: bool) -> None:
    """status_prompt_complete_list_menu: matches in a numbered menu above the prompt (the
    last ten, or the first for windows); choosing one puts it in place of the word."""
    from .format import format_width
    from .overlays import Menu, set_overlay

    room = _menu_room(client)
    if room is None:
        return
    a = client.attached
    s = client.session
    sx, sy = a.tty.sx, a.tty.sy
    height = min(room, 10, len(choices))
    shown = choices[len(choices) - height:] if last else choices[:height]
    items = [(f"{label}#[default] #[align=right]({i})", ord("0") + i, None)
             for i, (label, _v) in enumerate(shown)]
    width = max(format_width(name) for name, _k, _c in items)
    value = s.options.get("status")
    lines = 0 if value == "off" else 1 if value == "on" else int(value)
    py = lines if s.options.get("status-position") == "top" else sy - 3 - height
    ax, _aw = prompt_area(client, sx)
    px = offset + sum(max(char_width(c), 0) if not c.isascii() else int(c >= " ")
                      for c in p.message) + ax
    px = px - 2 if px > 2 else 0
    if sx < width + 4 or sy < height + 2:
        return
    px = min(px, sx - width - 4)
    py = min(py, sy - height - 2)

    def choose(index: int) -> None:
        if client.prompt is not p:
            return
        text = shown[index][1]
        text = f"-{flag}{text}" if flag else text
        if p.type == WINDOW_TARGET:
            p.buffer = list(text)
            p.index = len(p.buffer)
        else:
            first, last_ = p._word_bounds()
            p.buffer[first:last_] = list(text)
            p.index = first + len(text)
        _redraw(client)

    set_overlay(server, client, Menu("", items, width, px, py, choose, tab=True), 0)


# -- the client's prompt -------------------------------------------------------------------------

def _redraw(client: Any) -> None:
    a = getattr(client, "attached", None)
    if a is not None:
        a.redraw()


def _context(server: Any, client: Any, st: Any, extra: dict[str, str] | None = None) -> Any:
    """format_create_from_state for the prompt's target when it has one, else the client's
    defaults (format_create_defaults)."""
    from .formats_vars import ModelContext

    if st is not None and getattr(st, "s", None) is not None:
        return ModelContext(server, client, st.s, getattr(st, "wl", None),
                            getattr(st, "wp", None), extra)
    return ModelContext(server, client, None, None, None, extra)


def expand(server: Any, client: Any, st: Any, text: str) -> str:
    from . import format as F

    return F.expand(text, _context(server, client, st), flags=EXPAND_TIME)


def set_prompt(server: Any, client: Any, st: Any, message: str, text: str | None,
               callback: Callback, free: Callable[[], None] | None, flags: int,
               ptype: int) -> Prompt:
    """status_prompt_set: replaces any overlay, prompt and message. The input is expanded
    now (unless NOFORMAT), the message each time it is drawn (#{prompt-input} is the text
    typed). With SINGLE and ACCEPT the prompt is answered "y" once the client's queue
    reaches it."""
    from .overlays import clear_overlay

    clear_overlay(server, client)
    text = text or ""
    client.message_text = None
    clear(server, client)
    if not flags & NOFORMAT:
        text = expand(server, client, st, text)
    p = Prompt(message, text, callback, free, flags, ptype)
    p.state = st.copy() if st is not None and hasattr(st, "copy") else st
    client.prompt = p
    _redraw(client)
    if flags & INCREMENTAL:
        callback(client, "=", False)
    if flags & SINGLE and flags & ACCEPT:
        _queue_accept(server, client, p)
    return p


def _queue_accept(server: Any, client: Any, p: Prompt) -> None:
    """status_prompt_accept, run once what is running now (the key or command that set the
    prompt) is done, as tmux's callback on the client's queue."""

    def accept() -> None:
        if getattr(client, "prompt", None) is p:
            if p.callback(client, "y", True) == 0:
                clear(server, client)
            _redraw(client)

    if server.nursery is None:
        accept()
        return

    async def later() -> None:
        import trio

        await trio.sleep(0)
        accept()

    server.nursery.start_soon(later)


def update(server: Any, client: Any, message: str, text: str) -> None:
    """status_prompt_update: the next prompt of several (expanded for the prompt's target)."""
    p = getattr(client, "prompt", None)
    if p is None:
        return
    p.update(message, expand(server, client, p.state, text))
    _redraw(client)


def clear(server: Any, client: Any) -> None:
    """status_prompt_clear: the prompt's free callback runs (a waiting command continues)."""
    p = getattr(client, "prompt", None)
    if p is None:
        return
    client.prompt = None
    if p.free is not None:
        p.free()
    a = getattr(client, "attached", None)
    if a is not None:
        a.redraw(full=True)


# -- the message and prompt line (status_message_redraw, status_prompt_redraw) -------------------

def prompt_area(client: Any, sx: int) -> tuple[int, int]:
    """status_prompt_area: where on the line messages and prompts go (message-style's
    width and align)."""
    s = client.session
    sy = s.options.get_style("message-style") if s is not None else None
    width = getattr(sy, "width", -1) if sy is not None else -1
    if width is not None and width >= 0:
        w = sx * width // 100 if getattr(sy, "width_percentage", False) else width
    else:
        w = sx
    if w == 0 or w > sx:
        w = sx
    align = getattr(sy, "align", "default") if sy is not None else "default"
    if align in ("centre", "absolute-centre"):
        return (sx - w) // 2, w
    if align == "right":
        return sx - w, w
    return 0, w


def frozen_by(client: Any) -> bool:
    """TTY_FREEZE: what panes print is not drawn while a message (without display-message
    -C) or a prompt (not incremental, without command-prompt -C) is shown; the client is
    drawn again in full when it goes."""
    p = getattr(client, "prompt", None)
    if p is not None:
        return not p.flags & (INCREMENTAL | NOFREEZE)
    return bool(getattr(client, "message_text", None)) and \
        not getattr(client, "message_no_freeze", False)


def message_line(client: Any, lines: int) -> int:
    """status_prompt_line_at: the status line (message-line, 0 the first) that messages
    and prompts take, the last when there are fewer."""
    s = client.session
    if lines <= 1 or s is None:
        return 0
    try:
        line = int(s.options.get("message-line"))
    except (KeyError, TypeError, ValueError):
        line = 0
    return min(line, lines - 1)


def draw_line(server: Any, client: Any, row: list[Cell]) -> int | None:
    """The message or prompt drawn over its status line ``row``; for a prompt, the column of
    the terminal cursor (shown there), else None."""
    from . import format as F
    from . import status

    sx = len(row)
    ax, aw = prompt_area(client, sx)
    p = getattr(client, "prompt", None)
    if p is not None:
        p.draw(server, client, row, ax, aw)
        return min(p.cursor, sx - 1)
    text = getattr(client, "message_text", None)
    if not text:
        return None
    if getattr(client, "message_ignore_styles", False):
        text = text.replace("#", "##")
    ctx = _context(server, client, None, {"message": text, "command_prompt": "0"})
    s = client.session
    fmt = str(s.options.get("message-format") or "") if s is not None else "#{message}"
    status.overlay(row, ax, F.expand(fmt, ctx, flags=EXPAND_TIME), aw,
                   links=status.client_links(client))
    return None


__all__ = ["History", "Prompt", "clear", "complete", "draw_line", "frozen_by", "history",
           "message_line", "prompt_type", "set_prompt", "update"]
