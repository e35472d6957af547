"""pzprjs "pzprv3" save files: rows first, then country ids, clues and answers (one line per row).

Country ids are only labels: walls go wherever neighbouring ids differ, so a wall that separates
nothing (possible in a URL) cannot be stored here.
"""

from __future__ import annotations

from solvers.common.errors import ParseError
from solvers.common.limits import ascii_int, shown
from solvers.common.words import cell_name
from solvers.toichika.model import DIRECTIONS, DOT, MAX_SIZE, QUESTION, Entries, Toichika


def looks_like_pzprv3(text: str) -> bool:
    return text.lstrip().startswith("pzprv3")


def read_pzprv3(text: str) -> tuple[Toichika, Entries]:
    # Only the header and three blocks of at most MAX_SIZE rows are read: maxsplit bounds the work.
    head = text.replace("\r\n", "\n").replace("\r", "\n").split("\n", 5 + 3 * MAX_SIZE + 1)
    lines = [ln.rstrip() for ln in head]
    # lines[k] is file line k+1
    if not lines or not lines[0].strip().startswith("pzprv3"):
        raise ParseError("pzprv3: the first line must be 'pzprv3'", 1, 1)
    if len(lines) < 2 or lines[1].strip() != "toichika":
        raise ParseError("pzprv3: the second line must be 'toichika'", 2, 1)

    def number(k: int, name: str, limit: int) -> int:
        if k >= len(lines):
            raise ParseError(f"pzprv3: expected the number of {name}", k + 1, 1)
        return ascii_int(
            lines[k].strip(), f"pzprv3: the number of {name}", limit, minimum=1, line=k + 1, column=1
        )

    rows, cols = number(2, "rows", MAX_SIZE), number(3, "columns", MAX_SIZE)
    count = number(4, "countries", rows * cols)

    def table(first: int, what: str, allowed: str | None) -> list[list[str]]:
        out = []
        for k in range(first, first + rows):
            if k >= len(lines):
                raise ParseError(f"pzprv3: missing {what} row {k - first + 1}", k + 1, 1)
            tokens = lines[k].split()
            if len(tokens) != cols:
                raise ParseError(f"pzprv3: {what} row has {len(tokens)} entries, expected {cols}", k + 1, 1)
            if allowed is not None:
                for c, tok in enumerate(tokens):
                    if tok not in allowed.split():
                        raise ParseError(f"pzprv3: invalid {what} {shown(tok)}", k + 1, _column(tokens, c))
            out.append(tokens)
        return out

    ids = table(5, "country id", None)
    labels = [
        [
            ascii_int(
                tok,
                "pzprv3: country id",
                10**9,
                minimum=-(10**9),
                signed=True,
                line=6 + r,
                column=_column(ids[r], c),
            )
            for c, tok in enumerate(row)
        ]
        for r, row in enumerate(ids)
    ]
    clue_code = {".": 0, "1": 1, "2": 2, "3": 3, "4": 4, "-": QUESTION}
    clues = table(5 + rows, "clue", ". 1 2 3 4 -")
    used = len({label for row in labels for label in row})
    if used != count:
        # A wrong count means a damaged file (pzprjs writes the number of ids it numbers 0..n-1).
        raise ParseError(f"pzprv3: the file says {count} countries, the country ids name {used}", 5, 1)
    answers: list[list[str]]
    end = 5 + 2 * rows  # index of the first line after the clues
    if end < len(lines) and lines[end].strip() and not lines[end].startswith(_TRAILERS):
        answers = table(end, "answer", ". 1 2 3 4 +")
        _check_rest(lines, end + rows, "answer")
    else:
        answers = [["."] * cols for _ in range(rows)]
        _check_rest(lines, end, "clue")
    givens = [[clue_code[t] for t in row] for row in clues]
    for r, row in enumerate(answers):  # pzprjs (and our writer) put '.' on a given arrow's cell
        for c, tok in enumerate(row):
            if tok != "." and givens[r][c] in DIRECTIONS:
                raise ParseError(
                    f"pzprv3: R{r + 1}C{c + 1} holds a given arrow, so its answer is '.', got {tok!r}",
                    end + r + 1,
                    _column(answers[r], c),
                )
    puzzle = Toichika.from_labels(labels, givens)
    _check_connected(puzzle, labels, ids)
    answer_code = {".": 0, "1": 1, "2": 2, "3": 3, "4": 4, "+": DOT}
    # A dot on a "?" says nothing (a "?" is an arrow); files that hold one opened before, so it is
    # read as no entry rather than refused (the text format, ours, never writes one).
    entries = tuple(
        0 if t == "+" and givens[r][c] == QUESTION else answer_code[t]
        for r, row in enumerate(answers)
        for c, t in enumerate(row)
    )
    return puzzle, entries


