"""The events' words (pure): the registration message, a round's seating, a table's
thread, the standings, and every private answer. Short lines: a phone shows them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from bot.present.i18n import _, ngettext, number, percent
from bot.store import EventEntry, EventRow, EventTable
from bot.tables.events import MIN_COMPLETION, Outcome, StandingsView
from engine import make_rules

SEAT_LETTERS = ("N", "E", "S", "W")
NAMES_ROOM = 1200  # characters of names on the registration message (Discord's limit: 2000)


def format_name(fmt: str) -> str:
    if fmt == "individual":
        return _("Individual, barometer")
    if fmt == "pairs":
        return _("Pairs, barometer")
    return _("Swiss pairs")


def title(event: EventRow) -> str:
    rules = make_rules(event.game_id, event.preset)
    return _("🏆 **Event #{id}** · {game}").format(id=event.id, game=rules.title)


def percent_text(value: Fraction | None) -> str:
    """A matchpoint percentage to one decimal; "–" before there is one."""
    if value is None:
        return "–"
    shown = number(float(value), 1)
    # a no-break space where the language spaces the sign ("100,0 %"): a 400 px line
    # wrapped before the "%" and left it alone on the next
    return _("{value}%").format(value=shown).replace(" %", "\u00a0%")


def registration(event: EventRow, entries: Sequence[EventEntry]) -> str:
    """The registration message: what, when, who."""
    lines = [
        title(event),
        _("{format} · {rounds} × {boards} · {minutes} min a board").format(
            format=format_name(event.format),
            rounds=ngettext("{n} round", "{n} rounds", event.rounds).format(n=event.rounds),
            boards=ngettext("{n} board", "{n} boards", event.boards_per_round).format(
                n=event.boards_per_round
            ),
            minutes=number(event.minutes_per_board, 1).removesuffix(".0").removesuffix(",0"),
        ),
        _("⭐ Rated: the boards count for the server's ratings and stats.")
        if event.rated
        else _("Unrated: ratings and stats stay as they are."),
    ]
    if event.state == "registering":
        lines.append(_("Starts <t:{at}:R> (<t:{at}:t>).").format(at=int(event.start_at)))
    elif event.state == "running":
        lines.append(
            _(
                "Round {round} of {rounds} under way. Joining now: you play from the next round."
            ).format(round=event.round, rounds=event.rounds)
        )
    elif event.state == "finished":
        lines.append(_("Finished: `/ruff event standings` shows the results."))
    else:
        lines.append(_("Cancelled."))
    names = {e.user_id: e.name for e in entries}
    active = [e for e in entries if e.left_round is None]
    if event.format == "individual":
        who = [f"{e.name}{' ✅' if e.checked_in else ''}" for e in active]
    else:
        who = []
        done: set[int] = set()
        for e in active:
            if e.user_id in done:
                continue
            partner = next((p for p in active if p.user_id == e.partner_id), None)
            if partner is not None and partner.partner_id == e.user_id:
                done |= {e.user_id, partner.user_id}
                mark = " ✅" if e.checked_in and partner.checked_in else ""
                who.append(f"{e.name} & {partner.name}{mark}")
            elif e.partner_id is not None:
                who.append(
                    _("{name} (asked {partner})").format(
                        name=e.name, partner=names.get(e.partner_id, "?")
                    )
                )
            else:
                who.append(_("{name} (no partner yet)").format(name=e.name))
    shown: list[str] = []
    room = NAMES_ROOM
    for name in who:  # a large field: the first names, then how many more
        room -= len(name) + 2
        if room < 0:
            shown.append(_("+{n} more").format(n=len(who) - len(shown)))
            break
        shown.append(name)
    lines.append(
        _("Registered ({n}): {names}").format(n=len(active), names=", ".join(shown) or "–")
    )
    if event.state in ("registering", "running"):
        if event.format == "individual":
            lines.append(_("**Join** to play."))
        else:
            lines.append(_("**Join**, then choose your partner; a pair plays once both chose."))
        lines.append(
            _(
                "**Check in** when you are here (✅). At the start the AI plays the seat of "
                "anyone not checked in, until they check in or take their seat back."
            )
        )
    return "\n".join(lines)


def seats_line(table: EventTable, names: Mapping[int, str]) -> str:
    parts = []
    for seat, user in enumerate(table.seats):
        if user is None:
            who = _("AI")
        else:
            who = names.get(user, str(user))
            if seat in table.ai_for:
                who += " 🤖"
        parts.append(f"{SEAT_LETTERS[seat]} {who}")
    return " · ".join(parts)


def table_post(event: EventRow, table: EventTable, names: Mapping[int, str]) -> str:
    """The first message of a table's thread: who sits where, which boards."""
    boards = event.boards_of(table.round)
    lines = [
        _("Event #{id} · round {round} · table {table}").format(
            id=event.id, round=table.round, table=table.number
        ),
        seats_line(table, names),
        _("Boards {first}–{last}, played here one after the other; your hand comes by DM.").format(
            first=boards[0], last=boards[-1]
        )
        if len(boards) > 1
        else _("Board {board}, played here; your hand comes by DM.").format(board=boards[0]),
    ]
    if table.ai_for:
        lines.append(
            _(
                "🤖 The AI plays for who has not checked in, until they check in or take the seat back."
            )
        )
    return "\n".join(lines)


