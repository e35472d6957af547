"""QA pass 8: a community ``.flow`` file whose directives contradict each other.

``# fill: true`` then ``# fill: false`` (or ``# type: square`` then ``# type: hex``) was read as the
last one, silently: the same rows were solved under other rules or on another grid, with exit 0."""

from __future__ import annotations

import pytest

from solvers.common.errors import ParseError
from solvers.flow import codec
from solvers.flow.model import FLOW_RULES, NUMBERLINK

ROWS = "R.G\n...\nR.G\n"


@pytest.mark.parametrize(
    ("text", "line", "said"),
    [
        (
            "# fill: true\n# fill: false\n" + ROWS,
            2,
            "a second '# fill:' line says 'false', the first (line 1) 'true'",
        ),
        (
            "# type: square\n# type: hex\n" + ROWS,
            2,
            "a second '# type:' line says 'hex', the first (line 1) 'square'",
        ),
        ("# size: 3x3\n# size: 4x4\n" + ROWS, 2, "a second '# size:' line says '4x4'"),
        ("# fill: false\n" + ROWS + "# fill: true\n", 5, "the first (line 1) 'false'"),
    ],
)
def test_a_directive_that_contradicts_an_earlier_one_is_refused(text: str, line: int, said: str) -> None:
    with pytest.raises(ParseError) as caught:
        codec.parse(text)
    assert caught.value.line == line and caught.value.column == 9
    assert said in caught.value.message


def test_a_directive_repeated_with_the_same_meaning_still_reads() -> None:
    puzzle = codec.parse("# fill: false\n# FILL: False\n# size: 3x3\n# size: 3 x 3\n" + ROWS)
    assert puzzle.rules == NUMBERLINK and (puzzle.rows, puzzle.cols) == (3, 3)
    assert codec.parse("# fill: true\n" + ROWS).rules == FLOW_RULES
