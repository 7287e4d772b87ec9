"""The AI players: interface, legality in every game, and decisions good players expect."""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence

import pytest

from engine import (
    Action,
    CallCanYe,
    Card,
    Discard,
    Game,
    Pass,
    Play,
    SeatView,
    ShowHonours,
    TakeRuff,
    game_ids,
    new_game,
    presets_for,
)
from engine.ai import LEVELS, EasyPlayer, GuardedPlayer, HardPlayer, get_player
from engine.ai.search.bitmasks import trick_winner_pos
from engine.events import DealScored, TrickWon
from engine.rules import make_rules

from .helpers import fast_player, positions, true_values


def test_levels_and_factory() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    for level in LEVELS:
        player = get_player(level)
        assert player.name == level
        assert callable(player.choose)
    with pytest.raises(ValueError):
        get_player("grandmaster")


GAMES = [(g, p) for g in game_ids() for p in presets_for(g)]


@pytest.mark.parametrize(("game_id", "preset"), GAMES, ids=[f"{g}/{p}" for g, p in GAMES])
def test_every_level_plays_legally(game_id: str, preset: str) -> None:
    """Mixed tables play two deals of every game and preset; every answer is legal."""
    players = [fast_player(level) for level in ("hard", "normal", "easy", "normal")]
    rules = make_rules(game_id, preset)
    for seed in (11, 12):
        game, _ = new_game(rules=rules, seed=seed, first_dealer=seed % rules.players)
        rng = random.Random(seed)
        deals = 0
        while not game.is_over and deals < 2:
            seat = game.to_act()
            assert seat is not None
            view = game.observe(seat)
            action = players[(seat + seed) % 4].choose(view, view.legal, rng)
            assert action in view.legal
            deals += sum(isinstance(e, DealScored) for e in game.apply(seat, action))


