"""The query of a puzz.link / pzv.jp URL split into its '/'-separated parts, each with the 1-based
column where it starts (for error messages), shared by every module that reads such URLs."""

from __future__ import annotations

import re
from dataclasses import dataclass

from solvers.common.errors import ParseError

MAX_PARTS = 16  # pid, flags, size, body: a real URL has fewer than ten
# The URL prefix of each host (the part before the puzzle id).
HOSTS = {"puzz.link": "https://puzz.link/p?", "pzv.jp": "http://pzv.jp/p.html?"}
# Hosts whose puzzle URLs are read (written: HOSTS only). pzprxs.vercel.app serves the same player
# and URLs; copied without its scheme it was taken for a file name ("no such file", QA pass 11).
READ_HOSTS = frozenset(HOSTS) | {"pzprxs.vercel.app"}


def is_url_form(text: str) -> bool:
    """A stripped one-line text written as a URL: with a scheme, a query (``p?...``, ``?...``,
    ``p.html?...``), or ``puzz.link/p?...`` / ``www.pzv.jp/p.html?...`` /
    ``pzprxs.vercel.app/p?...`` copied without its scheme (address bars and chat programs drop it;
    it would otherwise be taken for a file name)."""
    if "://" in text or text.startswith(("p?", "?", "p.html?")):
        return True
    host = text.split("/", 1)[0].lower()
    return host.removeprefix("www.") in READ_HOSTS and "?" in text


# A percent escape of printable ASCII (not a space): browsers and chat programs write '/' as %2F.
ESCAPE = re.compile(r"%(2[1-9a-fA-F]|[3-6][0-9a-fA-F]|7[0-9a-eA-E])")


def unescape(text: str) -> str:
    """``text`` with its escapes of printable ASCII decoded (no other: '%20' stays)."""
    return ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text) if "%" in text else text


def query_pid(url: str) -> str:
    """The puzzle id a URL's query starts with, mode included (``numlin_edit``)."""
    query = url[url.find("?") + 1 :]  # the whole text when it has no '?'
    return query.split("/", 1)[0].rsplit("&", 1)[-1]


def puzzle_type(text: str) -> str | None:
    """The puzzle type a puzz.link URL or pzprv3 text names (``numlin`` for ``numlin_edit``), told
    by its head alone; None for any other text. Says whose reading error to show when a text in
    such a form cannot be read."""
    t = unescape(text[:2000].strip())  # chat programs escape '/' and '?' (numlin%2F5%2F5...)
    lines = t.replace("\r\n", "\n").replace("\r", "\n").split("\n", 2)
    if len(lines) > 1 and is_url_form(lines[0]) and not any(ch in t for ch in " \t"):
        lines = ["".join(t.split())]  # a URL wrapped over several lines (mail, chat)
    head = lines[0].strip()
    if re.fullmatch(r"pzprv3(\.[0-9]{1,3})?", head) and len(lines) > 1:
        pid = lines[1].strip()
    elif re.match(r"pzprv3(\.[0-9]{1,3})?/", head) and len(lines) == 1:  # one line, '/' for breaks
        pid = head.split("/", 2)[1].strip()
    elif is_url_form(head) or (len(lines) == 1 and re.match(r"[a-z]+(_edit|_play)?/", head)):
        pid = query_pid(head)
        if re.fullmatch(r"pzprv3(\.[0-9]{1,3})?", pid):  # a pzprv3 text in the URL: its type follows
            pid = (head[head.find("?") + 1 :].split("/", 2) + ["", ""])[1].strip()
    else:
        return None
    pid = pid.removesuffix("_edit").removesuffix("_play")
    return pid if re.fullmatch(r"[a-z][a-z0-9]{0,39}", pid) else None


@dataclass(frozen=True)
class UrlParts:
    parts: list[str]
    columns: list[int]  # 1-based column of each part in the text as given
    offset: int  # 1-based column of the first part (the puzzle id)


def split_query(url: str) -> UrlParts:
    """Everything after '?' (or the whole text), without an older 'type=...&' prefix; more than
    ``MAX_PARTS`` parts is refused before anything is split (a huge URL stays cheap)."""
    text = url.strip()
    lead = len(url[: len(url) - len(url.lstrip())].rsplit("\n", 1)[-1])  # columns as given
    qpos = text.find("?")
    if qpos < 0 and "://" in text:  # QA: https://example.com/foo was "unknown puzzle type 'https:'"
        raise ParseError(
            "URL: no puzzle in this address: a puzz.link or pzv.jp puzzle URL has the puzzle after "
            "a '?' (https://puzz.link/p?TYPE/...)",
            1,
            1,
        )
    query = text[qpos + 1 :] if qpos >= 0 else text
    offset = (qpos + 1 if qpos >= 0 else 0) + 1 + lead
    if not query.startswith("pzprv3"):  # a pzprv3 text (in a URL or not) has its own blanks
        _refuse_blank(query, offset)
    head = query.split("/", 1)[0]
    if "&" in head:  # "type=...&numlin/..." (older forms)
        cut = head.rfind("&") + 1
        query, offset = query[cut:], offset + cut
    if query.count("/") > MAX_PARTS:
        raise ParseError(f"URL: more than {MAX_PARTS} '/'-separated parts", 1, offset)
    parts = query.split("/")
    columns: list[int] = []
    col = offset
    for part in parts:
        columns.append(col)
        col += len(part) + 1
    return UrlParts(parts, columns, offset)


BLANK_AFTER_MARK = "a blank right after '?': the puzzle type must follow it (remove the blank)"


def _refuse_blank(query: str, offset: int) -> None:
    """A URL holds no blank: what follows one is a remark or another URL (any puzzle's, or a bare
    ``numlin/...`` query), not more cells (QA pass 11: "URL (a hard one)" was "unexpected characters
    ... (is the size right?)" or "invalid character ' '", two URLs "expected <cols>/<rows>/<body>")."""
    blank = re.search(r"\s", query)
    if blank is None:
        return
    if not query[: blank.start()]:
        raise ParseError(BLANK_AFTER_MARK, 1, offset)
    rest = query[blank.start() :].lstrip()
    column = offset + len(query) - len(rest)
    word = rest.split(None, 1)[0]
    if is_url_form(word) or (puzzle_type(word) is not None and not word.startswith("pzprv3")):
        raise ParseError("a second URL starts here: paste one URL at a time", 1, column)
    raise ParseError("text after the URL (paste the URL alone)", 1, column)


def pzprv3_query(url: str) -> tuple[str, int] | None:
    """The pzprv3 text in a URL's query (``...p?pzprv3/numlin/5/5/1 . . /...``; blanks also as
    ``%20``, '/' as ``%2F``) and the 1-based column where it starts in ``url`` as given (None if
    it was escaped: columns inside it are then not the URL's); None for any other URL. It is read
    before ``split_query``, whose part limit a real board's rows would pass."""
    text = url.strip()
    start = text.find("?") + 1
    raw = text[start:]
    body = unescape(raw.replace("%20", " "))
    if not start or "\n" in text or not re.match(r"pzprv3(\.[0-9]{1,3})?/", body):
        return None
    lead = len(url[: len(url) - len(url.lstrip())].rsplit("\n", 1)[-1])
    return body, (start + lead + 1 if body == raw else 0)
