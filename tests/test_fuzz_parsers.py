"""Property tests for the text parsers a user or a file feeds the server: the command parser,
the config-file parser (seeded with tests/corpus/conf and, when HMUX_TMUX_SRC names a tmux source tree, its regress/conf), target resolution and layouts (tmux's layout strings
and the JSON ones of hmux_core.layout_json, applied to windows with floating panes).

Each may refuse input only with its own error type (which the server turns into a tmux-style
message); anything else escaping would be a server bug. ``fuzz/run.py`` runs these far longer.
"""

from __future__ import annotations

import glob
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_layout_properties import LEGACY_BODY, OPS, build, state, with_checksum

from hmux_core import target as T
from hmux_core.commands.cmdparse import (
    DEFAULT_COMMAND_ALIASES,
    CmdParseError,
    CommandBlock,
    alias_lookup,
    commands_from_argv,
    commands_from_buffer,
    parse_string,
    print_parsed,
)
from hmux_core.commands.grammar import CommandError, tmux_command_table
from hmux_core.layout import Layout, LayoutError
from hmux_core.layout_json import decode
from hmux_core.model import Environ, Model, apply_layout
from hmux_core.options import Options, new_global_options

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
TABLE = tmux_command_table()
ALIASES = alias_lookup(list(DEFAULT_COMMAND_ALIASES))
ENV = {"HOME": "/home/tester", "A": "x y", "B": "{"}

# -- the command parser ---------------------------------------------------------------------------

WORDS = ["new", "neww", "set", "-g", "-F", "bind", "if", "-b", "source", "display", "split",
         "@opt", "on", "'", '"', "\\", ";", "\\;", "{", "}", "#", "%if", "%elif", "%else",
         "%endif", "%hidden", "X=1", "$A", "${B}", "$", "~", "~nobody/", "\\u00e9", "\\U0001F600",
         "\\e", "\\0", "\\777", " ", "\t", "\n", "\\\n", "\r", "#{", "#{?a,b,c}", "${", "\x00",
         "é", "日本", "-", "--", "-t", "=", ":", "."]  # fmt: skip
COMMAND_TEXT = st.one_of(
    st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join),
    st.lists(st.sampled_from(WORDS), max_size=40).map("".join),
    st.text(max_size=120),
)


def _expand(text: str) -> str:
    return "1" if "a" in text else ""


@SETTINGS
@given(COMMAND_TEXT, st.booleans())
def test_command_parser_raises_only_its_error(text: str, stdio: bool) -> None:
    try:
        parsed = parse_string(text, environ=dict(ENV), format_expand=_expand, stdio=stdio)
    except CmdParseError as e:
        assert e.message
        return
    for cmd in parsed:
        assert all(isinstance(a, str | CommandBlock) for a in cmd.argv)
    try:
        cl = commands_from_buffer(text, TABLE, environ=dict(ENV), format_expand=_expand,
                                  aliases=ALIASES, stdio=stdio)
    except CommandError as e:
        assert str(e)
        return
    assert isinstance(cl.print(False), str)


@SETTINGS
@given(st.lists(st.sampled_from(WORDS), max_size=30).map(" ".join))
def test_printed_commands_parse_back_the_same(text: str) -> None:
    # What list-keys / show-hooks print must be valid input that means the same words.
    try:
        parsed = parse_string(text, environ=dict(ENV), parse_only=True)
    except CmdParseError:
        return
    printed = print_parsed(parsed)
    again = parse_string(printed, environ=dict(ENV), parse_only=True)
    assert print_parsed(again) == printed


@SETTINGS
@given(st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=8)), max_size=20))
def test_argv_commands_raise_only_command_errors(argv: list[str]) -> None:
    try:
        commands_from_argv(argv, TABLE, aliases=ALIASES, environ=dict(ENV))
    except CommandError as e:
        assert str(e)


# -- the config-file parser, seeded with tmux's corpus --------------------------------------------

# Config files of the shapes people write (tests/corpus/conf: prefix remaps, vi copy mode, status
# themes, %if on versions, blocks, %hidden and variables, continuations, errors); tmux's own
# regress/conf files join them where a tmux source tree is unpacked (HMUX_TMUX_SRC).
_CONF_DIRS = [os.path.join(os.path.dirname(__file__), "corpus", "conf"),
              os.path.join(os.environ.get("HMUX_TMUX_SRC", "/nonexistent"), "regress", "conf")]
CORPUS = [open(f, encoding="utf-8", errors="surrogateescape").read()
          for d in _CONF_DIRS for f in sorted(glob.glob(os.path.join(d, "*.conf")))]


def _mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    for pos, cut, ins in edits:
        pos %= len(text) + 1
        text = text[:pos] + ins + text[pos + cut:]
    return text


MUTATIONS = st.lists(
    st.tuples(st.integers(0, 10**6), st.integers(0, 40),
              st.one_of(st.sampled_from(WORDS), st.text(max_size=6))),
    max_size=8,
)


@SETTINGS
@given(st.sampled_from(range(len(CORPUS))), MUTATIONS, st.booleans(), st.integers(0, 4000))
def test_config_corpus_mutations(index: int, edits, stdio: bool, cut: int) -> None:
    text = _mutate(CORPUS[index], edits)
    text = text[: len(text) - cut % (len(text) + 1)]  # files truncated anywhere
    assigned: list[tuple[str, str, bool]] = []
    try:
        cl = commands_from_buffer(text, TABLE, file="/x.conf", environ=dict(ENV),
                                  format_expand=_expand, aliases=ALIASES, stdio=stdio,
                                  on_assign=lambda n, v, h: assigned.append((n, v, h)))
    except CommandError as e:
        assert str(e).startswith("/x.conf:") or str(e)
        return
    for cmd in cl.commands:
        assert cmd.line >= 1
    assert all(isinstance(n, str) and "=" not in n for n, _v, _h in assigned)


