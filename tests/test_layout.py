"""Unit tests for hmux_core.layout (expected values recorded from tmux 3.7b)."""

from __future__ import annotations

import random

import pytest

from hmux_core.layout import (
    LAYOUT_CELL_FLOATING,
    LEFTRIGHT,
    TOPBOTTOM,
    WINDOWPANE,
    Layout,
    LayoutCell,
    LayoutError,
    checksum,
    dump,
    lookup_preset,
    parse_percentage,
    parse_split_size,
    swap_panes,
)


class P:
    def __init__(self, pid: int) -> None:
        self.id = pid
        self.active_point = 0

    def __repr__(self) -> str:
        return f"%{self.id}"


def window(sx: int = 80, sy: int = 24, status: str = "off") -> tuple[Layout, P]:
    p = P(0)
    return Layout(sx, sy, p, border_status=status), p


def geoms(lay: Layout) -> list[tuple[int, int, int, int, int]]:
    return [(p.id, *lay.geometry(p)) for p in lay.panes]


def with_layout(text: str, n: int) -> Layout:
    lay = Layout(10, 10, P(0))
    for i in range(1, n):
        lay.add_pane(P(i), lay.panes[-1])
    lay.parse(text)
    return lay


# -- strings --------------------------------------------------------------------------------


def test_checksum_single_pane() -> None:
    lay, _ = window(200, 50)
    assert lay.dump() == "ac9d,200x50,0,0,0"
    assert checksum("200x50,0,0,0") == 0xAC9D


def test_dump_nested_matches_tmux() -> None:
    # tmux 3.7b: new -x 200 -y 50; splitw -p 100; splitw -l 100%; splitw -l 0
    lay, p0 = window(200, 50)
    p1, p2, p3 = P(1), P(2), P(3)
    lay.split(p0, percent=100, new_pane=p1)
    lay.split(p1, percent=100, new_pane=p2)
    lay.split(p2, size=0, new_pane=p3)
    assert lay.dump() == ("ef93,200x50,0,0[200x1,0,0,0,200x1,0,2,1,200x44,0,4,2,"
                          "200x1,0,49,3]")


def test_dump_floating_part() -> None:
    # tmux 3.7b lists floating cells again after the tree: new -x 200 -y 50; new-pane
    root = LayoutCell()
    root.set_size(200, 50, 0, 0)
    root.make_node(TOPBOTTOM)
    tiled, floating = LayoutCell(root), LayoutCell(root)
    tiled.set_size(200, 50, 0, 0)
    tiled.make_leaf(P(0))
    floating.set_size(100, 12, 4, 2)
    floating.make_leaf(P(1))
    floating.flags |= LAYOUT_CELL_FLOATING
    root.children += [tiled, floating]
    assert dump(root, [floating]) == "6c84,200x50,0,0[200x50,0,0,0,100x12,4,2,1]<100x12,4,2,1>"


def test_dump_none_and_overflow() -> None:
    assert dump(None) == ""
    lc = LayoutCell()
    lc.set_size(1, 1, 0, 0)
    lc.make_node(LEFTRIGHT)
    for i in range(1000):
        c = LayoutCell(lc)
        c.set_size(1, 1, 0, 0)
        c.make_leaf(P(i))
        lc.children.append(c)
    assert dump(lc) == ""  # longer than tmux's 8 KiB buffer


# -- split ----------------------------------------------------------------------------------


def test_split_halves_top_gets_larger() -> None:
    lay, p0 = window(80, 24)
    p1 = P(1)
    cell = lay.split(p0, new_pane=p1)
    assert cell.pane is p1 and cell.type == WINDOWPANE
    assert geoms(lay) == [(0, 0, 0, 80, 12), (1, 0, 13, 80, 11)]
    p2 = P(2)
    lay.split(p1, horizontal=True, new_pane=p2)
    assert lay.geometry(p1) == (0, 13, 40, 11)
    assert lay.geometry(p2) == (41, 13, 39, 11)
    assert [p.id for p in lay.panes] == [0, 1, 2]


