"""Discord failures at the HTTP level, under discord.py's own client.

The notifier (``bot.present.notify``) runs on a real ``discord.Client`` whose real
``discord.http.HTTPClient`` talks HTTP to a fake Discord on 127.0.0.1
(``tests/reliability/httpfake.py``). So the retries tested here are the ones
production makes: discord.py waits out a 429's ``retry_after`` (per route or
global) and retries 500/502/504 with backoff (1 s, 3 s, ...), at most 5
attempts a request; 503 and other errors are not retried. The bot adds no
retry layer of its own on top, so a message is posted exactly once and a
failing call costs at most discord.py's own attempts.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator

import discord
import discord.http
import pytest

from bot.present import notify
from bot.present.notify import DMClosed, MessageGone, Notifier, Unreachable

from .httpfake import Disconnect, FakeDiscord, Hang, RateLimit, Status, cannot_dm, unknown_message

pytestmark = pytest.mark.slow  # left out by `make test-fast`

DISCORD_PY_ATTEMPTS = 5  # discord.http.HTTPClient.request: ``for tries in range(5)``
CHANNEL = 111
OTHER_CHANNEL = 222
USER = 333
POSTS = rf"/channels/{CHANNEL}/messages"
EDITS = rf"/channels/{CHANNEL}/messages/\d+"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server


@pytest.fixture
async def notifier(fake: FakeDiscord) -> AsyncIterator[Notifier]:
    async with fake.client() as client:
        # the real HTTP client, not a simulator's replacement
        assert type(client.http) is discord.http.HTTPClient
        assert client.http.request.__func__ is discord.http.HTTPClient.request  # type: ignore[attr-defined]
        notifier = Notifier(client, min_interval=0.0)
        yield notifier
        notifier.cancel_all()


def rendering(content: str) -> tuple[str, discord.ui.View | None]:
    return content, None


# ------------------------------------------------------------------ transient: arrives once


@pytest.mark.parametrize(
    "limit", [RateLimit(0.05), RateLimit(0.05, is_global=True)], ids=["route", "global"]
)
async def test_a_post_rate_limited_once_arrives_exactly_once(
    fake: FakeDiscord, notifier: Notifier, limit: RateLimit
) -> None:
    message = await notifier.post(CHANNEL, "North leads the 7♠")
    fake.fail("POST", POSTS, limit)
    message = await notifier.post(CHANNEL, "East plays the K♠")
    assert message.content == "East plays the K♠"
    assert [m["content"] for m in fake.posted(CHANNEL)] == [
        "North leads the 7♠",
        "East plays the K♠",
    ]
    assert fake.count("POST", POSTS) == 3  # 1 + the 429 + discord.py's one retry


async def test_a_post_after_a_500_arrives_exactly_once(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    fake.fail("POST", POSTS, Status(500))
    message = await notifier.post(CHANNEL, "Trumps are hearts")
    assert [m["content"] for m in fake.posted(CHANNEL)] == ["Trumps are hearts"]
    assert message.id == int(fake.posted(CHANNEL)[0]["id"])
    assert fake.count("POST", POSTS) == 2  # discord.py retried once, after its 1 s backoff


async def test_a_dm_through_429s_on_both_calls_arrives_once(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    fake.fail("POST", "/users/@me/channels", RateLimit(0.02))
    fake.fail("POST", r"/channels/\d+/messages", RateLimit(0.02), RateLimit(0.02, is_global=True))
    message = await notifier.dm(USER, "Your hand: A♥ K♥ 10♣")
    dm_channel = fake.dm_channels[USER]
    assert message.channel.id == dm_channel
    assert [m["content"] for m in fake.posted(dm_channel)] == ["Your hand: A♥ K♥ 10♣"]
    assert fake.count("POST", "/users/@me/channels") == 2
    assert fake.count("POST", rf"/channels/{dm_channel}/messages") == 3
    # the DM channel is remembered: the next DM costs one request
    await notifier.dm(USER, "Your turn")
    assert fake.count("POST", "/users/@me/channels") == 2


async def test_an_edit_after_a_502_lands_once(fake: FakeDiscord, notifier: Notifier) -> None:
    message = await notifier.post(CHANNEL, "Table #1 — North to play")
    fake.fail("PATCH", EDITS, Status(502))
    await notifier.edit(CHANNEL, message.id, "Table #1 — East to play", None)
    stored = fake.messages[message.id]
    assert stored["content"] == "Table #1 — East to play" and stored["edits"] == 1
    assert fake.count("PATCH", EDITS) == 2


# ------------------------------------------------------------------ one retry layer: discord.py's


async def test_a_persistent_429_costs_only_discord_py_attempts(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    """Not 5 attempts x notify's own 3 tries: one retry layer."""
    fake.fail("POST", POSTS, *[RateLimit(0.01)] * 20)
    with pytest.raises(discord.HTTPException) as raised:
        await notifier.post(CHANNEL, "never arrives")
    assert raised.value.status == 429
    assert fake.count("POST", POSTS) == DISCORD_PY_ATTEMPTS
    assert fake.posted(CHANNEL) == []


