"""A picture of the table: the public table message's image, drawn with Pillow.

Pure: no Discord, no database, no files. :func:`scene_of` reads an engine
:class:`~engine.SeatView` and the table's :class:`~bot.present.render.TableInfo` and
keeps only what every seat may see — seat names, the current (or just
finished) trick, trumps and the turn-up, scores, targets, tricks this deal,
the dealer and whose turn it is, face-up layout cards and the contract. It
never reads ``view.hand`` or anything private, so the picture can be drawn from
any seat's view. The :class:`Scene` is also the picture's key: two states
with equal scenes draw the same picture, so the caller re-draws only when the
key changes (:class:`PictureCache`).

:func:`draw_table` turns a scene into a PNG (a palette image, a few tens of KB)
and the alt text a screen reader says (:func:`describe`);
:func:`render_off_loop` does that in a worker thread so the event loop is never
blocked. The fonts, colours, pips and card sprites it draws with are in
:mod:`bot.present.drawing` (shared with :mod:`bot.present.chart`, the end-of-game score
chart). Characters a font cannot draw are left out of names (a name left empty
shows as its seat).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.present.drawing import (
    BG,
    CARD_FACE,
    FELT,
    FELT_EDGE,
    GOLD,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PLATE,
    PLATE_TEXT,
    RGB,
    TEXT,
    Picture,
    back_image,
    card_image,
    draw_pip,
    drawable,
    fit,
    font,
    panel,
    paste,
    put_text,
    to_png,
)
from bot.present.i18n import N_, TextMap, _, ngettext, using
from bot.present.render import SEAT_NAMES, TableInfo
from bot.present.render.common import suit_name, target_text, terms
from engine import Card, PileView, SeatView, Suit

__all__ = [
    "Picture",
    "PictureCache",
    "Scene",
    "card_name",
    "describe",
    "draw_table",
    "picture_key",
    "render_off_loop",
    "scene_of",
    "table_picture",
]

# ------------------------------------------------------------------ the scene


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a panel: a label and a number (score or tricks), optionally out of ``of``."""

    label: str
    value: int
    of: int = 0
    who: str = ""  # the players of a side ("Alice & Bob"), when the label does not name them

    @property
    def text(self) -> str:
        return f"{self.label} ({self.who})" if self.who else self.label


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything the table picture shows, from public information only.

    It is hashable and cheap to build: it is the picture's key.
    """

    title: str
    subtitle: str
    seat_labels: tuple[str, ...]
    names: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    dealer: int
    to_act: int | None
    doing: str  # "to play", "to lead", ... ("" when nobody is to act)
    trick: tuple[tuple[int, Card], ...]  # the current trick, or the one just finished
    trick_no: int
    trick_winner: int | None  # set when ``trick`` is a finished trick
    tricks_per_deal: int
    trump: Suit | None
    turn_up: Card | None
    contract: str
    declarer: int | None
    scores: tuple[Row, ...]
    target: int
    tricks: tuple[Row, ...]
    games: str  # "games 1–0" in a match, else ""
    layouts: tuple[tuple[PileView, ...], ...]
    calls: tuple[str, ...]  # per seat, its last call in an auction ("" if none)
    notes: tuple[str, ...]  # short public lines: the ruff, honours shown
    status: str  # the bottom line: whose turn, or the result
    language: str = "en"  # the words drawn (the painter's process has no language of its own)
    goal: str = ""  # what wins the game, in words ("game to 5", "first to 14 tricks")

    @property
    def n_seats(self) -> int:
        return len(self.seat_labels)


DOING: Final = TextMap(
    {
        "ruff": N_("to decide the ruff"),
        "discard": N_("to lay out cards"),
        "can_ye": N_("to declare honours"),
        "auction": N_("to bid"),
        "bidding": N_("to bid"),
        "trumps": N_("to name trumps"),
        "name": N_("to name the contract"),
        "kitty": N_("to lay out the kitty"),
        "contest": N_("to claim the ruff"),
        "show_ruff": N_("to show the ruff"),
    }
)

_PLAIN_CALLS: Final = TextMap(
    {"pass": N_("pass"), "accept": N_("accept")}
)  # as a seat's plate shows them

RANK_WORDS: Final = TextMap({"J": N_("jack"), "Q": N_("queen"), "K": N_("king"), "A": N_("ace")})


def card_name(card: Card) -> str:
    """What a screen reader says for a card: ``10 of hearts``, ``queen of spades``, ``Big Joker``."""
    if card.is_joker:
        return _("Big Joker") if card.code == "BJ" else _("Little Joker")
    label = card.rank.label
    return _("{rank} of {suit}").format(
        rank=RANK_WORDS.get(label, label), suit=suit_name(card.suit)
    )


def _contract_name(code: str) -> str:
    from bot.present.render.bidwhist import bid_name, is_bid
    from engine import CONTRACT_NAMES

    if is_bid(code):  # Bid Whist: "4 uptown"
        return bid_name(code)
    from bot.present.render.common import CALL_NAMES

    if code in CONTRACT_NAMES and code in CALL_NAMES:
        return CALL_NAMES[code]  # the same words as the text, in the language of the moment
    return str(CONTRACT_NAMES.get(code, code.replace("_", " ").capitalize()))


def _groups(view: SeatView, n: int) -> list[tuple[int, ...]]:
    """The seats of each side, by side index."""
    sides = view.seat_sides
    count = max(sides) + 1 if sides else 0
    return [tuple(s for s in range(n) if sides[s] == k) for k in range(count)]


TURN_UP_X: Final = 146  # the trumps panel: where the turn-up card starts, when there is one


def trump_label(trump: Suit, with_turn_up: bool) -> tuple[str, int, int, int]:
    """The trump suit's name as the trumps panel draws it: its text, bold font size,
    and where it starts (x, and y below the panel's title). Beside the suit's pip,
    or, when the turn-up card takes the right of the row, under the pip, where even
    "Diamonds" has room (beside the pip it ran under the card). A size smaller, and
    only then cut with an ellipsis, if a language's name is longer still."""
    name = suit_name(trump).capitalize()
    x, dy = (26, 46) if with_turn_up else (70, 10)
    room = (TURN_UP_X - 6 if with_turn_up else 184) - x
    size = next((z for z in (17, 15, 13) if font(z, bold=True).getlength(name) <= room), 13)
    return fit(name, font(size, bold=True), room), size, x, dy + (17 - size) // 2


def scene_of(info: TableInfo, view: SeatView, seat_names: Sequence[str] | None = None) -> Scene:
    """The public scene of ``view`` (any seat's: its hand is never read).

    ``seat_names``: how the table names the seats (default North, East, South,
    West, as the table text does).
    """
    n = len(view.hand_sizes)
    labels = tuple(seat_names[:n]) if seat_names else SEAT_NAMES[:n]
    short = tuple(label[:1] for label in labels)
    names = tuple(
        (
            occupant.name
            if (occupant := info.seats[s] if s < len(info.seats) else None)
            else _("empty")
        )
        for s in range(n)
    )
    rules = view.rules or info.rules

    # the trick: the current one, else the one just finished (until the next card)
    trick = view.trick
    winner: int | None = None
    trick_no = view.trick_no
    if not trick and view.completed_tricks:
        leader, cards, winner = view.completed_tricks[-1]
        trick = tuple(((leader + i) % n, c) for i, c in enumerate(cards))
        trick_no = len(view.completed_tricks)

    # scores: per seat when every seat scores alone, else per side
    groups = _groups(view, n)
    if len(view.scores) == n and not (
        len(groups) == len(view.scores) and n == 4 and len(groups[0]) == 2
    ):
        score_groups: list[tuple[int, ...]] = [(s,) for s in range(n)]
    elif len(view.scores) == len(groups):
        score_groups = groups
    else:
        score_groups = [() for _ in view.scores]

    def group_label(seats: tuple[int, ...], index: int) -> str:
        if not seats:
            return _("Side {number}").format(number=index + 1)
        if len(seats) == 1:
            return f"{short[seats[0]]} {names[seats[0]]}"
        if len(seats) == 2 and n == 4:
            return "".join(short[s] for s in seats)  # NS, EW
        return "+".join(short[s] for s in seats)

    target = max(0, int(view.target))
    scores = tuple(
        Row(
            group_label(seats, i),
            view.scores[i],
            target,
            " & ".join(names[s] for s in seats) if len(seats) > 1 else "",
        )
        for i, seats in enumerate(score_groups)
    )
    tricks = tuple(
        Row(
            group_label(seats, i)
            if len(seats) > 1
            else f"{short[seats[0]]}"
            if seats
            else _("Side {number}").format(number=i + 1),
            view.tricks[i],
        )
        for i, seats in enumerate(groups[: len(view.tricks)])
    )
    games = ""
    if rules.match_format != "single":
        games = _("games {won}").format(won="–".join(str(g) for g in view.games_won))

    calls = [""] * n
    if view.phase in ("auction", "bidding"):
        for seat, call in view.auction:
            if 0 <= seat < n:
                calls[seat] = (
                    _contract_name(call) if call not in ("pass", "accept") else _PLAIN_CALLS[call]
                )

    notes: list[str] = []
    if view.ruffer is not None and view.ruff_state in ("pending", "taken", "declined"):
        who = labels[view.ruffer]
        t = terms(rules)
        if t.ruff == "ruff":
            notes.append(
                {
                    "pending": _("Ruff: {who} may take the stock").format(who=who),
                    "taken": _("Ruff: {who} took the stock").format(who=who),
                    "declined": _("Ruff: {who} declined").format(who=who),
                }[view.ruff_state]
            )
        else:  # Ruffe and Trump: the rub takes from the head (its "ruff" is the contest)
            rub = _(t.ruff)
            rub = rub[:1].upper() + rub[1:]
            notes.append(
                {
                    "pending": _("{rub}: {who} may take four"),
                    "taken": _("{rub}: {who} took four"),
                    "declined": _("{rub}: {who} declined"),
                }[view.ruff_state].format(rub=rub, who=who)
            )
    if view.shown_honours:
        notes.append(
            _("Honours shown: {cards}").format(
                cards=", ".join(f"{short[s]} {c.pretty}" for s, c in view.shown_honours)
            )
        )

    to_act = view.to_act
    doing = ""
    if to_act is not None:
        doing = DOING.get(view.phase, _("to play") if view.trick else _("to lead"))
    if view.phase == "over":
        status = _result_line(view, score_groups, labels, names, scores)
    elif to_act is not None:
        status = f"{labels[to_act]} ({names[to_act]}) {doing}"
    else:
        status = ""

    return Scene(
        title=rules.title,
        subtitle=_("Game {game} · Deal {deal} · Table #{table}").format(
            game=view.game_no, deal=view.deal_no, table=info.table_id
        ),
        seat_labels=labels,
        names=names,
        hand_sizes=tuple(view.hand_sizes),
        dealer=view.dealer,
        to_act=to_act,
        doing=doing,
        trick=trick,
        trick_no=trick_no,
        trick_winner=winner,
        tricks_per_deal=rules.tricks_per_deal,
        trump=view.trump,
        turn_up=view.turn_up,
        contract=_contract_name(view.contract) if view.contract else "",
        declarer=view.declarer,
        scores=scores,
        target=target,
        goal=target_text(rules) if target else "",
        tricks=tricks,
        games=games,
        layouts=view.layouts,
        calls=tuple(calls),
        notes=tuple(notes),
        status=status,
        language=info.language,
    )


def _result_line(
    view: SeatView,
    groups: Sequence[tuple[int, ...]],
    labels: Sequence[str],
    names: Sequence[str],
    rows: Sequence[Row],
) -> str:
    if view.winner is None or not 0 <= view.winner < len(rows):
        return _("Game over")
    seats = groups[view.winner] if view.winner < len(groups) else ()
    who = " & ".join(names[s] for s in seats) if seats else rows[view.winner].label
    others = [r.value for i, r in enumerate(rows) if i != view.winner]
    against = f", {rows[view.winner].value}–{max(others)}" if others else ""
    if len(seats) == 1:
        return _("Game over: {who} wins{score}").format(who=who, score=against)
    return _("Game over: {who} win{score}").format(who=who, score=against)


picture_key = scene_of
"""The picture's key is its scene: equal keys, equal pictures (re-draw only on a change)."""


# ------------------------------------------------------------------ alt text


def describe(scene: Scene) -> str:
    """The alt text: what a screen reader says about the picture (at most 1,000 characters)."""
    labels = scene.seat_labels
    parts = [f"{scene.title}, {scene.subtitle.replace(' · ', ', ').lower()}."]
    if scene.contract:
        by = _(" by {who}").format(who=labels[scene.declarer]) if scene.declarer is not None else ""
        parts.append(_("Contract: {contract}{by}.").format(contract=scene.contract, by=by))
    trump = _("no trumps") if scene.trump is None else suit_name(scene.trump)
    up = (
        _(" (turn-up {card})").format(card=card_name(scene.turn_up))
        if scene.turn_up is not None
        else ""
    )
    parts.append(_("Trumps: {trumps}{turn_up}.").format(trumps=trump, turn_up=up))
    if scene.trick:
        played = ", ".join(f"{labels[s]} {card_name(c)}" for s, c in scene.trick)
        if scene.trick_winner is not None:
            parts.append(
                _("Trick {number}, won by {who}: {cards}.").format(
                    number=scene.trick_no, who=labels[scene.trick_winner], cards=played
                )
            )
        else:
            parts.append(_("Trick {number}: {cards}.").format(number=scene.trick_no, cards=played))
    score = ", ".join(f"{r.text} {r.value}" for r in scene.scores)
    to = f", {scene.goal}" if scene.goal else ""
    parts.append(
        _("Score: {scores}").format(scores=f"{score}{to}")
        + (f", {scene.games}" if scene.games else "")
        + "."
    )
    if scene.tricks:
        parts.append(
            _("Tricks this deal: {tricks}").format(
                tricks=", ".join(f"{r.label} {r.value}" for r in scene.tricks)
            )
            + "."
        )
    parts.extend(f"{note}." for note in scene.notes)
    if scene.status:
        parts.append(scene.status + ".")
    text = " ".join(parts)
    return text if len(text) <= 1000 else text[:999] + "…"


# ------------------------------------------------------------------ the table

WIDTH: Final = 720
HEIGHT: Final = 500
HEIGHT_LAYOUTS: Final = 600
CARD_W: Final = 58
CARD_H: Final = 82
PLATE_W: Final = 200
PLATE_H: Final = 50
SIDE_PLATE_W: Final = 172

# where each seat sits, by table size: top, right, bottom, left
SLOTS: Final = {
    2: ("top", "bottom"),
    3: ("top", "right", "bottom"),
    4: ("top", "right", "bottom", "left"),
}


def _plate(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    scene: Scene,
    seat: int,
    x: int,
    y: int,
    w: int,
    slot: str,
) -> None:
    active = scene.to_act == seat
    fill = GOLD if active else PLATE
    d.rounded_rectangle(
        [x, y, x + w, y + PLATE_H],
        radius=10,
        fill=fill,
        outline=(255, 255, 255) if active else PANEL_EDGE,
        width=3 if active else 1,
    )
    top = f"{scene.seat_labels[seat]} · " + ngettext(
        "{n} card", "{n} cards", scene.hand_sizes[seat]
    ).format(n=scene.hand_sizes[seat])
    if scene.calls[seat]:
        top = f"{scene.seat_labels[seat]} · {scene.calls[seat]}"
    small = font(12)
    put_text(d, (x + 10, y + 6), fit(top, small, w - 44), font=small, fill=PLATE_TEXT)
    bold = font(17, bold=True)
    name = drawable(scene.names[seat], bold) or scene.seat_labels[seat]
    put_text(d, (x + 10, y + 22), fit(name, bold, w - 20), font=bold, fill=PLATE_TEXT)
    badges: list[tuple[str, RGB]] = []
    if scene.dealer == seat:
        badges.append(("D", (70, 110, 200)))
    if scene.declarer == seat and scene.contract:
        badges.append(("C", (170, 60, 150)))
    bx = x + w - 24
    for letter, colour in badges:
        d.ellipse([bx, y + 5, bx + 18, y + 23], fill=colour, outline=(255, 255, 255))
        put_text(
            d, (bx + 9, y + 14), letter, font=font(11, bold=True), fill=(255, 255, 255), anchor="mm"
        )
        bx -= 22
    if active:
        # a pointer from the plate towards the table
        cx, cy, b = x + w // 2, y + PLATE_H // 2, y + PLATE_H
        pointer = {
            "top": [(cx - 9, b + 2), (cx + 9, b + 2), (cx, b + 12)],
            "bottom": [(cx - 9, y - 2), (cx + 9, y - 2), (cx, y - 12)],
            "left": [(x + w + 2, cy - 9), (x + w + 2, cy + 9), (x + w + 12, cy)],
            "right": [(x - 2, cy - 9), (x - 2, cy + 9), (x - 12, cy)],
        }[slot]
        d.polygon(pointer, fill=GOLD)


def _layout_rows(im: Image.Image, piles: Sequence[PileView], x: int, y: int) -> None:
    """One seat's layout: face-up cards on their piles, in rows as dealt."""
    w, h, gap = 36, 50, 5
    per_row = 5 if len(piles) == 9 else (len(piles) + 1) // 2
    rows = [piles[:per_row], piles[per_row:]]
    for r, row in enumerate(rows):
        total = len(row) * (w + gap) - gap
        rx = x - total // 2
        for i, pile in enumerate(row):
            px, py = rx + i * (w + gap), y + r * (h + 8)
            if pile.down:
                paste(im, back_image(w, h), px + 3, py + 4)
            if pile.up is not None:
                paste(im, card_image(pile.up, w, h), px, py)
            elif not pile.down:
                ImageDraw.Draw(im).rounded_rectangle(
                    [px, py, px + w, py + h], radius=4, outline=FELT_EDGE, width=1
                )


def draw_table(scene: Scene) -> Picture:
    """Draw ``scene`` as a PNG (palette mode, about 10-40 KB), its words in ``scene.language``."""
    with using(scene.language):
        return _draw_table(scene)


def _draw_table(scene: Scene) -> Picture:
    n = scene.n_seats
    with_layouts = bool(scene.layouts) and n == 2
    height = HEIGHT_LAYOUTS if with_layouts else HEIGHT
    im = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(im)

    # title bar
    put_text(
        d, (14, 10), fit(scene.title, font(20, bold=True), 380), font=font(20, bold=True), fill=TEXT
    )
    put_text(d, (WIDTH - 14, 14), scene.subtitle, font=font(13), fill=MUTED, anchor="ra")

    # the felt
    status_h = 30
    felt = (204, 100, 516, height - status_h - 84)
    d.rounded_rectangle(felt, radius=40, fill=FELT, outline=FELT_EDGE, width=4)
    cx, cy = (felt[0] + felt[2]) // 2, (felt[1] + felt[3]) // 2

    # seats
    slots = SLOTS[n]
    plate_at: dict[str, tuple[int, int, int]] = {
        "top": ((WIDTH - PLATE_W) // 2, 44, PLATE_W),
        "bottom": ((WIDTH - PLATE_W) // 2, felt[3] + 12, PLATE_W),
        "left": (14, cy - PLATE_H // 2, SIDE_PLATE_W),
        "right": (WIDTH - 14 - SIDE_PLATE_W, cy - PLATE_H // 2, SIDE_PLATE_W),
    }
    for seat, slot in enumerate(slots):
        x, y, w = plate_at[slot]
        _plate(im, d, scene, seat, x, y, w, slot)

    # layouts (two players): each seat's piles between its plate and the trick
    if with_layouts:
        for seat, piles in enumerate(scene.layouts[:2]):
            top = felt[1] + 10 if slots[seat] == "top" else felt[3] - 10 - 2 * 50 - 8
            _layout_rows(im, piles, cx, top)

    # the trick, each card in front of who played it
    if with_layouts:
        spots = {"top": (cx - 36, cy - CARD_H // 2 - 6), "bottom": (cx + 36, cy - CARD_H // 2 + 6)}
        spots = {k: (x - CARD_W // 2, y) for k, (x, y) in spots.items()}
    else:
        spots = {
            "top": (cx - CARD_W // 2, cy - CARD_H - 20),
            "bottom": (cx - CARD_W // 2, cy + 20),
            "left": (cx - CARD_W - 44, cy - CARD_H // 2),
            "right": (cx + 44, cy - CARD_H // 2),
        }
    for seat, card in scene.trick:
        if not 0 <= seat < n:
            continue
        x, y = spots[slots[seat]]
        if scene.trick_winner == seat:
            d.rounded_rectangle([x - 4, y - 4, x + CARD_W + 3, y + CARD_H + 3], radius=9, fill=GOLD)
        paste(im, card_image(card, CARD_W, CARD_H), x, y)
    caption = ""
    if scene.trick and scene.trick_winner is not None:
        caption = _("Trick {number}: {who} won").format(
            number=scene.trick_no, who=scene.seat_labels[scene.trick_winner]
        )
    elif scene.trick:
        caption = _("Trick {number}").format(number=scene.trick_no)
    if caption:
        cap_y = felt[1] + 8 if not with_layouts else cy + CARD_H // 2 + 12
        if not with_layouts and n >= 2:
            cap_y = felt[3] - 24
        put_text(
            d, (cx, cap_y), caption, font=font(13, bold=True), fill=(220, 240, 225), anchor="ma"
        )

    # trumps (top left)
    y0 = panel(d, (14, 44, 192, 170 if not with_layouts else 190), _("Trumps"))
    if scene.trump is None:
        put_text(d, (26, y0 + 6), _("No trumps"), font=font(18, bold=True), fill=TEXT)
    else:
        d.rounded_rectangle([24, y0 + 2, 62, y0 + 40], radius=6, fill=CARD_FACE)
        draw_pip(im, scene.trump, 29, y0 + 7, 28)
        name, size, x, dy = trump_label(scene.trump, scene.turn_up is not None)
        put_text(d, (x, y0 + dy), name, font=font(size, bold=True), fill=TEXT)
    if scene.turn_up is not None:
        paste(im, card_image(scene.turn_up, 34, 48), TURN_UP_X, y0 + 2)
        put_text(d, (163, y0 + 54), _("turn-up"), font=font(10), fill=MUTED, anchor="ma")
    if scene.contract:
        by = f" · {scene.seat_labels[scene.declarer]}" if scene.declarer is not None else ""
        put_text(
            d,
            (24, y0 + 72),
            fit(scene.contract + by, font(13, bold=True), 160),
            font=font(13, bold=True),
            fill=GOLD,
        )

    # score (top right)
    rows = scene.scores
    box_h = 34 + 22 * max(1, len(rows)) + (16 if scene.games or scene.target else 0)
    y0 = panel(d, (WIDTH - 192, 44, WIDTH - 14, 44 + box_h + 6), _("Score"))
    value_font, label_font = font(16, bold=True), font(13)
    for i, row in enumerate(rows):
        y = y0 + i * 22
        shown = drawable(f"{row.label} {row.who}" if row.who else row.label, label_font) or "?"
        put_text(d, (WIDTH - 180, y + 2), fit(shown, label_font, 112), font=label_font, fill=TEXT)
        put_text(d, (WIDTH - 26, y), str(row.value), font=value_font, fill=TEXT, anchor="ra")
        if row.of > 0:
            share = max(0.0, min(1.0, row.value / row.of))
            d.rectangle([WIDTH - 180, y + 18, WIDTH - 26, y + 19], fill=PANEL_EDGE)
            d.rectangle([WIDTH - 180, y + 18, WIDTH - 180 + int(154 * share), y + 19], fill=GOLD)
    foot = " · ".join(
        x
        for x in (
            scene.goal,
            scene.games,
        )
        if x
    )
    if foot:
        put_text(d, (WIDTH - 180, y0 + 22 * len(rows) + 2), foot, font=font(11), fill=MUTED)

    # tricks this deal (bottom left)
    if scene.tricks:
        top = felt[3] - 22 - 20 * len(scene.tricks)
        y0 = panel(
            d,
            (14, top - 14, 192, felt[3] + 4),
            _("Tricks · {number} of {total}").format(
                number=scene.trick_no, total=scene.tricks_per_deal
            ),
        )
        for i, row in enumerate(scene.tricks):
            y = y0 + i * 20
            put_text(
                d,
                (24, y),
                fit(drawable(row.label, label_font) or "?", label_font, 70),
                font=label_font,
                fill=TEXT,
            )
            marks = min(row.value, 13)
            for k in range(marks):
                d.rectangle([96 + k * 6, y + 3, 99 + k * 6, y + 14], fill=GOLD)
            put_text(d, (182, y), str(row.value), font=font(14, bold=True), fill=TEXT, anchor="ra")

    # notes (bottom right)
    if scene.notes:
        lines = scene.notes[-3:]
        top = felt[3] - 22 - 18 * len(lines)
        y0 = panel(d, (WIDTH - 192, top - 14, WIDTH - 14, felt[3] + 4), _("Notes"))
        for i, line in enumerate(lines):
            small = font(12)
            put_text(
                d,
                (WIDTH - 182, y0 + i * 18),
                fit(drawable(line, small), small, 160),
                font=small,
                fill=TEXT,
            )

    # status bar
    d.rectangle([0, height - status_h, WIDTH, height], fill=PANEL)
    if scene.status:
        bold = font(15, bold=True)
        text = drawable(scene.status, bold)
        if scene.to_act is not None:
            d.polygon([(14, height - 22), (14, height - 8), (26, height - 15)], fill=GOLD)
        put_text(
            d,
            (34, height - status_h // 2),
            fit(text, bold, WIDTH - 48),
            font=bold,
            fill=GOLD if scene.to_act is not None else TEXT,
            anchor="lm",
        )

    return Picture(to_png(im), describe(scene), scene, WIDTH, height)


def table_picture(
    info: TableInfo, view: SeatView, seat_names: Sequence[str] | None = None
) -> Picture:
    """The table picture of ``view`` (drawn here, on the caller's thread)."""
    return draw_table(scene_of(info, view, seat_names))


async def render_off_loop(
    info: TableInfo, view: SeatView, seat_names: Sequence[str] | None = None
) -> Picture:
    """:func:`table_picture` with the drawing done in a worker thread.

    The scene is read here (cheap, and the view is immutable anyway); only the
    drawing and PNG encoding, the slow part, leave the event loop.
    """
    scene = scene_of(info, view, seat_names)
    return await asyncio.to_thread(draw_table, scene)


class PictureCache:
    """The last picture of one table message: re-drawn only when its scene changes.

    ``await cache.get(info, view, names, draw)`` returns the cached picture if
    the scene is unchanged, else has ``draw`` (the bot's
    :class:`~bot.present.painter.Painter`, another process) draw it. A table keeps one
    of these.
    """

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: Picture | None = None

    @property
    def last(self) -> Picture | None:
        return self._last

    async def get(
        self,
        info: TableInfo,
        view: SeatView,
        seat_names: Sequence[str] | None = None,
        draw: Callable[[Scene], Awaitable[Picture]] | None = None,
    ) -> Picture:
        scene = scene_of(info, view, seat_names)
        last = self._last
        if last is not None and last.key == scene:
            return last
        picture = await (draw(scene) if draw is not None else asyncio.to_thread(draw_table, scene))
        self._last = picture
        return picture
