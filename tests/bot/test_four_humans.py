"""Four simulated humans play a whole seeded game from their DMs.

Seed 113 with ``target:3`` (call point 2) gives, under the deterministic player of
:func:`helpers.choose`, a first deal with a ruff played out to the last trick and
a second deal with a ruff and a Can-ye call that ends the game (53 clicks).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.present.layout import layout_text as message_text
from bot.present.render import card_label, card_text, suit_symbol
from bot.store import ActionRepo, ResultRepo, TableRepo
from engine import Card
from engine.actions import CallCanYe, DeclineRuff, Discard, Pass, Play, ShowHonours, TakeRuff

from .helpers import (
    DECISIONS,
    SEAT_NAMES,
    card_labels,
    choose,
    choose_cards,
    enabled_cards,
    enabled_labels,
    find_select,
    hand_cards,
    hand_message,
    raw_text,
    replay_from_db,
    sent_contents,
    table_message,
)

pytestmark = pytest.mark.slow  # left out by `make test-fast`

NAMES = ("alice", "bob", "carol", "dave")
DEAL = re.compile(r"\b[Dd]eal (\d+)")


def check_hands(table: Any, players: list[Any]) -> None:
    """Every DM shows its own seat's cards only, the right count, and live buttons only on its turn."""
    game = table.game
    to_act = game.to_act()
    for seat, player in enumerate(players):
        msg = hand_message(player)
        content = msg.content
        assert f"You are **{SEAT_NAMES[seat]}**" in content
        if not content.startswith("🟢 **Your turn"):  # a turn to play leaves it to the table
            assert f"Game {game.game_no}, deal {game.deal_no}." in content
        own = game.hand(seat)
        assert sorted(c.code for c in hand_cards(msg)) == sorted(c.code for c in own), (
            f"{NAMES[seat]}: wrong cards"
        )
        listed = f"Your hand ({len(own)})" in content
        if own:
            assert listed != (sorted(card_labels(msg)) == sorted(card_label(c) for c in own)), (
                "the hand is shown once"
            )
        if game.phase == "discard" and seat == to_act:
            continue  # the hand is replaced by the discard menu (checked by the caller)
        legal = game.legal_actions(seat) if seat == to_act else []
        # off turn, and on a decision (the ruff, Can-ye): the hand is the text line, the
        # buttons are the choices alone
        if seat != to_act or not any(isinstance(a, Play) for a in legal):
            assert listed and card_labels(msg) == []
            if seat != to_act:
                continue
        else:
            assert sorted(card_labels(msg)) == sorted(card_label(c) for c in own)
        if seat == to_act:
            assert "Your turn" in content
            want = {card_label(a.card) for a in legal if isinstance(a, Play)}
            assert set(enabled_cards(msg)) == want
            decisions = {DECISIONS[type(a)] for a in legal if type(a) in DECISIONS}
            claim_controls = {
                x for x in enabled_labels(msg) if x.startswith(("Claim", "Last trick"))
            }
            assert set(enabled_labels(msg)) - set(card_labels(msg)) - claim_controls == decisions
        else:
            assert "Your turn" not in content and "Not your turn" in content
            assert legal == []
            assert enabled_labels(msg) == [], f"{NAMES[seat]} has live buttons out of turn"


def check_table(table: Any, channel: Any, players: list[Any]) -> None:
    """The public table shows trumps, the trick, whose turn by name, tricks and score."""
    game = table.game
    text = message_text(table_message(channel))
    assert f"game {game.game_no}, deal {game.deal_no}" in text
    assert f"Trumps: **{suit_symbol(game.trump)} {game.trump.name.lower()}" in text
    assert f"Tricks this deal: NS {game.tricks[0]} · EW {game.tricks[1]}" in text
    assert f"Score: NS **{game.scores[0]}** · EW **{game.scores[1]}** (game to 3)" in text
    seat = game.to_act()
    turn = next(line for line in text.splitlines() if line.startswith("▶"))
    assert turn.startswith(f"▶ **{SEAT_NAMES[seat]}** — <@{players[seat].id}>"), turn
    if game.trick:
        trick = next(
            line for line in text.splitlines() if line.startswith(f"Trick {game.trick_no}:")
        )
        for card in game.trick:
            assert card_text(card) in trick
    for name in NAMES:
        assert name in text
    for seat in range(4):  # no hand is ever shown in public
        hidden = [c for c in game.hand(seat) if c is not game.turn_up]
        assert not any(_mentions_card(text, c) for c in hidden), f"seat {seat}'s cards on the table"


