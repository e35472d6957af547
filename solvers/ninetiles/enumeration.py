"""Every town, the reference way (town_rules.md §5-§6): road-shape ("synonym") towns first, then
their expansion to real tiles, with staged scoring.

* A *synonym town* gives each position a road-shape class (0 none, 1 one curve, 2 two curves,
  3 one straight, 4 two straights) and a class rotation; it must obey the town rules and use each
  class at most as often as the tiles allow. Of each whole-town rotation class only the numerically
  smallest 18-digit code is kept: 63,660 towns.
* Expansion replaces each class by the real faces of that shape (each tile once, the reference's
  reduced table of turns), giving 526,070,976 towns.
* Scoring is staged: the roads (order of pieces, reading direction) are traced once per synonym town,
  face themes once per tile order, and only the objects are looked up per town.

Score vectors are packed into two uint64 words (5 bits per theme) so they can be sorted and counted
in bulk; theme 4 (always 0) and theme 15 (= -theme 10) are implied and checked, not stored.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numba import njit

from solvers.ninetiles import scoring as S
from solvers.ninetiles import tiles as T
from solvers.ninetiles.town import border_ids, global_edge

# ---- synonym faces --------------------------------------------------------------------------------
CANONICAL_ROADS = {0: (), 1: ((0, 1),), 2: ((0, 1), (2, 3)), 3: ((0, 2),), 4: ((0, 2), (1, 3))}
CLASS_TURNS = (1, 4, 2, 2, 1)  # distinct rotations of each class
# (class, rotation) of the 10 synonym faces, in code order
SYN_FACES = tuple((c, s) for c in range(5) for s in range(CLASS_TURNS[c]))


def class_limits() -> np.ndarray:
    """How many positions may use each class: the number of tiles having a face of that class."""
    limits = np.zeros(5, dtype=np.int64)
    for f in T.faces():
        limits[f.shape_class] += 1
    return limits


@cache
def tables() -> dict[str, np.ndarray]:
    """All numeric tables the kernels need."""
    nf = len(SYN_FACES)
    sclass = np.array([c for c, _ in SYN_FACES], dtype=np.int64)
    srot = np.array([s for _, s in SYN_FACES], dtype=np.int64)
    sseg = np.zeros((nf, 2, 2), dtype=np.int64)
    snseg = np.zeros(nf, dtype=np.int64)
    smask = np.zeros(nf, dtype=np.int64)
    for i, (c, s) in enumerate(SYN_FACES):
        roads = CANONICAL_ROADS[c]
        snseg[i] = len(roads)
        for j, (a, b) in enumerate(roads):
            sseg[i, j] = ((a + s) % 4, (b + s) % 4)
            smask[i] |= (1 << ((a + s) % 4)) | (1 << ((b + s) % 4))
    gid = np.array([[global_edge(p, e) for e in range(4)] for p in range(9)], dtype=np.int64)
    border = np.zeros(36, dtype=np.bool_)
    for b in border_ids():
        border[b] = True

    # Expansion: for class c and tile t, the base digits x (reference table: every pictorially
    # distinct turn of the face, as the smallest digit of its kind, over the class rotations).
    nvar = np.zeros((5, 9), dtype=np.int64)
    xbase = np.zeros((5, 9, 4), dtype=np.int64)
    face_of = np.full((5, 9), -1, dtype=np.int64)
    # obj[c, t, v, s, j, e] = object code on synonym road j when the road enters at local edge e
    obj = np.zeros((5, 9, 4, 4, 2, 4), dtype=np.int8)
    for f in T.faces():
        c = f.shape_class
        face_of[c, f.tile] = f.index
        bases = _base_digits(f)
        nvar[c, f.tile] = len(bases)
        for v, x in enumerate(bases):
            xbase[c, f.tile, v] = x
            for s in range(CLASS_TURNS[c]):
                k = (s + x) % 4
                real = f.rotated_segments(k)
                for j, (a, b) in enumerate(CANONICAL_ROADS[c]):
                    ends = {(a + s) % 4, (b + s) % 4}
                    seg = next(sg for sg in real if {sg.a, sg.b} == ends)
                    for e in ends:
                        obj[c, f.tile, v, s, j, e] = _object_code(seg, e)
    return {
        "sclass": sclass,
        "srot": srot,
        "sseg": sseg,
        "snseg": snseg,
        "smask": smask,
        "limits": class_limits(),
        "gid": gid,
        "border": border,
        "nvar": nvar,
        "xbase": xbase,
        "face_of": face_of,
        "obj": obj,
        "feat": S.FEATURES,
        "largest": S.LARGEST,
    }


def _base_digits(f: T.Face) -> list[int]:
    """Base digits x (side bit + turn) whose turns x + s (s < class turns) give distinct pictures.

    A face of class c is placed at synonym rotation s with turn (s + x) mod 4. Base turns that are
    congruent modulo the class's period (4 / class turns) give the same road shape; among them keep
    those whose object placement differs, smallest first (this is the reference's table)."""
    side_bit = 4 * f.side
    # the turns that map the canonical shape onto this face's shape
    canon = {frozenset(r) for r in CANONICAL_ROADS[f.shape_class]}
    fits = [k for k in range(4) if {frozenset((s.a, s.b)) for s in f.rotated_segments(k)} == canon]
    seen: set[tuple] = set()
    out: list[int] = []
    for k in fits:
        picture = tuple(
            sorted((min(s.a, s.b), max(s.a, s.b), s.kind, s.facing) for s in f.rotated_segments(k))
        )
        if picture not in seen:
            seen.add(picture)
            out.append(side_bit + k)
    return out


def _object_code(seg: T.Segment, enter: int) -> int:
    if seg.kind == T.HAMBURGER:
        return S.OBJ_H
    if seg.kind == T.AGENT:
        return S.OBJ_AG_L if seg.facing == enter else S.OBJ_AG_R
    if seg.kind == T.ALIEN:
        return S.OBJ_AL_L if seg.facing == enter else S.OBJ_AL_R
    return S.OBJ_NONE


# ---- synonym towns ---------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True, nogil=True)
def _has_loop(choice, sseg, snseg, gid):
    parent = np.arange(36)
    for p in range(9):
        f = choice[p]
        for j in range(snseg[f]):
            a = _find(parent, gid[p, sseg[f, j, 0]])
            b = _find(parent, gid[p, sseg[f, j, 1]])
            if a == b:
                return True
            parent[a] = b
    return False


@njit(cache=True, nogil=True)
def _synonym_search(sclass, smask, sseg, snseg, limits, gid, out):
    """All valid synonym towns (every whole-town rotation) as rows of 9 synonym-face indices."""
    nf = sclass.shape[0]
    choice = np.full(9, -1, dtype=np.int64)
    counts = np.zeros(5, dtype=np.int64)
    n = 0
    p = 0
    while p >= 0:
        if choice[p] >= 0:
            counts[sclass[choice[p]]] -= 1
        f = choice[p] + 1
        while f < nf:
            ok = counts[sclass[f]] < limits[sclass[f]]
            if ok and p % 3 > 0:
                ok = ((smask[choice[p - 1]] >> 3) & 1) == ((smask[f] >> 1) & 1)
            if ok and p >= 3:
                ok = ((smask[choice[p - 3]] >> 2) & 1) == (smask[f] & 1)
            if ok:
                break
            f += 1
        if f == nf:
            choice[p] = -1
            p -= 1
            continue
        choice[p] = f
        counts[sclass[f]] += 1
        if p == 8:
            if not _has_loop(choice, sseg, snseg, gid):
                if n < out.shape[0]:
                    out[n] = choice
                n += 1
        else:
            p += 1
            choice[p] = -1
    return n


ROTATE_SRC = (2, 5, 8, 1, 4, 7, 0, 3, 6)  # after a quarter turn CCW, position p holds the old ROTATE_SRC[p]


def _codes(rows: np.ndarray) -> np.ndarray:
    """int64 18-digit codes of synonym rows int8[N, 18] (classes then rotations)."""
    weights = 10 ** np.arange(17, -1, -1, dtype=np.int64)
    return rows.astype(np.int64) @ weights


def rotate_synonym_rows(rows: np.ndarray) -> np.ndarray:
    classes = rows[:, :9][:, ROTATE_SRC]
    rots = rows[:, 9:][:, ROTATE_SRC]
    turns = np.array(CLASS_TURNS, dtype=np.int64)[classes]
    new_rots = np.where(turns > 1, (rots.astype(np.int64) + 1) % turns, 0)
    return np.concatenate([classes, new_rots], axis=1).astype(np.int8)


@cache
def synonym_towns() -> np.ndarray:
    """int8[63660, 18]: the canonical synonym towns (smallest code of each rotation class), sorted."""
    t = tables()
    out = np.zeros((400_000, 9), dtype=np.int64)
    n = _synonym_search(t["sclass"], t["smask"], t["sseg"], t["snseg"], t["limits"], t["gid"], out)
    if n > out.shape[0]:
        raise RuntimeError("synonym search buffer too small")
    choice = out[:n]
    rows = np.concatenate([t["sclass"][choice], t["srot"][choice]], axis=1).astype(np.int8)
    codes = _codes(rows)
    smallest = codes.copy()
    rotated = rows
    for _ in range(3):
        rotated = rotate_synonym_rows(rotated)
        smallest = np.minimum(smallest, _codes(rotated))
    keep = rows[codes == smallest]
    order = np.argsort(_codes(keep))
    return keep[order]


def synonym_code(row: np.ndarray) -> str:
    return "".join(str(int(v)) for v in row)


# ---- expansion + scoring ------------------------------------------------------------------------------

MAX_STEPS = 18


@njit(cache=True, nogil=True)
def _trace_synonym(classes, rots, sseg_by_cs, gid, border, steps, road_len):
    """Roads of a synonym town: steps[r, i] = (position, synonym road j, entered local edge)."""
    # pieces: (p, j, ga, gb, la, lb)
    npieces = 0
    pieces = np.zeros((18, 6), dtype=np.int64)
    at = np.full((36, 2), -1, dtype=np.int64)
    for p in range(9):
        c, s = classes[p], rots[p]
        for j in range(2):
            la = sseg_by_cs[c, s, j, 0]
            if la < 0:
                continue
            lb = sseg_by_cs[c, s, j, 1]
            ga, gb = gid[p, la], gid[p, lb]
            pieces[npieces, 0] = p
            pieces[npieces, 1] = j
            pieces[npieces, 2] = ga
            pieces[npieces, 3] = gb
            pieces[npieces, 4] = la
            pieces[npieces, 5] = lb
            for g in (ga, gb):
                if at[g, 0] < 0:
                    at[g, 0] = npieces
                else:
                    at[g, 1] = npieces
            npieces += 1
    used = np.zeros(18, dtype=np.bool_)
    nroads = 0
    for start in range(36):
        if not border[start] or at[start, 0] < 0 or used[at[start, 0]]:
            continue
        cur = start
        piece = at[start, 0]
        k = 0
        while piece >= 0 and not used[piece]:
            used[piece] = True
            ga = pieces[piece, 2]
            gb = pieces[piece, 3]
            steps[nroads, k, 0] = pieces[piece, 0]
            steps[nroads, k, 1] = pieces[piece, 1]
            if cur == ga:
                steps[nroads, k, 2] = pieces[piece, 4]
                cur = gb
            else:
                steps[nroads, k, 2] = pieces[piece, 5]
                cur = ga
            k += 1
            nxt = at[cur, 0] if at[cur, 0] != piece else at[cur, 1]
            piece = nxt
        road_len[nroads] = k
        nroads += 1
    return nroads


def sseg_by_class_rotation() -> np.ndarray:
    table = np.full((5, 4, 2, 2), -1, dtype=np.int64)
    for c in range(5):
        for s in range(CLASS_TURNS[c]):
            for j, (a, b) in enumerate(CANONICAL_ROADS[c]):
                table[c, s, j] = ((a + s) % 4, (b + s) % 4)
    return table


SKIPPED = (3, 14)  # themes 4 and 15 (0-based columns): implied, not packed
PACKED_COLUMNS = tuple(k for k in range(26) if k not in SKIPPED)  # 24 columns, 12 per word


@njit(cache=True, nogil=True)
def _pack(vec, cols):
    lo = np.uint64(0)
    hi = np.uint64(0)
    for i in range(12):
        lo |= np.uint64(vec[cols[i]]) << np.uint64(5 * i)
        hi |= np.uint64(vec[cols[12 + i]]) << np.uint64(5 * i)
    return hi, lo


@njit(cache=True, nogil=True)
def _expand(
    classes,
    rots,
    t_nvar,
    t_xbase,
    t_face_of,
    t_obj,
    feat,
    largest,
    sseg_cs,
    gid,
    border,
    cols,
    emit,
    out_hi,
    out_lo,
    out_code,
):
    """Expand one synonym town; write packed scores (and codes if ``emit``). Returns (count, error)."""
    steps = np.zeros((12, MAX_STEPS, 3), dtype=np.int64)
    road_len = np.zeros(12, dtype=np.int64)
    nroads = _trace_synonym(classes, rots, sseg_cs, gid, border, steps, road_len)
    objs = np.zeros((12, MAX_STEPS), dtype=np.int8)
    nobj = np.zeros(12, dtype=np.int64)
    vec = np.zeros(26, dtype=np.int64)
    faces = np.zeros(9, dtype=np.int64)
    tile = np.full(9, -1, dtype=np.int64)
    var = np.zeros(9, dtype=np.int64)
    used = np.zeros(9, dtype=np.bool_)
    n = 0
    error = 0
    p = 0
    while p >= 0:
        # next tile for position p
        if tile[p] >= 0:
            used[tile[p]] = False
        t = tile[p] + 1
        while t < 9 and (used[t] or t_nvar[classes[p], t] == 0):
            t += 1
        if t == 9:
            tile[p] = -1
            p -= 1
            continue
        tile[p] = t
        used[t] = True
        if p < 8:
            p += 1
            tile[p] = -1
            continue
        # a full tile order: face and shape themes once, then every combination of variants
        for q in range(9):
            faces[q] = t_face_of[classes[q], tile[q]]
            var[q] = 0
        netted, burgers, ufos = S.face_themes(vec, faces, feat, largest)
        S.shape_themes(vec, faces, feat, nroads, road_len)
        while True:
            for r in range(nroads):
                m = 0
                for i in range(road_len[r]):
                    q = steps[r, i, 0]
                    oc = t_obj[classes[q], tile[q], var[q], rots[q], steps[r, i, 1], steps[r, i, 2]]
                    if oc != 0:
                        objs[r, m] = oc
                        m += 1
                nobj[r] = m
            S.object_themes(vec, nroads, objs, nobj, netted, burgers, ufos)
            if vec[3] != 0 or vec[14] != -vec[9]:
                error = 1
            for i in range(24):
                if vec[cols[i]] < 0 or vec[cols[i]] > 31:
                    error = 2
            if n < out_hi.shape[0]:
                hi, lo = _pack(vec, cols)
                out_hi[n] = hi
                out_lo[n] = lo
                if emit:
                    code = 0
                    for q in range(9):
                        code = code * 10 + tile[q]
                    for q in range(9):
                        x = t_xbase[classes[q], tile[q], var[q]]
                        code = code * 10 + 4 * (x // 4) + (rots[q] + x) % 4
                    out_code[n] = code
            n += 1
            # next variant combination (mixed radix over positions)
            q = 0
            while q < 9:
                var[q] += 1
                if var[q] < t_nvar[classes[q], tile[q]]:
                    break
                var[q] = 0
                q += 1
            if q == 9:
                break
    return n, error


@njit(cache=True, nogil=True)
def _count_expansions(classes, t_nvar):
    """Number of towns a synonym town expands to (tile orders x variant products)."""
    tile = np.full(9, -1, dtype=np.int64)
    used = np.zeros(9, dtype=np.bool_)
    total = 0
    p = 0
    while p >= 0:
        if tile[p] >= 0:
            used[tile[p]] = False
        t = tile[p] + 1
        while t < 9 and (used[t] or t_nvar[classes[p], t] == 0):
            t += 1
        if t == 9:
            tile[p] = -1
            p -= 1
            continue
        tile[p] = t
        used[t] = True
        if p < 8:
            p += 1
            tile[p] = -1
            continue
        prod = 1
        for q in range(9):
            prod *= t_nvar[classes[q], tile[q]]
        total += prod
    return total


def _kernel_args() -> tuple:
    t = tables()
    return (
        t["nvar"],
        t["xbase"],
        t["face_of"],
        t["obj"],
        t["feat"],
        t["largest"],
        _sseg_cs(),
        t["gid"],
        t["border"],
        np.array(PACKED_COLUMNS, dtype=np.int64),
    )


@cache
def _sseg_cs() -> np.ndarray:
    return sseg_by_class_rotation()


def count_towns(row: np.ndarray) -> int:
    return int(_count_expansions(row[:9].astype(np.int64), tables()["nvar"]))


def expand(row: np.ndarray, emit_codes: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hi, lo, codes) of every town of synonym town ``row`` (codes empty unless ``emit_codes``)."""
    classes = row[:9].astype(np.int64)
    rots = row[9:].astype(np.int64)
    n = count_towns(row)
    hi = np.zeros(n, dtype=np.uint64)
    lo = np.zeros(n, dtype=np.uint64)
    codes = np.zeros(n if emit_codes else 0, dtype=np.int64)
    expand: Any = _expand  # a numba dispatcher: its stub's __call__ does not list the kernel's arguments
    got, error = expand(
        classes, rots, *_kernel_args(), emit_codes, hi, lo, codes if emit_codes else np.zeros(1, np.int64)
    )
    if got != n or error:
        raise RuntimeError(f"expansion of {synonym_code(row)} failed (towns {got}/{n}, error {error})")
    return hi, lo, codes


def unpack(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """int8[N, 26] score vectors from packed words."""
    hi = np.asarray(hi, dtype=np.uint64)
    lo = np.asarray(lo, dtype=np.uint64)
    out = np.zeros((hi.shape[0], 26), dtype=np.int8)
    for i, col in enumerate(PACKED_COLUMNS):
        word, shift = (lo, i) if i < 12 else (hi, i - 12)
        out[:, col] = ((word >> np.uint64(5 * shift)) & np.uint64(31)).astype(np.int8)
    out[:, 14] = -out[:, 9]
    return out


def pack(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    v = np.asarray(vectors, dtype=np.int64)
    hi = np.zeros(v.shape[0], dtype=np.uint64)
    lo = np.zeros(v.shape[0], dtype=np.uint64)
    for i, col in enumerate(PACKED_COLUMNS):
        if i < 12:
            lo |= v[:, col].astype(np.uint64) << np.uint64(5 * i)
        else:
            hi |= v[:, col].astype(np.uint64) << np.uint64(5 * (i - 12))
    return hi, lo


def code_strings(codes: np.ndarray) -> list[str]:
    return [f"{int(c):018d}" for c in codes]
