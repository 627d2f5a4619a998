"""tmux 3.3a's format language (``#{...}``), expanded against a :class:`FormatContext`.

The expander knows the language; the context knows the model. Semantics follow tmux 3.3a
``format.c`` (``format_expand1``, ``format_replace``, ``format_build_modifiers``, ...) including
its quirks: a failed ``#{...}`` ends the whole expansion, ``#{?1,a,b}`` is false (``1`` is looked
up as a name), modifier arguments are expanded, ``s///`` arguments are expanded twice, and so on.

Speed: every format string is parsed once into a small node list (LRU cache keyed by the string);
expanding again only walks the nodes. Nested parts are parsed lazily, so deep or hostile input
costs only what evaluation (bounded by tmux's loop limit of 100) reaches.

Regular expressions (``s/re/sub/``, ``m/r:``) and fnmatch (``m:``) use the C library's POSIX
engines through ctypes when running on glibc with a UTF-8 locale (exactly what tmux uses:
leftmost-longest ERE matching, GNU extensions, identical error cases); otherwise a translation
of POSIX ERE / fnmatch patterns to Python ``re`` is used. Character widths likewise come from the
C library's ``wcwidth`` when it is usable.
"""

from __future__ import annotations

import ctypes
import math
import re
import sys
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Protocol, runtime_checkable

from .options import (
    COLOUR_FLAG_256,
    COLOUR_FLAG_RGB,
    COLOUR_FLAG_THEME,
    colour_fromstring,
    theme_terminal_colour,
)

__all__ = [
    "EXPAND_NOJOBS",
    "EXPAND_TIME",
    "LOOP_LIMIT",
    "DictContext",
    "FormatContext",
    "colour_fromstring",
    "colour_to_rgb",
    "expand",
    "fnmatch",
    "format_true",
    "format_width",
    "regex_search",
    "search_lines",
    "set_engine",
    "trim_left",
    "trim_right",
]

#: Flag for :func:`expand`: pass each (sub)format through strftime first (status line, display -p).
EXPAND_TIME = 0x1
#: Flag for :func:`expand`: ``#(...)`` expands to nothing (tmux's FORMAT_NOJOBS).
EXPAND_NOJOBS = 0x2
#: tmux's FORMAT_LOOP_LIMIT: nesting depth at which expansion gives up and yields "".
LOOP_LIMIT = 100

# Caps where tmux would happily allocate gigabytes (documented divergence).
_PAD_CAP = 1 << 20
_PREC_CAP = 1 << 16

_INT_MIN = -(1 << 31)
_INT_MAX = (1 << 31) - 1
_INT64_MAX = (1 << 63) - 1
_LLONG_MIN = -(1 << 63)


# ---------------------------------------------------------------------------------------------
# The context protocol
# ---------------------------------------------------------------------------------------------


@runtime_checkable
class FormatContext(Protocol):
    """What the expander needs from the model, for one (client, session, window, pane) tuple."""

    def lookup(self, name: str) -> str | None:
        """Value of a variable, option (``@user``, ``status-left``, ``name[idx]``) or environment
        variable, in tmux's ``format_find`` order; None when unknown (expands to "").
        Time variables give their epoch seconds as a decimal string (``t:`` formats them)."""
        ...

    def loop_sessions(self) -> Sequence[tuple[FormatContext, bool]]:
        """Child contexts for ``#{S:...}``, one per session in name order, with "is current"."""
        ...

    def loop_windows(self) -> Sequence[tuple[FormatContext, bool]] | None:
        """Child contexts for ``#{W:...}`` (the session's winlinks by index) with "is current";
        None when there is no session, which makes the ``#{W:}`` fail like tmux."""
        ...

    def loop_panes(self) -> Sequence[tuple[FormatContext, bool]] | None:
        """Child contexts for ``#{P:...}`` (the window's panes in order) with "is active";
        None when there is no window (the ``#{P:}`` fails)."""
        ...

    def session_exists(self, name: str) -> bool:
        """``#{N/s:name}``: is there a session with exactly this name?"""
        ...

    def window_exists(self, name: str) -> bool | None:
        """``#{N:name}``: has the current session a window with this name? None if no session."""
        ...

    def search_pane(self, pattern: str, regex: bool, ignore_case: bool) -> int | None:
        """``#{C:...}``: 1-based number of the first visible line matching (fnmatch ``*pat*`` or
        ERE), 0 if none, None if there is no pane. :func:`search_lines` implements the match."""
        ...

    def run_job(self, command: str) -> str:
        """``#(command)``: the last output line of the (already expanded) shell command, started
        asynchronously and cached by the context; "" until it has output. The expander expands
        the returned text once more, with jobs disabled, as tmux does."""
        ...

    def now(self) -> float:
        """Current time (seconds since the epoch) for strftime expansion and ``t/p:``."""
        ...


def _as_str(v: object) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    return v if isinstance(v, str) else str(v)


def _child_list(items: Sequence[object] | None, parent: DictContext) -> list[tuple[DictContext, bool]] | None:
    if items is None:
        return None
    out: list[tuple[DictContext, bool]] = []
    for it in items:
        if isinstance(it, tuple):
            child, cur = it[0], bool(it[1])
        else:
            child, cur = it, False
        if isinstance(child, Mapping):
            child = DictContext(child)
        if isinstance(child, DictContext) and child.parent is None:
            child.parent = parent
        out.append((child, cur))
    return out


class DictContext:
    """A dict-backed FormatContext for tests and for callers without a model.

    Unknown names fall back to the parent context (children of a loop see their parent's values,
    as tmux loop children still see global options). Loop lists default to the nearest ancestor's.
    """

    def __init__(
        self,
        values: Mapping[str, object] | None = None,
        *,
        sessions: Sequence[object] | None = None,
        windows: Sequence[object] | None = None,
        panes: Sequence[object] | None = None,
        lines: Sequence[str] | None = None,
        jobs: Mapping[str, str] | Callable[[str], str | None] | None = None,
        now: float | Callable[[], float] | None = None,
        parent: DictContext | None = None,
    ) -> None:
        self.values: dict[str, str] = {k: _as_str(v) for k, v in (values or {}).items()}
        self.parent = parent
        self.sessions = _child_list(sessions, self)
        self.windows = _child_list(windows, self)
        self.panes = _child_list(panes, self)
        self.lines = None if lines is None else list(lines)
        self.jobs = jobs
        self._now = now
        #: Commands passed to :meth:`run_job`, for tests.
        self.job_calls: list[str] = []

    def _up(self, attr: str) -> object:
        ctx: DictContext | None = self
        while ctx is not None:
            v = getattr(ctx, attr)
            if v is not None:
                return v
            ctx = ctx.parent
        return None

    def lookup(self, name: str) -> str | None:
        v = self.values.get(name)
        if v is None and self.parent is not None:
            return self.parent.lookup(name)
        return v

    def loop_sessions(self) -> Sequence[tuple[FormatContext, bool]]:
        return self._up("sessions") or []  # type: ignore[return-value]

    def loop_windows(self) -> Sequence[tuple[FormatContext, bool]] | None:
        return self._up("windows")  # type: ignore[return-value]

    def loop_panes(self) -> Sequence[tuple[FormatContext, bool]] | None:
        return self._up("panes")  # type: ignore[return-value]

    def session_exists(self, name: str) -> bool:
        return any(c.lookup("session_name") == name for c, _ in self.loop_sessions())

    def window_exists(self, name: str) -> bool | None:
        wins = self.loop_windows()
        if wins is None:
            return None
        return any(c.lookup("window_name") == name for c, _ in wins)

    def search_pane(self, pattern: str, regex: bool, ignore_case: bool) -> int | None:
        lines = self._up("lines")
        if lines is None:
            return None
        return search_lines(lines, pattern, regex, ignore_case)  # type: ignore[arg-type]

    def run_job(self, command: str) -> str:
        self.job_calls.append(command)
        jobs = self._up("jobs")
        if jobs is None:
            return ""
        if callable(jobs):
            out = jobs(command)
        else:
            out = jobs.get(command)  # type: ignore[union-attr]
        return out or ""

    def now(self) -> float:
        n = self._up("_now")
        if n is None:
            return time.time()
        return float(n()) if callable(n) else float(n)  # type: ignore[arg-type, operator]


# ---------------------------------------------------------------------------------------------
# Small C-library equivalents
# ---------------------------------------------------------------------------------------------

_STRTONUM_RE = re.compile(r"[ \t\n\v\f\r]*([+-]?)0*([0-9]+)\Z")


def _strtonum(s: str, lo: int, hi: int) -> int | None:
    """OpenBSD strtonum: whole string a base-10 integer within [lo, hi], else None."""
    m = _STRTONUM_RE.match(s)
    if m is None:
        return None
    digits = m.group(2)
    if len(digits) > 20:
        return None
    v = int(digits)
    if m.group(1) == "-":
        v = -v
    if v < lo or v > hi:
        return None
    return v


_STRTOD_RE = re.compile(
    r"""[ \t\n\v\f\r]*([+-]?)(?:
        (0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)
      | ((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)
      | ([iI][nN][fF](?:[iI][nN][iI][tT][yY])?)
      | ([nN][aA][nN](?:\([0-9A-Za-z_]*\))?)
    )\Z""",
    re.X,
)


def _strtod(s: str) -> float | None:
    """C strtod requiring the whole string to be consumed (tmux's check); "" is 0."""
    if s == "":
        return 0.0
    m = _STRTOD_RE.match(s)
    if m is None:
        return None
    sign, hexs, dec, inf, _nan = m.groups()
    if hexs is not None:
        try:
            v = float.fromhex(hexs)
        except OverflowError:
            v = math.inf
    elif dec is not None:
        v = float(dec)
    elif inf is not None:
        v = math.inf
    else:
        v = math.nan
    return -v if sign == "-" else v


