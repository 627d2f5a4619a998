"""The fuzzy matcher of tmux's development tree (fuzzy.c): ``#{m/z:}`` and ``#{m/p:}``.

A query is split at ``|`` into alternative groups and each group at spaces into terms that
must all hold. A plain term is a fuzzy subsequence; ``'term`` is an exact substring, ``^term``
anchors it at the start and ``term$`` at the end, ``!term`` must *not* occur (as an exact
substring, like fzf). Matching folds ASCII case unless the query holds an uppercase ASCII
letter (smart case); other characters compare exactly.

The text is an expanded format: ``#[...]`` styles are invisible and occupy no columns, ``##``
is one ``#``, and ``align=`` moves text the way the status line lays it out (format_draw's
no-list layout), so the positions :func:`match` reports are the display columns where the
matched characters are drawn in a region ``width`` wide (a wide character marks both of its
columns). A score (higher is better: the start of the text, word boundaries and contiguous
runs count) comes back too, for callers that rank candidates.

One matcher serves every caller (formats today, mode filters later); it uses the style parser
(:func:`hmux_core.options.parse_style`) and the character widths the format code uses, and
never regular expressions (those stay with ``m/r`` and ``s///``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FuzzyResult", "match", "match_format"]

_BONUS_EXACT = 1000
_BONUS_PREFIX = 200
_BONUS_SUFFIX = 100
_BONUS_START = 12
_BONUS_BOUNDARY = 8
_BONUS_CONSECUTIVE = 6
_PENALTY_LEADING = 1
_PENALTY_LEADING_MAX = 10
_PENALTY_GAP = 1

_BOUNDARY = frozenset(" -_/.:")
_ALIGNS = ("left", "centre", "right", "absolute-centre")


@dataclass(frozen=True, slots=True)
class FuzzyResult:
    """A match: the display columns of the matched characters (sorted) and the score."""

    columns: tuple[int, ...]
    score: int


def _eq(a: str, b: str, fold: bool) -> bool:
    if a == b:
        return True
    return fold and a < "\x80" and b < "\x80" and a.lower() == b.lower()


def _scan(text: str) -> tuple[list[tuple[str, str, int, int]], dict[str, int]]:
    """fuzzy_scan: the visible characters as (char, align, width, offset in its alignment) and
    the width of each alignment."""
    from .format import _cw, _skip
    from .options import Style, parse_style

    widths = dict.fromkeys(_ALIGNS, 0)
    out: list[tuple[str, str, int, int]] = []
    current = "left"
    sy = Style()
    i, n = 0, len(text)

    def add(ch: str, w: int) -> None:
        out.append((ch, current, w, widths[current]))
        widths[current] += w

    while i < n:
        c = text[i]
        if c == "#":
            j = i
            while j < n and text[j] == "#":
                j += 1
            k = j - i
            if j >= n or text[j] != "[":
                for _ in range((k + 1) // 2):
                    add("#", 1)
                i = j
                continue
            for _ in range(k // 2):
                add("#", 1)
            if k % 2 == 0:
                add("[", 1)
                i = j + 1
                continue
            end = _skip(text, j + 1, "]")
            if end < 0:
                break
            parsed = parse_style(text[j + 1:end], sy)
            if parsed is not None:
                sy = parsed
                current = "left" if sy.align == "default" else sy.align
            i = end + 1
            continue
        i += 1
        if c < "\x80":
            if " " <= c < "\x7f":
                add(c, 1)
            continue
        w = _cw(c)
        if w >= 0:
            add(c, w)
    return out, widths


def _score_positions(pos: list[int], cs: list[tuple[str, str, int, int]]) -> int:
    if not pos:
        return 0
    score = 0
    if pos[0] == 0:
        score += _BONUS_START
    else:
        if cs[pos[0] - 1][0] in _BOUNDARY:
            score += _BONUS_BOUNDARY
        score -= min(pos[0], _PENALTY_LEADING_MAX) * _PENALTY_LEADING
    for a, b in zip(pos, pos[1:], strict=False):
        if b == a + 1:
            score += _BONUS_CONSECUTIVE
        elif cs[b - 1][0] in _BOUNDARY:
            score += _BONUS_BOUNDARY
    span = pos[-1] - pos[0] + 1
    return score - (span - len(pos)) * _PENALTY_GAP


def _match_fuzzy(tok: str, cs: list[tuple[str, str, int, int]], fold: bool,
                 matched: list[bool] | None) -> int | None:
    """A subsequence found from the start, then pulled back to the shortest span ending at its
    last character; its score, None when the term is not a subsequence."""
    ncs = len(cs)
    if not tok or not ncs:
        return None
    pos = [0] * len(tok)
    ci = 0
    for pi, t in enumerate(tok):
        while ci < ncs and not _eq(t, cs[ci][0], fold):
            ci += 1
        if ci == ncs:
            return None
        pos[pi] = ci
        ci += 1
    ci = pos[-1]
    for pi in range(len(tok) - 1, -1, -1):
        while not _eq(tok[pi], cs[ci][0], fold):
            if ci == 0:
                return None
            ci -= 1
        pos[pi] = ci
        if pi != 0:
            if ci == 0:
                return None  # no room left for the earlier characters
            ci -= 1
    score = _score_positions(pos, cs)
    if matched is not None:
        for p in pos:
            matched[p] = True
    return score


def _score_exact(start: int, toklen: int, cs: list[tuple[str, str, int, int]], prefix: bool,
                 suffix: bool) -> int:
    score = _BONUS_EXACT + toklen * _BONUS_CONSECUTIVE
    if prefix:
        score += _BONUS_PREFIX
    if suffix:
        score += _BONUS_SUFFIX
    if start == 0:
        score += _BONUS_START
    elif cs[start - 1][0] in _BOUNDARY:
        score += _BONUS_BOUNDARY
    score -= min(start, _PENALTY_LEADING_MAX) * _PENALTY_LEADING
    if not prefix and not suffix:
        score -= len(cs) - (start + toklen)
    return score


def _match_exact(tok: str, cs: list[tuple[str, str, int, int]], fold: bool, prefix: bool,
                 suffix: bool, matched: list[bool] | None) -> int | None:
    """The best-scoring place an exact (or anchored) term occurs; None when it does not."""
    ncs, toklen = len(cs), len(tok)
    if not toklen or toklen > ncs:
        return None
    if prefix and suffix:
        if toklen != ncs:
            return None
        starts = range(0, 1)
    elif prefix:
        starts = range(0, 1)
    elif suffix:
        starts = range(ncs - toklen, ncs - toklen + 1)
    else:
        starts = range(0, ncs - toklen + 1)
    best = -1
    bestscore = 0
    for i in starts:
        if all(_eq(tok[j], cs[i + j][0], fold) for j in range(toklen)):
            value = _score_exact(i, toklen, cs, prefix, suffix)
            if best < 0 or value > bestscore:
                best, bestscore = i, value
    if best < 0:
        return None
    if matched is not None:
        for j in range(toklen):
            matched[best + j] = True
    return bestscore


def _parse_term(word: str) -> tuple[bool, bool, bool, bool, str] | None:
    """(inverse, exact, prefix, suffix, text) of one term; None when nothing is left of it."""
    inverse = exact = prefix = suffix = False
    if word[:1] == "!":
        inverse = True
        word = word[1:]
    if not word:
        return None
    if word[0] == "'":
        exact = True
        word = word[1:]
    elif word[0] == "^":
        exact = prefix = True
        word = word[1:]
    if not word:
        return None
    if word[-1] == "$":
        exact = suffix = True
        word = word[:-1]
    if not word:
        return None
    return inverse, exact or inverse, prefix, suffix, word


def _match_group(group: str, cs: list[tuple[str, str, int, int]], fold: bool,
                 matched: list[bool]) -> int | None:
    """All terms of one AND group; its score, None when it fails (or holds no term)."""
    score = 0
    any_term = False
    for word in group.split(" "):
        if not word:
            continue
        term = _parse_term(word)
        if term is None:
            return None
        any_term = True
        inverse, exact, prefix, suffix, tok = term
        keep = None if inverse else matched
        if exact:
            value = _match_exact(tok, cs, fold, prefix, suffix, keep)
        else:
            value = _match_fuzzy(tok, cs, fold, keep)
        if inverse:
            if value is not None:
                return None
            continue
        if value is None:
            return None
        score += value
    return score if any_term else None


def match(pattern: str, text: str, width: int) -> FuzzyResult | None:
    """Match ``pattern`` against ``text`` drawn ``width`` columns wide; None for no match.

    An empty query (only spaces and ``|``) matches everything with no column highlighted.
    """
    if width <= 0:
        return None
    if not pattern.strip(" |"):
        return FuzzyResult((), 0)
    fold = not any("A" <= ch <= "Z" for ch in pattern)
    cs, widths = _scan(text)
    best: list[bool] | None = None
    bestscore = 0
    for group in pattern.split("|"):
        if not group.strip(" "):
            continue
        matched = [False] * len(cs)
        score = _match_group(group, cs, fold, matched)
        if score is not None and (best is None or score > bestscore):
            best, bestscore = matched, score
    if best is None:
        return None
    # The columns of each alignment as format_draw_none lays them out in ``width``.
    wl, wc, wr = widths["left"], widths["centre"], widths["right"]
    wa = min(widths["absolute-centre"], width)
    while wl + wc + wr > width:
        if wc > 0:
            wc -= 1
        elif wr > 0:
            wr -= 1
        else:
            wl -= 1
    start = {"left": 0, "right": width - wr, "centre": wl + ((width - wr) - wl) // 2 - wc // 2,
             "absolute-centre": (width - wa) // 2}
    src = {"left": 0, "right": widths["right"] - wr, "centre": widths["centre"] // 2 - wc // 2,
           "absolute-centre": 0}
    vis = {"left": wl, "right": wr, "centre": wc, "absolute-centre": wa}
    columns: set[int] = set()
    for hit, (_ch, align, w, offset) in zip(best, cs, strict=False):
        if not hit or offset < src[align] or offset >= src[align] + vis[align]:
            continue
        column = start[align] + offset - src[align]
        for j in range(w):
            if column + j < width:
                columns.add(column + j)
    return FuzzyResult(tuple(sorted(columns)), max(bestscore, 0))


def match_format(pattern: str, text: str, positions: bool) -> str:
    """``#{m/z:pattern,text}`` ("1"/"0") or ``#{m/p:...}`` (the columns, comma-separated, ""
    without a match), the text measured as the format it is."""
    from .format import format_width

    width = format_width(text) or 1
    result = match(pattern, text, width)
    if result is None:
        return "" if positions else "0"
    if not positions:
        return "1"
    return ",".join(map(str, result.columns))
