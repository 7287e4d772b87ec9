"""The web table's HTTP side: an ``aiohttp.web`` application on the bot's own loop.

========================  ====================================================
``GET /``                 the page (``static/index.html``)
``GET /app.js``, ``/app.css``  the bundle built from ``web/`` and its style
``GET /chunks/{name}.js``  the bundle's chunks (the Discord SDK's)
``GET /cards/{2|4}/{code}.svg``  a card face (:mod:`bot.web.cards`)
``POST /api/token``       sign-in (:mod:`bot.web.signin`): a session and, in
                          Discord, the access token for the SDK's authenticate
``GET /ws``               the table's socket (:class:`bot.web.front.Front`)
========================  ====================================================

The socket and the sign-in accept only the page's own origin, the Activity's
(``https://<client id>.discordsays.com``) and ``RH_WEB_ORIGINS``; every answer
carries a content security policy that allows nothing from elsewhere.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.config import Settings
from bot.present.i18n import language_of
from bot.tables.services import Services
from bot.web.cards import card_svg, is_card_code
from bot.web.front import Front, LobbyDoor
from bot.web.session import Signer
from bot.web.signin import Identity, SignInError, mock_identity, sign_in
from bot.web.texts import page_texts

log = logging.getLogger(__name__)

__all__ = ["STATIC", "WebTable"]

STATIC = Path(__file__).resolve().parent / "static"
CHUNK = re.compile(r"[A-Za-z0-9_-]+\.js")  # esbuild's chunk names: chunks/<name>-<hash>.js

_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self' ws: wss: https://discord.com; frame-ancestors https://discord.com "
    "https://*.discord.com https://*.discordsays.com 'self'"
)


class WebTable:
    """The web table's server: started and stopped with the bot (``bot/app``)."""

    def __init__(
        self,
        svc: Services,
        settings: Settings,
        door: LobbyDoor | None,
        *,
        bot_token: str = "",
    ) -> None:
        self.settings = settings
        self.bot_token = bot_token
        self.signer = Signer(settings.web_session_secret, settings.web_session_ttl)
        self.front = Front(svc, door, self.signer, rate=settings.web_rate)
        self.origins = {o.strip().rstrip("/") for o in settings.web_origins.split(",") if o.strip()}
        if settings.client_id is not None:
            self.origins.add(f"https://{settings.client_id}.discordsays.com")
        self._runner: web.AppRunner | None = None
        self._http: aiohttp.ClientSession | None = None
        self.port = 0

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers], client_max_size=16 * 1024)
        app.router.add_get("/", self._page)
        app.router.add_get("/app.js", self._static("app.js", "text/javascript"))
        app.router.add_get("/app.css", self._static("app.css", "text/css"))
        app.router.add_get("/chunks/{name}", self._chunk)
        app.router.add_get("/cards/{deck}/{code}.svg", self._card)
        app.router.add_get("/api/config", self._config)
        app.router.add_post("/api/token", self._token)
        app.router.add_get("/ws", self._socket)
        return app

    async def start(self) -> None:
        """Listen on ``RH_WEB_HOST``:``RH_WEB_PORT`` (port 0: any free one, see :attr:`port`)."""
        assert self.settings.web_port is not None
        self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.web_host, self.settings.web_port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        log.info("web table on http://%s:%d/", self.settings.web_host, self.port)

    async def close(self) -> None:
        self.front.stop()
        await self.front.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._http is not None:
            await self._http.close()
            self._http = None

    # ------------------------------------------------------------ checks

    @web.middleware
    async def _headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        if not response.prepared:
            response.headers["Content-Security-Policy"] = _CSP
            response.headers["X-Content-Type-Options"] = "nosniff"
            response.headers["Referrer-Policy"] = "no-referrer"
        return response

    def origin_ok(self, request: web.Request) -> bool:
        """The request comes from the page itself, the Activity or an allowed origin."""
        origin = request.headers.get("Origin")
        if origin is None:
            return False
        origin = origin.rstrip("/")
        own = f"{request.scheme}://{request.host}"
        forwarded = request.headers.get("X-Forwarded-Proto")
        return (
            origin == own
            or (forwarded is not None and origin == f"{forwarded}://{request.host}")
            or origin in self.origins
        )

    # ------------------------------------------------------------ routes

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(
            STATIC / "index.html", headers={"Content-Type": "text/html; charset=utf-8"}
        )

    def _static(self, name: str, kind: str) -> Any:
        async def serve(request: web.Request) -> web.StreamResponse:
            path = STATIC / name
            if not path.exists():
                raise web.HTTPNotFound(text=f"{name} is not built: run `make web`")
            return web.FileResponse(path, headers={"Content-Type": f"{kind}; charset=utf-8"})

        return serve

    async def _chunk(self, request: web.Request) -> web.StreamResponse:
        """A chunk of the bundle (the Discord SDK's, loaded inside Discord only); its
        name carries its content's hash, so it may be kept."""
        name = request.match_info["name"]
        path = STATIC / "chunks" / name
        if not CHUNK.fullmatch(name) or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(
            path,
            headers={
                "Content-Type": "text/javascript; charset=utf-8",
                "Cache-Control": "public, max-age=31536000, immutable",
            },
        )

    async def _card(self, request: web.Request) -> web.StreamResponse:
        deck, code = request.match_info["deck"], request.match_info["code"]
        if deck not in ("2", "4") or not is_card_code(code):
            raise web.HTTPNotFound()
        return web.Response(
            text=card_svg(code, deck == "4"),
            content_type="image/svg+xml",
            headers={"Cache-Control": "public, max-age=86400"},
        )

    async def _config(self, request: web.Request) -> web.StreamResponse:
        """What the page needs before signing in: the application's id (for the SDK),
        whether the offline mock is on, and its words in the browser's language."""
        client_id = self.settings.client_id
        language = language_of(request.query.get("lang", ""))
        return web.json_response(
            {
                "client_id": None if client_id is None else str(client_id),
                "mock": self.settings.web_mock_auth,
                "language": language,
                "texts": page_texts(language),  # the browser's, until the player's is known
            }
        )

    async def _token(self, request: web.Request) -> web.StreamResponse:
        if not self.origin_ok(request):
            return web.json_response({"error": "bad_origin"}, status=403)
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return web.json_response({"error": "bad_request"}, status=400)
        try:
            identity = await self._identify(body)
        except SignInError as exc:
            return web.json_response({"error": exc.code}, status=exc.status)
        session, found = self.signer.issue(identity.user_id, identity.name, identity.channel_id)
        return web.json_response(
            {
                "session": session,
                "expires_at": found.expires_at,
                "access_token": identity.access_token,
                "user_id": str(identity.user_id),
                "name": identity.name,
            }
        )

    async def _identify(self, body: dict[str, Any]) -> Identity:
        if body.get("mock"):
            if not self.settings.web_mock_auth:
                raise SignInError("mock_off", 403)
            return mock_identity(body)
        assert self._http is not None
        return await sign_in(
            self._http,
            body,
            api=self.settings.web_discord_api.rstrip("/"),
            client_id=self.settings.client_id,
            client_secret=self.settings.client_secret,
            bot_token=self.bot_token,
        )

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if not self.origin_ok(request):
            raise web.HTTPForbidden(text="origin not allowed")
        return await self.front.serve(request)
