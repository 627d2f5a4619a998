"""Plays a recorded agent's bytes into its pane, for the agent benches.

    python bench/agent_player.py FIXTURE.bytes CONTROL      # write up to each offset read
    python bench/agent_player.py FIXTURE.bytes --upto N [--spin ROW]

With a control FIFO, every line read from it is a byte offset: the recording is written up
to there (what the real agent had written at that moment). With ``--upto N`` the first N bytes
are written once; ``--spin ROW`` then redraws a Claude spinner line at ROW ten times a second,
as a working Claude does. Run it under ``HMUX_AGENT=<label>`` so the plugin reads the pane
with that agent's rules (the process is not the agent itself).
"""

from __future__ import annotations

import os
import sys
import time


def main(argv: list[str]) -> int:
    data = open(argv[0], "rb").read()
    out = sys.stdout.buffer
    if argv[1] != "--upto":
        fed = 0
        with open(argv[1]) as ctl:
            for line in ctl:
                n = int(line)
                if n > fed:
                    out.write(data[fed:n])
                    out.flush()
                    fed = n
        time.sleep(3600)
        return 0
    n = int(argv[2])
    out.write(data[:n])
    out.flush()
    if "--spin" not in argv:
        time.sleep(3600)
        return 0
    row = int(argv[argv.index("--spin") + 1])
    frames = "·✢✳✶✻✽"
    t0 = time.monotonic()
    i = 0
    while True:
        secs = int(time.monotonic() - t0)
        line = f"{frames[i % len(frames)]} Misting… ({secs}s · ↓ {i}0 tokens · esc to interrupt)"
        out.write(f"\x1b7\x1b[{row};1H\x1b[2K{line}\x1b8".encode())
        out.flush()
        i += 1
        time.sleep(0.1)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (BrokenPipeError, KeyboardInterrupt):
        os._exit(0)