def _check_connected(puzzle: Toichika, labels: list[list[int]], ids: list[list[str]]) -> None:
    """Each country id must name one connected area. pzprjs numbers connected areas, so an id on
    two separate areas is a damaged or hand-edited file; read as it stands it would be solved as a
    puzzle with more countries than the file says (walls only go where neighbouring ids differ)."""
    first: dict[int, int] = {}  # id -> its first cell, row by row
    region = puzzle.region_of
    for r, row in enumerate(labels):
        for c, label in enumerate(row):
            i = puzzle.index(r, c)
            seen = first.setdefault(label, i)
            if region[seen] != region[i]:
                raise ParseError(
                    f"pzprv3: country {label} covers two separate areas "
                    f"({cell_name(*puzzle.cell(seen))} and {cell_name(r, c)})",
                    6 + r,
                    _column(ids[r], c),
                )


# pzprjs may end a file with its own "history:"/"info:" records (JSON, possibly many lines): they
# and whatever follows them are not the puzzle's and are skipped, as pzprjs' reader skips them.
_TRAILERS = ("history", "info")


def _check_rest(lines: list[str], end: int, last: str) -> None:
    """Only blank lines (and pzprjs' trailers) may follow the last block: anything else means
    the blocks were not where the file put them (e.g. a duplicated row shifts every later one)."""
    for k in range(end, len(lines)):
        # the last item may hold the unsplit rest of the file: look at its lines one by one
        for extra, ln in enumerate(lines[k].split("\n")):
            if not ln.strip():
                continue
            if ln.startswith(_TRAILERS):
                return
            raise ParseError(
                f"pzprv3: unexpected text {shown(ln.strip())} after the {last} rows "
                "(is a row duplicated or the file joined to another?)",
                k + extra + 1,
                1,
            )


def _column(tokens: list[str], c: int) -> int:
    """1-based column of token ``c`` when tokens are separated by single blanks (pzprjs writes so)."""
    return 1 + sum(len(t) + 1 for t in tokens[:c])


def write_pzprv3(puzzle: Toichika, entries: Entries | None = None) -> str:
    cols = puzzle.cols
    reg = puzzle.region_of
    out = ["pzprv3", "toichika", str(puzzle.rows), str(cols), str(len(puzzle.regions))]
    for r in range(puzzle.rows):
        out.append("".join(f"{reg[r * cols + c]} " for c in range(cols)))
    clue = {0: ".", QUESTION: "-", **{d: str(d) for d in DIRECTIONS}}
    for r in range(puzzle.rows):
        out.append("".join(f"{clue[puzzle.given(r, c)]} " for c in range(cols)))
    answer = {0: ".", DOT: "+", **{d: str(d) for d in DIRECTIONS}}
    for r in range(puzzle.rows):
        row = []
        for c in range(cols):
            e = entries[r * cols + c] if entries is not None else 0
            row.append("." if puzzle.given(r, c) in DIRECTIONS else answer.get(e, "."))
        out.append("".join(f"{ch} " for ch in row))
    return "\n".join(out) + "\n"
