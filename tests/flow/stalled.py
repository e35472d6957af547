"""A search that never ends, to stand in for one of the solver's stages in tests."""

from __future__ import annotations

from collections.abc import Iterator

from solvers.common.cancel import CancelToken


def stalled(graph: object, _what: object, cancel: CancelToken | None, *_rest: object) -> Iterator[None]:
    """A search that never ends (``_canonical_search`` or ``_staged_steps``), as the proof of a
    published 20x20 seems to; it looks at the cancel token like the real ones."""
    while True:
        if cancel is not None:
            cancel.raise_if_cancelled()
        yield None
