"""Pure text rendering: the public table, a seat's private hand, summaries.

Nothing here talks to Discord or the database; every function maps plain data
(an engine :class:`~engine.SeatView` and the table's seat names) to strings, so
renderers are easy to test and never see a hand they should not.

Tables of 2, 3 and 4 seats: seat names come from :func:`seat_names` (North and
South for two, North, East and West for three). Scores are per *scoring side*
(``Rules.side_of``: a partnership, or each seat alone); tricks are per side of
*play* (``SeatView.sides``, which a contract game makes per deal). Partnership
lines appear only where there are partnerships. What a game adds to the table
is read from its view: an auction and contract (``auction``, ``contract``,
``declarer``, ``exposed``), face-up layouts (``layouts``) and a family's public
notes (the ruff contest of Ruffe and Trump).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Card, Rules, SeatView, Suit, sort_hand
from engine.actions import (
    Action,
    CallCanYe,
    DeclineRuff,
    Discard,
    Pass,
    Play,
    ShowHonours,
    TakeRuff,
)
from engine.events import (
    CanYeCalled,
    DealScored,
    Event,
    GameOver,
    HonoursScored,
    HonoursShown,
    LayoutCardPlayed,
    MatchOver,
    Passed,
    RuffDeclined,
    RuffTaken,
    TrickWon,
)
from engine.families.solo import TARGETS, ContractSettled
from engine.layout import PileView
from engine.phases.contest import RuffClaim, best_suit
from engine.phases.solo_auction import AllPassed, Bid, ContractWon
from engine.phases.solo_declare import HandExposed, NameTrump, PlayStopped, TrumpNamed

SEAT_NAMES = ("North", "East", "South", "West")
SEAT_SHORT = ("N", "E", "S", "W")
SIDE_NAMES = ("North & South", "East & West")
SIDE_SHORT = ("NS", "EW")

_NAMES_BY_COUNT = {4: SEAT_NAMES, 3: ("North", "East", "West"), 2: ("North", "South")}
_SHORT_BY_COUNT = {4: SEAT_SHORT, 3: ("N", "E", "W"), 2: ("N", "S")}

# the calls of a contract auction, as buttons and the auction line show them
CALL_NAMES = {
    "pass": "Pass",
    "accept": "Accept",
    "prop": "Propose",
    "solo": "Solo",
    "mis": "Misère",
    "abund": "Abundance",
    "royal": "Royal Abundance",
    "spread": "Spread Misère",
    "slam": "Slam",
    "general": "General Misère",
}


def seat_names(n: int) -> tuple[str, ...]:
    """The seats' names at a table of ``n``: N E S W for four, N E W for three, N S for two."""
    return _NAMES_BY_COUNT.get(n, SEAT_NAMES)


def seat_short(n: int) -> tuple[str, ...]:
    return _SHORT_BY_COUNT.get(n, SEAT_SHORT)


@dataclass(frozen=True, slots=True)
class Terms:
    """A family's own words for the shared parts of a deal."""

    stock: str = "stock"
    ruff: str = "ruff"
    trick_points: str = ""  # how DealScored's trick points are named ("" = tricks over six)
    honour_points: str = ""  # how DealScored's honour points are named ("" = not shown)


_TERMS = {
    "ruffe_trump": Terms(stock="head", ruff="rub", trick_points="cards over par", honour_points="ruff"),
}


