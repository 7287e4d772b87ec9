"""The coach: ``/ruff review``, the Review button under each deal summary, ``/ruff puzzle``.

**Review** (:meth:`Coach.review`): one seat's cards in one finished deal,
judged by :func:`engine.ai.review_deal` in the review worker
(:mod:`bot.features.coach.review_pool`), answered privately to the asker.

* Who: only a player of the table, for the seat they played. Anyone else
  (a spectator, a player of another table) is refused: the table's record
  (``/ruff record``) is what the server may see of a finished game, and a
  review adds nothing a non-player needs.
* What: a deal that has **finished** — every deal of a finished table, and the
  deals before the one in play at a running table. A deal in play is refused,
  for everyone, and the review of a finished deal shows only what its record
  shows: the seat's own cards and what it could see then, and the
  double-dummy figures (which depend on every hand) only where every hand
  was played out, or the whole game is over (its record is public).
* How: the interaction is deferred (privately) at once; the review runs in the
  worker (seconds of one core, niced); the answer is a private follow-up, or a
  DM when the queue makes it likely to outlast the interaction's 15-minute
  token. Reviews are kept with the game (``deal_reviews``): the second request
  is answered from the database, and the same review running twice is shared.
* Bad input (a table of another server or none, a deal out of range, a forged
  button) gets a short private answer and changes nothing.

**Puzzles**: each flagged decision of a review becomes a puzzle (its seat's
view of the position and the verdict). ``/ruff puzzle`` serves the asker's
oldest unsolved one, else one of the server's they have not tried (from a game
that is over: its record is public then, so the hand shown reveals nothing). The
position is shown as the table shows it: the table picture of that moment (drawn
from the seat's view: the trick, trumps, scores), and the choices as the game's own
controls — the hand message's card buttons, its lay-out menu and **Confirm**, its
call buttons and menus (:func:`~bot.present.coach_components.puzzle_controls`, from
the game replayed to that moment). An answer is judged against the best choice, with
the figures and a reason, and counted (solved / unsolved per player); under every
answer are **Show the solution** and **Next puzzle**. A lay-out the coach did not
measure is said to be so, and not counted.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.discord_ui.services import DiscordServices
from bot.features.coach.review_pool import ReviewPool
from bot.present.coach_components import (
    answer_view,
    details_view,
    next_view,
    puzzle_controls,
    puzzle_view,
)
from bot.present.controls import hand_in_buttons
from bot.present.drawing import Picture
from bot.present.i18n import _, current, ngettext
from bot.present.notify import DMClosed, MessageGone
from bot.present.render import SeatInfo, TableInfo
from bot.present.render import review as words
from bot.present.render.common import seat_names
from bot.present.replies import refuse, reply
from bot.present.scene import scene_of
from bot.store import CoachRepo, HumanSeat, PuzzleRow, TableRow
from bot.tables.privacy import deal_visible_to, is_board
from engine import Card, SeatView
from engine.ai import REVIEW_BUDGET, position_before

log = logging.getLogger(__name__)

__all__ = ["TOKEN_MARGIN", "Coach"]

TOKEN_MARGIN: Final = 13 * 60.0  # seconds: past this an answer goes by DM (tokens last 15 min)
CACHE_SIZE: Final = 64


@dataclass(frozen=True, slots=True)
class _Position:
    """A puzzle's moment as the table showed it to its seat: the view with only the
    puzzle's choices live, and the table picture of it (None: pictures failed)."""

    view: SeatView
    picture: Picture | None


class _Refused(Exception):
    """Why a review cannot be given (the text answers the user)."""


