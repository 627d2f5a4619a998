"""Copy mode and clock mode against tmux 3.7b, detached: the same pane content and history,
the same ``copy-mode`` / ``send -X`` / keys, then the copy-mode formats after every step and
the paste buffers at the end must be identical."""

from __future__ import annotations

import os

import pytest
from harness import wait_for

# One line per step of a scenario: a command and its arguments separated by "|".
FMT = ("#{pane_in_mode} #{pane_mode} cx=#{copy_cursor_x} cy=#{copy_cursor_y} "
       "sp=#{scroll_position} sel=#{selection_present} #{selection_start_x},#{selection_start_y}"
       "-#{selection_end_x},#{selection_end_y} act=#{selection_active} rect=#{rectangle_toggle} "
       "srch=#{search_present} m=[#{search_match}] w=[#{copy_cursor_word}] "
       "l=[#{copy_cursor_line}] s=[#{pane_search_string}] #{selection_mode} "
       "#{search_count}/#{search_count_partial}/#{search_timed_out} "
       "#{copy_position}/#{copy_position_limit} t=#{e|>:#{top_line_time},0}")

LINES = ("for i in $(seq 1 25); do echo line$i foo-bar baz.qux; done; "
         "printf 'the end  (x) [y]\\n'; exec cat")
WRAPPED = ("printf 'short\\n'; for i in 1 2 3; do printf 'averyveryverylongword%.0s-' 1 2 3 4; "
           "printf 'wrap%s end\\n' $i; done; printf '日本語 テキスト wide 中文字\\n'; "
           "printf 'a\\tb  c\\n\\n\\npara two\\n  indented line\\nthe end\\n'; exec cat")

MOTIONS = [
    "copy-mode", "send|-X|cursor-up", "send|-X|start-of-line", "send|-X|begin-selection",
    "send|-X|next-word", "send|-X|next-word-end", "send|-X|copy-selection", "send|-X|page-up",
    "send|-X|halfpage-up", "send|-X|history-top", "send|-X|cursor-right", "send|-X|end-of-line",
    "send|-X|halfpage-down", "send|-X|goto-line|3", "send|-X|middle-line", "send|-X|bottom-line",
    "send|-X|top-line", "send|-N|3|-X|cursor-down", "send|-X|back-to-indentation",
    "send|-X|jump-forward|.", "send|-X|jump-again", "send|-X|jump-backward|o",
    "send|-X|jump-to-forward|z", "send|-X|jump-to-backward|-", "send|-X|jump-reverse",
    "send|-X|previous-word", "send|-X|previous-space", "send|-X|next-space",
    "send|-X|next-space-end", "send|-X|scroll-up", "send|-X|scroll-down", "send|-X|set-mark",
    "send|-X|history-bottom", "send|-X|jump-to-mark", "send|-X|page-down", "send|-X|cancel",
]

SELECTIONS = [
    "copy-mode", "send|-X|history-top", "send|-X|cursor-down", "send|-X|next-word",
    "send|-X|begin-selection", "send|-N|2|-X|cursor-down", "send|-X|next-word-end",
    "send|-X|copy-selection", "send|-X|select-line", "send|-N|2|-X|cursor-down",
    "send|-X|other-end", "send|-X|cursor-up", "send|-X|copy-selection-no-clear",
    "send|-X|clear-selection", "send|-X|rectangle-toggle", "send|-X|begin-selection",
    "send|-X|cursor-down", "send|-X|cursor-down", "send|-X|cursor-right", "send|-X|cursor-right",
    "send|-X|copy-selection|named", "send|-X|rectangle-off", "send|-X|select-word",
    "send|-X|append-selection", "send|-X|stop-selection", "send|-X|copy-end-of-line",
    "send|-X|copy-line", "send|-X|begin-selection", "send|-X|cursor-left",
    "send|-X|copy-selection-and-cancel",
]