def terms(rules: Rules) -> Terms:
    return _TERMS.get(rules.family, Terms())


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat, as the table shows it."""

    name: str
    user_id: int | None = None  # None for AI seats
    ai_level: str | None = None
    away: bool = False  # a human whose turns the AI is playing

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    def label(self, mention: bool = False) -> str:
        if self.user_id is None:
            return f"{self.name} 🤖"
        text = f"<@{self.user_id}>" if mention else self.name
        return text + (" (away: AI playing)" if self.away else "")


@dataclass(frozen=True, slots=True)
class TableInfo:
    """Static facts about a table used in every rendering."""

    table_id: int
    rules: Rules
    seats: tuple[SeatInfo | None, ...]
    guild_name: str = ""
    channel_name: str = ""
    jump_url: str = ""

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def names(self) -> tuple[str, ...]:
        return seat_names(self.n)

    @property
    def short(self) -> tuple[str, ...]:
        return seat_short(self.n)

    @property
    def partnerships(self) -> bool:
        return self.rules.partnerships and self.n == 4

    def who(self, seat: int) -> str:
        info = self.seats[seat]
        return info.name if info else "—"

    def seat_name(self, seat: int) -> str:
        info = self.seats[seat]
        who = info.name if info else "empty"
        return f"{self.names[seat]} ({who})"

    # scoring sides: a partnership, or each seat alone
    def scoring_sides(self) -> range:
        return range(2 if self.partnerships else self.n)

    def side_seats(self, side: int) -> list[int]:
        if self.partnerships:
            return [side, side + 2]
        return [side]

    def side_players(self, side: int) -> str:
        return " & ".join(self.who(s) for s in self.side_seats(side))

    def side_name(self, side: int) -> str:
        return SIDE_NAMES[side] if self.partnerships else self.names[side]

    def side_short(self, side: int) -> str:
        return SIDE_SHORT[side] if self.partnerships else self.short[side]

    def names_of(self, seats: Sequence[int]) -> str:
        """``East (bob), South (carol) and West (dave)``."""
        parts = [self.seat_name(s) for s in seats]
        if len(parts) <= 1:
            return "".join(parts)
        return ", ".join(parts[:-1]) + " and " + parts[-1]


def suit_text(suit: Suit | None) -> str:
    return "no trumps" if suit is None else f"{suit.symbol} {suit.name.lower()}"


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(c.pretty for c in cards) if cards else "—"


def hand_text(cards: Sequence[Card], trump: Suit | None) -> str:
    """``♥ A K 7 · ♠ Q 10`` grouped by suit, trumps first."""
    groups: list[str] = []
    current: Suit | None = None
    ranks: list[str] = []
    for card in sort_hand(cards, trump):
        if card.suit is not current:
            if ranks and current is not None:
                groups.append(f"{current.symbol} {' '.join(ranks)}")
            current, ranks = card.suit, []
        ranks.append(card.rank.label)
    if ranks and current is not None:
        groups.append(f"{current.symbol} {' '.join(ranks)}")
    return " · ".join(groups) if groups else "(no cards)"


MESSAGE_LIMIT = 2000  # Discord's limit on a message's content


def fit(lines: Sequence[str], limit: int = MESSAGE_LIMIT) -> str:
    """``lines`` joined, within Discord's limit: recent event lines (``• ``) go first,
    then the longest line is shortened (a long auction with long names)."""
    out = list(lines)
    while len("\n".join(out)) > limit and any(ln.startswith("• ") for ln in out):
        out.remove(next(ln for ln in out if ln.startswith("• ")))
    excess = len("\n".join(out)) - limit
    if excess > 0:
        i = max(range(len(out)), key=lambda k: len(out[k]))
        out[i] = "…" + out[i][excess + 1 :]
    return "\n".join(out)[:limit]


def target_text(rules: Rules) -> str:
    return f"game to {rules.target_score}" if rules.target_score else "each deal is a game"


# ---------------------------------------------------------------- lines of the table


def trick_line(view: SeatView) -> str:
    if not view.trick:
        return ""
    short = seat_short(view.n_seats)
    played = " · ".join(f"{short[s]} {c.pretty}" for s, c in view.trick)
    return f"Trick {view.trick_no}: {played}"


def last_trick_line(info: TableInfo, view: SeatView) -> str:
    if not view.completed_tricks:
        return ""
    leader, cards, winner = view.completed_tricks[-1]
    n = info.n
    order = " ".join(f"{info.short[(leader + i) % n]} {c.pretty}" for i, c in enumerate(cards))
    return f"Last trick ({len(view.completed_tricks)}): **{info.seat_name(winner)}** won — {order}"


def score_line(info: TableInfo, view: SeatView) -> str:
    rules = info.rules
    parts = [f"{info.side_short(s)} **{view.scores[s]}**" for s in info.scoring_sides() if s < len(view.scores)]
    text = f"Score: {' · '.join(parts)} ({target_text(rules)})"
    if rules.match_format != "single":
        text += f" · games {view.games_won[0]}–{view.games_won[1]}"
    return text


def _play_sides(view: SeatView, n: int) -> list[list[int]]:
    """The seats of each side of play in this deal (side index order)."""
    sides = view.sides or tuple(s % 2 for s in range(n))
    out: dict[int, list[int]] = {}
    for seat, side in enumerate(sides):
        out.setdefault(side, []).append(seat)
    return [out[k] for k in sorted(out)]


def tricks_line(info: TableInfo, view: SeatView) -> str:
    sides = view.sides or tuple(s % 2 for s in range(info.n))
    parts = []
    for seats in _play_sides(view, info.n):
        side = sides[seats[0]]
        label = ("" if info.partnerships else "/").join(info.short[s] for s in seats)
        parts.append(f"{label} {view.tricks[side] if side < len(view.tricks) else 0}")
    return "Tricks this deal: " + " · ".join(parts)


# what the turn-up means while a contract game's auction is on
_AUCTION_TURN_UP = {"solo": " — trumps for Propose, Solo and Royal Abundance; the other contracts fix their own"}


def trump_line(info: TableInfo, view: SeatView) -> str:
    if view.phase == "auction" and view.turn_up is not None:
        return f"Turn-up: **{view.turn_up.pretty}**" + _AUCTION_TURN_UP.get(info.rules.family, "")
    if view.phase == "trumps" and view.trump is None:
        return "Trumps: **to be named by the declarer**"
    text = f"Trumps: **{suit_text(view.trump)}**"
    if view.turn_up is not None and view.trump is view.turn_up.suit:
        text += f" (turned up {view.turn_up.pretty})"
    return text


def ruff_line(info: TableInfo, view: SeatView) -> str:
    if view.ruffer is None:
        return ""
    t = terms(info.rules)
    who = info.seat_name(view.ruffer)
    label = t.ruff.capitalize()
    if view.ruff_state == "pending":
        return f"{label}: {who} may take the {t.stock}."
    if view.ruff_state == "taken":
        done = view.phase != "discard"
        return f"{label}: {who} took the {t.stock}" + (" and laid out four cards." if done else "; laying out four cards…")
    if view.ruff_state == "declined":
        return f"{label}: {who} declined the {t.stock}."
    return ""


def _measure(info: TableInfo) -> str:
    return "pips" if info.rules.ruff_measure == "pip_sum" else "cards"


def contest_lines(info: TableInfo, view: SeatView) -> list[str]:
    """Ruffe and Trump's ruff (the strongest suit), from the deal's public notes."""
    lines: list[str] = []
    values = view.note("ruff_values")
    claims = view.note("ruff_claims")
    shown = view.note("ruff_shown")
    winners = view.note("ruff_winners")
    points = view.note("ruff_points")
    unit = _measure(info)
    if isinstance(values, tuple):
        each = " · ".join(f"{info.short[s]} {v}" for s, v in enumerate(values))
        lines.append(f"Ruff ({unit}): {each}")
    elif isinstance(claims, tuple):
        each = " · ".join(f"{info.short[s]} {v}" for s, v in claims)
        lines.append(f"Ruff claims ({unit}): {each or 'none yet'}")
    if isinstance(shown, tuple):
        for seat, suit_code, cards, value, honest in shown:
            suit = Suit.parse(suit_code)
            verdict = "true" if honest else "**false** — the ruff passes to the true winner"
            lines.append(
                f"{info.seat_name(seat)} shows {suit.symbol}: {cards_text(sort_hand(list(cards), None))} "
                f"= {value} {unit} ({verdict})"
            )
    if isinstance(winners, tuple) and isinstance(points, tuple):
        if winners:
            who = info.names_of(list(winners))
            won = " · ".join(f"{info.side_short(s)} +{p}" for s, p in enumerate(points) if p)
            lines.append(f"→ the ruff goes to {who}: {won}")
        else:
            lines.append("→ nobody wins the ruff")
    return lines


def contract_name(contract: str) -> str:
    return CALL_NAMES.get(contract, contract)


def auction_line(info: TableInfo, view: SeatView) -> str:
    if not view.auction:
        return ""
    calls = " · ".join(f"{info.who(s)} {contract_name(c)}" for s, c in view.auction)
    return f"Auction: {calls}"


def _needs(contract: str, tricks_per_deal: int) -> str:
    target = TARGETS.get(contract)
    if contract in ("mis", "spread", "general"):
        return "must lose every trick" if contract != "general" else "most tricks pays"
    if target is None:
        return ""
    if target >= tricks_per_deal:
        return f"must take all {tricks_per_deal} tricks"
    together = " together" if contract == "prop" else ""
    return f"needs {target} of {tricks_per_deal} tricks{together}"


def contract_line(info: TableInfo, view: SeatView) -> str:
    contract = view.contract
    if not contract:
        return ""
    if contract == "general":
        return "Contract: **General Misère** — everyone passed: each plays alone at no trumps; most tricks pays."
    parts = [f"Contract: **{contract_name(contract)}**"]
    if view.declarer is not None:
        mates = [g for g in _play_sides(view, info.n) if view.declarer in g][0]
        partner = [s for s in mates if s != view.declarer]
        if len(partner) == 1 and not info.partnerships:  # a proposal and its acceptor
            parts.append(f"proposed by {info.seat_name(view.declarer)}, accepted by {info.seat_name(partner[0])}")
        else:
            parts.append(f"declared by {info.seat_name(view.declarer)}")
    needs = _needs(contract, info.rules.tricks_per_deal)
    if needs:
        parts.append(needs)
    return " · ".join(parts)


def sides_line(info: TableInfo, view: SeatView) -> str:
    """Sides made for this deal (one against three, a proposer and acceptor), if any."""
    if info.partnerships or view.declarer is None or not view.contract:
        return ""
    groups = _play_sides(view, info.n)
    if len(groups) < 2:
        return ""
    declaring = next((g for g in groups if view.declarer in g), groups[0])
    others = [s for g in groups if g is not declaring for s in g]
    if len(declaring) == 1:
        return f"Sides: {info.seat_name(declaring[0])} plays alone against {info.names_of(others)}."
    return f"Sides: {info.names_of(declaring)} together against {info.names_of(others)}."


def exposed_lines(info: TableInfo, view: SeatView, skip: int | None = None) -> list[str]:
    lines = []
    for seat, cards in view.exposed:
        if seat == skip:
            continue
        lines.append(f"🂠 {info.seat_name(seat)} plays with the hand face up: {hand_text(cards, view.trump)}")
    return lines


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _pile(pile: PileView) -> str:
    if pile.up is None:
        return "▢"
    under = str(pile.down).translate(_SUPERSCRIPT) if pile.down else ""
    return f"{pile.up.pretty}{under}{'✱' if pile.fresh else ''}"


def layout_text(piles: Sequence[PileView]) -> str:
    """One layout in two rows: each face-up card with the count of face-down cards
    beneath it as a superscript; ✱ = just turned up, ▢ = an emptied position."""
    half = (len(piles) + 1) // 2
    rows = [piles[:half], piles[half:]]
    return " │ ".join(" ".join(_pile(p) for p in row) for row in rows if row)


def layout_lines(info: TableInfo, view: SeatView, mine: int | None = None) -> list[str]:
    if not view.layouts:
        return []
    lines = ["Layouts (face-up cards; ¹ = a card face down beneath; ✱ = turned up this trick, playable from the next):"]
    for seat, piles in enumerate(view.layouts):
        owner = "Your layout" if seat == mine else f"{info.seat_name(seat)}"
        lines.append(f"> {owner}: {layout_text(piles)}")
    return lines


_DOING = {
    "ruff": "to decide the {ruff}",
    "discard": "to lay out four cards",
    "can_ye": "to declare honours",
    "auction": "to bid",
    "bidding": "to bid",
    "trumps": "to name trumps",
    "name": "to name trumps",
    "kitty": "to lay out cards",
    "contest": "to declare a ruff",
}


def waiting_line(info: TableInfo, view: SeatView, mention: bool = True) -> str:
    """Whose turn it is, by name (mentioned for humans on the public table)."""
    if view.to_act is None:
        return ""
    seat = view.to_act
    occupant = info.seats[seat]
    who = occupant.label(mention=mention) if occupant else "?"
    doing = _DOING.get(view.phase)
    if doing is None:
        doing = "to lead" if not view.trick else "to play"
    return f"▶ **{info.names[seat]}** — {who} {doing.format(ruff=terms(info.rules).ruff)}"


def header(info: TableInfo) -> str:
    rules = info.rules
    return f"🃏 **{rules.title}** · preset `{rules.preset}` · table #{info.table_id}"


def lobby_text(info: TableInfo, creator_name: str, note: str = "") -> str:
    rules = info.rules
    lines = [header(info)]
    if info.partnerships:
        lines.append(
            f"Partners sit opposite: **{SIDE_NAMES[0]}** vs **{SIDE_NAMES[1]}** · {target_text(rules)}"
        )
    else:
        lines.append(f"{info.n} players, each for themselves · {target_text(rules)}")
    for seat in range(info.n):
        occupant = info.seats[seat]
        lines.append(f"> {info.names[seat]}: {occupant.label() if occupant else '— empty —'}")
    lines.append(
        f"Opened by {creator_name}. **Join** to take a seat, **Add AI** for computer players; "
        "the opener may **Start** at any time (empty seats get AI players)."
    )
    if note:
        lines.append(note)
    return "\n".join(lines)


def _game_lines(info: TableInfo, view: SeatView, mine: int | None) -> list[str]:
    """What a game adds to the table beyond trumps, tricks and scores (public)."""
    lines: list[str] = []
    lines.extend(contest_lines(info, view))
    for line in (auction_line(info, view), contract_line(info, view), sides_line(info, view)):
        if line:
            lines.append(line)
    lines.extend(exposed_lines(info, view, skip=mine))
    lines.extend(layout_lines(info, view, mine))
    return lines


def table_text(info: TableInfo, view: SeatView, recent: Sequence[str] = ()) -> str:
    """The public table during play. Uses only public fields of ``view``."""
    lines = [header(info) + f" · game {view.game_no}, deal {view.deal_no}"]
    seats = " | ".join(
        f"{info.short[s]}: {info.seats[s].label() if info.seats[s] else '—'}"  # type: ignore[union-attr]
        f" ({view.hand_sizes[s]})"
        for s in range(info.n)
    )
    lines.append(seats)
    lines.append(f"{trump_line(info, view)} · Dealer: {info.seat_name(view.dealer)}")
    ruff = ruff_line(info, view)
    if ruff:
        lines.append(ruff)
    lines.extend(_game_lines(info, view, None))
    lines.append(score_line(info, view))
    lines.append(tricks_line(info, view))
    if view.shown_honours:
        shown = ", ".join(f"{info.short[s]} {c.pretty}" for s, c in view.shown_honours)
        lines.append(f"Honours shown: {shown}")
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


def action_label(action: Action) -> str:
    """A button's (or menu option's) label for ``action``, in plain words."""
    if isinstance(action, (Play, Discard)):
        return action.card.pretty
    if isinstance(action, Bid):
        return CALL_NAMES.get(action.call, action.call)
    if isinstance(action, NameTrump):
        return f"Trumps: {action.suit.symbol}"
    if isinstance(action, RuffClaim):
        return f"Declare {action.value}"
    describe = getattr(action, "describe", None)  # a family's own words for its action
    if callable(describe):
        text = describe()
        if isinstance(text, str) and text:
            return text[:1].upper() + text[1:]
    return {
        TakeRuff: "Take the stock (ruff)",
        DeclineRuff: "Decline the ruff",
        CallCanYe: "Call “Can-ye?”",
        ShowHonours: "Show honours",
        Pass: "Pass",
    }.get(type(action), action.encode())


def featured_choices(view: SeatView) -> list[tuple[Action, str]]:
    """Choices worth a button of their own when the rest go in menus: a pass, and the
    true value of one's ruff when ruffs are declared (any value may be declared)."""
    passes = [(a, action_label(a)) for a in view.legal if a.verb == "pass" or a.encode().endswith(":pass")]
    if not any(isinstance(a, RuffClaim) for a in view.legal):
        return passes
    value, _ = _my_ruff(view)
    action = next((a for a in view.legal if isinstance(a, RuffClaim) and a.value == value), None)
    return passes + ([(action, f"Declare {value} (my best suit)")] if action is not None else [])


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
    where = f"Game {view.game_no}, deal {view.deal_no}."
    if info.partnerships:
        partner = (seat + 2) % 4
        return f"You are **{name}**, partner {info.names[partner]} ({info.who(partner)}). {where}"
    groups = _play_sides(view, info.n)
    mine = next(g for g in groups if seat in g)
    others = [s for s in range(info.n) if s not in mine]
    if view.contract and view.declarer is not None and len(groups) > 1:
        declaring = view.declarer in mine
        contract = contract_name(view.contract)
        if declaring and len(mine) == 1:
            return f"You are **{name}** — you play {contract} alone against {info.names_of(others)}. {where}"
        if declaring:
            mate = [s for s in mine if s != seat]
            return f"You are **{name}** — you play {contract} with {info.names_of(mate)} against {info.names_of(others)}. {where}"
        mates = [s for s in mine if s != seat]
        return (
            f"You are **{name}** — you defend with {info.names_of(mates)} against {info.names_of(others)}. {where}"
        )
    if view.phase == "auction":
        return f"You are **{name}** — each for themselves until the auction makes the sides. {where}"
    return f"You are **{name}**, playing for yourself. {where}"


