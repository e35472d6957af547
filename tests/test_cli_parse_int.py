"""Whole-number options: a number too long for the option is "too large", never "not a whole number".

``parse_int`` took at most 18 digits, so a 19-digit number (and a valid 19-digit ``--seed`` of
``doves puzzles``, whose range ends at 2**63 - 1) was called "expected a whole number".
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from solvers.common import cli
from solvers.common.errors import InputError
from workbench.cli import MAX_LIMIT, main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = str(ROOT / "assets" / "example" / "samples" / "latin_5x5.latin")
TOICHIKA = str(ROOT / "assets" / "toichika" / "samples" / "a_6x6_first_steps.toichika")
BIG = "1234567890123456789"  # 19 digits


def _refused(convert, text: str) -> str:
    with pytest.raises(argparse.ArgumentTypeError) as info:
        convert(text)
    return str(info.value)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one stderr line of a refused command line (exit 2, nothing on stdout)."""
    assert main(list(argv)) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    return err.strip()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (BIG, f"too large: at most 18 digits, got {BIG}"),
        ("+" + BIG, f"too large: at most 18 digits, got +{BIG}"),
        ("-" + BIG, f"too small: at most 18 digits, got -{BIG}"),
        ("9" * 5000, "too large: at most 18 digits, got a 5000-digit number"),
    ],
    ids=["19-digits", "plus-sign", "negative", "5000-digits"],
)
def test_parse_int_calls_a_long_number_too_large(text: str, message: str) -> None:
    assert _refused(cli.parse_int, text) == message


def test_parse_int_still_reads_what_it_read_and_refuses_what_is_no_number() -> None:
    assert cli.parse_int("999999999999999999") == 10**18 - 1  # 18 digits
    assert cli.parse_int(" -42 ") == -42 and cli.parse_int("+7") == 7
    assert cli.parse_int("0" * 30 + "5") == 5  # leading zeros add no size
    for text in ("\u0663", "\u00b2", "1_0", "0x10", "1e5", "", "+", "12a"):  # unicode digits stay refused
        assert _refused(cli.parse_int, text).startswith("expected a whole number, got ")


def test_int_range_reads_its_whole_range_and_calls_the_rest_out_of_range() -> None:
    seed = cli.int_range(0, 2**63 - 1)  # doves/flow --seed: a 19-digit range
    assert seed("9223372036854775807") == 2**63 - 1
    assert _refused(seed, "9223372036854775808") == (
        "must be between 0 and 9223372036854775807, got 9223372036854775808 (too large)"
    )
    small = cli.int_range(2, 30)
    assert _refused(small, "40") == "must be between 2 and 30, got 40 (too large)"
    assert _refused(small, "1") == "must be between 2 and 30, got 1 (too small)"
    assert _refused(small, BIG) == f"must be between 2 and 30, got {BIG} (too large)"
    assert (
        _refused(small, "-" + "9" * 5000) == "must be between 2 and 30, got a 5000-digit number (too small)"
    )
    assert _refused(small, "\u0663") == "expected a whole number, got '\u0663'"


def test_the_cli_names_the_option_its_range_and_the_size(capsys: pytest.CaptureFixture[str]) -> None:
    err = _run(capsys, "solve", "example", SAMPLE, "--limit", BIG)
    assert err.endswith(f"argument --limit: must be between 0 and {MAX_LIMIT}, got {BIG} (too large)")
    err = _run(capsys, "doves", "ai", "b;B", "--level", BIG)
    assert err.endswith(f"argument --level: must be between 1 and 6, got {BIG} (too large)")
    err = _run(capsys, "explain", "toichika", TOICHIKA, "--export-step", BIG, "out.png")
    assert err.endswith(f"--export-step N: too large: at most 18 digits, got {BIG}")
    for argv in (("solve", "example", SAMPLE, "--limit"), ("doves", "ai", "b;B", "--level")):
        assert "whole number" not in _run(capsys, *argv, "9" * 5000)
        assert "expected a whole number, got '\u0663'" in _run(capsys, *argv, "\u0663")


def test_a_score_vector_names_the_long_number() -> None:
    from solvers.ninetiles.cli import _vector

    with pytest.raises(InputError) as info:
        _vector(",".join(["0"] * 25 + [BIG]))
    assert str(info.value) == f"bad score vector: too large: at most 18 digits, got {BIG}"


def test_a_19_digit_seed_in_range_is_taken(capsys: pytest.CaptureFixture[str]) -> None:
    err = _run(capsys, "doves", "puzzles", "--seed", "9223372036854775808")
    assert err.endswith(
        "argument --seed: must be between 0 and 9223372036854775807, got 9223372036854775808 (too large)"
    )
    # the largest seed is parsed (the run then stops at its timeout or finds its puzzles)
    assert main(
        ["doves", "puzzles", "--seed", "9223372036854775807", "--count", "1", "--timeout", "0.1"]
    ) in (0, 3)
    assert "whole number" not in capsys.readouterr().err


def test_a_long_number_of_seconds_is_out_of_range_not_no_number() -> None:
    """The float options took at most 12 digits: --timeout 1234567890123 was "expected a number"."""
    assert _refused(cli.seconds, "1234567890123").startswith(
        "must be a finite number more than 0 and at most"
    )
    assert "got 1234567890123" in _refused(cli.seconds, "1234567890123")
    assert _refused(cli.seconds, "9" * 500).endswith("(500 characters)")  # the echo is clipped
    assert cli.seconds("0.000000000000001") == 1e-15 and cli.seconds("2.5") == 2.5
    for text in ("nan", "1_0", "٣", "inf", "", "1e", "."):
        assert _refused(cli.seconds, text).startswith(("expected a number", "must be a finite number"))
