"""The shape of the code: bot/ in layers whose imports run only downward, the engine
below all of them, and the tools outside both packages.

The layers, lowest first (a module may import from its own layer and the ones
below it)::

    bot.config, bot.sharding, bot.workers   the foundation: settings, shards, worker processes,
    bot.competition                         and the pure competition maths
    bot.store                               persistence
    bot.present                             text, pictures, components; notify talks to Discord
    bot.tables                              act, commit (the one writer), the feed; loads no discord
    bot.cluster                             several processes on PostgreSQL (a TableSync)
    bot.discord_ui                          the Discord front: the feed shown, clicks answered
    bot.features                            features as packages (daily, coach, records ...)
    bot.web                                 the web table (the Activity front)
    bot.app                                 client, cog, the wiring
    bot.__main__                            the entry point

A module no layer names fails (a new one must be placed), no private name
(``_x``) is imported from another bot module, and no module of bot/tables/ loads
discord, directly or through what it imports. Each checker is tried on planted
sources too, so a broken checker cannot pass.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PACKAGE = "bot"  # the package itself (its __init__): the ground layer, and no prefix of any other

LAYERS: tuple[tuple[str, ...], ...] = (
    ("bot.config", "bot.sharding", "bot.workers", "bot.competition"),
    ("bot.store",),
    ("bot.present",),
    ("bot.tables",),
    ("bot.cluster",),
    ("bot.discord_ui",),
    ("bot.features",),
    ("bot.web",),
    ("bot.app",),
    ("bot.__main__",),
)


def layer_of(module: str) -> int:
    """The layer of ``module`` (the deepest prefix that names one). A module no layer
    names fails: a new top-level module must be placed, not pass unnoticed."""
    if module == PACKAGE:
        return 0
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


def source_of(path: Path) -> tuple[str, str, bool]:
    """A bot module's name, its source and whether it is a package's __init__."""
    return module_name(path), path.read_text(), path.name == "__init__.py"


def test_bot_imports_run_only_downward() -> None:
    bad = [edge for path in bot_modules() for edge in upward_edges(*source_of(path))]
    assert not bad, "\n".join(bad)


def test_every_layer_is_a_folder_of_its_own() -> None:
    folders = {
        p.name for p in (ROOT / "bot").iterdir() if p.is_dir() and (p / "__init__.py").exists()
    }
    named = {name.split(".")[1] for names in LAYERS for name in names if name.count(".") == 1}
    assert {"store", "present", "tables", "cluster", "discord_ui", "features", "app"} <= folders
    assert folders <= named, f"a folder in bot/ that is no layer: {sorted(folders - named)}"


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("bot.present.notify", "from bot.tables.table import Table\n"),  # present -> tables
        ("bot.store.tables", "from bot.present import render\n"),  # store -> present
        ("bot.tables.commit", "from bot.cluster.sync import Cluster\n"),  # tables -> cluster
        ("bot.tables.play", "from ..cluster import sync\n"),  # relative, up
        ("bot.features.info", "import bot.app.manager\n"),  # features -> app
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


# ---------------------------------------------------------------- the table layer speaks no Discord

TABLE_LAYER = "bot.tables"


Graph = tuple[dict[str, set[str]], dict[str, int]]  # module -> modules it loads; -> discord line


def resolve(known: set[str], target: str) -> list[str]:
    """The bot modules loading ``target`` loads: the deepest known module the name is
    (or is inside), and the packages it sits in."""
    parts = target.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in known:
            return [".".join(parts[:i]) for i in range(1, n + 1) if ".".join(parts[:i]) in known]
    return []


def module_edges(
    known: set[str], module: str, source: str, is_package: bool
) -> tuple[set[str], int]:
    """What ``module`` loads of bot/ (its packages included), and the line where it
    imports discord (0: nowhere)."""
    out = set(resolve(known, module)[:-1])
    speaks = 0
    for line, target in imports(module, source, is_package):
        if target.split(".")[0] == "discord":
            speaks = speaks or line
        out.update(resolve(known, target))
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:  # ``from bot.present import replies``: a module
                out.update(resolve(known, f"{node.module}.{alias.name}"))
    out.discard(module)
    return out, speaks


@functools.cache
def bot_graph() -> Graph:
    paths = bot_modules()
    known = {module_name(p) for p in paths}
    edges: dict[str, set[str]] = {}
    speaks: dict[str, int] = {}
    for path in paths:
        module = module_name(path)
        edges[module], line = module_edges(
            known, module, path.read_text(), path.name == "__init__.py"
        )
        if line:
            speaks[module] = line
    return edges, speaks


def discord_paths(graph: Graph, start: str = TABLE_LAYER) -> list[str]:
    """How a module under ``start`` comes to load discord: the chain of bot modules
    from it to one importing discord, directly or through any module it loads."""
    edges, speaks = graph
    chains = []
    for first in sorted(m for m in edges if m == start or m.startswith(start + ".")):
        seen = {first: [first]}
        queue = [first]
        while queue:
            module = queue.pop(0)
            if module in speaks:
                chain = " -> ".join(seen[module])
                chains.append(f"{chain} (imports discord at line {speaks[module]})")
                break
            for nxt in sorted(edges.get(module, ())):
                if nxt not in seen:
                    seen[nxt] = [*seen[module], nxt]
                    queue.append(nxt)
    return chains


def test_the_table_layer_loads_no_discord() -> None:
    """bot/tables/ decides for every front: none of its modules imports discord, nor
    any bot module it imports (so a web front or a test drives it without one)."""
    chains = discord_paths(bot_graph())
    assert not chains, "\n".join(chains)


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("bot.tables.commit", "import discord\n"),
        ("bot.tables.feed", "from discord import ui\n"),
        (
            "bot.tables.act",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import discord.abc\n",
        ),
        ("bot.tables.table", "from bot.present.notify import Notifier\n"),  # through present
        ("bot.tables.drivers", "from bot.present import replies\n"),  # a module of a package
    ],
)
def test_a_planted_discord_import_in_the_table_layer_is_caught(module: str, source: str) -> None:
    edges, speaks = bot_graph()
    edges, speaks = dict(edges), dict(speaks)
    path = ROOT / (module.replace(".", "/") + ".py")
    edges[module], line = module_edges(set(edges), module, path.read_text() + source, False)
    if line:
        speaks[module] = line
    assert any(c.startswith(module) for c in discord_paths((edges, speaks))), (
        f"{source!r} in {module}"
    )


@pytest.mark.parametrize("module", ["bot.helpers", "bot.mobile", "bot.feature.daily", "bots.x"])
def test_a_module_in_no_layer_is_caught(module: str) -> None:
    """A planted module outside every layer (a new top-level module or folder) fails."""
    with pytest.raises(AssertionError, match="in no layer"):
        layer_of(module)


def private_imports(module: str, source: str, is_package: bool = False) -> list[str]:
    """Names starting with one underscore that ``module`` imports from another bot
    module (a private name is its own module's business)."""
    bad = []
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        if target.split(".")[0] != PACKAGE or target == module:
            continue
        for alias in node.names:
            name = alias.name
            if name.startswith("_") and not name.startswith("__") and name != "_":
                bad.append(f"{module}:{node.lineno} imports {name} from {target}")
    return bad


def test_no_private_name_is_imported_across_modules() -> None:
    bad = [edge for path in bot_modules() for edge in private_imports(*source_of(path))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("bot.store.tables", "from bot.store.rows import _dump_seats\n"),
        ("bot.tables.act", "from .commit import _append\n"),
        ("bot.app.manager", "from bot.tables.drivers import Drivers, _DEADLINE\n"),
    ],
)
def test_a_planted_private_import_is_caught(module: str, source: str) -> None:
    assert private_imports(module, source), f"{source.strip()} in {module} went unnoticed"


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("bot.tables.act", "from bot.present.i18n import _, ngettext\n"),  # gettext's own name
        ("bot.tables.act", "from engine import _private\n"),  # the engine's rules are its own
        ("bot.present.render", "from . import __version__\n"),
    ],
)
def test_what_is_not_a_private_import_passes(module: str, source: str) -> None:
    assert private_imports(module, source, module == "bot.present.render") == []


