"""Features as packages: each feature of the bot is one folder here.

A feature (daily boards, challenges, the coach, events ...) keeps together what a
reader looks for when changing it: its ``/ruff`` subcommands, its buttons (each a
:class:`discord.ui.DynamicItem` class with a ``custom_id`` prefix of its own) and
the Discord front that answers them. It builds itself from the parts it needs
(``build(...)`` in the package, called by the wiring in ``bot/app``) and returns a
:class:`Feature`; the wiring adds the commands under ``/ruff`` and registers the
buttons, so a new feature costs no edit in a hub (no forward in the manager, no
branch in a shared ``if``).

The buttons are classes made inside ``build`` so their callbacks reach the
feature's own objects by closure, not by looking the app up on the client.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from bot.present.i18n import _
from bot.present.locales import Remembers, arrive

__all__ = ["Command", "Feature", "answered", "install"]

Command = app_commands.Command[Any, ..., Any] | app_commands.Group
"""A ``/ruff`` subcommand, or a subgroup (``/ruff event create`` ...)."""


async def _nothing() -> None:
    return None


async def answered(
    interaction: discord.Interaction[Any],
    click: Callable[[discord.Interaction[Any]], Awaitable[None]],
    locales: Remembers | None = None,
) -> None:
    """Run a feature's button ``click`` in the clicker's language (``locales``, the
    bot's, remembers it); an error still gets a short private answer (and is reported
    through the client's error hook: discord.py only logs errors raised in dynamic
    items)."""
    try:
        await arrive(interaction, locales)
        await click(interaction)
    except Exception:
        if not interaction.response.is_done():
            try:
                await interaction.response.send_message(
                    _("Something went wrong — nothing was changed. Please try again."),
                    ephemeral=True,
                )
            except discord.HTTPException:
                pass
        await interaction.client.on_error("component", interaction)


@dataclass(frozen=True, slots=True)
class Feature:
    """One feature as the wiring sees it."""

    name: str
    commands: Sequence[Command] = ()
    """Added under the ``/ruff`` group, in this order."""
    items: Sequence[type[discord.ui.DynamicItem[Any]]] = ()
    """Buttons and selects, registered with ``client.add_dynamic_items`` (their
    templates must not overlap another feature's: the prefix is the feature's)."""
    start: Callable[[], Awaitable[None]] = field(default=_nothing)
    """Run once the bot is ready to resume (after tables are resumed): re-arm timers."""
    close: Callable[[], Awaitable[None]] = field(default=_nothing)
    """Run when the bot closes, before the database is closed."""


def install(
    client: discord.Client,
    tree: app_commands.CommandTree[Any],
    group: app_commands.Group,
    features: Sequence[Feature],
    check: Callable[[discord.Interaction[Any]], Coroutine[Any, Any, bool]] | None = None,
) -> None:
    """Add every feature's commands under ``group`` and register its buttons.

    ``check`` (the ``/ruff`` cog's ``interaction_check``: where the bot is not, only
    some commands run) guards every feature command as it guards the cog's own:
    discord.py runs a cog's check only for the commands the cog defines.

    Two features may not share a command name: that is a wiring error, raised here
    at start-up rather than found by a player."""
    del tree  # the group belongs to it already; kept in the signature for subgroups
    taken = {command.name for command in group.commands}
    for feature in features:
        for command in feature.commands:
            if command.name in taken:
                raise ValueError(f"/ruff {command.name} of {feature.name!r} is taken")
            taken.add(command.name)
            if check is not None:
                leaves = (
                    command.walk_commands()
                    if isinstance(command, app_commands.Group)
                    else [command]
                )
                for leaf in leaves:
                    if isinstance(leaf, app_commands.Command):
                        leaf.add_check(check)
            group.add_command(command)
        if feature.items:
            add = getattr(client, "add_dynamic_items", None)
            if add is None:
                raise TypeError("features' buttons need a client with add_dynamic_items")
            add(*feature.items)
