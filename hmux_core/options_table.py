"""The tmux 3.7b option table as data: names, scopes, types, limits, defaults, separators.

This is the master description of every option; `options.py` builds the runtime stores from it.
Order matters: `show-options` lists options in table order and unique-prefix matching walks it.
"""

from __future__ import annotations

from dataclasses import dataclass

# Option value types.
STRING = "string"
NUMBER = "number"
KEY = "key"
COLOUR = "colour"
FLAG = "flag"
CHOICE = "choice"
COMMAND = "command"

# Scopes (bits, as tmux: an option may be both window and pane).
NONE = 0
SERVER = 0x1
SESSION = 0x2
WINDOW = 0x4
PANE = 0x8

# Entry flags.
IS_ARRAY = 0x1
IS_HOOK = 0x2
IS_STYLE = 0x4
#: An option tmux 3.7b does not have (the development tree's, or hmux's own from the seed; see
#: docs/extensions.md). Its entries come after every 3.7b entry, global stores hold no value
#: for it until one is set (so show-options, show-hooks and customize list it only then, and
#: unsetting a global one hides it again), reads give the table default, and a prefix only
#: matches it when it matches no 3.7b option. A server nobody configures is 3.7b's.
IS_EXTENSION = 0x8
IS_COLOUR = 0x10  # a string holding a colour (the theme options): checked like a style
#: A 3.7b colour option that the development tree made a format-valued string (cursor-colour,
#: prompt-cursor-colour, clock-mode-colour). Its default stays 3.7b's colour number, so an
#: unconfigured server shows what 3.7b shows; a value set is kept as the string supplied
#: (formats, spelling, '' for the terminal default) and checked as the development tree checks
#: IS_COLOUR strings. Readers go through options.colour_option (docs/extensions.md).
FORMAT_COLOUR = 0x20

INT_MAX = 2147483647
UINT_MAX = 4294967295


@dataclass(frozen=True, slots=True)
class OptionEntry:
    """One option's definition.

    `default` is a str for string/key/command options (and for arrays, the text that is split
    into items), an int for number/flag/colour options and the choice index for choices, or a
    tuple of item strings for arrays with a fixed default list (status-format).
    `separator` None means tmux's NULL separator: arrays split on " ,", strings append with "".
    """

    name: str
    type: str
    scope: int
    default: str | int | tuple[str, ...]
    minimum: int = 0
    maximum: int = 0
    choices: tuple[str, ...] = ()
    flags: int = 0
    separator: str | None = None
    pattern: str | None = None

    @property
    def is_array(self) -> bool:
        return bool(self.flags & IS_ARRAY)

    @property
    def is_hook(self) -> bool:
        return bool(self.flags & IS_HOOK)

    @property
    def is_style(self) -> bool:
        return bool(self.flags & IS_STYLE)

    @property
    def is_extension(self) -> bool:
        return bool(self.flags & IS_EXTENSION)


def _e(name: str, type_: str, scope: int, default: str | int | tuple[str, ...],
       **kw: object) -> OptionEntry:
    return OptionEntry(name, type_, scope, default, **kw)  # type: ignore[arg-type]


_STATUS_FORMAT_0 = (
    '#[align=left range=left #{E:status-left-style}]'
    '#[push-default]#{T;=/#{status-left-length}:status-left}'
    '#[pop-default]'
    '#[norange default]'
    '#[list=on align=#{status-justify}]'
    '#[list=left-marker]<'
    '#[list=right-marker]>'
    '#[list=on]#{W:'
    '#[range=window|#{window_index} #{E:window-status-style}#{?#{&&:#{window_last_flag},#{!=:#{E:window-status-last-style},default}}, #{E:window-status-last-style},}#{?#{&&:#{window_bell_flag},#{!=:#{E:window-status-bell-style},default}}, #{E:window-status-bell-style},#{?#{&&:#{||:#{window_activity_flag},#{window_silence_flag}},#{!=:#{E:window-status-activity-style},default}}, #{E:window-status-activity-style},}}]'
    '#[push-default]#{T:window-status-format}'
    '#[pop-default]'
    '#[norange default]#{?loop_last_flag,,#{E:window-status-separator}},'
    '#[range=window|#{window_index} list=focus #{?#{!=:#{E:window-status-current-style},default},#{E:window-status-current-style},#{E:window-status-style}}#{?#{&&:#{window_last_flag},#{!=:#{E:window-status-last-style},default}}, #{E:window-status-last-style},}#{?#{&&:#{window_bell_flag},#{!=:#{E:window-status-bell-style},default}}, #{E:window-status-bell-style},#{?#{&&:#{||:#{window_activity_flag},#{window_silence_flag}},#{!=:#{E:window-status-activity-style},default}}, #{E:window-status-activity-style},}}]'
    '#[push-default]#{T:window-status-current-format}'
    '#[pop-default]'
    '#[norange list=on default]#{?loop_last_flag,,#{E:window-status-separator}}}'
    '#[nolist align=right range=right #{E:status-right-style}]'
    '#[push-default]#{T;=/#{status-right-length}:status-right}'
    '#[pop-default]'
    '#[norange default]'
)
_STATUS_FORMAT_1 = (
    '#[align=left]#{R: ,#{n:#{session_name}}}P: '
    '#[norange default]'
    '#[list=on align=#{status-justify}]'
    '#[list=left-marker]<'
    '#[list=right-marker]>'
    '#[list=on]#{P:'
    '#[range=pane|#{pane_id} #{E:pane-status-style}]'
    '#[push-default]#{T:window-pane-status-format}'
    '#[pop-default]'
    '#[norange list=on default]  ,'
    '#[range=pane|#{pane_id} list=focus #{?#{!=:#{E:pane-status-current-style},default},#{E:pane-status-current-style},#{E:pane-status-style}}]'
    '#[push-default]#{T:window-pane-current-status-format}'
    '#[pop-default]'
    '#[norange list=on default] }'
)
_STATUS_FORMAT_2 = (
    '#[align=left]#{R: ,#{n:#{session_name}}}S: '
    '#[norange default]'
    '#[list=on align=#{status-justify}]'
    '#[list=left-marker]<'
    '#[list=right-marker]>'
    '#[list=on]#{S:'
    '#[range=session|#{session_id} #{E:session-status-style}]'
    '#[push-default]#S#{session_alert}'
    '#[pop-default]'
    '#[norange list=on default]  ,'
    '#[range=session|#{session_id} list=focus #{?#{!=:#{E:session-status-current-style},default},#{E:session-status-current-style},#{E:session-status-style}}]'
    '#[push-default]#S*#{session_alert}'
    '#[pop-default]'
    '#[norange list=on default] }'
)
STATUS_FORMAT_DEFAULT: tuple[str, ...] = (_STATUS_FORMAT_0, _STATUS_FORMAT_1, _STATUS_FORMAT_2)

