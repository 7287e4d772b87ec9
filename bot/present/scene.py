"""What the table picture shows, before it is drawn: a :class:`Scene` built from a
seat's view (``scene_of``), and its words for the alt text (``describe``). The
drawing itself is :mod:`bot.present.picture`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.present.i18n import N_, TextMap, _
from bot.present.render import SEAT_NAMES, TableInfo
from bot.present.render.common import suit_name, target_text, terms
from engine import Card, PileView, SeatView, Suit


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a panel: a label and a number (score or tricks), optionally out of ``of``."""

    label: str
    value: int
    of: int = 0
    who: str = ""  # the players of a side ("Alice & Bob"), when the label does not name them

    @property
    def text(self) -> str:
        return f"{self.label} ({self.who})" if self.who else self.label


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything the table picture shows, from public information only.

    It is hashable and cheap to build: it is the picture's key.
    """

    title: str
    subtitle: str
    seat_labels: tuple[str, ...]
    names: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    dealer: int
    to_act: int | None
    doing: str  # "to play", "to lead", ... ("" when nobody is to act)
    trick: tuple[tuple[int, Card], ...]  # the current trick, or the one just finished
    trick_no: int
    trick_winner: int | None  # set when ``trick`` is a finished trick
    tricks_per_deal: int
    trump: Suit | None
    turn_up: Card | None
    contract: str
    declarer: int | None
    scores: tuple[Row, ...]
    target: int
    tricks: tuple[Row, ...]
    games: str  # "games 1–0" in a match, else ""
    layouts: tuple[tuple[PileView, ...], ...]
    calls: tuple[str, ...]  # per seat, its last call in an auction ("" if none)
    notes: tuple[str, ...]  # short public lines: the ruff, honours shown
    status: str  # the bottom line: whose turn, or the result
    language: str = "en"  # the words drawn (the painter's process has no language of its own)
    goal: str = ""  # what wins the game, in words ("game to 5", "first to 14 tricks")
    # what stands in the trumps box while trumps are not known yet: "bidding" (an
    # auction decides them), "to_name" (the declarer names them), else ""
    trumps_state: str = ""
    order: str = ""  # the deal's rank order where it is not the usual: "downtown"
    exposed: tuple[tuple[int, tuple[Card, ...]], ...] = ()  # hands face up (a spread)

    @property
    def n_seats(self) -> int:
        return len(self.seat_labels)


DOING: Final = TextMap(
    {
        "ruff": N_("to decide the ruff"),
        "discard": N_("to lay out cards"),
        "can_ye": N_("to declare honours"),
        "auction": N_("to bid"),
        "bidding": N_("to bid"),
        "trumps": N_("to name trumps"),
        "name": N_("to name the contract"),
        "kitty": N_("to lay out the kitty"),
        "contest": N_("to claim the ruff"),
        "show_ruff": N_("to show the ruff"),
    }
)

_PLAIN_CALLS: Final = TextMap(
    {"pass": N_("pass"), "accept": N_("accept")}
)  # as a seat's plate shows them

RANK_WORDS: Final = TextMap({"J": N_("jack"), "Q": N_("queen"), "K": N_("king"), "A": N_("ace")})


def card_name(card: Card) -> str:
    """What a screen reader says for a card: ``10 of hearts``, ``queen of spades``, ``Big Joker``."""
    if card.is_joker:
        return _("Big Joker") if card.code == "BJ" else _("Little Joker")
    label = card.rank.label
    return _("{rank} of {suit}").format(
        rank=RANK_WORDS.get(label, label), suit=suit_name(card.suit)
    )


def _contract_name(code: str) -> str:
    from bot.present.render.bidwhist import bid_name, is_bid
    from engine import CONTRACT_NAMES

    if is_bid(code):  # Bid Whist: "4 uptown"
        return bid_name(code)
    from bot.present.render.common import CALL_NAMES

    if code in CONTRACT_NAMES and code in CALL_NAMES:
        return CALL_NAMES[code]  # the same words as the text, in the language of the moment
    return str(CONTRACT_NAMES.get(code, code.replace("_", " ").capitalize()))


def _groups(view: SeatView, n: int) -> list[tuple[int, ...]]:
    """The seats of each side, by side index."""
    sides = view.seat_sides
    count = max(sides) + 1 if sides else 0
    return [tuple(s for s in range(n) if sides[s] == k) for k in range(count)]


def scene_of(info: TableInfo, view: SeatView, seat_names: Sequence[str] | None = None) -> Scene:
    """The public scene of ``view`` (any seat's: its hand is never read).

    ``seat_names``: how the table names the seats (default North, East, South,
    West, as the table text does).
    """
    n = len(view.hand_sizes)
    labels = tuple(seat_names[:n]) if seat_names else SEAT_NAMES[:n]
    short = tuple(label[:1] for label in labels)
    names = tuple(
        (
            occupant.name
            if (occupant := info.seats[s] if s < len(info.seats) else None)
            else _("empty")
        )
        for s in range(n)
    )
    rules = view.rules or info.rules

    # the trick: the current one, else the one just finished (until the next card)
    trick = view.trick
    winner: int | None = None
    trick_no = view.trick_no
    if not trick and view.completed_tricks:
        leader, cards, winner = view.completed_tricks[-1]
        trick = tuple(((leader + i) % n, c) for i, c in enumerate(cards))
        trick_no = len(view.completed_tricks)

    # scores: per seat when every seat scores alone, else per side
    groups = _groups(view, n)
    if len(view.scores) == n and not (
        len(groups) == len(view.scores) and n == 4 and len(groups[0]) == 2
    ):
        score_groups: list[tuple[int, ...]] = [(s,) for s in range(n)]
    elif len(view.scores) == len(groups):
        score_groups = groups
    else:
        score_groups = [() for _ in view.scores]

    def group_label(seats: tuple[int, ...], index: int) -> str:
        if not seats:
            return _("Side {number}").format(number=index + 1)
        if len(seats) == 1:
            return f"{short[seats[0]]} {names[seats[0]]}"
        if len(seats) == 2 and n == 4:
            return "".join(short[s] for s in seats)  # NS, EW
        return "+".join(short[s] for s in seats)

    target = max(0, int(view.target))
    scores = tuple(
        Row(
            group_label(seats, i),
            view.scores[i],
            target,
            " & ".join(names[s] for s in seats) if len(seats) > 1 else "",
        )
        for i, seats in enumerate(score_groups)
    )
    tricks = tuple(
        Row(
            group_label(seats, i)
            if len(seats) > 1
            else f"{short[seats[0]]}"
            if seats
            else _("Side {number}").format(number=i + 1),
            view.tricks[i],
        )
        for i, seats in enumerate(groups[: len(view.tricks)])
    )
    games = ""
    if rules.match_format != "single":
        games = _("games {won}").format(won="–".join(str(g) for g in view.games_won))

    calls = [""] * n
    if view.phase in ("auction", "bidding"):
        for seat, call in view.auction:
            if 0 <= seat < n:
                calls[seat] = (
                    _contract_name(call) if call not in ("pass", "accept") else _PLAIN_CALLS[call]
                )

    notes: list[str] = []
    if view.ruffer is not None and view.ruff_state in ("pending", "taken", "declined"):
        who = labels[view.ruffer]
        t = terms(rules)
        if t.ruff == "ruff":
            notes.append(
                {
                    "pending": _("Ruff: {who} may take the stock").format(who=who),
                    "taken": _("Ruff: {who} took the stock").format(who=who),
                    "declined": _("Ruff: {who} declined").format(who=who),
                }[view.ruff_state]
            )
        else:  # Ruffe and Trump: the rub takes from the head (its "ruff" is the contest)
            rub = _(t.ruff)
            rub = rub[:1].upper() + rub[1:]
            notes.append(
                {
                    "pending": _("{rub}: {who} may take four"),
                    "taken": _("{rub}: {who} took four"),
                    "declined": _("{rub}: {who} declined"),
                }[view.ruff_state].format(rub=rub, who=who)
            )
    if view.shown_honours:
        notes.append(
            _("Honours shown: {cards}").format(
                cards=", ".join(f"{short[s]} {c.pretty}" for s, c in view.shown_honours)
            )
        )

    to_act = view.to_act
    doing = ""
    if to_act is not None:
        doing = DOING.get(view.phase, _("to play") if view.trick else _("to lead"))
    if view.phase == "over":
        status = _result_line(view, score_groups, labels, names, scores)
    elif to_act is not None:
        status = f"{labels[to_act]} ({names[to_act]}) {doing}"
    else:
        status = ""

    trumps_state = ""
    if view.phase in ("auction", "bidding"):
        trumps_state = "bidding"
    elif view.phase in ("trumps", "name") and view.trump is None:
        trumps_state = "to_name"
    order = "downtown" if view.rank_order.direction != "uptown" else ""

    return Scene(
        trumps_state=trumps_state,
        order=order,
        exposed=tuple((s, tuple(cards)) for s, cards in view.exposed if cards),
        title=rules.title,
        subtitle=_("Game {game} · Deal {deal} · Table #{table}").format(
            game=view.game_no, deal=view.deal_no, table=info.table_id
        ),
        seat_labels=labels,
        names=names,
        hand_sizes=tuple(view.hand_sizes),
        dealer=view.dealer,
        to_act=to_act,
        doing=doing,
        trick=trick,
        trick_no=trick_no,
        trick_winner=winner,
        tricks_per_deal=rules.tricks_per_deal,
        trump=view.trump,
        turn_up=view.turn_up,
        contract=_contract_name(view.contract) if view.contract else "",
        declarer=view.declarer,
        scores=scores,
        target=target,
        goal=target_text(rules) if target else "",
        tricks=tricks,
        games=games,
        layouts=view.layouts,
        calls=tuple(calls),
        notes=tuple(notes),
        status=status,
        language=info.language,
    )


def _result_line(
    view: SeatView,
    groups: Sequence[tuple[int, ...]],
    labels: Sequence[str],
    names: Sequence[str],
    rows: Sequence[Row],
) -> str:
    if view.winner is None or not 0 <= view.winner < len(rows):
        return _("Game over")
    seats = groups[view.winner] if view.winner < len(groups) else ()
    who = " & ".join(names[s] for s in seats) if seats else rows[view.winner].label
    others = [r.value for i, r in enumerate(rows) if i != view.winner]
    against = f", {rows[view.winner].value}–{max(others)}" if others else ""
    if len(seats) == 1:
        return _("Game over: {who} wins{score}").format(who=who, score=against)
    return _("Game over: {who} win{score}").format(who=who, score=against)


picture_key = scene_of
"""The picture's key is its scene: equal keys, equal pictures (re-draw only on a change)."""


# ------------------------------------------------------------------ alt text


def describe(scene: Scene) -> str:
    """The alt text: what a screen reader says about the picture (at most 1,000 characters)."""
    labels = scene.seat_labels
    parts = [f"{scene.title}, {scene.subtitle.replace(' · ', ', ').lower()}."]
    if scene.contract:
        by = _(" by {who}").format(who=labels[scene.declarer]) if scene.declarer is not None else ""
        parts.append(_("Contract: {contract}{by}.").format(contract=scene.contract, by=by))
    trump = _("no trumps") if scene.trump is None else suit_name(scene.trump)
    up = (
        _(" (turn-up {card})").format(card=card_name(scene.turn_up))
        if scene.turn_up is not None
        else ""
    )
    parts.append(_("Trumps: {trumps}{turn_up}.").format(trumps=trump, turn_up=up))
    if scene.trick:
        played = ", ".join(f"{labels[s]} {card_name(c)}" for s, c in scene.trick)
        if scene.trick_winner is not None:
            parts.append(
                _("Trick {number}, won by {who}: {cards}.").format(
                    number=scene.trick_no, who=labels[scene.trick_winner], cards=played
                )
            )
        else:
            parts.append(_("Trick {number}: {cards}.").format(number=scene.trick_no, cards=played))
    score = ", ".join(f"{r.text} {r.value}" for r in scene.scores)
    to = f", {scene.goal}" if scene.goal else ""
    parts.append(
        _("Score: {scores}").format(scores=f"{score}{to}")
        + (f", {scene.games}" if scene.games else "")
        + "."
    )
    if scene.tricks:
        parts.append(
            _("Tricks this deal: {tricks}").format(
                tricks=", ".join(f"{r.label} {r.value}" for r in scene.tricks)
            )
            + "."
        )
    parts.extend(f"{note}." for note in scene.notes)
    if scene.status:
        parts.append(scene.status + ".")
    text = " ".join(parts)
    return text if len(text) <= 1000 else text[:999] + "…"


# ------------------------------------------------------------------ the table
