"""The 26 theme scores, as numba kernels over plain arrays (one town or millions).

A town is handed to the kernels as
* ``faces``: int8[9] face index (2 * tile + side) per position,
* ``nroads``, ``lengths[r]``: number of roads and their lengths (segments),
* ``objs[r, i]`` / ``nobj[r]``: the objects of road ``r`` in reading order, coded
  ``OBJ_H``, ``OBJ_AG_L``, ``OBJ_AG_R``, ``OBJ_AL_L``, ``OBJ_AL_R`` (L = looks back toward the road's
  start, R = toward its end; see town_rules.md §4).
The rules follow the reference reading of each card (docs/ninetiles.md lists the ambiguities).
Larger is always better; theme 4 (speed) is 0; theme 15 (fewest roads) is negated.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.ninetiles import tiles as T
from solvers.ninetiles.themes import THEME_NAMES, capture_flags, theme_values  # noqa: F401 (re-exported)
from solvers.ninetiles.town import Town, trace_roads

N_THEMES = 26
MAX_ROADS = 12  # 24 road ends at most, so at most 12 chains (6 in a valid town: 12 border ids)
MAX_OBJS = 18  # at most one object per segment, 18 segments at most

OBJ_NONE, OBJ_H, OBJ_AG_L, OBJ_AG_R, OBJ_AL_L, OBJ_AL_R = range(6)
OBJ_LABELS = ("", "H", "Ag-L", "Ag-R", "Al-L", "Al-R")


# Which themes depend on what (for staged scoring and for the docs).
SHAPE_THEMES = (4, 5, 6, 10, 11, 13, 15)
FACE_THEMES = (3, 7, 9, 12, 21, 22, 23, 24, 25, 26)
OBJECT_THEMES = (1, 2, 8, 14, 16, 17, 18, 19, 20)
# Themes whose value can change when the whole town is rotated (reading direction matters).
DIRECTION_THEMES = (1, 8, 16, 17, 19)


def _largest_component_table() -> np.ndarray:
    """int8[512]: size of the largest 4-connected group of the positions set in a 9-bit mask."""
    table = np.zeros(512, dtype=np.int8)
    for mask in range(512):
        best = 0
        seen = 0
        for start in range(9):
            if not (mask >> start) & 1 or (seen >> start) & 1:
                continue
            stack = [start]
            seen |= 1 << start
            size = 0
            while stack:
                p = stack.pop()
                size += 1
                r, c = divmod(p, 3)
                for q, ok in ((p - 3, r > 0), (p + 3, r < 2), (p - 1, c > 0), (p + 1, c < 2)):
                    if ok and (mask >> q) & 1 and not (seen >> q) & 1:
                        seen |= 1 << q
                        stack.append(q)
            best = max(best, size)
        table[mask] = best
    return table


LARGEST = _largest_component_table()
FEATURES = T.face_features()


@njit(cache=True, nogil=True)
def face_themes(out, faces, feat, largest):
    """Themes 3, 7, 9, 12, 21-26 and the face counts the other themes need.

    Returns (netted aliens, hamburgers, ufos) for themes 1, 8 and 17."""
    dogs = girls = boys = houses = agents = netted = burgers = ufos = 0
    dog_mask = alien_free_mask = citizen_mask = house_mask = 0
    for p in range(9):
        f = faces[p]
        dogs += feat[f, 0]
        girls += feat[f, 1]
        boys += feat[f, 2]
        houses += feat[f, 3]
        ufos += feat[f, 4]
        agents += feat[f, 5]
        netted += feat[f, 6]
        burgers += feat[f, 13]
        if feat[f, 9]:
            dog_mask |= 1 << p
        if not feat[f, 10]:
            alien_free_mask |= 1 << p
        if feat[f, 11]:
            citizen_mask |= 1 << p
        if feat[f, 12]:
            house_mask |= 1 << p
    out[2] = largest[dog_mask]
    out[6] = houses
    out[8] = agents
    out[11] = dogs
    out[20] = largest[alien_free_mask]
    out[21] = largest[citizen_mask]
    out[22] = largest[house_mask]
    out[23] = min(girls + boys, dogs)
    out[24] = girls
    out[25] = boys
    return netted, burgers, ufos


@njit(cache=True, nogil=True)
def shape_themes(out, faces, feat, nroads, lengths):
    """Themes 4, 5, 6, 10, 11, 13, 15 (road geometry only)."""
    curves = noroad = 0
    for p in range(9):
        curves += feat[faces[p], 7]
        noroad += feat[faces[p], 8]
    longest = 0
    same = 0
    for r in range(nroads):
        if lengths[r] > longest:
            longest = lengths[r]
        k = 0
        for q in range(nroads):
            if lengths[q] == lengths[r]:
                k += 1
        if k > same:
            same = k
    out[3] = 0
    out[4] = longest
    out[5] = curves
    out[9] = nroads
    out[10] = noroad
    out[12] = same
    out[14] = -nroads


@njit(cache=True, nogil=True)
def object_themes(out, nroads, objs, nobj, netted, burgers, ufos):
    """Themes 1, 2, 8, 14, 16, 17, 18, 19, 20 (objects in road reading order)."""
    captured = np.zeros(objs.shape[1], dtype=np.bool_)
    total_captured = 0
    total_free = 0
    t2 = t14 = t16 = t18 = t19 = t20 = 0
    for r in range(nroads):
        n = nobj[r]
        row = objs[r]
        # capture pass (themes.md §0): one waiting right-facing agent, latest free alien per facing
        waiting_r = -1
        free_l = -1
        free_r = -1
        for i in range(n):
            captured[i] = False
        for i in range(n):
            o = row[i]
            if o == 3:  # agent facing R
                waiting_r = i
            elif o == 2:  # agent facing L: catch the nearer of the remembered free aliens
                if free_l >= 0 or free_r >= 0:
                    if free_l > free_r:
                        captured[free_l] = True
                        free_l = -1
                    else:
                        captured[free_r] = True
                        free_r = -1
            elif o == 4 or o == 5:
                if waiting_r >= 0:
                    captured[i] = True
                    waiting_r = -1
                elif o == 4:
                    free_l = i
                else:
                    free_r = i
        agents = free_here = 0
        for i in range(n):
            o = row[i]
            if o == 2 or o == 3:
                agents += 1
            elif o == 4 or o == 5:
                if captured[i]:
                    total_captured += 1
                else:
                    free_here += 1
        total_free += free_here
        if agents > t14:
            t14 = agents
        if free_here > t19:
            t19 = free_here
        # theme 2: aliens strictly between an R-agent and the next agent, if that one faces L
        counting = False
        between = 0
        for i in range(n):
            o = row[i]
            if o == 3:
                counting = True
                between = 0
            elif o == 2:
                if counting and between > t2:
                    t2 = between
                counting = False
            elif (o == 4 or o == 5) and counting:
                between += 1
        # theme 16: hamburgers in front of a free alien, up to the next free alien
        h = 0
        open_r = False
        for i in range(n):
            o = row[i]
            if o == 1:
                h += 1
            elif (o == 4 or o == 5) and not captured[i]:
                if o == 5:
                    if open_r and h > t16:
                        t16 = h
                    open_r = True
                else:
                    if h > t16:
                        t16 = h
                    open_r = False
                h = 0
        if open_r and h > t16:
            t16 = h
        # theme 18: aliens facing an agent, per agent side, up to the neighbouring agent
        seen_agent = False
        cl = cr = 0
        for i in range(n):
            o = row[i]
            if o == 4:
                cl += 1
            elif o == 5:
                cr += 1
            elif o == 2 or o == 3:
                if seen_agent and cl > t18:
                    t18 = cl
                if cr > t18:
                    t18 = cr
                seen_agent = True
                cl = cr = 0
        if seen_agent and cl > t18:
            t18 = cl
        # theme 20: agent -> alien -> hamburger, three consecutive objects, either reading direction
        for i in range(n - 2):
            a, b, c = row[i], row[i + 1], row[i + 2]
            if (a == 3 and b == 5 and c == 1) or (a == 1 and b == 4 and c == 2):
                t20 += 1
    out[0] = total_captured + netted
    out[1] = t2
    out[7] = total_free * burgers
    out[13] = t14
    out[15] = t16
    out[16] = ufos * total_free
    out[17] = t18
    out[18] = t19
    out[19] = t20


@njit(cache=True, nogil=True)
def score_one(out, faces, feat, largest, nroads, lengths, objs, nobj):
    netted, burgers, ufos = face_themes(out, faces, feat, largest)
    shape_themes(out, faces, feat, nroads, lengths)
    object_themes(out, nroads, objs, nobj, netted, burgers, ufos)


@njit(cache=True, nogil=True)
def score_batch(faces, nroads, lengths, objs, nobj, feat, largest):
    """Scores of many towns: faces int8[N, 9], nroads int8[N], lengths int8[N, R], objs int8[N, R, L]."""
    n = faces.shape[0]
    out = np.zeros((n, 26), dtype=np.int8)
    tmp = np.zeros(26, dtype=np.int32)
    for k in range(n):
        score_one(tmp, faces[k], feat, largest, nroads[k], lengths[k], objs[k], nobj[k])
        for t in range(26):
            out[k, t] = tmp[t]
    return out


# ---- Python front end ------------------------------------------------------------------------------

_LABEL_CODE = {label: i for i, label in enumerate(OBJ_LABELS) if label}


def encode_towns(towns: list[Town]) -> tuple[np.ndarray, ...]:
    """Arrays for ``score_batch`` from complete towns (roads traced in Python)."""
    n = len(towns)
    faces = np.zeros((n, 9), dtype=np.int8)
    nroads = np.zeros(n, dtype=np.int8)
    lengths = np.zeros((n, MAX_ROADS), dtype=np.int8)
    objs = np.zeros((n, MAX_ROADS, MAX_OBJS), dtype=np.int8)
    nobj = np.zeros((n, MAX_ROADS), dtype=np.int8)
    for k, town in enumerate(towns):
        for p in range(9):
            faces[k, p] = 2 * town.tiles[p] + town.dirs[p] // 4
        roads = trace_roads(town)
        nroads[k] = len(roads)
        for r, road in enumerate(roads):
            lengths[k, r] = road.length
            nobj[k, r] = len(road.objects)
            for i, label in enumerate(road.object_labels()):
                objs[k, r, i] = _LABEL_CODE[label]
    return faces, nroads, lengths, objs, nobj


def score_towns(towns: list[Town]) -> np.ndarray:
    """int8[N, 26] theme scores (theme 1 in column 0) of complete, valid towns."""
    faces, nroads, lengths, objs, nobj = encode_towns(towns)
    return score_batch(faces, nroads, lengths, objs, nobj, FEATURES, LARGEST)


def score_town(town: Town) -> list[int]:
    return [int(v) for v in score_towns([town])[0]]
