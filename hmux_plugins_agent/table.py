"""The agent table as data: the bundled ``agents.toml`` merged with the user's files.

Recognition and state rules change with every agent release, so they live in TOML a user can
fix without touching code. Loading is tolerant: a bad rule or file is reported (``problems``)
and skipped, never fatal, because a typo in ``~/.config/hmux/agents.toml`` must not take the
whole plugin down.
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

STATES = ("working", "waiting", "error", "idle", "unknown", "keep")
REGIONS = ("title", "bottom", "after_rule", "prompt_box", "above_prompt", "above_rule")
SESSION_READERS = ("", "claude", "codex", "gemini", "opencode", "copilot")
DEFAULT_LINES = 8
DEFAULT_HOLD = 1.0
#: Keys whose lists a user file appends to (the rest replace the bundled value).
_APPENDING = ("names", "paths", "modules", "commands", "exclude_args", "ignore",
              "session_flags", "model_flags", "resume_commands", "screen_model")


class TableError(ValueError):
    """A rule or agent entry that cannot be used; the message names it."""


@dataclass(frozen=True, slots=True)
class Rule:
    """One screen rule: if its region matches, the pane is in ``state``."""

    name: str
    state: str
    priority: int
    region: str
    lines: int
    any_of: tuple[tuple[str, ...], ...] = ()
    all_of: tuple[str, ...] = ()
    regex: tuple[re.Pattern[str], ...] = ()
    none_of: tuple[str, ...] = ()

    def matches(self, text: str) -> bool:
        """``text`` is the region, lower-cased (regexes are compiled case-insensitive)."""
        if not text:
            return False
        for s in self.none_of:
            if s in text:
                return False
        for s in self.all_of:
            if s not in text:
                return False
        for group in self.any_of:
            if not any(s in text for s in group):
                return False
        if self.regex and not any(r.search(text) for r in self.regex):
            return False
        return bool(self.all_of or self.any_of or self.regex)


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """Everything the table says about one agent."""

    label: str
    names: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    exclude_args: tuple[str, ...] = ()
    rules: tuple[Rule, ...] = ()
    ignore: tuple[re.Pattern[str], ...] = ()
    fallback: str = "unknown"
    sessions: str = ""
    session_flags: tuple[str, ...] = ()
    model_flags: tuple[str, ...] = ()
    resume_commands: tuple[str, ...] = ()
    screen_model: tuple[re.Pattern[str], ...] = ()


@dataclass(slots=True)
class AgentTable:
    """The merged table plus lookup indexes built once per load."""

    agents: dict[str, AgentSpec]
    generic: AgentSpec
    hold: float = DEFAULT_HOLD
    problems: list[str] = field(default_factory=list)
    sources: tuple[str, ...] = ()
    by_name: dict[str, str] = field(default_factory=dict)
    by_module: dict[str, str] = field(default_factory=dict)
    by_command: dict[str, str] = field(default_factory=dict)
    path_patterns: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        self.reindex()

    def reindex(self) -> None:
        self.by_name, self.by_module, self.by_command = {}, {}, {}
        paths: list[tuple[str, str]] = []
        for label, spec in self.agents.items():
            self.by_name.setdefault(label, label)
            for n in spec.names:
                self.by_name.setdefault(n, label)
            for m in spec.modules:
                self.by_module.setdefault(m, label)
            for c in spec.commands:
                self.by_command.setdefault(" ".join(c.lower().split()), label)
            for p in spec.paths:
                paths.append((p.lower(), label))
        # Longer patterns first, so "/@openai/codex/bin/codex" beats a shorter neighbour.
        self.path_patterns = tuple(sorted(paths, key=lambda t: -len(t[0])))

    def spec(self, label: str) -> AgentSpec:
        """The spec for a label or alias; the generic rules under that label if unknown."""
        known = self.by_name.get(label.lower())
        if known is not None:
            return self.agents[known]
        return replace(self.generic, label=label)

    def label_for_path(self, path: str) -> str | None:
        low = path.lower()
        for pattern, label in self.path_patterns:
            if pattern in low:
                return label
        return None


# -- parsing -------------------------------------------------------------------------------------

def _strings(value: Any, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TableError(f"{what} must be a list of strings")
    return tuple(value)


def _regexes(value: Any, what: str, case: bool = False) -> tuple[re.Pattern[str], ...]:
    flags = re.MULTILINE | (0 if case else re.IGNORECASE)
    out = []
    for pat in _strings(value, what):
        try:
            out.append(re.compile(pat, flags))
        except re.error as e:
            raise TableError(f"{what}: bad regex {pat!r}: {e}") from None
    return tuple(out)


def parse_rule(raw: Mapping[str, Any], where: str) -> Rule:
    if not isinstance(raw, Mapping):
        raise TableError(f"{where}: a rule must be a table")
    name = str(raw.get("name", "")) or where
    state = raw.get("state")
    if state not in STATES:
        raise TableError(f"{where} ({name}): state must be one of {', '.join(STATES)}")
    region = raw.get("region", "bottom")
    if region not in REGIONS:
        raise TableError(f"{where} ({name}): region must be one of {', '.join(REGIONS)}")
    priority = raw.get("priority", 50)
    lines = raw.get("lines", DEFAULT_LINES)
    if not isinstance(priority, int) or not isinstance(lines, int) or lines < 1:
        raise TableError(f"{where} ({name}): priority and lines must be integers, lines >= 1")
    any_raw = raw.get("any")
    groups: list[tuple[str, ...]] = []
    if any_raw is not None:
        if not isinstance(any_raw, list):
            raise TableError(f"{where} ({name}): any must be a list")
        if all(isinstance(v, str) for v in any_raw):
            groups.append(tuple(s.lower() for s in any_raw))
        else:
            for g in any_raw:
                groups.append(tuple(s.lower() for s in _strings(g, f"{where} ({name}) any")))
    rule = Rule(
        name=name, state=state, priority=priority, region=region, lines=lines,
        any_of=tuple(g for g in groups if g),
        all_of=tuple(s.lower() for s in _strings(raw.get("all"), f"{where} ({name}) all")),
        regex=_regexes(raw.get("regex"), f"{where} ({name}) regex", bool(raw.get("case"))),
        none_of=tuple(s.lower() for s in _strings(raw.get("none"), f"{where} ({name}) none")),
    )
    if not (rule.any_of or rule.all_of or rule.regex):
        raise TableError(f"{where} ({name}): needs at least one of any, all, regex")
    unknown = set(raw) - {"name", "state", "region", "priority", "lines", "any", "all", "regex",
                          "none", "case"}
    if unknown:
        raise TableError(f"{where} ({name}): unknown keys {', '.join(sorted(unknown))}")
    return rule


def _merge_raw(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """A user entry over a bundled one: lists in ``_APPENDING`` and ``rules`` are added to,
    everything else replaced; ``replace = true`` replaces the whole entry instead."""
    if over.get("replace"):
        return {k: v for k, v in over.items() if k != "replace"}
    out = dict(base)
    for k, v in over.items():
        if k == "rules" and not over.get("replace_rules"):
            out["rules"] = list(v) + list(base.get("rules", []))
        elif k in _APPENDING and isinstance(v, list):
            out[k] = list(v) + [x for x in base.get(k, []) if x not in v]
        elif k != "replace_rules":
            out[k] = v
    return out


def _build_spec(label: str, raw: Mapping[str, Any], defaults: Mapping[str, Any],
                problems: list[str], where: str) -> AgentSpec:
    rules = []
    for i, r in enumerate(raw.get("rules", []) or []):
        try:
            rules.append(parse_rule(r, f"{where} agents.{label}.rules[{i}]"))
        except TableError as e:
            problems.append(str(e))
    rules.sort(key=lambda r: -r.priority)  # stable: among equals, the earlier (user) rule wins
    fallback = raw.get("fallback", "unknown")
    if fallback not in ("idle", "unknown", "working"):
        problems.append(f"{where} agents.{label}: fallback must be idle, working or unknown")
        fallback = "unknown"
    sessions = raw.get("sessions", "")
    if sessions not in SESSION_READERS:
        problems.append(f"{where} agents.{label}: no session reader {sessions!r}")
        sessions = ""
    ignore = list(_strings(defaults.get("ignore"), "defaults.ignore"))
    ignore += [p for p in _strings(raw.get("ignore"), f"agents.{label}.ignore") if p not in ignore]
    return AgentSpec(
        label=label,
        names=tuple(n.lower() for n in _strings(raw.get("names"), f"agents.{label}.names")),
        paths=_strings(raw.get("paths"), f"agents.{label}.paths"),
        modules=_strings(raw.get("modules"), f"agents.{label}.modules"),
        commands=_strings(raw.get("commands"), f"agents.{label}.commands"),
        exclude_args=_strings(raw.get("exclude_args"), f"agents.{label}.exclude_args"),
        rules=tuple(rules),
        ignore=_regexes(ignore, f"agents.{label}.ignore"),
        fallback=fallback,
        sessions=sessions,
        session_flags=_strings(raw.get("session_flags"), f"agents.{label}.session_flags"),
        model_flags=_strings(raw.get("model_flags"), f"agents.{label}.model_flags"),
        resume_commands=_strings(raw.get("resume_commands"), f"agents.{label}.resume_commands"),
        screen_model=_regexes(raw.get("screen_model"), f"agents.{label}.screen_model"),
    )


def build(documents: Sequence[tuple[str, Mapping[str, Any]]]) -> AgentTable:
    """Merge parsed documents in order (bundled first, then each user file) into a table."""
    problems: list[str] = []
    raw_agents: dict[str, dict[str, Any]] = {}
    defaults: dict[str, Any] = {}
    generic: dict[str, Any] = {}
    hold = DEFAULT_HOLD
    for where, doc in documents:
        settings = doc.get("settings", {})
        if isinstance(settings, Mapping) and "hold" in settings:
            h = settings["hold"]
            if isinstance(h, int | float) and 0 <= h <= 60:
                hold = float(h)
            else:
                problems.append(f"{where}: settings.hold must be seconds between 0 and 60")
        d = doc.get("defaults", {})
        if isinstance(d, Mapping):
            defaults = _merge_raw(defaults, d)
        g = doc.get("generic", {})
        if isinstance(g, Mapping):
            generic = _merge_raw(generic, g)
        agents = doc.get("agents", {})
        if not isinstance(agents, Mapping):
            problems.append(f"{where}: agents must be a table")
            continue
        for label, entry in agents.items():
            if not isinstance(entry, Mapping):
                problems.append(f"{where}: agents.{label} must be a table")
                continue
            if entry.get("disabled"):
                raw_agents.pop(label, None)
                continue
            raw_agents[label] = _merge_raw(raw_agents.get(label, {}), entry)
            raw_agents[label]["__where__"] = where
    specs: dict[str, AgentSpec] = {}
    for label, raw in raw_agents.items():
        where = raw.pop("__where__", "?")
        parent = raw.get("extends")
        if isinstance(parent, str) and parent in raw_agents:
            raw = _merge_raw({k: v for k, v in raw_agents[parent].items()
                              if k not in ("names", "paths", "modules", "commands")}, raw)
        try:
            specs[label] = _build_spec(label, raw, defaults, problems, where)
        except TableError as e:
            problems.append(f"{where}: {e}")
    try:
        gen = _build_spec("", generic, defaults, problems, "generic")
    except TableError as e:
        problems.append(str(e))
        gen = AgentSpec(label="")
    return AgentTable(agents=specs, generic=gen, hold=hold, problems=problems,
                      sources=tuple(w for w, _ in documents))


#: Where the bundled table's problems and rules say they come from.
BUNDLED = "agents.toml (bundled)"


def bundled_document() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("agents.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@functools.cache
def bundled_table() -> AgentTable:
    """The table when no user file exists, built once per process: parsing the bundled TOML
    and compiling its rules costs 6-11 ms, which every new server paid at the plugin's start
    (a test suite starts hundreds). Shared, so never changed by its users."""
    return build([(BUNDLED, bundled_document())])


def user_paths(option_value: str | None, env: Mapping[str, str] | None = None) -> list[str]:
    """Where user tables are looked for: the XDG config file, then ``@agent-table-file``."""
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    out = [os.path.join(base, "hmux", "agents.toml")]
    for p in (option_value or "").split(":"):
        p = p.strip()
        if p:
            out.append(os.path.expanduser(p))
    return out


def signature(paths: Iterable[str]) -> tuple[tuple[str, int, int], ...]:
    """(path, mtime_ns, size) of each existing file: a table is reloaded when this changes."""
    sig = []
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            continue
        sig.append((p, st.st_mtime_ns, st.st_size))
    return tuple(sig)


def load(paths: Iterable[str]) -> AgentTable:
    """Bundled table plus every readable user file in ``paths``; problems are collected."""
    docs: list[tuple[str, Mapping[str, Any]]] = []
    problems: list[str] = []
    for p in paths:
        try:
            with open(p, "rb") as f:
                docs.append((p, tomllib.load(f)))
        except FileNotFoundError:
            continue
        except (OSError, tomllib.TOMLDecodeError) as e:
            problems.append(f"{p}: {e}")
    if not docs and not problems:
        return bundled_table()
    table = build([(BUNDLED, bundled_document()), *docs])
    table.problems[:0] = problems
    return table


# Built at import: the plugin's module is imported before the first command's answer is
# awaited (in a worker thread, or once by hmux's fork server for all the servers it forks).
bundled_table()
