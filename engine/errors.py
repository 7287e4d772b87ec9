"""The engine's exceptions (re-exported by :mod:`engine.game` and :mod:`engine`)."""

from __future__ import annotations

__all__ = ["IllegalAction", "RecordError"]


class IllegalAction(Exception):
    """An action the rules do not allow now. ``reason`` is short and human."""

    def __init__(self, reason: str, code: str = "illegal") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class RecordError(ValueError):
    """A saved record or snapshot that cannot be loaded."""
