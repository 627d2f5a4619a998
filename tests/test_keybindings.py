"""Key tables in-process: lookup, the key-press table walk, dispatch and table lifetimes.

The listings themselves are compared with tmux 3.7b by the differential cases (``kb-*`` in
diff_cases.py); these tests pin what attached clients rely on and tmux shows only interactively.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import trio

from hmux_core import keybindings as kb
from hmux_core import keys as K
from hmux_core.server import Server


def key(name: str) -> int:
    k = K.string_to_key(name)
    assert k not in (K.KEYC_NONE, K.KEYC_UNKNOWN), name
    return k


@pytest.fixture
def server(tmp_path) -> Server:
    return Server(str(tmp_path / "sock"), 0, [], True)


@pytest.fixture
def kt(server) -> kb.KeyTables:
    return kb.key_tables(server)


def bind(server: Server, table: str, name: str, text: str, *, repeat: bool = False,
         note: str | None = None) -> None:
    kb.key_tables(server).add(table, key(name), note, repeat, kb.parse_binding_string(server, text))


def walk(kt: kb.KeyTables, name: str, **kw) -> kb.KeyResult:
    kw.setdefault("table", "root")
    kw.setdefault("prefix", key("C-b"))
    return kb.handle_key(kt, key(name), **kw)


def printed(bd: kb.Binding | None) -> str | None:
    return None if bd is None else bd.cmdlist.print()


# -- the defaults ---------------------------------------------------------------------------------


def test_defaults_have_tmux_tables_and_sizes(kt):
    assert {t.name: len(t) for t in kt} == {
        "copy-mode": 75, "copy-mode-vi": 88, "prefix": 88, "root": 24}
    assert [t.name for t in kt] == ["copy-mode", "copy-mode-vi", "prefix", "root"]


def test_defaults_are_loaded_once_and_kept_as_defaults(server, kt):
    assert kb.key_tables(server) is kt
    assert server.key_bindings is kt
    prefix = kt.get_table("prefix")
    assert prefix is not None and prefix.defaults.keys() == prefix.bindings.keys()


def test_default_notes_and_repeat_flags(kt):
    bd = kt.lookup("prefix", key("c"))
    assert bd is not None and bd.note == "Create a new window" and not bd.repeat
    up = kt.lookup("prefix", key("Up"))
    assert up is not None and up.repeat and printed(up) == "select-pane -U"
    assert printed(kt.lookup("copy-mode-vi", key("q"))) == "send-keys -X cancel"


# -- lookup ---------------------------------------------------------------------------------------


def test_lookup_ignores_key_flags(kt):
    # Up from the name table carries the cursor and implied-Meta flags; bindings never do.
    assert key("Up") & K.KEYC_MASK_FLAGS
    assert kt.lookup("prefix", key("Up") & ~K.KEYC_MASK_FLAGS) is kt.lookup("prefix", key("Up"))


def test_lookup_keeps_modifiers(kt):
    assert printed(kt.lookup("prefix", key("M-Up"))) == "resize-pane -U 5"
    assert printed(kt.lookup("prefix", key("C-Up"))) == "resize-pane -U"


def test_lookup_falls_back_to_any(server, kt):
    assert kt.lookup("root", key("x")) is None
    bind(server, "root", "Any", "display any")
    bind(server, "root", "x", "display x")
    assert printed(kt.lookup("root", key("x"))) == "display-message x"
    assert printed(kt.lookup("root", key("y"))) == "display-message any"
    assert printed(kt.lookup("root", key("M-F5"))) == "display-message any"


def test_lookup_in_missing_table_is_none(kt):
    assert kt.lookup("nope", key("x")) is None


# -- the key-press walk ---------------------------------------------------------------------------


def test_prefix_key_switches_to_prefix_table(kt):
    r = walk(kt, "C-b")
    assert (r.binding, r.table, r.forward, r.status) == (None, "prefix", False, True)


def test_prefix_table_binding_then_back_to_root(kt):
    r = walk(kt, "c", table="prefix")
    assert printed(r.binding) == "new-window" and r.table == "root" and not r.repeating
    assert not r.forward


def test_prefix_twice_runs_send_prefix(kt):
    assert printed(walk(kt, "C-b", table="prefix").binding) == "send-prefix"


def test_second_prefix_key(kt):
    r = walk(kt, "C-a", prefix2=key("C-a"))
    assert r.table == "prefix" and r.binding is None


def test_unbound_key_after_prefix_is_swallowed(kt):
    r = walk(kt, "F11", table="prefix")
    assert (r.binding, r.table, r.forward) == (None, "root", False)


def test_unbound_key_in_root_goes_to_pane(kt):
    r = walk(kt, "a")
    assert (r.binding, r.table, r.forward, r.status) == (None, "root", True, False)


def test_root_binding_runs_without_prefix(server, kt):
    bind(server, "root", "M-h", "select-pane -L")
    r = walk(kt, "M-h")
    assert printed(r.binding) == "select-pane -L" and r.table == "root" and not r.forward


def test_repeat_binding_keeps_table_and_starts_timer(kt):
    r = walk(kt, "Up", table="prefix")
    assert printed(r.binding) == "select-pane -U"
    assert (r.table, r.repeating, r.start_repeat) == ("prefix", True, True)
    again = walk(kt, "Down", table="prefix", repeating=True)
    assert printed(again.binding) == "select-pane -D" and again.repeating and again.start_repeat


def test_repeat_time_zero_disables_repeat(kt):
    r = walk(kt, "Up", table="prefix", repeat_time=0)
    assert (r.table, r.repeating, r.start_repeat) == ("root", False, False)


def test_non_repeat_key_while_repeating_is_looked_up_in_root(server, kt):
    # c is bound in prefix (not repeating): the repeat ends and c is tried in root instead.
    r = walk(kt, "c", table="prefix", repeating=True)
    assert (r.binding, r.table, r.repeating, r.forward) == (None, "root", False, True)
    bind(server, "root", "c", "display root-c")
    r = walk(kt, "c", table="prefix", repeating=True)
    assert printed(r.binding) == "display-message root-c" and not r.forward


def test_unbound_key_while_repeating_goes_to_pane(kt):
    r = walk(kt, "F11", table="prefix", repeating=True)
    assert (r.binding, r.table, r.repeating, r.forward) == (None, "root", False, True)


def test_mode_table_is_used_from_the_default_table(kt):
    r = walk(kt, "q", mode_table="copy-mode-vi")
    assert printed(r.binding) == "send-keys -X cancel" and r.table == "root"
    # Keys the mode does not bind are swallowed, not typed into the pane.
    r = walk(kt, "F11", mode_table="copy-mode-vi")
    assert (r.binding, r.forward) == (None, False)
    # The prefix still works, and the prefix table then wins over the mode.
    assert walk(kt, "C-b", mode_table="copy-mode").table == "prefix"
    assert printed(walk(kt, "c", table="prefix", mode_table="copy-mode").binding) == "new-window"


def test_any_binding_in_prefix_table(server, kt):
    bind(server, "prefix", "Any", "display any")
    r = walk(kt, "F11", table="prefix")
    assert printed(r.binding) == "display-message any" and r.table == "root"


def test_user_table_and_key_table_default(server, kt):
    bind(server, "mine", "j", "display j")
    r = walk(kt, "j", table="mine", default="mine")
    assert printed(r.binding) == "display-message j" and r.table == "mine"
    r = walk(kt, "k", table="mine", default="mine")
    assert r.forward and r.table == "mine"


def test_prefix_key_with_flags_matches(kt):
    # A prefix named Up carries the cursor flag; tmux compares without flags.
    assert walk(kt, "Up", prefix=key("Up")).table == "prefix"
    assert walk(kt, "C-a", prefix=key("C-a")).table == "prefix"
    assert walk(kt, "C-b", prefix=key("C-a")).forward  # C-b is only a key now


def test_ctrl_keys_are_not_their_c0_bytes(server, kt):
    bind(server, "root", "C-i", "display ci")
    bind(server, "root", "Tab", "display tab")
    assert printed(walk(kt, "C-i").binding) == "display-message ci"
    assert printed(kb.handle_key(kt, 0x09, table="root").binding) == "display-message tab"
    assert kt.lookup("copy-mode", key("C-[")) is not None  # as Escape, since 3.7


def test_initial_repeat_time(kt):
    r = walk(kt, "Up", table="prefix", repeat_time=500, initial_repeat_time=2000)
    assert r.repeat_time == 2000 and r.last_key == key("Up") & ~K.KEYC_MASK_FLAGS
    # The same key again while repeating takes repeat-time, another key the initial time.
    again = walk(kt, "Up", table="prefix", repeating=True, repeat_time=500,
                 initial_repeat_time=2000, last_key=r.last_key)
    assert again.repeat_time == 500
    other = walk(kt, "Down", table="prefix", repeating=True, repeat_time=500,
                 initial_repeat_time=2000, last_key=r.last_key)
    assert other.repeat_time == 2000
    assert walk(kt, "Up", table="prefix", repeat_time=500).repeat_time == 500


def test_prefix_timeout(kt):
    prefix = kt.get_table("prefix")
    prefix.activity_time = 100.0
    # Within prefix-timeout the prefix table is used; after it, the key is a root key.
    r = walk(kt, "c", table="prefix", prefix_timeout=1000, now=100.5)
    assert printed(r.binding) == "new-window"
    r = walk(kt, "c", table="prefix", prefix_timeout=1000, now=101.5)
    assert (r.binding, r.table, r.forward) == (None, "root", True)
    # A repeating binding while repeating ignores the timeout.
    r = walk(kt, "Up", table="prefix", repeating=True, prefix_timeout=1000, now=101.5)
    assert printed(r.binding) == "select-pane -U"


def test_set_client_table_stamps_the_table(kt):
    c = SimpleNamespace(session=None, key_table=None)
    kb.set_client_table(kt, c, "prefix")
    assert c.key_table == "prefix" and kt.get_table("prefix").activity_time > 0


def test_mouse_move_does_not_leave_the_prefix_table(kt):
    r = kb.handle_key(kt, K.KEYC_MOUSEMOVE_PANE, table="prefix")
    assert (r.binding, r.table, r.forward) == (None, "prefix", True)


def test_bare_bind_changes_note_and_repeat_only(server, kt):
    bind(server, "prefix", "x", "display x", note="first")
    kt.add("prefix", key("x"), None, False, None)
    bd = kt.lookup("prefix", key("x"))
    assert bd.note == "first" and not bd.repeat and printed(bd) == "display-message x"
    kt.add("prefix", key("x"), "second", True, None)
    assert bd.note == "second" and bd.repeat and bd.table == "prefix"


def test_default_table_follows_session_option():
    s = SimpleNamespace(options={"key-table": "mine"})
    assert kb.default_table(SimpleNamespace(session=s)) == "mine"
    assert kb.default_table(SimpleNamespace(session=None)) == "root"


# -- table lifetimes ------------------------------------------------------------------------------


def test_bind_without_commands_sets_note_only(server, kt):
    kt.add("prefix", key("c"), "Changed", False, None)
    bd = kt.lookup("prefix", key("c"))
    assert bd is not None and bd.note == "Changed" and printed(bd) == "new-window"
    kt.add("prefix", key("F11"), "nothing bound", False, None)
    assert kt.lookup("prefix", key("F11")) is None
    kt.add("fresh", key("a"), None, False, None)
    assert kt.get_table("fresh") is not None and len(kt.get_table("fresh")) == 0


def test_user_table_goes_with_its_last_key(server, kt):
    bind(server, "mine", "a", "display a")
    kt.remove("mine", key("a"))
    assert kt.get_table("mine") is None


def test_default_table_stays_when_emptied_key_by_key(kt):
    for bd in list(kt.get_table("root")):
        kt.remove("root", bd.key)
    root = kt.get_table("root")
    assert root is not None and len(root) == 0


def test_remove_table_moves_clients_back(server, kt):
    bind(server, "mine", "a", "display a")
    c = SimpleNamespace(key_table="mine", session=None)
    other = SimpleNamespace(key_table="prefix", session=None)
    kt.remove_table("mine", [c, other])
    assert kt.get_table("mine") is None
    assert (c.key_table, other.key_table) == ("root", "prefix")


def test_removed_root_comes_back_for_clients(server, kt):
    c = SimpleNamespace(key_table="root", session=None)
    kt.remove_table("root", [c])
    root = kt.get_table("root")
    assert root is not None and len(root) == 0 and c.key_table == "root"


def test_reset_restores_defaults(server, kt):
    bind(server, "prefix", "c", "display changed")
    bind(server, "prefix", "F11", "display new")
    kt.reset_table("prefix")
    assert printed(kt.lookup("prefix", key("c"))) == "new-window"
    assert kt.lookup("prefix", key("F11")) is None


# -- order ----------------------------------------------------------------------------------------


def test_key_order_is_tmux_tree_order(server, kt):
    for name in ("z", "é", "Ã", "中", "User0", "F1", "M-a"):
        bind(server, "order", name, "display x")
    names = [K.key_to_string(bd.key) for bd in kt.get_table("order")]
    # 3.7b: Unicode (packed UTF-8), then User keys, then function keys; modifiers above all.
    assert names == ["z", "Ã", "é", "中", "User0", "F1", "M-a"]


# -- dispatch -------------------------------------------------------------------------------------


def test_dispatch_runs_the_commands_in_order(server, kt):
    bind(server, "root", "F5", "set -s @kb one ; set -s @kb two ; set -s @kb2 '#{@kb}'")
    bd = kt.lookup("root", key("F5"))
    assert trio.run(kb.dispatch, server, None, bd) == 0
    assert server.options.get("@kb") == "two"


def test_dispatch_failing_command_reports_error(server, kt):
    bind(server, "root", "F5", "select-window -t nosuch:9 ; set -s @kb after")
    bd = kt.lookup("root", key("F5"))
    assert trio.run(kb.dispatch, server, None, bd) == -1
    assert server.options.get("@kb") is None


def test_dispatch_state_carries_repeat(server, kt):
    bd = kt.lookup("prefix", key("Up"))
    items = kb.binding_items(server, None, bd)
    assert items and all(item.state.repeat for item in items)
    items = kb.binding_items(server, None, kt.lookup("prefix", key("c")))
    assert items and not items[0].state.repeat


def test_read_only_client_may_run_only_read_only_commands(server, kt):
    c = SimpleNamespace(readonly=True, name="/dev/pts/9", session=None, key_table="root")
    assert kb.binding_items(server, c, kt.lookup("prefix", key("c"))) is None
    assert trio.run(kb.dispatch, server, c, kt.lookup("prefix", key("c"))) == -1
    # cmdq_error: once in the log, capitalised as on the status line.
    assert [text for _, _, text in server.messages] == [
        "/dev/pts/9 message: Client is read-only"]
    # detach-client is one of the few commands tmux allows read-only clients.
    assert kb.binding_items(server, c, kt.lookup("prefix", key("d"))) is not None


def test_send_keys_into_a_mode_uses_exact_mode_binding(server, kt):
    assert printed(kb.mode_key_binding(kt, "copy-mode-vi", key("q"))) == "send-keys -X cancel"
    bind(server, "copy-mode-vi", "Any", "display any")
    assert kb.mode_key_binding(kt, "copy-mode-vi", key("F11")) is None
