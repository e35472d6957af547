"""Reader of the community ``.flow`` text format (the one a popular Python Flow solver reads).

Optional directive lines ``# type: square|hex``, ``# fill: true|false``, ``# size: WxH``; a ``#``
followed by whitespace and no colon is a comment. Other directives (the community's image importer
writes ``# crop: ...``, ``# source_image: ...``, ``# generated: ...``) are read as comments and
named once in the puzzle's ``notes``. Then one board row per line: one token per
character, or whitespace-separated tokens when the row contains spaces. Tokens: ``.`` empty, ``#``
hole, ``+`` bridge, anything else a colour label (labels may be longer than one character in the
spaced form). Hex boards use the odd-r layout (odd rows shifted half a cell right), as ours do.

Labels become our colour labels: kept when every label already is one (``A-Z a-z 0-9`` or a
number 1..999), else given mnemonic letters in order of first appearance (red, blue, yellow, ...),
or the numbers 1, 2, 3, ... when there are more than 62. ``fill: false``
(cells may stay empty) opens the puzzle under Numberlink rules.
"""

from __future__ import annotations

import itertools
import re

from solvers.common.errors import ParseError
from solvers.common.limits import normalise, shown
from solvers.common.words import plural
from solvers.flow.model import (
    BRIDGE,
    EMPTY,
    FLOW_RULES,
    HOLE,
    LETTERS,
    MAX_NUMBER,
    MAX_SIDE,
    MNEMONIC_ORDER,
    NUMBERLINK,
    FlowPuzzle,
    is_label,
)

# Linear patterns only: the value is taken whole and stripped in Python. A lazy ``(.*?)\s*$`` here
# backtracked quadratically (a line of 100k tabs after ``# fill: t`` took 53 s, holding the GIL).
_DIRECTIVE = re.compile(r"\s*#\s*([A-Za-z_]+)\s*:(.*)")
_COMMENT = re.compile(r"^\s*#(\s|$)")
_TOKEN = re.compile(r"\S+")
_SIZE = re.compile(r"^([0-9]{1,4})\s*[xX]\s*([0-9]{1,4})$")  # ASCII digits only


KNOWN = ("type", "fill", "size")
# A '#' line with a word after it: a directive, a comment, or one of our spaced rows with a hole.
_HASH_WORD = re.compile(r"^[^\S\n]*#[^\S\n]*[A-Za-z_]", re.MULTILINE)
_MAX_NAMED = 5  # unknown directive names listed in the note
_MAX_LATE_LINES = 1_000  # '#' lines looked at after the rows (bounds the work on hostile files)


def looks_like(text: str) -> bool:
    """True if the leading ``#`` lines hold a directive or a comment that no board row could be
    (our own spaced rows may start with ``#``, a hole: ``# . A``), or if a known directive
    (``# type: hex``) follows the rows before any comment line (which would start our paths
    section): read as a paths header, it would be lost and a hex board solved as square."""
    for line in normalise(text[:20_000]).split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            break
        if _DIRECTIVE.match(line):
            return True
        if _COMMENT.match(line) and any(len(t) > 1 for t in _TOKEN.findall(stripped)):
            return True
    else:
        return False
    text = normalise(text)
    for seen, found in enumerate(_HASH_WORD.finditer(text)):
        if seen == _MAX_LATE_LINES:
            return False
        end = text.find("\n", found.start())
        line = text[found.start() : len(text) if end < 0 else end]
        directive = _DIRECTIVE.match(line)
        if directive and directive.group(1).lower() in KNOWN:
            return True
        if _COMMENT.match(line) and any(len(t) > 1 for t in _TOKEN.findall(line)[1:2]):
            return False  # a comment line: our paths section (or notes) starts here
    return False


