"""Property tests of layouts as text: applying a window's own layout (tmux's string or the JSON
of hmux_core.layout_json) leaves every pane where it was, floating panes included, and a bad
or hostile layout is refused with LayoutError and changes nothing.

The properties of the parsers fed arbitrary text are in tests/test_fuzz_parsers.py (with the
other parsers' fuzz targets: ``fuzz/run.py --only layout``); the windows and texts they are
fed come from here.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hmux_core.layout import LEGACY_MAX_DEPTH, Layout, LayoutError, checksum
from hmux_core.layout_json import MAX_DEPTH, JsonError, decode, dumps, encode, loads

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


class P:
    def __init__(self, pid: int) -> None:
        self.id = pid

    def __repr__(self) -> str:
        return f"%{self.id}"


# One operation on a window: (kind, a, b, c) with small numbers the operation reads as it likes.
OPS = st.lists(st.tuples(st.sampled_from(["split", "float", "resize", "move", "kill", "zoom",
                                          "raise", "preset"]),
                         st.integers(0, 50), st.integers(-5, 60), st.integers(-5, 60)),
               max_size=14)


def build(sx: int, sy: int, ops: list[tuple[str, int, int, int]]) -> Layout:
    """A window made by the operations (each one that the layout refuses is skipped)."""
    lay = Layout(sx, sy, P(0))
    nxt = 1
    for kind, a, b, c in ops:
        panes = lay.panes
        p = panes[a % len(panes)]
        try:
            if kind == "split" and not lay.is_floating(p, full=True):
                lay.split(p, horizontal=b % 2 == 0, before=c % 3 == 0, new_pane=P(nxt))
                nxt += 1
            elif kind == "float":
                new = P(nxt)
                nxt += 1
                cell = lay.floating_cell(max(b, 1), max(c, 1), b - 2, c - 3)
                lay.add_pane(new, p, floating=True)
                cell.flags |= 1
                lay.assign(cell, new)
            elif kind == "resize" and not lay.is_floating(p, full=True):
                lay.resize_pane_by(p, "LRUD"[a % 4], max(b, 1))
            elif kind == "move" and lay.is_floating(p):
                lay.move_floating(p, b, c)
            elif kind == "kill" and len(panes) > 1:
                lay.close_pane(p)
            elif kind == "zoom":
                if lay.zoomed:
                    lay.unzoom()
                else:
                    lay.zoom(p)
            elif kind == "raise":
                lay.raise_pane(p)
            elif kind == "preset" and len(lay.tiled_panes()) > 1:
                lay.select_preset(a % 7)
        except LayoutError:
            pass
    lay.unzoom()
    return lay


def state(lay: Layout, exact: bool = False) -> tuple:
    """Everything a layout decides about its panes: their places, which float and how
    those are stacked (applying a layout puts the tiled panes in the z-order by their cells,
    as tmux's layout_fix_zindexes does; exact compares their order too)."""
    z = [p.id for p in lay.z_index] if exact else [p.id for p in lay.floating_panes()]
    return (lay.sx, lay.sy, lay.dump(),
            [(p.id, tuple(lay.geometry(p)), lay.is_floating(p)) for p in lay.panes], z)


def _fits(lc) -> bool:
    """Do the tiled cells of each container add up to it (layout_check without floating
    cells)?"""
    if lc.type == 2:
        return True
    kids = [c for c in lc.children if not c.floating]
    if lc.type == 0:
        ok = all(c.sy == lc.sy for c in kids) and sum(c.sx + 1 for c in kids) - 1 == lc.sx
    else:
        ok = all(c.sx == lc.sx for c in kids) and sum(c.sy + 1 for c in kids) - 1 == lc.sy
    return ok and all(_fits(c) for c in kids)


def scramble(lay: Layout) -> None:
    """Change the layout in every way a round trip must undo."""
    if len(lay.tiled_panes()) > 1:
        lay.select_preset("tiled")
    for p in lay.floating_panes():
        lay.move_floating(p, 0, 0)
    lay.z_index.reverse()


@SETTINGS
@given(st.integers(10, 120), st.integers(5, 60), OPS)
def test_layout_string_round_trip(sx: int, sy: int, ops: list) -> None:
    lay = build(sx, sy, ops)
    if not lay.sane():
        return  # tmux's unsigned arithmetic wrapped (a window narrower than its panes)
    if any(lay.cell_of(p) is None for p in lay.panes):
        return  # a 3.7b preset left a floating pane without a cell
    tiled = lay.tiled_panes()
    if not tiled:
        return  # only floating panes: a layout string has no tree to give them
    leaves = [c.pane for c in lay.root.leaves() if c.pane is not None and not c.floating]
    if [p.id for p in leaves] != [p.id for p in tiled]:
        # tmux hands a string's tiled cells to the panes in pane order, whatever pane ids it
        # names (as 3.7b does; the JSON form names them): after a mirrored preset or a
        # rotation the string puts panes elsewhere
        return
    if not _fits(lay.root):
        return  # 3.7b's resizing took space for a floating cell: the tree no longer adds up
    before = state(lay)
    text = lay.dump()
    if len(lay.floating_panes()) != len(lay._floating_cells()):
        return  # a preset tiled the floating panes: the z-order no longer lists them first
    floating = lay.floating_panes()
    if len({tuple(lay.geometry(p)) for p in floating}) < len(floating):
        return  # two floating panes on the same cells: the string cannot tell them apart
    scramble(lay)
    # scrambling tiled the floating panes: float them again where they were not
    for p in floating:
        if not lay.is_floating(p):
            return
    lay.parse(text)
    assert state(lay) == before


@SETTINGS
@given(st.integers(10, 120), st.integers(5, 60), OPS)
def test_json_round_trip(sx: int, sy: int, ops: list) -> None:
    lay = build(sx, sy, ops)
    if not lay.sane():
        return
    if any(lay.cell_of(p) is None for p in lay.panes):
        return  # a 3.7b preset left a floating pane without a cell: JSON has no place for it
    if not _fits(lay.root):
        return  # 3.7b's resizing took space for a floating cell: the tree no longer adds up
    index = {p.id: i for i, p in enumerate(lay.panes)}

    def index_of(p: P) -> int:
        return index[p.id]

    text = encode(lay, index_of, lay.panes[0], lay.panes[-1])
    assert dumps(loads(text)) == text  # canonical
    before = state(lay)
    if len(lay.tiled_panes()) > 1:
        lay.select_preset("even-horizontal")
    lay.z_index.reverse()
    active, last = decode(lay, text, index_of)
    assert active is lay.panes[0] and last is lay.panes[-1]
    after = state(lay)
    # the window's size and every pane's place and stacking come back; the string may
    # differ where the tree had a container around a lone tiled cell
    assert after[0:2] == before[0:2] and after[3:] == before[3:]


# -- hostile text ---------------------------------------------------------------------------------

CELL = st.builds(lambda w, h, x, y: f"{w}x{h},{x},{y}", st.integers(0, 300), st.integers(0, 300),
                 st.integers(0, 300), st.integers(0, 300))
PIECES = ["{", "}", "[", "]", ",", "<", ">", "x", "0", "1", "99999999999", "4294967295",
          "-1", " ", "80x24,0,0", "40x24,0,0,1", "39x24,41,0,2", "\x00", "é"]
LEGACY_BODY = st.one_of(
    st.lists(st.one_of(CELL, st.sampled_from(PIECES)), max_size=30).map("".join),
    st.text(max_size=60),
)


def with_checksum(body: str) -> str:
    """A layout string: the body with its checksum."""
    return f"{checksum(body):04x},{body}"


def test_deep_nesting_refused() -> None:
    """Nesting beyond the limits is refused with the usual message, without exhausting the
    stack: legacy strings LEGACY_MAX_DEPTH containers, JSON MAX_DEPTH objects."""
    lay = Layout(80, 24, P(0))
    before = state(lay)
    n = LEGACY_MAX_DEPTH + 1
    body = "80x24,0,0{" * n + "80x24,0,0" + "}" * n
    try:
        lay.parse(with_checksum(body))
    except LayoutError as e:
        assert e.cause == "invalid layout"
    else:
        raise AssertionError("accepted")
    assert state(lay) == before
    body = "80x24,0,0{" * 100000
    try:
        lay.parse(with_checksum(body))
    except LayoutError:
        pass
    deep = '{"a":' * (MAX_DEPTH + 1) + "{}" + "}" * (MAX_DEPTH + 1)
    try:
        loads(deep)
    except JsonError as e:
        assert "nested" in str(e)
    else:
        raise AssertionError("accepted")
    loads('{"a":' * (MAX_DEPTH - 1) + "{}" + "}" * (MAX_DEPTH - 1))


def test_huge_sizes_refused() -> None:
    lay = Layout(80, 24, P(0))
    before = state(lay)
    for body in ("99999x99999,0,0,0", "4294967295x5,0,0,0", "20000x5,0,0,0"):
        try:
            lay.parse(with_checksum(body))
        except LayoutError as e:
            assert e.cause == "invalid layout"
        else:
            raise AssertionError(body)
        assert state(lay) == before


def test_restricted_json() -> None:
    assert dumps(loads('{"b":1,"a":[{"z":true,"y":"\\u00e9"}]}')) == \
        '{"a":[{"y":"\\u00e9","z":true}],"b":1}'
    for bad, why in (('{"a":null}', "null"), ('{"a":1.5}', "integers"), ('{"a":1e3}', "integers"),
                     ('{"a":1,"a":2}', "duplicate"), ('{"a":[1]}', "only objects"),
                     ('{"a":""}', "empty string"), ('[{}]', "object"), ('{"a":"\\x"}', "escape"),
                     ('{"a":"\\ud800"}', "surrogate"), ('{"a":9223372036854775808}', "range"),
                     ('{} x', "trailing")):
        try:
            loads(bad)
        except JsonError as e:
            assert why in str(e), (bad, str(e))
        else:
            raise AssertionError(bad)
    assert dumps(loads('{"a":-9223372036854775808}')) == '{"a":-9223372036854775808}'
