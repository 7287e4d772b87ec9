"""Pure text for ``/ruff replay``: one trick of a finished game, every hand shown.

A replay's steps are the game's tricks in order (:attr:`engine.export.GameLog.tricks`),
numbered from 0. :func:`step_text` draws one step: the deal it belongs to (game and
deal number, dealer, trumps, the exchange or contract, on its first trick), who led,
each seat's card, who won, the running tricks of the deal and the score, and the
hands as they stood before the trick. The deal's last trick adds the deal's result
and what ended (a game, the match). Every hand is shown because the game is over;
:mod:`bot.features.records` refuses to replay a table that is not finished.

:func:`replay_view` builds the ◀ ▶ buttons: ``rh:r:<table>:<step>`` ids
(the records feature's, :mod:`bot.features.records`), the step each button leads to; a game of several
deals also gets ⏮ ⏭ (the start of this deal or the one before, the next deal's)
and a menu of its deals (``rh:s:<table>``, each option the step of a deal's first
trick), so a deal is one tap away, not a trick at a time. A button that cannot
move (◀ on the first step, ▶ on the last) is drawn disabled, its id leading to the step shown (Discord refuses two equal ids in one message); a game
of one trick gets no buttons.
Nothing here talks to Discord or the database.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.present import components as ui
from bot.present.i18n import _, ngettext
from bot.present.render.common import (
    SEAT_NAMES,
    SEAT_SHORT,
    card_text,
    rank_label,
    suit_name,
    suit_symbol,
)
from bot.present.render.lines import contract_name
from engine import Card, DealLog, GameLog, Seating, Suit, TrickLog, sort_hand

__all__ = [
    "POSITIONS",
    "clamp_step",
    "deal_name",
    "deal_starts",
    "hand_line",
    "replay_deal_id",
    "replay_id",
    "replay_view",
    "step_text",
]

POSITIONS = SEAT_NAMES  # read in the language of the moment (bot/present/i18n.py)
SHORT = SEAT_SHORT


def clamp_step(step: int, total: int) -> int:
    """A requested step brought into ``0 .. total - 1`` (a stale or forged step clamps)."""
    return max(0, min(step, total - 1))


def replay_deal_id(table_id: int) -> str:
    """The id of a replay's menu of deals."""
    return f"rh:s:{table_id}"


def replay_id(table_id: int, step: int) -> str:
    """The custom_id of a replay button leading to ``step``."""
    return f"rh:r:{table_id}:{step}"


def hand_line(cards: Sequence[Card], trump: Suit | None) -> str:
    """``Big Joker · ♥ A K 7 · ♠ Q 10``: jokers by name, then grouped by suit, trumps
    first; ``—`` when empty."""
    groups: list[str] = []
    current: Suit | None = None
    ranks: list[str] = []
    for card in sort_hand(cards, trump):
        if card.is_joker:
            groups.append(card_text(card))
            continue
        if card.suit is not current and ranks:
            assert current is not None
            groups.append(f"{suit_symbol(current)} {' '.join(ranks)}")
            ranks = []
        current = card.suit
        ranks.append(rank_label(card))
    if ranks:
        assert current is not None
        groups.append(f"{suit_symbol(current)} {' '.join(ranks)}")
    return " · ".join(groups) if groups else "—"


def _who(seat: int, names: Sequence[str]) -> str:
    return f"{POSITIONS[seat]} ({names[seat]})"


def _trumps(deal: DealLog) -> str:
    if deal.trump is None:
        return _("no trumps")
    text = f"{suit_symbol(deal.trump)} {suit_name(deal.trump)}"
    if deal.turn_up is not None:
        text += _(" (turn-up {card})").format(card=card_text(deal.turn_up))
    return text


def _pretty(cards: Sequence[Card]) -> str:
    return " ".join(card_text(c) for c in cards) if cards else "—"


def _tricks_line(deal: DealLog, tricks: Sequence[int]) -> str:
    seating = deal.seating
    if seating is None:
        return ""
    return " · ".join(
        f"{_side_label(seating, i)} {tricks[i]}"
        for i in range(min(len(tricks), len(seating.sides)))
    )


