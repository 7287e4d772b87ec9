"""A deal's public notes are typed values, in the view and through snapshots."""

from __future__ import annotations

from engine import (
    ClaimNote,
    ClaimRejected,
    ConcedeNote,
    Game,
    RejectClaim,
    ShownRuff,
    make_rules,
    new_game,
)
from engine.claims import AgreeConcession, Claim, Concede
from engine.notes import Concession, RuffContestNote, typed_note


def _claimed(game_id: str) -> Game:
    game, _ = new_game(game_id, seed=3, first_dealer=0)
    while game.phase != "play" or game.trick_no == 1 or game.trick:  # claims open after trick 1
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])
    seat = game.to_act()
    assert seat is not None
    claim = next(a for a in game.observe(seat).claims if isinstance(a, Claim))
    game.apply(seat, claim)
    return game


def test_a_claim_is_a_typed_note_in_every_view_and_after_a_snapshot() -> None:
    game = _claimed("whist-5")
    view = game.observe(1)
    note = view.claim_note
    assert isinstance(note, ClaimNote) and note.accepted == () and len(note.hand) == 12
    assert view.note("claim") == tuple(note)  # still the tuple it always was
    again = Game.from_snapshot(game.snapshot())
    assert again.observe(1).claim_note == note and isinstance(
        again.observe(1).claim_note, ClaimNote
    )
    assert again.state_key() == game.state_key()


def test_a_rejected_claim_and_a_concession_are_typed() -> None:
    game = _claimed("whist-5")
    claimer = game.observe(0).claim_note
    assert claimer is not None
    opponent = next(s for s in range(4) if game.side_of[s] != game.side_of[claimer.seat])
    game.apply(opponent, RejectClaim())
    rejected = game.observe(2).claim_rejected
    assert isinstance(rejected, ClaimRejected) and rejected.seat == claimer.seat
    assert game.observe(2).claim_note is None
    seat = game.to_act()
    assert seat is not None
    game.apply(seat, Concede())
    concession = game.observe(0).concede_note
    assert (
        isinstance(concession, ConcedeNote)
        and concession.seat == seat
        and concession.resume == "play"
    )
    assert Game.from_snapshot(game.snapshot()).observe(0).concede_note == concession
    partner = game.to_act()
    assert partner is not None
    game.apply(partner, AgreeConcession())
    conceded = game.observe(1).conceded  # who gave the game up, kept once it is over
    assert isinstance(conceded, Concession) and conceded == (seat, game.side_of[seat])
    assert Game.from_snapshot(game.snapshot()).observe(1).conceded == conceded


def test_old_snapshots_notes_read_back_typed() -> None:
    # the JSON a snapshot has always stored: lists, cards as {"card": code}
    assert typed_note("claim", (0, 3, (1,), ())) == ClaimNote(0, 3, (1,), ())
    assert typed_note("concede", (0, 2, "play")) == ConcedeNote(0, 2, "play")
    assert typed_note("conceded", (1, 1)) == Concession(1, 1)
    assert typed_note("ruff_shown", ((1, "H", (), 40, True),)) == (ShownRuff(1, "H", (), 40, True),)
    assert typed_note("someone_elses", (1, 2)) == (1, 2)


def test_the_ruff_contest_is_one_typed_value() -> None:
    game, _ = new_game(rules=make_rules("ruff-trump-willughby"), seed=21)
    assert game.observe(0).ruff_contest is None or isinstance(
        game.observe(0).ruff_contest, RuffContestNote
    )
    while game.observe(0).ruff_contest is None or game.observe(0).ruff_contest.points is None:  # type: ignore[union-attr]
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])
    contest = game.observe(0).ruff_contest
    assert contest is not None and contest.winners is not None and contest.points is not None
    assert len(contest.points) == game.facts.sides
