"""A seat's private hand message and the labels of its controls."""

from __future__ import annotations

from bot.present.i18n import N_, _, ngettext
from bot.present.render import bidwhist, solo
from bot.present.render.claims import claim_lines
from bot.present.render.common import (
    CALL_NAMES,
    SIDE_NAMES,
    TableInfo,
    card_label,
    card_text,
    cards_text,
    fit,
    suit_symbol,
    target_text,
    terms,
)
from bot.present.render.lines import (
    auction_line,
    contract_name,
    play_sides,
    score_line,
    tricks_line,
    trump_line,
    waiting_line,
)
from bot.present.render.ruffe_trump import contest_lines, measure_how, measure_name
from bot.present.render.solo import exposed_lines
from bot.present.render.table import (
    game_lines,
    short_trumps_line,
)
from bot.present.render.turnover import layout_lines as turnover_layout_lines
from bot.present.render.turnover import layout_text
from engine import (
    AcceptClaim,
    Action,
    AgreeConcession,
    CallCanYe,
    Card,
    Claim,
    Concede,
    DeclineRuff,
    Discard,
    NameDirection,
    NameTrump,
    Pass,
    Play,
    RefuseConcession,
    RejectClaim,
    RuffClaim,
    Rules,
    SeatView,
    ShowHonours,
    SoloBid,
    Suit,
    TakeRuff,
    best_suit,
    effective_suit,
)

_CLAIM_ANSWERS: dict[type[Action], str] = {
    AcceptClaim: N_("Accept the claim"),
    RejectClaim: N_("Reject the claim"),
    Concede: N_("Concede the game"),
    AgreeConcession: N_("Agree: concede the game"),
    RefuseConcession: N_("Refuse: play on"),
}


def action_label(action: Action, rules: Rules | None = None) -> str:
    """A button's (or menu option's) label for ``action``, in plain words.

    ``rules`` (the table's) names the ruff in the game's own words: Ruffe and Trump's
    rub takes the top four cards of the head, and its "ruff" is the contest for the
    strongest suit, so its buttons never say ruff for the rub."""
    if isinstance(action, (Play, Discard)):
        return card_label(action.card)
    if isinstance(action, SoloBid):
        return CALL_NAMES.get(action.call, action.call)
    if isinstance(action, NameTrump):
        return _("Trumps: {suit}").format(suit=f"{action.suit.symbol}\ufe0e")
    if isinstance(action, RuffClaim):
        return _("Declare {value}").format(value=action.value)
    if isinstance(action, NameDirection):  # Bid Whist's no-trump declarer
        return (
            _("Uptown (high cards win)")
            if action.direction == "uptown"
            else _("Downtown (low cards win)")
        )
    if isinstance(action, Claim):  # the engine's own words, translated (engine/claims.py)
        if action.tricks == 0:
            return _("Concede the rest of the tricks")
        return ngettext("Claim {n} trick", "Claim {n} tricks", action.tricks).format(
            n=action.tricks
        )
    answer = _CLAIM_ANSWERS.get(type(action))
    if answer is not None:
        return _(answer)
    describe = getattr(action, "describe", None)  # a family's own words for its action
    if callable(describe):
        text = describe()
        code = getattr(action, "code", None)
        if isinstance(code, str) and bidwhist.is_bid(code):
            return bidwhist.bid_name(code)  # the engine's words, in the language of the moment
        if isinstance(text, str) and text:
            return text[:1].upper() + text[1:]
    t = terms(rules) if rules is not None else None
    if t is not None and t.ruff != "ruff" and isinstance(action, (TakeRuff, DeclineRuff)):
        if isinstance(action, TakeRuff):
            return _("Take the top four of the {stock} ({ruff})").format(
                stock=_(t.stock), ruff=_(t.ruff)
            )
        return _("Decline the {ruff}").format(ruff=_(t.ruff))
    labels = {
        TakeRuff: N_("Take the stock (ruff)"),
        DeclineRuff: N_("Decline the ruff"),
        CallCanYe: N_("Call “Can-ye?”"),
        ShowHonours: N_("Show honours"),
        Pass: N_("Pass"),
    }
    label = labels.get(type(action))
    return _(label) if label is not None else action.encode()


