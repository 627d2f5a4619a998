"""Unit tests for the default screen engine (expected values checked against tmux 3.3a)."""

from __future__ import annotations

import logging
import random

import pytest
from engines import use_engines

from hmux_core.screen import DEFAULT_STYLE, Engine, NoAlternateScreen, new_screen
from hmux_core.screen.cells import (
    ATTR_BRIGHT,
    ATTR_CHARSET,
    ATTR_ITALICS,
    ATTR_UNDERSCORE_3,
    COLOUR_FLAG_256,
    char_width,
    colour_rgb,
    sgr_change,
)
from hmux_core.screen.grid import HistLine

use_engines(globals())


@pytest.fixture(autouse=True)
def no_internal_errors(caplog):
    """The engine swallows exceptions to never raise; none may actually happen."""
    caplog.set_level(logging.ERROR, logger="hmux_core.screen")
    yield
    errors = [r for r in caplog.records if r.name.startswith("hmux_core.screen")]
    assert not errors, errors[0].getMessage()


def scr(data: bytes = b"", cols: int = 80, rows: int = 24, hl: int = 2000):
    s = new_screen(cols, rows, hl)
    s.feed(data)
    return s


def text(s) -> str:
    return "\n".join(s.capture())


def test_contract(engine):
    s = scr()
    assert isinstance(s, Engine)
    assert s.name == engine
    assert (s.cols, s.rows, s.history_limit) == (80, 24, 2000)
    assert s.capture() == [""] * 24


def test_plain_text_and_newlines():
    s = scr(b"hello\r\nworld")
    assert s.capture()[:3] == ["hello", "world", ""]
    assert (s.cursor_x, s.cursor_y) == (5, 1)
    s = scr(b"a\nb")  # LF alone keeps the column
    assert s.capture()[:2] == ["a", " b"]


def test_wrap_and_pending_cursor():
    s = scr(b"x" * 80)
    assert (s.cursor_x, s.cursor_y) == (80, 0)  # tmux keeps the cursor past the last column
    s.feed(b"y")
    assert s.capture()[:2] == ["x" * 80, "y"]
    assert s.capture(join=True)[0] == "x" * 80 + "y"


def test_wide_char_wraps_at_last_column():
    s = scr(b"a" * 79 + "中".encode() + b"b")
    assert s.capture()[:2] == ["a" * 79, "中b"]
    assert s.cursor_x == 3


def test_zwj_vs16_and_combining_are_kept():
    s = scr("A👨\u200d👩B tail ❤️ e\u0301!".encode())
    assert s.capture()[0] == "A👨\u200d👩B tail ❤️ e\u0301!"
    assert char_width("👨") == 2 and char_width("\u200d") == 0


def test_sgr_styles_in_row_runs():
    s = scr(b"\033[1;31mR\033[0m\033[38;5;200;48;2;1;2;3mX\033[0mn")
    runs = s.row_runs(0)
    assert runs[0] == ("R", (ATTR_BRIGHT, 1, 8, 0))
    assert runs[1] == ("X", (0, 200 | COLOUR_FLAG_256, colour_rgb(1, 2, 3), 0))
    assert runs[2][0].startswith("n") and runs[2][1] == DEFAULT_STYLE
    assert sum(len(t) for t, _ in runs) == 80


def test_colon_sgr():
    s = scr(b"\033[38:2::255:0:0;4:3mA\033[58:5:9mB\033[4:0;59mC")
    runs = s.row_runs(0)
    assert runs[0] == ("A", (ATTR_UNDERSCORE_3, colour_rgb(255, 0, 0), 8, 0))
    assert runs[1] == ("B", (ATTR_UNDERSCORE_3, colour_rgb(255, 0, 0), 8, 9 | COLOUR_FLAG_256))
    assert runs[2][1] == (0, colour_rgb(255, 0, 0), 8, 0)
    assert s.capture(escapes=True)[0] == (
        "\033[4:3m\033[38;2;255;0;0mA\033[58;5;9mB\033[0m\033[38;2;255;0;0mC\033[39m"
    )  # tmux 3.7b: no default colour after a reset; the cells up to the line's size follow


