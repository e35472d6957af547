"""numba kernels that load numba on their first call rather than when their module is imported.

Importing numba and loading a module's cached kernels costs about half a second of CPU; a command
that never calls a kernel (``--help``, ``check``, a flow puzzle read from a file) should not pay it.
``njit`` takes numba's options and returns a ``Kernel``: calling it compiles (or loads from numba's
cache) the function with ``numba.njit`` then, and the kernels it calls see each other's compiled
form (named directly or as a module's attribute, ``engine.generate``). With ``python_below=N`` a call whose array arguments hold fewer than N elements in all runs
the plain Python function instead while numba is not loaded in the process: for a 5x5 board that
is a millisecond, against the half second of loading numba. Once numba is loaded (by any module),
every call is compiled. Both forms give the same results (tests/test_cli_startup.py compares them).
"""

from __future__ import annotations

import contextlib
import functools
import sys
import threading
import types
from collections.abc import Callable, Iterator
from typing import Any, Literal, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_lock = threading.RLock()  # compiling one kernel compiles the kernels it calls
_local = threading.local()  # ``mode``: "python" inside a kernel run as plain Python (the kernels it
# calls run so too), or what ``forced`` asked for


def _elements(args: tuple[Any, ...]) -> int:
    return sum(int(getattr(a, "size", 0)) for a in args if hasattr(a, "dtype"))


class Kernel:
    """A function compiled by numba on its first (big enough) call; see the module notes."""

    def __init__(self, fn: Callable[..., Any], options: dict[str, Any], python_below: int) -> None:
        self.py_func = fn
        self.options = options
        self.python_below = python_below
        self._compiled: Callable[..., Any] | None = None
        self._binding: Callable[..., Any] | None = None  # the dispatcher while its callees bind
        functools.update_wrapper(self, fn)

    def compiled(self) -> Callable[..., Any]:
        """The numba dispatcher (imports numba the first time)."""
        if self._compiled is None:
            with _lock:
                if self._compiled is None:
                    if self._binding is not None:  # a recursive kernel (perft) names itself
                        return self._binding
                    import numba

                    clone = _clone(self.py_func)
                    self._binding = numba.njit(**self.options)(clone)  # compiles on its first call
                    try:
                        _bind_kernels(clone)
                        self._compiled = self._binding
                    finally:
                        self._binding = None
        return self._compiled

    def __call__(self, *args: Any) -> Any:
        mode = getattr(_local, "mode", None)
        if mode == "python":
            return self.py_func(*args)
        if mode is None and self.python_below and "numba" not in sys.modules:
            if _elements(args) < self.python_below:
                with forced("python"):
                    return self.py_func(*args)
        return self.compiled()(*args)


@contextlib.contextmanager
def forced(mode: Literal["python", "compiled"]) -> Iterator[None]:
    """Run every kernel called in this thread as plain Python or compiled (tests compare the two)."""
    before = getattr(_local, "mode", None)
    _local.mode = mode
    try:
        yield
    finally:
        _local.mode = before


def _clone(fn: Callable[..., Any]) -> types.FunctionType:
    """``fn`` with a copy of its globals, for ``_bind_kernels`` to change. Same code, file and
    name, so numba's cache still finds it."""
    assert isinstance(fn, types.FunctionType)
    clone = types.FunctionType(
        fn.__code__, dict(fn.__globals__), fn.__name__, fn.__defaults__, fn.__closure__
    )
    clone.__qualname__ = fn.__qualname__
    clone.__module__ = fn.__module__
    clone.__doc__ = fn.__doc__
    clone.__kwdefaults__ = fn.__kwdefaults__
    return clone


def _bind_kernels(clone: types.FunctionType) -> None:
    """Replace the kernels ``clone`` names by their dispatchers (numba types a call to a
    dispatcher, not to a ``Kernel``), in its own copy of the globals."""
    names = clone.__code__.co_names  # the globals it reads and the attributes it looks up
    scope = clone.__globals__
    for name in names:
        value = scope.get(name)
        if isinstance(value, Kernel):
            scope[name] = value.compiled()
        elif isinstance(value, types.ModuleType):  # ``engine.generate(...)``: a module's kernel
            kernels = {a: k for a in names if isinstance(k := getattr(value, a, None), Kernel)}
            if kernels:
                scope[name] = _module_with_compiled(value, kernels)


def _module_with_compiled(module: types.ModuleType, kernels: dict[str, Kernel]) -> types.ModuleType:
    """A stand-in for ``module`` whose ``kernels`` are their dispatchers (numba reads a module's
    attributes when it types the function; the real module keeps its ``Kernel`` objects)."""
    twin = types.ModuleType(module.__name__, module.__doc__)
    twin.__dict__.update(vars(module))
    for attribute, kernel in kernels.items():
        setattr(twin, attribute, kernel.compiled())
    return twin


def njit(*, python_below: int = 0, **options: Any) -> Callable[[F], F]:
    """``numba.njit(**options)``, loaded on the first call (``python_below``: see the module notes)."""

    def decorate(fn: F) -> F:
        return Kernel(fn, options, python_below)  # type: ignore[return-value]  # called like fn

    return decorate
