"""Per agent, the share of its recorded real screens that the plugin reads as ``unknown``, and
how many labelled screens read their state.

The recordings are the live suite's (``tests/agents/fixtures``: the bytes each real agent wrote
against the fake API). Every screen the driver saw change is replayed through hmux's screen
engine and classified as the plugin would. Run: ``python bench/agent_unknown.py``.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_agent_screens import recordings, replay, verdict  # noqa: E402


def main() -> None:
    print(f"{'recording':<16} {'version':<9} {'screens':>7} {'unknown':>8} {'share':>6} "
          f"{'labelled ok':>11}  verdicts")
    import json

    from test_agent_screens import FIXTURES

    for name in recordings():
        version = json.loads((FIXTURES / f"{name}.json").read_text())["version"]
        screens = replay(name)
        got = [verdict(s) for s in screens]
        counts = Counter(got)
        lab = [(s, g) for s, g in zip(screens, got, strict=True) if s.labelled]
        ok = sum(1 for s, g in lab if g == ("idle" if s.want == "done" else s.want))
        unknown = counts.get("unknown", 0)
        share = unknown / len(screens) if screens else 0.0
        print(f"{name:<16} {version:<9} {len(screens):>7} {unknown:>8} {share:>6.1%} "
              f"{ok:>5}/{len(lab):<5}  " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))


if __name__ == "__main__":
    main()
