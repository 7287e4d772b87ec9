"""``/ruff challenge``: the same boards for two players, each played alone by a
deadline, compared board by board.

A challenge's boards are ``engine.boards`` boards of the series
``challenge-<id>``, dealt and played exactly as the daily deals are
(:mod:`bot.features.daily.boards`: a board table in each player's DM, the fixed AI, one
attempt each, the result written with the board's last move). The challenger's
first board is dealt at once; the other player is told by DM; each next board
is dealt by ``/ruff challenge`` (no opponent). An opponent may be the bot itself: the AI, whose
result on each board is its par.

When both have finished every board, or at the deadline (:data:`DEADLINE` after the
challenge; checked every ``settings.challenge_check_every`` seconds), the challenge is settled
once (``ChallengeRepo.settle``): a board never started is played by the AI for
its player (its par), a board in play is finished by the AI from where it stands
(its table cancelled), both marked so; then both players get the comparison by
DM, board by board.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord

from bot.discord_ui.services import DiscordServices
from bot.features.daily.boards import DEFAULT_GAME, Daily, board_of_key, end_view
from bot.present.i18n import _, using
from bot.present.installs import home
from bot.present.notify import DMClosed, MessageGone
from bot.present.render import daily as text
from bot.present.replies import refuse, reply, settle
from bot.store import BoardEntry, Challenge, IntegrityError, StoreError
from bot.store.daily import CHALLENGE
from bot.tables import commit
from bot.tables.aipool import FIXED
from bot.tables.table import Table
from engine import IllegalAction, RulesError, board, board_result, make_rules

log = logging.getLogger(__name__)

__all__ = ["DEADLINE", "Challenges"]

DEADLINE = 3 * 24 * 3600.0
"""Seconds the two players have to play a challenge's boards."""

DEFAULT_BOARDS = 5

CHALLENGE_PREFIX = "ch:"
"""A challenge's buttons: ``ch:<verb>:<challenge>``: the invitation's Play and Decline
(play, decline), the next board under a finished one (next), Rematch under the
comparison (rematch)."""


def challenge_id_of(verb: str, challenge: int) -> str:
    return f"{CHALLENGE_PREFIX}{verb}:{challenge}"


def _button(label: str, custom_id: str, style: discord.ButtonStyle) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=label, style=style, custom_id=custom_id))
    return view


def invite_view(challenge: int) -> discord.ui.View:
    view = _button(_("▶ Play"), challenge_id_of("play", challenge), discord.ButtonStyle.primary)
    view.add_item(
        discord.ui.Button(
            label=_("Decline"),
            style=discord.ButtonStyle.secondary,
            custom_id=challenge_id_of("decline", challenge),
        )
    )
    return view