def _scores_line(deal: DealLog, scores: Sequence[int]) -> str:
    seating = deal.score_seating
    if seating is None:
        return ""
    return " · ".join(
        f"{_side_label(seating, i)} {scores[i]}"
        for i in range(min(len(scores), len(seating.sides)))
    )


def _side_label(seating: Seating, side: int) -> str:
    """:func:`engine.export.side_label` with the seats' letters of the language of the moment."""
    letters = [SHORT[s] for s in sorted(seating.sides[side])]
    return ("+" if len(letters) > 2 else "").join(letters)


def _hands_before(deal: DealLog, trick: TrickLog) -> list[list[Card]]:
    gone: set[Card] = set()
    for earlier in deal.tricks:
        if earlier is trick:
            break
        gone.update(card for _, card in earlier.plays)
    return [[c for c in hand if c not in gone] for hand in deal.play_hands]


def step_text(table_id: int, title: str, names: Sequence[str], log: GameLog, step: int) -> str:
    """The text of replay step ``step`` (clamped) of a finished game; under 2,000 characters."""
    steps = log.tricks
    if not steps:
        return (
            _("🔁 **Replay — table #{table}** · {title}").format(table=table_id, title=title)
            + "\n"
            + _("No card was played in this game.")
        )
    step = clamp_step(step, len(steps))
    deal, trick = steps[step]
    n = deal.n_players
    lines = [
        _("🔁 **Replay — table #{table}** · {title}").format(table=table_id, title=title)
        + _(" · trick {step} of {steps}").format(step=step + 1, steps=len(steps)),
        _("Game {game}, deal {deal} · Dealer: {dealer} · Trumps: {trumps}").format(
            game=deal.game_no,
            deal=deal.deal_no,
            dealer=_who(deal.dealer, names),
            trumps=_trumps(deal),
        ),
    ]
    if trick is deal.tricks[0]:
        if deal.contract is not None:
            who = _("everyone") if deal.declarer is None else _who(deal.declarer, names)
            partner = (
                ""
                if deal.partner is None
                else _(" with {who}").format(who=_who(deal.partner, names))
            )
            lines.append(
                _("Contract: **{name}** by {who}{partner}").format(
                    name=contract_name(deal.contract), who=who, partner=partner
                )
            )
        what = _("Kitty") if deal.stock_name == "kitty" else _("Ruff")
        stock = (
            _(deal.stock_name) if deal.stock_name in ("stock", "kitty", "head") else deal.stock_name
        )
        if deal.ruffer is not None:
            if deal.declined or not deal.taken:
                lines.append(
                    _("{what}: {who} declined the {stock}").format(
                        what=what, who=_who(deal.ruffer, names), stock=stock
                    )
                )
            else:
                lines.append(
                    _("{what}: {who} took {cards}, laid out {laid_out}").format(
                        what=what,
                        who=_who(deal.ruffer, names),
                        cards=_pretty(deal.taken),
                        laid_out=_pretty(deal.laid_out),
                    )
                )
        elif deal.stock:
            lines.append(
                _("{stock} (not played): {cards}").format(
                    stock=stock[:1].upper() + stock[1:], cards=_pretty(deal.stock)
                )
            )
    hands = _hands_before(deal, trick)
    lines.append(
        _("Hands and layouts before this trick:") if deal.layouts else _("Hands before this trick:")
    )
    for seat in range(n):
        lines.append(f"> {SHORT[seat]} {names[seat]}: {hand_line(hands[seat], deal.trump)}")
    played = " · ".join(f"{SHORT[s]} {card_text(c)}" for s, c in trick.plays)
    lines.append(
        _("**Trick {number}** — {who} led: {cards}").format(
            number=trick.number, who=_who(trick.leader, names), cards=played
        )
    )
    lines.append(
        _("Won by **{who}** · Tricks this deal: {tricks}").format(
            who=_who(trick.winner, names), tricks=_tricks_line(deal, trick.tricks)
        )
    )
    last = trick is deal.tricks[-1]
    if deal.start_scores:
        lines.append(
            _("Score before this deal: {scores}").format(
                scores=_scores_line(deal, deal.start_scores)
            )
        )
    if last:
        if deal.claim is not None:
            claimer, claimed, left = deal.claim
            lines.append(
                ngettext(
                    "{who} claimed {n} of the last {left} trick (accepted)",
                    "{who} claimed {n} of the last {left} tricks (accepted)",
                    left,
                ).format(who=_who(claimer, names), n=claimed, left=left)
            )
        if deal.scores is not None:
            lines.append(
                _("**End of deal {deal}** · Score: {scores}").format(
                    deal=deal.deal_no, scores=_scores_line(deal, deal.scores)
                )
            )
        lines.extend(
            f"· {note}"
            for note in deal.notes
            if note.startswith(("Game ", "Match ", "Honours", "Contract "))
        )
    text = "\n".join(lines)
    return text if len(text) <= 2000 else text[:1999] + "…"


