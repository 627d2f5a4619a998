"""Property tests: no input makes the engine raise or leave its invariants."""

from __future__ import annotations

import logging

import pytest
from engines import use_engines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hmux_core.screen import NoAlternateScreen, new_screen

use_engines(globals())

SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def errors():
    """feed() catches everything so it never raises; assert nothing was actually caught."""
    h = _Errors()
    lg = logging.getLogger("hmux_core.screen")
    lg.addHandler(h)
    yield h.records
    lg.removeHandler(h)


def check_invariants(s, limit: int) -> None:
    # cols itself is tmux's pending-wrap position; a resize without reflow (alternate screen)
    # keeps the old column, as tmux's screen_resize_cursor does, until the next write.
    assert 0 <= s.cursor_x <= s.cols or s.alternate_on
    assert 0 <= s.cursor_y < s.rows
    assert 0 <= s.scroll_region_upper < s.scroll_region_lower < s.rows or s.rows == 1
    assert s.history_size <= max(limit, 0)
    if s.name == "python":  # the python engine's own rows
        assert len(s._rows) == s.rows
        for row in s._rows:
            assert 0 <= row.used <= len(row.chars) == len(row.styles)
            assert len(row.chars) >= s.cols
    lines = s.capture(start=-s.history_size, escapes=True)
    assert len(lines) == s.history_size + s.rows
    s.capture(join=True, trailing=True, octal=True)
    assert len(s.capture(line_numbers=True, line_flags=True, used_only=True)) == s.rows
    s.capture(start=-s.history_size, hyperlinks=True)
    assert 0 <= s.progress_state <= 4 and 0 <= s.progress <= 100
    for y in range(s.rows):
        runs = s.row_runs(y)
        assert all(isinstance(t, str) and len(st_) == 4 for t, st_ in runs)
    s.tail(3)
    s.cursor_character()
    s.search("a*", False, True)
    if s.alternate_on:
        s.capture(alternate=True, escapes=True)
    else:
        with pytest.raises(NoAlternateScreen):
            s.capture(alternate=True)
    s.take_replies()
    s.take_events()
    s.take_dirty()


sizes = st.tuples(st.integers(1, 30), st.integers(1, 12), st.sampled_from([0, 1, 5, 50]))


@SETTINGS
@given(data=st.binary(max_size=400), size=sizes)
def test_random_bytes_never_raise(errors, data, size):
    cols, rows, limit = size
    s = new_screen(cols, rows, limit)
    s.feed(data)
    check_invariants(s, limit)
    assert not errors


TEXT = st.sampled_from(
    [b"a", b"hello world", b"x" * 40, b" ", "中文".encode(), "é".encode(), "e\u0301".encode(),
     "👨\u200d👩".encode(), "❤️".encode(), b"\xe4", b"\xb8\xad", b"\xff", b"\x7f",
     # tmux 3.7b's combining: skin tones, flags, VS16 alone, Hangul jamo and filler, C1, tabs
     "👍🏽".encode(), "🇯🇵".encode(), "\ufe0f".encode(), "\u1100\u1161\u11a8".encode(),
     "\u1161".encode(), "\u3164".encode(), b"\xc2\x85", b"\t\t", b"\xed\xa0\x80"]
)  # fmt: skip
C0 = st.sampled_from(
    [b"\r", b"\n", b"\r\n", b"\b", b"\t", b"\x07", b"\x0e", b"\x0f", b"\x18", b"\x00"]
)
PARAM = st.one_of(
    st.just(b""),
    st.integers(0, 3000).map(lambda n: str(n).encode()),
    st.sampled_from([b"38;5;1", b"48;2;1;2;3", b"38:2::1:2:3", b"4:3", b";", b"::", b"1;" * 30,
                     b"99999999999", b"3;4"]),
)  # fmt: skip
CSI = st.builds(
    lambda pre, p, inter, fin: b"\033[" + pre + p + inter + fin,
    st.sampled_from([b"", b"?", b">", b"=", b"<"]),
    PARAM,
    st.sampled_from([b"", b" ", b"$", b"!"]),
    st.sampled_from([bytes([c]) for c in range(0x40, 0x7F)]),
)
MODES = st.builds(
    lambda p, hl: b"\033[?" + p + hl,
    st.sampled_from([b"1", b"3", b"6", b"7", b"25", b"47", b"1047", b"1049", b"1000", b"1003",
                     b"1004", b"1006", b"2004", b"12", b"2026", b"2031", b"2026;2031"]),
    st.sampled_from([b"h", b"l", b"$p"]),
)  # fmt: skip
QUERIES = st.sampled_from(
    [b"\033[?996n", b"\033[4$p", b"\033P$q q\033\\", b"\033P$qm\033\\", b"\033[14t",
     b"\033[19t", b"\033[22;0t", b"\033[23;0t", b"\033[?u", b"\033[>4;1m", b"\033[>4n"]
)  # fmt: skip
ESC = st.sampled_from(
    [b"\0337", b"\0338", b"\033M", b"\033D", b"\033E", b"\033H", b"\033c", b"\033#8", b"\033(0",
     b"\033(B", b"\033)0", b"\033=", b"\033>", b"\033", b"\033[", b"\033\\"]
)  # fmt: skip
STRINGS = st.builds(
    lambda intro, body, end: intro + body + end,
    st.sampled_from([b"\033]0;", b"\033]2;", b"\033]7;", b"\033]4;1;", b"\033]52;c;", b"\033P",
                     b"\033_", b"\033^", b"\033X", b"\033k", b"\033]",
                     # hyperlinks, progress, prompt marks
                     b"\033]8;;", b"\033]8;id=a;", b"\033]8;id=a:x=1;http://h/", b"\033]9;4;",
                     b"\033]9;4;1;", b"\033]133;", b"\033]133;A", b"\033]133;C"]),
    st.binary(max_size=20),
    st.sampled_from([b"\x07", b"\033\\", b"\x18", b""]),
)  # fmt: skip
TOKEN = st.one_of(TEXT, C0, CSI, MODES, QUERIES, ESC, STRINGS)
STREAM = st.lists(TOKEN, max_size=60).map(b"".join)


