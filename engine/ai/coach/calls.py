"""The coach's review of the decisions that are not cards: bids, calls, trumps, lay-outs.

:func:`judge_call` judges one such decision as :func:`engine.ai.coach.review.review_position`
judges a card: every choice the seat had is scored on the same worlds (deals of
the cards it could not see, by the hard AI's samplers), each world evaluated as
the hard AI evaluates that decision when it makes it (the functions of
:mod:`engine.ai.strategies` are reused, not rewritten); the cost of the choice
made is the best mean less its own, with its standard error, flagged under the
same rule as a card (:func:`engine.ai.coach.review.measure`). The double-dummy figure
is the same evaluation in the deal as it lay.

The decisions, per game (RULES.md), and what each choice is worth:

* **Solo Whist's auction** (``bid:…``): each contract the seat could bid alone
  played out with the seat as declarer (:func:`~engine.ai.strategies.solo_whist.playout`,
  the seat's points for the contract); a Propose with the first other seat that
  accepts by hard's own rule (else converted to Solo or passed, the better),
  an Accept with the proposer; passing is worth 0 (what the others would bid is
  not guessed, as hard does not guess it). **Naming trumps** (Abundance, Slam):
  each suit played out. Unit: the seat's points.
* **Bid Whist's bids** (``bid:4u``, ``pass``): each bid played out as declarer with
  the trump or direction the quick count picks (:class:`~engine.ai.strategies.bid_whist.ContractPlayer`'s
  evaluation), in points of the bid (made or set, no trump doubled); passing 0,
  or 1 when partner has bid (hard's own threshold). **Naming trumps or the
  direction**: each choice played out, in points. **The kitty lay-out**, card by
  card: the lowest keep values and the card laid out, the rest laid out by keep
  value, in books.
* **The ruff** (Cotton's stock, Ruffe and Trump's rub at four): **taking or
  declining** — taking is worth, in each world, the best of the likely lay-outs
  of the sixteen cards (the stock seen once taken), declining the twelve held;
  and **the four cards laid out**, judged as one decision (the lay-out): the
  likely sets of :func:`~engine.ai.strategies.discards.candidate_discards` and
  the set laid out. Each world is played out by the batched greedy playouts the
  hard AI screens its lay-outs with; the points are the partnership unit
  (:func:`~engine.ai.search.value.value_table`, honours held included).
* **Can-ye and showing honours** (``canye``, ``show``, ``pass``): showing wins the
  game; a call wins it where partner holds an honour; otherwise (and passing)
  the deal is played: its value by DDS (double dummy from the first lead, or the
  greedy playout without DDS), in the partnership unit.

* **Ruffe and Trump's declared ruff** (``ruffval:…``, under ``ruff_announce =
  declared``): the claims made so far are public, the seats still to claim state
  their true ruff (as every AI level does); a claim is worth the ruff points of
  the seat's side less the others' (a false winning claim passes them on).

* **The rub's lay-out at the open tables** (Ruffe and Trump for two or three): the
  likely sets played out in the open-table worlds, valued as hard values a deal.

Not judged: claims and concessions (an agreement, not a choice of play), and
taking or declining the rub at the open tables (the open-table sampler knows
no hidden head before the rub): see ``docs/coach.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import (
    Action,
    CallCanYe,
    DeclineRuff,
    Discard,
    Pass,
    ShowHonours,
    TakeRuff,
)
from engine.ai.search import dds
from engine.ai.search import open_search as ops
from engine.ai.search.batch_playouts import batch_playout
from engine.ai.search.bitmasks import NO_TRUMP
from engine.ai.search.determinized import honour_counts
from engine.ai.search.value import WIN_BONUS, value_table
from engine.ai.search.worlds import Situation, deck_mask, opening_leader, sample_world, situation
from engine.ai.strategies import bid_whist as bw
from engine.ai.strategies import solo_whist as solo
from engine.ai.strategies.discards import candidate_discards
from engine.ai.strategies.open_tables import wants_generic
from engine.cards import Card, Suit, mask_of
from engine.game import Game, SeatView
from engine.phases.auction import Bid as WhistBid
from engine.phases.contest import RuffClaim, contest_winners, ruff_value
from engine.phases.contract import NameDirection
from engine.phases.solo_auction import SoloBid
from engine.phases.solo_declare import NameTrump

__all__ = ["LAY_OUT_CANDIDATES", "CallModel", "call_model", "lay_out_code"]

LAY_OUT_CANDIDATES = 10  # likely lay-outs scored beside the one laid out (the hard AI's screen)
KITTY_CANDIDATES = bw.DISCARD_CANDIDATES  # the kitty's lowest keep values compared


@dataclass(slots=True)
class CallModel:
    """How one decision's choices are sampled and scored."""

    kind: str  # call, trump, lay-out, kitty
    unit: str  # points or tricks
    threshold: float
    cands: list[str]  # the choices' codes
    chosen: str  # the choice made
    sample: Callable[[random.Random], Any]
    evaluate: Callable[[Any, list[str]], Mapping[str, float]]
    true_world: Any  # the deal as it lay (None: no double-dummy figure)
    consumed: int = 1  # the seat's actions this decision stands for (a lay-out's four)


