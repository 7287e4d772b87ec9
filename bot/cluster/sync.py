"""Several bot processes sharing one PostgreSQL database.

Active when ``RH_DATABASE`` is a PostgreSQL URL (``Services.cluster``); with SQLite
there is one process and none of this runs (the table's ``asyncio.Lock`` is the
whole story, as before).

**Any process can take any click.** Every process may hold a copy of any table
(a hand-DM click arrives on shard 0's process, a table button on the server's
shard's process). A copy may be behind the database; the version in the
table row says by how much:

* a click first brings a copy known to be behind up to date (:meth:`Cluster.current`:
  the new rows of the move log replayed in the engine, under a ``FOR SHARE`` lock
  of the table row so log and row are read at one version);
* every commit (:func:`bot.tables.commit.commit`) locks the table row ``FOR UPDATE`` in
  its transaction and checks the row's version against the copy's (the append
  of the move log does, :meth:`bot.store.ActionRepo.append`; a conflict becomes
  :meth:`Cluster.behind`): a copy that fell behind meanwhile raises
  :class:`TableBehind` with nothing written, the copy is brought up to date and
  the click is checked again — now against the current game, so a click that lost
  the race is told so ("Already played" / "That hand has moved on"), never
  applied twice. The version in the button's custom id is what the click is
  checked against, as in one process.

**One process owns each table's AI and timers**, by a lease row
(``table_leases``: owner, expiry in the database server's clock, so the
processes' clocks do not matter). The process holding the server's shard claims
the tables of that server; the owner renews its leases every third of
``lease_seconds``; a lease that ran out (its process died or hung) is claimed by
any live process, which reloads the table from the log and re-arms its timer from
the stored deadline (:meth:`~bot.tables.resume.Resume.bring_back`), so no timer is lost,
then runs what the features do with a table taken over
(:meth:`~bot.tables.sync.TableLife.taken_over`: the events' director shows a board
the dead process dealt and never showed).
Every AI or timer commit checks, in its transaction, that this process still holds
an unexpired lease (:class:`LeaseLost` otherwise, nothing written) and, like any
commit, the version: an AI move is never made twice.

**Processes tell each other through PostgreSQL** (``LISTEN/NOTIFY``, no broker):
a trigger on ``tables`` announces every new version on ``rh_tables`` when its
transaction commits (``"<id>:<version>:<status>"``). The owner then replays the
new moves, shows them (table message, summaries, the other hands) and re-arms the
AI or the turn timer; another process holding a copy only marks it behind. A
process that stops gives its leases up and says so on ``rh_leases``, so the others
claim them at once rather than after the lease time; hand DMs sent by a process that
does not run the table are announced on ``rh_hands`` (below). Notifications are a fast
path only: the owner also compares its tables' versions with the database every
renewal, so a lost notification delays a table by at most a third of the lease.

**A pages-only process** (``settings.pages_only``, bot/app/pages.py: the web table
alone, no gateway shard) claims no lease, ever — not a new table, not one that ran
out, not one nobody holds: those are the game processes'. It only holds copies for
its pages and follows them; a player's move from a page commits there (no lease
needed) and the owner follows it. A table opened there (a rematch) is announced by
its row's trigger like any new table, and the process holding its server claims it
at once. A game started or rematched from a page there gets its first hand DMs from
that process (as the Start button sends them), which announces them on
``rh_hands`` (``"<table id>:<server id>:<process>"``, :meth:`Cluster.hands_sent`):
the owner learns them at once from the database (:meth:`Cluster._learn_hands`; the
process holding the server first claims the table if no round has yet) and edits
them as the game moves. Its lease round learns them too, should the notification
be lost.

Decisions of our own: a table adopted by a survivor stays with it
until it ends (ownership only decides who runs AI and timers; clicks are taken
everywhere); only the owner presents a commit (otherwise two processes would post
the same deal summary), so a player's own clicked message is answered by the
process that took the click and everything else follows from the owner a few
milliseconds later; an ephemeral "My hand" copy shown by a process that does not
own the table is answered on every click but not edited when others move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import asyncpg
from discord.ext import tasks

from bot.config import Settings
from bot.sharding import format_shards, holds_guild, syncs_commands
from bot.store import (
    ActionRow,
    Deadline,
    HandMessage,
    LeaseNotHeld,
    StoreError,
    TableRow,
    VersionConflict,
)
from bot.tables import commit
from bot.tables.kinds import TableKind
from bot.tables.sync import TableBehind, TableLife
from bot.tables.table import Table
from engine import Event, IllegalAction, decode_action

if TYPE_CHECKING:
    from bot.tables.services import Services

log = logging.getLogger(__name__)

__all__ = ["Cluster", "LeaseLost"]

TABLES_CHANNEL = "rh_tables"
LEASES_CHANNEL = "rh_leases"
HANDS_CHANNEL = "rh_hands"
NOW = "EXTRACT(EPOCH FROM clock_timestamp())"  # the database server's clock, epoch seconds


# A copy's catch-up in one statement (one snapshot, so row, log and deadline agree):
# table $1's row, its moves from seq $2 on (none if the row is still at version $3)
# and its deadline.
_REFRESH = (
    "SELECT t.*, (SELECT COALESCE(json_agg(json_build_array(a.seq, a.seat, a.action,"
    " a.actor_id) ORDER BY a.seq), '[]'::json) FROM actions a"
    " WHERE a.table_id = t.id AND a.seq >= $2 AND t.version <> $3) AS moves,"
    " d.kind AS d_kind, d.seat AS d_seat, d.due_at AS d_due"
    " FROM tables t LEFT JOIN deadlines d ON d.table_id = t.id WHERE t.id = $1"
)


def _lacks_hands(table: Table) -> bool:
    """An ordinary table in play with a human seat whose hand DM this process does not
    know (sent by another process, or not sent: DMs closed)."""
    return (
        table.status == "active"
        and table.game is not None
        and table.kind in (TableKind.ORDINARY, TableKind.HINTS)
        and any(
            table.human(seat) is not None and seat not in table.hand_messages
            for seat in range(len(table.seats))
        )
    )


class LeaseLost(StoreError):
    """This process no longer holds the table's lease: its AI or timer move is not written."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id}: this process no longer holds its lease")
        self.table_id = table_id


