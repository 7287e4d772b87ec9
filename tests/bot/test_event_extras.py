"""``/ruff event``, what the first events left undone: a rated event (the server's
choice) changes the ratings and an unrated one does not; a private table thread holds
only who plays at its table; the standings picture after each round."""

from __future__ import annotations

import random
import re
from typing import Any

import discord
import pytest
import simcord.interactions

from bot.present import render
from bot.present.chart import deal_history
from bot.present.i18n import using
from bot.store import EventRepo, RatingRepo, ResultRepo
from engine import Event, MatchOver

from .helpers import (
    button_labels,
    buttons,
    card_labels,
    enabled_cards,
    forged_click,
    hand_message,
    message_text,
    table_message,
)
from .test_events import _play_some
from .test_hand_copies import _assert_current

pytestmark = pytest.mark.slow  # whole boards through the simulator

CLICKS = 3000


def _registration(channel: Any, event_id: int) -> discord.Message:
    return next(m for m in channel.history() if m.content.startswith(f"🏆 **Event #{event_id}**"))


async def _run_event(
    env: Any, mod: Any, channel: Any, members: list[Any], event_id: int, **options: Any
) -> None:
    """Create a one-table event in ``channel``, everyone joins and checks in, it starts
    and is played to its end by random legal clicks."""
    options = {"rounds": 1, "boards": 2, **options}
    res = await mod.slash(channel, "ruff event create", game="whist-5", minutes=60, **options)
    assert f"Event #{event_id} is open" in res.response.content, res.response.content
    for m in members:
        await m.click(_registration(channel, event_id), label="Join")
        await m.click(_registration(channel, event_id), label="Check in")
    res = await mod.slash(channel, "ruff event start", event=event_id)
    assert "round 1 is being dealt" in res.response.content, res.response.content
    await env.settle()
    await _play_some(env, {m.id: m for m in members}, random.Random(event_id), CLICKS)
    event = await EventRepo(env.bot.db).get(event_id)
    assert event is not None and event.state == "finished", event


async def test_only_an_event_the_server_chose_to_rate_changes_ratings(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]
    db = env.bot.db

    unrated = guild.create_text_channel("friendly")
    await _run_event(env, mod, unrated, members, 1)  # the default: unrated
    assert "Unrated: ratings and stats stay as they are." in _registration(unrated, 1).content
    assert await RatingRepo(db).events() == []
    assert await RatingRepo(db).all() == []
    assert await RatingRepo(db).unrated_tables() == []  # nor will a rebuild rate them
    res = await members[0].slash(unrated, "ruff stats")
    assert "has not finished a game here yet" in res.response.content

    rated = guild.create_text_channel("ladder")
    await _run_event(env, mod, rated, members, 2, rated=True)
    assert "⭐ Rated" in _registration(rated, 2).content
    boards = await EventRepo(db).boards(2)
    rated_tables = {e.table_id for e in await RatingRepo(db).events()}
    assert rated_tables == {b.table_id for b in boards}  # each board rated, once
    people = {r.player for r in await RatingRepo(db).all() if not r.player.startswith("ai:")}
    assert people == {str(m.id) for m in members}
    for b in boards:  # and recorded among the server's games, as an ordinary game is
        assert b.table_id is not None
        assert {r.user_id for r in await ResultRepo(db).for_table(b.table_id)} == {
            m.id for m in members
        }
    res = await members[0].slash(rated, "ruff stats")
    assert "2 games" in res.response.content  # the stats show the two rated boards


def _thread_players(env: Any, thread_id: int) -> set[int]:
    """Who is in a thread (the bot left out)."""
    return set(env.backend.get_channel(thread_id).thread_members) - {env.bot.user.id}


