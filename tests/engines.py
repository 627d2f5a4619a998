"""Running the screen tests against every installed emulator engine.

``use_engines(module_globals)`` gives a module an autouse fixture, parametrized over
``available_engines()``, that points the module's ``new_screen`` at one engine. A case the
native engine is known to answer differently from tmux 3.3a (each difference is listed in
docs/architecture.md, "Native engine") is a strict xfail for that engine only: it must keep
failing, so a fixed difference shows up as XPASS rather than going unnoticed.
"""

from __future__ import annotations

import os

import pytest

from hmux_core.screen import available_engines
from hmux_core.screen import new_screen as _new_screen

ENGINES = available_engines()

# Ghostty keeps no history for a partial scroll region, ED 2 or SU; it keeps its own tab stops,
# origin mode across RIS and cursor saved by 1049 out of reach; it translates DEC line drawing
# at input; it stores palette indices (38;5;1 reads back as 31) and clamps bad RGB; its "used"
# cells end at the last written one (tmux's grows with ICH/EL); its UTF-8 recovery, REP and
# grapheme clustering follow Unicode rather than tmux's wcwidth. Reasons by test / case name:
_H = "no history from a partial scroll region, ED 2 (scroll-on-clear) or SU"
_U = "cells used end at the last written cell (tmux's line grows with ICH/DCH/EL/ED)"
GHOSTTY_DIFFERENCES: dict[str, str] = {
    # test_screen_oracle cases
    "sgr_256": "palette colours are indices only: 38;5;0 reads back as 30",
    "sgr_rgb": "an out-of-range RGB component is clamped, not rejected",
    "sgr_reset_forms": "SGR with an empty parameter after a value is read as tmux does not",
    "scroll_region": _H,
    "ed2_history": _H,
    "su_sd": _H,
    "ris": "RIS clears the scrollback",
    "alt_1049": "the cursor 1049 saved is not exposed (alternate_saved_x/y)",
    "alt_no_history": "the cursor 1049 saved is not exposed (alternate_saved_x/y)",
    "tabs": "tab stops are not exposed, and a tab is not kept as a tab cell (capture shows blanks)",
    "insert_mode": _U,
    "ed_variants": _U,
    "el_variants": _U,
    "ich_dch_ech": _U,
    "backspace_wrap": "BS after a pending wrap does not go back to the previous line",
    "rep": "REP repeats differently after a control",
    "acs": "DEC line drawing is translated to box characters at input",
    "invalid_utf8": "invalid UTF-8 becomes U+FFFD per byte (tmux: one per sequence) and a C1 "
                    "control joins no cell",
    "emoji_zwj": "grapheme widths follow Unicode, not tmux's width table (a skin tone makes a "
                 "second cell)",
    "emoji_vs16": "VS16 does not make a character wide (tmux's variation-selector-always-wide)",
    "modifyotherkeys": "a line's cell count is that of a line written in one go (tmux grows it "
                       "per write: -N shows fewer blanks for a line written piece by piece)",
    "ris_keeps_saved_origin": "RIS also resets the saved origin mode",
    "prompt_marks": "no mark for the start of output (OSC 133 C) or a k=s prompt is kept",
    "tab_overwrite": "a tab is not kept as a tab cell (capture shows blanks)",
    "emoji_skin_flags": "grapheme widths follow Unicode, not tmux's width table and joins",
    "combining_at_edge": "a C1 control joins no cell",
    "rep_unicode": "DEC line drawing is translated to box characters at input",
    "one_column_wide": "a wide character in a one-column pane is handled differently",
    # test_screen_oracle title and path cases
    "t_apc": "an APC string is not taken as the title (tmux does)",
    "t_can": "an OSC cut by CAN is dropped (tmux 3.3a still applies it)",
    "test_oracle_alternate_capture": "capture-pane -a: the saved main screen is not exposed",
    # server-level differential cases (tests/diff_cases.py), when HMUX_ENGINE=ghostty
    "cap-alternate-saved": "capture-pane -a: the saved main screen is not exposed",
    "cap-tab": "a tab is not kept as a tab cell (capture shows blanks)",
    "clear-history-H": "links already in cells stay (Ghostty keeps the URI in the cell)",
    "cap-F": "a prompt mark is lost when OSC 133 A comes in the middle of a line",
    # test_screen tests
    "test_dcs_apc_pm_sos_swallowed": "an APC string is not taken as the title (tmux does)",
    "test_alternate_screen_1049": "the cursor 1049 saved is not exposed (alternate_saved_x/y)",
    "test_history_limit_drops_oldest_tenth": "history is pruned by whole pages, not tmux's 10%",
    "test_history_from_partial_scroll_region": _H,
    "test_ed2_scrolls_into_history": _H,
    "test_tabs": "tab stops are not exposed: pane_tabs shows the default stops",
    "test_acs_charset": "DEC line drawing is translated to box characters at input",
    "test_modes": "?1000l clears only 1000 (tmux clears every mouse mode)",
    "test_ris_resets_and_clears": "RIS clears the scrollback",
    "test_rep_and_backspace_over_wrap": "BS after a pending wrap does not go back a line",
    "test_invalid_utf8_follows_tmux": "invalid UTF-8 becomes U+FFFD per byte, tmux drops it",
    "test_take_dirty": "the row the cursor left is reported changed too",
    "test_resize_reflows_wrapped_lines": "reflow keeps the split line visible (tmux pushes it up)",
}
#: Tests of the python engine's own storage (style table, history line objects).
PYTHON_ONLY = {"test_style_table_compaction_keeps_content", "test_history_storage_is_compact"}


def server_engine_difference(case_id: str) -> str | None:
    """Why a server-level case differs from tmux with the engine HMUX_ENGINE names, if it does
    (``tests/harness.py`` gives the servers that engine; python when unset)."""
    if os.environ.get("HMUX_ENGINE") == "ghostty":
        return GHOSTTY_DIFFERENCES.get(case_id)
    return None


def known_differences(engine: str, names) -> set[str]:
    """Which of ``names`` the engine is documented to answer differently from tmux."""
    if engine != "ghostty":
        return set()
    return {n for n in names if n in GHOSTTY_DIFFERENCES}


def use_engines(namespace: dict) -> None:
    """Install the ``engine`` fixture into a test module's namespace."""

    @pytest.fixture(autouse=True, params=ENGINES)
    def engine(request, monkeypatch):
        name = request.param

        def make(cols: int, rows: int, history_limit: int = 2000):
            return _new_screen(cols, rows, history_limit, name)

        monkeypatch.setitem(namespace, "new_screen", make)
        if name != "python" and request.node.originalname in PYTHON_ONLY:
            pytest.skip("checks the python engine's own storage")
        if name == "ghostty":
            key = request.node.originalname
            callspec = getattr(request.node, "callspec", None)
            if callspec is not None and "name" in callspec.params:
                key = callspec.params["name"]
            reason = GHOSTTY_DIFFERENCES.get(key)
            if reason is not None:
                request.applymarker(pytest.mark.xfail(reason=reason, strict=True))
        return name

    namespace["engine"] = engine