def test_corpus_is_there():
    """The seeds ship with the tests (a missing corpus would weaken the fuzz)."""
    assert len(CORPUS) >= 12


# -- target resolution ----------------------------------------------------------------------------


class _Pane:
    """What target resolution reads from a pane."""

    def __init__(self, pid: int) -> None:
        self.id = pid
        self.active_point = 0
        self.changed = False
        self.xoff = self.yoff = self.sx = self.sy = 0
        self.window = None
        self.fd = -1
        self.tty = f"/dev/pts/{pid}"

    def resize(self, sx: int, sy: int) -> None:
        self.sx, self.sy = sx, sy

    def destroy(self) -> None:
        pass


def _model() -> Model:
    server, session, window = new_global_options()
    m = Model(server, session, window, Environ())
    for name, nwin in (("main", 3), ("main2", 1), ("0", 2), ("a.b", 1), ("x:y", 1)):
        s = m.create_session(name, "/", Options(parent=m.session_options, scope="session"),
                             Environ())
        for i in range(nwin):
            w = m.create_window(f"w{i}", 80, 24, Options(parent=m.window_options, scope="window"))
            panes = []
            for _ in range(1 + i):
                p = _Pane(m.new_pane_id())
                p.window = w
                m.panes[p.id] = p
                panes.append(p)
            w.layout = Layout(80, 24, panes[0])
            for p in panes[1:]:
                w.layout.split(w.layout.panes[-1], horizontal=i % 2 == 0, new_pane=p)
            apply_layout(w)
            w.set_active(panes[-1])
            wl = m.link_window(s, w, i * 2)
            s.set_current(wl)
    return m


MODEL = _model()
TARGET_PARTS = ["main", "main2", "ma", "0", "1", "2", "4", "a.b", "x:y", "w0", "w1", "w*", "=main",
                "=w0", "$0", "$1", "$9", "@0", "@2", "@99", "%0", "%3", "%99", "{last}", "{next}",
                "{previous}", "{start}", "{end}", "{top}", "{bottom}", "{left}", "{right}",
                "{top-left}", "{bottom-right}", "{up-of}", "{down-of}", "{marked}", "{mouse}",
                "!", "+", "-", "+2", "-9", "^", "$", ".", ":", "=", "*", "~", "-2147483649",
                "99999999999999999999"]  # fmt: skip
TARGETS = st.one_of(st.lists(st.sampled_from(TARGET_PARTS), max_size=5).map("".join),
                    st.text(max_size=20))
KINDS = st.sampled_from([T.FIND_SESSION, T.FIND_WINDOW, T.FIND_PANE])
FLAGS = st.sets(st.sampled_from([T.CANFAIL, T.QUIET, T.WINDOW_INDEX, T.DEFAULT_MARKED,
                                 T.PREFER_UNATTACHED])).map(lambda s: sum(s))  # fmt: skip


@SETTINGS
@given(TARGETS, KINDS, FLAGS)
def test_target_resolution_fails_only_as_tmux(text: str, kind: str, flags: int) -> None:
    try:
        st_ = T.find_target(MODEL, text, kind, flags)
    except T.TargetError as e:
        assert flags & T.QUIET or str(e)
        return
    if st_ is None:
        assert flags & T.CANFAIL
        return
    if st_.wp is not None:
        assert st_.wp in st_.w.panes and st_.wl.window is st_.w
    if st_.s is not None:
        assert st_.s.alive and MODEL.sessions.get(st_.s.name) is st_.s


# -- layouts --------------------------------------------------------------------------------------

@SETTINGS
@given(LEGACY_BODY, st.booleans(), OPS)
def test_layout_parser_refuses_cleanly(body: str, good_sum: bool, ops: list) -> None:
    """Any text as select-layout's argument: applied, or LayoutError and the window exactly as
    it was (its cells, floating panes and z-order)."""
    lay = build(80, 24, ops)
    before = state(lay, exact=True)
    text = with_checksum(body) if good_sum else f"0000,{body}"
    try:
        lay.parse(text)
    except LayoutError as e:
        assert str(e).endswith(text)
        assert state(lay, exact=True) == before
        return
    assert lay.root is not None


JSON_PIECES = ['{', '}', '[', ']', ',', ':', '"version"', '2', '"root"', '"type"', '"pane"',
               '"leftright"', '"topbottom"', '"cells"', '"width"', '"height"', '"x"', '"y"',
               '"floating"', '"active"', 'null', '1.5', '1e3', 'true', '""', '"a"', '"\\u00e9"',
               '"\\ud800"', '-0', '99999999999999999999', '0', '80', '24', ' ']


@SETTINGS
@given(st.one_of(st.lists(st.sampled_from(JSON_PIECES), max_size=40).map("".join),
                 st.text(max_size=80)), OPS)
def test_json_layout_refuses_cleanly(text: str, ops: list) -> None:
    lay = build(80, 24, ops)
    before = state(lay, exact=True)
    index = {p.id: i for i, p in enumerate(lay.panes)}
    try:
        decode(lay, "{" + text, lambda p: index[p.id])
    except LayoutError:
        assert state(lay, exact=True) == before