def hand_message(info: TableInfo, view: SeatView, note: str = "", away: bool = False) -> str:
    """The private hand message (DM or ephemeral) for ``view.seat``.

    ``away``: the AI is playing this seat after missed turns.
    """
    lines = [f"🃏 **{info.rules.title}** · table #{info.table_id}"]
    where = " in ".join(x for x in (f"#{info.channel_name}" if info.channel_name else "", f"**{info.guild_name}**" if info.guild_name else "") if x)
    if where:
        lines.append(f"Playing {where}" + (f" — [go to the table]({info.jump_url})" if info.jump_url else ""))
    elif info.jump_url:
        lines.append(f"[Go to the table]({info.jump_url})")
    lines.append(_seat_line(info, view))
    lines.append(trump_line(info, view) + " · " + score_line(info, view))
    if view.phase == "over":
        lines.append(f"Your hand: {hand_text(view.hand, view.trump)}")
        lines.append("The game is over — see the table for the result.")
        return "\n".join(lines)
    lines.extend(_game_lines(info, view, view.seat))
    lines.append(f"Your hand ({len(view.hand)}): {hand_text(view.hand, view.trump)}")
    if view.stock_taken:
        lines.append(f"From the {terms(info.rules).stock}: {cards_text(view.stock_taken)}")
    if view.my_discards:
        lines.append(f"Laid out: {cards_text(view.my_discards)}")
    if away:
        lines.append("🤖 You were away, so the AI is playing your cards. Press **Take my seat back** to play again.")
    elif view.my_turn:
        lines.append(_your_turn_line(info, view))
    else:
        lines.append("⏳ Not your turn — the table shows the play. This message updates when it is.")
    if note:
        lines.append(note)
    return fit(lines)


