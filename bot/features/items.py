"""A feature's buttons and menus: one :class:`discord.ui.DynamicItem` class per
``custom_id`` prefix, made by :func:`item_class` inside the feature's ``build``.

The class matches every id that starts with its prefix (so an old or forged id of
that prefix reaches the feature, which refuses it privately when it cannot read
it), hands the rest of the id and the chosen values of a menu to the feature's
callback (a closure over the feature's own objects), answers in the clicker's
language, and turns a failure into a short private answer and the client's error
hook, as every component of the bot does.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.present.i18n import _
from bot.present.locales import Remembers, arrive
from bot.present.replies import refuse

__all__ = ["Click", "item_class", "not_recognised"]

ID_LIMIT = 100

Click = Callable[[discord.Interaction[Any], str, Sequence[str]], Awaitable[None]]
"""A feature's callback: (the interaction, the id after the prefix, a menu's values)."""


async def not_recognised(interaction: discord.Interaction[Any]) -> None:
    """The answer to an id of the feature's prefix that it cannot read."""
    await refuse(interaction, _("That button is not recognised — it may be from an older message."))


def item_class(
    name: str, prefix: str, on_click: Click, locales: Remembers
) -> type[discord.ui.DynamicItem[discord.ui.Item[Any]]]:
    """A DynamicItem class for the buttons and menus whose ``custom_id`` is
    ``prefix`` + the rest (at most 100 characters in all); ``locales`` remembers each
    clicker's language. The prefixes of two classes must not overlap: discord.py runs
    every class whose template matches."""
    template = re.escape(prefix) + rf"(?P<rest>\S{{0,{ID_LIMIT - len(prefix)}}})"

    class FeatureItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=template):
        def __init__(self, item: discord.ui.Item[Any]) -> None:
            super().__init__(item)
            self.rest = str(getattr(item, "custom_id", ""))[len(prefix) :]

        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> FeatureItem:
            # the button or menu as the message has it: a menu's chosen values land on it
            return cls(item)

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            values = tuple(str(v) for v in getattr(self.item, "values", ()))
            try:
                await arrive(interaction, locales)  # the clicker's language
                await on_click(interaction, self.rest, values)
            except Exception:
                # discord.py only logs errors raised in dynamic items: answer the user
                # and report through the client's error hook
                if not interaction.response.is_done():
                    try:
                        await interaction.response.send_message(
                            _("Something went wrong — nothing was changed. Please try again."),
                            ephemeral=True,
                        )
                    except discord.HTTPException:
                        pass
                await interaction.client.on_error("component", interaction)

    FeatureItem.__name__ = FeatureItem.__qualname__ = name
    return FeatureItem
