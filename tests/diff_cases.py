"""The case table of the core differential suite (tests/test_diff_core.py).

A case is a list of steps run in order against a fresh server; the last step's (rc, stdout, stderr)
is compared with tmux 3.3a, earlier steps only by rc. A step is a command argv (a list), ``Wait``
(poll until a pane shows a text or a format reaches a value, so what is inspected has settled) or
``Gone`` (poll until the server has exited). ``;`` as an argv element chains commands exactly as
on tmux's command line.

Panes run fixed programs so screens and names are deterministic: ``cat -`` (two words, so both
servers exec it directly and ``pane_current_command`` / automatic names are ``cat`` from the
start), or ``sh -c 'printf ...; exec cat'`` for screen content.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Wait:
    """Poll until ``capture-pane -p -t target`` shows ``text`` or, with ``fmt``, until
    ``display -p -t target fmt`` prints exactly ``text``.

    ``reap`` is for waits on a child's exit status: each failed poll runs ``run-shell true`` on
    both sides (``harness.reaping`` says why).
    """

    target: str
    text: str
    fmt: str | None = None
    reap: bool = False


@dataclass(frozen=True)
class Gone:
    """Poll until the server no longer answers (after kill-server or the last session went)."""


Step = list[str] | Wait | Gone


@dataclass
class Case:
    id: str
    steps: list[Step]
    subs: tuple[tuple[str, str], ...] = ()  # extra (regex, replacement) normalisation, both sides
    no_server: bool = False  # the case runs with no server at all (client-side errors)


CASES: list[Case] = []


def case(id: str, *steps: Step, subs: tuple[tuple[str, str], ...] = (), no_server: bool = False) -> None:
    assert id not in {c.id for c in CASES}, id
    CASES.append(Case(id, list(steps), subs, no_server))


# -- building blocks ---------------------------------------------------------------------------

CAT = ["cat", "-"]


def NS(name: str = "a", *extra: str, x: int = 80, y: int = 24, cmd: list[str] | None = None) -> list[str]:
    """new-session -d of a fixed size running ``cmd`` (default ``cat -``)."""
    return ["new-session", "-d", "-s", name, "-x", str(x), "-y", str(y), *extra,
            *(cmd if cmd is not None else CAT)]


def sh(script: str) -> list[str]:
    return ["sh", "-c", script]


def pf(text: str) -> list[str]:
    """A pane that prints ``text`` (printf format, no single quotes) and then waits in cat."""
    return sh(f"printf '{text}'; exec cat")


def ready(target: str = "a") -> Wait:
    """The pane's program has exec'd and its cwd reads back (tmux 3.7b can show ``cat`` as the
    command a moment before ``pane_current_path`` stops being empty)."""
    return Wait(target, "cat:cwd", "#{pane_current_command}:#{?pane_current_path,cwd,}")


RAW = sh("stty raw -echo; printf READY; exec cat -v")
SEP = "\u241e"

# Three windows w0 w1 w2 in session a, the last one (2) current and 1 the last window.
# Fixtures used by many cases are built by one chained command (one client start, not three).
W3 = [[*NS("a", "-n", "w0"), ";", "new-window", "-t", "a:", "-n", "w1", *CAT,
       ";", "new-window", "-t", "a:", "-n", "w2", *CAT]]
# A 2x2 grid in a:0: 0 top-left, 1 bottom-left, 2 top-right, 3 bottom-right (active, last was 2).
GRID = [[*NS("a", "-n", "grid"), ";", "split-window", "-h", "-t", "a:0.0", *CAT,
         ";", "split-window", "-v", "-t", "a:0.0", *CAT, ";", "split-window", "-v", "-t", "a:0.2", *CAT]]
# Two side-by-side panes, the right one (1) active.
TWO = [[*NS("a", "-n", "two"), ";", "split-window", "-h", "-t", "a", *CAT]]
PANEFMT = "#{pane_index} #{pane_id} #{pane_width}x#{pane_height} #{pane_left},#{pane_top} #{pane_active}"
# Automatic names are racy in both servers (a pane can be named after its process before it
# execs), so names are only listed for windows named with -n.
WINFMT = "#{window_index}:#{window_flags}:#{window_active}"
WINFMTN = "#{window_index}:#{window_name}:#{window_flags}:#{window_active}"


def D(fmt: str, *target: str) -> list[str]:
    return ["display-message", "-p", *(["-t", target[0]] if target else []), fmt]


def screen(id: str, text: str, wait: str, *flags: str, x: int = 80, y: int = 24) -> None:
    """Print ``text`` into a pane and compare ``capture-pane -p FLAGS``."""
    case(id, NS("a", x=x, y=y, cmd=pf(text)), Wait("a", wait), ["capture-pane", "-p", *flags, "-t", "a"])


def keys(id: str, *argv: str) -> None:
    """send-keys ARGV (which ends by sending ``~END``) into a raw ``cat -v`` pane; compare the screen."""
    case(id, NS("a", cmd=RAW), Wait("a", "READY"), ["send-keys", "-t", "a", *argv],
         Wait("a", "~END"), ["capture-pane", "-p", "-t", "a"])


# -- new-session -------------------------------------------------------------------------------

case("ns-list", NS("a"), ["list-sessions"])
case("ns-cwd", NS("a", "-c", "/tmp"), ready(), D("#{pane_current_path}"))
case("ns-size", NS("a", x=100, y=30), D("#{window_width}x#{window_height} #{pane_width}x#{pane_height}"))
case("ns-env", NS("a", "-e", "FOO=bar baz", cmd=sh('printf "<$FOO>"; exec cat')), Wait("a", ">"),
     ["capture-pane", "-p", "-t", "a"])
case("ns-print-format", ["new-session", "-d", "-P", "-F", "#{session_name}:#{window_index}.#{pane_index} #{pane_id}",
                         "-s", "a", *CAT])
case("ns-duplicate", NS("a"), NS("a"))
case("ns-invalid-colon", ["new-session", "-d", "-s", "a:b", *CAT], ["list-sessions", "-F", "#S"])
case("ns-invalid-dot", NS("a"), ["new-session", "-d", "-s", "x.y", *CAT], ["list-sessions", "-F", "#{session_name}"])
case("ns-empty-name", ["new-session", "-d", "-s", "", *CAT])
case("ns-A-existing", NS("a"), ["new-session", "-A", "-d", "-s", "a"])
case("ns-A-new", NS("a"), ["new-session", "-A", "-d", "-s", "b", *CAT], ["list-sessions", "-F", "#S"])
case("ns-default-names", ["new-session", "-d", *CAT], ["new-session", "-d", *CAT], ["new-session", "-d", *CAT],
     ["list-sessions", "-F", "#{session_name} #{session_id}"])
case("ns-numeric-name-taken", ["new-session", "-d", "-s", "1", *CAT], ["new-session", "-d", *CAT],
     ["new-session", "-d", *CAT], ["list-sessions", "-F", "#{session_name} #{session_id}"])
case("ns-unknown-flag", NS("a"), ["new-session", "-Q"])
case("ns-missing-arg", NS("a"), ["new-session", "-d", "-s"], ["list-sessions", "-F", "#S"])
case("ns-bad-width", ["new-session", "-d", "-x", "abc", *CAT])
case("ns-shell-command", NS("a", cmd=["printf hi; exec cat"]), Wait("a", "hi"), D("#{pane_start_command}"))
# (#W is left out: tmux names the window from the child before or after its exec, at random)
case("ns-argv-command", NS("a"), ready(), Wait("a", "cat", "#{pane_current_command}"),
     D("#{pane_start_command}|#{pane_current_command}"))

# -- has-session -------------------------------------------------------------------------------

case("has-exact", NS("abc"), ["has-session", "-t", "=abc"])
case("has-exact-prefix-fails", NS("abc"), ["has-session", "-t", "=ab"])
case("has-prefix", NS("abc"), ["has-session", "-t", "ab"])
case("has-prefix-ambiguous", NS("abc"), NS("abd"), ["has-session", "-t", "ab"])
case("has-fnmatch", NS("abc"), ["has-session", "-t", "*b*"])
case("has-missing", NS("a"), ["has-session", "-t", "x"])
case("has-id-missing", NS("a"), ["has-session", "-t", "$9"])
case("has-no-server", ["has-session", "-t", "x"], no_server=True)

# -- list-sessions -----------------------------------------------------------------------------

case("ls-two-sorted", NS("b"), NS("a"), ["list-sessions"])
case("ls-format", NS("a"), NS("b", "-n", "x"), ["list-sessions", "-F", "#{session_name} #{session_windows} #{session_attached} #{session_id}"])
case("ls-filter", NS("a"), NS("b"), NS("c"), ["list-sessions", "-f", "#{!=:#{session_name},b}", "-F", "#S"])
case("ls-no-server", ["list-sessions"], no_server=True)
case("ls-after-kill-server", NS("a"), ["kill-server"], Gone(), ["list-sessions"])
# -O/-r sorting of the list commands (tmux 3.5+, sort.c); #{line} is 3.7b's.
SORTED = [[*NS("b", "-n", "zz"), ";", *NS("a", "-n", "yy"), ";", "new-window", "-d", "-t", "a", "-n", "xx", *CAT]]
case("ls-O-name", *SORTED, ["list-sessions", "-O", "name", "-F", "#{session_name} #{line}"])
case("ls-O-name-r", *SORTED, ["list-sessions", "-O", "name", "-r", "-F", "#{session_name}"])
case("ls-O-index-r", *SORTED, ["list-sessions", "-O", "index", "-r", "-F", "#{session_name}"])
case("ls-r-alone", *SORTED, ["list-sessions", "-r", "-F", "#{session_name}"])
case("ls-O-bad", *SORTED, ["list-sessions", "-O", "sideways"])
# history_bytes and history_all_bytes are tmux's grid sizes (lines, cells as allocated, extended
# cells for non-ASCII, tabs, RGB, underline colours).
HB = "#{history_bytes} #{history_all_bytes}"
case("hist-bytes-seq", NS("a", cmd=sh("seq 100; exec cat")), Wait("a", "100"), D(HB, "a"))
case("hist-bytes-styled", NS("a", cmd=pf("a\\tb \\033[38;2;1;2;3mrgb\\033[0m\\n\\033[4:3m\\033[58;5;4mx\\033[0m wide\\344\\270\\255 \\303\\251\\n\\033[44m\\033[K\\033[0mEND")),
     Wait("a", "END"), D(HB, "a"))
case("ks-g-group", NS("a"), NS("b", "-t", "a"), NS("c"), ["kill-session", "-g", "-t", "b"],
     ["list-sessions", "-F", "#{session_name}"])
case("ks-g-no-group", NS("a"), NS("c"), ["kill-session", "-g", "-t", "c"], ["list-sessions", "-F", "#{session_name}"])
case("switchc-no-client", NS("a"), NS("b"), ["switch-client", "-n"])
case("switchc-O-bad", NS("a"), ["switch-client", "-O", "bad", "-n"])
case("switchc-T-missing", NS("a"), ["switch-client", "-T", "nosuchtable"])
case("lsw-a-O-name", *SORTED, ["list-windows", "-a", "-O", "name", "-F", "#{window_name} #{line}"])
case("lsw-O-order-r", *SORTED, ["list-windows", "-t", "a", "-O", "order", "-r", "-F", "#{window_name}"])
case("lsw-O-size", *SORTED, ["resize-window", "-t", "a:1", "-x", "10", "-y", "5"],
     ["list-windows", "-a", "-O", "size", "-F", "#{session_name}:#{window_name}"])
case("lsp-O-bad", *SORTED, ["list-panes", "-O", "nope"])
case("lsp-O-creation-r", *SORTED, ["split-window", "-d", "-t", "a:0", *CAT],
     ["list-panes", "-t", "a:0", "-O", "creation", "-r", "-F", "#{pane_id} #{line}"])
case("lsb-O-size", *SORTED, ["set-buffer", "-b", "q", "1", ";", "set-buffer", "-b", "p", "22"],
     ["list-buffers", "-O", "size", "-F", "#{buffer_name}"])
case("lsb-O-name-r", *SORTED, ["set-buffer", "-b", "q", "1", ";", "set-buffer", "-b", "p", "22"],
     ["list-buffers", "-O", "name", "-r", "-F", "#{buffer_name}"])

# -- kill-session / rename-session --------------------------------------------------------------

case("ks-target", NS("a"), NS("b"), ["kill-session", "-t", "a"], ["list-sessions", "-F", "#S"])
case("ks-all-but", NS("a"), NS("b"), NS("c"), ["kill-session", "-a", "-t", "b"], ["list-sessions", "-F", "#S"])
case("ks-last-exits", NS("a"), ["kill-session", "-t", "a"], Gone(), ["has-session", "-t", "a"])
case("rs-ok", NS("a"), ["rename-session", "-t", "a", "b"], ["list-sessions", "-F", "#S #{session_id}"])
case("rs-duplicate", NS("a"), NS("b"), ["rename-session", "-t", "a", "b"])
case("rs-dot", NS("a"), ["rename-session", "-t", "a", "x.y"], ["list-sessions", "-F", "#S"])
case("rs-empty", NS("a"), ["rename-session", "-t", "a", ""])

# -- new-window --------------------------------------------------------------------------------

case("nw-basic", NS("a"), ["new-window", "-t", "a:", *CAT], ["list-windows", "-F", WINFMT])
case("nw-name", NS("a", "-n", "w0"), ["new-window", "-n", "foo", *CAT], ["list-windows", "-F", WINFMTN])
case("nw-detached", NS("a"), ["new-window", "-d", *CAT], ["list-windows", "-F", WINFMT])
case("nw-after", *W3, ["select-window", "-t", "a:0"], ["new-window", "-a", "-t", "a:0", "-n", "new", *CAT],
     ["list-windows", "-F", WINFMTN])
case("nw-before", *W3, ["new-window", "-b", "-t", "a:1", "-n", "new", *CAT], ["list-windows", "-F", WINFMTN])
case("nw-index", NS("a"), ["new-window", "-t", "a:5", *CAT], ["list-windows", "-F", WINFMT])
case("nw-index-in-use", NS("a"), ["new-window", "-t", "a:0", *CAT])
case("nw-target-matches-window-name", NS("a"), NS("b", "-n", "bw"), ["new-window", "-t", "b", *CAT])
case("nw-kill-existing", NS("a", "-n", "old"), ["new-window", "-k", "-t", "a:0", "-n", "replaced", *CAT],
     ["list-windows", "-F", WINFMTN])
case("nw-print-format", NS("a"), ["new-window", "-P", "-F", "#{window_id} #{window_index} #{pane_id}", *CAT])
case("nw-after-shuffle", NS("a"), ["new-window", "-t", "a:1", *CAT], ["new-window", "-a", "-t", "a:0", *CAT],
     ["list-windows", "-F", "#I #{window_id}"])

# -- split-window ------------------------------------------------------------------------------

case("sp-h", NS("a"), ["split-window", "-h", *CAT], ["list-panes", "-F", PANEFMT])
case("sp-l-cells", NS("a"), ["split-window", "-h", "-l", "10", *CAT], ["list-panes", "-F", PANEFMT])
case("sp-l-percent", NS("a"), ["split-window", "-v", "-l", "30%", *CAT], ["list-panes", "-F", PANEFMT])
case("sp-before", NS("a"), ["split-window", "-h", "-b", *CAT], ["list-panes", "-F", PANEFMT])
case("sp-full", *TWO, ["split-window", "-v", "-f", *CAT], ["list-panes", "-F", PANEFMT])
case("sp-detached", NS("a"), ["split-window", "-d", *CAT], ["list-panes", "-F", PANEFMT])
case("sp-print-format", NS("a"), ["split-window", "-P", "-F", "#{pane_id}:#{pane_index}", *CAT])
case("sp-no-space", NS("a", x=20, y=6), ["splitw", "-v", *CAT], ["splitw", "-v", *CAT], ["splitw", "-v", *CAT])
case("sp-size-invalid", NS("a"), ["split-window", "-l", "abc", *CAT])
case("sp-size-too-big", NS("a"), ["split-window", "-h", "-l", "200", *CAT], ["list-panes", "-F", PANEFMT])
case("sp-grid", *GRID, ["list-panes", "-F", PANEFMT])
case("sp-layout", *GRID, ["list-windows", "-F", "#{window_layout} #{window_visible_layout}"])
case("sp-odd-sizes", NS("a", x=81, y=25), ["split-window", "-h", *CAT], ["split-window", "-v", *CAT],
     ["list-panes", "-F", PANEFMT])
case("sp-flag-needs-arg", NS("a"), ["split-window", "-l"], ["list-panes", "-F", PANEFMT])
# tmux 3.7b's empty panes: -E (or -I) makes a pane with no process (pid 0, no tty, not dead,
# cursor hidden); only display-message -I and split-window -I write to it; a command is refused.
EMPTYFMT = ("#{pane_id} #{pane_dead} #{?#{==:#{pane_pid},0},pid0,pid} <#{pane_tty}> #{cursor_flag} "
            "#{pane_current_command} <#{pane_start_command}> <#{pane_current_path}> #{pane_active}")
case("sp-empty", NS("a"), ["split-window", "-E", "-P", "-F", "#{pane_id}"], ["list-panes", "-F", EMPTYFMT])
case("sp-empty-detached-I", NS("a"), ["split-window", "-dI"], ["list-panes", "-F", EMPTYFMT])
case("sp-empty-command-refused", NS("a"), ["split-window", "-E", *CAT])
case("sp-empty-I-command-refused", NS("a"), ["split-window", "-I", "x"])
case("sp-empty-empty-command", NS("a"), ["split-window", "-E", ""], ["list-panes", "-F", EMPTYFMT])
case("sp-empty-keys-dropped", NS("a"), ["split-window", "-E"], ["send-keys", "-t", "a:0.1", "abc"],
     ["capture-pane", "-p", "-t", "a:0.1"])
case("sp-empty-display-I", NS("a"), ["split-window", "-E"], ["display-message", "-I", "-t", "a:0.1"])
case("sp-empty-display-I-not-empty", NS("a"), ["display-message", "-I", "-t", "a:0.0"])
case("sp-empty-pipe-pane", NS("a"), ["split-window", "-E"], ["pipe-pane", "-t", "a:0.1", "cat"])
case("sp-empty-respawn", NS("a"), ["split-window", "-E"], ["respawn-pane", "-t", "a:0.1", *CAT],
     ready("a:0.1"),  # (tmux's child is "tmux" until it execs)
     ["list-panes", "-F", "#{pane_id} #{pane_dead} #{cursor_flag} #{pane_current_command}"])

# -- list-windows / list-panes -----------------------------------------------------------------

case("lw-default", *W3, ["list-windows"])
case("lw-all", NS("a", "-n", "aw"), NS("b", "-n", "bw"), ["new-window", "-t", "b:", "-n", "b1", *CAT], ["list-windows", "-a"])
case("lw-target", NS("a"), NS("b"), ["new-window", "-t", "b:", *CAT], ["list-windows", "-t", "b", "-F", WINFMT])
case("lp-default", *TWO, ["list-panes"])
case("lp-all", *TWO, NS("b"), ["list-panes", "-a"])
case("lp-session", *TWO, ["new-window", "-t", "a:", *CAT], ["list-panes", "-s", "-t", "a"])
case("lp-history-bytes", NS("a", cmd=sh("seq 1 100; exec cat")), Wait("a", "100"), ["list-panes"])
LIBTMUX_PANE = ["session_id", "session_name", "window_id", "window_index", "window_name", "window_active",
                "window_width", "window_height", "window_panes", "window_flags", "pane_id", "pane_index",
                "pane_active", "pane_width", "pane_height", "pane_left", "pane_top", "pane_right",
                "pane_bottom", "pane_current_command", "pane_start_command", "pane_dead", "pane_in_mode",
                "pane_synchronized", "pane_title", "history_limit", "history_size", "cursor_x", "cursor_y",
                "alternate_on", "pane_at_top", "pane_at_left", "scroll_region_upper", "scroll_region_lower",
                "pane_format", "window_format", "session_format"]
LIBTMUX_WINDOW = ["session_id", "session_name", "window_id", "window_index", "window_name", "window_active",
                  "window_layout", "window_panes", "window_width", "window_height", "window_zoomed_flag",
                  "window_last_flag", "window_bell_flag", "window_silence_flag", "window_activity_flag",
                  "window_linked", "window_stack_index"]
LIBTMUX_SESSION = ["session_id", "session_name", "session_windows", "session_attached", "session_grouped",
                   "session_group", "session_many_attached", "session_path", "session_last_attached"]


def seps(fields: list[str]) -> str:
    return "".join(f"#{{{f}}}{SEP}" for f in fields)


case("libtmux-list-panes", *TWO, NS("b", "-n", "bwin"), ["new-window", "-t", "b:", "-n", "second", *CAT],
     ["send-keys", "-t", "b:1", "xy"], Wait("b:1", "xy"), ready("b:1"), ready("a:0.0"),
     ready("a:0.1"), ready("b:0"), ["list-panes", "-a", "-F", seps(LIBTMUX_PANE)])
case("libtmux-list-windows", *TWO, NS("b", "-n", "bwin"), ["list-windows", "-a", "-F", seps(LIBTMUX_WINDOW)])
case("libtmux-list-sessions", NS("a"), NS("b", "-c", "/tmp"), ["list-sessions", "-F", seps(LIBTMUX_SESSION)])

# -- select-window and friends -----------------------------------------------------------------

case("sw-target", *W3, ["select-window", "-t", "a:1"], ["list-windows", "-F", WINFMTN])
case("sw-missing", *W3, ["select-window", "-t", "a:9"])
case("next-window", *W3, ["select-window", "-t", "a:0"], ["next-window", "-t", "a"], D("#I"))
case("next-window-wraps", *W3, ["next-window", "-t", "a"], ["list-windows", "-F", WINFMTN])
case("next-window-none", NS("a"), ["next-window"])
case("previous-window", *W3, ["previous-window"], ["list-windows", "-F", WINFMTN])
case("previous-window-none", NS("a"), ["previous-window", "-t", "a"])
case("last-window", *W3, ["last-window"], ["list-windows", "-F", WINFMTN])
case("last-window-none", NS("a"), ["last-window"])
case("sw-last-flag", *W3, ["select-window", "-l"], D("#I"))
case("sw-next-flag", *W3, ["select-window", "-n"], D("#I"))
case("sw-toggle", *W3, ["select-window", "-T", "-t", "a:2"], D("#I"))

# -- select-pane / last-pane -------------------------------------------------------------------

case("selp-left", *GRID, ["select-pane", "-L"], D("#P"))
case("selp-right-wraps", *GRID, ["select-pane", "-R"], D("#P"))
case("selp-target", *GRID, ["select-pane", "-t", "a:0.1"], ["list-panes", "-F", "#P #{pane_active} #{pane_last}"])
case("selp-last", *GRID, ["select-pane", "-l"], D("#P"))
case("selp-last-none", NS("a"), ["select-pane", "-l"])
case("selp-title", NS("a"), ["select-pane", "-T", "my title"], D("#{pane_title}|#T"))
case("selp-disable", NS("a"), ["select-pane", "-d"], D("#{pane_input_off}"))
case("last-pane", *TWO, ["select-pane", "-t", "a:0.0"], ["last-pane"], D("#P"))
case("last-pane-none", NS("a"), ["last-pane"])

# -- kill-window / kill-pane / rename-window ---------------------------------------------------

case("kw-target", *W3, ["kill-window", "-t", "a:1"], ["list-windows", "-F", WINFMTN])
case("kw-all-but", *W3, ["kill-window", "-a", "-t", "a:1"], ["list-windows", "-F", WINFMTN])
case("kw-last-kills-session", NS("a"), NS("b"), ["kill-window", "-t", "a:0"], ["list-sessions", "-F", "#S"])
case("kp-target", *GRID, ["kill-pane", "-t", "a:0.1"], ["list-panes", "-F", PANEFMT])
case("kp-all-but", *GRID, ["kill-pane", "-a", "-t", "a:0.2"], ["list-panes", "-F", PANEFMT])
case("kp-last-kills-window", *W3, ["kill-pane", "-t", "a:1.0"], ["list-windows", "-F", WINFMTN])
case("rw-ok", NS("a"), ["rename-window", "-t", "a:0", "new name"], ["list-windows", "-F", "#W #{automatic-rename}"])
case("rw-too-few", NS("a"), ["rename-window"])

# -- send-keys ---------------------------------------------------------------------------------

keys("keys-text-enter", "hello", "Enter", "~END")
keys("keys-tab-space", "a", "Tab", "b", "Space", "c", "~END")
keys("keys-control", "C-c", "C-a", "C-z", "C-Space", "C-[", "~END")
keys("keys-meta", "M-x", "M-Enter", "M-C-a", "~END")
keys("keys-cursor", "Up", "Down", "Left", "Right", "~END")
keys("keys-function", "F1", "F2", "F5", "F12", "~END")
keys("keys-edit", "BSpace", "DC", "IC", "Home", "End", "PPage", "NPage", "~END")
keys("keys-literal", "-l", "Enter C-c ~END")
keys("keys-hex", "-H", "41", "42", "1b", "7f", "7e", "45", "4e", "44")
keys("keys-repeat", "-N", "3", "xy", "~END")
keys("keys-utf8", "é中", "Enter", "~END")
case("keys-reset", NS("a", cmd=pf("\\033[31mcolour")), Wait("a", "colour"), ["send-keys", "-R", "-t", "a"],
     ["send-keys", "-t", "a", "-l", "zz"], Wait("a", "zz"), ["capture-pane", "-p", "-e", "-t", "a"])

# -- capture-pane ------------------------------------------------------------------------------

screen("cap-plain", "hello\\nworld\\n", "world")
screen("cap-colours-e", "\\033[31mred\\033[0m \\033[1mbold\\033[0m \\033[42;30mgbg\\033[0m end\\n", "end", "-e")
screen("cap-256-rgb", "\\033[38;5;123ma\\033[48;5;200mb\\033[38;2;1;2;3mc\\033[48;2;250;0;7md\\033[0m end", "end", "-e")
screen("cap-attrs", "\\033[4mu\\033[0m\\033[3mi\\033[0m\\033[7mr\\033[0m\\033[2md\\033[0m\\033[9ms\\033[0m\\033[5mb\\033[0m end",
       "end", "-e")
screen("cap-attr-carry", "\\033[1;31mtwo\\nlines\\033[0m end", "end", "-e")
screen("cap-wide-cjk", "中文字 x\\n", "x")
screen("cap-wide-emoji", "a😀b🎉c end\\n", "end")
screen("cap-wide-e", "\\033[1m中\\033[0m文 end", "end", "-e")
screen("cap-wide-wrap", "123456789中文 end", "end", x=10, y=5)
screen("cap-wrap-join", "0123456789" * 10 + "\\nnext", "next", "-J")
screen("cap-join-trailing", "ab   \\ncd  \\n", "cd", "-J")
screen("cap-trailing-N", "ab   \\ncd\\n", "cd", "-N")
screen("cap-blank-rows", "a\\n\\n\\nb\\n", "b")
screen("cap-cursor-moves", "\\033[5;10Hx\\033[2;3Hy\\033[10;1Hend", "end")
screen("cap-insert-delete", "abcdef\\033[4D\\033[2@XY\\033[2P!\\n", "!")
screen("cap-escapes-C", "\\033[31mred\\033[0m plain", "plain", "-e", "-C")
screen("cap-scroll-region", "\\033[1;3r\\033[3;1H1\\n2\\n3\\n4\\033[r\\033[10;1Hend", "end", y=12)
screen("cap-range", "l1\\nl2\\nl3\\nl4\\nl5\\nl6", "l6", "-S", "2", "-E", "4")
screen("cap-alternate-missing", "x", "x", "-a")
screen("cap-alternate-quiet", "x", "x", "-a", "-q")
screen("cap-alternate", "main\\033[?1049halt screen", "alt")
screen("cap-alternate-saved", "main\\033[?1049halt screen", "alt", "-a")
SEQ = sh("seq 1 100; exec cat")
case("cap-history-all", NS("a", cmd=SEQ), Wait("a", "100"), ["capture-pane", "-p", "-S", "-", "-E", "-", "-t", "a"])
case("cap-history-neg", NS("a", cmd=SEQ), Wait("a", "100"), ["capture-pane", "-p", "-S", "-5", "-E", "2", "-t", "a"])
case("cap-history-before-start", NS("a", cmd=SEQ), Wait("a", "100"), ["capture-pane", "-p", "-S", "-500", "-E", "-70", "-t", "a"])
case("cap-history-size", NS("a", cmd=SEQ), Wait("a", "100"), D("#{history_size} #{history_limit} #{cursor_y}"))
# tmux 3.7b: line numbers, line flags, hyperlinks, cells up to the line's size, tabs, -S/-E formats
LINKS = ("\\033]8;id=a;http://x/\\033\\\\one\\033]8;;\\033\\\\ \\033]8;;file:///t\\007two"
         "\\033]8;;\\007\\033]133;A\\007\\n\\033[31m  end")
case("cap-L", NS("a", cmd=SEQ), Wait("a", "100"), ["capture-pane", "-p", "-L", "-S", "-3", "-E", "1", "-t", "a"])
screen("cap-F", LINKS, "end", "-F")
screen("cap-H", LINKS, "end", "-H")
screen("cap-H-P", LINKS, "end", "-H", "-P")
screen("cap-e-links", LINKS, "end", "-e")
screen("cap-T", "ab  \\033[41m \\033[0m\\ncd", "cd", "-T", "-e")
screen("cap-tab", "a\\tb\\033[7m\\tc\\n", "c", "-e")
case("cap-S-format", NS("a", cmd=SEQ), Wait("a", "100"),
     ["capture-pane", "-p", "-S", "#{e|-:0,3}", "-E", "#{e|+:0,1}", "-t", "a"])
case("pane-pb-progress", NS("a", cmd=pf("\\033]9;4;1;42\\007x")), Wait("a", "x"),
     D("#{pane_pb_state} #{pane_pb_progress}"))
case("pane-pb-indeterminate", NS("a", cmd=pf("\\033]9;4;1;42\\033\\\\\\033]9;4;3\\007x")), Wait("a", "x"),
     D("#{pane_pb_state} #{pane_pb_progress}"))
case("pane-sync-flag", NS("a", cmd=pf("\\033[?2026hx")), Wait("a", "x"),
     D("#{synchronized_output_flag}"))
case("clear-history-H", NS("a", cmd=pf(LINKS)), Wait("a", "end"), ["clear-history", "-H", "-t", "a"],
     ["capture-pane", "-p", "-e", "-t", "a"])

# -- display-message and formats ---------------------------------------------------------------

case("dm-aliases", *TWO, D("#S #I #W #P #D #F"))
case("dm-trim", NS("abcdefgh"), D("#{=5:session_name}|#{=-3:session_name}|#{=/4/...:session_name}"))
case("dm-pad", NS("abc"), D("[#{p10:session_name}][#{p-6:session_name}][#{p2:session_name}]"))
case("dm-subst", NS("banana"), D("#{s/a/o/:session_name}|#{s/(an)(a)/\\2\\1/:session_name}|#{s/A/x/i:session_name}"))
case("dm-cond", NS("a"), D("#{?session_attached,att,det}|#{?#{==:#S,a},eq,ne}|#{?,yes,no}|#{?0,yes,no}"))
case("dm-compare", NS("a"), D("#{==:a,a}#{!=:a,b}#{<:a,b}#{>:a,b}#{<=:b,b}#{>=:a,b}"))
case("dm-logic", NS("a"), D("#{||:0,1}#{&&:1,0}#{||:,}#{&&:1,1}#{!:0}#{!:abc}"))
case("dm-arith", NS("a"), D("#{e|+|:1,2} #{e|-|:1,5} #{e|*|:6,7} #{e|/|:7,2} #{e|%|:7,3} #{e|*|f|2:1.5,3} #{e|/|f:1,3}"))
case("dm-loop-windows", *W3, D("#{W:#{window_index}=#{window_name} }"))
case("dm-loop-windows-current", *W3, D("#{W:<#I>,[#I]}"))
case("dm-loop-panes", *GRID, D("#{P:#{pane_index}#{?pane_active,*,} }"))
case("dm-loop-sessions", NS("a"), NS("b"), NS("c"), D("#{S:#{session_name}/#{session_windows} }"))
case("dm-unknown-var", NS("a"), D("<#{nosuchvariable}>"))
case("dm-window-flags", *W3, ["list-windows", "-F", "#{window_index}[#{window_flags}] #{window_last_flag}"])
case("dm-cursor", NS("a", cmd=pf("abc\\nde")), Wait("a", "de"), D("#{cursor_x},#{cursor_y}"))
case("dm-target", *W3, D("#I #W", "a:1"))
case("dm-F-flag", NS("a"), ["display-message", "-p", "-F", "#S-F"])
case("dm-F-and-arg", NS("a"), ["display-message", "-p", "-F", "#S", "x"])
case("dm-literal", NS("a"), D("#{l:#{session_name}}|##|#,"))
case("dm-quote", NS("a"), ready(), D("#{q:#{pane_current_path}}|#{q:#{s/^/a b;/:session_name}}"))
case("dm-basename", NS("a", "-c", "/usr/share"), ready(),
     D("#{b:pane_current_path}|#{d:pane_current_path}"))
case("dm-match", NS("abc"), D("#{m:a*,abc}#{m:b*,abc}#{m/r:^a.c$,abc}#{m/ri:^A,abc}"))
case("dm-options", NS("a"), D("#{history-limit}|#{base-index}|#{status}|#{@nope}|#{automatic-rename}"))
case("dm-cond-escapes", NS("a"), D("#{?1,a#,b,c}|#{?0,x,y#}z}"))
case("dm-no-print", NS("a"), ["display-message", "hello"])
# display-message's target may fail: tmux then keeps what was found and falls back from there.
case("dm-canfail-window", *W3, D("#S #I", "a:9"))
case("dm-canfail-pane-index", *GRID, D("#I.#P", "a:0.7"))
case("dm-canfail-pane-id", NS("a"), D("[#S]", "%99"))

# -- list-commands -----------------------------------------------------------------------------

case("lscm-single", NS("a"), ["list-commands", "new-session"])
case("lscm-format", NS("a"), ["list-commands", "-F", "#{command_list_name} #{command_list_alias}"])
case("lscm-all", NS("a"), ["list-commands"])
case("lscm-unknown", NS("a"), ["list-commands", "foo"])

# -- targets -----------------------------------------------------------------------------------

case("tgt-full", *GRID, D("#S:#I.#P", "a:0.1"))
case("tgt-exact", NS("ab"), NS("abc"), D("#S", "=ab:"))
case("tgt-session-id", NS("a"), NS("b"), D("#S", "$0"))
case("tgt-window-id", *W3, D("#I", "@1"))
case("tgt-pane-id", *GRID, D("#I.#P", "%2"))
case("tgt-window-name-prefix", *W3, ["rename-window", "-t", "a:1", "other"], D("#I", "a:oth"))
case("tgt-last-window", *W3, D("#I", "a:{last}"))
case("tgt-next-window", *W3, ["select-window", "-t", "a:0"], D("#I", "a:{next}"))
case("tgt-plus-one", *W3, ["select-window", "-t", "a:0"], D("#I", "a:+1"))
case("tgt-start", *W3, ["select-window", "-t", "a:1"], D("#I", "a:^"))
case("tgt-bottom-left", *GRID, D("#P", "{bottom-left}"))
case("tgt-up-of", *GRID, D("#P", "{up-of}"))
case("tgt-last-pane", *GRID, D("#P", "{last}"))
case("tgt-pane-offset", *GRID, D("#P", ".-1"))
case("tgt-err-window", *W3, ["list-panes", "-t", "a:9"])
case("tgt-err-pane-index", NS("a"), ["select-pane", "-t", "a:0.5"])
case("tgt-err-window-id", NS("a"), ["kill-window", "-t", "@99"])
case("tgt-err-session-window", NS("a"), ["select-window", "-t", "x:1"])
case("tgt-err-window-ambiguous", *W3, ["select-window", "-t", "a:w*"])
case("tgt-err-up-of-none", NS("a"), ["select-pane", "-t", "{up-of}"])
NOSESS = ["start-server", ";", "set", "-s", "exit-empty", "off"]
case("tgt-no-sessions-has", NOSESS, ["has-session", "-t", "x"])
case("tgt-no-sessions-default", NOSESS, ["list-windows"])

# -- command line errors, chaining -------------------------------------------------------------

case("err-unknown-command", NS("a"), ["foo"])
case("err-ambiguous-command", NS("a"), ["li"])
case("err-unknown-flag-alias", NS("a"), ["lsp", "-Z"])
case("err-too-many-kill-server", NS("a"), ["kill-server", "x"])
case("err-unknown-no-server", ["foo"], no_server=True)
case("chain-semicolon", ["new-session", "-d", "-s", "a", *CAT, ";", "new-window", "-n", "x", *CAT],
     ["list-windows", "-F", WINFMT])
case("chain-escaped", NS("a"), ["display", "-p", "a\\;", ";", "display", "-p", "b"])
case("chain-trailing-semicolon", NS("a"), ["display", "-p", "x;", "display", "-p", "y"])
case("chain-error-stops", NS("a"), ["has-session", "-t", "x", ";", "display", "-p", "after"])
case("chain-parse-error", NS("a"), ["display", "-p", "one", ";", "foo"])
case("kill-server", NS("a"), ["kill-server"])


# == Layouts and pane management ===============================================================
# select-layout and the presets, layout strings, resize-pane/-window, swap/break/join/move-pane,
# move/swap/link/unlink/rotate-window, respawn-pane/-window, kill -a and the marked pane.
# Windows are 200x50 (or another fixed size); after each operation the panes' geometry and the
# window's layout strings are compared.

LGEOM = "#{pane_id} #{pane_left},#{pane_top} #{pane_width}x#{pane_height}#{?pane_active, *,}"
LWINDOW = "#{window_layout} #{window_visible_layout} #{window_zoomed_flag} #{window_width}x#{window_height}"
LSTATE = ["list-panes", "-F", LGEOM, ";", "display-message", "-p", LWINDOW]
LALL = ["list-panes", "-a", "-F", "#{session_name}:#{window_index}.#{pane_index} " + LGEOM, ";",
        "list-windows", "-a", "-F", "#{session_name}:#{window_index} #{window_id} #{window_flags} #{window_layout}"]
LSESS = ["list-sessions", "-F", "#{session_name} #{session_windows}"]


def LNS(name: str = "a", *extra: str, x: int = 200, y: int = 50, cmd: list[str] | None = None) -> list[str]:
    return NS(name, *extra, x=x, y=y, cmd=cmd)


def SPL(*flags: str) -> list[str]:
    """``; split-window FLAGS cat -`` to chain after a new-session."""
    return [";", "split-window", *flags, *CAT]


# %0 left, %1 right (active)
P2 = [[*LNS(), *SPL("-h")]]
# %0 left, %1 top right, %2 bottom right (active)
P3 = [[*LNS(), *SPL("-h"), *SPL("-v")]]
# the same with window 0 named, for cases that list window names
P3N = [[*LNS("a", "-n", "w0"), *SPL("-h"), *SPL("-v")]]
# %0 top left, %3 bottom left (active), %1 top right, %2 bottom right
P4 = [[*LNS(), *SPL("-h"), *SPL("-v"), *SPL("-v", "-t", "a:0.0")]]
# five and six panes in uneven places
P5 = [[*LNS(), *SPL("-h"), *SPL("-v"), *SPL("-v", "-t", "a:0.0"), *SPL("-h", "-t", "a:0.1")]]
P6 = [[*LNS(), *SPL("-h"), *SPL("-v"), *SPL("-v", "-t", "a:0.0"), *SPL("-h", "-t", "a:0.1"),
       *SPL("-v", "-l", "5")]]
# two sessions: a with P2 in window 0 and one pane in window 1; b with one pane
PW = [[*LNS(), *SPL("-h"), ";", "new-window", "-t", "a:1", *CAT, ";", *LNS("b")]]


def lcase(id: str, *steps: Step) -> None:
    """A layout case: the steps, then the geometry and layout strings of the current window."""
    case(id, *steps, LSTATE)


def acase(id: str, *steps: Step) -> None:
    """A case that moves things between windows: every pane and window of every session."""
    case(id, *steps, LALL)


# -- select-layout presets ----------------------------------------------------------------------

for _n in ("even-horizontal", "even-vertical", "main-horizontal", "main-vertical", "tiled"):
    lcase(f"sl-{_n}", *P4, ["select-layout", _n])
    lcase(f"sl-{_n}-5", *P5, ["select-layout", "-t", "a:0", _n])
    lcase(f"sl-{_n}-6-odd", [*LNS(x=163, y=47), *SPL("-h"), *SPL("-v"), *SPL("-v"), *SPL("-h"), *SPL("-v")],
          ["select-layout", _n])
lcase("sl-abbrev", *P4, ["select-layout", "main-v"])
lcase("sl-abbrev-tiled", *P4, ["selectl", "ti"])
lcase("sl-ambiguous-even", *P4, ["select-layout", "even"])
lcase("sl-one-pane", LNS(), ["select-layout", "tiled"])
lcase("sl-two-panes-main-h", *P2, ["select-layout", "main-horizontal"])
lcase("sl-tiled-grows-window", [*LNS(x=10, y=50), *SPL(), *SPL(), *SPL(), *SPL(), *SPL()],
      ["select-layout", "even-horizontal"])
lcase("sl-tiled-small", [*LNS(x=30, y=10), *SPL("-h"), *SPL("-h"), *SPL("-v"), *SPL("-v")],
      ["select-layout", "tiled"])
lcase("sl-zoomed-unzooms", *P4, ["resize-pane", "-Z"], ["select-layout", "even-vertical"])
lcase("sl-target-window", *PW, ["select-layout", "-t", "a:0.0", "even-vertical"])
lcase("sl-reapply-last", *P4, ["select-layout", "main-vertical"], ["resize-pane", "-t", "a:0.0", "-R", "7"],
      ["select-layout"])
lcase("sl-no-last", *P4, ["resize-pane", "-t", "a:0.0", "-R", "7"], ["select-layout"])

# -- main-pane-* / other-pane-* options ---------------------------------------------------------

lcase("sl-main-pane-width", *P4, ["set", "-w", "main-pane-width", "50"], ["select-layout", "main-vertical"])
lcase("sl-main-pane-width-percent", *P4, ["set", "-w", "main-pane-width", "30%"], ["select-layout", "main-vertical"])
lcase("sl-main-pane-height", *P4, ["set", "-w", "main-pane-height", "10"], ["select-layout", "main-horizontal"])
lcase("sl-main-pane-height-percent", *P4, ["set", "-g", "main-pane-height", "75%"],
      ["select-layout", "main-horizontal"])
lcase("sl-main-pane-height-too-big", *P4, ["set", "-w", "main-pane-height", "100"],
      ["select-layout", "main-horizontal"])
lcase("sl-other-pane-width", *P4, ["set", "-w", "other-pane-width", "40"], ["select-layout", "main-vertical"])
lcase("sl-other-pane-height", *P4, ["set", "-w", "other-pane-height", "20%"], ["select-layout", "main-horizontal"])
lcase("sl-other-pane-width-too-big", *P4, ["set", "-w", "other-pane-width", "190"],
      ["select-layout", "main-vertical"])
case("sl-main-pane-width-invalid", *P4, ["set", "-w", "main-pane-width", "abc"], ["select-layout", "main-vertical"],
     LSTATE)

# -- next-layout / previous-layout / -n -p / -o / -E --------------------------------------------

lcase("sl-next-first", *P4, ["next-layout"])
lcase("sl-next-twice", *P4, ["next-layout"], ["nextl"])
lcase("sl-next-wraps", *P4, ["select-layout", "tiled"], ["next-layout"])
lcase("sl-previous-first", *P4, ["previous-layout"])
lcase("sl-previous-wraps", *P4, ["select-layout", "even-horizontal"], ["prevl"])
lcase("sl-flag-n", *P4, ["select-layout", "main-horizontal"], ["select-layout", "-n"])
lcase("sl-flag-p", *P4, ["select-layout", "main-horizontal"], ["select-layout", "-p"])
lcase("sl-next-target", *PW, ["next-layout", "-t", "a:0"])
case("sl-cycle-all", *P4, ["next-layout", ";", *LSTATE, ";", "next-layout", ";", *LSTATE, ";", "next-layout", ";",
                           *LSTATE, ";", "next-layout", ";", *LSTATE, ";", "next-layout", ";", *LSTATE])
lcase("sl-undo-o", *P4, ["select-layout", "tiled"], ["select-layout", "-o"])
lcase("sl-undo-o-twice", *P4, ["select-layout", "tiled"], ["select-layout", "-o"], ["select-layout", "-o"])
lcase("sl-undo-o-nothing", *P4, ["select-layout", "-o"])
lcase("sl-undo-o-after-next", *P4, ["select-layout", "even-vertical"], ["next-layout"], ["select-layout", "-o"])
case("sl-o-with-preset-name", *P4, ["select-layout", "-o", "even-vertical"])  # tiled crashes tmux 3.3a
lcase("sl-spread-E", *P4, ["resize-pane", "-t", "a:0.1", "-D", "9"], ["select-layout", "-E", "-t", "a:0.1"])
lcase("sl-spread-E-even", *P4, ["select-layout", "-E"])
lcase("sl-spread-E-nested", *P6, ["resize-pane", "-t", "a:0.3", "-L", "11"], ["select-layout", "-E", "-t", "a:0.3"])

# -- layout strings -----------------------------------------------------------------------------

_L2 = "200x50,0,0{100x50,0,0,0,99x50,101,0,1}"
_L2B = "200x50,0,0[200x20,0,0,0,200x29,0,21,1]"
_L3 = "200x50,0,0{60x50,0,0,0,139x50,61,0[139x10,61,0,1,139x39,61,11,2]}"
_L3SMALL = "120x30,0,0[120x10,0,0,0,120x19,0,11{60x19,0,11,1,59x19,61,11,2}]"


def _lay(body: str) -> str:
    csum = 0
    for ch in body.encode():
        csum = ((csum >> 1) + ((csum & 1) << 15) + ch) & 0xFFFF
    return f"{csum:04x},{body}"


lcase("sl-string", *P2, ["select-layout", _lay(_L2B)])
lcase("sl-string-nested", *P3, ["select-layout", _lay(_L3)])
lcase("sl-string-resizes-window", *P3, ["select-layout", _lay(_L3SMALL)])
lcase("sl-string-no-ids", *P2, ["select-layout", _lay("200x50,0,0{50x50,0,0,149x50,51,0}")])
lcase("sl-string-more-cells", *P2, ["select-layout", _lay(_L3)])
case("sl-string-too-few-cells", *P3, ["select-layout", _lay(_L2)])
case("sl-string-bad-checksum", *P2, ["select-layout", "ffff," + _L2])
case("sl-string-size-mismatch", *P2, ["select-layout", _lay("200x50,0,0{100x50,0,0,0,80x50,101,0,1}")])
case("sl-string-trailing", *P2, ["select-layout", _lay(_L2 + "x")])
case("sl-string-garbage", *P2, ["select-layout", _lay("200x50,0,0{100x50")])
case("sl-string-error-keeps-layout", *P2, ["select-layout", "ffff," + _L2], LSTATE)
lcase("sl-string-roundtrip", *P4, ["select-layout", "main-vertical"], ["resize-pane", "-t", "a:0.2", "-U", "4"],
      ["select-layout", "tiled"], ["select-layout", "-o"])
lcase("sl-string-zoomed", *P3, ["resize-pane", "-Z", "-t", "a:0.0"], ["select-layout", _lay(_L3)])
lcase("sl-string-top-cell-fixup", *P2, ["select-layout", _lay("190x40,0,0{100x50,0,0,0,99x50,101,0,1}")])

# -- resize-pane --------------------------------------------------------------------------------

lcase("rp-x", *P3, ["resize-pane", "-t", "a:0.0", "-x", "50"])
lcase("rp-y", *P3, ["resize-pane", "-t", "a:0.1", "-y", "10"])
lcase("rp-x-percent", *P3, ["resize-pane", "-t", "a:0.0", "-x", "25%"])
lcase("rp-y-percent", *P3, ["resize-pane", "-t", "a:0.2", "-y", "80%"])
lcase("rp-x-last-cell", *P3, ["resize-pane", "-t", "a:0.1", "-x", "30"])
lcase("rp-x-huge", *P3, ["resize-pane", "-t", "a:0.0", "-x", "5000"])
lcase("rp-xy-both", *P4, ["resize-pane", "-t", "a:0.3", "-x", "70", "-y", "12"])
lcase("rp-L", *P3, ["resize-pane", "-t", "a:0.1", "-L", "10"])
lcase("rp-R", *P3, ["resize-pane", "-t", "a:0.0", "-R"])
lcase("rp-U", *P3, ["resize-pane", "-t", "a:0.2", "-U", "5"])
lcase("rp-D", *P3, ["resize-pane", "-t", "a:0.1", "-D", "100"])
lcase("rp-D-last-row", *P3, ["resize-pane", "-t", "a:0.2", "-D", "3"])
lcase("rp-single-pane", LNS(), ["resize-pane", "-L", "5"])
lcase("rp-Z", *P3, ["resize-pane", "-Z", "-t", "a:0.0"])
lcase("rp-Z-toggle", *P3, ["resize-pane", "-Z"], ["resize-pane", "-Z"])
lcase("rp-Z-single-pane", LNS(), ["resize-pane", "-Z"])
lcase("rp-Z-then-resize", *P3, ["resize-pane", "-Z"], ["resize-pane", "-t", "a:0.0", "-R", "4"])
case("rp-Z-flags", *P3, ["resize-pane", "-Z", "-t", "a:0.1"],
     ["list-windows", "-F", "#{window_flags} #{window_zoomed_flag} #{window_active}"])
case("rp-Z-list-panes", *P3, ["resize-pane", "-Z", "-t", "a:0.1"], ["list-panes", "-F", "#{pane_id} #{pane_active}"])
case("rp-bad-adjustment", *P3, ["resize-pane", "-L", "abc"])
case("rp-zero-adjustment", *P3, ["resize-pane", "-L", "0"])
case("rp-bad-width", *P3, ["resize-pane", "-x", "abc"])
case("rp-bad-width-percent", *P3, ["resize-pane", "-x", "150%"])
case("rp-bad-height", *P3, ["resize-pane", "-y", "-3"])

# -- resize-window ------------------------------------------------------------------------------

lcase("rw-x", *P3, ["resize-window", "-x", "120"])
lcase("rw-y", *P3, ["resize-window", "-y", "30"])
lcase("rw-xy-grow", *P3, ["resize-window", "-x", "250", "-y", "60"])
lcase("rw-L", *P3, ["resize-window", "-L", "20"])
lcase("rw-R", *P3, ["resize-window", "-R"])
lcase("rw-U", *P3, ["resize-window", "-U", "7"])
lcase("rw-D", *P3, ["resizew", "-D", "3"])
lcase("rw-too-small-for-panes", *P4, ["resize-window", "-x", "5", "-y", "3"])
lcase("rw-A", *P3, ["resize-window", "-x", "100"], ["resize-window", "-A"])
lcase("rw-a", *P3, ["resize-window", "-y", "20"], ["resize-window", "-a"])
lcase("rw-zoomed", *P3, ["resize-pane", "-Z", "-t", "a:0.1"], ["resize-window", "-x", "150"])
lcase("rw-then-layout", *P4, ["resize-window", "-x", "100", "-y", "30"], ["select-layout", "tiled"])
case("rw-window-size-option", *P3, ["resize-window", "-x", "120"], ["show-options", "-w", "window-size"])
case("rw-bad-width", *P3, ["resize-window", "-x", "0"])
case("rw-bad-height", *P3, ["resize-window", "-y", "20000"])
case("rw-bad-adjustment", *P3, ["resize-window", "-L", "x"])

# -- swap-pane ----------------------------------------------------------------------------------

lcase("swp-s-t", *P4, ["swap-pane", "-s", "a:0.0", "-t", "a:0.2"])
lcase("swp-D", *P4, ["swap-pane", "-D"])
lcase("swp-U", *P4, ["swap-pane", "-U"])
lcase("swp-D-wraps", *P4, ["select-pane", "-t", "a:0.3"], ["swap-pane", "-D"])
lcase("swp-U-wraps", *P4, ["select-pane", "-t", "a:0.0"], ["swap-pane", "-U"])
lcase("swp-d", *P4, ["swap-pane", "-d", "-s", "a:0.3", "-t", "a:0.0"])
lcase("swp-active-moves", *P4, ["swap-pane", "-s", "a:0.1", "-t", "a:0.3"])
lcase("swp-same", *P4, ["swap-pane", "-s", "a:0.1", "-t", "a:0.1"])
lcase("swp-zoomed", *P4, ["resize-pane", "-Z"], ["swap-pane", "-s", "a:0.0", "-t", "a:0.1"])
lcase("swp-Z-keeps-zoom", *P4, ["resize-pane", "-Z"], ["swap-pane", "-Z", "-D"])
lcase("swp-marked-source", *P4, ["select-pane", "-m", "-t", "a:0.0"], ["swap-pane", "-t", "a:0.2"])
acase("swp-cross-window", *PW, ["swap-pane", "-s", "a:0.0", "-t", "a:1.0"])
acase("swp-cross-session", *PW, ["swap-pane", "-s", "a:0.1", "-t", "b:0"])
acase("swp-cross-window-d", *PW, ["swap-pane", "-d", "-s", "a:1.0", "-t", "a:0.1"])
case("swp-bad-target", *P4, ["swap-pane", "-t", "a:0.9"])

# -- rotate-window ------------------------------------------------------------------------------

lcase("rotw-U", *P4, ["rotate-window"])
lcase("rotw-D", *P4, ["rotate-window", "-D"])
lcase("rotw-twice", *P5, ["rotate-window", "-U"], ["rotatew", "-U"])
lcase("rotw-zoomed", *P4, ["resize-pane", "-Z"], ["rotate-window"])
lcase("rotw-Z", *P4, ["resize-pane", "-Z"], ["rotate-window", "-Z", "-D"])
lcase("rotw-one-pane", LNS(), ["rotate-window"])
lcase("rotw-target", *PW, ["rotate-window", "-t", "a:0"])

# -- break-pane ---------------------------------------------------------------------------------

acase("bp-basic", *P3, ["break-pane"])
acase("bp-d", *P3, ["break-pane", "-d", "-s", "a:0.0"])
acase("bp-n", *P3N, ["break-pane", "-n", "broken"], ["list-windows", "-F", WINFMTN])
case("bp-P", *P3, ["break-pane", "-P"])
case("bp-P-F", *P3, ["break-pane", "-d", "-P", "-F", "#{window_id} #{pane_id} #{window_panes} #{window_active}"])
acase("bp-t-index", *P3, ["break-pane", "-t", "a:7"])
acase("bp-t-session", *P3, *[[*LNS("b")]], ["break-pane", "-s", "a:0.1", "-t", "b:"])
case("bp-t-index-in-use", *PW, ["break-pane", "-t", "a:1"])
acase("bp-a", *[W3[0] + SPL("-h")], ["select-window", "-t", "a:0"], ["break-pane", "-a", "-s", "a:2.1", "-t", "a:0"])
acase("bp-b", *[W3[0] + SPL("-h")], ["break-pane", "-b", "-s", "a:2.0", "-t", "a:1"])
acase("bp-single-pane", *PW, ["break-pane", "-s", "a:1"])
acase("bp-single-pane-t", *PW, ["break-pane", "-d", "-s", "a:1", "-t", "b:5"])
acase("bp-single-pane-last-in-session", *PW, ["break-pane", "-s", "b:0", "-t", "a:"])
acase("bp-zoomed", *P3, ["resize-pane", "-Z", "-t", "a:0.0"], ["break-pane", "-s", "a:0.1"])
case("bp-active-after", *P4, ["select-pane", "-t", "a:0.1"], ["select-pane", "-t", "a:0.3"],
     ["break-pane", "-d"], ["list-panes", "-t", "a:0", "-F", "#{pane_id} #{pane_active} #{pane_last}"])

# -- join-pane / move-pane ----------------------------------------------------------------------

acase("jp-basic", *PW, ["join-pane", "-s", "a:1", "-t", "a:0.0"])
acase("jp-h", *PW, ["join-pane", "-h", "-s", "a:1", "-t", "a:0.1"])
acase("jp-v-b", *PW, ["join-pane", "-v", "-b", "-s", "a:1", "-t", "a:0.0"])
acase("jp-f", *PW, ["join-pane", "-f", "-s", "a:1", "-t", "a:0.1"])
acase("jp-f-h-b", *PW, ["join-pane", "-f", "-h", "-b", "-s", "a:1", "-t", "a:0.1"])
acase("jp-l", *PW, ["join-pane", "-l", "12", "-s", "a:1", "-t", "a:0.0"])
acase("jp-l-percent", *PW, ["join-pane", "-h", "-l", "30%", "-s", "a:1", "-t", "a:0.0"])
acase("jp-p", *PW, ["join-pane", "-p", "25", "-s", "a:1", "-t", "a:0.0"])
acase("jp-d", *PW, ["join-pane", "-d", "-s", "a:1", "-t", "a:0.0"])
acase("jp-from-other-session", *PW, ["join-pane", "-s", "b:0", "-t", "a:1"])
acase("jp-within-window", *P4, ["join-pane", "-h", "-s", "a:0.0", "-t", "a:0.2"])
acase("jp-keeps-src-window", *P4, ["new-window", "-t", "a:1", *CAT], ["join-pane", "-s", "a:0.1", "-t", "a:1"])
acase("jp-marked", *PW, ["select-pane", "-m", "-t", "a:1"], ["join-pane", "-t", "a:0.1"])
acase("movep", *PW, ["move-pane", "-s", "a:1", "-t", "a:0.1"])
acase("movep-zoomed", *PW, ["resize-pane", "-Z", "-t", "a:0.0"], ["movep", "-s", "a:1", "-t", "a:0.1"])
case("jp-same-pane", *PW, ["join-pane", "-s", "a:0.1", "-t", "a:0.1"])
case("jp-too-small", [*LNS(x=20, y=3), *SPL("-h")], ["new-window", *CAT], ["join-pane", "-s", "a:1", "-t", "a:0.0"])
case("jp-size-invalid", *PW, ["join-pane", "-l", "abc", "-s", "a:1", "-t", "a:0.0"])
case("jp-size-percent-invalid", *PW, ["join-pane", "-l", "200%", "-s", "a:1", "-t", "a:0.0"])
case("jp-p-invalid", *PW, ["join-pane", "-p", "101", "-s", "a:1", "-t", "a:0.0"])
case("jp-no-marked", *PW, ["join-pane", "-t", "a:0.0"])

# -- move-window / link-window / unlink-window / swap-window ------------------------------------

WLIST = ["list-windows", "-a", "-F", "#{session_name}:#{window_index} #{window_id} #{window_name} #{window_flags}"]
case("mw-index", *W3, ["move-window", "-s", "a:0", "-t", "a:5"], WLIST)
case("mw-default-index", *W3, ["move-window", "-s", "a:0"], WLIST)
case("mw-r", *W3, ["move-window", "-s", "a:0", "-t", "a:5"], ["move-window", "-r"], WLIST)
case("mw-r-target", *W3, *[[*NS("b", "-n", "bw")]], ["move-window", "-s", "a:1", "-t", "b:4"],
     ["move-window", "-r", "-t", "b"], WLIST)
case("mw-r-bad-target", *W3, ["move-window", "-r", "-t", "nosuch"])
case("mw-a", *W3, ["move-window", "-a", "-s", "a:2", "-t", "a:0"], WLIST)
case("mw-b", *W3, ["move-window", "-b", "-s", "a:2", "-t", "a:0"], WLIST)
case("mw-d", *W3, ["move-window", "-d", "-s", "a:1", "-t", "a:7"], WLIST)
case("mw-k", *W3, ["move-window", "-k", "-s", "a:0", "-t", "a:2"], WLIST)
case("mw-in-use", *W3, ["move-window", "-s", "a:0", "-t", "a:2"])
case("mw-same-index", *W3, ["move-window", "-s", "a:1", "-t", "a:1"])
case("mw-other-session", *W3, *[[*NS("b", "-n", "bw")]], ["move-window", "-s", "a:1", "-t", "b:"], WLIST)
case("mw-last-of-session", *W3, *[[*NS("b", "-n", "bw")]], ["move-window", "-s", "b:0", "-t", "a:"], WLIST)
case("mw-renumber-option", *W3, ["set", "-g", "renumber-windows", "on"], *[[*NS("b", "-n", "bw")]],
     ["move-window", "-s", "a:0", "-t", "b:"], WLIST)
case("mw-renumber-with-s", *W3, ["set", "-g", "renumber-windows", "on"],
     ["move-window", "-s", "a:0", "-t", "a:9"], WLIST)
case("mw-marked-renumbered", *W3, ["select-pane", "-m", "-t", "a:2"], ["move-window", "-r"],
     D("#{pane_marked_set}"))
case("lnkw-basic", *W3, *[[*NS("b", "-n", "bw")]], ["link-window", "-s", "a:1", "-t", "b:3"], WLIST)
case("lnkw-linked-flag", *W3, *[[*NS("b", "-n", "bw")]], ["link-window", "-s", "a:1", "-t", "b:3"],
     ["list-windows", "-a", "-F", "#S:#I #{window_linked} #{window_linked_sessions} #{window_active_sessions}"])
case("lnkw-same-session", *W3, ["link-window", "-s", "a:1", "-t", "a:6"], WLIST)
case("lnkw-a", *W3, ["link-window", "-a", "-s", "a:2", "-t", "a:0"], WLIST)
case("lnkw-b", *W3, ["link-window", "-b", "-s", "a:2", "-t", "a:1"], WLIST)
case("lnkw-d", *W3, *[[*NS("b", "-n", "bw")]], ["link-window", "-d", "-s", "a:1", "-t", "b:"], WLIST)
case("lnkw-k", *W3, *[[*NS("b", "-n", "bw")]], ["link-window", "-k", "-s", "a:1", "-t", "b:0"], WLIST)
case("lnkw-in-use", *W3, *[[*NS("b", "-n", "bw")]], ["link-window", "-s", "a:1", "-t", "b:0"])
case("lnkw-same-index", *W3, ["link-window", "-s", "a:1", "-t", "a:1"])
case("lnkw-no-r", *W3, ["link-window", "-r"])
case("unlinkw-linked", *W3, *[[*NS("b", "-n", "bw")]], ["link-window", "-s", "a:1", "-t", "b:3"],
     ["unlink-window", "-t", "a:1"], WLIST)
case("unlinkw-only-linked", *W3, ["unlink-window", "-t", "a:1"])
case("unlinkw-k", *W3, ["unlink-window", "-k", "-t", "a:1"], WLIST)
case("unlinkw-k-current", *W3, ["unlink-window", "-k"], WLIST)
case("unlinkw-k-last", *W3, *[[*NS("b", "-n", "bw")]], ["unlink-window", "-k", "-t", "b:0"], LSESS)
case("swpw-basic", *W3, ["swap-window", "-s", "a:0", "-t", "a:2"], WLIST)
case("swpw-d", *W3, ["swap-window", "-d", "-s", "a:0", "-t", "a:1"], WLIST)
case("swpw-cross-session", *W3, *[[*NS("b", "-n", "bw")]], ["swap-window", "-s", "a:1", "-t", "b:0"], WLIST)
case("swpw-cross-session-d", *W3, *[[*NS("b", "-n", "bw")]], ["swap-window", "-d", "-s", "a:1", "-t", "b:0"], WLIST)
case("swpw-same", *W3, ["swap-window", "-s", "a:1", "-t", "a:1"], WLIST)
case("swpw-default-source", *W3, ["swap-window", "-t", "a:0"], WLIST)
case("swpw-marked", *W3, ["select-pane", "-m", "-t", "a:0"], ["swap-window", "-t", "a:1"],
     ["list-windows", "-F", "#I #W #{window_marked_flag}"])
case("swpw-grouped", *W3, ["new-session", "-d", "-s", "g", "-t", "a"], ["swap-window", "-s", "a:0", "-t", "g:1"])

# -- respawn-pane / respawn-window ---------------------------------------------------------------

READX = sh("read x; exit 3")
case("rsp-still-active", *P2, ["respawn-pane", "-t", "a:0.0"])
case("rsp-k", *P2, ["respawn-pane", "-k", "-t", "a:0.0", *pf("again")], Wait("a:0.0", "again"),
     ["capture-pane", "-p", "-t", "a:0.0", ";", "display", "-p", "-t", "a:0.0",
      "#{pane_id} #{pane_dead} #{pane_start_command} #{pane_width}x#{pane_height}"])
case("rsp-k-same-command", *P2, ["respawn-pane", "-k", "-t", "a:0.0"], ready("a:0.0"),
     D("#{pane_id} #{pane_dead} #{pane_start_command}", "a:0.0"))
case("rsp-dead", [*LNS(cmd=READX), ";", "set", "-g", "remain-on-exit", "on"], ["send-keys", "-t", "a", "Enter"],
     Wait("a", "1", "#{pane_dead}"), ["respawn-pane", "-t", "a", *pf("back")], Wait("a", "back"),
     ["capture-pane", "-p", "-t", "a", ";", "display", "-p", "#{pane_dead} #{pane_dead_status}|#{pane_start_command}"])
case("rsp-dead-after-key", [*LNS(cmd=READX), ";", "set", "-g", "remain-on-exit", "on"], ["send-keys", "-t", "a", "Enter"],
     Wait("a", "t", "#{?pane_dead_time,t,}", reap=True),
     D("#{pane_dead} #{pane_dead_status} #{pane_start_command}"))
case("rsp-c", *P2, ["respawn-pane", "-k", "-c", "/tmp", "-t", "a:0.1"], Wait("a:0.1", "/tmp", "#{pane_current_path}"),
     D("#{pane_current_path} #{pane_current_command}", "a:0.1"))
case("rsp-e", *P2, ["respawn-pane", "-k", "-e", "FOO=bar", "-t", "a:0.1", *sh('printf "<$FOO>"; exec cat')],
     Wait("a:0.1", ">"), ["capture-pane", "-p", "-t", "a:0.1"])
case("rsp-keeps-title", *P2, ["select-pane", "-t", "a:0.0", "-T", "kept"], ["respawn-pane", "-k", "-t", "a:0.0"],
     ready("a:0.0"), D("#{pane_title}", "a:0.0"))
case("rsw-still-active", *P3, ["respawn-window", "-t", "a:0"])
case("rsw-k", *P3, ["respawn-window", "-k", "-t", "a:0"], ready("a:0"), LSTATE)
case("rsw-k-command", *P3, ["respawn-window", "-k", "-t", "a:0", *pf("win")], Wait("a:0", "win"),
     ["capture-pane", "-p", "-t", "a:0", ";", *LSTATE])
case("rsw-selects-window", *W3, ["respawn-window", "-k", "-t", "a:0"], ready("a:0"), ["list-windows", "-F", WINFMTN])
case("rsw-dead", [*LNS(cmd=READX), ";", "set", "-g", "remain-on-exit", "on"], ["send-keys", "-t", "a", "Enter"],
     Wait("a", "1", "#{pane_dead}"), ["respawn-window", "-t", "a", *pf("back")], Wait("a", "back"),
     ["capture-pane", "-p", "-t", "a", ";", "display", "-p", "#{pane_dead} #{window_panes}"])

# -- kill-pane -a / kill-window -a / active pane after a kill ------------------------------------

lcase("kp-a-zoomed", *P4, ["resize-pane", "-Z", "-t", "a:0.1"], ["kill-pane", "-a", "-t", "a:0.2"])
lcase("kp-a-active", *P4, ["kill-pane", "-a"])
lcase("kp-a-one-pane", LNS(), ["kill-pane", "-a"])
case("kp-active-goes-to-last", *P4, ["select-pane", "-t", "a:0.0"], ["select-pane", "-t", "a:0.2"],
     ["kill-pane", "-t", "a:0.2"], ["list-panes", "-F", "#{pane_id} #{pane_active} #{pane_last}"])
case("kp-active-no-last", *P4, ["select-pane", "-t", "a:0.0"], ["kill-pane", "-t", "a:0.1"], ["kill-pane"],
     ["list-panes", "-F", "#{pane_id} #{pane_active} #{pane_last}"])
case("kp-last-cleared", *P4, ["select-pane", "-t", "a:0.0"], ["kill-pane", "-t", "a:0.3"],
     ["list-panes", "-F", "#{pane_id} #{pane_active} #{pane_last}", ";", "select-pane", "-l"])
case("kw-a-linked", *W3, *[[*NS("b", "-n", "bw")]], ["link-window", "-s", "a:1", "-t", "a:5"],
     ["kill-window", "-a", "-t", "a:1"], WLIST)
case("kw-a-one", NS("a"), ["kill-window", "-a"], ["list-windows", "-F", WINFMT])
case("kw-current-picks-previous", *W3, ["select-window", "-t", "a:0"], ["kill-window", "-t", "a:1"],
     ["kill-window"], ["list-windows", "-F", WINFMTN])

# -- select-pane -m / -M and {marked} ------------------------------------------------------------

MARKFMT = "#{pane_id} #{pane_marked} #{pane_marked_set} #{window_marked_flag} #{window_flags}"
case("selp-m", *P3, ["select-pane", "-m", "-t", "a:0.1"], ["list-panes", "-F", MARKFMT])
case("selp-m-toggle", *P3, ["select-pane", "-m", "-t", "a:0.1"], ["select-pane", "-m", "-t", "a:0.1"],
     ["list-panes", "-F", MARKFMT])
case("selp-m-move", *P3, ["select-pane", "-m", "-t", "a:0.1"], ["select-pane", "-m", "-t", "a:0.0"],
     ["list-panes", "-F", MARKFMT])
case("selp-M", *P3, ["select-pane", "-m", "-t", "a:0.1"], ["select-pane", "-M"], ["list-panes", "-F", MARKFMT])
case("selp-m-zoomed-hidden", *P3, ["resize-pane", "-Z", "-t", "a:0.2"], ["select-pane", "-m", "-t", "a:0.0"],
     ["list-panes", "-F", MARKFMT])
case("selp-m-other-session", *PW, ["link-window", "-s", "a:0", "-t", "b:4"], ["select-pane", "-m", "-t", "a:0.1"],
     ["list-panes", "-a", "-F", "#S:#I.#P " + MARKFMT])
case("selp-marked-target", *P3, ["select-pane", "-m", "-t", "a:0.1"], D("#{pane_id}", "{marked}"))
case("selp-marked-tilde", *P3, ["select-pane", "-m", "-t", "a:0.0"], D("#{pane_id}", "~"))
case("selp-no-marked", *P3, D("#{pane_id}", "{marked}"))
case("selp-marked-killed", *P3, ["select-pane", "-m", "-t", "a:0.1"], ["kill-pane", "-t", "a:0.1"],
     ["list-panes", "-F", MARKFMT])
case("selp-marked-swapped-away", *PW, ["select-pane", "-m", "-t", "a:0.1"], ["swap-pane", "-s", "a:0.1", "-t", "b:0"],
     ["list-panes", "-a", "-F", "#S:#I.#P " + MARKFMT])
# tmux 3.7 keeps a stale mark: the pane swapped away and back, or its window moved to another
# session and back, is marked again.
case("selp-marked-swapped-back", *PW, ["select-pane", "-m", "-t", "a:0.1"],
     ["swap-pane", "-s", "a:0.1", "-t", "b:0"], D("#{pane_marked_set}"),
     ["swap-pane", "-s", "b:0", "-t", "a:0.1"], ["list-panes", "-a", "-F", "#S:#I.#P " + MARKFMT],
     D("#{pane_id}", "{marked}"))
case("selp-marked-window-moved-back", *PW, ["select-pane", "-m", "-t", "a:1"],
     ["move-window", "-s", "a:1", "-t", "b:5"], D("#{pane_marked_set}"),
     ["move-window", "-s", "b:5", "-t", "a:1"], ["list-panes", "-a", "-F", "#S:#I.#P " + MARKFMT])
case("selp-marked-window-swapped-back", *PW, ["select-pane", "-m", "-t", "a:1"],
     ["swap-window", "-s", "a:1", "-t", "b:0"], D("#{pane_marked_set}"),
     ["swap-window", "-s", "b:0", "-t", "a:1"], ["list-panes", "-a", "-F", "#S:#I.#P " + MARKFMT])
case("selp-marked-list-windows", *PW, ["select-pane", "-m", "-t", "a:1"],
     ["list-windows", "-a", "-F", "#S:#I #{window_flags} #{window_marked_flag}"])

# -- more layout edge cases: pane-border-status, zoom, groups, manual window size ---------------

BST = ["set", "-g", "pane-border-status", "top"]
BSB = ["set", "-g", "pane-border-status", "bottom"]
for _n in ("even-vertical", "main-horizontal", "tiled"):
    lcase(f"sl-{_n}-border-top", *P5, BST, ["select-layout", _n])
    lcase(f"sl-{_n}-border-bottom", *P5, BSB, ["select-layout", _n])
lcase("sl-tiled-7", [*LNS(), *SPL("-h"), *SPL("-v"), *SPL("-v"), *SPL("-h"), *SPL("-v"), *SPL("-h")],
      ["select-layout", "tiled"])
lcase("sl-main-vertical-2", *P2, ["select-layout", "main-vertical"])
lcase("sl-next-after-string", *P3, ["select-layout", "main-vertical"], ["select-layout", _lay(_L3)], ["next-layout"])
lcase("sl-E-zoomed", *P4, ["resize-pane", "-t", "a:0.1", "-D", "9"], ["resize-pane", "-Z"],
      ["select-layout", "-E", "-t", "a:0.1"])
lcase("sl-string-border-top", *P3, BST, ["select-layout", _lay(_L3)])
lcase("rp-y-border-top", *P3, BST, ["resize-pane", "-t", "a:0.1", "-y", "10"])
lcase("rp-y-border-bottom", *P3, BSB, ["resize-pane", "-t", "a:0.2", "-y", "10"])
lcase("rp-D-border-bottom", *P3, BSB, ["resize-pane", "-t", "a:0.1", "-D", "30"])
lcase("rp-Z-inactive-pane", *P4, ["resize-pane", "-Z", "-t", "a:0.0"])
lcase("rp-Z-then-select-pane", *P4, ["resize-pane", "-Z"], ["select-pane", "-t", "a:0.0"])
lcase("rp-Z-select-pane-Z", *P4, ["resize-pane", "-Z"], ["select-pane", "-Z", "-t", "a:0.0"])
lcase("rw-manual-then-join", *PW, ["resize-window", "-t", "a:0", "-x", "100"], ["join-pane", "-s", "a:1", "-t", "a:0.0"])
lcase("rw-manual-then-layout-grows", [*LNS(x=20, y=50), *SPL(), *SPL(), *SPL(), *SPL(), *SPL()],
      ["resize-window", "-x", "10"], ["select-layout", "even-horizontal"])
acase("swp-cross-window-Z", *PW, ["resize-pane", "-Z", "-t", "a:0.0"], ["swap-pane", "-Z", "-s", "a:1.0", "-t", "a:0.0"])
acase("swp-cross-window-zoomed", *PW, ["resize-pane", "-Z", "-t", "a:0.1"], ["swap-pane", "-s", "a:1.0", "-t", "a:0.0"])
lcase("swp-D-one-pane", LNS(), ["swap-pane", "-D"])
lcase("rotw-two", *P2, ["rotate-window"])
acase("bp-zoomed-other", *P3, ["resize-pane", "-Z", "-t", "a:0.0"], ["break-pane", "-d", "-s", "a:0.2"])
case("bp-n-not-expanded", *P3N, ["break-pane", "-n", "#{session_name}"], ["list-windows", "-F", "#I #W"])
acase("bp-marked", *P3, ["select-pane", "-m", "-t", "a:0.1"], ["break-pane", "-s", "a:0.1"])
acase("jp-same-window-f-b", *P4, ["join-pane", "-f", "-b", "-s", "a:0.3", "-t", "a:0.1"])
acase("jp-to-zoomed-window", *PW, ["resize-pane", "-Z", "-t", "a:0.1"], ["join-pane", "-s", "a:1", "-t", "a:0.1"])
acase("jp-last-pane-of-session", *PW, ["join-pane", "-s", "b:0", "-t", "a:0.0"])
acase("jp-renumbers", *W3, ["set", "-g", "renumber-windows", "on"], ["join-pane", "-s", "a:0", "-t", "a:2"])
case("mw-k-current", *W3, ["move-window", "-k", "-s", "a:0", "-t", "a:2"], WLIST)
case("mw-k-d-current", *W3, ["move-window", "-d", "-k", "-s", "a:0", "-t", "a:2"], WLIST)
case("mw-r-base-index", *W3, ["set", "-g", "base-index", "1"], ["move-window", "-r"], WLIST)
case("mw-grouped", *W3, ["new-session", "-d", "-s", "g", "-t", "a"], ["move-window", "-s", "a:0", "-t", "g:5"])
case("lnkw-grouped", *W3, ["new-session", "-d", "-s", "g", "-t", "a"], ["link-window", "-s", "a:0", "-t", "g:5"])
case("lnkw-to-group-member", *W3, ["new-session", "-d", "-s", "g", "-t", "a"], *[[*NS("b", "-n", "bw")]],
     ["link-window", "-s", "b:0", "-t", "a:5"], WLIST)
case("unlinkw-grouped", *W3, ["new-session", "-d", "-s", "g", "-t", "a"], ["unlink-window", "-t", "a:1"])
case("kw-current-first-wraps", NS("a", "-n", "w0"), ["new-window", "-d", "-n", "w1", *CAT],
     ["new-window", "-d", "-n", "w2", *CAT], ["kill-window", "-t", "a:0"], ["list-windows", "-F", WINFMTN])
case("unlinkw-current-wraps", NS("a", "-n", "w0"), ["new-window", "-d", "-n", "w1", *CAT],
     ["new-window", "-d", "-n", "w2", *CAT], *[[*NS("b", "-n", "bw")]], ["link-window", "-s", "a:0", "-t", "b:1"],
     ["unlink-window", "-t", "a:0"], ["list-windows", "-t", "a", "-F", WINFMTN])
case("rsp-zoomed", *P3, ["resize-pane", "-Z", "-t", "a:0.1"], ["respawn-pane", "-k", "-t", "a:0.1"],
     ready("a:0.1"), LSTATE)
case("kp-a-marked", *P3, ["select-pane", "-m", "-t", "a:0.0"], ["kill-pane", "-a", "-t", "a:0.1"],
     D("#{pane_marked_set}"))
case("mw-d-current", *W3, ["move-window", "-d", "-s", "a:2", "-t", "a:8"], WLIST)
case("mw-current-to-other-session", *W3, *[[*NS("b", "-n", "bw")]], ["move-window", "-s", "a:2", "-t", "b:"],
     WLIST)
acase("swp-cross-window-src-zoomed", *PW, ["resize-pane", "-Z", "-t", "a:0.1"],
      ["swap-pane", "-s", "a:0.1", "-t", "a:1.0"])
case("rsp-keeps-history", NS("a", cmd=SEQ), Wait("a", "100"), ["respawn-pane", "-k", "-t", "a", *pf("again")],
     Wait("a", "again"), D("#{history_size} #{cursor_x},#{cursor_y}"))
case("rsp-k-twice", *P2, ["respawn-pane", "-k", "-t", "a:0.0", ";", "respawn-pane", "-k", "-t", "a:0.0"],
     ready("a:0.0"), D("#{pane_id} #{pane_dead} #{window_panes}", "a:0.0"))
case("rsp-missing-cwd", *P2, ["respawn-pane", "-k", "-c", "/nonexistent/dir", "-t", "a:0.1"], ready("a:0.1"),
     D("#{pane_current_path}", "a:0.1"))
acase("jp-l-larger-than-pane", *PW, ["join-pane", "-l", "500", "-s", "a:1", "-t", "a:0.0"])
# tmux 3.7b: mirrored main layouts, tiled's column limit, the spare cells go to the first panes,
# the previously active panes are a stack, the mark follows a moved window
for _n in ("main-horizontal-mirrored", "main-vertical-mirrored"):
    lcase(f"sl-{_n}", *P5, ["select-layout", _n])
    lcase(f"sl-{_n}-border-top", *P5, BST, ["select-layout", _n])
lcase("sl-main-h-ambiguous", *P4, ["select-layout", "main-h"])
lcase("sl-main-vertical-m", *P4, ["select-layout", "main-vertical-m"])
lcase("sl-cycle-mirrored", *P4, ["select-layout", "main-horizontal"], ["next-layout"], ["next-layout"])
lcase("sl-tiled-max-columns", *P6, ["set", "-w", "tiled-layout-max-columns", "2"], ["select-layout", "tiled"])
lcase("sl-even-vertical-spare-rows", [*LNS(x=80, y=24), *SPL(), *SPL(), *SPL(), *SPL()],
      ["select-layout", "even-vertical"])
case("kp-last-stack", *P4, ["select-pane", "-t", "a:0.0"], ["select-pane", "-t", "a:0.2"],
     ["select-pane", "-t", "a:0.1"], ["kill-pane"], ["kill-pane"],
     ["list-panes", "-F", "#{pane_id} #{pane_active} #{pane_last}"])
case("mw-marked-moved", *W3, ["select-pane", "-m", "-t", "a:1"], ["move-window", "-s", "a:1", "-t", "a:7"],
     ["list-windows", "-F", "#I #{window_marked_flag} #{pane_marked_set}"])
acase("jp-b-pane-order", *P3, ["join-pane", "-b", "-h", "-s", "a:0.2", "-t", "a:0.0"])
case("jp-l-format", *PW, ["join-pane", "-l", "#{e|+:3,4}", "-s", "a:1", "-t", "a:0.0"], LSTATE)
case("jp-l-percent-too-big", *PW, ["join-pane", "-l", "101%", "-s", "a:1", "-t", "a:0.0"])
case("sl-string-single-cell", LNS(), ["select-layout", _lay("100x30,0,0,0")], LSTATE)
case("sl-string-empty", *P2, ["select-layout", _lay("")])
case("sl-string-floating-part", *P2, ["select-layout", _lay(_L2 + "<30x10,4,2,7>")])
lcase("sl-main-h-many", [*LNS(x=80, y=24), *SPL("-h"), *SPL("-h"), *SPL("-h"), *SPL("-v"), *SPL("-v"), *SPL("-v")],
      ["select-layout", "main-horizontal"])
case("dp-no-client", *P3, ["display-panes"])
case("dp-bad-client", *P3, ["display-panes", "-t", "nosuch"])


# -- floating panes (tmux 3.7b's new-pane) -----------------------------------------------------

FGEOM = ("#{pane_id} #{pane_left},#{pane_top} #{pane_width}x#{pane_height} f#{pane_floating_flag} "
         "z#{pane_z} x#{pane_x} y#{pane_y} #{pane_flags}#{?pane_active, *,}")
FSTATE = ["list-panes", "-F", FGEOM, ";", "display-message", "-p", LWINDOW]


def fcase(id: str, *steps: Step) -> None:
    """A floating-pane case: the steps, then every pane's geometry, floating flag, z-order and
    flags and the window's layout strings."""
    case(id, *steps, FSTATE)


