"""Styled hyperlinks (beyond 3.7b: tmux's development tree, the "next" oracle, and the seed's
"Styled hyperlinks"): ``#[link=URI]text#[nolink]`` in the status line and every other format
drawn with styles (messages, menus, popup titles, pane status lines, tree-mode lines).

Compared with the next oracle where it can be: a style option's value through set/show-options
and its rejections; what a client attached on a terminal with the ``hyperlinks`` feature is sent
(its OSC 8 sequences, ids included, and the links on the rows it ends up showing); nothing of
it on a terminal without the feature. Then the seed's rules in-process: links continue across
other style changes until ``nolink``, ``default`` or an empty ``link=``; a URI cannot hold a
style delimiter; a style word is at most 255 bytes; OSC 8 input drops URIs over 1024 bytes
once encoded; the same link keeps its id across redraws; rows without links draw as before.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from harness import Mux, wait_for
from test_attach_perf import PtyTerminal

from hmux_core import render, status, tty_attrs
from hmux_core.options import Style, parse_style, style_link, style_tostring
from hmux_core.screen.hyperlinks import MAX_HYPERLINK_URI, Hyperlinks

HYPERLINKS = 'set -as terminal-features ",xterm-256color:hyperlinks"\n'
OSC8 = re.compile(r"\x1b\]8;[^\x1b]*\x1b\\")
SGR = re.compile(r"\x1b\[[0-9;]*m")


# -- the style option: set, show, rejected -------------------------------------------------------

VALUES = [
    "fg=red,link=https://example.com", "link=https://a/b,bold", "link=", "nolink", "NOlink",
    "NOLINK", "NoLink", "noLINK", "nolink=x", "LINK=http://x", "link=a\\b", "link=https://é",
    "link=x default", "link=x,link=", "link=x,nolink", "link=x,bg=blue,fg=red",
    "link=https://x y", "link=" + "a" * 250, "link=" + "a" * 251,
]


def test_style_option_values_as_next(hmux, next_tmux):
    """set-option of a style with link= accepts and rejects what tmux does (the 255-byte word
    limit, nolink's case), and show-options prints the value as set."""
    for mux in (hmux, next_tmux):
        mux.ok("new-session", "-d", "-s", "s")
    for value in VALUES:
        got = []
        for mux in (hmux, next_tmux):
            r = mux.cmd("set", "-g", "status-style", value)
            got.append((r.rc, r.out, r.err, mux.ok("show", "-g", "status-style"),
                        mux.ok("show", "-gv", "status-style")))
        assert got[0] == got[1], value


# -- drawn on a client's terminal ----------------------------------------------------------------

def _attached(mux: Mux, muxdir: str, conf: str, cmds: list[list[str]], want: str,
              count: int = 1, command: str = "exec cat", width: int = 80
              ) -> tuple[list[str], list[str]]:
    """Attach ``mux`` on an 80x24 PTY (TERM xterm-256color) after ``conf`` to a ``width``
    columns session running ``command``, run ``cmds`` (in the background: a menu or popup
    waits), wait for ``want`` on ``count`` rows; the OSC 8 sequences the terminal was sent
    and its rows with their escapes."""
    path = os.path.join(muxdir, f"links-{mux.socket_args[1]}.conf")
    with open(path, "w") as f:
        f.write(conf)
    mux.ok("-f", path, "new-session", "-d", "-s", "c", "-x", str(width), "-y", "24", command)
    t = PtyTerminal(mux, ["attach", "-t", "c"])
    t.seen = bytearray()
    procs = []
    try:
        wait_for(lambda: t.lines()[-1].strip() != "")
        for c in cmds:
            procs.append(subprocess.Popen(
                list(mux.argv0) + mux.socket_args + c, env=mux.env, cwd=mux.cwd,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(lambda: sum(want in line for line in t.lines()) >= count)
        rows = t.screen.capture(escapes=True)
        return OSC8.findall(bytes(t.seen).decode("utf-8", "replace")), rows
    finally:
        for p in procs:
            p.kill()
            p.wait()
        t.close()


def _once(seqs: list[str]) -> list[str]:
    """The OSC 8 sequences of one drawing: up to where the first comes again (how many
    times a line is drawn depends on timing: tmux draws again when the terminal answers)."""
    return seqs[:seqs.index(seqs[0], 1)] if seqs and seqs[0] in seqs[1:] else seqs


def _links(rows: list[str], ids: bool = True) -> list[str]:
    """The rows from their first hyperlink on, without their colours (the next tree's
    default styles and tree arrows differ from 3.7b's: not what is compared here)."""
    out = [SGR.sub("", row) for row in rows]
    out = [row[row.find("\x1b]8;"):] if "\x1b]8;" in row else "" for row in out]
    if not ids:
        out = [re.sub(r"id=tmux[0-9A-F]+;", "id=;", row) for row in out]
    return out


STATUS = (
    'set -g status-style "link=https://st.yle"\n'  # a base style's link is not drawn
    'set -g status-format[0] "#[link=https://ex.com/a]zz L#[fg=red] M#[nolink]N '
    '#[align=right]#[link=https://b.org,bold]R1 R2#[default]R3 '
    '#[link=https://b.org]R4#[link=]R5 #[link=https://x.y/é]U"\n'
)


def test_status_line_links_as_next(hmux, next_tmux, muxdir):
    """The status line's links: the same OSC 8 sequences (ids from the same numbering: a
    link= style's URI takes one, the status line's copy the next) and the same row."""
    want = _attached(next_tmux, muxdir, HYPERLINKS + STATUS, [], "R5")
    got = _attached(hmux, muxdir, HYPERLINKS + STATUS, [], "R5")
    assert "https://st.yle" not in "".join(want[0])
    assert want[0][:2] == ["\x1b]8;id=tmux3;https://ex.com/a\x1b\\", "\x1b]8;;\x1b\\"]
    assert _once(got[0]) == _once(want[0])
    assert got[1][-1] == want[1][-1]


def test_no_links_without_the_feature(hmux, next_tmux, muxdir):
    """A terminal without the hyperlinks feature is sent no OSC 8 and the same text."""
    want = _attached(next_tmux, muxdir, STATUS, [], "R5")
    got = _attached(hmux, muxdir, STATUS, [], "R5")
    assert want[0] == [] and got[0] == []
    assert got[1][-1] == want[1][-1]


SURFACES = {
    "message": ([["display-message", "-d", "0", "#[link=https://m.sg]msg#[nolink] plain"]],
                "msg plain"),
    "menu": ([["display-menu", "-T", "#[link=https://t.it]Title", "-x", "0", "-y", "0",
               "#[link=https://i.one]one#[nolink] x", "a", "", "plain", "b", ""]], "plain"),
    "popup-title": ([["display-popup", "-x", "0", "-y", "10", "-w", "30", "-h", "5", "-T",
                      "#[link=https://po.p]PT#[nolink] t", "cat"]], "PT t"),
    "choose-tree": ([["choose-tree", "-N", "-F",
                      "#[link=https://s.es/#{session_name}]L#{session_name}#[nolink] rest"]],
                    "Lc rest"),
}


@pytest.mark.parametrize("case", sorted(SURFACES))
def test_other_surfaces_as_next(hmux, next_tmux, muxdir, case):
    """Messages, menus (title and items), popup titles and tree-mode lines link as the status
    line does, with the ids tmux gives them."""
    cmds, want_text = SURFACES[case]
    conf = HYPERLINKS + "set -g status-style default\n"
    want = _attached(next_tmux, muxdir, conf, cmds, want_text)
    got = _attached(hmux, muxdir, conf, cmds, want_text)
    assert want[0]
    assert _once(got[0]) == _once(want[0])
    rows = [i for i, row in enumerate(want[1]) if "\x1b]8;" in row]
    assert rows
    assert [_links(got[1])[i] for i in rows] == [_links(want[1])[i] for i in rows]


def test_pane_status_links_as_next(hmux, next_tmux, muxdir):
    """pane-border-format links. tmux makes each pane status line a new screen every time it
    draws one, so its ids go up with every redraw; hmux keeps one id per link (the seed's
    stable ids), so the ids are left out here."""
    conf = (HYPERLINKS + "set -g status-style default\nset -g pane-border-status top\n"
            'set -g pane-border-format "#[link=https://p.b]PB#[nolink] x"\n')
    want = _attached(next_tmux, muxdir, conf, [["split-window", "-d"]], "PB x", 2)
    got = _attached(hmux, muxdir, conf, [["split-window", "-d"]], "PB x", 2)
    assert {re.sub("id=tmux[0-9A-F]+;", "", s) for s in got[0]} \
        == {re.sub("id=tmux[0-9A-F]+;", "", s) for s in want[0]}
    rows = [i for i, row in enumerate(want[1]) if "\x1b]8;" in row]
    assert len(rows) == 2
    assert [_links(got[1], False)[i] for i in rows] == [_links(want[1], False)[i] for i in rows]


def test_long_osc8_uri_from_a_pane_as_next(hmux, next_tmux):
    """OSC 8 from a pane: a URI over 1024 bytes (once encoded) gets no link; 1024 does."""
    long, edge = "http://" + "a" * 1020, "http://" + "c" * (MAX_HYPERLINK_URI - 7)
    script = (f"printf '\\033]8;;{long}\\033\\\\long\\033]8;;\\033\\\\ "
              f"\\033]8;;{edge}\\033\\\\edge\\033]8;;\\033\\\\\\nEND\\n'; exec cat")
    got = []
    for mux in (hmux, next_tmux):
        mux.ok("new-session", "-d", "-s", "c", "-x", "80", "-y", "10", script)
        wait_for(lambda m=mux: "END" in m.capture("c"))
        got.append(mux.capture("c", "-e"))
    assert got[0] == got[1]
    assert "a" * 1020 not in got[0] and edge in got[0]


# -- the seed's rules, in-process ----------------------------------------------------------------

def _drawn(fmt: str, links: Hyperlinks | None, width: int = 40) -> list[tuple[str, object]]:
    return status.draw(fmt, width, Style(), links=links)


def _link_of(cell: tuple[str, tuple]) -> str | None:
    return cell[1][4][1] if len(cell[1]) > 4 else None


def test_links_continue_until_nolink_default_or_empty():
    hl = Hyperlinks()
    cells = _drawn("#[link=https://a]a#[fg=red]b#[bold]c#[nolink]d"
                   "#[link=https://b]e#[default]f#[link=https://c]g#[link=]h", hl)
    text = "".join(c[0] for c in cells[:8])
    assert text == "abcdefgh"
    assert [_link_of(c) for c in cells[:8]] == [
        "https://a", "https://a", "https://a", None, "https://b", None, "https://c", None]
    # the colours and attributes change under the link as without it
    linked = status.ATTR_LINKED
    assert cells[1][1][:4] == (linked, 1, 8, 0) and cells[2][1][:4] == (linked | 1, 1, 8, 0)


def test_uri_delimiters_and_word_limit():
    """A URI ends at a space, comma or newline (what follows is another style word: here an
    invalid one); a style word is at most 255 bytes, link= and URI together."""
    assert parse_style("link=https://a b") is None
    sy = parse_style("link=https://a,bold")
    assert sy is not None and style_link(sy) == "https://a" and sy.attr == 1
    assert parse_style("link=https://a\nbold") is not None
    assert parse_style("link=" + "u" * 250) is not None
    assert parse_style("link=" + "u" * 251) is None
    assert parse_style("link=" + "é" * 125) is not None  # 5 + 250 bytes
    assert parse_style("link=" + "é" * 126) is None


def test_style_links_print_back_and_share_the_store():
    sy = parse_style("fg=red,link=https://p/q")
    assert style_tostring(sy) == "fg=red,link=https://p/q"
    assert style_tostring(parse_style("link=a\\b")) == "link=a\\\\b"  # vis-encoded as stored
    from hmux_core import options
    from hmux_core.screen import hyperlinks

    # the style store is a hyperlink set like a screen's, under the same eviction
    assert isinstance(options.STYLE_LINKS, Hyperlinks)
    assert (options.STYLE_LINKS._key, sy.link) in hyperlinks._GLOBAL
    copy = sy.copy()
    assert copy.link == sy.link and copy == sy


def test_ids_stable_across_redraws_and_base_link_ignored():
    hl = Hyperlinks()
    first = _drawn("#[link=https://s]x", hl)[0][1][4]
    again = _drawn("#[link=https://s]x", hl)[0][1][4]
    assert first == again and first[0].startswith("tmux") and len(hl) == 1
    base = parse_style("link=https://base")
    assert all(len(c[1]) == 4 for c in status.draw("plain", 10, base, links=hl))


def test_without_links_cells_and_bytes_are_unchanged():
    """No link style: plain four-member styles and no OSC 8; without a hyperlink set (a
    caller that does not draw) link styles draw plain too."""
    cells = _drawn("#[fg=red]a#[bold]b c#[default]d", Hyperlinks())
    assert all(len(c[1]) == 4 for c in cells)
    assert "\x1b]8" not in render._row_string(cells)
    assert all(len(c[1]) == 4 for c in _drawn("#[link=https://a]a", None))


def test_osc8_only_to_a_terminal_with_hyperlinks():
    cells = _drawn("#[link=https://a]a b#[nolink]c", Hyperlinks(), 5)
    plain = tty_attrs.pen_index(tty_attrs.FULL)
    linked = tty_attrs.pen_index(tty_attrs.FULL._replace(links=True))
    assert render._row_string(cells, plain) == "\x1b[0ma bc "
    out = render._row_string(cells, linked)
    assert OSC8.sub("", out) == "\x1b[0ma bc "
    assert out.count("\x1b]8;;\x1b\\") == 1 and ";https://a\x1b\\a b\x1b]8;;" in out
    # a linked blank is not an empty cell: it keeps its link
    assert render._tty_empties(cells, True)[1] == cells[1]


def test_popup_command_links_as_tmux(hmux, tmux, muxdir):
    """3.7: hyperlinks a popup's command prints (OSC 8) are drawn on a terminal with the
    feature, as a pane's are, and stay when the popup is drawn again."""
    script = ("printf 'a \\033]8;id=x;https://po.p/1\\033\\\\LINK\\033]8;;\\033\\\\ b\\n'; "
              "printf 'POPUP'; exec cat")
    cmds = [["display-popup", "-w", "30", "-h", "6", script]]
    want = _attached(tmux, muxdir, HYPERLINKS, cmds, "POPUP")
    got = _attached(hmux, muxdir, HYPERLINKS, cmds, "POPUP")
    assert _once(want[0]) and {s for s in got[0]} == {s for s in want[0]}
    rows = [i for i, row in enumerate(want[1]) if "\x1b]8;" in row]
    assert len(rows) == 1
    assert [_links(got[1])[i] for i in rows] == [_links(want[1])[i] for i in rows]


def test_links_in_a_panned_view_as_tmux(hmux, tmux, muxdir):
    """A window wider than the terminal is shown panned to the cursor: a link in the part
    shown is drawn as 3.7b draws it."""
    script = ("printf '%90s\\033]8;id=q;https://pan.ned\\033\\\\PANNED\\033]8;;\\033\\\\ z'"
              "; exec cat")
    conf = HYPERLINKS + "set -g window-size manual\n"
    want = _attached(tmux, muxdir, conf, [], "PANNED", command=script, width=120)
    got = _attached(hmux, muxdir, conf, [], "PANNED", command=script, width=120)
    assert _once(want[0]) and set(got[0]) == set(want[0])
    rows = [i for i, row in enumerate(want[1]) if "\x1b]8;" in row]
    assert len(rows) == 1
    assert [_links(got[1])[i] for i in rows] == [_links(want[1])[i] for i in rows]


def test_links_under_a_menu_as_tmux(hmux, tmux, muxdir):
    """While a menu is shown over the window, a pane's link outside it is still drawn (the
    frame is built of cells for the overlay to draw over)."""
    script = ("printf '\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n\\033]8;id=m;https://me.nu\\033\\\\"
              "UNDER\\033]8;;\\033\\\\ z'; exec cat")
    cmds = [["display-menu", "-x", "0", "-y", "4", "MenuItem", "a", ""]]
    want = _attached(tmux, muxdir, HYPERLINKS, cmds, "MenuItem", command=script)
    got = _attached(hmux, muxdir, HYPERLINKS, cmds, "MenuItem", command=script)
    assert set(got[0]) == set(want[0]) and want[0]
    rows = [i for i, row in enumerate(want[1]) if "\x1b]8;" in row]
    assert len(rows) == 1
    assert [_links(got[1])[i] for i in rows] == [_links(want[1])[i] for i in rows]