def test_split_before_and_size() -> None:
    lay, p0 = window(80, 24)
    p1 = P(1)
    lay.split(p0, size=5, before=True, new_pane=p1)
    assert geoms(lay) == [(1, 0, 0, 80, 5), (0, 0, 6, 80, 18)]
    # -b with a size too big for the pane: tmux's unsigned arithmetic leaves the new pane 1 row
    p2 = P(2)
    lay.split(p0, size=1000, before=True, new_pane=p2)
    assert lay.geometry(p2).sy == 1


def test_split_size_clamps() -> None:
    lay, p0 = window(80, 24)
    p1 = P(1)
    lay.split(p0, size=0, new_pane=p1)
    assert lay.geometry(p1).sy == 1
    p2 = P(2)
    lay.split(p0, size=500, new_pane=p2)
    assert lay.geometry(p0).sy == 1


def test_split_percent_of_pane_and_of_window() -> None:
    lay, p0 = window(100, 40)
    p1, p2 = P(1), P(2)
    lay.split(p0, horizontal=True, percent=30, new_pane=p1)
    assert lay.geometry(p1).sx == 30
    lay.split(p1, horizontal=True, percent=50, full=True, new_pane=p2)
    assert lay.geometry(p2).sx == 50
    assert [p.id for p in lay.panes] == [0, 1, 2]


def test_split_no_space() -> None:
    lay, p0 = window(2, 2)
    with pytest.raises(LayoutError, match="^size or position no space for a new pane$"):
        lay.split(p0, new_pane=P(1))
    with pytest.raises(LayoutError, match="^size or position no space for a new pane$"):
        lay.split(p0, horizontal=True, new_pane=P(1))
    assert lay.panes == [p0]
    lay3, q0 = window(3, 3)
    lay3.split(q0, new_pane=P(1))
    assert lay3.dump().split(",", 1)[1] == "3x3,0,0[3x1,0,0,0,3x1,0,2,1]"


def test_split_size_out_of_range() -> None:
    lay, p0 = window(80, 24)
    for kw in ({"percent": 101}, {"percent": -1}, {"size": -1}, {"size": 2**31}):
        with pytest.raises(LayoutError, match="^size or position invalid tiled geometry$"):
            lay.split(p0, new_pane=P(1), **kw)
    assert lay.panes == [p0]


def test_full_split_before_goes_first_in_pane_list() -> None:
    lay, p0 = window(80, 24)
    p1, p2 = P(1), P(2)
    lay.split(p0, horizontal=True, new_pane=p1)
    lay.split(p1, full=True, before=True, new_pane=p2)
    assert [p.id for p in lay.panes] == [2, 0, 1]
    # recorded from tmux 3.7b: new -x80 -y24; splitw -h; splitw -f -b -t %1
    assert lay.dump() == "725e,80x24,0,0[80x12,0,0,2,80x11,0,13{40x11,0,13,0,39x11,41,13,1}]"
    assert geoms(lay) == [(2, 0, 0, 80, 12), (0, 0, 13, 40, 11), (1, 41, 13, 39, 11)]


def test_split_with_border_status_needs_extra_row() -> None:
    lay, p0 = window(10, 3, status="top")
    with pytest.raises(LayoutError):
        lay.split(p0, new_pane=P(1))
    lay2, q0 = window(10, 4, status="top")
    lay2.split(q0, new_pane=P(1))
    assert lay2.geometry(q0) == (0, 1, 10, 1)


def test_parse_split_size() -> None:
    assert parse_split_size("10") == (10, None)
    assert parse_split_size("10%") == (None, 10)
    assert parse_split_size(None, "25") == (None, 25)
    assert parse_split_size(None) == (None, None)
    for bad in ("abc", "abc%", "-5", "99999999999", "", "101%", "300%"):
        with pytest.raises(LayoutError, match="^size or position invalid tiled geometry$"):
            parse_split_size(bad)
    for bad in ("x", "101", "-1"):
        with pytest.raises(LayoutError, match="^size or position invalid tiled geometry$"):
            parse_split_size(None, bad)


# -- close ----------------------------------------------------------------------------------


