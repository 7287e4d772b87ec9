"""``/ruff record`` and ``/ruff replay``: hand records and trick-by-trick replays of finished games.

A finished game is its table row and its action log (:mod:`bot.store`); both
commands rebuild it in the engine (:func:`engine.export.game_log`) and never
touch a table in play.

* ``/ruff record [table]`` answers with two files: ``ruff-table-<id>.json``
  (the project's own export, lossless: :func:`engine.export.to_json`) and
  ``ruff-table-<id>.pbn`` (PBN-style text for other programs:
  :func:`engine.export.to_pbn`).
* ``/ruff replay [table]`` answers with the first trick of the game and ◀ ▶
  buttons (``rh:r:<table>:<step>``, :mod:`bot.present.replay`); a click redraws the same
  message at the step its button names, clamped to the game's tricks.

Without ``table`` both take the last finished game the invoking player played in
this server. Both answer **ephemerally**: the files and the stepping are one
person's business (a public replay message would be stepped by everyone at once,
and files posted on demand would bury the channel's tables); the game is over,
so nothing in them is secret, and anyone in the server can ask for the same
table by its id. Refused, with a short private answer: a table id that does not
exist, a table of another server (answered like one that does not exist, so ids
do not reveal other servers' games), a game still in the lobby or in play, a
cancelled one, a command outside a server, and a log this version cannot
replay. A replay button of another server's table is refused the same way.

Finished games never change, so the replayed log of the last few tables asked
for is kept (:data:`CACHE_SIZE`) and a click does not replay the game again.
"""

from __future__ import annotations

import io
import logging
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import discord

from bot.present import replay
from bot.present.i18n import _, ngettext
from bot.present.notify import release_view
from bot.present.replies import refuse
from bot.store import AISeat, HumanSeat, TableRow
from bot.tables.privacy import deal_visible_to, is_board
from bot.tables.services import Services
from engine import GameLog, dumps_json, game_log, to_json, to_pbn

log = logging.getLogger(__name__)

__all__ = ["CACHE_SIZE", "Finished", "Records", "seat_names"]

CACHE_SIZE: Final = 16


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished table: its row, the engine record, its players' names and the replayed log."""

    row: TableRow
    record: dict[str, Any]
    names: tuple[str, ...]
    log: GameLog


class _Refused(Exception):
    """Why a table cannot be recorded or replayed (the text answers the user)."""


def seat_names(row: TableRow) -> tuple[str, ...]:
    """Each seat's player as the records name them: a person's name, an AI's name and level."""
    names: list[str] = []
    for seat in row.seats:
        if isinstance(seat, HumanSeat):
            names.append(seat.name)
        elif isinstance(seat, AISeat):
            names.append(f"{seat.name}, AI {seat.ai}")
        else:
            names.append("—")
    return tuple(names)


def _someone_elses_board(row: TableRow, user_id: int) -> bool:
    """A board played by someone else: answered as if it were not there (the rule of
    :mod:`bot.tables.privacy`; the other refusals need the table to exist)."""
    return is_board(row) and not deal_visible_to(row, user_id)


