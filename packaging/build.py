#!/usr/bin/env python3
"""Build the one-folder bundle ``dist/puzzle-workbench/`` and its ``.tar.gz`` with PyInstaller.

    python3 packaging/build.py [--dist DIR] [--work DIR] [--no-archive]

Needs PyInstaller in the Python that runs this script (``python3 -m pip install pyinstaller``)
and the application's own dependencies (``python3 -m pip install .``).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "puzzle-workbench.spec"
NAME = "puzzle-workbench"


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def archive_name(version: str) -> str:
    system = {"linux": "linux", "darwin": "macos", "win32": "windows"}.get(sys.platform, sys.platform)
    return f"{NAME}-{version}-{system}-{platform.machine().lower()}.tar.gz"


def make_archive(bundle: Path, target: Path) -> Path:
    """``target`` (.tar.gz) holding the folder ``bundle`` under its own name; written aside, then renamed."""
    partial = target.with_name(target.name + ".part")
    with tarfile.open(partial, "w:gz", compresslevel=6) as tar:
        tar.add(bundle, arcname=bundle.name)
    os.replace(partial, target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder (default dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build", help="PyInstaller's work folder")
    parser.add_argument("--no-archive", action="store_true", help="skip the .tar.gz")
    args = parser.parse_args(argv)
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        print("build.py: PyInstaller is not installed: python3 -m pip install pyinstaller", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    from workbench import __version__

    start = time.monotonic()
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN"]
    command += ["--distpath", str(args.dist), "--workpath", str(args.work), str(SPEC)]
    if subprocess.run(command, cwd=ROOT).returncode != 0:
        print("build.py: PyInstaller failed (see its messages above)", file=sys.stderr)
        return 1
    bundle = args.dist / NAME
    print(f"bundle: {bundle} ({folder_size(bundle) / 1e6:.0f} MB)")
    if not args.no_archive:
        archive = make_archive(bundle, args.dist / archive_name(__version__))
        print(f"archive: {archive} ({archive.stat().st_size / 1e6:.0f} MB)")
    print(f"build time: {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
