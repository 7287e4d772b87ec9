"""The words of ``/ruff daily``: a board's start, its result with the traveller and
the whole deal (only to a player who has finished it), the day's result and the line
to share, the note in the channel, and the standings.

Pure: values in, text out, in the language of the moment. Scores are matchpoint
percentages (``bot.competition.duplicate``); a board's result is the player's margin
(``engine.board_result``), shown signed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.present.i18n import _, current, ngettext, number
from bot.present.render.common import fit, hand_text, seat_names
from engine import BOARDS_PER_DAY, DealLog, Rules

__all__ = [
    "ABOVE",
    "AT",
    "BELOW",
    "FEWEST_COMPARED",
    "UNPLAYED",
    "BoardLine",
    "TravellerLine",
    "board_done_text",
    "board_end_text",
    "board_share_line",
    "day_line",
    "board_label",
    "day_text",
    "deal_text",
    "finished_post",
    "mark",
    "percent",
    "rank_labels",
    "share_line",
    "standings_text",
    "started_text",
]

ABOVE, AT, BELOW, UNPLAYED = "🟩", "🟨", "🟥", "⬜"
FEWEST_COMPARED = 5
"""A place among fewer players than this ("better than 50% of the players") says
nothing worth saying, so it is not said."""


def percent(value: Fraction | float) -> str:
    """A matchpoint score to a tenth: ``57.1%`` (German ``57,1 %``)."""
    shown = number(float(value), 1)
    return f"{shown}\u00a0%" if current() == "de" else f"{shown}%"


def signed(result: int) -> str:
    return f"{result:+d}"


def mark(result: int | None, par: int | None) -> str:
    """A board in the strip: above, at or below par (not played yet: a blank)."""
    if result is None or par is None:
        return UNPLAYED
    return ABOVE if result > par else AT if result == par else BELOW


def next_board(number: int, total: int, command: str) -> str:
    """After a board: how to play the next."""
    return _("▶ Board {number} of {total} is next: `{command}` deals it.").format(
        number=number, total=total, command=command
    )


def board_label(number: int, total: int, day: str) -> str:
    """What the hand DM of a board says where a table names its channel."""
    return _("Today's deals {day} · board {number} of {total}").format(
        day=day, number=number, total=total
    )


def board_turn(key: str) -> str:
    """The turn ping in a board's DM, named by the board (a board has no table for its
    player): ``Board 2/6: your turn`` (a day's), ``Challenge #3 · board 2: your turn``;
    ``key`` is the board's ``game/preset/series/number``."""
    series, number = key.rsplit("/", 2)[1:]
    if series.startswith("event-"):  # event-<id>-<seed>
        return _("🔔 Event #{event} · board {number}: your turn.").format(
            event=series.removeprefix("event-").split("-", 1)[0], number=number
        )
    if series.startswith("challenge-"):
        return _("🔔 Challenge #{challenge} · board {number}: your turn.").format(
            challenge=series.removeprefix("challenge-"), number=number
        )
    return _("🔔 Board {number}/{total}: your turn.").format(number=number, total=BOARDS_PER_DAY)


def started_text(
    rules: Rules, day: str, number: int, total: int, seat: int, hour: int, resumed: bool
) -> str:
    """The private answer to ``/ruff daily`` when a board starts or is resumed."""
    where = seat_names(rules.players)[seat]
    if resumed:
        first = _("🃏 Board {number} of {total} of today's {title} deals is in your DMs.")
    else:
        first = _("🃏 Board {number} of {total} of today's {title} deals ({day}) is in your DMs.")
    return "\n".join(
        (
            first.format(number=number, total=total, title=rules.title, day=day),
            _(
                "You play {seat}; the other seats are AI. Everyone everywhere gets the same "
                "boards; each is played once. New deals every day at {hour:02d}:00 UTC."
            ).format(seat=where, hour=hour),
        )
    )


@dataclass(frozen=True, slots=True)
class TravellerLine:
    """One result on a board's traveller."""

    name: str
    result: int
    points: Fraction | None  # matchpoints; None for the par line
    you: bool = False


def deal_text(deal: DealLog, rules: Rules, start_scores: tuple[int, ...]) -> list[str]:
    """The whole deal as dealt: each seat's hand, the stock or kitty, the turn-up."""
    names = seat_names(deal.n_players)
    lines = [_("**The deal** (dealer {dealer}):").format(dealer=names[deal.dealer])]
    for seat, cards in enumerate(deal.hands):
        lines.append(f"`{names[seat]:<6}` {hand_text(cards, deal.trump)}")
    if deal.stock:
        lines.append(_("Stock: {cards}").format(cards=hand_text(deal.stock, deal.trump)))
    if deal.turn_up is not None:
        lines.append(_("Turn-up: {card}").format(card=hand_text((deal.turn_up,), deal.trump)))
    if start_scores:
        lines.append(
            _("The board began at {scores}.").format(scores="–".join(str(s) for s in start_scores))
        )
    return lines


def board_done_text(
    rules: Rules,
    day: str,
    number: int,
    total: int,
    mine: int,
    points: Fraction,
    par: int | None,
    traveller: Sequence[TravellerLine],
    deal: list[str],
    field: int,
) -> str:
    """A finished board, to its player: the result, matchpoints, the traveller of
    their server (names and results), the par, and the whole deal."""
    lines = [
        _("✅ Board {number} of {total} · {title} · {day}").format(
            number=number, total=total, title=rules.title, day=day
        ),
        _("Your result: **{result}** · {points} of the matchpoints against {field}").format(
            result=signed(mine),
            points=percent(points),
            field=ngettext("{n} other result", "{n} other results", field).format(n=field),
        ),
        _("**Traveller** (this server):"),
    ]
    for line in traveller:
        if line.points is None:
            lines.append(
                _("`{result:>4}` par (the AI in your seat)").format(result=signed(line.result))
            )
        else:
            who = _("{name} (you)").format(name=line.name) if line.you else line.name
            lines.append(f"`{signed(line.result):>4}` {who} — {percent(line.points)}")
    if par is None:
        lines.append(_("(the par is still being worked out)"))
    lines.extend(deal)
    return fit(lines)


def board_end_text(
    headline: str,
    context: str,
    mine: int,
    points: Fraction | None,
    par: int | None,
    traveller: Sequence[TravellerLine],
    after: Sequence[str] = (),
) -> str:
    """A finished board as its one message (the board's DM, edited): the result line
    ("✅ **Board 1/6** · **−7** · 50% · par −7"), a small line of what it was, the
    traveller, then ``after`` (the day's line after the last board). The deal is
    behind a button: the message stays short on a phone."""
    parts = [headline, f"**{signed(mine)}**"]
    if points is not None:
        parts.append(percent(points))
    parts.append(
        _("par {result}").format(result=signed(par)) if par is not None else _("par to come")
    )
    lines = ["✅ " + " · ".join(parts), "-# " + context]
    if traveller:
        lines.append(_("**Traveller** (this server):"))
    for line in traveller:
        if line.points is None:
            lines.append(
                _("`{result:>4}` par (the AI in your seat)").format(result=signed(line.result))
            )
        else:
            who = _("{name} (you)").format(name=line.name) if line.you else line.name
            lines.append(f"`{signed(line.result):>4}` {who} — {percent(line.points)}")
    lines.extend(after)
    return fit(lines)


def board_share_line(
    rules: Rules,
    day: str,
    number: int,
    total: int,
    points: Fraction | None,
    result: int,
    par: int | None,
) -> str:
    """One board's line to paste anywhere: nothing of its cards or its score, only the
    matchpoints and the mark against par, so it spoils the board for nobody."""
    shown = percent(points) if points is not None else "—"
    return _("🃏 {title} · deals of {day} · board {number}/{total}: {score} {mark}").format(
        title=rules.title,
        day=day,
        number=number,
        total=total,
        score=shown,
        mark=mark(result, par),
    )


def day_line(rules: Rules, boards: Sequence[BoardLine], score: Fraction | None) -> str:
    """The day's standing in one line, under the last board: the score and the strip."""
    strip = "".join(mark(b.result, b.par) for b in boards)
    shown = percent(score) if score is not None else "—"
    return _("🏁 Day done: **{score}** {strip} · `/ruff daily standings:today`").format(
        score=shown, strip=strip
    )


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One of the day's boards, for the day's text and the strip."""

    number: int
    result: int | None
    par: int | None
    points: Fraction | None


def share_line(rules: Rules, day: str, boards: Sequence[BoardLine], score: Fraction | None) -> str:
    """The line a player may paste anywhere: game, date, score, one mark per board."""
    strip = "".join(mark(b.result, b.par) for b in boards)
    shown = percent(score) if score is not None else "—"
    return _("🃏 {title} · deals of {day} · {score} {strip}").format(
        title=rules.title, day=day, score=shown, strip=strip
    )


def day_text(
    rules: Rules,
    day: str,
    boards: Sequence[BoardLine],
    score: Fraction | None,
    place: Fraction | None,
    hour: int,
    done: bool,
    compared: int | None = None,
) -> str:
    """The player's day so far: each board's result, the day's score, where it stands
    among everyone, the line to share. ``place`` (the share of today's other players
    beaten) is said only when ``compared``, the number of today's players it is among,
    is :data:`FEWEST_COMPARED` or more; not told, it is not said."""
    played = sum(1 for b in boards if b.result is not None)
    if done:
        head = _("🏁 You have played all {total} of today's {title} deals ({day}).")
    else:
        head = _("🃏 Today's {title} deals ({day}): {played} of {total} played.")
    lines = [head.format(total=len(boards), title=rules.title, day=day, played=played)]
    for b in boards:
        if b.result is None or b.points is None:
            continue
        par = _("par {result}").format(result=signed(b.par)) if b.par is not None else ""
        lines.append(
            _("Board {number}: {result} · {points} {par}")
            .format(number=b.number, result=signed(b.result), points=percent(b.points), par=par)
            .rstrip()
        )
    if score is not None:
        text = _("Your score today: **{score}**").format(score=percent(score))
        if place is not None and (compared or 0) >= FEWEST_COMPARED:
            text += _(" · better than {place} of today's players everywhere").format(
                place=percent(place)
            )
        lines.append(text)
        lines.append(_("Share it:"))
        lines.append(share_line(rules, day, boards, score))
    lines.append(
        _(
            "Standings: `/ruff daily standings:today`. New deals every day at {hour:02d}:00 UTC."
        ).format(hour=hour)
    )
    return fit(lines)


def finished_post(name: str, rules: Rules, day: str, score: Fraction) -> str:
    """The note in the channel where a player started the day: that they finished, and
    their score (nothing of the boards)."""
    return _("🃏 {name} finished today's {title} deals ({day}): {score}.").format(
        name=name, title=rules.title, day=day, score=percent(score)
    )


PERIODS = ("today", "week", "all")
SHOWN = 30  # players a standings message lists


def rank_labels(scores: Sequence[Fraction]) -> list[str]:
    """The ranks of ``scores`` (best first): ``1``, ``=2``, ``=2``, ``4`` — a shared
    rank marked ``=``, as a results table writes it (never ``2.``, which Discord's
    Markdown renumbers 1, 2, 3)."""
    ranks: list[int] = []
    for i, score in enumerate(scores):
        ranks.append(ranks[-1] if i and scores[i - 1] == score else i + 1)
    return [f"={r}" if ranks.count(r) > 1 else str(r) for r in ranks]


def standings_text(
    rules: Rules,
    period: str,
    day: str,
    rows: Sequence[tuple[int, str, int, Fraction]],
    me: tuple[Fraction, Fraction | None] | None,
    in_server: bool,
    boards_today: int | None = None,
    compared: int | None = None,
) -> str:
    """The standings of a period: rank, name, score, boards; and the reader's own
    score with its place among everyone (every server).

    ``rows`` come best first. Today's standings (``boards_today``: the day's number
    of boards) rank only the players who have played them all; the others follow,
    unranked, as still playing, with their boards so far. Ties share a rank, written
    ``=1``. ``compared``: how many players the reader's place is among (everyone's,
    every server); it is said only among :data:`FEWEST_COMPARED` or more. Not told,
    the rows listed stand for that count (they are never more than everyone).
    Without ``boards_today`` every row is ranked."""
    title = {
        "today": _("today ({day})").format(day=day),
        "week": _("the 7 days to {day}").format(day=day),
        "all": _("all time"),
    }[period]
    where = _("this server") if in_server else _("everyone, every server")
    lines = [
        _("🏆 **{title} daily deals** — {period}, {where}").format(
            title=rules.title, period=title, where=where
        )
    ]
    if not rows:
        lines.append(_("No finished boards yet."))
    whole = boards_today if period == "today" and boards_today else None
    ranked = [r for r in rows if whole is None or r[2] >= whole]
    playing = [r for r in rows if whole is not None and r[2] < whole]
    if rows and not ranked:
        lines.append(_("Nobody has played all of today's boards yet."))
    for label, (_rank, name, boards, score) in zip(
        rank_labels([r[3] for r in ranked]), ranked[:SHOWN], strict=False
    ):
        if whole is not None:  # today's ranked all played every board: no count to say
            lines.append(
                _("{rank} · {name} — {score}").format(rank=label, name=name, score=percent(score))
            )
            continue
        lines.append(
            _("{rank} · {name} — {score} ({boards})").format(
                rank=label,
                name=name,
                score=percent(score),
                boards=ngettext("{n} board", "{n} boards", boards).format(n=boards),
            )
        )
    room = SHOWN - min(len(ranked), SHOWN)
    if playing and room:
        # one short line each (a phone's line holds ~40 characters): the score so far
        # and the boards played of the day's, under a heading that says what they are
        lines.append(_("Still playing (boards so far):"))
        for _rank, name, boards, score in playing[:room]:
            lines.append(
                _("· {name} — {score} · {boards}/{total}").format(
                    name=name, score=percent(score), boards=boards, total=whole
                )
            )
    if me is not None:
        score, place = me
        text = _("You: {score}").format(score=percent(score))
        # not told how many: the rows listed are at least as many as everyone's
        known = compared if compared is not None else len(rows)
        if place is not None and known >= FEWEST_COMPARED:
            text += _(" · better than {place} of the players everywhere").format(
                place=percent(place)
            )
        lines.append(text)
    return fit(lines)


# ---------------------------------------------------------------- challenges


def challenge_label(challenge_id: int, number: int, total: int) -> str:
    """What the hand DM of a challenge's board says where a table names its channel."""
    return _("Challenge #{challenge} · board {number} of {total}").format(
        challenge=challenge_id, number=number, total=total
    )


