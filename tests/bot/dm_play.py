"""Driving the games with auctions, ruff contests and layouts from the players' DMs.

Every click goes through the real bot's buttons and menus: a choice by its plain
label ("Pass", "Trumps: ♠"), a Solo call or a Bid Whist bid from the menu that says
what each undertakes, a layout card by its "▲" label, a ruff value by the featured
button or from a menu.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot.present.render import card_label, card_text
from engine import Card, Game, SeatView, sort_hand
from engine.actions import Action, DeclineRuff, Discard, Pass, Play, TakeRuff
from engine.claims import AcceptClaim, RejectClaim, answering
from engine.phases.auction import Bid as BidWhistBid
from engine.phases.contest import RuffClaim, best_suit
from engine.phases.contract import NameDirection
from engine.phases.solo_auction import SoloBid
from engine.phases.solo_declare import NameTrump

from .helpers import buttons, choose_cards, enabled_labels, hand_message, table_message

NAMES = ("alice", "bob", "carol", "dave")
SEATS = {4: ("North", "East", "South", "West"), 3: ("North", "East", "West"), 2: ("North", "South")}
SHORT = {4: "NESW", 3: "NEW", 2: "NS"}
CALLS = {
    "pass": "Pass",
    "accept": "Accept",
    "prop": "Propose",
    "solo": "Solo",
    "mis": "Misère",
    "abund": "Abundance",
    "royal": "Royal Abundance",
    "spread": "Spread Misère",
    "slam": "Slam",
}

MODES = {"u": "uptown", "d": "downtown", "n": "no trump"}  # Bid Whist's bids: "4 uptown"
JOKERS = {"BJ": "Big Joker", "LJ": "Little Joker"}

Policy = Callable[[Game, SeatView], list[Action]]


def true_ruff(view: SeatView) -> int:
    hand = 0
    for card in view.hand:
        hand |= card.bit
    assert view.rules is not None
    return best_suit(hand, view.turn_up, view.trump, view.rules.ruff_measure)[0]


def label_of(view: SeatView, action: Action) -> str:
    """The label a player reads on the button of ``action`` (written out, not imported)."""
    if isinstance(action, Play):
        label = card_label(action.card)
        return label if action.card in view.hand else f"▲{label}"
    if isinstance(action, SoloBid):
        return CALLS[action.call]
    if isinstance(action, BidWhistBid):
        return f"{action.number} {MODES[action.mode]}"
    if isinstance(action, NameDirection):
        return (
            "Uptown (high cards win)"
            if action.direction == "uptown"
            else "Downtown (low cards win)"
        )
    if isinstance(action, Pass):
        return "Pass"
    if isinstance(action, NameTrump):
        return f"Trumps: {action.suit.symbol}\ufe0e"
    if isinstance(action, AcceptClaim):
        return "Accept the claim"
    if isinstance(action, RejectClaim):
        return "Reject the claim"
    rub = view.rules is not None and view.rules.family == "ruffe_trump"  # its "ruff" is the contest
    if isinstance(action, TakeRuff):
        return "Take the top four of the head (rub)" if rub else "Take the stock (ruff)"
    if isinstance(action, DeclineRuff):
        return "Decline the rub" if rub else "Decline the ruff"
    raise AssertionError(f"no button for {action}")


def selects(message: discord.Message) -> list[Any]:
    return [b for b in buttons(message) if b.type == discord.ComponentType.string_select]


def check_dm(game: Game, seat: int, message: discord.Message) -> None:
    """The DM's live controls are exactly the seat's legal actions now (none out of turn)."""
    view = game.observe(seat)
    live = {
        x for x in enabled_labels(message) if not x.startswith(("Claim", "💡"))
    }  # the claim row (test_claims), the Hint button (test_hints)
    if game.to_act() != seat and seat in answering(game):
        assert live == {label_of(view, a) for a in view.legal}, live  # asked about a claim too
        return
    if game.to_act() != seat:
        assert live == set() and not selects(message), f"live buttons out of turn: {live}"
        assert "Not your turn" in message.content
        return
    assert any(w in message.content for w in ("Your turn", "Your call", "Your bid")), (
        message.content
    )
    legal = view.legal
    if any(isinstance(a, RuffClaim) for a in legal):
        menus = selects(message)
        values = sorted(int(o.value.split(":")[1]) for m in menus for o in m.options)
        assert values == sorted(a.value for a in legal if isinstance(a, RuffClaim))
        assert live == {f"Declare {true_ruff(view)} (my best suit)"}
        return
    if any(isinstance(a, Discard) for a in legal):
        return
    # calls and bids that need a word of explanation are options of a menu (with it)
    offered = {
        o.label for m in selects(message) if str(m.custom_id).startswith("rh:c:") for o in m.options
    }
    assert live | offered == {label_of(view, a) for a in legal}, (live, offered, legal)


async def act(member: Any, game: Game, seat: int, actions: list[Action]) -> Any:
    """Click (or choose) ``actions`` on ``seat``'s DM as its owner would."""
    message = hand_message(member)
    view = game.observe(seat)
    first = actions[0]
    user = member.user
    if isinstance(first, Discard):
        return await choose_cards(
            user, message, [a.card.code for a in actions if isinstance(a, Discard)]
        )
    if isinstance(first, RuffClaim):
        if first.value == true_ruff(view):
            return await user.click(message, label=f"Declare {first.value} (my best suit)")
        menu = next(
            m for m in selects(message) if any(o.value == first.encode() for o in m.options)
        )
        return await choose_cards(user, message, [first.encode()], custom_id=menu.custom_id)
    offered = next(
        (m for m in selects(message) if any(o.value == first.encode() for o in m.options)), None
    )
    if offered is not None:  # a call or a bid from the menu that says what each undertakes
        return await choose_cards(user, message, [first.encode()], custom_id=offered.custom_id)
    return await user.click(message, label=label_of(view, first))


