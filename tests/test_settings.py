"""Settings: every field is read from the environment and listed in ``.env.example``
with its default; a bad value is one line naming the variable (exit 2 from ``python -m bot``)."""

from __future__ import annotations

import re
import types
import typing
from pathlib import Path
from typing import Any

import pytest

from bot import __main__ as entry
from bot.config import Settings, SettingsError, env_name

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / ".env.example"


def _example() -> dict[str, tuple[str, str]]:
    """``.env.example`` as {variable: (value, the comment above it)}."""
    entries: dict[str, tuple[str, str]] = {}
    comment: list[str] = []
    for line in EXAMPLE.read_text().splitlines():
        if line.startswith("#"):
            comment.append(line.lstrip("# "))
        elif match := re.fullmatch(r"([A-Z_]+)=(.*)", line):
            entries[match[1]] = (match[2], " ".join(comment))
            comment = []
    return entries


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for field in Settings.model_fields:
        monkeypatch.delenv(env_name(field), raising=False)
    return monkeypatch


def test_every_setting_is_in_env_example_with_a_meaning() -> None:
    listed = _example()
    names = {env_name(field) for field in Settings.model_fields}
    assert names - listed.keys() == set(), "settings missing from .env.example"
    assert listed.keys() - names == set(), ".env.example lists variables no setting reads"
    # variables listed together (RH_SHARD_COUNT, RH_SHARDS) share the comment above the first
    described = [name for name, (_, comment) in listed.items() if comment]
    assert len(described) >= len(listed) - 1


def test_env_example_gives_the_defaults(clean_env: pytest.MonkeyPatch) -> None:
    assert Settings.from_env(str(EXAMPLE)) == Settings()


def _other_value(field: str) -> tuple[str, Any]:
    """A value for ``field`` unlike its default: (as written in the environment, as read)."""
    info = Settings.model_fields[field]
    kind: Any = info.annotation
    while typing.get_origin(kind) is typing.Annotated:
        kind = typing.get_args(kind)[0]
    options = [a for a in typing.get_args(kind) if a is not type(None)]
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        kind = options[0]
        options = list(typing.get_args(kind))
    origin = typing.get_origin(kind)
    if origin is typing.Literal:
        other = next(option for option in typing.get_args(kind) if option != info.default)
        return str(other).upper(), other
    if origin is tuple:
        return "0-1,3", (0, 1, 3)
    if kind is bool:
        return ("off", False) if info.default else ("on", True)
    if kind is int:
        return "7", 7
    if kind is float:
        return "2.5", 2.5
    if kind is str or isinstance(kind, type) and issubclass(kind, str):
        return "  from-the-environment ", "from-the-environment"
    raise AssertionError(f"no test value for {field}: {kind!r}")


@pytest.mark.parametrize("field", list(Settings.model_fields))
def test_every_setting_is_read_from_the_environment(
    field: str, clean_env: pytest.MonkeyPatch
) -> None:
    written, read = _other_value(field)
    assert read != Settings.model_fields[field].default
    clean_env.setenv(env_name(field), written)
    assert getattr(Settings.from_env(None), field) == read
    assert getattr(Settings(), field) != read  # Settings(...) is only what it is given


def test_a_bad_value_is_one_line_naming_the_variable(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value, says in (
        ("RH_AI_DELAY", "soon", "number"),
        ("RH_PICTURES", "maybe", "boolean"),
        ("RH_AI_MODE", "gpu", "'process', 'thread' or 'inline'"),
        ("RH_SHARDS", "a-b", "ranges like 0-3"),
        ("RH_DEV_GUILD_ID", "my-server", "integer"),
    ):
        clean_env.setenv(name, value)
        with pytest.raises(SettingsError) as raised:
            Settings.from_env(None)
        message = raised.value.message
        assert message.startswith(f"{name}: ") and says in message and repr(value) in message
        assert "\n" not in message
        assert entry.main([]) == 2
        assert capsys.readouterr().err.strip() == message
        clean_env.delenv(name)


def test_a_change_is_a_copy() -> None:
    settings = Settings(seed=1)
    changed = settings.model_copy(update={"seed": 2, "pictures": False})
    assert (settings.seed, settings.pictures) == (1, True)
    assert (changed.seed, changed.pictures) == (2, False)
    with pytest.raises(ValueError):
        Settings(no_such_setting=1)  # type: ignore[call-arg]
