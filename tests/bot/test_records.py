"""``/ruff record`` and ``/ruff replay`` through the real bot: a game played to the end,
its files and its replay, and the refusals (no such table, not finished, cancelled,
another server's table, forged replay ids)."""

from __future__ import annotations

import json
from typing import Any

from bot.present.render import card_text
from engine import Play
from engine.cards import cards_from_mask
from engine.export import load_json, pbn_hand

from .helpers import (
    button_labels,
    enabled_cards,
    forged_click,
    hand_message,
    labels_of,
    raw_buttons,
    table_message,
)

SEATS = ("N", "E", "S", "W")
RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}


def _cards_shown(content: str) -> list[int]:
    """How many cards each ``> `` hand line of a replay step lists."""
    return [
        sum(token in RANKS for token in line.split(": ", 1)[1].split())
        for line in content.splitlines()
        if line.startswith("> ")
    ]


async def _play_to_the_end(env: Any, channel: Any, alice: Any) -> Any:
    """alice (North) and three easy AIs play Whist 5-Point to 1 point: one deal."""
    res = await alice.slash(channel, "ruff new", game="whist-5", target=1)
    assert not res.ephemeral
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]
    for _ in range(40):
        if table.game.is_over:
            break
        assert table.game.to_act() == 0
        hand = hand_message(alice)
        cards = enabled_cards(hand)
        if not cards and "Accept the claim" in hand.content:
            # an AI claimed the rest (it claims only what it surely takes): accept
            await alice.user.click(hand, label="Accept the claim")
            continue
        assert cards, hand.content
        await alice.user.click(hand, label=cards[0])
    assert table.game.is_over
    return table


def _refused(res: Any, text: str) -> str:
    assert res.ephemeral, res
    content: str = res.response.content
    assert text in content, content
    return content


def _replay_buttons(components: list[dict[str, Any]]) -> dict[str, tuple[str, bool]]:
    return {b["label"]: (b["custom_id"], bool(b.get("disabled"))) for b in raw_buttons(components)}


