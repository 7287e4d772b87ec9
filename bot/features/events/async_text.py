"""The asynchronous event's words (pure): its message in the channel, the answers to
**▶ Play**, a board's end in the DM, the standings before the close (progress only)
and the final results and travellers. Short lines: a phone shows them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.present.i18n import _, ngettext
from bot.present.render.common import seat_names
from bot.present.render.daily import signed
from bot.store import EventEntry, EventRow
from bot.tables.events import AsyncStandings, Step
from engine import make_rules

from .text import NAMES_ROOM, packed, percent_text, title


def _when(at: float | None, style: str = "f") -> str:
    return f"<t:{int(at or 0)}:{style}>"


def boards_text(n: int) -> str:
    return ngettext("{n} board", "{n} boards", n).format(n=n)


def registration(event: EventRow, entries: Sequence[EventEntry], done: Mapping[int, int]) -> str:
    """The event's message: what, until when, who has played how many boards (never a
    score before the close)."""
    total = event.boards_per_round
    lines = [
        title(event),
        _("Asynchronous · {boards} alone against the AI · until {deadline}").format(
            boards=boards_text(total), deadline=_when(event.deadline_at)
        ),
    ]
    if event.state == "registering":
        lines.append(
            _("Opens {start}; closes {end}.").format(
                start=_when(event.start_at, "R"), end=_when(event.deadline_at, "R")
            )
        )
    elif event.state == "running":
        lines.append(_("Open now: closes {end}.").format(end=_when(event.deadline_at, "R")))
    elif event.state == "finished":
        lines.append(_("Closed: `/ruff event standings` shows the results."))
    else:
        lines.append(_("Cancelled."))
    who: list[str] = []
    room = NAMES_ROOM
    for e in entries:
        shown = f"{e.name} {done.get(e.user_id, 0)}/{total}"
        room -= len(shown) + 2
        if room < 0:
            who.append(_("+{n} more").format(n=len(entries) - len(who)))
            break
        who.append(shown)
    lines.append(_("Entrants ({n}): {names}").format(n=len(entries), names=", ".join(who) or "–"))
    if event.state == "registering":
        lines.append(_("**Join** now; **▶ Play** comes when it opens."))
    elif event.state == "running":
        lines.append(_("**▶ Play** deals your next board in your DMs (and enters you)."))
    if event.state in ("registering", "running"):
        lines.append(
            _("Results stay hidden until it closes; a board not finished by then scores 25%.")
        )
    return "\n".join(lines)


def opened(event: EventRow, users: Sequence[int]) -> str:
    """Said in the channel when the event opens (the registered mentioned)."""
    head = _(
        "🏆 Event #{id} is open: **▶ Play** on its message deals your first board. Closes {end}."
    ).format(id=event.id, end=_when(event.deadline_at, "R"))
    mentions = "\n".join(
        " ".join(f"<@{u}>" for u in users[i : i + 40]) for i in range(0, len(users), 40)
    )
    return f"{head}\n{mentions}" if mentions else head


def dealt(event: EventRow, board_no: int, seat: int, resumed: bool) -> str:
    """The private answer to **▶ Play**: which board is in the DMs."""
    rules = make_rules(event.game_id, event.preset)
    if resumed:
        first = _("🏆 Your board {number} of {total} of event #{id} is in play in your DMs.")
    else:
        first = _("🏆 Event #{id}: board {number} of {total} ({title}) is in your DMs.")
    return "\n".join(
        (
            first.format(
                id=event.id, number=board_no, total=event.boards_per_round, title=rules.title
            ),
            _(
                "You play {seat}; the other seats are AI. Finish it by {deadline}: "
                "the results come when the event closes."
            ).format(seat=seat_names(rules.players)[seat], deadline=_when(event.deadline_at)),
        )
    )


def step(event: EventRow | None, what: Step) -> str:
    """The private answer to **▶ Play** when nothing was dealt."""
    if event is None or what is Step.NO_EVENT:
        return _("There is no such event.")
    if what is Step.ALL_PLAYED:
        return _(
            "You have played every board of event #{id}. The results come when it closes, {end}."
        ).format(id=event.id, end=_when(event.deadline_at, "R"))
    if what is Step.CLOSED:
        return _("Event #{id} is closed: no more boards.").format(id=event.id)
    if what is Step.NOT_YET:
        return _("Event #{id} opens {start}: **Join** now, **▶ Play** then.").format(
            id=event.id, start=_when(event.start_at, "R")
        )
    if what is Step.NOT_IN:
        return _("You are not in event #{id}: enter with **▶ Play** on its message.").format(
            id=event.id
        )
    return _("That board has just been dealt to you — see your DMs.")


def label(event: EventRow, board_no: int) -> str:
    """What the hand DM of an event's board says where a table names its channel."""
    return _("Event #{id} · board {number} of {total}").format(
        id=event.id, number=board_no, total=event.boards_per_round
    )


