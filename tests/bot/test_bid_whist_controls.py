"""Bid Whist's controls and texts from engine states (no Discord needed): Pass as a
button and every bid in one menu that says its books and what its mode means; the
declarer's naming buttons; the kitty menu; jokers
by name; hands in the contract's rank order."""

from __future__ import annotations

from typing import Any

from bot.present.controls import hand_controls
from bot.present.render import SeatInfo, TableInfo, hand_message, table_text
from engine import Game, decode_action, new_game
from engine.actions import Discard

from .dm_play import JOKERS
from .test_auction_and_layout_controls import _items

MODES = ("uptown", "downtown", "no trump")
RANKS_UP = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
RANKS_DOWN = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
RANKS_DOWN_ACE_LOW = RANKS_DOWN[1:] + ["A"]


def _game(seed: int, **overrides: Any) -> Game:
    game, _ = new_game("bid-whist", None, overrides, seed=seed)
    return game


def _call(game: Game, *codes: str) -> None:
    """The next seats to act call ``codes`` in turn (``pass`` or a bid such as ``4u``)."""
    for code in codes:
        game.apply(game.to_act(), decode_action("pass" if code == "pass" else f"bid:{code}"))  # type: ignore[arg-type]


def _info(game: Game) -> TableInfo:
    names = ("alice", "bob", "carol", "dave")
    return TableInfo(1, game.rules, tuple(SeatInfo(n, user_id=i + 1) for i, n in enumerate(names)))


def _live(view: Any) -> list[Any]:
    """The live choices: the buttons, then the menu's options (with a ``label``)."""
    out = []
    for i in _items(hand_controls(1, 0, view)):
        if hasattr(i, "options"):
            out.extend(i.options)
        elif not getattr(i, "disabled", False):
            out.append(i)
    return out


def test_first_bidder_gets_pass_and_a_menu_of_every_bid_in_books() -> None:
    game = _game(3)
    seat = game.to_act()
    items = _items(hand_controls(1, game.version, game.observe(seat)))
    assert [(i.row, i.label) for i in items if not hasattr(i, "options")] == [(0, "Pass")]
    (menu,) = [i for i in items if hasattr(i, "options")]
    assert menu.row == 1 and menu.min_values == menu.max_values == 1
    assert [o.label for o in menu.options] == [f"{n} {m}" for n in range(3, 8) for m in MODES]
    assert [o.value for o in menu.options[:3]] == ["bid:3u", "bid:3d", "bid:3n"]
    notes = {o.label: o.description for o in menu.options}
    assert notes["3 uptown"] == "9 books of 13 (6 + the bid) · high cards win"
    assert notes["5 downtown"] == "11 books of 13 (6 + the bid) · low cards win"
    assert notes["7 no trump"].startswith("13 books of 13") and "direction" in notes["7 no trump"]
    assert not _live(game.observe((seat + 1) % 4))  # nothing live out of turn


def test_only_outranking_bids_are_offered_and_the_dealer_must_bid() -> None:
    game = _game(3)
    _call(game, "4d")
    labels = [i.label for i in _live(game.observe(game.to_act()))]
    assert labels == ["Pass", "4 no trump"] + [f"{n} {m}" for n in range(5, 8) for m in MODES]
    text = hand_message(_info(game), game.observe(game.to_act()))
    assert "the highest so far is 4 downtown; bid 4 no trump or more, or pass" in text

    game = _game(4, same_number_order="no_equal")
    _call(game, "3n", "pass")
    assert [i.label for i in _live(game.observe(game.to_act()))][:2] == ["Pass", "4 uptown"]

    game = _game(5)
    _call(game, "pass", "pass", "pass")
    dealer = game.to_act()
    assert dealer == game.dealer
    labels = [i.label for i in _live(game.observe(dealer))]
    assert "Pass" not in labels and labels[0] == "3 uptown" and len(labels) == 15
    assert "everyone else passed, so you (the dealer) must bid" in hand_message(
        _info(game), game.observe(dealer)
    )


def test_declarer_names_trumps_or_the_direction() -> None:
    game = _game(6)
    _call(game, "pass", "3n", "pass", "pass")
    declarer = game.observe(0).declarer
    assert declarer is not None and game.to_act() == declarer
    assert [i.label for i in _live(game.observe(declarer))] == [
        "Uptown (high cards win)",
        "Downtown (low cards win)",
    ]
    text = hand_message(_info(game), game.observe(declarer))
    assert (
        "you won the bidding with 3 no trump (9 books)" in text
        and "before you see the kitty" in text
    )
    table = table_text(_info(game), game.observe(0))
    assert "No trumps · direction **to be named by the declarer**" in table
    assert "to name uptown or downtown" in table

    game = _game(6)
    _call(game, "pass", "5d", "pass", "pass")
    declarer = game.to_act()
    assert [i.label for i in _live(game.observe(declarer))] == [
        f"Trumps: {s}\ufe0e" for s in "♠♥♦♣"
    ]


