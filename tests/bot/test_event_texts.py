"""The events' words stay within Discord's 2000 characters a message for a field of
300: the registration message names the first players and counts the rest, and
the seating, standings and reminder are cut into pieces at line ends."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from bot.features.events import text
from bot.present.i18n import using
from bot.store import EventEntry, EventRow, EventTable
from bot.tables.events import Line, StandingsView

EVENT = EventRow(
    1, 1, 2, 3, "whist-5", "default", "individual", 2, 3, 8.0, 0.0, "registering", 0, None, 1, 0.0
)
FIELD = [EventEntry(1, i, f"player{i:03d}", None, i % 2 == 0, 1, None, 0.0) for i in range(300)]


def test_a_large_field_fits_in_messages() -> None:
    registration = text.registration(EVENT, FIELD)
    assert len(registration) <= 2000
    assert "Registered (300): player000 ✅, player001," in registration
    assert "more" in registration
    names = {e.user_id: e.name for e in FIELD}
    tables = [
        EventTable(1, 1, n, (4 * n - 4, 4 * n - 3, 4 * n - 2, 4 * n - 1), frozenset(), 0)
        for n in range(1, 76)
    ]
    seating = text.round_begun(EVENT, 1, tables, names)
    view = StandingsView(
        EVENT,
        1,
        tuple(
            Line(str(i + 1), e.name, Fraction(50), None, Fraction(1), (e.user_id,))
            for i, e in enumerate(FIELD)
        ),
        False,
    )
    reminder = text.reminder(EVENT, [e.user_id for e in FIELD])
    for long in (seating, text.standings(view), reminder):
        parts = text.pieces(long)
        assert len(parts) > 1 and all(len(p) <= 1900 for p in parts)
        assert "\n".join(parts) == long  # nothing lost, cut only at line ends


def test_an_unranked_line_says_why_it_has_no_rank() -> None:
    """A no-show's line reads ``-``: the standings say what that means (seen at 400 px:
    a ``-`` with no word on it)."""
    line = Line
    ranked = line("1", "ann", Fraction(75), None, Fraction(1), (1,))
    unranked = line("-", "fay", Fraction(50), None, Fraction(0), (2,))
    shown = text.standings(StandingsView(EVENT, 1, (ranked, unranked), False))
    assert "`-` unranked: played fewer than 50% of their boards (the AI played the rest)." in (
        shown
    )
    assert "unranked" not in text.standings(StandingsView(EVENT, 1, (ranked,), False))


def test_a_one_board_round_says_board_not_boards_1_1_and_who_waits_is_told_how_to_play() -> None:
    one = replace(EVENT, boards_per_round=1, state="running", round=2)
    table = EventTable(1, 2, 1, (1, 2, 3, 4), frozenset(), 0)
    names = {u: f"p{u}" for u in (1, 2, 3, 4, 5)}
    post = text.table_post(one, table, names)
    assert "Board 2, played here; your hand comes by DM." in post.splitlines(), post
    seating = text.round_begun(one, 2, [table], names).splitlines()
    assert seating[0] == "**Round 2 of 3** · board 2"
    assert seating[-2:] == [
        "Not seated this round: p5",
        "**Check in** on the event's message to play from the next round.",
    ]
    last = text.round_begun(one, 3, [table], names).splitlines()  # no next round to play
    assert last[-1] == "Not seated this round: p5", last


def test_the_registration_message_s_second_line_starts_with_a_capital() -> None:
    """At 400 px the format starts a line of its own ("pairs, barometer · 2 rounds" read
    as a sentence begun in lower case)."""
    for fmt, shown in (("individual", "Individual, barometer"), ("pairs", "Pairs, barometer")):
        second = text.registration(replace(EVENT, format=fmt), FIELD[:4]).splitlines()[1]
        assert second.startswith(f"{shown} · 3 rounds × 2 boards"), second


def test_a_percentage_keeps_its_sign_on_its_line_in_german() -> None:
    """German spaces the sign ("100,0 %"): seen at 400 px, a traveller's line wrapped
    before the "%" and left it alone on the next line."""
    with using("de"):
        assert text.percent_text(Fraction(100)) == "100,0\u00a0%"
    assert text.percent_text(Fraction(100)) == "100.0%"
    line = Line("1", "ann & bob", Fraction(50), Fraction(1), Fraction(1), (1, 2))
    with using("de"):
        shown = text.standings(StandingsView(EVENT, 1, (line,), False)).splitlines()[1]
    assert shown.endswith("50,0\u00a0% · 100\u00a0% gespielt"), shown
