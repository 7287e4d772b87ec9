"""A table's lock covers the engine and the database only, never a Discord call.

discord.py's own retries can keep one call busy for many seconds; if the table
lock were held meanwhile, that table's AI, timers and other players' clicks
would all wait behind it. Each test records, at the moment the bot answers an
interaction (the HTTP call itself, under discord.py's webhook code), whether
the table's lock is held.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from simcord.http.client import FakeWebhookAdapter

from .helpers import table_message

pytestmark = pytest.mark.slow  # left out by `make test-fast`

Answers = list[tuple[str, bool]]


@pytest.fixture
def answers(env: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Answers]:
    """(route, was any table's lock held) for every interaction answer the bot sends."""
    seen: Answers = []
    real = FakeWebhookAdapter.request

    async def request(self: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
        if "/interactions/" in route.url:
            tables = env.bot.manager.tables.values()
            seen.append((route.url.rsplit("/", 1)[-1], any(t.lock.locked() for t in tables)))
        return await real(self, route, *args, **kwargs)

    monkeypatch.setattr(FakeWebhookAdapter, "request", request)
    yield seen


def held(answers: Answers) -> list[str]:
    return [route for route, locked in answers if locked]


@pytest.mark.parametrize("bot_settings", [{"seed": 3}], indirect=True)
async def test_lobby_start_and_cancel_answer_without_the_table_lock(
    env: Any, answers: Answers
) -> None:
    guild = env.create_guild(name="Locks")
    channel = guild.create_text_channel("ruff")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    await alice.slash(channel, "ruff new")
    assert (await bob.click(table_message(channel), label="Join")).acknowledged
    # refusals too: carol is not seated, bob joins twice
    assert (await bob.click(table_message(channel), label="Join")).ephemeral
    assert (await alice.click(table_message(channel), label="Add AI (easy)")).acknowledged
    assert (await carol.click(table_message(channel), label="Start")).ephemeral
    assert (await alice.click(table_message(channel), label="Start")).acknowledged
    assert (await alice.slash(channel, "ruff cancel")).acknowledged
    assert len(answers) >= 6
    assert held(answers) == [], f"answered while holding the table lock: {held(answers)}"
