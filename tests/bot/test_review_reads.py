"""A deal's review reads like a chess site's game report: a headline with the
verdict and the side's tricks "of 13", at most three mistakes spelled out in plain
words, the rest counted in one line; the figures (margins, every hand known, how
they are made) only in :func:`review_details`. Plurals right in English and German."""

from __future__ import annotations

from typing import Any

from bot.present.i18n import using
from bot.present.render.review import FLAGGED_SHOWN, review_details, review_text


def _decision(trick: int, played: str, best: str, cost: float, flagged: bool) -> dict[str, Any]:
    return {
        "kind": "card",
        "trick": trick,
        "played": played,
        "best": best,
        "cost": cost,
        "error": 0.23,
        "flagged": flagged,
        "dd_cost": cost + 0.2,
        "unit": "tricks",
    }


def sample(result: float = 5, flagged: int = 2, inaccurate: int = 1, fine: int = 5) -> Any:
    """A Long Whist deal's review body (``DealReview.to_json``'s shape)."""
    decisions = [_decision(1 + i, "9S", "KS", 1.8 - 0.3 * i, True) for i in range(flagged)]
    decisions += [_decision(6 + i, "2H", "5H", 0.4, False) for i in range(inaccurate)]
    decisions += [_decision(9 + i % 5, "3C", "3C", 0.0, False) for i in range(fine)]
    return {
        "unit": "tricks",
        "result_unit": "tricks",
        "result": result,
        "deal": 1,
        "game_id": "whist-long",
        "decisions": decisions,
        "par": 6.0,
        "average": 5.2,
    }


def test_the_headline_gives_the_verdict_and_the_tricks_of_the_deal() -> None:
    text = review_text(sample(), 1, "North", show_double_dummy=True)
    lines = text.splitlines()
    assert lines[1] == "2 mistakes, 1 inaccuracy — your side took 5 tricks of 13.", text
    assert [line for line in lines if line.startswith("⚠️ ")] == [
        "⚠️ Trick 1: you played 9♠︎, K♠︎ was best — it cost about 2 tricks.",
        "⚠️ Trick 2: you played 9♠︎, K♠︎ was best — it cost about 2 tricks.",
    ], text
    assert "Your other 6 decisions: 1 inaccuracy; 5 as good as you could know." in lines, text


def test_no_wall_of_numbers_in_the_review_itself() -> None:
    text = review_text(sample(flagged=8), 1, "North", show_double_dummy=True)
    assert sum(line.startswith("⚠️ ") for line in text.splitlines()) == FLAGGED_SHOWN
    assert "8 mistakes, 1 inaccuracy" in text
    assert "5 more mistakes, 1 inaccuracy" in text, text
    for figure in ("±", "all hands known", "Single dummy", "**Summary:**"):
        assert figure not in text, (figure, text)
    assert len(text.splitlines()) <= 7, text
    details = review_details(sample(flagged=8), show_double_dummy=True)
    assert "± 0.23" in details and "all hands known" in details and "Single dummy" in details


def test_singulars_and_a_clean_deal() -> None:
    text = review_text(
        sample(result=1, flagged=0, inaccurate=0, fine=1), 1, "North", show_double_dummy=True
    )
    assert "No mistakes — your side took 1 trick of 13." in text, text
    assert "Your one decision was as good as you could know." in text, text
    assert "puzzle" not in text  # no mistake, no puzzle
    one = review_text(sample(flagged=1, inaccurate=0, fine=1), 1, "North", True)
    assert "1 mistake — your side took 5 tricks of 13." in one, one
    assert "Your other decision was as good as you could know." in one, one


def test_german_plurals() -> None:
    with using("de"):
        text = review_text(sample(result=1), 1, "Nord", show_double_dummy=True)
        one = review_text(sample(flagged=1, inaccurate=0, fine=0), 1, "Nord", True)
    assert "2 Fehler, 1 Ungenauigkeit — deine Seite hat 1 Stich von 13 gemacht." in text, text
    assert "1 Fehler — deine Seite hat 5 Stiche von 13 gemacht." in one, one