def _to_ll(x: float) -> float:
    """(double)(long long)x as on x86-64 (out of range and NaN give LLONG_MIN)."""
    if x != x or not (-9.223372036854775808e18 <= x < 9.223372036854775808e18):
        return float(_LLONG_MIN)
    return float(int(x))


_NEG_NAN = -math.nan  # x86's default NaN (0/0, inf-inf) has the sign bit set


def _fmt_double(x: float, prec: int) -> str:
    if prec < 0:
        prec = 6
    if x != x:
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    if x in (math.inf, -math.inf):
        return "inf" if x > 0 else "-inf"
    if prec > 1100:
        # A double has at most 1074 fractional digits; beyond that printf prints zeros.
        return f"{x:.1100f}" + "0" * (min(prec, _PREC_CAP) - 1100)
    return f"{x:.{prec}f}"


def _c_div(a: float, b: float) -> float:
    if b == 0.0:
        if a != a:
            return a
        if a == 0.0:
            return _NEG_NAN
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _c_fmod(a: float, b: float) -> float:
    if a != a:
        return a
    if b != b:
        return b
    if b == 0.0 or a in (math.inf, -math.inf):
        return _NEG_NAN
    return math.fmod(a, b)


def _basename(p: str) -> str:
    """POSIX basename (glibc __xpg_basename)."""
    if p == "":
        return "."
    stripped = p.rstrip("/")
    if stripped == "":
        return "/"
    return stripped.rsplit("/", 1)[-1]


def _dirname(p: str) -> str:
    """glibc dirname, including its "//" special case."""
    last = p.rfind("/")
    if last < 0:
        return "."
    if last != 0 and last == len(p) - 1:
        # Trailing slashes: look for the slash before the last component.
        run = last
        while run > 0 and p[run - 1] == "/":
            run -= 1
        if run > 0:
            last = p.rfind("/", 0, run)
            if last < 0:
                return "."
    run = last
    while run > 0 and p[run - 1] == "/":
        run -= 1
    if run == 0:
        return "//" if last == 1 else "/"
    return p[:run]


_SHELL_SPECIAL = frozenset("|&;<>()$`\\\"'*?[# =%")


def _quote_shell(s: str) -> str:
    if not any(c in _SHELL_SPECIAL for c in s):
        return s
    return "".join("\\" + c if c in _SHELL_SPECIAL else c for c in s)


def _strip_escapes(s: str) -> str:
    """format_strip: drop the # of #, ## #{ #} #: outside nested #{...}."""
    if "#" not in s:
        return s
    out = []
    brackets = 0
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        nxt = s[i + 1] if i + 1 < n else ""
        if c == "#" and nxt == "{":
            brackets += 1
        if c == "#" and nxt != "" and nxt in ",#{}:":
            if brackets != 0:
                out.append(c)
            i += 1
            continue
        if c == "}":
            brackets -= 1
        out.append(c)
        i += 1
    return "".join(out)


def _bytelen(s: str) -> int:
    if s.isascii():
        return len(s)
    try:
        return len(s.encode("utf-8", "surrogateescape"))
    except UnicodeEncodeError:
        return len(s.encode("utf-8", "surrogatepass"))


def _enc(s: str) -> bytes:
    try:
        b = s.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        b = s.encode("utf-8", "surrogatepass")
    k = b.find(b"\0")
    return b if k < 0 else b[:k]  # C strings end at NUL


# ---------------------------------------------------------------------------------------------
# The C library (glibc) through ctypes, when usable
# ---------------------------------------------------------------------------------------------

_REG_EXTENDED, _REG_ICASE, _REG_NOSUB = 1, 2, 8
_FNM_CASEFOLD = 1 << 4


class _Libc:
    """glibc's regcomp/regexec, fnmatch and wcwidth, each enabled only after a self-test."""

    def __init__(self) -> None:
        self.regex = False
        self.fnmatch = False
        self.wcwidth = False
        self.lib: ctypes.CDLL | None = None
        if not sys.platform.startswith("linux"):
            return
        try:
            import locale
            import platform

            if platform.libc_ver()[0] != "glibc":
                return
            lib = ctypes.CDLL(None)
            utf8 = locale.nl_langinfo(locale.CODESET).upper().replace("-", "") == "UTF8"
        except Exception:
            return
        self.lib = lib
        try:
            lib.wcwidth.argtypes = [ctypes.c_int]
            lib.wcwidth.restype = ctypes.c_int
            self.wcwidth = utf8 and lib.wcwidth(0x65E5) == 2 and lib.wcwidth(0x301) == 0
        except Exception:
            self.wcwidth = False
        try:
            lib.fnmatch.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int]
            lib.fnmatch.restype = ctypes.c_int
            self.fnmatch = (utf8 and lib.fnmatch(b"[^a]o*", b"foo", 0) == 0
                            and lib.fnmatch(b"F*", b"foo", _FNM_CASEFOLD) == 0
                            and lib.fnmatch(b"F*", b"foo", 0) != 0)
        except Exception:
            self.fnmatch = False
        try:
            lib.regcomp.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
            lib.regcomp.restype = ctypes.c_int
            lib.regexec.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                                    ctypes.c_void_p, ctypes.c_int]
            lib.regexec.restype = ctypes.c_int
            lib.regfree.argtypes = [ctypes.c_void_p]
            lib.regfree.restype = None
            self.regex = utf8 and self._regex_selftest()
        except Exception:
            self.regex = False

    def _regex_selftest(self) -> bool:
        rx = _CRegex(self, b"(x)|f|fo", _REG_EXTENDED)
        data = ctypes.create_string_buffer(b"afoo")
        m = rx.exec(ctypes.addressof(data), 0)
        return m is not None and m[0] == (1, 3) and m[1] == (-1, -1)


class _CRegex:
    """One compiled regex_t; freed when the object goes away."""

    __slots__ = ("lc", "buf", "ok")

    def __init__(self, lc: _Libc, pattern: bytes, cflags: int) -> None:
        self.lc = lc
        self.buf = ctypes.create_string_buffer(256)  # sizeof(regex_t) is 64 on LP64 glibc
        self.ok = lc.lib.regcomp(self.buf, pattern, cflags) == 0  # type: ignore[union-attr]

    def __del__(self) -> None:
        try:
            if self.ok:
                self.lc.lib.regfree(self.buf)  # type: ignore[union-attr]
        except Exception:
            pass

    def exec(self, addr: int, start: int) -> list[tuple[int, int]] | None:
        pm = (ctypes.c_int * 20)()
        rc = self.lc.lib.regexec(self.buf, addr + start, 10, pm, 0)  # type: ignore[union-attr]
        if rc != 0:
            return None
        return [(pm[2 * i], pm[2 * i + 1]) for i in range(10)]

    def test(self, addr: int) -> bool:
        return self.lc.lib.regexec(self.buf, addr, 0, None, 0) == 0  # type: ignore[union-attr]


_libc_state: _Libc | None = None
#: "auto" (glibc when usable), "libc" or "python": which regex/fnmatch engine to use.
_engine = "auto"


def _libc() -> _Libc:
    global _libc_state
    if _libc_state is None:
        _libc_state = _Libc()
    return _libc_state


def _use_libc_regex() -> bool:
    return _engine != "python" and _libc().regex


def _use_libc_fnmatch() -> bool:
    return _engine != "python" and _libc().fnmatch


def set_engine(name: str) -> None:
    """Select the regex/fnmatch engine: "auto", "libc" or "python" (tests use this)."""
    global _engine
    if name not in ("auto", "libc", "python"):
        raise ValueError(name)
    _engine = name
    _rx_cache.clear()


# ---------------------------------------------------------------------------------------------
# Character width (tmux: utf8_width via wcwidth)
# ---------------------------------------------------------------------------------------------

_WIDTHS: dict[int, int] = {}


def _py_wcwidth(o: int) -> int:
    c = chr(o)
    cat = unicodedata.category(c)
    if cat in ("Cc", "Cs"):
        return -1
    if cat in ("Mn", "Me") or (cat == "Cf" and o != 0xAD) or 0x1160 <= o <= 0x11FF:
        return 0
    if cat == "Cn":
        return -1
    if unicodedata.east_asian_width(c) in ("W", "F"):
        return 2
    return 1


def _cw(ch: str) -> int:
    """Width of a non-ASCII character; -1 when tmux would reject it (not drawn, width 0)."""
    o = ord(ch)
    w = _WIDTHS.get(o)
    if w is None:
        if 0xD800 <= o <= 0xDFFF:
            w = -1
        else:
            lc = _libc()
            w = lc.lib.wcwidth(o) if lc.wcwidth else _py_wcwidth(o)  # type: ignore[union-attr]
            if w > 0xFF:
                w = -1
        _WIDTHS[o] = w
    return w


def _cstrwidth(s: str) -> int:
    """utf8_cstrwidth: printable ASCII 1, other characters their wcwidth, controls 0."""
    if s.isascii():
        if s.isprintable():
            return len(s)
        return sum(1 for c in s if " " <= c < "\x7f")
    w = 0
    for c in s:
        if c < "\x80":
            if " " <= c < "\x7f":
                w += 1
        else:
            cw = _cw(c)
            if cw > 0:
                w += cw
    return w


def _hashes(s: str, i: int, n: int) -> tuple[int, int, int]:
    """format_leading_hashes: (count, width, index to continue from) for a run of #s at i."""
    j = i
    while j < n and s[j] == "#":
        j += 1
    k = j - i
    if j < n and s[j] == "[":
        return k, k // 2, (j if k % 2 == 0 else j - 1)
    return k, (k + 1) // 2, j


