"""The end-of-game score chart: every side's (or player's) score deal by deal.

Pure, like :mod:`bot.present.picture`, and drawn with the same :mod:`bot.present.drawing`
helpers. :func:`deal_history` replays a finished game's record
(``Game.to_record()``) and keeps, per deal, the scores after it and how each
side scored (tricks, honours, Can-ye or shown honours, the ruff of Ruffe
and Trump, a contract) as the engine's events say; :func:`draw_chart` draws
them: one line per side, the target as a dashed line, a marker per deal whose
shape says how the points came, a separator between the games of a match.
:func:`score_chart` does both; :func:`chart_off_loop` in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from PIL import Image, ImageDraw

from bot.present.drawing import (
    BG,
    GOLD,
    MUTED,
    PANEL,
    PANEL_EDGE,
    TEXT,
    Picture,
    drawable,
    fit,
    font,
    star,
    to_png,
)
from bot.present.i18n import N_, TextMap, _, ngettext, using
from bot.present.render import SEAT_NAMES, SIDE_SHORT, TableInfo
from bot.present.render.points import HOW_MARKS, DealPoint
from engine import (
    CanYeCalled,
    DealScored,
    DealStarted,
    Event,
    Game,
    GameOver,
    HonoursScored,
    HonoursShown,
)

__all__ = [
    "HOW_MARKS",
    "DealPoint",
    "chart_off_loop",
    "deal_history",
    "describe_chart",
    "draw_chart",
    "score_chart",
]


def deal_history(record: Mapping[str, Any]) -> tuple[DealPoint, ...]:
    """Replay a game record and collect its deals (scores and how they were won)."""
    from engine import decode_action, new_game

    game, events = new_game(
        record["game_id"],
        record.get("preset"),
        record.get("overrides") or {},
        seed=int(record["seed"]),
        first_dealer=record.get("first_dealer"),
        deck=record.get("deck"),
        start_scores=record.get("start_scores"),
        record_version=int(record["version"]),
    )
    collector = _Collector(game)
    collector.feed(events)
    for entry in record.get("actions", []):
        seat_text, _, action_text = str(entry).partition(" ")
        collector.feed(game.apply(int(seat_text), decode_action(action_text)))
    tied = game.observe(0).tied
    if tied and collector.points:  # the game ended in a tie: every tied line is highlighted
        collector.points[-1] = replace(collector.points[-1], tied=tied)
    return tuple(collector.points)


class _Collector:
    def __init__(self, game: Game) -> None:
        self.sides = len(game.scores)
        self.points: list[DealPoint] = []
        self.calls: set[int] = set()  # sides that called (Can-ye answered) or showed this deal
        self.honours: tuple[int, ...] = ()
        self.ruff: tuple[int, ...] = ()
        self.contract: tuple[int, ...] = ()
        self.side_of = game.side_of
        self.game = game
        self.deal = (1, 1)  # (game_no, deal_no) of the deal in play, from DealStarted

    def feed(self, events: Sequence[Event]) -> None:
        for ev in events:
            kind = ev.kind
            if isinstance(ev, DealStarted):
                self.deal = (ev.game_no, ev.deal_no)
            elif (isinstance(ev, CanYeCalled) and ev.answered) or isinstance(ev, HonoursShown):
                self.calls.add(self._side(ev.seat))
            elif isinstance(ev, HonoursScored):
                self.honours = ev.points
            elif kind == "ruff_contest":
                self.ruff = tuple(getattr(ev, "points", ()))
            elif kind == "contract_settled":
                self.contract = tuple(getattr(ev, "points", ()))
            elif isinstance(ev, DealScored):
                self._close(ev.game_no, ev.deal_no, ev.scores, ev.trick_points)
            elif isinstance(ev, GameOver):
                last = self.points[-1] if self.points else None
                if last is None or (last.game_no, last.deal_no) != self.deal:
                    # the game ended before the deal was scored (Can-ye, shown honours)
                    self._close(self.deal[0], self.deal[1], ev.scores, ())
                    last = self.points[-1]
                self.points[-1] = DealPoint(
                    last.game_no, last.deal_no, last.scores, last.how, ev.winner, ev.how
                )

    def _side(self, seat: int) -> int:
        sides = self.game.side_of
        return sides[seat] if seat < len(sides) and len(self.game.scores) != len(sides) else seat

    def _close(
        self, game_no: int, deal_no: int, scores: Sequence[int], trick_points: Sequence[int]
    ) -> None:
        prev = (
            self.points[-1].scores
            if self.points and self.points[-1].game_no == game_no
            else (0,) * len(scores)
        )
        how: list[str] = []
        for side in range(len(scores)):
            gained = scores[side] > (prev[side] if side < len(prev) else 0)
            mark = ""
            if gained or side in self.calls:
                if side < len(trick_points) and trick_points[side] > 0:
                    mark = "tricks"
                if side < len(self.honours) and self.honours[side] > 0:
                    mark = "honours"
                if side in self.calls:
                    mark = "call"
                if side < len(self.ruff) and self.ruff[side] > 0:
                    mark = "ruff"
                if side < len(self.contract) and self.contract[side] > 0:
                    mark = "contract"
                if not mark:
                    mark = "tricks"
            how.append(mark)
        if self.points and (self.points[-1].game_no, self.points[-1].deal_no) == (game_no, deal_no):
            self.points.pop()  # the same deal ended the game: keep one point for it
        self.points.append(DealPoint(game_no, deal_no, tuple(scores), tuple(how)))
        self.calls = set()
        self.honours = self.ruff = self.contract = ()


# ------------------------------------------------------------------ drawing

SERIES: Final = ((96, 160, 255), (255, 112, 96), (110, 210, 130), (240, 180, 70))
WIDTH: Final = 720
HEIGHT: Final = 420


def _labels(info: TableInfo, n_series: int, n_seats: int) -> list[str]:
    names = [
        (info.seats[s].name if s < len(info.seats) and info.seats[s] else _("empty"))  # type: ignore[union-attr]
        for s in range(n_seats)
    ]
    if n_series == n_seats:
        return [f"{SEAT_NAMES[s]} ({names[s]})" for s in range(n_seats)]
    if n_series == 2 and n_seats == 4:
        return [
            f"{SIDE_SHORT[0]} ({names[0]} & {names[2]})",
            f"{SIDE_SHORT[1]} ({names[1]} & {names[3]})",
        ]
    return [_("Side {number}").format(number=i + 1) for i in range(n_series)]


def _marker(
    d: ImageDraw.ImageDraw, how: str, x: float, y: float, colour: tuple[int, int, int]
) -> None:
    r = 6
    if how == "honours":
        d.polygon(
            [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)],
            fill=colour,
            outline=BG,
        )
    elif how == "call":
        star(d, x, y, r + 3, GOLD)
    elif how == "ruff":
        d.polygon([(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)], fill=colour, outline=BG)
    elif how == "contract":
        d.rectangle([x - r, y - r, x + r, y + r], fill=colour, outline=BG)
    elif how == "tricks":
        d.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=BG)
    else:
        d.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colour)


def draw_chart(info: TableInfo, points: Sequence[DealPoint], n_seats: int | None = None) -> Picture:
    """Draw the score chart of ``points`` (from :func:`deal_history`), its words in the
    table's language (``info.language``: it may be drawn in the painter's process)."""
    with using(info.language):
        return _draw_chart(info, points, n_seats)


def _draw_chart(
    info: TableInfo, points: Sequence[DealPoint], n_seats: int | None = None
) -> Picture:
    rules = info.rules
    seats = n_seats or rules.players
    n_series = len(points[0].scores) if points else 2
    labels = _labels(info, n_series, seats)
    im = Image.new("RGB", (WIDTH, HEIGHT), BG)
    d = ImageDraw.Draw(im)
    d.text(
        (14, 10),
        fit(_("{title} — score by deal").format(title=rules.title), font(20, bold=True), 560),
        font=font(20, bold=True),
        fill=TEXT,
    )
    d.text(
        (WIDTH - 14, 14),
        _("Table #{table}").format(table=info.table_id),
        font=font(13),
        fill=MUTED,
        anchor="ra",
    )

    left, top, right, bottom = 56, 52, WIDTH - 200, HEIGHT - 70
    d.rounded_rectangle(
        [left - 8, top - 8, right + 8, bottom + 8], radius=8, fill=PANEL, outline=PANEL_EDGE
    )
    target = max(0, rules.target_score)
    values = [v for p in points for v in p.scores] + [0, target]
    lo, hi = min(values), max(values)
    hi += max(1, round((hi - lo) * 0.1))  # headroom above the target and the top score
    span = hi - lo

    def ypos(v: float) -> float:
        return bottom - (v - lo) / span * (bottom - top)

    # one x slot per deal, plus a start (0-0) slot per game
    slots: list[tuple[int, DealPoint | None]] = []
    for p in points:
        if not slots or (slots[-1][1] is not None and slots[-1][1].game_no != p.game_no):
            slots.append((p.game_no, None))
        slots.append((p.game_no, p))
    count = max(1, len(slots) - 1)

    def xpos(i: int) -> float:
        return left + i * (right - left) / count

    # grid and axis labels
    step = max(1, round(span / 6))
    tick: float = (lo // step) * step
    small = font(11)
    while tick <= hi:
        y = ypos(tick)
        d.line([(left, y), (right, y)], fill=PANEL_EDGE, width=1)
        d.text((left - 12, y), str(tick), font=small, fill=MUTED, anchor="rm")
        tick += step
    if target:
        y = ypos(target)
        for dash in range(left, right, 12):
            d.line([(dash, y), (min(dash + 6, right), y)], fill=GOLD, width=2)
        d.text(
            (right - 2, y - 3),
            _("target {target}").format(target=target),
            font=small,
            fill=GOLD,
            anchor="rb",
        )
    every = max(1, len(slots) // 16)
    for i, (game_no, slot) in enumerate(slots):
        x = xpos(i)
        if slot is None:
            if i:
                d.line([(x, top - 6), (x, bottom + 6)], fill=MUTED, width=1)
            if len(points) and points[-1].game_no > 1:
                d.text(
                    (x + 4, bottom - 16),
                    _("Game {game}").format(game=game_no),
                    font=small,
                    fill=MUTED,
                )
        elif i % every == 0 or i == len(slots) - 1:
            d.text((x, bottom + 12), str(slot.deal_no), font=small, fill=MUTED, anchor="ma")
    d.text(((left + right) / 2, bottom + 28), "deal", font=small, fill=MUTED, anchor="ma")

    # the lines, then the markers on top
    for side in range(n_series):
        colour = SERIES[side % len(SERIES)]
        prev: tuple[float, float] | None = None
        for i, (_point, slot) in enumerate(slots):
            y = ypos(0 if slot is None else slot.scores[side])
            if slot is None:
                prev = (xpos(i), y)
                continue
            if prev is not None:
                d.line([prev, (xpos(i), y)], fill=colour, width=3)
            prev = (xpos(i), y)
    for side in range(n_series):
        colour = SERIES[side % len(SERIES)]
        for i, (_point, slot) in enumerate(slots):
            if slot is None:
                continue
            x, y = xpos(i), ypos(slot.scores[side])
            _marker(d, slot.how[side] if side < len(slot.how) else "", x, y, colour)
            if side in slot.tied or (not slot.tied and slot.game_winner == side):
                d.ellipse([x - 11, y - 11, x + 11, y + 11], outline=GOLD, width=2)

    # legend: sides, then markers
    lx, ly = right + 22, top
    label_font = font(13, bold=True)
    final = points[-1].scores if points else ()
    for side, label in enumerate(labels):
        colour = SERIES[side % len(SERIES)]
        d.rectangle([lx, ly + 4, lx + 14, ly + 14], fill=colour)
        shown = fit(
            drawable(label, label_font) or _("Side {number}").format(number=side + 1),
            label_font,
            150,
        )
        d.text((lx + 20, ly + 1), shown, font=label_font, fill=TEXT)
        if side < len(final):
            d.text(
                (lx + 20, ly + 18),
                _("final {score}").format(score=final[side]),
                font=small,
                fill=MUTED,
            )
        ly += 40
    ly += 6
    for how, words in (
        ("tricks", _("tricks")),
        ("honours", _("honours")),
        ("call", _("Can-ye / shown")),
        ("ruff", _("the ruff")),
        ("contract", _("contract")),
    ):
        if not any(how in p.how for p in points) and how != "tricks":
            continue
        _marker(d, how, lx + 7, ly + 8, TEXT)
        d.text((lx + 20, ly + 1), words, font=small, fill=TEXT)
        ly += 20
    if any(p.game_winner is not None for p in points):
        d.ellipse([lx, ly + 1, lx + 14, ly + 15], outline=GOLD, width=2)
        won = _("shared first place") if points and points[-1].tied else _("won the game")
        d.text((lx + 20, ly + 1), won, font=small, fill=TEXT)

    description = describe_chart(rules.title, labels, points, target)
    return Picture(to_png(im), description, tuple(points), WIDTH, HEIGHT, filename="score.png")


# i18n: how a side scored in a deal, in the chart's alt text
_HOW_WORDS = TextMap(
    {
        "tricks": N_("tricks"),
        "honours": N_("honours"),
        "call": N_("call"),
        "ruff": N_("ruff"),
        "contract": N_("contract"),
    }
)


def describe_chart(
    title: str, labels: Sequence[str], points: Sequence[DealPoint], target: int
) -> str:
    """The chart's alt text: the scores deal by deal and who won."""
    parts = [
        ngettext(
            "{title} score chart, {n} deal", "{title} score chart, {n} deals", len(points)
        ).format(title=title, n=len(points))
        + (_(", target {target}").format(target=target) if target else "")
        + "."
    ]
    for p in points[:40]:
        scores = ", ".join(f"{labels[i].split(' (')[0]} {v}" for i, v in enumerate(p.scores))
        how = ", ".join(
            _("{side} by {how}").format(side=labels[i].split(" (")[0], how=_HOW_WORDS.get(h, h))
            for i, h in enumerate(p.how)
            if h
        )
        won = (
            _("; {sides} shared first place in game {game}").format(
                sides=_(" and ").join(labels[s].split(" (")[0] for s in p.tied), game=p.game_no
            )
            if p.tied
            else _("; {side} won game {game}").format(
                side=labels[p.game_winner].split(" (")[0], game=p.game_no
            )
            if p.game_winner is not None
            else ""
        )
        parts.append(
            _("Game {game} deal {deal}: {scores}").format(
                game=p.game_no, deal=p.deal_no, scores=scores
            )
            + (f" ({how})" if how else "")
            + won
            + "."
        )
    text = " ".join(parts)
    return text if len(text) <= 1000 else text[:999] + "…"


def score_chart(info: TableInfo, game: Game) -> Picture:
    """The score chart of a (finished) game, replayed from its record."""
    return draw_chart(info, deal_history(game.to_record()), game.n_players)


async def chart_off_loop(info: TableInfo, game: Game) -> Picture:
    """:func:`score_chart` in a worker thread (the replay and drawing take ~0.1-0.5 s)."""
    record = game.to_record()
    n = game.n_players
    return await asyncio.to_thread(lambda: draw_chart(info, deal_history(record), n))
