"""The web benchmark's ``--pages-elsewhere`` mode (``tools/bench_web.py``) over a tiny
run on a real PostgreSQL: the tables played in this process (one of a cluster, web
off), the pages served by a second bot process of its own that follows them through
the database's notifications, the sockets in a third. Every move reaches every
socket (the pages' process loads a copy of each table for its pages and follows it),
and that process runs none of the tables. With ``--pin`` the tables' process of every
side runs alone on one CPU and every other process on the others."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tools.bench_web import Placement, pages_elsewhere_runs, run

TABLES, MOVES = 2, 4
ROOT = Path(__file__).resolve().parents[2]


async def test_pages_served_by_another_process_get_every_move_of_its_tables(pg_url: str) -> None:
    result = await run(
        TABLES, MOVES, False, seed=3, pause=0.05, database=pg_url, pages_elsewhere=True
    )
    assert result["missed"] == [0.0]  # no state that never reached its socket
    sockets = 2 * TABLES  # seat 0 and a spectator of each table
    # every move timed on every socket, from its commit in this process
    assert len(result["act"]) == TABLES * MOVES
    assert len(result["commit"]) == sockets * MOVES
    # (timed from the feed's publish here, which follows the database's commit: the
    # other process, told by the database, may have sent it a little before)
    assert all(abs(latency) < 10.0 for latency in result["commit"]), min(result["commit"])
    # each written by the pages' process
    assert len(result["server"]) == sockets * MOVES
    assert all(abs(latency) < 10.0 for latency in result["server"]), min(result["server"])
    # the pages' process holds a copy of each table and the lease of none
    assert result["pages_tables"] == [float(TABLES), 0.0]
    assert result["pages_cpu"][0] > 0.0 and result["pages_lag"]
    assert not any(key.startswith("cpus ") for key in result)  # not pinned: nothing said


async def test_pinned_the_tables_process_of_every_side_runs_alone_on_its_cpu() -> None:
    placement = Placement.here()  # this machine's CPUs: the last for the tables
    before = os.sched_getaffinity(0)
    # the three sides, with a PostgreSQL server the bench starts (and so pins) itself
    results = await pages_elsewhere_runs(
        TABLES, MOVES, 3, 0.05, True, 0, True, False, None, placement=placement
    )
    tables = [float(cpu) for cpu in sorted(placement.tables)]
    others = [float(cpu) for cpu in sorted(placement.others)]
    assert len(tables) == 1 and others and not set(tables) & set(others)
    # what each process was allowed to run on, read back from the kernel after the moves
    placed = {
        side: {k for k in result if k.startswith("cpus ")} for side, result in results.items()
    }
    assert placed == {
        "on": {"cpus tables", "cpus client", "cpus postgresql"},
        "off": {"cpus tables", "cpus postgresql"},
        "elsewhere": {"cpus tables", "cpus pages", "cpus client", "cpus postgresql"},
    }
    for side, result in results.items():
        assert result["missed"] == [0.0], side  # pinned, every move still reached every socket
        assert result["cpus tables"] == tables, side  # every thread of it, alone there
        for key in placed[side] - {"cpus tables"}:
            assert result[key] == others, (side, key)
        # the postmaster and the backends it forked for this side's connections
        assert result["processes postgresql"][0] >= 3, side
    assert results["elsewhere"]["pages_tables"] == [float(TABLES), 0.0]
    assert os.sched_getaffinity(0) == before  # this process as it was


def test_pinning_splits_any_number_of_cpus_and_refuses_one() -> None:
    four = Placement.split([0, 1, 2, 3])
    assert (four.tables, four.others) == ({3}, {0, 1, 2})
    cpu = min(os.sched_getaffinity(0))
    refused = subprocess.run(
        [sys.executable, "-m", "tools.bench_web", "--pages-elsewhere", "--pin"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),  # a machine of one CPU
        check=False,
    )
    assert refused.returncode == 2, refused
    assert "--pin needs at least two CPUs" in refused.stderr
    assert f"this process may run on 1: {cpu}" in refused.stderr
    assert "tables of" not in refused.stdout  # refused before any run
