"""puzz.link / pzv.jp URLs and pzprv3 files of Numberlink (``numlin``) and Arukone (``arukone``).

URL: ``https://puzz.link/p?<pid>/[<flags>/]<cols>/<rows>/<body>`` (also ``http://pzv.jp/p.html?``,
the bare query, and the ``_edit``/``_play`` ids; percent escapes such as ``%2F`` for ``/`` are
decoded, and a URL wrapped over several lines is joined). The body lists the cells row by row in
pzprjs's "number16" code: a hex digit is a number 0..15, ``-`` and two hex digits 16..255, ``+`` and three
hex digits 256..4095, ``g``..``z`` a run of 1..20 empty cells, ``.`` a "?" clue (a number not
given). Numberlink labels are numbers; Arukone shows 1..26 as ``A``..``Z`` and 27..52 as
``a``..``z``, and its flag ``e`` lets cells stay empty (without it every cell is covered).

pzprv3 file: ``pzprv3``, the pid, rows, cols; Arukone then a line ``passallcell`` or
``dontpassallcell`` (pzprjs's older ``allowempty`` reads as the latter); then one line per row of cell tokens (a number, or a letter for Arukone; ``.``
empty, ``-`` a "?" clue), then the lines drawn: ``rows`` lines of ``cols - 1`` values for the sides
between horizontal neighbours, ``rows - 1`` lines of ``cols`` values for vertical neighbours
(``1`` a line, ``-1`` a cross mark, ``0`` nothing). Lines that join a pair are read as its pipe,
and the writer writes the pipes it is given as lines (an answer survives a round trip).
The one-line form with ``/`` for each line break (``pzprv3/numlin/5/5/1 . . . . /2 . . 3 . /...``,
as pzprjs's test data and other solvers write it; pzprjs reads both) is read the same way, its
errors placed by column.

Numberlink puzzles are read under Numberlink rules (cells may stay empty), Arukone ones under
Flow rules unless the ``e`` flag (or ``dontpassallcell``) says otherwise. Errors name the URL
column or the file line.
"""

from __future__ import annotations

import re
import string
from dataclasses import replace

from solvers.common.errors import ParseError
from solvers.common.limits import ascii_int, is_ascii_digits, nonblank_lines, normalise, shown
from solvers.common.pzpr_url import (
    ESCAPE,
    HOSTS,
    is_url_form,
    pzprv3_query,
    query_pid,
    split_query,
    unescape,
)
from solvers.common.words import cell_name
from solvers.flow.model import (
    EMPTY,
    FLOW_RULES,
    MAX_NUMBER,
    MAX_SIDE,
    NUMBERLINK,
    Cell,
    FlowPaths,
    FlowPuzzle,
    is_number_label,
)

NUMLIN, ARUKONE = "numlin", "arukone"
KINDS = (NUMLIN, ARUKONE)
PIDS = {f"{kind}{mode}": kind for kind in KINDS for mode in ("", "_edit", "_play")}
ARUKONE_LETTERS = string.ascii_uppercase + string.ascii_lowercase  # 1..52
HEX = "0123456789abcdef"
_QUESTION = "'?' clues (a number not given) are not supported: every endpoint needs its number"


def looks_like_url(text: str) -> bool:
    """A URL (with or without ``https://``) or URL query (``p?numlin/...``, ``numlin/5/5/...``),
    also percent-encoded (``numlin%2F5%2F5%2F...``), or a text whose first line is one: a URL
    wrapped over several lines, or two pasted together. No board row holds ``/``, ``?`` or ``:``
    (a header line holds ``:`` but never ``://``), so a board is never taken for a URL."""
    t = text.lstrip("\ufeff").strip()
    if not t:
        return False
    end = t.find("\n")
    if end >= 0:
        first = t[:end].strip()
        # A URL holds no blanks: "# from https://..." is a comment of a community file. The pid
        # form needs its '/' here: a board row may spell "arukone".
        if first.startswith("#") or any(ch.isspace() for ch in first):
            return False
        return _is_url_line(first) or _is_url_line(unescape(first))
    if is_url_form(t) or t.split("/", 1)[0] in PIDS:
        return True
    # Only escapes that make a numlin/arukone URL count, so a file name like "p%3Fx" stays one.
    plain = unescape(t)
    return plain != t and _is_url_line(plain) and query_pid(plain) in PIDS


