"""Unhandled exceptions in the GUI: a log file, a report, and a dialog instead of a silent failure.

PySide6 hands an exception that escapes a slot to ``sys.excepthook`` and goes on with the event
loop, so the window and its documents survive: the dialog says what happened, offers the report to
copy and a copy of the puzzle to save. Everything also goes to a rotating log file in the user log
folder (``user_paths.log_dir()``), together with Qt's own warnings.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
import traceback
from collections import deque
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import TracebackType
from typing import Any

from PySide6.QtCore import QMessageLogContext, QObject, QtMsgType, Signal, qInstallMessageHandler

from workbench import user_paths

LOG_NAME = "puzzle-workbench.log"
LOG_BYTES = 1_000_000  # per file; with the backups at most ~4 MB of log
LOG_BACKUPS = 3
LOGGER = "puzzle_workbench"
_ACTIONS: deque[str] = deque(maxlen=20)

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]


def log() -> logging.Logger:
    return logging.getLogger(LOGGER)


def note(action: str) -> None:
    """Remember a user action for the next crash report (menu commands, files, modules)."""
    _ACTIONS.append(f"{time.strftime('%H:%M:%S')} {action}")
    log().debug("action: %s", action)


def last_actions() -> list[str]:
    return list(_ACTIONS)


def setup_log(folder: Path | None = None) -> Path | None:
    """A rotating log file in ``folder`` (default: the user log folder); None if it cannot be made.

    Called again (a second window, a test), it replaces the earlier file handler instead of adding one.
    """
    folder = folder or user_paths.log_dir()
    logger = log()
    for handler in [h for h in logger.handlers if isinstance(h, RotatingFileHandler)]:
        logger.removeHandler(handler)
        handler.close()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(
            folder / LOG_NAME, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8"
        )
    except OSError as exc:  # a read-only home must not keep the application from starting
        print(f"puzzle-workbench: no log file in {folder}: {exc}", file=sys.stderr)
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    return folder / LOG_NAME


def log_path() -> Path | None:
    for handler in log().handlers:
        if isinstance(handler, RotatingFileHandler):
            return Path(handler.baseFilename)
    return None


def report_text(info: ExcInfo, module: str, documents: list[str]) -> str:
    """The copyable report: what happened, versions, module, open documents, last actions, traceback."""
    from workbench.about import versions

    exc_type, exc, tb = info
    lines = [f"Puzzle Workbench crash report ({time.strftime('%Y-%m-%d %H:%M:%S')})", ""]
    lines.append(f"Error: {exc_type.__name__}: {exc}")
    lines.append(f"Module: {module}")
    lines += ["", "Versions:"] + [f"  {name}: {value}" for name, value in versions()]
    lines += ["", "Open documents:"] + [f"  {d}" for d in documents or ["(none)"]]
    lines += ["", "Last actions (oldest first):"] + [f"  {a}" for a in last_actions() or ["(none)"]]
    lines += ["", "Traceback:", "".join(traceback.format_exception(exc_type, exc, tb)).rstrip()]
    where = log_path()
    lines += ["", f"Log file: {where if where else '(none)'}"]
    return "\n".join(lines)


def _qt_message(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
    from workbench.qt_app import OFFSCREEN_NOISE

    if message == OFFSCREEN_NOISE:
        return
    level = {
        QtMsgType.QtDebugMsg: logging.DEBUG,
        QtMsgType.QtInfoMsg: logging.INFO,
        QtMsgType.QtWarningMsg: logging.WARNING,
        QtMsgType.QtCriticalMsg: logging.ERROR,
        QtMsgType.QtFatalMsg: logging.CRITICAL,
    }.get(mode, logging.WARNING)
    log().log(level, "Qt %s: %s", context.category or "default", message)
    if level >= logging.WARNING:
        sys.stderr.write(f"{message}\n")


class CrashHandler(QObject):
    """Installs ``sys.excepthook`` (and ``threading.excepthook``) for one main window."""

    crashed = Signal(object)  # the exc_info; a queued hop to the GUI thread for thread exceptions

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.dialog: Any = None
        self.count = 0
        self.crashed.connect(self._show)
        self._previous = (sys.excepthook, threading.excepthook)

    def install(self) -> None:
        sys.excepthook = self.handle
        threading.excepthook = self._thread_hook
        qInstallMessageHandler(_qt_message)

    def uninstall(self) -> None:
        sys.excepthook, threading.excepthook = self._previous
        qInstallMessageHandler(None)

    def _thread_hook(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            self.handle(args.exc_type, args.exc_value, args.exc_traceback)

    def handle(self, exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            self._previous[0](exc_type, exc, tb)
            return
        log().error("unhandled exception", exc_info=(exc_type, exc, tb))
        traceback.print_exception(exc_type, exc, tb)  # a terminal user sees it as before
        self.crashed.emit((exc_type, exc, tb))

    def _show(self, info: ExcInfo) -> None:
        self.count += 1
        try:
            view = self.window.current()
            module = f"{view.plugin.meta.name} ({view.plugin.meta.id})"
        except Exception:  # the window itself may be what broke
            module = "(unknown)"
        report = report_text(info, module, self._documents())
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.add_report(report)  # one dialog for a burst of errors (a paint loop)
            return
        from workbench.crash_dialog import CrashDialog

        self.dialog = CrashDialog(self.window, info, report, log_path())
        self.dialog.show()  # non-modal: the event loop and the documents go on

    def _documents(self) -> list[str]:
        rows = []
        for kind, view in getattr(self.window, "views", {}).items():
            doc = view.doc
            rows.append(f"{kind}: {doc.path or 'untitled'}{' (unsaved changes)' if doc.dirty else ''}")
        return rows
