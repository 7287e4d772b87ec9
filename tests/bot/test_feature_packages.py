"""Features as packages, in the running bot: records, the info commands, the
settings and the coach (reviews, puzzles, lessons, hints) answer from
``bot/features/`` (their commands under ``/ruff``, their
buttons with their own prefixes), the hubs keep no trace of them, and a feature's
button drawn before a restart still works after it."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import discord

from bot.app.cog import RuffCog
from bot.app.manager import GameManager
from bot.present import coach_components, components
from bot.present.components import RHButton, RHSelect
from bot.present.handlers import ClickHandler

from .conftest import make_settings, restart
from .helpers import forged_click
from .test_records import _play_to_the_end, _replay_buttons

MOVED = (
    "hand",
    "rules",
    "leaderboard",
    "stats",
    "settings",
    "options",
    "record",
    "replay",
    "review",
    "puzzle",
    "lesson",
)

# one id of every kind the bot draws (and one of the features' that old messages carry)
IDS = (
    "rh:t:1:join",
    "rh:a:1:2:0:play:AS",
    "rh:d:1:2:0",
    "rh:k:1:2:0:discard:AS.KS",
    "rh:c:1:2:0:1",
    "rh:h:1:2:0",
    "rh:l:trumps:start",
    "rh:lb:0",
    "rh:lb:2:whist-5",
    "rh:r:1:0",
    "rh:r:1:3:d",
    "rh:s:1",
    "rh:ld:trumps:2",
    "rh:lk:trumps:2:AS.KS",
    "rh:lc:trumps:2:0",
    "rh:l:trumps:2:play:AS",
    "rc:v:1:1",
    "rc:d:1:1",
    "rc:m:4",
    "rc:c:4:0",
    "rc:n:4",
    "dy:next:1",
    "dy:post:1",
    "ch:play:1",
    "ch:rematch:1",
)


async def test_the_features_are_installed_and_the_hubs_keep_none_of_them(
    simcord_env: Any,
) -> None:
    bot = simcord_env.bot
    names = {f.name: f for f in bot.features}
    assert {"records", "info", "settings", "coach", "daily", "challenge"} <= set(names)
    group = bot.get_cog("RuffCog").app_command
    under_ruff = {c.name for c in group.commands}
    assert set(MOVED) <= under_ruff
    # the cog defines none of them, the manager forwards none, components route none
    cog_commands = {c.name for c in RuffCog.__cog_app_commands__}
    assert not cog_commands & set(MOVED)
    for forward in (
        "record_command",
        "replay_command",
        "on_replay_step",
        "leaderboard",
        "on_leaderboard_page",
        "stats",
        "rules_command",
        "hand_command",
        "settings_command",
        "options_command",
        "review_command",
        "puzzle_command",
        "lesson_command",
        "on_hint",
        "on_lesson",
        "on_review_button",
        "on_review_details",
        "on_puzzle_answer",
        "on_next_puzzle",
        "on_puzzle_solution",
        "on_puzzle_pick",
    ):
        assert not hasattr(GameManager, forward), forward
    source = inspect.getsource(components)
    assert "on_replay_step" not in source and "on_leaderboard_page" not in source
    assert "on_hint" not in source and "on_lesson" not in source
    assert not hasattr(ClickHandler, "on_hint") and not hasattr(ClickHandler, "on_lesson")
    assert not hasattr(coach_components, "CoachButton")  # the coach's ids are the feature's
    # exactly one registered class owns each id: a feature's own prefix, never two
    classes: list[type[discord.ui.DynamicItem[Any]]] = [RHButton, RHSelect]
    for feature in bot.features:
        classes.extend(feature.items)
    owner = {}
    for cid in IDS:
        matching = [c for c in classes if c.__discord_ui_compiled_template__.fullmatch(cid)]  # type: ignore[attr-defined]
        assert len(matching) == 1, (cid, matching)
        owner[cid] = matching[0]
    records_items = set(names["records"].items)
    assert owner["rh:r:1:0"] in records_items and owner["rh:s:1"] in records_items
    assert owner["rh:lb:0"] in set(names["info"].items)
    assert owner["dy:next:1"] in set(names["daily"].items)
    assert owner["ch:play:1"] in set(names["challenge"].items)
    coach_items = set(names["coach"].items)
    for cid in IDS:
        if cid.startswith(("rc:", "rh:h:", "rh:l:", "rh:ld:", "rh:lk:", "rh:lc:")):
            assert owner[cid] in coach_items, cid


async def test_a_replay_drawn_before_a_restart_steps_after_it(
    simcord_env: Any, db_path: Path, bot_settings: dict[str, Any], more_bots: list[Any]
) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    table = await _play_to_the_end(env, channel, alice)
    played = len(table.game.completed)
    res = await alice.slash(channel, "ruff replay")
    msg = res.response
    assert f"trick 1 of {played}" in msg.content
    assert _replay_buttons(msg.components)["▶"] == ("rh:r:1:1", False)

    await restart(env, more_bots, make_settings(db_path, **bot_settings))

    res = await alice.click(msg, label="▶")  # the old message's button, the new bot
    assert res.response.id == msg.id and f"trick 2 of {played}" in res.response.content
    # the old leaderboard's page ids still page (the info feature's prefix)
    res = await forged_click(env, alice, res.response.message, "rh:lb:0:whist-5")
    assert "Leaderboard — Card Room" in res.response.content
    # and a malformed id of a feature's prefix is refused privately, changing nothing
    shown = res.response.message
    before = env.backend.get_message(shown.channel.id, shown.id).content
    res = await forged_click(env, alice, shown, "rh:r:1:x")
    assert res.ephemeral and "not recognised" in res.response.content
    # so is one of the daily boards' or the challenges' prefix with a verb they lack
    for forged in ("dy:undo:1", "dy:next:x", "ch:accept:1", "ch:play:"):
        res = await forged_click(env, alice, shown, forged)
        assert res.ephemeral and "not recognised" in res.response.content, forged
    assert env.backend.get_message(shown.channel.id, shown.id).content == before
