"""Unit tests for the format expander (hmux_core.format) with DictContext.

Expected values were taken from tmux 3.7b ``display -p`` (see test_format_oracle.py, which checks
the same kind of formats against a live tmux).
"""

from __future__ import annotations

import os
import time

import pytest

from hmux_core import format as F

VALUES = {
    "@a": "foo",
    "@n": "42",
    "@neg": "-7",
    "@f": "1.5",
    "@z": "0",
    "@e": "",
    "@sp": "a b$c#d",
    "@p": "/usr/local/bin/tmux",
    "@t": "1700000000",
    "@w": "日本語x",
    "@hash": "a#b##c",
    "@st": "#[fg=red]abcdef#[bg=blue]xyz",
    "@u": "#[fg=red",
    "@h3": "###x",
    "@q": "#{@a}",
    "@r": "#{E:@r}",
    "@tf": "%%Y",
    "pane_id": "%1",
    "window_index": "3",
    "window_name": "vim",
    "window_flags": "*Z",
    "session_name": "main",
    "pane_index": "0",
    "pane_title": "title",
    "host": "box.example.com",
    "host_short": "box",
}


@pytest.fixture(autouse=True)
def utc() -> object:
    old = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield None
    if old is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = old
    time.tzset()


def ex(fmt: str, flags: int = 0, **kw: object) -> str:
    return F.expand(fmt, F.DictContext(VALUES, **kw), flags=flags)  # type: ignore[arg-type]


