"""The tricks left at an accepted claim: the same true count in the claim menu, the
record's JSON export, the PBN commentary and ``/ruff replay``, in every family whose
deal has cards that are not (or not yet) playable: Turnover Bridge's face-down and
freshly turned-up layout cards, Bid Whist's kitty, Ruffe and Trump's head (2, 3 and
4 players), Ruff and Honours' stock, Solo Whist.

The truth is counted here from the cards, independently of the engine's
``remaining_tricks``: every card still to be played (the trick in progress, the
hands, the whole layouts) divided by the players."""

from __future__ import annotations

import random

import pytest

from bot.present import replay
from bot.present.render.claims import claim_lines
from bot.present.render.common import SeatInfo, TableInfo
from engine import Claim, Game, dumps_json, game_log, load_json, new_game, to_json, to_pbn
from engine.claims import AcceptClaim, ClaimSettled, answering

LETTERS = "NESW"

# (game id, preset, overrides, where the claim is made: at the start of a trick or in it)
CASES = [
    ("turnover-bridge", "seed004", {}, "start"),
    ("turnover-bridge", "seed004", {}, "mid"),
    ("turnover-bridge", "pagat", {}, "start"),
    ("turnover-bridge", "pagat", {}, "mid"),
    ("bid-whist", None, {}, "start"),
    ("bid-whist", None, {}, "mid"),
    ("ruff-trump-willughby", None, {"players": 2}, "mid"),
    ("ruff-trump-willughby", None, {"players": 3}, "start"),
    ("ruff-trump-willughby", None, {"players": 4}, "mid"),
    ("solo-whist", None, {}, "start"),
    ("ruff-honours-cotton", None, {}, "mid"),
]


def true_tricks_left(game: Game) -> int:
    """Every card still to be played, face-down layout cards included, over the players."""
    cards = len(game.trick) + sum(len(game.hand(s)) for s in range(game.n_players))
    if game.layout is not None:
        cards += sum(game.layout.cards_left(s) for s in range(game.n_players))
    left, odd = divmod(cards, game.n_players)
    assert odd == 0
    return left


def reach(game_id: str, preset: str | None, overrides: dict[str, object], where: str) -> Game:
    """A game played at random into its first played deal until two tricks are complete
    and the player to play may claim (with a card already in the trick for ``mid``; in
    Turnover Bridge one turned up by a layout card played to it)."""
    for seed in range(60):
        game, _ = new_game(game_id, preset, overrides, seed=seed)
        rng = random.Random(seed)
        deal = game.deal_no
        while not game.is_over and game.deal_no == deal:
            seat = game.to_act()
            assert seat is not None
            if game.phase == "play" and game.trick_no == 3:
                in_trick = bool(game.trick) if where == "mid" else not game.trick
                fresh = game.layout is None or where == "start" or any(game.layout.fresh)
                if (
                    in_trick
                    and fresh
                    and any(isinstance(a, Claim) for a in game.observe(seat).claims)
                ):
                    return game
            if game.trick_no > 3:
                break
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError("no seed reached the claim")


def claim_and_accept(game: Game) -> tuple[int, int, int]:
    """The player to play claims the most he may; every opponent accepts. Returns
    (claimer, tricks claimed, tricks left by the settled claim)."""
    claimer = game.to_act()
    assert claimer is not None
    view = game.observe(claimer)
    claimed = max(a.tricks for a in view.claims if isinstance(a, Claim))
    settled: list[ClaimSettled] = []
    game.apply(claimer, Claim(claimed))
    while game.phase == "claim":
        events = game.apply(answering(game)[0], AcceptClaim())
        settled += [e for e in events if isinstance(e, ClaimSettled)]
    assert len(settled) == 1 and settled[0].accepted
    assert len(settled[0].unplayed) == settled[0].left * game.n_players  # every card not played
    return claimer, claimed, settled[0].left


