"""A pane's raw state from its live region, its title and the agent's own state file.

Only the live part of the screen is read: the bottom rows, split at horizontal rules the way
the agents draw their prompt boxes, never scrollback. Blockers are looked for only in the
region a rule names (after the last rule, the bottom lines), because agent prose such as
"Would you like to open a pull request?" scrolls through the transcript above (herdr#4064).
Rules are tried by priority, so positive working anchors (a spinner, an interrupt hint) outrank
weak blockers. The result is *raw*: :mod:`.damping` decides what is published.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .table import AgentSpec, Rule

#: Characters a horizontal rule (or a box's top/bottom edge) is drawn with.
_RULE_CHARS = frozenset("─━═╌╍┄┅┈┉╴╶╸╺▔▁-")
_BOX_CORNERS = frozenset("╭╮╰╯┌┐└┘┏┓┗┛╔╗╚╝├┤┝┥")
MIN_RULE = 8


_CORNERS = re.escape("".join(sorted(_BOX_CORNERS)))
_RULE = re.compile(rf"\s*[{_CORNERS}]?[{re.escape(''.join(sorted(_RULE_CHARS)))}]"
                   rf"{{{MIN_RULE},}}[{_CORNERS}]?\s*")


def is_rule(line: str) -> bool:
    """A line that is only a horizontal rule (optionally between box corners); a run of
    ASCII ``-`` alone is text (a Markdown rule in a reply), not a rule."""
    if _RULE.fullmatch(line) is None:
        return False
    return any(c != "-" for c in line.strip().strip("".join(_BOX_CORNERS)))


_META = re.compile(r"[\\^$.|?*+()\[\]{}]")


@functools.lru_cache(maxsize=64)
def _ignorer(patterns: tuple[re.Pattern[str], ...]
             ) -> tuple[tuple[str, ...], re.Pattern[str] | None]:
    """An agent's ignore patterns split for speed: plain words become lower-cased substrings
    (one ``in`` each on the lowered line), the rest one alternation (every row of every
    changed screen goes through this)."""
    words = tuple(p.pattern.lower() for p in patterns if not _META.search(p.pattern))
    rest = [p for p in patterns if _META.search(p.pattern)]
    one = re.compile("|".join(f"(?:{p.pattern})" for p in rest), rest[0].flags) if rest else None
    return words, one


def _ignored(line: str, words: tuple[str, ...], one: re.Pattern[str] | None) -> bool:
    if words:
        low = line.lower()
        if any(w in low for w in words):
            return True
    return one is not None and one.search(line) is not None


class Regions:
    """The named regions of one screen, each computed on first use."""

    def __init__(self, lines: Sequence[str], title: str,
                 ignore: Sequence[re.Pattern[str]] = ()) -> None:
        words, one = _ignorer(tuple(ignore))
        kept = [ln for ln in lines if ln.strip() and not _ignored(ln, words, one)]
        self.lines = kept
        self.title = title.lower()
        self._rules = [i for i, ln in enumerate(kept) if is_rule(ln)]
        self._cache: dict[tuple[str, int], str] = {}

    def text(self, region: str, n: int) -> str:
        key = (region, n)
        if key in self._cache:
            return self._cache[key]
        if region == "title":
            out = self.title
        else:
            out = "\n".join(self._lines(region, n)).lower()
        self._cache[key] = out
        return out

    def _lines(self, region: str, n: int) -> list[str]:
        lines, rules = self.lines, self._rules
        if region == "bottom":
            return lines[-n:]
        if region == "after_rule":
            if not rules:
                return lines[-n:]
            return lines[rules[-1] + 1:][:n]
        if region == "prompt_box":
            if len(rules) < 2:
                return []
            return lines[rules[-2] + 1: rules[-1]][-n:]
        if region == "above_rule":  # the lines directly above the last rule
            return (lines[:rules[-1]] if rules else lines)[-n:]
        if region == "above_prompt":
            if not rules:
                return lines[-n:]
            # The block directly above the prompt box (or above the only rule).
            top = rules[-2] if len(rules) >= 2 else rules[-1]
            return lines[:top][-n:]
        return []


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the evidence says: a state (or ``keep``) and why."""

    state: str
    reason: str
    priority: int = 0


def classify(spec: AgentSpec, lines: Sequence[str], title: str,
             file_state: tuple[str, int] | None = None, generic: AgentSpec | None = None
             ) -> Verdict:
    """The raw state of one screen for one agent.

    ``file_state`` is ``(state, priority)`` from the agent's own state file, weighed against
    the rules by priority. An agent without rules of its own is judged by ``generic``.
    """
    regions = Regions(lines, title, spec.ignore)
    rules: Sequence[Rule] = spec.rules or (generic.rules if generic is not None else ())
    blank = not regions.lines
    for rule in rules:
        if blank and rule.region != "title":
            continue
        if file_state is not None and file_state[1] > rule.priority:
            return Verdict(file_state[0], "state file", file_state[1])
        if rule.matches(regions.text(rule.region, rule.lines)):
            return Verdict(rule.state, rule.name, rule.priority)
    if file_state is not None:
        return Verdict(file_state[0], "state file", file_state[1])
    if blank:  # nothing drawn yet (starting, or clearing to redraw): no evidence at all
        return Verdict("keep", "blank screen")
    fallback = spec.fallback if spec.rules or generic is None else generic.fallback
    return Verdict(fallback, "nothing matched")


def screen_model(spec: AgentSpec, lines: Sequence[str]) -> str | None:
    """A model name the agent printed (aider's banner and spinner), newest line first."""
    if not spec.screen_model:
        return None
    for ln in reversed(lines):
        for r in spec.screen_model:
            m = r.search(ln)
            if m and m.group(1):
                return m.group(1)
    return None
