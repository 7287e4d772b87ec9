"""Counting a Bid Whist contract: the quick count of a hand's books
(:func:`estimate_tricks`), the keep value of a card for the lay-out
(:func:`keep_value`), each mode's model and best trump or direction, and a
contract's points.
"""

from __future__ import annotations

from engine.ai.search.bitmasks import card_indices
from engine.ai.strategies.bid_whist.model import NONE, DealModel, is_master, model_of
from engine.cards import SUITS, RankOrder, Suit
from engine.game import SeatView

__all__ = [
    "contract_candidates",
    "contract_model",
    "contract_points",
    "estimate_tricks",
    "keep_value",
]


def estimate_tricks(m: DealModel, hand: int) -> float:
    """A quick count of the tricks ``hand`` should take as declarer under ``m``.

    A card is a likely winner when fewer cards above it are out than it has
    guards below it in the suit; side suits count at most two winners in a
    trump contract; long trumps and long no-trump suits add their length.
    """
    total = 0.0
    for s in range(4):
        mine = hand & m.masks[s]
        if not mine:
            continue
        ranked = sorted(card_indices(m.masks[s]), key=m.key.__getitem__, reverse=True)
        winners = 0
        count = mine.bit_count()
        held_above = 0
        for pos, c in enumerate(ranked):
            if not mine >> c & 1:
                continue
            out_above = pos - held_above
            below = count - held_above - 1
            if out_above <= below:
                winners += 1
            held_above += 1
        if s == m.trump:
            total += winners + max(0, count - 4)
        elif m.trump != NONE:
            total += min(winners, 2)
        else:
            total += winners + (max(0, count - 4) if winners >= 2 else 0)
    return total


def keep_value(m: DealModel, hand: int, c: int, unseen: int) -> float:
    """How much the declarer wants to keep card ``c`` (the lowest goes into the lay-out)."""
    s = m.suit[c]
    if s == NONE:
        return -100.0  # a powerless joker never wins
    strength = m.key[c] % 100
    if s == m.trump:
        return 200.0 + strength
    if is_master(m, c, unseen):
        return 100.0 + strength
    length = (hand & m.masks[s]).bit_count()
    bonus = 4.0 * length if m.trump == NONE else (2.0 * length if length > 2 else 0.0)
    return strength + bonus


def _order(direction: str, rules_ace: object) -> RankOrder:
    return RankOrder.for_mode(direction, str(rules_ace))


def contract_model(view: SeatView, code: str, choice: Suit | str) -> DealModel:
    """The model of contract ``code`` with trump ``choice`` (a suit) or direction (NT)."""
    assert view.rules is not None
    ace = view.rules.downtown_ace
    if code.endswith("n"):
        assert isinstance(choice, str)
        return model_of(None, _order(choice, ace))
    assert isinstance(choice, Suit)
    return model_of(choice, _order("uptown" if code.endswith("u") else "downtown", ace))


def contract_candidates(view: SeatView, hand: int) -> list[tuple[str, Suit | str, float]]:
    """Per mode (u, d, n): the best trump or direction by the quick count, and the count."""
    out: list[tuple[str, Suit | str, float]] = []
    for mode in ("u", "d", "n"):
        choices: list[Suit | str] = ["uptown", "downtown"] if mode == "n" else list(SUITS)
        scored = [(estimate_tricks(contract_model(view, mode, c), hand), c) for c in choices]
        best = max(scored, key=lambda t: t[0])
        out.append((mode, best[1], best[0]))
    return out


def contract_points(
    rules_made: str, multiplier: int, number: int, no_trump: bool, books: int
) -> int:
    made = books >= 6 + number
    points = (books - 6 if rules_made == "books_over_six" else number) if made else -number
    return points * (multiplier if no_trump else 1)