@pytest.mark.parametrize(("game_id", "preset", "overrides", "where"), CASES)
def test_a_claim_records_the_true_tricks_left_in_json_pbn_and_replay(
    game_id: str, preset: str | None, overrides: dict[str, object], where: str
) -> None:
    game = reach(game_id, preset, overrides, where)
    want = true_tricks_left(game)
    assert want == game.facts.tricks_per_deal - 2  # two tricks complete, the third one open
    claimer = game.to_act()
    assert claimer is not None
    view = game.observe(claimer)
    assert view.tricks_left == want
    # the claim menu offers at most the true number (all of them where each plays for himself)
    assert max(a.tricks for a in view.claims if isinstance(a, Claim)) == want

    claimer, claimed, left = claim_and_accept(game)
    assert left == want
    names = [f"P{s}" for s in range(game.n_players)]
    log = game_log(game.to_record())
    claimed_deals = [d for d in log.deals if d.claim is not None]
    assert len(claimed_deals) == 1
    deal = claimed_deals[0]
    assert deal.claim == (claimer, claimed, want)

    data = to_json(game, names)
    assert [d["claim"] for d in data["deals"] if "claim" in d] == [
        {"seat": claimer, "claimed": claimed, "left": want}
    ]

    pbn = to_pbn(game, names)
    comment = f"{{{LETTERS[claimer]} claimed {claimed} of the last {want} tricks; accepted}}"
    assert pbn.count(comment) == 1 and f"{comment}\n*" in pbn

    steps = [i for i, (d, _) in enumerate(log.tricks) if d is deal]
    assert len(steps) == 2
    text = replay.step_text(5, game.rules.title, names, log, steps[-1])
    assert f"({names[claimer]}) claimed {claimed} of the last {want} tricks (accepted)" in text


def test_the_reported_turnover_claim_records_24_tricks_left() -> None:
    game, _ = new_game("turnover-bridge", "seed004", seed=1)
    while game.phase != "play" or game.trick_no < 3:
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])
    claimer = game.to_act()
    assert claimer is not None
    assert (
        Claim(24) in game.observe(claimer).claims and Claim(25) not in game.observe(claimer).claims
    )
    game.apply(claimer, Claim(24))
    game.apply(answering(game)[0], AcceptClaim())
    data = to_json(game, ["a", "b"])
    assert data["deals"][0]["claim"] == {"seat": claimer, "claimed": 24, "left": 24}
    assert f"{{{LETTERS[claimer]} claimed 24 of the last 24 tricks; accepted}}" in to_pbn(
        game, ["a", "b"]
    )


def test_an_old_export_with_a_wrong_left_loads_and_is_exported_again_with_the_true_one() -> None:
    # the export's ``deals`` are derived from the record and never read back: an export
    # written before the fix (left counted from the playable cards only) loads, and
    # every new export, PBN and replay of it recomputes the tricks left from the actions
    game = reach("turnover-bridge", "seed004", {}, "mid")
    want = true_tricks_left(game)
    claimer, claimed, _ = claim_and_accept(game)
    old = to_json(game, ["a", "b"])
    for deal in old["deals"]:
        if "claim" in deal:
            deal["claim"]["left"] = 16  # what the old code wrote
    again, names, _ = load_json(dumps_json(old))
    assert again.state_key() == game.state_key()
    fresh = to_json(again, names)
    assert [d["claim"]["left"] for d in fresh["deals"] if "claim" in d] == [want]
    assert f"claimed {claimed} of the last {want} tricks; accepted" in to_pbn(again, names)


def test_the_waiting_claim_names_the_true_tricks_left() -> None:
    game = reach("turnover-bridge", "pagat", {}, "mid")
    want = true_tricks_left(game)
    claimer = game.to_act()
    assert claimer is not None
    game.apply(claimer, Claim(want - 1))
    info = TableInfo(1, game.rules, (SeatInfo("Ann", 1), SeatInfo("Bob", 2)))
    text = "\n".join(claim_lines(info, game.observe(1 - claimer)))
    assert f"{want - 1} of the {want} remaining tricks" in text


def test_a_claim_before_any_trick_is_complete_is_in_the_pbn_commentary() -> None:
    """No longer offered (nothing is known yet), but games recorded when it was hold
    such claims: they replay, and the PBN says so."""
    for seed in range(60):
        game, _ = new_game("bid-whist", seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.phase != "play":
            seat = game.to_act()
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        if game.phase == "play" and game.trick_no == 1 and not game.trick:
            break
    else:
        raise AssertionError("no seed reached the play")
    claimer = game.to_act()
    assert claimer is not None
    assert not any(isinstance(a, Claim) for a in game.observe(claimer).claims)  # not offered now
    claimed, left = 12, 0
    game.apply(claimer, Claim(claimed))  # as an older record holds it
    while game.phase == "claim":
        settled = [
            e for e in game.apply(answering(game)[0], AcceptClaim()) if isinstance(e, ClaimSettled)
        ]
        left = settled[0].left if settled else left
    assert left == game.facts.tricks_per_deal == 12
    assert Game.from_record(game.to_record()).to_record() == game.to_record()  # it replays
    deal = next(d for d in game_log(game.to_record()).deals if d.claim is not None)
    assert not deal.played
    pbn = to_pbn(game, ["a", "b", "c", "d"])
    assert f"{{{LETTERS[claimer]} claimed {claimed} of the last 12 tricks; accepted}}" in pbn
