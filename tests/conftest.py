"""Suite-wide guards: no test leaves a thread running that would keep Python from
exiting, and a test that hangs says where.

A test still running after :data:`HANG_REPORT_AFTER` seconds has every thread's stack
and every unfinished asyncio task's stack printed (stderr), while it runs; pytest-timeout
(``timeout`` in pyproject.toml) then fails it, and the run goes on.

An aiosqlite connection (or a bot holding one) that is never closed keeps a non-daemon
worker thread waiting forever, and the interpreter then waits for it at exit: the suite
passes, then hangs until CI's time runs out. The guard fails the test that left it,
with the thread's name, and as a last resort ends a run whose threads would hang it.
"""

from __future__ import annotations

import asyncio
import faulthandler
import gc
import os
import sys
import threading
import time
from collections.abc import Iterator

import pytest

HANG_REPORT_AFTER = 600.0  # seconds; pytest-timeout fails the test at 900

# Threads of concurrent.futures' pools: Python stops and joins them itself at exit.
_JOINED_AT_EXIT = ("concurrent.futures.",)


def _blocking_threads() -> list[threading.Thread]:
    """Running non-daemon threads, other than the main one, that Python would wait for."""
    found = []
    for thread in threading.enumerate():
        if thread is threading.main_thread() or thread.daemon or not thread.is_alive():
            continue
        target = getattr(thread, "_target", None)
        module = getattr(target, "__module__", None) or type(thread).__module__
        if module.startswith(_JOINED_AT_EXIT):
            continue
        found.append(thread)
    return found


def _settled(threads: list[threading.Thread], seconds: float) -> list[threading.Thread]:
    """Those of ``threads`` still running after a collection and up to ``seconds``."""
    gc.collect()  # an unreachable, unclosed aiosqlite connection stops its thread here
    deadline = time.monotonic() + seconds
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    return [t for t in threads if t.is_alive()]


def _describe(threads: list[threading.Thread]) -> str:
    names = []
    for t in threads:
        target = getattr(t, "_target", None)
        where = f"{getattr(target, '__module__', '?')}.{getattr(target, '__qualname__', '?')}"
        names.append(f"{t.name} ({where})")
    return ", ".join(names)


def _report_hang(name: str) -> None:
    """Every thread's stack and every unfinished asyncio task's (found by the collector:
    the loop belongs to the main thread, which is busy or stuck)."""
    out = sys.__stderr__ or sys.stderr  # a real file: faulthandler writes to its descriptor
    print(f"\n=== {name} still running after {HANG_REPORT_AFTER:.0f} s ===", file=out)
    faulthandler.dump_traceback(file=out, all_threads=True)
    tasks = [o for o in gc.get_objects() if isinstance(o, asyncio.Task) and not o.done()]
    print(f"=== {len(tasks)} unfinished asyncio tasks ===", file=out)
    for task in tasks:
        try:
            task.print_stack(limit=12, file=out)
        except Exception as exc:  # a task finishing under us: report the rest
            print(f"{task!r}: {exc}", file=out)
    out.flush()


@pytest.fixture(autouse=True)
def hang_report(request: pytest.FixtureRequest) -> Iterator[None]:
    timer = threading.Timer(HANG_REPORT_AFTER, _report_hang, (request.node.nodeid,))
    timer.daemon = True
    timer.start()
    yield
    timer.cancel()


@pytest.fixture(autouse=True)
def no_thread_left_running() -> Iterator[None]:
    before = {t.ident for t in threading.enumerate()}
    yield
    new = [t for t in _blocking_threads() if t.ident not in before]
    if new and (left := _settled(new, 2.0)):
        pytest.fail(
            "the test left a thread running that would hang Python at exit "
            f"(an unclosed database, bot or pool?): {_describe(left)}",
            pytrace=False,
        )


def pytest_unconfigure(config: pytest.Config) -> None:
    """The end of the run: fail fast, with stacks, rather than hang on a leaked thread."""
    left = _blocking_threads()
    if not left or not (left := _settled(left, 5.0)):
        return
    print(
        f"\nthreads still running at the end of the tests: {_describe(left)}",
        file=sys.stderr,
    )
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(3)
