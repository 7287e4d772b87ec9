"""A seat's action, decided for any front: :func:`act` returns an :class:`Outcome`.

One pipeline whatever sent the action (a Discord button, the web table):

1. who and which table: no such table or not in play, not seated, someone else's
   seat — refused, nothing read under the lock;
2. under the table's lock: a click that lost a race (the same player's earlier
   click, the AI on a timed-out turn) or came from an earlier version is told so;
   a seat the AI plays for is refused; otherwise
   :func:`~bot.tables.commit.commit` checks the actions in the engine and writes
   them durably, and the feed hears them;
3. the outcome goes back to the front, which turns it into its own answer;
   :func:`outcome_text` words it the same way for every front.

A front that must note something under the lock (the Discord front marks the
clicked hand message answered before anything else may edit it) passes
``decided``: called under the lock for an applied action and for a stale one on
the seat's own turn, the two outcomes a front answers with the hand.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from bot.present.i18n import _
from bot.present.render.refusals import reason_text
from bot.store import StoreError
from bot.tables import commit
from bot.tables.services import Services
from bot.tables.sync import CATCH_UP_TRIES, TableBehind
from bot.tables.table import Table
from engine import Action, IllegalAction

log = logging.getLogger(__name__)

__all__ = ["Decided", "Outcome", "Reason", "act", "outcome_text"]


class Reason(Enum):
    """Why an action was not applied, as a code every front shares."""

    ENDED = "ended"  # no table in play (finished, cancelled, never was)
    NOT_SEATED = "not_seated"  # the user sits nowhere at this table
    NOT_YOUR_SEAT = "not_your_seat"  # the action is for another seat
    ALREADY_PLAYED = "already_played"  # lost race: the same player's earlier click counted
    AI_PLAYED = "ai_played"  # lost race: the turn timed out and the AI played it
    STALE = "stale"  # chosen at an earlier version; it is the seat's turn now
    MOVED_ON = "moved_on"  # chosen at an earlier version; not the seat's turn now
    AWAY = "away"  # the AI plays for this seat until its player takes it back
    ILLEGAL = "illegal"  # the engine refused it (``Outcome.detail`` says why)
    NOT_SAVED = "not_saved"  # the database failed: nothing changed
    BUSY = "busy"  # other processes kept moving the table first: nothing changed


_KINDS = {
    Reason.ALREADY_PLAYED: "lost_race",
    Reason.AI_PLAYED: "lost_race",
    Reason.STALE: "stale",
    Reason.MOVED_ON: "stale",
    Reason.BUSY: "busy",
    Reason.NOT_SAVED: "failed",
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of an action: applied (``reason`` None), or why not."""

    reason: Reason | None = None
    detail: str = ""  # the engine's own words for an illegal action (English)
    version: int = 0  # the game's version after the decision (0: no game)

    @property
    def applied(self) -> bool:
        return self.reason is None

    @property
    def kind(self) -> str:
        """``applied``, ``refused``, ``stale``, ``lost_race``, ``busy`` or ``failed``."""
        if self.reason is None:
            return "applied"
        return _KINDS.get(self.reason, "refused")


Decided = Callable[[Table, Outcome], None]


async def act(
    svc: Services,
    table_id: int,
    user_id: int,
    version: int | None,
    seat: int,
    actions: Sequence[Action],
    *,
    decided: Decided | None = None,
) -> Outcome:
    """``user_id`` takes ``actions`` (one commit, all or nothing) for ``seat`` at
    ``version`` (None: whatever version the game is at, for a control that carries
    none). Catches up and checks again when another process moved the table between
    this copy's read and the commit's row lock; in one process the first try is the
    only one."""
    table = await svc.current_table(table_id)  # several processes: loaded or caught up
    if table is None:
        return Outcome(Reason.ENDED)
    if table.status != "active" or table.game is None:
        return _lost_race(table, version, seat, user_id) or Outcome(
            Reason.ENDED, version=table.version
        )
    mine = table.seat_of(user_id)
    if mine is None:
        log.debug("user %s acted at table %s, where they do not sit", user_id, table_id)
        return Outcome(Reason.NOT_SEATED, version=table.version)
    if mine != seat:
        log.debug("user %s acted for seat %s at table %s", user_id, seat, table_id)
        return Outcome(Reason.NOT_YOUR_SEAT, version=table.version)
    sync = svc.sync
    for _try in range(CATCH_UP_TRIES):
        if version is not None and (table.game is None or version > table.game.version):
            # chosen at a version newer than this copy, whose notification is on its way
            await sync.catch_up(table)
        try:
            return await _decide(svc, table, user_id, version, seat, actions, decided)
        except TableBehind:
            await sync.catch_up(table)  # then checked again at the version it is at now
    return Outcome(Reason.BUSY, version=table.version)


