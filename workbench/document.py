"""A document: one puzzle of one kind, its entries, its file, and its undo history.

Only the puzzle (givens) and entries are on the undo stack; UI state is not: the plug-in's per-document
UI state (``ui``, from ``plugin.new_ui``: a drag's source, a stroke's value) lives here, one per
document, and the view's own (cursor, shown solution) lives in the view.
Each change is one ``StateCommand`` holding the old and new immutable values, so undo is exact.
One gesture (a press, its drags and its release; or one key) is one undo step: results merge only
within the gesture that produced them, never across gestures with the same merge key.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from solvers.common.errors import InputError
from solvers.common.protocol import EditResult, PluginBase, read_text
from workbench.files import atomic_write

MAX_FILE_BYTES = 16 * 1024 * 1024  # a backstop: the shared reader has its own (smaller) cap


def read_document_text(path: Path) -> str:
    """Read a puzzle file through the shared reader, refusing devices, FIFOs and huge files first."""
    try:
        if not path.is_file():
            what = "no such file" if not path.exists() else "not a regular file"
            raise InputError(f"{path}: {what}")
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(f"{path}: cannot read file ({exc.strerror or exc})") from exc
    if size > MAX_FILE_BYTES:
        raise InputError(f"{path}: file too large ({size:,} bytes; a puzzle file is far smaller)")
    return read_text(path)


class StateCommand(QUndoCommand):
    def __init__(
        self, doc: Document, old: tuple[Any, Any], new: tuple[Any, Any], label: str, key: str | None
    ):
        super().__init__(label)
        self.doc = doc
        self.old = old
        self.new = new
        self.key = key
        self.renames = False  # merged into a step, this one's text names it ("Place 12", not "Place 1")
        self.vanishes = False  # merged into a step that then changes nothing, the step goes
        self.joins = False  # a reply that belongs to the step before it (EditResult.joins_previous)

    def id(self) -> int:
        return -1 if self.key is None else zlib.crc32(self.key.encode()) & 0x7FFFFFFF

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt API)
        if not isinstance(other, StateCommand) or other.key != self.key or self.key is None:
            return False
        self.new = other.new
        if other.joins:  # "Play O1→R1C2, then Computer plays X2→R3C1": Undo names both
            self.setText(f"{self.text()}, then {other.text()}")
        elif (self.text() == "Edit" or other.renames) and other.text() != "Edit":
            self.setText(other.text())  # the step is named after what it changed
        self.setObsolete(other.vanishes and self.new == self.old)  # see EditResult.vanish_if_unchanged
        return True

    def redo(self) -> None:
        self.doc._set_state(*self.new)

    def undo(self) -> None:
        self.doc._set_state(*self.old)


class Document(QObject):
    changed = Signal()  # puzzle or entries changed
    file_changed = Signal()  # path or clean state changed

    def __init__(self, plugin: PluginBase, puzzle: Any = None, entries: Any = None) -> None:
        super().__init__()
        self.plugin = plugin
        self.puzzle = plugin.default_puzzle() if puzzle is None else puzzle
        self.entries = plugin.empty_entries(self.puzzle) if entries is None else entries
        self.ui: Any = plugin.new_ui(self.puzzle)  # the plug-in's UI state for this document only
        self.path: Path | None = None
        # The file an untitled document was read from when Save must not write over it (another
        # tool's form, a collection of puzzles): named in the title and offered by Save As.
        self.origin: Path | None = None
        # A sample's name: Save As offers it (in the last folder saved to, never the app's own).
        self.template_name: str | None = None
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self._merge_open = False
        self._gesture = 0  # numbers gestures so that two drags never merge into one step

    generation = 0  # counts fresh documents (reset): views tell "a new document" from "an edit"

    def _clean_changed(self, _clean: bool) -> None:
        self.file_changed.emit()

    # ---- state --------------------------------------------------------------------------------
    def _set_state(self, puzzle: Any, entries: Any) -> None:
        self.puzzle = puzzle
        self.entries = entries
        self.changed.emit()

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def apply(self, result: EditResult) -> bool:
        """Push one undoable change. Returns False if nothing changed."""
        puzzle = self.puzzle if result.puzzle is None else result.puzzle
        entries = self.entries if result.entries is None else result.entries
        if result.puzzle is not None and result.entries is None and puzzle is not self.puzzle:
            # New givens can invalidate the player's entries; keep them only if they still fit.
            entries = self.plugin.adapt_entries(puzzle, self.entries)
        if puzzle == self.puzzle and entries == self.entries:
            return False
        if not self._merge_open:
            self._gesture += 1
        key = None if result.merge_key is None else f"{self._gesture}:{result.merge_key}"
        if result.joins_previous:
            key = self._join_key()
        command = StateCommand(self, (self.puzzle, self.entries), (puzzle, entries), result.label, key)
        command.joins = result.joins_previous and key is not None
        command.renames = result.key_merge
        command.vanishes = result.vanish_if_unchanged
        self.undo_stack.push(command)
        self._merge_open = result.merge_key is not None
        return True

    def _join_key(self) -> str | None:
        """The merge key that makes the next command part of the step on top of the stack (the one
        that led to the shown state), or None: no such step, or the file was saved after it (Qt
        never merges into the saved step)."""
        index = self.undo_stack.index()
        top = self.undo_stack.command(index - 1) if index else None
        if not isinstance(top, StateCommand) or index == self.undo_stack.cleanIndex():
            return None
        if top.key is None:
            top.key = f"joined {self._gesture}"  # a result's key starts with its gesture's number
        return top.key

    def end_merge(self) -> None:
        """Close the current drag so the next change starts a new undo step."""
        self._merge_open = False

    def replace(self, puzzle: Any, label: str, entries: Any = None) -> None:
        """Replace the whole puzzle as one undo step, keeping the file (resize, text edit)."""
        self.end_merge()
        self.apply(
            EditResult(
                puzzle=puzzle,
                entries=self.plugin.empty_entries(puzzle) if entries is None else entries,
                label=label,
            )
        )

    def replace_untitled(self, puzzle: Any, label: str, entries: Any = None) -> None:
        """New content from elsewhere (paste, generator, a panel's result) as one undo step.

        The document forgets its file: Save must ask for a name rather than overwrite the file
        it was opened from with unrelated content.
        """
        self.replace(puzzle, label, entries)
        self.template_name = None
        self._set_path(None)

    def reset(
        self, puzzle: Any, entries: Any = None, path: Path | None = None, origin: Path | None = None
    ) -> None:
        """A fresh document (new puzzle, sample, inline input, opened file): no history, unmodified."""
        self.end_merge()
        self.origin = origin
        self.template_name = None
        self.puzzle = puzzle
        self.entries = self.plugin.empty_entries(puzzle) if entries is None else entries
        self.ui = self.plugin.new_ui(puzzle)
        self.path = path
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.generation += 1
        self.changed.emit()
        self.file_changed.emit()

    def _set_path(self, path: Path | None) -> None:
        if path != self.path or self.origin is not None:
            self.path = path
            self.origin = None
            self.file_changed.emit()

    # ---- files --------------------------------------------------------------------------------
    def load(
        self,
        path: Path,
        *,
        template: bool = False,
        choose: Callable[[str, list[str]], int | None] | None = None,
    ) -> bool:
        """Open a file; ``template`` (samples) leaves the document untitled so Save asks for a name.
        A file of several puzzles (``collection``) asks ``choose(file name, lines)`` which one
        (None: keep the document as it is, return False); without ``choose``, the first.

        Raises ``InputError`` for anything unreadable, including what is not a regular file
        (a device such as /dev/zero would read for ever, a FIFO would block).
        """
        found = self.read(path, choose)
        if found is None:
            return False
        self.adopt(path, found, template=template)
        return True

    def read(
        self, path: Path, choose: Callable[[str, list[str]], int | None] | None = None
    ) -> tuple[Any, Any, str] | None:
        """``load``'s reading: (puzzle, entries, text) of the file, the document unchanged; None
        if ``choose`` picked no puzzle. The shell reads before it asks to discard unsaved edits:
        a file that cannot be opened must not cost them the question (QA pass 7)."""
        text = read_document_text(path)
        listed = self.plugin.collection(text) if choose is not None else []
        index = choose(path.name, listed) if len(listed) > 1 and choose is not None else 0
        if index is None:
            return None
        # The chosen puzzle, the first too: its note says "puzzle 1 of 12 in the file", not the
        # command line's "'flow split FILE' writes each" (clipped under the board as well).
        puzzle, entries = (
            self.plugin.parse_document_at(text, index)
            if len(listed) > 1
            else self.plugin.parse_document(text)
        )
        return puzzle, entries, text

    def adopt(self, path: Path, found: tuple[Any, Any, str], *, template: bool = False) -> None:
        """Make what ``read`` found the document's content, named after ``path``."""
        puzzle, entries, text = found
        if template:
            self.reset(puzzle, entries)
            self.template_name = path.stem
            self.file_changed.emit()  # the title names the sample
        elif not self.plugin.writes_back(text):  # Save would turn the file into another one
            self.reset(puzzle, entries, origin=path)
        else:
            self.reset(puzzle, entries, path)

    def save(self, path: Path | None = None) -> Path:
        target = path or self.path
        if target is None:
            raise InputError("no file name")
        text = self.plugin.serialize_document(self.puzzle, self.entries)
        atomic_write(target, text)
        self.path = target
        self.origin = None
        self.undo_stack.setClean()
        self.file_changed.emit()
        return target

    def suggested_name(self, ext: str, last_folder: str) -> str:
        """Where Save As starts: beside the document's file (or the file it was read from but
        must not write over) under its name, else the sample's name or "untitled" in the last
        folder saved to (never the working folder)."""
        source = self.path or self.origin
        folder = str(source.parent) if source else last_folder
        base = self.base_name()
        return str(Path(folder) / f"{base}{ext}") if folder else f"{base}{ext}"

    def base_name(self) -> str:
        """The name without folder and extension: the file's, the sample's, or "untitled"."""
        source = self.path or self.origin
        return source.stem if source else self.template_name or "untitled"

    def display_name(self) -> str:
        """The file's name, "untitled", or "untitled, from X" for a file not ours to write over."""
        if self.path is not None:
            return self.path.name
        if self.origin is None:  # a sample's name beside "untitled" (QA pass 7: which sample is it?)
            return f"untitled, from the sample {self.template_name}" if self.template_name else "untitled"
        return f"untitled, from {self.origin.name}"

    def title(self) -> str:
        name = self.display_name()
        return f"{name}{' *' if self.dirty else ''}"
