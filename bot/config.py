"""Settings from the environment (and a ``.env`` file if present), with pydantic-settings.

Every field below is read from ``RH_<FIELD NAME>`` (the token from ``DISCORD_TOKEN``),
written once here with its default, and listed in ``.env.example`` with that default
and its meaning (``tests/test_settings.py`` keeps the three in step).

``Settings(...)`` is exactly what it is given plus the defaults (tests and tools build
their own); :meth:`Settings.from_env` adds the environment and the ``.env`` file, the
real environment winning. Change a setting with ``settings.model_copy(update={...})``.

The token is held in a :class:`Secret` so it never appears in a repr or a log line.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AliasChoices, BeforeValidator, Field, ValidationError
from pydantic_core import core_schema
from pydantic_settings import BaseSettings, NoDecode, PydanticBaseSettingsSource, SettingsConfigDict

__all__ = ["ENV_PREFIX", "Secret", "Settings", "SettingsError", "env_name"]

ENV_PREFIX = "RH_"


class Secret(str):
    """A string that hides itself in ``repr``/``str``-formatting of containers."""

    def __repr__(self) -> str:
        return "Secret('***')" if self else "Secret('')"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(
            cls, core_schema.str_schema(strip_whitespace=True)
        )


class SettingsError(SystemExit):
    """A bad value in the environment: one line naming the variable.

    A SystemExit, so a tool that does not catch it still stops with that line;
    ``python -m bot`` prints it and exits with status 2.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _shards(value: Any) -> Any:
    if isinstance(value, str):
        from bot.sharding import parse_shards  # bot.sharding imports this module

        return parse_shards(value)
    return value


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _upper(value: Any) -> Any:
    return value.strip().upper() if isinstance(value, str) else value


