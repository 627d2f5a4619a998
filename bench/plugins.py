"""Cost of the plugin layer, in-process on a real server with real panes.

1. Status-line format expansion rate (expansions/s of hmux's default window-status format for
   100 panes): plugin-free build (the lookup without the plugin branch), plugins=none, and with a
   plugin answering the format's variables. Target: none within 5% of plugin-free.
2. Tick overhead: 100 panes, a no-op plugin at 200 ms, CPU of the whole server process with and
   without it over the same wall time. Target < 1% of one core.

    python bench/plugins.py [--seconds N]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hmux_core import formats_vars  # noqa: E402
from hmux_core.format import expand  # noqa: E402
from hmux_core.formats_vars import VARIABLES, ModelContext, context_for_pane  # noqa: E402
from hmux_core.plugin import Plugin  # noqa: E402
from hmux_core.plugin.manager import PluginManager  # noqa: E402
from hmux_core.server import Server  # noqa: E402
from hmux_core.status_defaults import WINDOW_STATUS  # noqa: E402

PANES = 100
TMUX_FORMAT = "#I:#W#{?window_flags,#{window_flags}, }"


class Answers(Plugin):
    """Answers the default status line's plugin variables from a dict (what real plugins do)."""

    name = "answers"
    variables = ("pane_state_emoji", "git_worktree", "git_subdir", "git_action",
                 "git_action_step", "git_action_total")
    interval = 0.2

    def __init__(self) -> None:
        self.values: dict[str, str] = {"pane_state_emoji": "*", "git_worktree": "hmux"}

    def resolve(self, pane_id: str, key: str) -> str | None:
        return self.values.get(key)


class NoOp(Plugin):
    name = "noop"
    variables = ("noop_v",)
    interval = 0.2


def _plugin_free_lookup(self: ModelContext, name: str) -> str | None:
    """ModelContext._lookup as a build without the plugin layer would have it."""
    value = self._option(name)
    if value is not None:
        return value
    fn = VARIABLES.get(name)
    if fn is not None:
        return fn(self)
    if name in self.extra:
        return self.extra[name]
    env = self.s.environ.get(name) if self.s is not None else None
    return env if env is not None else self.server.environ.get(name)


def rate(server: Server, fmt: str, seconds: float) -> float:
    panes = list(server.model.panes.values())
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for p in panes:
            expand(fmt, context_for_pane(server, p))
        n += len(panes)
    return n / (time.perf_counter() - t0)


async def cpu_over(seconds: float) -> float:
    c0, t0 = time.process_time(), time.perf_counter()
    await trio.sleep(seconds)
    return (time.process_time() - c0) / (time.perf_counter() - t0) * 100


async def bench(seconds: float) -> None:
    tmp = tempfile.mkdtemp()
    os.environ["TMUX_C2RS_PLUGINS"] = "none"
    server = Server(os.path.join(tmp, "s"), 0, [], quiet_config=False)
    server.options.set("exit-empty", False)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(server.run, None)
        await server.config_loaded.wait()
        cmds = []
        for w in range(PANES // 4):
            cmds.append(f"{'new -d -s b -x 200 -y 50' if w == 0 else 'neww -d -t b'} 'cat -'")
            cmds += [f"splitw -d -t b:{w} 'cat -'"] * 3
        for c in cmds:
            await server.run_commands_text(c, None)
        assert len(server.model.panes) == PANES, len(server.model.panes)

        manager = PluginManager(server)
        manager.add(Answers())
        original = ModelContext._lookup
        best: dict[str, float] = {}

        def measure(key: str, fmt: str, free: bool = False, plugin: bool = False) -> None:
            ModelContext._lookup = _plugin_free_lookup if free else original  # type: ignore
            formats_vars.plugin_lookup = manager.lookup if plugin else None
            best[key] = max(best.get(key, 0.0), rate(server, fmt, seconds / 3))

        for _ in range(3):  # interleaved rounds, best of each: the machine's noise hits all
            measure("free_tmux", TMUX_FORMAT, free=True)
            measure("none_tmux", TMUX_FORMAT)
            measure("free", WINDOW_STATUS, free=True)
            measure("none", WINDOW_STATUS)
            measure("with_plugin", WINDOW_STATUS, plugin=True)
        ModelContext._lookup = original  # type: ignore[method-assign]
        formats_vars.plugin_lookup = None
        free_tmux, none_tmux = best["free_tmux"], best["none_tmux"]
        free, none, with_plugin = best["free"], best["none"], best["with_plugin"]

        print(f"{PANES} panes; expansions per second (one pane's window-status format each)")
        print(f"  tmux's format      plugin-free {free_tmux:9.0f}  plugins=none {none_tmux:9.0f}"
              f"  ({(none_tmux / free_tmux - 1) * 100:+.1f}%)")
        print(f"  hmux's default     plugin-free {free:9.0f}  plugins=none {none:9.0f}"
              f"  ({(none / free - 1) * 100:+.1f}%)  with plugin answers {with_plugin:9.0f}")

        idle = await cpu_over(seconds * 3)
        ticker = PluginManager(server)
        rec = ticker.add(NoOp())
        nursery.start_soon(ticker.run)
        await trio.sleep(0.5)
        busy = await cpu_over(seconds * 3)
        assert rec is not None
        print(f"server CPU, {PANES} idle panes: {idle:.2f}% of a core; with a no-op plugin "
              f"ticking at 200 ms: {busy:.2f}% (overhead {busy - idle:+.2f} points, "
              f"{rec.ticks} ticks, {rec.last_tick_seconds * 1e6:.0f} us last tick)")
        nursery.cancel_scope.cancel()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    trio.run(bench, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