def lowest_card(view: SeatView) -> list[Action]:
    plays = sort_hand([a.card for a in view.legal if isinstance(a, Play)], view.trump)
    return [Play(plays[-1])]


def rub_and_lay_out(view: SeatView) -> list[Action] | None:
    """Take the rub (or ruff) and lay out the four lowest cards; None when not that step."""
    legal = view.legal
    if TakeRuff() in legal:
        return [TakeRuff()]
    discards = [a.card for a in legal if isinstance(a, Discard)]
    if discards:
        return [Discard(c) for c in sort_hand(discards, view.trump)[-view.to_lay_out :]]
    return None


async def open_table(
    env: Any,
    n_humans: int,
    game: str,
    *,
    options: str | None = None,
    target: int | None = None,
    ai: int = 0,
) -> tuple[Any, Any, list[Any]]:
    """Open a table of ``game`` with ``n_humans`` people (and ``ai`` easy AI seats), start it."""
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    players = [guild.add_member(env.create_user(name)) for name in NAMES[:n_humans]]
    kwargs: dict[str, Any] = {"game": game}
    if options:
        kwargs["options"] = options
    if target is not None:
        kwargs["target"] = target
    res = await players[0].slash(channel, "ruff new", **kwargs)
    assert not res.ephemeral, res.response.content
    for player in players[1:]:
        res = await player.click(table_message(channel), label="Join")
        assert not res.ephemeral
    for _ in range(ai):
        await players[0].click(table_message(channel), label="Add AI (easy)")
    await players[0].click(table_message(channel), label="Start")
    return guild, channel, players


async def play_out(
    env: Any,
    table: Any,
    players: list[Any],
    policy: Policy,
    each: Callable[[Game], None] | None = None,
    limit: int = 400,
) -> int:
    """Humans act from their DMs by ``policy`` until the game ends; returns the clicks.

    Before every click every human's DM is checked (:func:`check_dm`) and ``each``
    runs on the game. The AI seats never keep a human waiting.
    """
    clicks = 0
    while not table.game.is_over:
        game = table.game
        for seat, player in enumerate(players):
            check_dm(game, seat, hand_message(player))
        if each is not None:
            each(game)
        seat = game.to_act()
        assert seat is not None and seat < len(players), "an AI seat kept the table waiting"
        actions = policy(game, game.observe(seat))
        res = await act(players[seat], game, seat, actions)
        # answered in place, never refused privately; a click that ended the deal was
        # answered on a DM that the next deal's DM has replaced (deleted)
        new_deal = (table.game.game_no, table.game.deal_no) != (game.game_no, game.deal_no)
        assert res.acknowledged and not res.ephemeral, res
        assert res.response is not None or new_deal, res
        assert table.game.version > game.version, "the click changed nothing"
        clicks += 1
        assert clicks < limit, "the game does not end"
    return clicks


def card_shown(text: str, card: Card) -> bool:
    import re

    return re.search(rf"(?<![0-9A-Za-z]){re.escape(card_text(card))}", text) is not None
