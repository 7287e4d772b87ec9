"""The slash commands that read rather than play: ``/ruff hand``, ``rules``,
``leaderboard`` and ``stats`` (``/ruff cancel`` finds the table and hands over
to the lobby)."""

from __future__ import annotations

from typing import Any

import discord

from engine import RulesError, game_ids, make_rules

from . import components as ui
from . import render
from .lobby import Lobby
from .presenter import Presenter
from .replies import refuse, reply
from .services import Services
from .tables import LEADERBOARD_PAGE

__all__ = ["Info"]


class Info:
    """Answers the read-only commands."""

    def __init__(self, svc: Services, presenter: Presenter, lobby: Lobby) -> None:
        self.svc = svc
        self.presenter = presenter
        self.lobby = lobby

    def _channel_id(self, interaction: discord.Interaction[Any]) -> int | None:
        return interaction.channel.id if interaction.channel else None

    async def cancel_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/ruff cancel``: end this channel's table (opener or Manage Server)."""
        table = self.svc.tables.open_in_channel(self._channel_id(interaction))
        if table is None:
            await refuse(interaction, "There is no open table in this channel.")
            return
        await self.lobby.cancel(interaction, table, respond_by_edit=False)

    async def hand_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/ruff hand``: show my hand ephemerally (the fallback for closed DMs)."""
        user_id = interaction.user.id
        table = self.svc.tables.open_in_channel(self._channel_id(interaction))
        if table is None or table.seat_of(user_id) is None:
            table = self.svc.tables.playing(user_id, interaction.guild.id if interaction.guild else None)
        if table is None:
            await refuse(interaction, "You are not playing at any table right now.")
            return
        await self.presenter.show_hand(interaction, table)

    async def rules_command(self, interaction: discord.Interaction[Any], game_id: str | None, preset: str | None) -> None:
        """``/ruff rules``: the rules of this channel's table, or of a named game."""
        table = self.svc.tables.open_in_channel(self._channel_id(interaction))
        try:
            if game_id:
                rules = make_rules(game_id, preset)
            elif table is not None:
                rules = table.rules
            else:
                rules = make_rules()
        except RulesError as exc:
            await refuse(interaction, f"⚠️ {exc}")
            return
        text = render.rules_text(rules)
        if not game_id and table is None:
            text += "\nOther games: " + ", ".join(f"`{g}`" for g in game_ids())
        await reply(interaction, text)

    async def leaderboard(self, interaction: discord.Interaction[Any], page: int) -> None:
        """``/ruff leaderboard``: this server's players, ranked, 10 a page."""
        if interaction.guild is None:
            await refuse(interaction, "The leaderboard is per server — use it in a server channel.")
            return
        text, view = await self._leaderboard_page(interaction.guild.id, interaction.guild.name, page)
        if view is None:
            await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.response.send_message(text, view=view, allowed_mentions=discord.AllowedMentions.none())

    async def on_leaderboard_page(self, interaction: discord.Interaction[Any], page: int) -> None:
        if interaction.guild is None:
            await refuse(interaction, "The leaderboard is per server.")
            return
        text, view = await self._leaderboard_page(interaction.guild.id, interaction.guild.name, page)
        await interaction.response.edit_message(content=text, view=view)

    async def _leaderboard_page(self, guild_id: int, guild_name: str, page: int) -> tuple[str, discord.ui.View | None]:
        results = self.svc.result_repo
        total = await results.count_players(guild_id)
        pages = max(1, -(-total // LEADERBOARD_PAGE))
        page = min(max(page, 0), pages - 1)
        rows = await results.leaderboard(guild_id, LEADERBOARD_PAGE, page * LEADERBOARD_PAGE)
        if not rows:
            return f"🏆 **Leaderboard — {guild_name}**\nNo finished games yet. Start one with `/ruff new`.", None
        lines = [
            f"🏆 **Leaderboard — {guild_name}** (page {page + 1}/{pages})",
            "`  # player               games  wins   win%  points`",
        ]
        for r in rows:
            lines.append(f"`{r.rank:>3} {r.name[:20]:<20} {r.games:>6} {r.wins:>5} {r.win_pct:>6.1f} {r.points:>7}`")
        return "\n".join(lines), ui.leaderboard_view(page, pages)

    async def stats(self, interaction: discord.Interaction[Any], user: discord.abc.User | None) -> None:
        """``/ruff stats``: one player's record in this server."""
        if interaction.guild is None:
            await refuse(interaction, "Stats are per server — use this in a server channel.")
            return
        target = user or interaction.user
        stats = await self.svc.result_repo.player_stats(interaction.guild.id, target.id)
        if stats is None:
            await reply(interaction, f"{target.display_name} has not finished a game here yet.")
            return
        await reply(
            interaction,
            f"📊 **{target.display_name}** in {interaction.guild.name}: rank #{stats.rank} · "
            f"{stats.games} games · {stats.wins} wins ({stats.win_pct:.1f}%) · {stats.points} points",
        )
