"""Differential tests: hmux_core.layout against the tmux oracle (3.7b).

One tmux server for the whole module; every sequence runs in its own detached session (so its own
window of a chosen size).  After each step the model's #{window_layout}, visible layout, window
size, active pane and every pane's geometry and edge flags are compared with tmux's.
"""

from __future__ import annotations

import copy
import os
import random
import subprocess
import time
from dataclasses import dataclass, field

import pytest
from oracle import ORACLE as TMUX  # noqa: E402

from hmux_core.layout import (
    Layout,
    LayoutError,
    lookup_preset,
    swap_panes,
)


class Pane:
    def __init__(self, pid: int) -> None:
        self.id = pid

    def __repr__(self) -> str:
        return f"%{self.id}"


class Tmux:
    """A private tmux server driven through its command line."""

    def __init__(self, tmpdir: str) -> None:
        self.env = dict(os.environ, TMUX_TMPDIR=tmpdir)
        self.env.pop("TMUX", None)
        self.base = [TMUX, "-L", "x", "-f", "/dev/null"]

    def run(self, *args: str) -> tuple[int, str, str]:
        p = subprocess.run(self.base + list(args), env=self.env, capture_output=True,
                           text=True, timeout=60)
        return p.returncode, p.stdout, p.stderr

    def ok(self, *args: str) -> str:
        rc, out, err = self.run(*args)
        assert rc == 0, (args, out, err)
        return out


@pytest.fixture(scope="module")
def tmux(tmp_path_factory: pytest.TempPathFactory):
    tmpdir = str(tmp_path_factory.mktemp("tmux"))
    t = Tmux(tmpdir)
    t.ok("new-session", "-d", "-s", "base", "-x", "80", "-y", "24", "exec sleep 100000")
    t.ok("set", "-g", "default-command", "exec sleep 100000")
    t.ok("set", "-g", "history-limit", "0")
    deadline = time.monotonic() + 10
    while t.run("has-session", "-t", "base")[0] != 0:  # poll until the server answers
        assert time.monotonic() < deadline
        time.sleep(0.01)
    yield t
    t.run("kill-server")


QUERY = ("display", "-p", "#{window_layout}|#{window_visible_layout}|"
         "#{window_width}x#{window_height}|#{pane_id}")
PANES = ("list-panes", "-F", "#{pane_id} #{pane_left} #{pane_top} #{pane_width} "
         "#{pane_height} #{pane_at_left}#{pane_at_right}#{pane_at_top}#{pane_at_bottom}")

_counter = [0]


