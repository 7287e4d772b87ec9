"""Worker processes shared by the AI pool and the painter: how they are started and
how a pool is shut down when one of its processes may be hung."""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import multiprocessing.process
from concurrent.futures import Executor


def worker_context() -> multiprocessing.context.BaseContext:
    # never fork: the parent has an event loop, sqlite and discord.py threads
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    return multiprocessing.get_context(method)


def shutdown_now(executor: Executor) -> None:
    """Shut a pool down without waiting; kill its processes (one may be hung)."""
    processes: dict[int, multiprocessing.process.BaseProcess] = dict(
        getattr(executor, "_processes", None) or {}
    )
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        try:
            if process.is_alive():
                process.kill()
        except (OSError, ValueError):
            pass