def deal_starts(log: GameLog) -> list[int]:
    """The step of each deal's first trick, in order (deals without a trick left out)."""
    starts: list[int] = []
    last: DealLog | None = None
    for i, (deal, _trick) in enumerate(log.tricks):
        if deal is not last:
            starts.append(i)
            last = deal
    return starts


MENU_DEALS = 25  # Discord's limit on a select menu's options


def replay_view(
    table_id: int,
    step: int,
    total: int,
    starts: Sequence[int] = (),
    deal_names: Sequence[str] = (),
) -> discord.ui.View | None:
    """◀ ▶ for step ``step`` of ``total`` (none for a single step); with several deals
    (``starts``: the step of each deal's first trick, ``deal_names`` their names) also
    ⏮ ⏭ to the start of this deal or the one before and of the next, and a menu of
    the deals (the 25 around this one)."""
    if total <= 1:
        return None
    step = clamp_step(step, total)
    view = ui.Rows()
    back, forward = step - 1, step + 1
    at_start, at_end = back < 0, forward >= total
    several = len(starts) > 1
    if several:
        deal = max(i for i, first in enumerate(starts) if first <= step)
        before = starts[deal] if step > starts[deal] else starts[max(0, deal - 1)]
        at_first = step == 0
        # a disabled button still needs an id of its own (Discord refuses two equal
        # ids in one message): the deal buttons' carry a tag (":d")
        view.button(
            replay_id(table_id, before) + ":d",
            _("⏮ Deal"),
            discord.ButtonStyle.secondary,
            disabled=at_first,
            row=0,
        )
    # a disabled button still needs an id of its own: the step shown (the other leads elsewhere)
    view.button(
        replay_id(table_id, step if at_start else back),
        "◀",
        discord.ButtonStyle.secondary,
        disabled=at_start,
        row=0,
    )
    view.button(
        replay_id(table_id, step if at_end else forward),
        "▶",
        discord.ButtonStyle.primary,
        disabled=at_end,
        row=0,
    )
    if several:
        last_deal = deal == len(starts) - 1
        view.button(
            replay_id(table_id, step if last_deal else starts[deal + 1]) + ":d",
            _("Deal ⏭"),
            discord.ButtonStyle.primary,
            disabled=last_deal,
            row=0,
        )
        low = max(0, min(deal - MENU_DEALS // 2, len(starts) - MENU_DEALS))
        shown = range(low, min(len(starts), low + MENU_DEALS))
        options = [
            (
                deal_names[i] if i < len(deal_names) else str(i + 1),
                str(starts[i]),
                ngettext("{n} trick", "{n} tricks", _deal_length(starts, i, total)).format(
                    n=_deal_length(starts, i, total)
                ),
            )
            for i in shown
        ]
        view.menu(
            replay_deal_id(table_id),
            options,
            1,
            _("Jump to a deal"),
            row=1,
            chosen=[str(starts[deal])],
        )
    return view


def _deal_length(starts: Sequence[int], i: int, total: int) -> int:
    return (starts[i + 1] if i + 1 < len(starts) else total) - starts[i]


def deal_name(deal: DealLog) -> str:
    """``Game 1, deal 3``: a deal's name in the replay's menu."""
    return _("Game {game}, deal {deal}").format(game=deal.game_no, deal=deal.deal_no)