def test_private_sequences_not_misparsed():
    s = scr(b"\033[>4;2mplain\033[?6n\033[?1r\033[!pafter")
    assert s.capture()[0] == "plainafter"
    assert all(st == DEFAULT_STYLE for _, st in s.row_runs(0))
    assert not s.extended_keys and not s.extended_keys_2  # extended-keys is off by default
    assert s.take_replies() == b""
    s = new_screen(80, 24)
    s.extended_keys_option = 1  # extended-keys on: the application chooses its mode
    s.feed(b"\033[>4;2m")
    assert s.extended_keys_2 and not s.extended_keys
    s.feed(b"\033[>4;1m")
    assert s.extended_keys and not s.extended_keys_2
    s.feed(b"\033[>4n")
    assert not s.extended_keys


def test_replies_exactly_as_tmux():
    # (a non-zero DA, DA2 or XTVERSION parameter gets no answer from tmux)
    s = scr(b"ab\033[c\033[1c\033[>c\033[>1c\033[0c\033[5n\033[6n\033[>q\033[>1q\033[18t")
    assert s.take_replies() == (
        b"\033[?1;2c\033[>84;0;0c\033[?1;2c\033[0n\033[1;3R\033P>|tmux 3.7b\033\\\033[8;24;80t"
    )
    assert s.take_replies() == b""


def test_dcs_apc_pm_sos_swallowed():
    s = scr(b"\033Pq#0;2;0\033\\A\033_Gpayload\033\\B\033^pm\033\\C\033Xsos\033\\D")
    assert s.capture()[0] == "ABCD"
    assert s.title == "Gpayload"  # tmux takes an APC string as the title


def test_events():
    s = scr(b"\007\033]2;the title\007\033]7;file:///tmp\033\\\033kwin\033\\\033]52;c;aGk=\007")
    assert s.take_events() == [
        ("bell", None),
        ("title", "the title"),
        ("path", "file:///tmp"),
        ("rename", "win"),
        ("clipboard", "c;aGk="),
    ]
    assert s.take_events() == []
    assert (s.title, s.path) == ("the title", "file:///tmp")


@pytest.mark.parametrize("step", [0, 1, 2, 5])
def test_passthrough_payload_is_not_acted_on(step):
    """``DCS tmux; payload ST`` goes out whole as one event (ESC ESC is an escaped ESC, ESC x
    keeps x, as tmux 3.7b's DCS handler), read split anywhere; the pane itself does nothing
    with what is inside: no title from its OSC 2, no answer to its DA1, no text."""
    data = (b"a\033Ptmux;\033\033]2;inner\007\033\033[c\033Zq\033\\b"
            b"\033Ptmux;\033\033]133;A\007\033\\c")
    s = new_screen(20, 3)
    for i in range(0, len(data), step or len(data)):
        s.feed(data[i:i + (step or len(data))])
    assert s.take_events() == [("passthrough", b"\033]2;inner\007\033[cZq"),
                               ("passthrough", b"\033]133;A\007")]
    assert s.capture()[0] == "abc"
    assert s.title == ""
    assert s.take_replies() == b""


def test_passthrough_longer_than_the_input_buffer_is_dropped():
    s = new_screen(20, 3)
    s.feed(b"\033Ptmux;" + b"x" * (1 << 20) + b"\033\\a\033Ptmux;y\033\\")
    assert s.take_events() == [("passthrough", b"y")]
    assert s.capture()[0] == "a"


def test_prompt_marks_on_their_lines_and_as_events():
    """OSC 133 A and C mark the cursor's line where it is (even mid-line, without moving the
    cursor: capture-pane -F), and every mark is an event for the pane's shell integration."""
    s = new_screen(20, 5)
    s.feed(b"\033]133;A;k=s\007$ ls\033]133;B\007\r\n\033]133;C\007out\r\nx\033]133;A\007y"
           b"\033]133;D;1\007")
    assert s.capture(line_flags=True)[:3] == ["P $ ls", "O out", "P xy"]
    assert (s.cursor_x, s.cursor_y) == (2, 2)
    assert [e for e in s.take_events() if e[0] == "osc133"] == [
        ("osc133", "A;k=s"), ("osc133", "B"), ("osc133", "C"), ("osc133", "A"), ("osc133", "D;1")]


