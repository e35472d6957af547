"""The result store of the full enumeration, and the queries on it.

Layout of a store directory (numpy ``.npy`` files, memory-mapped when read):

* ``meta.json`` — counts, build figures, ``complete`` flag, the synonym subset if a test-sized run;
* ``synonyms.npy`` int8[S, 18] — the synonym towns that were expanded (row = synonym id);
* ``vec_hi.npy``, ``vec_lo.npy`` uint64[V] — the distinct score vectors, packed and sorted;
* ``vec_cols.npy`` int8[26, V] — the same vectors unpacked, one row per theme (fast column queries);
* ``vec_count.npy`` int64[V] — towns per vector; ``vec_dist.npy`` int32[V] — distance to all-max;
* ``post_ptr.npy`` int64[V+1], ``post_syn.npy`` uint16[P], ``post_cnt.npy`` uint32[P] — for each vector
  the synonym towns containing it and how many of their towns have it (towns are regenerated from
  their synonym town on demand: about 1 ms per synonym town);
* ``stats.json`` — the precomputed answer of ``stats``;
* ``shards/`` — partial results while building (deleted when complete), for resuming;
* ``manifest.json`` — every name the store wrote in the folder, and in ``shards/`` (``shards``): a
  rebuild deletes those and nothing else, so a store folder shared with the user's own files never
  loses one (not even a ``shards/shard_mine.npz``).

A folder that is neither empty nor a store is refused (the build never deletes what it did not write).

Distance (issue 7): a theme's distance is (rank of its score among that theme's possible scores,
best = 1, minus 1) squared; possible scores are the values that occur in the store.

Building a store is ``solvers.ninetiles.store_build`` (it imports this module, never the other way).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from solvers.common.errors import InputError
from solvers.ninetiles import enumeration as E

FORMAT = "puzzle-workbench ninetiles store v1"
MANIFEST = "manifest.json"
# What a v1 store writes (stores built before the manifest existed are cleared by these names).
STORE_FILES = (
    "meta.json",
    "meta.tmp",
    "stats.json",
    "stats.tmp",
    "synonyms.npy",
    *(f"{name}.npy" for name in ("vec_hi", "vec_lo", "vec_cols", "vec_count", "vec_dist")),
    *(f"{name}.npy" for name in ("post_ptr", "post_syn", "post_cnt")),
    "shards",
    MANIFEST,
    "manifest.tmp",
)
# The names a build writes in ``shards/``: a manifest entry of any other form is never deleted.
SHARD_NAME = re.compile(r"shard_[0-9]{5}(\.tmp)?\.npz")


def shard_names(index: int) -> tuple[str, str]:
    """The finished and the temporary file name of shard ``index`` (inside ``shards/``)."""
    return f"shard_{index:05d}.npz", f"shard_{index:05d}.tmp.npz"


def default_store_dir() -> Path:
    env = os.environ.get("PUZZLE_WORKBENCH_CACHE")
    if env:
        return Path(env).expanduser() / "ninetiles"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "puzzle-workbench" / "ninetiles"


# ---- queries -----------------------------------------------------------------------------------------


class Store:
    """Read access to a built store (arrays are memory-mapped)."""

    def __init__(self, path: Path, require_complete: bool = True) -> None:
        self.path = path
        if path.exists() and not path.is_dir():
            raise InputError(f"{path}: not a folder (a ninetiles store is a folder)")
        meta = read_json(path / "meta.json")
        run = "python -m workbench ninetiles enumerate" + (
            "" if path == default_store_dir() else f' --store "{path}"'
        )
        if meta is None and not (path / "meta.json").exists():
            raise InputError(f"no ninetiles store at {path} (run: {run})")
        if meta is None or meta.get("format") != FORMAT:
            raise InputError(
                f"{path}: meta.json is not a ninetiles store's (run enumerate into a new folder)"
            )
        if require_complete and not meta.get("complete"):
            raise InputError(f"the ninetiles store at {path} is incomplete (run {run} again to resume)")
        self.meta = meta
        arrays = _load_arrays(path)  # shapes and kinds first: their messages say more
        verify(path, meta)
        self.synonyms = arrays["synonyms"]
        self.hi = arrays["vec_hi"]
        self.lo = arrays["vec_lo"]
        self.cols = arrays["vec_cols"]
        self.count = arrays["vec_count"]
        self.dist = arrays["vec_dist"]
        self.ptr = arrays["post_ptr"]
        self.post_syn = arrays["post_syn"]
        self.post_cnt = arrays["post_cnt"]
        self._values: list[np.ndarray] | None = None

    @property
    def n_vectors(self) -> int:
        return int(self.hi.shape[0])

    def values(self) -> list[np.ndarray]:
        """Possible scores per theme, descending (index = rank - 1)."""
        if self._values is None:
            cached = read_json(self.path / "stats.json")
            try:  # saved at build time: avoids 26 passes over the columns
                per = cached["per_theme"]  # type: ignore[index]
                self._values = [np.array(per[str(t + 1)]["values"][::-1], dtype=np.int64) for t in range(26)]
            except (TypeError, KeyError, ValueError):  # missing or damaged: recompute
                self._values = [np.unique(np.asarray(self.cols[t]))[::-1] for t in range(26)]
        return self._values

    def vector(self, v: int) -> list[int]:
        """Vector ``v`` as the column store holds it, checked against its packed form (the two are
        written together; a changed byte in either would report scores no town has)."""
        column = [int(x) for x in self.cols[:, v]]
        packed = E.unpack(np.asarray(self.hi[v : v + 1]), np.asarray(self.lo[v : v + 1]))[0]
        if column != [int(x) for x in packed]:
            raise InputError(f"{self._damaged}: score vector {v} differs from its packed form (rebuild it)")
        return column

    @property
    def _damaged(self) -> str:
        return f"the ninetiles store at {self.path} is damaged"

    def checked_towns(self, found: list[tuple[str, int]]) -> list[str]:
        """The codes of ``found`` (code, vector id), each scored again by the scoring code, which
        does not read the store: a town whose scores differ from its vector means a damaged store,
        and no answer is shown."""
        from solvers.ninetiles.scoring import score_town
        from solvers.ninetiles.town import Town

        for code, v in found:
            if score_town(Town.from_code(code)) != self.vector(v):
                raise InputError(
                    f"{self._damaged}: town {code} does not score as its vector {v} says (rebuild it)"
                )
        return [code for code, _ in found]

    def rank_of(self, theme: int, column: np.ndarray) -> np.ndarray:
        """rank - 1 of each value of ``theme`` (1-based) among its possible scores."""
        values = self.values()[theme - 1]
        table = np.zeros(256, dtype=np.int16)
        for i, v in enumerate(values):
            table[int(v) & 0xFF] = i
        return table[np.asarray(column).astype(np.uint8)]

    # -- towns of vectors -------------------------------------------------------------------------
    def find_vector(self, vector: list[int]) -> int | None:
        if len(vector) != 26:
            raise InputError("a score vector has 26 values")
        hi, lo = E.pack(np.array([vector]))
        # sorted by (hi, lo)
        left = int(np.searchsorted(self.hi, hi[0], side="left"))
        right = int(np.searchsorted(self.hi, hi[0], side="right"))
        k = left + int(np.searchsorted(self.lo[left:right], lo[0]))
        if k < right and self.lo[k] == lo[0] and self.vector(k) == list(vector):
            return k
        return None

    def towns_of_vectors(
        self, vids: list[int], offset: int = 0, limit: int = 20
    ) -> Iterator[tuple[str, int]]:
        """(code, vector id) of the towns having any of the vectors, in vector order, paged."""
        skip = offset
        left = limit
        for v in vids:
            if left <= 0:
                return
            a, b = int(self.ptr[v]), int(self.ptr[v + 1])
            for k in range(a, b):
                n = int(self.post_cnt[k])
                if skip >= n:
                    skip -= n
                    continue
                row = np.asarray(self.synonyms[int(self.post_syn[k])])
                hi, lo, codes = E.expand(row, emit_codes=True)
                hit = np.flatnonzero((hi == self.hi[v]) & (lo == self.lo[v]))
                for code in codes[hit][skip : skip + left]:
                    yield f"{int(code):018d}", v
                    left -= 1
                skip = 0
                if left <= 0:
                    return

    # -- theme sets --------------------------------------------------------------------------------
    def best_vectors(self, themes: tuple[int, int, int]) -> tuple[int, int, np.ndarray]:
        """(themes at max, distance, optimal vector ids in listing order) for a theme set."""
        if len(set(themes)) != 3 or not all(1 <= t <= 26 for t in themes):
            raise InputError("give three different theme numbers 1..26")
        ranks = [self.rank_of(t, self.cols[t - 1]) for t in themes]
        at_max = np.sum([r == 0 for r in ranks], axis=0, dtype=np.int8)
        dist = np.sum([r.astype(np.int32) ** 2 for r in ranks], axis=0)
        best_at = int(at_max.max())
        mask = at_max == best_at
        best_dist = int(dist[mask].min())
        mask &= dist == best_dist
        vids = np.flatnonzero(mask)
        # among equals: closest to all-max over the 26 themes first, then most towns
        order = np.lexsort((-np.asarray(self.count[vids]), np.asarray(self.dist[vids])))
        return best_at, best_dist, vids[order]

    def best(self, themes: tuple[int, int, int], limit: int = 20, offset: int = 0) -> dict[str, Any]:
        """The optimum for a theme set: up to ``limit`` vectors, and towns ``offset``.. (paged)."""
        best_at, best_dist, vids = self.best_vectors(themes)
        town_count = int(np.asarray(self.count[vids]).sum())
        shown = vids[:limit]
        towns = self.checked_towns(list(self.towns_of_vectors([int(v) for v in vids], offset, limit)))
        return {
            "themes": list(themes),
            "at_max": best_at,
            "distance": best_dist,
            "score_vectors": [self.vector(int(v)) for v in shown],
            "score_vector_count": int(vids.shape[0]),
            "town_count": town_count,
            "towns": towns,
        }

    def histograms(self) -> dict[str, dict[str, int]]:
        """Per theme: score value -> number of towns."""
        counts = np.asarray(self.count).astype(np.float64)
        out: dict[str, dict[str, int]] = {}
        for t in range(26):
            col = np.asarray(self.cols[t]).astype(np.int64)
            shift = int(col.min())
            towns = np.bincount(col - shift, weights=counts).round().astype(np.int64)
            out[str(t + 1)] = {str(v + shift): int(n) for v, n in enumerate(towns) if n}
        return out

    def compute_stats(self, closest_limit: int = 100) -> dict[str, Any]:
        counts = np.asarray(self.count)
        per_theme: dict[str, Any] = {}
        at_max_bits = np.zeros(self.n_vectors, dtype=np.int64)
        for t in range(26):
            col = np.asarray(self.cols[t])
            values = np.unique(col)
            top = int(values.max())
            hit = col == top
            at_max_bits |= hit.astype(np.int64) << t
            per_theme[str(t + 1)] = {
                "values": [int(v) for v in values],
                "max": top,
                "towns_at_max": int(counts[hit].sum()),
            }
        masks, inverse = np.unique(at_max_bits, return_inverse=True)
        mask_towns = np.bincount(inverse, weights=counts.astype(np.float64)).round().astype(np.int64)
        perfect: dict[str, int] = {}
        for a, b, c in itertools.combinations(range(26), 3):
            want = (1 << a) | (1 << b) | (1 << c)
            n = int(mask_towns[(masks & want) == want].sum())
            if n:
                perfect[f"{a + 1},{b + 1},{c + 1}"] = n
        pops = np.array([bin(int(m)).count("1") for m in masks])
        most = int(pops.max())
        tied = [(int(mask_towns[i]), int(masks[i])) for i in np.flatnonzero(pops == most)]
        tied.sort(reverse=True)
        sets = [{"themes": _bits(m), "towns": n} for n, m in tied]
        dist = np.asarray(self.dist)
        dmin = int(dist.min())
        closest = np.flatnonzero(dist == dmin)
        closest = closest[np.argsort(-counts[closest], kind="stable")]
        closest_towns = [
            code for code, _ in self.towns_of_vectors([int(v) for v in closest], 0, closest_limit)
        ]
        return {
            "synonym_towns": int(self.synonyms.shape[0]),
            "towns": int(counts.sum()),
            "score_vectors": self.n_vectors,
            "per_theme": per_theme,
            "perfect_theme_sets": perfect,
            "max_themes_at_max": {
                "count": most,
                "themes": sets[0]["themes"],
                "towns": sets[0]["towns"],
                "all_sets": sets,
            },
            "closest_to_all_max": {
                "distance": dmin,
                "score_vector": self.vector(int(closest[0])),
                "score_vectors": [self.vector(int(v)) for v in closest],
                "town_count": int(counts[closest].sum()),
                "towns": closest_towns,
            },
            "histograms": self.histograms(),
            "subset": self.meta.get("subset"),
        }

    def stats(self) -> dict[str, Any]:
        cached = read_json(self.path / "stats.json")
        if cached is None or not STATS_KEYS <= set(cached):
            return self.compute_stats()
        if "histograms" not in cached:  # stores built before histograms were saved: add them once
            cached["histograms"] = self.histograms()
            try:
                write_json(self.path / "stats.json", cached)
            except OSError:
                pass
        return cached


# ---- checking a store on open ------------------------------------------------------------------------

ARRAY_NAMES = ("vec_hi", "vec_lo", "vec_cols", "vec_count", "vec_dist", "post_ptr", "post_syn", "post_cnt")
_KINDS = {"synonyms": "i", "vec_hi": "u", "vec_lo": "u", "vec_cols": "i", "vec_count": "i", "vec_dist": "i"}
_KINDS |= {"post_ptr": "i", "post_syn": "u", "post_cnt": "u"}
STATS_KEYS = {"synonym_towns", "towns", "score_vectors", "per_theme"}


def _load_arrays(path: Path) -> dict[str, np.ndarray]:
    """Memory-map the arrays and check their kinds and shapes, so queries never index garbage."""
    arrays: dict[str, np.ndarray] = {}
    for name in ("synonyms", *ARRAY_NAMES):
        file = path / f"{name}.npy"
        try:
            arr = np.load(file, mmap_mode="r")  # allow_pickle stays False: no code from the store
        except FileNotFoundError:
            raise InputError(f"the ninetiles store at {path} is damaged: {file.name} is missing") from None
        except (OSError, ValueError, EOFError) as exc:
            raise InputError(f"the ninetiles store at {path} is damaged: {file.name}: {exc}") from None
        if not isinstance(arr, np.ndarray) or arr.dtype.kind != _KINDS[name]:
            raise InputError(f"the ninetiles store at {path} is damaged: {file.name} has the wrong type")
        arrays[name] = arr
    v = arrays["vec_hi"].shape[0] if arrays["vec_hi"].ndim == 1 else -1
    ptr = arrays["post_ptr"]
    shapes_ok = (
        v >= 0
        and arrays["synonyms"].ndim == 2
        and arrays["synonyms"].shape[1] == 18
        and all(arrays[n].shape == (v,) for n in ("vec_lo", "vec_count", "vec_dist"))
        and arrays["vec_cols"].shape == (26, v)
        and ptr.shape == (v + 1,)
    )
    if shapes_ok:
        postings = int(ptr[-1])
        shapes_ok = int(ptr[0]) == 0 and all(arrays[n].shape == (postings,) for n in ("post_syn", "post_cnt"))
        shapes_ok = shapes_ok and (
            postings == 0 or int(np.asarray(arrays["post_syn"]).max()) < arrays["synonyms"].shape[0]
        )
    if not shapes_ok:
        raise InputError(
            f"the ninetiles store at {path} is damaged: its arrays do not fit together (rebuild it)"
        )
    return arrays


def file_digests(path: Path) -> dict[str, str]:
    """SHA-256 of each array file of a store, as its meta.json records them at build time."""
    return {f"{name}.npy": _digest(path / f"{name}.npy") for name in ("synonyms", *ARRAY_NAMES)}


def _digest(file: Path) -> str:
    digest = hashlib.sha256()
    with file.open("rb") as f:
        while chunk := f.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


# Stores verified in this process, by (folder, size and mtime of every array file): a check reads
# the whole store (0.6 GB: 0.6 s of hashing plus the reading), once.
_VERIFIED: set[tuple[str, tuple[tuple[int, int], ...]]] = set()


def verify(path: Path, meta: dict[str, Any]) -> None:
    """Check the array files against the SHA-256 sums the build recorded: a changed byte in a
    score column gave a confident "best town" that scores otherwise (QA, 2026-11-28). Stores built
    before the sums existed are not checked here; their answers are still checked town by town
    (``Store.checked_towns``)."""
    sums = meta.get("sha256")
    if not isinstance(sums, dict):
        return
    try:
        key = (
            str(path.resolve()),
            tuple((st.st_size, st.st_mtime_ns) for st in ((path / name).stat() for name in sorted(sums))),
        )
    except OSError as exc:
        raise InputError(f"the ninetiles store at {path} is damaged: {exc.strerror or exc}") from None
    if key in _VERIFIED:
        return
    for name, expected in sorted(sums.items()):
        if not SHA_NAME.fullmatch(name) or _digest(path / name) != expected:
            raise InputError(
                f"the ninetiles store at {path} is damaged: {name} does not match its checksum (rebuild it)"
            )
    _VERIFIED.add(key)


SHA_NAME = re.compile(r"[a-z_]{1,20}\.npy")  # names in meta.json are file names, never paths


def _bits(mask: int) -> list[int]:
    return [t + 1 for t in range(26) if (mask >> t) & 1]


def open_store(path: Path | None) -> Store:
    return Store(path or default_store_dir())


def read_json(path: Path) -> dict[str, Any] | None:
    """The object in a JSON file, or None (missing, unreadable, not JSON, or not an object)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)