def choice_note(action: Action) -> str:
    """What a choice undertakes, in a few words, where its name alone does not say
    (a Solo Whist call: ``5 tricks alone``; a Bid Whist bid: ``9 books of 13``); ""
    otherwise. A menu shows it under
    the choice's name (:func:`bot.present.controls.hand_controls`)."""
    if isinstance(action, SoloBid):
        return solo.undertakes(action.call)
    code = getattr(action, "code", None)
    if isinstance(code, str) and bidwhist.is_bid(code):  # Bid Whist: a bid in books
        books = _("{books} books of 13 (6 + the bid)").format(books=bidwhist.books_needed(code))
        return f"{books} · {_(_BID_MODES[code[-1]])}"
    return ""


# i18n: what a Bid Whist bid's mode means, beside its books in the menu of bids
_BID_MODES = {
    "u": N_("high cards win"),
    "d": N_("low cards win"),
    "n": N_("no trumps, you name the direction"),
}


CALLS_IN_TEXT = 1
"""Calls or bids (besides a pass) line 1 may explain itself; more go in a menu whose
options say what each undertakes, so the DM stays a phone's screen high."""


def featured_choices(view: SeatView) -> list[tuple[Action, str]]:
    """Choices worth a button of their own when the rest go in menus: a pass, and the
    true value of one's ruff when ruffs are declared (any value may be declared)."""
    passes = [
        (a, action_label(a, view.rules))
        for a in view.legal
        if a.verb == "pass" or a.encode().endswith(":pass")
    ]
    if not any(isinstance(a, RuffClaim) for a in view.legal):
        return passes
    value, _suit = _my_ruff(view)
    action = next((a for a in view.legal if isinstance(a, RuffClaim) and a.value == value), None)
    label = _("Declare {value} (my best suit)").format(value=value)
    return passes + ([(action, label)] if action is not None else [])


def _my_ruff(view: SeatView) -> tuple[int, Suit]:
    hand = 0
    for card in view.hand:
        hand |= card.bit
    measure = view.rules.ruff_measure if view.rules is not None else "pip_sum"
    return best_suit(hand, view.turn_up, view.trump, measure)


# ---------------------------------------------------------------- the hand message


def _seat_line(info: TableInfo, view: SeatView) -> str:
    seat = view.seat
    name = info.names[seat]
    where = _("Game {game}, deal {deal}.").format(game=view.game_no, deal=view.deal_no)
    if info.partnerships:
        partner = view.partner
        return _("You are **{seat}**, partner {partner} ({who}). {where}").format(
            seat=name, partner=info.names[partner], who=info.who(partner), where=where
        )
    groups = play_sides(view, info.n)
    mine = next(g for g in groups if seat in g)
    others = [s for s in range(info.n) if s not in mine]
    if view.contract and view.declarer is not None and len(groups) > 1:
        declaring = view.declarer in mine
        contract = contract_name(view.contract)
        if declaring and len(mine) == 1:
            return _(
                "You are **{seat}** — you play {contract} alone against {others}. {where}"
            ).format(seat=name, contract=contract, others=info.names_of(others), where=where)
        if declaring:
            mate = [s for s in mine if s != seat]
            return _(
                "You are **{seat}** — you play {contract} with {mates} against {others}. {where}"
            ).format(
                seat=name,
                contract=contract,
                mates=info.names_of(mate),
                others=info.names_of(others),
                where=where,
            )
        mates = [s for s in mine if s != seat]
        return _("You are **{seat}** — you defend with {mates} against {others}. {where}").format(
            seat=name, mates=info.names_of(mates), others=info.names_of(others), where=where
        )
    if view.phase == "auction":
        return _(
            "You are **{seat}** — each for themselves until the auction makes the sides. {where}"
        ).format(seat=name, where=where)
    return _("You are **{seat}**, playing for yourself. {where}").format(seat=name, where=where)