def parse(text: str) -> FlowPuzzle:
    hexagonal = False
    size: tuple[int, int, int] | None = None  # width, height, line
    rows: list[list[tuple[str, int]]] = []  # (token, column)
    row_lines: list[int] = []
    ignored: dict[str, int] = {}  # unknown directive name -> line of its first use
    given: dict[str, tuple[str, int]] = {}  # known directive -> (its value, its line)
    rules = FLOW_RULES
    for number, line in enumerate(normalise(text).split("\n"), start=1):
        if len(rows) > MAX_SIDE:
            raise ParseError(f"board is taller than {MAX_SIDE} rows", number)
        if not line.strip():
            continue
        directive = _DIRECTIVE.match(line)
        if directive:
            key, raw = directive.group(1).lower(), directive.group(2)
            value = raw.strip()
            column = directive.start(2) + len(raw) - len(raw.lstrip()) + 1
            if key in KNOWN:
                _repeated(key, value, given, number, column)
            if key == "type":
                if value.lower() not in ("square", "hex"):
                    raise ParseError(f"# type: must be square or hex, got {shown(value)}", number, column)
                hexagonal = value.lower() == "hex"
            elif key == "fill":
                if value.lower() not in ("true", "false"):
                    raise ParseError(f"# fill: must be true or false, got {shown(value)}", number, column)
                rules = NUMBERLINK if value.lower() == "false" else FLOW_RULES  # cells may stay empty
            elif key == "size":
                found = _SIZE.match(value)
                if not found or not all(1 <= int(n) <= MAX_SIDE for n in found.groups()):
                    raise ParseError(
                        f"# size: expected WxH with W and H in 1..{MAX_SIDE}, got {shown(value)}",
                        number,
                        column,
                    )
                size = (int(found.group(1)), int(found.group(2)), number)
            elif key in ("shape", "walls"):
                # Our own header keys behind a '#': ignoring them would solve another board.
                raise ParseError(
                    f"'# {key}:' is no community directive (write the header line '{key}: ...' without "
                    "'#', or use # type: hex)",
                    number,
                    1,
                )
            else:
                # The community's own tools write metadata (crop, source_image, generated): such
                # lines are read as comments and named once, never refused.
                ignored.setdefault(key, number)
            continue
        if _COMMENT.match(line):
            continue
        body = line.rstrip()
        # At most MAX_SIDE + 1 tokens are read: a multi-megabyte row fails fast.
        if " " in body.strip() or "\t" in body.strip():
            found_tokens = ((m.group(), m.start() + 1) for m in _TOKEN.finditer(body))
            tokens = list(itertools.islice(found_tokens, MAX_SIDE + 1))
        else:
            start = len(body) - len(body.lstrip())
            tokens = [(ch, start + i + 1) for i, ch in enumerate(body.strip()[: MAX_SIDE + 1])]
        if len(tokens) > MAX_SIDE:
            raise ParseError(f"board is wider than {MAX_SIDE} cells", number, tokens[MAX_SIDE][1])
        if rows and len(tokens) != len(rows[0]):
            column = tokens[len(rows[0])][1] if len(tokens) > len(rows[0]) else len(body) + 1
            raise ParseError(
                f"ragged rows: this row has {plural(len(tokens), 'cell')}, the first row has {len(rows[0])}",
                number,
                column,
            )
        rows.append(tokens)
        row_lines.append(number)
    if not rows:
        raise ParseError("empty board: no rows found")
    if size is not None and (size[0], size[1]) != (len(rows[0]), len(rows)):
        raise ParseError(
            f"# size: says {size[0]}x{size[1]} but the board is {len(rows[0])}x{len(rows)} (width x height)",
            size[2],
        )
    labels: dict[str, list[tuple[int, int]]] = {}  # label -> (row index, token index) of each use
    for r, tokens in enumerate(rows):
        for c, (token, _) in enumerate(tokens):
            if token not in (EMPTY, HOLE, BRIDGE):
                labels.setdefault(token, []).append((r, c))
    for label, uses in labels.items():
        if len(uses) != 2:
            r, c = uses[1 if len(uses) == 1 else 2] if len(uses) > 2 else uses[0]
            # Our plain boards write '-' for an empty cell; a '#' comment line above one makes it
            # a community file, where only '.' is: say so rather than leave the user guessing.
            dash = " (a '#' line above the board makes this a community .flow file, where only '.' is an empty cell)"
            raise ParseError(
                f"colour {shown(label)} appears {len(uses)} time{'s' if len(uses) != 1 else ''} (needs exactly 2)"
                + (dash if label == "-" and len(uses) > 2 else ""),
                row_lines[r],
                rows[r][c][1],
            )
    letter = our_labels(list(labels))
    cells = tuple(letter.get(token, token) for tokens in rows for token, _ in tokens)
    puzzle = FlowPuzzle(len(rows), len(rows[0]), cells, hex=hexagonal, rules=rules, notes=_notes(ignored))
    for message, cell in puzzle.problems():
        if cell is None:
            raise ParseError(message)
        raise ParseError(message, row_lines[cell[0]], rows[cell[0]][cell[1]][1])
    return puzzle


def _repeated(key: str, value: str, given: dict[str, tuple[str, int]], number: int, column: int) -> None:
    """A known directive given twice must say the same: ``# fill: true`` and later ``# fill:
    false`` were read as the last one, silently (QA pass 8), and each reading solves another puzzle."""
    first = given.setdefault(key, (value, number))
    if "".join(first[0].lower().split()) != "".join(value.lower().split()):  # '3x3' = '3 X 3'
        raise ParseError(
            f"a second '# {key}:' line says {shown(value)}, the first (line {first[1]}) {shown(first[0])}",
            number,
            column,
        )


def our_labels(labels: list[str]) -> dict[str, str]:
    """Our label for each of another tool's labels (in order of first appearance): kept when every
    one already is ours (letters and numbers 1..999), else mnemonic letters in order, or the
    numbers 1, 2, 3, ... when there are more than 62."""
    if all(is_label(label) for label in labels):
        return {label: label for label in labels}
    if len(labels) <= len(LETTERS):
        return {label: MNEMONIC_ORDER[i] for i, label in enumerate(labels)}
    if len(labels) <= MAX_NUMBER:
        return {label: str(i) for i, label in enumerate(labels, start=1)}  # numbered in order
    raise ParseError(f"{len(labels)} colours; at most {MAX_NUMBER} are supported")


def _notes(ignored: dict[str, int]) -> tuple[str, ...]:
    if not ignored:
        return ()
    names = ", ".join(shown(name) for name in itertools.islice(ignored, _MAX_NAMED))
    more = f" and {len(ignored) - _MAX_NAMED:,} more" if len(ignored) > _MAX_NAMED else ""
    s = "s" if len(ignored) != 1 else ""
    kept = "a comment" if len(ignored) == 1 else "comments"
    return (f"ignored unknown directive{s} {names}{more} (read as {kept})",)
