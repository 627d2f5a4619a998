"""Unit tests for hmux_core.options (expected values taken from tmux 3.7b runs)."""

from __future__ import annotations

import pytest

from hmux_core import options as opt
from hmux_core.options import (
    NONE,
    PANE,
    SERVER,
    SESSION,
    WINDOW,
    OptionError,
    OptionScopes,
    Style,
    args_escape,
    colour_fromstring,
    colour_tostring,
    key_canonical,
    make_global_options,
    match_option_name,
    option_scope,
    parse_option_name,
    parse_style,
    set_option,
    show_options,
    strtonum,
    style_tostring,
)
from hmux_core.options_table import (
    CHOICE,
    COLOUR,
    COMMAND,
    OPTION_TABLE,
    OPTIONS_BY_NAME,
    STATUS_FORMAT_DEFAULT,
    STRING,
)

ENV = {"SHELL": "/bin/sh"}


@pytest.fixture
def stores():
    server, gs, gw = make_global_options(ENV)
    session = gs.child(SESSION)
    window = gw.child(WINDOW)
    panes = [window.child(PANE), window.child(PANE)]
    sc = OptionScopes(server, gs, gw, session, window, panes[0], window_panes=panes)
    return sc, panes


# -- table ------------------------------------------------------------------------------------

def test_table_shape() -> None:
    # tmux 3.7b's table; the options beyond it (IS_EXTENSION, docs/extensions.md) come after.
    table = [oe for oe in OPTION_TABLE if not oe.is_extension]
    assert len(table) == 221 and OPTION_TABLE[:221] == tuple(table)
    assert len(OPTIONS_BY_NAME) == len(OPTION_TABLE)
    hooks = [oe for oe in table if oe.is_hook]
    assert len(hooks) == 68 and all(oe.type == COMMAND and oe.is_array for oe in hooks)
    assert OPTIONS_BY_NAME["pane-died"].scope == WINDOW | PANE
    assert OPTIONS_BY_NAME["window-renamed"].scope == WINDOW
    rl = OPTIONS_BY_NAME["repeat-time"]
    assert (rl.minimum, rl.maximum, rl.default) == (0, 2000000, 500)
    assert OPTIONS_BY_NAME["set-clipboard"].choices[OPTIONS_BY_NAME["set-clipboard"].default] \
        == "external"
    assert OPTIONS_BY_NAME["pane-colours"].type == COLOUR and OPTIONS_BY_NAME["pane-colours"].is_array
    assert OPTIONS_BY_NAME["status-format"].default == STATUS_FORMAT_DEFAULT
    assert OPTIONS_BY_NAME["update-environment"].separator is None
    assert OPTIONS_BY_NAME["command-alias"].separator == ","
    for oe in OPTION_TABLE:
        if oe.type == CHOICE:
            assert 0 <= oe.default < len(oe.choices), oe.name  # type: ignore[operator]
        if oe.is_style:
            assert oe.type == STRING and oe.separator == ","


def test_global_defaults() -> None:
    server, gs, gw = make_global_options(ENV)
    assert server.get("default-terminal") == "tmux-256color"
    assert server.get("editor") == "/usr/bin/vi"
    assert server.get("escape-time") == 10
    assert server.get("exit-empty") is True
    assert server.get("set-clipboard") == "external"
    assert server.get("terminal-features") == [
        "xterm*:clipboard:ccolour:cstyle:focus:title", "screen*:title", "rxvt*:ignorefkeys"]
    assert server.get_array("terminal-features") == {
        0: "xterm*:clipboard:ccolour:cstyle:focus:title", 1: "screen*:title",
        2: "rxvt*:ignorefkeys"}
    assert server.get("terminal-overrides") == ["linux*:AX@"]
    assert server.get("user-keys") == []
    assert server.get("default-client-command") == "new-session"
    assert server.get_array("escape-time") is None
    assert gs.get("default-shell") == "/bin/sh"
    assert gs.get("prefix") == "C-b" and gs.get("prefix2") == "None"
    assert gs.get("status-bg") == 8 and gs.to_string("status-bg") == "default"
    assert gs.get("update-environment")[9] == "XAUTHORITY"
    assert gs.get("update-environment[9]") == "XAUTHORITY"
    assert gw.get("cursor-colour") == -1 and gw.to_string("cursor-colour") == "none"
    assert gw.get("mode-keys") == "emacs"
    assert gw.get_number("window-size") == 3
    # Options of one scope only.
    with pytest.raises(KeyError):
        gs.get_number("pane-base-index")
    assert gw.get_local("status") is None