def _is_url_line(line: str) -> bool:
    """A line that starts a URL: a URL form, or a query starting with a numlin/arukone pid and '/'."""
    return is_url_form(line) or line.split("/", 1)[0] in PIDS and "/" in line


_SLASH_FORM = re.compile(r"pzprv3(\.[0-9]{1,3})?/")


def _slash_parts(text: str) -> list[tuple[int, str]] | None:
    """The lines of a one-line pzprv3 text (``/`` for each line break) with the 1-based column
    each starts at; None for any other text."""
    start = len(text) - len(text.lstrip())
    t = text.strip()
    if "\n" in t or not _SLASH_FORM.match(t):
        return None
    parts = []
    for part in t.split("/", 6 + 3 * MAX_SIDE):  # as many lines as the largest file has; the rest stays
        parts.append((start + 1, part))
        start += len(part) + 1
    return parts


def looks_like_pzprv3(text: str) -> bool:
    """A pzprv3 file: its header and a puzzle id. ``pzprv3`` is also a valid board row (six
    letters), so a text whose second line could be the next row of that board stays a board."""
    parts = _slash_parts(text[:1000]) if "\n" not in text.strip() else None
    if parts is not None:
        text = "\n".join(part for _, part in parts)
    head = normalise(text[:1000]).lstrip().split("\n", 2)
    if not re.fullmatch(r"pzprv3(\.[0-9]{1,3})?", head[0].strip()):
        return False
    pid = head[1].strip() if len(head) > 1 else ""
    if pid in PIDS:
        return True
    return bool(re.fullmatch(r"[a-z_]{1,40}", pid)) and len(pid) != len(head[0].strip())


# ---- URLs ------------------------------------------------------------------------------------------


MAX_URL_LINES = 1000  # a URL of the largest board wrapped at 160 columns takes a few hundred


def decode_url(url: str) -> FlowPuzzle:
    """The puzzle of a URL text: percent escapes decoded, a URL wrapped over several lines joined.
    Errors are placed in the text as given (line and column)."""
    in_url = read_pzprv3_url(url)
    if in_url is not None:
        return in_url[0]
    pieces = _url_lines(normalise(url))
    joined = "".join(unescape(raw) for _, _, raw in pieces)
    try:
        return _decode_query(joined)
    except ParseError as exc:
        if len(pieces) > 1:
            try:  # a whole URL on line 1: what follows is more text, not the rest of it
                _decode_query(unescape(pieces[0][2]))
            except ParseError:
                pass
            else:
                raise ParseError(
                    f"text after the URL of line {pieces[0][0]}, which is complete without it (paste "
                    "the URL alone)",
                    pieces[1][0],
                    pieces[1][1],
                ) from None
        if exc.line != 1 or exc.column is None:
            raise
        line, column = _origin(pieces, exc.column - 1)
        raise ParseError(exc.message, line, column) from None


def read_pzprv3_url(url: str) -> tuple[FlowPuzzle, FlowPaths | None] | None:
    """A pzprv3 text in a URL's query (``pzprv3_query``), with its lines drawn, as pzprjs reads it;
    None for any other URL."""
    found = pzprv3_query(normalise(url))
    if found is None:
        return None
    body, start = found
    try:
        return read_pzprv3(body)
    except ParseError as exc:  # columns of the query -> columns of the URL as given
        if exc.line != 1 or exc.column is None:
            raise
        raise ParseError(exc.message, 1, start + exc.column - 1 if start else 1) from None


