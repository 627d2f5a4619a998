"""The emulator engine boundary.

Everything outside ``hmux_core.screen`` talks to a pane's terminal emulator only through this
protocol, so a native engine can replace the default one without touching panes, formats,
capture-pane or the renderer.

Semantics follow tmux 3.7b exactly, including where they surprise:

- ``cursor_x`` may equal ``cols``: after writing the last column the cursor waits there until
  the next character wraps (tmux's ``cursor_x`` shows the same value).
- History receives lines scrolled off the top of the scroll region in the main screen, for a
  partial scroll region too (grid_scroll_history_region), and the screen contents on ED 2 /
  ED 0 at the home position when ``scroll_on_clear`` is set. The alternate screen never writes
  history. When history is full, the oldest 10% of ``history_limit`` is dropped at once.
- ``alternate_saved_x`` / ``alternate_saved_y`` are 4294967295 until a 1049 switch saved them.
- A line has a cell size besides its used cells (tmux's cellsize, grown in steps of a quarter,
  half and all of the width); capture-pane prints the cells up to it (``-N`` keeps the blanks).
- A tab over blanks is one cell printed as a tab by capture-pane (drawn as the blanks it covers).
- Bad UTF-8 is written as U+FFFD; widths are tmux 3.7b's (its emoji table, the codepoint-widths
  option, 1 for what wcwidth calls unprintable, 0 for C1); a character joins the cell before
  the cursor when tmux 3.7b's rules say so (VS16, skin tones and flags make it wide).

Line marks (OSC 133): ``A`` marks the cursor's line as a prompt start, ``C`` as the start of a
command's output. They travel with the line into history and through reflow (stored as
``grid.LINE_START_PROMPT`` / ``grid.LINE_START_OUTPUT`` bits on the line); copy mode reads them
from its :class:`~hmux_core.screen.snapshot.Snapshot` with ``line_flags(y)``, the set of
``"prompt"`` and ``"output"`` (the ghostty engine has the prompt marks only: Ghostty keeps no
mark for the start of output). ``capture-pane -F`` shows them as P and O. Above those two bits
a line's flags also keep the marks as tmux's development tree records them, with the cursor
columns of each and the exit status of ``D`` (``grid.osc133_data``, capture-pane -R); every
OSC 133 sequence is reported as an ``("osc133", param)`` event for the pane's shell
integration (:mod:`hmux_core.shell`). The python engine does both; the ghostty engine neither.

Hyperlinks (OSC 8) are part of a cell's style id (``hyperlinks`` holds the URIs, tmux's
numbering and its 5000-link limit), so they cost nothing where there are none; ``capture(
escapes=True)`` and ``capture(hyperlinks=True)`` show them as tmux does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from .snapshot import Snapshot

#: ``(attr, fg, bg, us)`` in tmux's encoding; see :mod:`hmux_core.screen.cells`.
Style = tuple[int, int, int, int]


@runtime_checkable
class Engine(Protocol):
    """A terminal emulator holding one pane's screen, alternate screen and history."""

    #: Engine name for introspection (``#{pane_engine}``, ``hmux doctor``).
    name: str

    cols: int
    rows: int

    # -- cursor and screen state (read by format variables) -----------------------------------
    cursor_x: int
    cursor_y: int
    cursor_visible: bool
    cursor_style: int  # DECSCUSR value, 0 = default
    cursor_blinking: bool  # DECSCUSR odd values, ?12
    title: str  # OSC 0/2 title (pane_title)
    path: str  # OSC 7 current directory, "" if never set
    alternate_on: bool
    alternate_saved_x: int
    alternate_saved_y: int
    scroll_region_upper: int
    scroll_region_lower: int
    insert_mode: bool  # IRM (insert_flag)
    keypad_cursor: bool  # DECCKM (keypad_cursor_flag)
    keypad: bool  # DECKPAM (keypad_flag)
    origin_mode: bool  # DECOM (origin_flag)
    wrap_mode: bool  # DECAWM (wrap_flag)
    mouse_standard: bool  # 1000
    mouse_button: bool  # 1002
    mouse_any: bool  # 1003 (tmux's mouse_all_flag; mouse_any_flag is any of the three)
    mouse_utf8: bool  # 1005
    mouse_sgr: bool  # 1006
    bracketed_paste: bool  # 2004
    focus_events: bool  # 1004
    extended_keys: bool  # CSI > 4 ; 1 m (MODE_KEYS_EXTENDED)
    extended_keys_2: bool  # CSI > 4 ; 2 m (MODE_KEYS_EXTENDED_2)
    extended_keys_mode: int  # 0, 1 or 2: which of the two (pane_key_mode)
    history_limit: int  # writable: history-limit changes apply to new lines
    revision: int  # bumped on every feed() that changed something
    progress_state: int  # OSC 9;4: 0 hidden, 1 normal, 2 error, 3 indeterminate, 4 paused
    progress: int  # OSC 9;4 percentage (kept while indeterminate)
    sync: bool  # ?2026 synchronized output on (ends by itself after one second)
    theme_updates: bool  # ?2031: the application wants dark/light reports
    cursor_blinking_set: bool  # ?12 was set or reset since the last DECSCUSR 0

    # -- answers only the pane can give (optional: an engine without them ignores the query) ----
    #: ``(palette_fg, palette_bg) -> (fg, bg)``: tmux's tty_default_colours, window-style and
    #: window-active-style over the pane's palette, for OSC 10/11 ``?`` (no reply for default 8).
    #: default_colours: Callable[[int, int], tuple[int, int]] | None
    #: ``() -> bytes | None``: the top paste buffer for OSC 52 ``?``, None unless
    #: set-clipboard is on and get-clipboard is buffer. The reply is queued in order with the
    #: engine's other replies.
    #: clipboard_query: Callable[[], bytes | None] | None
    #: ``() -> (fg, bg)``: the colours an attached client's terminal reported (-1 unknown), for
    #: OSC 10/11 ``?`` when the pane's styles are default.
    #: client_colours: Callable[[], tuple[int, int]] | None
    #: ``() -> int``: window_pane_get_theme, 1 dark, 2 light, 0 unknown (DSR 996, mode 2031).
    #: theme_query: Callable[[], int] | None

    # -- pane options the model keeps in sync ---------------------------------------------------
    scroll_on_clear: bool  # scroll-on-clear: ED 2 moves the screen into history
    alternate_screen: bool  # alternate-screen: 1049/47/1047 are honoured
    allow_set_title: bool  # allow-set-title: OSC 0/2 and APC may set the title
    default_cursor_style: int  # cursor-style as DECSCUSR's number (DECRQM ?12, DECRQSS)
    default_cursor_colour: int  # cursor-colour (OSC 12 ? when the pane set none)
    extended_keys_option: int  # extended-keys: 0 off, 1 on, 2 always
    cell_pixels: tuple[int, int]  # the window's cell size in pixels (CSI 14/15/16 t)

    # -- input ---------------------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        """Parse a chunk of child output. Must never raise, whatever the bytes.

        Sequences and UTF-8 characters split across calls are handled: parser state persists.
        """

    def resize(self, cols: int, rows: int) -> None:
        """tmux's pane resize: height rules, then reflow of wrapped lines if the width changed
        (no reflow while the alternate screen is active)."""

    def reset(self) -> None:
        """Full terminal reset (send-keys -R / RIS)."""

    def reinit(self) -> None:
        """The screen a respawned pane starts with: visible lines blank, cursor home, default
        modes and a fresh parser; history and title are kept (tmux's screen_reinit)."""

    def take_replies(self) -> bytes:
        """Bytes to write back to the child (DA1/DA2/DSR/CPR answers), cleared on read."""

    def take_events(self) -> list[tuple[str, object]]:
        """Events since the last call: ("bell", None), ("title", str), ("path", str),
        ("rename", str) for ``ESC k name ESC \\`` (apply only if allow-rename),
        ("clipboard", str) with the raw OSC 52 payload ``Pc;base64`` (apply per set-clipboard;
        queries are answered through ``clipboard_query`` instead), ("passthrough", bytes)
        with the undoubled payload of ``DCS tmux; ... ST`` (forward per allow-passthrough),
        ("progress", (state, percent)) for OSC 9;4, ("sync", bool) when synchronized output
        starts or ends (redraw the pane at the end), ("osc133", param) for each OSC 133
        sequence (``param`` as ``D;0``)."""

    def sync_remaining(self) -> float | None:
        """Seconds until synchronized output times out (redraw then), None when it is off."""

    def send_theme_update(self) -> bytes:
        """Mode 2031's report (``CSI ? 997 ; 1|2 n``) if the theme changed since the last one
        (window_pane_send_theme_update); the server writes it to the pane."""

    def apply_history_limit(self, limit: int) -> None:
        """A history-limit changed for this pane: the oldest lines beyond it go at once."""

    def take_dirty(self) -> set[int]:
        """Visible rows changed since the last call, for the renderer."""

    # -- history -------------------------------------------------------------------------------
    @property
    def history_size(self) -> int: ...

    def grid_stats(self) -> tuple[int, int, int]:
        """(lines, cells, extended cells) as tmux's grid would hold them (history_bytes)."""
        ...

    def history_bytes(self) -> int:
        """Approximate bytes held by history (tmux's history_bytes)."""

    def clear_history(self) -> None: ...

    #: Beyond tmux 3.7b (the seed's history_added, history_collected, history_generation):
    #: lines pushed into history, lines dropped from its top by collection, and a number that
    #: advances when the lines already in history change otherwise (cleared, reflowed, taken
    #: back onto the screen by a resize).
    history_added: int
    history_collected: int
    history_generation: int

    # -- reading -------------------------------------------------------------------------------
    def capture(
        self,
        start: int | None = None,
        end: int | None = None,
        *,
        escapes: bool = False,
        join: bool = False,
        trailing: bool = False,
        octal: bool = False,
        alternate: bool = False,
        used_only: bool = False,
        line_numbers: bool = False,
        line_flags: bool = False,
        hyperlinks: bool = False,
    ) -> list[str]:
        """Lines exactly as ``capture-pane -p`` prints them (without the final newlines).

        ``start``/``end`` are tmux line numbers: 0 is the first visible row, negative numbers reach
        into history, ``None`` means the default (visible top / visible bottom); callers map ``-``
        to ``-history_size`` / ``rows - 1``. ``escapes`` = -e, ``join`` = -J, ``trailing`` = -N,
        ``octal`` = -C, ``alternate`` = -a (the saved main screen while the alternate is active).
        ``used_only`` = -T (no cells past the last used one), ``line_numbers`` = -L,
        ``line_flags`` = -F, ``hyperlinks`` = -H (the lines' URIs instead of their text; lines
        without any are left out).
        ``"\\n".join(lines) + "\\n"`` is byte-identical to tmux's output. With ``alternate`` and
        no alternate screen active, raises :class:`hmux_core.screen.NoAlternateScreen` (its
        message is tmux's error text, "no alternate screen").
        """

    def tail(self, n: int) -> list[str]:
        """The last ``n`` visible rows as plain text, trailing blanks stripped (plugins read this)."""

    def cursor_character(self) -> str: ...

    def tabs(self) -> list[int]:
        """Columns of the tab stops (pane_tabs)."""

    def search(self, pattern: str, regex: bool, ignore_case: bool) -> int:
        """``#{C:}``: the first visible line (1-based) that matches, else 0."""

    def snapshot(self) -> Snapshot:
        """A frozen copy of history and the visible lines with the cursor (copy mode reads
        it: output arriving later must not move what is being selected)."""

    def row_links(self, y: int) -> list[tuple[int, int, str, str]]:
        """Hyperlinks on visible row ``y``: ``(first column, end column, URI, id)``, the id
        tmux sends the outer terminal (``tmux<hex>``), for drawing OSC 8 to a terminal with the
        hyperlinks feature."""

    def row_runs(self, y: int) -> list[tuple[str, Style]]:
        """Visible row ``y`` as text runs with their style, covering every column.

        Wide characters appear once (they cover two columns); cleared cells keep their
        background colour.
        """
