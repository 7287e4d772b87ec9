"""The web table's connections: one WebSocket per page, the feed in, actions out.

A page's socket opens with a ``hello`` frame carrying its session (who, and the
channel the Activity was launched in, both found out by the server at sign-in).
From then on:

* the server sends ``state`` frames: the seat's projection (``rh.seat/1``) to a
  seated player, the public table (``rh.table/1``) to anybody else, after every
  commit the feed publishes, after every lobby change, and when the page asks
  (``sync``, a reconnect). The feed only marks each page's state owed (under the
  table's lock nothing else is done); the page's writer builds it off the lock from
  the table as it is then — whole, so a burst of commits costs one build and one
  send — once per kind of viewer and language between two changes of the table
  (a *revision*), shared by every page on it, and only from the projection of
  :mod:`bot.present.projection` over the table's own seat views: no frame carries a
  card its receiver may not know. The public table reads one seat's view (every
  seat's only where a kitty lies taken). A page that holds the previous document
  of its kind is sent a ``delta`` frame instead: the changed fields of that
  document (the top level, ``game`` and ``you`` each one level deep), with the
  revision it applies to (``base``) and the one it makes (``rev``); a page whose
  document is not that ``base`` asks for the whole (``sync``);
* the page sends ``act`` (an action id and the version it was chosen at): it goes
  through :func:`bot.tables.act.act`, the same refusals and the same durable
  commit as a Discord button, and the page gets an ``outcome`` frame;
* in the lobby, ``lobby`` frames join, leave, add an AI or start; at any time a
  ``table`` frame cancels the table, takes a seat back from the AI or opens a
  rematch of a finished game, and a ``hint`` frame asks for a hint at a table with
  hints: all through the :class:`LobbyDoor` the wiring gives, the very calls the
  Discord buttons make (the same refusals, in the player's language);
* anything else, malformed, too frequent or with an expired session, gets an
  ``error`` frame and changes nothing.

What changes a table without a move (a lobby's seats, its start, a cancel, a seat
taken back, a new table opened in the channel, a rematch) reaches the pages through
the feed's changes (:meth:`bot.tables.feed.Feed.on_change`) as moves do: pushed,
never polled. Every text is written in the player's language, the one their DMs use
(:class:`bot.tables.user_locales.UserLocales`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, overload

from aiohttp import WSMsgType, web

from bot.present.i18n import _, using
from bot.present.projection import TableFrame, game_part, seat_state, table_state
from bot.store import StoreError
from bot.tables.act import act, outcome_text
from bot.tables.services import Services
from bot.tables.table import Table
from bot.web.session import Session, SessionError, Signer
from bot.web.texts import page_texts
from engine import Action, ActionParseError, Event, SeatView, decode_action

log = logging.getLogger(__name__)

__all__ = ["Connection", "Front", "LobbyDoor"]

LOBBY_VERBS = frozenset({"join", "leave", "ai-easy", "ai-normal", "ai-hard", "start"})
TABLE_VERBS = frozenset({"cancel", "reclaim", "rematch"})
MAX_ACTIONS = 16  # the longest lay-out is a handful of cards; a claim is one action
MAX_ACTION_TEXT = 24
HELLO_WAIT = 10.0  # seconds a socket may stay silent before its hello
# seconds between a tableless page's asks whether another process runs a table in its
# channel (several processes; one process holds every table and asks nothing)
FETCH_EVERY = 5.0
QUEUE_KEPT = 64  # answers waiting for a slow page; the oldest go first
STRIKES = 50  # rate-limited frames after which the connection is closed

NO_TABLE = json.dumps({"type": "state", "seat": None, "state": None}, separators=(",", ":"))
PARTS = ("game", "you")  # a document's parts a delta diffs one level deeper

CLOSE_SESSION = 4001  # the session is forged or expired: sign in again
CLOSE_ABUSE = 4008  # too many frames


class LobbyDoor(Protocol):
    """A table's life outside play, without Discord: the wiring passes the table
    layer's own calls, the ones the Discord buttons make (the same refusals)."""

    async def seats(self, table: Table, user_id: int, name: str, verb: str) -> str | None:
        """Join, leave or add an AI (``ai-<level>``); the refusal in words, or None."""

    async def start(self, table: Table, user_id: int) -> str | None:
        """Start the game, empty seats filled with AI; the refusal in words, or None."""

    async def cancel(self, table: Table, user_id: int, name: str) -> str | None:
        """Cancel the table (its opener, or someone with Manage Server); the refusal, or None."""

    async def reclaim(self, table: Table, user_id: int) -> str | None:
        """Take ``user_id``'s seat back from the AI; the refusal, or None."""

    async def rematch(self, table_id: int, user_id: int) -> str | None:
        """A new game of finished ``table_id``'s players in its channel; the refusal, or None."""

    async def hint(self, table: Table, user_id: int, version: int, seat: int) -> tuple[bool, str]:
        """A hint for ``seat``'s turn at ``version``: (True, the hint) or (False, the refusal)."""


