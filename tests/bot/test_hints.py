"""Hints through the real bot (simcord): ``hints:on`` is shown in the lobby and on the
table, the Hint button appears only at such a table on the player's own turn, its
answer is private, in the player's language, gives a legal choice and a reason, and
changes nothing; the game ends unrated and a ratings rebuild leaves it unrated."""

from __future__ import annotations

import re
from typing import Any

import pytest
import simcord

from bot.store import RatingRepo, ratings
from bot.tables.kinds import TableKind

from .conftest import make_settings, restart
from .dm_play import label_of, lowest_card, open_table, play_out
from .helpers import (
    button_labels,
    buttons,
    forged_click,
    hand_message,
    label_to_card,
    message_text,
    table_message,
    world_state,
)

HINT = "💡 Hint"


def _answer(res: Any) -> str:
    """The text of a private answer, whether sent at once or after a deferral."""
    texts = [m.content for m in res.followups]
    if res.response is not None and res.response.content:
        texts.insert(0, res.response.content)
    return "\n".join(texts)


async def _alice_to_act(env: Any, table: Any, alice: Any) -> None:
    """Play alice's lowest cards until it is her turn with a choice of cards."""
    while table.game.to_act() != 0 or len(table.game.legal_actions(0)) < 2:
        assert table.game.to_act() == 0, "an AI seat kept the table waiting"
        await alice.user.click(hand_message(alice), label=_label(table, lowest_card))


def _label(table: Any, policy: Any) -> str:
    view = table.game.observe(0)
    return label_of(view, policy(view)[0])


@pytest.mark.slow  # a whole game
@pytest.mark.parametrize("bot_settings", [{"seed": 7}])
async def test_a_hint_is_private_changes_nothing_and_the_game_is_unrated(
    simcord_env: Any, db_path: Any
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    res = await alice.slash(channel, "ruff new", game="whist-5", options="hints:on")
    assert not res.ephemeral, res.response.content
    lobby = message_text(table_message(channel))
    assert "💡 Hints on · unrated" in lobby.splitlines()[0]
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]
    assert table.kind is TableKind.HINTS
    assert "💡 Hints on · unrated" in message_text(table_message(channel))

    await _alice_to_act(env, table, alice)
    dm = hand_message(alice)
    assert HINT in button_labels(dm)
    before = world_state(env, db_path)
    res = await alice.user.click(dm, label=HINT)
    assert res.ephemeral
    text = _answer(res)
    match = re.fullmatch(r"💡 Hint: play \*\*(.+?)\*\* — (.+)\.", text)
    assert match, text
    legal = {a.card for a in table.game.legal_actions(0)}
    assert label_to_card(match.group(1)) in legal  # a card she may play now
    assert match.group(2)  # and a reason in words
    assert world_state(env, db_path) == before  # nothing changed, nothing written

    # a stranger's click, and a click on a hand that has moved on: refused, nothing changed
    hint_id = next(b.custom_id for b in buttons(dm) if b.label == HINT)
    res = await forged_click(env, bob, table_message(channel), hint_id)
    assert res.ephemeral and "not your hand" in _answer(res)
    await alice.user.click(dm, label=_label(table, lowest_card))
    res = await forged_click(env, alice.user, hand_message(alice), hint_id)
    assert res.ephemeral and "moved on" in _answer(res)

    await play_out(env, table, [alice], lambda game, view: lowest_card(view), limit=200)
    final = message_text(table_message(channel))
    assert "Hints were on: this game is not rated." in final
    repo = RatingRepo(env.bot.db)
    assert await repo.all() == []
    assert await repo.unrated_tables() == []  # and a rebuild will not rate it either
    report = await ratings.rebuild(env.bot.db)
    assert report.events == 0 and await repo.all() == []


@pytest.mark.parametrize("bot_settings", [{"seed": 7}])
async def test_no_hint_button_without_hints_and_a_forged_hint_is_refused(
    simcord_env: Any, db_path: Any
) -> None:
    env = simcord_env
    _, channel, players = await open_table(env, 1, "whist-5", ai=3)
    alice = players[0]
    table = env.bot.manager.tables[1]
    assert "Hints on" not in message_text(table_message(channel))
    await _alice_to_act(env, table, alice)
    dm = hand_message(alice)
    assert HINT not in button_labels(dm)
    before = world_state(env, db_path)
    res = await forged_click(env, alice.user, dm, f"rh:h:1:{table.game.version}:0")
    assert res.ephemeral and "Hints are off at this table." in _answer(res)
    # a malformed id of the coach feature's hint prefix: refused, nothing changed
    res = await forged_click(env, alice.user, dm, "rh:h:1:x:0")
    assert res.ephemeral and "not recognised" in _answer(res)
    assert world_state(env, db_path) == before