def _url_lines(text: str) -> list[tuple[int, int, str]]:
    """(line, column, text) of each line of a URL wrapped over several lines (a URL never holds a
    newline, so lines without blanks that follow it can only be its rest); one entry for a URL on
    one line. Two URLs, or other text after one, are refused with their line."""
    pieces: list[tuple[int, int, str]] = []
    head = ""  # the URL's first characters, enough to see whether its query has begun
    for number, line in nonblank_lines(text):
        raw = line.strip()
        column = 1 + len(line) - len(line.lstrip())
        if pieces:
            # A URL form after a URL whose query has its pid: a second URL. (A wrap may fall just
            # after the '?', the next line then starting with the pid: that is no second URL.)
            if _is_url_line(unescape(raw)) and "/" in _query_so_far(head):
                raise ParseError(
                    f"a second URL starts here (the first is on line {pieces[0][0]}): paste one URL at a time",
                    number,
                    column,
                )
            if number != pieces[-1][0] + 1 or any(ch.isspace() for ch in raw):
                raise ParseError(
                    f"text after the URL of line {pieces[0][0]} (paste the URL alone; a URL wrapped "
                    "over several lines must have no blank lines or spaces)",
                    number,
                    column,
                )
            if len(pieces) == MAX_URL_LINES:
                raise ParseError(f"a URL wrapped over more than {MAX_URL_LINES} lines", number)
        pieces.append((number, column, raw))
        if len(head) < 300:  # host, pid and size: a huge URL costs nothing more here
            head += unescape(raw[:900])
    return pieces or [(1, 1, "")]


def _query_so_far(head: str) -> str:
    """The part of a URL's start that is its query (``numlin/5/...``); '' while the host is still
    being written (``https://puzz.link/p``: the query comes after '?')."""
    if "?" in head:
        return head[head.find("?") + 1 :]
    return head if _is_url_line(head) and not is_url_form(head) else ""


def _origin(pieces: list[tuple[int, int, str]], index: int) -> tuple[int, int]:
    """(line, column) in the text as given of character ``index`` of the joined, unescaped URL
    (its end: just after the last character). Worked out only for an error, so costs nothing else."""
    for number, column, raw in pieces:
        pos = 0  # in raw
        for m in ESCAPE.finditer(raw):
            if index < m.start() - pos:
                return number, column + pos + index
            index -= m.start() - pos
            if index == 0:
                return number, column + m.start()
            index -= 1
            pos = m.end()
        if index < len(raw) - pos:
            return number, column + pos + index
        index -= len(raw) - pos
    number, column, raw = pieces[-1]
    return number, column + len(raw) + index


def _decode_query(url: str) -> FlowPuzzle:
    """The puzzle of a one-line URL, with no percent escapes; columns count in ``url``."""
    split = split_query(url)
    parts, columns, offset = split.parts, split.columns, split.offset
    kind = PIDS.get(parts[0])
    if kind is None:
        raise ParseError(
            f"URL: unknown puzzle type {shown(parts[0])} (Flow reads puzz.link numlin and arukone URLs)",
            1,
            offset,
        )
    while len(parts) > 4 and parts[-1] == "":
        parts.pop()
    k = 1
    flags = ""
    while len(parts) - k > 3 and not is_ascii_digits(parts[k]):
        if not parts[k].startswith("v:"):
            flags += parts[k]  # the pflag element (arukone's "e")
        k += 1
    if len(parts) != k + 3:
        raise ParseError(
            "URL: expected <cols>/<rows>/<body> after the puzzle type",
            1,
            columns[min(k, len(parts) - 1)] if len(parts) > 1 else offset + len(parts[0]),
        )
    cols, rows = (
        ascii_int(
            parts[j],
            f"URL: {'columns' if j == k else 'rows'}",
            MAX_SIDE,
            minimum=1,
            line=1,
            column=columns[j],
        )
        for j in (k, k + 1)
    )
    values = _decode_body(parts[k + 2], rows, cols, columns[k + 2])
    rules = NUMBERLINK if kind == NUMLIN or "e" in flags else FLOW_RULES
    return _puzzle(kind, rows, cols, values, rules)