def signature(table: Table) -> tuple[Any, ...]:
    """What changes when a connection must be sent the table again."""
    return (
        table.id,
        table.status,
        table.db_version,
        table.version,
        table.drive.deadline,
        tuple(table.seats),
        table.away,
    )


class Bucket:
    """A token bucket: ``rate`` frames a second, bursts of twice that."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.room = 2 * rate
        self.tokens = self.room
        self.clock = clock
        self.at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.room, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Connection:
    """One page's socket: its player, its table, what waits to be sent.

    Answers and errors wait in :attr:`queue`, in order. The table's state is not
    queued: :meth:`owe` marks it owed, and the writer builds it when it gets to send
    (:meth:`Front.state_for`), after the table's lock is released and once however
    many commits came meanwhile — each state is whole, the latest one says it all.
    """

    def __init__(self, front: Front, ws: web.WebSocketResponse, session: Session) -> None:
        self.front = front
        self.ws = ws
        self.session = session
        self.table: Table | None = None
        self.sent: tuple[Any, ...] | None = None  # the signature of the last state sent
        # the last document sent: (table, seat, language, revision); None: none the
        # page is known to hold whole (a delta needs it)
        self.doc: tuple[int, int | None, str, int] | None = None
        self.owed = False  # the table's state is to be sent
        self.queue: deque[str] = deque(maxlen=QUEUE_KEPT)
        self.wake = asyncio.Event()
        self.bucket = Bucket(front.rate)
        self.strikes = 0
        self.fetched_at = float("-inf")  # when it last asked for a table run elsewhere

    @property
    def user_id(self) -> int:
        return self.session.user_id

    @property
    def language(self) -> str:
        """The player's language: the one their DMs are written in."""
        return self.front.svc.user_locales.language(self.session.user_id)

    def seat(self) -> int | None:
        return None if self.table is None else self.table.seat_of(self.user_id)

    def send(self, frame: str) -> None:
        self.queue.append(frame)
        self.wake.set()

    def owe(self) -> None:
        """The table's state, as it is when the writer gets to it, is to be sent."""
        self.owed = True
        self.wake.set()

    def send_json(self, frame: dict[str, Any]) -> None:
        self.send(json.dumps(frame, separators=(",", ":")))

    def error(self, code: str, text: str, ref: object = None) -> None:
        self.send_json({"type": "error", "code": code, "text": text, "ref": _ref(ref)})

    async def wake_and_close(self, code: int, message: bytes) -> None:
        """Send what waits (the error that says why), then close."""
        while self.queue and not self.ws.closed:
            await self.ws.send_str(self.queue.popleft())
        await self.ws.close(code=code, message=message)

    async def writer(self) -> None:
        while not self.ws.closed:
            await self.wake.wait()
            self.wake.clear()
            while (self.queue or self.owed) and not self.ws.closed:
                if self.queue:
                    await self.ws.send_str(self.queue.popleft())
                else:
                    self.owed = False
                    await self.ws.send_str(self.front.state_for(self))


