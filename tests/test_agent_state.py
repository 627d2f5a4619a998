"""Screen classification against the agents' real UI strings, and the agent table as data:
regions, priorities, persistent footers, prose, state files, and user files that extend it."""

from __future__ import annotations

import os

import pytest
from test_agent_fakes import FakeHost, PtyProc, fakes_for, wait_until

from hmux_plugins_agent import AgentPlugin
from hmux_plugins_agent.classify import Regions, classify, is_rule, screen_model
from hmux_plugins_agent.table import build, bundled_document, load, parse_rule

TABLE = load([])
R = "─" * 50
BOX = [R, "❯ ", R, "  ⏵⏵ bypass permissions on (shift+tab to cycle)", "  ? for shortcuts"]


def state(label: str, lines: list[str], title: str = "",
          file_state: tuple[str, int] | None = None) -> str:
    return classify(TABLE.spec(label), lines, title, file_state, TABLE.generic).state


CASES = [
    # Claude Code: spinner variants (herdr#3457, Prowl#691), background work, idle box.
    ("claude", ["● reading", "✻ Misting… (33s · ↓ 2.0k tokens · esc to interrupt)", ""] + BOX,
     "", "working"),
    ("claude", ["✽ Wandering… (esc to interrupt)"] + BOX, "", "working"),
    ("claude", ["✽ Transmuting… (2m 21s · ↓ 9.2k tokens · thinking with high effort)"] + BOX,
     "", "working"),
    ("claude", ["✳ Waiting for 1 background agent to finish"] + BOX, "", "working"),
    ("claude", ["* Bunning… (1m 38s)"] + BOX, "", "working"),
    ("claude", ["✻ Worked for 1m 52s", ""] + BOX, "✳ Claude Code", "idle"),
    # The ✳ spinner frame doubles as the idle title prefix (herdr#3438): the spinner wins.
    ("claude", ["✳ Zesting… (4s · ↓ 88 tokens)"] + BOX, "✳ Claude Code", "working"),
    ("claude", ["● done"] + BOX, "⠂ Claude Code", "working"),
    # Permission dialog below the last rule, even while the title still spins.
    ("claude", ["● Bash(rm -rf build)", R, " Bash command", "   rm -rf build",
                " Do you want to proceed?", " ❯ 1. Yes",
                "   2. Yes, and don't ask again for rm commands in /x",
                "   3. No, and tell Claude what to do differently (esc)"], "⠐ Claude Code",
     "waiting"),
    ("claude", ["● Edit(app.py)", R, " Do you want to make this edit to app.py?", " ❯ 1. Yes",
                "   2. No (esc)"], "", "waiting"),
    ("claude", [R, " Do you trust the files in this folder?", " ❯ 1. Yes, proceed",
                " Enter to confirm · Esc to exit"], "", "waiting"),
    ("claude", [R, " Pick a theme", " ❯ 1. Dark", "   2. Light",
                " Enter to select · ↑/↓ to navigate · Esc to cancel"], "", "waiting"),
    # Prose above the prompt box that looks like a question is not a blocker (herdr#4064).
    ("claude", ["● Would you like to open a pull request? If yes, I will run gh.",
                "  Do you want to proceed? 1. Yes  2. No", ""] + BOX, "✳ Claude Code", "idle"),
    # Persistent footers alone say nothing (ntm#80, cmuxlayer#177): no evidence, the state
    # stays as it was (a screen with nothing else on it is not a new state).
    ("claude", ["  ⏵⏵ bypass permissions on (shift+tab to cycle)"], "", "keep"),
    ("claude", ["  ⏵⏵ accept edits on (shift+tab to cycle)", "  ⏸ plan mode on"], "", "keep"),
    ("claude", ["● output", "  Showing detailed transcript · ctrl+o to toggle"], "", "keep"),
    ("claude", [R, " Select model", " ❯ 1. Default", " Enter to set as default · Esc to cancel"],
     "", "keep"),
    # Codex CLI.
    ("codex", ["› fix it", "", "• Working (4s • esc to interrupt)", "", "› ",
               "  gpt-5-codex · 100% context left"], "", "working"),
    ("codex", ["◦ Working (1m 16s • esc to interrupt) · 1 background terminal running", "› "],
     "", "working"),
    ("codex", ["  Would you like to run the following command?", "  $ rm -rf build",
               "› 1. Yes, proceed (y)", "  2. Yes, and don't ask again for commands that start "
               "with `rm` (p)", "  3. No, and tell Codex what to do differently (esc)",
               "  Press enter to confirm or esc to cancel"], "", "waiting"),
    ("codex", ["› "], "Action Required", "waiting"),
    ("codex", ["─ Worked for 1m 02s ─", "", "› ", "  gpt-5 · 90% context left"], "codex", "idle"),
    ("codex", ["■ Conversation interrupted - tell the model what to do differently", "› "],
     "", "idle"),
    # A positive working anchor outranks a weak blocker.
    ("codex", ["  run tests? [y/n]", "• Working (9s • esc to interrupt)"], "", "working"),
    ("codex", ["  continue with the migration? [y/n]"], "", "waiting"),
    # A turn's spinner title names the prompt (0.171: "⠋ <prompt> | <dir>").
    ("codex", ["› "], "⠋ fix the tests | codex", "working"),
    # Gemini CLI and its fork Qwen Code.
    ("gemini", ["⠏ Reticulating splines (esc to cancel, 12s)", "│ >   Type your message"],
     "", "working"),
    ("gemini", ["│ Allow execution of: 'rm'?", "│ ● 1. Yes, allow once",
                "│   2. Yes, allow always ...", "│   3. No, suggest changes (esc)"], "",
     "waiting"),
    ("gemini", ["│ Apply this change?", "│ ● 1. Yes, allow once", "│   3. Modify with external editor"],
     "", "waiting"),
    ("gemini", ["╭────────╮", "│ >   Type your message or @path/to/file │", "╰────────╯"],
     "Gemini - project", "idle"),
    ("qwen", ["⠏ Thinking (esc to cancel, 3s)"], "", "working"),
    ("qwen", ["│ >   Type your message or @path/to/file │"], "", "idle"),
    # aider.
    ("aider", ["> fix it", "", "░█        Waiting for gpt-4o"], "", "working"),
    ("aider", ["tests/x.py", "Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]:"], "",
     "waiting"),
    ("aider", ["Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: "], "", "waiting"),
    ("aider", ["Tokens: 2.2k sent, 1.9k received.", "────────", ">"], "", "idle"),
    ("aider", ["────────", "architect>"], "", "idle"),
    # OpenCode.
    ("opencode", ["  ┃  fix it", "  ■■■■⬝⬝⬝⬝  esc interrupt"], "", "working"),
    ("opencode", ["  △ Permission required", "  $ rm -rf build", "  esc dismiss  enter confirm"],
     "", "waiting"),
    ("opencode", ["  ┃  Ask anything... \"Fix a TODO\"", "  enter send"], "", "idle"),
    # Cursor agent.
    ("cursor", ["  ⬢ Reading… src/app.py", "  ctrl+c to stop"], "", "working"),
    ("cursor", ["  ⬡ Grepping.. for foo"], "", "working"),
    ("cursor", ["  Waiting for approval…", "  Run this command?", "   → Run (once) (y)",
                "     Skip (esc or n)"], "", "waiting"),
    ("cursor", ["  → Add a follow-up", "  Auto · 3% context"], "", "idle"),
    # Amp.
    ("amp", ["│ > │"], "Plugin confirmation needed", "waiting"),
    ("amp", ["  Run this command?", "  Approve   Allow All for This Session   Deny with feedback"],
     "", "waiting"),
    ("amp", ["╭───╮", "│ > │", "╰─ ≋ thinking ──────╯"], "", "working"),
    ("amp", ["│ > │"], "⠋ ~/p - amp", "working"),
    ("amp", ["│ > │"], "~/project - amp - T-1", "idle"),
    # Goose: ◆ while the question is open, ◇ once answered.
    ("goose", ["◆  Goose would like to call the above tool, do you allow?", "│  ● Allow",
               "│  ○ Deny"], "", "waiting"),
    ("goose", ["◇  Goose would like to call the above tool, do you allow?", "│  Allow", "( O)>"],
     "", "idle"),
    ("goose", ["◒  Pondering the options...  (Ctrl+C to interrupt)"], "", "working"),
    # GitHub Copilot CLI: "esc to cancel" is working unless an "enter to …" is there too.
    ("copilot", ["∙ Thinking (Esc to cancel)"], "", "working"),
    ("copilot", [" Select a model", " Enter to select · Esc to cancel"], "", "waiting"),
    ("copilot", ["│   2. No, and tell Copilot what to do differently (Esc) │"], "", "waiting"),
    ("copilot", ["│ > Enter @ to mention files │"], "", "idle"),
]


