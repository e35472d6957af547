"""Exceptions for bad user input. They carry a location so messages can name it."""

from __future__ import annotations


class InputError(ValueError):
    """Any problem with what the user gave us (file, URL, code, board string)."""


class ParseError(InputError):
    """Malformed text. ``line``/``column`` are 1-based and optional."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        self.message = message
        self.line = line
        self.column = column
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        return f"{', '.join(where)}: {self.message}" if where else self.message