@dataclass
class Seq:
    """One window driven in tmux and in the model in lockstep."""

    t: Tmux
    sx: int
    sy: int
    status: str = "off"
    wid: str = ""
    layout: Layout = field(init=False)
    panes: dict[int, Pane] = field(default_factory=dict)
    active: Pane | None = None
    lasts: list[Pane] = field(default_factory=list)  # tmux 3.7b's w->last_panes stack
    points: dict[int, int] = field(default_factory=dict)
    manual: tuple[int, int] | None = None
    options: dict[str, str] = field(default_factory=dict)
    seen_layouts: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        _counter[0] += 1
        name = f"s{_counter[0]}"
        out = self.t.ok("new-session", "-d", "-s", name, "-x", str(self.sx), "-y", str(self.sy),
                        "-P", "-F", "#{window_id} #{pane_id}")
        self.wid, pid = out.split()
        p = Pane(int(pid[1:]))
        self.panes[p.id] = p
        self.layout = Layout(self.sx, self.sy, p)
        self._activate(p)
        if self.status != "off":
            self.t.ok("set", "-w", "-t", self.wid, "pane-border-status", self.status)
            self.layout.set_border_status(self.status)
        self.check("start")

    # -- helpers ------------------------------------------------------------------------

    def _activate(self, p: Pane) -> None:
        if self.active is p:
            return
        if p in self.lasts:
            self.lasts.remove(p)
        if self.active is not None:
            if self.active in self.lasts:
                self.lasts.remove(self.active)
            self.lasts.insert(0, self.active)
        self.active = p
        _counter[0] += 1
        self.points[p.id] = _counter[0]

    def _point(self, p: Pane) -> int:
        return self.points.get(p.id, 0)

    def _tmux(self, *cmd: str) -> tuple[int, str, str]:
        """Run a command and the queries in one tmux invocation (queries skipped on error)."""
        args = list(cmd) + [";"] + list(QUERY[:1]) + ["-t", self.wid] + list(QUERY[1:]) + \
            [";"] + list(PANES[:1]) + ["-t", self.wid] + list(PANES[1:])
        rc, out, err = self.t.run(*args)
        return rc, out, err

    def _query(self) -> str:
        args = list(QUERY[:1]) + ["-t", self.wid] + list(QUERY[1:]) + [";"] + \
            list(PANES[:1]) + ["-t", self.wid] + list(PANES[1:])
        return self.t.ok(*args)

    def expected(self) -> str:
        lay = self.layout
        active = self.active
        assert active is not None
        lines = [f"{lay.dump()}|{lay.visible_dump()}|{lay.sx}x{lay.sy}|%{active.id}"]
        for p in lay.panes:
            g = lay.geometry(p)
            e = "".join("1" if f else "0" for f in lay.pane_edges(p))
            lines.append(f"%{p.id} {g.xoff} {g.yoff} {g.sx} {g.sy} {e}")
        return "\n".join(lines) + "\n"

    def compare(self, what: str, out: str) -> None:
        self.log.append(what)
        exp = self.expected()
        if out != exp:
            history = "\n".join(self.log[-15:])
            pytest.fail(f"mismatch after {what}\nhistory:\n{history}\n"
                        f"tmux:\n{out}\nmodel:\n{exp}")
        self.seen_layouts.append(self.layout.dump())
        # the command client exits: tmux runs recalculate_sizes() (MSG_EXITING)
        self._recalc()

    def check(self, what: str) -> None:
        self.compare(what, self._query())

    def step(self, what: str, cmd: list[str], model_op) -> None:
        """Run cmd in tmux and model_op on the model; errors must match too."""
        rc, out, err = self._tmux(*cmd)
        try:
            model_op()
            model_err = None
        except LayoutError as e:
            model_err = str(e)
        if rc != 0:
            self.log.append(f"{what} -> error {err.strip()!r}")
            assert model_err is not None, (what, err, "\n".join(self.log))
            assert err.strip() == model_err, (what, err, model_err)
            self._recalc()
            self.check(what + " (after error)")
            return
        assert model_err is None, (what, model_err, "\n".join(self.log))
        self.compare(what, out)

    def _recalc(self) -> None:
        """recalculate_sizes(): a manual-size window snaps back to its manual size."""
        if self.manual is not None and (self.layout.sx, self.layout.sy) != self.manual:
            self.layout.resize_window(*self.manual)

    # -- operations ---------------------------------------------------------------------

    def split(self, target: Pane, horizontal: bool = False, size: int | None = None,
              percent: int | None = None, before: bool = False, full: bool = False,
              p_flag: bool = False) -> Pane | None:
        cmd = ["split-window", "-t", f"%{target.id}", "-P", "-F", "#{pane_id}"]
        if horizontal:
            cmd.append("-h")
        if before:
            cmd.append("-b")
        if full:
            cmd.append("-f")
        if size is not None:
            cmd += ["-l", str(size)]
        if percent is not None:
            cmd += (["-p", str(percent)] if p_flag else ["-l", f"{percent}%"])
        what = " ".join(cmd[:1] + cmd[6:] + ["-t", f"%{target.id}"])
        probe = copy.deepcopy(self.layout)
        try:
            probe.split(target, horizontal, size, percent, before, full, Pane(-1))
        except LayoutError:
            pass
        if probe.tmux_would_crash:
            # tmux (3.3a to 3.7b) dies on this split (sizes wrap); hmux refuses, changes nothing
            with pytest.raises(LayoutError):
                self.layout.split(target, horizontal, size, percent, before, full, Pane(-1))
            self.check(what + " (refused: tmux would crash)")
            return None
        rc, out, err = self._tmux(*cmd)
        if rc != 0:
            self.log.append(f"{what} -> {err.strip()!r}")
            try:
                self.layout.split(target, horizontal, size, percent, before, full, Pane(-1))
            except LayoutError as e:
                assert str(e) == err.strip()
            else:
                pytest.fail(f"{what}: tmux said {err.strip()!r}, the model split\n" +
                            "\n".join(self.log[-15:]) + "\n" + self.expected())
            self._recalc()
            self.check(what + " (failed)")
            return None
        first, rest = out.split("\n", 1)
        new = Pane(int(first[1:]))
        self.panes[new.id] = new
        self.layout.split(target, horizontal, size, percent, before, full, new)
        self._activate(new)
        self.compare(what + f" -> %{new.id}", rest)
        return new

    def floating(self, target: Pane, sx: int, sy: int, xoff: int, yoff: int) -> Pane:
        """new-pane: a floating pane above the tiled ones (only its cell is the layout's)."""
        cmd = ["new-pane", "-t", f"%{target.id}", "-x", str(sx), "-y", str(sy),
               "-X", str(xoff), "-Y", str(yoff), "-P", "-F", "#{pane_id}"]
        rc, out, err = self._tmux(*cmd)
        assert rc == 0, err
        first, rest = out.split("\n", 1)
        new = Pane(int(first[1:]))
        self.panes[new.id] = new
        cell = self.layout.floating_cell(sx, sy, xoff, yoff)
        self.layout.add_pane(new, target, floating=True)
        self.layout.assign(cell, new)
        self._activate(new)
        self.compare(" ".join(cmd[:-3]) + f" -> %{new.id}", rest)
        return new

    def kill(self, p: Pane) -> None:
        def op() -> None:
            self._lose(p)
            self.layout.close_pane(p)
            del self.panes[p.id]
        self.step(f"kill-pane %{p.id}", ["kill-pane", "-t", f"%{p.id}"], op)

    def resize_pane(self, p: Pane, direction: str, amount: int) -> None:
        self.step(f"resize-pane -{direction} {amount} %{p.id}",
                  ["resize-pane", "-t", f"%{p.id}", f"-{direction}", str(amount)],
                  lambda: self.layout.resize_pane_by(p, direction, amount))

    def resize_pane_to(self, p: Pane, x: int | None, y: int | None) -> None:
        cmd = ["resize-pane", "-t", f"%{p.id}"]
        if x is not None:
            cmd += ["-x", str(x)]
        if y is not None:
            cmd += ["-y", str(y)]

        def op() -> None:
            self.layout.unzoom()  # resize-pane always unzooms
            if x is not None:
                self.layout.resize_pane_width(p, x)
            if y is not None:
                self.layout.resize_pane_height(p, y)
        self.step(" ".join(cmd), cmd, op)

    def resize_window(self, x: int, y: int) -> None:
        def op() -> None:
            self.manual = (x, y)
            self.layout.resize_window(x, y)
        self.step(f"resize-window -x {x} -y {y}",
                  ["resize-window", "-t", self.wid, "-x", str(x), "-y", str(y)], op)

    def set_option(self, name: str, value: str) -> None:
        self.t.ok("set", "-w", "-t", self.wid, name, value)
        self.options[name] = value
        self._recalc()
        if name == "pane-border-status":
            self.layout.set_border_status(value)
            self.check(f"set {name} {value}")

    def _preset_options(self) -> dict[str, str | int]:
        o = self.options
        return {
            "main_pane_width": o.get("main-pane-width", "80"),
            "main_pane_height": o.get("main-pane-height", "24"),
            "other_pane_width": o.get("other-pane-width", "0"),
            "other_pane_height": o.get("other-pane-height", "0"),
            "tiled_layout_max_columns": int(o.get("tiled-layout-max-columns", "0")),
        }

    def select_layout(self, name: str) -> None:
        if lookup_preset(name) == -1:
            probe = copy.deepcopy(self.layout)
            try:
                probe.parse(name)
            except LayoutError:
                pass
            if probe.tmux_would_crash:
                # tmux 3.7b dereferences a null cell on this string; hmux refuses it
                with pytest.raises(LayoutError, match="^invalid layout: "):
                    self.layout.parse(name)
                self.check(f"select-layout {name} (refused: tmux would crash)")
                return

        def op() -> None:
            idx = lookup_preset(name)
            if idx != -1:
                self.layout.select_preset(idx, **self._preset_options())
            else:
                self.layout.parse(name)
            self._recalc()
        self.step(f"select-layout {name}", ["select-layout", "-t", self.wid, name], op)

    def cycle_layout(self, forward: bool) -> None:
        def op() -> None:
            if forward:
                self.layout.next_preset(**self._preset_options())
            else:
                self.layout.previous_preset(**self._preset_options())
            self._recalc()
        flag = "-n" if forward else "-p"
        self.step(f"select-layout {flag}", ["select-layout", "-t", self.wid, flag], op)

    def spread(self, p: Pane) -> bool:
        probe = copy.deepcopy(self.layout)
        probe.spread_out(p)
        if probe.tmux_would_hang:
            return False  # tmux (3.3a to 3.7b) would spin forever: do not send it

        def op() -> None:
            self.layout.spread_out(p)
            self._recalc()
        self.step(f"select-layout -E %{p.id}", ["select-layout", "-E", "-t", f"%{p.id}"], op)
        return True

    def zoom_toggle(self, p: Pane) -> None:
        def op() -> None:
            if self.layout.zoomed:
                self.layout.unzoom()
            elif len(self.layout.panes) > 1:
                self._activate(p)
                self.layout.zoom(p)
        self.step(f"resize-pane -Z %{p.id}", ["resize-pane", "-Z", "-t", f"%{p.id}"], op)

    def select_pane(self, p: Pane, direction: str | None) -> None:
        def op() -> None:
            wp: Pane | None = p
            if direction is not None:
                wp = self.layout.find_pane(p, direction, self._point)
            if wp is None or wp is self.active:
                return
            self.layout.unzoom()
            self._activate(wp)
        cmd = ["select-pane", "-t", f"%{p.id}"] + ([f"-{direction}"] if direction else [])
        self.step(" ".join(cmd), cmd, op)

    def _lose(self, p: Pane) -> None:
        """window_lost_pane: the active/last bookkeeping when p leaves (still in the list)."""
        panes = self.layout.panes
        if p in self.lasts:
            self.lasts.remove(p)
        if p is self.active:
            if self.lasts:
                self.active = self.lasts.pop(0)
            else:
                i = panes.index(p)
                self.active = panes[i - 1] if i > 0 else panes[i + 1]
                if self.active in self.lasts:
                    self.lasts.remove(self.active)

    def swap(self, src: Pane, dst: Pane) -> None:
        def op() -> None:
            swap_panes(self.layout, src, self.layout, dst)
            self._activate(dst)
        self.step(f"swap-pane -s %{src.id} -t %{dst.id}",
                  ["swap-pane", "-s", f"%{src.id}", "-t", f"%{dst.id}"], op)

    def join(self, src: Pane, dst: Pane, horizontal: bool = False, before: bool = False,
             full: bool = False, size: int | None = None) -> None:
        cmd = ["join-pane", "-s", f"%{src.id}", "-t", f"%{dst.id}"]
        cmd += ["-h"] if horizontal else []
        cmd += ["-b"] if before else []
        cmd += ["-f"] if full else []
        cmd += ["-l", str(size)] if size is not None else []

        def op() -> None:
            self.layout.unzoom()
            cell = self.layout.split(dst, horizontal, size, None, before, full)
            self._lose(src)
            self.layout.close_pane(src, remove=False)
            self.layout.remove_pane(src)
            # tmux 3.7b's join-pane never passes -b/-f on to the pane list: after dst always
            self.layout.add_pane(src, dst)
            self.layout.assign(cell, src)
            self._activate(src)
        self.step(" ".join(cmd), cmd, op)

    def all_directions(self) -> None:
        """From every pane, every direction: the pane select-pane picks."""
        for p in list(self.layout.panes):
            for d in "LRUD":
                self.select_pane(p, d)


