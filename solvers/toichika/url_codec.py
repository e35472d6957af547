"""puzz.link / pzv.jp URL codec (format described in docs/toichika.md and pzprjs' Encode).

Body = border section (vertical then horizontal wall bits, 5 bits per base-32 character, each
stream padded separately) + a run-length cell section. Errors name the URL column.
"""

from __future__ import annotations

from solvers.common.errors import ParseError
from solvers.common.limits import ascii_int, is_ascii_digits, shown
from solvers.common.pzpr_url import HOSTS, is_url_form, pzprv3_query, split_query
from solvers.toichika.model import DIRECTIONS, MAX_SIZE, QUESTION, Toichika

PID = "toichika"
PIDS = {"toichika", "toichika_edit", "toichika_play"}
B32 = "0123456789abcdefghijklmnopqrstuv"
B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def looks_like_url(text: str) -> bool:
    """A one-line puzz.link/pzv.jp URL or its query part (not a file path that mentions toichika/)."""
    t = text.strip()
    if "\n" in t:
        return False
    return is_url_form(t) or t.split("/", 1)[0] in PIDS | {"pzprv3"}


def _pack5(bits: list[bool]) -> str:
    out = []
    for k in range(0, len(bits), 5):
        group = bits[k : k + 5] + [False] * (5 - len(bits[k : k + 5]))
        value = 0
        for b in group:
            value = value * 2 + int(b)
        out.append(B32[value])
    return "".join(out)


def encode_body(p: Toichika) -> str:
    out = [_pack5(list(p.vwalls)), _pack5(list(p.hwalls))]
    run = 0
    for g in p.givens:
        ch = "." if g == QUESTION else (str(g) if g in DIRECTIONS else "")
        if not ch:
            run += 1
        if run == 0:
            out.append(ch)
        elif ch or run == 31:
            out.append(B36[4 + run] + ch)
            run = 0
    if run:
        out.append(B36[4 + run])
    return "".join(out)


def encode_url(p: Toichika, host: str = "puzz.link", mode: str = "") -> str:
    """Canonical URL as pzprjs getURL() writes it; ``mode`` '' / 'edit' / 'play'."""
    pid = PID + (f"_{mode}" if mode else "")
    return f"{HOSTS[host]}{pid}/{p.cols}/{p.rows}/{encode_body(p)}"


def _unpack5(body: str, start: int, nbits: int, base_col: int, what: str) -> tuple[list[bool], int]:
    nchars = (nbits + 4) // 5
    if start + nchars > len(body):
        raise ParseError(
            f"URL border section ({what} walls) needs {nchars} characters, body has only {len(body) - start}",
            1,
            base_col + len(body),
        )
    bits: list[bool] = []
    for k in range(nchars):
        ch = body[start + k]
        value = B32.find(ch)
        if value < 0:
            raise ParseError(
                f"URL border section: invalid character {ch!r} ({what} walls)", 1, base_col + start + k
            )
        bits.extend(bool(value >> (4 - b) & 1) for b in range(5))
    return bits[:nbits], start + nchars


def decode_body(cols: int, rows: int, body: str, base_col: int = 1) -> Toichika:
    """``base_col`` is the 1-based URL column of the body's first character (for messages)."""
    vw, pos = _unpack5(body, 0, rows * (cols - 1), base_col, "vertical")
    hw, pos = _unpack5(body, pos, (rows - 1) * cols, base_col, "horizontal")
    givens = [0] * (rows * cols)
    cell = 0
    while pos < len(body) and cell < rows * cols:
        ch = body[pos]
        if ch in "1234":
            givens[cell] = int(ch)
        elif ch == ".":
            givens[cell] = QUESTION
        elif ch in B36[5:]:
            cell += B36.index(ch) - 5  # a run may overshoot the end; pzprjs just stops there
        else:
            raise ParseError(f"URL cell section: invalid character {ch!r}", 1, base_col + pos)
        cell += 1
        pos += 1
    if cell < rows * cols:
        # pzprjs writes a run for the empty cells at the end too, so a body that stops early was
        # cut short (a chat program's line break): read as it stands, the arrows lost with it
        # gave another puzzle, solved with exit 0 (QA pass 8). Flow's URLs are refused the same way.
        raise ParseError(
            f"URL body is truncated: it describes {cell} of the {rows * cols} cells of a {cols}x{rows} "
            "board (is the size right?)",
            1,
            base_col + len(body),
        )
    if pos < len(body):
        raise ParseError(
            f"URL: unexpected characters {shown(body[pos:])} after the last cell", 1, base_col + pos
        )
    return Toichika(rows, cols, tuple(vw), tuple(hw), tuple(givens))


def decode_url(url: str) -> Toichika:
    """Accepts puzz.link and pzv.jp hosts, ``_edit``/``_play`` pids, ``type=...&``, ``v:`` and a pflag."""
    in_url = pzprv3_query(url)
    if in_url is not None:
        return _pzprv3_in_url(*in_url)
    split = split_query(url)
    parts, cols_at, offset = split.parts, split.columns, split.offset
    if not parts or parts[0] not in PIDS:
        raise ParseError(
            f"URL: expected a toichika puzzle id, got {shown(parts[0] if parts else '')}", 1, offset
        )
    while len(parts) > 4 and parts[-1] == "":
        parts.pop()
    k = 1
    while len(parts) - k > 3 and (parts[k].startswith("v:") or not is_ascii_digits(parts[k])):
        k += 1  # skip variant and pflag elements (toichika writes none)
    if len(parts) != k + 3:
        raise ParseError(
            "URL: expected <cols>/<rows>/<body> after the puzzle id", 1, cols_at[min(k, len(parts) - 1)]
        )
    size = [
        ascii_int(
            parts[j],
            f"URL: {'columns' if j == k else 'rows'}",
            MAX_SIZE,
            minimum=1,
            line=1,
            column=cols_at[j],
        )
        for j in (k, k + 1)
    ]
    return decode_body(size[0], size[1], parts[k + 2], cols_at[k + 2])


def _pzprv3_in_url(body: str, start: int) -> Toichika:
    """A pzprv3 text in a URL ('/' for each line break); an error's line of the file becomes a
    column of the URL (``start``: where the text starts, 0 if it was escaped)."""
    from solvers.toichika.pzprv3_codec import read_pzprv3

    lines = body.split("/")
    try:
        return read_pzprv3("\n".join(lines))[0]
    except ParseError as exc:
        if exc.line is None or not start or not 1 <= exc.line <= len(lines):
            raise ParseError(exc.message, 1, start or 1) from None
        column = start + sum(len(ln) + 1 for ln in lines[: exc.line - 1]) + (exc.column or 1) - 1
        raise ParseError(exc.message, 1, column) from None