def test_a_line_with_both_marks_keeps_both_in_history_and_reflow():
    """A command with no output: its output mark and the next prompt's land on one line, which
    keeps both (tmux's two bits) as it scrolls into history and through a narrow resize."""
    s = new_screen(20, 3)
    s.feed(b"\033]133;A\007$ true\r\n\033]133;C\007\033]133;D;0\007\033]133;A\007$ next"
           + b"\r\n" * 5)
    want = ["P $ true", "OP $ next", "- "]
    assert s.capture(start=-s.history_size, line_flags=True)[:3] == want
    s.resize(5, 3)
    s.resize(20, 3)
    assert s.capture(start=-s.history_size, line_flags=True)[:3] == want


def test_invalid_title_ignored():
    s = scr(b"\033]2;ok\007\033]2;bad\x7f\007")
    assert s.title == "ok"


def test_alternate_screen_1049():
    s = scr(b"main1\r\nmain2\033[31m\033[?1049h")
    assert s.alternate_on
    assert (s.alternate_saved_x, s.alternate_saved_y) == (5, 1)
    s.feed(b"".join(b"alt%d\r\n" % i for i in range(40)))
    assert s.history_size == 0  # the alternate screen never writes history
    assert s.capture(alternate=True)[:2] == ["main1", "main2"]
    s.feed(b"\033[?1049lX")
    assert not s.alternate_on
    assert s.capture()[:3] == ["main1", "main2X", ""]
    assert s.row_runs(1)[1] == ("X", (0, 1, 8, 0))  # SGR restored with the cursor
    with pytest.raises(NoAlternateScreen, match="no alternate screen"):
        s.capture(alternate=True)


def test_alternate_47_does_not_restore_cursor():
    s = scr(b"abc\033[?47h\033[5;5Hx\033[?47l")
    assert s.capture()[0] == "abc"
    assert (s.cursor_x, s.cursor_y) == (5, 4)


def test_history_full_screen_scroll():
    s = scr(b"".join(b"%d\r\n" % i for i in range(1, 201)))
    assert s.history_size == 200 - 23
    assert s.capture(start=-s.history_size)[:2] == ["1", "2"]
    assert s.capture(start=-3, end=-1) == ["175", "176", "177"]
    if s.name == "python":  # its own compact lines
        assert isinstance(s._hist[0], HistLine) and isinstance(s._hist[0].text, str)
    assert s.history_bytes() > 0
    s.clear_history()
    assert s.history_size == 0 and s.history_bytes() == 0


def test_history_limit_drops_oldest_tenth():
    s = scr(b"".join(b"n%d\r\n" % i for i in range(1, 200)), hl=100)
    # tmux: at the limit the oldest 10% go at once, so the size moves between 90 and 100
    assert s.history_size == 96
    first = s.capture(start=-s.history_size)[0]
    assert first == "n81"


def test_history_from_partial_scroll_region():
    # tmux 3.3a also moves the region's top line into history (grid_scroll_history_region)
    s = scr(b"\033[5;10r\033[10;1H" + b"".join(b"line%d\r\n" % i for i in range(8)))
    assert s.history_size == 8
    assert s.capture(start=-8, end=-1)[-3:] == ["line0", "line1", "line2"]
    assert s.capture()[4:9] == ["line3", "line4", "line5", "line6", "line7"]


def test_no_history_when_limit_zero():
    s = scr(b"".join(b"%d\r\n" % i for i in range(50)), hl=0)
    assert s.history_size == 0
    assert s.capture()[0] == "27"


def test_ed2_scrolls_into_history():
    s = scr(b"a\r\nb\r\n\033[2J")
    assert s.history_size == 2
    assert s.capture() == [""] * 24
    s.scroll_on_clear = False
    s.feed(b"c\033[2J")
    assert s.history_size == 2