def format_width(s: str) -> int:
    """Display width of an expanded format: #[styles] count nothing, ## counts one."""
    if s.isascii() and "#" not in s:
        if s.isprintable():
            return len(s)
        return sum(1 for c in s if " " <= c < "\x7f")
    w = 0
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == "#":
            _k, lw, i = _hashes(s, i, n)
            w += lw
            if i < n and s[i] == "#":
                e = _skip(s, i + 2, "]")
                if e < 0:
                    return 0
                i = e + 1
            continue
        if c < "\x80":
            if " " <= c < "\x7f":
                w += 1
        else:
            cw = _cw(c)
            if cw > 0:
                w += cw
        i += 1
    return w


def trim_left(s: str, limit: int) -> str:
    """format_trim_left: keep the first ``limit`` columns (styles before the cut are kept)."""
    if s.isascii() and "#" not in s and s.isprintable():
        return s[:limit]
    out: list[str] = []
    w = 0
    i, n = 0, len(s)
    while i < n:
        if w >= limit:
            break
        c = s[i]
        if c == "#":
            k, lw, i = _hashes(s, i, n)
            if lw > limit - w:
                lw = limit - w
            if lw:
                out.append("#" if k == 1 else "#" * (2 * lw))
                w += lw
            if i < n and s[i] == "#":
                e = _skip(s, i + 2, "]")
                if e < 0:
                    break
                out.append(s[i:e + 1])
                i = e + 1
            continue
        if c < "\x80":
            if " " <= c < "\x7f":
                if w + 1 <= limit:
                    out.append(c)
                w += 1
        else:
            cw = _cw(c)
            if cw >= 0:
                if w + cw <= limit:
                    out.append(c)
                w += cw
        i += 1
    return "".join(out)


def trim_right(s: str, limit: int) -> str:
    """format_trim_right: keep the last ``limit`` columns (all styles are kept)."""
    total = format_width(s)
    if total <= limit:
        return s
    if s.isascii() and "#" not in s and s.isprintable():
        return s[len(s) - limit:] if limit > 0 else ""
    skip = total - limit
    out: list[str] = []
    w = 0
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == "#":
            k, lw, i = _hashes(s, i, n)
            cwid = lw
            if w <= skip:
                cwid = 0 if skip - w >= cwid else cwid - (skip - w)
            if cwid:
                out.append("#" if k == 1 else "#" * (2 * cwid))
            w += lw
            if i < n and s[i] == "#":
                e = _skip(s, i + 2, "]")
                if e < 0:
                    break
                out.append(s[i:e + 1])
                i = e + 1
            continue
        if c < "\x80":
            if " " <= c < "\x7f":
                if w >= skip:
                    out.append(c)
                w += 1
        else:
            cw = _cw(c)
            if cw >= 0:
                if w >= skip:
                    out.append(c)
                w += cw
        i += 1
    return "".join(out)


def quote_shell_single(s: str) -> str:
    """``q/s``: POSIX single quotes, an embedded quote as ``'\''`` (format_quote_shell_single)."""
    return "'" + s.replace("'", "'\\''") + "'"


def _relative_time(t: int, now: int) -> str | None:
    """``t/r``: the age as ``1d2h``, ``3h4m``, ``5m6s`` or ``7s`` (format_relative_time); nothing
    for a time in the future."""
    if t > now:
        return None
    age = now - t
    if age == 0:
        return "0s"
    d, h, m, sec = age // 86400, (age % 86400) // 3600, (age % 3600) // 60, age % 60
    if d:
        return f"{d}d{h}h" if h else f"{d}d"
    if h:
        return f"{h}h{m}m" if m else f"{h}h"
    if m:
        return f"{m}m{sec}s" if sec else f"{m}m"
    return f"{sec}s"


def _pad(s: str, width: int, right: bool) -> str:
    n = _cstrwidth(s)
    width = min(width, _PAD_CAP)
    if n >= width:
        return s
    fill = " " * (width - n)
    return fill + s if right else s + fill


# ---------------------------------------------------------------------------------------------
# Colours (tmux colour.c: colour_fromstring + colour_force_rgb)
# ---------------------------------------------------------------------------------------------

_CUBE = (0x00, 0x5F, 0x87, 0xAF, 0xD7, 0xFF)
_BASE16 = (0x000000, 0x800000, 0x008000, 0x808000, 0x000080, 0x800080, 0x008080, 0xC0C0C0,
           0x808080, 0xFF0000, 0x00FF00, 0xFFFF00, 0x0000FF, 0xFF00FF, 0x00FFFF, 0xFFFFFF)

