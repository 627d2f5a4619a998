"""The format additions beyond tmux 3.7b against the next oracle (tmux's development tree).

Each format here is syntax tmux 3.7b rejects or ignores (docs/extensions.md), so hmux must
print what the development tree prints: ``loop_index``, ``P/i`` and ``P/z``, ``t/d`` and
``t/r``, ``q/s``, ``c/f`` and ``c/b``, the fuzzy matcher's ``m/z`` and ``m/p``, ``I/f``,
``I/c`` and ``I/e`` (empty for a client that is not attached). Where 3.7b already gives the
syntax a meaning hmux keeps 3.7b's (checked against the 3.7b oracle at the end).
"""

from __future__ import annotations

import pytest

OPTIONS = {
    "@a": "abc",
    "@q": "it's a b",
    "@st": "#[fg=red]hello #[align=right]world",
    "@w": "日本語 text",
    "@path": "src/hmux_core/format.py",
    "@up": "FooBar baz",
    "@col": "colour100",
    "@rgb": "#102030",
    "@th": "themered",
}

FORMATS = [
    # loop_index in each loop, innermost wins and the outer one comes back after an inner loop
    "#{S:#{loop_index}:#{session_name};}",
    "#{W:#{loop_index}#{?loop_last_flag,L,}|}",
    "#{W:[#{loop_index}#{P:(#{loop_index})}#{loop_index}]}",
    "#{P:#{loop_index}=#{pane_index},}",
    "#{W/r:#{loop_index}}",
    "#{S/r:#{loop_index}#{W:#{loop_index}}.}",
    "#{loop_index}|#{l:x}",
    # pane loop sorts
    "#{P/i:#{pane_index},}", "#{P/ir:#{pane_index},}", "#{P/z:#{pane_id},}",
    "#{P/zr:#{pane_id},}", "#{P:#{pane_id},}", "#{P/r:#{pane_id},}",
    # q/s (POSIX single quotes) next to the quoting 3.7b has
    "#{q/s:@q}", "#{q/s:@a}", "#{q/s:@st}", "#{q/s:nonexistent}",
    # colours as SGR sequences
    "#{c/f:red}", "#{c/b:red}", "#{c/f:brightred}", "#{c/b:brightblue}", "#{c/f:@col}",
    "#{c/f:#{@col}}", "#{c/b:#{@rgb}}", "#{c/f:default}", "#{c/b:terminal}", "#{c/f:none}",
    "#{c/b:NONE}", "#{c/f:nosuch}", "#{c/fb:blue}", "#{c/x:blue}", "#{c:red}",
    "#{c/f:colour255}", "#{c/f:grey50}", "#{c/f:#{@th}}", "#{c/b:themewhite}",
    # fuzzy matching
    "#{m/z:abc,#{@a}}", "#{m/z:ac,#{@a}}", "#{m/z:ca,#{@a}}", "#{m/p:ac,#{@a}}",
    "#{m/p:hw,#{@st}}", "#{m/p:'world,#{@st}}", "#{m/p:^hel,#{@st}}", "#{m/p:rld$,#{@st}}",
    "#{m/z:!xyz hel,#{@st}}", "#{m/z:!hel,#{@st}}", "#{m/p:zz|wd,#{@st}}",
    "#{m/p:本 t,#{@w}}", "#{m/p:語,#{@w}}", "#{m/z:fb,#{@up}}", "#{m/z:FB,#{@up}}",
    "#{m/z:fB,#{@up}}", "#{m/p:hmx fmt,#{@path}}", "#{m/p:,#{@a}}", "#{m/z:,#{@a}}",
    "#{m/p: | ,#{@a}}", "#{m/z:^abc$,#{@a}}", "#{m/z:^ab$,#{@a}}", "#{m/p:'bc,#{@a}}",
    "#{m/p:!,#{@a}}", "#{m/z:^,#{@a}}", "#{m/p:b c,#{@a}}", "#{m/pz:ac,#{@a}}",
    "#{m/zi:AC,#{@a}}", "#{m/p:a,}", "#{m/p:o,#{@path}}", "#{m/p:f.py$,#{@path}}",
    "#{m/p:##,a##b}", "#{m/p:[,a#[b}", "#{m/p:b,#[align=centre]abc}",
    "#{m/p:c,#[align=absolute-centre]abc}",
    # client queries without an attached client
    "#{I/f:RGB}", "#{I/c:Tc}", "#{I/e:TERM}", "#{I/f:utf8}", "#{I:RGB}", "#{I/x:RGB}",
]


def _setup(mux) -> None:
    mux.ok("new-session", "-d", "-s", "a", "-x", "80", "-y", "24")
    mux.ok("split-window", "-t", "a", "-d")
    mux.ok("split-window", "-t", "a", "-h")
    mux.ok("new-window", "-d", "-t", "a")
    mux.ok("new-session", "-d", "-s", "b", "-x", "80", "-y", "24")
    mux.ok("new-window", "-d", "-t", "b")
    for name, value in OPTIONS.items():
        mux.ok("set", "-g", name, value)