def _your_turn_line(info: TableInfo, view: SeatView) -> str:
    phase = view.phase
    t = terms(info.rules)
    if phase == "ruff":
        holds_ace = any(c.suit is view.trump and c.rank.label == "A" for c in view.hand)
        why = "you hold the trump ace" if holds_ace else f"nobody holds the trump ace, so the dealer may {t.ruff}"
        top = "the four stock cards" if t.stock == "stock" else f"the top four cards of the {t.stock}"
        return f"🟢 **Your turn:** {why}. Take {top} (then lay out four), or decline."
    if phase == "discard":
        return "🟢 **Your turn:** choose the four cards to lay out face down."
    if phase == "can_ye":
        return (
            f"🟢 **Your turn to declare:** your side stands at {view.start_scores[view.side]}. "
            "Call “Can-ye?” (two honours: if partner holds one, you win), show three or more honours to win, or pass."
        )
    if phase == "auction":
        calls = [a for a in view.legal if isinstance(a, Bid)]
        names = ", ".join(CALL_NAMES.get(a.call, a.call) for a in calls)
        return f"🟢 **Your call:** {names}."
    if phase == "trumps":
        return f"🟢 **Your turn:** name trumps for your {contract_name(view.contract)}."
    if phase == "contest":
        value, suit = _my_ruff(view)
        unit = _measure(info)
        how = (
            "ace 11, K Q J 10 ten each, the rest face value" if unit == "pips" else "cards of the suit"
        )
        return (
            f"🟢 **Your turn to declare your ruff:** your best suit is {suit.symbol}, worth {value} {unit} "
            f"({how}; the turn-up counts in trumps). Declare it, or any value from the menus — "
            "a claim above your true ruff is found out after the rub and loses it."
        )
    legal = view.legal
    if any(isinstance(getattr(a, "card", None), Card) and not isinstance(a, Play) for a in legal):
        return f"🟢 **Your turn:** choose the {view.to_lay_out or ''} cards to lay out face down.".replace("  ", " ")
    if legal and not any(isinstance(a, Play) for a in legal):
        return "🟢 **Your turn:** " + ", ".join(action_label(a) for a in legal) + "."
    parts = ["🟢 **Your turn**"]
    if view.trick:
        parts.append(trick_line(view))
        led = view.led_suit
        plays = [a.card for a in view.legal if isinstance(a, Play)]
        if led is not None and plays and all(c.suit is led for c in plays):
            parts.append(f"follow {led.symbol}")
    else:
        parts.append("lead any card")
    if view.layouts:
        parts.append("your face-up layout cards are marked (layout)")
    if any(isinstance(a, (CallCanYe, ShowHonours)) for a in view.legal):
        parts.append("or call your honours first")
    return " — ".join(parts) + "."


