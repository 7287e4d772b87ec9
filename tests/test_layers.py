"""The shape of the code: bot/ in layers whose imports run only downward, the engine
below all of them, and the tools outside both packages.

The layers, lowest first (a module may import from its own layer and the ones
below it)::

    bot.config, bot.sharding, bot.workers   the foundation: settings, shards, worker processes
    bot.store                               persistence
    bot.present                             text, pictures, components; notify talks to Discord
    bot.tables                              the table lifecycle; commit is the one writer
    bot.cluster                             several processes on PostgreSQL (a TableSync)
    bot.commands                            read-only slash commands
    bot.web                                 the web table (the Activity front)
    bot.app                                 client, cog, the wiring
    bot.__main__                            the entry point

The checker is tried on planted sources too, so a broken checker cannot pass.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

LAYERS: tuple[tuple[str, ...], ...] = (
    ("bot.config", "bot.sharding", "bot.workers", "bot", "bot.competition"),
    ("bot.store",),
    ("bot.present",),
    ("bot.tables",),
    ("bot.cluster",),
    ("bot.commands",),
    ("bot.web",),
    ("bot.app",),
    ("bot.__main__",),
)


def layer_of(module: str) -> int:
    """The layer of ``module`` (the deepest prefix that names one)."""
    best, best_len = -1, -1
    for i, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best_len:
                best, best_len = i, len(name)
    if best < 0:
        raise AssertionError(
            f"{module} is in no layer: add it to LAYERS (and docs/architecture.md)"
        )
    return best


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(module: str, source: str, is_package: bool = False) -> Iterator[tuple[int, str]]:
    """(line, module imported) for every import in ``source``, relative ones resolved."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if node.module is None or node.level:
                # ``from . import x`` may import a module x
                for alias in node.names:
                    yield node.lineno, f"{target}.{alias.name}" if target else alias.name
            else:
                yield node.lineno, target


def upward_edges(module: str, source: str, is_package: bool = False) -> list[str]:
    """The imports of ``module`` that go up a layer, or out to tools/."""
    mine = layer_of(module)
    bad = []
    for line, target in imports(module, source, is_package):
        root = target.split(".")[0]
        if root == "tools":
            bad.append(f"{module}:{line} imports {target} (a tool: tools/ is outside the packages)")
        elif root == "bot" and layer_of(target) > mine:
            bad.append(f"{module}:{line} imports {target}, a layer above it")
    return bad


def bot_modules() -> list[Path]:
    return sorted((ROOT / "bot").rglob("*.py"))


def test_bot_imports_run_only_downward() -> None:
    bad = [
        edge
        for path in bot_modules()
        for edge in upward_edges(module_name(path), path.read_text(), path.name == "__init__.py")
    ]
    assert not bad, "\n".join(bad)


def test_every_layer_is_a_folder_of_its_own() -> None:
    folders = {
        p.name for p in (ROOT / "bot").iterdir() if p.is_dir() and (p / "__init__.py").exists()
    }
    named = {name.split(".")[1] for names in LAYERS for name in names if name.count(".") == 1}
    assert {"store", "present", "tables", "cluster", "commands", "app"} <= folders
    assert folders <= named, f"a folder in bot/ that is no layer: {sorted(folders - named)}"


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("bot.present.notify", "from bot.tables.table import Table\n"),  # present -> tables
        ("bot.store.tables", "from bot.present import render\n"),  # store -> present
        ("bot.tables.commit", "from bot.cluster.sync import Cluster\n"),  # tables -> cluster
        ("bot.tables.play", "from ..cluster import sync\n"),  # relative, up
        ("bot.commands.info", "import bot.app.manager\n"),  # commands -> app
        ("bot.config", "from bot.store import Database\n"),  # the foundation -> store
        ("bot.app.manager", "from tools.bench import open_table\n"),  # a package -> a tool
    ],
)
def test_a_planted_upward_import_is_caught(module: str, source: str) -> None:
    assert upward_edges(module, source), f"{source.strip()} in {module} went unnoticed"


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("bot.tables.commit", "from bot.store import ratings\nfrom bot.present import render\n"),
        (
            "bot.app.manager",
            "from bot.cluster.sync import Cluster\nfrom bot.tables.sync import OneProcess\n",
        ),
        ("bot.present.render.hand", "from . import bidwhist\nfrom .common import card_label\n"),
        ("bot.store.db", "from bot.config import Settings\n"),
    ],
)
def test_a_downward_import_is_allowed(module: str, source: str) -> None:
    assert upward_edges(module, source) == []


def test_the_engine_imports_neither_the_bot_nor_io() -> None:
    forbidden = ("bot", "tools", "discord", "asyncio", "sqlite3", "aiosqlite", "asyncpg")
    bad = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        module = module_name(path)
        for line, target in imports(module, path.read_text(), path.name == "__init__.py"):
            if target.split(".")[0] in forbidden:
                bad.append(f"{module}:{line} imports {target}")
    assert not bad, "\n".join(bad)


def test_the_table_layer_never_asks_which_deployment_it_is_in() -> None:
    """One sync: below the cluster, code talks to ``TableSync`` and never branches on
    a cluster (no name or attribute ``cluster`` outside bot/cluster and bot/app)."""
    bad = []
    for path in bot_modules():
        module = module_name(path)
        if layer_of(module) >= layer_of("bot.cluster"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            name = (
                node.attr
                if isinstance(node, ast.Attribute)
                else node.id
                if isinstance(node, ast.Name)
                else ""
            )
            if "cluster" in name.lower():
                bad.append(f"{module}:{node.lineno} uses {name}")
    assert not bad, "\n".join(bad)
