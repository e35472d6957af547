"""Qt-free puzzle and game library of Puzzle Workbench.

Every sub-package except ``common`` is one plug-in; see ``solvers.common.registry``.
Nothing under this package may import Qt (enforced by ``tests/test_architecture.py``).
"""