def test_insert_mode_and_ich_dch_ech():
    s = scr(b"abcdef\r\033[4hXY\033[4l")
    assert s.capture()[0] == "XYabcdef"
    assert not s.insert_mode
    s = scr(b"0123456789\033[3G\033[2@\r\n0123456789\033[3G\033[2P\r\n0123456789\033[3G\033[2X")
    assert s.capture()[:3] == ["01  23456789", "01456789", "01  456789"]


def test_el_ed_variants():
    s = scr(b"0123456789\033[5G\033[K\r\n0123456789\033[5G\033[1K\r\n0123456789\033[5G\033[2K")
    assert s.capture()[:3] == ["0123", "     56789", ""]


def test_background_erase_survives_in_capture():
    s = scr(b"\033[41m\033[K\033[0m\033[10Cx")
    # tmux 3.7b prints every cell of the line: the erased ones after x are red again
    assert s.capture(escapes=True)[0] == "\033[41m          \033[49mx\033[41m"


def test_tabs():
    s = scr(b"a\tb")
    assert s.capture()[0] == "a\tb"  # tmux 3.7b keeps a tab over blanks as a tab
    assert s.row_runs(0)[0][0].startswith("a       b")
    assert s.tabs()[:3] == [8, 16, 24]
    s.feed(b"\033[3g\033[5G\033H\r\tX")
    assert s.tabs() == [4]
    assert s.capture()[0] == "a   X   b"  # written inside the tab: the tab is gone
    s.feed(b"\033c")
    assert s.tabs()[:2] == [8, 16]


def test_scroll_region_and_origin():
    s = scr(b"\033[5;15r\033[?6h\033[2;3HX")
    assert (s.scroll_region_upper, s.scroll_region_lower) == (4, 14)
    assert s.origin_mode
    assert s.capture()[5] == "  X"


def test_stream_state_in_order_amid_sgr():
    """Sequences read from the stream among coloured text, applied in the order they came."""
    sgr = b"\033[38;2;1;2;3mreturn\033[0m \033[38;5;9m4r\033[0m "
    s = scr(sgr * 20 + b"\033[5;15r" + sgr + b"\033c" + sgr + b"\033[3;9r" + sgr + b"\033[4 q" + sgr)
    assert (s.scroll_region_upper, s.scroll_region_lower) == (2, 8)
    assert s.cursor_style == 4
    s.feed(sgr + b"\033[2;6r" + sgr + b"\033c" + sgr)
    assert (s.scroll_region_upper, s.scroll_region_lower) == (0, 23)
    s.extended_keys_option = 1
    s.feed(sgr + b"\033[>4;1m" + sgr)
    assert s.extended_keys


def test_save_restore_cursor_and_attrs():
    s = scr(b"\033[31mab\0337\033[0m\033[5;5Hx\0338c")
    assert s.capture()[0] == "abc"
    assert s.row_runs(0)[0] == ("abc", (0, 1, 8, 0))


def test_decawm_off_overwrites_last_column():
    s = scr(b"\033[?7l" + b"x" * 85 + b"END")
    assert s.capture()[0] == "x" * 79 + "D"
    assert not s.wrap_mode


def test_acs_charset():
    s = scr(b"\033(0lqk\033(B")
    assert s.capture()[0] == "lqk"
    assert s.row_runs(0)[0] == ("lqk", (ATTR_CHARSET, 8, 8, 0))
    assert s.capture(escapes=True)[0] == "\016lqk\017"  # the line's blanks after it are plain


def test_modes():
    s = scr(
        b"\033[?1h\033=\033[?1002h\033[?1006h\033[?1005h\033[?2004h\033[?1004h\033[?25l\033[5 q"
    )
    assert s.keypad_cursor and s.keypad and s.mouse_button and s.mouse_sgr and s.mouse_utf8
    assert s.bracketed_paste and s.focus_events and not s.cursor_visible
    assert (s.cursor_style, s.cursor_blinking) == (5, True)
    s.feed(b"\033[?1003h")
    assert s.mouse_any and not s.mouse_button
    s.feed(b"\033[?1000l\033>\033[?1l")
    assert not (s.mouse_any or s.keypad or s.keypad_cursor)
    s.reset()
    assert not s.bracketed_paste and s.cursor_visible and s.wrap_mode


