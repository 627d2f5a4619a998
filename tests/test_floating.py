"""Floating panes beyond tmux 3.7b, and layouts as data, against the next oracle and on their own.

What tmux 3.7b already has of floating panes (new-pane, z-order, zoom, kill, list-panes, the
``<...>`` part of ``#{window_layout}``) is compared with 3.7b in tests/diff_cases.py (``np-*``)
and drawn against it in tests/test_floating_draw.py. Here: the operations tmux's development
tree added (split-window in a floating pane, resize-pane and move-pane on one, break-pane -W,
join-pane tiling one back, swap-pane with one, -T titles, -k on choosers and copy mode), each
script run on hmux and on the development tree and their answers compared; then what only hmux
has (JSON layouts, ``display-message -j``, layouts applied back to the window they came from,
hostile layouts refused without a change).
"""

from __future__ import annotations

import json
import subprocess

import pytest
from harness import wait_for

GEOM = ("#{pane_id} #{pane_left},#{pane_top} #{pane_width}x#{pane_height} f#{pane_floating_flag} "
        "z#{pane_z} #{pane_flags}#{?pane_active, *,}")
STATE = ("list-panes", "-F", GEOM)
NS = ("new-session", "-d", "-s", "a", "-x", "80", "-y", "24", "cat")


def _run(mux, steps) -> list[tuple[int, str, str]]:
    out = []
    for step in steps:
        r = mux.cmd(*step)
        out.append((r.rc, r.out, r.err))
    return out


