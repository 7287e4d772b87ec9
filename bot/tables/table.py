"""The table registry's records: one :class:`Table` per game in memory, the
"My hand" copies it keeps up to date, and the bot's small shared constants and
helpers (seat names for AI players, option parsing, retry backoff).

The database row is the durable truth; a ``Table`` is what the manager holds
while the table is open.
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from bot.present.i18n import _
from bot.present.projection import TableFrame, seat_state, table_state
from bot.present.render import SeatInfo, TableInfo
from bot.present.render.common import ai_name
from bot.store import (
    AISeat,
    HumanSeat,
    Seat,
    TableRow,
)
from bot.tables.kinds import KindRules, TableKind, kind_of, rules_of
from engine import (
    RECORD_VERSION,
    Game,
    Rules,
    RulesError,
    SeatView,
    answering,
    make_rules,
    presets_for,
)

AI_NAMES = ("Cotton", "Willughby", "Hoyle", "Cavendish")
LEADERBOARD_PAGE = 10
TURN_WARNING_LEFT = 1 / 3  # remind the player when this share of the turn time is left
TURN_WARNING_MIN = 15.0  # no reminder for turn timeouts shorter than this (seconds)
TAKEOVER_LEVEL = "normal"  # the AI that plays an absent human's turns
HAND_COPIES = 3  # ephemeral "My hand" copies kept up to date per seat (older ones are let go)


class Refusal(Exception):
    """A request we answer with a short ephemeral message and no change."""


@dataclass(frozen=True)
class TableSettings:
    """A table's own settings, kept as JSON in its row (read once, here).

    Keys this version does not know (written by a later one) are kept as they were.
    """

    turn_timeout: float | None = None  # seconds a human has for a turn (None: the bot's default)
    # the names its hand DMs show, also after a restart (the guild cache is empty then)
    guild_name: str = ""
    channel_name: str = ""
    thread_id: int | None = (
        None  # the table's thread; 0: none (the channel is used); None: not tried yet
    )
    away: frozenset[int] = frozenset()  # seats the AI plays for until their player comes back
    misses: Mapping[int, int] = field(default_factory=dict)  # seat -> turns missed in a row
    notices: tuple[Notice, ...] = ()  # the turn's short-lived posts, deleted once it passes
    set_aside_notice: str = ""  # the channel was told this version could not load the table
    # what the table is (bot.tables.kinds): rated or not, its end, timers, the Hint button
    kind: TableKind = TableKind.ORDINARY
    board: str = ""  # the key of the board a ``board`` table plays (bot.features.daily.boards)
    event: str = ""  # the key of the board an ``event`` table plays (bot.tables.events)
    rated: bool = False  # an event's board the server chose to rate (``KindRules.rated_event``)
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableSettings:
        # "hints": the flag rows older than "kind" were told a hints table by (kind_of)
        known = {f for f in cls.__dataclass_fields__ if f != "extra"} | {"hints"}
        timeout = data.get("turn_timeout")
        thread = data.get("thread_id")
        return cls(
            turn_timeout=None if timeout is None else float(timeout),
            guild_name=str(data.get("guild_name", "")),
            channel_name=str(data.get("channel_name", "")),
            thread_id=None if thread is None else int(thread),
            away=frozenset(int(s) for s in data.get("away", ())),
            misses={int(k): int(v) for k, v in dict(data.get("misses", {})).items() if v},
            notices=tuple(Notice(*(int(x) for x in n)) for n in data.get("notices", ())),
            set_aside_notice=str(data.get("set_aside_notice", "")),
            kind=kind_of(data),
            board=str(data.get("board", "")),
            event=str(data.get("event", "")),
            rated=data.get("rated") is True,
            extra={k: v for k, v in data.items() if k not in known},
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.extra)
        if self.turn_timeout is not None:
            out["turn_timeout"] = (
                int(self.turn_timeout) if self.turn_timeout.is_integer() else self.turn_timeout
            )
        if self.guild_name:
            out["guild_name"] = self.guild_name
        if self.channel_name:
            out["channel_name"] = self.channel_name
        if self.thread_id is not None:
            out["thread_id"] = self.thread_id
        out["away"] = sorted(self.away)
        out["misses"] = {str(k): v for k, v in sorted(self.misses.items()) if v}
        if self.notices:
            out["notices"] = [list(n) for n in self.notices]
        if self.set_aside_notice:
            out["set_aside_notice"] = self.set_aside_notice
        if self.kind is not TableKind.ORDINARY:
            out["kind"] = self.kind.value
        if self.kind is TableKind.HINTS:
            out["hints"] = True  # the standings' SQL leaves these games unrated by it
        if self.board:
            out["board"] = self.board
        if self.event:
            out["event"] = self.event
        if self.rated:
            out["rated"] = True
        return out


class Notice(NamedTuple):
    """A short-lived post about a turn (a ping, a warning), deleted once the turn passes."""

    seat: int
    version: int
    channel_id: int
    message_id: int


@dataclass
class Drive:
    """What moves a table between clicks: its AI task, its timers (``bot.tables.drivers``)."""

    ai_task: asyncio.Task[None] | None = None
    timer_task: asyncio.Task[None] | None = None
    ping_task: asyncio.Task[None] | None = None  # the turn ping waiting for its delay
    deadline: float | None = None
    timer_failures: int = 0
    # (engine version, seat, due) of a turn deadline already stored with the move
    # that began the turn (bot.tables.commit): the timer arms with it and writes nothing
    turn_due: tuple[int, int, float] | None = None

    def cancel_timer(self) -> None:
        """Stop the turn or lobby timer (never the task this runs in)."""
        current = asyncio.current_task()
        if (
            self.timer_task is not None
            and not self.timer_task.done()
            and self.timer_task is not current
        ):
            self.timer_task.cancel()
        self.timer_task = None
        self.deadline = None
        if (
            self.ping_task is not None
            and not self.ping_task.done()
            and self.ping_task is not current
        ):
            self.ping_task.cancel()
        self.ping_task = None

    def stop(self, keep_ai: bool = False) -> None:
        """Stop the timer and (unless ``keep_ai``) the AI driver: the table has ended."""
        self.cancel_timer()
        current = asyncio.current_task()
        if (
            not keep_ai
            and self.ai_task is not None
            and not self.ai_task.done()
            and self.ai_task is not current
        ):
            self.ai_task.cancel()


class FrontState(Protocol):
    """What the front that shows a table keeps with it (the Discord front's
    ``bot.discord_ui.shown.Shown``: its caches, notices and private copies), opaque
    to the table layer but for one question."""

    def follows(self) -> bool:
        """Whether this process shows something of the table that must follow its
        moves, also those another process makes (a private copy of a hand)."""
        ...


@dataclass
class Table:
    """One table in memory, by concern: what its row stores (written only by
    ``bot.tables.commit``), the game, what drives it (:class:`Drive`) and what the
    front that shows it keeps with it (``front``, opaque here: :class:`FrontState`).
    The database row is the durable truth."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    rules: Rules
    game_id: str
    preset: str
    overrides: dict[str, Any]
    seed: int
    first_dealer: int | None
    status: str
    seats: list[Seat | None]
    settings: TableSettings
    db_version: int
    message_id: int | None = None
    record_version: int = RECORD_VERSION  # the engine record version its game replays under
    game: Game | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # (version before, seat, actor user id or None for the AI) of the latest commits,
    # so a click that lost a race can be told what happened to its turn.
    moves: deque[tuple[int, int, int | None]] = field(
        default_factory=lambda: deque(maxlen=MOVES_KEPT)
    )
    drive: Drive = field(default_factory=Drive)
    # the language of everything public about the table (its message, thread posts,
    # summaries): the server's ``/ruff settings language:``, kept current by ServerSettings
    language: str = "en"
    # seat -> (channel, message) of its hand DM: loaded with the table (start-up, another
    # process's copy), then as the front sends them (it stores each, commit.keep_hand_message)
    hand_messages: dict[int, tuple[int, int]] = field(default_factory=dict)
    # the seats' views of the game as it stands (:meth:`view`): the game they are of, its
    # version, and seat -> view; a move (a new game object or version) starts them over
    seen: tuple[Game | None, int, dict[int, SeatView]] = field(
        default_factory=lambda: (None, -1, {})
    )
    front: FrontState | None = None  # the front's own state of the table (opaque here)

    @classmethod
    def from_row(cls, row: TableRow) -> Table:
        return cls(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            creator_id=row.creator_id,
            rules=make_rules(row.game_id, row.preset, row.overrides),
            game_id=row.game_id,
            preset=row.preset,
            overrides=dict(row.overrides),
            seed=row.seed,
            first_dealer=row.first_dealer,
            status=row.status,
            seats=list(row.seats),
            settings=TableSettings.from_json(row.settings),
            db_version=row.version,
            message_id=row.message_id,
            record_version=row.record_version,
        )

    @property
    def away(self) -> frozenset[int]:
        """Seats the AI plays for until their player presses **Take my seat back**."""
        return self.settings.away

    @property
    def misses(self) -> Mapping[int, int]:
        """Turns each seat missed in a row."""
        return self.settings.misses

    @property
    def kind(self) -> TableKind:
        """What the table is (:class:`~bot.tables.kinds.TableKind`)."""
        return self.settings.kind

    @property
    def kind_rules(self) -> KindRules:
        """What the table does as its kind, an event's choice to rate its boards
        included (:func:`~bot.tables.kinds.rules_of`)."""
        return rules_of(self.kind, rated=self.settings.rated)

    # ------------------------------------------------------------ queries

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if isinstance(seat, HumanSeat) and seat.user_id == user_id:
                return i
        return None

    def shows_hand_copies(self) -> bool:
        """True while this process's front shows something of the table that follows
        its moves (a "My hand" copy kept current)."""
        return self.front is not None and self.front.follows()

    def human(self, seat: int) -> HumanSeat | None:
        occupant = self.seats[seat]
        return occupant if isinstance(occupant, HumanSeat) else None

    def view(self, seat: int) -> SeatView:
        """``seat``'s view of the game as it stands (``Game.observe``), worked out once
        per move: the hand DMs, the table message, its picture and the AI all ask."""
        game = self.game
        assert game is not None
        memo_game, memo_version, views = self.seen
        if memo_game is not game or memo_version != game.version:
            views = {}
            self.seen = (game, game.version, views)
        found = views.get(seat)
        if found is None:
            found = views[seat] = game.observe(seat)
        return found

    def ai_plays(self, seat: int) -> bool:
        return not isinstance(self.seats[seat], HumanSeat) or seat in self.away

    def ai_level(self, seat: int) -> str:
        occupant = self.seats[seat]
        if isinstance(occupant, AISeat):
            return occupant.ai
        return TAKEOVER_LEVEL

    def info(self) -> TableInfo:
        seats: list[SeatInfo | None] = []
        for i, seat in enumerate(self.seats):
            if isinstance(seat, HumanSeat):
                seats.append(SeatInfo(seat.name, seat.user_id, away=i in self.away))
            elif isinstance(seat, AISeat):
                seats.append(SeatInfo(ai_name(seat.name, seat.ai), None, seat.ai))
            else:
                seats.append(None)
        jump = ""
        if self.message_id:
            jump = (
                f"https://discord.com/channels/{self.guild_id}/{self.channel_id}/{self.message_id}"
            )
        names = self.settings
        return TableInfo(
            self.id,
            self.rules,
            tuple(seats),
            names.guild_name,
            names.channel_name,
            jump,
            self.language,
            self.kind.rules.hint_button,
        )

    def frame(self) -> TableFrame:
        """What the JSON projection needs beside the game: seats, status, version, and
        the deadline running now (the lobby's, or the turn's)."""
        return TableFrame(
            self.id,
            self.game_id,
            self.preset,
            self.status,
            self.version,
            self.creator_id,
            self.info().seats,
            self.kind.rules.hint_button,
            self._deadline(),
            self.kind_rules.rematch,
        )

    def _deadline(self) -> float | None:
        """The deadline running now: the lobby's, or the turn's of the seat to act."""
        if self.status == "lobby":
            return self.drive.deadline
        seat = self.game.to_act() if self.game is not None else None
        return None if seat is None else turn_deadline(self, seat)

    def public_state(self) -> dict[str, Any]:
        """The public table as JSON (``bot.present.projection.table_state``)."""
        views = [self.view(s) for s in range(len(self.seats))] if self.game else []
        return table_state(self.frame(), views)

    def seat_state(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know of the table, as JSON (``seat_state``); before the
        game starts, the lobby (``you`` is then None)."""
        return seat_state(self.frame(), seat, self.view(seat) if self.game else None)

    @property
    def thread_id(self) -> int | None:
        """The thread started from the table message (None: none, the channel is used)."""
        return self.settings.thread_id or None

    @property
    def feed_id(self) -> int:
        """Where deal summaries and pings go: the table's thread, else its channel."""
        return self.thread_id or self.channel_id

    @property
    def version(self) -> int:
        return self.game.version if self.game else 0

    def stop_tasks(self, keep_ai: bool = False) -> None:
        """The table has ended: stop its timers and (unless ``keep_ai``) its AI."""
        self.drive.stop(keep_ai)


RETRY_BASE_DELAY = 0.05  # first retry of a failed AI move or timer expiry (seconds)
RETRY_MAX_DELAY = 5.0


def retry_backoff(attempt: int) -> float:
    """Exponential backoff with jitter for the ``attempt``-th retry (1-based)."""
    delay: float = min(RETRY_MAX_DELAY, RETRY_BASE_DELAY * 2.0 ** (attempt - 1))
    return delay * random.uniform(0.5, 1.0)


MOVES_KEPT = 8  # the latest commits a table remembers (Table.moves)
SET_ASIDE_MARK = "v1"  # the channel of a set-aside table is told once
ACK_WITHIN = 2.0  # seconds a click waits for its commit before it is deferred (Discord allows 3)
ACK_SAMPLES = 10_000  # click-to-ack latencies kept (the most recent), for benchmarks and logs


def first_free(seats: Sequence[Seat | None]) -> int | None:
    return next((i for i, s in enumerate(seats) if s is None), None)


def turn_deadline(table: Table, seat: int) -> float | None:
    """When the turn timer plays ``seat``'s turn now waiting (epoch seconds), if it runs."""
    game = table.game
    if game is None or game.to_act() != seat:
        return None
    due = table.drive.turn_due
    if due is not None and due[:2] == (game.version, seat):
        return due[2]  # stored with the move that began the turn
    running = table.drive.timer_task is not None and not table.drive.timer_task.done()
    return table.drive.deadline if running else None


def hand_signature(table: Table, seat: int, content: str) -> str:
    """What a hand message shows, ignoring button versions when no button is live."""
    game = table.game
    live = (
        game is not None
        and (game.to_act() == seat or seat in answering(game))
        and seat not in table.away
    )
    return f"{live}:{game.version if live and game else ''}:{hash(content)}"  # a hash: one per seat, kept


def parse_options(text: str | None) -> dict[str, str]:
    """``"ruff_mandatory=true, target_score=7"`` (or ``name:value``) -> dict; raises
    RulesError if malformed."""
    out: dict[str, str] = {}
    if not text:
        return out
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        key, sep, value = part.partition("=")
        if not sep:  # ``hints:on`` reads as ``hints=on``
            key, sep, value = part.partition(":")
        if not sep or not key.strip() or not value.strip():
            raise RulesError(
                _("options are name=value pairs separated by commas; could not read {part}").format(
                    part=repr(part)
                )
            )
        out[key.strip()] = value.strip()
    return out


HINT_VALUES = {"on": True, "true": True, "yes": True, "off": False, "false": False, "no": False}


def take_hints(options: dict[str, str]) -> bool:
    """Remove the table option ``hints`` (on | off) from ``options``, which are otherwise
    the game's rule parameters, and return it: hints are a setting of the table, not a
    rule of the game. Raises RulesError for a value other than on or off."""
    value = options.pop("hints", "off").strip().lower()
    if value not in HINT_VALUES:
        raise RulesError(_("hints is on or off, not {value}").format(value=repr(value)))
    return HINT_VALUES[value]


def preset_choices(game_id: str | None) -> list[str]:
    try:
        return presets_for(game_id or "ruff-honours-cotton")
    except RulesError:
        return []