def test_close_gives_space_to_previous_or_next() -> None:
    lay, p0 = window(80, 24)
    p1, p2 = P(1), P(2)
    lay.split(p0, new_pane=p1)
    lay.split(p1, new_pane=p2)
    lay.close_pane(p1)  # middle: the previous cell grows
    assert geoms(lay) == [(0, 0, 0, 80, 18), (2, 0, 19, 80, 5)]
    lay.close_pane(p0)  # first: the next cell grows, the container collapses
    assert geoms(lay) == [(2, 0, 0, 80, 24)]
    assert lay.root is not None and lay.root.parent is None and lay.root.type == WINDOWPANE
    lay.close_pane(p2)
    assert lay.root is None and lay.panes == []


def test_close_collapses_into_grandparent() -> None:
    lay, p0 = window(81, 24)
    p1, p2 = P(1), P(2)
    lay.split(p0, horizontal=True, new_pane=p1)
    lay.split(p1, new_pane=p2)
    lay.close_pane(p2)
    assert lay.dump().split(",", 1)[1] == "81x24,0,0{40x24,0,0,0,40x24,41,0,1}"


# -- resize ---------------------------------------------------------------------------------


def test_resize_window_spreads_one_at_a_time() -> None:
    lay, p0 = window(80, 24)
    p1, p2 = P(1), P(2)
    lay.split(p0, horizontal=True, new_pane=p1)
    lay.split(p1, horizontal=True, new_pane=p2)
    assert [lay.geometry(p).sx for p in lay.panes] == [40, 19, 19]
    lay.resize_window(85, 24)
    assert [lay.geometry(p).sx for p in lay.panes] == [42, 21, 20]
    lay.take_resized()
    lay.resize_window(10, 24)
    assert [lay.geometry(p).sx for p in lay.panes] == [6, 1, 1]
    lay.resize_window(3, 24)  # cannot go below minimum: the window stays bigger
    assert [lay.geometry(p).sx for p in lay.panes] == [1, 1, 1]
    assert (lay.sx, lay.sy) == (5, 24)
    assert {p.id for p in lay.take_resized()} == {0, 1, 2}
    assert lay.take_resized() == []


def test_resize_window_clamps_to_limits() -> None:
    lay, p0 = window(80, 24)
    lay.resize_window(0, 20000)
    assert (lay.sx, lay.sy) == (1, 10000)
    assert lay.geometry(p0) == (0, 0, 1, 10000)


def test_resize_pane_directions() -> None:
    lay, p0 = window(80, 24)
    p1 = P(1)
    lay.split(p0, horizontal=True, new_pane=p1)
    lay.resize_pane_by(p0, "R", 10)
    assert [lay.geometry(p).sx for p in lay.panes] == [50, 29]
    lay.resize_pane_by(p1, "R", 5)  # last cell: the border before it moves
    assert [lay.geometry(p).sx for p in lay.panes] == [55, 24]
    lay.resize_pane_by(p0, "L", 100)
    assert [lay.geometry(p).sx for p in lay.panes] == [1, 78]
    lay.resize_pane_by(p0, "U", 5)  # no top-bottom parent: nothing
    assert [lay.geometry(p).sx for p in lay.panes] == [1, 78]
    with pytest.raises(ValueError):
        lay.resize_pane_by(p0, "X", 1)


def test_resize_pane_to() -> None:
    lay, p0 = window(80, 24)
    p1 = P(1)
    lay.split(p0, horizontal=True, new_pane=p1)
    lay.resize_pane_width(p1, 20)
    assert [lay.geometry(p).sx for p in lay.panes] == [59, 20]
    lay.resize_pane_width(p0, 30)
    assert [lay.geometry(p).sx for p in lay.panes] == [30, 49]


def test_spread_out() -> None:
    lay, p0 = window(81, 24)
    p1, p2 = P(1), P(2)
    lay.split(p0, horizontal=True, size=5, new_pane=p1)
    lay.split(p1, horizontal=True, size=5, new_pane=p2)
    lay.spread_out(p2)
    # tmux 3.7b gives the spare column to the first cell (3.3a gave it to the last)
    assert [lay.geometry(p).sx for p in lay.panes] == [27, 26, 26]