BACKENDS = ("sqlite3", "aiosqlite", "asyncpg")
# the cluster runs on PostgreSQL alone and listens for notifications on a connection
# of its own: it may hold an asyncpg connection (its failures are still StoreErrors)
TRANSPORTS = {"bot.cluster": ("asyncpg",)}


def backend_imports(module: str, source: str, is_package: bool = False) -> list[str]:
    """The imports of a database driver by ``module``, when it is above the store:
    one error type per store (``StoreError``) means no layer above names a backend."""
    if layer_of(module) <= layer_of("bot.store"):
        return []
    allowed = next(
        (v for k, v in TRANSPORTS.items() if module == k or module.startswith(k + ".")), ()
    )
    return [
        f"{module}:{line} imports {target}"
        for line, target in imports(module, source, is_package)
        if target.split(".")[0] in BACKENDS and target.split(".")[0] not in allowed
    ]


def test_nothing_above_the_store_names_a_database_backend() -> None:
    bad = [edge for path in bot_modules() for edge in backend_imports(*source_of(path))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("bot.tables.act", "import sqlite3\n"),
        ("bot.discord_ui.lobby", "from sqlite3 import OperationalError\n"),
        ("bot.tables.commit", "import asyncpg.exceptions\n"),
        ("bot.cluster.sync", "import sqlite3\n"),
    ],
)
def test_a_planted_backend_import_above_the_store_is_caught(module: str, source: str) -> None:
    assert backend_imports(module, source), f"{source.strip()} in {module} went unnoticed"


