"""View > Module: every module by number and Ctrl+1..9, for keyboard-only use (QA pass 9: the
sidebar took four Tab presses and showed no focus, and no key or menu entry switched modules)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from solvers.common import registry

pytestmark = pytest.mark.gui


def test_each_module_has_an_entry_and_a_key_in_sidebar_order(main_window) -> None:
    metas = list(registry.metas().values())
    actions = main_window.module_go_actions
    assert len(actions) == len(metas)
    for row, (action, meta) in enumerate(zip(actions, metas, strict=True)):
        assert action.text().replace("&", "") == f"{row + 1} {meta.name}"
        assert action.shortcut().toString() == f"Ctrl+{row + 1}"
    # Click every entry: the sidebar and the workspace follow.
    for row, action in reversed(list(enumerate(actions))):
        action.trigger()
        assert main_window.sidebar.currentRow() == row
        wanted = main_window.sidebar.item(row).data(Qt.ItemDataRole.UserRole)
        assert main_window.current().plugin.meta.id == wanted
