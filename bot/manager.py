"""The game manager: owns every table, its lock, its AI and timer tasks.

Flow of one click: component/command (thin) -> ``GameManager`` method -> engine
check on a copy -> actions written to SQLite (durable) -> the copy becomes the
game -> the player is answered -> events fan out to render / notify.

Invariants:

* One ``asyncio.Lock`` per table; every state change happens under it, and
  nothing slow (AI search, Discord calls other than the interaction answer)
  runs while it is held.
* An action is written to the database before anyone is told it happened, and
  the in-memory game changes only after the write succeeded.
* A refused action (illegal, stale, out of turn, foreign) changes neither the
  game nor the database and gets a short ephemeral answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import discord

from engine import (
    Action,
    Card,
    CardParseError,
    Game,
    IllegalAction,
    RecordError,
    RulesError,
    game_ids,
    make_rules,
    new_game,
)
from engine.actions import discard
from engine.events import (
    DealScored,
    DealStarted,
    Event,
    GameOver,
    HonoursScored,
    MatchOver,
    TrickWon,
)

from . import components as ui
from . import render
from .aipool import AIPool
from .config import Settings
from .notify import DMClosed, MessageGone, Notifier, call
from .render import SEAT_NAMES
from .store import (
    ActionRepo,
    AISeat,
    ChannelBusy,
    Database,
    Deadline,
    DeadlineRepo,
    HandMessageRepo,
    HumanSeat,
    NewAction,
    PlayerResult,
    ResultRepo,
    Seat,
    StoreError,
    TableRepo,
    TableRow,
    VersionConflict,
)
from .tables import (
    ACK_SAMPLES,
    ACK_WITHIN,
    AI_NAMES,
    ENDED_KEPT,
    HAND_COPIES,
    LEADERBOARD_PAGE,
    SET_ASIDE_MARK,
    TURN_WARNING_LEFT,
    TURN_WARNING_MIN,
    HandCopy,
    Table,
    first_free,
    hand_signature,
    parse_options,
    preset_choices,
    retry_backoff,
)

log = logging.getLogger(__name__)


class GameManager:
    """Creates, runs, resumes and ends tables. The bot's single owner of game state."""

    def __init__(
        self, client: discord.Client, db: Database, settings: Settings, ai: AIPool | None = None
    ) -> None:
        self.client = client
        self.db = db
        self.settings = settings
        self.tables: dict[int, Table] = {}
        self.table_repo = TableRepo(db)
        self.action_repo = ActionRepo(db)
        self.hand_repo = HandMessageRepo(db)
        self.result_repo = ResultRepo(db)
        self.deadline_repo = DeadlineRepo(db)
        self.notifier = Notifier(client, settings.table_edit_interval)
        self._seed_rng: random.Random = (
            random.SystemRandom() if settings.seed is None else random.Random(settings.seed)
        )
        self._closing = False
        self.ack_latencies: deque[float] = deque(maxlen=ACK_SAMPLES)
        # AI decisions run off the event loop (bot/aipool.py); a pool given by the
        # caller (benchmarks) is the caller's to close
        self.ai = ai if ai is not None else AIPool(settings.ai_workers, mode=settings.ai_mode, worlds=settings.ai_worlds)
        self._owns_ai = ai is None
        self.set_aside: dict[int, str] = {}  # tables this version could not load: why
        self._tasks: set[asyncio.Task[None]] = set()

    # ================================================================ lifecycle

    async def resume(self) -> int:
        """Load every unfinished table from the database and bring it back to life."""
        count = 0
        deadlines = {d.table_id: d for d in await self.deadline_repo.list()}
        for row in await self.table_repo.list_unfinished():
            try:
                table = Table.from_row(row)
                actions = await self.action_repo.list(table.id) if table.status == "active" else []
                if table.status == "active":
                    table.game = Game.from_record(
                        {
                            "format": "ruff-honours-game",
                            "version": 1,
                            "game_id": table.game_id,
                            "preset": table.preset,
                            "overrides": table.overrides,
                            "seed": table.seed,
                            "first_dealer": table.first_dealer,
                            "actions": [f"{a.seat} {a.action}" for a in actions],
                        }
                    )
            except (RulesError, RecordError, IllegalAction, ValueError) as exc:
                await self._set_aside(row, exc)
                continue
            self.tables[table.id] = table
            deadline = deadlines.get(table.id)
            if table.status == "lobby":
                self._arm_lobby_timer(table, deadline.due_at if deadline and deadline.kind == "lobby" else None)
                self._schedule_table_edit(table)  # reposts it if the lobby message went while we were down
            elif table.game is not None:
                for hm in await self.hand_repo.list(table.id):
                    table.hand_msgs[hm.seat] = (hm.channel_id, hm.message_id)
                table.away = set(table.settings.get("away", []))
                table.misses = {int(k): int(v) for k, v in dict(table.settings.get("misses", {})).items()}
                self._schedule_table_edit(table)
                self._refresh_hands(table, force=True)
                self._kick(table, due=self._resumed_due(table, deadline, actions[-1].created_at if actions else 0.0))
            count += 1
        log.info("resumed %d unfinished table(s)", count)
        return count

    async def _set_aside(self, row: TableRow, exc: Exception) -> None:
        """A table this version cannot load: keep it in the database unchanged (it loads
        again on a later start, once a version that replays its log runs), log it for
        the admin, and tell its channel once per code version."""
        self.set_aside[row.id] = f"{type(exc).__name__}: {exc}"
        log.warning(
            "table %s (channel %s) set aside: this version cannot load it (%s: %s); it is kept "
            "unchanged in the database and loads again on a start whose version replays it",
            row.id, row.channel_id, type(exc).__name__, exc,
        )
        if row.settings.get("set_aside_notice") == SET_ASIDE_MARK:
            return
        try:
            await self.table_repo.update_settings(row.id, {**row.settings, "set_aside_notice": SET_ASIDE_MARK})
        except (StoreError, sqlite3.Error):
            log.warning("table %s: could not record the set-aside notice", row.id, exc_info=True)
            return
        self._own(self._tell_set_aside(row))

    async def _tell_set_aside(self, row: TableRow) -> None:
        text = (
            f"⚠️ Table #{row.id} is set aside: this version of the bot cannot load its game. "
            "Nothing is lost — the game is kept as it was and comes back when the bot is updated."
        )
        try:
            await self.notifier.post(row.channel_id, text)
        except (discord.HTTPException, DMClosed, MessageGone):
            log.warning("table %s: could not tell the channel it was set aside", row.id, exc_info=True)

    def _own(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Start a background task that the manager owns until it ends."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())

    def _resumed_due(self, table: Table, deadline: Deadline | None, last_action_at: float) -> float | None:
        """The stored turn deadline if it belongs to the turn now waiting, else None.

        A deadline set before the latest action is from an earlier turn (the row is
        only rewritten when the next human turn's timer starts): that turn gets a
        fresh timeout instead.
        """
        game = table.game
        if deadline is None or deadline.kind != "turn" or game is None or deadline.seat != game.to_act():
            return None
        set_at = deadline.due_at - self._turn_timeout(table)
        return deadline.due_at if set_at + 1e-6 >= last_action_at else None

    async def close(self) -> None:
        """Stop background work (the database is closed by the bot)."""
        self._closing = True
        stopping: list[asyncio.Task[Any]] = []
        for table in self.tables.values():
            for task in (table.ai_task, table.timer_task):
                if task is not None and not task.done():
                    task.cancel()
                    stopping.append(task)
        for owned in list(self._tasks):
            owned.cancel()
            stopping.append(owned)
        self.notifier.cancel_all()
        if stopping:
            # wait for them to unwind before the database closes under them
            await asyncio.wait(stopping, timeout=5.0)
        if self._owns_ai:
            await self.ai.close()

    # ================================================================ replies

    async def refuse(self, interaction: discord.Interaction[Any], text: str) -> None:
        """Answer ephemerally (first response or follow-up), changing nothing."""
        log.debug("refused user %s: %s", interaction.user.id, text)
        await self._reply(interaction, text)

    async def _reply(
        self, interaction: discord.Interaction[Any], text: str, view: discord.ui.View | None = None
    ) -> None:
        kwargs: dict[str, Any] = {"ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        if len(text) > 2000:  # Discord's limit; an echoed option must not make the answer fail
            text = text[:1999] + "…"
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, **kwargs)
            else:
                await interaction.response.send_message(text, **kwargs)
        except discord.HTTPException as exc:
            log.info("could not answer interaction: HTTP %s", exc.status)

    def _note_ack(self, started: float) -> None:
        self.ack_latencies.append(time.perf_counter() - started)

    # ================================================================ commands

    async def new_table(
        self,
        interaction: discord.Interaction[Any],
        game_id: str,
        preset: str | None,
        target: int | None,
        options: str | None,
    ) -> None:
        """``/ruff new``: open a lobby in this channel, the invoker in the North seat."""
        if interaction.guild is None or interaction.channel is None:
            await self.refuse(interaction, "Tables live in server channels — run `/ruff new` in a server.")
            return
        perms = interaction.app_permissions
        missing = [
            name
            for name, ok in (
                ("View Channel", perms.view_channel),
                ("Send Messages", perms.send_messages),
                ("Read Message History", perms.read_message_history),
            )
            if not ok
        ]
        if missing:
            await self.refuse(
                interaction, f"I can't run a table here: I need {', '.join(missing)} in this channel."
            )
            return
        try:
            overrides = parse_options(options)
            if target is not None:
                overrides["target_score"] = str(target)
            rules = make_rules(game_id, preset, overrides)
        except RulesError as exc:
            await self.refuse(interaction, f"⚠️ {exc}")
            return
        existing = await self.table_repo.get_open_by_channel(interaction.channel.id)
        if existing is not None:
            await self.refuse(interaction, f"This channel already has a table: {self._jump(existing)}")
            return
        self._forget_ended()
        user = interaction.user
        seats: list[Seat | None] = [HumanSeat(user.id, user.display_name), None, None, None]
        try:
            row = await self.table_repo.create_lobby(
                guild_id=interaction.guild.id,
                channel_id=interaction.channel.id,
                creator_id=user.id,
                game_id=rules.game_id,
                preset=rules.preset,
                seed=self._seed_rng.randrange(1, 2**53),
                seats=seats,
                overrides=dict(rules.overrides),
                settings={
                    "turn_timeout": self.settings.turn_timeout,
                    # names for the hand messages, also after a restart (the guild cache is empty then)
                    "guild_name": interaction.guild.name,
                    "channel_name": getattr(interaction.channel, "name", ""),
                },
            )
        except ChannelBusy:
            existing = await self.table_repo.get_open_by_channel(interaction.channel.id)
            await self.refuse(interaction, "This channel already has a table" + (f": {self._jump(existing)}" if existing else "."))
            return
        table = Table.from_row(row)
        table.guild_name = interaction.guild.name
        table.channel_name = getattr(interaction.channel, "name", "")
        self.tables[table.id] = table
        self._arm_lobby_timer(table)  # before any Discord call: an unanswered lobby still expires
        try:
            await interaction.response.send_message(
                self._lobby_text(table), view=ui.lobby_view(table.id), allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as exc:
            # Nobody saw the table: free the channel rather than block it until expiry.
            log.warning("could not post table %s (HTTP %s); cancelling it", table.id, exc.status)
            async with table.lock:
                self._stop_tasks(table)
                async with self.db.transaction():
                    table.db_version = await self.table_repo.set_status(table.id, "cancelled")
                    await self.deadline_repo.clear(table.id)
                table.status = "cancelled"
            self._retire(table)
            return
        try:
            message = await call(interaction.original_response, f"table {table.id} message")
        except discord.HTTPException as exc:
            log.warning("table %s: could not fetch its message (HTTP %s); adopted on the next click", table.id, exc.status)
            return
        table.message_id = message.id
        await self.table_repo.set_message(table.id, message.id)

    def _jump(self, row: TableRow | Table) -> str:
        message_id = row.message_id
        if not message_id:
            return f"table #{row.id}"
        return f"table #{row.id} — https://discord.com/channels/{row.guild_id}/{row.channel_id}/{message_id}"

    async def cancel_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/ruff cancel``: end this channel's table (opener or Manage Server)."""
        table = self._table_in_channel(interaction)
        if table is None:
            await self.refuse(interaction, "There is no open table in this channel.")
            return
        await self._cancel(interaction, table, respond_by_edit=False)

    async def hand_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/ruff hand``: show my hand ephemerally (the fallback for closed DMs)."""
        table = self._table_in_channel(interaction)
        if table is None or table.seat_of(interaction.user.id) is None:
            table = next(
                (
                    t
                    for t in self.tables.values()
                    if t.status == "active" and t.seat_of(interaction.user.id) is not None
                    and (interaction.guild is None or t.guild_id == interaction.guild.id)
                ),
                None,
            )
        if table is None:
            await self.refuse(interaction, "You are not playing at any table right now.")
            return
        await self._show_hand(interaction, table)

    async def rules_command(self, interaction: discord.Interaction[Any], game_id: str | None, preset: str | None) -> None:
        """``/ruff rules``: the rules of this channel's table, or of a named game."""
        table = self._table_in_channel(interaction)
        try:
            if game_id:
                rules = make_rules(game_id, preset)
            elif table is not None:
                rules = table.rules
            else:
                rules = make_rules()
        except RulesError as exc:
            await self.refuse(interaction, f"⚠️ {exc}")
            return
        text = render.rules_text(rules)
        if not game_id and table is None:
            text += "\nOther games: " + ", ".join(f"`{g}`" for g in game_ids())
        await self._reply(interaction, text)

    async def leaderboard(self, interaction: discord.Interaction[Any], page: int) -> None:
        """``/ruff leaderboard``: this server's players, ranked, 10 a page."""
        if interaction.guild is None:
            await self.refuse(interaction, "The leaderboard is per server — use it in a server channel.")
            return
        text, view = await self._leaderboard_page(interaction.guild.id, interaction.guild.name, page)
        if view is None:
            await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.response.send_message(text, view=view, allowed_mentions=discord.AllowedMentions.none())

    async def on_leaderboard_page(self, interaction: discord.Interaction[Any], page: int) -> None:
        if interaction.guild is None:
            await self.refuse(interaction, "The leaderboard is per server.")
            return
        text, view = await self._leaderboard_page(interaction.guild.id, interaction.guild.name, page)
        await interaction.response.edit_message(content=text, view=view)

    async def _leaderboard_page(self, guild_id: int, guild_name: str, page: int) -> tuple[str, discord.ui.View | None]:
        total = await self.result_repo.count_players(guild_id)
        pages = max(1, -(-total // LEADERBOARD_PAGE))
        page = min(max(page, 0), pages - 1)
        rows = await self.result_repo.leaderboard(guild_id, LEADERBOARD_PAGE, page * LEADERBOARD_PAGE)
        if not rows:
            return f"🏆 **Leaderboard — {guild_name}**\nNo finished games yet. Start one with `/ruff new`.", None
        lines = [f"🏆 **Leaderboard — {guild_name}** (page {page + 1}/{pages})", "`  # player               games  wins   win%  points`"]
        for r in rows:
            lines.append(f"`{r.rank:>3} {r.name[:20]:<20} {r.games:>6} {r.wins:>5} {r.win_pct:>6.1f} {r.points:>7}`")
        return "\n".join(lines), ui.leaderboard_view(page, pages)

    async def stats(self, interaction: discord.Interaction[Any], user: discord.abc.User | None) -> None:
        """``/ruff stats``: one player's record in this server."""
        if interaction.guild is None:
            await self.refuse(interaction, "Stats are per server — use this in a server channel.")
            return
        target = user or interaction.user
        stats = await self.result_repo.player_stats(interaction.guild.id, target.id)
        if stats is None:
            await self._reply(interaction, f"{target.display_name} has not finished a game here yet.")
            return
        await self._reply(
            interaction,
            f"📊 **{target.display_name}** in {interaction.guild.name}: rank #{stats.rank} · "
            f"{stats.games} games · {stats.wins} wins ({stats.win_pct:.1f}%) · {stats.points} points",
        )

    # ================================================================ table buttons

    async def on_table_button(self, interaction: discord.Interaction[Any], table_id: int, verb: str) -> None:
        started = time.perf_counter()
        table = self.tables.get(table_id)
        if verb == "rematch":
            await self._rematch(interaction, table_id)
            return
        if table is None or table.status not in ("lobby", "active"):
            await self.refuse(interaction, "This table has ended.")
            return
        if verb == "reclaim" and interaction.guild is None:
            await self._reclaim(interaction, table)  # from the hand DM: the seat check is enough
            self._note_ack(started)
            return
        if interaction.guild is None or interaction.guild.id != table.guild_id:
            await self.refuse(interaction, "That table belongs to another server.")
            return
        if verb == "hand":
            await self._show_hand(interaction, table)
        elif verb == "reclaim":
            await self._reclaim(interaction, table)
        elif verb == "cancel":
            await self._cancel(interaction, table, respond_by_edit=True)
        elif table.status != "lobby":
            await self.refuse(interaction, "The game has already started.")
        elif verb == "start":
            await self._start(interaction, table)
        else:
            await self._lobby_change(interaction, table, verb)
        self._note_ack(started)

    async def _lobby_change(self, interaction: discord.Interaction[Any], table: Table, verb: str) -> None:
        refusal = await self._change_seats(table, interaction.user, verb)
        # Discord calls only after the lock: a slow answer never holds the table up
        if refusal is not None:
            await self.refuse(interaction, refusal)
            return
        await self._adopt_message(table, interaction)
        try:
            await interaction.response.edit_message(
                content=self._lobby_text(table), view=ui.lobby_view(table.id), allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as exc:
            log.info("lobby answer failed (HTTP %s); the seat change is saved, redrawing", exc.status)
            self._schedule_table_edit(table)

    async def _change_seats(self, table: Table, user: discord.abc.User, verb: str) -> str | None:
        """Join, leave or add an AI under the lock, durably; the refusal, if any."""
        async with table.lock:
            if table.status != "lobby":
                return "The game has already started."
            seats = list(table.seats)
            mine = table.seat_of(user.id)
            if verb == "join":
                if mine is not None:
                    return f"You already sit {SEAT_NAMES[mine]}."
                free = first_free(seats)
                if free is None:
                    return "The table is full."
                seats[free] = HumanSeat(user.id, user.display_name)
            elif verb == "leave":
                if mine is None:
                    return "You are not at this table."
                if user.id == table.creator_id:
                    return "You opened this table: use Cancel to close it."
                seats[mine] = None
            elif verb.startswith("ai-"):
                if mine is None:
                    return "Only players at the table can add AI players."
                free = first_free(seats)
                if free is None:
                    return "The table is full."
                used = {s.name for s in seats if isinstance(s, AISeat)}
                name = next(n for n in AI_NAMES if n not in used)
                seats[free] = AISeat(verb[3:], name)  # type: ignore[arg-type]
            try:
                table.db_version = await self.table_repo.update_seats(table.id, seats, table.db_version)
            except VersionConflict:
                return "The table changed meanwhile — try again."
            table.seats = seats
            return None

    async def _adopt_message(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        """If the table's message id was never learnt, take it from a click on its buttons."""
        if table.message_id is None and interaction.message is not None and interaction.guild is not None:
            table.message_id = interaction.message.id
            with contextlib.suppress(StoreError):
                await self.table_repo.set_message(table.id, table.message_id)

    def _lobby_text(self, table: Table, note: str = "") -> str:
        creator = table.human(0)
        opener = next(
            (s.name for s in table.seats if isinstance(s, HumanSeat) and s.user_id == table.creator_id),
            creator.name if creator else "someone",
        )
        return render.lobby_text(table.info(), opener, note)

    async def _start(self, interaction: discord.Interaction[Any], table: Table) -> None:
        user = interaction.user
        refusal = await self._begin(table, user.id)
        # Discord calls only after the lock: the game is durable and its AI may move meanwhile
        if refusal is not None:
            await self.refuse(interaction, refusal)
            return
        await self._adopt_message(table, interaction)
        try:
            await interaction.response.edit_message(
                content=self._table_text(table), view=self._table_view(table), allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as exc:
            log.info("start answer failed (HTTP %s); the game has started, redrawing", exc.status)
            self._schedule_table_edit(table)
        closed = await self._send_hands(table)
        if user.id in closed:
            await self._reply(
                interaction,
                "I can't DM you (your DMs are closed for this server). Press **My hand** on the table to play.",
            )
        self._kick(table)

    async def _begin(self, table: Table, user_id: int) -> str | None:
        """Fill empty seats with AI and start the game, under the lock, durably; the refusal, if any."""
        async with table.lock:
            if table.status != "lobby":
                return "The game has already started."
            full = all(s is not None for s in table.seats)
            if user_id != table.creator_id and table.seat_of(user_id) is None:
                return "You are not at this table — only its players can start it."
            if user_id != table.creator_id and not full:
                return "Only the opener can start before every seat is filled."
            seats = list(table.seats)
            used = {s.name for s in seats if isinstance(s, AISeat)}
            for i, seat in enumerate(seats):
                if seat is None:
                    name = next(n for n in AI_NAMES if n not in used)
                    used.add(name)
                    seats[i] = AISeat("normal", name)
            game, events = new_game(rules=table.rules, seed=table.seed, first_dealer=table.first_dealer)
            async with self.db.transaction():
                if seats != table.seats:
                    table.db_version = await self.table_repo.update_seats(table.id, seats, table.db_version)
                table.db_version = await self.table_repo.set_status(table.id, "active", table.db_version)
                await self.deadline_repo.clear(table.id)
            table.seats = seats
            table.status = "active"
            table.game = game
            self._cancel_timer(table)
            return None

    async def _cancel(self, interaction: discord.Interaction[Any], table: Table, respond_by_edit: bool) -> None:
        user = interaction.user
        perms = getattr(user, "guild_permissions", None)
        if user.id != table.creator_id and not (perms is not None and perms.manage_guild):
            await self.refuse(interaction, "Only the table's opener or someone with Manage Server can cancel it.")
            return
        async with table.lock:
            ended = table.status not in ("lobby", "active")
            if not ended:
                async with self.db.transaction():
                    table.db_version = await self.table_repo.set_status(table.id, "cancelled")
                    await self.deadline_repo.clear(table.id)
                table.status = "cancelled"
                self._stop_tasks(table)
                self._retire(table)
        # Discord calls only after the lock
        if ended:
            await self.refuse(interaction, "This table has already ended.")
            return
        text = render.header(table.info()) + f"\n❌ Cancelled by {user.display_name}."
        if respond_by_edit:
            try:
                await interaction.response.edit_message(content=text, view=None)
            except discord.HTTPException as exc:
                log.info("cancel answer failed (HTTP %s); the table is cancelled", exc.status)
                if table.message_id:
                    self.notifier.schedule_edit(table.channel_id, table.message_id, lambda: (text, None))
        else:
            await self._reply(interaction, f"Table #{table.id} cancelled.")
            if table.message_id:
                with contextlib.suppress(MessageGone, discord.HTTPException):
                    await self.notifier.edit(table.channel_id, table.message_id, text, None)
        for seat, (channel_id, message_id) in list(table.hand_msgs.items()):
            self.notifier.schedule_edit(channel_id, message_id, lambda: (f"Table #{table.id} was cancelled.", None))
            del seat

    async def _rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        old = self.tables.get(table_id)
        row = await self.table_repo.get(table_id)
        if row is None or row.status != "finished":
            await self.refuse(interaction, "A rematch needs a finished game.")
            return
        if interaction.guild is None or interaction.guild.id != row.guild_id:
            await self.refuse(interaction, "That table belongs to another server.")
            return
        if not any(isinstance(s, HumanSeat) and s.user_id == interaction.user.id for s in row.seats):
            await self.refuse(interaction, "Only players of that game can start a rematch.")
            return
        existing = await self.table_repo.get_open_by_channel(row.channel_id)
        if existing is not None:
            await self.refuse(interaction, f"This channel already has a table: {self._jump(existing)}")
            return
        try:
            # the new table and its start are one transaction: no half-made rematch
            async with self.db.transaction():
                new_row = await self.table_repo.create_lobby(
                    guild_id=row.guild_id,
                    channel_id=row.channel_id,
                    creator_id=interaction.user.id,
                    game_id=row.game_id,
                    preset=row.preset,
                    seed=self._seed_rng.randrange(1, 2**53),
                    seats=list(row.seats),
                    overrides=row.overrides,
                    # AFK state belongs to the old game
                    settings={k: v for k, v in row.settings.items() if k not in ("away", "misses")},
                )
                version = await self.table_repo.set_status(new_row.id, "active", new_row.version)
        except ChannelBusy:
            await self.refuse(interaction, "This channel already has a table.")
            return
        table = Table.from_row(new_row)
        table.guild_name = old.guild_name if old else (interaction.guild.name if interaction.guild else "")
        table.channel_name = old.channel_name if old else getattr(interaction.channel, "name", "")
        table.creator_id = interaction.user.id
        game, _ = new_game(rules=table.rules, seed=table.seed)
        table.db_version = version
        table.status = "active"
        table.game = game
        self.tables[table.id] = table
        # The game is durable now: every Discord call below may fail without stalling it.
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.edit_message(view=None)
        try:
            message = await self.notifier.post(table.channel_id, self._table_text(table), self._table_view(table))
        except (MessageGone, discord.HTTPException) as exc:
            log.warning("table %s: could not post the rematch table: %s", table.id, exc)
        else:
            table.message_id = message.id
            async with table.lock:
                await self.table_repo.set_message(table.id, message.id)
        await self._send_hands(table)
        self._kick(table)

    async def _reclaim(self, interaction: discord.Interaction[Any], table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await self.refuse(interaction, "You are not playing at this table.")
            return
        async with table.lock:
            if seat not in table.away:
                await self.refuse(interaction, "Your seat is already yours — play on!")
                return
            table.away.discard(seat)
            table.misses[seat] = 0
            await self._save_afk(table)
        self._schedule_table_edit(table)
        self._kick(table)  # before answering: the turn timer must run even if the answer fails
        note = "✅ Welcome back — your seat is yours again."
        if interaction.guild is None and table.game is not None:
            # pressed on the hand DM: that message becomes the live hand again
            content, view = self._hand(table, seat, note)
            try:
                await interaction.response.edit_message(content=content, view=view)
            except discord.HTTPException as exc:
                log.info("could not answer a reclaim (HTTP %s); the seat is back all the same", exc.status)
                self._refresh_hands(table, force=True)
                return
            table.hand_sig[seat] = hand_signature(table, seat, content)
            self._refresh_hands(table, skip=seat)
            return
        self._refresh_hands(table)  # the hand DM goes back from "away" to the live hand
        await self._show_hand(interaction, table, note=note)

    async def _save_afk(self, table: Table) -> None:
        """Persist who is away and their missed turns. Call under the lock.

        Best effort: the game never depends on it (after a failed write, a restart
        only forgets a miss or a takeover).
        """
        settings = dict(table.settings)
        settings["away"] = sorted(table.away)
        settings["misses"] = {str(k): v for k, v in sorted(table.misses.items()) if v}
        if settings == table.settings:
            return
        try:
            table.db_version = await self.table_repo.update_settings(table.id, settings)
        except (StoreError, sqlite3.Error):
            log.warning("table %s: could not save AFK state", table.id, exc_info=True)
            return
        table.settings = settings

    # ================================================================ hands

    async def _show_hand(self, interaction: discord.Interaction[Any], table: Table, note: str = "") -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await self.refuse(interaction, "You are not playing at this table.")
            return
        if table.game is None:
            await self.refuse(interaction, "The game has not started yet.")
            return
        content, view = self._hand(table, seat, note)
        try:
            response = await interaction.response.send_message(content, view=view, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("could not show a hand (HTTP %s)", exc.status)
            return
        if response.message_id is not None:
            self._track_copy(table, seat, HandCopy.of(interaction, response.message_id, hand_signature(table, seat, content)))

    def _hand(self, table: Table, seat: int, note: str = "") -> tuple[str, discord.ui.View]:
        assert table.game is not None
        view = table.game.observe(seat)
        away = seat in table.away and view.phase != "over"
        content = render.hand_message(table.info(), view, note, away=away)
        return content, ui.hand_view(table.id, table.game.version, view, away=away)

    async def _send_hands_quietly(self, table: Table) -> None:
        await self._send_hands(table)

    async def _send_hands(self, table: Table) -> set[int]:
        """DM every human their new hand; returns the user ids whose DMs are closed."""
        closed: set[int] = set()
        game = table.game
        assert game is not None
        tasks = []
        seats = [s for s in range(4) if table.human(s) is not None]
        for seat in seats:
            tasks.append(self._send_hand(table, seat))
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for seat, result in zip(seats, results, strict=True):
            human = table.human(seat)
            assert human is not None
            if result is False:
                closed.add(human.user_id)
            elif isinstance(result, BaseException):
                log.warning("sending the hand to seat %s failed: %r", seat, result)
        return closed

    async def _send_hand(self, table: Table, seat: int) -> bool:
        human = table.human(seat)
        assert human is not None
        content, view = self._hand(table, seat)
        old = table.hand_msgs.get(seat)
        try:
            message = await self.notifier.dm(human.user_id, content, view)
        except DMClosed:
            if seat not in table.dm_closed:
                table.dm_closed.add(seat)
                with contextlib.suppress(MessageGone, discord.HTTPException):
                    await self.notifier.post(
                        table.channel_id,
                        f"⚠️ <@{human.user_id}>, I can't DM you your hand (DMs closed). "
                        f"Press **My hand** on table #{table.id} to play.",
                    )
            self._refresh_copies(table, seat)
            return False
        self._refresh_copies(table, seat)
        table.dm_closed.discard(seat)
        table.hand_msgs[seat] = (message.channel.id, message.id)
        table.hand_sig[seat] = hand_signature(table, seat, content)
        await self.hand_repo.set(table.id, seat, message.channel.id, message.id)
        if old is not None and old[1] != message.id:
            self.notifier.schedule_edit(old[0], old[1], lambda: ("(an earlier deal — your current hand is below)", None))
        return True

    def _refresh_hands(self, table: Table, skip: int | None = None, force: bool = False) -> None:
        """Edit hand messages whose content changed (turn arrived, hand changed): the
        DM and every live "My hand" copy. ``skip``: a seat whose DM was just answered
        in place (its copies are still brought up to date)."""
        if table.game is None:
            return
        for seat in range(4):
            if table.human(seat) is None:
                continue
            self._refresh_copies(table, seat)
            if seat == skip:
                continue
            content, _ = self._hand(table, seat)
            sig = hand_signature(table, seat, content)
            if not force and table.hand_sig.get(seat) == sig:
                continue
            table.hand_sig[seat] = sig
            target = table.hand_msgs.get(seat)

            def make(seat: int = seat) -> tuple[str, discord.ui.View | None]:
                return self._hand(table, seat)

            async def gone(seat: int = seat, target: tuple[int, int] | None = target) -> None:
                # The DM hand message is unreachable (deleted, or the DM channel reset): send a new one.
                if table.hand_msgs.get(seat) != target or table.status != "active":
                    return
                del table.hand_msgs[seat]
                try:
                    await self._send_hand(table, seat)
                except (StoreError, sqlite3.Error, discord.HTTPException) as exc:
                    log.warning("table %s: could not resend seat %s's hand: %r", table.id, seat, exc)

            if target is not None:
                self.notifier.schedule_edit(target[0], target[1], make, gone)

    def _track_copy(self, table: Table, seat: int, copy: HandCopy) -> None:
        """Keep ``copy`` (a hand just shown or answered ephemerally) up to date from now on."""
        copies = table.fallback.setdefault(seat, {})
        old = copies.pop(copy.message_id, None)
        if old is not None:
            copy.task = old.task  # an edit in flight renders the latest state when it loops
        copies[copy.message_id] = copy
        while len(copies) > HAND_COPIES:
            del copies[next(iter(copies))]

    def _refresh_copies(self, table: Table, seat: int) -> None:
        """Bring ``seat``'s live "My hand" copies up to date; forget expired ones."""
        copies = table.fallback.get(seat)
        if not copies:
            return
        for message_id, copy in list(copies.items()):
            if copy.expired():
                del copies[message_id]
            elif copy.task is None or copy.task.done():
                copy.task = self._own(self._edit_fallback(table, seat, copy))
        if not copies:
            del table.fallback[seat]

    @staticmethod
    def _copy_edit(copy: HandCopy, content: str, view: discord.ui.View) -> Callable[[], Coroutine[Any, Any, Any]]:
        def edit() -> Coroutine[Any, Any, Any]:
            return copy.webhook.edit_message(copy.message_id, content=content, view=view)

        return edit

    async def _edit_fallback(self, table: Table, seat: int, copy: HandCopy) -> None:
        """Edit one ephemeral copy until it shows the current state (one edit in flight per copy)."""
        while table.game is not None and not copy.expired():
            content, view = self._hand(table, seat)
            sig = hand_signature(table, seat, content)
            if sig == copy.sig:
                return
            try:
                await call(self._copy_edit(copy, content, view), f"table {table.id} seat {seat} My hand copy")
            except discord.HTTPException as exc:
                log.info("table %s: could not edit seat %s's My hand copy (HTTP %s)", table.id, seat, exc.status)
                if isinstance(exc, discord.NotFound):
                    break  # token expired or message gone: the player presses My hand again
                return
            copy.sig = sig
        copies = table.fallback.get(seat, {})
        if copies.get(copy.message_id) is copy:
            del copies[copy.message_id]

    # ================================================================ actions

    async def on_action(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        seat: int,
        actions: Sequence[Action],
    ) -> None:
        """A card or decision button was clicked."""
        started = time.perf_counter()
        table = self.tables.get(table_id)
        if table is None or table.status != "active" or table.game is None:
            lost = self._lost_race(table, version, seat, interaction.user.id) if table is not None else None
            await self.refuse(interaction, lost or "This game has ended.")  # lost: a double click on the last card
            return
        mine = table.seat_of(interaction.user.id)
        if mine is None:
            log.debug("user %s clicked a control of table %s, where they do not sit", interaction.user.id, table_id)
            await self.refuse(interaction, "You are not playing at this table.")
            return
        if mine != seat:
            log.debug("user %s clicked seat %s's control at table %s", interaction.user.id, seat, table_id)
            await self.refuse(interaction, "That is not your hand.")
            return
        # The lock covers the engine and the database only. If the commit has to wait
        # (another writer holds the database), the click is deferred before Discord's
        # 3 s run out, and answered when the action is durable.
        work = asyncio.ensure_future(self._play(table, seat, version, actions, interaction))
        try:
            outcome = await asyncio.wait_for(asyncio.shield(work), ACK_WITHIN)
            deferred = False
        except TimeoutError:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.defer()
            deferred = True
            outcome = await work
        if isinstance(outcome, str):
            await self.refuse(interaction, outcome)
            return
        content, view = outcome
        try:
            if deferred:
                await interaction.edit_original_response(content=content, view=view)
            else:
                await interaction.response.edit_message(content=content, view=view)
        except discord.HTTPException as exc:
            log.info("interaction answer failed (HTTP %s); the move is saved", exc.status)
            self._unanswered_copy(table, seat, interaction)
        self._note_ack(started)

    async def _play(
        self,
        table: Table,
        seat: int,
        version: int,
        actions: Sequence[Action],
        interaction: discord.Interaction[Any],
    ) -> str | tuple[str, discord.ui.View]:
        """Under the lock: check and commit a click's actions durably, then fan out.

        Returns the refusal to show, or the hand to answer the click with (the clicked
        copy is already counted as showing it; see :meth:`_unanswered_copy`).
        """
        user_id = interaction.user.id
        async with table.lock:
            game = table.game
            if table.status != "active" or game is None:
                return self._lost_race(table, version, seat, user_id) or "This game has ended."
            if version != game.version:
                lost = self._lost_race(table, version, seat, user_id)
                if lost is not None:
                    return lost
                if game.to_act() == seat and seat not in table.away:
                    content, view = self._hand(table, seat, "That button was from an earlier turn — here is your hand now.")
                    self._answered_copy(table, seat, interaction, content)
                    return content, view
                return "That hand has moved on — those buttons are from an earlier turn."
            if seat in table.away:
                return "The AI is playing for you — press **Take my seat back** (on your hand or the table) first."
            try:
                events = await self._commit(table, seat, actions, user_id)
            except IllegalAction as exc:
                return exc.reason
            except (StoreError, sqlite3.Error):
                log.exception("could not store an action at table %s", table.id)
                return "Something went wrong saving that — nothing changed, please try again."
            content, view = self._hand(table, seat)
            self._answered_copy(table, seat, interaction, content)
            if table.misses.get(seat):
                table.misses[seat] = 0  # the player is back: consecutive misses start over
                await self._save_afk(table)
            # every other copy of this hand (the DM or the My hand copy) follows by signature
            self._after(table, events, actor_seat=None)
            return content, view

    def _unanswered_copy(self, table: Table, seat: int, interaction: discord.Interaction[Any]) -> None:
        """The answer to a click did not arrive: its copy shows an older state; edit it."""
        message = interaction.message
        if message is None:
            return
        dm = table.hand_msgs.get(seat)
        if dm is not None and dm[1] == message.id:
            table.hand_sig.pop(seat, None)
        else:
            table.fallback.get(seat, {}).pop(message.id, None)
        self._refresh_hands(table)

    def _answered_copy(self, table: Table, seat: int, interaction: discord.Interaction[Any], content: str) -> None:
        """Note that the copy of ``seat``'s hand that was clicked now shows ``content``."""
        message = interaction.message
        if message is None:
            return
        sig = hand_signature(table, seat, content)
        dm = table.hand_msgs.get(seat)
        if dm is not None and dm[1] == message.id:
            table.hand_sig[seat] = sig
        elif message.flags.ephemeral:
            self._track_copy(table, seat, HandCopy.of(interaction, message.id, sig))  # a fresh token: 15 more minutes

    @staticmethod
    def _lost_race(table: Table, version: int, seat: int, user_id: int) -> str | None:
        """What to tell a click on ``seat``'s turn at ``version`` that someone else already took."""
        for before, who, actor in table.moves:
            if before == version and who == seat:
                if actor == user_id:
                    return "✋ Already played — only your first click counts."
                if actor is None:
                    return "⏰ Too late — the AI already played that turn for you."
        return None

    async def on_discard_select(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int,
        seat: int,
        values: Sequence[str],
    ) -> None:
        """The ruffer chose the cards to lay out."""
        try:
            cards = [Card.parse(v) for v in values]
        except CardParseError:
            await self.refuse(interaction, "That is not a card.")
            return
        if not cards:
            await self.refuse(interaction, "Choose the cards to lay out.")
            return
        if len(set(cards)) != len(cards):
            await self.refuse(interaction, "Choose different cards.")
            return
        table = self.tables.get(table_id)
        game = table.game if table else None
        if game is not None and game.phase == "discard" and len(cards) != game.discards_left:
            await self.refuse(interaction, f"Choose exactly {game.discards_left} cards to lay out.")
            return
        await self.on_action(interaction, table_id, version, seat, [discard(c) for c in cards])

    async def _commit(
        self, table: Table, seat: int, actions: Sequence[Action], actor_id: int | None
    ) -> list[Event]:
        """Check on a copy, write durably, then adopt the copy. Call under the lock."""
        game = table.game
        assert game is not None
        trial = game.clone()
        events: list[Event] = []
        for action in actions:
            events.extend(trial.apply(seat, action))  # IllegalAction: nothing written
        entries = [NewAction(seat, a.encode(), actor_id) for a in actions]
        async with self.db.transaction():
            version = await self.action_repo.append(table.id, table.db_version, entries)
            if trial.is_over:
                version = await self.table_repo.set_status(table.id, "finished", version)
                await self.result_repo.record_game(table.id, table.guild_id, self._results(table, trial))
                await self.deadline_repo.clear(table.id)
        table.db_version = version
        table.game = trial
        table.moves.append((game.version, seat, actor_id))
        if trial.is_over:
            table.status = "finished"
        return events

    def _results(self, table: Table, game: Game) -> list[PlayerResult]:
        winner = game.match_winner
        rows = []
        for seat in range(4):
            human = table.human(seat)
            if human is None:
                continue
            side = seat % 2
            rows.append(
                PlayerResult(
                    user_id=human.user_id,
                    name=human.name,
                    side=side,
                    won=side == winner,
                    points=game.scores[side],
                    opp_points=game.scores[1 - side],
                )
            )
        return rows

    def _after(self, table: Table, events: list[Event], actor_seat: int | None) -> None:
        """Fan out the events of one commit, whoever made it (a click, the AI, a timer):
        public lines, summaries, hand DMs, the table edit, then the next turn's AI or timer.

        ``actor_seat`` is the seat whose hand the click's own answer already shows.
        """
        table.recent.extend(render.event_lines(table.info(), events))
        summary_events = [e for e in events if isinstance(e, (DealScored, HonoursScored, GameOver, MatchOver))]
        if summary_events:
            summary = render.deal_summary(table.info(), summary_events)
            if summary:
                self._own(self._post_quietly(table, summary))
        if any(isinstance(e, TrickWon) for e in events):
            table.recent.clear()
        new_deal = any(isinstance(e, DealStarted) for e in events)
        if table.status == "finished":
            # never cancel the task we run in (the AI driver commits through here too)
            self._stop_tasks(table, keep_ai=asyncio.current_task() is table.ai_task)
            self._schedule_table_edit(table)
            self._refresh_hands(table, skip=actor_seat)
            self._retire(table)
            return
        if new_deal:
            table.recent.clear()
            self._own(self._send_hands_quietly(table))
        else:
            self._refresh_hands(table, skip=actor_seat)
        self._schedule_table_edit(table)
        self._kick(table)

    async def _post_quietly(self, table: Table, content: str) -> None:
        try:
            await self.notifier.post(table.channel_id, content)
        except (MessageGone, discord.HTTPException) as exc:
            log.warning("could not post a summary at table %s: %s", table.id, exc)

    # ================================================================ table message

    def _table_text(self, table: Table) -> str:
        game = table.game
        if game is None:
            return self._lobby_text(table)
        view = game.observe(0)
        if game.is_over:
            return render.final_text(table.info(), view)
        return render.table_text(table.info(), view, list(table.recent))

    def _table_view(self, table: Table) -> discord.ui.View | None:
        if table.status == "finished":
            return ui.finished_view(table.id)
        if table.status == "cancelled":
            return None
        if table.status == "lobby":
            return ui.lobby_view(table.id)
        return ui.table_view(table.id, show_reclaim=bool(table.away))

    def _schedule_table_edit(self, table: Table) -> None:
        if table.message_id is None:
            return

        def make() -> tuple[str, discord.ui.View | None]:
            return self._table_text(table), self._table_view(table)

        async def gone() -> None:
            await self._repost_table(table)

        self.notifier.schedule_edit(table.channel_id, table.message_id, make, gone)

    async def _mark_cancelled(self, table: Table) -> bool:
        """Durably cancel ``table`` (status and deadline in one transaction). Call under its lock."""
        try:
            async with self.db.transaction():
                version = await self.table_repo.set_status(table.id, "cancelled")
                await self.deadline_repo.clear(table.id)
        except (StoreError, sqlite3.Error):
            log.exception("table %s: could not cancel", table.id)
            return False
        table.db_version = version
        table.status = "cancelled"
        self._retire(table)
        return True

    async def _repost_table(self, table: Table) -> None:
        """The table message was deleted: post a fresh one, or cancel if the channel is gone."""
        if table.status not in ("active", "lobby"):
            return
        try:
            message = await self.notifier.post(table.channel_id, self._table_text(table), self._table_view(table))
        except MessageGone:
            log.warning("table %s: channel unusable, cancelling", table.id)
            async with table.lock:
                if table.status not in ("active", "lobby"):
                    return
                if not await self._mark_cancelled(table):
                    return
                self._stop_tasks(table)
            for channel_id, message_id in list(table.hand_msgs.values()):
                self.notifier.schedule_edit(
                    channel_id, message_id, lambda: (f"Table #{table.id} was cancelled: its channel is gone.", None)
                )
            return
        except discord.HTTPException as exc:
            log.warning("table %s: could not repost its message (HTTP %s); the next change retries", table.id, exc.status)
            return
        table.message_id = message.id
        await self.table_repo.set_message(table.id, message.id)

    # ================================================================ AI and timers

    def _kick(self, table: Table, due: float | None = None) -> None:
        """After every turn change: run the AI for an AI seat, else arm the human's turn timer."""
        if self._closing or table.status != "active" or table.game is None or table.game.is_over:
            return
        seat = table.game.to_act()
        if seat is None:
            return
        if table.ai_plays(seat):
            self._cancel_timer(table)
            if table.ai_task is None or table.ai_task.done():
                table.ai_task = asyncio.create_task(self._drive_ai(table), name=f"ai-{table.id}")
        else:
            self._arm_turn_timer(table, seat, due)

    async def _drive_ai(self, table: Table) -> None:
        """Play the AI seats' turns until a human is to act. Supervised: a failed step
        (e.g. "database is locked" during the commit) is retried with backoff, so the
        table always moves on."""
        failures = 0
        while not self._closing:
            try:
                if not await self._ai_step(table):
                    return
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures += 1
                delay = retry_backoff(failures)
                log.warning(
                    "AI move at table %s failed (%s: %s); retrying in %.2f s (attempt %d)",
                    table.id, type(exc).__name__, exc, delay, failures,
                    exc_info=not isinstance(exc, (sqlite3.Error, StoreError)),
                )
                await asyncio.sleep(delay)

    async def _ai_step(self, table: Table) -> bool:
        """One AI move; False when there is nothing (more) for the AI to do."""
        if table.status != "active" or table.game is None or table.game.is_over:
            return False
        game = table.game
        seat = game.to_act()
        if seat is None or not table.ai_plays(seat):
            self._kick(table)
            return False
        if self.settings.ai_delay > 0:
            await asyncio.sleep(self.settings.ai_delay)
        if table.game is not game:
            return True
        version = game.version
        view = game.observe(seat)
        action = await self.ai.choose(table.ai_level(seat), view, view.legal, f"{table.seed}:ai:{version}")
        async with table.lock:
            if (
                table.game is not game
                or game.version != version
                or table.status != "active"
                or not table.ai_plays(seat)  # the player took the seat back meanwhile
            ):
                return True
            try:
                events = await self._commit(table, seat, [action], None)
            except IllegalAction:
                log.exception("AI chose an illegal action at table %s; playing the first legal one", table.id)
                events = await self._commit(table, seat, [view.legal[0]], None)
            self._after(table, events, actor_seat=None)
        return True

    def _turn_timeout(self, table: Table) -> float:
        return float(table.settings.get("turn_timeout", self.settings.turn_timeout) or 0)

    def _arm_turn_timer(self, table: Table, seat: int, due: float | None = None) -> None:
        """Start the AFK timer of ``seat``'s turn, replacing the table's previous timer.

        ``due`` (epoch seconds, ``utcnow`` clock) re-arms a stored deadline after a
        restart; otherwise the turn gets the full timeout. A public reminder goes out
        when a third of the time is left; on expiry the AI plays the turn, and after
        ``afk_takeover_after`` expiries in a row it keeps the seat until the player
        presses **Take my seat back**.
        """
        timeout = self._turn_timeout(table)
        if timeout <= 0:
            return
        self._cancel_timer(table)
        table.timer_task = asyncio.create_task(
            self._turn_timer(table, seat, table.version, timeout, due), name=f"turn-{table.id}"
        )

    async def _turn_timer(self, table: Table, seat: int, version: int, timeout: float, due: float | None) -> None:
        now = discord.utils.utcnow().timestamp()
        if due is None:
            due = now + timeout
            try:
                await self.deadline_repo.set(table.id, "turn", due, seat)
            except (StoreError, sqlite3.Error):
                log.warning("table %s: could not store the turn deadline", table.id, exc_info=True)
        table.deadline = due
        left = timeout * TURN_WARNING_LEFT
        if timeout >= TURN_WARNING_MIN and due - now > left:
            await asyncio.sleep(due - left - now)
            human = table.human(seat)
            if human is not None and self._turn_is(table, seat, version):
                self._own(
                    self._post_quietly(
                        table, f"⏳ <@{human.user_id}>, {round(left)} s left to play at table #{table.id}."
                    )
                )
        await asyncio.sleep(max(0.0, due - discord.utils.utcnow().timestamp()))
        # Shielded: cancelling the timer (a click arrived) must never cut a commit in half.
        await asyncio.shield(self._turn_expired(table, seat, version))

    @staticmethod
    def _turn_is(table: Table, seat: int, version: int) -> bool:
        """True while the game still waits for the human at ``seat`` at ``version``."""
        game = table.game
        return (
            table.status == "active"
            and game is not None
            and game.version == version
            and game.to_act() == seat
            and not table.ai_plays(seat)
        )

    async def _turn_expired(self, table: Table, seat: int, version: int) -> None:
        """Time is up: the AI plays ``seat``'s turn, unless a click got there first."""
        try:
            game = table.game
            if game is None or not self._turn_is(table, seat, version):
                return
            actions = await self._choose_turn(table, game, seat)
            async with table.lock:
                # Re-check under the lock: a click, a reclaim or a cancel may have won.
                if table.game is not game or not self._turn_is(table, seat, version):
                    return
                events = await self._commit(table, seat, actions, None)
                misses = table.misses[seat] = table.misses.get(seat, 0) + 1
                takeover = misses >= self.settings.afk_takeover_after
                if takeover:
                    table.away.add(seat)
                await self._save_afk(table)
                human = table.human(seat)
                who = human.name if human else SEAT_NAMES[seat]
                self._after(table, events, actor_seat=None)
                if takeover and table.status == "active":
                    table.recent.append(f"⏰ {who} is away: the AI plays for them.")
                    mention = f"<@{human.user_id}>" if human else who
                    self._own(
                        self._post_quietly(
                            table,
                            f"⏰ {mention} missed {misses} turns in a row: the AI plays for them until they "
                            f"press **Take my seat back** on table #{table.id}.",
                        )
                    )
                elif table.status == "active":
                    table.recent.append(f"⏰ {who} ran out of time: the AI played for them.")
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # Supervised: retry the expiry soon with backoff (not a whole new turn).
            table.timer_failures += 1
            delay = retry_backoff(table.timer_failures)
            log.warning(
                "turn timer of table %s failed (%s: %s); retrying in %.2f s",
                table.id, type(exc).__name__, exc, delay,
                exc_info=not isinstance(exc, (sqlite3.Error, StoreError)),
            )
            if self._turn_is(table, seat, version) and not self._closing:
                self._arm_turn_timer(table, seat, due=discord.utils.utcnow().timestamp() + delay)
        else:
            table.timer_failures = 0

    async def _choose_turn(self, table: Table, game: Game, seat: int) -> list[Action]:
        """The AI's play for a human's timed-out turn (a whole ruff exchange is one turn)."""
        level = table.ai_level(seat)
        trial = game.clone()
        actions: list[Action] = []
        while True:
            view = trial.observe(seat)
            legal = list(view.legal)
            action = await self.ai.choose(level, view, legal, f"{table.seed}:ai:{game.version}:{len(actions)}")
            try:
                trial.apply(seat, action)
            except IllegalAction:
                log.exception("AI chose an illegal action at table %s; playing the first legal one", table.id)
                action = legal[0]
                trial.apply(seat, action)
            actions.append(action)
            if trial.is_over or trial.to_act() != seat or trial.phase != "discard":
                return actions

    def _arm_lobby_timer(self, table: Table, due: float | None = None) -> None:
        """Expire the lobby (freeing the channel) if it has not started by ``due``."""
        timeout = self.settings.lobby_timeout
        if timeout <= 0:
            return
        self._cancel_timer(table)
        table.timer_task = asyncio.create_task(self._lobby_timer(table, timeout, due), name=f"lobby-{table.id}")

    async def _lobby_timer(self, table: Table, timeout: float, due: float | None) -> None:
        if due is None:
            due = discord.utils.utcnow().timestamp() + timeout
            try:
                await self.deadline_repo.set(table.id, "lobby", due)
            except (StoreError, sqlite3.Error):
                log.warning("table %s: could not store the lobby deadline", table.id, exc_info=True)
        await asyncio.sleep(max(0.0, due - discord.utils.utcnow().timestamp()))
        async with table.lock:
            if table.status != "lobby":
                return
            if not await self._mark_cancelled(table):
                return
        if table.message_id:
            with contextlib.suppress(MessageGone, discord.HTTPException):
                await self.notifier.edit(
                    table.channel_id,
                    table.message_id,
                    render.header(table.info()) + "\n⌛ This table expired before it started.",
                    None,
                )

    def _cancel_timer(self, table: Table) -> None:
        current = asyncio.current_task()
        if table.timer_task is not None and not table.timer_task.done() and table.timer_task is not current:
            table.timer_task.cancel()
        table.timer_task = None
        table.deadline = None

    def _stop_tasks(self, table: Table, keep_ai: bool = False) -> None:
        self._cancel_timer(table)
        current = asyncio.current_task()
        if not keep_ai and table.ai_task is not None and not table.ai_task.done() and table.ai_task is not current:
            table.ai_task.cancel()

    # ================================================================ helpers

    def _retire(self, table: Table) -> None:
        """A finished or cancelled table leaves memory :data:`ENDED_KEPT` seconds later
        (its row stays in the database; late clicks are answered from there)."""
        self._own(self._forget_later(table.id))

    async def _forget_later(self, table_id: int) -> None:
        # holds only the id: the game itself must not outlive its table in memory
        await asyncio.sleep(ENDED_KEPT)
        table = self.tables.get(table_id)
        if table is not None and table.status in ("finished", "cancelled"):
            del self.tables[table_id]

    def _forget_ended(self) -> None:
        """Drop finished and cancelled tables: their rows are in the database, and a
        click on their old buttons is answered from there ("This table has ended")."""
        for table_id in [t.id for t in self.tables.values() if t.status in ("finished", "cancelled")]:
            del self.tables[table_id]

    def _table_in_channel(self, interaction: discord.Interaction[Any]) -> Table | None:
        channel_id = interaction.channel.id if interaction.channel else None
        return next(
            (t for t in self.tables.values() if t.channel_id == channel_id and t.status in ("lobby", "active")),
            None,
        )

    def table_for_user(self, user_id: int) -> Table | None:
        return next((t for t in self.tables.values() if t.status == "active" and t.seat_of(user_id) is not None), None)


__all__ = ["GameManager", "Table", "parse_options", "preset_choices"]