def hand_message(
    info: TableInfo,
    view: SeatView,
    note: str = "",
    in_buttons: bool = False,
    deadline: float | None = None,
    over: str = "",
) -> str:
    """The private hand message (DM or ephemeral) for ``view.seat``, laid out to be
    played from without looking at the table.

    Line 1 says what to do (a notification shows it): your turn and what the turn
    asks ("Your turn — follow ♠︎"), or whom the game waits for. Then the table
    and seat, trumps and the score, the current trick by player name with the card
    now winning marked, the last trick and who won it, the tricks of each side
    this deal, the hand, and ``note`` (e.g. the card the AI played for you when
    your time ran out). Lines only while they matter, so the message fits a phone's
    screen on your turn: the last trick while the next one has not begun, the cards
    from the stock and those laid out until the first trick is complete.
    ``deadline`` (epoch seconds): when the turn timer plays your turn, shown on line
    1 as Discord's relative time. A seat the AI plays for its absent player gets
    :func:`away_message` instead.
    ``in_buttons``: the message's buttons show every card of the hand (see
    :func:`bot.present.controls.hand_in_buttons`), so the text does not list it again.
    ``over``: line 1 once the game is over, when the table says it its own way (an
    event's board: matchpoints, not the tricks, decide who did well).
    """
    if view.phase == "over":
        first = over or _result_line(info, view)
    elif view.my_turn:
        first = _your_turn_line(info, view)
        if deadline is not None:
            first += _(" ⏰ the AI plays it {time}").format(time=f"<t:{int(deadline)}:R>")
    else:
        first = _waiting_line(info, view)
    if view.my_turn and view.phase != "over" and _card_to_play(view):
        return _play_turn_message(info, view, first, note, in_buttons)
    if view.my_turn and view.phase != "over" and view.legal:
        return _decision_message(info, view, first, note, in_buttons)
    lines = [first, _place(info)]
    lines.append(_seat_line(info, view))
    lines.append(trump_line(info, view) + " · " + score_line(info, view))
    if view.phase == "over":
        if view.hand:  # cards still held when the game ended (a claim, a concession)
            lines.append(_("Your hand: {cards}").format(cards=bidwhist.view_hand_text(view)))
        lines.append(
            note or _("See the table for the final summary; press **Rematch** there to play again.")
        )
        return fit(lines)
    lines.extend(game_lines(info, view, view.seat))
    trick = named_trick_line(info, view)
    if trick:
        lines.append(trick)
    last = named_last_trick_line(info, view) if not view.trick else ""  # until the next begins
    if last:
        lines.append(last)
    won = last_winner_line(info, view)
    if won:
        lines.append("-# " + won)
    if view.phase == "play" or view.completed_tricks:
        lines.append(tricks_line(info, view))
    if not in_buttons:
        lines.append(
            _("Your hand ({count}): {cards}").format(
                count=len(view.hand), cards=bidwhist.view_hand_text(view)
            )
        )
    exchange = not view.completed_tricks  # the exchange matters until the first trick is done
    if view.stock_taken and exchange:
        lines.append(
            _("From the {stock}: {cards}").format(
                stock=_(terms(info.rules).stock),
                cards=cards_text(bidwhist.view_sorted(view, view.stock_taken)),
            )
        )
    if view.my_discards and exchange:
        lines.append(_("Laid out: {cards}").format(cards=cards_text(view.my_discards)))
    if note:
        lines.append(note)
    return fit(lines)


def away_message(info: TableInfo, view: SeatView, note: str = "") -> str:
    """The private hand message of ``view.seat`` while the AI plays it for its absent player
    (missed turns, an event's no-show): what to do and where, and nothing of the game,
    which goes on without them. It stays as it is while they are away (no edit a move);
    taking the seat back brings their hand and the game as they stand at once.
    ``note``: what the AI did for them when their time ran out."""
    lines = [
        _("🤖 For now the AI is playing your cards. Press **Take my seat back** to play again."),
        _place(info),
    ]
    if info.partnerships:
        partner = view.partner
        lines.append(
            _("You are **{seat}**, partner {partner} ({who}).").format(
                seat=info.names[view.seat], partner=info.names[partner], who=info.who(partner)
            )
        )
    if note:
        lines.append(note)
    lines.append(
        "-# " + _("Your hand and the game come back here as soon as you take your seat back.")
    )
    return fit(lines)


