"""Readable X-ceter-O state notation (inline strings and ``.xo`` files).

Inline: the three board rows from the top, separated by ``/``, then the piece due::

    .../.../... 1        the empty board, piece 1 (O) to place
    1.2/.3./... 4        pieces 1-3 placed, piece 4 (X) to place
    132/.4./5.6 due 2    all six placed, piece 2 (X) must jump

Each square is ``.`` (or ``-``) for empty or the number 1..6 of the piece on it (odd = O, even = X).
The piece due may be written as ``N``, ``due N`` or ``due=N``; while pieces are still to be placed
it may be left out (it is then the lowest piece not on the board). Rule options follow as words:
``return`` (the lifted piece may go back to its square) and ``rep=N`` (house rule: draw when a
position occurs N times). Files hold the same text, rows on separate lines or not; ``#`` starts a
comment. Parsing only checks the syntax and that no piece appears twice; whether the position can
arise in a game is ``check``'s job.
"""

from __future__ import annotations

import re

from solvers.common.errors import ParseError
from solvers.common.limits import nonblank_lines, normalise, shown
from solvers.xcetero.rules import PIECES, SQUARES, UNPLACED, Position, Rules

_EMPTY = ".-"
_WORD = re.compile(r"(?i)^(?:due[=:]?)?([1-6])$")
_REP = re.compile(r"(?i)^rep(?:etition)?[=:]?(-?[0-9]+)$")  # [0-9]: \d would accept '٣'
_REP_WORD = re.compile(r"(?i)^rep(?:etition)?[=:]")  # 'rep=' with a value that is no number
_MOVES_WORD = re.compile(r"(?i)moves(?![^\s#])")
_MAX_MOVES = 10_000  # a line played from a position; far beyond any game the GUI would save
_MAX_WORDS = 16  # the piece due and the rule options; more is junk, refused before it costs anything


def board_rows(position: Position) -> list[str]:
    cells = position.board()
    return ["".join(str(p) if p else "." for p in cells[r * 3 : r * 3 + 3]) for r in range(3)]


def to_inline(position: Position) -> str:
    words = ["/".join(board_rows(position)), str(position.due)]
    if position.rules.may_return:
        words.append("return")
    if position.rules.repetition:
        words.append(f"rep={position.rules.repetition}")
    return " ".join(words)


def to_file(position: Position) -> str:
    lines = ["# X-ceter-O position: rows from the top, then the piece due", *board_rows(position)]
    tail = to_inline(position).split(" ")[1:]
    tail[0] = f"due {tail[0]}"
    return "\n".join(lines + [" ".join(tail)]) + "\n"


def looks_inline(text: str) -> bool:
    """True for one-line state strings such as ``1.2/.3./... 4``."""
    if "\n" in text:
        return False
    return bool(re.match(r"^\s*([.\-1-6]{3}/[.\-1-6]{3}/[.\-1-6]{3}|[.\-1-6]{9})(\s|$)", text))


def parse_position(text: str) -> Position:
    squares = [UNPLACED] * PIECES
    cells = 0
    words: list[tuple[str, int, int]] = []  # word, line, column after the board
    for line_no, raw in nonblank_lines(normalise(text)):
        line = raw.split("#", 1)[0]
        col = 0
        while col < len(line):
            ch = line[col]
            if cells < SQUARES:
                if ch in " \t/\ufeff":
                    col += 1
                    continue
                if ch in _EMPTY:
                    cells += 1
                elif ch in "123456":
                    piece = int(ch)
                    if squares[piece - 1] != UNPLACED:
                        raise ParseError(f"piece {piece} appears twice", line_no, col + 1)
                    squares[piece - 1] = cells
                    cells += 1
                else:
                    raise ParseError(
                        f"unexpected character {ch!r} in the board (use . for empty or 1..6)",
                        line_no,
                        col + 1,
                    )
                col += 1
                continue
            if ch.isspace():
                col += 1
                continue
            end = col
            while end < len(line) and not line[end].isspace():
                end += 1
            words.append((line[col:end], line_no, col + 1))
            if len(words) > _MAX_WORDS:
                raise ParseError(
                    "too many words after the board (expected the piece due and rule options)",
                    line_no,
                    col + 1,
                )
            col = end
    if cells < SQUARES:
        raise ParseError(f"the board needs 9 squares, found {cells}")
    return Position(tuple(squares), *_tail(words, squares))


_REP_RULE = "rep=N must be a number 0..99 other than 1 (0 = off; N = a draw when a position occurs N times)"