# Old spellings accepted wherever an option name is looked up.
OTHER_NAMES: dict[str, str] = {
    "display-panes-color": "display-panes-colour",
    "display-panes-active-color": "display-panes-active-colour",
    "clock-mode-color": "clock-mode-colour",
    "cursor-color": "cursor-colour",
    "prompt-cursor-color": "prompt-cursor-colour",
    "pane-colors": "pane-colours",
}

# Hooks: arrays of commands; (name, scope) in table order.
_HOOKS: tuple[tuple[str, int], ...] = (
    ('after-bind-key', SESSION),
    ('after-capture-pane', SESSION),
    ('after-copy-mode', SESSION),
    ('after-display-message', SESSION),
    ('after-display-panes', SESSION),
    ('after-kill-pane', SESSION),
    ('after-list-buffers', SESSION),
    ('after-list-clients', SESSION),
    ('after-list-keys', SESSION),
    ('after-list-panes', SESSION),
    ('after-list-sessions', SESSION),
    ('after-list-windows', SESSION),
    ('after-load-buffer', SESSION),
    ('after-lock-server', SESSION),
    ('after-new-session', SESSION),
    ('after-new-window', SESSION),
    ('after-paste-buffer', SESSION),
    ('after-pipe-pane', SESSION),
    ('after-queue', SESSION),
    ('after-refresh-client', SESSION),
    ('after-rename-session', SESSION),
    ('after-rename-window', SESSION),
    ('after-resize-pane', SESSION),
    ('after-resize-window', SESSION),
    ('after-save-buffer', SESSION),
    ('after-select-layout', SESSION),
    ('after-select-pane', SESSION),
    ('after-select-window', SESSION),
    ('after-send-keys', SESSION),
    ('after-set-buffer', SESSION),
    ('after-set-environment', SESSION),
    ('after-set-hook', SESSION),
    ('after-set-option', SESSION),
    ('after-show-environment', SESSION),
    ('after-show-messages', SESSION),
    ('after-show-options', SESSION),
    ('after-split-window', SESSION),
    ('after-unbind-key', SESSION),
    ('alert-activity', SESSION),
    ('alert-bell', SESSION),
    ('alert-silence', SESSION),
    ('client-active', SESSION),
    ('client-attached', SESSION),
    ('client-detached', SESSION),
    ('client-focus-in', SESSION),
    ('client-focus-out', SESSION),
    ('client-resized', SESSION),
    ('client-session-changed', SESSION),
    ('client-light-theme', SESSION),
    ('client-dark-theme', SESSION),
    ('command-error', SESSION),
    ('pane-died', WINDOW | PANE),
    ('pane-exited', WINDOW | PANE),
    ('pane-focus-in', WINDOW | PANE),
    ('pane-focus-out', WINDOW | PANE),
    ('pane-mode-changed', WINDOW | PANE),
    ('pane-set-clipboard', WINDOW | PANE),
    ('pane-title-changed', WINDOW | PANE),
    ('session-closed', SESSION),
    ('session-created', SESSION),
    ('session-renamed', SESSION),
    ('session-window-changed', SESSION),
    ('window-layout-changed', WINDOW),
    ('window-linked', SESSION),
    ('window-pane-changed', WINDOW),
    ('window-renamed', WINDOW),
    ('window-resized', WINDOW),
    ('window-unlinked', SESSION),
)