class Coach:
    """Reviews and puzzles (see the module docstring)."""

    def __init__(self, svc: DiscordServices, mode: str = "process") -> None:
        self.svc = svc
        self.repo = CoachRepo(svc.db)
        self.pool = ReviewPool(mode)
        self._cache: OrderedDict[tuple[int, int, int], dict[str, Any]] = OrderedDict()

    async def close(self) -> None:
        await self.pool.close()

    # ------------------------------------------------------------ review

    async def review(
        self,
        interaction: discord.Interaction[Any],
        table_id: int | None,
        deal: int | None,
        details: bool = False,
    ) -> None:
        """``/ruff review [table] [deal]``, the Review button and **Details**: privately,
        to a player of the table (a daily board's in its DM: :meth:`review_seat`)."""
        started = time.monotonic()
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            row, seat = await self._player_table(interaction, table_id)
        except _Refused as exc:
            await refuse(interaction, str(exc))
            return
        await self.review_seat(interaction, row, seat, deal, details=details, started=started)

    async def review_seat(
        self,
        interaction: discord.Interaction[Any],
        row: TableRow,
        seat: int,
        deal: int | None,
        *,
        details: bool = False,
        started: float | None = None,
    ) -> None:
        """The review of ``seat`` (the asker's) in ``deal`` of ``row`` (None: its last
        finished deal), answered to ``interaction`` (deferred privately by the caller)
        with **Details** under it; with ``details``, the figures behind it. The one way
        a review is given: a server's table (:meth:`review`) and a daily board in its DM
        (``bot.features.daily``) both come here. A review waited for too long comes by
        DM; a board's puzzles are its player's alone (in no server's pool)."""
        if started is None:
            started = time.monotonic()
        try:
            record = row.record(await self.svc.action_repo.list(row.id))
            key = (row.id, deal or 0, seat)
            body = await self._review(key, record, deal, row, interaction, started)
        except _Refused as exc:
            await refuse(interaction, str(exc))
            return
        if body is None:
            return  # answered by DM
        if details:
            await reply(interaction, words.review_details(body, self._show_dd(row, body)))
            return
        await reply(
            interaction, self._text(row, seat, body), details_view(row.id, int(body["deal"]))
        )

    async def _player_table(
        self, interaction: discord.Interaction[Any], table_id: int | None
    ) -> tuple[TableRow, int]:
        guild = interaction.guild
        if guild is None:
            board = await self._board_here(interaction, table_id)
            if board is not None:
                return board
            raise _Refused(_("Reviews are per server — use this in a server channel."))
        user = interaction.user.id
        if table_id is None:
            here = self.svc.tables.open_in_channel(interaction.channel_id)
            if here is not None and any(
                isinstance(s, HumanSeat) and s.user_id == user for s in here.seats
            ):
                table_id = here.id
            else:
                table_id = await self.svc.result_repo.last_table(guild.id, user)
            if table_id is None:
                raise _Refused(
                    _("You have no game to review here — give a table number, e.g. `table: 12`.")
                )
        row = await self.svc.table_repo.get(table_id)
        if row is None or row.guild_id != guild.id:
            raise _Refused(_("There is no table #{table} in this server.").format(table=table_id))
        seats = [
            i for i, s in enumerate(row.seats) if isinstance(s, HumanSeat) and s.user_id == user
        ]
        if not seats:
            raise _Refused(
                _(
                    "Reviews are for the players of table #{table}: you did not play there."
                    " Its record is `/ruff record` once the game is over."
                ).format(table=table_id)
            )
        if row.status not in ("active", "finished"):
            raise _Refused(
                _("Table #{table} has no finished deal to review.").format(table=table_id)
            )
        return row, seats[0]

    async def _board_here(
        self, interaction: discord.Interaction[Any], table_id: int | None
    ) -> tuple[TableRow, int] | None:
        """Outside a server: a finished board (a daily or challenge board, played in
        the DM) of the asker's and their seat; None when ``table_id`` is no board. A
        board of someone else's, or one still in play, is refused: its cards are its
        player's alone (:mod:`bot.tables.privacy`)."""
        if table_id is None:
            return None
        row = await self.svc.table_repo.get(table_id)
        if row is None or not is_board(row):
            return None
        seat = _seat_of(row, interaction.user.id)
        if seat is None:
            raise _Refused(_("That is not your board."))
        if row.status != "finished":
            raise _Refused(_("That board is still being played."))
        return row, seat

    async def _review(
        self,
        key: tuple[int, int, int],
        record: dict[str, Any],
        deal: int | None,
        row: TableRow,
        interaction: discord.Interaction[Any],
        started: float,
    ) -> dict[str, Any] | None:
        table_id, _deal, seat = key
        if deal is None:
            deal = await asyncio.to_thread(_last_finished, record, row.status == "finished")
            if deal < 1:
                raise _Refused(
                    _("Table #{table} has no finished deal to review yet.").format(table=table_id)
                )
        key = (table_id, deal, seat)
        cached = self._cache.get(key)
        if cached is None:
            cached = await self.repo.review(*key)
        if cached is not None:
            self._remember(key, cached)
            return cached
        by_dm = time.monotonic() - started + self.pool.wait_estimate() > TOKEN_MARGIN
        if by_dm:
            await reply(
                interaction,
                _("Many reviews are waiting: yours will come here.")
                if interaction.guild is None
                else _("Many reviews are waiting: yours will come by direct message."),
            )
        try:
            result = await self.pool.review(key, record, deal, seat)
        except Exception:
            log.exception("table %s: review of deal %s failed", table_id, deal)
            raise _Refused(_("The review could not be finished — please try again.")) from None
        error = result.get("error")
        if error == "range":
            raise _Refused(
                ngettext(
                    "Table #{table} has {n} deal so far: choose a deal from 1 to {n}.",
                    "Table #{table} has {n} deals so far: choose a deal from 1 to {n}.",
                    int(result["deals"]),
                ).format(table=table_id, n=result["deals"])
            )
        if error == "unfinished":
            raise _Refused(
                _(
                    "Deal {deal} of table #{table} is still being played — a review waits until it ends."
                ).format(deal=deal, table=table_id)
            )
        if error == "no-cards":
            raise _Refused(
                _("You made no decision worth judging in this board.")
                if is_board(row)
                else _("You made no decision worth judging in deal {deal}.").format(deal=deal)
            )
        body: dict[str, Any] = result["review"]
        guild_id = 0 if is_board(row) else row.guild_id  # a board's puzzles: its player's
        user = _user_of(row, seat)
        await self.repo.keep_review(
            table_id,
            deal,
            seat,
            body,
            [(guild_id, user, int(p["index"]), p) for p in result["puzzles"]],
        )
        self._remember(key, body)
        if by_dm or time.monotonic() - started > TOKEN_MARGIN:
            try:
                await self.svc.notifier.dm(interaction.user.id, self._text(row, seat, body))
            except (DMClosed, MessageGone, discord.HTTPException):
                log.info("review for user %s: DMs closed", interaction.user.id)
            return None
        return body

    def _remember(self, key: tuple[int, int, int], body: dict[str, Any]) -> None:
        self._cache[key] = body
        self._cache.move_to_end(key)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def _show_dd(self, row: TableRow, body: dict[str, Any]) -> bool:
        """Whether the figures with every hand known may be shown (the record shows them)."""
        return row.status == "finished" or bool(body.get("complete", True))

    def _text(self, row: TableRow, seat: int, body: dict[str, Any]) -> str:
        names = seat_names(len(row.seats))
        return words.review_text(body, row.id, names[seat], self._show_dd(row, body))

    # ------------------------------------------------------------ puzzles

    async def puzzle(self, interaction: discord.Interaction[Any], after: int | None = None) -> None:
        """``/ruff puzzle`` and **Next puzzle**: one of the asker's flagged positions, else
        one of the server's they may see (:meth:`CoachRepo.next_puzzle`), other than
        ``after`` where another is left."""
        guild_id = interaction.guild.id if interaction.guild is not None else None
        if guild_id is None and after is not None:  # Next puzzle under a puzzle in a DM
            shown = await self._visible(interaction, after)
            guild_id = None if shown is None else shown.guild_id
        if guild_id is None:
            await refuse(interaction, _("Puzzles are per server — use this in a server channel."))
            return
        found = await self.repo.next_puzzle(guild_id, interaction.user.id, after)
        if found is None:
            await refuse(
                interaction,
                _(
                    "No puzzle is waiting for you. Puzzles come from reviews: press"
                    " **Review my play** under a deal summary, or `/ruff review`."
                ),
            )
            return
        await self._show(interaction, found)

    async def _show(self, interaction: discord.Interaction[Any], found: PuzzleRow) -> None:
        solved, unsolved, left = await self.repo.tally(found.guild_id, interaction.user.id)
        position = await self._position(found)
        hand_shown = position is not None and hand_in_buttons(position.view)
        text = words.puzzle_text(
            found.body, found.id, found.user_id == interaction.user.id, hand_shown=hand_shown
        )
        text += "\n" + _("Your puzzles: {solved} solved, {unsolved} not yet, {left} new.").format(
            solved=solved, unsolved=unsolved, left=left
        )
        if position is None:  # the game's record is gone: the puzzle's own buttons
            legal = list(found.body["legal"])
            labels = (
                None
                if found.body.get("kind", "card") == "card"
                else words.puzzle_choices(found.body)
            )
            await reply(interaction, text, answer_view(found.id, legal, labels))
            return
        ui = puzzle_controls(found.id, position.view, found.body)
        kwargs: dict[str, Any] = {"view": ui, "ephemeral": True}
        if position.picture is not None:
            picture = position.picture
            kwargs["file"] = discord.File(
                io.BytesIO(picture.png), "puzzle.png", description=picture.description[:1000]
            )
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, **kwargs)
            else:
                await interaction.response.send_message(text, **kwargs)
        except discord.HTTPException as exc:
            log.info("could not show puzzle %s: HTTP %s", found.id, exc.status)

    async def _position(self, found: PuzzleRow) -> _Position | None:
        """The puzzle's moment replayed from its game's record (None when the record is
        gone or no longer replays), with the table picture of it."""
        row = await self.svc.table_repo.get(found.table_id)
        if row is None:
            return None
        try:
            record = row.record(await self.svc.action_repo.list(row.id))
            game, seat = await asyncio.to_thread(
                position_before, record, int(found.body.get("index", -1))
            )
        except Exception:
            log.info("puzzle %s: its position could not be replayed", found.id, exc_info=True)
            return None
        if seat != int(found.body["seat"]):
            return None
        view = puzzle_view(game.observe(seat), found.body)
        if view is None:
            return None
        n = game.rules.players
        sides = game.observe(seat).sides or tuple(s % 2 for s in range(n))

        def who(s: int) -> str:  # the other players are not named: who they were to you
            if s == seat:
                return _("You")
            return _("Partner") if sides[s] == sides[seat] else _("Opponent")

        seats = tuple(SeatInfo(who(s), 0 if s == seat else None) for s in range(n))
        info = TableInfo(row.id, game.rules, seats, language=current())
        picture: Picture | None
        try:
            picture = await self.svc.painter.table(scene_of(info, view, [s.name for s in seats]))
        except Exception:
            log.warning("puzzle %s: its picture failed", found.id, exc_info=True)
            picture = None
        return _Position(view, picture)

    async def pick(
        self, interaction: discord.Interaction[Any], puzzle_id: int, cards: Sequence[str]
    ) -> None:
        """Cards chosen in a puzzle's lay-out menu: the menu shows them chosen, with
        **Confirm** under it (nothing is judged yet), as at the table."""
        found = await self._visible(interaction, puzzle_id)
        if found is None:
            await refuse(interaction, _("That puzzle is not here any more."))
            return
        position = await self._position(found)
        if position is None:
            await refuse(interaction, _("That puzzle is not here any more."))
            return
        chosen = [Card.parse(c) for c in cards]
        ui = puzzle_controls(found.id, position.view, found.body, chosen)
        try:
            await interaction.response.edit_message(view=ui)
        except discord.HTTPException as exc:
            log.info("could not show the chosen cards of puzzle %s: HTTP %s", found.id, exc.status)

    async def _visible(
        self, interaction: discord.Interaction[Any], puzzle_id: int
    ) -> PuzzleRow | None:
        """The puzzle, if the asker may see it here: their own, or a position of a game of
        this server whose cards are theirs to see (:mod:`bot.tables.privacy`)."""
        found = await self.repo.puzzle(puzzle_id)
        guild = interaction.guild
        if found is None or (guild is not None and found.guild_id != guild.id):
            return None
        if found.user_id != interaction.user.id:
            row = await self.svc.table_repo.get(found.table_id)
            if row is None or not deal_visible_to(row, interaction.user.id):
                return None
        return found

    async def answer(
        self, interaction: discord.Interaction[Any], puzzle_id: int, choice: str
    ) -> None:
        """A card (or another choice, ``o<n>``: the puzzle's ``n``-th — a call, trumps, a
        lay-out, a kitty card) pressed under a puzzle: judged, explained, counted."""
        found = await self._visible(interaction, puzzle_id)
        if found is None:
            await refuse(interaction, _("That puzzle is not here any more."))
            return
        legal = [str(c) for c in found.body["legal"]]
        code, kept = choice, choice
        if found.body.get("kind", "card") != "card":
            named = _chosen_code(found.body, legal, choice)
            size = len(legal[0].split()) if legal else 0
            if choice.startswith("k") and len(choice[1:].split()) != size:
                await refuse(
                    interaction,
                    ngettext("Choose exactly {n} card.", "Choose exactly {n} cards.", size).format(
                        n=size
                    ),
                )
                return
            if named is None and choice.startswith("k"):  # a lay-out the coach did not measure
                await reply(
                    interaction,
                    words.unmeasured_text(found.body, choice[1:].split()),
                    next_view(found.id, solution=True),
                )
                return
            code = named or ""
            n = legal.index(code) if code in legal else -1
            kept = f"o{n}"  # a lay-out's cards or a bid are longer than an answer's column
        if code not in legal:
            await refuse(interaction, _("That was not one of the choices."))
            return
        threshold = float(found.body.get("threshold", REVIEW_BUDGET.threshold))
        correct = words.is_correct(found.body, code, threshold)
        await self.repo.attempt(puzzle_id, interaction.user.id, correct, kept)
        await reply(
            interaction,
            words.answer_text(found.body, code, threshold),
            next_view(found.id, solution=True),
        )

    async def solution(self, interaction: discord.Interaction[Any], puzzle_id: int) -> None:
        """**Show the solution**: the best choice and why; a puzzle not yet answered counts
        as tried and not solved (one solved stays solved)."""
        found = await self._visible(interaction, puzzle_id)
        if found is None:
            await refuse(interaction, _("That puzzle is not here any more."))
            return
        await self.repo.give_up(puzzle_id, interaction.user.id)
        await reply(interaction, words.solution_text(found.body), next_view(found.id, False))

    async def next_puzzle(self, interaction: discord.Interaction[Any], after: int | None) -> None:
        await self.puzzle(interaction, after)