def _place(info: TableInfo) -> str:
    """The table, by name and number (its link where known), in one short line."""
    if info.jump_url:  # the table's number is its link: it says where, in a phone's one line
        place = _("🃏 **{title}** · [table #{table}]({url})").format(
            title=info.rules.title, table=info.table_id, url=info.jump_url
        )
    else:
        place = _("🃏 **{title}** · table #{table}").format(
            title=info.rules.title, table=info.table_id
        )
        where = _(" in ").join(
            x
            for x in (
                f"#{info.channel_name}" if info.channel_name else "",
                f"**{info.guild_name}**" if info.guild_name else "",
            )
            if x
        )
        if where:
            place += f" · {where}"
    return place


def _card_to_play(view: SeatView) -> bool:
    """Whether the turn asks for a card to be played (not a bid, a choice, cards to lay out)."""
    return any(isinstance(a, Play) for a in view.legal)


def _contract_need(info: TableInfo, view: SeatView) -> str:
    """What the contract needs, in a few words: ``EW need 9 books, have 1`` (Bid Whist),
    ``needs 9 of 13 tricks`` (Solo Whist); "" without a contract."""
    if not view.contract or view.declarer is None:
        return ""
    if bidwhist.is_bid(view.contract):
        side = info.rules.side_of(view.declarer)
        tricks = view.tricks[side] if side < len(view.tricks) else 0
        return _("{side} need {need} books, have {n}").format(
            side=info.side_short(side), need=bidwhist.books_needed(view.contract), n=1 + tricks
        )
    return solo.tricks_needed(view.contract, info.rules.tricks_per_deal)


def _sides_words(info: TableInfo, view: SeatView) -> str:
    """Whom you play with where the contract made the sides (Solo Whist), by seat:
    ``you play with West``, ``you play alone``, ``you defend with South and West``."""
    if info.partnerships or not view.contract or view.declarer is None:
        return ""
    groups = play_sides(view, info.n)
    if len(groups) < 2:
        return ""
    mine = next(g for g in groups if view.seat in g)
    names = [info.names[s] for s in mine if s != view.seat]
    mates = ", ".join(names[:-1]) + _(" and ") + names[-1] if len(names) > 1 else "".join(names)
    if view.declarer in mine:
        return _("you play with {mates}").format(mates=mates) if names else _("you play alone")
    return _("you defend with {mates}").format(mates=mates) if names else _("you defend alone")


def _short_seat(info: TableInfo, view: SeatView) -> str:
    """Your seat in a few words: ``You are **North**, partner South.`` (whom the trick
    line's seat names mean); where a contract made the sides, the context line says
    them (:func:`_sides_words`)."""
    seat = view.seat
    if info.partnerships:
        return _("You are **{seat}**, partner {partner}.").format(
            seat=info.names[seat], partner=info.names[view.partner]
        )
    if _sides_words(info, view):
        return _("You are **{seat}**.").format(seat=info.names[seat])
    return (
        _("You are **{seat}**, playing for yourself. {where}")
        .format(seat=info.names[seat], where="")
        .strip()
    )


def _layouts_line(info: TableInfo, view: SeatView) -> str:
    """Turnover Bridge's layouts in one small line: yours (the buttons marked ▲; the
    superscript is the count of cards face down beneath) and the others'."""
    if not view.layouts:
        return ""
    parts = []
    for seat, piles in enumerate(view.layouts):
        owner = _("▲ your layout") if seat == view.seat else info.names[seat]
        parts.append(f"{owner}: {layout_text(piles)}")
    return " · ".join(parts)


