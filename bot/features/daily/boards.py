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
from bot.features.coach.coach import Coach
from bot.present.i18n import _, ngettext, using
from bot.present.installs import home
from bot.present.notify import DMClosed, MessageGone
from bot.present.render import daily as text
from bot.present.replies import refuse, reply, settle
from bot.store import AISeat, BoardEntry, ChannelBusy, HumanSeat, IntegrityError, StoreError
from bot.store.daily import CHALLENGE, EVENT, event_of_series
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


DAILY_PREFIX = "dy:"
"""The buttons of a finished board's message: ``dy:<verb>:<table>`` (the board's table;
the verbs: next, deal, review, share, post)."""


def daily_id(verb: str, table_id: int) -> str:
    return f"{DAILY_PREFIX}{verb}:{table_id}"


def dm_url(channel_id: int, message_id: int) -> str:
    """The jump link of a message in a DM."""
    return f"https://discord.com/channels/@me/{channel_id}/{message_id}"


def end_view(
    table_id: int, next_label: str | None, next_id: str | None = None, share: bool = True
) -> discord.ui.View:
    """The buttons of a finished board's message: the next board (when there is one),
    the deal, the review, and sharing (a daily board's).

    Laid out for a phone on purpose: four buttons in a row take ~330 px, more than a
    400 px phone gives a message (~312 px), so the last would wrap onto a row of its
    own; with four, the next board (the one thing to do) has the first row and the
    deal, the review and sharing share the second. Three (a challenge's board, the
    day done) fit one row (~265 px)."""
    view = discord.ui.View(timeout=None)
    row = 0
    if next_label is not None:
        view.add_item(
            discord.ui.Button(
                label=next_label,
                style=discord.ButtonStyle.primary,
                custom_id=next_id or daily_id("next", table_id),
                row=0,
            )
        )
        row = 1 if share else 0
    view.add_item(
        discord.ui.Button(label=_("The deal"), custom_id=daily_id("deal", table_id), row=row)
    )
    view.add_item(
        discord.ui.Button(label=_("Review"), custom_id=daily_id("review", table_id), row=row)
    )
    if share:
        view.add_item(
            discord.ui.Button(label=_("Share"), custom_id=daily_id("share", table_id), row=row)
        )
    return view


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
        # a challenge's board ended (bot.features.challenge.challenges sets it)
        self.challenge_board_done: Callable[[Table, BoardEntry], Awaitable[None]] | None = None
        # an asynchronous event's board ended (bot.features.events sets it)
        self.event_board_done: Callable[[Table, BoardEntry], Awaitable[None]] | None = None

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
        try:
            dm = user.dm_channel or await user.create_dm()
        except discord.HTTPException:
            await reply(interaction, _("I can't open a DM with you, so I can't deal you a board."))
            return
        guild_id, channel_id = home(interaction)  # 0: the cross-server standings only
        answer, _table = await self.deal_next(
            user.id, user.display_name, rules, guild_id, channel_id, dm.id, check_dm=True
        )
        await reply(interaction, answer)

    async def deal_next(
        self,
        user_id: int,
        name: str,
        rules: Rules,
        guild_id: int,
        channel_id: int,
        dm_id: int,
        *,
        check_dm: bool,
    ) -> tuple[str, Table | None]:
        """Resume the board in play in the player's DM, else deal the next of today's
        boards of ``rules``' game; the words that say what happened (with a link to
        the board) and the table dealt, if one was. ``check_dm``: first make sure the DM takes a message (a board in a
        closed DM is never dealt); a click in the DM itself needs no such check."""
        svc = self.svc
        open_row = await svc.table_repo.get_open_by_channel(dm_id)
        if open_row is not None:
            return await self.resume(open_row.id, user_id), None
        day = self.today()
        started = {e.number for e in await svc.daily_repo.of_player(user_id, rules.game_id, day)}
        number = next((n for n in range(1, BOARDS_PER_DAY + 1) if n not in started), None)
        if number is None:
            return await self.day_text(user_id, rules, day), None
        the_board = board(rules.game_id, rules.preset, day, number)
        language = svc.user_locales.language(user_id)
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
        probe: discord.Message | None = None
        if check_dm:  # the board lives in the DM: a closed DM deals nothing
            try:
                probe = await svc.notifier.dm(user_id, intro)
            except (DMClosed, MessageGone, discord.HTTPException):
                return _(
                    "I can't DM you, and the daily deals are played in DMs. Allow direct "
                    "messages from this server's members (or add the app), then try again."
                ), None
        table = await self.open(the_board, user_id, name, guild_id, channel_id, dm_id)
        if probe is not None:  # it did its job: the board's DM is its one message
            svc.own(self._delete_quietly(probe), name=f"delete-probe-{probe.id}")
        if table is None:
            return _("That board has just been dealt to you — see your DMs."), None
        return intro + self.link(table, user_id), table

    async def _delete_quietly(self, message: discord.Message) -> None:
        try:
            await self.svc.notifier.delete(message.channel.id, message.id)
        except (MessageGone, discord.HTTPException) as exc:
            log.info("could not delete a board's first DM: %s", exc)

    @staticmethod
    def link(table: Table, user_id: int) -> str:
        """A line with the jump link to the player's board DM (none if it was not sent)."""
        seat = table.seat_of(user_id)
        target = table.hand_messages.get(seat) if seat is not None else None
        if target is None:
            return ""
        return "\n" + _("[Go to the board ↗]({url})").format(url=dm_url(*target))

    async def open(
        self,
        the_board: Board,
        user_id: int,
        name: str,
        guild_id: int,
        channel_id: int,
        dm_id: int,
        label: str | None = None,
        par: bool = True,
    ) -> Table | None:
        """Deal ``the_board`` to its player at a new table in their DM; None if it was
        started already (a double command, another process). ``par``: work out the
        board's par meanwhile (an event's boards are compared with the field only)."""
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
        if par:
            svc.own(self._par_quietly(the_board), name=f"par-{the_board.key}")
        return table

    async def resume(self, table_id: int, user_id: int) -> str:
        """The player's board in play: its hand DM again; the words saying where it stands."""
        table = await self.svc.current_table(table_id)
        if table is None or table.game is None or table.kind is not TableKind.BOARD:
            return _("You have a game in play in your DMs — finish it first.")
        the_board = board_of_key(table.settings.board)
        await self.presenter.hands.send_all(table)
        self.drivers.rearm(table)
        link = self.link(table, user_id)
        event_id = event_of_series(the_board.series)
        if event_id is not None:
            return (
                _("🏆 Your board {number} of event #{event} is in your DMs.").format(
                    number=the_board.number, event=event_id
                )
                + link
            )
        if the_board.series.startswith(CHALLENGE):
            return (
                _("⚔️ Your challenge's board {number} is in your DMs.").format(
                    number=the_board.number
                )
                + link
            )
        return (
            text.started_text(
                the_board.rules,
                the_board.series,
                the_board.number,
                BOARDS_PER_DAY,
                the_board.seat,
                ROLLOVER_HOUR,
                resumed=True,
            )
            + link
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
        """The board's DM becomes its one result message: the result against par, the
        traveller of the player's server, and buttons for the next board, the deal, the
        review and sharing; after the day's last board, the day's line instead of the
        next board, and a note in the channel."""
        svc = self.svc
        the_board = board_of_key(table.settings.board)
        entry = await svc.daily_repo.of_table(table.id)
        if entry is None or entry.result is None or table.game is None:
            return
        if entry.series.startswith(CHALLENGE):
            if self.challenge_board_done is not None:
                await self.challenge_board_done(table, entry)
            return
        if entry.series.startswith(EVENT):  # its result stays hidden until the event closes
            if self.event_board_done is not None:
                await self.event_board_done(table, entry)
            return
        par = await self.ensure_par(the_board)
        entries = await svc.daily_repo.of_board(the_board.key)
        pars = {the_board.key: par} if par is not None else {}
        points = matchpoints(entries, pars)
        mine = points[(the_board.key, entry.user_id)]
        language = svc.user_locales.language(entry.user_id)
        day_boards = await svc.daily_repo.of_player(entry.user_id, entry.game_id, entry.series)
        rules = the_board.rules
        today = entry.series == self.today()
        day_done = len(day_boards) == BOARDS_PER_DAY and all(e.finished for e in day_boards)
        after: list[str] = []
        if day_done:
            score, _place, boards, _compared = await self.day_score(
                entry.user_id, rules, entry.series
            )
            with using(language):
                after.append(text.day_line(rules, boards, score))
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
            headline = _("**Board {number}/{total}**").format(
                number=the_board.number, total=BOARDS_PER_DAY
            )
            context = _("{title} · deals of {day} · against {field}").format(
                title=rules.title,
                day=entry.series,
                field=ngettext("{n} other result", "{n} other results", field).format(n=field),
            )
            body = text.board_end_text(headline, context, entry.result, mine, par, lines, after)
            next_label: str | None = None
            if not day_done and len(day_boards) < BOARDS_PER_DAY:
                next_label = (
                    _("▶ Board {number}").format(number=len(day_boards) + 1)
                    if today
                    else _("▶ Today's boards")
                )

        def view() -> discord.ui.View:
            with using(language):
                return end_view(table.id, next_label)

        await self.end_message(table, entry.user_id, body, view)
        if day_done:
            await self._tell_channel(entry, rules)

    async def end_message(
        self,
        table: Table,
        user_id: int,
        body: str,
        view: Callable[[], discord.ui.View],
    ) -> None:
        """Edit the board's DM (its hand message) into ``body`` with ``view``'s buttons:
        one message per board. Where that message is gone, a new one says it."""
        seat = table.seat_of(user_id)
        target = table.hand_messages.get(seat) if seat is not None else None

        async def post() -> None:
            await self.post(table.channel_id, body, view())

        if target is None:
            await post()
            return

        def make() -> tuple[str, discord.ui.View]:
            return body, view()

        self.svc.notifier.schedule_edit(target[0], target[1], make, post)

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

    async def post(self, channel_id: int, body: str, view: discord.ui.View | None = None) -> None:
        """Post in a player's DM channel; a failure is logged, never raised."""
        try:
            await self.svc.notifier.post(channel_id, body, view)
        except (MessageGone, discord.HTTPException) as exc:
            log.info("could not DM a board's result: %s", exc)

    # ================================================================ a finished board's buttons

    async def finished_board(
        self, interaction: discord.Interaction[Any], table_id: int
    ) -> BoardEntry | None:
        """The clicker's finished board at ``table_id``; else a short private answer."""
        entry = await self.svc.daily_repo.of_table(table_id)
        if entry is None or entry.user_id != interaction.user.id:
            await refuse(interaction, _("That is not your board."))
            return None
        if entry.result is None:
            await refuse(interaction, _("That board is still being played."))
            return None
        return entry

    async def on_next(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """**▶ Board N**: deal the next of today's boards (or resume the one in play)
        with no command typed; the button is spent, the board's other buttons stay."""
        entry = await self.finished_board(interaction, table_id)
        if entry is None:
            return
        if entry.series.startswith((CHALLENGE, EVENT)):
            await refuse(
                interaction, _("That button is not recognised — it may be from an older message.")
            )
            return
        the_board = board_of_key(entry.board)
        rules = make_rules(the_board.game_id, the_board.preset)
        await interaction.response.defer()
        user = interaction.user
        dm = user.dm_channel or await user.create_dm()
        answer, dealt = await self.deal_next(
            user.id,
            user.display_name,
            rules,
            entry.guild_id,
            entry.channel_id,
            dm.id,
            check_dm=False,
        )
        if dealt is None:  # nothing new below the message (a board in play, the day
            # done): say what happened; the button stays for later
            await interaction.followup.send(answer, ephemeral=True)
            return
        try:
            await interaction.edit_original_response(view=end_view(table_id, None))
        except discord.HTTPException as exc:
            log.info("could not spend the next-board button of table %s: %s", table_id, exc)

    async def on_deal(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """**The deal**: the whole deal as dealt, privately, to the board's player."""
        entry = await self.finished_board(interaction, table_id)
        if entry is None:
            return
        row = await self.svc.table_repo.get(table_id)
        if row is None:
            await refuse(interaction, _("That board is gone."))
            return
        record = row.record(await self.svc.action_repo.list(row.id))
        deal = game_log(record).deals[0]
        the_board = board_of_key(entry.board)
        lines = text.deal_text(deal, the_board.rules, the_board.start_scores)
        await reply(interaction, "\n".join(lines))

    async def on_review(
        self, interaction: discord.Interaction[Any], table_id: int, coach: Coach
    ) -> None:
        """**Review**: the coach's review of the board (:meth:`Coach.review_seat`, the
        same as a server table's, with **Details**), answered here in the DM (a board
        belongs to no server's tables; its puzzles are its player's alone)."""
        started = time.monotonic()
        entry = await self.finished_board(interaction, table_id)
        if entry is None:
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await self.svc.table_repo.get(table_id)
        seat = (
            None
            if row is None
            else next(
                (
                    i
                    for i, s in enumerate(row.seats)
                    if isinstance(s, HumanSeat) and s.user_id == entry.user_id
                ),
                None,
            )
        )
        if row is None or seat is None:
            await reply(interaction, _("That board is gone."))
            return
        await coach.review_seat(interaction, row, seat, 1, started=started)  # one deal

    async def on_share(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """**Share**: the board's line (its matchpoints and mark, nothing of its cards),
        and the day's once it is done, to copy; and a button to post it in the channel
        where the day began, when there is one."""
        entry = await self.finished_board(interaction, table_id)
        if entry is None or entry.result is None:
            return
        if entry.series.startswith((CHALLENGE, EVENT)):  # between players: nothing to share
            await refuse(interaction, _("That is not one of today's boards."))
            return
        the_board = board_of_key(entry.board)
        rules = make_rules(the_board.game_id, the_board.preset)
        score, _place, boards, _compared = await self.day_score(entry.user_id, rules, entry.series)
        mine = next((b for b in boards if b.number == entry.number), None)
        lines = self.share_lines(rules, entry, boards, score, mine)
        body = "\n".join(
            [_("Copy it anywhere — it gives nothing of the cards away:")]
            + [f"```\n{line}\n```" for line in lines]
        )
        view = None
        if entry.channel_id and entry.shared_at is None:
            view = discord.ui.View(timeout=None)
            view.add_item(
                discord.ui.Button(
                    label=_("Post it in the server"),
                    style=discord.ButtonStyle.primary,
                    custom_id=daily_id("post", table_id),
                )
            )
        await reply(interaction, body, view)

    @staticmethod
    def share_lines(
        rules: Rules,
        entry: BoardEntry,
        boards: list[text.BoardLine],
        score: Fraction | None,
        mine: text.BoardLine | None,
    ) -> list[str]:
        assert entry.result is not None
        lines = [
            text.board_share_line(
                rules,
                entry.series,
                entry.number,
                BOARDS_PER_DAY,
                mine.points if mine is not None else None,
                entry.result,
                mine.par if mine is not None else None,
            )
        ]
        if all(b.result is not None for b in boards):
            lines.append(text.share_line(rules, entry.series, boards, score))
        return lines

    async def on_post(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """**Post it in the server**: the share lines with the player's name, once, in the
        channel where they typed ``/ruff daily``."""
        entry = await self.finished_board(interaction, table_id)
        if entry is None or entry.result is None:
            return
        if entry.series.startswith((CHALLENGE, EVENT)):
            await refuse(interaction, _("That is not one of today's boards."))
            return
        if not entry.channel_id:
            await refuse(
                interaction, _("This board was started outside a server: copy the line instead.")
            )
            return
        # marked first, in the store (a click, another process, a restart: one post)
        if not await self.svc.daily_repo.share(table_id):
            await refuse(interaction, _("Already posted."))
            return
        the_board = board_of_key(entry.board)
        rules = make_rules(the_board.game_id, the_board.preset)
        score, _place, boards, _compared = await self.day_score(entry.user_id, rules, entry.series)
        mine = next((b for b in boards if b.number == entry.number), None)
        with using(await self.svc.server_settings.language(entry.guild_id)):
            lines = self.share_lines(rules, entry, boards, score, mine)
        note = f"**{entry.name}**: " + "\n".join(lines)
        try:
            await self.svc.notifier.post(entry.channel_id, note)
        except (MessageGone, discord.HTTPException):
            await self.svc.daily_repo.unshare(table_id)
            await refuse(interaction, _("I could not post there — copy the line instead."))
            return
        await settle(interaction, _("Posted in <#{channel}>.").format(channel=entry.channel_id))

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