CASES = [
    # variables, aliases, escapes
    ("#{@a}", "foo"), ("#{pane_id}", "%1"), ("#{@missing}|", "|"), ("#{@e}|", "|"),
    ("#S:#I.#P #W #D #T #F #H #h", "main:3.0 vim %1 title *Z box.example.com box"),
    ("##", "#"), ("a##b", "a#b"), ("#,#}", ",}"), ("x##[y", "x##[y"), ("x###[y", "x###[y"),
    ("###x", "##x"), ("#x#y", "#x#y"), ("abc#", "abc"), ("#{}|", "|"),
    ("#[fg=red]#{@a}#[default]", "#[fg=red]foo#[default]"),
    ("a#{x", "a"), ("a#(echo", "a"), ("x#{?a}y", "xay"),
    ("#{l:#{@a}}", "#{@a}"), ("#{l:a,b}", "a,b"),
    # conditionals
    ("#{?@a,x,y}", "x"), ("#{?@z,x,y}", "y"), ("#{?@e,x,y}", "y"), ("#{?@missing,x,y}", "y"),
    ("#{?1,x,y}", "y"), ("#{?,a,b}", "b"), ("#{?#{==:1,1},yes,no}", "yes"),
    ("#{?#{@a},t,f}", "t"), ("#{?#{@e},t,f}", "f"), ("#{?@a,#{?@n,[#,],b},c}", "[,]"),
    ("#{?@a,a#,b,c}", "a,b"), ("#{?@a,a#}b,c}", "a}b"), ("#{?@a,x,y,z}", "x"),
    ("#{?@z,x,y,z}", ""), ("#{?@a,x}", "x"), ("#{?window_flags,#{window_flags},}", "*Z"),
    # comparisons
    ("#{==:#{@a},foo}", "1"), ("#{==:a,b}", "0"), ("#{!=:a,b}", "1"), ("#{<:a,b}", "1"),
    ("#{>:a,b}", "0"), ("#{<=:a,a}", "1"), ("#{>=:b,a}", "1"), ("#{||:0,}", "0"),
    ("#{||:0,1}", "1"), ("#{&&:1,x}", "1"), ("#{&&:1,0}", "0"), ("#{==:a,a,b}", "0"),
    ("x#{==:a}y", "x"), ("#{!:a}", "0"), ("#{!!:1}|", "1|"),
    # fnmatch / regex
    ("#{m:f*,foo}", "1"), ("#{m:F*,foo}", "0"), ("#{m/i:F*,foo}", "1"),
    ("#{m/r:^f.o$,foo}", "1"), ("#{m/ri:^F,foo}", "1"), ("#{m:[!a]oo,foo}", "1"),
    ("#{m:[^a]oo,foo}", "1"), ("#{m:\\f*,foo}", "1"), ("#{m:f*\\,foo}", "0"),
    ("#{m:[f,foo}", "0"), ("#{m:[f,[f}", "1"), ("#{m:*,}", "1"), ("#{m/r:(,x}", "0"),
    ("#{m:[[:alpha:]]*,foo}", "1"), ("#{m/r:(a)\\1,aa}", "1"),
    # arithmetic
    ("#{e|+:1,2}", "3"), ("#{e|*:6,7}", "42"), ("#{e|/:7,2}", "3"), ("#{e|/|f:7,2}", "3.50"),
    ("#{e|%:7,-2}", "1"), ("#{e|m|f:-7.5,2}", "-1.50"), ("#{e|+|f|3:1,2}", "3.000"),
    ("#{e|+||3:1,2}", "3.000"), ("#{e|*|f|2:1.5,3}", "4.50"), ("#{e|*|f|-1:1.5,3}", "4.500000"),
    ("#{e|/:1,0}", "-9223372036854775808"), ("#{e|/|f:0,0}", "-nan"), ("#{e|/|f:1,0}", "inf"),
    ("#{e|m|f:1,0}", "-nan"), ("#{e|+:,}", "0"), ("#{e|+:0x10,1}", "17"), ("#{e|+: 1,1}", "2"),
    ("#{e|+:1 ,1}", ""), ("#{e|**:1,2}", ""), ("#{e|+|f|x:1,2}", ""), ("#{e|+:1}", ""),
    ("#{e|==:1,1.0}", "1"), ("#{e|==|f:1,1.0000000001}", "1.00"), ("#{e|-:1e3,0x1p4}", "984"),
    ("#{e|+:inf,1}", "-9223372036854775808"), ("#{e|+|f:inf,1}", "inf"),
    ("#{e|+|f:nan,1}", "nan"), ("#{e|-|f:inf,inf}", "-nan"), ("#{e|+:1_0,1}", ""),
    ("#{e|+|f|0:.5,2}", "2"), ("#{e|<:,1}", "1"), ("#{e|+:#{@n},#{@neg}}", "35"),
    ("#{e|+:@n,1}", ""), ("#{e|*|f|1:#{@f},3}", "4.5"),
    # truncation, padding
    ("#{=2:@a}", "fo"), ("#{=-2:@a}", "oo"), ("#{=/2/...:@a}", "fo..."), ("#{=/-2/...:@a}", "...oo"),
    ("#{=/5/...:@a}", "foo"), ("#{=0:@a}", "foo"), ("#{=x:@a}", "foo"),
    ("#{=3:@hash}", "a#b"), ("#{=4:@hash}", "a#b##"), ("#{=-3:@hash}", "b##c"),
    ("#{=3:@st}", "#[fg=red]abc"), ("#{=-2:@st}", "#[fg=red]#[bg=blue]yz"),
    ("#{=-4:@st}", "#[fg=red]f#[bg=blue]xyz"), ("#{=2:@h3}", "####"), ("#{=1:@h3}", "##"),
    ("#{=-1:@h3}", "x"), ("#{=-1:@u}", "#[fg=red"), ("#{=2:@u}", ""), ("#{=2:@w}", "日"),
    ("#{=3:@w}", "日"), ("#{=-2:@w}", "x"), ("#{=-3:@w}", "語x"),
    ("#{p10:@a}|", "foo       |"), ("#{p-10:@a}|", "       foo|"), ("#{p2:@a}|", "foo|"),
    ("#{p6:@w}|", "日本語x|"), ("#{p8:@w}|", "日本語x |"), ("#{=5;p7:@a}|", "foo    |"),
    ("#{p7;=2:@a}|", "fo     |"), ("#{=2;=4:@sp}", "a b$"), ("#{=-/3/<:@st}", VALUES["@st"]),
    # length / width
    ("#{n:@a}", "3"), ("#{n:@w}", "10"), ("#{w:@w}", "7"), ("#{w:@hash}", "5"),
    ("#{w:@st}", "9"), ("#{w:@u}", "0"), ("#{n;w:@w}", "2"),
    # substitution
    ("#{s/o/0/:@a}", "f00"), ("#{s/x*/-/:@a}", "f-o-o-"), ("#{s/o*/-/:@a}", "f-"),
    ("#{s/^/-/:@a}", "oo"), ("#{s/$/-/:@a}", "foo-"), ("#{s/O/X/i:@a}", "fXX"),
    ("#{s/(o)/[\\1]/:@a}", "f[o][o]"), ("#{s/o/[\\1]/:@a}", "f[1][1]"),
    ("#{s/./X\\0/:@a}", "XfXoXo"), ("#{s/f/a\\/:@a}", "a\\oo"), ("#{s/a**/X/:@a}", "fXoXoX"),
    ("#{s/*/X/:@a}", "foo"), ("#{s/(/X/:@a}", "foo"), ("#{s/\\w/X/:@a}", "XXX"),
    ("#{s/\\</X/:@a}", "fXoX"), ("#{s/o\\>/X/:@a}", "foX"), ("#{s/(a)|b/[\\1]/:@sp}", "[a] [1]$c#d"),
    ("#{s/a/b/;s/b/c/:@sp}", "c c$c#d"), ("#{s/[[:alpha:]]/X/:@a}", ""),
    ("#{s/o{2}/X/:@a}", "/X/:@a}"), ("#{s|/usr|~|:@p}", "~/local/bin/tmux"),
    ("#{s/#{@a}/bar/:@a}", "bar"), ("#{s/##/H/:@hash}", "a#b##c"),
    # basename / dirname / quoting
    ("#{b:@p}", "tmux"), ("#{d:@p}", "/usr/local/bin"), ("#{b:#{@p}}", "/usr/local/bin/tmux"),
    ("#{b;q:@p}", "tmux"), ("#{q:@sp}", "a\\ b\\$c\\#d"), ("#{q:#{@sp}}", "a b$c#d"),
    ("#{q/h:@hash}", "a##b####c"), ("#{q/e:@hash}", "a##b####c"), ("#{q/x:@hash}", "a#b##c"),
    ("#{d:@e}", "."), ("#{b:@e}", "."),
    # time (TZ=UTC)
    ("#{t:@t}", "Tue Nov 14 22:13:20 2023"), ("#{t:@n}", "Thu Jan  1 00:00:42 1970"),
    ("#{t:@z}", ""), ("#{t:@a}", ""), ("#{t:@neg}", ""), ("#{t/f/%Y-%m-%d:@t}", "2023-11-14"),
    ("#{t/f/%H#:%M:@t}", "22:13"), ("#{t/f:@t}", "Tue Nov 14 22:13:20 2023"),
    # E: T: a: c:
    ("#{E:@q}", "foo"), ("#{@q}", "#{@a}"), ("#{E:@r}|", "|"), ("#{a:65}", "A"),
    ("#{a: 65}", "A"), ("#{a:0x41}", ""), ("#{a:127}", ""), ("#{a:32}|", " |"), ("#{a:#{@n}}", "*"),
    ("#{c:red}", "800000"), ("#{c:colour100}", "878700"), ("#{c:grey50}", "7f7f7f"),
    ("#{c:Grey50}", "7f7f7f"), ("#{c:grey}", "bebebe"), ("#{c:gray101}", ""), ("#{c:#ff00AA}", "ff00aa"),
    ("#{c:colour256}", ""), ("#{c:COLOUR5}", "800080"), ("#{c:default}", ""),
    ("#{c:brightred}", "ff0000"), ("#{c:93}", "ffff00"), ("#{c:DarkGrey}", "a9a9a9"),
    ("#{c:dark grey}", "a9a9a9"), ("#{c:colour255}", "eeeeee"), ("#{c:colour16}", "000000"),
    ("#{c:colour231}", "ffffff"), ("#{c:colour67}", "5f87af"),
    # parse failures / unknown modifiers
    ("#{a;}|", "|"), ("#{Z:@a}|", "|"), ("#{x:@a}|", "|"), ("#{s/a:@a}|", "foo|"),
    ("#{e|:1,2}|", "|"), ("#{L:x}|", "|"),
]


