"""Today's deals (``/ruff daily``): the same boards for everyone, each played once,
alone against the AI, in the player's DMs, and scored against everyone else's.

A board (``engine.boards``) is played at an ordinary table whose "channel" is the
player's DM: the table pipeline gives it durability, restarts, stale and foreign
clicks for free. What makes it a board is its row: the board's rules (one deal,
the start scores), seed and first dealer; its player in the board's seat and the
:data:`~bot.tables.aipool.FIXED` AI (a fixed search, seeded by the board and the
move count) in the others; no turn timer, no thread, no table message; and
``TableKind.BOARD``, so its end writes the board's result
(``bot.tables.commit``) instead of a rated game.

One attempt per board and player (``daily_results``' key): ``/ruff daily`` resumes
the board in play, or starts the next board of the day, never one played. The
day rolls over at :data:`ROLLOVER_HOUR` UTC. When a board ends its player gets
the traveller of their server, their matchpoints against every result on the
board (and the AI's own result in their seat: the par) and the whole deal — and
nothing of a board before they finished it; the next ``/ruff daily`` deals the next
board (never dealt unasked, so the DM is free for a challenge's board). After the
day's last board the server's channel where they typed ``/ruff daily`` is told
that they finished, and their score, nothing more.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Awaitable, Callable
from fractions import Fraction
from typing import Any

import discord

from bot.competition.duplicate import matchpoints, percentile, standings
from bot.discord_ui.presenter import Presenter
from bot.discord_ui.services import DiscordServices
from bot.present.i18n import _, using
from bot.present.installs import home
from bot.present.notify import DMClosed, MessageGone
from bot.present.render import daily as text
from bot.present.replies import refuse, reply
from bot.store import AISeat, BoardEntry, ChannelBusy, HumanSeat, IntegrityError, StoreError
from bot.store.daily import CHALLENGE
from bot.tables import commit
from bot.tables.aipool import FIXED
from bot.tables.drivers import Drivers
from bot.tables.kinds import TableKind, TableSpec
from bot.tables.table import AI_NAMES, Table
from engine import (
    BOARDS_PER_DAY,
    Board,
    Event,
    IllegalAction,
    MatchOver,
    Rules,
    RulesError,
    board,
    board_result,
    boards_of,
    game_log,
    make_rules,
    start_board,
)

log = logging.getLogger(__name__)

__all__ = ["DEFAULT_GAME", "ROLLOVER_HOUR", "Daily", "day_of", "week_to"]

ROLLOVER_HOUR = 0
"""The hour (UTC) a new day's boards begin."""

DEFAULT_GAME = "ruff-honours-cotton"


def day_of(now: float) -> str:
    """The day (``YYYY-MM-DD``) whose boards are played at epoch ``now``."""
    moment = dt.datetime.fromtimestamp(now, dt.UTC) - dt.timedelta(hours=ROLLOVER_HOUR)
    return moment.date().isoformat()


def week_to(day: str) -> list[str]:
    """The seven days ending with ``day``."""
    last = dt.date.fromisoformat(day)
    return [(last - dt.timedelta(days=k)).isoformat() for k in range(7)]


def board_of_key(key: str) -> Board:
    """The board named ``game/preset/series/number`` (``Board.key``)."""
    game_id, preset, series, number = key.rsplit("/", 3)
    return board(game_id, preset, series, int(number))


