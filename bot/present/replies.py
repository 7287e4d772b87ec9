"""Short private answers to an interaction (first response or follow-up)."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.present.drawing import Picture

log = logging.getLogger(__name__)

__all__ = ["refuse", "reply", "settle"]

MESSAGE_LIMIT = 2000  # Discord's limit on a message's content


async def reply(
    interaction: discord.Interaction[Any],
    text: str,
    view: discord.ui.View | None = None,
    *,
    picture: Picture | None = None,
) -> None:
    """Answer ephemerally (with ``picture`` attached, if given); a failed answer is
    logged, never raised."""
    kwargs: dict[str, Any] = {"ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    if picture is not None:
        kwargs["file"] = discord.File(
            io.BytesIO(picture.png), filename=picture.filename, description=picture.description
        )
    if len(text) > MESSAGE_LIMIT:  # an echoed option must not make the answer fail
        text = text[: MESSAGE_LIMIT - 1] + "…"
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, **kwargs)
        else:
            await interaction.response.send_message(text, **kwargs)
    except discord.HTTPException as exc:
        log.info("could not answer interaction: HTTP %s", exc.status)


async def refuse(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer a refused request ephemerally; the caller has changed nothing."""
    log.debug("refused user %s: %s", interaction.user.id, text)
    await reply(interaction, text)


async def settle(interaction: discord.Interaction[Any], text: str) -> None:
    """Close a private question: its message says ``text`` and loses its buttons
    (answered with a new private message where it cannot be edited)."""
    try:
        if not interaction.response.is_done() and interaction.message is not None:
            await interaction.response.edit_message(content=text, view=None)
            return
    except discord.HTTPException as exc:
        log.info("could not edit the question: HTTP %s", exc.status)
    await reply(interaction, text)
