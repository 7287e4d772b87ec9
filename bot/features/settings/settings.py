"""``/ruff options`` (a player's own) and ``/ruff settings`` (a server's switches),
answered privately; what they change is kept by ``bot.tables.player_options`` and
``bot.tables.server_settings``."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.present.i18n import DEFAULT, LANGUAGES, _
from bot.present.replies import refuse, reply
from bot.store import StoreError
from bot.tables.player_options import PlayerOptions
from bot.tables.server_settings import ServerSettings

log = logging.getLogger(__name__)

__all__ = ["options_command", "settings_command"]


async def options_command(
    options: PlayerOptions, interaction: discord.Interaction[Any], auto_play: bool | None
) -> None:
    """``/ruff options [auto_play:on|off]``: show or change the clicker's own options."""
    user_id = interaction.user.id
    if auto_play is not None:
        try:
            await options.set_auto_play(user_id, auto_play)
        except StoreError:
            log.exception("could not save the options of user %s", user_id)
            await refuse(
                interaction,
                _("Your options could not be saved — nothing changed. Please try again."),
            )
            return
    on = await options.auto_play(user_id)
    text = _(
        "⚙️ Your options (at every table) — auto-play a single legal card: **{auto_play}**"
    ).format(auto_play=_("on") if on else _("off"))
    if auto_play is not None:
        text += (
            _(" — from now on, your only legal card is played for you after a short pause.")
            if on
            else _(" — you play every card yourself.")
        )
    await reply(interaction, text)


async def settings_command(
    server: ServerSettings,
    interaction: discord.Interaction[Any],
    pictures: bool | None,
    language: str | None = None,
) -> bool:
    """``/ruff settings [pictures:on|off] [language:en|de]``: show or change this
    server's switches. Returns True when a switch was changed."""
    guild = interaction.guild
    if guild is None:
        await refuse(interaction, _("Settings are per server — use this in a server channel."))
        return False
    if language is not None and language not in LANGUAGES:
        choices = ", ".join(f"`{code}`" for code in LANGUAGES)
        await refuse(
            interaction,
            _("I don't speak `{language}` — choose one of {choices}.").format(
                language=language[:20], choices=choices
            ),
        )
        return False
    changes: dict[str, Any] = {}
    if pictures is not None:
        changes["pictures"] = pictures
    if language is not None:
        changes["language"] = None if language == DEFAULT else language  # the default is no entry
    perms = getattr(interaction.user, "guild_permissions", None)
    if changes and not (perms is not None and perms.manage_guild):
        await refuse(
            interaction,
            _("Only members with **Manage Server** can change this server's settings."),
        )
        return False
    if changes:
        try:
            await server.change(guild.id, changes)
        except StoreError:
            log.exception("could not save the settings of server %s", guild.id)
            await refuse(
                interaction,
                _("The settings could not be saved — nothing changed. Please try again."),
            )
            return False
    on = await server.pictures(guild.id)
    lang = await server.language(guild.id)
    text = _("⚙️ Settings of **{server}** — pictures: **{pictures}**").format(
        server=guild.name, pictures=_("on") if on else _("off")
    )
    if not server.settings.pictures:
        text += _(" (turned off for the whole bot by its host: `RH_PICTURES=off`)")
    elif pictures is not None:
        text += (
            _(" — from the next change of each table.")
            if on
            else _(" — tables show text only from their next change.")
        )
    text += _(" · table language: **{language}**").format(language=LANGUAGES[lang])
    if language is not None:
        text += _(" — the tables here speak it from their next change.")
    await reply(interaction, text)
    return bool(changes)
