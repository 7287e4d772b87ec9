"""``/ruff daily standings:…``: the standings of the daily deals, read-only.

A server's players by their mean matchpoints over the boards they finished there
(today, the seven days to today, or all time), and the reader's own score with
where it stands among every player of every server. Scores are computed here from
the stored results at each reading (``bot.store.daily``): a board's matchpoints
move as more players finish it.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.competition.duplicate import matchpoints, percentile, standings
from bot.features.daily.boards import DEFAULT_GAME, Daily, week_to
from bot.present.i18n import _
from bot.present.installs import home
from bot.present.render import daily as text
from bot.present.replies import refuse, reply
from bot.tables.services import Services
from engine import RulesError, boards_of, make_rules

__all__ = ["DailyStandings"]


class DailyStandings:
    """Reads the daily deals' standings."""

    def __init__(self, svc: Services, daily: Daily) -> None:
        self.svc = svc
        self.daily = daily

    async def standings(
        self, interaction: discord.Interaction[Any], game_id: str | None, period: str
    ) -> None:
        if period not in text.PERIODS:
            await refuse(interaction, _("Standings are for today, week or all."))
            return
        try:
            rules = make_rules(game_id or DEFAULT_GAME)
        except RulesError:
            await refuse(interaction, _("There is no such game."))
            return
        repo = self.svc.daily_repo
        day = self.daily.today()
        if period == "all":
            entries = await repo.of_game(rules.game_id)
        else:
            days = [day] if period == "today" else week_to(day)
            entries = await repo.of_series(rules.game_id, days)
        pars = await repo.par(sorted({e.board for e in entries}))
        points = matchpoints(entries, pars)
        everyone = standings(entries, points)
        guild_id = home(interaction)[0] or None  # a server the bot is in, or everyone
        shown = standings(entries, points, guild_id) if guild_id is not None else everyone
        boards_today = (
            len(boards_of(rules.game_id, rules.preset, day)) if period == "today" else None
        )
        # today's place is among those who played every board (a one-board score is
        # not level with a whole day's); the reader still playing has only a score
        placed = [r for r in everyone if boards_today is None or r.boards >= boards_today]
        scores = {row.user_id: row.score for row in placed}
        user = interaction.user.id
        mine = next((row.score for row in everyone if row.user_id == user), None)
        me = None if mine is None else (mine, percentile(scores, user))
        rows = [(r.rank, r.name, r.boards, r.score) for r in shown]
        await reply(
            interaction,
            text.standings_text(
                rules,
                period,
                day,
                rows,
                me,
                guild_id is not None,
                boards_today=boards_today,
                compared=len(scores),
            ),
        )
