"""Layout and pane-management behaviour that the differential suite cannot compare: inputs that
crash tmux, and the model rules (active pane after a loss, rotation, manual window size)
checked directly."""

from __future__ import annotations

import pytest

from hmux_core.layout import Layout
from hmux_core.model import Environ, Model, apply_layout, recalculate_size
from hmux_core.options import Options, new_global_options


class FakePane:
    """Just what the model and layout read from a pane."""

    def __init__(self, pid: int) -> None:
        self.id = pid
        self.active_point = 0
        self.changed = False
        self.xoff = self.yoff = 0
        self.sx = self.sy = 0

    def resize(self, sx: int, sy: int) -> None:
        self.sx, self.sy = sx, sy

    def destroy(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"%{self.id}"


def _model() -> Model:
    server, session, window = new_global_options()
    return Model(server, session, window, Environ())


def _window(model: Model, n: int, sx: int = 200, sy: int = 50):
    w = model.create_window("w", sx, sy, Options(parent=model.window_options, scope="window"))
    panes = [FakePane(i) for i in range(n)]
    w.layout = Layout(sx, sy, panes[0])
    for p in panes[1:]:
        w.layout.split(w.layout.panes[-1], horizontal=True, new_pane=p)
    apply_layout(w)
    return w, panes


@pytest.mark.parametrize("name", ["main", "xyz", "", "tiledx", "main-h",
                                  # tmux 3.7b dereferences a null layout cell on these
                                  "007b,{", "960d,120x40,0,0{,}", "2b72,120x40,0,0{}",
                                  "595d,120x40,0,0{60x40,0,0,1,}", "612c,[120x40,0,0]"])
def test_layout_names_that_crash_tmux_are_refused(hmux, name):
    """tmux 3.3a freed an uninitialised pointer for a name that is neither a preset nor starts
    with a hex digit, and tmux 3.7b crashes on layout strings with a cell missing before a
    separator or a bracket; hmux reports the layout as invalid and keeps running."""
    hmux.ok("new-session", "-d", "-x", "200", "-y", "50", "cat", "-", ";", "split-window", "cat", "-")
    before = hmux.ok("display", "-p", "#{window_layout}")
    r = hmux.cmd("select-layout", name)
    assert (r.rc, r.err) == (1, f"invalid layout: {name}\n")
    assert hmux.ok("display", "-p", "#{window_layout}") == before


def test_lost_active_pane_goes_to_last_then_previous_then_next():
    model = _model()
    w, (a, b, c) = _window(model, 3)
    w.set_active(a)
    w.set_active(c)  # last is a
    model.lost_pane(w, c)
    assert w.active is a and w.last is None
    w.set_active(b)  # last is a
    w.last_panes = []
    model.lost_pane(w, b)  # no last: the pane before b
    assert w.active is a
    w.active = a
    model.lost_pane(w, a)  # first pane, no last: the one after
    assert w.active is b


def test_losing_the_last_pane_forgets_it():
    model = _model()
    w, (a, b, c) = _window(model, 3)
    w.set_active(a)
    w.set_active(b)
    model.lost_pane(w, a)
    assert w.active is b and w.last is None


def test_last_panes_are_a_stack():
    """tmux 3.7b keeps every previously active pane, most recent first (w->last_panes)."""
    model = _model()
    w, (a, b, c) = _window(model, 3)
    w.set_active(a)
    w.set_active(b)
    w.set_active(c)
    assert w.last_panes == [b, a]
    w.set_active(a)  # a leaves the stack as it becomes active; c goes on top
    assert w.last_panes == [c, b]
    model.lost_pane(w, a)  # the top of the stack takes over and leaves it
    assert w.active is c and w.last_panes == [b]
    model.lost_pane(w, b)
    assert w.active is c and w.last_panes == []


def test_rotate_up_and_down_move_cells_not_panes():
    model = _model()
    w, (a, b, c) = _window(model, 3)
    lay = w.layout
    places = [lay.geometry(p) for p in (a, b, c)]
    lay.rotate(down=False)
    assert lay.panes == [b, c, a]
    assert [lay.geometry(p) for p in (b, c, a)] == places
    lay.rotate(down=True)
    assert lay.panes == [a, b, c]
    assert [lay.geometry(p) for p in (a, b, c)] == places
    assert [leaf.pane for leaf in lay.leaves()] == [a, b, c]


def test_manual_window_size_is_applied_by_recalculate():
    model = _model()
    w, _ = _window(model, 2)
    w.active = w.panes[0]
    w.manual_sx, w.manual_sy = 120, 30
    recalculate_size(w)
    assert (w.sx, w.sy) == (200, 50)  # window-size latest: no client, no change
    w.options.set("window-size", "manual")
    recalculate_size(w)
    assert (w.sx, w.sy) == (120, 30)
    assert sum(p.sx for p in w.panes) + 1 == 120
