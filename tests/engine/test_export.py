"""Hand records (engine/export.py): JSON round trips for every game id, the deal log
against the golden transcripts, and PBN text checked by hand against known deals."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import Game, RecordError, game_ids, make_rules, new_game, play
from engine.actions import Discard, TakeRuff
from engine.cards import cards_from_mask
from engine.export import dumps_json, game_log, load_json, pbn_hand, to_json, to_pbn
from engine.game import stacked_deck

from .helpers import E, N, S, W, cards

GOLDEN_DIR = Path(__file__).parent / "golden"
RECORDS_V1 = Path(__file__).parent / "fixtures" / "records_v1"

# every game id, and the variants whose deals differ in shape (players, hand size, layouts)
VARIANTS: list[tuple[str, str | None, dict[str, object]]] = [(g, None, {}) for g in game_ids()] + [
    ("ruff-trump-willughby", None, {"players": 3}),
    ("ruff-trump-willughby", None, {"players": 3, "hand_size": 16}),
    ("ruff-trump-willughby", None, {"players": 2, "hand_size": 24}),
    ("ruff-trump-willughby", None, {"mode": "single_hand"}),
    ("turnover-bridge", "pagat", {}),
    ("ruff-honours-cotton", None, {"ruff_mandatory": True}),
    ("ruff-honours-cotton", None, {"revoke_mode": "penalty"}),
]


def random_game(game_id: str, preset: str | None, overrides: dict[str, object], seed: int) -> Game:
    game, _ = new_game(game_id, preset, overrides, seed=seed)
    rng = random.Random(seed)
    for _ in range(20_000):
        seat = game.to_act()
        if seat is None:
            break
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert game.is_over
    return game


def names_for(game: Game) -> list[str]:
    return ["Ann", 'Bé "quoted"', "Cy", "Di"][: game.n_players]


def check_log(game: Game) -> None:
    """The deal log agrees with the game: every card of a trick was in its seat's hand
    when play began, each deal's tricks add up, the last deal's scores are the game's."""
    log = game_log(game.to_record())
    assert log.game.state_key() == game.state_key()
    assert len(log.deals) == game.deals_total
    for deal in log.deals:
        assert len(deal.hands) == game.n_players
        dealt = [c for hand in deal.hands for c in hand] + list(deal.stock or ())
        for layout in deal.layouts:
            dealt += [c for pile in layout for c in pile]
        assert len(dealt) == len(set(dealt)) == game.rules.deck_size
        played: set[object] = set()
        for trick in deal.tricks:
            for seat, card in trick.plays:
                assert card in deal.play_hands[seat] and card not in played
                played.add(card)
        if deal.tricks:
            assert sum(deal.tricks_won) == len(deal.tricks)
    assert log.deals[-1].scores is not None


