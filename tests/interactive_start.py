"""Closing a main window that ``workbench.app.run_gui`` started interactively (crash handler and
log handlers installed), as the tests of that start do."""

from __future__ import annotations

from typing import Any


def close_started_window(window: Any) -> None:
    from workbench import crash

    window.crash_handler.uninstall()
    window.confirm = lambda view: "discard"
    window.close()
    window.jobs.shutdown(5000)
    for handler in list(crash.log().handlers):
        crash.log().removeHandler(handler)
        handler.close()
