"""The docs stay true: the code map in docs/architecture.md names every package and
module under bot/, engine/ and tools/ (and nothing else), and the README's links and
paths point at files that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "engine", "tools")


def _in_tree() -> set[str]:
    """Every package (``bot/store/``) and module (``bot/config.py``) as the tree has them now."""
    names: set[str] = set()
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            relative = path.relative_to(ROOT)
            if path.name == "__init__.py":
                names.add(f"{relative.parent.as_posix()}/")
            else:
                names.add(relative.as_posix())
                names.add(f"{relative.parent.as_posix()}/")  # a folder of modules is named too
    return names


def _in_map() -> set[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Code map", 1)[1].split("\n## ", 1)[0]
    entries = re.findall(r"^\* `([^`]+)` — \S", section, flags=re.MULTILINE)
    assert len(entries) == len(set(entries)), "the code map names a module twice"
    return set(entries)


def test_the_code_map_names_every_module() -> None:
    missing = sorted(_in_tree() - _in_map())
    assert not missing, f"docs/architecture.md's code map does not name: {missing}"


def test_the_code_map_names_nothing_that_does_not_exist() -> None:
    stale = sorted(_in_map() - _in_tree())
    assert not stale, f"docs/architecture.md's code map names what does not exist: {stale}"


def test_docs_name_only_files_that_exist() -> None:
    """Paths like ``bot/tables/play.py`` and relative links in the README and docs/*.md."""
    for doc in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))):
        text = doc.read_text(encoding="utf-8")
        for path in re.findall(r"\b((?:bot|engine|tools|tests)/[\w/]+\.py)\b", text):
            assert (ROOT / path).is_file(), f"{doc.name} names {path}, which does not exist"
        for link in re.findall(r"\]\((?!https?:|#)([^)#\s]+)", text):
            assert (doc.parent / link).exists(), f"{doc.name} links to {link}, which does not exist"