def lay_out_code(cards: Sequence[int]) -> str:
    """A lay-out's code: its cards' codes, sorted, joined by spaces."""
    return " ".join(str(Card.from_index(c)) for c in sorted(cards))


def _lay_out_cards(code: str) -> list[int]:
    return [Card.parse(c).index for c in code.split()]


def call_model(
    game: Game,
    seat: int,
    action: Action,
    after: Sequence[Action],
    threshold: float,
    solo_threshold: float,
) -> CallModel | None:
    """The model judging ``action`` (not a card) of ``seat`` in ``game`` as it stands;
    ``after``: the seat's next actions in the log (a lay-out's other cards).
    ``None``: not a decision the review judges, or only one choice."""
    view = game.observe(seat)
    legal = list(game.legal_actions(seat))
    if len(legal) < 2 or action not in legal:
        return None
    family = view.rules.family if view.rules is not None else ""
    if family == "bid_whist":
        if isinstance(action, (WhistBid, Pass)) and any(isinstance(a, WhistBid) for a in legal):
            return _bw_bid(game, view, legal, action, threshold)
        if isinstance(action, (NameTrump, NameDirection)):
            return _bw_name(game, view, legal, action, threshold)
        if isinstance(action, Discard):
            return _bw_kitty(game, view, legal, action, threshold)
        return None
    if isinstance(action, SoloBid):
        return _solo_bid(game, view, legal, action, solo_threshold)
    if isinstance(action, NameTrump):
        return _solo_trump(game, view, legal, action, solo_threshold)
    if isinstance(action, RuffClaim):
        return _ruff_claim(game, view, legal, action, threshold)
    if wants_generic(view):
        if isinstance(action, Discard):
            return _open_lay_out(game, view, legal, action, after, threshold)
        return None  # taking the rub at the open tables: not judged (module docstring)
    if isinstance(action, (TakeRuff, DeclineRuff)):
        return _ruff_take(game, view, legal, action, threshold)
    if isinstance(action, Discard):
        return _lay_out(game, view, legal, action, after, threshold)
    if isinstance(action, (CallCanYe, ShowHonours)) or (
        isinstance(action, Pass) and any(isinstance(a, (CallCanYe, ShowHonours)) for a in legal)
    ):
        return _can_ye(game, view, legal, action, threshold)
    return None


# --------------------------------------------------------------------------- Solo Whist


def _solo_contract_value(
    view: SeatView,
    world: list[int],
    contract: str,
    declarers: Sequence[int],
    trump: int,
) -> float:
    """The seat's points when ``declarers`` play ``contract`` with ``trump`` in ``world``."""
    sides = tuple(0 if s in declarers else 1 for s in range(4))
    declarer = declarers[0]
    roles = solo.contract_roles(contract, declarer)
    leader = declarer if contract == "slam" else view.eldest
    won = solo.playout(list(world), leader, [], trump, sides, roles, declarer, [0, 0, 0, 0])
    value = solo.seat_points(view, contract, sides, won)
    if contract == "spread" and view.seat in declarers:
        value -= 1.0  # the opponents see the hand: greedy playouts flatter it (as hard counts it)
    return value


