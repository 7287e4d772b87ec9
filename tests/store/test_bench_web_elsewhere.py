"""The web benchmark's ``--pages-elsewhere`` mode (``tools/bench_web.py``) over a tiny
run on a real PostgreSQL: the tables played in this process (one of a cluster, web
off), the pages served by a second bot process of its own that follows them through
the database's notifications, the sockets in a third. Every move reaches every
socket (the pages' process loads a copy of each table for its pages and follows it),
and that process runs none of the tables."""

from __future__ import annotations

from tools.bench_web import run

TABLES, MOVES = 2, 4


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
