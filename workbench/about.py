"""Help > About: the version, the versions of the parts underneath, the data folders, the licences.

The same facts go into a crash report (``workbench.crash``), so they are plain functions first and
a dialog second.
"""

from __future__ import annotations

import platform
import sys
from html import escape
from importlib import import_module
from pathlib import Path

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from workbench import __version__, settings, user_paths

# (shown name, module, distribution) of what the application is built on.
COMPONENTS = (
    ("PySide6", "PySide6", "PySide6-Essentials"),
    ("numpy", "numpy", "numpy"),
    ("numba", "numba", "numba"),
    ("llvmlite", "llvmlite", "llvmlite"),
    ("python-sat", "pysat", "python-sat"),
    ("OpenCV", "cv2", "opencv-python-headless"),
)

# What a bundle ships and under which licence (the licence texts are in each package's metadata
# folder inside the bundle, ``_internal/*.dist-info``).
LICENCES = (
    ("Puzzle Workbench", "MIT"),
    ("Python", "PSF License 2.0"),
    ("Qt 6", "LGPL-3.0 (dynamically linked, replaceable)"),
    ("PySide6, Shiboken6", "LGPL-3.0"),
    ("numpy", "BSD-3-Clause (its OpenBLAS: BSD-3-Clause)"),
    ("numba, llvmlite", "BSD-2-Clause (LLVM: Apache-2.0 WITH LLVM-exception)"),
    ("python-sat", "MIT (its SAT solvers CaDiCaL, Glucose, MiniSat, Lingeling: MIT and MIT-style)"),
    ("OpenCV", "Apache-2.0 (the wheel's FFmpeg libraries: LGPL-2.1)"),
)


def frozen() -> bool:
    """True in a PyInstaller bundle (``sys.executable`` is then the application, not Python)."""
    return bool(getattr(sys, "frozen", False))


def _version_of(module: str, distribution: str) -> str:
    try:
        found = getattr(import_module(module), "__version__", "")
    except Exception:  # a broken optional part must not keep About (or a crash report) from showing
        found = ""
    if found:
        return str(found)
    try:
        from importlib.metadata import version

        return version(distribution)
    except Exception:
        return "not installed"


def versions() -> list[tuple[str, str]]:
    from PySide6.QtCore import qVersion

    rows = [
        ("Puzzle Workbench", __version__ + (" (bundle)" if frozen() else "")),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
        ("Qt", qVersion()),
    ]
    rows += [(name, _version_of(module, dist)) for name, module, dist in COMPONENTS]
    rows.append(("System", f"{platform.system()} {platform.release()} ({platform.machine()})"))
    return rows


def data_folders() -> list[tuple[str, Path]]:
    from solvers.doves.tablebase import default_dir as tablebase_dir
    from solvers.ninetiles.store import default_store_dir

    return [
        ("Tokyo Doves tablebases", tablebase_dir()),
        ("Nine Tiles store", default_store_dir()),
        ("Settings", Path(settings.settings().fileName())),
        ("Logs", user_paths.log_dir()),
        ("Cache (numba kernels)", user_paths.numba_cache_dir()),
    ]


def about_text() -> str:
    """The plain-text form (Copy, bug reports)."""
    lines = [f"Puzzle Workbench {__version__}", ""]
    lines += [f"{name}: {value}" for name, value in versions()]
    lines += ["", "Data folders:"]
    lines += [f"  {name}: {path}" for name, path in data_folders()]
    return "\n".join(lines)


def _table(rows: list[tuple[str, str]]) -> str:
    cells = "".join(f"<tr><td>{escape(a)}</td><td>&nbsp;{escape(b)}</td></tr>" for a, b in rows)
    return f"<table>{cells}</table>"


def about_html() -> str:
    return (
        f"<h2>Puzzle Workbench {escape(__version__)}</h2>"
        "<p>Draw, solve, analyse and export pencil puzzles and small abstract games.</p>"
        f"<h3>Versions</h3>{_table(versions())}"
        f"<h3>Data folders</h3>{_table([(n, str(p)) for n, p in data_folders()])}"
        f"<h3>Licences</h3>{_table(list(LICENCES))}"
    )


class AboutDialog(QDialog):
    """Non-modal, like the help pages; Copy puts the plain text on the clipboard."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About Puzzle Workbench")
        self.resize(620, 600)
        layout = QVBoxLayout(self)
        self.text = QTextBrowser()
        self.text.setHtml(about_html())
        layout.addWidget(self.text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton("&Copy", QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy)
        buttons.rejected.connect(self.close)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        layout.addWidget(buttons)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(about_text())
