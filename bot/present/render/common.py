"""Shared pieces of the text renderers: seat and side names by table size, the
seat names of a table (:class:`TableInfo`), card and hand text, fitting a message
into Discord's limit."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.present.i18n import N_, TextMap, Texts, _, current, ngettext, using
from engine import HIGH, Card, RankOrder, Rules, Suit, sort_hand

# i18n: the seats' and sides' names and letters are read in the language of the moment
SEAT_NAMES = Texts((N_("North"), N_("East"), N_("South"), N_("West")))
# i18n: one-letter seat names: North, East, South, West
SEAT_SHORT = Texts((N_("N"), N_("E"), N_("S"), N_("W")))
SIDE_NAMES = Texts((N_("North & South"), N_("East & West")))
# i18n: the partnerships' letters: North & South, East & West
SIDE_SHORT = Texts((N_("NS"), N_("EW")))

_NAMES_BY_COUNT = {
    4: SEAT_NAMES,
    3: Texts((N_("North"), N_("East"), N_("West"))),
    2: Texts((N_("North"), N_("South"))),
}
_SHORT_BY_COUNT = {
    4: SEAT_SHORT,
    3: Texts((N_("N"), N_("E"), N_("W"))),
    2: Texts((N_("N"), N_("S"))),
}

# the calls of a contract auction, as buttons and the auction line show them
CALL_NAMES = TextMap(
    {
        "pass": N_("Pass"),
        "accept": N_("Accept"),
        "prop": N_("Propose"),
        "solo": N_("Solo"),
        "mis": N_("Misère"),
        "abund": N_("Abundance"),
        "royal": N_("Royal Abundance"),
        "spread": N_("Spread Misère"),
        "slam": N_("Slam"),
        "general": N_("General Misère"),
    }
)


# i18n: the AI players' levels, on buttons and beside their names
AI_LEVELS = TextMap({"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")})


def ai_name(name: str, level: str) -> str:
    """An AI player as every text names it, the way the records do: ``Cotton, AI easy``."""
    if level not in AI_LEVELS:  # the boards' fixed AI: its level is no player's business
        return _("{name}, AI").format(name=name)
    return _("{name}, AI {level}").format(name=name, level=AI_LEVELS.get(level, level))


def seat_names(n: int) -> tuple[str, ...]:
    """The seats' names at a table of ``n``: N E S W for four, N E W for three, N S for two."""
    return _names(n, current())


def seat_short(n: int) -> tuple[str, ...]:
    return _letters(n, current())


@functools.cache
def _names(n: int, language: str) -> tuple[str, ...]:
    # read on every line of every message: translated once per table size and language
    with using(language):
        return tuple(_NAMES_BY_COUNT.get(n, SEAT_NAMES))


@functools.cache
def _letters(n: int, language: str) -> tuple[str, ...]:
    with using(language):
        return tuple(_SHORT_BY_COUNT.get(n, SEAT_SHORT))


@dataclass(frozen=True, slots=True)
class Terms:
    """A family's own words for the shared parts of a deal (in English, marked with
    ``N_``: translate them where they are shown, ``_(t.stock)``)."""

    stock: str = N_("stock")
    ruff: str = N_("ruff")
    trick_points: str = ""  # how DealScored's trick points are named ("" = tricks over six)
    honour_points: str = ""  # how DealScored's honour points are named ("" = not shown)


_TERMS = {
    "ruffe_trump": Terms(
        stock=N_("head"),
        ruff=N_("rub"),
        trick_points=N_("cards over par"),
        honour_points=N_("ruff"),
    ),
    "bid_whist": Terms(stock=N_("kitty")),
}