class Settings(BaseSettings):
    """Everything the bot can be configured with. See ``.env.example``."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_ignore_empty=True,  # RH_X= (as in .env.example) means the default
        frozen=True,
        extra="forbid",
        populate_by_name=True,
        str_strip_whitespace=True,
    )

    token: Secret = Field(
        default=Secret(""),
        validation_alias=AliasChoices("DISCORD_TOKEN", "token"),
        description="the bot token from the Discord developer portal (required to connect)",
    )
    database: str = Field(
        default="data/ruff.db",
        description="a SQLite file (its folder is created) or a postgresql:// URL",
    )
    dev_guild_id: int | None = Field(
        default=None,
        description="a server id to sync slash commands to at once (global sync can take an hour)",
    )
    log_level: Annotated[
        Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"], BeforeValidator(_upper)
    ] = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR")
    ai_delay: float = Field(
        default=1.0, description="seconds an AI seat waits before each move, so humans can follow"
    )
    turn_timeout: float = Field(
        default=90.0,
        description="seconds a human has to act before the AI plays that turn (0: never)",
    )
    auto_play_delay: float = Field(
        default=1.5,
        description="seconds a player who chose auto-play sees their only legal card before it is played",
    )
    card_emojis: bool = Field(
        default=True,
        description="mark the card buttons with the bot's suit emojis (uploaded once at start-up)",
    )
    turn_ping_delay: float = Field(
        default=10.0,
        description="seconds into a human's turn before they are pinged, if they have not moved (0: at once, <0: never)",
    )
    lobby_timeout: float = Field(
        default=1800.0,
        description="seconds before an unstarted table expires and frees its channel",
    )
    ended_kept: float = Field(
        default=120.0,
        gt=0,
        description="seconds a finished or cancelled table stays in memory (late clicks, last edits)",
    )
    challenge_check_every: float = Field(
        default=300.0,
        gt=0,
        description="seconds between two sweeps that settle the challenges past their deadline",
    )
    event_sweep_every: float = Field(
        default=300.0,
        gt=0,
        description="seconds between two looks for asynchronous events whose close no timer here waits for (made by another process), and for registration messages a process that died posted and never kept; longer than the offline demo's settle (60 s)",
    )
    afk_takeover_after: int = Field(
        default=2,
        description="timed-out turns in a row after which the AI keeps a silent human's seat",
    )
    table_edit_interval: float = Field(
        default=1.0, description="the least seconds between two edits of one table message"
    )
    ai_mode: Annotated[Literal["process", "thread", "inline"], BeforeValidator(_lower)] = Field(
        default="process",
        description="where AI searches run: process (clicks never wait behind a search), thread or inline (tests)",
    )
    ai_workers: int | None = Field(
        default=None, ge=1, description="AI worker processes (empty: CPUs - 1, at least 1)"
    )
    ai_worlds: int | None = Field(
        default=None,
        ge=1,
        description="bound AI searches by this many deals a decision instead of by time (reproducible)",
    )
    daily_worlds: int = Field(
        default=48,
        ge=1,
        description="deals the AI of /ruff daily searches a decision: a fixed size, so every player meets the same AI",
    )
    seed: int | None = Field(
        default=None, description="fixes the table seeds (tests, demo); empty: unpredictable"
    )
    pictures: bool = Field(
        default=True,
        description="attach a picture of the table, and a score chart at the end (on/off)",
    )
    painter_mode: Annotated[Literal["process", "thread"], BeforeValidator(_lower)] = Field(
        default="process",
        description="where pictures are drawn: process (with a process AI pool) or thread",
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode, BeforeValidator(_shards)] = Field(
        default=None,
        validation_alias=AliasChoices(f"{ENV_PREFIX}SHARDS", "shard_ids"),
        description="this process's gateway shards, e.g. 0-3 (empty: one process holding every shard)",
    )
    shard_count: int | None = Field(
        default=None, ge=1, description="the bot's total number of gateway shards (with RH_SHARDS)"
    )
    lease_seconds: float = Field(
        default=15.0,
        gt=0,
        description="on PostgreSQL: seconds a table's AI/timer lease lasts unrenewed (a dead process's tables move after it)",
    )
    process_name: str | None = Field(
        default=None,
        description="this process's stable name in the table leases (empty: from its shards, or main)",
    )

    pages_only: bool = Field(
        default=False,
        description="a process that only serves the web table (RH_WEB_PORT): no gateway shard, no table's AI or timers; needs PostgreSQL beside the game processes",
    )

    web_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="serve the web table (the Discord Activity) on this port (empty: off)",
    )
    web_host: str = Field(
        default="127.0.0.1",
        description="the address the web table listens on (behind a TLS proxy: keep 127.0.0.1)",
    )
    client_id: int | None = Field(
        default=None,
        description="the application's id (OAuth2 client id) for the web table's sign-in",
    )
    client_secret: Secret = Field(
        default=Secret(""),
        validation_alias=AliasChoices("DISCORD_CLIENT_SECRET", "client_secret"),
        description="the application's OAuth2 client secret (the web table's sign-in)",
    )
    web_session_secret: Secret = Field(
        default=Secret(""),
        description="the key that signs web table sessions (empty: a new one each start, so sessions end with the process)",
    )
    web_session_ttl: float = Field(
        default=1800.0,
        gt=0,
        description="seconds a web table session lasts before the page signs in again",
    )
    web_origins: str = Field(
        default="",
        description="other origins allowed to open the web table's socket, comma-separated (its own and https://<client id>.discordsays.com always are)",
    )
    web_discord_api: str = Field(
        default="https://discord.com/api/v10",
        description="Discord's HTTP API, for the web table's sign-in (tests point it at a fake)",
    )
    web_mock_auth: bool = Field(
        default=False,
        description="offline demo only: the page says who and where it is (?user_id=&channel_id=) — never in production",
    )
    web_rate: float = Field(
        default=8.0,
        gt=0,
        description="frames a second one web table connection may send (twice that in a burst)",
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Settings(...) is what it is given; from_env() reads through _FromEnvironment
        return (init_settings,)

    @classmethod
    def from_env(cls, env_file: str | None = ".env") -> Settings:
        """Read settings; values in the real environment win over the ``.env`` file.

        Raises :class:`SettingsError` (one line naming the variable) for a bad value.
        """
        try:
            read = _FromEnvironment(_env_file=env_file)  # type: ignore[call-arg]
        except ValidationError as exc:
            raise SettingsError(_one_line(exc)) from None
        return cls.model_validate(dict(read))


def env_name(field: str) -> str:
    """The environment variable a :class:`Settings` field is read from."""
    alias = Settings.model_fields[field].validation_alias
    if isinstance(alias, AliasChoices):
        return str(alias.choices[0])
    return ENV_PREFIX + field.upper()


def _one_line(exc: ValidationError) -> str:
    problems = []
    for error in exc.errors():
        where = error["loc"][0] if error["loc"] else ""
        name = where if str(where).isupper() else env_name(str(where))
        message = error["msg"].removeprefix("Value error, ")
        got = repr(error["input"])
        problems.append(f"{name}: {message}" if got in message else f"{name}: {message}, got {got}")
    return "; ".join(problems)


class _FromEnvironment(Settings):
    """Settings read from the environment and the ``.env`` file (see ``Settings.from_env``)."""

    model_config = SettingsConfigDict(extra="ignore")  # a .env may hold other things

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, dotenv_settings)