# ---------------------------------------------------------------------------------------------
# Scripted sequences


def grow(s: Seq, n: int) -> None:
    """Split the biggest pane until there are n panes."""
    while len(s.layout.panes) < n:
        p = max(s.layout.panes, key=lambda q: s.layout.geometry(q).sx * s.layout.geometry(q).sy)
        g = s.layout.geometry(p)
        assert s.split(p, horizontal=g.sx > 2 * g.sy) is not None


def test_basic_splits(tmux: Tmux) -> None:
    s = Seq(tmux, 200, 50)
    p0 = s.layout.panes[0]
    p1 = s.split(p0)
    p2 = s.split(p1, horizontal=True)
    s.split(p2, horizontal=True, before=True)
    s.split(p0, size=5)
    assert p1 is not None and len(s.layout.panes) == 5


@pytest.mark.parametrize("sx,sy", [(80, 24), (81, 25), (200, 50), (7, 5), (3, 3)])
def test_halving_odd_even(tmux: Tmux, sx: int, sy: int) -> None:
    s = Seq(tmux, sx, sy)
    p = s.layout.panes[0]
    for i in range(6):
        q = s.split(p, horizontal=bool(i % 2))
        if q is None:
            break
        p = q


@pytest.mark.parametrize("size", [0, 1, 5, 24, 47, 48, 49, 50, 1000])
@pytest.mark.parametrize("before", [False, True])
def test_split_sizes(tmux: Tmux, size: int, before: bool) -> None:
    s = Seq(tmux, 120, 50)
    p0 = s.layout.panes[0]
    s.split(p0, size=size, before=before)
    s.split(p0, horizontal=True, size=size, before=before)