SEARCHES = [
    "copy-mode", "send|-X|search-backward|foo", "send|-X|search-again",
    "send|-X|search-reverse", "send|-X|search-backward|ba[rz]", "send|-X|search-again",
    "send|-X|cursor-up", "send|-X|search-forward-text|(x)", "send|-X|search-backward-text|.",
    "send|-X|search-forward-incremental|=line2", "send|-X|search-forward-incremental|=line23",
    "send|-X|search-forward-incremental|+line23", "send|-X|search-backward-incremental|-line",
    "send|-X|search-backward|nothing-like-this", "send|-X|search-forward|FOO",
    "send|-X|search-backward|line1[0-9]", "send|-X|copy-selection", "send|-X|cancel",
    "copy-mode", "send|-X|search-again", "send|-X|cancel",
]


# Commands tmux 3.4 to 3.7 added, and the flags of the copy commands.
NEWER = [
    "copy-mode", "send|-X|history-top", "send|-N|4|-X|cursor-down", "send|-X|scroll-middle",
    "send|-X|scroll-top", "send|-X|scroll-bottom", "send|-X|recentre-top-bottom",
    "send|-X|recentre-top-bottom", "send|-X|recentre-top-bottom", "send|-X|cursor-up",
    "send|-X|recentre-top-bottom", "send|-X|cursor-centre-vertical",
    "send|-X|cursor-centre-horizontal", "send|-X|selection-mode|word",
    "send|-X|begin-selection", "send|-X|cursor-right", "send|-X|selection-mode|line",
    "send|-X|cursor-down", "send|-X|selection-mode", "send|-X|copy-selection|-P",
    "send|-X|copy-selection-no-clear|-C|onlybuffer", "send|-X|copy-line|-P|-C",
    "send|-X|copy-selection|-x", "send|-X|search-backward|-line", "send|-X|search-forward|",
    "send|-X|scroll-exit-on", "send|-X|history-bottom", "send|-X|scroll-exit-off",
    "send|-X|page-up", "send|-X|scroll-exit-toggle", "send|-X|page-down",
    "copy-mode", "send|-X|page-up", "copy-mode|-d", "copy-mode|-u", "copy-mode|-e|-d",
]


def _quote(arg: str) -> str:
    return "'" + arg.replace("'", "'\\''") + "'"


def _run(m, text: str, steps: list[str], waitfor: str, options: list[list[str]],
         tmp: str) -> tuple[list[str], list[str]]:
    """Run the steps as one sourced file (one client for all of them: an error does not stop
    the rest), each followed by the formats; returns stdout and stderr lines."""
    m.ok("new-session", "-d", "-x", "40", "-y", "10", text)
    wait_for(lambda: waitfor in m.capture(":", "-J", "-S", "-"))
    for opt in options:
        m.ok(*opt)
    lines = []
    for i, step in enumerate(steps):
        lines.append(" ".join(_quote(a) for a in step.split("|")))
        lines.append(f"display -p {_quote(f'{i} {step}: ' + FMT)}")
    lines.append("list-buffers -F '#{buffer_name}=#{buffer_sample}'")
    path = os.path.join(tmp, f"steps-{m.socket_args[1]}.conf")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    r = m.cmd("source-file", path)
    out = r.out.splitlines()
    for name in m.ok("list-buffers", "-F", "#{buffer_name}").split():
        out.append(m.ok("show-buffer", "-b", name))
    err = [e.replace(path, "FILE") for e in r.err.splitlines()]
    return out, err


def _compare(tmux, hmux, text, steps, waitfor="the end", options=()) -> list[str]:
    tmp = os.path.dirname(tmux.env["HOME"])
    want, want_err = _run(tmux, text, steps, waitfor, list(options), tmp)
    got, got_err = _run(hmux, text, steps, waitfor, list(options), tmp)
    for a, b in zip(want, got, strict=False):
        assert b == a, f"tmux {a!r} hmux {b!r}"
    assert got == want
    assert got_err == want_err
    return got + got_err