async def _decide(
    svc: Services,
    table: Table,
    user_id: int,
    version: int | None,
    seat: int,
    actions: Sequence[Action],
    decided: Decided | None,
) -> Outcome:
    """Under the lock: refuse, or commit durably (the feed hears it)."""
    async with table.lock:
        game = table.game
        if table.status != "active" or game is None:
            return _lost_race(table, version, seat, user_id) or Outcome(Reason.ENDED)
        if version is not None and version != game.version:
            lost = _lost_race(table, version, seat, user_id)
            if lost is not None:
                return lost
            if game.to_act() == seat and seat not in table.away:
                outcome = Outcome(Reason.STALE, version=game.version)
                if decided is not None:
                    decided(table, outcome)
                return outcome
            return Outcome(Reason.MOVED_ON, version=game.version)
        if seat in table.away:
            return Outcome(Reason.AWAY, version=game.version)
        try:
            await commit.commit(svc, table, seat, actions, user_id)
        except IllegalAction as exc:
            return Outcome(Reason.ILLEGAL, exc.reason, game.version)
        except TableBehind:
            raise  # another process moved first: caught up and checked again
        except StoreError:
            log.exception("could not store an action at table %s", table.id)
            return Outcome(Reason.NOT_SAVED, version=game.version)
        outcome = Outcome(version=table.version)
        if decided is not None:
            decided(table, outcome)
        return outcome


def _lost_race(table: Table, version: int | None, seat: int, user_id: int) -> Outcome | None:
    """The outcome of an action on ``seat``'s turn at ``version`` that someone else took."""
    for before, who, actor in table.moves:
        if before == version and who == seat:
            if actor == user_id:
                return Outcome(Reason.ALREADY_PLAYED, version=table.version)
            if actor is None:
                return Outcome(Reason.AI_PLAYED, version=table.version)
    return None


def outcome_text(outcome: Outcome) -> str:
    """An outcome in the reader's language (the language of the moment): what every
    front shows for an action that was not applied."""
    reason = outcome.reason
    if reason is Reason.ILLEGAL:
        return reason_text(outcome.detail)
    if reason is None:
        return ""
    return _TEXTS[reason]()


_TEXTS: dict[Reason, Callable[[], str]] = {
    Reason.ENDED: lambda: _("This game has ended."),
    Reason.NOT_SEATED: lambda: _("You are not playing at this table."),
    Reason.NOT_YOUR_SEAT: lambda: _("That is not your hand."),
    Reason.ALREADY_PLAYED: lambda: _("✋ Already played — only your first click counts."),
    Reason.AI_PLAYED: lambda: _("⏰ Too late — the AI already played that turn for you."),
    Reason.STALE: lambda: _("That button was from an earlier turn — here is your hand now."),
    Reason.MOVED_ON: lambda: _("That hand has moved on — those buttons are from an earlier turn."),
    Reason.AWAY: lambda: _(
        "The AI is playing for you — press **Take my seat back** (on your hand or the table) first."
    ),
    Reason.NOT_SAVED: lambda: _(
        "Something went wrong saving that — nothing changed, please try again."
    ),
    Reason.BUSY: lambda: _("The table is busy — nothing changed, please try again."),
}