@pytest.mark.parametrize("pct", [0, 1, 10, 33, 50, 75, 99, 100, 250])
def test_split_percentages(tmux: Tmux, pct: int) -> None:
    s = Seq(tmux, 133, 41)
    p0 = s.layout.panes[0]
    p1 = s.split(p0, percent=pct)
    s.split(p0, horizontal=True, percent=pct, p_flag=True)
    if p1 is not None:
        s.split(p1, horizontal=True, percent=pct, full=True)
        s.split(p1, percent=pct, full=True, before=True)


def test_split_errors(tmux: Tmux) -> None:
    s = Seq(tmux, 20, 6)
    p = s.layout.panes[0]
    for _ in range(5):
        q = s.split(p)
        if q is None:
            break
        p = q
    assert s.split(p) is None  # no space for new pane
    s.split(p, horizontal=True)
    q = s.layout.panes[-1]
    for _ in range(6):
        r = s.split(q, horizontal=True)
        if r is None:
            break
        q = r
    assert s.split(q, horizontal=True) is None


def test_full_size_splits(tmux: Tmux) -> None:
    s = Seq(tmux, 160, 48)
    p0 = s.layout.panes[0]
    p1 = s.split(p0, horizontal=True)
    assert p1 is not None
    s.split(p1)
    s.split(p0, full=True)
    s.split(p0, full=True, before=True)
    s.split(p1, horizontal=True, full=True)
    s.split(p1, horizontal=True, full=True, before=True, size=10)
    s.split(p0, full=True, percent=30)


