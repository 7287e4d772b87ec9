"""Solo Whist, Ruffe and Trump (4, 3 and 2 players) and Turnover Bridge, played whole
through the real bot: people from their DMs, and one person with easy AI players.

What a player would notice is checked on the way: the auction by player name on the
table and in every DM, one button per legal call and nothing else, the sides of the
deal, a Spread Misère hand face up as it is played, the ruff values or claims, the
rub, both layouts with their face-down counts and every card turned up, summaries
of the contract or the cards, the winner, and the results for the leaderboard.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.present.layout import layout_text as message_text
from bot.store import ActionRepo, ResultRepo, TableRepo
from engine import Game, SeatView, Suit
from engine.actions import Action, Play
from engine.phases.contest import RuffClaim
from engine.phases.solo_auction import solo_bid
from engine.phases.solo_declare import name_trump

from .dm_play import (
    CALLS,
    NAMES,
    SEATS,
    SHORT,
    card_shown,
    lowest_card,
    open_table,
    play_out,
    rub_and_lay_out,
    selects,
    true_ruff,
)
from .helpers import feed, hand_cards, hand_message, raw_text, replay_from_db, table_message

pytestmark = pytest.mark.slow  # left out by `make test-fast`


async def _durable(env: Any, table: Any) -> None:
    """The move log replays to the same game and the table is finished."""
    db = env.bot.db
    game = table.game
    assert await ActionRepo(db).count(table.id) == len(game.log)
    assert (await replay_from_db(db, table)).state_key() == game.state_key()
    row = await TableRepo(db).get(table.id)
    assert row is not None and row.status == "finished"


async def _results_per_seat(env: Any, table: Any, humans: int) -> None:
    """Games scored per seat: one row per human, its own seat's score, one winner."""
    game = table.game
    rows = {r.name: r for r in await ResultRepo(env.bot.db).for_table(table.id)}
    assert set(rows) == set(NAMES[:humans])
    for seat in range(humans):
        r = rows[NAMES[seat]]
        assert r.side == seat
        assert r.points == game.scores[seat]
        assert r.opp_points == max(p for s, p in enumerate(game.scores) if s != seat)
        assert r.won == (seat == game.match_winner)


# ------------------------------------------------------------------ Solo Whist


def solo_policy(script: list[str], trumps: Suit = Suit.SPADES) -> Any:
    """The calls of ``script`` in order (then passes), trumps named, lowest cards played."""

    def policy(game: Game, view: SeatView) -> list[Action]:
        if view.phase == "auction":
            k = len(view.auction)
            call = solo_bid(script[k] if k < len(script) else "pass")
            assert call in view.legal, (call, view.legal)
            return [call]
        if view.phase == "trumps":
            return [name_trump(trumps)]
        return lowest_card(view)

    return policy


def _auction_text(game: Game) -> str:
    calls = game.observe(0).auction
    return "Auction: " + " · ".join(f"{NAMES[s]} {CALLS[c]}" for s, c in calls)


