"""The Discord side of each player's language: the first step of every interaction
(:func:`arrive`: its user's language becomes the language of the moment, and
the bot remembers it for their DMs, ``bot.tables.user_locales``) and the slash
commands' translator."""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.present.i18n import DEFAULT, enter, language_of, translations

log = logging.getLogger(__name__)

__all__ = ["CommandTranslator", "Remembers", "arrive"]


class Remembers(Protocol):
    """What keeps each user's locale (``bot.tables.user_locales.UserLocales``)."""

    async def enter(self, interaction: Any) -> str: ...


async def arrive(interaction: Any, locales: Remembers | None = None) -> str:
    """The first step of every interaction (the command tree's check, every button and
    menu): its user's language becomes the language of the moment, and ``locales``
    (the running bot's ``UserLocales``, handed in by the wiring) remembers the locale."""
    if locales is not None:
        return await locales.enter(interaction)
    return enter(interaction)


class CommandTranslator(app_commands.Translator):
    """The slash commands' descriptions and choice names in each Discord locale
    (``CommandTree.set_translator``), from the same catalogues as every other text.

    Command, group and option *names* stay English on purpose (``/ruff new``,
    ``game:``): the table messages, the help texts and the README name the commands,
    and a table in a German server is read by players whose Discord may be English,
    so one name for every reader keeps those references true. Descriptions, the
    option texts and the choices (``on``/``off``) are translated."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location in (
            app_commands.TranslationContextLocation.command_name,
            app_commands.TranslationContextLocation.group_name,
            app_commands.TranslationContextLocation.parameter_name,
        ):
            return None
        language = language_of(locale)
        if language == DEFAULT:
            return None
        text = translations(language).gettext(string.message)
        return text if text != string.message else None