def test_the_store_itself_may_name_its_backends() -> None:
    assert backend_imports("bot.store.db", "import sqlite3\nimport aiosqlite\n") == []


# what a table is, is its kind (bot.tables.kinds): only these read the flags old rows
# were told apart by, to work the kind out
KIND_READERS = ("bot.tables.kinds", "bot.tables.table")
KIND_FLAGS = ("hints", "board")


def _settings_flag(node: ast.AST) -> str | None:
    """``<x>.settings.hints`` / ``.board``, or ``<x>.settings.get("hints")`` ..."""
    if isinstance(node, ast.Attribute) and node.attr in KIND_FLAGS:
        inner = node.value
        if isinstance(inner, ast.Attribute) and inner.attr == "settings":
            return node.attr
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value in KIND_FLAGS
    ):
        return str(node.args[0].value)
    return None


def kind_flag_reads(module: str, source: str, is_package: bool = False) -> list[str]:
    """Where ``module`` decides what a table is by a flag of its settings instead of
    its kind: the ``hints`` flag read at all (it is the ``hints`` kind), the ``board``
    key tested for truth (a board is the ``board`` kind; its key says which board)."""
    del is_package
    if module in KIND_READERS or not module.startswith("bot."):
        return []
    tree = ast.parse(source)
    bad = []
    tested: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            tested.append(node.test)
        elif isinstance(node, ast.BoolOp):
            tested.extend(node.values)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            tested.append(node.operand)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "bool"
            and node.args
        ):
            tested.append(node.args[0])
        flag = _settings_flag(node)
        if flag == "hints":
            bad.append(f"{module}:{getattr(node, 'lineno', 0)} reads the hints flag")
    for test in tested:
        flag = _settings_flag(test)
        if flag is not None and flag != "hints":
            bad.append(f"{module}:{getattr(test, 'lineno', 0)} tests the {flag} flag")
    return bad