@pytest.mark.parametrize("keys", ["emacs", "vi"])
@pytest.mark.parametrize("steps", [MOTIONS, SELECTIONS, SEARCHES], ids=["motions", "select",
                                                                         "search"])
def test_commands_match_tmux(tmux, hmux, keys, steps):
    got = _compare(tmux, hmux, LINES, steps, options=[["set", "-g", "mode-keys", keys]])
    assert any(" copy-mode " in line for line in got)


@pytest.mark.parametrize("keys", ["emacs", "vi"])
def test_newer_commands_match_tmux(tmux, hmux, keys):
    got = _compare(tmux, hmux, LINES, NEWER, options=[["set", "-g", "mode-keys", keys]])
    assert any("onlybuffer" in line for line in got)


@pytest.mark.parametrize("keys", ["emacs", "vi"])
def test_wrapped_and_wide_lines(tmux, hmux, keys):
    steps = [
        "copy-mode", "send|-X|history-top", "send|-X|cursor-down", "send|-X|begin-selection",
        "send|-X|next-word", "send|-X|next-word", "send|-X|next-word-end",
        "send|-X|next-word-end", "send|-X|end-of-line", "send|-X|copy-selection",
        "send|-X|start-of-line", "send|-N|3|-X|cursor-down", "send|-X|end-of-line",
        "send|-X|start-of-line", "send|-N|7|-X|cursor-down", "send|-N|3|-X|cursor-right",
        "send|-X|begin-selection", "send|-N|2|-X|next-word", "send|-X|copy-selection",
        "send|-X|next-paragraph", "send|-X|previous-paragraph", "send|-X|search-forward|テ",
        "send|-X|search-forward|wrap2", "send|-X|search-backward|long.*wrap",
        "send|-X|search-forward|word-a", "send|-X|select-line", "send|-X|copy-selection",
        "send|-X|search-backward|中", "send|-X|jump-forward|字", "send|-X|jump-backward|語",
        "send|-X|previous-word", "send|-X|next-word-end", "send|-X|back-to-indentation",
        "send|-X|rectangle-on", "send|-X|begin-selection", "send|-N|2|-X|cursor-up",
        "send|-N|5|-X|cursor-right", "send|-X|copy-selection-and-cancel",
    ]
    _compare(tmux, hmux, WRAPPED, steps, options=[["set", "-g", "mode-keys", keys]])


BRACKETS = "printf 'if (a[1] == {b}) { x(y(z)) }\\nfoo (bar\\nbaz) qux ]\\nthe end\\n'; exec cat"


@pytest.mark.parametrize("keys", ["emacs", "vi"])
def test_matching_brackets(tmux, hmux, keys):
    steps = [
        "copy-mode", "send|-X|history-top", "send|-X|next-matching-bracket",
        "send|-X|next-matching-bracket", "send|-X|previous-matching-bracket",
        "send|-N|2|-X|cursor-right", "send|-X|next-matching-bracket",
        "send|-X|previous-matching-bracket", "send|-X|end-of-line",
        "send|-X|previous-matching-bracket", "send|-X|previous-matching-bracket",
        "send|-X|cursor-down", "send|-X|start-of-line", "send|-X|next-matching-bracket",
        "send|-X|next-matching-bracket", "send|-X|cursor-down", "send|-X|end-of-line",
        "send|-X|previous-matching-bracket", "send|-X|cursor-left",
        "send|-X|previous-matching-bracket", "send|-X|jump-backward|)",
        "send|-X|previous-matching-bracket", "send|-X|next-matching-bracket",
    ]
    _compare(tmux, hmux, BRACKETS, steps, options=[["set", "-g", "mode-keys", keys]])


