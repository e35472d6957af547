"""Shared, Qt-free building blocks: the plug-in protocol, cancel tokens, display lists."""

from solvers.common.cancel import Cancelled, CancelToken
from solvers.common.display import DisplayList
from solvers.common.errors import InputError, ParseError
from solvers.common.outcome import SearchOutcome
from solvers.common.protocol import (
    CheckResult,
    CountResult,
    Meta,
    Plugin,
    PluginBase,
    Solution,
    Violation,
)

__all__ = [
    "Cancelled",
    "CancelToken",
    "CheckResult",
    "CountResult",
    "DisplayList",
    "InputError",
    "Meta",
    "ParseError",
    "Plugin",
    "PluginBase",
    "SearchOutcome",
    "Solution",
    "Violation",
]
