"""The AI package's layout: the players never import the baselines, and the coach
measures a card by the players' own strategies."""

from __future__ import annotations

import ast
from pathlib import Path

AI = Path(__file__).resolve().parents[2] / "engine" / "ai"


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_no_player_strategy_search_or_coach_module_imports_the_baselines() -> None:
    modules = [
        AI / "players.py",
        AI / "levels.py",
        AI / "explain.py",
        *(AI / "strategies").rglob("*.py"),
        *(AI / "search").rglob("*.py"),
        *(AI / "coach").rglob("*.py"),
    ]
    assert len(modules) > 20
    for path in modules:
        assert not any(m.startswith("engine.ai.baselines") for m in _imports(path)), path


def test_the_coach_measures_cards_by_the_strategies_not_a_model_of_its_own() -> None:
    cards = _imports(AI / "coach" / "cards.py")
    assert "engine.ai.strategies.tables.card_strategy" in cards
    # no sampler, solver or playout of its own for the cards
    assert not any(m.startswith("engine.ai.search.") for m in cards if "strategy" not in m)


def test_the_coach_judges_calls_by_the_strategies_not_a_model_of_its_own() -> None:
    # the coach's other decisions (bids, calls, trumps, lay-outs) come from the call
    # strategies, as its cards come from the card strategies: no sampler, solver,
    # playout or player of its own in any module of the coach
    for path in (AI / "coach").rglob("*.py"):
        found = _imports(path)
        search = {
            m
            for m in found
            if m.startswith("engine.ai.search.")
            and not m.startswith(("engine.ai.search.strategy", "engine.ai.search.bitmasks"))
        }
        assert not search, (path.name, search)
        strategies = {
            m
            for m in found
            if m.startswith("engine.ai.strategies")
            and not m.startswith(("engine.ai.strategies.tables", "engine.ai.strategies.calls"))
        }
        assert not strategies, (path.name, strategies)
    calls = _imports(AI / "coach" / "calls.py")
    assert "engine.ai.strategies.calls.call_strategy" in calls