def challenge_board_text(
    rules: Rules,
    challenge_id: int,
    number: int,
    total: int,
    seat: int,
    opponent: str,
    deadline: float,
) -> str:
    """A challenge's board dealt (or resumed) in the DM."""
    return "\n".join(
        (
            _(
                "⚔️ Challenge #{challenge} against {opponent}: board {number} of {total} ({title}) is in your DMs."
            ).format(
                challenge=challenge_id,
                opponent=opponent,
                number=number,
                total=total,
                title=rules.title,
            ),
            _("You play {seat}; the other seats are AI. Play every board by {deadline}.").format(
                seat=seat_names(rules.players)[seat], deadline=f"<t:{int(deadline)}:f>"
            ),
        )
    )


def challenge_invite(
    rules: Rules, challenge_id: int, challenger: str, boards: int, deadline: float
) -> str:
    """The DM to the challenged player, above its **Play** and **Decline** buttons."""
    return "\n".join(
        (
            _(
                "⚔️ **{challenger}** challenges you: {boards} of {title} (challenge #{challenge})."
            ).format(
                challenger=challenger,
                boards=ngettext("{n} board", "{n} boards", boards).format(n=boards),
                title=rules.title,
                challenge=challenge_id,
            ),
            "-# "
            + _(
                "The same boards for you both, each played alone against the AI, compared "
                "board by board. Play by {deadline}; the AI plays what is left then."
            ).format(deadline=f"<t:{int(deadline)}:f>"),
        )
    )