@pytest.mark.parametrize("game_id", game_ids())
def test_easy_finishes_whole_games(game_id: str) -> None:
    """Whole games (Can-ye windows, match ends) with the fast level in every seat."""
    player = get_player("easy")
    for seed in range(3):
        game, _ = new_game(game_id, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over:
            seat = game.to_act()
            assert seat is not None
            view = game.observe(seat)
            action = player.choose(view, view.legal, rng)
            assert action in view.legal
            game.apply(seat, action)
            steps += 1
            assert steps < 20000


# ---------------------------------------------------------------- obvious decisions


def _choices(view: SeatView, seed: int = 0) -> dict[str, Action]:
    return {
        level: fast_player(level).choose(view, view.legal, random.Random(seed)) for level in LEVELS
    }


def _fourth_hand_can_win(game: Game, view: SeatView) -> bool:
    if view.phase != "play" or len(view.trick) != 3 or view.trick_no < 10:
        return False
    cards = [c.index for _, c in view.trick]
    trump = view.trump.order if view.trump is not None else 4
    if trick_winner_pos(cards, trump) == 1:
        return False  # partner is winning already
    plays = [a.card for a in view.legal if isinstance(a, Play)]
    wins = [c for c in plays if trick_winner_pos([*cards, c.index], trump) == 3]
    if not wins or len(wins) == len(plays):
        return False
    values = true_values(game, view)
    return min(values[c.code] for c in wins) > max(values[c.code] for c in plays if c not in wins)


def _tricks_after(game: Game, seat: int, action: Action) -> int:
    """Tricks 11 and 12 that ``seat``'s side wins if it plays ``action`` (the rest is forced)."""
    trial = game.clone()
    events = list(trial.apply(seat, action))
    while sum(isinstance(e, TrickWon) for e in events) < 2:
        to_act = trial.to_act()
        assert to_act is not None
        legal = trial.legal_actions(to_act)
        assert len(legal) == 1, "trick 12 is forced: one card each"
        events.extend(trial.apply(to_act, legal[0]))
    return sum(1 for e in events if isinstance(e, TrickWon) and e.winner % 2 == seat % 2)


def test_takes_a_winning_trick_at_the_end() -> None:
    """Last to play at trick 11 with a winning card: every level makes the most tricks.

    The levels play the last two tricks against every possible world, so this
    holds with the tests' tiny search budgets, however busy the machine.
    """
    found = 0
    for game, view in positions(_fourth_hand_can_win_at_11, seeds=range(400)):
        best = max(_tricks_after(game, view.seat, a) for a in view.legal)
        for level, action in _choices(view).items():
            assert isinstance(action, Play), level
            assert _tricks_after(game, view.seat, action) == best, (level, view)
        found += 1
        if found == 8:
            break
    assert found >= 4


def _fourth_hand_can_win_at_11(game: Game, view: SeatView) -> bool:
    return view.trick_no == 11 and _fourth_hand_can_win(game, view)


def _seen(view: SeatView) -> set[int]:
    return {c.index for _, cs, _ in view.completed_tricks for c in cs} | {
        c.index for c in view.hand
    }


def _is_master(card: Card, seen: set[int]) -> bool:
    return all(i in seen for i in range(card.index + 1, (card.index // 13 + 1) * 13))


def _on_lead_with_a_sure_winner(game: Game, view: SeatView) -> bool:
    """On lead with two cards: a side-suit master and a loser, no trump left out."""
    if view.phase != "play" or view.trick or len(view.hand) != 2 or view.trump is None:
        return False
    seen = _seen(view)
    trumps_out = [i for i in range(52) if i // 13 == view.trump.order and i not in seen]
    if trumps_out:
        return False
    masters = [c for c in view.hand if c.suit is not view.trump and _is_master(c, seen)]
    if len(masters) != 1:
        return False
    values = true_values(game, view)
    return values[masters[0].code] > min(values.values())


def test_cashes_the_winner_on_lead_for_the_last_tricks() -> None:
    """Two cards left, on lead, a sure winner and a loser: the winner is cashed first."""
    found = 0
    for _game, view in positions(_on_lead_with_a_sure_winner, "whist-5", seeds=range(400)):
        assert view.trump is not None
        seen = _seen(view)
        master = next(c for c in view.hand if c.suit is not view.trump and _is_master(c, seen))
        for level, action in _choices(view).items():
            assert action == Play(master), (level, action, view.hand)
        found += 1
        if found == 6:
            break
    assert found >= 3


def _lost_trick_with_small_cards(game: Game, view: SeatView) -> bool:
    if view.phase != "play" or len(view.trick) != 3 or not 3 <= view.trick_no <= 9:
        return False
    cards = [c.index for _, c in view.trick]
    trump = view.trump.order if view.trump is not None else 4
    if trick_winner_pos(cards, trump) == 1:
        return False
    plays = [a.card for a in view.legal if isinstance(a, Play)]
    led = view.trick[0][1].suit
    if len(plays) < 2 or any(c.suit is not led for c in plays) or any(c.rank > 9 for c in plays):
        return False
    if any(trick_winner_pos([*cards, c.index], trump) == 3 for c in plays):
        return False
    values = true_values(game, view)
    return len(set(values.values())) == 1


def test_follows_low_to_a_lost_trick() -> None:
    """The trick is lost whatever is played: every level follows with its lowest card."""
    found = 0
    for _game, view in positions(_lost_trick_with_small_cards, seeds=range(200)):
        lowest = min((a.card for a in view.legal if isinstance(a, Play)), key=lambda c: c.rank)
        for level, action in _choices(view).items():
            assert action == Play(lowest), (level, action, view.hand)
        found += 1
        if found == 8:
            break
    assert found >= 4


def _discarding(game: Game, view: SeatView) -> bool:
    return view.phase == "discard" and not view.my_discards


def _take_ruff(view: SeatView, rng: random.Random) -> Action:
    take = [a for a in view.legal if isinstance(a, TakeRuff)]
    return take[0] if take else rng.choice(view.legal)


@pytest.mark.parametrize("level", LEVELS)
def test_keeps_scoring_honours_at_the_ruff(level: str) -> None:
    """Laying out four of sixteen: never an honour when small cards will do,
    and the four discards come one at a time, consistently with one plan."""
    player = fast_player(level)
    checked = 0
    for game, view in positions(_discarding, seeds=range(60), driver=_take_ruff):
        assert view.trump is not None
        honours = view.trump.honours_mask
        rng = random.Random(1)
        first = player.choose(view, view.legal, rng)
        assert isinstance(first, Discard)
        # asking again gives the same first card (the plan is stable)
        assert player.choose(view, view.legal, random.Random(99)) == first
        laid: list[int] = []
        seat = view.seat
        while game.phase == "discard":
            v = game.observe(seat)
            action = player.choose(v, v.legal, rng)
            assert isinstance(action, Discard)
            laid.append(action.card.index)
            game.apply(seat, action)
        assert laid[0] == first.card.index and len(laid) == 4
        assert not any(honours >> i & 1 for i in laid), (level, view.hand, laid)
        checked += 1
        if checked == 6:
            break
    assert checked >= 4


def _at_the_call_point(game: Game, view: SeatView) -> bool:
    return view.phase == "can_ye"


def test_calls_can_ye_or_shows_when_it_wins() -> None:
    """At 8, holding two honours with an honour in partner's hand (or three):
    every level claims the game."""
    easy = EasyPlayer(noise=0.0)
    found = 0
    for seed in range(200):
        game, _ = new_game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over and found < 6:
            seat = game.to_act()
            assert seat is not None
            view = game.observe(seat)
            if view.phase == "can_ye":
                assert view.trump is not None
                mine = sum(1 for c in view.hand if c.bit & view.trump.honours_mask)
                partner = game.observe((seat + 2) % 4).hand
                theirs = sum(1 for c in partner if c.bit & view.trump.honours_mask)
                if mine >= 3 or (mine == 2 and theirs):
                    for level, action in _choices(view, seed).items():
                        expected = ShowHonours if mine >= 3 else CallCanYe
                        assert isinstance(action, expected), level
                    trial = game.clone()
                    trial.apply(seat, _choices(view, seed)["hard"])
                    assert trial.is_over and trial.winner == seat % 2
                    found += 1
            game.apply(seat, easy.choose(view, view.legal, rng))
        if found >= 6:
            break
    assert found >= 2


# ---------------------------------------------------------------- robustness


class _Broken:
    name = "broken"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        raise RuntimeError("boom")


class _Cheat:
    name = "cheat"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        return Pass()


def test_guard_falls_back_to_easy() -> None:
    game, _ = new_game(seed=5, first_dealer=0)
    seat = game.to_act()
    assert seat is not None
    view = game.observe(seat)
    for inner in (_Broken(), _Cheat()):
        guarded = GuardedPlayer(inner, EasyPlayer(noise=0.0))
        assert guarded.choose(view, view.legal, random.Random(0)) in view.legal


def test_hard_without_dds_still_plays() -> None:
    player = HardPlayer(budget=0.01, cap=0.3, use_dds=False)
    game, _ = new_game(seed=8, first_dealer=1)
    rng = random.Random(8)
    while game.deal_no == 1:
        seat = game.to_act()
        assert seat is not None
        view = game.observe(seat)
        action = player.choose(view, view.legal, rng)
        assert action in view.legal
        game.apply(seat, action)


def test_players_are_thread_safe() -> None:
    """Two threads share one player object per level, each driving its own game."""
    errors: list[BaseException] = []
    shared = {level: fast_player(level) for level in LEVELS}

    def run(seed: int) -> None:
        try:
            game, _ = new_game(seed=seed, first_dealer=seed % 4)
            rng = random.Random(seed)
            while game.deal_no == 1:
                seat = game.to_act()
                assert seat is not None
                view = game.observe(seat)
                action = shared[LEVELS[seat % 3]].choose(view, view.legal, rng)
                assert action in view.legal
                game.apply(seat, action)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(seed,)) for seed in (21, 22)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
