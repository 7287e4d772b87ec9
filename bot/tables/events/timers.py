"""An event's timers (its start, reminder, round sweeps, an asynchronous event's
close): one task per event and job, re-armed by name, cancelled with the event."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from bot.tables.services import Services

__all__ = ["EventTimers"]


class EventTimers:
    """The running timer tasks of a director's events, keyed by (event, job)."""

    def __init__(self, svc: Services, prefix: str) -> None:
        self._svc = svc
        self._prefix = prefix  # the tasks' names: "<prefix>-<event>-<job>"
        self._tasks: dict[tuple[int, str], asyncio.Task[None]] = {}

    def arm(self, event_id: int, job: str, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` as the event's ``job``, in place of one armed before."""
        key = (event_id, job)
        old = self._tasks.pop(key, None)
        if old is not None:
            old.cancel()
        task = self._svc.own(coro, name=f"{self._prefix}-{event_id}-{job}")
        self._tasks[key] = task

        def done(t: asyncio.Task[None]) -> None:
            if self._tasks.get(key) is t:
                del self._tasks[key]

        task.add_done_callback(done)

    def disarm(self, event_id: int, job: str | None = None) -> None:
        """Cancel the event's ``job`` (every job of it when None); a timer that is
        itself the caller runs on to its end."""
        for key in [k for k in self._tasks if k[0] == event_id and job in (None, k[1])]:
            task = self._tasks.pop(key)
            if task is not asyncio.current_task():
                task.cancel()

    def __len__(self) -> int:
        """How many timers are armed."""
        return len(self._tasks)

    def jobs(self, event_id: int) -> frozenset[str]:
        """The event's jobs armed now."""
        return frozenset(job for (e, job) in self._tasks if e == event_id)

    def task(self, event_id: int, job: str) -> asyncio.Task[None] | None:
        """The event's ``job`` while it is armed."""
        return self._tasks.get((event_id, job))

    def cancel_all(self) -> None:
        for key in list(self._tasks):
            self._tasks.pop(key).cancel()
