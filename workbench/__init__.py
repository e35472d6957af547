"""Puzzle Workbench application shell: main window, documents, jobs, export and CLI."""

__version__ = "0.1.0"