NP = ["new-pane", *CAT]
fcase("np-default", NS("a"), NP)
case("np-list-template", NS("a"), NP, ["split-window", "-t", "a.0", *CAT],
     ["list-panes", ";", "list-panes", "-s", ";", "list-panes", "-a"], subs=((r"\d+ bytes", "N bytes"),))
fcase("np-cascade", NS("a"), NP, NP, NP)
# the last tiled pane killed: the floating one is the root and still listed in <...>
fcase("np-last-tiled-killed", NS("a"), NP, ["kill-pane", "-t", "%0"])
# (a string with <...> is refused then; one without tiles the pane)
fcase("np-last-tiled-killed-relayout", NS("a"), NP, ["kill-pane", "-t", "%0"],
      ["select-layout", "06e9,40x6,4,2,1<40x6,4,2,1>"], ["select-layout", "b25f,40x6,4,2,1"])
fcase("np-size-place", NS("a"), ["new-pane", "-x", "10", "-y", "5", "-X", "3", "-Y", "4", *CAT])
fcase("np-percent", NS("a"), ["new-pane", "-x", "50%", "-y", "25%", "-X", "10%", "-Y", "#{e|+:1,2}", *CAT])
fcase("np-negative-place", NS("a"), ["new-pane", "-X", "-5", "-Y", "-2", *CAT])
fcase("np-zero-size", NS("a"), ["new-pane", "-x", "0", "-y", "0", *CAT])
case("np-x-too-large", NS("a"), ["new-pane", "-x", "80", *CAT])
case("np-y-invalid", NS("a"), ["new-pane", "-y", "abc", *CAT])
case("np-X-too-small", NS("a"), ["new-pane", "-X", "-41", *CAT])
case("np-Y-percent-too-large", NS("a"), ["new-pane", "-Y", "101%", *CAT])
case("np-command-for-empty", NS("a"), ["new-pane", "-E", *CAT])
fcase("np-tiled-L", NS("a"), ["new-pane", "-L", "-h", *CAT])
fcase("np-detached", NS("a"), ["new-pane", "-d", *CAT])
case("np-print", NS("a"), ["new-pane", "-P", "-F", "#{pane_id} #{pane_floating_flag} #{window_panes}", *CAT])
fcase("np-select-raises", NS("a"), NP, NP, NP, ["select-pane", "-t", "a.1"])
fcase("np-last-pane", NS("a"), NP, NP, ["select-pane", "-t", "a.0"], ["last-pane"])
fcase("np-mark-selects", NS("a"), NP, NP, ["select-pane", "-m", "-t", "a.1"])
fcase("np-kill-floating", NS("a"), NP, NP, ["select-pane", "-t", "a.1"], ["kill-pane", "-t", "a.1"])
fcase("np-kill-tiled", NS("a"), ["split-window", *CAT], NP, ["kill-pane", "-t", "a.0"])
fcase("np-zoom-floating", NS("a"), NP, ["resize-pane", "-Z", "-t", "a.1"])
fcase("np-unzoom", NS("a"), NP, ["resize-pane", "-Z", "-t", "a.1"], ["resize-pane", "-Z"])
fcase("np-zoom-tiled", NS("a"), ["split-window", *CAT], NP, ["resize-pane", "-Z", "-t", "a.0"])
fcase("np-Z-flag", NS("a"), ["new-pane", "-Z", *CAT])
fcase("np-border-status", NS("a"), ["set", "-g", "pane-border-status", "bottom"], ["split-window", *CAT], NP)
fcase("np-split-tiled-around", NS("a"), NP, ["split-window", "-h", "-t", "a.0", *CAT],
      ["split-window", "-f", "-v", "-t", "a.0", *CAT])
