"""Records and replays of finished games: ``/ruff record``, ``/ruff replay`` and
the replay's buttons (``bot.features.records.records`` answers them).

Its ids (the grammar of ``bot.present.components`` before the feature had a
package of its own, so the buttons of old replay messages still work):

* ``rh:r:<table>:<step>[:d]`` — the replay of a finished game at trick ``step``
  (from 0; ``:d`` marks the buttons that jump by deal); a step past the end clamps;
* ``rh:s:<table>`` — a replay's menu of deals; each option's value is the step of
  that deal's first trick.

An id of these prefixes the feature cannot read is answered privately and
changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.features import Feature
from bot.features.items import item_class, numbers
from bot.features.records.records import Records
from bot.present.i18n import N_, _
from bot.present.replies import refuse
from bot.tables.services import Services

__all__ = ["DEALS_PREFIX", "STEP_PREFIX", "build", "parse_step"]

STEP_PREFIX = "rh:r:"
DEALS_PREFIX = "rh:s:"
STEP_SHAPE = r"(\d{1,19}):(\d{1,6})(?::d)?"
"""A replay button's id after ``rh:r:``: the table and the step."""


def parse_step(rest: str) -> tuple[int, int] | None:
    """``(table, step)`` of a replay button's id after ``rh:r:``; None if malformed."""
    m = re.fullmatch(STEP_SHAPE, rest)
    return None if m is None else (int(m.group(1)), int(m.group(2)))


def build(svc: Services) -> Feature:
    """The feature, answering from ``svc``'s repositories."""
    records = Records(svc)

    @app_commands.command(
        name="record", description=N_("A finished game as files (.json record and .pbn deals)")
    )
    @app_commands.describe(
        table=N_("Table number (default: the last game you finished in this server)")
    )
    async def record(
        interaction: discord.Interaction[Any],
        table: app_commands.Range[int, 1, 2**53] | None = None,
    ) -> None:
        await records.record_command(interaction, table)

    @app_commands.command(
        name="replay", description=N_("Step through a finished game trick by trick")
    )
    @app_commands.describe(
        table=N_("Table number (default: the last game you finished in this server)")
    )
    async def replay(
        interaction: discord.Interaction[Any],
        table: app_commands.Range[int, 1, 2**53] | None = None,
    ) -> None:
        await records.replay_command(interaction, table)

    async def deal(
        interaction: discord.Interaction[Any], m: re.Match[str], values: Sequence[str]
    ) -> None:
        if len(values) != 1 or not values[0].isdigit() or len(values[0]) > 6:
            await refuse(interaction, _("That is not one of the choices."))
            return
        await records.on_replay_step(interaction, int(m.group(1)), int(values[0]))

    return Feature(
        name="records",
        commands=[record, replay],
        items=[
            item_class(
                "ReplayStep",
                STEP_PREFIX,
                {STEP_SHAPE: numbers(records.on_replay_step)},
                svc.user_locales,
            ),
            item_class("ReplayDeals", DEALS_PREFIX, {r"(\d{1,19})": deal}, svc.user_locales),
        ],
    )