@pytest.mark.parametrize(("fmt", "want"), CASES)
def test_expand(fmt: str, want: str) -> None:
    assert ex(fmt) == want


def test_time_expansion_uses_context_clock() -> None:
    now = 1700000000.0  # Tue Nov 14 22:13:20 2023 UTC
    assert ex("%H:%M %d-%b-%y", F.EXPAND_TIME, now=now) == "22:13 14-Nov-23"
    assert ex("%H:%M", 0, now=now) == "%H:%M"  # only with EXPAND_TIME
    assert ex("100%%", F.EXPAND_TIME, now=now) == "100%"
    # Sub-formats are strftime'd again (tmux applies it at every level).
    assert ex("#{?@a,%%H,}", F.EXPAND_TIME, now=now) == "22"
    assert ex("#{t/f/%%%%H:@t}", F.EXPAND_TIME, now=now) == "22"
    assert ex("#{T:@tf}", 0, now=now) == "%Y"  # T: strftimes "%%Y" once
    assert ex("#{T:#{l:%Y}}", 0, now=now) == "2023"
    assert ex("#{E:#{l:%Y}}", 0, now=now) == "%Y"


def test_pretty_time() -> None:
    now = 1700000000  # 2023-11-14 22:13:20 UTC
    ctx = F.DictContext({"a": now - 3600, "b": now - 3 * 86400, "c": now - 40 * 86400,
                         "d": now - 400 * 86400, "f": now + 50}, now=now)
    assert F.expand("#{t/p:a}", ctx) == "21:13"
    assert F.expand("#{t/p:b}", ctx) == "Sat11"
    assert F.expand("#{t/p:c}", ctx) == "05Oct"
    assert F.expand("#{t/p:d}", ctx) == "Oct22"
    assert F.expand("#{t/p:f}", ctx) == "22:14"


