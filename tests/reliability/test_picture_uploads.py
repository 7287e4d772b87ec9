"""The table picture through the notifier, at the HTTP level under discord.py's real client.

A post carries the PNG as a multipart upload with its alt text; an edit with a
new picture replaces the message's image (never adds a second); an edit
without one leaves it, ``picture=None`` removes it. Coalesced edits whose
renderings are coroutines (the picture drawn off the loop) still cost one edit
for a burst and end on the latest picture; a 429 on an upload is retried by
discord.py with the whole file sent again. Fake Discord: ``httpfake.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.present.notify import Notifier
from bot.present.picture import Picture, PictureCache, table_picture
from tools.bench_picture import Form, play, table_info

from .httpfake import FakeDiscord, RateLimit

pytestmark = pytest.mark.slow  # left out by `make test-fast`

CHANNEL = 111
POSTS = rf"/channels/{CHANNEL}/messages"
EDITS = rf"/channels/{CHANNEL}/messages/\d+"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server


@pytest.fixture
async def notifier(fake: FakeDiscord) -> AsyncIterator[Notifier]:
    async with fake.client() as client:
        notifier = Notifier(client, min_interval=0.0)
        yield notifier
        notifier.cancel_all()


@pytest.fixture(scope="module")
def pictures() -> list[Picture]:
    """Pictures of five successive states of a seeded game."""
    states = list(play(Form("whist-5"), seed=1, max_deals=1))[10:15]
    info = table_info(states[0][0])
    return [table_picture(info, view) for _, view in states]


def _image(fake: FakeDiscord, message_id: int) -> list[tuple[str, bytes, str | None]]:
    out = []
    for attachment in fake.messages[message_id]["attachments"]:
        upload = fake.uploads[int(attachment["id"])]
        out.append((upload.filename, upload.data, upload.description))
    return out


async def test_a_post_carries_the_png_and_its_alt_text(
    fake: FakeDiscord, notifier: Notifier, pictures: list[Picture]
) -> None:
    message = await notifier.post(CHANNEL, "Table #1", None, pictures[0])
    assert _image(fake, message.id) == [("table.png", pictures[0].png, pictures[0].description)]
    assert [a.filename for a in message.attachments] == ["table.png"]
    assert message.attachments[0].description == pictures[0].description


async def test_an_edit_replaces_the_image_keeps_it_or_removes_it(
    fake: FakeDiscord, notifier: Notifier, pictures: list[Picture]
) -> None:
    message = await notifier.post(CHANNEL, "Table #1", None, pictures[0])
    await notifier.edit(CHANNEL, message.id, "Table #1 — East to play", None, pictures[1])
    assert _image(fake, message.id) == [("table.png", pictures[1].png, pictures[1].description)]
    await notifier.edit(CHANNEL, message.id, "Table #1 — a note", None)  # KEEP by default
    assert _image(fake, message.id) == [("table.png", pictures[1].png, pictures[1].description)]
    assert "attachments" not in (fake.requests[-1].body or {})
    await notifier.edit(CHANNEL, message.id, "Table #1 — cancelled", None, None)
    assert fake.messages[message.id]["attachments"] == []
    assert fake.messages[message.id]["content"] == "Table #1 — cancelled"


async def test_a_burst_of_edits_drawn_off_the_loop_shows_the_latest_picture_once(
    fake: FakeDiscord, pictures: list[Picture]
) -> None:
    async with fake.client() as client:
        notifier = Notifier(client, min_interval=0.2)
        message = await notifier.post(CHANNEL, "state 0", None, pictures[0])
        states = list(play(Form("whist-5"), seed=1, max_deals=1))[10:15]
        info = table_info(states[0][0])
        cache = PictureCache()
        drawn: list[int] = []

        for i, (_, view) in enumerate(states):

            async def make(i: int = i, view: object = view) -> tuple[str, None, Picture]:
                drawn.append(i)
                picture = await cache.get(info, view)  # type: ignore[arg-type]
                return f"state {i}", None, picture

            notifier.schedule_edit(CHANNEL, message.id, make)
            await asyncio.sleep(0)
        await notifier.flush()
        notifier.cancel_all()
    # the first render went out at once; the rest coalesced into one edit with the last state
    assert fake.count("PATCH", EDITS) == 2
    assert drawn == [0, 4]
    stored = fake.messages[message.id]
    assert stored["content"] == "state 4"
    assert _image(fake, message.id) == [("table.png", pictures[4].png, pictures[4].description)]


async def test_the_same_text_and_picture_are_not_sent_twice(
    fake: FakeDiscord, pictures: list[Picture]
) -> None:
    async with fake.client() as client:
        notifier = Notifier(client, min_interval=0.2)
        message = await notifier.post(CHANNEL, "Table #1")
        for _ in range(2):
            notifier.schedule_edit(CHANNEL, message.id, lambda: ("Table #1", None, pictures[2]))
            await notifier.flush()
        assert fake.count("PATCH", EDITS) == 1
        # a new picture with the same text is an edit
        notifier.schedule_edit(CHANNEL, message.id, lambda: ("Table #1", None, pictures[3]))
        await notifier.flush()
        assert fake.count("PATCH", EDITS) == 2
        assert _image(fake, message.id)[0][1] == pictures[3].png
        notifier.cancel_all()


async def test_an_upload_rate_limited_once_is_sent_again_whole(
    fake: FakeDiscord, notifier: Notifier, pictures: list[Picture]
) -> None:
    message = await notifier.post(CHANNEL, "Table #1", None, pictures[0])
    fake.fail("PATCH", EDITS, RateLimit(0.05))
    notifier.schedule_edit(CHANNEL, message.id, lambda: ("Table #1 — next", None, pictures[1]))
    await notifier.flush()
    assert fake.count("PATCH", EDITS) == 2  # the 429 and discord.py's retry
    assert _image(fake, message.id) == [("table.png", pictures[1].png, pictures[1].description)]
    assert len(fake.uploads) == 2  # the first post's image and the edit's: no duplicate