def test_full_size_same_type_root(tmux: Tmux) -> None:
    s = Seq(tmux, 100, 40)
    p0 = s.layout.panes[0]
    p1 = s.split(p0)
    p2 = s.split(p1)
    assert p2 is not None
    s.split(p2, horizontal=True)
    for _ in range(3):
        s.split(p0, full=True, size=3)
    s.split(p1, full=True, before=True, size=7)


def test_full_size_no_space(tmux: Tmux) -> None:
    s = Seq(tmux, 30, 10)
    p = s.layout.panes[0]
    for _ in range(4):
        s.split(p)
    s.split(p, full=True, size=9)
    s.split(p, full=True, size=0)
    s.split(p, full=True, before=True, size=0)


def test_kill_panes(tmux: Tmux) -> None:
    s = Seq(tmux, 200, 50)
    p0 = s.layout.panes[0]
    p1 = s.split(p0, horizontal=True)
    p2 = s.split(p1)
    p3 = s.split(p2, horizontal=True)
    p4 = s.split(p0)
    assert p1 and p2 and p3 and p4
    s.kill(p2)
    s.kill(p0)
    s.kill(p4)
    s.kill(p3)


def test_kill_first_and_middle(tmux: Tmux) -> None:
    s = Seq(tmux, 100, 60)
    p0 = s.layout.panes[0]
    ps = [p0]
    for _ in range(5):
        q = s.split(p0, size=8)
        assert q is not None
        ps.append(q)
    s.kill(ps[2])
    s.kill(ps[0])
    s.kill(ps[5])
    s.kill(ps[3])


@pytest.mark.parametrize("status", ["off", "top", "bottom"])
def test_resize_window(tmux: Tmux, status: str) -> None:
    s = Seq(tmux, 120, 40, status=status)
    p0 = s.layout.panes[0]
    p1 = s.split(p0, horizontal=True)
    assert p1 is not None
    p2 = s.split(p1)
    s.split(p0)
    s.split(p2, horizontal=True)
    for x, y in [(100, 30), (150, 60), (13, 7), (2, 2), (80, 24), (81, 25), (300, 100),
                 (79, 23), (120, 40)]:
        s.resize_window(x, y)


@pytest.mark.parametrize("status", ["off", "top"])
def test_resize_pane_directions(tmux: Tmux, status: str) -> None:
    s = Seq(tmux, 150, 45, status=status)
    p0 = s.layout.panes[0]
    p1 = s.split(p0, horizontal=True)
    assert p1 is not None
    p2 = s.split(p1)
    p3 = s.split(p0)
    assert p2 and p3
    for p in (p0, p1, p2, p3):
        for d in "LRUD":
            for n in (1, 7, 200):
                s.resize_pane(p, d, n)


def test_resize_pane_to(tmux: Tmux) -> None:
    s = Seq(tmux, 150, 45)
    p0 = s.layout.panes[0]
    p1 = s.split(p0, horizontal=True)
    assert p1 is not None
    p2 = s.split(p1)
    assert p2 is not None
    s.split(p2, horizontal=True)
    for p in list(s.layout.panes):
        for x, y in [(10, None), (None, 5), (70, 30), (1, 1), (500, 500), (0, 0)]:
            s.resize_pane_to(p, x, y)


@pytest.mark.parametrize("status", ["off", "top", "bottom"])
def test_resize_pane_to_status(tmux: Tmux, status: str) -> None:
    s = Seq(tmux, 90, 40, status=status)
    p0 = s.layout.panes[0]
    p1 = s.split(p0)
    assert p1 is not None
    s.split(p1)
    for p in list(s.layout.panes):
        for y in (3, 10, 20):
            s.resize_pane_to(p, None, y)


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13])
def test_presets(tmux: Tmux, n: int) -> None:
    s = Seq(tmux, 173, 53)
    grow(s, n)
    for name in ("even-horizontal", "even-vertical", "main-horizontal", "main-vertical",
                 "main-horizontal-mirrored", "main-vertical-mirrored", "tiled", "even-h", "ti",
                 "main-h", "main-vertical-m"):
        s.select_layout(name)
    for _ in range(8):
        s.cycle_layout(True)
    for _ in range(8):
        s.cycle_layout(False)