def test_loops() -> None:
    w1 = F.DictContext({"window_index": "0", "window_name": "one"}, panes=[])
    p0 = F.DictContext({"pane_index": "0"})
    p1 = F.DictContext({"pane_index": "1"})
    w2 = F.DictContext({"window_index": "1", "window_name": "two"}, panes=[p0, (p1, True)])
    s1 = F.DictContext({"session_name": "s1"}, windows=[(w1, True), w2])
    s2 = F.DictContext({"session_name": "s2"},
                       windows=[(F.DictContext({"window_index": "5", "window_name": "x"}), True)])
    root = F.DictContext({"@g": "G"}, sessions=[(s1, True), s2], windows=[(w1, True), w2],
                         panes=[p0, (p1, True)])
    e = lambda f: F.expand(f, root)  # noqa: E731
    assert e("#{W:#{window_index}:#{window_name} ,<#{window_name}> }") == "<one> 1:two "
    assert e("#{W:#{window_name},}") == "two"
    assert e("#{W:#{window_name}}") == "onetwo"
    assert e("#{P:#{pane_index},*}") == "0*"
    assert e("#{S:#{session_name}#{@g} }") == "s1G s2G "
    assert e("#{S:#{session_name},X}") == "Xs2"  # the current session takes the part after ,
    assert e("#{S:#{W:#{session_name}.#{window_index} }}") == "s1.0 s1.1 s2.5 "
    assert e("#{W:#{P:#{pane_index}}|}") == "|01|"
    assert e("#{N:two}#{N:nope}#{N/w:one}#{N/s:s2}#{N/s:x}#{N/x:two}") == "10110"
    # No session / window: the loop fails and ends the expansion, like tmux.
    lone = F.DictContext({"@a": "foo"})
    assert F.expand("a#{W:x}b", lone) == "a"
    assert F.expand("a#{P:x}b", lone) == "a"
    assert F.expand("a#{N:x}b", lone) == "a"
    assert F.expand("a#{S:x}b#{N/s:x}", lone) == "ab0"


