"""Generators and panel pastes ask before replacing unsaved work, as Open, Import and Paste do (29.9)."""

from __future__ import annotations

import pytest

from solvers.common.protocol import EditResult

pytestmark = pytest.mark.gui


def _dirty(view, text: str) -> None:
    puzzle = view.plugin.parse(text)
    view.doc.apply(EditResult(puzzle=puzzle, entries=view.plugin.empty_entries(puzzle), label="my edit"))
    assert view.doc.dirty


def _answering(window, answer: str) -> list[str]:
    asked: list[str] = []

    def confirm(view) -> str:
        asked.append(view.plugin.meta.id)
        return answer

    window.confirm = confirm
    return asked


def _generate_flow(view) -> None:
    panel = view.panel("Flow")
    panel.width_box.setValue(5)
    panel.height_box.setValue(5)
    panel.generate_button.click()


def _generate_toichika(view) -> None:
    generator = view.panel("Steps").generator
    generator.gen_width.setValue(4)
    generator.gen_height.setValue(4)
    generator.gen_seed.setValue(7)
    generator.generate_button.click()


def _paste_toichika(view) -> None:
    view.panel("Steps").paste_url("https://puzz.link/p?toichika/4/4/n70kt84j")


CASES = [
    ("flow", "R..R\nG..G\n....\n", _generate_flow),
    ("toichika", "https://puzz.link/p?toichika/6/2/vv00g", _generate_toichika),
    ("toichika", "https://puzz.link/p?toichika/6/2/vv00g", _paste_toichika),
]


@pytest.mark.parametrize(("kind", "mine", "replace"), CASES)
def test_cancel_keeps_the_users_board_and_discard_replaces_it(
    main_window, qtbot, kind, mine, replace
) -> None:
    view = main_window.show_kind(kind)
    _dirty(view, mine)
    kept = view.doc.puzzle
    asked = _answering(main_window, "cancel")
    replace(view)
    assert asked == [kind]
    qtbot.wait(300)
    assert view.doc.puzzle is kept
    asked = _answering(main_window, "discard")
    replace(view)
    assert asked == [kind]
    qtbot.waitUntil(lambda: view.doc.puzzle != kept, timeout=60_000)
    qtbot.waitUntil(lambda: not view.busy(), timeout=60_000)


def test_a_saved_board_is_replaced_without_a_question(main_window, qtbot) -> None:
    view = main_window.show_kind("toichika")
    asked = _answering(main_window, "cancel")
    _paste_toichika(view)
    assert asked == []
    assert view.plugin.serialize(view.doc.puzzle) == view.plugin.serialize(
        view.plugin.parse("https://puzz.link/p?toichika/4/4/n70kt84j")
    )