def board_end(event: EventRow, board_no: int, result: int, done: int) -> str:
    """A board of the event finished: the player's own result only (the others' and the
    matchpoints come when the event closes)."""
    rules = make_rules(event.game_id, event.preset)
    total = event.boards_per_round
    lines = [
        "✅ "
        + " · ".join(
            (
                _("**Board {number}/{total}**").format(number=board_no, total=total),
                f"**{signed(result)}**",
            )
        ),
        "-# "
        + (
            _("Event #{id} · {title} · the others' results when it closes")
            if event.state == "running"
            else _("Event #{id} · {title}")
        ).format(id=event.id, title=rules.title),
    ]
    if event.state == "cancelled":
        lines.append(_("Event #{id} was cancelled: nothing is ranked.").format(id=event.id))
    elif event.state == "finished":
        lines.append(
            _("Event #{id} has closed: the results are in its channel.").format(id=event.id)
        )
    elif done >= total:
        lines.append(
            _(
                "🏁 All {boards} played. The results are posted in the server when it closes, {end}."
            ).format(boards=boards_text(total), end=_when(event.deadline_at, "R"))
        )
    else:
        lines.append(
            _("{done} of {total} played · closes {end}").format(
                done=done, total=total, end=_when(event.deadline_at, "R")
            )
        )
    return "\n".join(lines)


def stopped(event: EventRow) -> str:
    """Said on the hand DM of a board in play when the event closed."""
    return _("⏰ Event #{id} closed before this board was finished: it scores 25%.").format(
        id=event.id
    )


def standings(view: AsyncStandings) -> str:
    """``/ruff event standings``: before the close how many have played (no score);
    after it the final results."""
    event = view.event
    if not view.closed:
        lines = [
            _("📊 **Event #{id}** · open until {end} ({left})").format(
                id=event.id, end=_when(event.deadline_at), left=_when(event.deadline_at, "R")
            )
            if event.state == "running"
            else _("📊 **Event #{id}** · opens {start}").format(
                id=event.id, start=_when(event.start_at, "R")
            ),
            _(
                "{entrants} · all {boards} played: {finished} · begun: {started} · not begun: {none}"
            ).format(
                entrants=ngettext("{n} entrant", "{n} entrants", view.entrants).format(
                    n=view.entrants
                ),
                finished=view.finished,
                boards=boards_text(view.boards),
                started=view.started - view.finished,
                none=view.entrants - view.started,
            ),
        ]
        shown = [f"{line.name} {line.done}/{view.boards}" for line in view.lines]
        if shown:
            lines.append(" · ".join(shown))
        lines.append(_("Scores stay hidden until the event closes."))
        return "\n".join(lines)
    lines = [
        _("🏁 **Event #{id}: final results** · {boards}").format(
            id=event.id, boards=boards_text(view.boards)
        )
    ]
    for line in view.lines:
        lines.append(
            f"`{line.label:>3}` {line.name} — {percent_text(line.percent)} · {line.done}/{view.boards}"
        )
    if not view.lines:
        lines.append(_("Nobody entered."))
    lines.append(
        _(
            "Matchpoints against everyone's result on the board (the same seat); "
            "a board not finished by the deadline scores 25%."
        )
    )
    return "\n".join(lines)


def travellers(view: AsyncStandings, limit: int = 1900) -> list[str]:
    """Every board's traveller after the close, as messages of at most ``limit``
    characters: each result on it, best first, with its matchpoints."""
    blocks: list[str] = []
    for traveller in view.travellers:
        block = [_("**Board {board}**").format(board=traveller.board)]
        for row in traveller.rows:
            block.append(f"`{signed(row.result):>4}` {row.name} — {percent_text(row.percent)}")
        if traveller.unplayed:
            block.append(
                ngettext(
                    "{n} entrant did not finish it (25%)",
                    "{n} entrants did not finish it (25%)",
                    traveller.unplayed,
                ).format(n=traveller.unplayed)
            )
        blocks.append("\n".join(block))
    heading = _("📋 **Event #{id}: every board's traveller**").format(id=view.event.id)
    return packed(heading, blocks, limit)


def created(event: EventRow) -> str:
    """The private answer to ``/ruff event create`` for an asynchronous event."""
    if event.state == "running":
        return _("Event #{id} is open: members play with **▶ Play** until {end}.").format(
            id=event.id, end=_when(event.deadline_at)
        )
    return _("Event #{id} opens {start}; members can **Join** now.").format(
        id=event.id, start=_when(event.start_at, "R")
    )


def answer(outcome: str, what: str) -> str | None:
    """The async event's own words for a registration answer (None: the common one)."""
    if what == "join" and outcome == "done":
        return _("You are in. **▶ Play** deals your boards once the event is open.")
    if what == "leave" and outcome == "already":
        return _("You have begun its boards: you stay in, and they count.")
    if what == "start" and outcome == "done":
        return _("The event is open: **▶ Play** on its message deals the boards.")
    if what == "checkin":
        return _("There is no check-in in an asynchronous event: **▶ Play** when you like.")
    if what == "partner":
        return _("This event is played alone: there are no partners to choose.")
    return None
