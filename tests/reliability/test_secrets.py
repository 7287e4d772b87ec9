"""The token: read from the environment or ``.env`` only, never logged or shown;
``.env`` stays out of git and out of the Docker image, which runs as non-root."""

from __future__ import annotations

import logging
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot import __main__ as entry
from bot.config import Secret, Settings

pytestmark = pytest.mark.slow  # left out by `make test-fast`

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.secret.token-value-never-logged"


def test_secret_hides_itself() -> None:
    secret = Secret(TOKEN)
    settings = Settings(token=secret)
    for shown in (
        repr(secret),
        repr(settings),
        str(settings),
        f"{settings!r}",
        str([secret]),
        str({"t": secret}),
    ):
        assert TOKEN not in shown
    assert str(secret) == TOKEN  # what bot.run() needs


def test_token_from_environment_or_env_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\n")
    assert str(Settings.from_env(str(env_file)).token) == TOKEN
    monkeypatch.setenv("DISCORD_TOKEN", "from-the-environment")
    assert (
        str(Settings.from_env(str(env_file)).token) == "from-the-environment"
    )  # the real environment wins
    monkeypatch.delenv("DISCORD_TOKEN")
    assert str(Settings.from_env(None).token) == ""


def test_startup_never_logs_the_token(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("RH_LOG_LEVEL", "DEBUG")
    ran: dict[str, Any] = {}

    class FakeBot:
        def run(self, token: str, **kwargs: Any) -> None:
            ran["token"] = token
            logging.getLogger("bot").debug("settings: %r", Settings.from_env(None))

    monkeypatch.setattr("bot.app.client.create_bot", lambda settings: FakeBot())
    caplog.set_level(logging.DEBUG)
    assert entry.main([]) == 0
    assert ran["token"] == TOKEN
    out = capsys.readouterr()
    assert TOKEN not in caplog.text and TOKEN not in out.out and TOKEN not in out.err


def test_no_log_call_formats_the_token() -> None:
    pattern = re.compile(r"log\w*\.\w+\([^)]*token", re.IGNORECASE)
    for path in (ROOT / "bot").rglob("*.py"):
        assert not pattern.search(path.read_text()), f"{path} logs something about the token"


def test_env_file_is_ignored_by_git_and_docker() -> None:
    if (ROOT / ".git").exists():
        ignored = subprocess.run(["git", "check-ignore", "-q", ".env"], cwd=ROOT, check=False)
        assert ignored.returncode == 0, ".env is not git-ignored"
    dockerignore = (ROOT / ".dockerignore").read_text().split()
    assert ".env" in dockerignore


def test_docker_image_runs_as_non_root() -> None:
    lines = [
        line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines() if line.strip()
    ]
    last_from = max(i for i, line in enumerate(lines) if line.upper().startswith("FROM "))
    users = [line.split()[1] for line in lines[last_from:] if line.upper().startswith("USER ")]
    assert users and users[-1] not in ("root", "0"), (
        "the final stage must switch to a non-root USER"
    )
    cmd = max(i for i, line in enumerate(lines) if line.upper().startswith(("CMD", "ENTRYPOINT")))
    user_at = max(i for i, line in enumerate(lines) if line.upper().startswith("USER "))
    assert user_at < cmd
    assert not any(
        "DISCORD_TOKEN" in line for line in lines if line.upper().startswith(("ENV", "ARG"))
    ), "no token baked in"
