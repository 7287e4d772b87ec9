"""Lessons through the real bot (simcord): ``/ruff lesson`` sends a scripted deal to the
learner's DMs; each step asks, a right answer moves on with its explanation, a wrong
one gets the explanation privately and changes nothing; the progress survives a
restart; the end says what was learned and offers the next lesson; German players
read German; no lesson is a game (no table, no result, no rating)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.store import LessonRepo, RatingRepo
from bot.tables.lesson_scripts import LESSONS, Lesson, lesson_named

from .conftest import make_settings, restart
from .helpers import button_labels, buttons, db_dump, forged_click, hand_message, raw_buttons


def _member(env: Any, name: str = "alice") -> tuple[Any, Any]:
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    return guild.add_member(env.create_user(name)), channel


def _components(message: Any) -> list[dict[str, Any]]:
    """A message's components as raw dicts (a DM or a private answer alike)."""
    if isinstance(message.components, list) and all(
        isinstance(c, dict) for c in message.components
    ):
        return raw_buttons(message.components)
    return [
        {
            "custom_id": b.custom_id,
            "type": int(b.type.value),
            "label": getattr(b, "label", None),
            "options": [{"value": o.value, "label": o.label} for o in getattr(b, "options", [])],
            "disabled": getattr(b, "disabled", False),
        }
        for b in buttons(message)
    ]


async def _answer(member: Any, message: Any, lesson: Lesson, k: int, codes: list[str]) -> Any:
    """Answer step ``k`` of ``lesson`` with ``codes`` through the game's own controls on
    ``message``: a card or call button, a call in the menu of calls, or the lay-out
    menu then its Confirm."""
    ids = {str(c["custom_id"]): c for c in _components(message)}
    if len(codes) > 1:  # a lay-out: the menu, then Confirm
        cards = [code.split(":", 1)[1] for code in codes]
        menu = f"rh:ld:{lesson.name}:{k}"
        assert menu in ids, list(ids)
        res = await member.select(message, cards, custom_id=menu)
        assert res.acknowledged and not res.ephemeral, res
        shown = res.response
        confirm = f"rh:lk:{lesson.name}:{k}:" + ".".join(cards)
        assert confirm in {str(c["custom_id"]) for c in _components(shown)}
        assert "press **Confirm**" in shown.content
        return await member.click(shown, custom_id=confirm)
    (code,) = codes
    button = f"rh:l:{lesson.name}:{k}:{code}"
    if button in ids:
        assert not ids[button].get("disabled"), button
        return await member.click(message, custom_id=button)
    menu = next(
        cid
        for cid, c in ids.items()
        if cid.startswith(f"rh:lc:{lesson.name}:{k}:")
        and code in [o["value"] for o in c.get("options", [])]
    )
    return await member.select(message, [code], custom_id=menu)


def _right(lesson: Lesson, k: int, actions: list[str]) -> list[str]:
    """A right answer to step ``k`` after ``actions``: the first answers still legal."""
    step = lesson.steps[k]
    game = lesson.replay(tuple(actions))
    legal = {a.encode() for a in game.legal_actions(lesson.learner)}
    return [a for a in step.answers if a in legal][: step.count]


async def _play(env: Any, member: Any, lesson: Lesson) -> None:
    """Answer every step of the learner's rightly from the DM, with the game's controls."""
    actions: list[str] = []
    for k, step in enumerate(lesson.steps):
        if step.seat != lesson.learner:
            actions.append(step.answers[0])
            continue
        dm = hand_message(member)
        assert "❓ " in dm.content, dm.content
        codes = _right(lesson, k, actions)
        res = await _answer(member.user, dm, lesson, k, codes)
        assert res.acknowledged and not res.ephemeral, res
        actions.extend(codes)


