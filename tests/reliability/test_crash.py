"""kill -9 at random moments: no action a player was told about is lost, a new
process resumes every unfinished table, the game finishes, the file is intact.

``crash_driver.py`` plays a game (three humans and an AI) in a subprocess and
prints each acknowledged action; the test SIGKILLs it after a random number of
them plus a random few milliseconds (so the kill lands anywhere: mid-click,
mid-commit, mid-AI move). A bot in this process, on the same file and in an
identical simulated server, then resumes and finishes the game.
"""

from __future__ import annotations

import asyncio
import io
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.app.client import create_bot
from bot.store import ResultRepo

from .crash_driver import build_world, new_env, play, settings_for, table_message
from .helpers import db_actions, integrity, table_status

pytestmark = pytest.mark.slow  # left out by `make test-fast`

ROOT = Path(__file__).resolve().parents[2]
SEEDS = (11, 12, 13, 14, 15, 16)


Ack = tuple[int, int, int, int, list[str]]  # table, version, seat, user id, encoded actions


def run_and_kill(
    db: Path,
    seed: int,
    rng: random.Random,
    resume: bool = False,
    kill_at: str | None = None,
    last_line: bool = False,
) -> Any:
    """Start the driver, SIGKILL it at a random point (or let it kill itself at
    ``kill_at``, ``POINT:N``); returns the ACKed actions and whether it finished first."""
    kill_after = rng.randrange(1, 45) if not resume else rng.randrange(1, 15)
    if kill_at is not None:
        kill_after = 10**9  # the driver dies by itself
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.reliability.crash_driver",
            str(db),
            str(seed),
            *(["--resume"] if resume else []),
            *(["--kill-at", kill_at] if kill_at is not None else []),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.strip())
            if sum(1 for seen in lines if seen.startswith("ACK")) >= kill_after:
                time.sleep(rng.uniform(0.0, 0.03))
                os.kill(proc.pid, signal.SIGKILL)
                break
        lines += [line.strip() for line in proc.stdout]  # printed before it died
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
    stderr = proc.stderr.read() if proc.stderr else ""
    assert "STARTED" in lines, f"the driver never started:\n{stderr}"
    assert proc.returncode in (-signal.SIGKILL, 0), f"driver failed ({proc.returncode}):\n{stderr}"
    acks = []
    for line in lines:
        if line.startswith("ACK "):
            _, table, version, seat, user, actions = line.split(" ")
            acks.append((int(table), int(version), int(seat), int(user), actions.split(",")))
    if last_line:
        return acks, "DONE" in lines, lines[-1] if lines else ""
    return acks, "DONE" in lines


async def resume_and_finish(db: Path, seed: int) -> dict[str, Any]:
    bot = create_bot(settings_for(str(db), seed))
    env = new_env(bot)
    world = build_world(env)
    await env.start()
    try:
        with env.time_context():
            manager = bot.manager
            lobby, game = manager.tables.get(1), manager.tables.get(2)
            assert lobby is not None and lobby.status == "lobby", "the open lobby was not resumed"
            if table_status(db, 2) == "finished":  # the game ended before the kill
                assert game is None
                finished = True
            else:
                assert game is not None and game.status == "active", "the game was not resumed"
                finished = await play(env, world, random.Random(seed + 1), io.StringIO())
            # the resumed lobby still works
            res = await world.members[2].click(table_message(world.lobby), label="Join")
            assert res.acknowledged and not res.ephemeral
            results = await ResultRepo(bot.db).for_table(2)
            return {"finished": finished, "errors": list(env.errors), "results": results}
    finally:
        await env.shutdown()
        await bot.close()


@pytest.mark.parametrize("seed", SEEDS)
def test_kill_9_loses_no_acknowledged_action_and_the_game_resumes(
    tmp_path: Path, seed: int
) -> None:
    db = tmp_path / "crash.db"
    rng = random.Random(seed)
    acks, done = run_and_kill(db, seed, rng)

    assert integrity(db) == "ok"
    rows = check_acks(db, acks)

    outcome = asyncio.run(resume_and_finish(db, seed))
    assert outcome["errors"] == []
    assert outcome["finished"]
    after = db_actions(db, 2)
    assert after[: len(rows)] == rows, "the resumed game rewrote history"
    assert table_status(db, 2) == "finished"
    assert sorted(r.name for r in outcome["results"]) == ["alice", "bob", "carol"]
    assert integrity(db) == "ok"
    print(
        f"\nseed {seed}: killed after {len(acks)} acknowledged clicks ({len(rows)} actions on disk"
        f"{', game already over' if done else ''}); resumed and finished with {len(after)} actions; 0 lost"
    )


@pytest.mark.parametrize(
    ("point", "nth"),
    [("in-transaction", 3), ("in-transaction", 17), ("before-answer", 5), ("before-answer", 23)],
)
def test_a_kill_at_a_chosen_point_of_a_commit_loses_nothing(
    tmp_path: Path, point: str, nth: int
) -> None:
    """Killed inside a move's transaction, none of the move is on disk (and nobody was
    told it happened); killed after the commit but before the answer, all of it is.
    Either way the game resumes from exactly what the disk holds and finishes."""
    db = tmp_path / "crash.db"
    acks, done, last = run_and_kill(
        db, 11, random.Random(11), kill_at=f"{point}:{nth}", last_line=True
    )
    assert not done, "the driver finished before its kill point"
    assert integrity(db) == "ok"
    rows = check_acks(db, acks)
    word, table, *counts = last.split()
    print(f"\n{point}:{nth}: {last!r}, {len(rows)} actions on disk, {len(acks)} acknowledged")
    assert table == "2"
    if point == "in-transaction":
        assert word == "DOOMED", last
        before, doomed = int(counts[0]), int(counts[1])
        assert doomed >= 1 and len(rows) == before, (
            f"{len(rows)} actions on disk, {before} before the killed move"
        )
    else:
        assert word == "DURABLE", last
        assert len(rows) == int(counts[0]), f"{len(rows)} actions on disk, {counts[0]} committed"
    outcome = asyncio.run(resume_and_finish(db, 11))
    assert outcome["errors"] == [] and outcome["finished"]
    assert db_actions(db, 2)[: len(rows)] == rows, "the resumed game rewrote history"


def check_acks(db: Path, acks: list[Ack]) -> list[tuple[int, int, int, int, str]]:
    """Every acknowledged action is on disk at its place in the log; returns the log."""
    rows = db_actions(db, 2)
    lost = [
        (version + i, seat, action)
        for _table, version, seat, user, actions in acks
        for i, action in enumerate(actions)
        if version + i >= len(rows) or rows[version + i] != (version + i, seat, action, user)
    ]
    assert not lost, f"acknowledged but not in the database: {lost}"
    return rows


def test_repeated_kills_of_resumed_processes(tmp_path: Path) -> None:
    """The same game is killed three times (twice in a process that had resumed it), then finished."""
    db = tmp_path / "crash.db"
    rng = random.Random(99)
    acks, done = run_and_kill(db, 21, rng)
    total = len(acks)
    for _ in range(2):
        assert integrity(db) == "ok"
        check_acks(db, acks)
        if done:
            break
        acks, done = run_and_kill(db, 21, rng, resume=True)
        total += len(acks)
    rows = check_acks(db, acks)
    outcome = asyncio.run(resume_and_finish(db, 21))
    assert outcome["finished"] and outcome["errors"] == []
    assert db_actions(db, 2)[: len(rows)] == rows
    assert integrity(db) == "ok"
    print(f"\nthree kills, {total} acknowledged clicks, 0 lost")
