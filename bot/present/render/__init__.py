"""Pure text rendering: the public table, a seat's private hand, summaries.

Nothing here talks to Discord or the database; every function maps plain data
(an engine :class:`~engine.SeatView` and the table's seat names) to strings, so
renderers are easy to test and never see a hand they should not.

Tables of 2, 3 and 4 seats: seat names come from :func:`seat_names` (North and
South for two, North, East and West for three). Scores are per *scoring side*
(``Rules.side_of``: a partnership, or each seat alone); tricks are per side of
*play* (``SeatView.sides``, which a contract game makes per deal). Partnership
lines appear only where there are partnerships. What a game adds to the table
is read from its view: an auction and contract (``auction``, ``contract``,
``declarer``, ``exposed``), face-up layouts (``layouts``) and a family's public
notes (the ruff contest of Ruffe and Trump).

The package by job: :mod:`.common` (names, cards, limits), :mod:`.lines` (the
table's lines per game), :mod:`.table` (whole public messages), :mod:`.hand`
(a seat's hand message), :mod:`.summary` (event lines and deal summaries).
"""

from __future__ import annotations

from bot.present.render.common import (
    AI_LEVELS,
    CALL_NAMES,
    MESSAGE_LIMIT,
    SEAT_NAMES,
    SEAT_SHORT,
    SIDE_NAMES,
    SIDE_SHORT,
    SeatInfo,
    TableInfo,
    Terms,
    card_label,
    card_text,
    cards_text,
    fit,
    hand_text,
    seat_names,
    seat_short,
    sorted_cards,
    suit_symbol,
    suit_text,
    target_text,
    terms,
)
from bot.present.render.hand import (
    CALLS_IN_TEXT,
    action_label,
    away_message,
    choice_note,
    featured_choices,
    hand_message,
)
from bot.present.render.lines import (
    auction_line,
    contract_name,
    last_trick_line,
    ruff_line,
    score_line,
    trick_line,
    tricks_line,
    trump_line,
    waiting_line,
)
from bot.present.render.ruffe_trump import contest_lines
from bot.present.render.solo import contract_line, exposed_lines, sides_line
from bot.present.render.summary import (
    SUMMARY_EVENTS,
    deal_summary,
    event_lines,
    how_won,
)
from bot.present.render.table import (
    alt_text,
    compact_table,
    final_text,
    header,
    lobby_text,
    rules_text,
    scores_text,
    table_lines,
    table_text,
    this_deal_text,
)
from bot.present.render.turnover import layout_lines, layout_text

__all__ = [
    "AI_LEVELS",
    "CALLS_IN_TEXT",
    "CALL_NAMES",
    "MESSAGE_LIMIT",
    "SEAT_NAMES",
    "SEAT_SHORT",
    "SIDE_NAMES",
    "SIDE_SHORT",
    "SUMMARY_EVENTS",
    "SeatInfo",
    "TableInfo",
    "Terms",
    "action_label",
    "choice_note",
    "alt_text",
    "compact_table",
    "scores_text",
    "table_lines",
    "this_deal_text",
    "card_text",
    "auction_line",
    "card_label",
    "card_text",
    "cards_text",
    "contest_lines",
    "contract_line",
    "contract_name",
    "deal_summary",
    "event_lines",
    "exposed_lines",
    "featured_choices",
    "final_text",
    "fit",
    "away_message",
    "hand_message",
    "hand_text",
    "header",
    "how_won",
    "last_trick_line",
    "layout_lines",
    "layout_text",
    "lobby_text",
    "ruff_line",
    "rules_text",
    "score_line",
    "seat_names",
    "seat_short",
    "sorted_cards",
    "sides_line",
    "suit_symbol",
    "suit_text",
    "table_text",
    "target_text",
    "terms",
    "trick_line",
    "tricks_line",
    "trump_line",
    "waiting_line",
]
