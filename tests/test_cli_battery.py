"""CLI battery: every command and module command with malformed files, strings and options.

The promise under test (README, "Command line"): bad input exits 2 with exactly one line on stderr
and no traceback, quickly and within a memory bound. Starting Python here costs seconds (numba,
pysat, Qt), so the bulk runs in ONE subprocess (this file run as a script: it calls the CLI entry
point in-process per case, under ``RLIMIT_AS``, with a per-case alarm) and a handful of behaviours
that need a real process run as their own subprocesses: no arguments, Ctrl+C (SIGINT -> 130), and
``--timeout`` (exit 3) both when the command polls its cancel token and when it cannot.
"""

from __future__ import annotations

import io
import json
import os
import resource
import signal
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MEMORY_BYTES = 3 * 2**30
CASE_SECONDS = 60.0  # per in-process case (the alarm turns a hang into a reported failure)
CASE_CPU_SECONDS = 10.0  # a case that computes longer than this is a finding (CPU time: load-proof)
SAMPLES = {
    "example": "assets/example/samples/latin_5x5.latin",
    "flow": "assets/flow/samples/02-7x7.txt",
    "toichika": "assets/toichika/samples/a_6x6_first_steps.toichika",
    "ninetiles": "assets/ninetiles/samples/example_town.town",
    "doves": "assets/doves/samples/02-win-in-3.doves",
    "xcetero": "assets/xcetero/samples/02-edge-opening.xo",
}
BAD_NUMBERS = [
    "-1",
    "-40",
    "nan",
    "inf",
    "-inf",
    "1e999",
    "1" * 40,
    "abc",
    "",
    "\u0663",
    "\u00b2",
    "0x10",
    "1_0",
]
BAD_STRINGS = [
    "",
    " ",
    "\u00b2\u00b2\u00b2",
    "\u0663",
    "-1",
    "nan",
    "a" * 5000,
    "\u2603",
    "https://puzz.link/p?toichika/\u00b2/3/abc",
    "https://puzz.link/p?toichika/" + "9" * 5000 + "/3/abc",
    "\u00b2" * 9 + "0" * 9,
    "/etc",
]


# ---- building the cases -------------------------------------------------------------------------------


