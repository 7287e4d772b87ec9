"""The daily standings and the day's text as a phone shows them: ties written ``=1``
(never ``1.``, which Discord's Markdown renumbers 1, 2, 3), today's ranking only of
those who played every board (the others still playing, with their boards so far),
and no "better than X%" among fewer than five players."""

from __future__ import annotations

from fractions import Fraction

from bot.present.render.daily import BoardLine, day_text, rank_labels, standings_text
from engine import make_rules

RULES = make_rules("whist-5")
ROWS = [
    (1, "alice", 4, Fraction(60)),
    (1, "bob", 4, Fraction(60)),
    (3, "carol", 4, Fraction(50)),
    (4, "dave", 2, Fraction(45)),
]


def test_ties_share_a_rank_written_with_an_equals_sign() -> None:
    assert rank_labels([Fraction(60), Fraction(60), Fraction(50)]) == ["=1", "=1", "3"]
    text = standings_text(RULES, "week", "2026-11-28", ROWS, None, True)
    lines = text.splitlines()[1:]
    assert [line.split(" · ", 1)[0] for line in lines] == ["=1", "=1", "3", "4"], text
    assert not any(line[:1].isdigit() and line.split(" ", 1)[0].endswith(".") for line in lines)


def test_today_ranks_only_whole_days_and_lists_the_others_as_still_playing() -> None:
    text = standings_text(RULES, "today", "2026-11-28", ROWS, None, True, boards_today=4)
    # the ranked played every board: no count repeated on each line
    assert "=1 · alice — 60.0%\n" in text and "3 · carol — 50.0%\n" in text, text
    still = text.split("Still playing (boards so far):\n")[1]
    assert still.startswith("· dave — 45.0% · 2/4") and "4 · dave" not in text, text
    early = standings_text(RULES, "today", "2026-11-28", ROWS[3:], None, True, boards_today=4)
    assert "Nobody has played all of today's boards yet." in early, early


def test_a_place_is_said_only_among_five_players_or_more() -> None:
    me = (Fraction(60), Fraction(75))
    few = standings_text(RULES, "week", "2026-11-28", ROWS, me, False)
    assert "better than" not in few and "You: 60.0%" in few, few
    many = standings_text(RULES, "week", "2026-11-28", ROWS, me, True, compared=12)
    assert "better than 75.0% of the players everywhere" in many, many
    told_few = standings_text(RULES, "week", "2026-11-28", ROWS * 2, me, True, compared=4)
    assert "better than" not in told_few
    boards = [BoardLine(1, 3, 1, Fraction(60))]
    alone = day_text(RULES, "2026-11-28", boards, Fraction(60), Fraction(100), 6, True)
    assert "better than" not in alone, alone
    crowd = day_text(RULES, "2026-11-28", boards, Fraction(60), Fraction(80), 6, True, 9)
    assert "better than 80.0% of today's players everywhere" in crowd, crowd


def test_still_playing_lines_fit_a_phones_line() -> None:
    """A phone's line holds ~40 characters: a still-playing line with a short name
    fits one (it used to run to ~37 for "dave" alone, and wrap for any longer name)."""
    rows = [(1, "alice", 6, Fraction(60)), (2, "frederica", 3, Fraction(66.7))]
    text = standings_text(RULES, "today", "2026-11-28", rows, None, True, boards_today=6)
    line = text.split("Still playing (boards so far):\n")[1].splitlines()[0]
    assert line == "· frederica — 66.7% · 3/6" and len(line) <= 30, text
