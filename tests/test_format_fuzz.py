"""Property tests: the expander never raises and keeps simple invariants on random input."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hmux_core import format as F
from hmux_core import fuzzy

TOKENS = list("#{}(),:;?=/|%ab@1-0[]semptqblEwnNCSWPcdTh!&*.\\2 <>^$~+日") + [
    "#{", "#{@a}", "#{?", "#[", "##", "@a", "@q", "@r", "s/", "e|", "m/", "=/", "#(", "t/p:",
    "#{W:", "#{P:", "#{S:", "#{E:", "#{T:", "\x00", "\udcff", "\n",
    # the syntax beyond 3.7b (docs/extensions.md)
    "m/z:", "m/p:", "#{m/z:", "#{m/p:", "t/d:", "t/r:", "q/s:", "c/f:", "c/b:", "#{c/f:",
    "I/f:", "I/c:", "I/e:", "#{P/i:", "#{P/z:", "#{loop_index}", "'", "!", "themered", "none",
    "#{O:", "#{O/gw:", "#{V:", "#{V/g:"]

formats = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
anytext = st.text(max_size=60)


def _ctx() -> F.DictContext:
    win = F.DictContext({"window_name": "w", "window_index": "1"},
                        panes=[(F.DictContext({"pane_index": "0"}), True)])
    return F.DictContext(
        {"@a": "foo", "@q": "#{@a}", "@r": "#{E:@r}", "@n": "42", "@w": "日本x",
         "@t": "1700000000", "@s": "#[fg=red]x##y"},
        sessions=[F.DictContext({"session_name": "s"}, windows=[(win, True)])],
        windows=[(win, True)], panes=[(F.DictContext({"pane_index": "0"}), True)],
        lines=["abc", "def"], jobs=lambda c: "out#{@a}" + c, now=1700000000)


CTX = _ctx()
SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(formats, st.sampled_from([0, 1, 2, 3]))
def test_no_exception_inside(fmt: str, flags: int) -> None:
    # Call the evaluator directly: expand()'s safety net would hide a bug.
    out = F._expand1(F._State(CTX, flags), F._parse(fmt))
    assert isinstance(out, str)
    assert F.expand(fmt, CTX, flags=flags) == out


@SETTINGS
@given(anytext, st.sampled_from([0, 1, 2, 3]))
def test_no_exception_any_text(fmt: str, flags: int) -> None:
    out = F._expand1(F._State(CTX, flags), F._parse(fmt))
    assert isinstance(out, str)


@SETTINGS
@given(st.text(alphabet=st.characters(blacklist_characters="#"), max_size=50))
def test_text_without_hash_is_unchanged(s: str) -> None:
    assert F.expand(s, CTX) == s


@SETTINGS
@given(st.text(alphabet=st.characters(blacklist_characters="["), max_size=50))
def test_doubled_hashes_give_the_text_back(s: str) -> None:
    assert F.expand(s.replace("#", "##"), CTX) == s


@SETTINGS
@given(st.text(alphabet=st.characters(blacklist_characters="#"), max_size=40),
       st.integers(min_value=0, max_value=50))
def test_trim_fits(s: str, n: int) -> None:
    assert F.format_width(F.trim_left(s, n)) <= n
    assert F.format_width(F.trim_right(s, n)) <= n


@SETTINGS
@given(formats)
def test_repeatable(fmt: str) -> None:
    assert F.expand(fmt, CTX) == F.expand(fmt, CTX)


@SETTINGS
@given(anytext, anytext, anytext)
def test_regsub_never_raises(pattern: str, repl: str, text: str) -> None:
    for engine in ("python", "auto"):
        F.set_engine(engine)
        try:
            assert isinstance(F._regsub(pattern, repl, text, False), str)
            assert isinstance(F.fnmatch(pattern, text), bool)
            assert isinstance(F.regex_search(pattern, text, True), bool)
        finally:
            F.set_engine("auto")


# -- hostile shapes: depth, recursion, huge widths (issue 10) -------------------------------------

NEST = st.sampled_from(["#{?@a,", "#{E:", "#{=5:", "#{l:", "#{s/a/b/:", "#{T:", "#{==:", "#{q:"])


@SETTINGS
@given(st.lists(NEST, min_size=1, max_size=300), st.sampled_from(["@a", "@r", "@q", "", "}"]),
       st.booleans())
def test_deep_nesting_terminates(opens: list[str], inner: str, close: bool) -> None:
    fmt = "".join(opens) + inner + ("}" * len(opens) if close else "")
    out = F._expand1(F._State(CTX, 0), F._parse(fmt))
    assert isinstance(out, str)


@SETTINGS
@given(st.integers(min_value=1, max_value=400), st.sampled_from(["E", "T", "E:#{E", "T:#{E"]))
def test_recursion_through_E_is_cut_off(depth: int, mod: str) -> None:
    # @r expands to #{E:@r}: tmux stops at its loop limit; an expansion must end, not recurse.
    fmt = f"#{{{mod}:" * depth + "@r" + "}" * (depth * (2 if ":#{" in mod else 1))
    assert isinstance(F.expand(fmt, CTX), str)


@SETTINGS
@given(st.sampled_from(["=", "=-", "p", "p-", "=/"]),
       st.sampled_from(["2147483647", "2147483648", "-2147483648", "99999999999999999999", "1e9",
                        "1000000000", "0x10", ""]),
       st.sampled_from(["@a", "@w", "@s", "@n"]))
def test_huge_widths_stay_bounded(mod: str, n: str, var: str) -> None:
    out = F.expand(f"#{{{mod}{n}:{var}}}", CTX)
    # Padding is capped (format.py's bound), never a width that fills memory.
    assert isinstance(out, str) and len(out) <= 1 << 20


# -- the fuzzy matcher (m/z, m/p) ----------------------------------------------------------------

QUERY = st.lists(st.sampled_from(list("ab c|'^$!A日#[") + ["x", "ab", " | ", "!a", "^a", "b$"]),
                 max_size=12).map("".join)
TEXT = st.lists(st.sampled_from(list("abcAB -_/.:日本#") + ["#[fg=red]", "#[align=right]",
                                                          "#[align=centre]", "##", "#[",
                                                          "\x01", "\udcff", "\u0301"]),
                max_size=20).map("".join)


@SETTINGS
@given(QUERY, TEXT, st.integers(min_value=0, max_value=40))
def test_fuzzy_never_raises_and_stays_in_width(query: str, text: str, width: int) -> None:
    result = fuzzy.match(query, text, width)
    if result is None:
        return
    assert all(0 <= c < width for c in result.columns)
    assert list(result.columns) == sorted(set(result.columns))
    assert result.score >= 0


@SETTINGS
@given(QUERY, TEXT)
def test_fuzzy_format_answers(query: str, text: str) -> None:
    z = fuzzy.match_format(query, text, False)
    p = fuzzy.match_format(query, text, True)
    assert z in ("0", "1")
    # m/p gives columns exactly when m/z matches (an empty column list is a match too)
    if z == "0":
        assert p == ""
    else:
        assert p == "" or all(part.isdigit() for part in p.split(","))


@SETTINGS
@given(st.text(alphabet="abcdef xyz", min_size=1, max_size=15))
def test_fuzzy_matches_itself_and_subsequences(text: str) -> None:
    """A text matches its own words exactly and any subsequence of a word fuzzily."""
    words = text.split()
    if not words:
        return
    assert fuzzy.match(" ".join("'" + w for w in words), text, len(text)) is not None
    w = words[0]
    assert fuzzy.match(w[::2], text, len(text)) is not None
    assert fuzzy.match("!" + w, text, len(text)) is None
