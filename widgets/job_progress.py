"""Progress strip for background jobs: bar (or busy indicator), elapsed time, counts, Cancel.

Its texts come from the jobs (any length: the Nine Tiles store build's line is ~100 characters) and
must never set the window's minimum width: a plain QLabel did (1060 px on a 1024-px screen, Cancel
and the title bar's close button off-screen, until restart). They are elided, whole in the tooltip."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QSizePolicy, QWidget

from widgets.elided_label import ElidedLabel


class JobProgress(QWidget):
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = ElidedLabel()
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(220)
        self.bar.setTextVisible(True)
        self.detail = ElidedLabel()
        # Ignored: the text's natural width is no claim on the row; it takes what is left.
        self.detail.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.detail.setAccessibleName("Job progress")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the running job (Esc)")
        self.cancel_button.clicked.connect(self.cancel_requested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.title)
        layout.addWidget(self.bar)
        layout.addWidget(self.detail, 1)
        layout.addWidget(self.cancel_button)
        self._started = 0.0
        self._text = ""
        self._cancelling = False
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._tick)
        # Its row stays reserved while no job runs: appearing, it shrank the side panel and pushed
        # Toichika's Generate button (the button that started the job) out of view.
        policy = self.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.setSizePolicy(policy)
        self.setVisible(False)

    def start(self, title: str, since: float | None = None) -> None:
        """Follow a job: ``since`` is when it started (``time.monotonic``), if not now."""
        self.set_title(title)
        self.bar.setRange(0, 0)  # busy until a fraction arrives
        self._text = ""
        self._cancelling = False
        self.cancel_button.setEnabled(True)
        self._started = time.monotonic() if since is None else since
        self._tick()
        self._timer.start()
        self.setVisible(True)

    def set_title(self, title: str) -> None:
        self.title.setText(title)
        self.title.setToolTip(title)

    def update_progress(self, info: dict[str, object]) -> None:
        fraction = info.get("fraction")
        if isinstance(fraction, (int, float)):
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(max(0.0, min(1.0, float(fraction))) * 1000))
        parts = []
        if "found" in info:
            parts.append(f"{info['found']} found")
        if "text" in info:
            parts.append(str(info["text"]))
        self._text = ", ".join(parts)
        self._tick()

    def cancelling(self) -> None:
        """Esc was pressed: say so at once. A job stops at its next check, which can take seconds
        (the Nine Tiles table's build: 3-5 s), and the line went on counting as if nothing was asked."""
        self._cancelling = True
        self.cancel_button.setEnabled(False)
        self._tick()

    def _tick(self) -> None:
        elapsed = time.monotonic() - self._started
        text = f"{elapsed:.1f} s" + (f" — {self._text}" if self._text else "")
        if self._cancelling:
            text = f"cancelling… ({text})"
        self.detail.setText(text)
        self.detail.setToolTip(text)

    def stop(self) -> None:
        self._timer.stop()
        self._text = ""  # the hidden row keeps its size: no stale line in its size hint
        self.detail.setText("")
        self.detail.setToolTip("")
        self.setVisible(False)
