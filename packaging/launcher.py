"""The bundle's entry script (PyInstaller analyses it): the same ``main`` as ``python -m workbench``."""

import sys

from workbench.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
