"""The buttons and menus of a hand message, built from the *kinds* of the legal
actions, never from phase names — so a new phase (an auction, naming trumps,
a kitty, layout cards) gets its controls without a change here.

The kinds:

* a **card play** (:class:`~engine.actions.Play`): one button per card the seat
  holds, enabled when that play is legal now; a legal card that is not in the
  hand (a face-up layout card) gets a button too, marked "(table)";
* a **card to lay out** (any other action that carries a ``card``, such as the
  ruff's :class:`~engine.actions.Discard`): one menu to choose
  ``view.to_lay_out`` cards at once, the cards sorted as in the hand; once chosen,
  the menu shows them chosen and a **Confirm** button lays them all out in one
  commit (one tap to choose, one to confirm);
* a **choice** (every other action: take or decline the ruff, Can-ye, a bid,
  naming trumps ...): one button each, on the rows after the cards; when there
  are more than two rows of them (a declared ruff value, 0 to 95), menus of 25
  instead (``rh:c`` ids), with the choices :func:`~bot.present.render.featured_choices`
  names (one's true ruff) as buttons above them. Between those, up to five rows
  of buttons when the choices fit, a row per ``number`` where they carry one
  (Bid Whist's 15 bids: a row per number, uptown / downtown / no trump, the
  Pass beside the lowest).

Cards are shown in the deal's order (:func:`~bot.present.render.bidwhist.view_sorted`:
downtown runs A 2 3 …; jokers by name, first as the top trumps, last in no
trump).

Face-up layout cards (Turnover Bridge) follow the hand, by the rows of the
layout where the rows allow (:func:`_layout_lines`), three a row (the ▲ makes
their buttons wider), each marked ▲ (``▲A♠︎``), enabled when playable now; a hand
and a layout may take all five rows, so every playable card has its button.

The look: a card button is green when you may play it now and grey
(disabled) otherwise — colour means nothing else. The suit is told by the
button's emoji (:mod:`bot.present.suit_emojis`: a white tile with the pip in the
four-colour deck's colours, so ♠ and ♣ differ at a glance), the label then the
rank alone; without the emojis, by the label's text (``A♠︎``,
:func:`~bot.present.render.card_label`). Off turn there are no card buttons: the
hand is a line of text grouped by suit (readable, not grey on grey), and the
buttons come with the turn. Cards go one row per suit in hand order, trumps
first, a long suit split over two rows, the choices on rows of their own
(:func:`card_rows`). The cards to lay out
are offered lowest non-trumps first, each described ("trump · honour", "trump",
or its suit) (:func:`layout_order`, :func:`card_note`).

Discord's limits hold whatever the engine offers: at most 5 rows of 5 buttons
(or one menu per row of at most 25 options). When the choices and the cards do
not both fit, the choices win (the hand is in the message text anyway).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import discord

from bot.present import suit_emojis
from bot.present.components import (
    ROW_WIDTH,
    ROWS,
    Rows,
    action_id,
    choice_id,
    confirm_id,
    hint_id,
    pick_id,
    table_id_for,
)
from bot.present.i18n import _, ngettext
from bot.present.render import (
    CALLS_IN_TEXT,
    action_label,
    card_label,
    choice_note,
    featured_choices,
)
from bot.present.render.bidwhist import view_sorted
from bot.present.render.common import rank_label, suit_name
from engine import CLAIM, CONCEDE, Action, Card, Claim, Play, SeatView, sort_hand
from engine.ai.strategies.claims import certain_claim

__all__ = [
    "CARD_ROWS",
    "ControlIds",
    "TableIds",
    "card_note",
    "card_rows",
    "claim_confirm",
    "claim_controls",
    "claim_menu",
    "concede_button",
    "concede_confirm",
    "hand_controls",
    "hint_button",
    "layout_order",
    "split_actions",
]

CARD_ROWS = ROWS - 1  # at most four rows of cards: the last row is for choices
MENU_OPTIONS = 25  # Discord's limit on a select menu's options
MAX_CHOICE_BUTTONS = (
    2 * ROW_WIDTH
)  # more choices than this go in menus (with the hand kept in text)


class ControlIds(Protocol):
    """What a hand's controls are called: the table's (:class:`TableIds`), or those of a
    message that shows the same controls for another purpose (a puzzle, a lesson step),
    so a learner meets the game's own buttons and menus, routed to their own handler."""

    @property
    def claims(self) -> bool:
        """Whether the claim buttons belong here (a table's hand: yes; a puzzle: no)."""
        ...

    def action(self, action: Action) -> str:
        """A button that takes ``action`` (a card, a call)."""
        ...

    def pick(self, verb: str) -> str:
        """The menu of cards to lay out with ``verb``."""
        ...

    def confirm(self, verb: str, codes: Sequence[str]) -> str:
        """**Confirm** the cards ``codes`` chosen in that menu."""
        ...

    def choice(self, k: int) -> str:
        """The ``k``-th menu of choices (each option's value: the action's encoding)."""
        ...