class Records:
    """Answers ``/ruff record``, ``/ruff replay`` and the replay's buttons."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self._cache: OrderedDict[int, Finished] = OrderedDict()

    # ------------------------------------------------------------ finding the game

    async def _find(self, interaction: discord.Interaction[Any], table_id: int | None) -> Finished:
        guild = interaction.guild
        if guild is None:
            raise _Refused(_("Records and replays are per server — use this in a server channel."))
        if table_id is None:
            table_id = await self.svc.result_repo.last_table(guild.id, interaction.user.id)
            if table_id is None:
                raise _Refused(
                    _(
                        "You have not finished a game in this server yet — give a table number, e.g. `table: 12`."
                    )
                )
        cached = self._cache.get(table_id)
        if cached is not None:
            if cached.row.guild_id != guild.id or _someone_elses_board(
                cached.row, interaction.user.id
            ):
                raise _Refused(
                    _("There is no table #{table} in this server.").format(table=table_id)
                )
            self._cache.move_to_end(table_id)
            return cached
        row = await self.svc.table_repo.get(table_id)
        if (
            row is None
            or row.guild_id != guild.id
            or _someone_elses_board(row, interaction.user.id)
        ):
            raise _Refused(_("There is no table #{table} in this server.").format(table=table_id))
        if row.status == "cancelled":
            raise _Refused(
                _("Table #{table} was cancelled before its game ended: there is no record.").format(
                    table=table_id
                )
            )
        if row.status != "finished":
            raise _Refused(
                _(
                    "Table #{table} has not finished yet — its record is ready when the game ends."
                ).format(table=table_id)
            )
        actions = await self.svc.action_repo.list(table_id)
        record = row.record(actions)
        try:
            game_log_ = game_log(record)
        except Exception:
            log.warning("table %s: its log does not replay for a record", table_id, exc_info=True)
            raise _Refused(
                _("Table #{table} cannot be replayed by this version of the bot.").format(
                    table=table_id
                )
            ) from None
        finished = Finished(row, record, seat_names(row), game_log_)
        self._cache[table_id] = finished
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return finished

    # ------------------------------------------------------------ /ruff record

    async def record_command(
        self, interaction: discord.Interaction[Any], table_id: int | None
    ) -> None:
        """``/ruff record``: the finished game as a ``.json`` and a ``.pbn`` file, privately."""
        try:
            found = await self._find(interaction, table_id)
        except _Refused as exc:
            await refuse(interaction, str(exc))
            return
        row = found.row
        guild_name = interaction.guild.name if interaction.guild else "?"
        finished_at = datetime.fromtimestamp(row.updated_at, UTC)
        meta = {
            "table_id": row.id,
            "server": guild_name,
            "channel_id": row.channel_id,
            "finished_at": finished_at.isoformat(timespec="seconds"),
        }
        data = to_json(found.record, found.names, meta, log=found.log)
        pbn = to_pbn(
            found.record,
            found.names,
            site=f"Discord: {guild_name}",
            date=finished_at.strftime("%Y.%m.%d"),
            log=found.log,
        )
        files = [
            discord.File(
                io.BytesIO(dumps_json(data).encode()), filename=f"ruff-table-{row.id}.json"
            ),
            discord.File(io.BytesIO(pbn.encode()), filename=f"ruff-table-{row.id}.pbn"),
        ]
        await interaction.response.send_message(
            _summary(found, finished_at),
            files=files,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ------------------------------------------------------------ /ruff replay

    async def replay_command(
        self, interaction: discord.Interaction[Any], table_id: int | None
    ) -> None:
        """``/ruff replay``: the game's first trick, privately, with ◀ ▶."""
        try:
            found = await self._find(interaction, table_id)
        except _Refused as exc:
            await refuse(interaction, str(exc))
            return
        text, view = self._step(found, 0)
        kwargs: dict[str, Any] = {
            "ephemeral": True,
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if view is not None:
            kwargs["view"] = view
        try:
            await interaction.response.send_message(text, **kwargs)
        finally:
            release_view(view)

    async def on_replay_step(
        self, interaction: discord.Interaction[Any], table_id: int, step: int
    ) -> None:
        """A ◀ or ▶ click: redraw the replay at ``step`` (clamped)."""
        try:
            found = await self._find(interaction, table_id)
        except _Refused as exc:
            await refuse(interaction, str(exc))
            return
        text, view = self._step(found, step)
        try:
            await interaction.response.edit_message(content=text, view=view)
        finally:
            release_view(view)

    @staticmethod
    def _step(found: Finished, step: int) -> tuple[str, discord.ui.View | None]:
        total = len(found.log.tricks)
        step = replay.clamp_step(step, total) if total else 0
        title = found.log.game.rules.title
        text = replay.step_text(found.row.id, title, found.names, found.log, step)
        starts = replay.deal_starts(found.log)
        names = [replay.deal_name(found.log.tricks[first][0]) for first in starts]
        return text, replay.replay_view(found.row.id, step, total, starts, names)


def _summary(found: Finished, finished_at: datetime) -> str:
    game = found.log.game
    deals = len(found.log.deals)
    tricks = len(found.log.tricks)
    head = _(
        "📜 **Table #{table}** — {title} (`{game}`, preset `{preset}`), finished {date}: {deals}, {tricks}."
    ).format(
        table=found.row.id,
        title=game.rules.title,
        game=game.rules.game_id,
        preset=game.rules.preset,
        date=f"{finished_at:%Y-%m-%d}",
        deals=ngettext("{n} deal", "{n} deals", deals).format(n=deals),
        tricks=ngettext("{n} trick", "{n} tricks", tricks).format(n=tricks),
    )
    return (
        head
        + "\n"
        + _(
            "`.json`: the full record (replays in the bot's engine) · `.pbn`: the deals for other card programs. "
            "Step through it here with `/ruff replay table:{table}`."
        ).format(table=found.row.id)
    )