class Daily:
    """Starts and resumes a player's boards, and follows each to its end."""

    def __init__(self, svc: DiscordServices, presenter: Presenter, drivers: Drivers) -> None:
        self.svc = svc
        self.presenter = presenter
        self.drivers = drivers
        self.clock = time.time  # the day's clock (tests move it)
        self._par_tasks: dict[str, asyncio.Task[None]] = {}
        # a challenge's board ended (bot.discord_ui.challenge sets it)
        self.challenge_board_done: Callable[[Table, BoardEntry], Awaitable[None]] | None = None

    def today(self) -> str:
        return day_of(self.clock())

    # ================================================================ /ruff daily

    async def command(self, interaction: discord.Interaction[Any], game_id: str | None) -> None:
        """Resume the player's board in play, else start the next of today's boards."""
        try:
            rules = make_rules(game_id or DEFAULT_GAME)
        except RulesError:
            await refuse(interaction, _("There is no such game."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user
        svc = self.svc
        try:
            dm = user.dm_channel or await user.create_dm()
        except discord.HTTPException:
            await reply(interaction, _("I can't open a DM with you, so I can't deal you a board."))
            return
        open_row = await svc.table_repo.get_open_by_channel(dm.id)
        if open_row is not None:
            await self.resume(interaction, open_row.id)
            return
        day = self.today()
        started = {e.number for e in await svc.daily_repo.of_player(user.id, rules.game_id, day)}
        number = next((n for n in range(1, BOARDS_PER_DAY + 1) if n not in started), None)
        if number is None:
            await reply(interaction, await self.day_text(user.id, rules, day))
            return
        guild_id, channel_id = home(interaction)  # 0: the cross-server standings only
        the_board = board(rules.game_id, rules.preset, day, number)
        language = svc.user_locales.language(user.id)
        with using(language):
            intro = text.started_text(
                the_board.rules,
                day,
                number,
                BOARDS_PER_DAY,
                the_board.seat,
                ROLLOVER_HOUR,
                resumed=False,
            )
        try:  # the board lives in the DM: a closed DM deals nothing
            await svc.notifier.dm(user.id, intro)
        except (DMClosed, MessageGone, discord.HTTPException):
            await reply(
                interaction,
                _(
                    "I can't DM you, and the daily deals are played in DMs. Allow direct "
                    "messages from this server's members (or add the app), then try again."
                ),
            )
            return
        table = await self.open(the_board, user.id, user.display_name, guild_id, channel_id, dm.id)
        if table is None:
            await reply(interaction, _("That board has just been dealt to you — see your DMs."))
            return
        await reply(interaction, intro)

    async def open(
        self,
        the_board: Board,
        user_id: int,
        name: str,
        guild_id: int,
        channel_id: int,
        dm_id: int,
        label: str | None = None,
    ) -> Table | None:
        """Deal ``the_board`` to its player at a new table in their DM; None if it was
        started already (a double command, another process)."""
        svc = self.svc
        rules = the_board.rules
        seats: list[HumanSeat | AISeat | None] = []
        names = iter(AI_NAMES)
        for seat in range(rules.players):
            seats.append(
                HumanSeat(user_id, name) if seat == the_board.seat else AISeat(FIXED, next(names))
            )
        language = svc.user_locales.language(user_id)
        if label is None:
            with using(language):
                label = text.board_label(the_board.number, BOARDS_PER_DAY, the_board.series)

        async def row(table_id: int) -> None:
            await svc.daily_repo.start(
                board=the_board.key,
                user_id=user_id,
                game_id=the_board.game_id,
                series=the_board.series,
                number=the_board.number,
                guild_id=guild_id,
                channel_id=channel_id,
                name=name,
                table_id=table_id,
            )

        try:
            table = await commit.open_table(
                svc,
                TableSpec(
                    kind=TableKind.BOARD,
                    rules=rules,
                    guild_id=guild_id,
                    channel_id=dm_id,
                    creator_id=user_id,
                    seats=seats,
                    guild_name=label,
                    seed=the_board.seed,
                    first_dealer=the_board.first_dealer,
                    board=the_board.key,
                    then=row,
                ),
            )
        except (ChannelBusy, IntegrityError):
            return None
        table.language = language
        svc.tables.add(table)
        await self.presenter.hands.send_all(table)
        self.drivers.kick(table)
        svc.own(self._par_quietly(the_board), name=f"par-{the_board.key}")
        return table

    async def resume(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The player's board in play: its hand DM again, and where it stands."""
        table = await self.svc.current_table(table_id)
        if table is None or table.game is None or table.kind is not TableKind.BOARD:
            await reply(interaction, _("You have a game in play in your DMs — finish it first."))
            return
        the_board = board_of_key(table.settings.board)
        await self.presenter.hands.send_all(table)
        self.drivers.rearm(table)
        if the_board.series.startswith(CHALLENGE):
            await reply(
                interaction,
                _("⚔️ Your challenge's board {number} is in your DMs.").format(
                    number=the_board.number
                ),
            )
            return
        await reply(
            interaction,
            text.started_text(
                the_board.rules,
                the_board.series,
                the_board.number,
                BOARDS_PER_DAY,
                the_board.seat,
                ROLLOVER_HOUR,
                resumed=True,
            ),
        )

    # ================================================================ the par

    async def _par_quietly(self, the_board: Board) -> None:
        await self.ensure_par(the_board)

    async def ensure_par(self, the_board: Board) -> int | None:
        """The board's par (the AI's own result in the player's seat), worked out once
        and kept: the board played by the fixed AI in every seat, with the seeds a
        table of it gives its AI, so a player who plays as the AI would gets the par."""
        known = (await self.svc.daily_repo.par([the_board.key])).get(the_board.key)
        if known is not None:
            return known
        task = self._par_tasks.get(the_board.key)
        if task is None:  # one search per board and process, owned (a close cancels it)
            task = self.svc.own(self._work_out_par(the_board), name=f"par-{the_board.key}")
            self._par_tasks[the_board.key] = task
            task.add_done_callback(lambda _t: self._par_tasks.pop(the_board.key, None))
        try:
            await asyncio.shield(task)
        except Exception:  # logged by the task's owner; the board is shown without its par
            return None
        return (await self.svc.daily_repo.par([the_board.key])).get(the_board.key)

    async def _work_out_par(self, the_board: Board) -> None:
        svc = self.svc
        try:
            game, _deal = start_board(the_board)
            while not game.is_over:
                seat = game.to_act()
                assert seat is not None
                view = game.observe(seat)
                action = await svc.ai.choose(
                    FIXED, view, view.legal, f"{the_board.seed}:ai:{game.version}"
                )
                try:
                    game.apply(seat, action)
                except IllegalAction:
                    game.apply(seat, view.legal[0])
            await svc.daily_repo.set_par(the_board.key, board_result(game, the_board.seat))
        except StoreError:
            log.exception("board %s: could not keep its par", the_board.key)

    # ================================================================ a board ends

    def committed(self, table: Table, events: list[Event]) -> None:
        """The feed's listener: a board that just ended is summed up for its player."""
        if (
            table.kind is TableKind.BOARD
            and table.status == "finished"
            and any(isinstance(e, MatchOver) for e in events)
            and self.svc.sync.may_drive(table)
        ):
            self.svc.own(self.board_done(table), name=f"board-done-{table.id}")

    async def board_done(self, table: Table) -> None:
        """Tell the player how the board went (traveller, matchpoints, the deal); then
        the next board, or the day's result and a note in the channel."""
        svc = self.svc
        the_board = board_of_key(table.settings.board)
        entry = await svc.daily_repo.of_table(table.id)
        if entry is None or entry.result is None or table.game is None:
            return
        if entry.series.startswith(CHALLENGE):
            if self.challenge_board_done is not None:
                await self.challenge_board_done(table, entry)
            return
        par = await self.ensure_par(the_board)
        entries = await svc.daily_repo.of_board(the_board.key)
        pars = {the_board.key: par} if par is not None else {}
        points = matchpoints(entries, pars)
        mine = points[(the_board.key, entry.user_id)]
        language = svc.user_locales.language(entry.user_id)
        deal = game_log(table.game.to_record()).deals[0]
        with using(language):
            lines = [
                text.TravellerLine(
                    e.name, e.result, points[(e.board, e.user_id)], e.user_id == entry.user_id
                )
                for e in sorted(entries, key=lambda e: (-(e.result or 0), e.name))
                if e.result is not None and e.guild_id == entry.guild_id
            ]
            if par is not None:
                lines.append(text.TravellerLine("", par, None))
                lines.sort(key=lambda line: -line.result)
            field = sum(1 for e in entries if e.result is not None) - 1 + (par is not None)
            body = text.board_done_text(
                the_board.rules,
                the_board.series,
                the_board.number,
                BOARDS_PER_DAY,
                entry.result,
                mine,
                par,
                lines,
                text.deal_text(deal, the_board.rules, the_board.start_scores),
                field,
            )
        await self.post(table.channel_id, body)
        day_boards = await svc.daily_repo.of_player(entry.user_id, entry.game_id, entry.series)
        if len(day_boards) < BOARDS_PER_DAY and entry.series == self.today():
            with using(language):
                hint = text.next_board(len(day_boards) + 1, BOARDS_PER_DAY, "/ruff daily")
            await self.post(table.channel_id, hint)
            return
        rules = the_board.rules
        with using(language):
            summary = await self.day_text(entry.user_id, rules, entry.series)
        await self.post(table.channel_id, summary)
        if len(day_boards) == BOARDS_PER_DAY and all(e.finished for e in day_boards):
            await self._tell_channel(entry, rules)

    async def _tell_channel(self, entry: BoardEntry, rules: Rules) -> None:
        """The day is done: the channel where it began hears that, and the score."""
        if not entry.channel_id:
            return
        score, _place, _boards, _compared = await self.day_score(entry.user_id, rules, entry.series)
        if score is None:
            return
        with using(await self.svc.server_settings.language(entry.guild_id)):
            note = text.finished_post(entry.name, rules, entry.series, score)
        try:
            await self.svc.notifier.post(entry.channel_id, note)
        except (MessageGone, discord.HTTPException) as exc:
            log.info("could not tell channel %s a day was finished: %s", entry.channel_id, exc)

    async def post(self, channel_id: int, body: str) -> None:
        """Post in a player's DM channel; a failure is logged, never raised."""
        try:
            await self.svc.notifier.post(channel_id, body)
        except (MessageGone, discord.HTTPException) as exc:
            log.info("could not DM a board's result: %s", exc)

    # ================================================================ the day

    async def day_score(
        self, user_id: int, rules: Rules, day: str
    ) -> tuple[Fraction | None, Fraction | None, list[text.BoardLine], int]:
        """The player's score of ``day`` (the mean of their boards' matchpoints), where
        it stands among everyone's, a line per board, and how many players' scores it
        was compared with (the player's included)."""
        svc = self.svc
        keys = [b.key for b in boards_of(rules.game_id, rules.preset, day)]
        entries = await svc.daily_repo.of_series(rules.game_id, [day])
        entries = [e for e in entries if e.board in keys]
        pars = await svc.daily_repo.par(keys)
        points = matchpoints(entries, pars)
        table = standings(entries, points)
        scores = {row.user_id: row.score for row in table}
        mine = {e.number: e for e in entries if e.user_id == user_id}
        lines = []
        for number, key in enumerate(keys, 1):
            e = mine.get(number)
            result = e.result if e is not None else None
            lines.append(
                text.BoardLine(
                    number,
                    result,
                    pars.get(key),
                    points.get((key, user_id)) if result is not None else None,
                )
            )
        return scores.get(user_id), percentile(scores, user_id), lines, len(scores)

    async def day_text(self, user_id: int, rules: Rules, day: str) -> str:
        score, place, lines, compared = await self.day_score(user_id, rules, day)
        done = all(line.result is not None for line in lines)
        return text.day_text(
            rules, day, lines, score, place, ROLLOVER_HOUR, done, compared=compared
        )
