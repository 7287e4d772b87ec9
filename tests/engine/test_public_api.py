"""The engine's public API: the bot imports ``engine`` and ``engine.ai`` only, and the
engine's public classes and events never share a name, nor a ``kind`` with other fields."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections import defaultdict
from pathlib import Path

import pytest

import engine
from engine import Action, Event

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = ("engine", "engine.ai")


def engine_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import of ``engine`` or one of its modules in a source file."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend(
                (node.lineno, alias.name)
                for alias in node.names
                if alias.name.split(".")[0] == "engine"
            )
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            if node.module == "engine":
                # ``from engine import ai`` is the AI package; any other submodule by name is not the API
                found.extend(
                    (node.lineno, f"engine.{alias.name}")
                    for alias in node.names
                    if isinstance(getattr(engine, alias.name, None), type(engine))
                )
                found.append((node.lineno, "engine"))
            elif node.module.split(".")[0] == "engine":
                found.append((node.lineno, node.module))
    return found


def inner_imports(root: Path) -> list[str]:
    """``path:line module`` for each import under ``root`` of an engine module outside the API."""
    bad = []
    for path in sorted(root.rglob("*.py")):
        for line, module in engine_imports(path):
            if module not in ALLOWED and not module.startswith("engine.ai."):
                bad.append(f"{path.relative_to(root)}:{line} {module}")
    return bad


@pytest.mark.parametrize("folder", ["bot", "tools"])
def test_the_bot_and_the_tools_use_the_engine_only_through_its_public_api(folder: str) -> None:
    assert inner_imports(ROOT / folder) == []


def test_the_import_check_finds_a_planted_inner_import(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text(
        "from engine import Card\nfrom engine.ai import choose\nimport engine\n"
    )
    (tmp_path / "deep.py").write_text(
        "def f():\n    from engine.phases.solo_auction import CONTRACT_NAMES\n    return CONTRACT_NAMES\n"
    )
    (tmp_path / "plain.py").write_text("import engine.cards\n")
    (tmp_path / "named.py").write_text("from engine import export\n")
    assert inner_imports(tmp_path) == [
        "deep.py:2 engine.phases.solo_auction",
        "named.py:1 engine.export",
        "plain.py:1 engine.cards",
    ]


def test_every_exported_name_exists() -> None:
    missing = [name for name in engine.__all__ if not hasattr(engine, name)]
    assert missing == []
    assert len(set(engine.__all__)) == len(engine.__all__)


def _engine_modules() -> list[object]:
    modules = []
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        if info.name == "engine.ai" or info.name.startswith("engine.ai."):
            continue  # the computer players are their own package
        modules.append(importlib.import_module(info.name))
    return modules


def _public_classes() -> dict[str, list[type]]:
    """Every public class defined in an engine module (the AI package aside), by name."""
    by_name: dict[str, list[type]] = defaultdict(list)
    for module in _engine_modules():
        for name, obj in vars(module).items():
            if (
                inspect.isclass(obj)
                and obj.__module__ == module.__name__
                and not name.startswith("_")
            ):  # type: ignore[attr-defined]
                by_name[name].append(obj)
    return by_name


def test_no_two_public_engine_classes_share_a_name() -> None:
    classes = _public_classes()
    assert {
        name: [c.__module__ for c in found] for name, found in classes.items() if len(found) > 1
    } == {}
    # the phases and events of every family are among them
    for name in (
        "AuctionPhase",
        "SoloAuctionPhase",
        "BidMade",
        "SoloBidMade",
        "Bid",
        "SoloBid",
        "LayoutDealt",
    ):
        assert name in classes, name


def test_events_of_one_kind_have_the_same_fields() -> None:
    events = [
        c
        for found in _public_classes().values()
        for c in found
        if issubclass(c, Event) and c is not Event
    ]
    assert len(events) > 30
    fields_of_kind: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for cls in events:
        fields_of_kind[cls.kind].add(cls.field_names())
    assert {kind: fields for kind, fields in fields_of_kind.items() if len(fields) > 1} == {}
    assert "event" not in fields_of_kind, "every event class names its own kind"


def test_every_public_event_and_action_is_exported() -> None:
    exported = [getattr(engine, name) for name in engine.__all__]
    missing = [
        f"{cls.__module__}.{cls.__name__}"
        for found in _public_classes().values()
        for cls in found
        if issubclass(cls, (Event, Action)) and cls not in exported
    ]
    assert missing == []