def _chosen_code(body: dict[str, Any], legal: list[str], choice: str) -> str | None:
    """The puzzle's choice ``choice`` names: ``o<n>``, the ``n``-th of ``legal``; ``a<code>``,
    a call chosen in a menu (the engine's encoding); ``k<cards>``, the cards confirmed in
    the lay-out menu (a lay-out as one set, in any order; a kitty card). None: none of
    the choices."""
    if choice.startswith("o") and choice[1:].isdigit():
        n = int(choice[1:])
        return legal[n] if 0 <= n < len(legal) else None
    if choice.startswith("a"):
        return choice[1:] if choice[1:] in legal else None
    if choice.startswith("k"):
        wanted = sorted(choice[1:].split())
        for code in legal:
            if sorted(code.split()) == wanted:
                return code
    return None


def _seat_of(row: TableRow, user_id: int) -> int | None:
    """The seat ``user_id`` holds at ``row`` (the first), or None."""
    return next(
        (i for i, s in enumerate(row.seats) if isinstance(s, HumanSeat) and s.user_id == user_id),
        None,
    )


def _user_of(row: TableRow, seat: int) -> int:
    s = row.seats[seat]
    return s.user_id if isinstance(s, HumanSeat) else 0


def _last_finished(record: dict[str, Any], game_over: bool) -> int:
    """The number of the last finished deal of ``record`` (0: none yet)."""
    from engine.ai import deal_count

    started = deal_count(record)
    return started if game_over else started - 1
