"""bot/competition/events is pure: it imports the standard library, networkx, the engine
and itself, nothing else (no Discord, no asyncio, no store, no other bot layer)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.test_layers import ROOT, imports, module_name

PACKAGE = "bot.competition.events"
IO = {"asyncio", "sqlite3", "socket", "subprocess", "threading", "multiprocessing"}


def foreign(module: str, source: str, is_package: bool = False) -> list[str]:
    """The imports of ``module`` that the ground layer may not make."""
    bad = []
    for line, target in imports(module, source, is_package):
        root = target.split(".")[0]
        if target == PACKAGE or target.startswith(PACKAGE + "."):
            continue
        if root in ("engine", "networkx") or (root in sys.stdlib_module_names and root not in IO):
            continue
        bad.append(f"{module}:{line} imports {target}")
    return bad


def sources() -> list[Path]:
    return sorted((ROOT / "bot" / "competition" / "events").rglob("*.py"))


def test_the_events_package_imports_only_the_ground() -> None:
    assert sources(), "bot/competition/events has no modules"
    bad = [
        edge
        for path in sources()
        for edge in foreign(module_name(path), path.read_text(), path.name == "__init__.py")
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    "source",
    [
        "import discord\n",
        "import asyncio\n",
        "from bot.store.daily import matchpoints\n",
        "from bot.tables import play\n",
        "from ...store import daily\n",
        "import aiosqlite\n",
        "from tools.bench import run\n",
    ],
)
def test_a_planted_foreign_import_is_caught(source: str) -> None:
    assert foreign(f"{PACKAGE}.scoring", source), f"{source.strip()} went unnoticed"


@pytest.mark.parametrize(
    "source",
    [
        "from fractions import Fraction\n",
        "import networkx as nx\n",
        "from .movement import Round\n",
        "from engine.boards import board_result\n",
        "from . import timing\n",
    ],
)
def test_a_ground_import_is_allowed(source: str) -> None:
    assert foreign(f"{PACKAGE}.scoring", source) == []
