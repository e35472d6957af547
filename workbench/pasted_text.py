"""Which module reads a pasted text, and what to say when none can.

A puzz.link URL or pzprv3 file names its puzzle type, so it belongs to the module that reads that
type wherever it was pasted; a reading error is then that module's ("the URL body is truncated"),
not "not a Flow Free puzzle". Qt-free, so it is tested without a window.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solvers.common import registry
from solvers.common.errors import InputError
from solvers.common.protocol import PluginBase
from solvers.common.pzpr_url import puzzle_type


def read_elsewhere(body: str, shown: PluginBase) -> tuple[PluginBase, tuple[Any, Any]] | None:
    """Another module and its reading of ``body``, when the shown module cannot read it: the
    module whose puzzle type the text names, else (one-line texts with '/' and no blanks, e.g. a
    URL of a host or form nobody claims) the first module that reads it. A plain board never opens
    in another module. None if no other module reads it."""
    others = [p for p in registry.plugins().values() if p is not shown]
    claimed = [p for p in others if p.claims(body)]
    one_line_url = "\n" not in body and "/" in body and not any(ch.isspace() for ch in body)
    for plugin in claimed or (others if one_line_url else []):
        try:
            return plugin, plugin.parse_document(_as_file(body))
        except Exception:  # InputError, or a reader's bug: that module does not read it
            continue
    return None


def reading_error(body: str, shown: PluginBase, error: InputError) -> str:
    """The one line to show when no module reads ``body`` (``error``: the shown module's)."""
    kind = puzzle_type(body)
    if shown.claims(body):
        return f"Cannot read this {kind} puzzle: {error}"
    for plugin in registry.plugins().values():
        if plugin is not shown and plugin.claims(body):
            try:
                plugin.parse_document(_as_file(body))
            except InputError as other:
                return f"Cannot read this {kind} puzzle ({plugin.meta.name}): {other}"
            except Exception:  # a reader's bug: the shown module's word stands
                break
    return with_other_readers(f"Not a {shown.meta.name} puzzle: {error}", _as_file(body), shown)


def with_other_readers(said: str, text: str, shown: PluginBase, *, cli: bool = False) -> str:
    """``said`` (why ``shown`` cannot read ``text``), and which other modules can: "... It reads as
    a Tokyo Doves file: choose Tokyo Doves on the left and open it there." (QA pass 7: another
    module's position gave only "ragged rows: this row has 1 cells"); on the command line, the
    kind to give instead. A plain text still opens only in the module it was given to."""
    readers = other_readers(text, shown)
    if not readers:
        return said
    names = [plugin.meta.name for plugin in readers]
    article = "an" if names[0][0] in "AEIOUX" else "a"  # "an X-ceter-O file"
    if cli:
        advice = "give its kind instead: " + " or ".join(plugin.meta.id for plugin in readers)
    else:
        advice = f"choose {names[0] if len(names) == 1 else 'one of them'} on the left and open it there"
    hint = f" It reads as {article} {' or '.join(names)} file: {advice}."
    return f"{said}.{hint}" if not said.endswith(".") else said + hint


def other_readers(text: str, shown: PluginBase) -> list[PluginBase]:
    """The modules other than ``shown`` that read ``text`` (none for a text over 200 KB)."""
    if len(text) > 200_000:
        return []
    readers = []
    for plugin in registry.plugins().values():
        if plugin is shown:
            continue
        try:
            plugin.parse_document(text)
        except Exception:  # InputError, or a reader's bug: that module does not read it
            continue
        readers.append(plugin)
    return readers


def read_pasted(
    plugin: PluginBase, body: str, choose: Callable[[str, list[str]], int | None]
) -> tuple[Any, Any] | None:
    """The shown module's reading of a pasted text. A text of several puzzles (a level pack, a
    'W H' collection) asks ``choose`` which one, as File > Open does, so its note says "puzzle 2 of
    12" rather than the command line's "'flow split' writes each"; None when that is cancelled."""
    text = _as_file(body)
    listed = plugin.collection(text)
    if len(listed) > 1:
        index = choose("the pasted text", listed)
        return None if index is None else plugin.parse_document_at(text, index)
    return plugin.parse_document(text)


def _as_file(body: str) -> str:
    """A stripped paste as a file would hold it: a text of several lines ends with a newline."""
    return body + ("\n" if "\n" in body else "")
