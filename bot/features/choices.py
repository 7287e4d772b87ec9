"""Choices the ``/ruff`` commands share: the games, by title."""

from __future__ import annotations

from discord import app_commands

from engine import game_ids, make_rules

__all__ = ["game_choices"]


def game_choices() -> list[app_commands.Choice[str]]:
    """Every game as a command's choice: its title and id, its id as the value."""
    return [app_commands.Choice(name=make_rules(g).title + f" ({g})", value=g) for g in game_ids()]