OPTION_TABLE: tuple[OptionEntry, ...] = (
    _e('backspace', KEY, SERVER, 'C-?'),
    _e('buffer-limit', NUMBER, SERVER, 50, minimum=1, maximum=INT_MAX),
    _e('command-alias', STRING, SERVER, 'split-pane=split-window,splitp=split-window,server-info=show-messages -JT,info=show-messages -JT,choose-window=choose-tree -w,choose-session=choose-tree -s', flags=IS_ARRAY, separator=','),
    _e('codepoint-widths', STRING, SERVER, '', flags=IS_ARRAY, separator=','),
    _e('copy-command', STRING, SERVER, ''),
    _e('cursor-colour', COLOUR, WINDOW | PANE, -1, flags=FORMAT_COLOUR),
    _e('cursor-style', CHOICE, WINDOW | PANE, 0, choices=('default', 'blinking-block', 'block', 'blinking-underline', 'underline', 'blinking-bar', 'bar')),
    _e('default-client-command', COMMAND, SERVER, 'new-session'),
    _e('default-terminal', STRING, SERVER, 'tmux-256color'),
    _e('editor', STRING, SERVER, '/usr/bin/vi'),
    _e('escape-time', NUMBER, SERVER, 10, minimum=0, maximum=INT_MAX),
    _e('exit-empty', FLAG, SERVER, 1),
    _e('exit-unattached', FLAG, SERVER, 0),
    _e('extended-keys', CHOICE, SERVER, 0, choices=('off', 'on', 'always')),
    _e('extended-keys-format', CHOICE, SERVER, 1, choices=('csi-u', 'xterm')),
    _e('focus-events', FLAG, SERVER, 0),
    _e('get-clipboard', CHOICE, SERVER, 1, choices=('off', 'buffer', 'request', 'both')),
    _e('history-file', STRING, SERVER, ''),
    _e('input-buffer-size', NUMBER, SERVER, 1048576, minimum=1048576, maximum=UINT_MAX),
    _e('menu-style', STRING, WINDOW, 'default', flags=IS_STYLE, separator=','),
    _e('menu-selected-style', STRING, WINDOW, 'bg=yellow,fg=black', flags=IS_STYLE, separator=','),
    _e('menu-border-style', STRING, WINDOW, 'default', flags=IS_STYLE, separator=','),
    _e('menu-border-lines', CHOICE, WINDOW, 0, choices=('single', 'double', 'heavy', 'simple', 'rounded', 'padded', 'none')),
    _e('message-limit', NUMBER, SERVER, 1000, minimum=0, maximum=INT_MAX),
    _e('prefix-timeout', NUMBER, SERVER, 0, minimum=0, maximum=INT_MAX),
    _e('prompt-history-limit', NUMBER, SERVER, 100, minimum=0, maximum=INT_MAX),
    _e('set-clipboard', CHOICE, SERVER, 1, choices=('off', 'external', 'on')),
    _e('terminal-overrides', STRING, SERVER, 'linux*:AX@', flags=IS_ARRAY, separator=','),
    _e('terminal-features', STRING, SERVER, 'xterm*:clipboard:ccolour:cstyle:focus:title,screen*:title,rxvt*:ignorefkeys', flags=IS_ARRAY, separator=','),
    _e('user-keys', STRING, SERVER, '', flags=IS_ARRAY, separator=','),
    _e('variation-selector-always-wide', FLAG, SERVER, 1),
    _e('activity-action', CHOICE, SESSION, 3, choices=('none', 'any', 'current', 'other')),
    _e('assume-paste-time', NUMBER, SESSION, 1, minimum=0, maximum=INT_MAX),
    _e('base-index', NUMBER, SESSION, 0, minimum=0, maximum=INT_MAX),
    _e('bell-action', CHOICE, SESSION, 1, choices=('none', 'any', 'current', 'other')),
    _e('default-command', STRING, SESSION, ''),
    _e('default-shell', STRING, SESSION, '/bin/sh'),
    _e('default-size', STRING, SESSION, '80x24', pattern='[0-9]*x[0-9]*'),
    _e('destroy-unattached', CHOICE, SESSION, 0, choices=('off', 'on', 'keep-last', 'keep-group')),
    _e('detach-on-destroy', CHOICE, SESSION, 1, choices=('off', 'on', 'no-detached', 'previous', 'next')),
    _e('display-panes-active-colour', COLOUR, SESSION, 1),
    _e('display-panes-colour', COLOUR, SESSION, 4),
    _e('display-panes-time', NUMBER, SESSION, 1000, minimum=1, maximum=INT_MAX),
    _e('display-time', NUMBER, SESSION, 750, minimum=0, maximum=INT_MAX),
    _e('focus-follows-mouse', FLAG, SESSION, 0),
    _e('history-limit', NUMBER, SESSION, 2000, minimum=0, maximum=INT_MAX),
    _e('initial-repeat-time', NUMBER, SESSION, 0, minimum=0, maximum=2000000),
    _e('key-table', STRING, SESSION, 'root'),
    _e('lock-after-time', NUMBER, SESSION, 0, minimum=0, maximum=INT_MAX),
    _e('lock-command', STRING, SESSION, 'lock -np'),
    _e('message-command-style', STRING, SESSION, 'bg=black,fg=yellow,fill=black', flags=IS_STYLE, separator=','),
    _e('message-format', STRING, SESSION, '#[#{?#{command_prompt},#{E:message-command-style},#{E:message-style}}]#{message}'),
    _e('message-line', CHOICE, SESSION, 0, choices=('0', '1', '2', '3', '4')),
    _e('message-style', STRING, SESSION, 'bg=yellow,fg=black,fill=yellow', flags=IS_STYLE, separator=','),
    _e('mouse', FLAG, SESSION, 0),
    _e('prefix', KEY, SESSION, 'C-b'),
    _e('prefix2', KEY, SESSION, 'None'),
    _e('renumber-windows', FLAG, SESSION, 0),
    _e('repeat-time', NUMBER, SESSION, 500, minimum=0, maximum=2000000),
    _e('set-titles', FLAG, SESSION, 0),
    _e('set-titles-string', STRING, SESSION, '#S:#I:#W - "#T" #{session_alerts}'),
    _e('silence-action', CHOICE, SESSION, 3, choices=('none', 'any', 'current', 'other')),
    _e('status', CHOICE, SESSION, 1, choices=('off', 'on', '2', '3', '4', '5')),
    _e('status-bg', COLOUR, SESSION, 8),
    _e('status-fg', COLOUR, SESSION, 8),
    _e('status-format', STRING, SESSION, STATUS_FORMAT_DEFAULT, flags=IS_ARRAY),
    _e('status-interval', NUMBER, SESSION, 15, minimum=0, maximum=INT_MAX),
    _e('status-justify', CHOICE, SESSION, 0, choices=('left', 'centre', 'right', 'absolute-centre')),
    _e('status-keys', CHOICE, SESSION, 0, choices=('emacs', 'vi')),
    _e('status-left', STRING, SESSION, '[#{session_name}] '),
    _e('status-left-length', NUMBER, SESSION, 10, minimum=0, maximum=32767),
    _e('status-left-style', STRING, SESSION, 'default', flags=IS_STYLE, separator=','),
    _e('status-position', CHOICE, SESSION, 1, choices=('top', 'bottom')),
    _e('status-right', STRING, SESSION, '#{?window_bigger,[#{window_offset_x}#,#{window_offset_y}] ,}"#{=21:pane_title}" %H:%M %d-%b-%y'),
    _e('status-right-length', NUMBER, SESSION, 40, minimum=0, maximum=32767),
    _e('status-right-style', STRING, SESSION, 'default', flags=IS_STYLE, separator=','),
    _e('status-style', STRING, SESSION, 'bg=green,fg=black', flags=IS_STYLE, separator=','),
    _e('pane-status-current-style', STRING, WINDOW, 'default', flags=IS_STYLE, separator=','),
    _e('pane-status-style', STRING, WINDOW, 'default', flags=IS_STYLE, separator=','),
    _e('prompt-cursor-colour', COLOUR, SESSION, -1, flags=FORMAT_COLOUR),
    _e('prompt-cursor-style', CHOICE, SESSION, 0, choices=('default', 'blinking-block', 'block', 'blinking-underline', 'underline', 'blinking-bar', 'bar')),
    _e('prompt-command-cursor-style', CHOICE, SESSION, 0, choices=('default', 'blinking-block', 'block', 'blinking-underline', 'underline', 'blinking-bar', 'bar')),
    _e('session-status-current-style', STRING, WINDOW, 'default', flags=IS_STYLE, separator=','),
    _e('session-status-style', STRING, WINDOW, 'default', flags=IS_STYLE, separator=','),
    _e('update-environment', STRING, SESSION, 'DISPLAY KRB5CCNAME MSYSTEM SSH_ASKPASS SSH_AUTH_SOCK SSH_AGENT_PID SSH_CONNECTION WAYLAND_DISPLAY WINDOWID XAUTHORITY XDG_CURRENT_DESKTOP XDG_SESSION_DESKTOP XDG_SESSION_TYPE', flags=IS_ARRAY),
    _e('visual-activity', CHOICE, SESSION, 0, choices=('off', 'on', 'both')),
    _e('visual-bell', CHOICE, SESSION, 0, choices=('off', 'on', 'both')),
    _e('visual-silence', CHOICE, SESSION, 0, choices=('off', 'on', 'both')),
    _e('word-separators', STRING, SESSION, '!"#$%&\'()*+,-./:;<=>?@[\\]^`{|}~'),
    _e('aggressive-resize', FLAG, WINDOW, 0),
    _e('allow-passthrough', CHOICE, WINDOW | PANE, 0, choices=('off', 'on', 'all')),
    _e('allow-rename', FLAG, WINDOW | PANE, 0),
    _e('allow-set-title', FLAG, WINDOW | PANE, 1),
    _e('alternate-screen', FLAG, WINDOW | PANE, 1),
    _e('automatic-rename', FLAG, WINDOW, 1),
    _e('automatic-rename-format', STRING, WINDOW, '#{?pane_in_mode,[tmux],#{pane_current_command}}#{?pane_dead,[dead],}'),
    _e('clock-mode-colour', COLOUR, WINDOW, 4, flags=FORMAT_COLOUR),
    _e('clock-mode-style', CHOICE, WINDOW, 1, choices=('12', '24', '12-with-seconds', '24-with-seconds')),
    _e('copy-mode-match-style', STRING, WINDOW, 'bg=cyan,fg=black', flags=IS_STYLE, separator=','),
    _e('copy-mode-current-match-style', STRING, WINDOW, 'bg=magenta,fg=black', flags=IS_STYLE, separator=','),
    _e('copy-mode-mark-style', STRING, WINDOW, 'bg=red,fg=black', flags=IS_STYLE, separator=','),
    _e('copy-mode-position-format', STRING, WINDOW | PANE, '#[align=right]#{t/p:top_line_time}#{?#{e|>:#{top_line_time},0}, ,}[#{copy_position}/#{copy_position_limit}]#{?search_timed_out, (timed out),#{?search_count, (#{search_count}#{?search_count_partial,+,} results),}}'),
    _e('copy-mode-position-style', STRING, WINDOW, '#{E:mode-style}', flags=IS_STYLE, separator=','),
    _e('copy-mode-selection-style', STRING, WINDOW, '#{E:mode-style}', flags=IS_STYLE, separator=','),
    _e('copy-mode-current-line-number-style', STRING, WINDOW, 'fg=yellow', flags=IS_STYLE, separator=','),
    _e('copy-mode-line-number-style', STRING, WINDOW, 'fg=white,dim', flags=IS_STYLE, separator=','),
    _e('copy-mode-line-numbers', CHOICE, WINDOW, 0, choices=('off', 'default', 'absolute', 'relative', 'hybrid')),
    _e('fill-character', STRING, WINDOW, ''),
    _e('main-pane-height', STRING, WINDOW, '24'),
    _e('main-pane-width', STRING, WINDOW, '80'),
    _e('mode-keys', CHOICE, WINDOW, 0, choices=('emacs', 'vi')),
    _e('mode-style', STRING, WINDOW, 'noattr,bg=yellow,fg=black', flags=IS_STYLE, separator=','),
    _e('monitor-activity', FLAG, WINDOW, 0),
    _e('monitor-bell', FLAG, WINDOW, 1),
    _e('monitor-silence', NUMBER, WINDOW, 0, minimum=0, maximum=INT_MAX),
    _e('other-pane-height', STRING, WINDOW, '0'),
    _e('other-pane-width', STRING, WINDOW, '0'),
    _e('pane-active-border-style', STRING, WINDOW | PANE, '#{?pane_in_mode,fg=yellow,#{?synchronize-panes,fg=red,fg=green}}', flags=IS_STYLE, separator=','),
    _e('pane-base-index', NUMBER, WINDOW, 0, minimum=0, maximum=65535),
    _e('pane-border-format', STRING, WINDOW | PANE, '#{?pane_active,#[reverse],}#{pane_index}#[default] "#{pane_title}"#{?#{mouse},#[align=right]#[range=control|8][#{?#{window_zoomed_flag},u,z}]#[norange]#[range=control|9][x]#[norange],}'),
    _e('pane-border-indicators', CHOICE, WINDOW, 1, choices=('off', 'colour', 'arrows', 'both')),
    _e('pane-border-lines', CHOICE, WINDOW, 0, choices=('single', 'double', 'heavy', 'simple', 'number', 'spaces')),
    _e('pane-border-status', CHOICE, WINDOW, 0, choices=('off', 'top', 'bottom')),
    _e('pane-border-style', STRING, WINDOW | PANE, 'default', flags=IS_STYLE, separator=','),
    _e('pane-colours', COLOUR, WINDOW | PANE, '', flags=IS_ARRAY),
    _e('pane-scrollbars', CHOICE, WINDOW, 0, choices=('off', 'modal', 'on')),
    _e('pane-scrollbars-style', STRING, WINDOW | PANE, 'bg=black,fg=white,width=1,pad=0', flags=IS_STYLE, separator=','),
    _e('pane-scrollbars-position', CHOICE, WINDOW, 0, choices=('right', 'left')),
    _e('popup-style', STRING, WINDOW, 'default', flags=IS_STYLE, separator=','),
    _e('popup-border-style', STRING, WINDOW, 'default', flags=IS_STYLE, separator=','),
    _e('popup-border-lines', CHOICE, WINDOW, 0, choices=('single', 'double', 'heavy', 'simple', 'rounded', 'padded', 'none')),
    _e('remain-on-exit', CHOICE, WINDOW | PANE, 0, choices=('off', 'on', 'failed', 'key')),
    _e('remain-on-exit-format', STRING, WINDOW | PANE, 'Pane is dead (#{?#{!=:#{pane_dead_status},},status #{pane_dead_status},}#{?#{!=:#{pane_dead_signal},},signal #{pane_dead_signal},}, #{t:pane_dead_time})'),
    _e('scroll-on-clear', FLAG, WINDOW | PANE, 1),
    _e('synchronize-panes', FLAG, WINDOW | PANE, 0),
    _e('tiled-layout-max-columns', NUMBER, WINDOW, 0, minimum=0, maximum=65535),
    _e('tree-mode-preview-format', STRING, WINDOW | PANE, '#{?pane_format,#{pane_index}:#{pane_title},#{window_index}:#{window_name}}'),
    _e('tree-mode-preview-style', STRING, WINDOW, 'fg=#{?#{||:#{&&:#{pane_format},#{pane_active}},#{&&:#{window_format},#{window_active}}},#{display-panes-active-colour},#{display-panes-colour}}', flags=IS_STYLE, separator=','),
    _e('window-active-style', STRING, WINDOW | PANE, 'default', flags=IS_STYLE, separator=','),
    _e('window-pane-current-status-format', STRING, WINDOW, '#P:[#T]#{?pane_flags,#{pane_flags}, }'),
    _e('window-pane-status-format', STRING, WINDOW, '#P:[#T]#{?pane_flags,#{pane_flags}, }'),
    _e('window-size', CHOICE, WINDOW, 3, choices=('largest', 'smallest', 'manual', 'latest')),
    _e('window-style', STRING, WINDOW | PANE, 'default', flags=IS_STYLE, separator=','),
    _e('window-status-activity-style', STRING, WINDOW, 'reverse', flags=IS_STYLE, separator=','),
    _e('window-status-bell-style', STRING, WINDOW, 'reverse', flags=IS_STYLE, separator=','),
    _e('window-status-current-format', STRING, WINDOW, '#I:#W#{?window_flags,#{window_flags}, }'),
    _e('window-status-current-style', STRING, WINDOW, 'default', flags=IS_STYLE, separator=','),
    _e('window-status-format', STRING, WINDOW, '#I:#W#{?window_flags,#{window_flags}, }'),
    _e('window-status-last-style', STRING, WINDOW, 'default', flags=IS_STYLE, separator=','),
    _e('window-status-separator', STRING, WINDOW, ' '),
    _e('window-status-style', STRING, WINDOW, 'default', flags=IS_STYLE, separator=','),
    _e('wrap-search', FLAG, WINDOW, 1),
    _e('xterm-keys', FLAG, WINDOW, 1),
)+tuple(
    OptionEntry(_name, COMMAND, _scope, "", flags=IS_ARRAY | IS_HOOK, separator="")
    for _name, _scope in _HOOKS
)

