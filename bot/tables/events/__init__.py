"""The events' director (issue #39): runs a server's event with nobody directing it,
for every front (it imports no discord).

An event is registered for, started (at its start time or by ``/ruff event start``),
played round by round and finished, by rule (``bot/competition/events``, stated in
docs/events.md):

* **Rounds.** A round seats the field by the event's format — barometer individual
  (``seat_individual``) or pairs (``seat_pairs``), or Swiss pairs (``pair_round``) —
  and every table plays the round's boards, the same at every table, one after the
  other. A board is an ordinary table of the table layer (one deal, the board's start
  scores, ``TableSettings.event`` naming it), opened through :class:`EventTables`, so
  it has the table pipeline's durability, timers, stale clicks and restarts; its last
  move writes its result (``bot.tables.commit``), in the same transaction.
* **Absent players.** Round 1 seats everyone registered; a player who has not checked
  in has the AI play their seat (``away``: marked, the existing *Take my seat back*
  gives it back; checking in does too). From round 2 on only the checked-in are
  seated. A late joiner enters at the next round.
* **The clock.** A board is dealt only while the time rule allows
  (``RoundClock.may_start``); when it does not, the table's remaining boards are
  skipped and scored 60/40 by the two sides' thinking time at that table.
* **The round advances** when every board of every table is played or skipped: the
  round is scored, the standings told (:class:`EventFront`; each line with its
  movement since the round before), and the next round seated, or the event
  finished.
* **Threads.** A table's thread holds who plays there now (:func:`playing`): a no-show
  joins on taking the seat back; once the next round is seated the round's threads
  lose their players.
* **Ratings.** Unrated unless the event was created ``rated``: then its boards open
  rated (``bot.tables.kinds.rules_of``) and count as ordinary games do.

What must happen once (a round begun, a board dealt, a result, a round scored) is a
conditional write of the store (``bot/store/events.py``), so a retry, a restart or a
second process never does it twice. :meth:`Director.resume` re-arms everything from
the store at start-up.

The asynchronous format (each entrant alone against the AI until a deadline) is run
by :class:`AsyncDirector` (``asynchronous.py``), beside the director.
"""

from __future__ import annotations

from bot.tables.events.asynchronous import (
    DEFAULT_DEADLINE,
    MAX_DEADLINE,
    MIN_DEADLINE,
    AsyncBoards,
    AsyncDirector,
    AsyncFront,
    AsyncStandings,
    Dealt,
    Step,
    parse_deadline,
)
from bot.tables.events.director import Director
from bot.tables.events.ports import BoardTables, EventFront, EventTables
from bot.tables.events.seating import playing, swiss_seeding
from bot.tables.events.views import (
    MIN_COMPLETION,
    MIN_ENTRANTS,
    REMIND_BEFORE,
    SWEEP_SLACK,
    Line,
    Outcome,
    StandingsView,
    Traveller,
    TravellerRow,
    event_key,
    parse_event_key,
)

__all__ = [
    "DEFAULT_DEADLINE",
    "MAX_DEADLINE",
    "MIN_DEADLINE",
    "AsyncBoards",
    "AsyncDirector",
    "AsyncFront",
    "AsyncStandings",
    "Dealt",
    "Step",
    "parse_deadline",
    "MIN_COMPLETION",
    "MIN_ENTRANTS",
    "SWEEP_SLACK",
    "BoardTables",
    "Director",
    "EventFront",
    "EventTables",
    "Line",
    "Outcome",
    "REMIND_BEFORE",
    "StandingsView",
    "Traveller",
    "TravellerRow",
    "event_key",
    "parse_event_key",
    "playing",
    "swiss_seeding",
]
