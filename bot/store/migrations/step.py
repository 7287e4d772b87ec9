"""One numbered step of the schema history: its SQL for SQLite and for PostgreSQL."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

Dialect: TypeAlias = Literal["sqlite", "postgresql"]
DIALECTS: tuple[Dialect, ...] = ("sqlite", "postgresql")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered step of the schema history, in every dialect."""

    version: int
    sqlite: str
    """The SQL script for SQLite."""
    postgresql: str | None = None
    """The SQL script for PostgreSQL; None when the SQLite script runs unchanged."""

    def sql(self, dialect: Dialect) -> str:
        """The script of this step for ``dialect``."""
        if dialect == "postgresql" and self.postgresql is not None:
            return self.postgresql
        return self.sqlite


MigrationLike: TypeAlias = Migration | tuple[int, str]
"""A :class:`Migration`, or ``(version, sql)`` for a step whose SQL is the same in both."""


def as_migration(step: MigrationLike) -> Migration:
    """Normalise a ``(version, sql)`` pair to a :class:`Migration`."""
    if isinstance(step, Migration):
        return step
    version, sql = step
    return Migration(version, sql)
