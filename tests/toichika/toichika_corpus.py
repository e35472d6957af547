"""Loads the shared Toichika corpus (tests only; the product never reads ../shared)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from solvers.toichika.model import Toichika
from solvers.toichika.url_codec import decode_url


@dataclass(frozen=True)
class CorpusPuzzle:
    url: str
    real: bool
    answer: tuple[int, ...]  # pzprjs codes per cell, 0 = empty

    @property
    def puzzle(self) -> Toichika:
        return decode_url(self.url)

    @property
    def name(self) -> str:
        return self.url.split("?toichika/")[1][:24]


def load_corpus(reference: Path) -> list[CorpusPuzzle]:
    folder = reference / "toichika"
    answers = {}
    for line in (folder / "solutions.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("http"):
            url, answer = line.split("\t")[:2]
            answers[url] = tuple(0 if ch == "." else int(ch) for ch in answer)
    out = []
    real = True
    for line in (folder / "puzzles.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("# --- synthetic"):
            real = False
        if line.startswith("http"):
            url = line.split("\t")[0]
            out.append(CorpusPuzzle(url, real, answers[url]))
    return out
