"""The table's claim, concession and last-trick buttons (:mod:`engine.claims`).

One tap never shows a hand or ends a game: each asks privately first.

* **Claim all (N)** (``rh:t:<table>:claim-all``, on the hand on your turn in the
  play, where the engine offers a claim): answers privately "Claim all N tricks?
  Your hand will be shown to everyone." with **Confirm** (the engine's
  ``claim:N``, an ordinary version-stamped action button, so the claim itself
  takes the path of every card, :mod:`bot.discord_ui.play`) and **Keep playing**.
* **Claim…** (``rh:t:<table>:claims``): answers privately with one button per
  number of tricks you may claim (each a version-stamped ``claim:N``) and
  **Keep playing**.
* **Accept** / **Reject** (a claim) and **Agree** / **Play on** (a
  concession) are the engine's legal actions of the seats asked, shown on
  their hands like any choice (:mod:`bot.present.controls`).
* **Concede** (``rh:t:<table>:concede``, under This deal's private answer for a
  player whose side may concede; on the table itself in messages drawn before the
  table kept one row of buttons): answers privately with
  what it means ("Concede the game? It ends now and counts as a loss.", or the
  proposal to one's partner) and **Confirm** (``concede-yes``) / **Keep playing**;
  the confirmation proposes to concede (at two players, concedes) through
  :meth:`bot.discord_ui.play.Play.on_table_action`, the same lock → engine → store →
  fan-out as a card. A concession the engine would refuse now is refused at the
  first tap.
* **Keep playing** (``rh:t:<table>:keep``): closes the private question; nothing
  changes.
* **A claim's question expires**: once its moment passes (a card is played, the turn
  moves on, the game ends) the private question is edited to say so, without its
  buttons, and so is one left open until just before its interaction's token lapses
  (15 minutes); a Confirm pressed on a question that could not be edited (the same
  moment passed) is answered the same way, never "Already played"
  (:func:`bot.discord_ui.play.claim_passed_text`). **Claim all** is offered only where
  the claim surely holds (:func:`bot.present.controls.claim_controls`).
* **This deal** (``rh:t:<table>:deal``, on the table): every trick of the deal so
  far (who led, what each played, who won) and the scores, privately, to anyone;
  public information only. **Scores** (``rh:t:<table>:scores``, on older table
  messages) answers the scores alone.
* **Last trick** (``rh:t:<table>:last``, on the table and the hand): the last
  completed trick of the deal in play, privately, by player name, with its
  winner. It is read from the game, which a restart rebuilds from the store,
  so it answers after a restart too. Before the first trick of a deal is
  complete it says so.

Timers while a claim or concession waits (decisions where the rules are
silent): each human asked has the ordinary turn timer (``RH_TURN_TIMEOUT``) for
his answer; when it runs out his answer counts as **Reject** (or **Play on**),
never as acceptance, and counts as a missed turn like any other. AI seats
answer at once (they are driven before a human asked at the same time).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.discord_ui.play import Play, claim_passed_text
from bot.discord_ui.presenter import Presenter
from bot.discord_ui.services import DiscordServices
from bot.present.controls import claim_confirm, claim_menu, concede_button, concede_confirm
from bot.present.i18n import _, ngettext
from bot.present.render.claims import last_trick_text
from bot.present.render.refusals import reason_text
from bot.present.render.table import scores_text, this_deal_text
from bot.present.replies import refuse, reply, settle
from bot.tables.table import Table
from engine import Claim, ClaimMade, Concede, Event, IllegalAction

log = logging.getLogger(__name__)

__all__ = ["ClaimButtons", "VERBS"]

VERBS = frozenset(
    {"claims", "claim-all", "last", "deal", "scores", "concede", "concede-yes", "keep"}
)
LOOKS = frozenset({"last", "deal", "scores"})  # public information, answered to anyone
EXPIRES: Final = 14 * 60.0  # seconds: a question is closed before its token's 15 minutes


@dataclass(slots=True)
class _Asked:
    """A claim's private question still open: where it was asked, at which version."""

    interaction: discord.Interaction[Any]
    seat: int
    version: int
    timer: asyncio.TimerHandle | None