def _files(tmp: Path) -> dict[str, dict[str, str]]:
    """Per kind: malformed files named by what is wrong with them."""
    out: dict[str, dict[str, str]] = {}
    (tmp / "a_folder.txt").mkdir()
    fifo = tmp / "fifo.txt"
    os.mkfifo(fifo)
    for kind, rel in SAMPLES.items():
        sample = (ROOT / rel).read_bytes()
        ext = Path(rel).suffix
        files = {
            "empty": b"",
            "blank": b"\n \n\t\n",
            "binary": bytes(range(256)) * 4,
            "not-utf8": sample[:20] + b"\xff\xfe\xc3(" + sample[20:],
            # a .town holds its code on line 1: half the file would still be a whole town
            "truncated": sample[: 9 if kind == "ninetiles" else len(sample) // 2],
            "huge": sample * (3_000_000 // len(sample) + 1),
            "unicode-digits": (
                sample.decode().translate(
                    str.maketrans(
                        "0123456789", "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669"
                    )
                )
                + "\u00b2\n"
            ).encode(),
        }
        paths = {}
        for name, data in files.items():
            path = tmp / f"{kind}-{name}{ext}"
            path.write_bytes(data)
            paths[name] = str(path)
        paths["directory"] = str(tmp / "a_folder.txt")
        paths["missing"] = str(tmp / f"missing{ext}")
        paths["fifo"] = str(fifo)
        paths["dev-zero"] = "/dev/zero"
        out[kind] = paths
    return out


def build_cases(tmp: Path) -> list[list[str]]:
    files = _files(tmp)
    out_png = str(tmp / "out.png")
    cases: list[list[str]] = []
    # shell commands x malformed files (the huge file only through `check`: it is the slow one)
    for kind, paths in files.items():
        for name, path in paths.items():
            commands = ["check"] if name == "huge" else ["check", "solve", "explain", "export"]
            for command in commands:
                cases.append([command, kind, path] + ([out_png] if command == "export" else []))
    # module commands x malformed files
    module_file_commands = {
        "flow": [["solve"], ["convert"]],
        "toichika": [["url"], ["convert"], ["uniqueness"], ["hint"]],
        "doves": [["analyse"], ["perft"], ["ai"]],
        "xcetero": [["value"]],
    }
    for kind, commands in module_file_commands.items():
        for name, path in files[kind].items():
            if name == "huge":
                continue
            for command in commands:
                cases.append([kind, *command, path])
    # malformed inline strings, as INPUT of every kind and of the module commands taking one
    for text in BAD_STRINGS:
        for kind in SAMPLES:
            cases.append(["solve", kind, text])
        cases += [
            ["flow", "solve", text],
            ["toichika", "url", text],
            ["ninetiles", "score", text],
            ["ninetiles", "towns", text, "--store", str(tmp / "no-store")],
            ["doves", "analyse", text],
            ["doves", "perft", text],
            ["xcetero", "value", text],
        ]
    # malformed options: each command is valid but for the one bad value
    sample = {k: str(ROOT / v) for k, v in SAMPLES.items()}
    store = str(tmp / "no-store")
    new_store = str(tmp / "never-created")
    option_templates = [
        ["solve", "example", sample["example"], "--limit", "{}"],
        ["solve", "example", sample["example"], "--timeout", "{}"],
        ["export", "example", sample["example"], out_png, "--cell-size", "{}"],
        ["export", "example", sample["example"], out_png, "--margin", "{}"],
        ["export", "example", sample["example"], out_png, "--timeout", "{}"],
        ["explain", "toichika", sample["toichika"], "--timeout", "{}"],
        ["flow", "solve", sample["flow"], "--limit", "{}"],
        ["flow", "solve", sample["flow"], "--timeout", "{}"],
        ["flow", "generate", "{}", "5"],
        ["flow", "generate", "5", "{}"],
        ["flow", "generate", "5", "5", "--colors", "{}"],
        ["flow", "generate", "5", "5", "--seed", "{}"],
        ["flow", "generate", "5", "5", "--timeout", "{}"],
        ["doves", "analyse", "b;B", "--depth", "{}"],
        ["doves", "analyse", "b;B", "--timeout", "{}"],
        ["doves", "perft", "--depth", "{}"],
        ["doves", "puzzles", "--win", "{}"],
        ["doves", "puzzles", "--count", "{}"],
        ["doves", "puzzles", "--seed", "{}"],
        ["doves", "ai", "b;B", "--level", "{}"],
        ["doves", "count", "--timeout", "{}"],
        ["ninetiles", "best", "{}", "2", "3", "--store", store],
        ["ninetiles", "best", "1", "2", "3", "--limit", "{}", "--store", store],
        ["ninetiles", "best", "1", "2", "3", "--offset", "{}", "--store", store],
        ["ninetiles", "towns", ",".join(["0"] * 26), "--limit", "{}", "--store", store],
        ["ninetiles", "enumerate", "--workers", "{}", "--store", new_store],
        ["ninetiles", "enumerate", "--subset", "{}", "--store", new_store],
        ["ninetiles", "enumerate", "--timeout", "{}", "--store", new_store],
        ["xcetero", "analyse", "--timeout", "{}"],
        ["xcetero", "value", ".../.../... 1", "--timeout", "{}"],
        ["toichika", "uniqueness", sample["toichika"], "--timeout", "{}"],
    ]
    for template in option_templates:
        for value in BAD_NUMBERS:
            cases.append([a.replace("{}", value) if a == "{}" else a for a in template])
    # usage errors: unknown commands and options, missing arguments, damaged stores
    for kind in ("flow", "toichika", "ninetiles", "doves", "xcetero"):
        cases += [[kind], [kind, "frobnicate"], [kind, "--frobnicate"]]
    cases += [
        ["solve"],
        ["solve", "nokind", sample["example"]],
        ["check", "example", sample["example"], "--frobnicate"],
        ["kinds", "--json=1"],
        ["frobnicate"],
        ["export", "example", sample["example"], str(tmp / "out.bmp")],
        ["export", "example", sample["example"], str(tmp / "no-dir" / "out.png")],
        ["flow", "generate", "3", "3", "--colors", "9"],
        ["doves", "puzzles", "--win", "4"],
        ["doves", "analyse", "b;B", "--to-move", "blue"],
        ["ninetiles", "best", "1", "1", "2", "--store", store],
        ["toichika", "convert", sample["toichika"], "--to", "gif"],
    ]
    damaged = tmp / "damaged-store"
    damaged.mkdir()
    (damaged / "meta.json").write_text("[1]")
    a_file = files["flow"]["binary"]
    for store_arg in (str(damaged), a_file, store, "/dev/null", str(Path(a_file) / "below")):
        cases += [
            ["ninetiles", "stats", "--store", store_arg],
            ["ninetiles", "best", "1", "2", "3", "--store", store_arg],
            [
                "ninetiles",
                "enumerate",
                "--subset",
                "3",
                "--store",
                store_arg if store_arg != store else a_file,
            ],
        ]
    cases += [["ninetiles", "enumerate", "--subset", n, "--store", new_store] for n in ("1", "2", "-1", "0")]
    # Doves folders: a file, or a folder below a file, as --store / --dir (tracebacks until 2026-11-26)
    for folder in (a_file, str(Path(a_file) / "below"), "/dev/null"):
        cases += [
            ["doves", "retro", "M", "--store", folder],
            ["doves", "retro", "M", "--method", "backward", "--store", folder],
            ["doves", "tablebase", "build", "M", "--dir", folder],
        ]
        if not folder.endswith("below"):  # listing a folder that does not exist lists no table
            cases.append(["doves", "tablebase", "list", "--dir", folder])
    return cases


# ---- the in-process driver (this file run as a script) ----------------------------------------------


class _CaseTimeout(BaseException):
    pass


def _on_alarm(signum: int, frame: object) -> None:
    raise _CaseTimeout()


def drive() -> None:
    """Read cases (JSON argv lists) on stdin; write one JSON result per case on the real stdout."""
    sys.path.insert(0, str(ROOT))
    from workbench.cli import main

    cases = json.load(sys.stdin)
    real_stdout = sys.stdout
    signal.signal(signal.SIGALRM, _on_alarm)
    results = []
    for argv in cases:
        err, out = io.StringIO(), io.StringIO()
        start = time.process_time()
        signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
        try:
            with redirect_stderr(err), redirect_stdout(out):
                code: object = main(list(argv))
        except _CaseTimeout:
            code = "hang"
        except BaseException as exc:  # noqa: BLE001 - anything escaping the CLI is the finding
            code = f"escaped {type(exc).__name__}: {str(exc)[:200]}"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        results.append(
            {
                "argv": argv,
                "code": code,
                "err": err.getvalue(),
                "seconds": round(time.process_time() - start, 3),  # CPU
            }
        )
    real_stdout.write(
        json.dumps({"results": results, "max_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss})
    )


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def _env() -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PUZZLE_WORKBENCH_SETTINGS": "test"}


def _workbench(*argv: str, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "workbench", *argv],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_limit_memory,
        **kw,
    )


def _one_clean_line(err: str) -> bool:
    return err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err


# ---- the tests -----------------------------------------------------------------------------------------

# Parser fixes owned by another branch (issue 15 items 1, 3, 7); these cases are reported by
# test_known_parser_findings until that branch is merged, then join the main assertion.
KNOWN_ELSEWHERE = {
    "truncated .toichika board accepted (item 7)": lambda argv: any("toichika-truncated" in a for a in argv),
    "unicode or 5,000-digit numbers reach int() in the toichika URL / town code parsers (items 1, 3)": (
        lambda argv: (
            any(a.startswith("https://puzz.link/p?toichika/") for a in argv)
            or argv[:2] == ["solve", "ninetiles"]
            and argv[2] == "\u00b2" * 9 + "0" * 9
        )
    ),
}


def _known(argv: list[str]) -> str | None:
    return next((name for name, match in KNOWN_ELSEWHERE.items() if match(argv)), None)


def _broken(result: dict) -> bool:
    return result["code"] != 2 or not _one_clean_line(result["err"]) or result["seconds"] > CASE_CPU_SECONDS


def _summary(results: list[dict]) -> str:
    return "\n".join(f"{r['code']} {r['seconds']}s {r['argv']!r:.160} -> {r['err'][:300]!r}" for r in results)


@pytest.fixture(scope="module")
def battery(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Run the driver and the true-subprocess cases side by side (2 cores: wall time ~ the longest)."""
    tmp = tmp_path_factory.mktemp("battery")
    cases = build_cases(tmp)
    procs = {
        "no_args": _workbench("xcetero"),
        "polled_timeout": _workbench("flow", "generate", "100", "100", "--colors", "62", "--timeout", "1"),
        "stuck_timeout": _workbench("doves", "perft", "--depth", "7", "--timeout", "1"),
        "export_flood": _workbench(
            "export", "flow", SAMPLES["flow"], str(tmp / "x.png"), "--cell-size", "100000"
        ),
    }
    started = time.monotonic()
    driver = subprocess.run(
        [sys.executable, __file__],
        input=json.dumps(cases),
        cwd=tmp,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=1800,
        preexec_fn=_limit_memory,
    )
    assert driver.returncode == 0, driver.stderr[-2000:]
    report = json.loads(driver.stdout)
    report["tmp"] = tmp
    report["wall"] = time.monotonic() - started
    report["procs"] = {name: (*p.communicate(timeout=120), p.returncode) for name, p in procs.items()}
    return report


def test_malformed_input_exits_2_with_one_line(battery: dict) -> None:
    results = [r for r in battery["results"] if not _known(r["argv"])]
    bad = [r for r in results if _broken(r)]
    assert len(results) > 800
    assert not bad, f"{len(bad)} of {len(results)} cases broke the exit-2 rule:\n{_summary(bad)}"
    assert not (battery["tmp"] / "never-created").exists(), "a rejected enumerate created its folder"
    assert battery["max_rss_kb"] < MEMORY_BYTES // 1024


def test_known_parser_findings(battery: dict) -> None:
    bad = [r for r in battery["results"] if _known(r["argv"]) and _broken(r)]
    assert not bad, _summary(bad)


def test_no_arguments_is_one_line_and_exit_2(battery: dict) -> None:
    out, err, code = battery["procs"]["no_args"]
    assert code == 2 and _one_clean_line(err) and out == "", (out, err)


def test_timeout_ends_with_exit_3(battery: dict) -> None:
    # flow generate polls its token; perft sits in one numba call the watchdog has to end.
    assert battery["procs"]["polled_timeout"][1:] == ("workbench flow: timed out after 1 s\n", 3)
    assert battery["procs"]["stuck_timeout"][1:] == ("workbench doves: timed out after 1 s\n", 3)


def test_absurd_export_size_is_refused_before_painting(battery: dict) -> None:
    _, err, code = battery["procs"]["export_flood"]
    assert code == 2 and _one_clean_line(err) and "--cell-size" in err, err  # no QPainter flood
    assert not (battery["tmp"] / "x.png").exists()


def test_ctrl_c_ends_a_long_command_with_130(tmp_path: Path) -> None:
    """SIGINT once the build is under way: exit 130, a last line saying so, no traceback, resumable."""
    store = tmp_path / "store"
    proc = _workbench("ninetiles", "enumerate", "--store", str(store), "--workers", "1")
    assert proc.stderr is not None
    first = proc.stderr.readline()  # printed once the arguments and the folder passed their checks
    assert first.startswith("ninetiles: building the store"), first
    time.sleep(0.5)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, rest = proc.communicate(timeout=60)
    assert proc.returncode == 130, rest
    assert time.monotonic() - sent < 30.0  # the shard under way finishes, or the 3 s grace ends it
    assert rest.splitlines()[-1] == "workbench ninetiles: interrupted" and "Traceback" not in rest
    meta = json.loads((store / "meta.json").read_text())
    assert meta["complete"] is False  # left to resume, not half-deleted


if __name__ == "__main__":
    drive()