async def test_record_and_replay_of_a_finished_game(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    table = await _play_to_the_end(env, channel, alice)
    game = table.game
    names = [s.name for s in table.seats]

    # ---- /ruff record: the last game alice played here, as two private files
    res = await alice.slash(channel, "ruff record")
    assert res.ephemeral
    text = res.response.content
    # every trick played, or fewer when a seat claimed the rest (an AI claims what it surely takes)
    played = len(game.completed)
    assert played == 13 or any(" claim:" in a for a in game.to_record()["actions"]), played
    assert "Table #1" in text and "Whist 5-Point" in text and f"1 deal, {played} tricks" in text
    files = {a.filename: a for a in res.response.attachments}
    assert set(files) == {"ruff-table-1.json", "ruff-table-1.pbn"}
    exported = json.loads(await files["ruff-table-1.json"].read())
    again, players, meta = load_json(exported)
    assert again.state_key() == game.state_key()  # lossless: it replays to the same end
    assert players == ["alice", *(f"{n}, AI easy" for n in names[1:])]
    assert meta["table_id"] == 1 and meta["server"] == "Card Room"
    pbn = (await files["ruff-table-1.pbn"].read()).decode()
    assert '[North "alice"]' in pbn and '[Site "Discord: Card Room"]' in pbn
    # the deal as the engine dealt it (read from the game, not from the export's log)
    dealt = " ".join(pbn_hand(list(cards_from_mask(mask))) for mask in game.dealt)
    assert f'[Deal "N:{dealt}"]' in pbn
    assert f'[Dealer "{SEATS[game.dealer]}"]' in pbn
    first_leader = game.completed[0][0]
    assert f'[Play "{SEATS[first_leader]}"]' in pbn
    res_table = await alice.slash(channel, "ruff record", table=1)  # by number: the same files
    assert {a.filename for a in res_table.response.attachments} == set(files)

    # ---- /ruff replay: trick 1, every hand, ◀ disabled, ▶ to trick 2
    res = await alice.slash(channel, "ruff replay")
    assert res.ephemeral
    msg = res.response
    leader, trick_cards, winner = game.completed[0]
    content = msg.content
    assert "Replay — table #1" in content and f"trick 1 of {played}" in content
    assert f"Trick 1** — {('North', 'East', 'South', 'West')[leader]}" in content
    for i, card in enumerate(trick_cards):
        assert f"{SEATS[(leader + i) % 4]} {card_text(card)}" in content
    assert f"Won by **{('North', 'East', 'South', 'West')[winner]}" in content
    for seat, name in enumerate(names):
        assert f"> {SEATS[seat]} {name if seat == 0 else name + ', AI easy'}: " in content
    assert _cards_shown(content) == [13, 13, 13, 13]  # all four hands: the game is over
    buttons = _replay_buttons(msg.components)
    assert buttons["◀"] == ("rh:r:1:0", True) and buttons["▶"] == ("rh:r:1:1", False)

    res = await alice.click(msg, label="▶")
    assert res.response.id == msg.id  # the same private message, redrawn
    msg = res.response
    leader, trick_cards, winner = game.completed[1]
    assert f"trick 2 of {played}" in msg.content
    assert (
        " · ".join(f"{SEATS[(leader + i) % 4]} {card_text(c)}" for i, c in enumerate(trick_cards))
        in msg.content
    )
    assert _replay_buttons(msg.components) == {"◀": ("rh:r:1:0", False), "▶": ("rh:r:1:2", False)}
    # the hands before trick 2: the first trick's cards are gone from them
    assert _cards_shown(msg.content) == [12, 12, 12, 12]

    res = await alice.click(msg, label="◀")
    assert f"trick 1 of {played}" in res.response.content

    # a step past the end clamps to the last trick, which shows the deal's end
    res = await forged_click(env, alice, res.response.message, "rh:r:1:999")
    last = res.response.content
    assert (
        f"trick {played} of {played}" in last
        and "End of deal 1" in last
        and "Game 1 won by" in last
    )
    if played < 13:  # the deal ended by a claim: its last step says so
        assert "claimed" in last and "(accepted)" in last, last
    assert _replay_buttons(res.response.components)["▶"] == (f"rh:r:1:{played - 1}", True)
    # a malformed step is not a replay id at all
    res = await forged_click(env, alice, res.response.message, "rh:r:1:x")
    _refused(res, "not recognised")

    # ---- another server cannot reach table #1, by command or by a forged button
    other = env.create_guild(name="Elsewhere")
    elsewhere = other.create_text_channel("cards")
    bob = other.add_member(env.create_user("bob"))
    _refused(
        await bob.slash(elsewhere, "ruff record", table=1), "There is no table #1 in this server"
    )
    _refused(
        await bob.slash(elsewhere, "ruff replay", table=1), "There is no table #1 in this server"
    )
    _refused(
        await bob.slash(elsewhere, "ruff replay"), "You have not finished a game in this server"
    )
    await bob.slash(elsewhere, "ruff new")  # table #2, in its lobby
    res = await forged_click(env, bob, table_message(elsewhere), "rh:r:1:0")
    _refused(res, "There is no table #1 in this server")
    # ---- a table that has not finished, or was cancelled
    _refused(await bob.slash(elsewhere, "ruff record", table=2), "Table #2 has not finished yet")
    await bob.click(table_message(elsewhere), label="Add AI (easy)")
    await bob.click(table_message(elsewhere), label="Start")
    _refused(await bob.slash(elsewhere, "ruff replay", table=2), "Table #2 has not finished yet")
    await bob.slash(elsewhere, "ruff cancel")
    _refused(await bob.slash(elsewhere, "ruff record", table=2), "Table #2 was cancelled")
    _refused(
        await alice.slash(channel, "ruff record", table=99), "There is no table #99 in this server"
    )
    assert "Rematch" in button_labels(table_message(channel))
    assert labels_of(msg.components)  # the replay message still has its buttons
    assert not [a for a in game.legal_actions(0) if isinstance(a, Play)]
