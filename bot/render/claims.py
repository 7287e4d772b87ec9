"""Text for claims, concessions and the last trick (:mod:`engine.claims`).

* :func:`claim_lines`: while a claim waits, the claimer, what he claims, his hand
  (shown to everyone) and who has answered; while a concession waits, who
  proposed it and whose answer it waits for. On the table and in every hand.
* :func:`claim_event_lines`: the public lines of the claim and concession events
  (made, answered, accepted or rejected, conceded).
* :func:`last_trick_text`: the answer of the **Last trick** button, by player name.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Card, SeatView
from engine.claims import (
    CLAIM,
    CONCEDE,
    ClaimAnswered,
    ClaimMade,
    ClaimSettled,
    Conceded,
    ConcessionAnswered,
    ConcessionProposed,
)
from engine.events import Event

from .common import TableInfo, card_text, cards_text

__all__ = ["claim_event_lines", "claim_lines", "claim_words", "last_trick_text"]


def claim_words(tricks: int, remaining: int) -> str:
    """``all 5 remaining tricks`` / ``3 of the 5 remaining tricks`` / ``none of the 5 remaining tricks``."""
    plural = "s" if remaining != 1 else ""
    if tricks == remaining:
        return f"all {remaining} remaining trick{plural}" if remaining != 1 else "the last trick"
    if tricks == 0:
        return f"none of the {remaining} remaining trick{plural}"
    return f"{tricks} of the {remaining} remaining trick{plural}"


def claim_lines(info: TableInfo, view: SeatView) -> list[str]:
    """The claim or concession waiting for answers, if any (public)."""
    if view.phase == CLAIM:
        note = view.note("claim")
        if not isinstance(note, tuple) or len(note) != 4:
            return []
        seat, tricks, accepted, hand = note
        rules = view.rules
        remaining = (rules.tricks_per_deal if rules else 13) - view.trick_no + 1
        cards = [c for c in hand if isinstance(c, Card)]
        lines = [
            f"⚖️ **{info.seat_name(seat)}** claims {claim_words(tricks, remaining)} — "
            f"their hand: {cards_text(cards) if cards else '(no cards)'}"
        ]
        sides = view.sides or tuple(s % 2 for s in range(info.n))
        waiting = [s for s in range(info.n) if sides[s] != sides[seat] and s not in accepted]
        done = ", ".join(info.seat_name(s) for s in accepted)
        wait = ", ".join(info.seat_name(s) for s in waiting)
        lines.append(
            (f"Accepted by {done}; " if done else "")
            + f"waiting for {wait} to **Accept** or **Reject**. Nobody plays until then."
        )
        return lines
    if view.phase == CONCEDE:
        note = view.note("concede")
        if not isinstance(note, tuple) or len(note) != 3:
            return []
        seat, partner, _ = note
        return [f"🏳️ **{info.seat_name(seat)}** proposes to concede the game — waiting for {info.seat_name(partner)} to agree or play on."]
    return []


def claim_event_lines(info: TableInfo, events: Sequence[Event]) -> list[str]:
    """Public lines for the claim and concession events in ``events``."""
    out: list[str] = []
    for ev in events:
        if isinstance(ev, ClaimMade):
            out.append(f"{info.seat_name(ev.seat)} claims {claim_words(ev.tricks, ev.remaining)}.")
        elif isinstance(ev, ClaimAnswered):
            out.append(f"{info.seat_name(ev.seat)} {'accepts' if ev.accepted else 'rejects'} the claim.")
        elif isinstance(ev, ClaimSettled):
            if ev.accepted:
                out.append(f"Claim accepted: the deal is scored as claimed ({info.seat_name(ev.seat)}'s side takes {ev.claimed} more).")
            else:
                out.append("Claim rejected: play goes on.")
        elif isinstance(ev, ConcessionProposed):
            out.append(f"{info.seat_name(ev.seat)} proposes to concede the game.")
        elif isinstance(ev, ConcessionAnswered):
            out.append(f"{info.seat_name(ev.seat)} {'agrees to concede' if ev.agreed else 'refuses: play on'}.")
        elif isinstance(ev, Conceded):
            out.append(f"🏳️ {info.side_players(ev.side) if info.partnerships else info.names[ev.side]} conceded the game.")
    return out


def last_trick_text(info: TableInfo, view: SeatView) -> str:
    """The last completed trick of the deal in play by player name, and who won it."""
    if not view.completed_tricks:
        return "No trick has been completed in this deal yet."
    leader, cards, winner = view.completed_tricks[-1]
    n = info.n
    played = "\n".join(
        f"{'**' if (leader + i) % n == winner else ''}{info.seat_name((leader + i) % n)}: {card_text(c)}"
        f"{'**  ← won it' if (leader + i) % n == winner else ''}"
        for i, c in enumerate(cards)
    )
    return f"Last trick (trick {len(view.completed_tricks)} of deal {view.deal_no}) — **{info.seat_name(winner)}** won it:\n{played}"