def _contract_trump(view: SeatView, contract: str, hand: int) -> int:
    rules = view.rules
    assert rules is not None
    turn_up = view.turn_up.suit.order if view.turn_up is not None else NO_TRUMP
    if contract in ("mis", "spread"):
        return NO_TRUMP
    if contract == "abund" or (contract == "slam" and rules.slam_trump != "none"):
        return solo.best_suit(hand)[0]
    if contract == "slam":
        return NO_TRUMP
    return turn_up


def _solo_bid(
    game: Game, view: SeatView, legal: list[Action], action: SoloBid, threshold: float
) -> CallModel | None:
    sit = situation(view)
    seat = view.seat
    hand = sit.my_hand
    calls = {a.encode(): a.call for a in legal if isinstance(a, SoloBid)}
    turn_up = view.turn_up.suit.order if view.turn_up is not None else NO_TRUMP
    proposer = next((s for s, call in view.auction if call == "prop"), None)
    passed = {s for s, call in view.auction if call == "pass"}

    def evaluate(world: list[int], cands: list[str]) -> dict[str, float]:
        out: dict[str, float] = {}
        for code in cands:
            call = calls[code]
            if call == "pass":
                out[code] = 0.0
            elif call == "accept" and proposer is not None:
                out[code] = _solo_contract_value(view, world, "prop", (proposer, seat), turn_up)
            elif call == "prop":
                partner = next(
                    (
                        (seat + k) % 4
                        for k in range(1, 4)
                        if (seat + k) % 4 not in passed
                        and solo.estimate_tricks(world[(seat + k) % 4], turn_up) >= 4.0
                    ),
                    None,
                )
                if partner is not None:
                    out[code] = _solo_contract_value(view, world, "prop", (seat, partner), turn_up)
                else:  # nobody accepts: the proposer converts to Solo, or passes
                    alone = _solo_contract_value(view, world, "solo", (seat,), turn_up)
                    out[code] = max(0.0, alone)
            else:
                trump = _contract_trump(view, call, hand)
                out[code] = _solo_contract_value(view, world, call, (seat,), trump)
        return out

    return CallModel(
        kind="call",
        unit="points",
        threshold=threshold,
        cands=list(calls),
        chosen=action.encode(),
        sample=lambda rng: sample_world(sit, rng),
        evaluate=evaluate,
        true_world=[game.hands[s] for s in range(4)],
    )


def _solo_trump(
    game: Game, view: SeatView, legal: list[Action], action: NameTrump, threshold: float
) -> CallModel | None:
    sit = situation(view)
    seat = view.seat
    contract = view.contract
    suits = {a.encode(): a.suit.order for a in legal if isinstance(a, NameTrump)}

    def evaluate(world: list[int], cands: list[str]) -> dict[str, float]:
        return {c: _solo_contract_value(view, world, contract, (seat,), suits[c]) for c in cands}

    return CallModel(
        kind="trump",
        unit="points",
        threshold=threshold,
        cands=list(suits),
        chosen=action.encode(),
        sample=lambda rng: sample_world(sit, rng),
        evaluate=evaluate,
        true_world=[game.hands[s] for s in range(4)],
    )


# --------------------------------------------------------------------------- Bid Whist


def _bw_true_world(game: Game) -> list[int]:
    return [*(game.hands[s] for s in range(4)), mask_of(game.stock)]