def test_ris_resets_and_clears():
    s = scr(b"before\033[31m\033[4h\033c after")
    assert s.capture()[0] == " after"
    assert s.history_size == 1  # tmux's RIS clears with scroll-on-clear
    assert not s.insert_mode
    assert s.row_runs(0)[0][1] == DEFAULT_STYLE


def test_rep_and_backspace_over_wrap():
    s = scr(b"a\033[3b\r\n" + b"b" * 80 + b"c\b\bz")
    assert s.capture()[0] == "aaaa"
    assert s.capture()[1] == "b" * 79 + "z"


def test_split_feeds_anywhere():
    data = "x\033[31mé中\033]2;t\007\033[38;2;1;2;3mq\033P1q\033\\y👨\u200d👩".encode()
    whole = scr(data)
    for step in (1, 2, 5):
        s = new_screen(80, 24)
        for i in range(0, len(data), step):
            s.feed(data[i : i + step])
        assert s.capture(escapes=True) == whole.capture(escapes=True)
        assert s.title == whole.title == "t"


def test_invalid_utf8_follows_tmux():
    # tmux 3.7b writes U+FFFD for a bad byte or sequence, and a partial character survives
    # escape sequences
    s = scr(b"a\xffb\xc3\xc3\xa9c\xe4\xb8\033[1md\xc3\xa9")
    assert s.capture()[0] == "a\ufffdb\ufffd\ufffdc\ufffdd\u00e9"
    s = scr(b"\xe4\xb8\033[m\xad!")
    assert s.capture()[0] == "中!"


def test_take_dirty():
    s = scr()
    s.take_dirty()
    s.feed(b"\033[3;1Hx")
    assert s.take_dirty() == {2}
    assert s.take_dirty() == set()
    s.feed(b"\033[24;1H\n")
    assert s.take_dirty() == set(range(24))


def test_tail_cursor_character_search():
    s = scr(b"first line\r\nSecond  \r\nthird\033[2;1H")
    assert s.tail(2) == ["", ""]
    assert s.tail(24)[:3] == ["first line", "Second", "third"]
    assert s.cursor_character() == "S"
    assert s.search("econd", False, False) == 2
    assert s.search("SECOND", False, True) == 2
    assert s.search("SECOND", False, False) == 0
    assert s.search("^thi.d$", True, False) == 3
    assert s.search("(", True, False) == 0
    assert s.search("f*line", False, False) == 1


def test_capture_line_range_clamping():
    s = scr(b"".join(b"%d\r\n" % i for i in range(30)))
    assert s.history_size == 7
    assert s.capture(start=-100, end=-100) == ["0"]
    assert s.capture(start=5, end=2) == ["9", "10", "11", "12"]  # swapped, visible rows 2-5
    assert s.capture(start=1000)[0] == s.capture(end=1000)[-1]


def test_capture_trailing_and_octal():
    s = scr(b"a\\b  \033[41m \033[0m")
    assert s.capture()[0] == "a\\b"
    assert s.capture(trailing=True)[0] == "a\\b" + " " * 17  # up to the line's 20 cells
    assert s.capture(escapes=True, octal=True)[0] == "a\\\\b  \\033[41m \\033[49m"


def test_sgr_change_matches_tmux_rules():
    assert sgr_change(DEFAULT_STYLE, (0, 1, 8, 0)) == "\033[31m"
    assert sgr_change((0, 1, 8, 0), DEFAULT_STYLE) == "\033[39m"
    assert sgr_change((ATTR_BRIGHT, 8, 8, 0), DEFAULT_STYLE) == "\033[0m"  # 3.7b
    assert sgr_change((ATTR_BRIGHT, 8, 8, 0), DEFAULT_STYLE, terminal=True) == (
        "\033[0m\033[39m\033[49m")
    assert sgr_change(DEFAULT_STYLE, (ATTR_ITALICS | ATTR_UNDERSCORE_3, 8, 8, 0)) == "\033[3;4:3m"