def default_name(settings: Settings) -> str:
    """The process's stable name: its shards (``shards-0-3of8``), ``pages`` for a
    pages-only process, or ``main`` unsharded. A process restarted under the same name
    takes its tables back at once."""
    if settings.pages_only:
        return "pages"
    if settings.shard_count is not None and settings.shard_ids is not None:
        return f"shards-{format_shards(settings.shard_ids)}of{settings.shard_count}"
    if settings.shard_count is not None:
        return f"shards-allof{settings.shard_count}"
    return "main"


class Cluster:
    """This process's part in a deployment of several (see the module docstring): the
    :class:`~bot.tables.sync.TableSync` of a shared PostgreSQL database. ``life`` is
    what it calls back in the table layer (given by the wiring)."""

    def __init__(self, svc: Services, life: TableLife) -> None:
        self.svc = svc
        self.life = life
        # "<stable name>#<this run>": a lease of an earlier run of the same name (a
        # restart) is taken back at once; one of another name only once it ran out
        self.name = (
            f"{svc.settings.process_name or default_name(svc.settings)}#{secrets.token_hex(4)}"
        )
        self.base = self.name.split("#", 1)[0]
        self.lease = max(0.5, float(svc.settings.lease_seconds))
        # a pages-only process (bot/app/pages.py) serves the web table and holds no lease
        # ever: it follows copies, and every table's AI and timers are a game process's
        self.pages_only = svc.settings.pages_only
        self.owned: dict[
            int, float
        ] = {}  # table id -> loop time our lease runs until, if renewals keep up
        self.stale: set[int] = set()  # copies known to be behind the database
        self.claiming: set[int] = set()
        self.adoptions = 0  # tables this process took over from another (or claimed at start)
        self._listener: asyncpg.Connection | None = None
        self._keeper: tasks.Loop[Any] | None = None
        self._rounds = asyncio.Lock()  # one lease round at a time
        self._closed = False
        self._rounds_stopped = False  # stop_lease_rounds: leases kept, never renewed

    # ================================================================ questions

    def owns(self, table_id: int) -> bool:
        """True while this process holds ``table_id``'s lease, as far as it knows: until
        a renewal finds it gone. (A renewal that comes late under load does not stop
        the table: the database still fences every AI and timer commit by the lease.)"""
        return table_id in self.owned

    def may_drive(self, table: Table) -> bool:
        """True if this process runs ``table``'s AI and timers now. A table of one of
        our servers that nobody owns yet (just opened here) is claimed in the
        background, and armed once the claim lands."""
        if self.owns(table.id):
            return True
        if (
            not self._closed
            and not self._rounds_stopped
            and not self.pages_only
            and holds_guild(self.svc.settings, table.guild_id)
            and table.id not in self.claiming
        ):
            self.claiming.add(table.id)
            self.svc.own(self._claim_new(table), name=f"claim-{table.id}")
        return False

    # ================================================================ the commit's check

    def fence(self, table: Table, actor_id: int | None) -> str | None:
        """An AI or timer move (``actor_id`` None) is written only while this process
        holds the table's lease: the append checks it in the same statement, reading
        the lease row ``FOR SHARE`` until the move commits, so a process claiming the
        lease meanwhile waits, then loads the table with this move in it. A lease past
        its expiry that nobody has claimed is still ours (renewed next round). A
        player's click needs no lease; like every commit, its version is checked by
        the append (``VersionConflict`` becomes :meth:`conflict`)."""
        return self.name if actor_id is None else None

    def lease_lost(self, table: Table, error: LeaseNotHeld) -> StoreError:
        """The fence found another holder (or none): stop the table's AI and timer here."""
        self.lost(table)
        return LeaseLost(table.id)

    def conflict(self, table: Table, error: VersionConflict) -> StoreError:
        """The commit found this copy behind the database: the error to raise, and
        (for a table we own) a catch-up that re-arms it."""
        self.stale.add(table.id)
        if self.owns(table.id):  # an AI or timer move of ours lost: follow, then it re-arms
            self.svc.own(self._follow(table), name=f"follow-{table.id}")
        return TableBehind(table.id, table.db_version, error.actual)

    def lost(self, table: Table) -> None:
        """Our lease of ``table`` is gone: stop its AI and timer (soon: never the task
        that found out, which unwinds by itself)."""
        self.owned.pop(table.id, None)
        asyncio.get_running_loop().call_soon(table.stop_tasks)

    # ================================================================ copies of tables

    async def current(self, table_id: int, table: Table | None) -> Table | None:
        """The table for a click, brought up to date: loaded if this process has no
        copy, replayed forward if its copy is known to be behind."""
        if table is None:
            return await self._load_copy(table_id)
        if table.id in self.stale:
            async with table.lock:
                await self.refresh(table)
        return table

    async def in_channel(self, channel_id: int, here: Table | None) -> Table | None:
        """The channel's open table: this process's copy, else one loaded of the table
        another process runs there (a web page in this process looks at it)."""
        if here is not None:
            return here
        row = await self.svc.table_repo.get_open_by_channel(channel_id)
        if row is None:
            return None
        return await self.current(row.id, self.svc.tables.get(row.id))

    async def catch_up(self, table: Table) -> None:
        """After :class:`TableBehind`: bring the copy up to date (and present it, if ours)."""
        async with table.lock:
            before = table.db_version
            events = await self.refresh(table)
            if table.db_version == before:
                return
            if not self.owns(table.id):
                self.life.follow_copies(table)  # the "My hand" copies this process showed
                if events:  # and whatever watches the table here (a web page)
                    self.svc.feed.follow(table, events)
                return
            if events:
                self.life.publish(table, events)
            elif table.status in ("lobby", "active"):  # seats or settings (away) changed
                self.life.changed(table)
        if self.owns(table.id) and _lacks_hands(table):
            await self._learn_hands([table])

    async def refresh(self, table: Table) -> list[Event]:
        """Bring ``table`` (under its lock) up to the database's version; the events
        of the moves replayed. The row, the new moves of the log and the deadline are
        read in one statement (one round trip), so they belong to one version."""
        done = table.game.version if table.game is not None else 0
        found = await self.svc.db.fetchone(_REFRESH, (table.id, done, table.db_version))
        if found is None:
            self.stale.discard(table.id)
            return []
        row = TableRow.from_row(found)
        if row.version == table.db_version:
            self.stale.discard(table.id)
            return []
        rows = [
            {"seq": seq, "seat": seat, "action": action, "actor_id": actor}
            for seq, seat, action, actor in json.loads(found["moves"])
        ]
        deadline = (
            Deadline(table.id, found["d_kind"], found["d_seat"], found["d_due"])
            if found["d_kind"] is not None
            else None
        )
        events: list[Event] = []
        game = table.game
        if row.status in ("active", "finished") and game is None:
            logged = await self.svc.action_repo.list(table.id)
            snapshot = await self.svc.snapshot_repo.get(table.id)
            game = self.life.load_game(row, logged, snapshot)
            # the last moves, as if this process had made them: a double click whose
            # other half another process took is told "Already played" here too
            for move in logged[-(table.moves.maxlen or 0) :]:
                table.moves.append((move.seq, move.seat, move.actor_id))
        elif game is not None and rows:
            game = game.clone()
            for a in rows:
                before = game.version
                events.extend(game.apply(a["seat"], decode_action(a["action"])))
                table.moves.append((before, a["seat"], a["actor_id"]))
        commit.adopt_row(table, row, game, deadline)
        self.stale.discard(table.id)
        if table.status in ("finished", "cancelled"):
            table.stop_tasks()
            self.svc.tables.retire(table)
        return events

    async def _load_copy(self, table_id: int) -> Table | None:
        """A copy of a table this process has never held (no AI, no timers)."""
        row = await self.svc.table_repo.get(table_id)
        if row is None or row.status not in ("lobby", "active"):
            return None
        actions = await self.svc.action_repo.list(table_id)
        snapshot = await self.svc.snapshot_repo.get(table_id)
        try:
            table = self.life.load_table(row, actions, snapshot)
        except Exception:  # a log this version cannot replay: its owner sets it aside
            log.warning("table %s: could not load a copy", table_id, exc_info=True)
            return None
        existing = self.svc.tables.get(table_id)
        if existing is not None:  # loaded meanwhile by another click
            return existing
        for hm in await self.svc.hand_repo.list(table_id):
            table.hand_messages[hm.seat] = (hm.channel_id, hm.message_id)
        await self.life.speak(table)  # the table's and its players' languages
        self.svc.tables.add(table)
        return table

    # ================================================================ notifications

    def _on_table_note(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            ident, version, status = payload.split(":", 2)
            table_id, stored = int(ident), int(version)
        except ValueError:
            log.warning("unreadable notification %r", payload)
            return
        table = self.svc.tables.get(table_id)
        if table is None:
            if status == "lobby" and stored == 0:
                self._wake()  # a new table: the one holding its shard claims it
            return
        if table.db_version >= stored:
            return  # our own commit, or one we have already seen
        if table.lock.locked():
            # a commit (or catch-up) of this process is under way: most often the note
            # is its own, arriving before the commit's answer; decided once it is done,
            # so a click's own move does not send its table back to the database
            self.svc.own(self._noted_later(table, stored, status), name=f"note-{table_id}")
            return
        self._noted(table, status)

    def _noted(self, table: Table, status: str) -> None:
        """``table``'s copy is behind the database: marked so, and followed at once where
        this process shows its moves."""
        self.stale.add(table.id)
        if (
            self.owns(table.id)
            or status in ("finished", "cancelled")
            or table.shows_hand_copies()  # a "My hand" copy shown here follows the game
            or self.svc.feed.watched(table.id)  # so does a page watching the table here
        ):
            self.svc.own(self._follow(table), name=f"follow-{table.id}")

    async def _noted_later(self, table: Table, stored: int, status: str) -> None:
        async with table.lock:
            behind = table.db_version < stored
        if behind:
            self._noted(table, status)

    def _on_lease_note(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        if payload != self.name:
            self._wake()  # a process gave its tables up: claim them now

    async def hands_sent(self, table: Table) -> None:
        """Hand DMs sent here for a table this process does not run (a start or rematch
        from a web page on the pages' process): announced on ``rh_hands`` as "<table
        id>:<server id>:<this process>", so the table's owner (or the process holding
        its server, which claims it if no round has yet) learns them at once. Best
        effort: the owner's lease round learns them anyway."""
        if self._closed or self.owns(table.id) or table.id in self.claiming:
            return  # ours (or being claimed here): this process knows the DMs it sent
        try:
            await self.svc.db.execute(
                "SELECT pg_notify(?, ?)",
                (HANDS_CHANNEL, f"{table.id}:{table.guild_id}:{self.name}"),
            )
        except (StoreError, OSError):
            log.warning("table %s: could not announce its hand DMs", table.id, exc_info=True)

    def _on_hands_note(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            ident, guild, sender = payload.split(":", 2)
            table_id, guild_id = int(ident), int(guild)
        except ValueError:
            log.warning("unreadable notification %r", payload)
            return
        if self._closed or self.pages_only or sender == self.name:
            return  # a pages-only process runs no table: nothing to learn, nothing to claim
        if self.owns(table_id) or holds_guild(self.svc.settings, guild_id):
            self.svc.own(self._hands_noted(table_id), name=f"hands-{table_id}")

    async def _hands_noted(self, table_id: int) -> None:
        """Another process sent the hand DMs of a table of ours: learn them now (the DMs
        then show the game as it is, and are edited as it moves)."""
        table = self.svc.tables.get(table_id)
        if table is None or not self.owns(table_id):
            # not (yet) ours: a round claims it if nobody holds it (its adoption reads
            # the DMs), and learns the DMs of the tables we own (one adopted meanwhile)
            await self._round()
            return
        async with self._rounds:  # after a round under way (a claim bringing it back)
            pass
        async with table.lock:  # after a catch-up under way (the start being followed)
            pass
        try:
            if self.owns(table_id) and _lacks_hands(table):
                await self._learn_hands([table])
        except StoreError:
            log.warning("table %s: could not learn its hand DMs", table_id, exc_info=True)

    async def _follow(self, table: Table) -> None:
        """Another process moved a table we own (or ended one we hold, or one whose "My
        hand" copies we showed): replay, show, re-arm."""
        try:
            await self.catch_up(table)
        except (StoreError, IllegalAction):
            log.warning("table %s: could not follow a change", table.id, exc_info=True)

    # ================================================================ leases

    async def start(self) -> int:
        """Listen, claim this process's tables and bring them back; returns how many."""
        await self._listen()
        count = await self._claim_round()
        # renew, re-check and claim every third of the lease (notifications start extra
        # rounds through _wake); a discord.ext.tasks loop, the library's periodic task
        self._keeper = tasks.loop(seconds=self.lease / 3)(self._round)
        self._keeper.start()
        log.info("process %s: %d table(s) claimed at start", self.name, count)
        if not self.pages_only and syncs_commands(self.svc.settings.shard_ids):
            # one process (shard 0's) rebuilds missing ratings
            self.svc.own(self.life.rate_old_games_quietly(), name="rate-old-games")
        return count

    async def _listen(self) -> None:
        from bot.store.postgres import PostgresDatabase

        db = self.svc.db
        assert isinstance(db, PostgresDatabase)
        conn = await db.listener()
        await conn.add_listener(TABLES_CHANNEL, self._on_table_note)
        await conn.add_listener(LEASES_CHANNEL, self._on_lease_note)
        await conn.add_listener(HANDS_CHANNEL, self._on_hands_note)
        self._listener = conn

    def _wake(self) -> None:
        if not self._closed:
            self.svc.own(self._round(), name="cluster-round")

    async def _round(self) -> None:
        if self._rounds_stopped:
            return
        async with self._rounds:
            try:
                if self._listener is None or self._listener.is_closed():
                    await self._listen()
                    self.stale.update(self.svc.tables)  # notes may have been missed meanwhile
                await self._renew()
                await self._check_versions()
                await self._learn_hands(
                    [
                        t
                        for i in self.owned
                        if (t := self.svc.tables.get(i)) is not None and _lacks_hands(t)
                    ]
                )
                await self._claim_round()
                self._watch()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("lease round failed; retrying", exc_info=True)

    async def _renew(self) -> None:
        if not self.owned:
            return
        started = asyncio.get_running_loop().time()
        ids = list(self.owned)
        rows = await self.svc.db.fetchall(
            f"UPDATE table_leases SET expires_at = {NOW} + ? WHERE owner = ? AND table_id = ANY(?) RETURNING table_id",
            (self.lease, self.name, ids),
        )
        kept = {r["table_id"] for r in rows}
        for table_id in ids:
            if table_id in kept:
                self.owned[table_id] = started + self.lease
            else:
                table = self.svc.tables.get(table_id)
                log.warning("table %s: lease lost to another process", table_id)
                self.owned.pop(table_id, None)
                if table is not None:
                    table.stop_tasks()
        # leases of ended tables go
        ended = [
            t
            for t in self.owned
            if (tb := self.svc.tables.get(t)) is None or tb.status in ("finished", "cancelled")
        ]
        if ended:
            await self.svc.db.execute(
                "DELETE FROM table_leases WHERE owner = ? AND table_id = ANY(?)", (self.name, ended)
            )
            for t in ended:
                self.owned.pop(t, None)

    def _watch(self) -> None:
        """Every owned game waiting for the AI has an AI task, and every one waiting for
        a human with a turn timeout has its timer (re-armed from the stored deadline);
        a step skipped meanwhile (a lost and re-claimed lease) is never a stall."""
        for table_id in list(self.owned):
            table = self.svc.tables.get(table_id)
            if table is not None and not table.lock.locked():
                self.life.rearm(table)

    async def _check_versions(self) -> None:
        """The safety net under notifications: any owned table behind the database follows."""
        if not self.owned:
            return
        rows = await self.svc.db.fetchall(
            "SELECT id, version FROM tables WHERE id = ANY(?)", (list(self.owned),)
        )
        for r in rows:
            table = self.svc.tables.get(r["id"])
            if table is not None and table.db_version != r["version"]:
                self.stale.add(table.id)
                self.svc.own(self._follow(table), name=f"follow-{table.id}")

    async def _learn_hands(self, tables: Sequence[Table]) -> None:
        """The hand DMs another process sent for tables we own (a game started from a
        web page served elsewhere: that process sends the first deal's DMs), learned
        from the database, so this owner edits them as the game moves: brought up to
        date at once. Asked only for tables that lack a human seat's DM (no query
        otherwise), on following such a table and every lease round."""
        if not tables:
            return
        rows = await self.svc.db.fetchall(
            "SELECT * FROM hand_messages WHERE table_id = ANY(?)", ([t.id for t in tables],)
        )
        learned: dict[int, Table] = {}
        for r in rows:
            hm = HandMessage(**dict(r))
            table = self.svc.tables.get(hm.table_id)
            if table is not None and hm.seat not in table.hand_messages:
                table.hand_messages[hm.seat] = (hm.channel_id, hm.message_id)
                learned[table.id] = table
        for table in learned.values():
            if self.owns(table.id) and table.status == "active" and not table.lock.locked():
                self.life.changed(table)  # the learned DMs show the game as it is now

    async def _claim_round(self) -> int:
        """Claim every open table of our shards nobody holds, and every open table whose
        lease ran out (its process is gone); bring the claimed ones back. A pages-only
        process claims none: they belong to the game processes."""
        if self.pages_only:
            return 0
        rows = await self.svc.db.fetchall(
            "SELECT t.id, t.guild_id, l.table_id IS NOT NULL AS leased,"
            f" t.created_at < {NOW} - ? AS old"
            " FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id"
            " WHERE t.status IN ('lobby', 'active') AND (l.table_id IS NULL"
            f" OR l.expires_at < {NOW} OR (split_part(l.owner, '#', 1) = ? AND l.owner <> ?))",
            (self.lease, self.base, self.name),
        )
        wanted = [
            r["id"]
            for r in rows
            if r["id"] not in self.owned
            and (holds_guild(self.svc.settings, r["guild_id"]) or r["leased"] or r["old"])
        ]
        if not wanted:
            return 0
        claimed = await self._claim(wanted)
        if claimed:
            await self._adopt(claimed)
        return len(claimed)

    async def _claim(self, ids: Sequence[int]) -> list[int]:
        if self.pages_only:  # never a lease (the callers do not ask; this makes it sure)
            return []
        started = asyncio.get_running_loop().time()
        rows = await self.svc.db.fetchall(
            "INSERT INTO table_leases (table_id, owner, expires_at, claimed_at)"
            f" SELECT id, ?, {NOW} + ?, {NOW} FROM unnest(?::bigint[]) AS id"
            " ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner,"
            " expires_at = excluded.expires_at, claimed_at = excluded.claimed_at"
            " WHERE table_leases.owner = excluded.owner OR table_leases.expires_at < excluded.claimed_at"
            " OR split_part(table_leases.owner, '#', 1) = split_part(excluded.owner, '#', 1)"
            " RETURNING table_id",
            (self.name, self.lease, list(ids)),
        )
        claimed = [int(r["table_id"]) for r in rows]
        for table_id in claimed:
            self.owned[table_id] = started + self.lease
        return claimed

    async def _claim_new(self, table: Table) -> None:
        """Claim a table just opened (or started) here, then arm what it needs."""
        try:
            if await self._claim([table.id]):
                async with table.lock:
                    await self.refresh(table)
                    self.life.arm(table, None)
        except StoreError:
            log.warning("table %s: could not claim it", table.id, exc_info=True)
        finally:
            self.claiming.discard(table.id)

    async def _adopt(self, ids: list[int]) -> None:
        """Bring claimed tables back: from the log (a copy we already hold is brought
        up to date instead), the timers from their stored deadlines."""
        db = self.svc.db
        rows = [
            TableRow.from_row(r)
            for r in await db.fetchall("SELECT * FROM tables WHERE id = ANY(?) ORDER BY id", (ids,))
        ]
        logs: dict[int, list[ActionRow]] = {}
        for r in await db.fetchall(
            "SELECT * FROM actions WHERE table_id = ANY(?) ORDER BY table_id, seq", (ids,)
        ):
            logs.setdefault(r["table_id"], []).append(ActionRow(**dict(r)))
        hands: dict[int, list[HandMessage]] = {}
        for r in await db.fetchall("SELECT * FROM hand_messages WHERE table_id = ANY(?)", (ids,)):
            hands.setdefault(r["table_id"], []).append(HandMessage(**dict(r)))
        deadlines = {
            r["table_id"]: Deadline(**dict(r))
            for r in await db.fetchall("SELECT * FROM deadlines WHERE table_id = ANY(?)", (ids,))
        }
        snapshots = await self.svc.snapshot_repo.get_many(ids)
        for row in rows:
            self.adoptions += 1
            existing = self.svc.tables.get(row.id)
            if existing is not None:
                async with existing.lock:
                    await self.refresh(existing)
                    for hm in hands.get(row.id, []):
                        existing.hand_messages[hm.seat] = (hm.channel_id, hm.message_id)
                    actions = logs.get(row.id, [])
                    self.life.arm(
                        existing, deadlines.get(row.id), actions[-1].created_at if actions else 0.0
                    )
                    if existing.status == "active":
                        self.life.changed(existing)
            elif not await self.life.bring_back(
                row,
                logs.get(row.id, []),
                hands.get(row.id, []),
                deadlines.get(row.id),
                snapshots.get(row.id),
            ):
                continue  # set aside
            table = self.svc.tables.get(row.id)
            if table is not None and table.status in ("lobby", "active"):
                # what the features do with it (the events' director shows a board dealt
                # and never shown): in the background, the lease round waits for no post
                self.svc.own(self.life.taken_over(table), name=f"taken-over-{row.id}")
        if rows:
            log.info("took over %d table(s): %s", len(rows), ", ".join(str(r.id) for r in rows))

    # ================================================================ stopping

    def stop_lease_rounds(self) -> None:
        """Stop renewing, checking and claiming, the leases kept: this process's tables
        pass to the others once their leases run out (``lease_seconds``), as from a
        process that hangs, while clicks are still taken here. A failover drill on a
        live deployment (is every table run again within the lease time?);
        :meth:`close` is the clean stop, which gives the leases up at once."""
        self._rounds_stopped = True
        if self._keeper is not None:
            self._keeper.cancel()

    async def close(self) -> None:
        """Give every lease up and tell the others, so they claim the tables at once."""
        if self._closed:
            return
        self._closed = True
        if self._keeper is not None:
            self._keeper.cancel()
        try:
            if self.owned:
                async with self.svc.db.transaction():
                    await self.svc.db.execute(
                        "DELETE FROM table_leases WHERE owner = ?", (self.name,)
                    )
                    await self.svc.db.execute("SELECT pg_notify(?, ?)", (LEASES_CHANNEL, self.name))
            self.owned.clear()
        except (StoreError, OSError):
            log.warning("could not give the leases up (they run out by themselves)", exc_info=True)
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._listener.close(), 5)
            self._listener = None
