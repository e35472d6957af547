"""Cancel token shared by solver generators and the job runner.

Solvers poll ``token.cancelled`` (or call ``raise_if_cancelled``) in their loops; C extensions that
block (python-sat) register an interrupt callback with ``on_cancel`` so cancelling reaches them too.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable


class Cancelled(Exception):
    """Raised inside a solver when its token was cancelled."""


class CancelToken:
    def __init__(self, timeout: float | None = None) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self.reason: str | None = None  # why it fired: "timeout" (its deadline) or what cancel() was told

    @property
    def cancelled(self) -> bool:
        if not self._event.is_set() and self._deadline is not None and time.monotonic() > self._deadline:
            self.cancel("timeout")
        return self._event.is_set()

    def cancel(self, reason: str = "cancelled") -> None:
        with self._lock:
            if self._event.is_set():
                return
            self.reason = reason
            self._event.set()
            callbacks = list(self._callbacks)
        for callback in callbacks:
            try:
                callback()
            except Exception:  # noqa: BLE001
                # cancel() runs on the GUI thread: one failing hook (e.g. a SAT back end whose
                # interrupt() is not implemented) must neither crash it nor skip the other hooks.
                logging.getLogger(__name__).exception("cancel callback failed")

    def raise_if_cancelled(self) -> None:
        if self.cancelled:
            raise Cancelled()

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run ``callback`` when cancelled (at once if already). Returns an unregister function."""
        with self._lock:
            already = self._event.is_set()
            if not already:
                self._callbacks.append(callback)
        if already:
            callback()

        def unregister() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return unregister

    def wait(self, seconds: float) -> bool:
        return self._event.wait(seconds)