def _bw_bid(
    game: Game, view: SeatView, legal: list[Action], action: Action, threshold: float
) -> CallModel | None:
    rules = view.rules
    assert rules is not None
    hand = mask_of(view.hand)
    player = bw.ContractPlayer(search=True)
    cands = bw.contract_candidates(view, hand)
    models = {mode: bw.contract_model(view, mode, choice) for mode, choice, _ in cands}
    k = bw.knowledge_of(view, models["u"])
    leads = rules.first_leader == "declarer"
    bids = {a.encode(): a for a in legal if isinstance(a, WhistBid)}
    has_pass = any(isinstance(a, Pass) for a in legal)
    partner_bid = any(s == view.partner and code != "pass" for s, code in view.auction)
    pass_value = 1.0 if partner_bid else 0.0

    def evaluate(world: list[int], choices: list[str]) -> dict[str, float]:
        books = {
            mode: player.declare_books(view, m, list(world), leads) for mode, m in models.items()
        }
        out: dict[str, float] = {}
        for code in choices:
            if code == "pass":
                out[code] = pass_value
                continue
            b = bids[code]
            out[code] = float(
                bw.contract_points(
                    rules.made_score, rules.nt_multiplier, b.number, b.no_trump, books[b.mode]
                )
            )
        return out

    return CallModel(
        kind="call",
        unit="points",
        threshold=threshold,
        cands=[*bids, *(["pass"] if has_pass else [])],
        chosen=action.encode(),
        sample=lambda rng: bw.sample_world(k, rng),
        evaluate=evaluate,
        true_world=_bw_true_world(game),
    )


def _bw_name(
    game: Game, view: SeatView, legal: list[Action], action: Action, threshold: float
) -> CallModel | None:
    rules = view.rules
    assert rules is not None
    hand = mask_of(view.hand)
    player = bw.ContractPlayer(search=True)
    code = view.contract
    number = int(code[:-1]) if code[:-1].isdigit() else 0
    no_trump = code.endswith("n")
    choices: dict[str, tuple[Action, bw.DealModel]] = {}
    for a in legal:
        choice: Suit | str
        if isinstance(a, NameTrump):
            choice = a.suit
        elif isinstance(a, NameDirection):
            choice = a.direction
        else:
            continue
        choices[a.encode()] = (a, bw.contract_model(view, code, choice))
    if len(choices) < 2:
        return None
    first = next(iter(choices.values()))[1]
    k = bw.knowledge_of(view, first)
    leads = rules.first_leader == "declarer"
    quick = {c: bw.estimate_tricks(m, hand) for c, (_a, m) in choices.items()}

    def evaluate(world: list[int], cands: list[str]) -> dict[str, float]:
        out: dict[str, float] = {}
        for c in cands:
            books = player.declare_books(view, choices[c][1], list(world), leads)
            points = bw.contract_points(
                rules.made_score, rules.nt_multiplier, number, no_trump, books
            )
            out[c] = float(points) + 0.01 * quick[c]  # hard's own tie-break
        return out

    return CallModel(
        kind="trump",
        unit="points",
        threshold=threshold,
        cands=list(choices),
        chosen=action.encode(),
        sample=lambda rng: bw.sample_world(k, rng),
        evaluate=evaluate,
        true_world=_bw_true_world(game),
    )


def _bw_kitty(
    game: Game, view: SeatView, legal: list[Action], action: Discard, threshold: float
) -> CallModel | None:
    rules = view.rules
    assert rules is not None
    m = bw.model_of(view.trump, view.rank_order)
    hand = mask_of(view.hand)
    unseen = bw.pack_mask(rules.jokers) & ~hand
    options = sorted(
        (a for a in legal if isinstance(a, Discard)),
        key=lambda a: (bw.keep_value(m, hand, a.card.index, unseen), a.card.index),
    )
    cands = [a.card for a in options[:KITTY_CANDIDATES]]
    if action.card not in cands:
        cands.append(action.card)
    k = bw.knowledge_of(view, m)
    leads = rules.first_leader == "declarer"
    sides = view.sides or (0, 1, 0, 1)
    player = bw.ContractPlayer(search=True)
    seat = view.seat
    leader = seat if leads else view.eldest

    def evaluate(world: list[int], codes: list[str]) -> dict[str, float]:
        out: dict[str, float] = {}
        for code in codes:
            card = Card.parse(code)
            hands = list(world[:4])
            hands[seat] = hand & ~card.bit
            extra = hands[seat].bit_count() - rules.hand_size
            hands[seat] = player.lay_out(m, hands[seat], extra, view)
            tricks = bw.playout(m, hands, [], leader, sides, [0] * (max(sides) + 1))
            out[code] = float(tricks[sides[seat]])
        return out

    truth = _bw_true_world(game)
    truth[seat] = hand
    return CallModel(
        kind="kitty",
        unit="tricks",
        threshold=threshold,
        cands=[str(c) for c in cands],
        chosen=str(action.card),
        sample=lambda rng: bw.sample_world(k, rng),
        evaluate=evaluate,
        true_world=truth,
    )