@pytest.mark.parametrize("label, lines, title, want", CASES,
                         ids=[f"{c[0]}-{i}-{c[3]}" for i, c in enumerate(CASES)])
def test_screen_states(label, lines, title, want):
    assert state(label, lines, title) == want


def test_every_required_agent_has_working_waiting_and_some_idle_evidence():
    required = ("claude", "codex", "gemini", "aider", "opencode", "cursor", "amp", "goose",
                "copilot", "qwen")
    for label in required:
        states = {r.state for r in TABLE.spec(label).rules}
        assert {"working", "waiting"} <= states, label
        assert "idle" in states or TABLE.spec(label).fallback == "idle", label


def test_blockers_outside_the_prompt_region_do_not_count():
    # The same dialog text, once below the last rule (live) and once above it (transcript).
    dialog = [" Do you want to proceed?", " ❯ 1. Yes", "   2. No (esc)"]
    assert state("claude", ["● x", R] + dialog) == "waiting"
    assert state("claude", dialog + BOX) == "idle"


def test_only_the_live_bottom_counts_for_bottom_rules():
    stale = ["• Working (4s • esc to interrupt)"] + [f"line {i}" for i in range(20)] + ["› "]
    assert state("codex", stale) == "idle"


def test_state_file_is_weighed_by_priority():
    idle_screen = ["✻ Worked for 2s"] + BOX
    assert state("claude", idle_screen, "", ("waiting", 60)) == "waiting"
    assert state("claude", idle_screen, "", ("working", 60)) == "working"
    spinner = ["✻ Misting… (3s · esc to interrupt)"] + BOX
    assert state("claude", spinner, "", ("idle", 60)) == "working"
    dialog = [R, " Do you want to proceed?", " ❯ 1. Yes"]
    assert state("claude", dialog, "", ("working", 60)) == "waiting"
    assert state("claude", ["Loading"], "", ("idle", 60)) == "idle"


