"""Start the GUI (optionally just to take a screenshot)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from solvers.common import registry
from solvers.common.errors import InputError
from workbench.main_window import MainWindow
from workbench.qt_app import ensure_app


def _wait(app: QApplication, seconds: float, until: object = None) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        if callable(until) and until():
            break
        time.sleep(0.01)


def run_gui(args: argparse.Namespace) -> int:
    app = ensure_app(headless=bool(args.screenshot))
    window = MainWindow()
    if args.kind:
        window.show_kind(registry.get(args.kind).meta.id)
    for name in args.files:
        window.open_path(name, args.kind)
    if args.open_input:
        source = Path(args.open_input)
        if source.is_file():
            ok = window.open_path(source, args.kind)
        else:
            ok = window.open_text(args.open_input, args.kind)
        if not ok and args.screenshot:
            raise InputError(f"cannot open {args.open_input}")
    if args.screenshot:
        width, _, height = str(args.size).partition("x")
        window.resize(int(width), int(height))
        window.show()
        _wait(app, 0.3)
        if args.solve:
            view = window.current()
            view.solve(2)
            _wait(app, 120, lambda: not view.busy())
            _wait(app, 0.3)
        out = Path(args.screenshot)
        if not window.grab().save(str(out)):
            raise InputError(f"{out}: could not write screenshot")
        print(out)
        window.close()
        return 0
    window.show()
    QTimer.singleShot(0, window.current().board.setFocus)
    return app.exec()