SCRIPTS = {
    "split-in-floating": [NS, ("new-pane", "cat"), ("split-window", "-h", "cat"), STATE,
                          ("split-window", "-v", "-b", "cat"), STATE,
                          ("split-window", "-f", "-h", "cat"), STATE],
    # (break-pane -W sizes a floating pane as the development tree does, borders included;
    # new-pane keeps 3.7b's sizes)
    "split-in-floating-no-space": [NS, ("split-window", "cat"),
                                   ("break-pane", "-W", "-x", "6", "-y", "4", "-X", "70"),
                                   STATE, ("split-window", "cat"), ("split-window", "cat"),
                                   ("split-window", "-h", "cat"), ("split-window", "cat"),
                                   STATE],
    "resize-floating": [NS, ("new-pane", "cat"), ("resize-pane", "-x", "20"), STATE,
                        ("resize-pane", "-y", "50%"), STATE, ("resize-pane", "-L", "3"), STATE,
                        ("resize-pane", "-U"), STATE, ("resize-pane", "-R", "--", "-1"), STATE,
                        ("resize-pane", "-x", "1"), ("resize-pane", "-D", "0"), STATE],
    "move-floating": [NS, ("new-pane", "cat"), ("new-pane", "cat"), ("move-pane", "-X", "3"),
                      STATE, ("move-pane", "-Y", "10%", "-t", "%1"), STATE,
                      ("move-pane", "-L", "-D"), STATE, ("move-pane", "-R", "7", "-U", "2"),
                      STATE, ("move-pane", "-X", "abc"), ("move-pane", "-X", "200"),
                      ("move-pane", "-X", "3", "-t", "%0")],
    "move-floating-places": [NS, ("new-pane", "cat"), ("new-pane", "cat"), ("new-pane", "cat"),
                             *[step for pos in ("top-left", "centre", "bottom-right",
                                                "top-right-center", "bottom-left-centre")
                               for step in (("move-pane", "-P", pos), STATE)],
                             ("move-pane", "-P", "nowhere")],
    "move-floating-z": [NS, ("new-pane", "cat"), ("new-pane", "cat"), ("new-pane", "cat"),
                        *[step for pos in ("back", "front", "backward", "forward",
                                           "backward-loop", "forward-loop")
                          for step in (("move-pane", "-P", pos, "-t", "%2"), STATE)],
                        ("move-pane", "-z", "2", "-t", "%3"), STATE,
                        ("move-pane", "-z", "0", "-t", "%1"), STATE,
                        ("move-pane", "-z", "x")],
    "break-float": [NS, ("split-window", "-h", "cat"), ("split-window", "cat"),
                    ("break-pane", "-W"), STATE, ("break-pane", "-W"),
                    ("break-pane", "-W", "-t", "%0", "-x", "20", "-y", "10", "-X", "5", "-Y", "5"),
                    STATE, ("break-pane", "-W", "-s", "%1", "-x", "0"), STATE],
    "join-tile": [NS, ("split-window", "-h", "cat"), ("split-window", "cat"),
                  ("break-pane", "-W"), ("join-pane", "-s", "%2", "-t", "%2"), STATE,
                  ("new-pane", "cat"), ("join-pane", "-s", "%3", "-t", "%3"), STATE,
                  ("join-pane", "-s", "%0", "-t", "%0")],
    "swap-floating": [NS, ("split-window", "-h", "cat"), ("new-pane", "cat"),
                      ("swap-pane", "-s", "%2", "-t", "%0"), STATE,
                      ("swap-pane", "-D", "-t", "%1"), STATE, ("swap-pane", "-U", "-t", "%0"),
                      ("swap-pane", "-D", "-t", "%2"), STATE],
    "titles": [NS, ("split-window", "-T", "t #{pane_id}", "cat"),
               ("display-message", "-p", "#{pane_title}"), ("new-pane", "-T", "", "cat"),
               ("display-message", "-p", "[#{pane_title}]"), ("new-pane", "-T", "a#b", "cat"),
               ("display-message", "-p", "[#{pane_title}]")],
    "kill-on-exit": [NS, ("split-window", "cat"), ("copy-mode", "-k", "-t", "%0"),
                     ("send-keys", "-t", "%0", "-X", "cancel"), ("list-panes", "-F", "#{pane_id}"),
                     ("split-window", "cat"), ("copy-mode", "-k"), ("kill-pane", "-t", "%2"),
                     ("list-panes", "-F", "#{pane_id} #{pane_in_mode}")],
    "tree-kill-on-exit": [NS, ("split-window", "cat"), ("split-window", "cat"),
                          ("set-buffer", "x"), ("choose-tree", "-k", "-t", "%0"),
                          ("list-panes", "-F", "#{pane_id} #{pane_in_mode}"),
                          ("copy-mode", "-q", "-t", "%0"), ("list-panes", "-F", "#{pane_id}"),
                          ("choose-buffer", "-k", "-t", "%1"), ("copy-mode", "-q", "-t", "%1"),
                          ("list-panes", "-F", "#{pane_id}"),
                          ("choose-tree", "-t", "%2"), ("copy-mode", "-q", "-t", "%2"),
                          ("list-panes", "-F", "#{pane_id} #{pane_in_mode}")],
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_like_the_development_tree(hmux, next_tmux, name):
    steps = SCRIPTS[name]
    assert _run(hmux, steps) == _run(next_tmux, steps)


# -- layouts as data (hmux's own) ---------------------------------------------------------------

PANES = ("list-panes", "-F", "#{pane_id} #{pane_index} #{pane_left},#{pane_top} "
         "#{pane_width}x#{pane_height} #{pane_floating_flag} #{pane_z} #{pane_active}")


def _window(mux) -> None:
    mux.ok(*NS)
    mux.ok("split-window", "-h", "cat")
    mux.ok("split-window", "-v", "cat")
    mux.ok("resize-pane", "-L", "7")
    mux.ok("new-pane", "-x", "30", "-y", "6", "cat")
    mux.ok("new-pane", "-X", "40", "-Y", "15", "cat")
    mux.ok("select-pane", "-t", "%3")
    mux.ok("select-pane", "-t", "%1")


def test_layout_string_applies_back(hmux):
    """select-layout "$(display -p '#{window_layout}')" leaves every pane where it was,
    floating panes included (tmux 3.7b refuses the <...> part)."""
    _window(hmux)
    before = hmux.ok(*PANES)
    text = hmux.ok("display", "-p", "#{window_layout}").strip()
    hmux.ok("resize-pane", "-t", "%0", "-R", "9")  # (a preset would tile the floating panes)
    hmux.ok("move-pane", "-X", "0", "-Y", "0", "-t", "%3")
    hmux.ok("move-pane", "-P", "front", "-t", "%3")
    hmux.ok("select-layout", text)
    assert hmux.ok(*PANES).replace(" 1\n", " 0\n") == before.replace(" 1\n", " 0\n")
    assert hmux.ok("display", "-p", "#{window_layout}").strip() == text


def test_json_layout_applies_back(hmux):
    """The JSON layout also gives back the active and last panes and the stacking."""
    _window(hmux)
    before = hmux.ok(*PANES)
    last = hmux.ok("display", "-p", "#{P:#{?pane_last,#{pane_id},}}")
    text = hmux.ok("display", "-p", "#{window_layout_json}").strip()
    doc = json.loads(text)
    assert doc["version"] == 2 and [c["pane"] for c in doc["floating"]] == [3, 4]
    hmux.ok("move-pane", "-P", "front", "-t", "%4")
    hmux.ok("select-layout", "even-vertical")  # (the floating panes are tiled now)
    hmux.ok("select-pane", "-t", "%0")
    hmux.ok("select-layout", text)
    assert hmux.ok(*PANES) == before
    assert hmux.ok("display", "-p", "#{P:#{?pane_last,#{pane_id},}}") == last
    assert hmux.ok("display", "-p", "#{window_layout_json}").strip() == text


def test_json_layout_moves_panes_by_index(hmux):
    """Indexes say which pane goes where, and whether it floats."""
    hmux.ok(*NS)
    hmux.ok("split-window", "-h", "cat")
    doc = {"version": 2, "width": 80, "height": 24,
           "root": {"type": "pane", "pane": 1, "width": 80, "height": 24, "x": 0, "y": 0},
           "floating": [{"type": "pane", "pane": 0, "width": 20, "height": 5, "x": 3, "y": 2}],
           "active": 0}
    hmux.ok("select-layout", json.dumps(doc))
    assert hmux.ok(*PANES) == "%0 0 3,2 20x5 1 0 1\n%1 1 0,0 80x24 0 2 0\n"
    assert hmux.ok("display", "-p", "#{window_layout}").strip().endswith("<20x5,3,2,0>")


HOSTILE = [
    "ffff,80x24,0,0,0",  # bad checksum
    '{"version":2,"root":null}',
    '{"version":2,"a":1,"a":2}',
    '{"version":1}',
    '{"version":2,"width":80,"height":24,"root":{"type":"pane","pane":0,"width":99999,'
    '"height":24,"x":0,"y":0}}',
    '{"version":2,"width":80,"height":24,"root":{"type":"pane","pane":0,"width":80,'
    '"height":24,"x":0,"y":0},"floating":[{"type":"pane","pane":0,"width":1,"height":1,'
    '"x":0,"y":0}]}',
    '{"version":2,"root":' * 250 + "{}" + "}" * 250,
    '{"version":2,"width":1.5}',
]


def _with_checksum(body: str) -> str:
    from hmux_core.layout import checksum

    return f"{checksum(body):04x},{body}"


def test_hostile_layouts_change_nothing(hmux):
    _window(hmux)
    before = (hmux.ok(*PANES), hmux.ok("display", "-p", "#{window_layout}"))
    deep = "80x24,0,0" + "{80x24,0,0" * 1100 + "}" * 1100
    for text in HOSTILE + [_with_checksum(deep), _with_checksum("99999x99999,0,0,0"),
                           _with_checksum("4294967295x5,0,0,0")]:
        r = hmux.cmd("select-layout", text)
        assert r.rc == 1 and r.err.startswith(("invalid layout", "have ", "size mismatch")), \
            (text[:60], r)
        assert (hmux.ok(*PANES), hmux.ok("display", "-p", "#{window_layout}")) == before
    assert hmux.cmd("display", "-p", "ok").out == "ok\n"  # the server is still there


def test_display_message_j(hmux):
    hmux.ok(*NS)
    assert hmux.ok("display", "-jp", '{ "b" : [ {"z":true} ], "a" : -3 , "c":"x\\u00e9"}') == \
        '{"a":-3,"b":[{"z":true}],"c":"x\\u00e9"}\n'
    assert hmux.ok("display", "-jp", '{"n":#{window_panes}}') == '{"n":1}\n'
    for bad in ('{"a":null}', '{"a":1.0}', '{"a":1,"a":1}', '[{}]', '{"a":[2]}', '{"a":""}'):
        r = hmux.cmd("display", "-jp", bad)
        assert r.rc == 1 and r.err.startswith("invalid JSON: "), (bad, r)


def test_layout_format_option(hmux):
    """layout-format json makes #{window_layout} JSON; by default, and in show-options, the
    window is 3.7b's."""
    hmux.ok(*NS)
    hmux.ok("new-pane", "cat")
    legacy = hmux.ok("display", "-p", "#{window_layout}")
    assert legacy.startswith(tuple("0123456789abcdef")) and "<" in legacy
    assert "layout-format" not in hmux.ok("show-options", "-gw")
    hmux.ok("set", "-w", "layout-format", "json")
    assert json.loads(hmux.ok("display", "-p", "#{window_layout}"))["version"] == 2
    assert json.loads(hmux.ok("display", "-p", "#{window_visible_layout}"))["floating"]
    assert hmux.ok("show-options", "-w") == "layout-format json\n"


def test_control_new_layouts(hmux):
    """%layout-change in JSON for control clients that ask (refresh-client -f new-layouts),
    tmux's string for the others whatever layout-format says."""
    hmux.ok(*NS)
    hmux.ok("set", "-w", "layout-format", "json")
    argv = list(hmux.argv0) + list(hmux.socket_args) + ["-C", "attach", "-t", "a"]
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         env=hmux.env, cwd=hmux.cwd)
    lines: list[str] = []

    def send(line: str) -> None:
        assert p.stdin is not None
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def seen(prefix: str) -> str:
        assert p.stdout is not None
        while True:
            line = p.stdout.readline()
            assert line, lines
            lines.append(line)
            if line.startswith(prefix):
                return line

    try:
        send("split-window cat")
        legacy = seen("%layout-change")
        assert legacy.split()[2][4] == ","  # csum,…
        send("refresh-client -f new-layouts")
        send("new-pane cat")
        new = seen("%layout-change")
        full = json.loads(new.split()[2])
        assert full["version"] == 2 and len(full["floating"]) == 1
        send("display -p '#{client_flags}'")
        assert "new-layouts" in seen("attached")
        send("refresh-client -f !new-layouts")
        send("kill-pane -t %2")
        assert seen("%layout-change").split()[2][4] == ","
    finally:
        p.kill()
        p.wait()


def test_unconfigured_server_lists_like_37b(hmux, tmux):
    """The additions add no key binding or option to an unconfigured server."""
    for args in (("list-keys",), ("show-options", "-g"), ("show-options", "-gw"),
                 ("show-options", "-s")):
        hmux.ok(*NS) if not hmux.cmd("has-session").rc == 0 else None
        tmux.ok(*NS) if not tmux.cmd("has-session").rc == 0 else None
        assert hmux.ok(*args) == tmux.ok(*args), args


def test_zoomed_new_pane_unzooms(hmux):
    """tmux 3.7b leaves a floating pane made in a zoomed window without a cell (and later
    crashes); hmux unzooms first, as the development tree does."""
    hmux.ok(*NS)
    hmux.ok("split-window", "cat")
    hmux.ok("resize-pane", "-Z")
    hmux.ok("new-pane", "cat")
    assert hmux.ok("display", "-p", "#{window_zoomed_flag} #{pane_floating_flag}") == "0 1\n"
    wait_for(lambda: hmux.cmd("list-panes").rc == 0)