# --------------------------------------------------------------------------- the ruff


def _deal_value(
    sit: Situation, leader: int, hands_rows: list[list[int]], counts: list[tuple[int, int] | None]
) -> list[float]:
    """Each row of four hands played out from the first lead (the batched greedy
    playouts), valued for the seat's side in the partnership unit."""
    rules = sit.rules
    total = rules.tricks_per_deal
    side = sit.seat % 2
    if not hands_rows:
        return []
    side0 = batch_playout(hands_rows, leader, None, sit.trump, 0, total).tolist()
    out = []
    for ns, hon in zip(side0, counts, strict=True):
        mine = int(ns) if side == 0 else total - int(ns)
        out.append(value_table(rules, side, sit.start_scores, hon)[mine])
    return out


def _sets(hand: int, allowed: int, trump: int, count: int) -> list[str]:
    return [
        lay_out_code(combo)
        for combo in candidate_discards(hand, allowed, trump, count, LAY_OUT_CANDIDATES)
    ]


def _lay_out_values(
    sit: Situation, leader: int, hand: int, world: list[int], codes: list[str]
) -> list[float]:
    rows: list[list[int]] = []
    counts: list[tuple[int, int] | None] = []
    for code in codes:
        hands = list(world[:4])
        out = 0
        for c in _lay_out_cards(code):
            out |= 1 << c
        hands[sit.seat] = hand & ~out
        rows.append(hands)
        counts.append(honour_counts(sit, hands))
    return _deal_value(sit, leader, rows, counts)


def _ruff_take(
    game: Game, view: SeatView, legal: list[Action], action: Action, threshold: float
) -> CallModel | None:
    sit = situation(view)
    rules = sit.rules
    seat = view.seat
    count = rules.stock_size
    deck = deck_mask(rules.removed_ranks)
    leader = opening_leader(view)

    def with_stock(world: list[int]) -> list[int]:
        held = world[0] | world[1] | world[2] | world[3]
        return [*world[:4], deck & ~held]

    def evaluate(world: list[int], cands: list[str]) -> dict[str, float]:
        stock = world[4]
        sixteen = sit.my_hand | stock
        sets = _sets(sixteen, sixteen, sit.trump, count)
        keep_all = lay_out_code([i for i in range(52) if stock >> i & 1])
        if keep_all not in sets:
            sets.append(keep_all)
        base = list(world[:4])
        base[seat] = sixteen
        values = _lay_out_values(sit, leader, sixteen, base, sets)
        return {
            "take": max(values),
            "decline": values[sets.index(keep_all)],
        }

    def sample(rng: random.Random) -> list[int] | None:
        world = sample_world(sit, rng, inference=False)
        return None if world is None else with_stock(world)

    return CallModel(
        kind="call",
        unit="points",
        threshold=threshold,
        cands=["take", "decline"],
        chosen=action.encode(),
        sample=sample,
        evaluate=evaluate,
        true_world=[*(game.hands[s] for s in range(4)), mask_of(game.stock)],
    )


def _laid(view: SeatView, action: Discard, after: Sequence[Action], count: int) -> list[int]:
    """The cards of the lay-out that begins with ``action`` (``after``: the seat's next actions)."""
    laid = [action.card.index]
    for a in after:
        if not isinstance(a, Discard) or len(laid) == count:
            break
        laid.append(a.card.index)
    return laid


