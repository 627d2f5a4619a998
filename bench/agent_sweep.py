"""What the agent plugin costs, in-process on a real server with real panes.

100 panes (25 windows of 4), 20 of them running the tests' fake agents (4 each of Claude, Codex,
Gemini, aider, OpenCode: real processes with the real agents' argv shapes, session files and
screens, see tests/test_agent_fakes.py), the other 80 ``cat``.

1. CPU of one sweep (``time.process_time`` of the whole server process around one tick, which
   covers the plugin's worker thread and what it asks of the event loop; the loop is otherwise
   idle): a steady sweep (nothing changed), and a sweep after every agent redrew its screen
   and rewrote its session files (each of the 20 screens classified, changed files read).
   Target: < 5 ms.
2. Idle server CPU over the same wall time without plugins and with the agent plugin ticking
   at its 200 ms interval through the plugin manager. Target: < 2% of one core.

    python bench/agent_sweep.py [--ticks N] [--seconds N] [--engine python|ghostty]

``--engine`` sets ``HMUX_ENGINE`` for the panes: classification reads each changed screen's
bottom rows, so the second figure of (1) depends on the engine's ``tail``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from common import machine  # noqa: E402
from test_agent_fakes import build_fakes  # noqa: E402

from hmux_core.plugin.manager import PluginManager  # noqa: E402
from hmux_core.server import Server  # noqa: E402
from hmux_plugins_agent import AgentPlugin  # noqa: E402

PANES = 100
AGENTS = ("claude",) * 4 + ("codex",) * 4 + ("gemini",) * 4 + ("python3 -m aider",) * 4 + (
    "opencode",) * 4


async def cpu_over(seconds: float) -> float:
    """Percent of one core the process used over ``seconds`` of wall time."""
    c0, t0 = time.process_time(), time.perf_counter()
    await trio.sleep(seconds)
    return (time.process_time() - c0) / (time.perf_counter() - t0) * 100


async def wait_until(cond, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise TimeoutError
        await trio.sleep(0.05)


async def bench(ticks: int, seconds: float, tmp: str) -> None:
    fakes = build_fakes(os.path.join(tmp, "fakes"))
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    os.environ.update(fakes.env({"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
                                 "LANG": "C.UTF-8", "TERM": "xterm-256color"}))
    os.environ["TMUX_C2RS_PLUGINS"] = "none"  # plugins are added by hand below
    work = os.path.join(tmp, "work")
    os.makedirs(work)
    os.chdir(work)
    server = Server(os.path.join(tmp, "s"), 0, [], quiet_config=False)
    server.options.set("exit-empty", False)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(server.run, None)
        await server.config_loaded.wait()
        commands = ["cat -"] * PANES
        for i, agent in enumerate(AGENTS):  # spread over the windows: one agent in 5 panes
            commands[i * (PANES // len(AGENTS))] = agent
        for w in range(PANES // 4):
            for k in range(4):
                cmd = commands[w * 4 + k]
                if k == 0:
                    first = "new -d -s b -x 200 -y 50" if w == 0 else "neww -d -t b"
                    line = f"{first} -c {work} '{cmd}'"
                else:
                    line = f"splitw -d -t b:{w} -c {work} '{cmd}'"
                await server.run_commands_text(line, None)
        assert len(server.model.panes) == PANES, len(server.model.panes)
        agent_panes = [f"%{i * (PANES // len(AGENTS))}" for i in range(len(AGENTS))]

        # -- 1. one sweep, driven by hand on a worker thread --------------------------------
        manager = PluginManager(server)
        plugin = AgentPlugin()
        rec = manager.add(plugin)
        assert rec is not None and rec.host is not None
        host = rec.host
        manager.token = trio.lowlevel.current_trio_token()
        manager.loop_thread = threading.get_ident()
        await trio.to_thread.run_sync(plugin.start, host)

        async def tick() -> float:
            c0 = time.process_time()
            await trio.to_thread.run_sync(plugin.tick, host)
            return (time.process_time() - c0) * 1000

        def settled() -> bool:
            return all(plugin.resolve(p, "pane_agent_state") not in ("none", "unknown")
                       for p in agent_panes)

        deadline = time.monotonic() + 90
        while not settled():
            if time.monotonic() > deadline:
                raise TimeoutError([plugin.resolve(p, "pane_agent") for p in agent_panes])
            await tick()
            await trio.sleep(0.2)
        for _ in range(10):  # every staggered identity re-check comes round
            await tick()
        labels = sorted({plugin.resolve(p, "pane_agent") or "" for p in agent_panes})
        steady = [await tick() for _ in range(ticks)]
        st = plugin.stats
        engine = type(next(iter(server.model.panes.values())).screen).__name__
        print(f"{PANES} panes ({engine}), {len(agent_panes)} running fake agents "
              f"({', '.join(labels)})")
        print(f"  steady sweep (nothing changed):  median {statistics.median(steady):.3f} ms,"
              f" p90 {statistics.quantiles(steady, n=10)[-1]:.3f} ms CPU"
              f"  [identities {st.identities}, classified {st.classified},"
              f" /proc reads {st.proc_reads}, file reads {st.file_reads}]")

        panes = {f"%{n}": p for n, p in server.model.panes.items()}
        changed = []
        words = ("work", "finish")
        rounds = max(5, ticks // 20)
        for r in range(rounds):
            before = {p: panes[p].output_revision for p in agent_panes}
            for p in agent_panes:
                await server.run_commands_text(f"send-keys -t {p} '{words[r % 2]}' Enter", None)
            await wait_until(lambda b=before: all(panes[p].output_revision != b[p]
                                                  for p in agent_panes))
            await trio.sleep(0.15)  # the redraws and file writes have all landed
            changed.append(await tick())
            st = plugin.stats
        print(f"  sweep after all 20 redrew:       median {statistics.median(changed):.3f} ms,"
              f" max {max(changed):.3f} ms CPU"
              f"  [classified {st.classified}, file reads {st.file_reads}] (n={rounds})")
        await trio.to_thread.run_sync(plugin.stop)

        # -- 2. idle server CPU, plugin off and on --------------------------------------------
        await trio.sleep(1.0)
        idle = await cpu_over(seconds)
        running = PluginManager(server)
        live = running.add(AgentPlugin())
        assert live is not None
        nursery.start_soon(running.run)
        await trio.sleep(3.0)  # first identification done
        with_plugin = await cpu_over(seconds)
        print(f"  idle server CPU: no plugin {idle:.2f}% of a core; agent plugin at 200 ms "
              f"{with_plugin:.2f}% ({live.ticks} ticks, last {live.last_tick_seconds * 1000:.2f}"
              f" ms wall)")
        nursery.cancel_scope.cancel()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ticks", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--engine", default=None)
    a = ap.parse_args()
    if a.engine:
        os.environ["HMUX_ENGINE"] = a.engine
    tmp = tempfile.mkdtemp(prefix="hmux-agent-bench-")
    cwd = os.getcwd()
    print(machine())
    try:
        trio.run(bench, a.ticks, a.seconds, tmp)
    finally:
        os.chdir(cwd)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
