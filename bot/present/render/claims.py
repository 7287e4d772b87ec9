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

from bot.present.i18n import _, ngettext
from bot.present.render.common import SIDE_NAMES, TableInfo, card_text, cards_text
from engine import (
    CLAIM,
    CONCEDE,
    ClaimAnswered,
    ClaimMade,
    ClaimSettled,
    Conceded,
    ConcessionAnswered,
    ConcessionProposed,
    Event,
    SeatView,
)

__all__ = [
    "claim_event_lines",
    "claim_lines",
    "claim_words",
    "concession_line",
    "last_trick_text",
]


def claim_words(tricks: int, remaining: int) -> str:
    """``all 5 remaining tricks`` / ``3 of the 5 remaining tricks`` / ``none of the 5 remaining tricks``."""
    if tricks == remaining:
        return (
            _("all {n} remaining tricks").format(n=remaining)
            if remaining != 1
            else _("the last trick")
        )
    if tricks == 0:
        return ngettext(
            "none of the {n} remaining trick", "none of the {n} remaining tricks", remaining
        ).format(n=remaining)
    return ngettext(
        "{claimed} of the {n} remaining trick", "{claimed} of the {n} remaining tricks", remaining
    ).format(claimed=tricks, n=remaining)


def claim_lines(info: TableInfo, view: SeatView) -> list[str]:
    """The claim or concession waiting for answers, if any (public)."""
    if view.phase == CLAIM:
        note = view.claim_note
        if note is None:
            return []
        seat, tricks, accepted, hand = note.seat, note.tricks, note.accepted, note.hand
        remaining = view.tricks_left
        cards = list(hand)
        lines = [
            _("⚖️ **{who}** claims {tricks} — their hand: {cards}").format(
                who=info.seat_name(seat),
                tricks=claim_words(tricks, remaining),
                cards=cards_text(cards) if cards else _("(no cards)"),
            )
        ]
        sides = view.seat_sides
        waiting = [s for s in range(info.n) if sides[s] != sides[seat] and s not in accepted]
        done = ", ".join(info.seat_name(s) for s in accepted)
        wait = ", ".join(info.seat_name(s) for s in waiting)
        lines.append(
            (_("Accepted by {who}; ").format(who=done) if done else "")
            + _("waiting for {who} to **Accept** or **Reject**. Nobody plays until then.").format(
                who=wait
            )
        )
        return lines
    if view.phase == CONCEDE:
        concession = view.concede_note
        if concession is None:
            return []
        seat, partner = concession.seat, concession.partner
        return [
            _(
                "🏳️ **{who}** proposes to concede the game — waiting for {partner} to agree or play on."
            ).format(who=info.seat_name(seat), partner=info.seat_name(partner))
        ]
    return []


def claim_event_lines(info: TableInfo, events: Sequence[Event]) -> list[str]:
    """Public lines for the claim and concession events in ``events``."""
    out: list[str] = []
    for ev in events:
        if isinstance(ev, ClaimMade):
            out.append(
                _("{who} claims {tricks}.").format(
                    who=info.seat_name(ev.seat), tricks=claim_words(ev.tricks, ev.remaining)
                )
            )
        elif isinstance(ev, ClaimAnswered):
            if ev.accepted:
                out.append(_("{who} accepts the claim.").format(who=info.seat_name(ev.seat)))
            else:
                out.append(_("{who} rejects the claim.").format(who=info.seat_name(ev.seat)))
        elif isinstance(ev, ClaimSettled):
            if ev.accepted:
                out.append(
                    _(
                        "Claim accepted: the deal is scored as claimed ({who}'s side takes {n} more)."
                    ).format(who=info.seat_name(ev.seat), n=ev.claimed)
                )
            else:
                out.append(_("Claim rejected: play goes on."))
        elif isinstance(ev, ConcessionProposed):
            out.append(_("{who} proposes to concede the game.").format(who=info.seat_name(ev.seat)))
        elif isinstance(ev, ConcessionAnswered):
            if ev.agreed:
                out.append(_("{who} agrees to concede.").format(who=info.seat_name(ev.seat)))
            else:
                out.append(_("{who} refuses: play on.").format(who=info.seat_name(ev.seat)))
        elif isinstance(ev, Conceded):
            who = info.side_players(ev.side) if info.partnerships else info.names[ev.side]
            out.append(_("🏳️ {who} conceded the game.").format(who=who))
    return out


def last_trick_text(info: TableInfo, view: SeatView) -> str:
    """The last completed trick of the deal in play by player name, and who won it;
    before the deal's first trick is complete, the last trick of the deal before
    (``SeatView.previous_trick``, kept by the engine)."""
    if view.completed_tricks:
        leader, cards, winner = view.completed_tricks[-1]
        head = _("Last trick (trick {number} of deal {deal}) — **{who}** won it:").format(
            number=len(view.completed_tricks), deal=view.deal_no, who=info.seat_name(winner)
        )
    elif view.previous_trick is not None:
        leader, cards, winner = view.previous_trick
        head = _(
            "No trick is complete in this deal yet. The last trick of the deal before — **{who}** won it:"
        ).format(who=info.seat_name(winner))
    else:
        return _("No trick has been completed in this deal yet.")
    n = info.n
    played = "\n".join(
        f"{'**' if (leader + i) % n == winner else ''}{info.seat_name((leader + i) % n)}: {card_text(c)}"
        + ("**  " + _("← won it") if (leader + i) % n == winner else "")
        for i, c in enumerate(cards)
    )
    return head + "\n" + played


def concession_line(info: TableInfo, view: SeatView) -> str:
    """Who gave the game up and who wins by it (``bob conceded — alice wins``);
    empty unless a concession ended the game."""
    conceded = view.conceded
    if conceded is None:
        return ""
    loser = conceded.side
    winner = view.winner if view.winner is not None else 1 - loser
    if info.partnerships:
        return _("🏳️ **{loser}** ({lost}) conceded — **{winner}** ({won}) win.").format(
            loser=SIDE_NAMES[loser],
            lost=info.side_players(loser),
            winner=SIDE_NAMES[winner],
            won=info.side_players(winner),
        )
    return _("🏳️ **{loser}** conceded — **{winner}** wins.").format(
        loser=info.who(conceded.seat), winner=info.side_players(winner)
    )
