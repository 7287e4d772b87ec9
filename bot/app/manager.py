"""The game manager: the one object the cog and the components talk to.

It builds the bot's parts and hands each request to the part whose job it is:

=================  ============================================================
``services``       database, repositories, notifier, AI pool, table registry,
                   owned background tasks (``bot/tables/services.py``)
``lobby``          open, seats, start, cancel, rematch, take my seat back
``play``           a game click: lock → engine → store → answer
``drivers``        AI moves and timers, supervised; what follows every commit
``presenter``      events → table message, hand messages, summaries
``resume``         start-up: load, set aside what fails, re-arm timers
``hints``          the Hint button of a table with hints (also the web table's)
``lessons``        ``/ruff lesson``: scripted deals played in DMs
``coach``          deal reviews and puzzles (also the daily boards')
=================  ============================================================

Features with a package of their own (``bot/features/``: records and replays, the
read-only info commands, settings and options; the coach, its lessons and hints) are built by :meth:`features`; the
client installs their commands and buttons, and no forward here serves them.

Invariants, kept by those parts:

* One ``asyncio.Lock`` per table; every state change happens under it, and
  nothing slow (AI search, Discord calls) runs while it is held.
* An action is written to the database before anyone is told it happened, and
  the in-memory game changes only after the write succeeded.
* A refused action (illegal, stale, out of turn, foreign) changes neither the
  game nor the database and gets a short ephemeral answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import discord

from bot.app import heap
from bot.cluster.sync import Cluster
from bot.config import Settings
from bot.discord_ui.claims import VERBS as CLAIM_VERBS
from bot.discord_ui.claims import ClaimButtons
from bot.discord_ui.lobby import Lobby
from bot.discord_ui.play import Play
from bot.discord_ui.presenter import Presenter
from bot.discord_ui.services import DiscordServices
from bot.features import Feature, events, info, records
from bot.features import challenge as challenge_feature
from bot.features import coach as coach_feature
from bot.features import daily as daily_feature
from bot.features import settings as settings_feature
from bot.features.challenge.challenges import Challenges
from bot.features.coach.coach import Coach
from bot.features.coach.hints import Hints
from bot.features.coach.lessons import Lessons
from bot.features.daily.boards import Daily
from bot.features.daily.standings import DailyStandings
from bot.present.i18n import load_catalogues
from bot.present.replies import refuse
from bot.store import Database
from bot.tables.aipool import AIPool
from bot.tables.drivers import Drivers
from bot.tables.resume import Resume
from bot.tables.services import TableRegistry
from bot.tables.sync import OneProcess
from bot.tables.table import Table, parse_options, preset_choices
from bot.tables.user_locales import UserLocales
from engine import Action

__all__ = ["GameManager", "Table", "parse_options", "preset_choices"]


class GameManager:
    """Creates, runs, resumes and ends tables. The bot's single owner of game state."""

    def __init__(
        self, client: discord.Client, db: Database, settings: Settings, ai: AIPool | None = None
    ) -> None:
        # AI decisions run off the event loop (bot/tables/aipool.py); a pool given by the
        # caller (benchmarks) is the caller's to close
        self._owns_ai = ai is None
        pool = (
            ai
            if ai is not None
            else AIPool(
                settings.ai_workers,
                mode=settings.ai_mode,
                worlds=settings.ai_worlds,
                fixed_worlds=settings.daily_worlds,
            )
        )
        self.services = svc = DiscordServices(client, db, settings, pool)
        self.presenter = Presenter(svc)
        self.drivers = Drivers(svc, self.presenter)
        # every commit: shown (the Discord front), then the next turn armed
        svc.feed.subscribe(self.presenter.committed)
        svc.feed.subscribe(self.drivers.committed)
        self.play = Play(svc, self.presenter, self.drivers)
        self.lobby = Lobby(svc, self.presenter, self.drivers)
        self.claims = ClaimButtons(svc, self.presenter, self.play)
        self.hints = Hints(svc)
        self.lessons = Lessons(svc)
        self.daily = Daily(svc, self.presenter, self.drivers)  # /ruff daily: boards played alone
        svc.feed.subscribe(self.daily.committed)
        self.daily_standings = DailyStandings(svc, self.daily)
        self.challenges = Challenges(svc, self.daily)  # /ruff challenge: the same boards for two
        self.coach = Coach(svc, "process" if pool.mode == "process" else "thread")
        self._resume = Resume(svc, self.presenter, self.drivers)
        # how this process keeps in step with the database: alone, or one of several
        # processes sharing PostgreSQL (bot/cluster); the table layer sees only TableSync
        self.cluster: Cluster | None = None
        if db.dialect == "postgresql":  # any number of processes may share it
            self.cluster = Cluster(svc, self._resume)
        svc.sync = self.cluster if self.cluster is not None else OneProcess(self._resume)

    # ------------------------------------------------------------ what others read

    @property
    def tables(self) -> TableRegistry:
        return self.services.tables

    @property
    def user_locales(self) -> UserLocales:
        """Each player's language, remembered from their latest interaction (bot/present/locales.py)."""
        return self.services.user_locales

    @property
    def set_aside(self) -> dict[int, str]:
        return self._resume.set_aside

    def features(self) -> list[Feature]:
        """The features that are packages of their own (``bot/features/``), built from
        this manager's parts (called once, by the client, which adds their commands and
        buttons)."""
        svc = self.services
        return [
            daily_feature.build(self.daily, self.daily_standings, self.coach, svc.user_locales),
            challenge_feature.build(self.challenges, svc.user_locales),
            records.build(svc),
            info.build(svc, self.presenter),
            settings_feature.build(svc, self.presenter),
            events.build(svc, self.presenter, self.drivers, self.daily),
            coach_feature.build(self.coach, self.hints, self.lessons, svc.user_locales),
        ]

    # ------------------------------------------------------------ lifecycle

    async def resume(self) -> int:
        """Load every unfinished table from the database and bring it back to life;
        then settle the heap (:mod:`bot.app.heap`): start-up is over."""
        load_catalogues()  # before the first table's text, not in the middle of a game
        resumed = await self._resume.resume()
        if not self.services.settings.pages_only:  # a pages-only process settles nothing
            self.services.own(self.challenges.run(), name="challenges")  # their deadlines
        heap.settle()
        return resumed

    async def close(self) -> None:
        """Stop background work (the database is closed by the bot)."""
        svc = self.services
        svc.closing = True
        stopping: list[asyncio.Task[Any]] = self.drivers.running()
        stopping.extend(svc.tasks.cancel_all())
        svc.notifier.cancel_all()
        if stopping:
            # wait for them to unwind before the database closes under them
            await asyncio.wait(stopping, timeout=5.0)
        await svc.painter.close()
        await self.coach.close()
        await svc.sync.close()  # several processes: gives its tables to the others at once
        if self._owns_ai:
            await svc.ai.close()

    # ------------------------------------------------------------ commands (bot/app/cog.py)

    async def new_table(
        self,
        interaction: discord.Interaction[Any],
        game_id: str,
        preset: str | None,
        target: int | None,
        options: str | None,
    ) -> None:
        await self.lobby.new_table(interaction, game_id, preset, target, options)

    async def cancel_command(self, interaction: discord.Interaction[Any]) -> None:
        await self.lobby.cancel_command(interaction)

    # ------------------------------------------------------------ clicks (bot/handlers.ClickHandler)

    async def refuse(self, interaction: discord.Interaction[Any], text: str) -> None:
        await refuse(interaction, text)

    async def on_table_button(
        self, interaction: discord.Interaction[Any], table_id: int, verb: str
    ) -> None:
        if verb in CLAIM_VERBS:
            await self.claims.on_table_button(interaction, table_id, verb)
            return
        await self.lobby.on_table_button(interaction, table_id, verb)

    async def on_action(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        seat: int,
        actions: Sequence[Action],
    ) -> None:
        await self.play.on_action(interaction, table_id, version, seat, actions)

    async def on_pick(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        seat: int,
        verb: str,
        values: Sequence[str],
        confirmed: bool = False,
    ) -> None:
        await self.play.on_pick(interaction, table_id, version, seat, verb, values, confirmed)