# ---------------------------------------------------------------- event summaries


def event_lines(info: TableInfo, events: Sequence[Event]) -> list[str]:
    """Short public lines for the notable events in ``events`` (never private ones)."""
    out: list[str] = []
    t = terms(info.rules)
    for ev in events:
        if ev.audience is not None:
            continue
        if isinstance(ev, RuffTaken):
            why = {
                "holds_ace": "holds the trump ace",
                "turned_ace": "dealt the turned-up ace",
                "ace_in_stock": f"dealer, the ace lay in the {t.stock}",
            }.get(ev.reason, "")
            out.append(f"{info.seat_name(ev.seat)} {t.ruff}s ({why}): takes the {t.stock}, lays out four.")
        elif isinstance(ev, RuffDeclined):
            out.append(f"{info.seat_name(ev.seat)} declines the {t.ruff}.")
        elif isinstance(ev, CanYeCalled):
            if ev.answered:
                out.append(
                    f"{info.seat_name(ev.seat)} calls “Can-ye?” — {info.seat_name(ev.partner)} answers! "
                    f"Honours {cards_text(ev.shown)}."
                )
            else:
                out.append(f"{info.seat_name(ev.seat)} calls “Can-ye?” — partner has none. Play on.")
        elif isinstance(ev, HonoursShown):
            out.append(f"{info.seat_name(ev.seat)} shows {cards_text(ev.cards)}.")
        elif isinstance(ev, Passed):
            out.append(f"{info.seat_name(ev.seat)} does not call.")
        elif isinstance(ev, ContractWon) and ev.declarer is not None:
            out.append(f"{info.seat_name(ev.declarer)} wins the auction: {contract_name(ev.contract)}.")
        elif isinstance(ev, TrumpNamed):
            out.append(f"{info.seat_name(ev.seat)} names {suit_text(ev.trump)} trumps.")
        elif isinstance(ev, HandExposed):
            out.append(f"{info.seat_name(ev.seat)} spreads the hand face up.")
        elif isinstance(ev, LayoutCardPlayed):
            turned = f"{ev.turned_up.pretty} turned up" if ev.turned_up is not None else "the position is empty"
            out.append(f"{info.seat_name(ev.seat)} played {ev.card.pretty} from the layout — {turned}.")
    return out