@dataclass(frozen=True, slots=True)
class TableIds:
    """The ids of a seat's controls at a table, stamped with the engine ``version``."""

    table_id: int
    version: int
    seat: int
    claims: bool = True

    def action(self, action: Action) -> str:
        return action_id(self.table_id, self.version, self.seat, action)

    def pick(self, verb: str) -> str:
        return pick_id(self.table_id, self.version, self.seat, verb)

    def confirm(self, verb: str, codes: Sequence[str]) -> str:
        return confirm_id(self.table_id, self.version, self.seat, verb, codes)

    def choice(self, k: int) -> str:
        return choice_id(self.table_id, self.version, self.seat, k)


def _table_ids(table_id: int, version: int, seat: int) -> ControlIds:
    return TableIds(table_id, version, seat)


def split_actions(
    legal: Sequence[Action],
) -> tuple[list[Play], dict[str, list[Action]], list[Action]]:
    """Legal actions by kind: card plays, cards to lay out (by verb), choices."""
    plays: list[Play] = []
    picks: dict[str, list[Action]] = {}
    choices: list[Action] = []
    for action in legal:
        if isinstance(action, Play):
            plays.append(action)
        elif isinstance(getattr(action, "card", None), Card):
            picks.setdefault(action.verb, []).append(action)
        else:
            choices.append(action)
    return plays, picks, choices


def _card_of(action: Action) -> Card:
    card = getattr(action, "card", None)
    assert isinstance(card, Card)
    return card


PLAYABLE = discord.ButtonStyle.success
"""The one colour of a card button: "you may play this now". Every other card is
grey and disabled — suit colour is in the label (♥ ♦ red, ♠︎ ♣︎ in the text colour)."""


def _card_style(enabled: bool) -> discord.ButtonStyle:
    return PLAYABLE if enabled else discord.ButtonStyle.secondary


def _group_of(card: Card) -> object:
    """The row group of a card: its suit, or "jokers" (a joker has no suit)."""
    return "jokers" if card.is_joker else card.suit


def card_width() -> int:
    """Card buttons a row: five with text labels; four with the suit emojis, whose
    wider buttons would leave a fifth alone on a line of its own on a phone."""
    return ROW_WIDTH - 1 if suit_emojis.active() else ROW_WIDTH