@pytest.mark.parametrize("columns", ["1", "2", "3", "5"])
def test_tiled_max_columns(tmux: Tmux, columns: str) -> None:
    s = Seq(tmux, 151, 47)
    grow(s, 7)
    s.set_option("tiled-layout-max-columns", columns)
    s.select_layout("tiled")
    s.split(s.layout.panes[2], horizontal=True)
    s.select_layout("tiled")


def test_presets_grow_window(tmux: Tmux) -> None:
    s = Seq(tmux, 200, 50)
    grow(s, 16)
    s.resize_window(12, 8)
    for name in ("even-horizontal", "even-vertical", "tiled", "main-vertical",
                 "main-horizontal"):
        s.select_layout(name)


def test_presets_grow_window_latest(tmux: Tmux) -> None:
    """Without window-size manual the window keeps the size the preset needed."""
    s = Seq(tmux, 20, 10)
    grow(s, 8)
    s.select_layout("even-horizontal")
    s.select_layout("even-vertical")
    s.select_layout("tiled")


@pytest.mark.parametrize("opts", [
    {"main-pane-width": "50%", "main-pane-height": "30%"},
    {"main-pane-width": "30", "other-pane-width": "50"},
    {"main-pane-height": "10", "other-pane-height": "15"},
    {"main-pane-height": "100", "main-pane-width": "500"},
    {"other-pane-height": "90%", "other-pane-width": "80%"},
    {"main-pane-height": "45", "main-pane-width": "119"},
])
def test_main_options(tmux: Tmux, opts: dict[str, str]) -> None:
    s = Seq(tmux, 120, 46)
    for k, v in opts.items():
        s.set_option(k, v)
    p = s.layout.panes[0]
    for _ in range(3):
        q = s.split(p)
        assert q is not None
        p = q
    s.select_layout("main-horizontal")
    s.select_layout("main-vertical")
    s.select_layout("main-horizontal-mirrored")
    s.select_layout("main-vertical-mirrored")


@pytest.mark.parametrize("status", ["top", "bottom"])
def test_presets_with_status(tmux: Tmux, status: str) -> None:
    s = Seq(tmux, 100, 37, status=status)
    p = s.layout.panes[0]
    for i in range(4):
        q = s.split(p, horizontal=bool(i % 2))
        assert q is not None
        p = q
    for name in ("even-vertical", "even-horizontal", "main-horizontal", "main-vertical",
                 "main-horizontal-mirrored", "main-vertical-mirrored", "tiled"):
        s.select_layout(name)
        s.spread(s.layout.panes[-1])


def test_layout_strings(tmux: Tmux) -> None:
    s = Seq(tmux, 120, 40)
    p0 = s.layout.panes[0]
    p1 = s.split(p0, horizontal=True)
    assert p1 is not None
    s.split(p1)
    s.split(p0)
    four = s.layout.dump()
    s.select_layout("tiled")
    s.select_layout(four)
    s.select_layout("even-vertical")
    s.select_layout(four)
    # Wrong checksum / garbage / too few cells
    body = four.split(",", 1)[1]
    s.select_layout("0000," + body)
    s.select_layout(four[:-1])
    s.select_layout("b25d,120x40,0,0,1")
    # a different size: the window takes it (window-size latest, no clients)
    s.select_layout("5e7e,150x50,0,0{75x50,0,0,1,74x50,76,0[74x25,76,0,2,74x24,76,26,3]}")


def test_layout_string_more_cells(tmux: Tmux) -> None:
    s = Seq(tmux, 120, 40)
    p0 = s.layout.panes[0]
    big_model = Layout(120, 40, Pane(900))
    q = big_model.panes[0]
    for i in range(6):
        n = Pane(901 + i)
        big_model.split(q, horizontal=bool(i % 2), new_pane=n)
        q = n
    big = big_model.dump()
    p1 = s.split(p0)
    assert p1 is not None
    s.select_layout(big)   # surplus cells dropped from the bottom right
    s.split(p1, horizontal=True)
    s.select_layout(big)


def test_layout_string_without_ids_and_fixups(tmux: Tmux) -> None:
    from hmux_core.layout import checksum

    s = Seq(tmux, 120, 40)
    p0 = s.layout.panes[0]
    s.split(p0, horizontal=True)
    for body in ["120x40,0,0{60x40,0,0,59x40,61,0}",
                 "130x40,0,0{60x40,0,0,59x40,61,0}",      # wrong top size: fixed
                 "120x40,0,0{60x40,0,0,50x40,61,0}",      # size mismatch
                 "120x40,0,0{60x40,0,0,59x40,61,0",       # unterminated
                 "120x40,0,0{60x40,0,0,59x40,61,0}x",     # trailing garbage
                 "120x40,0,0[60x40,0,0,59x40,61,0]",
                 "120x40,0,0<60x40,0,0,59x40,61,0>",
                 "120x40,0,0[120x20,0,0,7,120x19,0,21,9]"]:
        s.select_layout(f"{checksum(body):04x},{body}")


