"""Key tables and key bindings, as tmux 3.7b's key-bindings.c.

A server has named key tables (``root``, ``prefix``, ``copy-mode``, ``copy-mode-vi`` and any a user
creates with ``bind -T``); each maps a key code (without flag bits, see :mod:`hmux_core.keys`) to a
:class:`Binding`: a built command list, an optional note (``-N``) and the repeat flag (``-r``).
tmux keeps both in red-black trees, so tables list in ``strcmp`` order of their names and bindings
in order of tmux's key codes; :func:`tmux_key_order` gives that order for hmux's codes (they differ
only for Unicode keys).

The defaults are the very command strings tmux's ``key_bindings_init`` runs, parsed by our
command parser and bound by the same code ``bind-key`` uses, so ``list-keys`` prints them as tmux.

Entry points for attached clients (no drawing or terminal code lives here):

* :meth:`KeyTables.lookup` - the binding of a key in a table, with tmux's ``Any`` fallback;
* :func:`handle_key` - tmux's ``server_client_key_callback`` table walk (prefix, repeat, back to
  the root table, whether the key goes to the pane), as a pure function of the client's state;
* :func:`dispatch` - run a binding's commands for a client (``key_bindings_dispatch``);
* :func:`mode_key_binding` - what ``send-keys`` runs for a key sent to a pane in a mode.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import keys as K
from .commands.queue import QueueState

if TYPE_CHECKING:
    from .commands.grammar import CommandList

# -- tmux's default bindings (key_bindings_init), as the text a user would type -----------------

_SESSION_MENU = (
    " 'Next' 'n' {switch-client -n}"
    " 'Previous' 'p' {switch-client -p}"
    " ''"
    " 'Renumber' 'N' {move-window -r}"
    " 'Rename' 'r' {command-prompt -I \"#S\" {rename-session -- '%%'}}"
    " 'Detach' 'd' {detach-client}"
    " ''"
    " 'New Session' 's' {new-session}"
    " 'New Window' 'w' {new-window}"
)
_WINDOW_MENU = (
    " '#{?#{>:#{session_windows},1},,-}Swap Left' 'l' {swap-window -t:-1}"
    " '#{?#{>:#{session_windows},1},,-}Swap Right' 'r' {swap-window -t:+1}"
    " '#{?pane_marked_set,,-}Swap Marked' 's' {swap-window}"
    " ''"
    " 'Kill' 'X' {kill-window}"
    " 'Respawn' 'R' {respawn-window -k}"
    " '#{?pane_marked,Unmark,Mark}' 'm' {select-pane -m}"
    " 'Rename' 'n' {command-prompt -FI \"#W\" {rename-window -t '#{window_id}' -- '%%'}}"
    " ''"
    " 'New After' 'w' {new-window -a}"
    " 'New At End' 'W' {new-window}"
)
_IN_MODE = "#{m/r:(copy|view)-mode,#{pane_mode}}"
_TILED = "#{!:#{pane_floating_flag}}"
_PANE_MENU = (
    f" '#{{?{_IN_MODE},Go To Top,}}' '<' {{send -X history-top}}"
    f" '#{{?{_IN_MODE},Go To Bottom,}}' '>' {{send -X history-bottom}}"
    " ''"
    " '#{?#{&&:#{buffer_size},#{!:#{pane_in_mode}}},Paste #[underscore]#{=/9/...:buffer_sample},}'"
    " 'p' {paste-buffer}"
    " ''"
    " '#{?mouse_word,Search For #[underscore]#{=/9/...:mouse_word},}' 'C-r'"
    f" {{if -F '#{{?{_IN_MODE},0,1}}' 'copy-mode -t=';"
    " send -Xt= search-backward -- \"#{q:mouse_word}\"}"
    " '#{?mouse_word,Type #[underscore]#{=/9/...:mouse_word},}' 'C-y'"
    " {copy-mode -q; send-keys -l -- \"#{q:mouse_word}\"}"
    " '#{?mouse_word,Copy #[underscore]#{=/9/...:mouse_word},}' 'c'"
    " {copy-mode -q; set-buffer -- \"#{q:mouse_word}\"}"
    " '#{?mouse_line,Copy Line,}' 'l' {copy-mode -q; set-buffer -- \"#{q:mouse_line}\"}"
    " ''"
    " '#{?mouse_hyperlink,Type #[underscore]#{=/9/...:mouse_hyperlink},}' 'C-h'"
    " {copy-mode -q; send-keys -l -- \"#{q:mouse_hyperlink}\"}"
    " '#{?mouse_hyperlink,Copy #[underscore]#{=/9/...:mouse_hyperlink},}' 'h'"
    " {copy-mode -q; set-buffer -- \"#{q:mouse_hyperlink}\"}"
    " ''"
    f" '#{{?{_TILED},Horizontal Split,}}' 'h' {{split-window -h}}"
    f" '#{{?{_TILED},Vertical Split,}}' 'v' {{split-window -v}}"
    " ''"
    f" '#{{?#{{&&:{_TILED},#{{>:#{{window_panes}},1}}}},Swap Up,}}' 'u' {{swap-pane -U}}"
    f" '#{{?#{{&&:{_TILED},#{{>:#{{window_panes}},1}}}},Swap Down,}}' 'd' {{swap-pane -D}}"
    " '#{?pane_marked_set,,-}Swap Marked' 's' {swap-pane}"
    " ''"
    " 'Kill' 'X' {kill-pane}"
    " 'Respawn' 'R' {respawn-pane -k}"
    " '#{?pane_marked,Unmark,Mark}' 'm' {select-pane -m}"
    " '#{?#{>:#{window_panes},1},,-}#{?window_zoomed_flag,Unzoom,Zoom}' 'z' {resize-pane -Z}"
)
#: The default menus (display-menu arguments after the title), for whoever shows them.
DEFAULT_MENUS: dict[str, str] = {
    "session": _SESSION_MENU, "window": _WINDOW_MENU, "pane": _PANE_MENU,
}

_MODE_OR_MOUSE = "'#{||:#{pane_in_mode},#{mouse_any_flag}}'"
_REPEAT_PROMPT = "command-prompt -Np'(repeat)' -I{n} {{ send -N '%%' }}"

_PREFIX = [
    "bind -N 'Send the prefix key' C-b { send-prefix }",
    "bind -N 'Rotate through the panes' C-o { rotate-window }",
    "bind -N 'Suspend the current client' C-z { suspend-client }",
    "bind -N 'Select next layout' Space { next-layout }",
    "bind -N 'Break pane to a new window' ! { break-pane }",
    "bind -N 'Split window vertically' '\"' { split-window }",
    "bind -N 'List all paste buffers' '#' { list-buffers }",
    "bind -N 'Rename current session' '$' { command-prompt -I'#S' { rename-session -- '%%' } }",
    "bind -N 'Split window horizontally' % { split-window -h }",
    "bind -N 'Kill current window' & { confirm-before -p\"kill-window #W? (y/n)\" kill-window }",
    "bind -N 'Prompt for window index to select' \"'\""
    " { command-prompt -T window-target -pindex { select-window -t ':%%' } }",
    "bind -N 'New floating pane' * { new-pane }",
    "bind -N 'Switch to previous client' ( { switch-client -p }",
    "bind -N 'Switch to next client' ) { switch-client -n }",
    "bind -N 'Rename current window' , { command-prompt -I'#W' { rename-window -- '%%' } }",
    "bind -N 'Delete the most recent paste buffer' - { delete-buffer }",
    "bind -N 'Move the current window' . { command-prompt -T target { move-window -t '%%' } }",
    "bind -N 'Describe key binding' '/' { command-prompt -kpkey  { list-keys -1N '%%' } }",
    *(f"bind -N 'Select window {i}' {i} {{ select-window -t:={i} }}" for i in range(10)),
    "bind -N 'Prompt for a command' : { command-prompt }",
    "bind -N 'Move to the previously active pane' \\; { last-pane }",
    "bind -N 'Choose a paste buffer from a list' = { choose-buffer -Z }",
    "bind -N 'List key bindings' ? { list-keys -N }",
    "bind -N 'Choose and detach a client from a list' D { choose-client -Z }",
    "bind -N 'Spread panes out evenly' E { select-layout -E }",
    "bind -N 'Switch to the last client' L { switch-client -l }",
    "bind -N 'Clear the marked pane' M { select-pane -M }",
    "bind -N 'Enter copy mode' [ { copy-mode }",
    "bind -N 'Paste the most recent paste buffer' ] { paste-buffer -p }",
    "bind -N 'Create a new window' c { new-window }",
    "bind -N 'Detach the current client' d { detach-client }",
    "bind -N 'Search for a pane' f { command-prompt { find-window -Z -- '%%' } }",
    "bind -N 'Display window information' i { display-message }",
    "bind -N 'Select the previously current window' l { last-window }",
    "bind -N 'Toggle the marked pane' m { select-pane -m }",
    "bind -N 'Select the next window' n { next-window }",
    "bind -N 'Select the next pane' o { select-pane -t:.+ }",
    "bind -N 'Customize options' C { customize-mode -Z }",
    "bind -N 'Select the previous window' p { previous-window }",
    "bind -N 'Display pane numbers' q { display-panes }",
    "bind -N 'Redraw the current client' r { refresh-client }",
    "bind -N 'Choose a session from a list' s { choose-tree -Zs }",
    "bind -N 'Show a clock' t { clock-mode }",
    "bind -N 'Choose a window from a list' w { choose-tree -Zw }",
    "bind -N 'Kill the active pane' x { confirm-before -p\"kill-pane #P? (y/n)\" kill-pane }",
    "bind -N 'Zoom the active pane' z { resize-pane -Z }",
    "bind -N 'Swap the active pane with the pane above' '{' { swap-pane -U }",
    "bind -N 'Swap the active pane with the pane below' '}' { swap-pane -D }",
    "bind -N 'Show messages' '~' { show-messages }",
    "bind -N 'Enter copy mode and scroll up' PPage { copy-mode -u }",
    "bind -N 'Select the pane above the active pane' -r Up { select-pane -U }",
    "bind -N 'Select the pane below the active pane' -r Down { select-pane -D }",
    "bind -N 'Select the pane to the left of the active pane' -r Left { select-pane -L }",
    "bind -N 'Select the pane to the right of the active pane' -r Right { select-pane -R }",
    "bind -N 'Set the even-horizontal layout' M-1 { select-layout even-horizontal }",
    "bind -N 'Set the even-vertical layout' M-2 { select-layout even-vertical }",
    "bind -N 'Set the main-horizontal layout' M-3 { select-layout main-horizontal }",
    "bind -N 'Set the main-vertical layout' M-4 { select-layout main-vertical }",
    "bind -N 'Select the tiled layout' M-5 { select-layout tiled }",
    "bind -N 'Set the main-horizontal-mirrored layout' M-6"
    " { select-layout main-horizontal-mirrored }",
    "bind -N 'Set the main-vertical-mirrored layout' M-7 { select-layout main-vertical-mirrored }",
    "bind -N 'Select the next window with an alert' M-n { next-window -a }",
    "bind -N 'Rotate through the panes in reverse' M-o { rotate-window -D }",
    "bind -N 'Select the previous window with an alert' M-p { previous-window -a }",
    "bind -N 'Move the visible part of the window up' -r S-Up { refresh-client -U 10 }",
    "bind -N 'Move the visible part of the window down' -r S-Down { refresh-client -D 10 }",
    "bind -N 'Move the visible part of the window left' -r S-Left { refresh-client -L 10 }",
    "bind -N 'Move the visible part of the window right' -r S-Right { refresh-client -R 10 }",
    "bind -N 'Reset so the visible part of the window follows the cursor' -r DC"
    " { refresh-client -c }",
    "bind -N 'Resize the pane up by 5' -r M-Up { resize-pane -U 5 }",
    "bind -N 'Resize the pane down by 5' -r M-Down { resize-pane -D 5 }",
    "bind -N 'Resize the pane left by 5' -r M-Left { resize-pane -L 5 }",
    "bind -N 'Resize the pane right by 5' -r M-Right { resize-pane -R 5 }",
    "bind -N 'Resize the pane up' -r C-Up { resize-pane -U }",
    "bind -N 'Resize the pane down' -r C-Down { resize-pane -D }",
    "bind -N 'Resize the pane left' -r C-Left { resize-pane -L }",
    "bind -N 'Resize the pane right' -r C-Right { resize-pane -R }",
]

_WINDOW_MENU_CMD = ("display-menu -t= -xW -yW -T '#[align=centre]#{window_index}:#{window_name}' "
                    + _WINDOW_MENU + "}")
_SESSION_MENU_CMD = ("display-menu -t= -xM -yW -T '#[align=centre]#{session_name}' "
                     + _SESSION_MENU + " }")
_PANE_MENU_CMD = ("display-menu -t= -xM -yM -T '#[align=centre]#{pane_index} (#{pane_id})' "
                  + _PANE_MENU + " }")
_MENUS_AND_MOUSE = [
    "bind -N 'Display window menu' < { display-menu -xW -yW"
    " -T '#[align=centre]#{window_index}:#{window_name}' " + _WINDOW_MENU + " }",
    "bind -N 'Display pane menu' > { display-menu -xP -yP"
    " -T '#[align=centre]#{pane_index} (#{pane_id})' " + _PANE_MENU + " }",
    "bind -n MouseDown1Pane { select-pane -t=; send -M }",
    "bind -n C-MouseDown1Pane { swap-pane -s@ }",
    f"bind -n MouseDrag1Pane {{ if -F {_MODE_OR_MOUSE} {{ send -M }} {{ copy-mode -M }} }}",
    "bind -n WheelUpPane { if -F '#{||:#{alternate_on},#{pane_in_mode},#{mouse_any_flag}}'"
    " { send -M } { copy-mode -e } }",
    f"bind -n MouseDown2Pane {{ select-pane -t=; if -F {_MODE_OR_MOUSE} {{ send -M }}"
    " { paste -p } }",
    f"bind -n DoubleClick1Pane {{ select-pane -t=; if -F {_MODE_OR_MOUSE} {{ send -M }}"
    " { copy-mode -H; send -X select-word; run -d0.3; send -X copy-pipe-and-cancel } }",
    f"bind -n TripleClick1Pane {{ select-pane -t=; if -F {_MODE_OR_MOUSE} {{ send -M }}"
    " { copy-mode -H; send -X select-line; run -d0.3; send -X copy-pipe-and-cancel } }",
    "bind -n MouseDown1Border { select-pane -M }",
    "bind -n MouseDrag1Border { resize-pane -M }",
    "bind -n MouseDown1Status { switch-client -t= }",
    "bind -n C-MouseDown1Status { swap-window -t@ }",
    "bind -n MouseDown1Control9 { display-menu -t= -xM -yM -O -T 'Kill pane #{pane_index}?'"
    " 'Yes' 'y' { kill-pane -t= } 'No' 'n' {}}",
    "bind -n MouseDown1Control8 { resize-pane -Z }",
    "bind -n WheelDownStatus { next-window }",
    "bind -n WheelUpStatus { previous-window }",
    "bind -n MouseDown3StatusLeft { " + _SESSION_MENU_CMD,
    "bind -n M-MouseDown3StatusLeft { " + _SESSION_MENU_CMD,
    "bind -n MouseDown3Status { " + _WINDOW_MENU_CMD,
    "bind -n M-MouseDown3Status { " + _WINDOW_MENU_CMD,
    "bind -n MouseDown3Pane { if -Ft= '#{||:#{mouse_any_flag},#{&&:#{pane_in_mode},"
    f"#{{?{_IN_MODE},0,1}}}}}}' {{ select-pane -t=; send -M }} {{ " + _PANE_MENU_CMD + " }",
    "bind -n M-MouseDown3Pane { " + _PANE_MENU_CMD,
    "bind -n MouseDown1ScrollbarUp { if -Ft= '#{pane_in_mode}' { send -X page-up }"
    " {copy-mode -u } }",
    "bind -n MouseDown1ScrollbarDown { if -Ft= '#{pane_in_mode}' { send -X page-down }"
    " {copy-mode -d } }",
    "bind -n MouseDrag1ScrollbarSlider { if -Ft= '#{pane_in_mode}' { send -X scroll-to-mouse }"
    " { copy-mode -S } }",
]


def _mode(table: str, key: str, command: str) -> str:
    return f"bind -T{table} {key} {{ {command} }}"


def _emacs() -> list[str]:
    x = "send -X "
    rows: list[tuple[str, str]] = [
        ("C-Space", x + "begin-selection"), ("C-a", x + "start-of-line"), ("C-c", x + "cancel"),
        ("C-e", x + "end-of-line"), ("C-f", x + "cursor-right"), ("C-b", x + "cursor-left"),
        ("C-g", x + "clear-selection"), ("C-k", x + "copy-pipe-end-of-line-and-cancel"),
        ("C-l", x + "recentre-top-bottom"), ("M-l", x + "cursor-centre-horizontal"),
        ("C-n", x + "cursor-down"), ("C-p", x + "cursor-up"),
        ("C-r", "command-prompt -T search -ip'(search up)' -I'#{pane_search_string}'"
                " { send -X search-backward-incremental -- '%%' }"),
        ("C-s", "command-prompt -T search -ip'(search down)' -I'#{pane_search_string}'"
                " { send -X search-forward-incremental -- '%%' }"),
        ("C-v", x + "page-down"), ("C-w", x + "copy-pipe-and-cancel"), ("Escape", x + "cancel"),
        ("C-[", x + "cancel"), ("Space", x + "page-down"), (",", x + "jump-reverse"),
        ("\\;", x + "jump-again"),
        ("F", "command-prompt -1p'(jump backward)' { send -X jump-backward -- '%%' }"),
        ("N", x + "search-reverse"), ("P", x + "toggle-position"), ("R", x + "rectangle-toggle"),
        ("T", "command-prompt -1p'(jump to backward)' { send -X jump-to-backward -- '%%' }"),
        ("X", x + "set-mark"),
        ("f", "command-prompt -1p'(jump forward)' { send -X jump-forward -- '%%' }"),
        ("g", "command-prompt -p'(goto line)' { send -X goto-line -- '%%' }"),
        ("n", x + "search-again"), ("q", x + "cancel"), ("r", x + "refresh-from-pane"),
        ("t", "command-prompt -1p'(jump to forward)' { send -X jump-to-forward -- '%%' }"),
        ("Home", x + "start-of-line"), ("End", x + "end-of-line"),
    ]
    out = [_mode("copy-mode", k, c) for k, c in rows]
    out.append("bind -Tcopy-mode MouseDown1Pane select-pane")
    rows = [
        ("MouseDrag1Pane", "select-pane; send -X begin-selection"),
        ("MouseDragEnd1Pane", x + "copy-pipe-and-cancel"),
        ("WheelUpPane", "select-pane; send -N5 -X scroll-up"),
        ("WheelDownPane", "select-pane; send -N5 -X scroll-down"),
        ("DoubleClick1Pane", "select-pane; send -X select-word; run -d0.3;"
                             " send -X copy-pipe-and-cancel"),
        ("TripleClick1Pane", "select-pane; send -X select-line; run -d0.3;"
                             " send -X copy-pipe-and-cancel"),
        ("NPage", x + "page-down"), ("PPage", x + "page-up"), ("Up", x + "cursor-up"),
        ("Down", x + "cursor-down"), ("Left", x + "cursor-left"), ("Right", x + "cursor-right"),
        *((f"M-{n}", _REPEAT_PROMPT.format(n=n)) for n in range(1, 10)),
        ("M-<", x + "history-top"), ("M->", x + "history-bottom"), ("M-R", x + "top-line"),
        ("M-b", x + "previous-word"), ("C-M-b", x + "previous-matching-bracket"),
        ("M-f", x + "next-word-end"), ("C-M-f", x + "next-matching-bracket"),
        ("M-m", x + "back-to-indentation"), ("M-r", x + "middle-line"), ("M-v", x + "page-up"),
        ("M-w", x + "copy-pipe-and-cancel"), ("M-x", x + "jump-to-mark"),
        ("'M-{'", x + "previous-paragraph"), ("'M-}'", x + "next-paragraph"),
        ("M-Up", x + "halfpage-up"), ("M-Down", x + "halfpage-down"),
        ("C-Up", x + "scroll-up"), ("C-Down", x + "scroll-down"),
    ]
    out += [_mode("copy-mode", k, c) for k, c in rows]
    return out


def _vi() -> list[str]:
    x = "send -X "
    rows: list[tuple[str, str]] = [
        ("'#'", "send -FX search-backward -- '#{copy_cursor_word}'"),
        ("*", "send -FX search-forward -- '#{copy_cursor_word}'"),
        ("C-c", x + "cancel"), ("C-d", x + "halfpage-down"), ("C-e", x + "scroll-down"),
        ("C-b", x + "page-up"), ("C-f", x + "page-down"), ("C-h", x + "cursor-left"),
        ("C-j", x + "copy-pipe-and-cancel"), ("Enter", x + "copy-pipe-and-cancel"),
        ("C-u", x + "halfpage-up"), ("C-v", x + "rectangle-toggle"), ("C-y", x + "scroll-up"),
        ("Escape", x + "clear-selection"), ("C-[", x + "clear-selection"),
        ("Space", x + "begin-selection"), ("'$'", x + "end-of-line"), (",", x + "jump-reverse"),
        ("/", "command-prompt -T search -p'(search down)' { send -X search-forward -- '%%' }"),
        ("0", x + "start-of-line"),
        *((str(n), _REPEAT_PROMPT.format(n=n)) for n in range(1, 10)),
        (":", "command-prompt -p'(goto line)' { send -X goto-line -- '%%' }"),
        ("\\;", x + "jump-again"),
        ("?", "command-prompt -T search -p'(search up)' { send -X search-backward -- '%%' }"),
        ("A", x + "append-selection-and-cancel"), ("B", x + "previous-space"),
        ("D", x + "copy-pipe-end-of-line-and-cancel"), ("E", x + "next-space-end"),
        ("F", "command-prompt -1p'(jump backward)' { send -X jump-backward -- '%%' }"),
        ("G", x + "history-bottom"), ("H", x + "top-line"), ("J", x + "scroll-down"),
        ("K", x + "scroll-up"), ("L", x + "bottom-line"), ("M", x + "middle-line"),
        ("N", x + "search-reverse"), ("P", x + "toggle-position"),
        ("T", "command-prompt -1p'(jump to backward)' { send -X jump-to-backward -- '%%' }"),
        ("V", x + "select-line"), ("W", x + "next-space"), ("X", x + "set-mark"),
        ("^", x + "back-to-indentation"), ("b", x + "previous-word"), ("e", x + "next-word-end"),
        ("f", "command-prompt -1p'(jump forward)' { send -X jump-forward -- '%%' }"),
        ("g", x + "history-top"), ("h", x + "cursor-left"), ("j", x + "cursor-down"),
        ("k", x + "cursor-up"), ("z", x + "scroll-middle"), ("l", x + "cursor-right"),
        ("n", x + "search-again"), ("o", x + "other-end"), ("q", x + "cancel"),
        ("r", x + "refresh-from-pane"),
        ("t", "command-prompt -1p'(jump to forward)' { send -X jump-to-forward -- '%%' }"),
        ("v", x + "rectangle-toggle"), ("w", x + "next-word"),
        ("'{'", x + "previous-paragraph"), ("'}'", x + "next-paragraph"),
        ("%", x + "next-matching-bracket"), ("Home", x + "start-of-line"),
        ("End", x + "end-of-line"),
        ("MouseDown1Pane", "select-pane"),
        ("MouseDrag1Pane", "select-pane; send -X begin-selection"),
        ("MouseDragEnd1Pane", x + "copy-pipe-and-cancel"),
        ("WheelUpPane", "select-pane; send -N5 -X scroll-up"),
        ("WheelDownPane", "select-pane; send -N5 -X scroll-down"),
        ("DoubleClick1Pane", "select-pane; send -X select-word; run -d0.3;"
                             " send -X copy-pipe-and-cancel"),
        ("TripleClick1Pane", "select-pane; send -X select-line; run -d0.3;"
                             " send -X copy-pipe-and-cancel"),
        ("BSpace", x + "cursor-left"), ("NPage", x + "page-down"), ("PPage", x + "page-up"),
        ("Up", x + "cursor-up"), ("Down", x + "cursor-down"), ("Left", x + "cursor-left"),
        ("Right", x + "cursor-right"), ("M-x", x + "jump-to-mark"), ("C-Up", x + "scroll-up"),
        ("C-Down", x + "scroll-down"),
    ]
    return [_mode("copy-mode-vi", k, c) for k, c in rows]


#: The command strings of tmux 3.7b's key_bindings_init, in its order.
DEFAULT_BINDINGS: tuple[str, ...] = (*_PREFIX, *_MENUS_AND_MOUSE, *_emacs(), *_vi())

# -- key order ----------------------------------------------------------------------------------


def tmux_key_order(key: int) -> int:
    """The key code tmux would use for ``key``, for sorting bindings as tmux's tree does
    (:func:`hmux_core.keys.tmux_code`)."""
    return K.tmux_code(key)


def _name_order(name: str) -> bytes:
    return name.encode("utf-8", "surrogateescape")


# -- tables -------------------------------------------------------------------------------------


@dataclass
class Binding:
    """One key binding (tmux's struct key_binding); ``key`` carries no flag bits, ``table`` is
    the name of the table it is in (list-keys shows it)."""

    key: int
    cmdlist: CommandList
    note: str | None = None
    repeat: bool = False
    table: str = ""


@dataclass
class KeyTable:
    """A named table: its bindings and the defaults it had after the built-in bindings."""

    name: str
    bindings: dict[int, Binding] = field(default_factory=dict)
    defaults: dict[int, Binding] = field(default_factory=dict)
    #: When a client last switched to this table (time.monotonic(); prefix-timeout).
    activity_time: float = 0.0

    def get(self, key: int) -> Binding | None:
        return self.bindings.get(key & ~K.KEYC_MASK_FLAGS)

    def __iter__(self) -> Iterator[Binding]:
        """Bindings in tmux's order (by key code)."""
        return iter(sorted(self.bindings.values(), key=lambda b: tmux_key_order(b.key)))

    def __len__(self) -> int:
        return len(self.bindings)


class KeyTables:
    """All key tables of a server (tmux's global key_tables tree)."""

    def __init__(self) -> None:
        self.tables: dict[str, KeyTable] = {}

    def get_table(self, name: str, create: bool = False) -> KeyTable | None:
        """key_bindings_get_table: the table, created empty if asked."""
        table = self.tables.get(name)
        if table is None and create:
            table = self.tables[name] = KeyTable(name)
        return table

    def __iter__(self) -> Iterator[KeyTable]:
        """Tables in tmux's order (strcmp of the names)."""
        return iter(sorted(self.tables.values(), key=lambda t: _name_order(t.name)))

    def add(self, name: str, key: int, note: str | None, repeat: bool,
            cmdlist: CommandList | None) -> None:
        """key_bindings_add: bind (replacing), or with no commands only change an existing
        binding: a note given replaces its note, ``-r`` makes it repeat (nothing is taken away).

        The table is created either way, so ``bind -T new x`` leaves an empty table behind.
        """
        table = self.get_table(name, create=True)
        assert table is not None
        key &= ~K.KEYC_MASK_FLAGS
        if cmdlist is None:
            bd = table.bindings.get(key)
            if bd is not None:
                if note is not None:
                    bd.note = note
                if repeat:
                    bd.repeat = True
            return
        table.bindings[key] = Binding(key, cmdlist, note, repeat, table.name)

    def remove(self, name: str, key: int) -> None:
        """key_bindings_remove: a table left with no bindings and no defaults goes away."""
        table = self.tables.get(name)
        if table is None:
            return
        if table.bindings.pop(key & ~K.KEYC_MASK_FLAGS, None) is None:
            return
        if not table.bindings and not table.defaults:
            del self.tables[name]

    def remove_table(self, name: str, clients: Iterable[Any] = ()) -> None:
        """key_bindings_remove_table; clients in that table go back to their default table
        (which makes it again, empty, when it is the one removed)."""
        self.tables.pop(name, None)
        for c in clients:
            if getattr(c, "key_table", None) == name:
                set_client_table(self, c, None)

    def reset(self, name: str, key: int) -> None:
        """key_bindings_reset: back to the default binding, or unbound if there is none."""
        table = self.tables.get(name)
        if table is None:
            return
        bd = table.get(key)
        if bd is None:
            return
        dd = table.defaults.get(bd.key)
        if dd is None:
            self.remove(name, bd.key)
            return
        table.bindings[bd.key] = Binding(dd.key, dd.cmdlist, dd.note, dd.repeat, table.name)

    def reset_table(self, name: str, clients: Iterable[Any] = ()) -> None:
        """key_bindings_reset_table: every binding back to its default."""
        table = self.tables.get(name)
        if table is None:
            return
        if not table.defaults:
            self.remove_table(name, clients)
            return
        for key in list(table.bindings):
            self.reset(name, key)

    def snapshot_defaults(self) -> None:
        """key_bindings_init_done: what is bound now is each table's default set."""
        for table in self.tables.values():
            table.defaults = {k: Binding(b.key, b.cmdlist, b.note, b.repeat, b.table)
                              for k, b in table.bindings.items()}

    def lookup(self, name: str, key: int) -> Binding | None:
        """The binding a key press finds in a table: the key itself (modifiers kept, flags
        dropped), else the table's ``Any`` binding. None if the table does not exist."""
        table = self.tables.get(name)
        if table is None:
            return None
        key0 = key & (K.KEYC_MASK_KEY | K.KEYC_MASK_MODIFIERS)
        bd = table.bindings.get(key0)
        if bd is None and key0 != K.KEYC_ANY:
            bd = table.bindings.get(K.KEYC_ANY)
        return bd


# -- the server's tables ------------------------------------------------------------------------


def parse_binding_string(server: Any, text: str) -> CommandList:
    """cmd_parse_from_string for a binding: all commands in one group. Raises CmdParseError."""
    from .commands.queue import parse_text

    return parse_text(server, text, one_group=True)


def _load_defaults(tables: KeyTables) -> None:
    """key_bindings_init: run each default ``bind`` string through the parser and bind it.

    tmux parses them before any configuration, so no user ``command-alias`` applies (none of the
    defaults names a default alias either).
    """
    from .commands.cmdparse import CmdParseError, commands_from_string
    from .commands.registry import table

    entries = table()  # first: it loads every command module (importing one early would not)
    from .commands.keys_cmds import binding_from_args

    for text in DEFAULT_BINDINGS:
        try:
            cl = commands_from_string(text, entries, environ={})
        except CmdParseError as e:  # pragma: no cover - the table is fixed
            raise RuntimeError(f"bad default key: {text}: {e}") from None
        for cmd in cl:
            args = cmd.args
            key = K.string_to_key(args.string(0) or "")
            name = args.get("T") or ("root" if args.has("n") else "prefix")
            tables.add(name, key, args.get("N"), args.has("r"),
                       binding_from_args(None, args))
    tables.snapshot_defaults()


def key_tables(server: Any) -> KeyTables:
    """The server's key tables, with tmux's defaults loaded the first time they are needed.

    Every connected client's current table exists, as in tmux where a client holds a reference
    to its table (a new client makes ``root`` again after ``unbind -a -n``).
    """
    kt: KeyTables | None = getattr(server, "key_bindings", None)
    if kt is None:
        kt = KeyTables()
        _load_defaults(kt)
        server.key_bindings = kt
    for c in getattr(server, "clients", ()):
        name = getattr(c, "key_table", None)
        if isinstance(name, str) and name not in kt.tables:
            kt.get_table(name, create=True)
    return kt


def default_table(client: Any) -> str:
    """server_client_get_key_table: the session's ``key-table`` option, else ``root``."""
    s = getattr(client, "session", None)
    if s is None:
        return "root"
    name = s.options.get("key-table")
    return str(name) if name else "root"


def set_client_table(tables: KeyTables, client: Any, name: str | None) -> None:
    """server_client_set_key_table: None means the client's default table (created if gone)."""
    if name is None:
        name = default_table(client)
    table = tables.get_table(name, create=True)
    assert table is not None
    table.activity_time = time.monotonic()
    client.key_table = name


# -- key presses (server_client_key_callback's table walk) --------------------------------------


@dataclass
class BindingState(QueueState):
    """The queue state of a key binding's commands: tmux's cmdq_state with CMDQ_STATE_REPEAT
    (``switch-client`` and ``attach`` keep the key table of a repeating binding)."""

    repeat: bool = False


@dataclass
class KeyResult:
    """What a key press does, for the attach code to carry out.

    ``binding`` is to be run with :func:`dispatch` (None: no binding ran). ``table`` and
    ``repeating`` are the client's key table and repeat flag afterwards; ``start_repeat`` asks
    for the repeat timer to be (re)started for ``repeat_time`` ms, at whose end the client goes
    back to its default table and stops repeating; ``last_key`` is the repeating binding's key
    (initial-repeat-time applies again to any other). ``forward`` passes the key to the pane;
    ``status`` means the status line shows a changed key table.
    """

    binding: Binding | None
    table: str
    repeating: bool
    start_repeat: bool = False
    forward: bool = False
    status: bool = False
    repeat_time: int = 0
    last_key: int = K.KEYC_NONE


class TableWalk:
    """A client's place in the key tables between keys: whether a binding is repeating, until
    when, and its key (initial-repeat-time). Terminal clients (hmux_core.attached) and
    terminal-less ones (hmux_core.client_keys) walk the same way with one of these each."""

    def __init__(self) -> None:
        self.repeating = False
        self.repeat_deadline = 0.0
        self.last_key = K.KEYC_NONE

    def expire(self, server: Any, client: Any) -> str:
        """The repeat timer, if it ran out, ends the repeat (back to the default table); the
        client's table now."""
        default = default_table(client)
        if self.repeat_deadline and time.monotonic() > self.repeat_deadline:
            set_client_table(key_tables(server), client, None)
            self.repeating, self.repeat_deadline = False, 0.0
        return getattr(client, "key_table", None) or default

    def walk(self, server: Any, client: Any, key: int, table: str,
             mode_table: str | None) -> KeyResult:
        """server_client_key_callback's table walk for ``key`` from ``table``; the client's
        table and repeat state are updated, what to do with the key is returned."""
        s = client.session
        kt = key_tables(server)
        res = handle_key(kt, key, table=table, default=default_table(client),
                         mode_table=mode_table, prefix=_option_key(s, "prefix"),
                         prefix2=_option_key(s, "prefix2"), repeating=self.repeating,
                         repeat_time=int(s.options.get("repeat-time")),
                         initial_repeat_time=int(s.options.get("initial-repeat-time")),
                         last_key=self.last_key, now=time.monotonic(),
                         prefix_timeout=int(server.options.get("prefix-timeout")))
        if res.table != table or getattr(client, "key_table", None) is None:
            set_client_table(kt, client, res.table)  # the table's time is when it was entered
        self.repeating = res.repeating
        self.last_key = res.last_key
        if res.start_repeat:
            self.repeat_deadline = time.monotonic() + res.repeat_time / 1000.0
        elif not res.repeating:
            self.repeat_deadline = 0.0
        return res


def _option_key(s: Any, name: str) -> int:
    """A key option (prefix, prefix2) as a key code; KEYC_NONE for None."""
    value = s.options.get(name)
    if isinstance(value, int):
        return value
    if not value or value == "None":
        return K.KEYC_NONE
    return _key_code(str(value))


@functools.lru_cache(maxsize=64)
def _key_code(name: str) -> int:
    return K.string_to_key(name)


_MOUSE_MOVES = frozenset(K.mouse_key("MouseMove", where) for where in (
    "Pane", "Status", "StatusLeft", "StatusRight", "StatusDefault", "Border"))


def handle_key(tables: KeyTables, key: int, *, table: str, default: str = "root",
               mode_table: str | None = None, prefix: int = K.KEYC_NONE,
               prefix2: int = K.KEYC_NONE, repeating: bool = False,
               repeat_time: int = 500, initial_repeat_time: int = 0,
               last_key: int = K.KEYC_NONE, prefix_timeout: int = 0,
               now: float | None = None) -> KeyResult:
    """Walk the key tables for one key press as tmux 3.7b's server_client_key_callback does.

    ``table`` is the client's current table, ``default`` its default one (:func:`default_table`),
    ``mode_table`` the key table of the active pane's mode (``copy-mode-vi`` ...) if it is in
    one. ``prefix``/``prefix2`` are key codes of the session's options (``string_to_key``).
    ``repeat_time``/``initial_repeat_time`` are the session's options, ``last_key`` the key of
    the binding that started the current repeat. ``prefix_timeout`` (ms, the server option)
    sends a client that waited that long in the prefix table back to its default table; ``now``
    (time.monotonic()) is compared with the prefix table's :attr:`KeyTable.activity_time`.
    Mouse decoding, the ``mouse`` option and paste detection come before this, in the caller.
    Missing tables are created, as tmux does when a client switches to one.
    """
    mask = K.KEYC_MASK_KEY | K.KEYC_MASK_MODIFIERS
    prefixes = {p & mask for p in (prefix, prefix2) if p & mask != K.KEYC_NONE}
    status = False
    if table == default and mode_table is not None:
        current = mode_table
        tables.get_table(current, create=True)
    else:
        current = table
    first = current
    client_table = table

    while True:  # table_changed
        key0 = key & mask
        if key0 in prefixes and current != "prefix":
            tables.get_table("prefix", create=True)
            return KeyResult(None, "prefix", repeating, status=True, last_key=last_key)
        was_repeating = repeating
        bd = tables.lookup(current, key0)
        if prefix_timeout > 0 and current == "prefix" and now is not None:
            pt = tables.get_table("prefix")
            since = pt.activity_time if pt is not None else None
            if since is not None and (now - since) * 1000 > prefix_timeout and not (
                    bd is not None and repeating and bd.repeat):
                tables.get_table(default, create=True)
                client_table = current = first = default
                status = True
                continue
        if bd is not None:
            if repeating and not bd.repeat:
                # A non-repeating key while repeating: stop, and look again from the default.
                client_table = current = first = default
                tables.get_table(default, create=True)
                repeating = False
                status = True
                continue
            repeat = 0
            if bd.repeat and repeat_time != 0:
                repeat = repeat_time
                if (not repeating or bd.key != last_key) and initial_repeat_time != 0:
                    repeat = initial_repeat_time
            if repeat != 0:
                return KeyResult(bd, client_table, True, start_repeat=True, status=True,
                                 repeat_time=repeat, last_key=bd.key)
            tables.get_table(default, create=True)
            return KeyResult(bd, default, False, status=True, last_key=last_key)
        if key in _MOUSE_MOVES:
            # Movement keys never leave the table (tmux asks for them only for the pane).
            return KeyResult(None, client_table, repeating, forward=True, status=status,
                             last_key=last_key)
        # Not found (the Any fallback is in lookup): back to the default table and try again.
        if current != default or repeating:
            tables.get_table(default, create=True)
            client_table = current = default
            if repeating:
                first = current
            repeating = False
            status = True
            continue
        if first != current and not was_repeating:
            return KeyResult(None, default, False, status=True, last_key=last_key)
        return KeyResult(None, client_table, repeating, forward=True, status=status,
                         last_key=last_key)


def mode_key_binding(tables: KeyTables, mode_table: str, key: int) -> Binding | None:
    """cmd_send_keys_inject_key: ``send-keys``/``send-prefix`` into a pane in a mode run the
    mode table's binding of the key (exact key, no ``Any``) instead of typing it."""
    table = tables.get_table(mode_table, create=True)
    assert table is not None
    return table.get(key)


def binding_items(server: Any, client: Any, bd: Binding, *, current: Any = None,
                  event: Any = None, key: int | None = None) -> list[Any] | None:
    """The queue items that run a binding for a client (key_bindings_dispatch).

    None when the client is read-only and not every command of the binding is allowed for
    read-only clients. ``current`` is the target state the commands start from (tmux's
    cmd_find_state of the key press), ``event`` the mouse event if any, ``key`` the key as
    pressed (a bare ``send-keys`` sends it, the message log names it; the binding's own key if
    not given, KEYC_NONE for none, as for bindings send-keys runs in a mode); commands see a repeating binding in ``item.state.repeat`` (CMDQ_STATE_REPEAT).
    """
    from .commands.queue import items_from

    if getattr(client, "readonly", False) and not bd.cmdlist.all_have("read-only-ok"):
        return None
    if key is None:
        key = bd.key
    state = BindingState(current=current, event=event, repeat=bd.repeat,
                         key=None if key == K.KEYC_NONE else key)
    if event is not None:
        from .mouse import formats

        state.formats.update(formats(event, server, client))
    return items_from(server, client, bd.cmdlist, state)


async def dispatch(server: Any, client: Any, bd: Binding, *, current: Any = None,
                   event: Any = None, key: int | None = None) -> int:
    """Run a binding's commands for a client, in order, as one command list.

    A refused read-only client gets tmux's ``client is read-only`` error (cmdq_error: on its
    status line, capitalised). Returns the queue's status (0, or -1 when a command failed).
    """
    from .commands.queue import CMD_RETURN_ERROR, run_items

    items = binding_items(server, client, bd, current=current, event=event, key=key)
    if items is None:
        if client is not None:
            server.status_message(client, "Client is read-only")
        return CMD_RETURN_ERROR
    return await run_items(items)