def test_spread_out_refuses_what_hangs_tmux() -> None:
    # nested same-direction cells that cannot shrink: tmux spins forever
    body = "7x5,0,0{1x5,0,0,0,5x5,2,0{1x5,2,0,1,1x5,4,0,2,1x5,6,0,3}}"
    lay = with_layout(f"{checksum(body):04x},{body}", 4)
    before = lay.dump()
    lay.spread_out(lay.panes[0])
    assert lay.tmux_would_hang
    assert lay.dump() == before


# -- presets --------------------------------------------------------------------------------


def many(sx: int, sy: int, n: int, status: str = "off") -> Layout:
    lay, p = window(sx, sy, status)
    for i in range(1, n):
        q = P(i)
        lay.split(p, horizontal=bool(i % 2), size=1, new_pane=q)
    return lay


def test_lookup_preset() -> None:
    assert lookup_preset("tiled") == 6
    assert lookup_preset("t") == 6
    assert lookup_preset("even-h") == 0
    assert lookup_preset("even") == -1  # ambiguous
    assert lookup_preset("main-h") == -1  # main-horizontal or main-horizontal-mirrored
    assert lookup_preset("main-horizontal") == 2  # an exact name wins over a longer one
    assert lookup_preset("main-horizontal-m") == 3
    assert lookup_preset("main-vertical") == 4
    assert lookup_preset("main-vertical-mirrored") == 5
    assert lookup_preset("") == -1
    assert lookup_preset("nope") == -1


def test_even_horizontal() -> None:
    lay = many(80, 24, 3)
    lay.select_preset("even-horizontal")
    assert lay.dump() == "1bb6,80x24,0,0{26x24,0,0,0,26x24,27,0,2,26x24,54,0,1}"
    assert [lay.geometry(p).sx for p in lay.panes] == [26, 26, 26]
    assert lay.last_preset == 0


def test_presets_grow_the_window() -> None:
    lay = many(5, 24, 5)
    lay.select_preset(0)
    assert (lay.sx, lay.sy) == (9, 24)
    assert [lay.geometry(p).sx for p in lay.panes] == [1] * 5


def test_tiled_grid() -> None:
    lay = many(80, 24, 5)
    lay.select_preset("tiled")
    # recorded from tmux 3.7b (the last column takes the spare width)
    assert [tuple(lay.geometry(p)) for p in lay.panes] == [
        (0, 0, 39, 7), (40, 0, 40, 7), (0, 8, 39, 7), (40, 8, 40, 7), (0, 16, 80, 8)]


def test_tiled_wraps_like_tmux() -> None:
    # recorded from tmux 3.7b: 9 stacked panes in a 1-column window, then select-layout tiled;
    # the offsets wrap, and 3.7b prints them signed
    text = ("b5cb,1x40,0,0[1x3,0,0,0,1x3,0,4,8,1x3,0,8,7,1x3,0,12,6,1x3,0,16,5,1x3,0,20,4,"
            "1x3,0,24,3,1x3,0,28,2,1x8,0,32,1]")
    lay = Layout(1, 40, P(0))
    for pid in (8, 7, 6, 5, 4, 3, 2, 1):
        lay.add_pane(P(pid), lay.panes[-1])
    lay.parse(text)
    assert lay.dump() == text and lay.sane()
    lay.select_preset("tiled")
    assert lay.dump() == (
        "a4d1,1x40,0,0[1x12,0,0{1431655765x12,0,0,0,1431655765x12,1431655766,0,8,"
        "1431655765x12,-1431655764,0,7},1x12,0,13{1431655765x12,0,13,6,1431655765x12,"
        "1431655766,13,5,1431655765x12,-1431655764,13,4},1x14,0,26{1431655765x14,0,26,3,"
        "1431655765x14,1431655766,26,2,1431655765x14,-1431655764,26,1}]")
    assert lay.pane_edges(lay.panes[2]) == (False, True, True, False)
    assert not lay.sane()


def test_main_vertical_options() -> None:
    lay = many(120, 40, 4)
    lay.select_preset("main-vertical", main_pane_width="50%")
    assert lay.geometry(lay.panes[0]) == (0, 0, 59, 40)
    lay.select_preset("main-vertical", main_pane_width="30", other_pane_width="50")
    assert lay.geometry(lay.panes[0]).sx == 69
    lay.select_preset("main-vertical", main_pane_width="bogus")
    assert lay.geometry(lay.panes[0]).sx == 80  # invalid value: tmux uses 80