async def test_a_503_is_not_retried_on_top_of_discord_py(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    """discord.py does not retry 503 (only 500/502/504/524): neither does the bot."""
    fake.fail("POST", POSTS, Status(503))
    with pytest.raises(discord.DiscordServerError):
        await notifier.post(CHANNEL, "Honours: North–South show three")
    assert fake.count("POST", POSTS) == 1


async def test_a_dropped_connection_never_duplicates_a_post(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    """Discord may have created the message before the connection dropped: a retry
    could post it twice, so the post is not retried (whatever the caller then does)."""
    fake.fail("POST", POSTS, Disconnect(processed=True))
    with pytest.raises(Exception):  # noqa: B017,PT011 - the transport error, whichever layer reports it
        await notifier.post(CHANNEL, "Deal 3: West deals")
    assert fake.count("POST", POSTS) == 1
    assert len(fake.posted(CHANNEL)) == 1


# ------------------------------------------------------------------ permanent: reported, not retried


async def test_closed_dms_are_reported_as_dm_closed(fake: FakeDiscord, notifier: Notifier) -> None:
    fake.fail("POST", r"/channels/\d+/messages", cannot_dm())
    with pytest.raises(DMClosed):
        await notifier.dm(USER, "Your hand")
    assert fake.count("POST", r"/channels/\d+/messages") == 1


async def test_an_edit_of_a_deleted_message_is_reported_as_gone(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    message = await notifier.post(CHANNEL, "Table #2")
    fake.fail("PATCH", EDITS, unknown_message())
    with pytest.raises(MessageGone):
        await notifier.edit(CHANNEL, message.id, "Table #2 — South to play", None)
    assert fake.count("PATCH", EDITS) == 1


# ------------------------------------------------------------------ scheduled (coalesced) edits


async def test_a_burst_of_scheduled_edits_through_a_429_shows_the_latest_once(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    message = await notifier.post(CHANNEL, "Trick 1")
    fake.fail("PATCH", EDITS, RateLimit(0.05))
    for trick in (2, 3, 4):
        notifier.schedule_edit(CHANNEL, message.id, functools.partial(rendering, f"Trick {trick}"))
    await asyncio.wait_for(notifier.flush(), 10)
    assert fake.messages[message.id]["content"] == "Trick 4"
    assert fake.messages[message.id]["edits"] == 1  # the burst cost one edit
    assert fake.count("PATCH", EDITS) == 2  # the 429 and discord.py's retry


async def test_a_scheduled_edit_of_a_deleted_message_calls_on_gone_once(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    message = await notifier.post(CHANNEL, "Table #3")
    fake.fail("PATCH", EDITS, unknown_message())
    gone: list[int] = []

    async def on_gone() -> None:
        gone.append(message.id)

    notifier.schedule_edit(CHANNEL, message.id, lambda: ("Table #3 — West to play", None), on_gone)
    await asyncio.wait_for(notifier.flush(), 10)
    assert gone == [message.id]
    assert fake.count("PATCH", EDITS) == 1


async def test_a_slow_discord_answer_for_one_table_does_not_hold_up_another(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    slow = await notifier.post(CHANNEL, "Table A")
    other = await notifier.post(OTHER_CHANNEL, "Table B")
    fake.fail("PATCH", EDITS, Hang(1.0))
    notifier.schedule_edit(CHANNEL, slow.id, lambda: ("Table A — moved", None))
    await asyncio.sleep(0.1)  # table A's edit is now waiting on Discord
    notifier.schedule_edit(OTHER_CHANNEL, other.id, lambda: ("Table B — moved", None))
    for _ in range(50):  # table B's edit lands while A's is still hanging
        if fake.messages[other.id]["content"] == "Table B — moved":
            break
        await asyncio.sleep(0.01)
    assert fake.messages[other.id]["content"] == "Table B — moved"
    assert fake.messages[slow.id]["content"] == "Table A"
    await asyncio.wait_for(notifier.flush(), 10)
    assert fake.messages[slow.id]["content"] == "Table A — moved"
    assert fake.count("PATCH", EDITS) == 1  # a slow answer is not a failure: no retry


# ------------------------------------------------------------------ no answer at all


async def test_a_hung_post_is_given_up_once_and_never_repeated(
    fake: FakeDiscord, notifier: Notifier, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py has no request timeout of its own (aiohttp waits five minutes): the
    notifier gives a call CALL_TIMEOUT, then reports it undelivered, without a retry
    that could post the message twice."""
    monkeypatch.setattr(notify, "CALL_TIMEOUT", 0.3)
    fake.fail("POST", POSTS, Hang(5.0))
    started = asyncio.get_running_loop().time()
    with pytest.raises(Unreachable) as raised:
        await notifier.post(CHANNEL, "South wins the trick")
    assert asyncio.get_running_loop().time() - started < 2.0
    assert isinstance(raised.value, discord.HTTPException) and raised.value.status == 0
    assert fake.count("POST", POSTS) == 1


async def test_a_dropped_connection_during_an_edit_still_ends_on_the_latest_state(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    """A transport error is not an HTTP error: it used to kill the table's editor, leaving
    the message stale with the change lost. Now the message still comes to show it."""
    message = await notifier.post(CHANNEL, "Trick 5")
    fake.fail("PATCH", EDITS, Disconnect())
    notifier.schedule_edit(
        CHANNEL, message.id, functools.partial(rendering, "Trick 6 — West to play")
    )
    await asyncio.wait_for(notifier.flush(), 10)
    assert fake.messages[message.id]["content"] == "Trick 6 — West to play"
    assert fake.count("PATCH", EDITS) == 2


async def test_an_edit_discord_py_gives_up_on_is_rendered_again_without_a_new_change(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    """A hand DM on its owner's turn may see no further change: after a 503 (which
    discord.py does not retry) the latest state is rendered again after a pause."""
    message = await notifier.post(CHANNEL, "Your hand")
    fake.fail("PATCH", EDITS, Status(503))
    notifier.schedule_edit(
        CHANNEL, message.id, functools.partial(rendering, "Your hand — your turn")
    )
    await asyncio.wait_for(notifier.flush(), 10)
    assert fake.messages[message.id]["content"] == "Your hand — your turn"
    assert fake.messages[message.id]["edits"] == 1


async def test_a_newer_change_ends_the_pause_after_a_failed_edit(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    message = await notifier.post(CHANNEL, "Trick 1")
    fake.fail("PATCH", EDITS, Status(503))
    notifier.schedule_edit(CHANNEL, message.id, functools.partial(rendering, "Trick 2"))
    for _ in range(100):
        if fake.count("PATCH", EDITS) == 1:
            break
        await asyncio.sleep(0.01)
    started = asyncio.get_running_loop().time()
    notifier.schedule_edit(CHANNEL, message.id, functools.partial(rendering, "Trick 3"))
    await asyncio.wait_for(notifier.flush(), 10)
    assert asyncio.get_running_loop().time() - started < notify.EDIT_BACKOFF
    assert fake.messages[message.id]["content"] == "Trick 3"


async def test_a_sent_view_is_emptied_and_its_buttons_reach_discord(
    fake: FakeDiscord, notifier: Notifier
) -> None:
    """A view is emptied once Discord has it, sent or refused (a spent view and its
    buttons hold each other, garbage only the loop-stopping cyclic collector
    frees); the message still carries every button."""
    from bot.present.components import RHButton

    def view(*ids: str) -> discord.ui.View:
        v = discord.ui.View(timeout=None)
        for custom_id in ids:
            v.add_item(RHButton(custom_id, custom_id))
        return v

    posted = view("rh:p:1:0:1", "rh:p:1:0:2")
    message = await notifier.post(CHANNEL, "Table", posted)
    edited = view("rh:p:1:0:3")
    await notifier.edit(CHANNEL, message.id, "Table — moved", edited)
    assert posted.children == [] and edited.children == []
    sent = [
        button["custom_id"]
        for row in fake.messages[message.id]["components"]
        for button in row["components"]
    ]
    assert sent == ["rh:p:1:0:3"]
    fake.fail("PATCH", EDITS, Status(403))
    refused = view("rh:p:1:0:4")
    with pytest.raises(MessageGone):
        await notifier.edit(CHANNEL, message.id, "Table — again", refused)
    assert refused.children == []
