"""Theme colours for a client (tmux's development tree: server_client_update_theme_colours).

The ten symbolic colours (``themeblack`` ... ``thememagenta``, ``options.THEME_COLOURS``) are
the server options ``dark-theme-<slot>`` or ``light-theme-<slot>``, formats expanded for the
client (their defaults read ``#{client_colours}``). Which set applies: the ``theme`` option
forces ``light`` or ``dark``; ``detect`` takes the theme the client's terminal reported, else
what its background colour says (dark when unknown); ``terminal`` gives the ANSI colours.

As in the development tree, a client keeps its ten colours worked out
(``client.theme_colours``, ``update_client``) and the styles keep the symbolic colours: they are
resolved only where a cell goes out to that client's terminal (``tty_attrs.fit`` through the
renderer's pen), so borders, menus, popups, modes and window-style all follow the theme, and a
cell without a theme colour costs nothing more. The table is worked out again, and the client
drawn again whole, when the theme or a dark/light-theme-* option changes, when its terminal
reports its theme, or when its background colour changes.
"""

from __future__ import annotations

from typing import Any

from .options import COLOUR_FLAG_THEME, THEME_COLOURS, colour_fromstring, theme_terminal_colour

__all__ = ["client_colours", "client_theme", "compute_colours", "option_changes_theme",
           "resolver", "theme_colour", "update_all", "update_client"]


def client_theme(server: Any, c: Any) -> str:
    """``light`` or ``dark``: the theme option, else the client's report or background."""
    option = str(server.options.get("theme"))
    if option in ("light", "dark"):
        return option
    reported = getattr(c, "theme", None) if c is not None else None
    if reported in ("light", 2):
        return "light"
    if reported in ("dark", 1):
        return "dark"
    bg = getattr(c, "tty_bg", -1) if c is not None else -1
    if bg is not None and bg >= 0:
        from .escapes import colour_theme

        if colour_theme(bg) == 2:
            return "light"
    return "dark"


def compute_colours(server: Any, c: Any) -> tuple[int, ...]:
    """server_client_update_theme_colours: the colour of each of the ten slots for client
    ``c`` (8, default, for a slot whose option does not give a colour)."""
    if str(server.options.get("theme")) == "terminal":
        return tuple(theme_terminal_colour(n) for n in range(len(THEME_COLOURS)))
    from .format import EXPAND_NOJOBS, expand
    from .formats_vars import ModelContext

    theme = client_theme(server, c)
    ctx = ModelContext(server, c, None, None, None)
    out = []
    for _name, slot, _ansi in THEME_COLOURS:
        value = server.options.get(f"{theme}-theme-{slot}")
        colour = colour_fromstring(expand(value, ctx, flags=EXPAND_NOJOBS)) \
            if isinstance(value, str) else -1
        out.append(8 if colour == -1 or colour & COLOUR_FLAG_THEME else colour)
    return tuple(out)


def client_colours(server: Any, c: Any) -> tuple[int, ...]:
    """The client's ten colours as last worked out (worked out now the first time)."""
    got = getattr(c, "theme_colours", None) if c is not None else None
    if got is None:
        got = compute_colours(server, c)
        if c is not None:
            c.theme_colours = got
    return got


def update_client(server: Any, c: Any) -> None:
    """Work out the client's colours again; if they changed, its renderer draws with the new
    ones (a new pen: everything it shows is drawn again). The caller redraws it."""
    colours = compute_colours(server, c)
    c.theme_colours = colours
    a = getattr(c, "attached", None)
    if a is not None:
        a.renderer.set_theme(colours)


def update_all(server: Any) -> None:
    """The theme or a dark-/light-theme-* option changed (options_push_changes): every client's
    colours again, and every attached client drawn again whole at once."""
    for c in server.clients:
        update_client(server, c)
    server.redraw_clients(full=True)


def option_changes_theme(name: str) -> bool:
    """Whether setting option ``name`` changes clients' theme colours."""
    return name == "theme" or name.startswith(("dark-theme-", "light-theme-"))


def theme_colour(server: Any, c: Any, n: int) -> int:
    """The colour theme slot ``n`` is for client ``c`` (8, default, when its option does not
    give a colour)."""
    if not 0 <= n < len(THEME_COLOURS):
        return 8
    return client_colours(server, c)[n]


def resolver(server: Any, c: Any) -> Any:
    """A function giving any colour as drawn for client ``c``: theme colours resolved through
    its table, every other colour as it is."""
    table = client_colours(server, c)

    def resolve(colour: int) -> int:
        if colour < 0 or not colour & COLOUR_FLAG_THEME:
            return colour
        n = colour & 0xFF
        return table[n] if n < len(table) else 8

    return resolve