def _decode_body(body: str, rows: int, cols: int, base: int) -> list[tuple[int, int]]:
    """(cell index, value) of every number in the body; ``base`` is the URL column of body[0]."""
    n_cells = rows * cols
    out: list[tuple[int, int]] = []
    cell = pos = 0
    while pos < len(body) and cell < n_cells:
        ch = body[pos]
        width = {"-": 2, "+": 3}.get(ch, 0)
        if ch in HEX:
            out.append((cell, int(ch, 16)))
            cell += 1
            pos += 1
        elif width:
            digits = body[pos + 1 : pos + 1 + width]
            if len(digits) < width or any(d not in HEX for d in digits):
                raise ParseError(
                    f"URL body: {shown(ch)} must be followed by {width} hex digits, got {shown(digits)}",
                    1,
                    base + pos,
                )
            out.append((cell, int(digits, 16)))
            cell += 1
            pos += 1 + width
        elif "g" <= ch <= "z":
            cell += int(ch, 36) - 15  # a run of 1..20 empty cells (may end past the board, as in pzprjs)
            pos += 1
        elif ch == ".":
            raise ParseError(f"URL body: {_QUESTION}", 1, base + pos)
        elif ch in "=%*$":
            raise ParseError(
                f"URL body: a number over 4095 at {shown(ch)} (labels are 1..{MAX_NUMBER})", 1, base + pos
            )
        else:
            raise ParseError(f"URL body: invalid character {shown(ch)}", 1, base + pos)
    if cell < n_cells:
        raise ParseError(
            f"URL body is truncated: it describes {cell} of the {n_cells} cells of a {cols}x{rows} board",
            1,
            base + len(body),
        )
    if pos < len(body):
        raise ParseError(
            f"URL body: unexpected characters {shown(body[pos:])} after the last cell of a {cols}x{rows} "
            "board (is the size right?)",
            1,
            base + pos,
        )
    return out


def _puzzle(
    kind: str,
    rows: int,
    cols: int,
    values: list[tuple[int, int]],
    rules: str,
) -> FlowPuzzle:
    """The board from (cell, number) pairs; a number out of range is named with its place."""
    cells = [EMPTY] * (rows * cols)
    top = len(ARUKONE_LETTERS) if kind == ARUKONE else MAX_NUMBER
    for index, value in values:
        r, c = divmod(index, cols)
        if not 1 <= value <= top:
            raise ParseError(f"{kind}: number {value} at {cell_name(r, c)} is out of range 1..{top}")
        cells[index] = ARUKONE_LETTERS[value - 1] if kind == ARUKONE else str(value)
    # Arukone puzzles are printed with their letters (which may spell a word): show them.
    puzzle = FlowPuzzle(rows, cols, tuple(cells), rules=rules, labels=kind == ARUKONE)
    for message, _ in puzzle.problems():
        raise ParseError(f"{kind}: {message}")
    return puzzle


def url_kind(puzzle: FlowPuzzle, form: str = "URL") -> tuple[str, dict[str, int]]:
    """The pid that writes this puzzle and each label's number in it.

    Numberlink rules and number labels: ``numlin``. Letters only (at most 52): ``arukone`` (its
    ``e`` flag for Numberlink rules). Otherwise the labels are renumbered in display order: under
    Numberlink rules as numbers, under Flow rules as Arukone letters. ``form`` ("URL" or "pzprv3
    file") is what the messages name: the pzprv3 writer shares these limits.
    """
    if not puzzle.is_plain:
        raise ParseError(f"numlin/arukone {form}s hold plain square boards only (no variant features)")
    colours = puzzle.colours
    if all(ch in ARUKONE_LETTERS for ch in colours):
        return ARUKONE, {ch: ARUKONE_LETTERS.index(ch) + 1 for ch in colours}
    if puzzle.rules == NUMBERLINK:
        if all(is_number_label(ch) for ch in colours):
            return NUMLIN, {ch: int(ch) for ch in colours}
        return NUMLIN, {ch: i for i, ch in enumerate(colours, start=1)}
    if len(colours) > len(ARUKONE_LETTERS):
        raise ParseError(
            f"{len(colours)} colours under Flow rules: an arukone {form} holds at most {len(ARUKONE_LETTERS)}"
        )
    return ARUKONE, {ch: i for i, ch in enumerate(colours, start=1)}


def _number16(value: int) -> str:
    if value < 16:
        return HEX[value]
    if value < 256:
        return f"-{value:02x}"
    return f"+{value:03x}"


def encode_body(puzzle: FlowPuzzle, numbers: dict[str, int]) -> str:
    out: list[str] = []
    run = 0
    for ch in puzzle.cells:
        if ch == EMPTY:
            run += 1
            if run == 20:
                out.append("z")
                run = 0
            continue
        if run:
            out.append(string.ascii_lowercase[run + 5])  # 1 -> 'g'
            run = 0
        out.append(_number16(numbers[ch]))
    if run:
        out.append(string.ascii_lowercase[run + 5])
    return "".join(out)