@pytest.mark.parametrize("bot_settings", [{"seed": 21}])
async def test_solo_whist_four_humans_propose_overcalled_by_spread_misere(simcord_env: Any) -> None:
    env = simcord_env
    guild, channel, players = await open_table(env, 4, "solo-whist")
    table = env.bot.manager.tables[1]
    names = SEATS[4]
    seen_exposed = 0

    def each(game: Game) -> None:
        nonlocal seen_exposed
        text = message_text(table_message(channel))
        view = game.observe(0)
        assert "Partners" not in text and "NS" not in text  # no fixed partnerships here
        if view.auction:
            line = _auction_text(game)
            assert line in text.splitlines()
            for player in players:  # every DM shows the auction by name too, until
                dm = hand_message(player).content  # a turn to play: the contract says it
                if not (game.phase == "play" and dm.startswith("🟢 **Your turn")):
                    assert line in dm.splitlines()
        if game.phase == "auction":
            seat = game.to_act()
            assert f"▶ **{names[seat]}** — <@{players[seat].id}> to bid" in text
        if view.contract == "spread":
            declarer = view.declarer
            assert declarer is not None
            assert (
                f"Contract: **Spread Misère** · declared by {names[declarer]} ({NAMES[declarer]})"
                in text
            )
            line = next(ln for ln in text.splitlines() if "plays with the hand face up" in ln)
            hand = game.hand(declarer)
            face_up = hand_cards("Your hand: " + line.split("face up: ", 1)[1])
            assert sorted(c.code for c in face_up) == sorted(
                c.code for c in hand
            )  # as it is played
            seen_exposed += 1
            for seat, player in enumerate(players):
                dm = hand_message(player).content
                turn = dm.startswith("🟢 **Your turn") and game.phase == "play"
                if seat == declarer:  # a turn to play says the sides in a few words
                    assert (
                        "you play alone" if turn else "you play Spread Misère alone against"
                    ) in dm
                else:
                    others = [s for s in range(4) if s not in (seat, declarer)]
                    assert (
                        f"you defend with {names[others[0]]} and {names[others[1]]}"
                        if turn
                        else f"you defend with {names[others[0]]} ({NAMES[others[0]]}) and {names[others[1]]}"
                    ) in dm
                    assert "plays with the hand face up" in dm
            assert f"Sides: {names[declarer]} ({NAMES[declarer]}) plays alone against" in text

    clicks = await play_out(env, table, players, solo_policy(["prop", "accept", "spread"]), each)
    game = table.game
    assert seen_exposed > 0, "the Spread Misère hand was shown face up"
    calls = [c for _, c in game.observe(0).auction]
    assert calls[:3] == ["prop", "accept", "spread"] and game.observe(0).contract == "spread"
    assert clicks >= 7

    posts = [m.content for m in feed(channel)]
    summary = next(p for p in posts if "**Deal 1 of game 1**" in p)
    declarer = game.observe(0).declarer
    assert f"Spread Misère by {names[declarer]} ({NAMES[declarer]})" in summary
    assert "must lose every trick" in summary and ("made" in summary or "failed" in summary)
    winner = game.match_winner
    final = message_text(table_message(channel))
    best = game.scores[winner]
    tied = [s for s in range(4) if game.scores[s] == best]
    if len(tied) > 1:  # the defenders of a failed contract share first place
        who = [f"{names[s]} ({NAMES[s]})" for s in tied]
        seats = ", ".join(who[:-1]) + f" and {who[-1]}"
        assert "finished" in final and f"🤝 **{seats}** share first place with {best}" in final
    else:
        assert (
            "finished" in final
            and f"🏆 **{names[winner]}** — {NAMES[winner]} — wins with {best}" in final
        )
    await _durable(env, table)
    await _results_per_seat(env, table, 4)


@pytest.mark.parametrize("bot_settings", [{"seed": 5}])
async def test_solo_whist_abundance_declarer_names_trumps_from_the_dm(simcord_env: Any) -> None:
    env = simcord_env
    guild, channel, players = await open_table(env, 4, "solo-whist")
    table = env.bot.manager.tables[1]
    names = SEATS[4]
    named: list[int] = []

    def each(game: Game) -> None:
        text = message_text(table_message(channel))
        if game.phase == "trumps":
            declarer = game.to_act()
            named.append(declarer)
            assert "Trumps: **to be named by the declarer**" in text
            assert f"▶ **{names[declarer]}** — <@{players[declarer].id}> to name trumps" in text
            assert "name trumps for your Abundance" in hand_message(players[declarer]).content
        elif named and game.phase == "play":
            assert "Trumps: **♦ diamonds**" in text
            assert (
                f"{names[named[0]]} ({NAMES[named[0]]}) names ♦ diamonds trumps." in text
                or f"{names[named[0]]} names ♦ diamonds trumps."
                in text  # by seat, under the picture
                or game.completed
            )

    await play_out(env, table, players, solo_policy(["abund"], Suit.DIAMONDS), each)
    game = table.game
    assert named, "the declarer named trumps"
    view = game.observe(0)
    assert view.contract == "abund" and game.trump is Suit.DIAMONDS
    summary = next(m.content for m in feed(channel) if "**Deal 1 of game 1**" in m.content)
    assert f"Abundance by {names[named[0]]}" in summary and "needs 9 of 13 tricks" in summary
    await _durable(env, table)
    await _results_per_seat(env, table, 4)