def test_layout_strings_37(tmux: Tmux) -> None:
    """tmux 3.7b's parser: exactly four checksum digits and a comma, nothing is an empty
    window, a single cell leaves the window size alone, a floating part is not accepted, and
    strings that make it dereference a null cell are refused without being sent."""
    from hmux_core.layout import checksum

    def lay(body: str) -> str:
        return f"{checksum(body):04x},{body}"

    s = Seq(tmux, 120, 40)
    s.select_layout(lay("100x30,0,0,1"))             # one cell: the window keeps 120x40
    s.select_layout(lay(""))                         # nothing: have 1 panes but need 0
    s.select_layout(lay("150x50,0,0,1"))
    p0 = s.layout.panes[0]
    s.split(p0, horizontal=True)
    body = "120x40,0,0{60x40,0,0,1,59x40,61,0,2}"
    s.select_layout(lay(body))
    s.select_layout(f"{checksum(body) & 0xfff:x},{body}")  # three digits
    s.select_layout(" " + lay(body))                      # six characters before the body
    s.select_layout(lay(body + "<30x10,4,2,7>"))          # a floating part
    s.select_layout(lay(body + ">"))
    s.select_layout(lay("120x40,0,0{60x40,0,0,1,59x40,61,0,2>"))
    s.select_layout(lay("120x40,0,0[120x20,0,0,1,120x19,0,21,2]"))
    for crash in ("{", "[120x40,0,0]", "120x40,0,0{,}", "120x40,0,0{60x40,0,0,1,}",
                  "120x40,0,0[{60x40,0,0,1}]", "120x40,0,0{}"):
        s.select_layout(lay(crash))
    s.select_layout(lay("120x40,0,0{60x40,0,0,1,x}"))     # a plain parse error
    s.split(p0)
    s.select_layout(lay("120x40,0,0[120x20,0,0,1,120x19,0,21,2]"))


def test_tiled_around_floating_panes(tmux: Tmux) -> None:
    """Floating cells are children of the root that the tiled arithmetic skips, and layout
    strings list them again after the tree."""
    s = Seq(tmux, 160, 48)
    p0 = s.layout.panes[0]
    f1 = s.floating(p0, 60, 10, 5, 3)
    p1 = s.split(p0)
    p2 = s.split(p1, horizontal=True)
    s.floating(p2, 30, 8, 100, 20)
    assert p1 is not None and p2 is not None
    s.split(p0, size=7, before=True)
    s.resize_pane(p1, "U", 4)
    s.resize_pane(p2, "L", 9)
    s.resize_window(120, 40)
    s.resize_window(170, 52)
    s.spread(p1)
    s.kill(p0)
    s.kill(f1)
    s.split(p1, full=True)
    s.kill(p1)
    s.floating(p2, 20, 5, 1, 1)
    # tmux 3.7b sizes the presets for the tiled panes, then places every pane: the floating
    # ones become tiled, or (tiled) are left without a cell
    s.select_layout("main-vertical")
    s.zoom_toggle(p2)
    s.zoom_toggle(p2)
    s.floating(p2, 20, 5, 1, 1)
    s.select_layout("even-vertical")
    s.floating(p2, 20, 5, 1, 1)
    s.select_layout("tiled")
    s.resize_window(100, 30)


def test_zoom(tmux: Tmux) -> None:
    s = Seq(tmux, 100, 30)
    p0 = s.layout.panes[0]
    p1 = s.split(p0, horizontal=True)
    assert p1 is not None
    p2 = s.split(p1)
    assert p2 is not None
    s.zoom_toggle(p1)
    s.resize_window(90, 33)
    s.select_pane(p1, "L")
    s.zoom_toggle(p0)
    s.zoom_toggle(p2)
    s.split(p2)
    s.zoom_toggle(p0)
    s.resize_pane(p0, "R", 5)
    s.zoom_toggle(p2)
    s.kill(p0)
    s.zoom_toggle(p1)
    s.select_layout("tiled")


@pytest.mark.parametrize("status", ["off", "top", "bottom"])
def test_pane_directions(tmux: Tmux, status: str) -> None:
    s = Seq(tmux, 120, 40, status=status)
    p0 = s.layout.panes[0]
    p1 = s.split(p0, horizontal=True)
    assert p1 is not None
    p2 = s.split(p1)
    p3 = s.split(p0)
    assert p2 and p3
    s.split(p3, horizontal=True)
    s.split(p2, horizontal=True)
    s.all_directions()
    s.select_layout("tiled")
    s.all_directions()


