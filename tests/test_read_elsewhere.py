"""A text the shown module cannot read but another can says which (QA pass 7: a Tokyo Doves
position opened in Flow said "ragged rows: this row has 1 cells"). It still opens only where the
user puts it: the message names the module to choose."""

from __future__ import annotations

from pathlib import Path

import pytest

from solvers.common import registry
from solvers.common.errors import InputError
from workbench.pasted_text import other_readers, reading_error, with_other_readers

ROOT = Path(__file__).resolve().parents[1]
DOVES = (ROOT / "assets" / "doves" / "samples" / "02-win-in-3.doves").read_text(encoding="utf-8")
XO = (ROOT / "assets" / "xcetero" / "samples" / "02-edge-opening.xo").read_text(encoding="utf-8")


def test_another_modules_file_is_named() -> None:
    flow = registry.get("flow")
    assert with_other_readers("x", DOVES, flow) == (
        "x. It reads as a Tokyo Doves file: choose Tokyo Doves on the left and open it there."
    )
    said = reading_error(XO.strip(), flow, InputError("line 5, column 6: ragged rows"))
    assert said == (
        "Not a Flow Free puzzle: line 5, column 6: ragged rows. It reads as an X-ceter-O file: "
        "choose X-ceter-O on the left and open it there."
    )


def test_the_command_line_names_the_kind_to_give(tmp_path, capsys) -> None:
    from workbench.cli import main

    wrong = tmp_path / "doves_as.flow"
    wrong.write_text(DOVES, encoding="utf-8")
    assert main(["solve", "flow", str(wrong)]) == 2
    err = capsys.readouterr().err
    assert err.strip().endswith("It reads as a Tokyo Doves file: give its kind instead: doves.")
    assert main(["solve", "flow", str(tmp_path / "missing.flow")]) == 2  # no file: nothing to name
    assert "It reads as" not in capsys.readouterr().err


@pytest.mark.parametrize("text", ["", "hello world\n", "\x00\x01", "R.R\nG.\n"])
def test_nothing_is_suggested_for_what_no_module_reads(text: str) -> None:
    assert other_readers(text, registry.get("doves")) == []


def test_opening_another_modules_file_names_it(main_window, tmp_path) -> None:
    errors: list[str] = []
    main_window.error_shown.connect(errors.append)
    wrong = tmp_path / "doves_as.flow"
    wrong.write_text(DOVES, encoding="utf-8")
    assert not main_window.files.open_path(wrong, "flow")
    assert errors[-1].startswith("doves_as.flow: ")
    assert errors[-1].endswith(
        ". It reads as a Tokyo Doves file: choose Tokyo Doves on the left and open it there."
    )
