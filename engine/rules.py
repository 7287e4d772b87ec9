"""Game definitions: parameters, presets and the frozen :class:`Rules` they build.

Every game id, parameter name, value and preset name here is the one used in
``RULES.md`` so a reader can move between the two. A :class:`Rules` object is the
whole variant configuration of a game; it never changes while a game runs.

Decisions where RULES.md is silent (each also listed in docs/rules-decisions.md):

* ``call_point`` follows ``target_score - 1`` when the target is overridden and
  the call point is not (RULES.md §1.5 defines the default as "8 = target - 1").
  With ``target_score = 1`` there is no score below the target, so the call
  point becomes ``none`` (Can-ye and the call-point honours rules never apply).
* ``honours_basis = captured`` cannot be combined with a numeric ``call_point``
  or ``any``: RULES.md §1.9 notes Can-ye is impossible when honours count by
  capture, so such overrides are rejected rather than silently ignored.
* ``match_format = best_of_3`` / ``rubber_bo3``: the first side to win two games
  wins the match. Rubber points (treble/double/single plus 2 for the rubber) are
  computed only where a game sets ``game_value = by_losers_score`` and
  ``rubber_points = game_values_plus_2`` (``whist-short-classic``, the one preset
  whose laws define them); every other game counts games won.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Final

from engine.cards import Rank, Suit

__all__ = [
    "GAMES",
    "GameDef",
    "HONOURS_VALUES",
    "ParamSpec",
    "Rules",
    "RulesError",
    "game_ids",
    "make_rules",
    "presets_for",
    "register_game",
]


class RulesError(ValueError):
    """An unknown game, preset, parameter or parameter value."""


# --------------------------------------------------------------------------- values

HonoursValues = tuple[tuple[int, int], ...]
TrumpCycle = tuple[Suit | None, ...]


@dataclass(frozen=True, slots=True)
class Rules:
    """The complete, frozen variant configuration of one game.

    Field names are RULES.md parameter names where one exists. Fields without a
    RULES.md name (``players``, ``hand_size`` ...) are structural facts of the
    game id that the engine needs.
    """

    game_id: str
    preset: str
    title: str
    # structure
    players: int = 4
    partnerships: bool = True
    removed_ranks: tuple[Rank, ...] = ()
    hand_size: int = 12
    deal_pattern: str = "packets4"
    first_dealer: str = "random"
    # trumps
    trump_mode: str = "turn_up"  # turn_up | cycle
    turn_up_source: str = "stock_top"  # stock_top | dealer_last | eldest_last
    trump_cycle: TrumpCycle = (Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS)
    trump_cycle_basis: str = "per_game"
    # the ruff (exchange with the stock)
    ruff: bool = False
    ruff_if_ace_in_stock: str = "dealer"
    ruff_mandatory: bool = False
    ruff_discard_restriction: str = "none"
    # honours and Can-ye
    honours: bool = False
    honours_basis: str = "dealt"
    honours_values: HonoursValues = ((3, 2), (4, 4))
    honours_can_win: str = "true"  # true | false | not_at_target_minus_1
    call_point: int | str = "none"  # int | none | any
    can_ye_window: str = "before_first_lead"
    uncalled_honours_at_call_point: str = "score"
    # play and scoring
    first_leader: str = "eldest"
    score_order: str = "tricks_then_honours"
    target_score: int = 9
    match_format: str = "single"  # single | best_of_3 | rubber_bo3
    revoke_mode: str = "prevent"
    scoring_preset: str = ""  # whisk-48 only
    # structural facts with no RULES.md parameter name (set by a game's base, not
    # by users); each replaces what used to be a test of the game id
    family: str = "ruff_honours"  # engine.families module that plays the game
    game_value: str = "single"  # single | by_losers_score (treble/double/single, §5 Short Whist)
    rubber_points: str = "games_won"  # games_won | game_values_plus_2 (§5 Short Whist)
    deal_tricks: int = 0  # tricks per deal; 0 = one per card in hand
    # contracts and settlement (solo-whist, RULES.md §6.6)
    accept_rule: str = "any_in_turn"  # any_in_turn | next_only
    all_pass: str = "redeal"  # redeal | general_misere
    slam_trump: str = "declarer_choice"  # declarer_choice | none
    spread_exposure: str = "before_first_lead"  # before_first_lead | after_first_trick
    early_termination: bool = True
    point_table: str = "seed"  # seed | pagat | seven values low to high, "1,2,3,4,4,6,8"
    settlement: str = "zero_sum"  # zero_sum | declarer_only
    overtricks: str = "none"  # none | per_trick_1
    # Ruffe and Trump (RULES.md §4.8; ``rub_if_ace_in_head`` and ``rub_mandatory``
    # set ``ruff_if_ace_in_stock`` and ``ruff_mandatory``: the rub is an exchange
    # of the same shape as Cotton's ruff)
    mode: str = "double_hand"  # double_hand | single_hand
    ruff_measure: str = "pip_sum"  # pip_sum | card_count
    ruff_bonus: int = 12
    ruff_tie: str = "eldest_priority"  # eldest_priority | no_award | split
    ruff_announce: str = "automatic"  # automatic | declared
    win_check: str = "immediate"  # immediate | end_of_deal
    # Turnover Bridge (RULES.md §8.6; its ``trump`` parameter sets ``trump_mode``)
    layout: str = ""  # seed004 | pagat; "" = no layouts
    stop_at_majority: bool = False  # the deal ends when a side has more than half the tricks
    scoring: str = ""  # deal_win | odd_tricks
    # Bid Whist (RULES.md §7.9; ``all_pass`` and ``first_leader`` above take its
    # values too, ``kitty_positions`` sets ``deal_pattern``)
    jokers: int = 0  # jokers in the pack: 2, 1 or 0 (0 outside Bid Whist)
    kitty_positions: str = "remainder"  # remainder | interleaved (deal_pattern singles_kitty)
    min_bid: int = 3
    same_number_order: str = "u<d<nt"  # u<d<nt | no_equal
    dealer_can_match: bool = False
    declare_before_kitty: bool = True
    kitty_exposed: bool = False
    downtown_ace: str = "high"  # high | low
    nt_jokers: str = "powerless"  # powerless | bidder_discards
    made_score: str = "books_over_six"  # books_over_six | bid_only
    nt_multiplier: int = 2
    boston: str = "normal"  # normal | wins_game | double
    # a board (engine.boards), for every game id: ``deals`` = 1 ends the match after
    # its first scored deal (0: play to the target); ``start_scores`` is the score
    # each side stands at when the first deal begins (empty: none)
    deals: int = 0
    start_scores: tuple[int, ...] = ()
    overrides: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    # ---- derived facts
    @property
    def deck_size(self) -> int:
        """Cards in the pack (52 or 48, plus any jokers)."""
        return 52 - 4 * len(self.removed_ranks) + self.jokers

    @property
    def stock_size(self) -> int:
        """Cards left undealt (the stock); 4 in Ruff and Honours, else 0."""
        return self.deck_size - self.players * self.hand_size

    @property
    def tricks_per_deal(self) -> int:
        """Tricks in a deal (``deal_tricks``, else the hand size)."""
        return self.deal_tricks or self.hand_size

    @property
    def deal_won_at(self) -> int:
        """Tricks that win a deal outright where the deal itself is the point
        (``scoring = deal_win``: Turnover Bridge's 14 of 26); 0 where tricks score
        otherwise."""
        return self.tricks_per_deal // 2 + 1 if self.scoring == "deal_win" else 0

    @property
    def cards_par(self) -> int:
        """Where each side scores the cards it wins in tricks beyond a par (Ruffe and
        Trump), that par: the cards played over the scoring sides; 0 elsewhere."""
        if self.family != "ruffe_trump":
            return 0
        return self.players * self.tricks_per_deal // self.sides

    @property
    def sides(self) -> int:
        """Number of scoring sides (2 for partnership games)."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        """The side (0 = seats 0 and 2, 1 = seats 1 and 3) a seat plays for."""
        return seat % 2 if self.partnerships else seat

    def next_dealer(self, dealer: int) -> int:
        """Who deals after ``dealer``: the deal passes to the left."""
        return (dealer + 1) % self.players

    @property
    def scores_rubber_points(self) -> bool:
        """Whether a match is scored in rubber points beyond the games won (``rubber_points``)."""
        return self.rubber_points != "games_won"

    @property
    def concession_asks_partner(self) -> bool:
        """Whether a seat's concession waits for its partner's answer (every table but two players)."""
        return self.players != 2

    def honour_points(self, count: int) -> int:
        """Points for a side holding ``count`` honours (0 below three)."""
        for held, points in self.honours_values:
            if held == count:
                return points
        return 0

    @property
    def can_ye_enabled(self) -> bool:
        """Whether any early calling of honours exists in this game."""
        return self.honours and self.call_point != "none"

    def can_call_at(self, score: int) -> bool:
        """Whether a side standing at ``score`` may call Can-ye / show honours."""
        if not self.can_ye_enabled:
            return False
        if self.call_point == "any":
            return True
        return score == self.call_point

    @property
    def games_to_win_match(self) -> int:
        """Games a side must win to take the match (1 for a single game)."""
        return 1 if self.match_format == "single" else 2

    def describe(self) -> list[str]:
        """Human-readable lines summarising the rules that matter at the table.

        A family that describes its own games (a ``describe(rules)`` method)
        answers for them.
        """
        from engine.families import family_of  # noqa: PLC0415 - the families import this module

        own = getattr(family_of(self), "describe", None)
        if own is not None:
            return list(own(self))
        lines = [f"{self.title} — preset `{self.preset}`"]
        lines.append(
            f"{self.deck_size}-card pack, {self.hand_size} cards each"
            + (f", {self.stock_size}-card stock" if self.stock_size else "")
        )
        if self.trump_mode == "cycle":
            names = ", ".join(
                "no trumps" if s is None else s.name.lower() for s in self.trump_cycle
            )
            lines.append(f"Trumps rotate each deal: {names}.")
        elif self.turn_up_source == "stock_top":
            lines.append("Top card of the stock is turned: its suit is trumps.")
        else:
            who = "dealer's" if self.turn_up_source == "dealer_last" else "eldest's"
            lines.append(f"The {who} last card is turned for trumps and stays in that hand.")
        if self.ruff:
            lines.append(
                "The holder of the trump ace ruffs: takes the stock and lays out four cards"
                + (" (compulsory)." if self.ruff_mandatory else " (optional).")
            )
        lines.append(
            "Follow suit if you can; trumping is never forced. 1 point per trick over six."
        )
        if self.honours:
            vals = ", ".join(f"{h} honours = {p}" for h, p in self.honours_values)
            lines.append(
                f"Honours (A K Q J of trumps, {self.honours_basis.replace('_', ' ')}): {vals}."
            )
            if self.honours_can_win == "false":
                lines.append("Honours cannot win the game.")
            elif self.honours_can_win == "not_at_target_minus_1":
                lines.append(f"A side at {self.target_score - 1} cannot score honours.")
            if self.call_point == "any":
                lines.append("Honours may be called at any score (Can-ye).")
            elif self.call_point != "none":
                lines.append(
                    f"At {self.call_point}, a player with two honours may call Can-ye; "
                    "if partner holds one, the side wins. Three honours shown win outright."
                )
        lines.append(f"Game is {self.target_score}.")
        if self.match_format != "single":
            lines.append("Best of three games.")
        return lines


# --------------------------------------------------------------------------- parameters


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One named parameter of a game id: its allowed values and default."""

    name: str
    kind: str  # choice | bool | int | call_point | honours_values | trump_cycle
    default: object
    choices: tuple[str, ...] = ()
    field_name: str = ""  # Rules field it sets (defaults to name)
    minimum: int = 1
    maximum: int = 100

    @property
    def target(self) -> str:
        return self.field_name or self.name

    def describe(self) -> str:
        """``name: a | b | c (default a)``."""
        if self.choices:
            values = " | ".join(self.choices)
        elif self.kind == "bool":
            values = "true | false"
        elif self.kind == "int":
            values = f"{self.minimum}..{self.maximum}"
        elif self.kind == "call_point":
            values = "integer | none | any"
        elif self.kind == "honours_values":
            values = "e.g. 3:2,4:4"
        elif self.kind == "scores":
            values = "e.g. 8,8"
        else:
            values = "e.g. H,D,S,C or NT,S,H,D,C"
        return f"{self.name}: {values} (default {_format_value(self.default)})"

    def parse(self, raw: object) -> object:
        """Validate and convert ``raw`` (a Python value or a string) for this parameter."""
        try:
            return self._parse(raw)
        except RulesError:
            raise
        except (ValueError, TypeError):
            raise RulesError(f"bad value {raw!r} for {self.describe()}") from None

    def _parse(self, raw: object) -> object:
        if self.kind == "choice":
            text = str(raw).strip().lower()
            if text not in self.choices:
                raise RulesError(f"bad value {raw!r} for {self.describe()}")
            return text
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("true", "yes", "on", "1"):
                return True
            if text in ("false", "no", "off", "0"):
                return False
            raise RulesError(f"bad value {raw!r} for {self.describe()}")
        if self.kind == "int":
            if isinstance(raw, bool):
                raise RulesError(f"bad value {raw!r} for {self.describe()}")
            value = int(str(raw).strip()) if not isinstance(raw, int) else raw
            if not self.minimum <= value <= self.maximum:
                raise RulesError(f"bad value {raw!r} for {self.describe()}")
            return value
        if self.kind == "call_point":
            if isinstance(raw, int) and not isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("none", "any"):
                return text
            return int(text)
        if self.kind == "honours_values":
            return _parse_honours_values(raw)
        if self.kind == "trump_cycle":
            return _parse_trump_cycle(raw)
        if self.kind == "scores":
            parts = raw if isinstance(raw, (list, tuple)) else str(raw).replace(" ", "").split(",")
            return tuple(int(str(p)) for p in parts if str(p) != "")
        raise RulesError(f"unknown parameter kind {self.kind}")  # pragma: no cover


def _parse_honours_values(raw: object) -> HonoursValues:
    items: list[tuple[int, int]]
    if isinstance(raw, Mapping):
        items = [(int(k), int(v)) for k, v in raw.items()]
    elif isinstance(raw, (list, tuple)):
        items = [(int(k), int(v)) for k, v in raw]
    else:
        text = str(raw).strip().strip("{}")
        items = []
        for part in text.split(","):
            key, _, value = part.partition(":")
            items.append((int(key), int(value)))
    result = tuple(sorted(items))
    if [k for k, _ in result] != [3, 4] or any(v < 0 for _, v in result):
        raise RulesError(f"honours_values needs points for 3 and 4 honours, got {raw!r}")
    return result


def _parse_trump_cycle(raw: object) -> TrumpCycle:
    parts = raw if isinstance(raw, (list, tuple)) else str(raw).replace(" ", "").split(",")
    cycle: list[Suit | None] = []
    for part in parts:
        if part is None or str(part).upper() == "NT":
            cycle.append(None)
        elif isinstance(part, Suit):
            cycle.append(part)
        else:
            cycle.append(Suit.parse(str(part)))
    if not cycle:
        raise RulesError("trump_cycle must name at least one suit or NT")
    return tuple(cycle)


def _format_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return ",".join(f"{k}:{v}" for k, v in value)
    if isinstance(value, tuple) and value and isinstance(value[0], int):
        return ",".join(str(v) for v in value)
    if isinstance(value, tuple):
        return ",".join("NT" if s is None else s.value for s in value)
    return str(value)


def _choice(name: str, default: str, *choices: str, field_name: str = "") -> ParamSpec:
    return ParamSpec(name, "choice", default, tuple(choices), field_name)


def _bool(name: str, default: bool) -> ParamSpec:
    return ParamSpec(name, "bool", default)


def _int(name: str, default: int, lo: int = 1, hi: int = 100) -> ParamSpec:
    return ParamSpec(name, "int", default, minimum=lo, maximum=hi)


HONOURS_VALUES = ParamSpec("honours_values", "honours_values", ((3, 2), (4, 4)))

# Parameters every game id takes: what makes a game a board (engine.boards) — one
# deal, at a given score. RULES.md has no name for them (docs/rules-decisions.md).
BOARD_PARAMS: Final = (
    ParamSpec("deals", "int", 0, minimum=0, maximum=1),
    ParamSpec("start_scores", "scores", ()),
)

# --------------------------------------------------------------------------- game ids


@dataclass(frozen=True, slots=True)
class GameDef:
    """A game id: title, fixed structure, parameters and named presets."""

    game_id: str
    title: str
    base: Mapping[str, object]
    params: tuple[ParamSpec, ...]
    presets: Mapping[str, Mapping[str, object]]
    default_preset: str
    summary: str = ""
    # parameters whose value expands into a bundle of other parameters before
    # explicit values apply (whisk-48's scoring_preset, RULES.md §3)
    bundles: Mapping[str, Mapping[str, Mapping[str, object]]] = field(default_factory=dict)
    # a family's own steps in make_rules: ``adjust(values, given)`` fills values
    # that follow others (a target that depends on the number of players) before
    # the Rules are built, ``given`` being the names set by the preset or the
    # caller; ``check(rules)`` raises RulesError for a combination not allowed
    adjust: Callable[[dict[str, object], frozenset[str]], None] | None = None
    check: Callable[[Rules], None] | None = None

    def param(self, name: str) -> ParamSpec:
        for spec in (*self.params, *BOARD_PARAMS):
            if spec.name == name:
                return spec
        known = ", ".join(p.name for p in (*self.params, *BOARD_PARAMS))
        raise RulesError(f"unknown parameter {name!r} for {self.game_id} (known: {known})")


# The registry of game ids. Each game family module (engine/families/) registers
# its GameDefs when engine.families is imported, which importing engine does.
GAMES: Final[dict[str, GameDef]] = {}


def register_game(game: GameDef) -> None:
    """Add a game id (called by the family modules as they are imported)."""
    if game.game_id in GAMES:
        raise ValueError(f"game id {game.game_id!r} is registered twice")
    GAMES[game.game_id] = game


def game_ids() -> list[str]:
    """Every playable game id, in a stable order."""
    return list(GAMES)


def presets_for(game_id: str) -> list[str]:
    """The preset names of a game id, default first."""
    game = _game(game_id)
    names = list(game.presets)
    names.remove(game.default_preset)
    return [game.default_preset, *names]


def _game(game_id: str) -> GameDef:
    try:
        return GAMES[game_id]
    except KeyError:
        raise RulesError(f"unknown game {game_id!r} (known: {', '.join(GAMES)})") from None


_RULES_FIELDS: Final = {f.name for f in fields(Rules)}


def make_rules(
    game_id: str = "ruff-honours-cotton",
    preset: str | None = None,
    overrides: Mapping[str, object] | None = None,
) -> Rules:
    """Build the frozen rules for ``game_id`` under ``preset`` plus ``overrides``.

    Overrides use RULES.md parameter names; values may be Python values or the
    strings a user would type (``"true"``, ``"3:2,4:3"``, ``"NT,S,H,D,C"``).
    Raises :class:`RulesError` with a readable message for anything unknown.
    Rules are immutable, so the same request returns the same (shared) value.
    """
    try:
        key = (game_id, preset, tuple(sorted((overrides or {}).items())))
        known = _MADE.get(key)
    except TypeError:  # an override given as a list or a dict: built afresh
        key, known = None, None
    if known is not None:
        return known
    rules = _make_rules(game_id, preset, overrides)
    if key is not None:
        if len(_MADE) >= _MADE_KEPT:
            _MADE.clear()
        _MADE[key] = rules
    return rules


_MADE: dict[object, Rules] = {}
_MADE_KEPT: Final = 1024  # rule sets kept (a bot's tables use a handful)


def _make_rules(
    game_id: str,
    preset: str | None,
    overrides: Mapping[str, object] | None,
) -> Rules:
    game = _game(game_id)
    preset_name = preset or game.default_preset
    if preset_name not in game.presets:
        raise RulesError(
            f"unknown preset {preset_name!r} for {game_id} (known: {', '.join(presets_for(game_id))})"
        )
    chosen: dict[str, object] = {}
    for name, raw in game.presets[preset_name].items():
        chosen[name] = game.param(name).parse(raw)
    given: dict[str, object] = {}
    for name, raw in (overrides or {}).items():
        given[name] = game.param(name).parse(raw)
    chosen.update(given)

    values: dict[str, object] = {p.target: p.default for p in game.params}
    values.update(game.base)
    # a bundle parameter (whisk-48's scoring_preset) expands before explicit values apply
    for name, bundle in game.bundles.items():
        chosen_value = chosen.get(name, values.get(name))
        if isinstance(chosen_value, str) and chosen_value in bundle:
            values.update(bundle[chosen_value])
    for name, value in chosen.items():
        values[game.param(name).target] = value
    if "removed_cards" in values:
        values.pop("removed_cards")
        values["removed_ranks"] = (Rank.TWO,)
    if "honours" in values and isinstance(values["honours"], str):
        values["honours"] = values["honours"] == "on"
    if (
        "target_score" in given
        and "call_point" not in given
        and isinstance(values.get("call_point"), int)
    ):
        # the call point follows the target (8 = target - 1); a target of 1 leaves
        # no score below it to call at, so there is no call point at all
        follows = int(str(values["target_score"])) - 1
        values["call_point"] = follows if follows >= 1 else "none"

    if game.adjust is not None:
        game.adjust(values, frozenset(game.param(name).target for name in chosen))
    values = {k: v for k, v in values.items() if k in _RULES_FIELDS}
    rules = Rules(
        game_id=game_id,
        preset=preset_name,
        title=game.title,
        overrides=tuple(sorted((k, _format_value(v)) for k, v in given.items())),
        **values,  # type: ignore[arg-type]
    )
    _validate(rules)
    if game.check is not None:
        game.check(rules)
    return rules


def _validate(rules: Rules) -> None:
    if isinstance(rules.call_point, int) and not 1 <= rules.call_point < rules.target_score:
        if rules.target_score == 1:
            raise RulesError(
                f"call_point {rules.call_point} needs a target_score above 1: "
                "with target_score 1 use call_point=none"
            )
        raise RulesError(
            f"call_point {rules.call_point} must be from 1 to {rules.target_score - 1} "
            f"(below target_score {rules.target_score}), or none"
        )
    if rules.honours and rules.honours_basis == "captured" and rules.call_point != "none":
        raise RulesError(
            "Can-ye needs honours held in hand: use call_point=none with honours_basis=captured"
        )
    if rules.start_scores and (
        len(rules.start_scores) != rules.sides
        or not all(0 <= s < rules.target_score for s in rules.start_scores)
    ):
        raise RulesError(
            f"start_scores needs {rules.sides} scores, each 0..{max(0, rules.target_score - 1)}"
        )
    if rules.ruff and rules.stock_size != 4:  # pragma: no cover - structural
        raise RulesError("the ruff needs a four-card stock")


def rules_with(rules: Rules, **changes: object) -> Rules:
    """A copy of ``rules`` with raw field changes (for tests and tools)."""
    return replace(rules, **changes)  # type: ignore[arg-type]
