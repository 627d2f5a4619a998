"""Long fuzz runs: every property test of the fuzz targets with far more examples than CI.

    python fuzz/run.py                      # 100000 examples per target
    python fuzz/run.py --examples 2000 --only screen,format
    python fuzz/run.py --minutes 30         # stop starting new targets after 30 minutes

It imports the test modules (so CI and the long run check the same properties), raises each
test's ``max_examples``, counts the examples actually run and prints one line per target. The
live-socket target starts its own hmux server in a private TMUX_TMPDIR and kills it at the end.
A failing target prints hypothesis's falsifying example and the run exits 1.
"""

from __future__ import annotations

import argparse
import functools
import logging
import os
import signal
import sys
import tempfile
import time
import traceback
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tests"), ROOT]

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from hmux_core.screen import available_engines, new_screen  # noqa: E402

#: target name -> test modules whose @given tests make it up
TARGETS = {
    "screen": ["test_screen_hypothesis"],
    "cmdparse": ["test_fuzz_parsers:test_command_parser", "test_fuzz_parsers:test_printed",
                 "test_fuzz_parsers:test_argv"],
    "config": ["test_fuzz_parsers:test_config"],
    "target": ["test_fuzz_parsers:test_target"],
    "layout": ["test_fuzz_parsers:test_layout", "test_fuzz_parsers:test_json_layout"],
    "format": ["test_format_fuzz"],
    "imsg": ["test_fuzz_protocol:test_decoder"],
}


class _Errors(logging.Handler):
    """The screen tests' ``errors`` fixture: records the engine's caught exceptions."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _tests(spec: str):
    mod_name, _, prefix = spec.partition(":")
    mod = __import__(mod_name)
    for name in sorted(dir(mod)):
        fn = getattr(mod, name)
        if name.startswith("test_") and name.startswith(prefix or "test_") and hasattr(
                fn, "hypothesis"):
            yield f"{mod_name}.{name}", fn


class Interrupted(Exception):
    """SIGTERM/SIGINT mid-test: the examples run so far still get printed."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


def _run(fn, examples: int, kwargs: dict) -> int:
    count = [0]
    inner = fn.hypothesis.inner_test

    def counted(*a, **kw):
        count[0] += 1
        return inner(*a, **kw)

    # Swapped in place: hypothesis refuses a second settings decorator but reads both at call time.
    base = fn._hypothesis_internal_use_settings
    fn.hypothesis.inner_test = counted
    fn._hypothesis_internal_use_settings = settings(
        base, max_examples=examples, database=None, suppress_health_check=list(HealthCheck))
    try:
        fn(**kwargs)
    except KeyboardInterrupt:
        raise Interrupted(count[0]) from None
    finally:
        fn.hypothesis.inner_test = inner
        fn._hypothesis_internal_use_settings = base
    return count[0]


def _live(examples: int) -> int:
    """Garbage frames against one live hmux server, which must still serve afterwards."""
    import test_fuzz_protocol as T
    from harness import HMUX, Mux, base_env

    tmp = tempfile.mkdtemp(prefix="hmux-fuzz-")
    mux = Mux(HMUX, ["-L", "f" + uuid.uuid4().hex[:8]], base_env(tmp), cwd=tmp)
    count = [0]
    try:
        mux.ok("new-session", "-d", "-s", "keep")
        pid = mux.server_pid()
        baseline = T._server_fds(pid)

        @settings(max_examples=examples, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(T.LIVE_FRAMES, st.booleans())
        def one(seq, identified):
            T.garbage_client(mux, seq, identified)
            count[0] += 1

        one()
        assert mux.ok("display", "-p", "-t", "keep", "#{session_name}") == "keep\n"
        T.wait_for(lambda: T._server_fds(pid) <= baseline, timeout=10)
    finally:
        mux.kill()
    return count[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--examples", type=int, default=100_000,
                    help="examples per target, shared among its tests (and screen engines)")
    ap.add_argument("--live-examples", type=int, default=1_000,
                    help="examples for the live-socket target (each is a connection)")
    ap.add_argument("--only", default="", help="comma list of targets (default: all + live)")
    ap.add_argument("--minutes", type=float, default=0, help="start no target after this")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # kill PID: print what ran
    wanted = [t for t in args.only.split(",") if t] or [*TARGETS, "live"]
    stop_at = time.monotonic() + args.minutes * 60 if args.minutes else None
    failed = False
    errors = _Errors()
    logging.getLogger("hmux_core.screen").addHandler(errors)
    for target in wanted:
        if stop_at is not None and time.monotonic() > stop_at:
            print(f"{target:10s} skipped (time)", flush=True)
            continue
        jobs = [("live", None)] if target == "live" else [
            t for spec in TARGETS[target] for t in _tests(spec)]
        engines = available_engines() if target == "screen" else [None]
        jobs = [(f"{name}[{e}]" if e else name, fn, e) for name, fn in jobs for e in engines]
        per_test = max(1, args.examples // len(jobs))
        total = 0
        t0 = time.monotonic()
        for name, fn, engine in jobs:
            t1 = time.monotonic()
            try:
                if fn is None:
                    n = _live(args.live_examples)
                else:
                    if engine is not None:  # as tests/engines.py: the module's new_screen
                        sys.modules[fn.__module__].new_screen = functools.partial(
                            new_screen, engine=engine)
                    code = fn.hypothesis.inner_test.__code__
                    wants = "errors" in code.co_varnames[:code.co_argcount]
                    kwargs = {"errors": errors.records} if wants else {}
                    n = _run(fn, per_test, kwargs)
                status = "ok"
            except Interrupted as e:
                print(f"  {name:70s} {e.count:8d} examples {time.monotonic() - t1:7.1f}s "
                      "interrupted (no failure so far)", flush=True)
                return 1 if failed else 0
            except Exception:
                traceback.print_exc()
                n, status, failed = 0, "FAILED", True
            total += n
            print(f"  {name:70s} {n:8d} examples {time.monotonic() - t1:7.1f}s {status}",
                  flush=True)
        print(f"{target:10s} {total:9d} examples in {time.monotonic() - t0:7.1f}s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
