"""The explainer's grades and steps on the 35 corpus puzzles are pinned: speed work on the
techniques or the generator must not change what the explainer deduces, nor in which order.

To re-pin after a deliberate change of a technique, regenerate data/explain_pins.json with
``_trace_digest`` below (and say why in the commit).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from toichika_corpus import load_corpus

from solvers.toichika.explain import Explanation, explain

PINS = Path(__file__).with_name("data") / "explain_pins.json"


def _trace_digest(ex: Explanation) -> str:
    trace = [[s.rule, s.cells, sorted(s.applied.items()), s.text] for s in ex.steps]
    return hashlib.sha256(json.dumps(trace).encode()).hexdigest()[:16]


def test_corpus_grades_and_steps_are_pinned(shared_reference) -> None:
    pins = json.loads(PINS.read_text(encoding="utf-8"))
    got = {}
    for item in load_corpus(shared_reference):
        ex = explain(item.puzzle)
        got[item.name] = {"digest": _trace_digest(ex), "grade": ex.grade(), "steps": len(ex.steps)}
    assert len(got) == 35
    assert got == pins