def test_what_a_table_is_is_asked_of_its_kind() -> None:
    bad = [edge for path in bot_modules() for edge in kind_flag_reads(*source_of(path))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("bot.tables.commit", "if table.settings.hints:\n    pass\n"),
        ("bot.tables.commit", "rated = not t.settings.hints and not t.settings.board\n"),
        ("bot.discord_ui.daily", "if table is None or not table.settings.board:\n    pass\n"),
        ("bot.discord_ui.hands", "x = table.settings.board and table.status == 'finished'\n"),
        ("bot.tables.privacy", "def f(row):\n    return bool(row.settings.get('board'))\n"),
        ("bot.discord_ui.hints", "on = table.settings.hints\n"),
    ],
)
def test_a_planted_flag_read_is_caught(module: str, source: str) -> None:
    assert kind_flag_reads(module, source), f"{source.strip()} in {module} went unnoticed"


def test_the_board_key_may_be_read_as_data() -> None:
    source = "the_board = board_of_key(table.settings.board)\nif table.kind is BOARD:\n    pass\n"
    assert kind_flag_reads("bot.discord_ui.daily", source) == []


def test_every_table_is_opened_by_one_constructor() -> None:
    tree = ast.parse((ROOT / "bot" / "tables" / "commit.py").read_text())
    openers = [
        n.name
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("open_")
    ]
    assert openers == ["open_table"]


def render_imports_of_the_chart(module: str, source: str, is_package: bool = False) -> list[str]:
    """The imports of ``bot.present.chart`` by the text package (even for types only):
    the chart draws with the text's names, so the text must not need the chart."""
    if not (module == "bot.present.render" or module.startswith("bot.present.render.")):
        return []
    return [
        f"{module}:{line} imports {target}"
        for line, target in imports(module, source, is_package)
        if target == "bot.present.chart" or target.startswith("bot.present.chart.")
    ]


def test_the_text_and_the_chart_are_no_import_cycle() -> None:
    bad = [e for path in bot_modules() for e in render_imports_of_the_chart(*source_of(path))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    "source",
    [
        "from bot.present.chart import DealPoint\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.present.chart import DealPoint\n",
        "import bot.present.chart\n",
    ],
)
def test_a_planted_chart_import_in_the_text_is_caught(source: str) -> None:
    assert render_imports_of_the_chart("bot.present.render.summary", source)


def app_lookups(module: str, source: str, is_package: bool = False) -> list[str]:
    """Where ``module`` finds the app on the client (``getattr(x.client, "manager")``,
    ``interaction.client.manager``) instead of being handed what it needs."""
    del is_package
    bad = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value == "manager"
            and not (isinstance(node.args[0], ast.Name) and node.args[0].id == "self")
        ) or (
            isinstance(node, ast.Attribute)
            and node.attr == "manager"
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "client"
        ):
            bad.append(f"{module}:{node.lineno} looks the app up on the client")
    return bad


def test_nothing_looks_the_app_up_on_the_client() -> None:
    bad = [e for path in bot_modules() for e in app_lookups(*source_of(path))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    "source",
    [
        'h = getattr(interaction.client, "manager")\n',
        'm = getattr(getattr(interaction, "client", None), "manager", None)\n',
        "m = interaction.client.manager\n",
    ],
)
def test_a_planted_app_lookup_is_caught(source: str) -> None:
    assert app_lookups("bot.present.components", source)


def test_the_table_layer_keeps_no_discord_front_state() -> None:
    """What the Discord front shows beside the game (pictures, notices, hand copies,
    public lines) is the front's (``bot.discord_ui.shown``): no module of the table
    layer or the cluster reads a table's ``shown`` state or names those caches."""
    bad = []
    for path in bot_modules():
        module = module_name(path)
        if layer_of(module) > layer_of("bot.cluster"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "shown":
                inner = node.value
                if isinstance(inner, ast.Name) and inner.id in ("table", "existing", "self"):
                    bad.append(f"{module}:{node.lineno} reads .shown")
            if isinstance(node, ast.ClassDef) and node.name == "Shown":
                bad.append(f"{module}:{node.lineno} defines Shown")
            if isinstance(node, ast.ImportFrom) and any(
                a.name == "PictureCache" for a in node.names
            ):
                bad.append(f"{module}:{node.lineno} imports PictureCache")
    assert not bad, "\n".join(bad)
