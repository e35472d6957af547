"""The full enumeration (about 5 minutes on 2 cores): only with --runslow.

Reuses a complete store from ``NINETILES_FULL_STORE`` if given, else builds one in a temp folder.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from solvers.ninetiles.scoring import score_towns, theme_values
from solvers.ninetiles.store import Store
from solvers.ninetiles.store_build import build
from solvers.ninetiles.town import Town, validity


@pytest.mark.slow
def test_full_enumeration_matches_the_reference_histograms(shared_reference: Path, tmp_path: Path) -> None:
    folder = Path(os.environ["NINETILES_FULL_STORE"]) if os.environ.get("NINETILES_FULL_STORE") else tmp_path
    if not (folder / "stats.json").exists():
        build(folder, workers=os.cpu_count())
    store = Store(folder)
    stats = store.stats()
    assert (stats["synonym_towns"], stats["towns"]) == (63_660, 526_070_976)
    ref = json.loads(
        (shared_reference / "nine_tiles_panic" / "data" / "derived_theme_value_histograms.json").read_text()
    )
    counts = np.asarray(store.count)
    for t in range(26):
        col = np.asarray(store.cols[t])
        hist = {str(int(v)): int(counts[col == v].sum()) for v in np.unique(col)}
        assert hist == ref["themes"][str(t + 1)]["histogram"], t + 1
    shipped = theme_values()
    for t in range(1, 27):
        entry = stats["per_theme"][str(t)]
        assert shipped[t] == {k: entry[k] for k in ("values", "max", "towns_at_max")}
    best = store.best((1, 2, 20), limit=5)
    towns = [Town.from_code(c) for c in best["towns"]]
    assert towns and all(validity(t)[0] for t in towns)
    assert score_towns(towns).tolist()[0] == best["score_vectors"][0]
