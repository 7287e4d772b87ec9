"""Short signed sessions for the web table.

A session says who a page's player is and which channel the Activity was
launched in, as the server found out at sign-in (never as the page claims it).
It is ``<payload>.<signature>``: the payload URL-safe base64 JSON, the
signature HMAC-SHA256 of it under a key only this bot holds. It carries its own
expiry, so nothing is stored; a page whose session ran out signs in again.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Session", "SessionError", "Signer"]


class SessionError(Exception):
    """A session that is malformed, forged or expired; ``code`` says which."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code  # "bad_session" or "session_expired"


@dataclass(frozen=True, slots=True)
class Session:
    user_id: int
    name: str
    channel_id: int
    expires_at: float  # epoch seconds


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Issues and checks sessions under one key (a fresh random key if none is given)."""

    def __init__(self, key: str, ttl: float, clock: Callable[[], float] = time.time) -> None:
        self._key = key.encode() if key else secrets.token_bytes(32)
        self.ttl = ttl
        self._clock = clock

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode("ascii"), hashlib.sha256).digest())

    def issue(self, user_id: int, name: str, channel_id: int) -> tuple[str, Session]:
        session = Session(user_id, name[:64], channel_id, self._clock() + self.ttl)
        body = {
            "u": str(session.user_id),
            "n": session.name,
            "c": str(session.channel_id),
            "e": round(session.expires_at, 3),
        }
        payload = _b64(json.dumps(body, separators=(",", ":")).encode())
        return f"{payload}.{self._sign(payload)}", session

    def check(self, token: object) -> Session:
        """The session ``token`` stands for; raises :class:`SessionError`."""
        if not isinstance(token, str) or len(token) > 1024 or token.count(".") != 1:
            raise SessionError("bad_session")
        payload, signature = token.split(".")
        try:
            good = hmac.compare_digest(self._sign(payload), signature)
        except (UnicodeEncodeError, TypeError):
            good = False
        if not good:
            raise SessionError("bad_session")
        try:
            body = json.loads(_unb64(payload))
            session = Session(int(body["u"]), str(body["n"]), int(body["c"]), float(body["e"]))
        except (binascii.Error, ValueError, KeyError, TypeError):
            raise SessionError("bad_session") from None
        if session.expires_at <= self._clock():
            raise SessionError("session_expired")
        return session