def test_next_previous_cycle() -> None:
    lay = many(80, 24, 3)
    assert [lay.next_preset() for _ in range(8)] == [0, 1, 2, 3, 4, 5, 6, 0]
    assert [lay.previous_preset() for _ in range(3)] == [6, 5, 4]
    fresh = many(80, 24, 3)
    assert fresh.previous_preset() == 6


def test_parse_percentage() -> None:
    assert parse_percentage("50%", 0, 49, 49) == (24, None)
    assert parse_percentage("80", 0, 49, 49) == (0, "too large")
    assert parse_percentage("101%", 0, 49, 49) == (0, "too large")
    assert parse_percentage("x", 0, 49, 49) == (0, "invalid")


# -- layout strings -------------------------------------------------------------------------


def test_parse_round_trip_and_assign_in_pane_order() -> None:
    lay = many(100, 30, 4)
    text = lay.dump()
    other = Layout(50, 10, P(10))
    for pid in (11, 12, 13):
        other.add_pane(P(pid), other.panes[-1])
    other.parse(text)
    assert (other.sx, other.sy) == (100, 30)
    assert [c.pane.id for c in other.leaves()] == [10, 11, 12, 13]
    assert text == "5ca8,100x30,0,0{98x30,0,0[98x28,0,0{96x28,0,0,0,1x28,97,0,3},98x1,0,29,2],1x30,99,0,1}"
    body = "100x30,0,0{98x30,0,0[98x28,0,0{96x28,0,0,10,1x28,97,0,11},98x1,0,29,12],1x30,99,0,13}"
    assert other.dump() == f"{checksum(body):04x},{body}"
    assert [tuple(other.geometry(p)) for p in other.panes] == \
        [tuple(lay.geometry(c.pane)) for c in lay.leaves()]


def test_parse_errors() -> None:
    lay = many(80, 24, 2)
    good = lay.dump()
    body = good.split(",", 1)[1]
    cases = {
        "0000," + body: "invalid layout",
        good[:-1]: "invalid layout",
        "zz": "invalid layout",
        "": "invalid layout",
    }
    one = "80x24,0,0,5"
    cases[f"{checksum(one):04x},{one}"] = "have 2 panes but need 1"
    bad = "80x24,0,0{40x24,0,0,1,39x20,41,0,2}"
    cases[f"{checksum(bad):04x},{bad}"] = "size mismatch after applying layout"
    trailing = body + "x"
    cases[f"{checksum(trailing):04x},{trailing}"] = "invalid layout"
    for text, cause in cases.items():
        with pytest.raises(LayoutError) as ei:
            lay.parse(text)
        assert ei.value.cause == cause
        assert str(ei.value) == f"{cause}: {text}"
        assert lay.dump() == good


def test_parse_37_rules() -> None:
    """tmux 3.7b: the checksum is exactly four characters and a comma, nothing is an empty
    window (so too few cells), a single cell leaves the window's size alone, a floating part
    is not accepted, and strings that make tmux use a missing cell are refused."""
    lay = many(80, 24, 2)
    good = lay.dump()
    body = good.split(",", 1)[1]

    def cause(text: str) -> str:
        with pytest.raises(LayoutError) as ei:
            lay.parse(text)
        assert lay.dump() == good
        return ei.value.cause

    assert cause(f"{checksum(body) & 0xfff:x},{body}") == "invalid layout"
    assert cause(f"{checksum(''):04x},") == "have 2 panes but need 0"
    floating = body + "<30x10,4,2,7>"
    assert cause(f"{checksum(floating):04x},{floating}") == "invalid layout"
    assert not lay.tmux_would_crash
    for crash in ("{", "80x24,0,0{,}", "80x24,0,0{40x24,0,0,1,}", "80x24,0,0[{40x24,0,0}]"):
        assert cause(f"{checksum(crash):04x},{crash}") == "invalid layout"
        assert lay.tmux_would_crash
    single = Layout(80, 24, P(0))
    one = "100x30,0,0,5"
    single.parse(f"{checksum(one):04x},{one}")
    assert (single.sx, single.sy) == (80, 24)
    assert single.geometry(single.panes[0]) == (0, 0, 100, 30)


