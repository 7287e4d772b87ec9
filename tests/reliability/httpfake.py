"""A fake Discord REST API on 127.0.0.1, with faults, for discord.py's real HTTP client.

The simulator (simcord) replaces discord.py's HTTP client, so its retry path
(``discord.http.HTTPClient.request``: 429 with ``retry_after``, 500/502/504
retried with backoff, the global rate limit) never runs in those tests. Here
the real client talks HTTP to a local aiohttp server instead::

    async with FakeDiscord() as fake, fake.client() as client:
        fake.fail("POST", "/channels/1/messages", RateLimit(0.05), Status(500))
        await client.get_partial_messageable(1).send("hi")
        assert fake.count("POST", "/channels/1/messages") == 3

Faults are queued per route (method + path regex) and consumed in order, one
per request; a request with no fault pending is answered normally. Every
request is recorded (``fake.requests``), so tests can count attempts and
check that a message was created exactly once. Loopback only.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.parser import BytesParser
from email.policy import default as email_policy
from typing import Any

import discord
import discord.http
from aiohttp import web

__all__ = [
    "BOT_ID",
    "Disconnect",
    "Error",
    "Fault",
    "FakeDiscord",
    "Hang",
    "RateLimit",
    "Recorded",
    "Status",
    "Upload",
    "cannot_dm",
    "unknown_message",
]

BOT_ID = 900_000_000_000_000_001
_BUCKET_LIMIT = 5


@dataclass(frozen=True)
class RateLimit:
    """429 with ``retry_after`` seconds (per route, or the global limit)."""

    retry_after: float = 0.05
    is_global: bool = False


@dataclass(frozen=True)
class Status:
    """A bare server error: 500, 502, 503, 504..."""

    status: int


@dataclass(frozen=True)
class Error:
    """A Discord JSON error: HTTP ``status`` with a Discord ``code``."""

    status: int
    code: int
    message: str


@dataclass(frozen=True)
class Hang:
    """Hold the request ``seconds``, then answer it normally (a slow Discord)."""

    seconds: float


@dataclass(frozen=True)
class Disconnect:
    """Close the connection without answering (the request may have been processed)."""

    processed: bool = False  # True: the message is created before the connection drops


Fault = RateLimit | Status | Error | Hang | Disconnect


def cannot_dm() -> Error:
    return Error(403, 50007, "Cannot send messages to this user")


def unknown_message() -> Error:
    return Error(404, 10008, "Unknown Message")


@dataclass
class Recorded:
    method: str
    path: str  # without the /api/v10 prefix
    body: dict[str, Any] | None
    answer: int  # HTTP status answered (0: connection dropped)


@dataclass(frozen=True)
class Upload:
    """A file sent with a post or an edit (multipart ``files[n]``), as the fake keeps it."""

    filename: str
    data: bytes
    description: str | None


@dataclass
class _Plan:
    method: str
    pattern: re.Pattern[str]
    faults: list[Fault] = field(default_factory=list)


class FakeDiscord:
    """The REST endpoints the notifier uses: login, channel posts, DMs, message edits."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.messages: dict[int, dict[str, Any]] = {}  # message id -> the message as created/edited
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.uploads: dict[int, Upload] = {}  # attachment id -> the file uploaded
        self._plans: list[_Plan] = []
        self._ids = itertools.count(1_000_000_000_000_000_000)
        self._runner: web.AppRunner | None = None
        self.base = ""

    # ------------------------------------------------------------ test API

    def fail(self, method: str, path: str, *faults: Fault) -> None:
        """Answer the next requests matching ``method`` and ``path`` (a regex) with ``faults``."""
        self._plans.append(_Plan(method.upper(), re.compile(path + "$"), list(faults)))

    def pending(self) -> int:
        """Faults not yet consumed."""
        return sum(len(p.faults) for p in self._plans)

    def count(self, method: str, path: str) -> int:
        """Requests received for ``method`` and ``path`` (a regex), every attempt counted."""
        pattern = re.compile(path + "$")
        return sum(1 for r in self.requests if r.method == method.upper() and pattern.match(r.path))

    def posted(self, channel_id: int) -> list[dict[str, Any]]:
        """The messages that exist in a channel (created once each)."""
        return [m for m in self.messages.values() if int(m["channel_id"]) == channel_id]

    @asynccontextmanager
    async def client(self) -> AsyncIterator[discord.Client]:
        """A real ``discord.Client`` logged in (REST only, no gateway) to this fake."""
        saved = discord.http.Route.BASE
        discord.http.Route.BASE = self.base
        client = discord.Client(intents=discord.Intents.none())
        try:
            await client.login("fake.bot.token")
            yield client
        finally:
            await client.close()
            discord.http.Route.BASE = saved

    # ------------------------------------------------------------ server

    async def __aenter__(self) -> FakeDiscord:
        app = web.Application()
        app.router.add_route("*", "/api/v10/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base = f"http://127.0.0.1:{port}/api/v10"
        return self

    async def __aexit__(self, *_: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def _next_fault(self, method: str, path: str) -> Fault | None:
        for plan in self._plans:
            if plan.faults and plan.method == method and plan.pattern.match(path):
                return plan.faults.pop(0)
        return None

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        raw = await request.read()
        body = json.loads(raw) if raw and request.content_type == "application/json" else None
        files: list[tuple[str, bytes]] = []
        if raw and request.content_type == "multipart/form-data":
            body, files = _multipart(request.headers["Content-Type"], raw)
            assert body is not None
            body["_files"] = files
        record = Recorded(request.method, path, body, 200)
        self.requests.append(record)
        fault = self._next_fault(request.method, path)
        if isinstance(fault, Hang):
            await asyncio.sleep(fault.seconds)
            fault = None
        if isinstance(fault, Disconnect):
            record.answer = 0
            if fault.processed:
                self._answer(request.method, path, body)
            assert request.transport is not None
            request.transport.close()
            return web.Response(status=500)  # never reaches the client: the socket is closed
        if isinstance(fault, RateLimit):
            record.answer = 429
            scope = "global" if fault.is_global else "user"
            headers = {
                "Via": "1.1 google",
                "Retry-After": str(max(1, round(fault.retry_after))),
                "X-RateLimit-Scope": scope,
            }
            if fault.is_global:
                headers["X-RateLimit-Global"] = "true"
            else:
                headers |= self._bucket_headers(
                    request.method, path, remaining=0, reset_after=fault.retry_after
                )
            payload = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": fault.is_global,
            }
            return _json(payload, status=429, headers=headers)
        if isinstance(fault, Status):
            record.answer = fault.status
            return web.Response(
                status=fault.status,
                text=f"{fault.status} upstream error",
                content_type="text/plain",
            )
        if isinstance(fault, Error):
            record.answer = fault.status
            return _json({"message": fault.message, "code": fault.code}, status=fault.status)
        data = self._answer(request.method, path, body)
        if data is None:
            record.answer = 404
            return _json({"message": "404: Not Found", "code": 0}, status=404)
        headers = self._bucket_headers(
            request.method, path, remaining=_BUCKET_LIMIT - 1, reset_after=0.01
        )
        return _json(data, headers=headers)

    @staticmethod
    def _bucket_headers(
        method: str, path: str, *, remaining: int, reset_after: float
    ) -> dict[str, str]:
        route = re.sub(r"/messages/\d+", "/messages/{id}", path)
        reset = datetime.now(UTC).timestamp() + reset_after
        return {
            "X-RateLimit-Limit": str(_BUCKET_LIMIT),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{reset:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"bucket-{abs(hash((method, route))) % 10**8:08d}",
        }

    # ------------------------------------------------------------ the endpoints

    def _attachments(self, old: list[dict[str, Any]], body: dict[str, Any]) -> list[dict[str, Any]]:
        """A message's attachments after a post or edit: kept old ones, then new uploads."""
        kept = {a["id"]: a for a in old}
        files = dict(body.get("_files", []))
        out: list[dict[str, Any]] = []
        for item in body.get("attachments", []):
            if str(item["id"]) in kept:
                out.append(kept[str(item["id"])])
                continue
            data = files[f"files[{item['id']}]"]
            attachment_id = next(self._ids)
            self.uploads[attachment_id] = Upload(item["filename"], data, item.get("description"))
            out.append(
                {
                    "id": str(attachment_id),
                    "filename": item["filename"],
                    "description": item.get("description"),
                    "size": len(data),
                    "url": f"https://cdn.invalid/{attachment_id}/{item['filename']}",
                    "proxy_url": f"https://media.invalid/{attachment_id}/{item['filename']}",
                    "content_type": "image/png",
                }
            )
        return out

    def _answer(self, method: str, path: str, body: dict[str, Any] | None) -> dict[str, Any] | None:
        if method == "GET" and path == "/users/@me":
            return _user(BOT_ID, "RuffBot", bot=True)
        if method == "GET" and path == "/oauth2/applications/@me":
            return {
                "id": str(BOT_ID),
                "name": "RuffBot",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": _user(1, "owner"),
                "verify_key": "0" * 64,
                "flags": 0,
            }
        if method == "POST" and path == "/users/@me/channels":
            user_id = int((body or {})["recipient_id"])
            channel_id = self.dm_channels.setdefault(user_id, next(self._ids))
            return {
                "id": str(channel_id),
                "type": 1,
                "recipients": [_user(user_id, f"user{user_id}")],
                "last_message_id": None,
            }
        m = re.fullmatch(r"/channels/(\d+)/messages", path)
        if method == "POST" and m:
            message_id = next(self._ids)
            message = _message(message_id, int(m.group(1)), body or {})
            message["attachments"] = self._attachments([], body or {})
            self.messages[message_id] = message
            return message
        m = re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path)
        if method == "PATCH" and m:
            edited = self.messages.get(int(m.group(2)))
            if edited is None:
                return None
            for key in ("content", "components", "embeds"):
                if body is not None and key in body:
                    edited[key] = body[key]
            if body is not None and "attachments" in body:
                # the attachments listed are all the message keeps: old ones by id, new uploads
                edited["attachments"] = self._attachments(edited["attachments"], body)
            edited["edited_timestamp"] = datetime.now(UTC).isoformat()
            edited["edits"] = edited.get("edits", 0) + 1
            return edited
        return None


def _multipart(
    content_type: str, raw: bytes
) -> tuple[dict[str, Any] | None, list[tuple[str, bytes]]]:
    """``payload_json`` and the ``files[n]`` parts of a multipart/form-data body."""
    message = BytesParser(policy=email_policy).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + raw
    )
    body: dict[str, Any] | None = None
    files: list[tuple[str, bytes]] = []
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        data = part.get_payload(decode=True)
        assert isinstance(data, bytes)
        if name == "payload_json":
            body = json.loads(data)
        else:
            files.append((str(name), data))
    return body, files


def _json(
    data: dict[str, Any], *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON the way Discord sends it (discord.py parses only an exact ``application/json``)."""
    headers = {**(headers or {}), "Content-Type": "application/json"}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=headers)


def _user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": None,
        "bot": bot,
    }


def _message(message_id: int, channel_id: int, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": _user(BOT_ID, "RuffBot", bot=True),
        "content": body.get("content", ""),
        "timestamp": datetime.now(UTC).isoformat(),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": body.get("embeds", []),
        "components": body.get("components", []),
        "pinned": False,
        "type": 0,
        "flags": 0,
    }
