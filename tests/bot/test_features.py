"""Features as packages: the wiring adds a feature's commands under /ruff and its buttons."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.features import Feature, install


def _group() -> app_commands.Group:
    group = app_commands.Group(name="ruff", description="Play")

    @group.command(name="new", description="Open a table")
    async def new(interaction: discord.Interaction[Any]) -> None:
        return None

    return group


def _feature(name: str, command: str) -> Feature:
    async def run(interaction: discord.Interaction[Any]) -> None:
        return None

    cmd = app_commands.Command(name=command, description="A command", callback=run)

    class Item(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"{name}:(?P<n>\d+)"):
        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> Item:
            return cls(discord.ui.Button(custom_id=f"{name}:{match['n']}"))

    return Feature(name=name, commands=[cmd], items=[Item])


async def test_a_features_command_lands_under_ruff_and_its_buttons_are_registered() -> None:
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    group = _group()
    install(client, tree, group, [_feature("ev", "event")])
    assert [c.name for c in group.commands] == ["new", "event"]


async def test_two_features_may_not_claim_one_command_name() -> None:
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    group = _group()
    with pytest.raises(ValueError, match="/ruff new"):
        install(client, tree, group, [_feature("x", "new")])
    assert [c.name for c in group.commands] == ["new"]