fcase("np-preset-tiles", NS("a"), ["split-window", *CAT], NP, ["select-layout", "even-horizontal"])
fcase("np-join-floating-source", NS("a"), ["split-window", "-h", *CAT], NP, ["join-pane", "-s", "a.2", "-t", "a.0"])
case("np-join-floating-target", NS("a"), ["split-window", "-h", *CAT], NP, ["join-pane", "-s", "a.0", "-t", "a.2"])
case("np-break-floating", NS("a"), ["split-window", "-h", *CAT], NP, ["break-pane", "-d", "-s", "a.2"], LALL)
fcase("np-styles", NS("a"), ["new-pane", "-s", "bg=red", "-S", "fg=green", "-R", "fg=blue", *CAT],
      ["show-options", "-p"])
case("np-bad-style", NS("a"), ["new-pane", "-s", "bg=nosuchcolour", *CAT])
case("np-bad-active-border-style", NS("a"), ["new-pane", "-S", "fg=nosuch", *CAT])
case("np-keep-message", NS("a"), ["new-pane", "-m", "bye #{pane_id}", *CAT], ["show-options", "-p"])
case("np-keep-k", NS("a"), ["new-pane", "-k", *CAT], ["show-options", "-p", "remain-on-exit"])
fcase("np-position-targets", NS("a"), ["split-window", "-h", *CAT], ["new-pane", "-X", "0", "-Y", "0", *CAT],
      ["select-pane", "-t", "{top-left}"])
