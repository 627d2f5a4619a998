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
from functools import lru_cache

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


#: ASCII-only case folding (other characters compare exactly, as tmux's tolower on bytes).
_FOLD = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


class _Text:
    """The visible characters of a text (one code point each) as one string, with the
    alignment, width and offset in its alignment of each, and each alignment's width."""

    __slots__ = ("chars", "aligns", "widths", "offsets", "totals")

    def __init__(self, chars: str, aligns: list[str] | None, widths: list[int] | None,
                 offsets: list[int] | None, totals: dict[str, int]) -> None:
        self.chars = chars
        self.aligns = aligns  # None: every character left-aligned, one column, in order
        self.widths = widths
        self.offsets = offsets
        self.totals = totals


def _scan(text: str) -> _Text:
    """fuzzy_scan: styles skipped (their align= remembered), ## as #, controls dropped."""
    if "#" not in text and text.isascii() and text.isprintable():
        return _Text(text, None, None, None, {"left": len(text), "centre": 0, "right": 0,
                                              "absolute-centre": 0})
    from .format import _cw, _skip
    from .options import Style, parse_style

    totals = dict.fromkeys(_ALIGNS, 0)
    chars: list[str] = []
    aligns: list[str] = []
    widths: list[int] = []
    offsets: list[int] = []
    current = "left"
    sy = Style()
    i, n = 0, len(text)

    def add(ch: str, w: int) -> None:
        chars.append(ch)
        aligns.append(current)
        widths.append(w)
        offsets.append(totals[current])
        totals[current] += w

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
    return _Text("".join(chars), aligns, widths, offsets, totals)


def _boundary(chars: str, i: int) -> bool:
    return chars[i] in _BOUNDARY


def _score_positions(pos: list[int], chars: str) -> int:
    if not pos:
        return 0
    score = 0
    if pos[0] == 0:
        score += _BONUS_START
    else:
        if chars[pos[0] - 1] in _BOUNDARY:
            score += _BONUS_BOUNDARY
        score -= min(pos[0], _PENALTY_LEADING_MAX) * _PENALTY_LEADING
    for a, b in zip(pos, pos[1:], strict=False):
        if b == a + 1:
            score += _BONUS_CONSECUTIVE
        elif chars[b - 1] in _BOUNDARY:
            score += _BONUS_BOUNDARY
    span = pos[-1] - pos[0] + 1
    return score - (span - len(pos)) * _PENALTY_GAP


def _match_fuzzy(tok: str, chars: str, matched: list[bool] | None) -> int | None:
    """A subsequence found from the start, then pulled back to the shortest span ending at its
    last character; its score, None when the term is not a subsequence (``tok`` and
    ``chars`` already case-folded as the query wants)."""
    if not tok or not chars:
        return None
    pos = []
    ci = 0
    for t in tok:
        ci = chars.find(t, ci)
        if ci < 0:
            return None
        pos.append(ci)
        ci += 1
    ci = pos[-1]
    for pi in range(len(tok) - 1, -1, -1):
        ci = chars.rfind(tok[pi], 0, ci + 1)
        if ci < 0:
            return None
        pos[pi] = ci
        if pi:
            ci -= 1
    score = _score_positions(pos, chars)
    if matched is not None:
        for p in pos:
            matched[p] = True
    return score


def _score_exact(start: int, toklen: int, chars: str, prefix: bool, suffix: bool) -> int:
    score = _BONUS_EXACT + toklen * _BONUS_CONSECUTIVE
    if prefix:
        score += _BONUS_PREFIX
    if suffix:
        score += _BONUS_SUFFIX
    if start == 0:
        score += _BONUS_START
    elif chars[start - 1] in _BOUNDARY:
        score += _BONUS_BOUNDARY
    score -= min(start, _PENALTY_LEADING_MAX) * _PENALTY_LEADING
    if not prefix and not suffix:
        score -= len(chars) - (start + toklen)
    return score


