"""Where an interaction comes from: a place the bot is in, or only a player's own
install of the app (a user install).

A player who added the app to their account can type ``/ruff`` in a server that
never invited the bot, or in a group DM: Discord then authorizes the interaction
by their user install alone (``authorizing_integration_owners`` has the user key,
not the server's). The bot can answer the interaction there, privately, and
nothing else: it cannot post in that channel or read that server.
"""

from __future__ import annotations

from typing import Any

import discord

__all__ = ["bot_away", "home"]


def bot_away(interaction: discord.Interaction[Any]) -> bool:
    """True if the interaction comes from a place the bot is not in: authorized only
    by the player's own install, in a server or a private channel that is not the
    bot's own DM."""
    if interaction.guild_id is None and interaction.context.dm_channel:
        return False  # the bot's DM with the player: the bot is there
    return interaction.is_user_integration() and not interaction.is_guild_integration()


def home(interaction: discord.Interaction[Any]) -> tuple[int, int]:
    """The server and channel an interaction counts for: ``(0, 0)`` outside a server
    the bot is in (its DM, a group DM, a server only the player's install reaches)."""
    if interaction.guild_id is None or bot_away(interaction):
        return 0, 0
    channel = interaction.channel_id or 0
    return interaction.guild_id, channel