@pytest.mark.parametrize("bot_settings", [{"seed": 3}])
async def test_a_lesson_end_to_end_with_a_wrong_answer_and_a_restart(
    simcord_env: Any, db_path: Path, more_bots: list[Any]
) -> None:
    env = simcord_env
    alice, channel = _member(env)
    lesson = lesson_named("turnover-layouts")
    assert lesson is not None
    res = await alice.slash(channel, "ruff lesson", name=lesson.name)
    assert res.ephemeral and "in your DMs" in res.response.content
    dm = hand_message(alice)
    assert dm.content.startswith("🎓 **Turnover Bridge: the layouts** · step 1 of 3")
    assert "Which card of your layout wins this trick for sure?" in dm.content
    # the game's own card buttons: the layout's face-up cards marked ▲, as at the table
    ace = next(c for c in _components(dm) if c["custom_id"] == "rh:l:turnover-layouts:0:play:AH")
    assert str(ace["label"]).startswith("▲"), ace
    assert "Your hand" not in dm.content  # every card is a button below, as in a hand DM

    # a wrong answer: the explanation, privately, and nothing changes
    before = db_dump(db_path)
    res = await _answer(alice.user, dm, lesson, 0, ["play:KC"])
    assert res.ephemeral
    text = res.response.content
    assert text.startswith("❌ Not this one. The A♥: a face-up layout card plays like a card")
    assert "Try again" in text
    assert db_dump(db_path) == before
    assert hand_message(alice).content == dm.content

    # the right answer: the explanation, South's answer, the next question, in place
    res = await _answer(alice.user, dm, lesson, 0, ["play:AH"])
    assert not res.ephemeral
    dm = hand_message(alice)
    assert "step 2 of 3" in dm.content
    assert "✅ The A♥: a face-up layout card plays like a card in your hand." in dm.content
    assert "• South follows with the J♥" in dm.content
    assert "Lead the 2♥ that just turned up" in dm.content

    # a stale button (step 1 again) is refused and changes nothing
    before = db_dump(db_path)
    res = await forged_click(env, alice.user, dm, "rh:l:turnover-layouts:0:play:AH")
    assert res.ephemeral and "That step is done" in res.response.content
    # a card that is not hers, and an id that is not the bot's: refused, nothing changed
    res = await forged_click(env, alice.user, dm, "rh:l:turnover-layouts:2:play:2C")
    assert res.ephemeral and "not one of the choices" in res.response.content
    res = await forged_click(env, alice.user, dm, "rh:l:turnover-layouts:2:play:ZZ")
    assert res.ephemeral and "not recognised" in res.response.content
    assert db_dump(db_path) == before
    assert "step 2 of 3" in hand_message(alice).content

    # a restart: the lesson resumes at step 2 from the database
    await restart(env, more_bots, make_settings(db_path, seed=3))
    res = await alice.slash(channel, "ruff lesson", name=lesson.name)
    dm = hand_message(alice)
    assert "step 2 of 3" in dm.content and "Lead the 2♥" in dm.content
    await _answer(alice.user, dm, lesson, 2, ["play:2H"])
    dm = hand_message(alice)
    assert "step 3 of 3" in dm.content
    assert "• South trumps with the 2♠" in dm.content and "• South leads the 5♣." in dm.content
    done = ["play:AH", "play:JH", "play:2H", "play:2S", "play:5C"]
    assert lesson.replay(tuple(done)).to_act() == 0
    await _answer(alice.user, dm, lesson, 5, ["play:6C"])
    dm = hand_message(alice)
    assert "🎓 **Turnover Bridge: the layouts** · done" in dm.content
    assert "**What you learned:**" in dm.content and "14 of the 26 tricks" in dm.content
    assert button_labels(dm) == ["The Solo Whist auction"]
    row = await LessonRepo(env.bot.db).get(alice.user.id, lesson.name)
    assert row is not None and row.finished

    # the next lesson starts from its button, in the DM
    res = await alice.user.click(dm, label="The Solo Whist auction")
    assert not res.ephemeral
    assert hand_message(alice).content.startswith("🎓 **The Solo Whist auction** · step 1 of 2")

    # no lesson is a game: no table, no result, no rating
    assert not env.bot.manager.tables
    assert await RatingRepo(env.bot.db).all() == []
    assert not any("INSERT INTO tables" in line for line in db_dump(db_path))


async def test_the_list_of_lessons_and_an_unknown_name(simcord_env: Any) -> None:
    env = simcord_env
    alice, channel = _member(env)
    res = await alice.slash(channel, "ruff lesson")
    assert res.ephemeral
    text = res.response.content
    for lesson in LESSONS:
        assert f"**{lesson.title}** (`{lesson.name}`) · new" in text
    res = await alice.click(res.response, label=LESSONS[0].title)
    assert res.ephemeral and "in your DMs" in res.response.content
    dm = hand_message(alice)
    assert dm.content.startswith(f"🎓 **{LESSONS[0].title}** · step 1 of 3")
    res = await forged_click(env, alice.user, dm, "rh:l:no-such-lesson:start")
    assert res.ephemeral and "no longer exists" in res.response.content


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