def test_env_defaults(tmp_path) -> None:
    shell = tmp_path / "myshell"
    shell.write_text("#!/bin/sh\n")
    shell.chmod(0o755)
    _, gs, gw = make_global_options({"SHELL": str(shell), "EDITOR": "/opt/bin/nvim"})
    assert gs.get("default-shell") == str(shell)
    assert gs.get("status-keys") == "vi" and gw.get("mode-keys") == "vi"
    server, gs, gw = make_global_options({"SHELL": "relative", "VISUAL": "emacs",
                                          "EDITOR": "vi"})
    assert server.get("editor") == "emacs" and gw.get("mode-keys") == "emacs"
    assert gs.get("default-shell").startswith("/")
    # tmux itself is never a suitable shell.
    assert not opt.check_shell("/usr/bin/tmux")
    assert not opt.check_shell("sh")


# -- primitive parsers ------------------------------------------------------------------------

@pytest.mark.parametrize("s,lo,hi,want", [
    ("5", 0, 10, (5, None)), (" 5", 0, 10, (5, None)), ("+7", 0, 10, (7, None)),
    ("5 ", 0, 10, (0, "invalid")), ("", 0, 10, (0, "invalid")), ("-", 0, 10, (0, "invalid")),
    ("-1", 0, 10, (0, "too small")), ("11", 0, 10, (0, "too large")),
    ("0x10", 0, 100, (0, "invalid")), ("99999999999999999999999", 0, 10, (0, "too large")),
])
def test_strtonum(s: str, lo: int, hi: int, want: tuple[int, str | None]) -> None:
    assert strtonum(s, lo, hi) == want


@pytest.mark.parametrize("s,shown", [
    ("colour255", "colour255"), ("Color12", "colour12"), ("#FF00aa", "#ff00aa"),
    ("aliceblue", "#f0f8ff"), ("light goldenrod", "#eedd82"), ("grey50", "#7f7f7f"),
    ("grey", "#bebebe"), ("Grey50", "#7f7f7f"), ("GRAY", "#bebebe"), ("grey100", "#ffffff"), ("grey3", "#080808"), ("93", "brightyellow"),
    ("terminal", "terminal"), ("DEFAULT", "default"), ("colour 5", "colour5"),
    ("colour+5", "colour5"), ("BRIGHTRED", "brightred"), ("0", "black"),
])
def test_colours_valid(s: str, shown: str) -> None:
    c = colour_fromstring(s)
    assert c != -1 and colour_tostring(c) == shown


@pytest.mark.parametrize("s", ["colour300", "#ff00a", "grey101", "greyish", "grey-1", "8", "none", "",
                               "colourful", "#gg0000", "nosuchcolour"])
def test_colours_invalid(s: str) -> None:
    assert colour_fromstring(s) == -1


def test_styles() -> None:
    sy = parse_style("fg=red bold,bg=colour5")
    assert sy == Style(fg=1, bg=5 | opt.COLOUR_FLAG_256, attr=opt.ATTR_BRIGHT)
    assert style_tostring(sy) == "fg=red,bg=colour5,bright"
    sy = parse_style("range=window|3,align=absolute-centre,list=focus,push-default,fill=blue")
    assert sy is not None
    assert style_tostring(sy) == \
        "list=focus,range=window|3,align=absolute-centre,push-default,fill=blue"
    assert parse_style("bold,nobold") == Style()
    assert parse_style("") == Style()
    assert parse_style("default") == Style()
    base = Style(fg=2)
    assert parse_style("fg=default", base) == Style(fg=2)
    for bad in ("bad=x", "range=window|x", "list=nope", "fill=nope", "bold|", "xg=red",
                "range=left|1", "range=window", "align=middle", "x" * 300):
        assert parse_style(bad) is None, bad
    # An unknown range type is ignored, as tmux does.
    assert parse_style("range=foo") == Style()
    assert parse_style("bold|italics").attr == opt.ATTR_BRIGHT | opt.ATTR_ITALICS


