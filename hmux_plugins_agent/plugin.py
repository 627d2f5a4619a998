"""The sweep: every 200 ms, which agent runs in each pane and what state it is in.

Cost is what earlier tools got wrong, so each sweep does as little as the panes require: one
:class:`~.procs.Snapshot` shared by all panes; a pane without an agent is looked at only after
it had output (its revision in ``Host.revisions()`` moved) and every 5 s otherwise; a
pane's identity is worked out again only when its foreground group changed or its agent
process no longer runs the same argv; its screen is classified only when its revision or
title changed, its agent's state file changed, or a hold is pending; session files are read
only when they change. Values are published by replacing one dict, so
:meth:`AgentPlugin.resolve`, which runs on the server's event loop, only looks up (the glyph
option is read there, directly: an option lookup on the loop is a few dict reads, and a
``set -g @agent-glyph-…`` shows at the next redraw).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from hmux_core.plugin import Host, PaneInfo, Plugin

from . import glyphs
from .classify import classify, screen_model
from .damping import Damper
from .identity import Identity, identify, is_plain_shell
from .procs import Snapshot, boot_time, start_time
from .sessions import AgentProc, Files, Tracker
from .table import AgentTable, load, signature, user_paths

VARIABLES = ("pane_agent", "pane_agent_state", "pane_agent_pid", "pane_agent_session_id",
             "pane_agent_model", "pane_state_emoji",
             "window_agent_state", "window_agent_counts", "window_state_emoji",
             "session_agent_state", "session_agent_counts", "session_state_emoji")
#: Roll-up variables: the most urgent state among the panes of the window / session.
ROLLUPS = {"window_agent_state": ("w", "state"), "window_agent_counts": ("w", "counts"),
           "window_state_emoji": ("w", "glyph"), "session_agent_state": ("s", "state"),
           "session_agent_counts": ("s", "counts"), "session_state_emoji": ("s", "glyph")}
#: Raised on every change of a pane's published state, with ``old``, ``new`` and ``agent``.
EVENT = "pane-agent-state-changed"
#: Extra agent-table files, colon-separated (after ~/.config/hmux/agents.toml).
TABLE_OPTION = "@agent-table-file"
#: An unchanged pane's identity is checked again every this many sweeps (staggered).
IDENTITY_EVERY = 5
#: Panes with no agent and no output are looked at (one PaneInfo each) every this many sweeps
#: (5 s), all in the same sweep: an agent starting in one draws, which marks it at once, so
#: this is only a safety net (for an agent that draws nothing for a while, an ``exec``). With
#: hundreds of idle panes, looking at a tenth of them every sweep was most of the plugin's
#: idle cost: a sweep that wakes to a little work runs cold and costs several times what the
#: same work costs in one batch.
QUIET_EVERY = 25
#: A pane whose agent is working (and redraws all the time) has its screen classified every
#: this many sweeps (400 ms): leaving working waits for the hold anyway, and a question it
#: asks shows within a sweep more.
WORKING_EVERY = 2
#: The agent table's files are checked for changes every this many sweeps.
TABLE_EVERY = 10
#: Rows asked of the screen at most (the live region is at the bottom of what is drawn).
MAX_TAIL = 200
#: The pane option an agent's hooks set (``hmux agents report``): "STATE TIME [AGENT]".
REPORT_OPTION = "@agent-report"
#: A ``working`` report not followed by another within this many seconds is no longer
#: believed (a hook that stopped firing, an agent killed mid-turn): the screen decides again.
REPORT_TTL = 20.0
#: Reports outrank the screen's working anchors (70-90) but not its strong blockers (100+):
#: hooks can miss a permission prompt's answer, a prompt on screen cannot lie. An ``idle``
#: report ranks below the screen's failed-turn rules (65): not every agent has a hook for a
#: turn that failed, and its "turn over" hook fires all the same.
REPORT_PRIORITY = 95
REPORT_IDLE_PRIORITY = 62
REPORT_STATES = {"working": "working", "waiting": "waiting", "idle": "idle", "done": "idle",
                 "error": "error"}
#: Desktop notifications for states that want the user: off, osc9 or osc777.
NOTIFY_OPTION = "@agent-notify"


@dataclass(slots=True)
class SweepStats:
    """What the last sweep did, for the bench and the tests."""

    panes: int = 0
    agents: int = 0
    identities: int = 0
    classified: int = 0
    proc_reads: int = 0
    file_reads: int = 0  #: agents' session files actually read (not merely stat'ed)
    seconds: float = 0.0


@dataclass(slots=True)
class _Pane:
    slot: int
    pgrp: int = -2
    ident_rev: int = -1
    ident_key: tuple[int, tuple[str, ...] | None] | None = None
    settled: bool = False  #: identity decided by the leader alone (no members to re-check)
    identity: Identity | None = None
    damper: Damper = field(default_factory=Damper)
    class_rev: int = -1
    class_title: str | None = None
    file_sig: object = None
    tracker: Tracker | None = None
    values: dict[str, str] = field(default_factory=dict)
    values_key: tuple[object, ...] = ()
    window_id: str = ""
    session_ids: tuple[str, ...] = ()
    report: tuple[str, float] | None = None  #: the latest hook report: (raw state, time)
    logged: str = ""  #: the reader error last written to the log


def _blank() -> dict[str, str]:
    return {"pane_agent": "", "pane_agent_state": "none", "pane_agent_pid": "",
            "pane_agent_session_id": "", "pane_agent_model": "",
            "pane_state_emoji": glyphs.default("none")}


class AgentPlugin(Plugin):
    """``#{pane_agent}``, ``#{pane_agent_state}`` and friends; see docs/agents.md."""

    name = "agent"
    api_version = 1
    variables = VARIABLES
    events = (EVENT,)
    interval = 0.2
    option_defaults = glyphs.OPTION_DEFAULTS + ((TABLE_OPTION, ""), (NOTIFY_OPTION, "off"))

    def __init__(self, clock: Callable[[], float] = time.monotonic, proc_root: str = "/proc",
                 wall: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._proc_root = proc_root
        self._values: dict[str, dict[str, str]] = {}
        self._panes: dict[str, _Pane] = {}
        self._files = Files()
        self._table: AgentTable | None = None
        self._table_sig: object = None
        self._sweep = 0
        self._slots = 0
        self._host: Host | None = None
        self._rollup: dict[tuple[str, str], dict[str, str]] = {}
        self._revisions: Mapping[str, int] = {}  #: each pane's output revision, last sweep
        self._quiet_round = False  #: this sweep looks at every pane (QUIET_EVERY)
        self._btime = boot_time(proc_root)
        self._blank = _blank()
        self.stats = SweepStats()

    # -- the plugin API ----------------------------------------------------------------------------

    def start(self, host: Host) -> None:
        self._host = host
        self._load_table(host, force=True)

    def resolve(self, pane_id: str, key: str) -> str | None:
        values = self._values.get(pane_id, self._blank)
        roll = ROLLUPS.get(key)
        if roll is not None:
            scope, what = roll
            pt = self._panes.get(pane_id)
            if pt is None:
                return None
            owner = pt.window_id if scope == "w" else (pt.session_ids[0] if pt.session_ids
                                                        else "")
            summary = self._rollup.get((scope, owner))
            if summary is None:
                summary = {"state": "none", "counts": ""}
            if what != "glyph":
                return summary[what]
            state = summary["state"]
        elif key != "pane_state_emoji":
            return values.get(key)
        else:
            state = values["pane_agent_state"]
        host = self._host
        return glyphs.pick(state, host.option(glyphs.option(state), pane_id)
                           if host is not None else None)

    def stop(self) -> None:
        self._panes = {}
        self._values = {}
        self._files = Files()

    def tick(self, host: Host) -> None:
        t0 = time.thread_time()
        self._host = host
        if self._table is None:
            self._load_table(host, force=True)
        elif self._sweep % TABLE_EVERY == 0:
            self._load_table(host)
        now = self._clock()
        reads0 = self._files.reads
        snap = Snapshot(self._proc_root)
        stats = SweepStats()
        changed = False
        screens: list[tuple[str, PaneInfo, _Pane, str, Identity | None]] = []
        # Panes that printed (or are new) since the last sweep; a host older than revisions()
        # (API 1 before it was added) gets every pane looked at every sweep.
        read = getattr(host, "revisions", None)
        if read is not None:
            live: Mapping[str, int] = read()
            seen, self._revisions = self._revisions, live
            # the same mapping back: nothing printed, came or went
            dirty = set() if live is seen else {p for p, rev in live.items()
                                                if seen.get(p) != rev}
        else:
            live = dict.fromkeys(host.panes(), -1)
            dirty = set(live)
        agents = [p for p, pt in self._panes.items() if pt.identity is not None]
        # A host older than pane_options (API 1 before it was added) gets no reports.
        read = getattr(host, "pane_options", None)
        reports = read(agents, REPORT_OPTION) if agents and read is not None else {}
        for pane_id in agents:
            self._panes[pane_id].report = parse_report(reports.get(pane_id))
        panes = self._panes
        for pane_id in [p for p in live if p not in panes]:
            pt = panes[pane_id] = _Pane(slot=self._slots)
            self._slots += 1
            changed = True
        # Looked at: panes with output or new, and agents; every pane in a quiet round. A quiet
        # pane without an agent costs nothing else: nothing can have changed that shows.
        self._quiet_round = self._sweep % QUIET_EVERY == 0
        look = set(live) if self._quiet_round else dirty.union(agents)
        stats.panes = len(live)
        for pane_id in sorted(look, key=lambda p: panes[p].slot if p in panes else -1):
            pt = panes.get(pane_id)
            info = host.pane(pane_id) if pt is not None else None
            if info is None:
                continue
            if self._sweep_pane(host, snap, pane_id, info, pt, now, stats, screens):
                changed = True
        if screens:  # every changed screen in one hop to the event loop
            tails = host.pane_tails([job[0] for job in screens], MAX_TAIL)
            for pane_id, info, pt, old_state, old_identity in screens:
                self._classify(snap, info, pt, tails.get(pane_id) or (), now)
                if self._publish(host, pane_id, info, pt, old_state, old_identity):
                    changed = True
        if len(panes) != len(live):
            for gone in [p for p in panes if p not in live]:
                del panes[gone]
                changed = True
            self._files.forget(lambda path: any(
                pt.tracker is not None and path.startswith(pt.tracker.proc.home)
                for pt in self._panes.values()))
        if changed:
            self._values = {pid: pt.values for pid, pt in self._panes.items()}
            self._rollup = rollup(self._panes.values())
        self._sweep += 1
        stats.proc_reads = snap.reads
        stats.file_reads = self._files.reads - reads0
        stats.seconds = time.thread_time() - t0
        self.stats = stats

    # -- the table ---------------------------------------------------------------------------------

    @property
    def table(self) -> AgentTable | None:
        return self._table

    def _load_table(self, host: Host, force: bool = False) -> None:
        paths = user_paths(host.option(TABLE_OPTION))
        sig = (tuple(paths), signature(paths))
        if not force and sig == self._table_sig:
            return
        self._table = load(paths)
        self._table_sig = sig
        for problem in self._table.problems:
            host.log(f"agent table: {problem}")
        self._revisions = {}  # every pane is looked at again
        for pt in self._panes.values():  # identities and rules may differ now
            pt.ident_key = None
            pt.settled = False
            pt.class_rev = -1

    # -- one pane ----------------------------------------------------------------------------------

    def _sweep_pane(self, host: Host, snap: Snapshot, pane_id: str, info: PaneInfo, pt: _Pane,
                    now: float, stats: SweepStats,
                    screens: list[tuple[str, PaneInfo, _Pane, str, Identity | None]]) -> bool:
        """Identity, session files and damping of one pane; True if its values changed. A
        pane whose screen must be classified is added to ``screens`` and finished later."""
        table = self._table
        assert table is not None
        if info.window_id != pt.window_id or info.session_ids != pt.session_ids:
            pt.window_id, pt.session_ids = info.window_id, info.session_ids
            pt.values_key = ()  # the roll-ups move with the pane
        pgrp = -1 if info.dead else info.foreground_pgrp
        old_state = pt.damper.state
        old_identity = pt.identity
        output = info.revision != pt.ident_rev
        # A plain shell, same group, nothing printed: only an ``exec`` of a program that draws
        # nothing changes it, so its argv is read again in the quiet rounds only.
        due = pgrp != pt.pgrp or output or self._quiet_round or (
            (self._sweep + pt.slot) % IDENTITY_EVERY == 0
            and (not pt.settled or pt.identity is not None))
        if due:
            pt.pgrp, pt.ident_rev = pgrp, info.revision
            leader_argv = snap.cmdline(pgrp) if pgrp > 0 else None
            key = (pgrp, leader_argv)
            if key == pt.ident_key and not pt.settled and old_identity is not None \
                    and snap.cmdline(old_identity.pid) == old_identity.argv:
                # The agent (a member, not the leader) still runs: only the members may differ.
                if pt.tracker is not None and not pt.tracker.info.session_id:
                    pt.tracker.proc.members = self._members(snap, old_identity, pgrp, info)
            elif key != pt.ident_key or (not pt.settled and (
                    old_identity is not None or output
                    or self._quiet_round)):
                # No agent under a leader that is no shell (``cat``, ``make``): an agent it
                # starts draws, so between outputs its group is looked at only every 5 s.
                stats.identities += 1
                ident = identify(snap, pgrp, info.pid, table)
                pt.ident_key = key
                pt.settled = leader_argv is not None and (
                    (ident is not None and ident.pid == pgrp)
                    or (ident is None and is_plain_shell(leader_argv)))
                if ident is None or old_identity is None or (ident.label, ident.pid) != (
                        old_identity.label, old_identity.pid):
                    pt.identity = ident
                    pt.tracker = None
                    pt.class_rev = -1
                    pt.damper.reset("none")
                elif pt.tracker is not None:
                    pt.tracker.proc.members = self._members(snap, ident, pgrp, info)
        ident = pt.identity
        if ident is not None:
            stats.agents += 1
            fresh = pt.tracker is None
            if fresh:
                pt.tracker = Tracker(ident.spec, self._agent_proc(snap, ident, pgrp, info))
            elif (pt.settled and not pt.tracker.info.session_id
                  and (self._sweep + pt.slot) % IDENTITY_EVERY == 0):
                # A wrapper recognised as the agent (node cli-wrapper.cjs, npx) starts the
                # real one after it: its session files are keyed by the child's pid.
                pt.tracker.proc.members = self._members(snap, ident, pgrp, info)
            # A working agent redraws all the time: its files are looked at once a second
            # (its screen says when it stops), an agent that drew otherwise at once.
            busy = pt.damper.state == "working" and not pt.damper.holding
            phase = (self._sweep + pt.slot) % IDENTITY_EVERY
            if fresh or pt.damper.holding or phase == 0 or (output and not busy):
                session = pt.tracker.refresh(snap, self._files, time.time())
                if pt.tracker.error and pt.tracker.error != pt.logged:
                    pt.logged = pt.tracker.error  # a reader that failed says so, once
                    host.log(f"{pane_id} {ident.label}: {pt.tracker.error}")
            else:  # an agent's files change as it draws; between outputs, once a second
                session = pt.tracker.info
            file_sig = (session.file_sig, self._reported(pt))
            if busy and (self._sweep + pt.slot) % WORKING_EVERY and file_sig == pt.file_sig:
                pass  # still working: look at its screen every WORKING_EVERY sweeps
            elif (info.revision != pt.class_rev or info.title != pt.class_title
                    or file_sig != pt.file_sig or pt.damper.holding):
                stats.classified += 1
                pt.class_rev, pt.class_title, pt.file_sig = info.revision, info.title, file_sig
                screens.append((pane_id, info, pt, old_state, old_identity))
                return False
            pt.damper.tick(now, info.visible, table.hold)
        return self._publish(host, pane_id, info, pt, old_state, old_identity)

    def _classify(self, snap: Snapshot, info: PaneInfo, pt: _Pane, lines: Sequence[str],
                  now: float) -> None:
        table, ident, tracker = self._table, pt.identity, pt.tracker
        assert table is not None and ident is not None and tracker is not None
        reported = self._reported(pt)
        file_state = tracker.info.file_state
        if reported:
            file_state = (reported, REPORT_IDLE_PRIORITY if reported == "idle"
                          else REPORT_PRIORITY)
        verdict = classify(ident.spec, lines, info.title, file_state, table.generic)
        if ident.spec.screen_model:
            seen = screen_model(ident.spec, lines)
            if seen and seen != tracker.screen_model:
                tracker.screen_model = seen
                tracker.refresh(snap, self._files, time.time())
        raw = verdict.state
        if raw == "keep" and pt.damper.state == "none":
            raw = "unknown"  # a new agent on a screen that says nothing yet
        pt.damper.observe(raw, now, info.visible, table.hold)

    def _publish(self, host: Host, pane_id: str, info: PaneInfo, pt: _Pane, old_state: str,
                 old_identity: Identity | None) -> bool:
        """New values (and the event, the bell) if anything shown changed."""
        ident = pt.identity
        state = pt.damper.state
        session = pt.tracker.info if ident is not None and pt.tracker is not None else None
        vkey = (ident.label, ident.pid, session.session_id, session.model, state) \
            if ident is not None and session is not None else (None, state)
        if vkey == pt.values_key:
            return False
        pt.values_key = vkey
        pt.values = self._values_for(pt)
        host.invalidate(pane_id)
        if state != old_state:
            label = (ident or old_identity).label if (ident or old_identity) else ""
            host.emit(EVENT, pane_id, old=old_state, new=state, agent=label)
            if state in glyphs.ATTENTION and not info.visible:
                host.bell(pane_id)  # as tmux flags a window that rang while out of sight
                style = host.option(NOTIFY_OPTION, pane_id)
                if style in ("osc9", "osc777") and hasattr(host, "notify_clients"):
                    host.notify_clients(pane_id, f"{label or 'agent'} {state}",
                                        NOTICES.get(state, state), style)
        return True

    def _reported(self, pt: _Pane) -> str | None:
        """The state the agent's hooks report, if a report of this agent process is in force."""
        if pt.report is None or pt.tracker is None:
            return None
        raw, when = pt.report
        started = pt.tracker.proc.started
        if started and when < started - 1.0:
            return None  # an earlier agent in this pane reported it
        if raw == "working" and time.time() - when > REPORT_TTL:
            return None
        return REPORT_STATES.get(raw)

    def _values_for(self, pt: _Pane) -> dict[str, str]:
        """What resolve answers; ``pane_state_emoji`` holds the default glyph (resolve reads
        the option)."""
        ident = pt.identity
        if ident is None:
            return self._blank
        session = pt.tracker.info if pt.tracker is not None else None
        return {
            "pane_agent": ident.label,
            "pane_agent_state": pt.damper.state,
            "pane_agent_pid": str(ident.pid),
            "pane_agent_session_id": session.session_id if session else "",
            "pane_agent_model": session.model if session else "",
            "pane_state_emoji": glyphs.default(pt.damper.state),
        }

    def _members(self, snap: Snapshot, ident: Identity, pgrp: int, info: PaneInfo
                 ) -> tuple[int, ...]:
        root = pgrp if snap.cmdline(pgrp) is not None else info.pid
        found = snap.members(pgrp, root) if pgrp > 0 and root > 0 else ()
        return (ident.pid,) + tuple(p for p in found if p != ident.pid)

    def _agent_proc(self, snap: Snapshot, ident: Identity, pgrp: int, info: PaneInfo
                    ) -> AgentProc:
        st = snap.stat(ident.pid)
        return AgentProc(
            pid=ident.pid, argv=ident.argv, members=self._members(snap, ident, pgrp, info),
            env=snap.environ(ident.pid) or {}, cwd=snap.cwd(ident.pid),
            started=start_time(st, self._btime) if st is not None else 0.0)


NOTICES = {"waiting": "needs you", "error": "the turn failed", "done": "finished"}


def parse_report(value: str | None) -> tuple[str, float] | None:
    """``"working 1733500000.5 claude"`` → ``("working", 1733500000.5)``; None if unusable."""
    if not value:
        return None
    parts = value.split()
    if len(parts) < 2 or parts[0] not in REPORT_STATES:
        return None
    try:
        return parts[0], float(parts[1])
    except ValueError:
        return None


def rollup(panes: Iterable[_Pane]) -> dict[tuple[str, str], dict[str, str]]:
    """Per window (``("w", "@1")``) and session (``("s", "$0")``): the most urgent state among
    its panes' agents, and the count of each state (``"waiting=1 working=2"``, most urgent
    first; panes without an agent are not counted)."""
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for pt in panes:
        state = pt.values.get("pane_agent_state", "none") if pt.values else "none"
        owners = [("w", pt.window_id)] + [("s", s) for s in pt.session_ids]
        for owner in owners:
            c = counts.setdefault(owner, {})
            if state != "none":
                c[state] = c.get(state, 0) + 1
    out = {}
    for owner, c in counts.items():
        order = sorted(c, key=glyphs.rank)
        out[owner] = {"state": order[0] if order else "none",
                      "counts": " ".join(f"{k}={c[k]}" for k in order)}
    return out