def private_note() -> str:
    """Said at the top of a table's private thread."""
    return _("🔒 Only this table's players see this thread: the other tables play the same boards.")


def thread_name(event: EventRow, table: EventTable) -> str:
    return _("Event {id} · round {round} · table {table}").format(
        id=event.id, round=table.round, table=table.number
    )


def round_begun(
    event: EventRow,
    round_no: int,
    tables: Sequence[EventTable],
    names: Mapping[int, str],
    bye: Sequence[tuple[int, int]] = (),
) -> str:
    """A round's seating: who sits where; a Swiss round's ``bye`` (its pairs' players),
    and who is not seated this round with what to do to play the next."""
    boards = event.boards_of(round_no)
    lines = [
        _("**Round {round} of {rounds}** · boards {first}–{last}").format(
            round=round_no, rounds=event.rounds, first=boards[0], last=boards[-1]
        )
        if len(boards) > 1
        else _("**Round {round} of {rounds}** · board {board}").format(
            round=round_no, rounds=event.rounds, board=boards[0]
        )
    ]
    for t in tables:
        lines.append(_("Table {n}: {seats}").format(n=t.number, seats=seats_line(t, names)))
    for a, b in bye:
        pair = f"{names.get(a, str(a))} & {names.get(b, str(b))}"
        lines.append(_("Bye: {pair} (1 point, no boards this round)").format(pair=pair))
    seated = {u for t in tables for u in t.seats if u is not None} | {u for p in bye for u in p}
    waiting = [n for u, n in names.items() if u and u not in seated]
    if waiting:
        lines.append(_("Not seated this round: {names}").format(names=", ".join(sorted(waiting))))
        last = round_no >= event.rounds  # the last round: no next one to play
        if not last and event.format == "individual":
            lines.append(_("**Check in** on the event's message to play from the next round."))
        elif not last:
            lines.append(
                _(
                    "A pair plays from the next round once both partners have chosen each "
                    "other and pressed **Check in** on the event's message."
                )
            )
    return "\n".join(lines)


def skipped(boards: Sequence[int]) -> str:
    return ngettext(
        "⏱️ Board {boards} could not start in time: scored 60/40 by thinking time "
        "(the quicker side 60%).",
        "⏱️ Boards {boards} could not start in time: scored 60/40 by thinking time "
        "(the quicker side 60%).",
        len(boards),
    ).format(boards=", ".join(str(b) for b in boards))


def standings(view: StandingsView) -> str:
    event = view.event
    if view.final:
        head = _("🏁 **Event #{id}: final results**").format(id=event.id)
    elif view.through:
        head = _("📊 **Event #{id}: standings after round {round} of {rounds}**").format(
            id=event.id, round=view.through, rounds=event.rounds
        )
    else:
        head = _("📊 **Event #{id}**: no round scored yet.").format(id=event.id)
    lines = [head]
    for line in view.lines:
        # (i18n.percent keeps a spaced sign on its line itself: "100\u00a0%")
        played = _("{share} played").format(share=percent(float(line.completion)))
        if line.score is not None:
            points = _("{points} pts").format(points=number(float(line.score), 1))
            lines.append(
                f"`{line.label:>3}` {line.name} — {points} · {percent_text(line.percent)} · {played}"
            )
        else:
            lines.append(f"`{line.label:>3}` {line.name} — {percent_text(line.percent)} · {played}")
    if view.lines:
        lines.append(
            _("Matchpoints against the same seat at the other tables; 🤖 boards at most 50%.")
        )
    if any(line.rank is None for line in view.lines):  # say why a line has no rank
        lines.append(
            _(
                "`-` unranked: played fewer than {share} of their boards (the AI played the rest)."
            ).format(share=percent(float(MIN_COMPLETION)))
        )
    return "\n".join(lines)


