"""A server's switches and a player's own options: ``/ruff settings`` and
``/ruff options`` (answered privately by ``settings.py``). A changed table
language reaches the server's tables in memory from their next change.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord_ui.presenter import Presenter
from bot.features import Feature
from bot.features.settings.settings import options_command, settings_command
from bot.present.i18n import LANGUAGES, N_
from bot.tables.services import Services

__all__ = ["build"]


def build(svc: Services, presenter: Presenter) -> Feature:
    """The feature, keeping its switches in ``svc``'s server settings and player
    options; the tables whose language changes are redrawn by ``presenter``."""

    @app_commands.command(
        name="settings",
        description=N_("This server's settings (changing them needs Manage Server)"),
    )
    @app_commands.describe(
        pictures=N_("Show a picture of the table and the final score chart"),
        language=N_(
            "The language of the tables here (each player's own messages follow their Discord language)"
        ),
    )
    @app_commands.choices(
        pictures=[
            app_commands.Choice(name=N_("on"), value="on"),
            app_commands.Choice(name=N_("off"), value="off"),
        ],
        language=[app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()],
    )
    async def settings(
        interaction: discord.Interaction[Any],
        pictures: str | None = None,
        language: str | None = None,
    ) -> None:
        changed = await settings_command(
            svc.server_settings,
            interaction,
            None if pictures is None else pictures == "on",
            language,
        )
        if changed and interaction.guild is not None:
            # the server's tables speak the new language from their next change
            language_now = await svc.server_settings.language(interaction.guild.id)
            for table in svc.tables.values():
                if table.guild_id == interaction.guild.id and table.language != language_now:
                    table.language = language_now
                    presenter.schedule_table_edit(table)

    @app_commands.command(
        name="options", description=N_("Your own options, at every table (only you see them)")
    )
    @app_commands.describe(
        auto_play=N_("Play your only legal card for you after a short pause"),
    )
    @app_commands.choices(
        auto_play=[
            app_commands.Choice(name=N_("on"), value="on"),
            app_commands.Choice(name=N_("off"), value="off"),
        ],
    )
    async def options(interaction: discord.Interaction[Any], auto_play: str | None = None) -> None:
        await options_command(
            svc.player_options, interaction, None if auto_play is None else auto_play == "on"
        )

    return Feature(name="settings", commands=[settings, options])
