"""``python -m workbench``, the ``puzzle-workbench`` gui-script and the bundle's entry point."""

from __future__ import annotations

import sys


def main() -> int:
    argv = sys.argv[1:]
    if getattr(sys, "frozen", False):
        _frozen_start()
    from solvers.common.process_jobs import worker_main

    # A job worker (process_jobs.worker_command): a frozen bundle starts itself with a flag,
    # because its executable is the application, not a Python that takes ``-c``.
    if worker_main(argv):
        return 0
    from workbench.cli import main as cli_main

    return cli_main(argv)


def _frozen_start() -> None:
    """A PyInstaller bundle: multiprocessing's spawned children (the Nine Tiles store build) re-enter
    here and must run their task, and numba caches kernels in the user's cache folder (the
    bundle's own folder may be read-only)."""
    import multiprocessing

    multiprocessing.freeze_support()
    from workbench import user_paths

    user_paths.set_numba_cache_default()


if __name__ == "__main__":
    sys.exit(main())