def encode_url(puzzle: FlowPuzzle, host: str = "puzz.link", mode: str = "") -> str:
    """The URL as pzprjs writes it; ``mode`` '' / 'edit' / 'play'."""
    kind, numbers = url_kind(puzzle)
    pid = kind + (f"_{mode}" if mode else "")
    flag = "e/" if kind == ARUKONE and puzzle.rules == NUMBERLINK else ""
    return f"{HOSTS[host]}{pid}/{flag}{puzzle.cols}/{puzzle.rows}/{encode_body(puzzle, numbers)}"


# ---- pzprv3 files --------------------------------------------------------------------------------


def read_pzprv3(text: str) -> tuple[FlowPuzzle, FlowPaths | None]:
    parts = _slash_parts(text)
    if parts is None:
        return _read_pzprv3(text)
    try:
        return _read_pzprv3("\n".join(part for _, part in parts))
    except ParseError as exc:  # a line of the joined text -> a column of the one line given
        if exc.line is None or not 1 <= exc.line <= len(parts):
            raise
        start, _ = parts[exc.line - 1]
        raise ParseError(exc.message, 1, start + (exc.column or 1) - 1) from None


def _read_pzprv3(text: str) -> tuple[FlowPuzzle, FlowPaths | None]:
    # Only the header and the blocks the size asks for are split off: a huge file costs no more.
    lines = [ln.strip() for ln in normalise(text).lstrip().split("\n", 6 + 3 * MAX_SIDE)]
    if not lines[0].startswith("pzprv3"):
        raise ParseError("pzprv3: the first line must be 'pzprv3'", 1)
    pid = lines[1] if len(lines) > 1 else ""
    kind = PIDS.get(pid)
    if kind is None:
        raise ParseError(f"pzprv3: unknown puzzle type {shown(pid)} (Flow reads numlin and arukone)", 2, 1)

    def number(k: int, name: str) -> int:
        if k >= len(lines):
            raise ParseError(f"pzprv3: the number of {name} is missing", k + 1)
        return ascii_int(lines[k], f"pzprv3: the number of {name}", MAX_SIDE, minimum=1, line=k + 1, column=1)

    rows, cols = number(2, "rows"), number(3, "columns")
    first = 4
    rules = NUMBERLINK if kind == NUMLIN else FLOW_RULES
    if kind == ARUKONE:
        mode = lines[4] if len(lines) > 4 else ""
        # pzprjs writes passallcell or dontpassallcell; its older files (and its own arukone test
        # data) say allowempty, which it reads as dontpassallcell (QA pass 11: refused here).
        if mode not in ("passallcell", "dontpassallcell", "allowempty"):
            raise ParseError(
                f"pzprv3: expected passallcell or dontpassallcell (or the older allowempty), got {shown(mode)}",
                5,
                1,
            )
        rules = FLOW_RULES if mode == "passallcell" else NUMBERLINK
        first = 5
    grid = _table(lines, first, rows, cols, "cell")
    values: list[tuple[int, int]] = []
    for r, row in enumerate(grid):
        for c, (token, column) in enumerate(row):
            if token == ".":
                continue
            if token == "-":
                raise ParseError(f"pzprv3: {_QUESTION}", first + r + 1, column)
            if kind == ARUKONE and len(token) == 1 and token in ARUKONE_LETTERS:
                value = ARUKONE_LETTERS.index(token) + 1
            elif kind == NUMLIN and is_ascii_digits(token) and len(token) <= 5:
                value = int(token)
            else:
                what = "a letter A-Z a-z" if kind == ARUKONE else "a number"
                raise ParseError(
                    f"pzprv3: expected {what}, '.' or '-', got {shown(token)}", first + r + 1, column
                )
            values.append((r * cols + c, value))
    puzzle = _puzzle(kind, rows, cols, values, rules)
    paths, note = _read_lines(puzzle, lines, first + rows)
    if note is not None:
        puzzle = replace(puzzle, notes=(*puzzle.notes, note))
    return puzzle, paths


