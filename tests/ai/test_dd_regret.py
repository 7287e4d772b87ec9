"""tools.dd_regret: each card's double-dummy regret, from a deal's record."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from engine import DealScored, Game, new_game
from engine.actions import Play, decode_action
from engine.ai import OraclePlayer, arena_player
from engine.ai.coach.records import start_of
from engine.ai.players import Player
from engine.ai.search import dds
from engine.ai.search.bitmasks import NO_TRUMP
from tools.dd_regret import read_plays, regrets_of_play, table, tally

pytestmark = pytest.mark.skipif(not dds.available(), reason="DDS (endplay) is not installed")


def _deal(game_id: str, seed: int, players: list[Player]) -> tuple[Game, tuple[int, ...]]:
    """Play one deal of ``game_id``; the game and the tricks each side took."""
    game, _ = new_game(game_id, seed=seed, first_dealer=seed % 4)
    rng = random.Random(seed)
    while (seat := game.to_act()) is not None:
        view = game.observe(seat)
        player = players[seat]
        if isinstance(player, OraclePlayer):
            action = player.choose_seeing(game, view, view.legal, rng)
        else:
            action = player.choose(view, view.legal, rng)
        for event in game.apply(seat, action):
            if isinstance(event, DealScored):
                return game, event.tricks
    raise AssertionError("the deal did not end")


def _first_card_value(record: dict[str, object]) -> tuple[int, int]:
    """Side 0's double-dummy tricks at the deal's first card, and the deal's tricks."""
    game = start_of(record)
    actions = record["actions"]
    assert isinstance(actions, list)
    for entry in actions:
        seat_text, _, text = str(entry).partition(" ")
        seat = int(seat_text)
        if any(isinstance(a, Play) for a in game.legal_actions(seat)):
            trump = game.trump.order if game.trump is not None else NO_TRUMP
            best = dds.max_tricks(list(game.hands[:4]), game.leader, trump)
            total = game.rules.tricks_per_deal
            return (best if game.leader % 2 == 0 else total - best), total
        game.apply(seat, decode_action(text))
    raise AssertionError("no card played")


@pytest.mark.parametrize(("game_id", "seed"), [("whist-5", 3), ("ruff-honours-cotton", 9)])
def test_regrets_telescope_to_the_tricks_taken(game_id: str, seed: int) -> None:
    # a side's tricks = its double-dummy tricks at the first card - its regrets + the others'
    rules = arena_player("rules")
    game, tricks = _deal(game_id, seed, [rules] * 4)
    record = game.to_record()
    regrets = regrets_of_play(record)
    assert all(r.tricks >= 0 and 1 <= r.trick <= 13 for r in regrets)
    start, _total = _first_card_value(record)
    mine = sum(r.tricks for r in regrets if r.seat % 2 == 0)
    theirs = sum(r.tricks for r in regrets if r.seat % 2 == 1)
    assert tricks[0] == start - mine + theirs
    assert mine + theirs > 0  # the maxims do throw tricks away on these deals
    # in hard's objective a card that loses no trick loses no point, and none gains
    assert all(r.points == 0 for r in regrets if r.tricks == 0)
    assert all(r.points >= 0 for r in regrets)
    assert any(r.points > 0 for r in regrets)


def test_the_oracle_has_no_regret_and_the_level_table_counts_seat_deals() -> None:
    oracle = arena_player("oracle", budget=0.01)
    rules = arena_player("rules")
    game, _ = _deal("whist-5", 8, [oracle, rules, oracle, rules])
    play = {"seed": 8, "levels": ["oracle", "rules", "oracle", "rules"], "record": game.to_record()}
    tallies = tally([play])
    assert tallies["oracle"].per_deal == [0, 0]
    assert tallies["oracle"].points == [0.0, 0.0]
    assert len(tallies["rules"].per_deal) == 2
    lost = sum(tallies["rules"].per_deal)
    assert sum(tallies["rules"].by_trick.values()) == lost
    rows = table(tallies)
    assert rows[2].startswith("| oracle | 2 | 0.000 | 0.000 .. 0.000 | 0.000 |")
    assert rows[3].startswith(f"| rules | 2 | {lost / 2:.3f} |")