def _mentions_card(text: str, card: Card) -> bool:
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(card_text(card))}", text) is not None


@pytest.mark.parametrize("bot_settings", [{"seed": 113}])
async def test_four_humans_play_a_seeded_game_to_the_target(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("ruff")
    players = [guild.add_member(env.create_user(name)) for name in NAMES]

    res = await players[0].slash(channel, "ruff new", target=3)
    assert not res.ephemeral and "game to 3" in raw_text(res.response.components)
    for player in players[1:]:
        res = await player.click(table_message(channel), label="Join")
        assert not res.ephemeral  # the lobby message is updated in place
    lobby = message_text(table_message(channel))
    for seat, name in enumerate(NAMES):
        assert f"> {SEAT_NAMES[seat]}: {name}" in lobby
    await players[0].click(table_message(channel), label="Start")

    table = env.bot.manager.tables[1]
    game = table.game
    assert game is not None
    deal_start = len(env.http_requests)
    laid_out: list[
        tuple[int, int, list[Card], Card | None, int]
    ] = []  # (deal, ruffer, cards, turn-up, from)
    can_ye = clicks = 0
    reasons: list[str] = []

    while not table.game.is_over:
        game = table.game
        check_hands(table, players)
        check_table(table, channel, players)
        seat = game.to_act()
        player = players[seat]
        msg = hand_message(player)
        view = game.observe(seat)
        actions = choose(view)
        first = actions[0]
        if game.phase == "ruff":
            holds_ace = any(c.rank.label == "A" and c.suit is game.trump for c in game.hand(seat))
            reasons.append(game.ruff_reason)
            if game.ruff_reason == "holds_ace":
                assert holds_ace and "you hold the trump ace" in msg.content
            else:  # the ace lies in the stock: the dealer may ruff
                assert (
                    not holds_ace and seat == game.dealer and "the dealer may ruff" in msg.content
                )
            assert {DECISIONS[TakeRuff], DECISIONS[DeclineRuff]} <= set(enabled_labels(msg))
            assert f"Ruff: {SEAT_NAMES[seat]} ({NAMES[seat]}) may take the stock." in message_text(
                table_message(channel)
            )
            res = await player.user.click(msg, label=DECISIONS[TakeRuff])
        elif game.phase == "discard":
            select = find_select(msg)
            assert select is not None and not select.disabled
            assert select.min_values == select.max_values == 4
            assert len(select.options) == 16 == len(game.hand(seat))
            assert {o.value for o in select.options} == {c.code for c in game.hand(seat)}
            assert "From the stock:" in msg.content
            assert isinstance(first, Discard)
            cards = [a.card for a in actions]  # type: ignore[attr-defined]
            laid_out.append((game.deal_no, seat, cards, game.turn_up, deal_start))
            res = await choose_cards(player.user, msg, [c.code for c in cards])
            assert (
                f"Laid out: {' '.join(card_text(c) for c in cards)}" in hand_message(player).content
            )
        elif isinstance(first, (CallCanYe, ShowHonours, Pass)):
            can_ye += 1
            assert game.phase == "can_ye" and game.start_scores[seat % 2] == 2  # the call point
            assert DECISIONS[Pass] in enabled_labels(msg)
            assert "Your turn to declare" in msg.content
            assert "to declare honours" in message_text(table_message(channel))
            res = await player.user.click(msg, label=DECISIONS[type(first)])
        else:
            assert isinstance(first, Play)
            res = await player.user.click(msg, label=card_label(first.card))
        clicks += 1
        # the DM is edited in place (a click that ended the deal was answered on a DM
        # that the next deal's DM has replaced: deleted)
        new_deal = (table.game.game_no, table.game.deal_no) != (game.game_no, game.deal_no)
        assert res.acknowledged and not res.ephemeral, res
        assert res.response is not None or new_deal, res
        if table.game.deal_no != game.deal_no or table.game.is_over:
            _check_discards_private(env, laid_out)
            laid_out.clear()
            deal_start = len(env.http_requests)
        assert clicks < 200

    assert reasons == ["holds_ace", "ace_in_stock"] and can_ye == 1, (
        "seed 113: two ruffs, one Can-ye call"
    )
    game = table.game
    winner = game.match_winner
    assert winner is not None

    # the public result and the summaries
    final = message_text(table_message(channel))
    assert "finished" in final and "win" in final
    winners = [NAMES[winner], NAMES[winner + 2]]
    assert f"{winners[0]} & {winners[1]}" in final
    posts = [m.content for m in channel.threads[0].history()]  # the table's thread
    assert any("**Deal 1 of game 1**" in p for p in posts), "the first deal's summary is posted"
    assert any("win game 1" in p and "by Can-ye" in p for p in posts)
    for player in players:
        assert "The game is over" in hand_message(player).content
        assert enabled_labels(hand_message(player)) == []

    # durable: the move log replays to the same game, results recorded
    db = env.bot.db
    assert await ActionRepo(db).count(1) == len(game.log)
    assert (await replay_from_db(db, table)).state_key() == game.state_key()
    row = await TableRepo(db).get(1)
    assert row is not None and row.status == "finished"
    board = await ResultRepo(db).leaderboard(guild.id)
    assert {r.name for r in board[:2]} == set(winners)
    assert all(r.wins == 1 for r in board[:2]) and all(r.wins == 0 for r in board[2:])

    res = await players[0].slash(channel, "ruff leaderboard")
    lines = res.response.content.splitlines()
    assert "Leaderboard — Card Room" in lines[0]
    # one game each: rated, listed best first, not yet ranked (3 games needed)
    listed = [line for line in lines if line.startswith("· ")]
    ranked = [next(n for n in NAMES if f"· {n} **" in line) for line in listed]
    assert set(ranked[:2]) == set(winners) and len(ranked) == 4
    assert all("· 1 game ·" in line for line in listed)
    res = await players[0].slash(channel, "ruff stats", user=players[winner].user)
    assert res.ephemeral
    assert (
        f"**{NAMES[winner]}**" in res.response.content
        and "1 game · 1 win (100%)" in res.response.content
    )
    assert "won: 0.0 → " in res.response.content
    loser = 1 - winner
    res = await players[loser].slash(channel, "ruff stats")
    assert (
        f"**{NAMES[loser]}**" in res.response.content
        and "1 game · 0 wins (0%)" in res.response.content
    )
    assert "lost: 0.0 → −" in res.response.content


def _check_discards_private(
    env: Any, laid_out: list[tuple[int, int, list[Card], Card | None, int]]
) -> None:
    """No message but the ruffer's own hand ever named a card they laid out in that deal."""
    for deal_no, ruffer, cards, turn_up, start in laid_out:
        secret = [c for c in cards if c is not turn_up]  # the turn-up was public before the ruff
        for method, path, content in sent_contents(env, start):
            if f"You are **{SEAT_NAMES[ruffer]}**" in content:
                continue
            deals = {int(n) for n in DEAL.findall(content)}
            if deals and deal_no not in deals:
                continue  # a later deal (its new hands)
            leaked = [card_text(c) for c in secret if _mentions_card(content, c)]
            assert not leaked, f"laid-out {leaked} visible in {method} {path}:\n{content}"
