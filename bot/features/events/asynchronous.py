"""The asynchronous event's Discord front: its message in the channel (**Join**,
**▶ Play**, **Leave**), the boards dealt in the player's DM as the daily boards are
(``Daily.open``), each board's end in the DM (the player's own result only, **▶ Board
N**), and at the close the final results and travellers in the channel. What happens,
:class:`~bot.tables.events.AsyncDirector` decides."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.discord_ui.presenter import Presenter
from bot.discord_ui.services import DiscordServices
from bot.features.daily.boards import Daily, end_view
from bot.present.i18n import _, using
from bot.present.notify import DMClosed, MessageGone
from bot.present.replies import refuse, reply
from bot.store import BoardEntry, EventRow
from bot.store.daily import event_of_series, event_series
from bot.tables.events import AsyncDirector, AsyncStandings, Outcome, Step
from bot.tables.table import Table
from engine import Board

from . import async_text, text
from .front import show_registration

log = logging.getLogger(__name__)

__all__ = ["AsyncEvents"]

ButtonMaker = Callable[[int, str, str, discord.ButtonStyle], discord.ui.Item[Any]]


def play_id(event_id: int) -> str:
    return f"ev:{event_id}:play"


class AsyncEvents:
    """The Discord side of asynchronous events (``AsyncBoards`` and ``AsyncFront``)."""

    def __init__(
        self, svc: DiscordServices, presenter: Presenter, daily: Daily, button: ButtonMaker
    ) -> None:
        self.svc = svc
        self.presenter = presenter
        self.daily = daily
        self.button = button
        self.director = AsyncDirector(svc, self, self)
        daily.event_board_done = self.board_done

    async def _language(self, event: EventRow) -> str:
        return await self.svc.server_settings.language(event.guild_id)

    # ------------------------------------------------------------ the event's message

    def view(self, event: EventRow) -> discord.ui.View | None:
        if event.state not in ("registering", "running"):
            return None
        view = discord.ui.View(timeout=None)
        if event.state == "registering":
            view.add_item(self.button(event.id, "join", _("Join"), discord.ButtonStyle.success))
        else:
            view.add_item(self.button(event.id, "play", _("▶ Play"), discord.ButtonStyle.success))
        view.add_item(self.button(event.id, "leave", _("Leave"), discord.ButtonStyle.secondary))
        return view

    async def _done(self, event: EventRow) -> Counter[int]:
        """Boards finished by each entrant (never a score)."""
        done: Counter[int] = Counter()
        for e in await self.svc.daily_repo.of_series(
            event.game_id, [event_series(event.id, event.seed)]
        ):
            if e.result is not None and not e.by_ai:
                done[e.user_id] += 1
        return done

    async def message(self, event: EventRow) -> tuple[str, discord.ui.View | None]:
        entries = await self.svc.event_repo.entries(event.id)
        done = await self._done(event)
        with using(await self._language(event)):
            return async_text.registration(event, entries, done), self.view(event)

    async def post_registration(self, event: EventRow, *, again: bool = False) -> None:
        """Show the event's message (:func:`~.front.show_registration`; ``again`` at a
        start-up where its id was never kept)."""
        await show_registration(self.svc, event, self.message, again=again)

    async def registration_changed(self, event: EventRow) -> None:
        current = await self.svc.event_repo.get(event.id)
        if current is None or current.message_id is None:
            return

        async def render() -> tuple[str, discord.ui.View | None]:
            latest = await self.svc.event_repo.get(event.id)
            return await self.message(latest or current)

        self.svc.notifier.schedule_edit(current.channel_id, current.message_id, render)

    async def _post(self, channel_id: int, content: str) -> None:
        for part in text.pieces(content):
            try:
                await self.svc.notifier.post(channel_id, part)
            except (MessageGone, discord.HTTPException) as exc:
                log.warning("async event: could not post in %s: %s", channel_id, exc)
                return

    # ------------------------------------------------------------ AsyncFront

    async def opened(self, event: EventRow, users: Sequence[int]) -> None:
        with using(await self._language(event)):
            body = async_text.opened(event, users)
        await self._post(event.channel_id, body)

    async def board_stopped(self, event: EventRow, table: Table) -> None:
        def say() -> str:
            return async_text.stopped(event)

        self.presenter.tell_hands(table, say)

    async def closed(self, view: AsyncStandings) -> None:
        with using(await self._language(view.event)):
            parts = [async_text.standings(view), *async_text.travellers(view)]
        for part in parts:
            await self._post(view.event.channel_id, part)
        await self._last_boards_closed(view.event)

    async def _last_boards_closed(self, event: EventRow) -> None:
        """Each entrant's last finished board's DM, which offered **▶ Board N** and said
        when the event closes, now says it has closed and where the results are (its
        ▶ gone: it would only answer "closed"). One edit per entrant."""
        event = await self.svc.event_repo.get(event.id) or event
        last: dict[int, BoardEntry] = {}
        done: Counter[int] = Counter()
        series = event_series(event.id, event.seed)
        for entry in await self.svc.daily_repo.of_series(event.game_id, [series]):
            if entry.result is None or entry.table_id is None:
                continue
            done[entry.user_id] += 1
            before = last.get(entry.user_id)
            if before is None or (entry.finished_at or 0, entry.number) > (
                before.finished_at or 0,
                before.number,
            ):
                last[entry.user_id] = entry
        for user_id, entry in last.items():
            assert entry.table_id is not None and entry.result is not None
            table_id, number, result = entry.table_id, entry.number, entry.result
            language = self.svc.user_locales.language(user_id)
            for hand in await self.svc.hand_repo.list(table_id):

                def render(
                    table_id: int = table_id,
                    number: int = number,
                    result: int = result,
                    language: str = language,
                    done: int = done[user_id],
                ) -> tuple[str, discord.ui.View]:
                    with using(language):
                        body = async_text.board_end(event, number, result, done)
                        return body, end_view(table_id, None, play_id(event.id), share=False)

                self.svc.notifier.schedule_edit(hand.channel_id, hand.message_id, render)

    # ------------------------------------------------------------ AsyncBoards

    async def deal(
        self, event: EventRow, the_board: Board, user_id: int, name: str, where: int
    ) -> Table | None:
        with using(self.svc.user_locales.language(user_id)):
            label = async_text.label(event, the_board.number)
        return await self.daily.open(
            the_board,
            user_id,
            name,
            event.guild_id,
            event.channel_id,
            where,
            label=label,
            par=False,
        )

    # ------------------------------------------------------------ a board ends

    async def board_done(self, table: Table, entry: BoardEntry) -> None:
        """The board's DM becomes its one message: the player's own result (nothing of
        anyone else's until the close), and **▶ Board N** while boards are left."""
        event_id = event_of_series(entry.series)
        event = await self.svc.event_repo.get(event_id or 0)
        if event is None or entry.result is None:
            return
        done, nxt = await self.director.progress(event, entry.user_id)
        open_now = event.state == "running" and self.director.now() < (event.deadline_at or 0)
        language = self.svc.user_locales.language(entry.user_id)
        with using(language):
            body = async_text.board_end(event, entry.number, entry.result, done)
            next_label = (
                _("▶ Board {number}").format(number=nxt) if nxt is not None and open_now else None
            )

        def view() -> discord.ui.View:
            with using(language):
                return end_view(table.id, next_label, play_id(event.id), share=False)

        await self.daily.end_message(table, entry.user_id, body, view)
        await self.registration_changed(event)

    # ------------------------------------------------------------ the buttons

    async def on_play(self, interaction: discord.Interaction[Any], event_id: int) -> None:
        """**▶ Play** (the event's message: enters a member of its server) and **▶ Board
        N** (under a finished board in the DM: entrants only): the clicker's next board
        in their DM; a board in play is resumed, never a second dealt."""
        event = await self.svc.event_repo.get(event_id)
        user = interaction.user
        in_guild = interaction.guild_id is not None
        if (
            event is None
            or event.format != "async"
            or (in_guild and interaction.guild_id != event.guild_id)
        ):
            await refuse(interaction, text.answer(Outcome.NO_EVENT, ""))
            return
        if not in_guild and await self.svc.event_repo.entry(event.id, user.id) is None:
            await refuse(interaction, async_text.step(event, Step.NOT_IN))
            return
        if event.state != "running" or self.director.now() >= (event.deadline_at or 0):
            step = Step.NOT_YET if event.state == "registering" else Step.CLOSED
            await refuse(interaction, async_text.step(event, step))
            return
        try:
            dm = user.dm_channel or await user.create_dm()
        except discord.HTTPException:
            await refuse(interaction, _("I can't open a DM with you, so I can't deal you a board."))
            return
        busy = await self.svc.table_repo.get_open_by_channel(dm.id)
        if busy is not None:
            mine = await self.svc.daily_repo.of_table(busy.id)
            if mine is None or event_of_series(mine.series) != event.id:
                await refuse(
                    interaction, _("Finish the board in your DMs first (`/ruff daily` resumes it).")
                )
                return
        await interaction.response.defer(ephemeral=True, thinking=True)
        _done, nxt = await self.director.progress(event, user.id)
        if (
            in_guild
            and busy is None
            and nxt is not None
            and not await self._dm_open(event, user.id)
        ):
            await reply(
                interaction,
                _(
                    "I can't DM you, and the event's boards are played in DMs. Allow direct "
                    "messages from this server's members, then try again."
                ),
            )
            return
        dealt = await self.director.play(
            event.id, user.id, user.display_name, dm.id, enter=in_guild
        )
        table = dealt.table
        if dealt.step is Step.IN_PLAY and table is not None:
            await self.presenter.hands.send_all(table)  # its hand again, at the bottom
            self.daily.drivers.rearm(table)
            words = async_text.dealt(event, dealt.number, table.seat_of(user.id) or 0, True)
            await interaction.followup.send(words + self.daily.link(table, user.id), ephemeral=True)
            return
        if dealt.step is not Step.DEALT or table is None:
            await interaction.followup.send(
                async_text.step(dealt.event, dealt.step), ephemeral=True
            )
            return
        words = async_text.dealt(event, dealt.number, table.seat_of(user.id) or 0, False)
        await reply(interaction, words + self.daily.link(table, user.id))
        if not in_guild:  # under a finished board: its ▶ is spent
            await self._spend(interaction, play_id(event.id))

    async def _dm_open(self, event: EventRow, user_id: int) -> bool:
        """Say in the player's DM that the event's boards come here (a closed DM deals
        nothing)."""
        rules_title = text.title(event)
        try:
            await self.svc.notifier.dm(user_id, rules_title)
        except (DMClosed, MessageGone, discord.HTTPException):
            return False
        return True

    @staticmethod
    async def _spend(interaction: discord.Interaction[Any], custom_id: str) -> None:
        """The finished board's message loses its ▶ button (the others stay)."""
        message = interaction.message
        if message is None:
            return
        view = discord.ui.View.from_message(message, timeout=None)
        for item in list(view.children):
            if getattr(item, "custom_id", None) == custom_id:
                view.remove_item(item)
        try:
            await message.edit(view=view if view.children else None)
        except discord.HTTPException as exc:
            log.info("could not spend an event's next-board button: %s", exc)

    async def on_registration(
        self, interaction: discord.Interaction[Any], event: EventRow, verb: str
    ) -> None:
        """**Join** and **Leave** on the event's message (a forged check-in or partner
        gets a short answer)."""
        user = interaction.user
        if verb == "join":
            outcome = await self.director.join(event.id, user.id, user.display_name)
        elif verb == "leave":
            outcome = await self.director.leave(event.id, user.id)
        else:
            await refuse(
                interaction, async_text.answer("", verb) or text.answer(Outcome.NOT_OPEN, verb)
            )
            return
        own = async_text.answer(outcome.value, verb)
        await reply(interaction, own or text.answer(outcome, verb))

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        await self.director.resume()

    async def close(self) -> None:
        await self.director.close_timers()