@pytest.mark.parametrize("s,want", [
    ("C-a", "C-a"), ("^A", "C-a"), ("C-i", "C-i"), ("C-@", "C-@"), ("M-C-Space", "C-M-Space"),
    ("0x1", "[SOH]"), ("0x0", "[NUL]"), ("0xe9", "é"), ("pgdn", "NPage"), ("C-Tab", "C-Tab"),
    ("S-F1", "S-F1"), ("User5x", "User5"), ("User 7", "User7"), ("C-?", "C-?"),
    ("c-m-x", "C-M-x"), ("any", "Any"), ("é", "é"), ("C-é", "C-é"), ("^", "^"), ("^^", "C-^"),
    ("-", "-"), ("KP/", "KP/"), ("MouseDown1Pane", "MouseDown1Pane"), ("C-1", "C-1"),
    ('"', '"'), ("~", "~"), (" ", "Space"), ("0x20", " "), ("0x41", "A"), ("0x0x41", "A"),
    ("0x7f", "\x7f"), ("0x80", "\x80"), ("C-$", "C-$"), ("User1000", "User100"),
    ("[SOH]", "[SOH]"), ("tab", "Tab"),
    ("0x1b", "Escape"), ("C-M-Enter", "C-M-Enter"), ("S-Up", "S-Up"), ("C-S-a", "C-S-a"),
    ("C-A", "C-A"), ("C-\\", "C-\\"), ("^?", "C-?"), ("^@", "C-@"), ("M-é", "M-é"),
    ("None", "None"), ("Insert", "IC"), ("BSpace", "BSpace"), ("C-[", "C-["),
])
def test_keys_valid(s: str, want: str) -> None:
    assert key_canonical(s) == want


@pytest.mark.parametrize("s", ["foo", "", "0xd800", "0x110000", "0X41", "M-0x41",
                               "User1001", "user1", "éé", "C-", "\t", "--"])
def test_keys_invalid(s: str) -> None:
    assert key_canonical(s) is None


@pytest.mark.parametrize("s,want", [
    ("", "''"), ("a b", '"a b"'), ('a"b', "'a\"b'"), ("a'b", '"a\'b"'), ("~", "\\~"),
    ("~x", "\\~x"), ("x~", "x~"), ("#", "\\#"), ("a#b", '"a#b"'), ('"', '\\"'), ("'", "\\'"),
    (" ", '" "'), ("$", "\\$"), ("$x", '"\\$x"'), ("$1", '"$1"'), ("${x}", '"\\${x}"'),
    ("tab\there", "tab\\there"), ("nl\nx", "nl\\nx"), ("\x01ctrl", "\\001ctrl"),
    ("\x7f", "\\177"), ("é", "é"), ("a\\b", "a\\\\b"), ("\\", "\\\\"), ("a;b", '"a;b"'),
    ("%", "\\%"), ("*", "*"), ("~ a", '"\\~ a"'), ('"x" \'y\'', '"\\"x\\" \'y\'"'),
    ('~"', "'~\"'"), ("\r", "\\r"), ("\x1b", "\\033"), ("a\x80b", "a\x80b"),
])
def test_args_escape(s: str, want: str) -> None:
    assert args_escape(s) == want


# -- names ------------------------------------------------------------------------------------

def test_option_names() -> None:
    assert parse_option_name("status-format[1]") == ("status-format", 1)
    assert parse_option_name("a[ 2]") == ("a", 2)
    assert parse_option_name("a[5x5]") == ("a", 5)
    assert parse_option_name("a") == ("a", -1)
    for bad in ("", "a[", "a[]", "a[x]", "a[1]]", "a[-1]", "a[1]x"):
        assert parse_option_name(bad) is None, bad
    assert match_option_name("mode-k") == ("mode-keys", -1)
    assert match_option_name("status") == ("status", -1)
    assert match_option_name("prefix") == ("prefix", -1)
    assert match_option_name("cursor-color") == ("cursor-colour", -1)
    assert match_option_name("@x[3]") == ("@x", 3)
    with pytest.raises(OptionError, match="^ambiguous option: stat$"):
        match_option_name("stat")
    with pytest.raises(OptionError, match="^invalid option: foo$"):
        match_option_name("foo")
    with pytest.raises(OptionError, match=r"^ambiguous option: status\[$"):
        match_option_name("status[")
    assert option_scope("escape-t") == SERVER
    assert option_scope("remain-on-exit") == WINDOW | PANE
    assert option_scope("@mine") == NONE


# -- the store --------------------------------------------------------------------------------