class ClaimButtons:
    """Answers the table buttons of claims, concessions and the last trick."""

    def __init__(self, svc: DiscordServices, presenter: Presenter, play: Play) -> None:
        self.svc = svc
        self.presenter = presenter
        self.play = play
        self._asked: dict[tuple[int, int], _Asked] = {}  # (table, user): the open question
        svc.feed.subscribe(self._moved)

    # ------------------------------------------------------------ open claim questions

    async def _ask(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        text: str,
        view: discord.ui.View,
    ) -> None:
        """Ask a claim's question privately, and remember it until its moment passes."""
        game = table.game
        assert game is not None
        await reply(interaction, text, view)
        key = (table.id, interaction.user.id)
        self._close(key, claim_passed_text())  # an older question of the same player
        loop = asyncio.get_running_loop()
        timer = loop.call_later(EXPIRES, self._expire, key)
        self._asked[key] = _Asked(interaction, seat, game.version, timer)

    def _moved(self, table: Table, events: list[Event]) -> None:
        """The feed's listener: a question whose table moved on is closed. A claim made
        from it is answered by its Confirm (the question becomes the hand), not here."""
        if not self._asked:
            return
        game = table.game
        for key in [k for k in self._asked if k[0] == table.id]:
            asked = self._asked[key]
            if game is not None and table.status == "active" and game.version == asked.version:
                continue
            claimed = any(isinstance(e, ClaimMade) and e.seat == asked.seat for e in events)
            self._close(key, None if claimed else claim_passed_text())

    def _expire(self, key: tuple[int, int]) -> None:
        self._close(
            key,
            _("⌛ This claim question expired — claim again from your hand if you still want to."),
        )

    def _close(self, key: tuple[int, int], text: str | None) -> None:
        """Forget the question of ``key``; with ``text``, edit it to say so, without buttons."""
        asked = self._asked.pop(key, None)
        if asked is None:
            return
        if asked.timer is not None:
            asked.timer.cancel()
        if text is not None:
            self.svc.own(self._edit(asked.interaction, text), name="claim-question-closed")

    @staticmethod
    async def _edit(interaction: discord.Interaction[Any], text: str) -> None:
        try:
            await interaction.edit_original_response(content=text, view=None)
        except discord.HTTPException as exc:  # dismissed, or its token lapsed
            log.info("could not close a claim question (HTTP %s)", exc.status)

    async def on_table_button(
        self, interaction: discord.Interaction[Any], table_id: int, verb: str
    ) -> None:
        if verb == "keep":  # only closes the private question, whatever the table's state
            self._close((table_id, interaction.user.id), None)
            await settle(interaction, _("You keep playing."))
            return
        table = await self.svc.current_table(
            table_id
        )  # with several processes: loaded or caught up
        looks_back = verb in LOOKS and table is not None and table.status == "finished"
        if table is None or (table.status != "active" and not looks_back) or table.game is None:
            await refuse(interaction, _("This game is not being played."))
            return
        self.presenter.refresh_classic(table, interaction.message)
        seat = table.seat_of(interaction.user.id)
        game = table.game
        if verb in LOOKS:
            await self._look(interaction, table, verb)
            return
        if seat is None:
            await refuse(interaction, _("You are not playing at this table."))
            return
        if verb in ("claims", "claim-all"):
            view = game.observe(seat)
            claims = [a for a in view.claims if isinstance(a, Claim)]
            if not claims:
                await refuse(
                    interaction,
                    _("You can claim only on your turn during the play, with no claim waiting."),
                )
                return
            if verb == "claim-all":
                n = claims[0].tricks  # all the tricks left come first
                text = (
                    ngettext(
                        "Claim all {n} trick? Your hand will be shown to everyone.",
                        "Claim all {n} tricks? Your hand will be shown to everyone.",
                        n,
                    ).format(n=n)
                    if n
                    else _("Claim to take no more tricks? Your hand will be shown to everyone.")
                )
                await self._ask(
                    interaction, table, seat, text, claim_confirm(table.id, game.version, view)
                )
                return
            text = _(
                "How many of the remaining tricks do you claim? Your hand will be shown to everyone; your opponents accept or reject."
            )
            await self._ask(
                interaction, table, seat, text, claim_menu(table.id, game.version, view)
            )
            return
        partnered = game.rules.concession_asks_partner
        if verb == "concede":
            try:
                game.check(seat, Concede())
            except IllegalAction as exc:
                await refuse(interaction, reason_text(exc.reason))
                return
            text = (
                _(
                    "Propose to concede the game? If your partner agrees, it ends now and counts as a loss for your side."
                )
                if partnered
                else _("Concede the game? It ends now and counts as a loss.")
            )
            await reply(interaction, text, concede_confirm(table.id))
            return
        if verb == "concede-yes":
            done = (
                _("🏳️ You proposed to concede the game — your partner agrees or plays on.")
                if partnered
                else _("🏳️ You conceded the game.")
            )
            await self.play.on_table_action(interaction, table, seat, Concede(), done)
            return
        log.debug("unknown claim verb %r", verb)
        await refuse(interaction, _("That button is not recognised."))

    async def _look(self, interaction: discord.Interaction[Any], table: Table, verb: str) -> None:
        """Last trick, This deal (with the scores) or Scores (an older message's): a
        private answer of public information (read from the view of a seat whose hand
        is never shown), to players and onlookers alike. This deal carries **Concede**
        for a player whose side may concede now (it asks first, as ever), at a table
        with a table message (not a board played in a DM, which never offered it)."""
        game = table.game
        assert game is not None
        look = {"last": last_trick_text, "deal": this_deal_text, "scores": scores_text}[verb]
        text = look(table.info(), game.observe(0))  # the clicker's language
        seat = table.seat_of(interaction.user.id)
        # the table message's Concede moved here; a board played alone in a DM had none
        if (
            verb == "deal"
            and seat is not None
            and table.status == "active"
            and table.kind.rules.concede
        ):
            try:
                game.check(seat, Concede())
            except IllegalAction:
                pass
            else:
                await reply(interaction, text, concede_button(table.id))
                return
        await reply(interaction, text)