def _match_exact(tok: str, chars: str, prefix: bool, suffix: bool,
                 matched: list[bool] | None) -> int | None:
    """The best-scoring place an exact (or anchored) term occurs; None when it does not."""
    ncs, toklen = len(chars), len(tok)
    if not toklen or toklen > ncs:
        return None
    if prefix and suffix:
        starts: list[int] = [0] if chars == tok else []
    elif prefix:
        starts = [0] if chars.startswith(tok) else []
    elif suffix:
        starts = [ncs - toklen] if chars.endswith(tok) else []
    else:
        starts = []
        i = chars.find(tok)
        while i >= 0:
            starts.append(i)
            i = chars.find(tok, i + 1)
    best = -1
    bestscore = 0
    for i in starts:
        value = _score_exact(i, toklen, chars, prefix, suffix)
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


_Term = tuple[bool, bool, bool, bool, str]


@lru_cache(maxsize=256)
def _compile(pattern: str) -> tuple[bool, tuple[tuple[_Term, ...] | None, ...]]:
    """A query once parsed: whether it folds case, and its groups of terms (None for a group
    holding a term with nothing left, which never matches; empty groups are left out)."""
    fold = not any("A" <= ch <= "Z" for ch in pattern)
    if fold:
        pattern = pattern.translate(_FOLD)
    groups: list[tuple[_Term, ...] | None] = []
    for group in pattern.split("|"):
        words = [w for w in group.split(" ") if w]
        if not words:
            continue
        terms = [_parse_term(w) for w in words]
        groups.append(None if any(t is None for t in terms) else tuple(terms))  # type: ignore
    return fold, tuple(groups)


def _match_group(terms: tuple[_Term, ...], chars: str, matched: list[bool]) -> int | None:
    """All terms of one AND group; its score, None when it fails."""
    score = 0
    for inverse, exact, prefix, suffix, tok in terms:
        keep = None if inverse else matched
        if exact:
            value = _match_exact(tok, chars, prefix, suffix, keep)
        else:
            value = _match_fuzzy(tok, chars, keep)
        if inverse:
            if value is not None:
                return None
            continue
        if value is None:
            return None
        score += value
    return score


def match(pattern: str, text: str, width: int) -> FuzzyResult | None:
    """Match ``pattern`` against ``text`` drawn ``width`` columns wide; None for no match.

    An empty query (only spaces and ``|``) matches everything with no column highlighted.
    """
    if width <= 0:
        return None
    fold, groups = _compile(pattern)
    if not groups:
        return FuzzyResult((), 0)
    vis = _scan(text)
    chars = vis.chars.translate(_FOLD) if fold else vis.chars
    best: list[bool] | None = None
    bestscore = 0
    n = len(chars)
    for terms in groups:
        if terms is None:
            continue
        matched = [False] * n
        score = _match_group(terms, chars, matched)
        if score is not None and (best is None or score > bestscore):
            best, bestscore = matched, score
    if best is None:
        return None
    return FuzzyResult(_columns(vis, best, width), max(bestscore, 0))


def _columns(vis: _Text, best: list[bool], width: int) -> tuple[int, ...]:
    """The display columns of the matched characters, each alignment placed in ``width`` as
    format_draw_none lays it out (trimmed from the centre, then the right, then the left)."""
    totals = vis.totals
    if vis.aligns is None:
        return tuple(i for i, hit in enumerate(best) if hit and i < width)
    wl, wc, wr = totals["left"], totals["centre"], totals["right"]
    wa = min(totals["absolute-centre"], width)
    while wl + wc + wr > width:
        if wc > 0:
            wc -= 1
        elif wr > 0:
            wr -= 1
        else:
            wl -= 1
    start = {"left": 0, "right": width - wr, "centre": wl + ((width - wr) - wl) // 2 - wc // 2,
             "absolute-centre": (width - wa) // 2}
    src = {"left": 0, "right": totals["right"] - wr, "centre": totals["centre"] // 2 - wc // 2,
           "absolute-centre": 0}
    shown = {"left": wl, "right": wr, "centre": wc, "absolute-centre": wa}
    columns: set[int] = set()
    assert vis.widths is not None and vis.offsets is not None
    for i, hit in enumerate(best):
        if not hit:
            continue
        align, offset = vis.aligns[i], vis.offsets[i]
        if offset < src[align] or offset >= src[align] + shown[align]:
            continue
        column = start[align] + offset - src[align]
        for j in range(vis.widths[i]):
            if column + j < width:
                columns.add(column + j)
    return tuple(sorted(columns))


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