@pytest.mark.parametrize("bot_settings", [{"seed": 8}])
async def test_solo_whist_one_human_with_easy_ai(simcord_env: Any) -> None:
    env = simcord_env
    guild, channel, players = await open_table(env, 1, "solo-whist", options="target_score=6", ai=3)
    table = env.bot.manager.tables[1]

    def policy(game: Game, view: SeatView) -> list[Action]:
        if view.phase == "auction":
            return (
                [solo_bid("solo")]
                if solo_bid("solo") in view.legal and not view.auction
                else [solo_bid("pass")]
            )
        if view.phase == "trumps":
            return [name_trump(Suit.HEARTS)]
        return lowest_card(view)

    await play_out(env, table, players, policy, limit=600)
    game = table.game
    assert max(game.scores) >= 6
    posts = [m.content for m in feed(channel)]
    assert any("**Deal 1 of game 1**" in p for p in posts)
    assert any("🏆" in p for p in posts)
    assert "finished" in message_text(table_message(channel))
    await _durable(env, table)
    await _results_per_seat(env, table, 1)


# ------------------------------------------------------------------ Ruffe and Trump


def ruffe_policy(claims: dict[int, str] | None = None) -> Any:
    """Rub and lay out the lowest four; declare ruffs as ``claims`` says by turn
    ("true" from the featured button, "max" from the last menu); lowest cards."""

    def policy(game: Game, view: SeatView) -> list[Action]:
        rub = rub_and_lay_out(view)
        if rub is not None:
            return rub
        if any(isinstance(a, RuffClaim) for a in view.legal):
            how = (claims or {}).get(len(game.notes.get("ruff_claims", ())), "true")  # type: ignore[arg-type]
            value = (
                true_ruff(view)
                if how == "true"
                else max(a.value for a in view.legal if isinstance(a, RuffClaim))
            )
            return [RuffClaim(value)]
        return lowest_card(view)

    return policy


@pytest.mark.parametrize("bot_settings", [{"seed": 31}])
async def test_ruffe_and_trump_four_humans_double_hand(simcord_env: Any) -> None:
    env = simcord_env
    guild, channel, players = await open_table(env, 4, "ruff-trump-willughby", target=30)
    table = env.bot.manager.tables[1]
    lobby_like = message_text(table_message(channel))
    assert "game to 30" in lobby_like
    rubs = 0

    def each(game: Game) -> None:
        nonlocal rubs
        text = message_text(table_message(channel))
        view = game.observe(0)
        values = view.note("ruff_values")
        assert isinstance(values, tuple)  # automatic: every ruff is public from the deal
        assert (
            "Ruff (pips): " + " · ".join(f"{'NESW'[s]} {v}" for s, v in enumerate(values)) in text
        )
        assert "→ the ruff goes to" in text
        assert f"Score: NS **{game.scores[0]}** · EW **{game.scores[1]}** (game to 30)" in text
        if game.phase == "ruff":
            rubs += 1
            assert (
                f"Rub: {SEATS[4][game.to_act()]} ({NAMES[game.to_act()]}) may take the top four cards of the head."
                in text
            )
            assert (
                "Take the top four cards of the head"
                in hand_message(players[game.to_act()]).content
            )
        for seat, player in enumerate(players):
            assert (
                f"You are **{SEATS[4][seat]}**, partner {SEATS[4][(seat + 2) % 4]}"
                in hand_message(player).content
            )

    await play_out(env, table, players, ruffe_policy(), each)
    game = table.game
    assert rubs >= 1
    posts = [m.content for m in feed(channel)]
    summaries = [p for p in posts if "of game 1**" in p]
    assert summaries and all("tricks NS" in s for s in summaries)
    winner = game.match_winner
    final = message_text(table_message(channel))
    assert (
        f"🏆 **{('North & South', 'East & West')[winner]}** — {NAMES[winner]} & {NAMES[winner + 2]} — win"
        in final
    )
    await _durable(env, table)
    rows = {r.name: r for r in await ResultRepo(env.bot.db).for_table(table.id)}
    for seat in range(4):
        r = rows[NAMES[seat]]
        assert (
            r.side == seat % 2
            and r.points == game.scores[seat % 2]
            and r.won == (seat % 2 == winner)
        )