async def test_a_german_learner_reads_german(simcord_env: Any, german: set[int]) -> None:
    env = simcord_env
    alice, channel = _member(env)
    german.add(alice.user.id)
    lesson = lesson_named("solo-auction")
    assert lesson is not None
    res = await alice.slash(channel, "ruff lesson", name=lesson.name)
    assert res.ephemeral and "DMs" in res.response.content
    dm = hand_message(alice)
    assert dm.content.startswith("🎓 **Die Auktion im Solo-Whist** · Schritt 1 von 2"), dm.content
    assert "Im Solo-Whist spielt jeder für sich" in dm.content
    res = await _answer(alice.user, dm, lesson, 0, ["bid:pass"])  # wrong: in German
    assert res.ephemeral and res.response.content.startswith("❌ Nicht diese. Solo: du übernimmst")
    await _play(env, alice, lesson)
    dm = hand_message(alice)
    assert "**Was du gelernt hast:**" in dm.content


@pytest.mark.slow
@pytest.mark.parametrize("name", [lesson.name for lesson in LESSONS])
async def test_each_lesson_runs_end_to_end(simcord_env: Any, name: str) -> None:
    env = simcord_env
    alice, channel = _member(env)
    lesson = lesson_named(name)
    assert lesson is not None
    await alice.slash(channel, "ruff lesson", name=name)
    await _play(env, alice, lesson)
    dm = hand_message(alice)
    assert f"🎓 **{lesson.title}** · done" in dm.content
    assert lesson.learned.split(":")[0][:30] in dm.content
    row = await LessonRepo(env.bot.db).get(alice.user.id, name)
    assert row is not None and row.finished and row.step == len(lesson.steps)


async def test_a_learner_with_closed_dms_plays_the_lesson_privately_in_the_channel(
    simcord_env: Any,
) -> None:
    env = simcord_env
    alice, channel = _member(env)
    env.inject_error(
        "POST",
        f"/channels/{alice.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    lesson = lesson_named("solo-auction")
    assert lesson is not None
    res = await alice.slash(channel, "ruff lesson", name=lesson.name)
    notes = [res.response, *res.followups]
    shown = next(n for n in notes if n.content.startswith("🎓 **The Solo Whist auction**"))
    assert shown.ephemeral and "step 1 of 2" in shown.content
    res = await _answer(alice, shown, lesson, 0, ["bid:solo"])
    assert res.acknowledged
    row = await LessonRepo(env.bot.db).get(alice.user.id, lesson.name)
    assert row is not None and row.step == 4  # Solo, then East, South and West


async def test_the_lay_out_is_the_games_menu_and_confirm(simcord_env: Any, db_path: Path) -> None:
    """Cotton's ruff in a lesson: the four cards chosen at once in the hand DM's menu and
    confirmed (not four one-card questions); a wrong lay-out gets the explanation once,
    privately, and changes nothing; the right one moves on with it said once."""
    env = simcord_env
    alice, channel = _member(env)
    lesson = lesson_named("ruff-and-honours")
    assert lesson is not None
    await alice.slash(channel, "ruff lesson", name=lesson.name)
    await _answer(alice.user, hand_message(alice), lesson, 0, ["take"])
    dm = hand_message(alice)
    assert "step 2 of 3" in dm.content and "Which four?" in dm.content, dm.content
    (menu,) = [c for c in _components(dm) if c["type"] == 3]
    assert menu["custom_id"] == f"rh:ld:{lesson.name}:1"
    assert len(menu["options"]) == 16  # the whole hand with the stock, as at the table
    assert not [c for c in _components(dm) if str(c["custom_id"]).startswith("rh:l:")]

    before = db_dump(db_path)
    res = await _answer(
        alice.user, dm, lesson, 1, ["discard:2C", "discard:3C", "discard:4C", "discard:AD"]
    )
    assert res.ephemeral and res.response.content.startswith("❌ Not this one."), (
        res.response.content
    )
    assert res.response.content.count("A low card of a side suit") == 1
    assert db_dump(db_path) == before

    res = await _answer(
        alice.user, dm, lesson, 1, ["discard:2C", "discard:3C", "discard:4C", "discard:2S"]
    )
    assert not res.ephemeral
    dm = hand_message(alice)
    assert "step 3 of 3" in dm.content and "Can-ye" in dm.content, dm.content
    assert dm.content.count("A low card of a side suit") == 1
    row = await LessonRepo(env.bot.db).get(alice.user.id, lesson.name)
    assert row is not None and row.step == 2 and len(row.actions) == 5
