"""A fitness check: no module of a package uses another module's private names.

    python -m tools.private_names [engine]

A name with one leading underscore (``_x``, not ``__x__``) is private to the
module that defines it. Another module of the same package that imports it
(``from engine.ai.search.worlds import _deck_mask``), reaches it through a
module (``solo._roles(...)``) or through an object of another module's class
(``player._declare_books(...)``) depends on something its owner may change
without notice; a helper two modules need is made public, once, instead.

Read from the source (``ast``), module by module:

* an import of a private name, or of a private module, from the package;
* an attribute ``x._y`` read through a module of the package (``solo._roles``);
* an attribute ``x._y`` read on an object where ``_y`` is no member of the reading
  module's own objects (a method or field of one of its classes, an attribute it
  assigns, a ``__slots__`` entry), unless ``x`` is a module from outside the
  package (``endplay._dds``, ``sys._getframe``) or ``_y`` is the standard library's
  public API spelled with an underscore (a named tuple's ``_replace`` and kin).

Prints one line a use (``module:line: name``) and exits 1 when there are any.
"""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

__all__ = ["KNOWN", "Use", "main", "uses"]

STDLIB_UNDERSCORED: Final = frozenset(
    {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}
)

KNOWN: Final[frozenset[tuple[str, str]]] = frozenset(
    [
        *(
            (f"engine.families.{m}", n)
            for m in ("bid_whist", "ruff_honours", "turnover")
            for n in ("_bool", "_choice", "_int")
        ),
        ("engine.families.ruffe_trump", "_choice"),
        ("engine.families.ruffe_trump", "_int"),
        ("engine.families.solo", "_bool"),
        ("engine.families.solo", "_choice"),
        ("engine.records", "_blank"),
    ]
)
"""Uses known and left for their owners, outside the AI's part of the tree: the game
families read their parameters with :mod:`engine.rules`' parsers, and
:mod:`engine.records` restores a snapshot through ``Game._blank``."""


class Use:
    """One use of another module's private name."""

    __slots__ = ("line", "module", "name")

    def __init__(self, module: str, line: int, name: str) -> None:
        self.module = module
        self.line = line
        self.name = name

    def __repr__(self) -> str:
        return f"{self.module}:{self.line}: {self.name}"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _members(tree: ast.AST) -> set[str]:
    """The private attributes this module's own objects have: methods and fields of its
    classes, attributes it assigns (``self._x = ...``), ``__slots__`` entries."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    out.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    out.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    out.update(t.id for t in item.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            out.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)  # __slots__ entries and the like
    return {n for n in out if _private(n)}


def _resolve(module: str, level: int, target: str | None, is_package: bool) -> str:
    """The absolute name of a (possibly relative) ``from`` import's module."""
    if not level:
        return target or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


def uses(root: Path, known: frozenset[tuple[str, str]] = KNOWN) -> list[Use]:
    """Every use in the package at ``root`` of a private name of another of its modules,
    but those of ``known`` (module, name)."""
    package = root.name
    found: list[Use] = []
    for path in sorted(root.rglob("*.py")):
        module = _module_name(path, root)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        own = _members(tree)
        outside: set[str] = set()  # names bound to modules from outside the package
        inner: set[str] = set()  # names bound to modules of the package
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    inside = alias.name == package or alias.name.startswith(package + ".")
                    if inside and any(_private(p) for p in alias.name.split(".")):
                        found.append(Use(module, node.lineno, alias.name))
                    bound = alias.asname or alias.name.split(".")[0]
                    (inner if inside else outside).add(bound)
            elif isinstance(node, ast.ImportFrom):
                source = _resolve(module, node.level, node.module, path.name == "__init__.py")
                inside = source == package or source.startswith(package + ".")
                for alias in node.names:
                    (inner if inside else outside).add(alias.asname or alias.name)
                    if not inside:
                        continue
                    if _private(alias.name) or any(_private(p) for p in source.split(".")):
                        found.append(Use(module, node.lineno, f"{source}.{alias.name}"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
                continue
            name = node.attr
            if not _private(name) or name in STDLIB_UNDERSCORED:
                continue
            base = node.value.id if isinstance(node.value, ast.Name) else None
            if base in outside:
                continue
            if name in own and base not in inner:  # one of this module's own objects
                continue
            found.append(Use(module, node.lineno, name))
    return [u for u in found if (u.module, u.name.rsplit(".", 1)[-1]) not in known]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.private_names", description=__doc__.split("\n")[0]
    )
    parser.add_argument("package", nargs="?", default="engine", help="a package folder")
    args = parser.parse_args(argv)
    found = uses(Path(args.package).resolve())
    _print(found)
    return 1 if found else 0


def _print(found: Iterable[Use]) -> None:
    for use in found:
        print(use)


if __name__ == "__main__":
    raise SystemExit(main())