@pytest.mark.parametrize("bot_settings", [{"seed": 32}])
async def test_ruffe_and_trump_three_players_declare_their_ruffs(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    players = [guild.add_member(env.create_user(name)) for name in NAMES[:3]]
    res = await players[0].slash(
        channel,
        "ruff new",
        game="ruff-trump-willughby",
        options="players=3, ruff_announce=declared",
        target=25,
    )
    lobby = raw_text(res.response.components)
    assert "3 players, each for themselves · game to 25" in lobby
    assert (
        "> North: alice" in lobby and "> East: — empty —" in lobby and "> West: — empty —" in lobby
    )
    assert "South" not in lobby and "Partners" not in lobby
    for player in players[1:]:
        await player.click(table_message(channel), label="Join")
    await players[0].click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]
    assert len(table.seats) == 3
    names = SEATS[3]
    shown_false = 0

    def each(game: Game) -> None:
        nonlocal shown_false
        text = message_text(table_message(channel))
        view = game.observe(0)
        claims = view.note("ruff_claims")
        assert isinstance(claims, tuple)
        line = "Ruff claims (pips): " + (
            " · ".join(f"{'NEW'[s]} {v}" for s, v in claims) or "none yet"
        )
        assert line in text
        if game.phase == "contest":
            seat = game.to_act()
            assert f"▶ **{names[seat]}** — <@{players[seat].id}> to declare a ruff" in text
            dm = hand_message(players[seat])
            assert (
                "your best suit is" in dm.content
                and f"worth {true_ruff(game.observe(seat))} pips" in dm.content
            )
            assert len(selects(dm)) == 4
        shown = view.note("ruff_shown")
        if isinstance(shown, tuple):
            for seat, _suit, _cards, _value, honest in shown:
                assert f"{names[seat]} ({NAMES[seat]}) shows" in text
                shown_false += not honest
        assert "South" not in text and "NS" not in text
        assert (
            f"Score: N **{game.scores[0]}** · E **{game.scores[1]}** · W **{game.scores[2]}** (game to 25)"
            in text
        )

    # the second to declare claims the most a suit can be worth: found out after the rub
    await play_out(env, table, players, ruffe_policy({1: "max"}), each)
    assert shown_false >= 1, "a false claim was shown and passed on"
    assert any("of game 1**" in m.content for m in feed(channel))
    await _durable(env, table)
    await _results_per_seat(env, table, 3)


@pytest.mark.parametrize("bot_settings", [{"seed": 33}])
async def test_ruffe_and_trump_two_players_one_human_against_easy_ai(simcord_env: Any) -> None:
    env = simcord_env
    guild, channel, players = await open_table(
        env, 1, "ruff-trump-willughby", options="players=2", target=20, ai=1
    )
    table = env.bot.manager.tables[1]
    assert len(table.seats) == 2

    def each(game: Game) -> None:
        text = message_text(table_message(channel))
        assert "N: alice" in text and "S: " in text and "E:" not in text and "W:" not in text
        assert "You are **North**, playing for yourself." in hand_message(players[0]).content

    await play_out(env, table, players, ruffe_policy(), each)
    assert "finished" in message_text(table_message(channel))
    await _durable(env, table)
    await _results_per_seat(env, table, 1)


@pytest.mark.parametrize("bot_settings", [{"seed": 34}])
async def test_ruffe_and_trump_one_human_with_three_easy_ai(simcord_env: Any) -> None:
    env = simcord_env
    guild, channel, players = await open_table(env, 1, "ruff-trump-willughby", target=20, ai=3)
    table = env.bot.manager.tables[1]
    await play_out(env, table, players, ruffe_policy())
    assert "finished" in message_text(table_message(channel))
    await _durable(env, table)
    rows = await ResultRepo(env.bot.db).for_table(table.id)
    assert len(rows) == 1 and rows[0].side == 0 and rows[0].points == table.game.scores[0]


# ------------------------------------------------------------------ Turnover Bridge