def test_search() -> None:
    ctx = F.DictContext({}, lines=["hello  ", "World", "", "abc"])
    assert F.expand("#{C:World}", ctx) == "2"
    assert F.expand("#{C:world}", ctx) == "0"
    assert F.expand("#{C/i:world}", ctx) == "2"
    assert F.expand("#{C/r:^W.r}", ctx) == "2"
    assert F.expand("#{C/r:o  $}", ctx) == "0"  # trailing spaces are trimmed
    assert F.expand("#{C/r:(}", ctx) == "0"
    assert F.expand("#{C:b}", ctx) == "4"
    assert F.expand("#{C:x}", F.DictContext({})) == "0"  # no pane


def test_jobs() -> None:
    calls: list[str] = []

    def run(cmd: str) -> str:
        calls.append(cmd)
        return {"echo foo": "out", "printf x": "#{@a}!", "echo ": "x##y"}.get(cmd, "")

    assert ex("[#(echo #{@a})]", jobs=run) == "[out]"
    assert ex("[#(printf x)]", jobs=run) == "[foo!]"  # the output is expanded again
    assert ex("[#(echo #(inner))]", jobs=run) == "[x#y]"  # no jobs inside a job's command
    assert ex("[#(echo foo)]", F.EXPAND_NOJOBS, jobs=run) == "[]"
    assert ex("#(a(b)c)", jobs=run) == ""
    assert calls == ["echo foo", "printf x", "echo ", "a(b)c"]
    assert ex("#(nope)") == ""


def test_job_command_not_strftimed() -> None:
    seen: list[str] = []
    ex("#(date +%%H)", F.EXPAND_TIME, jobs=lambda c: seen.append(c) or "", now=0)
    assert seen == ["date +%H"]  # the outer strftime pass, not another one for the command


def test_loop_limit_and_deep_nesting() -> None:
    deep = "#{?@a," * 150 + "x" + ",}" * 150
    assert ex(deep) == ""
    assert ex("#{?@a," * 40 + "x" + ",}" * 40) == "x"
    assert ex("#{" * 5000 + "@a" + "}" * 5000) == ""
    assert ex("#{E:" * 99 + "@q" + "}" * 99) == "foo"  # innermost E: runs at depth 100
    assert ex("#{E:" * 100 + "@q" + "}" * 100) == ""
    assert ex("#{E:" * 20 + "@q" + "}" * 20) == "foo"


def test_huge_values_do_not_blow_up() -> None:
    big = "x" * 200_000
    ctx = F.DictContext({"big": big})
    assert F.expand("#{=2147483647:big}", ctx) == big
    assert F.expand("#{=-2147483648:big}", ctx) == big
    assert F.expand("#{=5:big}", ctx) == "xxxxx"
    assert len(F.expand("#{p2147483647:@x}", ctx)) <= F._PAD_CAP
    assert len(F.expand("#{e|+|f|2147483647:1,2}", ctx)) <= F._PREC_CAP + 10
    assert F.expand("#{n:big}", ctx) == "200000"
    assert F.expand("#{s/x/y/:big}", ctx) == "y" * 200_000


def test_failure_stops_expansion() -> None:
    assert ex("a#{?@a}b") == "a@ab"  # no comma: the text itself
    assert ex("a#{==:x}b#{@a}") == "a"
    assert ex("a#{@a}b#{") == "afoob"
    assert ex("a#(echo") == "a"


def test_parse_is_cached() -> None:
    fmt = "#{?@a,#{=2:@a},no}-unique-cache-test"
    assert F._parse(fmt) is F._parse(fmt)
    assert ex(fmt) == "fo-unique-cache-test"
    r = F._parse(fmt).nodes[0]  # type: ignore[index]
    assert isinstance(r, F._Replace) and r.static is not None  # folded once, at parse time