# The development tree's theme colours: per slot, its dark and light colour (for terminals of
# 256 colours or more, else the ANSI one), as formats.
_THEME_DEFAULTS = (
    ("black", "gray5", "black", "gray10", "black"),
    ("white", "gray90", "white", "gray95", "white"),
    ("light-grey", "gray70", "white", "gray80", "white"),
    ("dark-grey", "gray15", "black", "gray45", "black"),
    ("green", "yellowgreen", "green", "seagreen", "green"),
    ("yellow", "darkgoldenrod", "yellow", "darkgoldenrod", "yellow"),
    ("red", "indianred", "red", "indianred4", "red"),
    ("blue", "skyblue3", "blue", "steelblue", "blue"),
    ("cyan", "cadetblue", "cyan", "darkcyan", "cyan"),
    ("magenta", "mediumpurple", "magenta", "purple4", "magenta"),
)


def _theme_default(rich: str, plain: str) -> str:
    return f"#{{?#{{e|>=:#{{client_colours}},256}},{rich},{plain}}}"


#: Options and hooks beyond tmux 3.7b (IS_EXTENSION): the development tree's where it has
#: them, the seed's otherwise (clear-on-attach). After every 3.7b entry, so 3.7b's table order
#: and prefix matches are untouched.
EXTENSION_OPTIONS: tuple[OptionEntry, ...] = (
    _e('theme', CHOICE, SERVER, 0, choices=('detect', 'terminal', 'light', 'dark'),
       flags=IS_EXTENSION),
) + tuple(
    _e(f'dark-theme-{slot}', STRING, SERVER, _theme_default(rich, plain),
       flags=IS_EXTENSION | IS_COLOUR)
    for slot, rich, plain, _lr, _lp in _THEME_DEFAULTS
) + tuple(
    _e(f'light-theme-{slot}', STRING, SERVER, _theme_default(rich, plain),
       flags=IS_EXTENSION | IS_COLOUR)
    for slot, _dr, _dp, rich, plain in _THEME_DEFAULTS
) + (
    _e('clear-on-attach', FLAG, SERVER, 1, flags=IS_EXTENSION),
    _e('layout-format', CHOICE, WINDOW, 0, choices=('legacy', 'json'), flags=IS_EXTENSION),
    _e('copy-mode-current-line-style', STRING, WINDOW, 'default',
       flags=IS_STYLE | IS_EXTENSION, separator=','),
) + tuple(
    OptionEntry(_name, COMMAND, _scope, "", flags=IS_ARRAY | IS_HOOK | IS_EXTENSION,
                separator="")
    for _name, _scope in (
        ('client-closed', SESSION),
        ('client-created', SESSION),
        ('marked-pane-changed', SESSION),
        ('session-added-to-group', SESSION),
        ('session-removed-from-group', SESSION),
        ('pane-activity', WINDOW | PANE),
        ('pane-bell', WINDOW | PANE),
        ('pane-command-finished', WINDOW | PANE),
        ('pane-command-started', WINDOW | PANE),
        ('pane-created', WINDOW | PANE),
        ('pane-mode-entered', WINDOW | PANE),
        ('pane-mode-exited', WINDOW | PANE),
        ('pane-moved', WINDOW | PANE),
        ('pane-prompt-closed', WINDOW | PANE),
        ('pane-prompt-opened', WINDOW | PANE),
        ('pane-resized', WINDOW | PANE),
        ('pane-shell-prompt', WINDOW | PANE),
        ('window-closed', WINDOW),
        ('window-created', WINDOW),
        ('window-unzoomed', WINDOW),
        ('window-zoomed', WINDOW),
    )
)
OPTION_TABLE = OPTION_TABLE + EXTENSION_OPTIONS