def _layout_checks(channel: Any, players: list[Any], turned: list[str]) -> Any:
    def each(game: Game) -> None:
        text = message_text(table_message(channel))
        view = game.observe(0)
        for seat, piles in enumerate(view.layouts):
            line = next(ln for ln in text.splitlines() if ln.startswith(f"> {SEATS[2][seat]} ("))
            shown = [p.up for p in piles if p.up is not None]
            assert all(card_shown(line, c) for c in shown)
            assert line.count("¹") == sum(1 for p in piles if p.down == 1)
            assert line.count("▢") == sum(1 for p in piles if p.up is None)
            if seat < len(players):
                dm = hand_message(players[seat]).content
                layout = line.split("): ", 1)[1]
                if dm.startswith("🟢 **Your turn"):  # a turn to play: one small line
                    assert f"▲ your layout: {layout}" in dm
                else:
                    assert f"> Your layout: {layout}" in dm.splitlines()
        for line in text.splitlines():
            if "from the layout —" in line and line not in turned:
                turned.append(line)
        assert "N **" in text and "Tricks this deal: N " in text

    return each


@pytest.mark.parametrize("bot_settings", [{"seed": 41}])
async def test_turnover_bridge_two_humans_seed004_layouts(simcord_env: Any) -> None:
    env = simcord_env
    guild, channel, players = await open_table(env, 2, "turnover-bridge")
    table = env.bot.manager.tables[1]
    turned: list[str] = []
    layout_plays = 0

    def policy(game: Game, view: SeatView) -> list[Action]:
        nonlocal layout_plays
        plays = [a for a in view.legal if isinstance(a, Play)]
        from_layout = [a for a in plays if a.card not in view.hand]
        if from_layout and game.trick_no % 2:
            layout_plays += 1
            return [from_layout[0]]
        return lowest_card(view)

    await play_out(env, table, players, policy, _layout_checks(channel, players, turned), limit=60)
    assert layout_plays > 0 and turned, "layout cards were played and their turn-ups announced"
    assert any("turned up" in t for t in turned)
    game = table.game
    # 26 tricks did not flood the channel: the table message, the deal summary, nothing per trick
    posts = feed(channel)
    assert len(posts) <= 3, [p.content[:60] for p in posts]
    summary = next(p.content for p in posts if "**Deal 1 of game 1**" in p.content)
    assert f"tricks N {game.tricks[0]} · S {game.tricks[1]}" in summary
    winner = game.match_winner
    assert f"🏆 **{SEATS[2][winner]}** — {NAMES[winner]} — wins with 1" in message_text(
        table_message(channel)
    )
    await _durable(env, table)
    await _results_per_seat(env, table, 2)


@pytest.mark.parametrize("bot_settings", [{"seed": 42}])
async def test_turnover_bridge_pagat_one_human_against_easy_ai(simcord_env: Any) -> None:
    env = simcord_env
    guild, channel, players = await open_table(
        env, 1, "turnover-bridge", options="layout=pagat", ai=1
    )
    table = env.bot.manager.tables[1]
    assert len(table.seats) == 2

    first = message_text(table_message(channel))
    for seat in range(2):  # twelve face-up cards each, in two rows of six
        line = next(ln for ln in first.splitlines() if ln.startswith(f"> {SEATS[2][seat]} ("))
        assert [row.count("¹") for row in line.split(": ", 1)[1].split(" │ ")] == [6, 6]
    turned: list[str] = []
    await play_out(
        env,
        table,
        players,
        lambda game, view: lowest_card(view),
        _layout_checks(channel, players, turned),
        limit=60,
    )
    assert turned, "the turned-up cards were announced"
    assert "finished" in message_text(table_message(channel))
    await _durable(env, table)
    await _results_per_seat(env, table, 1)


# ------------------------------------------------------------------ the rules