def cancelled(event: EventRow) -> str:
    """The channel's word that ``event`` (as it was before the cancel) is cancelled."""
    if event.state == "running":
        return _(
            "🛑 **Event #{id} is cancelled**: no results. A board in play may be finished; "
            "it counts for nothing."
        ).format(id=event.id)
    return _("🛑 **Event #{id} is cancelled**: it will not start.").format(id=event.id)


def not_started(event: EventRow, registered: int) -> str:
    return _(
        "Event #{id} could not start: {n} registered, at least 2 entrants needed. "
        "It waits: `/ruff event start` once more have joined, or `/ruff event cancel`."
    ).format(id=event.id, n=registered)


def answer(outcome: Outcome, what: str) -> str:
    """The private answer to a click or a command."""
    if outcome is Outcome.DONE:
        return {
            "join": _("You are registered. Check in when you are here."),
            "leave": _("You are no longer in this event."),
            "checkin": _("Checked in: you play every round from now."),
            "partner": _("You are a pair now."),
            "start": _("The event has started: round 1 is being dealt."),
            "cancel": _("The event is cancelled."),
        }.get(what, _("Done."))
    return {
        Outcome.LATE: _("You are in: you play from the next round (you are checked in)."),
        Outcome.NO_EVENT: _("There is no such event."),
        Outcome.NOT_OPEN: _("This event is not open for that any more."),
        Outcome.ALREADY: _("You did that already — nothing changed."),
        Outcome.NOT_IN: _("You are not registered for this event (or your partner is not)."),
        Outcome.TOO_FEW: _("Not enough entrants yet: at least 2 are needed."),
        Outcome.NOT_PAIRS: _("This event is individual: there are no partners to choose."),
        Outcome.SELF: _("Choose someone else as your partner."),
        Outcome.PARTNER_WAITING: _("Partner chosen; the pair plays once they choose you too."),
    }.get(outcome, _("Done."))


def travellers(view: StandingsView, limit: int = 1900) -> list[str]:
    """Every board's traveller, as messages of at most ``limit`` characters: for each
    table, who sat north-south against whom, north-south's result and matchpoints."""
    blocks: list[str] = []
    for traveller in view.travellers:
        block = [
            _("**Board {board}** (round {round})").format(
                board=traveller.board, round=traveller.round
            )
        ]
        for row in traveller.rows:
            if row.result is None:
                result = _("⏱️ skipped")
            else:
                result = _("**{result}** · NS {percent}").format(
                    result=f"{row.result:+d}", percent=percent_text(row.ns_percent)
                )
            block.append(
                _("`T{table}` {ns} v {ew}: {result}").format(
                    table=row.table, ns=row.ns, ew=row.ew, result=result
                )
            )
        blocks.append("\n".join(block))
    heading = _("📋 **Event #{id}: every board's traveller**").format(id=view.event.id)
    return packed(heading, blocks, limit)


def packed(heading: str, blocks: Sequence[str], limit: int = 1900) -> list[str]:
    """``heading`` then ``blocks`` (each several lines, kept whole) as messages of at most
    ``limit`` characters: a large event's travellers."""
    messages: list[str] = []
    lines, size = [heading], len(heading)
    for block in blocks:
        if size + len(block) + 1 > limit and lines:
            messages.append("\n".join(lines))
            lines, size = [], 0
        lines.append(block)
        size += len(block) + 1
    if lines:
        messages.append("\n".join(lines))
    return messages


def pieces(text: str, limit: int = 1900) -> list[str]:
    """``text`` cut at line ends into messages of at most ``limit`` characters (the
    standings of a large field)."""
    out: list[str] = []
    current = ""
    for line in text.splitlines():
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line[:limit]
    if current:
        out.append(current)
    return out


def reminder(event: EventRow, users: Sequence[int]) -> str:
    """Before the start: who registered and has not checked in, mentioned."""
    return _(
        "⏰ Event #{id} starts <t:{at}:R>. {players}: press **Check in** on the "
        "registration message, or the AI plays your seat until you do."
    ).format(
        id=event.id,
        at=int(event.start_at),
        # forty mentions a line: a large field's reminder is cut at line ends
        players="\n".join(
            " ".join(f"<@{u}>" for u in users[i : i + 40]) for i in range(0, len(users), 40)
        ),
    )
