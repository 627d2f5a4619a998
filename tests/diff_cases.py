"""The case table of the core differential suite (tests/test_diff_core.py).

A case is a list of steps run in order against a fresh server; the last step's (rc, stdout, stderr)
is compared with tmux 3.3a, earlier steps only by rc. A step is a command argv (a list), ``Wait``
(poll capture-pane until a text shows, so screen content is complete before it is inspected) or
``Gone`` (poll until the server has exited). Panes run fixed programs so their screens are
deterministic; ``;`` as an argv element chains commands exactly as on tmux's command line.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Wait:
    """Poll ``capture-pane -p -t target`` until ``text`` appears."""

    target: str
    text: str


@dataclass(frozen=True)
class Gone:
    """Poll until the server no longer answers (after the last session went away)."""


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

def NS(name: str = "a", *extra: str, x: int = 80, y: int = 24, cmd: list[str] | None = None) -> list[str]:
    """new-session -d of a fixed size running ``cmd`` (default ``cat``)."""
    return ["new-session", "-d", "-s", name, "-x", str(x), "-y", str(y), *extra,
            *(cmd if cmd is not None else ["cat"])]


def sh(script: str) -> list[str]:
    return ["sh", "-c", script]


def pf(text: str) -> list[str]:
    """A pane that prints ``text`` (printf format, no single quotes) and then waits in cat."""
    return sh(f"printf '{text}'; exec cat")


RAW = sh("stty raw -echo; printf READY; exec cat -v")
SEP = "\u241e"

# Three windows w0 w1 w2 in session a, the last one (2) current and 1 the last window.
W3 = [NS("a", "-n", "w0"), ["new-window", "-t", "a", "-n", "w1", "cat"],
      ["new-window", "-t", "a", "-n", "w2", "cat"]]
# A 2x2 grid in a:0: 0 top-left, 1 bottom-left, 2 top-right, 3 bottom-right (active, last was 2).
GRID = [NS("a"), ["split-window", "-h", "-t", "a:0.0", "cat"],
        ["split-window", "-v", "-t", "a:0.0", "cat"], ["split-window", "-v", "-t", "a:0.2", "cat"]]
# Two side-by-side panes, the right one (1) active.
TWO = [NS("a"), ["split-window", "-h", "-t", "a", "cat"]]
PANEFMT = "#{pane_index} #{pane_id} #{pane_width}x#{pane_height} #{pane_left},#{pane_top} #{pane_active}"
WINFMT = "#{window_index}:#{window_name}:#{window_flags}:#{window_active}"


def D(fmt: str, *target: str) -> list[str]:
    return ["display-message", "-p", *(["-t", target[0]] if target else []), fmt]


def screen(id: str, text: str, wait: str, *flags: str, x: int = 80, y: int = 24) -> None:
    """Print ``text`` into a pane and compare ``capture-pane -p FLAGS``."""
    case(id, NS("a", x=x, y=y, cmd=pf(text)), Wait("a", wait), ["capture-pane", "-p", *flags, "-t", "a"])


def keys(id: str, *argv: str, end: list[str] | None = None) -> None:
    """send-keys ARGV into a raw ``cat -v`` pane, then a marker, and compare the screen."""
    marker = end if end is not None else ["-l", "~END"]
    case(id, NS("a", cmd=RAW), Wait("a", "READY"), ["send-keys", "-t", "a", *argv],
         ["send-keys", "-t", "a", *marker], Wait("a", "~END"), ["capture-pane", "-p", "-t", "a"])


# -- new-session -------------------------------------------------------------------------------

case("ns-list", NS("a"), ["list-sessions"])
case("ns-window-name", NS("a", "-n", "win"), ["list-windows", "-F", "#{window_index}:#{window_name}"])
case("ns-cwd", NS("a", "-c", "/tmp"), D("#{pane_current_path}"))
case("ns-size", NS("a", x=100, y=30), D("#{window_width}x#{window_height} #{pane_width}x#{pane_height}"))
case("ns-env", NS("a", "-e", "FOO=bar baz", cmd=sh('printf "<$FOO>"; exec cat')), Wait("a", ">"),
     ["capture-pane", "-p", "-t", "a"])
case("ns-env-invalid", NS("a", "-e", "FOO"))
case("ns-print", ["new-session", "-d", "-P", "-s", "a", "cat"])
case("ns-print-format", ["new-session", "-d", "-P", "-F", "#{session_name}:#{window_index}.#{pane_index} #{pane_id}",
                         "-s", "a", "cat"])
case("ns-duplicate", NS("a"), NS("a"))
case("ns-invalid-colon", ["new-session", "-d", "-s", "a:b", "cat"], ["list-sessions", "-F", "#S"])
case("ns-invalid-dot", NS("a"), ["new-session", "-d", "-s", "x.y", "cat"], ["list-sessions", "-F", "#{session_name}"])
case("ns-empty-name", ["new-session", "-d", "-s", "", "cat"])
case("ns-A-existing", NS("a"), ["new-session", "-A", "-d", "-s", "a"])
case("ns-A-existing-list", NS("a"), ["new-session", "-A", "-d", "-s", "a"], ["list-sessions", "-F", "#S #{session_windows}"])
case("ns-A-new", NS("a"), ["new-session", "-A", "-d", "-s", "b", "cat"], ["list-sessions", "-F", "#S"])
case("ns-default-names", ["new-session", "-d", "cat"], ["new-session", "-d", "cat"], ["new-session", "-d", "cat"],
     ["list-sessions", "-F", "#{session_name} #{session_id}"])
case("ns-numeric-name-taken", ["new-session", "-d", "-s", "1", "cat"], ["new-session", "-d", "cat"],
     ["new-session", "-d", "cat"], ["list-sessions", "-F", "#{session_name} #{session_id}"])
case("ns-unknown-flag", NS("a"), ["new-session", "-Q"])
case("ns-missing-arg", NS("a"), ["new-session", "-d", "-s"])
case("ns-missing-arg-list", NS("a"), ["new-session", "-d", "-s"], ["list-sessions", "-F", "#S"])
case("ns-bad-width", ["new-session", "-d", "-x", "abc", "cat"])
case("ns-zero-width", ["new-session", "-d", "-x", "0", "cat"])
case("ns-default-size", ["new-session", "-d", "-s", "a", "cat"], D("#{window_width}x#{window_height}"))
case("ns-name-and-window", NS("a", "-n", "w"), D("#S/#W/#{session_windows}/#{window_panes}"))
case("ns-shell-command", NS("a", cmd=["printf hi; exec cat"]), Wait("a", "hi"), D("#{pane_start_command}|#{pane_current_command}"))

# -- has-session -------------------------------------------------------------------------------

case("has-exact", NS("abc"), ["has-session", "-t", "=abc"])
case("has-exact-prefix-fails", NS("abc"), ["has-session", "-t", "=ab"])
case("has-prefix", NS("abc"), ["has-session", "-t", "ab"])
case("has-prefix-ambiguous", NS("abc"), NS("abd"), ["has-session", "-t", "ab"])
case("has-fnmatch", NS("abc"), ["has-session", "-t", "*b*"])
case("has-fnmatch-ambiguous", NS("abc"), NS("xbz"), ["has-session", "-t", "*b*"])
case("has-missing", NS("a"), ["has-session", "-t", "x"])
case("has-id", NS("a"), NS("b"), ["has-session", "-t", "$1"])
case("has-id-missing", NS("a"), ["has-session", "-t", "$9"])
case("has-no-target", NS("a"), ["has-session"])
case("has-no-server", ["has-session", "-t", "x"], no_server=True)
case("has-too-many", NS("a"), ["has-session", "a"])

# -- list-sessions -----------------------------------------------------------------------------

case("ls-two-sorted", NS("b"), NS("a"), ["list-sessions"])
case("ls-format", NS("a"), NS("b", "-n", "x"), ["list-sessions", "-F", "#{session_name} #{session_windows} #{session_attached} #{session_id}"])
case("ls-filter", NS("a"), NS("b"), NS("c"), ["list-sessions", "-f", "#{!=:#{session_name},b}", "-F", "#S"])
case("ls-filter-false", NS("a"), ["list-sessions", "-f", "0"])
case("ls-no-server", ["list-sessions"], no_server=True)
case("ls-after-kill-server", NS("a"), ["kill-server"], Gone(), ["list-sessions"])
case("ls-alias", NS("a"), ["ls", "-F", "#{session_name}"])

# -- kill-session / rename-session --------------------------------------------------------------

case("ks-target", NS("a"), NS("b"), ["kill-session", "-t", "a"], ["list-sessions", "-F", "#S"])
case("ks-all-but", NS("a"), NS("b"), NS("c"), ["kill-session", "-a", "-t", "b"], ["list-sessions", "-F", "#S"])
case("ks-missing", NS("a"), ["kill-session", "-t", "x"])
case("ks-last-exits", NS("a"), ["kill-session", "-t", "a"], Gone(), ["has-session", "-t", "a"])
case("ks-too-many", NS("a"), ["kill-session", "a", "b"])
case("rs-ok", NS("a"), ["rename-session", "-t", "a", "b"], ["list-sessions", "-F", "#S #{session_id}"])
case("rs-duplicate", NS("a"), NS("b"), ["rename-session", "-t", "a", "b"])
case("rs-invalid", NS("a"), ["rename-session", "-t", "a", "x:y"])
case("rs-dot", NS("a"), ["rename-session", "-t", "a", "x.y"], ["list-sessions", "-F", "#S"])
case("rs-missing-target", NS("a"), ["rename-session", "-t", "x", "y"])
case("rs-too-few", NS("a"), ["rename-session"])
case("rs-empty", NS("a"), ["rename-session", "-t", "a", ""])

# -- new-window --------------------------------------------------------------------------------

case("nw-basic", NS("a"), ["new-window", "-t", "a", "cat"], ["list-windows", "-F", WINFMT])
case("nw-name", NS("a"), ["new-window", "-n", "foo", "cat"], ["list-windows", "-F", WINFMT])
case("nw-detached", NS("a"), ["new-window", "-d", "cat"], ["list-windows", "-F", WINFMT])
case("nw-after", *W3, ["select-window", "-t", "a:0"], ["new-window", "-a", "-t", "a:0", "-n", "new", "cat"],
     ["list-windows", "-F", WINFMT])
case("nw-before", *W3, ["new-window", "-b", "-t", "a:1", "-n", "new", "cat"], ["list-windows", "-F", WINFMT])
case("nw-index", NS("a"), ["new-window", "-t", "a:5", "cat"], ["list-windows", "-F", WINFMT])
case("nw-index-in-use", NS("a"), ["new-window", "-t", "a:0", "cat"])
case("nw-kill-existing", NS("a", "-n", "old"), ["new-window", "-k", "-t", "a:0", "-n", "replaced", "cat"],
     ["list-windows", "-F", WINFMT])
case("nw-print", NS("a"), ["new-window", "-P", "cat"])
case("nw-print-format", NS("a"), ["new-window", "-P", "-F", "#{window_id} #{window_index} #{pane_id}", "cat"])
case("nw-missing-session", NS("a"), ["new-window", "-t", "x:", "cat"])
case("nw-command", NS("a"), ["new-window", "-t", "a", *pf("in window 1")], Wait("a:1", "window 1"),
     ["capture-pane", "-p", "-t", "a:1"])
case("nw-cwd", NS("a"), ["new-window", "-c", "/tmp", "cat"], D("#{pane_current_path}"))
case("nw-alias-gap", NS("a"), ["neww", "-t", "a:3", "cat"], ["neww", "-t", "a", "cat"], ["neww", "-t", "a", "cat"],
     ["list-windows", "-F", "#I"])
case("nw-after-shuffle", NS("a"), ["new-window", "-t", "a:1", "cat"], ["new-window", "-a", "-t", "a:0", "cat"],
     ["list-windows", "-F", "#I #{window_id}"])

# -- split-window ------------------------------------------------------------------------------

case("sp-h", NS("a"), ["split-window", "-h", "cat"], ["list-panes", "-F", PANEFMT])
case("sp-v", NS("a"), ["split-window", "-v", "cat"], ["list-panes", "-F", PANEFMT])
case("sp-l-cells", NS("a"), ["split-window", "-h", "-l", "10", "cat"], ["list-panes", "-F", PANEFMT])
case("sp-l-percent", NS("a"), ["split-window", "-v", "-l", "30%", "cat"], ["list-panes", "-F", PANEFMT])
case("sp-before", NS("a"), ["split-window", "-h", "-b", "cat"], ["list-panes", "-F", PANEFMT])
case("sp-full", *TWO, ["split-window", "-v", "-f", "cat"], ["list-panes", "-F", PANEFMT])
case("sp-full-before", *TWO, ["split-window", "-h", "-f", "-b", "cat"], ["list-panes", "-F", PANEFMT])
case("sp-detached", NS("a"), ["split-window", "-d", "cat"], ["list-panes", "-F", PANEFMT])
case("sp-print", NS("a"), ["split-window", "-P", "cat"])
case("sp-print-format", NS("a"), ["split-window", "-P", "-F", "#{pane_id}:#{pane_index}", "cat"])
case("sp-no-space", NS("a", x=20, y=6), ["splitw", "-v", "cat"], ["splitw", "-v", "cat"], ["splitw", "-v", "cat"])
case("sp-size-invalid", NS("a"), ["split-window", "-l", "abc", "cat"])
case("sp-size-too-big", NS("a"), ["split-window", "-h", "-l", "200", "cat"], ["list-panes", "-F", PANEFMT])
case("sp-grid", *GRID, ["list-panes", "-F", PANEFMT])
case("sp-layout", *GRID, ["list-windows", "-F", "#{window_layout} #{window_visible_layout}"])
case("sp-target-pane", *TWO, ["split-window", "-v", "-t", "a:0.0", "cat"], ["list-panes", "-F", PANEFMT])
case("sp-missing-pane", NS("a"), ["split-window", "-t", "%99", "cat"])
case("sp-odd-sizes", NS("a", x=81, y=25), ["split-window", "-h", "cat"], ["split-window", "-v", "cat"],
     ["list-panes", "-F", PANEFMT])

# -- list-windows / list-panes -----------------------------------------------------------------

case("lw-default", *W3, ["list-windows"])
case("lw-all", NS("a"), NS("b", "-n", "bw"), ["new-window", "-t", "b:", "cat"], ["list-windows", "-a"])
case("nw-target-matches-window-name", NS("a"), NS("b", "-n", "bw"), ["new-window", "-t", "b", "cat"])
case("lw-all-format", NS("a"), NS("b"), ["list-windows", "-a", "-F", "#S:#I #{window_id} #{window_name}"])
case("lw-target", NS("a"), NS("b"), ["new-window", "-t", "b", "cat"], ["list-windows", "-t", "b", "-F", WINFMT])
case("lw-missing", NS("a"), ["list-windows", "-t", "x"])
case("lp-default", *TWO, ["list-panes"])
case("lp-all", *TWO, NS("b"), ["list-panes", "-a"])
case("lp-session", *TWO, ["new-window", "-t", "a", "cat"], ["list-panes", "-s", "-t", "a"])
case("lp-session-format", *TWO, ["new-window", "-t", "a", "cat"], ["list-panes", "-s", "-F", "#I.#P #D"])
case("lp-target-window", *W3, ["split-window", "-t", "a:1", "cat"], ["list-panes", "-t", "a:1", "-F", PANEFMT])
case("lp-all-format", *TWO, NS("b"), ["list-panes", "-a", "-F", "#{session_name}:#{window_index}.#{pane_index} #{pane_id}"])
case("lp-missing", NS("a"), ["list-panes", "-t", "a:7"])
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


case("libtmux-list-panes", *TWO, NS("b", "-n", "bwin"), ["new-window", "-t", "b:", "-n", "second", *pf("x\\ny")],
     Wait("b:1", "y"), ["list-panes", "-a", "-F", seps(LIBTMUX_PANE)])
case("libtmux-list-windows", *TWO, NS("b", "-n", "bwin"), ["list-windows", "-a", "-F", seps(LIBTMUX_WINDOW)])
case("libtmux-list-sessions", NS("a"), NS("b", "-c", "/tmp"), ["list-sessions", "-F", seps(LIBTMUX_SESSION)])

# -- select-window and friends -----------------------------------------------------------------

case("sw-target", *W3, ["select-window", "-t", "a:1"], ["list-windows", "-F", WINFMT])
case("sw-missing", *W3, ["select-window", "-t", "a:9"])
case("sw-by-name", *W3, ["select-window", "-t", "a:w0"], D("#I #W"))
case("next-window", *W3, ["select-window", "-t", "a:0"], ["next-window", "-t", "a"], D("#I"))
case("next-window-wraps", *W3, ["next-window", "-t", "a"], ["list-windows", "-F", WINFMT])
case("next-window-none", NS("a"), ["next-window"])
case("previous-window", *W3, ["previous-window"], ["list-windows", "-F", WINFMT])
case("previous-window-none", NS("a"), ["previous-window", "-t", "a"])
case("last-window", *W3, ["last-window"], ["list-windows", "-F", WINFMT])
case("last-window-none", NS("a"), ["last-window"])
case("sw-last-flag", *W3, ["select-window", "-l"], D("#I"))
case("sw-next-flag", *W3, ["select-window", "-n"], D("#I"))
case("sw-prev-flag", *W3, ["select-window", "-p"], D("#I"))
case("sw-toggle", *W3, ["select-window", "-T", "-t", "a:2"], D("#I"))
case("sw-same-no-toggle", *W3, ["select-window", "-t", "a:2"], ["list-windows", "-F", WINFMT])

# -- select-pane / last-pane -------------------------------------------------------------------

case("selp-left", *GRID, ["select-pane", "-L"], D("#P"))
case("selp-up", *GRID, ["select-pane", "-U"], D("#P"))
case("selp-right-wraps", *GRID, ["select-pane", "-R"], D("#P"))
case("selp-down-wraps", *GRID, ["select-pane", "-D"], D("#P"))
case("selp-target", *GRID, ["select-pane", "-t", "a:0.1"], ["list-panes", "-F", "#P #{pane_active} #{pane_last}"])
case("selp-last", *GRID, ["select-pane", "-l"], D("#P"))
case("selp-last-none", NS("a"), ["select-pane", "-l"])
case("selp-title", NS("a"), ["select-pane", "-T", "my title"], D("#{pane_title}|#T"))
case("selp-disable", NS("a"), ["select-pane", "-d"], D("#{pane_input_off}"))
case("selp-enable", NS("a"), ["select-pane", "-d"], ["select-pane", "-e"], D("#{pane_input_off}"))
case("selp-missing", NS("a"), ["select-pane", "-t", "%99"])
case("selp-left-then-last", *GRID, ["select-pane", "-L"], ["select-pane", "-l"], D("#P"))
case("last-pane", *TWO, ["select-pane", "-t", "a:0.0"], ["last-pane"], D("#P"))
case("last-pane-none", NS("a"), ["last-pane"])

# -- kill-window / kill-pane / rename-window ---------------------------------------------------

case("kw-target", *W3, ["kill-window", "-t", "a:1"], ["list-windows", "-F", WINFMT])
case("kw-all-but", *W3, ["kill-window", "-a", "-t", "a:1"], ["list-windows", "-F", WINFMT])
case("kw-current", *W3, ["kill-window"], ["list-windows", "-F", WINFMT])
case("kw-missing", NS("a"), ["kill-window", "-t", "a:4"])
case("kw-last-kills-session", NS("a"), NS("b"), ["kill-window", "-t", "a:0"], ["list-sessions", "-F", "#S"])
case("kp-target", *GRID, ["kill-pane", "-t", "a:0.1"], ["list-panes", "-F", PANEFMT])
case("kp-all-but", *GRID, ["kill-pane", "-a", "-t", "a:0.2"], ["list-panes", "-F", PANEFMT])
case("kp-current", *TWO, ["kill-pane"], ["list-panes", "-F", PANEFMT])
case("kp-last-kills-window", *W3, ["kill-pane", "-t", "a:1.0"], ["list-windows", "-F", WINFMT])
case("kp-missing", NS("a"), ["kill-pane", "-t", "%99"])
case("rw-ok", NS("a"), ["rename-window", "-t", "a:0", "new name"], ["list-windows", "-F", "#W #{automatic-rename}"])
case("rw-missing", NS("a"), ["rename-window", "-t", "a:3", "x"])
case("rw-too-few", NS("a"), ["rename-window"])
case("rw-too-many", NS("a"), ["rename-window", "x", "y"])

# -- send-keys ---------------------------------------------------------------------------------

keys("keys-text-enter", "hello", "Enter")
keys("keys-tab-space", "a", "Tab", "b", "Space", "c")
keys("keys-control", "C-c", "C-a", "C-z", "C-Space", "C-[")
keys("keys-meta", "M-x", "M-Enter", "M-C-a")
keys("keys-cursor", "Up", "Down", "Left", "Right")
keys("keys-function", "F1", "F2", "F5", "F12")
keys("keys-edit", "BSpace", "DC", "IC", "Home", "End", "PPage", "NPage")
keys("keys-modified-cursor", "C-Up", "S-Left", "M-Right", "BTab")
keys("keys-escape", "Escape", "x")
keys("keys-literal", "-l", "Enter C-c")
keys("keys-hex", "-H", "41", "42", "1b", "7f", end=["-H", "7e", "45", "4e", "44"])
keys("keys-repeat", "-N", "3", "xy")
keys("keys-unknown-name", "NoSuchKey", "Enter")
keys("keys-utf8", "é中", "Enter")
keys("keys-chars-as-names", "C-b", "^C", "M-a", "a-b")
case("keys-missing-pane", NS("a"), ["send-keys", "-t", "%99", "x"])
case("keys-reset", NS("a", cmd=pf("\\033[31mcolour")), Wait("a", "colour"), ["send-keys", "-R", "-t", "a"],
     ["send-keys", "-t", "a", "-l", "zz"], Wait("a", "zz"), ["capture-pane", "-p", "-e", "-t", "a"])
case("keys-hex-invalid", NS("a"), ["send-keys", "-H", "-t", "a", "zz"])

# -- capture-pane ------------------------------------------------------------------------------

screen("cap-plain", "hello\\nworld\\n", "world")
screen("cap-colours-e", "\\033[31mred\\033[0m \\033[1mbold\\033[0m \\033[42;30mgbg\\033[0m end\\n", "end", "-e")
screen("cap-colours-plain", "\\033[31mred\\033[0m \\033[1mbold\\033[0m end\\n", "end")
screen("cap-256-rgb", "\\033[38;5;123ma\\033[48;5;200mb\\033[38;2;1;2;3mc\\033[48;2;250;0;7md\\033[0m end", "end", "-e")
screen("cap-attrs", "\\033[4mu\\033[0m\\033[3mi\\033[0m\\033[7mr\\033[0m\\033[2md\\033[0m\\033[9ms\\033[0m\\033[5mb\\033[0m end",
       "end", "-e")
screen("cap-bright", "\\033[91mA\\033[102mB\\033[39;49mC\\033[0m end", "end", "-e")
screen("cap-attr-carry", "\\033[1;31mtwo\\nlines\\033[0m end", "end", "-e")
screen("cap-wide-cjk", "中文字 x\\n", "x")
screen("cap-wide-emoji", "a😀b🎉c end\\n", "end")
screen("cap-wide-e", "\\033[1m中\\033[0m文 end", "end", "-e")
screen("cap-wide-wrap", "123456789中文 end", "end", x=10, y=5)
screen("cap-wrap-plain", "0123456789" * 10, "56789")
screen("cap-wrap-join", "0123456789" * 10 + "\\nnext", "next", "-J")
screen("cap-join-trailing", "ab   \\ncd  \\n", "cd", "-J")
screen("cap-trailing-N", "ab   \\ncd\\n", "cd", "-N")
screen("cap-blank-rows", "a\\n\\n\\nb\\n", "b")
screen("cap-cursor-moves", "\\033[5;10Hx\\033[2;3Hy\\033[10;1Hend", "end")
screen("cap-clear", "first\\033[2J\\033[Hsecond", "second")
screen("cap-erase-line", "abcdef\\033[3D\\033[Kxy\\n", "xy")
screen("cap-insert-delete", "abcdef\\033[4D\\033[2@XY\\033[2P!\\n", "!")
screen("cap-tab", "a\\tb\\tc\\n", "c")
screen("cap-backspace-cr", "abc\\bX\\rY\\n", "Y")
screen("cap-escapes-C", "\\033[31mred\\033[0m plain", "plain", "-e", "-C")
screen("cap-scroll-region", "\\033[1;3r\\033[3;1H1\\n2\\n3\\n4\\033[r\\033[10;1Hend", "end", y=12)
screen("cap-range", "l1\\nl2\\nl3\\nl4\\nl5\\nl6", "l6", "-S", "2", "-E", "4")
screen("cap-range-swapped", "l1\\nl2\\nl3\\nl4\\nl5\\nl6", "l6", "-S", "4", "-E", "2")
screen("cap-range-invalid", "l1", "l1", "-S", "x")
screen("cap-alternate-missing", "x", "x", "-a")
screen("cap-alternate-quiet", "x", "x", "-a", "-q")
screen("cap-alternate", "main\\033[?1049halt screen", "alt")
screen("cap-alternate-saved", "main\\033[?1049halt screen", "alt", "-a")
screen("cap-reverse-video-off", "\\033[7mrev\\033[27mno end", "end", "-e")
screen("cap-default-fg-bg", "\\033[31;44mab\\033[39mcd\\033[49mef end", "end", "-e")
SEQ = sh("seq 1 100; exec cat")
case("cap-history-all", NS("a", cmd=SEQ), Wait("a", "100"), ["capture-pane", "-p", "-S", "-", "-E", "-", "-t", "a"])
case("cap-history-neg", NS("a", cmd=SEQ), Wait("a", "100"), ["capture-pane", "-p", "-S", "-5", "-E", "2", "-t", "a"])
case("cap-history-before-start", NS("a", cmd=SEQ), Wait("a", "100"), ["capture-pane", "-p", "-S", "-500", "-E", "-70", "-t", "a"])
case("cap-history-default", NS("a", cmd=SEQ), Wait("a", "100"), ["capture-pane", "-p", "-t", "a"])
case("cap-history-size", NS("a", cmd=SEQ), Wait("a", "100"), D("#{history_size} #{history_limit} #{cursor_y}"))
case("cap-history-end-dash", NS("a", cmd=SEQ), Wait("a", "100"), ["capture-pane", "-p", "-S", "20", "-E", "-", "-t", "a"])
case("cap-history-list-panes", NS("a", cmd=SEQ), Wait("a", "100"), ["list-panes"])
case("cap-clear-history", NS("a", cmd=SEQ), Wait("a", "100"), ["clear-history", "-t", "a"], D("#{history_size}"))
case("cap-missing-pane", NS("a"), ["capture-pane", "-p", "-t", "%99"])
case("cap-second-pane", *TWO, ["split-window", "-t", "a:0.0", *pf("in pane two")], Wait("a:0.1", "two"),
     ["capture-pane", "-p", "-t", "a:0.1"])

# -- display-message and formats ---------------------------------------------------------------

case("dm-basic", NS("a"), D("#{session_name}"))
case("dm-aliases", *TWO, D("#S #I #W #P #D #F"))
case("dm-trim", NS("abcdefgh"), D("#{=5:session_name}|#{=-3:session_name}|#{=/4/...:session_name}"))
case("dm-pad", NS("abc"), D("[#{p10:session_name}][#{p-6:session_name}][#{p2:session_name}]"))
case("dm-subst", NS("banana"), D("#{s/a/o/:session_name}|#{s/(an)(a)/\\2\\1/:session_name}|#{s/A/x/i:session_name}"))
case("dm-cond", NS("a"), D("#{?session_attached,att,det}|#{?#{==:#S,a},eq,ne}|#{?,yes,no}|#{?0,yes,no}"))
case("dm-cond-nested", NS("a"), D("#{?session_windows,#{?window_active,both,w},none}"))
case("dm-compare", NS("a"), D("#{==:a,a}#{!=:a,b}#{<:a,b}#{>:a,b}#{<=:b,b}#{>=:a,b}"))
case("dm-logic", NS("a"), D("#{||:0,1}#{&&:1,0}#{||:,}#{&&:1,1}#{!:0}#{!:abc}"))
case("dm-arith", NS("a"), D("#{e|+|:1,2} #{e|-|:1,5} #{e|*|:6,7} #{e|/|:7,2} #{e|%|:7,3} #{e|*|f|2:1.5,3} #{e|/|f:1,3}"))
case("dm-arith-compare", NS("a"), D("#{e|<|:1,2}#{e|>|:1,2}#{e|==|:2,2}#{e|!=|:2,2}#{e|>=|:3,3}"))
case("dm-arith-vars", *TWO, D("#{e|+|:#{pane_width},#{pane_left}}"))
case("dm-loop-windows", *W3, D("#{W:#{window_index}=#{window_name} }"))
case("dm-loop-windows-current", *W3, D("#{W:<#I>,[#I]}"))
case("dm-loop-panes", *GRID, D("#{P:#{pane_index}#{?pane_active,*,} }"))
case("dm-loop-panes-current", *TWO, D("#{P:x#P,y#P}"))
case("dm-loop-sessions", NS("a"), NS("b"), NS("c"), D("#{S:#{session_name}/#{session_windows} }"))
case("dm-unknown-var", NS("a"), D("<#{nosuchvariable}>"))
case("dm-session-windows", *W3, D("#{session_windows}"))
case("dm-window-flags", *W3, ["list-windows", "-F", "#{window_index}[#{window_flags}] #{window_last_flag}"])
case("dm-pane-active", *TWO, ["list-panes", "-F", "#{pane_active}#{pane_last}"])
case("dm-cursor", NS("a", cmd=pf("abc\\nde")), Wait("a", "de"), D("#{cursor_x},#{cursor_y}"))
case("dm-target", *W3, D("#I #W", "a:1"))
case("dm-target-missing", NS("a"), D("#I", "a:9"))
case("dm-F-flag", NS("a"), ["display-message", "-p", "-F", "#S-F"])
case("dm-F-and-arg", NS("a"), ["display-message", "-p", "-F", "#S", "x"])
case("dm-literal", NS("a"), D("#{l:#{session_name}}|##|#,"))
case("dm-quote", NS("a"), D("#{q:#{pane_current_path}}|#{q:#{s/^/a b;/:session_name}}"))
case("dm-basename", NS("a", "-c", "/usr/share"), D("#{b:pane_current_path}|#{d:pane_current_path}"))
case("dm-length", NS("abcdef"), D("#{n:session_name}|#{w:session_name}"))
case("dm-match", NS("abc"), D("#{m:a*,abc}#{m:b*,abc}#{m/r:^a.c$,abc}#{m/ri:^A,abc}"))
case("dm-options", NS("a"), D("#{history-limit}|#{base-index}|#{status}|#{@nope}|#{automatic-rename}"))
case("dm-cond-escapes", NS("a"), D("#{?1,a#,b,c}|#{?0,x,y#}z}"))
case("dm-style-passthrough", NS("a"), D("#[fg=red]x#[default]"))
case("dm-ids", *TWO, NS("b"), D("#{session_id} #{window_id} #{pane_id} #{window_index}"))
case("dm-no-print", NS("a"), ["display-message", "hello"])
case("dm-search-content", NS("a", cmd=pf("needle here")), Wait("a", "needle"), D("#{C:needle}|#{C:haystack}"))
case("dm-nested-expansion", NS("a"), D("#{E:#{l:##S}}"))
case("dm-version", NS("a"), D("#{version}"))
case("dm-pane-sizes", *GRID, D("#{pane_width}x#{pane_height}@#{pane_left},#{pane_top} #{pane_at_bottom}#{pane_at_right}"))
case("dm-window-names", NS("a", "-n", "x y"), D("#{=3:window_name}#{window_panes}"))
case("dm-pane-dead", NS("a"), D("#{pane_dead}#{pane_in_mode}#{pane_input_off}"))

# -- list-commands -----------------------------------------------------------------------------

case("lscm-single", NS("a"), ["list-commands", "new-session"])
case("lscm-alias", NS("a"), ["list-commands", "splitw"])
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
case("tgt-window-fnmatch", *W3, D("#I", "a:*1"))
case("tgt-window-ambiguous", *W3, D("#I", "a:w"))
case("tgt-last-window", *W3, D("#I", "a:{last}"))
case("tgt-last-window-bang", *W3, D("#I", "a:!"))
case("tgt-next-window", *W3, ["select-window", "-t", "a:0"], D("#I", "a:{next}"))
case("tgt-previous-window", *W3, D("#I", "a:{previous}"))
case("tgt-plus-one", *W3, ["select-window", "-t", "a:0"], D("#I", "a:+1"))
case("tgt-minus-one", *W3, D("#I", "a:-1"))
case("tgt-plus-wraps", *W3, D("#I", "a:+"))
case("tgt-start-end", *W3, ["select-window", "-t", "a:1"], D("#I", "a:{start}"), D("#I", "a:$"))
case("tgt-end", *W3, ["select-window", "-t", "a:1"], D("#I", "a:{end}"))
case("tgt-top", *GRID, D("#P", "{top}"))
case("tgt-bottom-left", *GRID, D("#P", "{bottom-left}"))
case("tgt-bottom-right", *GRID, ["select-pane", "-t", "a:0.0"], D("#P", "{bottom-right}"))
case("tgt-top-right", *GRID, D("#P", "{top-right}"))
case("tgt-left-right", *GRID, D("#P", "{left}"))
case("tgt-up-of", *GRID, D("#P", "{up-of}"))
case("tgt-left-of", *GRID, D("#P", "{left-of}"))
case("tgt-down-of", *GRID, ["select-pane", "-t", "a:0.0"], D("#P", "{down-of}"))
case("tgt-last-pane", *GRID, D("#P", "{last}"))
case("tgt-next-pane", *GRID, D("#P", "{next}"))
case("tgt-pane-offset", *GRID, D("#P", ".-1"))
case("tgt-pane-plus", *GRID, ["select-pane", "-t", "a:0.1"], D("#P", ":.+2"))
case("tgt-window-missing", *W3, D("#I", "a:9"))
case("tgt-pane-missing", NS("a"), D("#P", "%99"))
case("tgt-pane-index-missing", NS("a"), D("#P", "a:0.5"))
case("tgt-session-id-missing", NS("a"), D("#S", "$9"))
case("tgt-window-id-missing", NS("a"), D("#S", "@99"))
case("tgt-colon-window", *W3, D("#S #I", ":1"))
case("tgt-dot-pane", *GRID, D("#P", ".2"))
case("tgt-session-missing-window", NS("a"), D("#I", "x:1"))
case("tgt-no-sessions", ["start-server", ";", "set", "-s", "exit-empty", "off"], D("#S", "x"))
case("tgt-no-sessions-has", ["start-server", ";", "set", "-s", "exit-empty", "off"], ["has-session", "-t", "x"])
case("tgt-no-sessions-window", ["start-server", ";", "set", "-s", "exit-empty", "off"], ["select-window", "-t", "x:1"])
case("tgt-no-sessions-ls", ["start-server", ";", "set", "-s", "exit-empty", "off"], ["list-sessions"])
case("tgt-err-window", *W3, ["list-panes", "-t", "a:9"])
case("tgt-err-pane-index", NS("a"), ["select-pane", "-t", "a:0.5"])
case("tgt-err-session-id", NS("a"), ["kill-session", "-t", "$9"])
case("tgt-err-window-id", NS("a"), ["kill-window", "-t", "@99"])
case("tgt-err-session-window", NS("a"), ["select-window", "-t", "x:1"])
case("tgt-err-window-name", *W3, ["select-window", "-t", "a:nope"])
case("tgt-err-window-ambiguous", *W3, ["select-window", "-t", "a:w*"])
case("tgt-err-up-of-none", NS("a"), ["select-pane", "-t", "{up-of}"])
case("tgt-err-pane-in-window-id", *W3, ["select-pane", "-t", "@1.3"])
case("tgt-no-sessions-default", ["start-server", ";", "set", "-s", "exit-empty", "off"], ["list-windows"])

# -- command line errors, chaining -------------------------------------------------------------

case("err-unknown-command", NS("a"), ["foo"])
case("err-ambiguous-command", NS("a"), ["li"])
case("err-ambiguous-short", NS("a"), ["s"])
case("err-unknown-flag", NS("a"), ["new-session", "-Q"])
case("err-unknown-flag-alias", NS("a"), ["lsp", "-Z"])
case("err-too-many-kill-server", NS("a"), ["kill-server", "x"])
case("err-too-many-ls", NS("a"), ["list-sessions", "x"])
case("err-flag-needs-arg", NS("a"), ["split-window", "-l"])
case("err-unknown-no-server", ["foo"], no_server=True)
case("chain-semicolon", ["new-session", "-d", "-s", "a", "cat", ";", "new-window", "-n", "x", "cat"],
     ["list-windows", "-F", WINFMT])
case("chain-display", NS("a"), ["display", "-p", "one", ";", "display", "-p", "two"])
case("chain-escaped", NS("a"), ["display", "-p", "a\\;", ";", "display", "-p", "b"])
case("chain-trailing-semicolon", NS("a"), ["display", "-p", "x;", "display", "-p", "y"])
case("chain-error-stops", NS("a"), ["has-session", "-t", "x", ";", "display", "-p", "after"])
case("chain-parse-error", NS("a"), ["display", "-p", "one", ";", "foo"])
case("chain-empty", NS("a"), ["display", "-p", "z", ";", ";", "display", "-p", "w"])
case("kill-server", NS("a"), ["kill-server"])