async def test_rules_text_of_solo_ruffe_and_turnover(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    texts = {}
    for game in ("solo-whist", "ruff-trump-willughby", "turnover-bridge"):
        res = await alice.slash(channel, "ruff rules", game=game)
        texts[game] = res.response.content
    for text in texts.values():
        assert "per trick over six" not in text  # not Whist's summary
    assert "Propose" in texts["solo-whist"] and "Spread Misère" in texts["solo-whist"]
    assert (
        "strongest suit" in texts["ruff-trump-willughby"]
        and "head" in texts["ruff-trump-willughby"]
    )
    assert "par" in texts["ruff-trump-willughby"] and "52" in texts["ruff-trump-willughby"]
    assert "face-up" in texts["turnover-bridge"] and "14 tricks" in texts["turnover-bridge"]
    assert "Spades are trumps" in texts["turnover-bridge"]


# ------------------------------------------------------------------ every form, people and AI

# Each form above is played once, with people or with AI; these play each one the
# other way, so that every form of issue 12 has a whole game with only people at
# the table and one with AI seats among them.
OTHER_WAY = [
    pytest.param("ruff-trump-willughby", "mode=single_hand", 4, 0, id="single-hand-four-people"),
    pytest.param(
        "ruff-trump-willughby", "mode=single_hand", 1, 3, id="single-hand-one-person-three-ai"
    ),
    pytest.param("ruff-trump-willughby", "players=3", 2, 1, id="three-players-two-people-one-ai"),
    pytest.param("ruff-trump-willughby", "players=2", 2, 0, id="two-players-two-people"),
    pytest.param(
        "turnover-bridge", "layout=seed004", 1, 1, id="turnover-seed004-person-against-ai"
    ),
    pytest.param("turnover-bridge", "layout=pagat", 2, 0, id="turnover-pagat-two-people"),
]


@pytest.mark.parametrize("bot_settings", [{"seed": 35}])
@pytest.mark.parametrize(("game_id", "options", "humans", "ai"), OTHER_WAY)
async def test_every_form_plays_to_the_end_with_people_and_with_ai(
    simcord_env: Any, game_id: str, options: str, humans: int, ai: int
) -> None:
    env = simcord_env
    target = 20 if game_id == "ruff-trump-willughby" else None
    guild, channel, players = await open_table(
        env, humans, game_id, options=options, target=target, ai=ai
    )
    table = env.bot.manager.tables[1]
    n = humans + ai
    assert len(table.seats) == n
    names = SEATS[n]
    short = SHORT[n]
    turned: list[str] = []
    layouts = _layout_checks(channel, players, turned) if game_id == "turnover-bridge" else None

    def each(game: Game) -> None:
        text = message_text(table_message(channel))
        # everyone plays for himself: no partners, no sides, a score for each seat
        assert "Partners" not in text and "NS" not in text and "EW" not in text
        for seat, player in enumerate(players):
            assert (
                f"You are **{names[seat]}**, playing for yourself." in hand_message(player).content
            )
        if game_id == "ruff-trump-willughby":
            scores = " · ".join(f"{short[s]} **{game.scores[s]}**" for s in range(n))
            assert f"Score: {scores} (game to 20)" in text
        else:
            assert layouts is not None
            layouts(game)

    policy = (
        ruffe_policy()
        if game_id == "ruff-trump-willughby"
        else (lambda game, view: lowest_card(view))
    )
    await play_out(env, table, players, policy, each, limit=600)
    game = table.game
    final = message_text(table_message(channel))
    assert "finished" in final
    winner = game.match_winner
    assert winner is not None
    seat = table.seats[winner]
    assert seat is not None
    who = NAMES[winner] if winner < humans else f"{seat.name}, AI easy"
    assert f"🏆 **{names[winner]}** — {who} — wins with {game.scores[winner]}" in final
    assert any("of game 1**" in m.content for m in feed(channel)), "a deal summary was posted"
    if game_id == "turnover-bridge":
        assert turned, "the cards turned up from the layouts were announced"
    await _durable(env, table)
    await _results_per_seat(env, table, humans)
    # the leaderboard of the game rates each person on his own, the winner's game won
    res = await players[0].slash(channel, "ruff leaderboard", game=game_id)
    board = res.response.content
    for seat in range(humans):
        line = next(ln for ln in board.splitlines() if ln.startswith(f"· {NAMES[seat]} **"))
        assert line.endswith("· 1 game · " + ("100%" if seat == winner else "0%")), line