@pytest.mark.parametrize("bad", ["hints:maybe", "hints=", "hint=on"])
async def test_a_malformed_hints_option_is_refused(simcord_env: Any, bad: str) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    res = await alice.slash(channel, "ruff new", game="whist-5", options=bad)
    assert res.ephemeral
    assert not env.bot.manager.tables


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    users: set[int] = set()
    original = simcord.interactions.base_payload

    def with_locale(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(*args, **kwargs)
        if kwargs.get("user_id") in users:
            payload["locale"] = "de"
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locale)
    return users


@pytest.mark.parametrize("bot_settings", [{"seed": 11}])
async def test_the_hint_speaks_the_players_language(simcord_env: Any, german: set[int]) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    german.add(alice.user.id)
    res = await alice.slash(channel, "ruff new", game="whist-5", options="hints=on")
    assert not res.ephemeral
    for _ in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")  # the server's language
    await alice.click(table_message(channel), label="Start")
    table = env.bot.manager.tables[1]
    assert table.game.to_act() == 0, "an AI seat kept the table waiting"
    dm = hand_message(alice)
    hint = next(label for label in button_labels(dm) if label.startswith("💡"))
    assert hint == "💡 Tipp"
    res = await alice.user.click(dm, label=hint)
    text = _answer(res)
    assert res.ephemeral and text.startswith("💡 Tipp: "), text


@pytest.mark.parametrize("bot_settings", [{"seed": 7}])
async def test_the_hint_button_is_only_on_the_hand_whose_turn_it_is(simcord_env: Any) -> None:
    env = simcord_env
    _, channel, players = await open_table(env, 2, "whist-5", options="hints:on", ai=2)
    table = env.bot.manager.tables[1]
    for _ in range(3):  # three turns of the two players
        seat = table.game.to_act()
        assert seat in (0, 1), "an AI seat kept the table waiting"
        assert HINT in button_labels(hand_message(players[seat]))
        assert HINT not in button_labels(hand_message(players[1 - seat]))
        view = table.game.observe(seat)
        await players[seat].user.click(
            hand_message(players[seat]), label=label_of(view, lowest_card(view)[0])
        )


def test_the_hint_button_takes_a_row_of_its_own_or_the_last_with_room() -> None:
    from bot.present.components import Rows
    from bot.present.controls import hint_button

    ui = Rows()
    for row in range(4):
        for k in range(5):
            ui.button(f"rh:t:1:c{row}{k}", "x", row=row)
    hint_button(ui, 1, 7, 0)
    rows = ui.to_components()
    assert [c["label"] for c in rows[4]["components"]] == [HINT]  # a row of its own
    assert rows[4]["components"][0]["custom_id"] == "rh:h:1:7:0"
    full = Rows()
    for row in range(5):
        for k in range(5 if row != 2 else 3):
            full.button(f"rh:t:1:c{row}{k}", "x", row=row)
    hint_button(full, 1, 7, 0)
    assert HINT in [c["label"] for c in full.to_components()[2]["components"]]
    full.button("rh:t:1:d0", "x", row=2)
    hint_button(full, 1, 7, 0)  # every row full: no button, no error
    assert sum(c["label"] == HINT for r in full.to_components() for c in r["components"]) == 1


@pytest.mark.parametrize("bot_settings", [{"seed": 7}])
async def test_hints_survive_a_restart(
    simcord_env: Any, db_path: Any, more_bots: list[Any]
) -> None:
    env = simcord_env
    _, channel, players = await open_table(env, 1, "whist-5", options="hints:on", ai=3)
    alice = players[0]
    await restart(env, more_bots, make_settings(db_path, seed=7))
    table = env.bot.manager.tables[1]
    assert table.kind is TableKind.HINTS
    assert "💡 Hints on · unrated" in message_text(table_message(channel))
    res = await alice.user.click(hand_message(alice), label=HINT)
    assert res.ephemeral and _answer(res).startswith("💡 Hint: play **")