def test_spread_out(tmux: Tmux) -> None:
    s = Seq(tmux, 121, 41)
    p0 = s.layout.panes[0]
    p1 = s.split(p0, horizontal=True, size=10)
    assert p1 is not None
    p2 = s.split(p1, size=3)
    assert p2 is not None
    s.split(p2, size=2)
    s.spread(p0)
    s.spread(p2)
    s.resize_pane(p1, "R", 20)
    s.spread(p1)


# ---------------------------------------------------------------------------------------------
# Random sequences


def random_sequence(tmux: Tmux, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    side = random.Random(-seed - 1)
    status = rng.choice(["off", "off", "off", "top", "bottom"])
    s = Seq(tmux, rng.randint(10, 220), rng.randint(5, 70), status=status)
    if rng.random() < 0.3:
        s.set_option("main-pane-width", rng.choice(["30", "50%", "200", "1"]))
        s.set_option("other-pane-height", rng.choice(["0", "5", "40%"]))
    for _ in range(steps):
        panes = list(s.layout.panes)
        target = rng.choice(panes)
        r = rng.random()
        if r < 0.35:
            size = percent = None
            k = rng.random()
            if k < 0.25:
                size = rng.randint(0, 60)
            elif k < 0.5:
                percent = rng.randint(0, 110)
            s.split(target, horizontal=rng.random() < 0.5, size=size, percent=percent,
                    before=rng.random() < 0.3, full=rng.random() < 0.15,
                    p_flag=rng.random() < 0.5)
        elif r < 0.5:
            if len(panes) > 1:
                s.kill(target)
        elif r < 0.62:
            s.resize_pane(target, rng.choice("LRUD"), rng.choice([1, 2, 5, 13, 40]))
        elif r < 0.67:
            s.resize_pane_to(target, rng.choice([None, rng.randint(1, 120)]),
                             rng.choice([None, rng.randint(1, 60)]))
        elif r < 0.74:
            s.resize_window(rng.randint(5, 230), rng.randint(3, 80))
        elif r < 0.80:
            name = rng.choice(["even-horizontal", "even-vertical",
                               "main-horizontal", "main-vertical", "tiled"])
            if name.startswith("main") and side.random() < 0.5:
                name += "-mirrored"  # from its own generator: the seeds keep their sequences
            s.select_layout(name)
        elif r < 0.83:
            s.cycle_layout(rng.random() < 0.5)
        elif r < 0.87:
            if s.seen_layouts:
                s.select_layout(rng.choice(s.seen_layouts))
        elif r < 0.90:
            s.zoom_toggle(target)
        elif r < 0.92:
            s.spread(target)
        else:
            s.select_pane(target, rng.choice("LRUD"))
    s.all_directions()


@pytest.mark.parametrize("seed", range(40))
def test_random_sequences(tmux: Tmux, seed: int) -> None:
    random_sequence(tmux, seed, 30)


def test_even_vertical_no_room_for_status(tmux: Tmux) -> None:
    s = Seq(tmux, 140, 60, status="top")
    grow(s, 11)
    s.resize_window(140, 18)
    s.select_layout("even-vertical")
    before = s.layout.dump()
    assert s.split(s.layout.panes[3], horizontal=True, size=3, before=True, full=True) is None
    assert s.layout.tmux_would_crash and s.layout.dump() == before


def test_swap_and_join_in_one_window(tmux: Tmux) -> None:
    s = Seq(tmux, 130, 44)
    grow(s, 5)
    a, b, c, d, e = s.layout.panes
    s.swap(a, d)
    s.swap(e, b)
    s.swap(b, c)
    s.join(a, c, horizontal=True)
    s.join(e, a, before=True, size=4)
    s.join(b, d, horizontal=True, full=True)
    s.join(d, b, full=True, before=True, size=8)
    s.zoom_toggle(c)
    s.swap(c, a)
    s.all_directions()


def test_join_pane_too_small(tmux: Tmux) -> None:
    s = Seq(tmux, 40, 6)
    p0 = s.layout.panes[0]
    p1 = s.split(p0)
    assert p1 is not None
    s.split(p1, horizontal=True)
    s.join(p0, p1)  # p1 is 2 rows: no room


@pytest.mark.parametrize("seed,steps", [(1223, 60), (1259, 60), (5205, 120)])
def test_random_regressions(tmux: Tmux, seed: int, steps: int) -> None:
    """Seeds that once found a difference (full splits that crash tmux)."""
    random_sequence(tmux, seed, steps)