def _display(mux, fmt: str) -> tuple[int, str, str]:
    r = mux.cmd("display-message", "-t", "a:0", "-p", fmt)
    return r.rc, r.out, r.err


def test_formats_as_next(hmux, next_tmux):
    _setup(hmux)
    _setup(next_tmux)
    diffs = []
    for fmt in FORMATS:
        got, want = _display(hmux, fmt), _display(next_tmux, fmt)
        if got != want:
            diffs.append((fmt, got, want))
    assert not diffs, "\n".join(f"{f!r}: hmux {g!r} next {w!r}" for f, g, w in diffs)


@pytest.mark.parametrize("fmt", ["#{t/d:session_created}", "#{t/r:session_created}"])
def test_time_difference_as_next(hmux, next_tmux, fmt):
    """t/d gives the signed seconds since the time and t/r the age as 1m2s (development tree);
    a second may pass between the two servers' answers."""
    hmux.ok("new-session", "-d")
    next_tmux.ok("new-session", "-d")
    got = hmux.ok("display", "-p", fmt).strip()
    want = next_tmux.ok("display", "-p", fmt).strip()
    if fmt.startswith("#{t/d"):
        assert abs(int(got) - int(want)) <= 2, (got, want)
    else:
        assert got[-1:] == "s" and want[-1:] == "s", (got, want)


def test_time_difference_future_and_unset(hmux, next_tmux):
    for mux in (hmux, next_tmux):
        mux.ok("new-session", "-d")
        mux.ok("set", "-g", "@future", "99999999999")
    fmts = "#{t/r:@future}|#{t/d:@nosuch}|#{t/r:@nosuch}|#{t/d:@future}"
    got = hmux.ok("display", "-p", fmts)
    want = next_tmux.ok("display", "-p", fmts)
    assert got.split("|")[:3] == want.split("|")[:3]
    assert int(got.split("|")[3]) < 0


# What 3.7b already means stays 3.7b's, even where the development tree changed it.
KEPT_37 = [
    "#{s/^/X/:@a}",  # 3.7b drops the first character after an empty anchored match
    "#{q:@q}",  # the development tree also escapes tabs and newlines
    "#{loop_last_flag}",  # 0 outside loops in 3.7b, empty in the development tree
    "#{S:#{W:#{loop_last_flag}}}",  # 3.7b: the last outer item makes every inner item last
    "#{q/se:@q}",  # 3.7b: style quoting (the development tree: single quotes)
    "#{e|/:1,0}",  # 3.7b prints LLONG_MIN for the undefined conversion
]


def test_kept_37_meanings(hmux, tmux):
    _setup(hmux)
    _setup(tmux)
    hmux.ok("set", "-g", "@q", "a\tb'c")
    tmux.ok("set", "-g", "@q", "a\tb'c")
    for fmt in KEPT_37:
        assert _display(hmux, fmt) == _display(tmux, fmt), fmt


def test_option_and_environment_loops_as_next(hmux, next_tmux):
    """#{O:} loops over a store's options (an array's items one by one), #{V:} over an
    environment, with their item variables (the development tree's O and V modifiers)."""
    fmts = [
        "#{O:#{option_name}=#{option_value}#{?option_is_array,[#{option_array_key}/"
        "#{option_array_count}],}#{?option_is_user,U,}#{?loop_last_flag,$,},}",
        "#{O/w:#{loop_index}#{option_name}=#{option_value};}",
        "#{O/v:#{?#{m:command-alias,#{option_name}},#{option_name}[#{option_array_key}]="
        "#{option_value}#{?option_array_first,F,}#{?option_array_last,L,} ,}}",
        "#{O/p:#{option_name}}|#{O/gp:x}|#{O/gw:#{?#{==:#{option_name},mode-keys},"
        "#{option_value},}}|#{O/gs:#{?option_is_user,#{option_name},}}",
        "#{V:#{loop_index}#{environ_name}=#{environ_value}#{?environ_hidden,H,}"
        "#{?environ_removed,R,}#{?loop_last_flag,$,},}",
        "#{V/g:#{?#{m:GONE*,#{environ_name}},#{environ_name}:#{environ_removed},}}",
        "#{V/c:x}|#{V/x:y}",
    ]
    results = []
    for mux in (hmux, next_tmux):
        mux.ok("new-session", "-d", "-s", "s1", "-e", "FOO=bar", "-e", "ZED=1")
        mux.ok("set", "@u1", "x")
        mux.ok("set", "-w", "@w1", "y")
        mux.ok("set", "-s", "command-alias[5]", "zz=list-keys")
        mux.ok("set-environment", "-r", "GONE")
        mux.ok("set-environment", "-g", "-r", "GONEG")
        mux.ok("set-environment", "-h", "HID", "h")
        results.append([mux.cmd("display", "-p", f).out for f in fmts])
    assert results[0] == results[1]