def test_mirrored_presets_and_max_columns() -> None:
    lay = many(120, 40, 4)
    lay.select_preset("main-vertical-mirrored")
    assert lay.geometry(lay.panes[0]) == (40, 0, 80, 40)
    assert [lay.geometry(p).xoff for p in lay.panes[1:]] == [0, 0, 0]
    lay.select_preset("main-horizontal-mirrored", main_pane_height="10")
    assert lay.geometry(lay.panes[0]) == (0, 30, 120, 10)
    assert lay.last_preset == 3
    lay.select_preset("tiled", tiled_layout_max_columns=1)
    assert {lay.geometry(p).sx for p in lay.panes} == {120}


def test_spread_gives_spare_cells_to_the_first() -> None:
    lay = many(80, 24, 4)
    lay.select_preset("even-vertical")
    # 24 rows, 3 borders: 21 = 4 * 5 + 1, the first pane gets the spare row
    assert [lay.geometry(p).sy for p in lay.panes] == [6, 5, 5, 5]


def test_parse_drops_bottom_right_cells_and_fixes_top_size() -> None:
    body = "81x24,0,0{40x24,0,0,1,40x24,41,0[40x12,41,0,2,40x11,41,13,3]}"
    lay = with_layout(f"{checksum(body):04x},{body}", 2)
    assert lay.dump().split(",", 1)[1] == "81x24,0,0{40x24,0,0,0,40x24,41,0,1}"
    wrong_top = "90x30,0,0{40x24,0,0,1,40x24,41,0,2}"
    lay2 = with_layout(f"{checksum(wrong_top):04x},{wrong_top}", 2)
    assert (lay2.sx, lay2.sy) == (81, 24)


def test_parse_old_format_without_pane_ids() -> None:
    body = "81x24,0,0{40x24,0,0,40x24,41,0}"
    lay = with_layout(f"{checksum(body):04x},{body}", 2)
    assert [tuple(lay.geometry(p)) for p in lay.panes] == [(0, 0, 40, 24), (41, 0, 40, 24)]


# -- zoom, neighbours, swap -----------------------------------------------------------------


def test_zoom_dumps_and_geometry() -> None:
    lay, p0 = window(80, 24)
    p1 = P(1)
    lay.split(p0, new_pane=p1)
    full = lay.dump()
    assert lay.zoom(p1)
    assert not lay.zoom(p1)
    assert lay.dump() == full
    assert lay.visible_dump() == "b25e,80x24,0,0,1"
    assert lay.geometry(p1) == (0, 0, 80, 24)
    assert lay.geometry(p0) == (0, 0, 80, 12)  # hidden panes keep their geometry
    assert lay.cell_of(p0) is None
    assert lay.pane_at(5, 5) is p1
    lay.resize_window(100, 30)  # unzooms, resizes, zooms again
    assert lay.zoomed and lay.geometry(p1) == (0, 0, 100, 30)
    assert lay.geometry(p0) == (0, 0, 100, 15)
    assert lay.unzoom() and not lay.unzoom()
    assert lay.geometry(p1) == (0, 16, 100, 14)


def test_single_pane_cannot_zoom() -> None:
    lay, p0 = window()
    assert not lay.zoom(p0)


def test_find_pane_prefers_most_recently_active() -> None:
    lay, p0 = window(80, 24)
    p1, p2 = P(1), P(2)
    lay.split(p0, horizontal=True, new_pane=p1)
    lay.split(p1, new_pane=p2)
    assert lay.find_pane(p1, "L") is p0
    assert lay.find_pane(p0, "R") is p1  # tie: first in pane order
    p2.active_point = 5
    assert lay.find_pane(p0, "R") is p2
    assert lay.find_pane(p1, "D") is p2
    assert lay.find_pane(p2, "D") is p1  # wraps around
    assert lay.find_pane(p0, "U") is None
    assert lay.find_pane(p0, "L", active_point=lambda p: -p.id) is p1  # wraps: p1 wins