def _open_lay_out(
    game: Game,
    view: SeatView,
    legal: list[Action],
    action: Discard,
    after: Sequence[Action],
    threshold: float,
) -> CallModel | None:
    """The rub's lay-out at the open tables (two or three, each alone), as the hard AI
    plans it (:func:`~engine.ai.strategies.discards.plan_open_discards`): the likely
    sets played out from the first lead in the open-table worlds, valued as hard
    values a deal (less the others' mean)."""
    if view.my_discards:
        return None
    k = ops.knowledge_of(view) if ops.applies(view) else None
    if k is None:
        return None
    count = len(view.hand) - k.rules.hand_size
    laid = _laid(view, action, after, count)
    if len(laid) != count:
        return None
    allowed = 0
    for a in legal:
        if isinstance(a, Discard):
            allowed |= a.card.bit
    hand = mask_of(view.hand)
    chosen = lay_out_code(laid)
    cands = [
        lay_out_code(combo)
        for combo in candidate_discards(hand, allowed, k.trump, count, LAY_OUT_CANDIDATES)
    ]
    if chosen not in cands:
        cands.append(chosen)
    leader = opening_leader(view)
    side = k.sides[k.seat]
    start = [0] * len(k.tricks)
    n = k.n

    def evaluate(world: ops.World, codes: list[str]) -> dict[str, float]:
        out: dict[str, float] = {}
        for code in codes:
            gone = 0
            for c in _lay_out_cards(code):
                gone |= 1 << c
            hands = list(world.hands)
            hands[k.seat] = hand & ~gone
            after_world = ops.World(hands, world.ups, world.fresh, world.under)
            final = ops.playout(after_world, leader, [], k.trump, k.sides, start, k.stop)
            out[code] = ops.deal_value(k.rules, k.sides, side, final, True)
        return out

    truth = ops.World([game.hands[s] for s in range(n)], [0] * n, [0] * n, [{} for _ in range(n)])
    return CallModel(
        kind="lay-out",
        unit="points",
        threshold=threshold,
        cands=cands,
        chosen=chosen,
        sample=lambda rng: ops.sample_world(k, rng),
        evaluate=evaluate,
        true_world=truth,
        consumed=count,
    )


def _lay_out(
    game: Game,
    view: SeatView,
    legal: list[Action],
    action: Discard,
    after: Sequence[Action],
    threshold: float,
) -> CallModel | None:
    sit = situation(view)
    rules = sit.rules
    if view.my_discards:
        return None  # judged as one decision at its first card
    count = len(view.hand) - rules.hand_size
    laid = _laid(view, action, after, count)
    if len(laid) != count:
        return None
    allowed = 0
    for a in legal:
        if isinstance(a, Discard):
            allowed |= a.card.bit
    hand = sit.my_hand
    leader = opening_leader(view)
    chosen = lay_out_code(laid)
    cands = _sets(hand, allowed, sit.trump, count)
    if chosen not in cands:
        cands.append(chosen)
    if len(cands) < 2:
        return None

    def evaluate(world: list[int], codes: list[str]) -> dict[str, float]:
        return dict(zip(codes, _lay_out_values(sit, leader, hand, world, codes), strict=True))

    truth = [game.hands[s] for s in range(4)]
    return CallModel(
        kind="lay-out",
        unit="points",
        threshold=threshold,
        cands=cands,
        chosen=chosen,
        sample=lambda rng: sample_world(sit, rng, inference=False),
        evaluate=evaluate,
        true_world=truth,
        consumed=count,
    )


# --------------------------------------------------------------------------- Can-ye


def _can_ye(
    game: Game, view: SeatView, legal: list[Action], action: Action, threshold: float
) -> CallModel | None:
    sit = situation(view)
    rules = sit.rules
    seat = view.seat
    side = seat % 2
    partner = (seat + 2) % 4
    leader = opening_leader(view)
    total = rules.tricks_per_deal
    win = float(rules.target_score - sit.start_scores[side]) + WIN_BONUS
    use_dds = dds.available()
    codes = [a.encode() for a in legal if isinstance(a, (CallCanYe, ShowHonours, Pass))]

    def played(world: list[int]) -> float:
        hands = list(world[:4])
        counts = honour_counts(sit, hands)
        if use_dds:
            lead_side = dds.max_tricks(hands, leader, sit.trump)
            mine = lead_side if leader % 2 == side else total - lead_side
            return value_table(rules, side, sit.start_scores, counts)[mine]
        return _deal_value(sit, leader, [hands], [counts])[0]

    def evaluate(world: list[int], cands: list[str]) -> dict[str, float]:
        play_on = played(world)
        partner_holds = bool(world[partner] & sit.honours)
        out: dict[str, float] = {}
        for c in cands:
            if c == "show" or (c == "canye" and partner_holds):
                out[c] = win
            else:
                out[c] = play_on
        return out

    return CallModel(
        kind="call",
        unit="points",
        threshold=threshold,
        cands=codes,
        chosen=action.encode(),
        sample=lambda rng: sample_world(sit, rng, inference=False),
        evaluate=evaluate,
        true_world=[game.hands[s] for s in range(4)],
    )


