"""The objective: what a deal is worth to a side, by the tricks it takes.

Card play changes only the trick count (honours held are fixed once the ruff
is over), so a seat's search maximises the expected value of
:func:`value_table` indexed by its side's final trick count: the deal's points
for the side minus the opponents' points, plus a bonus for reaching the target
(and minus one for letting the opponents reach it). Far from the target this
is "tricks over six"; near it, making the needed number of tricks matters
more than making the most.
"""

from __future__ import annotations

from engine.rules import Rules

__all__ = ["WIN_BONUS", "value_table"]

WIN_BONUS = 8.0  # a game won is worth this many points of margin


def value_table(
    rules: Rules,
    side: int,
    start_scores: tuple[int, int],
    honour_counts: tuple[int, int] | None,
) -> list[float]:
    """``table[t]``: the deal's value to ``side`` when it ends with ``t`` tricks.

    ``honour_counts`` are the honours held by side 0 and side 1 (``None`` when
    they do not score or are unknown); scoring follows RULES.md §0.1/§1.7: trick
    points are checked against the target before honours.
    """
    total = rules.tricks_per_deal
    half = total // 2
    target = rules.target_score
    table: list[float] = []
    for t in range(total + 1):
        won = (t, total - t) if side == 0 else (total - t, t)
        pts = [max(0, won[0] - half), max(0, won[1] - half)]
        scores = [start_scores[0] + pts[0], start_scores[1] + pts[1]]
        winner = -1
        simultaneous = rules.score_order == "simultaneous"
        if not simultaneous:
            for s in (0, 1):
                if scores[s] >= target:
                    winner = s
        if winner < 0 and honour_counts is not None and rules.honours:
            for s in (0, 1):
                raw = rules.honour_points(honour_counts[s])
                if not raw:
                    continue
                start = start_scores[s]
                if (
                    rules.uncalled_honours_at_call_point == "void"
                    and isinstance(rules.call_point, int)
                    and start == rules.call_point
                ):
                    continue
                if rules.honours_can_win == "not_at_target_minus_1" and start == target - 1:
                    continue
                if rules.honours_can_win == "false":
                    raw = max(0, min(raw, target - 1 - scores[s]))
                pts[s] += raw
                scores[s] += raw
            reached = [s for s in (0, 1) if scores[s] >= target]
            if len(reached) == 1:
                winner = reached[0]
            elif len(reached) == 2:
                winner = (
                    0
                    if scores[0] > scores[1]
                    else 1
                    if scores[1] > scores[0]
                    else (0 if pts[0] > pts[1] else 1)
                )
        elif winner < 0:
            reached = [s for s in (0, 1) if scores[s] >= target]
            if reached:
                winner = reached[0]
        margin = float(pts[side] - pts[1 - side])
        if winner == side:
            margin += WIN_BONUS
        elif winner == 1 - side:
            margin -= WIN_BONUS
        table.append(margin)
    return table