SUMMARY_EVENTS = (DealScored, HonoursScored, GameOver, MatchOver, AllPassed)


def _points(info: TableInfo, points: Sequence[int]) -> str:
    return " · ".join(f"{info.side_short(s)} {p:+d}" for s, p in enumerate(points) if p)


def _contract_summary(info: TableInfo, ev: ContractSettled, stopped: PlayStopped | None) -> str:
    n = info.rules.tricks_per_deal
    if ev.contract == "general":
        head = (
            f"General Misère: {info.seat_name(ev.declarer)} took the most tricks ({ev.tricks}) and pays {ev.value}"
        )
    else:
        who = info.seat_name(ev.declarer)
        if ev.partner is not None:
            who += f" with {info.seat_name(ev.partner)}"
        needs = _needs(ev.contract, n)
        result = "✅ made" if ev.made else "❌ failed"
        head = f"{contract_name(ev.contract)} by {who} ({needs}): took {ev.tricks} — {result}, worth {ev.value}"
    if stopped is not None:
        head += f" (play stopped after trick {stopped.trick_no})"
    return head + " → " + (_points(info, ev.points) or "no points")


def deal_summary(info: TableInfo, events: Sequence[Event]) -> str | None:
    """A public summary of a finished deal / game / match, or None."""
    lines: list[str] = []
    t = terms(info.rules)
    settled = next((e for e in events if isinstance(e, ContractSettled)), None)
    stopped = next((e for e in events if isinstance(e, PlayStopped)), None)
    for ev in events:
        if isinstance(ev, TrickWon):
            continue
        if isinstance(ev, AllPassed):
            if ev.then == "redeal":
                lines.append(f"Everyone passed: {info.seat_name((ev.dealer + 1) % info.n)} deals again.")
            else:
                lines.append("Everyone passed: a General Misère is played — most tricks pays.")
        elif isinstance(ev, HonoursScored):
            counts = " · ".join(f"{SIDE_SHORT[s]} {ev.counts[s]}" for s in range(2))
            pts = " · ".join(f"{SIDE_SHORT[s]} +{ev.points[s]}" for s in range(2) if ev.points[s])
            text = f"Honours held: {counts}" + (f" → {pts}" if pts else " → no score")
            if ev.note:
                text += f" ({ev.note})"
            lines.append(text)
        elif isinstance(ev, DealScored):
            title = f"**Deal {ev.deal_no} of game {ev.game_no}**"
            if settled is not None:
                lines.insert(0, f"{title} — {_contract_summary(info, settled, stopped)}")
            else:
                lines.insert(0, f"{title} — " + _deal_scored_text(info, ev, t))
            scores = " · ".join(f"{info.side_short(s)} **{p}**" for s, p in enumerate(ev.scores))
            lines.append(f"Score: {scores}")
        elif isinstance(ev, GameOver):
            lines.append(_game_over_text(info, ev))
        elif isinstance(ev, MatchOver) and info.rules.match_format != "single":
            lines.append(
                f"🏆 **{SIDE_NAMES[ev.winner]}** win the match {ev.games_won[ev.winner]}–{ev.games_won[1 - ev.winner]}"
                + (f" (rubber points {ev.rubber_points[ev.winner]:+d})" if info.rules.game_id == "whist-short-classic" else "")
                + "."
            )
    if not lines:
        return None
    return f"🃏 Table #{info.table_id} · " + "\n".join(lines)