def _table(
    lines: list[str], first: int, rows: int, cols: int, what: str, block: tuple[int, int] | None = None
) -> list[list[tuple[str, int]]]:
    """``rows`` lines of ``cols`` tokens each from line index ``first``: (token, column) each.
    ``block`` (its first line index, its number of lines) is the whole block these lines belong to
    (the line block is two tables), so a file that ends inside it is told as such."""
    block_first, block_lines = block if block is not None else (first, rows)
    out = []
    for k in range(first, first + rows):
        # Past the end, or only blank lines left (the file's last newline gives one): it ends here.
        if k >= len(lines) or not any(lines[j] for j in range(k, len(lines))):
            found = k - block_first
            ends = f"after {found} of them ({block_lines - found} more needed)" if found else "before it"
            raise ParseError(f"pzprv3: the {what} block needs {block_lines} lines, the file ends {ends}", k)
        tokens = []
        pos = 0
        for token in lines[k].split()[: cols + 1]:
            pos = lines[k].index(token, pos)
            tokens.append((token, pos + 1))
            pos += len(token)
        if len(tokens) != cols:
            raise ParseError(
                f"pzprv3: a line of the {what} block needs {cols} values, found {len(tokens)}", k + 1
            )
        out.append(tokens)
    return out


def _read_lines(puzzle: FlowPuzzle, lines: list[str], first: int) -> tuple[FlowPaths | None, str | None]:
    """The pipes drawn in the file, each from a number as far as it runs, and a note on the lines
    left out (None if none); (None, None) when the file has no line block."""
    rows, cols = puzzle.rows, puzzle.cols
    # A one-column board's across lines hold no values (blank): its block shows in the down lines.
    probe = first if cols > 1 else first + rows
    if rows * cols == 1 or probe >= len(lines) or not lines[probe]:
        return None, None
    block = (probe, (rows if cols > 1 else 0) + rows - 1)
    across = _table(lines, first, rows, cols - 1, "line", block) if cols > 1 else [[] for _ in range(rows)]
    down = _table(lines, first + rows, rows - 1, cols, "line", block) if rows > 1 else []
    links: dict[Cell, list[Cell]] = {}
    where: dict[tuple[Cell, Cell], tuple[int, int]] = {}  # each line drawn -> its line and column
    for blocks, (dr, dc), top in ((across, (0, 1), first), (down, (1, 0), first + rows)):
        for r, row in enumerate(blocks):
            for c, (token, column) in enumerate(row):
                if token not in ("0", "1", "-1", "2"):
                    raise ParseError(
                        f"pzprv3: a line value is 0, 1 or -1, got {shown(token)}", top + r + 1, column
                    )
                if token in ("1", "2"):
                    links.setdefault((r, c), []).append((r + dr, c + dc))
                    links.setdefault((r + dr, c + dc), []).append((r, c))
                    where[((r, c), (r + dr, c + dc))] = (top + r + 1, column)
    paths: dict[str, list[Cell]] = {}
    kept: set[tuple[Cell, Cell]] = set()
    for ch, ends in puzzle.endpoints().items():
        for end in ends:  # the pipe drawn from the pair's first number, else from its second
            path = _follow(puzzle, links, end)
            # A line already read as another pair's pipe, which runs into this number, is that
            # pipe: read again from here it made a second pipe on the same cells, and Check named a
            # crossing at each of them (QA pass 11: "and 9 more problems" for one wrong line).
            if len(path) > 1 and (min(path[0], path[1]), max(path[0], path[1])) not in kept:
                paths[ch] = path
                kept.update((min(a, b), max(a, b)) for a, b in zip(path, path[1:], strict=False))
                break
    left_out = {pair: place for pair, place in where.items() if pair not in kept}
    _refuse_forks_and_loops(puzzle, links, left_out)
    note = None
    if left_out:
        # Mid-solve drawings (a pair drawn from both ends, a piece in the open) are no broken rule;
        # the document holds one pipe per pair, from a number, so the rest is left out, said once.
        line, column = min(left_out.values())
        note = (
            f"left out {len(left_out)} of the lines drawn (first at line {line}, column {column}): "
            "only one pipe per pair, drawn from a number, is read (a pair drawn from both ends keeps "
            "its first number's part; pieces touching no number are left out)"
        )
    return FlowPaths.from_dict(paths), note