def _play_turn_message(
    info: TableInfo, view: SeatView, first: str, note: str, in_buttons: bool
) -> str:
    """The hand message on a turn to play a card, made to fit a phone's screen with its
    buttons: line 1 (what to do, and when the AI does it), the trick on the table (or,
    when you lead, the last one and who won it), then one small line of what the card
    depends on (trumps, the contract and what it needs, the tricks of each side) and
    one of where (the table, the score). Only while they matter: a hand face up
    (Solo's Spread Misère), the layouts (Turnover Bridge), the exchange until the
    first trick is done. The hand is in the buttons (listed only where the buttons do not
    show all of it, ``in_buttons`` False); who sits where is in the seat names of the
    trick line and in the table's picture."""
    lines = [first]
    trick = named_trick_line(info, view) or named_last_trick_line(info, view)
    if trick:
        lines.append(trick)
    context = [short_trumps_line(info, view), _contract_need(info, view), _sides_words(info, view)]
    if view.completed_tricks or view.trick:
        context.append(_("Tricks: {tricks}").format(tricks=tricks_line(info, view, bare=True)))
    context.append(last_winner_line(info, view))  # the trick before, once the next began
    lines.append("-# " + " · ".join(x for x in context if x))
    rules = info.rules
    place = _place(info) + " · " + _short_seat(info, view)
    if rules.deal_won_at and rules.target_score <= 1:  # one deal is the game: its tricks tell
        lines.append("-# " + place + " · " + target_text(rules))
    else:
        lines.append("-# " + place + " · " + score_line(info, view))
    lines.extend(f"-# {x}" for x in exposed_lines(info, view, skip=view.seat))
    layouts = _layouts_line(info, view)
    if layouts:
        lines.append("-# " + layouts)
    if not view.completed_tricks:  # the exchange matters until the first trick is done
        exchange = []
        if view.stock_taken:
            exchange.append(
                _("From the {stock}: {cards}").format(
                    stock=_(terms(info.rules).stock),
                    cards=cards_text(bidwhist.view_sorted(view, view.stock_taken)),
                )
            )
        if view.my_discards:
            exchange.append(_("Laid out: {cards}").format(cards=cards_text(view.my_discards)))
        if exchange:
            lines.append("-# " + " · ".join(exchange))
    if not in_buttons:
        lines.append(
            _("Your hand ({count}): {cards}").format(
                count=len(view.hand), cards=bidwhist.view_hand_text(view)
            )
        )
    if note:
        lines.append(note)
    return fit(lines)


def _decision_message(
    info: TableInfo, view: SeatView, first: str, note: str, in_buttons: bool
) -> str:
    """The hand message on a decision (a call, a bid, naming trumps, the ruff or the
    rub, laying out, Can-ye, answering a claim), made to fit a phone's screen with
    its buttons like a turn to play (:func:`_play_turn_message`): line 1 says what to
    decide; the lines the decision rests on follow (the auction until there is a
    contract, the kitty, the ruff's count, a hand face up, a claim, the layouts);
    then two small lines: trumps (what the turn-up or the bidding decides, in an
    auction) with the contract and what it needs, and the table, the seat and the
    score; the cards from the stock or kitty and those laid out;
    the hand (in the text: the buttons are the choices)."""
    lines = [first]
    lines.extend(contest_lines(info, view, explain=False))
    if not view.contract:  # until there is a contract, the auction; then the contract line
        lines.append(auction_line(info, view))
    if view.phase != "kitty":  # laying out the kitty: line 1 says it
        lines.append(bidwhist.kitty_line(info, view, view.seat))
    lines.extend(exposed_lines(info, view, skip=view.seat))
    lines.extend(claim_lines(info, view))
    lines.extend(turnover_layout_lines(info, view, view.seat))
    lines = [x for x in lines if x]
    if view.phase == "auction":  # what the turn-up decides (a bid's mode is in its menu)
        lines.append("-# " + trump_line(info, view))
    else:
        short = view.contract or bidwhist.is_bid_whist(view)  # else the turn-up with trumps
        trumps = short_trumps_line(info, view) if short else trump_line(info, view)
        context = [trumps, _contract_need(info, view)]
        context.append(_sides_words(info, view))
        lines.append("-# " + " · ".join(x for x in context if x))
    place = _place(info) + " · " + _short_seat(info, view)
    rules = info.rules
    if rules.deal_won_at and rules.target_score <= 1:  # one deal is the game
        lines.append("-# " + place + " · " + target_text(rules))
    else:
        lines.append("-# " + place + " · " + score_line(info, view))
    if not in_buttons:
        lines.append(
            _("Your hand ({count}): {cards}").format(
                count=len(view.hand), cards=bidwhist.view_hand_text(view)
            )
        )
    if view.stock_taken and not view.completed_tricks:
        lines.append(
            _("From the {stock}: {cards}").format(
                stock=_(terms(info.rules).stock),
                cards=cards_text(bidwhist.view_sorted(view, view.stock_taken)),
            )
        )
    if view.my_discards and not view.completed_tricks:
        lines.append(_("Laid out: {cards}").format(cards=cards_text(view.my_discards)))
    if note:
        lines.append(note)
    return fit(lines)