def test_resize_keeps_the_cursor_cell(tmux, hmux):
    """A resize in copy mode reflows and finds the cursor's cell again (or a line's end)."""
    steps = [
        "copy-mode", "send|-X|cursor-up", "send|-X|cursor-up", "send|-X|begin-selection",
        "resize-window|-x|30", "send|-X|cursor-up", "resize-window|-x|50|-y|8",
        "send|-X|page-up", "resize-window|-x|40|-y|10", "send|-X|history-top",
        "resize-window|-x|20", "send|-X|search-forward|qux", "resize-window|-x|40",
        "send|-X|end-of-line", "resize-window|-x|15", "send|-X|cursor-down",
        "resize-window|-x|33|-y|12", "send|-X|history-bottom", "resize-window|-x|12|-y|5",
        "send|-X|cursor-up", "send|-X|cursor-left", "resize-window|-x|7",
    ]
    _compare(tmux, hmux, LINES, steps)


def test_search_counts_every_match_in_a_long_history(tmux, hmux):
    """The match count (#{search_count}, which the position indicator shows) covers the
    whole history (tmux's 200 ms budget for counting is never reached there; hmux counts
    plain text at once)."""
    text = ("for i in $(seq 1 1800); do echo row$i foo foo; done; printf 'the end\\n'; "
            "exec cat")
    count = "display|-p|count=#{search_count}#{?search_count_partial,+,}"
    steps = ["copy-mode", "send|-X|search-backward-text|foo", count, "send|-X|history-top",
             "send|-X|search-forward|row1[0-9]*7 ", count, "send|-X|search-backward-text|FOO",
             count, "send|-X|cancel"]
    steps[3:3] = ["send|-X|top-line"]  # vi keeps the marks and their count
    got = _compare(tmux, hmux, text, steps, waitfor="the end",
                   options=[["set", "-g", "mode-keys", "vi"]])
    assert any(line == "count=3600" for line in got)


def test_entry_flags_and_exit_at_bottom(tmux, hmux):
    steps = [
        "copy-mode|-u", "send|-X|scroll-down", "send|-X|page-down", "copy-mode|-e",
        "send|-X|page-up", "send|-X|scroll-down", "send|-X|halfpage-down", "send|-X|page-down",
        "copy-mode|-e", "send|-X|scroll-up", "send|-X|scroll-down", "copy-mode|-H",
        "send|-X|toggle-position", "send|-X|page-down-and-cancel", "copy-mode",
        "send|-X|cursor-down-and-cancel", "copy-mode", "send|-X|scroll-down-and-cancel",
        "copy-mode|-u", "send|-X|halfpage-down-and-cancel", "send|-X|halfpage-down-and-cancel",
        "copy-mode", "copy-mode", "copy-mode|-q", "send|-X|cancel", "send|-N|0|-X|cancel",
        "copy-mode|-t|%99", "copy-mode|-s|nosuch", "copy-mode|-s|%0", "send|-X|no-such-command",
        "send|-X|goto-line", "send|-X|cancel",
    ]
    got = _compare(tmux, hmux, LINES, steps)
    assert any("repeat count too small" in line for line in got)


def test_keys_through_the_mode_tables(tmux, hmux):
    steps = [
        "copy-mode", "send|C-Space", "send|M-f", "send|M-f", "send|M-w", "send|C-r",
        "send|q", "send|C-p", "send|-X|cancel", "set|-g|mode-keys|vi", "copy-mode", "send|k",
        "send|0", "send|v", "send|w", "send|e", "send|y", "copy-mode", "send|-N|3|k", "send|V",
        "send|j", "send|Enter", "copy-mode", "send|g", "send|G", "send|q",
        "copy-mode", "bind|-Tcopy-mode-vi|C-b|send|-X|cursor-up", "send-prefix", "send-prefix",
        "send-prefix|-2", "send|-X|search-backward|[[:digit:]]+ f", "send|-X|search-again",
        "send|-X|search-forward|\\<ba", "send|-X|search-again", "send|q",
    ]
    _compare(tmux, hmux, LINES, steps)