@SETTINGS
@given(data=STREAM, size=sizes, cuts=st.lists(st.integers(0, 2000), max_size=6))
def test_grammar_sequences_keep_invariants_and_split_anywhere(errors, data, size, cuts):
    cols, rows, limit = size
    whole = new_screen(cols, rows, limit)
    whole.feed(data)
    check_invariants(whole, limit)
    # The same bytes cut at arbitrary points (PTY read boundaries) give the same result.
    split = new_screen(cols, rows, limit)
    prev = 0
    for c in sorted(c % (len(data) + 1) for c in cuts) + [len(data)]:
        split.feed(data[prev:c])
        prev = c
    # Line by line: a whole capture carries the last cell's hyperlink into the next line (as
    # tmux's does), and a line's cell size, which decides whether blanks after its text end
    # the link, depends on how its text arrived (tmux grows a line per run written).
    assert split.history_size == whole.history_size
    assert [split.capture(start=y, end=y, escapes=True)
            for y in range(-split.history_size, rows)] == [
        whole.capture(start=y, end=y, escapes=True) for y in range(-whole.history_size, rows)]
    assert (split.cursor_x, split.cursor_y) == (whole.cursor_x, whole.cursor_y)
    assert not errors


@SETTINGS
@given(
    ops=st.lists(
        st.one_of(
            STREAM.map(lambda b: ("feed", b)),
            st.tuples(st.just("resize"), st.integers(1, 40), st.integers(1, 15)),
            st.just(("reset",)),
            st.just(("clear",)),
        ),
        max_size=12,
    ),
    size=sizes,
)
def test_resize_reset_interleaved(errors, ops, size):
    cols, rows, limit = size
    s = new_screen(cols, rows, limit)
    for op in ops:
        if op[0] == "feed":
            s.feed(op[1])
        elif op[0] == "resize":
            s.resize(op[1], op[2])
            assert (s.cols, s.rows) == (op[1], op[2])
        elif op[0] == "reset":
            s.reset()
        else:
            s.clear_history()
        # resizing may leave history above the limit until it next scrolls (tmux does too)
        check_invariants(s, 10**9)
    assert not errors


# -- hostile shapes (issue 10): huge parameter lists, unterminated strings, truncated UTF-8 -------

HUGE_CSI = st.builds(
    lambda n, sep, p, fin: b"\033[" + sep.join([p] * n) + fin,
    st.integers(0, 5000),
    st.sampled_from([b";", b":"]),
    st.sampled_from([b"", b"1", b"38", b"5", b"4294967296", b"65535"]),
    st.sampled_from([b"m", b"H", b"r", b"J", b"K", b"@", b"P", b"L", b"M", b"S", b"T", b"X", b"b",
                     b"t", b"h", b"l", b"n", b"c", b"q"]),
)  # fmt: skip
UNTERMINATED = st.builds(
    lambda intro, n, fill: intro + fill * n,
    st.sampled_from([b"\033]0;", b"\033]52;c;", b"\033P", b"\033_", b"\033^", b"\033k",
                     b"\033Ptmux;\033"]),
    st.integers(0, 20000),
    st.sampled_from([b"a", b"\033", b"\x9c", b"\xe4\xb8", b"\n"]),
)  # fmt: skip
TRUNCATED_UTF8 = st.builds(
    lambda ch, keep: ch.encode()[:keep],
    st.sampled_from(["中", "é", "👨", "\U0010ffff", "\u200d", "\u0301"]),
    st.integers(1, 3),
)
HOSTILE = st.lists(st.one_of(TOKEN, HUGE_CSI, UNTERMINATED, TRUNCATED_UTF8), max_size=12).map(
    b"".join
)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=HOSTILE, size=sizes,
       resizes=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 40), st.integers(1, 15)),
                        max_size=3))
def test_hostile_sequences_with_resizes(errors, data, size, resizes):
    cols, rows, limit = size
    s = new_screen(cols, rows, limit)
    prev = 0
    for cut, c, r in sorted(resizes):
        cut %= len(data) + 1
        s.feed(data[prev:cut])
        prev = cut
        s.resize(c, r)
    s.feed(data[prev:])
    check_invariants(s, 10**9 if resizes else limit)
    # Whatever was half-parsed, plain text after two STs (the first may be an escaped ESC in
    # passthrough) and a CAN still reaches the screen.
    s.feed(b"\033\\\033\\\x18\033[0m\r\nZ")
    assert "Z" in "\n".join(s.capture())
    assert not errors
