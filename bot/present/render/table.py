"""Whole public messages: the lobby, the table in play, the final table, and
the rules summary."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.i18n import _, ngettext
from bot.present.render import bidwhist
from bot.present.render.claims import claim_lines, concession_line
from bot.present.render.common import (
    SIDE_NAMES,
    TableInfo,
    card_text,
    fit,
    suit_text,
    target_text,
)
from bot.present.render.lines import (
    auction_line,
    contract_name,
    last_trick_line,
    ruff_line,
    score_line,
    trick_line,
    tricks_line,
    trump_line,
    waiting_line,
)
from bot.present.render.ruffe_trump import contest_lines
from bot.present.render.rules_text import rules_lines
from bot.present.render.solo import contract_line, exposed_lines, sides_line
from bot.present.render.summary import tie_line
from bot.present.render.turnover import layout_lines
from engine import Rules, SeatView


def header(info: TableInfo) -> str:
    rules = info.rules
    head = _("🃏 **{title}** · preset `{preset}` · table #{table}").format(
        title=rules.title, preset=rules.preset, table=info.table_id
    )
    return head + " · " + _("💡 Hints on · unrated") if info.hints else head


def lobby_text(info: TableInfo, creator_name: str, note: str = "") -> str:
    rules = info.rules
    lines = [header(info)]
    if info.partnerships:
        lines.append(
            _("Partners sit opposite: **{ns}** vs **{ew}** · {target}").format(
                ns=SIDE_NAMES[0], ew=SIDE_NAMES[1], target=target_text(rules)
            )
        )
    else:
        lines.append(
            _("{n} players, each for themselves · {target}").format(
                n=info.n, target=target_text(rules)
            )
        )
    for seat in range(info.n):
        occupant = info.seats[seat]
        lines.append(f"> {info.names[seat]}: {occupant.label() if occupant else _('— empty —')}")
    if all(info.seats):
        lines.append(
            _("Opened by {opener}. The table is full — the opener can **Start**.").format(
                opener=creator_name
            )
        )
    else:
        lines.append(
            _(
                "Opened by {opener}. **Join** to take a seat, **Add AI** for computer players; "
                "the opener may **Start** at any time (empty seats get AI players)."
            ).format(opener=creator_name)
        )
    if note:
        lines.append(note)
    return "\n".join(lines)


def game_lines(info: TableInfo, view: SeatView, mine: int | None) -> list[str]:
    """What a game adds to the table beyond trumps, tricks and scores (public)."""
    lines: list[str] = []
    lines.extend(contest_lines(info, view))
    for line in (
        auction_line(info, view),
        contract_line(info, view),
        sides_line(info, view),
        bidwhist.kitty_line(info, view, mine),
    ):
        if line:
            lines.append(line)
    lines.extend(exposed_lines(info, view, skip=mine))
    lines.extend(claim_lines(info, view))
    lines.extend(layout_lines(info, view, mine))
    return lines


def table_text(info: TableInfo, view: SeatView, recent: Sequence[str] = ()) -> str:
    """The public table during play. Uses only public fields of ``view``."""
    lines = [
        header(info) + _(" · game {game}, deal {deal}").format(game=view.game_no, deal=view.deal_no)
    ]
    seats = " | ".join(
        f"{info.short[s]}: {info.seats[s].label() if info.seats[s] else '—'}"  # type: ignore[union-attr]
        + " ("
        + ngettext("{n} card", "{n} cards", view.hand_sizes[s]).format(n=view.hand_sizes[s])
        + ")"
        for s in range(info.n)
    )
    lines.append(seats)
    lines.append(
        _("{trumps} · Dealer: {dealer}").format(
            trumps=trump_line(info, view), dealer=info.seat_name(view.dealer)
        )
    )
    ruff = ruff_line(info, view)
    if ruff:
        lines.append(ruff)
    lines.extend(game_lines(info, view, None))
    lines.append(score_line(info, view))
    lines.append(tricks_line(info, view))
    if view.shown_honours:
        shown = ", ".join(f"{info.short[s]} {card_text(c)}" for s, c in view.shown_honours)
        lines.append(_("Honours shown: {cards}").format(cards=shown))
    last = last_trick_line(info, view)
    if last:
        lines.append(last)
    trick = trick_line(view)
    if trick:
        lines.append(trick)
    for line in recent[-3:]:
        lines.append(f"• {line}")
    wait = waiting_line(info, view)
    if wait:
        lines.append(wait)
    return fit(lines)


# ---------------------------------------------------------------- buttons


def final_text(info: TableInfo, view: SeatView, how: str = "", rematch: bool = True) -> str:
    """The table message once the match is over (``how``: the line of
    :func:`~bot.present.render.summary.how_won`, once the game's history is summed up;
    ``rematch``: the message has the Rematch button, which its last line points to)."""
    winner = view.winner if view.winner is not None else 0
    lines = [header(info) + _(" · **finished**")]
    conceded = concession_line(info, view)
    if conceded:  # no score to read: the game was given up
        lines.append(conceded)
        how = ""  # how_won says the same
    elif bidwhist.is_bid_whist(view):  # won at +target, or by the others falling to -target
        lines.append(bidwhist.final_line(info, view))
    elif info.partnerships:
        games = (
            _(" (games {won}–{lost})").format(
                won=view.games_won[winner], lost=view.games_won[1 - winner]
            )
            if info.rules.match_format != "single"
            else ""
        )
        lines.append(
            _("🏆 **{side}** — {players} — win {score}–{other}{games}.").format(
                side=SIDE_NAMES[winner],
                players=info.side_players(winner),
                score=view.scores[winner],
                other=view.scores[1 - winner],
                games=games,
            )
        )
    elif view.tied:  # nobody won alone
        lines.append(tie_line(info, view.tied, view.scores))
        how = ""  # how_won says the same
    else:
        others = " · ".join(
            f"{info.seat_name(s)} {view.scores[s]}" for s in info.scoring_sides() if s != winner
        )
        lines.append(
            _("🏆 **{seat}** — {who} — wins with {score} ({others}).").format(
                seat=info.names[winner],
                who=info.who(winner),
                score=view.scores[winner],
                others=others,
            )
        )
    if how:
        lines.append(how)
    last = last_trick_line(info, view)
    if last:
        lines.append(last)
    if info.hints:
        lines.append(_("Hints were on: this game is not rated."))
    if rematch:
        lines.append(_("Press **Rematch** to play again with the same seats."))
    return "\n".join(lines)


def rules_text(rules: Rules) -> str:
    lines = rules_lines(rules)  # the engine's lines, translated (bot/present/render/rules_text.py)
    return "\n".join(["📜 " + lines[0], *(f"• {line}" for line in lines[1:])])


# ---------------------------------------------------------------- the table on a phone
#
# The table message is a Components V2 layout (bot/present/layout.py): the picture
# first, then at most three short lines, then the buttons. What the old text said
# besides goes into the picture's alt text (:func:`alt_text`) or behind a button
# (:func:`this_deal_text` with the scores, the last trick); with pictures off,
# :func:`compact_table` stands where the picture would.

ALT_TEXT_LIMIT = 1024  # Discord: a media gallery item's description


def table_lines(
    info: TableInfo,
    view: SeatView,
    recent: Sequence[str] = (),
    deadline: float | None = None,
    pictured: bool = False,
) -> list[str]:
    """The short lines under the picture: whose turn in full size, then, in Discord's
    small "-#" text, one line of the rest: "💡 Hints on · unrated" at a table with
    hints, the turn's deadline, trumps and the contract, the last event. On a phone
    the turn line with its deadline wrapped onto a second line, and each small line
    wrapped half empty: the words of three lines on two. Under a picture
    (``pictured``) trumps and the contract are left out: the picture's Trumps box and
    its Contract note show them (and its alt text says them)."""
    parts = []
    if info.hints:  # on the table itself, not only in the picture's alt text
        parts.append(_("💡 Hints on · unrated"))
    if deadline and view.to_act is not None:  # when the AI plays it (Discord's relative time)
        parts.append(f"⏱ <t:{int(deadline)}:R>")
    if not pictured:
        parts.append(short_trumps_line(info, view))
    last = recent[-1] if recent else ""
    if not last and view.completed_tricks:
        _leader, _cards, winner = view.completed_tricks[-1]
        last = _("Trick {number} to **{who}**").format(
            number=len(view.completed_tricks), who=info.names[winner]
        )
    if last:  # by seat alone: the picture names each seat's player, and a phone's line is short
        for seat in range(info.n):
            last = last.replace(info.seat_name(seat), info.names[seat])
        parts.append(last)
    small = " · ".join(x for x in parts if x)
    return [x for x in (waiting_line(info, view), f"-# {small}" if small else "") if x]


def short_trumps_line(info: TableInfo, view: SeatView) -> str:
    """Trumps (or what decides them) and the contract with its declarer, in one short
    line: ``Trumps: **♠︎ spades** · **3 uptown** by East``. The full wording (the rank
    order, what a contract needs) is in the alt text and behind **Scores**."""
    if bidwhist.is_bid_whist(view):
        if view.phase == "bidding":
            return _("Trumps: **decided by the bidding**")
        if view.phase == "name":
            return _("Trumps: **to be named by the declarer**")
        direction = bidwhist.MODE_NAMES["u" if view.rank_order.direction == "uptown" else "d"]
        text = (
            _("No trumps · **{direction}**").format(direction=direction)  # a no-trump bid's
            if view.trump is None
            else _("Trumps: **{suit}**").format(suit=suit_text(view.trump))
        )
    elif view.phase == "auction" and view.turn_up is not None:
        text = _("Turn-up: **{card}**").format(card=card_text(view.turn_up))
    else:
        text = trump_line(info, view, turn_up=False)  # the picture shows the card turned up
    if view.contract and view.declarer is not None and view.phase not in ("auction", "bidding"):
        text += " · " + _("**{contract}** by {seat}").format(
            contract=contract_name(view.contract), seat=info.names[view.declarer]
        )
    return text


def seats_line(info: TableInfo, view: SeatView) -> str:
    """Every seat with its player and the size of its hand."""
    return " | ".join(
        f"{info.short[s]}: {info.seats[s].label() if info.seats[s] else '—'}"  # type: ignore[union-attr]
        + " ("
        + ngettext("{n} card", "{n} cards", view.hand_sizes[s]).format(n=view.hand_sizes[s])
        + ")"
        for s in range(info.n)
    )


def compact_table(info: TableInfo, view: SeatView) -> str:
    """What the picture shows, as a few lines of text (pictures switched off, or the
    picture not drawn yet): the table, who sits where, scores and tricks, what the
    game adds (auction, contract, face-up cards, layouts), the trick on the table."""
    lines = [
        header(info)
        + _(" · game {game}, deal {deal}").format(game=view.game_no, deal=view.deal_no),
        seats_line(info, view),
        trump_line(info, view),
        score_line(info, view) + " · " + tricks_line(info, view),
    ]
    ruff = ruff_line(info, view)
    if ruff:
        lines.append(ruff)
    lines.extend(game_lines(info, view, None))
    trick = trick_line(view)
    if trick:
        lines.append(trick)
    return fit(lines, 3000)


def alt_text(info: TableInfo, view: SeatView, recent: Sequence[str] = ()) -> str:
    """The picture's alt text: everything the table shows, in the words of the table's
    text (its emphasis kept, no mentions; at most :data:`ALT_TEXT_LIMIT` characters,
    the least needed lines go first)."""
    lines = [
        header(info)
        + _(" · game {game}, deal {deal}").format(game=view.game_no, deal=view.deal_no),
        seats_line(info, view),
        _("{trumps} · Dealer: {dealer}").format(
            trumps=trump_line(info, view), dealer=info.seat_name(view.dealer)
        ),
    ]
    ruff = ruff_line(info, view)
    if ruff:
        lines.append(ruff)
    lines.extend(game_lines(info, view, None))
    lines.append(score_line(info, view))
    lines.append(tricks_line(info, view))
    trick = trick_line(view)
    if trick:
        lines.append(trick)
    wait = waiting_line(info, view, mention=False)
    if wait:
        lines.append(wait.removeprefix("▶ "))  # the ▶ line with the mention is under it
    while len("\n".join(lines)) > ALT_TEXT_LIMIT and len(lines) > 3:
        lines.pop(3)  # the game's own lines first: the buttons tell them too
    return "\n".join(lines)[:ALT_TEXT_LIMIT]


def this_deal_text(info: TableInfo, view: SeatView) -> str:
    """Every trick of the deal so far, who led it, what each played and who won it
    (public: only cards that were played), then the trick on the table, then the
    scores and what else counts (:func:`scores_text`)."""
    n = info.n
    lines = [
        _("**This deal** (game {game}, deal {deal}) · {trumps}").format(
            game=view.game_no, deal=view.deal_no, trumps=trump_line(info, view)
        )
    ]
    for number, (leader, cards, winner) in enumerate(view.completed_tricks, start=1):
        played = " · ".join(
            f"{info.short[(leader + i) % n]} {card_text(c)}" for i, c in enumerate(cards)
        )
        lines.append(
            _("{number}. {leader} led: {played} → **{winner}**").format(
                number=number,
                leader=info.seat_name(leader),
                played=played,
                winner=info.seat_name(winner),
            )
        )
    if view.trick:
        lines.append(
            _("{number}. on the table: {played}").format(
                number=view.trick_no,
                played=" · ".join(f"{info.short[s]} {card_text(c)}" for s, c in view.trick),
            )
        )
    if len(lines) == 1:
        lines.append(_("No card has been played in this deal yet."))
    # a blank line ends the numbered tricks: the scores under them, not in the last one
    return fit([*lines, "", *_score_lines(info, view)])


def scores_text(info: TableInfo, view: SeatView) -> str:
    """The scores, the tricks of this deal and what else counts (public): the answer to
    the **Scores** button of a table message drawn before This deal said them too."""
    return fit(_score_lines(info, view))


def _score_lines(info: TableInfo, view: SeatView) -> list[str]:
    """The scores, the tricks of this deal and what else counts (public)."""
    lines = [score_line(info, view), tricks_line(info, view)]
    ruff = ruff_line(info, view)
    if ruff:
        lines.append(ruff)
    if view.shown_honours:
        shown = ", ".join(f"{info.short[s]} {card_text(c)}" for s, c in view.shown_honours)
        lines.append(_("Honours shown: {cards}").format(cards=shown))
    contract = contract_line(info, view)
    if contract:
        lines.append(contract)
    side = sides_line(info, view)
    if side:
        lines.append(side)
    lines.append(
        _("Dealer: {dealer} · {seats}").format(
            dealer=info.seat_name(view.dealer), seats=seats_line(info, view)
        )
    )
    return lines
