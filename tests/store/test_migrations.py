"""The schema history as a reader finds it: a module a step in bot/store/migrations/,
each named after its number and each in MIGRATIONS at its place."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from bot.store import migrations
from bot.store.migrations import LATEST_VERSION, MIGRATIONS

PACKAGE = Path(migrations.__file__).parent


def test_every_step_module_is_in_the_history_at_its_number() -> None:
    steps = sorted(p.stem for p in PACKAGE.glob("v*.py"))
    assert steps, "no step modules found"
    numbers = [int(re.fullmatch(r"v(\d\d)_\w+", name)[1]) for name in steps]  # type: ignore[index]
    assert numbers == list(range(1, len(steps) + 1)), f"steps are not numbered 1, 2, 3...: {steps}"
    for number, name in zip(numbers, steps, strict=True):
        step = importlib.import_module(f"bot.store.migrations.{name}").STEP
        assert step.version == number, f"{name} holds step {step.version}"
        assert MIGRATIONS[number - 1] is step, f"{name} is not MIGRATIONS[{number - 1}]"
    assert len(MIGRATIONS) == len(steps) == LATEST_VERSION