class Challenges:
    """Makes challenges, deals their boards, settles them."""

    def __init__(self, svc: DiscordServices, daily: Daily) -> None:
        self.svc = svc
        self.daily = daily
        self.clock = time.time  # tests move it
        daily.challenge_board_done = self.board_done

    # ================================================================ /ruff challenge

    async def command(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.abc.User | None,
        game_id: str | None,
        boards: int | None,
    ) -> None:
        if opponent is None:
            await self.play_next(interaction)
            return
        me = interaction.user
        bot_user = self.svc.client.user
        ai = bot_user is not None and opponent.id == bot_user.id
        if opponent.id == me.id:
            await refuse(interaction, _("You can't challenge yourself."))
            return
        if opponent.bot and not ai:
            await refuse(interaction, _("Challenge a person — or me, to play against the AI."))
            return
        try:
            rules = make_rules(game_id or DEFAULT_GAME)
        except RulesError:
            await refuse(interaction, _("There is no such game."))
            return
        count = boards or DEFAULT_BOARDS
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user
        dm = user.dm_channel or await user.create_dm()
        if await self.svc.table_repo.get_open_by_channel(dm.id) is not None:
            await reply(
                interaction, _("Finish the board in your DMs first (`/ruff daily` resumes it).")
            )
            return
        them = (0, _("the AI")) if ai else (opponent.id, opponent.display_name)
        if await self._dm_of(interaction, them[1]) is None:
            return
        guild_id, channel_id = home(interaction)
        answer, _table = await self.create(
            rules.game_id,
            rules.preset,
            count,
            guild_id,
            channel_id,
            (me.id, me.display_name),
            them,
            dm.id,
        )
        await reply(interaction, answer)

    async def create(
        self,
        game_id: str,
        preset: str,
        count: int,
        guild_id: int,
        channel_id: int,
        me: tuple[int, str],
        them: tuple[int, str],
        dm_id: int,
        rematch_of: int | None = None,
    ) -> tuple[str, Table | None]:
        """Make a challenge, deal its first board to ``me`` and invite ``them`` (0: the
        AI) with Play and Decline; the words saying so and the table dealt.
        ``rematch_of``: the challenge it is the rematch of (raises
        :class:`~bot.store.IntegrityError`, nothing made, if it has one)."""
        deadline = self.clock() + DEADLINE
        challenge = await self.svc.challenge_repo.create(
            game_id=game_id,
            preset=preset,
            boards=count,
            guild_id=guild_id,
            channel_id=channel_id,
            challenger=me,
            opponent=them,
            deadline_at=deadline,
            rematch_of=rematch_of,
        )
        intro, table = await self._deal(challenge, me[0], me[1], 1, dm_id)
        note = ""
        if them[0]:
            rules = make_rules(game_id, preset)
            with using(self.svc.user_locales.language(them[0])):
                invite = text.challenge_invite(rules, challenge.id, me[1], count, deadline)
                buttons = invite_view(challenge.id)
            note = "\n" + _("{name} has your invitation, with ▶ Play and Decline.").format(
                name=them[1]
            )
            try:
                await self.svc.notifier.dm(them[0], invite, buttons)
            except (DMClosed, MessageGone, discord.HTTPException):
                note = "\n" + _(
                    "I could not DM {name}: they can still play with `/ruff challenge`."
                ).format(name=them[1])
        return intro + note, table

    async def _dm_of(
        self, interaction: discord.Interaction[Any], opponent: str
    ) -> discord.DMChannel | None:
        """The challenger's DM, where the boards are played: it must be open."""
        user = interaction.user
        with using(self.svc.user_locales.language(user.id)):
            hello = _("⚔️ A challenge against {opponent}: your first board follows.").format(
                opponent=opponent
            )
        try:
            dm = user.dm_channel or await user.create_dm()
            await self.svc.notifier.dm(user.id, hello)
        except (DMClosed, MessageGone, discord.HTTPException):
            await reply(
                interaction,
                _(
                    "I can't DM you, and the daily deals are played in DMs. Allow direct "
                    "messages from this server's members (or add the app), then try again."
                ),
            )
            return None
        return dm

    async def play_next(self, interaction: discord.Interaction[Any]) -> None:
        """The player's board in play, else the next board of their oldest open challenge."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user
        dm = user.dm_channel or await user.create_dm()
        open_row = await self.svc.table_repo.get_open_by_channel(dm.id)
        if open_row is not None:
            await reply(interaction, await self.daily.resume(open_row.id, user.id))
            return
        for challenge in await self.svc.challenge_repo.open_of(user.id):
            if challenge.deadline_at <= self.clock():
                continue
            number = await self._next_number(challenge, user.id)
            if number is not None:
                intro, _table = await self._deal(
                    challenge, user.id, user.display_name, number, dm.id
                )
                await reply(interaction, intro)
                return
        await reply(
            interaction,
            _("No challenge waits for you. Challenge someone: `/ruff challenge opponent:@name`."),
        )

    async def _next_number(self, challenge: Challenge, user_id: int) -> int | None:
        started = {
            e.number
            for e in await self.svc.daily_repo.of_player(
                user_id, challenge.game_id, challenge.series
            )
        }
        return next((n for n in range(1, challenge.boards + 1) if n not in started), None)

    async def _deal(
        self, challenge: Challenge, user_id: int, name: str, number: int, dm_id: int
    ) -> tuple[str, Table | None]:
        """Deal board ``number`` of ``challenge`` to ``user_id``; the text saying so (with
        a link to the board) and the table (None if it was dealt already)."""
        the_board = board(challenge.game_id, challenge.preset, challenge.series, number)
        opponent = self._other(challenge, user_id)
        with using(self.svc.user_locales.language(user_id)):
            label = text.challenge_label(challenge.id, number, challenge.boards)
            intro = text.challenge_board_text(
                the_board.rules,
                challenge.id,
                number,
                challenge.boards,
                the_board.seat,
                opponent,
                challenge.deadline_at,
            )
        table = await self.daily.open(
            the_board,
            user_id,
            name,
            challenge.guild_id,
            challenge.channel_id,
            dm_id,
            label=label,
        )
        if table is None:
            return intro, None
        return intro + self.daily.link(table, user_id), table

    # ================================================================ the buttons

    async def _mine(
        self, interaction: discord.Interaction[Any], challenge_id: int
    ) -> Challenge | None:
        """The challenge of a button, if the clicker plays in it and it is still on;
        else a short private answer."""
        challenge = await self.svc.challenge_repo.get(challenge_id)
        user = interaction.user.id
        if challenge is None or user not in (challenge.challenger_id, challenge.opponent_id):
            await refuse(interaction, _("That challenge is not yours."))
            return None
        if challenge.settled_at is not None:
            await refuse(
                interaction, _("Challenge #{challenge} is over.").format(challenge=challenge.id)
            )
            return None
        if challenge.deadline_at <= self.clock():
            await refuse(
                interaction,
                _("Challenge #{challenge}'s time is up.").format(challenge=challenge.id),
            )
            return None
        return challenge

    async def on_next(
        self, interaction: discord.Interaction[Any], challenge_id: int, invitation: bool
    ) -> None:
        """**▶ Play** on the invitation, **▶ Board N** under a finished board: deal the
        clicker's next board of the challenge; the button is spent."""
        challenge = await self._mine(interaction, challenge_id)
        if challenge is None:
            return
        await interaction.response.defer()
        user = interaction.user
        dm = user.dm_channel or await user.create_dm()
        open_row = await self.svc.table_repo.get_open_by_channel(dm.id)
        if open_row is not None:
            answer, table = await self.daily.resume(open_row.id, user.id), None
        else:
            number = await self._next_number(challenge, user.id)
            if number is None:
                answer, table = (
                    _("You have played every board of challenge #{challenge}.").format(
                        challenge=challenge.id
                    ),
                    None,
                )
            else:
                answer, table = await self._deal(
                    challenge, user.id, user.display_name, number, dm.id
                )
        if table is None:  # nothing new below: say what happened; the button stays
            await interaction.followup.send(answer, ephemeral=True)
            return
        if invitation:  # answered: neither Play nor Decline is left on it
            spent = [challenge_id_of(v, challenge.id) for v in ("play", "decline")]
        else:
            spent = [challenge_id_of("next", challenge.id)]
        await _spend(interaction, *spent)

    async def on_decline(self, interaction: discord.Interaction[Any], challenge_id: int) -> None:
        """**Decline**: only the invited player, before playing a board of it; the
        challenge ends (settled, with nothing to compare) and its challenger is told."""
        challenge = await self._mine(interaction, challenge_id)
        if challenge is None:
            return
        if interaction.user.id != challenge.opponent_id:
            await refuse(interaction, _("Only the invited player can decline a challenge."))
            return
        if await self.svc.daily_repo.of_player(
            challenge.opponent_id, challenge.game_id, challenge.series
        ):
            await refuse(interaction, _("You have begun its boards: play it out."))
            return
        if not await self.svc.challenge_repo.settle(challenge.id):
            await refuse(
                interaction, _("Challenge #{challenge} is over.").format(challenge=challenge.id)
            )
            return
        await settle(
            interaction,
            _("You declined {name}'s challenge #{challenge}.").format(
                name=challenge.challenger_name, challenge=challenge.id
            ),
        )
        with using(self.svc.user_locales.language(challenge.challenger_id)):
            note = _("⚔️ {name} declined your challenge #{challenge}.").format(
                name=challenge.opponent_name, challenge=challenge.id
            )
        try:
            await self.svc.notifier.dm(challenge.challenger_id, note)
        except (DMClosed, MessageGone, discord.HTTPException) as exc:
            log.info("challenge %s: could not tell its challenger: %s", challenge.id, exc)

    async def on_rematch(self, interaction: discord.Interaction[Any], challenge_id: int) -> None:
        """**Rematch** under a comparison: the same two (or the AI), the same game and
        number of boards, new boards; the clicker's first board is dealt, the other
        invited. Once per challenge."""
        old = await self.svc.challenge_repo.get(challenge_id)
        user = interaction.user
        if old is None or user.id not in (old.challenger_id, old.opponent_id):
            await refuse(interaction, _("That challenge is not yours."))
            return
        if old.settled_at is None:
            await refuse(interaction, _("That challenge is still being played."))
            return
        made = await self.svc.challenge_repo.rematch_of(old.id)
        if made is not None:
            await refuse(interaction, self._rematched(made))
            return
        dm = user.dm_channel or await user.create_dm()
        if await self.svc.table_repo.get_open_by_channel(dm.id) is not None:
            await refuse(interaction, _("Finish the board in your DMs first."))
            return
        await interaction.response.defer()
        if user.id == old.challenger_id:
            them = (old.opponent_id, old.opponent_name)
        else:
            them = (old.challenger_id, old.challenger_name)
        if not them[0]:
            them = (0, _("the AI"))
        try:  # the store's unique rematch: two clicks or two processes make one
            answer, _table = await self.create(
                old.game_id,
                old.preset,
                old.boards,
                old.guild_id,
                old.channel_id,
                (user.id, user.display_name),
                them,
                dm.id,
                rematch_of=old.id,
            )
        except IntegrityError:
            made = await self.svc.challenge_repo.rematch_of(old.id)
            answer = self._rematched(made) if made is not None else _("Please try again.")
        await _spend(interaction, challenge_id_of("rematch", old.id))
        await interaction.followup.send(answer, ephemeral=True)

    @staticmethod
    def _rematched(made: Challenge) -> str:
        return _("That rematch has been made already: challenge #{challenge}.").format(
            challenge=made.id
        )

    @staticmethod
    def _other(challenge: Challenge, user_id: int) -> str:
        if user_id == challenge.challenger_id:
            return challenge.opponent_name
        return challenge.challenger_name

    # ================================================================ a board ends

    async def board_done(self, table: Table, entry: BoardEntry) -> None:
        """A challenge's board ended: its result to the player, the next board, and the
        comparison if the challenge is complete."""
        challenge = await self.svc.challenge_repo.get(int(entry.series[len(CHALLENGE) :]))
        if challenge is None or entry.result is None or table.game is None:
            return
        the_board = board_of_key(entry.board)
        par = await self.daily.ensure_par(the_board)
        others = [
            e
            for e in await self.svc.daily_repo.of_board(entry.board)
            if e.user_id != entry.user_id and e.result is not None
        ]
        theirs = next(
            (
                (e.name, e.result)
                for e in others
                if e.user_id in (challenge.challenger_id, challenge.opponent_id)
                and e.result is not None
            ),
            None,
        )
        number = await self._next_number(challenge, entry.user_id)
        live = challenge.settled_at is None  # not declined
        more = number is not None and live and self.clock() < challenge.deadline_at
        complete = number is None and await self._complete(challenge)
        language = self.svc.user_locales.language(entry.user_id)
        with using(language):
            opponent = self._other(challenge, entry.user_id)
            context = [
                _("Challenge #{challenge} against {opponent} · {title}").format(
                    challenge=challenge.id, opponent=opponent, title=the_board.rules.title
                )
            ]
            if theirs is not None:
                context.append(
                    _("{name}: {result}").format(name=theirs[0], result=text.signed(theirs[1]))
                )
            elif not live:
                context.append(_("declined"))
            elif challenge.opponent_id:
                context.append(_("{name} has not played it yet").format(name=opponent))
            after = []
            if number is None and not complete and live:
                after.append(text.challenge_waiting(challenge.id, opponent, challenge.deadline_at))
            body = text.board_end_text(
                _("**Board {number}/{total}**").format(number=entry.number, total=challenge.boards),
                " · ".join(context),
                entry.result,
                None,
                par,
                [],
                after,
            )
            next_label = _("▶ Board {number}").format(number=number) if more else None

        def view() -> discord.ui.View:
            with using(language):
                return end_view(
                    table.id,
                    next_label,
                    challenge_id_of("next", challenge.id),
                    share=False,
                )

        await self.daily.end_message(table, entry.user_id, body, view)
        await self.settle(challenge, force=False)

    async def _complete(self, challenge: Challenge) -> bool:
        """Whether every human player has finished every board."""
        entries = await self.svc.daily_repo.of_series(challenge.game_id, [challenge.series])
        for user_id, _name in challenge.players:
            if sum(1 for e in entries if e.user_id == user_id and e.finished) < challenge.boards:
                return False
        return True

    # ================================================================ settling

    async def settle(self, challenge: Challenge, *, force: bool) -> bool:
        """Compare the challenge and tell both players, once; unless ``force`` (the
        deadline) only when both have played every board. True if it was settled now."""
        if not force and not await self._complete(challenge):
            return False
        if not await self.svc.challenge_repo.settle(challenge.id):
            return False
        entries = await self.svc.daily_repo.of_series(challenge.game_id, [challenge.series])
        keys = [
            board(challenge.game_id, challenge.preset, challenge.series, n).key
            for n in range(1, challenge.boards + 1)
        ]
        pars = await self.svc.daily_repo.par(keys)
        found = {(e.user_id, e.number): e for e in entries}
        lines = []
        for number, key in enumerate(keys, 1):
            a = found.get((challenge.challenger_id, number))
            b = found.get((challenge.opponent_id, number)) if challenge.opponent_id else None
            a_result = a.result if a is not None and a.result is not None else pars.get(key, 0)
            b_result = b.result if b is not None and b.result is not None else pars.get(key, 0)
            lines.append(
                text.ChallengeLine(
                    number,
                    a_result,
                    a is None or a.by_ai,
                    b_result,
                    bool(challenge.opponent_id) and (b is None or b.by_ai),
                    # against the AI its column is the par already
                    pars.get(key) if challenge.opponent_id else None,
                )
            )
        rules = make_rules(challenge.game_id, challenge.preset)
        for user_id, _name in challenge.players:
            with using(self.svc.user_locales.language(user_id)):
                second = challenge.opponent_name if challenge.opponent_id else _("the AI")
                body = text.challenge_result(
                    rules, challenge.id, challenge.challenger_name, second, lines
                )
                again = _button(
                    _("Rematch"),
                    challenge_id_of("rematch", challenge.id),
                    discord.ButtonStyle.primary,
                )
            try:
                await self.svc.notifier.dm(user_id, body, again)
            except (DMClosed, MessageGone, discord.HTTPException) as exc:
                log.info("challenge %s: could not tell %s: %s", challenge.id, user_id, exc)
        return True

    async def expire_once(self) -> int:
        """Settle every challenge past its deadline: the AI plays what was not played.
        Returns how many were settled."""
        settled = 0
        for challenge in await self.svc.challenge_repo.due(self.clock()):
            try:
                await self._finish_by_ai(challenge)
                settled += await self.settle(challenge, force=True)
            except StoreError:
                log.exception("challenge %s: could not settle it at its deadline", challenge.id)
        return settled

    async def _finish_by_ai(self, challenge: Challenge) -> None:
        repo = self.svc.daily_repo
        for user_id, name in challenge.players:
            entries = {
                e.number: e
                for e in await repo.of_player(user_id, challenge.game_id, challenge.series)
            }
            for number in range(1, challenge.boards + 1):
                the_board = board(challenge.game_id, challenge.preset, challenge.series, number)
                entry = entries.get(number)
                if entry is None:
                    par = await self.daily.ensure_par(the_board)
                    if par is not None:
                        await repo.by_ai(
                            board=the_board.key,
                            user_id=user_id,
                            game_id=challenge.game_id,
                            series=challenge.series,
                            number=number,
                            guild_id=challenge.guild_id,
                            name=name,
                            result=par,
                        )
                elif entry.result is None and entry.table_id is not None:
                    await self._finish_table(entry.table_id)

    async def _finish_table(self, table_id: int) -> None:
        """A board abandoned in play: the AI plays it out from where it stands in every
        seat; the result is the player's, marked as the AI's; the table is cancelled."""
        table = await self.svc.current_table(table_id)
        if table is None or table.game is None or not self.svc.sync.may_drive(table):
            return
        async with table.lock:
            if table.status != "active" or table.game is None:
                return
            game = table.game.clone()
            if not await commit.mark_cancelled(self.svc, table):
                return
        self.daily.presenter.tell_hands(
            table,
            lambda: _("⏰ The challenge's deadline passed: the AI finished this board for you."),
        )
        while not game.is_over:
            seat = game.to_act()
            assert seat is not None
            view = game.observe(seat)
            action = await self.svc.ai.choose(
                FIXED, view, view.legal, f"{table.seed}:ai:{game.version}"
            )
            try:
                game.apply(seat, action)
            except IllegalAction:
                game.apply(seat, view.legal[0])
        human = next(s for s in range(len(table.seats)) if table.human(s) is not None)
        await self.svc.daily_repo.finish(table_id, board_result(game, human), by_ai=True)

    async def run(self) -> None:
        """Settle challenges past their deadline, every ``settings.challenge_check_every`` seconds."""
        while not self.svc.closing:
            try:
                await self.expire_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not settle the challenges past their deadline")
            await asyncio.sleep(self.svc.settings.challenge_check_every)


async def _spend(interaction: discord.Interaction[Any], *custom_ids: str) -> None:
    """The message of a button just used loses it (and ``custom_ids``' others; the rest stay)."""
    message = interaction.message
    if message is None:
        return
    view = discord.ui.View.from_message(message, timeout=None)
    for item in list(view.children):
        if getattr(item, "custom_id", None) in custom_ids:
            view.remove_item(item)
    try:
        await interaction.edit_original_response(view=view if view.children else None)
    except discord.HTTPException as exc:
        log.info("could not spend a challenge's button: %s", exc)