def test_dictcontext_basics() -> None:
    parent = F.DictContext({"a": 1, "b": True, "c": False})
    child = F.DictContext({"a": "x"}, parent=parent)
    assert child.lookup("a") == "x" and child.lookup("b") == "1" and child.lookup("c") == "0"
    assert child.lookup("zz") is None
    assert isinstance(child, F.FormatContext)
    assert child.loop_windows() is None and child.loop_panes() is None
    assert list(child.loop_sessions()) == []
    assert child.window_exists("x") is None
    assert child.search_pane("x", False, False) is None
    assert F.DictContext(now=5).now() == 5.0
    assert F.DictContext(now=lambda: 7).now() == 7.0
    assert abs(F.DictContext().now() - time.time()) < 5
    m = F.DictContext(sessions=[{"session_name": "m"}])
    assert m.session_exists("m") and not m.session_exists("n")


def test_widths_and_trim_helpers() -> None:
    assert F.format_width("abc") == 3
    assert F.format_width("日本") == 4
    assert F.format_width("e\u0301") == 1  # combining accent
    assert F.format_width("a\tb\x1b") == 2
    assert F.format_width("#[fg=red]ab##c#") == 5
    assert F.trim_left("日本語", 3) == "日"
    assert F.trim_left("a\tbc", 2) == "ab"  # controls are dropped
    assert F.trim_right("日本語", 3) == "語"
    assert F.trim_right("ab", 5) == "ab"
    assert F.trim_left("", 3) == ""


def test_colour_helpers() -> None:
    assert F.colour_to_rgb("red") == 0x800000
    assert F.colour_to_rgb("colour196") == 0xFF0000
    assert F.colour_to_rgb("terminal") is None
    assert F.colour_to_rgb("AliceBlue") == 0xF0F8FF
    assert F.colour_to_rgb("grey4294967346") is None  # 3.7b: grey0 .. grey100 only
    assert F.colour_to_rgb("colour 5") == 0x800080  # strtonum skips leading space
    assert F.colour_fromstring("blue") == 4
    assert F.colour_fromstring("brightblue") == 94
    assert F.colour_fromstring("#12345g") == -1


def test_format_true() -> None:
    assert F.format_true("1") and F.format_true("00") and F.format_true(" ")
    assert not F.format_true("0") and not F.format_true("") and not F.format_true(None)


@pytest.mark.parametrize("engine", ["python", "libc"])
def test_regex_engines(engine: str) -> None:
    if engine == "libc" and not F._libc().regex:
        pytest.skip("glibc regex not available")
    F.set_engine(engine)
    try:
        assert ex("#{s/o/0/:@a}") == "f00"
        assert ex("#{s/(o)/[\\1]/:@a}") == "f[o][o]"
        assert ex("#{s/x*/-/:@a}") == "f-o-o-"
        assert ex("#{s/^/-/:@a}") == "oo"
        assert ex("#{s/\\</X/:@a}") == "fXoX"
        # ":" and "}" end a modifier or the format, so such patterns come from variables.
        assert ex("#{s/[[:digit:]]+/N/:@p}") == ""
        assert sub("[[:digit:]]+", "N", "a12b3") == "aNbN"
        assert sub("[^[:alpha:]]", "_", "a12b3") == "a__b_"
        assert sub("a{2,}", "X", "aaab") == "Xb"
        assert sub("a{,1}b", "X", "aaab") == "aaX"
        assert sub("(ab)+", "X", "ababc") == "Xc"
        assert sub("b*+", "X", "abb") == "aX"
        assert sub("[]a]", "X", "]a") == "XX"
        assert sub("a.c", "X", "a\nc") == "X"
        assert sub("(a)(b)?c", "[\\2]", "ac") == "[2]"
        assert sub("x", "y", "") == ""
        assert ex("#{s/a{/X/:@a}") == "foo"  # invalid pattern: value unchanged
        assert ex("#{m/r:^f,foo}#{m/r:^o,foo}#{m/ri:O+,foo}") == "101"
        assert ex("#{m:*o,foo}#{m:[a-f]*,foo}#{m:[!f]*,foo}#{m/i:FOO,foo}") == "1101"
        assert ex("#{m:[[:upper:]]*,Foo}#{m:a\\*,a*}#{m:a\\*,ab}") == "110"
        assert F.search_lines(["x", "a.b"], "a.b", True, False) == 2
        assert F.search_lines(["x", "a.b"], "A?B", False, True) == 2
    finally:
        F.set_engine("auto")


