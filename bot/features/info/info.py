"""The slash commands that read rather than play: ``/ruff hand``, ``rules``,
``leaderboard`` and ``stats``, and the leaderboard's page buttons.

The leaderboard and the stats show ratings (:mod:`bot.store.ratings`): per server and
game id, ranked by the conservative value μ − 3σ, players ranked once they have
:data:`~bot.competition.ratings.MIN_GAMES` rated games (the others listed after, "not yet
ranked"), AI levels among them. ``/ruff leaderboard`` without a game shows the
server's most played game and names the others.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.competition.ratings import AI_PREFIX, MIN_GAMES, is_ai
from bot.discord_ui.presenter import Presenter
from bot.present import render
from bot.present.components import Rows
from bot.present.i18n import _, ngettext, number, percent, using
from bot.present.i18n import signed as signed_number
from bot.present.notify import release_view
from bot.present.render.refusals import reason_text
from bot.present.replies import refuse, reply
from bot.store import RatingChange, RatingRow
from bot.tables.services import Services
from bot.tables.table import LEADERBOARD_PAGE
from engine import RulesError, game_ids, make_rules

__all__ = [
    "PAGE_PREFIX",
    "PAGE_SHAPE",
    "Info",
    "leaderboard_id",
    "leaderboard_text",
    "leaderboard_view",
    "parse_page",
    "plural",
    "stats_text",
]


class Info:
    """Answers the read-only commands."""

    def __init__(self, svc: Services, presenter: Presenter) -> None:
        self.svc = svc
        self.presenter = presenter

    def _channel_id(self, interaction: discord.Interaction[Any]) -> int | None:
        return interaction.channel.id if interaction.channel else None

    async def hand_command(self, interaction: discord.Interaction[Any]) -> None:
        """``/ruff hand``: show my hand ephemerally (the fallback for closed DMs)."""
        user_id = interaction.user.id
        table = self.svc.tables.open_in_channel(self._channel_id(interaction))
        if table is None or table.seat_of(user_id) is None:
            table = self.svc.tables.playing(
                user_id, interaction.guild.id if interaction.guild else None
            )
        if table is None:
            await refuse(interaction, _("You are not playing at any table right now."))
            return
        await self.presenter.hands.show(interaction, table)

    async def rules_command(
        self, interaction: discord.Interaction[Any], game_id: str | None, preset: str | None
    ) -> None:
        """``/ruff rules``: the rules of this channel's table, or of a named game."""
        table = self.svc.tables.open_in_channel(self._channel_id(interaction))
        try:
            if game_id:
                rules = make_rules(game_id, preset)
            elif table is not None:
                rules = table.rules
            else:
                rules = make_rules()
        except RulesError as exc:
            await refuse(interaction, f"⚠️ {reason_text(str(exc))}")
            return
        text = render.rules_text(rules)
        if not game_id and table is None:
            text += "\n" + _("Other games: {games}").format(
                games=", ".join(f"`{g}`" for g in game_ids())
            )
        await reply(interaction, text)

    async def leaderboard(
        self, interaction: discord.Interaction[Any], page: int, game_id: str | None = None
    ) -> None:
        """``/ruff leaderboard [game] [page]``: this server's players of one game by rating, 10 a page."""
        if interaction.guild is None:
            await refuse(
                interaction, _("The leaderboard is per server — use it in a server channel.")
            )
            return
        with using(
            await self.svc.server_settings.language(interaction.guild.id)
        ):  # public: the server's language
            text, view = await self._leaderboard_page(
                interaction.guild.id, interaction.guild.name, game_id, page
            )
        if view is None:
            await interaction.response.send_message(
                text, allowed_mentions=discord.AllowedMentions.none()
            )
            return
        try:
            await interaction.response.send_message(
                text, view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        finally:
            release_view(view)

    async def on_leaderboard_page(
        self, interaction: discord.Interaction[Any], page: int, game_id: str | None = None
    ) -> None:
        if interaction.guild is None:
            await refuse(interaction, _("The leaderboard is per server."))
            return
        with using(await self.svc.server_settings.language(interaction.guild.id)):
            text, view = await self._leaderboard_page(
                interaction.guild.id, interaction.guild.name, game_id, page
            )
        try:
            await interaction.response.edit_message(content=text, view=view)
        finally:
            release_view(view)

    async def _leaderboard_page(
        self, guild_id: int, guild_name: str, game_id: str | None, page: int
    ) -> tuple[str, discord.ui.View | None]:
        repo = self.svc.rating_repo
        played = await repo.games(guild_id)
        if game_id is None:
            if not played:
                title = _("🏆 **Leaderboard — {server}**").format(server=guild_name)
                return title + "\n" + _("No finished games yet. Start one with `/ruff new`."), None
            game_id = played[0][0]  # the server's most played game
        total = await repo.count_ranked(guild_id, game_id, MIN_GAMES)
        pages = max(1, -(-total // LEADERBOARD_PAGE))
        page = min(max(page, 0), pages - 1)
        rows = await repo.leaderboard(
            guild_id, game_id, MIN_GAMES, LEADERBOARD_PAGE, page * LEADERBOARD_PAGE
        )
        provisional: list[RatingRow] = []
        more = 0
        if page == pages - 1:
            provisional, more = await repo.provisional(
                guild_id, game_id, MIN_GAMES, PROVISIONAL_SHOWN
            )
        text = leaderboard_text(
            guild_name,
            game_id,
            rows,
            page,
            pages,
            provisional,
            more,
            [g for g in played if g[0] != game_id],
        )
        return text, leaderboard_view(page, pages, game_id)

    async def stats(
        self,
        interaction: discord.Interaction[Any],
        user: discord.abc.User | None,
        game_id: str | None = None,
    ) -> None:
        """``/ruff stats [user] [game]``: a player's ratings, games, wins and last rating changes here."""
        if interaction.guild is None:
            await refuse(interaction, _("Stats are per server — use this in a server channel."))
            return
        target = user or interaction.user
        guild_id, key = interaction.guild.id, str(target.id)
        repo = self.svc.rating_repo
        name = target.display_name
        if game_id is not None:
            row = await repo.get(guild_id, game_id, key, MIN_GAMES)
            if row is None:
                await reply(
                    interaction,
                    _("{player} has not finished a game of {game} here yet.").format(
                        player=name, game=game_title(game_id)
                    ),
                )
                return
            rows = [row]
        else:
            rows = [
                await repo.get(guild_id, r.game_id, key, MIN_GAMES) or r
                for r in await repo.for_player(guild_id, key)
            ]
            if not rows:
                await reply(
                    interaction, _("{player} has not finished a game here yet.").format(player=name)
                )
                return
        ranked = {r.game_id: await repo.count_ranked(guild_id, r.game_id, MIN_GAMES) for r in rows}
        history = await repo.history(
            guild_id, key, game_id if len(rows) == 1 else None, HISTORY_SHOWN
        )
        await reply(interaction, stats_text(name, interaction.guild.name, rows, ranked, history))


# ---------------------------------------------------------------- the page buttons

PAGE_PREFIX = "rh:lb:"
"""The leaderboard's page buttons: ``rh:lb:<page>[:<game>]`` (the game id the page
shows; an id without one, from before ratings, shows the server's most played game)."""
PAGE_SHAPE = r"(\d{1,4})(?::([a-z0-9-]{1,60}))?"
"""A page button's id after ``rh:lb:``: the page (from 0) and the game, if named."""
_ID_LIMIT = 100


def leaderboard_id(page: int, game_id: str | None = None) -> str:
    """The id of a leaderboard page button (``rh:lb:<page>[:<game>]``)."""
    cid = f"{PAGE_PREFIX}{page}" + (f":{game_id}" if game_id else "")
    assert len(cid) <= _ID_LIMIT
    return cid


def parse_page(rest: str) -> tuple[int, str | None] | None:
    """``(page, game id or None)`` of a page button's id after ``rh:lb:``; None if
    malformed."""
    m = re.fullmatch(PAGE_SHAPE, rest)
    return None if m is None else (int(m.group(1)), m.group(2) or None)


def leaderboard_view(page: int, pages: int, game_id: str | None = None) -> discord.ui.View | None:
    """◀ Previous and Next ▶ under a page (none for a single page)."""
    if pages <= 1:
        return None
    view = Rows()
    view.button(
        leaderboard_id(max(page - 1, 0), game_id),
        _("◀ Previous"),
        discord.ButtonStyle.secondary,
        disabled=page <= 0,
    )
    view.button(
        leaderboard_id(min(page + 1, pages - 1), game_id),
        _("Next ▶"),
        discord.ButtonStyle.secondary,
        disabled=page >= pages - 1,
    )
    return view


# ---------------------------------------------------------------- text (pure)

PROVISIONAL_SHOWN = 5
"""Players under the minimum of games listed at the end of the leaderboard."""
HISTORY_SHOWN = 5
"""Rating changes listed by ``/ruff stats``."""
NAME_WIDTH = 24


def plural(n: int, word: str) -> str:
    """``1 game``, ``2 games``, ``0 wins`` (``word``: ``game`` or ``win``), in the
    plural form of the language of the moment."""
    if word == "win":
        return ngettext("{n} win", "{n} wins", n).format(n=n)
    return ngettext("{n} game", "{n} games", n).format(n=n)


def game_title(game_id: str) -> str:
    """The game's title (its id when the engine no longer knows it)."""
    try:
        return make_rules(game_id).title
    except RulesError:
        return game_id


def player_name(row: RatingRow) -> str:
    """A player's name as the lists show it: escaped, AI levels as "AI hard"."""
    name = (
        row.name
        if not is_ai(row.player)
        else _("AI {level}").format(level=_ai_level(row.player.removeprefix(AI_PREFIX)))
    )
    if len(name) > NAME_WIDTH:
        name = name[: NAME_WIDTH - 1] + "…"
    return discord.utils.escape_markdown(name)


def win_pct(row: RatingRow) -> str:
    return percent(row.wins / row.games) if row.games else "–"


def _ai_level(level: str) -> str:
    return render.AI_LEVELS.get(level, level)


def _entry(row: RatingRow) -> str:
    return f"{player_name(row)} **{signed(row.conservative)}** · {plural(row.games, 'game')} · {win_pct(row)}"


def leaderboard_text(
    guild_name: str,
    game_id: str,
    rows: Sequence[RatingRow],
    page: int,
    pages: int,
    provisional: Sequence[RatingRow],
    provisional_total: int,
    other_games: Sequence[tuple[str, int]],
) -> str:
    """The leaderboard message: one short line per player (fits a phone)."""
    lines = [
        _("🏆 **Leaderboard — {server}**").format(server=guild_name) + f" · {game_title(game_id)}",
        _("rating μ − 3σ · ranked from {games}").format(games=plural(MIN_GAMES, "game"))
        + (_(" · page {page}/{pages}").format(page=page + 1, pages=pages) if pages > 1 else ""),
    ]
    if not rows and not provisional:
        lines.append(_("No rated games of {game} here yet.").format(game=game_title(game_id)))
    elif not rows:
        lines.append(_("Nobody has played {games} yet.").format(games=plural(MIN_GAMES, "game")))
    for r in rows:
        lines.append(f"{r.rank}. {_entry(r)}")
    if provisional:
        lines.append(_("Not yet ranked (under {games}):").format(games=plural(MIN_GAMES, "game")))
        lines.extend(f"· {_entry(r)}" for r in provisional)
        if provisional_total > len(provisional):
            lines.append("· " + _("and {n} more").format(n=provisional_total - len(provisional)))
    if other_games:
        shown = ", ".join(f"`{g}` ({plural(n, 'game')})" for g, n in other_games[:4])
        lines.append(_("Other games: {games} — `/ruff leaderboard game:`").format(games=shown))
    return "\n".join(lines)


def signed(value: float, sign: bool = False) -> str:
    """``3.1``, ``−0.4`` (a true minus sign), with ``sign`` also ``+1.1``."""
    text = signed_number(value, 1) if sign else number(value, 1)
    return text.replace("-", "−")


def _change_text(c: RatingChange, with_game: bool) -> str:
    game = f" {game_title(c.game_id)}," if with_game else ""
    result = _("won") if c.won else _("lost")
    return (
        f"· #{c.table_id}{game} {result}: "
        f"{signed(c.before)} → {signed(c.after)} ({signed(c.after - c.before, sign=True)})"
    )


def stats_text(
    name: str,
    guild_name: str,
    rows: Sequence[RatingRow],
    ranked: Mapping[str, int],
    history: Sequence[RatingChange],
) -> str:
    """``/ruff stats``: rating (μ − 3σ, μ, σ), games, wins and place per game, and the
    last rating changes. ``ranked`` is the number of ranked players per game."""

    def place(r: RatingRow) -> str:
        if r.rank is None:
            return _("ranked after {games}").format(games=plural(MIN_GAMES, "game"))
        return _("#{rank} of {players}").format(rank=r.rank, players=ranked.get(r.game_id, r.rank))

    def record(r: RatingRow) -> str:
        return f"{plural(r.games, 'game')} · {plural(r.wins, 'win')} ({win_pct(r)})"

    who = discord.utils.escape_markdown(name)
    if len(rows) == 1:
        r = rows[0]
        lines = [
            _("📊 **{player}** — {game} in {server}").format(
                player=who, game=game_title(r.game_id), server=guild_name
            ),
            _("Rating **{rating}** (μ {mu}, σ {sigma}) · {place}").format(
                rating=signed(r.conservative),
                mu=number(r.mu, 1),
                sigma=number(r.sigma, 1),
                place=place(r),
            ),
            record(r),
        ]
    else:
        lines = [_("📊 **{player}** in {server}").format(player=who, server=guild_name)]
        for r in rows:
            lines.append(
                f"· {game_title(r.game_id)}: **{signed(r.conservative)}** "
                f"(μ {number(r.mu, 1)}, σ {number(r.sigma, 1)}) · {record(r)} · {place(r)}"
            )
    if history:
        lines.append(_("Last rating changes:"))
        lines.extend(_change_text(c, len(rows) > 1) for c in history)
    return "\n".join(lines)