def terms(rules: Rules) -> Terms:
    return _TERMS.get(rules.family, Terms())


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat, as the table shows it."""

    name: str
    user_id: int | None = None  # None for AI seats
    ai_level: str | None = None
    away: bool = False  # a human whose turns the AI is playing

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    def label(self, mention: bool = False) -> str:
        if self.user_id is None:
            return f"{self.name} 🤖"
        text = f"<@{self.user_id}>" if mention else self.name
        return text + (_(" (away: AI playing)") if self.away else "")


@dataclass(frozen=True, slots=True)
class TableInfo:
    """Static facts about a table used in every rendering."""

    table_id: int
    rules: Rules
    seats: tuple[SeatInfo | None, ...]
    guild_name: str = ""
    channel_name: str = ""
    jump_url: str = ""
    language: str = "en"  # the table's (public) language: what a picture drawn elsewhere speaks
    hints: bool = False  # a table with hints (``hints:on``): unrated

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def names(self) -> tuple[str, ...]:
        return seat_names(self.n)

    @property
    def short(self) -> tuple[str, ...]:
        return seat_short(self.n)

    @property
    def partnerships(self) -> bool:
        return self.rules.partnerships and self.n == 4

    def who(self, seat: int) -> str:
        info = self.seats[seat]
        return info.name if info else "—"

    def seat_name(self, seat: int) -> str:
        info = self.seats[seat]
        who = info.name if info else _("empty")
        return f"{self.names[seat]} ({who})"

    # scoring sides: a partnership, or each seat alone
    def scoring_sides(self) -> range:
        return range(2 if self.partnerships else self.n)

    def side_seats(self, side: int) -> list[int]:
        if self.partnerships:
            return [side, side + 2]
        return [side]

    def side_players(self, side: int) -> str:
        return " & ".join(self.who(s) for s in self.side_seats(side))

    def side_name(self, side: int) -> str:
        return SIDE_NAMES[side] if self.partnerships else self.names[side]

    def side_short(self, side: int) -> str:
        return SIDE_SHORT[side] if self.partnerships else self.short[side]

    def names_of(self, seats: Sequence[int]) -> str:
        """``East (bob), South (carol) and West (dave)``."""
        parts = [self.seat_name(s) for s in seats]
        if len(parts) <= 1:
            return "".join(parts)
        return ", ".join(parts[:-1]) + _(" and ") + parts[-1]


TEXT_STYLE = "\ufe0e"
"""Unicode's text variation selector. Discord draws a bare ♠ or ♣ as a black emoji
(a dark blob on the dark theme and on grey buttons); followed by this, the symbol is
drawn as a character in the text's own colour — light on the dark theme, dark on
the light one. Red suits stay as they are: red reads on both themes."""


def suit_symbol(suit: Suit) -> str:
    """The suit's symbol as the bot writes it: ♥ ♦ in red, ♠︎ ♣︎ in the text colour."""
    return suit.symbol if suit.is_red else suit.symbol + TEXT_STYLE


def card_text(card: Card) -> str:
    """A card as the bot writes it in messages (``10♣︎``, ``Q♥``); a joker by its
    name, ``Big Joker`` or ``Little Joker`` (it has no suit, so never a suit symbol)."""
    if card.is_joker:
        return _("Big Joker") if card.code == "BJ" else _("Little Joker")
    return rank_label(card) + suit_symbol(card.suit)


def card_label(card: Card) -> str:
    """A card on a button or in a menu: every suit in the text style, so the symbol is
    drawn in the label's own colour (white on the green "you may play this" button,
    where a red ♥ would hardly read). The row a card sits on already says its suit."""
    if card.is_joker:
        return card_text(card)
    return rank_label(card) + card.suit.symbol + TEXT_STYLE


def suit_text(suit: Suit | None) -> str:
    return _("no trumps") if suit is None else f"{suit_symbol(suit)} {suit_name(suit)}"


