"""Pure rules engine for Ruff and Honours and its relatives.

No Discord, no asyncio, no I/O. Start with :func:`engine.new_game`.
"""

from engine.actions import (
    Action,
    ActionParseError,
    CallCanYe,
    DeclineRuff,
    Discard,
    Pass,
    Play,
    ShowHonours,
    TakeRuff,
    decode_action,
    discard,
    play,
)
from engine.cards import Card, CardParseError, Rank, Suit, parse_cards, sort_hand
from engine.events import Event
from engine.game import (
    Game,
    IllegalAction,
    Phase,
    RecordError,
    SeatView,
    deal_seats,
    new_game,
    stacked_deck,
    trick_winner,
)
from engine.rules import Rules, RulesError, game_ids, make_rules, presets_for

__all__ = [
    "Action",
    "ActionParseError",
    "CallCanYe",
    "Card",
    "CardParseError",
    "DeclineRuff",
    "Discard",
    "Event",
    "Game",
    "IllegalAction",
    "Pass",
    "Phase",
    "Play",
    "Rank",
    "RecordError",
    "Rules",
    "RulesError",
    "SeatView",
    "ShowHonours",
    "Suit",
    "TakeRuff",
    "deal_seats",
    "decode_action",
    "discard",
    "game_ids",
    "make_rules",
    "new_game",
    "parse_cards",
    "play",
    "presets_for",
    "sort_hand",
    "stacked_deck",
    "trick_winner",
]