def test_inheritance_and_local(stores) -> None:
    sc, panes = stores
    w, p = sc.window, panes[0]
    assert p.get("remain-on-exit") == "off"
    w.set("remain-on-exit", "on")
    assert p.get("remain-on-exit") == "on" and p.get_local("remain-on-exit") is None
    p.set("remain-on-exit", "failed")
    assert p.get("remain-on-exit") == "failed" and w.get("remain-on-exit") == "on"
    assert p.owner_of("remain-on-exit") is p and panes[1].owner_of("remain-on-exit") is w
    p.unset("remain-on-exit")
    assert p.get("remain-on-exit") == "on"
    w.unset("remain-on-exit")
    assert p.get("remain-on-exit") == "off"
    assert p.get("@nothing") is None
    with pytest.raises(KeyError):
        p.get("no-such-option")
    # Globals reset to the table default instead of removing.
    sc.global_session.set("default-shell", "/bin/sh")
    sc.global_session.unset("default-shell")
    assert sc.global_session.get("default-shell") == "/bin/sh"
    sc.server.set("escape-time", "100")
    sc.server.unset("escape-time")
    assert sc.server.get("escape-time") == 10


def test_set_values_and_errors(stores) -> None:
    sc, _ = stores
    s = sc.session
    s.set("mouse", None)
    assert s.get("mouse") is True
    s.set("mouse", "")
    assert s.get("mouse") is False
    s.set("status", None)
    assert s.get("status") == "off"
    s.set("status", "3")
    s.set("status", None)
    assert s.get("status") == "3" and s.get_number("status") == 3
    s.set("history-limit", "+12")
    assert s.get("history-limit") == 12
    errors = {
        ("history-limit", "-1"): "value is too small: -1",
        ("history-limit", "x"): "value is invalid: x",
        ("repeat-time", "2000001"): "value is too large: 2000001",
        ("prefix", "foo"): "bad key: foo",
        ("status-bg", "nope"): "bad colour: nope",
        ("mouse", "2"): "bad value: 2",
        ("status", "On"): "unknown value: On",
        ("status-style", "bad=x"): "invalid style: bad=x",
        ("default-size", "10x"): "value is invalid: 10x",
        ("default-shell", "sh"): "not a suitable shell: sh",
        ("prefix", None): "empty value",
        ("status-left", None): "empty value",
        ("@user", None): "empty value",
        ("status[1]", "x"): "not an array: status[1]",
    }
    for (name, value), msg in errors.items():
        with pytest.raises(OptionError) as ei:
            s.set(name, value)
        assert str(ei.value) == msg


def test_append_and_arrays(stores) -> None:
    sc, _ = stores
    gs = sc.global_session
    gs.append("status-style", "bold")
    assert gs.get("status-style") == "bg=green,fg=black,bold"
    gs.append("status-left", "X")
    assert gs.get("status-left") == "[#{session_name}] X"
    # Appending with no local value starts from the new text alone (tmux).
    sc.session.append("status-left", "Y")
    assert sc.session.get("status-left") == "Y"
    sc.server.set("terminal-overrides", "a,b,,c")
    sc.server.append("terminal-overrides", "d")
    sc.server.set("terminal-overrides[9]", "Z")
    sc.server.array_set("terminal-overrides", 1, "Q", append=True)
    assert sc.server.get_array("terminal-overrides") == \
        {0: "a", 1: "bQ", 2: "c", 3: "d", 9: "Z"}
    assert sc.server.get("terminal-overrides") == ["a", "bQ", "c", "d", "Z"]
    assert sc.server.get_local("terminal-overrides") == ["a", "bQ", "c", "d", "Z"]
    assert sc.server.get("terminal-overrides[9]") == "Z"
    assert sc.server.get("terminal-overrides[5]") is None
    assert sc.server.to_string("terminal-overrides") == ""
    sc.server.unset("terminal-overrides[0]")
    assert list(sc.server.get_array("terminal-overrides")) == [1, 2, 3, 9]
    gs.set("update-environment", "A B,C")
    assert gs.get("update-environment") == ["A", "B", "C"]
    sc.global_window.set("pane-colours", "red blue")
    with pytest.raises(OptionError, match="^bad colour: x$"):
        sc.global_window.set("pane-colours", "green x")
    assert sc.global_window.get_array("pane-colours") == {0: 2}
    sc.global_window.unset("pane-colours")
    assert sc.global_window.get("pane-colours") == []
    gs.set("@u", "a")
    gs.append("@u", "b")
    assert gs.get("@u") == "ab"