class SeatViews(Sequence[SeatView]):
    """Every seat's view of a table's game, each observed when first read (the
    table keeps them for the version): the public table reads the first, and the
    others only where a kitty lies taken (:func:`bot.present.projection.table_state`)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __len__(self) -> int:
        return len(self.table.seats)

    @overload
    def __getitem__(self, index: int) -> SeatView: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[SeatView]: ...

    def __getitem__(self, index: int | slice) -> SeatView | Sequence[SeatView]:
        if isinstance(index, slice):
            return [self.table.view(s) for s in range(len(self))[index]]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self.table.view(index % len(self))

    def __iter__(self) -> Iterator[SeatView]:
        return (self.table.view(s) for s in range(len(self)))


class Doc:
    """One kind of viewer's document at one revision of a table, encoded once."""

    __slots__ = ("_delta", "_diffed", "_full", "base", "before", "rev", "seat", "state")

    def __init__(
        self, rev: int, seat: int | None, state: dict[str, Any], before: Doc | None
    ) -> None:
        self.rev = rev
        self.seat = seat
        self.state = state
        self.before = before  # the document of this kind sent before, a delta's base
        self.base = None if before is None else before.rev
        self._full: str | None = None
        self._delta: str | None = None
        self._diffed = False  # whether _delta is worked out

    def full_frame(self, title: str) -> str:
        if self._full is None:
            self._full = json.dumps(
                {
                    "type": "state",
                    "seat": self.seat,
                    "rev": self.rev,
                    "title": title,
                    "state": self.state,
                },
                separators=(",", ":"),
            )
        return self._full

    def delta_frame(self, table_id: int) -> str | None:
        """The fields changed since :attr:`before` (None: not expressible as a delta)."""
        if not self._diffed:
            self._diffed = True
            if self.before is not None:
                changed = delta(self.before.state, self.state)
                if changed is not None:
                    self._delta = json.dumps(
                        {
                            "type": "delta",
                            "seat": self.seat,
                            "table_id": table_id,
                            "version": self.state["version"],
                            "base": self.base,
                            "rev": self.rev,
                            **changed,
                        },
                        separators=(",", ":"),
                    )
            self.before = None  # worked out: the old document may go
        return self._delta


def delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
    """What turns document ``old`` into ``new``: ``state``, the changed top-level fields
    but the parts; each part (``game``, ``you``) None if unchanged, else its changed
    fields. None where a part appears, goes or changes shape (the page is sent the whole)."""
    if old.keys() != new.keys():
        return None
    out: dict[str, Any] = {
        "state": {k: v for k, v in new.items() if k not in PARTS and old[k] != v}
    }
    for part in PARTS:
        was, now = old.get(part), new.get(part)
        if was is None and now is None:
            out[part] = None
        elif isinstance(was, dict) and isinstance(now, dict) and was.keys() == now.keys():
            changed = {k: v for k, v in now.items() if was[k] != v}
            out[part] = changed or None
        else:
            return None
    return out


class Built:
    """A table's documents at its current revision, and each kind's last one built."""

    __slots__ = ("docs", "frame", "game", "last", "rev")

    def __init__(self, rev: int) -> None:
        self.rev = rev
        self.frame: TableFrame | None = None  # the table's frame at this revision
        self.game: dict[str, Any] | None = None  # its documents' shared game part
        self.docs: dict[tuple[int | None, str], Doc] = {}
        self.last: dict[tuple[int | None, str], Doc] = {}

    def new_revision(self, rev: int) -> None:
        self.rev = rev
        self.frame = None
        self.game = None
        self.docs = {}

    def add(self, key: tuple[int | None, str], state: dict[str, Any]) -> Doc:
        previous = self.last.get(key)
        if previous is not None:
            previous.before = None  # no page is sent it any more: its own base may go
        doc = Doc(self.rev, key[0], state, previous)
        self.docs[key] = self.last[key] = doc
        return doc


