"""Module CLI: solve/generate/convert, JSON shape, errors (exit 2, one line, no traceback)."""

from __future__ import annotations

import json
from pathlib import Path

from flow_checker import verify

from solvers.flow import PLUGIN


def test_solve_json_unsolvable(shared_reference: Path, capsys) -> None:
    path = shared_reference / "flow/puzzles/unsolvable_cross.txt"
    assert PLUGIN.cli(["solve", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["count"], out["complete"], out["unique"], out["rules"]) == (0, True, False, "strict")
    assert out["solutions"] == []


def test_solve_json_sample(capsys) -> None:
    path = PLUGIN.sample_paths()[0]
    assert PLUGIN.cli(["solve", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["kind"], out["count"], out["complete"], out["unique"], out["rules"]) == (
        "flow",
        1,
        True,
        True,
        "designed",
    )
    solution = out["solutions"][0]
    assert solution["rules"] == "designed"
    rows = path.read_text().split()
    verify(rows, solution["grid"], solution["paths"], designed=True)


def test_solve_strict_limit_text(capsys) -> None:
    path = PLUGIN.sample_paths()[0]
    assert PLUGIN.cli(["solve", str(path), "--rules", "strict", "--limit", "2"]) == 0
    text = capsys.readouterr().out
    # The verdict names the rule set in words (this sample has a second solution under the game rules).
    assert text.rstrip().splitlines()[-1].startswith("2+ solutions under the game rules (")
    assert "# game rules" in text


def test_generate_and_convert(tmp_path: Path, capsys) -> None:
    assert PLUGIN.cli(["generate", "6", "4", "--colors", "4", "--seed", "5"]) == 0
    text = capsys.readouterr().out
    puzzle = PLUGIN.parse(text)
    assert (puzzle.rows, puzzle.cols, len(puzzle.colours)) == (4, 6, 4)
    assert PLUGIN.count(puzzle).status() == "unique"
    assert PLUGIN.cli(["generate", "6", "4", "--colors", "4", "--seed", "5"]) == 0
    assert capsys.readouterr().out == text  # a seed reproduces the puzzle
    assert PLUGIN.cli(["generate", "5", "5", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["unique"] is True and out["rules"] == "designed" and len(out["puzzle"]) == 5
    file = tmp_path / "p.txt"
    file.write_text(text)
    assert PLUGIN.cli(["convert", str(file), "--to", "spaced"]) == 0
    spaced = capsys.readouterr().out
    assert " " in spaced and PLUGIN.parse(spaced) == puzzle
    assert PLUGIN.cli(["convert", str(file), "--to", "labels"]) == 0
    labels = PLUGIN.parse(capsys.readouterr().out)
    assert labels.label_form and len(labels.colours) == 4


def test_errors_are_one_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("R.G\nR*G\n")
    assert PLUGIN.cli(["solve", str(bad)]) == 2
    err = capsys.readouterr().err
    assert (
        err.strip()
        == "workbench flow: line 2, column 2: unknown character '*' (use . or - for an empty cell, # a hole, "
        "+ a bridge, A-Z a-z 0-9 for endpoints)"
    )
    assert PLUGIN.cli(["solve", str(tmp_path / "missing.txt")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert PLUGIN.cli(["generate", "6", "x"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert PLUGIN.cli(["frobnicate"]) == 2
    assert PLUGIN.cli(["generate", "3", "3", "--colors", "9"]) == 2
    assert "cannot place" in capsys.readouterr().err


def test_convert_says_what_the_target_form_cannot_hold(tmp_path: Path, capsys) -> None:
    """QA: '--to wh' dropped 'rules: numberlink' without a word, and the board read back was solved
    under Flow rules ("2+ (Numberlink rules)" became "unique (designed)")."""
    source = tmp_path / "nl.txt"
    source.write_text("rules: numberlink\nlabels: shown\nA.B\n...\nA.B\n", encoding="utf-8")
    assert PLUGIN.cli(["convert", str(source), "--to", "wh"]) == 0
    out, err = capsys.readouterr()
    assert out == "3 3\nA.B\n...\nA.B\n"
    assert "'W H' form has no place for Numberlink rules" in err and "'labels: shown'" in err
    assert PLUGIN.cli(["convert", str(source), "--to", "url"]) == 0  # the 'e' flag keeps the rules
    out, err = capsys.readouterr()
    assert PLUGIN.parse(out.strip()).rules == "numberlink" and err == ""


def test_convert_of_a_collection_passes_its_note_on(tmp_path: Path, capsys) -> None:
    source = tmp_path / "two.txt"
    source.write_text("3 1\nA.A\n\n3 1\nB.B\n", encoding="utf-8")
    assert PLUGIN.cli(["convert", str(source)]) == 0
    out, err = capsys.readouterr()
    assert out == "A.A\n" and "note: the file holds 2 puzzles; this is the first" in err


def test_the_label_form_names_the_colour_it_cannot_hold(tmp_path: Path, capsys) -> None:
    """QA: two colours Z and Q were told "the label form holds only the 16 colours A..P"."""
    source = tmp_path / "zq.txt"
    source.write_text("Z.Q\n...\nZ.Q\n", encoding="utf-8")
    assert PLUGIN.cli(["convert", str(source), "--to", "labels"]) == 2
    err = capsys.readouterr().err
    assert "drawn in colour" in err and "--to mnemonic keeps every colour" in err
    assert err.count("\n") == 1


def test_convert_to_pzprv3_keeps_a_drawn_answer(tmp_path: Path, capsys) -> None:
    """QA: a pzprv3 file with its answer drawn came out of 'convert --to pzprv3' with every line
    value 0 (the answer was read, then dropped before writing)."""
    from solvers.flow import pzpr

    puzzle = PLUGIN.parse("rules: numberlink\n1.1\n2.2\n")
    (solution,) = list(PLUGIN.solve(puzzle, limit=2))
    text = pzpr.write_pzprv3(puzzle, PLUGIN.entries_from_solution(puzzle, solution))
    source = tmp_path / "solved.txt"
    source.write_text(text, encoding="utf-8")
    assert PLUGIN.cli(["convert", str(source), "--to", "pzprv3"]) == 0
    out = capsys.readouterr().out
    assert out == text and "1" in out.split("\n", 6)[6]  # the line block holds the answer