def test_view_mode_from_run_shell(tmux, hmux):
    """run-shell output goes to view mode in the pane: copy mode over the printed lines, with
    their colours, scrolled to keep the first ones in view as more arrive."""
    steps = [
        "run-shell|-t|%0|printf 'a\\nbb\\n\\033[31mred\\033[0m x\\n'", "send|-X|cursor-down",
        "run-shell|-t|%0|seq 1 30", "send|-X|cursor-down", "send|-X|history-bottom",
        "send|-X|search-backward|2", "send|-X|begin-selection", "send|-X|cursor-right",
        "send|-X|copy-selection", "copy-mode", "send|-X|cancel", "send|-X|cancel",
        "run-shell|-t|%0|exit 3", "send|-X|refresh-from-pane", "send|-X|history-top",
        "send|-X|cancel",
    ]
    got = _compare(tmux, hmux, LINES, steps)
    assert any(": 1 view-mode " in line for line in got)


def test_copy_pipe_feeds_the_command(tmux, hmux, muxdir):
    outs = []
    for m in (tmux, hmux):
        path = os.path.join(muxdir, f"pipe-{len(outs)}.out")
        m.ok("new-session", "-d", "-x", "40", "-y", "10", LINES)
        wait_for(lambda m=m: "the end" in m.capture(":"))
        for step in ("copy-mode", "send|-X|cursor-up", "send|-X|select-line",
                     f"send|-X|copy-pipe|printf '<%s>' \"$(cat)\" > {path}"):
            m.ok(*step.split("|"))
        # The jobs are not waited for: the second must not race the first one's ">".
        wait_for(lambda p=path: os.path.exists(p) and open(p).read().endswith(">"))
        for step in ("send|-X|begin-selection", "send|-X|previous-word",
                     f"send|-X|copy-pipe-and-cancel|cat >> {path}|pf"):
            m.ok(*step.split("|"))
        wait_for(lambda p=path: open(p).read().endswith("]"))
        outs.append((open(path).read(), m.ok("list-buffers", "-F", "#{buffer_name}"),
                     m.ok("display", "-p", "#{pane_in_mode}")))
    assert outs[1] == outs[0]
    assert outs[0][0].startswith("<the end  (x) [y]>")
    assert outs[0][1] == "pf1\nbuffer0\n"


def test_clock_mode_stack(tmux, hmux):
    steps = [
        "clock-mode", "send|-X|cancel", "send|-N|2|-X|cancel", "send|q", "copy-mode",
        "clock-mode", "copy-mode", "send|-X|cancel", "send|-X|cancel", "copy-mode|-q",
        "clock-mode|-t|%5", "copy-mode", "clock-mode", "clear-history", "copy-mode",
        "respawn-pane|-k", "send|-X|cancel",
    ]
    got = _compare(tmux, hmux, LINES, steps)
    assert any(": 2 copy-mode " in line for line in got)
    assert any("not in a mode" in line for line in got)


def test_copy_mode_sees_a_snapshot(tmux, hmux, muxdir):
    """Output arriving while in copy mode does not change what the mode shows until
    refresh-from-pane takes a new copy."""
    results = []
    for m in (tmux, hmux):
        flag = os.path.join(muxdir, f"flag-{len(results)}")
        m.ok("new-session", "-d", "-x", "40", "-y", "10",
             f"seq 1 20; while [ ! -e {flag} ]; do sleep 0.02; done; echo NEW; exec cat")
        wait_for(lambda m=m: "20" in m.capture(":"))
        m.ok("copy-mode")
        before = m.ok("display", "-p", FMT)
        open(flag, "w").close()
        wait_for(lambda m=m: "NEW" in m.capture(":"))
        during = m.ok("display", "-p", FMT)
        m.ok("send", "-X", "refresh-from-pane")
        m.ok("send", "-X", "history-bottom")
        m.ok("send", "-X", "cursor-up")
        after = m.ok("display", "-p", FMT)
        results.append((before, during, after))
    assert results[1] == results[0]
    before, during, after = results[0]
    assert before == during
    assert "l=[NEW]" in after