def test_pane_edges_and_pane_at() -> None:
    lay, p0 = window(80, 24)
    p1 = P(1)
    lay.split(p0, horizontal=True, new_pane=p1)
    assert lay.pane_edges(p0) == (True, False, True, True)
    assert lay.pane_edges(p1) == (False, True, True, True)
    assert lay.pane_at(40, 3) is p0  # the border belongs to the pane on its left
    assert lay.pane_at(41, 3) is p1
    assert lay.pane_at(200, 3) is None
    cell = lay.search_by_border(40, 3)
    assert cell is not None and cell.pane is p0


def test_border_status_geometry() -> None:
    lay, p0 = window(80, 24, "top")
    assert lay.geometry(p0) == (0, 1, 80, 23)
    assert lay.pane_edges(p0) == (True, True, True, True)
    lay.set_border_status("bottom")
    assert lay.geometry(p0) == (0, 0, 80, 23)
    assert lay.pane_edges(p0) == (True, True, True, True)
    lay.set_border_status("off")
    assert lay.geometry(p0) == (0, 0, 80, 24)


def test_swap_panes_same_window() -> None:
    lay, p0 = window(80, 24)
    p1, p2 = P(1), P(2)
    lay.split(p0, new_pane=p1)
    lay.split(p1, horizontal=True, new_pane=p2)
    g0, g2 = lay.geometry(p0), lay.geometry(p2)
    swap_panes(lay, p0, lay, p2)
    assert [p.id for p in lay.panes] == [2, 1, 0]
    assert lay.geometry(p0) == g2 and lay.geometry(p2) == g0
    assert [c.pane.id for c in lay.leaves()] == [2, 1, 0]


def test_swap_panes_between_windows() -> None:
    a, a0 = window(80, 24)
    a1 = P(1)
    a.split(a0, new_pane=a1)
    b = Layout(100, 30, P(5))
    b5 = b.panes[0]
    swap_panes(a, a1, b, b5)
    assert [p.id for p in a.panes] == [0, 5] and [p.id for p in b.panes] == [1]
    assert a.geometry(b5) == (0, 13, 80, 11)
    assert b.geometry(a1) == (0, 0, 100, 30)


def test_join_pane_recipe() -> None:
    """join-pane in one window: split the target, close the source, then assign it."""
    lay, p0 = window(80, 24)
    p1, p2 = P(1), P(2)
    lay.split(p0, new_pane=p1)
    lay.split(p1, new_pane=p2)
    cell = lay.split(p0, horizontal=True)
    lay.close_pane(p2)
    lay.add_pane(p2, p0)
    lay.assign(cell, p2)
    assert [p.id for p in lay.panes] == [0, 2, 1]
    assert lay.geometry(p2).xoff == 41


# -- the bulk positive adjust equals tmux's one-unit loop -----------------------------------


def _reference_adjust(lc: LayoutCell, type_: int, change: int) -> None:
    if type_ == LEFTRIGHT:
        lc.sx += change
    else:
        lc.sy += change
    if lc.type != type_:
        for c in lc.children:
            _reference_adjust(c, type_, change)
        return
    while change != 0:
        for c in lc.children:
            if change == 0:
                break
            _reference_adjust(c, type_, 1)
            change -= 1


def _shape(lc: LayoutCell) -> tuple:
    return (lc.sx, lc.sy, tuple(_shape(c) for c in lc.children))


@pytest.mark.parametrize("seed", range(30))
def test_bulk_grow_matches_unit_loop(seed: int) -> None:
    from hmux_core.layout import _copy_tree

    rng = random.Random(seed)
    lay, p0 = window(200, 80)
    for i in range(1, 12):
        target = rng.choice(lay.panes)
        try:
            lay.split(target, horizontal=rng.random() < 0.5, new_pane=P(i))
        except LayoutError:
            pass
    for type_ in (LEFTRIGHT, TOPBOTTOM):
        change = rng.randint(1, 57)
        ref = _copy_tree(lay.root)
        assert ref is not None and lay.root is not None
        _reference_adjust(ref, type_, change)
        lay._adjust(lay.root, type_, change)
        assert _shape(lay.root) == _shape(ref)