# name -> entry, for exact lookups.
OPTIONS_BY_NAME: dict[str, OptionEntry] = {oe.name: oe for oe in OPTION_TABLE}

_COLOUR_NAMES_DATA = (
    'AliceBlue:f0f8ff;AntiqueWhite:faebd7;AntiqueWhite1:ffefdb;AntiqueWhite2:eedfcc;AntiqueWhite3'
    ':cdc0b0;AntiqueWhite4:8b8378;BlanchedAlmond:ffebcd;BlueViolet:8a2be2;CadetBlue:5f9ea0;CadetB'
    'lue1:98f5ff;CadetBlue2:8ee5ee;CadetBlue3:7ac5cd;CadetBlue4:53868b;CornflowerBlue:6495ed;Dark'
    'Blue:00008b;DarkCyan:008b8b;DarkGoldenrod:b8860b;DarkGoldenrod1:ffb90f;DarkGoldenrod2:eead0e'
    ';DarkGoldenrod3:cd950c;DarkGoldenrod4:8b6508;DarkGray:a9a9a9;DarkGreen:006400;DarkGrey:a9a9a'
    '9;DarkKhaki:bdb76b;DarkMagenta:8b008b;DarkOliveGreen:556b2f;DarkOliveGreen1:caff70;DarkOlive'
    'Green2:bcee68;DarkOliveGreen3:a2cd5a;DarkOliveGreen4:6e8b3d;DarkOrange:ff8c00;DarkOrange1:ff'
    '7f00;DarkOrange2:ee7600;DarkOrange3:cd6600;DarkOrange4:8b4500;DarkOrchid:9932cc;DarkOrchid1:'
    'bf3eff;DarkOrchid2:b23aee;DarkOrchid3:9a32cd;DarkOrchid4:68228b;DarkRed:8b0000;DarkSalmon:e9'
    '967a;DarkSeaGreen:8fbc8f;DarkSeaGreen1:c1ffc1;DarkSeaGreen2:b4eeb4;DarkSeaGreen3:9bcd9b;Dark'
    'SeaGreen4:698b69;DarkSlateBlue:483d8b;DarkSlateGray:2f4f4f;DarkSlateGray1:97ffff;DarkSlateGr'
    'ay2:8deeee;DarkSlateGray3:79cdcd;DarkSlateGray4:528b8b;DarkSlateGrey:2f4f4f;DarkTurquoise:00'
    'ced1;DarkViolet:9400d3;DeepPink:ff1493;DeepPink1:ff1493;DeepPink2:ee1289;DeepPink3:cd1076;De'
    'epPink4:8b0a50;DeepSkyBlue:00bfff;DeepSkyBlue1:00bfff;DeepSkyBlue2:00b2ee;DeepSkyBlue3:009ac'
    'd;DeepSkyBlue4:00688b;DimGray:696969;DimGrey:696969;DodgerBlue:1e90ff;DodgerBlue1:1e90ff;Dod'
    'gerBlue2:1c86ee;DodgerBlue3:1874cd;DodgerBlue4:104e8b;FloralWhite:fffaf0;ForestGreen:228b22;'
    'GhostWhite:f8f8ff;GreenYellow:adff2f;HotPink:ff69b4;HotPink1:ff6eb4;HotPink2:ee6aa7;HotPink3'
    ':cd6090;HotPink4:8b3a62;IndianRed:cd5c5c;IndianRed1:ff6a6a;IndianRed2:ee6363;IndianRed3:cd55'
    '55;IndianRed4:8b3a3a;LavenderBlush:fff0f5;LavenderBlush1:fff0f5;LavenderBlush2:eee0e5;Lavend'
    'erBlush3:cdc1c5;LavenderBlush4:8b8386;LawnGreen:7cfc00;LemonChiffon:fffacd;LemonChiffon1:fff'
    'acd;LemonChiffon2:eee9bf;LemonChiffon3:cdc9a5;LemonChiffon4:8b8970;LightBlue:add8e6;LightBlu'
    'e1:bfefff;LightBlue2:b2dfee;LightBlue3:9ac0cd;LightBlue4:68838b;LightCoral:f08080;LightCyan:'
    'e0ffff;LightCyan1:e0ffff;LightCyan2:d1eeee;LightCyan3:b4cdcd;LightCyan4:7a8b8b;LightGoldenro'
    'd:eedd82;LightGoldenrod1:ffec8b;LightGoldenrod2:eedc82;LightGoldenrod3:cdbe70;LightGoldenrod'
    '4:8b814c;LightGoldenrodYellow:fafad2;LightGray:d3d3d3;LightGreen:90ee90;LightGrey:d3d3d3;Lig'
    'htPink:ffb6c1;LightPink1:ffaeb9;LightPink2:eea2ad;LightPink3:cd8c95;LightPink4:8b5f65;LightS'
    'almon:ffa07a;LightSalmon1:ffa07a;LightSalmon2:ee9572;LightSalmon3:cd8162;LightSalmon4:8b5742'
    ';LightSeaGreen:20b2aa;LightSkyBlue:87cefa;LightSkyBlue1:b0e2ff;LightSkyBlue2:a4d3ee;LightSky'
    'Blue3:8db6cd;LightSkyBlue4:607b8b;LightSlateBlue:8470ff;LightSlateGray:778899;LightSlateGrey'
    ':778899;LightSteelBlue:b0c4de;LightSteelBlue1:cae1ff;LightSteelBlue2:bcd2ee;LightSteelBlue3:'
    'a2b5cd;LightSteelBlue4:6e7b8b;LightYellow:ffffe0;LightYellow1:ffffe0;LightYellow2:eeeed1;Lig'
    'htYellow3:cdcdb4;LightYellow4:8b8b7a;LimeGreen:32cd32;MediumAquamarine:66cdaa;MediumBlue:000'
    '0cd;MediumOrchid:ba55d3;MediumOrchid1:e066ff;MediumOrchid2:d15fee;MediumOrchid3:b452cd;Mediu'
    'mOrchid4:7a378b;MediumPurple:9370db;MediumPurple1:ab82ff;MediumPurple2:9f79ee;MediumPurple3:'
    '8968cd;MediumPurple4:5d478b;MediumSeaGreen:3cb371;MediumSlateBlue:7b68ee;MediumSpringGreen:0'
    '0fa9a;MediumTurquoise:48d1cc;MediumVioletRed:c71585;MidnightBlue:191970;MintCream:f5fffa;Mis'
    'tyRose:ffe4e1;MistyRose1:ffe4e1;MistyRose2:eed5d2;MistyRose3:cdb7b5;MistyRose4:8b7d7b;Navajo'
    'White:ffdead;NavajoWhite1:ffdead;NavajoWhite2:eecfa1;NavajoWhite3:cdb38b;NavajoWhite4:8b795e'
    ';NavyBlue:000080;OldLace:fdf5e6;OliveDrab:6b8e23;OliveDrab1:c0ff3e;OliveDrab2:b3ee3a;OliveDr'
    'ab3:9acd32;OliveDrab4:698b22;OrangeRed:ff4500;OrangeRed1:ff4500;OrangeRed2:ee4000;OrangeRed3'
    ':cd3700;OrangeRed4:8b2500;PaleGoldenrod:eee8aa;PaleGreen:98fb98;PaleGreen1:9aff9a;PaleGreen2'
    ':90ee90;PaleGreen3:7ccd7c;PaleGreen4:548b54;PaleTurquoise:afeeee;PaleTurquoise1:bbffff;PaleT'
    'urquoise2:aeeeee;PaleTurquoise3:96cdcd;PaleTurquoise4:668b8b;PaleVioletRed:db7093;PaleViolet'
    'Red1:ff82ab;PaleVioletRed2:ee799f;PaleVioletRed3:cd6889;PaleVioletRed4:8b475d;PapayaWhip:ffe'
    'fd5;PeachPuff:ffdab9;PeachPuff1:ffdab9;PeachPuff2:eecbad;PeachPuff3:cdaf95;PeachPuff4:8b7765'
    ';PowderBlue:b0e0e6;RebeccaPurple:663399;RosyBrown:bc8f8f;RosyBrown1:ffc1c1;RosyBrown2:eeb4b4'
    ';RosyBrown3:cd9b9b;RosyBrown4:8b6969;RoyalBlue:4169e1;RoyalBlue1:4876ff;RoyalBlue2:436eee;Ro'
    'yalBlue3:3a5fcd;RoyalBlue4:27408b;SaddleBrown:8b4513;SandyBrown:f4a460;SeaGreen:2e8b57;SeaGr'
    'een1:54ff9f;SeaGreen2:4eee94;SeaGreen3:43cd80;SeaGreen4:2e8b57;SkyBlue:87ceeb;SkyBlue1:87cef'
    'f;SkyBlue2:7ec0ee;SkyBlue3:6ca6cd;SkyBlue4:4a708b;SlateBlue:6a5acd;SlateBlue1:836fff;SlateBl'
    'ue2:7a67ee;SlateBlue3:6959cd;SlateBlue4:473c8b;SlateGray:708090;SlateGray1:c6e2ff;SlateGray2'
    ':b9d3ee;SlateGray3:9fb6cd;SlateGray4:6c7b8b;SlateGrey:708090;SpringGreen:00ff7f;SpringGreen1'
    ':00ff7f;SpringGreen2:00ee76;SpringGreen3:00cd66;SpringGreen4:008b45;SteelBlue:4682b4;SteelBl'
    'ue1:63b8ff;SteelBlue2:5cacee;SteelBlue3:4f94cd;SteelBlue4:36648b;VioletRed:d02090;VioletRed1'
    ':ff3e96;VioletRed2:ee3a8c;VioletRed3:cd3278;VioletRed4:8b2252;WebGray:808080;WebGreen:008000'
    ';WebGrey:808080;WebMaroon:800000;WebPurple:800080;WhiteSmoke:f5f5f5;X11Gray:bebebe;X11Green:'
    '00ff00;X11Grey:bebebe;X11Maroon:b03060;X11Purple:a020f0;YellowGreen:9acd32;alice blue:f0f8ff'
    ';antique white:faebd7;aqua:00ffff;aquamarine:7fffd4;aquamarine1:7fffd4;aquamarine2:76eec6;aq'
    'uamarine3:66cdaa;aquamarine4:458b74;azure:f0ffff;azure1:f0ffff;azure2:e0eeee;azure3:c1cdcd;a'
    'zure4:838b8b;beige:f5f5dc;bisque:ffe4c4;bisque1:ffe4c4;bisque2:eed5b7;bisque3:cdb79e;bisque4'
    ':8b7d6b;black:000000;blanched almond:ffebcd;blue violet:8a2be2;blue:0000ff;blue1:0000ff;blue'
    '2:0000ee;blue3:0000cd;blue4:00008b;brown:a52a2a;brown1:ff4040;brown2:ee3b3b;brown3:cd3333;br'
    'own4:8b2323;burlywood:deb887;burlywood1:ffd39b;burlywood2:eec591;burlywood3:cdaa7d;burlywood'
    '4:8b7355;cadet blue:5f9ea0;chartreuse:7fff00;chartreuse1:7fff00;chartreuse2:76ee00;chartreus'
    'e3:66cd00;chartreuse4:458b00;chocolate:d2691e;chocolate1:ff7f24;chocolate2:ee7621;chocolate3'
    ':cd661d;chocolate4:8b4513;coral:ff7f50;coral1:ff7256;coral2:ee6a50;coral3:cd5b45;coral4:8b3e'
    '2f;cornflower blue:6495ed;cornsilk:fff8dc;cornsilk1:fff8dc;cornsilk2:eee8cd;cornsilk3:cdc8b1'
    ';cornsilk4:8b8878;crimson:dc143c;cyan:00ffff;cyan1:00ffff;cyan2:00eeee;cyan3:00cdcd;cyan4:00'
    '8b8b;dark blue:00008b;dark cyan:008b8b;dark goldenrod:b8860b;dark gray:a9a9a9;dark green:006'
    '400;dark grey:a9a9a9;dark khaki:bdb76b;dark magenta:8b008b;dark olive green:556b2f;dark oran'
    'ge:ff8c00;dark orchid:9932cc;dark red:8b0000;dark salmon:e9967a;dark sea green:8fbc8f;dark s'
    'late blue:483d8b;dark slate gray:2f4f4f;dark slate grey:2f4f4f;dark turquoise:00ced1;dark vi'
    'olet:9400d3;deep pink:ff1493;deep sky blue:00bfff;dim gray:696969;dim grey:696969;dodger blu'
    'e:1e90ff;firebrick:b22222;firebrick1:ff3030;firebrick2:ee2c2c;firebrick3:cd2626;firebrick4:8'
    'b1a1a;floral white:fffaf0;forest green:228b22;fuchsia:ff00ff;gainsboro:dcdcdc;ghost white:f8'
    'f8ff;gold:ffd700;gold1:ffd700;gold2:eec900;gold3:cdad00;gold4:8b7500;goldenrod:daa520;golden'
    'rod1:ffc125;goldenrod2:eeb422;goldenrod3:cd9b1d;goldenrod4:8b6914;green yellow:adff2f;green:'
    '00ff00;green1:00ff00;green2:00ee00;green3:00cd00;green4:008b00;honeydew:f0fff0;honeydew1:f0f'
    'ff0;honeydew2:e0eee0;honeydew3:c1cdc1;honeydew4:838b83;hot pink:ff69b4;indian red:cd5c5c;ind'
    'igo:4b0082;ivory:fffff0;ivory1:fffff0;ivory2:eeeee0;ivory3:cdcdc1;ivory4:8b8b83;khaki:f0e68c'
    ';khaki1:fff68f;khaki2:eee685;khaki3:cdc673;khaki4:8b864e;lavender blush:fff0f5;lavender:e6e6'
    'fa;lawn green:7cfc00;lemon chiffon:fffacd;light blue:add8e6;light coral:f08080;light cyan:e0'
    'ffff;light goldenrod yellow:fafad2;light goldenrod:eedd82;light gray:d3d3d3;light green:90ee'
    '90;light grey:d3d3d3;light pink:ffb6c1;light salmon:ffa07a;light sea green:20b2aa;light sky '
    'blue:87cefa;light slate blue:8470ff;light slate gray:778899;light slate grey:778899;light st'
    'eel blue:b0c4de;light yellow:ffffe0;lime green:32cd32;lime:00ff00;linen:faf0e6;magenta:ff00f'
    'f;magenta1:ff00ff;magenta2:ee00ee;magenta3:cd00cd;magenta4:8b008b;maroon:b03060;maroon1:ff34'
    'b3;maroon2:ee30a7;maroon3:cd2990;maroon4:8b1c62;medium aquamarine:66cdaa;medium blue:0000cd;'
    'medium orchid:ba55d3;medium purple:9370db;medium sea green:3cb371;medium slate blue:7b68ee;m'
    'edium spring green:00fa9a;medium turquoise:48d1cc;medium violet red:c71585;midnight blue:191'
    '970;mint cream:f5fffa;misty rose:ffe4e1;moccasin:ffe4b5;navajo white:ffdead;navy blue:000080'
    ';navy:000080;old lace:fdf5e6;olive drab:6b8e23;olive:808000;orange red:ff4500;orange:ffa500;'
    'orange1:ffa500;orange2:ee9a00;orange3:cd8500;orange4:8b5a00;orchid:da70d6;orchid1:ff83fa;orc'
    'hid2:ee7ae9;orchid3:cd69c9;orchid4:8b4789;pale goldenrod:eee8aa;pale green:98fb98;pale turqu'
    'oise:afeeee;pale violet red:db7093;papaya whip:ffefd5;peach puff:ffdab9;peru:cd853f;pink:ffc'
    '0cb;pink1:ffb5c5;pink2:eea9b8;pink3:cd919e;pink4:8b636c;plum:dda0dd;plum1:ffbbff;plum2:eeaee'
    'e;plum3:cd96cd;plum4:8b668b;powder blue:b0e0e6;purple:a020f0;purple1:9b30ff;purple2:912cee;p'
    'urple3:7d26cd;purple4:551a8b;rebecca purple:663399;red:ff0000;red1:ff0000;red2:ee0000;red3:c'
    'd0000;red4:8b0000;rosy brown:bc8f8f;royal blue:4169e1;saddle brown:8b4513;salmon:fa8072;salm'
    'on1:ff8c69;salmon2:ee8262;salmon3:cd7054;salmon4:8b4c39;sandy brown:f4a460;sea green:2e8b57;'
    'seashell:fff5ee;seashell1:fff5ee;seashell2:eee5de;seashell3:cdc5bf;seashell4:8b8682;sienna:a'
    '0522d;sienna1:ff8247;sienna2:ee7942;sienna3:cd6839;sienna4:8b4726;silver:c0c0c0;sky blue:87c'
    'eeb;slate blue:6a5acd;slate gray:708090;slate grey:708090;snow:fffafa;snow1:fffafa;snow2:eee'
    '9e9;snow3:cdc9c9;snow4:8b8989;spring green:00ff7f;steel blue:4682b4;tan:d2b48c;tan1:ffa54f;t'
    'an2:ee9a49;tan3:cd853f;tan4:8b5a2b;teal:008080;thistle:d8bfd8;thistle1:ffe1ff;thistle2:eed2e'
    'e;thistle3:cdb5cd;thistle4:8b7b8b;tomato:ff6347;tomato1:ff6347;tomato2:ee5c42;tomato3:cd4f39'
    ';tomato4:8b3626;turquoise:40e0d0;turquoise1:00f5ff;turquoise2:00e5ee;turquoise3:00c5cd;turqu'
    'oise4:00868b;violet red:d02090;violet:ee82ee;web gray:808080;web green:008000;web grey:80808'
    '0;web maroon:800000;web purple:800080;wheat:f5deb3;wheat1:ffe7ba;wheat2:eed8ae;wheat3:cdba96'
    ';wheat4:8b7e66;white smoke:f5f5f5;white:ffffff;x11 gray:bebebe;x11 green:00ff00;x11 grey:beb'
    'ebe;x11 maroon:b03060;x11 purple:a020f0;yellow green:9acd32;yellow:ffff00;yellow1:ffff00;yel'
    'low2:eeee00;yellow3:cdcd00;yellow4:8b8b00'
)


def _parse_colour_names(data: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in data.split(";"):
        name, _, rgb = item.rpartition(":")
        out.setdefault(name.lower(), int(rgb, 16))
    return out


# X11/CSS colour names tmux accepts (matched case-insensitively) -> 0xRRGGBB.
COLOUR_NAMES: dict[str, int] = _parse_colour_names(_COLOUR_NAMES_DATA)
