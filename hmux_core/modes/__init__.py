"""Pane modes: tmux's mode stack (window_pane_set_mode / window_pane_reset_mode).

A mode replaces what is drawn for a pane and takes the keys sent to it. A pane keeps a stack,
``pane.modes``, newest first; only the first one is shown. A mode that is already on the stack
moves back to the top instead of starting again. Modes are drawn from ``row_runs`` exactly like
a screen, so the renderer asks :func:`source` which of the two to read.
"""

from __future__ import annotations

from typing import Any

from ..events import QUIET
from ..screen.cells import DEFAULT_STYLE, Style

#: Attribute bit of a style that keeps only the charset attribute of the cells it is drawn
#: over (tmux's GRID_ATTR_NOATTR, in mode-style's default "noattr,bg=yellow,fg=black").
NOATTR = 0x4000
CHARSET = 0x80


def option(opts: Any, name: str) -> Any:
    """An option's value (None for a name the option table does not have)."""
    try:
        return opts.get(name)
    except KeyError:
        return None


def style_option(opts: Any, name: str, expand: Any = None, noattr: bool = False) -> Style:
    """A *-style option as a cell style (style_apply): formats in it are expanded with
    ``expand`` first (tmux expands them in the pane's formats); a style that does not parse
    draws with the default style. With ``noattr``, the style's ``noattr`` is kept as the
    :data:`NOATTR` bit (only a selection drawn over cells uses it)."""
    from ..options import parse_style

    value = option(opts, name)
    if not isinstance(value, str):
        return DEFAULT_STYLE
    if "#{" in value and expand is not None:
        value = expand(value)
    sy = parse_style(value)
    attr = 0
    if sy is None:
        words = value.replace(" ", ",").split(",")
        if "noattr" not in words:
            return DEFAULT_STYLE
        sy = parse_style(",".join(w for w in words if w != "noattr"))
        if sy is None:
            return DEFAULT_STYLE
        attr = NOATTR if noattr else 0
    return ((sy.attr & ~NOATTR if not noattr else sy.attr) | attr, sy.fg, sy.bg, 0)


def pane_expander(server: Any, wp: Any) -> Any:
    """Expanding a format in the pane's own context (format_create_defaults for a pane)."""
    from .. import format as F
    from ..formats_vars import context_for_pane

    ctx = context_for_pane(server, wp)
    return lambda value: F.expand(value, ctx)


class Mode:
    """One entry of a pane's mode stack (tmux's window_mode_entry and its window_mode)."""

    name = ""
    #: Whether ``send-keys -X`` reaches this mode (tmux's ``mode->command``).
    has_command = False

    def __init__(self, server: Any, wp: Any) -> None:
        self.server = server
        self.wp = wp
        self.prefix = 1  # the repeat count of the next command (send-keys -N)

    def key_table(self) -> str | None:
        """The key table keys go through while this mode is on top (None: keys reach key())."""
        return None

    def command(self, item: Any) -> int:
        return item.error("not in a mode")

    def key(self, client: Any, key: int, sent: bool = False) -> None:
        """A key no binding took (tmux's ``mode->key``); nothing by default. ``sent``: it came
        from send-keys, not a client's terminal (tmux's window_pane_key without a mouse event)."""

    def mouse(self, client: Any, key: int, event: Any) -> None:
        """A mouse key no binding took, with its event (tmux's ``mode->key`` with a mouse
        event); nothing by default, as for copy mode."""

    def resize(self, sx: int, sy: int) -> None: ...

    def free(self) -> None: ...

    def row_runs(self, y: int) -> list[tuple[str, Style]]:
        raise NotImplementedError

    def cursor(self) -> tuple[int, int] | None:
        """Where the cursor is drawn, or None when this mode hides it."""
        return None

    def format(self, name: str) -> str | None:
        """A format variable only this mode has (copy_cursor_x, ...), else None."""
        return None


def top(wp: Any) -> Mode | None:
    modes = getattr(wp, "modes", None)
    return modes[0] if modes else None


def source(wp: Any) -> Any:
    """What the renderer reads a pane's rows from: its top mode, else its screen."""
    modes = wp.modes
    return modes[0] if modes else wp.screen


def _changed(server: Any, wp: Any) -> None:
    wp.changed = True  # PANE_CHANGED: automatic-rename looks again ([tmux] while in a mode)
    if wp.window.options.get("pane-scrollbars") != "off":  # a mode may show the scrollbar
        from ..scrollbars import refit

        refit(server, wp.window)
    server.notify("pane-mode-changed", {"pane": wp})
    server.redraw_clients(wp.window)


def _mode_event(server: Any, wp: Any, name: str, previous: str | None, current: str | None,
                entered: bool) -> None:
    """pane-mode-entered / pane-mode-exited (the development tree's events), raised just before
    pane-mode-changed; only built when something listens."""
    if name in QUIET:
        return
    data: dict[str, Any] = {"pane": wp, "window": wp.window, "mode_entered": int(entered)}
    if current is not None:
        data["current_mode"] = current
    if previous is not None:
        data["previous_mode"] = previous
    server.notify(name, data)


def set_mode(server: Any, wp: Any, kind: type[Mode], **kw: Any) -> Mode | None:
    """Put a mode of ``kind`` on top of the pane; None when it was already on top."""
    modes = wp.modes
    if modes and type(modes[0]) is kind:
        return None
    previous = modes[0].name if modes else None
    for m in modes:
        if type(m) is kind:
            modes.remove(m)
            modes.insert(0, m)
            break
    else:
        m = kind(server, wp, **kw)
        modes.insert(0, m)
    # -k (choose-tree, choose-buffer, choose-client, copy-mode; beyond 3.7b as tmux's
    # development tree): the pane is killed when this mode exits
    args = kw.get("args")
    m.kill = bool(args is not None and args.has("k"))
    _mode_event(server, wp, "pane-mode-entered", previous, m.name, True)
    _changed(server, wp)
    return m


def reset_mode(server: Any, wp: Any) -> None:
    """Leave the top mode; the next one (resized to the pane) shows again, or the screen."""
    modes = wp.modes
    if not modes:
        return
    old = modes.pop(0)
    kill = getattr(old, "kill", False)
    old.free()
    if modes:
        modes[0].resize(wp.sx, wp.sy)
    else:
        wp.unseen_changes = False  # the pane's own screen shows again
    _mode_event(server, wp, "pane-mode-exited", old.name, modes[0].name if modes else None,
                False)
    _changed(server, wp)
    if kill and not wp.destroyed and wp in wp.window.panes:
        server.kill_pane(wp)  # a -k mode ended: its pane goes (killing it only ends modes)


def reset_mode_all(server: Any, wp: Any) -> None:
    while wp.modes:
        reset_mode(server, wp)


def redraw(mode: Mode) -> None:
    """A mode changed what it shows: redraw the clients showing its window."""
    mode.server.redraw_clients(mode.wp.window, status=True)