def test_resize_reflows_wrapped_lines():
    s = scr(b"x" * 100 + b"\r\nshort")
    assert s.capture()[:3] == ["x" * 80, "x" * 20, "short"]
    s.resize(120, 24)
    assert s.capture()[:2] == ["x" * 100, "short"]
    assert (s.cursor_x, s.cursor_y) == (5, 1)
    s = scr(b"x" * 100 + b"\r\nshort")
    s.resize(40, 24)
    # the split adds a line, so the first piece goes into history (tmux does the same)
    assert s.capture()[:3] == ["x" * 40, "x" * 20, "short"]
    assert s.history_size == 1 and s.capture(start=-1)[0] == "x" * 40
    assert (s.cursor_x, s.cursor_y) == (5, 2)
    assert s.cols == 40 and s.tabs()[-1] == 32


def test_resize_height_uses_history():
    s = scr(b"".join(b"%d\r\n" % i for i in range(10)) + b"end", rows=10)
    assert s.history_size == 1
    s.resize(80, 5)
    assert s.history_size == 6 and s.capture()[-1] == "end"
    s.resize(80, 12)
    assert s.history_size == 0
    assert s.capture()[0] == "0" and s.capture()[10] == "end"


def test_resize_in_alternate_screen_restores_main():
    s = scr(b"m" * 100 + b"\033[?1049halt")
    s.resize(50, 10)
    assert s.capture()[:2] == ["", " " * 20 + "alt"]  # 1049h does not move the cursor
    s.feed(b"\033[?1049l")
    assert s.capture()[:3] == ["m" * 50, "m" * 50, ""]


