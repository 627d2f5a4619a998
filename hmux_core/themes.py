"""Theme colours for a client (tmux's development tree: server_client_update_theme_colours).

The ten symbolic colours (``themeblack`` ... ``thememagenta``, ``options.THEME_COLOURS``) are
the server options ``dark-theme-<slot>`` or ``light-theme-<slot>``, formats expanded for the
client (their defaults read ``#{client_colours}``). Which set applies: the ``theme`` option
forces ``light`` or ``dark``; ``detect`` takes the theme the client's terminal reported, else
what its background colour says (dark when unknown); ``terminal`` gives the ANSI colours.
"""

from __future__ import annotations

from typing import Any

from .options import COLOUR_FLAG_THEME, THEME_COLOURS, colour_fromstring, theme_terminal_colour

__all__ = ["client_theme", "resolver", "theme_colour"]


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


def theme_colour(server: Any, c: Any, n: int) -> int:
    """The colour theme slot ``n`` is for client ``c`` (8, default, when its option does not
    give a colour)."""
    if not 0 <= n < len(THEME_COLOURS):
        return 8
    if str(server.options.get("theme")) == "terminal":
        return theme_terminal_colour(n)
    from .format import EXPAND_NOJOBS, expand
    from .formats_vars import ModelContext

    name = f"{client_theme(server, c)}-theme-{THEME_COLOURS[n][1]}"
    value = server.options.get(name)
    if not isinstance(value, str):
        return 8
    colour = colour_fromstring(expand(value, ModelContext(server, c, None, None, None),
                                      flags=EXPAND_NOJOBS))
    if colour == -1 or colour & COLOUR_FLAG_THEME:
        return 8
    return colour


def resolver(server: Any, c: Any) -> Any:
    """A function giving any colour as drawn for client ``c``: theme colours resolved (each
    slot worked out once), every other colour as it is. For drawing one frame."""
    cache: dict[int, int] = {}

    def resolve(colour: int) -> int:
        if colour < 0 or not colour & COLOUR_FLAG_THEME:
            return colour
        got = cache.get(colour)
        if got is None:
            got = cache[colour] = theme_colour(server, c, colour & 0xFF)
        return got

    return resolve