def challenge_board_done(
    rules: Rules,
    challenge_id: int,
    number: int,
    total: int,
    mine: int,
    par: int | None,
    theirs: tuple[str, int] | None,
    deal: list[str],
) -> str:
    """A challenge's board finished, to its player: their result, the par, the
    opponent's if they have played it, the deal."""
    lines = [
        _("✅ Challenge #{challenge} · board {number} of {total} · {title}").format(
            challenge=challenge_id, number=number, total=total, title=rules.title
        ),
        _("Your result: **{result}**").format(result=signed(mine))
        + (_(" · par {result}").format(result=signed(par)) if par is not None else ""),
    ]
    if theirs is not None:
        lines.append(_("{name}: {result}").format(name=theirs[0], result=signed(theirs[1])))
    lines.extend(deal)
    return fit(lines)


def challenge_waiting(challenge_id: int, opponent: str, deadline: float) -> str:
    return _(
        "⏳ You have played every board of challenge #{challenge}; the comparison comes when "
        "{opponent} has too, or at {deadline}."
    ).format(challenge=challenge_id, opponent=opponent, deadline=f"<t:{int(deadline)}:f>")


@dataclass(frozen=True, slots=True)
class ChallengeLine:
    """One board of a settled challenge: each side's result, and whether the AI played it."""

    number: int
    first: int
    first_ai: bool
    second: int
    second_ai: bool
    par: int | None = None  # the AI's own result in the seat (None: not worked out)


