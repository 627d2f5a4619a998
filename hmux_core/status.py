"""Drawing an expanded status format into a row of styled cells (tmux's format_draw, in part).

``#[...]`` directives set the style (``fg= bg=``, attributes, ``default``, ``push-default`` /
``pop-default``), the alignment (``align=left|centre|right|absolute-centre``) and the window
list (``list=on|focus``; the ``left-marker``/``right-marker`` text only shows when a list is cut,
and the ``#[range=...]`` parts are given back per column for the mouse when asked). Left text
takes the row first, then right, then centre in the space between. A ``fill=`` colour clears
the whole width in it first (message-style's default has one).

A ``link=URI`` style (beyond 3.7b) makes the text an OSC 8 hyperlink: given a hyperlink set
(``links``, the drawing surface's, as tmux's screen has one), a linked cell's style carries a
fifth member, ``(external id, URI)`` (and ATTR_LINKED in its attributes); every other cell
keeps the plain four, so drawing code
pays for links only where there are some (render._row_string sends them to terminals with
the hyperlinks feature).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .options import Style as OptStyle
from .options import parse_style, style_link
from .screen.cells import char_width

Cell = tuple[str, tuple[int, int, int, int]]  # (a linked cell's style has a fifth member)

#: In a linked cell's attributes (no SGR has it): a linked blank is then not one of the
#: "empty" cells tmux's tty_draw_line clears in one go (render._tty_empties looks for
#: attributes 0), at no cost to rows without links. Taken off where the cell is drawn.
ATTR_LINKED = 0x100000


def linked_style(style: tuple, link: tuple[str, str]) -> tuple:
    """A cell style (attr, fg, bg, us) with the hyperlink ``(external id, URI)`` as its fifth
    member, as ``render._row_string`` draws it (OSC 8 on a terminal with hyperlinks)."""
    return (style[0] | ATTR_LINKED, style[1], style[2], style[3], link)


def cell_link(sy: OptStyle, links: Any) -> tuple[str, str] | None:
    """The ``(external id, URI)`` a cell drawn in ``sy`` links to, put in the surface's set
    ``links`` with the URI as its id, so the same link keeps its id across redraws (tmux's
    format_draw); None without a link or when the set refuses it."""
    uri = style_link(sy)
    if uri is None:
        return None
    raw = uri if uri.isascii() else uri.encode("utf-8", "surrogateescape").decode("latin-1")
    inner = links.put(raw, raw)
    got = links.get(inner) if inner else None
    ext = links.external_id(inner) if got is not None else None
    return None if ext is None else (ext, got[0])


def client_links(client: Any) -> Any:
    """The hyperlink set of what is drawn over ``client``'s terminal (status and message
    lines, pane status lines, menus, popup titles): its renderer's; None for a client that
    is not attached."""
    a = getattr(client, "attached", None)
    r = getattr(a, "renderer", None) if a is not None else None
    return getattr(r, "hyperlinks", None)


def _cells_of(text: str, style: tuple[int, int, int, int], out: list[Cell]) -> None:
    for ch in text:
        w = char_width(ch) if ord(ch) >= 0x80 else (1 if ch >= " " else -1)
        if w <= 0:
            if out and w == 0:
                prev, st = out[-1]
                out[-1] = (prev + ch, st)
            continue
        out.append((ch, style))
        if w == 2:
            out.append(("", style))


def draw(expanded: str, width: int, base: OptStyle,
         ranges: dict[tuple[str, int], int] | None = None,
         drawn: list[bool] | None = None,
         tags: list[tuple[str, int | str] | None] | None = None,
         theme: Callable[[int], int] | None = None, links: Any = None) -> list[Cell]:
    """``width`` cells for one status row; every cell carries (attr, fg, bg, us). With
    ``ranges``, the first column of each ``#[range=...]`` is recorded there (menus placed
    over a window's label need it); ``drawn`` (``width`` flags) marks the cells text went
    to, for drawing over other cells (a menu's title over its border). ``tags`` (an empty
    list) is filled with each column's range, (type, argument) or None, for mouse clicks on
    the status line (status_get_range). ``theme`` resolves theme colours (themered, ...:
    beyond 3.7b, hmux_core/themes.py) for the client drawn for; ``links`` (a Hyperlinks set)
    turns ``link=`` styles into linked cells, which without it are drawn plain."""
    segments: dict[str, list[Cell]] = {"left": [], "centre": [], "right": [],
                                       "absolute-centre": []}
    segtags: dict[str, list[tuple[str, int | str] | None]] = {k: [] for k in segments}
    starts: list[tuple[str, int, str, int]] = []  # (range type, argument, align, index)
    default = base.copy()
    cur = base.copy()
    cur.link = 0  # a base style's link is not drawn (format_draw starts from its cell)
    fill = -1
    align = "left"
    marker = False
    i, n = 0, len(expanded)
    text: list[str] = []
    link: tuple[str, str] | None = None  # the current style's link, when drawn with links

    def flush() -> None:
        if not text:
            return
        fg = cur.fg if cur.fg != 8 else default.fg
        bg = cur.bg if cur.bg != 8 else default.bg
        if theme is not None:
            fg, bg = theme(fg), theme(bg)
        if not marker:
            if ranges is not None and cur.range_type != "none":
                starts.append((cur.range_type, cur.range_argument, align,
                               len(segments[align])))
            seg = segments[align]
            before = len(seg)
            _cells_of("".join(text), (cur.attr, fg, bg, 0) if link is None
                      else (cur.attr | ATTR_LINKED, fg, bg, 0, link), seg)
            if tags is not None:
                # (a user range is known by its string: #{mouse_status_range})
                tag = None if cur.range_type == "none" else (
                    cur.range_type, cur.range_string if cur.range_type == "user"
                    else cur.range_argument)
                segtags[align].extend([tag] * (len(seg) - before))
        text.clear()

    while i < n:
        if not cur.ignore and expanded.startswith("#[", i):
            end = expanded.find("]", i + 2)
            if end < 0:
                text.append(expanded[i:])
                break
            flush()
            parsed = parse_style(expanded[i + 2:end], cur, default)
            if parsed is not None:
                if parsed.default_type == "push":
                    default = parsed.copy()
                    parsed.default_type = "base"
                elif parsed.default_type == "pop":
                    default = base.copy()
                    parsed.default_type = "base"
                if parsed.fill != 8:
                    fill = parsed.fill  # the whole width is cleared in that colour
                if parsed.align != "default":
                    align = parsed.align
                marker = parsed.list in ("left-marker", "right-marker")
                cur = parsed
                if links is not None:
                    link = cell_link(cur, links) if cur.link else None
            i = end + 1
            continue
        if expanded.startswith("##", i):
            text.append("#")
            i += 2
            continue
        text.append(expanded[i])
        i += 1
    flush()

    fill_style = (base.attr, base.fg, base.bg, 0) if fill == -1 else (0, 8, fill, 0)
    if theme is not None:
        fill_style = (fill_style[0], theme(fill_style[1]), theme(fill_style[2]), 0)
    row: list[Cell] = [(" ", fill_style)] * width
    left = segments["left"][:width]
    row[:len(left)] = left
    right = segments["right"][: max(0, width - len(left))]
    if right:
        row[width - len(right):] = right
    space_from, space_to = len(left), width - len(right)
    centre = segments["centre"][: max(0, space_to - space_from)]
    # Halfway between left and right, less half the centre (format_draw_none's rounding).
    centre_at = space_from + (space_to - space_from) // 2 - len(centre) // 2
    if centre:
        row[centre_at:centre_at + len(centre)] = centre
    absolute = segments["absolute-centre"][:width]
    if absolute:
        start = (width - len(absolute)) // 2
        row[start:start + len(absolute)] = absolute
    if drawn is not None:
        if fill != -1:
            drawn[:] = [True] * width
        for start, n in ((0, len(left)), (width - len(right), len(right)),
                         (centre_at, len(centre)), ((width - len(absolute)) // 2,
                                                    len(absolute))):
            drawn[start:start + n] = [True] * n
    if tags is not None:
        trow: list[tuple[str, int | str] | None] = [None] * width
        lt = segtags["left"][:width]
        trow[:len(lt)] = lt
        rt = segtags["right"][: max(0, width - len(left))]
        if rt:
            trow[width - len(rt):] = rt
        ct = segtags["centre"][: max(0, space_to - space_from)]
        if ct:
            trow[centre_at:centre_at + len(ct)] = ct
        at = segtags["absolute-centre"][:width]
        if at:
            start = (width - len(at)) // 2
            trow[start:start + len(at)] = at
        tags[:] = trow[:width]
    if ranges is not None:
        origin = {"left": 0, "right": width - len(right), "centre": centre_at,
                  "absolute-centre": (width - len(absolute)) // 2}
        for kind, arg, where, i in starts:
            ranges.setdefault((kind, arg), origin[where] + i)
    return row


def overlay(row: list[Cell], x: int, expanded: str, width: int,
            base: OptStyle | None = None, links: Any = None) -> None:
    """format_draw onto cells already there (a message over the status line): only the
    cells the format writes change, all ``width`` of them when it has a fill colour."""
    width = min(width, len(row) - x)
    if width <= 0:
        return
    drawn = [False] * width
    cells = draw(expanded, width, base if base is not None else OptStyle(), drawn=drawn,
                 links=links)
    for i in range(width):
        if drawn[i]:
            row[x + i] = cells[i]