case("np-window-flags", NS("a"), NP, ["display-message", "-p", "#{window_panes} #{pane_flags} #{P:#{pane_id}#{pane_flags} }"])
fcase("sp-Z-d", NS("a"), ["split-window", "-Z", "-d", *CAT])
fcase("sp-Z", NS("a"), ["split-window", "-Z", *CAT])
fcase("sp-Z-zoomed", NS("a"), ["split-window", *CAT], ["resize-pane", "-Z"], ["split-window", "-Z", "-h", *CAT])
fcase("sp-zoomed-no-Z", NS("a"), ["split-window", *CAT], ["resize-pane", "-Z"], ["split-window", "-h", *CAT])
fcase("sp-styles-keep", NS("a"), ["split-window", "-k", "-s", "fg=red", "-R", "fg=blue", *CAT], ["show-options", "-p"])


# == Key tables: bind-key, unbind-key, list-keys, send-prefix ==================================
# tmux 3.7b's default tables must list byte for byte (columns, escaping, \; between commands);
# bindings are made on the command line and from config files, and every error path is compared.
# Config files are written once per test process into a private directory, so both servers read
# the same path (it shows in error messages).

_KB_DIR: list[str] = []


def kb_conf(name: str, text: str) -> str:
    """The path of a key-binding config file holding ``text``."""
    import atexit
    import os
    import shutil
    import tempfile

    if not _KB_DIR:
        _KB_DIR.append(tempfile.mkdtemp(prefix="hmux-kb-"))
        atexit.register(shutil.rmtree, _KB_DIR[0], True)
    path = os.path.join(_KB_DIR[0], name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def LSK(*args: str) -> list[str]:
    return ["list-keys", *args]


# -- list-keys of the defaults ------------------------------------------------------------------

case("kb-lsk-default", NS(), LSK())
case("kb-lsk-alias-root", NS(), ["lsk", "-T", "root"])
case("kb-lsk-prefix", NS(), LSK("-T", "prefix"))
case("kb-lsk-copy-mode", NS(), LSK("-T", "copy-mode"))
case("kb-lsk-copy-mode-vi", NS(), LSK("-T", "copy-mode-vi"))
case("kb-lsk-notes", NS(), LSK("-N"))
case("kb-lsk-notes-all", NS(), LSK("-aN"))
case("kb-lsk-notes-table-none", NS(), LSK("-N", "-T", "copy-mode"))
case("kb-lsk-notes-table-all", NS(), LSK("-a", "-N", "-T", "copy-mode-vi"))
case("kb-lsk-notes-P", NS(), LSK("-N", "-P", "=> "))
case("kb-lsk-notes-P-table", NS(), LSK("-N", "-P", "[x] ", "-T", "prefix"))
case("kb-lsk-notes-one", NS(), LSK("-1N", "c"))
case("kb-lsk-notes-key", NS(), LSK("-N", "Up"))
case("kb-lsk-prefix-c", NS(), LSK("-T", "prefix", "c"))
case("kb-lsk-key-every-table", NS(), LSK("Up"))
case("kb-lsk-key-modified", NS(), LSK("C-M-b"))
case("kb-lsk-key-semicolon", NS(), LSK("\\;"))
case("kb-lsk-key-quote", NS(), LSK("-T", "prefix", '"'))
case("kb-lsk-one", NS(), LSK("-1", "-T", "copy-mode-vi", "q"))
case("kb-lsk-invalid-key", NS(), LSK("Foo"))
case("kb-lsk-unbound-key", NS(), LSK("F11"))
case("kb-lsk-none-key", NS(), LSK("None"))
case("kb-lsk-notes-unbound", NS(), LSK("-N", "F11"))
case("kb-lsk-no-table", NS(), LSK("-T", "nope"))
case("kb-lsk-no-table-notes", NS(), LSK("-N", "-T", "nope"))
case("kb-lsk-too-many", NS(), LSK("a", "b"))
case("kb-lsk-prefix-remapped", NS(), ["set", "-g", "prefix", "C-a"], LSK("-N"))
case("kb-lsk-prefix-none", NS(), ["set", "-g", "prefix", "None"], LSK("-N"))
case("kb-lsk-prefix-none-root-note", NS(), ["set", "-g", "prefix", "None"],
     ["bind", "-n", "-N", "A root note", "F5", "display", "x"], LSK("-N"))
case("kb-lsk-notes-width", NS(), ["bind", "-n", "-N", "wide key", "M-S-PPage", "display", "x"],
     LSK("-N"))

# -- bind-key -----------------------------------------------------------------------------------

case("kb-bind-roundtrip", NS(), ["bind", "x", "display", "hi"], LSK("x"))
case("kb-bind-replaces-default", NS(), ["bind-key", "c", "display", "hi"], LSK("-T", "prefix"))
case("kb-bind-unknown-key", NS(), ["bind", "Foo", "display", "hi"])
case("kb-bind-none-key", NS(), ["bind", "None", "display", "hi"])
case("kb-bind-no-key", NS(), ["bind"])
case("kb-bind-unknown-command", NS(), ["bind", "x", "foo"], LSK("-T", "prefix", "x"))
case("kb-bind-syntax-error", NS(), ["bind", "x", 'display "'])
case("kb-bind-bad-flag", NS(), ["bind", "x", "display -Q"])
case("kb-bind-bad-flag-argv", NS(), ["bind", "x", "display", "-Q"])
case("kb-bind-block-string", NS(), ["bind", "x", "{ display hi ; display there }"])
case("kb-bind-n", NS(), ["bind", "-n", "F12", "display", "a b"], LSK("-T", "root"))
case("kb-bind-r", NS(), ["bind", "-r", "a", "resize-pane", "-L"], LSK("-T", "prefix", "a"))
case("kb-bind-r-column", NS(), ["unbind", "-a"], ["bind", "-r", "a", "display", "a"],
     ["bind", "b", "display", "b"], LSK())
case("kb-bind-no-r-column", NS(), ["unbind", "-a"], ["bind", "b", "display", "b"], LSK("-T", "prefix"))
case("kb-bind-N", NS(), ["bind", "-N", "my note", "a", "display", "hi"], LSK("-N", "a"))
case("kb-bind-N-listed", NS(), ["bind", "-N", "my note", "a", "display", "hi"], LSK("-T", "prefix", "a"))
case("kb-bind-N-only", NS(), ["bind", "-N", "Changed note", "c"], LSK("-N", "c"))
case("kb-bind-bare-clears-note", NS(), ["bind", "c"], LSK("-N", "c"))
case("kb-bind-bare-keeps-command", NS(), ["bind", "c"], LSK("c"))
case("kb-bind-T-new-table", NS(), ["bind", "-T", "mine", "a", "display", "hi"], LSK("-T", "mine"))
case("kb-bind-T-bare-creates", NS(), ["bind", "-T", "mine", "a"], LSK("-T", "mine"))
case("kb-bind-T-sorted-tables", NS(), ["bind", "-T", "zz", "a", "display", "z"],
     ["bind", "-T", "aa", "b", "display", "a"], ["bind", "-T", "a-long-table-name", "c", "display", "l"], LSK())
case("kb-bind-semicolons", NS(), ["bind", "y", "display", "hi", "\\;", "display", "there"], LSK("y"))
case("kb-bind-string", NS(), ["bind", "z", "display hi; display there"], LSK("z"))
case("kb-bind-quoting", NS(), ["bind", "z", "display", "-p", "a b", "'q'", '"d"', "#{session_name}", ""],
     LSK("z"))
case("kb-bind-utf8-order", NS(), ["unbind", "-a"], ["bind", "é", "display", "e"], ["bind", "中", "display", "w"],
     ["bind", "Ã", "display", "a"], ["bind", "M-é", "display", "m"], ["bind", "z", "display", "z"], LSK())
case("kb-bind-any-user", NS(), ["bind", "-n", "Any", "display", "any"], ["bind", "User0", "display", "u"],
     ["bind", "User999", "display", "u"], LSK("-T", "root", ";", "list-keys", "-T", "prefix", "User0"))
case("kb-bind-user-too-big", NS(), ["bind", "User1000", "display", "u"])
case("kb-bind-mouse-no-note", NS(), ["bind", "-n", "-N", "mouse", "MouseDown1Status", "display", "m"],
     LSK("-N", "-T", "root"))
case("kb-bind-alias", NS(), ["set", "-s", "command-alias[100]", "hello=display-message -p"],
     ["bind", "x", "hello", "world"], LSK("x"))
case("kb-bind-keys-canonical", NS(), ["bind", "^a", "display", "1"], ["bind", "C-M-Up", "display", "2"],
     ["bind", "s-F1", "display", "3"], ["bind", "0xe9", "display", "4"], ["bind", "Tab", "display", "5"],
     LSK("-T", "prefix", "C-a", ";", "list-keys", "C-M-Up", ";", "list-keys", "S-F1", ";",
         "list-keys", "é", ";", "list-keys", "C-i"))

# -- unbind-key ---------------------------------------------------------------------------------

case("kb-unbind-key", NS(), ["unbind", "c"], LSK("c"))
case("kb-unbind-listing", NS(), ["unbind", "c", ";", "unbind", "-n", "MouseDown1Pane"], LSK())
case("kb-unbind-unknown-key", NS(), ["unbind", "Foo"])
case("kb-unbind-missing-key", NS(), ["unbind"])
case("kb-unbind-quiet", NS(), ["unbind", "-q", "Foo"])
case("kb-unbind-quiet-missing", NS(), ["unbind", "-q"])
case("kb-unbind-no-table", NS(), ["unbind", "-T", "nope", "x"])
case("kb-unbind-unbound", NS(), ["unbind", "F11"])
case("kb-unbind-a-with-key", NS(), ["unbind", "-a", "x"])
case("kb-unbind-a-no-table", NS(), ["unbind", "-a", "-T", "nope"])
case("kb-unbind-a-quiet", NS(), ["unbind", "-aq", "-T", "nope"])
case("kb-unbind-a-copy-mode", NS(), ["unbind", "-a", "-T", "copy-mode"], LSK("-T", "copy-mode"))
case("kb-unbind-a-copy-mode-listing", NS(), ["unbind", "-a", "-T", "copy-mode"], LSK())
case("kb-unbind-a-root-recreated", NS(), ["unbind", "-a", "-n"], LSK("-T", "root"))
case("kb-unbind-a-prefix-rebind", NS(), ["unbind", "-a"], ["bind", "x", "display", "x"], LSK("-T", "prefix"))
case("kb-unbind-last-removes-table", NS(), ["bind", "-T", "mine", "a", "display", "a"],
     ["unbind", "-T", "mine", "a"], LSK("-T", "mine"))
case("kb-unbind-rebound-table-goes", NS(), ["unbind", "-a"], ["bind", "x", "display", "x"], ["unbind", "x"],
     LSK("-T", "prefix"))
case("kb-unbind-default-table-stays", NS(), ["unbind", "-a", "-T", "copy-mode"],
     ["bind", "-T", "copy-mode", "q", "display", "q"], LSK("-T", "copy-mode"))

# -- send-prefix --------------------------------------------------------------------------------

case("kb-send-prefix", NS("a", cmd=RAW), Wait("a", "READY"),
     ["send-prefix", ";", "set", "-g", "prefix", "C-a", ";", "send-prefix", "-t", "a", ";",
      "set", "-g", "prefix2", "F1", ";", "send-prefix", "-2", ";", "set", "prefix", "M-x", ";",
      "send-prefix", ";", "send-keys", "~END"], Wait("a", "~END"), ["capture-pane", "-p", "-t", "a"])

# -- bindings from config files -----------------------------------------------------------------

KB_REMAP = kb_conf("remap.conf", """\
# C-a as prefix, screen style
unbind C-b
set -g prefix C-a
bind C-a send-prefix
bind a last-window
bind | split-window -h -c "#{pane_current_path}"
bind - split-window -v -c "#{pane_current_path}"
unbind '"'
unbind %
bind -r H resize-pane -L 5
bind -r J resize-pane -D 5
bind -n M-Left select-pane -L
bind -n M-Right select-pane -R
bind -N 'Reload the configuration' R source-file ~/.tmux.conf \\; display "Reloaded!"
""")
KB_VI = kb_conf("vi.conf", """\
setw -g mode-keys vi
bind -T copy-mode-vi v send -X begin-selection
bind -T copy-mode-vi C-v send -X rectangle-toggle
bind -T copy-mode-vi y send -X copy-pipe-and-cancel 'xclip -in -selection clipboard'
bind -T copy-mode-vi Escape send -X cancel
unbind -T copy-mode-vi MouseDragEnd1Pane
bind P paste-buffer
""")
KB_BLOCKS = kb_conf("blocks.conf", """\
bind x { display one ; display two }
bind y {
  display one
  display two
}
bind z if -F '#{==:#{window_panes},1}' { split-window -h } { kill-pane }
bind -T mytable j { display j }
bind w 'display "a b"; display c'
bind v display "#{session_name}" \\; display y
%if #{==:#{version},3.3a}
bind u display new
%else
bind u display old
%endif
bind t {
  %if 1
  display yes
  %endif
}
""")
KB_ERRORS = kb_conf("errors.conf", """\
bind Foo display x
bind x display ok
unbind -T nope x
unbind -a -T nope
bind y nosuchcommand
unbind Bar
bind z display after
""")
KB_PARSE_ERROR = kb_conf("parse-error.conf", """\
bind x display before
bind -T x
bind y display never
""")

case("kb-conf-remap-prefix", NS(), ["source-file", KB_REMAP], LSK("-T", "prefix"))
case("kb-conf-remap-root", NS(), ["source-file", KB_REMAP], LSK("-T", "root"))
case("kb-conf-remap-notes", NS(), ["source-file", KB_REMAP], LSK("-N"))
case("kb-conf-vi", NS(), ["source-file", KB_VI], LSK("-T", "copy-mode-vi"))
case("kb-conf-blocks", NS(), ["source-file", KB_BLOCKS], LSK("-T", "prefix", ";", "list-keys", "-T", "mytable"))
case("kb-conf-errors", NS(), ["source-file", KB_ERRORS])
case("kb-conf-errors-bound", NS(), ["source-file", KB_ERRORS], LSK("z", ";", "list-keys", "x"))
case("kb-conf-parse-error", NS(), ["source-file", KB_PARSE_ERROR])
case("kb-conf-parse-error-nothing-bound", NS(), ["source-file", KB_PARSE_ERROR], LSK("x"))

# -- tmux 3.7b: list-keys -O/-r/-F, key codes that are no longer folded, send-keys changes -------
# Sorting goes through tmux's (inconsistent) comparison function and glibc's merge sort; one
# listed binding is a message, not output; C-i, C-[ and C-@ are keys of their own.
KEYSTR = "#{key_table}:#{key_string}#{?key_repeat,(r),}#{?key_note,=#{key_note},}"
case("kb-lsk-sort-index", NS(), LSK("-O", "index"))
case("kb-lsk-sort-key-reversed", NS(), LSK("-O", "key", "-r", "-F", KEYSTR))
case("kb-lsk-sort-name", NS(), LSK("-O", "name", "-F", KEYSTR))
case("kb-lsk-sort-modifier-prefix", NS(), LSK("-T", "prefix", "-O", "modifier", "-F", KEYSTR))
case("kb-lsk-sort-order-reversed", NS(), LSK("-T", "root", "-O", "order", "-r"))
case("kb-lsk-reverse-alone", NS(), LSK("-T", "copy-mode", "-r", "-F", KEYSTR))
case("kb-lsk-sort-notes", NS(), LSK("-N", "-O", "index", "-r"))
case("kb-lsk-sort-invalid", NS(), LSK("-O", "bogus"))
case("kb-lsk-sort-case", NS(), LSK("-T", "copy-mode-vi", "-O", "NAME", "-F", KEYSTR))
case("kb-lsk-format-vars", NS(), LSK("-T", "prefix", "-N", "-F",
     "#{notes_only}|#{key_has_repeat}|#{key_string_width}|#{key_table_width}|#{key_prefix}|"
     "#{key_string}|#{key_repeat}|#{key_command}"))
case("kb-lsk-format-empty-lines", NS(), LSK("-T", "prefix", "-F", "#{?key_repeat,#{key_string},}"))
case("kb-lsk-P-without-N", NS(), LSK("-P", ">> ", "-T", "copy-mode", "-F", "#{key_prefix}"))
case("kb-lsk-one-binding-is-a-message", NS(), ["bind", "-T", "one", "x", "display", "x"],
     LSK("-T", "one", ";", "list-keys", "-T", "prefix", "c", ";", "list-keys", "-1", "-T", "one"))
case("kb-lsk-one-unmatched", NS(), LSK("-1", "-T", "copy-mode-vi", "F11"), LSK("-N", "-1", "F11"))
case("kb-bind-unfolded-ctrl", NS(), ["bind", "C-i", "display", "ci"], ["bind", "Tab", "display", "tab"],
     ["bind", "C-m", "display", "cm"], ["bind", "C-@", "display", "at"], ["bind", "C-Space", "display", "sp"],
     ["bind", "^A", "display", "ca"], ["bind", "C-A", "display", "cA"], ["bind", "C-[", "display", "esc"],
     LSK("-T", "prefix", "-F", KEYSTR))
case("kb-bind-c0-and-hex", NS(), ["unbind", "-a"], ["bind", "0x1", "display", "soh"],
     ["bind", "0x0", "display", "nul"], ["bind", "0x41", "display", "packed"], ["bind", "A", "display", "A"],
     ["bind", "0x7f", "display", "del"], ["bind", "[LF]", "display", "lf"], ["bind", "User1000", "display", "u"],
     ["bind", "0x10f000", "display", "hi"], ["bind", "é", "display", "e"], LSK())
case("kb-bind-bare-note-and-repeat", NS(), ["bind", "-r", "c"], ["bind", "-N", "Renamed", "d"], ["bind", "d"],
     LSK("-T", "prefix", "-F", KEYSTR))
case("kb-bind-scrollbar-control-keys", NS(), ["bind", "-n", "MouseUp2ScrollbarSlider", "display", "s"],
     ["bind", "-n", "M-DoubleClick3Control4", "display", "c"], LSK("-T", "root", "-F", KEYSTR))
case("kb-lsk-new-defaults-notes", NS(), LSK("-N", "-T", "prefix", "*"), LSK("-aN", "-T", "copy-mode", "-F",
     "#{key_string}=#{key_command}"))
keys("keys-N-format", "-N", "#{e|+:1,2}", "x", "~END")
keys("keys-F-not-expanded", "-F", "#{session_name}", "~END")
keys("keys-refused-after-esc", "C-M-BSpace", "C-BSpace", "C-Escape", "~END")
keys("keys-unfolded", "S-a", "C-1", "C-!", "C-3", "C-8", "C-Tab", "C-Enter", "M-S-x", "Any", "User5", "~END")
keys("keys-c0-names", "[SOH]", "[LF]", "0x1", "0x7f", "0x41", "~END")
keys("keys-literal-controls", "-l", "a\x01b\tc", "~END")
EXT1 = sh("stty raw -echo; printf '\\033[>4;1mREADY'; exec cat -v")
EXT2 = sh("stty raw -echo; printf '\\033[>4;2mREADY'; exec cat -v")
EXTKEYS = ["C-a", "S-a", "M-x", "C-Tab", "C-é", "BTab", "C-BSpace", "M-Up", "a", "-l", "b"]
for _n, _cmd in (("1", EXT1), ("2", EXT2)):
    case(f"keys-extended-{_n}", NS(), ["set", "-s", "extended-keys", "on"], NS("b", cmd=_cmd), Wait("b", "READY"),
         ["send-keys", "-t", "b", *EXTKEYS[:-2]], ["set", "-s", "extended-keys-format", "csi-u"],
         ["send-keys", "-t", "b", *EXTKEYS[:-2], "~END"], Wait("b", "~END"), ["capture-pane", "-p", "-t", "b"])
case("keys-extended-off-ignored", NS(), NS("b", cmd=EXT1), Wait("b", "READY"),
     ["send-keys", "-t", "b", "S-a", "C-Tab", "~END"], Wait("b", "~END"), ["capture-pane", "-p", "-t", "b"])
case("keys-backspace-option", NS(), NS("b", cmd=RAW), Wait("b", "READY"), ["set", "-s", "backspace", "C-h"],
     ["send-keys", "-t", "b", "BSpace", "M-BSpace", "~END"], Wait("b", "~END"), ["capture-pane", "-p", "-t", "b"])

# == buffers, environment, shell commands, wait-for, pipe-pane, hooks (tmux 3.3a's commands) =====
# Files are named after the server's socket (#{b:socket_path}), so the three runs of a case write
# their own files in the shared home; LABEL hides the name in messages.
LABEL = ((r"\b[thd][0-9a-f]{8}\b", "LABEL"),)
BUF = "'#{b:socket_path}.buf'"


def bcase(id: str, *steps: Step) -> None:
    case(id, NS("a"), *steps, subs=LABEL)


def LSB(*extra: str) -> list[str]:
    return ["list-buffers", *extra]


# -- set-buffer, delete-buffer, list-buffers ------------------------------------------------------

bcase("setb-auto-names", ["set-buffer", "hello", ";", "set-buffer", "world"], LSB())
bcase("setb-named", ["set-buffer", "-b", "foo", "xx", ";", "set-buffer", "yy"], LSB())
bcase("setb-replace-named-order", ["set-buffer", "-b", "foo", "1", ";", "set-buffer", "2", ";",
                                   "set-buffer", "-b", "foo", "three"], LSB())
bcase("setb-append", ["set-buffer", "-b", "foo", "ab", ";", "set-buffer", "-a", "-b", "foo", "cd"],
      ["show-buffer", "-b", "foo"])
bcase("setb-append-unknown-new", ["set-buffer", "-a", "-b", "new", "x"], LSB())
bcase("setb-append-no-name", ["set-buffer", "x", ";", "set-buffer", "-a", "y"], LSB())
bcase("setb-rename-top", ["set-buffer", "hello", ";", "set-buffer", "-n", "renamed"], LSB())
bcase("setb-rename-named", ["set-buffer", "-b", "a", "x", ";", "set-buffer", "-b", "a", "-n", "b"], LSB())
bcase("setb-rename-no-longer-auto", ["set-buffer", "one", ";", "set-buffer", "-n", "kept", ";",
                                     "set-buffer", "two"], LSB())
bcase("setb-rename-unknown", ["set-buffer", "-b", "nope", "-n", "x"])
bcase("setb-rename-exists", ["set-buffer", "-b", "a", "1", ";", "set-buffer", "-b", "b", "2"],
      ["set-buffer", "-b", "a", "-n", "b"])
bcase("setb-rename-empty", ["set-buffer", "x"], ["set-buffer", "-n", ""])
bcase("setb-rename-none", ["set-buffer", "-n", "x"])
bcase("setb-no-data", ["set-buffer"])
bcase("setb-empty-data", ["set-buffer", ""], LSB())
bcase("setb-empty-name", ["set-buffer", "-b", "", "x"])
bcase("setb-w-no-terminal", ["set-buffer", "-w", "clip"], LSB())
bcase("setb-t-bad-client", ["set-buffer", "-t", "/dev/nope", "x"], LSB())
bcase("setb-alias", ["setb", "-b", "al", "v"], ["showb", "-b", "al"])
bcase("buffer-limit", ["set", "-s", "buffer-limit", "2", ";", "set-buffer", "a", ";", "set-buffer", "b",
                       ";", "set-buffer", "-b", "named", "n", ";", "set-buffer", "c"], LSB())
bcase("buffer-limit-shrunk", ["set-buffer", "a", ";", "set-buffer", "b", ";", "set-buffer", "c"],
      ["set", "-s", "buffer-limit", "1"], LSB(), ["set-buffer", "d", ";", "list-buffers"])
bcase("buffer-index-not-reused", ["set-buffer", "a", ";", "delete-buffer", ";", "set-buffer", "b"], LSB())
bcase("deleteb-top", ["set-buffer", "a", ";", "set-buffer", "b", ";", "delete-buffer"], LSB())
bcase("deleteb-top-is-named", ["set-buffer", "x", ";", "set-buffer", "-b", "n", "y", ";", "delete-buffer"], LSB())
bcase("deleteb-named", ["set-buffer", "-b", "foo", "x", ";", "set-buffer", "y"], ["delete-buffer", "-b", "foo"], LSB())
bcase("deleteb-unknown", ["set-buffer", "y"], ["delete-buffer", "-b", "nope"])
bcase("deleteb-none", ["delete-buffer"])
bcase("lsb-empty", LSB())
bcase("lsb-format", ["set-buffer", "-b", "n", "abc", ";", "set-buffer", "defg"],
      LSB("-F", "#{buffer_name}:#{buffer_size}:#{buffer_sample}|#{session_name}|#{client_name}|#{line}"))
bcase("lsb-filter", ["set-buffer", "a", ";", "set-buffer", "-b", "keep", "b", ";", "set-buffer", "c"],
      LSB("-f", "#{m:k*,#{buffer_name}}"))
bcase("lsb-filter-false", ["set-buffer", "a"], LSB("-f", "0"))
bcase("lsb-sample-escapes", ["set-buffer", 'a b\tc\nd\\e"f$x$1\x01\x7f\u00e9\x1bend$'], LSB())
bcase("lsb-sample-nul-octal", ["set-buffer", "x\r\x07\x08\x0b\x0c"], LSB())
bcase("lsb-sample-long", ["set-buffer", "x" * 250], LSB())
bcase("lsb-sample-utf8-cut", ["set-buffer", "\u00e9" * 150], LSB())
bcase("lsb-sample-exact-200", ["set-buffer", "y" * 200], LSB())

# -- show-buffer, save-buffer, load-buffer --------------------------------------------------------

bcase("showb-top", ["set-buffer", "hello", ";", "set-buffer", "-b", "n", "named"], ["show-buffer"])
bcase("showb-raw", ["set-buffer", "l1\nl2\t\x01\n"], ["show-buffer"])
bcase("showb-named", ["set-buffer", "-b", "n", "named", ";", "set-buffer", "top"], ["show-buffer", "-b", "n"])
bcase("showb-none", ["show-buffer"])
bcase("showb-unknown", ["set-buffer", "x"], ["show-buffer", "-b", "nope"])
# tmux's client gives its stdout to the first stream that asks; later ones get EBADF.
bcase("showb-then-print", ["set-buffer", "hello"], ["show-buffer", ";", "display-message", "-p", "after"])
bcase("print-then-showb", ["set-buffer", "hello"],
      ["display-message", "-p", "before", ";", "show-buffer", ";", "display-message", "-p", "after"])
bcase("showb-twice", ["set-buffer", "hello"], ["show-buffer", ";", "show-buffer"])
bcase("saveb-stdout", ["set-buffer", "to stdout"], ["save-buffer", "-"])
bcase("saveb-stdout-error-next", ["set-buffer", "x"], ["save-buffer", "-", ";", "has-session", "-t", "nope"])
bcase("saveb-load-roundtrip", ["set-buffer", "-b", "src", "some\ndata\n"], ["save-buffer", "-b", "src", BUF],
      ["load-buffer", "-b", "dst", BUF], LSB())
bcase("saveb-append", ["set-buffer", "one,"], ["save-buffer", BUF], ["save-buffer", "-a", BUF],
      ["save-buffer", "-a", BUF], ["load-buffer", BUF, ";", "show-buffer"])
bcase("saveb-truncates", ["set-buffer", "a long first text"], ["save-buffer", BUF], ["set-buffer", "short"],
      ["save-buffer", BUF], ["load-buffer", "-b", "r", BUF, ";", "show-buffer", "-b", "r"])
bcase("saveb-bad-dir", ["set-buffer", "x"], ["save-buffer", "/nonexistent/dir/file", ";", "display-message", "-p", "next"])
bcase("saveb-relative-bad", ["set-buffer", "x"], ["save-buffer", "nodir/#{session_name}.out"])
bcase("saveb-none", ["save-buffer", BUF])
bcase("saveb-unknown", ["set-buffer", "x"], ["save-buffer", "-b", "nope", BUF])
bcase("loadb-missing", ["load-buffer", "nofile-#{session_name}", ";", "display-message", "-p", "next"])
bcase("loadb-missing-absolute", ["load-buffer", "/nonexistent/file"])
bcase("loadb-stdin-empty", ["load-buffer", "-"], LSB())
bcase("loadb-directory", ["load-buffer", "/tmp"], LSB())
bcase("loadb-named-replaces", ["set-buffer", "-b", "r", "old"], ["save-buffer", "-b", "r", BUF],
      ["set-buffer", "-b", "r", "older"], ["load-buffer", "-b", "r", BUF], LSB())
bcase("loadb-empty-name", ["set-buffer", "x"], ["save-buffer", BUF], ["load-buffer", "-b", "", BUF])
bcase("loadb-w", ["set-buffer", "x"], ["save-buffer", BUF], ["load-buffer", "-w", "-b", "w", BUF], LSB())
bcase("loadb-then-stdin", ["set-buffer", "x"], ["load-buffer", "-", ";", "load-buffer", "-"])

# -- paste-buffer ---------------------------------------------------------------------------------

BRACKET = sh("printf '\\033[?2004h'; stty raw -echo; printf READY; exec cat -v")


def pcase(id: str, buf: str, paste: list[str], wait: str, cmd: list[str] = RAW, *extra: Step) -> None:
    case(id, NS("a", cmd=cmd), Wait("a", "READY"), ["set-buffer", buf], *extra, paste, Wait("a", wait),
         ["capture-pane", "-p", "-t", "a"])


pcase("pasteb-cr", "a\nb\nEND", ["paste-buffer", "-t", "a"], "END")
# tmux 3.7b pastes controls made visible (VIS_SAFE|VIS_NOSLASH) unless -S sends them raw.
pcase("pasteb-controls-visible", "e\x1b[1mx\x7f\\y\x01\tz END", ["paste-buffer", "-t", "a"], "END")
pcase("pasteb-S-raw", "e\x01f\x02 END", ["paste-buffer", "-S", "-t", "a"], "END")
case("pasteb-dead-pane", NS("a", "-n", "w0"), ["set", "-g", "remain-on-exit", "on", ";", "split-window", "-d", "-t", "a", "exit 0"],
     Wait("a:0.1", "1", "#{pane_dead}", reap=True), ["set-buffer", "x", ";", "paste-buffer", "-t", "a:0.1"])
pcase("pasteb-r", "a\nb\nEND", ["paste-buffer", "-r", "-t", "a"], "END")
pcase("pasteb-s", "a\nb\nEND", ["paste-buffer", "-s", "|", "-t", "a"], "END")
pcase("pasteb-s-empty", "a\nb\nEND", ["paste-buffer", "-s", "", "-t", "a"], "END")
pcase("pasteb-p-no-bracket-mode", "xy\nEND", ["paste-buffer", "-p", "-t", "a"], "END")
pcase("pasteb-p-bracket", "xy\nEND", ["paste-buffer", "-p", "-t", "a"], "201~", BRACKET)
pcase("pasteb-bracket-without-p", "xy\nEND", ["paste-buffer", "-t", "a"], "END", BRACKET)
pcase("pasteb-named", "top", ["paste-buffer", "-b", "n", "-t", "a"], "END", RAW,
      ["set-buffer", "-b", "n", "namedEND"])
case("pasteb-d", NS("a", cmd=RAW), Wait("a", "READY"), ["set-buffer", "pasted", ";", "set-buffer", "-b", "keep", "k"],
     ["paste-buffer", "-d", "-b", "buffer0"], Wait("a", "pasted"), LSB())
case("pasteb-unknown", NS("a"), ["paste-buffer", "-b", "nope"])
case("pasteb-none", NS("a"), ["paste-buffer", ";", "display-message", "-p", "ok"])
case("pasteb-input-off", NS("a", cmd=RAW), Wait("a", "READY"), ["set-buffer", "hidden"],
     ["select-pane", "-d", "-t", "a", ";", "paste-buffer", "-t", "a", ";", "select-pane", "-e", "-t", "a",
      ";", "send-keys", "-t", "a", "shown"], Wait("a", "shown"), ["capture-pane", "-p", "-t", "a"])
case("pasteb-bad-target", NS("a"), ["set-buffer", "x"], ["paste-buffer", "-t", "a:9"])
case("pasteb-alias-d-all", NS("a", cmd=RAW), Wait("a", "READY"), ["set-buffer", "x"],
     ["pasteb", "-d"], Wait("a", "x"), ["list-buffers", ";", "display-message", "-p", "none left"])

# -- set-environment, show-environment ------------------------------------------------------------

case("showenv-session", NS("a"), ["show-environment", "-t", "a"])
case("showenv-session-s", NS("a"), ["show-environment", "-s"])
case("setenv-session", NS("a"), ["set-environment", "-t", "a", "FOO", "bar"], ["show-environment", "FOO"])
case("setenv-global", NS("a"), ["set-environment", "-g", "HMUXG", "1"], ["show-environment", "-g", "HMUXG"])
case("setenv-global-not-session", NS("a"), ["set-environment", "-g", "HMUXG", "1"], ["show-environment", "HMUXG"])
case("setenv-F", NS("a"), ["set-environment", "-F", "FMT", "#{session_name}-#{window_index}"], ["show-environment", "FMT"])
case("setenv-no-F", NS("a"), ["set-environment", "LIT", "#{session_name}"], ["show-environment", "LIT"])
case("setenv-hidden", NS("a"), ["set-environment", "-h", "HID", "v", ";", "set-environment", "VIS", "w"],
     ["show-environment", "-t", "a"])
case("setenv-hidden-h", NS("a"), ["set-environment", "-h", "HID", "v", ";", "set-environment", "VIS", "w"],
     ["show-environment", "-h"])
case("setenv-hidden-one", NS("a"), ["set-environment", "-h", "HID", "v"], ["show-environment", "HID"])
case("setenv-hidden-then-plain", NS("a"), ["set-environment", "-h", "HID", "v", ";", "set-environment", "HID", "p"],
     ["show-environment", "HID"])
case("setenv-r", NS("a"), ["set-environment", "-r", "FOO"], ["show-environment", "FOO"])
case("setenv-r-existing", NS("a"), ["set-environment", "FOO", "x", ";", "set-environment", "-r", "FOO"],
     ["show-environment", "-s", "FOO"])
case("setenv-u", NS("a"), ["set-environment", "FOO", "x", ";", "set-environment", "-u", "FOO"], ["show-environment", "FOO"])
case("setenv-u-missing", NS("a"), ["set-environment", "-u", "NEVER", ";", "display-message", "-p", "ok"])
case("showenv-s-escapes", NS("a"), ["set-environment", "X", 'a$b"c`d\\e f'], ["show-environment", "-s", "X"])
case("showenv-s-cleared", NS("a"), ["set-environment", "-r", "GONE"], ["show-environment", "-s", "GONE"])
case("showenv-g-cleared", NS("a"), ["set-environment", "-gr", "GONE"], ["show-environment", "-g", "GONE"])
case("showenv-gh", NS("a"), ["set-environment", "-gh", "GH", "2"], ["show-environment", "-gh"])
case("setenv-err-empty", NS("a"), ["set-environment", "", "x"])
case("setenv-err-equals", NS("a"), ["set-environment", "a=b", "x"])
case("setenv-err-no-value", NS("a"), ["set-environment", "NOVALUE"])
case("setenv-err-u-value", NS("a"), ["set-environment", "-u", "A", "b"])
case("setenv-err-r-value", NS("a"), ["set-environment", "-r", "A", "b"])
case("setenv-err-no-session", NS("a"), ["set-environment", "-t", "zz", "A", "b"])
case("setenv-err-no-current", NOSESS, ["set-environment", "A", "b"])
case("setenv-global-no-sessions", NOSESS, ["set-environment", "-g", "A", "b", ";", "show-environment", "-g", "A"])
case("showenv-err-unknown", NS("a"), ["show-environment", "NOPE"])
case("showenv-err-no-session", NS("a"), ["show-environment", "-t", "zz"])
case("showenv-err-g-bad-t", NS("a"), ["show-environment", "-g", "-t", "zz", "HOME"])
case("showenv-err-no-current", NOSESS, ["show-environment"])
case("setenv-alias", NS("a"), ["setenv", "AL", "1"], ["showenv", "AL"])
case("setenv-new-pane", NS("a"), ["set-environment", "-t", "a", "PV", "pv", ";", "set-environment", "-h", "-t", "a", "PH", "ph",
                                  ";", "set-environment", "-r", "-t", "a", "HOME"],
     ["split-window", "-d", "-t", "a", *sh('printf "<$PV|$PH|${HOME-unset}>"; exec cat')], Wait("a.1", ">"),
     ["capture-pane", "-p", "-t", "a.1"])
case("setenv-global-new-pane", NS("a"), ["set-environment", "-g", "GV", "gv", ";", "set-environment", "-t", "a", "GV", "sv"],
     ["split-window", "-d", "-t", "a", *sh('printf "<$GV>"; exec cat')], Wait("a.1", ">"),
     ["capture-pane", "-p", "-t", "a.1"])
case("setenv-format-lookup", NS("a"), ["set-environment", "-t", "a", "EV", "fromenv"], D("#{EV}"))

# -- run-shell ------------------------------------------------------------------------------------

MODEFMT = "#{pane_in_mode}|#{pane_mode}"
case("run-no-output-to-client", NS("a"), ["run-shell", "echo hi; echo two"])
case("run-view-mode", NS("a"), ["run-shell", "echo hi"], D(MODEFMT))
case("run-no-output-no-mode", NS("a"), ["run-shell", "true"], D(MODEFMT))
case("run-view-mode-cancel", NS("a"), ["run-shell", "echo hi"], ["send-keys", "-X", "cancel"], D(MODEFMT))
case("run-view-mode-other-command", NS("a"), ["run-shell", "echo hi"], ["send-keys", "-X", "page-up"], D(MODEFMT))
case("run-t-pane", [*NS("a"), ";", "split-window", "-d", *CAT], ["run-shell", "-t", "a.1", "echo x"],
     ["list-panes", "-F", "#{pane_index} " + MODEFMT])
case("run-exit-status", NS("a"), ["run-shell", "exit 3"])
case("run-signal", NS("a"), ["run-shell", "kill -9 $$"])
case("run-status-reset", NS("a"), ["run-shell", "exit 2", ";", "run-shell", "true"])
case("run-b", NS("a"), ["run-shell", "-b", "exit 3"])
case("run-C", NS("a"), ["run-shell", "-C", "display-message -p hi"])
case("run-C-format", NS("a"), ["run-shell", "-C", "display-message -p #{session_name}"])
case("run-C-error", NS("a"), ["run-shell", "-C", "nosuchcommand"])
case("run-C-then-next", NS("a"), ["run-shell", "-C", "display-message -p one", ";", "display-message", "-p", "two"])
case("run-d-invalid", NS("a"), ["run-shell", "-d", "x", "true"])
case("run-d-empty", NS("a"), ["run-shell", "-d", "", "-C", "display-message -p now"])
case("run-d-C", NS("a"), ["run-shell", "-d", "0.1", "-C", "display-message -p delayed"])
case("run-d-no-command", NS("a"), ["run-shell", "-d", "0.05", ";", "display-message", "-p", "after"])
case("run-nothing", NS("a"), ["run-shell", ";", "display-message", "-p", "after"])
case("run-format-expanded", NS("a"), ["run-shell", "exit #{e|+:1,2}"])
case("run-session-env", NS("a"), ["set-environment", "-t", "a", "RC", "7"], ["run-shell", "-t", "a", "exit $RC"])
case("run-term-program", NS("a"), ["run-shell", 'test "$TERM_PROGRAM" = tmux && exit 5'])
case("run-tmux-env", NS("a"), ["run-shell", 'test -n "$TMUX" && exit 6'])
case("run-stdin-eof", NS("a"), ["run-shell", "cat; exit 4"])
case("run-cwd-client", NS("a"), ["run-shell", 'test "$PWD" = "$HOME" && exit 8'])
case("run-bad-target-canfail", NS("a"), ["run-shell", "-t", "zz", "exit 2"])
case("run-no-session", NOSESS, ["run-shell", "echo lost; exit 9"])
case("run-alias", NS("a"), ["run", "exit 1"])

# -- if-shell -------------------------------------------------------------------------------------

case("if-true", NS("a"), ["if-shell", "true", "display-message -p yes", "display-message -p no"])
case("if-false", NS("a"), ["if-shell", "false", "display-message -p yes", "display-message -p no"])
case("if-false-no-else", NS("a"), ["if-shell", "false", "display-message -p yes", ";", "display-message", "-p", "z"])
case("if-status-nonzero", NS("a"), ["if-shell", "exit 3", "display-message -p yes", "display-message -p no",
                                    ";", "display-message", "-p", "after"])
case("if-signal-is-false", NS("a"), ["if-shell", "kill -9 $$", "display-message -p yes", "display-message -p no"])
case("if-F-true", NS("a"), ["if-shell", "-F", "#{==:a,a}", "display-message -p fyes", "display-message -p fno"])
case("if-F-empty", NS("a"), ["if-shell", "-F", "", "display-message -p fyes", "display-message -p fno"])
case("if-F-zero-prefix", NS("a"), ["if-shell", "-F", "0x", "display-message -p fyes", "display-message -p fno"])
case("if-F-no-else", NS("a"), ["if-shell", "-F", "0", "display-message -p fyes", ";", "display-message", "-p", "z"])
case("if-F-option", NS("a"), ["if-shell", "-F", "#{base-index}", "display-message -p one", "display-message -p zero"])
case("if-parse-error", NS("a"), ["if-shell", "true", "nosuchcommand"])
case("if-F-parse-error", NS("a"), ["if-shell", "-F", "1", "nosuchcommand", ";", "display-message", "-p", "z"])
case("if-else-parse-error-unused", NS("a"), ["if-shell", "true", "display-message -p ok", "nosuchcommand"])
case("if-b", NS("a"), ["if-shell", "-b", "true", "display-message -p bg", ";", "display-message", "-p", "fg"])
case("if-b-sets-option", NS("a"), ["if-shell", "-b", "true", "set -g @ifb done"], Wait("a", "done", "#{@ifb}"),
     ["show-options", "-gv", "@ifb"])
case("if-target-format", NS("a"), ["if-shell", "-t", "a", "test #{session_name} = a", "display-message -p '#{session_name}'"])
case("if-bad-target-canfail", NS("a"), ["if-shell", "-t", "zz", "true", "display-message -p x"])
case("if-nested", NS("a"), ["if-shell", "true", "if-shell false 'display-message -p a' 'display-message -p b'"])
case("if-two-commands", NS("a"), ["if-shell", "true", "display-message -p a ; display-message -p b"])
case("if-shares-current", NS("a", "-n", "w0"), ["if-shell", "true", "new-window -d -n made", ";", "list-windows", "-F", WINFMTN])
case("if-usage", NS("a"), ["if-shell", "true"])
case("if-alias", NS("a"), ["if", "true", "display-message -p al"])

# -- wait-for -------------------------------------------------------------------------------------

case("wait-signal-first", NS("a"), ["wait-for", "-S", "ch", ";", "wait-for", "ch", ";", "display-message", "-p", "ok"])
# A second -S with nobody waiting removes the woken channel, so only the third one counts.
case("wait-signal-thrice", NS("a"), ["wait-for", "-S", "ch", ";", "wait-for", "-S", "ch", ";", "wait-for", "-S", "ch",
                                     ";", "wait-for", "ch", ";", "display-message", "-p", "ok"])
case("wait-unlock-unlocked", NS("a"), ["wait-for", "-U", "x"])
case("wait-lock-unlock", NS("a"), ["wait-for", "-L", "x", ";", "wait-for", "-U", "x", ";", "display-message", "-p", "ok"])
case("wait-unlock-twice", NS("a"), ["wait-for", "-L", "x", ";", "wait-for", "-U", "x", ";", "wait-for", "-U", "x"])
case("wait-lock-held-between-clients", NS("a"), ["wait-for", "-L", "lk"], ["wait-for", "-U", "lk"],
     ["wait-for", "-U", "lk"])
case("wait-S-wins-over-L", NS("a"), ["wait-for", "-S", "-L", "c", ";", "wait-for", "c", ";", "display-message", "-p", "ok"])
case("wait-usage", NS("a"), ["wait-for"])
case("wait-in-hook-no-client", NS("a"), ["set-hook", "-g", "session-renamed", "wait-for -U nolock"],
     ["rename-session", "-t", "a", "b", ";", "display-message", "-p", "renamed"])

# -- pipe-pane ------------------------------------------------------------------------------------

PIPEFMT = "#{pane_pipe}"
case("pipep-open", NS("a"), ["pipe-pane", "-t", "a", "cat >/dev/null"], D(PIPEFMT))
case("pipep-close", NS("a"), ["pipe-pane", "-t", "a", "cat >/dev/null"], ["pipe-pane", "-t", "a"], D(PIPEFMT))
case("pipep-close-empty", NS("a"), ["pipe-pane", "-t", "a", "cat >/dev/null"], ["pipe-pane", "-t", "a", ""], D(PIPEFMT))
case("pipep-o-toggle-off", NS("a"), ["pipe-pane", "-t", "a", "cat >/dev/null"], ["pipe-pane", "-o", "-t", "a", "cat >/dev/null"],
     D(PIPEFMT))
case("pipep-o-toggle-on", NS("a"), ["pipe-pane", "-o", "-t", "a", "cat >/dev/null"], D(PIPEFMT))
case("pipep-replace", NS("a"), ["pipe-pane", "-t", "a", "cat >/dev/null"], ["pipe-pane", "-t", "a", "cat >/dev/null"],
     D(PIPEFMT))
case("pipep-none", NS("a"), ["pipe-pane", "-t", "a", ";", "display-message", "-p", PIPEFMT])
case("pipep-I", NS("a"), ready(), ["pipe-pane", "-I", "-t", "a", "echo injected"], Wait("a", "injected"),
     ["capture-pane", "-p", "-t", "a"])
case("pipep-I-closes", NS("a"), ready(), ["pipe-pane", "-I", "-t", "a", "echo injected"], Wait("a", "0", PIPEFMT),
     D(PIPEFMT))
case("pipep-IO", NS("a"), ready(), ["pipe-pane", "-IO", "-t", "a", "head -c 3 >/dev/null; echo got3"],
     ["send-keys", "-t", "a", "abc"], Wait("a", "abcgot3\nabcgot3"), ["capture-pane", "-p", "-t", "a"])
case("pipep-dead-pane", NS("a", "-n", "d"), ["set", "-g", "remain-on-exit", "on", ";", "split-window", "-d", "-t", "a", "exit 0"],
     Wait("a:d.1", "1", "#{pane_dead}"), ["pipe-pane", "-t", "a:d.1", "cat"])
case("pipep-format-time", NS("a"), ready(), ["pipe-pane", "-I", "-t", "a", "echo '#{session_name} %%'"],
     Wait("a", "a %"), ["capture-pane", "-p", "-t", "a"])
case("pipep-alias", NS("a"), ["pipep", "-t", "a", "cat >/dev/null"], D(PIPEFMT))

# -- set-hook, show-hooks -------------------------------------------------------------------------

def hcase(id: str, *steps: Step) -> None:
    case(id, NS("a"), *steps)


hcase("sethook-show-one", ["set-hook", "-g", "after-new-window", 'display -p  "hi there" ; set -g @x 1'],
      ["show-hooks", "-g", "after-new-window"])
hcase("sethook-index", ["set-hook", "-g", "after-new-window[3]", "run 'echo x'"], ["show-hooks", "-g", "after-new-window"])
hcase("sethook-append", ["set-hook", "-g", "after-new-window", "display a", ";", "set-hook", "-ag", "after-new-window", "display b"],
      ["show-hooks", "-g", "after-new-window"])
hcase("sethook-append-fills-gap", ["set-hook", "-g", "after-new-window[2]", "display c", ";", "set-hook", "-ag",
                                   "after-new-window", "display a"], ["show-hooks", "-g", "after-new-window"])
hcase("sethook-replace-all", ["set-hook", "-g", "after-new-window[5]", "display c", ";", "set-hook", "-g",
                              "after-new-window", "display a"], ["show-hooks", "-g", "after-new-window"])
hcase("sethook-unset-index", ["set-hook", "-g", "after-new-window[0]", "display a", ";", "set-hook", "-g",
                              "after-new-window[1]", "display b", ";", "set-hook", "-gu", "after-new-window[0]"],
      ["show-hooks", "-g", "after-new-window"])
hcase("sethook-unset-all", ["set-hook", "-g", "after-new-window", "display a", ";", "set-hook", "-gu", "after-new-window"],
      ["show-hooks", "-g", "after-new-window"])
hcase("sethook-block-arg", ["set-hook", "-g", "after-new-window", "{ display a ; display b }"],
      ["show-hooks", "-g", "after-new-window"])
hcase("sethook-escapes-printed", ["set-hook", "-g", "after-new-window", "display -p 'a b' ; set -g @v \"$x\""],
      ["show-hooks", "-g", "after-new-window"])
hcase("sethook-alias-printed", ["set-hook", "-g", "after-new-window", "neww -d ; splitw"], ["show-hooks", "-g", "after-new-window"])
hcase("sethook-prefix-name", ["set-hook", "-g", "after-new-w", "display a"], ["show-hooks", "-g"])
hcase("sethook-err-unknown", ["set-hook", "-g", "no-such-hook", "display a"])
hcase("sethook-err-ambiguous", ["set-hook", "-g", "after-l", "display a"])
hcase("sethook-err-command", ["set-hook", "-g", "after-new-window", "nosuchcommand"])
hcase("sethook-err-syntax", ["set-hook", "-g", "after-new-window", "display {"])
hcase("sethook-err-empty-value", ["set-hook", "-g", "after-new-window"])
hcase("sethook-err-no-session", ["set-hook", "-t", "zz", "after-new-window", "display a"])
hcase("sethook-err-not-array-user", ["set-hook", "-g", "@u[1]", "x"])
hcase("sethook-user-option", ["set-hook", "-g", "@foo", "display x"], ["show-hooks", "-g", "@foo"])
hcase("sethook-user-not-listed", ["set-hook", "-g", "@foo", "display x"], ["show-hooks", "-g", ";", "show-options", "-gv", "@foo"])
hcase("sethook-plain-option", ["set-hook", "-g", "status-left", "xyz"], ["show-options", "-gv", "status-left"])
hcase("showhooks-global", ["show-hooks", "-g"])
hcase("showhooks-session-empty", ["show-hooks", ";", "display-message", "-p", "end"])
hcase("showhooks-session", ["set-hook", "-t", "a", "after-new-window", "display s", ";", "set-hook", "-g",
                            "after-new-window", "display g"], ["show-hooks", "-t", "a"])
hcase("showhooks-window-pane", ["set-hook", "pane-exited", "display w", ";", "set-hook", "-p", "pane-exited", "display p",
                                ";", "set-hook", "-g", "pane-exited", "display g"],
      ["show-hooks", "-w", ";", "show-hooks", "-p", ";", "show-hooks", "-gw"])
hcase("showhooks-one-session-missing", ["show-hooks", "after-new-window", ";", "display-message", "-p", "end"])
hcase("showhooks-err-unknown", ["show-hooks", "-g", "nope"])
hcase("showhooks-err-no-pane", ["show-hooks", "-p", "-t", "zz"])
hcase("showopts-H-hooks", ["set-hook", "-g", "after-new-window", "display a"],
      ["show-options", "-gH", ";", "show-options", "-g", "after-new-window"])

# -- hooks running --------------------------------------------------------------------------------

AFTERFMT = ("display -p '#{hook}|#{hook_arguments}|#{hook_argument_0}|#{hook_argument_1}|#{hook_flag_d}|"
            "#{hook_flag_n}|#{hook_flag_n_0}|#{hook_window}|#{window_index}|#{session_name}'")
hcase("hook-after-new-window", ["set-hook", "-g", "after-new-window", AFTERFMT], ["new-window", "-d", "-n", "foo", *CAT])
hcase("hook-after-split-window", ["set-hook", "-g", "after-split-window", "display -p '#{hook} #{pane_index} #{hook_flag_h}'"],
      ["split-window", "-h", "-d", *CAT])
hcase("hook-after-new-session", ["set-hook", "-g", "after-new-session", "display -p '#{hook} #{session_name}'"],
      [*NS("b")])
hcase("hook-after-set-option", ["set-hook", "-g", "after-set-option", "display -p '#{hook} #{hook_arguments}'"],
      ["set-option", "-g", "@x", "1", ";", "display-message", "-p", "next"])
hcase("hook-after-runs-before-next", ["set-hook", "-g", "after-set-option", "set -g @seen yes"],
      ["set-option", "-g", "@x", "1", ";", "show-options", "-gv", "@seen"])
hcase("hook-after-no-recursion", ["set-hook", "-g", "after-set-option", "set -ga @n x"],
      ["set-option", "-g", "@n", "a", ";", "set-option", "-ga", "@n", "b"], ["show-options", "-gv", "@n"])
hcase("hook-after-list", ["set-hook", "-g", "after-list-buffers", "display -p 'lsb hook'", ";", "set-buffer", "x"], LSB())
hcase("hook-after-several", ["set-hook", "-g", "after-show-options[0]", "display -p one", ";",
                             "set-hook", "-g", "after-show-options[4]", "display -p two"], ["show-options", "-gv", "base-index"])
hcase("hook-after-failed-command", ["set-hook", "-g", "after-show-options", "display -p hooked"],
      ["show-options", "-g", "nosuchoption"])
hcase("hook-after-error-in-hook", ["set-hook", "-g", "after-set-option", "has-session -t nope"],
      ["set-option", "-g", "@x", "1", ";", "display-message", "-p", "still"])
hcase("hook-after-session-hook", ["set-hook", "-t", "a", "after-set-option", "display -p session"],
      ["set-option", "-g", "@x", "1"])
hcase("hook-after-session-overrides", ["set-hook", "-g", "after-set-option", "display -p global", ";",
                                       "set-hook", "-t", "a", "after-set-option", "display -p session"],
      ["set-option", "-t", "a", "@x", "1"])
hcase("hook-after-select-window", ["new-window", "-t", "a:", "-n", "w1", *CAT, ";", "set-hook", "-g", "after-select-window", "display -p '#{hook} #I'"],
      ["select-window", "-t", "a:0"])
hcase("hook-after-select-pane", ["split-window", "-d", *CAT, ";", "set-hook", "-g", "after-select-pane",
                                 "display -p '#{hook} #P'"], ["select-pane", "-t", "a.1"])
hcase("hook-after-select-pane-same", ["set-hook", "-g", "after-select-pane", "display -p '#{hook} #P'"],
      ["select-pane", "-t", "a.0", ";", "display-message", "-p", "end"])
hcase("hook-after-display", ["set-hook", "-g", "after-display-message", "display -p '#{hook_argument_0}'"],
      ["display-message", "-p", "first"])
hcase("hook-after-set-hook", ["set-hook", "-g", "after-set-hook", "display -p '#{hook}'"],
      ["set-hook", "-g", "after-new-window", "display x"])
hcase("hook-after-set-buffer", ["set-hook", "-g", "after-set-buffer", "display -p '#{hook_flag_b}'"],
      ["set-buffer", "-b", "nm", "x"])
hcase("hook-after-setenv", ["set-hook", "-g", "after-set-environment", "show-environment HK"],
      ["set-environment", "HK", "v"])
hcase("hook-R", ["set-hook", "-g", "after-new-window", "display -p '#{hook}|#{hook_window}|#{session_name}'"],
      ["set-hook", "-R", "after-new-window"])
hcase("hook-R-unknown-name", ["set-hook", "-R", "no-such-hook", ";", "display-message", "-p", "ok"])
hcase("hook-R-user-option", ["set-hook", "-g", "@mine", "display -p '#{hook} ran'"], ["set-hook", "-R", "@mine"])
hcase("hook-R-window-hook", ["set-hook", "-g", "window-renamed", "display -p 'wr #{hook}'"], ["set-hook", "-R", "window-renamed"])
hcase("hook-R-format-name", ["set-hook", "-g", "@s-a", "display -p yes"], ["set-hook", "-R", "@s-#{session_name}"])

NOTE = "set -gF @{var} '{fmt}'"


def note(var: str, fmt: str) -> str:
    return NOTE.format(var=var, fmt=fmt)


hcase("hook-session-created", ["set-hook", "-g", "session-created",
                               note("c", "#{hook}|#{hook_session}|#{hook_session_name}|#{hook_client}|#{hook_window}|#{session_name}")],
      NS("b"), Wait("a", "b", "#{=-1:@c}"), ["show-options", "-gv", "@c"])
hcase("hook-session-created-after-list", ["set-hook", "-g", "session-created", "set -g @c yes"],
      [*NS("b"), ";", "show-options", "-gv", "@c"])
hcase("hook-window-linked", ["set-hook", "-g", "window-linked",
                             note("l", "#{hook}|#{hook_session_name}|#{hook_window_name}|#{session_name}|#{window_index}")],
      ["new-window", "-d", "-t", "a:", "-n", "ww", *CAT], Wait("a", "1", "#{=-1:@l}"), ["show-options", "-gv", "@l"])
# window 0 named: #{window_name} here is the current window's, which tmux can name "tmux" when it
# looks between fork and exec
case("hook-window-unlinked", NS("a", "-n", "w0"), ["new-window", "-d", "-n", "zz", *CAT, ";", "set-hook", "-g", "window-unlinked",
                               note("u", "#{hook}|#{hook_session_name}|#{hook_window_name}|#{session_name}|#{window_name}")],
      ["kill-window", "-t", "a:zz"], Wait("a", "u", "#{?@u,u,}"), ["show-options", "-gv", "@u"])
hcase("hook-window-renamed", ["set-hook", "-g", "window-renamed",
                              note("r", "#{hook}|#{hook_window_name}|#{window_name}|#{hook_session}")],
      ["rename-window", "-t", "a:0", "newname"], Wait("a", "r", "#{?@r,r,}"), ["show-options", "-gv", "@r"])
hcase("hook-session-renamed", ["set-hook", "-g", "session-renamed",
                               note("r", "#{hook}|#{hook_session_name}|#{session_name}")],
      ["rename-session", "-t", "a", "bb"], Wait("bb", "r", "#{?@r,r,}"), ["show-options", "-gv", "@r"])
hcase("hook-session-closed", [*NS("b"), ";", "set-hook", "-g", "session-closed",
                              note("x", "#{hook}|#{hook_session_name}|#{session_name}")],
      ["kill-session", "-t", "b"], Wait("a", "x", "#{?@x,x,}"), ["show-options", "-gv", "@x"])
hcase("hook-pane-exited", ["set-hook", "-g", "pane-exited", note("e", "#{hook}|#{hook_pane}|#{hook_window}|#{pane_id}")],
      ["split-window", "-d", "-t", "a", "exit 0"], Wait("a", "e", "#{?@e,e,}"), ["show-options", "-gv", "@e"])
hcase("hook-pane-died", ["set", "-g", "remain-on-exit", "on", ";", "set-hook", "-g", "pane-died",
                         note("d", "#{hook}|#{hook_pane}|#{pane_id}|#{pane_dead}")],
      ["split-window", "-d", "-t", "a", "exit 0"], Wait("a", "d", "#{?@d,d,}", reap=True), ["show-options", "-gv", "@d"])
hcase("hook-pane-exited-window-hook", ["set-hook", "-t", "a:0", "pane-exited", "set -g @w window"],
      ["split-window", "-d", "-t", "a", "exit 0"], Wait("a", "window", "#{@w}"), ["show-options", "-gv", "@w"])
hcase("hook-layout-changed", ["set-hook", "-g", "window-layout-changed", note("l", "#{hook}|#{hook_window}")],
      ["split-window", "-d", "-t", "a", *CAT], Wait("a", "l", "#{?@l,l,}"), ["show-options", "-gv", "@l"])
hcase("hook-window-pane-changed", ["split-window", "-d", *CAT, ";", "set-hook", "-g", "window-pane-changed",
                                   note("p", "#{hook}|#{hook_window}|#{pane_index}")],
      ["select-pane", "-t", "a.1"], Wait("a", "p", "#{?@p,p,}"), ["show-options", "-gv", "@p"])
hcase("hook-session-window-changed", ["new-window", "-t", "a:", "-n", "w1", *CAT, ";", "set-hook", "-g", "session-window-changed",
                                      note("s", "#{hook}|#{hook_session_name}|#{window_index}")],
      ["select-window", "-t", "a:0"], Wait("a", "s", "#{?@s,s,}"), ["show-options", "-gv", "@s"])
hcase("hook-pane-title-changed", ["set-hook", "-g", "pane-title-changed", note("t", "#{hook}|#{hook_pane}|#{pane_title}")],
      ["select-pane", "-t", "a", "-T", "newtitle"], Wait("a", "t", "#{?@t,t,}"), ["show-options", "-gv", "@t"])
hcase("hook-notify-no-recursion", ["set-hook", "-g", "window-renamed", "rename-window -t a:0 again"],
      ["rename-window", "-t", "a:0", "first"], Wait("a", "again", "#{window_name}"),
      ["set-hook", "-gu", "window-renamed", ";", "display-message", "-p", "#{window_name}"])
hcase("hook-notify-after-hooks-inside", ["set-hook", "-g", "after-set-option", "set -g @after yes", ";",
                                         "set-hook", "-g", "window-renamed", "set -g @fromhook 1"],
      ["rename-window", "-t", "a:0", "n"], Wait("a", "1", "#{@fromhook}"), ["show-options", "-gv", "@after"])
hcase("hook-after-notify-inside", ["set-hook", "-g", "window-renamed", "set -g @renamed 1", ";",
                                   "set-hook", "-g", "after-set-option", "rename-window -t a:0 byhook"],
      ["set-option", "-g", "@x", "1"], Wait("a", "1", "#{@renamed}"), ["show-options", "-gv", "@renamed"])
hcase("hook-unset-stops", ["set-hook", "-g", "after-set-option", "display -p no", ";", "set-hook", "-gu", "after-set-option"],
      ["set-option", "-g", "@x", "1", ";", "display-message", "-p", "quiet"])
hcase("hook-array-order", ["set-hook", "-g", "after-set-option[7]", "display -p seven", ";",
                           "set-hook", "-g", "after-set-option[2]", "display -p two"], ["set-option", "-g", "@x", "1"])

# -- hooks from a sourced file, hooks running shell commands, pane and window hook scopes ---------

HOOKCONF = ("set-hook -g after-new-window 'display -p \"new #{window_index}\"'\n"
            "set-hook -ga after-new-window { set -g @count yes }\n"
            "set-hook -g session-created[2] 'set -g @c 1'\n")
bcase("hook-source-file", ["set-buffer", "-b", "conf", HOOKCONF, ";", "save-buffer", "-b", "conf", BUF],
      ["source-file", "-F", BUF, ";", "show-hooks", "-g", ";", "new-window", "-d", *CAT])
bcase("hook-source-file-errors", ["set-buffer", "-b", "conf", "set-hook -g no-such-hook 'display x'\n"
                                  "set-hook -g after-new-window nosuchcommand\nset-hook -g window-linked 'display {'\n",
                                  ";", "save-buffer", "-b", "conf", BUF], ["source-file", "-F", BUF])
hcase("hook-run-shell-status", ["set-hook", "-g", "after-set-option", "run-shell 'exit 4'"],
      ["set-option", "-g", "@x", "1"])
hcase("hook-if-shell", ["set-hook", "-g", "after-set-option", "if-shell true 'display -p yes' 'display -p no'"],
      ["set-option", "-g", "@x", "1", ";", "display-message", "-p", "after"])
hcase("sethook-pane-scope", ["split-window", "-d", *CAT, ";", "set-hook", "-p", "-t", "a.1", "pane-title-changed",
                             "display x"], ["show-hooks", "-p", "-t", "a.1", ";", "show-hooks", "-p", "-t", "a.0"])
hcase("sethook-pane-scope-runs", ["split-window", "-d", *CAT, ";", "set-hook", "-p", "-t", "a.1", "pane-title-changed",
                                  "set -g @pt one"], ["select-pane", "-t", "a.0", "-T", "zero", ";",
                                                      "select-pane", "-t", "a.1", "-T", "one"],
      Wait("a", "one", "#{@pt}"), ["show-options", "-gv", "@pt"])
hcase("sethook-window-user-option", ["set-hook", "-w", "@wu", "display x"], ["show-options", "-w", "@wu"])
hcase("sethook-g-window-hook-lists", ["set-hook", "-g", "window-renamed", "display x"], ["show-hooks", "-gw"])
bcase("loadb-t-bad-client-canfail", ["set-buffer", "x"], ["save-buffer", BUF],
      ["load-buffer", "-t", "/dev/nope", "-b", "t", BUF, ";", "list-buffers"])