def challenge_result(
    rules: Rules, challenge_id: int, first: str, second: str, lines: Sequence[ChallengeLine]
) -> str:
    """The challenge compared board by board, side by side: each board's two results
    and who won it (◀), the boards won each, who won."""
    won = sum(1 for b in lines if b.first > b.second)
    lost = sum(1 for b in lines if b.first < b.second)
    if won > lost:
        verdict = _("**{name}** wins").format(name=first)
    elif lost > won:
        verdict = _("**{name}** wins").format(name=second)
    else:
        verdict = _("a draw")
    out = [
        _("🏁 **Challenge #{challenge}** · {title}").format(
            challenge=challenge_id, title=rules.title
        ),
        _("{first} {won}–{lost} {second} — {verdict}").format(
            first=first, won=won, lost=lost, second=second, verdict=verdict
        ),
    ]
    a_name, b_name = first[:9], second[:9]
    width = max(len(a_name), len(b_name), 4)
    # the par beside them: whether a board was played well, not only who won it
    pars = any(b.par is not None for b in lines)
    par_word = _("par")
    par_head = f" {par_word:>4}" if pars else ""
    table = [f"{'#':<2} {a_name:>{width}}   {b_name:>{width}}  {par_head}".rstrip()]
    for b in lines:
        a_mark = "◀" if b.first > b.second else " "
        b_mark = "◀" if b.second > b.first else ("=" if b.first == b.second else " ")
        a_text = signed(b.first) + ("*" if b.first_ai else "")
        b_text = signed(b.second) + ("*" if b.second_ai else "")
        par = f" {signed(b.par) if b.par is not None else '':>4}" if pars else ""
        table.append(
            f"{b.number:<2} {a_text:>{width}} {a_mark} {b_text:>{width}} {b_mark}{par}".rstrip()
        )
    out.append("```\n" + "\n".join(table) + "\n```")
    notes = [_("`◀` won the board")]
    if any(b.first_ai or b.second_ai for b in lines):
        notes.append(_("* played by the AI"))
    out.append("-# " + " · ".join(notes))
    return "\n".join(out)
