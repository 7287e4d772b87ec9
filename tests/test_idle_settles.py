"""The suite never idles on a housekeeping sleep, and a hung test says where it hangs.

A simcord settle waits, in real time, for every sleep of the bot that ends before the
settle's deadline. The bot's housekeeping sleeps — an ended table's retirement
(``ended_kept``), the challenges' sweep (``challenge_check_every``), the asynchronous
events' (``event_sweep_every``) — are minutes
long: a settle timeout as long as one of them made a test sit idle for minutes
(``test_100_tables_racing_clicks``: settle 120 s = the 120 s retirement, 240–305 s
idle a run). The fixtures push those sleeps past every settle timeout the tests use;
this file keeps it so.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.config import Settings
from tests import conftest as suite
from tests.bot.conftest import HOUSEKEEPING as BOT_HOUSEKEEPING
from tests.bot.conftest import make_settings as bot_settings
from tests.reliability.conftest import HOUSEKEEPING as RELIABILITY_HOUSEKEEPING
from tests.reliability.conftest import make_settings as reliability_settings

TESTS = Path(__file__).parent
SETTLE = re.compile(r"settle_timeout\s*=\s*([0-9_.]+)")
SIMCORD_DEFAULT_SETTLE = 5.0


def _settle_timeouts() -> dict[str, float]:
    """Every settle timeout a test sets (``settle_timeout=…`` in a marker or assignment)."""
    found = {}
    for path in TESTS.rglob("*.py"):
        if path.name == Path(__file__).name:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in SETTLE.finditer(line):
                found[f"{path.relative_to(TESTS)}:{n}"] = float(m.group(1))
    return found


def _housekeeping(settings: Settings) -> float:
    return min(settings.ended_kept, settings.challenge_check_every, settings.event_sweep_every)


def test_every_settle_ends_before_the_first_housekeeping_sleep(tmp_path: Path) -> None:
    timeouts = _settle_timeouts()
    assert timeouts, "the scan found no settle timeout: it no longer reads the tests"
    for make in (bot_settings, reliability_settings):
        shortest = _housekeeping(make(tmp_path / "x.db"))
        assert shortest in (BOT_HOUSEKEEPING, RELIABILITY_HOUSEKEEPING)
        too_long = {where: t for where, t in timeouts.items() if t >= shortest}
        assert too_long == {}, f"settles that would idle on a {shortest:.0f} s sleep"
        assert shortest > SIMCORD_DEFAULT_SETTLE
    # production keeps its own intervals: the fixtures only push them out
    assert _housekeeping(Settings()) < BOT_HOUSEKEEPING


def test_the_scan_catches_a_settle_as_long_as_a_housekeeping_sleep(tmp_path: Path) -> None:
    planted = tmp_path / "test_planted.py"
    planted.write_text("@pytest.mark.simcord(settle_timeout=3600)\n", encoding="utf-8")
    values = [float(m.group(1)) for m in SETTLE.finditer(planted.read_text(encoding="utf-8"))]
    assert values == [3600.0] and values[0] >= BOT_HOUSEKEEPING


async def test_a_hang_report_shows_the_threads_and_the_waiting_tasks(
    capfd: pytest.CaptureFixture[str],
) -> None:
    async def stuck_on_a_lock(lock: asyncio.Lock) -> None:
        async with lock:
            pass

    lock = asyncio.Lock()
    await lock.acquire()
    task = asyncio.create_task(stuck_on_a_lock(lock), name="stuck-on-a-lock")
    await asyncio.sleep(0)
    try:
        suite._report_hang("tests/test_x.py::test_stuck")
    finally:
        lock.release()
        await task
    err = capfd.readouterr().err
    assert "tests/test_x.py::test_stuck still running after 600 s" in err
    assert "Current thread" in err or "Thread 0x" in err  # faulthandler's thread stacks
    assert "stuck_on_a_lock" in err and "unfinished asyncio tasks" in err
