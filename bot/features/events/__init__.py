"""Events (issue #39): a server runs a tournament with nobody directing it.

``/ruff event create`` (Manage Server) posts a registration message with **Join**,
**Check in**, **Leave** (and **Choose partner** for pairs; an asynchronous event:
**Join**, then **▶ Play**, :mod:`.asynchronous`); ``/ruff event start`` and
``/ruff event cancel`` (Manage Server or the event's creator); ``/ruff event
standings`` (the text and the standings picture, the asker's line marked);
``create``'s ``rated`` option lets the event count for the server's ratings. The
director (``bot/tables/events/``) runs the rounds; this package is
its Discord front (:mod:`.front`) and its words (:mod:`.text`). Buttons are
``ev:<event>:<verb>``; a forged or stale one changes nothing and is answered
privately.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui.presenter import Presenter
from bot.discord_ui.services import DiscordServices
from bot.features import Feature
from bot.features.daily.boards import Daily
from bot.present.i18n import N_, _
from bot.present.notify import MessageGone
from bot.present.replies import refuse, reply
from bot.sharding import holds_guild
from bot.store import EventRow, StoreError
from bot.tables.drivers import Drivers
from bot.tables.events import (
    DEFAULT_DEADLINE,
    MAX_DEADLINE,
    MIN_DEADLINE,
    BoardTables,
    Director,
    Outcome,
    parse_deadline,
)
from engine import RulesError, game_ids, make_rules

from . import async_text, text
from .asynchronous import AsyncEvents
from .front import PREFIX, DiscordEventFront

log = logging.getLogger(__name__)

__all__ = ["build", "event_games"]

VERBS = ("join", "leave", "checkin", "partner", "play")


def event_games() -> list[str]:
    """The games an event can be played in: four seats in two partnerships."""
    out = []
    for g in game_ids():
        rules = make_rules(g)
        if rules.players == 4 and rules.sides == 2:
            out.append(g)
    return out


def _choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=make_rules(g).title + f" ({g})", value=g) for g in event_games()
    ][:25]


def _may_direct(interaction: discord.Interaction[Any], event: EventRow | None) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    if perms is not None and perms.manage_guild:
        return True
    return event is not None and interaction.user.id == event.creator_id


def build(svc: DiscordServices, presenter: Presenter, drivers: Drivers, daily: Daily) -> Feature:
    """The events feature: its director on the feed, its commands and buttons."""

    class EventButton(
        discord.ui.DynamicItem[discord.ui.Button[Any]],
        template=rf"{PREFIX}:(?P<event>[0-9]{{1,18}}):(?P<verb>join|leave|checkin|partner|play)",
    ):
        def __init__(
            self,
            event_id: int,
            verb: str,
            label: str = "·",
            style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        ) -> None:
            super().__init__(
                discord.ui.Button(label=label, style=style, custom_id=f"{PREFIX}:{event_id}:{verb}")
            )
            self.event_id = event_id
            self.verb = verb

        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> EventButton:
            return cls(int(match["event"]), match["verb"])

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await svc.user_locales.enter(interaction)
            if self.verb == "play":  # an asynchronous event's board (also from a DM)
                await asyncs.on_play(interaction, self.event_id)
                return
            await clicked(interaction, self.event_id, self.verb)

    class PartnerSelect(
        discord.ui.DynamicItem[discord.ui.UserSelect[Any]],
        template=rf"{PREFIX}:(?P<event>[0-9]{{1,18}}):pick",
    ):
        def __init__(self, event_id: int) -> None:
            super().__init__(
                discord.ui.UserSelect(
                    custom_id=f"{PREFIX}:{event_id}:pick",
                    placeholder=_("Choose your partner"),
                    min_values=1,
                    max_values=1,
                )
            )
            self.event_id = event_id

        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> PartnerSelect:
            return cls(int(match["event"]))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await svc.user_locales.enter(interaction)
            values = self.item.values
            if not values:
                await refuse(interaction, _("Choose your partner"))
                return
            partner = values[0]
            if getattr(partner, "bot", False):
                await refuse(interaction, text.answer(Outcome.NOT_IN, "partner"))
                return
            event = await same_guild(interaction, self.event_id)
            if event is None:
                return
            outcome = await director.choose_partner(self.event_id, interaction.user.id, partner.id)
            await reply(interaction, text.answer(outcome, "partner"))

    def button(
        event_id: int, verb: str, label: str, style: discord.ButtonStyle
    ) -> discord.ui.Item[Any]:
        return EventButton(event_id, verb, label, style)

    front = DiscordEventFront(svc, presenter, button)
    director = Director(svc, BoardTables(svc), front, drivers.kick)
    svc.feed.subscribe(director.committed)
    asyncs = AsyncEvents(svc, presenter, daily, button)  # the asynchronous format

    async def same_guild(interaction: discord.Interaction[Any], event_id: int) -> EventRow | None:
        """The event, if it is this server's (a forged id is answered and goes no further)."""
        event = await svc.event_repo.get(event_id)
        if event is None or interaction.guild_id != event.guild_id:
            await refuse(interaction, text.answer(Outcome.NO_EVENT, ""))
            return None
        return event

    async def clicked(interaction: discord.Interaction[Any], event_id: int, verb: str) -> None:
        event = await same_guild(interaction, event_id)
        if event is None:
            return
        user = interaction.user
        if event.format == "async":
            await asyncs.on_registration(interaction, event, verb)
            return
        if verb == "partner":
            if event.format == "individual":
                await refuse(interaction, text.answer(Outcome.NOT_PAIRS, verb))
                return
            view = discord.ui.View(timeout=None)
            view.add_item(PartnerSelect(event_id))
            await reply(interaction, _("Who is your partner? They must have joined too."), view)
            return
        if verb == "join":
            outcome = await director.join(event_id, user.id, user.display_name)
        elif verb == "leave":
            outcome = await director.leave(event_id, user.id)
        else:
            outcome = await director.check_in(event_id, user.id)
        answer = text.answer(outcome, verb)
        if outcome is Outcome.DONE and verb == "join" and event.format != "individual":
            view = discord.ui.View(timeout=None)
            view.add_item(PartnerSelect(event_id))
            await reply(interaction, answer + "\n" + _("Now choose your partner:"), view)
            return
        await reply(interaction, answer)

    # ------------------------------------------------------------ /ruff event ...

    group = app_commands.Group(
        name="event", description=N_("Tournaments with no director: create, start, standings")
    )

    @group.command(name="create", description=N_("Create an event in this channel (Manage Server)"))
    @app_commands.describe(
        game=N_("Which game"),
        format=N_("Individual or pairs barometer, Swiss pairs, or asynchronous"),
        rounds=N_("How many rounds (not for asynchronous)"),
        boards=N_("Boards per round (every table plays the same); asynchronous: boards"),
        minutes=N_("Minutes per board (not for asynchronous)"),
        starts_in=N_("Minutes from now until the start (asynchronous: default now)"),
        preset=N_("Rule preset (default: the game's standard)"),
        deadline=N_("Asynchronous: open for, e.g. 24h, 3d, 1d12h (1 hour to 14 days)"),
        rated=N_("Count the boards for the server's ratings and stats (default: unrated)"),
    )
    @app_commands.choices(
        game=_choices(),
        format=[
            app_commands.Choice(name=N_("Individual (barometer)"), value="individual"),
            app_commands.Choice(name=N_("Pairs (barometer)"), value="pairs"),
            app_commands.Choice(name=N_("Swiss pairs"), value="swiss"),
            app_commands.Choice(name=N_("Asynchronous (alone against the AI)"), value="async"),
        ],
    )
    async def create(
        interaction: discord.Interaction[Any],
        game: str,
        format: str = "individual",
        rounds: app_commands.Range[int, 1, 20] = 4,
        boards: app_commands.Range[int, 1, 12] = 4,
        minutes: app_commands.Range[int, 1, 60] = 8,
        starts_in: app_commands.Range[int, 1, 10080] | None = None,
        preset: app_commands.Range[str, 1, 40] | None = None,
        deadline: app_commands.Range[str, 1, 40] | None = None,
        rated: bool = False,
    ) -> None:
        await svc.user_locales.enter(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            await refuse(interaction, _("Events are run in a server's channel."))
            return
        if not _may_direct(interaction, None):
            await refuse(interaction, _("Creating an event needs Manage Server."))
            return
        if format not in ("individual", "pairs", "swiss", "async"):
            await refuse(interaction, _("There is no such format."))
            return
        if format == "async" and rated:
            await refuse(
                interaction,
                _("An asynchronous event is played alone against the AI, so it is never rated."),
            )
            return
        if format == "async":
            await create_async(interaction, game, preset, boards, starts_in, deadline)
            return
        if deadline is not None:
            await refuse(interaction, _("A deadline is for an asynchronous event only."))
            return
        if starts_in is None:
            starts_in = 30
        try:
            event = await director.create(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                creator_id=interaction.user.id,
                game_id=game,
                preset=preset,
                format=format,  # type: ignore[arg-type]  # checked above
                boards_per_round=boards,
                rounds=rounds,
                minutes_per_board=float(minutes),
                start_at=director.clock() + 60.0 * starts_in,
                rated=rated,
            )
        except RulesError:
            await refuse(
                interaction, _("An event needs a game of four players in two partnerships.")
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await front.post_registration(event)
        await reply(interaction, _("Event #{id} is open for registration.").format(id=event.id))

    async def create_async(
        interaction: discord.Interaction[Any],
        game: str,
        preset: str | None,
        boards: int,
        starts_in: int | None,
        deadline: str | None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        seconds = DEFAULT_DEADLINE if deadline is None else parse_deadline(deadline)
        if seconds is None:
            await refuse(
                interaction,
                _("I can't read the deadline {given!r}: write it like 24h, 3d or 1d12h.").format(
                    given=deadline
                ),
            )
            return
        if not MIN_DEADLINE <= seconds <= MAX_DEADLINE:
            await refuse(
                interaction,
                _("The deadline must be from 1 hour to 14 days; {given!r} is not.").format(
                    given=deadline
                ),
            )
            return
        now = director.clock()
        try:
            event = await asyncs.director.create(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                creator_id=interaction.user.id,
                game_id=game,
                preset=preset,
                boards=boards,
                start_at=now + 60.0 * (starts_in or 0),
                deadline=seconds,
            )
        except RulesError:
            await refuse(
                interaction, _("An event needs a game of four players in two partnerships.")
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        if starts_in is None:  # open at once
            await asyncs.director.start(event.id)
            event = await svc.event_repo.get(event.id) or event
        await asyncs.post_registration(event)
        await reply(interaction, async_text.created(event))

    async def chosen(
        interaction: discord.Interaction[Any], event_id: int | None, open_only: bool
    ) -> EventRow | None:
        if interaction.guild_id is None:
            await refuse(interaction, _("Events are run in a server's channel."))
            return None
        if event_id is not None:
            return await same_guild(interaction, event_id)
        events = await svc.event_repo.of_guild(interaction.guild_id, open_only=open_only)
        if not events:
            await refuse(interaction, _("This server has no event for that."))
            return None
        return events[0]

    @group.command(
        name="start", description=N_("Start an event now (Manage Server or its creator)")
    )
    @app_commands.describe(event=N_("The event's number (default: this server's latest)"))
    async def start(
        interaction: discord.Interaction[Any], event: app_commands.Range[int, 1] | None = None
    ) -> None:
        await svc.user_locales.enter(interaction)
        row = await chosen(interaction, event, True)
        if row is None:
            return
        if not _may_direct(interaction, row):
            await refuse(interaction, _("Only the event's creator or Manage Server can start it."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        if row.format == "async":
            outcome = await asyncs.director.start(row.id)
            own = async_text.answer(outcome.value, "start")
            await reply(interaction, own or text.answer(outcome, "start"))
            return
        outcome = await director.start(row.id)
        await reply(interaction, text.answer(outcome, "start"))

    @group.command(name="cancel", description=N_("Cancel an event (Manage Server or its creator)"))
    @app_commands.describe(event=N_("The event's number (default: this server's latest)"))
    async def cancel(
        interaction: discord.Interaction[Any], event: app_commands.Range[int, 1] | None = None
    ) -> None:
        await svc.user_locales.enter(interaction)
        row = await chosen(interaction, event, True)
        if row is None:
            return
        if not _may_direct(interaction, row):
            await refuse(interaction, _("Only the event's creator or Manage Server can cancel it."))
            return
        if row.format == "async":
            outcome = await asyncs.director.cancel(row.id)
        else:
            outcome = await director.cancel(row.id)
        await reply(interaction, text.answer(outcome, "cancel"))
        if outcome is Outcome.DONE:  # its players hear it where they look, not only the mod
            await front.cancelled(row)

    @group.command(name="standings", description=N_("An event's standings"))
    @app_commands.describe(event=N_("The event's number (default: this server's latest)"))
    async def standings(
        interaction: discord.Interaction[Any], event: app_commands.Range[int, 1] | None = None
    ) -> None:
        await svc.user_locales.enter(interaction)
        row = await chosen(interaction, event, False)
        if row is None:
            return
        if row.format == "async":  # before the close: who has played, never a score
            shown = async_text.standings(await asyncs.director.standings(row.id))
            for part in text.pieces(shown):
                await reply(interaction, part)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await director.standings(row.id)
        picture = await front.standings_picture(view, interaction.user.id)
        for i, part in enumerate(text.pieces(text.standings(view))):
            # the picture with the first part, the asker's own line marked on it
            await reply(interaction, part, picture=picture if i == 0 else None)

    sweeper: list[asyncio.Task[None]] = []

    async def resume() -> None:
        await unkept_registrations(start_up=True)
        await director.resume()
        await asyncs.start()
        if not sweeper:
            sweeper.append(svc.own(sweep_registrations(), name="event-registration-sweep"))

    def ours(event: EventRow, *, start_up: bool) -> bool:
        """Whether this process looks for ``event``'s registration message: an event of
        its own servers (its shards) at its start-up (no ``/ruff event create`` of its
        own is under way then); any event whose message has gone unkept longer than a
        lease (``RH_LEASE_SECONDS``: the process that posted it keeps its id at once,
        so it is gone, or its post failed), as the cluster claims a table nobody
        claimed in that time. Never a fresh event of another process's servers, whose
        create may be under way."""
        if start_up and holds_guild(svc.settings, event.guild_id):
            return True
        return event.created_at < svc.db.clock() - svc.settings.lease_seconds

    async def unkept_registrations(*, start_up: bool) -> None:
        """An event with no registration message kept (the bot stopped, or the process
        that posted it died, between posting it and keeping its id): the one posted is
        found and kept, or one posted (the event's Join and Leave answer, its message
        shows them). Only the events this process looks after (:func:`ours`)."""
        for event in await svc.event_repo.unfinished():
            if event.message_id is not None or not ours(event, start_up=start_up):
                continue
            try:
                if event.format == "async":
                    await asyncs.post_registration(event, again=True)
                else:
                    await front.post_registration(event, again=True)
            except (MessageGone, discord.HTTPException) as exc:
                log.warning("event %s: no registration message shown (%s)", event.id, exc)

    async def sweep_registrations() -> None:
        """Every ``RH_EVENT_SWEEP_EVERY`` seconds: a registration message left unkept
        by a process that died while this one runs (several processes) is found and
        kept here, not at some process's next start-up. One query a sweep; Discord is
        read only for an event with no message kept."""
        while True:
            await asyncio.sleep(svc.settings.event_sweep_every)
            try:
                await unkept_registrations(start_up=False)
            except StoreError:
                log.warning("events: the registration sweep failed", exc_info=True)

    async def stop() -> None:
        for task in sweeper:
            task.cancel()
        sweeper.clear()
        await asyncs.close()
        await director.close()

    return Feature(
        name="events",
        commands=[group],
        items=[EventButton, PartnerSelect],
        start=resume,
        close=stop,
    )