def _suit_groups(line: str) -> list[list[str]]:
    """The rank groups of a ``Your hand (n): Big Joker · ♠ A 2 3 · …`` line (jokers left out)."""
    groups = line.split(": ", 1)[1].split(" · ")
    return [g.split(" ")[1:] for g in groups if g not in JOKERS.values() and g != "(no cards)"]


def _assert_in_order(ranks: list[str], order: list[str]) -> None:
    positions = [order.index(r) for r in ranks]
    assert positions == sorted(positions), (ranks, order)


def _joker_holder(seed: int, **overrides: Any) -> tuple[Game, int]:
    """A deal where the first bidder holds a joker."""
    for s in range(seed, seed + 200):
        game = _game(s, **overrides)
        seat = game.to_act()
        if any(c.is_joker for c in game.hand(seat)):
            return game, seat
    raise AssertionError("no joker dealt to the first bidder")


def test_hands_in_the_contract_order_with_jokers_by_name() -> None:
    # downtown in a suit: A 2 3 … K, jokers first (the top trumps)
    game, seat = _joker_holder(10)
    _call(game, "3d", "pass", "pass", "pass")
    game.apply(seat, decode_action("trump:S"))
    view = game.observe(seat)
    text = hand_message(_info(game), view)
    line = next(ln for ln in text.splitlines() if ln.startswith("Your hand"))
    held = [JOKERS[c.code] for c in sorted(game.hand(seat), key=lambda c: -c.index) if c.is_joker]
    assert line.split(": ", 1)[1].startswith(" · ".join(held))
    assert "BJ" not in text and "LJ" not in text
    for ranks in _suit_groups(line):
        _assert_in_order(ranks, RANKS_DOWN)
    menu = next(i for i in _items(hand_controls(1, game.version, view)) if hasattr(i, "options"))
    assert menu.min_values == menu.max_values == 6 and len(menu.options) == 18
    assert [o.label for o in menu.options][: len(held)] == held
    assert "choose the 6 cards to lay out face down — they are your side's first book" in text

    # no trump downtown with the ace low: 2 3 … K A, jokers last (they never win)
    game, seat = _joker_holder(40, downtown_ace="low")
    _call(game, "3n", "pass", "pass", "pass")
    game.apply(seat, decode_action("dir:down"))
    line = next(
        ln
        for ln in hand_message(_info(game), game.observe(seat)).splitlines()
        if ln.startswith("Your hand")
    )
    assert line.endswith(
        " · ".join(
            JOKERS[c.code] for c in sorted(game.hand(seat), key=lambda c: -c.index) if c.is_joker
        )
    )
    for ranks in _suit_groups(line):
        _assert_in_order(ranks, RANKS_DOWN_ACE_LOW)
    table = table_text(_info(game), game.observe(0))
    assert "No trumps · **downtown, ace low (2 3 … K A)**; the jokers never win a trick" in table
    seat_name = ("North", "East", "South", "West")[seat]
    assert f"Contract: **3 no trump**, downtown · declared by {seat_name}" in table


def test_no_trump_jokers_are_laid_out_first_under_bidder_discards() -> None:
    game, seat = _joker_holder(70, nt_jokers="bidder_discards")
    _call(game, "4n", "pass", "pass", "pass")
    game.apply(seat, decode_action("dir:up"))
    view = game.observe(seat)
    jokers = [c for c in view.hand if c.is_joker]
    menu = next(i for i in _items(hand_controls(1, game.version, view)) if hasattr(i, "options"))
    assert sorted(o.label for o in menu.options) == sorted(JOKERS[c.code] for c in jokers)
    assert menu.min_values == len(jokers)
    assert "In no trump your jokers go out first." in hand_message(_info(game), view)
    for card in jokers:
        game.apply(seat, Discard(card))
    menu = next(
        i
        for i in _items(hand_controls(1, game.version, game.observe(seat)))
        if hasattr(i, "options")
    )
    assert menu.min_values == 6 - len(jokers) and len(menu.options) == 18 - len(jokers)


def test_all_pass_redeal_is_summed_up_and_the_score_line_names_both_ends() -> None:
    from bot.present.render import deal_summary

    game = _game(8, all_pass="redeal")
    dealer = game.dealer
    events = []
    for _ in range(4):
        events.extend(game.apply(game.to_act(), decode_action("pass")))
    info = _info(game)
    names = ("North (alice)", "East (bob)", "South (carol)", "West (dave)")
    summary = deal_summary(info, events)
    assert summary == (
        f"🃏 Table #1 · Everyone passed: the deal is thrown in and {names[(dealer + 1) % 4]} deals."
    )
    assert game.dealer == (dealer + 1) % 4 and game.phase == "bidding" and game.scores == [0, 0]
    assert "Score: NS **0** · EW **0** (game to 7, or lost at -7)" in table_text(
        info, game.observe(0)
    )