_KIND_WORDS = {"due": "piece due", "return": "'return'", "rep": "rep=N"}


def _rep_value(digits: str, line: int, col: int) -> int:
    """The N of ``rep=N``; every bad N gets the one message naming the value and the range (1 would
    end every game at once, a negative or huge N was once reported as an unknown word)."""
    body = digits[1:] if digits.startswith("-") else digits
    if len(body.lstrip("0")) > 4:  # bounded before int(): ten thousand digits cost nothing
        raise ParseError(f"{_REP_RULE}, got {shown(digits)}", line, col)
    value = int(digits)
    if not (value == 0 or 2 <= value <= 99):
        raise ParseError(f"{_REP_RULE}, got {value}", line, col)
    return value


def _tail(words: list[tuple[str, int, int]], squares: list[int]) -> tuple[int, Rules]:
    due: int | None = None
    may_return = False
    repetition = 0
    seen: dict[str, tuple[int, int]] = {}  # 'due', 'return', 'rep' -> where it was first given
    i = 0
    while i < len(words):
        word, line, col = words[i]
        low = word.lower()
        if low == "due" and i + 1 < len(words):  # "due 4" written as two words
            i += 1
            word = words[i][0]
            line, col = words[i][1], words[i][2]
            low = word.lower()
        match = _WORD.match(word)
        rep = _REP.match(word)
        kind = "due" if match else "return" if low == "return" else "rep" if rep else ""
        if kind in seen:  # a repeated word was accepted silently ('return return')
            first_line, first_col = seen[kind]
            raise ParseError(
                f"a second {_KIND_WORDS[kind]}{'' if kind == 'return' else ' ' + shown(word)} "
                f"(the first is on line {first_line}, column {first_col})",
                line,
                col,
            )
        if kind:
            seen[kind] = (line, col)
        if match:
            due = int(match.group(1))
        elif kind == "return":
            may_return = True
        elif rep:
            repetition = _rep_value(rep.group(1), line, col)
        elif _REP_WORD.match(word):
            raise ParseError(f"unexpected {shown(word)}: {_REP_RULE}", line, col)
        else:
            raise ParseError(
                f"unexpected {shown(word)} after the board (expected the piece due 1..6)", line, col
            )
        i += 1
    if due is None:
        missing = [p for p in range(1, PIECES + 1) if squares[p - 1] == UNPLACED]
        if not missing:
            raise ParseError("all six pieces are on the board: say which piece is due, e.g. 'due 1'")
        due = missing[0]
    return due, Rules(may_return=may_return, repetition=repetition)


def split_moves(text: str) -> tuple[str, list[tuple[int, int, int]]]:
    """Take the optional ``moves 1 6 4 ...`` line (the line played from the position) out of a document.
    A document has at most one (``serialize_document`` writes the whole record on one line).

    Returns the remaining text (line numbers kept) and the moves as (square, line, column).
    """
    norm = normalise(text)
    moves: list[tuple[int, int, int]] = []
    cut: list[tuple[int, int]] = []  # (start, end) of each moves line, blanked out below
    number, pos, resume, first_line = 1, 0, 0, 0
    while (found := _MOVES_WORD.search(norm, resume)) is not None:
        start = norm.rfind("\n", resume, found.start()) + 1 or resume
        end = norm.find("\n", found.end())
        end = len(norm) if end < 0 else end
        resume = end  # one look per line, however many "moves" it holds
        if norm[start : found.start()].strip():
            continue  # "moves" inside a line, not at its start
        number += norm.count("\n", pos, start)
        pos, line_no = start, number
        if cut:  # two lines were once joined into one record; the writer puts the record on one line
            raise ParseError(f"a second 'moves' line (the first is on line {first_line})", line_no)
        first_line = line_no
        cut.append((start, end))
        line = norm[start:end]
        body = line.split("#", 1)[0]
        words = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", body)]
        if len(words) > _MAX_MOVES:
            raise ParseError(f"more than {_MAX_MOVES} moves", line_no, words[_MAX_MOVES][1])
        for word, col in words[1:]:
            if len(word) != 1 or word not in "012345678":
                raise ParseError(f"a move is a square 0..8, not {shown(word)}", line_no, col)
            moves.append((int(word), line_no, col))
    kept, last = [], 0
    for start, end in cut:  # blank the moves lines, keeping every other line where it was
        kept.append(norm[last:start])
        last = end
    kept.append(norm[last:])
    return "".join(kept), moves


def moves_line(moves: tuple[int, ...]) -> str:
    return "moves " + " ".join(str(m) for m in moves)
