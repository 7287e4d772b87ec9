"""Events behave as immutable values: equality, hashing, repr, pickling, matching."""

from __future__ import annotations

import copy
import pickle

import pytest

import engine.events as ev
from engine import Card, Event, Suit

C = Card.parse


def every_event() -> list[Event]:
    return [
        ev.DealerChosen(2, "draw_high", ((0, C("5S")), (1, C("KH")))),
        ev.DealerChosen(1, "random"),
        ev.GameStarted(1),
        ev.DealStarted(1, 2, 3, 0),
        ev.HandDealt(1, (C("AS"), C("10H"))),
        ev.TrumpFixed(Suit.HEARTS, C("7H"), None),
        ev.TrumpFixed(None, None, None),
        ev.RuffTaken(1, "holds_ace"),
        ev.StockTaken(1, (C("7H"), C("2C"))),
        ev.RuffDeclined(1),
        ev.Discarded(1, C("2C"), 3),
        ev.DiscardsDone(1),
        ev.CanYeCalled(0, 2, True, (C("AH"), C("JH"))),
        ev.HonoursShown(0, (C("AH"), C("KH"), C("QH"))),
        ev.Passed(3),
        ev.CardPlayed(0, C("QS"), 1),
        ev.TrickWon(1, 0, (C("QS"), C("JS"), C("AS"), C("2S")), 2, 0, (1, 0)),
        ev.Revoked(1, 4),
        ev.HonoursScored((3, 1), (2, 0), ""),
        ev.DealScored(1, 1, (8, 4), (2, 0), (2, 0), (0, 0), (7, 5)),
        ev.GameOver(1, 0, (9, 4), "can_ye", (1, 0)),
        ev.MatchOver(0, (1, 0), (1, 0)),
    ]


@pytest.mark.parametrize("event", every_event(), ids=lambda e: type(e).__name__)
def test_value_semantics(event: Event) -> None:
    cls = type(event)
    fields = cls.field_names()
    values = event.field_values()
    assert len(fields) == len(values) and fields == cls.__match_args__
    same = cls(*values)
    by_name = cls(**dict(zip(fields, values, strict=True)))
    assert same == event == by_name
    assert (same != event) is False  # __ne__ is defined separately from __eq__
    assert hash(same) == hash(event)
    assert event != values and values != event  # never equal to a plain tuple
    assert repr(event).startswith(f"{cls.__name__}(") and f"{fields[0]}=" in repr(event)
    assert pickle.loads(pickle.dumps(event)) == event
    assert copy.copy(event) is event and copy.deepcopy(event) is event
    assert event  # truthy, as a dataclass instance would be
    with pytest.raises(AttributeError):
        setattr(event, fields[0], values[0])
    with pytest.raises(AttributeError):
        event.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        _ = event < event  # type: ignore[operator]
    as_dict = event.to_dict()
    assert as_dict["kind"] == cls.kind and list(as_dict)[1:] == list(fields)


def test_kinds_and_audience() -> None:
    events = every_event()
    kinds = {type(e).kind for e in events}
    assert len(kinds) == len({type(e) for e in events})
    private = {type(e).__name__ for e in events if e.audience is not None}
    assert private == {"HandDealt", "StockTaken", "Discarded"}
    assert ev.HandDealt(3, ()).audience == 3


def test_different_kinds_never_equal() -> None:
    assert ev.Passed(1) != ev.RuffDeclined(1) and ev.Passed(1) != ev.DiscardsDone(1)
    assert len({ev.Passed(1), ev.RuffDeclined(1), ev.DiscardsDone(1)}) == 3


def test_to_dict_is_plain_json() -> None:
    assert ev.TrickWon(1, 0, (C("QS"), C("10S")), 1, 1, (0, 1)).to_dict() == {
        "kind": "trick_won",
        "trick_no": 1,
        "leader": 0,
        "cards": ["QS", "10S"],
        "winner": 1,
        "side": 1,
        "tricks": [0, 1],
    }
    assert ev.TrumpFixed(Suit.CLUBS, None, None).to_dict()["trump"] == "C"


def test_pattern_matching() -> None:
    match ev.CardPlayed(2, C("KH"), 5):
        case ev.CardPlayed(seat, card, trick_no=5):
            assert (seat, card) == (2, C("KH"))
        case _:  # pragma: no cover
            raise AssertionError


def test_construction_errors() -> None:
    with pytest.raises(TypeError):
        ev.CardPlayed(1, C("KH"))  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        ev.CardPlayed(1, C("KH"), 2, 3)  # type: ignore[call-arg]
    assert ev.DealerChosen(0, "chosen").draws == ()