def _player(info: TableInfo, seat: int) -> str:
    """``East (bob)``, or ``you`` is left to the caller: a seat by name and player."""
    return info.seat_name(seat)


def named_trick_line(info: TableInfo, view: SeatView) -> str:
    """The trick in play by seat, the card now winning it marked (the seat line and
    the table say who sits where; a phone's line each name would take):
    ``Trick 5: North 10♥ · **East K♥** ← winning · you 2♥``."""
    if not view.trick:
        return ""
    cards = [c for _seat, c in view.trick]
    best = view.rank_order.trick_winner(cards, view.trump)
    parts = []
    for i, (seat, card) in enumerate(view.trick):
        who = _("you") if seat == view.seat else info.names[seat]
        text = f"{who} {card_text(card)}"
        parts.append(
            _("**{card}** ← winning").format(card=text) if i == best and len(cards) > 1 else text
        )
    return _("Trick {number}: {played}").format(number=view.trick_no, played=" · ".join(parts))


def named_last_trick_line(info: TableInfo, view: SeatView) -> str:
    """The last finished trick and who won it, by player name."""
    if not view.completed_tricks:
        return ""
    leader, cards, winner = view.completed_tricks[-1]
    n = info.n
    order = " · ".join(
        f"{_('you') if (leader + i) % n == view.seat else info.names[(leader + i) % n]} {card_text(c)}"
        for i, c in enumerate(cards)
    )
    who = _("you") if winner == view.seat else _player(info, winner)
    return _("Last trick ({number}): won by **{who}** — {cards}").format(
        number=len(view.completed_tricks), who=who, cards=order
    )


def last_winner_line(info: TableInfo, view: SeatView) -> str:
    """Once the next trick has begun, who won the one before (its cards: **Last
    trick**): after an AI's lead the trick before is not gone without a word."""
    if not view.trick or not view.completed_tricks:
        return ""
    _leader, _cards, winner = view.completed_tricks[-1]
    who = _("you") if winner == view.seat else info.names[winner]
    return _("Trick {number} won by {who}").format(number=len(view.completed_tricks), who=who)


def _waiting_line(info: TableInfo, view: SeatView) -> str:
    """Line 1 when it is not your turn: whom the game waits for, and for what."""
    if view.to_act is None:
        return _("⏳ Not your turn — this message updates when it is.")
    wait = waiting_line(info, view, mention=False)  # "▶ **East** — bob to play"
    doing = wait.split(" — ", 1)[1] if " — " in wait else ""
    return _(
        "⏳ Not your turn — waiting for **{seat}** ({doing}). This message updates when it is your turn."
    ).format(seat=info.names[view.to_act], doing=doing)


def _result_line(info: TableInfo, view: SeatView) -> str:
    """Who won the match, and whether that is you."""
    w = view.winner
    if w is None or not 0 <= w < len(view.scores):
        return _("🏁 The game is over.")
    others = max((p for s, p in enumerate(view.scores) if s != w), default=0)
    mine = info.rules.side_of(view.seat) == w
    who = (
        f"{SIDE_NAMES[w]} ({info.side_players(w)})"
        if info.partnerships
        else f"{info.names[w]} ({info.who(w)})"
    )
    conceded = view.conceded
    if conceded is not None:  # not won by scoring: a score such as 0–0 would read wrong
        loser = (
            f"{SIDE_NAMES[conceded.side]} ({info.side_players(conceded.side)})"
            if info.partnerships
            else info.who(conceded.seat)
        )
        if mine:
            return _("🏆 The game is over — you won: {loser} conceded.").format(loser=loser)
        return _("🏁 The game is over — you lost: {loser} conceded.").format(loser=loser)
    if mine:
        return _("🏆 The game is over — you won: {who} won {score}–{other}.").format(
            who=who, score=view.scores[w], other=others
        )
    return _("🏁 The game is over — you lost: {who} won {score}–{other}.").format(
        who=who, score=view.scores[w], other=others
    )