def _refuse_forks_and_loops(
    puzzle: FlowPuzzle, links: dict[Cell, list[Cell]], left_out: dict[tuple[Cell, Cell], tuple[int, int]]
) -> None:
    """A line left out (on no pipe read) at a fork (three lines at a cell, two at a number), or on
    a closed loop, breaks the rules whatever is drawn next: refused at its place, since leaving it
    out would let Check say "complete" or "no rule broken so far" (QA pass 8). A fork whose lines
    are all on pipes read (pzprjs's own sample) is read: Check names where the pipes meet."""
    for (a, b), place in sorted(left_out.items(), key=lambda item: item[1]):
        for cell in (a, b):
            number = puzzle.at(*cell) != EMPTY
            meet = len(links[cell])
            if meet > (1 if number else 2):
                if meet == 4 and not number:  # pzprjs's 'lnCross' drawing
                    said = f"cross at {cell_name(*cell)}: pipes never cross"
                else:
                    at = ", at a number" if number else ""
                    said = f"fork at {cell_name(*cell)} ({meet} lines meet there{at}): a pipe never branches"
                raise ParseError(f"pzprv3: the lines drawn {said}", *place)
    seen: set[Cell] = set()
    for (a, _), place in sorted(left_out.items(), key=lambda item: item[1]):
        if a in seen:
            continue
        piece, stack = {a}, [a]
        while stack:
            for n in links[stack.pop()]:
                if n not in piece:
                    piece.add(n)
                    stack.append(n)
        seen |= piece
        if all(len(links[x]) == 2 for x in piece):
            raise ParseError(
                f"pzprv3: the lines drawn close a loop through {cell_name(*min(piece))}: a pipe runs from "
                "one number to its partner and never closes on itself",
                *place,
            )


def _follow(puzzle: FlowPuzzle, links: dict[Cell, list[Cell]], start: Cell) -> list[Cell]:
    """The lines drawn from endpoint ``start``, as far as they run on without a fork: to a number
    (its partner, or another pair's: 'check' names that), or to where the drawing stops."""
    path = [start]
    on_path = {start}  # a set: a snake over a 200x200 board must not cost a list scan a step
    while len(path) <= puzzle.rows * puzzle.cols:
        nxt = [n for n in links.get(path[-1], []) if len(path) < 2 or n != path[-2]]
        if len(nxt) != 1 or nxt[0] in on_path:
            break
        path.append(nxt[0])
        on_path.add(nxt[0])
        if puzzle.at(*nxt[0]) != EMPTY:
            break
    return path


def write_pzprv3(puzzle: FlowPuzzle, entries: FlowPaths | None = None) -> str:
    """The pzprv3 file of the puzzle; ``entries`` (the pipes drawn, e.g. as ``read_pzprv3`` or a
    saved document gives them) are written as its lines, so an answer is kept."""
    kind, numbers = url_kind(puzzle, "pzprv3 file")
    out = ["pzprv3", kind, str(puzzle.rows), str(puzzle.cols)]
    if kind == ARUKONE:
        out.append("dontpassallcell" if puzzle.rules == NUMBERLINK else "passallcell")
    for r in range(puzzle.rows):
        tokens = []
        for c in range(puzzle.cols):
            ch = puzzle.at(r, c)
            if ch == EMPTY:
                tokens.append(".")
            elif kind == ARUKONE:
                tokens.append(ARUKONE_LETTERS[numbers[ch] - 1])
            else:
                tokens.append(str(numbers[ch]))
        out.append(" ".join(tokens) + " ")
    used: set[tuple[Cell, Cell]] = set()
    for _, path in entries.items if entries is not None else ():
        for a, b in zip(path, path[1:], strict=False):
            used.add((min(a, b), max(a, b)))
    for r in range(puzzle.rows):
        out.append("".join("1 " if ((r, c), (r, c + 1)) in used else "0 " for c in range(puzzle.cols - 1)))
    for r in range(puzzle.rows - 1):
        out.append("".join("1 " if ((r, c), (r + 1, c)) in used else "0 " for c in range(puzzle.cols)))
    return "\n".join(out) + "\n"