def test_style_table_compaction_keeps_content():
    s = new_screen(40, 5, 50)
    data = b"".join(b"\033[38;2;%d;%d;1mc" % (i % 256, i // 256) for i in range(3000))
    s.feed(data + b"\033[0m")
    before = s.capture(escapes=True, start=-s.history_size)
    n = len(s._styles)
    s._compact_styles()
    assert len(s._styles) < n
    assert s.capture(escapes=True, start=-s.history_size) == before
    s.feed(b"\033[38;2;1;1;1mz")
    assert s.row_runs(s.cursor_y)[-2][1][1] == colour_rgb(1, 1, 1)


def test_history_storage_is_compact():
    s = new_screen(200, 50, 2000)
    s.feed(
        b"".join(b"\033[3%dmword%d \033[0mplain text here\r\n" % (i % 8, i) for i in range(3000))
    )
    line = s._hist[-1]
    assert type(line.text) is str and line.runs is not None
    assert line.runs.typecode == "I"  # runs in an array, not a Python object per cell
    cells = sum(line.used for line in s._hist)
    assert s.history_bytes() < 20 * cells


def _line_stream(rnd, cols: int) -> bytes:
    """Lines the batch path takes (plain, wrapping, SGR, tabs) and some it does not (wide
    characters, other sequences), ending with or without a line feed."""
    lines = []
    for _ in range(rnd.randint(1, 60)):
        n = rnd.choice([0, 1, cols - 1, cols, cols + 1, 2 * cols, rnd.randint(0, 4 * cols)])
        kind = rnd.random()
        if kind < 0.5:
            lines.append(bytes(rnd.choice(b"abc -#") for _ in range(n)))
        elif kind < 0.75:
            lines.append(b"".join(rnd.choice([b"\033[31m", b"\033[0m", b"\033[1;44m", b"\033[49m",
                                              b"\033[K", b"\033[01;31m\033[K", b"\033[m\033[0K"])
                                  + b"w" * rnd.randint(0, cols) for _ in range(rnd.randint(1, 5))))
        elif kind < 0.8:  # wide characters, alone or among text and colours
            lines.append(b"".join(rnd.choice(["\u00e9\u4e2d".encode(), "\u6587\u5b57".encode(),
                                              "\u2705".encode(), b"ab", b"\033[32m", b"\033[0m"])
                                  for _ in range(rnd.randint(0, cols // 2 + 1))))
        elif kind < 0.9:  # tabs among words, or after a colour
            lines.append(rnd.choice([b"", b"\033[32m", b"\033[0m"]) + b"".join(
                rnd.choice([b"\t", b"\t\t", b"ab", b"word ", b"x" * rnd.randint(0, cols)])
                for _ in range(rnd.randint(1, 6))))
        else:
            lines.append(rnd.choice([b"\033[K", b"\tx", b"\033[2Ax"]) + b"q" * n)
    stops = b""
    if rnd.random() < 0.3:  # other tab stops: cleared, then set at a few columns
        stops = b"\033[3g" + b"".join(b"\033[%dG\033H" % rnd.randint(1, cols)
                                      for _ in range(rnd.randint(0, 4))) + b"\r"
    return (stops + b"\r\n" * rnd.randint(0, 10) + b"\r\n".join(lines)
            + rnd.choice([b"\r\n", b"x"]))


def test_batch_path_leaves_what_the_line_path_leaves():
    """Whole lines taken at once (Screen._lines, wrapped and tabbed ones included) leave the
    rows, history, wrap flags, cell sizes and counters that writing them one by one leaves."""

    def run(data, cols, rows, hl, cuts, batch):
        s = new_screen(cols, rows, hl)
        lines = s._lines

        def batch_lines(text, pos):
            end = lines(text, pos)
            taken = text[pos:end].split("\r\n")
            wrapped[0] += any(len(line) > cols and "\033" not in line for line in taken)
            tabbed[0] += any("\t" in line for line in taken)
            return end

        s._lines = batch_lines if batch else (lambda text, pos: pos)
        prev = 0
        for c in [*cuts, len(data)]:
            s.feed(data[prev:c])
            prev = c
        start = -s.history_size
        return (s.capture(start=start, escapes=True, join=True, trailing=True),
                s.capture(start=start, trailing=True),  # -N: blanks up to the cell size
                s.capture(start=start, line_flags=True), s.history_bytes(),
                (s.cursor_x, s.cursor_y, s.history_size, s.history_added, s.history_collected))

    wrapped, tabbed = [0], [0]
    for seed in range(300):
        rnd = random.Random(seed)
        cols, rows, hl = rnd.randint(1, 30), rnd.randint(1, 8), rnd.choice([0, 1, 5, 30, 2000])
        data = _line_stream(rnd, cols)
        ends = [i + 2 for i in range(len(data)) if data.startswith(b"\r\n", i)]
        cuts = sorted([rnd.randint(0, len(data)) for _ in range(rnd.randint(0, 4))]
                      + rnd.sample(ends, min(len(ends), rnd.randint(0, 6))))  # at line ends too
        assert run(data, cols, rows, hl, cuts, True) == run(data, cols, rows, hl, cuts, False), seed
    assert wrapped[0] > 20 and tabbed[0] > 20


@pytest.mark.parametrize("params", ["38;2;1;2;3", "48;2;255;0;9", "38;2;256;1;1", "38;2;;1;1",
                                    "48;2;1;2;99999999999", "38;2;001;2;3", "0", "",
                                    "38;2;" + "0" * 60 + "1;2;3"])
def test_sgr_short_forms_match_the_general_walk(params):
    """The reset and lone truecolour are read on a short path; the same parameters behind a
    no-op prefix (bold on, bold off) take the general one and must style cells the same."""
    base = b"\033[31;44;4mA\033(0q\033(B"
    for tail in (b"", b"\033(0"):  # also with the line-drawing set in use
        a = scr(base + tail + f"\033[{params}mxq".encode())
        walk = f"1;22;{params}" if params else "0;0"
        b = scr(base + tail + f"\033[{walk}mxq".encode())
        assert a.row_runs(0) == b.row_runs(0)
        assert a.capture(escapes=True) == b.capture(escapes=True)