def _deal_scored_text(info: TableInfo, ev: DealScored, t: Terms) -> str:
    if info.partnerships:
        tricks = " · ".join(f"{SIDE_SHORT[s]} {ev.tricks[s]}" for s in range(2))
    else:
        tricks = " · ".join(f"{info.short[s]} {ev.tricks[s]}" for s in range(min(info.n, len(ev.tricks))))
    trick_pts = " · ".join(
        f"{info.side_short(s)} +{p}" for s, p in enumerate(ev.trick_points) if p
    )
    label = f"{t.trick_points}: " if t.trick_points else ""
    text = f"tricks {tricks}" + (f" → {label}{trick_pts}" if trick_pts else f" → no {t.trick_points or 'trick points'}")
    if t.honour_points:
        extra = " · ".join(f"{info.side_short(s)} +{p}" for s, p in enumerate(ev.honour_points) if p)
        if extra:
            text += f"; {t.honour_points}: {extra}"
    penalty = " · ".join(
        f"{info.side_short(s)} {p} (revoke)" for s, p in enumerate(ev.penalty_points) if p
    )
    if penalty:
        text += f"; {penalty}"
    return text


_HOW = {
    "tricks": "on tricks",
    "honours": "with honours",
    "can_ye": "by Can-ye",
    "show": "by showing honours",
    "cards": "on cards",
    "ruff": "with the ruff",
    "contract": "",
}


