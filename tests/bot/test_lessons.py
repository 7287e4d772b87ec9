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

from bot.present.i18n import using
from bot.present.render.lessons import choice_label
from bot.store import LessonRepo, RatingRepo
from bot.tables.lesson_scripts import LESSONS, Lesson, lesson_named
from engine import decode_action

from .conftest import make_settings, restart
from .helpers import button_labels, db_dump, forged_click, hand_message


def _member(env: Any, name: str = "alice") -> tuple[Any, Any]:
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    return guild.add_member(env.create_user(name)), channel


def _label(lesson: Lesson, step: int, actions: list[str], code: str, language: str = "en") -> str:
    game = lesson.replay(tuple(actions))
    view = game.observe(lesson.learner)
    with using(language):
        return choice_label(view, decode_action(code))


async def _play(env: Any, member: Any, lesson: Lesson, language: str = "en") -> None:
    """Answer every step of the learner's rightly from the DM, checking each message."""
    actions: list[str] = []
    for k, step in enumerate(lesson.steps):
        if step.seat != lesson.learner:
            actions.append(step.answers[0])
            continue
        dm = hand_message(member)
        assert "❓ " in dm.content, dm.content
        # the first right answer still on offer (a lay-out's cards go one by one)
        game = lesson.replay(tuple(actions))
        legal = game.legal_actions(lesson.learner)
        code = next(a for a in step.answers if decode_action(a) in legal)
        label = _label(lesson, k, actions, code, language)
        assert label in button_labels(dm), (label, button_labels(dm))
        res = await member.user.click(dm, label=label)
        assert res.acknowledged and not res.ephemeral, res
        actions.append(code)


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
    ace = _label(lesson, 0, [], "play:AH")
    assert ace == "A♥\ufe0e (layout)" and ace in button_labels(dm)

    # a wrong answer: the explanation, privately, and nothing changes
    before = db_dump(db_path)
    res = await alice.user.click(dm, label=_label(lesson, 0, [], "play:KC"))
    assert res.ephemeral
    text = res.response.content
    assert text.startswith("❌ Not this one. The A♥: a face-up layout card plays like a card")
    assert "Try again" in text
    assert db_dump(db_path) == before
    assert hand_message(alice).content == dm.content

    # the right answer: the explanation, South's answer, the next question, in place
    res = await alice.user.click(dm, label=ace)
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
    await alice.user.click(dm, label=_label(lesson, 2, ["play:AH", "play:JH"], "play:2H"))
    dm = hand_message(alice)
    assert "step 3 of 3" in dm.content
    assert "• South trumps with the 2♠" in dm.content and "• South leads the 5♣." in dm.content
    done = ["play:AH", "play:JH", "play:2H", "play:2S", "play:5C"]
    await alice.user.click(dm, label=_label(lesson, 5, done, "play:6C"))
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
    assert dm.content.startswith(f"🎓 **{LESSONS[0].title}** · step 1 of 6")
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
    wrong = _label(lesson, 0, [], "bid:pass", "de")
    res = await alice.user.click(dm, label=wrong)  # wrong: the explanation in German
    assert res.ephemeral and res.response.content.startswith("❌ Nicht diese. Solo: du übernimmst")
    await _play(env, alice, lesson, "de")
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
    res = await alice.click(shown, label="Solo")
    assert res.acknowledged
    row = await LessonRepo(env.bot.db).get(alice.user.id, lesson.name)
    assert row is not None and row.step == 4  # Solo, then East, South and West