def test_format_lookup_and_iteration(stores) -> None:
    sc, panes = stores
    assert panes[0].format_lookup("synchronize-panes") == "0"
    assert panes[0].to_string("synchronize-panes") == "off"
    assert sc.global_session.format_lookup("status-format[1]") == STATUS_FORMAT_DEFAULT[1]
    assert sc.global_session.format_lookup("update-environment") == ""
    assert sc.global_session.format_lookup("not-an-option") is None
    s = sc.session
    s.set("@b", "1")
    s.set("@a", "2")
    s.set("status", "off")
    s.set("base-index", "1")
    assert s.local_names() == ["@a", "@b", "base-index", "status"]
    assert "status" in s and "mouse" not in s and len(s) == 4


def test_set_value_raw(stores) -> None:
    sc, _ = stores
    sc.window.set_value("automatic-rename", False)
    assert sc.window.get("automatic-rename") is False
    sc.window.set_value("window-size", "manual")
    assert sc.window.get_number("window-size") == 2
    sc.window.set_value("pane-colours", [1, 2])
    assert sc.window.get_array("pane-colours") == {0: 1, 1: 2}
    # set() with a non-string value stores it like set_value (server-internal callers).
    sc.window.set("automatic-rename", True)
    assert sc.window.get("automatic-rename") is True
    # Scopes may be named.
    assert opt.Options(parent=sc.window, scope="pane").scope == PANE
    assert opt.option_string(sc.window, "automatic-rename") == "1"
    assert opt.new_global_options(ENV)[0].get("buffer-limit") == 50
    with pytest.raises(OptionError):
        sc.window.set_value("nope", 1)


# -- set_option / show_options ----------------------------------------------------------------

def test_set_option_flags(stores) -> None:
    sc, panes = stores
    assert set_option(sc, "mode-k", "vi", global_=True) == "mode-keys"
    assert sc.global_window.get("mode-keys") == "vi"
    assert set_option(sc, "foo", "x", quiet=True) is None
    with pytest.raises(OptionError, match="^invalid option: foo$"):
        set_option(sc, "foo", "x")
    set_option(sc, "@o", "x", global_=True)
    assert set_option(sc, "@o", "y", global_=True, only_if_unset=True, quiet=True) is None
    with pytest.raises(OptionError, match="^already set: @o$"):
        set_option(sc, "@o", "y", global_=True, only_if_unset=True)
    # -p applies to window|pane options; other options ignore it.
    set_option(sc, "remain-on-exit", "on", pane=True)
    assert panes[0].get_local("remain-on-exit") == "on"
    set_option(sc, "mode-keys", "emacs", pane=True)
    assert sc.window.get_local("mode-keys") == "emacs"
    # -U clears the panes too.
    set_option(sc, "remain-on-exit", "failed")
    assert set_option(sc, "remain-on-exit", unset_panes=True) == "remain-on-exit"
    assert panes[0].get_local("remain-on-exit") is None
    assert sc.window.get_local("remain-on-exit") is None
    # Unsetting something not set is no change.
    assert set_option(sc, "remain-on-exit", unset=True) is None
    # Scope errors name the target.
    bad = OptionScopes(sc.server, sc.global_session, sc.global_window, target="nosuch")
    with pytest.raises(OptionError, match="^no such session: nosuch$"):
        set_option(bad, "status", "off")
    assert set_option(bad, "escape-time", "5") == "escape-time"
    nocur = OptionScopes(sc.server, sc.global_session, sc.global_window)
    with pytest.raises(OptionError, match="^no current window$"):
        set_option(nocur, "@w", "x", window_command=True)


def test_format_expansion(stores) -> None:
    sc, _ = stores

    def expand(s: str) -> str:
        return s.replace("#{n}", "status")

    set_option(sc, "#{n}-left", "#{n}", global_=True, expand=expand)
    assert sc.global_session.get("status-left") == "#{n}"
    set_option(sc, "#{n}-left", "#{n}", global_=True, format_value=True, expand=expand)
    assert sc.global_session.get("status-left") == "status"
    assert show_options(sc, "#{n}-left", global_=True, expand=expand) == ["status-left status"]