def _game_over_text(info: TableInfo, ev: GameOver) -> str:
    how = _HOW.get(ev.how, "")
    w = ev.winner
    if info.partnerships:
        return (
            f"🏆 **{SIDE_NAMES[w]}** ({info.side_players(w)}) win game {ev.game_no} "
            f"{how}, {ev.scores[w]}–{ev.scores[1 - w]}."
        )
    others = " · ".join(f"{info.side_short(s)} {p}" for s, p in enumerate(ev.scores) if s != w)
    return (
        f"🏆 **{info.names[w]}** ({info.who(w)}) wins game {ev.game_no}"
        + (f" {how}" if how else "")
        + f" — {ev.scores[w]} ({others})."
    )


def final_text(info: TableInfo, view: SeatView) -> str:
    """The table message once the match is over."""
    winner = view.winner if view.winner is not None else 0
    lines = [header(info) + " · **finished**"]
    if info.partnerships:
        lines.append(
            f"🏆 **{SIDE_NAMES[winner]}** — {info.side_players(winner)} — win "
            f"{view.scores[winner]}–{view.scores[1 - winner]}"
            + (f" (games {view.games_won[winner]}–{view.games_won[1 - winner]})" if info.rules.match_format != "single" else "")
            + "."
        )
    else:
        others = " · ".join(
            f"{info.seat_name(s)} {view.scores[s]}" for s in info.scoring_sides() if s != winner
        )
        lines.append(f"🏆 **{info.names[winner]}** — {info.who(winner)} — wins with {view.scores[winner]} ({others}).")
    last = last_trick_line(info, view)
    if last:
        lines.append(last)
    lines.append("Press **Rematch** to play again with the same seats.")
    return "\n".join(lines)


def rules_text(rules: Rules) -> str:
    return "\n".join(["📜 " + rules.describe()[0], *(f"• {line}" for line in rules.describe()[1:])])
