"""Running several processes: the shard options, the launcher and docker-compose.yml.

``docker compose config`` is the full check of the compose file where Docker
Compose is installed; here the file is read with PyYAML and what the deployment
depends on is checked: PostgreSQL with a health check, every bot process waiting
for it and pointed at it, and the bot processes' shard ranges covering every
shard exactly once, shard 0 (the DMs) included.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.__main__ import _shard_options
from bot.app.launch import Child, plan, supervise
from bot.config import Settings
from bot.sharding import format_shards, holds_guild, parse_shards, shard_of, split_shards

ROOT = Path(__file__).resolve().parent.parent


def test_shard_ranges_parse_and_print() -> None:
    assert parse_shards("0-3") == (0, 1, 2, 3)
    assert parse_shards("0-1, 6,7", 8) == (0, 1, 6, 7)
    assert format_shards((0, 1, 2, 5, 7, 8)) == "0-2,5,7-8"
    for bad in ("", "a", "3-1", "-2"):
        with pytest.raises(ValueError):
            parse_shards(bad)
    with pytest.raises(ValueError, match="does not exist"):
        parse_shards("0-8", 8)


def test_a_guild_lives_on_one_shard() -> None:
    guild = 81_384_788_765_712_384  # a real-looking snowflake: exactly one process holds its shard
    settings = [Settings(shard_count=4, shard_ids=ids) for ids in split_shards(4, 2)]
    assert sum(holds_guild(s, guild) for s in settings) == 1
    assert shard_of(guild, 4) == (guild >> 22) % 4
    assert holds_guild(Settings(), guild)  # unsharded: every server


def test_the_launcher_splits_the_shards() -> None:
    assert split_shards(8, 3) == [
        (0, 1),
        (2, 3, 4),
        (5, 6, 7),
    ]  # shard 0's process (all DMs) is not the largest
    assert split_shards(4, 4) == [(0,), (1,), (2,), (3,)]
    with pytest.raises(ValueError):
        split_shards(2, 3)
    children = plan(8, 2)
    assert [c.argv("python") for c in children] == [
        ["python", "-m", "bot", "--shards", "0-3", "--shard-count", "8", "--name", "bot-0"],
        ["python", "-m", "bot", "--shards", "4-7", "--shard-count", "8", "--name", "bot-1"],
    ]
    out = subprocess.run(
        [sys.executable, "-m", "bot.app.launch", "-n", "3", "--shard-count", "8", "--dry-run"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    assert (
        "bot-0: python -m bot --shards 0-1 --shard-count 8 --name bot-0  (shard 0: every DM" in out
    )
    assert "bot-2: python -m bot --shards 5-7 --shard-count 8 --name bot-2" in out


def test_bot_takes_the_shard_options() -> None:
    rest, settings = _shard_options(["--shards", "0-3", "--shard-count", "8", "--demo"], Settings())
    assert rest == ["--demo"]
    assert (settings.shard_ids, settings.shard_count) == ((0, 1, 2, 3), 8)
    assert settings.web_port is None and not settings.pages_only
    _, web = _shard_options(["--pages-only"], Settings(web_port=8080))
    assert web.pages_only and web.web_port == 8080
    _, game = _shard_options(["--no-web"], Settings(web_port=8080))
    assert game.web_port is None and not game.pages_only
    with pytest.raises(SystemExit):
        _shard_options(["--shards", "0-3"], Settings())  # no count
    with pytest.raises(SystemExit):
        _shard_options(["--shards", "6-9", "--shard-count", "8"], Settings())


def test_the_launcher_adds_a_pages_only_process_and_keeps_the_pages_out_of_the_games() -> None:
    children = plan(8, 2, pages=True)
    assert [c.argv("python") for c in children] == [
        [
            "python",
            "-m",
            "bot",
            "--shards",
            "0-3",
            "--shard-count",
            "8",
            "--name",
            "bot-0",
            "--no-web",
        ],
        [
            "python",
            "-m",
            "bot",
            "--shards",
            "4-7",
            "--shard-count",
            "8",
            "--name",
            "bot-1",
            "--no-web",
        ],
        ["python", "-m", "bot", "--pages-only", "--name", "web"],
    ]
    # what each process then runs with, from one environment carrying the web settings
    env = Settings(shard_count=8, web_port=8080, client_id=99, client_secret="s")
    read = [_shard_options(c.argv("python")[3:], env) for c in children]
    assert all(rest == [] for rest, _ in read)
    games, pages = [s for _, s in read[:2]], read[2][1]
    assert all(s.web_port is None and not s.pages_only for s in games)  # no game carries a page
    assert sorted(i for s in games for i in s.shard_ids or ()) == list(range(8))
    assert pages.pages_only and pages.web_port == 8080 and pages.process_name == "web"
    assert [c.argv("python")[-1] for c in plan(8, 2)] == ["bot-0", "bot-1"]  # no --pages: as before
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.app.launch",
            "-n",
            "2",
            "--shard-count",
            "4",
            "--pages",
            "--dry-run",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    assert "bot-1: python -m bot --shards 2-3 --shard-count 4 --name bot-1 --no-web" in out
    assert "web: python -m bot --pages-only --name web  (the web table" in out


def test_the_launcher_refuses_a_pages_process_it_cannot_run(tmp_path: Path) -> None:
    def launch(**env: str) -> subprocess.CompletedProcess[str]:
        import os

        clean = {k: v for k, v in os.environ.items() if not k.startswith(("RH_", "DISCORD_"))}
        return subprocess.run(
            [sys.executable, "-m", "bot.app.launch", "-n", "1", "--shard-count", "1", "--pages"],
            capture_output=True,
            text=True,
            cwd=tmp_path,  # no .env here
            env=clean | {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "t"} | env,
            timeout=60,
            check=False,
        )

    sqlite = launch(RH_DATABASE=str(tmp_path / "ruff.db"), RH_WEB_PORT="8080")
    assert sqlite.returncode == 2 and "postgresql://" in sqlite.stderr, sqlite
    no_web = launch(RH_DATABASE="postgresql://ruff@127.0.0.1:1/ruff")
    assert no_web.returncode == 2 and "set RH_WEB_PORT" in no_web.stderr, no_web
    everyone = launch(RH_DATABASE="postgresql://ruff@127.0.0.1:1/ruff", RH_PAGES_ONLY="on")
    assert everyone.returncode == 2 and "pass --pages" in everyone.stderr, everyone
    assert "pid" not in sqlite.stdout + no_web.stdout + everyone.stdout  # nothing started


def test_the_launcher_restarts_a_process_that_dies(tmp_path: Path) -> None:
    marks = tmp_path / "starts"
    # a "bot" that notes its start and dies at once
    script = f"open({str(marks)!r}, 'a').write('x'); raise SystemExit(3)"
    children = [Child(0, (0,), 1)]
    lines: list[str] = []
    stop_at = time.monotonic() + 2.5
    supervise(
        children,
        lambda c: [sys.executable, "-c", script],
        should_stop=lambda: time.monotonic() > stop_at,
        poll=0.05,
        out=lines.append,
    )
    starts = len(marks.read_text())
    assert starts >= 2, lines  # started, died, started again (after 1 s)
    assert children[0].restarts == starts - 1
    assert any("exited with 3; restarting" in line for line in lines)


def _compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(data, dict)
    return data


def test_the_compose_file_runs_bot_processes_on_postgresql() -> None:
    compose = _compose()
    services = compose["services"]
    db = services["db"]
    assert str(db["image"]).startswith("postgres:15")
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert (
        any(str(v).startswith("pgdata:") for v in db["volumes"]) and "pgdata" in compose["volumes"]
    )
    user, password, name = (
        db["environment"][k] for k in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB")
    )

    bots = {k: v for k, v in services.items() if k.startswith("bot-")}
    assert len(bots) >= 2
    covered: list[int] = []
    counts = set()
    names = set()
    for key, bot in bots.items():
        assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}, key
        env = bot["environment"]
        assert env["RH_DATABASE"] == f"postgresql://{user}:{password}@db:5432/{name}", key
        assert env["DISCORD_TOKEN"] == "${DISCORD_TOKEN}"
        assert bot["build"] == "." and (ROOT / "Dockerfile").is_file()
        command = bot["command"]
        assert command[:3] == ["python", "-m", "bot"], key
        rest, settings = _shard_options(
            command[3:], Settings(shard_count=int(env["RH_SHARD_COUNT"]))
        )
        assert rest == [], key
        assert settings.shard_ids is not None and settings.shard_count is not None
        covered += settings.shard_ids
        counts.add(settings.shard_count)
        names.add(settings.process_name)
    assert len(counts) == 1
    assert sorted(covered) == list(range(counts.pop())), "every shard held by exactly one process"
    assert len(names) == len(bots) and None not in names  # stable, distinct lease names
    assert 0 in parse_shards(bots["bot-0"]["command"][4])  # shard 0 (the DMs) is held


def test_the_compose_file_serves_the_pages_from_a_process_of_their_own() -> None:
    services = _compose()["services"]
    web = services["web"]
    assert web["profiles"] == ["web"]  # `docker compose --profile web up`
    assert web["command"][:3] == ["python", "-m", "bot"]
    env = web["environment"]
    rest, settings = _shard_options(
        web["command"][3:],
        Settings(shard_count=int(env["RH_SHARD_COUNT"]), web_port=int(env["RH_WEB_PORT"])),
    )
    assert rest == [] and settings.pages_only and settings.process_name == "web"
    assert env["RH_DATABASE"] == services["bot-0"]["environment"]["RH_DATABASE"]
    assert env["DISCORD_TOKEN"] == "${DISCORD_TOKEN}"
    for key in ("RH_CLIENT_ID", "DISCORD_CLIENT_SECRET", "RH_WEB_SESSION_SECRET"):
        assert key in env
    assert web["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert web["ports"] == [f"127.0.0.1:{env['RH_WEB_PORT']}:{env['RH_WEB_PORT']}"]
    # the game processes serve no page
    for key, bot in services.items():
        if key.startswith("bot-"):
            assert "RH_WEB_PORT" not in bot["environment"], key


def test_docker_image_holds_the_bot_and_not_the_tools() -> None:
    """The image copies the two packages, pyproject.toml and LICENSE; never tools/ or tests/."""
    copied: set[str] = set()
    command = ""
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        words = line.split()
        if words and words[0].upper() == "COPY":
            copied.update(word.strip("./") for word in words[1:-1] if not word.startswith("--"))
        if words and words[0].upper() == "CMD":
            command = line
    assert {"bot", "engine", "pyproject.toml", "LICENSE"} <= copied
    assert not copied & {"tools", "tests", "docs", ".env"}
    assert '"python", "-m", "bot"' in command
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {"tools/", "tests/"} <= set(ignored)


def test_an_installed_bot_carries_its_message_catalogues() -> None:
    """A non-editable install (the Docker image's ``pip install .``) ships only what
    ``package-data`` names: every glob there must match the catalogues where they
    are, so a German server does not fall back to English in production."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]
    from bot.present.i18n import LOCALE_DIR

    shipped: set[Path] = set()
    for package, globs in data.items():
        folder = root / package.replace(".", "/")
        assert (folder / "__init__.py").exists(), (
            f"package-data names {package}, which is no package"
        )
        for pattern in globs:
            found = list(folder.glob(pattern))
            assert found, f"{package}: {pattern} matches nothing"
            shipped.update(p.resolve() for p in found)
    catalogues = {p.resolve() for p in LOCALE_DIR.rglob("*.po*")}
    assert catalogues and catalogues <= shipped, sorted(str(p) for p in catalogues - shipped)