def test_regions():
    lines = ["prose", "✻ Misting…", R, "❯ hi", R, "footer"]
    r = Regions(lines, "T")
    assert r.text("after_rule", 8) == "footer"
    assert r.text("prompt_box", 8) == "❯ hi"
    assert r.text("above_prompt", 1) == "✻ misting…"
    assert r.text("bottom", 2) == R + "\nfooter"
    assert r.text("title", 1) == "t"
    assert is_rule("╭" + "─" * 20 + "╮") and is_rule("━" * 10)
    assert not is_rule("-" * 20) and not is_rule("╰─ ≋ thinking ─────╯") and not is_rule("──")


def test_screen_model_from_aider_banner():
    spec = TABLE.spec("aider")
    assert screen_model(spec, ["Aider v0.86", "Main model: gpt-4o with diff edit format"]) \
        == "gpt-4o"
    assert screen_model(spec, ["░█  Waiting for claude-3-7-sonnet"]) == "claude-3-7-sonnet"


# -- the table as data ---------------------------------------------------------------------------

def test_bundled_table_loads_without_problems():
    assert TABLE.problems == []
    assert TABLE.hold == 1.0
    assert len(TABLE.agents) >= 10


def test_user_file_extends_an_agent_and_adds_one(tmp_path):
    user = tmp_path / "agents.toml"
    user.write_text('''
[agents.claude]
names = ["cc"]

[[agents.claude.rules]]
name = "my compacting line"
state = "working"
priority = 95
region = "bottom"
any = ["compacting conversation"]

[agents.zed-agent]
names = ["zagent"]
paths = ["/opt/zed-agent/"]

[[agents.zed-agent.rules]]
state = "waiting"
priority = 100
region = "bottom"
lines = 2
any = [["allow?"], ["(a)llow", "(d)eny"]]
''')
    t = load([str(user)])
    assert t.problems == []
    assert t.by_name["cc"] == "claude" and t.by_name["claude"] == "claude"
    spec = t.spec("claude")
    assert "my compacting line" in [r.name for r in spec.rules]
    lines = ["✻ Worked for 2s", "Compacting conversation"] + BOX
    assert classify(spec, lines, "").state == "working"
    assert state("claude", lines) == "idle"  # the bundled table alone
    z = t.spec("zagent")
    assert z.label == "zed-agent"
    assert classify(z, ["Allow? (a)llow (d)eny"], "").state == "waiting"
    assert t.label_for_path("/opt/zed-agent/bin/run") == "zed-agent"