# i18n: the suits' names, as "Trumps: ♥ hearts" shows them
SUIT_NAMES = TextMap({"C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "S": N_("spades")})


def suit_name(suit: Suit) -> str:
    """The suit's name in the language of the moment (``hearts``, ``Herz``)."""
    return SUIT_NAMES.get(suit.value, suit.name.lower())


# i18n: the court cards' letters on cards and in hands (German: B for Bube, D for Dame)
RANK_LETTERS = TextMap({"J": N_("J"), "Q": N_("Q"), "K": N_("K"), "A": N_("A")})


def rank_label(card: Card) -> str:
    """The card's rank as the language of the moment writes it (``Q``, German ``D``)."""
    label = card.rank.label
    return RANK_LETTERS.get(label, label)


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card_text(c) for c in cards) if cards else "—"


def sorted_cards(
    cards: Iterable[Card], trump: Suit | None, order: RankOrder = HIGH, jokers_last: bool = False
) -> list[Card]:
    """Cards in display order: by suit as :func:`engine.sort_hand` groups them (trumps
    first), each suit best card first in the deal's rank ``order`` (downtown: A 2 3 …);
    jokers (Big, then Little) first, as the top trumps, or last (``jokers_last``: in
    no trump, where they never win)."""
    cards = list(cards)
    jokers = sorted((c for c in cards if c.is_joker), key=lambda c: -c.index)
    natural = sort_hand([c for c in cards if not c.is_joker], trump)
    if order is not HIGH:
        suits: dict[Suit, int] = {}
        for c in natural:
            suits.setdefault(c.suit, len(suits))
        natural.sort(key=lambda c: (suits[c.suit], -order.strength(c)))
    return natural + jokers if jokers_last else jokers + natural


def hand_text(
    cards: Sequence[Card], trump: Suit | None, order: RankOrder = HIGH, jokers_last: bool = False
) -> str:
    """``♥ A K 7 · ♠ Q 10`` grouped by suit, trumps first, in the deal's rank
    ``order``; jokers by name (``Big Joker · ♠ A K``), see :func:`sorted_cards`."""
    groups: list[str] = []
    current: Suit | None = None
    ranks: list[str] = []
    for card in sorted_cards(cards, trump, order, jokers_last):
        if card.is_joker:
            if ranks and current is not None:
                groups.append(f"{suit_symbol(current)} {' '.join(ranks)}")
            current, ranks = None, []
            groups.append(card_text(card))
            continue
        if card.suit is not current:
            if ranks and current is not None:
                groups.append(f"{suit_symbol(current)} {' '.join(ranks)}")
            current, ranks = card.suit, []
        ranks.append(rank_label(card))
    if ranks and current is not None:
        groups.append(f"{suit_symbol(current)} {' '.join(ranks)}")
    return " · ".join(groups) if groups else _("(no cards)")


MESSAGE_LIMIT = 2000  # Discord's limit on a message's content


def fit(lines: Sequence[str], limit: int = MESSAGE_LIMIT) -> str:
    """``lines`` joined, within Discord's limit: recent event lines (``• ``) go first,
    then the longest line is shortened (a long auction with long names)."""
    out = list(lines)
    while len("\n".join(out)) > limit and any(ln.startswith("• ") for ln in out):
        out.remove(next(ln for ln in out if ln.startswith("• ")))
    excess = len("\n".join(out)) - limit
    if excess > 0:
        i = max(range(len(out)), key=lambda k: len(out[k]))
        out[i] = "…" + out[i][excess + 1 :]
    return "\n".join(out)[:limit]


def target_text(rules: Rules) -> str:
    """What wins the game: ``game to 5``, ``first to 14 tricks`` (a deal is the point)."""
    tricks = rules.deal_won_at
    if tricks and rules.target_score <= 1:
        return _("first to {n} tricks").format(n=tricks)
    if tricks:
        return _("first to {target} deals, each won by the first to {n} tricks").format(
            target=rules.target_score, n=tricks
        )
    if rules.family == "bid_whist":  # the game ends at either end (RULES.md §7.8)
        return _("game to {target}, or lost at -{target}").format(target=rules.target_score)
    return (
        _("game to {target}").format(target=rules.target_score)
        if rules.target_score
        else _("each deal is a game")
    )


# ---------------------------------------------------------------- lines of the table


# The engine explains some scores in English notes (HonoursScored.note, the ruff
# contest's note); it never translates, so they are translated here, part by part.
_NOTES = TextMap.of(
    N_("not called at the call point: void"),
    N_("honours cannot win the game: capped"),
    N_("no trumps, no honours"),
    N_("honours split"),
    N_("no side holds three honours"),
    N_("nobody left to win the ruff"),
    N_("tie: the first from eldest wins"),
    N_("tie: no award"),
    N_("tie: split"),
    N_("false claim: the points pass to the true winner"),
)


def note_text(note: str) -> str:
    """An engine's note (``"honours split"``, ``"a side at 8 cannot score honours"``)
    in the language of the moment; a part it does not know stays as the engine wrote it."""
    parts = []
    for part in note.split("; "):
        known = _NOTES.get(part)
        if known is not None:
            parts.append(known)
            continue
        words = part.split(" ")
        if (
            part.startswith("a side at ")
            and part.endswith(" cannot score honours")
            and words[3].isdigit()
        ):
            parts.append(_("a side at {score} cannot score honours").format(score=words[3]))
        elif part.endswith(": no side holds three") and words[0].isdigit():
            out = int(words[0])
            parts.append(
                ngettext(
                    "{n} honour out of play: no side holds three",
                    "{n} honours out of play: no side holds three",
                    out,
                ).format(n=out)
            )
        else:
            parts.append(part)
    return "; ".join(parts)