def test_show_options_output(stores) -> None:
    sc, panes = stores
    assert show_options(sc, "status-left", global_=True) == ['status-left "[#{session_name}] "']
    assert show_options(sc, "status-left", global_=True, value_only=True) == \
        ["[#{session_name}] "]
    assert show_options(sc, "status-left") == []
    assert show_options(sc, "status-left", inherited=True) == \
        ['status-left* "[#{session_name}] "']
    assert show_options(sc, "user-keys", server=True) == ["user-keys"]
    assert show_options(sc, "status-format[5]", global_=True) == ["status-format[5] ''"]
    assert show_options(sc, "status[3]", global_=True) == ["status[3] on"]
    with pytest.raises(OptionError, match="^invalid option: @nope$"):
        show_options(sc, "@nope", global_=True)
    assert show_options(sc, "@nope", global_=True, quiet=True) == []
    listing = show_options(sc, pane=True, inherited=True)
    assert listing[0] == "cursor-colour* none" and "pane-colours*" in listing
    assert all(line.endswith("*") or "* " in line for line in listing)
    hooks = show_options(sc, global_=True, hooks_command=True)
    assert hooks[0] == "after-bind-key" and len(hooks) == 57
    assert len(show_options(sc, global_=True, include_hooks=True)) == \
        len(show_options(sc, global_=True)) + 57


def test_hooks_parse_command(stores, monkeypatch) -> None:
    sc, _ = stores

    class Cmds:
        def __init__(self, text: str) -> None:
            self.text = text

        def __str__(self) -> str:
            return self.text.replace("display ", "display-message ")

    def parse(text: str) -> Cmds:
        if "{" in text:
            raise ValueError("syntax error")
        return Cmds(text)

    monkeypatch.setattr(opt.HOOKS, "parse_command", parse)
    set_option(sc, "after-new-window", "display hi", global_=True)
    set_option(sc, "after-new-window", "display 2", global_=True, append=True)
    assert show_options(sc, "after-new-window", global_=True) == [
        "after-new-window[0] display-message hi", "after-new-window[1] display-message 2"]
    assert isinstance(sc.global_session.get("after-new-window[1]"), Cmds)
    with pytest.raises(OptionError, match="^syntax error$"):
        set_option(sc, "after-new-window", "display {", global_=True)
    # Without -a the array was cleared before the bad command was parsed, as in tmux.
    assert sc.global_session.get("after-new-window") == []


def test_key_hook(stores, monkeypatch) -> None:
    sc, _ = stores
    monkeypatch.setattr(opt.HOOKS, "key_canonical", lambda s: s.upper() if s else None)
    set_option(sc, "prefix", "c-x", global_=True)
    assert sc.global_session.get("prefix") == "C-X"


def test_get_style_and_format_value(stores) -> None:
    sc, panes = stores
    sy = sc.global_session.get_style("status-style")
    assert sy is not None and (sy.fg, sy.bg) == (0, 2)
    sy.fg = 5  # a copy: the cache is not affected
    assert sc.global_session.get_style("status-style").fg == 0
    active = sc.global_window.get_style("pane-active-border-style",
                                        expand=lambda s: "fg=green")
    assert active is not None and active.fg == 2
    sc.session.set("status-style", "#{?x,bad=1,}")
    assert sc.session.get_style("status-style", expand=lambda s: "bad=1") is None
    assert opt.format_option_value("pane-base-index", sc.server, panes[0], sc.window,
                                   sc.global_window, sc.session, sc.global_session) == "0"
    assert opt.format_option_value("mouse", sc.server, None, sc.session) == "0"
    assert opt.format_option_value("status-format[1]", sc.server, sc.session).startswith(
        "#[align=left]#{R: ,")
    assert opt.format_option_value("window_index", sc.server, sc.session) is None


def test_styles_37() -> None:
    # tmux 3.7b's style words: noattr, set-default, us=, width=, pad=, pane/session/user ranges.
    sy = parse_style("noattr,bg=red,us=blue,set-default,width=50%,pad=2")
    assert sy is not None and sy.attr == opt.ATTR_NOATTR and sy.us == 4
    assert style_tostring(sy) == "set-default,bg=red,us=blue,noattr,width=50%,pad=2"
    assert style_tostring(parse_style("range=pane|%3")) == "range=pane|%3"  # type: ignore[arg-type]
    assert style_tostring(parse_style("range=session|$1")) == "range=session|$1"  # type: ignore[arg-type]
    assert style_tostring(parse_style("range=user|xy")) == "range=user|xy"  # type: ignore[arg-type]
    for bad in ("range=pane|3", "range=session|", "range=user", "range=control|10",
                "range=window|4294967296", "width=101%", "pad=-1", "us=nope"):
        assert parse_style(bad) is None, bad
    assert parse_style("range=foo|1") == Style()  # an unknown range type is ignored