@pytest.mark.parametrize(("game_id", "preset", "overrides"), VARIANTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_game_round_trips_through_the_json_export(
    game_id: str, preset: str | None, overrides: dict[str, object], seed: int
) -> None:
    game = random_game(game_id, preset, overrides, seed)
    text = dumps_json(to_json(game, names_for(game), {"table_id": 7}))
    again, names, meta = load_json(text)
    assert again.state_key() == game.state_key()
    assert names == names_for(game) and meta == {"table_id": 7}
    # the engine record inside replays on its own too
    assert Game.from_record(json.loads(text)["record"]).state_key() == game.state_key()
    check_log(game)
    pbn = to_pbn(game, names_for(game))
    assert pbn.count("[Board ") == game.deals_total


def test_a_tampered_export_is_refused() -> None:
    game = random_game("whist-5", None, {}, 4)
    data = to_json(game, names_for(game))
    data["record"]["actions"] = data["record"]["actions"][:-1]  # the last card gone
    with pytest.raises(RecordError, match="another final state"):
        load_json(data)
    with pytest.raises(RecordError):
        load_json('{"format": "something-else"}')
    with pytest.raises(RecordError):
        load_json(json.dumps(to_json(game, names_for(game)) | {"version": 99}))


def _golden(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = (GOLDEN_DIR / name).read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


@pytest.mark.parametrize("name", sorted(p.name for p in GOLDEN_DIR.glob("*.jsonl")))
def test_the_deal_log_matches_the_golden_transcripts(name: str) -> None:
    """Replaying the golden games' actions, the log's hands and tricks are the stored events'."""
    header, entries = _golden(name)
    actions = [e["action"] for e in entries if "action" in e]
    record = {
        "format": "ruff-honours-game",
        "version": 1,
        "game_id": header["game_id"],
        "preset": header["preset"],
        "overrides": header.get("overrides", {}),
        "seed": header["seed"],
        "first_dealer": header["first_dealer"],
        "actions": actions,
    }
    log = game_log(record)
    hands = [e["cards"] for e in entries if e.get("kind") == "hand_dealt"]
    assert [[c.code for c in h] for d in log.deals for h in d.hands] == hands
    tricks = [
        (e["leader"], e["cards"], e["winner"]) for e in entries if e.get("kind") == "trick_won"
    ]
    assert [(t.leader, [c.code for _, c in t.plays], t.winner) for _, t in log.tricks] == tricks
    scores = [e["scores"] for e in entries if e.get("kind") == "deal_scored"]
    logged = [list(d.scores or ()) for d in log.deals]
    # a game won by Can-ye ends before its deal is scored: that deal's scores are the game's end
    assert logged[: len(scores)] == scores and len(logged) - len(scores) in (0, 1)
    names = ["a", "b", "c", "d"][: log.game.n_players]
    again, _, _ = load_json(dumps_json(to_json(record, names)))
    assert again.state_key() == log.game.state_key()


@pytest.mark.parametrize("path", sorted(RECORDS_V1.glob("*.json")), ids=lambda p: p.stem)
def test_old_records_export_and_load_to_their_stored_state(path: Path) -> None:
    fixture = json.loads(path.read_text(encoding="utf-8"))
    data = to_json(fixture["record"], ["a", "b", "c", "d"])
    game, _, _ = load_json(dumps_json(data))
    assert game.state_key() == Game.from_record(fixture["record"]).state_key()
    assert game.snapshot()["state"] == fixture["snapshot"]["state"] | game.snapshot()["state"]


# ----------------------------------------------------------------------------- PBN by hand

# One suit to each hand (W deals; N is eldest and leads). Whist 5-Point turns up the
# dealer's last card: stacked_deck puts the last card listed for W last, the 2 of
# clubs, so clubs are trumps. N leads the ace of spades; E and S cannot follow or
# trump, W trumps with the 2 and then leads his clubs from the top, every other
# seat discarding its lowest card: W wins all 13 tricks.
ONE_SUIT_EACH = {
    N: "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
    E: "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    S: "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    W: "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
}
RANKS_UP = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]

# Written by reading the deal above, not printed by to_pbn:
# * [Deal]: N first, then E, S, W; each hand is spades.hearts.diamonds.clubs, so a
#   hand of one suit is that suit's 13 ranks (A K Q J T 9 ... 2) in its place among
#   three empty ones.
# * [Play "N"]: columns N E S W. Trick 1 is N's ace of spades, E's 2 of hearts,
#   S's 2 of diamonds, W's 2 of clubs (the trump that wins). Tricks 2-13: W leads
#   AC, KC, ... 3C while N, E and S each play their lowest card left: 2S/3H/3D with
#   the ace, then 3S/4H/4D, ..., and at trick 13 N's king of spades, E's ace of
#   hearts, S's ace of diamonds against W's 3 of clubs.
# * [Result "0"]: no contract, so North's side's tricks: 0 (W won all 13).
# * [Scores]: 13 tricks are 7 over six, scored in full: EW 7 (the game is to 5, so
#   the game and the match end after this deal, see the commentary).
EXPECTED_PBN = """% PBN 2.1
% EXPORT
[Event "Whist 5-Point (whist-5)"]
[Site "Card Room"]
[Date "2026.11.24"]
[Board "1"]
[West "Di"]
[North "Ann"]
[East "Bé \\"quoted\\""]
[South "Cy"]
[Dealer "W"]
[Vulnerable "None"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]
[Result "0"]
[Trump "C"]
[TurnUp "C2"]
[Tricks "NS 0 EW 13"]
[Scores "NS 0 EW 7"]
{Game 1 won by EW (tricks): NS 0 EW 7.}
{Match won by EW, games NS 0 EW 1.}
[Play "N"]
SA H2 D2 C2
S2 H3 D3 CA
S3 H4 D4 CK
S4 H5 D5 CQ
S5 H6 D6 CJ
S6 H7 D7 CT
S7 H8 D8 C9
S8 H9 D9 C8
S9 HT DT C7
ST HJ DJ C6
SJ HQ DQ C5
SQ HK DK C4
SK HA DA C3
*
"""


def one_suit_each_game() -> Game:
    rules = make_rules("whist-5")
    deck = stacked_deck(rules, W, {seat: cards(text) for seat, text in ONE_SUIT_EACH.items()})
    game, _ = new_game(rules=rules, seed=1, first_dealer=W, deck=deck)
    game.apply(N, play("AS"))
    game.apply(E, play("2H"))
    game.apply(S, play("2D"))
    game.apply(W, play("2C"))
    for k, rank in enumerate(reversed(RANKS_UP[1:])):  # W leads AC, KC, ..., 3C
        low = RANKS_UP[k]
        game.apply(W, play(rank + "C"))
        game.apply(N, play(low + "S"))
        game.apply(E, play(RANKS_UP[k + 1] + "H"))
        game.apply(S, play(RANKS_UP[k + 1] + "D"))
    assert game.is_over
    return game


def test_pbn_of_a_known_deal_matches_the_hand_written_text() -> None:
    game = one_suit_each_game()
    names = ["Ann", 'Bé "quoted"', "Cy", "Di"]
    assert to_pbn(game, names, site="Card Room", date="2026.11.24") == EXPECTED_PBN


def test_pbn_stock_and_exchange_tags_of_a_ruff() -> None:
    """Cotton: 12 cards each and a 4-card stock. The stock's top card, the ace of hearts,
    is turned up for trumps, so the dealer (W) may ruff: he takes AH 2C 3C 4C in and
    lays out 2C 3C 4C 2D (chosen here)."""
    hands = {
        N: "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
        E: "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        S: "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
        W: "AC KC QC JC 10C 9C 8C 7C 6C 5C AS 2D",
    }
    stock = "AH 2C 3C 4C"
    rules = make_rules("ruff-honours-cotton")
    deck = stacked_deck(rules, W, {s: cards(t) for s, t in hands.items()}, cards(stock))
    game, _ = new_game(rules=rules, seed=1, first_dealer=W, deck=deck)
    assert game.phase == "ruff" and game.to_act() == W

    game.apply(W, TakeRuff())
    for code in ("2C", "3C", "4C", "2D"):
        game.apply(W, Discard(cards(code)[0]))
    text = to_pbn(game, ["Ann", "Bo", "Cy", "Di"])
    # read off the deal: W's 12 cards are AS, the 2 of diamonds and AC..5C
    assert '[Deal "N:KQJT98765432... .KQJT98765432.. ..AKQJT9876543. A..2.AKQJT98765"]' in text
    assert '[Dealer "W"]' in text and '[TurnUp "HA"]' in text and '[Trump "H"]' in text
    assert '[Stock "HA C2 C3 C4"]' in text
    assert '[Exchange "W took HA C2 C3 C4; laid out C2 C3 C4 D2"]' in text
    assert "{West ruffs (turned ace).}" in text
    assert "[Play " not in text  # nothing played yet


def test_pbn_hand_form() -> None:
    assert pbn_hand(cards("10S 2S AH QD JD 9C")) == "T2.A.QJ.9"
    assert pbn_hand([]) == "..."


@pytest.mark.parametrize(
    ("game_id", "overrides", "absent"),
    [
        ("turnover-bridge", {}, ("South", "West")),
        ("ruff-trump-willughby", {"players": 3}, ("West",)),
        ("ruff-trump-willughby", {"players": 2, "hand_size": 24}, ("South", "West")),
    ],
)
def test_pbn_of_fewer_than_four_players(
    game_id: str, overrides: dict[str, object], absent: tuple[str, ...]
) -> None:
    """Seats are named as the bot names them (0 North, 1 East, 2 South); a seat the table
    does not have is ``-`` in the deal and ``""`` in the player tags. The first deal's
    hands are read from the game's state after dealing, not from the export's log."""
    first, _ = new_game(game_id, None, overrides, seed=2)
    hands = [pbn_hand(list(cards_from_mask(first.dealt[s]))) for s in range(first.n_players)]
    game = random_game(game_id, None, overrides, 2)
    text = to_pbn(game, names_for(game))
    block = text.split("\n\n")[0]
    assert f'[Deal "N:{" ".join(hands + ["-"] * (4 - first.n_players))}"]' in block
    for position in absent:
        assert f'[{position} ""]' in block
    play = block.split("[Play ")[1].splitlines()[1:-1]
    assert all(len(line.split()) == first.n_players for line in play)
    if game_id == "turnover-bridge":
        assert "[Layout " in block and "[Stock " not in block
    else:
        assert "[Stock " in block and "[Exchange " in block


def test_a_deal_ended_by_a_claim_says_so_in_the_log_json_and_pbn() -> None:
    from engine.claims import AcceptClaim, Claim, answering

    from .test_claims import to_play

    game = to_play("whist-short-classic", 3, 4)
    claimer = game.to_act()
    assert claimer is not None
    played = len(game.completed)
    game.apply(claimer, Claim(3))
    while game.phase == "claim":
        game.apply(answering(game)[0], AcceptClaim())
    record = game.to_record()
    deal = game_log(record).deals[0]
    assert deal.claim == (claimer, 3, 4)
    assert len(deal.tricks) == played  # the claimed tricks were never played
    data = to_json(game, ["a", "b", "c", "d"])
    assert data["deals"][0]["claim"] == {"seat": claimer, "claimed": 3, "left": 4}
    pbn = to_pbn(game, ["a", "b", "c", "d"])
    letter = "NESW"[claimer]
    assert f"{{{letter} claimed 3 of the last 4 tricks; accepted}}\n*" in pbn
    again, _, _ = load_json(dumps_json(data))
    assert again.state_key() == game.state_key()