def test_read_plays_keeps_the_last_of_a_seating_and_skips_a_cut_line(tmp_path: Path) -> None:
    path = tmp_path / "plays.jsonl.gz"
    lines = [
        {"seed": 1, "levels": ["a", "b", "a", "b"], "record": {"n": 1}},
        {"seed": 1, "levels": ["b", "a", "b", "a"], "record": {"n": 2}},
        {"seed": 1, "levels": ["a", "b", "a", "b"], "record": {"n": 3}},
    ]
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for item in lines:
            fh.write(json.dumps(item) + "\n")
        fh.write('{"seed": 2, "lev')
    kept = sorted(p["record"]["n"] for p in read_plays([str(path)]))
    assert kept == [2, 3]


def test_the_arena_table_reads_each_levels_matches_where_they_are(tmp_path: Path) -> None:
    from tools.dd_regret import arena_table

    rules = arena_player("rules")
    game, _ = _deal("whist-5", 4, [rules] * 4)
    plays = tmp_path / "tools" / "arena_runs" / "plays"
    plays.mkdir(parents=True)
    # labelled as a match of hard against rules: the seats' levels are read from the play
    line = {"seed": 4, "levels": ["hard", "rules", "hard", "rules"], "record": game.to_record()}
    (plays / "whist-5-hard-vs-rules.jsonl").write_text(json.dumps(line) + "\n")
    text = "\n".join(arena_table(root=tmp_path))
    assert "#### whist-5" in text and "#### cotton1674" in text
    assert "| hard | 2 |" in text and "| rules | 2 |" in text
    assert "No plays yet." in text  # cotton1674
    assert "Plays read: hard-vs-rules 1 plays." in text


def _board(seed: int, a: str, b: str) -> list[dict[str, object]]:
    """Both seatings of one board of ``a`` against ``b``, played by the maxims throughout
    (the labels are what a play's levels say)."""
    rules = arena_player("rules")
    game, _ = _deal("whist-5", seed, [rules] * 4)
    record = game.to_record()
    return [
        {"seed": seed, "levels": [a, b, a, b], "record": record},
        {"seed": seed, "levels": [b, a, b, a], "record": record},
    ]


def test_paired_compares_two_levels_on_the_boards_both_seatings_played() -> None:
    from tools.dd_regret import goal_verdict, paired, paired_table, seat_deals_of_plays

    plays = [*_board(3, "hard", "pimc"), *_board(4, "hard", "pimc")]
    # a board with one seating only: its cards do not cancel out, it is left out
    plays.append(_board(5, "hard", "pimc")[0])
    per_play = seat_deals_of_plays(plays)
    pair = paired(plays, per_play, "hard", "pimc")
    assert pair.boards == 2
    # the same cards in both seatings: each level held every seat of the board once
    assert pair.tricks["hard"] == pair.tricks["pimc"]
    assert len(pair.tallies["hard"].per_deal) == 4 * 2
    assert pair.difference() == (0.0, 0.0)
    share, low, high = pair.reduction()
    assert share == low == high == 0.0
    rows = paired_table(pair)
    assert rows[2].startswith("| hard | 2 | 8 |") and rows[3].startswith("| pimc | 2 | 8 |")
    assert "**0%** below pimc's" in rows[-1]
    assert goal_verdict(pair).startswith("does not hold")


def test_the_arena_table_compares_hard_and_pimc_or_says_their_match_has_not_started(
    tmp_path: Path,
) -> None:
    from tools.dd_regret import arena_table

    runs = tmp_path / "runs"
    (runs / "plays").mkdir(parents=True)
    lines = _board(6, "hard", "pimc")
    (runs / "plays" / "whist-5-hard-vs-pimc.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in lines)
    )
    text = "\n".join(arena_table(root=tmp_path, runs=runs))
    whist, cotton = text.split("#### cotton1674")
    assert "| pimc | 4 |" in whist  # the pooled table's row: both seatings' pimc seats
    assert "##### hard and pimc on the same boards (whist-5)" in whist
    assert "| hard | 1 | 4 |" in whist and "| pimc | 1 | 4 |" in whist
    assert "at least 25% below pimc's" in whist
    assert "No hard-vs-pimc plays of cotton1674 yet (its match has not started)" in cotton