def sub(pattern: str, repl: str, value: str) -> str:
    ctx = F.DictContext({"p": pattern, "r": repl, "v": value})
    return F.expand("#{s/#{p}/#{r}/:v}", ctx)


def test_python_engine_translation_errors() -> None:
    for bad in ("*a", "a{", "(a", "a{3,1}", "[a", "a\\", "[z-a]", "[[:nope:]]", "(a\\1)", "^*"):
        assert F._ere_translate(bad) is None, bad
    assert F._ere_translate("a)") is not None  # unmatched ) is an ordinary character


def test_set_engine_rejects_unknown() -> None:
    with pytest.raises(ValueError):
        F.set_engine("pcre")


def test_py_wcwidth_fallback() -> None:
    assert F._py_wcwidth(ord("日")) == 2
    assert F._py_wcwidth(ord("a")) == 1
    assert F._py_wcwidth(0x301) == 0
    assert F._py_wcwidth(0x85) == -1


def test_strtod_and_strtonum() -> None:
    assert F._strtod("") == 0.0 and F._strtod(" 1.5") == 1.5 and F._strtod("1.5 ") is None
    assert F._strtod("0x1p4") == 16.0 and F._strtod("-INF") == float("-inf")
    assert F._strtod("1e") is None and F._strtod("-") is None and F._strtod("1_0") is None
    assert F._strtonum("+5", 0, 9) == 5 and F._strtonum(" 5", 0, 9) == 5
    assert F._strtonum("5 ", 0, 9) is None and F._strtonum("10", 0, 9) is None
    assert F._strtonum("0" * 50 + "7", 0, 9) == 7 and F._strtonum("9" * 5000, 0, 9) is None


def test_basename_dirname() -> None:
    cases = {"": (".", "."), "/": ("/", "/"), "//": ("/", "//"), "///": ("/", "/"),
             "a": ("a", "."), "a/": ("a", "."), "/a": ("a", "/"), "//a": ("a", "//"),
             "///a": ("a", "/"), "/a/b/": ("b", "/a"), "a//b": ("b", "a"),
             "//a//b//": ("b", "//a")}
    for p, (b, d) in cases.items():
        assert (F._basename(p), F._dirname(p)) == (b, d), p


def test_aliases_not_expanded_inside_styles() -> None:
    # tmux 3.7b: #S inside #[...] stays; after the closing ] it is the session name again.
    assert ex("#[fg=#S]#S") == "#[fg=#S]main"
    assert ex("##[#I]#I") == "##[#I]3"
    assert ex("#[fg=red#S") == "#[fg=redmain"  # no ] closes the style: aliases expand


class _Clients(F.DictContext):
    def loop_clients(self):  # noqa: ANN201
        return [F.DictContext({"client_name": n, "client_activity": a})
                for n, a in (("/dev/pts/2", "5"), ("/dev/pts/1", "9"))]


def test_client_loop_and_sorting() -> None:
    ctx = _Clients({})
    assert F.expand("#{L:#{client_name}#{?loop_last_flag,,|}}", ctx) == "/dev/pts/2|/dev/pts/1"
    assert F.expand("#{L/n:#{client_name} }", ctx) == "/dev/pts/1 /dev/pts/2 "
    assert F.expand("#{L/t:#{client_name} }", ctx) == "/dev/pts/1 /dev/pts/2 "  # newest first
    assert F.expand("#{L/r:#{client_name} }", ctx) == "/dev/pts/1 /dev/pts/2 "
    assert F.expand("a#{L:x}b", F.DictContext({})) == "ab"  # no clients: nothing
