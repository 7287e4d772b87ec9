"""Who a page's player is and where the Activity runs, found out by the server.

Inside Discord the page gets an OAuth2 ``code`` from the Embedded App SDK's
``authorize`` and the Activity's ``instance_id``; it posts both to
``/api/token``. The server then

1. exchanges the code for an access token (the client secret never leaves it),
2. asks Discord who that token belongs to (``GET /users/@me``),
3. asks Discord, with the bot's token, where that Activity instance runs and who
   is in it (``GET /applications/{id}/activity-instances/{instance}``): the
   channel comes from there, and the user must be one of its participants.

Offline (``RH_WEB_MOCK_AUTH``, the demo only) the page's ``user_id`` and
``channel_id`` stand in for all three, as Discord's own playground mocks them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import aiohttp

__all__ = ["Identity", "SignInError", "sign_in"]

_SNOWFLAKE = re.compile(r"^[0-9]{1,20}$")
_CODE = re.compile(r"^[A-Za-z0-9_\-.~]{1,128}$")


class SignInError(Exception):
    """Sign-in refused; ``code`` for the page, ``status`` for the HTTP answer."""

    def __init__(self, code: str, status: int = 401) -> None:
        super().__init__(code)
        self.code = code
        self.status = status


@dataclass(frozen=True, slots=True)
class Identity:
    user_id: int
    name: str
    channel_id: int
    access_token: str  # for the SDK's authenticate; empty offline


def snowflake(value: object) -> int:
    """A Discord id from the page or from Discord (a string of digits)."""
    if isinstance(value, str) and _SNOWFLAKE.match(value):
        return int(value)
    raise SignInError("bad_request", 400)


async def sign_in(
    http: aiohttp.ClientSession,
    body: dict[str, Any],
    *,
    api: str,
    client_id: int | None,
    client_secret: str,
    bot_token: str,
) -> Identity:
    """The player and channel behind a sign-in request (see the module's steps)."""
    code, instance = body.get("code"), body.get("instance_id")
    if not isinstance(code, str) or not _CODE.match(code):
        raise SignInError("bad_request", 400)
    if not isinstance(instance, str) or not _CODE.match(instance):
        raise SignInError("bad_request", 400)
    if client_id is None or not client_secret or not bot_token:
        raise SignInError("not_configured", 503)
    token = await _json(
        http.post(
            f"{api}/oauth2/token",
            data={
                "client_id": str(client_id),
                "client_secret": client_secret,
                "grant_type": "authorization_code",
                "code": code,
            },
        )
    )
    access = token.get("access_token")
    if not isinstance(access, str) or not access:
        raise SignInError("oauth_refused")
    me = await _json(http.get(f"{api}/users/@me", headers={"Authorization": f"Bearer {access}"}))
    user_id = snowflake(str(me.get("id", "")))
    name = me.get("global_name") or me.get("username") or "player"
    where = await _json(
        http.get(
            f"{api}/applications/{client_id}/activity-instances/{instance}",
            headers={"Authorization": f"Bot {bot_token}"},
        )
    )
    location = where.get("location")
    users = where.get("users")
    if not isinstance(location, dict) or not isinstance(users, list):
        raise SignInError("no_instance", 403)
    if str(user_id) not in [str(u) for u in users]:
        raise SignInError("not_in_instance", 403)
    channel_id = snowflake(str(location.get("channel_id", "")))
    return Identity(user_id, str(name), channel_id, access)


def mock_identity(body: dict[str, Any]) -> Identity:
    """The offline demo's stand-in for Discord: the page names its user and channel."""
    user_id = snowflake(body.get("user_id"))
    channel_id = snowflake(body.get("channel_id"))
    name = body.get("name")
    return Identity(
        user_id, name if isinstance(name, str) and name else f"player {user_id}", channel_id, ""
    )


async def _json(request: Any) -> dict[str, Any]:
    """Discord's JSON answer, or a sign-in refusal if it refused or could not be reached."""
    try:
        async with request as response:
            if response.status >= 400:
                raise SignInError("discord_refused", 401 if response.status < 500 else 502)
            data = await response.json(content_type=None)
    except (aiohttp.ClientError, TimeoutError, ValueError):
        raise SignInError("discord_unreachable", 502) from None
    if not isinstance(data, dict):
        raise SignInError("discord_refused", 502)
    return data