def _your_turn_line(info: TableInfo, view: SeatView) -> str:
    phase = view.phase
    t = terms(info.rules)
    special = bidwhist.turn_line(info, view) if bidwhist.is_bid_whist(view) else ""
    if special:
        return special
    if phase == "ruff":
        holds_ace = any(c.suit is view.trump and c.rank.label == "A" for c in view.hand)
        why = (
            _("you hold the trump ace")
            if holds_ace
            else _("nobody holds the trump ace, so the dealer may {ruff}").format(ruff=_(t.ruff))
        )
        top = (
            _("the four stock cards")
            if t.stock == "stock"
            else _("the top four cards of the {stock}").format(stock=_(t.stock))
        )
        return _("🟢 **Your turn:** {why}. Take {cards} (then lay out four), or decline.").format(
            why=why, cards=top
        )
    if phase == "discard":
        return _("🟢 **Your turn:** choose the four cards to lay out face down.")
    if phase == "can_ye":
        return _(
            "🟢 **Your turn to declare:** your side stands at {score}. "
            "Call “Can-ye?” (two honours: if partner holds one, you win), show three or more honours to win, or pass."
        ).format(score=view.start_scores[view.side])
    if phase == "auction":
        calls = [a.call for a in view.legal if isinstance(a, SoloBid)]
        if sum(1 for a in view.legal if choice_note(a)) > CALLS_IN_TEXT:
            return _(
                "🟢 **Your call:** pass, or a call from the menu (it says what each undertakes)."
            )
        return _("🟢 **Your call:** {calls}.").format(calls=solo.call_choices(calls))
    if phase == "trumps":
        return _("🟢 **Your turn:** name trumps for your {contract}.").format(
            contract=contract_name(view.contract)
        )
    if phase == "contest":
        value, suit = _my_ruff(view)
        unit = measure_name(info)
        how = measure_how(info)
        return _(
            "🟢 **Your turn to declare your ruff:** your best suit is {suit}, worth {value} {unit} "
            "({how}; the turn-up counts in trumps). Declare it, or any value from the menus — "
            "a claim above your true ruff is found out after the rub and loses it."
        ).format(suit=suit_symbol(suit), value=value, unit=unit, how=how)
    legal = view.legal
    if any(isinstance(getattr(a, "card", None), Card) and not isinstance(a, Play) for a in legal):
        if view.to_lay_out:
            return _("🟢 **Your turn:** choose the {n} cards to lay out face down.").format(
                n=view.to_lay_out
            )
        return _("🟢 **Your turn:** choose the cards to lay out face down.")
    if legal and not any(isinstance(a, Play) for a in legal):
        return _("🟢 **Your turn:** {choices}.").format(
            choices=", ".join(action_label(a, view.rules) for a in legal)
        )
    plays = [a.card for a in legal if isinstance(a, Play)]
    led = view.led_suit
    if not view.trick:
        ask = _("lead any card")
    elif led is not None and plays and all(effective_suit(c, view.trump) is led for c in plays):
        ask = _("follow {suit}").format(suit=suit_symbol(led))
    elif led is not None:
        ask = _("no {suit} left: play any card").format(suit=suit_symbol(led))
    else:
        ask = _("play any card")
    extra = []  # the face-up layout cards' ▲ is told on the layouts' line
    if any(isinstance(a, (CallCanYe, ShowHonours)) for a in legal):
        extra.append(_("or call your honours first"))
    return _("🟢 **Your turn — {ask}**").format(ask=ask) + "".join(f" — {x}" for x in extra) + "."


# ---------------------------------------------------------------- event summaries
