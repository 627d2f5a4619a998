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
    ``display -p -t target fmt`` prints exactly ``text``."""

    target: str
    text: str
    fmt: str | None = None


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
    """The pane's program has exec'd (so cwd and current command are its own)."""
    return Wait(target, "cat", "#{pane_current_command}")


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
case("ns-argv-command", NS("a"), ready(), Wait("a", "cat", "#W"), D("#{pane_start_command}|#{pane_current_command}|#W"))

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
case("dm-basename", NS("a", "-c", "/usr/share"), ready(), D("#{b:pane_current_path}|#{d:pane_current_path}"))
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


# == Key tables: bind-key, unbind-key, list-keys, send-prefix ==================================
# tmux 3.3a's default tables must list byte for byte (columns, escaping, \; between commands);
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
