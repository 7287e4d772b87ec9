"""Fitness: no module of engine/ uses another module's private name (tools.private_names)."""

from __future__ import annotations

from pathlib import Path

from tools.private_names import KNOWN, uses

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def test_no_module_of_the_engine_uses_another_modules_private_name() -> None:
    assert [repr(u) for u in uses(ENGINE)] == []


def test_the_known_exceptions_are_all_still_there() -> None:
    # a use fixed by its owner leaves the list: each entry must still be needed
    found = {(u.module, u.name.rsplit(".", 1)[-1]) for u in uses(ENGINE, known=frozenset())}
    assert found == set(KNOWN)


def _plant(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_a_planted_break_is_caught_in_every_form(tmp_path: Path) -> None:
    pkg = _plant(
        tmp_path,
        {
            "__init__.py": "",
            "owner.py": (
                "def _helper() -> int:\n    return 1\n\n"
                "class Thing:\n    def _secret(self) -> int:\n        return 2\n"
            ),
            "imports.py": "from pkg.owner import _helper\n",
            "relative.py": "from .owner import _helper\n",
            "through.py": "from pkg import owner\n\nx = owner._helper()\n",
            "method.py": (
                "from pkg.owner import Thing\n\ndef f(t: Thing) -> int:\n    return t._secret()\n"
            ),
        },
    )
    found = sorted((u.module, u.line, u.name) for u in uses(pkg))
    assert found == [
        ("pkg.imports", 1, "pkg.owner._helper"),
        ("pkg.method", 4, "_secret"),
        ("pkg.relative", 1, "pkg.owner._helper"),
        ("pkg.through", 3, "_helper"),
    ]


def test_own_privates_outside_modules_and_namedtuple_api_are_allowed(tmp_path: Path) -> None:
    pkg = _plant(
        tmp_path,
        {
            "__init__.py": "",
            "fine.py": (
                "import sys\nfrom collections import namedtuple\n\n"
                "P = namedtuple('P', 'a')\n\n"
                "class Box:\n    __slots__ = ('_x',)\n\n"
                "    def __init__(self) -> None:\n        self._x = 1\n\n"
                "    def same(self, other: 'Box') -> int:\n        return other._x\n\n"
                "def _own() -> int:\n    return 3\n\n"
                "y = _own() + P(1)._replace(a=2).a\nz = sys._getframe()\n"
            ),
        },
    )
    assert uses(pkg) == []