# --------------------------------------------------------------------------- Ruffe and Trump's ruff


def _ruff_claim(
    game: Game, view: SeatView, legal: list[Action], action: RuffClaim, threshold: float
) -> CallModel | None:
    """A declared ruff (``ruff_announce = declared``): the claims made so far are public;
    the seats still to claim state their true ruff (as every AI level does); the
    claimed winners show after the rub, a false claim passing the bonus to the true
    winner. A claim is worth the ruff points of the seat's side less the others'
    (their mean, each playing alone)."""
    rules = view.rules
    assert rules is not None
    seat = view.seat
    n = view.n_seats
    sides = view.seat_sides
    n_sides = max(sides) + 1
    hand = mask_of(view.hand)
    turn_up = view.turn_up
    trump = view.trump
    measure = rules.ruff_measure
    mine = ruff_value(hand, turn_up, trump, measure)
    said = view.note("ruff_claims", ())
    earlier: dict[int, int] = {}
    if isinstance(said, tuple):
        for s, v in said:
            earlier[int(s)] = int(v)
    top = max(earlier.values(), default=-1)
    most = max(a.value for a in legal if isinstance(a, RuffClaim))
    values = {0, mine, action.value, min(most, top + 1), min(most, mine + 1)}
    if top >= 0:
        values.add(top)
    cands = [f"ruffval:{v}" for v in sorted(values)]
    deck = deck_mask(rules.removed_ranks)
    pool = [
        i for i in range(52) if (deck & ~hand) >> i & 1 and (turn_up is None or i != turn_up.index)
    ]
    sizes = list(view.hand_sizes)

    def sample(rng: random.Random) -> list[int]:
        cards = pool[:]
        rng.shuffle(cards)
        world = [0] * n
        world[seat] = hand
        k = 0
        for s in range(n):
            if s == seat:
                continue
            for c in cards[k : k + sizes[s]]:
                world[s] |= 1 << c
            k += sizes[s]
        return world

    def evaluate(world: list[int], codes: list[str]) -> dict[str, float]:
        true = [ruff_value(world[s], turn_up, trump, measure) for s in range(n)]
        out: dict[str, float] = {}
        for code in codes:
            claims: list[int | None] = [earlier.get(s, true[s]) for s in range(n)]
            claims[seat] = int(code.partition(":")[2])
            awards, _ = contest_winners(
                claims, view.eldest, sides, rules.ruff_tie, rules.ruff_bonus
            )
            false = {s for s, _p in awards if (claims[s] or 0) > true[s]}
            points = [0.0] * n_sides
            for s, p in awards:
                if s not in false:
                    points[sides[s]] += p
            lost = sum(p for s, p in awards if s in false)
            if lost:
                others: list[int | None] = [None if s in false else true[s] for s in range(n)]
                passed, _ = contest_winners(others, view.eldest, sides, rules.ruff_tie, lost)
                for s, p in passed:
                    points[sides[s]] += p
            own = points[sides[seat]]
            rest = [p for i, p in enumerate(points) if i != sides[seat]]
            out[code] = own - (sum(rest) / len(rest) if rest else 0.0)
        return out

    return CallModel(
        kind="call",
        unit="points",
        threshold=threshold,
        cands=cands,
        chosen=action.encode(),
        sample=sample,
        evaluate=evaluate,
        true_world=[game.hands[s] for s in range(n)],
    )
