"""Running the screen tests against every installed emulator engine.

``use_engines(module_globals)`` gives a module an autouse fixture, parametrized over
``available_engines()``, that points the module's ``new_screen`` at one engine. A case the
native engine is known to answer differently from tmux 3.7b (each difference is listed in
docs/architecture.md, "Native engine") is a strict xfail for that engine only: it must keep
failing, so a fixed difference shows up as XPASS rather than going unnoticed.
"""

from __future__ import annotations

import os

import pytest

from hmux_core.screen import available_engines
from hmux_core.screen import new_screen as _new_screen

ENGINES = available_engines()

# What the ghostty wrapper cannot make Ghostty do as tmux does (docs/architecture.md, "Native
# engine"): history from a scroll region below the top of the screen; palette indices (38;5;1
# reads back as 31); "used" cells and a line's cell size (tmux's grow with ICH/EL and per
# write); grapheme widths (Unicode's, not tmux's table). With HMUX_ENGINE=ghostty,
# tests/test_corpus.py's replay of `sequences` differs for sgr_256's reason (its 38;5;1 and
# 48;5;2 read back as 31 and 42); that server-level case is not marked here and fails.
# Reasons by test / case name:
_H = ("no history from a scroll region that starts below the top of the screen (a line feed "
      "at its bottom, SU)")
_U = "cells used end at the last written cell (tmux's line grows with ICH/DCH/EL/ED)"
GHOSTTY_DIFFERENCES: dict[str, str] = {
    # test_screen_oracle cases
    "sgr_256": "palette colours are indices only: 38;5;0 reads back as 30 (Ghostty's style "
               "keeps a palette index and no form, so SGR 30 and 38;5;0 make one style)",
    "sgr_rgb": "an out-of-range RGB component is clamped, not rejected (finding such SGRs in "
               "the stream would cost a third of the SGR-heavy throughput)",
    "scroll_region": _H,
    "su_sd": _H,
    "insert_mode": _U,
    "ed_variants": _U,
    "el_variants": _U,
    "ich_dch_ech": _U,
    "modifyotherkeys": "a line's cell count is that of a line written in one go (tmux grows it "
                       "per write: -N shows fewer blanks for a line written piece by piece)",
    "emoji_skin_flags": "grapheme widths follow Unicode, not tmux's width table and joins (a "
                        "skin tone after a text-presentation base, a Hangul jamo after a space)",
    "combining_at_edge": "a character made wide by VS16 in the last column moves to the next "
                         "line (tmux keeps it there), and a zero-width space joins no cell",
    "one_column_wide": "a wide character in a one-column pane is handled differently",
    "lf_after_wrap": "a line feed after a pending wrap leaves the cursor in the last column "
                     "(tmux: one past it, so the next character starts a new line)",
    # test_screen tests
    "test_history_from_partial_scroll_region": _H,
    "test_take_dirty": "the row the cursor left is reported changed too",
}
#: Tests of the python engine's own storage (style table, history line objects).
PYTHON_ONLY = {"test_style_table_compaction_keeps_content", "test_history_storage_is_compact",
               "test_batch_path_leaves_what_the_line_path_leaves"}


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