def test_user_file_can_replace_or_disable(tmp_path):
    user = tmp_path / "agents.toml"
    user.write_text('''
[agents.goose]
disabled = true

[agents.aider]
replace = true
names = ["aider"]
fallback = "idle"
''')
    t = load([str(user)])
    assert "goose" not in t.agents and "goose" not in t.by_name
    assert t.spec("aider").rules == ()
    assert t.spec("aider").modules == ()


def test_bad_entries_are_reported_and_the_rest_loads(tmp_path):
    user = tmp_path / "agents.toml"
    user.write_text('''
[[agents.claude.rules]]
state = "working"
regex = ["([unclosed"]

[[agents.claude.rules]]
state = "sleeping"
any = ["x"]

[agents.newone]
names = ["newone"]
fallback = "busy"
''')
    t = load([str(user)])
    assert len(t.problems) == 3
    assert any("bad regex" in p for p in t.problems)
    assert any("state must be one of" in p for p in t.problems)
    assert "newone" in t.agents and t.spec("newone").fallback == "unknown"
    assert len(t.spec("claude").rules) == len(TABLE.spec("claude").rules)
    broken = tmp_path / "broken.toml"
    broken.write_text("[agents\n")
    t2 = load([str(broken)])
    assert t2.problems and "claude" in t2.agents


def test_parse_rule_rejects_empty_and_unknown_keys():
    with pytest.raises(ValueError, match="needs at least one"):
        parse_rule({"state": "idle"}, "x")
    with pytest.raises(ValueError, match="unknown keys"):
        parse_rule({"state": "idle", "any": ["a"], "regexp": "b"}, "x")


def test_extends_inherits_rules_but_not_identity():
    doc = bundled_document()
    t = build([("b", doc)])
    assert t.spec("qwen").rules == t.spec("gemini").rules
    assert "gemini" not in t.spec("qwen").names


# -- the table through the running plugin --------------------------------------------------------

@pytest.fixture
def fakes(tmp_path_factory):
    return fakes_for(tmp_path_factory)


def test_plugin_reads_the_option_file_and_reloads_on_change(fakes, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = fakes.env({"PATH": os.environ.get("PATH", ""), "HOME": str(home), "TERM": "xterm",
                     "FAKE_NO_FILES": "1"})
    host = FakeHost()
    p = PtyProc(["exec ssh-box"], env, str(tmp_path), shell=True)
    try:
        pane = host.add(p)
        table_file = tmp_path / "mine.toml"
        host.options[("@agent-table-file", None)] = str(table_file)
        plugin = AgentPlugin()
        plugin.start(host)
        wait_until(lambda: p.pgrp() > 0 and open(f"/proc/{p.pgrp()}/cmdline").read()
                   .startswith("ssh-box"))
        plugin.tick(host)
        assert plugin.resolve(pane, "pane_agent") == ""
        table_file.write_text('[agents.remote-claude]\nnames = ["ssh-box"]\nextends = "claude"\n')
        for _ in range(12):  # the table's files are looked at every ten sweeps
            plugin.tick(host)
        assert plugin.resolve(pane, "pane_agent") == "remote-claude"
        host.show(pane, ["✻ Misting… (3s · esc to interrupt)"] + BOX)
        plugin.tick(host)
        assert plugin.resolve(pane, "pane_agent_state") == "working"
        table_file.write_text("[agents.remote-claude\n")
        for _ in range(12):
            plugin.tick(host)
        assert any("agent table" in m for m in host.logs)
        assert plugin.resolve(pane, "pane_agent") == ""
    finally:
        p.close()


def test_codex_start_up_spinner_title_is_no_work():
    """Codex 0.171 spins "⠦ <dir>" while its servers start and "⠦ <prompt> | <dir>" in a
    turn: only the second is work (the first ended in a done nobody caused, issue 27)."""
    spec = TABLE.spec("codex")
    idle = ["› Ask Codex to do anything", "  gpt-5 default · ~/work"]
    assert classify(spec, idle, "⠦ work", None, TABLE.generic).state == "idle"
    assert classify(spec, idle, "⠦ fix it | work", None, TABLE.generic).state == "working"
