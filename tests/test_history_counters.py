"""History counters beyond tmux 3.7b, by the seed's rule: "History additions, collection and
reset/reflow generations are available as history_added, history_collected and
history_generation. pane_output_generation advances for each nonempty input batch, so its
exact count depends on input batching."

history_added counts lines pushed into history, history_collected the lines history-limit
collection (or the byte budget) dropped from its top, history_generation advances when the lines
already in history change otherwise: cleared (clear-history, CSI 3 J), reflowed by a width
change, or taken back onto the screen by a taller pane. RIS keeps the history (as tmux does), so
it changes none of them. In-process for every engine (Ghostty counts from the change in its
scrollback at each read), and through a real server with the default engine.
"""

from __future__ import annotations

import pytest
from harness import wait_for

from hmux_core.screen import available_engines, new_screen

ENGINES = available_engines()

LINES = b"".join(b"%d\r\n" % i for i in range(30))


def counters(s) -> tuple[int, int, int]:
    return s.history_added, s.history_collected, s.history_generation


def test_added_and_collected_exact_whatever_the_batching():
    """30 lines on a 3-row screen scroll 28 into history; with history-limit 10 each push at
    the limit first collects 10 % (one line): 18 collected. One read (the batch path) and a
    byte at a time (the per-line path) count alike, and added - collected is the history."""
    one = new_screen(10, 3, 10, "python")
    one.feed(LINES)
    bytewise = new_screen(10, 3, 10, "python")
    for i in range(len(LINES)):
        bytewise.feed(LINES[i : i + 1])
    assert counters(one) == counters(bytewise) == (28, 18, 0)
    assert one.history_size == 28 - 18
    assert one.capture(start=-10) == bytewise.capture(start=-10)


def test_limit_change_collects():
    s = new_screen(10, 3, 100, "python")
    s.feed(LINES)
    s.apply_history_limit(20)  # session_update_history: everything beyond the limit at once
    assert counters(s) == (28, 8, 0)
    assert s.history_size == 20


@pytest.mark.parametrize("engine", ENGINES)
def test_clear_and_ris(engine):
    s = new_screen(10, 3, 1000, engine)
    s.feed(LINES)
    assert counters(s) == (28, 0, 0)
    s.feed(b"\x1bc")  # RIS: the history stays (the screen scrolls into it), nothing moved
    assert s.history_size >= 28
    assert s.history_added - s.history_collected == s.history_size
    assert s.history_generation == 0
    s.clear_history()
    assert s.history_size == 0
    assert s.history_generation == 1
    assert s.history_collected == 0  # cleared is not collected
    s.clear_history()  # nothing to clear: the same generation
    assert s.history_generation == 1
    added = s.history_added
    s.feed(b"\x1b[H" + LINES)
    assert s.history_added == added + 28
    s.feed(b"\x1b[3J")  # CSI 3 J clears it as clear-history does
    assert (s.history_size, s.history_generation) == (0, 2)


@pytest.mark.parametrize("engine", ENGINES)
def test_resize_generations(engine):
    s = new_screen(10, 5, 1000, engine)
    s.feed(LINES)
    before = counters(s)
    s.resize(10, 3)  # shorter: two lines pushed into history, nothing moved
    assert s.history_added == before[0] + 2
    assert s.history_generation == before[2]
    s.resize(10, 8)  # taller: lines taken back from history
    assert s.history_generation == before[2] + 1
    s.resize(6, 8)  # narrower: history reflowed
    assert s.history_generation == before[2] + 2


def test_formats_through_a_server(hmux):
    hmux.ok("set", "-g", "history-limit", "10", ";",
            "new-session", "-d", "-x", "20", "-y", "3", "seq 1 30; exec cat")
    fmt = "#{history_added} #{history_collected} #{history_generation} #{history_size}"
    wait_for(lambda: hmux.ok("display", "-p", fmt).strip() == "28 18 0 10")
    hmux.ok("clear-history")
    assert hmux.ok("display", "-p", fmt).strip() == "28 18 1 0"
    hmux.ok("resize-window", "-x", "10")  # reflow: a new generation
    wait_for(lambda: hmux.ok("display", "-p", "#{history_generation}").strip() == "2")