def _ref(value: object) -> int | None:
    """The page's number for a request, echoed in the answer (ignored if not a small int)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31:
        return value
    return None


class Front:
    """Every open page, grouped by the table each looks at (one feed watcher a table)."""

    def __init__(
        self,
        svc: Services,
        door: LobbyDoor | None,
        signer: Signer,
        *,
        rate: float,
    ) -> None:
        self.svc = svc
        self.door = door
        self.signer = signer
        self.rate = rate
        self.connections: set[Connection] = set()
        self._by_table: dict[int, set[Connection]] = {}
        self._by_channel: dict[int, set[Connection]] = {}
        self._stops: dict[int, Callable[[], None]] = {}
        self._built: dict[int, Built] = {}  # table -> its documents
        self._rev = 0  # the last revision given (one count for every table)
        self._stop_changes = svc.feed.on_change(self._changed)

    # ------------------------------------------------------------ the feed

    def _heard(self, table: Table, events: list[Event]) -> None:
        """A feed watcher: the table committed; every page on it is owed its state."""
        self.push(table)

    def _changed(self, table: Table) -> None:
        """The feed's changes: ``table`` changed without a move (or entered memory):
        every page on it, and every page launched in its channel, looks again."""
        self._bump(table.id)
        conns = set(self._by_table.get(table.id, ()))
        conns.update(self._by_channel.get(table.channel_id, ()))
        for conn in conns:
            self.look(conn)

    def push(self, table: Table) -> None:
        """Every page on ``table`` is owed its state (built when its writer sends it)."""
        self._bump(table.id)
        for conn in tuple(self._by_table.get(table.id, ())):
            conn.table = table
            conn.owe()

    def _bump(self, table_id: int) -> None:
        """``table`` changed: a new revision (its documents are built again when sent)."""
        built = self._built.get(table_id)
        if built is not None:
            self._rev += 1
            built.new_revision(self._rev)

    def state_for(self, conn: Connection) -> str:
        """``conn``'s state frame as the table is now: built once per seat and language
        and revision, for every page on it; a delta where the page holds the document
        it changes, else the whole document."""
        table = conn.table
        if table is None:
            conn.sent = ("none",)
            conn.doc = None
            return NO_TABLE
        built = self._built.get(table.id)
        if built is None:
            self._rev += 1
            built = self._built[table.id] = Built(self._rev)
        seat = conn.seat()
        language = conn.language
        key = (seat, language)
        doc = built.docs.get(key)
        if doc is None:
            with using(language):
                doc = built.add(key, self._project(table, built, seat))
        conn.sent = signature(table)
        held, conn.doc = conn.doc, (table.id, seat, language, doc.rev)
        if doc.base is not None and held == (table.id, seat, language, doc.base):
            delta = doc.delta_frame(table.id)
            if delta is not None:
                return delta
        return doc.full_frame(table.rules.title)

    @staticmethod
    def _project(table: Table, built: Built, seat: int | None) -> dict[str, Any]:
        """The document of ``seat`` (None: the public table) at the table as it is now."""
        frame = built.frame
        if frame is None:
            frame = built.frame = table.frame()
        if table.game is None:
            return table_state(frame, ()) if seat is None else seat_state(frame, seat, None)
        game = built.game
        if game is None:  # what every seat sees alike: built once for every document
            game = built.game = game_part(frame, table.view(0))
        if seat is None:
            return table_state(frame, SeatViews(table), game=game)
        return seat_state(frame, seat, table.view(seat), game=game)

    def _attach(self, conn: Connection, table: Table | None) -> None:
        """Move ``conn`` to ``table`` (watching its feed while any page looks at it)."""
        old = conn.table
        if old is not None and (table is None or old.id != table.id):
            group = self._by_table.get(old.id)
            if group is not None:
                group.discard(conn)
                if not group:
                    del self._by_table[old.id]
                    self._built.pop(old.id, None)
                    self._stops.pop(old.id)()
        conn.table = table
        conn.sent = None
        if table is not None:
            group = self._by_table.setdefault(table.id, set())
            group.add(conn)
            if table.id not in self._stops:
                self._stops[table.id] = self.svc.feed.watch(table.id, self._heard)

    def _find(self, conn: Connection) -> Table | None:
        """The table a page looks at: the channel's open one, else the one it had."""
        tables = self.svc.tables
        open_now = tables.open_in_channel(conn.session.channel_id)
        if open_now is not None:
            return open_now
        if conn.table is not None:
            return tables.get(conn.table.id) or conn.table  # ended: its final state
        return None

    def look(self, conn: Connection, *, force: bool = False) -> None:
        """Owe ``conn`` its table's state if it changed since the last one sent
        (``force``: whatever was sent, and built afresh)."""
        table = self._find(conn)
        if table is not conn.table:
            self._attach(conn, table)
        if table is None:
            if force or conn.sent != ("none",):
                conn.owe()
            return
        if force:
            self._bump(table.id)
            conn.doc = None  # the page may hold nothing: it is sent the whole
        if force or signature(table) != conn.sent:
            conn.owe()

    # ------------------------------------------------------------ a socket

    async def serve(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=4096)
        await ws.prepare(request)
        try:
            first = await ws.receive(timeout=HELLO_WAIT)
        except TimeoutError:
            await ws.close(code=CLOSE_SESSION, message=b"no hello")
            return ws
        session = await self._hello(ws, first)
        if session is None:
            return ws
        conn = Connection(self, ws, session)
        self.connections.add(conn)
        self._by_channel.setdefault(session.channel_id, set()).add(conn)
        writer = asyncio.create_task(conn.writer(), name="web-writer")
        fetcher = asyncio.create_task(self._keep_fetching(conn), name="web-fetch")
        try:
            language = conn.language
            conn.send_json(
                {
                    "type": "welcome",
                    "user_id": str(session.user_id),
                    "name": session.name,
                    "expires_at": session.expires_at,
                    "language": language,
                    "texts": page_texts(language),
                }
            )
            await self.fetch(conn)
            self.look(conn, force=True)
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    conn.error("bad_frame", _("Frames are JSON text."))
                    continue
                await self._frame(conn, msg.data)
        finally:
            fetcher.cancel()
            self._attach(conn, None)
            channel = self._by_channel.get(session.channel_id)
            if channel is not None:
                channel.discard(conn)
                if not channel:
                    del self._by_channel[session.channel_id]
            self.connections.discard(conn)
            conn.wake.set()
            writer.cancel()
        return ws

    async def _hello(self, ws: web.WebSocketResponse, msg: Any) -> Session | None:
        """The session the first frame carries, or None (the socket answered and closed)."""
        code = "bad_session"
        if msg.type is WSMsgType.TEXT:
            try:
                frame = json.loads(msg.data)
                if not isinstance(frame, dict) or frame.get("type") != "hello":
                    raise SessionError("bad_session")
                return self.signer.check(frame.get("session"))
            except SessionError as exc:
                code = exc.code
            except ValueError:
                pass
        await self._close_with(ws, code)
        return None

    async def _close_with(self, ws: web.WebSocketResponse, code: str) -> None:
        text = (
            _("Your session has expired — signing in again.")
            if code == "session_expired"
            else _("That session is not valid — signing in again.")
        )
        await ws.send_str(json.dumps({"type": "error", "code": code, "text": text, "ref": None}))
        await ws.close(code=CLOSE_SESSION, message=code.encode())

    async def _keep_fetching(self, conn: Connection) -> None:
        """Several processes: a page whose channel has no table in this process asks,
        every :data:`FETCH_EVERY` seconds, whether another process runs one there (a
        table of this process reaches it through the feed's changes; nothing is polled)."""
        while not conn.ws.closed:
            await asyncio.sleep(FETCH_EVERY)
            if self.svc.tables.open_in_channel(conn.session.channel_id) is None:
                await self.fetch(conn)
                self.look(conn)

    async def fetch(self, conn: Connection) -> None:
        """A page whose channel has no table here: load a copy of the one another
        process runs there, if any (at most every :data:`FETCH_EVERY` seconds); the
        page then watches its feed, and this process follows it (``bot.cluster``)."""
        channel_id = conn.session.channel_id
        if self.svc.tables.open_in_channel(channel_id) is not None:
            return
        now = time.monotonic()
        if now - conn.fetched_at < FETCH_EVERY:
            return
        conn.fetched_at = now
        try:
            await self.svc.table_in_channel(channel_id)
        except StoreError:
            log.warning("channel %s: could not look for its table", channel_id, exc_info=True)

    # ------------------------------------------------------------ a frame from a page

    async def _frame(self, conn: Connection, data: str) -> None:
        if not conn.bucket.take():
            conn.strikes += 1
            if conn.strikes >= STRIKES:
                await conn.ws.close(code=CLOSE_ABUSE, message=b"too many frames")
            else:
                conn.error("rate_limited", _("Too many messages — slow down."))
            return
        try:
            frame = json.loads(data)
        except ValueError:
            frame = None
        if not isinstance(frame, dict):
            conn.error("bad_frame", _("That message could not be read."))
            return
        ref = frame.get("ref")
        if conn.session.expires_at <= time.time():
            conn.error("session_expired", _("Your session has expired — signing in again."), ref)
            await conn.wake_and_close(CLOSE_SESSION, b"session_expired")
            return
        kind = frame.get("type")
        with using(conn.language):
            await self._kind(conn, kind, frame, ref)

    async def _kind(
        self, conn: Connection, kind: object, frame: dict[str, Any], ref: object
    ) -> None:
        if kind == "act":
            await self._act(conn, frame, ref)
        elif kind == "lobby":
            await self._lobby(conn, frame, ref)
        elif kind == "table":
            await self._table(conn, frame, ref)
        elif kind == "hint":
            await self._hint(conn, frame, ref)
        elif kind == "sync":
            self.look(conn, force=True)
        else:
            conn.error("bad_frame", _("That message could not be read."), ref)

    async def _act(self, conn: Connection, frame: dict[str, Any], ref: object) -> None:
        version, seat, ids = frame.get("version"), frame.get("seat"), frame.get("actions")
        if (
            not _small_int(version)
            or not _small_int(seat)
            or not isinstance(ids, list)
            or not 1 <= len(ids) <= MAX_ACTIONS
            or not all(isinstance(i, str) and 0 < len(i) <= MAX_ACTION_TEXT for i in ids)
        ):
            conn.error("bad_frame", _("That message could not be read."), ref)
            return
        try:
            actions: list[Action] = [decode_action(i) for i in ids]
        except (ActionParseError, ValueError):
            conn.error("bad_action", _("That is not an action of this game."), ref)
            return
        table = conn.table
        if table is None:
            conn.error("no_table", _("There is no table in this channel."), ref)
            return
        assert isinstance(version, int) and isinstance(seat, int)
        outcome = await act(self.svc, table.id, conn.user_id, version, seat, actions)
        conn.send_json(
            {
                "type": "outcome",
                "ref": _ref(ref),
                "kind": outcome.kind,
                "reason": None if outcome.reason is None else outcome.reason.value,
                "text": outcome_text(outcome),
                "version": outcome.version,
            }
        )
        if not outcome.applied:
            self.look(conn, force=True)  # what the table is now, whatever the page thought

    async def _lobby(self, conn: Connection, frame: dict[str, Any], ref: object) -> None:
        verb = frame.get("verb")
        if not isinstance(verb, str) or verb not in LOBBY_VERBS:
            conn.error("bad_frame", _("That message could not be read."), ref)
            return
        table = conn.table
        refusal: str | None
        if self.door is None:
            refusal = _("Seats are taken on Discord for this table.")
        elif table is None or table.status != "lobby":
            refusal = _("The game has already started.")
        elif verb == "start":
            refusal = await self.door.start(table, conn.user_id)
        else:
            refusal = await self.door.seats(table, conn.user_id, conn.session.name, verb)
        self._answer(conn, ref, refusal, table)

    async def _table(self, conn: Connection, frame: dict[str, Any], ref: object) -> None:
        """Cancel, take my seat back, rematch: the table message's and hand DM's buttons."""
        verb = frame.get("verb")
        if not isinstance(verb, str) or verb not in TABLE_VERBS:
            conn.error("bad_frame", _("That message could not be read."), ref)
            return
        table = conn.table
        refusal: str | None
        if table is None:
            refusal = _("There is no table in this channel.")
        elif self.door is None:
            refusal = _("Seats are taken on Discord for this table.")
        elif verb == "rematch":
            refusal = await self.door.rematch(table.id, conn.user_id)
        elif table.status not in ("lobby", "active"):
            refusal = _("This table has ended.")
        elif verb == "cancel":
            refusal = await self.door.cancel(table, conn.user_id, conn.session.name)
        else:
            refusal = await self.door.reclaim(table, conn.user_id)
        self._answer(conn, ref, refusal, table)

    async def _hint(self, conn: Connection, frame: dict[str, Any], ref: object) -> None:
        """A hint at a table with hints: private, changes nothing."""
        version, seat = frame.get("version"), frame.get("seat")
        if not _small_int(version) or not _small_int(seat):
            conn.error("bad_frame", _("That message could not be read."), ref)
            return
        assert isinstance(version, int) and isinstance(seat, int)
        table = conn.table
        if table is None or self.door is None:
            ok, text = False, _("This table has ended.")
        else:
            ok, text = await self.door.hint(table, conn.user_id, version, seat)
        conn.send_json(
            {
                "type": "outcome",
                "ref": _ref(ref),
                "kind": "hint" if ok else "refused",
                "reason": None if ok else "hint",
                "text": text,
                "version": 0 if table is None else table.version,
            }
        )

    def _answer(
        self, conn: Connection, ref: object, refusal: str | None, table: Table | None
    ) -> None:
        conn.send_json(
            {
                "type": "outcome",
                "ref": _ref(ref),
                "kind": "refused" if refusal else "applied",
                "reason": "lobby" if refusal else None,
                "text": refusal or "",
                "version": 0 if table is None else table.version,
            }
        )
        if refusal:
            self.look(conn, force=True)  # what the table is now, whatever the page thought

    def stop(self) -> None:
        """Stop hearing the feed's changes (the web table is closing)."""
        self._stop_changes()

    async def close(self) -> None:
        """Close every page's socket (each page reconnects by itself)."""
        for conn in tuple(self.connections):
            await conn.ws.close(code=1001, message=b"the bot is restarting")


def _small_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31
