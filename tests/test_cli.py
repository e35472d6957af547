"""The command line: JSON shape, exit codes, clean errors, export and screenshots."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = str(ROOT / "assets" / "example" / "samples" / "latin_5x5.latin")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_json_shape(capsys) -> None:
    code, out, _ = run(capsys, "solve", "example", SAMPLE, "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) >= {"kind", "solutions", "count", "complete", "unique", "seconds"}
    assert (data["count"], data["complete"], data["unique"]) == (1, True, True)
    assert data["solutions"][0]["grid"] == ["12345", "21453", "34512", "45231", "53124"]


def test_solve_limits(capsys, tmp_path: Path) -> None:
    blank = tmp_path / "blank.latin"
    blank.write_text("....\n....\n....\n....\n")
    data = json.loads(run(capsys, "solve", "example", str(blank), "--json", "--limit", "0")[1])
    assert (data["count"], data["complete"], data["unique"]) == (576, True, False)
    data = json.loads(run(capsys, "solve", "example", str(blank), "--json", "--limit", "3")[1])
    assert (data["count"], data["complete"], data["unique"]) == (3, False, False)


def test_no_solution(capsys, tmp_path: Path) -> None:
    clash = tmp_path / "clash.latin"
    clash.write_text("11\n..\n")
    data = json.loads(run(capsys, "solve", "example", str(clash), "--json")[1])
    assert (data["count"], data["complete"], data["unique"]) == (0, True, False)


@pytest.mark.parametrize(
    "argv, needle",
    [
        (("solve", "nokind", SAMPLE), "unknown kind"),
        (("solve", "example", "/no/such/file.latin"), "no such file"),
        (("solve", "example", SAMPLE, "--limit", "x"), "expected a whole number"),
        (("frobnicate",), "unknown command or kind"),
        (("export", "example", SAMPLE, "/tmp/out.bmp"), "unknown export format"),
        (("solve", "flow", ""), "the puzzle argument is empty"),
        (("check", "toichika", "  "), "the puzzle argument is empty"),
        # Flow's --rules belongs to its module command: the error says where to look.
        (("solve", "flow", "numlin/2/1/11", "--rules", "strict"), "--rules strict (module commands"),
        (("solve", "flow", "numlin/2/1/11", "--rules", "strict"), "workbench flow --help"),
    ],
)
def test_bad_input_exit_2_one_line(capsys, argv, needle) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_malformed_file_names_location(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.latin"
    bad.write_text("12\n1?\n")
    code, _, err = run(capsys, "check", "example", str(bad))
    assert code == 2 and "line 2, column 2" in err


def test_check_and_kinds(capsys) -> None:
    code, out, _ = run(capsys, "check", "example", SAMPLE, "--json")
    assert code == 0 and json.loads(out)["violations"] == []
    code, out, _ = run(capsys, "kinds", "--json")
    assert "example" in [row["id"] for row in json.loads(out)]


def test_export_command(capsys, tmp_path: Path) -> None:
    for ext in ("png", "svg", "pdf"):
        out = tmp_path / f"x.{ext}"
        code, _, _ = run(capsys, "export", "example", SAMPLE, str(out), "--solved", "--palette", "dark")
        assert code == 0 and out.stat().st_size > 500
    # the file's title names the puzzle (it said "Puzzle Workbench diagram" whatever was drawn)
    assert "<title>latin_5x5 (Latin square)</title>" in (tmp_path / "x.svg").read_text(encoding="utf-8")


def test_screenshot_in_a_fresh_process(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "workbench",
            "--screenshot",
            str(out),
            "--kind",
            "example",
            "--open",
            SAMPLE,
            "--solve",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes().startswith(b"\x89PNG")
    assert "propagateSizeHints" not in proc.stderr  # the offscreen platform's line per window


def _waiting_command() -> tuple[object, object]:
    from solvers.common import cli

    parser = cli.Parser(prog="demo")
    cli.add_timeout(parser)
    parser.add_argument("--interrupt", action="store_true")

    def handler(args, cancel) -> int:
        if args.interrupt:
            import signal

            signal.raise_signal(signal.SIGINT)  # as Ctrl+C: the shared layer cancels the token
        for _ in range(200):  # a long job that polls its token
            cancel.raise_if_cancelled()
            cancel.wait(0.05)
        return 0

    return cli, lambda *argv: cli.run("demo", parser, handler, list(argv))


def test_shared_layer_timeout_and_ctrl_c(capsys) -> None:
    cli, run_demo = _waiting_command()
    assert run_demo("--timeout", "0.2") == cli.EXIT_TIMEOUT == 3
    assert capsys.readouterr().err == "demo: timed out after 0.2 s\n"
    assert run_demo("--interrupt") == cli.EXIT_INTERRUPTED == 130
    assert capsys.readouterr().err == "demo: interrupted\n"
    for bad in ("0", "-1", "nan", "inf", "1e999", "abc", "\u0663"):
        assert run_demo("--timeout", bad) == 2
        err = capsys.readouterr().err
        assert err.startswith("demo: argument --timeout:") and err.count("\n") == 1, err
    assert run_demo("--help") == 0 and "--timeout" in capsys.readouterr().out


def test_a_timed_out_solve_still_names_the_rule_set(capsys, tmp_path) -> None:
    """A solve the clock cuts short keeps what the solver had said: the rule set its answers refer
    to (the text line and --json), never a verdict."""
    board = (ROOT / "tests" / "flow" / "data" / "issue28_12x12.txt").read_text(encoding="utf-8")
    path = tmp_path / "numberlink.txt"
    path.write_text("rules: numberlink\n" + board, encoding="utf-8")  # ~8 s to a verdict
    code, out, _err = run(capsys, "solve", "flow", str(path), "--timeout", "0.3")
    assert code == 3 and ("(timed out)" in out or "timed out before" in out), out
    last = out.strip().splitlines()[-1]  # and, if its designed search ended by then, that one
    assert last.endswith(("rules: numberlink)", "rules: numberlink, proven: unique (designed))")), out
    code, out, _err = run(capsys, "solve", "flow", str(path), "--timeout", "0.3", "--json")
    data = json.loads(out)
    assert code == 3 and data["rules"] == "numberlink" and data["stop"] == "timeout"
    assert "verdict" not in data and data["complete"] is False
    assert data.get("proven", "unique (designed)") == "unique (designed)"  # the 12x12 is designed-unique


def test_a_dash_reads_the_puzzle_from_standard_input(tmp_path: Path) -> None:
    """QA: 'solve flow -' said "no such file: '-'"; command-line tools read standard input there."""

    def run_with(data: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "workbench", "solve", "flow", "-"],
            input=data,
            cwd=tmp_path,  # no file named '-' here
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )

    done = run_with("A.A\nB.B\n")
    assert done.returncode == 0 and done.stdout.splitlines()[-1].startswith("unique (designed)")
    empty = run_with("")
    assert empty.returncode == 2 and "standard input is empty" in empty.stderr