def card_rows(cards: Sequence[Card], rows: int, width: int = ROW_WIDTH) -> list[list[Card]]:
    """``cards`` (in hand order: trumps first) on at most ``rows`` rows of ``width``:
    one row per suit, a suit longer than a row split evenly over as many rows as it
    needs. When that takes too many rows, the two neighbouring rows with the fewest
    cards between them share a row (if they fit), until it fits; failing that, the
    cards simply flow, ``width`` to a row."""
    groups: list[list[Card]] = []
    for card in cards:
        if groups and _group_of(groups[-1][0]) == _group_of(card):
            groups[-1].append(card)
        else:
            groups.append([card])
    out: list[list[Card]] = []
    for group in groups:
        parts = -(-len(group) // width)
        size = -(-len(group) // parts)
        out.extend(group[i : i + size] for i in range(0, len(group), size))
    while len(out) > rows:
        pairs = [(len(out[i]) + len(out[i + 1]), i) for i in range(len(out) - 1)]
        fits = [(n, i) for n, i in pairs if n <= width]
        if not fits:
            flat = [c for row in out for c in row]
            return [flat[i : i + width] for i in range(0, len(flat), width)][:rows]
        _, i = min(fits)
        out[i : i + 2] = [out[i] + out[i + 1]]
    return out


def layout_order(cards: Sequence[Card], view: SeatView) -> list[Card]:
    """Cards to lay out, in the order one usually wants them: the lowest non-trumps
    first (by rank, suits in hand order), trumps (and jokers) last; under a contract
    (Bid Whist's kitty) the hand's order in the contract's ranks."""
    if view.contract:  # a contract's kitty (Bid Whist): the hand's own order, the contract's ranks
        return view_sorted(view, cards)
    position = {c: i for i, c in enumerate(sort_hand(cards, view.trump))}
    return sorted(
        cards,
        key=lambda c: (
            c.is_joker or c.suit is view.trump,
            99 if c.is_joker else int(c.rank),
            position[c],
        ),
    )


HONOUR_RANKS = frozenset(
    {"A", "K", "Q", "J"}
)  # the honours are the trump ace, king, queen and knave


def card_note(card: Card, view: SeatView) -> str:
    """A menu option's description: ``trump · honour``, ``trump``, or the suit's name."""
    if card.is_joker:
        return _("joker · trump")
    if view.trump is not None and card.suit is view.trump:
        honours = view.rules is not None and view.rules.honours and card.rank.label in HONOUR_RANKS
        return _("trump · honour") if honours else _("trump")
    return suit_name(card.suit)


def _choice_style(action: Action) -> discord.ButtonStyle:
    code = action.encode()
    if action.verb in ("pass", "decline") or code.endswith(":pass"):
        return discord.ButtonStyle.secondary
    return discord.ButtonStyle.success


LAYOUT_MARK = "▲"
"""Before a face-up layout card's label (``▲A♠︎``): the card lies on your layout, not
in your hand; its rows follow the hand's, one per row of the layout."""


def card_face(card: Card) -> str:
    """A card button's label: ``A♠︎``, or the rank alone (``A``) when the button carries
    its suit's emoji (:mod:`bot.present.suit_emojis`)."""
    if suit_emojis.mark(card) is not None:
        return rank_label(card)
    return card_label(card)


def layout_width() -> int:
    """Face-up layout cards a row: their ``▲`` makes each button wider than a hand card's,
    so one fewer than :func:`card_width` fit a phone's row."""
    return card_width() - 1


def _layout_lines(view: SeatView, cards: Sequence[Card], rows: int = ROWS) -> list[list[Card]]:
    """``cards`` (face-up layout cards) in at most ``rows`` rows of :func:`layout_width`:
    by the row of ``view.seat``'s layout they lie in, as dealt (five then four, or two
    rows of six), a row longer than a row of buttons split evenly; when that takes
    more than ``rows`` rows, the cards flow in layout order. Cards of no layout row
    (none today) follow."""
    if not cards:
        return []
    piles = view.layouts[view.seat] if view.seat < len(view.layouts) else ()
    per_row = 5 if len(piles) == 9 else max(1, (len(piles) + 1) // 2)
    wanted = set(cards)
    width = layout_width()
    out: list[list[Card]] = []
    for start in range(0, len(piles), per_row):
        row = [p.up for p in piles[start : start + per_row] if p.up is not None and p.up in wanted]
        if row:
            size = -(-len(row) // -(-len(row) // width))  # split evenly
            out.extend(row[k : k + size] for k in range(0, len(row), size))
    placed = {c for row in out for c in row}
    out.extend([c] for c in cards if c not in placed)
    if len(out) > rows:
        flat = [c for row in out for c in row]
        out = [flat[k : k + width] for k in range(0, len(flat), width)]
    return out


def _layout_cards(view: SeatView) -> list[Card]:
    """``view.seat``'s face-up layout cards it may play from this trick (not the fresh ones)."""
    if not view.layouts or view.seat >= len(view.layouts):
        return []
    return [p.up for p in view.layouts[view.seat] if p.up is not None and not p.fresh]


def hand_controls(
    table_id: int,
    version: int,
    view: SeatView,
    away: bool = False,
    chosen: Sequence[Card] = (),
    ids: ControlIds | None = None,
) -> Rows:
    """The controls of ``view.seat``'s hand message at engine ``version``.

    ``away``: the AI plays this seat, so every card is shown disabled and the
    only live button takes the seat back. ``chosen``: the cards just chosen in the
    menu of cards to lay out, shown chosen, with **Confirm** under the menu.
    ``ids``: what the controls are called (the table's by default; a puzzle's or a
    lesson's show the same controls for their own handler).
    """
    ui = Rows()  # plain component data: this is built for nearly every move (see Rows)
    if ids is None:
        ids = _table_ids(table_id, version, view.seat)
    if away:  # the hand is in the text; the one thing to do is take the seat back
        ui.button(
            table_id_for(table_id, "reclaim"),
            _("Take my seat back"),
            discord.ButtonStyle.success,
            row=0,
        )
        return ui
    plays, picks, choices = _split(view)
    if not (plays or picks or choices):
        return ui  # not your turn: the hand is a line of text, readable, no grey buttons
    if picks:
        # laying out cards: one menu per kind (today only one kind is ever legal at once)
        for row, (verb, actions) in enumerate(list(picks.items())[: ROWS - 1]):
            cards = layout_order([_card_of(a) for a in actions], view)[:MENU_OPTIONS]
            need = max(1, min(view.to_lay_out or 1, len(cards)))
            options = [(card_label(c), c.code, card_note(c, view)) for c in cards]
            placeholder = ngettext(
                "Choose {n} card to lay out", "Choose {n} cards to lay out", need
            ).format(n=need)
            codes = [c.code for c in chosen if c in cards]
            marks = {c.code: m for c in cards if (m := suit_emojis.mark(c)) is not None}
            ui.menu(
                ids.pick(verb),
                options,
                need,
                placeholder,
                row=row,
                chosen=codes if len(codes) == need else (),
                emojis=marks,
            )
            if len(codes) == need:  # chosen: laid out only on Confirm
                ui.button(
                    ids.confirm(verb, codes),
                    ngettext(
                        "Confirm: lay out {n} card", "Confirm: lay out {n} cards", need
                    ).format(n=need),
                    discord.ButtonStyle.success,
                    row=ROWS - 1,
                )
        return ui
    if sum(1 for c in choices if choice_note(c)) > CALLS_IN_TEXT:
        _described_menu(ui, ids, view, choices)
        return ui
    if len(choices) > MAX_CHOICE_BUTTONS:
        rows = _choice_rows(choices)
        if len(rows) > ROWS:
            _choice_menus(ui, ids, view, choices)
            return ui
        for row, actions in enumerate(rows):  # the hand stays in the text
            for choice in actions:
                cid = ids.action(choice)
                ui.button(cid, action_label(choice, view.rules), _choice_style(choice), row=row)
        return ui
    shown, card_rows_free = _card_buttons(view, plays, choices)
    legal_plays = {p.card for p in plays}
    in_hand = [c for c in shown if c in view.hand]
    width = card_width()
    hand_rows = -(-len(in_hand) // width)  # the fewest the hand can take
    layout = _layout_lines(
        view, [c for c in shown if c not in view.hand], max(1, card_rows_free - hand_rows)
    )
    card_lines = card_rows(in_hand, max(1, card_rows_free - len(layout)), width) if in_hand else []
    card_lines += layout  # the layout's rows after the hand
    if len(card_lines) > card_rows_free:  # too many rows: the cards flow, every one reachable
        flat = [c for line in card_lines for c in line]
        card_lines = [flat[i : i + width] for i in range(0, len(flat), width)]
    for row, cards in enumerate(card_lines[:ROWS]):
        for card in cards:
            enabled = card in legal_plays
            label = card_face(card)
            if card not in view.hand:  # a face-up layout card (Turnover Bridge)
                label = LAYOUT_MARK + label
            cid = ids.action(Play(card))
            ui.button(
                cid, label, _card_style(enabled), not enabled, row=row, emoji=suit_emojis.mark(card)
            )
    first = len(card_lines)
    for i, choice in enumerate(choices[: (ROWS - first) * ROW_WIDTH]):
        cid = ids.action(choice)
        ui.button(
            cid, action_label(choice, view.rules), _choice_style(choice), row=first + i // ROW_WIDTH
        )
    if ids.claims:
        claim_controls(ui, table_id, version, view, first + -(-len(choices) // ROW_WIDTH))
    return ui


def hint_button(ui: discord.ui.View, table_id: int, version: int, seat: int) -> None:
    """The **Hint** button of a table with hints, on a row with room (none when full)."""
    if not isinstance(ui, Rows):
        return
    row = ui.free_row()
    if row is not None:
        ui.button(
            hint_id(table_id, version, seat), _("💡 Hint"), discord.ButtonStyle.primary, row=row
        )


def look_buttons(ui: discord.ui.View, table_id: int) -> None:
    """**Last trick** and **This deal** on a hand that no table message accompanies (a
    board played alone in a DM): the tricks before an AI's lead stay one tap away.
    On a row with room (none when every row is full)."""
    if not isinstance(ui, Rows):
        return
    row = ui.free_row()
    if row is None:
        return
    for verb, label in (("last", _("Last trick")), ("deal", _("This deal"))):
        try:
            ui.button(table_id_for(table_id, verb), label, discord.ButtonStyle.secondary, row=row)
        except ValueError:  # the row is full
            return


ANSWER_PHASES = (CLAIM, CONCEDE)


def claim_controls(ui: Rows, table_id: int, version: int, view: SeatView, row: int) -> None:
    """Where the engine offers a claim, on the first free row: **Claim all (n)** only
    where it would surely hold (:func:`~engine.ai.strategies.claims.certain_claim`: on
    lead, every card left a winner from what the seat can see), not "Claim all (11)"
    at the second trick; **Claim…** (a number of tricks, all of them included) where
    more than one count may be claimed or all of them are not sure. Both ask
    privately first (:func:`claim_confirm`, :func:`claim_menu`), so one tap never
    shows the hand. A misère declarer's claim (to take no more tricks) keeps its own
    button. Nothing when no row is free or no claim may be made."""
    claims = [a for a in view.claims if isinstance(a, Claim)]
    if row >= ROWS or not claims:
        return
    best = claims[0]  # all the tricks left come first
    if not best.tricks:  # a misère declarer's claim: to take no more tricks (claim:0)
        ui.button(
            table_id_for(table_id, "claim-all"),
            _("Claim no more tricks"),
            discord.ButtonStyle.secondary,
            row=row,
        )
        return
    sure = certain_claim(view) is not None
    if sure:
        ui.button(
            table_id_for(table_id, "claim-all"),
            _("Claim all ({n})").format(n=best.tricks),
            discord.ButtonStyle.secondary,
            row=row,
        )
    if len(claims) > 1 or not sure:
        ui.button(
            table_id_for(table_id, "claims"), _("Claim…"), discord.ButtonStyle.secondary, row=row
        )


def _keep_playing(ui: Rows, table_id: int, row: int) -> None:
    ui.button(
        table_id_for(table_id, "keep"), _("Keep playing"), discord.ButtonStyle.secondary, row=row
    )


def claim_confirm(table_id: int, version: int, view: SeatView) -> discord.ui.View:
    """The private question before claiming every trick left: **Confirm** (the engine's
    ``claim:n``, version-stamped like a card) or **Keep playing**."""
    ui = Rows()
    best = next(a for a in view.claims if isinstance(a, Claim))  # all the tricks left first
    ui.button(
        action_id(table_id, version, view.seat, best), _("Confirm"), discord.ButtonStyle.danger
    )
    _keep_playing(ui, table_id, 0)
    return ui


def concede_button(table_id: int) -> discord.ui.View:
    """**Concede** under This deal's private answer, for a player whose side may concede
    (the table message keeps one row of buttons for a phone): it asks first."""
    ui = Rows()
    ui.button(table_id_for(table_id, "concede"), _("Concede"), discord.ButtonStyle.secondary)
    return ui


def concede_confirm(table_id: int) -> discord.ui.View:
    """The private question before conceding: **Confirm** or **Keep playing**."""
    ui = Rows()
    ui.button(table_id_for(table_id, "concede-yes"), _("Confirm"), discord.ButtonStyle.danger)
    _keep_playing(ui, table_id, 0)
    return ui


def claim_menu(table_id: int, version: int, view: SeatView) -> discord.ui.View:
    """The private choice of how many tricks to claim: one button per number (most
    first), then **Keep playing**."""
    ui = Rows()
    claims = [a for a in view.claims if isinstance(a, Claim)][: ROWS * ROW_WIDTH - 1]
    for i, claim in enumerate(claims):
        if i == 0:
            label = _("All {n}").format(n=claim.tricks)
        else:
            label = _("None (the rest are yours)") if claim.tricks == 0 else str(claim.tricks)
        ui.button(
            action_id(table_id, version, view.seat, claim),
            label,
            discord.ButtonStyle.primary,
            row=i // ROW_WIDTH,
        )
    _keep_playing(ui, table_id, len(claims) // ROW_WIDTH)
    return ui


_Split = tuple[list[Play], dict[str, list[Action]], list[Action]]


class _Last:
    """The last view's actions split by kind, and its card buttons: a hand message asks
    for them twice of the same view (:func:`hand_in_buttons` for its text, then
    :func:`hand_controls`), so the second time is a lookup. Held by identity (the view
    is kept alive here, so its id is not reused); what is kept is never changed."""

    view: SeatView | None = None
    split: _Split | None = None
    cards: tuple[list[Card], int] | None = None


def _split(view: SeatView) -> _Split:
    """``view``'s live actions by kind (:func:`split_actions`): answering a claim or a
    concession is live for every seat asked, not only the one to act."""
    if _Last.view is not view:
        _Last.view, _Last.split, _Last.cards = view, None, None
    if _Last.split is None:
        mine = view.my_turn or (view.phase in ANSWER_PHASES and bool(view.legal))
        _Last.split = split_actions(view.legal if mine else ())
    return _Last.split


def _card_buttons(
    view: SeatView, plays: Sequence[Play], choices: Sequence[Action]
) -> tuple[list[Card], int]:
    """The cards shown as buttons beside ``choices`` (hand order, then face-up
    layout cards), and the rows they may take."""
    last = _Last.split
    if (
        _Last.view is view
        and _Last.cards is not None
        and last is not None
        and plays is last[0]
        and choices is last[2]
    ):
        return _Last.cards
    found = _find_card_buttons(view, plays, choices)
    if _Last.view is view:
        _Last.cards = found
    return found


def _find_card_buttons(
    view: SeatView, plays: Sequence[Play], choices: Sequence[Action]
) -> tuple[list[Card], int]:
    choice_rows = -(-len(choices) // ROW_WIDTH)
    card_rows_free = min(CARD_ROWS, ROWS - choice_rows)
    legal_plays = {p.card for p in plays}
    hand = view_sorted(view, view.hand)
    layout = [c for c in sort_hand(_layout_cards(view), view.trump) if c not in view.hand]
    if layout and not choices:  # a hand and a layout (Turnover Bridge) may take every row,
        need = -(-len(hand) // card_width()) + -(-len(layout) // layout_width())
        claim = any(isinstance(a, Claim) for a in view.claims)
        if not claim or need >= ROWS:  # a claim keeps its row where the cards fit without it
            card_rows_free = ROWS
    extra = view_sorted(view, [c for c in legal_plays if c not in view.hand and c not in layout])
    shown = list(hand) + layout + extra
    room = card_rows_free * card_width()
    if choices and not legal_plays:
        shown = []  # a decision (a call, the ruff, naming trumps): the hand is a line of text
    elif len(shown) > room and not legal_plays:
        shown = []  # e.g. bidding with a full hand: the calls get the rows, the text shows the hand
    elif len(shown) > room:  # keep every legal card, then as many others as fit, in hand order
        keep = set([c for c in shown if c in legal_plays][:room])
        keep |= set([c for c in shown if c not in keep][: room - len(keep)])
        shown = [c for c in shown if c in keep]
    return shown, card_rows_free


def hand_in_buttons(view: SeatView, away: bool = False) -> bool:
    """Whether :func:`hand_controls` shows every card of ``view.seat``'s hand as a
    button; then the hand message's text need not list the hand again."""
    if not view.hand or view.phase == "over" or away:
        return False
    plays, picks, choices = _split(view)
    if picks or len(choices) > MAX_CHOICE_BUTTONS or not (plays or choices):
        return False
    if sum(1 for c in choices if choice_note(c)) > CALLS_IN_TEXT:
        return False  # the calls' menu: the hand is in the text
    shown, _ = _card_buttons(view, plays, choices)
    return set(view.hand) <= set(shown)


def _choice_rows(choices: Sequence[Action]) -> list[list[Action]]:
    """Choices as rows of buttons: five a row, and a new row where the ``number`` a
    choice carries changes (a choice without one, such as a pass, joins the next)."""
    rows: list[list[Action]] = []
    key: object = None
    for choice in choices:
        number = getattr(choice, "number", None)
        if (
            not rows
            or len(rows[-1]) >= ROW_WIDTH
            or (number is not None and key is not None and number != key)
        ):
            rows.append([])
        rows[-1].append(choice)
        if number is not None:
            key = number
    return rows


def _described_menu(ui: Rows, ids: ControlIds, view: SeatView, choices: Sequence[Action]) -> None:
    """Choices whose names need a word of explanation (Solo Whist's calls, Bid Whist's
    bids): the pass
    as a button, the others in one menu, each option with what it undertakes under
    its name, so the message needs no paragraph about them (the hand stays in the
    text)."""
    passes = [a for a in choices if not choice_note(a)]
    for action in passes[:ROW_WIDTH]:
        cid = ids.action(action)
        ui.button(cid, action_label(action, view.rules), _choice_style(action), row=0)
    row = 1 if passes else 0
    noted = [a for a in choices if choice_note(a)]
    for k in range(ROWS - row):
        part = noted[k * MENU_OPTIONS : (k + 1) * MENU_OPTIONS]
        if not part:
            break
        options = [(action_label(a, view.rules), a.encode(), choice_note(a)) for a in part]
        placeholder = f"{action_label(part[0], view.rules)} … {action_label(part[-1], view.rules)}"
        ui.menu(ids.choice(k), options, 1, placeholder, row=row + k)


def _choice_menus(ui: Rows, ids: ControlIds, view: SeatView, choices: Sequence[Action]) -> None:
    """More choices than buttons fit (a ruff value from 0 to 95): the featured ones as
    buttons on the first row (a pass only there), the others in menus of up to 25 on
    the rows after."""
    featured = featured_choices(view)[:ROW_WIDTH]
    for action, label in featured:
        ui.button(ids.action(action), label, _choice_style(action), row=0)
    row = 1 if featured else 0
    buttons = {a for a, _ in featured if a.verb == "pass" or a.encode().endswith(":pass")}
    choices = [a for a in choices if a not in buttons]  # a pass is a button, not an option
    menus = ROWS - row
    for k in range(menus):
        part = choices[k * MENU_OPTIONS : (k + 1) * MENU_OPTIONS]
        if not part:
            break
        options = [(action_label(a, view.rules), a.encode()) for a in part]
        placeholder = f"{action_label(part[0], view.rules)} … {action_label(part[-1], view.rules)}"
        ui.menu(ids.choice(k), options, 1, placeholder, row=row + k)