async def test_a_table_thread_holds_who_plays_at_the_table_now(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("events")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan", "eve")]
    by_id = {m.id: m for m in members}
    bob, eve = members[1], members[4]
    res = await mod.slash(
        channel, "ruff event create", game="whist-5", rounds=2, boards=1, minutes=60
    )
    assert "Event #1 is open" in res.response.content
    for m in members:
        await m.click(_registration(channel, 1), label="Join")
    for m in members[:4]:  # eve does not check in: a no-show
        await m.click(_registration(channel, 1), label="Check in")
    await mod.slash(channel, "ruff event start")
    await env.settle()
    repo = EventRepo(env.bot.db)
    round1 = await repo.tables(1, 1)
    assert len(round1) == 2
    for t in round1:  # a thread of who plays there: not eve, whose seat the AI plays
        players = {u for u in t.seats if u is not None} - {eve.id}
        assert _thread_players(env, t.thread_id) == players
    eve_table = next(t for t in round1 if eve.id in t.seats)
    # eve turns up and checks in: her seat is hers again, and she is in her table's thread
    res = await eve.click(_registration(channel, 1), label="Check in")
    assert "Checked in" in res.response.content
    await env.settle()
    assert eve.id in _thread_players(env, eve_table.thread_id)
    # bob leaves: the AI plays his seat from now on, and he leaves his table's thread
    # at once (his table's players stay)
    bob_table = next(t for t in round1 if bob.id in t.seats)
    assert bob.id in _thread_players(env, bob_table.thread_id)
    res = await bob.click(_registration(channel, 1), label="Leave")
    assert "no longer in this event" in res.response.content
    await env.settle()
    assert _thread_players(env, bob_table.thread_id) == {
        u for u in bob_table.seats if u is not None
    } - {bob.id}
    (board,) = [
        t
        for t in env.bot.manager.tables.values()
        if t.settings.event and t.status == "active" and t.seat_of(bob.id) is not None
    ]
    assert board.away == {bob_table.seats.index(bob.id)}
    thread = next(th for th in channel.threads if th.id == bob_table.thread_id)
    assert "Take my seat back" in [b.label for b in buttons(table_message(thread))]
    assert "the AI is playing your cards" in hand_message(bob).content
    # round 1 played: everyone sits at a new table in round 2, bob nowhere
    rng = random.Random(3)
    while not await repo.tables(1, 2):
        assert await _play_some(env, by_id, rng, 1) == 1
    await env.settle()
    round2 = await repo.tables(1, 2)
    assert bob.id not in {u for t in round2 for u in t.seats}
    for t in round1:  # the round's threads lose their players
        assert _thread_players(env, t.thread_id) == set()
    for t in round2:  # the new round's threads hold who plays there
        assert _thread_players(env, t.thread_id) == {u for u in t.seats if u is not None}
    await _play_some(env, by_id, rng, CLICKS)
    event = await repo.get(1)
    assert event is not None and event.state == "finished"
    for t in round2:  # the last round's threads keep their players: nothing follows
        assert _thread_players(env, t.thread_id) == {u for u in t.seats if u is not None}


def _picture(message: discord.Message) -> discord.Attachment:
    (attachment,) = message.attachments
    assert attachment.filename == "standings.png"
    return attachment


def _lines_said(post: str) -> list[tuple[str, str, str, str]]:
    """The standings text's lines: (label, name, score, played)."""
    out = []
    for line in post.splitlines()[1:]:
        match = re.match(r"`\s*(=?\d+|-)` (\w+) — ([\d.]+%) · (\d+%) played", line)
        if match:
            out.append((match[1], match[2], match[3], match[4]))
    return out


async def test_the_standings_come_with_a_picture_after_each_round_and_at_the_end(
    simcord_env: Any,
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("events")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    names = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")
    members = [guild.add_member(env.create_user(n)) for n in names]
    await _run_event(env, mod, channel, members, 1, rounds=2, boards=2)
    posts = {m.content.splitlines()[0]: m for m in channel.history()}
    after1 = posts["📊 **Event #1: standings after round 1 of 2**"]
    final = posts["🏁 **Event #1: final results**"]
    for post, heading in ((after1, "Standings after round 1 of 2"), (final, "Final results")):
        alt = _picture(post).description or ""
        assert alt.startswith(f"Event #1 · Whist 5-Point. {heading}."), alt
        said = _lines_said(post.content)
        assert len(said) == 8
        # the picture shows what the text says, line by line, in the same order
        drawn = re.findall(r"(=?\d+|-) (\w+) ([\d.]+%), (\d+%) played", alt)
        assert drawn == said, (drawn, said)
    # the final picture says who moved since round 1, as the two rankings give it
    rank1 = {name: label for label, name, _s, _p in _lines_said(after1.content)}
    moves = dict(
        re.findall(
            r"(\w+) [\d.]+%, \d+% played, ((?:up|down) \d+)",
            final_alt := (_picture(final).description or ""),
        )
    )
    for label, name, _score, _played in _lines_said(final.content):
        before, now = rank1[name].lstrip("="), label.lstrip("=")
        if before.isdigit() and now.isdigit() and before != now:
            gained = int(before) - int(now)
            assert moves[name] == (f"up {gained}" if gained > 0 else f"down {-gained}"), final_alt
        else:
            assert name not in moves, final_alt
    # /ruff event standings: the text and the same picture, privately
    res = await members[2].slash(channel, "ruff event standings")
    assert res.ephemeral and res.response.content == final.content
    assert _picture(res.response).description == _picture(final).description


async def test_a_no_shows_hand_dm_waits_unedited_and_comes_back_current(
    simcord_env: Any,
) -> None:
    """The AI plays for dan, who did not check in: his hand DM says so once and is not
    edited as the AI plays his cards (no card of the game reaches it, and nothing is
    redrawn a move); when he checks in it shows his hand and the turn as they are now."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("events")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]
    dan = members[3]
    await mod.slash(channel, "ruff event create", game="whist-5", rounds=1, boards=1, minutes=60)
    for m in members:
        await m.click(_registration(channel, 1), label="Join")
    for m in members[:3]:
        await m.click(_registration(channel, 1), label="Check in")
    await mod.slash(channel, "ruff event start")
    await env.settle()
    (table,) = [t for t in env.bot.manager.tables.values() if t.settings.event]
    seat = table.seat_of(dan.id)
    assert seat is not None and table.away == {seat}
    dm_id, message_id = table.hand_messages[seat]
    dm = next(m for m in dan.user.dm_channel.history() if m.id == message_id)
    assert "the AI is playing your cards" in dm.content
    assert not re.search("[♠♥♦♣]", dm.content) and not card_labels(dm)  # no card of the game
    assert [b.label for b in buttons(dm)] == ["Take my seat back"]
    before = dm.content
    requests = len(env.http_requests)

    others = {m.id: m for m in members[:3]}
    game = table.game
    assert game is not None
    held = len(game.hand(seat))
    await _play_some(env, others, random.Random(7), 20)
    game = table.game
    assert game is not None and not game.is_over
    # Table.moves keeps only the latest commits: count the cards gone from his hand
    assert held - len(game.hand(seat)) >= 3, "the AI played dan's cards meanwhile"
    edits = [
        r
        for r in env.http_requests[requests:]
        if r.method == "PATCH" and r.path == f"/channels/{dm_id}/messages/{message_id}"
    ]
    assert edits == [], "his DM is left alone while he is away"
    dm = next(m for m in dan.user.dm_channel.history() if m.id == message_id)
    assert dm.content == before

    res = await dan.click(_registration(channel, 1), label="Check in")
    assert "Checked in" in res.response.content
    await env.settle()
    assert table.away == set()
    dm_id, message_id = table.hand_messages[seat]
    dm = next(m for m in dan.user.dm_channel.history() if m.id == message_id)
    assert "AI is playing" not in dm.content
    _assert_current("dan's DM", dm.content, card_labels(dm), enabled_cards(dm), table, seat)
    # and it follows the game again: his next turn is live there
    while table.game is not None and table.game.to_act() != seat and not table.game.is_over:
        assert await _play_some(env, others, random.Random(8), 1) == 1
    dm = next(m for m in dan.user.dm_channel.history() if m.id == message_id)
    _assert_current("dan's DM", dm.content, card_labels(dm), enabled_cards(dm), table, seat)


async def test_each_board_at_a_table_ends_with_its_own_result_and_its_players(
    simcord_env: Any,
) -> None:
    """A table's boards follow each other in one thread: each board's last post (the
    deal's summary and who won and how), its table message and its hand DMs show that
    board's own result, never the board before's, and name the table's registered
    players (a board dealt reads its own players' entries, not the field's)."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("events")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    names = ("ann", "bob", "cat", "dan")
    members = [guild.add_member(env.create_user(n)) for n in names]
    # each board as it ended, read from the game by the test (not from any message)
    ended: dict[int, tuple[tuple[int, ...], tuple[str, ...]]] = {}

    def heard(table: Any, events: list[Event]) -> None:
        if table.settings.event and any(isinstance(e, MatchOver) for e in events):
            seats = tuple(s.name for s in table.seats)
            ended[table.id] = (tuple(table.game.observe(0).scores), seats)

    env.bot.manager.services.feed.subscribe(heard)
    await _run_event(env, mod, channel, members, 1, boards=3)
    boards = await EventRepo(env.bot.db).boards(1)
    table_ids = [b.table_id for b in boards]
    assert len(boards) == 3 and set(ended) == set(table_ids)
    assert len({ended[t][0] for t in ended}) > 1  # not the same result each board
    (thread,) = channel.threads
    posts = [m.content for m in thread.history()]
    hows: list[str] = []
    for table_id in table_ids:
        assert table_id is not None
        scores, seats = ended[table_id]
        assert sorted(seats) == sorted(names)  # the registered players, by name
        final = [p for p in posts if p.startswith(f"🃏 Table #{table_id} · ")][-1]
        shown = re.findall(r"Score: NS \*\*(-?\d+)\*\* · EW \*\*(-?\d+)\*\*", final)
        assert shown[-1] == (str(scores[0]), str(scores[1])), final
        how = next(line for line in final.splitlines() if line.startswith("**How "))
        hows.append(how)
        table = env.bot.manager.tables.get(table_id)
        assert table is not None and table.status == "finished"
        for member in members:  # each player's DM of this board ends with its own line
            seat = table.seat_of(member.id)
            assert seat is not None
            _channel, message_id = table.hand_messages[seat]
            dm = next(m for m in member.user.dm_channel.history() if m.id == message_id)
            assert how in dm.content, (table_id, dm.content)
        shown_table = next(m for m in thread.history() if m.id == table.message_id)
        text = message_text(shown_table)
        assert how in text and all(n in text for n in names), text
    assert len(set(hows)) > 1  # each board its own line: none repeats the board before's


async def test_an_event_board_ends_without_rematch(simcord_env: Any) -> None:
    """An event's finished board offers no Rematch (the event goes on by itself: the
    next board, the next round); a forged Rematch on it is refused privately and opens
    no table, even once the thread is free after the round's last board."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("events")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]
    await _run_event(env, mod, channel, members, 1, boards=2)
    boards = await EventRepo(env.bot.db).boards(1)
    (thread,) = channel.threads
    for board in boards:
        table = env.bot.manager.tables.get(board.table_id)
        assert table is not None and table.status == "finished"
        shown = next(m for m in thread.history() if m.id == table.message_id)
        labels = button_labels(shown)
        assert "This deal" in labels and "Rematch" not in labels, labels
        text = message_text(shown)  # nor does its text point to a Rematch
        assert "finished" in text and "Rematch" not in text, text
        for member in members:  # the hand DM's last line points to the table, not a Rematch
            _channel, message_id = table.hand_messages[table.seat_of(member.id)]
            dm = next(m for m in member.user.dm_channel.history() if m.id == message_id)
            assert "Rematch" not in dm.content, dm.content
    last = env.bot.manager.tables.get(boards[-1].table_id)
    assert last is not None
    shown = next(m for m in thread.history() if m.id == last.message_id)
    before = len(await env.bot.db.fetchall("SELECT id FROM tables", ()))
    res = await forged_click(env, members[0], shown, f"rh:t:{last.id}:rematch")
    assert res.ephemeral and "no rematch" in res.response.content, res.response.content
    assert len(await env.bot.db.fetchall("SELECT id FROM tables", ())) == before


async def test_every_move_reaches_who_plays_and_a_seat_taken_back_is_current(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann and bob play; the AI plays for cat and dan, who did not check in (a move
    draws nothing for their DMs: docs/events.md, "What an event table costs the loop").
    After every move ann's and bob's hand DMs show their hands and turn as they are
    now; dan presses **Take my seat back** on his DM mid-board: it shows his hand and
    turn as they stand, and from then on follows every move. At the board's end each
    DM says how it was won in its player's language: cat's, whose Discord is German,
    in German (drawn when her DM asks for it), the others' and the table's in English."""
    german: set[int] = set()
    original = simcord.interactions.base_payload

    def with_locale(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(*args, **kwargs)
        if kwargs.get("user_id") in german:
            payload["locale"] = "de"
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locale)
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("events")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]
    ann, bob, cat, dan = members
    german.add(cat.id)
    await mod.slash(channel, "ruff event create", game="whist-5", rounds=1, boards=1, minutes=60)
    for m in members:
        await m.click(_registration(channel, 1), label="Join")
    for m in (ann, bob):
        await m.click(_registration(channel, 1), label="Check in")
    await mod.slash(channel, "ruff event start")
    await env.settle()
    (table,) = [t for t in env.bot.manager.tables.values() if t.settings.event]
    seat_of = {m.id: table.seat_of(m.id) for m in members}
    assert table.away == {seat_of[cat.id], seat_of[dan.id]}

    def dm_of(member: Any) -> discord.Message:
        seat = seat_of[member.id]
        _dm, message_id = table.hand_messages[seat]
        return next(m for m in member.user.dm_channel.history() if m.id == message_id)

    def all_current(players: list[Any]) -> None:
        for m in players:
            dm = dm_of(m)
            seat = seat_of[m.id]
            assert seat is not None
            name = f"{m.user.name}'s DM"
            _assert_current(name, dm.content, card_labels(dm), enabled_cards(dm), table, seat)

    playing = {m.id: m for m in (ann, bob)}
    rng = random.Random(3)
    for _ in range(6):  # the AI plays cat's and dan's cards between these
        assert await _play_some(env, playing, rng, 1) == 1
        all_current([ann, bob])
    game = table.game
    assert game is not None and not game.is_over
    assert "the AI is playing your cards" in dm_of(dan).content

    res = await dan.user.click(dm_of(dan), label="Take my seat back")
    assert res.acknowledged
    await env.settle()
    assert seat_of[dan.id] not in table.away
    all_current([ann, bob, dan])  # dan's DM: his hand and the turn as they stand
    playing[dan.id] = dan
    while table.game is not None and not table.game.is_over:
        assert await _play_some(env, playing, rng, 1) == 1
        if table.game is not None and not table.game.is_over:
            all_current([ann, bob, dan])  # every move reaches each who plays

    game = table.game
    assert game is not None and game.is_over
    points = deal_history(game.to_record())
    line = {}
    for language in ("en", "de"):
        with using(language):
            line[language] = render.how_won(table.info(), game.observe(0), points)
    assert line["en"] and line["de"] and line["en"] != line["de"]
    for m in (ann, bob, dan):
        assert line["en"] in dm_of(m).content, dm_of(m).content
    assert line["de"] in dm_of(cat).content, dm_of(cat).content
    thread = next(th for th in channel.threads if th.id == table.channel_id)
    assert line["en"] in message_text(table_message(thread))


async def test_an_event_boards_hand_dm_ends_with_the_board_and_where_it_is_scored(
    simcord_env: Any,
) -> None:
    """The last line a player reads of a board, in its hand DM, names the event's board
    and says where its standings come (whatever the format scores: matchpoints, a Swiss
    match); not "The game is over
    — you won/lost" (seen at 400 px: "you lost" on a board that scored 50%, "you won" to
    a no-show, and the DM of the event's last board ended with no word of the results)."""
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("events")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("tess"), roles=[mods])
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]
    await _run_event(env, mod, channel, members, 1, boards=2)
    boards = await EventRepo(env.bot.db).boards(1)
    for board in boards:
        table = env.bot.manager.tables.get(board.table_id)
        assert table is not None and table.status == "finished"
        for member in members:
            _channel, message_id = table.hand_messages[table.seat_of(member.id)]
            dm = next(m for m in member.user.dm_channel.history() if m.id == message_id)
            first = dm.content.splitlines()[0]
            assert first == f"🏁 Board {board.board} of Event #1 is over.", dm.content
            assert "The game is over" not in dm.content, dm.content
            assert dm.content.rstrip().endswith(
                "It counts for the event (not who won it here): the standings come in the "
                "event's channel when the round is over."
            ), dm.content
