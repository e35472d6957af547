"""A document's background jobs: its Solve job and its panels' jobs, behind one progress row and
one Cancel. Results come back on the GUI thread; a job its owner replaced ends without a word."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from solvers.common.cancel import CancelToken
from solvers.common.job_relay import JobStatus
from solvers.common.protocol import ProgressFn
from widgets.job_progress import JobProgress
from workbench.jobs import Job, JobManager, JobOutcome


class DocumentJobs:
    def __init__(
        self,
        owner: QWidget,
        manager: JobManager,
        progress: JobProgress,
        busy_changed: Any,  # Signal(bool): a job started, or the last one ended
        say: Callable[[str], None],  # a job's final word for the status bar
    ) -> None:
        self.owner = owner
        self.manager = manager
        self.progress = progress
        self.busy_changed = busy_changed
        self.say = say
        self.solve: Job | None = None
        self.side: list[Job] = []
        # The one job the progress row follows (its title, time and texts), the first started of
        # those running: a job started later (Toichika's explanation after an edit) took the row
        # over from a generator still running, and Esc then named a job no longer shown.
        self.shown: Job | None = None
        self.relays: dict[Job, _Relay] = {}

    def start_solve(self, job: Job) -> None:
        """``job`` becomes the document's Solve job (its slots are the caller's)."""
        self.solve = job
        self._start(job)

    def run(
        self,
        title: str,
        work: Callable[[CancelToken, ProgressFn], Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[str], None] | None = None,
        on_cancel: Callable[[Any], None] | None = None,
    ) -> Job:
        """A panel's job (``PanelContext.run_job``): the callbacks run on the GUI thread."""
        job = Job(title, lambda cancel, progress, _emit: work(cancel, progress))
        receiver = _Callbacks(self, job, on_done, on_error, on_cancel)
        job.signals.finished.connect(receiver.finished)
        self.side.append(job)
        self._start(job)
        return job

    def _start(self, job: Job) -> None:
        self.relays[job] = _Relay(self, job)
        job.signals.progress.connect(self.relays[job].progress)
        if self.shown is None or self.shown.done:
            self.shown = job
            self.progress.start(job.title)
        self._name_row()
        self.manager.start(job)
        self.busy_changed.emit(True)

    def _running(self) -> list[Job]:
        return [j for j in [self.solve, *self.side] if j is not None and not j.done]

    def _name_row(self) -> None:
        """The followed job's title, and how many more run beside it."""
        if self.shown is not None:
            more = len(self._running()) - (not self.shown.done)
            self.progress.set_title(self.shown.title + (f" (and {more} more)" if more > 0 else ""))

    def finished(self) -> None:
        """A job ended: the row follows the next one still running, and goes once none runs."""
        running = self._running()
        self.side = [j for j in self.side if not j.done]
        for job in [j for j in self.relays if j.done]:
            self.relays.pop(job).deleteLater()
        if not running:
            self.shown = None
            self.progress.stop()
            self.busy_changed.emit(False)
            return
        if self.shown not in running:
            self.shown = running[0]
            self.progress.start(self.shown.title, since=self.relays[self.shown].started)
        self._name_row()

    def cancel_all(self, said: bool = True) -> None:
        """The user's Cancel (Esc): every job of this document stops and says so. Not ``said``
        when the document is replaced (open, paste, new, import): "Explanation cancelled" on the
        status bar of a file just opened named nothing the user did."""
        running = [job for job in [self.solve, *self.side] if job is not None and not job.done]
        for job in running:
            job.cancelled_by_user = said
            job.cancel()
        if said and running:
            self.progress.cancelling()

    def busy(self) -> bool:
        return bool(self._running())


class _Relay(QObject):
    """A job's progress, on the GUI thread, to the row while the row follows that job."""

    def __init__(self, jobs: DocumentJobs, job: Job) -> None:
        super().__init__(jobs.owner)
        self.jobs = jobs
        self.job = job
        self.started = time.monotonic()  # the row's clock when it comes to follow this job

    def progress(self, info: dict[str, object]) -> None:
        if self.jobs.shown is self.job:
            self.jobs.progress.update_progress(info)


class _Callbacks(QWidget):
    """GUI-thread receiver for a panel job (a lambda would run in the worker thread)."""

    def __init__(
        self,
        jobs: DocumentJobs,
        job: Job,
        on_done: Callable[[Any], None],
        on_error: Callable[[str], None] | None,
        on_cancel: Callable[[Any], None] | None = None,
    ) -> None:
        super().__init__(jobs.owner)
        self.setVisible(False)
        self.jobs = jobs
        self.job = job
        self.on_done = on_done
        self.on_error = on_error
        self.on_cancel = on_cancel

    def finished(self, outcome: JobOutcome) -> None:
        self.jobs.finished()
        try:
            if outcome.status == JobStatus.DONE:
                self.on_done(outcome.result)
            elif outcome.status == JobStatus.FAILED:
                if self.on_error is not None:
                    self.on_error(outcome.error)
                else:
                    self.jobs.say(f"{self.job.title} failed: {outcome.error}")
            else:
                if self.on_cancel is not None:
                    self.on_cancel(outcome.result)  # what it had found by then, if it said (or None)
                # A job its panel replaced (Doves: a new move restarts the analysis) ends quietly;
                # "Analysing Tokyo Doves cancelled" after every move said nothing the user did.
                if self.job.cancelled_by_user:
                    self.jobs.say(f"{self.job.title} cancelled")
        finally:
            self.deleteLater()