def _colour256_rgb(c: int) -> int:
    c &= 0xFF
    if c < 16:
        return _BASE16[c]
    if c >= 232:
        v = 8 + 10 * (c - 232)
        return (v << 16) | (v << 8) | v
    c -= 16
    return (_CUBE[c // 36] << 16) | (_CUBE[(c // 6) % 6] << 8) | _CUBE[c % 6]


def colour_to_rgb(s: str) -> int | None:
    """A colour name as 0xRRGGBB (what ``#{c:...}`` prints), None if not convertible."""
    c = colour_fromstring(s)
    if c == -1:
        return None
    if c & COLOUR_FLAG_RGB:
        return c & 0xFFFFFF
    if c & COLOUR_FLAG_256:
        return _colour256_rgb(c)
    if 0 <= c <= 7:
        return _colour256_rgb(c)
    if 90 <= c <= 97:
        return _colour256_rgb(8 + c - 90)
    return None


def colour_escape(name: str, bg: bool, ctx: object = None) -> str:
    """``#{c/f:colour}`` / ``#{c/b:colour}``: the SGR sequence selecting the colour
    (colour_toescape), ``none`` the attribute reset, "" for no colour. Theme colours resolve
    through the context's client (``theme_colour(n)``) when it has one.

    Like the development tree, indexed and RGB colours are sent as they are whatever the
    client's terminal can show (its depth check never matches); this is characterized, not a
    fallback hmux adds."""
    if name.lower() == "none":
        return "\033[0m"
    c = colour_fromstring(name)
    if c == -1:
        return ""
    o = 40 if bg else 30
    if c & COLOUR_FLAG_THEME:
        fn = getattr(ctx, "theme_colour", None)
        c = fn(c & 0xFF) if fn is not None else theme_terminal_colour(c & 0xFF)
    if c in (8, 9):
        return f"\033[{o + 9}m"
    if c & COLOUR_FLAG_RGB:
        return f"\033[{o + 8};2;{(c >> 16) & 0xFF};{(c >> 8) & 0xFF};{c & 0xFF}m"
    if c & COLOUR_FLAG_256:
        return f"\033[{o + 8};5;{c & 0xFF}m"
    if 0 <= c <= 7:
        return f"\033[{c + o}m"
    if 90 <= c <= 97:
        return f"\033[{c + o - 30}m"
    return ""


# ---------------------------------------------------------------------------------------------
# Time
# ---------------------------------------------------------------------------------------------


def _strftime(fmt: str, tm: time.struct_time, size: int) -> str | None:
    """C strftime into a ``size``-byte buffer: None when it returns 0 (empty or too long)."""
    try:
        s = time.strftime(fmt, tm)
    except (ValueError, UnicodeError, OverflowError):
        return None
    if not s or (len(s) * 4 >= size and _bytelen(s) >= size):
        return None
    return s


def _localtime(t: float) -> time.struct_time | None:
    try:
        return time.localtime(t)
    except (OverflowError, OSError, ValueError):
        return None


def _pretty_time(t: int, now: int) -> str:
    if now < t:
        now = t
    age = now - t
    ntm, tm = _localtime(now), _localtime(t)
    if ntm is None or tm is None:
        return ""
    if age < 24 * 3600:
        fmt = "%H:%M"
    elif (tm.tm_year == ntm.tm_year and tm.tm_mon == ntm.tm_mon) or age < 28 * 24 * 3600:
        fmt = "%a%d"
    elif ((tm.tm_year == ntm.tm_year and tm.tm_mon < ntm.tm_mon)
          or (tm.tm_year == ntm.tm_year - 1 and tm.tm_mon > ntm.tm_mon)):
        fmt = "%d%b"
    else:
        fmt = "%h%y"
    return _strftime(fmt, tm, 6) or ""


# ---------------------------------------------------------------------------------------------
# fnmatch and POSIX ERE (Python fallbacks)
# ---------------------------------------------------------------------------------------------

_CLASSES = {
    "alpha": r"[^\W\d_]", "digit": r"[0-9]", "alnum": r"[^\W_]", "upper": r"[A-Z]",
    "lower": r"[a-z]", "space": r"\s", "blank": r"[ \t]", "punct": r"[!-/:-@\[-`{-~]",
    "print": r"[^\x00-\x1f\x7f]", "graph": r"[^\x00-\x20\x7f]", "cntrl": r"[\x00-\x1f\x7f]",
    "xdigit": r"[0-9A-Fa-f]",
}


def _bracket(p: str, i: int, escapes: bool) -> tuple[str, int] | None | int:
    """Translate a bracket expression starting after ``[`` at i.

    Returns (python regex, index after ``]``); None if unterminated; -1 if invalid."""
    n = len(p)
    neg = False
    if i < n and (p[i] == "^" or (escapes and p[i] == "!")):
        neg = True
        i += 1
    chars: list[str] = []
    classes: list[str] = []
    first = True
    invalid = False
    while True:
        if i >= n:
            return None
        c = p[i]
        if c == "]" and not first:
            i += 1
            break
        first = False
        lo: str | None
        if c == "[" and i + 1 < n and p[i + 1] in ":=.":
            kind = p[i + 1]
            end = p.find(kind + "]", i + 2)
            if end < 0:
                return None
            name = p[i + 2:end]
            i = end + 2
            if kind == ":":
                cls = _CLASSES.get(name)
                if cls is None:
                    invalid = True
                else:
                    classes.append(cls)
                continue
            if len(name) != 1:
                invalid = True
                continue
            lo = name
        elif escapes and c == "\\" and i + 1 < n:
            lo = p[i + 1]
            i += 2
        else:
            lo = c
            i += 1
        if i + 1 < n and p[i] == "-" and p[i + 1] != "]":
            i += 1
            hi = p[i]
            if hi == "[" and i + 1 < n and p[i + 1] in "=.":
                kind = p[i + 1]
                end = p.find(kind + "]", i + 2)
                if end < 0:
                    return None
                hi = p[i + 2:end]
                i = end + 2
                if len(hi) != 1:
                    invalid = True
                    continue
            elif escapes and hi == "\\" and i + 1 < n:
                i += 1
                hi = p[i]
                i += 1
            else:
                i += 1
            if ord(hi) < ord(lo):
                invalid = True
                continue
            chars.append(re.escape(lo) + "-" + re.escape(hi))
        else:
            chars.append(re.escape(lo))
    if invalid:
        return -1
    alts = (["[" + "".join(chars) + "]"] if chars else []) + classes
    if not neg:
        if not classes:
            return alts[0], i
        return "(?:" + "|".join(alts) + ")", i
    if not classes:
        return "[^" + "".join(chars) + "]", i
    return "(?:(?!" + "|".join(alts) + ")(?s:.))", i


@lru_cache(maxsize=256)
def _fnmatch_re(pattern: str, casefold: bool) -> re.Pattern[str] | None:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        i += 1
        if c == "*":
            if not out or out[-1] != ".*":
                out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "\\":
            if i >= n:
                return None  # a trailing backslash never matches
            out.append(re.escape(pattern[i]))
            i += 1
        elif c == "[":
            r = _bracket(pattern, i, True)
            if r is None:
                out.append(re.escape("["))
            elif r == -1:
                return None
            else:
                assert isinstance(r, tuple)
                out.append(r[0])
                i = r[1]
        else:
            out.append(re.escape(c))
    try:
        return re.compile("(?s:" + "".join(out) + r")\Z", re.IGNORECASE if casefold else 0)
    except (re.error, RecursionError, OverflowError):
        return None


def fnmatch(pattern: str, text: str, casefold: bool = False) -> bool:
    """fnmatch(3) with no flags (``*`` matches ``/``), or FNM_CASEFOLD."""
    if _use_libc_fnmatch():
        flags = _FNM_CASEFOLD if casefold else 0
        return _libc().lib.fnmatch(_enc(pattern), _enc(text), flags) == 0  # type: ignore[union-attr]
    rx = _fnmatch_re(pattern, casefold)
    return rx is not None and rx.match(text) is not None


def _ere_translate(p: str) -> tuple[str, bool] | None:
    """POSIX ERE (with GNU extensions) to Python ``re``; None if regcomp would fail.

    The bool says whether the pattern looks at the start position (``^``, ``\\b``, ...), so a
    search from an offset must see a sliced string, as regexec on ``text + start`` does."""
    out: list[str] = []
    stack: list[int] = []
    atom: int | None = None
    quant = False
    closed = 0
    sens = False
    i, n = 0, len(p)
    while i < n:
        c = p[i]
        i += 1
        if c in "*+?{":
            if atom is None:
                return None
            if c == "{":
                m = re.match(r"([0-9]*)(?:(,)([0-9]*))?\}", p[i:])
                if m is None or (m.group(1) == "" and m.group(2) is None):
                    return None
                lo = int(m.group(1) or "0")
                hi = m.group(3)
                if lo > 0x7FFF or (hi and int(hi) > 0x7FFF) or (hi and int(hi) < lo):
                    return None
                if m.group(2) is None:
                    q = f"{{{lo}}}"
                elif hi:
                    q = f"{{{lo},{int(hi)}}}"
                else:
                    q = f"{{{lo},}}"
                i += m.end()
            else:
                q = c
            if quant:
                out[atom:] = ["(?:" + "".join(out[atom:]) + ")"]
            out.append(q)
            quant = True
            continue
        quant = False
        if c == "\\":
            if i >= n:
                return None
            d = p[i]
            i += 1
            if d in "123456789":
                if int(d) > closed:
                    return None
                atom = len(out)
                out.append(f"(?:\\{d})")
            elif d in "wWsS":
                atom = len(out)
                out.append("\\" + d)
            elif d in "bB":
                atom = None
                out.append("\\" + d)
                sens = True
            elif d == "<":
                atom = None
                out.append(r"\b(?=\w)")
                sens = True
            elif d == ">":
                atom = None
                out.append(r"\b(?<=\w)")
                sens = True
            elif d == "`":
                atom = None
                out.append(r"\A")
                sens = True
            elif d == "'":
                atom = None
                out.append(r"\Z")
            else:
                atom = len(out)
                out.append(re.escape(d))
        elif c == "[":
            r = _bracket(p, i, False)
            if not isinstance(r, tuple):
                return None
            atom = len(out)
            out.append(r[0])
            i = r[1]
        elif c == "(":
            stack.append(len(out))
            out.append("(")
            atom = None
        elif c == ")":
            if not stack:
                atom = len(out)
                out.append(r"\)")
            else:
                atom = stack.pop()
                out.append(")")
                closed += 1
        elif c == "|":
            out.append("|")
            atom = None
        elif c == "^":
            out.append("^")
            atom = None
            sens = True
        elif c == "$":
            out.append(r"\Z")
            atom = None
        elif c == ".":
            atom = len(out)
            out.append("(?s:.)")
        else:
            atom = len(out)
            out.append(re.escape(c))
    if stack:
        return None
    return "".join(out), sens


class _PyRegex:
    __slots__ = ("rx", "sens")

    def __init__(self, rx: re.Pattern[str], sens: bool) -> None:
        self.rx = rx
        self.sens = sens

    def spans(self, text: str, start: int) -> list[tuple[int, int]] | None:
        if self.sens:
            m = self.rx.search(text[start:])
            off = 0
        else:
            m = self.rx.search(text, start)
            off = start
        if m is None:
            return None
        ng = min(self.rx.groups, 9)
        out = []
        for g in range(10):
            if g <= ng:
                a, b = m.span(g)
                out.append((a - off, b - off) if a >= 0 else (-1, -1))
            else:
                out.append((-1, -1))
        return out


_rx_cache: OrderedDict[tuple[str, bool, bool], object] = OrderedDict()


def _compile(pattern: str, icase: bool, nosub: bool) -> object | None:
    """A compiled regex (_CRegex or _PyRegex), or None when regcomp would fail."""
    key = (pattern, icase, nosub)
    rx = _rx_cache.get(key, False)
    if rx is not False:
        _rx_cache.move_to_end(key)
        return rx
    if _use_libc_regex():
        flags = _REG_EXTENDED | (_REG_ICASE if icase else 0) | (_REG_NOSUB if nosub else 0)
        c = _CRegex(_libc(), _enc(pattern), flags)
        rx = c if c.ok else None
    else:
        tr = _ere_translate(pattern)
        rx = None
        if tr is not None:
            try:
                rx = _PyRegex(re.compile(tr[0], re.IGNORECASE if icase else 0), tr[1])
            except (re.error, RecursionError, OverflowError):
                rx = None
    _rx_cache[key] = rx
    if len(_rx_cache) > 256:
        _rx_cache.popitem(last=False)
    return rx


def regex_search(pattern: str, text: str, ignore_case: bool = False) -> bool:
    """Does the POSIX ERE match anywhere in text? (False when it does not compile.)"""
    rx = _compile(pattern, ignore_case, True)
    if rx is None:
        return False
    if isinstance(rx, _CRegex):
        buf = ctypes.create_string_buffer(_enc(text))
        return rx.test(ctypes.addressof(buf))
    assert isinstance(rx, _PyRegex)
    return rx.rx.search(text) is not None


def search_lines(lines: Sequence[str], pattern: str, regex: bool, ignore_case: bool) -> int:
    """window_pane_search over already-rendered lines: 1-based first match, 0 for none."""
    if not regex:
        pat = "*" + pattern + "*"
        for i, line in enumerate(lines):
            if fnmatch(pat, line.rstrip(" \t\n\v\f\r"), ignore_case):
                return i + 1
        return 0
    if _compile(pattern, ignore_case, True) is None:
        return 0
    for i, line in enumerate(lines):
        if regex_search(pattern, line.rstrip(" \t\n\v\f\r"), ignore_case):
            return i + 1
    return 0


def _regsub(pattern: str, with_: str, text: str, icase: bool) -> str:
    """tmux regsub(), quirks included (restarts see ``^`` again, empty-match stepping)."""
    if text == "":
        return ""
    if pattern == "":
        return text
    rx = _compile(pattern, icase, False)
    if rx is None:
        return text
    if isinstance(rx, _CRegex):
        subj: str | bytes = _enc(text)
        w: str | bytes = _enc(with_)
        cbuf = ctypes.create_string_buffer(subj)  # type: ignore[arg-type]
        addr = ctypes.addressof(cbuf)

        def search(start: int) -> list[tuple[int, int]] | None:
            return rx.exec(addr, start)  # type: ignore[union-attr]

        digits: str | bytes = b"0123456789"
        bs: str | bytes = b"\\"
        nul: str | bytes = b"\0"
    else:
        assert isinstance(rx, _PyRegex)
        subj, w = text, with_

        def search(start: int) -> list[tuple[int, int]] | None:
            return rx.spans(text, start)  # type: ignore[union-attr]

        digits, bs, nul = "0123456789", "\\", "\0"
    # The replacement as literal pieces and group references (group, literal-if-empty).
    toks: list[object] = []
    k, wn = 0, len(w)
    while k < wn:
        c = w[k:k + 1]
        if c == bs and k + 1 < wn:  # a trailing backslash is kept as it is (tmux 3.7b)
            k += 1
            c = w[k:k + 1]
            if c in digits:  # type: ignore[operator]
                toks.append((int(c), c))
                k += 1
                continue
        toks.append(c)
        k += 1
    out: list[str | bytes] = []
    start = last = 0
    end = len(subj)
    empty = False
    anchored = pattern.startswith("^")
    while start <= end:
        m = search(start)
        if m is None:
            out.append(subj[start:end])
            break
        so, eo = m[0]
        out.append(subj[last:start + so])
        if empty or start + so != last or so != eo:
            for t in toks:
                if isinstance(t, tuple):
                    g, lit = t
                    a, b = m[g]
                    out.append(subj[start + a:start + b] if a != b else lit)
                else:
                    out.append(t)  # type: ignore[arg-type]
            last = start + eo
            start += eo
            empty = False
        else:
            last = start + eo
            start += eo + 1
            empty = True
        if anchored:
            out.append(subj[start:end])
            break
    res = subj[:0].join(out)  # type: ignore[arg-type]
    cut = res.find(nul)  # type: ignore[arg-type]
    if cut >= 0:
        res = res[:cut]
    if isinstance(res, bytes):
        return res.decode("utf-8", "surrogateescape")
    return res


# ---------------------------------------------------------------------------------------------
# Parsing (syntax only; values come at evaluation)
# ---------------------------------------------------------------------------------------------

_SKIP_RES: dict[str, re.Pattern[str]] = {}


def _skip(s: str, i: int, ends: str) -> int:
    """format_skip: index of the first char of ``ends`` outside nested #{...}, or -1."""
    rx = _SKIP_RES.get(ends)
    if rx is None:
        rx = _SKIP_RES[ends] = re.compile("[#}" + re.escape(ends) + "]")
    brackets = 0
    n = len(s)
    search = rx.search
    while True:
        m = search(s, i)
        if m is None:
            return -1
        i = m.start()
        c = s[i]
        if c == "#":
            if i + 1 >= n:
                return -1  # a lone # at the end: nothing after it can be the end
            d = s[i + 1]
            if d == "{":
                brackets += 1
            if d in ",#{}:":
                i += 2
                continue
        elif c == "}":
            brackets -= 1
        if brackets == 0 and c in ends:
            return i
        i += 1


_ALIASES = {"D": "pane_id", "F": "window_flags", "H": "host", "I": "window_index",
            "P": "pane_index", "S": "session_name", "T": "pane_title", "W": "window_name",
            "h": "host_short"}
_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_NOARG = frozenset("labcdnwETSWPL!<>OV")
# tmux 3.7b's modifiers taking arguments, plus the development tree's I (client terminal
# queries), O and V (loops over options and environment) and c with arguments (c/f, c/b): none
# was a modifier in 3.7b, so a format using them was a variable name there
# (docs/extensions.md).
_WITHARG = frozenset("mCLNPSst=pReqWIcOV")
_TWO = frozenset(("||", "&&", "!!", "!=", "==", "<=", ">="))
_ENDS = (";", ":")


class _Tpl:
    """A string handed to format_expand1, parsed on first use."""

    __slots__ = ("raw", "pct", "nodes", "const")

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.pct = "%" in raw
        self.nodes: list[object] | None = None
        self.const: str | None = raw if "#" not in raw else None

    def parse(self) -> list[object]:
        nodes = self.nodes = _parse_nodes(self.raw)
        if not nodes:
            self.const = ""
        elif len(nodes) == 1 and type(nodes[0]) is str:
            self.const = nodes[0]  # type: ignore[assignment]
        return nodes


def _parse_nodes(s: str) -> list[object]:
    """format_expand1's scan: literal text, #{...}, #(...), ## / #, / #} escapes, aliases.

    As tmux 3.7b: a lone ``#`` at the end is dropped, and single-letter aliases are not
    expanded inside a ``#[...]`` style (``#[fg=#S]`` keeps its ``#S``).
    """
    nodes: list[object] = []
    lit: list[str] = []

    def flush() -> None:
        if lit:
            nodes.append("".join(lit))
            lit.clear()

    style_end = -1  # index of the "]" closing the last #[ seen
    i, n = 0, len(s)
    while i < n:
        j = s.find("#", i)
        if j < 0:
            lit.append(s[i:])
            break
        if j > i:
            lit.append(s[i:j])
        i = j + 1
        if i >= n:
            break
        ch = s[i]
        i += 1
        if ch == "(":
            depth = 1
            k = i
            while k < n:
                c = s[k]
                if c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            if k >= n:
                break  # unterminated: expansion stops
            flush()
            nodes.append(_Job(s[i:k]))
            i = k + 1
        elif ch == "{":
            e = _skip(s, i - 2, "}")
            if e < 0:
                break
            flush()
            nodes.append(_make_replace(s[i:e]))
            i = e + 1
        elif ch == "#" or ch == "[":
            k = i - 1 if ch == "[" else i
            while k < n and s[k] == "#":
                k += 1
            if k < n and s[k] == "[":
                style_end = _skip(s, i - 2, "]")
                lit.append(s[i - 2:k + 1])
                i = k + 1
            else:
                lit.append("#")
        elif ch == "}" or ch == ",":
            lit.append(ch)
        else:
            alias = _ALIASES.get(ch) if style_end < 0 or i > style_end else None
            if alias is None:
                lit.append("#" + ch)
            else:
                flush()
                nodes.append(_Var(alias))
    flush()
    return nodes


def _build_modifiers(key: str) -> tuple[list[tuple[str, tuple[_Tpl, ...]]], int] | None:
    """format_build_modifiers: the modifier list and where the rest starts, or None."""
    mods: list[tuple[str, tuple[_Tpl, ...]]] = []
    i, n = 0, len(key)
    while i < n and key[i] != ":":
        if key[i] == ";":
            i += 1
            if i >= n:
                return None
        c = key[i]
        c1 = key[i + 1] if i + 1 < n else ""
        if c in _NOARG and c1 in _ENDS and c1:
            mods.append((c, ()))
            i += 1
            continue
        two = key[i:i + 2]
        if two in _TWO and i + 2 < n and key[i + 2] in _ENDS:
            mods.append((two, ()))
            i += 2
            continue
        if c not in _WITHARG:
            break
        if c1 and c1 in _ENDS:
            mods.append((c, ()))
            i += 1
            continue
        if c1 == "":
            return None
        if c1 not in _PUNCT or c1 == "-":
            e = _skip(key, i + 1, ":;")
            if e < 0:
                break
            mods.append((c, (_Tpl(key[i + 1:e]),)))
            i = e
            continue
        last = c1 + ";:"
        i += 1
        args: list[_Tpl] = []
        while True:
            if key[i] == c1 and i + 1 < n and key[i + 1] in _ENDS:
                i += 1
                break
            e = _skip(key, i + 1, last)
            if e < 0:
                break
            i += 1
            args.append(_Tpl(key[i:e]))
            i = e
            if key[i] in _ENDS:
                break
        mods.append((c, tuple(args)))
    if i >= n or key[i] != ":":
        return None
    return mods, i + 1


def _make_replace(key: str) -> object:
    if ":" not in key and not key.startswith("?") and "#{" not in key:
        return _Var(key)
    return _Replace(key)


# Modifier flags (tmux FORMAT_* modifier bits).
_M_TIMESTRING, _M_BASENAME, _M_DIRNAME, _M_QUOTE_SHELL = 0x1, 0x2, 0x4, 0x8
_M_LITERAL, _M_EXPAND, _M_EXPANDTIME, _M_SESSIONS = 0x10, 0x20, 0x40, 0x80
_M_WINDOWS, _M_PANES, _M_PRETTY, _M_LENGTH = 0x100, 0x200, 0x400, 0x800
_M_WIDTH, _M_QUOTE_STYLE, _M_WINDOW_NAME, _M_SESSION_NAME = 0x1000, 0x2000, 0x4000, 0x8000
_M_CHARACTER, _M_COLOUR, _M_CLIENTS, _M_NOT = 0x10000, 0x20000, 0x40000, 0x80000
_M_NOT_NOT, _M_REPEAT, _M_QUOTE_ARGS = 0x100000, 0x200000, 0x400000
# The development tree's additions (extension modifiers, docs/extensions.md).
_M_RELATIVE, _M_DIFFERENCE, _M_QUOTE_SHELL_SQ = 0x800000, 0x1000000, 0x2000000
_M_COLOUR_FG, _M_COLOUR_BG, _M_CLIENT_INFO = 0x4000000, 0x8000000, 0x10000000
_M_OPTIONS, _M_ENVIRON = 0x20000000, 0x40000000

_SIMPLE_FLAGS = {"l": _M_LITERAL, "a": _M_CHARACTER, "b": _M_BASENAME, "c": _M_COLOUR,
                 "d": _M_DIRNAME, "n": _M_LENGTH, "w": _M_WIDTH, "E": _M_EXPAND,
                 "T": _M_EXPANDTIME, "!": _M_NOT, "R": _M_REPEAT}

#: tmux 3.7b's limits: padding and trimming widths, #{R:} counts and e| precision.
_MAX_WIDTH = 10000
_MAX_REPEAT = 10000
_MAX_PRECISION = 100

# Loop sort orders (sort.c's SORT_ORDER, SORT_INDEX, SORT_NAME, SORT_ACTIVITY, SORT_CREATION,
# and the development tree's SORT_Z for P/z).
_ORDER, _INDEX, _NAME, _ACTIVITY, _CREATION, _Z = range(6)


def _loop_sort(vals: list[str], default: int, index: int) -> tuple[int, bool]:
    """The sort of an S:, W: or L: loop from its flags (i, n, t and r)."""
    if not vals:
        return default, False
    f = vals[0]
    if "i" in f:
        order = index
    elif "n" in f:
        order = _NAME
    elif "t" in f:
        order = _ACTIVITY
    else:
        order = index
    return order, "r" in f


# ---------------------------------------------------------------------------------------------
# Evaluation
# ---------------------------------------------------------------------------------------------



class _State:
    """format_expand_state: context, nesting count, flags and the strftime time."""

    __slots__ = ("ctx", "loop", "flags", "tm")

    def __init__(self, ctx: FormatContext, flags: int, loop: int = 0,
                 tm: time.struct_time | None = None) -> None:
        self.ctx = ctx
        self.flags = flags
        self.loop = loop
        self.tm = tm

    def copy(self, ctx: FormatContext | None = None, add: int = 0) -> _State:
        return _State(self.ctx if ctx is None else ctx, self.flags | add, self.loop, self.tm)


def _expand1(st: _State, tpl: _Tpl) -> str:
    """format_expand1."""
    if st.loop >= LOOP_LIMIT or not tpl.raw:
        return ""
    if st.flags & EXPAND_TIME and tpl.pct:
        st.loop += 1
        if st.tm is None:
            st.tm = _localtime(int(st.ctx.now())) or time.localtime(0)
        s = _strftime(tpl.raw, st.tm, 8192)
        if s is None:
            return ""  # tmux returns without undoing its loop count
        tpl = _parse(s)
        if tpl.const is not None:
            st.loop -= 1
            return tpl.const
    else:
        c = tpl.const
        if c is not None:
            return c
        st.loop += 1
    nodes = tpl.nodes
    if nodes is None:
        nodes = tpl.parse()
        if tpl.const is not None:
            st.loop -= 1
            return tpl.const
    if len(nodes) == 1:
        v = nodes[0].ev(st)  # type: ignore[attr-defined]
        st.loop -= 1
        return "" if v is None else v
    parts = []
    for node in nodes:
        if type(node) is str:
            parts.append(node)
        else:
            v = node.ev(st)  # type: ignore[attr-defined]
            if v is None:
                break
            parts.append(v)
    st.loop -= 1
    return "".join(parts)


def _parse_uncached(s: str) -> _Tpl:
    t = _Tpl(s)
    if t.const is None:
        t.parse()
    return t


_parse_cached = lru_cache(maxsize=4096)(_parse_uncached)


def _parse(s: str) -> _Tpl:
    return _parse_cached(s) if len(s) <= 4096 else _parse_uncached(s)


class _Var:
    """A plain ``#{name}`` or alias: just a lookup."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def ev(self, st: _State) -> str:
        v = st.ctx.lookup(self.name)
        return "" if v is None else v


class _Job:
    """``#(command)``."""

    __slots__ = ("tpl",)

    def __init__(self, cmd: str) -> None:
        self.tpl = _Tpl(cmd)

    def ev(self, st: _State) -> str:
        if st.flags & EXPAND_NOJOBS:
            return ""
        nst = st.copy(add=EXPAND_NOJOBS)
        nst.flags &= ~EXPAND_TIME
        expanded = _expand1(nst, self.tpl)
        out = st.ctx.run_job(expanded)
        if not out:
            return ""
        return _expand1(nst, _parse(out))


def _find(st: _State, key: str, modifiers: int, time_format: str | None) -> str | None:
    """format_find plus the value-level modifiers (t: b: d: q:)."""
    v = st.ctx.lookup(key)
    if v is None or not modifiers:
        return v
    if modifiers & _M_TIMESTRING:
        t = _strtonum(v, 0, _INT64_MAX) or 0
        if t == 0:
            return None
        if modifiers & _M_RELATIVE:
            return _relative_time(t, int(st.ctx.now()))
        if modifiers & _M_DIFFERENCE:
            return str(int(st.ctx.now()) - t)
        if modifiers & _M_PRETTY:
            return _pretty_time(t, int(st.ctx.now()))
        tm = _localtime(t)
        if tm is None:
            return ""
        if time_format is not None:
            return _strftime(time_format, tm, 512) or ""
        try:
            return time.asctime(tm)
        except (ValueError, OverflowError):
            return ""
    if modifiers & _M_BASENAME:
        v = _basename(v)
    if modifiers & _M_DIRNAME:
        v = _dirname(v)
    if modifiers & _M_QUOTE_SHELL:
        v = _quote_shell(v)
    if modifiers & _M_QUOTE_SHELL_SQ:
        v = quote_shell_single(v)
    if modifiers & _M_QUOTE_STYLE:
        v = v.replace("#", "##")
    if modifiers & _M_QUOTE_ARGS:
        from .commands.grammar import args_escape

        v = args_escape(v)
    return v


def format_true(s: str | None) -> bool:
    """tmux's truth: set, non-empty and not "0"."""
    return bool(s) and s != "0"


# What a #{...} does, decided from its modifiers in format_replace's order of precedence.
(_K_PLAIN, _K_INNER, _K_COND, _K_CMP, _K_EXPR, _K_LITERAL, _K_CHAR, _K_COLOUR, _K_SESSIONS,
 _K_WINDOWS, _K_PANES, _K_CLIENTS, _K_WNAME, _K_SNAME, _K_SEARCH, _K_REPEAT, _K_NOT,
 _K_NOT_NOT, _K_BOOL, _K_CLIENT_INFO, _K_OPTIONS, _K_ENVIRON) = range(22)
_POST = _M_EXPAND | _M_EXPANDTIME | _M_LENGTH | _M_WIDTH


class _Spec:
    """The modifier list folded into flags and values (the first loop of format_replace)."""

    __slots__ = ("modifiers", "limit", "width", "marker", "time_format", "cmp", "cmp_flags",
                 "search", "mexp", "subs", "kind", "post", "bool_and", "sort", "client_info",
                 "loop_flags")

    def __init__(self, mods: list[tuple[str, tuple[_Tpl, ...]]], allvals: list[list[str]],
                 copy: str) -> None:
        modifiers = limit = width = 0
        marker = time_format = None
        cmp = cmp_flags = None
        search: list[str] | None = None
        mexp: list[str] | None = None
        subs: list[list[str]] = []
        bool_and: bool | None = None
        sort = (_ORDER, False)
        client_info = ""
        loop_flags = ""
        for (name, _args), vals in zip(mods, allvals, strict=False):
            if len(name) == 2:
                if name == "||" or name == "&&":
                    bool_and = name == "&&"
                elif name == "!!":
                    modifiers |= _M_NOT_NOT
                else:
                    cmp, cmp_flags = name, ""
                continue
            f = _SIMPLE_FLAGS.get(name)
            if f is not None:
                modifiers |= f
                if name == "c" and vals:  # c/f and c/b: an SGR sequence for the colour
                    if "f" in vals[0]:
                        modifiers |= _M_COLOUR_FG
                    if "b" in vals[0]:
                        modifiers |= _M_COLOUR_BG
            elif name == "I":  # I/f, I/c, I/e: the client's features, capabilities, environ
                if vals:
                    client_info = "".join(k for k in "fce" if k in vals[0])
                    if client_info:
                        modifiers |= _M_CLIENT_INFO
            elif name in "m<>":
                cmp, cmp_flags = name, (vals[0] if vals else "")
            elif name == "C":
                search = vals
            elif name == "s":
                if len(vals) >= 2:
                    subs.append(vals)
            elif name == "=":
                if vals:
                    limit = _strtonum(vals[0], -_MAX_WIDTH, _MAX_WIDTH) or 0
                    if len(vals) >= 2:
                        marker = vals[1]
            elif name == "p":
                if vals:
                    width = _strtonum(vals[0], -_MAX_WIDTH, _MAX_WIDTH) or 0
            elif name == "e":
                if 1 <= len(vals) <= 3:
                    mexp = vals
            elif name == "t":
                modifiers |= _M_TIMESTRING
                if vals:
                    if "p" in vals[0]:
                        modifiers |= _M_PRETTY
                    elif "r" in vals[0]:  # t/r and t/d: the development tree's additions
                        modifiers |= _M_RELATIVE
                    elif "d" in vals[0]:
                        modifiers |= _M_DIFFERENCE
                    elif len(vals) >= 2 and "f" in vals[0]:
                        time_format = _strip_escapes(vals[1])
            elif name == "q":
                if not vals:
                    modifiers |= _M_QUOTE_SHELL
                elif "e" in vals[0] or "h" in vals[0]:
                    modifiers |= _M_QUOTE_STYLE
                elif "a" in vals[0]:
                    modifiers |= _M_QUOTE_ARGS
                elif "s" in vals[0]:
                    # q/s (POSIX single quotes), an addition: checked after the letters 3.7b
                    # knows so q/se, q/sa keep 3.7b's meaning (the development tree checks s
                    # first).
                    modifiers |= _M_QUOTE_SHELL_SQ
            elif name == "N":
                if not vals or "w" in vals[0]:
                    modifiers |= _M_WINDOW_NAME
                elif "s" in vals[0]:
                    modifiers |= _M_SESSION_NAME
            elif name == "S":
                modifiers |= _M_SESSIONS
                sort = _loop_sort(vals, _INDEX, _INDEX)
            elif name == "W":
                modifiers |= _M_WINDOWS
                sort = _loop_sort(vals, _ORDER, _ORDER)
            elif name == "P":
                modifiers |= _M_PANES
                # P/i (pane index) and P/z (z-order) are additions; 3.7b ignored both letters.
                order = _CREATION
                if vals and "i" in vals[0]:
                    order = _INDEX
                elif vals and "z" in vals[0]:
                    order = _Z
                sort = (order, bool(vals) and "r" in vals[0])
            elif name == "L":
                modifiers |= _M_CLIENTS
                sort = _loop_sort(vals, _ORDER, _ORDER)
            elif name == "O" or name == "V":  # beyond 3.7b: loops over options, environment
                modifiers |= _M_OPTIONS if name == "O" else _M_ENVIRON
                loop_flags = vals[0] if len(vals) == 1 else ""
        if modifiers & _M_CLIENT_INFO:
            kind = _K_CLIENT_INFO
        elif modifiers & _M_LITERAL:
            kind = _K_LITERAL
        elif modifiers & _M_CHARACTER:
            kind = _K_CHAR
        elif modifiers & _M_COLOUR:
            kind = _K_COLOUR
        elif modifiers & _M_SESSIONS:
            kind = _K_SESSIONS
        elif modifiers & _M_WINDOWS:
            kind = _K_WINDOWS
        elif modifiers & _M_PANES:
            kind = _K_PANES
        elif modifiers & _M_CLIENTS:
            kind = _K_CLIENTS
        elif modifiers & _M_OPTIONS:
            kind = _K_OPTIONS
        elif modifiers & _M_ENVIRON:
            kind = _K_ENVIRON
        elif modifiers & _M_WINDOW_NAME:
            kind = _K_WNAME
        elif modifiers & _M_SESSION_NAME:
            kind = _K_SNAME
        elif search is not None:
            kind = _K_SEARCH
        elif modifiers & _M_REPEAT:
            kind = _K_REPEAT
        elif modifiers & _M_NOT:
            kind = _K_NOT
        elif modifiers & _M_NOT_NOT:
            kind = _K_NOT_NOT
        elif bool_and is not None:
            kind = _K_BOOL
        elif cmp is not None:
            kind = _K_CMP
        elif copy[:1] == "?":
            kind = _K_COND
        elif mexp is not None:
            kind = _K_EXPR
        elif "#{" in copy:
            kind = _K_INNER
        else:
            kind = _K_PLAIN
        self.modifiers = modifiers
        self.limit = limit
        self.width = width
        self.marker = marker
        self.time_format = time_format
        self.cmp = cmp
        self.cmp_flags = cmp_flags or ""
        self.search = search
        self.mexp = mexp
        self.subs = subs
        self.kind = kind
        self.bool_and = bool_and
        self.sort = sort
        self.client_info = client_info
        self.loop_flags = loop_flags
        self.post = bool(modifiers & _POST or subs or limit or width)


_UNSET = object()


def _split_commas(s: str) -> list[str]:
    """``s`` cut at every comma outside nested #{...} (format_skip(",") repeatedly)."""
    out = []
    start = 0
    while True:
        cp = _skip(s, start, ",")
        if cp < 0:
            out.append(s[start:])
            return out
        out.append(s[start:cp])
        start = cp + 1


def _unescape(s: str) -> str:
    """format_unescape (the l: modifier): #, ## #{ #} #: lose their # outside nested #{}."""
    if "#" not in s:
        return s
    out = []
    brackets = 0
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        nxt = s[i + 1] if i + 1 < n else ""
        if c == "#" and nxt == "{":
            brackets += 1
        if brackets == 0 and c == "#" and nxt != "" and nxt in ",#{}:":
            out.append(nxt)
            i += 2
            continue
        if c == "}":
            brackets -= 1
        out.append(c)
        i += 1
    return "".join(out)


class _LoopChild:
    """A loop item's context: the item's own context plus what the loop adds (tmux gives each
    item a new format tree: ``loop_last_flag``, and in W: the neighbour variables)."""

    __slots__ = ("inner", "extra")

    def __init__(self, inner: FormatContext, extra: dict[str, str]) -> None:
        self.inner = inner
        self.extra = extra

    def lookup(self, name: str) -> str | None:
        v = self.extra.get(name)
        return v if v is not None else self.inner.lookup(name)

    def loop_sessions(self) -> Sequence[tuple[FormatContext, bool]]:
        return self.inner.loop_sessions()

    def loop_windows(self) -> Sequence[tuple[FormatContext, bool]] | None:
        return self.inner.loop_windows()

    def loop_panes(self) -> Sequence[tuple[FormatContext, bool]] | None:
        return self.inner.loop_panes()

    def loop_clients(self) -> Sequence[FormatContext]:
        fn = getattr(self.inner, "loop_clients", None)
        return fn() if fn is not None else ()

    def window_user_options(self) -> Mapping[str, str]:
        fn = getattr(self.inner, "window_user_options", None)
        return fn() if fn is not None else {}

    def session_exists(self, name: str) -> bool:
        return self.inner.session_exists(name)

    def window_exists(self, name: str) -> bool | None:
        return self.inner.window_exists(name)

    def search_pane(self, pattern: str, regex: bool, ignore_case: bool) -> int | None:
        return self.inner.search_pane(pattern, regex, ignore_case)

    def run_job(self, command: str) -> str:
        return self.inner.run_job(command)

    def now(self) -> float:
        return self.inner.now()

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


def _num(ctx: FormatContext, name: str, strip: int = 0) -> int:
    v = ctx.lookup(name)
    try:
        return int(v[strip:]) if v else 0
    except ValueError:
        return 0


def _text(ctx: FormatContext, name: str) -> str:
    return ctx.lookup(name) or ""


#: Per loop: (the sort keys by order, the name that breaks ties) as sort.c compares them.
_SORT_KEYS: dict[str, tuple[dict[int, Callable[[FormatContext], object]], str]] = {
    "S": ({_INDEX: lambda c: _num(c, "session_id", 1), _NAME: lambda c: _text(c, "session_name"),
           _ACTIVITY: lambda c: -_num(c, "session_activity")}, "session_name"),
    "W": ({_NAME: lambda c: _text(c, "window_name"),
           _ACTIVITY: lambda c: -_num(c, "window_activity")}, "window_name"),
    "P": ({_CREATION: lambda c: _num(c, "pane_id", 1), _INDEX: lambda c: _num(c, "pane_index"),
           _Z: lambda c: _num(c, "pane_z")}, "pane_title"),
    "L": ({_NAME: lambda c: _text(c, "client_name"),
           _ACTIVITY: lambda c: -_num(c, "client_activity")}, "client_name"),
}


def _sort_items(which: str, items: Sequence[tuple[FormatContext, bool]],
                sort: tuple[int, bool]) -> list[tuple[FormatContext, bool]]:
    """sort_qsort: the model's order (reversed with r) or sorted by a key then by name."""
    order, reverse = sort
    if order == _ORDER:
        return list(reversed(items)) if reverse else list(items)
    keys, tiebreak = _SORT_KEYS[which]
    key = keys.get(order)

    def full(item: tuple[FormatContext, bool]) -> tuple[object, str]:
        ctx = item[0]
        return (key(ctx) if key is not None else 0, _text(ctx, tiebreak))

    return sorted(items, key=full, reverse=reverse)


class _Replace:
    """One ``#{...}`` with modifiers, a conditional, a comparison or a loop (format_replace)."""

    __slots__ = ("key", "mods", "copy", "static", "_tpl", "_pair", "_cond")

    def __init__(self, key: str) -> None:
        self.key = key
        built = _build_modifiers(key)
        if built is None:
            self.mods: list[tuple[str, tuple[_Tpl, ...]]] = []
            self.copy = key
        else:
            self.mods, rest = built
            self.copy = key[rest:]
        self._tpl: _Tpl | None = None
        self._pair: object = _UNSET
        self._cond: object = _UNSET
        # Modifier arguments without # or % expand to themselves: fold them once, here.
        self.static: _Spec | None = None
        if all(a.const is not None and not a.pct for _n, args in self.mods for a in args):
            self.static = _Spec(self.mods, [[a.raw for a in args] for _n, args in self.mods],
                                self.copy)

    def tpl(self) -> _Tpl:
        t = self._tpl
        if t is None:
            t = self._tpl = _Tpl(self.copy)
        return t

    def pair(self) -> tuple[_Tpl, _Tpl] | None:
        """format_choose on the rest: (left, right) split at the first top-level comma."""
        p = self._pair
        if p is _UNSET:
            cp = _skip(self.copy, 0, ",")
            p = self._pair = None if cp < 0 else (_Tpl(self.copy[:cp]), _Tpl(self.copy[cp + 1:]))
        return p  # type: ignore[return-value]

    def cond(self) -> list[tuple[str, _Tpl]]:
        """``?c1,v1,c2,v2,...,default``: the comma-separated parts (text and template)."""
        c = self._cond
        if c is _UNSET:
            c = self._cond = [(part, _Tpl(part)) for part in _split_commas(self.copy[1:])]
        return c  # type: ignore[return-value]

    def ev(self, st: _State) -> str | None:
        spec = self.static
        if spec is None or st.loop >= LOOP_LIMIT:
            spec = _Spec(self.mods,
                         [[_expand1(st, a) for a in args] for _n, args in self.mods], self.copy)
        kind = spec.kind
        value: str | None
        if kind == _K_PLAIN:
            value = _find(st, self.copy, spec.modifiers, spec.time_format)
            if value is None:
                value = ""
        elif kind == _K_COND:
            value = self._conditional(st, spec)
        elif kind == _K_INNER:
            value = _expand1(st, self.tpl())
        else:
            value = self._other(st, spec)
            if value is None:
                return None
        if not spec.post:
            return value
        return _post(st, spec, value)

    def _conditional(self, st: _State, spec: _Spec) -> str:
        """Each (condition, value) pair in turn; else the last unpaired part, else ""."""
        parts = self.cond()
        last = len(parts) - 1
        i = 0
        while True:
            if i == last:
                return _expand1(st, parts[i][1])
            condition, ctpl = parts[i]
            found = _find(st, condition, spec.modifiers, spec.time_format)
            if found is None:
                found = _expand1(st, ctpl)
                if found == condition:
                    found = ""
            i += 1
            if format_true(found):
                return _expand1(st, parts[i][1])
            if i == last:
                return ""
            i += 1

    def _loop(self, st: _State, spec: _Spec, which: str,
              items: Sequence[tuple[FormatContext, bool]]) -> str:
        """format_loop_sessions/windows/panes: each item expanded in its own context, the
        current one with the part after the comma if there is one."""
        pair = self.pair()
        every, active = pair if pair is not None else (self.tpl(), None)
        ordered = _sort_items(which, items, spec.sort)
        parent_last = st.ctx.lookup("loop_last_flag") == "1"
        n = len(ordered)
        out = []
        for i, (child, cur) in enumerate(ordered):
            extra = {"loop_index": str(i),
                     "loop_last_flag": "1" if parent_last or i == n - 1 else "0"}
            if which == "W":
                extra["window_after_active"] = "1" if i > 0 and ordered[i - 1][1] else "0"
                extra["window_before_active"] = "1" if i + 1 < n and ordered[i + 1][1] else "0"
                if i + 1 < n:
                    _add_neighbour(extra, ordered[i + 1], "next")
                if i > 0:
                    _add_neighbour(extra, ordered[i - 1], "prev")
            ctx = _LoopChild(child, extra)
            out.append(_expand1(st.copy(ctx), active if (active is not None and cur) else every))
        return "".join(out)

    def _other(self, st: _State, spec: _Spec) -> str | None:
        kind = spec.kind
        ctx = st.ctx
        if kind == _K_CMP:
            pair = self.pair()
            if pair is None:
                return None
            left = _expand1(st, pair[0])
            right = _expand1(st, pair[1])
            op = spec.cmp
            if op == "==":
                r = left == right
            elif op == "!=":
                r = left != right
            elif op == "<":
                r = left < right
            elif op == ">":
                r = left > right
            elif op == "<=":
                r = left <= right
            elif op == ">=":
                r = left >= right
            elif "p" in spec.cmp_flags or "z" in spec.cmp_flags:
                # m/p and m/z: the fuzzy matcher (additions: 3.7b ignored both letters)
                from .fuzzy import match_format

                return match_format(left, right, "p" in spec.cmp_flags)
            elif "r" not in spec.cmp_flags:  # m
                r = fnmatch(left, right, "i" in spec.cmp_flags)
            else:
                r = regex_search(left, right, "i" in spec.cmp_flags)
            return "1" if r else "0"
        if kind == _K_BOOL:
            want = bool(spec.bool_and)
            result = want
            for part in _split_commas(self.copy):
                result = format_true(_expand1(st, _parse(part)))
                if result != want:
                    break
            return "1" if result else "0"
        if kind == _K_NOT or kind == _K_NOT_NOT:
            r = format_true(_expand1(st, self.tpl()))
            return "1" if r != (kind == _K_NOT) else "0"
        if kind == _K_EXPR:
            return self._expression(st, spec.mexp)  # type: ignore[arg-type]
        if kind == _K_LITERAL:
            return _unescape(self.copy)
        if kind == _K_CHAR:
            c = _strtonum(_expand1(st, self.tpl()), 32, 126)
            return "" if c is None else chr(c)
        if kind == _K_COLOUR:
            name = _expand1(st, self.tpl())
            if spec.modifiers & (_M_COLOUR_FG | _M_COLOUR_BG):
                return colour_escape(name, bool(spec.modifiers & _M_COLOUR_BG), ctx)
            rgb = colour_to_rgb(name)
            return "" if rgb is None else f"{rgb:06x}"
        if kind == _K_CLIENT_INFO:
            fn = getattr(ctx, "client_info", None)
            if fn is None:
                return ""
            return fn(spec.client_info, self.copy)
        if kind == _K_SESSIONS:
            return self._loop(st, spec, "S", ctx.loop_sessions())
        if kind == _K_WINDOWS:
            items = ctx.loop_windows()
            return None if items is None else self._loop(st, spec, "W", items)
        if kind == _K_PANES:
            items = ctx.loop_panes()
            return None if items is None else self._loop(st, spec, "P", items)
        if kind == _K_OPTIONS or kind == _K_ENVIRON:
            # O: and V: (the development tree's): each item's variables over this context
            fn = getattr(ctx, "loop_options" if kind == _K_OPTIONS else "loop_environ", None)
            items = fn(spec.loop_flags) if fn is not None else None
            if not items:
                return ""
            tpl = self.tpl()
            return "".join(_expand1(st.copy(_LoopChild(ctx, extra)), tpl) for extra in items)
        if kind == _K_CLIENTS:
            fn = getattr(ctx, "loop_clients", None)
            clients = [(c, False) for c in fn()] if fn is not None else []
            ordered = _sort_items("L", clients, spec.sort)
            parent_last = ctx.lookup("loop_last_flag") == "1"
            tpl = self.tpl()
            n = len(ordered)
            return "".join(
                _expand1(st.copy(_LoopChild(c, {
                    "loop_index": str(i),
                    "loop_last_flag": "1" if parent_last or i == n - 1 else "0"})), tpl)
                for i, (c, _cur) in enumerate(ordered))
        if kind == _K_WNAME:
            found = ctx.window_exists(_expand1(st, self.tpl()))
            if found is None:
                return None
            return "1" if found else "0"
        if kind == _K_SNAME:
            return "1" if ctx.session_exists(_expand1(st, self.tpl())) else "0"
        if kind == _K_REPEAT:
            pair = self.pair()
            if pair is None:
                return None
            left = _expand1(st, pair[0])
            count = _strtonum(_expand1(st, pair[1]), 1, _MAX_REPEAT)
            return "" if count is None else left * count
        # _K_SEARCH
        term = _expand1(st, self.tpl())
        flags = spec.search[0] if spec.search else ""
        line = ctx.search_pane(term, "r" in flags, "i" in flags)
        return "0" if line is None else str(int(line))

    def _expression(self, st: _State, vals: list[str]) -> str:
        """format_replace_expression; any error gives ""."""
        op = vals[0]
        if op not in ("+", "-", "*", "/", "%", "m", "==", "!=", ">", "<", ">=", "<="):
            return ""
        use_fp = len(vals) >= 2 and "f" in vals[1]
        prec = 2 if use_fp else 0
        if len(vals) >= 3:
            p = _strtonum(vals[2], -_MAX_PRECISION, _MAX_PRECISION)
            if p is None:
                return ""
            prec = p
        pair = self.pair()
        if pair is None:
            return ""
        a = _strtod(_expand1(st, pair[0]))
        if a is None:
            return ""
        b = _strtod(_expand1(st, pair[1]))
        if b is None:
            return ""
        if not use_fp:
            a, b = _to_ll(a), _to_ll(b)
        if op == "+":
            r = a + b
        elif op == "-":
            r = a - b
        elif op == "*":
            r = a * b
        elif op == "/":
            r = _c_div(a, b)
        elif op in ("%", "m"):
            r = _c_fmod(a, b)
        elif op == "==":
            r = float(abs(a - b) < 1e-9)
        elif op == "!=":
            r = float(abs(a - b) > 1e-9)
        elif op == ">":
            r = float(a > b)
        elif op == ">=":
            r = float(a >= b)
        elif op == "<":
            r = float(a < b)
        else:
            r = float(a <= b)
        if not use_fp:
            r = _to_ll(r)
        return _fmt_double(r, prec)


def _add_neighbour(extra: dict[str, str], item: tuple[FormatContext, bool], prefix: str) -> None:
    """format_add_window_neighbor: next_/prev_ window_index, window_active and @options."""
    ctx, cur = item
    extra[f"{prefix}_window_index"] = ctx.lookup("window_index") or ""
    extra[f"{prefix}_window_active"] = "1" if cur else "0"
    fn = getattr(ctx, "window_user_options", None)
    if fn is not None:
        for name, value in fn().items():
            extra[f"{prefix}_{name}"] = value


def _post(st: _State, spec: _Spec, value: str) -> str:
    """The tail of format_replace: E:/T:, s///, =N, pN, n:, w: in that order."""
    modifiers = spec.modifiers
    if modifiers & _M_EXPAND:
        value = _expand1(st, _parse(value))
    elif modifiers & _M_EXPANDTIME:
        value = _expand1(st.copy(add=EXPAND_TIME), _parse(value))
    for sub in spec.subs:
        pat = _expand1(st, _parse(sub[0]))
        rep = _expand1(st, _parse(sub[1]))
        value = _regsub(pat, rep, value, len(sub) >= 3 and "i" in sub[2])
    limit = spec.limit
    marker = spec.marker
    if limit > 0:
        new = trim_left(value, limit)
        value = new + marker if marker is not None and new != value else new
    elif limit < 0:
        new = trim_right(value, -limit)
        value = marker + new if marker is not None and new != value else new
    width = spec.width
    if width > 0:
        value = _pad(value, width, False)
    elif width < 0:
        value = _pad(value, -width, True)
    if modifiers & _M_LENGTH:
        value = str(_bytelen(value))
    if modifiers & _M_WIDTH:
        value = str(format_width(value))
    return value


def expand(fmt: str, ctx: FormatContext, *, flags: int = 0) -> str:
    """Expand a tmux format. ``flags``: EXPAND_TIME (strftime first, as the status line and
    display-message do) and/or EXPAND_NOJOBS. Never raises; a failure gives ""."""
    if not fmt:
        return ""
    try:
        tpl = _parse_cached(fmt) if len(fmt) <= 4096 else _parse_uncached(fmt)
        if not (flags & EXPAND_TIME and tpl.pct):
            c = tpl.const
            if c is not None:
                return c
            nodes = tpl.nodes
            if nodes is not None and len(nodes) == 1 and type(nodes[0]) is _Var:
                v = ctx.lookup(nodes[0].name)  # type: ignore[attr-defined]
                return "" if v is None else v
        return _expand1(_State(ctx, flags), tpl)
    except Exception:
        return ""
